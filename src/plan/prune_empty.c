/*
 * prune_empty.c — Flink's constant-condition reduction and empty-input pruning (Calcite's
 * ReduceExpressionsRule on filters and PruneEmptyRules), which change what a query returns:
 *
 *   - a Calc whose condition is a constant FALSE or NULL (WHERE FALSE, WHERE 1 > 2,
 *     WHERE NOT TRUE IS TRUE) becomes an empty Values (Values(tuples=[[]]));
 *   - a Calc, a grouped aggregate, an inner/semi join or a left join's left side over an empty
 *     Values is empty too; a Union drops its empty inputs;
 *   - an aggregate without grouping keys over an empty Values becomes a one-row Values of the
 *     aggregates' results for no rows (COUNT = 0, the others NULL) when all its calls are COUNT,
 *     SUM, MIN, MAX or AVG: Flink then emits that row, in streaming as in batch (measured on Flink
 *     2.3), where a global aggregate over a source that happens to be empty (or with another call
 *     over the empty Values) emits nothing.
 *
 * Shared nodes are copied, never changed in place. May call plan.h, expr/, types/, common/.
 */
#include "plan.h"

#include <assert.h>
#include <string.h>

typedef struct Done {
    const WRel *from;
    WRel *to;
} Done;

typedef struct Pruner {
    WPlanCtx *p;
    Done *done;
    int ndone, cap;
} Pruner;

static bool is_empty(const WRel *r)
{
    return r->kind == WR_VALUES && wrel_values(r)->nrows == 0 && r->ninputs == 0;
}

static WRel *values_like(WPlanCtx *p, const WRel *shape, int nrows)
{
    WRel *v = wrel_new(p, WR_VALUES, 0);
    WRelValues *rv = wrel_values_mut(v);
    v->out = shape->out;
    rv->nrows = nrows;
    rv->rows = WA_ARRAY(p->arena, WDatum *, nrows ? nrows : 1);
    rv->row_nulls = WA_ARRAY(p->arena, uint8_t *, nrows ? nrows : 1);
    return v;
}

/* A constant condition is reduced whatever its literals' types (measured on Flink 2.3: DATE, TIME,
   TIMESTAMP and string comparisons, IN lists, LIKE and functions of literals are folded as numbers
   and booleans are); non-deterministic calls are not constants (wexpr_is_const).
   The constant value of a condition: 1 TRUE, 0 FALSE or NULL, -1 not a constant. */
static int const_cond(WPlanCtx *p, const WExpr *cond)
{
    if (!cond || !wexpr_is_const(cond)) return -1;
    WEvalCtx ec = {.arena = p->arena, .err = NULL};
    if (p->cast) ec.cast = *p->cast;
    WDatum v;
    bool isnull = false;
    if (!wexpr_eval_const(&ec, cond, &v, &isnull)) return -1;
    return !isnull && v.i ? 1 : 0;
}

/* Calcite's AggregateValuesRule knows the result over no rows of COUNT, $SUM0, SUM, MIN and MAX
   only (AVG too, which Flink has split into SUM / COUNT by then); with any other call (LISTAGG,
   FIRST_VALUE, STDDEV_POP, ...) the aggregate stays over the empty input (measured on Flink 2.3). */
static bool reducible_on_empty(const WRel *agg)
{
    const WRelAgg *ag = wrel_agg(agg);
    for (int i = 0; i < ag->naggs; i++) {
        switch (ag->aggs[i].kind) {
        case WAGG_COUNT_STAR: case WAGG_COUNT: case WAGG_SUM: case WAGG_SUM0: case WAGG_MIN: case WAGG_MAX:
        case WAGG_AVG:
            break;
        default:
            return false;
        }
    }
    return true;
}

/* the one row of an aggregate without keys over no rows */
static WRel *empty_aggregate_row(WPlanCtx *p, const WRel *agg)
{
    WRel *v = values_like(p, agg, 1);
    WRelValues *rv = wrel_values_mut(v);
    int n = agg->out.n;
    rv->rows[0] = WA_ARRAY(p->arena, WDatum, n ? n : 1);
    rv->row_nulls[0] = WA_ARRAY(p->arena, uint8_t, n ? n : 1);
    memset(rv->rows[0], 0, sizeof(WDatum) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        WAggKind k = wrel_agg(agg)->aggs[i].kind;
        bool zero = k == WAGG_COUNT || k == WAGG_COUNT_STAR || k == WAGG_SUM0;
        rv->row_nulls[0][i] = !zero;     /* a zero of the result type: COUNT's BIGINT 0, $SUM0's 0 */
    }
    return v;
}

static WRel *prune(Pruner *pr, WRel *r);

static WRel *rewrite(Pruner *pr, WRel *r)
{
    WPlanCtx *p = pr->p;
    WRel *in[8];
    int n = r->ninputs;
    if (n > 8) return r;
    bool changed = false;
    for (int i = 0; i < n; i++) {
        in[i] = prune(pr, r->inputs[i]);
        if (in[i] != r->inputs[i]) changed = true;
    }
    if (changed) {
        WRel *c = wa_memdup(p->arena, r, sizeof *r);
        c->inputs = WA_ARRAY(p->arena, WRel *, n);
        for (int i = 0; i < n; i++) c->inputs[i] = in[i];
        r = c;
    }
    switch (r->kind) {
    case WR_CALC:
        if (is_empty(r->inputs[0]) || const_cond(p, wrel_calc(r)->cond) == 0) return values_like(p, r, 0);
        return r;
    case WR_GROUP_AGG:
        if (!is_empty(r->inputs[0])) return r;
        if (r->nkeys > 0) return values_like(p, r, 0);
        if (r->out.n == wrel_agg(r)->naggs && reducible_on_empty(r)) return empty_aggregate_row(p, r);
        return r;       /* runs over no rows: a streaming global aggregate then emits nothing */
    case WR_JOIN: {
        const WRelJoin *rj = wrel_join(r);
        if (rj->anti) return is_empty(r->inputs[0]) ? values_like(p, r, 0) : r;
        if ((rj->type == AJ_INNER || rj->type == AJ_CROSS || rj->type == AJ_COMMA || rj->semi) &&
            (is_empty(r->inputs[0]) || is_empty(r->inputs[1])))
            return values_like(p, r, 0);
        if (rj->type == AJ_LEFT && is_empty(r->inputs[0])) return values_like(p, r, 0);
        if (rj->type == AJ_RIGHT && is_empty(r->inputs[1])) return values_like(p, r, 0);
        return r;
    }
    case WR_UNION: {
        int keep = 0;
        for (int i = 0; i < n; i++) keep += !is_empty(r->inputs[i]);
        if (keep == n) return r;
        if (keep == 0) return values_like(p, r, 0);
        if (keep == 1)
            for (int i = 0; i < n; i++)
                if (!is_empty(r->inputs[i]) && r->inputs[i]->out.n == r->out.n) return r->inputs[i];
        WRel *u = wa_memdup(p->arena, r, sizeof *r);
        u->inputs = WA_ARRAY(p->arena, WRel *, keep);
        u->ninputs = 0;
        for (int i = 0; i < n; i++) if (!is_empty(r->inputs[i])) u->inputs[u->ninputs++] = r->inputs[i];
        assert(u->ninputs == keep);
        return u;
    }
    default:
        return r;
    }
}

static WRel *prune(Pruner *pr, WRel *r)
{
    for (int i = 0; i < pr->ndone; i++) if (pr->done[i].from == r) return pr->done[i].to;
    WRel *out = rewrite(pr, r);
    if (pr->ndone == pr->cap) {
        pr->cap = pr->cap ? 2 * pr->cap : 64;
        Done *d = WA_ARRAY(pr->p->arena, Done, pr->cap);
        if (pr->ndone) memcpy(d, pr->done, sizeof(Done) * (size_t)pr->ndone);
        pr->done = d;
    }
    pr->done[pr->ndone++] = (Done){r, out};
    return out;
}

WRel *wplan_prune_empty(WPlanCtx *p, WRel *root)
{
    Pruner pr = {.p = p};
    return prune(&pr, root);
}
