/*
 * format.c — values as text: CAST-to-STRING / SQL client rendering (wfmt_sql), Row.toString
 * rendering (wfmt_java), Java's Double/Float.toString, decimals, and display widths.
 *
 * Owns: everything declared in format.h. Rendering rules follow Flink's cast rules
 * (NumericToString, BooleanToString 'TRUE'/'FALSE', TimestampToString with the precision's
 * digits, IntervalToString '+d hh:mm:ss.SSS' / '+y-mm', ArrayToString '[a, b]', MapToString
 * '{k=v}', RowToString '(a, b)', nested NULL as 'NULL', BYTES printed as x'hex') and Java's
 * toString of the external classes for Row.toString. May call datetime.c, decimal.c, common/.
 */
#include "format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decimal.h"

/* ------------------------------------------------------------ Java Double.toString */

/* Shortest decimal digits that round-trip: digits (no dot) in dig, decimal exponent e such that
   value = 0.d1d2... * 10^e. */
static bool roundtrips(double d, bool is_float, int p, char *buf, size_t bufsz)
{
    snprintf(buf, bufsz, "%.*e", p - 1, d);
    return is_float ? (strtof(buf, NULL) == (float)d) : (strtod(buf, NULL) == d);
}

static int shortest_digits(double d, bool is_float, char *dig, int *e10)
{
    char buf[64];
    /* Java prints at least two significant digits (d.d), choosing the closest such value.
       Round-tripping is monotone in the precision, so binary-search the shortest. */
    int lo = 2, hi = is_float ? 9 : 17;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (roundtrips(d, is_float, mid, buf, sizeof buf)) hi = mid;
        else lo = mid + 1;
    }
    snprintf(buf, sizeof buf, "%.*e", lo - 1, d);
    /* buf = d[.ddd]e[+-]xx */
    int n = 0;
    const char *q = buf;
    for (; *q && *q != 'e'; q++) if (*q >= '0' && *q <= '9') dig[n++] = *q;
    int ex = atoi(q + 1);
    while (n > 1 && dig[n - 1] == '0') n--;
    dig[n] = 0;
    *e10 = ex + 1;
    return n;
}

static int java_fp_to_string(double d, bool is_float, char *buf)
{
    if (d != d) return sprintf(buf, "NaN");
    if (isinf(d)) return sprintf(buf, d > 0 ? "Infinity" : "-Infinity");
    if (d == 0) return sprintf(buf, signbit(d) ? "-0.0" : "0.0");
    char *p = buf;
    if (d < 0) { *p++ = '-'; d = -d; }
    char dig[32];
    int e;
    int n = shortest_digits(d, is_float, dig, &e);
    if (d >= 1e-3 && d < 1e7) {
        if (e <= 0) {
            *p++ = '0'; *p++ = '.';
            for (int i = 0; i < -e; i++) *p++ = '0';
            memcpy(p, dig, (size_t)n); p += n;
        } else {
            for (int i = 0; i < e; i++) *p++ = i < n ? dig[i] : '0';
            *p++ = '.';
            if (n > e) { memcpy(p, dig + e, (size_t)(n - e)); p += n - e; }
            else *p++ = '0';
        }
    } else {
        *p++ = dig[0];
        *p++ = '.';
        if (n > 1) { memcpy(p, dig + 1, (size_t)(n - 1)); p += n - 1; }
        else *p++ = '0';
        p += sprintf(p, "E%d", e - 1);
    }
    *p = 0;
    return (int)(p - buf);
}

int wfmt_double_java(double d, char *buf) { return java_fp_to_string(d, false, buf); }
int wfmt_float_java(float f, char *buf) { return java_fp_to_string((double)f, true, buf); }

/* ------------------------------------------------------------ decimals */

int wfmt_decimal(__int128 unscaled, int scale, char *buf)
{
    char dig[48];
    int n = wdec_abs_digits(unscaled, dig);
    char *p = buf;
    if (unscaled < 0) *p++ = '-';
    if (scale <= 0) {
        memcpy(p, dig, (size_t)n); p += n;
        for (int i = 0; i < -scale && unscaled != 0; i++) *p++ = '0';
    } else if (n > scale) {
        memcpy(p, dig, (size_t)(n - scale)); p += n - scale;
        *p++ = '.';
        memcpy(p, dig + n - scale, (size_t)scale); p += scale;
    } else {
        *p++ = '0'; *p++ = '.';
        for (int i = 0; i < scale - n; i++) *p++ = '0';
        memcpy(p, dig, (size_t)n); p += n;
    }
    *p = 0;
    return (int)(p - buf);
}

/* java.math.BigDecimal.toString (scientific when the adjusted exponent < -6). */
static int fmt_bigdecimal_java(__int128 unscaled, int scale, char *buf)
{
    char dig[48];
    int n = wdec_abs_digits(unscaled, dig);
    long adjusted = -(long)scale + (n - 1);
    if (scale >= 0 && adjusted >= -6) return wfmt_decimal(unscaled, scale, buf);
    char *p = buf;
    if (unscaled < 0) *p++ = '-';
    *p++ = dig[0];
    if (n > 1) { *p++ = '.'; memcpy(p, dig + 1, (size_t)(n - 1)); p += n - 1; }
    p += sprintf(p, "E%s%ld", adjusted >= 0 ? "+" : "", adjusted);
    *p = 0;
    return (int)(p - buf);
}

/* ------------------------------------------------------------ display width */

static const uint32_t WIDE[][2] = {
    {0x1100, 0x115F}, {0x231A, 0x231B}, {0x2329, 0x232A}, {0x23E9, 0x23EC}, {0x23F0, 0x23F0},
    {0x23F3, 0x23F3}, {0x25FD, 0x25FE}, {0x2614, 0x2615}, {0x2648, 0x2653}, {0x267F, 0x267F},
    {0x2693, 0x2693}, {0x26A1, 0x26A1}, {0x26AA, 0x26AB}, {0x26BD, 0x26BE}, {0x26C4, 0x26C5},
    {0x26CE, 0x26CE}, {0x26D4, 0x26D4}, {0x26EA, 0x26EA}, {0x26F2, 0x26F3}, {0x26F5, 0x26F5},
    {0x26FA, 0x26FA}, {0x26FD, 0x26FD}, {0x2705, 0x2705}, {0x270A, 0x270B}, {0x2728, 0x2728},
    {0x274C, 0x274C}, {0x274E, 0x274E}, {0x2753, 0x2755}, {0x2757, 0x2757}, {0x2795, 0x2797},
    {0x27B0, 0x27B0}, {0x27BF, 0x27BF}, {0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55},
    {0x2E80, 0x2E99}, {0x2E9B, 0x2EF3}, {0x2F00, 0x2FD5}, {0x2FF0, 0x2FFB}, {0x3000, 0x303E},
    {0x3041, 0x3096}, {0x3099, 0x30FF}, {0x3105, 0x312F}, {0x3131, 0x318E}, {0x3190, 0x31E3},
    {0x31F0, 0x321E}, {0x3220, 0x3247}, {0x3250, 0x4DBF}, {0x4E00, 0xA48C}, {0xA490, 0xA4C6},
    {0xA960, 0xA97C}, {0xAC00, 0xD7A3}, {0xF900, 0xFAFF}, {0xFE10, 0xFE19}, {0xFE30, 0xFE52},
    {0xFE54, 0xFE66}, {0xFE68, 0xFE6B}, {0xFF01, 0xFF60}, {0xFFE0, 0xFFE6}, {0x16FE0, 0x16FE4},
    {0x16FF0, 0x16FF1}, {0x17000, 0x187F7}, {0x18800, 0x18CD5}, {0x18D00, 0x18D08},
    {0x1B000, 0x1B11E}, {0x1B150, 0x1B152}, {0x1B164, 0x1B167}, {0x1B170, 0x1B2FB},
    {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A},
    {0x1F200, 0x1F202}, {0x1F210, 0x1F23B}, {0x1F240, 0x1F248}, {0x1F250, 0x1F251},
    {0x1F260, 0x1F265}, {0x1F300, 0x1F320}, {0x1F32D, 0x1F335}, {0x1F337, 0x1F37C},
    {0x1F37E, 0x1F393}, {0x1F3A0, 0x1F3CA}, {0x1F3CF, 0x1F3D3}, {0x1F3E0, 0x1F3F0},
    {0x1F3F4, 0x1F3F4}, {0x1F3F8, 0x1F43E}, {0x1F440, 0x1F440}, {0x1F442, 0x1F4FC},
    {0x1F4FF, 0x1F53D}, {0x1F54B, 0x1F54E}, {0x1F550, 0x1F567}, {0x1F57A, 0x1F57A},
    {0x1F595, 0x1F596}, {0x1F5A4, 0x1F5A4}, {0x1F5FB, 0x1F64F}, {0x1F680, 0x1F6C5},
    {0x1F6CC, 0x1F6CC}, {0x1F6D0, 0x1F6D2}, {0x1F6D5, 0x1F6D7}, {0x1F6EB, 0x1F6EC},
    {0x1F6F4, 0x1F6FC}, {0x1F7E0, 0x1F7EB}, {0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945},
    {0x1F947, 0x1F978}, {0x1F97A, 0x1F9CB}, {0x1F9CD, 0x1F9FF}, {0x1FA70, 0x1FA74},
    {0x1FA78, 0x1FA7A}, {0x1FA80, 0x1FA86}, {0x1FA90, 0x1FAA8}, {0x1FAB0, 0x1FAB6},
    {0x1FAC0, 0x1FAC2}, {0x1FAD0, 0x1FAD6}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

static bool is_wide(uint32_t cp)
{
    int lo = 0, hi = (int)(sizeof WIDE / sizeof WIDE[0]) - 1;
    if (cp < WIDE[0][0]) return false;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (cp < WIDE[mid][0]) hi = mid - 1;
        else if (cp > WIDE[mid][1]) lo = mid + 1;
        else return true;
    }
    return false;
}

int wdisplay_width(const char *utf8, int len)
{
    const unsigned char *s = (const unsigned char *)utf8;
    int w = 0, i = 0;
    while (i < len) {
        unsigned c = s[i];
        uint32_t cp;
        int n;
        if (c < 0x80) { cp = c; n = 1; }
        else if ((c & 0xE0) == 0xC0 && i + 1 < len) { cp = ((c & 0x1F) << 6) | (s[i + 1] & 0x3F); n = 2; }
        else if ((c & 0xF0) == 0xE0 && i + 2 < len) {
            cp = ((c & 0x0F) << 12) | ((s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F); n = 3;
        } else if ((c & 0xF8) == 0xF0 && i + 3 < len) {
            cp = ((c & 0x07) << 18) | ((s[i + 1] & 0x3F) << 12) | ((s[i + 2] & 0x3F) << 6) | (s[i + 3] & 0x3F);
            n = 4;
        } else { cp = 0xFFFD; n = 1; }
        w += cp >= 0x10000 ? 2 : 1;          /* UTF-16 code units */
        if (is_wide(cp)) w += 1;
        i += n;
    }
    return w;
}

/* ------------------------------------------------------------ intervals */

static void fmt_interval_ym(int64_t months, WStrBuf *out)
{
    int64_t a = months < 0 ? -months : months;
    wsb_printf(out, "%c%lld-%02lld", months < 0 ? '-' : '+', (long long)(a / 12), (long long)(a % 12));
}

static void fmt_interval_dt(int64_t ms, WStrBuf *out)
{
    uint64_t a = ms < 0 ? (uint64_t)(-(ms + 1)) + 1 : (uint64_t)ms;
    unsigned long long d = a / 86400000ULL, r = a % 86400000ULL;
    wsb_printf(out, "%c%llu %02llu:%02llu:%02llu.%03llu", ms < 0 ? '-' : '+', d, r / 3600000ULL,
               r / 60000ULL % 60, r / 1000ULL % 60, r % 1000ULL);
}

/* ------------------------------------------------------------ wfmt_sql */

static WTimestamp ltz_to_local(WTimestamp ts, const WTimeZone *tz)
{
    WTimestamp r = ts;
    r.ms += (int64_t)wtz_offset_at_instant(tz, ts.ms) * 1000;
    return r;
}

static void sql_value(const WType *t, WDatum v, const WTimeZone *tz, WStrBuf *out, bool nested);

static void sql_nested(const WType *t, WDatum v, bool is_null, const WTimeZone *tz, WStrBuf *out)
{
    if (is_null) { wsb_append(out, "NULL"); return; }
    sql_value(t, v, tz, out, true);
}

static void sql_value(const WType *t, WDatum v, const WTimeZone *tz, WStrBuf *out, bool nested)
{
    char buf[64];
    (void)nested;
    switch (t->id) {
    case WT_NULL: wsb_append(out, "NULL"); break;
    case WT_BOOLEAN: wsb_append(out, v.i ? "TRUE" : "FALSE"); break;
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
        wsb_printf(out, "%lld", (long long)v.i);
        break;
    case WT_FLOAT: wfmt_float_java((float)v.d, buf); wsb_append(out, buf); break;
    case WT_DOUBLE: wfmt_double_java(v.d, buf); wsb_append(out, buf); break;
    case WT_DECIMAL: wfmt_decimal(v.dec, t->scale, buf); wsb_append(out, buf); break;
    case WT_CHAR: case WT_VARCHAR: wsb_appendn(out, v.s.p, (size_t)v.s.len); break;
    case WT_BINARY: case WT_VARBINARY: {
        static const char hx[] = "0123456789abcdef";
        wsb_append(out, "x'");
        for (int i = 0; i < v.s.len; i++) {
            unsigned char c = (unsigned char)v.s.p[i];
            wsb_putc(out, hx[c >> 4]);
            wsb_putc(out, hx[c & 15]);
        }
        wsb_putc(out, '\'');
        break;
    }
    case WT_DATE: wfmt_date(v.i, buf); wsb_append(out, buf); break;
    case WT_TIME: wfmt_time(v.i, t->precision, buf); wsb_append(out, buf); break;
    case WT_TIMESTAMP: wfmt_timestamp(v.ts, t->precision, buf); wsb_append(out, buf); break;
    case WT_TIMESTAMP_LTZ: wfmt_timestamp(ltz_to_local(v.ts, tz), t->precision, buf); wsb_append(out, buf); break;
    case WT_INTERVAL_YM: fmt_interval_ym(v.i, out); break;
    case WT_INTERVAL_DT: fmt_interval_dt(v.i, out); break;
    case WT_ARRAY: {
        WComposite *c = v.cx;
        wsb_putc(out, '[');
        for (int i = 0; c && i < c->n; i++) {
            if (i) wsb_append(out, ", ");
            sql_nested(t->elem, c->vals[i], c->nulls && c->nulls[i], tz, out);
        }
        wsb_putc(out, ']');
        break;
    }
    case WT_MULTISET: {
        /* stored as elements; rendered {elem=count} in first-seen order */
        WComposite *c = v.cx;
        wsb_putc(out, '{');
        int printed = 0;
        for (int i = 0; c && i < c->n; i++) {
            bool ni = c->nulls && c->nulls[i];
            bool seen = false;
            int cnt = 0;
            for (int j = 0; j < c->n; j++) {
                bool nj = c->nulls && c->nulls[j];
                bool eq = ni == nj && (ni || memcmp(&c->vals[i], &c->vals[j], sizeof(WDatum)) == 0 ||
                                       (wtype_is_string(t->elem) && c->vals[i].s.len == c->vals[j].s.len &&
                                        memcmp(c->vals[i].s.p, c->vals[j].s.p, (size_t)c->vals[i].s.len) == 0));
                if (eq) { if (j < i) { seen = true; break; } cnt++; }
            }
            if (seen) continue;
            if (printed++) wsb_append(out, ", ");
            sql_nested(t->elem, c->vals[i], ni, tz, out);
            wsb_printf(out, "=%d", cnt);
        }
        wsb_putc(out, '}');
        break;
    }
    case WT_MAP: {
        WComposite *c = v.cx;
        wsb_putc(out, '{');
        for (int i = 0; c && i < c->n; i++) {
            if (i) wsb_append(out, ", ");
            sql_nested(t->key, c->vals[2 * i], c->nulls && c->nulls[2 * i], tz, out);
            wsb_putc(out, '=');
            sql_nested(t->elem, c->vals[2 * i + 1], c->nulls && c->nulls[2 * i + 1], tz, out);
        }
        wsb_putc(out, '}');
        break;
    }
    case WT_ROW: {
        WComposite *c = v.cx;
        wsb_putc(out, '(');
        for (int i = 0; c && i < c->n && i < t->nfields; i++) {
            if (i) wsb_append(out, ", ");
            sql_nested(t->fields[i], c->vals[i], c->nulls && c->nulls[i], tz, out);
        }
        wsb_putc(out, ')');
        break;
    }
    default: break;
    }
}

void wfmt_sql(const WType *t, WDatum v, bool is_null, const WTimeZone *tz, WStrBuf *out)
{
    if (is_null) { wsb_append(out, "NULL"); return; }
    sql_value(t, v, tz, out, false);
}

/* ------------------------------------------------------------ wfmt_java (Row.toString) */

static void java_period(int64_t months, WStrBuf *out)
{
    if (months == 0) { wsb_append(out, "P0D"); return; }
    int64_t y = months / 12, m = months % 12;
    wsb_putc(out, 'P');
    if (y) wsb_printf(out, "%lldY", (long long)y);
    if (m) wsb_printf(out, "%lldM", (long long)m);
}

static void java_duration(int64_t ms, WStrBuf *out)
{
    if (ms == 0) { wsb_append(out, "PT0S"); return; }
    int64_t secs_total = ms / 1000;                     /* java: seconds floor, nanos positive */
    int64_t msr = ms % 1000;
    if (msr < 0) { msr += 1000; secs_total -= 1; }
    int64_t hours = secs_total / 3600, minutes = (secs_total % 3600) / 60, secs = secs_total % 60;
    wsb_append(out, "PT");
    if (hours) wsb_printf(out, "%lldH", (long long)hours);
    if (minutes) wsb_printf(out, "%lldM", (long long)minutes);
    if (secs == 0 && msr == 0 && out->len > 2) return;
    if (secs < 0 && msr > 0) {
        if (secs == -1) wsb_append(out, "-0");
        else wsb_printf(out, "%lld", (long long)(secs + 1));
    } else {
        wsb_printf(out, "%lld", (long long)secs);
    }
    if (msr > 0) {
        int64_t frac = secs < 0 ? 1000 - msr : msr;
        char f[8];
        snprintf(f, sizeof f, "%03lld", (long long)frac);
        int n = 3;
        while (n > 0 && f[n - 1] == '0') n--;
        f[n] = 0;
        wsb_putc(out, '.');
        wsb_append(out, f);
    }
    wsb_putc(out, 'S');
}

static void java_value(const WType *t, WDatum v, bool is_null, const WTimeZone *tz, WStrBuf *out)
{
    char buf[64];
    if (is_null) { wsb_append(out, "null"); return; }
    switch (t->id) {
    case WT_NULL: wsb_append(out, "null"); break;
    case WT_BOOLEAN: wsb_append(out, v.i ? "true" : "false"); break;
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
        wsb_printf(out, "%lld", (long long)v.i);
        break;
    case WT_FLOAT: wfmt_float_java((float)v.d, buf); wsb_append(out, buf); break;
    case WT_DOUBLE: wfmt_double_java(v.d, buf); wsb_append(out, buf); break;
    case WT_DECIMAL: fmt_bigdecimal_java(v.dec, t->scale, buf); wsb_append(out, buf); break;
    case WT_CHAR: case WT_VARCHAR: wsb_appendn(out, v.s.p, (size_t)v.s.len); break;
    case WT_BINARY: case WT_VARBINARY:
        wsb_putc(out, '[');
        for (int i = 0; i < v.s.len; i++) {
            if (i) wsb_append(out, ", ");
            wsb_printf(out, "%d", (int)(signed char)v.s.p[i]);
        }
        wsb_putc(out, ']');
        break;
    case WT_DATE: wfmt_date(v.i, buf); wsb_append(out, buf); break;
    case WT_TIME: wfmt_time_java(v.i, buf); wsb_append(out, buf); break;
    case WT_TIMESTAMP: wfmt_timestamp_java(v.ts, buf); wsb_append(out, buf); break;
    case WT_TIMESTAMP_LTZ: {
        /* java.time.Instant.toString: seconds always present, fraction in 3/6/9 groups, 'Z' */
        int n = wfmt_timestamp_java(v.ts, buf);
        int64_t nano = (((v.ts.ms % 1000) + 1000) % 1000) * 1000000 + v.ts.ns;
        int64_t secs_of_min = (((v.ts.ms / 1000) % 60) + 60) % 60;
        if (secs_of_min == 0 && nano == 0) n += sprintf(buf + n, ":00");
        buf[n++] = 'Z';
        buf[n] = 0;
        wsb_append(out, buf);
        (void)tz;
        break;
    }
    case WT_INTERVAL_YM: java_period(v.i, out); break;
    case WT_INTERVAL_DT: java_duration(v.i, out); break;
    case WT_ARRAY: {
        WComposite *c = v.cx;
        wsb_putc(out, '[');
        for (int i = 0; c && i < c->n; i++) {
            if (i) wsb_append(out, ", ");
            java_value(t->elem, c->vals[i], c->nulls && c->nulls[i], tz, out);
        }
        wsb_putc(out, ']');
        break;
    }
    case WT_MAP: {
        WComposite *c = v.cx;
        wsb_putc(out, '{');
        for (int i = 0; c && i < c->n; i++) {
            if (i) wsb_append(out, ", ");
            java_value(t->key, c->vals[2 * i], c->nulls && c->nulls[2 * i], tz, out);
            wsb_putc(out, '=');
            java_value(t->elem, c->vals[2 * i + 1], c->nulls && c->nulls[2 * i + 1], tz, out);
        }
        wsb_putc(out, '}');
        break;
    }
    case WT_MULTISET: {
        WStrBuf tmp;
        wsb_init(&tmp);
        sql_value(t, v, tz, &tmp, true);
        wsb_append(out, tmp.buf);
        wsb_free(&tmp);
        break;
    }
    case WT_ROW: {
        WComposite *c = v.cx;
        wsb_append(out, "+I[");
        for (int i = 0; c && i < c->n && i < t->nfields; i++) {
            if (i) wsb_append(out, ", ");
            java_value(t->fields[i], c->vals[i], c->nulls && c->nulls[i], tz, out);
        }
        wsb_putc(out, ']');
        break;
    }
    default: break;
    }
}

void wfmt_java(const WType *t, WDatum v, bool is_null, const WTimeZone *tz, WStrBuf *out)
{
    java_value(t, v, is_null, tz, out);
}
