/*
 * decimal.h — helpers for DECIMAL(p, s) values held as __int128 unscaled integers (p <= 38).
 *
 * Contract: rounding is HALF_UP as java.math.BigDecimal.setScale(s, RoundingMode.HALF_UP);
 * "overflow" means the value needs more than p digits (Flink then yields NULL for casts between
 * numerics, or "Overflow." for string parsing). Text parsing mirrors Flink's
 * BinaryStringDataUtil.toDecimal (compact path for p <= 18 and short input, BigDecimal grammar
 * otherwise). Pure functions; no allocation. Depends on value.h.
 */
#ifndef WEIR_TYPES_DECIMAL_H
#define WEIR_TYPES_DECIMAL_H

#include <stdbool.h>
#include <stdint.h>
#include "value.h"

/* Does |v| fit in `precision` digits? */
bool wdec_fits(__int128 v, int precision);
/* Rescale v from scale `from` to scale `to` (HALF_UP when reducing). false on int128 overflow. */
bool wdec_rescale(__int128 v, int from, int to, __int128 *out);
/* Rescale and check precision: false when the result does not fit DECIMAL(p, s). */
bool wdec_cast(__int128 v, int from_scale, int p, int s, __int128 *out);

typedef enum WDecParse { WDEC_OK = 0, WDEC_OVERFLOW, WDEC_INVALID } WDecParse;
/* Flink's CAST(string AS DECIMAL(p, s)). WDEC_OVERFLOW covers everything Flink reports as
   "Overflow." (including malformed input on its compact path); WDEC_INVALID is a BigDecimal
   syntax error (NumberFormatException with Java's message). */
WDecParse wdec_parse_flink(const char *s, int len, int p, int scale, __int128 *out);
/* java.math.BigDecimal(String) grammar: [+-]digits[.digits][e[+-]digits]. Returns the unscaled
   value and scale (may be negative) when at most 38 significant digits; false otherwise. */
bool wdec_parse_java(const char *s, int len, __int128 *unscaled, int *scale);
/* BigDecimal.valueOf(d) (via Double.toString) rescaled HALF_UP to (p, s). false on overflow or
   NaN/Infinity (*nan_inf set for the latter). */
bool wdec_from_double(double d, int p, int s, __int128 *out, bool *nan_inf);
/* Correctly rounded conversion to double (BigDecimal.doubleValue). */
double wdec_to_double(__int128 v, int scale);
/* BigDecimal.longValue(): truncate toward zero, keep the low 64 bits. */
int64_t wdec_to_long(__int128 v, int scale);
/* Plain digits of |v| into buf (no sign), returns length. buf >= 40. */
int wdec_abs_digits(__int128 v, char *buf);

#endif
