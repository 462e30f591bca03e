/*
 * physical.c — physical planning: the rank rule (Rank / Deduplicate from a ranking function and
 * a filter on it), join keys from join conditions, changelog modes and unique keys bottom-up,
 * ChangelogNormalize for upsert/CDC sources, SinkUpsertMaterializer and DropUpdateBefore before
 * upsert sinks, Exchange nodes before keyed operators, UPDATE_BEFORE requirements top-down, and
 * the state TTL of every stateful node from table.exec.state.ttl. See plan.h.
 */
#include "reduce.h"
#include "bind_internal.h"
#include "agg_rules.h"
#include "sort_rules.h"
#include "bind_unnest.h"
#include "over_rules.h"
#include "sink_constraints.h"
#include "../expr/functions.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ALL_KINDS (WCM_INSERT | WCM_UPDATE_BEFORE | WCM_UPDATE_AFTER | WCM_DELETE)

static WRel *fail(WPlanCtx *p, const char *cls, const char *msg)
{
    werr_set(p->err, cls, "%s", msg);
    return NULL;
}

static int *ints(WPlanCtx *p, int n) { return WA_ARRAY(p->arena, int, n ? n : 1); }

/* table.exec.mini-batch.enabled (validated when SET; a bad value reads as false here) */
static bool minibatch_enabled(WPlanCtx *p)
{
    bool on = false;
    WError err;
    werr_clear(&err);
    wopts_get_bool(p->config, "table.exec.mini-batch.enabled", false, &on, &err);
    return on;
}

/* ---------------- expression helpers ---------------- */

void wplan_split_and(WExpr *e, WExpr **out, int *n, int max)
{
    if (!e) return;
    if (e->kind == WX_AND) {
        for (int i = 0; i < e->nargs; i++) wplan_split_and(e->args[i], out, n, max);
        return;
    }
    if (*n < max) out[(*n)++] = e;
}

WExpr *wplan_and(WPlanCtx *p, WExpr **xs, int n)
{
    if (n == 0) return NULL;
    if (n == 1) return xs[0];
    bool nullable = false;
    for (int i = 0; i < n; i++) nullable = nullable || xs[i]->type->nullable;
    WExpr *a = wexpr_new(p->arena, WX_AND, wtype_with_nullable(p->arena, &WTYPE_BOOLEAN, nullable), n);
    for (int i = 0; i < n; i++) a->args[i] = xs[i];
    return a;
}

/* Column-reference range of an expression: min and max referenced column (-1 when none). */
static void col_range(const WExpr *e, int *lo, int *hi)
{
    if (e->kind == WX_COLUMN) {
        if (*lo < 0 || e->col < *lo) *lo = e->col;
        if (e->col > *hi) *hi = e->col;
    }
    for (int i = 0; i < e->nargs; i++) col_range(e->args[i], lo, hi);
}

static bool refs_col(const WExpr *e, int col)
{
    if (e->kind == WX_COLUMN) return e->col == col;
    for (int i = 0; i < e->nargs; i++) if (refs_col(e->args[i], col)) return true;
    return false;
}

static WExpr *shift_cols(WPlanCtx *p, const WExpr *e, int from, int delta)
{
    WExpr *c = wa_memdup(p->arena, e, sizeof *e);
    if (e->kind == WX_COLUMN && e->col >= from) c->col = e->col + delta;
    if (e->nargs) {
        c->args = WA_ARRAY(p->arena, WExpr *, e->nargs);
        for (int i = 0; i < e->nargs; i++) c->args[i] = shift_cols(p, e->args[i], from, delta);
    }
    return c;
}

static WExpr *replace_col(WPlanCtx *p, const WExpr *e, int col, WExpr *with)
{
    if (e->kind == WX_COLUMN && e->col == col) return with;
    WExpr *c = wa_memdup(p->arena, e, sizeof *e);
    if (e->nargs) {
        c->args = WA_ARRAY(p->arena, WExpr *, e->nargs);
        for (int i = 0; i < e->nargs; i++) c->args[i] = replace_col(p, e->args[i], col, with);
    }
    return c;
}

static bool is_func(const WExpr *e, const char *name)
{
    return e->kind == WX_CALL && e->func && strcmp(e->func->name, name) == 0;
}

static int64_t const_int(const WExpr *e, bool *ok)
{
    *ok = false;
    if (e->kind == WX_LITERAL && !e->is_null && wtype_is_integer(e->type)) { *ok = true; return e->lit.i; }
    if (e->kind == WX_CAST && e->args[0]->kind == WX_LITERAL && !e->args[0]->is_null &&
        wtype_is_integer(e->args[0]->type)) { *ok = true; return e->args[0]->lit.i; }
    return 0;
}

/* ---------------- rank rule ---------------- */

static bool is_rank_ref(const WExpr *e, int rank_col)
{
    if (e->kind == WX_CAST) e = e->args[0];
    return e->kind == WX_COLUMN && e->col == rank_col;
}

/* Turn Calc(cond on rank) over OVER_RANK into Rank/Deduplicate. */
static WRel *rank_rule(WPlanCtx *p, WRel *calc)
{
    WRel *ov = calc->inputs[0];
    int rc = ov->rank_col;
    WExpr *cs[128];
    int n = 0;
    wplan_split_and(calc->cond, cs, &n, 128);
    int64_t lo = 1, hi = INT64_MAX;
    bool found = false;
    WExpr *keep[128];
    int nk = 0;
    for (int i = 0; i < n; i++) {
        WExpr *c = cs[i];
        bool ok;
        if (c->kind == WX_CALL && c->nargs == 2 && (is_rank_ref(c->args[0], rc) || is_rank_ref(c->args[1], rc))) {
            bool left = is_rank_ref(c->args[0], rc);
            int64_t v = const_int(left ? c->args[1] : c->args[0], &ok);
            if (ok) {
                const char *f = c->func->name;
                /* normalise to "rank OP v" */
                if (!left) {
                    if (strcmp(f, "<") == 0) f = ">";
                    else if (strcmp(f, "<=") == 0) f = ">=";
                    else if (strcmp(f, ">") == 0) f = "<";
                    else if (strcmp(f, ">=") == 0) f = "<=";
                }
                if (strcmp(f, "<=") == 0) { if (v < hi) hi = v; found = true; continue; }
                if (strcmp(f, "<") == 0) { if (v - 1 < hi) hi = v - 1; found = true; continue; }
                if (strcmp(f, "=") == 0) { lo = v > lo ? v : lo; hi = v < hi ? v : hi; found = true; continue; }
                if (strcmp(f, ">=") == 0) { if (v > lo) lo = v; continue; }
                if (strcmp(f, ">") == 0) { if (v + 1 > lo) lo = v + 1; continue; }
            }
        }
        keep[nk++] = c;
    }
    if (!found || hi == INT64_MAX) return NULL;
    bool uses_rank = false;
    for (int i = 0; i < calc->nexprs; i++) if (refs_col(calc->exprs[i], rc)) uses_rank = true;
    for (int i = 0; i < nk; i++) if (refs_col(keep[i], rc)) uses_rank = true;
    WExpr **exprs = calc->exprs;
    if (uses_rank && lo == hi) {
        /* a single rank value: Flink drops the rank column and projects the constant */
        WDatum d = {.i = lo};
        WExpr *lit = wexpr_literal(p->arena, &WTYPE_BIGINT_NN, d, false);
        exprs = WA_ARRAY(p->arena, WExpr *, calc->nexprs ? calc->nexprs : 1);
        for (int i = 0; i < calc->nexprs; i++) exprs[i] = replace_col(p, calc->exprs[i], rc, lit);
        for (int i = 0; i < nk; i++) keep[i] = replace_col(p, keep[i], rc, lit);
        uses_rank = false;
    }
    WRel *in = ov->inputs[0];
    WRel *r;
    const WType *st = ov->nsort == 1 ? in->out.types[ov->sort_cols[0]] : NULL;
    bool time_sort = st && wtype_is_timestamp(st) && st->time_attr != WTA_NONE;
    if (ov->rank_func == 0 && lo == 1 && hi == 1 && !uses_rank && time_sort) {
        r = wrel_new(p, WR_DEDUP, 1);
        r->keep_last = ov->sort_desc[0];
        r->dedup_rowtime = st->time_attr == WTA_ROWTIME;
        r->time_col = ov->sort_cols[0];
    } else {
        r = wrel_new(p, WR_RANK, 1);
        r->rank_func = ov->rank_func;
        r->rank_start = lo;
        r->rank_end = hi;
        r->output_rank_number = uses_rank;
    }
    r->inputs[0] = in;
    r->nkeys = ov->nkeys;
    r->keys = ov->keys;
    r->nsort = ov->nsort;
    r->sort_cols = ov->sort_cols;
    r->sort_desc = ov->sort_desc;
    r->sort_nulls_first = ov->sort_nulls_first;
    if (r->kind == WR_RANK && uses_rank) {
        r->out = ov->out;
        r->rank_col = rc;
    } else {
        r->out.n = in->out.n;
        r->out.names = in->out.names;
        r->out.types = in->out.types;
    }
    /* the Calc above keeps its projection and the remaining conditions */
    WRel *c = wa_memdup(p->arena, calc, sizeof *calc);
    c->inputs = WA_ARRAY(p->arena, WRel *, 1);
    c->inputs[0] = r;
    c->exprs = exprs;
    c->cond = wplan_and(p, keep, nk);
    return c;
}

static WRel *apply_rank_rule(WPlanCtx *p, WRel *r)
{
    /* the pattern is matched top-down: Calc(filter on the rank) over the ranking node */
    if (r->kind == WR_CALC && r->inputs[0]->kind == WR_OVER_RANK && r->cond) {
        WRel *x = rank_rule(p, r);
        if (x) r = x;
    }
    for (int i = 0; i < r->ninputs; i++) {
        if (r->kind == WR_CALC && r->inputs[i]->kind == WR_RANK) {
            WRel *rk = r->inputs[i];
            rk->inputs[0] = apply_rank_rule(p, rk->inputs[0]);
            if (!rk->inputs[0]) return NULL;
            continue;
        }
        if (r->kind == WR_CALC && r->inputs[i]->kind == WR_DEDUP) {
            WRel *dd = r->inputs[i];
            dd->inputs[0] = apply_rank_rule(p, dd->inputs[0]);
            if (!dd->inputs[0]) return NULL;
            continue;
        }
        r->inputs[i] = apply_rank_rule(p, r->inputs[i]);
        if (!r->inputs[i]) return NULL;
    }
    if (r->kind == WR_OVER_RANK) return wover_rank_without_filter(p, r);     /* over_rules.c */
    return r;
}

/* ---------------- windows ---------------- */

/* Output columns of r that carry window_start / window_end of a window (TVF or window
   aggregate), followed through Calcs and Exchanges; -1 when none. */
static void window_props(const WRel *r, int *ws, int *we)
{
    *ws = *we = -1;
    switch (r->kind) {
    case WR_WINDOW_TVF:
        *ws = r->inputs[0]->out.n;
        *we = *ws + 1;
        return;
    case WR_WINDOW_AGG:
        *ws = r->win_out_start;
        *we = r->win_out_end;
        return;
    case WR_EXCHANGE: case WR_WINDOW_RANK:
        window_props(r->inputs[0], ws, we);
        return;
    case WR_CALC: {
        int is, ie;
        window_props(r->inputs[0], &is, &ie);
        if (is < 0) return;
        for (int i = 0; i < r->nexprs; i++) {
            if (r->exprs[i]->kind != WX_COLUMN) continue;
            if (r->exprs[i]->col == is && *ws < 0) *ws = i;
            if (r->exprs[i]->col == ie && *we < 0) *we = i;
        }
        if (*ws < 0 || *we < 0) *ws = *we = -1;
        return;
    }
    default:
        return;
    }
}

/* A Calc mapping a WindowAggregate's output (keys, aggregates, window_start, window_end,
   window_time) back to the layout of the GroupAggregate it replaces: group key gs/ge/gt (-1 if
   absent) are the window columns, the other keys and the aggregates in order. */
static WRel *window_agg_layout(WPlanCtx *p, const WRel *agg, WRel *w, int gs, int ge, int gt)
{
    WRel *post = wrel_new(p, WR_CALC, 1);
    post->inputs[0] = w;
    post->out = agg->out;
    post->out.types = WA_ARRAY(p->arena, const WType *, agg->out.n ? agg->out.n : 1);
    post->nexprs = agg->out.n;
    post->exprs = WA_ARRAY(p->arena, WExpr *, agg->out.n ? agg->out.n : 1);
    int kq = 0;
    for (int k = 0; k < agg->nkeys; k++) {
        int src_col = k == gs ? w->win_out_start : k == ge ? w->win_out_end : k == gt ? w->win_out_time : kq++;
        if (src_col < 0) {
            /* a legacy group window whose properties nothing uses */
            post->exprs[k] = wexpr_literal(p->arena, agg->out.types[k], (WDatum){0}, true);
            continue;
        }
        post->exprs[k] = wexpr_column(p->arena, src_col, w->out.types[src_col], agg->out.names[k]);
    }
    for (int j = 0; j < agg->naggs; j++)
        post->exprs[agg->nkeys + j] = wexpr_column(p->arena, w->nkeys + j, w->out.types[w->nkeys + j],
                                                   agg->out.names[agg->nkeys + j]);
    for (int i = 0; i < agg->out.n; i++) post->out.types[i] = post->exprs[i]->type;
    return post;
}

/* GroupAggregate over Calc over WindowTableFunction, grouped by window_start and window_end:
   a WindowAggregate that assigns windows itself (Flink fuses the TVF into the aggregate). */
static WRel *window_agg_rule(WPlanCtx *p, WRel *agg)
{
    WRel *pre = agg->inputs[0];
    if (pre->kind != WR_CALC || pre->cond || pre->inputs[0]->kind != WR_WINDOW_TVF) return NULL;
    WRel *tvf = pre->inputs[0];
    WRel *src = tvf->inputs[0];
    int n = src->out.n;                 /* window columns of the TVF: n, n+1, n+2 */
    int gs = -1, ge = -1, gt = -1;
    for (int i = 0; i < agg->nkeys; i++) {
        const WExpr *k = pre->exprs[agg->keys[i]];
        if (k->kind != WX_COLUMN) continue;
        if (k->col == n) gs = i;
        else if (k->col == n + 1) ge = i;
        else if (k->col == n + 2) gt = i;
    }
    if (gs < 0 || ge < 0) return NULL;
    if (tvf->win_kind == WWIN_SESSION && !tvf->win_legacy) {
        /* a SESSION TVF's sessions span its partition (all rows without PARTITION BY): the
           aggregate is fused only when it groups by exactly that partition, as Flink does */
        int nother = 0;
        for (int i = 0; i < agg->nkeys; i++) {
            if (i == gs || i == ge || i == gt) continue;
            const WExpr *k = pre->exprs[agg->keys[i]];
            bool in_part = false;
            for (int q = 0; q < tvf->win_npartition; q++)
                if (k->kind == WX_COLUMN && k->col == tvf->win_partition[q]) in_part = true;
            if (!in_part) return NULL;
            nother++;
        }
        if (nother != tvf->win_npartition) return NULL;
    }
    /* every other expression of the pre-projection must not use the window columns */
    for (int i = 0; i < pre->nexprs; i++) {
        bool is_wkey = false;
        for (int k = 0; k < agg->nkeys; k++)
            if (agg->keys[k] == i && (k == gs || k == ge || k == gt)) is_wkey = true;
        if (is_wkey) continue;
        if (refs_col(pre->exprs[i], n) || refs_col(pre->exprs[i], n + 1) || refs_col(pre->exprs[i], n + 2))
            return NULL;
    }
    /* new pre-projection over the TVF's input: other keys, aggregate arguments, time column */
    int npre = pre->nexprs;
    int *newpos = ints(p, npre);
    WExpr **ex = WA_ARRAY(p->arena, WExpr *, npre + 1);
    const char **names = WA_ARRAY(p->arena, const char *, npre + 1);
    int m = 0, time_col = -1;
    for (int i = 0; i < npre; i++) {
        newpos[i] = -1;
        bool is_wkey = false;
        for (int k = 0; k < agg->nkeys; k++)
            if (agg->keys[k] == i && (k == gs || k == ge || k == gt)) is_wkey = true;
        if (is_wkey && tvf->win_legacy && agg->keys[gs] == i) {
            /* a legacy group window's input keeps the time column where GROUP BY named the
               window (Flink's LogicalProject under the aggregate) */
            time_col = m;
            ex[m] = wexpr_column(p->arena, tvf->win_time_col, src->out.types[tvf->win_time_col],
                                 src->out.names[tvf->win_time_col]);
            names[m] = src->out.names[tvf->win_time_col];
            m++;
        }
        if (is_wkey) continue;
        newpos[i] = m;
        ex[m] = pre->exprs[i];
        names[m] = pre->out.names[i];
        m++;
    }
    if (time_col < 0) {
        time_col = m;
        ex[m] = wexpr_column(p->arena, tvf->win_time_col, src->out.types[tvf->win_time_col], src->out.names[tvf->win_time_col]);
        names[m] = src->out.names[tvf->win_time_col];
        m++;
    }
    WRel *c = wrel_new(p, WR_CALC, 1);
    c->inputs[0] = src;
    c->nexprs = m;
    c->exprs = ex;
    c->out.n = m;
    c->out.names = names;
    c->out.types = WA_ARRAY(p->arena, const WType *, m);
    for (int i = 0; i < m; i++) c->out.types[i] = ex[i]->type;
    c->changelog = src->changelog;
    WRel *cin = c;
    if (tvf->win_legacy) {
        /* Flink's LogicalProject under a legacy group window sits right on the watermark
           assigner: ProjectWatermarkAssignerTransposeRule pushes it below */
        WRel *t = wplan_calc_watermark_transpose(p, c);
        if (t) cin = t;
    }
    WRel *w = wrel_new(p, WR_WINDOW_AGG, 1);
    w->inputs[0] = cin;
    w->win_kind = tvf->win_kind;
    w->win_size = tvf->win_size;
    w->win_slide = tvf->win_slide;
    w->win_offset = tvf->win_offset;
    w->win_gap = tvf->win_gap;
    w->win_proctime = tvf->win_proctime;
    w->win_legacy = tvf->win_legacy;
    w->win_time_col = time_col;
    int nk = 0;
    w->keys = ints(p, agg->nkeys);
    for (int k = 0; k < agg->nkeys; k++)
        if (k != gs && k != ge && k != gt) w->keys[nk++] = newpos[agg->keys[k]];
    w->nkeys = nk;
    if (tvf->win_kind == WWIN_SESSION && !tvf->win_legacy) {
        /* the session partition is the aggregate's key */
        w->win_npartition = nk;
        w->win_partition = w->keys;
    }
    w->naggs = agg->naggs;
    w->aggs = WA_ARRAY(p->arena, WAggCall, agg->naggs ? agg->naggs : 1);
    for (int j = 0; j < agg->naggs; j++) {
        w->aggs[j] = agg->aggs[j];
        for (int k = 0; k < agg->aggs[j].nargs; k++) w->aggs[j].args[k] = newpos[agg->aggs[j].args[k]];
        if (agg->aggs[j].filter_col >= 0) w->aggs[j].filter_col = newpos[agg->aggs[j].filter_col];
    }
    /* output: keys, aggregates, window_start, window_end, window_time; a legacy group window
       (Flink's GroupWindowAggregate): keys, aggregates, then its named window properties
       w$start, w$end, w$rowtime (row time only), w$proctime when the query uses any of them */
    int nprops = !tvf->win_legacy ? 3 : !tvf->win_legacy_props ? 0 : tvf->win_proctime ? 3 : 4;
    int no = nk + agg->naggs + nprops;
    w->out.n = no;
    w->out.names = WA_ARRAY(p->arena, const char *, no);
    w->out.types = WA_ARRAY(p->arena, const WType *, no);
    int q = 0;
    for (int k = 0; k < agg->nkeys; k++) {
        if (k == gs || k == ge || k == gt) continue;
        w->out.names[q] = agg->out.names[k];
        w->out.types[q] = agg->out.types[k];
        q++;
    }
    for (int j = 0; j < agg->naggs; j++) {
        w->out.names[q] = agg->out.names[agg->nkeys + j];
        w->out.types[q] = agg->out.types[agg->nkeys + j];
        q++;
    }
    w->win_legacy_props = tvf->win_legacy_props;
    if (tvf->win_legacy) {
        w->win_out_start = w->win_out_end = w->win_out_time = -1;
        if (nprops) {
            w->win_out_start = q;
            w->out.names[q] = "w$start";
            w->out.types[q++] = tvf->out.types[n];
            w->win_out_end = q;
            w->out.names[q] = "w$end";
            w->out.types[q++] = tvf->out.types[n + 1];
            const WType *ltz = wtype_with_time_attr(p->arena, wtype_timestamp(p->arena, WT_TIMESTAMP_LTZ, 3, true), WTA_PROCTIME);
            if (!tvf->win_proctime) {
                w->win_out_time = q;
                w->out.names[q] = "w$rowtime";
                w->out.types[q++] = wtype_with_nullable(p->arena, tvf->out.types[n + 2], true);
            } else {
                w->win_out_time = q;
            }
            w->out.names[q] = "w$proctime";
            w->out.types[q++] = ltz;
        }
        w->changelog = WCM_INSERT;
        w->input_retracts = src->changelog != WCM_INSERT;
        return window_agg_layout(p, agg, w, gs, ge, gt);
    }
    w->win_out_start = q;
    w->out.names[q] = "window_start";
    w->out.types[q++] = tvf->out.types[n];
    w->win_out_end = q;
    w->out.names[q] = "window_end";
    w->out.types[q++] = tvf->out.types[n + 1];
    w->win_out_time = q;
    w->out.names[q] = "window_time";
    w->out.types[q++] = tvf->out.types[n + 2];
    w->changelog = WCM_INSERT;
    w->input_retracts = src->changelog != WCM_INSERT;
    return window_agg_layout(p, agg, w, gs, ge, gt);
}

/* The node that defines the window whose window_start/window_end columns window_props finds
   (a WindowTableFunction or WindowAggregate), NULL if none. */
static const WRel *window_origin(const WRel *r)
{
    switch (r->kind) {
    case WR_WINDOW_TVF: case WR_WINDOW_AGG: return r;
    case WR_EXCHANGE: case WR_WINDOW_RANK: case WR_CALC: return window_origin(r->inputs[0]);
    default: return NULL;
    }
}

/* Copies the window definition (kind, size, slide, offset, gap, time domain) of the window that
   produced r's window columns onto w, when there is one. */
static void copy_window_spec(WRel *w, const WRel *r)
{
    const WRel *origin = window_origin(r);
    if (!origin) return;
    w->win_kind = origin->win_kind;
    w->win_size = origin->win_size;
    w->win_slide = origin->win_slide;
    w->win_offset = origin->win_offset;
    w->win_gap = origin->win_gap;
    w->win_proctime = origin->win_proctime;
}

/* GroupAggregate grouped by window_start and window_end of a windowed input that is not a
   window TVF it can fuse (e.g. the output of a WindowAggregate, or a TVF behind a filter): a
   WindowAggregate whose rows carry their window (Flink's WindowAttachedWindowingStrategy). */
static WRel *window_attached_agg_rule(WPlanCtx *p, WRel *agg)
{
    WRel *in = agg->inputs[0];
    int ws, we;
    window_props(in, &ws, &we);
    if (ws < 0 || in->changelog != WCM_INSERT) return NULL;
    const WRel *origin = window_origin(in);
    if (!origin || origin->win_kind == WWIN_SESSION) return NULL;     /* session bounds are per session */
    int gs = -1, ge = -1;
    for (int i = 0; i < agg->nkeys; i++) {
        if (agg->keys[i] == ws && gs < 0) gs = i;
        else if (agg->keys[i] == we && ge < 0) ge = i;
    }
    if (gs < 0 || ge < 0) return NULL;
    WRel *w = wrel_new(p, WR_WINDOW_AGG, 1);
    w->inputs[0] = in;
    copy_window_spec(w, in);
    w->win_attached = true;
    w->win_start_col = ws;
    w->win_end_col = we;
    w->win_time_col = we;
    int nk = 0;
    w->keys = ints(p, agg->nkeys);
    for (int k = 0; k < agg->nkeys; k++)
        if (k != gs && k != ge) w->keys[nk++] = agg->keys[k];
    w->nkeys = nk;
    w->naggs = agg->naggs;
    w->aggs = agg->aggs;
    int no = nk + agg->naggs + 3;
    w->out.n = no;
    w->out.names = WA_ARRAY(p->arena, const char *, no);
    w->out.types = WA_ARRAY(p->arena, const WType *, no);
    int q = 0;
    for (int k = 0; k < agg->nkeys; k++) {
        if (k == gs || k == ge) continue;
        w->out.names[q] = agg->out.names[k];
        w->out.types[q++] = agg->out.types[k];
    }
    for (int j = 0; j < agg->naggs; j++) {
        w->out.names[q] = agg->out.names[agg->nkeys + j];
        w->out.types[q++] = agg->out.types[agg->nkeys + j];
    }
    w->win_out_start = q;
    w->out.names[q] = "window_start";
    w->out.types[q++] = in->out.types[ws];
    w->win_out_end = q;
    w->out.names[q] = "window_end";
    w->out.types[q++] = in->out.types[we];
    w->win_out_time = q;
    w->out.names[q] = "window_time";
    w->out.types[q++] = origin->kind == WR_WINDOW_AGG ? origin->out.types[origin->win_out_time]
                                                      : origin->out.types[origin->inputs[0]->out.n + 2];
    w->changelog = WCM_INSERT;
    w->input_retracts = false;
    return window_agg_layout(p, agg, w, gs, ge, -1);
}

/* Rank / Deduplicate partitioned by window_start and window_end of a window: WindowRank. */
static WRel *window_rank_rule(WPlanCtx *p, WRel *r)
{
    int ws, we;
    window_props(r->inputs[0], &ws, &we);
    if (ws < 0) return NULL;
    int ks = -1, ke = -1;
    for (int i = 0; i < r->nkeys; i++) {
        if (r->keys[i] == ws) ks = i;
        if (r->keys[i] == we) ke = i;
    }
    if (ks < 0 || ke < 0) return NULL;
    /* Flink 2.3's WindowRank ranks by ROW_NUMBER only (rank_func: 0 ROW_NUMBER, 1 RANK, 2 DENSE_RANK) */
    if (r->kind == WR_RANK && r->rank_func != 0)
        return fail(p, WEXC_TABLE, r->rank_func == 1
            ? "RANK() function is not supported on Window TopN currently, only ROW_NUMBER() is supported."
            : "DENSE_RANK() function is not supported on Window TopN currently, only ROW_NUMBER() is supported.");
    WRel *w = wa_memdup(p->arena, r, sizeof *r);
    w->kind = WR_WINDOW_RANK;
    copy_window_spec(w, r->inputs[0]);
    w->win_dedup = r->kind == WR_DEDUP;
    w->win_start_col = ws;
    w->win_end_col = we;
    w->keys = ints(p, r->nkeys);
    w->nkeys = 0;
    for (int i = 0; i < r->nkeys; i++) if (i != ks && i != ke) w->keys[w->nkeys++] = r->keys[i];
    if (w->win_dedup) {
        /* window deduplication keeps the first/last row by the time attribute */
        w->rank_func = 0;
        w->rank_start = w->rank_end = 1;
        w->output_rank_number = false;
    }
    w->changelog = WCM_INSERT;
    return w;
}

static WRel *apply_window_rules(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) {
        r->inputs[i] = apply_window_rules(p, r->inputs[i]);
        if (!r->inputs[i]) return NULL;
    }
    if (r->kind == WR_GROUP_AGG) {
        WRel *x = window_agg_rule(p, r);
        if (!x) x = window_attached_agg_rule(p, r);
        if (x) return x;
    }
    if (r->kind == WR_RANK || r->kind == WR_DEDUP) {
        WRel *x = window_rank_rule(p, r);
        if (x) return x;
        if (p->err && p->err->set) return NULL;
    }
    return r;
}

/* ---------------- inner-join filter merge ---------------- */

/* The columns e reads: bit 0 = some below `split`, bit 1 = some at or above it; 4 = a
   non-deterministic part (PROCTIME(), a non-deterministic function). */
static int join_side_refs(const WExpr *e, int split)
{
    if (e->kind == WX_COLUMN) return e->col < split ? 1 : 2;
    if (e->kind == WX_PROCTIME || (e->kind == WX_CALL && e->func && !e->func->deterministic)) return 4;
    int m = 0;
    for (int i = 0; i < e->nargs; i++) m |= join_side_refs(e->args[i], split);
    return m;
}

/* A filter over `in` keeping all its columns. */
static WRel *filter_rel(WPlanCtx *p, WRel *in, WExpr *cond)
{
    WRel *c = wrel_new(p, WR_CALC, 1);
    c->inputs[0] = in;
    c->nexprs = in->out.n;
    c->exprs = WA_ARRAY(p->arena, WExpr *, in->out.n ? in->out.n : 1);
    c->out = in->out;
    for (int i = 0; i < in->out.n; i++) c->exprs[i] = wexpr_column(p->arena, i, in->out.types[i], in->out.names[i]);
    c->cond = cond;
    c->changelog = in->changelog;
    return c;
}

static bool window_input(const WRel *r)
{
    while (r->kind == WR_CALC) r = r->inputs[0];
    if (r->kind == WR_WINDOW_TVF || r->kind == WR_WINDOW_AGG || r->kind == WR_WINDOW_RANK) return true;
    return (r->kind == WR_GROUP_AGG || r->kind == WR_RANK || r->kind == WR_DEDUP) && r->ninputs &&
           window_input(r->inputs[0]);
}

/* Calcite's FilterJoinRule: a join condition's conjuncts that read one input only filter that
   input below the join — both inputs of an inner join, the inner side of an outer or semi/anti
   join (the preserved side's rows must all reach the join). Deterministic conjuncts only; joins
   of windows and temporal joins keep their conditions (their rules read them). */
static WRel *push_join_filters(WPlanCtx *p, WRel *j)
{
    if (j->kind != WR_JOIN || !j->join_cond || j->temporal || j->join_type == AJ_FULL) return j;
    if (window_input(j->inputs[0]) || window_input(j->inputs[1])) return j;
    int nl = j->inputs[0]->out.n;
    bool to_left = j->join_type == AJ_INNER && !j->semi && !j->anti;
    to_left = to_left || (j->join_type == AJ_RIGHT);
    bool to_right = j->join_type == AJ_INNER || j->join_type == AJ_LEFT;
    WExpr *all[256], *keep[256], *lf[256], *rf[256];
    int n = 0, nk = 0, nlf = 0, nrf = 0;
    wplan_split_and(j->join_cond, all, &n, 256);
    for (int i = 0; i < n; i++) {
        int m = join_side_refs(all[i], nl);
        if (m == 1 && to_left) lf[nlf++] = all[i];
        else if (m == 2 && to_right) rf[nrf++] = shift_cols(p, all[i], nl, -nl);
        else keep[nk++] = all[i];
    }
    if (!nlf && !nrf) return j;
    WRel *nj = wa_memdup(p->arena, j, sizeof *j);
    nj->inputs = WA_ARRAY(p->arena, WRel *, 2);
    nj->inputs[0] = nlf ? filter_rel(p, j->inputs[0], wplan_and(p, lf, nlf)) : j->inputs[0];
    nj->inputs[1] = nrf ? filter_rel(p, j->inputs[1], wplan_and(p, rf, nrf)) : j->inputs[1];
    nj->join_cond = wplan_and(p, keep, nk);
    return nj;
}

static WRel *merge_filters_into_joins(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) r->inputs[i] = push_join_filters(p, merge_filters_into_joins(p, r->inputs[i]));
    if (r->kind == WR_CALC && r->cond && r->inputs[0]->kind == WR_JOIN) {
        WRel *j = r->inputs[0];
        if (j->join_type == AJ_INNER && !j->semi && !j->anti) {
            WExpr *cs[2] = {j->join_cond, r->cond};
            WExpr *all[256];
            int n = 0;
            wplan_split_and(cs[0], all, &n, 256);
            wplan_split_and(cs[1], all, &n, 256);
            WRel *nj = wa_memdup(p->arena, j, sizeof *j);
            nj->join_cond = wplan_and(p, all, n);
            WRel *c = wa_memdup(p->arena, r, sizeof *r);
            c->inputs = WA_ARRAY(p->arena, WRel *, 1);
            c->inputs[0] = push_join_filters(p, nj);
            c->cond = NULL;
            return c;
        }
    }
    return r;
}

/* ---------------- join keys ---------------- */

/* Append expressions as extra columns of `side` (a Calc over it). Returns the new rel. */
static WRel *extend(WPlanCtx *p, WRel *side, WExpr **extra, int nextra)
{
    int n = side->out.n;
    WRel *c = wrel_new(p, WR_CALC, 1);
    c->inputs[0] = side;
    c->nexprs = n + nextra;
    c->exprs = WA_ARRAY(p->arena, WExpr *, n + nextra);
    c->out.n = n + nextra;
    c->out.names = WA_ARRAY(p->arena, const char *, n + nextra);
    c->out.types = WA_ARRAY(p->arena, const WType *, n + nextra);
    for (int i = 0; i < n; i++) {
        c->exprs[i] = wexpr_column(p->arena, i, side->out.types[i], side->out.names[i]);
        c->out.names[i] = side->out.names[i];
        c->out.types[i] = side->out.types[i];
    }
    for (int i = 0; i < nextra; i++) {
        c->exprs[n + i] = extra[i];
        c->out.names[n + i] = wa_sprintf(p->arena, "$f%d", n + i);
        c->out.types[n + i] = extra[i]->type;
    }
    c->changelog = side->changelog;
    return c;
}

/* Recognise (l IS NULL AND r IS NULL) OR l = r. */
static bool is_null_safe_eq(const WExpr *e, WExpr **l, WExpr **r)
{
    if (e->kind != WX_OR || e->nargs != 2) return false;
    const WExpr *a = e->args[0], *b = e->args[1];
    if (a->kind != WX_AND) { const WExpr *t = a; a = b; b = t; }
    if (a->kind != WX_AND || a->nargs != 2 || !is_func(b, "=")) return false;
    if (a->args[0]->kind != WX_IS_NULL || a->args[1]->kind != WX_IS_NULL) return false;
    if (a->args[0]->negated || a->args[1]->negated) return false;
    if (!wexpr_equal(a->args[0]->args[0], b->args[0]) || !wexpr_equal(a->args[1]->args[0], b->args[1])) {
        if (!wexpr_equal(a->args[0]->args[0], b->args[1]) || !wexpr_equal(a->args[1]->args[0], b->args[0]))
            return false;
    }
    *l = b->args[0];
    *r = b->args[1];
    return true;
}

static WRel *plan_join_keys(WPlanCtx *p, WRel *j)
{
    int ln = j->inputs[0]->out.n, rn = j->inputs[1]->out.n;
    WExpr *cs[256];
    int n = 0;
    wplan_split_and(j->join_cond, cs, &n, 256);
    WExpr *lx[64], *rx[64];
    bool fnull[64];
    int nkeys = 0;
    WExpr *rest[256];
    int nrest = 0;
    for (int i = 0; i < n; i++) {
        WExpr *c = cs[i], *a = NULL, *b = NULL;
        bool filter_nulls = true;
        if (is_func(c, "=") ) { a = c->args[0]; b = c->args[1]; }
        else if (is_func(c, "IS NOT DISTINCT FROM")) { a = c->args[0]; b = c->args[1]; filter_nulls = false; }
        else if (is_null_safe_eq(c, &a, &b)) filter_nulls = false;
        if (a && nkeys < 64) {
            int alo = -1, ahi = -1, blo = -1, bhi = -1;
            col_range(a, &alo, &ahi);
            col_range(b, &blo, &bhi);
            bool a_left = alo >= 0 && ahi < ln, a_right = alo >= ln;
            bool b_left = blo >= 0 && bhi < ln, b_right = blo >= ln;
            if ((a_left && b_right) || (a_right && b_left)) {
                if (a_right) { WExpr *t = a; a = b; b = t; }
                lx[nkeys] = a;
                rx[nkeys] = shift_cols(p, b, ln, -ln);
                fnull[nkeys] = filter_nulls;
                nkeys++;
                continue;
            }
        }
        rest[nrest++] = c;
    }
    /* both sides of a key have one type (the operator compares key bytes): cast to the common one */
    for (int k = 0; k < nkeys; k++) {
        const WType *lt = lx[k]->type, *rt = rx[k]->type;
        if (wtype_equals(lt, rt, true)) continue;
        const WType *ct = wtype_common(p->arena, lt, rt);
        if (!ct) continue;
        if (!wtype_equals(lt, ct, true)) {
            WExpr *c = wexpr_new(p->arena, WX_CAST, wtype_with_nullable(p->arena, ct, lt->nullable), 1);
            c->args[0] = lx[k];
            lx[k] = c;
        }
        if (!wtype_equals(rt, ct, true)) {
            WExpr *c = wexpr_new(p->arena, WX_CAST, wtype_with_nullable(p->arena, ct, rt->nullable), 1);
            c->args[0] = rx[k];
            rx[k] = c;
        }
    }
    /* keys that are not plain columns are computed below the join */
    WExpr *lextra[64], *rextra[64];
    int nle = 0, nre = 0;
    j->nkeys = nkeys;
    j->keys = ints(p, nkeys);
    j->right_keys = ints(p, nkeys);
    j->key_filter_nulls = WA_ARRAY(p->arena, bool, nkeys ? nkeys : 1);
    for (int k = 0; k < nkeys; k++) {
        j->key_filter_nulls[k] = fnull[k];
        if (lx[k]->kind == WX_COLUMN) j->keys[k] = lx[k]->col;
        else { j->keys[k] = ln + nle; lextra[nle++] = lx[k]; }
        if (rx[k]->kind == WX_COLUMN) j->right_keys[k] = rx[k]->col;
        else { j->right_keys[k] = rn + nre; rextra[nre++] = rx[k]; }
    }
    WExpr *residual = wplan_and(p, rest, nrest);
    if (nle == 0 && nre == 0) {
        j->join_cond = residual;
        return j;
    }
    WRel *l = nle ? extend(p, j->inputs[0], lextra, nle) : j->inputs[0];
    WRel *r = nre ? extend(p, j->inputs[1], rextra, nre) : j->inputs[1];
    WRel *nj = wa_memdup(p->arena, j, sizeof *j);
    nj->inputs = WA_ARRAY(p->arena, WRel *, 2);
    nj->inputs[0] = l;
    nj->inputs[1] = r;
    /* residual: right columns shift by nle */
    nj->join_cond = residual && nle ? shift_cols(p, residual, ln, nle) : residual;
    int lo = l->out.n, ro = j->semi || j->anti ? 0 : r->out.n;
    nj->out.n = lo + ro;
    nj->out.names = WA_ARRAY(p->arena, const char *, lo + ro + 1);
    nj->out.types = WA_ARRAY(p->arena, const WType *, lo + ro + 1);
    bool lnull = j->join_type == AJ_RIGHT || j->join_type == AJ_FULL;
    bool rnull = j->join_type == AJ_LEFT || j->join_type == AJ_FULL;
    for (int i = 0; i < lo; i++) {
        nj->out.names[i] = l->out.names[i];
        nj->out.types[i] = lnull ? wtype_with_nullable(p->arena, l->out.types[i], true) : l->out.types[i];
    }
    for (int i = 0; i < ro; i++) {
        nj->out.names[lo + i] = r->out.names[i];
        nj->out.types[lo + i] = rnull ? wtype_with_nullable(p->arena, r->out.types[i], true) : r->out.types[i];
    }
    /* project the extra key columns away */
    WRel *c = wrel_new(p, WR_CALC, 1);
    c->inputs[0] = nj;
    c->out = j->out;
    c->nexprs = j->out.n;
    c->exprs = WA_ARRAY(p->arena, WExpr *, j->out.n ? j->out.n : 1);
    for (int i = 0; i < j->out.n; i++) {
        int src = i < ln ? i : i + nle;
        c->exprs[i] = wexpr_column(p->arena, src, nj->out.types[src], j->out.names[i]);
    }
    return c;
}

/* A join whose keys pair window_start and window_end of two windowed inputs: WindowJoin. */
static WRel *window_join_rule(WPlanCtx *p, WRel *j)
{
    int lws, lwe, rws, rwe;
    window_props(j->inputs[0], &lws, &lwe);
    window_props(j->inputs[1], &rws, &rwe);
    if (lws < 0 || rws < 0) return j;
    int ks = -1, ke = -1;
    for (int k = 0; k < j->nkeys; k++) {
        if (j->keys[k] == lws && j->right_keys[k] == rws) ks = k;
        if (j->keys[k] == lwe && j->right_keys[k] == rwe) ke = k;
    }
    if (ks < 0 || ke < 0) return j;
    WRel *w = wa_memdup(p->arena, j, sizeof *j);
    w->kind = WR_WINDOW_JOIN;
    copy_window_spec(w, j->inputs[0]);
    w->win_start_col = lws;
    w->win_end_col = lwe;
    w->win_rstart_col = rws;
    w->win_rend_col = rwe;
    w->keys = ints(p, j->nkeys);
    w->right_keys = ints(p, j->nkeys);
    w->nkeys = 0;
    for (int k = 0; k < j->nkeys; k++) {
        if (k == ks || k == ke) continue;
        w->keys[w->nkeys] = j->keys[k];
        w->right_keys[w->nkeys] = j->right_keys[k];
        w->nkeys++;
    }
    return w;
}

/* A time bound "col [+/- interval]" of one join side: *side 0 left / 1 right, *col, *off ms. */
static bool time_term(const WRel *j, const WExpr *e, int ln, int *side, int *col, int64_t *off)
{
    int64_t o = 0;
    if (e->kind == WX_CAST && e->nargs == 1) e = e->args[0];
    if (e->kind == WX_CALL && e->nargs == 2 && (is_func(e, "+") || is_func(e, "-"))) {
        const WExpr *iv = e->args[1];
        if (iv->kind != WX_LITERAL || iv->is_null || iv->type->id != WT_INTERVAL_DT) return false;
        o = is_func(e, "+") ? iv->lit.i : -iv->lit.i;
        e = e->args[0];
        if (e->kind == WX_CAST && e->nargs == 1) e = e->args[0];
    }
    if (e->kind != WX_COLUMN || !wtype_is_timestamp(e->type)) return false;
    *side = e->col >= ln;
    *col = e->col >= ln ? e->col - ln : e->col;
    /* the input's column decides: a WHERE merged into the join refers to the join's output row,
       whose types no longer carry time attributes */
    const WRel *in = j->inputs[*side];
    if (*col >= in->out.n || in->out.types[*col]->time_attr == WTA_NONE) return false;
    *off = o;
    return true;
}

/* Time-bounded join conditions l.t OP r.t +/- c make an IntervalJoin (Flink's
   IntervalJoinUtil): both a lower and an upper bound on l.t - r.t are needed. */
static WRel *interval_join_rule(WPlanCtx *p, WRel *j)
{
    if (j->semi || j->anti || j->temporal) return j;
    int ln = j->inputs[0]->out.n;
    WExpr *cs[256];
    int n = 0;
    wplan_split_and(j->join_cond, cs, &n, 256);
    bool has_lo = false, has_hi = false, lo_strict = false, hi_strict = false;
    int64_t lo = 0, hi = 0;
    int lcol = -1, rcol = -1;
    WExpr *rest[256];
    int nrest = 0;
    for (int i = 0; i < n; i++) {
        WExpr *c = cs[i];
        int sa, ca, sb, cb;
        int64_t oa, ob;
        const char *f = c->kind == WX_CALL && c->func ? c->func->name : "";
        bool cmp = !strcmp(f, "<") || !strcmp(f, "<=") || !strcmp(f, ">") || !strcmp(f, ">=");
        if (!cmp || !time_term(j, c->args[0], ln, &sa, &ca, &oa) || !time_term(j, c->args[1], ln, &sb, &cb, &ob) ||
            sa == sb) {
            rest[nrest++] = c;
            continue;
        }
        if ((lcol >= 0 && lcol != (sa == 0 ? ca : cb)) || (rcol >= 0 && rcol != (sa == 1 ? ca : cb))) {
            rest[nrest++] = c;
            continue;
        }
        lcol = sa == 0 ? ca : cb;
        rcol = sa == 1 ? ca : cb;
        /* a + oa OP b + ob  =>  a - b OP ob - oa; make it l - r OP k */
        int64_t k = ob - oa;
        bool less = f[0] == '<', strict = f[1] == 0;
        if (sa == 1) { less = !less; k = -k; }      /* r - l OP' k  =>  l - r OP'' -k */
        if (less) {
            if (!has_hi || k < hi || (k == hi && strict)) { hi = k; hi_strict = strict; }
            has_hi = true;
        } else {
            if (!has_lo || k > lo || (k == lo && strict)) { lo = k; lo_strict = strict; }
            has_lo = true;
        }
    }
    if (!has_lo || !has_hi) return j;
    WRel *x = wa_memdup(p->arena, j, sizeof *j);
    x->kind = WR_INTERVAL_JOIN;
    x->left_time_col = lcol;
    x->right_time_col = rcol;
    x->lower_ms = lo;
    x->upper_ms = hi;
    x->lower_strict = lo_strict;
    x->upper_strict = hi_strict;
    x->shown_cond = j->join_cond;
    x->join_cond = wplan_and(p, rest, nrest);
    return x;
}

static WRel *temporal_join_rule(WPlanCtx *p, WRel *j)
{
    if (!j->temporal) return j;
    WRel *x = wa_memdup(p->arena, j, sizeof *j);
    x->kind = WR_TEMPORAL_JOIN;
    if (x->nkeys == 0) {
        werr_set(p->err, WEXC_VALIDATION,
                 "Temporal table's primary key [%s] must be included in the equivalence condition of temporal join, "
                 "but current temporal join condition is [%s].", "", "");
        return NULL;
    }
    return x;
}

/* A processing-time temporal join against a lookup source: a LookupJoin whose one input is the
   left side, the dim table's scan kept aside (lookup_scan). The keys must be the dim table's own
   columns (Flink: "Temporal table join requires an equality condition on fields of table [t].") */
static WRel *lookup_join_rule(WPlanCtx *p, WRel *j)
{
    if (!j->lookup) return j;
    WRel *dim = j->inputs[1];
    const char *qname = dim->kind == WR_SCAN && dim->table_qname ? dim->table_qname : "";
    bool keys_ok = j->nkeys > 0 && dim->kind == WR_SCAN;
    for (int k = 0; keys_ok && k < j->nkeys; k++) keys_ok = j->right_keys[k] < dim->out.n;
    if (!keys_ok) {
        werr_set(p->err, WEXC_TABLE, "Temporal table join requires an equality condition on fields of table [%s].",
                 qname);
        return NULL;
    }
    WRel *x = wa_memdup(p->arena, j, sizeof *j);
    x->kind = WR_LOOKUP_JOIN;
    x->ninputs = 1;
    x->inputs = WA_ARRAY(p->arena, WRel *, 1);
    x->inputs[0] = j->inputs[0];
    x->lookup_scan = dim;
    /* EXPLAIN's joinCondition: the conjuncts reading an input column */
    WExpr *cs[256], *shown[256];
    int n = 0, ns = 0, ln = j->inputs[0]->out.n;
    wplan_split_and(j->join_cond, cs, &n, 256);
    for (int i = 0; i < n; i++) {
        int lo = -1, hi = -1;
        col_range(cs[i], &lo, &hi);
        if (lo >= 0 && lo < ln) shown[ns++] = cs[i];
    }
    x->shown_cond = wplan_and(p, shown, ns);
    return x;
}

/* The join node itself, below a Calc that plan_join_keys may have put on top. */
static WRel *join_rules(WPlanCtx *p, WRel *x)
{
    WRel *jn = x->kind == WR_CALC ? x->inputs[0] : x;
    if (jn->kind != WR_JOIN) return x;
    WRel *y = lookup_join_rule(p, jn);
    if (!y) return NULL;
    if (y == jn) y = window_join_rule(p, jn);
    if (y == jn) y = temporal_join_rule(p, jn);
    if (!y) return NULL;
    if (y == jn) y = interval_join_rule(p, jn);
    if (x->kind == WR_CALC) { x->inputs[0] = y; return x; }
    return y;
}

static WRel *apply_join_keys(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) {
        r->inputs[i] = apply_join_keys(p, r->inputs[i]);
        if (!r->inputs[i]) return NULL;
    }
    if (r->kind == WR_JOIN && !r->keys) return join_rules(p, plan_join_keys(p, r));
    return r;
}

/* ---------------- changelog modes and unique keys ---------------- */

bool wplan_upsert_connector(const char *connector)
{
    return connector && strcmp(connector, "upsert-kafka") == 0;
}

bool wplan_changelog_format(const char *format)
{
    return format && (strcmp(format, "changelog-csv") == 0 || strcmp(format, "debezium-json") == 0);
}

static uint8_t parse_mode(const char *m)
{
    if (!m) return ALL_KINDS;
    uint8_t bits = 0;
    const char *p = m;
    while (*p) {
        while (*p == ' ' || *p == ',' || *p == ';') p++;
        if (!*p) break;
        const char *e = p;
        while (*e && *e != ',' && *e != ';' && *e != ' ') e++;
        size_t n = (size_t)(e - p);
        if ((n == 1 && *p == 'I') || (n == 6 && strncasecmp(p, "INSERT", 6) == 0)) bits |= WCM_INSERT;
        else if ((n == 2 && strncasecmp(p, "UB", 2) == 0) || (n == 13 && strncasecmp(p, "UPDATE_BEFORE", 13) == 0)) bits |= WCM_UPDATE_BEFORE;
        else if ((n == 2 && strncasecmp(p, "UA", 2) == 0) || (n == 12 && strncasecmp(p, "UPDATE_AFTER", 12) == 0)) bits |= WCM_UPDATE_AFTER;
        else if ((n == 1 && *p == 'D') || (n == 6 && strncasecmp(p, "DELETE", 6) == 0)) bits |= WCM_DELETE;
        p = e;
    }
    return bits ? bits : ALL_KINDS;
}

static void set_unique(WPlanCtx *p, WRel *r, int n, const int *cols)
{
    r->nunique = n;
    r->unique = ints(p, n);
    for (int i = 0; i < n; i++) r->unique[i] = cols[i];
}

/* Unique key through a Calc: every key column must be projected as a plain reference. */
static void calc_unique(WPlanCtx *p, WRel *c)
{
    WRel *in = c->inputs[0];
    c->nunique = -1;
    if (in->nunique < 0) return;
    int *m = ints(p, in->nunique);
    for (int k = 0; k < in->nunique; k++) {
        m[k] = -1;
        for (int i = 0; i < c->nexprs; i++)
            if (c->exprs[i]->kind == WX_COLUMN && c->exprs[i]->col == in->unique[k]) { m[k] = i; break; }
        if (m[k] < 0) return;
    }
    set_unique(p, c, in->nunique, m);
}

static int64_t state_ttl(WPlanCtx *p)
{
    int64_t ttl = 0;
    WError tmp;
    werr_clear(&tmp);
    wopts_get_duration_ms(p->config, "table.exec.state.ttl", 0, &ttl, &tmp);
    return ttl;
}

static WRel *exchange(WPlanCtx *p, WRel *in, int nkeys, const int *keys)
{
    WRel *x = wrel_new(p, WR_EXCHANGE, 1);
    x->inputs[0] = in;
    x->out = in->out;
    x->nkeys = nkeys;
    x->keys = (int *)keys;
    x->exchange_single = nkeys == 0;
    x->changelog = in->changelog;
    x->nunique = in->nunique;
    x->unique = in->unique;
    return x;
}

static bool cdc_duplicates(WPlanCtx *p)
{
    bool v = false;
    WError tmp;
    werr_clear(&tmp);
    wopts_get_bool(p->config, "table.exec.source.cdc-events-duplicate", false, &v, &tmp);
    return v;
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
            if (col < 0 || col >= r->nexprs || r->exprs[col]->kind != WX_COLUMN) return 2;
            col = r->exprs[col]->col;
        }
        r = r->inputs[0];
    }
    if (r->kind != WR_GROUP_AGG) return 2;
    if (col < r->nkeys) return 0;
    int j = col - r->nkeys;
    if (j >= r->naggs || r->aggs[j].filter_col >= 0 || r->aggs[j].distinct) return 2;
    switch (r->aggs[j].kind) {
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
        if (r->kind == WR_CALC && r->cond) return true;    /* a filter turns updates into deletes */
        r = r->inputs[0];
    }
    return r->kind != WR_GROUP_AGG || r->input_retracts;
}

bool wplan_check_changelog_source(WPlanCtx *p, const WTable *t, const char *qname)
{
    const char *fmt = wopts_get(&t->options, "format");
    if (!wplan_changelog_format(fmt) || t->npk || !cdc_duplicates(p)) return true;
    if (parse_mode(wopts_get(&t->options, "changelog-csv.changelog-mode")) == WCM_INSERT) return true;
    werr_set(p->err, WEXC_TABLE,
             "Configuration 'table.exec.source.cdc-events-duplicate' is enabled which requires the changelog "
             "sources to define a PRIMARY KEY. However, table '%s' doesn't have a primary key.", qname);
    return false;
}

/* FlinkAggregateRemoveRule: a group aggregate (one grouping set, at least one key) whose keys
   contain a unique key of its input and whose calls are all SUM, MIN or MAX of one column without
   FILTER computes nothing: each group is one row. It becomes a Calc projecting the keys and the
   arguments (cast to the aggregate's result types), so an update of the input stays an update
   (Flink 2.3 plans no GroupAggregate there). NULL when the rule does not apply. */
static WRel *remove_unique_agg(WPlanCtx *p, WRel *agg, WRel *in)
{
    if (agg->nkeys == 0 || in->nunique < 0 || agg->partial_final != WPF_NONE) return NULL;
    for (int j = 0; j < agg->naggs; j++) {
        const WAggCall *a = &agg->aggs[j];
        if ((a->kind != WAGG_SUM && a->kind != WAGG_MIN && a->kind != WAGG_MAX) || a->filter_col >= 0 ||
            a->nargs != 1)
            return NULL;
    }
    for (int u = 0; u < in->nunique; u++) {
        bool grouped = false;
        for (int k = 0; k < agg->nkeys && !grouped; k++) grouped = agg->keys[k] == in->unique[u];
        if (!grouped) return NULL;
    }
    int n = agg->nkeys + agg->naggs;
    assert(n == agg->out.n);
    WRel *c = wrel_new(p, WR_CALC, 1);
    c->inputs[0] = in;
    c->out = agg->out;
    c->nexprs = n;
    c->exprs = WA_ARRAY(p->arena, WExpr *, n);
    c->agg_removed = true;
    for (int i = 0; i < n; i++) {
        int col = i < agg->nkeys ? agg->keys[i] : agg->aggs[i - agg->nkeys].args[0];
        WExpr *e = wexpr_column(p->arena, col, in->out.types[col], in->out.names[col]);
        if (!wtype_equals(e->type, agg->out.types[i], true)) {
            WExpr *cast = wexpr_new(p->arena, WX_CAST, agg->out.types[i], 1);
            cast->args[0] = e;
            e = cast;
        }
        e->name = agg->out.names[i];
        c->exprs[i] = e;
    }
    return wplan_simplify_calc(p, c);
}

/* Bottom-up: modes, unique keys, ChangelogNormalize, exchanges, TTLs. */
static WRel *derive(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) {
        r->inputs[i] = derive(p, r->inputs[i]);
        if (!r->inputs[i]) return NULL;
    }
    int64_t ttl = state_ttl(p);
    WRel *in = r->ninputs ? r->inputs[0] : NULL;
    r->nunique = -1;
    switch (r->kind) {
    case WR_SCAN: {
        WTable *t = r->table;
        if (t->npk) {
            int *pk = ints(p, t->npk);
            int *phys = ints(p, t->ncols);
            int np = wtable_physical(t, phys);
            for (int k = 0; k < t->npk; k++)
                for (int i = 0; i < np; i++) if (phys[i] == t->pk[k]) pk[k] = i;
            set_unique(p, r, t->npk, pk);
        }
        if (!r->source_changelog) { r->changelog = WCM_INSERT; break; }
        if (wplan_upsert_connector(wopts_get(&t->options, "connector")) && wplan_is_batch(p)) {
            werr_set(p->err, WEXC_TABLE,
                     "Querying a table in batch mode is currently only possible for INSERT-only table sources. "
                     "But the source for table '%s' produces other changelog messages than just INSERT.",
                     r->table_qname);
            return NULL;
        }
        /* upsert-kafka: Flink 2.3 shows its scan's mode as [UA,D] */
        r->changelog = wplan_upsert_connector(wopts_get(&t->options, "connector"))
                           ? WCM_UPDATE_AFTER | WCM_DELETE
                           : parse_mode(wopts_get(&t->options, "changelog-csv.changelog-mode"));
        bool upsert = !(r->changelog & WCM_UPDATE_BEFORE) && (r->changelog & (WCM_UPDATE_AFTER | WCM_DELETE));
        if (t->npk && (upsert || (cdc_duplicates(p) && r->changelog != WCM_INSERT))) {
            WRel *below = r;
            if (r->changelog & WCM_UPDATE_BEFORE) {
                /* ChangelogNormalize needs no UPDATE_BEFORE: Flink drops them before it */
                WRel *d = wrel_new(p, WR_DROP_UPDATE_BEFORE, 1);
                d->inputs[0] = r;
                d->out = r->out;
                d->changelog = r->changelog & (uint8_t)~WCM_UPDATE_BEFORE;
                d->nunique = r->nunique;
                d->unique = r->unique;
                below = d;
            }
            WRel *x = exchange(p, below, r->nunique, r->unique);
            WRel *cn = wrel_new(p, WR_CHANGELOG_NORMALIZE, 1);
            cn->inputs[0] = x;
            cn->out = r->out;
            cn->nkeys = r->nunique;
            cn->keys = r->unique;
            cn->changelog = WCM_INSERT | WCM_UPDATE_BEFORE | WCM_UPDATE_AFTER | WCM_DELETE;
            cn->nunique = r->nunique;
            cn->unique = r->unique;
            cn->ttl_ms = ttl;
            cn->input_retracts = true;
            return cn;
        }
        /* upsert-kafka's own validation (at build) refuses it with Flink's message, after its options */
        if (upsert && !t->npk && !wplan_upsert_connector(wopts_get(&t->options, "connector")))
            return fail(p, WEXC_VALIDATION, "An upsert source (changelog mode without UPDATE_BEFORE) requires a PRIMARY KEY.");
        break;
    }
    case WR_VALUES: r->changelog = WCM_INSERT; break;
    case WR_CALC:
        if (in->kind == WR_CALC && in->agg_removed) {
            r = wplan_simplify_calc(p, r);      /* as Flink's CalcMerge after the removal */
            in = r->inputs[0];
        }
        r->changelog = in->changelog;
        calc_unique(p, r);
        break;
    case WR_WATERMARK:
    case WR_EXCHANGE:
    case WR_DROP_UPDATE_BEFORE:
        r->changelog = in->changelog;
        r->nunique = in->nunique;
        r->unique = in->unique;
        break;
    case WR_UNION:
        r->changelog = 0;
        for (int i = 0; i < r->ninputs; i++) r->changelog |= r->inputs[i]->changelog;
        break;
    case WR_GROUP_AGG: {
        WRel *removed = remove_unique_agg(p, r, in);
        if (removed) {
            r = removed;
            r->changelog = r->inputs[0]->changelog;
            calc_unique(p, r);
            break;
        }
        r->input_retracts = (in->changelog & (WCM_UPDATE_BEFORE | WCM_DELETE)) != 0 ||
                            (in->changelog & WCM_UPDATE_AFTER);
        r->changelog = ALL_KINDS;
        int *k = ints(p, r->nkeys);
        for (int i = 0; i < r->nkeys; i++) k[i] = i;
        set_unique(p, r, r->nkeys, k);
        r->ttl_ms = ttl;
        r->inputs[0] = exchange(p, in, r->nkeys, r->keys);
        break;
    }
    case WR_JOIN: {
        WRel *l = r->inputs[0], *rt = r->inputs[1];
        r->input_retracts = l->changelog != WCM_INSERT;
        r->right_retracts = rt->changelog != WCM_INSERT;
        bool outer = r->join_type != AJ_INNER || r->anti;
        r->changelog = (r->input_retracts || r->right_retracts || outer) ? ALL_KINDS : WCM_INSERT;
        if (r->semi || r->anti) {
            r->nunique = l->nunique;
            r->unique = l->unique;
            if (r->anti || r->input_retracts || r->right_retracts) r->changelog = ALL_KINDS;
            else r->changelog = ALL_KINDS;   /* semi joins retract when the match disappears */
        } else if (l->nunique >= 0 && rt->nunique >= 0) {
            int n = l->nunique + rt->nunique;
            int *u = ints(p, n);
            for (int i = 0; i < l->nunique; i++) u[i] = l->unique[i];
            for (int i = 0; i < rt->nunique; i++) u[l->nunique + i] = l->out.n + rt->unique[i];
            set_unique(p, r, n, u);
        }
        if (r->semi && !r->input_retracts && !r->right_retracts) r->changelog = WCM_INSERT;
        r->ttl_ms = ttl;
        r->ttl_left_ms = ttl;
        r->ttl_right_ms = ttl;
        r->inputs[0] = exchange(p, l, r->nkeys, r->keys);
        r->inputs[1] = exchange(p, rt, r->nkeys, r->right_keys);
        break;
    }
    case WR_DEDUP: {
        r->input_retracts = in->changelog != WCM_INSERT;
        /* keep-first over an insert-only input only ever inserts; on rowtime the earliest row waits
           for the watermark (Flink 2.3: outputInsertOnly=[true] for proctime and rowtime alike),
           except under mini-batch, where Flink's rowtime dedup emits each batch's first row and
           updates it when a later batch brings an earlier one */
        bool insert_only = !r->keep_last && !r->input_retracts && !(r->dedup_rowtime && minibatch_enabled(p));
        r->changelog = insert_only ? WCM_INSERT : ALL_KINDS;
        set_unique(p, r, r->nkeys, r->keys);
        r->ttl_ms = ttl;
        r->inputs[0] = exchange(p, in, r->nkeys, r->keys);
        break;
    }
    case WR_RANK:
    case WR_SORT_LIMIT: {
        r->input_retracts = in->changelog != WCM_INSERT;
        r->changelog = ALL_KINDS;
        if (r->kind == WR_SORT_LIMIT) {
            /* Limit over an insert-only input only ever inserts (Flink: [I]) */
            if (!r->nsort && !r->input_retracts && !(in->changelog & WCM_UPDATE_AFTER)) r->changelog = WCM_INSERT;
        } else if (!r->output_rank_number && r->rank_end == 1) set_unique(p, r, r->nkeys, r->keys);
        else if (r->output_rank_number) {
            int *u = ints(p, r->nkeys + 1);
            for (int i = 0; i < r->nkeys; i++) u[i] = r->keys[i];
            u[r->nkeys] = r->rank_col;
            set_unique(p, r, r->nkeys + 1, u);
        }
        /* Flink's strategy choice */
        if (!r->input_retracts && !(in->changelog & WCM_UPDATE_AFTER)) r->rank_strategy = 0;        /* AppendFast */
        else if (in->nunique >= 0 && from_group_agg(in) && !agg_may_delete(in) && sort_monotonic(r, in))
            r->rank_strategy = 1;                                                                     /* UpdateFast */
        else r->rank_strategy = 2;                                                                    /* Retract */
        /* Flink 2.1+ takes a ROW_NUMBER Top-1 without its rank column for a keep-first
           deduplication (its changelog inference asks RankUtil.isDeduplication, which does not
           check that the sort is on a time attribute): over an insert-only input, unless it sorts
           on one column descending or mini-batch is on, the rank is declared insert-only. It then
           sends a key's new first row as +U without -U, and operators downstream read the stream
           as insert-only (measured on Flink 2.3; docs/user-guide.md, Top-N). Streaming only: in
           batch mode Flink's batch Rank gives the final rows. */
        if (r->kind == WR_RANK && r->rank_func == 0 && !r->output_rank_number && r->rank_start == 1 &&
            r->rank_end == 1 && in->changelog == WCM_INSERT && !(r->nsort == 1 && r->sort_desc[0]) &&
            !minibatch_enabled(p) && !wplan_batch_mode(p))
            r->changelog = WCM_INSERT;
        r->ttl_ms = ttl;
        r->inputs[0] = exchange(p, in, r->nkeys, r->keys);
        break;
    }
    case WR_SINK: {
        r->changelog = in->changelog;
        break;
    }
    case WR_SORT:               /* batch: the final rows, sorted, once the input ended */
        r->input_retracts = in->changelog != WCM_INSERT;
        r->changelog = WCM_INSERT;
        if (!r->sort_local) r->inputs[0] = exchange(p, in, 0, NULL);
        break;
    case WR_MATCH:              /* StreamPhysicalMatchRule: a hash exchange on the partition keys */
        if (in->changelog != WCM_INSERT)
            return fail(p, WEXC_TABLE, "Match doesn't support consuming update and delete changes.");
        r->changelog = WCM_INSERT;
        r->inputs[0] = exchange(p, in, r->nkeys, r->keys);
        break;
    case WR_TEMPORAL_SORT:
        if (in->changelog != WCM_INSERT)
            return fail(p, WEXC_TABLE, "TemporalSort doesn't support consuming update and delete changes.");
        r->changelog = WCM_INSERT;
        r->inputs[0] = exchange(p, in, 0, NULL);
        break;
    case WR_WINDOW_TVF:
        r->changelog = in->changelog;
        /* as Flink's StreamPhysicalWindowTableFunction: a SESSION window table function needs
           all rows of a partition in one place, hashed by its partition keys (single without) */
        if (r->win_kind == WWIN_SESSION && !r->win_legacy)
            r->inputs[0] = exchange(p, in, r->win_npartition, r->win_partition);
        break;
    case WR_OVER_AGG:
        if (r->over) {          /* batch: Sort + Exchange below (over_rules.c) */
            wover_batch_physical(p, r);
            break;
        }
        if (in->changelog != WCM_INSERT)
            return fail(p, WEXC_TABLE, "OverAggregate doesn't support consuming update and delete changes.");
        r->changelog = WCM_INSERT;
        r->inputs[0] = exchange(p, in, r->nkeys, r->keys);
        break;
    case WR_INTERVAL_JOIN:
    case WR_TEMPORAL_JOIN: {
        WRel *l = r->inputs[0], *rt = r->inputs[1];
        bool outer = r->join_type != AJ_INNER;
        r->changelog = WCM_INSERT;
        if (r->kind == WR_INTERVAL_JOIN && (l->changelog != WCM_INSERT || rt->changelog != WCM_INSERT))
            return fail(p, WEXC_TABLE, "Interval join doesn't support consuming update and delete changes.");
        if (r->kind == WR_TEMPORAL_JOIN && l->changelog != WCM_INSERT)
            return fail(p, WEXC_TABLE, "Temporal join doesn't support consuming update and delete changes on its left side.");
        if (r->kind == WR_TEMPORAL_JOIN && rt->nunique < 0)
            return fail(p, WEXC_VALIDATION,
                        "Temporal Table Join requires primary key in versioned table, but no primary key can be found.");
        (void)outer;
        r->inputs[0] = exchange(p, l, r->nkeys, r->keys);
        r->inputs[1] = exchange(p, rt, r->nkeys, r->right_keys);
        break;
    }
    case WR_WINDOW_JOIN: {
        WRel *l = r->inputs[0], *rt = r->inputs[1];
        r->changelog = WCM_INSERT;
        /* as Flink's WindowJoin: hash by the join keys without the window columns (state is keyed
           the same way), single when there are none */
        r->inputs[0] = exchange(p, l, r->nkeys, r->keys);
        r->inputs[1] = exchange(p, rt, r->nkeys, r->right_keys);
        break;
    }
    case WR_WINDOW_AGG: {
        r->changelog = WCM_INSERT;
        r->input_retracts = in->changelog != WCM_INSERT;
        int nk = r->nkeys + 2;
        int *u = ints(p, nk);
        for (int i = 0; i < r->nkeys; i++) u[i] = i;
        u[r->nkeys] = r->win_out_start;
        u[r->nkeys + 1] = r->win_out_end;
        set_unique(p, r, nk, u);
        r->inputs[0] = exchange(p, in, r->nkeys, r->keys);
        break;
    }
    case WR_WINDOW_RANK: {
        r->changelog = WCM_INSERT;
        /* as Flink's WindowRank: hash by the partition keys without the window columns, single
           when there are none */
        r->inputs[0] = exchange(p, in, r->nkeys, r->keys);
        break;
    }
    default:
        r->changelog = in ? in->changelog : WCM_INSERT;
    }
    return r;
}

/* ---------------- sinks ---------------- */

static bool same_key_set(int n1, const int *k1, int n2, const int *k2)
{
    if (n1 != n2) return false;
    for (int i = 0; i < n1; i++) {
        bool f = false;
        for (int j = 0; j < n2; j++) if (k1[i] == k2[j]) f = true;
        if (!f) return false;
    }
    return true;
}

static const char *first_update_producer(const WRel *r)
{
    if (r->kind == WR_GROUP_AGG) return "GroupAggregate";
    if (r->kind == WR_JOIN) return "Join";
    if (r->kind == WR_RANK) return "Rank";
    if (r->kind == WR_SORT_LIMIT) return r->nsort ? "SortLimit" : "Limit";
    if (r->kind == WR_DEDUP) return "Deduplicate";
    if (r->kind == WR_CHANGELOG_NORMALIZE) return "ChangelogNormalize";
    if (r->kind == WR_SCAN) return "TableSourceScan";
    for (int i = 0; i < r->ninputs; i++)
        if (r->inputs[i]->changelog != WCM_INSERT) return first_update_producer(r->inputs[i]);
    return "?";
}

/* The row kinds a sink accepts: 'sink.changelog-mode' (weir's option) or the connector's own:
   print takes every kind (as Flink's does, also with a primary key), blackhole every kind but
   UPDATE_BEFORE (Flink's drops it: an upsert sink), the filesystem sink only inserts unless its
   format is a changelog one (changelog-csv, debezium-json), kafka only inserts. */
static uint8_t sink_mode(const WTable *t)
{
    const char *m = wopts_get(&t->options, "sink.changelog-mode");
    if (m) return parse_mode(m);
    const char *c = wopts_get(&t->options, "connector");
    if (!c) return WCM_INSERT;
    if (strcmp(c, "filesystem") == 0) {
        const char *f = wopts_get(&t->options, "format");
        return wplan_changelog_format(f) ? ALL_KINDS : WCM_INSERT;
    }
    if (strcmp(c, "blackhole") == 0) return WCM_INSERT | WCM_UPDATE_AFTER | WCM_DELETE;
    if (strcmp(c, "jdbc") == 0) return WCM_INSERT | WCM_UPDATE_AFTER | WCM_DELETE;     /* an upsert sink */
    if (strcmp(c, "kafka") == 0) return WCM_INSERT;
    if (wplan_upsert_connector(c)) return WCM_INSERT | WCM_UPDATE_AFTER | WCM_DELETE;   /* an upsert sink */
    return ALL_KINDS;
}

static bool sink_accepts_updates(const WTable *t) { return sink_mode(t) != WCM_INSERT; }

/* The sink's primary key as indexes into its physical columns. */
static int *sink_pk(WPlanCtx *p, const WTable *t)
{
    int *pk = ints(p, t->npk);
    int *phys = ints(p, t->ncols);
    int np = wtable_physical(t, phys);
    for (int k = 0; k < t->npk; k++)
        for (int i = 0; i < np; i++) if (phys[i] == t->pk[k]) pk[k] = i;
    return pk;
}

/* SinkUpsertMaterializer over sink s's input, fed by a keyBy on the primary key. */
static WRel *materialize(WPlanCtx *p, WRel *s, int *pk)
{
    WRel *in = s->inputs[0];
    WTable *t = s->sink_table;
    WRel *x = exchange(p, in, t->npk, pk);
    WRel *m = wrel_new(p, WR_SINK_MATERIALIZER, 1);
    m->inputs[0] = x;
    m->out = in->out;
    m->nkeys = t->npk;
    m->keys = pk;
    m->changelog = WCM_INSERT | WCM_UPDATE_AFTER | WCM_DELETE;
    m->ttl_ms = state_ttl(p);
    m->input_retracts = true;
    s->inputs[0] = m;
    return s;
}

/* table.exec.sink.upsert-materialize: FORCE materializes every sink with a primary key, whatever
   its input and changelog mode (Flink 2.3.0: an insert-only INSERT into a print sink with a key
   gets ConstraintEnforcer -> HASH -> SinkMaterializer); NONE never; AUTO when an updating input's
   upsert key is not the primary key of an upsert sink. */
static WRel *plan_sink(WPlanCtx *p, WRel *s)
{
    WRel *in = s->inputs[0];
    if (!wsink_check_modes(p->config, p->err)) return NULL;
    const char *mode = wopts_get_or(p->config, "table.exec.sink.upsert-materialize", "auto");
    bool force = strcasecmp(mode, "force") == 0;
    bool none = strcasecmp(mode, "none") == 0;
    if (s->sink_table && s->sink_table->npk && force && !wplan_is_batch(p)) {
        if (in->changelog != WCM_INSERT && !sink_accepts_updates(s->sink_table)) {
            werr_set(p->err, WEXC_TABLE,
                     "Table sink '%s' doesn't support consuming update and delete changes which is produced by node %s",
                     s->sink_qname, first_update_producer(in));
            return NULL;
        }
        if (in->changelog != WCM_INSERT && !(sink_mode(s->sink_table) & WCM_UPDATE_BEFORE)) s->upsert_sink = true;
        return materialize(p, s, sink_pk(p, s->sink_table));
    }
    if (!s->sink_table || in->changelog == WCM_INSERT) return s;
    if (wplan_is_batch(p)) {
        /* Flink's batch plans are insert-only (a batch GROUP BY writes each group once): every
           sink takes the final rows, whatever changes it could consume */
        s->sink_final_rows = true;
        return s;
    }
    if (!sink_accepts_updates(s->sink_table)) {
        werr_set(p->err, WEXC_TABLE,
                 "Table sink '%s' doesn't support consuming update and delete changes which is produced by node %s",
                 s->sink_qname, first_update_producer(in));
        return NULL;
    }
    WTable *t = s->sink_table;
    const char *conn = wopts_get(&t->options, "connector");
    if (!t->npk && conn && strcmp(conn, "jdbc") == 0) {
        /* Flink's JdbcDynamicTableSink.validatePrimaryKey */
        werr_set(p->err, "java.lang.IllegalStateException",
                 "please declare primary key for sink table when query contains update/delete record.");
        return NULL;
    }
    if (!t->npk) return s;
    /* a keyed sink that does not take UPDATE_BEFORE is an upsert sink */
    if (sink_mode(t) & WCM_UPDATE_BEFORE) return s;
    s->upsert_sink = true;
    int *pk = sink_pk(p, t);
    bool matches = in->nunique >= 0 && same_key_set(in->nunique, in->unique, t->npk, pk);
    if (!matches && !none) return materialize(p, s, pk);
    return s;
}

/* 'sink.shuffle-by-partition.enable' of a partitioned filesystem sink: as Flink's sink rules, a
   hash distribution on the dynamic partition columns (those no PARTITION (k = 'v') clause fixes)
   in front of the sink, so that each partition is written by one subtask. */
static WRel *shuffle_by_partition(WPlanCtx *p, WRel *s)
{
    WTable *t = s->sink_table;
    if (!wrel_sink_file_writer(s) || !t->npartition) return s;
    bool on = false;
    WError tmp;
    werr_clear(&tmp);
    wopts_get_bool(&t->options, "sink.shuffle-by-partition.enable", false, &on, &tmp);
    if (!on) return s;
    int *phys = ints(p, t->ncols);
    int np = wtable_physical(t, phys);
    int *keys = ints(p, t->npartition);
    int n = 0;
    for (int k = 0; k < t->npartition; k++)
        for (int i = 0; i < np; i++)
            if (phys[i] == t->partition_keys[k] && !(s->sink_static_col && s->sink_static_col[i])) keys[n++] = i;
    if (n == 0) return s;
    s->inputs[0] = exchange(p, s->inputs[0], n, keys);
    return s;
}

static WRel *apply_sinks(WPlanCtx *p, WRel *r)
{
    if (r->kind != WR_SINK) return r;
    if (r->sink_table) r = shuffle_by_partition(p, r);
    /* the client's collect sink is one subtask: a global exchange gathers parallel results */
    int64_t par = 1;
    WError tmp;
    werr_clear(&tmp);
    wopts_get_long(p->config, "parallelism.default", 1, &par, &tmp);
    if (!r->sink_table && par > 1 && r->inputs[0]->kind != WR_EXCHANGE) {
        r->inputs[0] = exchange(p, r->inputs[0], 0, NULL);
        r->inputs[0]->exchange_collect = true;
    }
    return plan_sink(p, r);
}

/* ---------------- UPDATE_BEFORE requirements (top-down) ---------------- */

/* What a parent needs of a node's updates (Flink's UpdateKindTrait): nothing (the node sends
   none), UPDATE_AFTER only, or UPDATE_BEFORE with UPDATE_AFTER. */
enum { UK_NONE, UK_ONLY_UA, UK_BEFORE_AFTER };

static bool has_updates(const WRel *r) { return (r->changelog & (WCM_UPDATE_BEFORE | WCM_UPDATE_AFTER)) != 0; }

/* `want` for a child that sends updates, nothing for one that does not */
static int uk_for(const WRel *child, int want) { return has_updates(child) ? want : UK_NONE; }

/* The join's input `side` has a unique key that contains its join keys (Flink's
   inputUniqueKeyContainsJoinKey): then the join can work with UPDATE_AFTER only. */
static bool join_input_keyed(const WRel *j, int side)
{
    const WRel *in = j->inputs[side];
    const int *keys = side == 0 ? j->keys : j->right_keys;
    if (in->nunique < 0 || !keys) return false;
    for (int k = 0; k < j->nkeys; k++) {
        bool found = false;
        for (int u = 0; u < in->nunique && !found; u++) found = in->unique[u] == keys[k];
        if (!found) return false;
    }
    return true;
}

/* Flink's SatisfyUpdateKindTraitVisitor: can `r` deliver what `req` asks, and (apply) record
   the decision in generate_update_before. A dry run (apply = false) changes nothing. */
static bool satisfy_ub(WRel *r, int req, bool apply)
{
    if (apply) r->generate_update_before = req == UK_BEFORE_AFTER;
    switch (r->kind) {
    case WR_SINK:
    case WR_SINK_MATERIALIZER:
        return satisfy_ub(r->inputs[0], uk_for(r->inputs[0], UK_BEFORE_AFTER), apply);
    case WR_CHANGELOG_NORMALIZE:
        /* emits either; reads its upsert input without UPDATE_BEFORE */
        return satisfy_ub(r->inputs[0], uk_for(r->inputs[0], UK_ONLY_UA), apply);
    case WR_GROUP_AGG: case WR_WINDOW_AGG: case WR_OVER_AGG: case WR_DEDUP: case WR_SORT:
        /* emit either; need UPDATE_BEFORE from an updating input */
        return satisfy_ub(r->inputs[0], uk_for(r->inputs[0], UK_BEFORE_AFTER), apply);
    case WR_SORT_LIMIT:
    case WR_RANK: {
        if (r->kind == WR_SORT_LIMIT && !r->nsort)
            return satisfy_ub(r->inputs[0], uk_for(r->inputs[0], UK_BEFORE_AFTER), apply);
        /* UpdateFast reads UPDATE_AFTER only, Retract needs UPDATE_BEFORE */
        int want = r->rank_strategy == 1 ? UK_ONLY_UA : UK_BEFORE_AFTER;
        if (apply && r->changelog == WCM_INSERT) r->generate_update_before = false;
        return satisfy_ub(r->inputs[0], uk_for(r->inputs[0], want), apply);
    }
    case WR_CALC:
        /* a filter does not keep UPDATE_AFTER-only streams correct (a row leaving the filter
           would need a retraction): Flink refuses, and the parent falls back */
        if (req == UK_ONLY_UA && r->cond) return false;
        return satisfy_ub(r->inputs[0], uk_for(r->inputs[0], req == UK_NONE ? UK_BEFORE_AFTER : req), apply);
    case WR_JOIN: {
        bool ok = true;
        for (int i = 0; i < 2 && ok; i++) {
            WRel *c = r->inputs[i];
            if (req == UK_ONLY_UA && has_updates(c) && !join_input_keyed(r, i)) return false;
            ok = satisfy_ub(c, uk_for(c, req == UK_ONLY_UA ? UK_ONLY_UA : UK_BEFORE_AFTER), apply);
        }
        return ok;
    }
    case WR_TEMPORAL_JOIN: {
        WRel *l = r->inputs[0], *rt = r->inputs[1];
        if (!satisfy_ub(l, uk_for(l, req == UK_BEFORE_AFTER ? UK_BEFORE_AFTER : UK_ONLY_UA), apply)) return false;
        /* the versioned side: UPDATE_AFTER only if it can, else both */
        if (satisfy_ub(rt, uk_for(rt, UK_ONLY_UA), false))
            return satisfy_ub(rt, uk_for(rt, UK_ONLY_UA), apply);
        return satisfy_ub(rt, uk_for(rt, UK_BEFORE_AFTER), apply);
    }
    case WR_SCAN:
        /* a source sending UPDATE_BEFORE that nobody needs gets a DropUpdateBefore above it */
        return true;
    default: {
        bool ok = true;
        for (int i = 0; i < r->ninputs && ok; i++)
            ok = satisfy_ub(r->inputs[i], uk_for(r->inputs[i], req == UK_NONE ? UK_BEFORE_AFTER : req), apply);
        return ok;
    }
    }
}

/* The root's requirement: a sink taking UPDATE_BEFORE (print, the client's collect sink) gets
   both kinds; one that drops it (blackhole, an upsert sink) UPDATE_AFTER only when the whole plan
   can deliver that and a primary key of the sink is the query's upsert key; an EXPLAINed query
   (Flink plans it without the collect sink) likewise prefers UPDATE_AFTER only. */
static void require_ub(WPlanCtx *p, WRel *root)
{
    WRel *top = root;
    bool try_ua;
    if (root->kind == WR_SINK) {
        top = root->inputs[0];
        if (!root->sink_table) try_ua = p->explain;
        else if (root->sink_final_rows) try_ua = false;     /* final rows: retractions applied */
        else if (sink_mode(root->sink_table) & WCM_UPDATE_BEFORE) try_ua = false;
        else try_ua = !(top->kind == WR_SINK_MATERIALIZER);
        root->generate_update_before = !try_ua;
    } else {
        try_ua = true;
    }
    int want = try_ua && satisfy_ub(top, uk_for(top, UK_ONLY_UA), false) ? UK_ONLY_UA : UK_BEFORE_AFTER;
    satisfy_ub(top, uk_for(top, want), true);
    if (root != top) root->generate_update_before = want == UK_BEFORE_AFTER;
}

/* DropUpdateBefore above a source whose UPDATE_BEFORE messages no operator reads (the source's
   generate_update_before says whether its parent needs them, see satisfy_ub) */
static WRel *drop_source_ub(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) {
        WRel *c = r->inputs[i];
        if (c->kind == WR_SCAN && (c->changelog & WCM_UPDATE_BEFORE) && !c->generate_update_before &&
            r->kind != WR_DROP_UPDATE_BEFORE) {
            WRel *d = wrel_new(p, WR_DROP_UPDATE_BEFORE, 1);
            d->inputs[0] = c;
            d->out = c->out;
            d->changelog = c->changelog & (uint8_t)~WCM_UPDATE_BEFORE;
            d->nunique = c->nunique;
            d->unique = c->unique;
            r->inputs[i] = d;
        } else {
            r->inputs[i] = drop_source_ub(p, c);
        }
    }
    return r;
}

/* Flink 2.3 drops the ChangelogNormalize of an upsert source (upsert-kafka) when its consumers
   need no UPDATE_BEFORE and it evaluates no filter: the source's upserts and deletes by key go on
   as they are (an upsert sink keyed the same way, blackhole, an EXPLAINed query). */
static WRel *drop_unneeded_normalize(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) r->inputs[i] = drop_unneeded_normalize(p, r->inputs[i]);
    if (r->kind != WR_CHANGELOG_NORMALIZE || r->generate_update_before || r->normalize_filter) return r;
    WRel *below = r->inputs[0]->kind == WR_EXCHANGE ? r->inputs[0]->inputs[0] : r->inputs[0];
    if (below->kind != WR_SCAN || !below->table ||
        !wplan_upsert_connector(wopts_get(&below->table->options, "connector")))
        return r;
    return below;
}

/* Recompute UB bits after the decision; insert DropUpdateBefore where a source's UB is unwanted. */
static void settle(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) settle(p, r->inputs[i]);
    switch (r->kind) {
    case WR_GROUP_AGG: case WR_JOIN: case WR_DEDUP: case WR_RANK: case WR_CHANGELOG_NORMALIZE:
    case WR_SORT_LIMIT: case WR_SORT: case WR_TEMPORAL_SORT:
        if (r->changelog != WCM_INSERT) {
            if (r->generate_update_before) r->changelog |= WCM_UPDATE_BEFORE;
            else r->changelog &= (uint8_t)~WCM_UPDATE_BEFORE;
        }
        break;
    case WR_SCAN: case WR_VALUES:
        break;
    default:
        if (r->ninputs) {
            r->changelog = 0;
            for (int i = 0; i < r->ninputs; i++) r->changelog |= r->inputs[i]->changelog;
        }
    }
}

/* A filter right above ChangelogNormalize is evaluated inside it (Flink pushes it in), so that
   a key whose new version fails the filter retracts the version emitted before. */
static WRel *push_filter_into_normalize(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) r->inputs[i] = push_filter_into_normalize(p, r->inputs[i]);
    if (r->kind == WR_CALC && r->cond && r->inputs[0]->kind == WR_CHANGELOG_NORMALIZE &&
        !r->inputs[0]->normalize_filter) {
        r->inputs[0]->normalize_filter = r->cond;
        WRel *c = wa_memdup(p->arena, r, sizeof *r);
        c->cond = NULL;
        return c;
    }
    return r;
}

WRel *wplan_physical(WPlanCtx *p, WRel *root)
{
    root = wplan_reduce(p, root);               /* reduce.c */
    root = wplan_prune_empty(p, root);          /* prune_empty.c */
    root = wplan_sort_rules(p, root);           /* sort_rules.c */
    if (!root) return NULL;
    root = apply_rank_rule(p, root);
    if (!root) return NULL;
    root = wplan_correlate_rules(p, root);      /* bind_unnest.c */
    root = merge_filters_into_joins(p, root);
    root = wplan_prune(p, root);                /* prune_rules.c */
    root = apply_window_rules(p, root);
    if (!root) return NULL;
    root = apply_join_keys(p, root);
    if (!root) return NULL;
    root = wagg_split_distinct(p, root);        /* agg_rules.c */
    root = derive(p, root);
    if (!root) return NULL;
    root = push_filter_into_normalize(p, root);
    root = apply_sinks(p, root);
    if (!root) return NULL;
    require_ub(p, root);
    root = drop_unneeded_normalize(p, root);
    root = drop_source_ub(p, root);
    settle(p, root);
    root = wagg_window_two_phase(p, root);      /* agg_rules.c */
    return wagg_mini_batch(p, root);            /* agg_rules.c */
}
