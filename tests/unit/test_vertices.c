/*
 * test_vertices.c — job vertices from exec graphs: Flink's operator names, chaining rules,
 * parallelism, edges (runtime/vertices.c). Plans are built by hand (exact shapes) and, once, from
 * SQL through the real planner.
 */
#include "unit.h"
#include "../../src/runtime/vertices.h"
#include "../../src/plan/plan.h"
#include "../../src/sql/parser.h"
#include "../../src/common/arena.h"

#include <stdlib.h>
#include <string.h>

typedef struct Fx {
    WArena *a;
    WPlanCtx p;
    WCatalog cat;
    WError err;
    WOptions cfg;
    int next_id;
} Fx;

static void fx_init(Fx *f)
{
    memset(f, 0, sizeof *f);
    f->a = warena_new(0);
    wcatalog_init(&f->cat);
    werr_clear(&f->err);
    wopts_init(&f->cfg);
    f->p.arena = f->a;
    f->p.catalog = &f->cat;
    f->p.config = &f->cfg;
    f->p.err = &f->err;
    f->next_id = 1;
}

/* As fx_init, for planning SQL (a cast context: the session's time zone etc.). */
static void fx_init_sql(Fx *f, WCastCtx *cast)
{
    fx_init(f);
    memset(cast, 0, sizeof *cast);
    f->p.cast = cast;
}

static void fx_free(Fx *f)
{
    wcatalog_free(&f->cat);
    wopts_free(&f->cfg);
    warena_delete(f->a);
}

static WTable *table(Fx *f, const char *name, int ncols, const WType **types)
{
    WTable *t = WA_NEW(f->a, WTable);
    t->name = wa_strdup(f->a, name);
    t->catalog = "default_catalog";
    t->database = "default_database";
    t->ncols = ncols;
    t->cols = WA_ARRAY(f->a, WColumn, ncols);
    for (int i = 0; i < ncols; i++) {
        t->cols[i].name = wa_sprintf(f->a, "c%d", i);
        t->cols[i].type = types[i];
        t->cols[i].kind = WCOL_PHYSICAL;
    }
    t->wm_col = -1;
    wopts_init(&t->options);
    return t;
}

static void schema(Fx *f, WRel *r, int n)
{
    r->out.n = n;
    r->out.names = WA_ARRAY(f->a, const char *, n);
    r->out.types = WA_ARRAY(f->a, const WType *, n);
    for (int i = 0; i < n; i++) {
        r->out.names[i] = wa_sprintf(f->a, "c%d", i);
        r->out.types[i] = &WTYPE_BIGINT;
    }
}

static WRel *node(Fx *f, WRelKind k, int nin, WRel *a, WRel *b)
{
    WRel *r = wrel_new(&f->p, k, nin);
    if (nin > 0) r->inputs[0] = a;
    if (nin > 1) r->inputs[1] = b;
    schema(f, r, 2);
    if (k != WR_EXCHANGE || true) r->id = f->next_id++;
    return r;
}

static WRel *scan(Fx *f, const char *name)
{
    const WType *ts[2] = {&WTYPE_BIGINT, &WTYPE_BIGINT};
    WRel *r = node(f, WR_SCAN, 0, NULL, NULL);
    wrel_scan_mut(r)->table = table(f, name, 2, ts);
    return r;
}

static WRel *hash(Fx *f, WRel *in)
{
    WRel *x = node(f, WR_EXCHANGE, 1, in, NULL);
    x->nkeys = 1;
    x->keys = WA_ARRAY(f->a, int, 1);
    return x;
}

static WRel *sink(Fx *f, WRel *in, const char *name, bool not_null)
{
    const WType *ts[2] = {not_null ? &WTYPE_BIGINT_NN : &WTYPE_BIGINT, &WTYPE_BIGINT};
    WRel *s = node(f, WR_SINK, 1, in, NULL);
    wrel_sink_mut(s)->table = table(f, name, 2, ts);
    wrel_sink_mut(s)->qname = wa_sprintf(f->a, "default_catalog.default_database.%s", name);
    return s;
}

/* "name | name | ..." of the vertices */
static char *names(const WJobGraph *g)
{
    WStrBuf s;
    wsb_init(&s);
    for (int i = 0; i < g->nvertices; i++) wsb_printf(&s, "%s%s", i ? " | " : "", g->vertices[i].name);
    return wsb_detach(&s);
}

WTEST(vertices_group_agg_two_vertices)
{
    Fx f;
    fx_init(&f);
    WRel *s = scan(&f, "orders");
    WRel *c = node(&f, WR_CALC, 1, s, NULL);
    WRel *x = hash(&f, c);
    WRel *g = node(&f, WR_GROUP_AGG, 1, x, NULL);
    WRel *k = sink(&f, g, "kv_sink", false);
    WJobGraph *jg = wjobgraph_build(&k, 1, &f.cfg);
    char *n = names(jg);
    CHECK_STR(n, "Source: orders[1] -> Calc[2] | GroupAggregate[4] -> Sink: kv_sink[5]");
    CHECK_INT(jg->nvertices, jg->nedges_non_forward + 1);
    CHECK_INT(jg->nops, 4);
    CHECK_INT(jg->vertices[1].ninputs, 1);
    CHECK_INT(jg->vertices[1].inputs[0].from, 0);
    CHECK_STR(wship_name(jg->vertices[1].inputs[0].ship), "HASH");
    CHECK_INT(jg->vertices[0].parallelism, 1);
    CHECK_INT(jg->vertices[0].max_parallelism, 128);
    CHECK_STR(jg->ops[0].description,
              "[1]:TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[c0, c1])");
    CHECK_STR(jg->vertices[0].description,
              "[1]:TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[c0, c1])\n+- [2]:Calc");
    free(n);
    wjobgraph_free(jg);
    fx_free(&f);
}

WTEST(vertices_chaining_disabled_one_per_operator)
{
    Fx f;
    fx_init(&f);
    wopts_set(&f.cfg, "pipeline.operator-chaining.enabled", "false");
    WRel *s = scan(&f, "orders");
    WRel *c = node(&f, WR_CALC, 1, s, NULL);
    WRel *x = hash(&f, c);
    WRel *g = node(&f, WR_GROUP_AGG, 1, x, NULL);
    WRel *k = sink(&f, g, "kv_sink", true);
    WJobGraph *jg = wjobgraph_build(&k, 1, &f.cfg);
    char *n = names(jg);
    CHECK_STR(n, "Source: orders[1] | Calc[2] | GroupAggregate[4] | ConstraintEnforcer[5] | Sink: kv_sink[5]");
    CHECK_INT(jg->nvertices, jg->nops);
    CHECK(!jg->chaining);
    CHECK_STR(jg->ops[3].description, "[5]:ConstraintEnforcer[NotNullEnforcer(fields=[c0])]");
    free(n);
    wjobgraph_free(jg);
    fx_free(&f);
}

WTEST(vertices_not_null_sink_column_adds_enforcer)
{
    Fx f;
    fx_init(&f);
    WRel *s = scan(&f, "t");
    WRel *k = sink(&f, s, "out", true);
    WJobGraph *jg = wjobgraph_build(&k, 1, &f.cfg);
    char *n = names(jg);
    CHECK_STR(n, "Source: t[1] -> ConstraintEnforcer[2] -> Sink: out[2]");
    CHECK_INT(jg->nvertices, 1);
    free(n);
    wjobgraph_free(jg);
    fx_free(&f);
}

WTEST(vertices_join_inputs_start_a_vertex)
{
    Fx f;
    fx_init(&f);
    WRel *a = scan(&f, "a");
    WRel *xa = hash(&f, a);
    WRel *b = scan(&f, "b");
    WRel *xb = hash(&f, b);
    WRel *j = node(&f, WR_JOIN, 2, xa, xb);
    WRel *c = node(&f, WR_CALC, 1, j, NULL);
    WRel *k = sink(&f, c, "out", false);
    WJobGraph *jg = wjobgraph_build(&k, 1, &f.cfg);
    char *n = names(jg);
    CHECK_STR(n, "Source: a[1] | Source: b[3] | Join[5] -> Calc[6] -> Sink: out[7]");
    CHECK_INT(jg->nedges_non_forward, 2);
    CHECK_INT(jg->vertices[2].ninputs, 2);
    free(n);
    wjobgraph_free(jg);
    fx_free(&f);
}

WTEST(vertices_union_is_virtual_and_breaks_the_chain)
{
    Fx f;
    fx_init(&f);
    WRel *a = scan(&f, "a");
    WRel *b = scan(&f, "b");
    WRel *u = node(&f, WR_UNION, 2, a, b);
    WRel *k = sink(&f, u, "out", false);
    WJobGraph *jg = wjobgraph_build(&k, 1, &f.cfg);
    char *n = names(jg);
    /* the sink has two forward input edges: it cannot chain to either */
    CHECK_STR(n, "Source: a[1] | Source: b[2] | Sink: out[4]");
    CHECK_INT(jg->nedges_non_forward, 0);
    CHECK_INT(jg->nops, 3);
    free(n);
    wjobgraph_free(jg);
    fx_free(&f);
}

WTEST(vertices_global_exchange_parallelism_one)
{
    Fx f;
    fx_init(&f);
    wopts_set(&f.cfg, "parallelism.default", "4");
    WRel *s = scan(&f, "t");
    WRel *x = node(&f, WR_EXCHANGE, 1, s, NULL);
    wrel_exchange_mut(x)->single = true;
    WRel *g = node(&f, WR_GROUP_AGG, 1, x, NULL);
    WRel *k = sink(&f, g, "out", false);
    WJobGraph *jg = wjobgraph_build(&k, 1, &f.cfg);
    CHECK_INT(jg->nvertices, 2);
    CHECK_INT(jg->vertices[0].parallelism, 4);
    CHECK_INT(jg->vertices[1].parallelism, 1);
    CHECK_INT(jg->vertices[1].max_parallelism, 1);
    CHECK_STR(wship_name(jg->vertices[1].inputs[0].ship), "GLOBAL");
    wjobgraph_free(jg);
    fx_free(&f);
}

WTEST(vertices_sink_parallelism_breaks_chain_with_rebalance)
{
    Fx f;
    fx_init(&f);
    wopts_set(&f.cfg, "parallelism.default", "2");
    WRel *s = scan(&f, "t");
    WRel *c = node(&f, WR_CALC, 1, s, NULL);
    WRel *k = sink(&f, c, "out", false);
    wopts_set(&wrel_sink(k)->table->options, "sink.parallelism", "3");
    WJobGraph *jg = wjobgraph_build(&k, 1, &f.cfg);
    char *n = names(jg);
    CHECK_STR(n, "Source: t[1] -> Calc[2] | Sink: out[3]");
    CHECK_STR(wship_name(jg->vertices[1].inputs[0].ship), "REBALANCE");
    CHECK_INT(jg->vertices[1].parallelism, 3);
    CHECK_INT(jg->nvertices, jg->nedges_non_forward + 1);
    free(n);
    wjobgraph_free(jg);
    wopts_free(&wrel_sink(k)->table->options);
    fx_free(&f);
}

WTEST(vertices_scan_parallelism_and_values)
{
    Fx f;
    fx_init(&f);
    wopts_set(&f.cfg, "parallelism.default", "2");
    WRel *v = node(&f, WR_VALUES, 0, NULL, NULL);
    WRel *c = node(&f, WR_CALC, 1, v, NULL);
    WRel *k = sink(&f, c, "out", false);
    WJobGraph *jg = wjobgraph_build(&k, 1, &f.cfg);
    char *n = names(jg);
    CHECK_STR(n, "Source: Values[1] -> Calc[2] -> Sink: out[3]");
    CHECK_INT(jg->vertices[0].parallelism, 1);
    CHECK_INT(jg->vertices[0].max_parallelism, 1);
    free(n);
    wjobgraph_free(jg);
    fx_free(&f);
}

/* scan.parallelism as Flink 2.3.0 translates it (measured: EXPLAIN JSON_EXECUTION_PLAN and the REST
   vertices): the source at its own parallelism, the operator after it at parallelism.default over
   a REBALANCE edge (FORWARD when equal), a keyBy after it unchanged; a source that emits updates
   feeds the next operator over a HASH edge on its primary key, even at equal parallelisms. */
WTEST(vertices_scan_parallelism_rebalance)
{
    Fx f;
    fx_init(&f);
    wopts_set(&f.cfg, "parallelism.default", "1");
    WRel *s = scan(&f, "gen");
    wopts_set(&wrel_scan_mut(s)->table->options, "scan.parallelism", "3");
    WRel *c = node(&f, WR_CALC, 1, s, NULL);
    WRel *k = sink(&f, c, "out", false);
    WJobGraph *jg = wjobgraph_build(&k, 1, &f.cfg);
    char *n = names(jg);
    CHECK_STR(n, "Source: gen[1] | Calc[2] -> Sink: out[3]");
    CHECK_INT(jg->vertices[0].parallelism, 3);
    CHECK_INT(jg->vertices[1].parallelism, 1);
    CHECK_INT(jg->vertices[1].inputs[0].ship, WSHIP_REBALANCE);
    free(n);
    wjobgraph_free(jg);

    /* the same parallelism as the job's: one chain */
    wopts_set(&f.cfg, "parallelism.default", "3");
    jg = wjobgraph_build(&k, 1, &f.cfg);
    n = names(jg);
    CHECK_STR(n, "Source: gen[1] -> Calc[2] -> Sink: out[3]");
    free(n);
    wjobgraph_free(jg);

    /* a keyBy after the source: HASH, the aggregate at the default */
    wopts_set(&f.cfg, "parallelism.default", "2");
    WRel *g = node(&f, WR_GROUP_AGG, 1, hash(&f, s), NULL);
    WRel *k2 = sink(&f, g, "out2", false);
    jg = wjobgraph_build(&k2, 1, &f.cfg);
    CHECK_INT(jg->nvertices, 2);
    CHECK_INT(jg->vertices[0].parallelism, 3);
    CHECK_INT(jg->vertices[1].parallelism, 2);
    CHECK_INT(jg->vertices[1].inputs[0].ship, WSHIP_HASH);
    wjobgraph_free(jg);

    /* a source with updates and a primary key: HASH even at equal parallelisms */
    wopts_set(&f.cfg, "parallelism.default", "3");
    s->changelog = WCM_INSERT | WCM_UPDATE_AFTER | WCM_DELETE;
    wrel_scan_mut(s)->table->npk = 1;
    wrel_scan_mut(s)->table->pk = WA_ARRAY(f.a, int, 1);
    jg = wjobgraph_build(&k, 1, &f.cfg);
    n = names(jg);
    CHECK_STR(n, "Source: gen[1] | Calc[2] -> Sink: out[3]");
    CHECK_INT(jg->vertices[1].inputs[0].ship, WSHIP_HASH);
    CHECK_INT(jg->vertices[1].parallelism, 3);
    free(n);
    wjobgraph_free(jg);
    wopts_free(&wrel_scan_mut(s)->table->options);
    wopts_free(&wrel_sink(k)->table->options);
    wopts_free(&wrel_sink(k2)->table->options);
    fx_free(&f);
}

WTEST(vertices_sink_materializer_keyed_after_enforcer)
{
    Fx f;
    fx_init(&f);
    WRel *s = scan(&f, "t");
    WRel *x = hash(&f, s);
    WRel *g = node(&f, WR_GROUP_AGG, 1, x, NULL);
    WRel *m = node(&f, WR_SINK_MATERIALIZER, 1, g, NULL);
    m->nkeys = 1;
    m->keys = WA_ARRAY(f.a, int, 1);
    WRel *k = sink(&f, m, "out", false);
    wrel_sink(k)->table->npk = 1;
    wrel_sink(k)->table->pk = WA_ARRAY(f.a, int, 1);
    WJobGraph *jg = wjobgraph_build(&k, 1, &f.cfg);
    char *n = names(jg);
    CHECK_STR(n, "Source: t[1] | GroupAggregate[3] -> ConstraintEnforcer[5] | SinkMaterializer[5] -> Sink: out[5]");
    CHECK_INT(jg->nvertices, jg->nedges_non_forward + 1);
    free(n);
    wjobgraph_free(jg);
    fx_free(&f);
}

WTEST(vertices_shared_source_chains_to_several_outputs)
{
    Fx f;
    fx_init(&f);
    WRel *s = scan(&f, "t");
    WRel *k1 = sink(&f, s, "a", false);
    WRel *k2 = sink(&f, s, "b", false);
    WRel *roots[2] = {k1, k2};
    WJobGraph *jg = wjobgraph_build(roots, 2, &f.cfg);
    char *n = names(jg);
    CHECK_STR(n, "Source: t[1] -> (Sink: a[2], Sink: b[3])");
    CHECK_INT(jg->nops, 3);
    free(n);
    wjobgraph_free(jg);
    fx_free(&f);
}

WTEST(vertices_collect_sink_with_rowtime)
{
    Fx f;
    fx_init(&f);
    WRel *s = scan(&f, "t");
    WRel *k = node(&f, WR_SINK, 1, s, NULL);
    k->out.types[1] = wtype_with_time_attr(f.a, wtype_timestamp(f.a, WT_TIMESTAMP, 3, true), WTA_ROWTIME);
    WJobGraph *jg = wjobgraph_build(&k, 1, &f.cfg);
    char *n = names(jg);
    CHECK_STR(n, "Source: t[1] -> StreamRecordTimestampInserter[2] -> Sink: Collect table sink");
    free(n);
    wjobgraph_free(jg);
    fx_free(&f);
}

WTEST(vertices_vertex_ids_are_hex_and_stable)
{
    char a[33], b[33], c[33];
    wjobgraph_vertex_id("0123456789abcdef0123456789abcdef", 0, a);
    wjobgraph_vertex_id("0123456789abcdef0123456789abcdef", 0, b);
    wjobgraph_vertex_id("0123456789abcdef0123456789abcdef", 1, c);
    CHECK_INT(strlen(a), 32);
    CHECK_STR(a, b);
    CHECK(strcmp(a, c) != 0);
    CHECK(strspn(a, "0123456789abcdef") == 32);
    CHECK(wjobgraph_build(NULL, 0, NULL) == NULL);
}

/* The tables of ddl[0..n) created in f's catalog; false at the first that fails. */
static bool create_tables(Fx *f, const char *const *ddl, int n)
{
    for (int i = 0; i < n; i++) {
        AstStmt *st = wsql_parse_statement(f->a, ddl[i], &f->err);
        if (!st) return false;
        WArena *ta = warena_new(0);
        WTable *t = wbind_create_table(&f->p, st, ta);
        if (!t) { warena_delete(ta); return false; }
        if (!wcatalog_add(&f->cat, t, &f->err)) return false;
    }
    return true;
}

/* The real planner: an unbounded GROUP BY into a blackhole sink (seed 001's agg step). */
WTEST(vertices_from_sql_group_by)
{
    Fx f;
    WCastCtx cast;
    fx_init_sql(&f, &cast);
    const char *ddl[] = {
        "CREATE TABLE orders (order_id BIGINT, user_id STRING, amount INT) WITH ('connector'='datagen')",
        "CREATE TABLE kv_sink (k STRING, v BIGINT) WITH ('connector'='blackhole')",
    };
    bool made = create_tables(&f, ddl, 2);
    CHECK(made);
    if (!made) { fx_free(&f); return; }
    AstStmt *ins = wsql_parse_statement(
        f.a, "INSERT INTO kv_sink SELECT user_id, CAST(SUM(amount) AS BIGINT) FROM orders WHERE amount > 1 GROUP BY user_id",
        &f.err);
    CHECK(ins != NULL);
    WRel *root = ins ? wbind_insert(&f.p, ins) : NULL;
    CHECK(root != NULL);
    if (root && wplan_build(&f.p, &root, 1)) {
        WJobGraph *jg = wjobgraph_build(&root, 1, &f.cfg);
        char *n = names(jg);
        CHECK_INT(jg->nvertices, 2);
        CHECK_INT(jg->nvertices, jg->nedges_non_forward + 1);
        CHECK(strncmp(n, "Source: orders[1] -> Calc[2] | GroupAggregate[4]", 48) == 0);
        /* Flink 2.3 runs a blackhole sink as a SinkV2 writer */
        CHECK(strstr(n, "kv_sink[") != NULL && strstr(n, "]: Writer") != NULL && strstr(n, "Sink: kv_sink") == NULL);
        wjobgraph_free(jg);
        free(n);
        wopts_set(&f.cfg, "pipeline.operator-chaining.enabled", "false");
        jg = wjobgraph_build(&root, 1, &f.cfg);
        CHECK_INT(jg->nvertices, jg->nops);
        CHECK(jg->nops >= 4);
        wjobgraph_free(jg);
        wopts_set(&f.cfg, "pipeline.operator-chaining.enabled", "true");
    } else {
        CHECK(!"planning failed");
    }
    /* a projection that repeats its input before the sink is no operator (Calcite removes it),
       and the sink's exec-node id is counted without it, as Flink 2.3 names the job's vertices */
    AstStmt *same = wsql_parse_statement(
        f.a, "INSERT INTO kv_sink SELECT user_id, COUNT(*) FROM orders WHERE amount > 1 GROUP BY user_id", &f.err);
    WRel *root2 = same ? wbind_insert(&f.p, same) : NULL;
    CHECK(root2 != NULL);
    if (root2 && wplan_build(&f.p, &root2, 1)) {
        WJobGraph *jg = wjobgraph_build(&root2, 1, &f.cfg);
        char *n = names(jg);
        CHECK_STR(n, "Source: orders[1] -> Calc[2] | GroupAggregate[4] -> kv_sink[5]: Writer");
        wjobgraph_free(jg);
        free(n);
        wopts_set(&f.cfg, "pipeline.operator-chaining.enabled", "false");
        jg = wjobgraph_build(&root2, 1, &f.cfg);
        CHECK_INT(jg->nvertices, 4);        /* source, Calc, GroupAggregate, sink: as Flink starts */
        wjobgraph_free(jg);
    } else {
        CHECK(!"planning failed");
    }
    fx_free(&f);
}

/* Which fields of a scan's ROW columns the plan reads (runtime/build.c, wjob_mark_scan_reads):
   through a computed column and watermark (a Calc passing the ROW through, a WatermarkAssigner)
   and the query's Calc, FIELD(bid, k) reads field k only; a ROW the sink writes whole is read
   whole; so is one a non-Calc node reads. */
#include "../../src/runtime/job_internal.h"

static const WRelScan *find_scan(const WRel *r)
{
    if (r->kind == WR_SCAN) return wrel_scan(r);
    for (int i = 0; i < r->ninputs; i++) {
        const WRelScan *s = find_scan(r->inputs[i]);
        if (s) return s;
    }
    return NULL;
}

/* The fields of ev.bid that insert reads; 0 when it could not be planned or the top-level
   marks are not the columns read (kind, info, bid: all three). */
static uint64_t bid_fields_read(Fx *f, const char *insert)
{
    AstStmt *ins = wsql_parse_statement(f->a, insert, &f->err);
    WRel *root = ins ? wbind_insert(&f->p, ins) : NULL;
    if (!root || !wplan_build(&f->p, &root, 1)) return 0;
    wjob_mark_scan_reads(&f->p, &root, 1);
    const WRelScan *sc = find_scan(root);
    if (!sc || !sc->field_reads || !sc->reads || !sc->reads[0] || !sc->reads[1] || !sc->reads[2]) return 0;
    return sc->field_reads[2];
}

WTEST(scan_field_reads_from_sql)
{
    Fx f;
    WCastCtx cast;
    fx_init_sql(&f, &cast);
    const char *ddl[] = {
        "CREATE TABLE ev (kind INT, info ROW<id BIGINT, t TIMESTAMP(3)>, "
        "bid ROW<item BIGINT, who STRING, price BIGINT, note STRING, t TIMESTAMP(3)>, "
        "ts AS CASE WHEN kind = 1 THEN info.t ELSE bid.t END, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) "
        "WITH ('connector'='filesystem', 'path'='/nonexistent', 'format'='json')",
        "CREATE TABLE out2 (a BIGINT, b BIGINT) WITH ('connector'='blackhole')",
        "CREATE TABLE out_row (r ROW<item BIGINT, who STRING, price BIGINT, note STRING, t TIMESTAMP(3)>) "
        "WITH ('connector'='blackhole')",
    };
    bool made = create_tables(&f, ddl, 3);
    CHECK(made);
    if (!made) { fx_free(&f); return; }
    /* item (0) and price (2) by the query, t (4) by the computed column */
    CHECK(bid_fields_read(&f, "INSERT INTO out2 SELECT bid.item, bid.price FROM ev WHERE kind = 2") ==
          ((1u << 0) | (1u << 2) | (1u << 4)));
    CHECK(bid_fields_read(&f, "INSERT INTO out2 SELECT bid.price, COUNT(*) FROM ev GROUP BY bid.price") ==
          ((1u << 2) | (1u << 4)));
    CHECK(bid_fields_read(&f, "INSERT INTO out_row SELECT bid FROM ev") == WREL_ALL_FIELDS);
    fx_free(&f);
}
