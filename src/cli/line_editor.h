/*
 * line_editor.h — the interactive client's line editor (private to src/cli): libedit in emacs
 * mode with a history file, working on UTF-8 text.
 *
 * Contract: wle_open switches the C library's character type (LC_CTYPE only) to a UTF-8 locale
 * for the session — the user's own when it is UTF-8, else C.UTF-8 — so that libedit decodes
 * typed multi-byte characters instead of dropping them, moves the cursor and erases by character
 * and gives each character its terminal width (wcwidth: CJK and emoji 2 columns, combining marks
 * 0). wle_close restores the previous LC_CTYPE. Lines come back as UTF-8 without the line break.
 * The prompt is `Flink SQL> ` (green when coloured) or `> ` for continuation lines.
 * Depends on libedit and cli/messages only.
 */
#ifndef WEIR_CLI_LINE_EDITOR_H
#define WEIR_CLI_LINE_EDITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct WLineEditor WLineEditor;

typedef enum WLineStatus {
    WLE_LINE = 0,       /* a line was read */
    WLE_EOF,            /* end of input (Ctrl-D on an empty line) */
    WLE_INTERRUPTED     /* the read was interrupted by a signal (Ctrl-C) */
} WLineStatus;

/* in/out: the terminal. history_path may be NULL (no history file). Never NULL. */
WLineEditor *wle_open(FILE *in, FILE *out, const char *history_path, bool color);
/* Read one line. continuation selects the `> ` prompt. *line (valid until the next call) is the
   text without the trailing line break when WLE_LINE is returned. */
WLineStatus wle_read(WLineEditor *le, bool continuation, const char **line, size_t *len);
/* Drop whatever was typed on the current line (after an interruption). */
void wle_reset(WLineEditor *le);
/* Add a complete statement to the history (and save the history file). */
void wle_add_history(WLineEditor *le, const char *statement);
/* true when the text runs in a UTF-8 locale (false only when none could be set). */
bool wle_utf8(const WLineEditor *le);
void wle_close(WLineEditor *le);

#endif
