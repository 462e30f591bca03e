/*
 * compare.c — ordering, equality and hashing of non-NULL values of one type (compare.h).
 *
 * Strings and bytes compare as unsigned bytes (UTF-8 byte order = code point order), then by
 * length; FLOAT/DOUBLE as Java's Double.compare (-0.0 < 0.0, NaN greatest and equal to itself);
 * timestamps by epoch millis then nanos; composites element by element with NULL first (as
 * Flink's generated comparators order nulls first), then by length. Hashes agree with equality
 * (0.0 and -0.0 differ in both, all NaNs are one value). May call common/hash.h.
 */
#include "compare.h"

#include <math.h>
#include <string.h>
#include "../common/hash.h"

static int cmp_i64(int64_t a, int64_t b) { return a < b ? -1 : a > b; }

static int cmp_double(double a, double b)
{
    if (a < b) return -1;
    if (a > b) return 1;
    /* Double.compare: by bits for ties (NaN, +-0) */
    bool an = a != a, bn = b != b;
    if (an || bn) return an == bn ? 0 : (an ? 1 : -1);
    bool as = signbit(a) != 0, bs = signbit(b) != 0;
    return as == bs ? 0 : (as ? -1 : 1);
}

static int cmp_bytes(WStr a, WStr b)
{
    int n = a.len < b.len ? a.len : b.len;
    int c = n > 0 ? memcmp(a.p, b.p, (size_t)n) : 0;
    if (c) return c < 0 ? -1 : 1;
    return a.len < b.len ? -1 : a.len > b.len;
}

static int cmp_slot(const WType *t, const WComposite *ca, int ia, const WComposite *cb, int ib)
{
    bool na = ca->nulls && ca->nulls[ia], nb = cb->nulls && cb->nulls[ib];
    if (na || nb) return na == nb ? 0 : (na ? -1 : 1);
    return wdatum_compare(t, ca->vals[ia], cb->vals[ib]);
}

int wdatum_compare(const WType *t, WDatum a, WDatum b)
{
    switch (t->id) {
    case WT_NULL: return 0;
    case WT_BOOLEAN: case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
    case WT_DATE: case WT_TIME: case WT_INTERVAL_YM: case WT_INTERVAL_DT:
        return cmp_i64(a.i, b.i);
    case WT_FLOAT: case WT_DOUBLE: return cmp_double(a.d, b.d);
    case WT_DECIMAL: return a.dec < b.dec ? -1 : a.dec > b.dec;
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY: return cmp_bytes(a.s, b.s);
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: {
        int c = cmp_i64(a.ts.ms, b.ts.ms);
        return c ? c : cmp_i64(a.ts.ns, b.ts.ns);
    }
    case WT_ARRAY: case WT_MULTISET: case WT_MAP: case WT_ROW: {
        const WComposite *ca = a.cx, *cb = b.cx;
        if (!ca || !cb) return ca == cb ? 0 : (ca ? 1 : -1);
        int slots_a = t->id == WT_MAP ? 2 * ca->n : ca->n, slots_b = t->id == WT_MAP ? 2 * cb->n : cb->n;
        int n = slots_a < slots_b ? slots_a : slots_b;
        for (int i = 0; i < n; i++) {
            const WType *et = t->id == WT_ROW ? (i < t->nfields ? t->fields[i] : &WTYPE_NULL)
                            : t->id == WT_MAP ? (i % 2 == 0 ? t->key : t->elem) : t->elem;
            int c = cmp_slot(et, ca, i, cb, i);
            if (c) return c;
        }
        return slots_a < slots_b ? -1 : slots_a > slots_b;
    }
    default: return 0;
    }
}

bool wdatum_equal(const WType *t, WDatum a, WDatum b)
{
    switch (t->id) {
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
        return a.s.len == b.s.len && (a.s.len == 0 || memcmp(a.s.p, b.s.p, (size_t)a.s.len) == 0);
    default:
        return wdatum_compare(t, a, b) == 0;
    }
}

static uint64_t hash_slot(const WType *t, const WComposite *c, int i, uint64_t seed)
{
    if (c->nulls && c->nulls[i]) return whash_combine(seed, 0x6e756c6cULL);
    return wdatum_hash(t, c->vals[i], seed);
}

uint64_t wdatum_hash(const WType *t, WDatum v, uint64_t seed)
{
    switch (t->id) {
    case WT_NULL: return whash_combine(seed, 0);
    case WT_BOOLEAN: case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
    case WT_DATE: case WT_TIME: case WT_INTERVAL_YM: case WT_INTERVAL_DT:
        return whash_combine(seed, (uint64_t)v.i);
    case WT_FLOAT: case WT_DOUBLE: {
        double d = v.d;
        uint64_t bits;
        if (d != d) bits = 0x7ff8000000000000ULL;
        else memcpy(&bits, &d, sizeof bits);
        return whash_combine(seed, bits);
    }
    case WT_DECIMAL: {
        unsigned __int128 u = (unsigned __int128)v.dec;
        return whash_combine(whash_combine(seed, (uint64_t)u), (uint64_t)(u >> 64));
    }
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
        return whash_bytes(v.s.p, (size_t)v.s.len, seed);
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
        return whash_combine(whash_combine(seed, (uint64_t)v.ts.ms), (uint64_t)v.ts.ns);
    case WT_ARRAY: case WT_MULTISET: case WT_MAP: case WT_ROW: {
        const WComposite *c = v.cx;
        uint64_t h = whash_combine(seed, (uint64_t)t->id);
        if (!c) return h;
        int slots = t->id == WT_MAP ? 2 * c->n : c->n;
        for (int i = 0; i < slots; i++) {
            const WType *et = t->id == WT_ROW ? (i < t->nfields ? t->fields[i] : &WTYPE_NULL)
                            : t->id == WT_MAP ? (i % 2 == 0 ? t->key : t->elem) : t->elem;
            h = hash_slot(et, c, i, h);
        }
        return whash_combine(h, (uint64_t)slots);
    }
    default: return seed;
    }
}
