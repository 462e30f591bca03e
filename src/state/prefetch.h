/*
 * prefetch.h — hints that overlap the cache misses of upcoming value- and map-state lookups.
 *
 * Contract: an operator that knows the keys it will look up next (a chunk's keys, hashed with
 * wstate_key_hash) announces them a few lookups ahead: wstate_prefetch_slot brings in the table
 * slot the key's lookup starts at, wstate_prefetch_entry (issued later, once that slot arrived)
 * the entry it points to (for map state also the lines after it, where the key's first user entry
 * was allocated with it). They change nothing (any later write may make them useless,
 * never wrong); the RocksDB backend ignores them. Timers read ahead too (timers.h,
 * wtimers_advance_ahead). Depends on state.h.
 */
#ifndef WEIR_STATE_PREFETCH_H
#define WEIR_STATE_PREFETCH_H

#include "state.h"

/* Whether s has outgrown the CPU caches, so that read-ahead pays for its own work (the heap
   backend: its entries' bytes, with their tables, above half the usable last-level cache; RocksDB: no).
   A state that fits is read from the caches anyway, and its read-ahead would be overhead only. */
bool wstate_outgrows_cache(const WState *s);
void wstate_prefetch_slot(const WState *s, uint64_t hash);
void wstate_prefetch_entry(const WState *s, uint64_t hash);
/* Value state: the keys (binary keys as given to wstate_set_key; hashes: their wstate_key_hash,
   or NULL) whose values will be looked up next, e.g. a chunk's. A backend that reads from storage (RocksDB) reads those it has not in
   memory in one batch (MultiGet) into its write-back cache; the heap backend has no such step
   (wstate_loads_values false: the caller need not gather the keys). Changes nothing visible;
   later lookups of other keys may evict what was read. */
bool wstate_loads_values(const WState *s);
void wstate_load_values(WState *s, const WBytes *keys, const uint64_t *hashes, int n);
/* Map state: a user key whose wmap_key_hash is ukhash will be looked up under key `key` (klen
   bytes, khash = its wstate_key_hash) soon. A lookup misses up to three times when key's maps are
   many and large — key's table of user entries (its header), the slot the lookup starts at, the
   entry there — so its read-ahead comes in three stages, issued in this order some lookups apart,
   each reading what the one before brought in: WMAP_PREFETCH_TABLE, _SLOT, _ENTRY. `where` (may
   be NULL) remembers where key's map was found, for the next read-ahead under the same key:
   zeroed by the caller for a key it has not read ahead yet, then kept as the call left it (the
   backend checks it is still valid before it uses it). */
typedef struct WMapWhere {
    const void *table;          /* key's map, found at maps_freed count gen */
    uint64_t gen;
    WKeyHint top;               /* where key's entry was found (state.h WKeyHint): a caller that
                                   keeps one WMapWhere per key passes &top to wmap_ref_hinted, so
                                   that its first read of the key after the read-ahead does not
                                   look the key up again */
} WMapWhere;
/* Whether map state s has outgrown the caches and its lookups search maps of many user entries
   (entries_per_lookup: the caller's running average of WMapRef.key_entries), so that a lookup
   may miss in its key's map too, not only at the key, and wmap_prefetch's stages may pay. A
   necessary condition, not a sufficient one: Nexmark q7's and q20's join states both pass it
   (659 and 383 entries per lookup), and the stages save q7 17 % and cost q20 5-10 % (its hot
   auctions' maps stay in the caches); the join measures which (exec/join.c, AheadTune). */
bool wmap_outgrows_cache(const WState *s, double entries_per_lookup);
typedef enum WMapPrefetch { WMAP_PREFETCH_TABLE, WMAP_PREFETCH_SLOT, WMAP_PREFETCH_ENTRY } WMapPrefetch;
void wmap_prefetch(WState *s, const void *key, size_t klen, uint64_t khash, WMapWhere *where,
                   uint64_t ukhash, WMapPrefetch stage);

#endif
