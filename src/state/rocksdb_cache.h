/*
 * rocksdb_cache.h — the bounded write-back cache one RocksDB state keeps in front of its column
 * family (private to src/state/).
 *
 * A hash table of RocksDB entries by composite key: the raw value (8-byte timestamp + bytes, as
 * stored in RocksDB) or "known absent", a dirty flag (newer than RocksDB: a put, or a delete when
 * absent) and a reference bit for CLOCK eviction. The cache knows nothing of RocksDB: the backend
 * (rocksdb_backend.c) writes the dirty entries (wrc_dirty_at) in one WriteBatch, calls
 * wrc_clean_all, and evicts clean entries with wrc_evict. Entry pointers stay valid until the next
 * insert, remove or evict; value bytes until the entry's value is set again or it is removed.
 * Keys begin with their 2-byte key group, a function of the rest; they are hashed without it
 * (wrc_hash), so that a value or list state's entry is filed under its key's wstate_key_hash,
 * which callers often have already. Depends on common/ and state.h's key hash.
 */
#ifndef WEIR_STATE_ROCKSDB_CACHE_H
#define WEIR_STATE_ROCKSDB_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { WRC_PRESENT = 1, WRC_DIRTY = 2, WRC_REF = 4 };

typedef struct WRcEntry {
    uint64_t hash;
    unsigned char *buf;         /* key bytes, then value bytes */
    uint32_t klen, vlen, cap;
    uint32_t dirty_pos;         /* index in the dirty list when WRC_DIRTY */
    uint8_t flags;
} WRcEntry;

typedef struct WRcache {
    size_t max;                 /* entries kept after an eviction; 0 = cache off */
    WRcEntry *e;
    uint32_t n, ecap;
    uint32_t *slots;            /* entry index + 1, 0 = empty; linear probing */
    size_t nslots;
    uint32_t *dirty;            /* indices of dirty entries */
    uint32_t ndirty, dcap;
    uint32_t hand;              /* CLOCK hand */
    uint64_t gen;               /* ++ whenever entries move (insert, remove, evict, clear) */
    int64_t hits, misses, evicted, written;
} WRcache;

void wrc_init(WRcache *c, size_t max_entries);
void wrc_free(WRcache *c);
static inline bool wrc_on(const WRcache *c) { return c->max > 0; }
static inline const unsigned char *wrc_key(const WRcEntry *e) { return e->buf; }
static inline unsigned char *wrc_value(const WRcEntry *e) { return e->buf + e->klen; }

/* The entry of key k, or NULL. Sets the reference bit. */
WRcEntry *wrc_find(WRcache *c, const void *k, size_t kl);
/* The same for k whose wrc_hash is h. wrc_hash: of k's bytes after its key group (at least 2
   bytes), whash_bytes with WSTATE_KEY_SEED. */
uint64_t wrc_hash(const void *k, size_t kl);
WRcEntry *wrc_find_hashed(WRcache *c, const void *k, size_t kl, uint64_t h);
/* Read-ahead of the lookup of a key whose wrc_hash is h, in three stages issued in this order
   some lookups apart, each reading what the one before brought in: WRC_AHEAD_SLOT (the table slot
   its probe starts at), _ENTRY (the entry that slot names), _KEY (that entry's key bytes). Changes
   nothing. */
typedef enum WRcAhead { WRC_AHEAD_SLOT, WRC_AHEAD_ENTRY, WRC_AHEAD_KEY } WRcAhead;
void wrc_prefetch(const WRcache *c, uint64_t h, WRcAhead stage);
/* The same without touching the reference bit or the hit counts (a reader that is not a use:
   insight's walk of the keys). */
const WRcEntry *wrc_peek(const WRcache *c, const void *k, size_t kl);
/* Add k (not in the cache; h = its wrc_hash) with value v (present) or as known absent (v NULL);
   clean. */
WRcEntry *wrc_insert(WRcache *c, const void *k, size_t kl, uint64_t h, const void *v, size_t vl);
/* Replace e's value (v NULL: absent) and mark it dirty. */
void wrc_set(WRcache *c, WRcEntry *e, const void *v, size_t vl);
/* Make room for vl value bytes (contents kept) and mark e dirty and present; returns the value. */
unsigned char *wrc_reserve(WRcache *c, WRcEntry *e, size_t vl);
void wrc_mark_dirty(WRcache *c, WRcEntry *e);
void wrc_remove(WRcache *c, WRcEntry *e);
/* Dirty entries: wrc_dirty_at(c, 0 .. c->ndirty - 1); wrc_clean_all clears every dirty flag. */
static inline WRcEntry *wrc_dirty_at(const WRcache *c, uint32_t i) { return &c->e[c->dirty[i]]; }
void wrc_clean_all(WRcache *c);
/* Remove clean entries not referenced since the last sweep until at most `target` remain (dirty
   entries are skipped; write them first). */
void wrc_evict(WRcache *c, size_t target);
/* Drop every entry (dirty ones too). */
void wrc_clear(WRcache *c);

#endif
