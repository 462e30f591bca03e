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

/* The index position of hash (mixed: keys such as small integers hash to themselves). */
static unsigned index_home(uint64_t hash)
{
    return (unsigned)((hash * 0x9e3779b97f4a7c15ULL) >> 57) & (WHH_INDEX - 1);
}

/* The index position holding hash's slot, or the empty one where it would go (from home). */
static unsigned index_find(const WHeavyHitters *h, uint64_t hash, unsigned i)
{
    while (h->index[i] && h->hash[h->index[i] - 1] != hash) i = (i + 1) & (WHH_INDEX - 1);
    return i;
}

/* Slot slot now holds hash (home position home), entered at the free index position i. */
static void index_put(WHeavyHitters *h, int slot, uint64_t hash, unsigned home, unsigned i)
{
    assert(!h->index[i]);
    h->hash[slot] = hash;
    h->home[slot] = (uint8_t)home;
    h->index[i] = (uint8_t)(slot + 1);
    h->pos[slot] = (uint8_t)i;
}

/* Remove position i from the index (backward-shift deletion: every later entry of the probe run
   that may move back does, so that lookups need no tombstones). */
static void index_remove(WHeavyHitters *h, unsigned i)
{
    for (unsigned j = (i + 1) & (WHH_INDEX - 1); h->index[j]; j = (j + 1) & (WHH_INDEX - 1)) {
        unsigned home = h->home[h->index[j] - 1];
        /* j's entry may fill the hole at i unless its home lies cyclically in (i, j] */
        bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (stays) continue;
        h->index[i] = h->index[j];
        h->pos[h->index[i] - 1] = (uint8_t)i;
        i = j;
    }
    h->index[i] = 0;
}

/* A least counted slot of a full sketch. Counts only grow, and floor is at most every count: the
   cursor walks to a slot still at floor; past the last slot a round ends and floor rises to the
   least count (one scan), the cursor starting again. */
static int least_slot(WHeavyHitters *h)
{
    for (; h->cursor < WHH_SLOTS; h->cursor++)
        if (h->count[h->cursor] <= h->floor) return h->cursor;
    int least = 0;
    for (int i = 1; i < WHH_SLOTS; i++) least = h->count[i] < h->count[least] ? i : least;
    assert(h->count[least] > h->floor);
    h->floor = h->count[least];
    h->cursor = least;          /* slots before the first least one count more */
    return least;
}

int whh_add(WHeavyHitters *h, uint64_t hash, int64_t weight, bool *entered)
{
    assert(weight > 0 && h->n >= 0 && h->n <= WHH_SLOTS);
    h->total += weight;
    unsigned home = index_home(hash), i = index_find(h, hash, home);
    if (h->index[i]) {
        int slot = h->index[i] - 1;
        h->count[slot] += weight;
        *entered = false;
        return slot;
    }
    int slot;
    int64_t base = 0;
    if (h->n < WHH_SLOTS) {
        slot = h->n++;
        index_put(h, slot, hash, home, i);
    } else {
        /* Space-Saving: the new key takes a least counted slot and inherits its count. The new key
           enters the index first (at the end of its probe run), then the old one leaves it: the
           backward shift keeps every run, the new key's included, contiguous from its home. */
        slot = least_slot(h);
        base = h->count[slot];
        unsigned old = h->pos[slot];
        index_put(h, slot, hash, home, i);
        index_remove(h, old);
    }
    h->count[slot] = base + weight;
    h->error[slot] = base;
    h->label[slot][0] = 0;
    *entered = true;
    return slot;
}

bool whh_skip_light(WHeavyHitters *h, int64_t weight)
{
    assert(weight > 0);
    if (h->n < WHH_SLOTS) return false;
    /* floor is at most the least count: a weight not above it needs no look at the slots */
    if (weight > h->floor && weight > h->count[least_slot(h)]) return false;
    h->total += weight;
    return true;
}

int whh_add_once(WHeavyHitters *h, uint64_t hash, int64_t weight, bool *entered)
{
    assert(weight > 0 && h->n >= 0 && h->n <= WHH_SLOTS);
    unsigned home = index_home(hash), i = index_find(h, hash, home);
    if (h->index[i] || h->n < WHH_SLOTS) return whh_add(h, hash, weight, entered);
    /* the least kept key leaves (whh_skip_light said this one is heavier) */
    h->total += weight;
    int slot = least_slot(h);
    assert(weight > h->count[slot]);
    unsigned old = h->pos[slot];
    index_put(h, slot, hash, home, i);
    index_remove(h, old);
    h->count[slot] = weight;
    h->error[slot] = 0;
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
