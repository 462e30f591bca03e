/*
 * reduce.c — constant-expression reduction as Flink's planner applies Calcite's
 * ReduceExpressionsRule (FILTER / PROJECT / CALC / JOIN reductions): every deterministic
 * subexpression without column references is evaluated once at planning time by weir's own
 * evaluator (so the literal is the exact runtime value) and replaced by a literal of the
 * expression's type. Runs before the physical rules (so prune_empty.c sees reduced conditions) and
 * again on the final plan (Calcs merged since). The rules, measured on Flink 2.3, are in
 * docs/flink-conformance.md ("Constant reduction"):
 *   - the literal keeps the reduced expression's type; a nullable type with a non-NULL value is
 *     printed as CAST(<literal> AS <type>) (wplan_reduced), a NULL as null:<type>;
 *   - non-deterministic calls (RAND, UUID, CURRENT_TIMESTAMP, PROCTIME, ...) are not reduced, nor
 *     JSON_VALUE / JSON_OBJECT / JSON_ARRAY / JSON / UNIX_TIMESTAMP (Flink keeps them), nor expressions
 *     whose evaluation fails (1 / 0, CAST('abc' AS INT): the error stays a runtime one), nor
 *     values of composite types (ARRAY, MAP, ROW; but CAST(NULL AS <composite>) is its typed
 *     NULL), nor FLOAT (not measured);
 *   - a literal coerced by weir's binder (a numeric literal widened, a string literal cast to a
 *     string type that holds it) is left as it is: explain/rex.c prints those as Calcite's literals;
 *   - TRUE / FALSE operands of AND / OR are simplified away, a + 0 and a * 1 become a, and in a
 *     condition x = x becomes IS NOT NULL(x) (TRUE for a NOT NULL x);
 *   - a condition reduced to TRUE disappears (the Calc / join keeps no condition); one reduced to
 *     FALSE or NULL is left for prune_empty.c, which replaces the input by empty Values.
 * Results do not change: the literal is the value the expression had at every row.
 * See reduce.h.
 */
#include "reduce.h"
#include "bind_internal.h"
#include "../expr/functions.h"

#include <math.h>
#include <string.h>
#include <strings.h>

/* calls Flink's reducer leaves in the plan although their arguments are literals (measured) */
static const char *const KEEP_CALLS[] = {
    "JSON_VALUE", "JSON_OBJECT", "JSON_ARRAY", "JSON_STRING", "JSON", "UNIX_TIMESTAMP", NULL,
};

/* the mark of a node made here (WExpr.aux, unused by literals and casts) */
static const char REDUCED_MARK[] = "reduced";

bool wplan_reduced(const WExpr *e)
{
    return (e->kind == WX_LITERAL || e->kind == WX_CAST) && e->aux == REDUCED_MARK;
}

static WExpr *mark(WExpr *e)
{
    e->aux = (void *)REDUCED_MARK;
    return e;
}

static bool kept_call(const WExpr *e)
{
    if (e->kind != WX_CALL || !e->func) return false;
    for (int i = 0; KEEP_CALLS[i]; i++)
        if (!strcasecmp(e->func->name, KEEP_CALLS[i])) return true;
    return false;
}

/* A subtree that may be evaluated at planning time: no column, deterministic, no kept call. */
static bool reducible_tree(const WExpr *e)
{
    if (e->kind == WX_COLUMN || e->kind == WX_PROCTIME) return false;
    if (e->kind == WX_CALL && (!e->func || !e->func->deterministic || !e->func->eval)) return false;
    if (kept_call(e)) return false;
    for (int i = 0; i < e->nargs; i++)
        if (!reducible_tree(e->args[i])) return false;
    return true;
}

static bool literal_type(const WType *t)
{
    switch (t->id) {
    case WT_BOOLEAN: case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
    case WT_DOUBLE: case WT_DECIMAL: case WT_CHAR: case WT_VARCHAR:
    case WT_DATE: case WT_TIME: case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
    case WT_INTERVAL_DT: case WT_INTERVAL_YM: case WT_BINARY: case WT_VARBINARY:
        return t->time_attr == WTA_NONE;
    default:
        return false;       /* FLOAT (not measured), composites */
    }
}

/* A numeric cast weir's binder adds to widen an integer operand (Calcite has none: 1 stays 1). */
static bool widening(const WType *from, const WType *to)
{
    return wtype_is_integer(from) && wtype_is_numeric(to) && !(wtype_is_integer(to) && to->id < from->id);
}

/* A non-NULL literal as weir's binder coerces it, which explain/rex.c prints as the literal
   Calcite keeps (an integer widened for an operator, a string literal cast to a string type that
   holds it, NOT NULL): left alone. An integer narrowed (CAST(3 AS TINYINT)) is reduced: 3:TINYINT. */
static bool coerced_literal(const WExpr *e)
{
    if (e->kind != WX_CAST || e->try_cast || wplan_reduced(e)) return false;
    const WExpr *a = e->args[0];
    if (a->kind == WX_CAST) return coerced_literal(a);
    if (a->kind != WX_LITERAL || a->is_null) return false;
    const WType *from = a->type, *to = e->type;
    if (wtype_is_numeric(from) && wtype_is_numeric(to)) {
        if (wtype_is_integer(from)) return widening(from, to);
        /* CAST(0.1 AS DOUBLE): Calcite keeps the literal's digits (0.1:DOUBLE); not reproduced */
        return from->id == to->id || wtype_is_approx(to);
    }
    /* a string literal cast to a nullable string type (a UNION's column) is reduced as any
       constant of a nullable type: CAST('bb':VARCHAR(n) AS VARCHAR(n)) (measured) */
    return wtype_is_string(from) && wtype_is_string(to) && !to->nullable;
}

/* A literal of e's type holding v: CAST(<NOT NULL literal> AS <type>) when the type is nullable. */
static WExpr *typed_literal(WPlanCtx *p, const WType *t, WDatum v, bool isnull)
{
    if (isnull) {
        return mark(wexpr_literal(p->arena, t, v, true));
    }
    WExpr *lit = mark(wexpr_literal(p->arena, wtype_with_nullable(p->arena, t, false), v, false));
    if (!t->nullable) return lit;
    WExpr *c = wexpr_new(p->arena, WX_CAST, t, 1);
    c->args[0] = lit;
    return mark(c);
}

/* The reduced form of constant e, or NULL when it stays (evaluation fails, no literal form). */
static WExpr *evaluate(WPlanCtx *p, const WExpr *e)
{
    if (!literal_type(e->type)) return NULL;
    WError err;
    werr_clear(&err);
    WEvalCtx ec = {.arena = p->arena, .err = &err};
    if (p->cast) ec.cast = *p->cast;
    WDatum v;
    bool isnull = false;
    if (!wexpr_eval_const(&ec, e, &v, &isnull) || err.set) return NULL;
    if (e->type->id == WT_DOUBLE && !isnull && !isfinite(v.d)) return NULL;     /* Flink fails */
    /* Calcite's literal holds a BigDecimal, which has no negative zero: a DOUBLE that folds to
       -0.0 (CAST('-0.0' AS DOUBLE), -0.0E0, 0.0E0 * -1) is 0.0 (measured on Flink 2.3) */
    if (e->type->id == WT_DOUBLE && !isnull && v.d == 0) v.d = 0.0;
    if (!isnull && (e->type->id == WT_CHAR || e->type->id == WT_VARCHAR) && e->type->precision > 0) {
        /* the reduced value becomes a literal of the expression's type, cut to its length (measured
           on Flink 2.3: UPPER('ß') of a CHAR(1) literal folds to 'SS', then 'S') */
        int32_t len = v.s.len, chars = 0, k = 0;
        for (; k < len; k++)
            if (((unsigned char)v.s.p[k] & 0xC0) != 0x80 && ++chars > e->type->precision) break;
        if (k < len) v.s.len = k;
    }
    return typed_literal(p, e->type, v, isnull);
}

/* e with f applied to each argument: e itself when no argument changed, else a copy. */
static WExpr *map_args(WPlanCtx *p, WExpr *e, WExpr *(*f)(WPlanCtx *, WExpr *))
{
    WExpr *c = NULL;
    for (int i = 0; i < e->nargs; i++) {
        WExpr *a = f(p, e->args[i]);
        if (a == e->args[i]) continue;
        if (!c) {
            c = wa_memdup(p->arena, e, sizeof *e);
            c->args = wa_memdup(p->arena, e->args, sizeof(WExpr *) * (size_t)e->nargs);
        }
        c->args[i] = a;
    }
    return c ? c : e;
}

WExpr *wplan_fold_literal_casts(WPlanCtx *p, WExpr *e)
{
    if (!e || e->kind == WX_LITERAL || e->kind == WX_COLUMN) return e;
    e = map_args(p, e, wplan_fold_literal_casts);
    if (e->kind != WX_CAST || !e->explicit_cast || e->try_cast || e->type->nullable) return e;
    const WExpr *a = e->args[0];
    if (a->kind != WX_LITERAL || a->is_null || a->type->id == WT_NULL || coerced_literal(e)) return e;
    WExpr *r = evaluate(p, e);
    return r ? r : e;
}

static int bool_const(const WExpr *e)       /* 1 TRUE, 0 FALSE, -1 anything else */
{
    if (e->kind == WX_CAST && wplan_reduced(e)) e = e->args[0];
    if (e->kind != WX_LITERAL || e->is_null || e->type->id != WT_BOOLEAN) return -1;
    return e->lit.i != 0;
}

/* RexSimplify on AND / OR with TRUE / FALSE operands (measured: TRUE AND x is x, x OR TRUE is
   TRUE): the operands that do not decide are dropped. NULL when nothing changes. */
static WExpr *simplify_logic(WPlanCtx *p, WExpr *e)
{
    if (e->kind != WX_AND && e->kind != WX_OR) return NULL;
    bool is_and = e->kind == WX_AND;
    int keep = 0;
    for (int i = 0; i < e->nargs; i++) {
        int c = bool_const(e->args[i]);
        if (c == (is_and ? 0 : 1)) {                /* FALSE in an AND, TRUE in an OR */
            WDatum d = {.i = !is_and};
            return typed_literal(p, e->type, d, false);
        }
        if (c < 0) keep++;
    }
    if (keep == e->nargs) return NULL;
    if (keep == 0) return typed_literal(p, e->type, (WDatum){.i = is_and}, false);
    WExpr *r = NULL;
    if (keep == 1) {
        for (int i = 0; i < e->nargs; i++) if (bool_const(e->args[i]) < 0) r = e->args[i];
    } else {
        r = wexpr_new(p->arena, e->kind, e->type, keep);
        for (int i = 0, k = 0; i < e->nargs; i++) if (bool_const(e->args[i]) < 0) r->args[k++] = e->args[i];
    }
    /* the operand left may be NOT NULL where the AND / OR was nullable: keep the type */
    if (!wtype_equals(r->type, e->type, false) && !(r->type->nullable == false && e->type->nullable)) return NULL;
    return r;
}

/* An integer literal with value v (also as weir's binder widens it). */
static bool int_literal(const WExpr *e, int64_t v)
{
    while (e->kind == WX_CAST && !e->try_cast && wtype_is_integer(e->type)) e = e->args[0];
    return e->kind == WX_LITERAL && !e->is_null && wtype_is_integer(e->type) && e->lit.i == v;
}

/* RexSimplify's arithmetic identities (measured: a + 0 and a * 1 become a) when the operand left
   has the call's type. NULL when nothing changes. */
static WExpr *simplify_arith(WExpr *e)
{
    if (e->kind != WX_CALL || !e->func || e->nargs != 2 || !wtype_is_integer(e->type)) return NULL;
    int64_t unit;
    if (!strcmp(e->func->name, "+")) unit = 0;
    else if (!strcmp(e->func->name, "*")) unit = 1;
    else return NULL;
    for (int i = 0; i < 2; i++) {
        WExpr *x = e->args[1 - i];
        if (int_literal(e->args[i], unit) && wtype_equals(x->type, e->type, false)) return x;
    }
    return NULL;
}

WExpr *wplan_reduce_expr(WPlanCtx *p, WExpr *e)
{
    if (!e || e->kind == WX_LITERAL || e->kind == WX_COLUMN || wplan_reduced(e)) return e;
    /* the widening cast stays over the reduced operand: order_id > 2 + 3 is >(order_id, 5) */
    if (e->kind == WX_CAST && !e->try_cast && !literal_type(e->type) && e->args[0]->kind == WX_LITERAL &&
        (e->args[0]->is_null || e->args[0]->type->id == WT_NULL) && e->type->time_attr == WTA_NONE)
        /* CAST(NULL AS <ARRAY / MAP / ROW>) is the typed NULL (measured: null:INTEGER ARRAY) */
        return mark(wexpr_literal(p->arena, wtype_with_nullable(p->arena, e->type, true), (WDatum){0}, true));
    bool widened = e->kind == WX_CAST && !e->try_cast && widening(e->args[0]->type, e->type);
    if (!widened && reducible_tree(e) && !coerced_literal(e)) {
        WExpr *r = evaluate(p, e);
        if (r) return r;
    }
    WExpr *c = map_args(p, e, wplan_reduce_expr);
    WExpr *s = simplify_logic(p, c);
    if (!s) s = simplify_arith(c);
    return s ? s : c;
}

static bool literal_true(const WExpr *e)
{
    return e && bool_const(e) == 1;
}

/* In a condition (where NULL is FALSE) x = x of a column is IS NOT NULL(x), TRUE when x is NOT
   NULL (measured); conjuncts of an AND likewise. In a projection Calcite makes it
   OR(null:BOOLEAN, IS NOT NULL(x)), which weir does not reproduce. */
static WExpr *reduce_condition(WPlanCtx *p, WExpr *cond)
{
    if (!cond) return NULL;
    if (cond->kind == WX_AND) {
        WExpr *c = map_args(p, cond, reduce_condition);
        if (c == cond) return cond;
        WExpr *s = simplify_logic(p, c);
        return s ? s : c;
    }
    if (cond->kind == WX_CALL && cond->func && !strcmp(cond->func->name, "=") && cond->nargs == 2 &&
        cond->args[0]->kind == WX_COLUMN && cond->args[1]->kind == WX_COLUMN &&
        cond->args[0]->col == cond->args[1]->col && !wtype_is_approx(cond->args[0]->type)) {
        /* (not for FLOAT / DOUBLE, where NaN = NaN is FALSE at run time) */
        const WExpr *x = cond->args[0];
        if (!x->type->nullable) return typed_literal(p, cond->type, (WDatum){.i = 1}, false);
        WExpr *nn = wexpr_new(p->arena, WX_IS_NULL, &WTYPE_BOOLEAN_NN, 1);
        nn->negated = true;
        nn->args[0] = cond->args[0];
        return nn;
    }
    return cond;
}

static WRel *reduce(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) r->inputs[i] = reduce(p, r->inputs[i]);
    if (r->kind == WR_CALC) {
        WRelCalc *rc = wrel_calc_mut(r);
        for (int i = 0; i < rc->nexprs; i++) {
            WExpr *x = wplan_reduce_expr(p, rc->exprs[i]);
            if (x != rc->exprs[i] && !x->name) x->name = rc->exprs[i]->name;
            rc->exprs[i] = x;
        }
        rc->cond = reduce_condition(p, wplan_reduce_expr(p, rc->cond));
        if (literal_true(rc->cond)) rc->cond = NULL;
        return wplan_simplify_calc(p, r);
    }
    if (r->kind == WR_JOIN && wrel_join(r)->cond) {
        wrel_join_mut(r)->cond = wplan_reduce_expr(p, wrel_join(r)->cond);
        if (literal_true(wrel_join(r)->cond)) wrel_join_mut(r)->cond = NULL;
    }
    return r;
}

WRel *wplan_reduce(WPlanCtx *p, WRel *root)
{
    return reduce(p, root);
}
