/*
 * json_text.c — renders a jansson tree as the REST API's answer text, as Flink's Jackson writes it.
 *
 * Contract: wrest_json_text(j) returns a malloc'ed compact rendering ({"a":1,"b":[1.5,"x"]}) or
 * NULL when out of memory. Object members keep jansson's (insertion) order; strings are escaped
 * as jansson's JSON_ENSURE_ASCII does (\" \\ \b \f \n \r \t, other control characters and every
 * non-ASCII character as \uXXXX, surrogate pairs beyond U+FFFF); numbers with a fraction are
 * Java's Double.toString (0.1, 9333.333333333334, 1.0E7), as Jackson prints a double, where
 * jansson prints 17 significant digits (0.10000000000000001).
 * Depends on types/format (wfmt_double_java), common/json (string escapes), common/strbuf, jansson.
 */
#include "rest.h"
#include "../common/json.h"
#include "../common/strbuf.h"
#include "../types/format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
            wjson_write_string_ascii(key, strlen(key), b);
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
    case JSON_STRING: wjson_write_string_ascii(json_string_value(j), json_string_length(j), b); break;
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
