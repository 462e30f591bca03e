-- IF NOT EXISTS is decided by a three-token lookahead: IF alone is the table's (non-reserved) name,
-- and the error at the next token lists what may follow a name plus the rest of the scan ("NOT").
CREATE TABLE IF orders (id INT) WITH ('connector' = 'datagen');
