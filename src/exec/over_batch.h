/*
 * over_batch.h — the batch OverAggregate (Flink's BatchExecOverAggregate): every OVER window
 * with any ORDER BY, PARTITION BY or none, ROWS and RANGE frames, ranking functions, NTILE,
 * LAG / LEAD and aggregates over frames (plan/over_window.h describes the windows). The frame
 * arithmetic (over_frame.c) is separate so it can be tested on its own.
 * Depends on exec/operator.h, exec/stateful.h (WOpSchema), exec/sort_buffer.h, plan/over_window.h.
 */
#ifndef WEIR_EXEC_OVER_BATCH_H
#define WEIR_EXEC_OVER_BATCH_H

#include "operator.h"
#include "stateful.h"
#include "sort_buffer.h"
#include "../plan/over_window.h"

/* ---- frames (over_frame.c) ---- */

/* One sorted partition of n rows as the frame arithmetic sees it. */
typedef struct WOverPart {
    int64_t n;
    const int64_t *peer_lo, *peer_hi;   /* per row: first / last row of its peer group (rows with
                                           equal order keys; the whole partition without ORDER BY) */
    const double *key;                  /* RANGE offsets: the single order key as a number,
                                           negated for DESC (so it ascends); may be NULL otherwise */
    const uint8_t *key_null;            /* per row: the order key is NULL */
} WOverPart;

/* The frame of row i: rows [*lo, *hi] of the partition; false when it is empty. ROWS counts
   rows; RANGE CURRENT ROW means the row's peers, n PRECEDING / FOLLOWING the rows whose key is
   within key - n / key + n (a row with a NULL key frames only its NULL peers there). */
bool wover_frame(const WOverWindow *w, const WOverPart *p, int64_t i, int64_t *lo, int64_t *hi);
/* NTILE(buckets) of row i among n (1-based; the first n % buckets buckets hold one row more). */
int64_t wover_ntile(int64_t n, int64_t buckets, int64_t i);

/* ---- the operator (over_batch.c) ----
   Keeps the input's final rows (-U / -D remove an equal earlier row); at the end of input sorts
   them by the partition keys (ASC NULLS FIRST) then the order keys, evaluates every window per
   partition and emits each row (+I) with its results, in that order. */
typedef struct WOverBatchSpec {
    int in_ncols;
    const WType **in_types;
    int nkeys;
    const int *keys;                    /* partition keys */
    int nsort;
    const WSortKeySpec *sort;           /* order keys */
    const WOverSpec *over;
    WOpSchema out;
} WOverBatchSpec;
WOperator *wop_over_batch_new(WExecCtx *ctx, const WOverBatchSpec *spec);

#endif
