/*
 * func_numeric.c — numeric functions: ABS, ROUND, TRUNCATE, FLOOR, CEIL (numeric; the
 * "FLOOR(x TO unit)" form is delegated to func_time.c), POWER, SQRT, EXP, LN, LOG10, LOG2, LOG,
 * trigonometric and hyperbolic functions, DEGREES, RADIANS, SIGN, PI, E, RAND, RAND_INTEGER
 * (java.util.Random sequences when seeded), BIN, HEX, UNHEX.
 * Result types follow Calcite/Flink: ROUND/TRUNCATE on DECIMAL(p, s) to r digits give
 * DECIMAL(1 + p - s + r, r) (r < s), DECIMAL(p, s) (r >= s), DECIMAL(1 + p - s, 0) (r < 0); the
 * literal r is applied by the `prepare` hook, which refines call->type. FLOOR/CEIL on DECIMAL(p, s)
 * give DECIMAL(p, 0). Depends on func_impl.h.
 */
#include "func_impl.h"

#include <math.h>
#include <time.h>

#define EV(nm) static void nm(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, \
                              const uint8_t *act, WVector *out)
#define INF(nm) static const WType *nm(WArena *a, const WType **t, int n, const WType **co, WError *err)
#define UNUSED_EV (void)ctx; (void)call; (void)na; (void)act

/* ---------------------------------------------------------------- double functions */

typedef double (*DFn)(double);

static double cot_(double x) { return 1.0 / tan(x); }
/* Java's Math.toDegrees / toRadians: one multiplication by the rounded constant (RADIANS(-1.5) =
   -0.026179938779914945, not x / 180 * PI's -0.02617993877991494) */
static double degrees_(double x) { return x * 57.29577951308232; }
static double radians_(double x) { return x * 0.017453292519943295; }
static double log2_(double x) { return log(x) / log(2.0); }

static const struct { const char *name; DFn fn; } DFNS[] = {
    { "SQRT", sqrt }, { "EXP", exp }, { "LN", log }, { "LOG10", log10 }, { "LOG2", log2_ },
    { "SIN", sin }, { "COS", cos }, { "TAN", tan }, { "COT", cot_ }, { "ASIN", asin },
    { "ACOS", acos }, { "ATAN", atan }, { "SINH", sinh }, { "COSH", cosh }, { "TANH", tanh },
    { "DEGREES", degrees_ }, { "RADIANS", radians_ },
};

static DFn dfn_of(const char *name)
{
    for (size_t i = 0; i < sizeof DFNS / sizeof DFNS[0]; i++)
        if (strcmp(DFNS[i].name, name) == 0) return DFNS[i].fn;
    return sqrt;
}

static const WType *inf_double1(WArena *a, const char *name, const WType **t, int n, WError *err)
{
    if (!wf_check(err, name, t, n, "N")) return NULL;
    return wf_type(a, WT_DOUBLE, wf_any_nullable(t, n));
}

EV(ev_double1)
{
    (void)ctx; (void)na;
    DFn fn = dfn_of(call->func->name);
    const WType *ta = av[0]->type;
    if (ta->id == WT_DOUBLE) {
        WF_FOR(i, n, act) out->data[i].d = fn(av[0]->data[i].d);
        return;
    }
    WF_FOR(i, n, act) out->data[i].d = fn(wf_as_double(ta, av[0]->data[i]));
}

#define DOUBLE1(inf, NAME) INF(inf) { (void)co; return inf_double1(a, NAME, t, n, err); }
DOUBLE1(inf_sqrt, "SQRT")
DOUBLE1(inf_exp, "EXP")
DOUBLE1(inf_ln, "LN")
DOUBLE1(inf_log10, "LOG10")
DOUBLE1(inf_log2, "LOG2")
DOUBLE1(inf_sin, "SIN")
DOUBLE1(inf_cos, "COS")
DOUBLE1(inf_tan, "TAN")
DOUBLE1(inf_cot, "COT")
DOUBLE1(inf_asin, "ASIN")
DOUBLE1(inf_acos, "ACOS")
DOUBLE1(inf_atan, "ATAN")
DOUBLE1(inf_sinh, "SINH")
DOUBLE1(inf_cosh, "COSH")
DOUBLE1(inf_tanh, "TANH")
DOUBLE1(inf_degrees, "DEGREES")
DOUBLE1(inf_radians, "RADIANS")

INF(inf_power)
{
    (void)co;
    if (!wf_check(err, "POWER", t, n, "NN")) return NULL;
    return wf_type(a, WT_DOUBLE, wf_any_nullable(t, n));
}

INF(inf_atan2)
{
    (void)co;
    if (!wf_check(err, "ATAN2", t, n, "NN")) return NULL;
    return wf_type(a, WT_DOUBLE, wf_any_nullable(t, n));
}

INF(inf_log)
{
    (void)co;
    if (!wf_check(err, "LOG", t, n, "N|NN")) return NULL;
    return wf_type(a, WT_DOUBLE, wf_any_nullable(t, n));
}

EV(ev_power)
{
    UNUSED_EV;
    WF_FOR(i, n, act) out->data[i].d = pow(wf_as_double(av[0]->type, av[0]->data[i]), wf_as_double(av[1]->type, av[1]->data[i]));
}

EV(ev_atan2)
{
    UNUSED_EV;
    WF_FOR(i, n, act) out->data[i].d = atan2(wf_as_double(av[0]->type, av[0]->data[i]), wf_as_double(av[1]->type, av[1]->data[i]));
}

EV(ev_log)
{
    (void)call;
    WF_FOR(i, n, act) {
        if (na == 1) { out->data[i].d = log(wf_as_double(av[0]->type, av[0]->data[i])); continue; }
        /* Flink 2.3 (measured): ln(x) / ln(base) without checks: LOG(1, 8) = Infinity,
           LOG(2, -1) = NaN; a zero result is 0.0, never -0.0 (LOG(0, 8) = 0.0) */
        double base = wf_as_double(av[0]->type, av[0]->data[i]), x = wf_as_double(av[1]->type, av[1]->data[i]);
        out->data[i].d = log(x) / log(base) + 0.0;
    }
}

/* ---------------------------------------------------------------- ABS / SIGN */

INF(inf_abs)
{
    (void)co;
    if (n != 1 || !(wf_num(t[0]) || wtype_is_interval(t[0])))
        return wf_err_apply(err, "ABS", t, n, "ABS(<NUMERIC>)\nABS(<DATETIME_INTERVAL>)");
    if (wf_null(t[0])) return wtype_with_nullable(a, &WTYPE_INT, true);
    return t[0];
}

static int64_t wrap_int(WTypeId id, uint64_t v)
{
    switch (id) {
    case WT_TINYINT: return (int8_t)(uint8_t)v;
    case WT_SMALLINT: return (int16_t)(uint16_t)v;
    case WT_INT: return (int32_t)(uint32_t)v;
    default: return (int64_t)v;
    }
}

EV(ev_abs)
{
    UNUSED_EV;
    const WType *rt = call->type;
    const WDatum *x = av[0]->data;
    if (rt->id == WT_DECIMAL) { WF_FOR(i, n, act) out->data[i].dec = x[i].dec < 0 ? -x[i].dec : x[i].dec; }
    else if (rt->id == WT_DOUBLE || rt->id == WT_FLOAT) { for (int i = 0; i < n; i++) out->data[i].d = fabs(x[i].d); }
    else { for (int i = 0; i < n; i++) out->data[i].i = x[i].i < 0 ? wrap_int(rt->id, (uint64_t)0 - (uint64_t)x[i].i) : x[i].i; }
}

INF(inf_sign)
{
    (void)co;
    if (!wf_check(err, "SIGN", t, n, "N")) return NULL;
    if (wf_null(t[0])) return wtype_with_nullable(a, &WTYPE_INT, true);
    return t[0];
}

EV(ev_sign)
{
    UNUSED_EV;
    const WType *rt = call->type;
    WF_FOR(i, n, act) {
        WDatum x = av[0]->data[i];
        if (rt->id == WT_DECIMAL) {
            int sg = (x.dec > 0) - (x.dec < 0);
            out->data[i].dec = (__int128)sg * wpow10_i128(rt->scale);
        } else if (rt->id == WT_DOUBLE || rt->id == WT_FLOAT) {
            out->data[i].d = isnan(x.d) ? x.d : (double)((x.d > 0) - (x.d < 0));
        } else {
            out->data[i].i = (x.i > 0) - (x.i < 0);
        }
    }
}

/* ---------------------------------------------------------------- ROUND / TRUNCATE */

static const WType *round_type(WArena *a, const WType *t, int r)
{
    if (t->id != WT_DECIMAL) return t;
    int p = t->precision, s = t->scale;
    if (r >= s) return t;
    if (r < 0) return wtype_decimal(a, 1 + p - s < 38 ? 1 + p - s : 38, 0, t->nullable);
    int np = 1 + p - s + r;
    return wtype_decimal(a, np < 38 ? np : 38, r, t->nullable);
}

static const WType *inf_round_named(WArena *a, const char *name, const WType **t, int n, WError *err)
{
    if (!wf_check(err, name, t, n, "N|NI")) return NULL;
    if (wf_null(t[0])) return wtype_with_nullable(a, &WTYPE_INT, true);
    bool nullable = wf_any_nullable(t, n);
    /* a scale that is not a literal keeps the argument's type (Flink 2.3 measured: ROUND(d, k) of a
       DECIMAL(20, 3) column d and an INT column k is DECIMAL(20, 3), 2.500 rounded at 2 = 2.500);
       a literal scale refines it in prep_round */
    return wtype_with_nullable(a, n == 2 ? t[0] : round_type(a, t[0], 0), nullable);
}

INF(inf_round) { (void)co; return inf_round_named(a, "ROUND", t, n, err); }
INF(inf_truncate) { (void)co; return inf_round_named(a, "TRUNCATE", t, n, err); }

static bool prep_round(WArena *a, WExpr *call, WError *err)
{
    (void)err;
    if (call->nargs < 2 || call->args[0]->type->id != WT_DECIMAL) return true;
    const WExpr *d = call->args[1];
    /* Flink's planner folds a cast of a literal first (ROUND(x, CAST(2 AS INT)) has a literal 2) */
    while (d->kind == WX_CAST && d->nargs == 1 && wtype_is_integer(d->type)) d = d->args[0];
    if (d->kind != WX_LITERAL || d->is_null || !wtype_is_integer(d->type)) return true;
    call->type = wtype_with_nullable(a, round_type(a, call->args[0]->type, (int)d->lit.i), call->type->nullable);
    return true;
}

/* Java: BigDecimal.valueOf(double).setScale(d, HALF_UP|DOWN).doubleValue() */
static double round_double(double x, int64_t d, bool truncate)
{
    if (isnan(x) || isinf(x)) return x;
    char buf[40];
    wfmt_double_java(x, buf);
    __int128 unscaled;
    int scale;
    if (!wdec_parse_java(buf, (int)strlen(buf), &unscaled, &scale)) {
        double f = pow(10.0, (double)d);
        return truncate ? trunc(x * f) / f : round(x * f) / f;
    }
    if (d >= scale) return x;
    if (scale - d > 76) return 0.0 * x;
    /* bring to a non-negative scale first */
    while (scale < 0) { unscaled *= 10; scale++; }
    if (d >= scale) return x;
    __int128 r = wf_dec_round_to(unscaled, scale, (int)(d < -38 ? -38 : d), truncate);
    int rs = d < 0 ? 0 : (int)d;
    return wdec_to_double(r, rs);
}

static int64_t round_long(int64_t v, int64_t d, bool truncate)
{
    if (d >= 0) return v;
    if (d < -19) return 0;
    __int128 r = wf_dec_round_to((__int128)v, 0, (int)d, truncate);
    return (int64_t)r;
}

static void round_eval(const WExpr *call, WVector *const *av, int na, int n, const uint8_t *act, WVector *out, bool truncate)
{
    const WType *rt = call->type, *ta = av[0]->type;
    WF_FOR(i, n, act) {
        int64_t d = na > 1 ? av[1]->data[i].i : 0;
        WDatum x = av[0]->data[i];
        switch (ta->id) {
        case WT_DECIMAL: {
            int dd = d < -38 ? -38 : (d > 38 ? 38 : (int)d);
            __int128 r = wf_dec_round_to(x.dec, ta->scale, dd, truncate);
            int rs = dd < 0 ? 0 : (dd > ta->scale ? ta->scale : dd);
            __int128 o;
            if (!wdec_rescale(r, rs, rt->id == WT_DECIMAL ? rt->scale : rs, &o) ||
                (rt->id == WT_DECIMAL && !wdec_fits(o, rt->precision))) {
                out->nulls[i] = 1;
                continue;
            }
            out->data[i].dec = o;
            break;
        }
        case WT_FLOAT: case WT_DOUBLE: {
            double r = round_double(x.d, d, truncate);
            out->data[i].d = ta->id == WT_FLOAT ? (double)(float)r : r;
            break;
        }
        default:
            out->data[i].i = wrap_int(rt->id, (uint64_t)round_long(x.i, d, truncate));
            break;
        }
    }
}

EV(ev_round) { (void)ctx; round_eval(call, av, na, n, act, out, false); }
EV(ev_truncate) { (void)ctx; round_eval(call, av, na, n, act, out, true); }

/* ---------------------------------------------------------------- FLOOR / CEIL */

static const WType *inf_floor_ceil(WArena *a, const char *name, const WType **t, int n, const WType **co, WError *err, bool ceil_)
{
    if (n == 2) return wf_infer_time_floor(a, name, t, n, co, err, ceil_);
    if (n != 1 || !(wf_num(t[0]) || wtype_is_interval(t[0]))) {
        char f[256];
        snprintf(f, sizeof f, "%s(<NUMERIC>)\n%s(<DATETIME_INTERVAL>)\n%s(<DATE> TO <TIME_UNIT>)\n"
                 "%s(<TIME> TO <TIME_UNIT>)\n%s(<TIMESTAMP> TO <TIME_UNIT>)", name, name, name, name, name);
        return wf_err_apply(err, name, t, n, f);
    }
    if (wf_null(t[0])) return wtype_with_nullable(a, &WTYPE_INT, true);
    if (t[0]->id == WT_DECIMAL && t[0]->scale > 0) return wtype_decimal(a, t[0]->precision, 0, t[0]->nullable);
    return t[0];
}

INF(inf_floor) { return inf_floor_ceil(a, "FLOOR", t, n, co, err, false); }
INF(inf_ceil) { return inf_floor_ceil(a, "CEIL", t, n, co, err, true); }

static void floor_ceil(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, const uint8_t *act,
                       WVector *out, bool up)
{
    if (na == 2) { wf_eval_time_floor(ctx, call, av, na, n, act, out, up); return; }
    const WType *ta = av[0]->type;
    WF_FOR(i, n, act) {
        WDatum x = av[0]->data[i];
        if (ta->id == WT_DECIMAL) {
            __int128 pk = wpow10_i128(ta->scale);
            __int128 q = x.dec / pk, r = x.dec % pk;
            if (up && r > 0) q++;
            if (!up && r < 0) q--;
            out->data[i].dec = q;
        } else if (ta->id == WT_DOUBLE || ta->id == WT_FLOAT) {
            out->data[i].d = up ? ceil(x.d) : floor(x.d);
        } else {
            out->data[i].i = x.i;
        }
    }
}

EV(ev_floor) { floor_ceil(ctx, call, av, na, n, act, out, false); }
EV(ev_ceil) { floor_ceil(ctx, call, av, na, n, act, out, true); }

/* ---------------------------------------------------------------- constants and random */

INF(inf_pi) { (void)a; (void)co; if (!wf_check(err, "PI", t, n, "")) return NULL; return &WTYPE_DOUBLE_NN; }
INF(inf_e) { (void)a; (void)co; if (!wf_check(err, "E", t, n, "")) return NULL; return &WTYPE_DOUBLE_NN; }
EV(ev_pi) { UNUSED_EV; (void)av; WF_FOR(i, n, act) out->data[i].d = M_PI; }
EV(ev_e) { UNUSED_EV; (void)av; WF_FOR(i, n, act) out->data[i].d = M_E; }

/* java.util.Random */
typedef struct JRandom { uint64_t seed; bool seeded; } JRandom;

static void jr_set_seed(JRandom *r, int64_t seed)
{
    r->seed = ((uint64_t)seed ^ 0x5DEECE66DULL) & ((1ULL << 48) - 1);
    r->seeded = true;
}

static int32_t jr_next(JRandom *r, int bits)
{
    r->seed = (r->seed * 0x5DEECE66DULL + 0xBULL) & ((1ULL << 48) - 1);
    return (int32_t)(r->seed >> (48 - bits));
}

static double jr_next_double(JRandom *r)
{
    int64_t hi = (int64_t)jr_next(r, 26), lo = (int64_t)jr_next(r, 27);
    return (double)((hi << 27) + lo) * 0x1.0p-53;
}

static int32_t jr_next_int(JRandom *r, int32_t bound)
{
    if ((bound & -bound) == bound) return (int32_t)(((int64_t)bound * (int64_t)jr_next(r, 31)) >> 31);
    int32_t bits, val;
    do {
        bits = jr_next(r, 31);
        val = bits % bound;
    } while ((int64_t)bits - val + (bound - 1) > INT32_MAX);
    return val;
}

static bool prep_rand(WArena *a, WExpr *call, WError *err)
{
    (void)err;
    JRandom *r = WA_NEW(a, JRandom);
    bool seeded = false;
    bool is_int = strcmp(call->func->name, "RAND_INTEGER") == 0;
    if ((!is_int && call->nargs == 1) || (is_int && call->nargs == 2)) {
        const WExpr *s = call->args[0];
        if (s->kind == WX_LITERAL && !s->is_null) {
            int64_t seed = s->type->id == WT_DECIMAL ? (int64_t)(s->lit.dec / wpow10_i128(s->type->scale))
                         : wtype_is_approx(s->type) ? (int64_t)s->lit.d : s->lit.i;
            jr_set_seed(r, (int32_t)seed);
            seeded = true;
        }
    }
    if (!seeded) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        jr_set_seed(r, (int64_t)ts.tv_nsec ^ ((int64_t)ts.tv_sec << 20) ^ (int64_t)(uintptr_t)r);
        r->seeded = false;
    }
    call->aux = r;
    return true;
}

INF(inf_rand)
{
    (void)a; (void)co;
    if (!wf_check(err, "RAND", t, n, "|N")) return NULL;
    return &WTYPE_DOUBLE_NN;
}

INF(inf_rand_integer)
{
    (void)a; (void)co;
    if (!wf_check(err, "RAND_INTEGER", t, n, "N|NN")) return NULL;
    return &WTYPE_INT_NN;
}

static JRandom *rand_state(WEvalCtx *ctx, const WExpr *call)
{
    if (call->aux) return call->aux;
    /* not prepared: a per-chunk generator */
    JRandom *r = WA_NEW(ctx->arena, JRandom);
    jr_set_seed(r, ctx->now_ms ^ (int64_t)(uintptr_t)r);
    return r;
}

EV(ev_rand)
{
    (void)na;
    JRandom *r = rand_state(ctx, call);
    WF_FOR(i, n, act) { out->nulls[i] = 0; out->data[i].d = jr_next_double(r); }
    (void)av;
}

EV(ev_rand_integer)
{
    JRandom *r = rand_state(ctx, call);
    WF_FOR(i, n, act) {
        const WVector *bv = av[na - 1];
        if (bv->nulls[i]) { out->nulls[i] = 1; continue; }
        int64_t bound = wtype_is_approx(bv->type) ? (int64_t)bv->data[i].d
                      : bv->type->id == WT_DECIMAL ? (int64_t)(bv->data[i].dec / wpow10_i128(bv->type->scale))
                      : bv->data[i].i;
        if (bound <= 0 || bound > INT32_MAX) {
            wf_fail(ctx, WEXC_ILLEGAL_ARG, "bound must be positive");
            return;
        }
        out->nulls[i] = 0;
        out->data[i].i = jr_next_int(r, (int32_t)bound);
    }
}

/* ---------------------------------------------------------------- BIN / HEX */

INF(inf_bin)
{
    (void)co;
    if (!wf_check(err, "BIN", t, n, "I")) return NULL;
    return wf_string(a, wf_any_nullable(t, n));
}

EV(ev_bin)
{
    UNUSED_EV;
    WF_FOR(i, n, act) {
        uint64_t v = (uint64_t)av[0]->data[i].i;
        char buf[65];
        int k = 64;
        buf[k] = 0;
        do { buf[--k] = (char)('0' + (v & 1)); v >>= 1; } while (v);
        wf_set_str(ctx, out, i, buf + k, (size_t)(64 - k));
    }
}

INF(inf_hex)
{
    (void)co;
    if (!wf_check(err, "HEX", t, n, "I|S")) return NULL;
    return wf_string(a, wf_any_nullable(t, n));
}

EV(ev_hex)
{
    UNUSED_EV;
    static const char HX[] = "0123456789ABCDEF";
    bool is_int = wtype_is_integer(av[0]->type);
    WF_FOR(i, n, act) {
        if (is_int) {
            uint64_t v = (uint64_t)av[0]->data[i].i;
            char buf[17];
            int k = 16;
            do { buf[--k] = HX[v & 15]; v >>= 4; } while (v);
            wf_set_str(ctx, out, i, buf + k, (size_t)(16 - k));
        } else {
            WStr s = av[0]->data[i].s;
            char *p = wf_alloc(ctx, (size_t)s.len * 2);
            for (int j = 0; j < s.len; j++) {
                unsigned char c = (unsigned char)s.p[j];
                p[2 * j] = HX[c >> 4];
                p[2 * j + 1] = HX[c & 15];
            }
            wf_set_ref(out, i, p, s.len * 2);
        }
    }
}

/* UNHEX(string): the bytes of a hexadecimal text (Flink 2.3's UnhexFunction): pairs of digits
   from the end; an odd length leaves a 0 byte first (its first digit is checked, not used); a
   byte that is no hexadecimal digit gives NULL */
INF(inf_unhex)
{
    (void)co;
    if (!wf_check(err, "UNHEX", t, n, "S")) return NULL;
    WType *r = wtype_new(a, WT_VARBINARY, true);
    r->precision = WT_MAX_LENGTH;
    return r;
}

EV(ev_unhex)
{
    UNUSED_EV;
    WF_FOR(i, n, act) {
        WStr s = av[0]->data[i].s;
        const unsigned char *b = (const unsigned char *)s.p;
        int len = (s.len + 1) / 2, j = len - 1, k = s.len - 2;
        unsigned char *d = (unsigned char *)wf_alloc(ctx, (size_t)len);
        bool ok = true;
        for (; k >= 0 && ok; k -= 2, j--) {
            int l = wf_hex_digit(b[k]), r = wf_hex_digit(b[k + 1]);
            ok = l >= 0 && r >= 0;
            if (ok) d[j] = (unsigned char)(l << 4 | r);
        }
        if (ok && k == -1) {                    /* odd: b[0] is checked, d[0] stays 0 */
            ok = wf_hex_digit(b[0]) >= 0;
            d[0] = 0;
        }
        if (!ok) { out->nulls[i] = 1; continue; }
        out->nulls[i] = 0;
        wf_set_ref(out, i, (const char *)d, len);
    }
}

/* ---------------------------------------------------------------- table */

#define DEF(var, name, mn, mx, hn, det, inf, ev, prep) \
    static const WFuncDef var = { name, mn, mx, hn, det, inf, ev, prep };

DEF(D_ABS, "ABS", 1, 1, false, true, inf_abs, ev_abs, NULL)
DEF(D_SIGN, "SIGN", 1, 1, false, true, inf_sign, ev_sign, NULL)
DEF(D_ROUND, "ROUND", 1, 2, false, true, inf_round, ev_round, prep_round)
DEF(D_TRUNCATE, "TRUNCATE", 1, 2, false, true, inf_truncate, ev_truncate, prep_round)
DEF(D_FLOOR, "FLOOR", 1, 2, false, true, inf_floor, ev_floor, NULL)
DEF(D_CEIL, "CEIL", 1, 2, false, true, inf_ceil, ev_ceil, NULL)
DEF(D_POWER, "POWER", 2, 2, false, true, inf_power, ev_power, NULL)
DEF(D_ATAN2, "ATAN2", 2, 2, false, true, inf_atan2, ev_atan2, NULL)
DEF(D_LOG, "LOG", 1, 2, false, true, inf_log, ev_log, NULL)
DEF(D_SQRT, "SQRT", 1, 1, false, true, inf_sqrt, ev_double1, NULL)
DEF(D_EXP, "EXP", 1, 1, false, true, inf_exp, ev_double1, NULL)
DEF(D_LN, "LN", 1, 1, false, true, inf_ln, ev_double1, NULL)
DEF(D_LOG10, "LOG10", 1, 1, false, true, inf_log10, ev_double1, NULL)
DEF(D_LOG2, "LOG2", 1, 1, false, true, inf_log2, ev_double1, NULL)
DEF(D_SIN, "SIN", 1, 1, false, true, inf_sin, ev_double1, NULL)
DEF(D_COS, "COS", 1, 1, false, true, inf_cos, ev_double1, NULL)
DEF(D_TAN, "TAN", 1, 1, false, true, inf_tan, ev_double1, NULL)
DEF(D_COT, "COT", 1, 1, false, true, inf_cot, ev_double1, NULL)
DEF(D_ASIN, "ASIN", 1, 1, false, true, inf_asin, ev_double1, NULL)
DEF(D_ACOS, "ACOS", 1, 1, false, true, inf_acos, ev_double1, NULL)
DEF(D_ATAN, "ATAN", 1, 1, false, true, inf_atan, ev_double1, NULL)
DEF(D_SINH, "SINH", 1, 1, false, true, inf_sinh, ev_double1, NULL)
DEF(D_COSH, "COSH", 1, 1, false, true, inf_cosh, ev_double1, NULL)
DEF(D_TANH, "TANH", 1, 1, false, true, inf_tanh, ev_double1, NULL)
DEF(D_DEGREES, "DEGREES", 1, 1, false, true, inf_degrees, ev_double1, NULL)
DEF(D_RADIANS, "RADIANS", 1, 1, false, true, inf_radians, ev_double1, NULL)
DEF(D_PI, "PI", 0, 0, false, true, inf_pi, ev_pi, NULL)
DEF(D_E, "E", 0, 0, false, true, inf_e, ev_e, NULL)
DEF(D_RAND, "RAND", 0, 1, true, false, inf_rand, ev_rand, prep_rand)
DEF(D_RAND_INTEGER, "RAND_INTEGER", 1, 2, true, false, inf_rand_integer, ev_rand_integer, prep_rand)
DEF(D_BIN, "BIN", 1, 1, false, true, inf_bin, ev_bin, NULL)
DEF(D_HEX, "HEX", 1, 1, false, true, inf_hex, ev_hex, NULL)
DEF(D_UNHEX, "UNHEX", 1, 1, false, true, inf_unhex, ev_unhex, NULL)

const WFuncDef *const wf_numeric_defs[] = {
    &D_ABS, &D_SIGN, &D_ROUND, &D_TRUNCATE, &D_FLOOR, &D_CEIL, &D_POWER, &D_ATAN2, &D_LOG, &D_SQRT,
    &D_EXP, &D_LN, &D_LOG10, &D_LOG2, &D_SIN, &D_COS, &D_TAN, &D_COT, &D_ASIN, &D_ACOS, &D_ATAN,
    &D_SINH, &D_COSH, &D_TANH, &D_DEGREES, &D_RADIANS, &D_PI, &D_E, &D_RAND, &D_RAND_INTEGER,
    &D_BIN, &D_HEX, &D_UNHEX, NULL
};
