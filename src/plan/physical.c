/*
 * physical.c — physical planning: the order of the rules (wplan_physical) and the bottom-up
 * derivation of changelog modes, unique keys, Exchange nodes before keyed operators, the
 * strategy of Rank (AppendFast / UpdateFast / Retract) and the state TTL of every stateful node
 * from table.exec.state.ttl, one derive operation per node kind (PHYS_KIND_OPS; checked by
 * wplan_check_kind_ops). The rules live a file each (physical_internal.h lists them). See plan.h.
 */
#include "physical_internal.h"
#include "agg_rules.h"
#include "sort_rules.h"
#include "bind_unnest.h"
#include "over_rules.h"
#include "reduce.h"

#include <assert.h>
#include <stdint.h>

/* table.exec.mini-batch.enabled (validated when SET; a bad value reads as false here) */
static bool minibatch_enabled(WPlanCtx *p)
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
static void calc_unique(WPlanCtx *p, WRel *c)
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

static WRel *derive_scan(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    return wphys_derive_scan(p, r, ttl);      /* changelog_source.c */
}

static WRel *derive_values(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r->changelog = WCM_INSERT;
    return r;
}

static WRel *derive_calc(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    if (in->kind == WR_CALC && wrel_calc(in)->agg_removed) {
        r = wplan_simplify_calc(p, r);      /* as Flink's CalcMerge after the removal */
        in = r->inputs[0];
    }
    r->changelog = in->changelog;
    calc_unique(p, r);
    return r;
}

static WRel *derive_forward(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r->changelog = in->changelog;
    r->nunique = in->nunique;
    r->unique = in->unique;
    return r;
}

static WRel *derive_union(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r->changelog = 0;
    for (int i = 0; i < r->ninputs; i++) r->changelog |= r->inputs[i]->changelog;
    return r;
}

static WRel *derive_group_agg(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r = wrel_cast_mut(r, WR_GROUP_AGG);
    WRel *removed = wphys_remove_unique_agg(p, r, in);
    if (removed) {
        r = removed;
        r->changelog = r->inputs[0]->changelog;
        calc_unique(p, r);
        return r;
    }
    r->input_retracts = (in->changelog & (WCM_UPDATE_BEFORE | WCM_DELETE)) != 0 ||
                        (in->changelog & WCM_UPDATE_AFTER);
    /* Flink's ModifyKindSet of a GroupAggregate: inserts and updates, deletes only when the
       input updates or deletes (a group's count never returns to zero otherwise). The
       two-phase and incremental rewrites run later and keep it: a FINAL aggregate of a
       split distinct reads the partial aggregate's updates, so it declares deletes too. */
    r->changelog = (uint8_t)(WCM_INSERT | WCM_UPDATE_BEFORE | WCM_UPDATE_AFTER |
                             (r->input_retracts ? WCM_DELETE : 0));
    int *k = ints(p, r->nkeys);
    for (int i = 0; i < r->nkeys; i++) k[i] = i;
    wphys_set_unique(p, r, r->nkeys, k);
    r->ttl_ms = ttl;
    r->inputs[0] = wphys_exchange(p, in, r->nkeys, r->keys);
    return r;
}

static WRel *derive_join(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    WRelJoin *rj = wrel_join_mut(r);
    r = wrel_cast_mut(r, WR_JOIN);
    WRel *l = r->inputs[0], *rt = r->inputs[1];
    r->input_retracts = l->changelog != WCM_INSERT;
    rj->right_retracts = rt->changelog != WCM_INSERT;
    bool outer = rj->type != AJ_INNER || rj->anti;
    /* Flink's ModifyKindSet of an inner join: the union of its inputs' (the runtime forwards
       the input row's kind); outer and anti joins may produce every kind */
    r->changelog = outer ? ALL_KINDS : (uint8_t)(l->changelog | rt->changelog);
    if (rj->semi || rj->anti) {
        r->nunique = l->nunique;
        r->unique = l->unique;
        if (rj->anti || r->input_retracts || rj->right_retracts) r->changelog = ALL_KINDS;
        else r->changelog = ALL_KINDS;   /* semi joins retract when the match disappears */
    } else if (l->nunique >= 0 && rt->nunique >= 0) {
        int n = l->nunique + rt->nunique;
        int *u = ints(p, n);
        for (int i = 0; i < l->nunique; i++) u[i] = l->unique[i];
        for (int i = 0; i < rt->nunique; i++) u[l->nunique + i] = l->out.n + rt->unique[i];
        wphys_set_unique(p, r, n, u);
    }
    if (rj->semi && !r->input_retracts && !rj->right_retracts) r->changelog = WCM_INSERT;
    r->ttl_ms = ttl;
    rj->ttl_left_ms = ttl;
    rj->ttl_right_ms = ttl;
    r->inputs[0] = wphys_exchange(p, l, r->nkeys, r->keys);
    r->inputs[1] = wphys_exchange(p, rt, r->nkeys, rj->right_keys);
    return r;
}

static WRel *derive_dedup(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r = wrel_cast_mut(r, WR_DEDUP);
    r->input_retracts = in->changelog != WCM_INSERT;
    /* keep-first over an insert-only input only ever inserts; on rowtime the earliest row waits
       for the watermark (Flink 2.3: outputInsertOnly=[true] for proctime and rowtime alike),
       except under mini-batch, where Flink's rowtime dedup emits each batch's first row and
       updates it when a later batch brings an earlier one */
    const WRelRank *rr = wrel_rank(r);
    bool insert_only = !rr->keep_last && !r->input_retracts && !(rr->dedup_rowtime && minibatch_enabled(p));
    r->changelog = insert_only ? WCM_INSERT : ALL_KINDS;
    wphys_set_unique(p, r, r->nkeys, r->keys);
    r->ttl_ms = ttl;
    r->inputs[0] = wphys_exchange(p, in, r->nkeys, r->keys);
    return r;
}

/* Rank and SortLimit / Limit: modes, unique key and Flink's strategy */
static WRel *derive_rank(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
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
        !minibatch_enabled(p) && !wplan_batch_mode(p))
        r->changelog = WCM_INSERT;
    r->ttl_ms = ttl;
    r->inputs[0] = wphys_exchange(p, in, r->nkeys, r->keys);
    return r;
}

static WRel *derive_sink(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r->changelog = in->changelog;
    return r;
}

static WRel *derive_sort(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    /* batch: the final rows, sorted, once the input ended */
    r->input_retracts = in->changelog != WCM_INSERT;
    r->changelog = WCM_INSERT;
    if (!wrel_sort(r)->local) r->inputs[0] = wphys_exchange(p, in, 0, NULL);
    return r;
}

static WRel *derive_match(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    /* StreamPhysicalMatchRule: a hash exchange on the partition keys */
    if (in->changelog != WCM_INSERT)
        return fail(p, WEXC_TABLE, "Match doesn't support consuming update and delete changes.");
    r->changelog = WCM_INSERT;
    r->inputs[0] = wphys_exchange(p, in, r->nkeys, r->keys);
    return r;
}

static WRel *derive_temporal_sort(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    if (in->changelog != WCM_INSERT)
        return fail(p, WEXC_TABLE, "TemporalSort doesn't support consuming update and delete changes.");
    r->changelog = WCM_INSERT;
    r->inputs[0] = wphys_exchange(p, in, 0, NULL);
    return r;
}

static WRel *derive_window_tvf(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    const WRelWindow *rw = wrel_window(r);
    r->changelog = in->changelog;
    /* as Flink's StreamPhysicalWindowTableFunction: a SESSION window table function needs
       all rows of a partition in one place, hashed by its partition keys (single without) */
    if (rw->kind == WWIN_SESSION && !rw->legacy)
        r->inputs[0] = wphys_exchange(p, in, rw->npartition, rw->partition);
    return r;
}

static WRel *derive_over_agg(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    if (wrel_over(r)->batch) {  /* batch: Sort + Exchange below (over_rules.c) */
        wover_batch_physical(p, r);
        return r;
    }
    if (in->changelog != WCM_INSERT)
        return fail(p, WEXC_TABLE, "OverAggregate doesn't support consuming update and delete changes.");
    r->changelog = WCM_INSERT;
    r->inputs[0] = wphys_exchange(p, in, r->nkeys, r->keys);
    return r;
}

/* IntervalJoin, TemporalJoin: insert-only, over insert-only inputs (the temporal join's right
   side may update but needs a primary key) */
static WRel *derive_time_join(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
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

static WRel *derive_window_join(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    WRel *l = r->inputs[0], *rt = r->inputs[1];
    r->changelog = WCM_INSERT;
    /* as Flink's WindowJoin: hash by the join keys without the window columns (state is keyed
       the same way), single when there are none */
    r->inputs[0] = wphys_exchange(p, l, r->nkeys, r->keys);
    r->inputs[1] = wphys_exchange(p, rt, r->nkeys, wrel_join(r)->right_keys);
    return r;
}

static WRel *derive_window_agg(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r = wrel_cast_mut(r, WR_WINDOW_AGG);
    r->changelog = WCM_INSERT;
    r->input_retracts = in->changelog != WCM_INSERT;
    int nk = r->nkeys + 2;
    int *u = ints(p, nk);
    for (int i = 0; i < r->nkeys; i++) u[i] = i;
    u[r->nkeys] = wrel_window(r)->out_start;
    u[r->nkeys + 1] = wrel_window(r)->out_end;
    wphys_set_unique(p, r, nk, u);
    r->inputs[0] = wphys_exchange(p, in, r->nkeys, r->keys);
    return r;
}

static WRel *derive_window_rank(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r->changelog = WCM_INSERT;
    /* as Flink's WindowRank: hash by the partition keys without the window columns, single
       when there are none */
    r->inputs[0] = wphys_exchange(p, in, r->nkeys, r->keys);
    return r;
}

/* A node that emits what its (first) input emits, without a unique key (LookupJoin, Expand,
   the Correlates of UNNEST and of INTERSECT/EXCEPT ALL); a leaf emits inserts. */
static WRel *derive_input_modes(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r->changelog = in ? in->changelog : WCM_INSERT;
    return r;
}

/* Kinds the rules make after this derivation (ChangelogNormalize: the scan's derivation;
   SinkUpsertMaterializer: wphys_sinks; MiniBatchAssigner and the two-phase aggregates:
   agg_rules.c) or before it replace (OverRank: the rank rule): not applicable here; derived as a
   node over its input's modes, as before the table. */
#define DERIVE_MADE_LATER derive_input_modes

/* The physical-planning operations of each node kind. A kind added to WRelKind needs its row here
   (wplan_check_kind_ops fails otherwise). */
typedef struct PhysKindOps {
    WRel *(*derive)(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl);
} PhysKindOps;

static const PhysKindOps PHYS_KIND_OPS[WR__COUNT] = {
    [WR_SCAN] = {.derive = derive_scan},
    [WR_VALUES] = {.derive = derive_values},
    [WR_CALC] = {.derive = derive_calc},
    [WR_UNION] = {.derive = derive_union},
    [WR_WATERMARK] = {.derive = derive_forward},
    [WR_SINK] = {.derive = derive_sink},
    [WR_EXCHANGE] = {.derive = derive_forward},
    [WR_GROUP_AGG] = {.derive = derive_group_agg},
    [WR_JOIN] = {.derive = derive_join},
    [WR_DEDUP] = {.derive = derive_dedup},
    [WR_RANK] = {.derive = derive_rank},
    [WR_SORT_LIMIT] = {.derive = derive_rank},
    [WR_WINDOW_AGG] = {.derive = derive_window_agg},
    [WR_CHANGELOG_NORMALIZE] = {.derive = DERIVE_MADE_LATER},
    [WR_DROP_UPDATE_BEFORE] = {.derive = derive_forward},
    [WR_SINK_MATERIALIZER] = {.derive = DERIVE_MADE_LATER},
    [WR_OVER_RANK] = {.derive = DERIVE_MADE_LATER},
    [WR_WINDOW_TVF] = {.derive = derive_window_tvf},
    [WR_WINDOW_RANK] = {.derive = derive_window_rank},
    [WR_WINDOW_JOIN] = {.derive = derive_window_join},
    [WR_INTERVAL_JOIN] = {.derive = derive_time_join},
    [WR_TEMPORAL_JOIN] = {.derive = derive_time_join},
    [WR_LOOKUP_JOIN] = {.derive = derive_input_modes},
    [WR_OVER_AGG] = {.derive = derive_over_agg},
    [WR_MINIBATCH_ASSIGNER] = {.derive = DERIVE_MADE_LATER},
    [WR_LOCAL_GROUP_AGG] = {.derive = DERIVE_MADE_LATER},
    [WR_GLOBAL_GROUP_AGG] = {.derive = DERIVE_MADE_LATER},
    [WR_INCREMENTAL_GROUP_AGG] = {.derive = DERIVE_MADE_LATER},
    [WR_SORT] = {.derive = derive_sort},
    [WR_TEMPORAL_SORT] = {.derive = derive_temporal_sort},
    [WR_LOCAL_WINDOW_AGG] = {.derive = DERIVE_MADE_LATER},
    [WR_GLOBAL_WINDOW_AGG] = {.derive = DERIVE_MADE_LATER},
    [WR_EXPAND] = {.derive = derive_input_modes},
    [WR_REPLICATE_ROWS] = {.derive = derive_input_modes},
    [WR_CORRELATE] = {.derive = derive_input_modes},
    [WR_MATCH] = {.derive = derive_match},
};

bool wrel_kind_op_check(bool present, int k, const char *where, const char *op, WStrBuf *err)
{
    if (present) return true;
    wsb_printf(err, "%s: node kind %s (%d) has no %s operation\n", where, wrel_kind_name((WRelKind)k), k, op);
    return false;
}

bool wplan_check_kind_ops(WStrBuf *err)
{
    bool ok = wphys_update_before_ops_check(err);
    for (int k = 0; k < WR__COUNT; k++)
        ok &= wrel_kind_op_check(PHYS_KIND_OPS[k].derive != NULL, k, "plan/physical.c", "derive", err);
    return ok;
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
    return PHYS_KIND_OPS[r->kind].derive(p, r, in, ttl);
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
