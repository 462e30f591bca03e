-- An unknown time zone is rejected when set.
SET 'table.local-time-zone' = 'Mars/Olympus';
