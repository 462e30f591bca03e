/*
 * agg_rules.c — the aggregate rewrites of Flink's optimizer under mini-batch and two-phase
 * aggregation, exactly where Flink makes them and with the names Flink's plans show:
 *
 *   SplitAggregateRule (the distinct split) lives in split_distinct.c.
 *   MiniBatchIntervalInferRule: with table.exec.mini-batch.enabled the root's ProcTime interval
 *     (allow-latency) flows down; a MiniBatchAssigner goes above every source scan or watermark
 *     assigner it reaches (RowTime mode below operators that need watermarks, none below a legacy
 *     group window) when the plan has an operator that buffers per batch (aggregates, dedup,
 *     ChangelogNormalize, an INNER/LEFT/RIGHT/FULL Join); every Join says miniBatch=[true].
 *   TwoStageOptimizedAggregateRule (mini-batch on, table.optimizer.agg-phase-strategy not
 *     ONE_PHASE, every call mergeable): GroupAggregate <- Exchange <- input becomes
 *     GlobalGroupAggregate <- Exchange <- LocalGroupAggregate <- input.
 *   TwoStageOptimizedWindowAggregateRule (strategy not ONE_PHASE, with or without mini-batch):
 *     WindowAggregate <- Exchange <- input becomes GlobalWindowAggregate <- Exchange <-
 *     LocalWindowAggregate <- input (row-time, non-session windows, every call mergeable).
 *   IncrementalAggregateRule (table.optimizer.incremental-agg-enabled, default true): the
 *     PARTIAL GlobalGroupAggregate and the FINAL LocalGroupAggregate become one
 *     IncrementalGroupAggregate.
 *   Flink's option checks: "MiniBatch Latency must be greater than 0 ms." at planning; the
 *     mini-batch size is checked when operators are built (EXPLAIN and execution).
 *
 * May call plan.h, expr/ (function lookup), types/, common/.
 */
#include "agg_rules.h"
#include "bind_internal.h"
#include "state_ttl.h"
#include "../common/duration.h"
#include "../expr/functions.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int *ints(WPlanCtx *p, int n) { return WA_ARRAY(p->arena, int, n ? n : 1); }

static bool opt_bool(WPlanCtx *p, const char *key, bool dflt)
{
    bool v = dflt;
    WError tmp;
    werr_clear(&tmp);
    wopts_get_bool(p->config, key, dflt, &v, &tmp);
    return v;
}

/* The rules are the stream planner's: batch mode plans without them. */
static int64_t opt_ms(WPlanCtx *p, const char *key)
{
    int64_t v = 0;
    WError tmp;
    werr_clear(&tmp);
    wopts_get_duration_ms(p->config, key, 0, &v, &tmp);
    return v;
}

/* ------------------------------------------------------------------ partial accumulators */

bool wagg_mergeable(const WAggCall *c, bool retract)
{
    switch (c->kind) {
    case WAGG_COUNT_STAR: case WAGG_COUNT: case WAGG_SUM: case WAGG_SUM0: case WAGG_AVG:
        return true;
    case WAGG_MIN: case WAGG_MAX:
        return c->nargs == 1;
    case WAGG_LISTAGG:          /* Flink's declarative ListAggFunction; with retraction not here */
        return !retract && !c->distinct;
    default:
        return false;
    }
}

const char *wagg_acc_stem(const WAggCall *c)
{
    switch (c->kind) {
    case WAGG_COUNT_STAR: return "count1";
    case WAGG_COUNT: return "count";
    case WAGG_MIN: return "min";
    case WAGG_MAX: return "max";
    default: return "sum";
    }
}

static const WType *avg_sum_type(WArena *a, const WType *t)
{
    if (t->id == WT_DECIMAL) return wtype_decimal(a, 38, t->scale, true);
    if (t->id == WT_FLOAT || t->id == WT_DOUBLE) return &WTYPE_DOUBLE;
    return &WTYPE_BIGINT;
}

static bool is_record_count(const WAggCall *c)
{
    return (c->kind == WAGG_COUNT_STAR && c->filter_col < 0 && !c->distinct) || c->counts_records;
}

int wagg_index_of_count_star(const WRel *r)
{
    if (r->kind != WR_GLOBAL_GROUP_AGG || !r->input_retracts) return -1;
    const WRelAgg *ag = wrel_agg(r);
    for (int i = 0; i < ag->naggs; i++)
        if (ag->aggs[i].counts_records) return i;
    return -1;
}

/* need_count: a HOP window's record count (wagg_window_partial_layout) */
static void partial_layout(WArena *a, const WAggCall *aggs, int naggs, const WSchema *in, bool retract,
                           bool without_distinct, bool need_count, WAggPartial *L)
{
    memset(L, 0, sizeof *L);
    int na = naggs ? naggs : 1;
    int cap = 3 * na + 2;
    L->naggs = naggs;
    L->first = WA_ARRAY(a, int, na);
    L->nfields = WA_ARRAY(a, int, na);
    L->distinct_of = WA_ARRAY(a, int, na);
    L->distinct_col = WA_ARRAY(a, int, na);
    L->distinct_args = WA_ARRAY(a, int, 2 * na);
    L->distinct_nargs = WA_ARRAY(a, int, na);
    L->names = WA_ARRAY(a, const char *, cap);
    L->types = WA_ARRAY(a, const WType *, cap);
    L->count1 = -1;
    int n = 0, idx = 0;
    for (int i = 0; i < naggs; i++) {
        const WAggCall *c = &aggs[i];
        const WType *at = c->nargs > 0 && in ? in->types[c->args[0]] : NULL;
        const char *stem = wagg_acc_stem(c);
        L->first[i] = n;
        switch (c->kind) {
        case WAGG_COUNT_STAR: case WAGG_COUNT:
            L->types[n] = &WTYPE_BIGINT;
            L->names[n++] = wa_sprintf(a, "%s$%d", stem, idx++);
            break;
        case WAGG_SUM:
            L->types[n] = wtype_with_nullable(a, c->type, true);
            L->names[n++] = wa_sprintf(a, "sum$%d", idx++);
            if (retract) {
                L->types[n] = &WTYPE_BIGINT;
                L->names[n++] = wa_sprintf(a, "count$%d", idx++);
            }
            break;
        case WAGG_SUM0:
            L->types[n] = wtype_with_nullable(a, c->type, true);
            L->names[n++] = wa_sprintf(a, "sum$%d", idx++);
            break;
        case WAGG_AVG:
            L->types[n] = at ? avg_sum_type(a, at) : &WTYPE_BIGINT;
            L->names[n++] = wa_sprintf(a, "sum$%d", idx++);
            L->types[n] = &WTYPE_BIGINT;
            L->names[n++] = wa_sprintf(a, "count$%d", idx++);
            break;
        case WAGG_LISTAGG:
            L->types[n] = &WTYPE_STRING;
            L->names[n++] = wa_sprintf(a, "accDelimiter$%d", idx++);
            L->types[n] = &WTYPE_STRING;
            L->names[n++] = wa_sprintf(a, "concatAcc$%d", idx++);
            break;
        default:    /* MIN / MAX */
            L->types[n] = retract || !at ? &WTYPE_BYTES
                                         : wtype_with_nullable(a, wtype_with_time_attr(a, at, WTA_NONE), true);
            L->names[n++] = wa_sprintf(a, "%s$%d", stem, idx++);
            break;
        }
        L->nfields[i] = n - L->first[i];
        if (retract && L->count1 < 0 && is_record_count(c)) L->count1 = L->first[i];
        if (need_count && L->count1 < 0 && c->kind == WAGG_COUNT_STAR && c->filter_col < 0 && !c->distinct)
            L->count1 = L->first[i];
    }
    if ((retract || need_count) && L->count1 < 0) {
        L->count1 = n;
        L->count1_added = true;
        L->types[n] = &WTYPE_BIGINT;
        L->names[n++] = wa_sprintf(a, "count1$%d", idx++);
    }
    /* distinct argument lists, in order of first use (Flink's DistinctInfo) */
    for (int i = 0; i < naggs; i++) {
        const WAggCall *c = &aggs[i];
        L->distinct_of[i] = -1;
        if (!c->distinct || c->kind == WAGG_COUNT_STAR) continue;
        int d = -1;
        for (int k = 0; k < L->ndistinct; k++)
            if (L->distinct_nargs[k] == c->nargs && L->distinct_args[2 * k] == c->args[0] &&
                (c->nargs < 2 || L->distinct_args[2 * k + 1] == c->args[1])) d = k;
        if (d < 0) {
            d = L->ndistinct++;
            L->distinct_nargs[d] = c->nargs;
            L->distinct_args[2 * d] = c->args[0];
            L->distinct_args[2 * d + 1] = c->nargs > 1 ? c->args[1] : -1;
        }
        L->distinct_of[i] = d;
    }
    for (int k = 0; k < L->ndistinct; k++) {
        if (without_distinct) { L->distinct_col[k] = -1; continue; }
        L->distinct_col[k] = n;
        L->types[n] = &WTYPE_BYTES;
        L->names[n++] = wa_sprintf(a, "distinct$%d", k);
    }
    L->ncols = n;
}

void wagg_partial_layout(WArena *a, const WAggCall *aggs, int naggs, const WSchema *in, bool retract,
                         bool without_distinct, WAggPartial *L)
{
    partial_layout(a, aggs, naggs, in, retract, without_distinct, false, L);
}

void wagg_window_partial_layout(WArena *a, const WAggCall *aggs, int naggs, const WSchema *in, WWindowKind kind,
                                WAggPartial *L)
{
    partial_layout(a, aggs, naggs, in, false, false, kind == WWIN_HOP, L);
}

/* ------------------------------------------------------------------ two-phase aggregation */

static WSchema schema_of(WPlanCtx *p, const WAggPartial *L, const WSchema *keys_from, const int *keys, int nkeys)
{
    WSchema s;
    s.n = nkeys + L->ncols;
    s.names = WA_ARRAY(p->arena, const char *, s.n ? s.n : 1);
    s.types = WA_ARRAY(p->arena, const WType *, s.n ? s.n : 1);
    for (int i = 0; i < nkeys; i++) {
        s.names[i] = keys_from->names[keys[i]];
        s.types[i] = wtype_with_time_attr(p->arena, keys_from->types[keys[i]], WTA_NONE);
    }
    for (int i = 0; i < L->ncols; i++) {
        s.names[nkeys + i] = L->names[i];
        s.types[nkeys + i] = L->types[i];
    }
    return s;
}

static WRel *exchange_over(WPlanCtx *p, WRel *in, int nkeys)
{
    WRel *x = wrel_new(p, WR_EXCHANGE, 1);
    x->inputs[0] = in;
    x->out = in->out;
    x->nkeys = nkeys;
    x->keys = ints(p, nkeys);
    for (int i = 0; i < nkeys; i++) x->keys[i] = i;
    wrel_exchange_mut(x)->single = nkeys == 0;
    x->changelog = in->changelog;
    x->nunique = -1;
    return x;
}

/* STATE_TTL hints as they apply to the GroupAggregates before the rewrite (state_ttl.c resolves
   hints on GroupAggregate nodes only): the global aggregate keeps the hinted TTL. */
typedef struct TtlHints { const WStateTtlHint *h; int n; } TtlHints;

static WRel *two_phase_one(WPlanCtx *p, WRel *r, const TtlHints *th)
{
    const WRelAgg *ra = wrel_agg(r);
    WRel *x = r->inputs[0];
    if (x->kind != WR_EXCHANGE) return r;
    for (int i = 0; i < ra->naggs; i++) if (!wagg_mergeable(&ra->aggs[i], r->input_retracts)) return r;
    WRel *in = x->inputs[0];
    WAggPartial L;
    wagg_partial_layout(p->arena, ra->aggs, ra->naggs, &in->out, r->input_retracts, false, &L);
    WRel *local = wrel_new(p, WR_LOCAL_GROUP_AGG, 1);
    WRelAgg *la = wrel_agg_mut(local);
    local->inputs[0] = in;
    local->nkeys = r->nkeys;
    local->keys = r->keys;
    la->naggs = ra->naggs;
    la->aggs = ra->aggs;
    local->input_retracts = r->input_retracts;
    la->partial_final = ra->partial_final;
    la->agg_input = in->out;
    la->count1_col = -1;
    local->out = schema_of(p, &L, &in->out, r->keys, r->nkeys);
    local->changelog = WCM_INSERT;
    local->nunique = -1;
    local->generate_update_before = false;
    WRel *ex = exchange_over(p, local, r->nkeys);
    WRel *g = wrel_new(p, WR_GLOBAL_GROUP_AGG, 1);
    *g = *r;
    g->kind = WR_GLOBAL_GROUP_AGG;
    WRelAgg *ga = wrel_agg_mut(g);
    g->id = 0;
    g->inputs = WA_ARRAY(p->arena, WRel *, 1);
    g->ninputs = 1;
    g->inputs[0] = ex;
    g->keys = ints(p, r->nkeys);
    for (int i = 0; i < r->nkeys; i++) g->keys[i] = i;
    ga->agg_input = in->out;
    ga->count1_col = L.count1 >= 0 ? r->nkeys + L.count1 : -1;
    for (int i = 0; i < th->n; i++) {
        if (th->h[i].node != r || !th->h[i].input) continue;
        int64_t ms = 0;
        if (wduration_parse(th->h[i].input, &ms, p->err)) g->ttl_ms = ms;
    }
    return g;
}

static WRel *two_phase_walk(WPlanCtx *p, WRel *r, const TtlHints *th, int depth)
{
    if (depth > 2000) return r;
    for (int i = 0; i < r->ninputs; i++) r->inputs[i] = two_phase_walk(p, r->inputs[i], th, depth + 1);
    if (r->kind == WR_GROUP_AGG) return two_phase_one(p, r, th);
    return r;
}

/* Global(FINAL) <- Exchange <- Local(FINAL) <- Global(PARTIAL) <- Exchange <- Local(PARTIAL)
   becomes Global(FINAL) <- Exchange <- Incremental <- Exchange <- Local(PARTIAL). The final
   global then reads accumulator increments and retracts only when the partial input did. */
static WRel *incremental_one(WPlanCtx *p, WRel *g)
{
    if (wrel_agg(g)->partial_final != WPF_FINAL) return g;
    WRel *x = g->inputs[0];
    if (x->kind != WR_EXCHANGE) return g;
    WRel *fl = x->inputs[0];
    if (fl->kind != WR_LOCAL_GROUP_AGG || wrel_agg(fl)->partial_final != WPF_FINAL) return g;
    WRel *pg = fl->inputs[0];
    if (pg->kind != WR_GLOBAL_GROUP_AGG || wrel_agg(pg)->partial_final != WPF_PARTIAL) return g;
    WArena *a = p->arena;
    const WRelAgg *pa = wrel_agg(pg);
    WRel *px = pg->inputs[0];        /* the partial exchange over the partial local */
    WAggPartial L;
    bool retract = pg->input_retracts;
    wagg_partial_layout(a, pa->aggs, pa->naggs, &pa->agg_input, retract, true, &L);
    WRel *inc = wrel_new(p, WR_INCREMENTAL_GROUP_AGG, 1);
    WRelAgg *ia = wrel_agg_mut(inc);
    inc->inputs[0] = px;
    inc->nkeys = pg->nkeys;
    inc->keys = pg->keys;
    ia->nfinal_keys = fl->nkeys;
    ia->final_keys = fl->keys;
    ia->naggs = pa->naggs;
    ia->aggs = pa->aggs;
    ia->agg_input = pa->agg_input;
    inc->input_retracts = retract;
    ia->count1_col = L.count1 >= 0 ? fl->nkeys + L.count1 : -1;
    inc->ttl_ms = pg->ttl_ms;
    inc->nhints = pg->nhints;
    inc->hints = pg->hints;
    inc->left_name = pg->left_name;
    inc->out = schema_of(p, &L, &px->out, fl->keys, fl->nkeys);
    inc->changelog = WCM_INSERT;
    inc->nunique = -1;
    WRel *ex = exchange_over(p, inc, fl->nkeys);
    g->inputs[0] = ex;
    g->input_retracts = retract;
    wrel_agg_mut(g)->count1_col = ia->count1_col;
    return g;
}

static WRel *incremental_walk(WPlanCtx *p, WRel *r, int depth)
{
    if (depth > 2000) return r;
    for (int i = 0; i < r->ninputs; i++) r->inputs[i] = incremental_walk(p, r->inputs[i], depth + 1);
    if (r->kind == WR_GLOBAL_GROUP_AGG) return incremental_one(p, r);
    return r;
}

/* ------------------------------------------------------------------ mini-batch assigners */

typedef enum MbMode { MB_NONE, MB_PROC, MB_ROW, MB_NO } MbMode;
typedef struct MbTrait { MbMode mode; int64_t ms; } MbTrait;

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) { int64_t t = a % b; a = b; b = t; }
    return a < 0 ? -a : a;
}

/* FlinkRelOptUtil.mergeMiniBatchInterval */
static MbTrait mb_merge(MbTrait x, MbTrait y)
{
    if (x.mode == MB_NO || y.mode == MB_NO) return (MbTrait){MB_NO, 0};
    if (x.mode == MB_NONE) return y;
    if (y.mode == MB_NONE) return x;
    if (x.mode == MB_ROW || y.mode == MB_ROW) return (MbTrait){MB_ROW, gcd64(x.ms, y.ms)};
    return x;
}

static bool rowtime_type(const WType *t) { return t && t->time_attr == WTA_ROWTIME; }

/* Operators that need watermarks (StreamPhysicalRel.requireWatermark). */
static bool requires_watermark(const WRel *r)
{
    switch (r->kind) {
    case WR_INTERVAL_JOIN: return rowtime_type(r->inputs[0]->out.types[wrel_join(r)->left_time_col]);
    case WR_TEMPORAL_JOIN: return true;
    case WR_WINDOW_AGG: case WR_WINDOW_RANK: case WR_WINDOW_TVF: case WR_WINDOW_JOIN:
    case WR_LOCAL_WINDOW_AGG: case WR_GLOBAL_WINDOW_AGG:
        return !wrel_window(r)->proctime;
    case WR_OVER_AGG:
        return r->time_col >= 0 && r->time_col < r->inputs[0]->out.n &&
               rowtime_type(r->inputs[0]->out.types[r->time_col]);
    default: return false;
    }
}

static WRel *assigner(WPlanCtx *p, WRel *in, MbTrait t)
{
    WRel *m = wrel_new(p, WR_MINIBATCH_ASSIGNER, 1);
    m->inputs[0] = in;
    m->out = in->out;
    m->changelog = in->changelog;
    m->nunique = in->nunique;
    m->unique = in->unique;
    wrel_minibatch_mut(m)->interval_ms = t.ms;
    wrel_minibatch_mut(m)->rowtime = t.mode == MB_ROW;
    m->generate_update_before = in->generate_update_before;
    return m;
}

static void assign_walk(WPlanCtx *p, WRel *r, MbTrait t, int depth)
{
    if (depth > 2000) return;
    if (r->kind == WR_WATERMARK || r->kind == WR_MINIBATCH_ASSIGNER) t = (MbTrait){MB_NONE, 0};
    else if (r->kind == WR_WINDOW_AGG && wrel_window(r)->legacy) t = (MbTrait){MB_NO, 0};
    else if (requires_watermark(r)) t = mb_merge(t, (MbTrait){MB_ROW, 0});
    for (int i = 0; i < r->ninputs; i++) {
        WRel *in = r->inputs[i];
        if ((in->kind == WR_SCAN || in->kind == WR_WATERMARK) && (t.mode == MB_PROC || t.mode == MB_ROW)) {
            r->inputs[i] = assigner(p, in, t);
            continue;
        }
        assign_walk(p, in, t, depth + 1);
    }
}

static bool uses_trigger(const WRel *r, int depth)
{
    if (depth > 2000) return false;
    switch (r->kind) {
    case WR_GROUP_AGG: case WR_LOCAL_GROUP_AGG: case WR_GLOBAL_GROUP_AGG: case WR_INCREMENTAL_GROUP_AGG:
    case WR_DEDUP: case WR_CHANGELOG_NORMALIZE:
        return true;
    case WR_JOIN:                   /* MiniBatchStreamingJoinOperator: not for SEMI / ANTI */
        if (!wrel_join(r)->semi && !wrel_join(r)->anti) return true;
        break;
    default:
        break;
    }
    for (int i = 0; i < r->ninputs; i++) if (uses_trigger(r->inputs[i], depth + 1)) return true;
    return false;
}

/* a Rank (Top-N, also Top-1) gets the MiniBatchAssigner too (measured on Flink 2.3), though it
   does not buffer per mini-batch */
static bool any_rank(const WRel *r, int depth)
{
    if (depth > 2000) return false;
    if (r->kind == WR_RANK) return true;
    for (int i = 0; i < r->ninputs; i++) if (any_rank(r->inputs[i], depth + 1)) return true;
    return false;
}

static bool any_requires_watermark(const WRel *r, int depth)
{
    if (depth > 2000) return false;
    if (requires_watermark(r)) return true;
    for (int i = 0; i < r->ninputs; i++) if (any_requires_watermark(r->inputs[i], depth + 1)) return true;
    return false;
}

/* every regular Join planned under mini-batch says so (miniBatch=[true], also SEMI / ANTI) */
static void mark_joins(WRel *r, int depth)
{
    if (depth > 2000) return;
    if (r->kind == WR_JOIN) wrel_join_mut(r)->minibatch = true;
    for (int i = 0; i < r->ninputs; i++) mark_joins(r->inputs[i], depth + 1);
}

static void mark_assigners(WRel *r, bool check, int depth)
{
    if (depth > 2000) return;
    if (r->kind == WR_MINIBATCH_ASSIGNER) wrel_minibatch_mut(r)->check_size = check;
    for (int i = 0; i < r->ninputs; i++) mark_assigners(r->inputs[i], check, depth + 1);
}

WRel *wagg_mini_batch(WPlanCtx *p, WRel *root)
{
    if (!root || wplan_batch_mode(p) || !opt_bool(p, "table.exec.mini-batch.enabled", false)) return root;
    int64_t latency = opt_ms(p, "table.exec.mini-batch.allow-latency");
    if (latency <= 0) {
        werr_set(p->err, WEXC_ILLEGAL_ARG, "MiniBatch Latency must be greater than 0 ms.");
        return NULL;
    }
    const char *strategy = wopts_get(p->config, "table.optimizer.agg-phase-strategy");
    bool two_phase = !(strategy && !strcasecmp(strategy, "ONE_PHASE"));
    if (two_phase) {
        WStateTtlHint *h = NULL;
        int nh = wstate_ttl_hints(p, root, &h);
        if (nh < 0) return NULL;
        TtlHints th = {h, nh};
        root = two_phase_walk(p, root, &th, 0);
        if (p->err && p->err->set) return NULL;
        if (opt_bool(p, "table.optimizer.incremental-agg-enabled", true)) root = incremental_walk(p, root, 0);
    }
    mark_joins(root, 0);
    /* a plan without an operator that buffers per mini-batch (and no event-time operator) gets
       no MiniBatchAssigner: Flink 2.3 plans a plain filter or projection without one */
    if (!uses_trigger(root, 0) && !any_rank(root, 0) && !any_requires_watermark(root, 0)) return root;
    assign_walk(p, root, (MbTrait){MB_PROC, latency}, 0);
    mark_assigners(root, uses_trigger(root, 0), 0);
    return root;
}

/* ------------------------------------------------------------------ two-phase window aggregation */

/* TwoStageOptimizedWindowAggregateRule: WindowAggregate <- Exchange <- input becomes
   GlobalWindowAggregate <- Exchange <- LocalWindowAggregate <- input when the strategy is not
   ONE_PHASE (also under the default AUTO, mini-batch or not), the windows are on row time, every
   call merges (wagg_mergeable; DISTINCT calls travel as their value maps) and the window is not a
   SESSION (Flink rejects it: session merges differ per subtask). The input of the exchange is
   never hash-distributed by the keys in a weir plan (only exchanges are), so Flink's distribution
   check always lets the rule apply. weir also keeps the one-phase plan when the input retracts:
   Flink's LocalWindowAggregate only accumulates. The local aggregate appends the slice end (or,
   for a window-attached input, the window end) as its last column; the global one reads it. */
static WRel *window_two_phase_one(WPlanCtx *p, WRel *r)
{
    WRel *x = r->inputs[0];
    const WRelWindow *rw = wrel_window(r);
    const WRelAgg *ra = wrel_agg(r);
    if (x->kind != WR_EXCHANGE || rw->proctime || rw->legacy || rw->kind == WWIN_SESSION || r->input_retracts)
        return r;
    for (int i = 0; i < ra->naggs; i++) if (!wagg_mergeable(&ra->aggs[i], false)) return r;
    WRel *in = x->inputs[0];
    WAggPartial L;
    wagg_window_partial_layout(p->arena, ra->aggs, ra->naggs, &in->out, rw->kind, &L);
    WRel *local = wrel_new(p, WR_LOCAL_WINDOW_AGG, 1);
    *local = *r;
    local->kind = WR_LOCAL_WINDOW_AGG;
    WRelAgg *la = wrel_agg_mut(local);
    local->id = 0;
    local->inputs = WA_ARRAY(p->arena, WRel *, 1);
    local->ninputs = 1;
    local->inputs[0] = in;
    la->agg_input = in->out;
    la->count1_col = -1;
    WSchema s = schema_of(p, &L, &in->out, r->keys, r->nkeys);
    /* one more column: the slice end (window end when attached), epoch-like BIGINT */
    local->out.n = s.n + 1;
    local->out.names = WA_ARRAY(p->arena, const char *, s.n + 1);
    local->out.types = WA_ARRAY(p->arena, const WType *, s.n + 1);
    memcpy(local->out.names, s.names, sizeof(char *) * (size_t)s.n);
    memcpy(local->out.types, s.types, sizeof(WType *) * (size_t)s.n);
    local->out.names[s.n] = rw->attached ? "$window_end" : "$slice_end";
    local->out.types[s.n] = &WTYPE_BIGINT;
    local->changelog = WCM_INSERT;
    local->nunique = -1;
    local->unique = NULL;
    WRelWindow *lw = wrel_window_mut(local);
    lw->out_start = lw->out_end = lw->out_time = -1;
    WRel *ex = exchange_over(p, local, r->nkeys);
    WRel *g = wrel_new(p, WR_GLOBAL_WINDOW_AGG, 1);
    *g = *r;
    g->kind = WR_GLOBAL_WINDOW_AGG;
    WRelAgg *ga = wrel_agg_mut(g);
    g->id = 0;
    g->inputs = WA_ARRAY(p->arena, WRel *, 1);
    g->ninputs = 1;
    g->inputs[0] = ex;
    g->keys = ints(p, r->nkeys);
    for (int i = 0; i < r->nkeys; i++) g->keys[i] = i;
    ga->agg_input = in->out;
    ga->count1_col = -1;
    return g;
}

static WRel *window_two_phase_walk(WPlanCtx *p, WRel *r, int depth)
{
    if (depth > 2000) return r;
    for (int i = 0; i < r->ninputs; i++) r->inputs[i] = window_two_phase_walk(p, r->inputs[i], depth + 1);
    if (r->kind == WR_WINDOW_AGG) return window_two_phase_one(p, r);
    return r;
}

WRel *wagg_window_two_phase(WPlanCtx *p, WRel *root)
{
    if (!root || wplan_batch_mode(p)) return root;
    const char *strategy = wopts_get(p->config, "table.optimizer.agg-phase-strategy");
    if (strategy && !strcasecmp(strategy, "ONE_PHASE")) return root;
    return window_two_phase_walk(p, root, 0);
}
