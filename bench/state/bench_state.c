/*
 * bench_state.c — keyed-state backends under a group-aggregation-like load, and snapshots.
 *
 * For each key count (1K, 100K, 10M by default) and backend (hashmap, rocksdb): `rows` records
 * with uniformly random keys; per record what GroupAggregate does with its state: set the key (a
 * 16-byte binary row of one BIGINT), read the accumulator (value state, 24 bytes), update it,
 * write it back. Reports rows/s (wall and CPU) and the heap/rocksdb ratio. After the largest key
 * count it takes snapshots of the state: full on both backends, and incremental on RocksDB (a
 * first one, then one after 1% of the keys changed), with sizes and durations, and restores.
 *
 * Usage: bench_state [--keys 1000,100000,10000000] [--rows N] [--dir /tmp] [--write-cache N]
 *        [--access ref|get-put] [--hashmap-only] [--no-snapshot]   (--write-cache: RocksDB write-cache entries per
 *        state, 0 = off; --access: the get-for-update ref, one lookup per record, as GroupAggregate
 *        does (default), or wvalue_get then wvalue_put)
 * Built by bench/state/run against src/common and src/state only.
 */
#include "../../src/state/state.h"
#include "../../src/state/snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

static uint64_t rng(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    return *s = x;
}

static int64_t write_cache;     /* --write-cache: entries per state, 0 = default, -1 = off */
static bool get_put;            /* --access get-put */
static bool heap_only;          /* --hashmap-only (no snapshots either) */

static WStateBackend *mk(WStateBackendType t, const char *dir)
{
    WStateBackendConfig cfg = {.operator_name = "GroupAggregate[2]", .max_parallelism = 128};
    if (t == WSTATE_BACKEND_HASHMAP) return wstate_heap_new(&cfg);
    WRocksDBConfig rc = {.local_dir = dir, .write_cache_entries = write_cache};
    WError err = {0};
    WStateBackend *b = wstate_rocksdb_new(&cfg, &rc, &err);
    if (!b) { fprintf(stderr, "%s\n", err.msg); exit(1); }
    return b;
}

typedef struct { double rows_s, cpu_rows_s, secs; } Run;

/* `rows` records over `keys` keys; the accumulator is (count, sum, max) as 3 x int64. */
static Run aggregate(WStateBackend *b, int64_t keys, int64_t rows, uint64_t seed, int64_t key_mod)
{
    WState *s = wstate_register(b, "groupAggregateState", WSTATE_VALUE, 0);
    unsigned char key[16] = {0};
    uint64_t r = seed;
    double t0 = wall(), c0 = cpu();
    for (int64_t i = 0; i < rows; i++) {
        int64_t k = (int64_t)(rng(&r) % (uint64_t)keys);
        if (key_mod) k = k / key_mod * key_mod;     /* only every key_mod-th key */
        memcpy(key + 8, &k, 8);
        wstate_set_key(b, key, 16);
        if (get_put) {
            WBytes v;
            int64_t acc[3] = {0, 0, INT64_MIN};
            if (wvalue_get(s, &v) == WSL_FOUND && v.len == sizeof acc) memcpy(acc, v.p, sizeof acc);
            acc[0]++;
            acc[1] += (int64_t)i;
            if ((int64_t)i > acc[2]) acc[2] = (int64_t)i;
            wvalue_put(s, acc, sizeof acc);
            continue;
        }
        WValueRef ref;
        bool found = wvalue_ref(s, &ref) == WSL_FOUND && ref.cur.len == 3 * sizeof(int64_t);
        int64_t *acc = wvalue_ref_reserve(&ref, 3 * sizeof(int64_t));    /* updated in place */
        if (!found) { acc[0] = 0; acc[1] = 0; acc[2] = INT64_MIN; }
        acc[0]++;
        acc[1] += (int64_t)i;
        if ((int64_t)i > acc[2]) acc[2] = (int64_t)i;
        wvalue_ref_commit(&ref);
    }
    double dt = wall() - t0, dc = cpu() - c0;
    return (Run){rows / dt, rows / dc, dt};
}

static void report_snapshot(const char *what, const WSnapshotStats *st)
{
    printf("  %-34s %8.1f MB total, %8.1f MB written, %4d/%4d files, %8.2f s\n", what,
           st->state_bytes / 1048576.0, st->written_bytes / 1048576.0, st->files_written, st->files,
           st->duration_us / 1e6);
}

int main(int argc, char **argv)
{
    int64_t keyset[8] = {1000, 100000, 10000000};
    int nkeys = 3;
    int64_t rows_opt = 0;
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    bool snap = true;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--keys") && i + 1 < argc) {
            nkeys = 0;
            for (char *p = strtok(argv[++i], ","); p && nkeys < 8; p = strtok(NULL, ",")) keyset[nkeys++] = atoll(p);
        } else if (!strcmp(argv[i], "--rows") && i + 1 < argc) {
            rows_opt = atoll(argv[++i]);
        } else if (!strcmp(argv[i], "--dir") && i + 1 < argc) {
            base = argv[++i];
        } else if (!strcmp(argv[i], "--write-cache") && i + 1 < argc) {
            write_cache = atoll(argv[++i]);
            if (write_cache == 0) write_cache = -1;
        } else if (!strcmp(argv[i], "--access") && i + 1 < argc) {
            const char *a = argv[++i];
            if (strcmp(a, "ref") && strcmp(a, "get-put")) { fprintf(stderr, "--access: ref or get-put, not %s\n", a); return 2; }
            get_put = !strcmp(a, "get-put");
        } else if (!strcmp(argv[i], "--hashmap-only")) {
            heap_only = true;
            snap = false;
        } else if (!strcmp(argv[i], "--no-snapshot")) {
            snap = false;
        } else {
            fprintf(stderr, "usage: %s [--keys a,b,c] [--rows N] [--dir D] [--write-cache N] [--access ref|get-put] [--hashmap-only] [--no-snapshot]\n", argv[0]);
            return 2;
        }
    }
    char root[4096];
    snprintf(root, sizeof root, "%s/weir-bench-state-XXXXXX", base);
    if (!mkdtemp(root)) { perror(root); return 1; }
    printf("keyed state, group-aggregation-like (%s of a 24-byte accumulator per row, 16-byte keys)\n",
           get_put ? "get + put" : "get-for-update ref, updated in place,");
    printf("%10s %10s | %14s %14s | %14s %14s | %6s %6s\n", "keys", "rows", "hashmap rows/s", "(cpu rows/s)",
           "rocksdb rows/s", "(cpu rows/s)", "ratio", "(cpu)");
    WStateBackend *last[2] = {NULL, NULL};
    for (int k = 0; k < nkeys; k++) {
        int64_t keys = keyset[k];
        int64_t rows = rows_opt ? rows_opt : keys * 2 > 5000000 ? keys * 2 : 5000000;
        Run r[2];
        for (int t = 0; t < (heap_only ? 1 : 2); t++) {
            WStateBackend *b = mk(t ? WSTATE_BACKEND_ROCKSDB : WSTATE_BACKEND_HASHMAP, root);
            r[t] = aggregate(b, keys, rows, 0x9e3779b97f4a7c15ULL, 0);
            if (k == nkeys - 1 && snap) last[t] = b;
            else wstate_backend_free(b);
        }
        if (heap_only) {
            printf("%10lld %10lld | %14.0f %14.0f |\n", (long long)keys, (long long)rows, r[0].rows_s, r[0].cpu_rows_s);
            fflush(stdout);
            continue;
        }
        printf("%10lld %10lld | %14.0f %14.0f | %14.0f %14.0f | %5.2fx %5.2fx\n", (long long)keys, (long long)rows,
               r[0].rows_s, r[0].cpu_rows_s, r[1].rows_s, r[1].cpu_rows_s, r[0].rows_s / r[1].rows_s,
               r[0].cpu_rows_s / r[1].cpu_rows_s);
        fflush(stdout);
    }
    if (!snap) { wsnap_rmtree(root); return 0; }
    int64_t keys = keyset[nkeys - 1];
    printf("\nsnapshots of %lld keys\n", (long long)keys);
    WError err = {0};
    char *shared = wsnap_join(root, "shared");
    const char *names[2] = {"hashmap", "rocksdb"};
    for (int t = 0; t < 2; t++) {
        char label[64], *dir;
        WSnapshotStats st;
        snprintf(label, sizeof label, "%s full", names[t]);
        dir = wsnap_join(root, t ? "rocksdb-full" : "heap-full");
        if (!wstate_snapshot(last[t], dir, NULL, &st, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
        report_snapshot(label, &st);
        /* restore the full snapshot into a fresh backend of the same kind */
        WStateBackend *r = mk(t ? WSTATE_BACKEND_ROCKSDB : WSTATE_BACKEND_HASHMAP, root);
        const char *dirs[1] = {dir};
        double t0 = wall();
        if (!wstate_restore(r, dirs, 1, 0, 127, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
        printf("  %-34s %8.2f s\n", t ? "rocksdb restore (full)" : "hashmap restore (full)", wall() - t0);
        wstate_backend_free(r);
        wsnap_rmtree(dir);
        free(dir);
    }
    WSnapshotStats s1, s2;
    char *c1 = wsnap_join(root, "chk-1"), *c2 = wsnap_join(root, "chk-2");
    if (!wstate_snapshot(last[1], c1, shared, &s1, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
    report_snapshot("rocksdb incremental #1", &s1);
    /* 1% of the keys change */
    aggregate(last[1], keys, keys / 100, 12345, 0);
    if (!wstate_snapshot(last[1], c2, shared, &s2, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
    report_snapshot("rocksdb incremental #2 (1% changed)", &s2);
    WStateBackend *r = mk(WSTATE_BACKEND_ROCKSDB, root);
    const char *dirs[1] = {c2};
    double t0 = wall();
    if (!wstate_restore(r, dirs, 1, 0, 127, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
    printf("  %-34s %8.2f s\n", "rocksdb restore (incremental #2)", wall() - t0);
    wstate_backend_free(r);
    wstate_backend_free(last[0]);
    wstate_backend_free(last[1]);
    wsnap_rmtree(root);
    free(shared);
    free(c1);
    free(c2);
    return 0;
}
