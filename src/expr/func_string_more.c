/*
 * func_string_more.c — string functions of Flink's newer function stack (BuiltInFunctionDefinitions),
 * with the results Flink 2.3 gives (measured by tests/flink/functions): STARTSWITH, ENDSWITH, BTRIM,
 * TRANSLATE, ELT, URL_ENCODE, URL_DECODE. Characters are code points of the UTF-8 text; a NULL
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

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
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
            else if (k + 2 < s.len && hexval(s.p[k + 1]) >= 0 && hexval(s.p[k + 2]) >= 0) {
                p[o++] = (char)(hexval(s.p[k + 1]) * 16 + hexval(s.p[k + 2]));
                k += 2;
            } else bad = true;
        }
        if (bad) { out->nulls[i] = 1; continue; }
        out->nulls[i] = 0;
        wf_set_ref(out, i, p, o);
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

const WFuncDef *const wf_string_more_defs[] = {
    &D_STARTSWITH, &D_ENDSWITH, &D_BTRIM, &D_TRANSLATE, &D_ELT, &D_URL_ENCODE, &D_URL_DECODE, NULL
};
