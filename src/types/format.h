/*
 * format.h — rendering values as text, the ways Flink users see them.
 *
 * Contract:
 *  - wfmt_sql: CAST(x AS STRING) semantics, which the SQL client's tableau/table views use
 *    (BOOLEAN TRUE/FALSE, DECIMAL at its scale, TIMESTAMP(p) with p digits, LTZ in the session zone,
 *    BYTES as x'0a1b', ARRAY [1, 2], MAP {k=v}, ROW (a, b), INTERVAL +1 00:00:00.000).
 *  - wfmt_java: Row.toString semantics for print sinks and test expectations (booleans lower case,
 *    `null`, DOUBLE as Java Double.toString, TIMESTAMP as LocalDateTime.toString with 'T', nested
 *    rows +I[...], maps {k=v}).
 * Both append to a WStrBuf. Depends on type, value, datetime, common.
 */
#ifndef WEIR_TYPES_FORMAT_H
#define WEIR_TYPES_FORMAT_H

#include <stdbool.h>
#include "type.h"
#include "value.h"
#include "datetime.h"
#include "../common/strbuf.h"

void wfmt_sql(const WType *t, WDatum v, bool is_null, const WTimeZone *tz, WStrBuf *out);
void wfmt_java(const WType *t, WDatum v, bool is_null, const WTimeZone *tz, WStrBuf *out);

/* Java Double.toString / Float.toString. buf >= 32 bytes. */
int wfmt_double_java(double d, char *buf);
int wfmt_float_java(float f, char *buf);
/* Decimal unscaled value at a scale ("-12.30"). buf >= 48 bytes. */
int wfmt_decimal(__int128 unscaled, int scale, char *buf);

/* Display width as Flink's tableau counts it (East-Asian wide/fullwidth = 2 columns). */
int wdisplay_width(const char *utf8, int len);

#endif
