/*
 * window_rules.c — the window rules: a GroupAggregate over a window TVF (or a legacy group
 * window) grouped by window_start and window_end becomes a WindowAggregate that assigns windows
 * itself; one over an already windowed input a window-attached WindowAggregate; a Rank /
 * Deduplicate partitioned by the window columns a WindowRank. Also finds which columns of a node
 * carry a window's bounds (used by the WindowJoin rule in join_rules.c). See physical_internal.h.
 */
#include "physical_internal.h"

#include <string.h>

/* Output columns of r that carry window_start / window_end of a window (TVF or window
   aggregate), followed through Calcs and Exchanges; -1 when none. */
void wphys_window_props(const WRel *r, int *ws, int *we)
{
    *ws = *we = -1;
    switch (r->kind) {
    case WR_WINDOW_TVF:
        *ws = r->inputs[0]->out.n;
        *we = *ws + 1;
        return;
    case WR_WINDOW_AGG:
        *ws = wrel_window(r)->out_start;
        *we = wrel_window(r)->out_end;
        return;
    case WR_EXCHANGE: case WR_WINDOW_RANK:
        wphys_window_props(r->inputs[0], ws, we);
        return;
    case WR_CALC: {
        int is, ie;
        wphys_window_props(r->inputs[0], &is, &ie);
        if (is < 0) return;
        for (int i = 0; i < wrel_calc(r)->nexprs; i++) {
            if (wrel_calc(r)->exprs[i]->kind != WX_COLUMN) continue;
            if (wrel_calc(r)->exprs[i]->col == is && *ws < 0) *ws = i;
            if (wrel_calc(r)->exprs[i]->col == ie && *we < 0) *we = i;
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
    WRelCalc *pc = wrel_calc_mut(post);
    post->inputs[0] = w;
    post->out = agg->out;
    post->out.types = WA_ARRAY(p->arena, const WType *, agg->out.n ? agg->out.n : 1);
    pc->nexprs = agg->out.n;
    pc->exprs = WA_ARRAY(p->arena, WExpr *, agg->out.n ? agg->out.n : 1);
    int kq = 0;
    const WRelWindow *ww = wrel_window(w);
    for (int k = 0; k < agg->nkeys; k++) {
        int src_col = k == gs ? ww->out_start : k == ge ? ww->out_end : k == gt ? ww->out_time : kq++;
        if (src_col < 0) {
            /* a legacy group window whose properties nothing uses */
            pc->exprs[k] = wexpr_literal(p->arena, agg->out.types[k], (WDatum){0}, true);
            continue;
        }
        pc->exprs[k] = wexpr_column(p->arena, src_col, w->out.types[src_col], agg->out.names[k]);
    }
    for (int j = 0; j < wrel_agg(agg)->naggs; j++)
        pc->exprs[agg->nkeys + j] = wexpr_column(p->arena, w->nkeys + j, w->out.types[w->nkeys + j],
                                                   agg->out.names[agg->nkeys + j]);
    for (int i = 0; i < agg->out.n; i++) post->out.types[i] = pc->exprs[i]->type;
    return post;
}

/* GroupAggregate over Calc over WindowTableFunction, grouped by window_start and window_end:
   a WindowAggregate that assigns windows itself (Flink fuses the TVF into the aggregate). */
static WRel *window_agg_rule(WPlanCtx *p, WRel *agg)
{
    const WRelAgg *ag = wrel_agg(agg);
    WRel *pre = agg->inputs[0];
    if (pre->kind != WR_CALC || wrel_calc(pre)->cond || pre->inputs[0]->kind != WR_WINDOW_TVF) return NULL;
    const WRelCalc *pc = wrel_calc(pre);
    WRel *tvf = pre->inputs[0];
    WRel *src = tvf->inputs[0];
    int n = src->out.n;                 /* window columns of the TVF: n, n+1, n+2 */
    int gs = -1, ge = -1, gt = -1;
    for (int i = 0; i < agg->nkeys; i++) {
        const WExpr *k = pc->exprs[agg->keys[i]];
        if (k->kind != WX_COLUMN) continue;
        if (k->col == n) gs = i;
        else if (k->col == n + 1) ge = i;
        else if (k->col == n + 2) gt = i;
    }
    if (gs < 0 || ge < 0) return NULL;
    const WRelWindow *tw = wrel_window(tvf);
    if (tw->kind == WWIN_SESSION && !tw->legacy) {
        /* a SESSION TVF's sessions span its partition (all rows without PARTITION BY): the
           aggregate is fused only when it groups by exactly that partition, as Flink does */
        int nother = 0;
        for (int i = 0; i < agg->nkeys; i++) {
            if (i == gs || i == ge || i == gt) continue;
            const WExpr *k = pc->exprs[agg->keys[i]];
            bool in_part = false;
            for (int q = 0; q < tw->npartition; q++)
                if (k->kind == WX_COLUMN && k->col == tw->partition[q]) in_part = true;
            if (!in_part) return NULL;
            nother++;
        }
        if (nother != tw->npartition) return NULL;
    }
    /* every other expression of the pre-projection must not use the window columns */
    for (int i = 0; i < pc->nexprs; i++) {
        bool is_wkey = false;
        for (int k = 0; k < agg->nkeys; k++)
            if (agg->keys[k] == i && (k == gs || k == ge || k == gt)) is_wkey = true;
        if (is_wkey) continue;
        if (wphys_refs_col(pc->exprs[i], n) || wphys_refs_col(pc->exprs[i], n + 1) || wphys_refs_col(pc->exprs[i], n + 2))
            return NULL;
    }
    /* new pre-projection over the TVF's input: other keys, aggregate arguments, time column */
    int npre = pc->nexprs;
    int *newpos = ints(p, npre);
    WExpr **ex = WA_ARRAY(p->arena, WExpr *, npre + 1);
    const char **names = WA_ARRAY(p->arena, const char *, npre + 1);
    int m = 0, time_col = -1;
    for (int i = 0; i < npre; i++) {
        newpos[i] = -1;
        bool is_wkey = false;
        for (int k = 0; k < agg->nkeys; k++)
            if (agg->keys[k] == i && (k == gs || k == ge || k == gt)) is_wkey = true;
        if (is_wkey && tw->legacy && agg->keys[gs] == i) {
            /* a legacy group window's input keeps the time column where GROUP BY named the
               window (Flink's LogicalProject under the aggregate) */
            time_col = m;
            ex[m] = wexpr_column(p->arena, tw->time_col, src->out.types[tw->time_col],
                                 src->out.names[tw->time_col]);
            names[m] = src->out.names[tw->time_col];
            m++;
        }
        if (is_wkey) continue;
        newpos[i] = m;
        ex[m] = pc->exprs[i];
        names[m] = pre->out.names[i];
        m++;
    }
    if (time_col < 0) {
        time_col = m;
        ex[m] = wexpr_column(p->arena, tw->time_col, src->out.types[tw->time_col], src->out.names[tw->time_col]);
        names[m] = src->out.names[tw->time_col];
        m++;
    }
    WRel *c = wrel_new(p, WR_CALC, 1);
    c->inputs[0] = src;
    wrel_calc_mut(c)->nexprs = m;
    wrel_calc_mut(c)->exprs = ex;
    c->out.n = m;
    c->out.names = names;
    c->out.types = WA_ARRAY(p->arena, const WType *, m);
    for (int i = 0; i < m; i++) c->out.types[i] = ex[i]->type;
    c->changelog = src->changelog;
    WRel *cin = c;
    if (tw->legacy) {
        /* Flink's LogicalProject under a legacy group window sits right on the watermark
           assigner: ProjectWatermarkAssignerTransposeRule pushes it below */
        WRel *t = wplan_calc_watermark_transpose(p, c);
        if (t) cin = t;
    }
    WRel *w = wrel_new(p, WR_WINDOW_AGG, 1);
    WRelWindow *ww = wrel_window_mut(w);
    WRelAgg *wa = wrel_agg_mut(w);
    w->inputs[0] = cin;
    ww->kind = tw->kind;
    ww->size = tw->size;
    ww->slide = tw->slide;
    ww->offset = tw->offset;
    ww->gap = tw->gap;
    ww->proctime = tw->proctime;
    ww->legacy = tw->legacy;
    ww->time_col = time_col;
    int nk = 0;
    w->keys = ints(p, agg->nkeys);
    for (int k = 0; k < agg->nkeys; k++)
        if (k != gs && k != ge && k != gt) w->keys[nk++] = newpos[agg->keys[k]];
    w->nkeys = nk;
    if (tw->kind == WWIN_SESSION && !tw->legacy) {
        /* the session partition is the aggregate's key */
        ww->npartition = nk;
        ww->partition = w->keys;
    }
    wa->naggs = ag->naggs;
    wa->aggs = WA_ARRAY(p->arena, WAggCall, ag->naggs ? ag->naggs : 1);
    for (int j = 0; j < ag->naggs; j++) {
        wa->aggs[j] = ag->aggs[j];
        for (int k = 0; k < ag->aggs[j].nargs; k++) wa->aggs[j].args[k] = newpos[ag->aggs[j].args[k]];
        if (ag->aggs[j].filter_col >= 0) wa->aggs[j].filter_col = newpos[ag->aggs[j].filter_col];
    }
    /* output: keys, aggregates, window_start, window_end, window_time; a legacy group window
       (Flink's GroupWindowAggregate): keys, aggregates, then its named window properties
       w$start, w$end, w$rowtime (row time only), w$proctime when the query uses any of them */
    int nprops = !tw->legacy ? 3 : !tw->legacy_props ? 0 : tw->proctime ? 3 : 4;
    int no = nk + ag->naggs + nprops;
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
    for (int j = 0; j < ag->naggs; j++) {
        w->out.names[q] = agg->out.names[agg->nkeys + j];
        w->out.types[q] = agg->out.types[agg->nkeys + j];
        q++;
    }
    ww->legacy_props = tw->legacy_props;
    if (tw->legacy) {
        ww->out_start = ww->out_end = ww->out_time = -1;
        if (nprops) {
            ww->out_start = q;
            w->out.names[q] = "w$start";
            w->out.types[q++] = tvf->out.types[n];
            ww->out_end = q;
            w->out.names[q] = "w$end";
            w->out.types[q++] = tvf->out.types[n + 1];
            const WType *ltz = wtype_with_time_attr(p->arena, wtype_timestamp(p->arena, WT_TIMESTAMP_LTZ, 3, true), WTA_PROCTIME);
            if (!tw->proctime) {
                ww->out_time = q;
                w->out.names[q] = "w$rowtime";
                w->out.types[q++] = wtype_with_nullable(p->arena, tvf->out.types[n + 2], true);
            } else {
                ww->out_time = q;
            }
            w->out.names[q] = "w$proctime";
            w->out.types[q++] = ltz;
        }
        w->changelog = WCM_INSERT;
        w->input_retracts = src->changelog != WCM_INSERT;
        return window_agg_layout(p, agg, w, gs, ge, gt);
    }
    ww->out_start = q;
    w->out.names[q] = "window_start";
    w->out.types[q++] = tvf->out.types[n];
    ww->out_end = q;
    w->out.names[q] = "window_end";
    w->out.types[q++] = tvf->out.types[n + 1];
    ww->out_time = q;
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
void wphys_copy_window_spec(WRel *w, const WRel *r)
{
    const WRel *origin = window_origin(r);
    if (!origin) return;
    const WRelWindow *ow = wrel_window(origin);
    WRelWindow *ww = wrel_window_mut(w);
    ww->kind = ow->kind;
    ww->size = ow->size;
    ww->slide = ow->slide;
    ww->offset = ow->offset;
    ww->gap = ow->gap;
    ww->proctime = ow->proctime;
}

/* GroupAggregate grouped by window_start and window_end of a windowed input that is not a
   window TVF it can fuse (e.g. the output of a WindowAggregate, or a TVF behind a filter): a
   WindowAggregate whose rows carry their window (Flink's WindowAttachedWindowingStrategy). */
static WRel *window_attached_agg_rule(WPlanCtx *p, WRel *agg)
{
    const WRelAgg *ag = wrel_agg(agg);
    WRel *in = agg->inputs[0];
    int ws, we;
    wphys_window_props(in, &ws, &we);
    if (ws < 0 || in->changelog != WCM_INSERT) return NULL;
    const WRel *origin = window_origin(in);
    if (!origin || wrel_window(origin)->kind == WWIN_SESSION) return NULL;     /* session bounds are per session */
    int gs = -1, ge = -1;
    for (int i = 0; i < agg->nkeys; i++) {
        if (agg->keys[i] == ws && gs < 0) gs = i;
        else if (agg->keys[i] == we && ge < 0) ge = i;
    }
    if (gs < 0 || ge < 0) return NULL;
    WRel *w = wrel_new(p, WR_WINDOW_AGG, 1);
    WRelWindow *ww = wrel_window_mut(w);
    WRelAgg *wa = wrel_agg_mut(w);
    w->inputs[0] = in;
    wphys_copy_window_spec(w, in);
    ww->attached = true;
    ww->start_col = ws;
    ww->end_col = we;
    ww->time_col = we;
    int nk = 0;
    w->keys = ints(p, agg->nkeys);
    for (int k = 0; k < agg->nkeys; k++)
        if (k != gs && k != ge) w->keys[nk++] = agg->keys[k];
    w->nkeys = nk;
    wa->naggs = ag->naggs;
    wa->aggs = ag->aggs;
    int no = nk + ag->naggs + 3;
    w->out.n = no;
    w->out.names = WA_ARRAY(p->arena, const char *, no);
    w->out.types = WA_ARRAY(p->arena, const WType *, no);
    int q = 0;
    for (int k = 0; k < agg->nkeys; k++) {
        if (k == gs || k == ge) continue;
        w->out.names[q] = agg->out.names[k];
        w->out.types[q++] = agg->out.types[k];
    }
    for (int j = 0; j < ag->naggs; j++) {
        w->out.names[q] = agg->out.names[agg->nkeys + j];
        w->out.types[q++] = agg->out.types[agg->nkeys + j];
    }
    ww->out_start = q;
    w->out.names[q] = "window_start";
    w->out.types[q++] = in->out.types[ws];
    ww->out_end = q;
    w->out.names[q] = "window_end";
    w->out.types[q++] = in->out.types[we];
    ww->out_time = q;
    w->out.names[q] = "window_time";
    w->out.types[q++] = origin->kind == WR_WINDOW_AGG ? origin->out.types[wrel_window(origin)->out_time]
                                                      : origin->out.types[origin->inputs[0]->out.n + 2];
    w->changelog = WCM_INSERT;
    w->input_retracts = false;
    return window_agg_layout(p, agg, w, gs, ge, -1);
}

/* Rank / Deduplicate partitioned by window_start and window_end of a window: WindowRank. */
static WRel *window_rank_rule(WPlanCtx *p, WRel *r)
{
    int ws, we;
    wphys_window_props(r->inputs[0], &ws, &we);
    if (ws < 0) return NULL;
    int ks = -1, ke = -1;
    for (int i = 0; i < r->nkeys; i++) {
        if (r->keys[i] == ws) ks = i;
        if (r->keys[i] == we) ke = i;
    }
    if (ks < 0 || ke < 0) return NULL;
    /* Flink 2.3's WindowRank ranks by ROW_NUMBER only */
    if (r->kind == WR_RANK && wrel_rank(r)->func != WRANK_ROW_NUMBER)
        return fail(p, WEXC_TABLE, wrel_rank(r)->func == WRANK_RANK
            ? "RANK() function is not supported on Window TopN currently, only ROW_NUMBER() is supported."
            : "DENSE_RANK() function is not supported on Window TopN currently, only ROW_NUMBER() is supported.");
    WRel *w = wa_memdup(p->arena, r, sizeof *r);
    w->kind = WR_WINDOW_RANK;
    WRelRank *wr = wrel_rank_mut(w);
    /* a Rank / Deduplicate has no window: clear the rank payload's (keeping the rank's fields) */
    memset(&wr->window, 0, sizeof wr->window);
    WRelWindow *ww = wrel_window_mut(w);
    wphys_copy_window_spec(w, r->inputs[0]);
    ww->dedup = r->kind == WR_DEDUP;
    ww->start_col = ws;
    ww->end_col = we;
    w->keys = ints(p, r->nkeys);
    w->nkeys = 0;
    for (int i = 0; i < r->nkeys; i++) if (i != ks && i != ke) w->keys[w->nkeys++] = r->keys[i];
    if (ww->dedup) {
        /* window deduplication keeps the first/last row by the time attribute */
        wr->func = WRANK_ROW_NUMBER;
        wr->start = wr->end = 1;
        wr->output_number = false;
    }
    w->changelog = WCM_INSERT;
    return w;
}

WRel *wphys_window_rules(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) {
        r->inputs[i] = wphys_window_rules(p, r->inputs[i]);
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
