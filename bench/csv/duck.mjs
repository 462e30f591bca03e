// duck.mjs — DuckDB's time for the same filter + projection over the same CSV (bench/csv/run).
// Usage: node duck.mjs FILE THREADS
import { DuckDBInstance } from '@duckdb/node-api';
const [file, threads] = process.argv.slice(2);
const inst = await DuckDBInstance.create(':memory:', { threads: String(threads || 1) });
const con = await inst.connect();
const sql = `SELECT count(*) AS n, sum(id) AS s1, sum(amount * 2) AS s2, count(category) AS c
  FROM read_csv('${file}', header = false, auto_detect = false,
    columns = {'id': 'BIGINT', 'user_id': 'INTEGER', 'category': 'VARCHAR', 'amount': 'DECIMAL(10,2)', 'ts': 'TIMESTAMP'})
  WHERE amount > 500`;
const t0 = process.hrtime.bigint();
const cpu0 = process.cpuUsage();
const r = await con.runAndReadAll(sql);
const cpu = process.cpuUsage(cpu0);
const wall = Number(process.hrtime.bigint() - t0) / 1e9;
const rows = r.getRows()[0];
console.log(JSON.stringify({ wall_s: wall, cpu_s: (cpu.user + cpu.system) / 1e6, rows_out: String(rows[0]) }));
