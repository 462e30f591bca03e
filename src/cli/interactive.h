/*
 * interactive.h — the interactive SQL client (private to src/cli): line editing with history
 * (cli/line_editor: libedit, UTF-8 input), `Flink SQL> ` prompt and `> ` continuation until a
 * statement is complete.
 *
 * Contract: prints the banner and `Command history file path: <path>` (as Flink does), reads
 * statements until QUIT/EXIT or end of input (Ctrl-D), runs each through wcli_execute and adds it
 * to the history file. Ctrl-C at the prompt drops the current input; during a query it cancels
 * the query (see client.h). SIGINT must be blocked in the calling thread and a no-op handler
 * installed (main.c does both); it is unblocked only while waiting for input.
 * With stdin not a terminal the input is read as a script (echoed, not stopping at failures).
 * Depends on cli/client, cli/script, cli/messages, cli/line_editor.
 */
#ifndef WEIR_CLI_INTERACTIVE_H
#define WEIR_CLI_INTERACTIVE_H

#include "client.h"

/* Returns the process exit status. history_path NULL = ~/.weir-sql-history. */
int wcli_interactive(WClient *c, const char *history_path, const char *version);

#endif
