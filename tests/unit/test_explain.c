/*
 * test_explain.c — state TTL resolution (job default, STATE_TTL / JOIN_STATE_TTL hints, the
 * cascade rule, Flink's errors) on hand-built plans, and EXPLAIN / COMPILE PLAN through a session.
 */
#include "unit.h"
#include "../../src/plan/state_ttl.h"
#include "../../src/session/session.h"
#include "../../src/common/duration.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct TCtx {
    WArena *a;
    WOptions cfg;
    WError err;
    WPlanCtx p;
} TCtx;

static void tctx_init(TCtx *t, const char *ttl)
{
    memset(t, 0, sizeof *t);
    t->a = warena_new(0);
    wopts_init(&t->cfg);
    if (ttl) wopts_set(&t->cfg, "table.exec.state.ttl", ttl);
    werr_clear(&t->err);
    t->p.arena = t->a;
    t->p.config = &t->cfg;
    t->p.err = &t->err;
}

static void tctx_free(TCtx *t)
{
    wopts_free(&t->cfg);
    warena_delete(t->a);
}

static WRel *leaf(TCtx *t)
{
    WRel *r = WA_NEW(t->a, WRel);
    r->kind = WR_SCAN;
    return r;
}

static WRel *join(TCtx *t, WRel *l, const char *ln, WRel *r, const char *rn, AstHint *h, int nh)
{
    WRel *j = WA_NEW(t->a, WRel);
    j->kind = WR_JOIN;
    j->ninputs = 2;
    j->inputs = WA_ARRAY(t->a, WRel *, 2);
    j->inputs[0] = l;
    j->inputs[1] = r;
    j->left_name = ln;
    wrel_join_mut(j)->right_name = rn;
    j->hints = h;
    j->nhints = nh;
    return j;
}

static WRel *agg(TCtx *t, WRel *in, const char *name, AstHint *h, int nh)
{
    WRel *g = WA_NEW(t->a, WRel);
    g->kind = WR_GROUP_AGG;
    g->ninputs = 1;
    g->inputs = WA_ARRAY(t->a, WRel *, 1);
    g->inputs[0] = in;
    g->left_name = name;
    g->hints = h;
    g->nhints = nh;
    return g;
}

/* hint("STATE_TTL", "o", "1d", "p", "2h", NULL) */
static AstHint hint(TCtx *t, const char *name, ...)
{
    AstHint h;
    memset(&h, 0, sizeof h);
    h.name = wa_strdup(t->a, name);
    h.kv = true;
    h.opts = WA_ARRAY(t->a, AstHintOption, 16);
    va_list ap;
    va_start(ap, name);
    for (;;) {
        const char *k = va_arg(ap, const char *);
        if (!k) break;
        const char *v = va_arg(ap, const char *);
        h.opts[h.nopts].key = wa_strdup(t->a, k);
        h.opts[h.nopts].value = wa_strdup(t->a, v);
        h.nopts++;
    }
    va_end(ap);
    return h;
}

WTEST(ttl_default_applies_to_every_stateful_node)
{
    TCtx t;
    tctx_init(&t, "30 min");
    WRel *j = join(&t, leaf(&t), "o", leaf(&t), "p", NULL, 0);
    WRel *g = agg(&t, j, NULL, NULL, 0);
    CHECK(wstate_ttl_resolve(&t.p, g));
    CHECK_INT(g->ttl_ms, 30 * 60000);
    CHECK_INT(wrel_join(j)->ttl_left_ms, 30 * 60000);
    CHECK_INT(wrel_join(j)->ttl_right_ms, 30 * 60000);
    tctx_free(&t);

    tctx_init(&t, NULL);
    g = agg(&t, leaf(&t), "orders", NULL, 0);
    g->ttl_ms = 5;      /* whatever the planner left: the resolution decides */
    CHECK(wstate_ttl_resolve(&t.p, g));
    CHECK_INT(g->ttl_ms, 0);
    tctx_free(&t);
}

WTEST(ttl_join_hint_by_alias)
{
    TCtx t;
    tctx_init(&t, "30 min");
    AstHint *h = WA_ARRAY(t.a, AstHint, 1);
    h[0] = hint(&t, "STATE_TTL", "o", "1d", "p", "2h", NULL);
    WRel *j = join(&t, leaf(&t), "o", leaf(&t), "p", h, 1);
    CHECK(wstate_ttl_resolve(&t.p, j));
    CHECK_INT(wrel_join(j)->ttl_left_ms, 86400000);
    CHECK_INT(wrel_join(j)->ttl_right_ms, 2 * 3600000);
    tctx_free(&t);
}

WTEST(ttl_join_hint_one_side_keeps_default)
{
    TCtx t;
    tctx_init(&t, "30 min");
    AstHint *h = WA_ARRAY(t.a, AstHint, 1);
    h[0] = hint(&t, "state_ttl", "p", "2h", NULL);
    WRel *j = join(&t, leaf(&t), "o", leaf(&t), "p", h, 1);
    CHECK(wstate_ttl_resolve(&t.p, j));
    CHECK_INT(wrel_join(j)->ttl_left_ms, 30 * 60000);
    CHECK_INT(wrel_join(j)->ttl_right_ms, 2 * 3600000);
    WStateTtlHint *info = NULL;
    CHECK_INT(wstate_ttl_hints(&t.p, j, &info), 1);
    CHECK_STR(info[0].hint_name, "STATE_TTL");
    CHECK(info[0].left == NULL);
    CHECK_STR(info[0].right, "2h");
    tctx_free(&t);
}

WTEST(ttl_cascade_second_join_left_keeps_default)
{
    TCtx t;
    tctx_init(&t, "30 min");
    AstHint *h = WA_ARRAY(t.a, AstHint, 1);
    h[0] = hint(&t, "STATE_TTL", "o", "1d", "p", "2h", "u", "7d", NULL);
    WRel *inner = join(&t, leaf(&t), "o", leaf(&t), "p", h, 1);
    WRel *outer = join(&t, inner, NULL, leaf(&t), "u", h, 1);
    CHECK(wstate_ttl_resolve(&t.p, outer));
    CHECK_INT(wrel_join(inner)->ttl_left_ms, 86400000);
    CHECK_INT(wrel_join(inner)->ttl_right_ms, 7200000);
    CHECK_INT(wrel_join(outer)->ttl_left_ms, 1800000);
    CHECK_INT(wrel_join(outer)->ttl_right_ms, 7 * 86400000LL);
    WStateTtlHint *info = NULL;
    CHECK_INT(wstate_ttl_hints(&t.p, outer, &info), 2);
    CHECK(info[0].node == outer);
    CHECK(info[0].left_unnamed);
    CHECK(info[0].left == NULL);
    tctx_free(&t);
}

WTEST(ttl_unknown_keys_error_in_java_order)
{
    TCtx t;
    tctx_init(&t, NULL);
    AstHint *h = WA_ARRAY(t.a, AstHint, 1);
    h[0] = hint(&t, "STATE_TTL", "T6", "2d", "T5", "1d", "T1", "1d", NULL);
    WRel *j = join(&t, leaf(&t), "T1", leaf(&t), "T2", h, 1);
    CHECK(!wstate_ttl_resolve(&t.p, j));
    CHECK_STR(t.err.cls, WEXC_VALIDATION);
    CHECK_STR(t.err.msg, "The options of following hints cannot match the name of input tables or views: \n"
                         "`T5, T6` in `STATE_TTL`");
    tctx_free(&t);
}

WTEST(ttl_alias_required_when_given)
{
    TCtx t;
    tctx_init(&t, NULL);
    AstHint *h = WA_ARRAY(t.a, AstHint, 1);
    h[0] = hint(&t, "STATE_TTL", "orders", "1d", NULL);
    WRel *j = join(&t, leaf(&t), "o", leaf(&t), "p", h, 1);
    CHECK(!wstate_ttl_resolve(&t.p, j));
    CHECK_STR(t.err.msg, "The options of following hints cannot match the name of input tables or views: \n"
                         "`orders` in `STATE_TTL`");
    tctx_free(&t);
}

WTEST(ttl_empty_hint_is_an_assertion_error)
{
    TCtx t;
    tctx_init(&t, NULL);
    AstHint *h = WA_ARRAY(t.a, AstHint, 1);
    h[0] = hint(&t, "STATE_TTL", NULL);
    WRel *g = agg(&t, leaf(&t), "T1", h, 1);
    CHECK(!wstate_ttl_resolve(&t.p, g));
    CHECK_STR(t.err.cls, "java.lang.AssertionError");
    CHECK_STR(t.err.msg, "Invalid STATE_TTL hint, expecting at least one key-value options specified.");
    tctx_free(&t);
}

WTEST(ttl_aggregate_hint_and_precedence)
{
    TCtx t;
    tctx_init(&t, "1 h");
    AstHint *h = WA_ARRAY(t.a, AstHint, 2);
    /* within one hint the last value of a key wins; across hints the first hint wins */
    h[0] = hint(&t, "STATE_TTL", "T1", "2d", "T1", "8d", NULL);
    h[1] = hint(&t, "STATE_TTL", "T1", "1d", NULL);
    WRel *g = agg(&t, leaf(&t), "T1", h, 2);
    CHECK(wstate_ttl_resolve(&t.p, g));
    CHECK_INT(g->ttl_ms, 8 * 86400000LL);
    tctx_free(&t);

    tctx_init(&t, NULL);
    h = WA_ARRAY(t.a, AstHint, 2);
    h[0] = hint(&t, "STATE_TTL", "T2", "2d", "T3", "3d", NULL);
    h[1] = hint(&t, "STATE_TTL", "T1", "1d", "T2", "8d", NULL);
    WRel *j = join(&t, leaf(&t), "T1", leaf(&t), "T2", h, 2);
    WRel *j2 = join(&t, j, NULL, leaf(&t), "T3", h, 2);
    CHECK(wstate_ttl_resolve(&t.p, j2));
    CHECK_INT(wrel_join(j)->ttl_left_ms, 86400000);
    CHECK_INT(wrel_join(j)->ttl_right_ms, 2 * 86400000);
    CHECK_INT(wrel_join(j2)->ttl_left_ms, 0);
    CHECK_INT(wrel_join(j2)->ttl_right_ms, 3 * 86400000);
    tctx_free(&t);
}

WTEST(ttl_join_state_ttl_alias_for_joins_only)
{
    TCtx t;
    tctx_init(&t, NULL);
    AstHint *h = WA_ARRAY(t.a, AstHint, 1);
    h[0] = hint(&t, "JOIN_STATE_TTL", "o", "12h", "p", "90 min", NULL);
    WRel *j = join(&t, leaf(&t), "o", leaf(&t), "p", h, 1);
    CHECK(wstate_ttl_resolve(&t.p, j));
    CHECK_INT(wrel_join(j)->ttl_left_ms, 12 * 3600000);
    CHECK_INT(wrel_join(j)->ttl_right_ms, 90 * 60000);
    char buf[32];
    wduration_format(wrel_join(j)->ttl_right_ms, buf, sizeof buf);
    CHECK_STR(buf, "90 min");
    tctx_free(&t);

    tctx_init(&t, NULL);
    h = WA_ARRAY(t.a, AstHint, 1);
    h[0] = hint(&t, "JOIN_STATE_TTL", "orders", "1d", NULL);
    WRel *g = agg(&t, leaf(&t), "orders", h, 1);
    CHECK(!wstate_ttl_resolve(&t.p, g));
    CHECK_STR(t.err.msg, "The options of following hints cannot match the name of input tables or views: \n"
                         "`orders` in `JOIN_STATE_TTL`");
    tctx_free(&t);
}

WTEST(ttl_bad_duration_and_bad_default)
{
    TCtx t;
    tctx_init(&t, NULL);
    AstHint *h = WA_ARRAY(t.a, AstHint, 1);
    h[0] = hint(&t, "STATE_TTL", "o", "one day", NULL);
    WRel *j = join(&t, leaf(&t), "o", leaf(&t), "p", h, 1);
    CHECK(!wstate_ttl_resolve(&t.p, j));
    CHECK_STR(t.err.msg, "text does not start with a number");
    tctx_free(&t);

    tctx_init(&t, "5 fortnights");
    WRel *g = agg(&t, leaf(&t), "o", NULL, 0);
    CHECK(!wstate_ttl_resolve(&t.p, g));
    CHECK(t.err.set);
    tctx_free(&t);
}

WTEST(ttl_hint_does_not_reach_into_named_subquery)
{
    /* SELECT (hint STATE_TTL('T2'='2d')) ... FROM T1 JOIN (SELECT ... FROM T2 JOIN T3) TMP:
       the inner join belongs to another query block, so T2 names no input of a hinted node */
    TCtx t;
    tctx_init(&t, NULL);
    AstHint *h = WA_ARRAY(t.a, AstHint, 1);
    h[0] = hint(&t, "STATE_TTL", "T2", "2d", "T3", "3d", NULL);
    WRel *inner = join(&t, leaf(&t), "T2", leaf(&t), "T3", h, 1);
    WRel *outer = join(&t, leaf(&t), "T1", inner, "TMP", h, 1);
    CHECK(!wstate_ttl_resolve(&t.p, outer));
    CHECK_STR(t.err.msg, "The options of following hints cannot match the name of input tables or views: \n"
                         "`T2, T3` in `STATE_TTL`");
    CHECK_INT(wrel_join(inner)->ttl_left_ms, 0);
    tctx_free(&t);
}

WTEST(ttl_dotted_keys_match_by_suffix)
{
    TCtx t;
    tctx_init(&t, NULL);
    AstHint *h = WA_ARRAY(t.a, AstHint, 1);
    h[0] = hint(&t, "STATE_TTL", "default_database.orders", "4d", NULL);
    WRel *g = agg(&t, leaf(&t), "orders", h, 1);
    CHECK(wstate_ttl_resolve(&t.p, g));
    CHECK_INT(g->ttl_ms, 4 * 86400000LL);
    tctx_free(&t);
}

WTEST(ttl_java_hash_order)
{
    const char *keys[] = {"b", "a", "T6", "T5"};
    int idx[4];
    wstate_java_hash_order(keys, 4, idx);
    /* buckets: "a"=97->1, "b"=98->2, "T5"=2657->1, "T6"=2658->2; insertion order within a bucket */
    CHECK_STR(keys[idx[0]], "a");
    CHECK_STR(keys[idx[1]], "T5");
    CHECK_STR(keys[idx[2]], "b");
    CHECK_STR(keys[idx[3]], "T6");
}

/* ---- through a session ---- */

static char *run(WSession *s, const char *sql, WError *err)
{
    WStmtResult res;
    werr_clear(err);
    if (!wsession_execute(s, sql, NULL, &res, err)) return NULL;
    char *m = res.message ? strdup(res.message) : strdup("");
    wstmt_result_free(&res);
    return m;
}

WTEST(explain_and_compile_through_session)
{
    WSession *s = wsession_new(stdout);
    WError err;
    free(run(s, "CREATE TABLE o (id BIGINT, u BIGINT, amount BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '1')", &err));
    free(run(s, "CREATE TABLE p (id BIGINT, m STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '1')", &err));
    free(run(s, "CREATE TABLE k (k BIGINT, v BIGINT) WITH ('connector' = 'blackhole')", &err));
    char *txt = run(s, "EXPLAIN SELECT u, SUM(amount) FROM o WHERE amount > 10 GROUP BY u", &err);
    CHECK(txt != NULL);
    if (txt) {
        CHECK(strstr(txt, "== Abstract Syntax Tree ==\n") == txt);
        CHECK(strstr(txt, "GroupAggregate(groupBy=[u], select=[u, SUM(amount) AS EXPR$1])") != NULL);
        CHECK(strstr(txt, "Exchange(distribution=[hash[u]])") != NULL);
        CHECK(strstr(txt, "where=[>(amount, 10)]") != NULL);
        CHECK(strstr(txt, "where=[(amount > 10)]") != NULL);
    }
    free(txt);
    txt = run(s, "EXPLAIN CHANGELOG_MODE, PLAN_ADVICE SELECT u, COUNT(*) FROM o GROUP BY u", &err);
    CHECK(txt != NULL);
    if (txt) {
        CHECK(strstr(txt, "== Optimized Physical Plan With Advice ==") != NULL);
        CHECK(strstr(txt, "GroupAggregate(advice=[1], groupBy=[u], select=[u, COUNT(*) AS EXPR$1], changelogMode=[I,UA])") != NULL);   /* Flink 2.3: an EXPLAINed query needs no UPDATE_BEFORE */
        CHECK(strstr(txt, "advice[1]: [ADVICE] You might want to enable local-global two-phase optimization by "
                          "configuring ('table.exec.mini-batch.enabled' to 'true', 'table.exec.mini-batch.allow-latency' "
                          "to a positive long value, 'table.exec.mini-batch.size' to a positive long value).\n") != NULL);
    }
    free(txt);
    char path[64];
    snprintf(path, sizeof path, "/tmp/weir-unit-plan-%d.json", (int)getpid());
    unlink(path);
    free(run(s, "SET 'table.exec.state.ttl' = '90 min'", &err));
    char sql[512];
    snprintf(sql, sizeof sql, "COMPILE PLAN '%s' FOR INSERT INTO k SELECT /*+ STATE_TTL('x' = '1d') */ x.u, y.id "
                              "FROM o x JOIN p y ON x.id = y.id", path);
    txt = run(s, sql, &err);
    CHECK(txt != NULL);
    free(txt);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (f) {
        char buf[65536];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = 0;
        fclose(f);
        CHECK(strstr(buf, "\"flinkVersion\" : \"2.3\"") != NULL);  /* FLINK_VERSION major.minor */
        CHECK(strstr(buf, "\"ttl\" : \"1 d\",\n      \"name\" : \"leftState\"") != NULL);
        CHECK(strstr(buf, "\"ttl\" : \"90 min\",\n      \"name\" : \"rightState\"") != NULL);
    }
    /* a second COMPILE PLAN to the same file fails */
    txt = run(s, sql, &err);
    CHECK(txt == NULL);
    CHECK(strstr(err.msg, "Cannot overwrite the plan file") == err.msg);
    unlink(path);
    /* an unknown hint key is Flink's validation error */
    txt = run(s, "EXPLAIN SELECT /*+ STATE_TTL('o' = '1d', 'q' = '1d') */ o.u FROM o JOIN p ON o.id = p.id", &err);
    CHECK(txt == NULL);
    CHECK_STR(err.msg, "The options of following hints cannot match the name of input tables or views: \n"
                       "`q` in `STATE_TTL`");
    free(txt);
    wsession_free(s);
}

/* Connector options are validated while planning (Flink's FactoryUtil in the planner): EXPLAIN of
   a query and of an INSERT fails with the connector's message, wrapped as Flink wraps it (the
   gateway's chain); sources before sinks; a good table still explains. */
WTEST(explain_validates_connector_options)
{
    WSession *s = wsession_new(stdout);
    WError err;
    free(run(s, "CREATE TABLE g (a INT) WITH ('connector' = 'datagen', 'sink.parallelism' = '2')", &err));
    free(run(s, "CREATE TABLE ok (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1')", &err));
    free(run(s, "CREATE TABLE pr (a INT) WITH ('connector' = 'print', 'standard-error' = 'maybe')", &err));
    char *txt = run(s, "EXPLAIN SELECT a FROM g", &err);
    CHECK(txt == NULL);
    free(txt);
    CHECK_STR(err.cls, WEXC_VALIDATION);
    CHECK(strncmp(err.msg, "Unsupported options found for 'datagen'.\n\nUnsupported options:\n\nsink.parallelism\n", 64) == 0);
    CHECK_STR(err.outer, "org.apache.flink.table.api.ValidationException: Unable to create a source for reading table "
                         "'default_catalog.default_database.g'.");
    txt = run(s, "EXPLAIN INSERT INTO pr SELECT a FROM ok", &err);
    CHECK(txt == NULL);
    free(txt);
    CHECK_STR(err.cls, WEXC_ILLEGAL_ARG);
    CHECK_STR(err.msg, "Unrecognized option for boolean: maybe. Expected either true or false(case insensitive)");
    CHECK_STR(err.outer, "org.apache.flink.table.api.ValidationException: Unable to create a sink for writing table "
                         "'default_catalog.default_database.pr'.");
    txt = run(s, "EXPLAIN INSERT INTO pr SELECT a FROM g", &err);     /* the source first */
    CHECK(txt == NULL);
    free(txt);
    CHECK(strstr(err.outer, "Unable to create a source for reading table 'default_catalog.default_database.g'.") != NULL);
    txt = run(s, "EXPLAIN SELECT a FROM ok", &err);
    CHECK(txt != NULL);
    free(txt);
    wsession_free(s);
}
