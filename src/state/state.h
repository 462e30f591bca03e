/*
 * state.h — keyed state: the only place operators keep data across records.
 *
 * Contract: a backend holds the named states of one operator instance (Flink's
 * `groupAggregateState`, `leftState`, ...). As in Flink, the operator sets the current key once
 * per record (wstate_set_key: the key's binary-row bytes, see types/row.h) and then reads and
 * writes its states for that key: value state (one byte string per key), map state (user key ->
 * value per key) and list state (a list of byte strings per key). Keys and values are opaque bytes
 * (binary rows), identical in every backend. Every state has a TTL from the exec graph (0 = never
 * expires) with Flink's meaning: an entry lives at least TTL after its last write (reads do not
 * extend it), an expired entry is never returned, and cleanup is incremental and bounded per
 * access. Lookups say whether an entry was absent or had expired, so operators can count records
 * that arrived for expired state (weir's TTL-accuracy counter). Byte results point into the
 * backend and stay valid until the next write to that state. Sizes (entries, bytes) are tracked
 * per state name. Depends on common/.
 */
#ifndef WEIR_STATE_STATE_H
#define WEIR_STATE_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct WStateBackend WStateBackend;
typedef struct WState WState;

typedef enum WStateKind { WSTATE_VALUE, WSTATE_MAP, WSTATE_LIST } WStateKind;

typedef enum WStateLookup {
    WSL_ABSENT = 0,     /* never written, or cleared */
    WSL_FOUND = 1,
    WSL_EXPIRED = 2     /* existed but its TTL ran out (now removed) */
} WStateLookup;

typedef struct WBytes {
    const void *p;
    size_t len;
} WBytes;

/* Processing-time clock used for TTL (ms). Tests may supply a controllable clock. */
typedef int64_t (*WClockFn)(void *ctx);

typedef struct WStateBackendConfig {
    const char *operator_name;  /* for messages */
    int max_parallelism;        /* key groups */
    WClockFn clock;             /* NULL = wall clock */
    void *clock_ctx;
} WStateBackendConfig;

WStateBackend *wstate_heap_new(const WStateBackendConfig *cfg);
void wstate_backend_free(WStateBackend *b);
int64_t wstate_now(const WStateBackend *b);

/* Register (or find) a named state. ttl_ms 0 = never expires. */
WState *wstate_register(WStateBackend *b, const char *name, WStateKind kind, int64_t ttl_ms);

/* Current key for all following accesses (bytes copied). */
void wstate_set_key(WStateBackend *b, const void *key, size_t len);
WBytes wstate_current_key(const WStateBackend *b);
int wstate_current_key_group(const WStateBackend *b);

/* Value state. */
WStateLookup wvalue_get(WState *s, WBytes *out);
void wvalue_put(WState *s, const void *v, size_t len);
void wvalue_clear(WState *s);

/* Map state: user key -> user value under the current key. */
WStateLookup wmap_get(WState *s, const void *uk, size_t uklen, WBytes *out);
void wmap_put(WState *s, const void *uk, size_t uklen, const void *uv, size_t uvlen);
void wmap_remove(WState *s, const void *uk, size_t uklen);
bool wmap_is_empty(WState *s);                  /* no live entry for the current key */
void wmap_clear(WState *s);
size_t wmap_size(WState *s);                    /* live entries of the current key */
/* Iterate the current key's live entries (order unspecified). Do not write the map meanwhile,
   except wmap_iter_remove on the current entry. */
typedef struct WMapIter { WState *s; void *table; size_t pos; } WMapIter;
void wmap_iter(WState *s, WMapIter *it);
bool wmap_next(WMapIter *it, WBytes *uk, WBytes *uv);
void wmap_iter_remove(WMapIter *it);

/* List state. */
void wlist_add(WState *s, const void *v, size_t len);
/* Items of the current key; returns count, *items valid until the next write. Expired -> 0. */
int wlist_get(WState *s, const WBytes **items, WStateLookup *how);
void wlist_remove_at(WState *s, int index);
void wlist_clear(WState *s);

/* Iterate every key that has an entry in state s (any key group); for timers/cleanup/snapshots.
   The callback may not write to s. */
typedef void (*WStateKeyFn)(void *ctx, WBytes key, WBytes value);
void wstate_for_each(WState *s, WStateKeyFn fn, void *ctx);

/* Sizes for metrics / REST. */
typedef struct WStateStats {
    const char *name;
    WStateKind kind;
    int64_t ttl_ms;
    int64_t entries;            /* keys (value/list) or user entries (map) */
    int64_t bytes;              /* key + value bytes held */
    int64_t expired_reads;      /* lookups that found an expired entry */
} WStateStats;
int wstate_stats(const WStateBackend *b, WStateStats *out, int max);

#endif
