/*
 * func_time.c — temporal functions with Flink's semantics (DateTimeUtils): EXTRACT and the
 * YEAR..SECOND shorthands, FLOOR/CEIL(x TO unit), TIMESTAMPADD, TIMESTAMPDIFF, TO_TIMESTAMP,
 * TO_TIMESTAMP_LTZ, TO_DATE, FROM_UNIXTIME, UNIX_TIMESTAMP, DATE_FORMAT, CONVERT_TZ and the
 * clock functions (CURRENT_TIMESTAMP, NOW, LOCALTIMESTAMP, CURRENT_DATE, CURRENT_TIME,
 * LOCALTIME, CURRENT_ROW_TIMESTAMP) evaluated from ctx->now_ms in the session time zone, and
 * CURRENT_WATERMARK (ctx->watermark)
 * (ctx->cast.tz; NULL means UTC).
 * Unit arguments arrive as STRING literals: EXTRACT(unit, x), TIMESTAMPADD(unit, n, x),
 * TIMESTAMPDIFF(unit, a, b), FLOOR/CEIL(x, unit). Depends on func_impl.h, types/datetime.h.
 */
#include "func_impl.h"

#define EV(nm) static void nm(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, \
                              const uint8_t *act, WVector *out)
#define INF(nm) static const WType *nm(WArena *a, const WType **t, int n, const WType **co, WError *err)
#define UNUSED_EV (void)ctx; (void)call; (void)na; (void)act

#define MS_DAY 86400000LL
#define EPOCH_JULIAN 2440588LL

static int64_t fdiv(int64_t a, int64_t b) { int64_t q = a / b; if ((a % b != 0) && ((a < 0) != (b < 0))) q--; return q; }
static int64_t fmod_(int64_t a, int64_t b) { return a - fdiv(a, b) * b; }

static int64_t tz_off_ms(const WEvalCtx *ctx, int64_t instant_ms)
{
    return ctx->cast.tz ? (int64_t)wtz_offset_at_instant(ctx->cast.tz, instant_ms) * 1000 : 0;
}

static int64_t local_to_instant(const WEvalCtx *ctx, int64_t local_ms)
{
    return ctx->cast.tz ? local_ms - (int64_t)wtz_offset_for_local(ctx->cast.tz, local_ms) * 1000 : local_ms;
}

/* a temporal value as wall-clock milliseconds (+ nanos) */
static int64_t wall_ms(const WEvalCtx *ctx, const WType *t, WDatum v, int32_t *ns)
{
    *ns = 0;
    switch (t->id) {
    case WT_DATE: return v.i * MS_DAY;
    case WT_TIME: return v.i;
    case WT_TIMESTAMP: *ns = v.ts.ns; return v.ts.ms;
    case WT_TIMESTAMP_LTZ: *ns = v.ts.ns; return v.ts.ms + tz_off_ms(ctx, v.ts.ms);
    default: return v.i;
    }
}

static const char *unit_name(WTimeUnit u)
{
    static const char *const N[] = { "", "MILLENNIUM", "CENTURY", "DECADE", "YEAR", "QUARTER", "MONTH", "WEEK",
        "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND", "DOW", "ISODOW", "DOY",
        "ISOYEAR", "EPOCH" };
    return N[u];
}

/* ---------------------------------------------------------------- calendar helpers */

static int iso_dow(int64_t days) { return (int)fmod_(days + 3, 7) + 1; }          /* Monday = 1 */

static int64_t iso_week_of(int64_t days, int *iso_year)
{
    int y, m, d;
    wdate_to_ymd(days, &y, &m, &d);
    int64_t thursday = days - iso_dow(days) + 4;
    int ty, tm, td;
    wdate_to_ymd(thursday, &ty, &tm, &td);
    *iso_year = ty;
    int64_t jan1 = wdate_from_ymd(ty, 1, 1);
    return (thursday - jan1) / 7 + 1;
}

static int64_t extract_date(WTimeUnit u, int64_t days)
{
    int y, m, d;
    wdate_to_ymd(days, &y, &m, &d);
    switch (u) {
    case WTU_YEAR: return y;
    case WTU_MONTH: return m;
    case WTU_DAY: return d;
    case WTU_QUARTER: return (m + 2) / 3;
    case WTU_DOW: return fmod_(days + EPOCH_JULIAN + 1, 7) + 1;
    case WTU_ISODOW: return iso_dow(days);
    case WTU_DOY: return days - wdate_from_ymd(y, 1, 1) + 1;
    case WTU_WEEK: { int iy; return iso_week_of(days, &iy); }
    case WTU_ISOYEAR: { int iy; iso_week_of(days, &iy); return iy; }
    case WTU_DECADE: return y / 10;
    case WTU_CENTURY: return y > 0 ? (y + 99) / 100 : (y - 99) / 100;
    case WTU_MILLENNIUM: return y > 0 ? (y + 999) / 1000 : (y - 999) / 1000;
    case WTU_EPOCH: return days * 86400;
    default: return 0;
    }
}

static int64_t extract_value(const WEvalCtx *ctx, WTimeUnit u, const WType *t, WDatum v)
{
    if (t->id == WT_INTERVAL_YM) {
        switch (u) {
        case WTU_YEAR: return v.i / 12;
        case WTU_MONTH: return v.i % 12;
        case WTU_QUARTER: return (v.i % 12) / 3 + 1;
        default: return 0;
        }
    }
    if (t->id == WT_INTERVAL_DT) {
        switch (u) {
        case WTU_DAY: return v.i / MS_DAY;
        case WTU_HOUR: return (v.i % MS_DAY) / 3600000;
        case WTU_MINUTE: return (v.i % 3600000) / 60000;
        case WTU_SECOND: return (v.i % 60000) / 1000;
        case WTU_MILLISECOND: return v.i % 60000;
        case WTU_EPOCH: return v.i / 1000;
        default: return 0;
        }
    }
    int32_t ns;
    int64_t ms = wall_ms(ctx, t, v, &ns);
    switch (u) {
    case WTU_HOUR: return fmod_(ms, MS_DAY) / 3600000;
    case WTU_MINUTE: return fmod_(ms, 3600000) / 60000;
    case WTU_SECOND: return fmod_(ms, 60000) / 1000;
    case WTU_MILLISECOND: return fmod_(ms, 1000);
    case WTU_MICROSECOND: return fmod_(ms, 1000) * 1000 + ns / 1000;
    case WTU_NANOSECOND: return fmod_(ms, 1000) * 1000000 + ns;
    case WTU_EPOCH:
        if (t->id == WT_DATE) return v.i * 86400;
        return ms / 1000;
    default:
        if (t->id == WT_TIME) return 0;
        return extract_date(u, fdiv(ms, MS_DAY));
    }
}

/* ---------------------------------------------------------------- EXTRACT and shorthands */

static bool unit_allowed(WTimeUnit u, const WType *t)
{
    if (u == WTU_NONE) return false;
    bool time_unit = u == WTU_HOUR || u == WTU_MINUTE || u == WTU_SECOND || u == WTU_MILLISECOND ||
                     u == WTU_MICROSECOND || u == WTU_NANOSECOND;
    if (t->id == WT_TIME) return time_unit || u == WTU_EPOCH;
    if (t->id == WT_DATE) return !time_unit || true;
    return true;
}

INF(inf_extract)
{
    (void)co;
    bool ok = n == 2 && wf_str(t[0]) && !wf_null(t[0]) &&
              (wf_null(t[1]) || wtype_is_temporal(t[1]) || wtype_is_interval(t[1]));
    if (!ok)
        return wf_err_apply(err, "EXTRACT", t, n,
                            "EXTRACT(<DATETIME_INTERVAL> FROM <DATETIME_INTERVAL>)\nEXTRACT(<DATETIME_INTERVAL> FROM <DATETIME>)");
    return wf_type(a, WT_BIGINT, wf_null(t[1]) || t[1]->nullable);
}

static bool prep_extract(WArena *a, WExpr *call, WError *err)
{
    (void)a;
    WTimeUnit u = wf_unit_arg(call->args[0]);
    if (u == WTU_NONE) {
        const WExpr *x = call->args[0];
        if (x->kind == WX_LITERAL && !x->is_null)
            werr_set(err, WEXC_CALCITE, "'%.*s' is not a valid time frame", x->lit.s.len, x->lit.s.p);
        else werr_set(err, WEXC_CALCITE, "The time unit of EXTRACT must be a literal.");
        return false;
    }
    if (!unit_allowed(u, call->args[1]->type)) {
        werr_set(err, WEXC_CALCITE, "Cannot apply 'EXTRACT' to arguments of type 'EXTRACT(<INTERVAL %s> FROM <%s>)'",
                 unit_name(u), call->args[1]->type->id == WT_TIME ? "TIME(0)" : "DATE");
        return false;
    }
    return true;
}

EV(ev_extract)
{
    (void)na;
    WTimeUnit u = wf_unit_arg(call->args[0]);
    if (u == WTU_NONE) {
        WF_FOR(i, n, act) {
            WStr s = av[0]->data[i].s;
            u = wf_time_unit(s.p, s.len);
            if (u == WTU_NONE) { wf_fail(ctx, WEXC_TABLE, "Unsupported time unit '%.*s'.", s.len, s.p); return; }
            out->data[i].i = extract_value(ctx, u, av[1]->type, av[1]->data[i]);
        }
        return;
    }
    const WType *t = av[1]->type;
    WF_FOR(i, n, act) out->data[i].i = extract_value(ctx, u, t, av[1]->data[i]);
}

/* YEAR(x) etc: unit fixed by the function name */
static WTimeUnit unit_of_fn(const char *name)
{
    if (!strcmp(name, "YEAR")) return WTU_YEAR;
    if (!strcmp(name, "QUARTER")) return WTU_QUARTER;
    if (!strcmp(name, "MONTH")) return WTU_MONTH;
    if (!strcmp(name, "WEEK")) return WTU_WEEK;
    if (!strcmp(name, "DAYOFYEAR")) return WTU_DOY;
    if (!strcmp(name, "DAYOFMONTH")) return WTU_DAY;
    if (!strcmp(name, "DAYOFWEEK")) return WTU_DOW;
    if (!strcmp(name, "HOUR")) return WTU_HOUR;
    if (!strcmp(name, "MINUTE")) return WTU_MINUTE;
    return WTU_SECOND;
}

static const WType *inf_part(WArena *a, const char *name, const WType **t, int n, WError *err, bool time_part)
{
    const char *sig = time_part ? "T|M" : "D|T";
    if (!wf_check(err, name, t, n, sig)) return NULL;
    return wf_type(a, WT_BIGINT, wf_any_nullable(t, n));
}

#define PART(inf, NAME, tp) INF(inf) { (void)co; return inf_part(a, NAME, t, n, err, tp); }
PART(inf_year, "YEAR", false)
PART(inf_quarter, "QUARTER", false)
PART(inf_month, "MONTH", false)
PART(inf_week, "WEEK", false)
PART(inf_dayofyear, "DAYOFYEAR", false)
PART(inf_dayofmonth, "DAYOFMONTH", false)
PART(inf_dayofweek, "DAYOFWEEK", false)
PART(inf_hour, "HOUR", true)
PART(inf_minute, "MINUTE", true)
PART(inf_second, "SECOND", true)

EV(ev_part)
{
    (void)na;
    WTimeUnit u = unit_of_fn(call->func->name);
    const WType *t = av[0]->type;
    WF_FOR(i, n, act) out->data[i].i = extract_value(ctx, u, t, av[0]->data[i]);
}

/* ---------------------------------------------------------------- FLOOR / CEIL (x TO unit) */

/* DateTimeUtils.julianDateFloor on epoch days */
static int64_t date_floor(WTimeUnit u, int64_t days, bool floor_)
{
    int y, m, d;
    wdate_to_ymd(days, &y, &m, &d);
    int q = (m + 2) / 3;
    switch (u) {
    case WTU_MILLENNIUM:
        return floor_ ? wdate_from_ymd(1000 * ((y + 999) / 1000) - 999, 1, 1) : wdate_from_ymd(1000 * ((y + 999) / 1000) + 1, 1, 1);
    case WTU_CENTURY:
        return floor_ ? wdate_from_ymd(100 * ((y + 99) / 100) - 99, 1, 1) : wdate_from_ymd(100 * ((y + 99) / 100) + 1, 1, 1);
    case WTU_DECADE:
        return floor_ ? wdate_from_ymd(10 * (y / 10), 1, 1) : wdate_from_ymd(10 * (1 + y / 10), 1, 1);
    case WTU_YEAR:
        if (!floor_ && (m > 1 || d > 1)) y++;
        return wdate_from_ymd(y, 1, 1);
    case WTU_MONTH:
        if (!floor_ && d > 1) m++;
        if (m > 12) { m = 1; y++; }
        return wdate_from_ymd(y, m, 1);
    case WTU_QUARTER:
        if (!floor_ && (m > 1 || d > 1)) q++;
        if (q > 4) { q = 1; y++; }
        return wdate_from_ymd(y, q * 3 - 2, 1);
    case WTU_WEEK: {
        int dow = (int)fmod_(days + EPOCH_JULIAN + 1, 7);   /* sun = 0 */
        int off = dow;
        if (!floor_ && off > 0) off -= 7;
        return days - off;
    }
    case WTU_DAY:
        return floor_ ? days : days + 1;
    default:
        return days;
    }
}

static int64_t unit_ms(WTimeUnit u)
{
    switch (u) {
    case WTU_DAY: return MS_DAY;
    case WTU_HOUR: return 3600000;
    case WTU_MINUTE: return 60000;
    case WTU_SECOND: return 1000;
    case WTU_MILLISECOND: return 1;
    default: return 0;
    }
}

/* floor/ceil of wall-clock (ms, ns) */
static int64_t wall_floor(WTimeUnit u, int64_t ms, int32_t ns, bool up, int32_t *ons)
{
    *ons = 0;
    int64_t um = unit_ms(u);
    if (um) {
        int64_t f = fdiv(ms, um) * um;
        if (up && (f != ms || ns > 0)) f += um;
        return f;
    }
    if (u == WTU_MICROSECOND || u == WTU_NANOSECOND) {
        *ons = u == WTU_NANOSECOND ? ns : (up && ns % 1000 ? (ns / 1000 + 1) * 1000 : ns / 1000 * 1000);
        if (*ons >= 1000000) { *ons -= 1000000; ms++; }
        return ms;
    }
    int64_t days = fdiv(ms, MS_DAY);
    return date_floor(u, days, !up) * MS_DAY;
}

const WType *wf_infer_time_floor(WArena *a, const char *name, const WType **t, int n, const WType **co, WError *err, bool ceil_)
{
    (void)co; (void)ceil_;
    if (n != 2 || !(wtype_is_temporal(t[0]) || wf_null(t[0])) || !wf_str(t[1])) {
        char f[256];
        snprintf(f, sizeof f, "%s(<DATE> TO <TIME_UNIT>)\n%s(<TIME> TO <TIME_UNIT>)\n%s(<TIMESTAMP> TO <TIME_UNIT>)", name, name, name);
        return wf_err_apply(err, name, t, n, f);
    }
    if (wf_null(t[0])) return wtype_timestamp(a, WT_TIMESTAMP, 3, true);
    return wtype_with_time_attr(a, t[0], WTA_NONE);
}

void wf_eval_time_floor(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, const uint8_t *act,
                        WVector *out, bool up)
{
    (void)na;
    const WType *t = av[0]->type;
    WTimeUnit fixed = wf_unit_arg(call->args[1]);
    WF_FOR(i, n, act) {
        WTimeUnit u = fixed;
        if (u == WTU_NONE) {
            WStr s = av[1]->data[i].s;
            u = wf_time_unit(s.p, s.len);
            if (u == WTU_NONE) { wf_fail(ctx, WEXC_TABLE, "Unsupported time unit '%.*s'.", s.len, s.p); return; }
        }
        WDatum v = av[0]->data[i], r = v;
        int32_t ns;
        switch (t->id) {
        case WT_DATE:
            r.i = unit_ms(u) && u != WTU_DAY ? v.i : date_floor(u, v.i, !up);
            break;
        case WT_TIME: {
            int64_t um = unit_ms(u);
            if (um && um < MS_DAY) {
                int64_t f = fdiv(v.i, um) * um;
                if (up && f != v.i) f += um;
                r.i = fmod_(f, MS_DAY);
            }
            break;
        }
        case WT_TIMESTAMP:
            r.ts.ms = wall_floor(u, v.ts.ms, v.ts.ns, up, &ns);
            r.ts.ns = ns;
            break;
        case WT_TIMESTAMP_LTZ: {
            int64_t off = tz_off_ms(ctx, v.ts.ms);
            r.ts.ms = wall_floor(u, v.ts.ms + off, v.ts.ns, up, &ns) - off;
            r.ts.ns = ns;
            break;
        }
        default: break;
        }
        out->data[i] = r;
    }
}

/* ---------------------------------------------------------------- TIMESTAMPADD / TIMESTAMPDIFF */

static int64_t add_months_days(int64_t date, int64_t m)
{
    int y, mo, d;
    wdate_to_ymd(date, &y, &mo, &d);
    int64_t total = (int64_t)y * 12 + (mo - 1) + m;
    int64_t yy = fdiv(total, 12), mm = fmod_(total, 12) + 1;
    int last = wdate_days_in_month((int)yy, (int)mm);
    if (d > last) d = last;
    return wdate_from_ymd((int)yy, (int)mm, d);
}

static int64_t add_months_ms(int64_t ms, int64_t m)
{
    int64_t millis = fmod_(ms, MS_DAY);
    return add_months_days(fdiv(ms, MS_DAY), m) * MS_DAY + millis;
}

static bool sub_day_unit(WTimeUnit u)
{
    return u == WTU_HOUR || u == WTU_MINUTE || u == WTU_SECOND || u == WTU_MILLISECOND || u == WTU_MICROSECOND;
}

INF(inf_timestampadd)
{
    (void)co;
    if (n != 3 || !wf_str(t[0]) || !wf_int(t[1]) || !(wtype_is_temporal(t[2]) || wf_null(t[2])))
        return wf_err_apply(err, "TIMESTAMPADD", t, n, "TIMESTAMPADD(<ANY>, <INTEGER>, <DATETIME>)");
    bool nullable = t[1]->nullable || wf_null(t[1]) || t[2]->nullable || wf_null(t[2]);
    if (wf_null(t[2])) return wtype_timestamp(a, WT_TIMESTAMP, 3, true);
    return wtype_with_nullable(a, wtype_with_time_attr(a, t[2], WTA_NONE), nullable);
}

static bool prep_timestampadd(WArena *a, WExpr *call, WError *err)
{
    WTimeUnit u = wf_unit_arg(call->args[0]);
    if (u == WTU_NONE) {
        werr_set(err, WEXC_CALCITE, "The time unit of TIMESTAMPADD must be a literal time unit.");
        return false;
    }
    if (call->args[2]->type->id == WT_DATE && sub_day_unit(u))
        call->type = wtype_timestamp(a, WT_TIMESTAMP, u == WTU_MILLISECOND || u == WTU_MICROSECOND ? 3 : 0,
                                     call->type->nullable);
    return true;
}

static int64_t unit_months(WTimeUnit u)
{
    switch (u) {
    case WTU_YEAR: return 12;
    case WTU_QUARTER: return 3;
    case WTU_MONTH: return 1;
    default: return 0;
    }
}

static int64_t unit_millis_any(WTimeUnit u)
{
    if (u == WTU_WEEK) return 7 * MS_DAY;
    return unit_ms(u);
}

EV(ev_timestampadd)
{
    (void)na;
    WTimeUnit u = wf_unit_arg(call->args[0]);
    const WType *t = av[2]->type, *rt = call->type;
    WF_FOR(i, n, act) {
        int64_t k = av[1]->data[i].i;
        WDatum v = av[2]->data[i], r = v;
        int64_t mon = unit_months(u);
        if (u == WTU_MICROSECOND || u == WTU_NANOSECOND) {
            int64_t ns_total = (u == WTU_MICROSECOND ? k * 1000 : k);
            if (wtype_is_timestamp(t)) {
                int64_t ns = (int64_t)v.ts.ns + fmod_(ns_total, 1000000);
                r.ts.ms = v.ts.ms + fdiv(ns_total, 1000000) + ns / 1000000;
                r.ts.ns = (int32_t)(ns % 1000000);
            }
            out->data[i] = r;
            continue;
        }
        switch (t->id) {
        case WT_DATE:
            if (rt->id == WT_DATE) r.i = mon ? add_months_days(v.i, k * mon) : v.i + k * unit_millis_any(u) / MS_DAY;
            else { r.ts.ms = v.i * MS_DAY + k * unit_millis_any(u); r.ts.ns = 0; }
            break;
        case WT_TIME:
            r.i = mon ? v.i : fmod_(v.i + k * unit_millis_any(u), MS_DAY);
            break;
        case WT_TIMESTAMP_LTZ:
            if (mon) {
                int64_t off = tz_off_ms(ctx, v.ts.ms);
                r.ts.ms = local_to_instant(ctx, add_months_ms(v.ts.ms + off, k * mon));
            } else r.ts.ms = v.ts.ms + k * unit_millis_any(u);
            break;
        default:
            r.ts.ms = mon ? add_months_ms(v.ts.ms, k * mon) : v.ts.ms + k * unit_millis_any(u);
            break;
        }
        out->data[i] = r;
    }
}

/* DateTimeUtils.subtractMonths */
static int64_t subtract_months_days(int64_t d0, int64_t d1)
{
    if (d0 < d1) return -subtract_months_days(d1, d0);
    int64_t m = (d0 - d1) / 31;
    for (;;) {
        int64_t d2 = add_months_days(d1, m);
        if (d2 >= d0) return m;
        int64_t d3 = add_months_days(d1, m + 1);
        if (d3 > d0) return m;
        m++;
    }
}

static int64_t subtract_months_ms(int64_t t0, int64_t t1)
{
    int64_t m0 = fmod_(t0, MS_DAY), m1 = fmod_(t1, MS_DAY);
    int64_t d0 = fdiv(t0, MS_DAY), d1 = fdiv(t1, MS_DAY);
    int64_t x = subtract_months_days(d0, d1);
    int64_t d2 = add_months_days(d1, x);
    if (d2 == d0 && m0 < m1) x--;
    return x;
}

INF(inf_timestampdiff)
{
    (void)co;
    if (n != 3 || !wf_str(t[0]) || !(wtype_is_temporal(t[1]) || wf_null(t[1])) || !(wtype_is_temporal(t[2]) || wf_null(t[2])))
        return wf_err_apply(err, "TIMESTAMPDIFF", t, n, "TIMESTAMPDIFF(<ANY>, <DATETIME>, <DATETIME>)");
    bool nullable = t[1]->nullable || wf_null(t[1]) || t[2]->nullable || wf_null(t[2]);
    return wf_type(a, WT_INT, nullable);
}

static bool prep_unit_literal(WArena *a, WExpr *call, WError *err)
{
    (void)a;
    if (wf_unit_arg(call->args[0]) == WTU_NONE) {
        werr_set(err, WEXC_CALCITE, "The time unit of %s must be a literal time unit.", call->func->name);
        return false;
    }
    return true;
}

EV(ev_timestampdiff)
{
    (void)na;
    WTimeUnit u = wf_unit_arg(call->args[0]);
    WF_FOR(i, n, act) {
        int32_t ns0, ns1;
        int64_t a0 = wall_ms(ctx, av[1]->type, av[1]->data[i], &ns0);
        int64_t b0 = wall_ms(ctx, av[2]->type, av[2]->data[i], &ns1);
        int64_t mon = unit_months(u), r;
        if (mon) r = subtract_months_ms(b0, a0) / mon;
        else {
            /* sub-day units on instants (LTZ differences are not affected by offsets) */
            if (av[1]->type->id == WT_TIMESTAMP_LTZ) a0 = av[1]->data[i].ts.ms;
            if (av[2]->type->id == WT_TIMESTAMP_LTZ) b0 = av[2]->data[i].ts.ms;
            int64_t um = unit_millis_any(u);
            if (u == WTU_MICROSECOND) r = ((b0 - a0) * 1000 + (ns1 - ns0) / 1000);
            else if (u == WTU_NANOSECOND) r = (b0 - a0) * 1000000 + (ns1 - ns0);
            else r = um ? (b0 - a0) / um : 0;
        }
        out->data[i].i = (int32_t)(uint32_t)(uint64_t)r;
    }
}

/* ---------------------------------------------------------------- parsing / formatting */

INF(inf_to_timestamp)
{
    (void)co;
    if (!wf_check(err, "TO_TIMESTAMP", t, n, "C|CC")) return NULL;
    return wtype_timestamp(a, WT_TIMESTAMP, 3, true);
}

EV(ev_to_timestamp)
{
    (void)call;
    WF_FOR(i, n, act) {
        WStr s = av[0]->data[i].s;
        WTimestamp ts;
        bool ok;
        if (na > 1) {
            ok = wparse_pattern(s.p, s.len, wf_cstr(ctx, av[1]->data[i].s), &ts);
            if (!ok) ok = wparse_timestamp(s.p, s.len, &ts);
        } else ok = !(s.len > 10 && s.p[10] == 'T') && wparse_timestamp(s.p, s.len, &ts);   /* no ISO 'T' (Flink: NULL) */
        if (!ok) { out->nulls[i] = 1; continue; }
        ts.ns = 0;
        out->data[i].ts = ts;
    }
}

INF(inf_to_timestamp_ltz)
{
    (void)co;
    if (!wf_check(err, "TO_TIMESTAMP_LTZ", t, n, "NI|S")) return NULL;
    return wtype_timestamp(a, WT_TIMESTAMP_LTZ, 3, true);
}

#define MIN_EPOCH_MS (-62167219200000LL)
#define MAX_EPOCH_MS 253402300799999LL

/* TO_TIMESTAMP_LTZ(string): the text read as a UTC wall-clock time, whatever the session time
   zone (Flink 2.3 measured: '2024-02-29 12:34:56.789' shows as 04:34:56.789 in
   America/Los_Angeles); the day of month is clamped as TO_TIMESTAMP does ('2024-02-30' is Feb 29);
   a text that is no timestamp fails with CAST's message ("Text 'x' could not be parsed at index 0") */
static void ltz_from_text(WEvalCtx *ctx, WVector *const *av, int n, const uint8_t *act, WVector *out)
{
    WType ts3 = { .id = WT_TIMESTAMP, .precision = 3, .nullable = true };
    WF_FOR(i, n, act) {
        WStr s = av[0]->data[i].s;
        WTimestamp ts;
        if (!(s.len > 10 && s.p[10] == 'T') && wparse_timestamp(s.p, s.len, &ts)) {
            ts.ns = 0;
            out->data[i].ts = ts;
            continue;
        }
        WDatum d;
        WCastCtx utc = ctx->cast;
        utc.tz = NULL;
        if (!wcast_from_text(&utc, s.p, s.len, &ts3, &d, ctx->arena, ctx->err)) return;
        out->data[i].ts = d.ts;
    }
}

EV(ev_to_timestamp_ltz)
{
    (void)call;
    const WType *t = av[0]->type;
    if (na == 1) { ltz_from_text(ctx, av, n, act, out); return; }
    WF_FOR(i, n, act) {
        int64_t prec = av[1]->data[i].i;
        WDatum v = av[0]->data[i];
        int64_t ms;
        if (prec != 0 && prec != 3) {
            wf_fail(ctx, WEXC_TABLE, "The precision value '%lld' for function TO_TIMESTAMP_LTZ(numeric, precision) is "
                    "unsupported, the supported value is '0' for second or '3' for millisecond.", (long long)prec);
            return;
        }
        if (wtype_is_approx(t)) {
            if (prec == 0) {
                if (!(v.d >= MIN_EPOCH_MS / 1000 && v.d <= MAX_EPOCH_MS / 1000)) { out->nulls[i] = 1; continue; }
                ms = (int64_t)(v.d * 1000.0);
            } else {
                if (!(v.d >= (double)INT64_MIN && v.d <= (double)INT64_MAX)) { out->nulls[i] = 1; continue; }
                ms = (int64_t)v.d;
            }
        } else if (t->id == WT_DECIMAL) {
            int64_t whole = wdec_to_long(v.dec, t->scale);
            if (prec == 0) {
                if (whole < MIN_EPOCH_MS / 1000 || whole > MAX_EPOCH_MS / 1000) { out->nulls[i] = 1; continue; }
                ms = whole * 1000;
            } else ms = whole;
        } else {
            if (prec == 0) {
                if (v.i < MIN_EPOCH_MS / 1000 || v.i > MAX_EPOCH_MS / 1000) { out->nulls[i] = 1; continue; }
                ms = v.i * 1000;
            } else ms = v.i;
        }
        if (ms < MIN_EPOCH_MS || ms > MAX_EPOCH_MS) { out->nulls[i] = 1; continue; }
        out->data[i].ts.ms = ms;
        out->data[i].ts.ns = 0;
    }
}

INF(inf_to_date)
{
    (void)co;
    if (!wf_check(err, "TO_DATE", t, n, "S|SS")) return NULL;
    return wf_type(a, WT_DATE, true);
}

EV(ev_to_date)
{
    (void)call;
    WF_FOR(i, n, act) {
        WStr s = av[0]->data[i].s;
        int64_t days;
        bool ok;
        if (na > 1) {
            WTimestamp ts;
            ok = wparse_pattern(s.p, s.len, wf_cstr(ctx, av[1]->data[i].s), &ts);
            days = ok ? fdiv(ts.ms, MS_DAY) : 0;
        } else ok = wparse_date(s.p, s.len, &days) && days <= 2932896;   /* 9999-12-31 (Flink: '20240229' is NULL) */
        if (!ok) { out->nulls[i] = 1; continue; }
        out->data[i].i = days;
    }
}

/* The pattern of the rows formatted so far in one batch and the text of the last one: rows whose
   timestamp falls in the same unit of the pattern's finest field (wfmt_pattern_unit_ms: the day
   for 'yyyy-MM-dd', the minute for 'HH:mm') share that text instead of formatting it again. */
static const WStr DEFAULT_PATTERN = { "yyyy-MM-dd HH:mm:ss", 19 };

typedef struct PatternMemo {
    WStr fmt;               /* the pattern as the row gave it; fmt_c its C string */
    const char *fmt_c;
    int64_t unit, key;      /* key: floor(ms / unit) of the last text, INT64_MIN = none; unit 0:
                               the text is never reused (java.time fractions below a millisecond) */
    WStr text;
    bool java_time;         /* DATE_FORMAT of a TIMESTAMP: java.time's letters (wfmt_pattern_java_time) */
} PatternMemo;

static void put_pattern(WEvalCtx *ctx, WVector *out, int i, WTimestamp wall, WStr fmt, PatternMemo *m)
{
    if (!m->fmt_c || m->fmt.len != fmt.len || (m->fmt.p != fmt.p && memcmp(m->fmt.p, fmt.p, (size_t)fmt.len) != 0)) {
        m->fmt = fmt;
        m->fmt_c = wf_cstr(ctx, fmt);
        m->unit = m->java_time && strstr(m->fmt_c, "SSSS") ? 0 : wfmt_pattern_unit_ms(m->fmt_c);
        m->key = INT64_MIN;
    }
    int64_t key = m->unit ? fdiv(wall.ms, m->unit) : INT64_MIN;
    if (key == m->key && key != INT64_MIN) { wf_set_ref(out, i, m->text.p, m->text.len); return; }
    char buf[256];
    int (*format)(WTimestamp, const char *, char *, int) = m->java_time ? wfmt_pattern_java_time : wfmt_pattern;
    int len = format(wall, m->fmt_c, buf, sizeof buf);
    if (len < 0) {
        wf_fail(ctx, "java.lang.IllegalArgumentException", "Pattern ends with an incomplete string literal: %s", m->fmt_c);
        return;
    }
    if (len < (int)sizeof buf) {
        wf_set_str(ctx, out, i, buf, (size_t)len);
    } else {
        char *big = wf_alloc(ctx, (size_t)len + 1);
        format(wall, m->fmt_c, big, len + 1);
        wf_set_ref(out, i, big, len);
    }
    m->key = key;
    m->text = out->data[i].s;
}

INF(inf_from_unixtime)
{
    (void)co;
    if (!wf_check(err, "FROM_UNIXTIME", t, n, "I|IS")) return NULL;
    return wf_string(a, true);
}

EV(ev_from_unixtime)
{
    (void)call;
    PatternMemo memo = { .key = INT64_MIN };
    WF_FOR(i, n, act) {
        int64_t secs = av[0]->data[i].i;
        int64_t ms = (int64_t)((uint64_t)secs * 1000);
        WTimestamp wall = { ms + tz_off_ms(ctx, ms), 0 };
        put_pattern(ctx, out, i, wall, na > 1 ? av[1]->data[i].s : DEFAULT_PATTERN, &memo);
    }
}

INF(inf_unix_timestamp)
{
    (void)co;
    if (!wf_check(err, "UNIX_TIMESTAMP", t, n, "|S|SS")) return NULL;
    return wf_type(a, WT_BIGINT, wf_any_nullable(t, n));
}

EV(ev_unix_timestamp)
{
    (void)call;
    WF_FOR(i, n, act) {
        if (na == 0) { out->data[i].i = ctx->now_ms / 1000; continue; }
        WStr s = av[0]->data[i].s;
        const char *fmt = na > 1 ? wf_cstr(ctx, av[1]->data[i].s) : "yyyy-MM-dd HH:mm:ss";
        WTimestamp ts;
        if (!wparse_pattern(s.p, s.len, fmt, &ts)) { out->data[i].i = INT64_MIN; continue; }
        out->data[i].i = local_to_instant(ctx, ts.ms) / 1000;
    }
}

INF(inf_date_format)
{
    (void)co;
    /* Flink 2.3 refuses a DATE (measured: Cannot apply 'DATE_FORMAT' to arguments of type
       'DATE_FORMAT(<DATE>, <CHAR(10)>)') */
    if (!wf_check(err, "DATE_FORMAT", t, n, "TC|CC")) return NULL;
    return wf_string(a, true);
}

EV(ev_date_format)
{
    (void)call; (void)na;
    const WType *t = av[0]->type;
    /* a TIMESTAMP is formatted by java.time in Flink, a string by SimpleDateFormat */
    PatternMemo memo = { .key = INT64_MIN, .java_time = !wtype_is_string(t) };
    WF_FOR(i, n, act) {
        WTimestamp wall;
        if (wtype_is_string(t)) {
            WStr s = av[0]->data[i].s;
            if (!wparse_pattern(s.p, s.len, "yyyy-MM-dd HH:mm:ss", &wall)) {
                /* SimpleDateFormat ignores trailing text such as a fraction, but needs the time of
                   day after a space (Flink 2.3: '2024-02-29' and '2024-02-29T12:34:56' give NULL) */
                if (!(s.len > 10 && s.p[10] == ' ') || !wparse_timestamp(s.p, s.len, &wall)) { out->nulls[i] = 1; continue; }
                wall.ms = fdiv(wall.ms, 1000) * 1000;
                wall.ns = 0;
            }
        } else {
            int32_t ns;
            wall.ms = wall_ms(ctx, t, av[0]->data[i], &ns);
            wall.ns = ns;
        }
        put_pattern(ctx, out, i, wall, av[1]->data[i].s, &memo);
    }
}

INF(inf_convert_tz)
{
    (void)co;
    if (!wf_check(err, "CONVERT_TZ", t, n, "SSS")) return NULL;
    return wf_string(a, true);
}

static WTimeZone *load_tz_or_utc(WEvalCtx *ctx, WStr id)
{
    WError e;
    werr_clear(&e);
    WTimeZone *tz = wtz_load(wf_cstr(ctx, id), &e);
    if (!tz) {
        werr_clear(&e);
        tz = wtz_load("UTC", &e);
    }
    return tz;
}

EV(ev_convert_tz)
{
    (void)call; (void)na;
    PatternMemo memo = { .key = INT64_MIN };
    WF_FOR(i, n, act) {
        WStr s = av[0]->data[i].s;
        WTimestamp wall;
        if (!wparse_pattern(s.p, s.len, "yyyy-MM-dd HH:mm:ss", &wall)) { out->nulls[i] = 1; continue; }
        WTimeZone *from = load_tz_or_utc(ctx, av[1]->data[i].s);
        WTimeZone *to = load_tz_or_utc(ctx, av[2]->data[i].s);
        int64_t inst = from ? wall.ms - (int64_t)wtz_offset_for_local(from, wall.ms) * 1000 : wall.ms;
        WTimestamp w2 = { inst + (to ? (int64_t)wtz_offset_at_instant(to, inst) * 1000 : 0), 0 };
        if (from) wtz_free(from);
        if (to) wtz_free(to);
        put_pattern(ctx, out, i, w2, DEFAULT_PATTERN, &memo);
    }
}

/* ---------------------------------------------------------------- clocks */

#define CLOCK(inf, NAME, expr) \
    INF(inf) { (void)co; if (!wf_check(err, NAME, t, n, "")) return NULL; return expr; }
CLOCK(inf_current_timestamp, "CURRENT_TIMESTAMP", wtype_timestamp(a, WT_TIMESTAMP_LTZ, 3, false))
CLOCK(inf_now, "NOW", wtype_timestamp(a, WT_TIMESTAMP_LTZ, 3, false))
CLOCK(inf_current_row_timestamp, "CURRENT_ROW_TIMESTAMP", wtype_timestamp(a, WT_TIMESTAMP_LTZ, 3, false))
CLOCK(inf_localtimestamp, "LOCALTIMESTAMP", wtype_timestamp(a, WT_TIMESTAMP, 3, false))
CLOCK(inf_current_date, "CURRENT_DATE", wf_type(a, WT_DATE, false))
CLOCK(inf_current_time, "CURRENT_TIME", wtype_time(a, 0, false))
CLOCK(inf_localtime, "LOCALTIME", wtype_time(a, 0, false))

EV(ev_clock)
{
    (void)av; (void)na;
    const WType *rt = call->type;
    int64_t now = ctx->now_ms, local = now + tz_off_ms(ctx, now);
    WDatum v;
    memset(&v, 0, sizeof v);
    switch (rt->id) {
    case WT_TIMESTAMP_LTZ: v.ts.ms = now; break;
    case WT_TIMESTAMP: v.ts.ms = local; break;
    case WT_DATE: v.i = fdiv(local, MS_DAY); break;
    default: v.i = fmod_(local, MS_DAY) / 1000 * 1000; break;
    }
    WF_FOR(i, n, act) { out->nulls[i] = 0; out->data[i] = v; }
}

/* CURRENT_WATERMARK(rowtime): the watermark the evaluating operator has received, as
   TIMESTAMP(3) / TIMESTAMP_LTZ(3) like the argument (BuiltInFunctionDefinitions.CURRENT_WATERMARK,
   CurrentWatermarkInputTypeStrategy's messages); NULL before the first watermark. */
INF(inf_current_watermark)
{
    (void)co;
    if (n != 1) return NULL;
    const WType *t0 = t[0];
    bool ts = t0->id == WT_TIMESTAMP || t0->id == WT_TIMESTAMP_LTZ;
    if (!ts || t0->precision != 3 || t0->time_attr != WTA_ROWTIME) {
        WStrBuf b;
        wsb_init(&b);
        if (t0->id == WT_NULL) wsb_append(&b, "NULL");
        else wtype_to_string(t0, &b);
        if (t0->time_attr == WTA_PROCTIME && t0->id != WT_TIMESTAMP_LTZ) wsb_append(&b, " *PROCTIME*");
        if (!ts || t0->precision != 3)
            werr_set(err, WEXC_VALIDATION, "CURRENT_WATERMARK() must be called with a single rowtime attribute "
                     "argument, but '%s' cannot be a time attribute.", b.buf);
        else
            werr_set(err, WEXC_VALIDATION, "The argument of CURRENT_WATERMARK() must be a rowtime attribute, "
                     "but was '%s'.", b.buf);
        wsb_free(&b);
        return NULL;
    }
    return wtype_timestamp(a, t0->id, 3, true);
}

EV(ev_current_watermark)
{
    (void)av; (void)na; (void)call;
    WF_FOR(i, n, act) {
        out->nulls[i] = !ctx->has_watermark;
        out->data[i].ts.ms = ctx->has_watermark ? ctx->watermark : 0;
        out->data[i].ts.ns = 0;
    }
}

/* ---------------------------------------------------------------- table */

#define DEF(var, name, mn, mx, det, inf, ev, prep) \
    static const WFuncDef var = { name, mn, mx, false, det, inf, ev, prep };

DEF(D_EXTRACT, "EXTRACT", 2, 2, true, inf_extract, ev_extract, prep_extract)
DEF(D_YEAR, "YEAR", 1, 1, true, inf_year, ev_part, NULL)
DEF(D_QUARTER, "QUARTER", 1, 1, true, inf_quarter, ev_part, NULL)
DEF(D_MONTH, "MONTH", 1, 1, true, inf_month, ev_part, NULL)
DEF(D_WEEK, "WEEK", 1, 1, true, inf_week, ev_part, NULL)
DEF(D_DAYOFYEAR, "DAYOFYEAR", 1, 1, true, inf_dayofyear, ev_part, NULL)
DEF(D_DAYOFMONTH, "DAYOFMONTH", 1, 1, true, inf_dayofmonth, ev_part, NULL)
DEF(D_DAYOFWEEK, "DAYOFWEEK", 1, 1, true, inf_dayofweek, ev_part, NULL)
DEF(D_HOUR, "HOUR", 1, 1, true, inf_hour, ev_part, NULL)
DEF(D_MINUTE, "MINUTE", 1, 1, true, inf_minute, ev_part, NULL)
DEF(D_SECOND, "SECOND", 1, 1, true, inf_second, ev_part, NULL)
DEF(D_TIMESTAMPADD, "TIMESTAMPADD", 3, 3, true, inf_timestampadd, ev_timestampadd, prep_timestampadd)
DEF(D_TIMESTAMPDIFF, "TIMESTAMPDIFF", 3, 3, true, inf_timestampdiff, ev_timestampdiff, prep_unit_literal)
DEF(D_TO_TIMESTAMP, "TO_TIMESTAMP", 1, 2, true, inf_to_timestamp, ev_to_timestamp, NULL)
DEF(D_TO_TIMESTAMP_LTZ, "TO_TIMESTAMP_LTZ", 1, 2, true, inf_to_timestamp_ltz, ev_to_timestamp_ltz, NULL)
DEF(D_TO_DATE, "TO_DATE", 1, 2, true, inf_to_date, ev_to_date, NULL)
DEF(D_FROM_UNIXTIME, "FROM_UNIXTIME", 1, 2, true, inf_from_unixtime, ev_from_unixtime, NULL)
DEF(D_UNIX_TIMESTAMP, "UNIX_TIMESTAMP", 0, 2, false, inf_unix_timestamp, ev_unix_timestamp, NULL)
DEF(D_DATE_FORMAT, "DATE_FORMAT", 2, 2, true, inf_date_format, ev_date_format, NULL)
DEF(D_CONVERT_TZ, "CONVERT_TZ", 3, 3, true, inf_convert_tz, ev_convert_tz, NULL)
DEF(D_CURRENT_TIMESTAMP, "CURRENT_TIMESTAMP", 0, 0, false, inf_current_timestamp, ev_clock, NULL)
DEF(D_NOW, "NOW", 0, 0, false, inf_now, ev_clock, NULL)
static const WFuncDef D_CURRENT_WATERMARK = {"CURRENT_WATERMARK", 1, 1, true, false, inf_current_watermark,
                                             ev_current_watermark, NULL};
DEF(D_CURRENT_ROW_TIMESTAMP, "CURRENT_ROW_TIMESTAMP", 0, 0, false, inf_current_row_timestamp, ev_clock, NULL)
DEF(D_LOCALTIMESTAMP, "LOCALTIMESTAMP", 0, 0, false, inf_localtimestamp, ev_clock, NULL)
DEF(D_CURRENT_DATE, "CURRENT_DATE", 0, 0, false, inf_current_date, ev_clock, NULL)
DEF(D_CURRENT_TIME, "CURRENT_TIME", 0, 0, false, inf_current_time, ev_clock, NULL)
DEF(D_LOCALTIME, "LOCALTIME", 0, 0, false, inf_localtime, ev_clock, NULL)

const WFuncDef *const wf_time_defs[] = {
    &D_CURRENT_WATERMARK,
    &D_EXTRACT, &D_YEAR, &D_QUARTER, &D_MONTH, &D_WEEK, &D_DAYOFYEAR, &D_DAYOFMONTH, &D_DAYOFWEEK,
    &D_HOUR, &D_MINUTE, &D_SECOND, &D_TIMESTAMPADD, &D_TIMESTAMPDIFF, &D_TO_TIMESTAMP,
    &D_TO_TIMESTAMP_LTZ, &D_TO_DATE, &D_FROM_UNIXTIME, &D_UNIX_TIMESTAMP, &D_DATE_FORMAT,
    &D_CONVERT_TZ, &D_CURRENT_TIMESTAMP, &D_NOW, &D_CURRENT_ROW_TIMESTAMP, &D_LOCALTIMESTAMP,
    &D_CURRENT_DATE, &D_CURRENT_TIME, &D_LOCALTIME, NULL
};
