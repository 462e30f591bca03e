-- No SHOW form matches: the statement choice fails at SHOW (statement starts, then its scans).
SHOW TABLE;
