/*
 * join_state.h — the record state views of the regular streaming join (Flink's
 * JoinRecordStateViews / OuterJoinRecordStateViews), kept in keyed state (state.h) under the
 * backend's current key (the join key).
 *
 * Shapes (one named state per input side, e.g. leftState):
 *   JOINKEY_CONTAINS_UK  value state: the single row of the join key
 *                        (outer: row ++ int32 number of associations)
 *   HAS_UK               map state: unique-key row -> row (outer: row ++ int32 associations)
 *   NO_UK                map state: row -> int32 occurrences (outer: int32 occurrences ++
 *                        int32 associations)
 * Rows and unique keys are binary rows (types/row.h) written with RowKind INSERT; the int32s are
 * little-endian. The "associations" of a record of an outer side is the number of records of the
 * other side it currently joins with (Flink's numOfAssociations, -1 when unknown). Every lookup
 * that meets an expired entry is counted in `expired` (for the TTL-accuracy counter).
 * Depends on state/, common/.
 */
#ifndef WEIR_EXEC_JOIN_STATE_H
#define WEIR_EXEC_JOIN_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../state/state.h"
#include "../common/arena.h"
#include "../common/strbuf.h"

typedef enum WJoinViewKind {
    WJV_JOINKEY_CONTAINS_UK,
    WJV_HAS_UK,
    WJV_NO_UK
} WJoinViewKind;

/* One stored record of the current join key, as collected (bytes copied into an arena). */
typedef struct WJoinEntry {
    const void *id;         /* map user key (unique key or row); NULL for the value view */
    size_t idlen;
    const void *row;        /* binary row */
    size_t rowlen;
    int32_t count;          /* occurrences (NO_UK), else 1 */
    int32_t assoc;          /* associations (outer views), else -1 */
} WJoinEntry;

typedef struct WJoinView {
    WState *st;
    WJoinViewKind kind;
    bool outer;             /* keeps the number of associations per record */
    WStrBuf tmp;            /* value being written */
    WJoinEntry *ents;       /* collect() result, reused */
    int cap;
    int64_t expired;        /* lookups that met an expired entry */
    int64_t unknown_retracts; /* retractions of a record absent from the map views */
    double rows_per_lookup; /* NO_UK: running average of the records a lookup's key held
                               (WMapRef.key_entries; wjview_reads_ahead) */
} WJoinView;

void wjview_init(WJoinView *v, WStateBackend *b, const char *name, WJoinViewKind kind, bool outer,
                 int64_t ttl_ms);
void wjview_free(WJoinView *v);
/* Whether the view's record lookups are worth reading ahead (prefetch.h wmap_prefetch): NO_UK,
   its state outgrew the caches and its lookups search keys of many records. */
bool wjview_reads_ahead(const WJoinView *v);

/* Add a record (row = binary row; uk = its unique-key row, HAS_UK only). assoc is stored by outer
   views (Flink's addRecord(record, numOfAssociations)); NO_UK outer views overwrite the
   associations of an existing row with it, as Flink does. */
void wjview_add(WJoinView *v, const void *row, size_t rowlen, const void *uk, size_t uklen,
                int32_t assoc);
/* Retract one occurrence of a record (absent records are ignored). */
void wjview_retract(WJoinView *v, const void *row, size_t rowlen, const void *uk, size_t uklen);
/* The same with the record's wmap_key_hash known (NO_UK views look records up by it). */
void wjview_add_hashed(WJoinView *v, const void *row, size_t rowlen, uint64_t rowhash, const void *uk,
                       size_t uklen, int32_t assoc);
void wjview_retract_hashed(WJoinView *v, const void *row, size_t rowlen, uint64_t rowhash, const void *uk,
                           size_t uklen);
/* Whether a record with this unique key is stored (HAS_UK only; false for the other kinds). */
bool wjview_has_uk(WJoinView *v, const void *uk, size_t uklen);
/* Set the number of associations of a collected record (outer views). */
void wjview_update_assoc(WJoinView *v, const WJoinEntry *e, int32_t assoc);
/* The number of associations currently stored for a collected record (outer views; the
   collected value when the record is gone). */
int32_t wjview_assoc(WJoinView *v, const WJoinEntry *e);
/* Copy the current key's records into arena a; returns the number of distinct entries and sets
   *out to them (valid until the next collect or wjview_free). NO_UK entries carry their count. */
int wjview_collect(WJoinView *v, WArena *a, WJoinEntry **out);

#endif
