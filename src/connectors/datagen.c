/*
 * datagen.c — the 'datagen' source: random or sequence values per column, as Flink's
 * DataGenTableSourceFactory / RandomGeneratorVisitor / SequenceGeneratorVisitor define them.
 *
 * Options: rows-per-second (default 10000, split over the subtasks; pacing by wall clock, so large
 * values are effectively unthrottled), number-of-rows (bounded; split over the subtasks),
 * fields.<col>.kind = random | sequence, and per type: min/max (numbers), length/var-len (strings,
 * bytes, collections), max-past (timestamps), null-rate, start/end (sequences; a sequence column
 * makes the table bounded, ending with the first sequence). Sequences are partitioned as Flink's
 * SequenceGenerator does: subtask i of p emits start+i, start+i+p, ... Random strings are
 * lower-case hex, as Flink's nextHexString. Randomness is a xoshiro256** stream seeded from the
 * table name and subtask (deterministic, no global state); position = rows emitted + PRNG state.
 * Time types use the local clock. Depends on types/, common/.
 */
#include "connector.h"
#include "conn_internal.h"
#include "../types/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------------------------------ */
/* PRNG                                                                                        */

typedef struct Rng { uint64_t s[4]; } Rng;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void rng_seed(Rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(Rng *r)
{
    uint64_t *s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static inline double rng_unit(Rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

static inline int64_t rng_range(Rng *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    uint64_t x = rng_next(r);
    if (span == UINT64_MAX) return (int64_t)x;
    return (int64_t)((uint64_t)lo + (uint64_t)(((unsigned __int128)x * (span + 1)) >> 64));
}

/* ------------------------------------------------------------------------------------------ */
/* generators                                                                                  */

typedef struct Gen Gen;
struct Gen {
    const WType *t;
    bool sequence;
    bool now_only;          /* DATE / TIME: the current local date / time */
    int64_t imin, imax;
    double dmin, dmax;
    int length;
    bool var_len;
    double null_rate;
    int64_t max_past_ms;
    int64_t start, end, seq_count;
    int nsub;
    Gen *sub;               /* ARRAY/MULTISET element; MAP key,value; ROW fields */
};

typedef struct KeyList { char **k; int n, cap; } KeyList;

static void kl_add(KeyList *l, const char *key)
{
    if (!l) return;
    if (l->n + 1 >= l->cap) {
        l->cap = l->cap ? l->cap * 2 : 32;
        l->k = wrealloc(l->k, sizeof(char *) * (size_t)l->cap);
    }
    l->k[l->n++] = wstrdup(key);
    l->k[l->n] = NULL;
}

static void kl_free(KeyList *l)
{
    for (int i = 0; i < l->n; i++) free(l->k[i]);
    free(l->k);
}

/* Integer.parseInt / Double.parseDouble of the value: the root cause Flink's client prints
   (measured: 'fields.id.min' = '3000000000' on an INT column, 'fields.id.null-rate' = 'half') */
static bool parse_fail(const char *key, const char *v, WError *err)
{
    (void)key;
    return werr_set(err, WEXC_NUMBER, "For input string: \"%s\"", v);
}

static bool opt_long(const WOptions *o, const char *key, int64_t dflt, int64_t lo, int64_t hi,
                     int64_t *out, WError *err)
{
    if (!wopts_get_long(o, key, dflt, out, err)) return false;
    if (*out < lo || *out > hi) return parse_fail(key, wopts_get(o, key), err);
    return true;
}

static bool opt_double(const WOptions *o, const char *key, double dflt, double *out, WError *err)
{
    const char *v = wopts_get(o, key);
    if (!v) { *out = dflt; return true; }
    char *end;
    double d = strtod(v, &end);
    while (*end == ' ') end++;
    if (end == v || *end) return parse_fail(key, v, err);
    *out = d;
    return true;
}

static void key_of(char *buf, size_t n, const char *name, const char *opt)
{
    snprintf(buf, n, "fields.%s.%s", name, opt);
}

static bool null_rate_opt(Gen *g, const char *name, const WOptions *o, KeyList *kl, WError *err)
{
    char key[512];
    key_of(key, sizeof key, name, "null-rate");
    kl_add(kl, key);
    return opt_double(o, key, 0.0, &g->null_rate, err);
}

static bool build_gen(Gen *g, const char *name, const WType *t, const WOptions *o, bool top,
                      const WTableSpec *spec, KeyList *kl, WError *err);

static bool type_error(const WType *t, WError *err)
{
    WStrBuf s;
    wsb_init(&s);
    wtype_to_string(t, &s);
    werr_set(err, WEXC_VALIDATION, "Unsupported type: %s", s.buf);
    wsb_free(&s);
    return false;
}

static bool build_sequence(Gen *g, const char *name, const WType *t, const WOptions *o,
                           const WTableSpec *spec, KeyList *kl, WError *err)
{
    char ks[512], ke[512];
    key_of(ks, sizeof ks, name, "start");
    key_of(ke, sizeof ke, name, "end");
    if (!wopts_get(o, ks))
        return werr_set(err, WEXC_VALIDATION, "Could not find required property '%s' for sequence generator.", ks);
    if (!wopts_get(o, ke))
        return werr_set(err, WEXC_VALIDATION, "Could not find required property '%s' for sequence generator.", ke);
    bool int_opts;
    switch (t->id) {
    case WT_BOOLEAN: return true;   /* Flink: random booleans even for 'sequence' */
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_FLOAT: case WT_DOUBLE: case WT_DECIMAL:
        int_opts = true; break;
    case WT_BIGINT: case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
        int_opts = false; break;
    case WT_DATE: case WT_TIME: case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
        g->sequence = false;
        g->now_only = t->id == WT_DATE || t->id == WT_TIME;
        return true;
    default:
        return type_error(t, err);
    }
    int64_t lo = int_opts ? INT32_MIN : INT64_MIN, hi = int_opts ? INT32_MAX : INT64_MAX;
    kl_add(kl, ks);
    kl_add(kl, ke);
    if (!opt_long(o, ks, 0, lo, hi, &g->start, err) || !opt_long(o, ke, 0, lo, hi, &g->end, err)) return false;
    if (t->id == WT_TINYINT) { g->start = (int8_t)g->start; g->end = (int8_t)g->end; }
    if (t->id == WT_SMALLINT || t->id == WT_FLOAT) { g->start = (int16_t)g->start; g->end = (int16_t)g->end; }
    int64_t total = g->end - g->start + 1;
    if (total < 0) total = -total;
    int p = spec->parallelism > 0 ? spec->parallelism : 1;
    g->seq_count = total / p + (total % p > spec->subtask ? 1 : 0);
    g->sequence = true;
    return true;
}

static bool build_gen(Gen *g, const char *name, const WType *t, const WOptions *o, bool top,
                      const WTableSpec *spec, KeyList *kl, WError *err)
{
    memset(g, 0, sizeof *g);
    g->t = t;
    char key[512];
    if (top) {
        key_of(key, sizeof key, name, "kind");
        kl_add(kl, key);
        const char *kind = wopts_get_or(o, key, "random");
        if (strcmp(kind, "sequence") == 0) return build_sequence(g, name, t, o, spec, kl, err);
        if (strcmp(kind, "random") != 0)
            return werr_set(err, WEXC_VALIDATION, "Unsupported generator kind: %s", kind);
    }
    char kmin[512], kmax[512];
    key_of(kmin, sizeof kmin, name, "min");
    key_of(kmax, sizeof kmax, name, "max");
    switch (t->id) {
    case WT_BOOLEAN:
        return null_rate_opt(g, name, o, kl, err);
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY: {
        int64_t len;
        bool vl;
        key_of(key, sizeof key, name, "length");
        kl_add(kl, key);
        if (!opt_long(o, key, 100, 0, INT32_MAX, &len, err)) return false;
        g->length = (int)len;
        key_of(key, sizeof key, name, "var-len");
        kl_add(kl, key);
        if (!wopts_get_bool(o, key, false, &vl, err)) return false;
        if (vl && (t->id == WT_CHAR || t->id == WT_BINARY))
            return werr_set(err, WEXC_VALIDATION,
                            "Only supports specifying variable length for variable-length types (varchar, string, varbinary, bytes), but field '%s' is %s.",
                            name, t->id == WT_CHAR ? "CHAR" : "BINARY");
        g->var_len = vl;
        return null_rate_opt(g, name, o, kl, err);
    }
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
    case WT_INTERVAL_YM: case WT_INTERVAL_DT: {
        int64_t lo, hi, dlo, dhi;
        switch (t->id) {
        case WT_TINYINT: lo = dlo = -128; hi = dhi = 127; break;
        case WT_SMALLINT: lo = dlo = -32768; hi = dhi = 32767; break;
        case WT_INT: lo = dlo = INT32_MIN; hi = dhi = INT32_MAX; break;
        case WT_INTERVAL_YM: lo = INT32_MIN; hi = INT32_MAX; dlo = 0; dhi = 120000; break;
        default: lo = dlo = INT64_MIN; hi = dhi = INT64_MAX; break;
        }
        if (t->id == WT_TINYINT || t->id == WT_SMALLINT) { lo = INT32_MIN; hi = INT32_MAX; }
        kl_add(kl, kmin);
        kl_add(kl, kmax);
        if (!opt_long(o, kmin, dlo, lo, hi, &g->imin, err) || !opt_long(o, kmax, dhi, lo, hi, &g->imax, err))
            return false;
        if (t->id == WT_TINYINT) { g->imin = (int8_t)g->imin; g->imax = (int8_t)g->imax; }
        if (t->id == WT_SMALLINT) { g->imin = (int16_t)g->imin; g->imax = (int16_t)g->imax; }
        if (g->imin > g->imax)
            return werr_set(err, WEXC_VALIDATION, "lower bound (%lld) must be strictly less than upper bound (%lld)",
                            (long long)g->imin, (long long)g->imax);
        return null_rate_opt(g, name, o, kl, err);
    }
    case WT_FLOAT: case WT_DOUBLE: case WT_DECIMAL: {
        double dmax = t->id == WT_FLOAT ? 3.4028234663852886e38 : 1.7976931348623157e308;
        double dmin = t->id == WT_FLOAT ? 1.401298464324817e-45 : 4.9e-324;
        kl_add(kl, kmin);
        kl_add(kl, kmax);
        if (!opt_double(o, kmin, dmin, &g->dmin, err) || !opt_double(o, kmax, dmax, &g->dmax, err)) return false;
        if (g->dmin > g->dmax)
            return werr_set(err, WEXC_VALIDATION, "lower bound (%g) must be strictly less than upper bound (%g)",
                            g->dmin, g->dmax);
        return null_rate_opt(g, name, o, kl, err);
    }
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
        key_of(key, sizeof key, name, "max-past");
        kl_add(kl, key);
        if (!wopts_get_duration_ms(o, key, 0, &g->max_past_ms, err)) return false;
        return null_rate_opt(g, name, o, kl, err);
    case WT_DATE: case WT_TIME:
        g->now_only = true;
        return true;
    case WT_ARRAY: case WT_MULTISET: case WT_MAP: case WT_ROW: {
        int64_t len = 3;
        if (t->id != WT_ROW) {
            key_of(key, sizeof key, name, "length");
            kl_add(kl, key);
            if (!opt_long(o, key, 3, 0, INT32_MAX, &len, err)) return false;
        }
        g->length = (int)len;
        g->nsub = t->id == WT_ROW ? t->nfields : (t->id == WT_MAP ? 2 : 1);
        g->sub = wcalloc((size_t)(g->nsub ? g->nsub : 1), sizeof(Gen));
        for (int i = 0; i < g->nsub; i++) {
            char sub[512];
            const WType *st;
            if (t->id == WT_ROW) { snprintf(sub, sizeof sub, "%s.%s", name, t->field_names[i]); st = t->fields[i]; }
            else if (t->id == WT_MAP) { snprintf(sub, sizeof sub, "%s.%s", name, i == 0 ? "key" : "value"); st = i == 0 ? t->key : t->elem; }
            else { snprintf(sub, sizeof sub, "%s.element", name); st = t->elem; }
            if (!build_gen(&g->sub[i], sub, st, o, false, spec, kl, err)) return false;
        }
        return null_rate_opt(g, name, o, kl, err);
    }
    default:
        return type_error(t, err);
    }
}

static void free_gen(Gen *g)
{
    for (int i = 0; i < g->nsub; i++) free_gen(&g->sub[i]);
    free(g->sub);
}

/* ------------------------------------------------------------------------------------------ */
/* validation                                                                                  */

/* Flink's DataGenConnectorOptions; the per-column ones ("fields.#.*") are supported for the columns
   whose type has them (build_gen lists them, as Flink's factory asks each column's generator). */
static const WConnOption DG_INVENTORY[] = {
    {"rows-per-second", WOPT_APPLIED, "10000", "the rows each subtask emits per second", .type = WOT_LONG},
    {"number-of-rows", WOPT_APPLIED, NULL, "the rows to emit (bounded source); unset = unbounded", .type = WOT_LONG},
    {"scan.parallelism", WOPT_APPLIED, NULL, "the source's parallelism (runtime/vertices.c)", .type = WOT_INT},
    {"fields.#.kind", WOPT_APPLIED, "random", "random or sequence generator of a column", .type = WOT_STRING},
    {"fields.#.min", WOPT_APPLIED, NULL, "lower bound of a random number", .type = WOT_BY_COLUMN},
    {"fields.#.max", WOPT_APPLIED, NULL, "upper bound of a random number", .type = WOT_BY_COLUMN},
    {"fields.#.length", WOPT_APPLIED, "100", "length of a random string or collection", .type = WOT_INT},
    {"fields.#.var-len", WOPT_APPLIED, "false", "random strings of variable length", .type = WOT_BOOL},
    {"fields.#.max-past", WOPT_APPLIED, "0", "how far in the past a random timestamp may be", .type = WOT_DURATION},
    {"fields.#.start", WOPT_APPLIED, NULL, "first value of a sequence", .type = WOT_BY_COLUMN},
    {"fields.#.end", WOPT_APPLIED, NULL, "last value of a sequence", .type = WOT_BY_COLUMN},
    {"fields.#.null-rate", WOPT_APPLIED, "0.0", "the share of NULL values", .type = WOT_DOUBLE},
    {0},
};

static bool dg_build_all(const WTableSpec *spec, Gen *gens, KeyList *kl, WError *err)
{
    for (int i = 0; i < spec->ncols; i++)
        if (!build_gen(&gens[i], spec->col_names[i], spec->col_types[i], spec->options, true, spec, kl, err))
            return false;
    return true;
}

static bool dg_validate(const WTableSpec *spec, bool as_source, WError *err)
{
    if (!as_source)
        return werr_set(err, WEXC_VALIDATION,
                        "Connector 'datagen' can only be used as a source. It cannot be used as a sink.");
    KeyList kl = {0};
    Gen *gens = wcalloc((size_t)(spec->ncols ? spec->ncols : 1), sizeof(Gen));
    bool ok = dg_build_all(spec, gens, &kl, err);
    for (int i = 0; i < spec->ncols; i++) free_gen(&gens[i]);
    free(gens);
    if (ok) ok = wconnector_check_inventory(spec, "datagen", DG_INVENTORY, true, (const char *const *)kl.k, NULL, err);
    kl_free(&kl);
    return ok;
}

/* ------------------------------------------------------------------------------------------ */
/* source                                                                                      */

typedef struct DgSource {
    WSource base;
    int ncols;
    Gen *gens;
    Rng rng;
    int64_t emitted;        /* rows emitted by this subtask */
    int64_t limit;          /* -1: unbounded */
    double rate;            /* rows per second for this subtask */
    int64_t pace_start_ns;  /* -1: not started */
    int64_t pace_base;      /* emitted when pacing (re)started */
    int subtask, parallelism;
} DgSource;

static int64_t now_ns(int clk)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int64_t local_offset_ms(int64_t epoch_ms)
{
    time_t t = (time_t)(epoch_ms / 1000);
    struct tm tm;
    localtime_r(&t, &tm);
    return (int64_t)tm.tm_gmtoff * 1000;
}

static const char HEX[] = "0123456789abcdef";

/* One value; returns false for NULL. */
static bool gen_value(DgSource *s, Gen *g, int64_t k, WArena *a, WDatum *out)
{
    Rng *r = &s->rng;
    const WType *t = g->t;
    if (g->null_rate > 0 && rng_unit(r) < g->null_rate) return false;
    if (g->sequence) {
        int64_t v = g->start + s->subtask + k * s->parallelism;
        switch (t->id) {
        case WT_FLOAT: case WT_DOUBLE: out->d = (double)v; return true;
        case WT_DECIMAL: {
            __int128 u = (__int128)v * wpow10_i128(t->scale);
            __int128 lim = wpow10_i128(t->precision);
            if (u >= lim || u <= -lim) return false;
            out->dec = u;
            return true;
        }
        case WT_CHAR: case WT_VARCHAR: {
            char *b = wa_sprintf(a, "%lld", (long long)v);
            out->s.p = b;
            out->s.len = (int32_t)strlen(b);
            return true;
        }
        case WT_BINARY: case WT_VARBINARY: {
            unsigned char *b = wa_alloc(a, 8);
            for (int i = 0; i < 8; i++) b[i] = (unsigned char)((uint64_t)v >> (56 - 8 * i));
            out->s.p = (const char *)b;
            out->s.len = 8;
            return true;
        }
        default: out->i = v; return true;
        }
    }
    switch (t->id) {
    case WT_BOOLEAN: out->i = (int64_t)(rng_next(r) >> 63); return true;
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
    case WT_INTERVAL_YM: case WT_INTERVAL_DT:
        out->i = rng_range(r, g->imin, g->imax);
        return true;
    case WT_FLOAT: case WT_DOUBLE: case WT_DECIMAL: {
        double u = rng_unit(r);
        double x = g->dmin * (1.0 - u) + g->dmax * u;
        if (t->id == WT_FLOAT) { out->d = (double)(float)x; return true; }
        if (t->id == WT_DOUBLE) { out->d = x; return true; }
        long double lim = powl(10.0L, t->precision - t->scale);
        long double lx = x;
        if (lx >= lim) lx = nextafterl(lim, 0);
        if (lx <= -lim) lx = -nextafterl(lim, 0);
        __int128 un = (__int128)roundl(lx * powl(10.0L, t->scale));
        __int128 max = wdecimal_max(t->precision);
        if (un > max) un = max;
        if (un < -max) un = -max;
        out->dec = un;
        return true;
    }
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY: {
        int len = g->length;
        if (g->var_len && len > 0) len = (int)rng_range(r, 1, len);
        char *b = wa_alloc(a, (size_t)len + 1);
        bool bin = t->id == WT_BINARY || t->id == WT_VARBINARY;
        uint64_t bits = 0;
        int avail = 0;
        for (int i = 0; i < len; i++) {
            if (avail < 8) { bits = rng_next(r); avail = 64; }
            if (bin) { b[i] = (char)(bits & 0xFF); bits >>= 8; avail -= 8; }
            else { b[i] = HEX[bits & 15]; bits >>= 4; avail -= 4; }
        }
        out->s.p = b;
        out->s.len = len;
        return true;
    }
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: {
        int64_t now = now_ns(CLOCK_REALTIME) / 1000000;
        int64_t past = g->max_past_ms > 0 ? rng_range(r, 0, g->max_past_ms) : 0;
        int64_t ms = now - past;
        if (t->id == WT_TIMESTAMP) ms += local_offset_ms(ms);
        out->ts.ms = ms;
        out->ts.ns = 0;
        return true;
    }
    case WT_DATE: case WT_TIME: {
        int64_t now = now_ns(CLOCK_REALTIME) / 1000000;
        now += local_offset_ms(now);
        int64_t days = now >= 0 ? now / 86400000 : -((-now + 86399999) / 86400000);
        out->i = t->id == WT_DATE ? days : now - days * 86400000;
        return true;
    }
    case WT_MULTISET: {
        /* Flink generates element -> count (0..10); weir's multiset value is the element list
           (types/value.h), each element repeated count times */
        int n = g->length, total = 0;
        WDatum *el = WA_ARRAY(a, WDatum, n ? n : 1);
        uint8_t *eln = wa_zalloc(a, (size_t)(n ? n : 1));
        int *cnt = WA_ARRAY(a, int, n ? n : 1);
        for (int i = 0; i < n; i++) {
            eln[i] = !gen_value(s, &g->sub[0], k, a, &el[i]);
            cnt[i] = (int)rng_range(r, 0, 10);
            /* a map: an element generated again replaces the earlier entry's count */
            for (int j = 0; j < i; j++)
                if (cnt[j] >= 0 && eln[j] == eln[i] && (eln[i] || wdatum_equal(t->elem, el[j], el[i]))) {
                    cnt[j] = cnt[i];
                    cnt[i] = -1;
                    break;
                }
        }
        for (int i = 0; i < n; i++) if (cnt[i] > 0) total += cnt[i];
        WComposite *cx = WA_NEW(a, WComposite);
        cx->n = total;
        cx->vals = WA_ARRAY(a, WDatum, total ? total : 1);
        cx->nulls = wa_zalloc(a, (size_t)(total ? total : 1));
        for (int i = 0, o = 0; i < n; i++)
            for (int c = 0; c < cnt[i]; c++, o++) { cx->vals[o] = el[i]; cx->nulls[o] = eln[i]; }   /* cnt -1: replaced */
        out->cx = cx;
        return true;
    }
    case WT_ARRAY: case WT_MAP: case WT_ROW: {
        int n = t->id == WT_ROW ? t->nfields : g->length;
        int slots = t->id == WT_MAP ? 2 * n : n;
        WComposite *cx = WA_NEW(a, WComposite);
        cx->n = n;
        cx->vals = WA_ARRAY(a, WDatum, slots ? slots : 1);
        cx->nulls = wa_zalloc(a, (size_t)(slots ? slots : 1));
        for (int i = 0; i < n; i++) {
            if (t->id == WT_ROW) {
                cx->nulls[i] = !gen_value(s, &g->sub[i], k, a, &cx->vals[i]);
            } else if (t->id == WT_MAP) {
                cx->nulls[2 * i] = !gen_value(s, &g->sub[0], k, a, &cx->vals[2 * i]);
                cx->nulls[2 * i + 1] = !gen_value(s, &g->sub[1], k, a, &cx->vals[2 * i + 1]);
            } else {
                cx->nulls[i] = !gen_value(s, &g->sub[0], k, a, &cx->vals[i]);
            }
        }
        out->cx = cx;
        return true;
    }
    default:
        return false;
    }
}

static WSourceStatus dg_next(WSource *base, WChunk *out, WError *err)
{
    (void)err;
    DgSource *s = (DgSource *)base;
    int64_t want = out->cap - out->nrows;
    if (s->limit >= 0 && s->limit - s->emitted < want) want = s->limit - s->emitted;
    if (want <= 0) return s->limit >= 0 ? WSRC_END : WSRC_IDLE;
    if (s->rate > 0) {
        int64_t t = now_ns(CLOCK_MONOTONIC);
        if (s->pace_start_ns < 0) { s->pace_start_ns = t; s->pace_base = s->emitted; }
        /* a token bucket that starts with one second's worth of rows (as Flink emits a second's
           rows at once), so large rates are effectively unthrottled */
        double burst = s->rate;
        double allowed = (double)(t - s->pace_start_ns) * 1e-9 * s->rate + burst - (double)(s->emitted - s->pace_base);
        if (allowed < 1.0) {
            double wait_ns = (1.0 - allowed) / s->rate * 1e9;
            if (wait_ns > 20e6) wait_ns = 20e6;
            wsrc_sleep_ns(base, (int64_t)wait_ns);
            t = now_ns(CLOCK_MONOTONIC);
            allowed = (double)(t - s->pace_start_ns) * 1e-9 * s->rate + burst - (double)(s->emitted - s->pace_base);
            if (allowed < 1.0) return WSRC_IDLE;
        }
        if ((double)want > allowed) want = (int64_t)allowed;
    }
    for (int64_t i = 0; i < want; i++) {
        int r = out->nrows++;
        out->kinds[r] = WRK_INSERT;
        for (int c = 0; c < s->ncols; c++) {
            WVector *v = &out->cols[c];
            v->nulls[r] = !gen_value(s, &s->gens[c], s->emitted, out->arena, &v->data[r]);
        }
        s->emitted++;
    }
    base->rows_read += want;
    if (s->limit >= 0 && s->emitted >= s->limit) return WSRC_END;
    return WSRC_MORE;
}

static bool dg_position(WSource *base, char *buf, size_t bufsz)
{
    DgSource *s = (DgSource *)base;
    int n = snprintf(buf, bufsz, "dg:%lld:%016llx:%016llx:%016llx:%016llx", (long long)s->emitted,
                     (unsigned long long)s->rng.s[0], (unsigned long long)s->rng.s[1],
                     (unsigned long long)s->rng.s[2], (unsigned long long)s->rng.s[3]);
    return n > 0 && (size_t)n < bufsz;
}

static bool dg_seek(WSource *base, const char *pos, WError *err)
{
    DgSource *s = (DgSource *)base;
    long long e;
    unsigned long long a, b, c, d;
    if (sscanf(pos, "dg:%lld:%llx:%llx:%llx:%llx", &e, &a, &b, &c, &d) != 5 || e < 0)
        return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid datagen source position '%s'.", pos);
    s->emitted = e;
    s->rng.s[0] = a; s->rng.s[1] = b; s->rng.s[2] = c; s->rng.s[3] = d;
    s->pace_start_ns = -1;
    return true;
}

static void dg_close(WSource *base)
{
    DgSource *s = (DgSource *)base;
    for (int i = 0; i < s->ncols; i++) free_gen(&s->gens[i]);
    free(s->gens);
    free(s);
}

static WSource *dg_open_source(const WTableSpec *spec, WError *err)
{
    if (!dg_validate(spec, true, err)) return NULL;
    DgSource *s = wcalloc(1, sizeof *s);
    s->base.next = dg_next;
    s->base.position = dg_position;
    s->base.seek = dg_seek;
    s->base.close = dg_close;
    s->ncols = spec->ncols;
    s->subtask = spec->subtask;
    s->parallelism = spec->parallelism > 0 ? spec->parallelism : 1;
    s->gens = wcalloc((size_t)(spec->ncols ? spec->ncols : 1), sizeof(Gen));
    dg_build_all(spec, s->gens, NULL, err);
    int64_t rps, nrows;
    opt_long(spec->options, "rows-per-second", 10000, INT64_MIN, INT64_MAX, &rps, err);
    s->rate = rps > 0 ? (double)rps / s->parallelism : 0;
    if (s->rate > 0 && s->rate < 1) s->rate = 1;
    s->limit = -1;
    if (wopts_get(spec->options, "number-of-rows")) {
        opt_long(spec->options, "number-of-rows", 0, INT64_MIN, INT64_MAX, &nrows, err);
        if (nrows < 0) nrows = 0;
        s->limit = nrows / s->parallelism + (nrows % s->parallelism > s->subtask ? 1 : 0);
    }
    for (int i = 0; i < spec->ncols; i++)
        if (s->gens[i].sequence && (s->limit < 0 || s->gens[i].seq_count < s->limit)) s->limit = s->gens[i].seq_count;
    s->base.bounded = s->limit >= 0;
    s->pace_start_ns = -1;
    uint64_t seed = 1469598103934665603ULL;
    for (const char *p = spec->name ? spec->name : ""; *p; p++) seed = (seed ^ (unsigned char)*p) * 1099511628211ULL;
    rng_seed(&s->rng, seed + (uint64_t)spec->subtask * 0x9E3779B97F4A7C15ULL);
    return &s->base;
}

static bool dg_unbounded(const WOptions *options) { return !wopts_get(options, "number-of-rows"); }

const WConnector wconn_datagen = {
    .name = "datagen",
    /* no projection push-down (Flink 2.3 keeps datagen's whole row) */
    .caps = {.unbounded = dg_unbounded, .source_summary = "DataGenTableSource"},
    .options = DG_INVENTORY,
    .can_source = true,
    .can_sink = false,
    .validate = dg_validate,
    .open_source = dg_open_source,
    .open_sink = NULL,
    .source_is_changelog = NULL,
};
