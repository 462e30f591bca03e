SELECT /*+ STATE_TTL('o' = '1d', 'c' = '12h') */ o.id, c.name
FROM orders o LEFT OUTER JOIN customers /*+ OPTIONS('lookup.cache' = 'none') */ FOR SYSTEM_TIME AS OF o.proc AS c ON o.cid = c.id
  RIGHT JOIN x USING (id) FULL JOIN y ON TRUE CROSS JOIN UNNEST(o.tags) AS t(tag), LATERAL TABLE(split(o.s)) AS s(w)
  NATURAL JOIN z;
