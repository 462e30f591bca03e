-- DESCRIBE lists Calcite's describable starts, then its scanned FUNCTION / EXTENDED.
DESCRIBE;
