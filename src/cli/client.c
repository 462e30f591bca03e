/*
 * client.c — runs statements through the session and prints them as Flink's SQL client does.
 *
 * Contract: see client.h. The only file of src/cli that calls wsession_execute; printing is
 * delegated to messages.c (results, errors) and tableau.c (query rows).
 * Settings read from the session: sql-client.execution.result-mode (tableau required in -f mode;
 * in the interactive client on a terminal `table` and `changelog` open Flink's full-screen result
 * views, cli/result_view.h; piped input or output prints the tableau),
 * table.display.max-column-width (default 30; Flink 2.3 ignores the old sql-client.display.* key),
 * execution.runtime-mode (streaming or batch tableau), sql-client.display.print-time-cost
 * (" (0.12 seconds)" after the footers; weir's default is false so outputs stay deterministic,
 * Flink 1.19+ defaults it to true).
 */
#include "client.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "messages.h"
#include "result_view.h"
#include "tableau.h"
#include "../common/arena.h"
#include "../common/strbuf.h"

#define KEY_RESULT_MODE   "sql-client.execution.result-mode"
#define KEY_MAX_WIDTH     "table.display.max-column-width"
#define KEY_TIME_COST     "sql-client.display.print-time-cost"
#define KEY_VERBOSE       "sql-client.verbose"

bool wcli_take_sigint(void)
{
    sigset_t pend;
    if (sigpending(&pend) != 0 || !sigismember(&pend, SIGINT)) return false;
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, SIGINT);
    struct timespec zero = {0, 0};
    while (sigtimedwait(&only, NULL, &zero) < 0 && errno == EINTR) {}
    return true;
}

/* ------------------------------------------------------------------ settings */

static int max_column_width(const WSession *s)
{
    /* only the table.* key: Flink 2.3 ignores the old sql-client.display.max-column-width */
    const char *v = wsession_get(s, KEY_MAX_WIDTH, NULL);
    if (!v) return WTAB_DEFAULT_MAX_WIDTH;
    char *end;
    long w = strtol(v, &end, 10);
    while (*end == ' ') end++;
    if (end == v || *end || w <= 0 || w > INT_MAX) return WTAB_DEFAULT_MAX_WIDTH;
    return (int)w;
}

static bool opt_true(const WSession *s, const char *key)
{
    const char *v = wsession_get(s, key, "false");
    return v && strcasecmp(v, "true") == 0;
}

static bool result_mode_is_tableau(const WSession *s)
{
    const char *v = wsession_get(s, KEY_RESULT_MODE, "table");
    return v && strcasecmp(v, "tableau") == 0;
}

static bool result_mode_is_changelog(const WSession *s)
{
    const char *v = wsession_get(s, KEY_RESULT_MODE, "table");
    return v && strcasecmp(v, "changelog") == 0;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------------ query sink */

typedef struct QuerySink {
    WClient *c;
    bool batch, reject, opened, cancelled, time_cost, announced;
    bool use_view, changelog;   /* interactive table/changelog result view (result_view.h) */
    WResultView *view;
    int max_width;
    const WTimeZone *tz;
    double t0;
    WTabStream st;
    WTabBatch b;
} QuerySink;

static void time_suffix(const QuerySink *q, char *buf, size_t n)
{
    if (!q->time_cost) {
        buf[0] = 0;
        return;
    }
    snprintf(buf, n, " (%.2f seconds)", now_seconds() - q->t0);
}

static void qs_open(void *ctx, int ncols, const char *const *names, const WType *const *types)
{
    QuerySink *q = ctx;
    if (q->opened) return;
    q->opened = true;
    if (q->reject) return;
    if (q->use_view)
        q->view = wrv_open(STDIN_FILENO, q->c->out, q->changelog, ncols, names, types,
                           q->max_width, q->tz);
    else if (q->batch)
        wtab_batch_begin(&q->b, ncols, names, q->tz);
    else
        wtab_stream_begin(&q->st, q->c->out, ncols, names, types, q->max_width, q->tz);
}

static bool qs_rows(void *ctx, const WChunk *c)
{
    QuerySink *q = ctx;
    if (q->reject || q->cancelled) return false;
    if (wcli_take_sigint()) {
        q->cancelled = true;
        return false;
    }
    if (!q->opened) return true;
    if (q->view) {
        if (!wrv_rows(q->view, c)) {
            q->cancelled = true;    /* the user left the view: cancel the query */
            return false;
        }
        return true;
    }
    if (q->batch)
        wtab_batch_chunk(&q->b, c);
    else
        wtab_stream_chunk(&q->st, c);
    return true;
}

static void qs_close(void *ctx, bool ok)
{
    QuerySink *q = ctx;
    if (!q->opened || q->reject) return;
    if (!q->cancelled && wcli_take_sigint()) q->cancelled = true;
    if (q->view) {
        /* The view stays until the user leaves it; Ctrl-C leaves it too (Flink binds it to Quit). */
        if (!q->cancelled) wrv_finish(q->view, ok, wcli_take_sigint);
        wrv_close(q->view, ok || q->cancelled);
        q->view = NULL;
        q->use_view = false;
        q->cancelled = true;        /* nothing more to print for the rows */
        return;
    }
    char suffix[64];
    time_suffix(q, suffix, sizeof suffix);
    if (q->batch) {
        /* Flink prints the batch result only once it is complete. */
        if (q->cancelled)   /* Flink counts batch rows only once they are all in: 0 */
            fprintf(q->c->out, "Query terminated, received a total of 0 row%s\n", suffix);
        else if (ok)
            wtab_batch_print(&q->b, q->c->out, q->max_width, suffix);
        fflush(q->c->out);
        wtab_batch_free(&q->b);
    } else {
        if (q->cancelled)
            wtab_stream_terminated(&q->st, suffix);
        else if (ok)
            wtab_stream_end(&q->st, suffix);
        wtab_stream_free(&q->st);
    }
}

/* ------------------------------------------------------------------ statements */

static bool init_allowed(const char *stmt)
{
    static const char *const OK[] = {"SET", "RESET", "CREATE", "DROP", "USE", "ALTER",
                                     "LOAD", "UNLOAD", "ADD"};
    char w[16];
    wcli_first_word(stmt, w, sizeof w);
    for (size_t i = 0; i < sizeof OK / sizeof OK[0]; i++)
        if (!strcmp(w, OK[i])) return true;
    return false;
}

static void clear_screen(WClient *c)
{
    if (c->tty_out) {
        fputs("\x1b[H\x1b[2J", c->out);
    } else {
        for (int i = 0; i < 200; i++) fputc('\n', c->out);
    }
    fflush(c->out);
}

static void print_job_report(WClient *c, const WStmtResult *r)
{
    if (!c->job_report || !c->err) return;
    if (r->kind != WSR_QUERY_DONE && r->kind != WSR_JOB_COMPLETED) return;
    const char *rep = wsession_last_job_report(c->s);
    if (!rep || !*rep) return;
    fputs(rep, c->err);
    if (rep[strlen(rep) - 1] != '\n') fputc('\n', c->err);
    fflush(c->err);
}

/* An INSERT job was accepted: Flink's submission lines come before anything the job prints. */
static void qs_submitted(void *ctx, const char *job_id, bool sync)
{
    QuerySink *q = ctx;
    if (sync || q->c->mode == WCLI_INITIALIZATION) return;
    WStmtResult r;
    memset(&r, 0, sizeof r);
    r.kind = WSR_JOB_SUBMITTED;
    snprintf(r.job_id, sizeof r.job_id, "%s", job_id);
    wmsg_print_result(q->c->out, q->c->color, &r);
    fflush(q->c->out);
    q->announced = true;
}

bool wcli_execute(void *ctx, const char *stmt, WCliCmd cmd, bool *quit)
{
    WClient *c = ctx;
    switch (cmd) {
    case WCMD_QUIT:
        wmsg_info(c->out, c->color, WMSG_QUIT);
        *quit = true;
        return true;
    case WCMD_HELP:
        wmsg_help(c->out, c->color);
        return true;
    case WCMD_CLEAR:
        clear_screen(c);
        return true;
    case WCMD_NONE:
        return true;
    case WCMD_OTHER:
        break;
    }

    if (c->mode == WCLI_INITIALIZATION && !init_allowed(stmt)) {
        WStrBuf sb;
        wsb_init(&sb);
        wsb_printf(&sb,
                   "Unsupported statement for configuring session:%s\n"
                   "The configureSession API only supports to execute statement of type "
                   "CREATE TABLE, DROP TABLE, ALTER TABLE, "
                   "CREATE DATABASE, DROP DATABASE, ALTER DATABASE, "
                   "CREATE FUNCTION, DROP FUNCTION, ALTER FUNCTION, "
                   "CREATE CATALOG, DROP CATALOG, USE CATALOG, USE [CATALOG.]DATABASE, "
                   "CREATE VIEW, DROP VIEW, LOAD MODULE, UNLOAD MODULE, USE MODULE, ADD JAR.",
                   stmt);
        wmsg_error(c->out, c->color, WMSG_SQL_EXECUTION_ERROR, WEXC_UNSUPPORTED, sb.buf);
        wsb_free(&sb);
        return false;
    }

    if (c->remote) return c->remote(c->remote_ctx, c, stmt, quit);

    QuerySink q;
    memset(&q, 0, sizeof q);
    q.c = c;
    q.batch = wsession_is_batch(c->s);
    q.reject = c->mode == WCLI_NON_INTERACTIVE && !result_mode_is_tableau(c->s);
    /* Flink's interactive result views for the modes table and changelog need a terminal on
       both sides; piped input (read as a script) and pipes out print the tableau. */
    q.use_view = c->mode == WCLI_INTERACTIVE && !result_mode_is_tableau(c->s) && c->tty_out
                 && isatty(STDIN_FILENO);
    q.changelog = result_mode_is_changelog(c->s);
    q.max_width = max_column_width(c->s);
    q.tz = wsession_time_zone(c->s);
    q.time_cost = opt_true(c->s, KEY_TIME_COST);
    q.t0 = now_seconds();
    WResultSink sink = {.ctx = &q, .open = qs_open, .rows = qs_rows, .close = qs_close,
                        .submitted = qs_submitted};

    WStmtResult res;
    memset(&res, 0, sizeof res);
    WError err;
    werr_clear(&err);

    fflush(c->out);
    bool ok = wsession_execute(c->s, stmt, &sink, &res, &err);
    if (q.opened && !q.reject && (q.view || (q.batch ? q.b.names != NULL : q.st.widths != NULL))) {
        /* The session did not close the sink (it must); close it ourselves. */
        qs_close(&q, ok);
    }
    if (!q.cancelled && wcli_take_sigint()) c->interrupted = true;

    bool success = true;
    if (q.reject && q.opened) {
        wmsg_error(c->out, c->color, WMSG_SQL_EXECUTION_ERROR, WEXC_CLIENT_EXEC,
                   "In non-interactive mode, it only supports to use TABLEAU as value of "
                   "sql-client.execution.result-mode when execute query. Please add "
                   "'SET sql-client.execution.result-mode=TABLEAU;' in the sql file.");
        success = false;
    } else if (q.cancelled) {
        success = true;                 /* Ctrl-C: "Query terminated" was printed */
    } else if (!ok) {
        wmsg_error_werr(c->out, c->color, &err);
        success = false;
    } else if (c->mode == WCLI_INITIALIZATION) {
        wmsg_info(c->out, c->color, WMSG_EXECUTE_STATEMENT);
    } else if (!(res.kind == WSR_JOB_SUBMITTED && q.announced)) {
        if (!wmsg_print_result(c->out, c->color, &res)) *quit = true;
        print_job_report(c, &res);
    }
    wstmt_result_free(&res);
    fflush(c->out);
    if (c->interrupted && c->mode != WCLI_INTERACTIVE) *quit = true;
    return success;
}

WCliScriptEnd wcli_run_file(WClient *c, const char *content)
{
    WCliMode saved = c->mode;
    c->mode = WCLI_NON_INTERACTIVE;
    wmsg_info(c->out, c->color, WMSG_EXECUTE_FILE);
    char *text = wcli_format_script(content, true);
    WCliScript sc = {.out = c->out, .color = c->color, .echo = true, .exit_on_failure = true,
                     .fn = wcli_execute, .ctx = c};
    WCliScriptEnd end = wcli_run_script(&sc, text);
    free(text);
    c->mode = saved;
    return end;
}

bool wcli_run_init(WClient *c, const char *content, FILE *capture)
{
    WCliMode saved_mode = c->mode;
    FILE *saved_out = c->out;
    bool saved_color = c->color;
    FILE *sink = capture ? capture : fopen("/dev/null", "w");
    if (!sink) sink = saved_out;
    c->mode = WCLI_INITIALIZATION;
    c->out = sink;
    c->color = false;
    wmsg_info(c->out, false, WMSG_EXECUTE_FILE);
    char *text = wcli_format_script(content, true);
    WCliScript sc = {.out = c->out, .color = false, .echo = true, .exit_on_failure = true,
                     .fn = wcli_execute, .ctx = c};
    WCliScriptEnd end = wcli_run_script(&sc, text);
    free(text);
    fflush(sink);
    if (!capture && sink != saved_out) fclose(sink);
    c->mode = saved_mode;
    c->out = saved_out;
    c->color = saved_color;
    return end != WCS_FAILED;
}
