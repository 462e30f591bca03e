-- Flink's conformance level refuses != (write <>).
SELECT id FROM orders WHERE status != 'open';
