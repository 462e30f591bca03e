/*
 * rocksdb_internal.h — private to the RocksDB backend's files (rocksdb_backend.c, rocksdb_options.c):
 * the backend and per-state structures, their limits, the TTL and list-body helpers both need,
 * and the RocksDB options with the callbacks RocksDB calls (TTL compaction filter, list merge
 * operator, whole-key prefix extractor).
 */
#ifndef WEIR_STATE_ROCKSDB_INTERNAL_H
#define WEIR_STATE_ROCKSDB_INTERNAL_H

#include "backend_internal.h"
#include "rocksdb_cache.h"
#include "../common/arena.h"

#include <pthread.h>
#include <rocksdb/c.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define RING 64                         /* read results kept before the oldest is freed */
#define DEFAULT_CACHE (256LL << 20)
#define DEFAULT_WRITE_BUFFER (64LL << 20)
#define MAX_HASH_BUCKETS 262144         /* hashed memtable of value/list states: <= 2 MB each */
#define DEFAULT_WRITE_CACHE 100000      /* entries per state when write_cache_entries is 0 */
#define READ_SLACK 64                   /* entries reads may add beyond the bound (writes evict) */
#define MAX_CACHED_VALUE 65536          /* larger values bypass the write cache */

struct WRdbState {
    WRdb *r;
    WState *s;
    char *name;
    WStateKind kind;
    int64_t ttl;                        /* main thread */
    _Atomic int64_t ttl_shared;         /* compaction filter / merge operator threads */
    rocksdb_column_family_handle_t *cf;
    rocksdb_compactionfilter_t *filter;
    void *ring[RING];                   /* read results, freed on the next write */
    int nring, ring_head;
    /* existence of the current key (value state) or of known_uk (map) from the last access */
    uint64_t known_epoch;
    bool known_found;
    size_t known_vlen;
    unsigned char *known_uk;
    size_t known_uklen, known_ukcap;
    /* user iteration */
    rocksdb_iterator_t *it;
    rocksdb_readoptions_t *itro;
    unsigned char *ub;
    size_t ubcap, it_prefix;
    bool it_started;
    /* insight's walk of keys by state bytes (wrdb_scan_key_bytes): the last RocksDB key visited,
       then the write-back cache's entries by index */
    unsigned char *scan_key;
    size_t scan_len, scan_cap;
    bool scan_in_cache;
    uint32_t scan_idx;
    int64_t entries, bytes, expired_reads;
    _Atomic int64_t dropped_entries, dropped_bytes;
    WRcache cache;                      /* write-back cache (rocksdb_cache.h) */
    uint64_t memo_epoch, memo_gen;      /* the current key's entry (value/list) was memo_idx */
    uint32_t memo_idx;
};

struct WRdb {
    WStateBackend *b;
    char *root, *dbdir;
    rocksdb_t *db;
    rocksdb_options_t *opts;
    rocksdb_cache_t *cache;
    rocksdb_writeoptions_t *wo;
    rocksdb_readoptions_t *ro;
    rocksdb_writebatch_t *batch;        /* dirty cache entries are written through it */
    int64_t cache_entries;              /* per state; 0 = no write cache */
    WRcEntry **sorted;                  /* dirty entries in key order, for the batch */
    uint32_t sortcap;
    unsigned char *lkeys;               /* wrdb_value_load: the composite keys read in one MultiGet */
    size_t lkcap;
    const char **lptr;                  /* ... their addresses, sizes, values and errors */
    size_t *lsize;
    rocksdb_pinnableslice_t **lval;
    char **lerr;
    uint64_t *lhash;
    int lcap;
    rocksdb_column_family_handle_t *default_cf;
    int nstates, capstates;
    WRdbState **states;
    int maxp;
    int64_t write_buffer;
    unsigned char *vkey;                /* kg + key */
    size_t vkcap, vklen;
    uint64_t vhash, vhash_epoch;        /* its wrc_hash (the key's wstate_key_hash), valid when
                                           vhash_epoch == epoch (cur_hash) */
    unsigned char *mkey;                /* kg + klen + key (+ user key) */
    size_t mkcap, mprefix;
    uint64_t mepoch;                    /* epoch mkey was built for */
    unsigned char *vbuf;                /* value / composite scratch */
    size_t vbcap;
    unsigned char *rbuf;                /* restore scratch */
    size_t rbcap;
    uint64_t epoch;                     /* ++ per set_key (and restore) */
    pthread_t perf_thread;              /* thread whose RocksDB perf counting is off */
    bool perf_set;
    _Atomic int64_t now;                /* last clock reading, for the compaction filter */
    bool failed;
    char errmsg[600];
    uint64_t uid;
    int64_t seq;
    char *shared_dir;                   /* uploaded SSTs of incremental snapshots */
    WRdbUploaded *up;
    int nup, capup;
};

static inline bool expired_at(int64_t ttl, int64_t ts, int64_t now) { return ttl > 0 && now - ts >= ttl; }

/* Items of a list body; -1 when malformed. */
static inline int list_count(const unsigned char *p, size_t n, size_t *item_bytes)
{
    int c = 0;
    size_t off = 0, bytes = 0;
    while (off < n) {
        if (n - off < 4) return -1;
        uint32_t l = wbe_get32(p + off);
        if (l > n - off - 4) return -1;
        off += 4 + l;
        bytes += l;
        c++;
    }
    if (item_bytes) *item_bytes = bytes;
    return c;
}

/* rocksdb_options.c: the database-wide options (block cache, bloom filter, write buffers; hashed:
   in-place updates for the hashed memtables of value/list states) and a column family's options
   for a state kind: st is the WRdbState the callbacks see (NULL for a read-only open, which
   needs the merge operator only); *filter receives the compaction filter to destroy after the DB
   closes. */
rocksdb_options_t *wrdb_base_options(rocksdb_cache_t *cache, int64_t write_buffer, bool hashed);
rocksdb_options_t *wrdb_cf_options(rocksdb_options_t *base, WStateKind kind, void *st,
                                   rocksdb_compactionfilter_t **filter, int64_t write_buffer, bool hashed);

#endif
