/*
 * test_reuse.c — sub-plan reuse (plan/reuse.c) on plans built by hand, with a digest hook that
 * names each node by its kind and table (so equal shapes have equal digests): which copies become
 * one node under Flink's SubplanReuser rules and the two options.
 */
#include "unit.h"
#include "../../src/plan/plan.h"
#include "../../src/common/arena.h"

#include <string.h>

typedef struct RFx {
    WArena *a;
    WPlanCtx p;
    WError err;
    WOptions cfg;
    const WRel *folded;         /* the node the hook reports as folded (a Calc pushed into its scan) */
} RFx;

static RFx *the_fx;

static bool digests(WPlanCtx *p, WRel **roots, int n, WRel **nodes, int nnodes, const char **out, bool *folded)
{
    (void)roots;
    (void)n;
    for (int i = 0; i < nnodes; i++) {
        const WRel *r = nodes[i];
        const WTable *t = r->kind == WR_SCAN ? wrel_scan(r)->table : wrel_is_sink(r->kind) ? wrel_sink(r)->table : NULL;
        out[i] = wa_sprintf(p->arena, "%s(%s)", wrel_kind_name(r->kind), t ? t->name : "");
        folded[i] = r == the_fx->folded;
    }
    return true;
}

static void rfx_init(RFx *f)
{
    memset(f, 0, sizeof *f);
    f->a = warena_new(0);
    werr_clear(&f->err);
    wopts_init(&f->cfg);
    f->p.arena = f->a;
    f->p.config = &f->cfg;
    f->p.err = &f->err;
    f->p.node_digests = digests;
    the_fx = f;
}

static void rfx_free(RFx *f)
{
    wopts_free(&f->cfg);
    warena_delete(f->a);
    the_fx = NULL;
}

static WRel *rnode(RFx *f, WRelKind k, WRel *a, WRel *b)
{
    WRel *r = wrel_new(&f->p, k, b ? 2 : a ? 1 : 0);
    if (a) r->inputs[0] = a;
    if (b) r->inputs[1] = b;
    r->out.n = 1;
    r->out.names = WA_ARRAY(f->a, const char *, 1);
    r->out.types = WA_ARRAY(f->a, const WType *, 1);
    r->out.names[0] = "c";
    r->out.types[0] = &WTYPE_BIGINT;
    return r;
}

static WRel *rscan(RFx *f, const char *table)
{
    WRel *r = rnode(f, WR_SCAN, NULL, NULL);
    WRelScan *sc = wrel_scan_mut(r);
    sc->table = WA_NEW(f->a, WTable);
    sc->table->name = wa_strdup(f->a, table);
    return r;
}

/* Join(Exchange(Scan t), Exchange(Scan t)) */
static WRel *self_join(RFx *f)
{
    return rnode(f, WR_JOIN, rnode(f, WR_EXCHANGE, rscan(f, "t"), NULL), rnode(f, WR_EXCHANGE, rscan(f, "t"), NULL));
}

WTEST(reuse_self_join_shares_exchange_and_scan)
{
    RFx f;
    rfx_init(&f);
    WRel *j = self_join(&f);
    CHECK(wplan_reuse(&f.p, &j, 1));
    CHECK(j->inputs[0] == j->inputs[1]);
    CHECK(j->inputs[0]->reused);
    CHECK(!j->inputs[0]->inputs[0]->reused);    /* the scan is under the shared exchange */
    rfx_free(&f);
}

WTEST(reuse_different_tables_not_shared)
{
    RFx f;
    rfx_init(&f);
    WRel *j = rnode(&f, WR_JOIN, rnode(&f, WR_EXCHANGE, rscan(&f, "t"), NULL), rnode(&f, WR_EXCHANGE, rscan(&f, "u"), NULL));
    CHECK(wplan_reuse(&f.p, &j, 1));
    CHECK(j->inputs[0] != j->inputs[1]);
    rfx_free(&f);
}

WTEST(reuse_options_off)
{
    RFx f;
    rfx_init(&f);
    /* no source reuse: neither the scan nor the exchange over it (through a folded Calc too) */
    wopts_set(&f.cfg, "table.optimizer.reuse-source-enabled", "false");
    WRel *j = self_join(&f);
    CHECK(wplan_reuse(&f.p, &j, 1));
    CHECK(j->inputs[0] != j->inputs[1]);
    CHECK(j->inputs[0]->inputs[0] != j->inputs[1]->inputs[0]);
    WRel *c1 = rnode(&f, WR_CALC, rscan(&f, "t"), NULL), *c2 = rnode(&f, WR_CALC, rscan(&f, "t"), NULL);
    f.folded = c1;
    WRel *k = rnode(&f, WR_JOIN, rnode(&f, WR_EXCHANGE, c1, NULL), rnode(&f, WR_EXCHANGE, c2, NULL));
    CHECK(wplan_reuse(&f.p, &k, 1));
    CHECK(k->inputs[0] != k->inputs[1]);
    /* ... but a node above a scan still is */
    WRel *u = rnode(&f, WR_UNION, rnode(&f, WR_GROUP_AGG, rnode(&f, WR_EXCHANGE, rscan(&f, "t"), NULL), NULL),
                    rnode(&f, WR_GROUP_AGG, rnode(&f, WR_EXCHANGE, rscan(&f, "t"), NULL), NULL));
    CHECK(wplan_reuse(&f.p, &u, 1));
    CHECK(u->inputs[0] == u->inputs[1]);
    /* no sub-plan reuse at all */
    wopts_set(&f.cfg, "table.optimizer.reuse-sub-plan-enabled", "false");
    wopts_set(&f.cfg, "table.optimizer.reuse-source-enabled", "true");
    WRel *v = self_join(&f);
    CHECK(wplan_reuse(&f.p, &v, 1));
    CHECK(v->inputs[0] != v->inputs[1]);
    rfx_free(&f);
}

WTEST(reuse_across_statement_set_sinks)
{
    RFx f;
    rfx_init(&f);
    /* two INSERTs into one table over equal sub-plans: the Calc is shared, the sinks never */
    WRel *roots[2];
    for (int i = 0; i < 2; i++) {
        roots[i] = rnode(&f, WR_SINK, rnode(&f, WR_CALC, rscan(&f, "t"), NULL), NULL);
        wrel_sink_mut(roots[i])->table = WA_NEW(f.a, WTable);
        wrel_sink(roots[i])->table->name = wa_strdup(f.a, "out");
    }
    CHECK(wplan_reuse(&f.p, roots, 2));
    CHECK(roots[0] != roots[1]);
    CHECK(roots[0]->inputs[0] == roots[1]->inputs[0]);
    CHECK(roots[0]->inputs[0]->reused);
    rfx_free(&f);
}
