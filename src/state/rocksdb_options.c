/*
 * rocksdb_options.c — the RocksDB options of the `rocksdb` state backend and the callbacks RocksDB
 * calls on its own threads: the TTL compaction filter (drops expired entries, counting what it
 * dropped for the state sizes), the list merge operator (appends, restarting a list after a TTL
 * gap as the heap backend does) and the whole-key prefix extractor of the hashed memtables. See
 * rocksdb_internal.h; used by rocksdb_backend.c.
 */
#include "rocksdb_internal.h"

#include <stdlib.h>
#include <string.h>

rocksdb_options_t *wrdb_base_options(rocksdb_cache_t *cache, int64_t write_buffer, bool hashed)
{
    rocksdb_options_t *o = rocksdb_options_create();
    rocksdb_options_set_create_if_missing(o, 1);
    rocksdb_options_set_create_missing_column_families(o, 1);
    rocksdb_options_set_max_background_jobs(o, 2);
    rocksdb_options_set_info_log_level(o, 3);       /* errors only */
    rocksdb_options_set_keep_log_file_num(o, 1);
    rocksdb_options_set_max_open_files(o, -1);
    rocksdb_options_set_write_buffer_size(o, (size_t)write_buffer);
    rocksdb_options_set_max_write_buffer_number(o, 2);
    rocksdb_options_set_inplace_update_support(o, hashed);
    rocksdb_options_set_allow_concurrent_memtable_write(o, 0);
    rocksdb_options_set_memtable_prefix_bloom_size_ratio(o, 0.1);
    rocksdb_options_set_memtable_whole_key_filtering(o, 1);
    rocksdb_block_based_table_options_t *t = rocksdb_block_based_options_create();
    if (cache) rocksdb_block_based_options_set_block_cache(t, cache);
    rocksdb_block_based_options_set_filter_policy(t, rocksdb_filterpolicy_create_bloom_full(10));
    rocksdb_block_based_options_set_whole_key_filtering(t, 1);
    rocksdb_options_set_block_based_table_factory(o, t);
    rocksdb_block_based_options_destroy(t);
    return o;
}

/* ---------------------------------------------------------------- TTL filter, list merge */

static void noop_destructor(void *st) { (void)st; }
static const char *filter_name(void *st) { (void)st; return "weir.TtlCompactionFilter"; }
static const char *merge_name(void *st) { (void)st; return "weir.ListAppend"; }

static unsigned char ttl_filter(void *st, int level, const char *key, size_t kl, const char *v,
                                size_t vl, char **nv, size_t *nvl, unsigned char *changed)
{
    (void)level; (void)nv; (void)nvl; (void)changed;
    WRdbState *rs = st;
    int64_t ttl = atomic_load_explicit(&rs->ttl_shared, memory_order_relaxed);
    if (ttl <= 0 || vl < 8) return 0;
    int64_t now = atomic_load_explicit(&rs->r->now, memory_order_relaxed);
    int64_t ts = (int64_t)wbe_get64((const unsigned char *)v);
    if (!expired_at(ttl, ts, now)) return 0;
    int64_t n = 1, bytes;
    if (rs->kind == WSTATE_LIST) {
        size_t ib = 0;
        int c = list_count((const unsigned char *)v + 8, vl - 8, &ib);
        n = c < 0 ? 0 : c;
        bytes = (int64_t)ib;
    } else {
        bytes = (int64_t)(kl - (rs->kind == WSTATE_MAP ? 6 : 2) + vl - 8);
    }
    atomic_fetch_add_explicit(&rs->dropped_entries, n, memory_order_relaxed);
    atomic_fetch_add_explicit(&rs->dropped_bytes, bytes, memory_order_relaxed);
    return 1;
}

/* Operands (and the existing value) are ts + body; the result keeps the bodies written since
   the last gap of at least the TTL between consecutive writes, with the last timestamp. */
static char *list_merge(WRdbState *rs, const char *ev, size_t evlen, const char *const *ops,
                        const size_t *oplen, int n, unsigned char *success, size_t *newlen)
{
    int64_t ttl = rs ? atomic_load_explicit(&rs->ttl_shared, memory_order_relaxed) : 0;
    int start = ev && evlen >= 8 ? -1 : 0;          /* -1 = keep the existing value */
    int64_t prev = start < 0 ? (int64_t)wbe_get64((const unsigned char *)ev) : 0;
    bool have = start < 0;
    int64_t last = prev;
    for (int i = 0; i < n; i++) {
        if (oplen[i] < 8) continue;
        int64_t ts = (int64_t)wbe_get64((const unsigned char *)ops[i]);
        if (have && expired_at(ttl, prev, ts)) start = i;
        prev = last = ts;
        have = true;
    }
    size_t total = 8;
    if (start < 0) total += evlen - 8;
    for (int i = start < 0 ? 0 : start; i < n; i++) if (oplen[i] >= 8) total += oplen[i] - 8;
    char *out = malloc(total);
    if (!out) { *success = 0; return NULL; }
    wbe_put64((unsigned char *)out, (uint64_t)last);
    size_t off = 8;
    if (start < 0) { memcpy(out + off, ev + 8, evlen - 8); off += evlen - 8; }
    for (int i = start < 0 ? 0 : start; i < n; i++) {
        if (oplen[i] < 8) continue;
        memcpy(out + off, ops[i] + 8, oplen[i] - 8);
        off += oplen[i] - 8;
    }
    *newlen = total;
    *success = 1;
    return out;
}

static char *full_merge(void *st, const char *key, size_t kl, const char *ev, size_t evlen,
                        const char *const *ops, const size_t *oplen, int n, unsigned char *success,
                        size_t *newlen)
{
    (void)key; (void)kl;
    return list_merge(st, ev, evlen, ops, oplen, n, success, newlen);
}

static char *partial_merge(void *st, const char *key, size_t kl, const char *const *ops,
                           const size_t *oplen, int n, unsigned char *success, size_t *newlen)
{
    (void)key; (void)kl;
    return list_merge(st, NULL, 0, ops, oplen, n, success, newlen);
}

/* The whole key as "prefix": value and list states are only read by exact key, so a hashed
   memtable can serve them. */
static char *wk_transform(void *st, const char *k, size_t n, size_t *dn) { (void)st; *dn = n; return (char *)k; }
static unsigned char wk_in_domain(void *st, const char *k, size_t n) { (void)st; (void)k; (void)n; return 1; }
static unsigned char wk_in_range(void *st, const char *k, size_t n) { (void)st; (void)k; (void)n; return 0; }
static const char *wk_name(void *st) { (void)st; return "weir.WholeKey"; }

static void merge_delete(void *st, const char *v, size_t vl) { (void)st; (void)vl; free((void *)v); }

/* Column-family options of a state kind; st is the WRdbState the callbacks see (NULL for a
   read-only open, which needs the merge operator only). *filter receives the filter to destroy
   after the DB closes. */
rocksdb_options_t *wrdb_cf_options(rocksdb_options_t *base, WStateKind kind, void *st,
                                   rocksdb_compactionfilter_t **filter, int64_t write_buffer,
                                   bool hashed)
{
    /* bucket array (8 bytes each) at most 1/16 of a memtable */
    size_t buckets = (size_t)(write_buffer / 128) < MAX_HASH_BUCKETS ? (size_t)(write_buffer / 128) : MAX_HASH_BUCKETS;
    if (buckets < 1024) buckets = 1024;
    rocksdb_options_t *o = rocksdb_options_create_copy(base);
    if (filter) {
        *filter = rocksdb_compactionfilter_create(st, noop_destructor, ttl_filter, filter_name);
        rocksdb_options_set_compaction_filter(o, *filter);
    }
    if (kind != WSTATE_MAP && filter) {
        rocksdb_options_set_prefix_extractor(
            o, rocksdb_slicetransform_create(NULL, noop_destructor, wk_transform, wk_in_domain, wk_in_range, wk_name));
        if (hashed) rocksdb_options_set_hash_link_list_rep(o, buckets);
    }
    if (kind == WSTATE_LIST)
        rocksdb_options_set_merge_operator(
            o, rocksdb_mergeoperator_create(st, noop_destructor, full_merge, partial_merge,
                                            merge_delete, merge_name));
    return o;
}

