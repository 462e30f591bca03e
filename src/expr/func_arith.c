/*
 * func_arith.c — arithmetic operators as functions: "+", "-", "*", "/", "%", MOD, "NEG", with
 * Flink's result types (type.h derivations) and Java's runtime semantics: integer arithmetic
 * wraps at the result width, integer division/modulo by zero raises
 * java.lang.ArithmeticException "/ by zero", DOUBLE follows IEEE, DECIMAL rounds HALF_UP at the
 * result scale and gives NULL on overflow. Also temporal +/- interval and interval arithmetic.
 * Arguments of mixed numeric types are read as the operation type inside the loops, so the
 * binder needs no coercions. Depends on func_impl.h, types/.
 */
#include "func_impl.h"

#include <math.h>

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD };

static const char *const OP_NAME[] = { "+", "-", "*", "/", "%" };

static const char *const OP_FORMS[] = {
    "<NUMERIC> + <NUMERIC>\n<DATETIME_INTERVAL> + <DATETIME_INTERVAL>\n<DATETIME> + <DATETIME_INTERVAL>\n"
    "<DATETIME_INTERVAL> + <DATETIME>",
    "<NUMERIC> - <NUMERIC>\n<DATETIME_INTERVAL> - <DATETIME_INTERVAL>\n<DATETIME> - <DATETIME_INTERVAL>",
    "<NUMERIC> * <NUMERIC>\n<DATETIME_INTERVAL> * <NUMERIC>\n<NUMERIC> * <DATETIME_INTERVAL>",
    "<NUMERIC> / <NUMERIC>\n<DATETIME_INTERVAL> / <NUMERIC>",
    "<EXACT_NUMERIC> % <EXACT_NUMERIC>",
};

/* ---------------------------------------------------------------- inference */

static const WType *strip_attr(WArena *a, const WType *t, bool nullable)
{
    return wtype_with_nullable(a, wtype_with_time_attr(a, t, WTA_NONE), nullable);
}

static const WType *infer_op(WArena *a, int op, const WType **t, int n, const WType **co, WError *err)
{
    (void)co;
    if (n != 2) return wf_err_apply_op(err, OP_NAME[op], t, n, OP_FORMS[op]);
    const WType *x = t[0], *y = t[1];
    bool nullable = wf_any_nullable(t, 2);
    if (op == OP_MOD) {
        bool ex = (wf_null(x) || wtype_is_exact_numeric(x)) && (wf_null(y) || wtype_is_exact_numeric(y));
        if (!ex) return wf_err_apply_op(err, "%", t, n, OP_FORMS[op]);
        return wtype_mod(a, x, y);
    }
    if (wf_num(x) && wf_num(y)) {
        switch (op) {
        case OP_ADD: case OP_SUB: return wtype_plus_minus(a, x, y);
        case OP_MUL: return wtype_multiply(a, x, y);
        default: return wtype_divide(a, x, y);
        }
    }
    if (op == OP_ADD || op == OP_SUB) {
        if (wtype_is_temporal(x) && (wtype_is_interval(y) || wf_null(y))) return strip_attr(a, x, nullable);
        if (op == OP_ADD && (wtype_is_interval(x) || wf_null(x)) && wtype_is_temporal(y)) return strip_attr(a, y, nullable);
        if (wtype_is_interval(x) && wtype_is_interval(y) && x->id == y->id) return wtype_common(a, x, y);
        if (wtype_is_interval(x) && wf_null(y)) return wtype_with_nullable(a, x, true);
        if (wf_null(x) && wtype_is_interval(y)) return wtype_with_nullable(a, y, true);
    }
    if (op == OP_MUL || op == OP_DIV) {
        if (wtype_is_interval(x) && wf_num(y) && !wf_null(y)) return wtype_with_nullable(a, x, nullable);
        if (op == OP_MUL && wf_num(x) && !wf_null(x) && wtype_is_interval(y)) return wtype_with_nullable(a, y, nullable);
    }
    return wf_err_apply_op(err, OP_NAME[op], t, n, OP_FORMS[op]);
}

static const WType *infer_add(WArena *a, const WType **t, int n, const WType **co, WError *err) { return infer_op(a, OP_ADD, t, n, co, err); }
static const WType *infer_sub(WArena *a, const WType **t, int n, const WType **co, WError *err) { return infer_op(a, OP_SUB, t, n, co, err); }
static const WType *infer_mul(WArena *a, const WType **t, int n, const WType **co, WError *err) { return infer_op(a, OP_MUL, t, n, co, err); }
static const WType *infer_div(WArena *a, const WType **t, int n, const WType **co, WError *err) { return infer_op(a, OP_DIV, t, n, co, err); }
static const WType *infer_pct(WArena *a, const WType **t, int n, const WType **co, WError *err) { return infer_op(a, OP_MOD, t, n, co, err); }

static const WType *infer_modfn(WArena *a, const WType **t, int n, const WType **co, WError *err)
{
    (void)co;
    bool ex = n == 2 && (wf_null(t[0]) || wtype_is_exact_numeric(t[0])) && (wf_null(t[1]) || wtype_is_exact_numeric(t[1]));
    if (!ex) return wf_err_apply(err, "MOD", t, n, "MOD(<EXACT_NUMERIC>, <EXACT_NUMERIC>)");
    return wtype_mod(a, t[0], t[1]);
}

static const WType *infer_neg(WArena *a, const WType **t, int n, const WType **co, WError *err)
{
    (void)co;
    if (n != 1 || !(wf_num(t[0]) || wtype_is_interval(t[0])))
        return wf_err_apply_op(err, "-", t, n, "-<NUMERIC>\n-<DATETIME_INTERVAL>");
    if (wf_null(t[0])) return wtype_with_nullable(a, &WTYPE_INT, true);
    return t[0];
}

/* ---------------------------------------------------------------- evaluation */

static inline int64_t wrap_int(WTypeId id, uint64_t v)
{
    switch (id) {
    case WT_TINYINT: return (int8_t)(uint8_t)v;
    case WT_SMALLINT: return (int16_t)(uint16_t)v;
    case WT_INT: return (int32_t)(uint32_t)v;
    default: return (int64_t)v;
    }
}

/* value of a numeric datum as (unscaled, scale) for DECIMAL arithmetic */
/* The scale of an exact operand's unscaled value (an integer's is 0). */
static inline int dec_scale(const WType *t) { return t->id == WT_DECIMAL ? t->scale : 0; }

static inline __int128 as_dec(const WType *t, WDatum v, int *scale)
{
    *scale = dec_scale(t);
    return t->id == WT_DECIMAL ? v.dec : (__int128)v.i;
}

static void eval_int(WEvalCtx *ctx, int op, WTypeId rid, WVector *const *av, int n, const uint8_t *act, WVector *out)
{
    const WDatum *a = av[0]->data, *b = av[1]->data;
    WDatum *o = out->data;
    /* wrapping arithmetic at the result width, one tight loop per (op, width) */
#define ILOOP(T, OPR) for (int i = 0; i < n; i++) o[i].i = (int64_t)(T)((uint64_t)a[i].i OPR (uint64_t)b[i].i)
#define IWIDTH(OPR) \
    switch (rid) { \
    case WT_TINYINT: ILOOP(int8_t, OPR); break; \
    case WT_SMALLINT: ILOOP(int16_t, OPR); break; \
    case WT_INT: ILOOP(int32_t, OPR); break; \
    default: ILOOP(int64_t, OPR); break; \
    }
    switch (op) {
    case OP_ADD: IWIDTH(+); return;
    case OP_SUB: IWIDTH(-); return;
    case OP_MUL: IWIDTH(*); return;
    default:
        WF_FOR(i, n, act) {
            int64_t x = a[i].i, y = b[i].i;
            if (y == 0) { wf_fail(ctx, WEXC_ARITH, "/ by zero"); return; }
            if (y == -1) { o[i].i = op == OP_DIV ? wrap_int(rid, (uint64_t)0 - (uint64_t)x) : 0; continue; }
            o[i].i = wrap_int(rid, (uint64_t)(op == OP_DIV ? x / y : x % y));
        }
    }
}

static void eval_double(int op, const WType *rt, WVector *const *av, int n, const uint8_t *act, WVector *out)
{
    const WType *ta = av[0]->type, *tb = av[1]->type;
    WDatum *o = out->data;
    bool fast = ta->id == WT_DOUBLE && tb->id == WT_DOUBLE;
    if (fast) {
        const WDatum *a = av[0]->data, *b = av[1]->data;
        switch (op) {
        case OP_ADD: for (int i = 0; i < n; i++) o[i].d = a[i].d + b[i].d; return;
        case OP_SUB: for (int i = 0; i < n; i++) o[i].d = a[i].d - b[i].d; return;
        case OP_MUL: for (int i = 0; i < n; i++) o[i].d = a[i].d * b[i].d; return;
        case OP_DIV: for (int i = 0; i < n; i++) o[i].d = a[i].d / b[i].d; return;
        default: break;
        }
    }
    WF_FOR(i, n, act) {
        double x = wf_as_double(ta, av[0]->data[i]), y = wf_as_double(tb, av[1]->data[i]), r;
        switch (op) {
        case OP_ADD: r = x + y; break;
        case OP_SUB: r = x - y; break;
        case OP_MUL: r = x * y; break;
        case OP_DIV: r = x / y; break;
        default: r = fmod(x, y); break;
        }
        o[i].d = rt->id == WT_FLOAT ? (double)(float)r : r;
    }
}

static void eval_decimal(WEvalCtx *ctx, int op, const WType *rt, WVector *const *av, int n, const uint8_t *act,
                         WVector *out)
{
    const WType *ta = av[0]->type, *tb = av[1]->type;
    /* a product at the sum of the scales (no rounding): one 128-bit multiply; a product that
       overflows 128 bits has more than 38 digits and takes the exact path below to its NULL */
    bool mul_exact = op == OP_MUL && dec_scale(ta) + dec_scale(tb) == rt->scale;
    WF_FOR(i, n, act) {
        int sa, sb, rc;
        __int128 x = as_dec(ta, av[0]->data[i], &sa), y = as_dec(tb, av[1]->data[i], &sb), r = 0;
        if (mul_exact && !__builtin_mul_overflow(x, y, &r)) {
            if (wdec_fits(r, rt->precision)) out->data[i].dec = r;
            else out->nulls[i] = 1;
            continue;
        }
        switch (op) {
        case OP_ADD: rc = wf_dec_add(x, sa, y, sb, rt->precision, rt->scale, false, &r); break;
        case OP_SUB: rc = wf_dec_add(x, sa, y, sb, rt->precision, rt->scale, true, &r); break;
        case OP_MUL: rc = wf_dec_mul(x, sa, y, sb, rt->precision, rt->scale, &r); break;
        case OP_DIV: rc = wf_dec_div(x, sa, y, sb, rt->precision, rt->scale, &r); break;
        default: rc = wf_dec_mod(x, sa, y, sb, rt->precision, rt->scale, &r); break;
        }
        if (rc == 2) { wf_fail(ctx, WEXC_ARITH, "Division by zero"); return; }
        if (rc == 3) { wf_fail(ctx, WEXC_ARITH, "Division undefined"); return; }
        if (rc == 1) { out->nulls[i] = 1; continue; }
        out->data[i].dec = r;
    }
}

/* DateTimeUtils.addMonths on epoch days */
static int64_t add_months_days(int64_t date, int64_t m)
{
    int y, mo, d;
    wdate_to_ymd(date, &y, &mo, &d);
    int64_t m0 = (int64_t)mo + m;
    int64_t dy = m0 >= 0 ? m0 / 12 : -((-m0 + 11) / 12);
    int64_t yy = y + dy;
    m0 -= dy * 12;
    if (m0 == 0) { yy -= 1; m0 = 12; }
    int last = wdate_days_in_month((int)yy, (int)m0);
    if (d > last) d = last;
    return wdate_from_ymd((int)yy, (int)m0, d);
}

static int64_t floor_div(int64_t a, int64_t b) { int64_t q = a / b; if ((a % b != 0) && ((a < 0) != (b < 0))) q--; return q; }
static int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

static int64_t add_months_ms(int64_t ms, int64_t m)
{
    int64_t millis = floor_mod(ms, 86400000LL);
    int64_t days = (ms - millis) / 86400000LL;
    return add_months_days(days, m) * 86400000LL + millis;
}

static void eval_temporal(int op, const WType *rt, WVector *const *av, int n, const uint8_t *act, WVector *out)
{
    int ti = wtype_is_temporal(av[0]->type) ? 0 : 1;
    const WVector *tv = av[ti], *iv = av[1 - ti];
    bool months = iv->type->id == WT_INTERVAL_YM;
    int sign = op == OP_SUB ? -1 : 1;
    WF_FOR(i, n, act) {
        int64_t iv_i = sign * iv->data[i].i;
        WDatum t = tv->data[i], r = t;
        switch (rt->id) {
        case WT_DATE:
            r.i = months ? add_months_days(t.i, iv_i) : t.i + iv_i / 86400000LL;
            break;
        case WT_TIME:
            r.i = months ? t.i : floor_mod(t.i + iv_i, 86400000LL);
            break;
        default:
            r.ts.ms = months ? add_months_ms(t.ts.ms, iv_i) : t.ts.ms + iv_i;
            r.ts.ns = t.ts.ns;
            break;
        }
        out->data[i] = r;
    }
}

static void eval_interval(int op, WVector *const *av, int n, const uint8_t *act, WVector *out)
{
    const WType *ta = av[0]->type, *tb = av[1]->type;
    WF_FOR(i, n, act) {
        if (wtype_is_interval(ta) && wtype_is_interval(tb)) {
            out->data[i].i = op == OP_ADD ? av[0]->data[i].i + av[1]->data[i].i : av[0]->data[i].i - av[1]->data[i].i;
            continue;
        }
        int ii = wtype_is_interval(ta) ? 0 : 1;
        int64_t v = av[ii]->data[i].i;
        const WType *nt = av[1 - ii]->type;
        double f = wf_as_double(nt, av[1 - ii]->data[i]);
        if (op == OP_MUL) out->data[i].i = wtype_is_integer(nt) ? (int64_t)((uint64_t)v * (uint64_t)av[1 - ii]->data[i].i) : (int64_t)llround((double)v * f);
        else out->data[i].i = wtype_is_integer(nt) && av[1 - ii]->data[i].i != 0 ? v / av[1 - ii]->data[i].i
                                                                                 : (int64_t)llround((double)v / f);
    }
}

static void eval_op(WEvalCtx *ctx, int op, const WExpr *call, WVector *const *av, int n, const uint8_t *act, WVector *out)
{
    const WType *rt = call->type;
    if (wtype_is_integer(rt)) eval_int(ctx, op, rt->id, av, n, act, out);
    else if (rt->id == WT_DOUBLE || rt->id == WT_FLOAT) eval_double(op, rt, av, n, act, out);
    else if (rt->id == WT_DECIMAL) eval_decimal(ctx, op, rt, av, n, act, out);
    else if (wtype_is_temporal(rt)) eval_temporal(op, rt, av, n, act, out);
    else if (wtype_is_interval(rt)) eval_interval(op, av, n, act, out);
    else wf_fail(ctx, WEXC_TABLE, "Unsupported operand types for '%s'.", OP_NAME[op]);
}

#define OPFN(nm, op) \
    static void nm(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, const uint8_t *act, WVector *out) \
    { (void)na; eval_op(ctx, op, call, av, n, act, out); }
OPFN(ev_add, OP_ADD)
OPFN(ev_sub, OP_SUB)
OPFN(ev_mul, OP_MUL)
OPFN(ev_div, OP_DIV)
OPFN(ev_mod, OP_MOD)

static void ev_neg(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, const uint8_t *act, WVector *out)
{
    (void)ctx; (void)na;
    const WType *rt = call->type;
    const WDatum *a = av[0]->data;
    if (wtype_is_integer(rt) || wtype_is_interval(rt)) {
        for (int i = 0; i < n; i++) out->data[i].i = wrap_int(rt->id, (uint64_t)0 - (uint64_t)a[i].i);
    } else if (rt->id == WT_DECIMAL) {
        WF_FOR(i, n, act) out->data[i].dec = -a[i].dec;
    } else {
        for (int i = 0; i < n; i++) out->data[i].d = -a[i].d;
    }
}

static const WFuncDef WF_PLUS = { "+", 2, 2, false, true, infer_add, ev_add, NULL };
static const WFuncDef WF_MINUS = { "-", 2, 2, false, true, infer_sub, ev_sub, NULL };
static const WFuncDef WF_TIMES = { "*", 2, 2, false, true, infer_mul, ev_mul, NULL };
static const WFuncDef WF_DIVIDE = { "/", 2, 2, false, true, infer_div, ev_div, NULL };
static const WFuncDef WF_PERCENT = { "%", 2, 2, false, true, infer_pct, ev_mod, NULL };
static const WFuncDef WF_MOD = { "MOD", 2, 2, false, true, infer_modfn, ev_mod, NULL };
static const WFuncDef WF_NEG = { "NEG", 1, 1, false, true, infer_neg, ev_neg, NULL };

const WFuncDef *const wf_arith_defs[] = {
    &WF_PLUS, &WF_MINUS, &WF_TIMES, &WF_DIVIDE, &WF_PERCENT, &WF_MOD, &WF_NEG, NULL
};
