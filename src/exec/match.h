/*
 * match.h — the Match operator (MATCH_RECOGNIZE, ONE ROW PER MATCH), Flink's StreamExecMatch /
 * CepOperator (match.c; the NFA in match_nfa.h).
 *
 * Contract: input rows are partitioned by the partition keys; per key, event-time rows wait until
 * the watermark passes them (rows not after the current watermark are late: dropped and counted),
 * then run through the NFA in time order (ties by the secondary ORDER BY keys, then arrival);
 * processing-time rows run at once in arrival order. Each completed match emits one insert row:
 * the partition key values, then the measures. The per-key state is keyed state (checkpointed),
 * with the names of Flink's CepOperator / SharedBuffer: eventQueuesStateName (map: time -> rows
 * waiting for the watermark, one event-time timer per time), nfaStateName (value: the NFA's
 * partial and waiting matches) and sharedBuffer-events (map: row number -> a row some partial match
 * holds). With WITHIN, a key with partial matches also gets a timer at the next watermark, so
 * partial matches time out then (CepOperator's watermark + 1 timer). Depends on exec/operator.h,
 * exec/sort_buffer.h, plan/match_spec.h.
 */
#ifndef WEIR_EXEC_MATCH_H
#define WEIR_EXEC_MATCH_H

#include "operator.h"
#include "sort_buffer.h"
#include "../plan/match_spec.h"

typedef struct WMatchOpSpec {
    int in_ncols;
    const WType **in_types;
    int nkeys;
    const int *keys;            /* partition columns */
    int norder;
    const WSortKeySpec *order;  /* ORDER BY (the first is the time attribute) */
    const WMatchSpec *spec;
    int out_ncols;
    const WType **out_types;
    const char **out_names;
} WMatchOpSpec;

WOperator *wop_match_new(WExecCtx *ctx, const WMatchOpSpec *spec);

#endif
