/*
 * heavy_hitters.h — a Space-Saving heavy-hitters sketch (Metwally, Agrawal, El Abbadi 2005):
 * the most frequent keys of a stream in bounded memory.
 *
 * Contract: a WHeavyHitters is a plain value (copyable, no pointers) of WHH_SLOTS counters, each
 * a key hash, its estimated count, the error bound of that estimate and a bounded printable label
 * the caller fills when a key enters. Every key whose true count exceeds total / WHH_SLOTS is in
 * the sketch; an entry's true count lies in [count - error, count]. An update finds its key by a
 * small open-addressing index of the slots (a probe or two) and, for a key not in a full sketch,
 * the least counted slot by a cursor over the slots (amortized a step or two for keys of equal
 * weights: one scan of the counts per round in which the least count rises). Single-threaded:
 * the owner updates it, readers get copies. Depends on nothing but libc.
 */
#ifndef WEIR_COMMON_HEAVY_HITTERS_H
#define WEIR_COMMON_HEAVY_HITTERS_H

#include <stdbool.h>
#include <stdint.h>

#define WHH_SLOTS 32
#define WHH_LABEL 64
#define WHH_INDEX 128           /* index positions: a power of two, 4 x WHH_SLOTS (short probe runs) */

/* One key as whh_top reports it. */
typedef struct WHHEntry {
    uint64_t hash;
    int64_t count;              /* estimated records (an over-estimate by at most error) */
    int64_t error;              /* the count of the key it replaced */
    char label[WHH_LABEL];      /* printable form of the key, NUL-terminated, maybe truncated */
} WHHEntry;

/* Slots as parallel arrays (the least-count scan reads 256 contiguous bytes). Whoever changes
   hash[] or count[] goes through whh_add (the index and the cursor follow them). */
typedef struct WHeavyHitters {
    int n;                      /* slots in use */
    int cursor;                 /* slots before it (this round) count more than floor */
    int64_t floor;              /* no slot counts less (the least count when a round began) */
    int64_t total;              /* weight added in all */
    uint64_t hash[WHH_SLOTS];
    int64_t count[WHH_SLOTS];
    int64_t error[WHH_SLOTS];
    uint8_t index[WHH_INDEX];   /* slot + 1 of the key hashing here (linear probing); 0: empty */
    uint8_t pos[WHH_SLOTS];     /* each slot's index position */
    uint8_t home[WHH_SLOTS];    /* and its key's home position */
    char label[WHH_SLOTS][WHH_LABEL];
} WHeavyHitters;

void whh_init(WHeavyHitters *h);
/* Count `weight` for the key with this hash; returns its slot. *entered: the key entered the
   sketch with this call (its label h->label[slot] is then empty). A caller that labels keys
   lazily writes the label when a key already present has none (so that keys seen once cost no
   formatting). */
int whh_add(WHeavyHitters *h, uint64_t hash, int64_t weight, bool *entered);
/* A stream in which each key comes once (a pass over a state that holds one entry per key) keeps
   the exact WHH_SLOTS heaviest keys instead (count = weight, error 0). whh_skip_light: a key no
   heavier than every key kept by a full sketch is only counted in total (true: the caller need not
   even hash it); else (false) the caller adds it with whh_add_once, which replaces the least kept
   key (a key already kept that comes again and is added adds up as in whh_add). Do not mix with
   whh_add on one sketch. */
bool whh_skip_light(WHeavyHitters *h, int64_t weight);
int whh_add_once(WHeavyHitters *h, uint64_t hash, int64_t weight, bool *entered);
/* Up to max entries, highest count first (ties: lower hash first). Returns how many. */
int whh_top(const WHeavyHitters *h, WHHEntry *out, int max);

#endif
