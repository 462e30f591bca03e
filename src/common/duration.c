/* duration.c — Flink duration parsing/formatting; see duration.h for the contract. */
#include "duration.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef struct { const char *label; int64_t ns; } UnitLabel;

/* Labels as Flink's TimeUtils.TimeUnit accepts them (singular and plural). */
static const UnitLabel UNITS[] = {
    {"d", 86400000000000LL}, {"day", 86400000000000LL}, {"days", 86400000000000LL},
    {"h", 3600000000000LL}, {"hour", 3600000000000LL}, {"hours", 3600000000000LL},
    {"min", 60000000000LL}, {"m", 60000000000LL}, {"minute", 60000000000LL}, {"minutes", 60000000000LL},
    {"mins", 60000000000LL},
    {"s", 1000000000LL}, {"sec", 1000000000LL}, {"secs", 1000000000LL}, {"second", 1000000000LL},
    {"seconds", 1000000000LL},
    {"ms", 1000000LL}, {"milli", 1000000LL}, {"millis", 1000000LL}, {"millisecond", 1000000LL},
    {"milliseconds", 1000000LL},
    {"us", 1000LL}, {"\xc2\xb5s", 1000LL}, {"micro", 1000LL}, {"micros", 1000LL},
    {"microsecond", 1000LL}, {"microseconds", 1000LL},
    {"ns", 1LL}, {"nano", 1LL}, {"nanos", 1LL}, {"nanosecond", 1LL}, {"nanoseconds", 1LL},
};

/* java.time.Duration.parse's form, which TimeUtils.parseDuration tries for a text without a
   leading number: [+]P[nD][T[nH][nM][n[.f]S]] (letters in either case; at least one part, T
   followed by one). Negative durations are not taken (no weir option can use one). */
static bool iso_duration(const char *p, size_t len, int64_t *out_ms)
{
    const char *e = p + len;
    if (p < e && *p == '+') p++;
    if (p >= e || (*p != 'P' && *p != 'p')) return false;
    p++;
    __int128 ms = 0;
    bool time = false, any = false, any_time = false;
    static const char ORDER_DATE[] = "D", ORDER_TIME[] = "HMS";
    const char *order = ORDER_DATE;
    while (p < e) {
        if (*p == 'T' || *p == 't') {
            if (time) return false;
            time = true;
            order = ORDER_TIME;
            p++;
            continue;
        }
        const char *num = p;
        __int128 v = 0;
        while (p < e && isdigit((unsigned char)*p)) {
            v = v * 10 + (*p - '0');
            if (v > (__int128)INT64_MAX) return false;
            p++;
        }
        if (p == num) return false;
        int64_t frac_ms = 0;
        bool frac = false;
        if (p < e && (*p == '.' || *p == ',')) {
            frac = true;
            p++;
            int digits = 0;
            const char *f = p;
            while (p < e && isdigit((unsigned char)*p)) {
                if (digits < 3) frac_ms = frac_ms * 10 + (*p - '0');
                digits++;
                p++;
            }
            if (p == f || digits > 9) return false;
            for (int d = digits; d < 3; d++) frac_ms *= 10;
        }
        if (p >= e) return false;
        char u = (char)toupper((unsigned char)*p++);
        const char *at = strchr(order, u);
        if (!at || (frac && u != 'S')) return false;
        order = at + 1;                 /* each part once, in order */
        static const int64_t MS[] = {['D' - 'A'] = 86400000LL, ['H' - 'A'] = 3600000LL, ['M' - 'A'] = 60000LL,
                                     ['S' - 'A'] = 1000LL};
        ms += v * MS[u - 'A'] + frac_ms;
        if (ms > (__int128)INT64_MAX) return false;
        any = true;
        if (time) any_time = true;
    }
    if (!any || (time && !any_time)) return false;
    *out_ms = (int64_t)ms;
    return true;
}

bool wduration_parse(const char *text, int64_t *out_ms, WError *err)
{
    const char *p = text;
    while (isspace((unsigned char)*p)) p++;
    if (!*p) return werr_set(err, WEXC_ILLEGAL_ARG, "argument is an empty- or whitespace-only string");
    const char *num = p;
    while (isdigit((unsigned char)*p)) p++;
    if (p == num) {
        size_t len = strlen(p);
        while (len && isspace((unsigned char)p[len - 1])) len--;
        if (iso_duration(p, len, out_ms)) return true;
        return werr_set(err, WEXC_NUMBER, "text does not start with a number");
    }
    if (p - num > 18)
        return werr_set(err, WEXC_ILLEGAL_ARG,
                        "The value '%.*s' cannot be re represented as 64bit number (numeric overflow).",
                        (int)(p - num), num);
    int64_t value = 0;
    for (const char *q = num; q < p; q++) value = value * 10 + (*q - '0');
    while (isspace((unsigned char)*p)) p++;
    const char *unit = p;
    size_t ulen = strlen(unit);
    while (ulen && isspace((unsigned char)unit[ulen - 1])) ulen--;
    int64_t ns_per = 1000000LL; /* no unit: milliseconds */
    if (ulen) {
        bool found = false;
        for (size_t i = 0; i < sizeof UNITS / sizeof UNITS[0]; i++) {
            if (strlen(UNITS[i].label) == ulen && strncasecmp(UNITS[i].label, unit, ulen) == 0) {
                ns_per = UNITS[i].ns;
                found = true;
                break;
            }
        }
        if (!found)
            return werr_set(err, WEXC_ILLEGAL_ARG,
                            "Time interval unit label '%.*s' does not match any of the recognized units: "
                            "DAYS: (d | day | days), HOURS: (h | hour | hours), MINUTES: (min | m | minute | "
                            "minutes), SECONDS: (s | sec | secs | second | seconds), MILLISECONDS: (ms | milli | "
                            "millis | millisecond | milliseconds), MICROSECONDS: (\xc2\xb5s | micro | micros | "
                            "microsecond | microseconds), NANOSECONDS: (ns | nano | nanos | nanosecond | "
                            "nanoseconds)",
                            (int)ulen, unit);
    }
    __int128 ns = (__int128)value * ns_per;
    if (ns > (__int128)INT64_MAX)
        return werr_set(err, WEXC_ILLEGAL_ARG, "The value '%s' cannot be represented as java.time.Duration "
                        "(numeric overflow).", text);
    *out_ms = (int64_t)(ns / 1000000);
    return true;
}

void wduration_format(int64_t ms, char *buf, size_t bufsz)
{
    static const struct { const char *label; int64_t ms; } HIGH[] = {
        {"d", 86400000LL}, {"h", 3600000LL}, {"min", 60000LL}, {"s", 1000LL}, {"ms", 1LL},
    };
    if (ms == 0) { snprintf(buf, bufsz, "0 ms"); return; }
    for (size_t i = 0; i < sizeof HIGH / sizeof HIGH[0]; i++) {
        if (ms % HIGH[i].ms == 0) {
            snprintf(buf, bufsz, "%lld %s", (long long)(ms / HIGH[i].ms), HIGH[i].label);
            return;
        }
    }
}
