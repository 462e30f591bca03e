/*
 * agg_rules.h — the aggregate rewrites of mini-batch (agg_rules.c) and the distinct split
 * (split_distinct.c), and the
 * partial-accumulator row that LocalGroupAggregate sends to GlobalGroupAggregate /
 * IncrementalGroupAggregate, shared by the planner (schemas), explain/ (digests) and exec/
 * (encoding). Depends on plan.h.
 */
#ifndef WEIR_PLAN_AGG_RULES_H
#define WEIR_PLAN_AGG_RULES_H

#include "plan.h"

/* SplitAggregateRule (table.optimizer.distinct-agg.split.enabled): a GroupAggregate with a
   DISTINCT call becomes Calc (MOD(HASH_CODE(x), bucket-num) AS $fN) [-> Expand -> Calc of the $g_n
   filters when several calls add bucket columns] -> PARTIAL aggregate grouped by the keys and the
   buckets -> FINAL aggregate -> renaming Calc; a WindowAggregate likewise becomes a partial
   WindowAggregate and a window-attached final one. Runs before changelog derivation (the
   exchanges come later). */
WRel *wagg_split_distinct(WPlanCtx *p, WRel *root);        /* split_distinct.c */

/* After physical planning: Flink's mini-batch option checks, TwoStageOptimizedAggregateRule
   (GroupAggregate over Exchange -> GlobalGroupAggregate <- Exchange <- LocalGroupAggregate),
   IncrementalAggregateRule, and MiniBatchIntervalInferRule's MiniBatchAssigner above every source
   (or its watermark assigner). NULL with p->err set on error. */
WRel *wagg_mini_batch(WPlanCtx *p, WRel *root);

/* After physical planning: TwoStageOptimizedWindowAggregateRule (WindowAggregate over Exchange
   -> GlobalWindowAggregate <- Exchange <- LocalWindowAggregate; conditions in agg_rules.c). */
WRel *wagg_window_two_phase(WPlanCtx *p, WRel *root);

/* Can GroupAggregate call c be merged from partial accumulators (two-phase)? `retract`: the
   input retracts (LISTAGG merges only without retractions). */
bool wagg_mergeable(const WAggCall *c, bool retract);

/* The partial-accumulator columns of `aggs` (after the grouping columns): per call the fields of
   Flink's accumulator (COUNT(*): count1; COUNT: count; SUM: sum [, count when retracting];
   $SUM0: sum; AVG: sum, count; MIN/MAX: the value, or one RAW field (VARBINARY here) holding the
   value, the map size and the value->count map when retracting; LISTAGG: accDelimiter,
   concatAcc), then `count1` (a record count,
   COUNT_RETRACT(*)) when the input retracts and no plain COUNT(*) exists, then one RAW field
   `distinct$k` per distinct argument list (its value map) unless without_distinct. Column names
   carry Flink's running suffix (count1$0, sum$1, ...). */
typedef struct WAggPartial {
    int naggs;
    int *first;                 /* first column of call i (relative to the first acc column) */
    int *nfields;               /* columns of call i */
    int count1;                 /* column of the record count, -1 none */
    bool count1_added;          /* the record count is the appended COUNT_RETRACT(*) */
    int ndistinct;
    int *distinct_col;          /* column of distinct list k, -1 when without_distinct */
    int *distinct_of;           /* distinct list of call i, -1 */
    int *distinct_args;         /* argument columns of list k: [2k], [2k+1] (-1 when one) */
    int *distinct_nargs;
    int ncols;
    const char **names;
    const WType **types;
} WAggPartial;

/* The aggregate call of a retracting GlobalGroupAggregate that counts its records (the final
   $SUM0 of a split COUNT(*)): Flink's indexOfCountStar, -1 when there is none. */
int wagg_index_of_count_star(const WRel *r);

void wagg_partial_layout(WArena *a, const WAggCall *aggs, int naggs, const WSchema *in, bool retract,
                         bool without_distinct, WAggPartial *out);

/* The partial layout of a window aggregate's calls (Flink's deriveStreamWindowAggregateInfoList):
   as wagg_partial_layout without retraction, and for a HOP window a record count `count1` when no
   call is a plain COUNT(*) (Flink's slice-shared HOP processor counts the records of a slice to
   tell an empty window; its LocalWindowAggregate sends the count, COUNT(*) AS count1$n). */
void wagg_window_partial_layout(WArena *a, const WAggCall *aggs, int naggs, const WSchema *in, WWindowKind kind,
                                WAggPartial *out);

/* Flink's accumulator name stem of call c ("count1", "count", "sum", "min", ...). */
const char *wagg_acc_stem(const WAggCall *c);

#endif
