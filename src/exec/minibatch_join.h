/*
 * minibatch_join.h — the input buffer of the mini-batch regular join, one per input side: Flink
 * 2.3's BufferBundle (JoinKeyContainsUniqueKeyBundle, InputSideHasUniqueKeyBundle,
 * InputSideHasNoUniqueKeyBundle) of MiniBatchStreamingJoinOperator.
 *
 * Contract. wjbundle_add buffers a row (deep copy) under its join key and folds it as Flink does:
 *   JOINKEY_CONTAINS_UK / HAS_UK (per join key / per unique key): the last buffered row decides —
 *     accumulate (+I/+U) then retract (-U/-D): both go; accumulate then accumulate, or retract
 *     then retract: only the new one stays; retract then accumulate: both stay;
 *   NO_UK: a row cancels the latest earlier buffered row of the same join key that is equal to it
 *     (all columns) and of the opposite kind (accumulate vs retract), else it is buffered.
 * wjbundle_order lists the buffered rows in the order Flink processes them at the batch boundary,
 * with Flink's `isSuppress` flag (processElementWithSuppress: a retraction directly followed by an
 * accumulation of the same unique key, both flagged). Keys come in the order of Flink's
 * java.util.HashMaps keyed by BinaryRowData (bucket of the spread hashCode, then newest first: computeIfAbsent heads the bucket;
 * the bundle's map of join keys keeps its table length across batches, the maps created in a
 * batch start at 16; NO_UK goes through a fresh map of join keys and a map of record hashCodes).
 * Callers pass the binary rows (types/row.h, kind INSERT) of the join key, the unique key and the
 * record. Depends on join_state.h (the view kinds), types/, common/.
 */
#ifndef WEIR_EXEC_MINIBATCH_JOIN_H
#define WEIR_EXEC_MINIBATCH_JOIN_H

#include "join_state.h"
#include "../types/chunk.h"

typedef struct WJoinBundle WJoinBundle;

WJoinBundle *wjbundle_new(WJoinViewKind kind, int ncols, const WType **types);
void wjbundle_free(WJoinBundle *b);
/* Buffer row r of c: jk / uk / rec are its join key, unique key (HAS_UK; else ignored) and
   record as binary rows. */
void wjbundle_add(WJoinBundle *b, const WChunk *c, int r, const void *jk, size_t jklen,
                  const void *uk, size_t uklen, const void *rec, size_t reclen);
/* Rows added since the last clear (folded ones included; Flink's isEmpty is count == 0). */
int64_t wjbundle_count(const WJoinBundle *b);
/* The buffered rows in processing order as a chunk (shallow, valid until the next add or clear),
   *suppress[i] the flag of row i. */
const WChunk *wjbundle_order(WJoinBundle *b, const uint8_t **suppress);
/* Empty the bundle (the join-key map keeps its table length, as a cleared HashMap). */
void wjbundle_clear(WJoinBundle *b);

#endif
