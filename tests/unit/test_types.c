/* test_types.c — unit tests for src/types: dates, zones, formatting, casts, compare, binary rows. */
#include "unit.h"
#include <math.h>
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

/* ---------------------------------------------------------------- helpers */

static const char *sqls(WArena *a, const WType *t, WDatum v, const WTimeZone *tz)
{
    WStrBuf sb;
    wsb_init(&sb);
    wfmt_sql(t, v, false, tz, &sb);
    char *r = wa_strdup(a, sb.buf);
    wsb_free(&sb);
    return r;
}

static const char *javas(WArena *a, const WType *t, WDatum v, bool is_null)
{
    WStrBuf sb;
    wsb_init(&sb);
    wfmt_java(t, v, is_null, NULL, &sb);
    char *r = wa_strdup(a, sb.buf);
    wsb_free(&sb);
    return r;
}

static const char *dj(double d) { static char b[8][40]; static int k; k = (k + 1) % 8; wfmt_double_java(d, b[k]); return b[k]; }
static const char *fj(float f) { static char b[8][40]; static int k; k = (k + 1) % 8; wfmt_float_java(f, b[k]); return b[k]; }

static WDatum dstr(const char *s) { WDatum d; d.s.p = s; d.s.len = (int)strlen(s); return d; }

/* CAST(text AS t) -> rendered with wfmt_sql, or "ERR:<cls>: <msg>", or "NULL" */
static const char *cast_text(WArena *a, const char *s, const WType *t, const WTimeZone *tz)
{
    WCastCtx ctx = { tz, false };
    WError e;
    werr_clear(&e);
    WDatum out;
    WCastResult r = wcast_from_text_ex(&ctx, s, (int)strlen(s), t, &out, a, &e);
    if (r == WCAST_ERROR) return wa_sprintf(a, "ERR:%s: %s", e.cls, e.msg);
    if (r == WCAST_NULL) return "NULL";
    return sqls(a, t, out, tz);
}

static const char *cast_val(WArena *a, const WType *from, WDatum v, const WType *t, const WTimeZone *tz)
{
    WCastCtx ctx = { tz, false };
    WError e;
    werr_clear(&e);
    WDatum out;
    WCastResult r = wcast_datum_ex(&ctx, from, v, t, &out, a, &e);
    if (r == WCAST_ERROR) return wa_sprintf(a, "ERR:%s: %s", e.cls, e.msg);
    if (r == WCAST_NULL) return "NULL";
    return sqls(a, t, out, tz);
}

/* ---------------------------------------------------------------- dates */

WTEST(types_date_math)
{
    CHECK(wdate_valid(2000, 2, 29));
    CHECK(!wdate_valid(1900, 2, 29));
    CHECK(!wdate_valid(2021, 4, 31));
    CHECK_INT(wdate_days_in_month(2024, 2), 29);
    CHECK_INT(wdate_from_ymd(2021, 9, 24), 18894);
    CHECK_INT(wdate_from_ymd(1, 1, 1), -719162);
    for (int64_t d = -800000; d < 3000000; d += 997) {
        int y, m, dd;
        wdate_to_ymd(d, &y, &m, &dd);
        CHECK(wdate_valid(y, m, dd));
        if (wdate_from_ymd(y, m, dd) != d) { CHECK(false); break; }
    }
    char b[48];
    wfmt_date(wdate_from_ymd(2021, 9, 24), b); CHECK_STR(b, "2021-09-24");
    wfmt_date(wdate_from_ymd(123, 1, 1), b); CHECK_STR(b, "0123-01-01");
    wfmt_date(wdate_from_ymd(-1, 1, 1), b); CHECK_STR(b, "-0001-01-01");
    wfmt_date(wdate_from_ymd(10000, 1, 1), b); CHECK_STR(b, "+10000-01-01");
}

WTEST(types_parse_date_time)
{
    int64_t d, t;
    CHECK(wparse_date("2021-09-27", 10, &d)); CHECK_INT(d, wdate_from_ymd(2021, 9, 27));
    CHECK(wparse_date("2021-9-7", 8, &d)); CHECK_INT(d, wdate_from_ymd(2021, 9, 7));
    CHECK(wparse_date("123", 3, &d)); CHECK_INT(d, wdate_from_ymd(123, 1, 1));
    CHECK(wparse_date("2021-09-27 12:34:56.123456789", 29, &d)); CHECK_INT(d, wdate_from_ymd(2021, 9, 27));
    CHECK(!wparse_date("2021/09/27", 10, &d));
    CHECK(!wparse_date("2021-02-30", 10, &d));
    CHECK(!wparse_date("", 0, &d));
    CHECK(!wparse_date("foo", 3, &d));
    CHECK(wparse_time("10:00:01", 8, &t)); CHECK_INT(t, 36001000);
    CHECK(wparse_time("12:34:56.123456789", 18, &t)); CHECK_INT(t, 45296123);
    CHECK(wparse_time("12:34:56.1236", 13, &t)); CHECK_INT(t, 45296124);
    CHECK(wparse_time("12:34", 5, &t)); CHECK_INT(t, 45240000);
    CHECK(!wparse_time("Flink", 5, &t));
    CHECK(!wparse_time("2021-09-27", 10, &t));
}

WTEST(types_parse_timestamp)
{
    WTimestamp ts;
    CHECK(wparse_timestamp("2020-01-01 10:00:00", 19, &ts));
    CHECK_INT(ts.ms, 1577872800000LL); CHECK_INT(ts.ns, 0);
    CHECK(wparse_timestamp("2020-01-01T10:00:00", 19, &ts));
    CHECK_INT(ts.ms, 1577872800000LL);
    CHECK(wparse_timestamp("2021-09-27 12:34:56.123456789", 29, &ts));
    CHECK_INT(ts.ms % 1000, 123); CHECK_INT(ts.ns, 456789);
    CHECK(wparse_timestamp("2021-09-27", 10, &ts));
    CHECK_INT(ts.ms, wdate_from_ymd(2021, 9, 27) * 86400000LL);
    CHECK(wparse_timestamp("1999-9-10 5:20:10", 17, &ts));
    CHECK(wparse_timestamp("2020-01-01 10:00:00.1", 21, &ts)); CHECK_INT(ts.ms % 1000, 100);
    CHECK(!wparse_timestamp("123", 3, &ts));
    CHECK(!wparse_timestamp("2021/09/27", 10, &ts));
    CHECK(!wparse_timestamp("2021-13-01", 10, &ts));
    CHECK(!wparse_timestamp("2021-09-27 25:00:00", 19, &ts));
    CHECK(!wparse_timestamp("2021-09-27 10:00:00x", 20, &ts));
    /* SMART resolution clamps Feb 30 */
    CHECK(wparse_timestamp("2021-02-30 00:00:00", 19, &ts));
    CHECK_INT(ts.ms, wdate_from_ymd(2021, 2, 28) * 86400000LL);
}

WTEST(types_format_timestamps)
{
    char b[64];
    WTimestamp ts = { 1618344731123LL, 456789 };   /* 2021-04-13 20:12:11.123456789 */
    wfmt_timestamp(ts, 9, b); CHECK_STR(b, "2021-04-13 20:12:11.123456789");
    wfmt_timestamp(ts, 3, b); CHECK_STR(b, "2021-04-13 20:12:11.123");
    wfmt_timestamp(ts, 0, b); CHECK_STR(b, "2021-04-13 20:12:11");
    wfmt_timestamp_java(ts, b); CHECK_STR(b, "2021-04-13T20:12:11.123456789");
    WTimestamp t2 = { 1602288000000LL, 0 };     /* 2020-10-10 00:00 */
    wfmt_timestamp_java(t2, b); CHECK_STR(b, "2020-10-10T00:00");
    t2.ms += 5000;
    wfmt_timestamp_java(t2, b); CHECK_STR(b, "2020-10-10T00:00:05");
    WTimestamp t3 = { 60000, 0 };
    wfmt_timestamp_java(t3, b); CHECK_STR(b, "1970-01-01T00:01");
    WTimestamp t4 = { 100, 0 };
    wfmt_timestamp_java(t4, b); CHECK_STR(b, "1970-01-01T00:00:00.100");
    WTimestamp t5 = { 0, 1000 };
    wfmt_timestamp_java(t5, b); CHECK_STR(b, "1970-01-01T00:00:00.000001");
    WTimestamp t6 = { -1, 0 };
    wfmt_timestamp(t6, 3, b); CHECK_STR(b, "1969-12-31 23:59:59.999");
    wfmt_time(45296123, 0, b); CHECK_STR(b, "12:34:56");
    wfmt_time(45296123, 3, b); CHECK_STR(b, "12:34:56.123");
    wfmt_time(45296123, 5, b); CHECK_STR(b, "12:34:56.12300");
    wfmt_time_java(45240000, b); CHECK_STR(b, "12:34");
    wfmt_time_java(45296123, b); CHECK_STR(b, "12:34:56.123");
}

WTEST(types_patterns)
{
    char b[128];
    WTimestamp ts = { 1618344731123LL, 0 };   /* 2021-04-13 20:12:11.123, a Tuesday */
    wfmt_pattern(ts, "yyyy-MM-dd HH:mm:ss", b, sizeof b); CHECK_STR(b, "2021-04-13 20:12:11");
    wfmt_pattern(ts, "yyyyMMdd", b, sizeof b); CHECK_STR(b, "20210413");
    wfmt_pattern(ts, "yy/M/d h:mm a", b, sizeof b); CHECK_STR(b, "21/4/13 8:12 PM");
    wfmt_pattern(ts, "EEE, dd MMM yyyy HH:mm:ss.SSS", b, sizeof b); CHECK_STR(b, "Tue, 13 Apr 2021 20:12:11.123");
    wfmt_pattern(ts, "EEEE MMMM", b, sizeof b); CHECK_STR(b, "Tuesday April");
    wfmt_pattern(ts, "yyyy-MM-dd'T'HH:mm:ss'Z'", b, sizeof b); CHECK_STR(b, "2021-04-13T20:12:11Z");
    wfmt_pattern(ts, "'It''s' H", b, sizeof b); CHECK_STR(b, "It's 20");
    /* numbers as "%0*lld": zero-padded to the letters' count, the sign inside the width, 31
       characters at the most */
    wfmt_pattern(ts, "yyyyyy SSSS HHH y", b, sizeof b); CHECK_STR(b, "002021 0123 020 2021");
    WTimestamp bc = { (wdate_from_ymd(-44, 3, 15)) * 86400000LL, 0 };
    wfmt_pattern(bc, "yyyy|yyyyyy|y|yy", b, sizeof b); CHECK_STR(b, "-044|-00044|-44|56");
    wfmt_pattern(ts, "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy", b, sizeof b);
    CHECK_STR(b, "0000000000000000000000000000000");
    /* the finest unit a pattern reads (DATE_FORMAT reuses the text within it); quoted letters
       and unknown ones are constant */
    CHECK_INT(wfmt_pattern_unit_ms("yyyy-MM-dd"), 86400000);
    CHECK_INT(wfmt_pattern_unit_ms("HH:mm"), 60000);
    CHECK_INT(wfmt_pattern_unit_ms("yyyy-MM-dd HH:mm:ss"), 1000);
    CHECK_INT(wfmt_pattern_unit_ms("ss.SSS"), 1);
    CHECK_INT(wfmt_pattern_unit_ms("h a"), 3600000);
    CHECK_INT(wfmt_pattern_unit_ms("yyyy'T''s'"), 86400000);
    CHECK_INT(wfmt_pattern_unit_ms("yyyy'it''s' m"), 60000);
    CHECK_INT(wfmt_pattern_unit_ms("''m"), 60000);
    CHECK_INT(wfmt_pattern_unit_ms("'unclosed m"), 86400000);
    CHECK_INT(wfmt_pattern_unit_ms("dd Z X z w"), 86400000);
    WTimestamp out;
    CHECK(wparse_pattern("2021-04-13 20:12:11", 19, "yyyy-MM-dd HH:mm:ss", &out));
    CHECK_INT(out.ms, 1618344731000LL);
    CHECK(wparse_pattern("20210413", 8, "yyyyMMdd", &out));
    CHECK_INT(out.ms, wdate_from_ymd(2021, 4, 13) * 86400000LL);
    CHECK(wparse_pattern("13/Apr/2021:08:12:11 PM", 23, "dd/MMM/yyyy:hh:mm:ss a", &out));
    CHECK_INT(out.ms, 1618344731000LL);
    CHECK(wparse_pattern("2021-04-13 20:12:11.123", 23, "yyyy-MM-dd HH:mm:ss.SSS", &out));
    CHECK_INT(out.ms, 1618344731123LL);
    CHECK(!wparse_pattern("2021/04/13", 10, "yyyy-MM-dd", &out));
    CHECK(!wparse_pattern("abc", 3, "yyyy", &out));
}

/* ---------------------------------------------------------------- time zones */

WTEST(types_timezones)
{
    WError e;
    werr_clear(&e);
    WTimeZone *sh = wtz_load("Asia/Shanghai", &e);
    CHECK(sh != NULL);
    CHECK_STR(wtz_id(sh), "Asia/Shanghai");
    CHECK_INT(wtz_offset_at_instant(sh, 0), 8 * 3600);
    CHECK_INT(wtz_offset_at_instant(sh, 1618344731000LL), 8 * 3600);
    /* China observed DST in 1988: July 1988 was +09:00 */
    CHECK_INT(wtz_offset_at_instant(sh, 584000000000LL), 9 * 3600);
    WTimeZone *ny = wtz_load("America/New_York", &e);
    CHECK(ny != NULL);
    CHECK_INT(wtz_offset_at_instant(ny, 1610000000000LL), -5 * 3600);   /* Jan 2021 */
    CHECK_INT(wtz_offset_at_instant(ny, 1625000000000LL), -4 * 3600);   /* Jun 2021 */
    /* far future uses the POSIX footer rule */
    CHECK_INT(wtz_offset_at_instant(ny, 4102444800000LL + 180LL * 86400000), -4 * 3600);  /* mid 2100 */
    CHECK_INT(wtz_offset_at_instant(ny, 4102444800000LL), -5 * 3600);   /* 2100-01-01 */
    /* DST start 2021-03-14 02:00 local -> 07:00Z */
    CHECK_INT(wtz_offset_at_instant(ny, 1615705200000LL - 1), -5 * 3600);
    CHECK_INT(wtz_offset_at_instant(ny, 1615705200000LL), -4 * 3600);
    /* local times: gap 02:30 on 2021-03-14 shifts forward (instant as with -5) */
    int64_t gap_local = (wdate_from_ymd(2021, 3, 14) * 86400 + 2 * 3600 + 1800) * 1000LL;
    CHECK_INT(wtz_offset_for_local(ny, gap_local), -5 * 3600);
    /* overlap 01:30 on 2021-11-07: earlier offset (-4) */
    int64_t ov_local = (wdate_from_ymd(2021, 11, 7) * 86400 + 1 * 3600 + 1800) * 1000LL;
    CHECK_INT(wtz_offset_for_local(ny, ov_local), -4 * 3600);
    int64_t noon = (wdate_from_ymd(2021, 7, 1) * 86400 + 12 * 3600) * 1000LL;
    CHECK_INT(wtz_offset_for_local(ny, noon), -4 * 3600);
    wtz_free(sh);
    wtz_free(ny);

    WTimeZone *f = wtz_load("GMT+08:00", &e);
    CHECK(f != NULL); CHECK_INT(wtz_offset_at_instant(f, 0), 8 * 3600); wtz_free(f);
    f = wtz_load("+05:30", &e);
    CHECK(f != NULL); CHECK_INT(wtz_offset_at_instant(f, 0), 5 * 3600 + 1800); wtz_free(f);
    f = wtz_load("UTC", &e);
    CHECK(f != NULL); CHECK_INT(wtz_offset_at_instant(f, 123456), 0); wtz_free(f);
    f = wtz_load("GMT-8", &e);
    CHECK(f != NULL); CHECK_INT(wtz_offset_at_instant(f, 0), -8 * 3600); wtz_free(f);
    CHECK(!e.set);
    CHECK(wtz_load("UTC+8", &e) == NULL);
    CHECK_STR(e.cls, WEXC_VALIDATION);
    CHECK_STR(e.msg, "The supported Zone ID is either a full name such as 'America/Los_Angeles', or a custom "
                     "timezone id such as 'GMT-08:00', but configured Zone ID is 'UTC+8'.");
    werr_clear(&e);
    CHECK(wtz_load("Mars/Olympus", &e) == NULL);
    CHECK(strstr(e.msg, "'Mars/Olympus'") != NULL);
    werr_clear(&e);
    CHECK(wtz_load("PST", &e) == NULL);
    werr_clear(&e);
    CHECK(wtz_load("../../etc/passwd", &e) == NULL);
}

/* ---------------------------------------------------------------- Java number formatting */

WTEST(types_java_double)
{
    CHECK_STR(dj(1.0), "1.0");
    CHECK_STR(dj(2.0), "2.0");
    CHECK_STR(dj(42.1), "42.1");
    CHECK_STR(dj(0.1 + 0.2), "0.30000000000000004");
    CHECK_STR(dj(1e-5), "1.0E-5");
    CHECK_STR(dj(0.001), "0.001");
    CHECK_STR(dj(0.0001), "1.0E-4");
    CHECK_STR(dj(1234567.0), "1234567.0");
    CHECK_STR(dj(1e7), "1.0E7");
    CHECK_STR(dj(1e10), "1.0E10");
    CHECK_STR(dj(123456789.0), "1.23456789E8");
    CHECK_STR(dj(-123.456789), "-123.456789");
    CHECK_STR(dj(0.0), "0.0");
    CHECK_STR(dj(-0.0), "-0.0");
    CHECK_STR(dj(NAN), "NaN");
    CHECK_STR(dj(INFINITY), "Infinity");
    CHECK_STR(dj(-INFINITY), "-Infinity");
    CHECK_STR(dj(1.7976931348623157E308), "1.7976931348623157E308");
    CHECK_STR(dj(4.9E-324), "4.9E-324");
    CHECK_STR(dj(100.0), "100.0");
    CHECK_STR(dj(0.3), "0.3");
    CHECK_STR(dj(1e23), "1.0E23");
    CHECK_STR(dj(9999999.0), "9999999.0");
    CHECK_STR(dj(0.00123), "0.00123");
    CHECK_STR(dj(2.5e-3), "0.0025");
    CHECK_STR(dj(3.276913443134E12), "3.276913443134E12");
    CHECK_STR(dj(1.2345678912345679E8), "1.2345678912345679E8");
    CHECK_STR(fj(123.456f), "123.456");
    CHECK_STR(fj(-3.27691403E12f), "-3.276914E12");
    CHECK_STR(fj(1.0e-36f), "1.0E-36");
    CHECK_STR(fj(1.4E-45f), "1.4E-45");
    CHECK_STR(fj(1.0f), "1.0");
    CHECK_STR(fj(0.1f), "0.1");
    CHECK_STR(fj(1.0e10f), "1.0E10");
    CHECK_STR(fj(3.4028235E38f), "3.4028235E38");
}

/* A non-compact DECIMAL's variable-part bytes (wrow_dec_put/get) are BigInteger.toByteArray's
   minimal two's complement, and read back; the row encoder writes the same. */
WTEST(types_row_wide_decimal_bytes)
{
    const __int128 m38 = wpow10_i128(38) - 1, top = (__int128)(((unsigned __int128)1 << 127) - 1);
    const __int128 vals[] = {0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, -32768, -32769, INT64_MAX,
                             INT64_MIN, (__int128)INT64_MAX + 1, (__int128)INT64_MIN - 1, m38, -m38, top, -top - 1,
                             (__int128)123456789 * 1000000007 * 1000000009};
    const int want_n[] = {1, 1, 1, 1, 2, 1, 2, 2, 2, 2, 2, 3, 8, 8, 9, 9, 16, 16, 16, 16, 0};
    WArena a;
    warena_init(&a, 0);
    const WType *t = wtype_decimal(&a, 38, 0, true);
    WStrBuf sb;
    wsb_init(&sb);
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        unsigned char b[32];
        memset(b, 0xAA, sizeof b);
        int n = wrow_dec_put(b, vals[i]);
        if (want_n[i]) CHECK_INT(n, want_n[i]);
        for (int k = n; k < 16; k++) CHECK_INT(b[k], 0);
        CHECK(wrow_dec_get(b, n) == vals[i]);
        /* minimal: one byte fewer would not hold the value */
        if (n > 1) CHECK(wrow_dec_get(b + 1, n - 1) != vals[i]);
        WDatum d = {.dec = vals[i]};
        uint8_t nul = 0;
        wrow_encode(&sb, 1, &t, &d, &nul, WRK_INSERT);
        uint64_t slot;
        memcpy(&slot, sb.buf + 8, 8);
        CHECK_INT((int)(uint32_t)slot, n);
        CHECK(memcmp(sb.buf + (slot >> 32), b, 16) == 0);
        WDatum back;
        CHECK(wrow_get(sb.buf, sb.len, 1, t, 0, &back));
        CHECK(back.dec == vals[i]);
    }
    CHECK(wrow_dec_get((const unsigned char *)"\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 0) == 0);
    wsb_free(&sb);
    warena_free(&a);
}

WTEST(types_decimal_format_and_rounding)
{
    char b[64];
    wfmt_decimal(123, 2, b); CHECK_STR(b, "1.23");
    wfmt_decimal(-1234506789, 5, b); CHECK_STR(b, "-12345.06789");
    wfmt_decimal(5, 3, b); CHECK_STR(b, "0.005");
    wfmt_decimal(-5, 3, b); CHECK_STR(b, "-0.005");
    wfmt_decimal(0, 2, b); CHECK_STR(b, "0.00");
    wfmt_decimal(42, 0, b); CHECK_STR(b, "42");
    wfmt_decimal(wpow10_i128(38) - 1, 0, b); CHECK_STR(b, "99999999999999999999999999999999999999");
    __int128 r;
    CHECK(wdec_rescale(125, 2, 1, &r)); CHECK(r == 13);      /* 1.25 -> 1.3 */
    CHECK(wdec_rescale(-125, 2, 1, &r)); CHECK(r == -13);    /* HALF_UP away from zero */
    CHECK(wdec_rescale(124, 2, 1, &r)); CHECK(r == 12);
    CHECK(wdec_rescale(12, 1, 3, &r)); CHECK(r == 1200);
    CHECK(wdec_cast(99999, 0, 5, 0, &r));
    CHECK(!wdec_cast(100000, 0, 5, 0, &r));
    CHECK(!wdec_cast(99995, 1, 4, 0, &r));                   /* 9999.5 -> 10000 overflows */
    bool ni;
    CHECK(wdec_from_double(3.123456, 8, 4, &r, &ni)); CHECK(r == 31235);
    CHECK(wdec_from_double(0.1, 10, 9, &r, &ni)); CHECK(r == 100000000);
    CHECK(!wdec_from_double(12345.678912, 8, 4, &r, &ni)); CHECK(!ni);
    CHECK(!wdec_from_double(NAN, 8, 4, &r, &ni)); CHECK(ni);
    CHECK(wdec_to_double(12345678912345678, 8) == 123456789.12345678);
    CHECK_INT(wdec_to_long(-987, 2), -9);
    int sc;
    CHECK(wdec_parse_java("1.50E+3", 7, &r, &sc)); CHECK(r == 150); CHECK_INT(sc, -1);
    CHECK(!wdec_parse_java("1.5x", 4, &r, &sc));
}

/* ---------------------------------------------------------------- rendering */

WTEST(types_wfmt_sql_scalars)
{
    WArena a;
    warena_init(&a, 0);
    WError e;
    werr_clear(&e);
    WTimeZone *sh = wtz_load("Asia/Shanghai", &e);
    CHECK_STR(sqls(&a, &WTYPE_BOOLEAN, WDATUM_I(1), NULL), "TRUE");
    CHECK_STR(sqls(&a, &WTYPE_BOOLEAN, WDATUM_I(0), NULL), "FALSE");
    CHECK_STR(sqls(&a, &WTYPE_INT, WDATUM_I(-42), NULL), "-42");
    CHECK_STR(sqls(&a, &WTYPE_DOUBLE, WDATUM_D(1e10), NULL), "1.0E10");
    CHECK_STR(sqls(&a, &WTYPE_FLOAT, WDATUM_D((double)123.456f), NULL), "123.456");
    const WType *d105 = wtype_decimal(&a, 10, 5, true);
    WDatum dv; dv.dec = 123000;
    CHECK_STR(sqls(&a, d105, dv, NULL), "1.23000");
    dv.dec = 1234500000;
    CHECK_STR(sqls(&a, d105, dv, NULL), "12345.00000");
    const WType *ts9 = wtype_timestamp(&a, WT_TIMESTAMP, 9, true);
    WDatum tv; tv.ts.ms = 1618348331100LL; tv.ts.ns = 0;
    CHECK_STR(sqls(&a, ts9, tv, NULL), "2021-04-13 21:12:11.100000000");
    const WType *ltz3 = wtype_timestamp(&a, WT_TIMESTAMP_LTZ, 3, true);
    WDatum lv; lv.ts.ms = 1000; lv.ts.ns = 0;
    CHECK_STR(sqls(&a, ltz3, lv, sh), "1970-01-01 08:00:01.000");
    CHECK_STR(sqls(&a, ltz3, lv, NULL), "1970-01-01 00:00:01.000");
    const WType *t0 = wtype_time(&a, 0, true);
    CHECK_STR(sqls(&a, t0, WDATUM_I(72731000), NULL), "20:12:11");
    WDatum bv; bv.s.p = "\x32\x33\x34\x85\x36\x5d\x73\x7e"; bv.s.len = 8;
    CHECK_STR(sqls(&a, &WTYPE_BYTES, bv, NULL), "x'32333485365d737e'");
    CHECK_STR(sqls(&a, &WTYPE_STRING, dstr("abc"), NULL), "abc");
    CHECK_STR(sqls(&a, &WTYPE_DATE, WDATUM_I(18894), NULL), "2021-09-24");
    const WType *iday = wtype_interval(&a, WT_INTERVAL_DT, WIQ_DAY, 2, 3, true);
    const WType *iyear = wtype_interval(&a, WT_INTERVAL_YM, WIQ_YEAR, 2, 0, true);
    CHECK_STR(sqls(&a, iday, WDATUM_I(86400000), NULL), "+1 00:00:00.000");
    CHECK_STR(sqls(&a, iday, WDATUM_I(123456789), NULL), "+1 10:17:36.789");
    CHECK_STR(sqls(&a, iday, WDATUM_I(10), NULL), "+0 00:00:00.010");
    CHECK_STR(sqls(&a, iday, WDATUM_I(-86400000), NULL), "-1 00:00:00.000");
    CHECK_STR(sqls(&a, iyear, WDATUM_I(12), NULL), "+1-00");
    CHECK_STR(sqls(&a, iyear, WDATUM_I(123), NULL), "+10-03");
    CHECK_STR(sqls(&a, iyear, WDATUM_I(12334), NULL), "+1027-10");
    CHECK_STR(sqls(&a, iyear, WDATUM_I(5), NULL), "+0-05");
    WStrBuf sb; wsb_init(&sb);
    wfmt_sql(&WTYPE_INT, WDATUM_I(0), true, NULL, &sb);
    CHECK_STR(sb.buf, "NULL");
    wsb_free(&sb);
    wtz_free(sh);
    warena_free(&a);
}

WTEST(types_wfmt_composites)
{
    WArena a;
    warena_init(&a, 0);
    const WType *arr = wtype_array(&a, &WTYPE_INT, true);
    WComposite *c = WA_NEW(&a, WComposite);
    c->n = 3;
    c->vals = WA_ARRAY(&a, WDatum, 3);
    c->nulls = WA_ARRAY(&a, uint8_t, 3);
    c->vals[0].i = 1; c->vals[1].i = 2; c->nulls[2] = 1;
    WDatum v; v.cx = c;
    CHECK_STR(sqls(&a, arr, v, NULL), "[1, 2, NULL]");
    CHECK_STR(javas(&a, arr, v, false), "[1, 2, null]");
    const WType *map = wtype_map(&a, &WTYPE_STRING, &WTYPE_INT, true);
    WComposite *m = WA_NEW(&a, WComposite);
    m->n = 1;
    m->vals = WA_ARRAY(&a, WDatum, 2);
    m->nulls = WA_ARRAY(&a, uint8_t, 2);
    m->vals[0] = dstr("a"); m->vals[1].i = 1;
    v.cx = m;
    CHECK_STR(sqls(&a, map, v, NULL), "{a=1}");
    CHECK_STR(javas(&a, map, v, false), "{a=1}");
    const char *names[] = { "x", "y", "z" };
    const WType *ft[] = { &WTYPE_INT, &WTYPE_STRING, &WTYPE_BOOLEAN };
    const WType *row = wtype_row(&a, 3, names, ft, true);
    WComposite *r = WA_NEW(&a, WComposite);
    r->n = 3;
    r->vals = WA_ARRAY(&a, WDatum, 3);
    r->nulls = WA_ARRAY(&a, uint8_t, 3);
    r->vals[0].i = 1; r->vals[1] = dstr("abc"); r->vals[2].i = 1;
    v.cx = r;
    CHECK_STR(sqls(&a, row, v, NULL), "(1, abc, TRUE)");
    CHECK_STR(javas(&a, row, v, false), "+I[1, abc, true]");
    warena_free(&a);
}

WTEST(types_wfmt_java)
{
    WArena a;
    warena_init(&a, 0);
    CHECK_STR(javas(&a, &WTYPE_INT, WDATUM_I(0), true), "null");
    CHECK_STR(javas(&a, &WTYPE_BOOLEAN, WDATUM_I(1), false), "true");
    CHECK_STR(javas(&a, &WTYPE_DOUBLE, WDATUM_D(2.0), false), "2.0");
    const WType *d2 = wtype_decimal(&a, 10, 2, true);
    WDatum dv; dv.dec = 400;
    CHECK_STR(javas(&a, d2, dv, false), "4.00");
    const WType *d9 = wtype_decimal(&a, 10, 9, true);
    dv.dec = 1;
    CHECK_STR(javas(&a, d9, dv, false), "1E-9");
    const WType *ts3 = wtype_timestamp(&a, WT_TIMESTAMP, 3, true);
    WDatum tv; tv.ts.ms = 1602288000000LL; tv.ts.ns = 0;
    CHECK_STR(javas(&a, ts3, tv, false), "2020-10-10T00:00");
    const WType *ltz = wtype_timestamp(&a, WT_TIMESTAMP_LTZ, 3, true);
    CHECK_STR(javas(&a, ltz, tv, false), "2020-10-10T00:00:00Z");
    tv.ts.ms += 123;
    CHECK_STR(javas(&a, ltz, tv, false), "2020-10-10T00:00:00.123Z");
    WDatum bv; bv.s.p = "\x01\xff"; bv.s.len = 2;
    CHECK_STR(javas(&a, &WTYPE_BYTES, bv, false), "[1, -1]");
    const WType *iday = wtype_interval(&a, WT_INTERVAL_DT, WIQ_DAY, 2, 3, true);
    CHECK_STR(javas(&a, iday, WDATUM_I(36 * 3600000LL), false), "PT36H");
    CHECK_STR(javas(&a, iday, WDATUM_I(1500), false), "PT1.5S");
    const WType *iym = wtype_interval(&a, WT_INTERVAL_YM, WIQ_YEAR_TO_MONTH, 2, 0, true);
    CHECK_STR(javas(&a, iym, WDATUM_I(14), false), "P1Y2M");
    CHECK_STR(javas(&a, iym, WDATUM_I(0), false), "P0D");
    CHECK_STR(javas(&a, &WTYPE_DATE, WDATUM_I(0), false), "1970-01-01");
    warena_free(&a);
}

WTEST(types_display_width)
{
    CHECK_INT(wdisplay_width("abc", 3), 3);
    CHECK_INT(wdisplay_width("", 0), 0);
    CHECK_INT(wdisplay_width("\xe4\xbd\xa0\xe5\xa5\xbd", 6), 4);          /* 你好 */
    CHECK_INT(wdisplay_width("a\xef\xbc\xa1", 4), 3);                     /* a + fullwidth A */
    CHECK_INT(wdisplay_width("\xc3\xa9", 2), 1);                          /* é */
    CHECK_INT(wdisplay_width("\xf0\x9f\x98\x80", 4), 3);                  /* emoji: 2 UTF-16 + wide */
    CHECK_INT(wdisplay_width("\xea\xb0\x80", 3), 2);                      /* Hangul */
}

/* ---------------------------------------------------------------- casts (CastFunctionITCase vectors) */

WTEST(types_cast_from_string_numeric)
{
    WArena a;
    warena_init(&a, 0);
    const WType *ti = &WTYPE_TINYINT;
    CHECK_STR(cast_text(&a, "1.234", &WTYPE_INT, NULL), "1");
    CHECK_STR(cast_text(&a, "123", ti, NULL), "123");
    CHECK_STR(cast_text(&a, "-130", ti, NULL), "ERR:java.lang.NumberFormatException: For input string: '-130'. Overflow.");
    CHECK_STR(cast_text(&a, "-32769", &WTYPE_SMALLINT, NULL), "ERR:java.lang.NumberFormatException: For input string: '-32769'. Overflow.");
    CHECK_STR(cast_text(&a, "-3276913443134", &WTYPE_INT, NULL), "ERR:java.lang.NumberFormatException: For input string: '-3276913443134'. Overflow.");
    CHECK_STR(cast_text(&a, "-3276913443134", &WTYPE_BIGINT, NULL), "-3276913443134");
    CHECK_STR(cast_text(&a, "abc", &WTYPE_INT, NULL), "ERR:java.lang.NumberFormatException: For input string: 'abc'. Invalid character found.");
    CHECK_STR(cast_text(&a, "", &WTYPE_INT, NULL), "ERR:java.lang.NumberFormatException: For input string: ''. Input is empty.");
    CHECK_STR(cast_text(&a, "-", &WTYPE_BIGINT, NULL), "ERR:java.lang.NumberFormatException: For input string: '-'. Input has only positive or negative symbol.");
    CHECK_STR(cast_text(&a, "1.2x", &WTYPE_INT, NULL), "ERR:java.lang.NumberFormatException: For input string: '1.2x'. Invalid character found.");
    CHECK_STR(cast_text(&a, "2147483647", &WTYPE_INT, NULL), "2147483647");
    CHECK_STR(cast_text(&a, "-2147483648", &WTYPE_INT, NULL), "-2147483648");
    CHECK_STR(cast_text(&a, "2147483648", &WTYPE_INT, NULL), "ERR:java.lang.NumberFormatException: For input string: '2147483648'. Overflow.");
    CHECK_STR(cast_text(&a, "9223372036854775807", &WTYPE_BIGINT, NULL), "9223372036854775807");
    CHECK_STR(cast_text(&a, "-9223372036854775808", &WTYPE_BIGINT, NULL), "-9223372036854775808");
    CHECK_STR(cast_text(&a, "9223372036854775808", &WTYPE_BIGINT, NULL), "ERR:java.lang.NumberFormatException: For input string: '9223372036854775808'. Overflow.");
    CHECK_STR(cast_text(&a, "+7", &WTYPE_INT, NULL), "7");
    CHECK_STR(cast_text(&a, "  42 ", &WTYPE_INT, NULL), "42");
    CHECK_STR(cast_text(&a, " 4 2 ", &WTYPE_INT, NULL), "ERR:java.lang.NumberFormatException: For input string: '4 2'. Invalid character found.");
    CHECK_STR(cast_text(&a, "1.234", &WTYPE_DOUBLE, NULL), "1.234");
    CHECK_STR(cast_text(&a, "-3276913443134", &WTYPE_DOUBLE, NULL), "-3.276913443134E12");
    CHECK_STR(cast_text(&a, "-3276913443134", &WTYPE_FLOAT, NULL), "-3.2769135E12");
    CHECK_STR(cast_text(&a, " 1e3 ", &WTYPE_DOUBLE, NULL), "1000.0");
    CHECK_STR(cast_text(&a, "NaN", &WTYPE_DOUBLE, NULL), "NaN");
    CHECK_STR(cast_text(&a, "-Infinity", &WTYPE_DOUBLE, NULL), "-Infinity");
    CHECK_STR(cast_text(&a, "1.5d", &WTYPE_DOUBLE, NULL), "1.5");
    CHECK_STR(cast_text(&a, "Apache", &WTYPE_DOUBLE, NULL), "ERR:java.lang.NumberFormatException: For input string: \"Apache\"");
    CHECK_STR(cast_text(&a, "", &WTYPE_DOUBLE, NULL), "ERR:java.lang.NumberFormatException: empty String");
    warena_free(&a);
}

WTEST(types_cast_from_string_decimal)
{
    WArena a;
    warena_init(&a, 0);
    const WType *d53 = wtype_decimal(&a, 5, 3, true);
    const WType *d84 = wtype_decimal(&a, 8, 4, true);
    const WType *d3818 = wtype_decimal(&a, 38, 18, true);
    CHECK_STR(cast_text(&a, "1.234", d53, NULL), "1.234");
    CHECK_STR(cast_text(&a, "1.2", d53, NULL), "1.200");
    CHECK_STR(cast_text(&a, "1.2345", d53, NULL), "1.235");
    CHECK_STR(cast_text(&a, "-1.2345", d53, NULL), "-1.235");
    CHECK_STR(cast_text(&a, " 1.5e1 ", d53, NULL), "15.000");
    CHECK_STR(cast_text(&a, "12345.6789", d84, NULL), "ERR:java.lang.NumberFormatException: For input string: '12345.6789'. Overflow.");
    CHECK_STR(cast_text(&a, "foo", d53, NULL), "ERR:java.lang.NumberFormatException: For input string: 'foo'. Overflow.");
    CHECK_STR(cast_text(&a, "123456789012345678.123456789012345678", d3818, NULL), "123456789012345678.123456789012345678");
    CHECK_STR(cast_text(&a, "-0.0000000000000000005", d3818, NULL), "-0.000000000000000001");
    CHECK(strncmp(cast_text(&a, "1x2345678901234567890", d3818, NULL), "ERR:java.lang.NumberFormatException", 35) == 0);
    CHECK_STR(cast_text(&a, "1e30", d3818, NULL), "ERR:java.lang.NumberFormatException: For input string: '1e30'. Overflow.");
    warena_free(&a);
}

WTEST(types_cast_from_string_other)
{
    WArena a;
    warena_init(&a, 0);
    WError e;
    werr_clear(&e);
    WTimeZone *sh = wtz_load("Asia/Shanghai", &e);
    CHECK_STR(cast_text(&a, "true", &WTYPE_BOOLEAN, NULL), "TRUE");
    CHECK_STR(cast_text(&a, "FalsE", &WTYPE_BOOLEAN, NULL), "FALSE");
    CHECK_STR(cast_text(&a, "yes", &WTYPE_BOOLEAN, NULL), "TRUE");
    CHECK_STR(cast_text(&a, "0", &WTYPE_BOOLEAN, NULL), "FALSE");
    CHECK_STR(cast_text(&a, "foo", &WTYPE_BOOLEAN, NULL), "ERR:org.apache.flink.table.api.TableException: Cannot parse 'foo' as BOOLEAN.");
    CHECK_STR(cast_text(&a, "", &WTYPE_BOOLEAN, NULL), "ERR:org.apache.flink.table.api.TableException: Cannot parse '' as BOOLEAN.");
    CHECK_STR(cast_text(&a, "2021-09-27", &WTYPE_DATE, NULL), "2021-09-27");
    CHECK_STR(cast_text(&a, "123", &WTYPE_DATE, NULL), "0123-01-01");
    CHECK_STR(cast_text(&a, "2021/09/27", &WTYPE_DATE, NULL), "ERR:java.time.DateTimeException: For input string: '2021/09/27'.");
    const WType *t0 = wtype_time(&a, 0, true);
    CHECK_STR(cast_text(&a, "12:34:56.123456789", t0, NULL), "12:34:56");
    /* Flink 2.3's message (measured by tests/flink/functions) */
    CHECK_STR(cast_text(&a, "Flink", t0, NULL), "ERR:java.time.DateTimeException: Invalid time format: 'Flink'. "
              "Expected format: HH:mm:ss[.fff] where HH is 00-23, mm is 00-59, ss is 00-59");
    const WType *ts9 = wtype_timestamp(&a, WT_TIMESTAMP, 9, true);
    const WType *ts3 = wtype_timestamp(&a, WT_TIMESTAMP, 3, true);
    const WType *ts0 = wtype_timestamp(&a, WT_TIMESTAMP, 0, true);
    CHECK_STR(cast_text(&a, "2021-09-27", ts9, NULL), "2021-09-27 00:00:00.000000000");
    CHECK_STR(cast_text(&a, "2021-09-27 12:34:56.123456789", ts9, NULL), "2021-09-27 12:34:56.123456789");
    CHECK_STR(cast_text(&a, "2021-09-27 12:34:56.123456789", ts3, NULL), "2021-09-27 12:34:56.123");
    CHECK_STR(cast_text(&a, "2021-09-27 12:34:56.9", ts0, NULL), "2021-09-27 12:34:56");
    CHECK_STR(cast_text(&a, "123", ts9, NULL), "ERR:java.time.format.DateTimeParseException: Text '123' could not be parsed at index 0");
    CHECK_STR(cast_text(&a, "2021/09/27", ts9, NULL), "ERR:java.time.format.DateTimeParseException: Text '2021/09/27' could not be parsed at index 4");
    CHECK_STR(cast_text(&a, "2021-13-01", ts9, NULL), "ERR:java.time.format.DateTimeParseException: Text '2021-13-01' could not be parsed: Invalid value for MonthOfYear (valid values 1 - 12): 13");
    const WType *ltz9 = wtype_timestamp(&a, WT_TIMESTAMP_LTZ, 9, true);
    WCastCtx ctx = { sh, false };
    WDatum out;
    CHECK(wcast_from_text(&ctx, "2021-09-27 12:34:56.123", 23, ltz9, &out, &a, &e));
    CHECK_INT(out.ts.ms, 1632717296123LL);    /* 04:34:56.123Z */
    CHECK_STR(cast_text(&a, "2021-09-27 12:34:56.123", ltz9, sh), "2021-09-27 12:34:56.123000000");
    /* CHAR/VARCHAR */
    const WType *c5 = wtype_char(&a, 5, true), *v3 = wtype_varchar(&a, 3, true), *c3 = wtype_char(&a, 3, true);
    CHECK_STR(cast_text(&a, "foo", c5, NULL), "foo  ");
    CHECK_STR(cast_text(&a, "abcdef", v3, NULL), "abc");
    CHECK_STR(cast_text(&a, "abcdef", c3, NULL), "abc");
    CHECK_STR(cast_text(&a, "\xe4\xbd\xa0\xe5\xa5\xbd\xe5\x90\x97!", v3, NULL), "\xe4\xbd\xa0\xe5\xa5\xbd\xe5\x90\x97");
    CHECK_STR(cast_text(&a, "Apache Flink", &WTYPE_STRING, NULL), "Apache Flink");
    /* BINARY */
    const WType *b2 = wtype_new(&a, WT_BINARY, true);
    ((WType *)b2)->precision = 4;
    CHECK_STR(cast_text(&a, "ab", b2, NULL), "x'61620000'");
    CHECK_STR(cast_text(&a, "abcdef", b2, NULL), "x'61626364'");
    CHECK_STR(cast_text(&a, "ab", &WTYPE_BYTES, NULL), "x'6162'");
    wtz_free(sh);
    warena_free(&a);
}

WTEST(types_cast_numeric)
{
    WArena a;
    warena_init(&a, 0);
    CHECK_STR(cast_val(&a, &WTYPE_INT, WDATUM_I(300), &WTYPE_TINYINT, NULL), "44");
    CHECK_STR(cast_val(&a, &WTYPE_SMALLINT, WDATUM_I(12345), &WTYPE_TINYINT, NULL), "57");
    CHECK_STR(cast_val(&a, &WTYPE_INT, WDATUM_I(1234567), &WTYPE_TINYINT, NULL), "-121");
    CHECK_STR(cast_val(&a, &WTYPE_BIGINT, WDATUM_I(12345678901LL), &WTYPE_INT, NULL), "-539222987");
    CHECK_STR(cast_val(&a, &WTYPE_BIGINT, WDATUM_I(12345678901LL), &WTYPE_SMALLINT, NULL), "7221");
    CHECK_STR(cast_val(&a, &WTYPE_DOUBLE, WDATUM_D(123.456789), &WTYPE_TINYINT, NULL), "123");
    CHECK_STR(cast_val(&a, &WTYPE_DOUBLE, WDATUM_D(-123.456789), &WTYPE_INT, NULL), "-123");
    CHECK_STR(cast_val(&a, &WTYPE_DOUBLE, WDATUM_D(9234567891.12345), &WTYPE_BIGINT, NULL), "9234567891");
    CHECK_STR(cast_val(&a, &WTYPE_DOUBLE, WDATUM_D(1e30), &WTYPE_BIGINT, NULL), "9223372036854775807");
    CHECK_STR(cast_val(&a, &WTYPE_DOUBLE, WDATUM_D(NAN), &WTYPE_INT, NULL), "0");
    CHECK_STR(cast_val(&a, &WTYPE_DOUBLE, WDATUM_D(-1.7976931348623157E308), &WTYPE_FLOAT, NULL), "-Infinity");
    CHECK_STR(cast_val(&a, &WTYPE_DOUBLE, WDATUM_D(123.456789), &WTYPE_FLOAT, NULL), "123.45679");
    CHECK_STR(cast_val(&a, &WTYPE_INT, WDATUM_I(1234567), &WTYPE_DOUBLE, NULL), "1234567.0");
    CHECK_STR(cast_val(&a, &WTYPE_BIGINT, WDATUM_I(12345678901LL), &WTYPE_FLOAT, NULL), "1.2345679E10");
    CHECK_STR(cast_val(&a, &WTYPE_BOOLEAN, WDATUM_I(1), &WTYPE_INT, NULL), "1");
    CHECK_STR(cast_val(&a, &WTYPE_INT, WDATUM_I(-5), &WTYPE_BOOLEAN, NULL), "TRUE");
    CHECK_STR(cast_val(&a, &WTYPE_INT, WDATUM_I(0), &WTYPE_BOOLEAN, NULL), "FALSE");
    CHECK_STR(cast_val(&a, &WTYPE_DOUBLE, WDATUM_D(0.5), &WTYPE_BOOLEAN, NULL), "TRUE");
    /* decimals */
    const WType *d53 = wtype_decimal(&a, 5, 3, true), *d84 = wtype_decimal(&a, 8, 4, true);
    const WType *d43 = wtype_decimal(&a, 4, 3, true), *d103 = wtype_decimal(&a, 10, 3, true);
    const WType *d3832 = wtype_decimal(&a, 38, 32, true), *d380 = wtype_decimal(&a, 38, 0, true);
    const WType *d203 = wtype_decimal(&a, 20, 3, true);
    WDatum dv;
    CHECK_STR(cast_val(&a, &WTYPE_INT, WDATUM_I(42), d53, NULL), "42.000");
    CHECK_STR(cast_val(&a, &WTYPE_BOOLEAN, WDATUM_I(1), d53, NULL), "1.000");
    CHECK_STR(cast_val(&a, &WTYPE_DOUBLE, WDATUM_D(12.678), d53, NULL), "12.678");
    CHECK_STR(cast_val(&a, &WTYPE_FLOAT, WDATUM_D((double)-12.345f), d53, NULL), "-12.345");
    CHECK_STR(cast_val(&a, &WTYPE_DOUBLE, WDATUM_D(3.123456), d84, NULL), "3.1235");
    CHECK_STR(cast_val(&a, &WTYPE_INT, WDATUM_I(12345), d84, NULL), "NULL");
    CHECK_STR(cast_val(&a, &WTYPE_FLOAT, WDATUM_D((double)12345.678912f), d84, NULL), "NULL");
    CHECK_STR(cast_val(&a, &WTYPE_DOUBLE, WDATUM_D(1.7976931348623157E308), d3832, NULL), "NULL");
    CHECK_STR(cast_val(&a, &WTYPE_BIGINT, WDATUM_I(INT64_MIN), d380, NULL), "-9223372036854775808");
    CHECK_STR(cast_val(&a, &WTYPE_DOUBLE, WDATUM_D(NAN), d84, NULL), "ERR:java.lang.NumberFormatException: Infinite or NaN");
    dv.dec = 9870;
    CHECK_STR(cast_val(&a, d43, dv, d53, NULL), "9.870");
    CHECK_STR(cast_val(&a, d43, dv, &WTYPE_TINYINT, NULL), "9");
    CHECK_STR(cast_val(&a, d43, dv, &WTYPE_DOUBLE, NULL), "9.87");
    CHECK_STR(cast_val(&a, d43, dv, &WTYPE_STRING, NULL), "9.870");
    dv.dec = 9123870;
    CHECK_STR(cast_val(&a, d103, dv, &WTYPE_TINYINT, NULL), "-93");
    dv.dec = 3276913443134870LL;
    CHECK_STR(cast_val(&a, d203, dv, &WTYPE_INT, NULL), "-146603714");
    CHECK_STR(cast_val(&a, d203, dv, &WTYPE_BIGINT, NULL), "3276913443134");
    CHECK_STR(cast_val(&a, d203, dv, &WTYPE_DOUBLE, NULL), "3.27691344313487E12");
    CHECK_STR(cast_val(&a, d203, dv, &WTYPE_FLOAT, NULL), "3.2769135E12");
    const WType *d108 = wtype_decimal(&a, 10, 8, true), *d3020 = wtype_decimal(&a, 30, 20, true);
    dv.dec = 1234561234;
    CHECK_STR(cast_val(&a, d108, dv, d84, NULL), "12.3456");
    dv.dec = (__int128)123456789123456789LL * 1000000000000LL + 123456789000LL / 1000;  /* not exact, rough */
    (void)d3020;
    dv.dec = 0;
    CHECK_STR(cast_val(&a, d43, dv, &WTYPE_BOOLEAN, NULL), "FALSE");
    warena_free(&a);
}

WTEST(types_cast_temporal)
{
    WArena a;
    warena_init(&a, 0);
    WError e;
    werr_clear(&e);
    WTimeZone *sh = wtz_load("Asia/Shanghai", &e);
    const WType *ts6 = wtype_timestamp(&a, WT_TIMESTAMP, 6, true);
    const WType *ts9 = wtype_timestamp(&a, WT_TIMESTAMP, 9, true);
    const WType *ts4 = wtype_timestamp(&a, WT_TIMESTAMP, 4, true);
    const WType *ltz4 = wtype_timestamp(&a, WT_TIMESTAMP_LTZ, 4, true);
    const WType *ltz5 = wtype_timestamp(&a, WT_TIMESTAMP_LTZ, 5, true);
    const WType *t0 = wtype_time(&a, 0, true);
    WDatum tv;   /* 2021-09-24 12:34:56.1234567 */
    tv.ts.ms = 1632486896123LL; tv.ts.ns = 456700;
    CHECK_STR(cast_val(&a, ts9, tv, &WTYPE_STRING, NULL), "2021-09-24 12:34:56.123456700");
    CHECK_STR(cast_val(&a, ts9, tv, ts6, NULL), "2021-09-24 12:34:56.123456");
    CHECK_STR(cast_val(&a, ts9, tv, ts4, NULL), "2021-09-24 12:34:56.1234");
    CHECK_STR(cast_val(&a, ts9, tv, &WTYPE_DATE, NULL), "2021-09-24");
    CHECK_STR(cast_val(&a, ts9, tv, t0, NULL), "12:34:56");
    /* TIMESTAMP -> LTZ interprets the wall clock in the session zone */
    CHECK_STR(cast_val(&a, ts9, tv, ltz4, sh), "2021-09-24 12:34:56.1234");
    WCastCtx ctx = { sh, false };
    WDatum out;
    CHECK(wcast_datum(&ctx, ts9, tv, ltz4, &out, &a, &e));
    CHECK_INT(out.ts.ms, 1632486896123LL - 8 * 3600000LL);
    /* LTZ value 2021-09-24T22:34:56.1234567-01:20 = 2021-09-24T23:54:56.1234567Z -> Shanghai 07:54:56 next day */
    WDatum lv; lv.ts.ms = 1632527696123LL; lv.ts.ns = 456700;
    CHECK_STR(cast_val(&a, ltz5, lv, &WTYPE_STRING, sh), "2021-09-25 07:54:56.12345");
    CHECK_STR(cast_val(&a, ltz4, lv, t0, sh), "07:54:56");
    CHECK_STR(cast_val(&a, ltz4, lv, &WTYPE_DATE, sh), "2021-09-25");
    lv.ts.ns = 400000;
    CHECK_STR(cast_val(&a, ltz4, lv, ts9, sh), "2021-09-25 07:54:56.123400000");
    CHECK_STR(cast_val(&a, &WTYPE_DATE, WDATUM_I(18894), ts9, NULL), "2021-09-24 00:00:00.000000000");
    CHECK_STR(cast_val(&a, t0, WDATUM_I(45296000), ts9, NULL), "1970-01-01 12:34:56.000000000");
    CHECK_STR(cast_val(&a, &WTYPE_DATE, WDATUM_I(18894), &WTYPE_STRING, NULL), "2021-09-24");
    const WType *v3 = wtype_varchar(&a, 3, true), *c3 = wtype_char(&a, 3, true);
    CHECK_STR(cast_val(&a, &WTYPE_DATE, WDATUM_I(18894), c3, NULL), "202");
    CHECK_STR(cast_val(&a, &WTYPE_STRING, dstr("abcdef"), v3, NULL), "abc");
    const WType *c2 = wtype_char(&a, 2, true), *v5 = wtype_varchar(&a, 5, true), *c6 = wtype_char(&a, 6, true);
    CHECK_STR(cast_val(&a, c2, dstr("Apache"), v3, NULL), "Apache");     /* declared length trusted */
    CHECK_STR(cast_val(&a, v5, dstr("Flink"), c6, NULL), "Flink ");
    CHECK_STR(cast_val(&a, v5, dstr("Flink"), v3, NULL), "Fli");
    CHECK_STR(cast_val(&a, &WTYPE_BOOLEAN, WDATUM_I(0), c6, NULL), "FALSE ");
    CHECK_STR(cast_val(&a, &WTYPE_NULL, WDATUM_I(0), &WTYPE_STRING, NULL), "NULL");
    CHECK_STR(cast_val(&a, &WTYPE_BOOLEAN, WDATUM_I(1), &WTYPE_STRING, NULL), "TRUE");
    WDatum bv; bv.s.p = "hi"; bv.s.len = 2;
    CHECK_STR(cast_val(&a, &WTYPE_BYTES, bv, &WTYPE_STRING, NULL), "hi");
    const char *msg = cast_val(&a, &WTYPE_INT, WDATUM_I(1), ts9, NULL);
    CHECK_STR(msg, "ERR:org.apache.flink.table.api.ValidationException: The cast from NUMERIC type to TIMESTAMP type is not allowed. "
                   "It's recommended to use TO_TIMESTAMP(FROM_UNIXTIME(numeric_col)) instead, note the numeric is in seconds.");
    wtz_free(sh);
    warena_free(&a);
}

WTEST(types_cast_matrix)
{
    WArena a;
    warena_init(&a, 0);
    const WType *ts = wtype_timestamp(&a, WT_TIMESTAMP, 3, true);
    const WType *ltz = wtype_timestamp(&a, WT_TIMESTAMP_LTZ, 3, true);
    const WType *t0 = wtype_time(&a, 0, true);
    const WType *arr = wtype_array(&a, &WTYPE_INT, true);
    const WType *arrs = wtype_array(&a, &WTYPE_STRING, true);
    const WType *iym = wtype_interval(&a, WT_INTERVAL_YM, WIQ_YEAR_TO_MONTH, 2, 0, true);
    const WType *iy = wtype_interval(&a, WT_INTERVAL_YM, WIQ_YEAR, 2, 0, true);
    CHECK(wcast_supported(&WTYPE_INT, &WTYPE_STRING));
    CHECK(wcast_supported(&WTYPE_STRING, &WTYPE_INT));
    CHECK(wcast_supported(&WTYPE_INT, &WTYPE_BOOLEAN));
    CHECK(wcast_supported(&WTYPE_DOUBLE, &WTYPE_BOOLEAN));
    CHECK(!wcast_supported(&WTYPE_BOOLEAN, &WTYPE_DATE));
    CHECK(!wcast_supported(&WTYPE_INT, &WTYPE_DATE));
    CHECK(!wcast_supported(&WTYPE_DATE, &WTYPE_INT));
    CHECK(!wcast_supported(&WTYPE_INT, &WTYPE_BYTES));
    CHECK(!wcast_supported(&WTYPE_BOOLEAN, &WTYPE_BYTES));
    CHECK(wcast_supported(&WTYPE_STRING, &WTYPE_BYTES));
    CHECK(!wcast_supported(&WTYPE_DATE, t0));
    CHECK(wcast_supported(ts, t0));
    CHECK(wcast_supported(ltz, &WTYPE_DATE));
    CHECK(wcast_supported(&WTYPE_INT, ts));     /* validator passes; planner rejects (wcast_check) */
    CHECK(wcast_supported(arr, &WTYPE_STRING));
    CHECK(wcast_supported(arrs, arr));
    CHECK(!wcast_supported(arr, &WTYPE_INT));
    CHECK(!wcast_supported(iym, &WTYPE_INT));
    CHECK(wcast_supported(iy, &WTYPE_INT));
    CHECK(wcast_supported(&WTYPE_NULL, &WTYPE_DATE));
    WError e;
    werr_clear(&e);
    CHECK(!wcast_check(&WTYPE_INT, &WTYPE_DATE, &e));
    CHECK_STR(e.cls, WEXC_CALCITE);
    CHECK_STR(e.msg, "Cast function cannot convert value of type INTEGER to type DATE");
    werr_clear(&e);
    CHECK(!wcast_check(&WTYPE_BOOLEAN, &WTYPE_BYTES, &e));
    CHECK_STR(e.msg, "Cast function cannot convert value of type BOOLEAN to type VARBINARY(2147483647)");
    werr_clear(&e);
    CHECK(!wcast_check(arr, &WTYPE_INT, &e));
    CHECK_STR(e.msg, "Cast function cannot convert value of type INTEGER ARRAY to type INTEGER");
    werr_clear(&e);
    CHECK(!wcast_check(ltz, &WTYPE_BIGINT, &e));
    CHECK_STR(e.msg, "The cast from TIMESTAMP_LTZ type to NUMERIC type is not allowed.");
    werr_clear(&e);
    CHECK(wcast_check(&WTYPE_STRING, ts, &e));
    CHECK(!e.set);
    /* implicit */
    CHECK(wcast_implicit(&WTYPE_INT, &WTYPE_BIGINT));
    CHECK(!wcast_implicit(&WTYPE_BIGINT, &WTYPE_INT));
    CHECK(wcast_implicit(&WTYPE_INT, &WTYPE_DOUBLE));
    CHECK(wcast_implicit(&WTYPE_BIGINT, &WTYPE_FLOAT));
    CHECK(!wcast_implicit(&WTYPE_DOUBLE, &WTYPE_FLOAT));
    CHECK(!wcast_implicit(&WTYPE_INT, &WTYPE_STRING));
    CHECK(!wcast_implicit(&WTYPE_STRING, &WTYPE_INT));
    CHECK(wcast_implicit(ts, ltz));
    CHECK(wcast_implicit(ts, &WTYPE_DATE));
    CHECK(!wcast_implicit(&WTYPE_INT, &WTYPE_INT_NN));
    CHECK(wcast_implicit(&WTYPE_INT_NN, &WTYPE_INT));
    warena_free(&a);
}

/* Injective casts (unique keys through a CAST): pairs measured on Flink 2.3.0 (EXPLAIN of an upsert
   key cast into a sink's primary key: no SinkMaterializer when the key stays unique). */
WTEST(types_cast_injective)
{
    WArena a;
    warena_init(&a, 0);
    const WType *ts3 = wtype_timestamp(&a, WT_TIMESTAMP, 3, true), *ltz3 = wtype_timestamp(&a, WT_TIMESTAMP_LTZ, 3, true);
    const WType *ltz6 = wtype_timestamp(&a, WT_TIMESTAMP_LTZ, 6, true);
    WType *bin10 = wtype_new(&a, WT_BINARY, true), *bin20 = wtype_new(&a, WT_BINARY, true);
    WType *vb20 = wtype_new(&a, WT_VARBINARY, true), *vb19 = wtype_new(&a, WT_VARBINARY, true);
    bin10->precision = 10;
    bin20->precision = 20;
    vb20->precision = 20;
    vb19->precision = 19;
    CHECK(wcast_injective(&WTYPE_INT, &WTYPE_BIGINT));
    CHECK(!wcast_injective(&WTYPE_BIGINT, &WTYPE_INT));
    CHECK(!wcast_injective(&WTYPE_INT, &WTYPE_DOUBLE));
    CHECK(wcast_injective(&WTYPE_INT, &WTYPE_STRING));
    CHECK(wcast_injective(&WTYPE_INT, wtype_char(&a, 11, true)));
    CHECK(!wcast_injective(&WTYPE_INT, wtype_varchar(&a, 10, true)));
    CHECK(wcast_injective(&WTYPE_FLOAT, wtype_char(&a, 15, true)));
    CHECK(!wcast_injective(&WTYPE_FLOAT, wtype_char(&a, 14, true)));
    CHECK(wcast_injective(&WTYPE_DOUBLE, wtype_varchar(&a, 24, true)));
    CHECK(!wcast_injective(&WTYPE_DOUBLE, wtype_varchar(&a, 23, true)));
    CHECK(wcast_injective(ts3, wtype_char(&a, 23, true)));
    CHECK(!wcast_injective(ts3, wtype_char(&a, 22, true)));
    CHECK(wcast_injective(wtype_time(&a, 3, true), wtype_char(&a, 12, true)));
    CHECK(!wcast_injective(wtype_time(&a, 3, true), wtype_char(&a, 11, true)));
    CHECK(wcast_injective(ts3, ltz3));
    CHECK(!wcast_injective(ts3, ltz6));
    CHECK(!wcast_injective(ts3, &WTYPE_DATE));
    CHECK(!wcast_injective(wtype_varchar(&a, 10, true), wtype_char(&a, 20, true)));
    CHECK(wcast_injective(wtype_char(&a, 10, true), wtype_char(&a, 20, true)));
    CHECK(wcast_injective(wtype_char(&a, 5, true), vb20));
    CHECK(!wcast_injective(wtype_char(&a, 5, true), vb19));
    CHECK(wcast_injective(&WTYPE_STRING, &WTYPE_BYTES));
    CHECK(wcast_injective(bin10, bin20));
    CHECK(!wcast_injective(bin20, bin10));
    CHECK(!wcast_injective(vb20, bin20));
    CHECK(!wcast_injective(bin10, &WTYPE_STRING));
    CHECK(!wcast_injective(wtype_decimal(&a, 10, 2, true), &WTYPE_STRING));
    warena_free(&a);
}

WTEST(types_cast_composite)
{
    WArena a;
    warena_init(&a, 0);
    const WType *arrs = wtype_array(&a, &WTYPE_STRING, true);
    const WType *arri = wtype_array(&a, &WTYPE_INT, true);
    WComposite *c = WA_NEW(&a, WComposite);
    c->n = 3;
    c->vals = WA_ARRAY(&a, WDatum, 3);
    c->nulls = WA_ARRAY(&a, uint8_t, 3);
    c->vals[0] = dstr("1"); c->vals[1] = dstr("2"); c->nulls[2] = 1;
    WDatum v; v.cx = c;
    CHECK_STR(cast_val(&a, arrs, v, arri, NULL), "[1, 2, NULL]");
    WDatum iv;
    CHECK(wcast_datum_ex(&(WCastCtx){ NULL, false }, arrs, v, arri, &iv, &a, NULL) == WCAST_OK);
    CHECK_STR(cast_val(&a, arri, iv, &WTYPE_STRING, NULL), "[1, 2, NULL]");
    c->vals[1] = dstr("x");
    CHECK_STR(cast_val(&a, arrs, v, arri, NULL), "ERR:java.lang.NumberFormatException: For input string: 'x'. Invalid character found.");
    warena_free(&a);
}

WTEST(types_cast_legacy)
{
    WArena a;
    warena_init(&a, 0);
    WCastCtx ctx = { NULL, true };
    WError e;
    werr_clear(&e);
    WDatum out;
    CHECK(wcast_from_text_ex(&ctx, "abc", 3, &WTYPE_INT, &out, &a, &e) == WCAST_NULL);
    CHECK(!e.set);
    const WType *v3 = wtype_varchar(&a, 3, true);
    CHECK(wcast_from_text_ex(&ctx, "abcdef", 6, v3, &out, &a, &e) == WCAST_OK);
    CHECK_INT(out.s.len, 6);
    warena_free(&a);
}

/* ---------------------------------------------------------------- binary rows and key groups */

static int32_t key_hash1(const WType *t, WDatum v, bool is_null, WStrBuf *sb)
{
    const WType *tys[1] = { t };
    uint8_t n = is_null;
    wrow_encode(sb, 1, tys, &v, &n, WRK_INSERT);
    return wrow_hash(sb->buf, sb->len);
}

WTEST(types_row_hash_vectors)
{
    WStrBuf sb;
    wsb_init(&sb);
    int32_t h = key_hash1(&WTYPE_INT, WDATUM_I(1), false, &sb);
    CHECK_INT(sb.len, 16);
    static const unsigned char int1[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0 };
    CHECK(memcmp(sb.buf, int1, 16) == 0);
    CHECK_INT(h, 1465514398);
    CHECK_INT(wflink_key_group(h, 128), 94);
    CHECK_INT(wflink_operator_index(128, 4, 94), 2);
    h = key_hash1(&WTYPE_INT, WDATUM_I(42), false, &sb);
    CHECK_INT(h, 907821237);
    CHECK_INT(wflink_key_group(h, 128), 69);
    CHECK_INT(key_hash1(&WTYPE_BIGINT, WDATUM_I(1), false, &sb), 1465514398);
    h = key_hash1(&WTYPE_STRING, dstr("abc"), false, &sb);
    static const unsigned char abc[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 'a', 'b', 'c', 0, 0, 0, 0, 0x83 };
    CHECK_INT(sb.len, 16);
    CHECK(memcmp(sb.buf, abc, 16) == 0);
    CHECK_INT(h, -101922419);
    CHECK_INT(wflink_key_group(h, 128), 92);
    h = key_hash1(&WTYPE_STRING, dstr("Hello World"), false, &sb);
    CHECK_INT(sb.len, 32);
    static const unsigned char hw[32] = { 0, 0, 0, 0, 0, 0, 0, 0, 11, 0, 0, 0, 16, 0, 0, 0,
                                          'H', 'e', 'l', 'l', 'o', ' ', 'W', 'o', 'r', 'l', 'd', 0, 0, 0, 0, 0 };
    CHECK(memcmp(sb.buf, hw, 32) == 0);
    CHECK_INT(h, 1147993945);
    CHECK_INT(wflink_key_group(h, 128), 110);
    /* NULL key: null bit 8 set, slot zero */
    key_hash1(&WTYPE_INT, WDATUM_I(7), true, &sb);
    CHECK_INT((unsigned char)sb.buf[1], 1);
    CHECK_INT(sb.buf[8], 0);
    wsb_free(&sb);
}

/* A row of every kind of field (ROW_SAMPLE_N of them, the last three NULL): the types in tys,
   the values in v and nl; field 15 is an ARRAY<STRING> of two, the second NULL, returned. */
enum { ROW_SAMPLE_N = 19 };
static WComposite *row_sample(WArena *a, const WType **tys, WDatum *v, uint8_t *nl)
{
    const WType *d38 = wtype_decimal(a, 38, 10, true), *d10 = wtype_decimal(a, 10, 2, true);
    const WType *ts9 = wtype_timestamp(a, WT_TIMESTAMP, 9, true), *ts3 = wtype_timestamp(a, WT_TIMESTAMP, 3, true);
    const WType *arr = wtype_array(a, &WTYPE_STRING, true);
    const WType *all[ROW_SAMPLE_N] = { &WTYPE_BOOLEAN, &WTYPE_TINYINT, &WTYPE_SMALLINT, &WTYPE_INT, &WTYPE_BIGINT,
                                       &WTYPE_FLOAT, &WTYPE_DOUBLE, d10, d38, &WTYPE_STRING, &WTYPE_STRING, &WTYPE_BYTES,
                                       &WTYPE_DATE, ts3, ts9, arr, &WTYPE_INT, d38, ts9 };
    memcpy(tys, all, sizeof all);
    memset(v, 0, sizeof *v * ROW_SAMPLE_N);
    memset(nl, 0, ROW_SAMPLE_N);
    v[0].i = 1; v[1].i = -5; v[2].i = -12345; v[3].i = -1234567; v[4].i = -12345678901LL;
    v[5].d = (double)1.5f; v[6].d = -0.1; v[7].dec = -12345; v[8].dec = -(wpow10_i128(37) + 12345);
    v[9] = dstr("short"); v[10] = dstr("a longer string value"); v[11].s.p = "\x00\x01\x02"; v[11].s.len = 3;
    v[12].i = 18894; v[13].ts.ms = 1618344731123LL; v[14].ts.ms = -1618344731123LL; v[14].ts.ns = 456789;
    WComposite *c = WA_NEW(a, WComposite);
    c->n = 2; c->vals = WA_ARRAY(a, WDatum, 2); c->nulls = WA_ARRAY(a, uint8_t, 2);
    c->vals[0] = dstr("elementary, my dear"); c->nulls[1] = 1;
    v[15].cx = c;
    nl[16] = 1; nl[17] = 1; nl[18] = 1;
    return c;
}

WTEST(types_row_roundtrip)
{
    WArena a;
    warena_init(&a, 0);
    enum { N = ROW_SAMPLE_N };
    const WType *tys[N];
    WDatum v[N];
    uint8_t nl[N];
    WComposite *c = row_sample(&a, tys, v, nl);
    const WType *arr = tys[15], *d38 = tys[8], *ts9 = tys[14];
    WStrBuf sb;
    wsb_init(&sb);
    wrow_encode(&sb, N, tys, v, nl, WRK_UPDATE_AFTER);
    CHECK_INT(sb.len % 8, 0);
    CHECK_INT(wrow_kind(sb.buf), WRK_UPDATE_AFTER);
    CHECK(sb.len > wrow_fixed_size(N));
    for (int i = 0; i < N; i++) {
        WDatum o;
        bool present = wrow_get_arena(sb.buf, sb.len, N, tys[i], i, &o, &a);
        CHECK(present == !nl[i]);
        if (!present) continue;
        if (tys[i]->id == WT_ARRAY) {
            CHECK(o.cx != NULL);
            if (!o.cx) continue;
            CHECK_INT(o.cx->n, 2);
            CHECK(o.cx->nulls[1]);
            CHECK(!o.cx->nulls[0]);
            CHECK(wdatum_equal(&WTYPE_STRING, o.cx->vals[0], c->vals[0]));
            CHECK(wdatum_equal(arr, o, v[15]));
        } else {
            if (!wdatum_equal(tys[i], o, v[i])) { char m[32]; snprintf(m, sizeof m, "field %d", i); CHECK(m[0] == 0); }
        }
    }
    /* non-compact decimal/timestamp reserve variable space even when NULL (as Flink's writer) */
    const WType *t2[] = { d38, ts9 };
    WDatum v2[2]; memset(v2, 0, sizeof v2);
    uint8_t n2[2] = { 1, 1 };
    wrow_encode(&sb, 2, t2, v2, n2, WRK_INSERT);
    CHECK_INT(sb.len, 8 + 16 + 16 + 8);
    /* big decimal bytes are the minimal two's complement */
    const WType *t3[] = { d38 };
    WDatum v3; v3.dec = -1;
    wrow_encode(&sb, 1, t3, &v3, NULL, WRK_INSERT);
    CHECK_INT((unsigned char)sb.buf[16], 0xff);
    CHECK_INT((unsigned char)sb.buf[8], 1);     /* length 1 in the slot's low word */
    CHECK_INT((unsigned char)sb.buf[12], 16);   /* offset in the high word */
    CHECK_INT(sb.len, 32);
    wsb_free(&sb);
    warena_free(&a);
}

/* wrow_decode_chunk (the join's and Top-N's decoder, with its common types inline) sets every
   field as wrow_get_arena reads it: each type, NULLs, inline and variable strings, non-compact
   DECIMAL / TIMESTAMP, a composite; copy=false points strings into the row, copy=true into the
   arena; a string slot whose variable part lies beyond the row reads as '' in both. */
WTEST(types_row_decode_chunk_matches_get)
{
    WArena a;
    warena_init(&a, 0);
    enum { N = ROW_SAMPLE_N + 3, COL0 = 2 };
    const WType *tys[N];
    WDatum v[N];
    uint8_t nl[N];
    row_sample(&a, tys, v, nl);
    tys[N - 3] = wtype_timestamp(&a, WT_TIMESTAMP_LTZ, 3, true);
    tys[N - 2] = &WTYPE_BIGINT;
    tys[N - 1] = &WTYPE_DATE;
    v[N - 3].ts.ms = 86400000; v[N - 2].i = INT64_MIN; v[N - 1].i = -18894;
    nl[N - 3] = nl[N - 2] = nl[N - 1] = 0;
    WStrBuf sb;
    wsb_init(&sb);
    wrow_encode(&sb, N, tys, v, nl, WRK_INSERT);
    const WType *ctys[COL0 + N];
    ctys[0] = ctys[1] = &WTYPE_INT;
    memcpy(ctys + COL0, tys, sizeof tys);
    WChunk *ch = wchunk_new(COL0 + N, ctys, 4);
    for (int r = 0; r < 3; r++) wchunk_add_row(ch, WRK_INSERT);
    /* row 0: strings into the row's bytes; row 1: copied; row 2: the long string's variable part
       moved beyond the row's end (a damaged row) */
    wrow_decode_chunk(sb.buf, sb.len, N, tys, ch, 0, COL0, &a, false);
    wrow_decode_chunk(sb.buf, sb.len, N, tys, ch, 1, COL0, &a, true);
    WStrBuf bad;
    wsb_init(&bad);
    wsb_appendn(&bad, sb.buf, sb.len);
    uint64_t slot;
    size_t at = wrow_bitset_bytes(N) + 8 * 10;
    memcpy(&slot, bad.buf + at, 8);
    CHECK(!(slot & (1ULL << 63)));              /* field 10 has a variable part */
    slot += (uint64_t)bad.len << 32;
    memcpy(bad.buf + at, &slot, 8);
    wrow_decode_chunk(bad.buf, bad.len, N, tys, ch, 2, COL0, &a, false);
    for (int r = 0; r < 3; r++) {
        const char *row = r == 2 ? bad.buf : sb.buf;
        size_t len = r == 2 ? bad.len : sb.len;
        for (int i = 0; i < N; i++) {
            char m[64];
            snprintf(m, sizeof m, "row %d field %d", r, i);
            WDatum o;
            bool present = wrow_get_arena(row, len, N, tys[i], i, &o, &a);
            const WVector *col = &ch->cols[COL0 + i];
            if (col->nulls[r] != !present) { CHECK(m[0] == 0); continue; }
            if (!present) continue;
            if (!wdatum_equal(tys[i], col->data[r], o)) CHECK(m[0] == 0);
            bool str = tys[i]->id == WT_VARCHAR || tys[i]->id == WT_BINARY || tys[i]->id == WT_VARBINARY;
            if (str && col->data[r].s.len > 0) {
                bool in_row = col->data[r].s.p >= row && col->data[r].s.p < row + len;
                if (in_row != (r != 1)) CHECK(m[0] == 0);
            }
        }
    }
    CHECK_INT(ch->cols[COL0 + 10].data[2].s.len, 0);
    CHECK_INT(ch->cols[COL0 + 10].data[1].s.len, (int)strlen("a longer string value"));
    wchunk_free(ch);
    wsb_free(&bad);
    wsb_free(&sb);
    warena_free(&a);
}

/* One type of every kind a binary row keeps in its slot (wrow_type_inline). */
enum { N_INLINE_TYPES = 10 };
static void inline_types(WArena *a, const WType *tys[N_INLINE_TYPES])
{
    const WType *all[N_INLINE_TYPES] = { &WTYPE_BOOLEAN, &WTYPE_TINYINT, &WTYPE_SMALLINT, &WTYPE_INT,
                                         &WTYPE_BIGINT, &WTYPE_FLOAT, &WTYPE_DOUBLE, &WTYPE_DATE,
                                         wtype_decimal(a, 18, 2, true), wtype_timestamp(a, WT_TIMESTAMP, 3, true) };
    memcpy(tys, all, sizeof all);
}

/* wrow_encode_inline writes the bytes of wrow_encode for rows of slot values only (the types
   wrow_type_inline / wrow_types_inline accept); wrow_get_word reads a slot back. */
WTEST(types_row_encode_inline)
{
    WArena a;
    warena_init(&a, 0);
    enum { N = N_INLINE_TYPES };
    const WType *tys[N];
    inline_types(&a, tys);
    for (int k = 0; k < N; k++) CHECK(wrow_type_inline(tys[k]));
    CHECK(!wrow_type_inline(&WTYPE_STRING));
    CHECK(!wrow_type_inline(wtype_decimal(&a, 38, 2, true)));
    CHECK(wrow_types_inline(N, tys));
    const WType *mixed[] = { &WTYPE_BIGINT, &WTYPE_STRING };
    CHECK(wrow_types_inline(1, mixed) && !wrow_types_inline(2, mixed));
    WDatum v[N];
    memset(v, 0, sizeof v);
    v[0].i = 1; v[1].i = -3; v[2].i = -300; v[3].i = -70000; v[4].i = INT64_MIN + 5;
    v[5].d = -1.5; v[6].d = 2.25; v[7].i = -20000; v[8].dec = -123456; v[9].ts.ms = -86400001;
    uint8_t nl[N] = {0};
    WStrBuf sb;
    wsb_init(&sb);
    for (int pass = 0; pass < 3; pass++) {
        if (pass == 1) { nl[2] = 1; nl[6] = 1; }
        if (pass == 2) for (int k = 0; k < N; k++) nl[k] = 1;
        wrow_encode(&sb, N, tys, v, nl, WRK_INSERT);
        uint64_t buf[1 + N + 1];
        CHECK_INT(wrow_encode_inline((unsigned char *)buf, N, tys, v, nl), sb.len);
        CHECK(memcmp(buf, sb.buf, sb.len) == 0);
        uint64_t w;
        CHECK(wrow_get_word(sb.buf, N, 4, &w) == !nl[4]);
        if (!nl[4]) CHECK(w == (uint64_t)v[4].i);
        CHECK(wrow_get_word(sb.buf, N, 6, &w) == !nl[6]);
    }
    wsb_free(&sb);
    warena_free(&a);
}

/* wrow_encode_rows_inline writes, for every row of a chunk, the bytes wrow_encode_chunk_inline
   writes for that row (a column at a time, rows `stride` words apart, the gap left as it was). */
WTEST(types_row_encode_rows_inline)
{
    WArena a;
    warena_init(&a, 0);
    enum { N = N_INLINE_TYPES, ROWS = 5, STRIDE = 14 };
    const WType *tys[N];
    inline_types(&a, tys);
    WChunk *c = wchunk_new(N, tys, ROWS);
    for (int r = 0; r < ROWS; r++) {
        int row = wchunk_add_row(c, WRK_INSERT);
        for (int k = 0; k < N; k++) {
            WDatum *d = &c->cols[k].data[row];
            memset(d, 0, sizeof *d);
            if (k == 5 || k == 6) d->d = -1.5 * (r + 1);
            else if (k == 8) d->dec = -123456 * (r + 1);
            else if (k == 9) d->ts.ms = -86400001LL * r;
            else d->i = (k == 4 ? INT64_MIN + 5 : -70000) + r;
            c->cols[k].nulls[row] = (uint8_t)((r + k) % 3 == 0);
        }
    }
    int cols[N], pick[3] = { 9, 0, 6 };
    for (int k = 0; k < N; k++) cols[k] = k;
    for (int set = 0; set < 3; set++) {                 /* all ten columns, one, three reordered */
        int nc = set == 0 ? N : set == 1 ? 1 : 3;
        const int *cs = set == 2 ? pick : cols + (set == 1 ? 4 : 0);
        const WType *ts[N];
        for (int k = 0; k < nc; k++) ts[k] = tys[cs[k]];
        uint64_t rows[ROWS * STRIDE];
        memset(rows, 0xAB, sizeof rows);
        wrow_encode_rows_inline(rows, STRIDE, c, nc, cs, ts);
        for (int r = 0; r < ROWS; r++) {
            uint64_t one[STRIDE];
            size_t len = wrow_encode_chunk_inline((unsigned char *)one, c, r, nc, cs, ts);
            CHECK(len <= 8 * (STRIDE - 1));
            CHECK(memcmp(one, rows + r * STRIDE, len) == 0);
            CHECK(rows[r * STRIDE + STRIDE - 1] == 0xABABABABABABABABULL);   /* the gap untouched */
        }
    }
    wchunk_free(c);
    warena_free(&a);
}

WTEST(types_row_encode_chunk)
{
    const WType *tys[] = { &WTYPE_INT, &WTYPE_STRING };
    WChunk *c = wchunk_new(2, tys, 4);
    int r = wchunk_add_row(c, WRK_INSERT);
    c->cols[0].data[r].i = 42;
    c->cols[1].data[r] = dstr("abc");
    WStrBuf sb;
    wsb_init(&sb);
    int cols[1] = { 0 };
    wrow_encode_chunk(&sb, c, r, 1, cols);
    CHECK_INT(wrow_hash(sb.buf, sb.len), 907821237);
    cols[0] = 1;
    wrow_encode_chunk(&sb, c, r, 1, cols);
    CHECK_INT(wrow_hash(sb.buf, sb.len), -101922419);
    wsb_free(&sb);
    wchunk_free(c);
}

/* wchunk_append_rows: the listed rows in the listed order, kinds and nulls with them; deep copies
   own their strings (the source's bytes can go), shallow ones point at the source's */
WTEST(types_chunk_append_rows)
{
    const WType *tys[] = { &WTYPE_INT, &WTYPE_STRING };
    WChunk *src = wchunk_new(2, tys, 4);
    char text[4][8] = {"zero", "one", "two", "three"};
    for (int i = 0; i < 4; i++) {
        int r = wchunk_add_row(src, i == 2 ? WRK_DELETE : WRK_INSERT);
        src->cols[0].data[r].i = i * 10;
        src->cols[1].data[r] = dstr(text[i]);
        src->cols[1].nulls[r] = i == 1;
    }
    const int rows[] = {3, 1, 2};
    WChunk *deep = wchunk_new(2, tys, 4), *shallow = wchunk_new(2, tys, 4);
    wchunk_append_rows(deep, src, rows, 3, true);
    wchunk_append_rows(shallow, src, rows, 2, false);
    CHECK_INT(deep->nrows, 3);
    CHECK_INT(shallow->nrows, 2);
    CHECK_INT(deep->kinds[2], WRK_DELETE);
    CHECK_INT(deep->cols[0].data[0].i, 30);
    CHECK_INT(deep->cols[1].nulls[1], 1);
    CHECK(shallow->cols[1].data[0].s.p == src->cols[1].data[3].s.p);
    CHECK(deep->cols[1].data[0].s.p != src->cols[1].data[3].s.p);
    memset(text, 'x', sizeof text);
    CHECK(deep->cols[1].data[0].s.len == 5 && memcmp(deep->cols[1].data[0].s.p, "three", 5) == 0);
    CHECK(deep->cols[1].data[2].s.len == 3 && memcmp(deep->cols[1].data[2].s.p, "two", 3) == 0);
    wchunk_free(src);
    wchunk_free(deep);
    wchunk_free(shallow);
}

/* Rows of c whose wrow_hash_rows of columns cols differs from wrow_hash of their encoded row. */
static int hash_rows_mismatches(const WChunk *c, int n, const int *cols, WStrBuf *sb, WStrBuf *scratch)
{
    int32_t got[512];
    if (c->nrows > 512) return c->nrows;     /* more rows than this check holds: all count as wrong */
    wrow_hash_rows(c, n, cols, got, scratch);
    int bad = 0;
    for (int r = 0; r < c->nrows; r++) {
        wrow_encode_chunk(sb, c, r, n, cols);
        bad += got[r] != wrow_hash(sb->buf, sb->len);
    }
    return bad;
}

/* wrow_hash_rows (the exchange's per-chunk key hashing) gives wrow_hash of the encoded row for
   every row: fixed-width keys through their slot words, the rest through the encoder; nulls,
   negative values, each fixed width, compact and wide DECIMAL / TIMESTAMP, strings; runs of one
   key */
WTEST(types_row_hash_rows)
{
    WArena a;
    warena_init(&a, 0);
    const WType *tys[] = { &WTYPE_BOOLEAN, &WTYPE_TINYINT, &WTYPE_SMALLINT, &WTYPE_INT, &WTYPE_BIGINT,
                           &WTYPE_FLOAT, &WTYPE_DOUBLE, &WTYPE_DATE, wtype_decimal(&a, 10, 2, true),
                           wtype_decimal(&a, 30, 2, true), wtype_timestamp(&a, WT_TIMESTAMP, 3, true),
                           wtype_timestamp(&a, WT_TIMESTAMP, 9, true), &WTYPE_STRING };
    enum { NT = sizeof tys / sizeof tys[0], NR = 300 };
    WChunk *c = wchunk_new(NT, tys, NR);
    uint64_t seed = 12345;
    for (int r = 0; r < NR; r++) {
        int row = wchunk_add_row(c, WRK_INSERT);
        for (int k = 0; k < NT; k++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            int64_t x = (int64_t)(seed >> 20) - (int64_t)(1LL << 42);
            WDatum *d = &c->cols[k].data[row];
            c->cols[k].nulls[row] = (seed >> 7) % 7 == 0;
            switch (tys[k]->id) {
            case WT_BOOLEAN: d->i = x & 1; break;
            case WT_TINYINT: d->i = (int8_t)x; break;
            case WT_SMALLINT: d->i = (int16_t)x; break;
            case WT_INT: case WT_DATE: d->i = (int32_t)x; break;
            case WT_FLOAT: case WT_DOUBLE: d->d = (double)x / 7.0; break;
            case WT_DECIMAL: d->dec = (__int128)x * (tys[k]->precision > 18 ? 1000000007 : 1); break;
            case WT_TIMESTAMP: d->ts.ms = x; d->ts.ns = (int32_t)((seed >> 3) % 1000000); break;
            case WT_VARCHAR: *d = dstr((seed >> 5) % 2 ? "short" : "a longer string"); break;
            default: d->i = x; break;
            }
        }
    }
    WStrBuf sb, scratch;
    wsb_init(&sb);
    wsb_init(&scratch);
    /* every single column, then runs of two to eight columns */
    for (int first = 0; first < NT; first++) {
        for (int n = 1; n <= 8 && first + n <= NT; n++) {
            int cols[8];
            for (int k = 0; k < n; k++) cols[k] = first + k;
            CHECK_INT(hash_rows_mismatches(c, n, cols, &sb, &scratch), 0);
        }
    }
    /* runs of one key (a row's hash is the previous row's when its key bytes are): equal strings
       at other addresses, nulls, a string and an integer, and a DOUBLE beside a string (-0.0 and
       0.0 compare equal but are other bytes) */
    const WType *rt[] = { &WTYPE_STRING, &WTYPE_BIGINT, &WTYPE_DOUBLE };
    WChunk *runs = wchunk_new(3, rt, NR);
    char strs[NR][8];
    for (int r = 0; r < NR; r++) {
        int row = wchunk_add_row(runs, WRK_INSERT);
        snprintf(strs[r], sizeof strs[r], "d%d", r / 7);     /* same text, own buffer */
        runs->cols[0].data[row] = dstr(strs[r]);
        runs->cols[0].nulls[row] = r / 7 % 5 == 3;
        runs->cols[1].data[row].i = r / 3;
        runs->cols[1].nulls[row] = r % 11 == 0;
        runs->cols[2].data[row].d = r % 2 ? -0.0 : 0.0;
        runs->cols[2].nulls[row] = 0;
    }
    int rc[3][3] = { {0}, {0, 1}, {0, 2} }, rn[3] = {1, 2, 2};
    for (int t = 0; t < 3; t++) {
        CHECK_INT(hash_rows_mismatches(runs, rn[t], rc[t], &sb, &scratch), 0);
    }
    wchunk_free(runs);
    /* keys of strings beside inline values (written without the encoder): strings of 0 to 24
       bytes (inline up to 7, then padded words after the slots, the second one's offset past the
       first's), NULLs, binary strings */
    const WType *st[] = { &WTYPE_STRING, &WTYPE_BIGINT, &WTYPE_STRING, &WTYPE_INT, &WTYPE_BYTES };
    enum { NS = sizeof st / sizeof st[0] };
    WChunk *sc = wchunk_new(NS, st, NR);
    static const char text[] = "abcdefghijklmnopqrstuvwxyz";
    for (int r = 0; r < NR; r++) {
        int row = wchunk_add_row(sc, WRK_INSERT);
        for (int k = 0; k < NS; k++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            WDatum *d = &sc->cols[k].data[row];
            sc->cols[k].nulls[row] = (seed >> 9) % 9 == 0;
            if (st[k] == &WTYPE_BIGINT || st[k] == &WTYPE_INT) d->i = (int32_t)(seed >> 30);
            else d->s = (WStr){ text + (seed >> 40) % 2, (int)((seed >> 13) % 25) };
        }
    }
    for (int first = 0; first < NS; first++) {
        for (int n = 1; first + n <= NS; n++) {
            int cols[NS];
            for (int k = 0; k < n; k++) cols[k] = first + k;
            CHECK_INT(hash_rows_mismatches(sc, n, cols, &sb, &scratch), 0);
        }
    }
    int two[] = { 2, 0 };       /* two strings, the long one's offset after the other's */
    CHECK_INT(hash_rows_mismatches(sc, 2, two, &sb, &scratch), 0);
    wchunk_free(sc);
    wsb_free(&sb);
    wsb_free(&scratch);
    wchunk_free(c);
    warena_free(&a);
}

/* ---------------------------------------------------------------- compare and hash */

WTEST(types_compare)
{
    WArena a;
    warena_init(&a, 0);
    CHECK(wdatum_compare(&WTYPE_INT, WDATUM_I(1), WDATUM_I(2)) < 0);
    CHECK(wdatum_compare(&WTYPE_DOUBLE, WDATUM_D(-0.0), WDATUM_D(0.0)) < 0);
    CHECK(!wdatum_equal(&WTYPE_DOUBLE, WDATUM_D(-0.0), WDATUM_D(0.0)));
    CHECK(wdatum_compare(&WTYPE_DOUBLE, WDATUM_D(NAN), WDATUM_D(INFINITY)) > 0);
    CHECK(wdatum_equal(&WTYPE_DOUBLE, WDATUM_D(NAN), WDATUM_D(-NAN)));
    CHECK(wdatum_hash(&WTYPE_DOUBLE, WDATUM_D(NAN), 1) == wdatum_hash(&WTYPE_DOUBLE, WDATUM_D(-NAN), 1));
    CHECK(wdatum_compare(&WTYPE_STRING, dstr("abc"), dstr("abd")) < 0);
    CHECK(wdatum_compare(&WTYPE_STRING, dstr("ab"), dstr("abc")) < 0);
    CHECK(wdatum_compare(&WTYPE_STRING, dstr("\xc3\xa9"), dstr("z")) > 0);   /* by code point */
    CHECK(wdatum_equal(&WTYPE_STRING, dstr("x"), dstr("x")));
    CHECK(wdatum_hash(&WTYPE_STRING, dstr("x"), 7) == wdatum_hash(&WTYPE_STRING, dstr("x"), 7));
    const WType *ts = wtype_timestamp(&a, WT_TIMESTAMP, 9, true);
    WDatum t1, t2;
    t1.ts.ms = 5; t1.ts.ns = 1; t2.ts.ms = 5; t2.ts.ns = 2;
    CHECK(wdatum_compare(ts, t1, t2) < 0);
    t2.ts.ms = 4; t2.ts.ns = 999999;
    CHECK(wdatum_compare(ts, t1, t2) > 0);
    const WType *d = wtype_decimal(&a, 20, 2, true);
    WDatum x, y;
    x.dec = -wpow10_i128(19); y.dec = 1;
    CHECK(wdatum_compare(d, x, y) < 0);
    const WType *arr = wtype_array(&a, &WTYPE_INT, true);
    WComposite *c1 = WA_NEW(&a, WComposite), *c2 = WA_NEW(&a, WComposite);
    c1->n = 2; c1->vals = WA_ARRAY(&a, WDatum, 2); c1->nulls = WA_ARRAY(&a, uint8_t, 2);
    c2->n = 2; c2->vals = WA_ARRAY(&a, WDatum, 2); c2->nulls = WA_ARRAY(&a, uint8_t, 2);
    c1->vals[0].i = 1; c1->vals[1].i = 2; c2->vals[0].i = 1; c2->vals[1].i = 2;
    WDatum p = { .cx = c1 }, q = { .cx = c2 };
    CHECK(wdatum_equal(arr, p, q));
    CHECK(wdatum_hash(arr, p, 3) == wdatum_hash(arr, q, 3));
    c2->nulls[1] = 1;
    CHECK(wdatum_compare(arr, p, q) > 0);    /* NULL first */
    CHECK(!wdatum_equal(arr, p, q));
    c2->n = 1;
    CHECK(wdatum_compare(arr, p, q) > 0);    /* longer greater */
    warena_free(&a);
}

/* A TZif file is read from bytes that may be damaged: counts are never trusted (found while
   writing the TZif fuzz target: a negative count in a version-2 header moved the reader's pointer
   outside the file before any bounds check) */
WTEST(types_tzif_damaged_headers)
{
    WError e;
    werr_clear(&e);
    unsigned char b[200];
    memset(b, 0, sizeof b);
    memcpy(b, "TZif2", 5);
    /* isut, isstd, leap, timecnt, typecnt, charcnt at 20..43 */
    memset(b + 32, 0xff, 4);
    b[35] = 0xf6;                               /* timecnt = -10, typecnt = 0: the version-1 block's
                                                   size is -50, which put the version-2 header 6
                                                   bytes before the buffer (an out-of-bounds read) */
    CHECK(wtz_from_tzif("Bad/Zone", b, sizeof b, &e) == NULL);
    CHECK(strstr(e.msg, "Bad/Zone") != NULL);
    memset(b + 32, 0, 4);
    memset(b + 20, 0x80, 4);                    /* isut = INT32_MIN */
    werr_clear(&e);
    CHECK(wtz_from_tzif("Bad/Zone", b, sizeof b, &e) == NULL);
    memset(b + 20, 0, 4);
    b[43] = 200;                                /* charcnt past the end of the file */
    werr_clear(&e);
    CHECK(wtz_from_tzif("Bad/Zone", b, sizeof b, &e) == NULL);
    werr_clear(&e);
    CHECK(wtz_from_tzif("Bad/Zone", b, 10, &e) == NULL);      /* shorter than a header */
}

/* wpow10_i128's table holds 10^0 .. 10^38 */
WTEST(pow10_i128_table)
{
    __int128 r = 1;
    for (int n = 0; n <= 38; n++) {
        CHECK(wpow10_i128(n) == r);
        if (n < 38) r *= 10;
    }
}
