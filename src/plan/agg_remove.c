/*
 * agg_remove.c — Flink's FlinkAggregateRemoveRule: a GroupAggregate grouped by a unique key of
 * its input whose calls are SUM / MIN / MAX of one column becomes a Calc. Called by the changelog
 * derivation (physical.c) once the input's unique key is known. See physical_internal.h.
 */
#include "physical_internal.h"

#include <assert.h>

/* Whether output column col of r reaches down to where its uniqueness comes from (a source's
   key, an aggregate's grouping) through column references only. Flink's column uniqueness
   (FlinkRelMdColumnUniqueness, which the rule asks) does not pass a Calc's CAST, not even a
   widening one: GROUP BY CAST(id AS BIGINT) over a primary key id keeps its GroupAggregate, where
   the upsert key (phys_calc_unique) passes injective casts. */
static bool unique_by_reference(const WRel *r, int col, int depth)
{
    if (depth > 64 || col < 0 || col >= r->out.n) return false;
    switch (r->kind) {
    case WR_CALC: {
        const WExpr *e = wrel_calc(r)->exprs[col];
        return e->kind == WX_COLUMN && unique_by_reference(r->inputs[0], e->col, depth + 1);
    }
    case WR_JOIN: {
        const WRel *l = r->inputs[0];
        if (col < l->out.n) return unique_by_reference(l, col, depth + 1);
        return unique_by_reference(r->inputs[1], col - l->out.n, depth + 1);
    }
    case WR_EXCHANGE: case WR_DROP_UPDATE_BEFORE: case WR_WATERMARK: case WR_CHANGELOG_NORMALIZE:
        return r->ninputs == 1 && r->inputs[0]->out.n == r->out.n && unique_by_reference(r->inputs[0], col, depth + 1);
    default:
        return true;
    }
}

/* FlinkAggregateRemoveRule: a group aggregate (one grouping set, at least one key) whose keys
   contain a unique key of its input and whose calls are all SUM, MIN or MAX of one column without
   FILTER computes nothing: each group is one row. It becomes a Calc projecting the keys and the
   arguments (cast to the aggregate's result types), so an update of the input stays an update
   (Flink 2.3 plans no GroupAggregate there). NULL when the rule does not apply. */
WRel *wphys_remove_unique_agg(WPlanCtx *p, WRel *agg, WRel *in)
{
    const WRelAgg *ag = wrel_agg(agg);
    if (agg->nkeys == 0 || in->nunique < 0 || ag->partial_final != WPF_NONE) return NULL;
    for (int j = 0; j < ag->naggs; j++) {
        const WAggCall *a = &ag->aggs[j];
        if ((a->kind != WAGG_SUM && a->kind != WAGG_MIN && a->kind != WAGG_MAX) || a->filter_col >= 0 ||
            a->nargs != 1)
            return NULL;
    }
    for (int u = 0; u < in->nunique; u++) {
        bool grouped = false;
        for (int k = 0; k < agg->nkeys && !grouped; k++) grouped = agg->keys[k] == in->unique[u];
        if (!grouped || !unique_by_reference(in, in->unique[u], 0)) return NULL;
    }
    int n = agg->nkeys + ag->naggs;
    assert(n == agg->out.n);
    WRel *c = wrel_new(p, WR_CALC, 1);
    WRelCalc *cc = wrel_calc_mut(c);
    c->inputs[0] = in;
    c->out = agg->out;
    cc->nexprs = n;
    cc->exprs = WA_ARRAY(p->arena, WExpr *, n);
    cc->agg_removed = true;
    for (int i = 0; i < n; i++) {
        int col = i < agg->nkeys ? agg->keys[i] : ag->aggs[i - agg->nkeys].args[0];
        WExpr *e = wexpr_column(p->arena, col, in->out.types[col], in->out.names[col]);
        if (!wtype_equals(e->type, agg->out.types[i], true)) {
            WExpr *cast = wexpr_new(p->arena, WX_CAST, agg->out.types[i], 1);
            cast->args[0] = e;
            e = cast;
        }
        e->name = agg->out.names[i];
        cc->exprs[i] = e;
    }
    return wplan_simplify_calc(p, c);
}
