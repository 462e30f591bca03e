/* test_heavy_hitters.c — unit tests for the Space-Saving sketch (src/common/heavy_hitters). */
#include "unit.h"
#include "../../src/common/hash.h"
#include "../../src/common/heavy_hitters.h"

#include <stdio.h>

/* A planted key among many distinct ones is found first, with a count within its error bound. */
WTEST(hh_finds_planted_key)
{
    WHeavyHitters h;
    whh_init(&h);
    int64_t planted = 0;
    for (int i = 0; i < 100000; i++) {
        uint64_t k = (i % 5 == 0) ? 7 : 1000 + (uint64_t)i;     /* key 7: 20% of the rows */
        if (k == 7) planted++;
        bool entered;
        int slot = whh_add(&h, whash_u64(k), 1, &entered);
        if (!entered && !h.label[slot][0]) snprintf(h.label[slot], WHH_LABEL, "%llu", (unsigned long long)k);
    }
    CHECK_INT(h.total, 100000);
    WHHEntry top[3];
    CHECK_INT(whh_top(&h, top, 3), 3);
    CHECK_STR(top[0].label, "7");
    CHECK(top[0].count >= planted);
    CHECK(top[0].count - top[0].error <= planted);
    CHECK(top[0].error <= 100000 / WHH_SLOTS);
    CHECK(top[1].count <= top[0].count);
}

/* Fewer distinct keys than slots: the counts are exact, errors 0, order by count. */
WTEST(hh_exact_when_few_keys)
{
    WHeavyHitters h;
    whh_init(&h);
    for (int k = 1; k <= 10; k++)
        for (int r = 0; r < k; r++) {
            bool entered;
            int slot = whh_add(&h, (uint64_t)k, 2, &entered);
            CHECK(h.hash[slot] == (uint64_t)k);
            if (entered) {
                CHECK_INT(h.label[slot][0], 0);
                snprintf(h.label[slot], WHH_LABEL, "k%d", k);
            }
        }
    CHECK_INT(h.n, 10);
    CHECK_INT(h.total, 110);
    WHHEntry top[WHH_SLOTS];
    int n = whh_top(&h, top, WHH_SLOTS);
    CHECK_INT(n, 10);
    CHECK_STR(top[0].label, "k10");
    CHECK_INT(top[0].count, 20);
    CHECK_INT(top[9].count, 2);
    for (int i = 0; i < n; i++) CHECK_INT(top[i].error, 0);
}

/* Every key whose count exceeds total / slots is kept, whatever the order of arrival. */
WTEST(hh_guarantee_after_churn)
{
    WHeavyHitters h;
    whh_init(&h);
    bool entered;
    for (int i = 0; i < 50000; i++) whh_add(&h, whash_u64(100000 + (uint64_t)i), 1, &entered);  /* churn first */
    for (int i = 0; i < 5000; i++) whh_add(&h, whash_u64(42), 1, &entered);                      /* 9% late */
    WHHEntry top[1];
    CHECK_INT(whh_top(&h, top, 1), 1);
    CHECK(top[0].hash == whash_u64(42));
    CHECK(top[0].count - top[0].error <= 5000 && top[0].count >= 5000);
}

/* The index and the least-slot cursor against a plain scan: random keys and weights, every key
   found in its slot, a key entering a full sketch takes a least counted slot, and the counts sum
   to the weight added (Space-Saving's invariant). */
WTEST(hh_index_and_cursor_match_a_scan)
{
    WHeavyHitters h;
    whh_init(&h);
    uint64_t rnd = 12345;
    for (int i = 0; i < 200000; i++) {
        rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
        /* skewed keys: a few frequent, many rare; small raw values collide in the index's home */
        uint64_t k = (rnd >> 33) % 7 == 0 ? (rnd >> 40) % 8 : (rnd >> 20) % 5000;
        int64_t w = i < 100000 ? 1 : 1 + (int64_t)((rnd >> 50) % 300);
        int64_t least = INT64_MAX;
        int where = -1;
        for (int s = 0; s < h.n; s++) {
            if (h.count[s] < least) least = h.count[s];
            if (h.hash[s] == k) where = s;
        }
        int64_t before = where >= 0 ? h.count[where] : 0;
        int n = h.n;
        bool entered;
        int slot = whh_add(&h, k, w, &entered);
        CHECK(h.hash[slot] == k);
        CHECK(entered == (where < 0));
        if (where >= 0) {
            CHECK_INT(slot, where);
            CHECK(h.count[slot] == before + w);
        } else if (n == WHH_SLOTS) {
            CHECK(h.error[slot] == least);
            CHECK(h.count[slot] == least + w);
        } else {
            CHECK_INT(h.n, n + 1);
        }
        int64_t sum = 0;
        for (int s = 0; s < h.n; s++) sum += h.count[s];
        if (sum != h.total) { CHECK(sum == h.total); break; }
    }
    CHECK_INT(h.n, WHH_SLOTS);
}

/* Keys met once (a pass over a one-state operator's keys): whh_skip_light + whh_add_once keep
   exactly the 32 heaviest, with their weights and no error, and count every weight in total. */
WTEST(hh_once_keeps_the_exact_heaviest)
{
    enum { N = 20000 };
    static int64_t w[N];
    WHeavyHitters h;
    whh_init(&h);
    uint64_t rnd = 99;
    int64_t total = 0;
    for (int k = 0; k < N; k++) {
        rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
        w[k] = 1 + (int64_t)((rnd >> 33) % 1000) + (k % 997 == 0 ? 5000 : 0);   /* ties, and 21 heavy */
        total += w[k];
        if (whh_skip_light(&h, w[k])) continue;
        bool entered;
        int slot = whh_add_once(&h, (uint64_t)k, w[k], &entered);
        CHECK(entered && h.hash[slot] == (uint64_t)k && h.count[slot] == w[k] && h.error[slot] == 0);
    }
    CHECK(h.total == total);
    CHECK_INT(h.n, WHH_SLOTS);
    /* the 32nd heaviest weight: every kept key weighs at least it, every key heavier is kept */
    int64_t sorted[N];
    memcpy(sorted, w, sizeof sorted);
    for (int i = 0; i < WHH_SLOTS; i++)
        for (int j = i + 1; j < N; j++)
            if (sorted[j] > sorted[i]) { int64_t t = sorted[i]; sorted[i] = sorted[j]; sorted[j] = t; }
    int64_t cut = sorted[WHH_SLOTS - 1];
    for (int s = 0; s < WHH_SLOTS; s++) CHECK(h.count[s] >= cut && h.count[s] == w[h.hash[s]]);
    for (int k = 0; k < N; k++) {
        if (w[k] <= cut) continue;
        bool kept = false;
        for (int s = 0; s < WHH_SLOTS; s++) kept |= h.hash[s] == (uint64_t)k;
        CHECK(kept);
    }
}
