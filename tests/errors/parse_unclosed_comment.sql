-- An unclosed comment.
SELECT /* never closed
