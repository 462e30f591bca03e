-- LOAD MODULE of a module already loaded.
LOAD MODULE core;
