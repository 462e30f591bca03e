/*
 * sort.h — the sort operators: batch Sort / SortLimit / Limit (sort.c) and the streaming
 * TemporalSort (temporal_sort.c). (The streaming SortLimit / Limit are ranks: stateful.h.)
 * Depends on exec/operator.h and exec/sort_buffer.h.
 */
#ifndef WEIR_EXEC_SORT_H
#define WEIR_EXEC_SORT_H

#include "operator.h"
#include "sort_buffer.h"

/* Batch Sort / SortLimit / Limit (Flink's BatchExecSort / SortLimit / Limit): keeps the input's
   final rows (-U/-D remove an equal earlier row, as a bounded input's result is final), and when
   the input ends emits them as +I sorted by the keys (stable; none for Limit), rows
   [offset, offset + fetch) of that order (fetch < 0: all). Memory, not keyed state: BATCH jobs
   do not checkpoint (runtime/job.c). */
typedef struct WSortOpSpec {
    int ncols;
    const WType **types;
    const char **names;
    int nkeys;
    const WSortKeySpec *keys;
    int64_t offset, fetch;
} WSortOpSpec;
WOperator *wop_sort_new(WExecCtx *ctx, const WSortOpSpec *spec);

/* TemporalSort (Flink's RowTimeSortOperator / ProcTimeSortOperator): keys[0] is the time
   attribute. Event time: rows wait until the watermark reaches their time, then leave ordered by
   time and the other keys (ties in arrival order); a row whose time is not after the last emitted
   time is late and dropped. Processing time: with only the time key rows pass through; otherwise
   the rows arriving together (one input chunk) leave ordered by the other keys. Event time keeps
   the waiting rows in keyed state as Flink's RowTimeSortOperator does (dataState: time -> rows,
   lastTriggeringTsState, one event-time timer per time), so checkpoints and savepoints hold them;
   Flink's COMPILE PLAN declares no state for the node (no TTL to set). */
typedef struct WTemporalSortSpec {
    int ncols;
    const WType **types;
    const char **names;
    int nkeys;
    const WSortKeySpec *keys;
    bool rowtime;
} WTemporalSortSpec;
WOperator *wop_temporal_sort_new(WExecCtx *ctx, const WTemporalSortSpec *spec);

#endif
