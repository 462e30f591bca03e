/*
 * plan.h — relational plan nodes, from binding to the exec graph the runtime runs.
 *
 * Contract: the binder (bind*.c) turns syntax trees into a tree of WRel nodes with resolved,
 * typed expressions; rules (rules.c) rewrite the tree (push-down, calc merge, changelog
 * inference, exchanges); finalisation (exec_graph.c) numbers the nodes in Flink's order and
 * assigns each stateful node its state list and TTL. The finalised tree is the exec graph: EXPLAIN
 * and COMPILE PLAN print it and the runtime builds operators only from it. Everything lives in the
 * statement's arena. Depends on catalog/, expr/, sql/ast.h, types/, common/.
 */
#ifndef WEIR_PLAN_PLAN_H
#define WEIR_PLAN_PLAN_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "../catalog/catalog.h"
#include "../expr/expr.h"
#include "../sql/ast.h"
#include "../common/options.h"
#include "../common/window_kind.h"

/* Every kind of plan node, once: its enum value, the name of its file in src/kinds/ (kinds/<file>.c
   holds the kind's operations in every stage and defines wkind_<file>; kinds/registry.c makes each
   stage's table from this list) and its name in messages (wrel_kind_name). Adding a kind is a line
   here and its file there. */
#define WREL_KINDS(X) \
    X(WR_SCAN, scan, "TableSourceScan") \
    X(WR_VALUES, values, "Values") \
    X(WR_CALC, calc, "Calc")                                                        /* projection + optional condition */ \
    X(WR_UNION, union, "Union")                                                     /* UNION ALL */ \
    X(WR_WATERMARK, watermark, "WatermarkAssigner") \
    X(WR_SINK, sink, "Sink")                                                        /* to a table, or the client's collect sink */ \
    X(WR_EXCHANGE, exchange, "Exchange")                                            /* hash / single / forward */ \
    X(WR_GROUP_AGG, group_agg, "GroupAggregate") \
    X(WR_JOIN, join, "Join") \
    X(WR_DEDUP, dedup, "Deduplicate") \
    X(WR_RANK, rank, "Rank") \
    X(WR_SORT_LIMIT, sort_limit, "SortLimit")                                       /* also Limit */ \
    X(WR_WINDOW_AGG, window_agg, "WindowAggregate") \
    X(WR_CHANGELOG_NORMALIZE, changelog_normalize, "ChangelogNormalize") \
    X(WR_DROP_UPDATE_BEFORE, drop_update_before, "DropUpdateBefore") \
    X(WR_SINK_MATERIALIZER, sink_materializer, "SinkUpsertMaterializer") \
    X(WR_OVER_RANK, over_rank, "OverRank")                                          /* ROW_NUMBER/RANK/DENSE_RANK OVER (...) before the rank rule (logical only) */ \
    X(WR_WINDOW_TVF, window_tvf, "WindowTableFunction")                             /* TUMBLE/HOP/CUMULATE/SESSION(TABLE t, DESCRIPTOR(ts), ...) */ \
    X(WR_WINDOW_RANK, window_rank, "WindowRank")                                    /* also WindowDeduplicate (dedup flag) */ \
    X(WR_WINDOW_JOIN, window_join, "WindowJoin") \
    X(WR_INTERVAL_JOIN, interval_join, "IntervalJoin") \
    X(WR_TEMPORAL_JOIN, temporal_join, "TemporalJoin")                              /* event time */ \
    X(WR_LOOKUP_JOIN, lookup_join, "LookupJoin")                                    /* one input; the dim table's scan in wrel_join(r)->lookup_scan */ \
    X(WR_OVER_AGG, over_agg, "OverAggregate") \
    X(WR_MINIBATCH_ASSIGNER, minibatch_assigner, "MiniBatchAssigner")               /* agg_rules.c */ \
    X(WR_LOCAL_GROUP_AGG, local_group_agg, "LocalGroupAggregate")                   /* pre-aggregation to partial accumulators */ \
    X(WR_GLOBAL_GROUP_AGG, global_group_agg, "GlobalGroupAggregate")                /* merges partial accumulators into state */ \
    X(WR_INCREMENTAL_GROUP_AGG, incremental_group_agg, "IncrementalGroupAggregate") /* the distinct split's PARTIAL global + FINAL local */ \
    X(WR_SORT, sort, "Sort")                                                        /* LogicalSort; in batch mode Sort / SortLimit / Limit (bind_sort.c, sort_rules.c) */ \
    X(WR_TEMPORAL_SORT, temporal_sort, "TemporalSort")                              /* ORDER BY a time attribute ASC without a limit */ \
    X(WR_LOCAL_WINDOW_AGG, local_window_agg, "LocalWindowAggregate")                /* partial accumulators per key and slice */ \
    X(WR_GLOBAL_WINDOW_AGG, global_window_agg, "GlobalWindowAggregate")             /* merges them into the windows */ \
    X(WR_EXPAND, expand, "Expand")                                                  /* each input row once per projection (grouping sets, grouping_sets.c) */ \
    X(WR_REPLICATE_ROWS, replicate_rows, "Correlate")                               /* the Correlate of $REPLICATE_ROWS$1: INTERSECT ALL / EXCEPT ALL (bind_setops.c) */ \
    X(WR_CORRELATE, correlate, "Correlate")                                         /* the Correlate of $UNNEST_ROWS$1: UNNEST of an ARRAY/MAP/MULTISET (bind_unnest.c) */ \
    X(WR_MATCH, match, "Match")                                                     /* MATCH_RECOGNIZE (bind_match.c; its spec in wrel_match(r)->spec, match_spec.h) */

#define WREL_KIND_ENUM(k, file, name) k,
typedef enum WRelKind {
    WREL_KINDS(WREL_KIND_ENUM)
    WR__COUNT
} WRelKind;
#undef WREL_KIND_ENUM

/* Rank functions and Flink's rank processing strategies (RankProcessStrategy), as the plan
   chooses them and the rank operators (exec/stateful.h, exec/windowed.h) run them. */
typedef enum WRankFunc { WRANK_ROW_NUMBER, WRANK_RANK, WRANK_DENSE_RANK } WRankFunc;
#define WRANK_NFUNCS 3
typedef enum WRankStrategy { WRANK_APPEND_FAST, WRANK_UPDATE_FAST, WRANK_RETRACT } WRankStrategy;
#define WRANK_NSTRATEGIES 3
/* Index of f / s into a table of WRANK_NFUNCS / WRANK_NSTRATEGIES names: an out-of-range value
   (none is ever set) reads as ROW_NUMBER / Retract, as EXPLAIN and COMPILE PLAN always did. */
static inline int wrank_func_index(WRankFunc f) { return (unsigned)f < WRANK_NFUNCS ? (int)f : WRANK_ROW_NUMBER; }
static inline int wrank_strategy_index(WRankStrategy s)
{
    return (unsigned)s < WRANK_NSTRATEGIES ? (int)s : WRANK_RETRACT;
}

/* Flink's PartialFinalType of an aggregate produced by the distinct split. */
typedef enum WPartialFinal { WPF_NONE = 0, WPF_PARTIAL = 1, WPF_FINAL = 2 } WPartialFinal;

/* The set operation a subtree was rewritten from (bind_setops.c): none, or AstSetOp + 1. */
typedef enum WSetOpOrigin { WSO_NONE = 0, WSO_UNION = 1 + ASO_UNION, WSO_INTERSECT = 1 + ASO_INTERSECT,
                            WSO_EXCEPT = 1 + ASO_EXCEPT } WSetOpOrigin;

/* Changelog mode bits (Flink ChangelogMode). */
enum { WCM_INSERT = 1, WCM_UPDATE_BEFORE = 2, WCM_UPDATE_AFTER = 4, WCM_DELETE = 8 };

typedef struct WSchema {
    int n;
    const char **names;
    const WType **types;
} WSchema;

/* Aggregate call (GROUP BY, window aggregates). */
typedef enum WAggKind {
    WAGG_COUNT_STAR, WAGG_COUNT, WAGG_SUM, WAGG_SUM0, WAGG_MIN, WAGG_MAX, WAGG_AVG,
    WAGG_FIRST_VALUE, WAGG_LAST_VALUE, WAGG_LISTAGG, WAGG_STDDEV_POP, WAGG_STDDEV_SAMP,
    WAGG_VAR_POP, WAGG_VAR_SAMP, WAGG_BOOL_AND, WAGG_BOOL_OR, WAGG_COLLECT,
    WAGG_SINGLE_VALUE               /* Calcite's SINGLE_VALUE of a scalar subquery that may yield
                                       several rows (bind_scalar_subquery.c; no SQL name) */
} WAggKind;

typedef struct WAggCall {
    WAggKind kind;
    const char *name;           /* as Flink prints it: COUNT, SUM, MAX, ... */
    int nargs;
    int args[2];                /* input column indexes (LISTAGG separator as 2nd, constant) */
    bool distinct;
    int filter_col;             /* input column holding the FILTER boolean, -1 if none */
    const WType *type;          /* result type */
    const char *out_name;
    bool named;                 /* the binder named it after a select item (Calcite's AggregateCall
                                   name; unnamed: agg#k in the AST) */
    bool counts_records;        /* the final $SUM0 of a split COUNT(*): the node's record count
                                   (Flink's indexOfCountStar) */
} WAggCall;

typedef struct WRel WRel;
/* Per-kind payloads (issue 15): the fields only one kind has, in WRel's `payload` union, read
   and written through that kind's checked accessor (after the struct). */
typedef struct WRelMiniBatch {      /* WR_MINIBATCH_ASSIGNER */
    int64_t interval_ms;            /* interval */
    bool rowtime;                   /* mode=[RowTime] (else ProcTime) */
    bool check_size;                /* the job has operators needing table.exec.mini-batch.size > 0 */
} WRelMiniBatch;

typedef struct WRelExpand {         /* WR_EXPAND */
    int n;                          /* projections of out.n columns each */
    int *src;                       /* src[k * out.n + c]: the input column of output column c in
                                       projection k, -1 for NULL, -2 for the literal ids[k] */
    int64_t *ids;
} WRelExpand;

typedef struct WRelIntervalJoin {   /* WR_INTERVAL_JOIN (in WRelJoin): left.t - right.t in [lower, upper] */
    int64_t lower_ms, upper_ms;
    bool lower_strict, upper_strict;
} WRelIntervalJoin;

typedef struct WRelCorrelate {      /* WR_CORRELATE (bind_unnest.c): UNNEST beside its left input */
    AstJoinType join_type;          /* AJ_INNER or AJ_LEFT (LEFT JOIN UNNEST ... ON TRUE) */
    bool ordinality;                /* WITH ORDINALITY: $UNNEST_ROWS_WITH_ORDINALITY$1 */
    int cor_id;                     /* $cor<N> of the correlation (-1: a standalone UNNEST) */
    int nleft_out;                  /* left columns in the output (0: a standalone UNNEST over Values) */
    bool physical;                  /* the physical rule gave it Flink's column names */
    WExpr *collection;              /* the collection unnested, over the left input (inputs[0]) */
    WExpr *cond;                    /* NULL = none: a filter over the function's columns only ($0 =
                                       its first column) */
} WRelCorrelate;

typedef struct WRelCalc {           /* WR_CALC: projection + optional condition */
    int nexprs;                     /* the projections, one per output column */
    WExpr **exprs;
    WExpr *cond;                    /* NULL = no filter */
    bool agg_removed;               /* replaces a group aggregate over unique keys
                                       (FlinkAggregateRemoveRule); merged into the Calc above */
    bool split_layout;              /* the Calc a window distinct split puts over its final aggregate
                                       (split_distinct.c; EXPLAIN names its aggregate columns) */
    bool late_calc;                 /* made after Flink's scan push-down phase (CalcRankTransposeRule,
                                       prune_rules.c): EXPLAIN does not fold it into the scan */
} WRelCalc;

typedef struct WRelMatch {          /* WR_MATCH (bind_match.c; partition in keys, order in sort_*) */
    const struct WMatchSpec *spec;  /* pattern, definitions, measures, AFTER MATCH (match_spec.h) */
} WRelMatch;

typedef struct WRelWindow {         /* the windowed kinds (wrel_is_windowed): WR_WINDOW_TVF,
                                       WR_WINDOW_AGG, WR_LOCAL/GLOBAL_WINDOW_AGG, WR_WINDOW_RANK,
                                       WR_WINDOW_JOIN */
    WWindowKind kind;               /* tumble, hop, cumulate, session */
    int64_t size, slide, offset, gap;
    int time_col;                   /* time attribute column of the window's input */
    bool proctime;
    int npartition;                 /* SESSION ... PARTITION BY */
    int *partition;
    int start_col, end_col;         /* WINDOW_RANK: window columns of the input;
                                       WINDOW_JOIN: the left input's (right's in rstart/rend_col) */
    int rstart_col, rend_col;
    bool dedup;                     /* WINDOW_RANK is a WindowDeduplicate */
    bool legacy;                    /* a legacy GROUP BY TUMBLE/HOP/SESSION group window */
    const WExpr *args[3];           /* WINDOW_TVF: the interval literals as written (size or gap,
                                       slide or step, offset; NULL when absent), for the AST */
    bool table_input;               /* WINDOW_TVF: the data is TABLE t (Calcite projects its columns) */
    bool legacy_props;              /* legacy: the query uses TUMBLE_START & co, so the
                                       GroupWindowAggregate emits its named window properties
                                       (w$start, w$end, [w$rowtime,] w$proctime) after the aggs */
    int out_start, out_end, out_time;   /* WINDOW_AGG: output positions, -1 if absent */
    bool attached;                  /* WINDOW_AGG: rows carry their window in start_col /
                                       end_col (an aggregate over a window's output);
                                       LOCAL_WINDOW_AGG likewise; GLOBAL_WINDOW_AGG: its local
                                       was attached (WindowAttached on $window_end, else
                                       SliceAttached on $slice_end; either is its input's last
                                       column, and time_col / start_col / end_col refer to
                                       agg_input, the local's input) */
} WRelWindow;

typedef struct WRelJoin {           /* the join kinds (wrel_is_join): WR_JOIN, WR_INTERVAL_JOIN,
                                       WR_TEMPORAL_JOIN, WR_LOOKUP_JOIN, WR_WINDOW_JOIN (the rules
                                       of join_rules.c turn a Join into the others in place, keeping
                                       this payload); the left keys are WRel's keys/nkeys */
    AstJoinType type;               /* AJ_INNER, AJ_LEFT, AJ_RIGHT, AJ_FULL (INNER for semi/anti) */
    bool semi, anti;
    int *right_keys;                /* keys = left keys */
    bool *key_filter_nulls;         /* per key: '=' (true) or IS NOT DISTINCT FROM (false) */
    bool *key_swapped;              /* per key (NULL: none): the condition names the right input's side
                                       first (`b.x = a.x`), as EXPLAIN prints it */
    bool minibatch;                 /* planned under table.exec.mini-batch.enabled (EXPLAIN shows
                                       miniBatch=[true]; INNER/LEFT/RIGHT/FULL run bundled) */
    WExpr *cond;                    /* residual condition over left ++ right columns */
    WExpr *shown_cond;              /* IntervalJoin: the condition incl. its time bounds, as EXPLAIN shows it;
                                       LookupJoin: the conjuncts reading the input (joinCondition) */
    bool right_retracts;            /* right input may carry -U/-D */
    bool temporal;                  /* WR_JOIN with a versioned right side (binder) */
    bool lookup;                    /* WR_JOIN: temporal on a processing time against a lookup
                                       source (jdbc): becomes a WR_LOOKUP_JOIN (binder) */
    WRel *lookup_scan;              /* WR_LOOKUP_JOIN: the dim table's WR_SCAN (all physical
                                       columns, in out after the input's); keys = input columns,
                                       right_keys = dim columns; cond over input ++ dim */
    int left_time_col, right_time_col;  /* temporal (binder) / interval / temporal / lookup joins */
    int64_t ttl_left_ms, ttl_right_ms;  /* WR_JOIN: resolved state TTL per side, 0 = never */
    const char *right_name;         /* the right input's name (WRel's left_name) */
    uint64_t *out_reads;            /* WR_JOIN, runtime (wjob_mark_scan_reads): per output column, what its
                                       consumers read (0: nothing, so its record state need not keep it);
                                       NULL: everything */
    WRelIntervalJoin interval;      /* WR_INTERVAL_JOIN: its bounds, wrel_interval(r) */
    WRelWindow window;              /* WR_WINDOW_JOIN: its window, wrel_window(r) (a window join is
                                       both a join and a windowed kind; its window lives here, so
                                       the union holds one member per kind) */
} WRelJoin;

typedef struct WRelRank {           /* the rank kinds (wrel_is_rank): WR_OVER_RANK, WR_RANK,
                                       WR_SORT_LIMIT, WR_DEDUP, WR_WINDOW_RANK (rank_rules.c makes a
                                       Rank / Deduplicate of an OverRank's fields, window_rank_rule
                                       turns a Rank / Deduplicate into a WindowRank in place, keeping
                                       this payload); partition keys in WRel's keys/nkeys, the order
                                       in its sort_* */
    WRankFunc func;                 /* ROW_NUMBER, RANK, DENSE_RANK */
    int64_t start, end;             /* the rank range [start, end] (1-based; end INT64_MAX = none) */
    bool output_number;             /* the rank number is an output column (col) */
    int col;                        /* the rank column's index in the output when output_number
                                       (an OVER_RANK's always) */
    bool keep_last;                 /* WR_DEDUP, window deduplicate: keep the last row (ORDER BY DESC) */
    bool dedup_rowtime;             /* WR_DEDUP: ordered by a rowtime (else a proctime) attribute
                                       (a window deduplicate's runtime reads its window's proctime) */
    WRankStrategy strategy;         /* WR_RANK / WR_SORT_LIMIT: Flink's processing strategy (physical.c) */
    WRelWindow window;              /* WR_WINDOW_RANK: its window, wrel_window(r) (a window rank is
                                       both a rank and a windowed kind; its window lives here, so
                                       the union holds one member per kind) */
} WRelRank;

typedef struct WRelScan {           /* WR_SCAN (bind.c's bind_table_scan; a LookupJoin's dim table
                                       is one too, wrel_join(r)->lookup_scan) */
    WTable *table;
    const char *table_qname;        /* default_catalog.default_database.t */
    int nfields;                    /* physical columns read, in table order */
    int *fields;                    /* indexes into the table's physical columns list */
    int nmeta;                      /* metadata columns read (filesystem: file.*), after the physical
                                       ones in out, in table order; their keys */
    const char **meta_keys;
    bool source_changelog;          /* the connector emits updates */
    uint8_t *reads;                 /* set by the runtime build (wjob_mark_scan_reads): 1 per output
                                       column its consumers read; NULL = all */
    uint64_t *field_reads;          /* ... and per output column, the fields of a ROW its consumers
                                       read (bit k: field k; WREL_ALL_FIELDS: the whole value, and
                                       every field from the 64th on); NULL = all */
} WRelScan;

#define WREL_ALL_FIELDS UINT64_MAX

typedef struct WRelValues {         /* WR_VALUES (VALUES, an empty input pruned to Values, UNNEST's
                                       left side): its rows, out.n columns each */
    int nrows;
    WDatum **rows;                  /* rows[i][c]: column c of row i */
    uint8_t **row_nulls;            /* row_nulls[i][c]: 1 = NULL */
} WRelValues;

typedef struct WRelWatermark {      /* WR_WATERMARK: the table's WATERMARK FOR rowtime AS expr (bind.c) */
    int rowtime_col;                /* the rowtime column (of its input, which it passes through) */
    WExpr *expr;                    /* the watermark expression over the input's columns */
    const char *sql;                /* ... as written in the DDL (the table's wm_sql) */
    bool every_record;              /* runtime (wjob_mark_scan_reads): cut chunks at every watermark
                                       advance, as Flink's per-record watermarks (a compacting sink
                                       materializer downstream) */
    int64_t trigger_interval;       /* runtime (wjob_mark_scan_reads): also cut where the watermark
                                       crosses a multiple of this minus 1 ms (a LocalWindowAggregate's
                                       flush points), 0 none */
} WRelWatermark;

typedef struct WRelSink {           /* the sink kinds (wrel_is_sink): WR_SINK (bind_insert.c; the
                                       client's collect sink of a query, bind.c) and the
                                       WR_SINK_MATERIALIZER sink_rules.c puts in front of it (its
                                       conflict behaviour and key names only) */
    WTable *table;                  /* NULL = collect to the client */
    const char *qname;              /* default_catalog.default_database.t */
    bool overwrite;                 /* INSERT OVERWRITE */
    int ntarget_cols;               /* INSERT INTO t (c, a) ...: the named columns' positions among
                                       the sink's physical columns, as written (Flink's targetColumns) */
    int *target_cols;
    AstConflict conflict;           /* INSERT ... ON CONFLICT DO ...; WR_SINK_MATERIALIZER: the
                                       behaviour it runs (ERROR / NOTHING compact on watermarks,
                                       sink_compacting_materializer.c; else Flink's legacy one) */
    int nstatic;                    /* INSERT ... PARTITION (k = 'v', ..): the static partition
                                       columns and values, in the table's partition key order */
    const char **static_keys;
    const char **static_values;
    uint8_t *static_col;            /* per sink column: 1 = a static partition (PARTITION (k = 'v')),
                                       NULL = none */
    bool final_rows;                /* batch mode over an updating input: the sink writes the final
                                       rows as inserts when its input ends (runtime/final_rows.h),
                                       as Flink's insert-only batch plan does */
    int nmeta;                      /* the metadata columns written, after the physical ones in out
                                       (out's names are the keys), in the connector's order
                                       (sink_metadata.c); their keys */
    const char **meta_keys;
    const char **key_names;         /* WR_SINK_MATERIALIZER: the sink's primary key columns (its
                                       conflict message names them) */
} WRelSink;

typedef struct WRelNormalize {      /* WR_CHANGELOG_NORMALIZE (physical.c, the plan reader); its key
                                       (the input's unique key) in WRel's keys/nkeys */
    WExpr *filter;                  /* the Calc's condition pushed into it (changelog_source.c),
                                       NULL = none */
} WRelNormalize;

typedef struct WRelExchange {       /* WR_EXCHANGE (physical.c and the rules that make the two-phase
                                       aggregates and OverAggregates, the plan reader; the runtime's own
                                       exchanges in front of a sink or behind a scan); hash keys in
                                       WRel's keys/nkeys, none = single */
    bool single;                    /* Exchange(distribution=[single]) */
    bool collect;                   /* the gather in front of the client's collect sink (runtime
                                       detail: EXPLAIN does not show it, as Flink's plan does not) */
} WRelExchange;

typedef struct WRelSort {           /* WR_SORT (bind_sort.c's LogicalSort; in batch mode the physical
                                       Sort / SortLimit / Limit, sort_rules.c; the batch OverAggregate's
                                       input, over_rules.c); its order in WRel's sort_*. The
                                       streaming rules turn it into a SortLimit (a rank kind) or a
                                       TemporalSort (no payload), clearing the payload */
    int64_t offset, fetch;          /* OFFSET and FETCH as written, -1 when absent */
    bool local;                     /* batch, with a limit: the local (global=[false]) half */
} WRelSort;

typedef struct WRelOver {          /* WR_OVER_AGG (in WRelAgg, wrel_over(r)): the OverAggregate's
                                       windows; partition in WRel's keys, the streaming one's order
                                       column in its time_col, the batch one's order in its sort_* */
    const struct WOverSpec *batch;  /* batch: its windows and calls (over_window.h); NULL in
                                       streaming */
    const struct WOverSpec *stream; /* streaming: its one window and calls (aggregates, LAG,
                                       ROW_NUMBER, RANK, DENSE_RANK) in output order; the
                                       aggregates also in the WRelAgg's aggs */
    bool rows;                      /* streaming: a ROWS frame (else RANGE) */
    bool unbounded;                 /* streaming: UNBOUNDED PRECEDING (else `preceding`) */
    int64_t preceding;              /* streaming: n PRECEDING (rows, or ms of a RANGE) */
    bool proctime;                  /* streaming: ordered by a processing time attribute */
} WRelOver;

typedef struct WRelAgg {            /* the aggregating kinds (wrel_is_agg): WR_GROUP_AGG,
                                       WR_LOCAL/GLOBAL/INCREMENTAL_GROUP_AGG, WR_WINDOW_AGG,
                                       WR_LOCAL/GLOBAL_WINDOW_AGG, WR_OVER_AGG; the grouping keys
                                       (an OverAggregate's partition) in WRel's keys/nkeys. The
                                       two-phase rules (agg_rules.c) copy an aggregate into its
                                       Local / Global halves and the distinct split
                                       (split_distinct.c) a WindowAggregate into its partial and
                                       final ones, keeping this payload; an OverRank made an
                                       OverAggregate (over_rules.c) starts from a cleared one */
    int naggs;                      /* the calls (an OverAggregate's: its aggregates, the other
                                       calls are in its window spec) */
    WAggCall *aggs;
    WPartialFinal partial_final;    /* GROUP_AGG / LOCAL / GLOBAL (and a split WINDOW_AGG):
                                       Flink's partialFinalType (the distinct split) */
    WSchema agg_input;              /* LOCAL/GLOBAL/INCREMENTAL (group or window): the row the calls
                                       read (the local aggregate's input: Flink's
                                       localAggInputRowType) */
    int count1_col;                 /* GLOBAL/INCREMENTAL: input column with the record count, -1 none */
    int nfinal_keys;                /* INCREMENTAL: final grouping (columns of its input) */
    int *final_keys;
    WRelOver over;                  /* WR_OVER_AGG: its windows, wrel_over(r) */
    WRelWindow window;              /* WR_WINDOW_AGG, WR_LOCAL/GLOBAL_WINDOW_AGG: its window,
                                       wrel_window(r) (a window aggregate is both an aggregate and
                                       a windowed kind; its window lives here, so the union holds
                                       one member per kind) */
} WRelAgg;

struct WRel {
    WRelKind kind;
    int id;                         /* exec node id (1-based, Flink order), 0 until finalised */
    int exec_id;                    /* the ExecNode id Flink gives the node in the statement that runs it
                                       (the session's counter, wexplain_take_exec_node_ids); 0 = not
                                       numbered (a node Flink folds, or a plan not run): use `id` */
    WSchema out;
    int ninputs;
    WRel **inputs;
    uint8_t changelog;              /* WCM_* bits this node may emit */
    bool keeps_insert;              /* over a ChangelogNormalize Flink 2.3 dropped: its mode keeps the
                                       INSERT the normalize gave it (Flink derives the modify kinds
                                       before it drops the node; changelog_source.c) */
    int nupsert_key;                /* upsert key (column indexes) when the output has updates */
    int *upsert_key;

    /* A kind's own fields are in its payload (`payload` below, through wrel_calc(r), wrel_scan(r),
       ...); what follows is common to all kinds, or shared by several unrelated kinds. Union,
       DropUpdateBefore, TemporalSort and ReplicateRows have no fields beyond these. */
    /* keys, shared by several families: an Exchange's hash keys, a ChangelogNormalize's key, the
       aggregates' grouping keys (an OverAggregate's partition), the rank kinds' and Match's
       partition keys, the join kinds' left keys */
    int nkeys;
    int *keys;
    /* the order, shared by several families: Sort, TemporalSort, the rank kinds, Match and the
       batch OverAggregate */
    int nsort;
    int *sort_cols;
    bool *sort_desc;
    bool *sort_nulls_first;
    int time_col;                   /* WR_DEDUP (and a window deduplicate read from a plan): the
                                       time attribute it orders by; over aggregation and WR_MATCH:
                                       their order column */
    /* changelog planning */
    bool generate_update_before;    /* this node emits -U before +U */
    bool input_retracts;            /* (first) input may carry -U/-D */
    int nunique;                    /* a unique key of the output (column indexes), -1 = none */
    int *unique;
    AstExpr *temporal_as_of;        /* a table read FOR SYSTEM_TIME AS OF (binder): set on the top
                                       node of its chain (the scan, or the Calc / WatermarkAssigner
                                       above it), read of a join's right input whatever its kind
                                       (bind_join.c), so common, not in the scan payload */
    /* state and TTL (finalisation) */
    int64_t ttl_ms;                 /* resolved TTL for stateful nodes, 0 = never */
    int nhints;
    AstHint *hints;                 /* query hints of the SELECT this node came from (STATE_TTL ...);
                                       a WR_SCAN: its table's OPTIONS hints (already merged into
                                       its table's options), for the plan digests */
    const char *left_name;          /* join: the left input's table name/alias when it is one table
                                       or a named subquery (hint keys), else NULL (the right one's:
                                       wrel_join(r)->right_name); aggregate: its input's name. Common
                                       to both families, so not in a payload */
    /* free-form operator details for EXPLAIN */
    const char *digest;
    bool ast_hidden;                /* a node the AST section does not show: the cast of a VALUES
                                       row to the union's column types (bind.c), which Calcite's
                                       LogicalUnion leaves to the planner */
    bool reused;                    /* sub-plan reuse (reuse.c) made this node the one copy of equal
                                       sub-plans: it has several consumers */
    /* the set operation a subtree was rewritten from (bind_setops.c), for the AST section:
       setop_kind (WSO_NONE = none), its two bound inputs in setop_inputs */
    WSetOpOrigin setop_kind;
    bool setop_all;
    WRel *setop_inputs[2];
    int nalias;                     /* AST: the column aliases of AS t(c, ...) (0 = none) */
    const char **alias_names;
    /* The payload of the kinds whose fields are split out of WRel (issue 15): only through the
       checked accessors below (wrel_calc(r), wrel_minibatch(r), wrel_expand(r), wrel_match(r),
       wrel_correlate(r), wrel_window(r), wrel_join(r), wrel_interval(r), wrel_rank(r),
       wrel_agg(r), wrel_over(r), wrel_scan(r), wrel_values(r), wrel_watermark(r), wrel_sink(r),
       wrel_normalize(r), wrel_exchange(r), wrel_sort(r) and their _mut forms), which assert the
       kind. A rewrite that turns a node of another kind into a windowed one clears the window
       first (window_rank_rule: the rank payload's window, keeping the rank's fields;
       window_join_rule: the join payload's window, keeping the join's fields); one that copies a
       windowed node into another windowed kind (the two-phase window aggregate) keeps its window
       (and its aggregate payload), and one that turns a Join into another join kind
       (join_rules.c) keeps the join payload. A Sort made a SortLimit or a TemporalSort
       (sort_rules.c) starts from a cleared payload (a TemporalSort has none: its order is the
       common sort_*); an OverRank made an OverAggregate (over_rules.c) clears its rank payload,
       which leaves an empty aggregate payload. No rewrite turns a node into or out of the Calc,
       scan, values, watermark, sink, ChangelogNormalize or Exchange kinds: the rules that rewrite
       a Calc copy it (kind and payload kept) or make a new node. */
    union {
        WRelCalc calc;              /* WR_CALC */
        WRelMiniBatch minibatch;    /* WR_MINIBATCH_ASSIGNER */
        WRelExpand expand;          /* WR_EXPAND */
        WRelMatch match;            /* WR_MATCH */
        WRelCorrelate correlate;    /* WR_CORRELATE */
        WRelWindow window;          /* WR_WINDOW_TVF (the one windowed kind in no other family) */
        WRelJoin join;              /* the join kinds (wrel_is_join), incl. WR_WINDOW_JOIN's window
                                       and WR_INTERVAL_JOIN's bounds */
        WRelRank rank;              /* the rank kinds (wrel_is_rank), incl. WR_WINDOW_RANK's window */
        WRelAgg agg;                /* the aggregating kinds (wrel_is_agg), incl. the window
                                       aggregates' window and the OverAggregate's windows */
        WRelScan scan;              /* WR_SCAN */
        WRelValues values;          /* WR_VALUES */
        WRelWatermark watermark;    /* WR_WATERMARK */
        WRelSink sink;              /* the sink kinds (wrel_is_sink) */
        WRelNormalize normalize;    /* WR_CHANGELOG_NORMALIZE */
        WRelExchange exchange;      /* WR_EXCHANGE */
        WRelSort sort;              /* WR_SORT */
    } payload;
};

/* Checked accessors (PostgreSQL's castNode): the node as one of the kinds whose fields the caller
   reads, asserting the kind; each kind's payload accessor below goes through them. */
static inline const WRel *wrel_cast(const WRel *r, WRelKind kind)
{
    assert(r && r->kind == kind);
    return r;
}
/* ... for a caller that rewrites the node */
static inline WRel *wrel_cast_mut(WRel *r, WRelKind kind)
{
    assert(r && r->kind == kind);
    return r;
}
/* WR_JOIN (regular join: keys and wrel_join(r): type, semi/anti, right_keys, cond, ttl_left/right_ms) */
static inline const WRel *wrel_as_join(const WRel *r) { return wrel_cast(r, WR_JOIN); }
/* The join kinds (their fields in the WRelJoin payload, wrel_join(r)): JOIN, INTERVAL_JOIN,
   TEMPORAL_JOIN, LOOKUP_JOIN, WINDOW_JOIN */
static inline bool wrel_is_join(WRelKind k)
{
    return k == WR_JOIN || k == WR_INTERVAL_JOIN || k == WR_TEMPORAL_JOIN || k == WR_LOOKUP_JOIN ||
           k == WR_WINDOW_JOIN;
}
/* WR_SCAN (its fields in the WRelScan payload, wrel_scan(r): table, table_qname, fields, meta_keys,
   source_changelog) */
static inline const WRel *wrel_as_scan(const WRel *r) { return wrel_cast(r, WR_SCAN); }
/* WR_SINK (its fields in the WRelSink payload, wrel_sink(r): table, qname, target_cols, static_*,
   conflict) */
static inline const WRel *wrel_as_sink(const WRel *r) { return wrel_cast(r, WR_SINK); }
/* The sink kinds (their fields in the WRelSink payload, wrel_sink(r)): SINK, SINK_MATERIALIZER */
static inline bool wrel_is_sink(WRelKind k) { return k == WR_SINK || k == WR_SINK_MATERIALIZER; }
/* WR_RANK / WR_SORT_LIMIT (sort_* and wrel_rank(r): func, strategy, start/end) */
static inline const WRel *wrel_as_rank(const WRel *r)
{
    assert(r && (r->kind == WR_RANK || r->kind == WR_SORT_LIMIT));
    return r;
}
/* The rank kinds (their fields in the WRelRank payload, wrel_rank(r)): OVER_RANK, RANK,
   SORT_LIMIT, DEDUP, WINDOW_RANK */
static inline bool wrel_is_rank(WRelKind k)
{
    return k == WR_OVER_RANK || k == WR_RANK || k == WR_SORT_LIMIT || k == WR_DEDUP || k == WR_WINDOW_RANK;
}
/* The aggregating kinds (their fields in the WRelAgg payload, wrel_agg(r)): GROUP_AGG,
   LOCAL/GLOBAL/INCREMENTAL_GROUP_AGG, WINDOW_AGG, LOCAL/GLOBAL_WINDOW_AGG, OVER_AGG */
static inline bool wrel_is_agg(WRelKind k)
{
    return k == WR_GROUP_AGG || k == WR_LOCAL_GROUP_AGG || k == WR_GLOBAL_GROUP_AGG ||
           k == WR_INCREMENTAL_GROUP_AGG || k == WR_WINDOW_AGG || k == WR_LOCAL_WINDOW_AGG ||
           k == WR_GLOBAL_WINDOW_AGG || k == WR_OVER_AGG;
}
/* The windowed kinds (their fields in the WRelWindow payload, wrel_window(r)): WINDOW_TVF,
   WINDOW_AGG, LOCAL/GLOBAL_WINDOW_AGG, WINDOW_RANK, WINDOW_JOIN */
static inline bool wrel_is_windowed(WRelKind k)
{
    return k == WR_WINDOW_TVF || k == WR_WINDOW_AGG || k == WR_LOCAL_WINDOW_AGG || k == WR_GLOBAL_WINDOW_AGG ||
           k == WR_WINDOW_RANK || k == WR_WINDOW_JOIN;
}
static inline const WRel *wrel_as_windowed(const WRel *r)
{
    assert(r && wrel_is_windowed(r->kind));
    return r;
}
/* The payloads split out of WRel */
static inline const WRelMiniBatch *wrel_minibatch(const WRel *r) { return &wrel_cast(r, WR_MINIBATCH_ASSIGNER)->payload.minibatch; }
static inline WRelMiniBatch *wrel_minibatch_mut(WRel *r) { return &wrel_cast_mut(r, WR_MINIBATCH_ASSIGNER)->payload.minibatch; }
static inline const WRelExpand *wrel_expand(const WRel *r) { return &wrel_cast(r, WR_EXPAND)->payload.expand; }
static inline WRelExpand *wrel_expand_mut(WRel *r) { return &wrel_cast_mut(r, WR_EXPAND)->payload.expand; }
static inline const WRelIntervalJoin *wrel_interval(const WRel *r) { return &wrel_cast(r, WR_INTERVAL_JOIN)->payload.join.interval; }
static inline WRelIntervalJoin *wrel_interval_mut(WRel *r) { return &wrel_cast_mut(r, WR_INTERVAL_JOIN)->payload.join.interval; }
static inline const WRelMatch *wrel_match(const WRel *r) { return &wrel_cast(r, WR_MATCH)->payload.match; }
static inline WRelMatch *wrel_match_mut(WRel *r) { return &wrel_cast_mut(r, WR_MATCH)->payload.match; }
static inline const WRelScan *wrel_scan(const WRel *r) { return &wrel_cast(r, WR_SCAN)->payload.scan; }
static inline WRelScan *wrel_scan_mut(WRel *r) { return &wrel_cast_mut(r, WR_SCAN)->payload.scan; }
static inline const WRelValues *wrel_values(const WRel *r) { return &wrel_cast(r, WR_VALUES)->payload.values; }
static inline WRelValues *wrel_values_mut(WRel *r) { return &wrel_cast_mut(r, WR_VALUES)->payload.values; }
static inline const WRelWatermark *wrel_watermark(const WRel *r) { return &wrel_cast(r, WR_WATERMARK)->payload.watermark; }
static inline WRelWatermark *wrel_watermark_mut(WRel *r) { return &wrel_cast_mut(r, WR_WATERMARK)->payload.watermark; }
static inline const WRelNormalize *wrel_normalize(const WRel *r) { return &wrel_cast(r, WR_CHANGELOG_NORMALIZE)->payload.normalize; }
static inline WRelNormalize *wrel_normalize_mut(WRel *r) { return &wrel_cast_mut(r, WR_CHANGELOG_NORMALIZE)->payload.normalize; }
static inline const WRelExchange *wrel_exchange(const WRel *r) { return &wrel_cast(r, WR_EXCHANGE)->payload.exchange; }
static inline WRelExchange *wrel_exchange_mut(WRel *r) { return &wrel_cast_mut(r, WR_EXCHANGE)->payload.exchange; }
static inline const WRelCalc *wrel_calc(const WRel *r) { return &wrel_cast(r, WR_CALC)->payload.calc; }
static inline WRelCalc *wrel_calc_mut(WRel *r) { return &wrel_cast_mut(r, WR_CALC)->payload.calc; }
static inline const WRelSort *wrel_sort(const WRel *r) { return &wrel_cast(r, WR_SORT)->payload.sort; }
static inline WRelSort *wrel_sort_mut(WRel *r) { return &wrel_cast_mut(r, WR_SORT)->payload.sort; }
static inline const WRelSink *wrel_sink(const WRel *r)
{
    assert(r && wrel_is_sink(r->kind));
    return &r->payload.sink;
}
static inline WRelSink *wrel_sink_mut(WRel *r) { return (WRelSink *)wrel_sink(r); }
static inline const WRelCorrelate *wrel_correlate(const WRel *r) { return &wrel_cast(r, WR_CORRELATE)->payload.correlate; }
static inline WRelCorrelate *wrel_correlate_mut(WRel *r) { return &wrel_cast_mut(r, WR_CORRELATE)->payload.correlate; }
/* a window join's window is in its join payload (WRelJoin.window), a window rank's in its rank
   payload (WRelRank.window), a window aggregate's (WINDOW_AGG, LOCAL/GLOBAL_WINDOW_AGG) in its
   aggregate payload (WRelAgg.window); a WindowTableFunction's is the payload's window */
static inline const WRelWindow *wrel_window(const WRel *r)
{
    assert(r && wrel_is_windowed(r->kind));
    return r->kind == WR_WINDOW_JOIN ? &r->payload.join.window
           : r->kind == WR_WINDOW_RANK ? &r->payload.rank.window
           : r->kind == WR_WINDOW_TVF ? &r->payload.window : &r->payload.agg.window;
}
static inline WRelWindow *wrel_window_mut(WRel *r) { return (WRelWindow *)wrel_window(r); }
static inline const WRelJoin *wrel_join(const WRel *r)
{
    assert(r && wrel_is_join(r->kind));
    return &r->payload.join;
}
static inline WRelJoin *wrel_join_mut(WRel *r)
{
    assert(r && wrel_is_join(r->kind));
    return &r->payload.join;
}
static inline const WRelRank *wrel_rank(const WRel *r)
{
    assert(r && wrel_is_rank(r->kind));
    return &r->payload.rank;
}
static inline WRelRank *wrel_rank_mut(WRel *r)
{
    assert(r && wrel_is_rank(r->kind));
    return &r->payload.rank;
}
static inline const WRelOver *wrel_over(const WRel *r) { return &wrel_cast(r, WR_OVER_AGG)->payload.agg.over; }
static inline WRelOver *wrel_over_mut(WRel *r) { return &wrel_cast_mut(r, WR_OVER_AGG)->payload.agg.over; }
static inline const WRelAgg *wrel_agg(const WRel *r)
{
    assert(r && wrel_is_agg(r->kind));
    return &r->payload.agg;
}
static inline WRelAgg *wrel_agg_mut(WRel *r) { return (WRelAgg *)wrel_agg(r); }
/* The two-phase and incremental aggregates (wrel_agg(r): agg_input, count1_col, final_keys, partial_final) */
static inline const WRel *wrel_as_two_phase(const WRel *r)
{
    assert(r && (r->kind == WR_LOCAL_GROUP_AGG || r->kind == WR_GLOBAL_GROUP_AGG ||
                 r->kind == WR_INCREMENTAL_GROUP_AGG || r->kind == WR_LOCAL_WINDOW_AGG ||
                 r->kind == WR_GLOBAL_WINDOW_AGG));
    return r;
}

/* Planning context of one statement. */
typedef struct WPlanCtx {
    WArena *arena;
    WCatalog *catalog;
    const WOptions *config;         /* session configuration */
    const WCastCtx *cast;
    WError *err;
    int depth;
    bool explain;                   /* planning for EXPLAIN: a query is planned without the
                                       client's collect sink (it then prefers UPDATE_AFTER only) */
    int *exec_node_ids;             /* the session's last ExecNode id: Flink's ids count on through a
                                       session (EXPLAIN, COMPILE PLAN and executed statements all take
                                       ids); NULL = every plan numbers its nodes from 1 */
    /* Sub-plan reuse (reuse.c) compares sub-plans by the digest of each node as Flink's physical
       plan prints it, which explain/ renders: the session sets this to wexplain_node_digests.
       Fills digests[i] for nodes[i] (over the plans of roots[0..n)) and folded[i] (the node is
       no node of Flink's plan: a Calc Flink pushes into the scan below it); false with p->err
       set. NULL = no sub-plan reuse. */
    bool (*node_digests)(struct WPlanCtx *p, WRel **roots, int n, WRel **nodes, int nnodes,
                         const char **digests, bool *folded);
} WPlanCtx;

WRel *wrel_new(WPlanCtx *p, WRelKind kind, int ninputs);
/* Does a source with this 'format' produce every row kind (changelog-csv, debezium-json: their
   changelog mode, as Flink asks the format's DecodingFormat), and a sink take every kind? */
bool wplan_changelog_format(const char *format);
/* Flink's name of an ON CONFLICT behaviour (InsertConflictStrategy.ConflictBehavior), "" for none */
const char *wplan_conflict_name(AstConflict c);
/* "targetColumns=[[2],[0]], " of a sink with a column list (nothing otherwise) */
void wplan_target_columns_text(WStrBuf *out, const WRel *sink);
/* ... and back; ACF_NONE when the name is none of them */
AstConflict wplan_conflict_from_name(const char *name);
/* Is this connector's source an upsert stream keyed by its PRIMARY KEY (INSERT, UPDATE_AFTER,
   DELETE: 'upsert-kafka'), and its sink an upsert sink? */
bool wplan_upsert_connector(const char *connector);
/* A changelog source read with 'table.exec.source.cdc-events-duplicate' needs a PRIMARY KEY:
   Flink's TableException when it has none (see wplan_check_changelog_sources). */
bool wplan_check_changelog_source(WPlanCtx *p, const WTable *t, const char *qname);
/* The same for every scan of a bound plan, first in input order: Flink checks it when it converts
   the sources, after the query validated and before any rewrite (a WHERE FALSE does not hide it). */
bool wplan_check_changelog_sources(WPlanCtx *p, const WRel *root, int depth);
/* prune_empty.c: constant-false conditions and empty inputs pruned as Flink's planner does */
WRel *wplan_prune_empty(WPlanCtx *p, WRel *root);
const char *wrel_kind_name(WRelKind k);
/* A sink Flink 2.3 runs as a SinkV2 writer operator ("<table>[id]: Writer" in the job graph and the
   JSON execution plan, not "Sink: <table>[id]"): the blackhole connector's. */
bool wrel_sink_writer(const WRel *r);
/* Whether sink r is a filesystem sink: Flink 2.x writes it through the streaming file sink in a
   streaming job (StreamingFileWriter, then the discarding `end: Writer`), through one
   `Sink: Filesystem` operator in a batch job. */
bool wrel_sink_file_writer(const WRel *r);
/* Whether file sink r compacts its files ('auto-compaction' = 'true'): a streaming job then runs
   streaming-writer -> compact-coordinator (1) -> compact-operator -> `end: Writer` (batch: no
   effect, as in Flink 2.3). */
bool wrel_sink_compaction(const WRel *r);
/* Whether streaming file sink r has Flink's PartitionCommitter (one subtask) after its writer (or
   its compact-operator): a partitioned table with a commit policy (measured on Flink 2.3.0 with and
   without compaction: an unpartitioned table or one without a policy has none; weir's writers
   commit the partitions themselves, the vertex runs no code). */
bool wrel_sink_partition_committer(const WRel *r);

/* ---- binder (bind.c, bind_expr.c, bind_ddl.c) ---- */
/* A query (SELECT / VALUES / set operation) to a plan whose output is the query's columns. */
WRel *wbind_query(WPlanCtx *p, AstQuery *q);
/* INSERT INTO: a WR_SINK over the query, with Flink's column-count/type checks and implicit casts. */
WRel *wbind_insert(WPlanCtx *p, AstStmt *s);
/* A SELECT for the client: a collect WR_SINK over the query. */
WRel *wbind_select(WPlanCtx *p, AstStmt *s);
/* CREATE TABLE / CREATE VIEW: validate and build a catalog entry (the arena becomes the table's). */
WTable *wbind_create_table(WPlanCtx *p, AstStmt *s, WArena *table_arena);
WTable *wbind_create_view(WPlanCtx *p, AstStmt *s, WArena *table_arena);
/* CREATE TABLE ... LIKE base: s merged with base (the base table's own CREATE TABLE, parsed) by
   Flink's LIKE merging rules (bind_like.c); NULL with p->err set on a conflict. */
AstStmt *wbind_merge_like(WPlanCtx *p, const AstStmt *s, const AstStmt *base);
/* Conjunctions (physical_expr.c): the conjuncts of e (nested ANDs flattened, at most max), and the AND of
   n expressions (NULL for none, the expression itself for one). */
void wplan_split_and(WExpr *e, WExpr **out, int *n, int max);
WExpr *wplan_and(WPlanCtx *p, WExpr **xs, int n);
/* An expression of a table's schema bound over its columns, as Flink's resolved schema holds it: a
   computed column's over the physical columns (all_columns false), the watermark's over all
   columns (input refs are positions in that list; time attributes not yet applied). NULL with
   p->err set on error. */
WExpr *wbind_table_expr(WPlanCtx *p, const WTable *t, AstExpr *e, bool all_columns);
/* Convert a syntax type to a logical type (Flink's rules and errors). */
const WType *wbind_type(WPlanCtx *p, const AstType *t);

/* ---- UNNEST (bind_unnest.c) ----
   The columns $UNNEST_ROWS$1 produces for a collection type: Flink's physical names (f0, the
   row's fields, ordinality), the validator's names (EXPR$0, the row's fields, KEY, VALUE,
   ORDINALITY) and their types (nullable when `nullable`). Returns the count, 0 for no collection. */
int wunnest_columns(WPlanCtx *p, const WType *coll, bool ordinality, bool nullable,
                    const char ***phys, const char ***sql, const WType ***types);

/* ---- the whole planning pipeline (rules.c) ----
   optimize -> physical -> optimize -> finalize over statement roots (sinks): what EXPLAIN,
   COMPILE PLAN and the runtime all use. false with p->err set on failure. */
bool wplan_build(WPlanCtx *p, WRel **roots, int n);

/* ---- rules (rules.c) ---- */
/* execution.runtime-mode is batch (Flink's batch planner: insert-only plans, final rows) */
bool wplan_batch_mode(const WPlanCtx *p);
WRel *wplan_optimize(WPlanCtx *p, WRel *root);
/* CalcMerge of one Calc with the Calcs below it, then identity removal (what wplan_optimize does
   at each Calc); returns the replacement (r itself when it is not a Calc). */
WRel *wplan_simplify_calc(WPlanCtx *p, WRel *r);
/* Projection pruning of Flink's logical phases (prune_rules.c): PROJECT_RULES' projection
   push-down into join inputs, PruneAggregateCallRule, then LOGICAL_REWRITE's
   CalcRankTransposeRule. Runs after the rank rule, before window recognition and exchanges. */
WRel *wplan_prune(WPlanCtx *p, WRel *root);
/* Column helpers of the pruning rules (prune_rules.c): mark the columns e reads in used[0..n);
   e with column c replaced by map[c] (every read column mapped); map[i] = the position of column i
   among the used ones (-1: dropped); a Calc over `in` picking its used columns in input order. */
void wplan_mark_refs(const WExpr *e, bool *used, int n);
/* The columns (< n) e reads that are not seen yet, appended to order[*k..] in the order e first
   reads them (Flink's projection push-down lists a scan's fields so), and marked seen. */
void wplan_refs_in_order(const WExpr *e, bool *seen, int *order, int *k, int n);
WExpr *wplan_remap(WPlanCtx *p, const WExpr *e, const int *map);
int *wplan_positions(WPlanCtx *p, const bool *used, int n);
WRel *wplan_pick(WPlanCtx *p, WRel *in, const bool *used);
WRel *wplan_pick_cols(WPlanCtx *p, WRel *in, const int *cols, int n);
/* Flink's ProjectWatermarkAssignerTransposeRule as it applies to a legacy group window's input
   Calc (prune_rules.c): when `calc` (no condition) over a WatermarkAssigner and the watermark
   expression do not use every column, the used columns move under the assigner in order of first
   use (the rowtime last if unused) and `calc` is remapped onto it (gone when it becomes an
   identity). NULL when the rule does not apply. */
WRel *wplan_calc_watermark_transpose(WPlanCtx *p, WRel *calc);
/* Physical planning (physical.c, the rules a file each: physical_internal.h): rank/dedup recognition, changelog modes, unique keys,
   ChangelogNormalize / DropUpdateBefore / SinkUpsertMaterializer insertion, exchanges, and
   which nodes must emit UPDATE_BEFORE. Returns NULL with p->err set when the plan cannot run
   (e.g. an append-only sink fed updates). */
WRel *wplan_physical(WPlanCtx *p, WRel *root);
/* Sub-plan reuse (reuse.c): Flink's SubplanReuser over the physical plans of all roots (a
   statement set's INSERTs together): equal sub-plans (same digests, node by node) become one node
   with several consumers, under 'table.optimizer.reuse-sub-plan-enabled' and, for source scans,
   'table.optimizer.reuse-source-enabled'. Runs before the nodes are numbered. */
bool wplan_reuse(WPlanCtx *p, WRel **roots, int n);
/* Developer aid: the plan tree, one node per line (set WEIR_DEBUG_PLAN=1 to see it per query). */
void wplan_dump(FILE *f, const WRel *root);
/* Number nodes (Flink's bottom-up order) and resolve state TTLs. */
void wplan_finalize(WPlanCtx *p, WRel *root);

/* The metadata columns of table t read by scan (connector conn): appended to scan->out after the
   physical columns with their keys' types (scan->nmeta, scan->meta_keys); Flink's errors for an
   unknown key, weir's for a connector without metadata. (bind.c; the plan reader uses it too) */
bool wplan_scan_metadata(WPlanCtx *p, const WTable *t, WRel *scan, const char *conn);

/* A persisted metadata column a sink writes: table column `col`, its key and the key's type. */
typedef struct WSinkMetaCol { int col; const char *key; const WType *type; } WSinkMetaCol;
/* The persisted (not VIRTUAL) metadata columns of sink table t (qn: its qualified name), in the
   connector's order of writable keys (kafka, upsert-kafka: headers, timestamp); Flink's errors for
   a connector that writes none, an unknown key, a type not castable to the key's. Returns their
   number, -1 with p->err set. (sink_metadata.c) */
int wplan_sink_metadata(WPlanCtx *p, const WTable *t, const char *qn, WSinkMetaCol **out);
/* The type of writable metadata key `key` of connector conn, NULL if it writes no such key. */
const WType *wplan_sink_metadata_type(const char *conn, const char *key);

#endif
