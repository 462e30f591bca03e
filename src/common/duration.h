/*
 * duration.h — Flink's duration strings: parsing ('30 min', '1d', '2 h', '500ms', '90s') as
 * TimeUtils.parseDuration does, and formatting in the largest whole unit as
 * TimeUtils.formatWithHighestUnit does ('0 ms', '30 min', '1 d', '90 min').
 *
 * Contract: pure functions. Depends on error.h.
 */
#ifndef WEIR_COMMON_DURATION_H
#define WEIR_COMMON_DURATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "error.h"

/* Flink's TimeUtils.parseDuration: "<n> [unit]" (no unit: ms) or ISO-8601 ("PT90S", "P1DT2H");
   a text that is neither fails with "text does not start with a number" (NumberFormatException;
   Flink adds ", and is not a valid ISO-8601 duration format: <text>"). */
bool wduration_parse(const char *text, int64_t *out_ms, WError *err);
/* Writes e.g. "30 min" into buf (size >= 32). */
void wduration_format(int64_t ms, char *buf, size_t bufsz);

#endif
