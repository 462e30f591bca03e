/*
 * backend_internal.h — private hooks between the files of src/state/ (not for other modules).
 *
 * Every state backend implements one table of operations, WStateOps: heap_backend.c the
 * `hashmap` backend (wheap_state_ops), rocksdb_ops.c over rocksdb_backend.c the `rocksdb` one
 * (wrdb_state_ops).
 * backend.c owns the backend and state objects and the public keyed-state API of state.h, and
 * dispatches every call through the table of the state's backend; snapshot.c writes and
 * restores snapshot files through the same table. A backend keeps its own side of a state in
 * the state's union (the heap's table or the RocksDB column family side) and never reads
 * another backend's. Depends on common/ and the state headers only.
 */
#ifndef WEIR_STATE_BACKEND_INTERNAL_H
#define WEIR_STATE_BACKEND_INTERNAL_H

#include "state.h"
#include "prefetch.h"
#include "snapshot.h"
#include "pool.h"
#include "../common/arena.h"

/* ---- big-endian helpers (Java's DataOutput order, as Flink writes keys and timestamps) ---- */
static inline void wbe_put16(unsigned char *p, uint16_t v) { p[0] = (unsigned char)(v >> 8); p[1] = (unsigned char)v; }
static inline void wbe_put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24); p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8); p[3] = (unsigned char)v;
}
static inline void wbe_put64(unsigned char *p, uint64_t v) { wbe_put32(p, (uint32_t)(v >> 32)); wbe_put32(p + 4, (uint32_t)v); }
static inline uint16_t wbe_get16(const unsigned char *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static inline uint32_t wbe_get32(const unsigned char *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline uint64_t wbe_get64(const unsigned char *p) { return ((uint64_t)wbe_get32(p) << 32) | wbe_get32(p + 4); }

typedef struct WRdb WRdb;
typedef struct WRdbState WRdbState;

/* ---- the objects (backend.c; each backend fills its side of the unions) ---- */

/* The hashmap backend's side (heap_backend.c): an open-addressing table of entries and the pool
   its entries come from. */
typedef struct WHeapEntry WHeapEntry;
typedef struct WHeapTable {
    size_t cap, n;              /* cap is a power of two (or 0) */
    uintptr_t *slots;           /* tagged entry addresses (heap_backend.c, slot_of), 0: empty */
    size_t cursor;              /* incremental cleanup position */
} WHeapTable;

typedef struct WStateOps WStateOps;

struct WState {
    const WStateOps *ops;       /* its backend's table (kept here: one load less per call) */
    WStateBackend *b;
    char *name;
    WStateKind kind;
    int64_t ttl;
    int64_t entries, bytes, expired_reads;
    int64_t created, expired;   /* entries ever created / removed by TTL (insight: state growth) */
    bool from_restore;          /* created by a restore; the first register adopts its TTL */
    bool order_free;            /* map state: the order of its user entries is never seen
                                   (wmap_set_order_free) */
    bool entry_times;           /* hashmap: its entries keep their write time (a TTL, or restored:
                                   set when its table is first made, heap_backend.c) */
    uint64_t maps_freed;        /* hashmap, map state: keys' map tables freed so far (a WMapWhere
                                   filled at an earlier count may point to freed memory) */
    uint64_t top_gen;           /* hashmap: times tab's entries moved (growth) or left it so far
                                   (a WKeyHint filled at another count may name another entry's
                                   slot; an insert moves no other entry) */
    union {
        WHeapTable tab;         /* hashmap */
        struct {                /* rocksdb: the column family side, the buffer a WValueRef updates */
            WRdbState *rdb;
            unsigned char *ubuf;
            size_t ucap;
        };
    };
};

struct WStateBackend {
    const WStateOps *ops;
    WStateBackendConfig cfg;
    int nstates;
    WState **states;
    unsigned char *key;         /* the current key */
    size_t klen, kcap;
    uint64_t khash;             /* hashmap: its hash */
    int key_group;              /* -1: not computed yet */
    size_t ns_bytes;            /* wstate_set_namespace_bytes */
    char *mismatch;             /* a restored state registered with another kind (sticky error) */
    bool over_limit;            /* cfg.memory_limit was passed (reported once) */
    int64_t cache_bytes;        /* hashmap: the CPU's last-level cache (0: not read yet) */
    union {
        WPool pool;         /* hashmap: entries, values and per-key map tables */
        WRdb *rdb;              /* rocksdb */
    };
};

/* ---- the backend interface ----
   Every entry is set in both tables (backend.c checks at creation); "the current key" is
   b->key / b->klen as backend.c copied it before key_set. */
struct WStateOps {
    WStateBackendType type;
    const char *class_name;                 /* Flink's name of the backend */
    /* backend */
    void (*free_backend)(WStateBackend *b);  /* its side of b and of every state (objects: backend.c) */
    void (*add_state)(WState *s);           /* s was registered: create its side */
    void (*adopt_ttl)(WState *s, int64_t ttl);
    /* s->order_free was just set (wmap_set_order_free): place the user entries it holds anew */
    void (*order_freed)(WState *s);
    /* a restored state is registered with another kind: drop or fail (msg: the error) */
    void (*kind_changed)(WState *s, WStateKind kind, const char *msg);
    /* the current key changed to key (len bytes, copied into b->key already: read the caller's
       bytes, just stored there, from key); hash = wstate_key_hash of it when hashed */
    void (*key_set)(WStateBackend *b, const void *key, size_t len, bool hashed, uint64_t hash);
    bool (*failed)(const WStateBackend *b, WError *err);
    void (*compact)(WStateBackend *b);
    /* value */
    WStateLookup (*value_get)(WState *s, WBytes *out);
    void (*value_put)(WState *s, const void *v, size_t len);
    void (*clear)(WState *s);               /* the current key's value, map or list */
    WStateLookup (*value_ref)(WState *s, WValueRef *r);
    void *(*value_ref_reserve)(WValueRef *r, size_t len);
    void (*value_ref_commit)(WValueRef *r);
    void (*value_ref_clear)(WValueRef *r);
    /* map */
    WStateLookup (*map_get)(WState *s, const void *uk, size_t uklen, WBytes *out);
    void (*map_put)(WState *s, const void *uk, size_t uklen, const void *uv, size_t uvlen);
    void (*map_remove)(WState *s, const void *uk, size_t uklen);
    /* optional (NULL: map_get, map_put and map_remove): r's s, uk and uklen set, the rest cleared */
    WStateLookup (*map_ref)(WState *s, WMapRef *r);
    void (*map_ref_put)(WMapRef *r, const void *uv, size_t uvlen);
    void (*map_ref_remove)(WMapRef *r);
    size_t (*map_size)(WState *s, bool stop_at_first);
    void (*map_iter)(WState *s, WMapIter *it);
    bool (*map_next)(WMapIter *it, WBytes *uk, WBytes *uv);
    void (*map_iter_remove)(WMapIter *it);
    /* list */
    void (*list_add)(WState *s, const void *v, size_t len);
    int (*list_get)(WState *s, const WBytes **items, WStateLookup *how);
    void (*list_remove_at)(WState *s, int index);
    /* whole state */
    void (*for_each)(WState *s, WStateKeyFn fn, void *ctx);
    /* one bounded step of wstate_scan_key_bytes over s (*pos: where the last step stopped; true
       when the pass over s ended, *pos back to 0) */
    bool (*scan_key_bytes)(WState *s, size_t *pos, int64_t *budget, WStateKeyBytesFn fn, void *ctx);
    void (*refresh_stats)(WState *s);       /* bring s->entries / bytes / expired_reads up to date */
    bool counts_growth;                     /* s->created / s->expired are counted */
    void (*prefetch_slot)(const WState *s, uint64_t hash);
    void (*prefetch_entry)(const WState *s, uint64_t hash);
    bool (*outgrows_cache)(const WState *s);
    bool (*map_outgrows_cache)(const WState *s, double entries_per_lookup);
    void (*map_prefetch)(WState *s, const void *key, size_t klen, uint64_t khash, WMapWhere *where,
                         uint64_t ukhash, WMapPrefetch stage);
    /* optional (NULL: the backend reads nothing ahead): value state s's entries of n keys read in
       one batch ahead of their lookups (prefetch.h, wstate_load_values) */
    void (*value_load)(WState *s, const WBytes *keys, const uint64_t *hashes, int n);
    /* snapshots (snapshot.c) */
    void (*snapshot_prepare)(WStateBackend *b);   /* before a full snapshot */
    /* live entries of s (now = the snapshot time) in key-group order */
    void (*snapshot_state)(WState *s, WSnapWriter *w, int64_t now);
    /* NULL: the backend takes no incremental snapshots */
    bool (*snapshot_incremental)(WStateBackend *b, const char *dir, const char *shared_dir,
                                 WSnapshotStats *st, WError *err);
    /* where a restore may put scratch files (NULL: the system's temporary directory) */
    const char *(*local_dir)(const WStateBackend *b);
    /* restore: insert a record with its timestamp; kg is the key group of k */
    void (*restore_value)(WState *s, int kg, const void *k, size_t kl, const void *v, size_t vl, int64_t ts);
    void (*restore_map)(WState *s, int kg, const void *k, size_t kl, const void *uk, size_t ukl,
                        const void *v, size_t vl, int64_t ts);
    /* body = items as (4-byte big-endian length, bytes)*, appended to k's list */
    void (*restore_list)(WState *s, int kg, const void *k, size_t kl, const unsigned char *body,
                         size_t bodylen, int nitems, int64_t ts);
    /* an entry in RocksDB's layout (composite key, ts-prefixed value) as is; NULL: decoded by
       the caller into the calls above */
    void (*restore_raw)(WState *s, const void *ck, size_t cklen, const void *v, size_t vlen);
};

extern const WStateOps wheap_state_ops;     /* heap_backend.c */
extern const WStateOps wrdb_state_ops;      /* rocksdb_ops.c */

/* ---- backend.c ---- */
WStateBackend *wstate_backend_new(const WStateBackendConfig *cfg, const WStateOps *ops);
const WStateBackendConfig *wstate_config(const WStateBackend *b);
int wstate_count(const WStateBackend *b);
WState *wstate_at(const WStateBackend *b, int i);
const char *wstate_name(const WState *s);
WStateKind wstate_kind(const WState *s);
int64_t wstate_ttl(const WState *s);
/* For restore: the named state, created with kind/ttl when absent (marked so that the first
   wstate_register adopts the operator's TTL); NULL + err when it exists with another kind. */
WState *wstate_restore_state(WStateBackend *b, const char *name, WStateKind kind, int64_t ttl,
                             WError *err);

/* ---- rocksdb_backend.c: the column-family side (wrdb_state_ops wraps these) ---- */
void wrdb_free(WRdb *r);
WRdbState *wrdb_register(WRdb *r, WState *s, const char *name, WStateKind kind, int64_t ttl);
void wrdb_set_ttl(WRdbState *rs, int64_t ttl);
/* returns the key group; hash: wstate_key_hash of key when hashed */
int wrdb_set_key(WRdb *r, const void *key, size_t len, bool hashed, uint64_t hash);
void wrdb_set_key_group(WRdb *r, int kg);                       /* of the current key (namespaced keys) */
WStateLookup wrdb_value_get(WRdbState *rs, WBytes *out);
void wrdb_value_load(WRdbState *rs, const WBytes *keys, const uint64_t *hashes, int n);
void wrdb_value_put(WRdbState *rs, const void *v, size_t len);
void wrdb_clear(WRdbState *rs);                                 /* value, list and map */
WStateLookup wrdb_map_get(WRdbState *rs, const void *uk, size_t uklen, WBytes *out);
void wrdb_map_put(WRdbState *rs, const void *uk, size_t uklen, const void *uv, size_t uvlen);
void wrdb_map_remove(WRdbState *rs, const void *uk, size_t uklen);
size_t wrdb_map_size(WRdbState *rs, bool stop_at_first);
void wrdb_map_iter(WRdbState *rs, WMapIter *it);
bool wrdb_map_next(WMapIter *it, WBytes *uk, WBytes *uv);
void wrdb_map_iter_remove(WMapIter *it);
void wrdb_list_add(WRdbState *rs, const void *v, size_t len);
int wrdb_list_get(WRdbState *rs, const WBytes **items, WStateLookup *how);
void wrdb_list_remove_at(WRdbState *rs, int index);
void wrdb_for_each(WRdbState *rs, WStateKeyFn fn, void *ctx);
/* One bounded step of insight's walk of keys by state bytes over rs (wstate_scan_key_bytes): up
   to *budget entries from where the last step stopped (*pos entries into the pass; 0 starts a
   pass): RocksDB's entries not in the write-back cache, then the cache's; fn per key (ns_bytes
   namespace bytes cut off) with its bytes; true when the pass over rs ended (*pos back to 0). */
bool wrdb_scan_key_bytes(WRdbState *rs, size_t *pos, int64_t *budget, size_t ns_bytes, WStateKeyBytesFn fn, void *ctx);
void wrdb_stats(WRdbState *rs, int64_t *entries, int64_t *bytes, int64_t *expired_reads);
bool wrdb_failed(const WRdb *r, WError *err);
void wrdb_fail(WRdb *r, const char *msg);                      /* make the backend fail */
void wrdb_compact(WRdb *r);

/* ---- rocksdb_backend.c: snapshot and restore ---- */
void wrdb_snapshot_state(WRdbState *rs, WSnapWriter *w, int64_t now);
/* Insert a record with its timestamp; kg is the key group of k. */
void wrdb_restore_value(WRdbState *rs, int kg, const void *k, size_t kl, const void *v, size_t vl,
                        int64_t ts);
void wrdb_restore_map(WRdbState *rs, int kg, const void *k, size_t kl, const void *uk, size_t ukl,
                      const void *v, size_t vl, int64_t ts);
/* body = items as (4-byte big-endian length, bytes)*, appended to k's list. */
void wrdb_restore_list(WRdbState *rs, int kg, const void *k, size_t kl, const void *body,
                       size_t bodylen, int nitems, int64_t ts);
/* Insert a raw RocksDB entry (composite key, ts-prefixed value) read from another instance. */
void wrdb_restore_raw(WRdbState *rs, const void *ck, size_t cklen, const void *v, size_t vlen);

/* rocksdb_snapshot.c: incremental snapshots and their restore. */
bool wrdb_snapshot_incremental(WRdb *r, const char *dir, const char *shared_dir,
                               WSnapshotStats *st, WError *err);
/* Restore of an incremental snapshot (manifest m, files verified) in two steps so that nothing
   is applied before every snapshot could be opened: open links its files into a scratch
   directory under tmp_root and opens them read-only; apply copies the entries of key groups
   [kg_first, kg_last] into b (either backend); close removes the scratch directory. */
typedef struct WRdbReadonly WRdbReadonly;
WRdbReadonly *wrdb_readonly_open(const WSnapManifest *m, const char *tmp_root, WError *err);
bool wrdb_readonly_apply(WRdbReadonly *h, WStateBackend *b, int kg_first, int kg_last, WError *err);
void wrdb_readonly_close(WRdbReadonly *h);
/* For rocksdb_snapshot.c. */
const char *wrdb_root(const WRdb *r);
WStateBackend *wrdb_backend(const WRdb *r);
uint64_t wrdb_uid(const WRdb *r);
void *wrdb_db(const WRdb *r);                       /* rocksdb_t * */
void wrdb_close_iterators(WRdb *r);
void wrdb_flush(WRdb *r);
int64_t wrdb_next_seq(WRdb *r);
/* Column-family options (rocksdb_options_t *) to open a snapshot's state of this kind. */
void *wrdb_readonly_cf_options(WStateKind kind);
/* The uploaded-SST registry of incremental snapshots. */
typedef struct WRdbUploaded {
    char *sst;                  /* file name in the RocksDB directory */
    char *shared_name;          /* name in shared_dir */
    int64_t size;
    uint32_t crc;
} WRdbUploaded;
WRdbUploaded *wrdb_uploaded(WRdb *r, const char *shared_dir, int *n);
void wrdb_uploaded_add(WRdb *r, const char *sst, const char *shared_name, int64_t size, uint32_t crc);

#endif
