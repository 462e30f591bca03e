-- SET without a value.
SET 'parallelism.default' =;
