/*
 * func_util.c — shared helpers of the function library: validation messages in Calcite's and
 * Flink's shapes, result-type shortcuts, string output, UTF-8 and Java character classes,
 * DECIMAL arithmetic (HALF_UP, overflow reported to the caller), time-unit names.
 * See func_impl.h. Depends on expr/, types/, common/.
 */
#include "func_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <strings.h>

typedef unsigned __int128 u128;

bool wf_any_nullable(const WType **args, int n)
{
    for (int i = 0; i < n; i++)
        if (args[i]->nullable || args[i]->id == WT_NULL) return true;
    return false;
}

const WType *wf_type(WArena *a, WTypeId id, bool nullable)
{
    switch (id) {
    case WT_BOOLEAN: return nullable ? &WTYPE_BOOLEAN : &WTYPE_BOOLEAN_NN;
    case WT_INT: return nullable ? &WTYPE_INT : &WTYPE_INT_NN;
    case WT_BIGINT: return nullable ? &WTYPE_BIGINT : &WTYPE_BIGINT_NN;
    case WT_DOUBLE: return nullable ? &WTYPE_DOUBLE : &WTYPE_DOUBLE_NN;
    case WT_VARCHAR: return nullable ? &WTYPE_STRING : &WTYPE_STRING_NN;
    default: break;
    }
    WType *t = wtype_new(a, id, nullable);
    if (id == WT_TIME || id == WT_TIMESTAMP || id == WT_TIMESTAMP_LTZ) t->precision = id == WT_TIME ? 0 : 3;
    return t;
}

const WType *wf_string(WArena *a, bool nullable)
{
    (void)a;
    return nullable ? &WTYPE_STRING : &WTYPE_STRING_NN;
}

/* ---------------------------------------------------------------- messages */

void wfunc_calcite_type(const WType *t, WStrBuf *out) { wf_calcite_type(t, out); }

void wf_calcite_type(const WType *t, WStrBuf *o)
{
    switch (t->id) {
    case WT_NULL: wsb_append(o, "NULL"); return;
    case WT_BOOLEAN: wsb_append(o, "BOOLEAN"); return;
    case WT_TINYINT: wsb_append(o, "TINYINT"); return;
    case WT_SMALLINT: wsb_append(o, "SMALLINT"); return;
    case WT_INT: wsb_append(o, "INTEGER"); return;
    case WT_BIGINT: wsb_append(o, "BIGINT"); return;
    case WT_FLOAT: wsb_append(o, "FLOAT"); return;
    case WT_DOUBLE: wsb_append(o, "DOUBLE"); return;
    case WT_DECIMAL: wsb_printf(o, "DECIMAL(%d, %d)", t->precision, t->scale); return;
    case WT_CHAR: wsb_printf(o, "CHAR(%d)", t->precision); return;
    case WT_VARCHAR: wsb_printf(o, "VARCHAR(%d)", t->precision); return;
    case WT_BINARY: wsb_printf(o, "BINARY(%d)", t->precision); return;
    case WT_VARBINARY: wsb_printf(o, "VARBINARY(%d)", t->precision); return;
    case WT_DATE: wsb_append(o, "DATE"); return;
    case WT_TIME: wsb_printf(o, "TIME(%d)", t->precision); return;
    case WT_TIMESTAMP:
        wsb_printf(o, "TIMESTAMP(%d)", t->precision);
        if (t->time_attr == WTA_ROWTIME) wsb_append(o, " *ROWTIME*");
        return;
    case WT_TIMESTAMP_LTZ:
        wsb_printf(o, "TIMESTAMP_WITH_LOCAL_TIME_ZONE(%d)", t->precision);
        if (t->time_attr == WTA_ROWTIME) wsb_append(o, " *ROWTIME*");
        else if (t->time_attr == WTA_PROCTIME) wsb_append(o, " *PROCTIME*");
        return;
    case WT_INTERVAL_YM:
    case WT_INTERVAL_DT: {
        WStrBuf tmp;
        wsb_init(&tmp);
        wtype_to_string(t, &tmp);
        /* strip precisions: Calcite prints INTERVAL DAY TO SECOND */
        const char *s = tmp.buf;
        const char *nn = strstr(s, " NOT NULL");
        size_t n = nn ? (size_t)(nn - s) : tmp.len;
        for (size_t i = 0; i < n; i++) {
            if (s[i] == '(') { while (i < n && s[i] != ')') i++; continue; }
            wsb_putc(o, s[i]);
        }
        wsb_free(&tmp);
        return;
    }
    case WT_ARRAY: wf_calcite_type(t->elem, o); wsb_append(o, " ARRAY"); return;
    case WT_MULTISET: wf_calcite_type(t->elem, o); wsb_append(o, " MULTISET"); return;
    case WT_MAP:
        wsb_putc(o, '(');
        wf_calcite_type(t->key, o);
        wsb_append(o, ", ");
        wf_calcite_type(t->elem, o);
        wsb_append(o, ") MAP");
        return;
    case WT_ROW:
        wsb_append(o, "RecordType(");
        for (int i = 0; i < t->nfields; i++) {
            if (i) wsb_append(o, ", ");
            wf_calcite_type(t->fields[i], o);
            wsb_printf(o, " %s", t->field_names ? t->field_names[i] : "");
        }
        wsb_putc(o, ')');
        return;
    default: wsb_append(o, "ANY"); return;
    }
}

static void forms_quoted(WStrBuf *o, const char *forms)
{
    const char *p = forms;
    bool first = true;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (!first) wsb_putc(o, '\n');
        wsb_putc(o, '\'');
        wsb_appendn(o, p, n);
        wsb_putc(o, '\'');
        first = false;
        p += n;
        if (*p == '\n') p++;
    }
}

static const WType *set_msg(WError *err, const char *cls, WStrBuf *o)
{
    werr_set(err, cls, "%s", o->buf);
    wsb_free(o);
    return NULL;
}

const WType *wf_err_apply(WError *err, const char *name, const WType **args, int nargs, const char *forms)
{
    WStrBuf o;
    wsb_init(&o);
    wsb_printf(&o, "Cannot apply '%s' to arguments of type '%s(", name, name);
    for (int i = 0; i < nargs; i++) {
        if (i) wsb_append(&o, ", ");
        wsb_putc(&o, '<');
        wf_calcite_type(args[i], &o);
        wsb_putc(&o, '>');
    }
    wsb_append(&o, ")'. Supported form(s): ");
    forms_quoted(&o, forms);
    return set_msg(err, WEXC_CALCITE, &o);
}

const WType *wf_err_apply_op(WError *err, const char *op, const WType **args, int nargs, const char *forms)
{
    WStrBuf o;
    wsb_init(&o);
    wsb_printf(&o, "Cannot apply '%s' to arguments of type '", op);
    if (nargs == 1) {
        /* prefix / postfix operators */
        if (strncmp(op, "IS ", 3) == 0) {
            wsb_putc(&o, '<');
            wf_calcite_type(args[0], &o);
            wsb_printf(&o, "> %s", op);
        } else {
            wsb_printf(&o, "%s<", op);
            wf_calcite_type(args[0], &o);
            wsb_putc(&o, '>');
        }
    } else {
        for (int i = 0; i < nargs; i++) {
            if (i) wsb_printf(&o, " %s ", op);
            wsb_putc(&o, '<');
            wf_calcite_type(args[i], &o);
            wsb_putc(&o, '>');
        }
    }
    wsb_append(&o, "'. Supported form(s): ");
    forms_quoted(&o, forms);
    return set_msg(err, WEXC_CALCITE, &o);
}

const WType *wf_err_invalid_call(WError *err, const char *name, const WType **args, int nargs, const char *sigs)
{
    WStrBuf o;
    wsb_init(&o);
    wsb_printf(&o, "Invalid function call:\n%s(", name);
    for (int i = 0; i < nargs; i++) {
        if (i) wsb_append(&o, ", ");
        if (args[i]->id == WT_NULL) wsb_append(&o, "NULL");
        else wtype_to_string(args[i], &o);
    }
    wsb_putc(&o, ')');
    if (sigs && *sigs) wsb_printf(&o, "\nInvalid input arguments. Expected signatures are:\n%s", sigs);
    return set_msg(err, WEXC_VALIDATION, &o);
}

static bool fam_ok(char f, const WType *t)
{
    if (t->id == WT_NULL) return true;
    switch (f) {
    case 'C': case 'S': return wtype_is_string(t);
    case 'X': return wtype_is_binary(t);
    case 'I': return wtype_is_integer(t);
    case 'N': return wtype_is_numeric(t);
    case 'E': return wtype_is_exact_numeric(t);
    case 'B': return t->id == WT_BOOLEAN;
    case 'D': return t->id == WT_DATE;
    case 'T': return wtype_is_timestamp(t);
    case 'M': return t->id == WT_TIME;
    case 'V': return wtype_is_interval(t);
    default: return true;
    }
}

static const char *fam_name(char f)
{
    switch (f) {
    case 'C': return "CHARACTER";
    case 'S': return "STRING";
    case 'X': return "BINARY";
    case 'I': return "INTEGER";
    case 'N': return "NUMERIC";
    case 'E': return "EXACT_NUMERIC";
    case 'B': return "BOOLEAN";
    case 'D': return "DATE";
    case 'T': return "TIMESTAMP";
    case 'M': return "TIME";
    case 'V': return "DATETIME_INTERVAL";
    default: return "ANY";
    }
}

static bool alt_match(const char *alt, size_t len, const WType **t, int n)
{
    int k = 0;
    for (size_t i = 0; i < len; i++) {
        if (alt[i] == '*') continue;
        bool rep = i + 1 < len && alt[i + 1] == '*';
        if (rep) {
            if (k >= n || !fam_ok(alt[i], t[k])) return false;
            k++;
            while (k < n && fam_ok(alt[i], t[k])) k++;
        } else {
            if (k >= n || !fam_ok(alt[i], t[k])) return false;
            k++;
        }
    }
    return k == n;
}

static void alt_counts(const char *alt, size_t len, int *mn, bool *unbounded)
{
    int k = 0;
    for (size_t i = 0; i < len; i++) {
        if (alt[i] == '*') { *unbounded = true; continue; }
        k++;
    }
    *mn = k;
}

bool wf_err_arg_count(WError *err, const char *name, int expected)
{
    werr_set(err, WEXC_CALCITE, "Invalid number of arguments to function '%s'. Was expecting %d arguments", name, expected);
    return false;
}

bool wf_check(WError *err, const char *name, const WType **args, int nargs, const char *sig)
{
    const char *p = sig;
    /* a call whose argument count fits no form gets Calcite's invalidArgCount message */
    int min_count = -1;
    bool count_ok = false;
    for (const char *q = sig;;) {
        const char *bar = strchr(q, '|');
        size_t len = bar ? (size_t)(bar - q) : strlen(q);
        int mn;
        bool unb = false;
        alt_counts(q, len, &mn, &unb);
        if (nargs == mn || (unb && nargs >= mn)) count_ok = true;
        if (min_count < 0 || mn < min_count) min_count = mn;
        if (!bar) break;
        q = bar + 1;
    }
    if (!count_ok) return wf_err_arg_count(err, name, min_count);
    for (;;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (alt_match(p, len, args, nargs)) return true;
        if (!bar) break;
        p = bar + 1;
    }
    WStrBuf f;
    wsb_init(&f);
    p = sig;
    for (;;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (p != sig) wsb_putc(&f, '\n');
        wsb_printf(&f, "%s(", name);
        bool first = true;
        for (size_t i = 0; i < len; i++) {
            if (p[i] == '*') { wsb_append(&f, ", ..."); continue; }
            if (!first) wsb_append(&f, ", ");
            wsb_printf(&f, "<%s>", fam_name(p[i]));
            first = false;
        }
        wsb_putc(&f, ')');
        if (!bar) break;
        p = bar + 1;
    }
    wf_err_apply(err, name, args, nargs, f.buf);
    wsb_free(&f);
    return false;
}

bool wf_fail(WEvalCtx *ctx, const char *cls, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    werr_setv(ctx->err, cls, fmt, ap);
    va_end(ap);
    return false;
}

/* ---------------------------------------------------------------- output */

int wf_hex_digit(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

char *wf_alloc(WEvalCtx *ctx, size_t n)
{
    return wa_alloc(ctx->arena, n ? n : 1);
}

char *wf_cstr(WEvalCtx *ctx, WStr s)
{
    char *p = wf_alloc(ctx, (size_t)s.len + 1);
    if (s.len) memcpy(p, s.p, (size_t)s.len);
    p[s.len] = 0;
    return p;
}

void wf_set_str(WEvalCtx *ctx, WVector *out, int i, const char *p, size_t n)
{
    char *d = wf_alloc(ctx, n);
    if (n) memcpy(d, p, n);
    out->data[i].s.p = d;
    out->data[i].s.len = (int32_t)n;
}

WStr wf_to_text(WEvalCtx *ctx, const WType *t, WDatum v)
{
    if (wtype_is_string(t)) return v.s;
    WStrBuf b;
    wsb_init(&b);
    wfmt_sql(t, v, false, ctx->cast.tz, &b);
    WStr r;
    r.p = wa_memdup(ctx->arena, b.buf, b.len + 1);
    r.len = (int32_t)b.len;
    wsb_free(&b);
    return r;
}

/* ---------------------------------------------------------------- UTF-8 */

int wf_u8_decode(const char *p, int n, int *adv)
{
    const unsigned char *s = (const unsigned char *)p;
    unsigned c = s[0];
    if (c < 0x80 || n < 2) { *adv = 1; return (int)c; }
    if ((c & 0xE0) == 0xC0 && (s[1] & 0xC0) == 0x80) { *adv = 2; return (int)(((c & 0x1F) << 6) | (s[1] & 0x3F)); }
    if ((c & 0xF0) == 0xE0 && n >= 3 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80) {
        *adv = 3;
        return (int)(((c & 0x0F) << 12) | ((s[1] & 0x3F) << 6) | (s[2] & 0x3F));
    }
    if ((c & 0xF8) == 0xF0 && n >= 4 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80 && (s[3] & 0xC0) == 0x80) {
        *adv = 4;
        return (int)(((c & 0x07) << 18) | ((s[1] & 0x3F) << 12) | ((s[2] & 0x3F) << 6) | (s[3] & 0x3F));
    }
    *adv = 1;
    return (int)c;
}

int wf_u8_encode(int cp, char *out)
{
    unsigned c = (unsigned)cp;
    if (c < 0x80) { out[0] = (char)c; return 1; }
    if (c < 0x800) { out[0] = (char)(0xC0 | (c >> 6)); out[1] = (char)(0x80 | (c & 0x3F)); return 2; }
    if (c < 0x10000) {
        out[0] = (char)(0xE0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (c >> 18));
    out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    out[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

int wf_u8_count(const char *p, int n)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        if (((unsigned char)p[i] & 0xC0) != 0x80) c++;
    return c;
}

int wf_u8_offset(const char *p, int n, int cp)
{
    if (cp <= 0) return 0;
    int c = 0;
    for (int i = 0; i < n; i++) {
        if (((unsigned char)p[i] & 0xC0) != 0x80) {
            if (c == cp) return i;
            c++;
        }
    }
    return n;
}

int32_t wf_java_string_hash(const char *p, int n)
{
    uint32_t h = 0;
    int i = 0;
    while (i < n) {
        int adv;
        int cp = wf_u8_decode(p + i, n - i, &adv);
        i += adv;
        if (cp >= 0x10000) {
            int v = cp - 0x10000;
            h = 31 * h + (uint32_t)(0xD800 + (v >> 10));
            h = 31 * h + (uint32_t)(0xDC00 + (v & 0x3FF));
        } else {
            h = 31 * h + (uint32_t)cp;
        }
    }
    return (int32_t)h;
}

bool wf_java_space(int c)
{
    if (c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F)) return true;
    if (c == 0x1680 || (c >= 0x2000 && c <= 0x2006) || (c >= 0x2008 && c <= 0x200A) ||
        c == 0x2028 || c == 0x2029 || c == 0x205F || c == 0x3000) return true;
    return false;
}

bool wf_java_alpha(int c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
    if (c < 0xAA) return false;
    if (c == 0xD7 || c == 0xF7) return false;
    if (c >= 0xC0 && c <= 0x24F) return true;           /* Latin-1 letters, Latin Extended */
    if (c >= 0x370 && c <= 0x3FF) return c != 0x37E && c != 0x387;
    if (c >= 0x400 && c <= 0x52F) return !(c >= 0x482 && c <= 0x489);
    if (c >= 0x4E00 && c <= 0x9FFF) return true;        /* CJK */
    if (c >= 0x3040 && c <= 0x30FF) return c != 0x30FB; /* kana */
    if (c >= 0xAC00 && c <= 0xD7A3) return true;        /* Hangul */
    return c == 0xAA || c == 0xB5 || c == 0xBA;
}

bool wf_java_alnum(int c)
{
    return (c >= '0' && c <= '9') || wf_java_alpha(c);
}

int wf_java_upper(int c)
{
    if (c < 0x80) return (c >= 'a' && c <= 'z') ? c - 32 : c;
    if (c == 0xB5) return 0x39C;
    if (c >= 0xE0 && c <= 0xFE && c != 0xF7) return c - 32;
    if (c == 0xFF) return 0x178;
    if (c >= 0x100 && c <= 0x17F && c != 0x130 && c != 0x131 && c != 0x138 && c != 0x149 && c != 0x17F) {
        bool odd_lower = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
        if (odd_lower) return (c & 1) == 0 ? c - 1 : c;
        return (c & 1) ? c - 1 : c;
    }
    if (c >= 0x3B1 && c <= 0x3C9 && c != 0x3C2) return c - 32;
    if (c == 0x3C2) return 0x3A3;
    if (c >= 0x430 && c <= 0x44F) return c - 32;
    if (c >= 0x450 && c <= 0x45F) return c - 80;
    return c;
}

int wf_java_lower(int c)
{
    if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
    if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 32;
    if (c == 0x178) return 0xFF;
    if (c >= 0x100 && c <= 0x17F && c != 0x130 && c != 0x131 && c != 0x138 && c != 0x149 && c != 0x17F) {
        bool odd_lower = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
        if (odd_lower) return (c & 1) ? c + 1 : c;
        return (c & 1) == 0 ? c + 1 : c;
    }
    if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) return c + 32;
    if (c >= 0x410 && c <= 0x42F) return c + 32;
    if (c >= 0x400 && c <= 0x40F) return c + 80;
    return c;
}

/* ---------------------------------------------------------------- numerics */

double wf_as_double(const WType *t, WDatum v)
{
    switch (t->id) {
    case WT_FLOAT: case WT_DOUBLE: return v.d;
    case WT_DECIMAL: return wdec_to_double(v.dec, t->scale);
    default: return (double)v.i;
    }
}

/* 10^n as u128 for n <= 38 */
static u128 p10(int n)
{
    static const uint64_t small[20] = {
        1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
        1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
        100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
        1000000000000000000ULL, 10000000000000000000ULL };
    if (n < 20) return small[n];
    return (u128)small[19] * small[n - 19];
}

typedef struct { u128 hi, lo; } u256;

static u256 mul_u128(u128 a, u128 b)
{
    u128 a0 = (uint64_t)a, a1 = a >> 64, b0 = (uint64_t)b, b1 = b >> 64;
    u128 p00 = a0 * b0, p01 = a0 * b1, p10_ = a1 * b0, p11 = a1 * b1;
    u128 mid = (p00 >> 64) + (uint64_t)p01 + (uint64_t)p10_;
    u256 r;
    r.lo = (mid << 64) | (uint64_t)p00;
    r.hi = p11 + (p01 >> 64) + (p10_ >> 64) + (mid >> 64);
    return r;
}

/* x *= m (m < 2^64); false on overflow of 256 bits */
static bool mul256_small(u256 *x, uint64_t m)
{
    u256 lo = mul_u128(x->lo, m);
    u256 hi = mul_u128(x->hi, m);
    if (hi.hi) return false;
    u128 h = hi.lo + lo.hi;
    if (h < hi.lo) return false;
    x->lo = lo.lo;
    x->hi = h;
    return true;
}

/* x /= d, returns remainder */
static uint64_t div256_small(u256 *x, uint64_t d)
{
    uint64_t l[4] = { (uint64_t)(x->hi >> 64), (uint64_t)x->hi, (uint64_t)(x->lo >> 64), (uint64_t)x->lo };
    u128 rem = 0;
    for (int i = 0; i < 4; i++) {
        u128 cur = (rem << 64) | l[i];
        l[i] = (uint64_t)(cur / d);
        rem = cur % d;
    }
    x->hi = ((u128)l[0] << 64) | l[1];
    x->lo = ((u128)l[2] << 64) | l[3];
    return (uint64_t)rem;
}

/* round |x| / 10^k HALF_UP */
static void div_pow10_round(u256 *x, int k)
{
    if (k <= 0) return;
    while (k > 1) {
        int step = k - 1 > 18 ? 18 : k - 1;
        div256_small(x, (uint64_t)p10(step));
        k -= step;
    }
    uint64_t digit = div256_small(x, 10);
    if (digit >= 5) {
        x->lo++;
        if (x->lo == 0) x->hi++;
    }
}

static bool mul_pow10(u256 *x, int k)
{
    while (k > 0) {
        int step = k > 18 ? 18 : k;
        if (!mul256_small(x, (uint64_t)p10(step))) return false;
        k -= step;
    }
    return true;
}

static int finish(u256 m, bool neg, int p, __int128 *out)
{
    if (m.hi || m.lo >= p10(p)) return 1;
    *out = neg ? -(__int128)m.lo : (__int128)m.lo;
    return 0;
}

static u128 mag(__int128 v) { return v < 0 ? (u128)0 - (u128)v : (u128)v; }

int wf_dec_add(__int128 a, int sa, __int128 b, int sb, int p, int s, bool sub, __int128 *out)
{
    int m = sa > sb ? sa : sb;
    __int128 x, y, r;
    if (!wdec_rescale(a, sa, m, &x) || !wdec_rescale(b, sb, m, &y)) return 1;
    if (sub ? __builtin_sub_overflow(x, y, &r) : __builtin_add_overflow(x, y, &r)) return 1;
    if (!wdec_rescale(r, m, s, &r)) return 1;
    if (!wdec_fits(r, p)) return 1;
    *out = r;
    return 0;
}

int wf_dec_mul(__int128 a, int sa, __int128 b, int sb, int p, int s, __int128 *out)
{
    u256 m = mul_u128(mag(a), mag(b));
    int k = sa + sb - s;
    if (k > 0) div_pow10_round(&m, k);
    else if (k < 0 && !mul_pow10(&m, -k)) return 1;
    return finish(m, (a < 0) != (b < 0), p, out);
}

/* u256 / u128 -> quotient (u256), remainder (u128); d < 2^127 */
static u256 div256_128(u256 n, u128 d, u128 *rem)
{
    u256 q = { 0, 0 };
    u128 r = 0;
    for (int i = 255; i >= 0; i--) {
        u128 bit = i >= 128 ? (n.hi >> (i - 128)) & 1 : (n.lo >> i) & 1;
        r = (r << 1) | bit;
        if (r >= d) {
            r -= d;
            if (i >= 128) q.hi |= (u128)1 << (i - 128);
            else q.lo |= (u128)1 << i;
        }
    }
    *rem = r;
    return q;
}

int wf_dec_div(__int128 a, int sa, __int128 b, int sb, int p, int s, __int128 *out)
{
    if (b == 0) return a == 0 ? 3 : 2;
    bool neg = (a < 0) != (b < 0);
    u128 ma = mag(a), mb = mag(b);
    int e = s + sb - sa;
    u256 q;
    if (e >= 0) {
        u256 n = { 0, ma };
        if (!mul_pow10(&n, e)) return 1;
        u128 r;
        if (n.hi == 0) {
            q.hi = 0;
            q.lo = n.lo / mb;
            r = n.lo % mb;
        } else {
            q = div256_128(n, mb, &r);
        }
        if (r >= mb - r) {       /* 2r >= b: HALF_UP */
            q.lo++;
            if (q.lo == 0) q.hi++;
        }
    } else {
        u128 t = ma / mb;
        q.hi = 0;
        q.lo = t;
        div_pow10_round(&q, -e);
    }
    return finish(q, neg, p, out);
}

int wf_dec_mod(__int128 a, int sa, __int128 b, int sb, int p, int s, __int128 *out)
{
    if (b == 0) return a == 0 ? 3 : 2;
    int m = sa > sb ? sa : sb;
    __int128 x, y;
    if (!wdec_rescale(a, sa, m, &x) || !wdec_rescale(b, sb, m, &y)) return 1;
    __int128 r = x % y;
    if (!wdec_rescale(r, m, s, &r) || !wdec_fits(r, p)) return 1;
    *out = r;
    return 0;
}

__int128 wf_dec_round_to(__int128 v, int s, int d, bool truncate)
{
    if (d >= s) return v;
    int k = s - d;               /* digits to drop */
    if (k > 38) return 0;
    u128 m = mag(v);
    u128 pk = p10(k);
    u128 q = m / pk, r = m % pk;
    if (!truncate && r * 2 >= pk) q++;
    if (d < 0) {
        /* result at scale 0: q * 10^-d */
        if (-d > 38) return 0;
        q *= p10(-d);
    }
    return v < 0 ? -(__int128)q : (__int128)q;
}

/* ---------------------------------------------------------------- time units */

static const struct { const char *name; WTimeUnit u; } UNITS[] = {
    { "MILLENNIUM", WTU_MILLENNIUM }, { "MILLENIUM", WTU_MILLENNIUM }, { "CENTURY", WTU_CENTURY },
    { "DECADE", WTU_DECADE }, { "YEAR", WTU_YEAR }, { "QUARTER", WTU_QUARTER }, { "MONTH", WTU_MONTH },
    { "WEEK", WTU_WEEK }, { "DAY", WTU_DAY }, { "HOUR", WTU_HOUR }, { "MINUTE", WTU_MINUTE },
    { "SECOND", WTU_SECOND }, { "MILLISECOND", WTU_MILLISECOND }, { "MICROSECOND", WTU_MICROSECOND },
    { "NANOSECOND", WTU_NANOSECOND }, { "DOW", WTU_DOW }, { "ISODOW", WTU_ISODOW }, { "DOY", WTU_DOY },
    { "ISOYEAR", WTU_ISOYEAR }, { "EPOCH", WTU_EPOCH },
    { "SQL_TSI_YEAR", WTU_YEAR }, { "SQL_TSI_QUARTER", WTU_QUARTER }, { "SQL_TSI_MONTH", WTU_MONTH },
    { "SQL_TSI_WEEK", WTU_WEEK }, { "SQL_TSI_DAY", WTU_DAY }, { "SQL_TSI_HOUR", WTU_HOUR },
    { "SQL_TSI_MINUTE", WTU_MINUTE }, { "SQL_TSI_SECOND", WTU_SECOND }, { "FRAC_SECOND", WTU_MICROSECOND },
    { "SQL_TSI_FRAC_SECOND", WTU_MICROSECOND }, { "SQL_TSI_MICROSECOND", WTU_MICROSECOND },
};

WTimeUnit wf_time_unit(const char *s, int len)
{
    for (size_t i = 0; i < sizeof UNITS / sizeof UNITS[0]; i++)
        if ((int)strlen(UNITS[i].name) == len && strncasecmp(UNITS[i].name, s, (size_t)len) == 0)
            return UNITS[i].u;
    return WTU_NONE;
}

WTimeUnit wf_unit_arg(const WExpr *arg)
{
    if (!arg || arg->kind != WX_LITERAL || arg->is_null || !wtype_is_string(arg->type)) return WTU_NONE;
    return wf_time_unit(arg->lit.s.p, arg->lit.s.len);
}
