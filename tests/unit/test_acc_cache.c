/*
 * test_acc_cache.c — exec/acc_cache.c, GroupAggregate's decoded accumulators between chunks: its
 * table (many entries under few hashes, removals from the middle of clusters, growth), the copies
 * it owns (keys and accumulator strings outlive their sources), its bound.
 */
#include "unit.h"
#include "../../src/exec/acc_cache.h"

#include <stdio.h>
#include <string.h>

/* Every entry of hash h, as a bitmask of their key values (kvals[0].i, < 64). */
static uint64_t keys_of(const WAccCache *c, uint64_t h)
{
    uint64_t m = 0;
    size_t pos = 0;
    for (WAccCached *e; (e = wacc_cache_next_of(c, h, &pos));) m |= 1ULL << e->kvals[0].i;
    return m;
}

WTEST(acc_cache_entries_by_hash_through_removals_and_growth)
{
    const WType *kt[1] = {&WTYPE_BIGINT};
    const WType *ft[2] = {&WTYPE_BIGINT, &WTYPE_STRING};
    WAccCache c;
    wacc_cache_init(&c, 1, kt, 2, ft, 48);
    WAccCached *ents[64] = {0};
    uint64_t want[4] = {0};
    for (int i = 0; i < 48; i++) {
        uint64_t h = (uint64_t)(i % 4) * 16;        /* four hashes, one home slot apart at every size */
        WDatum kv = {.i = i}, acc[2] = {{.i = i * 10}, {.s = {"v", 1}}};
        uint8_t kn = 0, an[2] = {0, 0};
        char key[8];
        memcpy(key, &i, sizeof i);
        ents[i] = wacc_cache_add(&c, h, 1000 + (uint64_t)i, key, 4, &kv, &kn, acc, an);
        CHECK(ents[i] != NULL);
        want[i % 4] |= 1ULL << i;
    }
    WDatum kv = {.i = 99}, acc[2] = {{.i = 0}, {.s = {"", 0}}};
    uint8_t kn = 0, an[2] = {0, 1};
    CHECK(wacc_cache_add(&c, 5, 5, "k", 1, &kv, &kn, acc, an) == NULL);     /* full */
    CHECK(c.cap >= 2 * c.n);
    for (int h = 0; h < 4; h++) CHECK(keys_of(&c, (uint64_t)h * 16) == want[h]);
    /* remove every third entry, then check that each hash still finds exactly its others */
    for (int i = 0; i < 48; i += 3) {
        wacc_cache_remove(&c, ents[i]);
        want[i % 4] &= ~(1ULL << i);
    }
    CHECK(c.n == 32);
    for (int h = 0; h < 4; h++) CHECK(keys_of(&c, (uint64_t)h * 16) == want[h]);
    CHECK(keys_of(&c, 7) == 0);
    for (int i = 1; i < 48; i += 3) {
        CHECK(ents[i]->acc[0].i == i * 10 && ents[i]->shash == 1000 + (uint64_t)i);
        int k;
        memcpy(&k, ents[i]->key, 4);
        CHECK(k == i && ents[i]->klen == 4);
    }
    wacc_cache_clear(&c);
    CHECK(c.n == 0 && keys_of(&c, 0) == 0);
    wacc_cache_free(&c);
}

/* The entry's key strings and accumulator strings are its own: the buffers they came from are
   overwritten after wacc_cache_add / wacc_cache_own; an unchanged string is not copied again. */
WTEST(acc_cache_owns_its_strings)
{
    const WType *kt[2] = {&WTYPE_STRING, &WTYPE_INT};
    const WType *ft[3] = {&WTYPE_BIGINT, &WTYPE_STRING, &WTYPE_BYTES};
    WAccCache c;
    wacc_cache_init(&c, 2, kt, 3, ft, 4);
    char kbuf[16] = "channel-7", s1[16] = "12:59", s2[64];
    WDatum kv[2] = {{.s = {kbuf, 9}}, {.i = 3}};
    uint8_t kn[2] = {0, 0};
    WDatum acc[3] = {{.i = 1}, {.s = {s1, 5}}, {.s = {NULL, 0}}};
    uint8_t an[3] = {0, 0, 1};
    WAccCached *e = wacc_cache_add(&c, 42, 43, "keybytes", 8, kv, kn, acc, an);
    CHECK(e != NULL);
    memset(kbuf, 'x', sizeof kbuf);
    memset(s1, 'y', sizeof s1);
    CHECK(e->kvals[0].s.len == 9 && memcmp(e->kvals[0].s.p, "channel-7", 9) == 0 && e->kvals[1].i == 3);
    CHECK(e->acc[1].s.len == 5 && memcmp(e->acc[1].s.p, "12:59", 5) == 0);
    const char *own = e->acc[1].s.p;
    wacc_cache_own(&c, e);                          /* unchanged: stays where it is */
    CHECK(e->acc[1].s.p == own);
    snprintf(s2, sizeof s2, "%s", "a longer value than the first copy held");
    e->acc[1].s = (WStr){s2, (int)strlen(s2)};      /* an update: the chunk's string */
    e->nulls[2] = 0;
    e->acc[2].s = (WStr){s1, 3};
    wacc_cache_own(&c, e);
    memset(s2, 'z', sizeof s2);
    memset(s1, 'w', sizeof s1);
    CHECK(e->acc[1].s.len == (int)strlen("a longer value than the first copy held") &&
          memcmp(e->acc[1].s.p, "a longer value than the first copy held", (size_t)e->acc[1].s.len) == 0);
    CHECK(e->acc[2].s.len == 3 && memcmp(e->acc[2].s.p, "yyy", 3) == 0);
    wacc_cache_free(&c);
}

WTEST(acc_cache_supports_no_composite_values)
{
    WArena a;
    warena_init(&a, 0);
    const WType *row = wtype_row(&a, 1, (const char *[]){"f"}, (const WType *[]){&WTYPE_INT}, true);
    const WType *plain[2] = {&WTYPE_BIGINT, &WTYPE_STRING}, *with_row[2] = {&WTYPE_BIGINT, row};
    CHECK(wacc_cache_supports(2, plain, 2, plain));
    CHECK(!wacc_cache_supports(2, with_row, 2, plain));
    CHECK(!wacc_cache_supports(2, plain, 2, with_row));
    warena_free(&a);
}
