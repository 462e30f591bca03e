-- An unterminated hint.
SELECT /*+ STATE_TTL('o' = '1d' 1;
