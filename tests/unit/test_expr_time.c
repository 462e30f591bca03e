/* test_expr_time.c — unit tests for the temporal functions of src/expr, including session time
   zones (TIMESTAMP_LTZ, FROM_UNIXTIME, UNIX_TIMESTAMP, clock functions). */
#include "test_expr_util.h"

#define EVAL(e, name, n, ...) t_eval(e, t_call(e, name, n, __VA_ARGS__))
#define TYPE(e, name, n, ...) t_type(e, t_call(e, name, n, __VA_ARGS__))

WTEST(expr_time_extract_parts)
{
    TEnv e;
    tenv_init(&e, NULL);
    WExpr *d = t_date(&e, "1994-09-27");
    CHECK_STR(EVAL(&e, "YEAR", 1, d), "1994");
    CHECK_STR(TYPE(&e, "YEAR", 1, d), "BIGINT NOT NULL");
    CHECK_STR(EVAL(&e, "QUARTER", 1, d), "3");
    CHECK_STR(EVAL(&e, "MONTH", 1, d), "9");
    CHECK_STR(EVAL(&e, "WEEK", 1, d), "39");
    CHECK_STR(EVAL(&e, "DAYOFYEAR", 1, d), "270");
    CHECK_STR(EVAL(&e, "DAYOFMONTH", 1, d), "27");
    CHECK_STR(EVAL(&e, "DAYOFWEEK", 1, d), "3");
    WExpr *ts = t_ts(&e, "1994-09-27 13:14:15.123", 3);
    CHECK_STR(EVAL(&e, "HOUR", 1, ts), "13");
    CHECK_STR(EVAL(&e, "MINUTE", 1, ts), "14");
    CHECK_STR(EVAL(&e, "SECOND", 1, ts), "15");
    CHECK_STR(EVAL(&e, "EXTRACT", 2, t_str(&e, "MILLISECOND"), ts), "123");
    CHECK_STR(EVAL(&e, "EXTRACT", 2, t_str(&e, "DAY"), t_date(&e, "2006-06-05")), "5");
    CHECK_STR(EVAL(&e, "EXTRACT", 2, t_str(&e, "DOW"), t_date(&e, "2024-06-02")), "1");       /* Sunday */
    CHECK_STR(EVAL(&e, "EXTRACT", 2, t_str(&e, "ISODOW"), t_date(&e, "2024-06-02")), "7");
    CHECK_STR(EVAL(&e, "EXTRACT", 2, t_str(&e, "WEEK"), t_date(&e, "2021-01-01")), "53");
    CHECK_STR(EVAL(&e, "EXTRACT", 2, t_str(&e, "ISOYEAR"), t_date(&e, "2021-01-01")), "2020");
    CHECK_STR(EVAL(&e, "EXTRACT", 2, t_str(&e, "CENTURY"), t_date(&e, "2000-12-31")), "20");
    CHECK_STR(EVAL(&e, "EXTRACT", 2, t_str(&e, "EPOCH"), t_ts(&e, "1970-01-02 00:00:01", 0)), "86401");
    CHECK_STR(EVAL(&e, "EXTRACT", 2, t_str(&e, "YEAR"), t_ts(&e, "1969-12-31 23:00:00", 0)), "1969");
    CHECK_STR(EVAL(&e, "EXTRACT", 2, t_str(&e, "HOUR"), t_ts(&e, "1969-12-31 23:00:00", 0)), "23");
    CHECK_STR(EVAL(&e, "EXTRACT", 2, t_str(&e, "FORTNIGHT"), ts),
              "ERR:org.apache.calcite.sql.validate.SqlValidatorException: 'FORTNIGHT' is not a valid time frame");
    WExpr *iv = t_lit(&e, wtype_interval(e.a, WT_INTERVAL_YM, WIQ_YEAR_TO_MONTH, 2, 0, false), WDATUM_I(27));
    CHECK_STR(EVAL(&e, "EXTRACT", 2, t_str(&e, "YEAR"), iv), "2");
    CHECK_STR(EVAL(&e, "EXTRACT", 2, t_str(&e, "MONTH"), iv), "3");
    tenv_free(&e);
}

WTEST(expr_time_ltz_in_session_zone)
{
    TEnv e;
    tenv_init(&e, "Asia/Shanghai");
    if (!e.tz) { tenv_free(&e); return; }   /* no tzdata on this machine */
    WExpr *ltz = t_call(&e, "TO_TIMESTAMP_LTZ", 2, t_int(&e, 0), t_int(&e, 0));
    CHECK_STR(t_type(&e, ltz), "TIMESTAMP_LTZ(3)");
    CHECK_STR(EVAL(&e, "HOUR", 1, ltz), "8");
    CHECK_STR(EVAL(&e, "FROM_UNIXTIME", 1, t_bigint(&e, 44)), "1970-01-01 08:00:44");
    CHECK_STR(EVAL(&e, "DATE_FORMAT", 2, t_ltz(&e, 0), t_str(&e, "yyyy-MM-dd HH:mm")), "1970-01-01 08:00");
    /* FLOOR of an LTZ to DAY is midnight in the session zone */
    CHECK_STR(EVAL(&e, "FLOOR", 2, t_ltz(&e, 3600000LL * 20), t_str(&e, "DAY")), "1970-01-01 16:00:00.000Z");
    /* clocks */
    CHECK_STR(t_eval(&e, t_call(&e, "CURRENT_TIMESTAMP", 0)), "2023-11-14 22:13:20.123Z");
    CHECK_STR(t_type(&e, t_call(&e, "CURRENT_TIMESTAMP", 0)), "TIMESTAMP_LTZ(3) NOT NULL");
    CHECK_STR(t_eval(&e, t_call(&e, "LOCALTIMESTAMP", 0)), "2023-11-15 06:13:20.123");
    CHECK_STR(t_type(&e, t_call(&e, "LOCALTIMESTAMP", 0)), "TIMESTAMP(3) NOT NULL");
    CHECK_STR(t_eval(&e, t_call(&e, "CURRENT_DATE", 0)), "2023-11-15");
    CHECK_STR(t_eval(&e, t_call(&e, "CURRENT_TIME", 0)), "06:13:20");
    CHECK_STR(t_eval(&e, t_call(&e, "NOW", 0)), "2023-11-14 22:13:20.123Z");
    CHECK_STR(t_eval(&e, t_call(&e, "UNIX_TIMESTAMP", 0)), "1700000000");
    tenv_free(&e);

    tenv_init(&e, "Asia/Tokyo");
    if (e.tz) CHECK_STR(EVAL(&e, "FROM_UNIXTIME", 1, t_bigint(&e, 44)), "1970-01-01 09:00:44");
    tenv_free(&e);

    tenv_init(&e, "Europe/Berlin");
    if (e.tz) {
        CHECK_STR(EVAL(&e, "UNIX_TIMESTAMP", 2, t_str(&e, "1970-01-01 08:00:01.001"), t_str(&e, "yyyy-MM-dd HH:mm:ss.SSS")), "25201");
        CHECK_STR(EVAL(&e, "UNIX_TIMESTAMP", 1, t_str(&e, "garbage")), "-9223372036854775808");
    }
    tenv_free(&e);
}

WTEST(expr_time_floor_ceil)
{
    TEnv e;
    tenv_init(&e, NULL);
    WExpr *ts = t_ts(&e, "2020-05-17 13:14:15.5", 3);
    CHECK_STR(EVAL(&e, "FLOOR", 2, ts, t_str(&e, "HOUR")), "2020-05-17 13:00:00.000");
    CHECK_STR(TYPE(&e, "FLOOR", 2, ts, t_str(&e, "HOUR")), "TIMESTAMP(3) NOT NULL");
    CHECK_STR(EVAL(&e, "FLOOR", 2, ts, t_str(&e, "MONTH")), "2020-05-01 00:00:00.000");
    CHECK_STR(EVAL(&e, "FLOOR", 2, ts, t_str(&e, "YEAR")), "2020-01-01 00:00:00.000");
    CHECK_STR(EVAL(&e, "FLOOR", 2, ts, t_str(&e, "WEEK")), "2020-05-17 00:00:00.000");     /* a Sunday */
    CHECK_STR(EVAL(&e, "FLOOR", 2, ts, t_str(&e, "SECOND")), "2020-05-17 13:14:15.000");
    CHECK_STR(EVAL(&e, "CEIL", 2, ts, t_str(&e, "DAY")), "2020-05-18 00:00:00.000");
    CHECK_STR(EVAL(&e, "CEIL", 2, ts, t_str(&e, "MINUTE")), "2020-05-17 13:15:00.000");
    CHECK_STR(EVAL(&e, "CEIL", 2, ts, t_str(&e, "QUARTER")), "2020-07-01 00:00:00.000");
    CHECK_STR(EVAL(&e, "FLOOR", 2, t_date(&e, "2020-05-17"), t_str(&e, "MONTH")), "2020-05-01");
    WExpr *tm = t_lit(&e, wtype_time(e.a, 0, false), WDATUM_I((12 * 3600 + 44 * 60 + 31) * 1000LL));
    CHECK_STR(EVAL(&e, "FLOOR", 2, tm, t_str(&e, "MINUTE")), "12:44:00");
    CHECK_STR(EVAL(&e, "CEIL", 2, tm, t_str(&e, "MINUTE")), "12:45:00");
    CHECK_STR(EVAL(&e, "FLOOR", 1, t_double(&e, 2.5)), "2");
    tenv_free(&e);
}

WTEST(expr_time_add_diff)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK_STR(EVAL(&e, "TIMESTAMPADD", 3, t_str(&e, "MONTH"), t_int(&e, 1), t_date(&e, "2020-01-31")), "2020-02-29");
    CHECK_STR(EVAL(&e, "TIMESTAMPADD", 3, t_str(&e, "HOUR"), t_int(&e, 25), t_ts(&e, "2020-01-01 00:00:00", 3)),
              "2020-01-02 01:00:00.000");
    CHECK_STR(EVAL(&e, "TIMESTAMPADD", 3, t_str(&e, "WEEK"), t_int(&e, -1), t_date(&e, "2020-01-01")), "2019-12-25");
    CHECK_STR(EVAL(&e, "TIMESTAMPADD", 3, t_str(&e, "HOUR"), t_int(&e, 1), t_date(&e, "2016-06-15")), "2016-06-15 01:00:00");
    CHECK_STR(EVAL(&e, "TIMESTAMPDIFF", 3, t_str(&e, "DAY"), t_ts(&e, "2020-01-01 00:00:00", 3), t_ts(&e, "2020-01-03 12:00:00", 3)), "2");
    CHECK_STR(TYPE(&e, "TIMESTAMPDIFF", 3, t_str(&e, "DAY"), t_ts(&e, "2020-01-01 00:00:00", 3), t_ts(&e, "2020-01-03 12:00:00", 3)), "INT NOT NULL");
    CHECK_STR(EVAL(&e, "TIMESTAMPDIFF", 3, t_str(&e, "HOUR"), t_ts(&e, "2020-01-03 12:00:00", 3), t_ts(&e, "2020-01-01 00:00:00", 3)), "-60");
    CHECK_STR(EVAL(&e, "TIMESTAMPDIFF", 3, t_str(&e, "MONTH"), t_date(&e, "2020-01-31"), t_date(&e, "2020-02-29")), "1");
    CHECK_STR(EVAL(&e, "TIMESTAMPDIFF", 3, t_str(&e, "YEAR"), t_date(&e, "2019-06-01"), t_date(&e, "2020-05-31")), "0");
    CHECK_STR(EVAL(&e, "TIMESTAMPDIFF", 3, t_str(&e, "MONTH"), t_ts(&e, "2020-01-15 10:00:00", 3), t_ts(&e, "2020-02-15 09:00:00", 3)), "0");
    tenv_free(&e);
}

WTEST(expr_time_parse_format)
{
    TEnv e;
    tenv_init(&e, NULL);
    CHECK_STR(EVAL(&e, "TO_TIMESTAMP", 1, t_str(&e, "2020-01-01 10:20:30")), "2020-01-01 10:20:30.000");
    CHECK_STR(TYPE(&e, "TO_TIMESTAMP", 1, t_str(&e, "2020-01-01 10:20:30")), "TIMESTAMP(3)");
    CHECK_STR(EVAL(&e, "TO_TIMESTAMP", 2, t_str(&e, "20200101"), t_str(&e, "yyyyMMdd")), "2020-01-01 00:00:00.000");
    CHECK_STR(EVAL(&e, "TO_TIMESTAMP", 1, t_str(&e, "bad")), "NULL");
    CHECK_STR(EVAL(&e, "TO_DATE", 1, t_str(&e, "2020-02-29")), "2020-02-29");
    CHECK_STR(EVAL(&e, "TO_DATE", 1, t_str(&e, "2020-02-30")), "NULL");
    CHECK_STR(EVAL(&e, "TO_DATE", 2, t_str(&e, "01/02/2020"), t_str(&e, "MM/dd/yyyy")), "2020-01-02");
    CHECK_STR(EVAL(&e, "TO_TIMESTAMP_LTZ", 2, t_bigint(&e, 1000), t_int(&e, 3)), "1970-01-01 00:00:01.000Z");
    CHECK_STR(EVAL(&e, "TO_TIMESTAMP_LTZ", 2, t_bigint(&e, 1), t_int(&e, 0)), "1970-01-01 00:00:01.000Z");
    CHECK_STR(EVAL(&e, "TO_TIMESTAMP_LTZ", 2, t_dec(&e, 15, 2, 1), t_int(&e, 0)), "1970-01-01 00:00:01.000Z");
    CHECK_STR(EVAL(&e, "TO_TIMESTAMP_LTZ", 2, t_bigint(&e, 1), t_int(&e, 2)),
              "ERR:org.apache.flink.table.api.TableException: The precision value '2' for function "
              "TO_TIMESTAMP_LTZ(numeric, precision) is unsupported, the supported value is '0' for second or '3' for millisecond.");
    CHECK_STR(EVAL(&e, "TO_TIMESTAMP_LTZ", 2, t_bigint(&e, 253402300800LL), t_int(&e, 0)), "NULL");
    CHECK_STR(EVAL(&e, "FROM_UNIXTIME", 1, t_bigint(&e, 44)), "1970-01-01 00:00:44");
    CHECK_STR(EVAL(&e, "FROM_UNIXTIME", 2, t_bigint(&e, 86400), t_str(&e, "yyyyMMdd")), "19700102");
    CHECK_STR(EVAL(&e, "DATE_FORMAT", 2, t_ts(&e, "2020-01-02 03:04:05", 0), t_str(&e, "yyyy/MM/dd HH")), "2020/01/02 03");
    CHECK_STR(EVAL(&e, "DATE_FORMAT", 2, t_str(&e, "2020-01-02 03:04:05"), t_str(&e, "yyyyMMdd")), "20200102");
    CHECK_STR(EVAL(&e, "DATE_FORMAT", 2, t_str(&e, "nope"), t_str(&e, "yyyyMMdd")), "NULL");
    CHECK_STR(EVAL(&e, "UNIX_TIMESTAMP", 1, t_str(&e, "1970-01-01 00:01:00")), "60");
    CHECK_STR(EVAL(&e, "CONVERT_TZ", 3, t_str(&e, "1970-01-01 00:00:00"), t_str(&e, "UTC"), t_str(&e, "America/Los_Angeles")),
              "1969-12-31 16:00:00");
    tenv_free(&e);
}
