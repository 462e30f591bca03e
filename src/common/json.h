/*
 * json.h — a small JSON document model with Jackson's reading and writing conventions, shared by
 * the 'json' format (connectors/) and the JSON SQL functions (expr/).
 *
 * Contract: wjson_parse reads one JSON value (RFC 8259 as Jackson accepts it by default: no
 * comments, no single quotes, no leading zeros, no NaN) into an arena-allocated tree. Numbers keep
 * their literal text, so DECIMAL(38) columns and BigDecimal renderings lose nothing; object members
 * keep their order, a repeated key replaces the earlier value in its place (LinkedHashMap / Jackson
 * ObjectNode). As Jackson's readValue/readTree, content after the first value is not examined
 * (`{"a":1} x` parses) unless `full` is set. Nesting deeper than 1000 levels is rejected (Jackson's
 * default limit). wjson_write renders compactly as Jackson's default printer does ({"a":1,"b":[1,2]}),
 * optionally with object keys sorted (ORDER_MAP_ENTRIES_BY_KEYS). Strings are escaped as Jackson
 * does: \" \\ \b \f \n \r \t, other control characters as \u00XX, everything else verbatim UTF-8.
 * Written by hand rather than with jansson because jansson turns numbers into long long / double
 * (DECIMAL precision and Java's number renderings would be lost) and allocates per node with malloc;
 * this parser allocates from the caller's arena (per chunk / per file buffer).
 * Depends on arena.h, strbuf.h.
 */
#ifndef WEIR_COMMON_JSON_H
#define WEIR_COMMON_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "arena.h"
#include "strbuf.h"

typedef enum WJsonKind { WJ_NULL, WJ_FALSE, WJ_TRUE, WJ_NUMBER, WJ_STRING, WJ_ARRAY, WJ_OBJECT } WJsonKind;

typedef struct WJson WJson;
struct WJson {
    WJsonKind kind;
    bool is_float;          /* NUMBER with a fraction or an exponent (Jackson: BigDecimal) */
    const char *s;          /* STRING: unescaped UTF-8; NUMBER: the literal text */
    int len;
    int n;                  /* ARRAY elements / OBJECT members */
    WJson **items;          /* ARRAY elements / OBJECT values */
    const char **keys;      /* OBJECT keys (unescaped) */
    int *key_lens;
};

/* Parse the JSON value at the start of text (whitespace around it allowed). On failure returns
   NULL and writes a Jackson-like message ("Unexpected character ('x' (code 120)) ...") to err. */
WJson *wjson_parse(WArena *a, const char *text, size_t len, bool full, char *err, size_t errsz);

/* The value of member key of an object (NULL when absent or v is not an object). */
const WJson *wjson_get(const WJson *obj, const char *key, size_t klen);

/* Builders for values made by SQL functions (arena-allocated). */
WJson *wjson_new(WArena *a, WJsonKind kind);
WJson *wjson_string(WArena *a, const char *s, size_t n);
WJson *wjson_number(WArena *a, const char *text, bool is_float);
/* Append to an array / object under construction (grows in the arena). */
void wjson_push(WArena *a, WJson *arr, WJson *item);
void wjson_put(WArena *a, WJson *obj, const char *key, size_t klen, WJson *val);

/* Compact rendering; sort_keys sorts every object's members by key. */
void wjson_write(const WJson *v, bool sort_keys, WStrBuf *out);
/* A quoted JSON string with Jackson's escapes. */
void wjson_write_string(const char *s, size_t n, WStrBuf *out);
/* The same with every non-ASCII character as \uXXXX (a surrogate pair beyond U+FFFF), as
   jansson's JSON_ENSURE_ASCII writes it. */
void wjson_write_string_ascii(const char *s, size_t n, WStrBuf *out);
/* Java's rendering of a JSON number as Jackson reads it into an Object: integers as
   Integer/Long/BigInteger.toString, others as BigDecimal.toString (e.g. 1.50 -> 1.50, 1e3 -> 1E+3). */
void wjson_number_java(const char *text, size_t len, WStrBuf *out);
/* Java's ISO renderings used by Flink's JSON code (the fraction without trailing zeros, none when
   zero): wjson_fmt_date "2024-01-31" (ISO_LOCAL_DATE, years beyond 9999 with '+'),
   wjson_fmt_time "10:05:00" / "10:05:00.12" (nanos of day), wjson_fmt_datetime date, sep, time
   ('T' = ISO_LOCAL_DATE_TIME, ' ' = Flink's SQL_TIMESTAMP_FORMAT). buf >= 64; return the length. */
int wjson_fmt_date(int64_t days, char *buf);
int wjson_fmt_time(int64_t nanos_of_day, char *buf);
int wjson_fmt_datetime(int64_t epoch_ms, int32_t nanos_of_ms, char sep, char *buf);

/* Java's toString of the value read as Object (Map {a=1, b=[1, 2]}, List, String raw, null). */
void wjson_java_string(const WJson *v, WStrBuf *out);

#endif
