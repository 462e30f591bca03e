/*
 * backend_internal.h — private hooks between the files of src/state/ (not for other modules).
 *
 * heap_backend.c owns the public keyed-state API and the backend/state objects; a RocksDB
 * backend is a heap backend object with a WRdb attached, and every public call dispatches to
 * rocksdb_backend.c when one is. snapshot.c writes and reads snapshot files through the
 * enumeration and restore hooks below. Depends on common/ and the state headers only.
 */
#ifndef WEIR_STATE_BACKEND_INTERNAL_H
#define WEIR_STATE_BACKEND_INTERNAL_H

#include "state.h"
#include "snapshot.h"

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

/* ---- heap_backend.c: object access ---- */
void wstate_attach_rdb(WStateBackend *b, WRdb *r);
WRdb *wstate_rdb(const WStateBackend *b);
const WStateBackendConfig *wstate_config(const WStateBackend *b);
int wstate_count(const WStateBackend *b);
WState *wstate_at(const WStateBackend *b, int i);
const char *wstate_name(const WState *s);
WStateKind wstate_kind(const WState *s);
int64_t wstate_ttl(const WState *s);
WStateBackend *wstate_owner(const WState *s);
WRdbState *wstate_rdb_state(const WState *s);
/* For restore: the named state, created with kind/ttl when absent (marked so that the first
   wstate_register adopts the operator's TTL); NULL + err when it exists with another kind. */
WState *wstate_restore_state(WStateBackend *b, const char *name, WStateKind kind, int64_t ttl,
                             WError *err);

/* ---- heap_backend.c: snapshot and restore of heap states ---- */
/* Write s's live entries (now = the snapshot time) in key-group order. */
void wheap_snapshot_state(WState *s, WSnapWriter *w, int64_t now);
void wheap_restore_value(WState *s, const void *k, size_t kl, const void *v, size_t vl, int64_t ts);
void wheap_restore_map(WState *s, const void *k, size_t kl, const void *uk, size_t ukl,
                       const void *v, size_t vl, int64_t ts);
/* Append one list item to k's list, its timestamp becoming ts. */
void wheap_restore_list_item(WState *s, const void *k, size_t kl, const void *v, size_t vl,
                             int64_t ts);

/* ---- rocksdb_backend.c: the operations heap_backend.c dispatches to ---- */
void wrdb_free(WRdb *r);
WRdbState *wrdb_register(WRdb *r, WState *s, const char *name, WStateKind kind, int64_t ttl);
void wrdb_set_ttl(WRdbState *rs, int64_t ttl);
int wrdb_set_key(WRdb *r, const void *key, size_t len);        /* returns the key group */
void wrdb_set_key_group(WRdb *r, int kg);                       /* of the current key (namespaced keys) */
WStateLookup wrdb_value_get(WRdbState *rs, WBytes *out);
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
