/*
 * options.h — ordered string key/value lists: connector WITH options, session configuration.
 *
 * Contract: keys are unique (set replaces), kept in insertion order; lookups are exact
 * (Flink option keys are case-sensitive). Heap-owned; wopts_free releases everything.
 * Depends on common/.
 */
#ifndef WEIR_COMMON_OPTIONS_H
#define WEIR_COMMON_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "error.h"

typedef struct WOption { char *key, *value; } WOption;

typedef struct WOptions {
    int n, cap;
    WOption *items;
} WOptions;

void wopts_init(WOptions *o);
void wopts_free(WOptions *o);
void wopts_copy(WOptions *dst, const WOptions *src);
void wopts_set(WOptions *o, const char *key, const char *value);
bool wopts_remove(WOptions *o, const char *key);
const char *wopts_get(const WOptions *o, const char *key);      /* NULL if absent */
const char *wopts_get_or(const WOptions *o, const char *key, const char *dflt);
/* Typed getters: false + error when the value does not parse, with the root cause of Flink's
   "Could not parse value 'x' for key 'k'." (what its SQL client prints: "Unrecognized option for
   boolean: x. ...", 'For input string: "x"', TimeUtils' and MemorySize's messages). Absent keys
   give dflt. */
bool wopts_get_bool(const WOptions *o, const char *key, bool dflt, bool *out, WError *err);
bool wopts_get_long(const WOptions *o, const char *key, int64_t dflt, int64_t *out, WError *err);
/* Flink MemorySize: a number with an optional unit (b, bytes, k/kb/kibibytes, m/mb/mebibytes,
   g/gb/gibibytes, t/tb/tebibytes), case-insensitive, in bytes. */
bool wopts_get_bytes(const WOptions *o, const char *key, int64_t dflt, int64_t *out, WError *err);
bool wopts_get_duration_ms(const WOptions *o, const char *key, int64_t dflt, int64_t *out, WError *err);
/* The parsers of those getters for one present value v (the same results and messages). */
bool wopts_parse_bool(const char *v, bool *out, WError *err);
bool wopts_parse_long(const char *v, int64_t *out, WError *err);
/* An int option as Flink's configuration reads one (Integer.parseInt of the trimmed text: a sign,
   decimal digits, within 32 bits), else NumberFormatException 'For input string: "<trimmed>"'. */
bool wopts_parse_int(const char *v, int64_t *out, WError *err);
/* v without the leading and trailing whitespace Java's String.trim drops (bytes up to ' '): the
   start in v, its length in *n. */
const char *wopts_trimmed(const char *v, size_t *n);
bool wopts_parse_bytes(const char *v, int64_t *out, WError *err);
bool wopts_parse_duration_ms(const char *v, int64_t *out, WError *err);

#endif
