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
