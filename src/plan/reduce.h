/*
 * reduce.h — constant-expression reduction (reduce.c): Calcite's ReduceExpressionsRule as Flink's
 * planner applies it. Constant subexpressions of Calc projections and conditions and of join
 * conditions become literals of their type, evaluated by weir's own evaluator; a condition reduced
 * to TRUE is dropped. The literals it makes are marked (wplan_reduced) for explain/rex.c, which
 * prints them as Calcite prints reduced constants. Depends on plan.h.
 */
#ifndef WEIR_PLAN_REDUCE_H
#define WEIR_PLAN_REDUCE_H

#include "plan.h"

/* e itself when nothing reduces, else a new tree (e is not modified). */
WExpr *wplan_reduce_expr(WPlanCtx *p, WExpr *e);
/* e with every explicit CAST of a non-NULL literal that can be done at planning time replaced by
   the literal of its type, as Calcite's RexSimplify does to a projection when Flink converts SQL to
   its logical plan (measured on Flink 2.3's ASTs: CAST('2024-02-29' AS DATE) in a SELECT list is
   2024-02-29, CAST(2.5 AS INT) is 2; CAST('abc' AS INT), CAST('300' AS TINYINT) and TRY_CAST stay;
   a WHERE condition keeps its casts: Calcite makes the filter without simplifying it). */
WExpr *wplan_fold_literal_casts(WPlanCtx *p, WExpr *e);
/* Every Calc and join condition of the plan (shared subtrees once per visit; idempotent). */
WRel *wplan_reduce(WPlanCtx *p, WRel *root);
/* Whether e was made by the reduction: a literal holding an evaluated value (a DOUBLE then holds
   the double's exact value), or the CAST of a non-NULL value to its nullable type over its NOT NULL
   literal (CAST(true AS BOOLEAN)). */
bool wplan_reduced(const WExpr *e);

#endif
