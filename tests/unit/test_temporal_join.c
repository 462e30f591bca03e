/* test_temporal_join.c — event-time TemporalJoin (exec/temporal_join.c): the corpus case
   temporal-join-table-join translated by hand, LEFT joins without a version, delete versions,
   the emission order (arrival order of the probe rows), version cleanup and NULL keys. */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/windowed.h"
#include "../../src/common/arena.h"
#include "../../src/expr/functions.h"

#include <stdlib.h>
#include <string.h>

static int64_t parse_ts(TestEnv *e, const char *s)
{
    WArena a;
    warena_init(&a, 0);
    const WType *t = wtype_timestamp(&a, WT_TIMESTAMP, 3, true);
    const char *kinds[1] = {"+I"};
    const char *cells[1] = {s};
    WChunk *c = chunk_from_text(e, 1, &t, 1, kinds, cells);
    int64_t ms = c->cols[0].data[0].ts.ms;
    wchunk_free(c);
    warena_free(&a);
    return ms;
}

typedef struct Fix {
    TestEnv env;
    WArena arena;
    const WType *lt[3];         /* Orders: amount, currency, rowtime */
    const WType *rt[3];         /* RatesHistory: currency, rate, rowtime */
    WOperator *op;
    Capture *cap;
} Fix;

/* "O,<kind>,amount,currency,ts" / "R,<kind>,currency,rate,ts"; "WO,<ts>" / "WR,<ts>" / "W,<ts>". */
static void feed(Fix *f, const char *script)
{
    char *copy = strdup(script);
    char *save1 = NULL;
    for (char *line = strtok_r(copy, "\n", &save1); line; line = strtok_r(NULL, "\n", &save1)) {
        if (line[0] == 'W') {
            char *comma = strchr(line, ',');
            int64_t wm = parse_ts(&f->env, comma + 1);
            if (line[1] == 'O' || line[1] == ',') wop_input_watermark(f->op, 0, wm);
            if (line[1] == 'R' || line[1] == ',') wop_input_watermark(f->op, 1, wm);
            continue;
        }
        int input = line[0] == 'R' ? 1 : 0;
        char *save2 = NULL;
        strtok_r(line, ",", &save2);
        const char *kinds[1];
        const char *cells[3];
        kinds[0] = strtok_r(NULL, ",", &save2);
        for (int k = 0; k < 3; k++) cells[k] = strtok_r(NULL, ",", &save2);
        WChunk *c = chunk_from_text(&f->env, 3, input ? f->rt : f->lt, 1, kinds, cells);
        wop_push(f->op, input, c);
        wchunk_free(c);
    }
    free(copy);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static char *sorted(const char *text)
{
    char *copy = strdup(text);
    char *lines[512];
    int n = 0;
    char *save = NULL;
    for (char *l = strtok_r(copy, "\n", &save); l && n < 512; l = strtok_r(NULL, "\n", &save))
        lines[n++] = l;
    qsort(lines, (size_t)n, sizeof *lines, cmp_str);
    char *out = calloc(strlen(text) + 2, 1);
    for (int i = 0; i < n; i++) {
        strcat(out, lines[i]);
        strcat(out, "\n");
    }
    free(copy);
    return out;
}

#define CHECK_MULTISET(got, want)                                                  \
    do {                                                                           \
        char *g_s = sorted(got), *w_s = sorted(want);                              \
        CHECK_STR(g_s, w_s);                                                       \
        free(g_s);                                                                 \
        free(w_s);                                                                 \
    } while (0)

static const int O_KEY[1] = {1};
static const int R_KEY[1] = {0};

static void fix_open(Fix *f, bool left_outer, WExpr *residual)
{
    warena_init(&f->arena, 0);
    const WType *ts = wtype_timestamp(&f->arena, WT_TIMESTAMP, 3, true);
    f->lt[0] = &WTYPE_BIGINT;
    f->lt[1] = &WTYPE_STRING;
    f->lt[2] = ts;
    f->rt[0] = &WTYPE_STRING;
    f->rt[1] = &WTYPE_BIGINT;
    f->rt[2] = ts;
    test_env_init(&f->env);
    WTemporalJoinSpec s = {.left_outer = left_outer, .left_ncols = 3, .right_ncols = 3,
                           .left_types = f->lt, .right_types = f->rt, .nkeys = 1,
                           .left_keys = O_KEY, .right_keys = R_KEY, .left_time_col = 2,
                           .right_time_col = 2, .residual = residual};
    f->op = wop_temporal_join_new(&f->env.ctx, &s);
    f->cap = capture_new(&f->env, f->op->ncols, f->op->types);
    wop_connect(f->op, &f->cap->base, 0);
}

static void fix_close(Fix *f)
{
    wop_free(f->op);
    capture_free(f->cap);
    warena_free(&f->arena);
}

#define T(s) "2020-10-10 00:00:" s

WTEST(temporal_join_conformance_table_join)
{
    Fix f;
    fix_open(&f, false, NULL);
    feed(&f,
         "O,+I,2,Euro," T("42") "\nWO," T("42") "\n"
         "R,+I,USD,102," T("41") "\nWR," T("41") "\n"
         "O,+I,1,USD," T("43") "\nWO," T("43") "\n"
         "R,+I,Euro,114," T("41") "\n"
         "O,+I,50,Yen," T("44") "\nWO," T("44") "\n"
         "R,+I,Yen,1," T("41") "\n"
         "O,+I,3,Euro," T("45") "\nWO," T("45") "\n"
         "R,+I,Euro,116," T("45") "\nWR," T("45") "\n"
         "R,+I,Euro,119," T("47") "\nWR," T("47") "\n");
    /* amount * rate: 228, 102, 50, 348 */
    CHECK_MULTISET(f.cap->text.buf,
                   "+I[2, Euro, 2020-10-10T00:00:42, Euro, 114, 2020-10-10T00:00:41]\n"
                   "+I[1, USD, 2020-10-10T00:00:43, USD, 102, 2020-10-10T00:00:41]\n"
                   "+I[50, Yen, 2020-10-10T00:00:44, Yen, 1, 2020-10-10T00:00:41]\n"
                   "+I[3, Euro, 2020-10-10T00:00:45, Euro, 116, 2020-10-10T00:00:45]\n");
    /* Euro@41 is gone (Euro@45 is the newest at the watermark; @47 is newer); USD, Yen stay */
    char m[512] = "";
    wop_metrics_text(f.op, m, sizeof m);
    CHECK(strstr(m, "right.entries=4") != NULL);
    CHECK(strstr(m, "left.entries=0") != NULL);
    capture_clear(f.cap);
    feed(&f,
         "O,+I,1,Euro," T("58") "\nWO," T("58") "\n"
         "O,+I,1,USD," T("58") "\n"
         "R,+I,USD,103," T("58") "\nWR," T("58") "\n"
         "R,+I,Euro,120," T("59") "\nWR," T("59") "\n"
         "W,2100-01-01 00:00:00\n");
    /* 119 (Euro@47, not 120@59) and 103 */
    CHECK_MULTISET(f.cap->text.buf,
                   "+I[1, Euro, 2020-10-10T00:00:58, Euro, 119, 2020-10-10T00:00:47]\n"
                   "+I[1, USD, 2020-10-10T00:00:58, USD, 103, 2020-10-10T00:00:58]\n");
    fix_close(&f);
}

WTEST(temporal_join_left_outer_no_version_and_delete)
{
    Fix f;
    fix_open(&f, true, NULL);
    feed(&f,
         "R,+I,Euro,114," T("10") "\n"
         "R,-D,Euro,114," T("20") "\n"
         "R,+I,Euro,116," T("30") "\n"
         "O,+I,1,Euro," T("05") "\n"        /* before any version */
         "O,+I,2,Euro," T("15") "\n"        /* version 114 */
         "O,+I,3,Euro," T("25") "\n"        /* deleted at 20 */
         "O,+I,4,Euro," T("30") "\n"        /* same time as version 116: visible */
         "O,+I,5,null," T("30") "\n"        /* NULL key */
         "W," T("29") "\n");
    /* arrival order of the triggered probe rows is kept (per key) */
    CHECK_STR(f.cap->text.buf,
              "+I[1, Euro, 2020-10-10T00:00:05, null, null, null]\n"
              "+I[2, Euro, 2020-10-10T00:00:15, Euro, 114, 2020-10-10T00:00:10]\n"
              "+I[3, Euro, 2020-10-10T00:00:25, null, null, null]\n");
    capture_clear(f.cap);
    feed(&f, "W," T("30") "\n");
    CHECK_MULTISET(f.cap->text.buf,
                   "+I[4, Euro, 2020-10-10T00:00:30, Euro, 116, 2020-10-10T00:00:30]\n"
                   "+I[5, null, 2020-10-10T00:00:30, null, null, null]\n");
    fix_close(&f);

    fix_open(&f, false, NULL);
    feed(&f,
         "R,+I,Euro,114," T("10") "\n"
         "R,-D,Euro,114," T("20") "\n"
         "O,+I,1,Euro," T("05") "\n"
         "O,+I,3,Euro," T("25") "\n"
         "O,-D,2,Euro," T("15") "\n"        /* the output keeps the probe row's kind */
         "W," T("40") "\n");
    CHECK_STR(f.cap->text.buf, "-D[2, Euro, 2020-10-10T00:00:15, Euro, 114, 2020-10-10T00:00:10]\n");
    fix_close(&f);
}

/* A later version with the same time replaces the earlier one; residual conditions filter. */
WTEST(temporal_join_same_time_version_and_residual)
{
    Fix f;
    WArena a;
    warena_init(&a, 0);
    const WFuncDef *gt = wfunc_lookup(">");
    WExpr *cond = NULL;
    if (gt) {
        cond = wexpr_new(&a, WX_CALL, &WTYPE_BOOLEAN, 2);
        cond->func = gt;
        cond->args[0] = wexpr_column(&a, 4, &WTYPE_BIGINT, "rate");
        WDatum v = {.i = 100};
        cond->args[1] = wexpr_literal(&a, &WTYPE_BIGINT, v, false);
    }
    fix_open(&f, true, cond);
    feed(&f,
         "R,+I,Euro,114," T("10") "\n"
         "R,+I,Euro,99," T("10") "\n"
         "R,+I,USD,102," T("10") "\n"
         "O,+I,1,Euro," T("12") "\n"
         "O,+I,2,USD," T("12") "\n"
         "W," T("50") "\n");
    if (gt)
        CHECK_MULTISET(f.cap->text.buf,
                       "+I[1, Euro, 2020-10-10T00:00:12, null, null, null]\n"
                       "+I[2, USD, 2020-10-10T00:00:12, USD, 102, 2020-10-10T00:00:10]\n");
    fix_close(&f);
    warena_free(&a);
}

/* Probe rows wait for the watermark; the timer is moved to the smallest pending time. */
WTEST(temporal_join_waits_for_watermark)
{
    Fix f;
    fix_open(&f, false, NULL);
    feed(&f,
         "R,+I,Euro,114," T("01") "\n"
         "O,+I,1,Euro," T("30") "\n"
         "O,+I,2,Euro," T("20") "\n"
         "W," T("19") "\n");
    CHECK_STR(f.cap->text.buf, "");
    feed(&f, "W," T("20") "\n");
    CHECK_STR(f.cap->text.buf, "+I[2, Euro, 2020-10-10T00:00:20, Euro, 114, 2020-10-10T00:00:01]\n");
    capture_clear(f.cap);
    feed(&f, "W," T("29") "\n");
    CHECK_STR(f.cap->text.buf, "");
    feed(&f, "W," T("30") "\n");
    CHECK_STR(f.cap->text.buf, "+I[1, Euro, 2020-10-10T00:00:30, Euro, 114, 2020-10-10T00:00:01]\n");
    CHECK_INT(f.cap->last_wm, parse_ts(&f.env, T("30")));
    fix_close(&f);
}
