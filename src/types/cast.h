/*
 * cast.h — CAST and TRY_CAST between Flink types, with Flink's rules and error messages.
 *
 * Contract: wcast_supported decides at plan time whether a cast is allowed (Flink:
 * "Cast function cannot convert value of type X to type Y." as a ValidationException).
 * wcast_datum converts one non-NULL value; on failure it sets err with the message Flink's
 * runtime gives (e.g. NumberFormatException "For input string: 'abc'") and returns false; TRY_CAST
 * callers turn that into NULL. Results that need bytes are allocated in `a`. Casting to
 * CHAR/VARCHAR uses Flink's CAST-to-STRING rendering (see format.h). Depends on type, value,
 * datetime, common.
 */
#ifndef WEIR_TYPES_CAST_H
#define WEIR_TYPES_CAST_H

#include <stdbool.h>
#include "type.h"
#include "value.h"
#include "datetime.h"
#include "../common/error.h"

typedef struct WCastCtx {
    const WTimeZone *tz;        /* session time zone (table.local-time-zone) for LTZ conversions */
    bool legacy_behaviour;      /* table.exec.legacy-cast-behaviour (default false) */
} WCastCtx;

bool wcast_supported(const WType *from, const WType *to);
/* Is CAST(from AS to) injective, so that a unique key stays unique through it (Flink 2.3's
   LogicalTypeCasts.supportsInjectiveCast, measured on 2.3.0 over 576 type pairs): the same type;
   an integer to a wider integer; a value to a CHAR/VARCHAR long enough for its longest text;
   CHAR to a CHAR/VARCHAR, VARCHAR to a VARCHAR no shorter; a string to a BINARY/VARBINARY of 4
   bytes per character; BINARY to a BINARY/VARBINARY, VARBINARY to a VARBINARY no shorter;
   TIMESTAMP and TIMESTAMP_LTZ of one precision into each other. Nullability is ignored. */
bool wcast_injective(const WType *from, const WType *to);
/* Implicit coercion allowed by Flink in assignments/comparisons (e.g. INT -> BIGINT). */
bool wcast_implicit(const WType *from, const WType *to);
bool wcast_datum(const WCastCtx *ctx, const WType *from, WDatum in, const WType *to, WDatum *out,
                 WArena *a, WError *err);
/* wcast_datum may also produce SQL NULL without an error (Flink: numeric -> DECIMAL overflow, and
   failures under legacy cast behaviour); it then returns false with err left unset. Prefer
   wcast_datum_ex, which says so explicitly. */
typedef enum WCastResult { WCAST_OK = 0, WCAST_NULL, WCAST_ERROR } WCastResult;
WCastResult wcast_datum_ex(const WCastCtx *ctx, const WType *from, WDatum in, const WType *to,
                           WDatum *out, WArena *a, WError *err);
WCastResult wcast_from_text_ex(const WCastCtx *ctx, const char *s, int len, const WType *to,
                               WDatum *out, WArena *a, WError *err);
/* Plan-time check with Flink's message when the cast is not allowed: SqlValidatorException
   "Cast function cannot convert value of type INTEGER to type DATE", or the ValidationException
   Flink's planner raises for NUMERIC <-> TIMESTAMP / TIMESTAMP_LTZ. */
bool wcast_check(const WType *from, const WType *to, WError *err);
/* Calcite's rendering of a type, as in validator messages ("INTEGER", "VARCHAR(2147483647)",
   "TIMESTAMP_WITH_LOCAL_TIME_ZONE(3)", "INTEGER ARRAY"). */
void wcast_calcite_type_name(const WType *t, WStrBuf *out);

/* Parse text as a value of type `to` (what CAST('..' AS t) does); used by the CSV reader too. */
bool wcast_from_text(const WCastCtx *ctx, const char *s, int len, const WType *to, WDatum *out,
                     WArena *a, WError *err);

#endif
