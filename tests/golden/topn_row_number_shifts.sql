-- Top-N with its row number on an append-only input: a row entering the top N shifts the rows
-- behind it (-U at the old rank, +U at the next; the last one +I, or dropped beyond N), with ties
-- kept in arrival order. Once with the default chunk size and once with two rows a chunk, so that
-- the output is emitted between a shifted row's two changes.
CREATE TEMPORARY VIEW bids AS SELECT * FROM (VALUES
  ('ax', 10, 'a1'), ('ax', 30, 'a2'), ('by', 5, 'b1'), ('ax', 20, 'a3'), ('ax', 40, 'a4'),
  ('by', 7, 'b2'), ('ax', 30, 'a5'), ('ax', 50, 'a6'), ('by', 7, 'b3'), ('ax', 5, 'a7'),
  ('by', 9, 'b4'), ('ax', 45, 'a8'), ('by', 1, 'b5'), ('by', 8, 'b6')) AS t(item, price, who);
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT * FROM (SELECT item, price, who, ROW_NUMBER() OVER (PARTITION BY item ORDER BY price DESC) AS rn FROM bids) WHERE rn <= 4;
SET 'weir.exec.chunk-rows' = '2';
SELECT * FROM (SELECT item, price, who, ROW_NUMBER() OVER (PARTITION BY item ORDER BY price DESC) AS rn FROM bids) WHERE rn <= 3;
SELECT who, rn FROM (SELECT item, price, who, ROW_NUMBER() OVER (PARTITION BY item ORDER BY price ASC) AS rn FROM bids) WHERE rn BETWEEN 2 AND 3;
-- the rank number projected out of order, and inside an expression (Flink names the plan's columns
-- differently for these; the result keeps the query's names)
SELECT rn, who FROM (SELECT item, price, who, ROW_NUMBER() OVER (PARTITION BY item ORDER BY price DESC) AS rn FROM bids) WHERE rn <= 2;
SELECT who AS w, rn + 1 AS next_rank, rn FROM (SELECT item, price, who, ROW_NUMBER() OVER (PARTITION BY item ORDER BY price DESC) AS rn FROM bids) WHERE rn <= 2 AND price > 5;
