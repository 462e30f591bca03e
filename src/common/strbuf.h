/*
 * strbuf.h — growable byte string (heap), for building output text and messages.
 *
 * Contract: the buffer is always NUL-terminated; len excludes the NUL. wsb_free releases it.
 * Depends on arena.h for the aborting allocators.
 */
#ifndef WEIR_COMMON_STRBUF_H
#define WEIR_COMMON_STRBUF_H

#include <stddef.h>
#include <stdarg.h>

typedef struct WStrBuf {
    char *buf;
    size_t len, cap;
} WStrBuf;

void wsb_init(WStrBuf *s);
void wsb_free(WStrBuf *s);
void wsb_clear(WStrBuf *s);
void wsb_reserve(WStrBuf *s, size_t extra);
/* One byte; inline, as writers call it per character (the CSV writer's quoting, delimiters). */
static inline void wsb_putc(WStrBuf *s, char c)
{
    if (s->len + 2 > s->cap) wsb_reserve(s, 1);
    s->buf[s->len++] = c;
    s->buf[s->len] = 0;
}
void wsb_append(WStrBuf *s, const char *str);
void wsb_puts(WStrBuf *s, const char *str);     /* same as wsb_append */
void wsb_appendn(WStrBuf *s, const char *str, size_t n);
void wsb_printf(WStrBuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The decimal text of v (as "%lld" prints it), without printf's cost (per value in the CSV writer). */
void wsb_append_i64(WStrBuf *s, long long v);
void wsb_vprintf(WStrBuf *s, const char *fmt, va_list ap);
void wsb_repeat(WStrBuf *s, char c, size_t n);
char *wsb_detach(WStrBuf *s);   /* caller owns the returned heap string; s is reset */

#endif
