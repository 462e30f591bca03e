/*
 * rocksdb_cache.c — the bounded write-back cache of a RocksDB state (see rocksdb_cache.h).
 *
 * Entries live in a dense array (a removed entry's place is taken by the last one); an
 * open-addressing table with linear probing and backward-shift deletion maps keys to them; dirty
 * entries are listed by index so that writing them costs O(dirty). Eviction is CLOCK over the
 * array. Calls common/ only.
 */
#include "rocksdb_cache.h"
#include "../common/arena.h"
#include "../common/check.h"
#include "../common/hash.h"
#include "state.h"

#include <stdlib.h>
#include <string.h>

#define MIN_SLOTS 64

void wrc_init(WRcache *c, size_t max_entries)
{
    memset(c, 0, sizeof *c);
    if (max_entries > (size_t)UINT32_MAX / 4) max_entries = (size_t)UINT32_MAX / 4;
    c->max = max_entries;
}

void wrc_free(WRcache *c)
{
    for (uint32_t i = 0; i < c->n; i++) free(c->e[i].buf);
    free(c->e);
    free(c->slots);
    free(c->dirty);
    size_t max = c->max;
    memset(c, 0, sizeof *c);
    c->max = max;
}

void wrc_clear(WRcache *c)
{
    uint64_t gen = c->gen;
    wrc_free(c);
    c->gen = gen + 1;
}

/* the bytes after the key group (a function of them): for a value or list state's key, its
   wstate_key_hash */
uint64_t wrc_hash(const void *k, size_t kl)
{
    assert(kl >= 2);
    return whash_bytes((const unsigned char *)k + 2, kl - 2, WSTATE_KEY_SEED);
}

static void rehash(WRcache *c, size_t nslots)
{
    free(c->slots);
    c->nslots = nslots;
    c->slots = wmalloc(nslots * sizeof(uint32_t));          /* zeroed by writing (timers.c) */
    memset(c->slots, 0, nslots * sizeof(uint32_t));
    size_t mask = nslots - 1;
    for (uint32_t i = 0; i < c->n; i++) {
        size_t p = (size_t)c->e[i].hash & mask;
        while (c->slots[p]) p = (p + 1) & mask;
        c->slots[p] = i + 1;
    }
}

/* Slot holding entry index i (which must be in the table). */
static size_t slot_of(const WRcache *c, uint32_t i)
{
    size_t mask = c->nslots - 1, p = (size_t)c->e[i].hash & mask;
    while (c->slots[p] != i + 1) p = (p + 1) & mask;
    return p;
}

WRcEntry *wrc_find(WRcache *c, const void *k, size_t kl)
{
    if (!c->n) { c->misses++; return NULL; }
    return wrc_find_hashed(c, k, kl, wrc_hash(k, kl));
}

void wrc_prefetch(const WRcache *c, uint64_t h, WRcAhead stage)
{
    if (!c->n) return;
    const uint32_t *slot = &c->slots[(size_t)h & (c->nslots - 1)];
    if (stage == WRC_AHEAD_SLOT) { __builtin_prefetch(slot); return; }
    if (!*slot) return;
    const WRcEntry *e = &c->e[*slot - 1];
    if (stage == WRC_AHEAD_ENTRY) __builtin_prefetch(e);
    else if (e->hash == h) __builtin_prefetch(e->buf);
}

WRcEntry *wrc_find_hashed(WRcache *c, const void *k, size_t kl, uint64_t h)
{
    WASSERT_COSTLY(h == wrc_hash(k, kl));
    if (!c->n) { c->misses++; return NULL; }
    size_t mask = c->nslots - 1;
    for (size_t p = (size_t)h & mask; c->slots[p]; p = (p + 1) & mask) {
        WRcEntry *e = &c->e[c->slots[p] - 1];
        if (e->hash == h && e->klen == kl && memcmp(e->buf, k, kl) == 0) {
            e->flags |= WRC_REF;
            c->hits++;
            return e;
        }
    }
    c->misses++;
    return NULL;
}

const WRcEntry *wrc_peek(const WRcache *c, const void *k, size_t kl)
{
    if (!c->n) return NULL;
    uint64_t h = wrc_hash(k, kl);
    size_t mask = c->nslots - 1;
    for (size_t p = (size_t)h & mask; c->slots[p]; p = (p + 1) & mask) {
        const WRcEntry *e = &c->e[c->slots[p] - 1];
        if (e->hash == h && e->klen == kl && memcmp(e->buf, k, kl) == 0) return e;
    }
    return NULL;
}

static void ensure(WRcEntry *e, size_t vl)
{
    size_t need = e->klen + vl;
    if (need <= e->cap && e->buf) return;
    size_t cap = need < 32 ? 32 : need + need / 4;
    e->buf = wrealloc(e->buf, cap);
    e->cap = (uint32_t)cap;
}

WRcEntry *wrc_insert(WRcache *c, const void *k, size_t kl, uint64_t h, const void *v, size_t vl)
{
    WASSERT_COSTLY(h == wrc_hash(k, kl));
    if (c->n == c->ecap) {
        c->ecap = c->ecap ? c->ecap * 2 : 64;
        c->e = wrealloc(c->e, sizeof(WRcEntry) * c->ecap);
    }
    if ((size_t)(c->n + 1) * 2 > c->nslots) rehash(c, c->nslots ? c->nslots * 2 : MIN_SLOTS);
    uint32_t i = c->n++;
    c->gen++;
    WRcEntry *e = &c->e[i];
    memset(e, 0, sizeof *e);
    e->hash = h;
    e->klen = (uint32_t)kl;
    ensure(e, v ? vl : 0);
    if (kl) memcpy(e->buf, k, kl);
    if (v) {
        if (vl) memcpy(e->buf + kl, v, vl);
        e->vlen = (uint32_t)vl;
        e->flags = WRC_PRESENT;
    }
    e->flags |= WRC_REF;
    size_t mask = c->nslots - 1, p = (size_t)e->hash & mask;
    while (c->slots[p]) p = (p + 1) & mask;
    c->slots[p] = i + 1;
    return e;
}

void wrc_mark_dirty(WRcache *c, WRcEntry *e)
{
    e->flags |= WRC_REF;
    if (e->flags & WRC_DIRTY) return;
    if (c->ndirty == c->dcap) {
        c->dcap = c->dcap ? c->dcap * 2 : 64;
        c->dirty = wrealloc(c->dirty, sizeof(uint32_t) * c->dcap);
    }
    e->flags |= WRC_DIRTY;
    e->dirty_pos = c->ndirty;
    c->dirty[c->ndirty++] = (uint32_t)(e - c->e);
}

void wrc_set(WRcache *c, WRcEntry *e, const void *v, size_t vl)
{
    if (v) {
        ensure(e, vl);
        if (vl) memmove(e->buf + e->klen, v, vl);
        e->vlen = (uint32_t)vl;
        e->flags |= WRC_PRESENT;
    } else {
        e->vlen = 0;
        e->flags &= (uint8_t)~WRC_PRESENT;
    }
    wrc_mark_dirty(c, e);
}

unsigned char *wrc_reserve(WRcache *c, WRcEntry *e, size_t vl)
{
    ensure(e, vl);
    e->vlen = (uint32_t)vl;
    e->flags |= WRC_PRESENT;
    wrc_mark_dirty(c, e);
    return e->buf + e->klen;
}

void wrc_clean_all(WRcache *c)
{
    for (uint32_t i = 0; i < c->ndirty; i++) c->e[c->dirty[i]].flags &= (uint8_t)~WRC_DIRTY;
    c->written += c->ndirty;
    c->ndirty = 0;
}

void wrc_remove(WRcache *c, WRcEntry *e)
{
    uint32_t i = (uint32_t)(e - c->e);
    c->gen++;
    if (e->flags & WRC_DIRTY) {         /* swap-remove from the dirty list */
        uint32_t last = c->dirty[--c->ndirty];
        if (e->dirty_pos < c->ndirty) {
            c->dirty[e->dirty_pos] = last;
            c->e[last].dirty_pos = e->dirty_pos;
        }
    }
    /* backward-shift deletion of i's slot */
    size_t mask = c->nslots - 1, hole = slot_of(c, i), p = hole;
    for (;;) {
        p = (p + 1) & mask;
        if (!c->slots[p]) break;
        size_t home = (size_t)c->e[c->slots[p] - 1].hash & mask;
        /* the entry at p may move to hole when its home is not in (hole, p] cyclically */
        bool between = hole <= p ? (home > hole && home <= p) : (home > hole || home <= p);
        if (!between) { c->slots[hole] = c->slots[p]; hole = p; }
    }
    c->slots[hole] = 0;
    free(e->buf);
    uint32_t last = --c->n;
    if (i != last) {                    /* the last entry takes i's place */
        size_t ls = slot_of(c, last);
        c->e[i] = c->e[last];
        c->slots[ls] = i + 1;
        if (c->e[i].flags & WRC_DIRTY) c->dirty[c->e[i].dirty_pos] = i;
    }
    if (c->hand >= c->n) c->hand = 0;
}

void wrc_evict(WRcache *c, size_t target)
{
    /* two full sweeps at most: the first clears reference bits */
    size_t budget = (size_t)c->n * 2 + 2;
    while (c->n > target && budget-- > 0) {
        if (c->hand >= c->n) c->hand = 0;
        WRcEntry *e = &c->e[c->hand];
        if (e->flags & WRC_DIRTY) { c->hand++; continue; }
        if (e->flags & WRC_REF) { e->flags &= (uint8_t)~WRC_REF; c->hand++; continue; }
        wrc_remove(c, e);               /* the last entry moves to hand: look at it next */
        c->evicted++;
    }
}
