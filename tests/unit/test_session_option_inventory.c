/* test_session_option_inventory.c — no session option is accepted and silently ignored (issue 13,
   item c): the inventory of src/session/session_options.c against the code and the tests.

   1. Every key of the watched namespaces (table.exec.*, table.optimizer.*, execution.*, state.*,
      pipeline.*, parallelism.default) that appears as a string literal in src/ — the keys weir
      reads — is in the inventory, so a key read by new code without an entry fails here.
   2. Every APPLIED entry names a test file that sets the key (the key, quoted, in that file).
   3. SET of a SHOWN_ONLY key or of an unknown watched key succeeds, as in Flink, with a warning
      that names the key; SET of an applied key, or of a key outside the namespaces, has none.
   Run from the repository root (as `make test` does): it reads src/ and tests/. */
#include "unit.h"
#include "../../src/session/session.h"
#include "../../src/session/session_options.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)(n > 0 ? n : 0) + 1);
    size_t got = n > 0 ? fread(buf, 1, (size_t)n, f) : 0;
    buf[got] = 0;
    fclose(f);
    return buf;
}

static bool key_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-'; }

/* Does text hold key as a whole key (not the prefix of a longer one)? */
static bool mentions(const char *text, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = strstr(text, key); p; p = strstr(p + 1, key))
        if ((p == text || !key_char(p[-1])) && !key_char(p[n])) return true;
    return false;
}

typedef struct Missing { int n; char what[2048]; } Missing;

/* The watched keys quoted in the C files under dir (recursively) that the inventory lacks. */
static void scan(const char *dir, Missing *m, int *files)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) { scan(path, m, files); continue; }
        size_t len = strlen(e->d_name);
        if (len < 2 || strcmp(e->d_name + len - 2, ".c") != 0) continue;
        char *text = slurp(path);
        if (!text) continue;
        (*files)++;
        for (char *q = strchr(text, '"'); q; q = strchr(q + 1, '"')) {
            char key[128];
            size_t k = 0;
            const char *p = q + 1;
            while (key_char(*p) && k < sizeof key - 1) key[k++] = *p++;
            key[k] = 0;
            if (*p != '"' || k == 0 || !wsession_option_watched(key) || key[k - 1] == '.') continue;
            if (strcmp(key + k - 2, ".h") == 0 || strcmp(key + k - 2, ".c") == 0) continue;   /* #include "state.h" */
            if (!wsession_option_find(key) && m->n < 20) {
                size_t used = strlen(m->what);
                snprintf(m->what + used, sizeof m->what - used, "%s (%s) ", key, path);
                m->n++;
            }
        }
        free(text);
    }
    closedir(d);
}

WTEST(session_option_inventory_lists_every_key_weir_reads)
{
    Missing m = {0, ""};
    int files = 0;
    scan("src", &m, &files);
    CHECK(files > 50);             /* run from the repository root */
    if (m.n) {
        char msg[2200];
        snprintf(msg, sizeof msg, "keys read in src/ but missing from session_options.c: %s", m.what);
        wtest_report(__FILE__, __LINE__, msg);
        *wtest_failed_ = 1;
    }
}

WTEST(session_option_inventory_applied_options_name_a_test_that_sets_them)
{
    int applied = 0, unproven = 0, tuning = 0, shown = 0;
    for (const WSessionOption *o = wsession_options(); o->key; o++) {
        char msg[1024];
        CHECK(wsession_option_watched(o->key));
        CHECK(o->note && o->note[0]);
        if (o->cls == WSO_APPLIED) {
            applied++;
            char *text = slurp(o->note);
            if (!text || !mentions(text, o->key)) {
                snprintf(msg, sizeof msg, "option '%s': its test %s %s", o->key, o->note,
                         text ? "does not set it" : "does not exist");
                wtest_report(__FILE__, __LINE__, msg);
                *wtest_failed_ = 1;
            }
            free(text);
        } else if (o->cls == WSO_UNPROVEN) {
            unproven++;
        } else if (o->cls == WSO_TUNING) {
            tuning++;
        } else {
            shown++;
        }
        for (const WSessionOption *p = o + 1; p->key; p++) CHECK(strcmp(o->key, p->key) != 0);
    }
    CHECK(applied > 30);
    printf("session options: %d applied (with a test), %d applied without a test yet, %d tuning only, "
           "%d shown only (SET warns)\n", applied, unproven, tuning, shown);
}

/* SET key = value in a fresh session: the statement's warning ("" for none), NULL on error. */
static char *set_warning(const char *key, const char *value)
{
    WSession *s = wsession_new(stdout);
    char sql[512];
    snprintf(sql, sizeof sql, "SET '%s' = '%s'", key, value);
    WStmtResult res;
    memset(&res, 0, sizeof res);
    WError err;
    werr_clear(&err);
    char *out = NULL;
    if (wsession_execute(s, sql, NULL, &res, &err) && res.kind == WSR_OK) {
        out = strdup(res.message ? res.message : "");
        wstmt_result_free(&res);
    }
    wsession_free(s);
    return out;
}

WTEST(session_option_set_warns_for_options_weir_does_not_apply)
{
    /* unknown keys of the watched namespaces (Flink 2.3 accepts them without a word) */
    static const char *const UNKNOWN[] = {"table.exec.resource.default-parallelism", "table.optimizer.join-reorder-enabled",
                                          "pipeline.object-reuse", "execution.buffer-timeout",
                                          "state.backend.rocksdb.compaction.level.use-dynamic-size", NULL};
    for (int i = 0; UNKNOWN[i]; i++) {
        char *w = set_warning(UNKNOWN[i], "1");
        CHECK(w != NULL);
        if (w) {
            CHECK(strstr(w, UNKNOWN[i]) != NULL);
            CHECK(strstr(w, "weir does not know the option") != NULL);
            CHECK(strstr(w, "has no effect") != NULL);
        }
        free(w);
    }
    /* every shown-only entry warns with its reason; the others are silent */
    for (const WSessionOption *o = wsession_options(); o->key; o++) {
        if (!strcmp(o->key, "execution.runtime-mode") || !strcmp(o->key, "table.exec.state.ttl")) continue;
        WError ce;
        werr_clear(&ce);
        char *stored = NULL;
        bool set_takes_x = wsession_option_check(o->key, "x", &stored, &ce);
        free(stored);
        if (!set_takes_x) continue;     /* SET refuses 'x' (session_option_check_matches_flink_set) */
        char *w = set_warning(o->key, "x");
        CHECK(w != NULL);
        if (!w) continue;
        if (o->cls == WSO_SHOWN_ONLY) {
            CHECK(strstr(w, o->key) != NULL && strstr(w, o->note) != NULL && strstr(w, "weir does not apply") != NULL);
        } else if (w[0]) {
            char msg[1024];
            snprintf(msg, sizeof msg, "option '%s' is applied but SET warns: %s", o->key, w);
            wtest_report(__FILE__, __LINE__, msg);
            *wtest_failed_ = 1;
        }
        free(w);
    }
    /* keys outside the namespaces: nothing (sql-client.*, table.local-time-zone, a connector-like key) */
    char *w = set_warning("sql-client.execution.result-mode", "tableau");
    CHECK(w && !w[0]);
    free(w);
    w = set_warning("table.dml-sync", "true");
    CHECK(w && !w[0]);
    free(w);
}

/* SET's own checks against what Flink 2.3's SQL client answered for the same SET (measured with
   tests/flink/flinkctl.py sql, one script per value): NULL = the SET succeeds, else the error's
   class and message; the value stored is the enum's trimmed text. */
WTEST(session_option_check_matches_flink_set)
{
    static const struct { const char *key, *value, *cls, *msg, *stored; } C[] = {
        {"parallelism.default", " 2 ", NULL, NULL, NULL},
        {"parallelism.default", "+2", NULL, NULL, NULL},
        {"parallelism.default", "-1", NULL, NULL, NULL},
        {"parallelism.default", "abc", WEXC_NUMBER, "For input string: \"abc\"", NULL},
        {"parallelism.default", " x ", WEXC_NUMBER, "For input string: \"x\"", NULL},
        {"parallelism.default", "1,2", WEXC_NUMBER, "For input string: \"1,2\"", NULL},
        {"parallelism.default", "2.5", WEXC_NUMBER, "For input string: \"2.5\"", NULL},
        {"parallelism.default", "1e2", WEXC_NUMBER, "For input string: \"1e2\"", NULL},
        {"parallelism.default", "0x10", WEXC_NUMBER, "For input string: \"0x10\"", NULL},
        {"parallelism.default", "", WEXC_NUMBER, "For input string: \"\"", NULL},
        {"parallelism.default", "3000000000", WEXC_NUMBER, "For input string: \"3000000000\"", NULL},
        {"parallelism.default", "0", WEXC_ILLEGAL_ARG,
         "Parallelism must be at least one, or ExecutionConfig.PARALLELISM_DEFAULT (use system default).", NULL},
        {"parallelism.default", "-3", WEXC_ILLEGAL_ARG,
         "Parallelism must be at least one, or ExecutionConfig.PARALLELISM_DEFAULT (use system default).", NULL},
        {"pipeline.max-parallelism", " 12 ", NULL, NULL, NULL},
        {"pipeline.max-parallelism", "x", WEXC_NUMBER, "For input string: \"x\"", NULL},
        {"pipeline.max-parallelism", "0", WEXC_ILLEGAL_ARG, "The maximum parallelism must be greater than 0.", NULL},
        {"pipeline.max-parallelism", "-1", WEXC_ILLEGAL_ARG, "The maximum parallelism must be greater than 0.", NULL},
        {"pipeline.auto-watermark-interval", "x", WEXC_NUMBER,
         "text does not start with a number, and is not a valid ISO-8601 duration format: x", NULL},
        {"pipeline.auto-watermark-interval", "-1 ms", WEXC_NUMBER,
         "text does not start with a number, and is not a valid ISO-8601 duration format: -1 ms", NULL},
        {"execution.runtime-mode", "batch", NULL, NULL, "batch"},
        {"execution.runtime-mode", " batch", NULL, NULL, "batch"},
        {"execution.runtime-mode", "foo", WEXC_ILLEGAL_ARG,
         "Could not parse value for enum class org.apache.flink.api.common.RuntimeExecutionMode. Expected one of: "
         "[[STREAMING, BATCH, AUTOMATIC]]", NULL},
        {"execution.checkpointing.mode", "at_least_once", NULL, NULL, "at_least_once"},
        {"execution.checkpointing.mode", "foo", WEXC_ILLEGAL_ARG,
         "Could not parse value for enum class org.apache.flink.core.execution.CheckpointingMode. Expected one of: "
         "[[EXACTLY_ONCE, AT_LEAST_ONCE]]", NULL},
        {"execution.checkpointing.externalized-checkpoint-retention", "foo", WEXC_ILLEGAL_ARG,
         "Could not parse value for enum class org.apache.flink.configuration.ExternalizedCheckpointRetention. Expected "
         "one of: [[DELETE_ON_CANCELLATION, RETAIN_ON_CANCELLATION, NO_EXTERNALIZED_CHECKPOINTS]]", NULL},
        {"execution.checkpointing.interval", "PT1S", NULL, NULL, NULL},
        {"execution.checkpointing.interval", "x", WEXC_NUMBER,
         "text does not start with a number, and is not a valid ISO-8601 duration format: x", NULL},
        {"execution.checkpointing.interval", "-5 s", WEXC_NUMBER,
         "text does not start with a number, and is not a valid ISO-8601 duration format: -5 s", NULL},
        {"execution.checkpointing.timeout", "x", WEXC_NUMBER,
         "text does not start with a number, and is not a valid ISO-8601 duration format: x", NULL},
        {"execution.checkpointing.min-pause", "-1 ms", WEXC_NUMBER,
         "text does not start with a number, and is not a valid ISO-8601 duration format: -1 ms", NULL},
        {"execution.checkpointing.tolerable-failed-checkpoints", "x", WEXC_NUMBER, "For input string: \"x\"", NULL},
        {"execution.checkpointing.tolerable-failed-checkpoints", "-2", WEXC_ILLEGAL_ARG,
         "The tolerable failure checkpoint number must be non-negative.", NULL},
        /* read later in Flink (at the query, or only by a job that uses them): the SET succeeds */
        {"execution.checkpointing.incremental", "x", NULL, NULL, NULL},
        {"execution.checkpointing.num-retained", "x", NULL, NULL, NULL},
        {"table.exec.mini-batch.enabled", "x", NULL, NULL, NULL},
        {"state.backend.type", "foo", NULL, NULL, NULL},
        {"table.exec.state.ttl", "x", NULL, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof C / sizeof *C; i++) {
        WError e;
        werr_clear(&e);
        char *stored = NULL;
        bool ok = wsession_option_check(C[i].key, C[i].value, &stored, &e);
        if (ok != (C[i].cls == NULL)) fprintf(stderr, "SET '%s' = '%s'\n", C[i].key, C[i].value);
        CHECK(ok == (C[i].cls == NULL));
        if (!ok) {
            CHECK_STR(e.cls, C[i].cls);
            CHECK_STR(e.msg, C[i].msg);
        }
        if (C[i].stored) CHECK(stored && strcmp(stored, C[i].stored) == 0);
        else CHECK(stored == NULL);
        free(stored);
    }
}
