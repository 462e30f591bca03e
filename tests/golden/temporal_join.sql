-- An event-time temporal join against a versioned table of rates.
CREATE TABLE rates (currency STRING, rate DECIMAL(5, 2), ts TIMESTAMP(3), PRIMARY KEY (currency) NOT ENFORCED,
  WATERMARK FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = '$DATA/rates.csv', 'format' = 'changelog-csv');
CREATE TABLE trades (id INT, currency STRING, amount INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '$DATA/trades.csv', 'format' = 'csv');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT t.id, t.amount * r.rate AS converted FROM trades t JOIN rates FOR SYSTEM_TIME AS OF t.ts AS r ON t.currency = r.currency;
