-- LOAD MODULE core with an option the core module does not take.
UNLOAD MODULE core;
LOAD MODULE core WITH ('level' = '1');
