-- A MAP unnests to two columns: one alias is not enough.
SELECT * FROM (VALUES (1, MAP['a', 1])) AS t(id, m) CROSS JOIN UNNEST(t.m) AS u(k);
