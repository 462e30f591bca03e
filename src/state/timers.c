/*
 * timers.c — timer service: a binary min-heap ordered by (timestamp, sequence) plus a hash set
 * for de-duplication and deletion (deleted timers are skipped lazily when popped). See timers.h.
 * The heap's entries carry their (timestamp, sequence) beside the timer's pointer, so that sifting
 * compares without reading the timers (millions of window timers: one cache miss per level).
 */
#include "timers.h"
#include "../common/sort.h"
#include "../common/arena.h"
#include "../common/hash.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

typedef struct Timer {
    int64_t ts, ns;
    uint64_t seq, hash;
    bool live;
    uint32_t klen;
    unsigned char key[];
} Timer;

typedef struct HeapEntry {
    int64_t ts;
    uint64_t seq;
    Timer *t;
} HeapEntry;

struct WTimerService {
    HeapEntry *heap;
    size_t n, cap;
    uintptr_t *set;         /* open addressing over live timers, tagged slots (common/hash.h) */
    size_t set_cap, set_n;
    uint64_t seq;
    size_t live;
    size_t ns_bytes;        /* wtimers_set_namespace_bytes */
};

void wtimers_set_namespace_bytes(WTimerService *t, size_t ns_bytes) { t->ns_bytes = ns_bytes; }

static uint64_t timer_hash(int64_t ts, const void *k, size_t klen, int64_t ns)
{
    return whash_combine(whash_combine(whash_bytes(k, klen, 7), (uint64_t)ts), (uint64_t)ns);
}

WTimerService *wtimers_new(void) { return wcalloc(1, sizeof(WTimerService)); }

void wtimers_free(WTimerService *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->n; i++) free(t->heap[i].t);
    free(t->heap);
    free(t->set);
    free(t);
}

static bool same(const Timer *a, int64_t ts, const void *k, size_t klen, int64_t ns)
{
    return a->ts == ts && a->ns == ns && a->klen == klen && memcmp(a->key, k, klen) == 0;
}

static inline Timer *set_at(const WTimerService *t, size_t i) { return wslot_ptr(t->set[i]); }

static size_t set_find(const WTimerService *t, uint64_t h, int64_t ts, const void *k, size_t klen, int64_t ns)
{
    if (!t->set_cap) return SIZE_MAX;
    size_t mask = t->set_cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        uintptr_t v = t->set[i];
        if (!v) return SIZE_MAX;
        if (!wslot_may_hold(v, h)) continue;
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

static void set_insert_raw(uintptr_t *set, size_t cap, uintptr_t v)
{
    assert(cap && (cap & (cap - 1)) == 0);      /* a power of two: the probe masks */
    const Timer *e = wslot_ptr(v);
    size_t i = e->hash & (cap - 1);
    while (set[i]) i = (i + 1) & (cap - 1);
    set[i] = v;
}

static void set_add(WTimerService *t, Timer *e)
{
    if ((t->set_n + 1) * 4 > t->set_cap * 3) {
        size_t ncap = t->set_cap ? t->set_cap * 2 : 64;
        uintptr_t *ns = wcalloc(ncap, sizeof(uintptr_t));
        for (size_t i = 0; i < t->set_cap; i++) if (t->set[i]) set_insert_raw(ns, ncap, t->set[i]);
        free(t->set);
        t->set = ns;
        t->set_cap = ncap;
    }
    assert((uintptr_t)e >> WSLOT_TAG_SHIFT == 0);
    set_insert_raw(t->set, t->set_cap, wslot_make(e, e->hash));
    t->set_n++;
    assert(t->set_n * 4 <= t->set_cap * 3);     /* the load factor keeps an empty slot for probes */
}

static void set_remove_at(WTimerService *t, size_t i)
{
    assert(i < t->set_cap && t->set[i] && t->set_n > 0);
    size_t mask = t->set_cap - 1;
    t->set[i] = 0;
    t->set_n--;
    for (size_t j = (i + 1) & mask; t->set[j]; j = (j + 1) & mask) {
        uintptr_t v = t->set[j];
        t->set[j] = 0;
        set_insert_raw(t->set, t->set_cap, v);
    }
}

static bool less(const Timer *a, const Timer *b) { return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq); }
static bool hless(const HeapEntry *a, const HeapEntry *b) { return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq); }

static void heap_push(WTimerService *t, Timer *e)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 64;
        t->heap = wrealloc(t->heap, sizeof(HeapEntry) * t->cap);
    }
    HeapEntry he = {e->ts, e->seq, e};
    size_t i = t->n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!hless(&he, &t->heap[p])) break;
        t->heap[i] = t->heap[p];
        i = p;
    }
    t->heap[i] = he;
}

static Timer *heap_pop(WTimerService *t)
{
    assert(t->n > 0);
    Timer *top = t->heap[0].t;
    HeapEntry last = t->heap[--t->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        const HeapEntry *cur = &last;
        if (l < t->n && hless(&t->heap[l], cur)) { m = l; cur = &t->heap[l]; }
        if (r < t->n && hless(&t->heap[r], cur)) m = r;
        if (m == i) break;
        t->heap[i] = t->heap[m];
        i = m;
    }
    if (t->n) t->heap[i] = last;
    return top;
}

bool wtimers_register(WTimerService *t, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    assert(t && (key || klen == 0) && klen <= UINT32_MAX);
    uint64_t h = timer_hash(ts, key, klen, ns);
    if (set_find(t, h, ts, key, klen, ns) != SIZE_MAX) return false;
    Timer *e = wmalloc(sizeof *e + klen);
    e->ts = ts;
    e->ns = ns;
    e->seq = t->seq++;
    e->hash = h;
    e->live = true;
    e->klen = (uint32_t)klen;
    memcpy(e->key, key, klen);
    set_add(t, e);
    heap_push(t, e);
    t->live++;
    assert(t->live == t->set_n && t->live <= t->n);     /* every live timer is in the set and the heap */
    return true;
}

bool wtimers_delete(WTimerService *t, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    uint64_t h = timer_hash(ts, key, klen, ns);
    size_t i = set_find(t, h, ts, key, klen, ns);
    if (i == SIZE_MAX) return false;
    assert(set_at(t, i)->live && t->live > 0);
    set_at(t, i)->live = false;   /* freed when popped */
    set_remove_at(t, i);
    t->live--;
    return true;
}

void wtimers_advance(WTimerService *t, int64_t time, WTimerFn fn, void *ctx)
{
    assert(t && fn);
    while (t->n && t->heap[0].ts <= time) {
        Timer *e = heap_pop(t);
        if (e->live) {
            set_remove_at(t, set_find_timer(t, e));
            t->live--;
            fn(ctx, e->ts, e->key, e->klen, e->ns);
        }
        free(e);
    }
}

size_t wtimers_count(const WTimerService *t) { return t->live; }

int64_t wtimers_next(const WTimerService *t)
{
    for (size_t i = 0; i < t->n; i++) if (t->heap[0].t->live) return t->heap[0].ts;
    return t->n ? t->heap[0].ts : INT64_MAX;
}

/* ---- snapshots (additive): "WEIRTMR1" | u32 version | u32 max parallelism | u64 count |
   (i64 ts | i64 ns | u32 klen | key)* in (ts, sequence) order | CRC32C | "WTME" ---- */

#include "snapshot.h"
#include "backend_internal.h"

#include <stdio.h>
#include <stdlib.h>

static int cmp_timer(const void *a, const void *b)
{
    const Timer *x = *(Timer *const *)a, *y = *(Timer *const *)b;
    return less(x, y) ? -1 : less(y, x) ? 1 : 0;
}

bool wtimers_snapshot(const WTimerService *t, const char *path, int max_parallelism, WError *err)
{
    Timer **v = wmalloc(sizeof(Timer *) * (t->n ? t->n : 1));
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++) if (t->heap[i].t->live) v[n++] = t->heap[i].t;
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
