/*
 * test_reduce.c — constant-expression reduction (src/plan/reduce.c) and how the optimized plans
 * print reduced constants (src/explain/rex.c), through a session. The expected Calc lines are
 * Flink 2.3.0's, measured with the same DDL and queries (docs/flink-conformance.md, "Constant
 * reduction").
 */
#include "unit.h"
#include "../../src/session/session.h"

#include <stdlib.h>
#include <string.h>

static char *explain(WSession *s, const char *sql)
{
    WStmtResult res;
    WError err;
    werr_clear(&err);
    if (!wsession_execute(s, sql, NULL, &res, &err)) return NULL;
    char *m = res.message ? strdup(res.message) : strdup("");
    wstmt_result_free(&res);
    return m;
}

/* the first line after `header` in an EXPLAIN text (static buffer) */
static const char *line_after(const char *txt, const char *header)
{
    static char buf[4096];
    const char *p = txt ? strstr(txt, header) : NULL;
    if (!p) return "(no section)";
    p += strlen(header);
    size_t n = strcspn(p, "\n");
    if (n >= sizeof buf) n = sizeof buf - 1;
    memcpy(buf, p, n);
    buf[n] = 0;
    return buf;
}

typedef struct Case { const char *select; const char *physical; const char *execution; } Case;

static const Case CASES[] = {
    {"SELECT 1 + 2 AS i, CAST(1 AS BIGINT) + 2 AS bi, CAST(3 AS TINYINT) AS ti, CAST(3 AS SMALLINT) AS si, "
     "'a' || 'b' AS cc, UPPER('abc') AS up, CAST('2020-01-01' AS DATE) AS dt, "
     "CAST('2020-01-01 10:00:00.123' AS TIMESTAMP(3)) AS tsl, CAST('10:00:00' AS TIME) AS tm, "
     "CAST(NULL AS INT) AS ni, CAST(1 AS VARCHAR) AS cs, CHAR_LENGTH('abcd') AS cl FROM t",
     "Calc(select=[3 AS i, 3:BIGINT AS bi, 3:TINYINT AS ti, 3:SMALLINT AS si, _UTF-16LE'ab' AS cc, _UTF-16LE'ABC' AS up, "
     "2020-01-01 AS dt, 2020-01-01 10:00:00.123:TIMESTAMP(3) AS tsl, 10:00:00 AS tm, null:INTEGER AS ni, "
     "_UTF-16LE'1':VARCHAR(2147483647) CHARACTER SET \"UTF-16LE\" AS cs, 4 AS cl])",
     "Calc(select=[3 AS i, 3 AS bi, 3 AS ti, 3 AS si, 'ab' AS cc, 'ABC' AS up, 2020-01-01 AS dt, "
     "2020-01-01 10:00:00.123 AS tsl, 10:00:00 AS tm, null:INTEGER AS ni, '1' AS cs, 4 AS cl])"},
    {"SELECT a FROM t WHERE TRUE AND a > 1",
     "Calc(select=[a], where=[>(a, 1)])", "Calc(select=[a], where=[(a > 1)])"},
    {"SELECT a FROM t WHERE a = a",
     "Calc(select=[a], where=[IS NOT NULL(a)])", "Calc(select=[a], where=[a IS NOT NULL])"},
    {"SELECT a FROM t WHERE b = b", "Calc(select=[a])", "Calc(select=[a])"},
    {"SELECT a FROM t WHERE 1 = 1", "Calc(select=[a])", "Calc(select=[a])"},
    {"SELECT a FROM t WHERE a > 1 AND 1 = 2",
     "Values(type=[RecordType(INTEGER a)], tuples=[[]])", "Values(tuples=[[]])"},
    {"SELECT a, CASE WHEN 1 = 1 THEN 'x' ELSE 'y' END AS c1, CASE WHEN a > 1 THEN 1 + 1 ELSE 2 * 3 END AS c2 FROM t",
     "Calc(select=[a, _UTF-16LE'x' AS c1, CASE(>(a, 1), 2, 6) AS c2])",
     "Calc(select=[a, 'x' AS c1, CASE((a > 1), 2, 6) AS c2])"},
    {"SELECT a + (1 + 2) AS p, s || ('a' || 'b') AS q, a > 1 + 1 AS r FROM t",
     "Calc(select=[+(a, 3) AS p, ||(s, _UTF-16LE'ab') AS q, >(a, 2) AS r])",
     "Calc(select=[(a + 3) AS p, ||(s, 'ab') AS q, (a > 2) AS r])"},
    {"SELECT CAST(1.5 AS DECIMAL(10,2)) * 2 AS dm, CAST(1 AS DECIMAL(5,2)) + CAST(2 AS DECIMAL(5,2)) AS da, "
     "1.5 + 1 AS dc, ROUND(1.2345, 2) AS rd FROM t",
     "Calc(select=[3.00:DECIMAL(21, 2) AS dm, 3.00:DECIMAL(6, 2) AS da, 2.5:DECIMAL(12, 1) AS dc, 1.23:DECIMAL(4, 2) AS rd])",
     "Calc(select=[3.00 AS dm, 3.00 AS da, 2.5 AS dc, 1.23 AS rd])"},
    {"SELECT * FROM t t1 JOIN t t2 ON t1.a = t2.a AND 1 = 1 AND t1.b > 2 + 3",
     "Join(joinType=[InnerJoin], where=[=(a, a0)], select=[a, b, s, d, x, ts, ltz, a0, b0, s0, d0, x0, ts0, ltz0], "
     "leftInputSpec=[NoUniqueKey], rightInputSpec=[NoUniqueKey])",
     "Join(joinType=[InnerJoin], where=[(a = a0)], select=[a, b, s, d, x, ts, ltz, a0, b0, s0, d0, x0, ts0, ltz0], "
     "leftInputSpec=[NoUniqueKey], rightInputSpec=[NoUniqueKey])"},
    {"SELECT a FROM t WHERE a IN (1 + 1, 2 + 2)",
     "Calc(select=[a], where=[SEARCH(a, Sarg[2, 4])])", "Calc(select=[a], where=[SEARCH(a, Sarg[2, 4])])"},
    {"SELECT a > 1 OR TRUE AS o1, a > 1 AND FALSE AS o2, b > 1 OR TRUE AS o3, a > 1 AND TRUE AS o4 FROM t",
     "Calc(select=[CAST(true AS BOOLEAN) AS o1, CAST(false AS BOOLEAN) AS o2, true AS o3, >(a, 1) AS o4])",
     "Calc(select=[CAST(true AS BOOLEAN) AS o1, CAST(false AS BOOLEAN) AS o2, true AS o3, (a > 1) AS o4])"},
    {"SELECT TO_TIMESTAMP_LTZ(1500, 3) AS l3, TIMESTAMP '2020-01-01 00:00:00' AS t0, "
     "CAST(TIMESTAMP '2020-01-01 00:00:00.5' AS TIMESTAMP(6)) AS t6, TIME '10:00:00.5' AS tm FROM t",
     "Calc(select=[CAST(1970-01-01 00:00:01.5:TIMESTAMP_WITH_LOCAL_TIME_ZONE(3) AS TIMESTAMP_WITH_LOCAL_TIME_ZONE(3)) AS l3, "
     "2020-01-01 00:00:00 AS t0, 2020-01-01 00:00:00.5:TIMESTAMP(6) AS t6, 10:00:00.5:TIME(1) AS tm])",
     "Calc(select=[CAST(1970-01-01 00:00:01.5 AS TIMESTAMP_WITH_LOCAL_TIME_ZONE(3)) AS l3, 2020-01-01 00:00:00 AS t0, "
     "2020-01-01 00:00:00.5 AS t6, 10:00:00.5 AS tm])"},
    {"SELECT a, CASE WHEN a > 1 THEN UPPER('x') END AS c FROM t",
     "Calc(select=[a, CASE(>(a, 1), _UTF-16LE'X', null:CHAR(1) CHARACTER SET \"UTF-16LE\") AS c])",
     "Calc(select=[a, CASE((a > 1), 'X', null:CHAR(1)) AS c])"},
    {"SELECT 1e0/3e0 AS d1, -1e0/3e0 AS neg, 0.1e0+0.2e0 AS d3, 1e20 * 10 AS big, 2.5e0 * 2 AS dd, 1.5e0 AS dl FROM t",
     "Calc(select=[3.3333333333333331482E-1:DOUBLE AS d1, -3.3333333333333331482E-1:DOUBLE AS neg, "
     "3.0000000000000004440E-1:DOUBLE AS d3, 1E21:DOUBLE AS big, 5E0:DOUBLE AS dd, 1.5E0:DOUBLE AS dl])",
     "Calc(select=[3.3333333333333331482E-1 AS d1, -3.3333333333333331482E-1 AS neg, 3.0000000000000004440E-1 AS d3, "
     "1E21 AS big, 5E0 AS dd, 1.5E0 AS dl])"},
    {"SELECT CAST(NULL AS INT) AS n1, NULLIF(1, 1) AS nf, COALESCE(CAST(NULL AS INT), 1) AS co, IF(TRUE, 1, 2) AS iff, "
     "TRY_CAST('abc' AS INT) AS tc, 1 IN (1, 2) AS inl FROM t",
     "Calc(select=[null:INTEGER AS n1, null:INTEGER AS nf, 1 AS co, 1 AS iff, null:INTEGER AS tc, true AS inl])",
     "Calc(select=[null:INTEGER AS n1, null:INTEGER AS nf, 1 AS co, 1 AS iff, null:INTEGER AS tc, true AS inl])"},
    /* not reduced: non-deterministic calls, a CAST that fails */
    {"SELECT RAND() AS r, UUID() AS u, NOW() AS n2 FROM t",
     "Calc(select=[RAND() AS r, UUID() AS u, NOW() AS n2])", "Calc(select=[RAND() AS r, UUID() AS u, NOW() AS n2])"},
    {"SELECT CAST('abc' AS INT) AS bad FROM t",
     "Calc(select=[CAST(_UTF-16LE'abc' AS INTEGER NOT NULL) AS bad])", "Calc(select=[CAST('abc' AS INTEGER) AS bad])"},
};

WTEST(constant_reduction_as_flink_plans_it)
{
    WSession *s = wsession_new(stdout);
    free(explain(s, "CREATE TABLE t (a INT, b INT NOT NULL, s STRING, d DECIMAL(10,2), x DOUBLE, ts TIMESTAMP(3), "
                    "ltz TIMESTAMP_LTZ(3)) WITH ('connector'='datagen')"));
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        char sql[2048];
        snprintf(sql, sizeof sql, "EXPLAIN %s", CASES[i].select);
        char *txt = explain(s, sql);
        CHECK(txt != NULL);
        CHECK_STR(line_after(txt, "== Optimized Physical Plan ==\n"), CASES[i].physical);
        CHECK_STR(line_after(txt, "== Optimized Execution Plan ==\n"), CASES[i].execution);
        free(txt);
    }
    wsession_free(s);
}

WTEST(constant_reduction_uses_runtime_values)
{
    /* the reduced literal is the value the expression has at run time */
    WSession *s = wsession_new(stdout);
    free(explain(s, "CREATE TABLE t (a INT) WITH ('connector'='datagen')"));
    char *txt = explain(s, "EXPLAIN SELECT a, 7 / 2 AS q, 7 % 3 AS m, 'ab' || UPPER('c') AS s FROM t");
    CHECK_STR(line_after(txt, "== Optimized Execution Plan ==\n"), "Calc(select=[a, 3 AS q, 1 AS m, 'abC' AS s])");
    free(txt);
    wsession_free(s);
}
