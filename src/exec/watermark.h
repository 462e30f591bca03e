/* watermark.h — the WatermarkAssigner operator; see watermark.c. */
#ifndef WEIR_EXEC_WATERMARK_H
#define WEIR_EXEC_WATERMARK_H

#include "operator.h"

/* Where the source tells which split (Kafka partition) the chunk being pushed came from; the
   fields of its WSource (connector.h: split_watermarks), read during the push. */
typedef struct WWmSplits {
    const int *nsplits;                 /* splits so far (only grows) */
    const int *split;                   /* the split of the chunk being pushed */
    const uint8_t *const *finished;     /* per split: read to its end (may point to NULL) */
    /* the split's name for insight (Flink's split id, "<topic>-<partition>"); optional */
    void (*label)(void *label_ctx, int split, char *buf, size_t bufsz);
    void *label_ctx;
} WWmSplits;

/* Where the rows of the chunk being pushed come from (insight: rows behind the watermark by
   origin): the source's split or file index and its name; id NULL when not known. */
typedef struct WWmOrigin {
    const int *id;
    void (*label)(void *label_ctx, int id, char *buf, size_t bufsz);
    void *label_ctx;
} WWmOrigin;

typedef struct WWmConfig {
    int rowtime_col;            /* the rowtime column (rows not after the pending watermark cut the
                                   chunk), -1 none */
    WWmSplits splits;           /* nsplits NULL: one watermark for the whole input */
    bool periodic;              /* scan.watermark.emit.strategy on-periodic: emitted every interval_ms */
    int64_t interval_ms;        /* pipeline.auto-watermark-interval (0: never periodically) */
    int64_t idle_timeout_ms;    /* a split without rows that long is idle (0: never) */
    bool every_record;          /* cut the chunk at every advance, not only before late rows (a
                                   downstream operator acts on each of Flink's per-record watermarks) */
    int64_t trigger_interval_ms;  /* > 0: also cut where the watermark crosses k * interval - 1 (or
                                   first reaches 0): a LocalWindowAggregate downstream flushes its
                                   buffer at such a per-record watermark of Flink's */
    WWmOrigin origin;           /* where the pushed chunk's rows come from (insight) */
} WWmConfig;

WOperator *wop_watermark_new(WExecCtx *ctx, WExpr *expr, const WWmConfig *cfg, int ncols, const WType **types,
                             const char **names);

#endif
