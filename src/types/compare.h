/*
 * compare.h — ordering, equality and hashing of values of one type.
 *
 * Contract: values compare as SQL does for the type (strings by bytes = code points, NaN greatest
 * as Java's Double.compare); NULL handling is the caller's (functions take non-NULL datums).
 * whash_datum is consistent with wdatum_equal (equal values hash equally, e.g. 1.0 and 1.00 as
 * DECIMAL of one scale). Depends on type, value, common.
 */
#ifndef WEIR_TYPES_COMPARE_H
#define WEIR_TYPES_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include "type.h"
#include "value.h"

int  wdatum_compare(const WType *t, WDatum a, WDatum b);          /* <0, 0, >0 */
bool wdatum_equal(const WType *t, WDatum a, WDatum b);
uint64_t wdatum_hash(const WType *t, WDatum v, uint64_t seed);

#endif
