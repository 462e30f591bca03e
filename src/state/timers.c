/*
 * timers.c — timer service: timers grouped in buckets by timestamp (one bucket per pending
 * timestamp, its timers in registration order), the buckets in a binary min-heap by timestamp
 * and an index from timestamp to bucket, plus a hash set over live timers for de-duplication and
 * deletion (deleted timers are skipped lazily when their bucket fires; the set leaves a tombstone
 * where a timer leaves the middle of a probe cluster). See timers.h.
 * Windows register one timestamp (the window's end) for millions of keys: a timer joins its
 * bucket in O(1) and fires in order from it, without a heap operation per timer (a cache miss per
 * level in a heap of millions); the order is Flink's, (timestamp, registration order).
 * Timers come from the service's pool (pool.h): windows register and fire millions of them, and
 * a malloc and a free each (with glibc's consolidation of the freed ones) were 5 % of Nexmark
 * q5's CPU.
 */
#include "timers.h"
#include "pool.h"
#include "../common/sort.h"
#include "../common/arena.h"
#include "../common/hash.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct Timer {
    int64_t ts, ns;
    uint64_t seq, hash;
    bool live;
    uint32_t klen;
    unsigned char key[];
} Timer;

typedef struct Bucket {
    int64_t ts;
    uint64_t hash;          /* of ts: its slot in the index */
    size_t pos, n, cap;     /* items[pos..n) have not fired (or been skipped) yet */
    Timer **items;          /* registration order; `one` until a bucket holds more than two */
    Timer *one[2];
} Bucket;

struct WTimerService {
    Bucket **heap;          /* min-heap by ts (every bucket, one per pending timestamp) */
    size_t n, cap;
    uintptr_t *index;       /* ts -> bucket, tagged slots (common/hash.h) */
    size_t index_cap;
    Bucket *last;           /* the bucket of the last registration */
    uintptr_t *set;         /* open addressing over live timers, tagged slots; SET_TOMB where a
                               timer was removed inside a cluster */
    size_t set_cap, set_n, set_tomb;
    uint64_t seq;
    size_t live;            /* live timers (in the set) */
    size_t pending;         /* timers in buckets, live or deleted (freed when their bucket reaches them) */
    size_t ns_bytes;        /* wtimers_set_namespace_bytes */
    WPool pool;             /* the timers (freed with it, pending or not) */
};

void wtimers_set_namespace_bytes(WTimerService *t, size_t ns_bytes) { t->ns_bytes = ns_bytes; }

static uint64_t timer_hash(int64_t ts, const void *k, size_t klen, int64_t ns)
{
    return whash_combine(whash_combine(whash_bytes(k, klen, 7), (uint64_t)ts), (uint64_t)ns);
}

WTimerService *wtimers_new(void) { return wcalloc(1, sizeof(WTimerService)); }

static void bucket_free(Bucket *b)
{
    if (b->items != b->one) free(b->items);
    free(b);
}

void wtimers_free(WTimerService *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->n; i++) {
        Bucket *b = t->heap[i];
        bucket_free(b);
    }
    wpool_release(&t->pool);    /* the timers, pending or freed */
    free(t->heap);
    free(t->index);
    free(t->set);
    free(t);
}

/* ---- the set of live timers ---- */

static bool same(const Timer *a, int64_t ts, const void *k, size_t klen, int64_t ns)
{
    return a->ts == ts && a->ns == ns && a->klen == klen && memcmp(a->key, k, klen) == 0;
}

/* The slot of a timer removed from the set (a tombstone): lookups pass it, an insertion takes it.
   Firing timers by the million removes them by the million, and backward-shift deletion reads the
   entry behind every later slot of the cluster to find its home (a cache miss each); a tombstone
   reads nothing. Never a tagged slot: timers are 8-byte aligned. */
#define SET_TOMB ((uintptr_t)1)

static inline Timer *set_at(const WTimerService *t, size_t i) { assert(t->set[i] != SET_TOMB); return wslot_ptr(t->set[i]); }

static size_t set_find(const WTimerService *t, uint64_t h, int64_t ts, const void *k, size_t klen, int64_t ns)
{
    if (!t->set_cap) return SIZE_MAX;
    size_t mask = t->set_cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        uintptr_t v = t->set[i];
        if (!v) return SIZE_MAX;
        if (v == SET_TOMB || !wslot_may_hold(v, h)) continue;
        const Timer *e = wslot_ptr(v);
        if (e->hash == h && same(e, ts, k, klen, ns)) return i;
    }
}

/* The slot of live timer e (in the set): compared by address, no timer read. */
static size_t set_find_timer(const WTimerService *t, const Timer *e)
{
    size_t mask = t->set_cap - 1;
    uintptr_t want = wslot_make(e, e->hash);
    for (size_t i = e->hash & mask;; i = (i + 1) & mask) {
        assert(t->set[i]);                      /* e is in the set */
        if (t->set[i] == want) return i;
    }
}

/* Put tagged slot v (its entry's hash: hash) into a table of cap slots (a power of two). */
static void slot_insert(uintptr_t *slots, size_t cap, uintptr_t v, uint64_t hash)
{
    assert(cap && (cap & (cap - 1)) == 0);      /* a power of two: the probe masks */
    size_t i = hash & (cap - 1);
    while (slots[i]) i = (i + 1) & (cap - 1);
    slots[i] = v;
}

/* Make room for one more of n entries in *slots (*cap of them; the entries hold their hash at
   hash_off; *tombs tombstones among them, NULL for a table without): when the entries and
   tombstones would pass 3/4 of the slots, which keeps an empty slot for every probe, the entries
   move to a new table without tombstones, twice as large when they alone fill more than half of
   it (64 slots at first). */
static void slots_reserve(uintptr_t **slots, size_t *cap, size_t n, size_t *tombs, size_t hash_off)
{
    size_t tomb = tombs ? *tombs : 0;
    if ((n + tomb + 1) * 4 <= *cap * 3) return;
    size_t ncap = !*cap ? 64 : (n + 1) * 2 > *cap ? *cap * 2 : *cap;
    /* zeroed by writing: calloc's fresh pages would be read first by the probes below (mapping the
       shared zero page) and then written (a second fault each, and with other threads running a
       TLB shoot-down IPI per page) */
    uintptr_t *ns = wmalloc(ncap * sizeof(uintptr_t));
    memset(ns, 0, ncap * sizeof(uintptr_t));
    for (size_t i = 0; i < *cap; i++) {
        uintptr_t v = (*slots)[i];
        if (!v || v == SET_TOMB) continue;
        uint64_t h;
        memcpy(&h, (const unsigned char *)wslot_ptr(v) + hash_off, sizeof h);
        slot_insert(ns, ncap, v, h);
    }
    free(*slots);
    *slots = ns;
    *cap = ncap;
    if (tombs) *tombs = 0;
}

/* Add e (not in the set: the caller looked it up) at the first free or tombstone slot of its probe. */
static void set_add(WTimerService *t, Timer *e)
{
    slots_reserve(&t->set, &t->set_cap, t->set_n, &t->set_tomb, offsetof(Timer, hash));
    assert((uintptr_t)e >> WSLOT_TAG_SHIFT == 0);
    size_t mask = t->set_cap - 1, i = e->hash & mask;
    while (t->set[i] && t->set[i] != SET_TOMB) i = (i + 1) & mask;
    if (t->set[i] == SET_TOMB) t->set_tomb--;
    t->set[i] = wslot_make(e, e->hash);
    t->set_n++;
    /* the load factor keeps an empty slot for every probe */
    assert((t->set_n + t->set_tomb) * 4 <= t->set_cap * 3);
}

/* Remove the timer in slot i: a tombstone, or an empty slot where no cluster goes on behind it (and
   then the tombstones just before it are empty slots too). */
static void set_remove_at(WTimerService *t, size_t i)
{
    assert(i < t->set_cap && t->set[i] && t->set[i] != SET_TOMB && t->set_n > 0);
    size_t mask = t->set_cap - 1;
    t->set_n--;
    if (t->set[(i + 1) & mask]) {
        t->set[i] = SET_TOMB;
        t->set_tomb++;
        return;
    }
    t->set[i] = 0;
    for (size_t j = (i - 1) & mask; t->set[j] == SET_TOMB; j = (j - 1) & mask) {
        t->set[j] = 0;
        t->set_tomb--;
    }
}

/* ---- buckets: the index by timestamp and the heap ---- */

static Bucket *index_find(const WTimerService *t, int64_t ts, uint64_t h, size_t *slot)
{
    if (!t->index_cap) return NULL;
    size_t mask = t->index_cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        uintptr_t v = t->index[i];
        if (!v) return NULL;
        if (!wslot_may_hold(v, h)) continue;
        Bucket *b = wslot_ptr(v);
        if (b->ts == ts) { if (slot) *slot = i; return b; }
    }
}

static void index_add(WTimerService *t, Bucket *b)
{
    slots_reserve(&t->index, &t->index_cap, t->n, NULL, offsetof(Bucket, hash));   /* t->n buckets are in it */
    assert((uintptr_t)b >> WSLOT_TAG_SHIFT == 0);
    slot_insert(t->index, t->index_cap, wslot_make(b, b->hash), b->hash);
}

static void heap_push(WTimerService *t, Bucket *b)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 64;
        t->heap = wrealloc(t->heap, sizeof(Bucket *) * t->cap);
    }
    size_t i = t->n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (b->ts >= t->heap[p]->ts) break;
        t->heap[i] = t->heap[p];
        i = p;
    }
    t->heap[i] = b;
}

/* Remove the heap's top bucket (fired to its end) from the heap and the index, and free it. */
static void bucket_pop(WTimerService *t)
{
    assert(t->n > 0);
    Bucket *top = t->heap[0];
    assert(top->pos == top->n);
    size_t slot = SIZE_MAX;
    Bucket *found = index_find(t, top->ts, top->hash, &slot);
    assert(found == top);
    (void)found;
    wslot_remove_at(t->index, t->index_cap - 1, slot, offsetof(Bucket, hash), false);
    Bucket *last = t->heap[--t->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        int64_t cur = last->ts;
        if (l < t->n && t->heap[l]->ts < cur) { m = l; cur = t->heap[l]->ts; }
        if (r < t->n && t->heap[r]->ts < cur) m = r;
        if (m == i) break;
        t->heap[i] = t->heap[m];
        i = m;
    }
    if (t->n) t->heap[i] = last;
    if (t->last == top) t->last = NULL;
    bucket_free(top);
}

/* The bucket of timestamp ts, made when there is none. */
static Bucket *bucket_of(WTimerService *t, int64_t ts)
{
    if (t->last && t->last->ts == ts) return t->last;
    uint64_t h = whash_u64((uint64_t)ts);
    Bucket *b = index_find(t, ts, h, NULL);
    if (!b) {
        b = wcalloc(1, sizeof *b);
        b->ts = ts;
        b->hash = h;
        b->items = b->one;
        b->cap = 2;
        index_add(t, b);
        heap_push(t, b);
    }
    t->last = b;
    return b;
}

static void bucket_append(Bucket *b, Timer *e)
{
    if (b->n == b->cap) {
        size_t ncap = b->cap * 2;
        Timer **ni = wmalloc(sizeof(Timer *) * ncap);
        memcpy(ni, b->items, sizeof(Timer *) * b->n);
        if (b->items != b->one) free(b->items);
        b->items = ni;
        b->cap = ncap;
    }
    b->items[b->n++] = e;
}

bool wtimers_register(WTimerService *t, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    assert(t && (key || klen == 0) && klen <= UINT32_MAX);
    uint64_t h = timer_hash(ts, key, klen, ns);
    if (set_find(t, h, ts, key, klen, ns) != SIZE_MAX) return false;
    Timer *e = wpool_alloc(&t->pool, sizeof *e + klen);
    e->ts = ts;
    e->ns = ns;
    e->seq = t->seq++;
    e->hash = h;
    e->live = true;
    e->klen = (uint32_t)klen;
    memcpy(e->key, key, klen);
    set_add(t, e);
    bucket_append(bucket_of(t, ts), e);
    t->live++;
    t->pending++;
    assert(t->live == t->set_n && t->live <= t->pending);     /* every live timer is in the set and a bucket */
    return true;
}

void wtimers_prefetch(const WTimerService *t, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    if (t->set_cap) __builtin_prefetch(&t->set[timer_hash(ts, key, klen, ns) & (t->set_cap - 1)]);
}

bool wtimers_delete(WTimerService *t, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    uint64_t h = timer_hash(ts, key, klen, ns);
    size_t i = set_find(t, h, ts, key, klen, ns);
    if (i == SIZE_MAX) return false;
    assert(set_at(t, i)->live && t->live > 0);
    set_at(t, i)->live = false;   /* freed when its bucket reaches it */
    set_remove_at(t, i);
    t->live--;
    return true;
}

/* Timers of a bucket read ahead of the one firing: the timer itself (AHEAD_TIMER), then its slot
   in the set and the caller's state (AHEAD_SLOT), then the caller's entries (AHEAD_ENTRY). Each a
   cache miss when millions of timers fire at one time, overlapped this way. */
enum { AHEAD_TIMER = 24, AHEAD_SLOT = 12, AHEAD_ENTRY = 6 };

static void read_ahead(const WTimerService *t, const Bucket *b, WTimerAheadFn ahead, void *ctx)
{
    size_t p = b->pos;
    if (p + AHEAD_TIMER < b->n) __builtin_prefetch(b->items[p + AHEAD_TIMER]);
    if (p + AHEAD_SLOT < b->n) {
        const Timer *e = b->items[p + AHEAD_SLOT];
        if (e->live) {
            __builtin_prefetch(&t->set[e->hash & (t->set_cap - 1)]);
            if (ahead) ahead(ctx, e->ts, e->key, e->klen, e->ns, false);
        }
    }
    if (ahead && p + AHEAD_ENTRY < b->n) {
        const Timer *e = b->items[p + AHEAD_ENTRY];
        if (e->live) ahead(ctx, e->ts, e->key, e->klen, e->ns, true);
    }
}

void wtimers_advance(WTimerService *t, int64_t time, WTimerFn fn, void *ctx)
{
    wtimers_advance_ahead(t, time, fn, NULL, ctx);
}

void wtimers_advance_ahead(WTimerService *t, int64_t time, WTimerFn fn, WTimerAheadFn ahead, void *ctx)
{
    assert(t && fn);
    /* the top bucket stays in the heap while it fires: a callback's timer for an earlier time
       makes a new top, which fires first; one for the same time joins the bucket's end */
    while (t->n && t->heap[0]->ts <= time) {
        Bucket *b = t->heap[0];
        if (b->pos == b->n) { bucket_pop(t); continue; }
        if (b->n - b->pos > AHEAD_ENTRY) read_ahead(t, b, ahead, ctx);
        Timer *e = b->items[b->pos++];
        t->pending--;
        if (e->live) {
            set_remove_at(t, set_find_timer(t, e));
            t->live--;
            fn(ctx, e->ts, e->key, e->klen, e->ns);
        }
        wpool_free(&t->pool, e, sizeof *e + e->klen);
    }
}

size_t wtimers_count(const WTimerService *t) { return t->live; }

int64_t wtimers_next(const WTimerService *t) { return t->n ? t->heap[0]->ts : INT64_MAX; }

/* ---- snapshots (additive): "WEIRTMR1" | u32 version | u32 max parallelism | u64 count |
   (i64 ts | i64 ns | u32 klen | key)* in (ts, sequence) order | CRC32C | "WTME" ---- */

#include "snapshot.h"
#include "backend_internal.h"

#include <stdio.h>
#include <stdlib.h>

static bool less(const Timer *a, const Timer *b) { return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq); }

static int cmp_timer(const void *a, const void *b)
{
    const Timer *x = *(Timer *const *)a, *y = *(Timer *const *)b;
    return less(x, y) ? -1 : less(y, x) ? 1 : 0;
}

bool wtimers_snapshot(const WTimerService *t, const char *path, int max_parallelism, WError *err)
{
    Timer **v = wmalloc(sizeof(Timer *) * (t->live ? t->live : 1));
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++) {
        const Bucket *b = t->heap[i];
        for (size_t j = b->pos; j < b->n; j++) if (b->items[j]->live) v[n++] = b->items[j];
    }
    assert(n == t->live);
    wqsort(v, n, sizeof(Timer *), cmp_timer);
    WSnapOut o;
    if (!wsnap_out_open(&o, path, err)) { free(v); return false; }
    unsigned char h[24];
    memcpy(h, "WEIRTMR1", 8);
    wbe_put32(h + 8, 1);
    wbe_put32(h + 12, (uint32_t)max_parallelism);
    wbe_put64(h + 16, n);
    wsnap_out_write(&o, h, 24);
    for (size_t i = 0; i < n; i++) {
        unsigned char r[20];
        wbe_put64(r, (uint64_t)v[i]->ts);
        wbe_put64(r + 8, (uint64_t)v[i]->ns);
        wbe_put32(r + 16, v[i]->klen);
        wsnap_out_write(&o, r, 20);
        wsnap_out_write(&o, v[i]->key, v[i]->klen);
    }
    free(v);
    return wsnap_out_finish(&o, "WTME", NULL, NULL, err);
}

typedef struct TRef { int64_t ts, ns; const unsigned char *key; uint32_t klen; size_t order; } TRef;

static int cmp_tref(const void *a, const void *b)
{
    const TRef *x = a, *y = b;
    if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

bool wtimers_restore(WTimerService *t, const char *const *paths, int npaths, int max_parallelism,
                     int kg_first, int kg_last, WError *err)
{
    WSnapIn *in = wcalloc((size_t)(npaths ? npaths : 1), sizeof(WSnapIn));
    TRef *refs = NULL;
    size_t nref = 0, cap = 0;
    bool ok = true;
    for (int f = 0; ok && f < npaths; f++) {
        if (!wsnap_in_open(&in[f], paths[f], "WEIRTMR1", "WTME", "Timer snapshot", err)) { ok = false; break; }
        const unsigned char *p = in[f].p;
        size_t size = in[f].size, off = 24;
        if (size < 24 || wbe_get32(p + 8) != 1) {
            ok = werr_set(err, WEXC_IO, "Timer snapshot file '%s' is corrupted: bad header.", paths[f]);
            break;
        }
        if ((int)wbe_get32(p + 12) != max_parallelism) {
            ok = werr_set(err, WEXC_ILLEGAL_ARG, "Cannot restore timer snapshot '%s': it was taken with max parallelism %u, "
                          "the job runs with max parallelism %d.", paths[f], wbe_get32(p + 12), max_parallelism);
            break;
        }
        uint64_t n = wbe_get64(p + 16);
        for (uint64_t i = 0; i < n; i++) {
            if (size - off < 20 || wbe_get32(p + off + 16) > size - off - 20) { ok = false; break; }
            TRef r = {(int64_t)wbe_get64(p + off), (int64_t)wbe_get64(p + off + 8), p + off + 20,
                      wbe_get32(p + off + 16), nref};
            off += 20 + r.klen;
            int kg = wstate_key_group_ns(r.key, r.klen, t->ns_bytes, max_parallelism);
            if (kg < kg_first || kg > kg_last) continue;
            if (nref == cap) { cap = cap ? cap * 2 : 256; refs = wrealloc(refs, sizeof(TRef) * cap); }
            refs[nref++] = r;
        }
        if (!ok || off != size)
            ok = werr_set(err, WEXC_IO, "Timer snapshot file '%s' is corrupted: bad record.", paths[f]);
    }
    if (ok && nref) {
        wqsort(refs, nref, sizeof(TRef), cmp_tref);
        for (size_t i = 0; i < nref; i++) wtimers_register(t, refs[i].ts, refs[i].key, refs[i].klen, refs[i].ns);
    }
    free(refs);
    for (int f = 0; f < npaths; f++) wsnap_in_close(&in[f]);
    free(in);
    return ok;
}
