/*
 * rocksdb_backend.c — the `rocksdb` state backend (Flink's EmbeddedRocksDBStateBackend) through
 * RocksDB's C API.
 *
 * Layout (state.h): one column family per state; key = key group (2 bytes BE) + key bytes, map
 * state key = key group + key length (4 bytes BE) + key + user key (so that a key's entries are
 * one contiguous prefix range); value = last-write timestamp (8 bytes BE, Flink's TtlValue order)
 * + the value bytes. A list is one value whose body is its items as (4-byte BE length, bytes)*;
 * wlist_add appends with a merge operator (as Flink's RocksDBListState), and the merge starts a
 * new list when the previous write is older than the TTL, as the heap backend does. Each state
 * has a bounded write-back cache (rocksdb_cache.c; state.backend.rocksdb.weir.write-cache-entries)
 * of raw entries by composite key: reads and writes of cached keys stay in memory; dirty entries
 * go to RocksDB in one key-ordered WriteBatch when an eighth of the cache is evicted, and before
 * every snapshot, flush, compaction, whole-state or map iteration (cache_sync); restores drop the
 * cache. With the cache off, value and list column families use a hashed memtable (whole key as
 * prefix) and every column family updates same-sized values in place, so a key's repeated get +
 * put costs a hash lookup instead of a growing skip list of versions. TTL: expired
 * values are never returned (checked on read, then deleted and reported WSL_EXPIRED) and are
 * dropped by a compaction filter, as Flink's RocksDB TTL cleanup. Writes are direct puts without
 * WAL (Flink disables it too; snapshots are what make state durable) through reusable key and
 * value buffers; reads skip checksum verification; tables use a bloom filter and an LRU block
 * cache. Stats: value state exact; map state bytes count key + user key + value per entry; list
 * state entries count items; entries removed by the compaction filter are subtracted as
 * estimates. The files live in "<local dir>/weir-rocksdb-<operator>-p<pid>-XXXXXX", removed when
 * the backend is freed, or by the next backend created there once process <pid> is gone (a
 * killed job). Options and the RocksDB callbacks (TTL compaction filter, list merge operator) are in
 * rocksdb_options.c, the shared structures in rocksdb_internal.h. The backend's table of
 * operations is in rocksdb_ops.c (reached through backend.c, which owns the objects); this file
 * keeps the RocksDB side of them. Calls snapshot.c (writer).
 */
#include "backend_internal.h"
#include "../common/sort.h"
#include "rocksdb_cache.h"
#include "rocksdb_internal.h"
#include "../common/arena.h"

#include <rocksdb/c.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>


/* ---------------------------------------------------------------- helpers */

static void grow(unsigned char **p, size_t *cap, size_t need)
{
    if (need <= *cap) return;
    *cap = need * 2 + 64;
    *p = wrealloc(*p, *cap);
}

static bool check(WRdb *r, char *e, const char *what)
{
    if (!e) return true;
    if (!r->failed) {
        r->failed = true;
        snprintf(r->errmsg, sizeof r->errmsg, "RocksDB %s failed in %s: %s", what, r->dbdir, e);
    }
    free(e);
    return false;
}

static int64_t now_of(WRdb *r)
{
    int64_t t = wstate_now(r->b);
    atomic_store_explicit(&r->now, t, memory_order_relaxed);
    return t;
}

/* The write time stored with an entry: the clock only for a state with a TTL (as the heap
   backend: write times matter only for TTL, and a clock read per write is measurable). */
static int64_t write_time(WRdbState *rs) { return rs->ttl > 0 ? now_of(rs->r) : 0; }

static void ring_push(WRdbState *rs, void *p)
{
    if (rs->nring == RING) {
        free(rs->ring[rs->ring_head]);
        rs->ring[rs->ring_head] = p;
        rs->ring_head = (rs->ring_head + 1) % RING;
        return;
    }
    rs->ring[(rs->ring_head + rs->nring) % RING] = p;
    rs->nring++;
}

static void ring_release(WRdbState *rs)
{
    for (int i = 0; i < rs->nring; i++) free(rs->ring[(rs->ring_head + i) % RING]);
    rs->nring = 0;
    rs->ring_head = 0;
}


/* Map composite key of the current key (+ uk). */
static const unsigned char *mkey_with(WRdb *r, const void *uk, size_t uklen, size_t *len)
{
    if (r->mepoch != r->epoch) {
        size_t kl = r->vklen - 2;
        grow(&r->mkey, &r->mkcap, kl + 6 + uklen);
        memcpy(r->mkey, r->vkey, 2);
        wbe_put32(r->mkey + 2, (uint32_t)kl);
        memcpy(r->mkey + 6, r->vkey + 2, kl);
        r->mprefix = kl + 6;
        r->mepoch = r->epoch;
    }
    grow(&r->mkey, &r->mkcap, r->mprefix + uklen);
    if (uklen) memcpy(r->mkey + r->mprefix, uk, uklen);
    *len = r->mprefix + uklen;
    return r->mkey;
}

/* ts + bytes in r->vbuf */
static const char *encode_value(WRdb *r, int64_t ts, const void *v, size_t len, size_t *n)
{
    grow(&r->vbuf, &r->vbcap, len + 8);
    wbe_put64(r->vbuf, (uint64_t)ts);
    if (len) memcpy(r->vbuf + 8, v, len);
    *n = len + 8;
    return (const char *)r->vbuf;
}

/* Exclusive upper bound of all keys starting with prefix (prefix starts with a key group, so
   it is never all 0xff). */
static size_t upper_bound(const unsigned char *prefix, size_t n, unsigned char **ub, size_t *cap)
{
    grow(ub, cap, n + 1);
    memcpy(*ub, prefix, n);
    while (n > 0 && (*ub)[n - 1] == 0xff) n--;
    if (n) (*ub)[n - 1]++;
    return n;
}

/* ---------------------------------------------------------------- backend */


static char *sanitize(const char *name)
{
    char *s = wstrdup(name && *name ? name : "op");
    size_t n = 0;
    for (char *p = s; *p && n < 40; p++, n++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))) *p = '_';
    s[n] = 0;
    return s;
}

/* Directories of backends whose process died without freeing them (killed jobs):
   "weir-rocksdb-<operator>-p<pid>-XXXXXX" with no process <pid> any more. */
static void remove_stale(const char *local)
{
    DIR *d = opendir(local);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *nm = e->d_name;
        size_t l = strlen(nm);
        if (strncmp(nm, "weir-rocksdb-", 13) != 0 || l < 13 + 10 || nm[l - 7] != '-') continue;
        const char *p = nm + l - 8;
        while (p > nm && *p >= '0' && *p <= '9') p--;
        if (p <= nm + 1 || *p != 'p' || p[-1] != '-' || p == nm + l - 8) continue;
        long pid = strtol(p + 1, NULL, 10);
        if (pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        char *path = wsnap_join(local, nm);
        wsnap_rmtree(path);
        free(path);
    }
    closedir(d);
}

WStateBackend *wstate_rocksdb_new(const WStateBackendConfig *cfg, const WRocksDBConfig *rcfg,
                                  WError *err)
{
    const char *given = rcfg && rcfg->local_dir && *rcfg->local_dir ? rcfg->local_dir : NULL;
    if (!given) given = getenv("TMPDIR");
    if (!given || !*given) given = "/tmp";
    /* Flink accepts several directories separated by ',' (or the path separator); weir uses the
       first */
    char local[4096];
    snprintf(local, sizeof local, "%.*s", (int)strcspn(given, ",:"), given);
    WError e2 = {0};
    if (!wsnap_mkdirs(local, &e2)) {
        werr_set(err, WEXC_IO, "Local DB files directory '%s' does not exist and cannot be created.", local);
        return NULL;
    }
    remove_stale(local);
    char *op = sanitize(cfg->operator_name);
    size_t n = strlen(local) + strlen(op) + 64;
    char *root = wmalloc(n);
    snprintf(root, n, "%s/weir-rocksdb-%s-p%ld-XXXXXX", local, op, (long)getpid());
    free(op);
    if (!mkdtemp(root)) {
        werr_set(err, WEXC_IO, "Local DB files directory '%s' is not writable.", local);
        free(root);
        return NULL;
    }
    WRdb *r = wcalloc(1, sizeof *r);
    r->root = root;
    r->dbdir = wsnap_join(root, "db");
    int64_t cache = rcfg && rcfg->block_cache_bytes > 0 ? rcfg->block_cache_bytes : DEFAULT_CACHE;
    int64_t wb = rcfg && rcfg->write_buffer_bytes > 0 ? rcfg->write_buffer_bytes : DEFAULT_WRITE_BUFFER;
    r->cache_entries = !rcfg || rcfg->write_cache_entries == 0 ? DEFAULT_WRITE_CACHE
                       : rcfg->write_cache_entries < 0 ? 0 : rcfg->write_cache_entries;
    r->cache = rocksdb_cache_create_lru((size_t)cache);
    r->opts = wrdb_base_options(r->cache, wb, r->cache_entries == 0);
    r->write_buffer = wb;
    const char *names[1] = {"default"};
    const rocksdb_options_t *cfo[1] = {r->opts};
    rocksdb_column_family_handle_t *h[1] = {NULL};
    char *e = NULL;
    r->db = rocksdb_open_column_families(r->opts, r->dbdir, 1, names, cfo, h, &e);
    if (e || !r->db) {
        werr_set(err, WEXC_IO, "Could not open RocksDB in '%s': %s", r->dbdir, e ? e : "unknown error");
        free(e);
        rocksdb_options_destroy(r->opts);
        rocksdb_cache_destroy(r->cache);
        wsnap_rmtree(root);
        free(r->dbdir);
        free(root);
        free(r);
        return NULL;
    }
    r->default_cf = h[0];
    r->wo = rocksdb_writeoptions_create();
    rocksdb_writeoptions_disable_WAL(r->wo, 1);
    r->ro = rocksdb_readoptions_create();
    rocksdb_readoptions_set_verify_checksums(r->ro, 0);
    r->batch = rocksdb_writebatch_create();
    if (getrandom(&r->uid, sizeof r->uid, 0) != (ssize_t)sizeof r->uid) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        r->uid = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (uint64_t)getpid() ^ (uint64_t)(uintptr_t)r;
    }
    WStateBackend *b = wstate_backend_new(cfg, &wrdb_state_ops);
    b->rdb = r;
    r->b = b;
    r->maxp = wstate_config(b)->max_parallelism;
    r->epoch = 1;
    atomic_store(&r->now, INT64_MIN / 2);
    return b;
}

static void close_iter(WRdbState *rs)
{
    if (rs->it) rocksdb_iter_destroy(rs->it);
    if (rs->itro) rocksdb_readoptions_destroy(rs->itro);
    rs->it = NULL;
    rs->itro = NULL;
}

void wrdb_close_iterators(WRdb *r)
{
    for (int i = 0; i < r->nstates; i++) close_iter(r->states[i]);
}

void wrdb_free(WRdb *r)
{
    wrdb_close_iterators(r);
    for (int i = 0; i < r->nstates; i++)
        if (r->states[i]->cf) rocksdb_column_family_handle_destroy(r->states[i]->cf);
    if (r->default_cf) rocksdb_column_family_handle_destroy(r->default_cf);
    rocksdb_close(r->db);
    for (int i = 0; i < r->nstates; i++) {
        WRdbState *rs = r->states[i];
        if (rs->filter) rocksdb_compactionfilter_destroy(rs->filter);
        ring_release(rs);
        wrc_free(&rs->cache);
        free(rs->known_uk);
        free(rs->scan_key);
        free(rs->ub);
        free(rs->name);
        free(rs);
    }
    free(r->states);
    rocksdb_options_destroy(r->opts);
    rocksdb_cache_destroy(r->cache);
    rocksdb_writeoptions_destroy(r->wo);
    rocksdb_readoptions_destroy(r->ro);
    rocksdb_writebatch_destroy(r->batch);
    free(r->sorted);
    free(r->lkeys);
    free(r->lptr);
    free(r->lsize);
    free(r->lval);
    free(r->lerr);
    free(r->lhash);
    wsnap_rmtree(r->root);
    for (int i = 0; i < r->nup; i++) { free(r->up[i].sst); free(r->up[i].shared_name); }
    free(r->up);
    free(r->shared_dir);
    free(r->root);
    free(r->dbdir);
    free(r->vkey);
    free(r->mkey);
    free(r->vbuf);
    free(r->rbuf);
    free(r);
}

WRdbState *wrdb_register(WRdb *r, WState *s, const char *name, WStateKind kind, int64_t ttl)
{
    WRdbState *rs = wcalloc(1, sizeof *rs);
    rs->r = r;
    rs->s = s;
    rs->name = wstrdup(name);
    rs->kind = kind;
    rs->ttl = ttl;
    atomic_store(&rs->ttl_shared, ttl);
    wrc_init(&rs->cache, (size_t)r->cache_entries);
    if (r->nstates == r->capstates) {
        r->capstates = r->capstates ? r->capstates * 2 : 8;
        r->states = wrealloc(r->states, sizeof(WRdbState *) * (size_t)r->capstates);
    }
    r->states[r->nstates++] = rs;
    rocksdb_options_t *o = wrdb_cf_options(r->opts, kind, rs, &rs->filter, r->write_buffer, r->cache_entries == 0);
    char *e = NULL;
    /* the default column family exists already and has no merge operator: rename that one */
    rs->cf = rocksdb_create_column_family(r->db, o, strcmp(name, "default") == 0 ? "_default" : name, &e);
    rocksdb_options_destroy(o);
    if (!check(r, e, "create column family")) rs->cf = NULL;
    return rs;
}

void wrdb_set_ttl(WRdbState *rs, int64_t ttl)
{
    rs->ttl = ttl;
    atomic_store(&rs->ttl_shared, ttl);
}

int wrdb_set_key(WRdb *r, const void *key, size_t len, bool hashed, uint64_t hash)
{
    if (!r->perf_set || !pthread_equal(r->perf_thread, pthread_self())) {
        rocksdb_set_perf_level(1);      /* kDisable: no per-operation perf counters (thread-local) */
        r->perf_thread = pthread_self();
        r->perf_set = true;
    }
    int kg = wstate_key_group_of(key, len, r->maxp);
    grow(&r->vkey, &r->vkcap, len + 2);
    wbe_put16(r->vkey, (uint16_t)kg);
    if (len) memcpy(r->vkey + 2, key, len);
    r->vklen = len + 2;
    r->epoch++;
    if (hashed) {
        r->vhash = hash;
        r->vhash_epoch = r->epoch;
    }
    return kg;
}

/* The current key's wrc_hash: the caller's when it gave one, else computed once, when first
   needed (a key whose state is not cached, or a map state's, never needs it). */
static uint64_t cur_hash(WRdb *r)
{
    if (r->vhash_epoch != r->epoch) {
        r->vhash = wrc_hash(r->vkey, r->vklen);
        r->vhash_epoch = r->epoch;
    }
    return r->vhash;
}

static bool usable(WRdbState *rs) { return rs->cf && !rs->r->failed; }

/* Raw get of a composite key: malloc'd value (or NULL). */
static char *get_raw(WRdbState *rs, const unsigned char *k, size_t kl, size_t *vl)
{
    char *e = NULL;
    char *v = rocksdb_get_cf(rs->r->db, rs->r->ro, rs->cf, (const char *)k, kl, vl, &e);
    if (!check(rs->r, e, "get")) { free(v); return NULL; }
    if (v && *vl < 8) { free(v); return NULL; }
    return v;
}

static void put_raw(WRdbState *rs, const void *k, size_t kl, const void *v, size_t vl)
{
    char *e = NULL;
    rocksdb_put_cf(rs->r->db, rs->r->wo, rs->cf, k, kl, v, vl, &e);
    check(rs->r, e, "put");
}

static void del_raw(WRdbState *rs, const void *k, size_t kl)
{
    char *e = NULL;
    rocksdb_delete_cf(rs->r->db, rs->r->wo, rs->cf, k, kl, &e);
    check(rs->r, e, "delete");
}

/* ---------------------------------------------------------------- write-back cache */

static int cmp_entry_key(const void *a, const void *b)
{
    const WRcEntry *x = *(WRcEntry *const *)a, *y = *(WRcEntry *const *)b;
    int c = memcmp(wrc_key(x), wrc_key(y), x->klen < y->klen ? x->klen : y->klen);
    return c ? c : (x->klen > y->klen) - (x->klen < y->klen);
}

/* Write the state's dirty cache entries to RocksDB in one batch (puts, and deletes for entries
   known absent) in key order, so that the memtable's skip list inserts them walking forward
   from the previous one; they stay cached, clean. */
static void cache_write(WRdbState *rs)
{
    WRcache *c = &rs->cache;
    if (!c->ndirty) return;
    WRdb *r = rs->r;
    if (usable(rs)) {
        if (c->ndirty > r->sortcap) {
            r->sortcap = c->ndirty * 2;
            r->sorted = wrealloc(r->sorted, sizeof(WRcEntry *) * r->sortcap);
        }
        for (uint32_t i = 0; i < c->ndirty; i++) r->sorted[i] = wrc_dirty_at(c, i);
        wqsort(r->sorted, c->ndirty, sizeof(WRcEntry *), cmp_entry_key);
        rocksdb_writebatch_clear(r->batch);
        for (uint32_t i = 0; i < c->ndirty; i++) {
            WRcEntry *e = r->sorted[i];
            if (e->flags & WRC_PRESENT)
                rocksdb_writebatch_put_cf(r->batch, rs->cf, (const char *)wrc_key(e), e->klen,
                                          (const char *)wrc_value(e), e->vlen);
            else
                rocksdb_writebatch_delete_cf(r->batch, rs->cf, (const char *)wrc_key(e), e->klen);
        }
        char *e = NULL;
        rocksdb_write(r->db, r->wo, r->batch, &e);
        check(r, e, "batch write");
        rocksdb_writebatch_clear(r->batch);
    }
    wrc_clean_all(c);
}

/* After a write: back to the bound, writing the dirty entries first (one batch per eviction of
   an eighth of the cache). */
static void cache_room(WRdbState *rs)
{
    WRcache *c = &rs->cache;
    if (c->n <= c->max) return;
    cache_write(rs);
    wrc_evict(c, c->max - c->max / 8);
}

/* Before the state's entries are read or written in RocksDB directly: write the dirty ones, and
   with drop, forget all (restore adds entries behind the cache's back). */
static void cache_sync(WRdbState *rs, bool drop)
{
    cache_write(rs);
    if (drop && rs->cache.n) wrc_clear(&rs->cache);
}

/* The cache entry of composite key k (present or known absent), read from RocksDB on a miss.
   NULL when the cache is off, RocksDB failed, or (for reads, !force) the cache is over its bound;
   the caller then works on RocksDB directly. */
static WRcEntry *cache_load(WRdbState *rs, const unsigned char *k, size_t kl, bool force)
{
    WRcache *c = &rs->cache;
    if (!wrc_on(c)) return NULL;
    WRdb *r = rs->r;
    bool cur = k == r->vkey;            /* the current key of a value/list state: memoised */
    if (cur && rs->memo_epoch == r->epoch && rs->memo_gen == c->gen) return &c->e[rs->memo_idx];
    uint64_t h = cur ? cur_hash(r) : wrc_hash(k, kl);
    WRcEntry *e = wrc_find_hashed(c, k, kl, h);
    if (!e) {
        if (!force && c->n >= c->max + READ_SLACK) return NULL;
        size_t vl = 0;
        char *v = get_raw(rs, k, kl, &vl);
        if (r->failed) { free(v); return NULL; }
        if (v && vl > MAX_CACHED_VALUE && !force) { free(v); return NULL; }   /* read again, uncached */
        e = wrc_insert(c, k, kl, h, v, v ? vl : 0);
        free(v);
    }
    if (cur) {
        rs->memo_epoch = r->epoch;
        rs->memo_gen = c->gen;
        rs->memo_idx = (uint32_t)(e - c->e);
    }
    return e;
}

/* A present entry whose TTL ran out, found by a read: removed (WSL_EXPIRED), unless RocksDB's
   compaction filter dropped it already while it sat clean in the cache (then it reads as absent
   and was counted by the filter, as without the cache). */
static WStateLookup cache_expire(WRdbState *rs, WRcEntry *e, int64_t items, int64_t bytes)
{
    if (!(e->flags & WRC_DIRTY)) {
        size_t vl;
        char *v = get_raw(rs, wrc_key(e), e->klen, &vl);
        bool there = v != NULL;
        free(v);
        if (!there) {
            e->flags &= (uint8_t)~WRC_PRESENT;
            e->vlen = 0;
            return WSL_ABSENT;
        }
    }
    wrc_set(&rs->cache, e, NULL, 0);
    rs->entries -= items;
    rs->bytes -= bytes;
    rs->expired_reads++;
    ring_release(rs);
    return WSL_EXPIRED;
}

static int64_t entry_ts(const WRcEntry *e) { return (int64_t)wbe_get64(wrc_value(e)); }

/* ts + bytes as the value of e (dirty); bytes may point into the cache. Values too large for the
   cache are written to RocksDB directly and the entry removed. */
static void cache_put(WRdbState *rs, WRcEntry *e, int64_t ts, const void *v, size_t len)
{
    if (len + 8 > MAX_CACHED_VALUE) {
        size_t n;
        const char *val = encode_value(rs->r, ts, v, len, &n);
        put_raw(rs, wrc_key(e), e->klen, val, n);
        wrc_remove(&rs->cache, e);
        return;
    }
    const unsigned char *src = v;
    if (len && src >= e->buf && src < e->buf + e->cap) {   /* own bytes: keep them across growth */
        grow(&rs->r->vbuf, &rs->r->vbcap, len);
        memcpy(rs->r->vbuf, v, len);
        src = rs->r->vbuf;
    }
    unsigned char *p = wrc_reserve(&rs->cache, e, len + 8);
    wbe_put64(p, (uint64_t)ts);
    if (len) memmove(p + 8, src, len);
}

/* ---------------------------------------------------------------- value state */

/* The entries of n value-state keys (keys[i]; key groups as ops_key_set computes them) that will be looked up next,
   read into the write-back cache: those not cached yet in one MultiGet (RocksDB batches their
   memtable and file lookups), each kept as present or known absent. Room for them is made as a
   write makes it (the dirty entries written, the least recently used evicted; the cached keys of
   the batch are marked used first) so that they stay until their lookups; keys beyond half the
   cache are left to their lookups. Without the cache (or after a failure) nothing is read. */
void wrdb_value_load(WRdbState *rs, const WBytes *keys, const uint64_t *hashes, int n)
{
    WRcache *c = &rs->cache;
    WRdb *r = rs->r;
    if (!usable(rs) || !wrc_on(c) || n <= 0) return;
    if ((size_t)n > c->max / 2) n = (int)(c->max / 2);
    if (n <= 0) return;
    if (n > r->lcap) {
        r->lcap = n * 2;
        r->lptr = wrealloc(r->lptr, sizeof *r->lptr * (size_t)r->lcap);
        r->lsize = wrealloc(r->lsize, sizeof *r->lsize * (size_t)r->lcap);
        r->lval = wrealloc(r->lval, sizeof *r->lval * (size_t)r->lcap);
        r->lerr = wrealloc(r->lerr, sizeof *r->lerr * (size_t)r->lcap);
        r->lhash = wrealloc(r->lhash, sizeof *r->lhash * (size_t)r->lcap);
    }
    size_t total = 0;
    for (int i = 0; i < n; i++) total += keys[i].len + 2;
    grow(&r->lkeys, &r->lkcap, total);
    /* the composite keys and their hashes; then their cache lookups, read ahead in stages over
       the whole batch (the cache's table, entries and keys are far larger than the CPU's caches;
       the lookups of the same keys that follow find them there too) */
    size_t off = 0;
    for (int i = 0; i < n; i++) {
        unsigned char *k = r->lkeys + off;
        wbe_put16(k, (uint16_t)wstate_key_group_ns(keys[i].p, keys[i].len, r->b->ns_bytes, r->maxp));
        if (keys[i].len) memcpy(k + 2, keys[i].p, keys[i].len);
        r->lptr[i] = (const char *)k;
        r->lsize[i] = keys[i].len + 2;
        r->lhash[i] = hashes ? hashes[i] : wrc_hash(k, r->lsize[i]);
        wrc_prefetch(c, r->lhash[i], WRC_AHEAD_SLOT);
        off += r->lsize[i];
    }
    for (int i = 0; i < n; i++) wrc_prefetch(c, r->lhash[i], WRC_AHEAD_ENTRY);
    for (int i = 0; i < n; i++) wrc_prefetch(c, r->lhash[i], WRC_AHEAD_KEY);
    /* the keys not cached (those cached are marked used, so that making room spares them) */
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (wrc_find_hashed(c, r->lptr[i], r->lsize[i], r->lhash[i])) continue;
        r->lptr[m] = r->lptr[i];
        r->lsize[m] = r->lsize[i];
        r->lhash[m] = r->lhash[i];
        m++;
    }
    if (!m) return;
    if (c->n + (size_t)m > c->max + READ_SLACK) {
        cache_write(rs);
        size_t target = c->max - c->max / 8;
        if (target > c->max - (size_t)m) target = c->max - (size_t)m;
        wrc_evict(c, target);
    }
    rocksdb_batched_multi_get_cf(r->db, r->ro, rs->cf, (size_t)m, r->lptr, r->lsize, r->lval, r->lerr, false);
    for (int i = 0; i < m; i++) {
        rocksdb_pinnableslice_t *ps = r->lval[i];
        if (r->lerr[i]) {
            check(r, r->lerr[i], "multi-get");
            if (ps) rocksdb_pinnableslice_destroy(ps);
            continue;
        }
        size_t vl = 0;
        const char *v = ps ? rocksdb_pinnableslice_value(ps, &vl) : NULL;
        if (v && vl < 8) v = NULL;                  /* as get_raw: not a value of ours */
        /* over-large values stay out of the cache (read again by their lookup); a key twice in
           keys is loaded once */
        if ((!v || vl <= MAX_CACHED_VALUE) && !wrc_peek(c, r->lptr[i], r->lsize[i]))
            wrc_insert(c, r->lptr[i], r->lsize[i], r->lhash[i], v, v ? vl : 0);
        if (ps) rocksdb_pinnableslice_destroy(ps);
    }
}


WStateLookup wrdb_value_get(WRdbState *rs, WBytes *out)
{
    WRdb *r = rs->r;
    out->p = NULL;
    out->len = 0;
    rs->known_epoch = r->epoch;
    rs->known_found = false;
    if (!usable(rs)) return WSL_ABSENT;
    WRcEntry *ce = cache_load(rs, r->vkey, r->vklen, false);
    if (ce) {
        if (!(ce->flags & WRC_PRESENT)) return WSL_ABSENT;
        if (rs->ttl > 0 && expired_at(rs->ttl, entry_ts(ce), now_of(r)))
            return cache_expire(rs, ce, 1, (int64_t)(r->vklen - 2 + ce->vlen - 8));
        out->p = wrc_value(ce) + 8;
        out->len = ce->vlen - 8;
        return WSL_FOUND;
    }
    size_t vl;
    char *v = get_raw(rs, r->vkey, r->vklen, &vl);
    if (!v) return WSL_ABSENT;
    int64_t ts = (int64_t)wbe_get64((const unsigned char *)v);
    if (rs->ttl > 0 && expired_at(rs->ttl, ts, now_of(r))) {
        del_raw(rs, r->vkey, r->vklen);
        rs->entries--;
        rs->bytes -= (int64_t)(r->vklen - 2 + vl - 8);
        rs->expired_reads++;
        free(v);
        ring_release(rs);
        return WSL_EXPIRED;
    }
    ring_push(rs, v);
    rs->known_found = true;
    rs->known_vlen = vl - 8;
    out->p = v + 8;
    out->len = vl - 8;
    return WSL_FOUND;
}

void wrdb_value_put(WRdbState *rs, const void *v, size_t len)
{
    WRdb *r = rs->r;
    if (!usable(rs)) return;
    int64_t now = write_time(rs);
    bool found;
    size_t old = 0;
    WRcEntry *ce = cache_load(rs, r->vkey, r->vklen, true);
    if (ce) {
        found = ce->flags & WRC_PRESENT;
        if (found) {
            old = ce->vlen - 8;
            if (rs->ttl > 0 && expired_at(rs->ttl, entry_ts(ce), now)) rs->expired_reads++;
            rs->bytes += (int64_t)len - (int64_t)old;
        } else {
            rs->entries++;
            rs->bytes += (int64_t)(r->vklen - 2 + len);
        }
        cache_put(rs, ce, now, v, len);
        rs->known_epoch = 0;
        ring_release(rs);
        cache_room(rs);
        return;
    }
    if (rs->known_epoch == r->epoch) {
        found = rs->known_found;
        old = rs->known_vlen;
    } else {
        size_t vl;
        char *p = get_raw(rs, r->vkey, r->vklen, &vl);
        found = p != NULL;
        if (p) {
            old = vl - 8;
            if (rs->ttl > 0 && expired_at(rs->ttl, (int64_t)wbe_get64((unsigned char *)p), now)) rs->expired_reads++;
            free(p);
        }
    }
    size_t n;
    const char *val = encode_value(r, now, v, len, &n);
    put_raw(rs, r->vkey, r->vklen, val, n);
    if (found) {
        rs->bytes += (int64_t)len - (int64_t)old;
    } else {
        rs->entries++;
        rs->bytes += (int64_t)(r->vklen - 2 + len);
    }
    rs->known_epoch = r->epoch;
    rs->known_found = true;
    rs->known_vlen = len;
    ring_release(rs);
}

static void map_clear(WRdbState *rs);

void wrdb_clear(WRdbState *rs)
{
    WRdb *r = rs->r;
    if (!usable(rs)) return;
    if (rs->kind == WSTATE_MAP) { map_clear(rs); return; }
    bool found;
    size_t old = 0, items = 0;
    int n = 1;
    WRcEntry *ce = cache_load(rs, r->vkey, r->vklen, true);
    if (ce) {
        if (!(ce->flags & WRC_PRESENT)) return;
        if (rs->kind == WSTATE_LIST) {
            n = list_count(wrc_value(ce) + 8, ce->vlen - 8, &items);
            rs->entries -= n < 0 ? 0 : n;
            rs->bytes -= (int64_t)items;
        } else {
            rs->entries--;
            rs->bytes -= (int64_t)(r->vklen - 2 + ce->vlen - 8);
        }
        wrc_set(&rs->cache, ce, NULL, 0);
        rs->known_epoch = 0;
        ring_release(rs);
        cache_room(rs);
        return;
    }
    if (rs->kind == WSTATE_VALUE && rs->known_epoch == r->epoch) {
        found = rs->known_found;
        old = rs->known_vlen;
    } else {
        size_t vl;
        char *p = get_raw(rs, r->vkey, r->vklen, &vl);
        found = p != NULL;
        if (p) {
            old = vl - 8;
            if (rs->kind == WSTATE_LIST) {
                n = list_count((unsigned char *)p + 8, vl - 8, &items);
                if (n < 0) n = 0;
            }
            free(p);
        }
    }
    if (!found) return;
    del_raw(rs, r->vkey, r->vklen);
    if (rs->kind == WSTATE_LIST) {
        rs->entries -= n;
        rs->bytes -= (int64_t)items;
    } else {
        rs->entries--;
        rs->bytes -= (int64_t)(r->vklen - 2 + old);
    }
    rs->known_epoch = r->epoch;
    rs->known_found = false;
    ring_release(rs);
}

/* ---------------------------------------------------------------- map state */

static void remember_uk(WRdbState *rs, const void *uk, size_t uklen, bool found, size_t vlen)
{
    grow(&rs->known_uk, &rs->known_ukcap, uklen + 1);
    if (uklen) memcpy(rs->known_uk, uk, uklen);
    rs->known_uklen = uklen;
    rs->known_epoch = rs->r->epoch;
    rs->known_found = found;
    rs->known_vlen = vlen;
}

static bool knows_uk(const WRdbState *rs, const void *uk, size_t uklen)
{
    return rs->known_epoch == rs->r->epoch && rs->known_uklen == uklen &&
           (uklen == 0 || memcmp(rs->known_uk, uk, uklen) == 0);
}

WStateLookup wrdb_map_get(WRdbState *rs, const void *uk, size_t uklen, WBytes *out)
{
    WRdb *r = rs->r;
    out->p = NULL;
    out->len = 0;
    if (!usable(rs)) return WSL_ABSENT;
    size_t kl, vl;
    const unsigned char *k = mkey_with(r, uk, uklen, &kl);
    WRcEntry *ce = cache_load(rs, k, kl, false);
    if (ce) {
        if (!(ce->flags & WRC_PRESENT)) return WSL_ABSENT;
        if (rs->ttl > 0 && expired_at(rs->ttl, entry_ts(ce), now_of(r)))
            return cache_expire(rs, ce, 1, (int64_t)(kl - 6 + ce->vlen - 8));
        out->p = wrc_value(ce) + 8;
        out->len = ce->vlen - 8;
        return WSL_FOUND;
    }
    char *v = get_raw(rs, k, kl, &vl);
    if (!v) { remember_uk(rs, uk, uklen, false, 0); return WSL_ABSENT; }
    if (rs->ttl > 0 && expired_at(rs->ttl, (int64_t)wbe_get64((unsigned char *)v), now_of(r))) {
        del_raw(rs, k, kl);
        rs->entries--;
        rs->bytes -= (int64_t)(kl - 6 + vl - 8);
        rs->expired_reads++;
        free(v);
        remember_uk(rs, uk, uklen, false, 0);
        ring_release(rs);
        return WSL_EXPIRED;
    }
    ring_push(rs, v);
    remember_uk(rs, uk, uklen, true, vl - 8);
    out->p = v + 8;
    out->len = vl - 8;
    return WSL_FOUND;
}

void wrdb_map_put(WRdbState *rs, const void *uk, size_t uklen, const void *uv, size_t uvlen)
{
    WRdb *r = rs->r;
    if (!usable(rs)) return;
    int64_t now = write_time(rs);
    size_t kl;
    mkey_with(r, uk, uklen, &kl);
    bool found;
    size_t old = 0;
    WRcEntry *ce = cache_load(rs, r->mkey, kl, true);
    if (ce) {
        found = ce->flags & WRC_PRESENT;
        if (found) {
            rs->bytes += (int64_t)uvlen - (int64_t)(ce->vlen - 8);
        } else {
            rs->entries++;
            rs->bytes += (int64_t)(kl - 6 + uvlen);
        }
        cache_put(rs, ce, now, uv, uvlen);
        rs->known_epoch = 0;
        ring_release(rs);
        cache_room(rs);
        return;
    }
    if (knows_uk(rs, uk, uklen)) {
        found = rs->known_found;
        old = rs->known_vlen;
    } else {
        size_t vl;
        char *p = get_raw(rs, r->mkey, kl, &vl);
        found = p != NULL;
        if (p) { old = vl - 8; free(p); }
    }
    size_t n;
    const char *val = encode_value(r, now, uv, uvlen, &n);
    put_raw(rs, r->mkey, kl, val, n);
    if (found) {
        rs->bytes += (int64_t)uvlen - (int64_t)old;
    } else {
        rs->entries++;
        rs->bytes += (int64_t)(kl - 6 + uvlen);
    }
    remember_uk(rs, uk, uklen, true, uvlen);
    ring_release(rs);
}

void wrdb_map_remove(WRdbState *rs, const void *uk, size_t uklen)
{
    WRdb *r = rs->r;
    if (!usable(rs)) return;
    size_t kl;
    mkey_with(r, uk, uklen, &kl);
    bool found;
    size_t old = 0;
    WRcEntry *ce = cache_load(rs, r->mkey, kl, true);
    if (ce) {
        if (!(ce->flags & WRC_PRESENT)) return;
        rs->entries--;
        rs->bytes -= (int64_t)(kl - 6 + ce->vlen - 8);
        wrc_set(&rs->cache, ce, NULL, 0);
        rs->known_epoch = 0;
        ring_release(rs);
        cache_room(rs);
        return;
    }
    if (knows_uk(rs, uk, uklen)) {
        found = rs->known_found;
        old = rs->known_vlen;
    } else {
        size_t vl;
        char *p = get_raw(rs, r->mkey, kl, &vl);
        found = p != NULL;
        if (p) { old = vl - 8; free(p); }
    }
    if (!found) return;
    del_raw(rs, r->mkey, kl);
    rs->entries--;
    rs->bytes -= (int64_t)(kl - 6 + old);
    remember_uk(rs, uk, uklen, false, 0);
    ring_release(rs);
}

/* A bounded iterator over the current key's map entries (caller destroys both). */
static rocksdb_iterator_t *prefix_iter(WRdbState *rs, rocksdb_readoptions_t **ro, unsigned char **ub,
                                       size_t *ubcap, size_t *prefix)
{
    WRdb *r = rs->r;
    size_t kl;
    const unsigned char *k = mkey_with(r, NULL, 0, &kl);
    size_t ul = upper_bound(k, kl, ub, ubcap);
    *ro = rocksdb_readoptions_create();
    rocksdb_readoptions_set_verify_checksums(*ro, 0);
    rocksdb_readoptions_set_iterate_upper_bound(*ro, (const char *)*ub, ul);
    rocksdb_iterator_t *it = rocksdb_create_iterator_cf(r->db, *ro, rs->cf);
    rocksdb_iter_seek(it, (const char *)k, kl);
    *prefix = kl;
    return it;
}

size_t wrdb_map_size(WRdbState *rs, bool stop_at_first)
{
    if (!usable(rs)) return 0;
    cache_sync(rs, false);
    int64_t now = rs->ttl > 0 ? now_of(rs->r) : 0;
    rocksdb_readoptions_t *ro;
    unsigned char *ub = NULL;
    size_t ubcap = 0, prefix;
    rocksdb_iterator_t *it = prefix_iter(rs, &ro, &ub, &ubcap, &prefix);
    size_t n = 0;
    for (; rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
        size_t vl;
        const char *v = rocksdb_iter_value(it, &vl);
        if (vl < 8 || expired_at(rs->ttl, (int64_t)wbe_get64((const unsigned char *)v), now)) continue;
        n++;
        if (stop_at_first) break;
    }
    rocksdb_iter_destroy(it);
    rocksdb_readoptions_destroy(ro);
    free(ub);
    return n;
}

/* A key deleted in RocksDB directly (after cache_sync): known absent in the cache too. */
static void cache_forget(WRdbState *rs, const void *k, size_t kl)
{
    WRcEntry *e = wrc_on(&rs->cache) ? wrc_find(&rs->cache, k, kl) : NULL;
    if (!e) return;
    e->flags &= (uint8_t)~WRC_PRESENT;
    e->vlen = 0;
}

static void map_clear(WRdbState *rs)
{
    cache_sync(rs, false);
    rocksdb_readoptions_t *ro;
    unsigned char *ub = NULL;
    size_t ubcap = 0, prefix;
    rocksdb_iterator_t *it = prefix_iter(rs, &ro, &ub, &ubcap, &prefix);
    for (; rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
        size_t kl, vl;
        const char *k = rocksdb_iter_key(it, &kl);
        rocksdb_iter_value(it, &vl);
        del_raw(rs, k, kl);
        cache_forget(rs, k, kl);
        rs->entries--;
        rs->bytes -= (int64_t)(kl - 6 + (vl >= 8 ? vl - 8 : 0));
    }
    rocksdb_iter_destroy(it);
    rocksdb_readoptions_destroy(ro);
    free(ub);
    rs->known_epoch = 0;
    ring_release(rs);
}

void wrdb_map_iter(WRdbState *rs, WMapIter *it)
{
    close_iter(rs);
    it->s = rs->s;
    it->table = NULL;
    it->pos = 0;
    if (!usable(rs)) return;
    cache_sync(rs, false);
    rs->it = prefix_iter(rs, &rs->itro, &rs->ub, &rs->ubcap, &rs->it_prefix);
    rs->it_started = false;
    it->table = rs;
}

bool wrdb_map_next(WMapIter *it, WBytes *uk, WBytes *uv)
{
    WRdbState *rs = it->s->rdb;
    if (!rs->it || it->table != rs) return false;
    if (rs->it_started) rocksdb_iter_next(rs->it);
    rs->it_started = true;
    int64_t now = rs->ttl > 0 ? now_of(rs->r) : 0;
    for (; rocksdb_iter_valid(rs->it); rocksdb_iter_next(rs->it)) {
        size_t kl, vl;
        const char *k = rocksdb_iter_key(rs->it, &kl);
        const char *v = rocksdb_iter_value(rs->it, &vl);
        if (vl < 8 || kl < rs->it_prefix) continue;
        if (expired_at(rs->ttl, (int64_t)wbe_get64((const unsigned char *)v), now)) continue;
        uk->p = k + rs->it_prefix;
        uk->len = kl - rs->it_prefix;
        uv->p = v + 8;
        uv->len = vl - 8;
        return true;
    }
    close_iter(rs);
    it->table = NULL;
    return false;
}

void wrdb_map_iter_remove(WMapIter *it)
{
    WRdbState *rs = it->s->rdb;
    if (!rs->it || it->table != rs || !rs->it_started || !rocksdb_iter_valid(rs->it)) return;
    size_t kl, vl;
    const char *k = rocksdb_iter_key(rs->it, &kl);
    rocksdb_iter_value(rs->it, &vl);
    del_raw(rs, k, kl);
    cache_forget(rs, k, kl);
    rs->entries--;
    rs->bytes -= (int64_t)(kl - 6 + (vl >= 8 ? vl - 8 : 0));
    rs->known_epoch = 0;
}

/* ---------------------------------------------------------------- list state */

void wrdb_list_add(WRdbState *rs, const void *v, size_t len)
{
    WRdb *r = rs->r;
    if (!usable(rs)) return;
    int64_t now = write_time(rs);
    /* a cached list is appended to in the cache; an uncached one gets a merge (no read) */
    WRcEntry *ce = wrc_on(&rs->cache) ? wrc_find(&rs->cache, r->vkey, r->vklen) : NULL;
    if (ce) {
        size_t keep = 0;            /* body bytes kept: none when the last write is older than the TTL */
        if ((ce->flags & WRC_PRESENT) && ce->vlen >= 8) {
            keep = ce->vlen - 8;
            if (expired_at(rs->ttl, entry_ts(ce), now)) {
                size_t ib = 0;
                int n = list_count(wrc_value(ce) + 8, keep, &ib);
                rs->entries -= n < 0 ? 0 : n;
                rs->bytes -= (int64_t)ib;
                keep = 0;
            }
        }
        if (keep + 12 + len <= MAX_CACHED_VALUE) {
            const unsigned char *src = v;
            if (len && src >= ce->buf && src < ce->buf + ce->cap) {
                grow(&r->vbuf, &r->vbcap, len);
                memcpy(r->vbuf, v, len);
                src = r->vbuf;
            }
            unsigned char *p = wrc_reserve(&rs->cache, ce, 8 + keep + 4 + len);
            wbe_put64(p, (uint64_t)now);
            wbe_put32(p + 8 + keep, (uint32_t)len);
            if (len) memcpy(p + 12 + keep, src, len);
            rs->entries++;
            rs->bytes += (int64_t)len;
            ring_release(rs);
            cache_room(rs);
            return;
        }
        /* too large for the cache: RocksDB gets the list so far, then the merge below */
        if (!keep) wrc_set(&rs->cache, ce, NULL, 0);
        cache_sync(rs, false);
        wrc_remove(&rs->cache, ce);
    }
    grow(&r->vbuf, &r->vbcap, len + 12);
    wbe_put64(r->vbuf, (uint64_t)now);
    wbe_put32(r->vbuf + 8, (uint32_t)len);
    if (len) memcpy(r->vbuf + 12, v, len);
    char *e = NULL;
    rocksdb_merge_cf(r->db, r->wo, rs->cf, (const char *)r->vkey, r->vklen, (const char *)r->vbuf, len + 12, &e);
    if (!check(r, e, "merge")) return;
    rs->entries++;
    rs->bytes += (int64_t)len;
    ring_release(rs);
}

int wrdb_list_get(WRdbState *rs, const WBytes **items, WStateLookup *how)
{
    WRdb *r = rs->r;
    *items = NULL;
    if (how) *how = WSL_ABSENT;
    if (!usable(rs)) return 0;
    WRcEntry *ce = cache_load(rs, r->vkey, r->vklen, false);
    if (ce) {
        if (!(ce->flags & WRC_PRESENT) || ce->vlen < 8) return 0;
        const unsigned char *body = wrc_value(ce) + 8;
        size_t ib = 0;
        int n = list_count(body, ce->vlen - 8, &ib);
        if (n <= 0) return 0;
        if (rs->ttl > 0 && expired_at(rs->ttl, entry_ts(ce), now_of(r))) {
            WStateLookup l = cache_expire(rs, ce, n, (int64_t)ib);
            if (how) *how = l;
            return 0;
        }
        WBytes *arr = wmalloc(sizeof(WBytes) * (size_t)n);
        size_t off = 0;
        for (int i = 0; i < n; i++) {
            uint32_t l = wbe_get32(body + off);
            arr[i] = (WBytes){body + off + 4, l};
            off += 4 + l;
        }
        ring_push(rs, arr);
        *items = arr;
        if (how) *how = WSL_FOUND;
        return n;
    }
    size_t vl;
    char *v = get_raw(rs, r->vkey, r->vklen, &vl);
    if (!v) return 0;
    const unsigned char *body = (const unsigned char *)v + 8;
    size_t ib = 0;
    int n = list_count(body, vl - 8, &ib);
    if (n <= 0) { free(v); return 0; }
    if (rs->ttl > 0 && expired_at(rs->ttl, (int64_t)wbe_get64((unsigned char *)v), now_of(r))) {
        del_raw(rs, r->vkey, r->vklen);
        rs->entries -= n;
        rs->bytes -= (int64_t)ib;
        rs->expired_reads++;
        free(v);
        ring_release(rs);
        if (how) *how = WSL_EXPIRED;
        return 0;
    }
    WBytes *arr = wmalloc(sizeof(WBytes) * (size_t)n);
    size_t off = 0;
    for (int i = 0; i < n; i++) {
        uint32_t l = wbe_get32(body + off);
        arr[i] = (WBytes){body + off + 4, l};
        off += 4 + l;
    }
    ring_push(rs, v);
    ring_push(rs, arr);
    *items = arr;
    if (how) *how = WSL_FOUND;
    return n;
}

void wrdb_list_remove_at(WRdbState *rs, int index)
{
    WRdb *r = rs->r;
    if (!usable(rs)) return;
    WRcEntry *ce = cache_load(rs, r->vkey, r->vklen, true);
    if (ce) {
        if (!(ce->flags & WRC_PRESENT) || ce->vlen < 8) return;
        const unsigned char *body = wrc_value(ce) + 8;
        size_t blen = ce->vlen - 8;
        int n = list_count(body, blen, NULL);
        if (index < 0 || index >= n) return;
        size_t off = 0;
        for (int i = 0; i < index; i++) off += 4 + wbe_get32(body + off);
        uint32_t l = wbe_get32(body + off);
        if (n == 1) {
            wrc_set(&rs->cache, ce, NULL, 0);
        } else {                    /* in place: the rest moves down, the timestamp is now */
            unsigned char *p = wrc_value(ce);
            memmove(p + 8 + off, p + 8 + off + 4 + l, blen - off - 4 - l);
            wbe_put64(p, (uint64_t)write_time(rs));
            wrc_reserve(&rs->cache, ce, 8 + blen - 4 - l);
        }
        rs->entries--;
        rs->bytes -= l;
        ring_release(rs);
        cache_room(rs);
        return;
    }
    size_t vl;
    char *v = get_raw(rs, r->vkey, r->vklen, &vl);
    if (!v) return;
    const unsigned char *body = (const unsigned char *)v + 8;
    size_t blen = vl - 8;
    int n = list_count(body, blen, NULL);
    if (index < 0 || index >= n) { free(v); return; }
    size_t off = 0;
    for (int i = 0; i < index; i++) off += 4 + wbe_get32(body + off);
    uint32_t l = wbe_get32(body + off);
    if (n == 1) {
        del_raw(rs, r->vkey, r->vklen);
    } else {
        grow(&r->vbuf, &r->vbcap, 8 + blen);
        wbe_put64(r->vbuf, (uint64_t)write_time(rs));
        memcpy(r->vbuf + 8, body, off);
        memcpy(r->vbuf + 8 + off, body + off + 4 + l, blen - off - 4 - l);
        put_raw(rs, r->vkey, r->vklen, r->vbuf, 8 + blen - 4 - l);
    }
    rs->entries--;
    rs->bytes -= l;
    free(v);
    ring_release(rs);
}

/* ---------------------------------------------------------------- whole-state access */

void wrdb_for_each(WRdbState *rs, WStateKeyFn fn, void *ctx)
{
    if (!usable(rs)) return;
    cache_sync(rs, false);
    rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
    rocksdb_readoptions_set_verify_checksums(ro, 0);
    rocksdb_readoptions_set_total_order_seek(ro, 1);
    rocksdb_iterator_t *it = rocksdb_create_iterator_cf(rs->r->db, ro, rs->cf);
    unsigned char *last = NULL;
    size_t lastcap = 0, lastlen = 0;
    bool have = false;
    for (rocksdb_iter_seek_to_first(it); rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
        size_t kl, vl;
        const unsigned char *k = (const unsigned char *)rocksdb_iter_key(it, &kl);
        const char *v = rocksdb_iter_value(it, &vl);
        if (rs->kind == WSTATE_MAP) {
            if (kl < 6) continue;
            size_t klen = wbe_get32(k + 2);
            if (klen > kl - 6) continue;
            if (have && lastlen == klen && memcmp(last, k + 6, klen) == 0) continue;
            grow(&last, &lastcap, klen + 1);
            memcpy(last, k + 6, klen);
            lastlen = klen;
            have = true;
            fn(ctx, (WBytes){k + 6, klen}, (WBytes){NULL, 0});
        } else if (kl >= 2) {
            if (rs->kind == WSTATE_VALUE && vl >= 8) fn(ctx, (WBytes){k + 2, kl - 2}, (WBytes){v + 8, vl - 8});
            else fn(ctx, (WBytes){k + 2, kl - 2}, (WBytes){NULL, 0});
        }
    }
    free(last);
    rocksdb_iter_destroy(it);
    rocksdb_readoptions_destroy(ro);
}

/* The bytes one RocksDB entry holds (as rs->bytes counts them), 0 when it reads as expired;
   *key / *klen receive the state key (without the key group, a map's length and user key). */
static int64_t scan_entry_bytes(const WRdbState *rs, const unsigned char *k, size_t kl, const unsigned char *v, size_t vl,
                                int64_t now, const unsigned char **key, size_t *klen)
{
    *key = NULL;
    *klen = 0;
    if (kl < 2 || vl < 8 || expired_at(rs->ttl, (int64_t)wbe_get64(v), now)) return 0;
    if (rs->kind == WSTATE_MAP) {
        if (kl < 6 || wbe_get32(k + 2) > kl - 6) return 0;
        *key = k + 6;
        *klen = wbe_get32(k + 2);
        return (int64_t)(kl - 6 + vl - 8);
    }
    *key = k + 2;
    *klen = kl - 2;
    if (rs->kind == WSTATE_LIST) {
        size_t ib = 0;
        return list_count(v + 8, vl - 8, &ib) < 0 ? 0 : (int64_t)ib;
    }
    return (int64_t)(kl - 2 + vl - 8);
}

/* The walk's second phase: the write-back cache's present entries (newer than RocksDB's, or the
   only copy), by index from rs->scan_idx; true when it reached the end. */
static bool scan_cache(WRdbState *rs, size_t *pos, int64_t *budget, int64_t now, size_t ns_bytes, WStateKeyBytesFn fn,
                       void *ctx)
{
    const WRcache *c = &rs->cache;
    for (; rs->scan_idx < c->n; rs->scan_idx++) {
        if (*budget <= 0) return false;
        --*budget;
        ++*pos;
        const WRcEntry *e = &c->e[rs->scan_idx];
        if (!(e->flags & WRC_PRESENT)) continue;
        const unsigned char *key;
        size_t klen;
        int64_t bytes = scan_entry_bytes(rs, wrc_key(e), e->klen, wrc_value(e), e->vlen, now, &key, &klen);
        if (key && bytes) fn(ctx, (WBytes){key, klen > ns_bytes ? klen - ns_bytes : 0}, bytes);
    }
    return true;
}

bool wrdb_scan_key_bytes(WRdbState *rs, size_t *pos, int64_t *budget, size_t ns_bytes, WStateKeyBytesFn fn, void *ctx)
{
    if (!usable(rs)) { *pos = 0; return true; }
    int64_t now = now_of(rs->r);
    if (*pos == 0) {
        rs->scan_len = 0;
        rs->scan_in_cache = false;
        rs->scan_idx = 0;
    }
    /* phase 1: RocksDB's entries, except those the write-back cache holds (counted in phase 2, so
       the walk writes nothing: the cache keeps absorbing writes between checkpoints) */
    bool done = true;
    if (!rs->scan_in_cache) {
        rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
        rocksdb_readoptions_set_verify_checksums(ro, 0);
        rocksdb_readoptions_set_fill_cache(ro, 0);
        rocksdb_readoptions_set_total_order_seek(ro, 1);
        rocksdb_iterator_t *it = rocksdb_create_iterator_cf(rs->r->db, ro, rs->cf);
        if (!rs->scan_len) rocksdb_iter_seek_to_first(it);
        else {
            /* resume after the last key visited (entries written meanwhile before it wait for the next pass) */
            rocksdb_iter_seek(it, (const char *)rs->scan_key, rs->scan_len);
            size_t kl;
            const char *k = rocksdb_iter_valid(it) ? rocksdb_iter_key(it, &kl) : NULL;
            if (k && kl == rs->scan_len && !memcmp(k, rs->scan_key, kl)) rocksdb_iter_next(it);
        }
        /* a map's user entries of one key are adjacent: one call per key (a key split by the budget
           or by cached entries gets several, which the sketch adds up) */
        unsigned char *hold = NULL;
        size_t holdcap = 0, curlen = 0;
        bool cur = false;
        int64_t acc = 0;
        for (; rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
            if (*budget <= 0) { done = false; break; }
            --*budget;
            ++*pos;
            size_t kl, vl;
            const unsigned char *k = (const unsigned char *)rocksdb_iter_key(it, &kl);
            const unsigned char *v = (const unsigned char *)rocksdb_iter_value(it, &vl);
            grow(&rs->scan_key, &rs->scan_cap, kl);
            memcpy(rs->scan_key, k, kl);
            rs->scan_len = kl;
            const unsigned char *key;
            size_t klen;
            int64_t bytes = wrc_peek(&rs->cache, k, kl) ? 0 : scan_entry_bytes(rs, k, kl, v, vl, now, &key, &klen);
            if (!bytes) continue;
            if (cur && (curlen != klen || memcmp(hold, key, klen))) {
                fn(ctx, (WBytes){hold, curlen > ns_bytes ? curlen - ns_bytes : 0}, acc);
                cur = false;
            }
            if (!cur) {
                /* the iterator's bytes move on rocksdb_iter_next: keep the key */
                grow(&hold, &holdcap, klen + 1);
                memcpy(hold, key, klen);
                cur = true;
                curlen = klen;
                acc = 0;
            }
            acc += bytes;
        }
        if (cur) fn(ctx, (WBytes){hold, curlen > ns_bytes ? curlen - ns_bytes : 0}, acc);
        free(hold);
        rocksdb_iter_destroy(it);
        rocksdb_readoptions_destroy(ro);
        if (done) {
            rs->scan_in_cache = true;
            rs->scan_idx = 0;
        }
    }
    /* phase 2: the cache's entries */
    if (done) done = scan_cache(rs, pos, budget, now, ns_bytes, fn, ctx);
    if (done) {
        *pos = 0;
        rs->scan_len = 0;
        rs->scan_in_cache = false;
        rs->scan_idx = 0;
    }
    return done;
}

void wrdb_stats(WRdbState *rs, int64_t *entries, int64_t *bytes, int64_t *expired_reads)
{
    int64_t de = atomic_load_explicit(&rs->dropped_entries, memory_order_relaxed);
    int64_t db = atomic_load_explicit(&rs->dropped_bytes, memory_order_relaxed);
    *entries = rs->entries - de > 0 ? rs->entries - de : 0;
    *bytes = rs->bytes - db > 0 ? rs->bytes - db : 0;
    *expired_reads = rs->expired_reads;
}

bool wrdb_failed(const WRdb *r, WError *err)
{
    if (!r->failed) return false;
    werr_set(err, WEXC_IO, "%s", r->errmsg);
    return true;
}

void wrdb_fail(WRdb *r, const char *msg)
{
    if (r->failed) return;
    r->failed = true;
    snprintf(r->errmsg, sizeof r->errmsg, "%s", msg);
}

static void flush_all(WRdb *r)
{
    for (int i = 0; i < r->nstates; i++) cache_sync(r->states[i], false);
    rocksdb_flushoptions_t *fo = rocksdb_flushoptions_create();
    rocksdb_flushoptions_set_wait(fo, 1);
    for (int i = 0; i < r->nstates && !r->failed; i++) {
        if (!r->states[i]->cf) continue;
        char *e = NULL;
        rocksdb_flush_cf(r->db, fo, r->states[i]->cf, &e);
        check(r, e, "flush");
    }
    rocksdb_flushoptions_destroy(fo);
}

void wrdb_compact(WRdb *r)
{
    wrdb_close_iterators(r);
    now_of(r);
    flush_all(r);
    for (int i = 0; i < r->nstates && !r->failed; i++)
        if (r->states[i]->cf) rocksdb_compact_range_cf(r->db, r->states[i]->cf, NULL, 0, NULL, 0);
}

/* ---------------------------------------------------------------- snapshots (see snapshot.c) */

const char *wrdb_root(const WRdb *r) { return r->root; }
WStateBackend *wrdb_backend(const WRdb *r) { return r->b; }
uint64_t wrdb_uid(const WRdb *r) { return r->uid; }
void *wrdb_db(const WRdb *r) { return r->db; }
int64_t wrdb_next_seq(WRdb *r) { return ++r->seq; }

void wrdb_flush(WRdb *r) { flush_all(r); }

WRdbUploaded *wrdb_uploaded(WRdb *r, const char *shared_dir, int *n)
{
    if (!r->shared_dir || strcmp(r->shared_dir, shared_dir) != 0) {
        for (int i = 0; i < r->nup; i++) { free(r->up[i].sst); free(r->up[i].shared_name); }
        r->nup = 0;
        free(r->shared_dir);
        r->shared_dir = wstrdup(shared_dir);
    }
    *n = r->nup;
    return r->up;
}

void wrdb_uploaded_add(WRdb *r, const char *sst, const char *shared_name, int64_t size, uint32_t crc)
{
    if (r->nup == r->capup) {
        r->capup = r->capup ? r->capup * 2 : 16;
        r->up = wrealloc(r->up, sizeof(WRdbUploaded) * (size_t)r->capup);
    }
    r->up[r->nup++] = (WRdbUploaded){wstrdup(sst), wstrdup(shared_name), size, crc};
}

void wrdb_snapshot_state(WRdbState *rs, WSnapWriter *w, int64_t now)
{
    if (!usable(rs)) return;
    close_iter(rs);
    cache_sync(rs, false);
    rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
    rocksdb_readoptions_set_verify_checksums(ro, 0);
    rocksdb_readoptions_set_fill_cache(ro, 0);
    rocksdb_readoptions_set_total_order_seek(ro, 1);
    rocksdb_iterator_t *it = rocksdb_create_iterator_cf(rs->r->db, ro, rs->cf);
    for (rocksdb_iter_seek_to_first(it); rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
        size_t kl, vl;
        const unsigned char *k = (const unsigned char *)rocksdb_iter_key(it, &kl);
        const unsigned char *v = (const unsigned char *)rocksdb_iter_value(it, &vl);
        if (kl < 2 || vl < 8) continue;
        int64_t ts = (int64_t)wbe_get64(v);
        if (expired_at(rs->ttl, ts, now)) continue;
        int kg = wbe_get16(k);
        if (rs->kind == WSTATE_VALUE) {
            wsnap_put_value(w, kg, ts, k + 2, kl - 2, v + 8, vl - 8);
        } else if (rs->kind == WSTATE_MAP) {
            if (kl < 6) continue;
            size_t klen = wbe_get32(k + 2);
            if (klen > kl - 6) continue;
            wsnap_put_map(w, kg, ts, k + 6, klen, k + 6 + klen, kl - 6 - klen, v + 8, vl - 8);
        } else {
            int n = list_count(v + 8, vl - 8, NULL);
            if (n > 0) wsnap_put_list_encoded(w, kg, ts, k + 2, kl - 2, v + 8, vl - 8, n);
        }
    }
    char *e = NULL;
    rocksdb_iter_get_error(it, &e);
    check(rs->r, e, "snapshot iteration");
    rocksdb_iter_destroy(it);
    rocksdb_readoptions_destroy(ro);
}

static unsigned char *restore_key(WRdb *r, int kg, const void *k, size_t kl, const void *uk,
                                  size_t ukl, bool map, size_t *n)
{
    size_t len = 2 + (map ? 4 : 0) + kl + ukl;
    grow(&r->rbuf, &r->rbcap, len);
    wbe_put16(r->rbuf, (uint16_t)kg);
    size_t off = 2;
    if (map) { wbe_put32(r->rbuf + 2, (uint32_t)kl); off = 6; }
    if (kl) memcpy(r->rbuf + off, k, kl);
    if (ukl) memcpy(r->rbuf + off + kl, uk, ukl);
    *n = len;
    r->epoch++;
    return r->rbuf;
}

void wrdb_restore_value(WRdbState *rs, int kg, const void *k, size_t kl, const void *v, size_t vl,
                        int64_t ts)
{
    if (!usable(rs)) return;
    cache_sync(rs, true);
    size_t n, vn;
    unsigned char *ck = restore_key(rs->r, kg, k, kl, NULL, 0, false, &n);
    const char *val = encode_value(rs->r, ts, v, vl, &vn);
    put_raw(rs, ck, n, val, vn);
    rs->entries++;
    rs->bytes += (int64_t)(kl + vl);
}

void wrdb_restore_map(WRdbState *rs, int kg, const void *k, size_t kl, const void *uk, size_t ukl,
                      const void *v, size_t vl, int64_t ts)
{
    if (!usable(rs)) return;
    cache_sync(rs, true);
    size_t n, vn;
    unsigned char *ck = restore_key(rs->r, kg, k, kl, uk, ukl, true, &n);
    const char *val = encode_value(rs->r, ts, v, vl, &vn);
    put_raw(rs, ck, n, val, vn);
    rs->entries++;
    rs->bytes += (int64_t)(kl + ukl + vl);
}

void wrdb_restore_list(WRdbState *rs, int kg, const void *k, size_t kl, const void *body,
                       size_t bodylen, int nitems, int64_t ts)
{
    if (!usable(rs)) return;
    cache_sync(rs, true);
    size_t n, vn;
    unsigned char *ck = restore_key(rs->r, kg, k, kl, NULL, 0, false, &n);
    const char *val = encode_value(rs->r, ts, body, bodylen, &vn);
    char *e = NULL;
    rocksdb_merge_cf(rs->r->db, rs->r->wo, rs->cf, (const char *)ck, n, val, vn, &e);
    if (!check(rs->r, e, "merge")) return;
    rs->entries += nitems;
    rs->bytes += (int64_t)(bodylen - 4 * (size_t)nitems);
}

void wrdb_restore_raw(WRdbState *rs, const void *ck, size_t cklen, const void *v, size_t vlen)
{
    if (!usable(rs) || cklen < 2 || vlen < 8) return;
    cache_sync(rs, true);
    rs->r->epoch++;
    if (rs->kind == WSTATE_LIST) {
        size_t ib = 0;
        int n = list_count((const unsigned char *)v + 8, vlen - 8, &ib);
        if (n <= 0) return;
        char *e = NULL;
        rocksdb_merge_cf(rs->r->db, rs->r->wo, rs->cf, ck, cklen, v, vlen, &e);
        if (!check(rs->r, e, "merge")) return;
        rs->entries += n;
        rs->bytes += (int64_t)ib;
        return;
    }
    put_raw(rs, ck, cklen, v, vlen);
    rs->entries++;
    rs->bytes += (int64_t)(cklen - (rs->kind == WSTATE_MAP ? 6 : 2) + vlen - 8);
}

/* Options to open a snapshot's column families read-only (merge operator for lists). */
void *wrdb_readonly_cf_options(WStateKind kind)
{
    rocksdb_options_t *base = wrdb_base_options(NULL, DEFAULT_WRITE_BUFFER, false);
    rocksdb_options_t *o = wrdb_cf_options(base, kind, NULL, NULL, DEFAULT_WRITE_BUFFER, false);
    rocksdb_options_destroy(base);
    return o;
}

void wrdb_set_key_group(WRdb *r, int kg)
{
    if (r->vklen >= 2) wbe_put16(r->vkey, (uint16_t)kg);
    bool hashed = r->vhash_epoch == r->epoch;      /* the hash leaves the key group out */
    r->epoch++;
    if (hashed) r->vhash_epoch = r->epoch;
}
