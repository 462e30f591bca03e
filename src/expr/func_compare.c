/*
 * func_compare.c — comparison and conditional functions: = <> < <= > >= (operands coerced to
 * their common type), IS [NOT] DISTINCT FROM, IS [NOT] TRUE/FALSE/UNKNOWN, LIKE (with ESCAPE,
 * Flink's error messages for bad escapes), GREATEST, LEAST, NULLIF, IFNULL, IF (evaluated lazily
 * by eval.c), IS_ALPHA, IS_DIGIT, IS_DECIMAL. Also wf_eq/wf_cmp used by IN and friends.
 * Depends on func_impl.h, types/.
 */
#include "func_impl.h"
#include "../common/memfind.h"

#include <stdlib.h>

/* ---------------------------------------------------------------- value comparison */

static int cmp_bytes(WStr a, WStr b)
{
    int n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.p, b.p, (size_t)n) : 0;
    if (c) return c < 0 ? -1 : 1;
    return (a.len > b.len) - (a.len < b.len);
}

int wf_cmp(const WType *t, WDatum a, WDatum b)
{
    switch (t->id) {
    case WT_BOOLEAN: case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
    case WT_DATE: case WT_TIME: case WT_INTERVAL_YM: case WT_INTERVAL_DT:
        return (a.i > b.i) - (a.i < b.i);
    case WT_FLOAT: case WT_DOUBLE:
        return (a.d > b.d) - (a.d < b.d);
    case WT_DECIMAL:
        return (a.dec > b.dec) - (a.dec < b.dec);
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
        return cmp_bytes(a.s, b.s);
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
        if (a.ts.ms != b.ts.ms) return a.ts.ms < b.ts.ms ? -1 : 1;
        return (a.ts.ns > b.ts.ns) - (a.ts.ns < b.ts.ns);
    default:
        return wdatum_compare(t, a, b);
    }
}

bool wf_eq(const WType *t, WDatum a, WDatum b)
{
    switch (t->id) {
    case WT_FLOAT: case WT_DOUBLE: return a.d == b.d;
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
        return a.s.len == b.s.len && (a.s.len == 0 || memcmp(a.s.p, b.s.p, (size_t)a.s.len) == 0);
    case WT_ARRAY: case WT_MAP: case WT_MULTISET: case WT_ROW:
        return wdatum_equal(t, a, b);
    default: return wf_cmp(t, a, b) == 0;
    }
}

/* ---------------------------------------------------------------- comparison inference */

/* Decide the comparison type of x and y and request coercions. NULL when not comparable. */
static const WType *compare_type(WArena *a, const WType **t, const WType **co, bool ordered)
{
    const WType *x = t[0], *y = t[1];
    if (wf_null(x) && wf_null(y)) return &WTYPE_NULL;
    if (wf_null(x)) { co[0] = wtype_with_nullable(a, wtype_with_time_attr(a, y, WTA_NONE), true); return y; }
    if (wf_null(y)) { co[1] = wtype_with_nullable(a, wtype_with_time_attr(a, x, WTA_NONE), true); return x; }
    const WType *c = NULL;
    if (wtype_is_numeric(x) && wtype_is_numeric(y)) c = wtype_common(a, x, y);
    else if (wtype_is_string(x) && wtype_is_string(y)) return x;
    else if (wtype_is_binary(x) && wtype_is_binary(y)) return x;
    else if (x->id == WT_BOOLEAN && y->id == WT_BOOLEAN) return x;
    else if (wtype_is_string(x) && (wtype_is_numeric(y) || wtype_is_temporal(y) || y->id == WT_BOOLEAN)) {
        co[0] = wtype_with_nullable(a, wtype_with_time_attr(a, y, WTA_NONE), x->nullable);
        return y;
    } else if (wtype_is_string(y) && (wtype_is_numeric(x) || wtype_is_temporal(x) || x->id == WT_BOOLEAN)) {
        co[1] = wtype_with_nullable(a, wtype_with_time_attr(a, x, WTA_NONE), y->nullable);
        return x;
    } else if (wtype_is_temporal(x) && wtype_is_temporal(y)) {
        if (x->id == y->id && x->id != WT_TIMESTAMP_LTZ && x->id != WT_TIMESTAMP) return x;
        if (wtype_is_timestamp(x) && x->id == y->id) return x;   /* precisions share a representation */
        c = wtype_common(a, x, y);
    } else if (wtype_is_interval(x) && x->id == y->id) return x;
    else if (!ordered && x->id == y->id && wtype_is_composite(x)) return x;
    else if (ordered && x->id == y->id && x->id == WT_ROW) return x;
    if (!c) return NULL;
    for (int i = 0; i < 2; i++) {
        if (!wtype_equals(t[i], c, true) || t[i]->time_attr != WTA_NONE)
            if (!(wtype_is_timestamp(t[i]) && t[i]->id == c->id))
                co[i] = wtype_with_nullable(a, c, t[i]->nullable);
    }
    return c;
}

static const char *const CMP_NAMES[] = { "=", "<>", "<", "<=", ">", ">=" };
enum { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE };

static const WType *infer_cmp(WArena *a, int op, const WType **t, int n, const WType **co, WError *err)
{
    const char *forms = op <= C_NE ? "<COMPARABLE_TYPE> %s <COMPARABLE_TYPE>" : "<COMPARABLE_TYPE> %s <COMPARABLE_TYPE>";
    char f[80];
    snprintf(f, sizeof f, forms, CMP_NAMES[op]);
    if (n != 2 || !compare_type(a, t, co, op > C_NE)) return wf_err_apply_op(err, CMP_NAMES[op], t, n, f);
    return wf_type(a, WT_BOOLEAN, wf_any_nullable(t, 2));
}

#define INFER_CMP(nm, op) \
    static const WType *nm(WArena *a, const WType **t, int n, const WType **co, WError *err) \
    { return infer_cmp(a, op, t, n, co, err); }
INFER_CMP(inf_eq, C_EQ)
INFER_CMP(inf_ne, C_NE)
INFER_CMP(inf_lt, C_LT)
INFER_CMP(inf_le, C_LE)
INFER_CMP(inf_gt, C_GT)
INFER_CMP(inf_ge, C_GE)

static inline int64_t apply_cmp(int op, int c)
{
    switch (op) {
    case C_EQ: return c == 0;
    case C_NE: return c != 0;
    case C_LT: return c < 0;
    case C_LE: return c <= 0;
    case C_GT: return c > 0;
    default: return c >= 0;
    }
}

/* compare two values that may be of different numeric types */
static int cmp_mixed(const WType *ta, WDatum a, const WType *tb, WDatum b)
{
    if (ta->id == tb->id && (ta->id != WT_DECIMAL || ta->scale == tb->scale)) return wf_cmp(ta, a, b);
    if (wtype_is_numeric(ta) && wtype_is_numeric(tb)) {
        if (wtype_is_approx(ta) || wtype_is_approx(tb)) {
            double x = wf_as_double(ta, a), y = wf_as_double(tb, b);
            return (x > y) - (x < y);
        }
        if (wtype_is_integer(ta) && wtype_is_integer(tb)) return (a.i > b.i) - (a.i < b.i);
        int sa = ta->id == WT_DECIMAL ? ta->scale : 0, sb = tb->id == WT_DECIMAL ? tb->scale : 0;
        __int128 x = ta->id == WT_DECIMAL ? a.dec : a.i, y = tb->id == WT_DECIMAL ? b.dec : b.i;
        int m = sa > sb ? sa : sb;
        if (!wdec_rescale(x, sa, m, &x) || !wdec_rescale(y, sb, m, &y)) {
            double dx = wf_as_double(ta, a), dy = wf_as_double(tb, b);
            return (dx > dy) - (dx < dy);
        }
        return (x > y) - (x < y);
    }
    return wf_cmp(ta, a, b);
}

static void eval_cmp(int op, WVector *const *av, int n, const uint8_t *act, WVector *out)
{
    const WType *ta = av[0]->type, *tb = av[1]->type;
    const WDatum *a = av[0]->data, *b = av[1]->data;
    WDatum *o = out->data;
    bool intlike = ta->id == tb->id && (wtype_is_integer(ta) || ta->id == WT_DATE || ta->id == WT_TIME ||
                                        ta->id == WT_BOOLEAN || wtype_is_interval(ta));
    if (intlike || (wtype_is_integer(ta) && wtype_is_integer(tb))) {
        switch (op) {
        case C_EQ: for (int i = 0; i < n; i++) o[i].i = a[i].i == b[i].i; return;
        case C_NE: for (int i = 0; i < n; i++) o[i].i = a[i].i != b[i].i; return;
        case C_LT: for (int i = 0; i < n; i++) o[i].i = a[i].i < b[i].i; return;
        case C_LE: for (int i = 0; i < n; i++) o[i].i = a[i].i <= b[i].i; return;
        case C_GT: for (int i = 0; i < n; i++) o[i].i = a[i].i > b[i].i; return;
        default: for (int i = 0; i < n; i++) o[i].i = a[i].i >= b[i].i; return;
        }
    }
    if (ta->id == WT_DOUBLE && tb->id == WT_DOUBLE) {
        switch (op) {
        case C_EQ: for (int i = 0; i < n; i++) o[i].i = a[i].d == b[i].d; return;
        case C_NE: for (int i = 0; i < n; i++) o[i].i = a[i].d != b[i].d; return;
        case C_LT: for (int i = 0; i < n; i++) o[i].i = a[i].d < b[i].d; return;
        case C_LE: for (int i = 0; i < n; i++) o[i].i = a[i].d <= b[i].d; return;
        case C_GT: for (int i = 0; i < n; i++) o[i].i = a[i].d > b[i].d; return;
        default: for (int i = 0; i < n; i++) o[i].i = a[i].d >= b[i].d; return;
        }
    }
    if (wtype_is_approx(ta) || wtype_is_approx(tb)) {
        WF_FOR(i, n, act) {
            double x = wf_as_double(ta, a[i]), y = wf_as_double(tb, b[i]);
            int64_t r;
            switch (op) {
            case C_EQ: r = x == y; break;
            case C_NE: r = x != y; break;
            case C_LT: r = x < y; break;
            case C_LE: r = x <= y; break;
            case C_GT: r = x > y; break;
            default: r = x >= y; break;
            }
            o[i].i = r;
        }
        return;
    }
    if (wtype_is_string(ta) || wtype_is_binary(ta)) {
        if (op == C_EQ || op == C_NE) {
            WF_FOR(i, n, act) {
                bool eq = a[i].s.len == b[i].s.len && (a[i].s.len == 0 || memcmp(a[i].s.p, b[i].s.p, (size_t)a[i].s.len) == 0);
                o[i].i = op == C_EQ ? eq : !eq;
            }
            return;
        }
        WF_FOR(i, n, act) o[i].i = apply_cmp(op, cmp_bytes(a[i].s, b[i].s));
        return;
    }
    if (op <= C_NE && wtype_is_composite(ta)) {
        WF_FOR(i, n, act) o[i].i = apply_cmp(op, wdatum_equal(ta, a[i], b[i]) ? 0 : 1);
        return;
    }
    WF_FOR(i, n, act) o[i].i = apply_cmp(op, cmp_mixed(ta, a[i], tb, b[i]));
}

#define EVAL_CMP(nm, op) \
    static void nm(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, const uint8_t *act, WVector *out) \
    { (void)ctx; (void)call; (void)na; eval_cmp(op, av, n, act, out); }
EVAL_CMP(ev_eq, C_EQ)
EVAL_CMP(ev_ne, C_NE)
EVAL_CMP(ev_lt, C_LT)
EVAL_CMP(ev_le, C_LE)
EVAL_CMP(ev_gt, C_GT)
EVAL_CMP(ev_ge, C_GE)

/* ---------------------------------------------------------------- IS DISTINCT FROM */

static const WType *inf_distinct(WArena *a, const WType **t, int n, const WType **co, WError *err)
{
    if (n != 2 || !compare_type(a, t, co, false))
        return wf_err_apply_op(err, "IS DISTINCT FROM", t, n, "<COMPARABLE_TYPE> IS DISTINCT FROM <COMPARABLE_TYPE>");
    return &WTYPE_BOOLEAN_NN;
}

static const WType *inf_not_distinct(WArena *a, const WType **t, int n, const WType **co, WError *err)
{
    if (n != 2 || !compare_type(a, t, co, false))
        return wf_err_apply_op(err, "IS NOT DISTINCT FROM", t, n, "<COMPARABLE_TYPE> IS NOT DISTINCT FROM <COMPARABLE_TYPE>");
    return &WTYPE_BOOLEAN_NN;
}

static void distinct(WVector *const *av, int n, const uint8_t *act, WVector *out, bool want_distinct)
{
    const WType *ta = av[0]->type, *tb = av[1]->type;
    WF_FOR(i, n, act) {
        bool na = av[0]->nulls[i], nb = av[1]->nulls[i], d;
        if (na || nb) d = na != nb;
        else if (ta->id == tb->id) d = !wf_eq(ta, av[0]->data[i], av[1]->data[i]);
        else d = cmp_mixed(ta, av[0]->data[i], tb, av[1]->data[i]) != 0;
        out->nulls[i] = 0;
        out->data[i].i = want_distinct ? d : !d;
    }
}

static void ev_distinct(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, const uint8_t *act, WVector *out)
{ (void)ctx; (void)call; (void)na; distinct(av, n, act, out, true); }
static void ev_not_distinct(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, const uint8_t *act, WVector *out)
{ (void)ctx; (void)call; (void)na; distinct(av, n, act, out, false); }

/* ---------------------------------------------------------------- IS TRUE / FALSE / UNKNOWN */

enum { IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE, IS_UNKNOWN, IS_NOT_UNKNOWN };
static const char *const IS_NAMES[] = { "IS TRUE", "IS NOT TRUE", "IS FALSE", "IS NOT FALSE", "IS UNKNOWN", "IS NOT UNKNOWN" };

static const WType *inf_is(int k, const WType **t, int n, WError *err)
{
    if (n != 1 || !wf_bool(t[0])) {
        char f[64];
        snprintf(f, sizeof f, "<BOOLEAN> %s", IS_NAMES[k]);
        return wf_err_apply_op(err, IS_NAMES[k], t, n, f);
    }
    return &WTYPE_BOOLEAN_NN;
}

/* inlined into each IS_FN below: a loop per k, without the switch per row */
static inline __attribute__((always_inline)) void ev_is(int k, WVector *const *av, int n, const uint8_t *act, WVector *out)
{
    const uint8_t *xn = av[0]->nulls;
    const WDatum *xd = av[0]->data;
    uint8_t *on = out->nulls;
    WDatum *od = out->data;
    WF_FOR(i, n, act) {
        bool nul = xn[i], v = !nul && xd[i].i;
        bool r;
        switch (k) {
        case IS_TRUE: r = v; break;
        case IS_NOT_TRUE: r = !v; break;
        case IS_FALSE: r = !nul && !v; break;
        case IS_NOT_FALSE: r = nul || v; break;
        case IS_UNKNOWN: r = nul; break;
        default: r = !nul; break;
        }
        on[i] = 0;
        od[i].i = r;
    }
}

#define IS_FN(inf, ev, k) \
    static const WType *inf(WArena *a, const WType **t, int n, const WType **co, WError *err) \
    { (void)a; (void)co; return inf_is(k, t, n, err); } \
    static void ev(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, const uint8_t *act, WVector *out) \
    { (void)ctx; (void)call; (void)na; ev_is(k, av, n, act, out); }
IS_FN(inf_is_true, ev_is_true, IS_TRUE)
IS_FN(inf_is_not_true, ev_is_not_true, IS_NOT_TRUE)
IS_FN(inf_is_false, ev_is_false, IS_FALSE)
IS_FN(inf_is_not_false, ev_is_not_false, IS_NOT_FALSE)
IS_FN(inf_is_unknown, ev_is_unknown, IS_UNKNOWN)
IS_FN(inf_is_not_unknown, ev_is_not_unknown, IS_NOT_UNKNOWN)

/* ---------------------------------------------------------------- LIKE */

/* compiled LIKE pattern: code points, -1 = '_', -2 = '%' */
typedef struct LikePat {
    int n;
    int *tok;
    int quick;          /* LQ_*: Flink's fast paths for patterns without '_' */
    char *lit;          /* the literal part for the fast paths (UTF-8) */
    int litlen;
} LikePat;

enum { LQ_NONE, LQ_EQUALS, LQ_PREFIX, LQ_SUFFIX, LQ_CONTAINS, LQ_ANY };

static void like_classify(WArena *a, LikePat *lp)
{
    lp->quick = LQ_NONE;
    for (int i = 0; i < lp->n; i++)
        if (lp->tok[i] == -1) return;
    bool lead = lp->n > 0 && lp->tok[0] == -2, trail = lp->n > 1 && lp->tok[lp->n - 1] == -2;
    if (lp->n == 1 && lead) { lp->quick = LQ_ANY; return; }
    int b = lead ? 1 : 0, e = lp->n - (trail ? 1 : 0);
    for (int i = b; i < e; i++)
        if (lp->tok[i] == -2) return;
    lp->lit = WA_ARRAY(a, char, 4 * (e - b) + 1);
    lp->litlen = 0;
    for (int i = b; i < e; i++) lp->litlen += wf_u8_encode(lp->tok[i], lp->lit + lp->litlen);
    lp->quick = lead && trail ? LQ_CONTAINS : lead ? LQ_SUFFIX : trail ? LQ_PREFIX : LQ_EQUALS;
}

static bool like_compile(WArena *a, const char *p, int len, const char *esc, int esclen, LikePat *out, WError *err)
{
    int escape = -1;
    if (esc) {
        int adv = 0;
        if (esclen > 0) escape = wf_u8_decode(esc, esclen, &adv);
        if (esclen == 0 || adv != esclen) {
            werr_set(err, "java.lang.RuntimeException", "Invalid escape character '%.*s'", esclen, esc);
            return false;
        }
    }
    out->tok = WA_ARRAY(a, int, len + 1);
    out->n = 0;
    out->quick = LQ_NONE;
    out->lit = NULL;
    out->litlen = 0;
    int i = 0, ci = 0;
    while (i < len) {
        int adv;
        int c = wf_u8_decode(p + i, len - i, &adv);
        if (escape >= 0 && c == escape) {
            if (i + adv >= len) {
                werr_set(err, "java.lang.RuntimeException", "Invalid escape sequence '%.*s', %d", len, p, ci);
                return false;
            }
            int adv2;
            int d = wf_u8_decode(p + i + adv, len - i - adv, &adv2);
            if (d != '_' && d != '%' && d != escape) {
                werr_set(err, "java.lang.RuntimeException", "Invalid escape sequence '%.*s', %d", len, p, ci);
                return false;
            }
            out->tok[out->n++] = d;
            i += adv + adv2;
            ci += 2;
            continue;
        }
        if (c == '_') out->tok[out->n++] = -1;
        else if (c == '%') {
            if (!(out->n > 0 && out->tok[out->n - 1] == -2)) out->tok[out->n++] = -2;
        } else out->tok[out->n++] = c;
        i += adv;
        ci++;
    }
    return true;
}

static inline int next_cp(const char *s, int len, int *adv)
{
    if ((unsigned char)*s < 0x80) { *adv = 1; return (unsigned char)*s; }
    return wf_u8_decode(s, len, adv);
}

/* iterative wildcard match with single backtrack point per '%' (linear-ish) */
static bool like_match(const LikePat *pat, const char *s, int len)
{
    switch (pat->quick) {
    case LQ_ANY: return true;
    case LQ_EQUALS: return len == pat->litlen && memcmp(s, pat->lit, (size_t)len) == 0;
    case LQ_PREFIX: return len >= pat->litlen && memcmp(s, pat->lit, (size_t)pat->litlen) == 0;
    case LQ_SUFFIX: return len >= pat->litlen && memcmp(s + len - pat->litlen, pat->lit, (size_t)pat->litlen) == 0;
    case LQ_CONTAINS: return pat->litlen == 0 || (len >= pat->litlen && wmem_find(s, (size_t)len, pat->lit, (size_t)pat->litlen));
    default: break;
    }
    int ti = 0, si = 0;
    int star_t = -1, star_s = 0;
    while (si < len) {
        int adv;
        int c = next_cp(s + si, len - si, &adv);
        if (ti < pat->n && pat->tok[ti] == -2) {
            star_t = ti++;
            star_s = si;
            continue;
        }
        if (ti < pat->n && (pat->tok[ti] == -1 || pat->tok[ti] == c)) {
            ti++;
            si += adv;
            continue;
        }
        if (star_t >= 0) {
            ti = star_t + 1;
            int adv2;
            next_cp(s + star_s, len - star_s, &adv2);
            star_s += adv2;
            si = star_s;
            continue;
        }
        return false;
    }
    while (ti < pat->n && pat->tok[ti] == -2) ti++;
    return ti == pat->n;
}

static const WType *inf_like(WArena *a, const WType **t, int n, const WType **co, WError *err)
{
    (void)co;
    if (n < 2 || n > 3 || !wf_str(t[0]) || !wf_str(t[1]) || (n == 3 && !wf_str(t[2])))
        return wf_err_apply_op(err, "LIKE", t, n, "<STRING> LIKE <STRING>\n<STRING> LIKE <STRING> ESCAPE <STRING>");
    return wf_type(a, WT_BOOLEAN, wf_any_nullable(t, n));
}

static bool prep_like(WArena *a, WExpr *call, WError *err)
{
    const WExpr *p = call->args[1];
    const WExpr *e = call->nargs > 2 ? call->args[2] : NULL;
    if (p->kind != WX_LITERAL || p->is_null || (e && (e->kind != WX_LITERAL || e->is_null))) return true;
    LikePat *lp = WA_NEW(a, LikePat);
    if (!like_compile(a, p->lit.s.p, p->lit.s.len, e ? e->lit.s.p : NULL, e ? e->lit.s.len : 0, lp, err)) return false;
    like_classify(a, lp);
    call->aux = lp;
    return true;
}

static void ev_like(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, const uint8_t *act, WVector *out)
{
    const LikePat *fixed = call->aux;
    WF_FOR(i, n, act) {
        LikePat tmp;
        const LikePat *lp = fixed;
        if (!lp) {
            WStr p = av[1]->data[i].s;
            WStr e = na > 2 ? av[2]->data[i].s : (WStr){ NULL, 0 };
            if (!like_compile(ctx->arena, p.p, p.len, na > 2 ? e.p : NULL, e.len, &tmp, ctx->err)) return;
            lp = &tmp;
        }
        out->data[i].i = like_match(lp, av[0]->data[i].s.p, av[0]->data[i].s.len);
    }
}

/* ---------------------------------------------------------------- GREATEST / LEAST */

static const WType *common_of(WArena *a, const WType **t, int n, const WType **co, bool *ok)
{
    const WType *c = NULL;
    *ok = true;
    for (int i = 0; i < n; i++) {
        if (wf_null(t[i])) continue;
        c = c ? wtype_common(a, c, t[i]) : wtype_with_time_attr(a, t[i], WTA_NONE);
        if (!c) { *ok = false; return NULL; }
    }
    if (!c) return wtype_with_nullable(a, &WTYPE_NULL, true);
    bool nullable = false;
    for (int i = 0; i < n; i++) nullable |= t[i]->nullable || wf_null(t[i]);
    c = wtype_with_nullable(a, c, nullable);
    for (int i = 0; i < n; i++)
        if (!wtype_equals(t[i], c, true) || t[i]->time_attr != WTA_NONE)
            if (!(wtype_is_string(t[i]) && wtype_is_string(c)))
                co[i] = wtype_with_nullable(a, c, t[i]->nullable || wf_null(t[i]));
    return c;
}

static const WType *inf_greatest_least(const char *name, WArena *a, const WType **t, int n, const WType **co, WError *err)
{
    bool ok;
    const WType *c = n >= 1 ? common_of(a, t, n, co, &ok) : NULL;
    if (!c || !ok) {
        char sig[96];
        snprintf(sig, sizeof sig, "%s(<COMMON>, <COMMON>...)", name);
        return wf_err_invalid_call(err, name, t, n, sig);
    }
    return c;
}

static const WType *inf_greatest(WArena *a, const WType **t, int n, const WType **co, WError *err)
{ return inf_greatest_least("GREATEST", a, t, n, co, err); }
static const WType *inf_least(WArena *a, const WType **t, int n, const WType **co, WError *err)
{ return inf_greatest_least("LEAST", a, t, n, co, err); }

static void greatest_least(const WExpr *call, WVector *const *av, int na, int n, const uint8_t *act, WVector *out, int sign)
{
    const WType *t = call->type;
    WF_FOR(i, n, act) {
        WDatum best = av[0]->data[i];
        const WType *bt = av[0]->type;
        for (int k = 1; k < na; k++) {
            if (cmp_mixed(av[k]->type, av[k]->data[i], bt, best) * sign > 0) {
                best = av[k]->data[i];
                bt = av[k]->type;
            }
        }
        (void)t;
        out->data[i] = best;
    }
}

static void ev_greatest(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, const uint8_t *act, WVector *out)
{ (void)ctx; greatest_least(call, av, na, n, act, out, 1); }
static void ev_least(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, const uint8_t *act, WVector *out)
{ (void)ctx; greatest_least(call, av, na, n, act, out, -1); }

/* ---------------------------------------------------------------- NULLIF / IFNULL / IF */

static const WType *inf_nullif(WArena *a, const WType **t, int n, const WType **co, WError *err)
{
    const WType *tmpco[2] = { NULL, NULL };
    if (n != 2 || !compare_type(a, t, tmpco, false))
        return wf_err_apply(err, "NULLIF", t, n, "NULLIF(<COMPARABLE_TYPE>, <COMPARABLE_TYPE>)");
    if (tmpco[1]) co[1] = tmpco[1];
    if (wf_null(t[0])) return wtype_with_nullable(a, t[1], true);
    return wtype_with_nullable(a, wtype_with_time_attr(a, t[0], WTA_NONE), true);
}

static void ev_nullif(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, const uint8_t *act, WVector *out)
{
    (void)ctx; (void)call; (void)na;
    const WType *ta = av[0]->type, *tb = av[1]->type;
    WF_FOR(i, n, act) {
        if (av[0]->nulls[i]) { out->nulls[i] = 1; continue; }
        bool eq = !av[1]->nulls[i] && cmp_mixed(ta, av[0]->data[i], tb, av[1]->data[i]) == 0;
        out->nulls[i] = eq;
        out->data[i] = av[0]->data[i];
    }
}

static const WType *inf_ifnull(WArena *a, const WType **t, int n, const WType **co, WError *err)
{
    bool ok;
    const WType *c = n == 2 ? common_of(a, t, n, co, &ok) : NULL;
    if (!c || !ok)
        return wf_err_invalid_call(err, "IFNULL", t, n, "IFNULL(input <COMMON>, null_replacement <COMMON>)");
    c = wtype_with_nullable(a, c, t[1]->nullable || wf_null(t[1]));
    for (int i = 0; i < 2; i++)
        if (co[i]) co[i] = wtype_with_nullable(a, co[i], t[i]->nullable || wf_null(t[i]));
    return c;
}

static void ev_ifnull(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, const uint8_t *act, WVector *out)
{
    (void)ctx; (void)call; (void)na;
    WF_FOR(i, n, act) {
        int k = av[0]->nulls[i] ? 1 : 0;
        out->nulls[i] = av[k]->nulls[i];
        out->data[i] = av[k]->data[i];
    }
}

static const WType *inf_if(WArena *a, const WType **t, int n, const WType **co, WError *err)
{
    static const char *forms = "IF(<BOOLEAN>, <NUMERIC>, <NUMERIC>)\nIF(<BOOLEAN>, <STRING>, <STRING>)\n"
                               "IF(<BOOLEAN>, <BOOLEAN>, <BOOLEAN>)\nIF(<BOOLEAN>, <CHARACTER>, <CHARACTER>)\n"
                               "IF(<BOOLEAN>, <BINARY>, <BINARY>)\nIF(<BOOLEAN>, <DATE>, <DATE>)\n"
                               "IF(<BOOLEAN>, <TIMESTAMP>, <TIMESTAMP>)\nIF(<BOOLEAN>, <TIME>, <TIME>)";
    if (n != 3 || !wf_bool(t[0])) return wf_err_apply(err, "IF", t, n, forms);
    bool ok;
    const WType *c = common_of(a, t + 1, 2, co + 1, &ok);
    if (!c || !ok) return wf_err_apply(err, "IF", t, n, forms);
    bool numeric = wf_num(t[1]) && wf_num(t[2]);
    if ((wf_num(t[1]) || wf_num(t[2])) && !numeric) return wf_err_apply(err, "IF", t, n, forms);
    return wtype_with_nullable(a, c, wf_any_nullable(t, 3));
}

static void ev_if(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, const uint8_t *act, WVector *out)
{
    /* normally evaluated lazily by eval.c; this path serves direct callers */
    (void)ctx; (void)call; (void)na;
    WF_FOR(i, n, act) {
        int k = (!av[0]->nulls[i] && av[0]->data[i].i) ? 1 : 2;
        out->nulls[i] = av[k]->nulls[i];
        out->data[i] = av[k]->data[i];
    }
}

const WFuncDef WF_IF = { "IF", 3, 3, true, true, inf_if, ev_if, NULL };

/* ---------------------------------------------------------------- IS_ALPHA / IS_DIGIT / IS_DECIMAL */

static const WType *inf_is_str(const char *name, const WType **t, int n, WError *err)
{
    if (n != 1 || !(wf_str(t[0]) || wf_num(t[0]))) {
        char f[96];
        snprintf(f, sizeof f, "%s(<CHARACTER>)\n%s(<NUMERIC>)", name, name);
        return wf_err_apply(err, name, t, n, f);
    }
    return &WTYPE_BOOLEAN_NN;
}

static bool is_decimal_text(const char *s, int n)
{
    int i = 0;
    if (n == 0) return false;
    if (s[i] == '+' || s[i] == '-') i++;
    int digits = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') { i++; digits++; }
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9') { i++; digits++; }
    }
    if (!digits) return false;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        int ed = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') { i++; ed++; }
        if (!ed) return false;
    }
    return i == n;
}

static void ev_is_kind(WEvalCtx *ctx, WVector *const *av, int n, const uint8_t *act, WVector *out, int kind)
{
    const WType *t = av[0]->type;
    WF_FOR(i, n, act) {
        out->nulls[i] = 0;
        if (av[0]->nulls[i]) { out->data[i].i = 0; continue; }
        WStr s = wf_to_text(ctx, t, av[0]->data[i]);
        bool r = s.len > 0;
        if (kind == 2) r = is_decimal_text(s.p, s.len);
        else {
            for (int j = 0; j < s.len && r;) {
                int adv;
                int c = wf_u8_decode(s.p + j, s.len - j, &adv);
                j += adv;
                r = kind == 0 ? wf_java_alpha(c) : (c >= '0' && c <= '9');
            }
        }
        out->data[i].i = r;
    }
}

#define IS_KIND(inf, ev, name, kind) \
    static const WType *inf(WArena *a, const WType **t, int n, const WType **co, WError *err) \
    { (void)a; (void)co; return inf_is_str(name, t, n, err); } \
    static void ev(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, const uint8_t *act, WVector *out) \
    { (void)call; (void)na; ev_is_kind(ctx, av, n, act, out, kind); }
IS_KIND(inf_is_alpha, ev_is_alpha, "IS_ALPHA", 0)
IS_KIND(inf_is_digit, ev_is_digit, "IS_DIGIT", 1)
IS_KIND(inf_is_decimal, ev_is_decimal, "IS_DECIMAL", 2)

/* ---------------------------------------------------------------- table */

static const WFuncDef D_EQ = { "=", 2, 2, false, true, inf_eq, ev_eq, NULL };
static const WFuncDef D_NE = { "<>", 2, 2, false, true, inf_ne, ev_ne, NULL };
static const WFuncDef D_NE2 = { "!=", 2, 2, false, true, inf_ne, ev_ne, NULL };
static const WFuncDef D_LT = { "<", 2, 2, false, true, inf_lt, ev_lt, NULL };
static const WFuncDef D_LE = { "<=", 2, 2, false, true, inf_le, ev_le, NULL };
static const WFuncDef D_GT = { ">", 2, 2, false, true, inf_gt, ev_gt, NULL };
static const WFuncDef D_GE = { ">=", 2, 2, false, true, inf_ge, ev_ge, NULL };
static const WFuncDef D_DISTINCT = { "IS DISTINCT FROM", 2, 2, true, true, inf_distinct, ev_distinct, NULL };
static const WFuncDef D_NOT_DISTINCT = { "IS NOT DISTINCT FROM", 2, 2, true, true, inf_not_distinct, ev_not_distinct, NULL };
static const WFuncDef D_IS_TRUE = { "IS TRUE", 1, 1, true, true, inf_is_true, ev_is_true, NULL };
static const WFuncDef D_IS_NOT_TRUE = { "IS NOT TRUE", 1, 1, true, true, inf_is_not_true, ev_is_not_true, NULL };
static const WFuncDef D_IS_FALSE = { "IS FALSE", 1, 1, true, true, inf_is_false, ev_is_false, NULL };
static const WFuncDef D_IS_NOT_FALSE = { "IS NOT FALSE", 1, 1, true, true, inf_is_not_false, ev_is_not_false, NULL };
static const WFuncDef D_IS_UNKNOWN = { "IS UNKNOWN", 1, 1, true, true, inf_is_unknown, ev_is_unknown, NULL };
static const WFuncDef D_IS_NOT_UNKNOWN = { "IS NOT UNKNOWN", 1, 1, true, true, inf_is_not_unknown, ev_is_not_unknown, NULL };
static const WFuncDef D_LIKE = { "LIKE", 2, 3, false, true, inf_like, ev_like, prep_like };
static const WFuncDef D_GREATEST = { "GREATEST", 1, -1, false, true, inf_greatest, ev_greatest, NULL };
static const WFuncDef D_LEAST = { "LEAST", 1, -1, false, true, inf_least, ev_least, NULL };
static const WFuncDef D_NULLIF = { "NULLIF", 2, 2, true, true, inf_nullif, ev_nullif, NULL };
static const WFuncDef D_IFNULL = { "IFNULL", 2, 2, true, true, inf_ifnull, ev_ifnull, NULL };
static const WFuncDef D_IS_ALPHA = { "IS_ALPHA", 1, 1, true, true, inf_is_alpha, ev_is_alpha, NULL };
static const WFuncDef D_IS_DIGIT = { "IS_DIGIT", 1, 1, true, true, inf_is_digit, ev_is_digit, NULL };
static const WFuncDef D_IS_DECIMAL = { "IS_DECIMAL", 1, 1, true, true, inf_is_decimal, ev_is_decimal, NULL };

const WFuncDef *const wf_compare_defs[] = {
    &D_EQ, &D_NE, &D_NE2, &D_LT, &D_LE, &D_GT, &D_GE, &D_DISTINCT, &D_NOT_DISTINCT,
    &D_IS_TRUE, &D_IS_NOT_TRUE, &D_IS_FALSE, &D_IS_NOT_FALSE, &D_IS_UNKNOWN, &D_IS_NOT_UNKNOWN,
    &D_LIKE, &D_GREATEST, &D_LEAST, &D_NULLIF, &D_IFNULL, &WF_IF,
    &D_IS_ALPHA, &D_IS_DIGIT, &D_IS_DECIMAL, NULL
};
