/*
 * partial_agg.h — what the two-phase aggregates share (stateful.h / windowed.h:
 * LocalGroupAggregate, LocalWindowAggregate, GlobalGroupAggregate, IncrementalGroupAggregate).
 *
 * Spec checks: the column indexes a spec names and whether its calls merge from partial
 * accumulators, each failure an error "<operator>: ..." (WEXC_TABLE) as the operators always
 * reported it.
 *
 * The local combiner (WLocalCombiner) is the body of the two local aggregates: one process()
 * call groups the chunk's rows (the operator's own rule: by key, or by key and slice end, into
 * WLocalGroup records that chunk_groups.h holds), then every row accumulates into fresh
 * accumulators of its group (accumulators.h) in input order, and one +I row per group, in order
 * of first appearance, carries the group's keys (the values of its first row) and its partial
 * accumulators (plan/agg_rules.h; then, for the window aggregate, the slice end) to the output.
 * Data views (DISTINCT value maps, MIN/MAX value counts) live in the combiner's keyed-state
 * backend only while the chunk is processed, keyed by the group's key bytes, and are cleared
 * when the group's row is written: nothing is kept across calls. The operator embeds the
 * combiner, fills P (its partial layout, in parena) before wlc_open and frees it with wlc_free.
 * Depends on stateful.h (WOpSchema, WAggCall), accumulators.h, chunk_groups.h, plan/agg_rules.h.
 */
#ifndef WEIR_EXEC_PARTIAL_AGG_H
#define WEIR_EXEC_PARTIAL_AGG_H

#include "stateful.h"
#include "accumulators.h"
#include "chunk_groups.h"

/* Every key column in [0, ncols); else "<op_name>: <what> column %d out of range". */
bool wagg_check_key_cols(WError *err, const char *op_name, const char *what, const int *keys, int nkeys,
                         int ncols);
/* Every call's arguments (and with check_filter its FILTER column) within the ncols columns of
   the row the calls read, and every call mergeable from partial accumulators (wagg_mergeable
   with retracts); else the first failure as "<op_name>: ..." */
bool wagg_check_partial_calls(WError *err, const char *op_name, const WAggCall *aggs, int naggs, int ncols,
                              bool check_filter, bool retracts);

/* A group of one chunk (WChunkGroups record). */
typedef struct WLocalGroup {
    WGroupKey key;                  /* first: chunk_groups.h */
    int first_row;
    int64_t slice_end;              /* LocalWindowAggregate: the group's slice end */
    WDatum *acc;                    /* NULL until its first row accumulates */
    uint8_t *nulls;
} WLocalGroup;

typedef struct WLocalCombiner {
    int nkeys;
    int *keys;                      /* input columns of the keys */
    WStateBackend *backend;         /* data views, per chunk only */
    WAccLayout *L;
    WAccCtx ac;
    WArena scratch;
    WArena parena;                  /* the partial layout */
    WAggPartial P;
    WChunk *out;
    /* per call */
    WChunkGroups cg;                /* table, rows, key bytes; groups aliases cg.groups */
    WLocalGroup *groups;
    WStrBuf tmp;
    int64_t rows_combined;          /* combinedRecords: rows minus groups */
} WLocalCombiner;

/* The rest of the combiner once P is laid out (in parena, which the caller initialised): the
   keys copied, the backend (wexec_new_backend(ctx, op_name)), the output chunk, the accumulator
   layout (its states named state_name) and context. False with ctx->err set when the layout
   fails; wlc_free frees what was made either way. */
bool wlc_open(WLocalCombiner *c, WExecCtx *ctx, const char *op_name, const char *state_name, int nkeys,
              const int *keys, const WAggCall *aggs, int naggs, const WType **in_types, bool retracts,
              const WOpSchema *out);
void wlc_free(WLocalCombiner *c);

/* Ready for a chunk of nrows rows: scratch emptied, the clock read, no groups. */
void wlc_begin(WLocalCombiner *c, WExecCtx *ctx, int nrows);
/* Group gi just added for row r (wcg_find_or_add or the operator's own table): its record set
   up without accumulators. */
static inline WLocalGroup *wlc_new_group(WLocalCombiner *c, int gi, int r)
{
    WLocalGroup *n = &c->groups[gi];
    n->first_row = r;
    n->acc = NULL;
    n->nulls = NULL;
    return n;
}
/* Every row of in (grouped: c->cg.rows[r] is its group) accumulated into its group, a retraction
   retracted; with insert_only_op set, a retraction is instead the error "<insert_only_op>
   received a <-U|-D> row but its input was planned insert-only" (false). */
bool wlc_accumulate(WLocalCombiner *c, const WChunk *in, const char *insert_only_op, WError *err);
/* One +I row per group emitted by op: keys, partial accumulators, then (slice_col >= 0) the
   group's slice end as a BIGINT in column slice_col; the data views cleared. */
void wlc_emit(WLocalCombiner *c, WOperator *op, const WChunk *in, int slice_col);

#endif
