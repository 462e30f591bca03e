-- A table name followed by something else: "." (its scan) is listed after the other tokens.
ALTER TABLE orders RENAME x y;
