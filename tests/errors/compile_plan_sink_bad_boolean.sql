-- A boolean option of the sink that is no boolean fails COMPILE PLAN (the sink is created while planning).
CREATE TABLE src (v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5');
CREATE TABLE out_p (v INT) WITH ('connector' = 'print', 'standard-error' = 'yes');
COMPILE PLAN '$TMP/plan.json' FOR INSERT INTO out_p SELECT v FROM src;
