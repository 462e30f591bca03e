/*
 * func_charset.c — ENCODE(string, charset) and DECODE(binary, charset): a string to its bytes in a
 * character set and back, as Flink 2.3 does it (Java's String.getBytes(name) and new String(bytes,
 * name)) for the character sets Flink documents: US-ASCII, ISO-8859-1, UTF-8, UTF-16BE, UTF-16LE
 * and UTF-16 (big-endian with a byte-order mark; decoding honours a mark), by any of the names
 * Java knows them by, in any case. A character the set cannot hold is written as '?' (one per
 * code point); bytes that are not a character of the set read as U+FFFD, with Java's rules for
 * how many bytes one replacement covers. Another name fails the job with Java's
 * UnsupportedEncodingException (Java knows more sets: documented in docs/user-guide.md).
 * Measured against Flink by tests/flink/functions. Depends on func_impl.h.
 */
#include "func_impl.h"

#include <strings.h>

#define EV(nm) static void nm(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, \
                              const uint8_t *act, WVector *out)
#define INF(nm) static const WType *nm(WArena *a, const WType **t, int n, const WType **co, WError *err)

typedef enum Charset { CS_NONE, CS_ASCII, CS_LATIN1, CS_UTF8, CS_UTF16BE, CS_UTF16LE, CS_UTF16 } Charset;

/* The set a Java charset name (or alias) names; CS_NONE for any other. */
static Charset charset_of(WStr name)
{
    static const struct { const char *name; Charset cs; } NAMES[] = {
        {"UTF-8", CS_UTF8}, {"UTF8", CS_UTF8}, {"unicode-1-1-utf-8", CS_UTF8},
        {"US-ASCII", CS_ASCII}, {"ASCII", CS_ASCII}, {"iso-ir-6", CS_ASCII}, {"ANSI_X3.4-1986", CS_ASCII},
        {"ISO_646.irv:1991", CS_ASCII}, {"iso_646.irv:1983", CS_ASCII}, {"ANSI_X3.4-1968", CS_ASCII},
        {"ISO646-US", CS_ASCII}, {"default", CS_ASCII}, {"cp367", CS_ASCII}, {"csASCII", CS_ASCII},
        {"646", CS_ASCII}, {"us", CS_ASCII}, {"IBM367", CS_ASCII},
        {"ISO-8859-1", CS_LATIN1}, {"iso-ir-100", CS_LATIN1}, {"ISO_8859-1", CS_LATIN1}, {"latin1", CS_LATIN1},
        {"l1", CS_LATIN1}, {"IBM819", CS_LATIN1}, {"cp819", CS_LATIN1}, {"csISOLatin1", CS_LATIN1},
        {"819", CS_LATIN1}, {"IBM-819", CS_LATIN1}, {"ISO8859_1", CS_LATIN1}, {"ISO_8859-1:1987", CS_LATIN1},
        {"ISO_8859_1", CS_LATIN1}, {"8859_1", CS_LATIN1}, {"ISO8859-1", CS_LATIN1},
        {"UTF-16BE", CS_UTF16BE}, {"UTF_16BE", CS_UTF16BE}, {"ISO-10646-UCS-2", CS_UTF16BE},
        {"X-UTF-16BE", CS_UTF16BE}, {"UnicodeBigUnmarked", CS_UTF16BE},
        {"UTF-16LE", CS_UTF16LE}, {"UTF_16LE", CS_UTF16LE}, {"X-UTF-16LE", CS_UTF16LE},
        {"UnicodeLittleUnmarked", CS_UTF16LE},
        {"UTF-16", CS_UTF16}, {"UTF_16", CS_UTF16}, {"utf16", CS_UTF16}, {"unicode", CS_UTF16},
        {"UnicodeBig", CS_UTF16},
    };
    for (size_t k = 0; k < sizeof NAMES / sizeof *NAMES; k++)
        if ((int)strlen(NAMES[k].name) == name.len && strncasecmp(NAMES[k].name, name.p, (size_t)name.len) == 0)
            return NAMES[k].cs;
    return CS_NONE;
}

/* charset_of, looked up again only when the name differs from the previous row's (a literal,
   usually: one lookup per chunk) */
static Charset charset_cached(WStr name, WStr *last, Charset *last_cs)
{
    if (name.len != last->len || (name.p != last->p && memcmp(name.p, last->p, (size_t)name.len) != 0)) {
        *last = name;
        *last_cs = charset_of(name);
    }
    return *last_cs;
}

static bool unsupported(WEvalCtx *ctx, WStr name)
{
    return wf_fail(ctx, "java.io.UnsupportedEncodingException", "%.*s", name.len, name.p);
}

/* ---------------------------------------------------------------- ENCODE */

INF(inf_encode)
{
    (void)co;
    if (!wf_check(err, "ENCODE", t, n, "SS")) return NULL;
    WType *r = wtype_new(a, WT_VARBINARY, wf_any_nullable(t, n));
    r->precision = WT_MAX_LENGTH;
    return r;
}

static int put_u16(unsigned char *d, unsigned v, bool big)
{
    d[0] = (unsigned char)(big ? v >> 8 : v & 0xff);
    d[1] = (unsigned char)(big ? v & 0xff : v >> 8);
    return 2;
}

EV(ev_encode)
{
    (void)call; (void)na;
    WStr last = {NULL, -1};
    Charset last_cs = CS_NONE;
    WF_FOR(i, n, act) {
        WStr s = av[0]->data[i].s, name = av[1]->data[i].s;
        Charset cs = charset_cached(name, &last, &last_cs);
        if (cs == CS_NONE) { unsupported(ctx, name); return; }
        if (cs == CS_UTF8) {
            out->nulls[i] = 0;
            wf_set_ref(out, i, s.p, s.len);
            continue;
        }
        /* at most 4 bytes per code point (a UTF-16 pair), 2 more for the mark */
        unsigned char *d = (unsigned char *)wf_alloc(ctx, (size_t)s.len * 4 + 2);
        int o = 0;
        if (cs == CS_UTF16 && s.len) o += put_u16(d, 0xFEFF, true);     /* the mark, before a character */
        for (int k = 0; k < s.len;) {
            int adv;
            int cp = wf_u8_decode(s.p + k, s.len - k, &adv);
            k += adv;
            if (cs == CS_ASCII || cs == CS_LATIN1) {
                d[o++] = (unsigned char)(cp < (cs == CS_ASCII ? 0x80 : 0x100) ? cp : '?');
            } else {
                bool big = cs != CS_UTF16LE;
                if (cp >= 0x10000) {
                    o += put_u16(d + o, 0xD800 + ((unsigned)(cp - 0x10000) >> 10), big);
                    o += put_u16(d + o, 0xDC00 + ((unsigned)(cp - 0x10000) & 0x3FF), big);
                } else {
                    o += put_u16(d + o, (unsigned)cp, big);
                }
            }
        }
        out->nulls[i] = 0;
        wf_set_ref(out, i, (const char *)d, o);
    }
}

/* ---------------------------------------------------------------- DECODE */

INF(inf_decode)
{
    (void)co;
    if (!wf_check(err, "DECODE", t, n, "XS")) return NULL;
    return wf_string(a, wf_any_nullable(t, n));
}

#define REPL 0xFFFD

static bool cont(int b) { return (b & 0xc0) == 0x80; }

/* UTF-8 bytes b[0..n) as Java's String(bytes, UTF_8) reads them (JDK 17): each malformed
   sequence one U+FFFD over the bytes Java counts for it. Returns the code points written. */
static int decode_utf8(const unsigned char *b, int n, int *cps)
{
    int sp = 0, o = 0;
    while (sp < n) {
        int b1 = b[sp++];
        if (b1 < 0x80) { cps[o++] = b1; continue; }
        if (b1 >= 0xc2 && b1 <= 0xdf) {
            if (sp < n && cont(b[sp])) { cps[o++] = ((b1 & 0x1f) << 6) | (b[sp++] & 0x3f); continue; }
            cps[o++] = REPL;
            if (sp >= n) break;
            continue;
        }
        if (b1 >= 0xe0 && b1 <= 0xef) {
            bool overlong2 = false;
            if (sp + 1 < n) {
                int b2 = b[sp], b3 = b[sp + 1];
                overlong2 = b1 == 0xe0 && (b2 & 0xe0) == 0x80;
                if (overlong2 || !cont(b2) || !cont(b3)) {
                    cps[o++] = REPL;
                    sp += (overlong2 || !cont(b2)) ? 0 : 1;
                    continue;
                }
                int c = ((b1 & 0x0f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
                sp += 2;
                cps[o++] = (c >= 0xD800 && c <= 0xDFFF) ? REPL : c;
                continue;
            }
            if (sp < n && ((b1 == 0xe0 && (b[sp] & 0xe0) == 0x80) || !cont(b[sp]))) { cps[o++] = REPL; continue; }
            cps[o++] = REPL;
            break;
        }
        if (b1 >= 0xf0 && b1 <= 0xf7) {
            if (sp + 2 < n) {
                int b2 = b[sp], b3 = b[sp + 1], b4 = b[sp + 2];
                int uc = ((b1 & 0x07) << 18) | ((b2 & 0x3f) << 12) | ((b3 & 0x3f) << 6) | (b4 & 0x3f);
                if (!cont(b2) || !cont(b3) || !cont(b4) || uc < 0x10000 || uc > 0x10FFFF) {
                    cps[o++] = REPL;
                    if (b1 > 0xf4 || (b1 == 0xf0 && (b2 < 0x90 || b2 > 0xbf)) || (b1 == 0xf4 && (b2 & 0xf0) != 0x80) || !cont(b2))
                        continue;                       /* the lead alone */
                    sp += cont(b3) ? 2 : 1;
                    continue;
                }
                sp += 3;
                cps[o++] = uc;
                continue;
            }
            if (b1 > 0xf4 || (sp < n && ((b1 == 0xf0 && (b[sp] < 0x90 || b[sp] > 0xbf)) ||
                                         (b1 == 0xf4 && (b[sp] & 0xf0) != 0x80) || !cont(b[sp])))) {
                cps[o++] = REPL;
                continue;
            }
            sp++;
            cps[o++] = REPL;
            if (sp < n && !cont(b[sp])) continue;
            break;
        }
        cps[o++] = REPL;                        /* a continuation byte or 0xc0, 0xc1, 0xf8-0xff */
    }
    return o;
}

/* UTF-16 units of b[0..n) (big: big-endian) as Java's UTF-16 decoders read them: a pair joined;
   U+FFFD for a lone low surrogate, a high one and the unit after it when that is no low one (4
   bytes), a high one at the end with what follows it, an odd last byte. */
static int decode_utf16(const unsigned char *b, int n, bool big, int *cps)
{
#define UNIT(k) (big ? (unsigned)(b[k] << 8 | b[(k) + 1]) : (unsigned)(b[(k) + 1] << 8 | b[k]))
    int o = 0, k = 0;
    while (n - k >= 2) {
        unsigned u = UNIT(k);
        k += 2;
        if (u >= 0xDC00 && u <= 0xDFFF) { cps[o++] = REPL; continue; }
        if (u >= 0xD800 && u <= 0xDBFF) {
            if (n - k < 2) { cps[o++] = REPL; return o; }     /* the input ends inside the pair */
            unsigned v = UNIT(k);
            k += 2;
            cps[o++] = v >= 0xDC00 && v <= 0xDFFF ? 0x10000 + (int)((u - 0xD800) << 10) + (int)(v - 0xDC00) : REPL;
            continue;
        }
        cps[o++] = (int)u;
    }
    if (k < n) cps[o++] = REPL;
    return o;
#undef UNIT
}

EV(ev_decode)
{
    (void)call; (void)na;
    WStr last = {NULL, -1};
    Charset last_cs = CS_NONE;
    WF_FOR(i, n, act) {
        WStr bytes = av[0]->data[i].s, name = av[1]->data[i].s;
        Charset cs = charset_cached(name, &last, &last_cs);
        if (cs == CS_NONE) { unsupported(ctx, name); return; }
        const unsigned char *b = (const unsigned char *)bytes.p;
        int len = bytes.len;
        int *cps = (int *)(void *)wf_alloc(ctx, sizeof(int) * (size_t)(len ? len : 1));
        int m = 0;
        switch (cs) {
        case CS_ASCII: for (int k = 0; k < len; k++) cps[m++] = b[k] < 0x80 ? b[k] : REPL; break;
        case CS_LATIN1: for (int k = 0; k < len; k++) cps[m++] = b[k]; break;
        case CS_UTF8: m = decode_utf8(b, len, cps); break;
        case CS_UTF16BE: m = decode_utf16(b, len, true, cps); break;
        case CS_UTF16LE: m = decode_utf16(b, len, false, cps); break;
        case CS_UTF16: {
            bool big = true;                    /* a mark chooses the order and is dropped */
            if (len >= 2 && b[0] == 0xFE && b[1] == 0xFF) { b += 2; len -= 2; }
            else if (len >= 2 && b[0] == 0xFF && b[1] == 0xFE) { b += 2; len -= 2; big = false; }
            m = decode_utf16(b, len, big, cps);
            break;
        }
        case CS_NONE: break;
        }
        char *d = wf_alloc(ctx, (size_t)m * 4);
        int o = 0;
        for (int k = 0; k < m; k++) o += wf_u8_encode(cps[k], d + o);
        out->nulls[i] = 0;
        wf_set_ref(out, i, d, o);
    }
}

static const WFuncDef D_ENCODE = {"ENCODE", 2, 2, false, true, inf_encode, ev_encode, NULL};
static const WFuncDef D_DECODE = {"DECODE", 2, 2, false, true, inf_decode, ev_decode, NULL};

const WFuncDef *const wf_charset_defs[] = {&D_ENCODE, &D_DECODE, NULL};
