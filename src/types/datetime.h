/*
 * datetime.h — calendar arithmetic, time zones and text forms of dates and times.
 *
 * Contract: proleptic Gregorian calendar as java.time uses it. Time zones are read from the
 * system's tzdata (TZif files under /usr/share/zoneinfo) or given as fixed offsets ('UTC',
 * 'GMT+08:00', '+08:00'); a WTimeZone is immutable once loaded. Depends on common/.
 */
#ifndef WEIR_TYPES_DATETIME_H
#define WEIR_TYPES_DATETIME_H

#include <stdbool.h>
#include <stdint.h>
#include "value.h"
#include "../common/error.h"
#include <stddef.h>

int64_t wdate_from_ymd(int y, int m, int d);                 /* days since epoch */
void    wdate_to_ymd(int64_t days, int *y, int *m, int *d);
bool    wdate_valid(int y, int m, int d);
int     wdate_days_in_month(int y, int m);

/* A loaded time zone (opaque). */
typedef struct WTimeZone WTimeZone;
/* Load by id ("UTC", "Asia/Shanghai", "GMT+08:00", "+05:30"); NULL + error for unknown ids
   (Flink: "The supported Zone ID is either a full name such as 'America/Los_Angeles', or a custom
   timezone id such as 'GMT-08:00', but configured Zone ID is 'x'."). */
WTimeZone *wtz_load(const char *id, WError *err);
/* A zone from the bytes of a TZif file (what wtz_load reads from tzdata); NULL with Flink's
   invalid-time-zone message when they are not a valid TZif file. Never trusts a count in the file. */
WTimeZone *wtz_from_tzif(const char *id, const unsigned char *bytes, size_t n, WError *err);
void wtz_free(WTimeZone *tz);
const char *wtz_id(const WTimeZone *tz);
/* Offset in seconds east of UTC at the instant epoch_ms. */
int32_t wtz_offset_at_instant(const WTimeZone *tz, int64_t epoch_ms);
/* Offset for a local wall-clock time (as epoch ms of the local fields); gaps/overlaps resolved
   as java.time's ZonedDateTime.of does (earlier offset for overlaps, shift forward in gaps). */
int32_t wtz_offset_for_local(const WTimeZone *tz, int64_t local_ms);

/* Text forms. buf must hold at least 40 bytes. Return the length written.
   TIMESTAMP(p): "yyyy-MM-dd HH:mm:ss" + exactly p fractional digits (p=0: none). */
int wfmt_date(int64_t days, char *buf);
int wfmt_time(int64_t millis_of_day, int precision, char *buf);
int wfmt_timestamp(WTimestamp ts, int precision, char *buf);
/* Java LocalDateTime.toString (T separator, seconds dropped when zero, fraction in 3/6/9 groups). */
int wfmt_timestamp_java(WTimestamp ts, char *buf);
/* Java LocalTime.toString. */
int wfmt_time_java(int64_t millis_of_day, char *buf);

/* Parse Flink's accepted text forms ('2020-01-01', '2020-01-01 10:00:00.123', '2020-01-01T10:00:00',
   '10:00:01'). false when the text is not a valid value. */
bool wparse_date(const char *s, int len, int64_t *days);
bool wparse_time(const char *s, int len, int64_t *millis_of_day);
bool wparse_timestamp(const char *s, int len, WTimestamp *out);
/* wparse_timestamp with failure detail for Java-style messages: returns -1 on success; >= 0 is the
   index where the text stopped matching; <= -2 means a field was out of range: *why is the
   java.time text ("Invalid value for MonthOfYear (valid values 1 - 12): ") and -2 - value the value. */
int wparse_timestamp_ex(const char *s, int len, WTimestamp *out, const char **why);

/* Java's SimpleDateFormat-style pattern formatting used by DATE_FORMAT / FROM_UNIXTIME
   (yyyy, MM, dd, HH, mm, ss, SSS, ...). */
int wfmt_pattern(WTimestamp ts, const char *pattern, char *buf, int bufsz);
/* The same as java.time's DateTimeFormatter reads a pattern (Flink's DATE_FORMAT of a TIMESTAMP):
   'u' is the year, 'w' and 'Y' the week and year of the US locale's week-based year (weeks from
   Sunday, week 1 the week of January 1st), 'S' digits of the fraction of the second (ts.ns too);
   -1 for a pattern that leaves a quote open, which java.time refuses. */
int wfmt_pattern_java_time(WTimestamp ts, const char *pattern, char *buf, int bufsz);
/* The finest time unit the pattern's fields read, in milliseconds (1: S, 1000: s, 60000: m,
   3600000: H k K h a, 86400000: the date fields; a pattern of quoted text and constant letters
   only: 86400000 too): two timestamps in the same unit (floor of ms / unit) format alike, so a
   caller may reuse the text. */
int64_t wfmt_pattern_unit_ms(const char *pattern);
/* Parse with such a pattern (TO_TIMESTAMP(s, fmt), UNIX_TIMESTAMP(s, fmt)); false if no match. */
bool wparse_pattern(const char *s, int len, const char *pattern, WTimestamp *out);

#endif
