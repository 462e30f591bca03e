/* test_window_tvf.c — window table functions (exec/window_tvf.c, SESSION in window_session.c). */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/windowed.h"

#include <stdlib.h>
#include <string.h>

static const WType TS3 = {.id = WT_TIMESTAMP, .nullable = true, .precision = 3};
static const WType TS3_NN = {.id = WT_TIMESTAMP, .nullable = false, .precision = 3};
static const WType LTZ3 = {.id = WT_TIMESTAMP_LTZ, .nullable = true, .precision = 3};

/* Source: rowtime, a_int, comment, name. Output: + window_start, window_end, window_time. */
static const WType *SRC_T[4] = {&TS3, &WTYPE_INT, &WTYPE_STRING, &WTYPE_STRING};
static const WType *OUT_T[7] = {&TS3, &WTYPE_INT, &WTYPE_STRING, &WTYPE_STRING, &TS3_NN, &TS3_NN,
                                &TS3_NN};
static const int NAME_COL[1] = {3};

typedef struct Fix {
    TestEnv env;
    WOperator *op;
    WOperator *agg;         /* optional GroupAggregate after the TVF */
    Capture *cap;
    int64_t maxts;
} Fix;

static WWindowTvfSpec tvf_spec(WWindowKind kind, int64_t size, int64_t slide, int64_t offset)
{
    WWindowTvfSpec s = {.in_ncols = 4, .in_types = SRC_T, .out = {.ncols = 7, .types = OUT_T}};
    s.win.kind = kind;
    s.win.size_ms = size;
    s.win.slide_ms = slide;
    s.win.offset_ms = offset;
    s.win.gap_ms = size;
    s.win.time_col = 0;
    return s;
}

static bool fix_open(Fix *f, const WWindowTvfSpec *spec)
{
    test_env_init(&f->env);
    f->maxts = INT64_MIN;
    f->agg = NULL;
    f->cap = NULL;
    f->op = wop_window_tvf_new(&f->env.ctx, spec);
    if (!f->op) return false;
    f->cap = capture_new(&f->env, spec->out.ncols, spec->out.types);
    wop_connect(f->op, &f->cap->base, 0);
    return true;
}

static void fix_close(Fix *f)
{
    if (f->op) wop_free(f->op);
    if (f->agg) wop_free(f->agg);
    if (f->cap) capture_free(f->cap);
}

/* "kind,time,a,comment,name" lines, one row per chunk; watermark max time - wm_delay after each
   row when wm_delay >= 0. */
static void feed(Fix *f, const char *text, int64_t wm_delay)
{
    char *copy = strdup(text);
    char *sl = NULL;
    for (char *line = strtok_r(copy, "\n", &sl); line; line = strtok_r(NULL, "\n", &sl)) {
        const char *kinds[1];
        const char *cells[4];
        char tbuf[64];
        char *save = NULL;
        kinds[0] = strtok_r(line, ",", &save);
        for (int c = 0; c < 4; c++) cells[c] = strtok_r(NULL, ",", &save);
        if (cells[0] && strlen(cells[0]) < 19 && cells[0][2] == ':') {
            snprintf(tbuf, sizeof tbuf, "2020-10-10 %s", cells[0]);
            cells[0] = tbuf;
        }
        WChunk *c = chunk_from_text(&f->env, 4, SRC_T, 1, kinds, cells);
        int64_t ts = c->cols[0].nulls[0] ? INT64_MIN : c->cols[0].data[0].ts.ms;
        wop_push(f->op, 0, c);
        wchunk_free(c);
        if (ts > f->maxts) f->maxts = ts;
        if (wm_delay >= 0 && f->maxts != INT64_MIN) wop_input_watermark(f->op, 0, f->maxts - wm_delay);
    }
    free(copy);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static char *sorted(const char *text)
{
    char *copy = strdup(text ? text : "");
    char *lines[512];
    int n = 0;
    char *save = NULL;
    for (char *l = strtok_r(copy, "\n", &save); l && n < 512; l = strtok_r(NULL, "\n", &save))
        lines[n++] = l;
    qsort(lines, (size_t)n, sizeof *lines, cmp_str);
    size_t total = 1;
    for (int i = 0; i < n; i++) total += strlen(lines[i]) + 1;
    char *out = malloc(total);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        strcat(out, lines[i]);
        strcat(out, "\n");
    }
    free(copy);
    return out;
}

#define CHECK_MULTISET(got, want)                                                  \
    do {                                                                           \
        char *g2_ = sorted(got), *w2_ = sorted(want);                              \
        CHECK_STR(g2_, w2_);                                                       \
        free(g2_);                                                                 \
        free(w2_);                                                                 \
    } while (0)

WTEST(window_tvf_tumble_rows_and_kinds)
{
    Fix f;
    WWindowTvfSpec s = tvf_spec(WWIN_TUMBLE, 5000, 0, 0);
    CHECK(fix_open(&f, &s));
    feed(&f, "+I,00:00:01,1,Hi,a\n+I,00:00:09,2,x,b\n-D,00:00:01,1,Hi,a\n+I,00:00:04.999,3,null,null\n",
         1000);
    /* rows behind the watermark are NOT dropped by the TVF (Flink drops them downstream) */
    CHECK_STR(f.cap->text.buf,
              "+I[2020-10-10T00:00:01, 1, Hi, a, 2020-10-10T00:00, 2020-10-10T00:00:05, 2020-10-10T00:00:04.999]\n"
              "+I[2020-10-10T00:00:09, 2, x, b, 2020-10-10T00:00:05, 2020-10-10T00:00:10, 2020-10-10T00:00:09.999]\n"
              "-D[2020-10-10T00:00:01, 1, Hi, a, 2020-10-10T00:00, 2020-10-10T00:00:05, 2020-10-10T00:00:04.999]\n"
              "+I[2020-10-10T00:00:04.999, 3, null, null, 2020-10-10T00:00, 2020-10-10T00:00:05, 2020-10-10T00:00:04.999]\n");
    CHECK_INT(f.op->late_dropped, 0);
    CHECK(f.cap->last_wm == f.maxts - 1000);
    fix_close(&f);
}

WTEST(window_tvf_null_rowtime_dropped_and_counted)
{
    Fix f;
    WWindowTvfSpec s = tvf_spec(WWIN_TUMBLE, 5000, 0, 0);
    CHECK(fix_open(&f, &s));
    feed(&f, "+I,null,1,Hi,a\n+I,00:00:01,2,x,b\n", -1);
    CHECK_INT(f.cap->rows, 1);
    char m[256] = "";
    wop_metrics_text(f.op, m, sizeof m);
    CHECK(strstr(m, "numNullRowTimeRecordsDropped=1") != NULL);
    fix_close(&f);
}

WTEST(window_tvf_hop_latest_window_first_with_offset)
{
    Fix f;
    WWindowTvfSpec s = tvf_spec(WWIN_HOP, 10000, 5000, 1000);
    CHECK(fix_open(&f, &s));
    feed(&f, "+I,00:00:07,1,Hi,a\n", -1);
    CHECK_STR(f.cap->text.buf,
              "+I[2020-10-10T00:00:07, 1, Hi, a, 2020-10-10T00:00:06, 2020-10-10T00:00:16, 2020-10-10T00:00:15.999]\n"
              "+I[2020-10-10T00:00:07, 1, Hi, a, 2020-10-10T00:00:01, 2020-10-10T00:00:11, 2020-10-10T00:00:10.999]\n");
    fix_close(&f);
}

WTEST(window_tvf_hop_size_not_multiple_of_slide)
{
    Fix f;
    WWindowTvfSpec s = tvf_spec(WWIN_HOP, 5000, 3000, 0);
    CHECK(fix_open(&f, &s));
    feed(&f, "+I,00:00:04,1,Hi,a\n", -1);
    CHECK_STR(f.cap->text.buf,
              "+I[2020-10-10T00:00:04, 1, Hi, a, 2020-10-10T00:00:03, 2020-10-10T00:00:08, 2020-10-10T00:00:07.999]\n"
              "+I[2020-10-10T00:00:04, 1, Hi, a, 2020-10-10T00:00, 2020-10-10T00:00:05, 2020-10-10T00:00:04.999]\n");
    fix_close(&f);
}

WTEST(window_tvf_cumulate)
{
    Fix f;
    WWindowTvfSpec s = tvf_spec(WWIN_CUMULATE, 15000, 5000, 0);
    CHECK(fix_open(&f, &s));
    feed(&f, "+I,00:00:07,1,Hi,a\n", -1);
    CHECK_STR(f.cap->text.buf,
              "+I[2020-10-10T00:00:07, 1, Hi, a, 2020-10-10T00:00, 2020-10-10T00:00:10, 2020-10-10T00:00:09.999]\n"
              "+I[2020-10-10T00:00:07, 1, Hi, a, 2020-10-10T00:00, 2020-10-10T00:00:15, 2020-10-10T00:00:14.999]\n");
    fix_close(&f);
}

WTEST(window_tvf_validation)
{
    TestEnv e;
    test_env_init(&e);
    WWindowTvfSpec s = tvf_spec(WWIN_CUMULATE, 10000, 3000, 0);
    CHECK(wop_window_tvf_new(&e.ctx, &s) == NULL);
    CHECK_STR(e.err.cls, "java.lang.IllegalArgumentException");
    CHECK_STR(e.err.msg, "CumulativeWindowAssigner requires size must be an integral multiple of step.");
    test_env_init(&e);
    s = tvf_spec(WWIN_HOP, 10000, 0, 0);
    CHECK(wop_window_tvf_new(&e.ctx, &s) == NULL);
    CHECK_STR(e.err.msg, "SlidingWindowAssigner parameters must satisfy slide > 0 and size > 0");
    test_env_init(&e);
    s = tvf_spec(WWIN_TUMBLE, 1000, 0, 0);
    s.win.time_col = 9;
    CHECK(wop_window_tvf_new(&e.ctx, &s) == NULL);
    CHECK(e.err.set);
    test_env_init(&e);
    s = tvf_spec(WWIN_SESSION, 0, 0, 0);
    CHECK(wop_window_tvf_new(&e.ctx, &s) == NULL);
    CHECK(e.err.set);
}

static const WType *PT_SRC_T[4] = {&LTZ3, &WTYPE_INT, &WTYPE_STRING, &WTYPE_STRING};

WTEST(window_tvf_proctime)
{
    Fix f;
    WWindowTvfSpec s = tvf_spec(WWIN_TUMBLE, 5000, 0, 0);
    s.in_types = PT_SRC_T;
    s.win.proctime = true;
    CHECK(fix_open(&f, &s));
    f.env.now = 1602288006000LL;
    const char *kinds[1] = {"+I"};
    const char *cells[4] = {NULL, "1", "x", "a"};
    WChunk *c = chunk_from_text(&f.env, 4, PT_SRC_T, 1, kinds, cells);
    wop_push(f.op, 0, c);
    wchunk_free(c);
    CHECK_STR(f.cap->text.buf,
              "+I[null, 1, x, a, 2020-10-10T00:00:05, 2020-10-10T00:00:10, 2020-10-10T00:00:09.999]\n");
    fix_close(&f);
}

/* ---- SESSION ---- */

static const char *PHASE1 =
    "+I,00:00:01,1,Hi,a\n+I,00:00:02,2,Comment#1,a\n+I,00:00:03,2,Comment#1,a\n"
    "+I,00:00:04,5,null,a\n+I,00:00:07,3,Hello,b\n+I,00:00:06,6,Hi,b\n"
    "+I,00:00:08,3,Comment#2,a\n+I,00:00:04,5,Hi,a\n+I,00:00:16,4,Hi,b\n"
    "+I,00:00:32,7,null,null\n+I,00:00:34,1,Comment#3,b\n";
static const char *PHASE2 =
    "+I,00:00:40,10,Comment#4,a\n+I,00:00:42,11,Comment#5,d\n+I,00:00:43,12,Comment#6,c\n"
    "+I,00:00:44,13,Comment#7,d\n";

WTEST(window_tvf_session_partitioned_rows_in_arrival_order)
{
    Fix f;
    WWindowTvfSpec s = tvf_spec(WWIN_SESSION, 5000, 0, 0);
    s.win.npartition = 1;
    s.win.partition = NAME_COL;
    CHECK(fix_open(&f, &s));
    feed(&f, "+I,00:00:01,1,x,a\n+I,00:00:07,2,y,b\n+I,00:00:03,3,z,a\n", -1);
    CHECK_INT(f.cap->rows, 0);
    wop_input_watermark(f.op, 0, WWM_MAX);
    CHECK_MULTISET(f.cap->text.buf,
                   "+I[2020-10-10T00:00:01, 1, x, a, 2020-10-10T00:00:01, 2020-10-10T00:00:08, 2020-10-10T00:00:07.999]\n"
                   "+I[2020-10-10T00:00:03, 3, z, a, 2020-10-10T00:00:01, 2020-10-10T00:00:08, 2020-10-10T00:00:07.999]\n"
                   "+I[2020-10-10T00:00:07, 2, y, b, 2020-10-10T00:00:07, 2020-10-10T00:00:12, 2020-10-10T00:00:11.999]\n");
    /* a's rows keep their arrival order */
    const char *p1 = strstr(f.cap->text.buf, "00:00:01, 1, x");
    const char *p3 = strstr(f.cap->text.buf, "00:00:03, 3, z");
    CHECK(p1 && p3 && p1 < p3);
    char m[512] = "";
    wop_metrics_text(f.op, m, sizeof m);
    CHECK(strstr(m, "session-rows.entries=0") != NULL);
    CHECK(strstr(m, "timers=0") != NULL);
    fix_close(&f);
}

WTEST(window_tvf_session_late_row_dropped)
{
    Fix f;
    WWindowTvfSpec s = tvf_spec(WWIN_SESSION, 2000, 0, 0);
    CHECK(fix_open(&f, &s));
    /* [01, 03) fires at watermark 00:00:02.999; a row at 00:00:00.5 opens [00.5, 02.5): late */
    feed(&f, "+I,00:00:01,1,x,a\n+I,00:00:05,2,y,b\n+I,00:00:00.5,3,z,a\n", 1000);
    CHECK_INT(f.cap->rows, 1);
    CHECK_INT(f.op->late_dropped, 1);
    /* a row that merges into the still open session [05, 07) is not late */
    feed(&f, "+I,00:00:04,4,w,c\n", 1000);
    CHECK_INT(f.op->late_dropped, 1);
    wop_input_watermark(f.op, 0, WWM_MAX);
    wop_input_end(f.op, 0);
    CHECK_MULTISET(f.cap->text.buf,
                   "+I[2020-10-10T00:00:01, 1, x, a, 2020-10-10T00:00:01, 2020-10-10T00:00:03, 2020-10-10T00:00:02.999]\n"
                   "+I[2020-10-10T00:00:05, 2, y, b, 2020-10-10T00:00:04, 2020-10-10T00:00:07, 2020-10-10T00:00:06.999]\n"
                   "+I[2020-10-10T00:00:04, 4, w, c, 2020-10-10T00:00:04, 2020-10-10T00:00:07, 2020-10-10T00:00:06.999]\n");
    CHECK(f.cap->ended);
    fix_close(&f);
}

/* window-agg__window-aggregate-session-event-time: SESSION TVF without PARTITION BY followed by
   a regular GroupAggregate (name, window_start, window_end). */
static const WAggCall AGGS3[3] = {
    {.kind = WAGG_COUNT_STAR, .name = "COUNT", .nargs = 0, .filter_col = -1, .type = &WTYPE_BIGINT_NN},
    {.kind = WAGG_SUM, .name = "SUM", .nargs = 1, .args = {1}, .filter_col = -1, .type = &WTYPE_INT},
    {.kind = WAGG_COUNT, .name = "COUNT", .nargs = 1, .args = {2}, .distinct = true, .filter_col = -1,
     .type = &WTYPE_BIGINT_NN},
};
static const int GA_KEYS[3] = {3, 4, 5};
static const WType *GA_OUT_T[6] = {&WTYPE_STRING, &TS3_NN, &TS3_NN, &WTYPE_BIGINT_NN, &WTYPE_INT,
                                   &WTYPE_BIGINT_NN};

WTEST(window_tvf_conformance_session_then_group_agg)
{
    Fix f;
    WWindowTvfSpec s = tvf_spec(WWIN_SESSION, 5000, 0, 0);
    test_env_init(&f.env);
    f.maxts = INT64_MIN;
    f.op = wop_window_tvf_new(&f.env.ctx, &s);
    CHECK(f.op != NULL);
    if (!f.op) return;
    WGroupAggSpec g = {.in_ncols = 7, .in_types = OUT_T, .nkeys = 3, .keys = GA_KEYS, .naggs = 3,
                       .aggs = AGGS3, .generate_update_before = true,
                       .state_name = "groupAggregateState", .out = {.ncols = 6, .types = GA_OUT_T}};
    f.agg = wop_group_agg_new(&f.env.ctx, &g);
    CHECK(f.agg != NULL);
    if (!f.agg) { wop_free(f.op); return; }
    f.cap = capture_new(&f.env, 6, GA_OUT_T);
    wop_connect(f.op, f.agg, 0);
    wop_connect(f.agg, &f.cap->base, 0);
    feed(&f, PHASE1, 1000);
    CHECK_MULTISET(f.cap->text.buf,
                   "+I[a, 2020-10-10T00:00:01, 2020-10-10T00:00:13, 1, 1, 1]\n"
                   "-U[a, 2020-10-10T00:00:01, 2020-10-10T00:00:13, 1, 1, 1]\n"
                   "+U[a, 2020-10-10T00:00:01, 2020-10-10T00:00:13, 2, 3, 2]\n"
                   "-U[a, 2020-10-10T00:00:01, 2020-10-10T00:00:13, 2, 3, 2]\n"
                   "+U[a, 2020-10-10T00:00:01, 2020-10-10T00:00:13, 3, 5, 2]\n"
                   "-U[a, 2020-10-10T00:00:01, 2020-10-10T00:00:13, 3, 5, 2]\n"
                   "+U[a, 2020-10-10T00:00:01, 2020-10-10T00:00:13, 4, 10, 2]\n"
                   "+I[b, 2020-10-10T00:00:01, 2020-10-10T00:00:13, 1, 3, 1]\n"
                   "-U[b, 2020-10-10T00:00:01, 2020-10-10T00:00:13, 1, 3, 1]\n"
                   "+U[b, 2020-10-10T00:00:01, 2020-10-10T00:00:13, 2, 9, 2]\n"
                   "-U[a, 2020-10-10T00:00:01, 2020-10-10T00:00:13, 4, 10, 2]\n"
                   "+U[a, 2020-10-10T00:00:01, 2020-10-10T00:00:13, 5, 13, 3]\n"
                   "-U[a, 2020-10-10T00:00:01, 2020-10-10T00:00:13, 5, 13, 3]\n"
                   "+U[a, 2020-10-10T00:00:01, 2020-10-10T00:00:13, 6, 18, 3]\n"
                   "+I[b, 2020-10-10T00:00:16, 2020-10-10T00:00:21, 1, 4, 1]\n");
    capture_clear(f.cap);
    feed(&f, PHASE2, 1000);
    wop_input_watermark(f.op, 0, WWM_MAX);
    wop_input_end(f.op, 0);
    CHECK_MULTISET(f.cap->text.buf,
                   "+I[null, 2020-10-10T00:00:32, 2020-10-10T00:00:39, 1, 7, 0]\n"
                   "+I[b, 2020-10-10T00:00:32, 2020-10-10T00:00:39, 1, 1, 1]\n"
                   "+I[a, 2020-10-10T00:00:40, 2020-10-10T00:00:49, 1, 10, 1]\n"
                   "+I[d, 2020-10-10T00:00:40, 2020-10-10T00:00:49, 1, 11, 1]\n"
                   "+I[c, 2020-10-10T00:00:40, 2020-10-10T00:00:49, 1, 12, 1]\n"
                   "-U[d, 2020-10-10T00:00:40, 2020-10-10T00:00:49, 1, 11, 1]\n"
                   "+U[d, 2020-10-10T00:00:40, 2020-10-10T00:00:49, 2, 24, 2]\n");
    CHECK(!f.env.err.set);
    fix_close(&f);
}
