/*
 * func_string_more.c — string functions of Flink's newer function stack (BuiltInFunctionDefinitions),
 * with the results Flink 2.3 gives (measured by tests/flink/functions): STARTSWITH, ENDSWITH, BTRIM,
 * TRANSLATE, ELT, URL_ENCODE, URL_DECODE, INET_ATON, INET_NTOA. Characters are code points of the UTF-8 text; a NULL
 * argument gives NULL. Depends on func_impl.h.
 */
#include "func_impl.h"

#define EV(nm) static void nm(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, \
                              const uint8_t *act, WVector *out)
#define INF(nm) static const WType *nm(WArena *a, const WType **t, int n, const WType **co, WError *err)
#define S(k, i) (av[k]->data[i].s)
#define I(k, i) (av[k]->data[i].i)

/* ---------------------------------------------------------------- STARTSWITH / ENDSWITH */

INF(inf_startswith)
{
    (void)co;
    if (!wf_check(err, "STARTSWITH", t, n, "SS")) return NULL;
    return wf_type(a, WT_BOOLEAN, wf_any_nullable(t, n));
}

INF(inf_endswith)
{
    (void)co;
    if (!wf_check(err, "ENDSWITH", t, n, "SS")) return NULL;
    return wf_type(a, WT_BOOLEAN, wf_any_nullable(t, n));
}

static void affix(WVector *const *av, int n, const uint8_t *act, WVector *out, bool end)
{
    WF_FOR(i, n, act) {
        WStr s = S(0, i), x = S(1, i);
        out->data[i].i = x.len <= s.len && (x.len == 0 || memcmp(end ? s.p + s.len - x.len : s.p, x.p, (size_t)x.len) == 0);
    }
}

EV(ev_startswith) { (void)ctx; (void)call; (void)na; affix(av, n, act, out, false); }
EV(ev_endswith) { (void)ctx; (void)call; (void)na; affix(av, n, act, out, true); }

/* ---------------------------------------------------------------- BTRIM */

INF(inf_btrim)
{
    (void)co;
    if (!wf_check(err, "BTRIM", t, n, "S|SS")) return NULL;
    return wf_string(a, wf_any_nullable(t, n));
}

/* does set hold the code point at c (clen bytes)? */
static bool holds(WStr set, const char *c, int clen)
{
    for (int k = 0; k + clen <= set.len;) {
        int adv;
        wf_u8_decode(set.p + k, set.len - k, &adv);
        if (adv == clen && memcmp(set.p + k, c, (size_t)clen) == 0) return true;
        k += adv > 0 ? adv : 1;
    }
    return false;
}

EV(ev_btrim)
{
    (void)ctx; (void)call;
    WStr space = { " ", 1 };
    WF_FOR(i, n, act) {
        WStr s = S(0, i), set = na > 1 ? S(1, i) : space;
        int b = 0, e = s.len;
        while (b < e) {
            int adv;
            wf_u8_decode(s.p + b, e - b, &adv);
            if (!holds(set, s.p + b, adv)) break;
            b += adv;
        }
        while (e > b) {
            int st = e - 1;
            while (st > b && ((unsigned char)s.p[st] & 0xC0) == 0x80) st--;
            if (!holds(set, s.p + st, e - st)) break;
            e = st;
        }
        wf_set_ref(out, i, s.p + b, e - b);
    }
}

/* ---------------------------------------------------------------- TRANSLATE */

INF(inf_translate)
{
    (void)co;
    if (!wf_check(err, "TRANSLATE", t, n, "SSS")) return NULL;
    return wf_string(a, wf_any_nullable(t, n));
}

/* each character of `from` becomes the character at its index in `to` (the first occurrence in
   `from` counts), or is dropped when `to` is shorter: TRANSLATE('abcabc', 'ab', 'x') = 'xcxc' */
EV(ev_translate)
{
    (void)call; (void)na;
    WF_FOR(i, n, act) {
        WStr s = S(0, i), from = S(1, i), to = S(2, i);
        char *p = wf_alloc(ctx, (size_t)s.len * 4 + 1);
        int o = 0;
        for (int b = 0; b < s.len;) {
            int adv, k = 0, idx = -1, fb = 0;
            int cp = wf_u8_decode(s.p + b, s.len - b, &adv);
            while (fb < from.len) {
                int fa;
                if (wf_u8_decode(from.p + fb, from.len - fb, &fa) == cp) { idx = k; break; }
                fb += fa > 0 ? fa : 1;
                k++;
            }
            if (idx < 0) {
                memcpy(p + o, s.p + b, (size_t)adv);
                o += adv;
            } else if (idx < wf_u8_count(to.p, to.len)) {
                int tb = wf_u8_offset(to.p, to.len, idx), ta;
                wf_u8_decode(to.p + tb, to.len - tb, &ta);
                memcpy(p + o, to.p + tb, (size_t)ta);
                o += ta;
            }
            b += adv > 0 ? adv : 1;
        }
        wf_set_ref(out, i, p, o);
    }
}

/* ---------------------------------------------------------------- ELT */

INF(inf_elt)
{
    (void)co;
    if (n < 2 || !wf_check(err, "ELT", t, n, "IS*")) return NULL;
    return wf_string(a, true);
}

/* ELT(i, s1, ..., sn): s_i; NULL for an index outside 1..n or a NULL index */
EV(ev_elt)
{
    (void)ctx; (void)call;
    WF_FOR(i, n, act) {
        if (av[0]->nulls[i]) { out->nulls[i] = 1; continue; }
        int64_t k = I(0, i);
        if (k < 1 || k >= na || av[k]->nulls[i]) { out->nulls[i] = 1; continue; }
        out->nulls[i] = 0;
        wf_set_ref(out, i, S(k, i).p, S(k, i).len);
    }
}

/* ---------------------------------------------------------------- URL_ENCODE / URL_DECODE */

INF(inf_url_encode)
{
    (void)co;
    if (!wf_check(err, "URL_ENCODE", t, n, "S")) return NULL;
    return wf_string(a, true);
}

INF(inf_url_decode)
{
    (void)co;
    if (!wf_check(err, "URL_DECODE", t, n, "S")) return NULL;
    return wf_string(a, true);
}

/* java.net.URLEncoder with UTF-8: letters, digits and . - * _ stay, a space becomes '+', every
   other byte %XX (upper-case hex) */
EV(ev_url_encode)
{
    (void)call; (void)na;
    static const char HEX[] = "0123456789ABCDEF";
    WF_FOR(i, n, act) {
        WStr s = S(0, i);
        char *p = wf_alloc(ctx, (size_t)s.len * 3 + 1);
        int o = 0;
        for (int k = 0; k < s.len; k++) {
            unsigned char c = (unsigned char)s.p[k];
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                c == '-' || c == '*' || c == '_') p[o++] = (char)c;
            else if (c == ' ') p[o++] = '+';
            else { p[o++] = '%'; p[o++] = HEX[c >> 4]; p[o++] = HEX[c & 15]; }
        }
        wf_set_ref(out, i, p, o);
    }
}

/* java.net.URLDecoder with UTF-8: '+' is a space, %XX a byte; a malformed escape gives NULL */
EV(ev_url_decode)
{
    (void)call; (void)na;
    WF_FOR(i, n, act) {
        WStr s = S(0, i);
        char *p = wf_alloc(ctx, (size_t)s.len + 1);
        int o = 0;
        bool bad = false;
        for (int k = 0; k < s.len && !bad; k++) {
            char c = s.p[k];
            if (c == '+') p[o++] = ' ';
            else if (c != '%') p[o++] = c;
            else if (k + 2 < s.len && wf_hex_digit((unsigned char)s.p[k + 1]) >= 0 && wf_hex_digit((unsigned char)s.p[k + 2]) >= 0) {
                p[o++] = (char)(wf_hex_digit((unsigned char)s.p[k + 1]) * 16 + wf_hex_digit((unsigned char)s.p[k + 2]));
                k += 2;
            } else bad = true;
        }
        if (bad) { out->nulls[i] = 1; continue; }
        out->nulls[i] = 0;
        wf_set_ref(out, i, p, o);
    }
}

/* ---------------------------------------------------------------- INET_ATON / INET_NTOA */

INF(inf_inet_aton)
{
    (void)co;
    if (!wf_check(err, "INET_ATON", t, n, "S")) return NULL;
    return wf_type(a, WT_BIGINT, true);
}

INF(inf_inet_ntoa)
{
    (void)co;
    if (!wf_check(err, "INET_NTOA", t, n, "I")) return NULL;
    return wf_string(a, true);
}

/* 'a.b.c.d' as a.b.c.d packed into 32 bits; with fewer parts the last one fills the remaining
   bytes ('1.2.3' is 1.2.0.3 = 16908291); a part out of range or a malformed text gives NULL */
EV(ev_inet_aton)
{
    (void)ctx; (void)call; (void)na;
    WF_FOR(i, n, act) {
        WStr s = S(0, i);
        int64_t part[4];
        int np = 0, k = 0;
        bool ok = s.len > 0;
        while (ok && k <= s.len) {
            int64_t v = 0;
            int d = 0;
            while (k < s.len && s.p[k] >= '0' && s.p[k] <= '9' && d < 11) { v = v * 10 + (s.p[k] - '0'); k++; d++; }
            if (!d || np == 4) { ok = false; break; }
            part[np++] = v;
            if (k == s.len) break;
            if (s.p[k] != '.') { ok = false; break; }
            k++;
        }
        int64_t r = 0;
        for (int j = 0; ok && j < np; j++) {
            int64_t lim = j < np - 1 ? 255 : (int64_t)((1ULL << (8 * (4 - j))) - 1);
            if (part[j] > lim) ok = false;
            else r = j < np - 1 ? r | (part[j] << (8 * (3 - j))) : r | part[j];
        }
        if (!ok) { out->nulls[i] = 1; continue; }
        out->nulls[i] = 0;
        out->data[i].i = r;
    }
}

/* a number in 0 .. 2^32 - 1 as 'a.b.c.d'; anything else gives NULL */
EV(ev_inet_ntoa)
{
    (void)call; (void)na;
    WF_FOR(i, n, act) {
        int64_t v = I(0, i);
        if (v < 0 || v > 4294967295LL) { out->nulls[i] = 1; continue; }
        char buf[16];
        int m = snprintf(buf, sizeof buf, "%d.%d.%d.%d", (int)(v >> 24) & 255, (int)(v >> 16) & 255,
                         (int)(v >> 8) & 255, (int)v & 255);
        out->nulls[i] = 0;
        wf_set_str(ctx, out, i, buf, (size_t)m);
    }
}

/* ---------------------------------------------------------------- table */

#define DEF(var, name, mn, mx, hn, inf, ev) \
    static const WFuncDef var = { name, mn, mx, hn, true, inf, ev, NULL };

DEF(D_STARTSWITH, "STARTSWITH", 2, 2, false, inf_startswith, ev_startswith)
DEF(D_ENDSWITH, "ENDSWITH", 2, 2, false, inf_endswith, ev_endswith)
DEF(D_BTRIM, "BTRIM", 1, 2, false, inf_btrim, ev_btrim)
DEF(D_TRANSLATE, "TRANSLATE", 3, 3, false, inf_translate, ev_translate)
DEF(D_ELT, "ELT", 2, -1, true, inf_elt, ev_elt)
DEF(D_URL_ENCODE, "URL_ENCODE", 1, 1, false, inf_url_encode, ev_url_encode)
DEF(D_URL_DECODE, "URL_DECODE", 1, 1, false, inf_url_decode, ev_url_decode)
DEF(D_INET_ATON, "INET_ATON", 1, 1, false, inf_inet_aton, ev_inet_aton)
DEF(D_INET_NTOA, "INET_NTOA", 1, 1, false, inf_inet_ntoa, ev_inet_ntoa)

const WFuncDef *const wf_string_more_defs[] = {
    &D_STARTSWITH, &D_ENDSWITH, &D_BTRIM, &D_TRANSLATE, &D_ELT, &D_URL_ENCODE, &D_URL_DECODE,
    &D_INET_ATON, &D_INET_NTOA, NULL
};
