-- A damaged compiled plan (exchange key) is refused with an error naming the node and the JSON field;
-- it never reaches the runtime (issue 19: EXECUTE PLAN trusted every index and crashed).
EXECUTE PLAN '$DATA/damaged_plans/exchange_key.json';
