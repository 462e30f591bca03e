-- UNLOAD MODULE of a module not loaded.
UNLOAD MODULE hive;
