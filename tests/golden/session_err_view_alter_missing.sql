-- ALTER VIEW of a missing view.
ALTER VIEW nothing RENAME TO other;
