/* heavy_hitters.c — Space-Saving sketch; see heavy_hitters.h. */
#include "heavy_hitters.h"
#include "sort.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

void whh_init(WHeavyHitters *h)
{
    memset(h, 0, sizeof *h);
}

int whh_add(WHeavyHitters *h, uint64_t hash, int64_t weight, bool *entered)
{
    assert(weight > 0 && h->n >= 0 && h->n <= WHH_SLOTS);
    h->total += weight;
    /* one pass finds the key or, failing that, the least counted slot (the first of equals) */
    int least = 0;
    for (int i = 0; i < h->n; i++) {
        if (h->hash[i] == hash) {
            h->count[i] += weight;
            *entered = false;
            return i;
        }
        if (h->count[i] < h->count[least]) least = i;
    }
    int slot;
    int64_t base = 0;
    if (h->n < WHH_SLOTS) {
        slot = h->n++;
    } else {
        /* Space-Saving: the new key takes the least counted slot and inherits its count */
        slot = least;
        base = h->count[slot];
    }
    h->hash[slot] = hash;
    h->count[slot] = base + weight;
    h->error[slot] = base;
    h->label[slot][0] = 0;
    *entered = true;
    return slot;
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
    for (int i = 0; i < h->n; i++) {
        all[i] = (WHHEntry){.hash = h->hash[i], .count = h->count[i], .error = h->error[i]};
        memcpy(all[i].label, h->label[i], WHH_LABEL);
    }
    wqsort(all, (size_t)h->n, sizeof *all, by_count);
    int n = h->n < max ? h->n : max;
    if (n <= 0) return 0;
    memcpy(out, all, sizeof(WHHEntry) * (size_t)n);
    return n;
}
