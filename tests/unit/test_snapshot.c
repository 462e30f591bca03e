/* test_snapshot.c — keyed-state snapshots: full round trips on both backends and across them,
   key-group subsets (rescaling), several snapshots into one backend, RocksDB incremental
   snapshots with shared SST files and their clean-up, corruption and truncation refused with
   nothing restored, timer snapshots, CRC32C. */
#include "unit.h"
#include "../../src/state/state.h"
#include "../../src/state/snapshot.h"
#include "../../src/state/timers.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct { int64_t now; } Clock;
static int64_t clock_now(void *c) { return ((Clock *)c)->now; }

typedef struct Fx {
    char root[64];              /* scratch for snapshots and RocksDB files */
    Clock clk;
} Fx;

static void fx_init(Fx *f)
{
    snprintf(f->root, sizeof f->root, "/tmp/weir-test-snap-XXXXXX");
    if (!mkdtemp(f->root)) f->root[0] = 0;
    f->clk.now = 1000;
}

static void fx_done(Fx *f) { wsnap_rmtree(f->root); }

static char *fx_path(Fx *f, const char *name) { return wsnap_join(f->root, name); }

static WStateBackend *mk(Fx *f, WStateBackendType t, int maxp)
{
    WStateBackendConfig cfg = {.operator_name = "GroupAggregate[2]", .max_parallelism = maxp,
                               .clock = clock_now, .clock_ctx = &f->clk};
    if (t == WSTATE_BACKEND_HASHMAP) return wstate_heap_new(&cfg);
    char *d = fx_path(f, "rocks");
    WRocksDBConfig rc = {.local_dir = d, .block_cache_bytes = 8 << 20, .write_buffer_bytes = 1 << 20};
    WError err = {0};
    WStateBackend *b = wstate_rocksdb_new(&cfg, &rc, &err);
    free(d);
    return b;
}

/* keys 0..n-1 (8 bytes): value state "v" = key*3, map "m" with 2 entries, list "l" with
   1 + key % 3 items; "t" a value state with TTL 500 written at the current time */
static void fill(WStateBackend *b, int from, int to)
{
    WState *v = wstate_register(b, "v", WSTATE_VALUE, 0);
    WState *m = wstate_register(b, "m", WSTATE_MAP, 0);
    WState *l = wstate_register(b, "l", WSTATE_LIST, 0);
    WState *t = wstate_register(b, "t", WSTATE_VALUE, 500);
    for (int64_t k = from; k < to; k++) {
        wstate_set_key(b, &k, 8);
        int64_t x = k * 3;
        wvalue_put(v, &x, 8);
        wmap_put(m, "a", 1, &k, 8);
        wmap_put(m, "bb", 2, "z", 1);
        for (int i = 0; i <= k % 3; i++) wlist_add(l, &i, sizeof i);
        wvalue_put(t, "t", 1);
    }
}

/* Number of keys in [from, to) whose state is complete and right; keys outside kg range must
   be absent. */
static int verify(WStateBackend *b, int from, int to, int kg_first, int kg_last, int *wrong)
{
    WState *v = wstate_register(b, "v", WSTATE_VALUE, 0);
    WState *m = wstate_register(b, "m", WSTATE_MAP, 0);
    WState *l = wstate_register(b, "l", WSTATE_LIST, 0);
    int ok = 0;
    *wrong = 0;
    for (int64_t k = from; k < to; k++) {
        wstate_set_key(b, &k, 8);
        int kg = wstate_current_key_group(b);
        bool in = kg >= kg_first && kg <= kg_last;
        WBytes x, y;
        const WBytes *items;
        WStateLookup hv = wvalue_get(v, &x);
        WStateLookup hm = wmap_get(m, "a", 1, &y);
        int n = wlist_get(l, &items, NULL);
        if (!in) {
            if (hv != WSL_ABSENT || hm != WSL_ABSENT || n != 0 || !wmap_is_empty(m)) (*wrong)++;
            continue;
        }
        int64_t want = k * 3;
        bool good = hv == WSL_FOUND && x.len == 8 && memcmp(x.p, &want, 8) == 0 && hm == WSL_FOUND &&
                    y.len == 8 && memcmp(y.p, &k, 8) == 0 && wmap_size(m) == 2 && n == 1 + k % 3;
        for (int i = 0; good && i < n; i++) good = items[i].len == sizeof(int) && memcmp(items[i].p, &i, sizeof i) == 0;
        if (good) ok++;
        else (*wrong)++;
    }
    return ok;
}

static int in_range(int from, int to, int kg_first, int kg_last, int maxp)
{
    int n = 0;
    for (int64_t k = from; k < to; k++) {
        int kg = wstate_key_group_of(&k, 8, maxp);
        n += kg >= kg_first && kg <= kg_last;
    }
    return n;
}

static const WStateBackendType TYPES[2] = {WSTATE_BACKEND_HASHMAP, WSTATE_BACKEND_ROCKSDB};

WTEST(snapshot_crc32c)
{
    CHECK_INT(wsnap_crc32c(0, "123456789", 9), 0xE3069283u);
    uint32_t c = wsnap_crc32c(0, "1234", 4);
    CHECK_INT(wsnap_crc32c(c, "56789", 5), 0xE3069283u);
    CHECK_INT(wsnap_crc32c(0, "", 0), 0);
}

WTEST(snapshot_full_round_trip_all_backend_pairs)
{
    for (int a = 0; a < 2; a++)
        for (int c = 0; c < 2; c++) {
            Fx f;
            fx_init(&f);
            WStateBackend *src = mk(&f, TYPES[a], 128);
            fill(src, 0, 2000);
            char *dir = fx_path(&f, "chk-1");
            WSnapshotStats st;
            WError err = {0};
            CHECK(wstate_snapshot(src, dir, NULL, &st, &err));
            if (err.set) fprintf(stderr, "%s\n", err.msg);
            CHECK(!st.incremental);
            CHECK_INT(st.files, 4);
            CHECK(st.state_bytes > 0 && st.written_bytes == st.state_bytes);
            CHECK_INT(st.entries, 2000 + 4000 + 2000 + 2000);
            WStateBackend *dst = mk(&f, TYPES[c], 128);
            const char *dirs[1] = {dir};
            CHECK(wstate_restore(dst, dirs, 1, 0, 127, &err));
            int wrong;
            CHECK_INT(verify(dst, 0, 2000, 0, 127, &wrong), 2000);
            CHECK_INT(wrong, 0);
            /* the same bytes: stats of value states agree */
            WStateStats s1[4], s2[4];
            CHECK_INT(wstate_stats(src, s1, 4), 4);
            CHECK_INT(wstate_stats(dst, s2, 4), 4);
            CHECK_INT(s2[0].entries, s1[0].entries);
            CHECK_INT(s2[0].bytes, s1[0].bytes);
            /* TTL timestamps survive: "t" written at 1000 with TTL 500 expires at 1500 */
            WState *t = wstate_register(dst, "t", WSTATE_VALUE, 500);
            int64_t k = 5;
            wstate_set_key(dst, &k, 8);
            WBytes x;
            f.clk.now = 1499;
            CHECK_INT(wvalue_get(t, &x), WSL_FOUND);
            f.clk.now = 1500;
            CHECK_INT(wvalue_get(t, &x), WSL_EXPIRED);
            wstate_backend_free(src);
            wstate_backend_free(dst);
            free(dir);
            fx_done(&f);
        }
}

WTEST(snapshot_full_leaves_out_expired_entries)
{
    for (int a = 0; a < 2; a++) {
        Fx f;
        fx_init(&f);
        WStateBackend *src = mk(&f, TYPES[a], 128);
        fill(src, 0, 100);
        f.clk.now = 2000;                                   /* "t" expired for all keys */
        char *dir = fx_path(&f, "chk");
        WSnapshotStats st;
        WError err = {0};
        CHECK(wstate_snapshot(src, dir, NULL, &st, &err));
        CHECK_INT(st.entries, 100 + 200 + 100);
        wstate_backend_free(src);
        free(dir);
        fx_done(&f);
    }
}

WTEST(snapshot_restore_key_group_subsets_rescale)
{
    for (int a = 0; a < 2; a++)
        for (int c = 0; c < 2; c++) {
            Fx f;
            fx_init(&f);
            WStateBackend *src = mk(&f, TYPES[a], 128);
            fill(src, 0, 1000);
            char *dir = fx_path(&f, "chk");
            WError err = {0};
            CHECK(wstate_snapshot(src, dir, NULL, NULL, &err));
            const char *dirs[1] = {dir};
            /* parallelism 1 -> 2: each half restores its own key groups */
            WStateBackend *lo = mk(&f, TYPES[c], 128), *hi = mk(&f, TYPES[c], 128);
            CHECK(wstate_restore(lo, dirs, 1, 0, 63, &err));
            CHECK(wstate_restore(hi, dirs, 1, 64, 127, &err));
            int w1, w2;
            int n1 = verify(lo, 0, 1000, 0, 63, &w1), n2 = verify(hi, 0, 1000, 64, 127, &w2);
            CHECK_INT(n1, in_range(0, 1000, 0, 63, 128));
            CHECK_INT(n2, in_range(0, 1000, 64, 127, 128));
            CHECK_INT(n1 + n2, 1000);
            CHECK_INT(w1 + w2, 0);
            /* 2 -> 1: both halves' snapshots into one backend */
            char *d1 = fx_path(&f, "lo"), *d2 = fx_path(&f, "hi");
            CHECK(wstate_snapshot(lo, d1, NULL, NULL, &err));
            CHECK(wstate_snapshot(hi, d2, NULL, NULL, &err));
            WStateBackend *one = mk(&f, TYPES[a], 128);
            const char *both[2] = {d1, d2};
            CHECK(wstate_restore(one, both, 2, 0, 127, &err));
            int w;
            CHECK_INT(verify(one, 0, 1000, 0, 127, &w), 1000);
            CHECK_INT(w, 0);
            wstate_backend_free(src);
            wstate_backend_free(lo);
            wstate_backend_free(hi);
            wstate_backend_free(one);
            free(dir);
            free(d1);
            free(d2);
            fx_done(&f);
        }
}

static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

WTEST(snapshot_rocksdb_incremental_shares_sst_files)
{
    Fx f;
    fx_init(&f);
    WStateBackend *b = mk(&f, WSTATE_BACKEND_ROCKSDB, 128);
    char *shared = fx_path(&f, "shared"), *c1 = fx_path(&f, "chk-1"), *c2 = fx_path(&f, "chk-2"),
         *c3 = fx_path(&f, "chk-3");
    fill(b, 0, 3000);
    WSnapshotStats s1, s2, s3;
    WError err = {0};
    CHECK(wstate_snapshot(b, c1, shared, &s1, &err));
    if (err.set) fprintf(stderr, "%s\n", err.msg);
    CHECK(s1.incremental);
    CHECK(s1.files_written == s1.files && s1.written_bytes == s1.state_bytes);
    int shared1 = count_files(shared);
    CHECK(shared1 >= 1);
    fill(b, 3000, 3100);                            /* a little more state */
    CHECK(wstate_snapshot(b, c2, shared, &s2, &err));
    CHECK(s2.files > s2.files_written);             /* earlier SST files are referenced */
    CHECK(s2.written_bytes < s2.state_bytes);
    CHECK(s2.written_bytes < s1.written_bytes);
    CHECK(count_files(shared) > shared1);
    /* restore the second into both backends, whole and by halves */
    for (int c = 0; c < 2; c++) {
        WStateBackend *r = mk(&f, TYPES[c], 128);
        const char *dirs[1] = {c2};
        CHECK(wstate_restore(r, dirs, 1, 0, 127, &err));
        if (err.set) fprintf(stderr, "%s\n", err.msg);
        int w;
        CHECK_INT(verify(r, 0, 3100, 0, 127, &w), 3100);
        CHECK_INT(w, 0);
        WStateStats st[4];
        wstate_stats(r, st, 4);
        CHECK_INT(st[0].entries, 3100);
        wstate_backend_free(r);
        WStateBackend *hi = mk(&f, TYPES[c], 128);
        CHECK(wstate_restore(hi, dirs, 1, 64, 127, &err));
        CHECK_INT(verify(hi, 0, 3100, 64, 127, &w), in_range(0, 3100, 64, 127, 128));
        CHECK_INT(w, 0);
        wstate_backend_free(hi);
    }
    /* compaction replaces files; clean-up keeps what retained snapshots use */
    wstate_compact(b);
    CHECK(wstate_snapshot(b, c3, shared, &s3, &err));
    const char *live[1] = {c3};
    CHECK(wstate_snapshot_gc(shared, live, 1, &err));
    WStateBackend *r = mk(&f, WSTATE_BACKEND_HASHMAP, 128);
    const char *dirs3[1] = {c3};
    CHECK(wstate_restore(r, dirs3, 1, 0, 127, &err));
    int w;
    CHECK_INT(verify(r, 0, 3100, 0, 127, &w), 3100);
    wstate_backend_free(r);
    const char *dirs1[1] = {c1};                    /* its files are gone now */
    r = mk(&f, WSTATE_BACKEND_HASHMAP, 128);
    werr_clear(&err);
    CHECK(!wstate_restore(r, dirs1, 1, 0, 127, &err));
    CHECK(strstr(err.msg, "is missing") != NULL);
    wstate_backend_free(r);
    wstate_backend_free(b);
    free(shared); free(c1); free(c2); free(c3);
    fx_done(&f);
}

static void flip_byte(const char *path, long off)
{
    int fd = open(path, O_RDWR);
    struct stat st;
    fstat(fd, &st);
    if (off < 0) off += st.st_size;
    unsigned char c;
    pread(fd, &c, 1, off);
    c ^= 0x40;
    pwrite(fd, &c, 1, off);
    close(fd);
}

static void truncate_by(const char *path, long n)
{
    struct stat st;
    stat(path, &st);
    truncate(path, st.st_size - n);
}

static bool restored_nothing(WStateBackend *b)
{
    WStateStats st[8];
    int n = wstate_stats(b, st, 8);
    for (int i = 0; i < n; i++) if (st[i].entries) return false;
    return true;
}

WTEST(snapshot_corruption_is_refused_and_nothing_restored)
{
    for (int a = 0; a < 2; a++)
        for (int mode = 0; mode < 5; mode++) {
            Fx f;
            fx_init(&f);
            WStateBackend *src = mk(&f, TYPES[a], 128);
            fill(src, 0, 500);
            char *good = fx_path(&f, "good"), *bad = fx_path(&f, "bad");
            WError err = {0};
            CHECK(wstate_snapshot(src, good, NULL, NULL, &err));
            CHECK(wstate_snapshot(src, bad, NULL, NULL, &err));
            char *file = wsnap_join(bad, "state-2.wss");
            char *man = wsnap_join(bad, WSNAP_MANIFEST);
            const char *expect = NULL;
            if (mode == 0) { flip_byte(file, 200); expect = "checksum mismatch"; }
            if (mode == 1) { truncate_by(file, 100); expect = "truncated"; }
            if (mode == 2) { unlink(file); expect = "is missing"; }
            if (mode == 3) { flip_byte(man, 30); expect = "manifest"; }
            if (mode == 4) { unlink(man); expect = "incomplete"; }
            /* the good snapshot first: it must not be applied either */
            WStateBackend *dst = mk(&f, TYPES[1 - a], 128);
            const char *dirs[2] = {good, bad};
            CHECK(!wstate_restore(dst, dirs, 2, 0, 127, &err));
            CHECK(err.set);
            CHECK_STR(err.cls, "java.io.IOException");
            CHECK(strstr(err.msg, expect) != NULL);
            if (mode <= 2) CHECK(strstr(err.msg, file) != NULL);    /* names the file */
            if (!strstr(err.msg, expect)) fprintf(stderr, "mode %d: %s\n", mode, err.msg);
            CHECK(restored_nothing(dst));
            wstate_backend_free(dst);
            free(file);
            free(man);
            free(good);
            free(bad);
            wstate_backend_free(src);
            fx_done(&f);
        }
}

WTEST(snapshot_incremental_corruption_is_refused)
{
    for (int mode = 0; mode < 3; mode++) {
        Fx f;
        fx_init(&f);
        WStateBackend *src = mk(&f, WSTATE_BACKEND_ROCKSDB, 128);
        fill(src, 0, 500);
        char *shared = fx_path(&f, "shared"), *dir = fx_path(&f, "chk-1");
        WError err = {0};
        CHECK(wstate_snapshot(src, dir, shared, NULL, &err));
        DIR *d = opendir(shared);
        struct dirent *e;
        char *sst = NULL;
        while ((e = readdir(d))) if (e->d_name[0] != '.' && !sst) sst = wsnap_join(shared, e->d_name);
        closedir(d);
        if (mode == 0) flip_byte(sst, 100);
        if (mode == 1) truncate_by(sst, 10);
        if (mode == 2) unlink(sst);
        WStateBackend *dst = mk(&f, WSTATE_BACKEND_ROCKSDB, 128);
        const char *dirs[1] = {dir};
        CHECK(!wstate_restore(dst, dirs, 1, 0, 127, &err));
        CHECK(strstr(err.msg, sst) != NULL);
        CHECK(strstr(err.msg, mode == 0 ? "checksum mismatch" : mode == 1 ? "truncated" : "is missing") != NULL);
        CHECK(restored_nothing(dst));
        wstate_backend_free(dst);
        wstate_backend_free(src);
        free(sst);
        free(shared);
        free(dir);
        fx_done(&f);
    }
}

WTEST(snapshot_restore_errors)
{
    Fx f;
    fx_init(&f);
    WStateBackend *src = mk(&f, WSTATE_BACKEND_HASHMAP, 128);
    fill(src, 0, 10);
    char *dir = fx_path(&f, "chk");
    WError err = {0};
    CHECK(wstate_snapshot(src, dir, NULL, NULL, &err));
    /* a snapshot directory that holds something already */
    CHECK(!wstate_snapshot(src, dir, NULL, NULL, &err));
    CHECK(strstr(err.msg, "is not empty") != NULL);
    werr_clear(&err);
    const char *dirs[1] = {dir};
    /* another max parallelism */
    WStateBackend *other = mk(&f, WSTATE_BACKEND_HASHMAP, 256);
    CHECK(!wstate_restore(other, dirs, 1, 0, 255, &err));
    CHECK(strstr(err.msg, "max parallelism 128") != NULL);
    wstate_backend_free(other);
    werr_clear(&err);
    /* a state registered with another kind */
    WStateBackend *dst = mk(&f, WSTATE_BACKEND_ROCKSDB, 128);
    wstate_register(dst, "m", WSTATE_LIST, 0);
    CHECK(!wstate_restore(dst, dirs, 1, 0, 127, &err));
    CHECK_STR(err.cls, "org.apache.flink.util.StateMigrationException");
    CHECK(strstr(err.msg, "'m'") && strstr(err.msg, "GroupAggregate[2]"));
    CHECK(restored_nothing(dst));
    wstate_backend_free(dst);
    werr_clear(&err);
    /* bad key-group range */
    dst = mk(&f, WSTATE_BACKEND_HASHMAP, 128);
    CHECK(!wstate_restore(dst, dirs, 1, 0, 128, &err));
    werr_clear(&err);
    /* restored states adopt the operator's TTL at registration */
    CHECK(wstate_restore(dst, dirs, 1, 0, 127, &err));
    WStateStats st[4];
    wstate_stats(dst, st, 4);
    CHECK_INT(st[3].ttl_ms, 500);
    wstate_register(dst, "t", WSTATE_VALUE, 100);
    wstate_stats(dst, st, 4);
    CHECK_INT(st[3].ttl_ms, 100);
    wstate_backend_free(dst);
    wstate_backend_free(src);
    free(dir);
    fx_done(&f);
}

/* A restored state keeps its entries' write times whatever TTL the operator registers it with:
   "t" (TTL 500, written at 1000) restored and registered without a TTL, snapshotted again, then
   restored with TTL 500 again, still expires its entries at 1500, not at once. */
WTEST(snapshot_restored_state_keeps_write_times)
{
    for (int a = 0; a < 2; a++) {
        Fx f;
        fx_init(&f);
        WError err = {0};
        char *d1 = fx_path(&f, "chk1"), *d2 = fx_path(&f, "chk2");
        const char *dirs1[1] = {d1}, *dirs2[1] = {d2};
        WStateBackend *src = mk(&f, TYPES[a], 128);
        fill(src, 0, 20);
        CHECK(wstate_snapshot(src, d1, NULL, NULL, &err));
        wstate_backend_free(src);
        WStateBackend *mid = mk(&f, TYPES[a], 128);
        CHECK(wstate_restore(mid, dirs1, 1, 0, 127, &err));
        WState *t = wstate_register(mid, "t", WSTATE_VALUE, 0);
        f.clk.now = 1200;
        int64_t k = 3;
        WBytes x;
        wstate_set_key(mid, &k, 8);
        CHECK_INT(wvalue_get(t, &x), WSL_FOUND);
        CHECK(wstate_snapshot(mid, d2, NULL, NULL, &err));
        wstate_backend_free(mid);
        WStateBackend *dst = mk(&f, TYPES[a], 128);
        CHECK(wstate_restore(dst, dirs2, 1, 0, 127, &err));
        t = wstate_register(dst, "t", WSTATE_VALUE, 500);
        f.clk.now = 1400;
        wstate_set_key(dst, &k, 8);
        CHECK_INT(wvalue_get(t, &x), WSL_FOUND);
        f.clk.now = 1600;
        k = 4;
        wstate_set_key(dst, &k, 8);
        CHECK_INT(wvalue_get(t, &x), WSL_EXPIRED);
        wstate_backend_free(dst);
        free(d1);
        free(d2);
        fx_done(&f);
    }
}

typedef struct { int n; int64_t ts[64], ns[64]; int64_t key[64]; } Fired;
static void on_timer(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    Fired *f = ctx;
    if (f->n < 64 && klen == 8) { f->ts[f->n] = ts; f->ns[f->n] = ns; memcpy(&f->key[f->n], key, 8); f->n++; }
}

WTEST(snapshot_timers_round_trip_subset_and_corruption)
{
    Fx f;
    fx_init(&f);
    WTimerService *t = wtimers_new();
    for (int64_t k = 0; k < 40; k++) wtimers_register(t, 100 + (k % 5), &k, 8, k);
    int64_t k0 = 0;
    wtimers_delete(t, 100, &k0, 8, 0);
    char *p = fx_path(&f, "timers.wst");
    WError err = {0};
    CHECK(wtimers_snapshot(t, p, 128, &err));
    const char *paths[1] = {p};
    WTimerService *all = wtimers_new(), *lo = wtimers_new();
    CHECK(wtimers_restore(all, paths, 1, 128, 0, 127, &err));
    CHECK_INT(wtimers_count(all), 39);
    CHECK(wtimers_restore(lo, paths, 1, 128, 0, 63, &err));
    int want = 0;
    for (int64_t k = 1; k < 40; k++) want += wstate_key_group_of(&k, 8, 128) <= 63;
    CHECK_INT(wtimers_count(lo), want);
    Fired a = {0}, b = {0};
    wtimers_advance(t, 1000, on_timer, &a);
    wtimers_advance(all, 1000, on_timer, &b);
    CHECK_INT(a.n, b.n);
    bool same = a.n == b.n;
    for (int i = 0; same && i < a.n; i++) same = a.ts[i] == b.ts[i] && a.key[i] == b.key[i] && a.ns[i] == b.ns[i];
    CHECK(same);                                  /* same firing order, ties included */
    flip_byte(p, 40);
    WTimerService *x = wtimers_new();
    CHECK(!wtimers_restore(x, paths, 1, 128, 0, 127, &err));
    CHECK(strstr(err.msg, p) && strstr(err.msg, "checksum mismatch"));
    CHECK_INT(wtimers_count(x), 0);
    werr_clear(&err);
    truncate_by(p, 3);
    CHECK(!wtimers_restore(x, paths, 1, 128, 0, 127, &err));
    CHECK(strstr(err.msg, "truncated") != NULL);
    wtimers_free(x);
    wtimers_free(t);
    wtimers_free(all);
    wtimers_free(lo);
    free(p);
    fx_done(&f);
}

WTEST(snapshot_restored_state_registered_with_another_kind)
{
    for (int c = 0; c < 2; c++) {
        Fx f;
        fx_init(&f);
        WStateBackend *src = mk(&f, WSTATE_BACKEND_HASHMAP, 128);
        fill(src, 0, 20);
        char *dir = fx_path(&f, "chk");
        WError err = {0};
        CHECK(wstate_snapshot(src, dir, NULL, NULL, &err));
        WStateBackend *dst = mk(&f, TYPES[c], 128);
        const char *dirs[1] = {dir};
        CHECK(wstate_restore(dst, dirs, 1, 0, 127, &err));
        CHECK(!wstate_backend_failed(dst, NULL));
        WState *v = wstate_register(dst, "v", WSTATE_MAP, 0);     /* was a value state */
        CHECK(wstate_backend_failed(dst, &err));
        CHECK_STR(err.cls, "org.apache.flink.util.StateMigrationException");
        CHECK(strstr(err.msg, "'v'") != NULL);
        int64_t k = 1;
        wstate_set_key(dst, &k, 8);                               /* no crash either way */
        WBytes x;
        wmap_put(v, "a", 1, "b", 1);
        wmap_get(v, "a", 1, &x);
        wmap_size(v);
        wstate_backend_free(dst);
        wstate_backend_free(src);
        free(dir);
        fx_done(&f);
    }
}

/* Namespaced keys (key ++ window end): the key group is the key's, so a rescaled restore puts
   every window of a key into the backend that owns the key; timers likewise. */
WTEST(snapshot_namespaced_keys_follow_their_key_group)
{
    for (int a = 0; a < 2; a++) {
        Fx f;
        fx_init(&f);
        WStateBackend *src = mk(&f, TYPES[a], 128);
        wstate_set_namespace_bytes(src, 8);
        WState *s = wstate_register(src, "window-aggs", WSTATE_VALUE, 0);
        WTimerService *tm = wtimers_new();
        wtimers_set_namespace_bytes(tm, 8);
        for (int64_t k = 0; k < 200; k++)
            for (int64_t end = 10; end <= 30; end += 10) {
                int64_t key[2] = {k, end};
                wstate_set_key(src, key, 16);
                CHECK_INT(wstate_current_key_group(src), wstate_key_group_of(&k, 8, 128));
                wvalue_put(s, &end, 8);
                wtimers_register(tm, end - 1, key, 16, end);
            }
        char *dir = fx_path(&f, "chk"), *tf = fx_path(&f, "timers");
        WError err = {0};
        CHECK(wstate_snapshot(src, dir, NULL, NULL, &err));
        CHECK(wtimers_snapshot(tm, tf, 128, &err));
        const char *dirs[1] = {dir};
        const char *tfs[1] = {tf};
        for (int half = 0; half < 2; half++) {
            int lo = half ? 64 : 0, hi = half ? 127 : 63;
            WStateBackend *b = mk(&f, TYPES[a], 128);
            wstate_set_namespace_bytes(b, 8);
            CHECK(wstate_restore(b, dirs, 1, lo, hi, &err));
            WState *r = wstate_register(b, "window-aggs", WSTATE_VALUE, 0);
            WTimerService *rt = wtimers_new();
            wtimers_set_namespace_bytes(rt, 8);
            CHECK(wtimers_restore(rt, tfs, 1, 128, lo, hi, &err));
            int mine = 0, found = 0;
            for (int64_t k = 0; k < 200; k++) {
                int kg = wstate_key_group_of(&k, 8, 128);
                bool owned = kg >= lo && kg <= hi;
                mine += owned;
                for (int64_t end = 10; end <= 30; end += 10) {
                    int64_t key[2] = {k, end};
                    wstate_set_key(b, key, 16);
                    WBytes v;
                    bool has = wvalue_get(r, &v) == WSL_FOUND;
                    CHECK(has == owned);
                    found += has;
                }
            }
            CHECK_INT(found, mine * 3);
            CHECK_INT((int)wtimers_count(rt), mine * 3);
            wtimers_free(rt);
            wstate_backend_free(b);
        }
        wtimers_free(tm);
        wstate_backend_free(src);
        free(dir);
        free(tf);
        fx_done(&f);
    }
}
