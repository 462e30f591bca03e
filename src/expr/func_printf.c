/*
 * func_printf.c — PRINTF(format, arg...): java.util.Formatter with Locale.US over Flink's internal
 * values, as Flink 2.3's PrintfFunction calls it, which gives NULL for a NULL format and for every
 * exception the Formatter throws (an unknown conversion, a flag a conversion refuses, a missing
 * argument, an argument of another class). The arguments are the objects Flink hands over: a
 * BOOLEAN a Boolean, TINYINT / SMALLINT / INT / BIGINT a Byte / Short / Integer / Long, DATE and
 * TIME an Integer (days, milliseconds), FLOAT / DOUBLE a Float / Double, a string its text, a
 * DECIMAL and a TIMESTAMP objects only %s, %b (and %h) print. Conversions: %b %s %c %d %o %x %e %f
 * %g (and upper-case forms), %% and %n, with argument indexes (n$, <), flags, width and precision;
 * %h, %a and the date/time conversions %t fail the query (docs/user-guide.md). Floating-point
 * values are rounded HALF_UP from Java's shortest digits, as Formatter does. Measured against
 * Flink by tests/flink/functions. Depends on func_impl.h.
 */
#include "func_impl.h"

#include <ctype.h>
#include <math.h>

#define EV(nm) static void nm(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, \
                              const uint8_t *act, WVector *out)
#define INF(nm) static const WType *nm(WArena *a, const WType **t, int n, const WType **co, WError *err)

enum { F_LEFT = 1, F_ALT = 2, F_PLUS = 4, F_SPACE = 8, F_ZERO = 16, F_GROUP = 32, F_PAREN = 64, F_PREV = 128 };

typedef enum { J_NULL, J_BOOL, J_BYTE, J_SHORT, J_INT, J_LONG, J_FLOAT, J_DOUBLE, J_STRING, J_OTHER } JClass;

/* One argument as the Java object Flink passes. */
typedef struct JArg {
    JClass cls;
    int64_t i;
    double d;
    WStr text;                  /* J_STRING; J_OTHER: its toString() */
} JArg;

typedef enum { P_OK, P_NULL, P_UNSUPPORTED } PResult;

static JArg java_arg(WEvalCtx *ctx, const WType *t, WDatum v, bool null)
{
    JArg a = {.cls = J_NULL};
    if (null || t->id == WT_NULL) return a;
    switch (t->id) {
    case WT_BOOLEAN: a.cls = J_BOOL; a.i = v.i != 0; break;
    case WT_TINYINT: a.cls = J_BYTE; a.i = v.i; break;
    case WT_SMALLINT: a.cls = J_SHORT; a.i = v.i; break;
    case WT_INT: case WT_DATE: case WT_TIME: a.cls = J_INT; a.i = v.i; break;
    case WT_BIGINT: a.cls = J_LONG; a.i = v.i; break;
    case WT_FLOAT: a.cls = J_FLOAT; a.d = (double)(float)v.d; break;
    case WT_DOUBLE: a.cls = J_DOUBLE; a.d = v.d; break;
    case WT_CHAR: case WT_VARCHAR: a.cls = J_STRING; a.text = v.s; break;
    default: {                  /* DECIMAL (DecimalData: its plain string), TIMESTAMP ... */
        WStrBuf b;
        wsb_init(&b);
        if (t->id == WT_DECIMAL) {
            char buf[64];
            wfmt_decimal(v.dec, t->scale, buf);
            wsb_append(&b, buf);
        } else {
            wfmt_java(t, v, false, NULL, &b);
        }
        char *p = wf_alloc(ctx, b.len);
        memcpy(p, b.buf, b.len);
        a.cls = J_OTHER;
        a.text = (WStr){p, (int32_t)b.len};
        wsb_free(&b);
        break;
    }
    }
    return a;
}

/* Formatter.appendJustified: s padded with spaces to width (left-justified with '-'). */
static void justify(WStrBuf *o, const char *s, size_t len, int width, int flags)
{
    int chars = wf_u8_count(s, (int)len);
    int pad = width > chars ? width - chars : 0;
    if (flags & F_LEFT) wsb_appendn(o, s, len);
    for (int k = 0; k < pad; k++) wsb_putc(o, ' ');
    if (!(flags & F_LEFT)) wsb_appendn(o, s, len);
}

/* Formatter.localizedMagnitude (Locale.US) of v[0..len) (digits, one '.' at most) appended to sb,
   with ',' every 3 digits of the integer part (F_GROUP) and, with F_ZERO, zeros after what sb
   held before (the sign) until sb is width long. */
static void magnitude(WStrBuf *sb, const char *v, int len, int flags, int width)
{
    int dot = len;
    for (int j = 0; j < len; j++) if (v[j] == '.') { dot = j; break; }
    size_t begin = sb->len;
    for (int j = 0; j < len; j++) {
        wsb_putc(sb, v[j]);
        if ((flags & F_GROUP) && j < dot - 1 && (dot - j) % 3 == 1) wsb_putc(sb, ',');
    }
    if (width >= 0 && (flags & F_ZERO) && (int)sb->len < width) {
        size_t z = (size_t)width - sb->len;
        wsb_reserve(sb, sb->len + z);
        memmove(sb->buf + begin + z, sb->buf + begin, sb->len - begin);
        memset(sb->buf + begin, '0', z);
        sb->len += z;
    }
}

static void leading_sign(WStrBuf *sb, bool neg, int flags)
{
    if (!neg) {
        if (flags & F_PLUS) wsb_putc(sb, '+');
        else if (flags & F_SPACE) wsb_putc(sb, ' ');
    } else {
        wsb_putc(sb, (flags & F_PAREN) ? '(' : '-');
    }
}

static int adjust_width(int width, int flags, bool neg) { return width >= 0 && neg && (flags & F_PAREN) ? width - 1 : width; }

/* Formatter.addZeros: the mantissa m gets a '.' and zeros to prec fraction digits. */
static void add_zeros(WStrBuf *m, int prec)
{
    size_t i = 0;
    while (i < m->len && m->buf[i] != '.') i++;
    bool dot = i < m->len;
    int have = dot ? (int)(m->len - i - 1) : 0;
    if (have >= prec) return;
    if (!dot) wsb_putc(m, '.');
    for (int k = have; k < prec; k++) wsb_putc(m, '0');
}

/* FloatingDecimal's digits of v > 0 (Java's shortest, Double.toString's): dig, their count, and
   decExp such that v = 0.d1d2... x 10^decExp. */
static int java_digits(double v, char *dig, int *dec_exp)
{
    char buf[40];
    wfmt_double_java(v, buf);           /* d.ddd or d.dddE±x, as Double.toString */
    int n = 0, point = -1, e = 0;
    const char *q = buf;
    for (; *q && *q != 'E'; q++) {
        if (*q == '.') { point = n; continue; }
        dig[n++] = *q;
    }
    if (*q == 'E') e = atoi(q + 1);
    int lead = 0;                       /* leading zeros of 0.00ddd */
    while (lead < n - 1 && dig[lead] == '0') lead++;
    int exp10 = point + e - lead;
    memmove(dig, dig + lead, (size_t)(n - lead));
    n -= lead;
    while (n > 1 && dig[n - 1] == '0') n--;
    *dec_exp = exp10;
    return n;
}

/* FormattedFloatingDecimal.applyPrecision: dig rounded HALF_UP to its first prec digits (the rest
   zeros); the decimal exponent after a carry. */
static int apply_precision(int dec_exp, char *dig, int nd, int prec)
{
    if (prec >= nd || prec < 0) return dec_exp;
    if (prec == 0) {
        if (dig[0] >= '5') { dig[0] = '1'; memset(dig + 1, '0', (size_t)(nd - 1)); return dec_exp + 1; }
        memset(dig, '0', (size_t)nd);
        return dec_exp;
    }
    if (dig[prec] >= '5') {
        int i = prec - 1;
        while (i > 0 && dig[i] == '9') i--;
        if (dig[i] == '9') { dig[0] = '1'; memset(dig + 1, '0', (size_t)(nd - 1)); return dec_exp + 1; }
        dig[i]++;
        memset(dig + i + 1, '0', (size_t)(nd - i - 1));
    } else {
        memset(dig + prec, '0', (size_t)(nd - prec));
    }
    return dec_exp;
}

/* FormattedFloatingDecimal.fillDecimal: at most prec fraction digits of dig x 10^exp. */
static void fill_decimal(WStrBuf *m, int prec, const char *dig, int nd, int exp)
{
    if (exp > 0) {
        if (nd < exp) {
            wsb_appendn(m, dig, (size_t)nd);
            for (int k = nd; k < exp; k++) wsb_putc(m, '0');
        } else {
            int t = nd - exp < prec ? nd - exp : prec;
            wsb_appendn(m, dig, (size_t)exp);
            if (t > 0) { wsb_putc(m, '.'); wsb_appendn(m, dig + exp, (size_t)t); }
        }
        return;
    }
    int zeros = -exp < prec ? -exp : prec;
    if (zeros < 0) zeros = 0;
    int t = nd < prec + exp ? nd : prec + exp;
    if (t < 0) t = 0;
    if (zeros > 0 || t > 0) {
        wsb_append(m, "0.");
        for (int k = 0; k < zeros; k++) wsb_putc(m, '0');
        wsb_appendn(m, dig, (size_t)t);
    } else {
        wsb_putc(m, '0');
    }
}

/* FormattedFloatingDecimal.fillScientific: d[.ddd] (at most prec fraction digits) and the
   exponent "±dd" of dig x 10^exp into e. */
static void fill_scientific(WStrBuf *m, char *e, int prec, const char *dig, int nd, int exp)
{
    int t = nd - 1 < prec ? nd - 1 : prec;
    if (t < 0) t = 0;
    wsb_putc(m, dig[0]);
    if (t > 0) { wsb_putc(m, '.'); wsb_appendn(m, dig + 1, (size_t)t); }
    int x = exp <= 0 ? -exp + 1 : exp - 1;
    sprintf(e, "%c%02d", exp <= 0 ? '-' : '+', x);
}

/* %e %f %g of the double v (a Double, or a Float widened). */
static void fmt_float(WStrBuf *sb, double value, char conv, int flags, int width, int precision)
{
    bool upper = isupper((unsigned char)conv);
    conv = (char)tolower((unsigned char)conv);
    if (isnan(value)) { wsb_append(sb, upper ? "NAN" : "NaN"); return; }
    bool neg = value < 0 || (value == 0 && signbit(value));
    double v = fabs(value);
    leading_sign(sb, neg, flags);
    if (isinf(v)) {
        wsb_append(sb, upper ? "INFINITY" : "Infinity");
    } else {
        char dig[40], ex[8] = {0};
        int dexp = 0, nd = 0;
        if (v != 0) nd = java_digits(v, dig, &dexp);
        else { dig[0] = '0'; nd = 1; dexp = 1; }
        WStrBuf m;
        wsb_init(&m);
        bool has_exp = false;
        int prec;
        if (conv == 'e') {
            prec = precision < 0 ? 6 : precision;
            int er = apply_precision(dexp, dig, nd, prec + 1);
            fill_scientific(&m, ex, prec, dig, nd, v == 0 ? 1 : er);
            has_exp = true;
        } else if (conv == 'f') {
            prec = precision < 0 ? 6 : precision;
            int er = apply_precision(dexp, dig, nd, dexp + prec);
            fill_decimal(&m, prec, dig, nd, er);
        } else {                            /* 'g' */
            prec = precision < 0 ? 6 : precision == 0 ? 1 : precision;
            if (v == 0) {
                wsb_putc(&m, '0');
                prec -= 1;
            } else {
                int er = apply_precision(dexp, dig, nd, prec);
                if (er - 1 < -4 || er - 1 >= prec) {
                    fill_scientific(&m, ex, prec - 1, dig, nd, er);
                    has_exp = true;
                    prec -= 1;
                } else {
                    fill_decimal(&m, prec - er, dig, nd, er);
                    prec -= er;
                }
            }
        }
        add_zeros(&m, prec);
        if ((flags & F_ALT) && prec == 0) wsb_putc(&m, '.');
        int w = width;
        if (width >= 0) w = adjust_width(has_exp ? width - (int)strlen(ex) - 1 : width, flags, neg);
        magnitude(sb, m.buf, (int)m.len, flags, w);
        wsb_free(&m);
        if (has_exp) {
            wsb_putc(sb, upper ? 'E' : 'e');
            wsb_append(sb, ex);
        }
    }
    if (neg && (flags & F_PAREN)) wsb_putc(sb, ')');
}

/* %d %o %x of a Byte / Short / Integer / Long (bits: its width) */
static void fmt_integer(WStrBuf *sb, int64_t value, int bits, char conv, int flags, int width)
{
    char buf[80];
    if (conv == 'd') {
        bool neg = value < 0;
        leading_sign(sb, neg, flags);
        int len = snprintf(buf, sizeof buf, "%llu", neg ? 0ULL - (unsigned long long)value : (unsigned long long)value);
        magnitude(sb, buf, len, flags, adjust_width(width, flags, neg));
        if (neg && (flags & F_PAREN)) wsb_putc(sb, ')');
        return;
    }
    uint64_t u = (uint64_t)value;
    if (bits < 64) u &= ((uint64_t)1 << bits) - 1;          /* two's complement of its width */
    bool hex = conv == 'x' || conv == 'X';
    int len = snprintf(buf, sizeof buf, hex ? "%llx" : "%llo", (unsigned long long)u);
    int full = len + ((flags & F_ALT) ? (hex ? 2 : 1) : 0);
    if (flags & F_ALT) wsb_append(sb, hex ? "0x" : "0");
    if (flags & F_ZERO) for (int k = full; k < width; k++) wsb_putc(sb, '0');
    wsb_appendn(sb, buf, (size_t)len);
}

static bool valid_conv(char c) { return c && strchr("bBhHsScCdoxXeEfgGaAtT%n", c) != NULL; }

/* One Formatter.format(fmt, args) into o: P_NULL where Java throws. */
static PResult format_all(WStr fmt, const JArg *args, int nargs, WStrBuf *o, char *bad)
{
    const char *p = fmt.p, *e = fmt.p + fmt.len;
    int ordinary = -1, last = -1;
    WStrBuf sb;
    wsb_init(&sb);
    PResult r = P_OK;
    while (p < e && r == P_OK) {
        if (*p != '%') { wsb_putc(o, *p++); continue; }
        const char *q = ++p;
        int index = 0, flags = 0, width = -1, precision = -1;
        const char *d = q;                  /* an argument index: digits and '$' */
        while (d < e && isdigit((unsigned char)*d)) d++;
        if (d > q && d < e && *d == '$') {
            long x = strtol(q, NULL, 10);
            if (x <= 0 || x > 100000) { r = P_NULL; break; }
            index = (int)x;
            q = d + 1;
        }
        for (; q < e; q++) {                /* flags (a repeated one is refused) */
            int f = *q == '-' ? F_LEFT : *q == '#' ? F_ALT : *q == '+' ? F_PLUS : *q == ' ' ? F_SPACE :
                    *q == '0' ? F_ZERO : *q == ',' ? F_GROUP : *q == '(' ? F_PAREN : *q == '<' ? F_PREV : 0;
            if (!f) break;
            if (flags & f) { r = P_NULL; break; }
            flags |= f;
        }
        if (r != P_OK) break;
        if (q < e && isdigit((unsigned char)*q)) {
            long x = strtol(q, NULL, 10);
            while (q < e && isdigit((unsigned char)*q)) q++;
            if (x > 1000000) { r = P_NULL; break; }
            width = (int)x;
        }
        if (q < e && *q == '.') {
            q++;
            if (q >= e || !isdigit((unsigned char)*q)) { r = P_NULL; break; }
            long x = strtol(q, NULL, 10);
            while (q < e && isdigit((unsigned char)*q)) q++;
            if (x > 1000000) { r = P_NULL; break; }
            precision = (int)x;
        }
        if (q >= e || !valid_conv(*q)) { r = P_NULL; break; }
        char c = *q++;
        p = q;
        char lc = (char)tolower((unsigned char)c);
        if (lc == 'h' || lc == 'a' || lc == 't') { *bad = c; r = P_UNSUPPORTED; break; }
        /* the checks Formatter makes of a specifier */
        bool numeric = strchr("doxefg", lc) != NULL && !(c == 'D' || c == 'O');
        if (c == '%' || c == 'n') {
            if (precision >= 0) { r = P_NULL; break; }
            if (c == 'n' && (width >= 0 || flags)) { r = P_NULL; break; }
            if (c == '%' && ((flags & ~F_LEFT) || ((flags & F_LEFT) && width < 0))) { r = P_NULL; break; }
            if (c == 'n') { wsb_putc(o, '\n'); continue; }
            justify(o, "%", 1, width, flags);
            continue;
        }
        if (numeric) {
            if ((width < 0 && (flags & (F_LEFT | F_ZERO))) || ((flags & F_PLUS) && (flags & F_SPACE)) ||
                ((flags & F_LEFT) && (flags & F_ZERO))) { r = P_NULL; break; }
            if (lc == 'd' || lc == 'o' || lc == 'x') {
                if (precision >= 0) { r = P_NULL; break; }
                if (lc == 'd' ? (flags & F_ALT) : (flags & F_GROUP)) { r = P_NULL; break; }
            } else if ((lc == 'e' && (flags & F_GROUP)) || (lc == 'g' && (flags & F_ALT))) {
                r = P_NULL;
                break;
            }
        } else if (lc == 'c') {
            if (precision >= 0 || (flags & ~(F_LEFT | F_PREV)) || ((flags & F_LEFT) && width < 0)) { r = P_NULL; break; }
        } else {                            /* b s */
            if ((lc == 'b' && (flags & F_ALT)) || ((flags & F_LEFT) && width < 0) ||
                (flags & (F_PLUS | F_SPACE | F_ZERO | F_GROUP | F_PAREN))) { r = P_NULL; break; }
        }
        /* the argument */
        int at;
        if (flags & F_PREV) at = last;
        else if (index > 0) at = last = index - 1;
        else at = last = ++ordinary;
        if (at < 0 || at >= nargs) { r = P_NULL; break; }
        const JArg *a = &args[at];
        sb.len = 0;
        if (lc == 's' || lc == 'b') {
            if (lc == 's' && (flags & F_ALT)) { r = P_NULL; break; }     /* not a Formattable */
            char buf[40];
            WStr s;
            if (lc == 'b') s = a->cls == J_NULL ? (WStr){"false", 5} : a->cls == J_BOOL && !a->i ? (WStr){"false", 5} : (WStr){"true", 4};
            else if (a->cls == J_NULL) s = (WStr){"null", 4};
            else if (a->cls == J_BOOL) s = a->i ? (WStr){"true", 4} : (WStr){"false", 5};
            else if (a->cls == J_STRING || a->cls == J_OTHER) s = a->text;
            else if (a->cls == J_FLOAT) s = (WStr){buf, wfmt_float_java((float)a->d, buf)};
            else if (a->cls == J_DOUBLE) s = (WStr){buf, wfmt_double_java(a->d, buf)};
            else s = (WStr){buf, snprintf(buf, sizeof buf, "%lld", (long long)a->i)};
            int len = s.len;
            if (precision >= 0) len = wf_u8_offset(s.p, s.len, precision);
            wsb_appendn(&sb, s.p, (size_t)len);
        } else if (a->cls == J_NULL) {
            int len = precision >= 0 && precision < 4 ? precision : 4;
            wsb_appendn(&sb, "null", (size_t)len);
        } else if (lc == 'c') {
            if (a->cls != J_BYTE && a->cls != J_SHORT && a->cls != J_INT) { r = P_NULL; break; }
            if (a->i < 0 || a->i > 0x10FFFF) { r = P_NULL; break; }
            char u[4];
            wsb_appendn(&sb, u, (size_t)wf_u8_encode((int)a->i, u));
        } else if (lc == 'd' || lc == 'o' || lc == 'x') {
            int bits = a->cls == J_BYTE ? 8 : a->cls == J_SHORT ? 16 : a->cls == J_INT ? 32 : a->cls == J_LONG ? 64 : 0;
            if (!bits) { r = P_NULL; break; }
            if (lc != 'd' && (flags & (F_PAREN | F_SPACE | F_PLUS))) { r = P_NULL; break; }
            fmt_integer(&sb, a->i, bits, c, flags, width);
        } else {                            /* e f g */
            if (a->cls != J_FLOAT && a->cls != J_DOUBLE) { r = P_NULL; break; }
            fmt_float(&sb, a->d, c, flags, width, precision);
        }
        if (isupper((unsigned char)c)) {    /* toUpperCase(Locale.US): ASCII here, code points beyond */
            WStrBuf up;
            wsb_init(&up);
            for (int k = 0; k < (int)sb.len;) {
                int adv, cp = wf_u8_decode(sb.buf + k, (int)sb.len - k, &adv);
                char u[4];
                if (cp == 0xDF) wsb_append(&up, "SS");      /* String.toUpperCase: ß is SS */
                else wsb_appendn(&up, u, (size_t)wf_u8_encode(wf_java_upper(cp), u));
                k += adv;
            }
            justify(o, up.buf ? up.buf : "", up.len, width, flags);
            wsb_free(&up);
        } else {
            justify(o, sb.buf ? sb.buf : "", sb.len, width, flags);
        }
    }
    wsb_free(&sb);
    return r;
}

INF(inf_printf)
{
    (void)co;
    if (n < 1) return wf_err_arg_count(err, "PRINTF", 1), NULL;
    if (!wf_str(t[0])) return wf_err_invalid_call(err, "PRINTF", t, n, "PRINTF(format <CHARACTER_STRING>, obj <ANY>...)");
    return wf_string(a, true);
}

EV(ev_printf)
{
    (void)call;
    JArg *args = (JArg *)(void *)wf_alloc(ctx, sizeof(JArg) * (size_t)(na > 1 ? na - 1 : 1));
    WStrBuf o;
    wsb_init(&o);
    WF_FOR(i, n, act) {
        if (av[0]->nulls[i]) { out->nulls[i] = 1; continue; }
        for (int k = 1; k < na; k++) args[k - 1] = java_arg(ctx, av[k]->type, av[k]->data[i], av[k]->nulls[i]);
        wsb_clear(&o);
        char bad = 0;
        PResult r = format_all(av[0]->data[i].s, args, na - 1, &o, &bad);
        if (r == P_UNSUPPORTED) {
            wf_fail(ctx, WEXC_UNSUPPORTED, "PRINTF: weir does not support the conversion '%%%c' (Java's %s).", bad,
                    tolower((unsigned char)bad) == 'h' ? "hash code" : tolower((unsigned char)bad) == 'a' ?
                    "hexadecimal floating point" : "date/time conversions");
            break;
        }
        if (r == P_NULL) { out->nulls[i] = 1; continue; }
        out->nulls[i] = 0;
        wf_set_str(ctx, out, i, o.buf ? o.buf : "", o.len);
    }
    wsb_free(&o);
}

static const WFuncDef D_PRINTF = {"PRINTF", 1, -1, true, true, inf_printf, ev_printf, NULL};

const WFuncDef *const wf_printf_defs[] = {&D_PRINTF, NULL};
