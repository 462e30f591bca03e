/*
 * client.h — the SQL client's statement runner on top of a session (private to src/cli).
 *
 * Contract: WClient runs complete statements through wsession_execute and prints what Flink's
 * client prints for them: results (messages.h), query rows (tableau.h, streaming or batch by
 * execution.runtime-mode), errors. It implements Flink's three execution modes: interactive,
 * non-interactive (`-f`: queries need result-mode tableau, the first failure stops the script)
 * and initialization (`-i`: only configuration/DDL statements; output is captured, not shown).
 * Ctrl-C (SIGINT, kept blocked by the caller and polled here) cancels a running query with
 * `Query terminated, received a total of N rows`.
 * Depends on session/, cli/script, cli/messages, cli/tableau.
 */
#ifndef WEIR_CLI_CLIENT_H
#define WEIR_CLI_CLIENT_H

#include <stdbool.h>
#include <stdio.h>
#include "script.h"
#include "../session/session.h"

typedef enum WCliMode {
    WCLI_INTERACTIVE = 0,
    WCLI_NON_INTERACTIVE,
    WCLI_INITIALIZATION
} WCliMode;

typedef struct WClient {
    WSession *s;
    FILE *out;              /* results and messages (stdout) */
    FILE *err;              /* weir's own diagnostics (-v reports) */
    bool color;             /* ANSI colours: out is a terminal */
    bool tty_out;           /* out is a terminal (CLEAR uses escape codes) */
    WCliMode mode;
    bool job_report;        /* -v: print wsession_last_job_report after each job */
    bool interrupted;       /* a SIGINT arrived outside a query */
    /* Remote mode (cli/remote.h): when set, wcli_execute hands statements to it instead of `s`. */
    bool (*remote)(void *remote_ctx, struct WClient *c, const char *stmt, bool *quit);
    void *remote_ctx;
} WClient;

/* WCliStmtFn: run one complete statement (ctx is a WClient *). */
bool wcli_execute(void *ctx, const char *stmt, WCliCmd cmd, bool *quit);

/* `-f`: prints `[INFO] Executing SQL from file.`, then runs and echoes the script. */
WCliScriptEnd wcli_run_file(WClient *c, const char *content);
/* `-i`: runs the init script in initialization mode; everything it prints goes to `capture`
   (may be NULL). Returns false at the first failure. */
bool wcli_run_init(WClient *c, const char *content, FILE *capture);

/* Poll and consume a pending SIGINT (blocked signal). */
bool wcli_take_sigint(void);

#endif
