/*
 * bind_over_group.c — OVER windows in an aggregating SELECT (GROUP BY, HAVING or aggregates in
 * the select list), as Calcite binds them: window functions are evaluated after the aggregation,
 * over its output, so an aggregate or a group key used in a window function's arguments,
 * PARTITION BY or ORDER BY names the aggregate's column. The query is rewritten into the
 * two-level form it is equivalent to:
 *   SELECT k, COUNT(*) c, ROW_NUMBER() OVER (ORDER BY COUNT(*) DESC) FROM t GROUP BY k
 *   =>  SELECT k, c, ROW_NUMBER() OVER (ORDER BY c DESC) AS EXPR$2
 *       FROM (SELECT k, COUNT(*) AS c FROM t GROUP BY k)
 * The inner query keeps FROM / WHERE / GROUP BY / HAVING / hints and selects every maximal
 * subexpression outside the window calls that reads columns or aggregates (duplicates once,
 * select aliases kept, others named EXPR$i after their select item or $f<i>); the outer query
 * keeps DISTINCT, named windows, ORDER BY and LIMIT and computes the window calls over it. So
 * the plans are those of the two-level query (a window Top-N over a window aggregate becomes a
 * WindowRank, a Top-N over a group aggregate a Rank). Constant arguments (LAG offsets, NTILE
 * buckets, frame bounds) stay in place.
 * See bind_internal.h. May call the binder (bind_expr.c) and sql/ (AST).
 */
#include "bind_internal.h"

#include <stdio.h>
#include <string.h>

#define MAX_LIFT 512

typedef struct Lift {
    WArena *a;
    AstQuery *inner;
    int n;
    AstSelectItem items[MAX_LIFT];
    const char *text[MAX_LIFT];     /* SQL text of each inner item (deduplication) */
    const char *name[MAX_LIFT];     /* the inner column it becomes */
    bool overflow;
} Lift;

static bool has_over(const AstExpr *e, int depth)
{
    if (!e || depth > 200) return false;
    if (e->kind == AE_SUBQUERY || e->kind == AE_EXISTS) return false;
    if (e->kind == AE_FUNC && e->over) return true;
    for (int i = 0; i < e->nargs; i++) if (has_over(e->args[i], depth + 1)) return true;
    for (int i = 0; i < e->nwhen; i++)
        if (has_over(e->when[i], depth + 1) || has_over(e->then[i], depth + 1)) return true;
    return has_over(e->case_operand, depth + 1) || has_over(e->else_expr, depth + 1);
}

/* Whether e reads a column, an aggregate or a subquery (else it is a constant and stays). */
static bool reads_input(const AstExpr *e, int depth)
{
    if (!e || depth > 200) return false;
    switch (e->kind) {
    case AE_COLUMN: case AE_STAR: case AE_SUBQUERY: case AE_EXISTS: return true;
    default: break;
    }
    if (e->kind == AE_FUNC && e->special == 'N') return false;
    if (ast_is_aggregate_call(e)) return true;
    for (int i = 0; i < e->nargs; i++) if (reads_input(e->args[i], depth + 1)) return true;
    for (int i = 0; i < e->nwhen; i++)
        if (reads_input(e->when[i], depth + 1) || reads_input(e->then[i], depth + 1)) return true;
    return reads_input(e->case_operand, depth + 1) || reads_input(e->else_expr, depth + 1) ||
           reads_input(e->filter, depth + 1);
}

/* An aggregate anywhere but as the window function itself (in its arguments, PARTITION BY,
   ORDER BY, or outside any window call). */
static bool plain_aggregate(const AstExpr *e, int depth)
{
    if (!e || depth > 200) return false;
    if (e->kind == AE_SUBQUERY || e->kind == AE_EXISTS) return false;
    if (ast_is_aggregate_call(e)) return true;
    if (e->kind == AE_FUNC && e->over) {
        for (int i = 0; i < e->over->npartition; i++) if (plain_aggregate(e->over->partition[i], depth + 1)) return true;
        for (int i = 0; i < e->over->norder; i++) if (plain_aggregate(e->over->order[i].expr, depth + 1)) return true;
    }
    for (int i = 0; i < e->nargs; i++) if (plain_aggregate(e->args[i], depth + 1)) return true;
    for (int i = 0; i < e->nwhen; i++)
        if (plain_aggregate(e->when[i], depth + 1) || plain_aggregate(e->then[i], depth + 1)) return true;
    return plain_aggregate(e->case_operand, depth + 1) || plain_aggregate(e->else_expr, depth + 1);
}

bool bover_in_aggregate(const AstQuery *aq)
{
    if (aq->kind != AQ_SELECT) return false;
    bool over = false, agg = aq->ngroup > 0 || aq->having;
    for (int i = 0; i < aq->nitems; i++) {
        over = over || has_over(aq->items[i].expr, 0);
        agg = agg || plain_aggregate(aq->items[i].expr, 0);
    }
    for (int i = 0; i < aq->nwindows && !agg; i++) {
        const AstOver *w = aq->windows[i].spec;
        for (int k = 0; k < w->npartition; k++) agg = agg || plain_aggregate(w->partition[k], 0);
        for (int k = 0; k < w->norder; k++) agg = agg || plain_aggregate(w->order[k].expr, 0);
    }
    return over && agg;
}

static AstExpr *column_ref(WArena *a, const char *name, AstPos pos)
{
    AstExpr *c = WA_NEW(a, AstExpr);
    memset(c, 0, sizeof *c);
    c->kind = AE_COLUMN;
    c->pos = pos;
    c->name.n = 1;
    c->name.parts = WA_ARRAY(a, char *, 1);
    c->name.parts[0] = wa_strdup(a, name);
    c->name.pos = pos;
    return c;
}

/* The inner column computing e (added when new); alias: the name to give it (NULL: derived). */
static const char *lift_expr(Lift *L, AstExpr *e, const char *alias)
{
    const char *text = ast_expr_sql(L->a, e);
    for (int i = 0; i < L->n; i++)
        if (!strcmp(L->text[i], text)) return L->name[i];
    if (L->n >= MAX_LIFT) { L->overflow = true; return "?"; }
    const char *name = alias;
    if (!name && e->kind == AE_COLUMN) name = e->name.parts[e->name.n - 1];
    if (!name) name = wa_sprintf(L->a, "$f%d", L->n);
    for (int i = 0; i < L->n; i++)
        if (!strcmp(L->name[i], name)) { name = wa_sprintf(L->a, "$f%d", L->n); break; }
    L->items[L->n].expr = e;
    bool derived = e->kind == AE_COLUMN && !strcmp(name, e->name.parts[e->name.n - 1]);
    L->items[L->n].alias = derived ? NULL : (char *)name;
    L->text[L->n] = text;
    L->name[L->n] = name;
    L->n++;
    return name;
}

static AstExpr *lift(Lift *L, AstExpr *e, int depth);

static AstOver *lift_over(Lift *L, const AstOver *ov, int depth)
{
    AstOver *o = wa_memdup(L->a, ov, sizeof *ov);
    o->partition = WA_ARRAY(L->a, AstExpr *, ov->npartition ? ov->npartition : 1);
    for (int i = 0; i < ov->npartition; i++) o->partition[i] = lift(L, ov->partition[i], depth + 1);
    o->order = WA_ARRAY(L->a, AstOrderItem, ov->norder ? ov->norder : 1);
    for (int i = 0; i < ov->norder; i++) {
        o->order[i] = ov->order[i];
        o->order[i].expr = lift(L, ov->order[i].expr, depth + 1);
    }
    return o;
}

/* e over the inner query's columns: subtrees without window calls that read the input become
   column references; window calls keep their function, their operands lifted. */
static AstExpr *lift(Lift *L, AstExpr *e, int depth)
{
    if (!e || depth > 200) return e;
    if (!has_over(e, 0)) {
        if (!reads_input(e, 0)) return e;
        return column_ref(L->a, lift_expr(L, e, NULL), e->pos);
    }
    AstExpr *c = wa_memdup(L->a, e, sizeof *e);
    if (e->nargs) {
        c->args = WA_ARRAY(L->a, AstExpr *, e->nargs);
        for (int i = 0; i < e->nargs; i++) c->args[i] = lift(L, e->args[i], depth + 1);
    }
    if (e->nwhen) {
        c->when = WA_ARRAY(L->a, AstExpr *, e->nwhen);
        c->then = WA_ARRAY(L->a, AstExpr *, e->nwhen);
        for (int i = 0; i < e->nwhen; i++) {
            c->when[i] = lift(L, e->when[i], depth + 1);
            c->then[i] = lift(L, e->then[i], depth + 1);
        }
    }
    c->case_operand = lift(L, e->case_operand, depth + 1);
    c->else_expr = lift(L, e->else_expr, depth + 1);
    if (e->kind == AE_FUNC && e->over) {
        c->filter = e->filter ? lift(L, e->filter, depth + 1) : NULL;
        c->over = lift_over(L, e->over, depth);
    }
    return c;
}

AstQuery *bover_split_aggregate(BindCtx *b, AstQuery *aq)
{
    WArena *a = b->p->arena;
    Lift *L = WA_NEW(a, Lift);
    memset(L, 0, sizeof *L);
    L->a = a;
    for (int i = 0; i < aq->nitems; i++) {
        if (aq->items[i].expr->kind == AE_STAR) {
            werr_set_at(b->p->err, aq->items[i].expr->pos.line, aq->items[i].expr->pos.col, WEXC_TABLE,
                        "* together with GROUP BY and OVER windows in one SELECT is not supported yet "
                        "(aggregate in a subquery)");
            return NULL;
        }
    }
    /* whole select items without window calls first: they keep their names */
    const char **item_col = WA_ARRAY(a, const char *, aq->nitems ? aq->nitems : 1);
    for (int i = 0; i < aq->nitems; i++) {
        AstExpr *e = aq->items[i].expr;
        item_col[i] = NULL;
        if (has_over(e, 0) || !reads_input(e, 0)) continue;
        const char *alias = aq->items[i].alias;
        if (!alias && e->kind != AE_COLUMN) alias = wa_sprintf(a, "EXPR$%d", i);
        item_col[i] = lift_expr(L, e, alias);
    }
    AstQuery *outer = wa_memdup(a, aq, sizeof *aq);
    outer->items = WA_ARRAY(a, AstSelectItem, aq->nitems ? aq->nitems : 1);
    for (int i = 0; i < aq->nitems; i++) {
        AstExpr *e = aq->items[i].expr;
        outer->items[i].alias = aq->items[i].alias;
        if (item_col[i]) {
            outer->items[i].expr = column_ref(a, item_col[i], e->pos);
            if (!outer->items[i].alias && e->kind != AE_COLUMN) outer->items[i].alias = (char *)item_col[i];
            continue;
        }
        outer->items[i].expr = lift(L, e, 0);
    }
    outer->windows = WA_ARRAY(a, AstNamedWindow, aq->nwindows ? aq->nwindows : 1);
    for (int i = 0; i < aq->nwindows; i++) {
        outer->windows[i].name = aq->windows[i].name;
        outer->windows[i].spec = lift_over(L, aq->windows[i].spec, 0);
    }
    if (L->overflow) {
        werr_set(b->p->err, WEXC_TABLE, "Too many expressions in one SELECT with GROUP BY and OVER windows");
        return NULL;
    }
    AstQuery *inner = wa_memdup(a, aq, sizeof *aq);
    inner->nctes = 0;
    inner->ctes = NULL;
    inner->distinct = false;
    inner->nitems = L->n;
    inner->items = wa_memdup(a, L->items, sizeof(AstSelectItem) * (size_t)(L->n ? L->n : 1));
    inner->nwindows = 0;
    inner->windows = NULL;
    inner->qualify = NULL;
    inner->norder = 0;
    inner->order = NULL;
    inner->limit = inner->offset = NULL;
    AstFrom *f = WA_NEW(a, AstFrom);
    memset(f, 0, sizeof *f);
    f->kind = AFR_SUBQUERY;
    f->pos = aq->pos;
    f->subquery = inner;
    outer->from = f;
    outer->where = NULL;
    outer->ngroup = 0;
    outer->group = NULL;
    outer->having = NULL;
    outer->hints.n = 0;
    outer->hints.items = NULL;
    outer->nctes = 0;
    outer->ctes = NULL;
    return outer;
}
