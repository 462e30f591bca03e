SELECT 1 AS x;
SELECT 'never runs';
