/*
 * bind_setops.c — INTERSECT and EXCEPT ([ALL | DISTINCT]) as Flink's planner rewrites them onto
 * joins, aggregates and a row-replicating Correlate:
 *   INTERSECT       ReplaceIntersectWithSemiJoinRule: Aggregate(group by all) over a semi join on
 *                   every column with IS NOT DISTINCT FROM (NULLs are equal);
 *   EXCEPT          ReplaceMinusWithAntiJoinRule: the same over an anti join;
 *   INTERSECT ALL   RewriteIntersectAllRule: both sides tagged with markers, unioned, counted per
 *                   side (COUNT of the markers), rows with both counts >= 1 replicated
 *                   MIN(left, right) times by $REPLICATE_ROWS$1;
 *   EXCEPT ALL      RewriteMinusAllRule: markers 1 / -1, SUM per row, rows with a positive sum
 *                   replicated that many times.
 * The inputs arrive with the set operation's column types (bind.c casts them with
 * bsetop_cast_sides). Every rewritten root records the set operation for the AST section
 * (setop_kind, setop_inputs). Also the helpers of UNION [ALL] (bound in bind.c): the common column
 * types of n inputs, the casts to them, and UNION ALL of n inputs.
 * May call the binder helpers of bind_internal.h and the function library; see plan.h.
 */
#include "bind_internal.h"
#include "../expr/functions.h"

#include <assert.h>
#include <string.h>

/* A call of a library function or operator on two arguments, with the library's coercions. */
static WExpr *call2(BindCtx *b, const char *fn, WExpr *x, WExpr *y)
{
    const WFuncDef *fd = wfunc_lookup(fn);
    if (!fd) return NULL;
    const WType *at[2] = {x->type, y->type};
    const WType *co[2] = {NULL, NULL};
    const WType *rt = fd->infer(b->p->arena, at, 2, co, b->p->err);
    if (!rt) return NULL;
    WExpr *c = wexpr_new(b->p->arena, WX_CALL, rt, 2);
    c->func = fd;
    c->name = fd->name;
    c->args[0] = co[0] ? bind_cast(b, x, co[0]) : x;
    c->args[1] = co[1] ? bind_cast(b, y, co[1]) : y;
    return c;
}

static WExpr *int_lit(WArena *a, const WType *t, int64_t v)
{
    WDatum d = {.i = v};
    return wexpr_literal(a, t, d, false);
}

static WExpr *bool_lit(WArena *a, bool null)
{
    WDatum d = {.i = 1};
    return wexpr_literal(a, null ? &WTYPE_BOOLEAN : &WTYPE_BOOLEAN_NN, d, null);
}

static WRel *group_all(WPlanCtx *p, WRel *in, int nkeys, int naggs, WAggCall *aggs)
{
    WRel *g = wrel_new(p, WR_GROUP_AGG, 1);
    g->inputs[0] = in;
    g->nkeys = nkeys;
    g->keys = WA_ARRAY(p->arena, int, nkeys ? nkeys : 1);
    for (int i = 0; i < nkeys; i++) g->keys[i] = i;
    wrel_agg_mut(g)->naggs = naggs;
    wrel_agg_mut(g)->aggs = aggs;
    bind_schema_alloc(p, &g->out, nkeys + naggs);
    for (int i = 0; i < nkeys; i++) {
        g->out.names[i] = in->out.names[i];
        g->out.types[i] = wtype_with_time_attr(p->arena, in->out.types[i], WTA_NONE);
    }
    for (int i = 0; i < naggs; i++) {
        g->out.names[nkeys + i] = aggs[i].out_name;
        g->out.types[nkeys + i] = aggs[i].type;
    }
    return g;
}

/* Column i of l and of r equal, NULLs included: IS NOT DISTINCT FROM, which Calcite's
   simplification turns into '=' when neither side can be NULL (Flink shows `(id = id0)`). */
static WExpr *same_column(BindCtx *b, WRel *l, WRel *r, int i, int n)
{
    WArena *a = b->p->arena;
    const WType *lt = l->out.types[i], *rt = r->out.types[i];
    return call2(b, lt->nullable || rt->nullable ? "IS NOT DISTINCT FROM" : "=",
                 wexpr_column(a, i, lt, l->out.names[i]), wexpr_column(a, n + i, rt, r->out.names[i]));
}

/* INTERSECT / EXCEPT (distinct): Aggregate(group by all) over a semi / anti join. */
static WRel *distinct_rewrite(BindCtx *b, bool intersect, WRel *l, WRel *r, const WSchema *out)
{
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    int n = out->n;
    WExpr *cond = NULL;
    if (n == 1) {
        cond = same_column(b, l, r, 0, n);
        if (!cond) return NULL;
    } else {
        cond = wexpr_new(a, WX_AND, &WTYPE_BOOLEAN_NN, n);
        for (int i = 0; i < n; i++) {
            cond->args[i] = same_column(b, l, r, i, n);
            if (!cond->args[i]) return NULL;
        }
    }
    WRel *j = wrel_new(p, WR_JOIN, 2);
    j->inputs[0] = l;
    j->inputs[1] = r;
    wrel_join_mut(j)->type = AJ_INNER;
    wrel_join_mut(j)->semi = intersect;
    wrel_join_mut(j)->anti = !intersect;
    wrel_join_mut(j)->cond = cond;
    j->out = l->out;
    return group_all(p, j, n, 0, NULL);
}

/* The Correlate replicating each row of `in` (count column 0, then n columns) count times, and
   the Calc keeping the replicated copies under the set operation's names. */
static WRel *replicate(WPlanCtx *p, WRel *in, const WSchema *out)
{
    WArena *a = p->arena;
    int n = out->n;
    WRel *c = wrel_new(p, WR_REPLICATE_ROWS, 1);
    c->inputs[0] = in;
    bind_schema_alloc(p, &c->out, 1 + 2 * n);
    for (int i = 0; i <= n; i++) {
        c->out.names[i] = in->out.names[i];
        c->out.types[i] = in->out.types[i];
    }
    /* the function's fields take the input's names, made unique as Calcite does (c -> c0) */
    for (int i = 0; i < n; i++) {
        const char *nm = in->out.names[1 + i];
        for (int k = -1;; k++) {
            const char *cand = k < 0 ? nm : wa_sprintf(a, "%s%d", nm, k);
            bool clash = false;
            for (int m = 0; m < 1 + n + i; m++) if (!strcmp(c->out.names[m], cand)) clash = true;
            if (!clash) { nm = cand; break; }
        }
        c->out.names[1 + n + i] = nm;
        c->out.types[1 + n + i] = in->out.types[1 + i];
    }
    WExpr **ex = WA_ARRAY(a, WExpr *, n ? n : 1);
    for (int i = 0; i < n; i++) ex[i] = wexpr_column(a, 1 + n + i, c->out.types[1 + n + i], c->out.names[1 + n + i]);
    return bind_make_calc(p, c, n, ex, out->names, NULL);
}

/* Side `s` of an ALL rewrite: its columns plus the marker columns. */
static WRel *with_markers(WPlanCtx *p, WRel *side, const WSchema *out, int nm, WExpr **markers, const char **mnames)
{
    WArena *a = p->arena;
    int n = out->n;
    WExpr **ex = WA_ARRAY(a, WExpr *, n + nm);
    const char **names = WA_ARRAY(a, const char *, n + nm);
    for (int i = 0; i < n; i++) {
        ex[i] = wexpr_column(a, i, side->out.types[i], side->out.names[i]);
        names[i] = side->out.names[i];
    }
    for (int k = 0; k < nm; k++) {
        ex[n + k] = markers[k];
        names[n + k] = mnames[k];
    }
    return bind_make_calc(p, side, n + nm, ex, names, NULL);
}

static WRel *union2(WPlanCtx *p, WRel *l, WRel *r)
{
    WRel *u = wrel_new(p, WR_UNION, 2);
    u->inputs[0] = l;
    u->inputs[1] = r;
    u->out = l->out;
    u->changelog = l->changelog | r->changelog;
    return u;
}

static WRel *intersect_all(BindCtx *b, WRel *l, WRel *r, const WSchema *out)
{
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    int n = out->n;
    const char *mn[2] = {"vcol_left_marker", "vcol_right_marker"};
    WExpr *lm[2] = {bool_lit(a, false), bool_lit(a, true)};
    WExpr *rm[2] = {bool_lit(a, true), bool_lit(a, false)};
    WRel *u = union2(p, with_markers(p, l, out, 2, lm, mn), with_markers(p, r, out, 2, rm, mn));
    WAggCall *calls = WA_ARRAY(a, WAggCall, 2);
    for (int k = 0; k < 2; k++) {
        calls[k] = (WAggCall){.kind = WAGG_COUNT, .name = "COUNT", .nargs = 1, .args = {n + k, 0},
                              .filter_col = -1, .type = &WTYPE_BIGINT_NN,
                              .out_name = k ? "vcol_right_cnt" : "vcol_left_cnt"};
    }
    WRel *g = group_all(p, u, n, 2, calls);
    WExpr *lc = wexpr_column(a, n, &WTYPE_BIGINT_NN, "vcol_left_cnt");
    WExpr *rc = wexpr_column(a, n + 1, &WTYPE_BIGINT_NN, "vcol_right_cnt");
    WExpr *gt = call2(b, ">", lc, rc);
    WExpr *ge_l = call2(b, ">=", lc, int_lit(a, &WTYPE_INT_NN, 1));
    WExpr *ge_r = call2(b, ">=", rc, int_lit(a, &WTYPE_INT_NN, 1));
    if (!gt || !ge_l || !ge_r) return NULL;
    const WFuncDef *fif = wfunc_lookup("IF");
    if (!fif) return NULL;
    /* Flink's IF here is typed nullable BIGINT (the Correlate's rowType says BIGINT $f0) */
    WExpr *cnt = wexpr_new(a, WX_CALL, &WTYPE_BIGINT, 3);
    cnt->func = fif;
    cnt->name = fif->name;
    cnt->args[0] = gt;
    cnt->args[1] = rc;
    cnt->args[2] = lc;
    WExpr *cond = wexpr_new(a, WX_AND, &WTYPE_BOOLEAN_NN, 2);
    cond->args[0] = ge_l;
    cond->args[1] = ge_r;
    WExpr **ex = WA_ARRAY(a, WExpr *, n + 1);
    const char **names = WA_ARRAY(a, const char *, n + 1);
    ex[0] = cnt;
    names[0] = "$f0";
    for (int i = 0; i < n; i++) {
        ex[1 + i] = wexpr_column(a, i, g->out.types[i], g->out.names[i]);
        names[1 + i] = g->out.names[i];
    }
    return replicate(p, bind_make_calc(p, g, n + 1, ex, names, cond), out);
}

static WRel *except_all(BindCtx *b, WRel *l, WRel *r, const WSchema *out)
{
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    int n = out->n;
    const char *mn[1] = {"vcol_marker"};
    WExpr *lm[1] = {int_lit(a, &WTYPE_BIGINT_NN, 1)};
    WExpr *rm[1] = {int_lit(a, &WTYPE_BIGINT_NN, -1)};
    WRel *u = union2(p, with_markers(p, l, out, 1, lm, mn), with_markers(p, r, out, 1, rm, mn));
    WAggCall *calls = WA_ARRAY(a, WAggCall, 1);
    calls[0] = (WAggCall){.kind = WAGG_SUM, .name = "SUM", .nargs = 1, .args = {n, 0}, .filter_col = -1,
                          .type = wtype_sum_result(a, &WTYPE_BIGINT_NN), .out_name = "sum_vcol_marker"};
    WRel *g = group_all(p, u, n, 1, calls);
    WExpr *sum = wexpr_column(a, n, g->out.types[n], "sum_vcol_marker");
    WExpr *cond = call2(b, ">", sum, int_lit(a, &WTYPE_INT_NN, 0));
    if (!cond) return NULL;
    WExpr **ex = WA_ARRAY(a, WExpr *, n + 1);
    const char **names = WA_ARRAY(a, const char *, n + 1);
    ex[0] = sum;
    names[0] = "sum_vcol_marker";
    for (int i = 0; i < n; i++) {
        ex[1 + i] = wexpr_column(a, i, g->out.types[i], g->out.names[i]);
        names[1 + i] = g->out.names[i];
    }
    return replicate(p, bind_make_calc(p, g, n + 1, ex, names, cond), out);
}

WRel *bsetop_rewrite(BindCtx *b, AstSetOp op, bool all, WRel *l, WRel *r, const WSchema *out)
{
    bool intersect = op == ASO_INTERSECT;
    WRel *res = !all ? distinct_rewrite(b, intersect, l, r, out)
              : intersect ? intersect_all(b, l, r, out) : except_all(b, l, r, out);
    if (!res) {
        if (!b->p->err->msg[0])
            werr_set(b->p->err, WEXC_TABLE, "%s could not be planned", intersect ? "INTERSECT" : "EXCEPT");
        return NULL;
    }
    res->setop_kind = (WSetOpOrigin)(1 + (int)op);
    res->setop_all = all;
    res->setop_inputs[0] = l;
    res->setop_inputs[1] = r;
    return res;
}

/* ---- UNION [ALL] helpers (bind.c) ---- */

/* The common type of column i of n inputs (NULL with the error set when there is none). */
bool bsetop_union_types(WPlanCtx *p, WRel **sides, int n, const WType **ct, const char *opname, AstPos pos)
{
    for (int i = 0; i < sides[0]->out.n; i++) {
        ct[i] = sides[0]->out.types[i];
        for (int s = 1; s < n && ct[i]; s++) ct[i] = wtype_common(p->arena, ct[i], sides[s]->out.types[i]);
        if (!ct[i]) {
            werr_set_at(p->err, pos.line, pos.col, WEXC_CALCITE, "Type mismatch in column %d of %s", i + 1, opname);
            return false;
        }
    }
    return true;
}

/* Inputs cast to the column types ct where theirs differ (a Calc above each such input). */
void bsetop_cast_sides(WPlanCtx *p, WRel **sides, int n, const WType **ct)
{
    WArena *a = p->arena;
    int nc = sides[0]->out.n;
    for (int s = 0; s < n; s++) {
        bool cast = false;
        for (int i = 0; i < nc; i++) if (!wtype_equals(ct[i], sides[s]->out.types[i], false)) cast = true;
        if (!cast) continue;
        WExpr **ex = WA_ARRAY(a, WExpr *, nc ? nc : 1);
        for (int i = 0; i < nc; i++) {
            WExpr *c = wexpr_column(a, i, sides[s]->out.types[i], sides[s]->out.names[i]);
            BindCtx bc = {.p = p};
            ex[i] = bind_cast(&bc, c, ct[i]);
            if (!wtype_equals(ex[i]->type, ct[i], false))
                ex[i]->type = ct[i];
        }
        sides[s] = bind_make_calc(p, sides[s], nc, ex, sides[s]->out.names, NULL);
    }
}

/* UNION ALL of n inputs of one column count, cast to their common types; named as the first. */
WRel *bsetop_union_all(WPlanCtx *p, WRel **sides, int n)
{
    assert(n >= 2);
    int nc = sides[0]->out.n;
    const char **names = sides[0]->out.names;
    const WType **ct = WA_ARRAY(p->arena, const WType *, nc ? nc : 1);
    for (int s = 1; s < n; s++) assert(sides[s]->out.n == nc);
    if (!bsetop_union_types(p, sides, n, ct, "UNION", (AstPos){0})) return NULL;
    bsetop_cast_sides(p, sides, n, ct);
    WRel *u = wrel_new(p, WR_UNION, n);
    bind_schema_alloc(p, &u->out, nc);
    u->changelog = 0;
    for (int s = 0; s < n; s++) {
        u->inputs[s] = sides[s];
        u->changelog |= sides[s]->changelog;
    }
    for (int i = 0; i < nc; i++) {
        u->out.names[i] = names[i];
        u->out.types[i] = ct[i];
    }
    return u;
}
