/*
 * bind_match.h — private to the binder: MATCH_RECOGNIZE in FROM (bind_match.c).
 *
 * Contract: an AFR_MATCH item over its bound input becomes a WR_MATCH node (plan.h) whose
 * output is the partition columns then the measures (ONE ROW PER MATCH), with its spec in
 * match_spec.h. Flink's planner and translation errors for the clause are raised here.
 */
#ifndef WEIR_PLAN_BIND_MATCH_H
#define WEIR_PLAN_BIND_MATCH_H

#include "bind_internal.h"

/* `in` / `in_scope`: the bound input; `out` receives the scope of the result (qualified by the
   item's alias). NULL with the error set. */
WRel *bind_match_rel(BindCtx *b, WRel *in, BScope *in_scope, AstFrom *f, BScope *out);

#endif
