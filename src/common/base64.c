/*
 * base64.c — RFC 4648 base64 encoding and decoding (see base64.h).
 */
#include "base64.h"

#include <stdint.h>

static const char ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t wbase64_encode(const void *src, size_t n, char *out)
{
    const unsigned char *p = src;
    size_t o = 0, i = 0;
    for (; i + 2 < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        out[o++] = ALPHABET[v >> 18];
        out[o++] = ALPHABET[(v >> 12) & 63];
        out[o++] = ALPHABET[(v >> 6) & 63];
        out[o++] = ALPHABET[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
        out[o++] = ALPHABET[v >> 18];
        out[o++] = ALPHABET[(v >> 12) & 63];
        out[o++] = i + 1 < n ? ALPHABET[(v >> 6) & 63] : '=';
        out[o++] = '=';
    }
    return o;
}

void wbase64_append(WStrBuf *b, const void *src, size_t n)
{
    const unsigned char *p = src;
    char q[4 * 64];
    while (n > 0) {             /* 192 bytes -> 256 characters at a time */
        size_t k = n < 192 ? n : 192;
        wsb_appendn(b, q, wbase64_encode(p, k, q));
        p += k;
        n -= k;
    }
}

int wbase64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

long wbase64_decode(const char *s, size_t n, unsigned char *out, size_t *bad)
{
    uint32_t acc = 0;
    int bits = 0;
    long o = 0;
    for (size_t j = 0; j < n; j++) {
        unsigned char c = (unsigned char)s[j];
        if (c == '=') break;
        int v = wbase64_value(c);
        if (v < 0) {
            if (bad) *bad = j;
            return -1;
        }
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (unsigned char)(acc >> bits);
        }
    }
    return o;
}
