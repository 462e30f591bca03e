-- A catalog type weir and Flink do not know.
CREATE CATALOG c1 WITH ('type' = 'no-such-type');
