/* heavy_hitters.c — Space-Saving sketch; see heavy_hitters.h. */
#include "heavy_hitters.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

void whh_init(WHeavyHitters *h)
{
    memset(h, 0, sizeof *h);
}

WHHEntry *whh_add(WHeavyHitters *h, uint64_t hash, int64_t weight, bool *entered)
{
    assert(weight > 0 && h->n >= 0 && h->n <= WHH_SLOTS);
    h->total += weight;
    int min = 0;
    for (int i = 0; i < h->n; i++) {
        if (h->e[i].hash == hash) {
            h->e[i].count += weight;
            *entered = false;
            return &h->e[i];
        }
        if (h->e[i].count < h->e[min].count) min = i;
    }
    WHHEntry *e;
    int64_t base = 0;
    if (h->n < WHH_SLOTS) {
        e = &h->e[h->n++];
    } else {
        /* Space-Saving: the new key takes the least counted slot and inherits its count */
        e = &h->e[min];
        base = e->count;
    }
    e->hash = hash;
    e->count = base + weight;
    e->error = base;
    e->label[0] = 0;
    *entered = true;
    return e;
}

static int by_count(const void *a, const void *b)
{
    const WHHEntry *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return x->hash < y->hash ? -1 : x->hash > y->hash;
}

int whh_top(const WHeavyHitters *h, WHHEntry *out, int max)
{
    WHHEntry all[WHH_SLOTS];
    memcpy(all, h->e, sizeof(WHHEntry) * (size_t)h->n);
    qsort(all, (size_t)h->n, sizeof *all, by_count);
    int n = h->n < max ? h->n : max;
    memcpy(out, all, sizeof(WHHEntry) * (size_t)(n > 0 ? n : 0));
    return n > 0 ? n : 0;
}
