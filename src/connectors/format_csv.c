/*
 * format_csv.c — the 'csv' format: options (Flink's CsvCommons validation), per-value conversion
 * with Flink's CSV semantics (CsvToRowDataConverters over Jackson's CSV parser) and the CSV writer
 * (RowDataToCsvConverters + Jackson's CsvGenerator quoting). See csv_reader.h for the contract.
 * The row parser itself lives in csv_reader.c. Depends on types/, common/.
 */
#include "../common/base64.h"
#include "csv_reader.h"
#include "conn_internal.h"
#include "../types/format.h"

#include <assert.h>
#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------------------------------ */
/* options                                                                                     */

void wcsv_config_init(WCsvConfig *cfg, bool changelog)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->delim = ',';
    cfg->quote = '"';
    cfg->escape = -1;
    cfg->array_delim = ';';
    cfg->decimal_scientific = true;
    cfg->changelog = changelog;
    cfg->null_literal_quoted = !changelog;
}

void wcsv_config_free(WCsvConfig *cfg)
{
    free(cfg->null_literal);
    cfg->null_literal = NULL;
}

/* org.apache.commons.text.StringEscapeUtils.unescapeJava, enough for delimiters: \t \n \r \b \f
   \\ \' \" \uXXXX and octal escapes. Writes bytes (UTF-8 for \u) into out; returns the number of
   Java chars produced, or -1 on a malformed escape. */
static int unescape_java(const char *s, char *out, size_t outsz, int *nbytes)
{
    int chars = 0;
    size_t o = 0;
    for (const char *p = s; *p; ) {
        unsigned cp;
        if (*p == '\\' && p[1]) {
            p++;
            switch (*p) {
            case 't': cp = '\t'; p++; break;
            case 'n': cp = '\n'; p++; break;
            case 'r': cp = '\r'; p++; break;
            case 'b': cp = '\b'; p++; break;
            case 'f': cp = '\f'; p++; break;
            case 'u': {
                while (*p == 'u') p++;
                cp = 0;
                for (int i = 0; i < 4; i++, p++) {
                    if (!isxdigit((unsigned char)*p)) return -1;
                    cp = cp * 16 + (unsigned)(isdigit((unsigned char)*p) ? *p - '0' : (tolower((unsigned char)*p) - 'a' + 10));
                }
                break;
            }
            default:
                if (*p >= '0' && *p <= '7') {
                    cp = 0;
                    int n = 0, maxd = *p <= '3' ? 3 : 2;
                    while (n < maxd && *p >= '0' && *p <= '7') { cp = cp * 8 + (unsigned)(*p - '0'); p++; n++; }
                } else {
                    cp = (unsigned char)*p++;
                }
            }
        } else {
            cp = (unsigned char)*p++;
            if (cp >= 0x80) {   /* count a UTF-8 sequence as one char */
                if (o < outsz) out[o++] = (char)cp;
                while ((*p & 0xC0) == 0x80) { if (o < outsz) out[o++] = *p; p++; }
                chars++;
                continue;
            }
        }
        if (cp < 0x80) { if (o < outsz) out[o++] = (char)cp; }
        else if (cp < 0x800) { if (o + 1 < outsz) { out[o++] = (char)(0xC0 | (cp >> 6)); out[o++] = (char)(0x80 | (cp & 0x3F)); } }
        else { if (o + 2 < outsz) { out[o++] = (char)(0xE0 | (cp >> 12)); out[o++] = (char)(0x80 | ((cp >> 6) & 0x3F)); out[o++] = (char)(0x80 | (cp & 0x3F)); } }
        chars++;
    }
    *nbytes = (int)o;
    return chars;
}

/* Java String.length() of a UTF-8 string (BMP chars; enough for option values). */
static int java_length(const char *s)
{
    int n = 0;
    for (; *s; s++) if (((unsigned char)*s & 0xC0) != 0x80) n++;
    return n;
}

static bool single_char_option(const WOptions *o, const char *prefix, const char *name, bool unescape,
                               int *out, WError *err)
{
    char key[128];
    snprintf(key, sizeof key, "%s%s", prefix, name);
    const char *v = wopts_get(o, key);
    if (!v) return true;
    char buf[64];
    int nbytes = 0, nchars;
    if (unescape) {
        nchars = unescape_java(v, buf, sizeof buf, &nbytes);
    } else {
        nchars = java_length(v);
        nbytes = (int)strlen(v);
        if (nbytes < (int)sizeof buf) memcpy(buf, v, (size_t)nbytes);
    }
    if (nchars != 1)
        return werr_set(err, WEXC_VALIDATION,
                        "Option '%s' must be a string with single character, but was: %s", key, v);
    if (nbytes != 1)
        return werr_set(err, WEXC_VALIDATION,
                        "Option '%s' must be a single-byte (ASCII) character in weir, but was: %s", key, v);
    *out = (unsigned char)buf[0];
    return true;
}

bool wcsv_config_from_options(WCsvConfig *cfg, const WOptions *o, const char *prefix, bool changelog,
                              WError *err)
{
    wcsv_config_init(cfg, changelog);
    char key[128];
    bool disable_quote = false, b;
    snprintf(key, sizeof key, "%sdisable-quote-character", prefix);
    if (!wopts_get_bool(o, key, false, &disable_quote, err)) return false;
    snprintf(key, sizeof key, "%squote-character", prefix);
    bool has_quote = wopts_get(o, key) != NULL;
    if (disable_quote && has_quote)
        return werr_set(err, WEXC_VALIDATION,
                        "Format cannot define a quote character and disabled quote character at the same time.");
    int c;
    c = ',';
    if (!single_char_option(o, prefix, "field-delimiter", true, &c, err)) return false;
    cfg->delim = (char)c;
    c = ';';
    if (!single_char_option(o, prefix, "array-element-delimiter", false, &c, err)) return false;
    cfg->array_delim = (char)c;
    c = '"';
    if (!single_char_option(o, prefix, "quote-character", false, &c, err)) return false;
    cfg->quote = disable_quote ? -1 : c;
    c = -1;
    if (!single_char_option(o, prefix, "escape-character", false, &c, err)) return false;
    cfg->escape = c;
    snprintf(key, sizeof key, "%sallow-comments", prefix);
    if (!wopts_get_bool(o, key, false, &b, err)) return false;
    cfg->allow_comments = b;
    snprintf(key, sizeof key, "%signore-parse-errors", prefix);
    if (!wopts_get_bool(o, key, false, &b, err)) return false;
    cfg->ignore_errors = b;
    snprintf(key, sizeof key, "%swrite-bigdecimal-in-scientific-notation", prefix);
    if (!wopts_get_bool(o, key, true, &b, err)) return false;
    cfg->decimal_scientific = b;
    snprintf(key, sizeof key, "%snull-literal", prefix);
    const char *nl = wopts_get(o, key);
    if (nl) {
        cfg->null_literal = wstrdup(nl);
        cfg->null_literal_len = (int)strlen(nl);
    }
    if (cfg->delim == '\n' || cfg->delim == '\r' || (cfg->quote >= 0 && cfg->delim == cfg->quote))
        return werr_set(err, WEXC_VALIDATION, "Option '%sfield-delimiter' cannot be a line break or the quote character.",
                        prefix);
    return true;
}

static bool simple_type(const WType *t)
{
    return !wtype_is_composite(t);
}

bool wcsv_check_types(int ncols, const char **names, const WType **types, WError *err)
{
    for (int i = 0; i < ncols; i++) {
        const WType *t = types[i];
        WStrBuf s;
        wsb_init(&s);
        bool ok = true;
        if (t->id == WT_MAP || t->id == WT_MULTISET || t->id == WT_NULL) {
            wtype_to_string(t, &s);
            werr_set(err, WEXC_ILLEGAL_ARG, "Unsupported type '%s' for field '%s'.", s.buf, names[i]);
            ok = false;
        } else if (t->id == WT_ARRAY || t->id == WT_ROW) {
            int n = t->id == WT_ARRAY ? 1 : t->nfields;
            for (int j = 0; j < n && ok; j++) {
                const WType *e = t->id == WT_ARRAY ? t->elem : t->fields[j];
                if (!simple_type(e)) {
                    wtype_to_string(e, &s);
                    werr_set(err, WEXC_ILLEGAL_ARG,
                             "Only simple types are supported in the second level nesting of fields '%s' but was: %s",
                             names[i], s.buf);
                    ok = false;
                }
            }
        } else if (t->id == WT_TIME && t->precision > 3) {
            werr_set(err, WEXC_ILLEGAL_ARG,
                     "Csv does not support TIME type with precision: %d, it only supports precision 0 ~ 3.",
                     t->precision);
            ok = false;
        }
        wsb_free(&s);
        if (!ok) return false;
    }
    return true;
}

/* ------------------------------------------------------------------------------------------ */
/* value conversion                                                                            */

static void java_trim(const char **s, int *len)
{
    const char *p = *s;
    int n = *len;
    while (n > 0 && (unsigned char)*p <= ' ') { p++; n--; }
    while (n > 0 && (unsigned char)p[n - 1] <= ' ') n--;
    *s = p;
    *len = n;
}

static int err_input(char *eb, size_t esz, const char *s, int len)
{
    snprintf(eb, esz, "For input string: \"%.*s\"", len > 200 ? 200 : len, s);
    return -1;
}

/* Long.parseLong: [+-]digits, range of int64. */
static bool java_parse_long(const char *s, int len, int64_t *out)
{
    if (len <= 0) return false;
    int i = 0;
    bool neg = false;
    if (s[0] == '-' || s[0] == '+') { neg = s[0] == '-'; i = 1; if (len == 1) return false; }
    uint64_t v = 0;
    const uint64_t lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; i < len; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (d > 9) return false;
        if (v > (lim - d) / 10) return false;
        v = v * 10 + d;
    }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}

static int conv_integer(const WType *t, const char *s, int len, WDatum *out, char *eb, size_t esz)
{
    java_trim(&s, &len);
    int64_t v;
    if (!java_parse_long(s, len, &v)) return err_input(eb, esz, s, len);
    int64_t lo, hi;
    switch (t->id) {
    case WT_TINYINT: lo = -128; hi = 127; break;
    case WT_SMALLINT: lo = -32768; hi = 32767; break;
    case WT_INT: case WT_INTERVAL_YM: lo = INT32_MIN; hi = INT32_MAX; break;
    default: lo = INT64_MIN; hi = INT64_MAX; break;
    }
    if (v < lo || v > hi) {
        if (t->id == WT_TINYINT || t->id == WT_SMALLINT) {
            snprintf(eb, esz, "Value out of range. Value:\"%.*s\" Radix:10", len > 200 ? 200 : len, s);
            return -1;
        }
        return err_input(eb, esz, s, len);
    }
    out->i = v;
    return 1;
}

/* Java's FloatingDecimal grammar; converts with strtod/strtof on a cleaned copy whose '.' is the
   C library's current decimal point (so a process locale cannot change the result). */
static int conv_floating(bool is_float, const char *s, int len, WDatum *out, char *eb, size_t esz)
{
    java_trim(&s, &len);
    if (len == 0) { snprintf(eb, esz, "empty String"); return -1; }
    char buf[400];
    if (len >= (int)sizeof buf - 1) return err_input(eb, esz, s, len);
    int i = 0, o = 0;
    bool neg = false;
    if (s[i] == '+' || s[i] == '-') { neg = s[i] == '-'; i++; }
    if (len - i == 3 && memcmp(s + i, "NaN", 3) == 0) { out->d = NAN; return 1; }
    if (len - i == 8 && memcmp(s + i, "Infinity", 8) == 0) { out->d = neg ? -INFINITY : INFINITY; return 1; }
    if (neg) buf[o++] = '-';
    const char *dp = localeconv()->decimal_point;
    char dpc = dp && dp[0] ? dp[0] : '.';
    int digits = 0;
    bool hex = len - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
    if (hex) {
        bool has_p = false;
        for (; i < len; i++) {
            char c = s[i];
            if (c == 'p' || c == 'P') has_p = true;
            if ((c == 'f' || c == 'F' || c == 'd' || c == 'D') && i == len - 1 && has_p) break;
            buf[o++] = c == '.' ? dpc : c;
        }
        if (!has_p) return err_input(eb, esz, s, len);
    } else {
        while (i < len && (unsigned)(s[i] - '0') < 10) { buf[o++] = s[i++]; digits++; }
        if (i < len && s[i] == '.') {
            buf[o++] = dpc; i++;
            while (i < len && (unsigned)(s[i] - '0') < 10) { buf[o++] = s[i++]; digits++; }
        }
        if (digits == 0) return err_input(eb, esz, s, len);
        if (i < len && (s[i] == 'e' || s[i] == 'E')) {
            buf[o++] = 'e'; i++;
            if (i < len && (s[i] == '+' || s[i] == '-')) buf[o++] = s[i++];
            int ed = 0;
            while (i < len && (unsigned)(s[i] - '0') < 10) { buf[o++] = s[i++]; ed++; }
            if (ed == 0) return err_input(eb, esz, s, len);
        }
        if (i < len && (s[i] == 'f' || s[i] == 'F' || s[i] == 'd' || s[i] == 'D')) i++;
        if (i != len) return err_input(eb, esz, s, len);
    }
    buf[o] = 0;
    char *end;
    if (is_float) out->d = (double)strtof(buf, &end);
    else out->d = strtod(buf, &end);
    if (*end) return err_input(eb, esz, s, len);
    return 1;
}

/* new BigDecimal(text) then DecimalData.fromBigDecimal(bd, p, s): HALF_UP to scale, NULL when the
   precision overflows. */
static int conv_decimal(const WType *t, const char *s, int len, WDatum *out, char *eb, size_t esz)
{
    int i = 0;
    bool neg = false;
    if (len > 0 && (s[0] == '+' || s[0] == '-')) { neg = s[0] == '-'; i = 1; }
    char dig[128];
    int nd = 0, frac = 0, seen = 0;
    bool dot = false, toolong = false;
    for (; i < len; i++) {
        char c = s[i];
        if ((unsigned)(c - '0') < 10) {
            seen++;
            if (nd == 0 && c == '0') { if (dot) frac++; continue; }   /* leading zeros */
            if (nd < (int)sizeof dig) { dig[nd++] = c; if (dot) frac++; }
            else { toolong = true; if (!dot) frac--; }                 /* dropped digit */
        } else if (c == '.' && !dot) {
            dot = true;
        } else {
            break;
        }
    }
    if (seen == 0) {
        if (i < len) snprintf(eb, esz, "Character %c is neither a decimal digit number, decimal point, nor \"e\" notation exponential mark.", s[i]);
        else snprintf(eb, esz, "No digits found.");
        return -1;
    }
    int64_t exp10 = 0;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        int64_t e;
        if (!java_parse_long(s + i, len - i, &e) || e > 1000000000 || e < -1000000000) {
            snprintf(eb, esz, "Character array is missing \"exponent\" mark 'e' or 'E'.");
            return -1;
        }
        exp10 = e;
        i = len;
    }
    if (i < len) {
        snprintf(eb, esz, "Character %c is neither a decimal digit number, decimal point, nor \"e\" notation exponential mark.", s[i]);
        return -1;
    }
    (void)toolong;
    /* value = dig * 10^(exp10 - frac); target unscaled = dig * 10^(exp10 - frac + scale) */
    int64_t shift = exp10 - frac + t->scale;
    __int128 v = 0;
    if (nd == 0) {
        v = 0;
    } else if (shift >= 0) {
        if (nd + shift > 38) return 0;               /* overflow -> NULL */
        for (int k = 0; k < nd; k++) v = v * 10 + (dig[k] - '0');
        v *= wpow10_i128((int)shift);
    } else {
        int64_t keep = nd + shift;                   /* digits kept before rounding */
        if (keep > 38) return 0;
        int round_digit = 0;
        if (keep >= 0) {
            for (int64_t k = 0; k < keep; k++) v = v * 10 + (dig[k] - '0');
            if (keep < nd) round_digit = dig[keep] - '0';
        }
        if (round_digit >= 5) v += 1;
    }
    if (v >= wpow10_i128(t->precision)) return 0;     /* precision overflow -> NULL */
    out->dec = neg ? -v : v;
    return 1;
}

static int date_error(char *eb, size_t esz, const char *s, int len)
{
    snprintf(eb, esz, "Invalid date '%.*s': expected yyyy-[m]m-[d]d", len > 200 ? 200 : len, s);
    return -1;
}

/* java.sql.Date.valueOf: yyyy-[m]m-[d]d, month 1..12, day 1..31, lenient day overflow. */
static int conv_date(const char *s, int len, WDatum *out, char *eb, size_t esz)
{
    const char *d1 = memchr(s, '-', (size_t)len);
    if (!d1 || d1 == s) return date_error(eb, esz, s, len);
    const char *d2 = memchr(d1 + 1, '-', (size_t)(s + len - d1 - 1));
    if (!d2 || d2 >= s + len - 1) return date_error(eb, esz, s, len);
    int ly = (int)(d1 - s), lm = (int)(d2 - d1 - 1), ld = (int)(s + len - d2 - 1);
    if (ly != 4 || lm < 1 || lm > 2 || ld < 1 || ld > 2) return date_error(eb, esz, s, len);
    int64_t y, m, d;
    if (!java_parse_long(s, ly, &y) || !java_parse_long(d1 + 1, lm, &m) || !java_parse_long(d2 + 1, ld, &d))
        return date_error(eb, esz, s, len);
    if (m < 1 || m > 12 || d < 1 || d > 31) return date_error(eb, esz, s, len);
    out->i = wconn_days_from_civil(y, (int)m, 1) + d - 1;
    return 1;
}

static int two_digits(const char *p)
{
    if ((unsigned)(p[0] - '0') > 9 || (unsigned)(p[1] - '0') > 9) return -1;
    return (p[0] - '0') * 10 + (p[1] - '0');
}

/* ISO_LOCAL_TIME: HH:mm[:ss[.fffffffff]]; returns chars consumed or -1 (bad index in *bad). */
static int parse_iso_time(const char *s, int len, int64_t *nanos, int *bad)
{
    int h, mi, se = 0;
    int64_t ns = 0;
    if (len < 5 || (h = two_digits(s)) < 0 || s[2] != ':' || (mi = two_digits(s + 3)) < 0) { *bad = 0; return -1; }
    if (h > 23 || mi > 59) { *bad = 0; return -1; }
    int i = 5;
    if (i < len && s[i] == ':') {
        if (len < i + 3 || (se = two_digits(s + i + 1)) < 0 || se > 59) { *bad = i; return -1; }
        i += 3;
        if (i < len && s[i] == '.') {
            i++;
            int nd = 0;
            while (i < len && nd < 9 && (unsigned)(s[i] - '0') < 10) { ns = ns * 10 + (s[i] - '0'); i++; nd++; }
            for (int k = nd; k < 9; k++) ns *= 10;
        }
    }
    *nanos = ((int64_t)h * 3600 + mi * 60 + se) * 1000000000LL + ns;
    return i;
}

static int conv_time(const WType *t, const char *s, int len, WDatum *out, char *eb, size_t esz)
{
    int64_t ns;
    int bad = 0;
    int used = parse_iso_time(s, len, &ns, &bad);
    if (used < 0 || used != len) {
        snprintf(eb, esz, "Text '%.*s' could not be parsed at index %d", len > 200 ? 200 : len, s,
                 used < 0 ? bad : used);
        return -1;
    }
    int64_t ms = ns / 1000000;
    if (t->precision == 2) ms = ms / 10 * 10;
    else if (t->precision == 1) ms = ms / 100 * 100;
    else if (t->precision == 0) ms = ms / 1000 * 1000;
    out->i = ms;
    return 1;
}

/* ISO_LOCAL_DATE ' ' ISO_LOCAL_TIME (SMART resolver), plus 'Z' for TIMESTAMP_LTZ. */
int wcsv_parse_timestamp_text(const char *s, int len, bool ltz, WTimestamp *out, int *bad);
int wcsv_parse_timestamp_text(const char *s, int len, bool ltz, WTimestamp *out, int *bad)
{
    int i = 0;
    int64_t y = 0;
    bool neg = false;
    if (i < len && (s[i] == '+' || s[i] == '-')) { neg = s[i] == '-'; i++; }
    int yd = 0;
    while (i < len && (unsigned)(s[i] - '0') < 10 && yd < 10) { y = y * 10 + (s[i] - '0'); i++; yd++; }
    if (yd < 4) { *bad = 0; return -1; }
    if (neg) y = -y;
    int m, d;
    if (i + 6 > len || s[i] != '-' || (m = two_digits(s + i + 1)) < 0 || s[i + 3] != '-' ||
        (d = two_digits(s + i + 4)) < 0) { *bad = i; return -1; }
    if (m < 1 || m > 12 || d < 1 || d > 31) { *bad = i; return -1; }
    i += 6;
    int ml = wconn_month_len(y, m);
    if (d > ml) d = ml;                  /* SMART resolution */
    if (i >= len || s[i] != ' ') { *bad = i; return -1; }
    i++;
    int64_t ns;
    int tb = 0;
    int used = parse_iso_time(s + i, len - i, &ns, &tb);
    if (used < 0) { *bad = i + tb; return -1; }
    i += used;
    if (ltz) {
        if (i >= len || s[i] != 'Z') { *bad = i; return -1; }
        i++;
    }
    if (i != len) { *bad = i; return -1; }
    int64_t days = wconn_days_from_civil(y, m, d);
    out->ms = days * 86400000LL + ns / 1000000;
    out->ns = (int32_t)(ns % 1000000);
    return 1;
}

static int conv_timestamp(const WType *t, const char *s, int len, WDatum *out, char *eb, size_t esz)
{
    java_trim(&s, &len);
    int bad = 0;
    if (wcsv_parse_timestamp_text(s, len, t->id == WT_TIMESTAMP_LTZ, &out->ts, &bad) < 0) {
        snprintf(eb, esz, "Text '%.*s' could not be parsed at index %d", len > 200 ? 200 : len, s, bad);
        return -1;
    }
    return 1;
}

static int conv_binary(const char *s, int len, WDatum *out, WArena *a, char *eb, size_t esz)
{
    unsigned char *o = wa_alloc(a, (size_t)len * 3 / 4 + 4);
    long n = wbase64_decode(s, (size_t)len, o, NULL);
    if (n < 0) { snprintf(eb, esz, "Unable to deserialize byte array."); return -1; }
    const char *pad = memchr(s, '=', (size_t)len);
    for (int i = pad ? (int)(pad - s) : len; i < len; i++)
        if (s[i] != '=') { snprintf(eb, esz, "Unable to deserialize byte array."); return -1; }
    out->s.p = (const char *)o;
    out->s.len = (int)n;
    return 1;
}

static bool is_null_literal(const WCsvConfig *cfg, const char *s, int len)
{
    return cfg->null_literal && len == cfg->null_literal_len && memcmp(s, cfg->null_literal, (size_t)len) == 0;
}

static int conv_composite(const WCsvConfig *cfg, const WType *t, const char *s, int len, WDatum *out,
                          WArena *a, char *eb, size_t esz)
{
    /* count elements */
    int n = 1;
    for (int i = 0; i < len; i++) if (s[i] == cfg->array_delim) n++;
    int slots = t->id == WT_ROW ? t->nfields : n;
    if (t->id == WT_ROW && n != t->nfields && !cfg->ignore_errors) {
        snprintf(eb, esz, "Row length mismatch. %d fields expected but was %d.", t->nfields, n);
        return -1;
    }
    WComposite *cx = WA_NEW(a, WComposite);
    cx->n = slots;
    cx->vals = WA_ARRAY(a, WDatum, slots ? slots : 1);
    cx->nulls = wa_zalloc(a, (size_t)(slots ? slots : 1));
    for (int k = 0; k < slots; k++) cx->nulls[k] = 1;
    const char *p = s, *end = s + len;
    for (int k = 0; k < n && k < slots; k++) {
        const char *q = memchr(p, cfg->array_delim, (size_t)(end - p));
        if (!q) q = end;
        const WType *et = t->id == WT_ROW ? t->fields[k] : t->elem;
        int elen = (int)(q - p);
        if (is_null_literal(cfg, p, elen)) {
            cx->nulls[k] = 1;
        } else {
            int r = wcsv_convert(cfg, et, p, elen, &cx->vals[k], a, eb, esz);
            if (r < 0) {
                if (!cfg->ignore_errors) return -1;
                r = 0;
            }
            cx->nulls[k] = r == 0;
            if (r == 1 && wtype_is_string(et)) cx->vals[k].s.p = wa_memdup(a, p, (size_t)elen);
        }
        p = q + 1;
    }
    out->cx = cx;
    return 1;
}

int wcsv_convert(const WCsvConfig *cfg, const WType *t, const char *s, int len, WDatum *out,
                 WArena *a, char *errbuf, size_t errsz)
{
    /* Flink's csv format has no implicit NULL: an empty field of a non-string column fails the row
       (measured on Flink 2.3, messages as its Java parsers give them; csv.null-literal = '' or
       csv.ignore-parse-errors make it NULL), except BOOLEAN (Boolean.parseBoolean("") = false).
       changelog-csv, weir's own format, keeps an empty field as NULL. */
    if (len == 0 && !wtype_is_string(t) && t->id != WT_BOOLEAN) {
        if (cfg->changelog) return 0;
        switch (t->id) {
        case WT_FLOAT: case WT_DOUBLE: snprintf(errbuf, errsz, "empty String"); break;
        case WT_DECIMAL: snprintf(errbuf, errsz, "Index 0 out of bounds for length 0"); break;
        case WT_DATE: case WT_TIME: snprintf(errbuf, errsz, "java.lang.IllegalArgumentException"); break;
        case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
            snprintf(errbuf, errsz, "Text '' could not be parsed at index 0");
            break;
        case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
            snprintf(errbuf, errsz, "For input string: \"\"");
            break;
        default: return 0;  /* binary and composite types: an empty value */
        }
        return -1;
    }
    switch (t->id) {
    case WT_CHAR: case WT_VARCHAR:
        out->s.p = s;
        out->s.len = len;
        return 1;
    case WT_BOOLEAN:
        java_trim(&s, &len);
        out->i = len == 4 && strncasecmp(s, "true", 4) == 0;
        return 1;
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
    case WT_INTERVAL_YM: case WT_INTERVAL_DT:
        return conv_integer(t, s, len, out, errbuf, errsz);
    case WT_FLOAT:
        return conv_floating(true, s, len, out, errbuf, errsz);
    case WT_DOUBLE:
        return conv_floating(false, s, len, out, errbuf, errsz);
    case WT_DECIMAL:
        return conv_decimal(t, s, len, out, errbuf, errsz);
    case WT_DATE:
        return conv_date(s, len, out, errbuf, errsz);
    case WT_TIME:
        return conv_time(t, s, len, out, errbuf, errsz);
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
        return conv_timestamp(t, s, len, out, errbuf, errsz);
    case WT_BINARY: case WT_VARBINARY:
        return conv_binary(s, len, out, a, errbuf, errsz);
    case WT_ARRAY: case WT_ROW:
        return conv_composite(cfg, t, s, len, out, a, errbuf, errsz);
    default: {
        WStrBuf b;
        wsb_init(&b);
        wtype_to_string(t, &b);
        snprintf(errbuf, errsz, "Unsupported type: %s", b.buf);
        wsb_free(&b);
        return -1;
    }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* writing                                                                                     */

int wcsv_bigdecimal_string(__int128 unscaled, int scale, bool scientific, char *buf)
{
    char digits[48];
    int nd = 0;
    bool neg = unscaled < 0;
    unsigned __int128 u = neg ? (unsigned __int128)(-(unscaled + 1)) + 1 : (unsigned __int128)unscaled;
    do { digits[nd++] = (char)('0' + (int)(u % 10)); u /= 10; } while (u);
    /* digits reversed */
    char coef[48];
    for (int i = 0; i < nd; i++) coef[i] = digits[nd - 1 - i];
    coef[nd] = 0;
    int o = 0;
    if (neg) buf[o++] = '-';
    long adjusted = (long)nd - 1 - scale;
    if (scale == 0) {
        memcpy(buf + o, coef, (size_t)nd); o += nd;
    } else if (!scientific || (scale > 0 && adjusted >= -6)) {
        if (nd > scale) {
            memcpy(buf + o, coef, (size_t)(nd - scale)); o += nd - scale;
            buf[o++] = '.';
            memcpy(buf + o, coef + nd - scale, (size_t)scale); o += scale;
        } else {
            buf[o++] = '0'; buf[o++] = '.';
            for (int i = 0; i < scale - nd; i++) buf[o++] = '0';
            memcpy(buf + o, coef, (size_t)nd); o += nd;
        }
    } else {
        buf[o++] = coef[0];
        if (nd > 1) { buf[o++] = '.'; memcpy(buf + o, coef + 1, (size_t)(nd - 1)); o += nd - 1; }
        o += sprintf(buf + o, "E%s%ld", adjusted >= 0 ? "+" : "", adjusted);
    }
    buf[o] = 0;
    return o;
}

/* Two decimal digits of v (0..99) at buf. */
static inline void put_2digits(char *buf, int v)
{
    buf[0] = (char)('0' + v / 10);
    buf[1] = (char)('0' + v % 10);
}

/* ISO_LOCAL_TIME formatting: HH:mm:ss plus the fraction without trailing zeros (written digit by
   digit: the CSV writer calls it per TIME / TIMESTAMP value). */
static int fmt_iso_time(int64_t nanos_of_day, char *buf)
{
    int64_t secs = nanos_of_day / 1000000000LL;
    int64_t ns = nanos_of_day % 1000000000LL;
    assert(secs >= 0 && secs < 86400 && ns >= 0);
    put_2digits(buf, (int)(secs / 3600));
    buf[2] = ':';
    put_2digits(buf + 3, (int)(secs / 60 % 60));
    buf[5] = ':';
    put_2digits(buf + 6, (int)(secs % 60));
    int o = 8;
    if (ns) {
        char f[9];
        int l = 9;
        if (ns % 1000000 == 0) {        /* milliseconds (TIMESTAMP(3)): three digits, not nine */
            int ms = (int)(ns / 1000000);
            f[0] = (char)('0' + ms / 100);
            put_2digits(f + 1, ms % 100);
            l = 3;
        } else {
            for (int k = 8; k >= 0; k--, ns /= 10) f[k] = (char)('0' + ns % 10);
        }
        while (l > 0 && f[l - 1] == '0') l--;
        buf[o++] = '.';
        memcpy(buf + o, f, (size_t)l);
        o += l;
    }
    buf[o] = 0;
    return o;
}

static int fmt_iso_date(int64_t days, char *buf)
{
    int64_t y;
    int m, d;
    wconn_civil_from_days(days, &y, &m, &d);
    if (y < 0 || y > 9999) return sprintf(buf, "%+05lld-%02d-%02d", (long long)y, m, d);
    put_2digits(buf, (int)(y / 100));
    put_2digits(buf + 2, (int)(y % 100));
    buf[4] = '-';
    put_2digits(buf + 5, m);
    buf[7] = '-';
    put_2digits(buf + 8, d);
    buf[10] = 0;
    return 10;
}

/* Render a non-null value as text; *stringy = Jackson writes it through the string path (quoting
   applies). */
static void render_value(const WCsvConfig *cfg, const WType *t, WDatum v, WStrBuf *o, bool *stringy)
{
    char b[96];
    *stringy = true;
    switch (t->id) {
    case WT_BOOLEAN: wsb_append(o, v.i ? "true" : "false"); *stringy = false; break;
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
    case WT_INTERVAL_YM: case WT_INTERVAL_DT:
        wsb_append_i64(o, (long long)v.i); *stringy = false; break;
    case WT_FLOAT: wsb_appendn(o, b, (size_t)wfmt_float_java((float)v.d, b)); *stringy = false; break;
    case WT_DOUBLE: wsb_appendn(o, b, (size_t)wfmt_double_java(v.d, b)); *stringy = false; break;
    case WT_DECIMAL:
        wcsv_bigdecimal_string(v.dec, t->scale, cfg->decimal_scientific, b);
        wsb_append(o, b);
        break;
    case WT_CHAR: case WT_VARCHAR: wsb_appendn(o, v.s.p, (size_t)v.s.len); break;
    case WT_BINARY: case WT_VARBINARY: wbase64_append(o, v.s.p, (size_t)v.s.len); break;
    case WT_DATE: wsb_appendn(o, b, (size_t)fmt_iso_date(v.i, b)); break;
    case WT_TIME: wsb_appendn(o, b, (size_t)fmt_iso_time(v.i * 1000000LL, b)); break;
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: {
        int64_t days = v.ts.ms >= 0 ? v.ts.ms / 86400000LL : -((-v.ts.ms + 86399999LL) / 86400000LL);
        int64_t msod = v.ts.ms - days * 86400000LL;
        int n = fmt_iso_date(days, b);
        b[n++] = ' ';
        n += fmt_iso_time(msod * 1000000LL + v.ts.ns, b + n);
        wsb_appendn(o, b, (size_t)n);
        if (t->id == WT_TIMESTAMP_LTZ) wsb_putc(o, 'Z');
        break;
    }
    case WT_ARRAY: case WT_ROW: {
        WComposite *cx = v.cx;
        for (int i = 0; cx && i < cx->n; i++) {
            if (i) wsb_putc(o, cfg->array_delim);
            const WType *et = t->id == WT_ROW ? t->fields[i] : t->elem;
            if (cx->nulls[i]) {
                if (cfg->null_literal) wsb_append(o, cfg->null_literal);
            } else {
                bool sy;
                render_value(cfg, et, cx->vals[i], o, &sy);
            }
        }
        break;
    }
    default:
        wfmt_java(t, v, false, NULL, o);
        break;
    }
}

/* Jackson CsvEncoder's loose quoting check. */
static bool jackson_needs_quotes(const WCsvConfig *cfg, const char *s, size_t n)
{
    if (cfg->quote < 0 || n == 0) return false;
    if (n > 24) return true;
    int min_safe = cfg->delim;
    if (cfg->quote > min_safe) min_safe = cfg->quote;
    if ('\n' > min_safe) min_safe = '\n';
    min_safe += 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < min_safe || c == cfg->quote || (cfg->escape >= 0 && c == cfg->escape)) return true;
    }
    return false;
}

static bool changelog_needs_quotes(const WCsvConfig *cfg, const char *s, size_t n)
{
    if (cfg->quote < 0) return false;
    if (n == 0 || (n == 4 && memcmp(s, "NULL", 4) == 0)) return true;
    if (s[0] == ' ' || s[n - 1] == ' ') return true;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == cfg->delim || c == cfg->quote || c == '\n' || c == '\r' ||
            (cfg->escape >= 0 && c == cfg->escape)) return true;
    }
    return false;
}

void wcsv_write_value(const WCsvConfig *cfg, const WType *t, WDatum v, bool is_null, WStrBuf *out)
{
    if (is_null) {
        if (cfg->changelog) wsb_append(out, "NULL");
        else if (cfg->null_literal) wsb_append(out, cfg->null_literal);
        return;
    }
    size_t start = out->len;
    bool stringy;
    render_value(cfg, t, v, out, &stringy);
    size_t n = out->len - start;
    bool q = cfg->changelog ? changelog_needs_quotes(cfg, out->buf + start, n)
                            : (stringy && jackson_needs_quotes(cfg, out->buf + start, n));
    if (!q) return;
    /* quote in place: count the bytes that get a prefix (the quote doubled, the escape character
       escaped), then move the text right from its end, writing each prefix on the way */
    const char quote = (char)cfg->quote;
    const int esc = cfg->escape >= 0 && (char)cfg->escape != quote ? cfg->escape : -1;
    size_t extra = 0;
    const char *s = out->buf + start, *e = s + n;
    for (const char *p = s; (p = memchr(p, quote, (size_t)(e - p))) != NULL; p++) extra++;
    if (esc >= 0)
        for (const char *p = s; (p = memchr(p, esc, (size_t)(e - p))) != NULL; p++) extra++;
    wsb_reserve(out, extra + 2);
    char *b = out->buf + start;
    size_t w = n + extra + 1;               /* the closing quote's index */
    b[w] = quote;
    b[w + 1] = 0;
    if (extra == 0) {
        memmove(b + 1, b, n);
    } else {
        for (size_t i = n; i-- > 0;) {
            char c = b[i];
            b[--w] = c;
            if (c == quote || (esc >= 0 && c == (char)esc)) b[--w] = c;
        }
        assert(w == 1);
    }
    b[0] = quote;
    out->len = start + n + extra + 2;
}

void wcsv_write_row(const WCsvConfig *cfg, int ncols, const WType **types, const WChunk *c, int row,
                    WStrBuf *out)
{
    if (cfg->changelog) {
        wsb_append(out, wrowkind_short((WRowKind)c->kinds[row]));
        if (ncols > 0) wsb_putc(out, cfg->delim);
    }
    for (int i = 0; i < ncols; i++) {
        if (i) wsb_putc(out, cfg->delim);
        wcsv_write_value(cfg, types[i], c->cols[i].data[row], c->cols[i].nulls[row] != 0, out);
    }
    wsb_putc(out, '\n');
}
