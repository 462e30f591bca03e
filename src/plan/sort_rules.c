/*
 * sort_rules.c — from LogicalSort (WR_SORT) to the physical sort nodes, as Flink decides:
 *   streaming  FETCH 0                          -> Values(tuples=[[]]) (PruneEmptyRules)
 *              no ORDER BY, LIMIT/OFFSET        -> Limit      (WR_SORT_LIMIT, nsort = 0)
 *              ORDER BY with LIMIT/OFFSET       -> SortLimit  (WR_SORT_LIMIT)
 *              ORDER BY time attribute ASC, ... -> TemporalSort
 *              any other ORDER BY               -> "Sort on a non-time-attribute field is not supported."
 *              OFFSET without FETCH             -> "FETCH is missed, ..." (Flink's translation error)
 *   batch      Sort, or SortLimit / Limit as a local (global=[false]) and a global node
 *              (all WR_SORT; the exchange between them is added by physical.c).
 * SortLimit and Limit are ranks over the whole input (Flink's StreamExecSortLimit/StreamExecLimit
 * extend StreamExecRank): rank range [offset + 1, offset + fetch]. See sort_rules.h.
 */
#include "sort_rules.h"

#include <stdint.h>
#include <string.h>
#include <strings.h>

bool wplan_is_batch(const WPlanCtx *p)
{
    const char *m = p->config ? wopts_get(p->config, "execution.runtime-mode") : NULL;
    return m && strcasecmp(m, "batch") == 0;
}

static WRel *empty_values(WPlanCtx *p, const WRel *like)
{
    WRel *v = wrel_new(p, WR_VALUES, 0);
    WRelValues *rv = wrel_values_mut(v);
    v->out = like->out;
    rv->nrows = 0;
    rv->rows = WA_ARRAY(p->arena, WDatum *, 1);
    rv->row_nulls = WA_ARRAY(p->arena, uint8_t *, 1);
    return v;
}

static bool is_empty_values(const WRel *r) { return r->kind == WR_VALUES && wrel_values(r)->nrows == 0; }

static WRel *streaming_sort(WPlanCtx *p, WRel *s)
{
    WRel *in = s->inputs[0];
    const WRelSort *so = wrel_sort(s);
    bool limited = so->fetch >= 0 || so->offset >= 0;
    if (!limited) {
        const WType *t = in->out.types[s->sort_cols[0]];
        if (t->time_attr == WTA_NONE || s->sort_desc[0]) {
            werr_set(p->err, WEXC_TABLE, "Sort on a non-time-attribute field is not supported.");
            return NULL;
        }
        WRel *ts = wa_memdup(p->arena, s, sizeof *s);
        ts->kind = WR_TEMPORAL_SORT;
        memset(&ts->payload, 0, sizeof ts->payload);    /* a TemporalSort has no payload */
        return ts;
    }
    if (so->fetch < 0) {
        werr_set(p->err, WEXC_TABLE, "FETCH is missed, which on streaming table is not supported currently.");
        return NULL;
    }
    WRel *l = wa_memdup(p->arena, s, sizeof *s);
    l->kind = WR_SORT_LIMIT;
    memset(&l->payload, 0, sizeof l->payload);     /* the Sort's payload is no rank's */
    WRelRank *lr = wrel_rank_mut(l);
    int64_t off = so->offset > 0 ? so->offset : 0;
    lr->func = WRANK_ROW_NUMBER;
    lr->start = off + 1;
    lr->end = so->fetch > INT64_MAX - off ? INT64_MAX : off + so->fetch;
    lr->output_number = false;
    l->nkeys = 0;
    l->keys = WA_ARRAY(p->arena, int, 1);
    return l;
}

static WRel *batch_sort(WPlanCtx *p, WRel *s)
{
    /* BatchPhysicalSortLimitRule / BatchPhysicalLimitRule: a local node limited to offset + fetch
       rows under the global one */
    const WRelSort *so = wrel_sort(s);
    if (so->fetch < 0) return s;
    WRel *local = wa_memdup(p->arena, s, sizeof *s);
    WRelSort *lo = wrel_sort_mut(local);
    int64_t off = so->offset > 0 ? so->offset : 0;
    lo->local = true;
    lo->offset = 0;
    lo->fetch = so->fetch > INT64_MAX - off ? INT64_MAX : off + so->fetch;
    local->inputs = WA_ARRAY(p->arena, WRel *, 1);
    local->inputs[0] = s->inputs[0];
    WRel *global = wa_memdup(p->arena, s, sizeof *s);
    global->inputs = WA_ARRAY(p->arena, WRel *, 1);
    global->inputs[0] = local;
    WRelSort *go = wrel_sort_mut(global);
    if (go->offset < 0) go->offset = 0;
    return global;
}

static WRel *rewrite(WPlanCtx *p, WRel *r, bool batch, int depth)
{
    if (depth > 500) return r;
    for (int i = 0; i < r->ninputs; i++) {
        r->inputs[i] = rewrite(p, r->inputs[i], batch, depth + 1);
        if (!r->inputs[i]) return NULL;
    }
    if (r->kind == WR_SORT) {
        if (wrel_sort(r)->fetch == 0) return empty_values(p, r);
        if (batch) return batch_sort(p, r);
        return streaming_sort(p, r);
    }
    /* a projection or filter of nothing is nothing */
    if (r->kind == WR_CALC && is_empty_values(r->inputs[0])) return empty_values(p, r);
    return r;
}

WRel *wplan_sort_rules(WPlanCtx *p, WRel *root)
{
    return rewrite(p, root, wplan_is_batch(p), 0);
}
