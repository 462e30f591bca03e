/*
 * sort_rules.h — physical planning of LogicalSort (WR_SORT from bind_sort.c), as Flink's
 * StreamPhysical{SortLimit,Limit,TemporalSort,Sort}Rule and BatchPhysical{Sort,SortLimit,Limit}Rule
 * choose. Called by physical.c before changelog derivation. Private to plan/.
 */
#ifndef WEIR_PLAN_SORT_RULES_H
#define WEIR_PLAN_SORT_RULES_H

#include "plan.h"

/* Streaming: Sort with FETCH 0 -> empty Values; with a limit -> SortLimit / Limit
   (WR_SORT_LIMIT, a rank over the whole input); ORDER BY a time attribute ASC first without a
   limit -> TemporalSort; otherwise Flink's errors. Batch: WR_SORT stays (Sort, or a local and a
   global SortLimit / Limit). Returns NULL with p->err set on failure. */
WRel *wplan_sort_rules(WPlanCtx *p, WRel *root);
/* Whether the statement runs in batch mode (execution.runtime-mode = batch). */
bool wplan_is_batch(const WPlanCtx *p);

#endif
