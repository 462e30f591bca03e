// duck.mjs — DuckDB's time for the same aggregation / join (bench/agg/run). Usage: node duck.mjs SQL THREADS
import { DuckDBInstance } from '@duckdb/node-api';
const [sql, threads] = process.argv.slice(2);
const inst = await DuckDBInstance.create(':memory:', { threads: String(threads || 1) });
const con = await inst.connect();
const t0 = process.hrtime.bigint();
const cpu0 = process.cpuUsage();
await con.runAndReadAll(sql);
const cpu = process.cpuUsage(cpu0);
console.log(`${Number(process.hrtime.bigint() - t0) / 1e9} ${(cpu.user + cpu.system) / 1e6}`);
