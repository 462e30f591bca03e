/*
 * json.c — the JSON document model of json.h: a recursive-descent parser into arena nodes, the
 * compact Jackson-style writer and Java's renderings of JSON numbers and values.
 * Depends on arena.h, strbuf.h.
 */
#include "json.h"

#include <assert.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WJ_MAX_DEPTH 1000

typedef struct JP {
    WArena *a;
    const char *p, *end;
    char *err;
    size_t errsz;
    int depth;
    bool failed;
} JP;

static WJson *fail(JP *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static WJson *fail(JP *j, const char *fmt, ...)
{
    if (!j->failed && j->err && j->errsz) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(j->err, j->errsz, fmt, ap);
        va_end(ap);
    }
    j->failed = true;
    return NULL;
}

static void skip_ws(JP *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) j->p++;
}

static WJson *unexpected(JP *j, const char *expect)
{
    if (j->p >= j->end) return fail(j, "Unexpected end-of-input: %s", expect);
    unsigned char c = (unsigned char)*j->p;
    if (c < 0x20) return fail(j, "Illegal character ((CTRL-CHAR, code %d)): only regular white space (\\r, \\n, \\t) is allowed between tokens", c);
    return fail(j, "Unexpected character ('%c' (code %d)): %s", c, c, expect);
}

WJson *wjson_new(WArena *a, WJsonKind kind)
{
    WJson *v = WA_NEW(a, WJson);
    v->kind = kind;
    return v;
}

WJson *wjson_string(WArena *a, const char *s, size_t n)
{
    WJson *v = wjson_new(a, WJ_STRING);
    v->s = n ? wa_memdup(a, s, n) : "";
    v->len = (int)n;
    return v;
}

WJson *wjson_number(WArena *a, const char *text, bool is_float)
{
    WJson *v = wjson_new(a, WJ_NUMBER);
    v->s = wa_strdup(a, text);
    v->len = (int)strlen(text);
    v->is_float = is_float;
    return v;
}

/* Grow items (and keys for objects) to hold one more; capacity is the next power of two. */
static void grow(WArena *a, WJson *v)
{
    int n = v->n;
    if (n && (n & (n - 1))) return;         /* n not a power of two: room left */
    int cap = n ? n * 2 : 1;
    WJson **it = WA_ARRAY(a, WJson *, cap);
    if (n) memcpy(it, v->items, sizeof(WJson *) * (size_t)n);
    v->items = it;
    if (v->kind == WJ_OBJECT) {
        const char **k = WA_ARRAY(a, const char *, cap);
        int *kl = WA_ARRAY(a, int, cap);
        if (n) { memcpy(k, v->keys, sizeof(char *) * (size_t)n); memcpy(kl, v->key_lens, sizeof(int) * (size_t)n); }
        v->keys = k;
        v->key_lens = kl;
    }
}

void wjson_push(WArena *a, WJson *arr, WJson *item)
{
    grow(a, arr);
    arr->items[arr->n++] = item;
}

void wjson_put(WArena *a, WJson *obj, const char *key, size_t klen, WJson *val)
{
    for (int i = 0; i < obj->n; i++)
        if ((size_t)obj->key_lens[i] == klen && memcmp(obj->keys[i], key, klen) == 0) { obj->items[i] = val; return; }
    grow(a, obj);
    obj->keys[obj->n] = key;
    obj->key_lens[obj->n] = (int)klen;
    obj->items[obj->n++] = val;
}

const WJson *wjson_get(const WJson *obj, const char *key, size_t klen)
{
    if (!obj || obj->kind != WJ_OBJECT) return NULL;
    for (int i = 0; i < obj->n; i++)
        if ((size_t)obj->key_lens[i] == klen && memcmp(obj->keys[i], key, klen) == 0) return obj->items[i];
    return NULL;
}

static int hexv(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void put_utf8(WStrBuf *b, unsigned cp)
{
    if (cp < 0x80) wsb_putc(b, (char)cp);
    else if (cp < 0x800) { wsb_putc(b, (char)(0xC0 | (cp >> 6))); wsb_putc(b, (char)(0x80 | (cp & 0x3F))); }
    else if (cp < 0x10000) {
        wsb_putc(b, (char)(0xE0 | (cp >> 12)));
        wsb_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
        wsb_putc(b, (char)(0x80 | (cp & 0x3F)));
    } else {
        wsb_putc(b, (char)(0xF0 | (cp >> 18)));
        wsb_putc(b, (char)(0x80 | ((cp >> 12) & 0x3F)));
        wsb_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
        wsb_putc(b, (char)(0x80 | (cp & 0x3F)));
    }
}

static int read_hex4(JP *j, const char *q)
{
    if (j->end - q < 4) return -1;
    int v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexv(q[i]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

/* A string at j->p (on the opening quote). Unescaped text into the arena. */
static bool parse_string(JP *j, const char **out, int *outlen)
{
    const char *q = ++j->p;
    /* fast path: no escapes */
    while (q < j->end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20) q++;
    if (q < j->end && *q == '"') {
        *out = j->p;
        *outlen = (int)(q - j->p);
        j->p = q + 1;
        return true;
    }
    WStrBuf b;
    wsb_init(&b);
    wsb_appendn(&b, j->p, (size_t)(q - j->p));
    for (;;) {
        if (q >= j->end) { wsb_free(&b); fail(j, "Unexpected end-of-input: was expecting closing quote for a string value"); return false; }
        unsigned char c = (unsigned char)*q;
        if (c == '"') break;
        if (c < 0x20) {
            wsb_free(&b);
            fail(j, "Illegal unquoted character ((CTRL-CHAR, code %d)): has to be escaped using backslash to be included in string value", c);
            return false;
        }
        if (c != '\\') { wsb_putc(&b, (char)c); q++; continue; }
        if (q + 1 >= j->end) { wsb_free(&b); fail(j, "Unexpected end-of-input in character escape sequence"); return false; }
        char e = q[1];
        q += 2;
        switch (e) {
        case '"': wsb_putc(&b, '"'); break;
        case '\\': wsb_putc(&b, '\\'); break;
        case '/': wsb_putc(&b, '/'); break;
        case 'b': wsb_putc(&b, '\b'); break;
        case 'f': wsb_putc(&b, '\f'); break;
        case 'n': wsb_putc(&b, '\n'); break;
        case 'r': wsb_putc(&b, '\r'); break;
        case 't': wsb_putc(&b, '\t'); break;
        case 'u': {
            int cp = read_hex4(j, q);
            if (cp < 0) { wsb_free(&b); fail(j, "Unexpected character in \\u escape: expected a hex-digit for character escape sequence"); return false; }
            q += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF && q + 6 <= j->end && q[0] == '\\' && q[1] == 'u') {
                int lo = read_hex4(j, q + 2);
                if (lo >= 0xDC00 && lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    q += 6;
                }
            }
            put_utf8(&b, (unsigned)cp);
            break;
        }
        default:
            wsb_free(&b);
            fail(j, "Unrecognized character escape '%c' (code %d)", e, (unsigned char)e);
            return false;
        }
    }
    *out = wa_memdup(j->a, b.buf, b.len + 1);
    *outlen = (int)b.len;
    wsb_free(&b);
    j->p = q + 1;
    return true;
}

static WJson *parse_number(JP *j)
{
    const char *s = j->p, *q = s;
    if (q < j->end && *q == '-') q++;
    if (q >= j->end || *q < '0' || *q > '9') return unexpected(j, "expected digit (0-9) to follow minus sign, for valid numeric value");
    if (*q == '0' && q + 1 < j->end && q[1] >= '0' && q[1] <= '9')
        return fail(j, "Invalid numeric value: Leading zeroes not allowed");
    while (q < j->end && *q >= '0' && *q <= '9') q++;
    bool fl = false;
    if (q < j->end && *q == '.') {
        fl = true;
        q++;
        if (q >= j->end || *q < '0' || *q > '9') { j->p = q; return unexpected(j, "Decimal point not followed by a digit"); }
        while (q < j->end && *q >= '0' && *q <= '9') q++;
    }
    if (q < j->end && (*q == 'e' || *q == 'E')) {
        fl = true;
        q++;
        if (q < j->end && (*q == '+' || *q == '-')) q++;
        if (q >= j->end || *q < '0' || *q > '9') { j->p = q; return unexpected(j, "Exponent indicator not followed by a digit"); }
        while (q < j->end && *q >= '0' && *q <= '9') q++;
    }
    WJson *v = wjson_new(j->a, WJ_NUMBER);
    v->s = s;
    v->len = (int)(q - s);
    v->is_float = fl;
    j->p = q;
    return v;
}

static WJson *parse_value(JP *j);

static WJson *parse_container(JP *j, bool object)
{
    if (++j->depth > WJ_MAX_DEPTH)
        return fail(j, "Document nesting depth exceeds the maximum allowed (%d)", WJ_MAX_DEPTH);
    j->p++;
    WJson *v = wjson_new(j->a, object ? WJ_OBJECT : WJ_ARRAY);
    skip_ws(j);
    if (j->p < j->end && *j->p == (object ? '}' : ']')) { j->p++; j->depth--; return v; }
    for (;;) {
        skip_ws(j);
        const char *key = NULL;
        int klen = 0;
        if (object) {
            if (j->p >= j->end || *j->p != '"') {
                if (j->p >= j->end) return fail(j, "Unexpected end-of-input: expected close marker for Object");
                return unexpected(j, "was expecting double-quote to start field name");
            }
            if (!parse_string(j, &key, &klen)) return NULL;
            skip_ws(j);
            if (j->p >= j->end || *j->p != ':') return unexpected(j, "was expecting a colon to separate field name and value");
            j->p++;
        }
        WJson *item = parse_value(j);
        if (!item) return NULL;
        if (object) wjson_put(j->a, v, key, (size_t)klen, item);
        else wjson_push(j->a, v, item);
        skip_ws(j);
        if (j->p >= j->end)
            return fail(j, "Unexpected end-of-input: expected close marker for %s", object ? "Object" : "Array");
        if (*j->p == ',') { j->p++; continue; }
        if (*j->p == (object ? '}' : ']')) { j->p++; break; }
        return unexpected(j, object ? "was expecting comma to separate Object entries"
                                    : "was expecting comma to separate Array entries");
    }
    j->depth--;
    return v;
}

static bool word_at(JP *j, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0) return false;
    const char *q = j->p + n;
    if (q < j->end && ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_'))
        return false;
    j->p = q;
    return true;
}

static WJson *unrecognized(JP *j)
{
    const char *q = j->p;
    while (q < j->end && q - j->p < 256 && !strchr(" \t\r\n,:[]{}\"", *q)) q++;
    return fail(j, "Unrecognized token '%.*s': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')",
                (int)(q - j->p), j->p);
}

static WJson *parse_value(JP *j)
{
    skip_ws(j);
    if (j->p >= j->end) return fail(j, "No content to map due to end-of-input");
    char c = *j->p;
    switch (c) {
    case '{': return parse_container(j, true);
    case '[': return parse_container(j, false);
    case '"': {
        const char *s;
        int n;
        if (!parse_string(j, &s, &n)) return NULL;
        WJson *v = wjson_new(j->a, WJ_STRING);
        v->s = s;
        v->len = n;
        return v;
    }
    case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
        return parse_number(j);
    default:
        if (word_at(j, "null")) return wjson_new(j->a, WJ_NULL);
        if (word_at(j, "true")) return wjson_new(j->a, WJ_TRUE);
        if (word_at(j, "false")) return wjson_new(j->a, WJ_FALSE);
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return unrecognized(j);
        return unexpected(j, "expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");
    }
}

WJson *wjson_parse(WArena *a, const char *text, size_t len, bool full, char *err, size_t errsz)
{
    assert(text || len == 0);
    if (!text) text = "";       /* an empty buffer may come as NULL: no arithmetic on a null pointer */
    JP j = { .a = a, .p = text, .end = text + len, .err = err, .errsz = errsz };
    if (err && errsz) err[0] = 0;
    /* a UTF-8 byte order mark is skipped, as Jackson's byte source detection does */
    if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF) j.p += 3;
    WJson *v = parse_value(&j);
    if (!v) return NULL;
    if (full) {
        skip_ws(&j);
        if (j.p < j.end) return unexpected(&j, "expected end-of-input");
    }
    return v;
}

/* ------------------------------------------------------------------------------------------ */
/* writing                                                                                     */

/* The code point of the UTF-8 sequence at p (len bytes left) and its length in *n; a byte that
   starts no complete sequence is taken as itself. */
static uint32_t utf8_code_point(const unsigned char *p, size_t len, size_t *n)
{
    uint32_t c = p[0];
    size_t k = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (k > len) k = 1;
    *n = k;
    if (k == 1) return c;
    c &= (uint32_t)(0xFF >> (k + 1));
    for (size_t i = 1; i < k; i++) c = c << 6 | (p[i] & 0x3F);
    return c;
}

static void write_string(const char *s, size_t n, bool ascii, WStrBuf *out)
{
    static const char HEX[] = "0123456789ABCDEF";
    wsb_reserve(out, n + 2);
    wsb_putc(out, '"');
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\' && (c < 0x80 || !ascii)) continue;
        wsb_appendn(out, s + run, i - run);
        run = i + 1;
        if (c >= 0x80) {
            /* non-ASCII as \uXXXX, beyond U+FFFF as a surrogate pair */
            size_t len;
            uint32_t cp = utf8_code_point((const unsigned char *)s + i, n - i, &len);
            char e[16];
            if (cp >= 0x10000) {
                cp -= 0x10000;
                snprintf(e, sizeof e, "\\u%04X\\u%04X", 0xD800 | (cp >> 10), 0xDC00 | (cp & 0x3FF));
            } else {
                snprintf(e, sizeof e, "\\u%04X", cp);
            }
            wsb_append(out, e);
            i += len - 1;
            run = i + 1;
            continue;
        }
        switch (c) {
        case '"': wsb_append(out, "\\\""); break;
        case '\\': wsb_append(out, "\\\\"); break;
        case '\b': wsb_append(out, "\\b"); break;
        case '\f': wsb_append(out, "\\f"); break;
        case '\n': wsb_append(out, "\\n"); break;
        case '\r': wsb_append(out, "\\r"); break;
        case '\t': wsb_append(out, "\\t"); break;
        default: {
            char e[7] = {'\\', 'u', '0', '0', HEX[c >> 4], HEX[c & 15], 0};
            wsb_append(out, e);
        }
        }
    }
    wsb_appendn(out, s + run, n - run);
    wsb_putc(out, '"');
}

void wjson_write_string(const char *s, size_t n, WStrBuf *out) { write_string(s, n, false, out); }

void wjson_write_string_ascii(const char *s, size_t n, WStrBuf *out) { write_string(s, n, true, out); }

void wjson_number_java(const char *text, size_t len, WStrBuf *out)
{
    if (!text) text = "";
    const char *p = text, *end = text + len;
    bool neg = p < end && *p == '-';
    if (neg) p++;
    /* digits of the coefficient and the scale (BigDecimal) */
    char small[128];
    char *dig = len + 1 <= sizeof small ? small : malloc(len + 1);
    int nd = 0;
    long long scale = 0;
    bool is_float = false;
    for (; p < end && *p >= '0' && *p <= '9'; p++) dig[nd++] = *p;
    if (p < end && *p == '.') {
        is_float = true;
        for (p++; p < end && *p >= '0' && *p <= '9'; p++) { dig[nd++] = *p; scale++; }
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        is_float = true;
        p++;
        bool eneg = p < end && *p == '-';
        if (p < end && (*p == '-' || *p == '+')) p++;
        long long e = 0;
        for (; p < end && *p >= '0' && *p <= '9'; p++) if (e < 1000000000LL) e = e * 10 + (*p - '0');
        scale -= eneg ? -e : e;
    }
    int lead = 0;
    while (lead < nd - 1 && dig[lead] == '0') lead++;
    const char *c = dig + lead;
    int n = nd - lead;
    bool zero = n == 1 && c[0] == '0';
    if (n == 0) { c = "0"; n = 1; zero = true; }
    if (!is_float) {
        if (neg && !zero) wsb_putc(out, '-');
        wsb_appendn(out, c, (size_t)n);
    } else {
        if (neg && !zero) wsb_putc(out, '-');
        long long adjusted = -scale + (n - 1);
        if (scale >= 0 && adjusted >= -6) {
            if (scale == 0) wsb_appendn(out, c, (size_t)n);
            else if (n > scale) {
                wsb_appendn(out, c, (size_t)(n - scale));
                wsb_putc(out, '.');
                wsb_appendn(out, c + n - scale, (size_t)scale);
            } else {
                wsb_append(out, "0.");
                wsb_repeat(out, '0', (size_t)(scale - n));
                wsb_appendn(out, c, (size_t)n);
            }
        } else {
            wsb_putc(out, c[0]);
            if (n > 1) { wsb_putc(out, '.'); wsb_appendn(out, c + 1, (size_t)(n - 1)); }
            wsb_printf(out, "E%s%lld", adjusted >= 0 ? "+" : "", adjusted);
        }
    }
    if (dig != small) free(dig);
}

static int cmp_keys(const WJson *o, int x, int y)
{
    int lx = o->key_lens[x], ly = o->key_lens[y];
    int c = memcmp(o->keys[x], o->keys[y], (size_t)(lx < ly ? lx : ly));
    return c ? c : (lx > ly) - (lx < ly);
}

void wjson_write(const WJson *v, bool sort_keys, WStrBuf *out)
{
    switch (v->kind) {
    case WJ_NULL: wsb_append(out, "null"); break;
    case WJ_TRUE: wsb_append(out, "true"); break;
    case WJ_FALSE: wsb_append(out, "false"); break;
    case WJ_NUMBER: wjson_number_java(v->s, (size_t)v->len, out); break;
    case WJ_STRING: wjson_write_string(v->s, (size_t)v->len, out); break;
    case WJ_ARRAY:
        wsb_putc(out, '[');
        for (int i = 0; i < v->n; i++) {
            if (i) wsb_putc(out, ',');
            wjson_write(v->items[i], sort_keys, out);
        }
        wsb_putc(out, ']');
        break;
    case WJ_OBJECT: {
        int small[32];
        int *ord = v->n <= 32 ? small : malloc(sizeof(int) * (size_t)v->n);
        for (int i = 0; i < v->n; i++) ord[i] = i;
        if (sort_keys)      /* insertion sort: stable, objects are small */
            for (int i = 1; i < v->n; i++) {
                int x = ord[i], k = i - 1;
                while (k >= 0 && cmp_keys(v, ord[k], x) > 0) { ord[k + 1] = ord[k]; k--; }
                ord[k + 1] = x;
            }
        wsb_putc(out, '{');
        for (int i = 0; i < v->n; i++) {
            if (i) wsb_putc(out, ',');
            wjson_write_string(v->keys[ord[i]], (size_t)v->key_lens[ord[i]], out);
            wsb_putc(out, ':');
            wjson_write(v->items[ord[i]], sort_keys, out);
        }
        wsb_putc(out, '}');
        if (ord != small) free(ord);
        break;
    }
    }
}

void wjson_java_string(const WJson *v, WStrBuf *out)
{
    switch (v->kind) {
    case WJ_STRING: wsb_appendn(out, v->s, (size_t)v->len); break;
    case WJ_ARRAY:
        wsb_putc(out, '[');
        for (int i = 0; i < v->n; i++) {
            if (i) wsb_append(out, ", ");
            wjson_java_string(v->items[i], out);
        }
        wsb_putc(out, ']');
        break;
    case WJ_OBJECT:
        wsb_putc(out, '{');
        for (int i = 0; i < v->n; i++) {
            if (i) wsb_append(out, ", ");
            wsb_appendn(out, v->keys[i], (size_t)v->key_lens[i]);
            wsb_putc(out, '=');
            wjson_java_string(v->items[i], out);
        }
        wsb_putc(out, '}');
        break;
    default: wjson_write(v, false, out); break;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* dates and times                                                                             */

int wjson_fmt_date(int64_t days, char *buf)
{
    /* civil from days (proleptic Gregorian) */
    int64_t z = days + 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const int64_t doe = z - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    int d = (int)(doy - (153 * mp + 2) / 5 + 1);
    int m = (int)(mp < 10 ? mp + 3 : mp - 9);
    int64_t y = yoe + era * 400 + (m <= 2);
    if (y > 9999) return sprintf(buf, "+%lld-%02d-%02d", (long long)y, m, d);
    if (y < 0) return sprintf(buf, "-%04lld-%02d-%02d", (long long)-y, m, d);
    return sprintf(buf, "%04lld-%02d-%02d", (long long)y, m, d);
}

int wjson_fmt_time(int64_t nanos_of_day, char *buf)
{
    int64_t secs = nanos_of_day / 1000000000LL;
    int ns = (int)(nanos_of_day % 1000000000LL);
    int n = sprintf(buf, "%02d:%02d:%02d", (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60));
    if (ns) {
        char f[16];
        snprintf(f, sizeof f, "%09d", ns);
        int k = 9;
        while (k > 0 && f[k - 1] == '0') k--;
        f[k] = 0;
        n += sprintf(buf + n, ".%s", f);
    }
    return n;
}

int wjson_fmt_datetime(int64_t epoch_ms, int32_t nanos_of_ms, char sep, char *buf)
{
    int64_t days = epoch_ms >= 0 ? epoch_ms / 86400000LL : -((-epoch_ms + 86399999LL) / 86400000LL);
    int64_t msod = epoch_ms - days * 86400000LL;
    int n = wjson_fmt_date(days, buf);
    buf[n++] = sep;
    return n + wjson_fmt_time(msod * 1000000LL + nanos_of_ms, buf + n);
}
