-- A hint spanning lines keeps the statement open although a line ends with ';' inside it; the
-- whole text then reaches the parser, which rejects the ';' in the hint.
SELECT /*+ hint
;
*/ 3 AS w;
