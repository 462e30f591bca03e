/*
 * bind_sort.c — binding ORDER BY / LIMIT / OFFSET / FETCH of a query to Calcite's LogicalSort
 * (WR_SORT): ordinals and select aliases, expressions over the output of set operations and
 * VALUES, Flink's default null ordering (ASC NULLS FIRST, DESC NULLS LAST), duplicate sort keys
 * dropped, OFFSET / FETCH literals, and the projection removing hidden ORDER BY columns. The
 * physical choice (SortLimit, Limit, TemporalSort, batch Sort) is made in sort_rules.c. May call
 * the expression binder (bind_internal.h) and plan.h.
 */
#include "bind_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int bsort_ordinal_or_alias(BindCtx *b, AstExpr *e, int n, const char **names)
{
    if (e->kind == AE_LITERAL && e->lit == AL_INTEGER) {
        errno = 0;
        long long v = strtoll(e->text, NULL, 10);
        if (errno || v < 1 || v > n) {
            werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_CALCITE, "Ordinal out of range");
            return -2;
        }
        return (int)v - 1;
    }
    if (e->kind == AE_COLUMN && e->name.n == 1)
        for (int i = 0; i < n; i++)
            if (names[i] && strcmp(names[i], e->name.parts[0]) == 0) return i;
    return -1;
}

static WRel *calc_over(WPlanCtx *p, WRel *in, int n, WExpr **ex, const char **names)
{
    WRel *c = wrel_new(p, WR_CALC, 1);
    c->inputs[0] = in;
    wrel_calc_mut(c)->nexprs = n;
    wrel_calc_mut(c)->exprs = ex;
    c->out.n = n;
    c->out.names = names;
    c->out.types = WA_ARRAY(p->arena, const WType *, n ? n : 1);
    for (int i = 0; i < n; i++) c->out.types[i] = ex[i]->type;
    c->changelog = in->changelog;
    return c;
}

WRel *bsort_resolve_output(BindCtx *b, WRel *in, AstQuery *aq, int **cols, int *nvisible)
{
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    int nvis = in->out.n, n = nvis;
    int *oc = WA_ARRAY(a, int, aq->norder);
    WExpr **ex = WA_ARRAY(a, WExpr *, nvis + aq->norder);
    const char **names = WA_ARRAY(a, const char *, nvis + aq->norder);
    for (int i = 0; i < nvis; i++) {
        ex[i] = wexpr_column(a, i, in->out.types[i], in->out.names[i]);
        names[i] = in->out.names[i];
    }
    BScope scope;
    bscope_init(&scope);
    for (int i = 0; i < nvis; i++) bscope_add(a, &scope, NULL, in->out.names[i], in->out.types[i]);
    for (int k = 0; k < aq->norder; k++) {
        AstExpr *e = aq->order[k].expr;
        int idx = bsort_ordinal_or_alias(b, e, nvis, in->out.names);
        if (idx == -2) return NULL;
        if (idx < 0) {
            WExpr *x = bind_expr(b, &scope, e);
            if (!x) return NULL;
            for (int i = 0; i < n && idx < 0; i++) if (wexpr_equal(ex[i], x)) idx = i;
            if (idx < 0) {
                ex[n] = x;
                names[n] = e->kind == AE_COLUMN ? e->name.parts[e->name.n - 1] : wa_sprintf(a, "EXPR$%d", n);
                idx = n++;
            }
        }
        oc[k] = idx;
    }
    *cols = oc;
    *nvisible = nvis;
    return n > nvis ? calc_over(p, in, n, ex, names) : in;
}

/* OFFSET / FETCH value: an unsigned integer literal (the parser accepts nothing else but '?'). */
static bool limit_literal(BindCtx *b, AstExpr *e, int64_t *out)
{
    if (e->kind != AE_LITERAL || e->lit != AL_INTEGER) {
        werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_VALIDATION, "Dynamic parameters are not supported");
        return false;
    }
    errno = 0;
    long long v = strtoll(e->text, NULL, 10);
    if (errno || v < 0) {
        werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_CALCITE, "Numeric literal '%s' out of range", e->text);
        return false;
    }
    *out = v;
    return true;
}

WRel *bsort_node(BindCtx *b, WRel *in, AstQuery *aq, const int *cols, int nvisible)
{
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    WRel *s = wrel_new(p, WR_SORT, 1);
    s->inputs[0] = in;
    s->out = in->out;
    s->changelog = in->changelog;
    WRelSort *so = wrel_sort_mut(s);
    so->offset = so->fetch = -1;
    if (aq->offset && !limit_literal(b, aq->offset, &so->offset)) return NULL;
    if (aq->limit && !limit_literal(b, aq->limit, &so->fetch)) return NULL;
    int n = aq->norder;
    s->sort_cols = WA_ARRAY(a, int, n ? n : 1);
    s->sort_desc = WA_ARRAY(a, bool, n ? n : 1);
    s->sort_nulls_first = WA_ARRAY(a, bool, n ? n : 1);
    for (int k = 0; k < n; k++) {
        bool dup = false;
        for (int j = 0; j < s->nsort; j++) if (s->sort_cols[j] == cols[k]) dup = true;
        if (dup) continue;      /* Calcite keeps the first occurrence of a sort key */
        AstOrderItem *it = &aq->order[k];
        int m = s->nsort++;
        s->sort_cols[m] = cols[k];
        s->sort_desc[m] = it->desc;
        /* Flink's default null collation is LOW: NULLS FIRST ascending, NULLS LAST descending */
        s->sort_nulls_first[m] = it->nulls == 1 || (it->nulls == 0 && !it->desc);
    }
    if (in->out.n == nvisible) return s;
    WExpr **ex = WA_ARRAY(a, WExpr *, nvisible ? nvisible : 1);
    const char **names = WA_ARRAY(a, const char *, nvisible ? nvisible : 1);
    for (int i = 0; i < nvisible; i++) {
        ex[i] = wexpr_column(a, i, in->out.types[i], in->out.names[i]);
        names[i] = in->out.names[i];
    }
    return calc_over(p, s, nvisible, ex, names);
}
