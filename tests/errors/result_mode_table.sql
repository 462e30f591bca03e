SELECT 1 AS one;
SELECT 'never runs';
