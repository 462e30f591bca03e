/*
 * bind_unnest.c — UNNEST in FROM: `t, UNNEST(t.arr) AS u(x)`, `CROSS JOIN UNNEST(...)`,
 * `LEFT JOIN UNNEST(...) ON TRUE`, `UNNEST(...) WITH ORDINALITY`, and a standalone
 * `SELECT * FROM UNNEST(ARRAY[1, 2, 3]) AS t(x)`; and the physical rule for the Correlate it
 * becomes. See bind_unnest.h. Calls the expression binder (bind_internal.h), expr/, types/.
 *
 * Column names follow Flink in two places. The query sees Calcite's validator names (the aliases,
 * or EXPR$0 / the row's fields / KEY, VALUE, then ORDINALITY). The physical Correlate shows the
 * names of $UNNEST_ROWS$1's row type (f0 / the row's fields / f0, f1, then `ordinality`; with
 * ordinality a row's fields become f0, f1, ...), renamed by the Calc above it.
 */
#include "bind_unnest.h"
#include "../expr/functions.h"

#include <string.h>

static WRel *fail_at(WPlanCtx *p, AstPos pos, const char *cls, const char *msg)
{
    werr_set_at(p->err, pos.line, pos.col, cls, "%s", msg);
    return NULL;
}

/* The columns $UNNEST_ROWS$1 produces for collection type t: Flink's physical names and the
   validator's names. Returns the count, 0 when t is no collection. */
int wunnest_columns(WPlanCtx *p, const WType *t, bool ordinality, bool nullable,
                    const char ***phys, const char ***sql, const WType ***types)
{
    WArena *a = p->arena;
    const WType *elem = NULL;
    int n = 0;
    if (t->id == WT_ARRAY || t->id == WT_MULTISET) {
        elem = t->elem;
        n = elem->id == WT_ROW ? elem->nfields : 1;
    } else if (t->id == WT_MAP) {
        n = 2;
    } else {
        return 0;
    }
    int total = n + (ordinality ? 1 : 0);
    *phys = WA_ARRAY(a, const char *, total);
    *sql = WA_ARRAY(a, const char *, total);
    *types = WA_ARRAY(a, const WType *, total);
    if (t->id == WT_MAP) {
        (*phys)[0] = "f0";
        (*phys)[1] = "f1";
        (*sql)[0] = "KEY";
        (*sql)[1] = "VALUE";
        (*types)[0] = t->key;
        (*types)[1] = t->elem;
    } else if (elem->id == WT_ROW) {
        for (int i = 0; i < n; i++) {
            const char *fname = elem->field_names ? elem->field_names[i] : wa_sprintf(a, "f%d", i);
            (*phys)[i] = ordinality ? wa_sprintf(a, "f%d", i) : fname;
            (*sql)[i] = fname;
            (*types)[i] = elem->fields[i];
        }
    } else {
        (*phys)[0] = "f0";
        (*sql)[0] = "EXPR$0";
        (*types)[0] = elem;
    }
    if (ordinality) {
        (*phys)[n] = "ordinality";
        (*sql)[n] = "ORDINALITY";
        (*types)[n] = &WTYPE_INT_NN;
    }
    if (nullable)
        for (int i = 0; i < total; i++) (*types)[i] = wtype_with_nullable(a, (*types)[i], true);
    return total;
}

static int count_correlates(const WRel *r)
{
    int n = r->kind == WR_CORRELATE;
    for (int i = 0; i < r->ninputs; i++) n += count_correlates(r->inputs[i]);
    return n;
}

static bool is_true_literal(const AstExpr *e)
{
    return e && e->kind == AE_LITERAL && e->lit == AL_TRUE;
}

static bool deterministic(const WExpr *e)
{
    if (e->kind == WX_PROCTIME) return false;
    if (e->kind == WX_CALL && e->func && !e->func->deterministic) return false;
    for (int i = 0; i < e->nargs; i++) if (!deterministic(e->args[i])) return false;
    return true;
}

static bool refs_only_from(const WExpr *e, int first)
{
    if (e->kind == WX_COLUMN) return e->col >= first;
    for (int i = 0; i < e->nargs; i++)
        if (!refs_only_from(e->args[i], first)) return false;
    return true;
}

static bool refs_only_below(const WExpr *e, int end)
{
    if (e->kind == WX_COLUMN) return e->col < end;
    for (int i = 0; i < e->nargs; i++)
        if (!refs_only_below(e->args[i], end)) return false;
    return true;
}

static WExpr *shift(WPlanCtx *p, const WExpr *e, int delta)
{
    WExpr *c = wa_memdup(p->arena, e, sizeof *e);
    if (e->kind == WX_COLUMN) c->col = e->col + delta;
    if (e->nargs) {
        c->args = WA_ARRAY(p->arena, WExpr *, e->nargs);
        for (int i = 0; i < e->nargs; i++) c->args[i] = shift(p, e->args[i], delta);
    }
    return c;
}

static WRel *calc_over(WPlanCtx *p, WRel *in, int n, WExpr **exprs, const char **names, WExpr *cond)
{
    WRel *c = wrel_new(p, WR_CALC, 1);
    WRelCalc *cc = wrel_calc_mut(c);
    c->inputs[0] = in;
    cc->nexprs = n;
    cc->exprs = exprs;
    cc->cond = cond;
    c->out.n = n;
    c->out.names = WA_ARRAY(p->arena, const char *, n ? n : 1);
    c->out.types = WA_ARRAY(p->arena, const WType *, n ? n : 1);
    for (int i = 0; i < n; i++) {
        c->out.names[i] = names[i];
        c->out.types[i] = exprs[i]->type;
    }
    c->changelog = in->changelog;
    return c;
}

static WRel *filter_over(WPlanCtx *p, WRel *in, WExpr *cond)
{
    WExpr **ex = WA_ARRAY(p->arena, WExpr *, in->out.n ? in->out.n : 1);
    for (int i = 0; i < in->out.n; i++) ex[i] = wexpr_column(p->arena, i, in->out.types[i], in->out.names[i]);
    return calc_over(p, in, in->out.n, ex, in->out.names, cond);
}

/* ---------------------------------------------------------------- binding */

WRel *bind_unnest_rel(BindCtx *b, WRel *left, BScope *ls, AstFrom *u, AstJoinType jt, AstExpr *on,
                      AstPos pos, BScope *out)
{
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    BScope empty;
    bscope_init(&empty);
    bool standalone = left == NULL;
    if (standalone) {
        left = wrel_new(p, WR_VALUES, 0);
        WRelValues *lv = wrel_values_mut(left);
        left->out.n = 0;
        left->out.names = WA_ARRAY(a, const char *, 1);
        left->out.types = WA_ARRAY(a, const WType *, 1);
        lv->nrows = 1;
        lv->rows = WA_ARRAY(a, WDatum *, 1);
        lv->row_nulls = WA_ARRAY(a, uint8_t *, 1);
        lv->rows[0] = WA_ARRAY(a, WDatum, 1);
        lv->row_nulls[0] = WA_ARRAY(a, uint8_t, 1);
        ls = &empty;
    }
    if (jt == AJ_RIGHT || jt == AJ_FULL)
        return fail_at(p, pos, WEXC_TABLE,
                       "UNNEST is supported in FROM as a cross join, an inner join or a LEFT JOIN ... ON TRUE; "
                       "RIGHT and FULL joins with UNNEST are not supported.");
    AstExpr *arg = u->call;
    if (arg->kind == AE_FUNC && arg->name.n == 1 && !strcmp(arg->name.parts[0], "UNNEST") && arg->nargs > 1)
        return fail_at(p, arg->pos, WEXC_TABLE, "UNNEST with more than one argument is not supported yet.");
    WExpr *coll = bind_expr(b, ls, arg);
    if (!coll) return NULL;
    const WType *ct = coll->type;
    bool left_join = jt == AJ_LEFT;
    const char **phys, **sqln;
    const WType **ftypes;
    int nf = wunnest_columns(p, ct, u->with_ordinality, left_join, &phys, &sqln, &ftypes);
    if (nf == 0) {
        WStrBuf s;
        wsb_init(&s);
        wsb_puts(&s, "Cannot apply 'UNNEST' to arguments of type 'UNNEST(<");
        wcast_calcite_type_name(ct, &s);
        wsb_puts(&s, ">)'. Supported form(s): 'UNNEST(<MULTISET>)'\n'UNNEST(<ARRAY>)'\n'UNNEST(<MAP>)'");
        werr_set_at(p->err, arg->pos.line, arg->pos.col, WEXC_CALCITE, "%s", s.buf);
        wsb_free(&s);
        return NULL;
    }
    if (u->ncol_aliases && u->ncol_aliases != nf) {
        WStrBuf s;
        wsb_init(&s);
        wsb_printf(&s, "List of column aliases must have same degree as table; table has %d columns (", nf);
        for (int i = 0; i < nf; i++) wsb_printf(&s, "%s'%s'", i ? ", " : "", sqln[i]);
        wsb_printf(&s, "), whereas alias list has %d columns", u->ncol_aliases);
        werr_set_at(p->err, u->pos.line, u->pos.col, WEXC_CALCITE, "%s", s.buf);
        wsb_free(&s);
        return NULL;
    }
    const char **names = u->ncol_aliases ? (const char **)u->col_aliases : sqln;

    int nl = standalone ? 0 : left->out.n;
    WRel *c = wrel_new(p, WR_CORRELATE, 1);
    WRelCorrelate *cc = wrel_correlate_mut(c);
    c->inputs[0] = left;
    cc->collection = coll;
    cc->join_type = left_join ? AJ_LEFT : AJ_INNER;
    cc->ordinality = u->with_ordinality;
    cc->cor_id = standalone ? -1 : count_correlates(left);
    cc->nleft_out = nl;
    c->nalias = u->ncol_aliases;
    c->alias_names = (const char **)u->col_aliases;
    c->out.n = nl + nf;
    c->out.names = WA_ARRAY(a, const char *, c->out.n);
    c->out.types = WA_ARRAY(a, const WType *, c->out.n);
    for (int i = 0; i < nl; i++) {
        c->out.names[i] = left->out.names[i];
        c->out.types[i] = left->out.types[i];
    }
    for (int i = 0; i < nf; i++) {
        c->out.names[nl + i] = names[i];
        c->out.types[nl + i] = ftypes[i];
    }
    c->changelog = left->changelog;

    bscope_init(out);
    if (!standalone) bscope_append(a, out, ls);
    for (int i = 0; i < nf; i++) bscope_add(a, out, u->alias, names[i], ftypes[i]);

    WRel *r = c;
    if (on && !is_true_literal(on)) {
        WExpr *cond = bind_condition(b, out, on, "ON");
        if (!cond) return NULL;
        if (left_join) {
            if (!refs_only_from(cond, nl))
                return fail_at(p, on->pos, WEXC_TABLE,
                               "The ON condition of a LEFT JOIN with UNNEST may only refer to the UNNEST "
                               "columns (or be TRUE) in weir.");
            cc->cond = shift(p, cond, -nl);
        } else {
            r = filter_over(p, c, cond);
        }
    }
    return r;
}

/* ---------------------------------------------------------------- physical rule */

/* Flink's physical column names of the function (see function_columns). */
static const char **physical_names(WPlanCtx *p, const WRel *c)
{
    const char **phys, **sqln;
    const WType **types;
    wunnest_columns(p, wrel_correlate(c)->collection->type, wrel_correlate(c)->ordinality, false, &phys, &sqln, &types);
    return phys;
}

static WRel *rewrite(WPlanCtx *p, WRel *r)
{
    WRel *top = NULL;
    WRel *c = r;
    if (r->kind == WR_CALC && wrel_calc(r)->cond && r->inputs[0]->kind == WR_CORRELATE && !wrel_correlate(r->inputs[0])->physical) {
        top = r;
        c = r->inputs[0];
    }
    for (int i = 0; i < c->ninputs; i++) c->inputs[i] = rewrite(p, c->inputs[i]);
    if (c->kind != WR_CORRELATE || wrel_correlate(c)->physical) return r;
    WRelCorrelate *cc = wrel_correlate_mut(c);
    int nl = cc->nleft_out;
    if (top) {
        /* FilterCorrelateRule: conjuncts over the left go below, conjuncts over the function's
           columns into the Correlate (inner joins only), the rest stay above */
        WExpr *cs[256];
        int n = 0;
        wplan_split_and(wrel_calc(top)->cond, cs, &n, 256);
        WExpr *keep[256], *lpush[256], *rpush[256];
        int nk = 0, nlp = 0, nrp = 0;
        for (int i = 0; i < n; i++) {
            if (nl > 0 && refs_only_below(cs[i], nl) && deterministic(cs[i])) lpush[nlp++] = cs[i];
            else if (cc->join_type == AJ_INNER && refs_only_from(cs[i], nl) && deterministic(cs[i]))
                rpush[nrp++] = shift(p, cs[i], -nl);
            else keep[nk++] = cs[i];
        }
        if (nlp) c->inputs[0] = filter_over(p, c->inputs[0], wplan_and(p, lpush, nlp));
        if (nrp) {
            WExpr *all[260];
            int na = 0;
            wplan_split_and(cc->cond, all, &na, 256);
            for (int i = 0; i < nrp && na < 260; i++) all[na++] = rpush[i];
            cc->cond = wplan_and(p, all, na);
        }
        wrel_calc_mut(top)->cond = wplan_and(p, keep, nk);
    }
    /* Flink's names on the Correlate, the query's names on a Calc above it */
    const char **phys = physical_names(p, c);
    const char **user = c->out.names;
    const char **nn = WA_ARRAY(p->arena, const char *, c->out.n);
    WExpr **ex = WA_ARRAY(p->arena, WExpr *, c->out.n);
    bool renamed = false;
    for (int i = 0; i < c->out.n; i++) {
        nn[i] = i < nl ? user[i] : phys[i - nl];
        renamed = renamed || strcmp(nn[i], user[i]) != 0;
        ex[i] = wexpr_column(p->arena, i, c->out.types[i], nn[i]);
    }
    c->out.names = nn;
    cc->physical = true;
    WRel *cr = renamed ? calc_over(p, c, c->out.n, ex, user, NULL) : c;
    if (top) {
        top->inputs[0] = cr;
        return top;
    }
    return cr;
}

WRel *wplan_correlate_rules(WPlanCtx *p, WRel *root)
{
    return rewrite(p, root);
}
