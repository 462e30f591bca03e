/*
 * acc_cache.h — GroupAggregate's accumulators kept decoded between chunks (issue 16's "accumulators
 * stay decoded between chunks"): a bounded table of the keys last aggregated, each with its
 * state key (the key's binary row and its state hash), its key values and its accumulators as
 * WDatums, their strings held by the entry. An entry marked dirty holds accumulators newer than
 * the keyed state's copy; the owner writes those back (before a checkpoint snapshots the state,
 * before its state sizes are read, at the end of its input, and when it empties the table).
 *
 * Contract: the table only stores and finds; what a key equals and when entries are written back
 * are the owner's (exec/group_agg.c). Values of composite types (ROW, ARRAY, MAP, MULTISET) are
 * not supported (wacc_cache_supports). Not thread-safe: one owner. Depends on types/, common/.
 */
#ifndef WEIR_EXEC_ACC_CACHE_H
#define WEIR_EXEC_ACC_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../types/chunk.h"

typedef struct WAccCached {
    uint64_t hash;              /* the owner's lookup hash of the key */
    uint64_t shash;             /* the state's hash of key (wstate_key_hash) */
    uint32_t klen;
    bool dirty;                 /* acc is newer than the keyed state's copy */
    unsigned char *key;         /* the state key: the key's binary row, klen bytes */
    WDatum *kvals;              /* the key's values (nkeys; strings in this entry) */
    uint8_t *knulls;
    WDatum *acc;                /* the accumulators (nfields), updated in place by the owner */
    uint8_t *nulls;
    char **sbuf;                /* per accumulator field: the entry's copy of its string (or NULL) */
    uint32_t *scap;             /* and that copy's capacity */
} WAccCached;

typedef struct WAccCache {
    int nkeys, nfields;
    const WType **ktypes, **ftypes;
    int nstr, *str_fields;      /* the accumulator fields of string types */
    WAccCached **slots;         /* open addressing by hash, linear probing; NULL = empty */
    size_t cap, n, max;         /* cap: slots (>= 2n); max: entries held at most (wacc_cache_add
                                   refuses beyond) */
} WAccCache;

/* Whether keys and accumulator fields of these types can be held (no composite values). */
bool wacc_cache_supports(int nkeys, const WType **ktypes, int nfields, const WType **ftypes);
void wacc_cache_init(WAccCache *c, int nkeys, const WType **ktypes, int nfields, const WType **ftypes,
                     size_t max);
void wacc_cache_free(WAccCache *c);
/* The entries of hash h, one per call: *pos starts at 0 and is advanced; NULL after the last. */
WAccCached *wacc_cache_next_of(const WAccCache *c, uint64_t h, size_t *pos);
/* Read ahead the first entry a lookup of hash h visits. */
void wacc_cache_prefetch(const WAccCache *c, uint64_t h);
/* A new entry (clean) with copies of the key and the accumulators; NULL when the table is full. */
WAccCached *wacc_cache_add(WAccCache *c, uint64_t h, uint64_t shash, const void *key, size_t klen,
                           const WDatum *kvals, const uint8_t *knulls, const WDatum *acc, const uint8_t *nulls);
/* The entry's accumulator strings that are not its own copies (set by an update) copied into it. */
void wacc_cache_own(const WAccCache *c, WAccCached *e);
void wacc_cache_remove(WAccCache *c, WAccCached *e);
/* Every entry dropped (written back or not: the owner's call). */
void wacc_cache_clear(WAccCache *c);

#endif
