-- A JDBC escape Calcite maps to its own SUBSTRING operator, which Flink's code generator does not have.
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT {fn SUBSTRING('abcdef', 2, 3)} AS a;
