/*
 * hash.h — hashing helpers: a fast 64-bit hash for in-memory tables, and Flink's murmur-based
 * functions used for key groups (so weir puts a key in the same key group as Flink does); tagged
 * slots for open-addressing tables of pointers (wslot_*).
 *
 * Contract: pure functions, no state. Depends on nothing but libc.
 */
#ifndef WEIR_COMMON_HASH_H
#define WEIR_COMMON_HASH_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

uint64_t whash_bytes(const void *p, size_t n, uint64_t seed);   /* fast, non-cryptographic */
/* Another fast non-cryptographic hash, for keys that are often long (whole rows): whash_bytes
   below 32 bytes, above it two lanes of 64x64->128-bit multiplies over 32 bytes a step (about
   8x fewer multiplies than whash_bytes' word at a time). Not equal to whash_bytes. */
uint64_t whash_bytes_wide(const void *p, size_t n, uint64_t seed);
static inline uint64_t whash_u64(uint64_t x) {                   /* splitmix64 finaliser */
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    x ^= x >> 31; return x;
}
static inline uint64_t whash_combine(uint64_t h, uint64_t v) {
    return whash_u64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

/* whash_bytes of n bytes (n % 8 == 0) computed from their little-endian 8-byte words w0, w1, ...:
   whash_words_end(whash_words_add(...whash_words_add(whash_words_begin(n, seed), w0)..., wlast))
   equals whash_bytes(p, n, seed), so a fixed-width key is hashed without writing its bytes. */
static inline uint64_t whash_words_begin(size_t n, uint64_t seed) { return seed ^ (n * 0x9e3779b97f4a7c15ULL); }
static inline uint64_t whash_words_add(uint64_t h, uint64_t w) { return (h ^ whash_u64(w)) * 0xff51afd7ed558ccdULL; }
static inline uint64_t whash_words_end(uint64_t h) { return whash_u64(h ^ whash_u64(0)); }
/* whash_bytes of the n words at w (8 * n bytes, little-endian), inline: keys hashed per row. */
static inline uint64_t whash_words(const uint64_t *w, size_t n, uint64_t seed)
{
    uint64_t h = whash_words_begin(8 * n, seed);
    for (size_t i = 0; i < n; i++) h = whash_words_add(h, w[i]);
    return whash_words_end(h);
}

/* Flink: MurmurHashUtil.hashBytesByWords over a word-aligned byte range (len % 4 == 0). */
int32_t wflink_murmur_words(const void *p, size_t len, int32_t seed);
/* wflink_murmur_words of len bytes (len % 8 == 0) from their little-endian 8-byte words w0, w1, ...:
   wflink_murmur_end(wflink_murmur_add_u64(...wflink_murmur_add_u64((uint32_t)seed, w0)..., wlast), len)
   equals wflink_murmur_words(p, len, seed), so a key row is hashed without writing its bytes. */
static inline uint32_t wflink_murmur_rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
static inline uint32_t wflink_murmur_mix_k1(uint32_t k)
{
    k *= 0xcc9e2d51U;
    k = wflink_murmur_rotl32(k, 15);
    return k * 0x1b873593U;
}
static inline uint32_t wflink_murmur_mix_h1(uint32_t h, uint32_t k)
{
    h ^= k;
    h = wflink_murmur_rotl32(h, 13);
    return h * 5 + 0xe6546b64U;
}
static inline uint32_t wflink_murmur_fmix32(uint32_t h)
{
    h ^= h >> 16; h *= 0x85ebca6bU;
    h ^= h >> 13; h *= 0xc2b2ae35U;
    h ^= h >> 16;
    return h;
}
static inline uint32_t wflink_murmur_add_u64(uint32_t h, uint64_t w)    /* its low 4 bytes, then its high 4 */
{
    h = wflink_murmur_mix_h1(h, wflink_murmur_mix_k1((uint32_t)w));
    return wflink_murmur_mix_h1(h, wflink_murmur_mix_k1((uint32_t)(w >> 32)));
}
static inline int32_t wflink_murmur_end(uint32_t h, size_t len) { return (int32_t)wflink_murmur_fmix32(h ^ (uint32_t)len); }
/* wflink_murmur_words of n rows at once: row r is the nwords 8-byte words at words[r * nwords]
   (its bytes on a little-endian machine), hashed as 8 * nwords bytes with seed into out[r]; one
   call for a chunk's rows, whose hashes the CPU interleaves. */
void wflink_murmur_rows(const uint64_t *words, int nwords, int n, int32_t seed, int32_t *out);
/* Flink: MurmurHashUtil.hashBytes (tail bytes one at a time). */
int32_t wflink_murmur_bytes(const void *p, size_t len, int32_t seed);
/* Flink: MathUtils.murmurHash(int) */
int32_t wflink_math_murmur(int32_t code);
/* Flink: KeyGroupRangeAssignment.assignToKeyGroup(hashCode, maxParallelism) */
int wflink_key_group(int32_t hash_code, int max_parallelism);
/* wflink_key_group of n hash codes at once (a power-of-two max parallelism by a mask: the
   murmur hash is never negative, so the remainder is its low bits) */
void wflink_key_groups(const int32_t *hash_codes, int n, int max_parallelism, int *key_groups);
/* Flink: computeOperatorIndexForKeyGroup */
int wflink_operator_index(int max_parallelism, int parallelism, int key_group);
/* Flink: computeDefaultMaxParallelism */
int wflink_default_max_parallelism(int parallelism);

/* Tagged slots for open-addressing tables of pointers: a slot holds the address of its entry with
   the top 16 bits of the entry's hash in the address's unused top 16 bits (user-space addresses of
   x86-64 and AArch64 fit in 48 bits), 0 when empty, so that a probe passes the slots of other
   hashes without loading their entries (a cache miss each in a large table). */
#define WSLOT_TAG_SHIFT 48
_Static_assert(sizeof(uintptr_t) == 8, "tagged slots need 64-bit addresses");
static inline uintptr_t wslot_make(const void *entry, uint64_t hash)
{
    uintptr_t a = (uintptr_t)entry;
    return a | (uintptr_t)(hash >> WSLOT_TAG_SHIFT) << WSLOT_TAG_SHIFT;
}
static inline void *wslot_ptr(uintptr_t slot) { return (void *)(slot & (((uintptr_t)1 << WSLOT_TAG_SHIFT) - 1)); }
static inline int wslot_may_hold(uintptr_t slot, uint64_t hash) { return slot >> WSLOT_TAG_SHIFT == hash >> WSLOT_TAG_SHIFT; }
/* The home slot of hash in a linear-probing table of mask + 1 tagged slots. A table of up to
   WSLOT_TAG_HOME_CAP slots takes it from the hash's top bits, the tag's low bits, so that growing
   the table or shifting entries back after a deletion reads the slots only, not the entries (a
   miss each: Nexmark q16's DISTINCT maps, thousands of tables of a few hundred entries, grew
   through 8 sizes each). A larger table takes it from the low bits, apart from the tag, whose 16
   bits then all sort out other hashes of the probed cluster; in a small table the tag's bits above
   the home still do (4 or more). A table placed so must be so in every probe, insert, growth and
   deletion (wslot_remove_at's tag_home), and iterates in another order than low-bit homes give
   (heap_backend.c places so only the maps whose order nothing sees). */
#define WSLOT_TAG_HOME_CAP 4096
static inline size_t wslot_home(uint64_t hash, size_t mask)
{
    return mask < WSLOT_TAG_HOME_CAP ? (size_t)(hash >> WSLOT_TAG_SHIFT) & mask : (size_t)hash & mask;
}
/* The home slot of tagged slot v (wslot_home) in a table of mask + 1 slots whose entries hold
   their 64-bit hash hash_off bytes in: from the tag in a small table, else from the entry. */
static inline size_t wslot_home_of(uintptr_t v, size_t mask, size_t hash_off)
{
    if (mask < WSLOT_TAG_HOME_CAP) return (size_t)(v >> WSLOT_TAG_SHIFT) & mask;
    uint64_t h;
    memcpy(&h, (const unsigned char *)wslot_ptr(v) + hash_off, sizeof h);
    return (size_t)h & mask;
}
/* Empty slot i of a linear-probing table of mask + 1 tagged slots whose entries hold their 64-bit
   hash hash_off bytes into the entry, and move later entries of its cluster back (backward-shift
   deletion: no tombstones). tag_home: the table's home slots are wslot_home's, else hash & mask. */
static inline void wslot_remove_at(uintptr_t *slots, size_t mask, size_t i, size_t hash_off, bool tag_home)
{
    slots[i] = 0;
    for (size_t j = (i + 1) & mask; slots[j]; j = (j + 1) & mask) {
        size_t home;
        if (tag_home) {
            home = wslot_home_of(slots[j], mask, hash_off);
        } else {
            uint64_t h;
            memcpy(&h, (const unsigned char *)wslot_ptr(slots[j]) + hash_off, sizeof h);
            home = (size_t)h & mask;
        }
        /* can the entry at j move to the hole at i? yes if home is cyclically not in (i, j] */
        if ((i <= j) ? (home <= i || home > j) : (home <= i && home > j)) {
            slots[i] = slots[j];
            slots[j] = 0;
            i = j;
        }
    }
}

#endif
