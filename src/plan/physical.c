/*
 * physical.c — physical planning: the order of the rules (wplan_physical) and the bottom-up
 * derivation of changelog modes, unique keys, Exchange nodes before keyed operators, the
 * strategy of Rank (AppendFast / UpdateFast / Retract) and the state TTL of every stateful node
 * from table.exec.state.ttl, through each node kind's derive operation (its file in src/kinds/,
 * reached through wkinds_phys: plan_kinds.h). The rules live a file each (physical_internal.h
 * lists them). See plan.h.
 */
#include "physical_internal.h"
#include "plan_kinds.h"
#include "agg_rules.h"
#include "sort_rules.h"
#include "bind_unnest.h"
#include "over_rules.h"
#include "reduce.h"

#include <assert.h>
#include <stdint.h>

/* table.exec.mini-batch.enabled (validated when SET; a bad value reads as false here) */
bool phys_minibatch_enabled(WPlanCtx *p)
{
    bool on = false;
    WError err;
    werr_clear(&err);
    wopts_get_bool(p->config, "table.exec.mini-batch.enabled", false, &on, &err);
    return on;
}

void wphys_set_unique(WPlanCtx *p, WRel *r, int n, const int *cols)
{
    r->nunique = n;
    r->unique = ints(p, n);
    for (int i = 0; i < n; i++) r->unique[i] = cols[i];
}

/* Does Calc expression e pass input column col through unchanged or by an injective CAST? */
static bool keeps_column(const WExpr *e, int col)
{
    if (e->kind == WX_CAST && e->args[0]->kind == WX_COLUMN && e->args[0]->col == col)
        return wcast_injective(e->args[0]->type, e->type);
    return e->kind == WX_COLUMN && e->col == col;
}

/* Unique key through a Calc: every key column must be projected as a plain reference or through
   an injective CAST (Flink 2.3's FlinkRelMdUniqueKeys: a widened key stays the upsert key). */
void phys_calc_unique(WPlanCtx *p, WRel *c)
{
    WRel *in = c->inputs[0];
    c->nunique = -1;
    if (in->nunique < 0) return;
    int *m = ints(p, in->nunique);
    for (int k = 0; k < in->nunique; k++) {
        m[k] = -1;
        for (int i = 0; i < wrel_calc(c)->nexprs; i++)
            if (keeps_column(wrel_calc(c)->exprs[i], in->unique[k])) { m[k] = i; break; }
        if (m[k] < 0) return;
    }
    wphys_set_unique(p, c, in->nunique, m);
}

int64_t wphys_state_ttl(WPlanCtx *p)
{
    int64_t ttl = 0;
    WError tmp;
    werr_clear(&tmp);
    wopts_get_duration_ms(p->config, "table.exec.state.ttl", 0, &ttl, &tmp);
    return ttl;
}

WRel *wphys_exchange(WPlanCtx *p, WRel *in, int nkeys, const int *keys)
{
    WRel *x = wrel_new(p, WR_EXCHANGE, 1);
    x->inputs[0] = in;
    x->out = in->out;
    x->nkeys = nkeys;
    x->keys = (int *)keys;
    wrel_exchange_mut(x)->single = nkeys == 0;
    x->changelog = in->changelog;
    x->nunique = in->nunique;
    x->unique = in->unique;
    return x;
}

/* Flink takes UpdateFast only when the sort fields are monotonic, which in practice means an
   aggregate's results; a changelog from a source is not monotonic (Retract). */
static bool from_group_agg(const WRel *r)
{
    while (r->kind == WR_CALC || r->kind == WR_EXCHANGE) r = r->inputs[0];
    return r->kind == WR_GROUP_AGG;
}

/* Flink's modified monotonicity of an aggregate's output column: 0 constant (a group key),
   1 increasing (COUNT, MAX), -1 decreasing (MIN), 2 not monotonic. */
static int agg_col_monotonicity(const WRel *r, int col)
{
    while (r->kind == WR_CALC || r->kind == WR_EXCHANGE) {
        if (r->kind == WR_CALC) {
            if (col < 0 || col >= wrel_calc(r)->nexprs || wrel_calc(r)->exprs[col]->kind != WX_COLUMN) return 2;
            col = wrel_calc(r)->exprs[col]->col;
        }
        r = r->inputs[0];
    }
    if (r->kind != WR_GROUP_AGG) return 2;
    if (col < r->nkeys) return 0;
    int j = col - r->nkeys;
    const WRelAgg *ag = wrel_agg(r);
    if (j >= ag->naggs || ag->aggs[j].filter_col >= 0 || ag->aggs[j].distinct) return 2;
    switch (ag->aggs[j].kind) {
    case WAGG_COUNT: case WAGG_COUNT_STAR: case WAGG_MAX: return 1;
    case WAGG_MIN: return -1;
    default: return 2;
    }
}

/* UpdateFast needs every sort field to move only towards the top: DESC on increasing, ASC on
   decreasing (or constant) values (Flink's RankProcessStrategy). */
static bool sort_monotonic(const WRel *rank, const WRel *in)
{
    for (int i = 0; i < rank->nsort; i++) {
        int m = agg_col_monotonicity(in, rank->sort_cols[i]);
        if (m == 2 || (m == 1 && !rank->sort_desc[i]) || (m == -1 && rank->sort_desc[i])) return false;
    }
    return true;
}

/* Whether a (Calc/Exchange over a) GroupAggregate can emit -D: only when its input retracts
   (over an insert-only input a group's count never returns to zero; Flink's [I,UB,UA]). */
static bool agg_may_delete(const WRel *r)
{
    while (r->kind == WR_CALC || r->kind == WR_EXCHANGE) {
        if (r->kind == WR_CALC && wrel_calc(r)->cond) return true;    /* a filter turns updates into deletes */
        r = r->inputs[0];
    }
    return r->kind != WR_GROUP_AGG || r->input_retracts;
}

/* ---- changelog derivation per node kind: each sets r's modes, unique key, TTL and the exchanges
   below it (its inputs are derived already); returns the node that replaces r, NULL with p->err
   set when the plan cannot run ---- */

WRel *derive_forward(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r->changelog = in->changelog;
    r->nunique = in->nunique;
    r->unique = in->unique;
    return r;
}

/* Rank and SortLimit / Limit: modes, unique key and Flink's strategy */
WRel *derive_rank(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    WRelRank *rr = wrel_rank_mut(r);
    r->input_retracts = in->changelog != WCM_INSERT;
    r->changelog = ALL_KINDS;
    if (r->kind == WR_SORT_LIMIT) {
        /* Limit over an insert-only input only ever inserts (Flink: [I]) */
        if (!r->nsort && !r->input_retracts && !(in->changelog & WCM_UPDATE_AFTER)) r->changelog = WCM_INSERT;
    } else if (!rr->output_number && rr->end == 1) wphys_set_unique(p, r, r->nkeys, r->keys);
    else if (rr->output_number) {
        int *u = ints(p, r->nkeys + 1);
        for (int i = 0; i < r->nkeys; i++) u[i] = r->keys[i];
        u[r->nkeys] = rr->col;
        wphys_set_unique(p, r, r->nkeys + 1, u);
    }
    /* Flink's strategy choice */
    if (!r->input_retracts && !(in->changelog & WCM_UPDATE_AFTER)) rr->strategy = WRANK_APPEND_FAST;
    else if (in->nunique >= 0 && from_group_agg(in) && !agg_may_delete(in) && sort_monotonic(r, in))
        rr->strategy = WRANK_UPDATE_FAST;
    else rr->strategy = WRANK_RETRACT;
    /* Flink 2.1+ takes a ROW_NUMBER Top-1 without its rank column for a keep-first
       deduplication (its changelog inference asks RankUtil.isDeduplication, which does not
       check that the sort is on a time attribute): over an insert-only input, unless it sorts
       on one column descending or mini-batch is on, the rank is declared insert-only. It then
       sends a key's new first row as +U without -U, and operators downstream read the stream
       as insert-only (measured on Flink 2.3; docs/user-guide.md, Top-N). Streaming only: in
       batch mode Flink's batch Rank gives the final rows. */
    if (r->kind == WR_RANK && rr->func == WRANK_ROW_NUMBER && !rr->output_number && rr->start == 1 &&
        rr->end == 1 && in->changelog == WCM_INSERT && !(r->nsort == 1 && r->sort_desc[0]) &&
        !phys_minibatch_enabled(p) && !wplan_batch_mode(p))
        r->changelog = WCM_INSERT;
    r->ttl_ms = ttl;
    r->inputs[0] = wphys_exchange(p, in, r->nkeys, r->keys);
    return r;
}

/* IntervalJoin, TemporalJoin: insert-only, over insert-only inputs (the temporal join's right
   side may update but needs a primary key) */
WRel *derive_time_join(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    WRel *l = r->inputs[0], *rt = r->inputs[1];
    r->changelog = WCM_INSERT;
    if (r->kind == WR_INTERVAL_JOIN && (l->changelog != WCM_INSERT || rt->changelog != WCM_INSERT))
        return fail(p, WEXC_TABLE, "Interval join doesn't support consuming update and delete changes.");
    if (r->kind == WR_TEMPORAL_JOIN && l->changelog != WCM_INSERT)
        return fail(p, WEXC_TABLE, "Temporal join doesn't support consuming update and delete changes on its left side.");
    if (r->kind == WR_TEMPORAL_JOIN && rt->nunique < 0)
        return fail(p, WEXC_VALIDATION,
                    "Temporal Table Join requires primary key in versioned table, but no primary key can be found.");
    r->inputs[0] = wphys_exchange(p, l, r->nkeys, r->keys);
    r->inputs[1] = wphys_exchange(p, rt, r->nkeys, wrel_join(r)->right_keys);
    return r;
}

/* A node that emits what its (first) input emits, without a unique key (LookupJoin, Expand,
   the Correlates of UNNEST and of INTERSECT/EXCEPT ALL); a leaf emits inserts. */
WRel *derive_input_modes(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r->changelog = in ? in->changelog : WCM_INSERT;
    return r;
}

/* Bottom-up: modes, unique keys, ChangelogNormalize, exchanges, TTLs. */
static WRel *derive(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) {
        r->inputs[i] = derive(p, r->inputs[i]);
        if (!r->inputs[i]) return NULL;
    }
    int64_t ttl = wphys_state_ttl(p);
    WRel *in = r->ninputs ? r->inputs[0] : NULL;
    r->nunique = -1;
    assert((unsigned)r->kind < WR__COUNT);
    return wkinds_phys[r->kind]->derive(p, r, in, ttl);
}

WRel *wplan_physical(WPlanCtx *p, WRel *root)
{
    if (!wplan_check_changelog_sources(p, root, 0)) return NULL;     /* changelog_source.c */
    root = wplan_reduce(p, root);               /* reduce.c */
    root = wplan_prune_empty(p, root);          /* prune_empty.c */
    root = wplan_sort_rules(p, root);           /* sort_rules.c */
    if (!root) return NULL;
    root = wphys_rank_rules(p, root);
    if (!root) return NULL;
    root = wplan_correlate_rules(p, root);      /* bind_unnest.c */
    root = wphys_merge_join_filters(p, root);
    root = wplan_prune(p, root);                /* prune_rules.c */
    root = wphys_window_rules(p, root);
    if (!root) return NULL;
    root = wphys_join_keys(p, root);
    if (!root) return NULL;
    root = wagg_split_distinct(p, root);        /* agg_rules.c */
    root = derive(p, root);
    if (!root) return NULL;
    root = wphys_push_calc_past_normalize(p, root);
    root = wphys_sinks(p, root);
    if (!root) return NULL;
    wphys_require_ub(p, root);
    root = wphys_drop_unneeded_normalize(p, root);
    root = wphys_drop_source_ub(p, root);
    wphys_settle(p, root);
    root = wagg_window_two_phase(p, root);      /* agg_rules.c */
    return wagg_mini_batch(p, root);            /* agg_rules.c */
}
