/* test_jdbc_splits.c — the jdbc scan's partition splits, as Flink's
   JdbcNumericBetweenParametersProvider computes them (ofBatchNum + getParameterValues). */
#include "unit.h"
#include "../../src/connectors/jdbc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void splits_text(int64_t lo, int64_t hi, int64_t num, char *buf, size_t n)
{
    WJdbcConf c;
    memset(&c, 0, sizeof c);
    c.part_col = "id";
    c.part_lo = lo;
    c.part_hi = hi;
    c.part_num = num;
    int64_t (*sp)[2];
    int k = wjdbc_splits(&c, &sp);
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < k && o < n; i++)
        o += (size_t)snprintf(buf + o, n - o, "%s[%lld,%lld]", i ? " " : "", (long long)sp[i][0], (long long)sp[i][1]);
    free(sp);
}

WTEST(jdbc_partition_splits_as_flink)
{
    char b[256];
    splits_text(2, 9, 3, b, sizeof b);          /* 8 values: sizes 3, 3, 2 */
    CHECK_STR(b, "[2,4] [5,7] [8,9]");
    splits_text(0, 9, 4, b, sizeof b);          /* 10 values: 3, 3, 2, 2 */
    CHECK_STR(b, "[0,2] [3,5] [6,7] [8,9]");
    splits_text(1, 3, 5, b, sizeof b);          /* more splits than values: one value each */
    CHECK_STR(b, "[1,1] [2,2] [3,3]");
    splits_text(-5, 5, 1, b, sizeof b);
    CHECK_STR(b, "[-5,5]");
    splits_text(7, 7, 2, b, sizeof b);
    CHECK_STR(b, "[7,7]");
    WJdbcConf none;
    memset(&none, 0, sizeof none);
    int64_t (*sp)[2];
    CHECK_INT(wjdbc_splits(&none, &sp), 1);
    CHECK(sp == NULL);
}
