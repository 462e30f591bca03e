/*
 * value.h — one SQL value in memory (WDatum), as stored in a column vector.
 *
 * Contract: a WDatum is a 16-byte union whose active member follows from the column's WType:
 *   BOOLEAN, TINYINT..BIGINT          i  (booleans 0/1)
 *   FLOAT, DOUBLE                     d  (FLOAT is kept as a double rounded to float precision)
 *   DECIMAL(p,s)                      dec (unscaled value; value = dec / 10^s)
 *   CHAR, VARCHAR, BINARY, VARBINARY  s  (pointer + byte length, UTF-8 for strings, not NUL-terminated;
 *                                         bytes owned by the chunk's or state's arena)
 *   DATE                              i  (days since 1970-01-01)
 *   TIME(p)                           i  (milliseconds of the day, as Flink stores TIME)
 *   TIMESTAMP(p), TIMESTAMP_LTZ(p)    ts (epoch milliseconds + nanoseconds within the millisecond;
 *                                         TIMESTAMP is wall-clock "UTC-less", LTZ is an instant)
 *   INTERVAL YEAR..MONTH              i  (months)
 *   INTERVAL DAY..SECOND              i  (milliseconds)
 *   ARRAY, MAP, MULTISET, ROW         cx (arena-allocated WComposite)
 * Nullness is kept outside the datum (in the vector's null bytes). Depends on common/.
 */
#ifndef WEIR_TYPES_VALUE_H
#define WEIR_TYPES_VALUE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct WComposite WComposite;

typedef struct WTimestamp {
    int64_t ms;       /* epoch milliseconds */
    int32_t ns;       /* 0..999999 nanoseconds within the millisecond */
} WTimestamp;

typedef struct WStr {
    const char *p;
    int32_t len;
} WStr;

typedef union WDatum {
    int64_t i;
    double d;
    __int128 dec;
    WTimestamp ts;
    WStr s;
    WComposite *cx;
} WDatum;

/* ARRAY/MULTISET: n elements. ROW: n fields. MAP: n entries stored key,value,key,value (2n slots). */
struct WComposite {
    int32_t n;
    WDatum *vals;
    uint8_t *nulls;   /* 1 = NULL, one byte per slot */
};

#define WDATUM_I(v)   ((WDatum){ .i = (v) })
#define WDATUM_D(v)   ((WDatum){ .d = (v) })

/* 10^n for n in 0..38 as __int128. */
__int128 wpow10_i128(int n);

/* Maximum unscaled magnitude of DECIMAL(p, s): 10^p - 1. */
static inline __int128 wdecimal_max(int precision) { return wpow10_i128(precision) - 1; }

#endif
