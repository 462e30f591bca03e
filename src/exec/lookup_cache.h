/*
 * lookup_cache.h — the PARTIAL cache of a lookup join (Flink's DefaultLookupCache): key bytes ->
 * the dim rows fetched for that key (encoded binary rows), at most max_rows keys (the least
 * recently used one is evicted), an entry expiring expire_after_write_ms after it was stored or
 * expire_after_access_ms after its last hit (0 = never). Times come from the caller (the job's
 * processing-time clock). Counts hits, misses and entries for the metrics. Depends on common/.
 */
#ifndef WEIR_EXEC_LOOKUP_CACHE_H
#define WEIR_EXEC_LOOKUP_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct WLookupCacheSpec {
    int64_t max_rows;               /* 0 = unbounded */
    int64_t expire_after_write_ms;  /* 0 = never */
    int64_t expire_after_access_ms; /* 0 = never */
} WLookupCacheSpec;

typedef struct WLookupCache WLookupCache;

/* The rows of one cached key: n encoded rows, row i at rows[i] with len[i] bytes. */
typedef struct WLookupRows {
    int n;
    const uint8_t *const *rows;
    const size_t *len;
} WLookupRows;

WLookupCache *wlookup_cache_new(const WLookupCacheSpec *spec);
void wlookup_cache_free(WLookupCache *c);
/* The rows cached for key (valid until the next put), false when absent or expired (then
   dropped). Counts a hit or a miss. */
bool wlookup_cache_get(WLookupCache *c, const void *key, size_t klen, int64_t now_ms, WLookupRows *out);
/* Store the rows of key (copied), replacing an older entry; evicts the least recently used
   key beyond max_rows. */
void wlookup_cache_put(WLookupCache *c, const void *key, size_t klen, int n, const uint8_t *const *rows,
                       const size_t *len, int64_t now_ms);
typedef struct WLookupCacheStats {
    int64_t hits, misses, entries;
} WLookupCacheStats;
WLookupCacheStats wlookup_cache_stats(const WLookupCache *c);

#endif
