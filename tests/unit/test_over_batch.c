/* test_over_batch.c — the batch OverAggregate: frame arithmetic (exec/over_frame.c: ROWS and
   RANGE bounds, peers, NULL keys, DESC keys, empty frames, NTILE buckets) and the operator
   (exec/over_batch.c) end to end with retractions, partitions, ranking functions, LAG / LEAD
   and aggregates over sliding and growing frames. */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/over_batch.h"

#include <stdlib.h>
#include <string.h>

static WOverWindow frame(bool rows, WOverBoundKind lk, double lo, WOverBoundKind uk, double hi)
{
    WOverWindow w;
    memset(&w, 0, sizeof w);
    w.rows = rows;
    w.lower.kind = lk;
    w.lower.offset = lo;
    w.upper.kind = uk;
    w.upper.offset = hi;
    return w;
}

/* keys 1, 2, 2, 4, 7 (peers: rows 1 and 2) */
static const int64_t PLO[5] = {0, 1, 1, 3, 4}, PHI[5] = {0, 2, 2, 3, 4};
static const double KEY[5] = {1, 2, 2, 4, 7};

static void bounds_(int *wtest_failed_, const WOverWindow *w, const WOverPart *p, int64_t i, int64_t want_lo,
                    int64_t want_hi)
{
    int64_t lo, hi;
    bool any = wover_frame(w, p, i, &lo, &hi);
    if (want_lo > want_hi) {
        CHECK(!any);
        return;
    }
    CHECK(any);
    CHECK_INT(lo, want_lo);
    CHECK_INT(hi, want_hi);
}
#define bounds(...) bounds_(wtest_failed_, __VA_ARGS__)

WTEST(over_frame_rows)
{
    WOverPart p = {.n = 5, .peer_lo = PLO, .peer_hi = PHI};
    WOverWindow w = frame(true, WOB_PRECEDING, 1, WOB_CURRENT_ROW, 0);
    bounds(&w, &p, 0, 0, 0);
    bounds(&w, &p, 3, 2, 3);
    w = frame(true, WOB_UNBOUNDED_PRECEDING, 0, WOB_CURRENT_ROW, 0);
    bounds(&w, &p, 2, 0, 2);                        /* ROWS ignores peers */
    w = frame(true, WOB_CURRENT_ROW, 0, WOB_UNBOUNDED_FOLLOWING, 0);
    bounds(&w, &p, 3, 3, 4);
    w = frame(true, WOB_FOLLOWING, 1, WOB_FOLLOWING, 2);
    bounds(&w, &p, 2, 3, 4);
    bounds(&w, &p, 3, 4, 4);
    bounds(&w, &p, 4, 1, 0);                        /* beyond the partition: empty */
    w = frame(true, WOB_PRECEDING, 3, WOB_PRECEDING, 2);
    bounds(&w, &p, 1, 1, 0);                        /* before the partition: empty */
    bounds(&w, &p, 4, 1, 2);
}

WTEST(over_frame_range_peers_and_offsets)
{
    WOverPart p = {.n = 5, .peer_lo = PLO, .peer_hi = PHI, .key = KEY};
    WOverWindow w = frame(false, WOB_UNBOUNDED_PRECEDING, 0, WOB_CURRENT_ROW, 0);
    bounds(&w, &p, 1, 0, 2);                        /* the peer that follows is in the frame */
    w = frame(false, WOB_CURRENT_ROW, 0, WOB_UNBOUNDED_FOLLOWING, 0);
    bounds(&w, &p, 2, 1, 4);
    w = frame(false, WOB_PRECEDING, 1, WOB_FOLLOWING, 2);
    bounds(&w, &p, 1, 0, 3);                        /* keys within [1, 4] */
    bounds(&w, &p, 4, 4, 4);                        /* [6, 9] */
    w = frame(false, WOB_PRECEDING, 3, WOB_PRECEDING, 2);
    bounds(&w, &p, 3, 0, 2);                        /* [1, 2] */
    bounds(&w, &p, 0, 1, 0);                        /* [-2, -1]: empty */
    w = frame(false, WOB_PRECEDING, -1, WOB_FOLLOWING, 1);
    bounds(&w, &p, 1, 3, 1);                        /* [3, 3]: none, and empty lo > hi */
    w = frame(false, WOB_UNBOUNDED_PRECEDING, 0, WOB_UNBOUNDED_FOLLOWING, 0);
    bounds(&w, &p, 3, 0, 4);
}

WTEST(over_frame_range_nulls_and_desc)
{
    /* DESC keys 7, 4, NULL, NULL (NULLS LAST) stored negated: -7, -4 */
    static const int64_t lo[4] = {0, 1, 2, 2}, hi[4] = {0, 1, 3, 3};
    static const double key[4] = {-7, -4, 0, 0};
    static const uint8_t nul[4] = {0, 0, 1, 1};
    WOverPart p = {.n = 4, .peer_lo = lo, .peer_hi = hi, .key = key, .key_null = nul};
    WOverWindow w = frame(false, WOB_PRECEDING, 3, WOB_CURRENT_ROW, 0);
    bounds(&w, &p, 1, 0, 1);                        /* 4 DESC: values 7 .. 4 */
    bounds(&w, &p, 0, 0, 0);
    bounds(&w, &p, 2, 2, 3);                        /* a NULL key frames its NULL peers */
    w = frame(false, WOB_CURRENT_ROW, 0, WOB_FOLLOWING, 100);
    bounds(&w, &p, 0, 0, 1);                        /* NULL keys are never within an offset */
    w = frame(false, WOB_UNBOUNDED_PRECEDING, 0, WOB_CURRENT_ROW, 0);
    bounds(&w, &p, 3, 0, 3);
}

WTEST(over_ntile_buckets)
{
    /* 5 rows in 3 buckets: 2, 2, 1 */
    int64_t want[5] = {1, 1, 2, 2, 3};
    for (int i = 0; i < 5; i++) CHECK_INT(wover_ntile(5, 3, i), want[i]);
    /* more buckets than rows: one row each */
    for (int i = 0; i < 3; i++) CHECK_INT(wover_ntile(3, 8, i), i + 1);
    CHECK_INT(wover_ntile(4, 1, 3), 1);
}

/* ---- the operator ---- */

static const WType *IN_T[3] = {&WTYPE_STRING, &WTYPE_INT, &WTYPE_INT};       /* k, v, seq */

static WChunk *rows_of(TestEnv *e, const char *text)
{
    const char *kinds[32];
    const char *cells[96];
    static char buf[2048];
    snprintf(buf, sizeof buf, "%s", text);
    int n = 0;
    for (char *line = strtok(buf, "\n"); line && n < 32; line = strtok(NULL, "\n")) {
        char *save = NULL;
        kinds[n] = strtok_r(line, ",", &save);
        for (int c = 0; c < 3; c++) cells[n * 3 + c] = strtok_r(NULL, ",", &save);
        n++;
    }
    return chunk_from_text(e, 3, IN_T, n, kinds, cells);
}

WTEST(over_batch_operator_partitions_ranks_lag_and_frames)
{
    TestEnv e;
    test_env_init(&e);
    WArena a;
    warena_init(&a, 0);
    /* window#0: RANK, LAG(seq, 1, v) over RANGE UNBOUNDED PRECEDING .. CURRENT ROW;
       window#1: SUM(v) over ROWS 1 PRECEDING .. CURRENT ROW */
    WOverCall c0[2];
    memset(c0, 0, sizeof c0);
    c0[0] = (WOverCall){.fn = WOF_RANK, .arg = -1, .default_col = -1, .type = &WTYPE_BIGINT_NN, .name = "w0$o0"};
    c0[1] = (WOverCall){.fn = WOF_LAG, .arg = 2, .n = 1, .default_col = 1, .type = &WTYPE_INT, .name = "w0$o1"};
    WOverCall c1[1];
    memset(c1, 0, sizeof c1);
    c1[0].fn = WOF_AGG;
    c1[0].agg = (WAggCall){.kind = WAGG_SUM, .name = "SUM", .nargs = 1, .args = {1, 0}, .filter_col = -1,
                           .type = &WTYPE_INT, .out_name = "w1$o0"};
    c1[0].arg = c1[0].default_col = -1;
    c1[0].type = &WTYPE_INT;
    c1[0].name = "w1$o0";
    WOverWindow w[2];
    w[0] = frame(false, WOB_UNBOUNDED_PRECEDING, 0, WOB_CURRENT_ROW, 0);
    w[0].ncalls = 2;
    w[0].calls = c0;
    w[1] = frame(true, WOB_PRECEDING, 1, WOB_CURRENT_ROW, 0);
    w[1].ncalls = 1;
    w[1].calls = c1;
    WOverSpec ov = {.nwindows = 2, .windows = w};
    int keys[1] = {0};
    WSortKeySpec sort[1] = {{1, false, true}};
    const WType *out_t[6] = {&WTYPE_STRING, &WTYPE_INT, &WTYPE_INT, &WTYPE_BIGINT_NN, &WTYPE_INT, &WTYPE_INT};
    WOverBatchSpec sp = {.in_ncols = 3, .in_types = IN_T, .nkeys = 1, .keys = keys, .nsort = 1, .sort = sort,
                         .over = &ov, .out = {6, out_t, NULL}};
    WOperator *op = wop_over_batch_new(&e.ctx, &sp);
    CHECK(!e.err.set);
    Capture *cap = capture_new(&e, 6, out_t);
    wop_connect(op, &cap->base, 0);
    WChunk *c = rows_of(&e, "+I,b,5,1\n+I,a,3,2\n+I,a,1,3\n+I,a,3,4\n+I,b,9,5\n-D,b,9,5\n+I,a,null,6\n-U,a,1,3\n+U,a,2,7");
    wop_push(op, 0, c);
    wchunk_free(c);
    CHECK_INT(cap->rows, 0);
    wop_input_end(op, 0);
    /* partition a sorted by v ASC NULLS FIRST: null(6), 2(7), 3(2), 3(4) */
    CHECK_STR(cap->text.buf,
              "+I[a, null, 6, 1, null, null]\n"
              "+I[a, 2, 7, 2, 6, 2]\n"
              "+I[a, 3, 2, 3, 7, 5]\n"
              "+I[a, 3, 4, 3, 2, 6]\n"
              "+I[b, 5, 1, 1, 5, 5]\n");
    CHECK(cap->ended);
    wop_free(op);
    capture_free(cap);
    warena_free(&a);
}

WTEST(over_batch_operator_rejects_bad_columns)
{
    TestEnv e;
    test_env_init(&e);
    WOverCall c = {.fn = WOF_LAG, .arg = 9, .n = 1, .default_col = -1, .type = &WTYPE_INT, .name = "w0$o0"};
    WOverWindow w = frame(false, WOB_UNBOUNDED_PRECEDING, 0, WOB_CURRENT_ROW, 0);
    w.ncalls = 1;
    w.calls = &c;
    WOverSpec ov = {.nwindows = 1, .windows = &w};
    WOverBatchSpec sp = {.in_ncols = 3, .in_types = IN_T, .over = &ov};
    WOperator *op = wop_over_batch_new(&e.ctx, &sp);
    CHECK(e.err.set);
    wop_free(op);
}
