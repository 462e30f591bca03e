/*
 * stateful.h — constructors and specifications of the stateful operators, as the runtime
 * builds them from exec-graph nodes. Each spec carries what the plan decided: input/output
 * schema, keys, the state name(s) shown in COMPILE PLAN and their TTL, and the changelog the
 * operator consumes and must produce. Operators keep every byte of state in WState (state.h),
 * encode keys as binary rows (types/row.h), count records that met expired state (the
 * TTL-accuracy counter, reported by the `metrics` op as `ttlExpiredRecords=N`) and report their
 * state sizes (`<stateName>.entries=N <stateName>.bytes=N`). Depends on operator.h, plan.h
 * (WAggCall), state/.
 */
#ifndef WEIR_EXEC_STATEFUL_H
#define WEIR_EXEC_STATEFUL_H

#include "operator.h"
#include "../plan/plan.h"

/* Common output description. */
typedef struct WOpSchema {
    int ncols;
    const WType **types;
    const char **names;
} WOpSchema;

/* ---------------- GroupAggregate (Flink GroupAggFunction) ----------------
   Input: rows keyed by `keys`; output: key columns then one column per aggregate call.
   Emission exactly as Flink: first row of a key +I; update -U(old) (only if
   generate_update_before) then +U(new); unchanged result emits nothing unless ttl > 0; when the
   count of accumulated rows drops to 0: -D(old) and the key's state is cleared; a retraction for
   a key without state (never seen or expired) is dropped. Aggregates: COUNT(*), COUNT, SUM, SUM0,
   MIN, MAX, AVG, FIRST_VALUE, LAST_VALUE, LISTAGG, STDDEV/VAR (POP/SAMP), BOOL_AND/OR, each with
   DISTINCT and FILTER; all retractable when input_retracts (MIN/MAX keep value counts; DISTINCT
   keeps value counts shared by calls with the same argument). With nkeys == 0 this is a global
   aggregate (Flink emits its first result on the first row). */
typedef struct WGroupAggSpec {
    int in_ncols;
    const WType **in_types;
    int nkeys;
    const int *keys;
    int naggs;
    const WAggCall *aggs;
    bool input_retracts;            /* input may contain -U/-D */
    bool generate_update_before;    /* emit -U before +U */
    int64_t ttl_ms;                 /* groupAggregateState TTL, 0 = never */
    const char *state_name;         /* "groupAggregateState" */
    bool empty_input_row;           /* nkeys == 0, batch mode, the subtask of the empty key: one
                                       row of the aggregates over no rows when no row came */
    WOpSchema out;
} WGroupAggSpec;
WOperator *wop_group_agg_new(WExecCtx *ctx, const WGroupAggSpec *spec);

/* ---------------- Join (Flink StreamingJoinOperator / semi-anti) ----------------
   Regular (unbounded) join of input 0 (left) and input 1 (right) on equi-keys, with a residual
   condition over (left ++ right) columns. Output: left columns then right columns (SEMI/ANTI:
   left columns only). Outer joins pad with NULLs and retract paddings as Flink does (association
   counts per record). State per side named leftState/rightState (Flink's JoinRecordStateView
   shapes): unique key contained in the join key -> one row per join key; unique key not in the
   join key -> rows by unique key; no unique key -> rows with occurrence counts. */
typedef enum WJoinKind { WJK_INNER, WJK_LEFT, WJK_RIGHT, WJK_FULL, WJK_SEMI, WJK_ANTI } WJoinKind;
typedef struct WJoinSpec {
    WJoinKind kind;
    int left_ncols, right_ncols;
    const WType **left_types, **right_types;
    int nkeys;
    const int *left_keys, *right_keys;
    const bool *filter_nulls;       /* per key: true = '=' (NULL never matches); false = IS NOT DISTINCT FROM */
    WExpr *residual;                /* over left ++ right, NULL = none */
    int left_nuk, right_nuk;        /* unique keys of each input (column indexes), 0 = none */
    const int *left_uk, *right_uk;
    bool left_retracts, right_retracts;
    bool generate_update_before;
    int64_t left_ttl_ms, right_ttl_ms;
    const uint64_t *out_reads;      /* per output column, 0 = no consumer reads it; NULL = all are read.
                                       A side's records keep only the columns read, its keys, unique
                                       key and the residual's (others are stored, and emitted, NULL) */
    WOpSchema out;
} WJoinSpec;
WOperator *wop_join_new(WExecCtx *ctx, const WJoinSpec *spec);

/* ---------------- Deduplicate (Flink ProcTime/RowTimeDeduplicateFunction) ----------------
   ROW_NUMBER() OVER (PARTITION BY keys ORDER BY time ASC|DESC) = 1. keep_last = ORDER BY DESC.
   Proctime keep-first emits +I once per key (insert-only); keep-last emits +I then -U/+U
   (generate_update_before) on every later row. Rowtime versions compare the order column
   (time_col) and keep the first/last by event time. State: deduplicateState. */
typedef struct WDedupSpec {
    int in_ncols;
    const WType **in_types;
    int nkeys;
    const int *keys;
    bool keep_last;
    bool rowtime;                   /* order by a rowtime attribute (else proctime) */
    int time_col;                   /* rowtime column (rowtime only) */
    bool input_retracts;
    bool generate_update_before;
    bool generate_insert_only;      /* keep-first proctime */
    int64_t ttl_ms;
    WOpSchema out;                  /* = input columns */
} WDedupSpec;
WOperator *wop_dedup_new(WExecCtx *ctx, const WDedupSpec *spec);

/* ---------------- Rank (Flink AppendOnlyTopN / UpdatableTopN / RetractableTopN) ------------
   ROW_NUMBER/RANK/DENSE_RANK() OVER (PARTITION BY keys ORDER BY sort) filtered to rank in
   [rank_start, rank_end]. output_rank_number appends the rank column (BIGINT). The strategy
   follows Flink's choice (AppendFast for insert-only input, UpdateFast when the input is an
   upsert stream keyed by a unique key and the sort is monotonic, Retract otherwise) and so does
   the emitted changelog. State: rankState. */
/* WRankFunc and WRankStrategy: plan/plan.h (the plan's fields have the same types) */
typedef struct WSortKey { int col; bool desc; bool nulls_first; } WSortKey;
typedef struct WRankSpec {
    int in_ncols;
    const WType **in_types;
    int nkeys;
    const int *keys;
    int nsort;
    const WSortKey *sort;
    WRankFunc func;
    WRankStrategy strategy;
    int64_t rank_start, rank_end;
    bool output_rank_number;
    int nuk;                        /* unique key of the input (UpdateFast) */
    const int *uk;
    bool input_retracts;
    bool generate_update_before;
    int64_t ttl_ms;
    WOpSchema out;
} WRankSpec;
WOperator *wop_rank_new(WExecCtx *ctx, const WRankSpec *spec);

/* ---------------- ChangelogNormalize (Flink ProcTimeMiniBatchDeduplicateKeepLastRow...) -----
   Turns an upsert stream (keyed by the primary key `keys`) into a full changelog: keeps the last
   row per key, emits +I for a new key, -U(old)/+U(new) for a changed row (nothing for an
   identical row unless ttl > 0), -D(old) for a delete of a present key (deletes of absent keys are
   dropped). An optional filter is applied after normalisation, as Flink pushes it in.
   State: changelogNormalizeState. */
typedef struct WChangelogNormalizeSpec {
    int in_ncols;
    const WType **in_types;
    int nkeys;
    const int *keys;
    bool generate_update_before;
    int64_t ttl_ms;
    WExpr *filter;                  /* may be NULL */
    WOpSchema out;
} WChangelogNormalizeSpec;
WOperator *wop_changelog_normalize_new(WExecCtx *ctx, const WChangelogNormalizeSpec *spec);

/* ---------------- SinkUpsertMaterializer (Flink SinkUpsertMaterializer) ----------------
   Before an upsert sink whose key differs from the input's upsert key: keeps, per sink key, the
   list of rows received, so that a retraction of a row that is not the latest does not delete
   the sink's row; emits +I/+U(latest) and -D when the list becomes empty. State:
   sinkMaterializeState. */
typedef enum WSinkConflictMode { WSCM_LEGACY = 0, WSCM_ERROR, WSCM_NOTHING } WSinkConflictMode;

typedef struct WSinkMaterializerSpec {
    int in_ncols;
    const WType **in_types;
    int nkeys;                      /* sink primary key */
    const int *keys;
    int64_t ttl_ms;
    WOpSchema out;
    /* Upsert key of the input (column indexes), 0 = none: rows are then matched by this key
       instead of by their full content (Flink's inputUpsertKey). Additive field. */
    int nuk;
    const int *uk;
    /* ON CONFLICT DO ERROR / NOTHING (Flink 2.3's WatermarkCompactingSinkMaterializer): changes
       are buffered per key and compacted when the watermark advances; 0 = the legacy
       materializer (also ON CONFLICT DO DEDUPLICATE) */
    WSinkConflictMode conflict;
    const char *const *key_names;   /* the sink's primary key columns (ERROR's message), may be NULL */
} WSinkMaterializerSpec;
WOperator *wop_sink_materializer_new(WExecCtx *ctx, const WSinkMaterializerSpec *spec);

/* ---------------- two-phase aggregation (additive) ----------------
   LocalGroupAggregate / GlobalGroupAggregate / IncrementalGroupAggregate as Flink runs them under
   mini-batch (MiniBatchLocalGroupAggFunction, MiniBatchGlobalGroupAggFunction,
   MiniBatchIncrementalGroupAggFunction). The runtime gives them the framework's mini-batch bundle
   (minibatch.h), so each process() call is one mini-batch: the local aggregate pre-aggregates the
   rows of the batch and emits, before returning, one +I row per key (the key, then the partial
   accumulators of plan/agg_rules.h); nothing is held across calls. The global aggregate merges
   the accumulator rows of a batch per key into its state (globalGroupAggregateState) and emits as
   GroupAggFunction does, once per key and batch: +I for a new key, -U/+U when the result changed
   (always with TTL), -D and cleared state when the record count falls to zero (input with
   retractions). The incremental aggregate keeps the DISTINCT value maps of the partial keys in
   state (incrementalGroupAggregateState) and emits per final key the accumulator deltas of the
   chunk (insert-only). */
typedef struct WLocalAggSpec {
    int in_ncols;
    const WType **in_types;
    int nkeys;
    const int *keys;
    int naggs;
    const WAggCall *aggs;
    bool input_retracts;
    WOpSchema out;                  /* keys, then the partial accumulator columns */
} WLocalAggSpec;
WOperator *wop_local_agg_new(WExecCtx *ctx, const WLocalAggSpec *spec);

typedef struct WGlobalAggSpec {
    int agg_ncols;                  /* the local aggregate's input row: the calls refer to it */
    const WType **agg_types;
    int in_ncols;                   /* input: keys [0, nkeys), then partial accumulators */
    const WType **in_types;
    int nkeys;
    int naggs;
    const WAggCall *aggs;
    bool input_retracts;            /* the local aggregate's input retracts (count1 present) */
    bool generate_update_before;
    int64_t ttl_ms;
    const char *state_name;         /* "globalGroupAggregateState" */
    WOpSchema out;                  /* keys, then one column per call */
} WGlobalAggSpec;
WOperator *wop_global_agg_new(WExecCtx *ctx, const WGlobalAggSpec *spec);

typedef struct WIncrementalAggSpec {
    int agg_ncols;                  /* the partial local aggregate's input row */
    const WType **agg_types;
    int in_ncols;                   /* input: partial keys [0, nkeys), then partial accumulators */
    const WType **in_types;
    int nkeys;
    int nfinal_keys;                /* final grouping: input columns */
    const int *final_keys;
    int naggs;
    const WAggCall *aggs;           /* the partial calls */
    bool input_retracts;            /* the partial local aggregate's input retracts */
    int64_t ttl_ms;
    WOpSchema out;                  /* final keys, then the accumulators (without distinct maps) */
} WIncrementalAggSpec;
WOperator *wop_incremental_agg_new(WExecCtx *ctx, const WIncrementalAggSpec *spec);

#endif
