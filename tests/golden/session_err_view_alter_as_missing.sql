-- ALTER VIEW AS of a missing view.
ALTER VIEW nothing AS SELECT 1 AS a;
