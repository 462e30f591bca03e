/*
 * pool.h — a pool of memory blocks with free lists by size class, for the many small objects of
 * keyed state (the heap backend's entries, values and per-key map tables; the timer service's
 * timers).
 *
 * Contract: objects up to WPOOL_WIDE_MAX bytes come from free lists by size class (8 bytes apart
 * up to WPOOL_MAX, then four classes per power of two: a quarter wasted at most), carved from runs
 * of an arena, so that millions of objects neither pay a malloc each nor a free each when their
 * owner goes (wpool_release drops everything at once). The caller frees an object with the size
 * it asked for. A larger object is malloc'd behind a header that links it into the pool's list of
 * them, so that the release frees those too without the caller visiting them (a walk over every
 * key of a join's or a DISTINCT's map state, two dependent cache misses per key: 4.5 % of Nexmark
 * q7's CPU went to it). A zeroed WPool is empty and ready; a NULL pool means plain malloc and
 * free. Not thread-safe: one owner. Depends on common/arena.h.
 */
#ifndef WEIR_STATE_POOL_H
#define WEIR_STATE_POOL_H

#include "../common/arena.h"

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define WPOOL_CLASSES 128               /* free lists by 8-byte size class, up to 1024 bytes */
#define WPOOL_WIDE_CLASSES 20           /* and by a quarter of a power of two, up to 32 KiB */
#define WPOOL_GRAIN 8                   /* class c holds blocks of (c + 1) * WPOOL_GRAIN bytes */
#define WPOOL_MAX (WPOOL_CLASSES * WPOOL_GRAIN)
#define WPOOL_WIDE_MAX ((size_t)WPOOL_MAX << (WPOOL_WIDE_CLASSES / 4))
#define WPOOL_RUN ((size_t)64 << 10)    /* bytes taken from the arena at a time (>= a class) */
_Static_assert(WPOOL_WIDE_CLASSES % 4 == 0, "four wide classes per power of two");
_Static_assert(WPOOL_WIDE_MAX <= WPOOL_RUN, "a run holds a block of every class");

typedef struct WPoolBig WPoolBig;       /* the header of an allocation larger than a class */
typedef struct WPool {
    void *free_list[WPOOL_CLASSES + WPOOL_WIDE_CLASSES];
    WPoolBig *big;              /* the live allocations larger than a class */
    unsigned char *cur, *end;   /* the part of the arena's current run not handed out yet */
    WArena arena;
    bool init;
} WPool;

/* An object of n bytes outside the classes (any n), and its free. */
void *wpool_big_alloc(WPool *p, size_t n);
void wpool_big_free(WPool *p, void *m);
/* Everything allocated from p, at once; p is empty (zeroed) after. */
void wpool_release(WPool *p);
/* A new run of the arena for blocks of `size` bytes (wpool_alloc's slow path); the first block. */
void *wpool_new_run(WPool *p, size_t size);

/* The free list of blocks of n bytes (n <= WPOOL_WIDE_MAX), and the bytes of its blocks. */
static inline size_t wpool_class(size_t n)
{
    assert(n <= WPOOL_WIDE_MAX);
    if (n <= WPOOL_MAX) return n ? (n - 1) / WPOOL_GRAIN : 0;
    size_t octave = (size_t)(63 - __builtin_clzll((unsigned long long)((n - 1) / WPOOL_MAX)));
    size_t step = ((size_t)WPOOL_MAX << octave) / 4;
    return WPOOL_CLASSES + octave * 4 + (n - 1) / step - 4;     /* a block of base + 1..4 steps */
}

static inline size_t wpool_class_size(size_t c)
{
    if (c < WPOOL_CLASSES) return (c + 1) * WPOOL_GRAIN;
    size_t w = c - WPOOL_CLASSES, base = (size_t)WPOOL_MAX << (w / 4);
    return base + (w % 4 + 1) * (base / 4);
}

static inline void *wpool_alloc(WPool *p, size_t n)
{
    if (!p) return wmalloc(n ? n : 1);
    if (n > WPOOL_WIDE_MAX) return wpool_big_alloc(p, n);
    size_t c = wpool_class(n), size = wpool_class_size(c);
    void *m = p->free_list[c];
    if (m) { p->free_list[c] = *(void **)m; return m; }
    if ((size_t)(p->end - p->cur) < size) return wpool_new_run(p, size);
    m = p->cur;
    p->cur += size;
    return m;
}

/* Free m, allocated from p with n bytes. */
static inline void wpool_free(WPool *p, void *m, size_t n)
{
    if (!m) return;
    if (!p) { free(m); return; }
    if (n > WPOOL_WIDE_MAX) { wpool_big_free(p, m); return; }
    size_t c = wpool_class(n);
    *(void **)m = p->free_list[c];
    p->free_list[c] = m;
}

static inline void *wpool_zalloc(WPool *p, size_t n)
{
    void *m = wpool_alloc(p, n);
    memset(m, 0, n);
    return m;
}

/* Do allocations of a and b bytes share one block (a resize from a to b needs no new one)? */
static inline bool wpool_same_block(size_t a, size_t b)
{
    if (a == b) return true;
    return a <= WPOOL_WIDE_MAX && b <= WPOOL_WIDE_MAX && wpool_class(a) == wpool_class(b);
}

#endif
