/* strbuf.c — growable string; see strbuf.h for the contract. */
#include "strbuf.h"
#include "arena.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void wsb_init(WStrBuf *s)
{
    s->buf = NULL;
    s->len = s->cap = 0;
    wsb_reserve(s, 64);
}

void wsb_free(WStrBuf *s)
{
    free(s->buf);
    s->buf = NULL;
    s->len = s->cap = 0;
}

void wsb_clear(WStrBuf *s)
{
    s->len = 0;
    if (s->buf) s->buf[0] = 0;
}

void wsb_reserve(WStrBuf *s, size_t extra)
{
    if (s->len + extra + 1 <= s->cap) return;
    size_t cap = s->cap ? s->cap : 64;
    while (cap < s->len + extra + 1) cap *= 2;
    s->buf = wrealloc(s->buf, cap);
    s->cap = cap;
    s->buf[s->len] = 0;
}

void wsb_appendn(WStrBuf *s, const char *str, size_t n)
{
    wsb_reserve(s, n);
    memcpy(s->buf + s->len, str, n);
    s->len += n;
    s->buf[s->len] = 0;
}

void wsb_append(WStrBuf *s, const char *str) { wsb_appendn(s, str, strlen(str)); }

/* "00".."99": two digits per division */
static const char DIGIT_PAIRS[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

void wsb_append_i64(WStrBuf *s, long long v)
{
    /* written backwards to b[24), two digits a division, then copied as 24 bytes at once (a fixed
       size: moves, not a memcpy call per number); the bytes past the number land in reserved
       room and are overwritten by what comes next */
    char b[48];
    memset(b + 24, 0, 24);      /* the copy's bytes past the number: defined */
    int i = 24;
    /* the magnitude as unsigned: -LLONG_MIN does not fit a long long */
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    while (u >= 100) {
        unsigned q = (unsigned)(u % 100);
        u /= 100;
        i -= 2;
        memcpy(b + i, DIGIT_PAIRS + 2 * q, 2);
    }
    if (u >= 10) {
        i -= 2;
        memcpy(b + i, DIGIT_PAIRS + 2 * u, 2);
    } else {
        b[--i] = (char)('0' + u);
    }
    if (v < 0) b[--i] = '-';
    assert(i >= 3);
    wsb_reserve(s, 24);
    memcpy(s->buf + s->len, b + i, 24);
    s->len += (size_t)(24 - i);
    s->buf[s->len] = 0;
}

void wsb_repeat(WStrBuf *s, char c, size_t n)
{
    wsb_reserve(s, n);
    memset(s->buf + s->len, c, n);
    s->len += n;
    s->buf[s->len] = 0;
}

void wsb_vprintf(WStrBuf *s, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n <= 0) return;
    wsb_reserve(s, (size_t)n);
    vsnprintf(s->buf + s->len, (size_t)n + 1, fmt, ap);
    s->len += (size_t)n;
}

void wsb_printf(WStrBuf *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    wsb_vprintf(s, fmt, ap);
    va_end(ap);
}

char *wsb_detach(WStrBuf *s)
{
    char *b = s->buf;
    if (!b) b = wstrdup("");
    s->buf = NULL;
    s->len = s->cap = 0;
    return b;
}

void wsb_puts(WStrBuf *s, const char *str) { wsb_append(s, str); }
