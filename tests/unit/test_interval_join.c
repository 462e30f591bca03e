/* test_interval_join.c — IntervalJoin (exec/interval_join.c): the corpus cases
   interval-join-event-time and interval-join-negative-interval translated by hand, outer joins
   padding rows when they expire (Flink's cleanup-time arithmetic), rows too late to be cached,
   strict bounds, NULL keys, the held-back output watermark and the residual condition. */
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
    const WType *lt[3];         /* orders: id, order_ts_str, order_ts */
    const WType *rt[4];         /* shipments: id, order_id, shipment_ts_str, shipment_ts */
    WOperator *op;
    Capture *cap;
} Fix;

/* "O,+I,id,str" / "S,+I,id,order_id,str" rows (the time column is parsed from the string),
   "WO,<ts>" / "WS,<ts>" / "W,<ts>" watermarks. */
static void feed(Fix *f, const char *script)
{
    char *copy = strdup(script);
    char *save1 = NULL;
    for (char *line = strtok_r(copy, "\n", &save1); line; line = strtok_r(NULL, "\n", &save1)) {
        if (line[0] == 'W') {
            char *comma = strchr(line, ',');
            int64_t wm = parse_ts(&f->env, comma + 1);
            if (line[1] == 'O' || line[1] == ',') wop_input_watermark(f->op, 0, wm);
            if (line[1] == 'S' || line[1] == ',') wop_input_watermark(f->op, 1, wm);
            continue;
        }
        int input = line[0] == 'S' ? 1 : 0;
        int n = input ? 3 : 2;
        char *save2 = NULL;
        strtok_r(line, ",", &save2);
        const char *kinds[1];
        const char *cells[4];
        kinds[0] = strtok_r(NULL, ",", &save2);
        for (int k = 0; k < n; k++) cells[k] = strtok_r(NULL, ",", &save2);
        cells[n] = cells[n - 1];
        WChunk *c = chunk_from_text(&f->env, n + 1, input ? f->rt : f->lt, 1, kinds, cells);
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

static const int O_KEY[1] = {0};
static const int S_KEY[1] = {1};

static void fix_open(Fix *f, WJoinKind kind, int64_t lower, int64_t upper, WExpr *residual)
{
    warena_init(&f->arena, 0);
    const WType *ts = wtype_timestamp(&f->arena, WT_TIMESTAMP, 3, true);
    f->lt[0] = &WTYPE_INT;
    f->lt[1] = &WTYPE_STRING;
    f->lt[2] = ts;
    f->rt[0] = &WTYPE_INT;
    f->rt[1] = &WTYPE_INT;
    f->rt[2] = &WTYPE_STRING;
    f->rt[3] = ts;
    test_env_init(&f->env);
    WIntervalJoinSpec s = {.kind = kind, .left_ncols = 3, .right_ncols = 4, .left_types = f->lt,
                           .right_types = f->rt, .nkeys = 1, .left_keys = O_KEY,
                           .right_keys = S_KEY, .left_time_col = 2, .right_time_col = 3,
                           .lower_ms = lower, .upper_ms = upper, .residual = residual};
    f->op = wop_interval_join_new(&f->env.ctx, &s);
    f->cap = capture_new(&f->env, f->op->ncols, f->op->types);
    wop_connect(f->op, &f->cap->base, 0);
}

static void fix_close(Fix *f)
{
    wop_free(f->op);
    capture_free(f->cap);
    warena_free(&f->arena);
}

#define T(s) "2020-04-15 08:00:" s

/* Orders and shipments interleaved; each source's watermark is its ts - 1 s. */
static const char *EVENT_PHASE1 =
    "O,+I,1," T("01") "\nWO," T("00") "\n"
    "S,+I,2,1," T("02") "\nWS," T("01") "\n"
    "O,+I,2," T("02") "\nWO," T("01") "\n"
    "S,+I,5,2," T("05") "\nWS," T("04") "\n"
    "O,+I,4," T("04") "\nWO," T("03") "\n"
    "S,+I,6,5," T("06") "\nWS," T("05") "\n"
    "O,+I,5," T("05") "\nWO," T("04") "\n"
    "S,+I,15,4," T("15") "\nWS," T("14") "\n"
    "O,+I,3," T("03") "\n"
    "S,+I,16,6," T("15") "\n";
static const char *EVENT_PHASE2 =
    "O,+I,7," T("09") "\nWO," T("08") "\n"
    "S,+I,7,3," T("15") "\n"
    "O,+I,10," T("11") "\nWO," T("10") "\n"
    "S,+I,11,7," T("16") "\nWS," T("15") "\n"
    "S,+I,13,10," T("16") "\n"
    "W,2100-01-01 00:00:00\n";

WTEST(interval_join_conformance_event_time)
{
    Fix f;
    fix_open(&f, WJK_INNER, -5000, 5000, NULL);
    feed(&f, EVENT_PHASE1);
    CHECK_MULTISET(f.cap->text.buf,
                   "+I[1, 2020-04-15 08:00:01, 2020-04-15T08:00:01, 2, 1, 2020-04-15 08:00:02, 2020-04-15T08:00:02]\n"
                   "+I[2, 2020-04-15 08:00:02, 2020-04-15T08:00:02, 5, 2, 2020-04-15 08:00:05, 2020-04-15T08:00:05]\n"
                   "+I[5, 2020-04-15 08:00:05, 2020-04-15T08:00:05, 6, 5, 2020-04-15 08:00:06, 2020-04-15T08:00:06]\n");
    capture_clear(f.cap);
    feed(&f, EVENT_PHASE2);
    CHECK_STR(f.cap->text.buf,
              "+I[10, 2020-04-15 08:00:11, 2020-04-15T08:00:11, 13, 10, 2020-04-15 08:00:16, 2020-04-15T08:00:16]\n");
    char m[512] = "";
    wop_metrics_text(f.op, m, sizeof m);
    CHECK(strstr(m, "IntervalJoinLeftCache.entries=0") != NULL);
    CHECK(strstr(m, "IntervalJoinRightCache.entries=0") != NULL);
    fix_close(&f);
}

/* BETWEEN s + 10 s AND s + 5 s: lower > upper, Flink pads every order and drops shipments. */
WTEST(interval_join_conformance_negative_interval)
{
    Fix f;
    fix_open(&f, WJK_LEFT, 10000, 5000, NULL);
    feed(&f, EVENT_PHASE1);
    CHECK_MULTISET(f.cap->text.buf,
                   "+I[1, 2020-04-15 08:00:01, 2020-04-15T08:00:01, null, null, null, null]\n"
                   "+I[2, 2020-04-15 08:00:02, 2020-04-15T08:00:02, null, null, null, null]\n"
                   "+I[4, 2020-04-15 08:00:04, 2020-04-15T08:00:04, null, null, null, null]\n"
                   "+I[5, 2020-04-15 08:00:05, 2020-04-15T08:00:05, null, null, null, null]\n"
                   "+I[3, 2020-04-15 08:00:03, 2020-04-15T08:00:03, null, null, null, null]\n");
    capture_clear(f.cap);
    feed(&f, EVENT_PHASE2);
    CHECK_MULTISET(f.cap->text.buf,
                   "+I[7, 2020-04-15 08:00:09, 2020-04-15T08:00:09, null, null, null, null]\n"
                   "+I[10, 2020-04-15 08:00:11, 2020-04-15T08:00:11, null, null, null, null]\n");
    fix_close(&f);

    fix_open(&f, WJK_INNER, 10000, 5000, NULL);
    feed(&f, EVENT_PHASE1);
    CHECK_STR(f.cap->text.buf, "");
    fix_close(&f);
}

/* Left outer: an order without shipment is padded when the cleanup timer (order time +
   left size + (left size + right size) / 2 + 1 ms) fires and it has expired. */
WTEST(interval_join_left_outer_pads_on_expiry)
{
    Fix f;
    fix_open(&f, WJK_LEFT, -5000, 5000, NULL);
    feed(&f, "O,+I,1," T("10") "\nW," T("20") "\n");
    CHECK_STR(f.cap->text.buf, "");
    /* output watermark held back by max(5 s, 5 s) */
    CHECK_INT(f.cap->last_wm, parse_ts(&f.env, T("15")));
    feed(&f, "W," T("20.001") "\n");
    CHECK_STR(f.cap->text.buf, "+I[1, 2020-04-15 08:00:10, 2020-04-15T08:00:10, null, null, null, null]\n");
    char m[512] = "";
    wop_metrics_text(f.op, m, sizeof m);
    CHECK(strstr(m, "IntervalJoinLeftCache.entries=0") != NULL);
    CHECK(strstr(m, "timers=0") != NULL);
    fix_close(&f);
}

/* A joined order is not padded; a second shipment in range joins again. */
WTEST(interval_join_left_outer_joined_rows_not_padded)
{
    Fix f;
    fix_open(&f, WJK_LEFT, -5000, 5000, NULL);
    feed(&f,
         "O,+I,1," T("10") "\n"
         "S,+I,100,1," T("12") "\n"
         "S,+I,101,1," T("15") "\n"
         "S,+I,102,1," T("16") "\n"         /* 6 s later: outside */
         "O,+I,2," T("10") "\n"
         "W,2100-01-01 00:00:00\n");
    CHECK_MULTISET(f.cap->text.buf,
                   "+I[1, 2020-04-15 08:00:10, 2020-04-15T08:00:10, 100, 1, 2020-04-15 08:00:12, 2020-04-15T08:00:12]\n"
                   "+I[1, 2020-04-15 08:00:10, 2020-04-15T08:00:10, 101, 1, 2020-04-15 08:00:15, 2020-04-15T08:00:15]\n"
                   "+I[2, 2020-04-15 08:00:10, 2020-04-15T08:00:10, null, null, null, null]\n");
    fix_close(&f);
}

/* Full outer: unmatched shipments are padded on the left when they expire; NULL keys never match. */
WTEST(interval_join_full_outer_and_null_keys)
{
    Fix f;
    fix_open(&f, WJK_FULL, -1000, 1000, NULL);
    feed(&f,
         "O,+I,null," T("10") "\n"
         "S,+I,100,null," T("10") "\n"
         "S,+I,101,7," T("10") "\n"
         "O,+I,7," T("11") "\n"
         "S,+I,102,8," T("30") "\n"
         "W," T("20") "\n");
    CHECK_MULTISET(f.cap->text.buf,
                   "+I[7, 2020-04-15 08:00:11, 2020-04-15T08:00:11, 101, 7, 2020-04-15 08:00:10, 2020-04-15T08:00:10]\n"
                   "+I[null, 2020-04-15 08:00:10, 2020-04-15T08:00:10, null, null, null, null]\n"
                   "+I[null, null, null, 100, null, 2020-04-15 08:00:10, 2020-04-15T08:00:10]\n");
    capture_clear(f.cap);
    feed(&f, "W,2100-01-01 00:00:00\n");
    CHECK_STR(f.cap->text.buf, "+I[null, null, null, 102, 8, 2020-04-15 08:00:30, 2020-04-15T08:00:30]\n");
    fix_close(&f);
}

/* A row arriving after the other side's watermark passed its window is not cached: an outer row
   is padded at once (after joining what is still cached). */
WTEST(interval_join_late_rows)
{
    Fix f;
    fix_open(&f, WJK_LEFT, -2000, 2000, NULL);
    feed(&f,
         "S,+I,100,1," T("30") "\n"
         "W," T("29") "\n"
         "O,+I,1," T("10") "\n"             /* far behind: padded at once */
         "O,+I,1," T("28") "\n");           /* joins the cached shipment, then is cached */
    CHECK_MULTISET(f.cap->text.buf,
                   "+I[1, 2020-04-15 08:00:10, 2020-04-15T08:00:10, null, null, null, null]\n"
                   "+I[1, 2020-04-15 08:00:28, 2020-04-15T08:00:28, 100, 1, 2020-04-15 08:00:30, 2020-04-15T08:00:30]\n");
    CHECK_INT(f.op->late_dropped, 0);
    fix_close(&f);
}

/* Strict bounds: o.ts > s.ts - 2 s AND o.ts < s.ts + 2 s exclude the exact bounds. */
WTEST(interval_join_strict_bounds)
{
    Fix f;
    WArena a;
    warena_init(&a, 0);
    fix_open(&f, WJK_INNER, -2000, 2000, NULL);
    wop_free(f.op);
    capture_free(f.cap);
    WIntervalJoinSpec s = {.kind = WJK_INNER, .left_ncols = 3, .right_ncols = 4, .left_types = f.lt,
                           .right_types = f.rt, .nkeys = 1, .left_keys = O_KEY, .right_keys = S_KEY,
                           .left_time_col = 2, .right_time_col = 3, .lower_ms = -2000,
                           .upper_ms = 2000, .lower_strict = true, .upper_strict = true};
    f.op = wop_interval_join_new(&f.env.ctx, &s);
    f.cap = capture_new(&f.env, f.op->ncols, f.op->types);
    wop_connect(f.op, &f.cap->base, 0);
    feed(&f,
         "S,+I,100,1," T("10") "\n"
         "O,+I,1," T("08") "\n"
         "O,+I,1," T("12") "\n"
         "O,+I,1," T("11.999") "\n");
    CHECK_STR(f.cap->text.buf,
              "+I[1, 2020-04-15 08:00:11.999, 2020-04-15T08:00:11.999, 100, 1, 2020-04-15 08:00:10, 2020-04-15T08:00:10]\n");
    fix_close(&f);
    warena_free(&a);
}

WTEST(interval_join_residual_and_errors)
{
    Fix f;
    WArena a;
    warena_init(&a, 0);
    const WFuncDef *gt = wfunc_lookup(">");
    WExpr *cond = NULL;
    if (gt) {
        /* shipment id > 100 (column 3 of left ++ right) */
        cond = wexpr_new(&a, WX_CALL, &WTYPE_BOOLEAN, 2);
        cond->func = gt;
        cond->args[0] = wexpr_column(&a, 3, &WTYPE_INT, "s.id");
        WDatum v = {.i = 100};
        cond->args[1] = wexpr_literal(&a, &WTYPE_INT, v, false);
    }
    fix_open(&f, WJK_RIGHT, -5000, 5000, cond);
    feed(&f,
         "O,+I,1," T("10") "\n"
         "S,+I,100,1," T("10") "\n"
         "S,+I,101,1," T("10") "\n"
         "W,2100-01-01 00:00:00\n");
    if (gt)
        CHECK_MULTISET(f.cap->text.buf,
                       "+I[1, 2020-04-15 08:00:10, 2020-04-15T08:00:10, 101, 1, 2020-04-15 08:00:10, 2020-04-15T08:00:10]\n"
                       "+I[null, null, null, 100, 1, 2020-04-15 08:00:10, 2020-04-15T08:00:10]\n");
    fix_close(&f);
    warena_free(&a);

    fix_open(&f, WJK_SEMI, -5000, 5000, NULL);
    CHECK(f.env.err.set);
    CHECK(strstr(f.env.err.msg, "Interval Join: SEMI Join between stream and stream is not supported yet.") != NULL);
    fix_close(&f);
}
