/*
 * decimal.c — __int128 DECIMAL helpers: precision checks, HALF_UP rescaling, Flink's string
 * parsing, conversions from/to double and long. See decimal.h. May call value.c and format.c
 * (wfmt_double_java) only.
 */
#include "decimal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "format.h"

static const __int128 I128_MAX = (__int128)(((unsigned __int128)1 << 127) - 1);

static __int128 abs128(__int128 v) { return v < 0 ? -v : v; }

bool wdec_fits(__int128 v, int precision)
{
    if (precision >= 38) return abs128(v) <= wpow10_i128(38) - 1;
    return abs128(v) < wpow10_i128(precision);
}

bool wdec_rescale(__int128 v, int from, int to, __int128 *out)
{
    if (to == from) { *out = v; return true; }
    if (to > from) {
        int k = to - from;
        if (k > 38) { if (v == 0) { *out = 0; return true; } return false; }
        __int128 f = wpow10_i128(k);
        if (abs128(v) > I128_MAX / f) return false;
        *out = v * f;
        return true;
    }
    int k = from - to;
    if (k > 38) { *out = 0; return true; }
    __int128 f = wpow10_i128(k);
    __int128 q = v / f, r = v % f;
    if (abs128(r) * 2 >= f) q += v < 0 ? -1 : 1;
    *out = q;
    return true;
}

bool wdec_cast(__int128 v, int from_scale, int p, int s, __int128 *out)
{
    __int128 r;
    if (!wdec_rescale(v, from_scale, s, &r)) return false;
    if (!wdec_fits(r, p)) return false;
    *out = r;
    return true;
}

static bool fws(char c) { return c == ' ' || c == '\n' || c == '\t'; }

/* Flink toDecimalFromBytes (p <= 18, input <= 18 bytes), including its quirks. */
static WDecParse parse_compact(const unsigned char *b, int n, int precision, int scale, __int128 *out)
{
    int i = 0;
    unsigned char c = 0;
    while (i < n) { c = b[i]; if (!fws((char)c)) break; i++; }
    if (i == n) return WDEC_OVERFLOW;
    bool neg = c == '-';
    if (neg || c == '+') { i++; if (i == n) return WDEC_OVERFLOW; }
    int64_t sig = 0;
    int exp = 0, siglen = 0, point = -1;
    while (i < n) {
        c = b[i++];
        if (c >= '0' && c <= '9') { sig = sig * 10 + (c - '0'); siglen++; }
        else if (c == '.') { if (point >= 0) return WDEC_OVERFLOW; point = siglen; }
        else break;
    }
    if (point < 0) point = siglen;
    if (neg) sig = -sig;
    if ((c == 'e' || c == 'E') && i < n) {
        c = b[i];
        bool eneg = c == '-';
        if (eneg || c == '+') { i++; if (i == n) return WDEC_OVERFLOW; }
        int ed = 0;
        while (i < n) {
            c = b[i++];
            if (c >= '0' && c <= '9') { if (ed < 40) ed = ed * 10 + (c - '0'); }
            else break;
        }
        exp += eneg ? -ed : ed;
    }
    exp -= siglen - point;
    while (i < n) { c = b[i++]; if (!fws((char)c)) return WDEC_OVERFLOW; }
    int change = exp + scale;
    if (siglen + change > precision) return WDEC_OVERFLOW;
    __int128 v = sig;
    if (change >= 0) {
        v *= wpow10_i128(change);
    } else {
        int k = -change;
        if (k > 38) v = 0;
        else {
            __int128 half = (neg ? -5 : 5) * wpow10_i128(k - 1);
            v = (v + half) / wpow10_i128(k);
        }
    }
    *out = v;
    return WDEC_OK;
}

/* BigDecimal grammar into digits + exponent. Keeps up to 40 significant digits exactly and
   remembers whether anything non-zero was dropped (for rounding). */
typedef struct DecText {
    bool neg;
    char dig[48];
    int nd;            /* significant digits kept (leading zeros stripped) */
    int exp10;         /* value = 0.dig... no: value = int(dig) * 10^exp10 */
    bool dropped_nonzero;
    int dropped_first; /* first dropped digit (for HALF_UP) or -1 */
} DecText;

static bool parse_java_text(const char *s, int len, DecText *t)
{
    int i = 0;
    memset(t, 0, sizeof *t);
    t->dropped_first = -1;
    if (i < len && (s[i] == '-' || s[i] == '+')) { t->neg = s[i] == '-'; i++; }
    int ndigits = 0, frac = 0, dropped = 0;
    bool point = false;
    for (; i < len; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            ndigits++;
            if (point) frac++;
            if (t->nd == 0 && c == '0') continue;
            if (t->nd < 40) t->dig[t->nd++] = c;
            else {
                if (t->dropped_first < 0) t->dropped_first = c - '0';
                else if (c != '0') t->dropped_nonzero = true;
                dropped++;
            }
        } else if (c == '.' && !point) point = true;
        else break;
    }
    if (ndigits == 0) return false;
    long e = 0;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool en = false;
        if (i < len && (s[i] == '-' || s[i] == '+')) { en = s[i] == '-'; i++; }
        int ed = 0;
        while (i < len && s[i] >= '0' && s[i] <= '9') { if (e < 100000000) e = e * 10 + (s[i] - '0'); i++; ed++; }
        if (ed == 0) return false;
        if (en) e = -e;
    }
    if (i != len) return false;
    t->exp10 = (int)(e - frac + dropped);
    return true;
}

/* Value of t rounded HALF_UP to `scale`; false when it needs more than 38 digits. */
static bool text_to_scale(const DecText *t, int scale, __int128 *out)
{
    /* value = D * 10^exp10 where D = digits; want round(value * 10^scale) */
    int shift = t->exp10 + scale;
    __int128 v = 0;
    if (t->nd == 0) { *out = 0; return true; }
    if (shift >= 0) {
        if (t->nd + shift > 38) return false;
        for (int k = 0; k < t->nd; k++) v = v * 10 + (t->dig[k] - '0');
        v *= wpow10_i128(shift);
    } else {
        int keep = t->nd + shift;     /* digits kept before the rounding position */
        int first_dropped;
        if (keep > 38) return false;
        if (keep < 0) { *out = 0; return true; }
        for (int k = 0; k < keep; k++) v = v * 10 + (t->dig[k] - '0');
        first_dropped = keep < t->nd ? t->dig[keep] - '0' : t->dropped_first;
        if (first_dropped >= 5) v += 1;
    }
    *out = t->neg ? -v : v;
    return true;
}

bool wdec_parse_java(const char *s, int len, __int128 *unscaled, int *scale)
{
    DecText t;
    if (!parse_java_text(s, len, &t)) return false;
    if (t.nd > 38 || t.dropped_first >= 0) return false;
    __int128 v = 0;
    for (int k = 0; k < t.nd; k++) v = v * 10 + (t.dig[k] - '0');
    *unscaled = t.neg ? -v : v;
    *scale = -t.exp10;
    return true;
}

WDecParse wdec_parse_flink(const char *s, int len, int p, int scale, __int128 *out)
{
    if (p <= 18 && len <= 18) return parse_compact((const unsigned char *)s, len, p, scale, out);
    int a = 0, b = len;
    while (a < b && fws(s[a])) a++;
    while (b > a && fws(s[b - 1])) b--;
    DecText t;
    if (!parse_java_text(s + a, b - a, &t)) return WDEC_INVALID;
    __int128 v;
    if (!text_to_scale(&t, scale, &v) || !wdec_fits(v, p)) return WDEC_OVERFLOW;
    *out = v;
    return WDEC_OK;
}

bool wdec_from_double(double d, int p, int s, __int128 *out, bool *nan_inf)
{
    *nan_inf = false;
    if (d != d || d == 1.0 / 0.0 || d == -1.0 / 0.0) { *nan_inf = true; return false; }
    char buf[40];
    int n = wfmt_double_java(d, buf);
    DecText t;
    if (!parse_java_text(buf, n, &t)) return false;
    __int128 v;
    if (!text_to_scale(&t, s, &v) || !wdec_fits(v, p)) return false;
    *out = v;
    return true;
}

int wdec_abs_digits(__int128 v, char *buf)
{
    unsigned __int128 u = v < 0 ? (unsigned __int128)(-(v + 1)) + 1 : (unsigned __int128)v;
    char tmp[48];
    int n = 0;
    do { tmp[n++] = (char)('0' + (int)(u % 10)); u /= 10; } while (u);
    for (int i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
    buf[n] = 0;
    return n;
}

double wdec_to_double(__int128 v, int scale)
{
    char buf[64];
    int n = 0;
    if (v < 0) buf[n++] = '-';
    n += wdec_abs_digits(v, buf + n);
    n += snprintf(buf + n, sizeof buf - (size_t)n, "e%d", -scale);
    return strtod(buf, NULL);
}

int64_t wdec_to_long(__int128 v, int scale)
{
    __int128 q = scale > 0 ? (scale > 38 ? 0 : v / wpow10_i128(scale)) : v;
    return (int64_t)(uint64_t)(unsigned __int128)q;
}
