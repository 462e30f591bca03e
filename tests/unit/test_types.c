/* test_types.c — unit tests for src/types: dates, zones, formatting, casts, compare, binary rows. */
#include "unit.h"
#include "../../src/types/datetime.h"
#include "../../src/types/format.h"
#include "../../src/types/cast.h"
#include "../../src/types/compare.h"
#include "../../src/types/row.h"
#include "../../src/types/decimal.h"
#include "../../src/common/hash.h"

WTEST(types_date_roundtrip)
{
    CHECK_INT(wdate_from_ymd(1970, 1, 1), 0);
    CHECK_INT(wdate_from_ymd(2000, 3, 1), 11017);
    int y, m, d;
    wdate_to_ymd(-1, &y, &m, &d);
    CHECK_INT(y, 1969); CHECK_INT(m, 12); CHECK_INT(d, 31);
}
