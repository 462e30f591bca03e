/*
 * timezone.c — time zones: TZif (v2+, 64-bit section) files from /usr/share/zoneinfo, their POSIX
 * TZ footer rule for instants after the last transition, and fixed offsets ('UTC', 'GMT+08:00',
 * '+05:30', 'UTC+08:00' is rejected as Flink does).
 *
 * Owns: WTimeZone and the wtz_* functions of datetime.h. A loaded zone is immutable. Unknown ids
 * give Flink's ValidationException text (TableConfigUtils.validateTimeZone). May call common/.
 */
#include "datetime.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "../common/arena.h"

typedef struct PosixRule {       /* one DST switch rule: Mm.w.d or Jn or n, at `time` seconds */
    char kind;                   /* 'M', 'J', 'N' */
    int m, w, d;                 /* M: month, week, weekday; J/N: day in d */
    int32_t time;
} PosixRule;

struct WTimeZone {
    char id[128];
    bool fixed;
    int32_t fixed_off;
    int ntrans;
    int64_t *trans;              /* transition instants, seconds */
    int32_t *after;              /* offset (seconds) in effect from trans[i] */
    int32_t initial;             /* offset before the first transition */
    bool has_rule;               /* footer present */
    int32_t std_off, dst_off;    /* footer offsets (seconds east) */
    bool has_dst;
    PosixRule start, end;
};

static const char *const FLINK_TZ_MSG =
    "The supported Zone ID is either a full name such as 'America/Los_Angeles', or a custom "
    "timezone id such as 'GMT-08:00', but configured Zone ID is '%s'.";

const char *wtz_id(const WTimeZone *tz) { return tz ? tz->id : "UTC"; }

void wtz_free(WTimeZone *tz)
{
    if (!tz) return;
    free(tz->trans);
    free(tz->after);
    free(tz);
}

static WTimeZone *new_fixed(const char *id, int32_t off)
{
    WTimeZone *tz = wcalloc(1, sizeof *tz);
    snprintf(tz->id, sizeof tz->id, "%s", id);
    tz->fixed = true;
    tz->fixed_off = off;
    return tz;
}

/* "+h", "+hh", "+hh:mm", "+hhmm", "+hh:mm:ss" (java ZoneOffset.of); returns false if malformed. */
static bool parse_offset(const char *s, int32_t *off)
{
    if (*s != '+' && *s != '-') return false;
    int sign = *s == '-' ? -1 : 1;
    s++;
    size_t n = strlen(s);
    int h = 0, m = 0, sec = 0;
    for (size_t i = 0; i < n; i++) if (!isdigit((unsigned char)s[i]) && s[i] != ':') return false;
    if (n == 1 || n == 2) { h = atoi(s); }
    else if (n == 5 && s[2] == ':') { h = (s[0] - '0') * 10 + s[1] - '0'; m = atoi(s + 3); }
    else if (n == 4 && s[2] != ':') { h = (s[0] - '0') * 10 + s[1] - '0'; m = atoi(s + 2); }
    else if (n == 8 && s[2] == ':' && s[5] == ':') {
        h = (s[0] - '0') * 10 + s[1] - '0'; m = (s[3] - '0') * 10 + s[4] - '0'; sec = atoi(s + 6);
    } else return false;
    if (h > 18 || m > 59 || sec > 59) return false;
    int32_t v = h * 3600 + m * 60 + sec;
    if (v > 18 * 3600) return false;
    *off = sign * v;
    return true;
}

/* ------------------------------------------------------------ TZif */

static int64_t be64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | p[i];
    return (int64_t)v;
}
static int32_t be32(const unsigned char *p)
{
    return (int32_t)(((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3]);
}

/* POSIX TZ parsing helpers */
static const char *skip_name(const char *p)
{
    if (*p == '<') { while (*p && *p != '>') p++; return *p ? p + 1 : p; }
    while (*p && isalpha((unsigned char)*p)) p++;
    return p;
}
static const char *parse_hms(const char *p, int32_t *out)
{
    int sign = 1;
    if (*p == '+') p++;
    else if (*p == '-') { sign = -1; p++; }
    int h = 0, m = 0, s = 0;
    if (!isdigit((unsigned char)*p)) return NULL;
    /* RFC 8536 allows hours up to 167; more digits than that are a damaged footer (an int
       overflow before: found by tests/fuzz/fuzz_tzif.c) */
    while (isdigit((unsigned char)*p)) { h = h * 10 + (*p++ - '0'); if (h > 167) return NULL; }
    if (*p == ':') { p++; while (isdigit((unsigned char)*p)) { m = m * 10 + (*p++ - '0'); if (m > 59) return NULL; } }
    if (*p == ':') { p++; while (isdigit((unsigned char)*p)) { s = s * 10 + (*p++ - '0'); if (s > 59) return NULL; } }
    *out = sign * (h * 3600 + m * 60 + s);
    return p;
}
static const char *parse_rule(const char *p, PosixRule *r)
{
    r->time = 7200;
    if (*p == 'M') {
        r->kind = 'M';
        p++;
        r->m = (int)strtol(p, (char **)&p, 10);
        if (*p++ != '.') return NULL;
        r->w = (int)strtol(p, (char **)&p, 10);
        if (*p++ != '.') return NULL;
        r->d = (int)strtol(p, (char **)&p, 10);
    } else if (*p == 'J') {
        r->kind = 'J';
        p++;
        r->d = (int)strtol(p, (char **)&p, 10);
    } else if (isdigit((unsigned char)*p)) {
        r->kind = 'N';
        r->d = (int)strtol(p, (char **)&p, 10);
    } else return NULL;
    /* the fields index months and days: out of their POSIX ranges is a damaged footer */
    if (r->kind == 'M' && (r->m < 1 || r->m > 12 || r->w < 1 || r->w > 5 || r->d < 0 || r->d > 6)) return NULL;
    if (r->kind == 'J' && (r->d < 1 || r->d > 365)) return NULL;
    if (r->kind == 'N' && (r->d < 0 || r->d > 365)) return NULL;
    if (*p == '/') {
        p++;
        p = parse_hms(p, &r->time);
        if (!p) return NULL;
    }
    return p;
}

static bool parse_footer(WTimeZone *tz, const char *s)
{
    const char *p = skip_name(s);
    int32_t std;
    p = parse_hms(p, &std);
    if (!p) return false;
    tz->std_off = -std;
    tz->has_rule = true;
    if (!*p) { tz->has_dst = false; return true; }
    p = skip_name(p);
    tz->dst_off = tz->std_off + 3600;
    if (*p && *p != ',') {
        int32_t dst;
        p = parse_hms(p, &dst);
        if (!p) return false;
        tz->dst_off = -dst;
    }
    if (*p != ',') { tz->has_dst = false; return true; }
    p = parse_rule(p + 1, &tz->start);
    if (!p || *p != ',') return false;
    p = parse_rule(p + 1, &tz->end);
    if (!p) return false;
    tz->has_dst = true;
    return true;
}

static bool load_tzif(WTimeZone *tz, const unsigned char *b, size_t n)
{
    if (n < 44 || memcmp(b, "TZif", 4) != 0) return false;
    int ver = b[4];
    const unsigned char *h = b;
    int32_t isut = be32(h + 20), isstd = be32(h + 24), leap = be32(h + 28), timecnt = be32(h + 32),
            typecnt = be32(h + 36), charcnt = be32(h + 40);
    size_t tsize = 4;
    const unsigned char *d = h + 44;
    if (ver >= '2') {
        /* the counts come from the file: negative or past its end is a damaged file, checked
           before any pointer is formed from them */
        if (timecnt < 0 || typecnt < 0 || charcnt < 0 || leap < 0 || isstd < 0 || isut < 0) return false;
        size_t v1 = (size_t)timecnt * 5 + (size_t)typecnt * 6 + (size_t)charcnt + (size_t)leap * 8 +
                    (size_t)isstd + (size_t)isut;
        if (v1 > n - 44 || n - 44 - v1 < 44) return false;
        h = d + v1;
        if (memcmp(h, "TZif", 4) != 0) return false;
        isut = be32(h + 20); isstd = be32(h + 24); leap = be32(h + 28); timecnt = be32(h + 32);
        typecnt = be32(h + 36); charcnt = be32(h + 40);
        tsize = 8;
        d = h + 44;
    }
    if (timecnt < 0 || typecnt <= 0 || charcnt < 0 || leap < 0 || isstd < 0 || isut < 0) return false;
    size_t need = (size_t)timecnt * (tsize + 1) + (size_t)typecnt * 6 + (size_t)charcnt +
                  (size_t)leap * (tsize + 4) + (size_t)isstd + (size_t)isut;
    if ((size_t)(d - b) + need > n) return false;
    const unsigned char *times = d, *idx = d + (size_t)timecnt * tsize, *types = idx + timecnt;
    tz->ntrans = timecnt;
    tz->trans = wcalloc((size_t)(timecnt ? timecnt : 1), sizeof(int64_t));
    tz->after = wcalloc((size_t)(timecnt ? timecnt : 1), sizeof(int32_t));
    for (int i = 0; i < timecnt; i++) {
        tz->trans[i] = tsize == 8 ? be64(times + (size_t)i * 8) : be32(times + (size_t)i * 4);
        int t = idx[i];
        if (t >= typecnt) return false;
        tz->after[i] = be32(types + (size_t)t * 6);
    }
    /* initial offset: first non-DST type (RFC 8536 says type 0) */
    tz->initial = be32(types);
    const unsigned char *end = d + need;
    if (tsize == 8 && end < b + n && *end == '\n') {
        const unsigned char *q = end + 1;
        const unsigned char *e = memchr(q, '\n', (size_t)(b + n - q));
        if (e && e > q) {
            char foot[128];
            size_t fl = (size_t)(e - q) < sizeof foot - 1 ? (size_t)(e - q) : sizeof foot - 1;
            memcpy(foot, q, fl);
            foot[fl] = 0;
            if (!parse_footer(tz, foot)) tz->has_rule = false;
        }
    }
    return true;
}

static bool valid_region_id(const char *id)
{
    /* java ZoneId region format: [A-Za-z][A-Za-z0-9~/._+-]+ ; no '..' path tricks */
    if (!isalpha((unsigned char)id[0])) return false;
    for (const char *p = id; *p; p++) {
        if (!(isalnum((unsigned char)*p) || strchr("~/._+-", *p))) return false;
    }
    return strstr(id, "..") == NULL && strlen(id) < 100;
}

/* Java's ZoneId.SHORT_IDS, rejected by Flink's validateTimeZone. */
static bool is_short_id(const char *up)
{
    static const char *const ids[] = { "EST", "HST", "MST", "ACT", "AET", "AGT", "ART", "AST", "BET",
        "BST", "CAT", "CNT", "CST", "CTT", "EAT", "ECT", "IET", "IST", "JST", "MIT", "NET", "NST",
        "PLT", "PNT", "PRT", "PST", "SST", "VST", NULL };
    for (int i = 0; ids[i]; i++) if (strcmp(up, ids[i]) == 0) return true;
    return false;
}

WTimeZone *wtz_load(const char *id, WError *err)
{
    if (!id) id = "UTC";
    char up[128];
    size_t n = strlen(id);
    if (n == 0 || n >= sizeof up) goto bad;
    for (size_t i = 0; i <= n; i++) up[i] = (char)toupper((unsigned char)id[i]);
    if (strncmp(up, "UTC+", 4) == 0 || strncmp(up, "UTC-", 4) == 0 || is_short_id(up)) goto bad;
    if (strcmp(id, "Z") == 0 || strcmp(id, "UTC") == 0 || strcmp(id, "GMT") == 0 || strcmp(id, "UT") == 0)
        return new_fixed(id, 0);
    int32_t off;
    if (id[0] == '+' || id[0] == '-') {
        if (!parse_offset(id, &off)) goto bad;
        return new_fixed(id, off);
    }
    if (strncmp(id, "GMT", 3) == 0 || strncmp(id, "UTC", 3) == 0 || (strncmp(id, "UT", 2) == 0 && (id[2] == '+' || id[2] == '-'))) {
        const char *rest = id + (id[2] == '+' || id[2] == '-' ? 2 : 3);
        if ((*rest == '+' || *rest == '-') && parse_offset(rest, &off)) return new_fixed(id, off);
        goto bad;
    }
    if (!valid_region_id(id)) goto bad;
    {
        char path[256];
        snprintf(path, sizeof path, "/usr/share/zoneinfo/%s", id);
        FILE *f = fopen(path, "rb");
        if (!f) goto bad;
        unsigned char *buf = NULL;
        size_t cap = 0, len = 0;
        for (;;) {
            if (len == cap) { cap = cap ? cap * 2 : 8192; buf = wrealloc(buf, cap); }
            size_t r = fread(buf + len, 1, cap - len, f);
            len += r;
            if (r == 0) break;
            if (len > (1u << 20)) break;
        }
        fclose(f);
        WTimeZone *tz = wtz_from_tzif(id, buf, len, err);
        free(buf);
        return tz;
    }
bad:
    werr_set(err, WEXC_VALIDATION, FLINK_TZ_MSG, id);
    return NULL;
}

WTimeZone *wtz_from_tzif(const char *id, const unsigned char *bytes, size_t n, WError *err)
{
    WTimeZone *tz = wcalloc(1, sizeof *tz);
    snprintf(tz->id, sizeof tz->id, "%s", id);
    if (!load_tzif(tz, bytes, n)) {
        wtz_free(tz);
        werr_set(err, WEXC_VALIDATION, FLINK_TZ_MSG, id);
        return NULL;
    }
    return tz;
}

/* ------------------------------------------------------------ offsets */

static int64_t fdiv(int64_t a, int64_t b) { int64_t q = a / b; if ((a % b) && ((a < 0) != (b < 0))) q--; return q; }

/* Local seconds (in the zone's local time of `off`) at which the rule fires in `year`. */
static int64_t rule_local_secs(const PosixRule *r, int year)
{
    int64_t day;
    if (r->kind == 'M') {
        int64_t first = wdate_from_ymd(year, r->m, 1);
        int dow = (int)(((first + 4) % 7 + 7) % 7);   /* 0 = Sunday */
        int delta = (r->d - dow + 7) % 7;
        day = first + delta + (int64_t)(r->w - 1) * 7;
        int dim = wdate_days_in_month(year, r->m);
        while (day >= first + dim) day -= 7;
    } else if (r->kind == 'J') {
        int n = r->d;                    /* 1..365, Feb 29 never counted */
        day = wdate_from_ymd(year, 1, 1) + n - 1;
        if (n >= 60 && wdate_days_in_month(year, 2) == 29) day++;
    } else {
        day = wdate_from_ymd(year, 1, 1) + r->d;
    }
    return day * 86400 + r->time;
}

static int32_t rule_offset(const WTimeZone *tz, int64_t t)
{
    if (!tz->has_dst) return tz->std_off;
    int64_t days = fdiv(t + tz->std_off, 86400);
    int y, m, d;
    wdate_to_ymd(days, &y, &m, &d);
    int64_t s = rule_local_secs(&tz->start, y) - tz->std_off;   /* start in std time */
    int64_t e = rule_local_secs(&tz->end, y) - tz->dst_off;     /* end in dst time */
    if (s < e) return (t >= s && t < e) ? tz->dst_off : tz->std_off;
    /* southern hemisphere: DST spans the new year */
    return (t >= e && t < s) ? tz->std_off : tz->dst_off;
}

static int32_t offset_secs(const WTimeZone *tz, int64_t t)
{
    if (!tz) return 0;
    if (tz->fixed) return tz->fixed_off;
    if (tz->ntrans == 0) return tz->has_rule ? rule_offset(tz, t) : tz->initial;
    if (t < tz->trans[0]) return tz->initial;
    if (t >= tz->trans[tz->ntrans - 1]) {
        if (tz->has_rule) return rule_offset(tz, t);
        return tz->after[tz->ntrans - 1];
    }
    int lo = 0, hi = tz->ntrans - 1;      /* trans[lo] <= t < trans[hi] */
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (tz->trans[mid] <= t) lo = mid; else hi = mid;
    }
    return tz->after[lo];
}

int32_t wtz_offset_at_instant(const WTimeZone *tz, int64_t epoch_ms)
{
    return offset_secs(tz, fdiv(epoch_ms, 1000));
}

int32_t wtz_offset_for_local(const WTimeZone *tz, int64_t local_ms)
{
    if (!tz || tz->fixed) return tz ? tz->fixed_off : 0;
    int64_t ls = fdiv(local_ms, 1000);
    int32_t o1 = offset_secs(tz, ls - 86400);   /* offset in effect before */
    int32_t o2 = offset_secs(tz, ls + 86400);   /* offset in effect after */
    bool v1 = offset_secs(tz, ls - o1) == o1;
    bool v2 = offset_secs(tz, ls - o2) == o2;
    if (v1 && v2) return o1 > o2 ? o1 : o2;     /* overlap: the earlier instant */
    if (v1) return o1;
    if (v2) return o2;
    return o1;                                  /* gap: shifted forward by the gap length */
}
