/*
 * type.h — Flink's logical types.
 *
 * Contract: a WType describes one SQL type as Flink names it (type.c renders it exactly as Flink's
 * LogicalType.asSummaryString does: `INT`, `BIGINT NOT NULL`, `VARCHAR(10)`, `STRING`,
 * `DECIMAL(10, 2)`, `TIMESTAMP(3) *ROWTIME*`, `TIMESTAMP_LTZ(3) *PROCTIME*`, `ROW<`a` INT, `b` STRING>`,
 * `ARRAY<INT>`, `MAP<STRING, INT>`, `INTERVAL SECOND(3)`...). Types are immutable once built and
 * allocated in an arena (or static for the common scalar ones), so they are shared by pointer.
 * Depends on common/.
 */
#ifndef WEIR_TYPES_TYPE_H
#define WEIR_TYPES_TYPE_H

#include <stdbool.h>
#include <stdint.h>
#include "../common/arena.h"
#include "../common/strbuf.h"

typedef enum WTypeId {
    WT_NULL = 0,        /* type of an untyped NULL literal; never a column type */
    WT_BOOLEAN,
    WT_TINYINT,
    WT_SMALLINT,
    WT_INT,
    WT_BIGINT,
    WT_FLOAT,
    WT_DOUBLE,
    WT_DECIMAL,         /* precision 1..38, scale 0..precision */
    WT_CHAR,            /* length = precision */
    WT_VARCHAR,         /* STRING = VARCHAR(2147483647) */
    WT_BINARY,
    WT_VARBINARY,       /* BYTES = VARBINARY(2147483647) */
    WT_DATE,
    WT_TIME,            /* precision 0..9 */
    WT_TIMESTAMP,       /* precision 0..9, without time zone */
    WT_TIMESTAMP_LTZ,   /* precision 0..9, with local time zone */
    WT_INTERVAL_YM,     /* INTERVAL YEAR TO MONTH family: months */
    WT_INTERVAL_DT,     /* INTERVAL DAY TO SECOND family: milliseconds */
    WT_ARRAY,
    WT_MAP,
    WT_MULTISET,
    WT_ROW,
    WT__COUNT
} WTypeId;

#define WT_MAX_LENGTH 2147483647

/* Interval qualifiers, for rendering (`INTERVAL DAY(2) TO SECOND(3)`). */
typedef enum WIntervalQual {
    WIQ_NONE = 0,
    WIQ_YEAR, WIQ_YEAR_TO_MONTH, WIQ_MONTH,
    WIQ_DAY, WIQ_DAY_TO_HOUR, WIQ_DAY_TO_MINUTE, WIQ_DAY_TO_SECOND,
    WIQ_HOUR, WIQ_HOUR_TO_MINUTE, WIQ_HOUR_TO_SECOND,
    WIQ_MINUTE, WIQ_MINUTE_TO_SECOND, WIQ_SECOND
} WIntervalQual;

/* Time attribute marker carried by TIMESTAMP(3)/TIMESTAMP_LTZ(3) columns. */
typedef enum WTimeAttr { WTA_NONE = 0, WTA_ROWTIME, WTA_PROCTIME } WTimeAttr;

typedef struct WType WType;
struct WType {
    WTypeId id;
    bool nullable;
    int precision;          /* DECIMAL p; CHAR/VARCHAR/BINARY/VARBINARY length; TIME/TIMESTAMP p;
                               INTERVAL: day or year precision */
    int scale;              /* DECIMAL s; INTERVAL: fractional-second precision */
    WIntervalQual qual;     /* INTERVAL only */
    WTimeAttr time_attr;    /* TIMESTAMP/TIMESTAMP_LTZ only */
    const WType *elem;      /* ARRAY/MULTISET element; MAP value */
    const WType *key;       /* MAP key */
    int nfields;            /* ROW */
    const char **field_names;
    const WType **fields;
};

/* Shared immutable instances (nullable unless _NN). */
extern const WType WTYPE_NULL;
extern const WType WTYPE_BOOLEAN, WTYPE_BOOLEAN_NN;
extern const WType WTYPE_TINYINT, WTYPE_SMALLINT, WTYPE_INT, WTYPE_INT_NN, WTYPE_BIGINT, WTYPE_BIGINT_NN;
extern const WType WTYPE_FLOAT, WTYPE_DOUBLE, WTYPE_DOUBLE_NN;
extern const WType WTYPE_STRING, WTYPE_STRING_NN, WTYPE_BYTES;
extern const WType WTYPE_DATE;

/* Constructors (arena-allocated). */
WType *wtype_new(WArena *a, WTypeId id, bool nullable);
const WType *wtype_decimal(WArena *a, int precision, int scale, bool nullable);
const WType *wtype_varchar(WArena *a, int length, bool nullable);   /* WT_MAX_LENGTH = STRING */
const WType *wtype_char(WArena *a, int length, bool nullable);
const WType *wtype_timestamp(WArena *a, WTypeId id, int precision, bool nullable); /* TIMESTAMP or _LTZ */
const WType *wtype_time(WArena *a, int precision, bool nullable);
const WType *wtype_array(WArena *a, const WType *elem, bool nullable);
const WType *wtype_map(WArena *a, const WType *key, const WType *value, bool nullable);
const WType *wtype_row(WArena *a, int n, const char **names, const WType **fields, bool nullable);
const WType *wtype_interval(WArena *a, WTypeId id, WIntervalQual q, int precision, int frac, bool nullable);

/* Copy with other nullability / without time attribute. Returns t itself when nothing changes. */
const WType *wtype_with_nullable(WArena *a, const WType *t, bool nullable);
const WType *wtype_with_time_attr(WArena *a, const WType *t, WTimeAttr attr);

/* Classification. */
bool wtype_is_integer(const WType *t);      /* TINYINT..BIGINT */
bool wtype_is_exact_numeric(const WType *t);/* integers and DECIMAL */
bool wtype_is_approx(const WType *t);       /* FLOAT, DOUBLE */
bool wtype_is_numeric(const WType *t);
bool wtype_is_string(const WType *t);       /* CHAR, VARCHAR */
bool wtype_is_binary(const WType *t);       /* BINARY, VARBINARY */
bool wtype_is_temporal(const WType *t);     /* DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ */
bool wtype_is_timestamp(const WType *t);    /* TIMESTAMP, TIMESTAMP_LTZ */
bool wtype_is_interval(const WType *t);
bool wtype_is_composite(const WType *t);    /* ARRAY, MAP, MULTISET, ROW */

/* Equality of the logical type, including nullability (ignore_null: ignore it). */
bool wtype_equals(const WType *a, const WType *b, bool ignore_null);

/* Flink's summary string (LogicalType#asSummaryString), e.g. "DECIMAL(10, 2) NOT NULL". */
void wtype_to_string(const WType *t, WStrBuf *out);
/* Convenience: rendered into an arena. */
const char *wtype_str(WArena *a, const WType *t);

/* Integer precision as Flink counts it: TINYINT 3, SMALLINT 5, INT 10, BIGINT 19. */
int wtype_integer_digits(const WType *t);

/* Flink's type derivations (LogicalTypeMerging). All return arena types; NULL if not applicable. */
const WType *wtype_common(WArena *a, const WType *x, const WType *y);    /* least restrictive type */
const WType *wtype_plus_minus(WArena *a, const WType *x, const WType *y);/* + and - on numerics */
const WType *wtype_multiply(WArena *a, const WType *x, const WType *y);
const WType *wtype_divide(WArena *a, const WType *x, const WType *y);
const WType *wtype_mod(WArena *a, const WType *x, const WType *y);
const WType *wtype_sum_result(WArena *a, const WType *arg);    /* SUM(x) */
const WType *wtype_avg_result(WArena *a, const WType *arg);    /* AVG(x) */

#endif
