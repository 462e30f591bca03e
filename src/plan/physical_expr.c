/*
 * physical_expr.c — expression helpers of the physical rules: splitting and joining conjunctions,
 * column references (range, use, shift, replacement), function and integer-constant tests.
 * Pure functions over WExpr trees; new nodes come from the planner's arena. See
 * physical_internal.h.
 */
#include "physical_internal.h"
#include "../expr/functions.h"

#include <string.h>

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
void wphys_col_range(const WExpr *e, int *lo, int *hi)
{
    if (e->kind == WX_COLUMN) {
        if (*lo < 0 || e->col < *lo) *lo = e->col;
        if (e->col > *hi) *hi = e->col;
    }
    for (int i = 0; i < e->nargs; i++) wphys_col_range(e->args[i], lo, hi);
}

bool wphys_refs_col(const WExpr *e, int col)
{
    if (e->kind == WX_COLUMN) return e->col == col;
    for (int i = 0; i < e->nargs; i++) if (wphys_refs_col(e->args[i], col)) return true;
    return false;
}

WExpr *wphys_shift_cols(WPlanCtx *p, const WExpr *e, int from, int delta)
{
    WExpr *c = wa_memdup(p->arena, e, sizeof *e);
    if (e->kind == WX_COLUMN && e->col >= from) c->col = e->col + delta;
    if (e->nargs) {
        c->args = WA_ARRAY(p->arena, WExpr *, e->nargs);
        for (int i = 0; i < e->nargs; i++) c->args[i] = wphys_shift_cols(p, e->args[i], from, delta);
    }
    return c;
}

WExpr *wphys_replace_col(WPlanCtx *p, const WExpr *e, int col, WExpr *with)
{
    if (e->kind == WX_COLUMN && e->col == col) return with;
    WExpr *c = wa_memdup(p->arena, e, sizeof *e);
    if (e->nargs) {
        c->args = WA_ARRAY(p->arena, WExpr *, e->nargs);
        for (int i = 0; i < e->nargs; i++) c->args[i] = wphys_replace_col(p, e->args[i], col, with);
    }
    return c;
}

bool wphys_is_func(const WExpr *e, const char *name)
{
    return e->kind == WX_CALL && e->func && strcmp(e->func->name, name) == 0;
}

int64_t wphys_const_int(const WExpr *e, bool *ok)
{
    *ok = false;
    if (e->kind == WX_LITERAL && !e->is_null && wtype_is_integer(e->type)) { *ok = true; return e->lit.i; }
    if (e->kind == WX_CAST && e->args[0]->kind == WX_LITERAL && !e->args[0]->is_null &&
        wtype_is_integer(e->args[0]->type)) { *ok = true; return e->args[0]->lit.i; }
    return 0;
}
