/* test_lookup_cache.c — the lookup join's PARTIAL cache (exec/lookup_cache.h): hits and misses,
   expire-after-write, expire-after-access (a hit extends it), max-rows evicting the least
   recently used key, an empty result cached, a replaced entry. */
#include "unit.h"
#include "../../src/exec/lookup_cache.h"

#include <string.h>

static void put_str(WLookupCache *c, const char *key, const char *row, int64_t now)
{
    const uint8_t *rows[1] = {(const uint8_t *)row};
    size_t len[1] = {strlen(row)};
    wlookup_cache_put(c, key, strlen(key), row ? 1 : 0, rows, len, now);
}

static bool get_str(WLookupCache *c, const char *key, int64_t now, char *out, size_t outsz)
{
    WLookupRows r;
    if (!wlookup_cache_get(c, key, strlen(key), now, &r)) return false;
    out[0] = 0;
    if (r.n) snprintf(out, outsz, "%.*s", (int)r.len[0], (const char *)r.rows[0]);
    return true;
}

WTEST(lookup_cache_expire_after_write)
{
    WLookupCache *c = wlookup_cache_new(&(WLookupCacheSpec){.expire_after_write_ms = 10});
    char v[32];
    put_str(c, "a", "row-a", 100);
    CHECK(get_str(c, "a", 109, v, sizeof v));
    CHECK_STR(v, "row-a");
    CHECK(!get_str(c, "a", 110, v, sizeof v));     /* written 10 ms ago: expired and dropped */
    CHECK(!get_str(c, "b", 110, v, sizeof v));
    WLookupCacheStats st = wlookup_cache_stats(c);
    CHECK_INT(st.hits, 1);
    CHECK_INT(st.misses, 2);
    CHECK_INT(st.entries, 0);
    wlookup_cache_free(c);
}

WTEST(lookup_cache_expire_after_access)
{
    WLookupCache *c = wlookup_cache_new(&(WLookupCacheSpec){.expire_after_access_ms = 10});
    char v[32];
    put_str(c, "a", "row-a", 0);
    CHECK(get_str(c, "a", 9, v, sizeof v));        /* each hit extends the entry's life */
    CHECK(get_str(c, "a", 18, v, sizeof v));
    CHECK(get_str(c, "a", 27, v, sizeof v));
    CHECK(!get_str(c, "a", 37, v, sizeof v));
    wlookup_cache_free(c);
}

WTEST(lookup_cache_max_rows_lru)
{
    WLookupCache *c = wlookup_cache_new(&(WLookupCacheSpec){.max_rows = 2});
    char v[32];
    put_str(c, "a", "1", 0);
    put_str(c, "b", "2", 0);
    CHECK(get_str(c, "a", 0, v, sizeof v));        /* a used last: b is the eviction candidate */
    put_str(c, "c", "3", 0);
    CHECK(!get_str(c, "b", 0, v, sizeof v));
    CHECK(get_str(c, "a", 0, v, sizeof v));
    CHECK(get_str(c, "c", 0, v, sizeof v));
    CHECK_STR(v, "3");
    CHECK_INT(wlookup_cache_stats(c).entries, 2);
    put_str(c, "c", "33", 0);                        /* replaced, not added */
    CHECK(get_str(c, "c", 0, v, sizeof v));
    CHECK_STR(v, "33");
    CHECK_INT(wlookup_cache_stats(c).entries, 2);
    wlookup_cache_free(c);
}

WTEST(lookup_cache_empty_result_and_growth)
{
    WLookupCache *c = wlookup_cache_new(&(WLookupCacheSpec){0});
    char v[32], k[16];
    wlookup_cache_put(c, "none", 4, 0, NULL, NULL, 0);
    CHECK(get_str(c, "none", 0, v, sizeof v));      /* a missing key cached: a hit with no rows */
    CHECK_STR(v, "");
    for (int i = 0; i < 5000; i++) {
        snprintf(k, sizeof k, "k%d", i);
        put_str(c, k, k, 0);
    }
    CHECK_INT(wlookup_cache_stats(c).entries, 5001);
    CHECK(get_str(c, "k4321", 0, v, sizeof v));
    CHECK_STR(v, "k4321");
    wlookup_cache_free(c);
}
