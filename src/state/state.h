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
#include "../common/error.h"
#include "../common/hash.h"
#include "../common/options.h"

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
    int64_t memory_limit;       /* weir.state.memory-limit: heap state bytes (keys + values of every
                                   state of this backend) allowed; 0 = no limit. Passing it sets
                                   *limit_err once, naming the operator (the job then fails) */
    WError *limit_err;
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

/* Current key with its hash: hash must be wstate_key_hash(key, len) (an operator that hashed the
   key already, e.g. for its per-chunk grouping, passes it on instead of hashing twice). */
void wstate_set_key_hashed(WStateBackend *b, const void *key, size_t len, uint64_t hash);
/* The hash the heap backend files a key under: whash_bytes(key, len, WSTATE_KEY_SEED), so a
   fixed-width key can be hashed from its 8-byte words (whash_words_*, common/hash.h). */
#define WSTATE_KEY_SEED 0x5eedULL
uint64_t wstate_key_hash(const void *key, size_t len);
/* wstate_key_hash of the n 8-byte words at w (a fixed-width binary row), inline from its words:
   keys hashed per row. */
static inline uint64_t wstate_key_hash_words(const uint64_t *w, size_t n) { return whash_words(w, n, WSTATE_KEY_SEED); }

/* Value state. */
WStateLookup wvalue_get(WState *s, WBytes *out);
void wvalue_put(WState *s, const void *v, size_t len);
void wvalue_clear(WState *s);

/* Value state, get-for-update: a read-modify-write of the current key's value with one lookup.
   wvalue_ref looks the key up (TTL as wvalue_get) and fills r: how, and cur = the stored value
   when found. Then at most one of: wvalue_ref_reserve(r, len) makes the value len bytes long
   (created when absent; its first bytes are the stored ones, the rest unspecified) and returns a
   pointer, 8-byte aligned, to update them in place, followed by wvalue_ref_commit(r) (the write:
   last-write time for TTL, size accounting and memory limit, RocksDB's put); wvalue_ref_put
   (reserve + copy + commit); or wvalue_ref_clear. Until then neither the current key nor s may
   be changed or read otherwise (other states may). The heap backend updates the entry found by
   the lookup (value inline in the entry, no second probe); RocksDB reads the value into a buffer
   of the state and writes it back on commit. */
typedef struct WValueRef {
    WState *s;
    WStateLookup how;
    WBytes cur;             /* the stored value (how == WSL_FOUND), else {NULL, 0} */
    void *p;                /* reserved bytes (private from here on) */
    size_t len;
    size_t slot;
} WValueRef;
WStateLookup wvalue_ref(WState *s, WValueRef *r);
void *wvalue_ref_reserve(WValueRef *r, size_t len);
void wvalue_ref_commit(WValueRef *r);
void wvalue_ref_put(WValueRef *r, const void *v, size_t len);
void wvalue_ref_clear(WValueRef *r);

/* Map state: user key -> user value under the current key. */
WStateLookup wmap_get(WState *s, const void *uk, size_t uklen, WBytes *out);
void wmap_put(WState *s, const void *uk, size_t uklen, const void *uv, size_t uvlen);
void wmap_remove(WState *s, const void *uk, size_t uklen);
/* Map state, get-for-update of one user entry of the current key: wmap_ref looks uk up (as
   wmap_get; r keeps the pointer uk, which must stay readable) and fills r: how, and cur = the
   stored value when found. Then wmap_ref_put(r, v, len), the same write as wmap_put(s, uk, v, len),
   or wmap_ref_remove(r), the same as wmap_remove(s, uk), or nothing; until then neither the
   current key nor s may be changed or read otherwise (other states may). The heap backend
   without TTL writes through the lookup's entries (no second hash or probe, also when the key
   had no map yet); otherwise these are wmap_get, wmap_put and wmap_remove. */
/* Where the current key's entry was found, kept by the caller per key (zeroed for a key not read
   yet) and handed back with the key's next map reads (wmap_ref_hinted): while no key entered or
   left the state (the backend checks), the read does not look the key up again. An operator that
   reads one key's map for many rows interleaved with other keys' (COUNT(DISTINCT ...) over a few
   groups) keeps one per group. The hashmap backend's; others ignore it. */
typedef struct WKeyHint { uint64_t gen; size_t slot; } WKeyHint;
typedef struct WMapRef {
    WState *s;
    const void *uk;
    size_t uklen;
    WStateLookup how;
    WBytes cur;             /* the stored value (how == WSL_FOUND), else {NULL, 0} */
    int64_t key_entries;    /* user entries in the current key's map the lookup searched; -1: not
                               known (RocksDB, TTL) (prefetch.h: wmap_outgrows_cache) */
    WKeyHint *hint;         /* the caller's hint for the current key (wmap_ref_hinted), or NULL */
    void *top;              /* private from here on */
    uint64_t hash;          /* wmap_key_hash of uk, when `hashed` */
    bool hashed;
    size_t tslot, slot;
} WMapRef;
WStateLookup wmap_ref(WState *s, const void *uk, size_t uklen, WMapRef *r);
/* The same with uk's hash known: ukhash = wmap_key_hash(uk, uklen). */
WStateLookup wmap_ref_hashed(WState *s, const void *uk, size_t uklen, uint64_t ukhash, WMapRef *r);
/* The same with a hint for the current key (WKeyHint; NULL: none), which the call may fill, and
   uk's hash when known (0: not computed; the backend computes it if it needs it). */
WStateLookup wmap_ref_hinted(WState *s, const void *uk, size_t uklen, uint64_t ukhash, WKeyHint *hint, WMapRef *r);
/* The hash a map's user key is filed under (the heap backend's tables of user entries):
   whash_bytes_wide, as a user key is often a whole row (a join's records, a deduplication's). */
uint64_t wmap_key_hash(const void *uk, size_t uklen);
/* wmap_key_hash of the n 8-byte words at w (a fixed-width binary row), inline below 32 bytes,
   where whash_bytes_wide is whash_bytes (the words' hash, whash_words): user keys hashed per row. */
static inline uint64_t wmap_key_hash_words(const uint64_t *w, size_t n)
{
    return n < 4 ? whash_words(w, n, WSTATE_KEY_SEED) : wmap_key_hash(w, 8 * n);
}
/* The order in which map state s's user entries are iterated is never seen (a DISTINCT
   aggregate's value map, where only the count of values matters, unlike a join's records, which
   are emitted in the order their map gives): the backend may place them as suits its tables (the
   heap backend: common/hash.h wslot_home, so that a key's map grows without reading its entries).
   Entries already there (restored before the operator registered s) are placed anew. */
void wmap_set_order_free(WState *s);
void wmap_ref_put(WMapRef *r, const void *v, size_t len);
void wmap_ref_remove(WMapRef *r);
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

/* Insight (hot keys by state bytes): walk the backend's keys a bounded step at a time. Each call
   visits up to *budget slots, lowering *budget by them (empty hash slots, a map's user-entry
   slots and a list's items count one each) from
   *cursor on, over every state of the backend in turn, calling fn with each key (without the
   namespace bytes of wstate_set_namespace_bytes) and the bytes it holds in that state (as
   WStateStats.bytes counts them). Returns true when the call finished a pass over every state
   (*cursor is then back at the start). On RocksDB every state's column family is read with an
   iterator resumed after the last key visited (one budget unit per RocksDB entry), skipping the
   entries its write-back cache holds, then the cache's entries (nothing is written; entries whose
   TTL ran out are skipped). */
typedef struct WStateScanCursor { int state; size_t slot; } WStateScanCursor;
typedef void (*WStateKeyBytesFn)(void *ctx, WBytes key, int64_t bytes);
bool wstate_scan_key_bytes(WStateBackend *b, WStateScanCursor *cursor, int64_t *budget, WStateKeyBytesFn fn, void *ctx);

/* Sizes for metrics / REST. */
typedef struct WStateStats {
    const char *name;
    WStateKind kind;
    int64_t ttl_ms;
    int64_t entries;            /* keys (value/list) or user entries (map) */
    int64_t bytes;              /* key + value bytes held */
    int64_t expired_reads;      /* lookups that found an expired entry */
    int64_t created;            /* entries created since the backend started (-1 = not counted) */
    int64_t expired;            /* entries removed because their TTL ran out (-1 = not counted) */
} WStateStats;
int wstate_stats(const WStateBackend *b, WStateStats *out, int max);
/* wstate_stats of every state of b (none for NULL): a malloc'd array (free() it), *n its length. */
WStateStats *wstate_stats_all(const WStateBackend *b, int *n);

/* ==== Backend selection, key groups (additive) ====
   Two backends implement the interface above: `hashmap` (wstate_heap_new, in memory) and
   `rocksdb` (wstate_rocksdb_new, RocksDB through its C library). Both store the same bytes; the
   RocksDB key of an entry is its key-group prefix (2 bytes, big-endian) + the key bytes (map
   state: + the key length as 4 big-endian bytes before the key, then the user key), its value the
   last-write timestamp (8 bytes, big-endian) + the value bytes. One column family per state name.
   Results of reads on RocksDB stay valid until the next read or write of the same state. */
typedef enum WStateBackendType { WSTATE_BACKEND_HASHMAP = 0, WSTATE_BACKEND_ROCKSDB = 1 } WStateBackendType;

typedef struct WRocksDBConfig {
    const char *local_dir;          /* state.backend.rocksdb.localdir; NULL = $TMPDIR or /tmp */
    int64_t block_cache_bytes;      /* state.backend.rocksdb.block.cache-size; 0 = 256 MiB */
    int64_t write_buffer_bytes;     /* state.backend.rocksdb.writebuffer.size; 0 = 64 MiB */
    /* state.backend.rocksdb.weir.write-cache-entries (weir only): entries each state keeps in a
       write-back cache in front of RocksDB, written in batches on eviction and before every
       snapshot, compaction or whole-state iteration; 0 = default (100000), < 0 = no cache. */
    int64_t write_cache_entries;
} WRocksDBConfig;

/* Files live in a fresh directory under local_dir, removed by wstate_backend_free.
   NULL + err (java.io.IOException) when RocksDB cannot be opened there. */
WStateBackend *wstate_rocksdb_new(const WStateBackendConfig *cfg, const WRocksDBConfig *rcfg,
                                  WError *err);
WStateBackendType wstate_backend_type(const WStateBackend *b);
/* Flink's backend names: "HashMapStateBackend" / "EmbeddedRocksDBStateBackend". */
const char *wstate_backend_name(const WStateBackend *b);
int wstate_max_parallelism(const WStateBackend *b);
/* The one key-group computation (Flink's KeyGroupRangeAssignment over the key's bytes); equals
   wstate_current_key_group after wstate_set_key(key, len). */
int wstate_key_group_of(const void *key, size_t len, int max_parallelism);
/* Keys that end with ns_bytes of namespace (a window operator's key ++ window end, Flink's
   namespace): their key group is that of the bytes before the namespace, so every window of a key
   stays in the key's group — the subtask its rows are routed to — also when a snapshot is restored
   at another parallelism. Set once on a new backend, before any key; applies to all its states. */
void wstate_set_namespace_bytes(WStateBackend *b, size_t ns_bytes);
/* The key group of key without its last ns_bytes (wstate_key_group_of when ns_bytes is 0). */
int wstate_key_group_ns(const void *key, size_t len, size_t ns_bytes, int max_parallelism);
/* A RocksDB failure (disk full, I/O error) after creation is sticky: later writes are dropped
   and reads answer ABSENT. True (and err filled, when given) once that happened. */
bool wstate_backend_failed(const WStateBackend *b, WError *err);
/* RocksDB only (no-op for heap): flush and compact every state, running the TTL compaction
   filter. For tests and maintenance. */
void wstate_compact(WStateBackend *b);

/* `state.backend.type` (or Flink's older key `state.backend`) from a configuration:
   hashmap (default; also filesystem, jobmanager) | rocksdb, case-insensitive. Unknown values give
   Flink's DynamicCodeLoadingException "Cannot find configured state backend factory class: x".
   rcfg (may be NULL) receives the state.backend.rocksdb.* options; its strings point into config. */
bool wstate_backend_config(const WOptions *config, WStateBackendType *type, WRocksDBConfig *rcfg,
                           WError *err);

/* ==== Snapshots: the storage side of checkpoints (additive) ====
   A snapshot of one backend is a directory holding `_keyed_state` (a checksummed manifest written
   last: backend, max parallelism, key-group range, states with kind and TTL, files with size and
   CRC32C) and its files. Full snapshots (both backends) write one file per state in a
   backend-neutral format: records grouped by key group in key-group order, a key-group index, a
   header and a CRC32C trailer; they restore into either backend. Incremental snapshots (RocksDB,
   when shared_dir is given) are RocksDB checkpoints: SST files go to shared_dir once (named by
   backend instance and file number, never rewritten) and are referenced by later snapshots; only
   new SST files are written; the small private files (MANIFEST, OPTIONS, CURRENT) are copied into
   dir. A heap backend given shared_dir writes a full snapshot (as Flink does). */
typedef struct WSnapshotStats {
    bool incremental;
    int64_t state_bytes;            /* every file the snapshot references (its full size) */
    int64_t written_bytes;          /* bytes this snapshot wrote (incremental size) */
    int files, files_written;
    int64_t entries;                /* records written (full) or live entries (incremental) */
    int64_t duration_us;
} WSnapshotStats;

/* dir is created (its parent must exist) and must not exist or be empty. Expired entries are
   left out of full snapshots. stats may be NULL. */
bool wstate_snapshot(WStateBackend *b, const char *dir, const char *shared_dir,
                     WSnapshotStats *stats, WError *err);
/* Restore from one or more snapshots (e.g. of the subtasks whose ranges overlap the new one),
   keeping only key groups kg_first..kg_last (inclusive). Every file is checked first (size,
   header, CRC32C): a corrupted, truncated or missing file is refused with an error naming it and
   nothing is restored. States not yet registered are created with the snapshot's kind and TTL
   (a later wstate_register adopts the operator's TTL); a registered state of another kind is an
   error. Restoring into a backend that holds data adds to it. */
bool wstate_restore(WStateBackend *b, const char *const *dirs, int ndirs, int kg_first,
                    int kg_last, WError *err);
/* Delete files of shared_dir that none of the given (retained) snapshots references. */
bool wstate_snapshot_gc(const char *shared_dir, const char *const *live_dirs, int nlive,
                        WError *err);

#endif
