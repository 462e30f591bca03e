/* test_state.c — unit tests for the keyed-state interface on the heap backend, incl. TTL. */
#include "unit.h"
#include "../../src/state/prefetch.h"
#include "../../src/state/state.h"

typedef struct { int64_t now; } FakeClock;
static int64_t fake_now(void *c) { return ((FakeClock *)c)->now; }

static WStateBackend *backend(FakeClock *clk)
{
    WStateBackendConfig cfg = {.operator_name = "test", .max_parallelism = 128, .clock = fake_now, .clock_ctx = clk};
    return wstate_heap_new(&cfg);
}

WTEST(state_value_put_get_clear)
{
    FakeClock clk = {1000};
    WStateBackend *b = backend(&clk);
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

WTEST(state_value_many_keys_and_deletes)
{
    FakeClock clk = {0};
    WStateBackend *b = backend(&clk);
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
        if (i % 2 == 1 && (how != WSL_FOUND || *(const int64_t *)v.p != i)) ok = 0;
    }
    CHECK(ok);
    wstate_backend_free(b);
}

WTEST(state_ttl_expires_and_is_reported)
{
    FakeClock clk = {0};
    WStateBackend *b = backend(&clk);
    WState *s = wstate_register(b, "v", WSTATE_VALUE, 1000);
    wstate_set_key(b, "a", 1);
    wvalue_put(s, "x", 1);
    clk.now = 999;
    WBytes v;
    CHECK_INT(wvalue_get(s, &v), WSL_FOUND);     /* reads do not extend the TTL */
    clk.now = 1000;
    CHECK_INT(wvalue_get(s, &v), WSL_EXPIRED);
    CHECK_INT(wvalue_get(s, &v), WSL_ABSENT);
    wvalue_put(s, "y", 1);                        /* write refreshes */
    clk.now = 1900;
    CHECK_INT(wvalue_get(s, &v), WSL_FOUND);
    WStateStats st[1];
    wstate_stats(b, st, 1);
    CHECK_INT(st[0].expired_reads, 1);
    wstate_backend_free(b);
}

WTEST(state_ttl_incremental_cleanup_bounds_size)
{
    FakeClock clk = {0};
    WStateBackend *b = backend(&clk);
    WState *s = wstate_register(b, "v", WSTATE_VALUE, 10);
    for (int64_t i = 0; i < 1000; i++) { wstate_set_key(b, &i, 8); wvalue_put(s, "x", 1); }
    clk.now = 100;
    for (int64_t i = 1000; i < 3000; i++) { wstate_set_key(b, &i, 8); WBytes v; wvalue_get(s, &v); }
    WStateStats st[1];
    wstate_stats(b, st, 1);
    CHECK(st[0].entries < 1000);   /* cleanup removed expired entries without reading them */
    wstate_backend_free(b);
}

/* wmap_ref + wmap_ref_put / wmap_ref_remove are wmap_get + wmap_put / wmap_remove; here the heap
   backend's path without TTL (through the lookup's entries: a key's new map, growing entries and
   tables, the key's entry removed with its last user entry). With a TTL (expiry, expired-read
   counting) and on RocksDB: test_state_rocksdb.c, scenario map_ref. */
WTEST(state_map_ref)
{
    FakeClock clk = {1000};
    WStateBackend *b = backend(&clk);
    WState *s = wstate_register(b, "m", WSTATE_MAP, 0);
    wstate_set_key(b, "key", 3);
    WMapRef r;
    int uk = 1;
    CHECK_INT(wmap_ref(s, &uk, sizeof uk, &r), WSL_ABSENT);    /* no map for the key yet */
    wmap_ref_put(&r, "a", 1);
    CHECK_INT(wmap_ref(s, &uk, sizeof uk, &r), WSL_FOUND);
    CHECK(r.cur.len == 1 && memcmp(r.cur.p, "a", 1) == 0);
    wmap_ref_put(&r, "bbbbbbbbbbbbbbbbbbbbbbbbbbbb", 28);          /* grows the entry */
    for (int i = 2; i < 40; i++) {                                 /* new user keys: the table grows */
        CHECK_INT(wmap_ref(s, &i, sizeof i, &r), WSL_ABSENT);
        wmap_ref_put(&r, &i, sizeof i);
    }
    CHECK_INT(wmap_ref(s, &uk, sizeof uk, &r), WSL_FOUND);
    CHECK(r.cur.len == 28);
    CHECK_INT(wmap_size(s), 39);
    int i7 = 7;
    WBytes v;
    CHECK_INT(wmap_get(s, &i7, sizeof i7, &v), WSL_FOUND);
    CHECK(v.len == sizeof(int) && *(const int *)v.p == 7);
    WStateStats st[1];
    wstate_stats(b, st, 1);
    CHECK_INT(st[0].entries, 39);
    CHECK_INT(st[0].bytes, 3 + 39 * 4 + 28 + 38 * 4);
    wstate_set_key(b, "k2", 2);                                    /* a second key's map */
    CHECK_INT(wmap_ref(s, &uk, sizeof uk, &r), WSL_ABSENT);
    wmap_ref_put(&r, "c", 1);
    CHECK_INT(wmap_ref(s, &uk, sizeof uk, &r), WSL_FOUND);
    wmap_ref_remove(&r);                                           /* its only entry, then the key */
    CHECK(wmap_is_empty(s));
    wstate_set_key(b, "key", 3);
    for (int i = 1; i < 40; i++) {
        CHECK_INT(wmap_ref(s, &i, sizeof i, &r), WSL_FOUND);
        wmap_ref_remove(&r);
        CHECK_INT(wmap_get(s, &i, sizeof i, &v), WSL_ABSENT);
    }
    CHECK(wmap_is_empty(s));
    wstate_stats(b, st, 1);
    CHECK_INT(st[0].entries, 0);
    CHECK_INT(st[0].bytes, 0);
    CHECK_INT(wmap_ref(s, &uk, sizeof uk, &r), WSL_ABSENT);    /* removing an absent entry: nothing */
    wmap_ref_remove(&r);
    CHECK_INT(wmap_ref(s, &uk, sizeof uk, &r), WSL_ABSENT);    /* the key's map anew */
    wmap_ref_put(&r, "d", 1);
    CHECK_INT(wmap_get(s, &uk, sizeof uk, &v), WSL_FOUND);
    CHECK(v.len == 1 && memcmp(v.p, "d", 1) == 0);
    wstate_stats(b, st, 1);
    CHECK_INT(st[0].entries, 1);
    CHECK_INT(st[0].bytes, 3 + 4 + 1);
    wstate_backend_free(b);
}

/* wmap_ref_hinted: a key's hint, kept between reads of other keys, finds the key's map while no
   key entered or left the state; after keys were added (the table grew, slots moved) or removed,
   the backend looks the key up again (and refills the hint), so every read sees its own key's map.
   A zero hash is computed by the backend. */
WTEST(state_map_ref_hinted)
{
    FakeClock clk = {1000};
    WStateBackend *b = backend(&clk);
    WState *s = wstate_register(b, "m", WSTATE_MAP, 0);
    char key[16];
    WKeyHint hint[64] = {{0}};
    int expect[64];
    WMapRef r;
    for (int round = 0; round < 3; round++) {
        for (int k = 0; k < 64; k++) {       /* keys 0..63 in turn, each reading user key 1 */
            int n = snprintf(key, sizeof key, "key-%d", k);
            wstate_set_key(b, key, (size_t)n);
            int uk = 1;
            uint64_t h = round == 1 ? wmap_key_hash(&uk, sizeof uk) : 0;
            WStateLookup how = wmap_ref_hinted(s, &uk, sizeof uk, h, &hint[k], &r);
            if (round == 0) {                /* each new key enters the state: older hints go stale */
                CHECK_INT(how, WSL_ABSENT);
                wmap_ref_put(&r, &k, sizeof k);
                expect[k] = k;
            } else {
                CHECK_INT(how, WSL_FOUND);
                CHECK(r.cur.len == sizeof k && *(const int *)r.cur.p == expect[k]);
                expect[k] = k + 100 * round;
                wmap_ref_put(&r, &expect[k], sizeof expect[k]);
            }
        }
        if (round == 1) {                    /* a key leaves: the others' slots may move */
            wstate_set_key(b, "key-0", 5);
            wmap_clear(s);
            wstate_set_key(b, "key-0", 5);
            int uk = 1, k0 = 0;
            CHECK_INT(wmap_ref_hinted(s, &uk, sizeof uk, 0, &hint[0], &r), WSL_ABSENT);
            wmap_ref_put(&r, &k0, sizeof k0);
            expect[0] = 0;
        }
    }
    for (int k = 0; k < 64; k++) {           /* the values written through hints, under their keys */
        int n = snprintf(key, sizeof key, "key-%d", k);
        wstate_set_key(b, key, (size_t)n);
        int uk = 1;
        WBytes v;
        CHECK_INT(wmap_get(s, &uk, sizeof uk, &v), WSL_FOUND);
        CHECK(*(const int *)v.p == expect[k]);
    }
    wstate_backend_free(b);
}

/* wmap_prefetch is a hint: it changes no contents, reads ahead under a key with or without a map,
   and remembers where a key's map is only while no map table was freed since (a key's map freed
   and made anew is found again, not read from the remembered place). */
WTEST(state_map_prefetch_where)
{
    FakeClock clk = {1000};
    WStateBackend *b = backend(&clk);
    WState *s = wstate_register(b, "m", WSTATE_MAP, 0);
    uint64_t kh = wstate_key_hash("key", 3);
    WMapWhere where = {0}, none = {0};
    int uk = 1, other = 2, third = 3;
    wmap_prefetch(s, "key", 3, kh, &where, wmap_key_hash(&uk, sizeof uk), WMAP_PREFETCH_TABLE);   /* no map yet */
    CHECK(where.table == NULL);
    wstate_set_key(b, "key", 3);
    wmap_put(s, &uk, sizeof uk, "a", 1);
    wmap_prefetch(s, "key", 3, kh, &where, wmap_key_hash(&uk, sizeof uk), WMAP_PREFETCH_ENTRY);
    CHECK(where.table == NULL);             /* one user entry: kept in the key's entry, no table */
    wmap_put(s, &other, sizeof other, "b", 1);
    wmap_prefetch(s, "key", 3, kh, &where, wmap_key_hash(&uk, sizeof uk), WMAP_PREFETCH_TABLE);
    CHECK(where.table != NULL);             /* the second entry made the key's table */
    wmap_prefetch(s, "key", 3, kh, &where, wmap_key_hash(&uk, sizeof uk), WMAP_PREFETCH_SLOT);
    WMapWhere first = where;
    wmap_prefetch(s, "key", 3, kh, &where, wmap_key_hash(&uk, sizeof uk), WMAP_PREFETCH_ENTRY);
    wmap_prefetch(s, "key", 3, kh, &where, wmap_key_hash(&third, sizeof third), WMAP_PREFETCH_ENTRY);
    for (WMapPrefetch st = WMAP_PREFETCH_TABLE; st <= WMAP_PREFETCH_ENTRY; st++)
        wmap_prefetch(s, "nokey", 5, wstate_key_hash("nokey", 5), &none, wmap_key_hash(&uk, sizeof uk), st);
    wmap_prefetch(s, "key", 3, kh, NULL, wmap_key_hash(&uk, sizeof uk), WMAP_PREFETCH_ENTRY);
    CHECK(where.table == first.table && where.gen == first.gen && none.table == NULL);
    WBytes v;
    CHECK_INT(wmap_get(s, &uk, sizeof uk, &v), WSL_FOUND);
    CHECK(v.len == 1 && memcmp(v.p, "a", 1) == 0);
    CHECK_INT(wmap_get(s, &third, sizeof third, &v), WSL_ABSENT);
    wmap_remove(s, &uk, sizeof uk);
    CHECK_INT(wmap_size(s), 1);             /* a table keeps its last entry */
    wmap_remove(s, &other, sizeof other);                             /* the key's map goes */
    wstate_set_key(b, "k2", 2);
    wmap_put(s, &uk, sizeof uk, "b", 1);                             /* may reuse its memory */
    wmap_put(s, &other, sizeof other, "b", 1);
    wstate_set_key(b, "key", 3);
    wmap_put(s, &other, sizeof other, "c", 1);                       /* the key's map anew */
    wmap_put(s, &third, sizeof third, "d", 1);
    wmap_prefetch(s, "key", 3, kh, &where, wmap_key_hash(&other, sizeof other), WMAP_PREFETCH_ENTRY);
    CHECK(where.table != NULL && where.gen != first.gen);
    CHECK_INT(wmap_get(s, &other, sizeof other, &v), WSL_FOUND);
    CHECK(v.len == 1 && memcmp(v.p, "c", 1) == 0);
    CHECK_INT(wmap_get(s, &uk, sizeof uk, &v), WSL_ABSENT);
    wstate_backend_free(b);
}

/* A key's map in its two forms (one user entry in the key's entry, a table from the second on):
   every operation in each form and across the change, against the values put. */
WTEST(state_map_one_entry_form)
{
    FakeClock clk = {0};
    WStateBackend *b = backend(&clk);
    WState *s = wstate_register(b, "m", WSTATE_MAP, 0);
    WBytes v, k;
    int a = 10, c = 30;
    wstate_set_key(b, "one", 3);
    wmap_put(s, &a, sizeof a, "x", 1);
    wmap_put(s, &a, sizeof a, "a much longer value than before", 31);     /* moves to a new block */
    CHECK_INT(wmap_get(s, &a, sizeof a, &v), WSL_FOUND);
    CHECK(v.len == 31 && memcmp(v.p, "a much", 6) == 0);
    CHECK_INT(wmap_get(s, &c, sizeof c, &v), WSL_ABSENT);
    CHECK_INT(wmap_size(s), 1);
    WMapIter it;
    wmap_iter(s, &it);
    CHECK(wmap_next(&it, &k, &v) && k.len == sizeof a && memcmp(k.p, &a, sizeof a) == 0);
    CHECK(!wmap_next(&it, &k, &v));
    WMapRef r;
    CHECK_INT(wmap_ref(s, &c, sizeof c, &r), WSL_ABSENT);
    wmap_ref_put(&r, "y", 1);                                         /* the second: a table */
    CHECK_INT(wmap_size(s), 2);
    CHECK_INT(wmap_get(s, &a, sizeof a, &v), WSL_FOUND);
    CHECK(v.len == 31);
    CHECK_INT(wmap_get(s, &c, sizeof c, &v), WSL_FOUND);
    CHECK(v.len == 1 && *(const char *)v.p == 'y');
    /* the one-entry form emptied by an iterator's removal, then filled again */
    wstate_set_key(b, "two", 3);
    wmap_put(s, &c, sizeof c, "z", 1);
    wmap_iter(s, &it);
    CHECK(wmap_next(&it, &k, &v));
    wmap_iter_remove(&it);
    CHECK(!wmap_next(&it, &k, &v));
    CHECK_INT(wmap_size(s), 0);
    wmap_put(s, &a, sizeof a, "w", 1);
    CHECK_INT(wmap_get(s, &a, sizeof a, &v), WSL_FOUND);
    CHECK(*(const char *)v.p == 'w');
    wmap_remove(s, &a, sizeof a);
    CHECK_INT(wmap_get(s, &a, sizeof a, &v), WSL_ABSENT);
    wmap_clear(s);
    wstate_set_key(b, "one", 3);
    wmap_clear(s);                                                  /* a key with a table */
    CHECK_INT(wmap_get(s, &a, sizeof a, &v), WSL_ABSENT);
    wstate_backend_free(b);
}

WTEST(state_map_and_iteration)
{
    FakeClock clk = {0};
    WStateBackend *b = backend(&clk);
    WState *s = wstate_register(b, "m", WSTATE_MAP, 0);
    wstate_set_key(b, "key", 3);
    for (int i = 0; i < 100; i++) wmap_put(s, &i, sizeof i, &i, sizeof i);
    CHECK_INT(wmap_size(s), 100);
    int i7 = 7;
    WBytes v;
    CHECK_INT(wmap_get(s, &i7, sizeof i7, &v), WSL_FOUND);
    CHECK(*(const int *)v.p == 7);
    for (int i = 0; i < 100; i += 3) wmap_remove(s, &i, sizeof i);
    WMapIter it;
    wmap_iter(s, &it);
    WBytes uk, uv;
    int n = 0, sum = 0;
    while (wmap_next(&it, &uk, &uv)) { n++; sum += *(const int *)uv.p; }
    CHECK_INT(n, 66);
    int want = 0;
    for (int i = 0; i < 100; i++) if (i % 3) want += i;
    CHECK_INT(sum, want);
    wstate_set_key(b, "other", 5);
    CHECK(wmap_is_empty(s));
    wstate_set_key(b, "key", 3);
    wmap_clear(s);
    CHECK(wmap_is_empty(s));
    wstate_backend_free(b);
}

/* A map made order-free (wmap_set_order_free: the heap backend then takes the home slots of a
   key's table of up to WSLOT_TAG_HOME_CAP slots from the hash's top bits, and grows it and shifts
   entries back after a removal from the slots alone) against a plain one, through the growth
   across that size, removals by key, by ref and by iterator, and entries that were there when the
   map became order-free (a restored state registered afterwards: placed anew). */
static void order_free_fill(int *wtest_failed_, WStateBackend *b, WState *s, int from, int to)
{
    for (int k = 0; k < 3; k++) {
        wstate_set_key(b, &k, sizeof k);
        for (int i = from; i < to; i++) {
            int64_t v = (int64_t)i * 7 + k;
            if (i % 3 || k) { wmap_put(s, &i, sizeof i, &v, sizeof v); continue; }
            WMapRef r;                          /* every third of key 0's through a ref */
            wmap_ref(s, &i, sizeof i, &r);
            wmap_ref_put(&r, &v, sizeof v);
        }
    }
}

/* The entries of keys 0..2 in s are those of plain (same values) and n of them per key. */
static void order_free_same(int *wtest_failed_, WStateBackend *b, WState *s, WState *plain, int upto, int64_t n)
{
    for (int k = 0; k < 3; k++) {
        wstate_set_key(b, &k, sizeof k);
        CHECK_INT(wmap_size(s), n);
        CHECK_INT(wmap_size(plain), n);
        for (int i = 0; i < upto; i++) {
            WBytes a, c;
            WStateLookup la = wmap_get(s, &i, sizeof i, &a), lc = wmap_get(plain, &i, sizeof i, &c);
            CHECK_INT(la, lc);
            if (la == WSL_FOUND) CHECK(a.len == 8 && c.len == 8 && memcmp(a.p, c.p, 8) == 0);
        }
    }
}

WTEST(state_map_order_free_grows_and_removes)
{
    FakeClock clk = {0};
    WStateBackend *b = backend(&clk);
    WState *s = wstate_register(b, "free", WSTATE_MAP, 0);
    WState *plain = wstate_register(b, "plain", WSTATE_MAP, 0);
    WState *late = wstate_register(b, "late", WSTATE_MAP, 0);
    wmap_set_order_free(s);
    enum { N = 10000 };                         /* a key's table grows to 16,384 slots */
    order_free_fill(wtest_failed_, b, s, 0, 3000);
    order_free_fill(wtest_failed_, b, plain, 0, 3000);
    order_free_fill(wtest_failed_, b, late, 0, 3000);
    wmap_set_order_free(late);                  /* 4,096-slot tables placed anew */
    order_free_same(wtest_failed_, b, s, plain, N, 3000);
    order_free_same(wtest_failed_, b, late, plain, N, 3000);
    order_free_fill(wtest_failed_, b, s, 3000, N);
    order_free_fill(wtest_failed_, b, plain, 3000, N);
    order_free_fill(wtest_failed_, b, late, 3000, N);
    order_free_same(wtest_failed_, b, s, plain, N + 10, N);
    order_free_same(wtest_failed_, b, late, plain, N + 10, N);
    /* removals: by key (every 5th), by ref (every 7th), by iterator (values ending in 3), in each
       state the same */
    WState *all[3] = {s, late, plain};
    int64_t left = N;
    for (int k = 0; k < 3; k++) {
        wstate_set_key(b, &k, sizeof k);
        int64_t gone = 0;
        for (int q = 0; q < 3; q++) {
            WState *m = all[q];
            gone = 0;
            for (int i = 0; i < N; i++) {
                if (i % 5 == 0) { wmap_remove(m, &i, sizeof i); gone++; continue; }
                if (i % 7 == 0) {
                    WMapRef r;
                    CHECK_INT(wmap_ref(m, &i, sizeof i, &r), WSL_FOUND);
                    wmap_ref_remove(&r);
                    gone++;
                }
            }
            WMapIter it;
            WBytes uk, uv;
            wmap_iter(m, &it);
            while (wmap_next(&it, &uk, &uv)) {
                int64_t v;
                memcpy(&v, uv.p, 8);
                if ((v - k) / 7 % 10 == 3) { wmap_iter_remove(&it); gone++; }
            }
        }
        left = N - gone;
    }
    order_free_same(wtest_failed_, b, s, plain, N + 10, left);
    order_free_same(wtest_failed_, b, late, plain, N + 10, left);
    order_free_fill(wtest_failed_, b, s, 0, N);                /* back in, over the holes the shifts closed */
    order_free_fill(wtest_failed_, b, plain, 0, N);
    order_free_same(wtest_failed_, b, s, plain, N + 10, N);
    wstate_backend_free(b);
}

WTEST(state_list_add_remove)
{
    FakeClock clk = {0};
    WStateBackend *b = backend(&clk);
    WState *s = wstate_register(b, "l", WSTATE_LIST, 0);
    wstate_set_key(b, "k", 1);
    wlist_add(s, "a", 1);
    wlist_add(s, "bb", 2);
    wlist_add(s, "ccc", 3);
    const WBytes *items;
    CHECK_INT(wlist_get(s, &items, NULL), 3);
    wlist_remove_at(s, 1);
    CHECK_INT(wlist_get(s, &items, NULL), 2);
    CHECK(items[1].len == 3);
    wlist_remove_at(s, 0);
    wlist_remove_at(s, 0);
    WStateLookup how;
    CHECK_INT(wlist_get(s, &items, &how), 0);
    CHECK_INT(how, WSL_ABSENT);
    wstate_backend_free(b);
}

WTEST(state_key_group_matches_flink)
{
    FakeClock clk = {0};
    WStateBackend *b = backend(&clk);
    unsigned char int1[16] = {0};
    int1[8] = 1;
    wstate_set_key(b, int1, 16);
    CHECK_INT(wstate_current_key_group(b), 94);
    wstate_backend_free(b);
}

#include "../../src/state/timers.h"

typedef struct { int n; int64_t ts[64]; int64_t ns[64]; } Fired;
static void on_timer(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    Fired *f = ctx;
    (void)key; (void)klen;
    if (f->n < 64) { f->ts[f->n] = ts; f->ns[f->n] = ns; f->n++; }
}

WTEST(timers_order_dedupe_delete)
{
    WTimerService *t = wtimers_new();
    CHECK(wtimers_register(t, 30, "a", 1, 30));
    CHECK(wtimers_register(t, 10, "b", 1, 10));
    CHECK(!wtimers_register(t, 10, "b", 1, 10));
    CHECK(wtimers_register(t, 20, "a", 1, 20));
    CHECK(wtimers_register(t, 20, "c", 1, 20));
    CHECK(wtimers_delete(t, 20, "a", 1, 20));
    CHECK_INT(wtimers_count(t), 3);
    Fired f = {0};
    wtimers_advance(t, 20, on_timer, &f);
    CHECK_INT(f.n, 2);
    CHECK_INT(f.ts[0], 10);
    CHECK_INT(f.ts[1], 20);
    wtimers_advance(t, INT64_MAX, on_timer, &f);
    CHECK_INT(f.n, 3);
    CHECK_INT(f.ts[2], 30);
    CHECK_INT(wtimers_count(t), 0);
    wtimers_free(t);
}

/* Timers with keys of every length from 0 to 300 bytes (many of the pool's size classes), in
   three rounds that fire the first timers and register new ones: each fires once, in order, with
   its own key bytes, from memory reused by the timers fired before it; the service freed with 258
   timers still pending (ASan: nothing leaked, nothing freed twice). */
typedef struct { int fired; int64_t last; bool wrong; } KeyCheck;
static void key_check_fire(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    KeyCheck *c = ctx;
    const unsigned char *k = key;
    if ((int64_t)klen != ns % 301 || ts < c->last) c->wrong = true;
    for (size_t i = 0; i < klen; i++)
        if (k[i] != (unsigned char)(ns + (int64_t)i)) c->wrong = true;
    c->last = ts;
    c->fired++;
}
WTEST(timers_keys_of_every_size)
{
    WTimerService *t = wtimers_new();
    unsigned char key[300];
    KeyCheck c = {0};
    int64_t id = 0;
    for (int round = 0; round < 3; round++) {
        for (int n = 0; n < 602; n++, id++) {
            size_t klen = (size_t)(id % 301);
            for (size_t i = 0; i < klen; i++) key[i] = (unsigned char)(id + (int64_t)i);
            CHECK(wtimers_register(t, 1000 * round + n % 7, key, klen, id));
        }
        int before = c.fired;
        c.last = INT64_MIN;
        wtimers_advance(t, 1000 * round + 3, key_check_fire, &c);
        /* times 0-3 of this round (86 timers each), and times 4-6 of the round before */
        CHECK_INT(c.fired - before, round == 0 ? 4 * 86 : 7 * 86);
    }
    CHECK(!c.wrong);
    CHECK_INT(wtimers_count(t), 3 * 602 - c.fired);
    wtimers_free(t);
}

/* The set of live timers under churn (tombstones where timers leave the middle of a probe
   cluster, rebuilds that drop them): 200,000 random registrations, deletions and firings of
   (time, key) pairs up to 200 times ahead against a table of flags, thousands live at once; every
   answer, firing and count agrees. */
typedef struct { uint8_t *live; int nkeys; int fired; bool wrong; } Churn;
static void churn_fire(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    Churn *c = ctx;
    int k;
    memcpy(&k, key, sizeof k);
    int slot = (int)ts * c->nkeys + k;
    if (klen != sizeof k || ns != k || !c->live[slot]) c->wrong = true;
    c->live[slot] = 0;
    c->fired++;
}
WTEST(timers_set_churn)
{
    enum { TIMES = 2600, KEYS = 100 };
    static uint8_t live[TIMES * KEYS];
    memset(live, 0, sizeof live);
    WTimerService *t = wtimers_new();
    Churn c = {.live = live, .nkeys = KEYS};
    uint64_t r = 12345;
    int64_t now = -1;
    int count = 0;
    for (int step = 0; step < 200000 && !c.wrong; step++) {
        r = r * 6364136223846793005ULL + 1442695040888963407ULL;
        int k = (int)((r >> 33) % KEYS), op = (int)((r >> 20) % 1000);
        int64_t ts = now + 1 + (int64_t)((r >> 45) % 200);
        if (ts >= TIMES) ts = TIMES - 1;
        if (now >= TIMES - 1) break;
        int slot = (int)ts * KEYS + k;
        if (op < 550) {
            bool added = wtimers_register(t, ts, &k, sizeof k, k);
            if (added != !live[slot]) c.wrong = true;
            if (added) { live[slot] = 1; count++; }
        } else if (op < 990) {
            bool gone = wtimers_delete(t, ts, &k, sizeof k, k);
            if (gone != (live[slot] != 0)) c.wrong = true;
            if (gone) { live[slot] = 0; count--; }
        } else {
            now++;
            int before = c.fired;
            wtimers_advance(t, now, churn_fire, &c);
            count -= c.fired - before;
            for (int i = 0; i < KEYS; i++) if (live[now * KEYS + i]) c.wrong = true;
        }
        if ((int)wtimers_count(t) != count) c.wrong = true;
    }
    CHECK(!c.wrong);
    CHECK(c.fired > 1000);
    wtimers_advance(t, INT64_MAX, churn_fire, &c);
    CHECK(!c.wrong);
    CHECK_INT(wtimers_count(t), 0);
    wtimers_free(t);
}

/* Timers registered by a firing timer's callback (timers.h): one for the time being fired joins
   its end, an earlier one fires before the rest of that time's timers, one that is not due waits;
   the firing timer may be registered again. Many timers of one time fire in registration order. */
typedef struct { WTimerService *t; Fired f; int registered; bool again; } Chain;
static void on_chain(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    Chain *c = ctx;
    on_timer(&c->f, ts, key, klen, ns);
    if (ns == 1 && !c->again) {                      /* the first timer of time 20, the first time */
        c->again = true;
        c->registered += wtimers_register(c->t, 20, "z", 1, 9);      /* same time: after the others */
        c->registered += wtimers_register(c->t, 15, "y", 1, 8);      /* earlier: next */
        c->registered += wtimers_register(c->t, 99, "x", 1, 7);      /* not due */
        c->registered += wtimers_register(c->t, 20, key, klen, ns);  /* itself again: fires once more */
    }
}

WTEST(timers_callbacks_register_in_order)
{
    WTimerService *t = wtimers_new();
    for (int64_t i = 1; i <= 5; i++) CHECK(wtimers_register(t, 20, &i, sizeof i, i));
    Chain c = {t, {0}, 0, false};
    wtimers_advance(t, 50, on_chain, &c);
    CHECK_INT(c.registered, 4);
    /* 20/1, then 15/8 (earlier, registered by 20/1), then 20/2..5, 20/9, 20/1 again */
    int64_t want_ts[] = {20, 15, 20, 20, 20, 20, 20, 20}, want_ns[] = {1, 8, 2, 3, 4, 5, 9, 1};
    CHECK_INT(c.f.n, 8);
    for (int i = 0; i < 8 && i < c.f.n; i++) {
        CHECK_INT(c.f.ts[i], want_ts[i]);
        CHECK_INT(c.f.ns[i], want_ns[i]);
    }
    CHECK_INT(wtimers_count(t), 1);
    CHECK_INT(wtimers_next(t), 99);
    wtimers_free(t);
}

/* wtimers_advance_ahead: the read-ahead sees every live timer of a large bucket before it fires,
   first without, then with `entry`, and never one deleted before its turn; the firing order is
   wtimers_advance's. The value-state hints change no contents. */
typedef struct { int64_t fired[64]; int nfired; int seen[64][2]; int early[64]; } Ahead;
static void ahead_fire(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    Ahead *a = ctx;
    (void)ts; (void)key; (void)klen;
    if (a->nfired < 64) a->fired[a->nfired++] = ns;
}
static void ahead_read(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns, bool entry)
{
    Ahead *a = ctx;
    (void)ts; (void)key; (void)klen;
    a->seen[ns][entry]++;
    for (int i = 0; i < a->nfired; i++) if (a->fired[i] == ns) a->early[ns]++;   /* after it fired */
}
WTEST(timers_read_ahead)
{
    WTimerService *t = wtimers_new();
    for (int64_t i = 0; i < 60; i++) CHECK(wtimers_register(t, 7, &i, sizeof i, i));
    int64_t gone = 40;
    CHECK(wtimers_delete(t, 7, &gone, sizeof gone, gone));
    Ahead a = {0};
    wtimers_advance_ahead(t, 7, ahead_fire, ahead_read, &a);
    CHECK_INT(a.nfired, 59);
    for (int i = 0; i < a.nfired; i++) CHECK_INT(a.fired[i], i < 40 ? i : i + 1);
    int with_entry = 0;
    for (int i = 0; i < 60; i++) {
        CHECK_INT(a.early[i], 0);
        CHECK(a.seen[i][0] <= 1 && a.seen[i][1] <= 1);
        with_entry += a.seen[i][1];
    }
    CHECK_INT(a.seen[40][0] + a.seen[40][1], 0);
    CHECK(a.seen[30][0] == 1 && a.seen[30][1] == 1);
    CHECK(with_entry >= 50);
    CHECK_INT(wtimers_count(t), 0);
    wtimers_free(t);

    FakeClock clk = {1000};
    WStateBackend *b = backend(&clk);
    WState *v = wstate_register(b, "v", WSTATE_VALUE, 0);
    wstate_prefetch_entry(v, wstate_key_hash("k", 1));  /* an empty table */
    wstate_set_key(b, "k", 1);
    wvalue_put(v, "x", 1);
    wstate_prefetch_slot(v, wstate_key_hash("k", 1));
    wstate_prefetch_entry(v, wstate_key_hash("k", 1));
    wstate_prefetch_entry(v, wstate_key_hash("other", 5));
    WBytes got;
    CHECK_INT(wvalue_get(v, &got), WSL_FOUND);
    CHECK(got.len == 1 && memcmp(got.p, "x", 1) == 0);
    wstate_backend_free(b);
}

/* weir.state.memory-limit: the first write that takes the backend's state bytes past the limit
   sets the error once, naming the operator; below it nothing is reported */
WTEST(state_memory_limit_reports_the_operator)
{
    FakeClock clk = {1000};
    WError err;
    werr_clear(&err);
    WStateBackendConfig cfg = {.operator_name = "GroupAggregate", .max_parallelism = 128, .clock = fake_now,
                               .clock_ctx = &clk, .memory_limit = 4096, .limit_err = &err};
    WStateBackend *b = wstate_heap_new(&cfg);
    WState *v = wstate_register(b, "groupAggregateState", WSTATE_VALUE, 0);
    char val[100] = {0};
    int k;
    for (k = 0; k < 1000 && !err.set; k++) {
        wstate_set_key(b, &k, sizeof k);
        wvalue_put(v, val, sizeof val);
    }
    CHECK(err.set);
    CHECK(k > 30 && k < 45);                    /* 4096 / (4 + 100) bytes per key */
    CHECK(strstr(err.msg, "operator GroupAggregate holds") != NULL);
    CHECK(strstr(err.msg, "weir.state.memory-limit (4096 bytes)") != NULL);
    wstate_backend_free(b);

    werr_clear(&err);
    cfg.memory_limit = 1 << 20;
    b = wstate_heap_new(&cfg);
    v = wstate_register(b, "groupAggregateState", WSTATE_VALUE, 0);
    for (k = 0; k < 1000; k++) {
        wstate_set_key(b, &k, sizeof k);
        wvalue_put(v, val, sizeof val);
    }
    CHECK(!err.set);
    wstate_backend_free(b);
}

typedef struct { int calls; int64_t bytes_a, bytes_b, total; } ScanSum;
static void scan_sum(void *ctx, WBytes key, int64_t bytes)
{
    ScanSum *s = ctx;
    s->calls++;
    s->total += bytes;
    if (key.len == 16 && !memcmp(key.p, "a", 2)) s->bytes_a += bytes;
    if (key.len == 16 && !memcmp(key.p, "b", 2)) s->bytes_b += bytes;
}

/* The insight walk over a backend's keys: bounded steps, each key with the bytes it holds in
   each state (a map's entries and a list's items included), the pass total equal to the stats. */
WTEST(state_scan_key_bytes_in_steps)
{
    FakeClock clk = {1000};
    WStateBackend *b = backend(&clk);
    WState *v = wstate_register(b, "v", WSTATE_VALUE, 0);
    WState *m = wstate_register(b, "m", WSTATE_MAP, 0);
    WState *l = wstate_register(b, "l", WSTATE_LIST, 0);
    char key[16] = "a";
    wstate_set_key(b, key, 16);
    wvalue_put(v, "12345678", 8);                       /* 16 + 8 */
    for (int i = 0; i < 10; i++) {                      /* 16 + 10 x (4 + 4) */
        char uk[4] = {(char)i};
        wmap_put(m, uk, 4, "vvvv", 4);
    }
    wlist_add(l, "xx", 2);                              /* 16 + 2 */
    for (int i = 0; i < 20; i++) {
        char k[16];
        snprintf(k, sizeof k, "k%d", i);
        wstate_set_key(b, k, 16);
        wvalue_put(v, "1", 1);
    }
    char kb[16] = "b";
    wstate_set_key(b, kb, 16);
    wlist_add(l, "yyyy", 4);
    WStateStats st[4];
    int n = wstate_stats(b, st, 4);
    int64_t want = 0;
    for (int i = 0; i < n; i++) want += st[i].bytes;
    ScanSum sum = {0};
    WStateScanCursor cur = {0};
    int steps = 0;
    bool done = false;
    while (!done && steps < 100) {
        int64_t budget = 5;
        done = wstate_scan_key_bytes(b, &cur, &budget, scan_sum, &sum);
        CHECK(budget <= 5);
        steps++;
    }
    CHECK(done);
    CHECK(steps > 3);                                   /* bounded steps, not one sweep */
    CHECK_INT(sum.calls, 1 + 20 + 1 + 1 + 1);           /* keys of v, m, l */
    CHECK_INT(sum.total, want);
    CHECK_INT(sum.bytes_a, 24 + 96 + 18);
    CHECK_INT(sum.bytes_b, 20);
    CHECK(cur.state == 0 && cur.slot == 0);
    wstate_backend_free(b);
}

/* A key whose map or list is far longer than a step's budget (one DISTINCT map of every value of
   a query's single group): a step walks a sample of it instead of all of it, so that a step costs
   about its budget, and reports the key once with the sample's bytes scaled to its entries; a
   budget that covers the key gives the exact bytes. */
WTEST(state_scan_key_bytes_samples_a_big_key)
{
    FakeClock clk = {1000};
    WStateBackend *b = backend(&clk);
    WState *m = wstate_register(b, "m", WSTATE_MAP, 0);
    WState *l = wstate_register(b, "l", WSTATE_LIST, 0);
    char key[16] = "a";
    wstate_set_key(b, key, 16);
    int64_t exact_a = 16 + 16;
    for (int i = 0; i < 5000; i++) {                    /* values of 1..16 bytes */
        wmap_put(m, &i, 4, "vvvvvvvvvvvvvvvv", (size_t)(i % 16 + 1));
        exact_a += 4 + i % 16 + 1;
        if (i < 700) wlist_add(l, "xyz", 3), exact_a += 3;
    }
    char kb[16] = "b";
    wstate_set_key(b, kb, 16);
    wmap_put(m, "k", 1, "v", 1);                        /* 16 + 2 */
    for (int budget_each = 1; budget_each <= 64; budget_each *= 8) {
        ScanSum sum = {0};
        WStateScanCursor cur = {0, 0};
        int steps = 0;
        bool done = false;
        while (!done && steps < 1000) {
            int64_t budget = budget_each;
            done = wstate_scan_key_bytes(b, &cur, &budget, scan_sum, &sum);
            CHECK(budget >= -64);                       /* a sample of at most 64 past the budget */
            steps++;
        }
        CHECK(done);
        CHECK_INT(sum.calls, 1 + 1 + 1);                /* a and b in m, a in l */
        CHECK_INT(sum.bytes_b, 18);
        CHECK(sum.bytes_a > exact_a * 9 / 10 && sum.bytes_a < exact_a * 11 / 10);
        CHECK(sum.bytes_a != exact_a);                  /* sampled, not walked */
    }
    ScanSum sum = {0};
    WStateScanCursor cur = {0, 0};
    int64_t budget = 1 << 20;
    CHECK(wstate_scan_key_bytes(b, &cur, &budget, scan_sum, &sum));
    CHECK_INT(sum.bytes_a, exact_a);
    wstate_backend_free(b);
}

/* Values that grow and shrink through every size the backend stores them at (inline in their
   entry up to a class of 1 KiB, the wide classes to 32 KiB, malloc'd beyond) keep their bytes,
   for many keys at once (blocks handed back to a class are handed out again) and after the
   backend's release (ASan: nothing leaks, nothing is freed twice). */
WTEST(state_value_sizes_across_pool_classes)
{
    FakeClock clk = {1000};
    WStateBackend *b = backend(&clk);
    WState *s = wstate_register(b, "rankState", WSTATE_VALUE, 0);
    enum { KEYS = 24, MAXLEN = 70000 };
    static unsigned char buf[MAXLEN];
    size_t lens[] = {1, 100, 1000, 1025, 1300, 2049, 5000, 16385, 32767, 32768, 32769, 65536, 70000, 3000, 8, 0};
    for (size_t round = 0; round < sizeof lens / sizeof lens[0]; round++) {
        for (int k = 0; k < KEYS; k++) {
            int64_t key = k;
            wstate_set_key(b, &key, sizeof key);
            size_t n = lens[(round + (size_t)k) % (sizeof lens / sizeof lens[0])];
            for (size_t i = 0; i < n; i++) buf[i] = (unsigned char)(i * 31 + (size_t)k + round);
            wvalue_put(s, buf, n);
        }
        for (int k = 0; k < KEYS; k++) {
            int64_t key = k;
            wstate_set_key(b, &key, sizeof key);
            size_t n = lens[(round + (size_t)k) % (sizeof lens / sizeof lens[0])];
            WBytes v;
            CHECK_INT(wvalue_get(s, &v), WSL_FOUND);
            CHECK_INT((long long)v.len, (long long)n);
            bool same = true;
            for (size_t i = 0; i < n; i++) same &= ((const unsigned char *)v.p)[i] == (unsigned char)(i * 31 + (size_t)k + round);
            CHECK(same);
        }
    }
    wstate_backend_free(b);
}
