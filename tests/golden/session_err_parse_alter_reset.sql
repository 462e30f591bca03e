-- ALTER TABLE ... RESET takes its parenthesized key list right after RESET.
ALTER TABLE orders RESET 'a';
