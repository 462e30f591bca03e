/*
 * rocksdb_ops.c — the `rocksdb` backend's table of operations (backend_internal.h: WStateOps,
 * wrdb_state_ops): each operation of backend.c's dispatch mapped onto the column-family side of
 * rocksdb_backend.c (a state's WRdbState, the backend's WRdb) and its snapshots
 * (rocksdb_snapshot.c). Depends on the state headers only.
 */
#include "backend_internal.h"

#include <stdlib.h>
#include <string.h>


static void ops_free_backend(WStateBackend *b)
{
    wrdb_free(b->rdb);
    for (int i = 0; i < b->nstates; i++) free(b->states[i]->ubuf);
}

static void ops_add_state(WState *s) { s->rdb = wrdb_register(s->b->rdb, s, s->name, s->kind, s->ttl); }
static void ops_adopt_ttl(WState *s, int64_t ttl) { wrdb_set_ttl(s->rdb, ttl); }
/* RocksDB keeps a map's user entries in the order of their bytes, whatever the order's use */
static void ops_order_freed(WState *s) { (void)s; }
/* a restored state registered with another kind: its column family keeps the old layout, so
   the backend fails */
static void ops_kind_changed(WState *s, WStateKind kind, const char *msg) { (void)kind; wrdb_fail(s->b->rdb, msg); }

static void ops_key_set(WStateBackend *b, const void *key, size_t len, bool hashed, uint64_t hash)
{
    b->key_group = wrdb_set_key(b->rdb, key, len, hashed, hash);
    if (b->ns_bytes) {      /* namespaced keys: the key group of the key without its namespace */
        b->key_group = wstate_key_group_ns(key, len, b->ns_bytes, b->cfg.max_parallelism);
        wrdb_set_key_group(b->rdb, b->key_group);
    }
}

static bool ops_failed(const WStateBackend *b, WError *err) { return wrdb_failed(b->rdb, err); }
static void ops_compact(WStateBackend *b) { wrdb_compact(b->rdb); }
static WStateLookup ops_value_get(WState *s, WBytes *out) { return wrdb_value_get(s->rdb, out); }
static void ops_value_put(WState *s, const void *v, size_t len) { wrdb_value_put(s->rdb, v, len); }
static void ops_clear(WState *s) { wrdb_clear(s->rdb); }

static WStateLookup ops_value_ref(WState *s, WValueRef *r)
{
    r->how = wrdb_value_get(s->rdb, &r->cur);
    return r->how;
}

/* the value is updated in the state's buffer and written by the commit */
static void *ops_value_ref_reserve(WValueRef *r, size_t len)
{
    WState *s = r->s;
    size_t keep = r->p ? r->len : r->cur.len;   /* a second reserve keeps the first's bytes */
    if (keep > len) keep = len;
    if (len > s->ucap || !s->ubuf) {
        s->ucap = len * 2 + 64;
        unsigned char *nb = wmalloc(s->ucap);
        if (r->p && keep) memcpy(nb, s->ubuf, keep);
        free(s->ubuf);
        s->ubuf = nb;
    }
    if (!r->p && keep) memcpy(s->ubuf, r->cur.p, keep);
    r->p = s->ubuf;
    r->len = len;
    return r->p;
}

static void ops_value_ref_commit(WValueRef *r) { wrdb_value_put(r->s->rdb, r->p, r->len); }
static void ops_value_ref_clear(WValueRef *r) { wrdb_clear(r->s->rdb); }

static WStateLookup ops_map_get(WState *s, const void *uk, size_t uklen, WBytes *out)
{
    return wrdb_map_get(s->rdb, uk, uklen, out);
}

static void ops_map_put(WState *s, const void *uk, size_t uklen, const void *uv, size_t uvlen)
{
    wrdb_map_put(s->rdb, uk, uklen, uv, uvlen);
}

static void ops_map_remove(WState *s, const void *uk, size_t uklen) { wrdb_map_remove(s->rdb, uk, uklen); }
static size_t ops_map_size(WState *s, bool stop_at_first) { return wrdb_map_size(s->rdb, stop_at_first); }
static void ops_map_iter(WState *s, WMapIter *it) { wrdb_map_iter(s->rdb, it); }
static void ops_list_add(WState *s, const void *v, size_t len) { wrdb_list_add(s->rdb, v, len); }

static int ops_list_get(WState *s, const WBytes **items, WStateLookup *how)
{
    return wrdb_list_get(s->rdb, items, how);
}

static void ops_list_remove_at(WState *s, int index) { wrdb_list_remove_at(s->rdb, index); }
static void ops_for_each(WState *s, WStateKeyFn fn, void *ctx) { wrdb_for_each(s->rdb, fn, ctx); }

/* an iterator over the state's column family, resumed after its last key */
static bool ops_scan_key_bytes(WState *s, size_t *pos, int64_t *budget, WStateKeyBytesFn fn, void *ctx)
{
    return wrdb_scan_key_bytes(s->rdb, pos, budget, s->b->ns_bytes, fn, ctx);
}

static void ops_refresh_stats(WState *s) { wrdb_stats(s->rdb, &s->entries, &s->bytes, &s->expired_reads); }
/* no prefetch: a lookup goes through the write-back cache and RocksDB */
static void ops_prefetch(const WState *s, uint64_t hash) { (void)s; (void)hash; }
static bool ops_outgrows_cache(const WState *s) { (void)s; return false; }
static bool ops_map_outgrows_cache(const WState *s, double entries_per_lookup) { (void)s; (void)entries_per_lookup; return false; }
static void ops_map_prefetch(WState *s, const void *key, size_t klen, uint64_t khash, WMapWhere *where,
                             uint64_t ukhash, WMapPrefetch stage)
{
    (void)s; (void)key; (void)klen; (void)khash; (void)where; (void)ukhash; (void)stage;
}
static void ops_value_load(WState *s, const WBytes *keys, const uint64_t *hashes, int n)
{
    wrdb_value_load(s->rdb, keys, hashes, n);
}

static void ops_snapshot_prepare(WStateBackend *b) { wrdb_close_iterators(b->rdb); }
static void ops_snapshot_state(WState *s, WSnapWriter *w, int64_t now) { wrdb_snapshot_state(s->rdb, w, now); }

static bool ops_snapshot_incremental(WStateBackend *b, const char *dir, const char *shared_dir,
                                     WSnapshotStats *st, WError *err)
{
    return wrdb_snapshot_incremental(b->rdb, dir, shared_dir, st, err);
}

static const char *ops_local_dir(const WStateBackend *b) { return wrdb_root(b->rdb); }

static void ops_restore_value(WState *s, int kg, const void *k, size_t kl, const void *v, size_t vl, int64_t ts)
{
    wrdb_restore_value(s->rdb, kg, k, kl, v, vl, ts);
}

static void ops_restore_map(WState *s, int kg, const void *k, size_t kl, const void *uk, size_t ukl,
                            const void *v, size_t vl, int64_t ts)
{
    wrdb_restore_map(s->rdb, kg, k, kl, uk, ukl, v, vl, ts);
}

static void ops_restore_list(WState *s, int kg, const void *k, size_t kl, const unsigned char *body,
                             size_t bodylen, int nitems, int64_t ts)
{
    wrdb_restore_list(s->rdb, kg, k, kl, body, bodylen, nitems, ts);
}

static void ops_restore_raw(WState *s, const void *ck, size_t cklen, const void *v, size_t vlen)
{
    wrdb_restore_raw(s->rdb, ck, cklen, v, vlen);
}

const WStateOps wrdb_state_ops = {
    .type = WSTATE_BACKEND_ROCKSDB,
    .class_name = "EmbeddedRocksDBStateBackend",
    .free_backend = ops_free_backend,
    .add_state = ops_add_state,
    .adopt_ttl = ops_adopt_ttl,
    .order_freed = ops_order_freed,
    .kind_changed = ops_kind_changed,
    .key_set = ops_key_set,
    .failed = ops_failed,
    .compact = ops_compact,
    .value_get = ops_value_get,
    .value_put = ops_value_put,
    .clear = ops_clear,
    .value_ref = ops_value_ref,
    .value_ref_reserve = ops_value_ref_reserve,
    .value_ref_commit = ops_value_ref_commit,
    .value_ref_clear = ops_value_ref_clear,
    .map_get = ops_map_get,
    .map_put = ops_map_put,
    .map_remove = ops_map_remove,
    .map_size = ops_map_size,
    .map_iter = ops_map_iter,
    .map_next = wrdb_map_next,
    .map_iter_remove = wrdb_map_iter_remove,
    .list_add = ops_list_add,
    .list_get = ops_list_get,
    .list_remove_at = ops_list_remove_at,
    .for_each = ops_for_each,
    .scan_key_bytes = ops_scan_key_bytes,
    .refresh_stats = ops_refresh_stats,
    .counts_growth = false,             /* RocksDB does not count creations and expiries */
    .prefetch_slot = ops_prefetch,
    .map_prefetch = ops_map_prefetch,
    .outgrows_cache = ops_outgrows_cache,
    .map_outgrows_cache = ops_map_outgrows_cache,
    .value_load = ops_value_load,
    .prefetch_entry = ops_prefetch,
    .snapshot_prepare = ops_snapshot_prepare,
    .snapshot_state = ops_snapshot_state,
    .snapshot_incremental = ops_snapshot_incremental,
    .local_dir = ops_local_dir,
    .restore_value = ops_restore_value,
    .restore_map = ops_restore_map,
    .restore_list = ops_restore_list,
    .restore_raw = ops_restore_raw,
};
