/*
 * prefetch.h — hints that overlap the cache misses of upcoming value- and map-state lookups.
 *
 * Contract: an operator that knows the keys it will look up next (a chunk's keys, hashed with
 * wstate_key_hash) announces them a few lookups ahead: wstate_prefetch_slot brings in the table
 * slot the key's lookup starts at, wstate_prefetch_entry (issued later, once that slot arrived)
 * the entry it points to (for map state also the lines after it, where the key's table of user
 * entries was allocated with it). They change nothing (any later write may make them useless,
 * never wrong); the RocksDB backend ignores them. Timers read ahead too (timers.h,
 * wtimers_advance_ahead). Depends on state.h.
 */
#ifndef WEIR_STATE_PREFETCH_H
#define WEIR_STATE_PREFETCH_H

#include "state.h"

void wstate_prefetch_slot(const WState *s, uint64_t hash);
void wstate_prefetch_entry(const WState *s, uint64_t hash);
/* Map state: user key uk of key `key` (klen bytes, khash = its wstate_key_hash) will be looked
   up soon: the first slot of the lookup in key's table of user entries, or (entry) the entry
   there, as above. `where` (may be NULL) remembers where key's map was found, for the next
   read-ahead under the same key: zeroed by the caller for a key it has not read ahead yet, then
   kept as the call left it (the backend checks it is still valid before it uses it). */
typedef struct WMapWhere { const void *table; uint64_t gen; } WMapWhere;
void wmap_prefetch(WState *s, const void *key, size_t klen, uint64_t khash, WMapWhere *where,
                   const void *uk, size_t uklen, bool entry);

#endif
