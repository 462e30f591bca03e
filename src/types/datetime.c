/*
 * datetime.c — proleptic Gregorian date math and the text forms of DATE / TIME / TIMESTAMP.
 *
 * Owns: wdate_*, wfmt_date/time/timestamp(_java), wparse_date/time/timestamp, and the
 * SimpleDateFormat-style patterns (wfmt_pattern / wparse_pattern). Time zones are in timezone.c.
 * Parsing follows Flink's DateTimeUtils: parseDate (lenient y[-m[-d]] with an optional time part
 * that is ignored), parseTime (h[:m[:s[.f]]] with an optional +hh:mm offset), and the
 * DEFAULT_TIMESTAMP_FORMATTER ('yyyy-[M]M-[d]d[ [H]H:[m]m:[s]s[.f{0,9}]]'); in addition a 'T'
 * separator is accepted for timestamps. May call common/ only.
 */
#include "datetime.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define MS_PER_DAY 86400000LL

/* ---------------------------------------------------------------- calendar */

static int64_t floordiv64(int64_t a, int64_t b) { int64_t q = a / b; if ((a % b != 0) && ((a < 0) != (b < 0))) q--; return q; }
static int64_t floormod64(int64_t a, int64_t b) { int64_t m = a % b; if (m != 0 && ((m < 0) != (b < 0))) m += b; return m; }

int64_t wdate_from_ymd(int y, int m, int d)
{
    /* days_from_civil (H. Hinnant) */
    int64_t yy = (int64_t)y - (m <= 2);
    int64_t era = (yy >= 0 ? yy : yy - 399) / 400;
    int64_t yoe = yy - era * 400;
    int64_t mp = (m + 9) % 12;
    int64_t doy = (153 * mp + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void wdate_to_ymd(int64_t days, int *y, int *m, int *d)
{
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t yy = yoe + era * 400;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int dd = (int)(doy - (153 * mp + 2) / 5 + 1);
    int mm = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = (int)(yy + (mm <= 2));
    *m = mm;
    *d = dd;
}

static bool is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int wdate_days_in_month(int y, int m)
{
    static const int dm[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    if (m < 1 || m > 12) return 0;
    return m == 2 && is_leap(y) ? 29 : dm[m - 1];
}

bool wdate_valid(int y, int m, int d)
{
    return m >= 1 && m <= 12 && d >= 1 && d <= wdate_days_in_month(y, m);
}

/* ---------------------------------------------------------------- formatting */

static char *put2(char *p, int v) { p[0] = (char)('0' + v / 10 % 10); p[1] = (char)('0' + v % 10); return p + 2; }

/* Year as java.time prints it: 4 digits zero padded, '-' for negative, '+' above 9999. */
static char *put_year(char *p, int y)
{
    if (y >= 0 && y <= 9999) {
        p[0] = (char)('0' + y / 1000); p[1] = (char)('0' + y / 100 % 10);
        p[2] = (char)('0' + y / 10 % 10); p[3] = (char)('0' + y % 10);
        return p + 4;
    }
    if (y > 9999) return p + sprintf(p, "+%d", y);
    if (y > -1000) return p + sprintf(p, "-%04d", -y);
    return p + sprintf(p, "%d", y);
}

int wfmt_date(int64_t days, char *buf)
{
    int y, m, d;
    wdate_to_ymd(days, &y, &m, &d);
    char *p = put_year(buf, y);
    *p++ = '-'; p = put2(p, m); *p++ = '-'; p = put2(p, d);
    *p = 0;
    return (int)(p - buf);
}

/* HH:mm:ss + up to 9 fraction digits from nano-of-second. */
static char *put_hms_frac(char *p, int64_t ms_of_day, int32_t nano_extra, int precision)
{
    int h = (int)(ms_of_day / 3600000), mi = (int)(ms_of_day / 60000 % 60), s = (int)(ms_of_day / 1000 % 60);
    p = put2(p, h); *p++ = ':'; p = put2(p, mi); *p++ = ':'; p = put2(p, s);
    if (precision > 0) {
        if (precision > 9) precision = 9;
        int64_t nanos = (ms_of_day % 1000) * 1000000 + nano_extra;
        char f[10];
        for (int i = 8; i >= 0; i--) { f[i] = (char)('0' + nanos % 10); nanos /= 10; }
        *p++ = '.';
        memcpy(p, f, (size_t)precision);
        p += precision;
    }
    return p;
}

int wfmt_time(int64_t millis_of_day, int precision, char *buf)
{
    int64_t t = floormod64(millis_of_day, MS_PER_DAY);
    char *p = put_hms_frac(buf, t, 0, precision);
    *p = 0;
    return (int)(p - buf);
}

int wfmt_timestamp(WTimestamp ts, int precision, char *buf)
{
    int64_t days = floordiv64(ts.ms, MS_PER_DAY);
    int64_t tod = ts.ms - days * MS_PER_DAY;
    int n = wfmt_date(days, buf);
    char *p = buf + n;
    *p++ = ' ';
    p = put_hms_frac(p, tod, ts.ns, precision);
    *p = 0;
    return (int)(p - buf);
}

/* LocalTime.toString: HH:mm, then :ss if seconds or nanos, then .SSS / .SSSSSS / .SSSSSSSSS */
static char *put_time_java(char *p, int64_t tod, int32_t ns_extra)
{
    int h = (int)(tod / 3600000), mi = (int)(tod / 60000 % 60), s = (int)(tod / 1000 % 60);
    int64_t nano = (tod % 1000) * 1000000 + ns_extra;
    p = put2(p, h); *p++ = ':'; p = put2(p, mi);
    if (s > 0 || nano > 0) {
        *p++ = ':'; p = put2(p, s);
        if (nano > 0) {
            if (nano % 1000000 == 0) p += sprintf(p, ".%03d", (int)(nano / 1000000));
            else if (nano % 1000 == 0) p += sprintf(p, ".%06d", (int)(nano / 1000));
            else p += sprintf(p, ".%09d", (int)nano);
        }
    }
    return p;
}

int wfmt_timestamp_java(WTimestamp ts, char *buf)
{
    int64_t days = floordiv64(ts.ms, MS_PER_DAY);
    int64_t tod = ts.ms - days * MS_PER_DAY;
    int n = wfmt_date(days, buf);
    char *p = buf + n;
    *p++ = 'T';
    p = put_time_java(p, tod, ts.ns);
    *p = 0;
    return (int)(p - buf);
}

int wfmt_time_java(int64_t millis_of_day, char *buf)
{
    char *p = put_time_java(buf, floormod64(millis_of_day, MS_PER_DAY), 0);
    *p = 0;
    return (int)(p - buf);
}

/* ---------------------------------------------------------------- parsing */

/* Java's String.trim() + Integer.parseInt on s[a,b): optional sign, 1..10 digits, int range. */
static bool parse_int_trim(const char *s, int a, int b, int *out)
{
    while (a < b && (unsigned char)s[a] <= ' ') a++;
    while (b > a && (unsigned char)s[b - 1] <= ' ') b--;
    if (a >= b) return false;
    bool neg = false;
    if (s[a] == '-' || s[a] == '+') { neg = s[a] == '-'; a++; }
    if (a >= b) return false;
    int64_t v = 0;
    for (int i = a; i < b; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        v = v * 10 + (s[i] - '0');
        if (v > 2147483648LL) return false;
    }
    if (neg) v = -v;
    if (v > 2147483647LL || v < -2147483648LL) return false;
    *out = (int)v;
    return true;
}

static int find_char(const char *s, int from, int len, char c)
{
    for (int i = from; i < len; i++) if (s[i] == c) return i;
    return -1;
}

bool wparse_date(const char *s, int len, int64_t *days)
{
    /* Flink DateTimeUtils.parseDate: cut at the first space (if not at 0), then y[-m[-d]]. */
    int ws = find_char(s, 0, len, ' ');
    if (ws > 0) len = ws;
    int y, m = 1, d = 1;
    int h1 = find_char(s, 0, len, '-');
    if (h1 == 0) {
        /* a leading '-' belongs to the year in Java's indexOf logic only if another follows;
           Flink takes the first hyphen: "-5" -> year "" -> invalid */
        return false;
    }
    if (h1 < 0) {
        if (!parse_int_trim(s, 0, len, &y)) return false;
    } else {
        if (!parse_int_trim(s, 0, h1, &y)) return false;
        int h2 = find_char(s, h1 + 1, len, '-');
        if (h2 < 0) {
            if (!parse_int_trim(s, h1 + 1, len, &m)) return false;
        } else {
            if (!parse_int_trim(s, h1 + 1, h2, &m)) return false;
            if (!parse_int_trim(s, h2 + 1, len, &d)) return false;
        }
    }
    if (!wdate_valid(y, m, d)) return false;
    *days = wdate_from_ymd(y, m, d);
    return true;
}

/* Flink parseFraction: milliseconds from the digits, rounded on the 4th digit. */
static int parse_fraction_ms(const char *s, int a, int b)
{
    while (a < b && (unsigned char)s[a] <= ' ') a++;
    while (b > a && (unsigned char)s[b - 1] <= ' ') b--;
    int mult = 100, r = 0;
    for (int i = a; i < b; i++) {
        char c = s[i];
        int x = (c < '0' || c > '9') ? 0 : c - '0';
        r += mult * x;
        if (mult < 10) {
            if (i + 1 < b && s[i + 1] >= '5') ++r;
            break;
        }
        mult /= 10;
    }
    return r;
}

bool wparse_time(const char *s, int len, int64_t *millis_of_day)
{
    int colon1 = find_char(s, 0, len, ':');
    int tzh = 0, tzm = 0, op = -1, end = len;
    int tz = find_char(s, 0, len, '-');
    if (tz < 0) { tz = find_char(s, 0, len, '+'); op = 1; }
    if (tz >= 0) {
        end = tz;
        int colon3 = find_char(s, tz, len, ':');
        if (colon3 < 0) {
            if (!parse_int_trim(s, tz + 1, len, &tzh)) return false;
        } else {
            if (!parse_int_trim(s, tz + 1, colon3, &tzh)) return false;
            if (!parse_int_trim(s, colon3 + 1, len, &tzm)) return false;
        }
    }
    int h, mi = 0, sec = 0, ms = 0;
    if (colon1 < 0 || colon1 >= end) {
        if (!parse_int_trim(s, 0, end, &h)) return false;
    } else {
        if (!parse_int_trim(s, 0, colon1, &h)) return false;
        int colon2 = find_char(s, colon1 + 1, end, ':');
        if (colon2 < 0) {
            if (!parse_int_trim(s, colon1 + 1, end, &mi)) return false;
        } else {
            if (!parse_int_trim(s, colon1 + 1, colon2, &mi)) return false;
            int dot = find_char(s, colon2, end, '.');
            if (dot < 0) {
                if (!parse_int_trim(s, colon2 + 1, end, &sec)) return false;
            } else {
                if (!parse_int_trim(s, colon2 + 1, dot, &sec)) return false;
                ms = parse_fraction_ms(s, dot + 1, end);
            }
        }
    }
    h += op * tzh;
    mi += op * tzm;
    int64_t v = (int64_t)h * 3600000 + (int64_t)mi * 60000 + (int64_t)sec * 1000 + ms;
    if (v < 0 || v >= MS_PER_DAY) return false;
    *millis_of_day = v;
    return true;
}

/* Read 1..max digits at *i (exactly `exact` digits if exact > 0). */
static bool digits(const char *s, int len, int *i, int minw, int maxw, int64_t *out)
{
    int64_t v = 0;
    int n = 0;
    while (*i < len && n < maxw && s[*i] >= '0' && s[*i] <= '9') { v = v * 10 + (s[*i] - '0'); (*i)++; n++; }
    if (n < minw) return false;
    *out = v;
    return true;
}

int wparse_timestamp_ex(const char *s, int len, WTimestamp *out, const char **why)
{
    int i = 0;
    int64_t y, mo, d, h = 0, mi = 0, sec = 0, nano = 0;
    *why = NULL;
    bool neg = false;
    if (i < len && (s[i] == '-' || s[i] == '+')) { neg = s[i] == '-'; i++; }
    int st = i;
    if (!digits(s, len, &i, 4, 9, &y)) return st;
    if (neg) y = -y;
    if (i >= len || s[i] != '-') return i;
    i++;
    st = i;
    if (!digits(s, len, &i, 1, 2, &mo)) return st;
    if (i >= len || s[i] != '-') return i;
    i++;
    st = i;
    if (!digits(s, len, &i, 1, 2, &d)) return st;
    if (i < len) {
        if (s[i] != ' ' && s[i] != 'T') return i;
        i++;
        /* [HH][H]:[mm][m]:[ss][s] — each may be empty, as in Flink's optional sections */
        int64_t v;
        if (digits(s, len, &i, 1, 2, &v)) h = v;
        if (i >= len || s[i] != ':') return i;
        i++;
        if (digits(s, len, &i, 1, 2, &v)) mi = v;
        if (i < len && s[i] == ':') {
            i++;
            if (digits(s, len, &i, 1, 2, &v)) sec = v;
            if (i < len && s[i] == '.') {
                i++;
                int n = 0;
                int64_t f = 0;
                while (i < len && n < 9 && s[i] >= '0' && s[i] <= '9') { f = f * 10 + (s[i] - '0'); i++; n++; }
                for (int k = n; k < 9; k++) f *= 10;
                nano = f;
            }
        } else if (i < len && s[i] != ':') {
            return i;
        }
        if (i < len) return i;
    }
    if (mo < 1 || mo > 12) { *why = "Invalid value for MonthOfYear (valid values 1 - 12): "; return -2 - (int)mo; }
    if (d < 1 || d > 31) { *why = "Invalid value for DayOfMonth (valid values 1 - 28/31): "; return -2 - (int)d; }
    if (h > 23) { *why = "Invalid value for HourOfDay (valid values 0 - 23): "; return -2 - (int)h; }
    if (mi > 59) { *why = "Invalid value for MinuteOfHour (valid values 0 - 59): "; return -2 - (int)mi; }
    if (sec > 59) { *why = "Invalid value for SecondOfMinute (valid values 0 - 59): "; return -2 - (int)sec; }
    /* java.time SMART resolution clamps day-of-month 29..31 to the month's length */
    int dim = wdate_days_in_month((int)y, (int)mo);
    if (d > dim) d = dim;
    int64_t days = wdate_from_ymd((int)y, (int)mo, (int)d);
    out->ms = days * MS_PER_DAY + h * 3600000 + mi * 60000 + sec * 1000 + nano / 1000000;
    out->ns = (int32_t)(nano % 1000000);
    return -1;
}

bool wparse_timestamp(const char *s, int len, WTimestamp *out)
{
    const char *why;
    return wparse_timestamp_ex(s, len, out, &why) == -1;
}

/* ---------------------------------------------------------------- patterns */

static const char *const MONTHS[12] = { "January", "February", "March", "April", "May", "June", "July",
                                        "August", "September", "October", "November", "December" };
static const char *const WDAYS[7] = { "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday" };

typedef struct PBuf { char *buf; int size, len; } PBuf;

static void pb_putc(PBuf *b, char c) { if (b->len + 1 < b->size) b->buf[b->len] = c; b->len++; }
static void pb_puts(PBuf *b, const char *s) { while (*s) pb_putc(b, *s++); }
/* v as "%0*lld" prints it (the sign counts in the width), at most 31 characters as the text of
   snprintf into 32 bytes was; written digit by digit (DATE_FORMAT calls this per field). */
static void pb_num(PBuf *b, int64_t v, int width)
{
    char digits[20];
    int nd = 0;
    uint64_t u = v < 0 ? 0ULL - (uint64_t)v : (uint64_t)v;
    do { digits[nd++] = (char)('0' + u % 10); u /= 10; } while (u);
    int sign = v < 0, pad = width - sign - nd, room = 31;
    if (sign) { pb_putc(b, '-'); room--; }
    for (; pad > 0 && room > 0; pad--, room--) pb_putc(b, '0');
    while (nd > 0 && room-- > 0) pb_putc(b, digits[--nd]);
}

/* ISO day of week 0 = Monday for epoch day */
static int dow_of(int64_t days) { return (int)floormod64(days + 3, 7); }

/* The quoted text of a pattern whose opening quote is at p ('' inside it, or alone, is one quote):
   its characters into b (NULL: skipped); returns the position after it. */
static const char *pattern_quoted(const char *p, PBuf *b)
{
    assert(*p == '\'');
    p++;
    if (*p == '\'') { if (b) pb_putc(b, '\''); return p + 1; }
    while (*p) {
        if (*p == '\'') {
            if (p[1] != '\'') return p + 1;
            if (b) pb_putc(b, '\'');
            p += 2;
            continue;
        }
        if (b) pb_putc(b, *p);
        p++;
    }
    return p;
}

/* A quote of the pattern is left open (java.time refuses such a pattern). */
static bool quote_left_open(const char *p)
{
    while (*p) {
        if (*p != '\'') { p++; continue; }
        p++;
        if (*p == '\'') { p++; continue; }     /* '' alone: one quote */
        for (;;) {
            if (!*p) return true;
            if (*p == '\'' && p[1] == '\'') { p += 2; continue; }
            if (*p == '\'') { p++; break; }
            p++;
        }
    }
    return false;
}

/* The week of day `days` (epoch days, in year y) in the US locale's week-based year, which java.time
   uses for 'w' and 'Y' there: weeks start on Sunday and week 1 is the week of January 1st. */
static void us_week(int64_t days, int y, int *week, int *week_year)
{
    int sun0 = (dow_of(days) + 1) % 7;              /* 0 = Sunday */
    int ys, ms, ds;
    wdate_to_ymd(days + (6 - sun0), &ys, &ms, &ds);  /* the week's Saturday */
    if (ys > y) { *week = 1; *week_year = ys; return; }
    int64_t jan1 = wdate_from_ymd(y, 1, 1);
    int off = (dow_of(jan1) + 1) % 7;
    *week = (int)((days - jan1 + off) / 7) + 1;
    *week_year = y;
}

static int fmt_pattern(WTimestamp ts, const char *pattern, char *buf, int bufsz, bool java_time)
{
    if (java_time && quote_left_open(pattern)) return -1;
    PBuf b = { buf, bufsz, 0 };
    int64_t days = floordiv64(ts.ms, MS_PER_DAY);
    int64_t tod = ts.ms - days * MS_PER_DAY;
    int y, mo, d;
    wdate_to_ymd(days, &y, &mo, &d);
    int h = (int)(tod / 3600000), mi = (int)(tod / 60000 % 60), s = (int)(tod / 1000 % 60), ms = (int)(tod % 1000);
    const char *p = pattern;
    while (*p) {
        char c = *p;
        if (c == '\'') { p = pattern_quoted(p, &b); continue; }
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) { pb_putc(&b, c); p++; continue; }
        int n = 0;
        while (p[n] == c) n++;
        p += n;
        if (java_time && (c == 'u' || c == 'Y' || c == 'w' || c == 'S')) {
            int week = 0, wy = y;
            if (c == 'w' || c == 'Y') us_week(days, y, &week, &wy);
            if (c == 'w') { pb_num(&b, week, n); continue; }
            if (c == 'S') {                             /* fraction of the second: its first n digits */
                char frac[10];
                snprintf(frac, sizeof frac, "%09d", ms * 1000000 + (int)ts.ns);
                for (int k = 0; k < n; k++) pb_putc(&b, k < 9 ? frac[k] : '0');
                continue;
            }
            int year = c == 'Y' ? wy : y;
            if (n == 2) pb_num(&b, ((year % 100) + 100) % 100, 2);
            else pb_num(&b, year, n);
            continue;
        }
        switch (c) {
        case 'y': case 'u': case 'Y':
            if (c == 'u' && n == 1) { pb_num(&b, dow_of(days) + 1, 1); break; }
            if (n == 2) pb_num(&b, ((y % 100) + 100) % 100, 2);
            else pb_num(&b, y, n);
            break;
        case 'M': case 'L':
            if (n >= 4) pb_puts(&b, MONTHS[mo - 1]);
            else if (n == 3) { char t[4]; memcpy(t, MONTHS[mo - 1], 3); t[3] = 0; pb_puts(&b, t); }
            else pb_num(&b, mo, n);
            break;
        case 'd': pb_num(&b, d, n); break;
        case 'D': pb_num(&b, days - wdate_from_ymd(y, 1, 1) + 1, n); break;
        case 'H': pb_num(&b, h, n); break;
        case 'k': pb_num(&b, h == 0 ? 24 : h, n); break;
        case 'K': pb_num(&b, h % 12, n); break;
        case 'h': pb_num(&b, h % 12 == 0 ? 12 : h % 12, n); break;
        case 'm': pb_num(&b, mi, n); break;
        case 's': pb_num(&b, s, n); break;
        case 'S': pb_num(&b, ms, n); break;
        case 'a': pb_puts(&b, h < 12 ? "AM" : "PM"); break;
        case 'E':
            if (n >= 4) pb_puts(&b, WDAYS[dow_of(days)]);
            else { char t[4]; memcpy(t, WDAYS[dow_of(days)], 3); t[3] = 0; pb_puts(&b, t); }
            break;
        case 'Z': pb_puts(&b, "+0000"); break;
        case 'X': pb_puts(&b, "Z"); break;
        case 'z': pb_puts(&b, "UTC"); break;
        default:
            for (int k = 0; k < n; k++) pb_putc(&b, c);
            break;
        }
    }
    if (bufsz > 0) buf[b.len < bufsz ? b.len : bufsz - 1] = 0;
    return b.len;
}

int wfmt_pattern(WTimestamp ts, const char *pattern, char *buf, int bufsz)
{
    return fmt_pattern(ts, pattern, buf, bufsz, false);
}

int wfmt_pattern_java_time(WTimestamp ts, const char *pattern, char *buf, int bufsz)
{
    return fmt_pattern(ts, pattern, buf, bufsz, true);
}

int64_t wfmt_pattern_unit_ms(const char *pattern)
{
    int64_t unit = MS_PER_DAY;
    for (const char *p = pattern; *p;) {
        if (*p == '\'') { p = pattern_quoted(p, NULL); continue; }     /* quoted text: constant */
        int64_t u = *p == 'S' ? 1 : *p == 's' ? 1000 : *p == 'm' ? 60000
                  : (*p == 'H' || *p == 'k' || *p == 'K' || *p == 'h' || *p == 'a') ? 3600000 : MS_PER_DAY;
        if (u < unit) unit = u;
        p++;
    }
    return unit;
}

static bool is_numeric_field(char c)
{
    return c == 'y' || c == 'u' || c == 'Y' || c == 'M' || c == 'L' || c == 'd' || c == 'D' || c == 'H' ||
           c == 'k' || c == 'K' || c == 'h' || c == 'm' || c == 's' || c == 'S';
}

static int match_name(const char *s, int len, int i, const char *const *names, int count, bool full, int *idx)
{
    for (int k = 0; k < count; k++) {
        int nl = full ? (int)strlen(names[k]) : 3;
        if (i + nl <= len && strncasecmp(s + i, names[k], (size_t)nl) == 0) { *idx = k; return nl; }
    }
    /* full name failed: try the short form */
    if (full) return match_name(s, len, i, names, count, false, idx);
    return 0;
}

bool wparse_pattern(const char *s, int len, const char *pattern, WTimestamp *out)
{
    int64_t y = 1970, mo = 1, d = 1, h = 0, mi = 0, sec = 0, ms = 0;
    int ampm = -1;
    bool h12 = false;
    int i = 0;
    const char *p = pattern;
    while (*p) {
        char c = *p;
        if (c == '\'') {
            p++;
            if (*p == '\'') { if (i >= len || s[i] != '\'') return false; i++; p++; continue; }
            while (*p) {
                if (*p == '\'') {
                    if (p[1] == '\'') { if (i >= len || s[i] != '\'') return false; i++; p += 2; continue; }
                    p++;
                    break;
                }
                if (i >= len || s[i] != *p) return false;
                i++; p++;
            }
            continue;
        }
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
            if (i >= len || s[i] != c) return false;
            i++; p++;
            continue;
        }
        int n = 0;
        while (p[n] == c) n++;
        p += n;
        if (is_numeric_field(c) && !((c == 'M' || c == 'L') && n >= 3)) {
            /* adjacent numeric field: take exactly n digits (SimpleDateFormat's abutting rule) */
            bool abut = *p && is_numeric_field(*p);
            bool neg = false;
            if ((c == 'y' || c == 'Y' || c == 'u') && i < len && (s[i] == '-' || s[i] == '+') && !abut) {
                neg = s[i] == '-'; i++;
            }
            int64_t v;
            if (!digits(s, len, &i, abut ? n : 1, abut ? n : 18, &v)) return false;
            if (neg) v = -v;
            switch (c) {
            case 'y': case 'Y': case 'u':
                if (n <= 2 && v >= 0 && v < 100) v += (v < 70) ? 2000 : 1900;
                y = v;
                break;
            case 'M': case 'L': mo = v; break;
            case 'd': d = v; break;
            case 'D': mo = 1; d = v; break;
            case 'H': case 'k': h = (c == 'k' && v == 24) ? 0 : v; break;
            case 'K': case 'h': h = (c == 'h' && v == 12) ? 0 : v; h12 = true; break;
            case 'm': mi = v; break;
            case 's': sec = v; break;
            case 'S': ms = v; break;
            default: break;
            }
            continue;
        }
        int idx = 0, used;
        switch (c) {
        case 'M': case 'L':
            used = match_name(s, len, i, MONTHS, 12, n >= 4, &idx);
            if (!used) return false;
            mo = idx + 1; i += used;
            break;
        case 'E':
            used = match_name(s, len, i, WDAYS, 7, n >= 4, &idx);
            if (!used) return false;
            i += used;
            break;
        case 'a':
            if (i + 2 <= len && strncasecmp(s + i, "AM", 2) == 0) ampm = 0;
            else if (i + 2 <= len && strncasecmp(s + i, "PM", 2) == 0) ampm = 1;
            else return false;
            i += 2;
            break;
        default:
            return false;
        }
    }
    if (ampm == 1 && (h12 || h < 12)) h += 12;
    /* lenient calendar: roll months/days over as SimpleDateFormat does */
    int64_t yy = y + floordiv64(mo - 1, 12);
    int64_t mm = floormod64(mo - 1, 12) + 1;
    if (yy < -1000000 || yy > 1000000) return false;
    int64_t days = wdate_from_ymd((int)yy, (int)mm, 1) + (d - 1);
    out->ms = days * MS_PER_DAY + h * 3600000 + mi * 60000 + sec * 1000 + ms;
    out->ns = 0;
    return true;
}
