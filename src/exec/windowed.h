/*
 * windowed.h — constructors and specifications of the time-based operators: window table
 * functions, window aggregation (TVF and legacy group windows), window Top-N / deduplication,
 * window join, interval join, event-time temporal join and OVER aggregation. These keep state
 * only until time passes (watermarks for event time, the job clock for processing time) and
 * then clean it, so their exec nodes list no TTL state in COMPILE PLAN. Rows that arrive behind
 * the watermark for a window already fired are dropped and counted (numLateRecordsDropped, in
 * WOperator.late_dropped). Same conventions as stateful.h. Depends on stateful.h.
 */
#ifndef WEIR_EXEC_WINDOWED_H
#define WEIR_EXEC_WINDOWED_H

#include "stateful.h"
#include "../common/window_kind.h"

/* A window definition as the TVF / group window declares it. Sizes in ms. */
typedef struct WWindowDef {
    WWindowKind kind;
    int64_t size_ms;        /* TUMBLE/HOP size, CUMULATE max size */
    int64_t slide_ms;       /* HOP slide, CUMULATE step */
    int64_t offset_ms;      /* window offset (TVF OFFSET argument), 0 default */
    int64_t gap_ms;         /* SESSION gap */
    int time_col;           /* input column with the time attribute */
    bool proctime;          /* windows on processing time (time_col is a PROCTIME column) */
    bool time_is_ltz;       /* time column is TIMESTAMP_LTZ: window bounds shift by the time zone */
    const WTimeZone *tz;    /* session zone for LTZ windows */
    int npartition;         /* SESSION ... PARTITION BY keys (TVF session), else 0 */
    const int *partition;
    bool attached;          /* window aggregate: each row already carries its window in
                               start_col / end_col (the output of an earlier window) */
    int start_col, end_col;
} WWindowDef;

/* Window boundaries are TIMESTAMP(3) values (epoch ms of the wall-clock time); window_time is
   window_end - 1 ms and is a rowtime attribute (or PROCTIME for processing-time windows). */

/* ---------------- WindowTableFunction: TABLE(TUMBLE/HOP/CUMULATE(...)) without aggregation ----
   Output: input columns + window_start, window_end, window_time; one output row per window the
   row belongs to (HOP/CUMULATE: several). Rows behind the watermark are dropped (late). SESSION
   as a plain TVF needs state (merging) and is unsupported here. */
typedef struct WWindowTvfSpec {
    int in_ncols;
    const WType **in_types;
    WWindowDef win;
    WOpSchema out;
} WWindowTvfSpec;
WOperator *wop_window_tvf_new(WExecCtx *ctx, const WWindowTvfSpec *spec);

/* ---------------- WindowAggregate (Flink SlicingWindowOperator / group windows) ----------------
   Groups rows by keys and window; accumulates (same aggregate semantics as GroupAggregate, incl.
   DISTINCT and FILTER) and emits +I once per (key, window) when the watermark (or processing time)
   passes the window end, then clears it. Output layout: keys, aggregates, window_start,
   window_end, window_time. */
typedef struct WWindowAggSpec {
    int in_ncols;
    const WType **in_types;
    int nkeys;
    const int *keys;
    int naggs;
    const WAggCall *aggs;
    WWindowDef win;
    bool input_retracts;
    WOpSchema out;
    /* Additive: legacy GROUP BY TUMBLE/HOP/SESSION (Flink WindowOperator) rather than a window
       TVF aggregation (slice assigners): HOP needs no size-multiple-of-slide, TUMBLE no
       |offset| < size. false = window TVF. */
    bool group_window;
    /* Additive: with group_window, the columns after the aggregates are Flink's
       GroupWindowAggregate named window properties instead of window_start / window_end /
       window_time: none (out has nkeys + naggs columns), w$start, w$end, w$proctime (3, proc-time
       windows) or w$start, w$end, w$rowtime, w$proctime (4, row-time windows); w$proctime is
       NULL (Flink materializes processing time downstream). */
    bool group_props;
    /* Additive: GlobalWindowAggregate. The input rows are a LocalWindowAggregate's: keys
       [0, nkeys) (keys must be 0..nkeys-1), the partial accumulators (plan/agg_rules.h), then the
       slice end as BIGINT (a window end when slice_is_window: the local read attached windows).
       Each row is merged into the windows of its slice; agg_ncols / agg_types is the local
       aggregate's input row, which the calls refer to. win.time_col / win.attached are unused;
       win.time_is_ltz is that of the local's time attribute. */
    bool merge;
    bool slice_is_window;
    int agg_ncols;
    const WType **agg_types;
} WWindowAggSpec;
WOperator *wop_window_agg_new(WExecCtx *ctx, const WWindowAggSpec *spec);

/* ---------------- LocalWindowAggregate (Flink LocalSlicingWindowAggOperator) ----------------
   Pre-aggregates each chunk per (keys, slice) and emits +I[keys, partial accumulators, slice
   end] before returning; keeps no state and drops no row (the global aggregate decides what is
   late). Row-time TUMBLE / HOP / CUMULATE windows (win.time_col), or attached windows
   (win.attached: the slice end is the row's window_end). */
typedef struct WLocalWindowAggSpec {
    int in_ncols;
    const WType **in_types;
    int nkeys;
    const int *keys;
    int naggs;
    const WAggCall *aggs;
    WWindowDef win;
    WOpSchema out;                  /* keys, partial accumulator columns, slice end (BIGINT) */
} WLocalWindowAggSpec;
WOperator *wop_local_window_agg_new(WExecCtx *ctx, const WLocalWindowAggSpec *spec);

/* ---------------- WindowRank / WindowDeduplicate ----------------
   Input already carries window_start / window_end columns (start_col, end_col) from a window TVF.
   Per (keys, window): keep the top N by sort (or the first/last row by time for dedup) and emit
   them (+I, with the rank number if requested) when the watermark passes the window end. */
typedef struct WWindowRankSpec {
    int in_ncols;
    const WType **in_types;
    int nkeys;                      /* partition keys other than the window columns */
    const int *keys;
    int start_col, end_col;
    int nsort;
    const WSortKey *sort;
    WRankFunc func;
    int64_t rank_start, rank_end;
    bool output_rank_number;
    bool dedup;                     /* window deduplicate: keep_last decides first/last */
    bool keep_last;
    bool proctime;
    WOpSchema out;
} WWindowRankSpec;
WOperator *wop_window_rank_new(WExecCtx *ctx, const WWindowRankSpec *spec);

/* ---------------- WindowJoin ----------------
   Join of two windowed inputs on the same window (left/right start/end columns) plus equi-keys
   and a residual; INNER/LEFT/RIGHT/FULL/SEMI/ANTI. Rows are buffered per window and joined when
   the watermark passes the window end; emits +I rows (outer: padded). */
typedef struct WWindowJoinSpec {
    WJoinKind kind;
    int left_ncols, right_ncols;
    const WType **left_types, **right_types;
    int nkeys;
    const int *left_keys, *right_keys;
    int left_start_col, left_end_col, right_start_col, right_end_col;
    WExpr *residual;                /* over left ++ right */
    bool proctime;
    WOpSchema out;
} WWindowJoinSpec;
WOperator *wop_window_join_new(WExecCtx *ctx, const WWindowJoinSpec *spec);

/* ---------------- IntervalJoin ----------------
   left.time BETWEEN right.time + lower AND right.time + upper (bounds in ms, inclusive as
   declared: lower_strict / upper_strict for < instead of <=), on equi-keys, INNER/LEFT/RIGHT/FULL.
   Rows are kept until the watermark (or processing time) makes them unjoinable; outer joins emit
   the padded row then. */
typedef struct WIntervalJoinSpec {
    WJoinKind kind;
    int left_ncols, right_ncols;
    const WType **left_types, **right_types;
    int nkeys;
    const int *left_keys, *right_keys;
    int left_time_col, right_time_col;
    int64_t lower_ms, upper_ms;     /* left.time - right.time in [lower, upper] */
    bool lower_strict, upper_strict;
    bool proctime;
    WExpr *residual;                /* remaining condition over left ++ right, NULL = none */
    WOpSchema out;
} WIntervalJoinSpec;
WOperator *wop_interval_join_new(WExecCtx *ctx, const WIntervalJoinSpec *spec);

/* ---------------- TemporalJoin (event time) ----------------
   Left (probe, insert-only) rows join the version of the right (versioned table: changelog keyed
   by its primary key, with a rowtime) valid at the left row's time; emitted when the watermark
   passes the left row's time. INNER or LEFT. */
typedef struct WTemporalJoinSpec {
    bool left_outer;
    int left_ncols, right_ncols;
    const WType **left_types, **right_types;
    int nkeys;
    const int *left_keys, *right_keys;
    int left_time_col, right_time_col;
    WExpr *residual;
    WOpSchema out;
} WTemporalJoinSpec;
WOperator *wop_temporal_join_new(WExecCtx *ctx, const WTemporalJoinSpec *spec);

/* ---------------- OverAggregate ----------------
   Aggregates OVER (PARTITION BY keys ORDER BY time ROWS|RANGE BETWEEN n PRECEDING AND CURRENT
   ROW, or UNBOUNDED PRECEDING). Event time: rows are buffered until the watermark passes their
   time, then processed in time order (late rows dropped). Output: input columns + one column per
   aggregate. */
typedef struct WOverAggSpec {
    int in_ncols;
    const WType **in_types;
    int nkeys;
    const int *keys;
    int time_col;
    bool proctime;
    bool rows_frame;                /* ROWS (count) vs RANGE (time) */
    bool unbounded;                 /* UNBOUNDED PRECEDING */
    int64_t preceding;              /* rows count or ms */
    int naggs;
    const WAggCall *aggs;
    int ncalls;                     /* 0: the output calls are the aggregates; else every call in
                                       output order (plan/over_window.h: aggregates in `aggs` order,
                                       LAG, ROW_NUMBER, RANK, DENSE_RANK; unbounded frames only
                                       for the non-aggregates) */
    const struct WOverCall *calls;
    WOpSchema out;
} WOverAggSpec;
WOperator *wop_over_agg_new(WExecCtx *ctx, const WOverAggSpec *spec);

#endif
