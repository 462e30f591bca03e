/*
 * prefetch.h — hints that overlap the cache misses of upcoming value- and map-state lookups.
 *
 * Contract: an operator that knows the keys it will look up next (a chunk's keys, hashed with
 * wstate_key_hash) announces them a few lookups ahead: wstate_prefetch_slot brings in the table
 * slot the key's lookup starts at, wstate_prefetch_entry (issued later, once that slot arrived)
 * the entry it points to (for map state also the lines after it, where the key's table of user
 * entries was allocated with it). They change nothing (any later write may make them useless,
 * never wrong); the RocksDB backend ignores them. Depends on state.h.
 */
#ifndef WEIR_STATE_PREFETCH_H
#define WEIR_STATE_PREFETCH_H

#include "state.h"

void wstate_prefetch_slot(const WState *s, uint64_t hash);
void wstate_prefetch_entry(const WState *s, uint64_t hash);

#endif
