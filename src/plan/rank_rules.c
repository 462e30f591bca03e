/*
 * rank_rules.c — the rank rule (Flink's FlinkLogicalRankRule): a Calc filtering on the rank of an
 * OVER ranking node (ROW_NUMBER / RANK / DENSE_RANK) becomes Rank, or Deduplicate for a Top-1 on a
 * time attribute without the rank column; a ranking node left without such a filter goes to
 * over_rules.c. Runs top-down, before the window rules. See physical_internal.h.
 */
#include "physical_internal.h"
#include "../expr/functions.h"
#include "over_rules.h"

#include <stdint.h>
#include <string.h>

static bool is_rank_ref(const WExpr *e, int rank_col)
{
    if (e->kind == WX_CAST) e = e->args[0];
    return e->kind == WX_COLUMN && e->col == rank_col;
}

/* The names of calc (over rank, which outputs its rank number as column rc) as Flink's plans show
   them (measured on Flink 2.3, one EXPLAIN per projection): a projection of plain columns in
   their input order keeps the input's names (the rank number stays w0$o0, the query's aliases
   are not shown: `SELECT who AS w, rn` gives Calc(select=[who, w0$o0])); any other projection
   keeps its names, and the rank number takes the name of the last plain reference to it
   (`SELECT rn, item` gives Calc(select=[rn, item]) over Rank(select=[.., rn]); with none, as in
   `rn + 1 AS r1`, it stays w0$o0). The query's result columns keep their names either way. */
static void name_rank_output(WPlanCtx *p, WRel *calc, WRel *rank, int rc)
{
    const WRelCalc *cc = wrel_calc(calc);
    bool in_order = true;
    int last_ref = -1, prev = -1;
    for (int i = 0; i < cc->nexprs; i++) {
        const WExpr *e = cc->exprs[i];
        if (e->kind != WX_COLUMN || e->col <= prev) in_order = false;
        if (e->kind == WX_COLUMN) {
            prev = e->col;
            if (e->col == rc) last_ref = i;
        }
    }
    if (in_order) {
        const char **nm = WA_ARRAY(p->arena, const char *, calc->out.n ? calc->out.n : 1);
        for (int i = 0; i < calc->out.n; i++) nm[i] = rank->out.names[cc->exprs[i]->col];
        calc->out.names = nm;
    } else if (last_ref >= 0) {
        const char **nm = WA_ARRAY(p->arena, const char *, rank->out.n);
        memcpy(nm, rank->out.names, sizeof *nm * (size_t)rank->out.n);
        nm[rc] = calc->out.names[last_ref];
        rank->out.names = nm;
    }
}

/* Turn Calc(cond on rank) over OVER_RANK into Rank/Deduplicate. */
static WRel *rank_rule(WPlanCtx *p, WRel *calc)
{
    const WRelCalc *cc = wrel_calc(calc);
    WRel *ov = calc->inputs[0];
    const WRelRank *ovr = wrel_rank(ov);
    int rc = ovr->col;
    WExpr *cs[128];
    int n = 0;
    wplan_split_and(cc->cond, cs, &n, 128);
    int64_t lo = 1, hi = INT64_MAX;
    bool found = false;
    WExpr *keep[128];
    int nk = 0;
    for (int i = 0; i < n; i++) {
        WExpr *c = cs[i];
        bool ok;
        if (c->kind == WX_CALL && c->nargs == 2 && (is_rank_ref(c->args[0], rc) || is_rank_ref(c->args[1], rc))) {
            bool left = is_rank_ref(c->args[0], rc);
            int64_t v = wphys_const_int(left ? c->args[1] : c->args[0], &ok);
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
    for (int i = 0; i < cc->nexprs; i++) if (wphys_refs_col(cc->exprs[i], rc)) uses_rank = true;
    for (int i = 0; i < nk; i++) if (wphys_refs_col(keep[i], rc)) uses_rank = true;
    WExpr **exprs = cc->exprs;
    if (uses_rank && lo == hi) {
        /* a single rank value: Flink drops the rank column and projects the constant */
        WDatum d = {.i = lo};
        WExpr *lit = wexpr_literal(p->arena, &WTYPE_BIGINT_NN, d, false);
        exprs = WA_ARRAY(p->arena, WExpr *, cc->nexprs ? cc->nexprs : 1);
        for (int i = 0; i < cc->nexprs; i++) exprs[i] = wphys_replace_col(p, cc->exprs[i], rc, lit);
        for (int i = 0; i < nk; i++) keep[i] = wphys_replace_col(p, keep[i], rc, lit);
        uses_rank = false;
    }
    WRel *in = ov->inputs[0];
    WRel *r;
    const WType *st = ov->nsort == 1 ? in->out.types[ov->sort_cols[0]] : NULL;
    bool time_sort = st && wtype_is_timestamp(st) && st->time_attr != WTA_NONE;
    if (ovr->func == WRANK_ROW_NUMBER && lo == 1 && hi == 1 && !uses_rank && time_sort) {
        r = wrel_new(p, WR_DEDUP, 1);
        WRelRank *rr = wrel_rank_mut(r);
        rr->keep_last = ov->sort_desc[0];
        rr->dedup_rowtime = st->time_attr == WTA_ROWTIME;
        r->time_col = ov->sort_cols[0];
    } else {
        r = wrel_new(p, WR_RANK, 1);
        WRelRank *rr = wrel_rank_mut(r);
        rr->func = ovr->func;
        rr->start = lo;
        rr->end = hi;
        rr->output_number = uses_rank;
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
        wrel_rank_mut(r)->col = rc;
    } else {
        r->out.n = in->out.n;
        r->out.names = in->out.names;
        r->out.types = in->out.types;
    }
    /* the Calc above keeps its projection and the remaining conditions */
    WRel *c = wa_memdup(p->arena, calc, sizeof *calc);
    c->inputs = WA_ARRAY(p->arena, WRel *, 1);
    c->inputs[0] = r;
    wrel_calc_mut(c)->exprs = exprs;
    wrel_calc_mut(c)->cond = wplan_and(p, keep, nk);
    if (r->kind == WR_RANK && uses_rank) name_rank_output(p, c, r, rc);
    return c;
}

WRel *wphys_rank_rules(WPlanCtx *p, WRel *r)
{
    /* the pattern is matched top-down: Calc(filter on the rank) over the ranking node */
    if (r->kind == WR_CALC && r->inputs[0]->kind == WR_OVER_RANK && wrel_calc(r)->cond) {
        WRel *x = rank_rule(p, r);
        if (x) r = x;
    }
    for (int i = 0; i < r->ninputs; i++) {
        if (r->kind == WR_CALC && r->inputs[i]->kind == WR_RANK) {
            WRel *rk = r->inputs[i];
            rk->inputs[0] = wphys_rank_rules(p, rk->inputs[0]);
            if (!rk->inputs[0]) return NULL;
            continue;
        }
        if (r->kind == WR_CALC && r->inputs[i]->kind == WR_DEDUP) {
            WRel *dd = r->inputs[i];
            dd->inputs[0] = wphys_rank_rules(p, dd->inputs[0]);
            if (!dd->inputs[0]) return NULL;
            continue;
        }
        r->inputs[i] = wphys_rank_rules(p, r->inputs[i]);
        if (!r->inputs[i]) return NULL;
    }
    if (r->kind == WR_OVER_RANK) return wover_rank_without_filter(p, r);     /* over_rules.c */
    return r;
}
