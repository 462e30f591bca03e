-- USE MODULES with a module not loaded.
USE MODULES core, nothing;
