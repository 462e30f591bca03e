/*
 * minibatch.h — mini-batch: the MiniBatchAssigner and the bundles of the operators Flink makes
 * mini-batch aware (its MapBundleOperator / KeyedMapBundleOperator with a CountBundleTrigger).
 *
 * Contract. With table.exec.mini-batch.enabled an operator built for a GroupAggregate,
 * Local/Global/IncrementalGroupAggregate, Deduplicate, ChangelogNormalize or regular Join
 * (INNER / LEFT / RIGHT / FULL) node gets a bundle
 * (wop_minibatch_enable): the framework (operator.c) appends every row pushed to it to the bundle
 * instead of processing it, and processes the bundle when it holds table.exec.mini-batch.size rows,
 * before every watermark the operator receives (the MiniBatchAssigner's batch boundaries), at the
 * end of input, and when the runtime flushes it before a checkpoint barrier (wop_minibatch_flush,
 * Flink's prepareSnapshotPreBarrier). How the bundle is processed follows Flink's bundle
 * functions, so that each key changes at most once per batch:
 *   WMB_FOLD     the bundle is processed as one chunk (the local, global and incremental
 *                aggregates emit once per key and chunk; the rowtime Deduplicate per row);
 *   WMB_COMPACT  the bundle is processed as one chunk and the operator's changes are compacted to
 *                one change per key (MiniBatchGroupAggFunction): +I(new) for a new key, -U(old)
 *                (with update-before) +U(new) for a changed one (also for an unchanged one when
 *                state TTL is on), -D(old) for one whose rows were all retracted;
 *   WMB_FIRST_PER_KEY / WMB_LAST_PER_KEY  only the first / last row of each key is processed
 *                (ProcTimeMiniBatchDeduplicateKeepFirstRow / KeepLastRow, ChangelogNormalize);
 *   WMB_JOIN     a two-input operator (the regular join) keeps its own buffers: rows go to its
 *                bundle_add hook and a flush calls its bundle_flush; the size limit counts the
 *                rows of both inputs together (Flink's CountCoBundleTrigger), and a watermark of
 *                either input ends the batch.
 * A bundle with a watermark gate (wop_minibatch_set_gate) ends on a watermark only when the gate
 * says so; the gate sees every watermark the operator receives, and the size limit, the end of
 * input and a checkpoint barrier end it as above (the LocalWindowAggregate's buffer: Flink's
 * RecordsWindowBuffer, which its LocalSlicingWindowAggOperator flushes when a watermark fires a
 * buffered slice, whether or not mini-batch is on).
 * Keys are processed in the order Flink's bundle, a java.util.HashMap keyed by the key's
 * BinaryRowData, hands them out (bucket of the key's hashCode, then insertion order).
 *
 * The MiniBatchAssigner (wop_minibatch_assigner_new) emits the boundaries as watermarks, as Flink
 * does: ProcTime mode emits the start of the current interval (processing time rounded down to
 * allow-latency) before the first chunk of every new interval and from its timer (the `tick` the
 * runtime calls between chunks), and drops upstream watermarks except the final one; RowTime mode
 * forwards a watermark only when it reaches the end of the current interval.
 * Depends on operator.h, chunk_groups.h, types/.
 */
#ifndef WEIR_EXEC_MINIBATCH_H
#define WEIR_EXEC_MINIBATCH_H

#include "operator.h"

typedef enum WMiniBatchMode { WMB_FOLD, WMB_COMPACT, WMB_FIRST_PER_KEY, WMB_LAST_PER_KEY, WMB_JOIN } WMiniBatchMode;

typedef struct WMiniBatchSpec {
    WMiniBatchMode mode;
    int64_t size;                   /* table.exec.mini-batch.size (> 0): rows per bundle */
    int nkeys;                      /* the key columns of the input (the bundle's keys) */
    const int *keys;
    int nout_keys;                  /* COMPACT: the output starts with this many key columns;
                                       FOLD: when > 0, the output of a flush is emitted in the order
                                       of a fresh HashMap of these keys (the incremental aggregate) */
    bool generate_update_before;    /* COMPACT: -U(old) before +U(new) (the operator must emit -U) */
    bool emit_unchanged;            /* COMPACT: an unchanged result is emitted again (TTL on) */
} WMiniBatchSpec;

/* Give op (one input; two for WMB_JOIN) a bundle; copies the spec. */
void wop_minibatch_enable(WOperator *op, const WMiniBatchSpec *spec);
/* Decides whether the bundle ends on watermark wm (bundle: the rows held, NULL when none). */
typedef bool (*WMbWatermarkGate)(WOperator *op, int64_t wm, const WChunk *bundle);
/* Give op's bundle (wop_minibatch_enable first) a watermark gate. */
void wop_minibatch_set_gate(WOperator *op, WMbWatermarkGate gate);
/* Whether op's bundle ends on watermark wm (true without a gate); operator.c asks it once per
   watermark the operator receives. */
bool wmb_ends_on_watermark(WOperator *op, int64_t wm);
/* Process op's bundle now (nothing when it is empty or op has none). */
void wop_minibatch_flush(WOperator *op);
/* Framework hooks (operator.c): bundle rows pushed to op; collect what op emits while a compacting
   flush runs (true = taken). */
void wmb_add(WOperator *op, int input, const WChunk *in);
bool wmb_collect(WOperator *op, const WChunk *c);
void wmb_free(WOperator *op);

/* Table length of a java.util.HashMap that held n keys, starting from cap (load factor 0.75). */
int64_t wmb_java_table_length(int64_t cap, int64_t n);

/* The MiniBatchAssigner: interval_ms = table.exec.mini-batch.allow-latency (> 0). */
WOperator *wop_minibatch_assigner_new(WExecCtx *ctx, int64_t interval_ms, bool rowtime, int ncols,
                                      const WType **types, const char **names);

#endif
