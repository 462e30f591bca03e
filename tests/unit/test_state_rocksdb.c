/* test_state_rocksdb.c — the keyed-state scenarios (test_state.c's and more) as one table run
   against both backends (hashmap and rocksdb), plus RocksDB specifics: files removed on free,
   the TTL compaction filter, backend selection from the configuration. */
#include "unit.h"
#include "../../src/state/state.h"
#include "../../src/common/options.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct { int64_t now; } Clock;
static int64_t clock_now(void *c) { return ((Clock *)c)->now; }

typedef struct Env {
    WStateBackendType type;
    int64_t cache;              /* write-cache entries per state (0 = default, -1 = none) */
    Clock clk;
    char dir[64];
} Env;

static WStateBackend *env_backend(Env *e, const char *op)
{
    WStateBackendConfig cfg = {.operator_name = op, .max_parallelism = 128, .clock = clock_now, .clock_ctx = &e->clk};
    if (e->type == WSTATE_BACKEND_HASHMAP) return wstate_heap_new(&cfg);
    if (!e->dir[0]) {
        snprintf(e->dir, sizeof e->dir, "/tmp/weir-test-rdb-XXXXXX");
        if (!mkdtemp(e->dir)) return NULL;
    }
    WRocksDBConfig rc = {.local_dir = e->dir, .block_cache_bytes = 8 << 20, .write_buffer_bytes = 4 << 20,
                         .write_cache_entries = e->cache};
    WError err = {0};
    WStateBackend *b = wstate_rocksdb_new(&cfg, &rc, &err);
    if (!b) fprintf(stderr, "rocksdb: %s\n", err.msg);
    return b;
}

static int dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

static void env_done(Env *e)
{
    if (e->dir[0]) rmdir(e->dir);   /* empty once every backend was freed */
}

/* ------------------------------------------------------------------ scenarios */

typedef void (*Scenario)(Env *e, int *wtest_failed_);

static void sc_value_put_get_clear(Env *e, int *wtest_failed_)
{
    e->clk.now = 1000;
    WStateBackend *b = env_backend(e, "test");
    WState *s = wstate_register(b, "groupAggregateState", WSTATE_VALUE, 0);
    char key[16] = "k1";
    wstate_set_key(b, key, 16);
    WBytes v;
    CHECK_INT(wvalue_get(s, &v), WSL_ABSENT);
    wvalue_put(s, "hello", 5);
    CHECK_INT(wvalue_get(s, &v), WSL_FOUND);
    CHECK(v.len == 5 && memcmp(v.p, "hello", 5) == 0);
    wvalue_put(s, "hi", 2);
    CHECK_INT(wvalue_get(s, &v), WSL_FOUND);
    CHECK(v.len == 2);
    WStateStats st[4];
    CHECK_INT(wstate_stats(b, st, 4), 1);
    CHECK_INT(st[0].entries, 1);
    CHECK_INT(st[0].bytes, 18);
    wvalue_clear(s);
    CHECK_INT(wvalue_get(s, &v), WSL_ABSENT);
    wstate_stats(b, st, 4);
    CHECK_INT(st[0].entries, 0);
    CHECK_INT(st[0].bytes, 0);
    wstate_backend_free(b);
}

static void sc_value_many_keys_and_deletes(Env *e, int *wtest_failed_)
{
    WStateBackend *b = env_backend(e, "test");
    WState *s = wstate_register(b, "v", WSTATE_VALUE, 0);
    for (int i = 0; i < 5000; i++) {
        int64_t k = i;
        wstate_set_key(b, &k, 8);
        wvalue_put(s, &k, 8);
    }
    for (int i = 0; i < 5000; i += 2) {
        int64_t k = i;
        wstate_set_key(b, &k, 8);
        wvalue_clear(s);
    }
    int ok = 1;
    for (int i = 0; i < 5000; i++) {
        int64_t k = i;
        WBytes v;
        wstate_set_key(b, &k, 8);
        WStateLookup how = wvalue_get(s, &v);
        if (i % 2 == 0 && how != WSL_ABSENT) ok = 0;
        if (i % 2 == 1 && (how != WSL_FOUND || v.len != 8 || memcmp(v.p, &k, 8) != 0)) ok = 0;
    }
    CHECK(ok);
    WStateStats st[1];
    wstate_stats(b, st, 1);
    CHECK_INT(st[0].entries, 2500);
    CHECK_INT(st[0].bytes, 2500 * 16);
    wstate_backend_free(b);
}

static void sc_ttl_expires_and_is_reported(Env *e, int *wtest_failed_)
{
    e->clk.now = 0;
    WStateBackend *b = env_backend(e, "test");
    WState *s = wstate_register(b, "v", WSTATE_VALUE, 1000);
    wstate_set_key(b, "a", 1);
    wvalue_put(s, "x", 1);
    e->clk.now = 999;
    WBytes v;
    CHECK_INT(wvalue_get(s, &v), WSL_FOUND);     /* reads do not extend the TTL */
    e->clk.now = 1000;
    CHECK_INT(wvalue_get(s, &v), WSL_EXPIRED);
    CHECK_INT(wvalue_get(s, &v), WSL_ABSENT);
    wvalue_put(s, "y", 1);                        /* write refreshes */
    e->clk.now = 1900;
    CHECK_INT(wvalue_get(s, &v), WSL_FOUND);
    CHECK(v.len == 1 && *(const char *)v.p == 'y');
    WStateStats st[1];
    wstate_stats(b, st, 1);
    CHECK_INT(st[0].expired_reads, 1);
    CHECK_INT(st[0].entries, 1);
    wstate_backend_free(b);
}

static void sc_ttl_cleanup_bounds_size(Env *e, int *wtest_failed_)
{
    e->clk.now = 0;
    WStateBackend *b = env_backend(e, "test");
    WState *s = wstate_register(b, "v", WSTATE_VALUE, 10);
    for (int64_t i = 0; i < 1000; i++) { wstate_set_key(b, &i, 8); wvalue_put(s, "x", 1); }
    e->clk.now = 100;
    for (int64_t i = 1000; i < 3000; i++) { wstate_set_key(b, &i, 8); WBytes v; wvalue_get(s, &v); }
    wstate_compact(b);            /* RocksDB: the compaction filter drops what expired */
    WStateStats st[1];
    wstate_stats(b, st, 1);
    CHECK(st[0].entries < 1000);  /* cleanup removed expired entries without reading them */
    wstate_backend_free(b);
}

static void sc_map_and_iteration(Env *e, int *wtest_failed_)
{
    WStateBackend *b = env_backend(e, "test");
    WState *s = wstate_register(b, "m", WSTATE_MAP, 0);
    wstate_set_key(b, "key", 3);
    for (int i = 0; i < 100; i++) wmap_put(s, &i, sizeof i, &i, sizeof i);
    CHECK_INT(wmap_size(s), 100);
    int i7 = 7;
    WBytes v;
    CHECK_INT(wmap_get(s, &i7, sizeof i7, &v), WSL_FOUND);
    CHECK(v.len == 4 && memcmp(v.p, &i7, 4) == 0);
    for (int i = 0; i < 100; i += 3) wmap_remove(s, &i, sizeof i);
    WMapIter it;
    wmap_iter(s, &it);
    WBytes uk, uv;
    int n = 0, sum = 0;
    while (wmap_next(&it, &uk, &uv)) { int x; memcpy(&x, uv.p, 4); n++; sum += x; }
    CHECK_INT(n, 66);
    int want = 0;
    for (int i = 0; i < 100; i++) if (i % 3) want += i;
    CHECK_INT(sum, want);
    wstate_set_key(b, "other", 5);
    CHECK(wmap_is_empty(s));
    /* a key that is a prefix of another key has its own entries */
    wstate_set_key(b, "ke", 2);
    CHECK(wmap_is_empty(s));
    wmap_put(s, "y", 1, "1", 1);
    CHECK_INT(wmap_size(s), 1);
    wstate_set_key(b, "key", 3);
    CHECK_INT(wmap_size(s), 66);
    wmap_clear(s);
    CHECK(wmap_is_empty(s));
    wstate_set_key(b, "ke", 2);
    CHECK_INT(wmap_size(s), 1);
    WStateStats st[1];
    wstate_stats(b, st, 1);
    CHECK_INT(st[0].entries, 1);
    wstate_backend_free(b);
}

static void sc_map_iter_remove_and_abandon(Env *e, int *wtest_failed_)
{
    WStateBackend *b = env_backend(e, "test");
    WState *s = wstate_register(b, "m", WSTATE_MAP, 0);
    wstate_set_key(b, "k", 1);
    for (int i = 0; i < 50; i++) wmap_put(s, &i, sizeof i, "v", 1);
    WMapIter it;
    WBytes uk, uv;
    wmap_iter(s, &it);
    while (wmap_next(&it, &uk, &uv)) {
        int x;
        memcpy(&x, uk.p, 4);
        if (x % 2) wmap_iter_remove(&it);
    }
    CHECK_INT(wmap_size(s), 25);
    /* abandoned iteration, then writes and a new iteration */
    wmap_iter(s, &it);
    CHECK(wmap_next(&it, &uk, &uv));
    int k100 = 100;
    wmap_put(s, &k100, sizeof k100, "w", 1);
    wmap_iter(s, &it);
    int n = 0;
    while (wmap_next(&it, &uk, &uv)) n++;
    CHECK_INT(n, 26);
    CHECK(!wmap_next(&it, &uk, &uv));
    WStateStats st[1];
    wstate_stats(b, st, 1);
    CHECK_INT(st[0].entries, 26);
    wmap_iter(s, &it);               /* left open: freed with the backend */
    CHECK(wmap_next(&it, &uk, &uv));
    wstate_backend_free(b);
}

static void sc_map_ttl(Env *e, int *wtest_failed_)
{
    e->clk.now = 0;
    WStateBackend *b = env_backend(e, "test");
    WState *s = wstate_register(b, "m", WSTATE_MAP, 100);
    wstate_set_key(b, "k", 1);
    wmap_put(s, "a", 1, "1", 1);
    e->clk.now = 50;
    wmap_put(s, "b", 1, "2", 1);
    e->clk.now = 120;
    WBytes v;
    CHECK_INT(wmap_size(s), 1);                   /* "a" expired, not listed */
    WMapIter it;
    WBytes uk, uv;
    wmap_iter(s, &it);
    CHECK(wmap_next(&it, &uk, &uv) && uk.len == 1 && *(const char *)uk.p == 'b');
    CHECK(!wmap_next(&it, &uk, &uv));
    CHECK_INT(wmap_get(s, "a", 1, &v), WSL_EXPIRED);
    CHECK_INT(wmap_get(s, "a", 1, &v), WSL_ABSENT);
    CHECK_INT(wmap_get(s, "b", 1, &v), WSL_FOUND);
    e->clk.now = 150;
    CHECK(wmap_is_empty(s));
    CHECK_INT(wmap_get(s, "b", 1, &v), WSL_EXPIRED);
    WStateStats st[1];
    wstate_stats(b, st, 1);
    CHECK_INT(st[0].expired_reads, 2);
    wstate_backend_free(b);
}

static void sc_list_add_remove(Env *e, int *wtest_failed_)
{
    WStateBackend *b = env_backend(e, "test");
    WState *s = wstate_register(b, "l", WSTATE_LIST, 0);
    wstate_set_key(b, "k", 1);
    wlist_add(s, "a", 1);
    wlist_add(s, "bb", 2);
    wlist_add(s, "ccc", 3);
    const WBytes *items;
    CHECK_INT(wlist_get(s, &items, NULL), 3);
    CHECK(items[0].len == 1 && items[1].len == 2 && memcmp(items[2].p, "ccc", 3) == 0);
    wlist_remove_at(s, 1);
    CHECK_INT(wlist_get(s, &items, NULL), 2);
    CHECK(items[1].len == 3);
    wlist_remove_at(s, 0);
    wlist_remove_at(s, 0);
    WStateLookup how;
    CHECK_INT(wlist_get(s, &items, &how), 0);
    CHECK_INT(how, WSL_ABSENT);
    wlist_add(s, "", 0);                           /* an empty item is an item */
    CHECK_INT(wlist_get(s, &items, &how), 1);
    CHECK_INT(how, WSL_FOUND);
    CHECK(items[0].len == 0);
    wlist_clear(s);
    CHECK_INT(wlist_get(s, &items, &how), 0);
    wstate_backend_free(b);
}

static void sc_list_ttl(Env *e, int *wtest_failed_)
{
    e->clk.now = 0;
    WStateBackend *b = env_backend(e, "test");
    WState *s = wstate_register(b, "l", WSTATE_LIST, 100);
    wstate_set_key(b, "k", 1);
    wlist_add(s, "a", 1);
    e->clk.now = 60;
    wlist_add(s, "b", 1);                         /* refreshes the whole list */
    e->clk.now = 150;
    const WBytes *items;
    WStateLookup how;
    CHECK_INT(wlist_get(s, &items, &how), 2);
    e->clk.now = 160;
    CHECK_INT(wlist_get(s, &items, &how), 0);
    CHECK_INT(how, WSL_EXPIRED);
    /* an add after expiry (without a read in between) starts a new list */
    wstate_set_key(b, "j", 1);
    wlist_add(s, "x", 1);
    e->clk.now = 300;
    wlist_add(s, "y", 1);
    CHECK_INT(wlist_get(s, &items, &how), 1);
    CHECK(items[0].len == 1 && *(const char *)items[0].p == 'y');
    wstate_backend_free(b);
}

static void sc_results_survive_other_reads(Env *e, int *wtest_failed_)
{
    WStateBackend *b = env_backend(e, "test");
    WState *a = wstate_register(b, "a", WSTATE_VALUE, 0);
    WState *l = wstate_register(b, "l", WSTATE_LIST, 0);
    wstate_set_key(b, "k", 1);
    wvalue_put(a, "one", 3);
    wlist_add(l, "item", 4);
    WBytes v;
    const WBytes *items;
    CHECK_INT(wvalue_get(a, &v), WSL_FOUND);
    CHECK_INT(wlist_get(l, &items, NULL), 1);
    wstate_set_key(b, "other", 5);
    WBytes v2;
    CHECK_INT(wvalue_get(a, &v2), WSL_ABSENT);
    wvalue_put(a, "two", 3);                      /* a write to another key of a... */
    CHECK(memcmp(items[0].p, "item", 4) == 0);    /* ...leaves l's result alone */
    wstate_backend_free(b);
}

typedef struct { int n; size_t bytes; } Seen;
static void seen_fn(void *ctx, WBytes key, WBytes value) { Seen *s = ctx; s->n++; s->bytes += key.len + value.len; }

static void sc_for_each_and_stats(Env *e, int *wtest_failed_)
{
    WStateBackend *b = env_backend(e, "test");
    WState *v = wstate_register(b, "v", WSTATE_VALUE, 0);
    WState *m = wstate_register(b, "m", WSTATE_MAP, 0);
    CHECK(wstate_register(b, "v", WSTATE_VALUE, 0) == v);
    for (int i = 0; i < 30; i++) {
        wstate_set_key(b, &i, sizeof i);
        wvalue_put(v, "abc", 3);
        wmap_put(m, "u1", 2, "x", 1);
        wmap_put(m, "u2", 2, "y", 1);
    }
    Seen sv = {0}, sm = {0};
    wstate_for_each(v, seen_fn, &sv);
    wstate_for_each(m, seen_fn, &sm);
    CHECK_INT(sv.n, 30);
    CHECK_INT(sv.bytes, 30 * 7);
    CHECK_INT(sm.n, 30);                          /* once per key */
    WStateStats st[2];
    CHECK_INT(wstate_stats(b, st, 2), 2);
    CHECK_STR(st[0].name, "v");
    CHECK_INT(st[0].entries, 30);
    CHECK_INT(st[1].entries, 60);
    wstate_backend_free(b);
}

static void sc_key_group_matches_flink(Env *e, int *wtest_failed_)
{
    WStateBackend *b = env_backend(e, "test");
    unsigned char int1[16] = {0};
    int1[8] = 1;
    wstate_set_key(b, int1, 16);
    CHECK_INT(wstate_current_key_group(b), 94);
    CHECK_INT(wstate_key_group_of(int1, 16, 128), 94);
    CHECK_INT(wstate_max_parallelism(b), 128);
    wstate_backend_free(b);
}

static int64_t i64_at(const void *p, int i) { int64_t v; memcpy(&v, (const char *)p + 8 * i, 8); return v; }

/* Get-for-update (wvalue_ref): read, update in place, resize, clear, with the same sizes and
   results as get/put. */
static void sc_value_ref(Env *e, int *wtest_failed_)
{
    e->clk.now = 1000;
    WStateBackend *b = env_backend(e, "test");
    WState *s = wstate_register(b, "acc", WSTATE_VALUE, 0);
    WState *m = wstate_register(b, "view", WSTATE_MAP, 0);
    char key[16] = "k1";
    wstate_set_key(b, key, 16);
    WValueRef r;
    CHECK_INT(wvalue_ref(s, &r), WSL_ABSENT);
    CHECK(r.cur.p == NULL && r.cur.len == 0);
    int64_t *p = wvalue_ref_reserve(&r, 24);
    CHECK(((uintptr_t)p & 7) == 0);                 /* 8-byte slots updated in place */
    p[0] = 1; p[1] = 2; p[2] = 3;
    wmap_put(m, "u", 1, "w", 1);                    /* other states may be written meanwhile */
    wvalue_ref_commit(&r);
    WBytes v;
    CHECK_INT(wvalue_get(s, &v), WSL_FOUND);
    CHECK(v.len == 24 && i64_at(v.p, 2) == 3);
    /* found: the stored bytes, updated in place */
    CHECK_INT(wvalue_ref(s, &r), WSL_FOUND);
    CHECK(r.cur.len == 24);
    int64_t old[3];
    memcpy(old, r.cur.p, 24);
    p = wvalue_ref_reserve(&r, 24);
    CHECK(memcmp(p, old, 24) == 0);
    p[2] += 40;
    wvalue_ref_commit(&r);
    CHECK_INT(wvalue_get(s, &v), WSL_FOUND);
    CHECK(i64_at(v.p, 2) == 43 && i64_at(v.p, 0) == 1);
    /* growing across allocation sizes keeps the first bytes */
    CHECK_INT(wvalue_ref(s, &r), WSL_FOUND);
    unsigned char *q = wvalue_ref_reserve(&r, 300);
    memset(q + 24, 0x5a, 276);
    wvalue_ref_commit(&r);
    CHECK_INT(wvalue_get(s, &v), WSL_FOUND);
    CHECK(v.len == 300 && i64_at(v.p, 2) == 43 && ((const unsigned char *)v.p)[299] == 0x5a);
    WStateStats st[4];
    wstate_stats(b, st, 4);
    CHECK_INT(st[0].entries, 1);
    CHECK_INT(st[0].bytes, 316);
    /* put through the ref, then clear through it */
    CHECK_INT(wvalue_ref(s, &r), WSL_FOUND);
    wvalue_ref_put(&r, "hi", 2);
    CHECK_INT(wvalue_get(s, &v), WSL_FOUND);
    CHECK(v.len == 2 && memcmp(v.p, "hi", 2) == 0);
    wstate_stats(b, st, 4);
    CHECK_INT(st[0].bytes, 18);
    CHECK_INT(wvalue_ref(s, &r), WSL_FOUND);
    wvalue_ref_clear(&r);
    CHECK_INT(wvalue_get(s, &v), WSL_ABSENT);
    wstate_stats(b, st, 4);
    CHECK_INT(st[0].entries, 0);
    CHECK_INT(st[0].bytes, 0);
    CHECK_INT(wvalue_ref(s, &r), WSL_ABSENT);     /* clearing an absent key is a no-op */
    wvalue_ref_clear(&r);
    CHECK_INT(wvalue_get(s, &v), WSL_ABSENT);
    wstate_backend_free(b);
}

/* Many keys through the ref with hashes passed by the caller (wstate_set_key_hashed), the table
   growing between lookups; then plain get/set_key see the same entries. */
static void sc_value_ref_many_keys(Env *e, int *wtest_failed_)
{
    WStateBackend *b = env_backend(e, "test");
    WState *s = wstate_register(b, "acc", WSTATE_VALUE, 0);
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 3000; i++) {
            unsigned char key[16] = {0};
            int64_t k = i;
            memcpy(key + 8, &k, 8);
            wstate_set_key_hashed(b, key, 16, wstate_key_hash(key, 16));
            WValueRef r;
            WStateLookup how = wvalue_ref(s, &r);
            if ((how == WSL_FOUND) != (round > 0)) { CHECK(0); break; }
            int64_t *p = wvalue_ref_reserve(&r, 16);
            if (how != WSL_FOUND) { p[0] = k; p[1] = 0; }
            p[1]++;
            wvalue_ref_commit(&r);
        }
    }
    int ok = 1;
    for (int i = 0; i < 3000; i++) {
        unsigned char key[16] = {0};
        int64_t k = i;
        memcpy(key + 8, &k, 8);
        wstate_set_key(b, key, 16);
        WBytes v;
        if (wvalue_get(s, &v) != WSL_FOUND || v.len != 16) { ok = 0; continue; }
        int64_t got[2];
        memcpy(got, v.p, 16);
        if (got[0] != k || got[1] != 3) ok = 0;
    }
    CHECK(ok);
    WStateStats st[1];
    wstate_stats(b, st, 1);
    CHECK_INT(st[0].entries, 3000);
    CHECK_INT(st[0].bytes, 3000 * 32);
    wstate_backend_free(b);
}

/* The ref sees TTL like wvalue_get (expired, then absent) and its write refreshes the entry. */
static void sc_value_ref_ttl(Env *e, int *wtest_failed_)
{
    e->clk.now = 0;
    WStateBackend *b = env_backend(e, "test");
    WState *s = wstate_register(b, "v", WSTATE_VALUE, 1000);
    wstate_set_key(b, "a", 1);
    WValueRef r;
    CHECK_INT(wvalue_ref(s, &r), WSL_ABSENT);
    wvalue_ref_put(&r, "x", 1);
    e->clk.now = 999;
    CHECK_INT(wvalue_ref(s, &r), WSL_FOUND);
    CHECK(r.cur.len == 1 && *(const char *)r.cur.p == 'x');
    e->clk.now = 1000;                              /* the read above did not extend it */
    CHECK_INT(wvalue_ref(s, &r), WSL_EXPIRED);
    CHECK(r.cur.len == 0);
    *(char *)wvalue_ref_reserve(&r, 1) = 'y';
    wvalue_ref_commit(&r);
    e->clk.now = 1999;
    WBytes v;
    CHECK_INT(wvalue_get(s, &v), WSL_FOUND);
    CHECK(v.len == 1 && *(const char *)v.p == 'y');
    e->clk.now = 2000;
    CHECK_INT(wvalue_get(s, &v), WSL_EXPIRED);
    WStateStats st[1];
    wstate_stats(b, st, 1);
    CHECK_INT(st[0].expired_reads, 2);
    CHECK_INT(st[0].entries, 0);
    wstate_backend_free(b);
}

/* Get-for-update of map entries (wmap_ref) with a TTL: the same results, sizes and TTL reports as
   wmap_get followed by wmap_put / wmap_remove on a twin state (the heap backend's path without
   TTL: test_state.c, state_map_ref). */
static void sc_map_ref(Env *e, int *wtest_failed_)
{
    e->clk.now = 0;
    WStateBackend *b = env_backend(e, "test");
    WState *m = wstate_register(b, "ref", WSTATE_MAP, 1000);
    WState *t = wstate_register(b, "twin", WSTATE_MAP, 1000);
    wstate_set_key(b, "k1", 2);
    WMapRef r;
    WBytes v;
    CHECK_INT(wmap_ref(m, "a", 1, &r), WSL_ABSENT);     /* the key has no map yet */
    CHECK(r.cur.p == NULL && r.cur.len == 0);
    wmap_ref_put(&r, "aaaa", 4);
    CHECK_INT(wmap_get(t, "a", 1, &v), WSL_ABSENT);
    wmap_put(t, "a", 1, "aaaa", 4);
    CHECK_INT(wmap_ref(m, "b", 1, &r), WSL_ABSENT);     /* the map exists, not this user key */
    wmap_ref_put(&r, "bb", 2);
    wmap_put(t, "b", 1, "bb", 2);
    e->clk.now = 500;
    CHECK_INT(wmap_ref(m, "a", 1, &r), WSL_FOUND);      /* found: rewritten, longer */
    CHECK(r.cur.len == 4 && memcmp(r.cur.p, "aaaa", 4) == 0);
    wmap_ref_put(&r, "aaaazz", 6);
    wmap_put(t, "a", 1, "aaaazz", 6);
    CHECK_INT(wmap_get(m, "a", 1, &v), WSL_FOUND);
    CHECK(v.len == 6 && memcmp(v.p, "aaaazz", 6) == 0);
    WStateStats st[2];
    wstate_stats(b, st, 2);
    CHECK_INT(st[0].entries, 2);
    CHECK_INT(st[0].entries, st[1].entries);
    CHECK_INT(st[0].bytes, st[1].bytes);
    e->clk.now = 1000;                                   /* b written at 0: expired, a at 500 */
    CHECK_INT(wmap_ref(m, "b", 1, &r), WSL_EXPIRED);
    CHECK(r.cur.len == 0);
    CHECK_INT(wmap_get(t, "b", 1, &v), WSL_EXPIRED);
    CHECK_INT(wmap_ref(m, "a", 1, &r), WSL_FOUND);
    wmap_ref_remove(&r);                                 /* removes the last user entry */
    wmap_remove(t, "a", 1);
    CHECK(wmap_is_empty(m));
    CHECK_INT(wmap_get(m, "a", 1, &v), WSL_ABSENT);
    CHECK_INT(wmap_ref(m, "a", 1, &r), WSL_ABSENT);     /* removing an absent entry is a no-op */
    wmap_ref_remove(&r);
    wstate_stats(b, st, 2);
    CHECK_INT(st[0].entries, 0);
    CHECK_INT(st[0].entries, st[1].entries);
    CHECK_INT(st[0].bytes, st[1].bytes);
    CHECK_INT(st[0].expired_reads, st[1].expired_reads);
    wstate_backend_free(b);
}

/* Insight's walk of keys by state bytes (wstate_scan_key_bytes) in bounded steps: each key with
   the bytes it holds (a map's entries and a list's items included; as the backend's stats count
   them), the pass total equal to the stats, the walk resumed where a step stopped (on RocksDB after
   the last key, with the write cache written first), entries written between passes seen by the
   next one, and an entry whose TTL ran out not counted. */
typedef struct { int calls; int64_t a, b, total; } KeyBytes;
static void key_bytes(void *ctx, WBytes key, int64_t bytes)
{
    KeyBytes *s = ctx;
    s->calls++;
    s->total += bytes;
    if (key.len == 16 && !memcmp(key.p, "a", 2)) s->a += bytes;
    if (key.len == 16 && !memcmp(key.p, "b", 2)) s->b += bytes;
}

static int64_t stats_bytes(WStateBackend *b)
{
    WStateStats st[8];
    int n = wstate_stats(b, st, 8);
    int64_t t = 0;
    for (int i = 0; i < n; i++) t += st[i].bytes;
    return t;
}

static KeyBytes walk(WStateBackend *b, int64_t step, int *steps)
{
    KeyBytes sum = {0};
    WStateScanCursor cur = {0, 0};
    bool done = false;
    for (*steps = 0; !done && *steps < 10000; ++*steps) {
        int64_t budget = step;
        done = wstate_scan_key_bytes(b, &cur, &budget, key_bytes, &sum);
    }
    return sum;
}

static void sc_scan_key_bytes(Env *e, int *wtest_failed_)
{
    WStateBackend *b = env_backend(e, "scan");
    WState *v = wstate_register(b, "v", WSTATE_VALUE, 0);
    WState *m = wstate_register(b, "m", WSTATE_MAP, 0);
    WState *l = wstate_register(b, "l", WSTATE_LIST, 0);
    WState *t = wstate_register(b, "t", WSTATE_VALUE, 1000);
    char key[16] = "a";
    wstate_set_key(b, key, 16);
    wvalue_put(v, "12345678", 8);
    for (int i = 0; i < 300; i++) {                     /* a's map: most of the bytes */
        char uk[4] = {(char)(i & 0xff), (char)(i >> 8)};
        wmap_put(m, uk, 4, "vvvvvvvv", 8);
    }
    wlist_add(l, "xx", 2);
    int64_t want_a = stats_bytes(b);
    for (int i = 0; i < 50; i++) {
        char k[16];
        snprintf(k, sizeof k, "k%d", i);
        wstate_set_key(b, k, 16);
        wvalue_put(v, "1", 1);
    }
    char kb[16] = "b";
    wstate_set_key(b, kb, 16);
    int64_t before_b = stats_bytes(b);
    wlist_add(l, "yyyy", 4);
    wmap_put(m, "u", 1, "w", 1);
    int64_t want_b = stats_bytes(b) - before_b;
    int64_t want = stats_bytes(b);
    int steps;
    KeyBytes sum = walk(b, 7, &steps);
    CHECK(steps > 10);                                  /* bounded steps, not one sweep */
    CHECK_INT(sum.total, want);
    CHECK_INT(sum.a, want_a);
    CHECK_INT(sum.b, want_b);
    CHECK(sum.calls >= 1 + 50 + 1 + 1 + 1 + 1);
    /* written after the pass: the next pass sees it */
    wstate_set_key(b, kb, 16);
    wvalue_put(v, "123", 3);
    want_b = stats_bytes(b) - want + want_b;
    sum = walk(b, 1000000, &steps);
    CHECK_INT(steps, 1);
    CHECK_INT(sum.total, stats_bytes(b));
    CHECK_INT(sum.b, want_b);
    /* a TTL entry counts until it expires */
    wvalue_put(t, "ttl", 3);
    int64_t with_ttl = stats_bytes(b);
    sum = walk(b, 1000000, &steps);
    CHECK_INT(sum.total, with_ttl);
    if (e->type == WSTATE_BACKEND_ROCKSDB) {
        e->clk.now += 5000;                             /* RocksDB: an expired entry reads as absent */
        sum = walk(b, 1000000, &steps);
        CHECK(sum.total < with_ttl);
    }
    wstate_backend_free(b);
}

static const struct { const char *name; Scenario fn; } SCENARIOS[] = {
    {"value_put_get_clear", sc_value_put_get_clear},
    {"value_many_keys_and_deletes", sc_value_many_keys_and_deletes},
    {"ttl_expires_and_is_reported", sc_ttl_expires_and_is_reported},
    {"ttl_cleanup_bounds_size", sc_ttl_cleanup_bounds_size},
    {"map_and_iteration", sc_map_and_iteration},
    {"map_iter_remove_and_abandon", sc_map_iter_remove_and_abandon},
    {"map_ttl", sc_map_ttl},
    {"list_add_remove", sc_list_add_remove},
    {"list_ttl", sc_list_ttl},
    {"results_survive_other_reads", sc_results_survive_other_reads},
    {"for_each_and_stats", sc_for_each_and_stats},
    {"key_group_matches_flink", sc_key_group_matches_flink},
    {"value_ref", sc_value_ref},
    {"value_ref_many_keys", sc_value_ref_many_keys},
    {"value_ref_ttl", sc_value_ref_ttl},
    {"map_ref", sc_map_ref},
    {"scan_key_bytes", sc_scan_key_bytes},
};

static void run_all(WStateBackendType type, int64_t cache, int *wtest_failed_)
{
    for (size_t i = 0; i < sizeof SCENARIOS / sizeof SCENARIOS[0]; i++) {
        Env e = {.type = type, .cache = cache};
        int f = 0;
        SCENARIOS[i].fn(&e, &f);
        if (f) {
            fprintf(stderr, "  scenario %s failed on %s (write cache %lld)\n", SCENARIOS[i].name,
                    type == WSTATE_BACKEND_ROCKSDB ? "rocksdb" : "hashmap", (long long)cache);
            *wtest_failed_ = 1;
        }
        if (e.dir[0]) CHECK_INT(dir_entries(e.dir), 0);   /* the RocksDB files are gone */
        env_done(&e);
    }
}

WTEST(state_scenarios_hashmap) { run_all(WSTATE_BACKEND_HASHMAP, 0, wtest_failed_); }
WTEST(state_scenarios_rocksdb) { run_all(WSTATE_BACKEND_ROCKSDB, 0, wtest_failed_); }
/* every entry evicted (and written) almost at once, and the write cache off */
WTEST(state_scenarios_rocksdb_tiny_write_cache) { run_all(WSTATE_BACKEND_ROCKSDB, 1, wtest_failed_); }
WTEST(state_scenarios_rocksdb_no_write_cache) { run_all(WSTATE_BACKEND_ROCKSDB, -1, wtest_failed_); }

/* ------------------------------------------------------------------ RocksDB specifics */

WTEST(state_rocksdb_identity_and_files)
{
    Env e = {.type = WSTATE_BACKEND_ROCKSDB};
    WStateBackend *b = env_backend(&e, "GroupAggregate[3]");
    CHECK(b != NULL);
    CHECK_INT(wstate_backend_type(b), WSTATE_BACKEND_ROCKSDB);
    CHECK_STR(wstate_backend_name(b), "EmbeddedRocksDBStateBackend");
    CHECK_INT(dir_entries(e.dir), 1);             /* weir-rocksdb-GroupAggregate_3_-XXXXXX */
    WState *s = wstate_register(b, "default", WSTATE_LIST, 0);     /* the reserved CF name */
    wstate_set_key(b, "k", 1);
    wlist_add(s, "a", 1);
    const WBytes *items;
    CHECK_INT(wlist_get(s, &items, NULL), 1);
    CHECK(!wstate_backend_failed(b, NULL));
    wstate_backend_free(b);
    CHECK_INT(dir_entries(e.dir), 0);
    env_done(&e);
    Env h = {.type = WSTATE_BACKEND_HASHMAP};
    b = env_backend(&h, "x");
    CHECK_STR(wstate_backend_name(b), "HashMapStateBackend");
    wstate_backend_free(b);
}

WTEST(state_rocksdb_bad_local_dir)
{
    WStateBackendConfig cfg = {.operator_name = "op", .max_parallelism = 128};
    WRocksDBConfig rc = {.local_dir = "/proc/weir-no-such-dir/x"};
    WError err = {0};
    CHECK(wstate_rocksdb_new(&cfg, &rc, &err) == NULL);
    CHECK(err.set);
    CHECK_STR(err.cls, "java.io.IOException");
    CHECK(strstr(err.msg, "/proc/weir-no-such-dir/x") != NULL);
}

WTEST(state_backend_config_keys)
{
    WOptions o;
    wopts_init(&o);
    WStateBackendType t;
    WRocksDBConfig rc;
    WError err = {0};
    CHECK(wstate_backend_config(&o, &t, &rc, &err));
    CHECK_INT(t, WSTATE_BACKEND_HASHMAP);
    wopts_set(&o, "state.backend", "rocksdb");                   /* Flink's older key */
    CHECK(wstate_backend_config(&o, &t, &rc, &err) && t == WSTATE_BACKEND_ROCKSDB);
    wopts_set(&o, "state.backend", "filesystem");
    CHECK(wstate_backend_config(&o, &t, &rc, &err) && t == WSTATE_BACKEND_HASHMAP);
    wopts_set(&o, "state.backend.type", "RocksDB");              /* the new key wins */
    wopts_set(&o, "state.backend.rocksdb.localdir", "/tmp/x");
    wopts_set(&o, "state.backend.rocksdb.block.cache-size", "64 mb");
    CHECK(wstate_backend_config(&o, &t, &rc, &err) && t == WSTATE_BACKEND_ROCKSDB);
    CHECK_STR(rc.local_dir, "/tmp/x");
    CHECK_INT(rc.block_cache_bytes, 64LL << 20);
    wopts_set(&o, "state.backend.rocksdb.block.cache-size", "lots");
    CHECK(!wstate_backend_config(&o, &t, &rc, &err));
    CHECK_STR(err.msg, "text does not start with a number");
    werr_clear(&err);
    wopts_set(&o, "state.backend.type", "memory");
    CHECK(!wstate_backend_config(&o, &t, &rc, &err));
    CHECK_STR(err.cls, "org.apache.flink.util.DynamicCodeLoadingException");
    CHECK_STR(err.msg, "Cannot find configured state backend factory class: memory");
    wopts_free(&o);
}

/* ------------------------------------------------------------------ selection by the job */

#include "../../src/exec/operator.h"

WTEST(state_wexec_new_backend_follows_the_configuration)
{
    char dir[] = "/tmp/weir-test-sel-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    WError err = {0};
    WOptions o;
    wopts_init(&o);
    WExecCtx ctx = {.err = &err, .config = &o, .max_parallelism = 128};
    WStateBackend *b = wexec_new_backend(&ctx, "GroupAggregate[1]");
    CHECK_INT(wstate_backend_type(b), WSTATE_BACKEND_HASHMAP);
    wstate_backend_free(b);
    wopts_set(&o, "state.backend.type", "rocksdb");
    wopts_set(&o, "state.backend.rocksdb.localdir", dir);
    b = wexec_new_backend(&ctx, "GroupAggregate[1]");
    CHECK_INT(wstate_backend_type(b), WSTATE_BACKEND_ROCKSDB);
    CHECK_INT(dir_entries(dir), 1);
    wstate_backend_free(b);
    CHECK_INT(dir_entries(dir), 0);
    ctx.state_backend_type = "hashmap";                 /* the runtime's override wins */
    b = wexec_new_backend(&ctx, "x");
    CHECK_INT(wstate_backend_type(b), WSTATE_BACKEND_HASHMAP);
    wstate_backend_free(b);
    ctx.state_backend_type = NULL;
    wopts_set(&o, "state.backend.type", "forst");
    b = wexec_new_backend(&ctx, "x");                   /* an error for the job, never NULL */
    CHECK(b != NULL);
    CHECK(err.set);
    CHECK_STR(err.msg, "Cannot find configured state backend factory class: forst");
    wstate_backend_free(b);
    CHECK(!err.set || strcmp(err.cls, "org.apache.flink.util.DynamicCodeLoadingException") == 0);
    wopts_free(&o);
    rmdir(dir);
}

WTEST(state_rocksdb_removes_directories_of_dead_processes)
{
    char dir[] = "/tmp/weir-test-stale-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char stale[128], live[128], other[128];
    snprintf(stale, sizeof stale, "%s/weir-rocksdb-Join-p999999999-AbCdEf", dir);   /* no such pid */
    snprintf(live, sizeof live, "%s/weir-rocksdb-Join-p%ld-AbCdEf", dir, (long)getppid());
    snprintf(other, sizeof other, "%s/weir-rocksdb-Join-AbCdEf", dir);               /* not ours */
    mkdir(stale, 0755);
    mkdir(live, 0755);
    mkdir(other, 0755);
    char f[160];
    snprintf(f, sizeof f, "%s/LOCK", stale);
    FILE *fp = fopen(f, "w");
    if (fp) fclose(fp);
    WStateBackendConfig cfg = {.operator_name = "op", .max_parallelism = 128};
    WRocksDBConfig rc = {.local_dir = dir};
    WError err = {0};
    WStateBackend *b = wstate_rocksdb_new(&cfg, &rc, &err);
    CHECK(b != NULL);
    struct stat st;
    CHECK(stat(stale, &st) != 0);
    CHECK(stat(live, &st) == 0);
    CHECK(stat(other, &st) == 0);
    wstate_backend_free(b);
    rmdir(live);
    rmdir(other);
    CHECK_INT(dir_entries(dir), 0);
    rmdir(dir);
}
