/*
 * over_rules.h — physical planning of the batch OverAggregate (WR_OVER_AGG with `over` set, from
 * bind_over.c), as Flink's BatchPhysicalOverAggregateRule requires its input: hash-distributed by
 * the partition keys (single without) and sorted by the partition keys ASC then the order keys.
 * Private to plan/.
 */
#ifndef WEIR_PLAN_OVER_RULES_H
#define WEIR_PLAN_OVER_RULES_H

#include "plan.h"

/* Called by physical.c's changelog derivation for a batch OverAggregate whose input is derived:
   puts the Sort (when there are keys to sort by) and the Exchange below it and sets its
   changelog (insert-only). */
void wover_batch_physical(WPlanCtx *p, WRel *r);
/* A ROW_NUMBER / RANK / DENSE_RANK node (WR_OVER_RANK) that no Top-N filter consumed: in batch
   mode r becomes an OverAggregate (returned); in streaming NULL with Flink's error. */
WRel *wover_rank_without_filter(WPlanCtx *p, WRel *r);

#endif
