/* test_over_agg_calls.c — the non-aggregate calls of the streaming OverAggregate
   (exec/over_agg.c with WOverAggSpec.calls): LAG with offset and default (Flink's testLagFunction
   data: peers of one time share a value), ROW_NUMBER / RANK / DENSE_RANK, a mix with an aggregate,
   late rows, processing time, and the errors for bounded frames and unsupported functions. */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/windowed.h"
#include "../../src/plan/over_window.h"
#include "../../src/common/arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* input: k STRING, b BIGINT, d BIGINT (a default), rowtime TIMESTAMP(3) */
typedef struct CFix {
    TestEnv env;
    WArena arena;
    const WType *types[4];
    WOverCall calls[4];
    WAggCall aggs[1];
    WOperator *op;
    Capture *cap;
} CFix;

static const int KEY[1] = {0};

static WOverCall xcall(WOverFn fn, int arg, int64_t n, int def, const WType *t)
{
    WOverCall c;
    memset(&c, 0, sizeof c);
    c.fn = fn;
    c.arg = arg;
    c.n = n;
    c.default_col = def;
    c.type = t;
    c.agg.filter_col = -1;
    return c;
}

static void open_calls(CFix *f, bool rows, bool unbounded, bool proctime, int ncalls, const WOverCall *calls)
{
    warena_init(&f->arena, 0);
    f->types[0] = &WTYPE_STRING;
    f->types[1] = &WTYPE_BIGINT;
    f->types[2] = &WTYPE_BIGINT;
    f->types[3] = wtype_timestamp(&f->arena, WT_TIMESTAMP, 3, true);
    int naggs = 0;
    for (int i = 0; i < ncalls; i++) {
        f->calls[i] = calls[i];
        if (calls[i].fn == WOF_AGG) f->aggs[naggs++] = calls[i].agg;
    }
    test_env_init(&f->env);
    WOverAggSpec s = {.in_ncols = 4, .in_types = f->types, .nkeys = 1, .keys = KEY, .time_col = 3,
                      .proctime = proctime, .rows_frame = rows, .unbounded = unbounded, .preceding = 2,
                      .naggs = naggs, .aggs = f->aggs, .ncalls = ncalls, .calls = f->calls};
    f->op = wop_over_agg_new(&f->env.ctx, &s);
    f->cap = capture_new(&f->env, f->op->ncols, f->op->types);
    wop_connect(f->op, &f->cap->base, 0);
}

static void close_calls(CFix *f)
{
    wop_free(f->op);
    capture_free(f->cap);
    warena_free(&f->arena);
}

/* Lines "k,b,d,seconds" (one row each) or "WM,<seconds>". */
static void feed(CFix *f, const char *script)
{
    char *copy = strdup(script);
    char *save1 = NULL;
    for (char *line = strtok_r(copy, "\n", &save1); line; line = strtok_r(NULL, "\n", &save1)) {
        if (strncmp(line, "WM,", 3) == 0) {
            wop_input_watermark(f->op, 0, atoll(line + 3) * 1000);
            continue;
        }
        char *save2 = NULL;
        const char *kinds[1] = {"+I"};
        const char *cells[4];
        for (int k = 0; k < 3; k++) cells[k] = strtok_r(k ? NULL : line, ",", &save2);
        long long ts = atoll(strtok_r(NULL, ",", &save2));
        char tsbuf[64];
        snprintf(tsbuf, sizeof tsbuf, "1970-01-01 00:%02lld:%02lld", ts / 60 % 60, ts % 60);
        cells[3] = tsbuf;
        WChunk *c = chunk_from_text(&f->env, 4, f->types, 1, kinds, cells);
        wop_push(f->op, 0, c);
        wchunk_free(c);
    }
    free(copy);
}

/* Flink's OverAggregateITCase.testLagFunction: LAG(b), LAG(b, 2), LAG(b, 2, d) over RANGE
   UNBOUNDED PRECEDING; the two rows of time 3 are accumulated together. */
WTEST(over_calls_lag_like_flink)
{
    CFix f;
    WOverCall c[3] = {xcall(WOF_LAG, 1, 1, -1, &WTYPE_BIGINT), xcall(WOF_LAG, 1, 2, -1, &WTYPE_BIGINT),
                      xcall(WOF_LAG, 1, 2, 2, &WTYPE_BIGINT)};
    open_calls(&f, false, true, false, 3, c);
    feed(&f, "a,1,10086,1\na,2,10086,5\na,3,10086,2\na,4,10086,3\na,5,10086,3\nWM,20\n");
    CHECK_STR(f.cap->text.buf,
              "+I[a, 1, 10086, 1970-01-01T00:00:01, null, null, 10086]\n"
              "+I[a, 3, 10086, 1970-01-01T00:00:02, 1, null, 10086]\n"
              "+I[a, 4, 10086, 1970-01-01T00:00:03, 4, 3, 3]\n"
              "+I[a, 5, 10086, 1970-01-01T00:00:03, 4, 3, 3]\n"
              "+I[a, 2, 10086, 1970-01-01T00:00:05, 5, 4, 4]\n");
    capture_clear(f.cap);
    /* the state survives between timers; a row behind the watermark is dropped */
    feed(&f, "a,6,10086,21\na,9,10086,19\na,7,10086,22\nWM,30\n");
    CHECK_STR(f.cap->text.buf,
              "+I[a, 6, 10086, 1970-01-01T00:00:21, 2, 5, 5]\n"
              "+I[a, 7, 10086, 1970-01-01T00:00:22, 6, 2, 2]\n");
    CHECK_INT(f.op->late_dropped, 1);
    close_calls(&f);
}

/* ROWS: ROW_NUMBER per row; RANGE: RANK / DENSE_RANK share the rank of peers; with COUNT(*). */
WTEST(over_calls_ranking)
{
    CFix f;
    WOverCall rn = xcall(WOF_ROW_NUMBER, -1, 0, -1, &WTYPE_BIGINT_NN);
    open_calls(&f, true, true, false, 1, &rn);
    feed(&f, "a,1,0,1\nb,2,0,1\na,3,0,1\na,4,0,2\nWM,5\n");
    CHECK_STR(f.cap->text.buf,
              "+I[a, 1, 0, 1970-01-01T00:00:01, 1]\n"
              "+I[a, 3, 0, 1970-01-01T00:00:01, 2]\n"
              "+I[a, 4, 0, 1970-01-01T00:00:02, 3]\n"
              "+I[b, 2, 0, 1970-01-01T00:00:01, 1]\n");
    close_calls(&f);

    WOverCall cnt = xcall(WOF_AGG, -1, 0, -1, &WTYPE_BIGINT_NN);
    cnt.agg.kind = WAGG_COUNT_STAR;
    cnt.agg.name = "COUNT";
    cnt.agg.type = &WTYPE_BIGINT_NN;
    WOverCall c[3] = {xcall(WOF_RANK, -1, 0, -1, &WTYPE_BIGINT_NN), cnt,
                      xcall(WOF_DENSE_RANK, -1, 0, -1, &WTYPE_BIGINT_NN)};
    open_calls(&f, false, true, false, 3, c);
    feed(&f, "a,1,0,1\na,2,0,2\na,3,0,2\nWM,2\na,4,0,4\nWM,5\n");
    CHECK_STR(f.cap->text.buf,
              "+I[a, 1, 0, 1970-01-01T00:00:01, 1, 1, 1]\n"
              "+I[a, 2, 0, 1970-01-01T00:00:02, 2, 3, 2]\n"
              "+I[a, 3, 0, 1970-01-01T00:00:02, 2, 3, 2]\n"
              "+I[a, 4, 0, 1970-01-01T00:00:04, 4, 4, 3]\n");
    close_calls(&f);
}

/* Processing time: emitted at once; the (NULL in Flink) order keys never make peers. */
WTEST(over_calls_proctime)
{
    CFix f;
    WOverCall c[2] = {xcall(WOF_RANK, -1, 0, -1, &WTYPE_BIGINT_NN), xcall(WOF_LAG, 1, 1, 2, &WTYPE_BIGINT)};
    open_calls(&f, false, true, true, 2, c);
    feed(&f, "a,1,-1,1\na,2,-2,1\nb,3,-3,1\n");
    CHECK_STR(f.cap->text.buf,
              "+I[a, 1, -1, 1970-01-01T00:00:01, 1, -1]\n"
              "+I[a, 2, -2, 1970-01-01T00:00:01, 2, 1]\n"
              "+I[b, 3, -3, 1970-01-01T00:00:01, 1, -3]\n");
    close_calls(&f);
}

WTEST(over_calls_errors)
{
    CFix f;
    WOverCall lag = xcall(WOF_LAG, 1, 1, -1, &WTYPE_BIGINT);
    open_calls(&f, true, false, false, 1, &lag);
    CHECK(f.env.err.set);
    CHECK_STR(f.env.err.msg, "LAG Function with retraction is not supported in stream mode.");
    close_calls(&f);

    WOverCall lead = xcall(WOF_LEAD, 1, 1, -1, &WTYPE_BIGINT);
    open_calls(&f, false, true, false, 1, &lead);
    CHECK(f.env.err.set);
    CHECK_STR(f.env.err.msg, "LEAD Function is not supported in stream mode.");
    close_calls(&f);

    WOverCall neg = xcall(WOF_LAG, 1, -1, -1, &WTYPE_BIGINT);
    open_calls(&f, false, true, true, 1, &neg);
    feed(&f, "a,1,0,1\n");
    CHECK(f.env.err.set);
    CHECK_STR(f.env.err.msg, "Offset(-1) should be positive.");
    close_calls(&f);
}
