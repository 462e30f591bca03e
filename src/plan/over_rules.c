/*
 * over_rules.c — the input of a batch OverAggregate, as Flink plans it:
 *   PARTITION BY k ORDER BY o   OverAggregate <- Sort(orderBy=[k ASC, o ..]) <- Exchange(hash[k])
 *   ORDER BY o                  OverAggregate <- Sort(orderBy=[o ..]) <- Exchange(single)
 *   PARTITION BY k              OverAggregate <- Sort(orderBy=[k ASC]) <- Exchange(hash[k])
 *   neither                     OverAggregate <- Exchange(single)
 * The Sort keeps the final rows of an updating input (a batch input's result is final), so the
 * OverAggregate sees inserts only; without a Sort the OverAggregate keeps them itself.
 * A ranking function without a filter on its result (no Top-N) is an OVER aggregation too:
 * in batch mode it becomes this OverAggregate; in streaming the streaming OverAggregate (ordered
 * ascending by one time attribute, UNBOUNDED PRECEDING: ROWS for ROW_NUMBER, RANGE otherwise).
 * See over_rules.h.
 */
#include "over_rules.h"
#include "over_window.h"
#include "sort_rules.h"

#include <string.h>

static WRel *exchange(WPlanCtx *p, WRel *in, int nkeys, int *keys)
{
    WRel *x = wrel_new(p, WR_EXCHANGE, 1);
    x->inputs[0] = in;
    x->out = in->out;
    x->nkeys = nkeys;
    x->keys = keys;
    wrel_exchange_mut(x)->single = nkeys == 0;
    x->changelog = in->changelog;
    x->nunique = in->nunique;
    x->unique = in->unique;
    return x;
}

void wover_batch_physical(WPlanCtx *p, WRel *r)
{
    WArena *a = p->arena;
    WRel *in = r->inputs[0];
    r->input_retracts = in->changelog != WCM_INSERT;
    r->changelog = WCM_INSERT;
    r->nunique = -1;
    WRel *x = exchange(p, in, r->nkeys, r->keys);
    int ns = r->nkeys + r->nsort;
    if (!ns) {
        r->inputs[0] = x;
        return;
    }
    WRel *s = wrel_new(p, WR_SORT, 1);
    s->inputs[0] = x;
    s->out = in->out;
    s->nsort = ns;
    s->sort_cols = WA_ARRAY(a, int, ns);
    s->sort_desc = WA_ARRAY(a, bool, ns);
    s->sort_nulls_first = WA_ARRAY(a, bool, ns);
    for (int i = 0; i < r->nkeys; i++) {
        s->sort_cols[i] = r->keys[i];
        s->sort_desc[i] = false;
        s->sort_nulls_first[i] = true;
    }
    for (int i = 0; i < r->nsort; i++) {
        s->sort_cols[r->nkeys + i] = r->sort_cols[i];
        s->sort_desc[r->nkeys + i] = r->sort_desc[i];
        s->sort_nulls_first[r->nkeys + i] = r->sort_nulls_first[i];
    }
    wrel_sort_mut(s)->offset = -1;
    wrel_sort_mut(s)->fetch = -1;
    s->input_retracts = in->changelog != WCM_INSERT;
    s->changelog = WCM_INSERT;
    s->nunique = -1;
    r->inputs[0] = s;
    r->input_retracts = false;
}

WRel *wover_rank_without_filter(WPlanCtx *p, WRel *r)
{
    static const WOverFn FN[] = {WOF_ROW_NUMBER, WOF_RANK, WOF_DENSE_RANK};
    if (!wplan_is_batch(p)) {
        /* Flink runs it as a streaming OverAggregate, which checks its window */
        const WRel *in = r->inputs[0];
        if (r->nsort != 1) {
            werr_set(p->err, WEXC_TABLE, "The window can only be ordered by a single time column.");
            return NULL;
        }
        if (r->sort_desc[0]) {
            werr_set(p->err, WEXC_TABLE, "The window can only be ordered in ASCENDING mode.");
            return NULL;
        }
        const WType *t = in->out.types[r->sort_cols[0]];
        if (!wtype_is_timestamp(t) || t->time_attr == WTA_NONE) {
            werr_set(p->err, WEXC_TABLE, "OVER windows' ordering in stream mode must be defined on a time attribute.");
            return NULL;
        }
    }
    WArena *a = p->arena;
    WOverSpec *spec = WA_NEW(a, WOverSpec);
    spec->nwindows = 1;
    spec->windows = WA_NEW(a, WOverWindow);
    WOverWindow *w = spec->windows;
    const WRelRank *rr = wrel_rank(r);
    int f = wrank_func_index(rr->func);
    w->rows = FN[f] == WOF_ROW_NUMBER;
    w->lower.kind = WOB_UNBOUNDED_PRECEDING;
    w->upper.kind = WOB_CURRENT_ROW;
    w->ncalls = 1;
    w->calls = WA_NEW(a, WOverCall);
    WOverCall *c = w->calls;
    c->fn = FN[f];
    c->arg = -1;
    c->default_col = -1;
    c->type = &WTYPE_BIGINT_NN;
    c->name = r->out.names[rr->col];
    c->args_text = "*";
    r->kind = WR_OVER_AGG;
    memset(&r->payload, 0, sizeof r->payload);     /* the rank payload becomes an empty aggregate
                                                      payload (rr is stale) */
    WRelOver *ro = wrel_over_mut(r);
    if (!wplan_is_batch(p)) {
        const WType *t = r->inputs[0]->out.types[r->sort_cols[0]];
        ro->stream = spec;
        r->time_col = r->sort_cols[0];
        ro->proctime = t->time_attr == WTA_PROCTIME;
        ro->rows = w->rows;
        ro->unbounded = true;
        ro->preceding = 0;
        wrel_agg_mut(r)->naggs = 0;
        return r;
    }
    ro->batch = spec;
    r->time_col = -1;
    return r;
}
