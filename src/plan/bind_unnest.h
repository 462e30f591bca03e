/*
 * bind_unnest.h — private to the binder and physical planning: UNNEST in FROM (bind_unnest.c).
 *
 * Contract: UNNEST(collection) [WITH ORDINALITY] [AS t(c, ...)] becomes a WR_CORRELATE over its
 * left input (or over a one-row Values when it stands alone), as Flink's LogicalUnnestRule and
 * UncollectToTableFunctionScanRule turn it into a Correlate with $UNNEST_ROWS$1. The physical
 * rule pushes WHERE conjuncts into the Correlate (function columns only) or its left input, and
 * gives the function's columns Flink's names (f0, _1, ordinality) under a renaming Calc.
 */
#ifndef WEIR_PLAN_BIND_UNNEST_H
#define WEIR_PLAN_BIND_UNNEST_H

#include "bind_internal.h"

/* `left JOIN UNNEST(...)` (jt: AJ_COMMA, AJ_CROSS, AJ_INNER, AJ_LEFT; `on` the ON condition or
   NULL) or a standalone UNNEST (left NULL, ls NULL). `out` receives the scope of the result. */
WRel *bind_unnest_rel(BindCtx *b, WRel *left, BScope *ls, AstFrom *u, AstJoinType jt, AstExpr *on,
                      AstPos pos, BScope *out);

/* Physical phase: filter push-down into / below each Correlate and Flink's column names. */
WRel *wplan_correlate_rules(WPlanCtx *p, WRel *root);

#endif
