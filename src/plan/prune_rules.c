/*
 * prune_rules.c — the projection pruning of Flink's logical optimisation, with the Calcs where
 * Flink puts them (users see them in EXPLAIN and COMPILE PLAN):
 *
 *   Phase 1, Flink's PROJECT_RULES and LOGICAL_RULES (before any scan push-down is decided):
 *     FlinkProjectJoinTransposeRule (Calcite's ProjectJoinTransposeRule, no expressions pushed):
 *       a Calc over a regular join (not semi/anti, not temporal; a lookup join's probe side only)
 *       that does not use every column
 *       becomes a join of the inputs cut to the columns the Calc and the join condition use (a
 *       column-picking Calc on each input that loses columns), under the remapped Calc, which
 *       disappears when it is the identity.
 *     ProjectWatermarkAssignerTransposeRule: a Calc over a WatermarkAssigner that does not use
 *       every column puts the used columns plus the rowtime (and watermark) columns under the
 *       assigner (in input order), where they merge with a computed-column Calc or become the
 *       scan's projection in EXPLAIN. wplan_calc_watermark_transpose is the same rule for a
 *       legacy group window's input Calc (window_rules.c builds it when it fuses the window): there
 *       the columns go under the assigner in order of first use, as Flink's NestedSchema lists
 *       them, and the rule applies only when the Calc and the watermark leave a column unused.
 *     ProjectWindowTableFunctionTransposeRule: a Calc over a window TVF puts the input columns it
 *       uses, the time attribute and a session's partition keys under the TVF.
 *     PruneAggregateCallRule (PROJECT_ON_AGGREGATE / CALC_ON_AGGREGATE): a Calc over a
 *       GroupAggregate drops the aggregate calls it does not reference (one call stays when there
 *       is no grouping key); the aggregate's input is not cut again. Window aggregates are still
 *       GroupAggregates here, so they are pruned the same way.
 *   Phase 2, Flink's LOGICAL_REWRITE:
 *     CalcRankTransposeRule: a Calc over a Rank / Deduplicate (window ranks and window
 *       deduplication included: they are recognised afterwards) puts a Calc under the rank with
 *       the input columns the Calc uses plus the partition and order keys, in input order; the
 *       Calc above disappears when it is the identity. That Calc comes after Flink's scan
 *       push-down, so it is marked late_calc and EXPLAIN does not fold it into a scan.
 *
 * Column references are remapped through the new layouts; result rows do not change. Shared
 * nodes are copied, never changed in place. May call plan.h, expr/, types/, common/.
 */
#include "plan.h"

#include <assert.h>
#include <string.h>

/* ------------------------------------------------------------------ helpers */

void wplan_mark_refs(const WExpr *e, bool *used, int n)
{
    if (!e) return;
    if (e->kind == WX_COLUMN && e->col >= 0 && e->col < n) used[e->col] = true;
    for (int i = 0; i < e->nargs; i++) wplan_mark_refs(e->args[i], used, n);
}

void wplan_refs_in_order(const WExpr *e, bool *seen, int *order, int *k, int n)
{
    if (!e) return;
    if (e->kind == WX_COLUMN && e->col >= 0 && e->col < n && !seen[e->col]) {
        seen[e->col] = true;
        order[(*k)++] = e->col;
    }
    for (int i = 0; i < e->nargs; i++) wplan_refs_in_order(e->args[i], seen, order, k, n);
}

/* e with column c replaced by map[c] (every referenced column must be mapped). */
WExpr *wplan_remap(WPlanCtx *p, const WExpr *e, const int *map)
{
    if (!e) return NULL;
    WExpr *c = wa_memdup(p->arena, e, sizeof *e);
    if (e->kind == WX_COLUMN) {
        c->col = map[e->col];
        return c;
    }
    if (e->nargs) {
        c->args = WA_ARRAY(p->arena, WExpr *, e->nargs);
        for (int i = 0; i < e->nargs; i++) c->args[i] = wplan_remap(p, e->args[i], map);
    }
    return c;
}

static bool *bools(WPlanCtx *p, int n) { return WA_ARRAY(p->arena, bool, n ? n : 1); }
static int *ints(WPlanCtx *p, int n) { return WA_ARRAY(p->arena, int, n ? n : 1); }

static int count_used(const bool *used, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++) k += used[i];
    return k;
}

/* map[i] = new position of column i among the used ones, -1 when dropped. */
int *wplan_positions(WPlanCtx *p, const bool *used, int n)
{
    int *map = ints(p, n);
    int k = 0;
    for (int i = 0; i < n; i++) map[i] = used[i] ? k++ : -1;
    return map;
}

/* A Calc over `in` that picks columns cols[0..n) in that order, with the input's names and types
   (time attributes included). */
WRel *wplan_pick_cols(WPlanCtx *p, WRel *in, const int *cols, int n)
{
    WRel *c = wrel_new(p, WR_CALC, 1);
    WRelCalc *cc = wrel_calc_mut(c);
    c->inputs[0] = in;
    cc->nexprs = n;
    cc->exprs = WA_ARRAY(p->arena, WExpr *, n ? n : 1);
    c->out.n = n;
    c->out.names = WA_ARRAY(p->arena, const char *, n ? n : 1);
    c->out.types = WA_ARRAY(p->arena, const WType *, n ? n : 1);
    for (int k = 0; k < n; k++) {
        int i = cols[k];
        assert(i >= 0 && i < in->out.n);
        cc->exprs[k] = wexpr_column(p->arena, i, in->out.types[i], in->out.names[i]);
        c->out.names[k] = in->out.names[i];
        c->out.types[k] = in->out.types[i];
    }
    c->changelog = in->changelog;
    return c;
}

/* A Calc over `in` that picks the used columns, in input order (wplan_pick_cols). */
WRel *wplan_pick(WPlanCtx *p, WRel *in, const bool *used)
{
    int n = count_used(used, in->out.n);
    int *cols = WA_ARRAY(p->arena, int, n ? n : 1);
    int k = 0;
    for (int i = 0; i < in->out.n; i++) if (used[i]) cols[k++] = i;
    return wplan_pick_cols(p, in, cols, n);
}

/* The Calc `calc` moved onto `input` with its references remapped; the input itself when the
   result is an identity projection. */
static WRel *recalc(WPlanCtx *p, const WRel *calc, WRel *input, const int *map)
{
    WRel *c = wa_memdup(p->arena, calc, sizeof *calc);
    const WRelCalc *from = wrel_calc(calc);
    WRelCalc *cc = wrel_calc_mut(c);
    c->inputs = WA_ARRAY(p->arena, WRel *, 1);
    c->inputs[0] = input;
    cc->exprs = WA_ARRAY(p->arena, WExpr *, from->nexprs ? from->nexprs : 1);
    for (int i = 0; i < from->nexprs; i++) cc->exprs[i] = wplan_remap(p, from->exprs[i], map);
    cc->cond = wplan_remap(p, from->cond, map);
    return wplan_simplify_calc(p, c);
}

/* Column references of e in visiting order (operands left to right), each added once to
   order[*n] (seen marks them). */
static void first_refs(const WExpr *e, bool *seen, int *order, int *n, int ncols)
{
    if (!e) return;
    if (e->kind == WX_COLUMN && e->col >= 0 && e->col < ncols) {
        if (!seen[e->col]) { seen[e->col] = true; order[(*n)++] = e->col; }
        return;
    }
    for (int i = 0; i < e->nargs; i++) first_refs(e->args[i], seen, order, n, ncols);
}

WRel *wplan_calc_watermark_transpose(WPlanCtx *p, WRel *calc)
{
    if (calc->kind != WR_CALC || wrel_calc(calc)->cond) return NULL;
    WRel *wa = calc->inputs[0];
    if (wa->kind != WR_WATERMARK) return NULL;
    const WRelWatermark *ww = wrel_watermark(wa);
    WRel *in = wa->inputs[0];
    int n = in->out.n;
    if (wa->out.n != n || ww->rowtime_col < 0 || ww->rowtime_col >= n) return NULL;
    bool *seen = bools(p, n);
    int *order = ints(p, n), m = 0;
    for (int i = 0; i < wrel_calc(calc)->nexprs; i++) first_refs(wrel_calc(calc)->exprs[i], seen, order, &m, n);
    first_refs(ww->expr, seen, order, &m, n);
    if (m == n) return NULL;                        /* the rule's matches(): nothing to drop */
    if (!seen[ww->rowtime_col]) { seen[ww->rowtime_col] = true; order[m++] = ww->rowtime_col; }
    int *map = ints(p, n);
    for (int i = 0; i < n; i++) map[i] = -1;
    for (int k = 0; k < m; k++) map[order[k]] = k;
    /* the Calc under the assigner: the used columns in order of first use */
    WRel *lo = wrel_new(p, WR_CALC, 1);
    lo->inputs[0] = in;
    wrel_calc_mut(lo)->nexprs = m;
    wrel_calc_mut(lo)->exprs = WA_ARRAY(p->arena, WExpr *, m);
    lo->out.n = m;
    lo->out.names = WA_ARRAY(p->arena, const char *, m);
    lo->out.types = WA_ARRAY(p->arena, const WType *, m);
    for (int k = 0; k < m; k++) {
        int c = order[k];
        wrel_calc_mut(lo)->exprs[k] = wexpr_column(p->arena, c, in->out.types[c], in->out.names[c]);
        lo->out.names[k] = in->out.names[c];
        lo->out.types[k] = in->out.types[c];
    }
    lo->changelog = in->changelog;
    WRel *nw = wa_memdup(p->arena, wa, sizeof *wa);
    nw->inputs = WA_ARRAY(p->arena, WRel *, 1);
    nw->inputs[0] = wplan_simplify_calc(p, lo);
    WRelWatermark *nww = wrel_watermark_mut(nw);
    nww->rowtime_col = map[ww->rowtime_col];
    nww->expr = wplan_remap(p, ww->expr, map);
    nw->out.n = m;
    nw->out.names = WA_ARRAY(p->arena, const char *, m);
    nw->out.types = WA_ARRAY(p->arena, const WType *, m);
    for (int k = 0; k < m; k++) {
        nw->out.names[k] = wa->out.names[order[k]];
        nw->out.types[k] = wa->out.types[order[k]];
    }
    return recalc(p, calc, nw, map);
}

/* ------------------------------------------------------------------ phase 1 */

/* A copy of join j whose inputs keep the columns `used` marks (left columns, then right), whose
   output is the used ones among its first `nout` columns (the left input's for a semi / anti
   join, both inputs' otherwise), and whose condition is remapped by `map` (wplan_positions). */
static WRel *cut_join(WPlanCtx *p, const WRel *j, const bool *used, const int *map, int nout)
{
    int ln = j->inputs[0]->out.n, rn = j->inputs[1]->out.n;
    WRel *nj = wa_memdup(p->arena, j, sizeof *j);
    nj->inputs = WA_ARRAY(p->arena, WRel *, 2);
    nj->inputs[0] = count_used(used, ln) == ln ? j->inputs[0] : wplan_pick(p, j->inputs[0], used);
    nj->inputs[1] = count_used(used + ln, rn) == rn ? j->inputs[1] : wplan_pick(p, j->inputs[1], used + ln);
    int m = count_used(used, nout);
    nj->out.n = m;
    nj->out.names = WA_ARRAY(p->arena, const char *, m ? m : 1);
    nj->out.types = WA_ARRAY(p->arena, const WType *, m ? m : 1);
    for (int i = 0; i < nout; i++) {
        if (map[i] < 0) continue;
        nj->out.names[map[i]] = j->out.names[i];
        nj->out.types[map[i]] = j->out.types[i];
    }
    wrel_join_mut(nj)->cond = wplan_remap(p, wrel_join(j)->cond, map);
    return nj;
}

/* ProjectSemiAntiJoinTransposeRule: a Calc over a semi / anti join (whose rows are the left
   input's) that does not use every column: the left input keeps the columns the Calc and the
   condition use, the right input those the condition uses; the Calc stays above, remapped. NULL
   when every column is used. */
static WRel *project_semi_join_transpose(WPlanCtx *p, WRel *calc)
{
    WRel *j = calc->inputs[0];
    int ln = j->inputs[0]->out.n, rn = j->inputs[1]->out.n, n = ln + rn;
    if (j->out.n != ln) return NULL;
    bool *used = bools(p, n);
    for (int i = 0; i < wrel_calc(calc)->nexprs; i++) wplan_mark_refs(wrel_calc(calc)->exprs[i], used, ln);
    wplan_mark_refs(wrel_calc(calc)->cond, used, ln);
    wplan_mark_refs(wrel_join(j)->cond, used, n);
    if (count_used(used, n) == n) return NULL;
    if (!count_used(used, ln)) used[0] = true;
    if (!count_used(used + ln, rn)) used[ln] = true;
    int *map = wplan_positions(p, used, n);
    return recalc(p, calc, cut_join(p, j, used, map, ln), map);
}

/* FlinkProjectJoinTransposeRule. NULL when the Calc uses every column of the join. */
static WRel *project_join_transpose(WPlanCtx *p, WRel *calc)
{
    WRel *j = calc->inputs[0];
    if (j->kind != WR_JOIN) return NULL;
    const WRelJoin *rj = wrel_join(j);
    if ((rj->semi || rj->anti) && !rj->temporal && !j->keys) return project_semi_join_transpose(p, calc);
    if (rj->semi || rj->anti || (rj->temporal && !rj->lookup) || j->keys) return NULL;
    int ln = j->inputs[0]->out.n, rn = j->inputs[1]->out.n, n = ln + rn;
    if (j->out.n != n) return NULL;
    bool *used = bools(p, n);
    for (int i = 0; i < wrel_calc(calc)->nexprs; i++) wplan_mark_refs(wrel_calc(calc)->exprs[i], used, n);
    wplan_mark_refs(wrel_calc(calc)->cond, used, n);
    wplan_mark_refs(rj->cond, used, n);
    /* a lookup join's dim table stays whole (the lookup source reads its scan's columns); the
       probe side loses its unused columns, the processing time included, as in Flink */
    for (int i = ln; i < n && rj->lookup; i++) used[i] = true;
    if (count_used(used, n) == n) return NULL;
    /* a side keeps at least one column */
    if (!count_used(used, ln)) used[0] = true;
    if (!count_used(used + ln, rn)) used[ln] = true;
    int *map = wplan_positions(p, used, n);
    WRel *nj = cut_join(p, j, used, map, n);
    if (rj->lookup) wrel_join_mut(nj)->left_time_col = map[rj->left_time_col];     /* -1 once dropped (unused) */
    return recalc(p, calc, nj, map);
}

/* PruneAggregateCallRule. NULL when every aggregate call is used. */
static WRel *prune_aggregate_calls(WPlanCtx *p, WRel *calc)
{
    WRel *agg = calc->inputs[0];
    if (agg->kind != WR_GROUP_AGG) return NULL;
    const WRelAgg *ag = wrel_agg(agg);
    if (ag->partial_final != WPF_NONE || ag->naggs == 0) return NULL;
    if (agg->nkeys == 0 && ag->naggs == 1) return NULL;     /* at least one output column */
    int n = agg->out.n;
    if (n != agg->nkeys + ag->naggs) return NULL;
    bool *used = bools(p, n);
    for (int i = 0; i < wrel_calc(calc)->nexprs; i++) wplan_mark_refs(wrel_calc(calc)->exprs[i], used, n);
    wplan_mark_refs(wrel_calc(calc)->cond, used, n);
    for (int k = 0; k < agg->nkeys; k++) used[k] = true;
    if (count_used(used, n) == n) return NULL;
    if (agg->nkeys == 0 && count_used(used, n) == 0) used[0] = true;   /* keeps the first call */
    int *map = wplan_positions(p, used, n);
    WRel *na = wa_memdup(p->arena, agg, sizeof *agg);
    int m = count_used(used, n);
    WRelAgg *nag = wrel_agg_mut(na);
    nag->naggs = m - agg->nkeys;
    nag->aggs = WA_ARRAY(p->arena, WAggCall, nag->naggs ? nag->naggs : 1);
    na->out.n = m;
    na->out.names = WA_ARRAY(p->arena, const char *, m ? m : 1);
    na->out.types = WA_ARRAY(p->arena, const WType *, m ? m : 1);
    for (int i = 0; i < n; i++) {
        if (map[i] < 0) continue;
        na->out.names[map[i]] = agg->out.names[i];
        na->out.types[map[i]] = agg->out.types[i];
        if (i >= agg->nkeys) nag->aggs[map[i] - agg->nkeys] = ag->aggs[i - agg->nkeys];
    }
    return recalc(p, calc, na, map);
}

/* ProjectWatermarkAssignerTransposeRule: a Calc over a WatermarkAssigner that does not use every
   column moves the columns it uses (and the rowtime and watermark columns) below the assigner,
   where they meet the source's projection. NULL when every column is used. */
static WRel *project_watermark_transpose(WPlanCtx *p, WRel *calc)
{
    WRel *wa = calc->inputs[0];
    if (wa->kind != WR_WATERMARK) return NULL;
    const WRelWatermark *ww = wrel_watermark(wa);
    WRel *in = wa->inputs[0];
    int n = in->out.n;
    if (wa->out.n != n || ww->rowtime_col < 0 || ww->rowtime_col >= n) return NULL;
    bool *used = bools(p, n);
    for (int i = 0; i < wrel_calc(calc)->nexprs; i++) wplan_mark_refs(wrel_calc(calc)->exprs[i], used, n);
    wplan_mark_refs(wrel_calc(calc)->cond, used, n);
    wplan_mark_refs(ww->expr, used, n);
    used[ww->rowtime_col] = true;
    if (count_used(used, n) == n) return NULL;
    int *map = wplan_positions(p, used, n);
    WRel *nw = wa_memdup(p->arena, wa, sizeof *wa);
    nw->inputs = WA_ARRAY(p->arena, WRel *, 1);
    nw->inputs[0] = wplan_pick(p, in, used);
    WRelWatermark *nww = wrel_watermark_mut(nw);
    nww->rowtime_col = map[ww->rowtime_col];
    nww->expr = wplan_remap(p, ww->expr, map);
    int m = count_used(used, n);
    nw->out.n = m;
    nw->out.names = WA_ARRAY(p->arena, const char *, m);
    nw->out.types = WA_ARRAY(p->arena, const WType *, m);
    for (int i = 0; i < n; i++) {
        if (map[i] < 0) continue;
        nw->out.names[map[i]] = wa->out.names[i];
        nw->out.types[map[i]] = wa->out.types[i];
    }
    return recalc(p, calc, nw, map);
}

/* ProjectWindowTableFunctionTransposeRule: a Calc over a window TVF that does not use every
   input column puts the used input columns, the time attribute and a session's partition keys
   under the TVF. NULL when nothing would be dropped. */
static WRel *project_window_tvf_transpose(WPlanCtx *p, WRel *calc)
{
    WRel *tvf = calc->inputs[0];
    if (tvf->kind != WR_WINDOW_TVF || wrel_window(tvf)->legacy) return NULL;  /* GROUP BY TUMBLE(...): no TVF in Flink */
    const WRelWindow *tw = wrel_window(tvf);
    WRel *in = tvf->inputs[0];
    int n = in->out.n;
    if (tvf->out.n != n + 3 || tw->time_col < 0 || tw->time_col >= n) return NULL;
    bool *used = bools(p, n + 3);
    for (int i = 0; i < wrel_calc(calc)->nexprs; i++) wplan_mark_refs(wrel_calc(calc)->exprs[i], used, n + 3);
    wplan_mark_refs(wrel_calc(calc)->cond, used, n + 3);
    used[tw->time_col] = true;
    for (int k = 0; k < tw->npartition; k++) used[tw->partition[k]] = true;
    int m = count_used(used, n);
    if (m == n) return NULL;
    int *map = wplan_positions(p, used, n + 3);
    for (int k = 0; k < 3; k++) map[n + k] = m + k;     /* window_start, window_end, window_time */
    WRel *nt = wa_memdup(p->arena, tvf, sizeof *tvf);
    nt->inputs = WA_ARRAY(p->arena, WRel *, 1);
    nt->inputs[0] = wplan_pick(p, in, used);
    WRelWindow *nw = wrel_window_mut(nt);
    nw->time_col = map[tw->time_col];
    if (tw->npartition) {
        nw->partition = ints(p, tw->npartition);
        for (int k = 0; k < tw->npartition; k++) nw->partition[k] = map[tw->partition[k]];
    }
    nt->out.n = m + 3;
    nt->out.names = WA_ARRAY(p->arena, const char *, m + 3);
    nt->out.types = WA_ARRAY(p->arena, const WType *, m + 3);
    for (int i = 0; i < n + 3; i++) {
        if (i < n && map[i] < 0) continue;
        nt->out.names[map[i]] = tvf->out.names[i];
        nt->out.types[map[i]] = tvf->out.types[i];
    }
    return recalc(p, calc, nt, map);
}

static WRel *phase1(WPlanCtx *p, WRel *r, int depth)
{
    if (depth > 2000) return r;
    if (r->kind == WR_CALC) {
        r = wplan_simplify_calc(p, r);
        if (r->kind == WR_CALC) {
            WRel *x = project_join_transpose(p, r);
            if (!x) x = prune_aggregate_calls(p, r);
            if (!x) x = project_watermark_transpose(p, r);
            if (!x) x = project_window_tvf_transpose(p, r);
            if (x) r = x;
        }
    }
    for (int i = 0; i < r->ninputs; i++) r->inputs[i] = phase1(p, r->inputs[i], depth + 1);
    return r;
}

/* ------------------------------------------------------------------ phase 2 */

/* CalcRankTransposeRule. NULL when the rank needs every input column. */
static WRel *calc_rank_transpose(WPlanCtx *p, WRel *calc)
{
    WRel *rk = calc->inputs[0];
    if (rk->kind != WR_RANK && rk->kind != WR_DEDUP) return NULL;
    WRel *in = rk->inputs[0];
    int n = in->out.n;
    bool rn = rk->kind == WR_RANK && wrel_rank(rk)->output_number;
    if (rk->out.n != n + (rn ? 1 : 0) || (rn && wrel_rank(rk)->col != n)) return NULL;
    bool *used = bools(p, n);
    for (int i = 0; i < wrel_calc(calc)->nexprs; i++) wplan_mark_refs(wrel_calc(calc)->exprs[i], used, n);
    wplan_mark_refs(wrel_calc(calc)->cond, used, n);
    for (int k = 0; k < rk->nkeys; k++) used[rk->keys[k]] = true;
    for (int k = 0; k < rk->nsort; k++) used[rk->sort_cols[k]] = true;
    if (rk->kind == WR_DEDUP) used[rk->time_col] = true;
    if (count_used(used, n) == n) return NULL;
    WRel *inner = wplan_pick(p, in, used);
    wrel_calc_mut(inner)->late_calc = true;
    int m = inner->out.n;
    int *map = ints(p, n + 1);
    int *pos = wplan_positions(p, used, n);
    memcpy(map, pos, sizeof(int) * (size_t)n);
    map[n] = m;                             /* the rank number */
    WRel *nr = wa_memdup(p->arena, rk, sizeof *rk);
    nr->inputs = WA_ARRAY(p->arena, WRel *, 1);
    nr->inputs[0] = inner;
    nr->keys = ints(p, rk->nkeys);
    for (int k = 0; k < rk->nkeys; k++) nr->keys[k] = map[rk->keys[k]];
    nr->sort_cols = ints(p, rk->nsort);
    for (int k = 0; k < rk->nsort; k++) nr->sort_cols[k] = map[rk->sort_cols[k]];
    if (rk->kind == WR_DEDUP) nr->time_col = map[rk->time_col];
    int no = m + (rn ? 1 : 0);
    nr->out.n = no;
    nr->out.names = WA_ARRAY(p->arena, const char *, no);
    nr->out.types = WA_ARRAY(p->arena, const WType *, no);
    for (int i = 0; i < m; i++) {
        nr->out.names[i] = inner->out.names[i];
        nr->out.types[i] = inner->out.types[i];
    }
    if (rn) {
        nr->out.names[m] = rk->out.names[n];
        nr->out.types[m] = rk->out.types[n];
        wrel_rank_mut(nr)->col = m;
    }
    return recalc(p, calc, nr, map);
}

static WRel *phase2(WPlanCtx *p, WRel *r, int depth)
{
    if (depth > 2000) return r;
    if (r->kind == WR_CALC) {
        WRel *x = calc_rank_transpose(p, r);
        if (x) r = x;
    }
    for (int i = 0; i < r->ninputs; i++) r->inputs[i] = phase2(p, r->inputs[i], depth + 1);
    return r;
}

WRel *wplan_prune(WPlanCtx *p, WRel *root)
{
    root = phase1(p, root, 0);
    return phase2(p, root, 0);
}
