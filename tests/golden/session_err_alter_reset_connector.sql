-- ALTER TABLE RESET of the connector.
CREATE TABLE t (a INT, b STRING, c AS a + 1) WITH ('connector' = 'datagen');
ALTER TABLE t RESET ('connector');
