/*
 * lookup_cache.c — see lookup_cache.h. A chained hash table of entries (one malloc each: key
 * bytes, then the rows' lengths and pointers, then the rows' bytes) on a doubly linked list in
 * order of last use (head = most recent), so eviction takes the tail. Depends on common/.
 */
#include "lookup_cache.h"
#include "../common/hash.h"
#include "../common/arena.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

typedef struct Entry {
    struct Entry *chain;            /* same bucket */
    struct Entry *prev, *next;      /* use order */
    uint64_t hash;
    size_t klen;
    int n;
    int64_t written_ms, accessed_ms;
    const uint8_t **rows;
    size_t *len;
    uint8_t *key;
} Entry;

struct WLookupCache {
    WLookupCacheSpec spec;
    Entry **buckets;
    size_t nbuckets;
    int64_t count;
    Entry *head, *tail;
    int64_t hits, misses;
};

WLookupCache *wlookup_cache_new(const WLookupCacheSpec *spec)
{
    WLookupCache *c = wcalloc(1, sizeof *c);
    c->spec = *spec;
    c->nbuckets = 1024;
    c->buckets = wcalloc(c->nbuckets, sizeof *c->buckets);
    return c;
}

static size_t pad8(size_t x) { return (x + 7) & ~(size_t)7; }

static Entry **find_slot(WLookupCache *c, const void *key, size_t klen, uint64_t h)
{
    Entry **p = &c->buckets[h & (c->nbuckets - 1)];
    while (*p && !((*p)->hash == h && (*p)->klen == klen && memcmp((*p)->key, key, klen) == 0)) p = &(*p)->chain;
    return p;
}

static void unlink_use(WLookupCache *c, Entry *e)
{
    if (e->prev) e->prev->next = e->next;
    else c->head = e->next;
    if (e->next) e->next->prev = e->prev;
    else c->tail = e->prev;
    e->prev = e->next = NULL;
}

static void push_front(WLookupCache *c, Entry *e)
{
    e->prev = NULL;
    e->next = c->head;
    if (c->head) c->head->prev = e;
    c->head = e;
    if (!c->tail) c->tail = e;
}

static void drop(WLookupCache *c, Entry *e)
{
    Entry **p = find_slot(c, e->key, e->klen, e->hash);
    assert(*p == e);
    *p = e->chain;
    unlink_use(c, e);
    c->count--;
    free(e);
}

static void grow(WLookupCache *c)
{
    size_t nb = c->nbuckets * 2;
    Entry **b = wcalloc(nb, sizeof *b);
    for (size_t i = 0; i < c->nbuckets; i++) {
        for (Entry *e = c->buckets[i], *nx; e; e = nx) {
            nx = e->chain;
            e->chain = b[e->hash & (nb - 1)];
            b[e->hash & (nb - 1)] = e;
        }
    }
    free(c->buckets);
    c->buckets = b;
    c->nbuckets = nb;
}

static bool expired(const WLookupCache *c, const Entry *e, int64_t now)
{
    if (c->spec.expire_after_write_ms > 0 && now - e->written_ms >= c->spec.expire_after_write_ms) return true;
    return c->spec.expire_after_access_ms > 0 && now - e->accessed_ms >= c->spec.expire_after_access_ms;
}

bool wlookup_cache_get(WLookupCache *c, const void *key, size_t klen, int64_t now_ms, WLookupRows *out)
{
    uint64_t h = whash_bytes(key, klen, 0x10c4);
    Entry *e = *find_slot(c, key, klen, h);
    if (e && expired(c, e, now_ms)) {
        drop(c, e);
        e = NULL;
    }
    if (!e) {
        c->misses++;
        return false;
    }
    c->hits++;
    e->accessed_ms = now_ms;
    unlink_use(c, e);
    push_front(c, e);
    out->n = e->n;
    out->rows = e->rows;
    out->len = e->len;
    return true;
}

void wlookup_cache_put(WLookupCache *c, const void *key, size_t klen, int n, const uint8_t *const *rows,
                       const size_t *len, int64_t now_ms)
{
    uint64_t h = whash_bytes(key, klen, 0x10c4);
    Entry *old = *find_slot(c, key, klen, h);
    if (old) drop(c, old);
    /* rows start 8-byte aligned, as the binary row format reads its slots */
    size_t total = sizeof(Entry) + sizeof(size_t) * (size_t)n + sizeof(uint8_t *) * (size_t)n + pad8(klen);
    for (int i = 0; i < n; i++) total += pad8(len[i]);
    Entry *e = wcalloc(1, total);
    e->len = (size_t *)(e + 1);
    e->rows = (const uint8_t **)(e->len + n);
    uint8_t *bytes = (uint8_t *)(e->rows + n);
    e->key = bytes;
    memcpy(bytes, key, klen);
    bytes += pad8(klen);
    for (int i = 0; i < n; i++) {
        e->len[i] = len[i];
        memcpy(bytes, rows[i], len[i]);
        e->rows[i] = bytes;
        bytes += pad8(len[i]);
    }
    e->hash = h;
    e->klen = klen;
    e->n = n;
    e->written_ms = e->accessed_ms = now_ms;
    Entry **slot = find_slot(c, key, klen, h);
    *slot = e;
    push_front(c, e);
    c->count++;
    if (c->spec.max_rows > 0)
        while (c->count > c->spec.max_rows && c->tail) drop(c, c->tail);
    if ((size_t)c->count > c->nbuckets) grow(c);
}

WLookupCacheStats wlookup_cache_stats(const WLookupCache *c)
{
    return (WLookupCacheStats){c->hits, c->misses, c->count};
}

void wlookup_cache_free(WLookupCache *c)
{
    if (!c) return;
    for (Entry *e = c->head, *nx; e; e = nx) {
        nx = e->next;
        free(e);
    }
    free(c->buckets);
    free(c);
}
