/*
 * rules.c — plan rewrites Flink's optimizer performs that users see in plans and results:
 * merging adjacent Calcs (CalcMerge), dropping identity projections; and finalisation: node ids
 * in Flink's order (inputs first, depth-first) and state TTL resolution. See plan.h.
 */
#include "reduce.h"
#include "scan_parallelism.h"
#include "table_factory.h"
#include "bind_internal.h"
#include "../common/duration.h"
#include "state_ttl.h"
#include "../expr/functions.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool wplan_batch_mode(const WPlanCtx *p)
{
    const char *m = wopts_get(p->config, "execution.runtime-mode");
    return m && !strcasecmp(m, "batch");
}

static bool is_identity_calc(const WRel *r)
{
    if (r->kind != WR_CALC || wrel_calc(r)->cond) return false;
    const WRelCalc *rc = wrel_calc(r);
    const WRel *in = r->inputs[0];
    if (rc->nexprs != in->out.n) return false;
    for (int i = 0; i < rc->nexprs; i++) {
        const WExpr *e = rc->exprs[i];
        if (e->kind != WX_COLUMN || e->col != i) return false;
        if (strcmp(r->out.names[i], in->out.names[i]) != 0) return false;
        if (!wtype_equals(r->out.types[i], in->out.types[i], false)) return false;
    }
    return true;
}

/* Replace column references in e by the expressions of the Calc below. */
static WExpr *inline_refs(WPlanCtx *p, const WExpr *e, WExpr **below)
{
    if (e->kind == WX_COLUMN) return below[e->col];
    WExpr *c = wa_memdup(p->arena, e, sizeof *e);
    if (e->nargs) {
        c->args = WA_ARRAY(p->arena, WExpr *, e->nargs);
        for (int i = 0; i < e->nargs; i++) c->args[i] = inline_refs(p, e->args[i], below);
    }
    return c;
}

static int count_refs(const WExpr *e, int col)
{
    if (e->kind == WX_COLUMN) return e->col == col;
    int n = 0;
    for (int i = 0; i < e->nargs; i++) n += count_refs(e->args[i], col);
    return n;
}

static bool deterministic(const WExpr *e)
{
    if (e->kind == WX_PROCTIME) return false;
    if (e->kind == WX_CALL && e->func && !e->func->deterministic) return false;
    for (int i = 0; i < e->nargs; i++) if (!deterministic(e->args[i])) return false;
    return true;
}

/* CalcMerge: Calc over Calc becomes one Calc (when it does not duplicate non-deterministic work). */
static WRel *merge_calc(WPlanCtx *p, WRel *top)
{
    WRel *bot = top->inputs[0];
    const WRelCalc *tcalc = wrel_calc(top), *bcalc = wrel_calc(bot);
    for (int i = 0; i < bcalc->nexprs; i++) {
        if (deterministic(bcalc->exprs[i])) continue;
        int refs = tcalc->cond ? count_refs(tcalc->cond, i) : 0;
        for (int k = 0; k < tcalc->nexprs; k++) refs += count_refs(tcalc->exprs[k], i);
        if (refs > 1) return top;
    }
    WRel *m = wrel_new(p, WR_CALC, 1);
    m->inputs[0] = bot->inputs[0];
    m->out = top->out;
    m->changelog = top->changelog;
    m->generate_update_before = top->generate_update_before;
    m->nunique = top->nunique;
    m->unique = top->unique;
    WRelCalc *mcalc = wrel_calc_mut(m);
    mcalc->late_calc = tcalc->late_calc || bcalc->late_calc;
    mcalc->nexprs = tcalc->nexprs;
    mcalc->exprs = WA_ARRAY(p->arena, WExpr *, tcalc->nexprs ? tcalc->nexprs : 1);
    for (int i = 0; i < tcalc->nexprs; i++) {
        mcalc->exprs[i] = inline_refs(p, tcalc->exprs[i], bcalc->exprs);
        if (!mcalc->exprs[i]->name) mcalc->exprs[i]->name = top->out.names[i];
    }
    WExpr *tc = tcalc->cond ? inline_refs(p, tcalc->cond, bcalc->exprs) : NULL;
    if (bcalc->cond && tc) {
        WExpr *and = wexpr_new(p->arena, WX_AND,
                               wtype_with_nullable(p->arena, &WTYPE_BOOLEAN,
                                                   bcalc->cond->type->nullable || tc->type->nullable), 2);
        and->args[0] = bcalc->cond;
        and->args[1] = tc;
        mcalc->cond = and;
    } else {
        mcalc->cond = bcalc->cond ? bcalc->cond : tc;
    }
    return m;
}

/* Whether the join condition (a conjunction) has the conjunct $l = $r. */
static bool join_equates(const WExpr *cond, int l, int r)
{
    WExpr *cs[256];
    int n = 0;
    if (cond) wplan_split_and((WExpr *)cond, cs, &n, 256);
    for (int i = 0; i < n; i++) {
        const WExpr *c = cs[i];
        if (c->kind != WX_CALL || c->nargs != 2 || strcmp(c->name, "=") != 0) continue;
        const WExpr *x = c->args[0], *y = c->args[1];
        if (x->kind == WX_COLUMN && y->kind == WX_COLUMN &&
            ((x->col == l && y->col == r) || (x->col == r && y->col == l)))
            return true;
    }
    return false;
}

/* COALESCE($l, $r) over a join whose condition equates a left column with a right one (what a
   USING column means in a select item): the side never padded with NULLs is the value — the left
   for INNER and LEFT joins, the right for RIGHT joins (Flink's plans show the column alone; a
   FULL join keeps the COALESCE). Applied throughout e; a rewrite that would change e's type is
   not made. */
static WExpr *coalesce_over_join(WPlanCtx *p, WExpr *e, const WRel *join)
{
    int nleft = join->inputs[0]->out.n;
    const WRelJoin *rj = wrel_join(join);
    if (e->kind == WX_COALESCE && e->nargs == 2 && e->args[0]->kind == WX_COLUMN && e->args[1]->kind == WX_COLUMN &&
        e->args[0]->col < nleft && e->args[1]->col >= nleft && join_equates(rj->cond, e->args[0]->col, e->args[1]->col)) {
        WExpr *keep = rj->type == AJ_RIGHT ? e->args[1] : rj->type == AJ_FULL ? NULL : e->args[0];
        if (keep && wtype_equals(keep->type, e->type, false)) return keep;
        return e;
    }
    if (!e->nargs) return e;
    WExpr *c = NULL;
    for (int i = 0; i < e->nargs; i++) {
        WExpr *x = coalesce_over_join(p, e->args[i], join);
        if (x == e->args[i]) continue;
        if (!c) {
            c = wa_memdup(p->arena, e, sizeof *e);
            c->args = wa_memdup(p->arena, e->args, sizeof(WExpr *) * (size_t)e->nargs);
        }
        c->args[i] = x;
    }
    return c ? c : e;
}

WRel *wplan_simplify_calc(WPlanCtx *p, WRel *r)
{
    if (r->kind != WR_CALC) return r;
    /* a Calc over a ChangelogNormalize Flink dropped stays apart from the Calc pushed under the
       normalize (Flink merges Calcs before it drops the node; changelog_source.c) */
    while (r->kind == WR_CALC && r->inputs[0]->kind == WR_CALC && !r->keeps_insert) {
        WRel *m = merge_calc(p, r);
        if (m == r) break;
        r = m;
    }
    const WRel *in = r->inputs[0];
    const WRelJoin *inj = in->kind == WR_JOIN ? wrel_join(in) : NULL;
    if (inj && !inj->temporal && !inj->lookup && !inj->semi && !inj->anti) {
        for (int i = 0; i < wrel_calc(r)->nexprs; i++) wrel_calc_mut(r)->exprs[i] = coalesce_over_join(p, wrel_calc(r)->exprs[i], in);
        if (wrel_calc(r)->cond) wrel_calc_mut(r)->cond = coalesce_over_join(p, wrel_calc(r)->cond, in);
    }
    if (is_identity_calc(r)) return r->inputs[0];
    return r;
}

/* ProjectSetOpTransposeRule and FilterSetOpTransposeRule (Flink's logical rule sets): a Calc over
   a UNION ALL goes into each of the union's inputs, where it merges with their Calcs; the union
   takes the Calc's columns. The union's columns are its inputs' (bsetop_cast_sides casts them),
   so the Calc's expressions read each input as they read the union. */
static WRel *calc_into_union(WPlanCtx *p, WRel *calc)
{
    WRel *u = calc->inputs[0];
    if (calc->kind != WR_CALC || u->kind != WR_UNION || u->reused) return calc;
    const WRelCalc *cc = wrel_calc(calc);
    WRel *nu = wrel_new(p, WR_UNION, u->ninputs);
    nu->out = calc->out;
    nu->changelog = u->changelog;
    for (int i = 0; i < u->ninputs; i++) {
        WRel *in = u->inputs[i];
        assert(in->out.n == u->out.n);
        WRel *c = bind_make_calc(p, in, cc->nexprs, cc->exprs, calc->out.names, cc->cond);
        wrel_calc_mut(c)->late_calc = cc->late_calc;
        nu->inputs[i] = wplan_simplify_calc(p, c);
    }
    return nu;
}

static WRel *optimize(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) r->inputs[i] = optimize(p, r->inputs[i]);
    r = wplan_simplify_calc(p, r);
    return calc_into_union(p, r);
}

WRel *wplan_optimize(WPlanCtx *p, WRel *root)
{
    return optimize(p, root);
}

static void number(WRel *r, int *next)
{
    if (r->id) return;   /* shared subtree (reuse) */
    for (int i = 0; i < r->ninputs; i++) number(r->inputs[i], next);
    r->id = (*next)++;
}

void wplan_finalize(WPlanCtx *p, WRel *root)
{
    int next = 1;
    if (!root->id) number(root, &next);
    /* job default and STATE_TTL hints (state_ttl.c); a bad hint leaves p->err set */
    wstate_ttl_resolve(p, root);
}

static void dump(FILE *f, const WRel *r, int depth)
{
    fprintf(f, "%*s%s#%d cols=%d cm=%x", depth * 2, "", wrel_kind_name(r->kind), r->id, r->out.n, r->changelog);
    if (r->kind == WR_CALC) fprintf(f, " exprs=%d cond=%s", wrel_calc(r)->nexprs, wrel_calc(r)->cond ? "yes" : "no");
    if (r->nkeys) {
        fprintf(f, " keys=[");
        for (int i = 0; i < r->nkeys; i++) fprintf(f, "%s%d", i ? "," : "", r->keys[i]);
        fprintf(f, "]");
    }
    if (r->nunique > 0) fprintf(f, " uk=%d", r->nunique);
    if (r->kind == WR_RANK) {
        const WRelRank *rr = wrel_rank(r);
        fprintf(f, " strategy=%d range=[%lld,%lld] rn=%d", (int)rr->strategy, (long long)rr->start, (long long)rr->end, rr->output_number);
    }
    if (r->generate_update_before) fprintf(f, " UB");
    fprintf(f, "\n");
    for (int i = 0; i < r->ninputs; i++) dump(f, r->inputs[i], depth + 1);
}

void wplan_dump(FILE *f, const WRel *root) { dump(f, root, 0); }

bool wplan_build(WPlanCtx *p, WRel **roots, int n)
{
    bool debug = getenv("WEIR_DEBUG_PLAN") != NULL;
    /* Flink creates the tables' sources and sinks while it converts the statement, before any
       optimisation: bad connector options fail EXPLAIN and COMPILE PLAN too (table_factory.c) */
    if (!wplan_create_tables(p, roots, n)) return false;
    for (int i = 0; i < n; i++) {
        if (debug) { fprintf(stderr, "-- bound\n"); wplan_dump(stderr, roots[i]); }
        roots[i] = wplan_optimize(p, roots[i]);
        roots[i] = wplan_physical(p, roots[i]);
        if (!roots[i]) return false;
        roots[i] = wplan_optimize(p, roots[i]);
        roots[i] = wplan_reduce(p, roots[i]);           /* reduce.c */
        if (debug) { fprintf(stderr, "-- physical\n"); wplan_dump(stderr, roots[i]); }
    }
    /* equal sub-plans of all roots become one (reuse.c), before the nodes are numbered */
    if (!wplan_reuse(p, roots, n)) return false;
    if (debug) { fprintf(stderr, "-- reused\n"); for (int i = 0; i < n; i++) wplan_dump(stderr, roots[i]); }
    /* number all roots in one sequence */
    int next = 1;
    for (int i = 0; i < n; i++) number(roots[i], &next);
    for (int i = 0; i < n; i++) wplan_finalize(p, roots[i]);
    /* Flink's translation checks a source's own parallelism */
    for (int i = 0; i < n && p->err && !p->err->set; i++) wscan_check_parallelism(roots[i], p->err);
    return !(p->err && p->err->set);      /* finalisation reports bad state hints */
}
