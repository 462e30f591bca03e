/*
 * test_group_agg.c — GroupAggregate (exec/group_agg.c, exec/accumulators.c): exact changelogs
 * for Flink's GroupAggFunction emission rules, every aggregate kind with and without
 * retraction, DISTINCT/FILTER, TTL expiry, unknown retractions, the fast path, and the
 * conformance cases group-aggregate__*, rw-derived__rw-null-after-retraction-* and the
 * streaming changelog of sql-client select.q, translated by hand.
 */
#include "unit.h"
#include "op_harness.h"
#include "../../src/exec/stateful.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ harness */

typedef struct GA {
    TestEnv env;
    WArena arena;
    WOperator *op;
    Capture *cap;
    int in_ncols;
    const WType *in_types[16];
    const WType *out_types[24];
    const char *out_names[24];
    int keys[8];
    WAggCall aggs[16];
    int naggs;
} GA;

static WAggCall call(WAggKind kind, int arg, const WType *type)
{
    WAggCall c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.name = "AGG";
    c.nargs = arg >= 0 ? 1 : 0;
    c.args[0] = arg;
    c.filter_col = -1;
    c.type = type;
    return c;
}

static WAggCall dcall(WAggKind kind, int arg, const WType *type)
{
    WAggCall c = call(kind, arg, type);
    c.distinct = true;
    return c;
}

static WAggCall fcall(WAggCall c, int filter_col)
{
    c.filter_col = filter_col;
    return c;
}

/* Build the operator; in_types/keys/aggs must be set in g before. */
static bool ga_open(GA *g, int nkeys, bool retracts, bool gub, int64_t ttl)
{
    WGroupAggSpec s;
    memset(&s, 0, sizeof s);
    s.in_ncols = g->in_ncols;
    s.in_types = g->in_types;
    s.nkeys = nkeys;
    s.keys = g->keys;
    s.naggs = g->naggs;
    s.aggs = g->aggs;
    s.input_retracts = retracts;
    s.generate_update_before = gub;
    s.ttl_ms = ttl;
    s.state_name = "groupAggregateState";
    for (int k = 0; k < nkeys; k++) {
        g->out_types[k] = g->in_types[g->keys[k]];
        g->out_names[k] = "k";
    }
    for (int a = 0; a < g->naggs; a++) {
        g->out_types[nkeys + a] = g->aggs[a].type;
        g->out_names[nkeys + a] = "a";
    }
    s.out.ncols = nkeys + g->naggs;
    s.out.types = g->out_types;
    s.out.names = g->out_names;
    g->op = wop_group_agg_new(&g->env.ctx, &s);
    if (!g->op) return false;
    g->cap = capture_new(&g->env, s.out.ncols, g->out_types);
    wop_connect(g->op, &g->cap->base, 0);
    return true;
}

static void ga_init(GA *g)
{
    memset(g, 0, sizeof *g);
    test_env_init(&g->env);
    warena_init(&g->arena, 0);
}

static void ga_close(GA *g)
{
    if (g->op) wop_free(g->op);
    if (g->cap) capture_free(g->cap);
    warena_free(&g->arena);
}

/* Push rows "K,v1,v2,..." (K = +I/-U/+U/-D; "null" = NULL) as one chunk. */
static void ga_push(GA *g, int nrows, const char *const *rows)
{
    const char **kinds = calloc((size_t)nrows, sizeof(char *));
    const char **cells = calloc((size_t)nrows * (size_t)g->in_ncols, sizeof(char *));
    char **copies = calloc((size_t)nrows, sizeof(char *));
    for (int r = 0; r < nrows; r++) {
        copies[r] = strdup(rows[r]);
        char *save = NULL, *tok = strtok_r(copies[r], ",", &save);
        kinds[r] = tok;
        for (int c = 0; c < g->in_ncols; c++) {
            tok = strtok_r(NULL, ",", &save);
            cells[r * g->in_ncols + c] = tok;
        }
    }
    WChunk *ch = chunk_from_text(&g->env, g->in_ncols, g->in_types, nrows, kinds, cells);
    wop_push(g->op, 0, ch);
    wchunk_free(ch);
    for (int r = 0; r < nrows; r++) free(copies[r]);
    free(copies);
    free(kinds);
    free(cells);
}

/* Push each row as its own chunk (record-at-a-time, like Flink). */
static void ga_push_each(GA *g, int nrows, const char *const *rows)
{
    for (int r = 0; r < nrows; r++) ga_push(g, 1, &rows[r]);
}

#define PUSH(g, ...) do { static const char *const rows_[] = {__VA_ARGS__}; \
    ga_push((g), (int)(sizeof rows_ / sizeof rows_[0]), rows_); } while (0)
#define PUSH_EACH(g, ...) do { static const char *const rows_[] = {__VA_ARGS__}; \
    ga_push_each((g), (int)(sizeof rows_ / sizeof rows_[0]), rows_); } while (0)

static const char *out_text(GA *g) { return g->cap->text.buf ? g->cap->text.buf : ""; }

static const char *metrics(GA *g, char *buf, size_t n)
{
    buf[0] = 0;
    g->op->ops->metrics(g->op, buf, n);
    return buf;
}

/* ------------------------------------------------------------------ conformance: group-aggregate */

/* group-aggregate-simple: SELECT b, COUNT(*), AVG(a) FILTER (WHERE a > 1), MIN(c) FROM t GROUP BY b
   (upsert sink: no -U). Input columns: a INT, b BIGINT, c STRING, f BOOLEAN (= a > 1). */
static void setup_simple(GA *g)
{
    g->in_ncols = 4;
    g->in_types[0] = &WTYPE_INT;
    g->in_types[1] = &WTYPE_BIGINT;
    g->in_types[2] = &WTYPE_STRING;
    g->in_types[3] = &WTYPE_BOOLEAN;
    g->keys[0] = 1;
    g->aggs[0] = call(WAGG_COUNT_STAR, -1, &WTYPE_BIGINT_NN);
    g->aggs[1] = fcall(call(WAGG_AVG, 0, &WTYPE_INT), 3);
    g->aggs[2] = call(WAGG_MIN, 2, &WTYPE_STRING);
    g->naggs = 3;
}

WTEST(ga_conf_simple)
{
    GA g;
    ga_init(&g);
    setup_simple(&g);
    CHECK(ga_open(&g, 1, false, false, 0));
    PUSH_EACH(&g, "+I,1,1,Hi,false", "+I,2,2,Hello,true", "+I,2,2,Hello World,true");
    CHECK_STR(out_text(&g), "+I[1, 1, null, Hi]\n+I[2, 1, 2, Hello]\n+U[2, 2, 2, Hello]\n");
    capture_clear(g.cap);
    PUSH_EACH(&g, "+I,1,1,Hi Again!,false", "+I,2,2,Hello Again!,true", "+I,2,2,Hello World Again!,true");
    CHECK_STR(out_text(&g), "+U[1, 2, null, Hi]\n+U[2, 3, 2, Hello]\n+U[2, 4, 2, Hello]\n");
    ga_close(&g);
}

/* Same, all rows of a phase in one chunk: the per-chunk grouping must not change the changelog. */
WTEST(ga_conf_simple_one_chunk)
{
    GA g;
    ga_init(&g);
    setup_simple(&g);
    CHECK(ga_open(&g, 1, false, false, 0));
    PUSH(&g, "+I,1,1,Hi,false", "+I,2,2,Hello,true", "+I,2,2,Hello World,true",
         "+I,1,1,Hi Again!,false", "+I,2,2,Hello Again!,true", "+I,2,2,Hello World Again!,true");
    CHECK_STR(out_text(&g), "+I[1, 1, null, Hi]\n+I[2, 1, 2, Hello]\n+U[2, 2, 2, Hello]\n"
                            "+U[1, 2, null, Hi]\n+U[2, 3, 2, Hello]\n+U[2, 4, 2, Hello]\n");
    ga_close(&g);
}

/* agg-with-state-ttl-hint: TTL 1 s, the clock passes it between the phases: keys start over. */
WTEST(ga_conf_state_ttl_hint)
{
    GA g;
    ga_init(&g);
    setup_simple(&g);
    CHECK(ga_open(&g, 1, false, false, 1000));
    PUSH_EACH(&g, "+I,1,1,Hi,false", "+I,2,2,Hello,true", "+I,2,2,Hello World,true");
    CHECK_STR(out_text(&g), "+I[1, 1, null, Hi]\n+I[2, 1, 2, Hello]\n+U[2, 2, 2, Hello]\n");
    capture_clear(g.cap);
    g.env.now += 1500;
    PUSH_EACH(&g, "+I,1,1,Hi Again!,false", "+I,2,2,Hello Again!,true", "+I,2,2,Hello World Again!,true");
    CHECK_STR(out_text(&g), "+I[1, 1, null, Hi Again!]\n+I[2, 1, 2, Hello Again!]\n+U[2, 2, 2, Hello Again!]\n");
    char buf[512];
    CHECK(strstr(metrics(&g, buf, sizeof buf), "ttlExpiredRecords=2") != NULL);
    CHECK(strstr(buf, "groupAggregateState.entries=2") != NULL);
    ga_close(&g);
}

/* group-aggregate-distinct: SELECT e, COUNT(DISTINCT a) FILTER (WHERE b > 10), COUNT(DISTINCT a),
   SUM(DISTINCT a), SUM(DISTINCT b), AVG(b), COUNT(DISTINCT d) GROUP BY e.
   Columns: a INT, b BIGINT, c INT, d STRING, e BIGINT, f BOOLEAN (= b > 10). AVG(b) is BIGINT. */
WTEST(ga_conf_distinct)
{
    GA g;
    ga_init(&g);
    g.in_ncols = 6;
    g.in_types[0] = &WTYPE_INT;
    g.in_types[1] = &WTYPE_BIGINT;
    g.in_types[2] = &WTYPE_INT;
    g.in_types[3] = &WTYPE_STRING;
    g.in_types[4] = &WTYPE_BIGINT;
    g.in_types[5] = &WTYPE_BOOLEAN;
    g.keys[0] = 4;
    g.aggs[0] = fcall(dcall(WAGG_COUNT, 0, &WTYPE_BIGINT_NN), 5);
    g.aggs[1] = dcall(WAGG_COUNT, 0, &WTYPE_BIGINT_NN);
    g.aggs[2] = dcall(WAGG_SUM, 0, &WTYPE_INT);
    g.aggs[3] = dcall(WAGG_SUM, 1, &WTYPE_BIGINT);
    g.aggs[4] = call(WAGG_AVG, 1, &WTYPE_BIGINT);
    g.aggs[5] = dcall(WAGG_COUNT, 3, &WTYPE_BIGINT_NN);
    g.naggs = 6;
    CHECK(ga_open(&g, 1, false, false, 0));
    PUSH_EACH(&g, "+I,2,3,2,Hello World Like,1,false", "+I,3,4,3,Hello World Its nice,2,false",
              "+I,2,2,1,Hello World,2,false", "+I,1,1,0,Hello,1,false", "+I,5,11,10,GHI,1,true",
              "+I,3,5,4,ABC,2,false", "+I,4,10,9,FGH,2,false", "+I,4,7,6,CDE,2,false",
              "+I,5,14,13,JKL,2,true", "+I,4,9,8,EFG,1,false", "+I,5,15,14,KLM,2,true",
              "+I,5,12,11,HIJ,3,true", "+I,4,8,7,DEF,1,false", "+I,5,13,12,IJK,3,true",
              "+I,3,6,5,BCD,3,false");
    CHECK_STR(out_text(&g),
              "+I[1, 0, 1, 2, 3, 3, 1]\n"
              "+I[2, 0, 1, 3, 4, 4, 1]\n"
              "+U[2, 0, 2, 5, 6, 3, 2]\n"
              "+U[1, 0, 2, 3, 4, 2, 2]\n"
              "+U[1, 1, 3, 8, 15, 5, 3]\n"
              "+U[2, 0, 2, 5, 11, 3, 3]\n"
              "+U[2, 0, 3, 9, 21, 5, 4]\n"
              "+U[2, 0, 3, 9, 28, 5, 5]\n"
              "+U[2, 1, 4, 14, 42, 7, 6]\n"
              "+U[1, 1, 4, 12, 24, 6, 4]\n"
              "+U[2, 1, 4, 14, 57, 8, 7]\n"
              "+I[3, 1, 1, 5, 12, 12, 1]\n"
              "+U[1, 1, 4, 12, 32, 6, 5]\n"
              "+U[3, 1, 1, 5, 25, 12, 2]\n"
              "+U[3, 1, 2, 8, 31, 10, 3]\n");
    capture_clear(g.cap);
    PUSH_EACH(&g, "+I,1,1,0,Hello,1,false", "+I,3,5,4,ABC,2,false", "+I,4,10,9,FGH,2,false",
              "+I,4,7,6,CDE,2,false", "+I,7,7,7,MNO,7,false", "+I,3,6,5,BCD,3,false",
              "+I,7,7,7,XYZ,7,false");
    CHECK_STR(out_text(&g),
              "+U[1, 1, 4, 12, 32, 5, 5]\n"
              "+U[2, 1, 4, 14, 57, 7, 7]\n"
              "+U[2, 1, 4, 14, 57, 8, 7]\n"
              "+U[2, 1, 4, 14, 57, 7, 7]\n"
              "+I[7, 0, 1, 7, 7, 7, 1]\n"
              "+U[3, 1, 2, 8, 31, 9, 3]\n"
              "+U[7, 0, 1, 7, 7, 7, 2]\n");
    ga_close(&g);
}

/* incremental-group-aggregate-simple (non-mini-batch): SELECT b, COUNT(DISTINCT a) GROUP BY b,
   retract sink. A row that does not change the distinct count emits nothing. */
WTEST(ga_conf_incremental_simple)
{
    GA g;
    ga_init(&g);
    g.in_ncols = 3;
    g.in_types[0] = &WTYPE_INT;
    g.in_types[1] = &WTYPE_BIGINT;
    g.in_types[2] = &WTYPE_STRING;
    g.keys[0] = 1;
    g.aggs[0] = dcall(WAGG_COUNT, 0, &WTYPE_BIGINT_NN);
    g.naggs = 1;
    CHECK(ga_open(&g, 1, false, true, 0));
    PUSH_EACH(&g, "+I,1,1,hi", "+I,2,2,hello", "+I,3,2,hello world");
    CHECK_STR(out_text(&g), "+I[1, 1]\n+I[2, 1]\n-U[2, 1]\n+U[2, 2]\n");
    capture_clear(g.cap);
    PUSH_EACH(&g, "+I,3,2,foo", "+I,4,4,bar", "+I,5,2,foo bar");
    CHECK_STR(out_text(&g), "+I[4, 1]\n-U[2, 2]\n+U[2, 3]\n");
    ga_close(&g);
}

/* incremental-group-aggregate-complex (non-mini-batch): two chained aggregates,
   inner: SELECT a, COUNT(b) AS b, MAX(b) AS b1 GROUP BY a (insert-only input, retract output)
   outer: SELECT b, SUM(b1), COUNT(DISTINCT b1), COUNT(1) GROUP BY b (retracting input). */
WTEST(ga_conf_incremental_complex)
{
    TestEnv env;
    test_env_init(&env);
    const WType *in_types[3] = {&WTYPE_INT, &WTYPE_BIGINT, &WTYPE_STRING};
    int ikeys[1] = {0};
    WAggCall iaggs[2] = {call(WAGG_COUNT, 1, &WTYPE_BIGINT_NN), call(WAGG_MAX, 1, &WTYPE_BIGINT)};
    const WType *mid_types[3] = {&WTYPE_INT, &WTYPE_BIGINT_NN, &WTYPE_BIGINT};
    const char *mid_names[3] = {"a", "b", "b1"};
    WGroupAggSpec inner = {.in_ncols = 3, .in_types = in_types, .nkeys = 1, .keys = ikeys, .naggs = 2,
                           .aggs = iaggs, .input_retracts = false, .generate_update_before = true,
                           .state_name = "groupAggregateState", .out = {3, mid_types, mid_names}};
    int okeys[1] = {1};
    WAggCall oaggs[3] = {call(WAGG_SUM, 2, &WTYPE_BIGINT), dcall(WAGG_COUNT, 2, &WTYPE_BIGINT_NN),
                         call(WAGG_COUNT_STAR, -1, &WTYPE_BIGINT_NN)};
    const WType *out_types[4] = {&WTYPE_BIGINT_NN, &WTYPE_BIGINT, &WTYPE_BIGINT_NN, &WTYPE_BIGINT_NN};
    const char *out_names[4] = {"b", "sum_b", "cnt_distinct_b", "cnt_1"};
    WGroupAggSpec outer = {.in_ncols = 3, .in_types = mid_types, .nkeys = 1, .keys = okeys, .naggs = 3,
                           .aggs = oaggs, .input_retracts = true, .generate_update_before = true,
                           .state_name = "groupAggregateState", .out = {4, out_types, out_names}};
    WOperator *a = wop_group_agg_new(&env.ctx, &inner);
    WOperator *b = wop_group_agg_new(&env.ctx, &outer);
    CHECK(a && b);
    if (!a || !b) return;
    Capture *cap = capture_new(&env, 4, out_types);
    wop_connect(a, b, 0);
    wop_connect(b, &cap->base, 0);
    const char *rows[6][3] = {{"1", "1", "hi"}, {"2", "2", "hello"}, {"3", "2", "hello world"},
                              {"3", "2", "foo"}, {"4", "4", "bar"}, {"5", "2", "foo bar"}};
    for (int r = 0; r < 6; r++) {
        const char *kinds[1] = {"+I"};
        WChunk *c = chunk_from_text(&env, 3, in_types, 1, kinds, rows[r]);
        wop_push(a, 0, c);
        wchunk_free(c);
        if (r == 2) {
            CHECK_STR(cap->text.buf, "+I[1, 1, 1, 1]\n-U[1, 1, 1, 1]\n+U[1, 3, 2, 2]\n-U[1, 3, 2, 2]\n"
                                     "+U[1, 5, 2, 3]\n");
            capture_clear(cap);
        }
    }
    CHECK_STR(cap->text.buf, "-U[1, 5, 2, 3]\n+U[1, 3, 2, 2]\n+I[2, 2, 1, 1]\n-U[1, 3, 2, 2]\n"
                             "+U[1, 7, 3, 3]\n-U[1, 7, 3, 3]\n+U[1, 9, 3, 4]\n");
    wop_free(a);
    wop_free(b);
    capture_free(cap);
}

/* ------------------------------------------------------------------ conformance: rw-derived */

/* rw-null-after-retraction-group(-reinsert): SELECT g, SUM(v), SUM(v) FILTER (WHERE v > 1),
   SUM(DISTINCT v), COUNT(v) GROUP BY g over a retracting source. Columns: g INT, v INT, b BOOLEAN,
   f BOOLEAN (= v > 1). */
static void setup_rw_group(GA *g)
{
    g->in_ncols = 4;
    g->in_types[0] = &WTYPE_INT;
    g->in_types[1] = &WTYPE_INT;
    g->in_types[2] = &WTYPE_BOOLEAN;
    g->in_types[3] = &WTYPE_BOOLEAN;
    g->keys[0] = 0;
    g->aggs[0] = call(WAGG_SUM, 1, &WTYPE_INT);
    g->aggs[1] = fcall(call(WAGG_SUM, 1, &WTYPE_INT), 3);
    g->aggs[2] = dcall(WAGG_SUM, 1, &WTYPE_INT);
    g->aggs[3] = call(WAGG_COUNT, 1, &WTYPE_BIGINT_NN);
    g->naggs = 4;
}

WTEST(ga_conf_rw_null_after_retraction_group)
{
    GA g;
    ga_init(&g);
    setup_rw_group(&g);
    CHECK(ga_open(&g, 1, true, false, 0));
    PUSH_EACH(&g, "+I,1,null,null,null", "+I,1,1,true,false", "+I,2,2,false,true", "+I,2,3,true,true");
    CHECK_STR(out_text(&g), "+I[1, null, null, null, 0]\n+U[1, 1, null, 1, 1]\n+I[2, 2, 2, 2, 1]\n"
                            "+U[2, 5, 5, 5, 2]\n");
    capture_clear(g.cap);
    PUSH_EACH(&g, "-D,1,1,true,false", "-D,2,3,true,true", "-U,2,2,false,true", "+U,2,1,false,false");
    /* materialized: [1, null, null, null, 0] and [2, 1, null, 1, 1] */
    CHECK_STR(out_text(&g), "+U[1, null, null, null, 0]\n+U[2, 2, 2, 2, 1]\n-D[2, 2, 2, 2, 1]\n"
                            "+I[2, 1, null, 1, 1]\n");
    capture_clear(g.cap);
    PUSH_EACH(&g, "+I,1,4,true,true");      /* -reinsert */
    CHECK_STR(out_text(&g), "+U[1, 4, 4, 4, 1]\n");
    ga_close(&g);
}

WTEST(ga_conf_rw_null_after_retraction_group_one_chunk)
{
    GA g;
    ga_init(&g);
    setup_rw_group(&g);
    CHECK(ga_open(&g, 1, true, true, 0));
    PUSH(&g, "+I,1,null,null,null", "+I,1,1,true,false", "+I,2,2,false,true", "+I,2,3,true,true",
         "-D,1,1,true,false", "-D,2,3,true,true", "-U,2,2,false,true", "+U,2,1,false,false",
         "+I,1,4,true,true");
    CHECK_STR(out_text(&g), "+I[1, null, null, null, 0]\n-U[1, null, null, null, 0]\n+U[1, 1, null, 1, 1]\n"
                            "+I[2, 2, 2, 2, 1]\n-U[2, 2, 2, 2, 1]\n+U[2, 5, 5, 5, 2]\n"
                            "-U[1, 1, null, 1, 1]\n+U[1, null, null, null, 0]\n"
                            "-U[2, 5, 5, 5, 2]\n+U[2, 2, 2, 2, 1]\n-D[2, 2, 2, 2, 1]\n"
                            "+I[2, 1, null, 1, 1]\n-U[1, null, null, null, 0]\n+U[1, 4, 4, 4, 1]\n");
    ga_close(&g);
}

/* rw-null-after-retraction-global: SELECT SUM(v), COUNT(*) FROM t WHERE g = 1 (global aggregate,
   retract sink). Input: the filtered v column. */
WTEST(ga_conf_rw_null_after_retraction_global)
{
    GA g;
    ga_init(&g);
    g.in_ncols = 1;
    g.in_types[0] = &WTYPE_INT;
    g.aggs[0] = call(WAGG_SUM, 0, &WTYPE_INT);
    g.aggs[1] = call(WAGG_COUNT_STAR, -1, &WTYPE_BIGINT_NN);
    g.naggs = 2;
    CHECK(ga_open(&g, 0, true, true, 0));
    PUSH_EACH(&g, "+I,null", "+I,1");
    CHECK_STR(out_text(&g), "+I[null, 1]\n-U[null, 1]\n+U[1, 2]\n");
    capture_clear(g.cap);
    PUSH_EACH(&g, "-D,1");
    CHECK_STR(out_text(&g), "-U[1, 2]\n+U[null, 1]\n");
    capture_clear(g.cap);
    PUSH_EACH(&g, "-D,null");
    CHECK_STR(out_text(&g), "-D[null, 1]\n");
    capture_clear(g.cap);
    PUSH_EACH(&g, "-D,null", "+I,7");
    CHECK_STR(out_text(&g), "+I[7, 1]\n");
    char buf[256];
    CHECK(strstr(metrics(&g, buf, sizeof buf), "droppedRetractions=1") != NULL);
    ga_close(&g);
}

/* sql-client select.q: SELECT id, COUNT(*), COUNT(DISTINCT str), MAX(ts) ... GROUP BY id over
   VALUES (insert-only), streaming changelog with -U. */
WTEST(ga_conf_sql_client_changelog)
{
    GA g;
    ga_init(&g);
    g.in_ncols = 3;
    g.in_types[0] = &WTYPE_INT;
    g.in_types[1] = &WTYPE_STRING;
    g.in_types[2] = wtype_timestamp(&g.arena, WT_TIMESTAMP, 9, true);
    g.keys[0] = 0;
    g.aggs[0] = call(WAGG_COUNT_STAR, -1, &WTYPE_BIGINT_NN);
    g.aggs[1] = dcall(WAGG_COUNT, 1, &WTYPE_BIGINT_NN);
    g.aggs[2] = call(WAGG_MAX, 2, g.in_types[2]);
    g.naggs = 3;
    CHECK(ga_open(&g, 1, false, true, 0));
    PUSH(&g, "+I,1,Hello World,2021-04-13 20:12:11.123456789", "+I,2,Hi,2021-04-13 19:12:11.123456789",
         "+I,2,Hi,2021-04-13 21:12:11.123456789");
    CHECK_STR(out_text(&g), "+I[1, 1, 1, 2021-04-13T20:12:11.123456789]\n"
                            "+I[2, 1, 1, 2021-04-13T19:12:11.123456789]\n"
                            "-U[2, 1, 1, 2021-04-13T19:12:11.123456789]\n"
                            "+U[2, 2, 1, 2021-04-13T21:12:11.123456789]\n");
    ga_close(&g);
}
