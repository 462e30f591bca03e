/*
 * main.c — the `weir` command: `weir sql-client [embedded] [OPTIONS]` (Flink's SQL client
 * command line), `weir --version`, `weir help`.
 *
 * Contract: parses the command line as Flink's CliOptionsParser does (-i, -f, -u, -D, -s, -hist,
 * -h; only local files: `file:` scheme or none), creates the session, runs the init script, then
 * the script (-f / -u) or the interactive loop, and prints Flink's shutdown lines. Exit status:
 * 0 on success, 1 when a script statement or the init script failed or the command line is wrong.
 * (Flink's own `-f` exits 0 even after a failed statement; weir reports the failure.)
 * Depends on session/ and cli/.
 */
#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "client.h"
#include "interactive.h"
#include "messages.h"
#include "qcase.h"
#include "cluster.h"
#include "remote.h"
#include "../common/arena.h"
#include "../common/strbuf.h"
#include "../session/session.h"
#include "../session/conformance.h"
#include "../explain/explain.h"
#include "../kinds/kinds.h"
#include "../plan/plan.h"
#include "../runtime/job.h"

#ifndef WEIR_VERSION
#define WEIR_VERSION "0.1.0"
#endif

typedef struct SqlClientArgs {
    bool help, verbose;
    const char *init_file, *file, *update, *history, *session_id;
    const char *endpoint;       /* gateway mode: -e,--endpoint host:port */
    int ndyn;
    const char **dyn;           /* "key=value" */
} SqlClientArgs;

static void print_weir_help(FILE *out)
{
    fprintf(out,
            "weir %s - a streaming SQL engine that speaks Flink SQL\n"
            "\n"
            "Usage: weir <command> [options]\n"
            "\n"
            "Commands:\n"
            "  sql-client [embedded] [OPTIONS]   Flink's SQL client: interactive, or -f script.sql\n"
            "                                    (see 'weir sql-client --help')\n"
            "  sql-client gateway --endpoint host:port [OPTIONS]\n"
            "                                    the same client in a session of a SQL gateway\n"
            "                                    (a weir cluster's or Flink's own)\n"
            "  cluster start|stop|status|run     The cluster daemon: REST API, SQL gateway, dashboard\n"
            "  conformance FILE [-v]             Run one Flink conformance case (developers)\n"
            "  help                              Show this help\n"
            "  --version                         Show the version\n",
            WEIR_VERSION);
}

/* `weir conformance <case> [-v]`: one case of the Flink conformance corpus (developer tool).
   Exit 0 pass, 1 fail, 77 skipped. */
static int conformance_main(int argc, char **argv)
{
    if (argc < 1) {
        fprintf(stderr, "Usage: weir conformance <file.case|file.qcase> [-v]\n");
        return 1;
    }
    int verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
    size_t n = strlen(argv[0]);
    int rc;
    if (n > 6 && strcmp(argv[0] + n - 6, ".qcase") == 0) rc = wqcase_run(argv[0], stdout, verbose);
    else rc = wconformance_run(argv[0], stdout, verbose);
    return rc == WCONF_PASS ? 0 : rc == WCONF_SKIP ? 77 : 1;
}

/* Java-style uncaught exception report on stderr. */
static void java_exception(const char *cls, const char *msg, const char *cause)
{
    fprintf(stderr, "Exception in thread \"main\" %s: %s\n", cls, msg);
    if (cause) fprintf(stderr, "Caused by: %s\n", cause);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    WStrBuf sb;
    wsb_init(&sb);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) wsb_appendn(&sb, buf, n);
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        wsb_free(&sb);
        return NULL;
    }
    if (!sb.buf) wsb_append(&sb, "");
    return wsb_detach(&sb);
}

/* Reads a script file the way SqlClient.readFromURL reports failures. */
static char *load_script(const char *abs)
{
    char *text = read_file(abs);
    if (text) return text;
    int e = errno;
    WStrBuf m;
    wsb_init(&m);
    wsb_printf(&m, "org.apache.flink.table.client.gateway.SqlExecutionException: "
                   "Fail to read content from the %s.\nCaused by: java.io.FileNotFoundException: "
                   "%s (%s)", abs, abs, e == ENOENT ? "No such file or directory" : strerror(e));
    java_exception(WEXC_CLIENT, "Unexpected exception. This is a bug. Please consider filing an issue.",
                   m.buf);
    wsb_free(&m);
    return NULL;
}

/* Returns 0 when parsed, 1 on a usage error (already reported). */
static int parse_args(int argc, char **argv, SqlClientArgs *a)
{
    a->dyn = wcalloc((size_t)argc + 1, sizeof(char *));
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = NULL;
        char name[32] = "";
        if (arg[0] != '-' || arg[1] == 0) {
            fprintf(stderr, "Unrecognized argument: %s\n", arg);
            wmsg_usage(stdout);
            return 1;
        }
        if (arg[1] == 'D') {                    /* -Dkey=value or -D key=value */
            const char *kv = arg[2] ? arg + 2 : (i + 1 < argc ? argv[++i] : NULL);
            if (!kv) {
                java_exception(WEXC_CLIENT, "Missing argument for option: D", NULL);
                return 1;
            }
            if (!strchr(kv, '=')) {
                java_exception(WEXC_CLIENT, "Missing argument for option: D", NULL);
                return 1;
            }
            a->dyn[a->ndyn++] = kv;
            continue;
        }
        /* --long[=value] or -short */
        const char *eq = NULL;
        if (arg[1] == '-') {
            eq = strchr(arg, '=');
            size_t n = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
            if (n >= sizeof name) n = sizeof name - 1;
            memcpy(name, arg + 2, n);
            name[n] = 0;
            if (eq) val = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", arg + 1);
        }
        struct { const char *s, *l, *opt; bool has_arg; const char **dst; bool *flag; } T[] = {
            {"h", "help", "h", false, NULL, &a->help},
            {"v", "verbose", "v", false, NULL, &a->verbose},
            {"i", "init", "i", true, &a->init_file, NULL},
            {"f", "file", "f", true, &a->file, NULL},
            {"u", "update", "u", true, &a->update, NULL},
            {"hist", "history", "hist", true, &a->history, NULL},
            {"s", "session", "s", true, &a->session_id, NULL},
            {"e", "endpoint", "e", true, &a->endpoint, NULL},
            {"j", "jar", "j", true, NULL, NULL},
            {"l", "library", "l", true, NULL, NULL},
        };
        int k = -1;
        for (int t = 0; t < (int)(sizeof T / sizeof T[0]); t++)
            if ((arg[1] == '-' && !strcmp(name, T[t].l)) || (arg[1] != '-' && !strcmp(name, T[t].s)))
                k = t;
        if (k < 0) {
            fprintf(stderr, "Unrecognized option: %s\n", arg);
            wmsg_usage(stdout);
            return 1;
        }
        if (!T[k].has_arg) {
            *T[k].flag = true;
            continue;
        }
        if (!val) {
            if (i + 1 >= argc) {
                char m[64];
                snprintf(m, sizeof m, "Missing argument for option: %s", T[k].opt);
                java_exception(WEXC_CLIENT, m, NULL);
                return 1;
            }
            val = argv[++i];
        }
        if (!T[k].dst) {
            fprintf(stderr, "weir: option -%s (%s) is not supported: weir runs no Java code.\n",
                    T[k].s, T[k].l);
            return 1;
        }
        *T[k].dst = val;
    }
    return 0;
}

static void shutdown_lines(void)
{
    printf("\n%s\n%s\n", WMSG_SHUTDOWN, WMSG_SHUTDOWN_DONE);
    fflush(stdout);
}

/* Applies -D key=value as a SET that prints nothing but its warning (on stderr). */
static bool apply_dynamic(WSession *s, const char *kv)
{
    const char *eq = strchr(kv, '=');
    WStrBuf sql;
    wsb_init(&sql);
    wsb_append(&sql, "SET '");
    for (const char *p = kv; p < eq; p++) {
        if (*p == '\'') wsb_putc(&sql, '\'');
        wsb_putc(&sql, *p);
    }
    wsb_append(&sql, "' = '");
    for (const char *p = eq + 1; *p; p++) {
        if (*p == '\'') wsb_putc(&sql, '\'');
        wsb_putc(&sql, *p);
    }
    wsb_append(&sql, "'");
    WStmtResult res;
    memset(&res, 0, sizeof res);
    WError err;
    werr_clear(&err);
    bool ok = wsession_execute(s, sql.buf, NULL, &res, &err);
    if (!ok) {
        fprintf(stderr, "Invalid dynamic option -D%s\n", kv);
        wmsg_error_werr(stderr, false, &err);
    } else if (res.message && *res.message) {
        wmsg_warning(stderr, false, res.message);   /* an option weir does not apply (session_options.h) */
    }
    wstmt_result_free(&res);
    wsb_free(&sql);
    return ok;
}

static void noop_handler(int sig) { (void)sig; }

static int sql_client_main(int argc, char **argv)
{
    bool gateway_mode = false;
    if (argc > 0 && argv[0][0] != '-') {
        if (strcmp(argv[0], "embedded") != 0 && strcmp(argv[0], "gateway") != 0) {
            wmsg_usage(stdout);
            return 1;
        }
        gateway_mode = !strcmp(argv[0], "gateway");
        argc--;
        argv++;
    }

    SqlClientArgs a;
    memset(&a, 0, sizeof a);
    int rc = parse_args(argc, argv, &a);
    if (rc) {
        free(a.dyn);
        return rc;
    }
    if (a.help) {
        wmsg_usage(stdout);
        free(a.dyn);
        return 0;
    }
    if (a.endpoint && !gateway_mode) {
        fprintf(stderr, "Unrecognized option: --endpoint (only the gateway mode connects to an endpoint)\n");
        wmsg_usage(stdout);
        free(a.dyn);
        return 1;
    }
    if (gateway_mode && !a.endpoint) {
        java_exception(WEXC_CLIENT, "Please specify the address of the SQL Gateway with command line option "
                                    "'-e,--endpoint <SQL Gateway address>' in the gateway mode.", NULL);
        free(a.dyn);
        return 1;
    }
    if (a.session_id && !wcli_valid_session_id(a.session_id)) {
        java_exception(WEXC_CLIENT, "Session identifier must only consists of 'a-zA-Z0-9_-.'.", NULL);
        free(a.dyn);
        return 1;
    }
    char *init_path = NULL, *file_path = NULL;
    if ((a.init_file && !(init_path = wcli_local_path(a.init_file))) ||
        (a.file && !(file_path = wcli_local_path(a.file)))) {
        java_exception(WEXC_CLIENT, "SQL Client only supports to load files in local.", NULL);
        free(init_path);
        free(a.dyn);
        return 1;
    }
    if (a.file && a.update) {
        java_exception("java.lang.IllegalArgumentException",
                       "Please use either option -f or -u. The option u is deprecated and it's "
                       "suggested to use f instead.", NULL);
        free(init_path);
        free(file_path);
        free(a.dyn);
        return 1;
    }

    bool interactive = !a.file && !a.update;
    bool tty = isatty(STDOUT_FILENO) && isatty(STDIN_FILENO);
    if (interactive && tty) {
        /* Ctrl-C cancels queries / input instead of killing the client. */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = noop_handler;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGINT);
        pthread_sigmask(SIG_BLOCK, &set, NULL);
    }

    WSession *s = wsession_new(stdout);
    if (!s) {
        fprintf(stderr, "weir: could not create the session\n");
        free(init_path);
        free(file_path);
        free(a.dyn);
        return 1;
    }
    WClient c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.out = stdout;
    c.err = stderr;
    c.tty_out = isatty(STDOUT_FILENO);
    c.color = c.tty_out;
    c.job_report = a.verbose;
    if (a.verbose) wsession_set_verbose(s, true);

    /* gateway mode, or a running cluster: statements go to its SQL gateway (cli/remote.h) */
    bool remote_failed = false;
    WRemote *remote;
    if (gateway_mode) {
        remote = wremote_connect(&c, a.endpoint, (const char *const *)a.dyn, a.ndyn, a.session_id);
        remote_failed = !remote;
    } else {
        remote = wremote_attach(&c, (const char *const *)a.dyn, a.ndyn, a.session_id, &remote_failed);
    }

    int status = remote_failed ? 1 : 0;
    for (int i = 0; i < a.ndyn && !remote; i++)
        if (!apply_dynamic(s, a.dyn[i])) status = 1;
    if (status == 0 && !remote) {
        /* the catalog store of the start configuration (-D table.catalog-store.kind=file ...) */
        WError err;
        werr_clear(&err);
        if (!wsession_open_catalog_store(s, &err)) {
            wmsg_error_werr(stderr, false, &err);
            status = 1;
        }
    }

    if (status == 0 && init_path) {
        char *content = load_script(init_path);
        if (!content) {
            status = 1;
        } else {
            char *captured = NULL;
            size_t caplen = 0;
            FILE *cap = open_memstream(&captured, &caplen);
            bool ok = wcli_run_init(&c, content, cap);
            if (cap) fclose(cap);
            if (ok) {
                /* Flink 2.3 names the script as it was given on the command line */
                printf("Successfully initialized from sql script: %s\n", a.init_file);
            } else {
                printf("Failed to initialize from sql script: %s. Please refer to the LOG for "
                       "detailed error messages.\n", a.init_file);
                if (captured) fputs(captured, stderr);
                status = 1;
            }
            fflush(stdout);
            free(captured);
            free(content);
        }
    }

    if (status == 0) {
        if (file_path || a.update) {
            char *content = file_path ? load_script(file_path) : wstrdup(a.update);
            if (!content) {
                status = 1;
            } else {
                WCliScriptEnd end = wcli_run_file(&c, content);
                if (end == WCS_FAILED) status = 1;
                free(content);
            }
        } else {
            status = wcli_interactive(&c, a.history, WEIR_VERSION);
        }
    }

    if (!remote_failed) shutdown_lines();
    wremote_detach(remote);
    wsession_free(s);
    free(init_path);
    free(file_path);
    free(a.dyn);
    return status;
}

#ifdef WEIR_TEST_BUILD
/* The test build checks the per-kind operation tables before anything runs (issue 15): a node
   kind added to WRelKind without its digest, JSON-write, derivation or runtime operator fails here, at start-up,
   not in a user's query. */
static void check_kind_ops(void)
{
    WStrBuf err;
    wsb_init(&err);
    if (!wkinds_check(&err)) {
        fprintf(stderr, "weir: incomplete node-kind operation tables:\n%s", err.buf);
        abort();
    }
    wsb_free(&err);
}
#endif

/* glibc's allocator, tuned once at start-up for the runtime's allocation pattern: every lane makes
   and frees chunks of 0.1-1 MB (column vectors, string arenas) at a high rate, often freed on
   another lane. With glibc's defaults a lane's arena hands such memory back to the kernel as soon
   as more than about twice the last large block is free at its top (the dynamic trim threshold)
   and faults it in again for the next chunk: Nexmark q0 at parallelism 2 took 51K page faults
   for 1M events against 3K at parallelism 1, and a third more CPU. Fixed thresholds keep blocks
   under 32 MB in the arenas and up to 64 MB of free memory at an arena's top (the peak memory of
   a job is unchanged; memory freed after the peak is kept for reuse up to that bound). */
static void tune_allocator(void)
{
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

int main(int argc, char **argv)
{
    tune_allocator();
#ifdef WEIR_TEST_BUILD
    check_kind_ops();
#endif
    if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
        !strcmp(argv[1], "-h")) {
        print_weir_help(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version") || !strcmp(argv[1], "-V")) {
        printf("weir %s\n", WEIR_VERSION);
        return 0;
    }
    if (!strcmp(argv[1], "sql-client")) return sql_client_main(argc - 2, argv + 2);
    if (!strcmp(argv[1], "conformance")) return conformance_main(argc - 2, argv + 2);
    if (!strcmp(argv[1], "cluster")) return wcli_cluster_main(argc - 2, argv + 2);
    fprintf(stderr, "weir: unknown command '%s'. Run 'weir help' for the list of commands.\n",
            argv[1]);
    return 2;
}
