-- In a statement set, the second INSERT's sink has a bad option: nothing runs.
CREATE TABLE src (v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5');
CREATE TABLE ok_sink (v INT) WITH ('connector' = 'blackhole');
CREATE TABLE bad_sink (v INT) WITH ('connector' = 'print', 'standard-error' = 'on');
EXECUTE STATEMENT SET BEGIN
INSERT INTO ok_sink SELECT v FROM src;
INSERT INTO bad_sink SELECT v + 1 FROM src;
END;
