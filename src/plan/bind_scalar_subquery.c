/*
 * bind_scalar_subquery.c — scalar subqueries (`(SELECT MAX(x) FROM u)`) in a SELECT's WHERE and
 * select items, planned as Flink's decorrelation plans an uncorrelated one: the subquery, bound as
 * a query of its own, is LEFT JOINed to the FROM on TRUE; its one column joins the scope (hidden
 * from *) and the expression binder reads the subquery as that column (BindCtx's subquery map).
 *
 * A correlated one — its WHERE equates expressions of its own FROM with expressions of the
 * enclosing query (`WHERE u.k = t.k AND ...`) — is decorrelated as Calcite does: the subquery
 * grouped by its side of those equalities (rows whose key is NULL filtered out), LEFT JOINed on
 * them.
 *
 * Contract: a subquery that yields at most one row (an aggregating SELECT without GROUP BY) is
 * joined as it is; a plain SELECT (no aggregate, GROUP BY, DISTINCT, ORDER BY / LIMIT) that may
 * yield several rows gets Calcite's SINGLE_VALUE: its item becomes SINGLE_VALUE(item) named $f0
 * ($f<keys> when correlated), an aggregate that fails the job at run time when a second row
 * arrives ("SingleValueAggFunction received more than one element.", exec/accumulators.c);
 * other forms are refused with a message. Exactly one column. A correlated subquery must correlate through such equalities
 * only; a COUNT over no rows is 0 where the join pads NULL, so a bare COUNT is read through
 * Calcite's CASE(IS NULL(x), 0, x) and a computation with one (COUNT(*) + 1) is refused, as are
 * other correlations, with a message. Subqueries inside IN / EXISTS
 * subqueries and [NOT] IN / EXISTS predicates themselves are left to bind_join.c.
 */
#include "bind_internal.h"
#include "bind_scalar_subquery.h"

#include <string.h>
#include <strings.h>

/* Whether e binds against scope s alone (errors discarded). */
static bool binds_in(BindCtx *b, BScope *s, AstExpr *e)
{
    WError *saved = b->p->err, tmp;
    werr_clear(&tmp);
    b->p->err = &tmp;
    BAgg *sa = b->agg;
    b->agg = NULL;
    WExpr *x = bind_expr(b, s, e);
    b->agg = sa;
    b->p->err = saved;
    return x != NULL;
}

static bool mentions_count(const AstExpr *e)
{
    if (!e) return false;
    if (e->kind == AE_FUNC && e->name.n == 1 && !strcasecmp(e->name.parts[0], "COUNT")) return true;
    for (int i = 0; i < e->nargs; i++) if (mentions_count(e->args[i])) return true;
    return false;
}

/* COUNT(...) alone: over no rows it is 0, which the join's NULL padding becomes (Calcite's CASE) */
static bool bare_count(const AstExpr *e)
{
    return e->kind == AE_FUNC && e->name.n == 1 && !strcasecmp(e->name.parts[0], "COUNT") && !e->over;
}

static AstExpr *ast_binary(WArena *a, AstOp op, AstExpr *l, AstExpr *r, AstPos pos)
{
    AstExpr *e = WA_NEW(a, AstExpr);
    e->kind = AE_BINARY;
    e->op = op;
    e->pos = pos;
    e->nargs = 2;
    e->args = WA_ARRAY(a, AstExpr *, 2);
    e->args[0] = l;
    e->args[1] = r;
    return e;
}

/* A plain SELECT SINGLE_VALUE can wrap: no aggregate, grouping, DISTINCT, ordering or window. */
static bool plain_select(const AstQuery *sq)
{
    if (sq->kind != AQ_SELECT || sq->ngroup || sq->nwindows || sq->qualify || sq->having || sq->distinct ||
        sq->norder || sq->limit || sq->offset || sq->nitems != 1 || !sq->from)
        return false;
    return !ast_contains_aggregate(sq->items[0].expr) && sq->items[0].expr->kind != AE_STAR;
}

/* An AST node of `kind` named by one identifier (a column, a function). */
static AstExpr *named_node(WArena *a, AstExprKind kind, const char *name, AstPos pos)
{
    AstExpr *e = WA_NEW(a, AstExpr);
    e->kind = kind;
    e->pos = pos;
    e->name.n = 1;
    e->name.parts = WA_ARRAY(a, char *, 1);
    e->name.parts[0] = wa_strdup(a, name);
    return e;
}

/* SINGLE_VALUE(x) */
static AstExpr *single_value_call(WArena *a, AstExpr *x)
{
    AstExpr *f = named_node(a, AE_FUNC, BIND_SINGLE_VALUE, x->pos);
    f->nargs = 1;
    f->args = WA_ARRAY(a, AstExpr *, 1);
    f->args[0] = x;
    return f;
}

/* An uncorrelated plain SELECT checked as Calcite does: Aggregate(SINGLE_VALUE($0)) AS $f0 over the
   subquery, whose column keeps its own name (b, or EXPR$0 for an expression):
   SELECT SINGLE_VALUE(<name>) AS $f0 FROM (<subquery>) AS $SCALAR_QUERY(<name>). */
static AstQuery *single_value_over(WArena *a, AstQuery *sq)
{
    const AstSelectItem *it = &sq->items[0];
    const AstExpr *x = it->expr;
    const char *nm = it->alias ? it->alias : x->kind == AE_COLUMN ? x->name.parts[x->name.n - 1]
                   : (x->kind == AE_FIELD && x->str) ? x->str : "EXPR$0";
    AstFrom *f = WA_NEW(a, AstFrom);
    f->kind = AFR_SUBQUERY;
    f->pos = sq->pos;
    f->subquery = sq;
    f->alias = wa_strdup(a, "$SCALAR_QUERY");
    f->ncol_aliases = 1;
    f->col_aliases = WA_ARRAY(a, char *, 1);
    f->col_aliases[0] = wa_strdup(a, nm);
    AstExpr *col = named_node(a, AE_COLUMN, nm, x->pos);
    AstQuery *w = WA_NEW(a, AstQuery);
    w->kind = AQ_SELECT;
    w->pos = sq->pos;
    w->from = f;
    w->nitems = 1;
    w->items = WA_ARRAY(a, AstSelectItem, 1);
    w->items[0] = (AstSelectItem){.expr = single_value_call(a, col), .alias = "$f0"};
    return w;
}

/* A correlated subquery decorrelated (see the top): the query grouped by its keys, *nkeys of
   them, whose outer sides are in outer[] (bound against the enclosing scope). NULL with the error
   set. */
static WRel *decorrelate(BindCtx *b, AstExpr *e, bool single_value, BScope *scope, BindFromFn bind_from_fn,
                         void *q, WExpr ***outer, int *nkeys)
{
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    AstQuery *sq = e->subquery;
    static const char *const REFUSED =
        "A correlated scalar subquery is supported in weir when its WHERE equates its own columns "
        "with columns of the enclosing query and a COUNT in its value stands alone; this one %s.";
    if (sq->nitems != 1 || sq->having || sq->distinct || !sq->from) {
        werr_set_at(p->err, e->pos.line, e->pos.col, WEXC_TABLE, REFUSED, "has another form");
        return NULL;
    }
    if (mentions_count(sq->items[0].expr) && !bare_count(sq->items[0].expr)) {
        werr_set_at(p->err, e->pos.line, e->pos.col, WEXC_TABLE, REFUSED, "computes with a count");
        return NULL;
    }
    BScope rs;
    bscope_init(&rs);
    if (!bind_from_fn(q, sq->from, &rs)) return NULL;
    AstExpr *cs[64];
    int n = 0;
    bind_ast_conjuncts(sq->where, cs, &n, 64);
    AstExpr *keys[64], *inner_where = NULL;
    WExpr **ox = WA_ARRAY(a, WExpr *, n + 1);
    int nk = 0;
    for (int i = 0; i < n; i++) {
        if (binds_in(b, &rs, cs[i])) {
            inner_where = inner_where ? ast_binary(a, AO_AND, inner_where, cs[i], cs[i]->pos) : cs[i];
            continue;
        }
        AstExpr *c = cs[i];
        int side = -1;
        if (c->kind == AE_BINARY && c->op == AO_EQ) {
            if (binds_in(b, &rs, c->args[0]) && binds_in(b, scope, c->args[1])) side = 0;
            else if (binds_in(b, &rs, c->args[1]) && binds_in(b, scope, c->args[0])) side = 1;
        }
        if (side < 0) {
            werr_set_at(p->err, c->pos.line, c->pos.col, WEXC_TABLE, REFUSED,
                        "correlates otherwise");
            return NULL;
        }
        keys[nk] = c->args[side];
        ox[nk] = bind_expr(b, scope, c->args[1 - side]);
        if (!ox[nk]) return NULL;
        nk++;
    }
    /* SELECT keys..., item FROM ... WHERE inner conjuncts AND key IS NOT NULL ... GROUP BY keys */
    AstQuery *g = wa_memdup(a, sq, sizeof *sq);
    g->nitems = nk + 1;
    g->items = WA_ARRAY(a, AstSelectItem, nk + 1);
    g->ngroup = nk;
    g->group = WA_ARRAY(a, AstGroupItem, nk ? nk : 1);
    for (int k = 0; k < nk; k++) {
        g->items[k] = (AstSelectItem){.expr = keys[k]};
        g->group[k] = (AstGroupItem){.kind = AG_EXPR, .expr = keys[k]};
        AstExpr *nn = WA_NEW(a, AstExpr);
        nn->kind = AE_IS;
        nn->is_what = AIS_NULL;
        nn->negated = true;
        nn->pos = keys[k]->pos;
        nn->nargs = 1;
        nn->args = WA_ARRAY(a, AstExpr *, 1);
        nn->args[0] = keys[k];
        inner_where = inner_where ? ast_binary(a, AO_AND, inner_where, nn, nn->pos) : nn;
    }
    g->items[nk] = sq->items[0];
    if (single_value)       /* Calcite's SINGLE_VALUE($n) AS $f<n> after the keys */
        g->items[nk] = (AstSelectItem){.expr = single_value_call(a, sq->items[0].expr), .alias = wa_sprintf(a, "$f%d", nk)};
    else if (!g->items[nk].alias) g->items[nk].alias = "EXPR$0";     /* its name in the subquery alone */
    g->where = inner_where;
    WRel *r = wbind_query(p, g);
    if (!r) return NULL;
    *outer = ox;
    *nkeys = nk;
    return r;
}

/* the scalar subqueries of e, outside nested queries */
static void collect(AstExpr *e, AstExpr **out, int *n, int max)
{
    if (!e) return;
    if (e->kind == AE_SUBQUERY) {
        if (*n < max) out[(*n)++] = e;
        return;
    }
    if (e->kind == AE_EXISTS || e->kind == AE_QUANTIFIED || (e->kind == AE_IN && e->subquery)) {
        if (e->kind == AE_IN) for (int i = 0; i < e->nargs; i++) collect(e->args[i], out, n, max);
        return;
    }
    for (int i = 0; i < e->nargs; i++) collect(e->args[i], out, n, max);
    if (e->kind == AE_CASE) {
        collect(e->case_operand, out, n, max);
        for (int i = 0; i < e->nwhen; i++) {
            collect(e->when[i], out, n, max);
            collect(e->then[i], out, n, max);
        }
        collect(e->else_expr, out, n, max);
    }
}

bool bsubq_has_scalar(AstQuery *aq)
{
    AstExpr *found[1];
    int n = 0;
    collect(aq->where, found, &n, 1);
    for (int i = 0; i < aq->nitems && !n; i++) collect(aq->items[i].expr, found, &n, 1);
    return n > 0;
}

/* Whether a SELECT yields one row whatever its input: it aggregates without GROUP BY. */
static bool one_row(const AstQuery *sq)
{
    if (sq->kind != AQ_SELECT || sq->ngroup || sq->nwindows || sq->qualify) return false;
    bool agg = false;
    for (int i = 0; i < sq->nitems && !agg; i++) agg = ast_contains_aggregate(sq->items[i].expr);
    return agg || sq->having != NULL;
}

WRel *bsubq_bind(BindCtx *b, AstQuery *aq, WRel *in, BScope *scope, BindFromFn bind_from_fn, void *q)
{
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    AstExpr *subs[64];
    int n = 0;
    collect(aq->where, subs, &n, 64);
    for (int i = 0; i < aq->nitems; i++) collect(aq->items[i].expr, subs, &n, 64);
    for (int k = 0; k < n; k++) {
        AstExpr *e = subs[k];
        AstQuery *sq = e->subquery;
        bool single_value = false;
        if (!one_row(sq)) {
            if (!plain_select(sq)) {
                werr_set_at(p->err, e->pos.line, e->pos.col, WEXC_TABLE,
                            "A scalar subquery is supported when it aggregates without GROUP BY or is a "
                            "plain SELECT of one column (checked by SINGLE_VALUE); this one has another form.");
                return NULL;
            }
            single_value = true;
        }
        WError *outer_err = p->err, tmp;
        werr_clear(&tmp);
        p->err = &tmp;
        WRel *r = wbind_query(p, single_value ? single_value_over(a, sq) : sq);
        p->err = outer_err;
        WExpr **outer = NULL;
        int nkeys = 0;
        if (!r) {
            /* a name of the enclosing query ('a' of "Column 'a' not found ...", 't' of "Table 't'
               not found") makes it correlated */
            bool correlated = false;
            const char *q1 = strstr(tmp.msg, " not found") ? strchr(tmp.msg, '\'') : NULL;
            const char *q2 = q1 ? strchr(q1 + 1, '\'') : NULL;
            for (int i = 0; q2 && i < scope->n && !correlated; i++) {
                size_t len = (size_t)(q2 - q1 - 1);
                const char *nm = scope->cols[i].name, *ql = scope->cols[i].qual;
                correlated = (strlen(nm) == len && !strncmp(nm, q1 + 1, len)) ||
                             (ql && strlen(ql) == len && !strncmp(ql, q1 + 1, len));
            }
            if (!correlated) {
                *p->err = tmp;
                return NULL;
            }
            r = decorrelate(b, e, single_value, scope, bind_from_fn, q, &outer, &nkeys);
            if (!r) return NULL;
        }
        if (r->out.n != nkeys + 1) {
            werr_set_at(p->err, e->pos.line, e->pos.col, WEXC_CALCITE,
                        "Cannot apply '$SCALAR_QUERY' to a query with %d columns", r->out.n);
            return NULL;
        }
        WRel *j = wrel_new(p, WR_JOIN, 2);
        j->inputs[0] = in;
        j->inputs[1] = r;
        wrel_join_mut(j)->type = AJ_LEFT;
        wrel_join_mut(j)->cond = NULL;
        j->out.n = in->out.n + r->out.n;
        j->out.names = WA_ARRAY(a, const char *, j->out.n);
        j->out.types = WA_ARRAY(a, const WType *, j->out.n);
        for (int i = 0; i < in->out.n; i++) {
            j->out.names[i] = in->out.names[i];
            j->out.types[i] = wtype_with_time_attr(a, in->out.types[i], WTA_NONE);
        }
        for (int i = 0; i < r->out.n; i++) {
            j->out.names[in->out.n + i] = r->out.names[i];
            j->out.types[in->out.n + i] = wtype_with_nullable(a, wtype_with_time_attr(a, r->out.types[i], WTA_NONE), true);
        }
        /* correlated: the enclosing query's side of each equality = the subquery's key */
        WExpr **eqs = WA_ARRAY(a, WExpr *, nkeys + 1);
        for (int k = 0; k < nkeys; k++) {
            WExpr *key = wexpr_column(a, in->out.n + k, j->out.types[in->out.n + k], r->out.names[k]);
            if (!(eqs[k] = bind_make_eq(b, outer[k], key, e->pos))) return NULL;
        }
        wrel_join_mut(j)->cond = nkeys ? wplan_and(p, eqs, nkeys) : NULL;
        /* the subquery's columns join the scope hidden; no name reaches them (only the map) */
        for (int i = 0; i < r->out.n; i++) {
            bscope_add(a, scope, NULL, "$SCALAR_QUERY", j->out.types[in->out.n + i]);
            scope->cols[scope->n - 1].hidden = true;
        }
        for (int i = 0; i < in->out.n; i++) scope->cols[i].type = j->out.types[i];
        AstExpr **ma = WA_ARRAY(a, AstExpr *, b->nsubq_map + 1);
        WExpr **mx = WA_ARRAY(a, WExpr *, b->nsubq_map + 1);
        if (b->nsubq_map) {
            memcpy(ma, b->subq_map_ast, sizeof *ma * (size_t)b->nsubq_map);
            memcpy(mx, b->subq_map_expr, sizeof *mx * (size_t)b->nsubq_map);
        }
        int col = scope->n - 1;
        WExpr *x = wexpr_column(a, col, scope->cols[col].type, "$SCALAR_QUERY");
        if (nkeys && bare_count(sq->items[0].expr)) {
            /* a correlated COUNT over no rows is 0: CASE(IS NULL(x), 0:BIGINT, x) as Calcite */
            WExpr *isnull = wexpr_new(a, WX_IS_NULL, &WTYPE_BOOLEAN_NN, 1);
            isnull->args[0] = x;
            WDatum zero = {.i = 0};
            const WType *t = wtype_with_nullable(a, x->type, false);
            WExpr *c = wexpr_new(a, WX_CASE, t, 3);
            c->has_else = true;
            c->args[0] = isnull;
            c->args[1] = wexpr_literal(a, t, zero, false);
            c->args[2] = bind_cast(b, x, t);
            x = c;
        }
        ma[b->nsubq_map] = e;
        mx[b->nsubq_map] = x;
        b->subq_map_ast = ma;
        b->subq_map_expr = mx;
        b->nsubq_map++;
        in = j;
    }
    return in;
}
