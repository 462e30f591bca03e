/*
 * json_out.c — JSON text exactly as Flink's Jackson pretty printer writes it: objects one member
 * per line (`"key" : value`, two spaces per object level), arrays on one line (`[ 0, 2 ]`,
 * `[ {` ... `}, {` ... `} ]`), empty containers as `{ }` / `[ ]`, no trailing newline.
 */
#include "json_out.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static void indent(WStrBuf *out, int level)
{
    for (int i = 0; i < level; i++) wsb_puts(out, "  ");
}

static void str(WStrBuf *out, const char *s, size_t n)
{
    wsb_putc(out, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': wsb_puts(out, "\\\""); break;
        case '\\': wsb_puts(out, "\\\\"); break;
        case '\n': wsb_puts(out, "\\n"); break;
        case '\r': wsb_puts(out, "\\r"); break;
        case '\t': wsb_puts(out, "\\t"); break;
        case '\b': wsb_puts(out, "\\b"); break;
        case '\f': wsb_puts(out, "\\f"); break;
        default:
            if (c < 0x20) wsb_printf(out, "\\u%04X", c);
            else wsb_putc(out, (char)c);
        }
    }
    wsb_putc(out, '"');
}

static void value(WStrBuf *out, json_t *v, int level)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        if (json_object_size(v) == 0) { wsb_puts(out, "{ }"); return; }
        wsb_putc(out, '{');
        const char *k;
        json_t *m;
        bool first = true;
        json_object_foreach(v, k, m) {
            wsb_puts(out, first ? "\n" : ",\n");
            first = false;
            indent(out, level + 1);
            str(out, k, strlen(k));
            wsb_puts(out, " : ");
            value(out, m, level + 1);
        }
        wsb_putc(out, '\n');
        indent(out, level);
        wsb_putc(out, '}');
        return;
    }
    case JSON_ARRAY: {
        if (json_array_size(v) == 0) { wsb_puts(out, "[ ]"); return; }
        wsb_puts(out, "[ ");
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) {
            if (i) wsb_puts(out, ", ");
            value(out, e, level);
        }
        wsb_puts(out, " ]");
        return;
    }
    case JSON_STRING: str(out, json_string_value(v), json_string_length(v)); return;
    case JSON_INTEGER: wsb_printf(out, "%lld", (long long)json_integer_value(v)); return;
    case JSON_REAL: {
        char buf[64];
        double d = json_real_value(v);
        snprintf(buf, sizeof buf, "%.17g", d);
        /* Jackson writes doubles as Java's Double.toString: keep a fraction digit */
        if (!strchr(buf, '.') && !strchr(buf, 'e') && !strchr(buf, 'n') && !strchr(buf, 'i')) strcat(buf, ".0");
        wsb_puts(out, buf);
        return;
    }
    case JSON_TRUE: wsb_puts(out, "true"); return;
    case JSON_FALSE: wsb_puts(out, "false"); return;
    case JSON_NULL: wsb_puts(out, "null"); return;
    }
}

void wjson_pretty(json_t *v, WStrBuf *out) { value(out, v, 0); }
