-- A database name that is taken.
CREATE DATABASE d1;
CREATE DATABASE d1;
