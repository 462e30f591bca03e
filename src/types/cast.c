/*
 * cast.c — CAST / TRY_CAST between Flink types (cast.h).
 *
 * Which casts exist: Flink's SqlCastFunction = Calcite's canCastFrom for scalar types and
 * LogicalTypeCasts.supportsExplicitCast for constructed ones; NUMERIC <-> TIMESTAMP(_LTZ) pass the
 * validator but Flink's planner rejects them with its own ValidationException (NumericToTimestamp /
 * TimestampToNumeric cast rules). How values convert: Flink's cast rules (CastRuleProvider):
 * Java primitive narrowing for numerics (300 -> TINYINT 44), BigDecimal HALF_UP and NULL on
 * overflow for DECIMAL targets, BinaryStringDataUtil parsing for strings (messages
 * "For input string: 'x'. Invalid character found."), DateTimeUtils for dates and times,
 * CharVarCharTrimPadCastRule for CHAR(n)/VARCHAR(n), UTF-8 for BINARY <-> STRING.
 * May call type, value, datetime, format, decimal, common.
 */
#include "cast.h"

#include <stdint.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "decimal.h"
#include "format.h"

#define MS_PER_DAY 86400000LL
#define EXC_DATETIME "java.time.DateTimeException"
#define EXC_DT_PARSE "java.time.format.DateTimeParseException"

/* ------------------------------------------------------------ type names (Calcite) */

static const char *interval_qual_name(WIntervalQual q)
{
    switch (q) {
    case WIQ_YEAR: return "YEAR"; case WIQ_YEAR_TO_MONTH: return "YEAR TO MONTH"; case WIQ_MONTH: return "MONTH";
    case WIQ_DAY: return "DAY"; case WIQ_DAY_TO_HOUR: return "DAY TO HOUR"; case WIQ_DAY_TO_MINUTE: return "DAY TO MINUTE";
    case WIQ_DAY_TO_SECOND: return "DAY TO SECOND"; case WIQ_HOUR: return "HOUR";
    case WIQ_HOUR_TO_MINUTE: return "HOUR TO MINUTE"; case WIQ_HOUR_TO_SECOND: return "HOUR TO SECOND";
    case WIQ_MINUTE: return "MINUTE"; case WIQ_MINUTE_TO_SECOND: return "MINUTE TO SECOND";
    case WIQ_SECOND: return "SECOND"; default: return "";
    }
}

void wcast_calcite_type_name(const WType *t, WStrBuf *o)
{
    switch (t->id) {
    case WT_NULL: wsb_append(o, "NULL"); break;
    case WT_BOOLEAN: wsb_append(o, "BOOLEAN"); break;
    case WT_TINYINT: wsb_append(o, "TINYINT"); break;
    case WT_SMALLINT: wsb_append(o, "SMALLINT"); break;
    case WT_INT: wsb_append(o, "INTEGER"); break;
    case WT_BIGINT: wsb_append(o, "BIGINT"); break;
    case WT_FLOAT: wsb_append(o, "FLOAT"); break;
    case WT_DOUBLE: wsb_append(o, "DOUBLE"); break;
    case WT_DECIMAL: wsb_printf(o, "DECIMAL(%d, %d)", t->precision, t->scale); break;
    case WT_CHAR: wsb_printf(o, "CHAR(%d)", t->precision); break;
    case WT_VARCHAR: wsb_printf(o, "VARCHAR(%d)", t->precision); break;
    case WT_BINARY: wsb_printf(o, "BINARY(%d)", t->precision); break;
    case WT_VARBINARY: wsb_printf(o, "VARBINARY(%d)", t->precision); break;
    case WT_DATE: wsb_append(o, "DATE"); break;
    case WT_TIME: wsb_printf(o, "TIME(%d)", t->precision); break;
    case WT_TIMESTAMP: wsb_printf(o, "TIMESTAMP(%d)", t->precision); break;
    case WT_TIMESTAMP_LTZ: wsb_printf(o, "TIMESTAMP_WITH_LOCAL_TIME_ZONE(%d)", t->precision); break;
    case WT_INTERVAL_YM: case WT_INTERVAL_DT:
        wsb_printf(o, "INTERVAL %s", interval_qual_name(t->qual));
        break;
    case WT_ARRAY: wcast_calcite_type_name(t->elem, o); wsb_append(o, " ARRAY"); break;
    case WT_MULTISET: wcast_calcite_type_name(t->elem, o); wsb_append(o, " MULTISET"); break;
    case WT_MAP:
        wsb_putc(o, '(');
        wcast_calcite_type_name(t->key, o);
        wsb_append(o, ", ");
        wcast_calcite_type_name(t->elem, o);
        wsb_append(o, ") MAP");
        break;
    case WT_ROW:
        wsb_append(o, "RecordType(");
        for (int i = 0; i < t->nfields; i++) {
            if (i) wsb_append(o, ", ");
            wcast_calcite_type_name(t->fields[i], o);
            wsb_printf(o, " %s", t->field_names ? t->field_names[i] : "");
        }
        wsb_putc(o, ')');
        break;
    default: wsb_append(o, "ANY"); break;
    }
}

/* ------------------------------------------------------------ which casts exist */

static bool single_field_interval(const WType *t)
{
    switch (t->qual) {
    case WIQ_YEAR: case WIQ_MONTH: case WIQ_DAY: case WIQ_HOUR: case WIQ_MINUTE: case WIQ_SECOND: return true;
    case WIQ_NONE: return true;
    default: return false;
    }
}

static bool is_ts(WTypeId id) { return id == WT_TIMESTAMP || id == WT_TIMESTAMP_LTZ; }

static bool scalar_castable(const WType *from, const WType *to)
{
    WTypeId f = from->id, t = to->id;
    if (f == WT_NULL) return true;
    bool fstr = wtype_is_string(from), fnum = wtype_is_numeric(from), fint = wtype_is_integer(from);
    bool fbin = wtype_is_binary(from);
    (void)fint;
    switch (t) {
    case WT_CHAR: case WT_VARCHAR:
        return true;
    case WT_BOOLEAN:
        return f == WT_BOOLEAN || fstr || fnum;
    case WT_BINARY: case WT_VARBINARY:
        return fstr || fbin;
    case WT_DECIMAL: case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
        if (wtype_is_interval(from)) return single_field_interval(from);
        return fnum || fstr || f == WT_BOOLEAN || is_ts(f);
    case WT_FLOAT: case WT_DOUBLE:
        return fnum || fstr || f == WT_BOOLEAN || is_ts(f);
    case WT_DATE:
        return f == WT_DATE || is_ts(f) || fstr;
    case WT_TIME:
        return f == WT_TIME || is_ts(f) || fstr;
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
        return wtype_is_temporal(from) || fstr || fnum;
    case WT_INTERVAL_YM: case WT_INTERVAL_DT:
        if (f == t) return true;
        if (wtype_is_exact_numeric(from)) return single_field_interval(to);
        return false;
    default:
        return false;
    }
}

bool wcast_supported(const WType *from, const WType *to)
{
    if (from->id == WT_NULL) return true;
    bool fc = wtype_is_composite(from), tc = wtype_is_composite(to);
    if (fc || tc) {
        if (!tc) return wtype_is_string(to);
        if (!fc || from->id != to->id) return false;
        switch (to->id) {
        case WT_ARRAY: case WT_MULTISET: return wcast_supported(from->elem, to->elem);
        case WT_MAP: return wcast_supported(from->key, to->key) && wcast_supported(from->elem, to->elem);
        case WT_ROW:
            if (from->nfields != to->nfields) return false;
            for (int i = 0; i < from->nfields; i++)
                if (!wcast_supported(from->fields[i], to->fields[i])) return false;
            return true;
        default: return false;
        }
    }
    return scalar_castable(from, to);
}

bool wcast_check(const WType *from, const WType *to, WError *err)
{
    if (!wcast_supported(from, to)) {
        WStrBuf a, b;
        wsb_init(&a);
        wsb_init(&b);
        wcast_calcite_type_name(from, &a);
        wcast_calcite_type_name(to, &b);
        werr_set(err, WEXC_CALCITE, "Cast function cannot convert value of type %s to type %s", a.buf, b.buf);
        wsb_free(&a);
        wsb_free(&b);
        return false;
    }
    if (wtype_is_numeric(from) && to->id == WT_TIMESTAMP)
        return werr_set(err, WEXC_VALIDATION, "The cast from NUMERIC type to TIMESTAMP type is not allowed. "
                        "It's recommended to use TO_TIMESTAMP(FROM_UNIXTIME(numeric_col)) instead, note the "
                        "numeric is in seconds.");
    if (wtype_is_numeric(from) && to->id == WT_TIMESTAMP_LTZ)
        return werr_set(err, WEXC_VALIDATION, "The cast from NUMERIC type to TIMESTAMP_LTZ type is not allowed. "
                        "It's recommended to use TO_TIMESTAMP_LTZ(numeric_col, precision) instead.");
    if (from->id == WT_TIMESTAMP && wtype_is_numeric(to))
        return werr_set(err, WEXC_VALIDATION, "The cast from TIMESTAMP type to NUMERIC type is not allowed. "
                        "It's recommended to use UNIX_TIMESTAMP(CAST(timestamp_col AS STRING)) instead.");
    if (from->id == WT_TIMESTAMP_LTZ && wtype_is_numeric(to))
        return werr_set(err, WEXC_VALIDATION, "The cast from TIMESTAMP_LTZ type to NUMERIC type is not allowed.");
    return true;
}

/* LogicalTypeCasts.supportsImplicitCast */
/* The longest text CAST(x AS STRING) gives for a value of type t, 0 when unbounded / not known */
static int longest_text(const WType *t)
{
    int frac = t->precision > 0 ? t->precision + 1 : 0;
    switch (t->id) {
    case WT_TINYINT: return 4;              /* -128 */
    case WT_SMALLINT: return 6;
    case WT_INT: return 11;
    case WT_BIGINT: return 20;
    case WT_FLOAT: return 15;               /* -1.17549435E-38 */
    case WT_DOUBLE: return 24;              /* -2.2250738585072014E-308 */
    case WT_BOOLEAN: return 5;              /* FALSE */
    case WT_DATE: return 10;
    case WT_TIME: return 8 + frac;
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: return 19 + frac;
    default: return 0;
    }
}

static bool is_integer(WTypeId id) { return id >= WT_TINYINT && id <= WT_BIGINT; }
static bool is_string(WTypeId id) { return id == WT_CHAR || id == WT_VARCHAR; }
static bool is_binary(WTypeId id) { return id == WT_BINARY || id == WT_VARBINARY; }

bool wcast_injective(const WType *from, const WType *to)
{
    if (wtype_equals(from, to, true)) return true;
    if (is_integer(from->id) && is_integer(to->id)) return to->id >= from->id;
    if (is_string(to->id)) {
        if (is_string(from->id))
            return to->precision >= from->precision && !(from->id == WT_VARCHAR && to->id == WT_CHAR);
        int n = longest_text(from);
        return n > 0 && to->precision >= n;
    }
    if (is_binary(to->id)) {
        if (is_string(from->id))        /* (BYTES, the longest VARBINARY, takes any string) */
            return to->precision == INT32_MAX || (int64_t)to->precision >= 4 * (int64_t)from->precision;
        if (is_binary(from->id))
            return to->precision >= from->precision && !(from->id == WT_VARBINARY && to->id == WT_BINARY);
        return false;
    }
    if ((from->id == WT_TIMESTAMP || from->id == WT_TIMESTAMP_LTZ) &&
        (to->id == WT_TIMESTAMP || to->id == WT_TIMESTAMP_LTZ))
        return from->precision == to->precision;
    return false;
}

bool wcast_implicit(const WType *from, const WType *to)
{
    if (from->nullable && !to->nullable) return false;
    if (from->id == WT_NULL) return true;
    WTypeId f = from->id, t = to->id;
    if (wtype_is_composite(from) || wtype_is_composite(to)) {
        if (f != t) return false;
        switch (t) {
        case WT_ARRAY: case WT_MULTISET: return wcast_implicit(from->elem, to->elem);
        case WT_MAP: return wcast_implicit(from->key, to->key) && wcast_implicit(from->elem, to->elem);
        case WT_ROW:
            if (from->nfields != to->nfields) return false;
            for (int i = 0; i < from->nfields; i++)
                if (!wcast_implicit(from->fields[i], to->fields[i])) return false;
            return true;
        default: return false;
        }
    }
    if (wtype_is_interval(from) && wtype_is_exact_numeric(to)) return false;
    if (wtype_is_exact_numeric(from) && wtype_is_interval(to)) return false;
    if (f == t) return true;
    switch (t) {
    case WT_VARCHAR: return f == WT_CHAR;
    case WT_VARBINARY: return f == WT_BINARY;
    case WT_DECIMAL: return wtype_is_numeric(from);
    case WT_SMALLINT: return f == WT_TINYINT;
    case WT_INT: return f == WT_TINYINT || f == WT_SMALLINT;
    case WT_BIGINT: return f == WT_TINYINT || f == WT_SMALLINT || f == WT_INT;
    case WT_FLOAT: return wtype_is_integer(from) || f == WT_DECIMAL;
    case WT_DOUBLE: return wtype_is_numeric(from);
    case WT_DATE: return f == WT_TIMESTAMP;
    case WT_TIME: return f == WT_TIMESTAMP;
    case WT_TIMESTAMP: return f == WT_TIMESTAMP_LTZ;
    case WT_TIMESTAMP_LTZ: return f == WT_TIMESTAMP;
    default: return false;
    }
}

/* ------------------------------------------------------------ helpers */

static int64_t floordiv(int64_t a, int64_t b) { int64_t q = a / b; if ((a % b) && ((a < 0) != (b < 0))) q--; return q; }

static int64_t narrow(int64_t v, WTypeId t)
{
    switch (t) {
    case WT_TINYINT: return (int8_t)(uint8_t)(uint64_t)v;
    case WT_SMALLINT: return (int16_t)(uint16_t)(uint64_t)v;
    case WT_INT: return (int32_t)(uint32_t)(uint64_t)v;
    default: return v;
    }
}

/* Java (long) d */
static int64_t d2l(double d)
{
    if (d != d) return 0;
    if (d >= 9223372036854775807.0) return INT64_MAX;
    if (d <= -9223372036854775808.0) return INT64_MIN;
    return (int64_t)d;
}
/* Java (int) d, and (short)/(byte) as narrowing of that int */
static int64_t d2int(double d, WTypeId t)
{
    if (t == WT_BIGINT) return d2l(d);
    int32_t i;
    if (d != d) i = 0;
    else if (d >= 2147483647.0) i = INT32_MAX;
    else if (d <= -2147483648.0) i = INT32_MIN;
    else i = (int32_t)d;
    return narrow(i, t);
}

static double as_float(double d) { return (double)(float)d; }

static WTimestamp ts_truncate(WTimestamp ts, int p)
{
    if (p >= 9) return ts;
    if (p >= 3) {
        int32_t u = 1;
        for (int k = p; k < 9; k++) u *= 10;
        if (u >= 1000000) ts.ns = 0;
        else ts.ns -= ts.ns % u;
        return ts;
    }
    int64_t u = 1;
    for (int k = p; k < 3; k++) u *= 10;
    ts.ms = floordiv(ts.ms, u) * u;
    ts.ns = 0;
    return ts;
}

static int64_t time_truncate(int64_t ms, int p)
{
    if (p >= 3) return ms;
    int64_t u = 1;
    for (int k = p; k < 3; k++) u *= 10;
    return ms - ms % u;
}

static WTimestamp ltz_to_local(WTimestamp ts, const WTimeZone *tz)
{
    ts.ms += (int64_t)wtz_offset_at_instant(tz, ts.ms) * 1000;
    return ts;
}

static WTimestamp local_to_ltz(WTimestamp ts, const WTimeZone *tz)
{
    ts.ms -= (int64_t)wtz_offset_for_local(tz, ts.ms) * 1000;
    return ts;
}

/* number of UTF-8 code points; *cut = byte length of the first n code points */
static int utf8_prefix(const char *s, int len, int n, int *cut)
{
    int cps = 0, i = 0;
    *cut = len;
    while (i < len) {
        if (cps == n) { *cut = i; }
        unsigned char c = (unsigned char)s[i];
        int k = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1;
        if (cps == n) break;
        i += k;
        cps++;
    }
    if (i > len) i = len;
    int total = cps;
    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        i += c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1;
        total++;
    }
    return total;
}

/* Apply CHAR(n) padding / VARCHAR(n) truncation to s (copied into the arena when changed or
   when `copy`). */
static WStr fit_string(const WCastCtx *ctx, const WType *to, const char *s, int len, bool copy, WArena *a)
{
    WStr r = { s, len };
    int n = to->precision;
    bool legacy = ctx && ctx->legacy_behaviour;
    if (!legacy && n < WT_MAX_LENGTH) {
        int cut;
        int chars = utf8_prefix(s, len, n, &cut);
        if (chars > n) {
            r.len = cut;
        } else if (chars < n && to->id == WT_CHAR) {
            int pad = n - chars;
            char *b = wa_alloc(a, (size_t)len + (size_t)pad + 1);
            if (len) memcpy(b, s, (size_t)len);
            memset(b + len, ' ', (size_t)pad);
            b[len + pad] = 0;
            r.p = b;
            r.len = len + pad;
            return r;
        }
    }
    if (copy) {
        char *b = wa_alloc(a, (size_t)r.len + 1);
        if (r.len) memcpy(b, r.p, (size_t)r.len);
        b[r.len] = 0;
        r.p = b;
    }
    return r;
}

static WStr fit_binary(const WCastCtx *ctx, const WType *to, const char *s, int len, WArena *a)
{
    WStr r;
    int n = to->precision;
    bool legacy = ctx && ctx->legacy_behaviour;
    int outlen = len;
    if (!legacy && n < WT_MAX_LENGTH) {
        if (len > n) outlen = n;
        else if (len < n && to->id == WT_BINARY) outlen = n;
    }
    char *b = wa_alloc(a, (size_t)outlen + 1);
    int cp = len < outlen ? len : outlen;
    if (cp) memcpy(b, s, (size_t)cp);
    if (outlen > cp) memset(b + cp, 0, (size_t)(outlen - cp));
    b[outlen] = 0;
    r.p = b;
    r.len = outlen;
    return r;
}

/* ------------------------------------------------------------ string parsing */

static WCastResult nfe(WError *err, const char *s, int len, const char *reason)
{
    werr_set(err, WEXC_NUMBER, "For input string: '%.*s'. %s", len, s, reason);
    return WCAST_ERROR;
}

/* BinaryStringDataUtil.toLong / toInt (accepts a fraction, which is dropped). */
static WCastResult parse_integral(const char *s, int len, bool is_long, int64_t *out, WError *err)
{
    if (len == 0) return nfe(err, s, len, "Input is empty.");
    int i = 0;
    bool neg = s[0] == '-';
    if (neg || s[0] == '+') {
        i++;
        if (len == 1) return nfe(err, s, len, "Input has only positive or negative symbol.");
    }
    int64_t minv = is_long ? INT64_MIN : INT32_MIN;
    int64_t stop = minv / 10;
    int64_t r = 0;
    while (i < len) {
        char b = s[i++];
        if (b == '.') break;
        if (b < '0' || b > '9') return nfe(err, s, len, "Invalid character found.");
        if (r < stop) return nfe(err, s, len, "Overflow.");
        int d = b - '0';
        if (r * 10 < minv + d) return nfe(err, s, len, "Overflow.");
        r = r * 10 - d;
    }
    while (i < len) {
        char b = s[i++];
        if (b < '0' || b > '9') return nfe(err, s, len, "Invalid character found.");
    }
    if (!neg) {
        if (r == minv) return nfe(err, s, len, "Overflow.");
        r = -r;
    }
    *out = r;
    return WCAST_OK;
}

/* Java Double.parseDouble / Float.parseFloat. */
static WCastResult parse_java_double(const char *s, int len, bool is_float, double *out, WError *err)
{
    int a = 0, b = len;
    while (a < b && (unsigned char)s[a] <= ' ') a++;
    while (b > a && (unsigned char)s[b - 1] <= ' ') b--;
    if (a == b) {
        werr_set(err, WEXC_NUMBER, len == 0 ? "empty String" : "empty String");
        return WCAST_ERROR;
    }
    int i = a;
    bool neg = false;
    if (s[i] == '+' || s[i] == '-') { neg = s[i] == '-'; i++; }
    int n = b - i;
    bool ok = false;
    if (n == 3 && memcmp(s + i, "NaN", 3) == 0) { *out = NAN; return WCAST_OK; }
    if (n == 8 && memcmp(s + i, "Infinity", 8) == 0) { *out = neg ? -INFINITY : INFINITY; return WCAST_OK; }
    int j = i, digs = 0;
    bool hex = n > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
    if (hex) {
        /* Java's hexadecimal form needs its binary exponent: "0x10p0" is 16.0, "0x10" is refused */
        ok = memchr(s + i, 'p', (size_t)n) || memchr(s + i, 'P', (size_t)n);   /* strtod validates the rest */
    } else {
        while (j < b && s[j] >= '0' && s[j] <= '9') { j++; digs++; }
        if (j < b && s[j] == '.') { j++; while (j < b && s[j] >= '0' && s[j] <= '9') { j++; digs++; } }
        if (digs > 0) {
            ok = true;
            if (j < b && (s[j] == 'e' || s[j] == 'E')) {
                j++;
                if (j < b && (s[j] == '+' || s[j] == '-')) j++;
                int ed = 0;
                while (j < b && s[j] >= '0' && s[j] <= '9') { j++; ed++; }
                if (!ed) ok = false;
            }
            if (ok && j < b && (s[j] == 'f' || s[j] == 'F' || s[j] == 'd' || s[j] == 'D')) j++;
            if (j != b) ok = false;
        }
    }
    if (ok) {
        char stackbuf[128];
        int m = b - a;
        char *tmp = m < (int)sizeof stackbuf ? stackbuf : wmalloc((size_t)m + 1);
        memcpy(tmp, s + a, (size_t)m);
        tmp[m] = 0;
        /* strip a trailing type suffix for strtod */
        if (!hex && (tmp[m - 1] == 'f' || tmp[m - 1] == 'F' || tmp[m - 1] == 'd' || tmp[m - 1] == 'D')) tmp[m - 1] = 0;
        char *end;
        double d = is_float ? (double)strtof(tmp, &end) : strtod(tmp, &end);
        ok = *end == 0 || (hex && (*end == 'f' || *end == 'F' || *end == 'd' || *end == 'D') && end[1] == 0);
        if (tmp != stackbuf) free(tmp);
        /* an integral text reads as a whole number first (Flink 2.3: CAST('-0' AS DOUBLE) = 0.0) */
        if (ok && d == 0.0 && !hex && !memchr(s + a, '.', (size_t)(b - a)) && !memchr(s + a, 'e', (size_t)(b - a)) &&
            !memchr(s + a, 'E', (size_t)(b - a))) d = 0.0;
        if (ok) { *out = d; return WCAST_OK; }
    }
    werr_set(err, WEXC_NUMBER, "For input string: \"%.*s\"", b - a, s + a);
    return WCAST_ERROR;
}

static WCastResult parse_ts_text(const char *s, int len, WTimestamp *ts, WError *err)
{
    const char *why;
    /* Flink's CAST reads 'yyyy-MM-dd HH:mm:ss', not the ISO 'T' form */
    if (len > 10 && s[10] == 'T') {
        werr_set(err, EXC_DT_PARSE, "Text '%.*s' could not be parsed, unparsed text found at index 10", len, s);
        return WCAST_ERROR;
    }
    int r = wparse_timestamp_ex(s, len, ts, &why);
    if (r == -1) return WCAST_OK;
    if (r >= 0) werr_set(err, EXC_DT_PARSE, "Text '%.*s' could not be parsed at index %d", len, s, r);
    else werr_set(err, EXC_DT_PARSE, "Text '%.*s' could not be parsed: %s%d", len, s, why, -2 - r);
    return WCAST_ERROR;
}

static WCastResult from_text(const WCastCtx *ctx, const char *s, int len, const WType *to, WDatum *out,
                             WArena *a, WError *err)
{
    switch (to->id) {
    case WT_CHAR: case WT_VARCHAR:
        out->s = fit_string(ctx, to, s, len, true, a);
        return WCAST_OK;
    case WT_BINARY: case WT_VARBINARY:
        out->s = fit_binary(ctx, to, s, len, a);
        return WCAST_OK;
    case WT_BOOLEAN: {
        static const char *const T[] = { "t", "true", "y", "yes", "1" }, *const F[] = { "f", "false", "n", "no", "0" };
        for (int k = 0; k < 5; k++) {
            int n = (int)strlen(T[k]);
            if (n == len && strncasecmp(s, T[k], (size_t)n) == 0) { out->i = 1; return WCAST_OK; }
            n = (int)strlen(F[k]);
            if (n == len && strncasecmp(s, F[k], (size_t)n) == 0) { out->i = 0; return WCAST_OK; }
        }
        werr_set(err, WEXC_TABLE, "Cannot parse '%.*s' as BOOLEAN.", len, s);
        return WCAST_ERROR;
    }
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT: {
        int64_t v;
        /* the cast rule trims spaces (BinaryStringData.trim) before parsing */
        while (len > 0 && s[0] == ' ') { s++; len--; }
        while (len > 0 && s[len - 1] == ' ') len--;
        WCastResult r = parse_integral(s, len, to->id == WT_BIGINT, &v, err);
        if (r != WCAST_OK) return r;
        if (narrow(v, to->id) != v) return nfe(err, s, len, "Overflow.");
        out->i = v;
        return WCAST_OK;
    }
    case WT_FLOAT: case WT_DOUBLE: {
        double d;
        while (len > 0 && s[0] == ' ') { s++; len--; }
        while (len > 0 && s[len - 1] == ' ') len--;
        WCastResult r = parse_java_double(s, len, to->id == WT_FLOAT, &d, err);
        if (r != WCAST_OK) return r;
        out->d = to->id == WT_FLOAT ? as_float(d) : d;
        return WCAST_OK;
    }
    case WT_DECIMAL: {
        __int128 v;
        WDecParse r = wdec_parse_flink(s, len, to->precision, to->scale, &v);
        if (r == WDEC_OK) { out->dec = v; return WCAST_OK; }
        if (r == WDEC_OVERFLOW) return nfe(err, s, len, "Overflow.");
        werr_set(err, WEXC_NUMBER, "Character array is missing \"exponent\" mark 'e' or 'E'.");
        return WCAST_ERROR;
    }
    case WT_DATE: {
        int64_t d;
        /* Flink 2.3 refuses a year past 9999 ('20240229' is not the year 20240229) */
        if (!wparse_date(s, len, &d) || d > 2932896 /* 9999-12-31 */) {
            werr_set(err, EXC_DATETIME, "For input string: '%.*s'.", len, s);
            return WCAST_ERROR;
        }
        out->i = d;
        return WCAST_OK;
    }
    case WT_TIME: {
        int64_t t;
        if (!wparse_time(s, len, &t)) {
            werr_set(err, EXC_DATETIME, "Invalid time format: '%.*s'. Expected format: HH:mm:ss[.fff] where HH is "
                     "00-23, mm is 00-59, ss is 00-59", len, s);
            return WCAST_ERROR;
        }
        out->i = time_truncate(t, to->precision);
        return WCAST_OK;
    }
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: {
        WTimestamp ts;
        WCastResult r = parse_ts_text(s, len, &ts, err);
        if (r != WCAST_OK) return r;
        ts = ts_truncate(ts, to->precision);
        if (to->id == WT_TIMESTAMP_LTZ) ts = local_to_ltz(ts, ctx ? ctx->tz : NULL);
        out->ts = ts;
        return WCAST_OK;
    }
    default: {
        WStrBuf n;
        wsb_init(&n);
        wtype_to_string(to, &n);
        werr_set(err, WEXC_VALIDATION, "Unsupported cast from 'STRING' to '%s'.", n.buf);
        wsb_free(&n);
        return WCAST_ERROR;
    }
    }
}

/* ------------------------------------------------------------ the cast */

static WCastResult finish(const WCastCtx *ctx, WCastResult r, WError *err)
{
    if (r == WCAST_ERROR && ctx && ctx->legacy_behaviour) {
        if (err) werr_clear(err);
        return WCAST_NULL;
    }
    return r;
}

WCastResult wcast_from_text_ex(const WCastCtx *ctx, const char *s, int len, const WType *to,
                               WDatum *out, WArena *a, WError *err)
{
    memset(out, 0, sizeof *out);
    return finish(ctx, from_text(ctx, s, len, to, out, a, err), err);
}

bool wcast_from_text(const WCastCtx *ctx, const char *s, int len, const WType *to, WDatum *out,
                     WArena *a, WError *err)
{
    return wcast_from_text_ex(ctx, s, len, to, out, a, err) == WCAST_OK;
}

static WCastResult cast_any(const WCastCtx *ctx, const WType *from, WDatum in, const WType *to, WDatum *out,
                            WArena *a, WError *err);

static WCastResult cast_composite(const WCastCtx *ctx, const WType *from, WDatum in, const WType *to,
                                  WDatum *out, WArena *a, WError *err)
{
    const WComposite *c = in.cx;
    WComposite *r = WA_NEW(a, WComposite);
    int n = c ? c->n : 0;
    int slots = to->id == WT_MAP ? 2 * n : n;
    r->n = n;
    r->vals = WA_ARRAY(a, WDatum, slots ? slots : 1);
    r->nulls = WA_ARRAY(a, uint8_t, slots ? slots : 1);
    for (int i = 0; i < slots; i++) {
        const WType *ft, *tt;
        if (to->id == WT_ROW) {
            if (i >= from->nfields || i >= to->nfields) { r->nulls[i] = 1; continue; }
            ft = from->fields[i]; tt = to->fields[i];
        } else if (to->id == WT_MAP) {
            ft = i % 2 ? from->elem : from->key; tt = i % 2 ? to->elem : to->key;
        } else { ft = from->elem; tt = to->elem; }
        if (c->nulls && c->nulls[i]) { r->nulls[i] = 1; continue; }
        WCastResult e = cast_any(ctx, ft, c->vals[i], tt, &r->vals[i], a, err);
        if (e == WCAST_ERROR) return e;
        r->nulls[i] = e == WCAST_NULL;
    }
    out->cx = r;
    return WCAST_OK;
}

static WCastResult cast_any(const WCastCtx *ctx, const WType *from, WDatum in, const WType *to, WDatum *out,
                            WArena *a, WError *err)
{
    WTypeId f = from->id, t = to->id;
    const WTimeZone *tz = ctx ? ctx->tz : NULL;
    memset(out, 0, sizeof *out);
    if (f == WT_NULL) return WCAST_NULL;

    /* strings out */
    if (t == WT_CHAR || t == WT_VARCHAR) {
        if (wtype_is_string(from)) {
            /* Flink trusts the declared input length: no trimming when it fits the target */
            if (from->precision <= to->precision && (to->id == WT_VARCHAR || from->precision == to->precision)) {
                out->s = in.s;
                return WCAST_OK;
            }
            out->s = fit_string(ctx, to, in.s.p, in.s.len, false, a);
            return WCAST_OK;
        }
        if (wtype_is_binary(from)) { out->s = fit_string(ctx, to, in.s.p, in.s.len, true, a); return WCAST_OK; }
        WStrBuf sb;
        wsb_init(&sb);
        wfmt_sql(from, in, false, tz, &sb);
        out->s = fit_string(ctx, to, sb.buf, (int)sb.len, true, a);
        wsb_free(&sb);
        return WCAST_OK;
    }
    if (wtype_is_string(from)) return from_text(ctx, in.s.p, in.s.len, to, out, a, err);

    if (wtype_is_composite(from) && from->id == to->id) return cast_composite(ctx, from, in, to, out, a, err);

    switch (t) {
    case WT_BINARY: case WT_VARBINARY:
        if (wtype_is_binary(from)) { out->s = fit_binary(ctx, to, in.s.p, in.s.len, a); return WCAST_OK; }
        break;
    case WT_BOOLEAN:
        if (f == WT_BOOLEAN || wtype_is_integer(from)) { out->i = in.i != 0; return WCAST_OK; }
        if (f == WT_DECIMAL) { out->i = in.dec != 0; return WCAST_OK; }
        if (wtype_is_approx(from)) { out->i = in.d != 0.0; return WCAST_OK; }
        break;
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
        if (f == WT_BOOLEAN || wtype_is_integer(from) || wtype_is_interval(from)) { out->i = narrow(in.i, t); return WCAST_OK; }
        if (wtype_is_approx(from)) { out->i = d2int(in.d, t); return WCAST_OK; }
        if (f == WT_DECIMAL) { out->i = narrow(wdec_to_long(in.dec, from->scale), t); return WCAST_OK; }
        break;
    case WT_FLOAT: case WT_DOUBLE: {
        double d;
        if (f == WT_BOOLEAN || wtype_is_integer(from)) d = (double)in.i;
        else if (wtype_is_approx(from)) d = in.d;
        else if (f == WT_DECIMAL) d = wdec_to_double(in.dec, from->scale);
        else break;
        if (t == WT_FLOAT) {
            if (wtype_is_integer(from)) d = (double)(float)in.i;   /* long -> float rounds once */
            else d = as_float(d);
        }
        out->d = d;
        return WCAST_OK;
    }
    case WT_DECIMAL: {
        __int128 v;
        if (f == WT_BOOLEAN || wtype_is_integer(from) || wtype_is_interval(from)) {
            if (!wdec_cast((__int128)in.i, 0, to->precision, to->scale, &v)) return WCAST_NULL;
        } else if (f == WT_DECIMAL) {
            if (!wdec_cast(in.dec, from->scale, to->precision, to->scale, &v)) return WCAST_NULL;
        } else if (wtype_is_approx(from)) {
            bool nan_inf;
            double d = in.d;
            if (!wdec_from_double(d, to->precision, to->scale, &v, &nan_inf)) {
                if (nan_inf) {
                    werr_set(err, WEXC_NUMBER, "Infinite or NaN");
                    return WCAST_ERROR;
                }
                return WCAST_NULL;
            }
        } else break;
        out->dec = v;
        return WCAST_OK;
    }
    case WT_DATE:
        if (f == WT_DATE) { out->i = in.i; return WCAST_OK; }
        if (f == WT_TIMESTAMP) { out->i = floordiv(in.ts.ms, MS_PER_DAY); return WCAST_OK; }
        if (f == WT_TIMESTAMP_LTZ) { out->i = floordiv(ltz_to_local(in.ts, tz).ms, MS_PER_DAY); return WCAST_OK; }
        break;
    case WT_TIME:
        if (f == WT_TIME) { out->i = time_truncate(in.i, to->precision); return WCAST_OK; }
        if (is_ts(f)) {
            WTimestamp ts = f == WT_TIMESTAMP_LTZ ? ltz_to_local(in.ts, tz) : in.ts;
            int64_t tod = ts.ms - floordiv(ts.ms, MS_PER_DAY) * MS_PER_DAY;
            out->i = time_truncate(tod, to->precision);
            return WCAST_OK;
        }
        break;
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: {
        WTimestamp ts = { 0, 0 };
        bool local = true;   /* ts is a wall-clock value */
        if (f == WT_DATE) ts.ms = in.i * MS_PER_DAY;
        else if (f == WT_TIME) ts.ms = in.i;
        else if (f == WT_TIMESTAMP) ts = in.ts;
        else if (f == WT_TIMESTAMP_LTZ) { ts = in.ts; local = false; }
        else if (wtype_is_numeric(from)) {
            WError e2;
            werr_clear(&e2);
            wcast_check(from, to, &e2);
            werr_set(err, e2.cls, "%s", e2.msg);
            return WCAST_ERROR;
        } else break;
        ts = ts_truncate(ts, to->precision);
        if (t == WT_TIMESTAMP && !local) ts = ts_truncate(ltz_to_local(ts, tz), to->precision);
        else if (t == WT_TIMESTAMP_LTZ && local) ts = local_to_ltz(ts, tz);
        out->ts = ts;
        return WCAST_OK;
    }
    case WT_INTERVAL_YM: case WT_INTERVAL_DT:
        if (f == t) { out->i = in.i; return WCAST_OK; }
        if (wtype_is_integer(from)) { out->i = in.i; return WCAST_OK; }
        if (f == WT_DECIMAL) { out->i = wdec_to_long(in.dec, from->scale); return WCAST_OK; }
        break;
    default: break;
    }
    if (!wcast_check(from, to, err)) return WCAST_ERROR;
    {
        WStrBuf x, y;
        wsb_init(&x);
        wsb_init(&y);
        wtype_to_string(from, &x);
        wtype_to_string(to, &y);
        werr_set(err, WEXC_VALIDATION, "Unsupported cast from '%s' to '%s'.", x.buf, y.buf);
        wsb_free(&x);
        wsb_free(&y);
    }
    return WCAST_ERROR;
}

WCastResult wcast_datum_ex(const WCastCtx *ctx, const WType *from, WDatum in, const WType *to,
                           WDatum *out, WArena *a, WError *err)
{
    return finish(ctx, cast_any(ctx, from, in, to, out, a, err), err);
}

bool wcast_datum(const WCastCtx *ctx, const WType *from, WDatum in, const WType *to, WDatum *out,
                 WArena *a, WError *err)
{
    return wcast_datum_ex(ctx, from, in, to, out, a, err) == WCAST_OK;
}
