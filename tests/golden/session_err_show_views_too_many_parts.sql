-- SHOW VIEWS FROM takes [catalog.]database.
SHOW VIEWS FROM default_catalog.default_database.t;
