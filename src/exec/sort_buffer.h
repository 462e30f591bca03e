/*
 * sort_buffer.h — rows held by the sort operators (batch Sort / SortLimit / Limit in sort.c,
 * TemporalSort in temporal_sort.c, the bounded OverAggregate in over_batch.c) until they are
 * emitted in order.
 *
 * Contract: a WSortBuf owns deep copies of the rows added to it (in chunks of its own), numbered
 * in arrival order. A row can be removed again by value (the latest equal live row, found through
 * a hash index when the buffer was created with `indexed`), or by number (wsortbuf_kill).
 * wsortbuf_sort orders row numbers by the sort keys (Flink's comparator: ASC/DESC, NULLS
 * FIRST/LAST per key), stably: rows with equal keys keep their arrival order. Killed rows are
 * dropped from storage by wsortbuf_compact, which renumbers the live rows in arrival order.
 * The row-list helpers below encode rows for keyed state (types/row). Depends on types/ (chunk,
 * compare, row) and common/.
 */
#ifndef WEIR_EXEC_SORT_BUFFER_H
#define WEIR_EXEC_SORT_BUFFER_H

#include <stdbool.h>
#include <stdint.h>
#include "../types/chunk.h"
#include "../common/arena.h"
#include "../common/strbuf.h"

typedef struct WSortKeySpec { int col; bool desc; bool nulls_first; } WSortKeySpec;

typedef struct WSortBuf {
    int ncols;
    const WType **types;            /* not owned */
    int nkeys;
    WSortKeySpec *keys;
    WChunk **chunks;                /* storage, append-only between compactions */
    int nchunks, capchunks;
    int64_t n, cap;                 /* rows ever added since the last compaction */
    int32_t *chunk_of, *row_of;
    uint8_t *dead;
    int64_t live;
    bool indexed;                   /* hash index for wsortbuf_remove */
    int64_t nbuckets;
    int64_t *heads, *next;          /* chains, newest first; -1 ends */
    uint64_t *hash;
} WSortBuf;

void wsortbuf_init(WSortBuf *b, int ncols, const WType **types, int nkeys, const WSortKeySpec *keys, bool indexed);
void wsortbuf_free(WSortBuf *b);
/* Copy row `row` of c (all columns); returns its number. */
int64_t wsortbuf_add(WSortBuf *b, const WChunk *c, int row);
/* Remove the latest live row equal (all columns, NULL equals NULL) to row `row` of c; false when
   there is none. Needs an indexed buffer. */
bool wsortbuf_remove(WSortBuf *b, const WChunk *c, int row);
void wsortbuf_kill(WSortBuf *b, int64_t i);
bool wsortbuf_is_live(const WSortBuf *b, int64_t i);
/* Value of column col of row i. */
WDatum wsortbuf_get(const WSortBuf *b, int64_t i, int col, bool *is_null);
/* Compare rows i and j by the sort keys starting at key `from` (<0, 0, >0). */
int wsortbuf_cmp(const WSortBuf *b, int64_t i, int64_t j, int from);
/* Sort the row numbers idx[0..n) by the keys from key `from` on, stably (ties keep idx order). */
void wsortbuf_sort(const WSortBuf *b, int64_t *idx, int64_t n, int from);
/* Append row i to out (deep copy) with row kind k; false when out is full. */
bool wsortbuf_emit_to(const WSortBuf *b, int64_t i, WChunk *out, WRowKind k);
/* Drop killed rows from storage (live rows are renumbered 0..live-1 in arrival order). */
void wsortbuf_compact(WSortBuf *b);
/* A changelog chunk applied (Sort, OverAggregate over a bounded input): insertions (+I/+U) added,
   retractions (-U/-D) removed as wsortbuf_remove does (an indexed buffer); returns how many
   retractions found no equal row. Once dead rows outnumber the live ones (past 4096 rows) they
   are compacted away (a retraction-heavy input). */
int64_t wsortbuf_apply(WSortBuf *b, const WChunk *c);
/* idx (room for b->live numbers) filled with the live rows' numbers, sorted by every key
   (wsortbuf_sort); returns how many. */
int64_t wsortbuf_sorted_live(const WSortBuf *b, int64_t *idx);

/* ---- rows in keyed state (additive) ----
   A row list as the buffering operators keep it in map state (TemporalSort's dataState, Match's
   eventQueuesStateName: time -> rows): [u32 length][binary row of every column]..., in arrival
   order. wrowlist_append appends row `row` of c (scratch: an encoding buffer). wrowlist_decode
   appends the rows of a list value to *dst (grown as needed; schema ncols/types) with kind +I;
   their variable-length values live in arena a (the bytes are copied there first). Returns the
   number of rows, -1 for a malformed value. */
void wrowlist_append(WStrBuf *list, const WChunk *c, int row, WStrBuf *scratch);
int wrowlist_decode(const void *p, size_t len, WChunk **dst, int ncols, const WType **types, WArena *a);
/* Decode one binary row (all columns) as the next row of *dst, like wrowlist_decode. */
bool wrow_decode_into(const void *p, size_t len, WChunk **dst, int ncols, const WType **types, WArena *a);
/* Sort idx[0..n) (row numbers of c) by keys[from..nkeys), stably (Flink's comparator as above). */
void wsort_chunk_rows(const WChunk *c, const WSortKeySpec *keys, int nkeys, int from, int *idx, int n);

#endif
