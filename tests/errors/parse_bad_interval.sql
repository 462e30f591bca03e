-- An interval without a unit.
SELECT INTERVAL '5';
