-- The SQL client's own commands: HELP, a query in tableau mode, QUIT ends the script.
SET 'sql-client.execution.result-mode' = 'tableau';

HELP;
SELECT 1 AS one_col;
QUIT;
SELECT 'never runs';
