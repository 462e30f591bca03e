/*
 * base64.h — RFC 4648 base64 (the standard alphabet, '=' padding), as Java's Base64 and Jackson
 * write byte[]: BYTES in JSON rows and CSV fields, TO_BASE64 / FROM_BASE64, binary literals in
 * compiled plans and the gateway's result rows.
 */
#ifndef WEIR_COMMON_BASE64_H
#define WEIR_COMMON_BASE64_H

#include <stddef.h>

#include "strbuf.h"

/* The encoded length of n bytes. */
static inline size_t wbase64_len(size_t n) { return (n + 2) / 3 * 4; }

/* Encodes n bytes into out (wbase64_len(n) bytes, not terminated); returns that length. */
size_t wbase64_encode(const void *src, size_t n, char *out);

/* Appends the encoding of n bytes to b. */
void wbase64_append(WStrBuf *b, const void *src, size_t n);

/* The value of one alphabet character, or -1. */
int wbase64_value(unsigned char c);

/* Decodes n characters into out (room for n * 3 / 4 bytes); stops at the first '='. Returns the
   decoded length, or -1 with *bad set to the offset of the first character outside the alphabet. */
long wbase64_decode(const char *s, size_t n, unsigned char *out, size_t *bad);

#endif
