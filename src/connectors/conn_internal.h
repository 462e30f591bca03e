/*
 * conn_internal.h — private to src/connectors: the built-in connector instances and small shared
 * helpers (calendar arithmetic for the CSV fast paths, the readers' integer digits, option listing). Not a public contract.
 * Depends on connector.h.
 */
#ifndef WEIR_CONNECTORS_CONN_INTERNAL_H
#define WEIR_CONNECTORS_CONN_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "connector.h"

extern const WConnector wconn_filesystem;
extern const WConnector wconn_datagen;
extern const WConnector wconn_print;
extern const WConnector wconn_blackhole;
extern const WConnector wconn_nexmark;
extern const WConnector wconn_jdbc;             /* jdbc.c */
extern const WConnector wconn_kafka;
extern const WConnector wconn_upsert_kafka;     /* upsert_kafka.c */
extern const WConnector wconn_filesystem_legacy;    /* fs_legacy.c: 'connector.type' = 'filesystem' */

/* The leading ASCII digits of the 8 bytes at s, their number (0-8) and value, eight bytes at once:
   a byte minus '0' is a digit's value, and the first byte that is no digit is the lowest whose
   difference is negative or above 9 (no borrow or carry reaches it from the digits below). */
static inline int wconn_digits8(const char *s, uint64_t *value)
{
    uint64_t w;
    memcpy(&w, s, 8);
    if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__) w = __builtin_bswap64(w);
    uint64_t t = w - 0x3030303030303030ULL;
    uint64_t bad = (t | (t + 0x7676767676767676ULL)) & 0x8080808080808080ULL;
    int n = bad ? __builtin_ctzll(bad) / 8 : 8;
    if (n == 0) { *value = 0; return 0; }
    t <<= 8 * (8 - n);      /* the n digits in the high bytes, zeros (leading zeros) below */
    t = ((t * 10) + (t >> 8)) & 0x00FF00FF00FF00FFULL;
    t = ((t * 100) + (t >> 16)) & 0x0000FFFF0000FFFFULL;
    t = (t * 10000) + (t >> 32);
    *value = t & 0xFFFFFFFFULL;
    return n;
}

/* The ASCII digits at s (the buffer readable 24 bytes on: readers keep zeroed padding after their
   data): their number, 19 for more than 18, and their value in *value (the CSV and JSON readers'
   integer fields). */
static inline int wconn_read_digits(const char *s, int64_t *value)
{
    static const uint64_t POW10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    uint64_t acc = 0, part;
    int n = 0;
    for (int k = 0; k < 3; k++) {
        int m = wconn_digits8(s + n, &part);
        acc = acc * POW10[m] + part;
        n += m;
        if (m < 8) break;
    }
    if (n > 18) return 19;
    *value = (int64_t)acc;
    return n;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (any month/day in range). */
static inline int64_t wconn_days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;
    const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static inline void wconn_civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const int64_t doe = z - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

static inline bool wconn_is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static inline int wconn_month_len(int64_t y, int m)
{
    static const int L[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && wconn_is_leap(y) ? 29 : L[m - 1];
}

/* Validation errors carry the root cause's message, which Flink's SQL client prints; the planner
   adds Flink's "Unable to create a source/sink ..." wrapper (plan/table_factory.c, WError.outer). */

/* The formats the filesystem connector reads and writes (format_changelog_csv.c). wconn_format_config
   is for the CSV ones; 'json' and 'debezium-json' are configured by format_json.h. */
typedef struct WConnFormat {
    const char *name;       /* value of 'format' */
    bool changelog;         /* rows carry their kind (changelog-csv, debezium-json) */
    bool json;              /* format_json.h (json, debezium-json) instead of the CSV reader/writer */
    const WConnOption *options;     /* the format's options, keys without the "<name>." prefix */
} WConnFormat;
const WConnFormat *wconn_format_all(int *n);
const WConnFormat *wconn_format_find(const char *name);        /* NULL if unknown */
struct WCsvConfig;
/* Read the options "<name>.*" of the format into cfg (Flink's CsvCommons validation). */
bool wconn_format_config(const WConnFormat *f, const WOptions *o, struct WCsvConfig *cfg, WError *err);

#endif
