/*
 * messages.h — the SQL client's messages and statement-result printing (private to src/cli),
 * in the newest Flink wording (CliStrings / Printer / SqlClient).
 *
 * Contract: every text a Flink user sees from the client outside result tables lives here:
 * `[INFO] ...`, `[WARNING] ...`, `[ERROR] Could not execute SQL statement. Reason:` + the
 * exception class and message, job submission lines, HELP text, command-line usage. ANSI colours
 * only when `color` is true (stdout is a terminal). wmsg_print_result prints a WStmtResult (the
 * plain struct from session.h; no session function is called).
 * Depends on cli/tableau, session.h (types only), common/.
 */
#ifndef WEIR_CLI_MESSAGES_H
#define WEIR_CLI_MESSAGES_H

#include <stdbool.h>
#include <stdio.h>
#include "../common/error.h"
#include "../session/session.h"

#define WMSG_CLI_NAME           "Flink SQL CLI Client"
#define WMSG_PROMPT             "Flink SQL"          /* followed by "> " */
#define WMSG_CONT_PROMPT        "> "
#define WMSG_EXECUTE_FILE       "Executing SQL from file."
#define WMSG_EXECUTE_STATEMENT  "Execute statement succeeded."
#define WMSG_SQL_EXECUTION_ERROR "Could not execute SQL statement."
#define WMSG_QUIT               "Exiting Flink SQL CLI Client..."
#define WMSG_SUBMITTING         "Submitting SQL update statement to the cluster..."
#define WMSG_SUBMITTED          "SQL update statement has been successfully submitted to the cluster:"
#define WMSG_FINISH_STATEMENT   "Complete execution of the SQL update statement."
#define WMSG_RESULT_QUIT        "Result retrieval cancelled."
#define WMSG_SHUTDOWN           "Shutting down the session..."
#define WMSG_SHUTDOWN_DONE      "done."

/* Exception classes only the client raises. */
#define WEXC_CLIENT_EXEC   "org.apache.flink.table.client.gateway.SqlExecutionException"
#define WEXC_CLIENT        "org.apache.flink.table.client.SqlClientException"

/* `[INFO] <msg>` (bold blue on a terminal). */
void wmsg_info(FILE *out, bool color, const char *msg);
/* `[WARNING] <msg>` (bold yellow). */
void wmsg_warning(FILE *out, bool color, const char *msg);
/* `[ERROR] <what> Reason:\n<cls>: <msg>` (bold red); without cls just `<msg>`. */
void wmsg_error(FILE *out, bool color, const char *what, const char *cls, const char *msg);
/* The statement-failure block for a WError, as Flink 2.x prints it: the root cause (a wrapped
   syntax error shows as the parser's ParseException, see messages.c). */
void wmsg_error_werr(FILE *out, bool color, const WError *e);
/* The `Flink SQL> ` prompt (green "Flink SQL" on a terminal). */
const char *wmsg_prompt(bool color);

/* HELP; output. */
void wmsg_help(FILE *out, bool color);
/* `sql-client -h` / unknown options: the usage text. */
void wmsg_usage(FILE *out);
/* The banner of the interactive client (weir's own). */
void wmsg_banner(FILE *out, const char *version);

/* Print a statement result (not WSR_QUERY_DONE rows, which the sink printed). Returns false for
   WSR_QUIT (after printing the quit message). */
bool wmsg_print_result(FILE *out, bool color, const WStmtResult *r);

#endif
