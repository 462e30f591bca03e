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
    wop_metrics_text(g->op, buf, n);
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
    /* how many of the two keys are seen as EXPIRED (rather than already cleaned up by the
       backend's incremental cleanup) depends on the backend; at most one record per key */
    const char *m = strstr(metrics(&g, buf, sizeof buf), "ttlExpiredRecords=");
    CHECK(m != NULL);
    if (m) CHECK(atoi(m + strlen("ttlExpiredRecords=")) <= 2);
    CHECK(strstr(buf, "groupAggregateState.entries=2 ") != NULL);
    ga_close(&g);
}

/* group-aggregate-distinct: SELECT e, COUNT(DISTINCT a) FILTER (WHERE b > 10), COUNT(DISTINCT a),
   SUM(DISTINCT a), SUM(DISTINCT b), AVG(b), COUNT(DISTINCT d) GROUP BY e.
   Columns: a INT, b BIGINT, c INT, d STRING, e BIGINT, f BOOLEAN (= b > 10). AVG(b) is BIGINT. */
static const char *const DISTINCT_ROWS[] = {
    "+I,2,3,2,Hello World Like,1,false", "+I,3,4,3,Hello World Its nice,2,false",
    "+I,2,2,1,Hello World,2,false", "+I,1,1,0,Hello,1,false", "+I,5,11,10,GHI,1,true",
    "+I,3,5,4,ABC,2,false", "+I,4,10,9,FGH,2,false", "+I,4,7,6,CDE,2,false",
    "+I,5,14,13,JKL,2,true", "+I,4,9,8,EFG,1,false", "+I,5,15,14,KLM,2,true",
    "+I,5,12,11,HIJ,3,true", "+I,4,8,7,DEF,1,false", "+I,5,13,12,IJK,3,true",
    "+I,3,6,5,BCD,3,false"};
#define NDISTINCT_ROWS ((int)(sizeof DISTINCT_ROWS / sizeof DISTINCT_ROWS[0]))
static const char DISTINCT_OUT[] =
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
    "+U[3, 1, 2, 8, 31, 10, 3]\n";

static void setup_distinct(GA *g)
{
    g->in_ncols = 6;
    g->in_types[0] = &WTYPE_INT;
    g->in_types[1] = &WTYPE_BIGINT;
    g->in_types[2] = &WTYPE_INT;
    g->in_types[3] = &WTYPE_STRING;
    g->in_types[4] = &WTYPE_BIGINT;
    g->in_types[5] = &WTYPE_BOOLEAN;
    g->keys[0] = 4;
    g->aggs[0] = fcall(dcall(WAGG_COUNT, 0, &WTYPE_BIGINT_NN), 5);
    g->aggs[1] = dcall(WAGG_COUNT, 0, &WTYPE_BIGINT_NN);
    g->aggs[2] = dcall(WAGG_SUM, 0, &WTYPE_INT);
    g->aggs[3] = dcall(WAGG_SUM, 1, &WTYPE_BIGINT);
    g->aggs[4] = call(WAGG_AVG, 1, &WTYPE_BIGINT);
    g->aggs[5] = dcall(WAGG_COUNT, 3, &WTYPE_BIGINT_NN);
    g->naggs = 6;
}

WTEST(ga_conf_distinct)
{
    GA g;
    ga_init(&g);
    setup_distinct(&g);
    CHECK(ga_open(&g, 1, false, false, 0));
    ga_push_each(&g, NDISTINCT_ROWS, DISTINCT_ROWS);
    CHECK_STR(out_text(&g), DISTINCT_OUT);
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

/* The same input as one chunk: the rows' DISTINCT map entries are read ahead (the test build reads
   ahead at every state size) and their user-key hashes passed on to the lookups; the changelog is
   the one of the record-at-a-time run. */
WTEST(ga_conf_distinct_one_chunk)
{
    GA g;
    ga_init(&g);
    setup_distinct(&g);
    CHECK(ga_open(&g, 1, false, false, 0));
    ga_push(&g, NDISTINCT_ROWS, DISTINCT_ROWS);
    CHECK_STR(out_text(&g), DISTINCT_OUT);
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

/* ------------------------------------------------------------------ aggregate kinds */

/* Columns k INT, v INT. */
static void setup_kv(GA *g, const WType *vt)
{
    g->in_ncols = 2;
    g->in_types[0] = &WTYPE_INT;
    g->in_types[1] = vt;
    g->keys[0] = 0;
}

WTEST(ga_min_max_with_retraction)
{
    GA g;
    ga_init(&g);
    setup_kv(&g, &WTYPE_INT);
    g.aggs[0] = call(WAGG_MIN, 1, &WTYPE_INT);
    g.aggs[1] = call(WAGG_MAX, 1, &WTYPE_INT);
    g.naggs = 2;
    CHECK(ga_open(&g, 1, true, true, 0));
    PUSH_EACH(&g, "+I,1,5", "+I,1,3", "+I,1,7", "+I,1,7", "-D,1,7");
    CHECK_STR(out_text(&g), "+I[1, 5, 5]\n-U[1, 5, 5]\n+U[1, 3, 5]\n-U[1, 3, 5]\n+U[1, 3, 7]\n");
    capture_clear(g.cap);
    PUSH_EACH(&g, "-D,1,7", "-D,1,3", "-D,1,5", "-D,1,5");
    CHECK_STR(out_text(&g), "-U[1, 3, 7]\n+U[1, 3, 5]\n-U[1, 3, 5]\n+U[1, 5, 5]\n-D[1, 5, 5]\n");
    char buf[256];
    metrics(&g, buf, sizeof buf);
    CHECK(strstr(buf, "groupAggregateState.entries=0 groupAggregateState.bytes=0 ttlExpiredRecords=0") != NULL);
    CHECK(strstr(buf, "droppedRetractions=1") != NULL);
    ga_close(&g);
}

/* MAX over strings with retraction; NULL values are ignored; retracting a value never seen
   leaves a negative count that a later insert cancels. MaxWithRetractAggFunction still takes that
   value as the max (its accumulate compares before counting), and it stays the max after the
   real values leave: Flink's quirk, reproduced. */
WTEST(ga_max_string_retraction_negative_counts)
{
    GA g;
    ga_init(&g);
    setup_kv(&g, &WTYPE_STRING);
    g.aggs[0] = call(WAGG_MAX, 1, &WTYPE_STRING);
    g.aggs[1] = call(WAGG_COUNT_STAR, -1, &WTYPE_BIGINT_NN);
    g.naggs = 2;
    CHECK(ga_open(&g, 1, true, false, 0));
    PUSH(&g, "+I,1,apple", "+I,1,null", "+I,1,pear", "-U,1,zebra", "+I,1,zebra", "-D,1,pear");
    CHECK_STR(out_text(&g), "+I[1, apple, 1]\n+U[1, apple, 2]\n+U[1, pear, 3]\n+U[1, pear, 2]\n"
                            "+U[1, zebra, 3]\n+U[1, zebra, 2]\n");
    ga_close(&g);
}

static void setup_sums(GA *g)
{
    setup_kv(g, &WTYPE_INT);
    g->aggs[0] = call(WAGG_SUM, 1, &WTYPE_INT);
    g->aggs[1] = call(WAGG_SUM0, 1, &WTYPE_INT_NN);
    g->aggs[2] = call(WAGG_COUNT, 1, &WTYPE_BIGINT_NN);
    g->aggs[3] = call(WAGG_COUNT_STAR, -1, &WTYPE_BIGINT_NN);
    g->aggs[4] = call(WAGG_AVG, 1, &WTYPE_INT);
    g->naggs = 5;
}

static const char *SUMS_EXPECTED =
    "+I[1, null, 0, 0, 1, null]\n"
    "+U[1, -1, -1, 1, 2, -1]\n"
    "+U[1, -3, -3, 2, 3, -1]\n"
    "+I[2, 2147483647, 2147483647, 1, 1, 2147483647]\n"
    "+U[2, -2147483648, -2147483648, 2, 2, 1073741824]\n"
    "+I[null, 5, 5, 1, 1, 5]\n"
    "+U[null, 12, 12, 2, 2, 6]\n";

/* SUM over only NULLs is NULL, SUM0 is 0; AVG(INT) is INT truncating toward zero; INT sums wrap
   (Java int arithmetic) while AVG sums in BIGINT; NULL keys form one group. Fast path. */
WTEST(ga_sums_counts_avg_fast)
{
    GA g;
    ga_init(&g);
    setup_sums(&g);
    CHECK(ga_open(&g, 1, false, false, 0));
    PUSH(&g, "+I,1,null", "+I,1,-1", "+I,1,-2", "+I,2,2147483647", "+I,2,1", "+I,null,5", "+I,null,7");
    CHECK_STR(out_text(&g), SUMS_EXPECTED);
    ga_close(&g);
}

/* The same through the general path (retracting input). */
WTEST(ga_sums_counts_avg_general)
{
    GA g;
    ga_init(&g);
    setup_sums(&g);
    CHECK(ga_open(&g, 1, true, false, 0));
    PUSH_EACH(&g, "+I,1,null", "+I,1,-1", "+I,1,-2", "+I,2,2147483647", "+I,2,1", "+I,null,5", "+I,null,7");
    CHECK_STR(out_text(&g), SUMS_EXPECTED);
    capture_clear(g.cap);
    /* SUM with retraction: back to NULL when the last non-NULL value leaves; SUM0 stays 0 */
    PUSH_EACH(&g, "-D,1,-1", "-D,1,-2");
    CHECK_STR(out_text(&g), "+U[1, -2, -2, 1, 2, -2]\n+U[1, null, 0, 0, 1, null]\n");
    ga_close(&g);
}

WTEST(ga_tinyint_sum_wraps_and_avg)
{
    GA g;
    ga_init(&g);
    setup_kv(&g, &WTYPE_TINYINT);
    const WType *tiny = wtype_new(&g.arena, WT_TINYINT, true);
    g.in_types[1] = tiny;
    g.aggs[0] = call(WAGG_SUM, 1, tiny);
    g.aggs[1] = call(WAGG_AVG, 1, tiny);
    g.naggs = 2;
    CHECK(ga_open(&g, 1, false, false, 0));
    PUSH(&g, "+I,1,100", "+I,1,100", "+I,1,-101");
    CHECK_STR(out_text(&g), "+I[1, 100, 100]\n+U[1, -56, 100]\n+U[1, 99, 33]\n");
    ga_close(&g);
}

/* DOUBLE sums are accumulated in input order. */
WTEST(ga_double_sum_order)
{
    GA g;
    ga_init(&g);
    setup_kv(&g, &WTYPE_DOUBLE);
    g.aggs[0] = call(WAGG_SUM, 1, &WTYPE_DOUBLE);
    g.aggs[1] = call(WAGG_AVG, 1, &WTYPE_DOUBLE);
    g.aggs[2] = call(WAGG_MIN, 1, &WTYPE_DOUBLE);
    g.naggs = 3;
    CHECK(ga_open(&g, 1, false, false, 0));
    PUSH(&g, "+I,1,0.1", "+I,1,0.2", "+I,1,0.3");
    CHECK_STR(out_text(&g), "+I[1, 0.1, 0.1, 0.1]\n+U[1, 0.30000000000000004, 0.15000000000000002, 0.1]\n"
                            "+U[1, 0.6000000000000001, 0.20000000000000004, 0.1]\n");
    ga_close(&g);
}

WTEST(ga_decimal_sum_avg)
{
    GA g;
    ga_init(&g);
    const WType *d = wtype_decimal(&g.arena, 10, 2, true);
    setup_kv(&g, d);
    g.aggs[0] = call(WAGG_SUM, 1, wtype_decimal(&g.arena, 38, 2, true));
    g.aggs[1] = call(WAGG_AVG, 1, wtype_decimal(&g.arena, 38, 6, true));
    g.aggs[2] = call(WAGG_MAX, 1, d);
    g.naggs = 3;
    CHECK(ga_open(&g, 1, true, false, 0));
    PUSH(&g, "+I,1,1.00", "+I,1,2.00", "+I,1,2.00", "-D,1,2.00", "+I,1,-9.99");
    CHECK_STR(out_text(&g), "+I[1, 1.00, 1.000000, 1.00]\n+U[1, 3.00, 1.500000, 2.00]\n"
                            "+U[1, 5.00, 1.666667, 2.00]\n+U[1, 3.00, 1.500000, 2.00]\n"
                            "+U[1, -6.99, -2.330000, 2.00]\n");
    ga_close(&g);
}

/* DECIMAL(38, 0) sums overflow to NULL (DecimalDataUtils.add), then restart from the next value. */
WTEST(ga_decimal_sum_overflow_null)
{
    GA g;
    ga_init(&g);
    const WType *d = wtype_decimal(&g.arena, 38, 0, true);
    setup_kv(&g, d);
    g.aggs[0] = call(WAGG_SUM, 1, d);
    g.naggs = 1;
    CHECK(ga_open(&g, 1, false, false, 0));
    PUSH(&g, "+I,1,99999999999999999999999999999999999999", "+I,1,1", "+I,1,5");
    CHECK_STR(out_text(&g), "+I[1, 99999999999999999999999999999999999999]\n+U[1, null]\n+U[1, 5]\n");
    ga_close(&g);
}

/* The insert-only fast path over DECIMALs (compact MIN, wide SUM/AVG/MAX, a FILTER, NULLs, keys
   repeated within and across chunks) gives the general path's results: the same rows run through
   an operator whose input may retract (general path, only +I rows here), with and without a
   COUNT(*) (the fast path's direct output). */
static char *decimal_fast_vs_general(bool retracts, bool count_star)
{
    GA g;
    ga_init(&g);
    g.in_ncols = 4;
    g.in_types[0] = &WTYPE_INT;
    g.in_types[1] = wtype_decimal(&g.arena, 10, 2, true);
    g.in_types[2] = wtype_decimal(&g.arena, 24, 4, true);
    g.in_types[3] = &WTYPE_BOOLEAN;
    g.keys[0] = 0;
    int n = 0;
    if (count_star) g.aggs[n++] = call(WAGG_COUNT_STAR, -1, &WTYPE_BIGINT_NN);
    g.aggs[n++] = call(WAGG_SUM, 1, wtype_decimal(&g.arena, 38, 2, true));
    g.aggs[n++] = call(WAGG_AVG, 1, wtype_decimal(&g.arena, 38, 6, true));
    g.aggs[n++] = call(WAGG_MIN, 1, g.in_types[1]);
    g.aggs[n++] = call(WAGG_SUM, 2, wtype_decimal(&g.arena, 38, 4, true));
    g.aggs[n++] = call(WAGG_MAX, 2, g.in_types[2]);
    g.aggs[n++] = call(WAGG_AVG, 2, wtype_decimal(&g.arena, 38, 6, true));
    g.aggs[n++] = fcall(call(WAGG_SUM, 1, wtype_decimal(&g.arena, 38, 2, true)), 3);
    g.aggs[n++] = call(WAGG_COUNT, 2, &WTYPE_BIGINT_NN);
    g.naggs = n;
    if (!ga_open(&g, 1, retracts, false, 0)) {
        ga_close(&g);
        return strdup("ga_open failed");
    }
    uint64_t x = 88172645463325252ULL;
    for (int chunk = 0; chunk < 6; chunk++) {
        char buf[40][96];
        const char *rows[40];
        for (int r = 0; r < 40; r++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            int k = (int)(x % 7);
            long long a = (long long)((x >> 8) % 200001) - 100000;
            long long w = (long long)((x >> 20) % 2000000001ULL) - 1000000000;
            const char *an = (x >> 50) % 6 == 0 ? "null" : NULL, *wn = (x >> 53) % 5 == 0 ? "null" : NULL;
            char as[32], ws[48];
            snprintf(as, sizeof as, "%s%lld.%02lld", a < 0 ? "-" : "", (a < 0 ? -a : a) / 100, (a < 0 ? -a : a) % 100);
            snprintf(ws, sizeof ws, "%s%lld%06lld.%04lld", w < 0 ? "-" : "", (w < 0 ? -w : w) / 10000,
                     (long long)(x % 1000000), (w < 0 ? -w : w) % 10000);
            snprintf(buf[r], sizeof buf[r], "+I,%d,%s,%s,%s", k, an ? an : as, wn ? wn : ws,
                     (x >> 40) & 1 ? "true" : "false");
            rows[r] = buf[r];
        }
        ga_push(&g, 40, rows);
    }
    char *text = strdup(out_text(&g));
    ga_close(&g);
    return text;
}

WTEST(ga_decimal_fast_path_equals_general)
{
    for (int cs = 0; cs < 2; cs++) {
        char *fast = decimal_fast_vs_general(false, cs), *general = decimal_fast_vs_general(true, cs);
        CHECK(strlen(fast) > 1000);
        CHECK_STR(fast, general);
        free(fast);
        free(general);
    }
}

WTEST(ga_stddev_variance)
{
    GA g;
    ga_init(&g);
    setup_kv(&g, &WTYPE_DOUBLE);
    g.aggs[0] = call(WAGG_VAR_POP, 1, &WTYPE_DOUBLE);
    g.aggs[1] = call(WAGG_STDDEV_POP, 1, &WTYPE_DOUBLE);
    g.aggs[2] = call(WAGG_VAR_SAMP, 1, &WTYPE_DOUBLE);
    g.aggs[3] = call(WAGG_STDDEV_SAMP, 1, &WTYPE_DOUBLE);
    g.naggs = 4;
    CHECK(ga_open(&g, 1, true, false, 0));
    PUSH(&g, "+I,1,1", "+I,1,null", "+I,1,2", "+I,1,3", "+I,1,4", "-D,1,4");
    CHECK_STR(out_text(&g), "+I[1, 0.0, 0.0, null, null]\n"
                            "+U[1, 0.25, 0.5, 0.5, 0.7071067811865476]\n"
                            "+U[1, 0.6666666666666666, 0.816496580927726, 1.0, 1.0]\n"
                            "+U[1, 1.25, 1.118033988749895, 1.6666666666666667, 1.2909944487358056]\n"
                            "+U[1, 0.6666666666666666, 0.816496580927726, 1.0, 1.0]\n");
    ga_close(&g);
}

/* STDDEV over INT is INT (the DOUBLE result cast back), over DECIMAL(p, s) DECIMAL(38, max(6, s)). */
WTEST(ga_stddev_int_and_decimal)
{
    GA g;
    ga_init(&g);
    g.in_ncols = 3;
    g.in_types[0] = &WTYPE_INT;
    g.in_types[1] = &WTYPE_INT;
    g.in_types[2] = wtype_decimal(&g.arena, 5, 1, true);
    g.keys[0] = 0;
    g.aggs[0] = call(WAGG_STDDEV_SAMP, 1, &WTYPE_INT);
    g.aggs[1] = call(WAGG_VAR_POP, 2, wtype_decimal(&g.arena, 38, 6, true));
    g.naggs = 2;
    CHECK(ga_open(&g, 1, false, false, 0));
    PUSH(&g, "+I,1,1,1.5", "+I,1,4,2.5", "+I,1,10,4.0");
    CHECK_STR(out_text(&g), "+I[1, null, 0.000000]\n+U[1, 2, 0.250000]\n+U[1, 4, 1.055556]\n");
    ga_close(&g);
}

WTEST(ga_first_last_value_insert_only)
{
    GA g;
    ga_init(&g);
    setup_kv(&g, &WTYPE_STRING);
    g.aggs[0] = call(WAGG_FIRST_VALUE, 1, &WTYPE_STRING);
    g.aggs[1] = call(WAGG_LAST_VALUE, 1, &WTYPE_STRING);
    g.naggs = 2;
    CHECK(ga_open(&g, 1, false, true, 0));
    PUSH(&g, "+I,1,null", "+I,1,a", "+I,1,b", "+I,1,null", "+I,1,longer string value");
    CHECK_STR(out_text(&g), "+I[1, null, null]\n-U[1, null, null]\n+U[1, a, a]\n-U[1, a, a]\n+U[1, a, b]\n"
                            "-U[1, a, b]\n+U[1, a, longer string value]\n");
    ga_close(&g);
}

/* First/LastValueWithRetract: order = processing time; retracting the current first/last value
   moves to the next order. */
WTEST(ga_first_last_value_with_retraction)
{
    GA g;
    ga_init(&g);
    setup_kv(&g, &WTYPE_STRING);
    g.aggs[0] = call(WAGG_FIRST_VALUE, 1, &WTYPE_STRING);
    g.aggs[1] = call(WAGG_LAST_VALUE, 1, &WTYPE_STRING);
    g.naggs = 2;
    CHECK(ga_open(&g, 1, true, false, 0));
    PUSH(&g, "+I,1,a");
    g.env.now += 1;
    PUSH(&g, "+I,1,b", "+I,1,b");
    g.env.now += 1;
    PUSH(&g, "+I,1,c is a long value");
    g.env.now += 1;
    PUSH(&g, "-D,1,a");
    PUSH(&g, "-D,1,c is a long value");
    PUSH(&g, "-D,1,b");
    PUSH(&g, "-D,1,b");
    CHECK_STR(out_text(&g), "+I[1, a, a]\n+U[1, a, b]\n+U[1, a, c is a long value]\n"
                            "+U[1, b, c is a long value]\n+U[1, b, b]\n-D[1, b, b]\n");
    ga_close(&g);
}

/* LISTAGG: default separator ',', a custom separator as 2nd (constant) argument. */
WTEST(ga_listagg_insert_only)
{
    GA g;
    ga_init(&g);
    g.in_ncols = 3;
    g.in_types[0] = &WTYPE_INT;
    g.in_types[1] = &WTYPE_STRING;
    g.in_types[2] = &WTYPE_STRING;
    g.keys[0] = 0;
    g.aggs[0] = call(WAGG_LISTAGG, 1, &WTYPE_STRING);
    g.aggs[1] = call(WAGG_LISTAGG, 1, &WTYPE_STRING);
    g.aggs[1].nargs = 2;
    g.aggs[1].args[1] = 2;
    g.naggs = 2;
    CHECK(ga_open(&g, 1, false, false, 0));
    PUSH(&g, "+I,1,a,|", "+I,1,null,|", "+I,1,bb,|", "+I,1,ccc,|");
    CHECK_STR(out_text(&g), "+I[1, a, a]\n+U[1, a,bb, a|bb]\n+U[1, a,bb,ccc, a|bb|ccc]\n");
    ga_close(&g);
}

WTEST(ga_listagg_with_retraction)
{
    GA g;
    ga_init(&g);
    g.in_ncols = 3;
    g.in_types[0] = &WTYPE_INT;
    g.in_types[1] = &WTYPE_STRING;
    g.in_types[2] = &WTYPE_STRING;
    g.keys[0] = 0;
    g.aggs[0] = call(WAGG_LISTAGG, 1, &WTYPE_STRING);
    g.aggs[1] = call(WAGG_LISTAGG, 1, &WTYPE_STRING);
    g.aggs[1].nargs = 2;
    g.aggs[1].args[1] = 2;
    g.naggs = 2;
    CHECK(ga_open(&g, 1, true, true, 0));
    /* -D zz: not in the list (goes to the retract list), the result is unchanged, but the record
       count drops, so -D b already deletes the key and -D a is dropped */
    PUSH(&g, "+I,1,a,-", "+I,1,b,-", "+I,1,a,-", "-D,1,a,-", "-D,1,zz,-", "-D,1,b,-", "-D,1,a,-",
         "+I,1,x,-", "+I,1,y,-", "-U,1,x,-");
    CHECK_STR(out_text(&g), "+I[1, a, a]\n-U[1, a, a]\n+U[1, a,b, a-b]\n-U[1, a,b, a-b]\n+U[1, a,b,a, a-b-a]\n"
                            "-U[1, a,b,a, a-b-a]\n+U[1, b,a, b-a]\n-D[1, b,a, b-a]\n"
                            "+I[1, x, x]\n-U[1, x, x]\n+U[1, x,y, x-y]\n-U[1, x,y, x-y]\n+U[1, y, y]\n");
    ga_close(&g);
}

WTEST(ga_bool_and_or)
{
    GA g;
    ga_init(&g);
    setup_kv(&g, &WTYPE_BOOLEAN);
    g.aggs[0] = call(WAGG_BOOL_AND, 1, &WTYPE_BOOLEAN);
    g.aggs[1] = call(WAGG_BOOL_OR, 1, &WTYPE_BOOLEAN);
    g.naggs = 2;
    CHECK(ga_open(&g, 1, true, false, 0));
    PUSH(&g, "+I,1,true", "+I,1,null", "+I,1,false", "-D,1,false", "-D,1,true");
    CHECK_STR(out_text(&g), "+I[1, true, true]\n+U[1, false, true]\n+U[1, true, true]\n+U[1, null, null]\n");
    ga_close(&g);
}

/* COUNT(DISTINCT v) and SUM(DISTINCT v) share one value map; with retraction a value leaves the
   distinct set only when its last occurrence is retracted. */
WTEST(ga_distinct_with_retraction)
{
    GA g;
    ga_init(&g);
    setup_kv(&g, &WTYPE_INT);
    g.aggs[0] = dcall(WAGG_COUNT, 1, &WTYPE_BIGINT_NN);
    g.aggs[1] = dcall(WAGG_SUM, 1, &WTYPE_INT);
    g.aggs[2] = call(WAGG_COUNT_STAR, -1, &WTYPE_BIGINT_NN);
    g.naggs = 3;
    CHECK(ga_open(&g, 1, true, false, 0));
    PUSH(&g, "+I,1,4", "+I,1,4", "+I,1,null", "+I,1,6", "-D,1,4", "-D,1,4", "-D,1,null");
    CHECK_STR(out_text(&g), "+I[1, 1, 4, 1]\n+U[1, 1, 4, 2]\n+U[1, 1, 4, 3]\n+U[1, 2, 10, 4]\n"
                            "+U[1, 2, 10, 3]\n+U[1, 1, 6, 2]\n+U[1, 1, 6, 1]\n");
    char buf[256];
    metrics(&g, buf, sizeof buf);
    CHECK(strstr(buf, "groupAggregateState.entries=1 ") != NULL);
    ga_close(&g);
}

/* Multi-column keys (string + int) with NULLs; short and long strings. */
WTEST(ga_multi_column_keys)
{
    GA g;
    ga_init(&g);
    g.in_ncols = 3;
    g.in_types[0] = &WTYPE_STRING;
    g.in_types[1] = &WTYPE_INT;
    g.in_types[2] = &WTYPE_BIGINT;
    g.keys[0] = 0;
    g.keys[1] = 1;
    g.aggs[0] = call(WAGG_SUM, 2, &WTYPE_BIGINT);
    g.naggs = 1;
    CHECK(ga_open(&g, 2, false, false, 0));
    PUSH(&g, "+I,a,1,1", "+I,a,null,2", "+I,null,1,3", "+I,a somewhat longer key,1,4", "+I,a,1,5",
         "+I,null,1,6", "+I,a,null,7", "+I,a somewhat longer key,1,8");
    CHECK_STR(out_text(&g), "+I[a, 1, 1]\n+I[a, null, 2]\n+I[null, 1, 3]\n+I[a somewhat longer key, 1, 4]\n"
                            "+U[a, 1, 6]\n+U[null, 1, 9]\n+U[a, null, 9]\n+U[a somewhat longer key, 1, 12]\n");
    ga_close(&g);
}

/* ------------------------------------------------------------------ emission rules, TTL */

/* No TTL: an unchanged result emits nothing; with TTL it is emitted again (-U/+U). */
WTEST(ga_unchanged_result_with_and_without_ttl)
{
    for (int ttl = 0; ttl <= 1; ttl++) {
        GA g;
        ga_init(&g);
        setup_kv(&g, &WTYPE_INT);
        g.aggs[0] = call(WAGG_MAX, 1, &WTYPE_INT);
        g.naggs = 1;
        CHECK(ga_open(&g, 1, false, true, ttl ? 60000 : 0));
        PUSH(&g, "+I,1,5", "+I,1,3", "+I,1,9");
        CHECK_STR(out_text(&g), ttl ? "+I[1, 5]\n-U[1, 5]\n+U[1, 5]\n-U[1, 5]\n+U[1, 9]\n"
                                    : "+I[1, 5]\n-U[1, 5]\n+U[1, 9]\n");
        ga_close(&g);
    }
}

/* A retraction for an expired key is dropped; an insert starts the key over with +I. */
WTEST(ga_ttl_expired_retraction_dropped)
{
    GA g;
    ga_init(&g);
    setup_kv(&g, &WTYPE_INT);
    g.aggs[0] = call(WAGG_SUM, 1, &WTYPE_INT);
    g.aggs[1] = call(WAGG_MAX, 1, &WTYPE_INT);
    g.naggs = 2;
    CHECK(ga_open(&g, 1, true, true, 1000));
    PUSH(&g, "+I,1,5", "+I,2,1");
    g.env.now += 999;
    PUSH(&g, "+I,2,1");                     /* key 2 refreshed */
    g.env.now += 2;
    PUSH(&g, "-D,1,5", "+I,2,1");           /* key 1 expired (1001 ms), key 2 alive */
    g.env.now += 1000;
    PUSH(&g, "+I,1,6");
    CHECK_STR(out_text(&g), "+I[1, 5, 5]\n+I[2, 1, 1]\n-U[2, 1, 1]\n+U[2, 2, 1]\n-U[2, 2, 1]\n+U[2, 3, 1]\n"
                            "+I[1, 6, 6]\n");
    char buf[256];
    metrics(&g, buf, sizeof buf);
    CHECK(strstr(buf, "droppedRetractions=1") != NULL);
    ga_close(&g);
}

/* Within one chunk: the key's count reaches 0 (-D, state cleared) and the key starts again. */
WTEST(ga_delete_and_reinsert_in_one_chunk)
{
    GA g;
    ga_init(&g);
    setup_kv(&g, &WTYPE_INT);
    g.aggs[0] = call(WAGG_COUNT_STAR, -1, &WTYPE_BIGINT_NN);
    g.aggs[1] = dcall(WAGG_COUNT, 1, &WTYPE_BIGINT_NN);
    g.naggs = 2;
    CHECK(ga_open(&g, 1, true, true, 0));
    PUSH(&g, "+I,1,7", "-D,1,7", "-D,1,7", "+I,1,7", "+I,1,8");
    CHECK_STR(out_text(&g), "+I[1, 1, 1]\n-D[1, 1, 1]\n+I[1, 1, 1]\n-U[1, 1, 1]\n+U[1, 2, 2]\n");
    char buf[256];
    metrics(&g, buf, sizeof buf);
    CHECK(strstr(buf, "groupAggregateState.entries=1 ") != NULL);
    CHECK(strstr(buf, "droppedRetractions=1") != NULL);
    ga_close(&g);
}

/* Global aggregate (no keys), insert-only fast path. */
WTEST(ga_global_insert_only)
{
    GA g;
    ga_init(&g);
    g.in_ncols = 1;
    g.in_types[0] = &WTYPE_BIGINT;
    g.aggs[0] = call(WAGG_COUNT_STAR, -1, &WTYPE_BIGINT_NN);
    g.aggs[1] = call(WAGG_SUM, 0, &WTYPE_BIGINT);
    g.naggs = 2;
    CHECK(ga_open(&g, 0, false, true, 0));
    PUSH(&g, "+I,10", "+I,null");
    PUSH(&g, "+I,-3");
    CHECK_STR(out_text(&g), "+I[1, 10]\n-U[1, 10]\n+U[2, 10]\n-U[2, 10]\n+U[3, 7]\n");
    ga_close(&g);
}

/* SINGLE_VALUE (a scalar subquery's check): the one value per key, a NULL counts as a row, a
   retraction empties the key, a second row fails with Flink's TableRuntimeException. */
WTEST(ga_single_value)
{
    GA g;
    ga_init(&g);
    setup_kv(&g, &WTYPE_STRING);
    g.aggs[0] = call(WAGG_SINGLE_VALUE, 1, &WTYPE_STRING);
    g.naggs = 1;
    CHECK(ga_open(&g, 1, true, false, 0));
    PUSH(&g, "+I,1,a", "+I,2,null", "-D,1,a", "+I,1,b");
    CHECK(!g.env.err.set);
    CHECK_STR(out_text(&g), "+I[1, a]\n+I[2, null]\n-D[1, a]\n+I[1, b]\n");
    PUSH(&g, "+I,2,c");
    CHECK(g.env.err.set);
    CHECK_STR(g.env.err.cls, WEXC_RUNTIME);
    CHECK_STR(g.env.err.msg, "SingleValueAggFunction received more than one element.");
    ga_close(&g);
}

/* ------------------------------------------------------------------ errors */

WTEST(ga_insert_only_input_rejects_retraction)
{
    GA g;
    ga_init(&g);
    setup_kv(&g, &WTYPE_INT);
    g.aggs[0] = call(WAGG_SUM, 1, &WTYPE_INT);
    g.naggs = 1;
    CHECK(ga_open(&g, 1, false, false, 0));
    PUSH(&g, "+I,1,5", "-D,1,5");
    CHECK(g.env.err.set);
    CHECK(strstr(g.env.err.msg, "insert-only") != NULL);
    CHECK_STR(out_text(&g), "");
    ga_close(&g);
}

WTEST(ga_bad_specs_rejected)
{
    GA g;
    ga_init(&g);
    setup_kv(&g, &WTYPE_INT);
    g.aggs[0] = call(WAGG_SUM, 5, &WTYPE_INT);       /* argument out of range */
    g.naggs = 1;
    CHECK(!ga_open(&g, 1, false, false, 0));
    CHECK(g.env.err.set);
    werr_clear(&g.env.err);
    g.aggs[0] = call(WAGG_SUM, 1, &WTYPE_INT);
    g.aggs[0].kind = WAGG_COLLECT;
    CHECK(!ga_open(&g, 1, false, false, 0));
    CHECK(strstr(g.env.err.msg, "COLLECT") != NULL);
    werr_clear(&g.env.err);
    g.aggs[0] = call(WAGG_SUM, 1, &WTYPE_INT);
    g.in_types[1] = &WTYPE_STRING;                  /* SUM over a string */
    CHECK(!ga_open(&g, 1, false, false, 0));
    CHECK(g.env.err.set);
    ga_close(&g);
}

/* ------------------------------------------------------------------ chunks and paths */

/* More output rows than one output chunk holds. */
WTEST(ga_large_chunk_output_split)
{
    GA g;
    ga_init(&g);
    setup_kv(&g, &WTYPE_INT);
    g.aggs[0] = call(WAGG_COUNT_STAR, -1, &WTYPE_BIGINT_NN);
    g.naggs = 1;
    CHECK(ga_open(&g, 1, false, true, 0));
    int n = 2000;
    const char **kinds = calloc((size_t)n, sizeof(char *));
    const char **cells = calloc((size_t)n * 2, sizeof(char *));
    for (int r = 0; r < n; r++) {
        kinds[r] = "+I";
        cells[2 * r] = (r % 3 == 0) ? "1" : "2";
        cells[2 * r + 1] = "0";
    }
    WChunk *c = chunk_from_text(&g.env, 2, g.in_types, n, kinds, cells);
    wop_push(g.op, 0, c);
    wchunk_free(c);
    free(kinds);
    free(cells);
    CHECK_INT(g.cap->rows, 2 + 2 * (n - 2));
    CHECK(strstr(out_text(&g), "+U[1, 667]\n-U[2, 1332]\n+U[2, 1333]\n") != NULL);
    ga_close(&g);
}

/* The fast path (insert-only) and the general path (retracting input, same data) give the same
   changelog on random data over many chunks. */
WTEST(ga_fast_and_general_paths_agree)
{
    GA f, s;
    ga_init(&f);
    ga_init(&s);
    GA *both[2] = {&f, &s};
    for (int i = 0; i < 2; i++) {
        GA *g = both[i];
        g->in_ncols = 4;
        g->in_types[0] = &WTYPE_INT;
        g->in_types[1] = &WTYPE_BIGINT;
        g->in_types[2] = &WTYPE_DOUBLE;
        g->in_types[3] = &WTYPE_BOOLEAN;
        g->keys[0] = 0;
        g->aggs[0] = call(WAGG_COUNT_STAR, -1, &WTYPE_BIGINT_NN);
        g->aggs[1] = call(WAGG_SUM, 1, &WTYPE_BIGINT);
        g->aggs[2] = call(WAGG_MIN, 1, &WTYPE_BIGINT);
        g->aggs[3] = call(WAGG_MAX, 2, &WTYPE_DOUBLE);
        g->aggs[4] = call(WAGG_AVG, 1, &WTYPE_BIGINT);
        g->aggs[5] = call(WAGG_AVG, 2, &WTYPE_DOUBLE);
        g->aggs[6] = fcall(call(WAGG_COUNT, 2, &WTYPE_BIGINT_NN), 3);
        g->aggs[7] = call(WAGG_SUM0, 2, &WTYPE_DOUBLE_NN);
        g->naggs = 8;
        CHECK(ga_open(g, 1, i == 1, i == 0, 0));
        if (i == 1) {   /* same emission as the fast one: generate -U too */
            wop_free(g->op);
            capture_free(g->cap);
            CHECK(ga_open(g, 1, true, true, 0));
        }
    }
    unsigned seed = 12345;
    char buf[40][64];
    const char *rows[40];
    for (int chunk = 0; chunk < 60; chunk++) {
        int n = 1 + (int)(seed % 40);
        for (int r = 0; r < n; r++) {
            seed = seed * 1103515245u + 12345u;
            int k = (int)((seed >> 16) % 13);
            int v = (int)((seed >> 8) % 200) - 100;
            double d = (double)((seed >> 4) % 1000) / 8.0 - 60.0;
            const char *nul = (seed % 11 == 0) ? "null" : NULL;
            if (nul) snprintf(buf[r], sizeof buf[r], "+I,%d,null,null,%s", k, (seed % 2) ? "true" : "false");
            else snprintf(buf[r], sizeof buf[r], "+I,%d,%d,%.3f,%s", k, v, d, (seed % 2) ? "true" : "null");
            rows[r] = buf[r];
        }
        ga_push(&f, n, rows);
        ga_push(&s, n, rows);
    }
    CHECK(f.cap->rows > 100);
    CHECK_INT(f.cap->rows, s.cap->rows);
    CHECK(strcmp(out_text(&f), out_text(&s)) == 0);
    ga_close(&f);
    ga_close(&s);
}

/* Fast path: an expired key starts over with +I (and is counted at most once). */
WTEST(ga_fast_path_ttl_expiry)
{
    GA g;
    ga_init(&g);
    setup_kv(&g, &WTYPE_BIGINT);
    g.aggs[0] = call(WAGG_COUNT_STAR, -1, &WTYPE_BIGINT_NN);
    g.aggs[1] = call(WAGG_SUM, 1, &WTYPE_BIGINT);
    g.naggs = 2;
    CHECK(ga_open(&g, 1, false, false, 1000));
    PUSH(&g, "+I,1,5", "+I,2,1", "+I,1,5");
    g.env.now += 600;
    PUSH(&g, "+I,2,1");
    g.env.now += 600;
    PUSH(&g, "+I,1,7", "+I,2,1", "+I,1,1");
    CHECK_STR(out_text(&g), "+I[1, 1, 5]\n+I[2, 1, 1]\n+U[1, 2, 10]\n+U[2, 2, 2]\n"
                            "+I[1, 1, 7]\n+U[2, 3, 3]\n+U[1, 2, 8]\n");
    char buf[256];
    const char *m = strstr(metrics(&g, buf, sizeof buf), "ttlExpiredRecords=");
    CHECK(m != NULL);
    if (m) CHECK(atoi(m + strlen("ttlExpiredRecords=")) <= 1);
    ga_close(&g);
}

/* Fast path without -U (output row i = input row i when every row changes) and with TTL. */
WTEST(ga_fast_and_general_paths_agree_upsert_and_ttl)
{
    for (int mode = 0; mode < 2; mode++) {
        GA f, s;
        ga_init(&f);
        ga_init(&s);
        GA *both[2] = {&f, &s};
        for (int i = 0; i < 2; i++) {
            GA *g = both[i];
            g->in_ncols = 3;
            g->in_types[0] = &WTYPE_BIGINT;
            g->in_types[1] = &WTYPE_INT;
            g->in_types[2] = &WTYPE_DOUBLE;
            g->keys[0] = 0;
            g->aggs[0] = call(WAGG_MAX, 1, &WTYPE_INT);
            g->aggs[1] = mode ? call(WAGG_MIN, 2, &WTYPE_DOUBLE) : call(WAGG_COUNT_STAR, -1, &WTYPE_BIGINT_NN);
            g->aggs[2] = call(WAGG_SUM, 1, &WTYPE_INT);
            g->aggs[3] = call(WAGG_AVG, 2, &WTYPE_DOUBLE);
            g->naggs = 4;
            CHECK(ga_open(g, 1, i == 1, false, mode ? 100000 : 0));
        }
        unsigned seed = 777;
        char buf[50][64];
        const char *rows[50];
        for (int chunk = 0; chunk < 40; chunk++) {
            int n = 1 + (int)(seed % 50);
            for (int r = 0; r < n; r++) {
                seed = seed * 1103515245u + 12345u;
                int k = (int)((seed >> 16) % 9);
                if (seed % 13 == 0) snprintf(buf[r], sizeof buf[r], "+I,%d,null,null", k);
                else snprintf(buf[r], sizeof buf[r], "+I,%d,%d,%.2f", k, (int)((seed >> 6) % 50), (double)((seed >> 9) % 400) / 4.0);
                rows[r] = buf[r];
            }
            ga_push(&f, n, rows);
            ga_push(&s, n, rows);
        }
        CHECK(f.cap->rows > 50);
        CHECK(strcmp(out_text(&f), out_text(&s)) == 0);
        ga_close(&f);
        ga_close(&s);
    }
}

/* ------------------------------------------------------------------ accumulators kept between chunks */

/* A key seen in an earlier chunk keeps its accumulators decoded (acc_cache.h) and writes them back
   only before a snapshot (pre_snapshot), at the end of the input or when the cache empties: its
   state's bytes lag behind until then and equal those of an operator that wrote them at once
   (the same rows in one chunk: a new key is written through). The output is the same either way. */
WTEST(ga_cached_accumulators_written_back_before_snapshot)
{
    GA a, b;
    ga_init(&a);
    ga_init(&b);
    GA *gs[2] = {&a, &b};
    for (int i = 0; i < 2; i++) {
        setup_kv(gs[i], &WTYPE_STRING);
        gs[i]->aggs[0] = call(WAGG_MAX, 1, &WTYPE_STRING);
        gs[i]->aggs[1] = call(WAGG_COUNT_STAR, -1, &WTYPE_BIGINT_NN);
        gs[i]->naggs = 2;
        CHECK(ga_open(gs[i], 1, false, false, 0));
    }
    PUSH(&a, "+I,1,b", "+I,2,x");
    PUSH(&a, "+I,1,bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "+I,1,a", "+I,3,y");
    PUSH(&b, "+I,1,b", "+I,2,x", "+I,1,bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "+I,1,a", "+I,3,y");
    CHECK_STR(out_text(&a), out_text(&b));
    CHECK_STR(out_text(&a), "+I[1, b, 1]\n+I[2, x, 1]\n+U[1, bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb, 2]\n"
                            "+U[1, bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb, 3]\n+I[3, y, 1]\n");
    char ma[512], mb[512];
    metrics(&b, mb, sizeof mb);
    CHECK(strcmp(metrics(&a, ma, sizeof ma), mb) != 0);     /* key 1's longer MAX: not written yet */
    CHECK(strstr(ma, "groupAggregateState.entries=3") != NULL);     /* every key is in state */
    a.op->ops->pre_snapshot(a.op);
    CHECK_STR(metrics(&a, ma, sizeof ma), mb);
    ga_close(&a);
    ga_close(&b);
}

/* Cached keys of string type (their bytes copied: the chunks are freed after each push) whose
   count goes to zero leave state and cache (-D), and come back as new keys (+I); rows of one
   key across many chunks, one row per chunk. */
WTEST(ga_cached_keys_retracted_to_zero_and_back)
{
    GA g;
    ga_init(&g);
    g.in_ncols = 2;
    g.in_types[0] = &WTYPE_STRING;
    g.in_types[1] = &WTYPE_INT;
    g.keys[0] = 0;
    g.aggs[0] = call(WAGG_COUNT_STAR, -1, &WTYPE_BIGINT_NN);
    g.aggs[1] = call(WAGG_SUM, 1, &WTYPE_INT);
    g.aggs[2] = call(WAGG_MAX, 0, &WTYPE_STRING);
    g.naggs = 3;
    CHECK(ga_open(&g, 1, true, false, 0));
    PUSH(&g, "+I,k1,1", "+I,k2,2");
    PUSH_EACH(&g, "+I,k1,10", "-D,k1,1", "-D,k1,10", "+I,k1,5", "+I,k2,3", "-D,k2,2", "-D,k2,3", "-D,k2,3",
              "+I,k2,7");
    CHECK_STR(out_text(&g), "+I[k1, 1, 1, k1]\n+I[k2, 1, 2, k2]\n+U[k1, 2, 11, k1]\n+U[k1, 1, 10, k1]\n"
                            "-D[k1, 1, 10, k1]\n+I[k1, 1, 5, k1]\n+U[k2, 2, 5, k2]\n+U[k2, 1, 3, k2]\n"
                            "-D[k2, 1, 3, k2]\n+I[k2, 1, 7, k2]\n");
    char m[512];
    CHECK(strstr(metrics(&g, m, sizeof m), "groupAggregateState.entries=2") != NULL);
    CHECK(strstr(m, "droppedRetractions=1") != NULL);
    ga_close(&g);
}
