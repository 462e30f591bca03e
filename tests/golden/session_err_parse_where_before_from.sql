-- Two keywords swapped: WHERE before FROM.
SELECT id WHERE status = 'open' FROM orders;
