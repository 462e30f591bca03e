/* test_minibatch.c — mini-batch (exec/minibatch.c): the MiniBatchAssigner's boundaries in ProcTime
   (interval starts, timer tick, upstream watermarks dropped but the last) and RowTime mode
   (watermarks forwarded at interval ends), and the bundles: a GroupAggregate emits once per key and
   batch (+I, -U/+U, -D, unchanged results), the size trigger, a watermark or the end of input close
   a batch, and the proctime Deduplicate keeps the last / first row of a key per batch. */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/stateful.h"
#include "../../src/exec/minibatch.h"

#include <stdlib.h>
#include <string.h>

static const WType *KV_T[2] = {&WTYPE_STRING, &WTYPE_BIGINT};
static const char *KV_N[2] = {"k", "v"};

WTEST(minibatch_proctime_assigner_boundaries)
{
    TestEnv e;
    test_env_init(&e);
    e.now = 12345;
    WOperator *a = wop_minibatch_assigner_new(&e.ctx, 1000, false, 2, KV_T, KV_N);
    Capture *cap = capture_new(&e, 2, KV_T);
    wop_connect(a, &cap->base, 0);
    cap->last_wm = WWM_MIN;
    push_text_rows(&e, a, 2, KV_T, "+I,a,1\n");
    CHECK_INT(cap->last_wm, 12000);         /* the start of the interval, before the rows */
    CHECK_INT(cap->rows, 1);
    e.now = 12999;
    push_text_rows(&e, a, 2, KV_T, "+I,a,2\n");
    a->ops->tick(a);
    CHECK_INT(cap->last_wm, 12000);         /* same interval: no boundary */
    e.now = 13001;
    a->ops->tick(a);                        /* the timer: no rows needed */
    CHECK_INT(cap->last_wm, 13000);
    wop_input_watermark(a, 0, 999999);      /* event-time watermarks are dropped ... */
    CHECK_INT(cap->last_wm, 13000);
    wop_input_watermark(a, 0, WWM_MAX);     /* ... but the final one */
    CHECK(cap->last_wm == WWM_MAX);
    wop_free(a);
    capture_free(cap);
}

WTEST(minibatch_rowtime_assigner_filters_watermarks)
{
    TestEnv e;
    test_env_init(&e);
    WOperator *a = wop_minibatch_assigner_new(&e.ctx, 1000, true, 2, KV_T, KV_N);
    Capture *cap = capture_new(&e, 2, KV_T);
    wop_connect(a, &cap->base, 0);
    cap->last_wm = WWM_MIN;
    wop_input_watermark(a, 0, 500);
    CHECK(cap->last_wm == WWM_MIN);         /* before the end of [0, 1000) */
    wop_input_watermark(a, 0, 999);
    CHECK_INT(cap->last_wm, 999);
    wop_input_watermark(a, 0, 1500);
    CHECK_INT(cap->last_wm, 999);
    wop_input_watermark(a, 0, 2100);        /* past the end of [1000, 2000) */
    CHECK_INT(cap->last_wm, 2100);
    wop_input_watermark(a, 0, 2998);
    CHECK_INT(cap->last_wm, 2100);
    wop_input_watermark(a, 0, WWM_MAX);
    CHECK(cap->last_wm == WWM_MAX);
    wop_free(a);
    capture_free(cap);
}

/* GROUP BY k: COUNT(*), SUM(v) with a bundle of `size` rows (-U with update-before). */
typedef struct Agg {
    TestEnv env;
    WOperator *op;
    Capture *cap;
    WAggCall aggs[2];
    const WType *out_t[3];
    const char *out_n[3];
} Agg;

static void agg_open(Agg *g, int64_t size, bool retracts, int64_t ttl)
{
    memset(g, 0, sizeof *g);
    test_env_init(&g->env);
    static const int keys[1] = {0};
    for (int i = 0; i < 2; i++) {
        WAggCall *c = &g->aggs[i];
        c->kind = i ? WAGG_SUM : WAGG_COUNT_STAR;
        c->name = i ? "SUM" : "COUNT";
        c->nargs = i ? 1 : 0;
        c->args[0] = 1;
        c->filter_col = -1;
        c->type = &WTYPE_BIGINT;
    }
    g->out_t[0] = &WTYPE_STRING, g->out_t[1] = &WTYPE_BIGINT_NN, g->out_t[2] = &WTYPE_BIGINT;
    g->out_n[0] = "k", g->out_n[1] = "c", g->out_n[2] = "s";
    WGroupAggSpec s = {.in_ncols = 2, .in_types = KV_T, .nkeys = 1, .keys = keys, .naggs = 2, .aggs = g->aggs,
                       .input_retracts = retracts, .generate_update_before = true, .ttl_ms = ttl,
                       .state_name = "groupAggregateState", .out = {3, g->out_t, g->out_n}};
    g->op = wop_group_agg_new(&g->env.ctx, &s);
    WMiniBatchSpec mb = {.mode = WMB_COMPACT, .size = size, .nkeys = 1, .keys = keys, .nout_keys = 1,
                         .generate_update_before = true, .emit_unchanged = ttl > 0};
    wop_minibatch_enable(g->op, &mb);
    g->cap = capture_new(&g->env, 3, g->out_t);
    wop_connect(g->op, &g->cap->base, 0);
}

static void agg_close(Agg *g)
{
    wop_free(g->op);
    capture_free(g->cap);
}

WTEST(minibatch_group_agg_once_per_key_and_batch)
{
    Agg g;
    agg_open(&g, 1000, true, 0);
    push_text_rows(&g.env, g.op, 2, KV_T, "+I,a,1\n+I,a,2\n");
    push_text_rows(&g.env, g.op, 2, KV_T, "+I,a,3\n");
    CHECK_STR(g.cap->text.buf, "");         /* held until the boundary */
    wop_input_watermark(g.op, 0, 100);
    CHECK_STR(g.cap->text.buf, "+I[a, 3, 6]\n");   /* three rows, one +I */
    CHECK_INT(g.cap->last_wm, 100);
    capture_clear(g.cap);
    /* a changed key: -U(before the batch) +U(after it); a key whose rows cancel: nothing */
    push_text_rows(&g.env, g.op, 2, KV_T, "+I,a,4\n+I,a,5\n+I,b,7\n-D,b,7\n");
    wop_input_watermark(g.op, 0, 200);
    CHECK_STR(g.cap->text.buf, "-U[a, 3, 6]\n+U[a, 5, 15]\n");
    capture_clear(g.cap);
    /* an update that leaves the result as it was emits nothing (no TTL) */
    push_text_rows(&g.env, g.op, 2, KV_T, "-U,a,5\n+U,a,5\n");
    wop_input_watermark(g.op, 0, 300);
    CHECK_STR(g.cap->text.buf, "");
    /* every row retracted: -D of the result before the batch */
    push_text_rows(&g.env, g.op, 2, KV_T, "-D,a,1\n-D,a,2\n-D,a,3\n-D,a,4\n-D,a,5\n");
    wop_input_end(g.op, 0);
    CHECK_STR(g.cap->text.buf, "-D[a, 5, 15]\n");
    CHECK(g.cap->ended);
    CHECK(!g.env.err.set);
    agg_close(&g);
}

WTEST(minibatch_group_agg_size_and_ttl)
{
    Agg g;
    agg_open(&g, 2, false, 60000);
    /* batches of two rows (CountBundleTrigger), also inside one chunk */
    push_text_rows(&g.env, g.op, 2, KV_T, "+I,a,1\n+I,a,2\n+I,a,3\n");
    CHECK_STR(g.cap->text.buf, "+I[a, 2, 3]\n");
    push_text_rows(&g.env, g.op, 2, KV_T, "+I,b,1\n");
    /* keys leave a batch in the order of Flink's bundle HashMap: 'b' before 'a' */
    CHECK_STR(g.cap->text.buf, "+I[a, 2, 3]\n+I[b, 1, 1]\n-U[a, 2, 3]\n+U[a, 3, 6]\n");
    capture_clear(g.cap);
    /* with state TTL an unchanged result is emitted again */
    push_text_rows(&g.env, g.op, 2, KV_T, "+I,a,0\n");
    wop_minibatch_flush(g.op);
    CHECK_STR(g.cap->text.buf, "-U[a, 3, 6]\n+U[a, 4, 6]\n");
    agg_close(&g);
}

static const WType *ORDER_T[3] = {&WTYPE_BIGINT, &WTYPE_STRING, &WTYPE_BIGINT};
static const int PRODUCT_KEY[1] = {1};

static void dedup_run(int *wtest_failed_, bool keep_last, const char *want)
{
    TestEnv e;
    test_env_init(&e);
    WDedupSpec s = {.in_ncols = 3, .in_types = ORDER_T, .nkeys = 1, .keys = PRODUCT_KEY,
                    .keep_last = keep_last, .generate_update_before = true,
                    .generate_insert_only = !keep_last, .out = {3, ORDER_T, NULL}};
    WOperator *op = wop_dedup_new(&e.ctx, &s);
    WMiniBatchSpec mb = {.mode = keep_last ? WMB_LAST_PER_KEY : WMB_FIRST_PER_KEY, .size = 100, .nkeys = 1,
                         .keys = PRODUCT_KEY};
    wop_minibatch_enable(op, &mb);
    Capture *cap = capture_new(&e, 3, ORDER_T);
    wop_connect(op, &cap->base, 0);
    push_text_rows(&e, op, 3, ORDER_T, "+I,1,pen,10\n+I,2,pen,20\n+I,3,ink,5\n+I,4,pen,30\n");
    wop_input_watermark(op, 0, 1);
    push_text_rows(&e, op, 3, ORDER_T, "+I,5,ink,6\n+I,6,ink,7\n");
    wop_input_end(op, 0);
    CHECK_STR(cap->text.buf, want);
    CHECK(!e.err.set);
    wop_free(op);
    capture_free(cap);
}

WTEST(minibatch_dedup_keeps_last_or_first_row_per_batch)
{
    /* keys in the order of Flink's bundle HashMap: 'ink' before 'pen' */
    dedup_run(wtest_failed_, true, "+I[3, ink, 5]\n+I[4, pen, 30]\n-U[3, ink, 5]\n+U[6, ink, 7]\n");
    dedup_run(wtest_failed_, false, "+I[3, ink, 5]\n+I[1, pen, 10]\n");
}
