-- CREATE VIEW ... AS without its query.
CREATE VIEW v AS;
