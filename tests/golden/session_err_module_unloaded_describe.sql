-- DESCRIBE FUNCTION of a built-in function when the core module is unloaded.
UNLOAD MODULE core;
DESCRIBE FUNCTION `ABS`;
