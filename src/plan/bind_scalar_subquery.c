/*
 * bind_scalar_subquery.c — scalar subqueries (`(SELECT MAX(x) FROM u)`) in a SELECT's WHERE and
 * select items, planned as Flink's decorrelation plans an uncorrelated one: the subquery, bound as
 * a query of its own, is LEFT JOINed to the FROM on TRUE; its one column joins the scope (hidden
 * from *) and the expression binder reads the subquery as that column (BindCtx's subquery map).
 *
 * Contract: only subqueries that yield at most one row are planned: an aggregating SELECT without
 * GROUP BY (Calcite's other ones need SINGLE_VALUE, which weir does not have: refused with a
 * message), with exactly one column. A subquery naming a column of the enclosing query
 * (correlated) is refused with a message. Subqueries inside IN / EXISTS subqueries and [NOT] IN /
 * EXISTS predicates themselves are left to bind_join.c.
 */
#include "bind_internal.h"
#include "bind_scalar_subquery.h"

#include <string.h>

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

WRel *bsubq_bind(BindCtx *b, AstQuery *aq, WRel *in, BScope *scope)
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
        if (!one_row(sq)) {
            werr_set_at(p->err, e->pos.line, e->pos.col, WEXC_TABLE,
                        "A scalar subquery is supported when it aggregates without GROUP BY (one row "
                        "whatever its input); Flink's SINGLE_VALUE check of other ones is not in weir yet.");
            return NULL;
        }
        WError *outer_err = p->err, tmp;
        werr_clear(&tmp);
        p->err = &tmp;
        WRel *r = wbind_query(p, sq);
        p->err = outer_err;
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
            if (correlated) {
                werr_set_at(p->err, e->pos.line, e->pos.col, WEXC_TABLE,
                            "A scalar subquery naming columns of the enclosing query (correlated) is not "
                            "supported in weir yet.");
            } else {
                *p->err = tmp;
            }
            return NULL;
        }
        if (r->out.n != 1) {
            werr_set_at(p->err, e->pos.line, e->pos.col, WEXC_CALCITE,
                        "Cannot apply '$SCALAR_QUERY' to a query with %d columns", r->out.n);
            return NULL;
        }
        WRel *j = wrel_new(p, WR_JOIN, 2);
        j->inputs[0] = in;
        j->inputs[1] = r;
        j->join_type = AJ_LEFT;
        j->join_cond = NULL;
        j->out.n = in->out.n + 1;
        j->out.names = WA_ARRAY(a, const char *, j->out.n);
        j->out.types = WA_ARRAY(a, const WType *, j->out.n);
        for (int i = 0; i < in->out.n; i++) {
            j->out.names[i] = in->out.names[i];
            j->out.types[i] = wtype_with_time_attr(a, in->out.types[i], WTA_NONE);
        }
        j->out.names[in->out.n] = r->out.names[0];
        j->out.types[in->out.n] = wtype_with_nullable(a, wtype_with_time_attr(a, r->out.types[0], WTA_NONE), true);
        bscope_add(a, scope, NULL, r->out.names[0], j->out.types[in->out.n]);
        scope->cols[scope->n - 1].hidden = true;
        /* the scope's column of the subquery; no name reaches it (only the map) */
        scope->cols[scope->n - 1].name = "$SCALAR_QUERY";
        for (int i = 0; i < scope->n - 1; i++) scope->cols[i].type = j->out.types[i];
        AstExpr **ma = WA_ARRAY(a, AstExpr *, b->nsubq_map + 1);
        int *mc = WA_ARRAY(a, int, b->nsubq_map + 1);
        if (b->nsubq_map) {
            memcpy(ma, b->subq_map_ast, sizeof *ma * (size_t)b->nsubq_map);
            memcpy(mc, b->subq_map_col, sizeof *mc * (size_t)b->nsubq_map);
        }
        ma[b->nsubq_map] = e;
        mc[b->nsubq_map] = scope->n - 1;
        b->subq_map_ast = ma;
        b->subq_map_col = mc;
        b->nsubq_map++;
        in = j;
    }
    return in;
}
