/*
 * bind_join.c — binding joins: JOIN ... ON / USING / NATURAL, comma and CROSS joins, and
 * [NOT] IN / [NOT] EXISTS subqueries in WHERE as semi/anti joins (decorrelated: the subquery's
 * own WHERE is bound against the outer and inner columns together and becomes the join
 * condition). Equi-keys are extracted later (join_rules.c) from the full condition.
 */
#include "bind_internal.h"
#include "bind_join.h"
#include "../expr/functions.h"
#include "../connectors/connector.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

WExpr *bind_make_eq(BindCtx *b, WExpr *l, WExpr *r, AstPos pos)
{
    const WFuncDef *fd = wfunc_lookup("=");
    const WType *at[2] = {l->type, r->type};
    const WType *co[2] = {NULL, NULL};
    const WType *rt = fd->infer(b->p->arena, at, 2, co, b->p->err);
    if (!rt) {
        if (b->p->err && !b->p->err->line) { b->p->err->line = pos.line; b->p->err->col = pos.col; }
        return NULL;
    }
    WExpr *c = wexpr_new(b->p->arena, WX_CALL, rt, 2);
    c->func = fd;
    c->name = fd->name;
    c->args[0] = co[0] ? bind_cast(b, l, co[0]) : l;
    c->args[1] = co[1] ? bind_cast(b, r, co[1]) : r;
    return c;
}

static WExpr *and2(WPlanCtx *p, WExpr *a, WExpr *b)
{
    if (!a) return b;
    if (!b) return a;
    WExpr *x = wexpr_new(p->arena, WX_AND, wtype_with_nullable(p->arena, &WTYPE_BOOLEAN,
                                                              a->type->nullable || b->type->nullable), 2);
    x->args[0] = a;
    x->args[1] = b;
    return x;
}

/* ---- USING / NATURAL: what * and the common columns mean (bind_internal.h's BStar) ---- */

static AstExpr *scope_ref(WArena *a, int col, const char *name)
{
    AstExpr *e = WA_NEW(a, AstExpr);
    e->kind = AE_SCOPE_REF;
    e->scope_col = col;
    e->name.n = 1;
    e->name.parts = WA_ARRAY(a, char *, 1);
    e->name.parts[0] = (char *)name;
    return e;
}

/* e (scope references and COALESCE calls over them) with its references moved by `by` */
static AstExpr *shifted_ref(WArena *a, const AstExpr *e, int by)
{
    AstExpr *c = wa_memdup(a, e, sizeof *e);
    if (e->kind == AE_SCOPE_REF) {
        c->scope_col = e->scope_col + by;
        return c;
    }
    c->args = WA_ARRAY(a, AstExpr *, e->nargs ? e->nargs : 1);
    for (int i = 0; i < e->nargs; i++) c->args[i] = shifted_ref(a, e->args[i], by);
    return c;
}

/* A side's * as items whose references are moved by `offset` (the side's place in the join). A
   plain column takes its name from `names`, the join's row names made unique as Calcite does. */
static int side_star(WArena *a, const BScope *s, int offset, const char **names, BStar **out)
{
    int n = 0;
    BStar *items = WA_ARRAY(a, BStar, (s->nstar ? s->nstar : s->n) + 1);
    if (s->nstar) {
        for (int i = 0; i < s->nstar; i++) {
            AstExpr *x = shifted_ref(a, s->star[i].expr, offset);
            items[n++] = (BStar){x->kind == AE_SCOPE_REF ? names[x->scope_col] : s->star[i].name, x};
        }
    } else {
        for (int i = 0; i < s->n; i++)
            if (!s->cols[i].hidden) items[n++] = (BStar){names[offset + i], scope_ref(a, offset + i, s->cols[i].name)};
    }
    *out = items;
    return n;
}

/* the first unused item of the column name `name` (a plain column by its own name, not the
   unique one it is listed under) */
static int star_find(const BStar *items, int n, const bool *used, const char *name)
{
    for (int i = 0; i < n; i++) {
        const char *own = items[i].expr->kind == AE_SCOPE_REF ? items[i].expr->name.parts[0] : items[i].name;
        if (!used[i] && strcmp(own, name) == 0) return i;
    }
    return -1;
}

/* The join's *: each common column once as COALESCE(left, right) (Calcite, every join type),
   then the left side's other items, then the right side's. */
static void join_star(BindCtx *b, const BScope *ls, const BScope *rs, char **common, int ncommon, BScope *out)
{
    WArena *a = b->p->arena;
    const char **names = WA_ARRAY(a, const char *, out->n ? out->n : 1);
    for (int i = 0; i < out->n; i++) names[i] = out->cols[i].name;
    bind_uniquify(a, out->n, names);
    BStar *l, *r;
    int nl = side_star(a, ls, 0, names, &l), nr = side_star(a, rs, ls->n, names, &r);
    bool *lused = WA_ARRAY(a, bool, nl + 1), *rused = WA_ARRAY(a, bool, nr + 1);
    out->star = WA_ARRAY(a, BStar, nl + nr + 1);
    out->nstar = 0;
    for (int k = 0; k < ncommon; k++) {
        int li = star_find(l, nl, lused, common[k]), ri = star_find(r, nr, rused, common[k]);
        if (li < 0 || ri < 0) continue;     /* USING (a, a): once */
        lused[li] = rused[ri] = true;
        AstExpr *c = WA_NEW(a, AstExpr);
        c->kind = AE_FUNC;
        c->name.n = 1;
        c->name.parts = WA_ARRAY(a, char *, 1);
        c->name.parts[0] = "COALESCE";
        c->nargs = 2;
        c->args = WA_ARRAY(a, AstExpr *, 2);
        c->args[0] = l[li].expr;
        c->args[1] = r[ri].expr;
        out->star[out->nstar++] = (BStar){common[k], c};
    }
    for (int i = 0; i < nl; i++) if (!lused[i]) out->star[out->nstar++] = l[i];
    for (int i = 0; i < nr; i++) if (!rused[i]) out->star[out->nstar++] = r[i];
}

/* The one qualifier all columns of a scope share (a table, alias or named subquery), else NULL. */
const char *scope_single_name(const BScope *s)
{
    const char *q = NULL;
    for (int i = 0; i < s->n; i++) {
        if (!s->cols[i].qual) return NULL;
        if (!q) q = s->cols[i].qual;
        else if (strcmp(q, s->cols[i].qual) != 0) return NULL;
    }
    return q;
}

WRel *bind_join_rel(BindCtx *b, WRel *l, BScope *ls, WRel *r, BScope *rs, AstFrom *f, BScope *out)
{
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    BScope all;
    bscope_init(&all);
    bscope_append(a, &all, ls);
    bscope_append(a, &all, rs);
    WExpr *cond = NULL;
    if (!f->on && f->nusing == 0 && !f->natural && f->join_type != AJ_COMMA && f->join_type != AJ_CROSS) {
        werr_set_at(p->err, f->pos.line, f->pos.col, WEXC_CALCITE,
                    "INNER, LEFT, RIGHT or FULL join requires a condition (NATURAL keyword or ON or USING clause)");
        return NULL;
    }
    if (f->on) {
        cond = bind_condition(b, &all, f->on, "ON");
        if (!cond) return NULL;
    }
    int nusing = f->nusing;
    char **using_cols = f->using_cols;
    if (f->natural) {
        using_cols = WA_ARRAY(a, char *, ls->n ? ls->n : 1);
        nusing = 0;
        for (int i = 0; i < ls->n; i++)
            for (int j = 0; j < rs->n; j++)
                if (strcmp(ls->cols[i].name, rs->cols[j].name) == 0) using_cols[nusing++] = (char *)ls->cols[i].name;
    }
    for (int k = 0; k < nusing; k++) {
        /* the first column of the name on each side (Calcite) */
        int li = -1, ri = -1;
        for (int i = ls->n - 1; i >= 0; i--) if (strcmp(ls->cols[i].name, using_cols[k]) == 0) li = i;
        for (int j = rs->n - 1; j >= 0; j--) if (strcmp(rs->cols[j].name, using_cols[k]) == 0) ri = j;
        if (li < 0 || ri < 0) {
            werr_set_at(p->err, f->pos.line, f->pos.col, WEXC_CALCITE,
                        "Column '%s' not found in any table", using_cols[k]);
            return NULL;
        }
        WExpr *lc = wexpr_column(a, li, ls->cols[li].type, ls->cols[li].name);
        WExpr *rc = wexpr_column(a, ls->n + ri, rs->cols[ri].type, rs->cols[ri].name);
        WExpr *eq = bind_make_eq(b, lc, rc, f->pos);
        if (!eq) return NULL;
        cond = and2(p, cond, eq);
    }
    WRel *j = wrel_new(p, WR_JOIN, 2);
    WRelJoin *rj = wrel_join_mut(j);
    j->inputs[0] = l;
    j->inputs[1] = r;
    rj->type = f->join_type == AJ_COMMA || f->join_type == AJ_CROSS ? AJ_INNER : f->join_type;
    rj->cond = cond;
    j->left_name = scope_single_name(ls);
    rj->right_name = scope_single_name(rs);
    if (r->temporal_as_of) {
        /* JOIN versioned FOR SYSTEM_TIME AS OF left.time: an event-time temporal join */
        WExpr *t = bind_expr(b, ls, r->temporal_as_of);
        if (!t) return NULL;
        if (t->kind != WX_COLUMN || !wtype_is_timestamp(t->type) || t->type->time_attr == WTA_NONE) {
            werr_set_at(p->err, r->temporal_as_of->pos.line, r->temporal_as_of->pos.col, WEXC_VALIDATION,
                        "Temporal table join currently only supports 'FOR SYSTEM_TIME AS OF' left table's time "
                        "attribute field");
            return NULL;
        }
        if (t->type->time_attr == WTA_PROCTIME) {
            /* Flink plans a lookup join when the table is a lookup source (jdbc; Flink 2.3's
               filesystem table is none); otherwise its message for a processing-time temporal
               join, or for a versioned table without a primary key */
            const WRel *sc = r;
            while (sc->kind != WR_SCAN && sc->ninputs > 0) sc = sc->inputs[0];
            const WTable *st = sc->kind == WR_SCAN ? wrel_scan(sc)->table : NULL;
            const char *c = st ? wconnector_id(&st->options) : NULL;
            const WConnector *conn = wconnector_find(c);
            if (!conn || !conn->open_lookup) {
                if (st && st->npk == 0) {
                    werr_set(p->err, WEXC_VALIDATION,
                             "Temporal Table Join requires primary key in versioned table, but no primary key can "
                             "be found.");
                    return NULL;
                }
                werr_set(p->err, WEXC_TABLE, "Processing-time temporal join is not supported yet.");
                return NULL;
            }
            if (rj->type != AJ_INNER && rj->type != AJ_LEFT) {
                werr_set(p->err, "java.lang.IllegalStateException", "Unknown join type %s",
                         rj->type == AJ_RIGHT ? "RIGHT" : "FULL");
                return NULL;
            }
            rj->lookup = true;
        }
        if (rj->type != AJ_INNER && rj->type != AJ_LEFT) {
            werr_set(p->err, WEXC_VALIDATION, "Temporal table join currently only supports INNER JOIN and LEFT JOIN");
            return NULL;
        }
        rj->temporal = true;
        rj->left_time_col = t->col;
        rj->right_time_col = -1;
        for (int i = 0; i < r->out.n && !rj->lookup; i++)
            if (r->out.types[i]->time_attr == WTA_ROWTIME) rj->right_time_col = i;
        if (rj->right_time_col < 0 && !rj->lookup) {
            werr_set(p->err, WEXC_VALIDATION,
                     "Event-Time Temporal Table Join requires both primary key and row time attribute in versioned "
                     "table, but no row time attribute can be found.");
            return NULL;
        }
    }
    bool lnull = rj->type == AJ_RIGHT || rj->type == AJ_FULL;
    bool rnull = rj->type == AJ_LEFT || rj->type == AJ_FULL;
    bind_schema_alloc(p, &j->out, l->out.n + r->out.n);
    bscope_init(out);
    for (int i = 0; i < l->out.n; i++) {
        j->out.names[i] = l->out.names[i];
        const WType *t = wtype_with_time_attr(a, l->out.types[i], WTA_NONE);
        j->out.types[i] = lnull ? wtype_with_nullable(a, t, true) : t;
        bscope_add(a, out, ls->cols[i].qual, ls->cols[i].name, j->out.types[i]);
    }
    for (int i = 0; i < r->out.n; i++) {
        j->out.names[l->out.n + i] = r->out.names[i];
        const WType *t = wtype_with_time_attr(a, r->out.types[i], WTA_NONE);
        j->out.types[l->out.n + i] = rnull ? wtype_with_nullable(a, t, true) : t;
        bscope_add(a, out, rs->cols[i].qual, rs->cols[i].name, j->out.types[l->out.n + i]);
    }
    /* USING / NATURAL: * lists each common column once; an unqualified USING column in a select
       item or GROUP BY key is the COALESCE of its copies (Calcite looks for it in this join's
       USING list, then in the joins on its left; NATURAL columns are not among them) */
    if (nusing || ls->nstar || rs->nstar) join_star(b, ls, rs, using_cols, nusing, out);
    int nnames = ls->nusing + (f->natural ? 0 : nusing);
    if (nnames) {
        out->using_names = WA_ARRAY(a, const char *, nnames);
        for (int k = 0; k < ls->nusing; k++) out->using_names[out->nusing++] = ls->using_names[k];
        for (int k = 0; k < nusing && !f->natural; k++) out->using_names[out->nusing++] = using_cols[k];
    }
    return j;
}

/* ---- subqueries in WHERE ---- */

/* Is e (after NOT) an IN-subquery or EXISTS? */
static bool is_subquery_pred(const AstExpr *e)
{
    if (e->kind == AE_UNARY && e->op == AO_NOT) return is_subquery_pred(e->args[0]);
    return (e->kind == AE_IN && e->subquery) || e->kind == AE_EXISTS;
}

bool ast_has_subquery_conjunct(const AstExpr *e)
{
    if (!e) return false;
    if (e->kind == AE_BINARY && e->op == AO_AND)
        return ast_has_subquery_conjunct(e->args[0]) || ast_has_subquery_conjunct(e->args[1]);
    return is_subquery_pred(e);
}

void bind_ast_conjuncts(AstExpr *e, AstExpr **out, int *n, int max)
{
    if (e->kind == AE_BINARY && e->op == AO_AND) {
        bind_ast_conjuncts(e->args[0], out, n, max);
        bind_ast_conjuncts(e->args[1], out, n, max);
        return;
    }
    if (*n < max) out[(*n)++] = e;
}

/* Build a semi/anti join of `in` (scope s) with subquery predicate e. */
static WRel *semi_join(BindCtx *b, WRel *in, BScope *s, AstExpr *e, bool negate, BindFromFn bind_from_fn, void *q)
{
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    if (e->kind == AE_UNARY && e->op == AO_NOT) return semi_join(b, in, s, e->args[0], !negate, bind_from_fn, q);
    AstQuery *sq = e->subquery;
    bool anti = negate ^ (e->kind == AE_IN ? e->negated : e->negated);
    if (!sq || sq->kind != AQ_SELECT || !sq->from || sq->ngroup || sq->having || sq->distinct ||
        sq->nctes || sq->norder || sq->limit) {
        /* general (uncorrelated) subquery: bind it whole */
        if (!sq) return NULL;
        WRel *r = wbind_query(p, sq);
        if (!r) return NULL;
        BScope rs;
        bscope_init(&rs);
        for (int i = 0; i < r->out.n; i++) bscope_add(a, &rs, NULL, r->out.names[i], r->out.types[i]);
        WExpr *cond = NULL;
        if (e->kind == AE_IN) {
            if (r->out.n != e->nargs) {
                werr_set_at(p->err, e->pos.line, e->pos.col, WEXC_CALCITE,
                            "Values passed to IN operator must have compatible types");
                return NULL;
            }
            for (int k = 0; k < e->nargs; k++) {
                WExpr *x = bind_expr(b, s, e->args[k]);
                if (!x) return NULL;
                WExpr *y = wexpr_column(a, s->n + k, r->out.types[k], r->out.names[k]);
                WExpr *eq = bind_make_eq(b, x, y, e->pos);
                if (!eq) return NULL;
                cond = and2(p, cond, eq);
            }
        }
        WRel *j = wrel_new(p, WR_JOIN, 2);
        j->inputs[0] = in;
        j->inputs[1] = r;
        wrel_join_mut(j)->type = AJ_INNER;
        wrel_join_mut(j)->semi = !anti;
        wrel_join_mut(j)->anti = anti;
        wrel_join_mut(j)->cond = cond;
        j->out = in->out;
        return j;
    }
    /* decorrelate: bind the FROM, then WHERE against outer ++ inner */
    BScope rs;
    bscope_init(&rs);
    WRel *r = bind_from_fn(q, sq->from, &rs);
    if (!r) return NULL;
    BScope all;
    bscope_init(&all);
    bscope_append(a, &all, s);
    for (int i = 0; i < all.n; i++) all.cols[i].depth = 1;     /* outer columns: correlated */
    bscope_append(a, &all, &rs);
    WExpr *cond = NULL;
    if (sq->where) {
        cond = bind_condition(b, &all, sq->where, "WHERE");
        if (!cond) return NULL;
    }
    if (e->kind == AE_IN) {
        if (sq->nitems != e->nargs || sq->items[0].expr->kind == AE_STAR) {
            werr_set_at(p->err, e->pos.line, e->pos.col, WEXC_CALCITE,
                        "Values passed to IN operator must have compatible types");
            return NULL;
        }
        for (int k = 0; k < e->nargs; k++) {
            WExpr *x = bind_expr(b, s, e->args[k]);
            if (!x) return NULL;
            /* the subquery's select item, over the inner columns (shifted after outer) */
            WExpr *y = bind_expr(b, &all, sq->items[k].expr);
            if (!y) return NULL;
            WExpr *eq = bind_make_eq(b, x, y, e->pos);
            if (!eq) return NULL;
            if (anti) {
                /* NOT IN: a NULL on either side makes the predicate unknown, which Flink's
                   null-aware anti join treats as a match (the row is dropped) */
                WExpr *xn = wexpr_new(a, WX_IS_NULL, &WTYPE_BOOLEAN_NN, 1);
                xn->args[0] = x;
                WExpr *yn = wexpr_new(a, WX_IS_NULL, &WTYPE_BOOLEAN_NN, 1);
                yn->args[0] = y;
                WExpr *orx = wexpr_new(a, WX_OR, &WTYPE_BOOLEAN, 3);
                orx->args[0] = eq;
                orx->args[1] = xn;
                orx->args[2] = yn;
                eq = orx;
            }
            cond = and2(p, cond, eq);
        }
    }
    WRel *j = wrel_new(p, WR_JOIN, 2);
    j->inputs[0] = in;
    j->inputs[1] = r;
    wrel_join_mut(j)->type = AJ_INNER;
    wrel_join_mut(j)->semi = !anti;
    wrel_join_mut(j)->anti = anti;
    wrel_join_mut(j)->cond = cond;
    j->out = in->out;
    return j;
}

WRel *bind_where_subqueries(BindCtx *b, WRel *in, BScope *s, AstExpr *where, AstExpr **rest,
                            BindFromFn bind_from_fn, void *q)
{
    AstExpr *cs[256];
    int n = 0;
    bind_ast_conjuncts(where, cs, &n, 256);
    AstExpr *keep = NULL;
    for (int i = 0; i < n; i++) {
        if (is_subquery_pred(cs[i])) {
            in = semi_join(b, in, s, cs[i], false, bind_from_fn, q);
            if (!in) return NULL;
        } else if (!keep) {
            keep = cs[i];
        } else {
            AstExpr *and = WA_NEW(b->p->arena, AstExpr);
            and->kind = AE_BINARY;
            and->op = AO_AND;
            and->pos = keep->pos;
            and->nargs = 2;
            and->args = WA_ARRAY(b->p->arena, AstExpr *, 2);
            and->args[0] = keep;
            and->args[1] = cs[i];
            keep = and;
        }
    }
    *rest = keep;
    return in;
}
