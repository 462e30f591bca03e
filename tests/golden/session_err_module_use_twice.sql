-- USE MODULES naming a module twice.
USE MODULES core, core;
