// duck_rows.mjs — run one SQL text in DuckDB (in memory) and print its rows, '|'-separated, NULL as
// NULL (bench/diff/run). Usage: node duck_rows.mjs SQL
import { DuckDBInstance } from '@duckdb/node-api';
const [sql] = process.argv.slice(2);
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
const r = await con.runAndReadAll(sql);
for (const row of r.getRows()) console.log(row.map(v => v === null ? 'NULL' : String(v)).join('|'));
