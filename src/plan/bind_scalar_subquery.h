/* bind_scalar_subquery.h — private: scalar subqueries joined to a SELECT's FROM (bind_scalar_subquery.c). */
#ifndef WEIR_PLAN_BIND_SCALAR_SUBQUERY_H
#define WEIR_PLAN_BIND_SCALAR_SUBQUERY_H

#include "bind_internal.h"
#include "bind_join.h"

/* Whether aq's WHERE or select items hold a scalar subquery (outside IN / EXISTS subqueries). */
bool bsubq_has_scalar(AstQuery *aq);
/* Each scalar subquery of aq's WHERE and select items LEFT JOINed to `in` on TRUE; its column
   joins `scope` (hidden) and b's subquery map. NULL with the error set. */
WRel *bsubq_bind(BindCtx *b, AstQuery *aq, WRel *in, BScope *scope, BindFromFn bind_from_fn, void *q);

#endif
