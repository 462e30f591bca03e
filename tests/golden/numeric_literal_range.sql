-- An exact numeric literal is taken while its unscaled value fits a BIGINT, the sign included
-- (Calcite's parser folds a leading minus into the literal): 19 significant digits pass, 20 are
-- "out of range" even where a DECIMAL(38) would hold them.
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT 9223372036854775807 AS max_big, -9223372036854775808 AS min_big, -2147483648 AS min_int,
       TYPEOF(-2147483649) AS t_big, 0.1234567890123456789 AS d19, TYPEOF(-0.1234567890123456789) AS t_d19,
       -0.5 AS half, TYPEOF(99.50) AS t_small;
SELECT -0.12345678901234567890 AS too_long;
