/*
 * pool.c — the slow paths of pool.h: new runs of the arena, the list of big allocations, the
 * release. See pool.h for the contract.
 */
#include "pool.h"

struct WPoolBig {
    WPoolBig *prev, *next;      /* the pool's list of big allocations */
};
_Static_assert(sizeof(WPoolBig) % 16 == 0, "a big allocation keeps malloc's alignment");

void *wpool_big_alloc(WPool *p, size_t n)
{
    WPoolBig *h = wmalloc(sizeof *h + n);
    h->prev = NULL;
    h->next = p->big;
    if (p->big) p->big->prev = h;
    p->big = h;
    return h + 1;
}

void wpool_big_free(WPool *p, void *m)
{
    WPoolBig *h = (WPoolBig *)m - 1;
    if (h->prev) h->prev->next = h->next;
    else {
        assert(p->big == h);
        p->big = h->next;
    }
    if (h->next) h->next->prev = h->prev;
    free(h);
}

void *wpool_new_run(WPool *p, size_t size)
{
    assert(size <= WPOOL_RUN);
    if (!p->init) { warena_init(&p->arena, 1 << 20); p->init = true; }
    p->cur = wa_alloc(&p->arena, WPOOL_RUN);
    p->end = p->cur + WPOOL_RUN;
    /* a run is carved to its end (state only grows into it): its pages at once, not a fault
       each (bench/agg's 2 x 5M join: 5 % less CPU) */
    wmem_prefault(p->cur, WPOOL_RUN);
    void *m = p->cur;
    p->cur += size;
    return m;
}

void wpool_release(WPool *p)
{
    while (p->big) {
        WPoolBig *h = p->big;
        p->big = h->next;
        free(h);
    }
    if (p->init) warena_free(&p->arena);
    memset(p, 0, sizeof *p);
}
