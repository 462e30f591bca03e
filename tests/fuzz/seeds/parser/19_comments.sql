-- a comment; with a semicolon
/* block; comment */ SELECT 1 -- trailing
; // another
SELECT 'it''s; fine', `we``ird; name` FROM t /* ; */;
