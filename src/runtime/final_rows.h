/*
 * final_rows.h — the final rows of a changelog, for sinks in batch execution.
 *
 * Contract: Flink's batch plans are insert-only (a batch GROUP BY is a HashAggregate that writes
 * each group once, at the end), so a batch INSERT INTO an insert-only sink (a filesystem csv table)
 * is accepted and writes the final result. weir runs the streaming operators in batch mode too,
 * so their changelog is applied here instead: wfinal_apply keeps a multiset of rows (+I/+U add a
 * row, -U/-D remove an equal one), and wfinal_flush hands the rows left when the input ended to
 * `emit` as inserts, in the order they were first seen. The input must carry UPDATE_BEFORE with
 * its updates (the planner asks for it, physical.c). Depends on types/ (chunk, row), common/.
 */
#ifndef WEIR_RUNTIME_FINAL_ROWS_H
#define WEIR_RUNTIME_FINAL_ROWS_H

#include <stdbool.h>
#include "../types/chunk.h"

typedef struct WFinalRows WFinalRows;

WFinalRows *wfinal_new(int ncols, const WType **types);
void wfinal_free(WFinalRows *f);
void wfinal_apply(WFinalRows *f, const WChunk *in);
/* Emits the final rows as inserts (chunks valid during the call); stops at the first false. */
bool wfinal_flush(WFinalRows *f, bool (*emit)(void *ctx, const WChunk *c), void *ctx);

#endif
