-- UNNEST needs an ARRAY, MAP or MULTISET argument.
SELECT * FROM (VALUES (1, 'a')) AS t(id, s), UNNEST(t.id) AS u(x);
