/*
 * json_text.c — renders a jansson tree as the REST API's answer text, as Flink's Jackson writes it.
 *
 * Contract: wrest_json_text(j) returns a malloc'ed compact rendering ({"a":1,"b":[1.5,"x"]}) or
 * NULL when out of memory. Object members keep jansson's (insertion) order; strings are escaped
 * as jansson's JSON_ENSURE_ASCII does (\" \\ \b \f \n \r \t, other control characters and every
 * non-ASCII character as \uXXXX, surrogate pairs beyond U+FFFF); numbers with a fraction are
 * Java's Double.toString (0.1, 9333.333333333334, 1.0E7), as Jackson prints a double, where
 * jansson prints 17 significant digits (0.10000000000000001).
 * Depends on types/format (wfmt_double_java), common/strbuf, jansson.
 */
#include "rest.h"
#include "../common/strbuf.h"
#include "../types/format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next code point of UTF-8 text p (len bytes left) and its length; an invalid byte is taken
   as itself (jansson only holds valid UTF-8). */
static uint32_t next_code_point(const unsigned char *p, size_t len, int *n)
{
    uint32_t c = p[0];
    int k = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if ((size_t)k > len) k = 1;
    if (k == 1) { *n = 1; return c; }
    c &= (uint32_t)(0xFF >> (k + 1));
    for (int i = 1; i < k; i++) c = c << 6 | (p[i] & 0x3F);
    *n = k;
    return c;
}

static void put_string(WStrBuf *b, const char *s, size_t len)
{
    wsb_putc(b, '"');
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        unsigned char c = p[i];
        char esc[16];
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            size_t j = i;
            while (j < len && p[j] >= 0x20 && p[j] < 0x80 && p[j] != '"' && p[j] != '\\') j++;
            wsb_appendn(b, s + i, j - i);
            i = j;
            continue;
        }
        int n = 1;
        switch (c) {
        case '"': wsb_append(b, "\\\""); break;
        case '\\': wsb_append(b, "\\\\"); break;
        case '\b': wsb_append(b, "\\b"); break;
        case '\f': wsb_append(b, "\\f"); break;
        case '\n': wsb_append(b, "\\n"); break;
        case '\r': wsb_append(b, "\\r"); break;
        case '\t': wsb_append(b, "\\t"); break;
        default: {
            uint32_t cp = next_code_point(p + i, len - i, &n);
            if (cp >= 0x10000) {
                cp -= 0x10000;
                snprintf(esc, sizeof esc, "\\u%04X\\u%04X", 0xD800 | (cp >> 10), 0xDC00 | (cp & 0x3FF));
            } else {
                snprintf(esc, sizeof esc, "\\u%04X", cp);
            }
            wsb_append(b, esc);
        }
        }
        i += (size_t)n;
    }
    wsb_putc(b, '"');
}

static void put_value(WStrBuf *b, const json_t *j)
{
    char num[40];
    switch (json_typeof(j)) {
    case JSON_OBJECT: {
        wsb_putc(b, '{');
        const char *key;
        json_t *v;
        bool first = true;
        json_object_foreach((json_t *)j, key, v) {
            if (!first) wsb_putc(b, ',');
            first = false;
            put_string(b, key, strlen(key));
            wsb_putc(b, ':');
            put_value(b, v);
        }
        wsb_putc(b, '}');
        break;
    }
    case JSON_ARRAY:
        wsb_putc(b, '[');
        for (size_t i = 0; i < json_array_size(j); i++) {
            if (i) wsb_putc(b, ',');
            put_value(b, json_array_get(j, i));
        }
        wsb_putc(b, ']');
        break;
    case JSON_STRING: put_string(b, json_string_value(j), json_string_length(j)); break;
    case JSON_INTEGER:
        snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(j));
        wsb_append(b, num);
        break;
    case JSON_REAL:
        wfmt_double_java(json_real_value(j), num);
        wsb_append(b, num);
        break;
    case JSON_TRUE: wsb_append(b, "true"); break;
    case JSON_FALSE: wsb_append(b, "false"); break;
    case JSON_NULL: wsb_append(b, "null"); break;
    }
}

char *wrest_json_text(const json_t *j)
{
    WStrBuf b;
    wsb_init(&b);
    put_value(&b, j);
    return wsb_detach(&b);
}
