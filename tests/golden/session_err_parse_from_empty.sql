-- FROM without a table.
SELECT id FROM;
