-- LOAD MODULE of a module type weir and Flink's distribution lack.
LOAD MODULE hive;
