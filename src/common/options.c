/* options.c — ordered key/value lists; see options.h for the contract. */
#include "options.h"
#include "arena.h"
#include "duration.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void wopts_init(WOptions *o) { o->n = o->cap = 0; o->items = NULL; }

void wopts_free(WOptions *o)
{
    for (int i = 0; i < o->n; i++) { free(o->items[i].key); free(o->items[i].value); }
    free(o->items);
    wopts_init(o);
}

void wopts_copy(WOptions *dst, const WOptions *src)
{
    wopts_init(dst);
    for (int i = 0; i < src->n; i++) wopts_set(dst, src->items[i].key, src->items[i].value);
}

void wopts_set(WOptions *o, const char *key, const char *value)
{
    for (int i = 0; i < o->n; i++) {
        if (strcmp(o->items[i].key, key) == 0) {
            free(o->items[i].value);
            o->items[i].value = wstrdup(value);
            return;
        }
    }
    if (o->n == o->cap) {
        o->cap = o->cap ? o->cap * 2 : 8;
        o->items = wrealloc(o->items, sizeof(WOption) * (size_t)o->cap);
    }
    o->items[o->n].key = wstrdup(key);
    o->items[o->n].value = wstrdup(value);
    o->n++;
}

bool wopts_remove(WOptions *o, const char *key)
{
    for (int i = 0; i < o->n; i++) {
        if (strcmp(o->items[i].key, key) == 0) {
            free(o->items[i].key);
            free(o->items[i].value);
            memmove(&o->items[i], &o->items[i + 1], sizeof(WOption) * (size_t)(o->n - i - 1));
            o->n--;
            return true;
        }
    }
    return false;
}

const char *wopts_get(const WOptions *o, const char *key)
{
    for (int i = 0; i < o->n; i++)
        if (strcmp(o->items[i].key, key) == 0) return o->items[i].value;
    return NULL;
}

const char *wopts_get_or(const WOptions *o, const char *key, const char *dflt)
{
    const char *v = wopts_get(o, key);
    return v ? v : dflt;
}

bool wopts_get_bool(const WOptions *o, const char *key, bool dflt, bool *out, WError *err)
{
    const char *v = wopts_get(o, key);
    if (!v) { *out = dflt; return true; }
    return wopts_parse_bool(v, out, err);
}

bool wopts_parse_bool(const char *v, bool *out, WError *err)
{
    if (strcasecmp(v, "true") == 0) { *out = true; return true; }
    if (strcasecmp(v, "false") == 0) { *out = false; return true; }
    /* The messages of the wopts_get_* parsers are the root cause of Flink's chain (ConfigurationUtils:
       "Could not parse value 'v' for key 'k'." caused by the parser's exception), which its SQL
       client prints (measured on Flink 2.3.0 for table options and session settings). */
    return werr_set(err, WEXC_ILLEGAL_ARG, "Unrecognized option for boolean: %s. Expected either true or false(case "
                    "insensitive)", v);
}

bool wopts_get_long(const WOptions *o, const char *key, int64_t dflt, int64_t *out, WError *err)
{
    const char *v = wopts_get(o, key);
    if (!v) { *out = dflt; return true; }
    return wopts_parse_long(v, out, err);
}

bool wopts_parse_long(const char *v, int64_t *out, WError *err)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    while (*end == ' ') end++;
    if (errno || end == v || *end) return werr_set(err, WEXC_NUMBER, "For input string: \"%s\"", v);
    *out = x;
    return true;
}

const char *wopts_trimmed(const char *v, size_t *n)
{
    while (*v && (unsigned char)*v <= ' ') v++;
    size_t len = strlen(v);
    while (len && (unsigned char)v[len - 1] <= ' ') len--;
    *n = len;
    return v;
}

bool wopts_parse_int(const char *v, int64_t *out, WError *err)
{
    size_t n;
    v = wopts_trimmed(v, &n);
    size_t i = n && (v[0] == '+' || v[0] == '-');
    bool digits = i < n;
    int64_t x = 0;
    for (size_t k = i; k < n && digits; k++) {
        if (v[k] < '0' || v[k] > '9') digits = false;
        else if ((x = x * 10 + (v[k] - '0')) > (int64_t)INT32_MAX + 1) digits = false;
    }
    if (v[0] == '-') x = -x;
    if (!digits || x > INT32_MAX || x < INT32_MIN)
        return werr_set(err, WEXC_NUMBER, "For input string: \"%.*s\"", (int)n, v);
    *out = x;
    return true;
}

bool wopts_get_duration_ms(const WOptions *o, const char *key, int64_t dflt, int64_t *out, WError *err)
{
    const char *v = wopts_get(o, key);
    if (!v) { *out = dflt; return true; }
    return wopts_parse_duration_ms(v, out, err);
}

bool wopts_parse_duration_ms(const char *v, int64_t *out, WError *err)
{
    WError inner;
    werr_clear(&inner);
    if (!wduration_parse(v, out, &inner)) {
        /* TimeUtils.parseDuration: text without a leading number is tried as ISO-8601 first */
        bool iso = strcmp(inner.cls, WEXC_NUMBER) == 0;
        return werr_set(err, inner.cls, "%s%s%s", inner.msg, iso ? ", and is not a valid ISO-8601 duration format: " : "",
                        iso ? v : "");
    }
    return true;
}

bool wopts_get_bytes(const WOptions *o, const char *key, int64_t dflt, int64_t *out, WError *err)
{
    const char *v = wopts_get(o, key);
    if (!v) { *out = dflt; return true; }
    return wopts_parse_bytes(v, out, err);
}

bool wopts_parse_bytes(const char *v, int64_t *out, WError *err)
{
    /* MemorySize.parse's messages */
    const char *p = v;
    while (*p == ' ') p++;
    if (!*p) return werr_set(err, WEXC_ILLEGAL_ARG, "argument is an empty- or whitespace-only string");
    if (!isdigit((unsigned char)*p)) return werr_set(err, WEXC_NUMBER, "text does not start with a number");
    const char *num = p;
    unsigned long long n = 0;
    bool overflow = false;
    while (isdigit((unsigned char)*p)) {
        n = n * 10 + (unsigned)(*p - '0');
        if (n > (1ULL << 62)) overflow = true;
        p++;
    }
    if (overflow)
        return werr_set(err, WEXC_ILLEGAL_ARG, "The value '%.*s' cannot be re represented as 64bit number (numeric "
                        "overflow).", (int)(p - num), num);
    while (*p == ' ') p++;
    char unit[64];      /* the rest, trimmed and lower-cased (a longer one matches no unit either) */
    int ul = 0;
    while (*p && ul < (int)sizeof unit - 1) unit[ul++] = (char)tolower((unsigned char)*p++);
    while (ul > 0 && unit[ul - 1] == ' ') ul--;
    unit[ul] = 0;
    static const struct { const char *u; int shift; } UNITS[] = {
        {"", 0}, {"b", 0}, {"bytes", 0}, {"k", 10}, {"kb", 10}, {"kibibytes", 10}, {"m", 20}, {"mb", 20},
        {"mebibytes", 20}, {"g", 30}, {"gb", 30}, {"gibibytes", 30}, {"t", 40}, {"tb", 40}, {"tebibytes", 40}};
    for (size_t i = 0; i < sizeof UNITS / sizeof UNITS[0]; i++)
        if (strcmp(unit, UNITS[i].u) == 0) {
            if (UNITS[i].shift && n > (1ULL << (62 - UNITS[i].shift)))
                return werr_set(err, WEXC_ILLEGAL_ARG, "The value '%s' cannot be re represented as 64bit number of "
                                "bytes (numeric overflow).", v);
            *out = (int64_t)(n << UNITS[i].shift);
            return true;
        }
    return werr_set(err, WEXC_ILLEGAL_ARG, "Memory size unit '%s' does not match any of the recognized units: "
                    "(b | bytes) / (k | kb | kibibytes) / (m | mb | mebibytes) / (g | gb | gibibytes) / "
                    "(t | tb | tebibytes)", unit);
}
