/*
 * func_string.c — string functions with Flink's semantics (BinaryStringDataUtil /
 * SqlFunctionUtils): "||", CONCAT, CONCAT_WS, CHAR_LENGTH, UPPER, LOWER, INITCAP, TRIM, LTRIM,
 * RTRIM, SUBSTRING/SUBSTR, OVERLAY, REPLACE, POSITION, LOCATE, INSTR, LEFT, RIGHT, LPAD, RPAD,
 * REPEAT, REVERSE, ASCII, CHR, SPLIT_INDEX, SPLIT, TO_BASE64, FROM_BASE64.
 * Characters are code points of the UTF-8 text. TRIM's arguments as the binder passes them:
 * TRIM(str) or TRIM(mode, chars, str) with mode a STRING literal 'BOTH' | 'LEADING' | 'TRAILING'.
 * Depends on func_impl.h.
 */
#include "../common/base64.h"
#include "func_impl.h"
#include "../common/memfind.h"

#include <assert.h>
#include <strings.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define EV(nm) static void nm(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, \
                              const uint8_t *act, WVector *out)
#define INF(nm) static const WType *nm(WArena *a, const WType **t, int n, const WType **co, WError *err)
#define UNUSED_EV (void)ctx; (void)call; (void)na; (void)act
#define S(k, i) (av[k]->data[i].s)
#define I(k, i) (av[k]->data[i].i)

/* ---------------------------------------------------------------- type helpers */

static int len_of(const WType *t) { return wtype_is_string(t) || wtype_is_binary(t) ? t->precision : 0; }

static const WType *varchar_of(WArena *a, const WType *t, bool nullable)
{
    int len = len_of(t);
    if (t->id == WT_NULL || len <= 0) len = WT_MAX_LENGTH;
    return wtype_varchar(a, len, nullable);
}

/* ---------------------------------------------------------------- || and CONCAT */

INF(inf_concat_op)
{
    (void)co;
    bool strs = n == 2 && wf_str(t[0]) && wf_str(t[1]);
    bool bins = n == 2 && wf_bin(t[0]) && wf_bin(t[1]) && !(wf_null(t[0]) && wf_null(t[1]));
    if (!strs && !bins) return wf_err_apply_op(err, "||", t, n, "<STRING> || <STRING>");
    bool nullable = wf_any_nullable(t, 2);
    long len = (long)(wf_null(t[0]) ? 0 : t[0]->precision) + (long)(wf_null(t[1]) ? 0 : t[1]->precision);
    if (len > WT_MAX_LENGTH || len <= 0) len = WT_MAX_LENGTH;
    if (strs) {
        if (t[0]->id == WT_CHAR && t[1]->id == WT_CHAR) return wtype_char(a, (int)len, nullable);
        return wtype_varchar(a, (int)len, nullable);
    }
    WType *r = wtype_new(a, t[0]->id == WT_BINARY && t[1]->id == WT_BINARY ? WT_BINARY : WT_VARBINARY, nullable);
    r->precision = (int)len;
    return r;
}

static void concat_rows(WEvalCtx *ctx, WVector *const *av, int na, int n, const uint8_t *act, WVector *out)
{
    WF_FOR(i, n, act) {
        size_t total = 0;
        for (int k = 0; k < na; k++) total += (size_t)S(k, i).len;
        char *p = wf_alloc(ctx, total);
        size_t o = 0;
        for (int k = 0; k < na; k++) {
            if (S(k, i).len) memcpy(p + o, S(k, i).p, (size_t)S(k, i).len);
            o += (size_t)S(k, i).len;
        }
        wf_set_ref(out, i, p, (int)total);
    }
}

EV(ev_concat) { (void)call; concat_rows(ctx, av, na, n, act, out); }

INF(inf_concat)
{
    (void)co;
    if (!wf_check(err, "CONCAT", t, n, "S*")) return NULL;
    return wf_string(a, wf_any_nullable(t, n));
}

INF(inf_concat_ws)
{
    (void)co;
    if (!wf_check(err, "CONCAT_WS", t, n, "S*")) return NULL;
    return wf_string(a, wf_any_nullable(t, n));
}

EV(ev_concat_ws)
{
    (void)call;
    WF_FOR(i, n, act) {
        if (av[0]->nulls[i]) { out->nulls[i] = 1; continue; }
        WStr sep = S(0, i);
        size_t total = 0;
        int cnt = 0;
        for (int k = 1; k < na; k++)
            if (!av[k]->nulls[i]) { total += (size_t)S(k, i).len; cnt++; }
        if (cnt > 1) total += (size_t)sep.len * (size_t)(cnt - 1);
        char *p = wf_alloc(ctx, total);
        size_t o = 0;
        int j = 0;
        for (int k = 1; k < na; k++) {
            if (av[k]->nulls[i]) continue;
            if (j++ > 0 && sep.len) { memcpy(p + o, sep.p, (size_t)sep.len); o += (size_t)sep.len; }
            if (S(k, i).len) memcpy(p + o, S(k, i).p, (size_t)S(k, i).len);
            o += (size_t)S(k, i).len;
        }
        out->nulls[i] = 0;
        wf_set_ref(out, i, p, (int)o);
    }
}

/* ---------------------------------------------------------------- length, case */

INF(inf_char_length)
{
    (void)co;
    if (!wf_check(err, "CHAR_LENGTH", t, n, "C")) return NULL;
    return wf_type(a, WT_INT, wf_any_nullable(t, n));
}

EV(ev_char_length)
{
    UNUSED_EV;
    WF_FOR(i, n, act) out->data[i].i = wf_u8_count(S(0, i).p, S(0, i).len);
}

static const WType *arg0_type(WArena *a, const char *name, const WType **t, int n, WError *err)
{
    if (!wf_check(err, name, t, n, "C")) return NULL;
    if (wf_null(t[0])) return wtype_varchar(a, WT_MAX_LENGTH, true);
    return wtype_with_nullable(a, t[0], t[0]->nullable);
}

INF(inf_upper) { (void)co; return arg0_type(a, "UPPER", t, n, err); }
INF(inf_lower) { (void)co; return arg0_type(a, "LOWER", t, n, err); }
INF(inf_initcap) { (void)co; return arg0_type(a, "INITCAP", t, n, err); }

static void map_case(WEvalCtx *ctx, WVector *const *av, int n, const uint8_t *act, WVector *out, bool upper)
{
    /* the mapped text is never longer than the input: one buffer for the whole vector */
    size_t total = 0;
    WF_FOR(i, n, act) total += (size_t)S(0, i).len;
    char *buf = wf_alloc(ctx, total), *p = buf;
    WF_FOR(i, n, act) {
        WStr s = S(0, i);
        int o = 0;
        for (int j = 0; j < s.len;) {
            if (s.len - j >= 8) {       /* eight ASCII bytes at once: the letters' 0x20 bit flipped */
                uint64_t w;
                memcpy(&w, s.p + j, 8);
                if (!(w & 0x8080808080808080ULL)) {
                    const uint64_t ones = 0x0101010101010101ULL;
                    uint64_t lo = upper ? 'a' : 'A', hi = upper ? 'z' : 'Z';
                    /* a byte's top bit: it is >= lo, and it is > hi (no carry: every byte < 0x80) */
                    uint64_t ge = w + (0x80 - lo) * ones, gt = w + (0x7F - hi) * ones;
                    w ^= (ge & ~gt & 0x8080808080808080ULL) >> 2;
                    memcpy(p + o, &w, 8);
                    o += 8;
                    j += 8;
                    continue;
                }
            }
            unsigned char c = (unsigned char)s.p[j];
            if (c < 0x80) {
                p[o++] = (char)(upper ? (c >= 'a' && c <= 'z' ? c - 32 : c) : (c >= 'A' && c <= 'Z' ? c + 32 : c));
                j++;
                continue;
            }
            int adv;
            int cp = wf_u8_decode(s.p + j, s.len - j, &adv);
            if (upper && cp == 0xDF) { p[o++] = 'S'; p[o++] = 'S'; j += adv; continue; }
            int m = upper ? wf_java_upper(cp) : wf_java_lower(cp);
            char tmp[4];
            int k = wf_u8_encode(m, tmp);
            if (k > adv) { m = cp; k = wf_u8_encode(m, tmp); }      /* keep the length bound */
            memcpy(p + o, tmp, (size_t)k);
            o += k;
            j += adv;
        }
        wf_set_ref(out, i, p, o);
        p += o;
    }
}

EV(ev_upper) { (void)call; (void)na; map_case(ctx, av, n, act, out, true); }
EV(ev_lower) { (void)call; (void)na; map_case(ctx, av, n, act, out, false); }

EV(ev_initcap)
{
    UNUSED_EV;
    WF_FOR(i, n, act) {
        WStr s = S(0, i);
        char *p = wf_alloc(ctx, (size_t)s.len);
        bool start = true;
        for (int j = 0; j < s.len; j++) {
            unsigned char c = (unsigned char)s.p[j];
            bool digit = c >= '0' && c <= '9', up = c >= 'A' && c <= 'Z', lo = c >= 'a' && c <= 'z';
            if (start) {
                if (digit || up) start = false;
                else if (lo) { start = false; c = (unsigned char)(c - 32); }
            } else {
                if (up) c = (unsigned char)(c + 32);
                else if (!digit && !lo) start = true;
            }
            p[j] = (char)c;
        }
        wf_set_ref(out, i, p, s.len);
    }
}

/* ---------------------------------------------------------------- trim */

static bool in_set(WStr set, const char *c, int clen)
{
    if (clen > set.len) return false;
    for (int k = 0; k + clen <= set.len; k++)
        if (memcmp(set.p + k, c, (size_t)clen) == 0) return true;
    return false;
}

static WStr trim_str(WStr s, WStr set, bool leading, bool trailing)
{
    int b = 0, e = s.len;
    if (leading) {
        while (b < e) {
            int adv;
            wf_u8_decode(s.p + b, e - b, &adv);
            if (!in_set(set, s.p + b, adv)) break;
            b += adv;
        }
    }
    if (trailing) {
        while (e > b) {
            int st = e - 1;
            while (st > b && ((unsigned char)s.p[st] & 0xC0) == 0x80) st--;
            if (!in_set(set, s.p + st, e - st)) break;
            e = st;
        }
    }
    return (WStr){ s.p + b, e - b };
}

INF(inf_trim)
{
    (void)co;
    if (n == 1) {
        if (!wf_check(err, "TRIM", t, n, "C")) return NULL;
        return varchar_of(a, t[0], wf_any_nullable(t, n));
    }
    if (!wf_check(err, "TRIM", t, n, "ACC")) return NULL;
    return varchar_of(a, t[2], t[1]->nullable || t[2]->nullable || wf_null(t[1]) || wf_null(t[2]));
}

EV(ev_trim)
{
    (void)ctx;
    bool lead = true, trail = true;
    if (na == 3) {
        const WExpr *m = call->args[0];
        if (m->kind == WX_LITERAL && !m->is_null && wtype_is_string(m->type)) {
            if (m->lit.s.len == 7 && strncasecmp(m->lit.s.p, "LEADING", 7) == 0) trail = false;
            else if (m->lit.s.len == 8 && strncasecmp(m->lit.s.p, "TRAILING", 8) == 0) lead = false;
        }
    }
    WStr space = { " ", 1 };
    WF_FOR(i, n, act) {
        WStr set = na == 3 ? S(1, i) : space;
        WStr r = trim_str(S(na == 3 ? 2 : 0, i), set, lead, trail);
        wf_set_ref(out, i, r.p, r.len);
    }
}

static const WType *inf_ltrim_rtrim(WArena *a, const char *name, const WType **t, int n, WError *err)
{
    if (!wf_check(err, name, t, n, "S|SS")) return NULL;
    return varchar_of(a, t[0], wf_any_nullable(t, n));
}

INF(inf_ltrim) { (void)co; return inf_ltrim_rtrim(a, "LTRIM", t, n, err); }
INF(inf_rtrim) { (void)co; return inf_ltrim_rtrim(a, "RTRIM", t, n, err); }

static void lrtrim(WVector *const *av, int na, int n, const uint8_t *act, WVector *out, bool lead)
{
    WStr space = { " ", 1 };
    WF_FOR(i, n, act) {
        WStr r = trim_str(S(0, i), na > 1 ? S(1, i) : space, lead, !lead);
        wf_set_ref(out, i, r.p, r.len);
    }
}

EV(ev_ltrim) { (void)ctx; (void)call; lrtrim(av, na, n, act, out, true); }
EV(ev_rtrim) { (void)ctx; (void)call; lrtrim(av, na, n, act, out, false); }

/* ---------------------------------------------------------------- substring family */

static const WType *inf_substr_named(WArena *a, const char *name, const WType **t, int n, WError *err)
{
    if (!wf_check(err, name, t, n, "CI|CII")) return NULL;
    return varchar_of(a, t[0], true);
}

INF(inf_substring) { (void)co; return inf_substr_named(a, "SUBSTRING", t, n, err); }
INF(inf_substr) { (void)co; return inf_substr_named(a, "SUBSTR", t, n, err); }

/* BinaryStringDataUtil.substringSQL: code-point positions; NULL for negative length */
static bool substring_sql(WStr s, int64_t pos, int64_t length, WStr *r)
{
    if (length < 0) return false;
    *r = (WStr){ s.p, 0 };
    if (s.len == 0) return true;
    int64_t nch = wf_u8_count(s.p, s.len), start;
    if (pos > 0) {
        start = pos - 1;
        if (start >= nch) return true;
    } else if (pos < 0) {
        start = nch + pos;
        if (start < 0) return true;
    } else start = 0;
    int64_t end = (nch - start) < length ? nch : start + length;
    int b = wf_u8_offset(s.p, s.len, (int)start), e = wf_u8_offset(s.p, s.len, (int)end);
    *r = (WStr){ s.p + b, e - b };
    return true;
}

EV(ev_substring)
{
    (void)ctx; (void)call;
    WF_FOR(i, n, act) {
        WStr r;
        int64_t len = na > 2 ? I(2, i) : INT32_MAX;
        if (len > INT32_MAX) len = INT32_MAX;
        if (!substring_sql(S(0, i), (int32_t)I(1, i), len, &r)) { out->nulls[i] = 1; continue; }
        wf_set_ref(out, i, r.p, r.len);
    }
}

INF(inf_left) { (void)co; if (!wf_check(err, "LEFT", t, n, "SI")) return NULL; return varchar_of(a, t[0], true); }
INF(inf_right) { (void)co; if (!wf_check(err, "RIGHT", t, n, "SI")) return NULL; return varchar_of(a, t[0], true); }

EV(ev_left)
{
    UNUSED_EV;
    WF_FOR(i, n, act) {
        WStr s = S(0, i);
        int64_t k = I(1, i);
        if (k < 0) k = 0;
        int e = wf_u8_offset(s.p, s.len, k > INT32_MAX ? INT32_MAX : (int)k);
        wf_set_ref(out, i, s.p, e);
    }
}

EV(ev_right)
{
    UNUSED_EV;
    WF_FOR(i, n, act) {
        WStr s = S(0, i);
        int64_t k = I(1, i), nch = wf_u8_count(s.p, s.len);
        if (k < 0) k = 0;
        if (k > nch) k = nch;
        int b = wf_u8_offset(s.p, s.len, (int)(nch - k));
        wf_set_ref(out, i, s.p + b, s.len - b);
    }
}

INF(inf_overlay)
{
    (void)co;
    if (!wf_check(err, "OVERLAY", t, n, "CCI|CCII")) return NULL;
    return wf_string(a, wf_any_nullable(t, n));
}

/* Flink's rule (measured on 2.3): a start outside 1..CHAR_LENGTH(s) leaves s unchanged; otherwise
   s before the start, then the replacement, then s after start + length - 1 only when length > 0
   and start + length <= CHAR_LENGTH(s) (so a length of 0 or below drops the rest, and a
   replacement reaching past the end drops it too); length defaults to CHAR_LENGTH(replacement). */
EV(ev_overlay)
{
    (void)call;
    WF_FOR(i, n, act) {
        WStr s = S(0, i), r = S(1, i);
        int64_t pos = I(2, i);
        int64_t len = na > 3 ? I(3, i) : wf_u8_count(r.p, r.len);
        int64_t nch = wf_u8_count(s.p, s.len);
        if (pos <= 0 || pos > nch) { wf_set_ref(out, i, s.p, s.len); continue; }
        int pa = wf_u8_offset(s.p, s.len, (int)(pos - 1));
        bool rest = len > 0 && pos + len <= nch;
        int pb = rest ? wf_u8_offset(s.p, s.len, (int)(pos - 1 + len)) : s.len;
        size_t total = (size_t)pa + (size_t)r.len + (size_t)(s.len - pb);
        char *p = wf_alloc(ctx, total ? total : 1);
        memcpy(p, s.p, (size_t)pa);
        if (r.len) memcpy(p + pa, r.p, (size_t)r.len);
        if (s.len - pb) memcpy(p + pa + r.len, s.p + pb, (size_t)(s.len - pb));
        wf_set_ref(out, i, p, (int)total);
    }
}

/* ---------------------------------------------------------------- search */

/* byte index of needle in hay at or after byte `from`, -1 if none */
static int find_bytes(WStr hay, WStr needle, int from)
{
    if (needle.len == 0) return from <= hay.len ? from : -1;
    if (needle.len > hay.len) return -1;
    const char *p = wmem_find(hay.p + from, (size_t)(hay.len - from), needle.p, (size_t)needle.len);
    return p ? (int)(p - hay.p) : -1;
}

INF(inf_position)
{
    (void)co;
    if (!wf_check(err, "POSITION", t, n, "CC|CCI")) return NULL;
    return wf_type(a, WT_INT, wf_any_nullable(t, n));
}

INF(inf_locate)
{
    (void)co;
    if (!wf_check(err, "LOCATE", t, n, "SS|SSI")) return NULL;
    return wf_type(a, WT_INT, wf_any_nullable(t, n));
}

/* position of needle in hay (code points, 1-based), starting at code point `from` (1-based);
   as Flink 2.3 measured: an empty needle is found at 1 wherever the search starts, a start below 1
   searches from 1 (LOCATE('b', 'abcb', -1) = 2) */
static int64_t locate(WStr needle, WStr hay, int64_t from)
{
    if (needle.len == 0) return 1;
    if (from < 1) from = 1;
    int64_t nch = wf_u8_count(hay.p, hay.len);
    if (from - 1 > nch) return 0;
    int b = wf_u8_offset(hay.p, hay.len, (int)(from - 1));
    int at = find_bytes(hay, needle, b);
    if (at < 0) return 0;
    return wf_u8_count(hay.p, at) + 1;
}

EV(ev_position)
{
    UNUSED_EV;
    WF_FOR(i, n, act) out->data[i].i = locate(S(0, i), S(1, i), na > 2 ? I(2, i) : 1);
}

INF(inf_instr)
{
    (void)co;
    if (!wf_check(err, "INSTR", t, n, "SS|SSI|SSII")) return NULL;
    return wf_type(a, WT_INT, wf_any_nullable(t, n));
}

EV(ev_instr)
{
    (void)ctx; (void)call;
    WF_FOR(i, n, act) {
        WStr s = S(0, i), sub = S(1, i);
        int64_t start = na > 2 ? I(2, i) : 1, nth = na > 3 ? I(3, i) : 1;
        if (start == 0 || nth <= 0) { out->nulls[i] = 1; continue; }
        int64_t nch = wf_u8_count(s.p, s.len), found = 0, pos = 0;
        if (start > 0) {
            int64_t from = start;
            while (found < nth) {
                int64_t p = locate(sub, s, from);
                if (!p) { pos = 0; break; }
                pos = p;
                found++;
                from = p + 1;
            }
            if (found < nth) pos = 0;
        } else {
            /* search backwards from code point nch + start + 1 */
            int64_t from = nch + start + 1;
            int64_t subch = wf_u8_count(sub.p, sub.len);
            pos = 0;
            for (int64_t c = from - subch + 1; c >= 1 && found < nth; c--) {
                int b = wf_u8_offset(s.p, s.len, (int)(c - 1));
                if (b + sub.len <= s.len && memcmp(s.p + b, sub.p, (size_t)sub.len) == 0) {
                    found++;
                    if (found == nth) pos = c;
                }
            }
        }
        out->data[i].i = pos;
    }
}

/* ---------------------------------------------------------------- replace, pad, repeat */

INF(inf_replace)
{
    (void)co;
    if (!wf_check(err, "REPLACE", t, n, "SSS")) return NULL;
    return wf_string(a, wf_any_nullable(t, n));
}

EV(ev_replace)
{
    UNUSED_EV;
    WF_FOR(i, n, act) {
        WStr s = S(0, i), f = S(1, i), r = S(2, i);
        WStrBuf b;
        wsb_init(&b);
        if (f.len == 0) {
            /* Java: "abc".replace("", "x") == "xaxbxcx" */
            wsb_appendn(&b, r.p, (size_t)r.len);
            for (int j = 0; j < s.len;) {
                int adv;
                wf_u8_decode(s.p + j, s.len - j, &adv);
                wsb_appendn(&b, s.p + j, (size_t)adv);
                wsb_appendn(&b, r.p, (size_t)r.len);
                j += adv;
            }
        } else {
            int pos = 0;
            for (;;) {
                int at = find_bytes(s, f, pos);
                if (at < 0) break;
                wsb_appendn(&b, s.p + pos, (size_t)(at - pos));
                wsb_appendn(&b, r.p, (size_t)r.len);
                pos = at + f.len;
            }
            wsb_appendn(&b, s.p + pos, (size_t)(s.len - pos));
        }
        wf_set_str(ctx, out, i, b.buf, b.len);
        wsb_free(&b);
    }
}

INF(inf_lpad) { (void)co; if (!wf_check(err, "LPAD", t, n, "SIS")) return NULL; return wf_string(a, wf_any_nullable(t, n)); }
INF(inf_rpad) { (void)co; if (!wf_check(err, "RPAD", t, n, "SIS")) return NULL; return wf_string(a, wf_any_nullable(t, n)); }

static void pad(WEvalCtx *ctx, WVector *const *av, int n, const uint8_t *act, WVector *out, bool left)
{
    WF_FOR(i, n, act) {
        WStr base = S(0, i), p = S(2, i);
        int64_t len = I(1, i);
        if (len < 0 || p.len == 0) { out->nulls[i] = 1; continue; }
        if (len == 0) { wf_set_ref(out, i, "", 0); continue; }
        int64_t bch = wf_u8_count(base.p, base.len), pch = wf_u8_count(p.p, p.len);
        if (len > 100000000) { wf_fail(ctx, "java.lang.OutOfMemoryError", "Requested array size exceeds VM limit"); return; }
        WStrBuf b;
        wsb_init(&b);
        int64_t npad = len - bch > 0 ? len - bch : 0;
        int64_t nbase = bch < len ? bch : len;
        int bend = wf_u8_offset(base.p, base.len, (int)nbase);
        if (!left) wsb_appendn(&b, base.p, (size_t)bend);
        for (int64_t k = 0; k < npad; k++) {
            int64_t j = k % pch;
            int s0 = wf_u8_offset(p.p, p.len, (int)j), s1 = wf_u8_offset(p.p, p.len, (int)j + 1);
            wsb_appendn(&b, p.p + s0, (size_t)(s1 - s0));
        }
        if (left) wsb_appendn(&b, base.p, (size_t)bend);
        wf_set_str(ctx, out, i, b.buf, b.len);
        wsb_free(&b);
    }
}

EV(ev_lpad) { (void)call; (void)na; pad(ctx, av, n, act, out, true); }
EV(ev_rpad) { (void)call; (void)na; pad(ctx, av, n, act, out, false); }

INF(inf_repeat) { (void)co; if (!wf_check(err, "REPEAT", t, n, "SI")) return NULL; return wf_string(a, wf_any_nullable(t, n)); }

EV(ev_repeat)
{
    UNUSED_EV;
    WF_FOR(i, n, act) {
        WStr s = S(0, i);
        int64_t k = I(1, i);
        if (k <= 0 || s.len == 0) { wf_set_ref(out, i, "", 0); continue; }
        if ((int64_t)s.len * k > INT32_MAX) {
            wf_fail(ctx, "java.lang.OutOfMemoryError", "Requested array size exceeds VM limit");
            return;
        }
        char *p = wf_alloc(ctx, (size_t)s.len * (size_t)k);
        for (int64_t j = 0; j < k; j++) memcpy(p + j * s.len, s.p, (size_t)s.len);
        wf_set_ref(out, i, p, (int)(s.len * k));
    }
}

INF(inf_reverse) { (void)co; if (!wf_check(err, "REVERSE", t, n, "S")) return NULL; return wf_string(a, true); }

EV(ev_reverse)
{
    UNUSED_EV;
    WF_FOR(i, n, act) {
        WStr s = S(0, i);
        char *p = wf_alloc(ctx, (size_t)s.len);
        for (int j = 0; j < s.len;) {
            int adv;
            wf_u8_decode(s.p + j, s.len - j, &adv);
            memcpy(p + s.len - j - adv, s.p + j, (size_t)adv);
            j += adv;
        }
        wf_set_ref(out, i, p, s.len);
    }
}

/* ---------------------------------------------------------------- ASCII / CHR */

INF(inf_ascii) { (void)co; if (!wf_check(err, "ASCII", t, n, "C")) return NULL; return wf_type(a, WT_INT, wf_any_nullable(t, n)); }

EV(ev_ascii)
{
    UNUSED_EV;
    WF_FOR(i, n, act) {
        WStr s = S(0, i);
        /* Flink: the first byte of the UTF-8 form, signed (ASCII('ß') = -61) */
        out->data[i].i = s.len == 0 ? 0 : (int8_t)(uint8_t)s.p[0];
    }
}

INF(inf_chr) { (void)co; if (!wf_check(err, "CHR", t, n, "I")) return NULL; return wf_string(a, true); }

EV(ev_chr)
{
    UNUSED_EV;
    WF_FOR(i, n, act) {
        int64_t c = I(0, i);
        if (c < 0) { wf_set_ref(out, i, "", 0); continue; }
        char buf[4];
        /* Flink: the character c & 0xFF; CHR(0) and CHR(256) are the NUL character, not '' */
        int k = (c & 0xFF) == 0 ? (buf[0] = 0, 1) : wf_u8_encode((int)(c & 0xFF), buf);
        wf_set_str(ctx, out, i, buf, (size_t)k);
    }
}

/* ---------------------------------------------------------------- SPLIT_INDEX / SPLIT */

INF(inf_split_index)
{
    (void)co;
    if (!wf_check(err, "SPLIT_INDEX", t, n, "SII|SSI")) return NULL;
    return wf_string(a, true);
}

static bool is_ws(char c) { return c == ' ' || (c >= 9 && c <= 13) || (c >= 0x1C && c <= 0x1F); }

/* SPLIT_INDEX's token idx of s split at the one-byte separator c (as the loop in ev_split_index
   splits, StringUtils.splitByWholeSeparatorPreserveAllTokens): false when s has fewer tokens.
   One pass, 16 bytes a step: a step's matches are counted at once until the idx-th separator (the
   token's start), whose step goes on to the next one (its end). A memchr call per token cost
   more than the token: Nexmark q22's URL parts. */
static bool split_token_byte(WStr s, char c, int64_t idx, int *start, int *len)
{
    assert(idx >= 0);
    int64_t need = idx;         /* separators still before the token's start */
    int from = need == 0 ? 0 : -1, i = 0;
#ifdef __SSE2__
    const __m128i cv = _mm_set1_epi8(c);
    for (; i + 16 <= s.len; i += 16) {
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s.p + i)), cv));
        if (from < 0) {
            int cnt = __builtin_popcount(m);
            if (cnt < need) { need -= cnt; continue; }
            while (--need > 0) m &= m - 1;     /* drop the matches before the start's */
            from = i + __builtin_ctz(m) + 1;
            m &= m - 1;
        }
        if (m) {
            *start = from;
            *len = i + __builtin_ctz(m) - from;
            return true;
        }
    }
#endif
    for (; i < s.len; i++) {
        if (s.p[i] != c) continue;
        if (from >= 0) {
            *start = from;
            *len = i - from;
            return true;
        }
        if (--need == 0) from = i + 1;
    }
    if (from < 0) return false;
    *start = from;
    *len = s.len - from;
    return true;
}

EV(ev_split_index)
{
    UNUSED_EV;
    bool char_sep = wtype_is_integer(av[1]->type);
    WF_FOR(i, n, act) {
        WStr s = S(0, i);
        int64_t idx = I(2, i);
        char cbuf[4];
        WStr sep;
        if (char_sep) {
            int k = wf_u8_encode((int)(I(1, i) & 0xFFFF), cbuf);
            sep = (WStr){ cbuf, k };
        } else sep = S(1, i);
        if (idx < 0 || s.len == 0) { out->nulls[i] = 1; continue; }
        if (sep.len == 1) {
            int start, len;
            if (split_token_byte(s, sep.p[0], idx, &start, &len)) wf_set_ref(out, i, s.p + start, len);
            else out->nulls[i] = 1;
            continue;
        }
        /* StringUtils.splitByWholeSeparatorPreserveAllTokens */
        int64_t k = 0;
        int pos = 0;
        bool done = false;
        while (!done) {
            int at, next;
            if (sep.len == 0) {
                at = pos;
                while (at < s.len && !is_ws(s.p[at])) at++;
                if (at >= s.len) { at = s.len; done = true; }
                next = at + 1;
            } else {
                at = find_bytes(s, sep, pos);
                if (at < 0) { at = s.len; done = true; }
                next = at + sep.len;
            }
            if (k == idx) { wf_set_ref(out, i, s.p + pos, at - pos); goto next_row; }
            k++;
            pos = next;
        }
        out->nulls[i] = 1;
    next_row:;
    }
}

INF(inf_split)
{
    (void)co;
    if (n != 2 || !wf_str(t[0]) || !wf_str(t[1]))
        return wf_err_invalid_call(err, "SPLIT", t, n, "SPLIT(<CHARACTER_STRING>, <CHARACTER_STRING>)");
    return wtype_array(a, &WTYPE_STRING, wf_any_nullable(t, n));
}

EV(ev_split)
{
    UNUSED_EV;
    WF_FOR(i, n, act) {
        WStr s = S(0, i), sep = S(1, i);
        int cap = 8, cnt = 0;
        WStr *parts = WA_ARRAY(ctx->arena, WStr, cap);
        int pos = 0;
        if (s.len == 0) {
            cnt = 0;
        } else if (sep.len == 0) {
            for (int j = 0; j < s.len;) {
                int adv;
                wf_u8_decode(s.p + j, s.len - j, &adv);
                if (cnt == cap) { WStr *np = WA_ARRAY(ctx->arena, WStr, cap * 2); memcpy(np, parts, sizeof(WStr) * (size_t)cap); parts = np; cap *= 2; }
                parts[cnt++] = (WStr){ s.p + j, adv };
                j += adv;
            }
        } else {
            for (;;) {
                int at = find_bytes(s, sep, pos);
                if (cnt == cap) { WStr *np = WA_ARRAY(ctx->arena, WStr, cap * 2); memcpy(np, parts, sizeof(WStr) * (size_t)cap); parts = np; cap *= 2; }
                if (at < 0) { parts[cnt++] = (WStr){ s.p + pos, s.len - pos }; break; }
                parts[cnt++] = (WStr){ s.p + pos, at - pos };
                pos = at + sep.len;
            }
        }
        WComposite *cx = WA_NEW(ctx->arena, WComposite);
        cx->n = cnt;
        cx->vals = WA_ARRAY(ctx->arena, WDatum, cnt > 0 ? cnt : 1);
        cx->nulls = WA_ARRAY(ctx->arena, uint8_t, cnt > 0 ? cnt : 1);
        for (int k = 0; k < cnt; k++) cx->vals[k].s = parts[k];
        out->data[i].cx = cx;
    }
}

/* ---------------------------------------------------------------- base64 */

INF(inf_to_base64)
{
    (void)co;
    if (n != 1 || !(wf_str(t[0]) || wf_bin(t[0]))) return wf_err_apply(err, "TO_BASE64", t, n, "TO_BASE64(<STRING>)");
    return wf_string(a, wf_any_nullable(t, n));
}

EV(ev_to_base64)
{
    UNUSED_EV;
    WF_FOR(i, n, act) {
        WStr s = S(0, i);
        char *p = wf_alloc(ctx, wbase64_len((size_t)s.len));
        size_t o = wbase64_encode(s.p, (size_t)s.len, p);
        wf_set_ref(out, i, p, (int)o);
    }
}

INF(inf_from_base64)
{
    (void)co;
    if (!wf_check(err, "FROM_BASE64", t, n, "S")) return NULL;
    return wf_string(a, wf_any_nullable(t, n));
}

EV(ev_from_base64)
{
    UNUSED_EV;
    WF_FOR(i, n, act) {
        WStr s = S(0, i);
        char *p = wf_alloc(ctx, (size_t)s.len);
        size_t o = 0;
        uint32_t acc = 0;
        int bits = 0, j = 0;
        for (; j < s.len; j++) {
            unsigned char c = (unsigned char)s.p[j];
            if (c == '=') break;
            int v = wbase64_value(c);
            if (v < 0) {
                wf_fail(ctx, WEXC_ILLEGAL_ARG, "Illegal base64 character %x", c);
                return;
            }
            acc = acc << 6 | (uint32_t)v;
            bits += 6;
            if (bits >= 8) { bits -= 8; p[o++] = (char)((acc >> bits) & 0xFF); }
        }
        if (j == s.len && bits == 6) {
            wf_fail(ctx, WEXC_ILLEGAL_ARG, "Last unit does not have enough valid bits");
            return;
        }
        wf_set_ref(out, i, p, (int)o);
    }
}

/* ---------------------------------------------------------------- table */

#define DEF(var, name, mn, mx, hn, inf, ev) \
    static const WFuncDef var = { name, mn, mx, hn, true, inf, ev, NULL };

DEF(D_CONCAT_OP, "||", 2, 2, false, inf_concat_op, ev_concat)
DEF(D_CONCAT, "CONCAT", 1, -1, false, inf_concat, ev_concat)
DEF(D_CONCAT_WS, "CONCAT_WS", 1, -1, true, inf_concat_ws, ev_concat_ws)
DEF(D_CHAR_LENGTH, "CHAR_LENGTH", 1, 1, false, inf_char_length, ev_char_length)
DEF(D_UPPER, "UPPER", 1, 1, false, inf_upper, ev_upper)
DEF(D_LOWER, "LOWER", 1, 1, false, inf_lower, ev_lower)
DEF(D_INITCAP, "INITCAP", 1, 1, false, inf_initcap, ev_initcap)
DEF(D_TRIM, "TRIM", 1, 3, false, inf_trim, ev_trim)
DEF(D_LTRIM, "LTRIM", 1, 2, false, inf_ltrim, ev_ltrim)
DEF(D_RTRIM, "RTRIM", 1, 2, false, inf_rtrim, ev_rtrim)
DEF(D_SUBSTRING, "SUBSTRING", 2, 3, false, inf_substring, ev_substring)
DEF(D_SUBSTR, "SUBSTR", 2, 3, false, inf_substr, ev_substring)
DEF(D_LEFT, "LEFT", 2, 2, false, inf_left, ev_left)
DEF(D_RIGHT, "RIGHT", 2, 2, false, inf_right, ev_right)
DEF(D_OVERLAY, "OVERLAY", 3, 4, false, inf_overlay, ev_overlay)
DEF(D_POSITION, "POSITION", 2, 3, false, inf_position, ev_position)
DEF(D_LOCATE, "LOCATE", 2, 3, false, inf_locate, ev_position)
DEF(D_INSTR, "INSTR", 2, 4, false, inf_instr, ev_instr)
DEF(D_REPLACE, "REPLACE", 3, 3, false, inf_replace, ev_replace)
DEF(D_LPAD, "LPAD", 3, 3, false, inf_lpad, ev_lpad)
DEF(D_RPAD, "RPAD", 3, 3, false, inf_rpad, ev_rpad)
DEF(D_REPEAT, "REPEAT", 2, 2, false, inf_repeat, ev_repeat)
DEF(D_REVERSE, "REVERSE", 1, 1, false, inf_reverse, ev_reverse)
DEF(D_ASCII, "ASCII", 1, 1, false, inf_ascii, ev_ascii)
DEF(D_CHR, "CHR", 1, 1, false, inf_chr, ev_chr)
DEF(D_SPLIT_INDEX, "SPLIT_INDEX", 3, 3, false, inf_split_index, ev_split_index)
DEF(D_SPLIT, "SPLIT", 2, 2, false, inf_split, ev_split)
DEF(D_TO_BASE64, "TO_BASE64", 1, 1, false, inf_to_base64, ev_to_base64)
DEF(D_FROM_BASE64, "FROM_BASE64", 1, 1, false, inf_from_base64, ev_from_base64)

const WFuncDef *const wf_string_defs[] = {
    &D_CONCAT_OP, &D_CONCAT, &D_CONCAT_WS, &D_CHAR_LENGTH, &D_UPPER, &D_LOWER, &D_INITCAP, &D_TRIM,
    &D_LTRIM, &D_RTRIM, &D_SUBSTRING, &D_SUBSTR, &D_LEFT, &D_RIGHT, &D_OVERLAY, &D_POSITION,
    &D_LOCATE, &D_INSTR, &D_REPLACE, &D_LPAD, &D_RPAD, &D_REPEAT, &D_REVERSE, &D_ASCII, &D_CHR,
    &D_SPLIT_INDEX, &D_SPLIT, &D_TO_BASE64, &D_FROM_BASE64, NULL
};
