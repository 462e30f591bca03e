-- ALTER VIEW AS with a query that does not validate.
CREATE VIEW v AS SELECT 1 AS a;
ALTER VIEW v AS SELECT nothing FROM v;
