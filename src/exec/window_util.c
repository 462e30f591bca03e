/*
 * window_util.c — window assignment math (see window_util.h). Pure functions over the window
 * definition and the session zone; no state. May call types/datetime, common/.
 */
#include "window_util.h"

#include <string.h>

#define MS_PER_HOUR 3600000LL

bool wwin_tz_uses_dst(const WTimeZone *tz, int64_t now_ms)
{
    if (!tz) return false;
    /* Java's ZoneInfo.useDaylightTime() asks whether the zone's current rules have DST: compare
       the offsets of January and July of this year and the next. */
    int y, m, d;
    wdate_to_ymd(now_ms / 86400000LL, &y, &m, &d);
    for (int k = 0; k < 2; k++) {
        int64_t jan = wdate_from_ymd(y + k, 1, 15) * 86400000LL;
        int64_t jul = wdate_from_ymd(y + k, 7, 15) * 86400000LL;
        if (wtz_offset_at_instant(tz, jan) != wtz_offset_at_instant(tz, jul)) return true;
    }
    return false;
}

WWinShift wwin_shift_of(const WWindowDef *d, int64_t now_ms)
{
    WWinShift s = {0};
    if (d->time_is_ltz && d->tz) {
        s.tz = d->tz;
        s.dst = wwin_tz_uses_dst(d->tz, now_ms);
    }
    return s;
}

int64_t wwin_start_with_offset(int64_t ts, int64_t offset, int64_t size)
{
    int64_t rem = (ts - offset) % size;
    return rem < 0 ? ts - (rem + size) : ts - rem;
}

int64_t wwin_to_shifted(const WWinShift *s, int64_t epoch_ms)
{
    if (!s || !s->tz || epoch_ms == INT64_MAX) return epoch_ms;
    return epoch_ms + (int64_t)wtz_offset_at_instant(s->tz, epoch_ms) * 1000;
}

/* LocalDateTime(shifted).atZone(tz).toInstant() */
static int64_t at_zone(const WTimeZone *tz, int64_t local_ms)
{
    return local_ms - (int64_t)wtz_offset_for_local(tz, local_ms) * 1000;
}

int64_t wwin_to_epoch(const WWinShift *s, int64_t shifted_ms)
{
    if (!s || !s->tz || shifted_ms == INT64_MAX) return shifted_ms;
    return at_zone(s->tz, shifted_ms);
}

int64_t wwin_timer_time(const WWinShift *s, int64_t shifted_ms)
{
    if (!s || !s->tz || shifted_ms == INT64_MAX) return shifted_ms;
    if (s->dst) {
        int64_t t1 = at_zone(s->tz, shifted_ms);
        int64_t t2 = at_zone(s->tz, shifted_ms + MS_PER_HOUR);
        if (t1 == t2) return t1 - t1 % MS_PER_HOUR;     /* the local hour does not exist */
        if (t2 - t1 > MS_PER_HOUR) return t1 + MS_PER_HOUR; /* the local hour exists twice */
        return t1;
    }
    return at_zone(s->tz, shifted_ms);
}

bool wwin_fired(const WWinShift *s, int64_t window_end, int64_t progress)
{
    if (window_end == INT64_MAX) return false;
    return progress >= wwin_timer_time(s, window_end - 1);
}

int wwin_assign(const WWindowDef *d, int64_t ts, int64_t *starts, int64_t *ends, int max)
{
    int n = 0;
    switch (d->kind) {
    case WWIN_TUMBLE: {
        int64_t st = wwin_start_with_offset(ts, d->offset_ms, d->size_ms);
        if (max > 0) { starts[0] = st; ends[0] = st + d->size_ms; }
        return 1;
    }
    case WWIN_HOP: {
        int64_t last = wwin_start_with_offset(ts, d->offset_ms, d->slide_ms);
        for (int64_t st = last; st > ts - d->size_ms; st -= d->slide_ms) {
            if (n < max) { starts[n] = st; ends[n] = st + d->size_ms; }
            n++;
        }
        return n;
    }
    case WWIN_CUMULATE: {
        int64_t st = wwin_start_with_offset(ts, d->offset_ms, d->size_ms);
        int64_t last_end = st + d->size_ms;
        int64_t first_end = wwin_start_with_offset(ts, d->offset_ms, d->slide_ms) + d->slide_ms;
        for (int64_t e = first_end; e <= last_end; e += d->slide_ms) {
            if (n < max) { starts[n] = st; ends[n] = e; }
            n++;
        }
        return n;
    }
    case WWIN_SESSION:
        if (max > 0) { starts[0] = ts; ends[0] = ts + d->gap_ms; }
        return 1;
    }
    return 0;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int64_t wwin_slice_size(const WWindowDef *d)
{
    switch (d->kind) {
    case WWIN_HOP: return d->slide_ms > 0 && d->size_ms > 0 ? gcd64(d->size_ms, d->slide_ms) : d->size_ms;
    case WWIN_CUMULATE: return d->slide_ms > 0 ? d->slide_ms : d->size_ms;
    default: return d->size_ms;
    }
}

int64_t wwin_slice_end(const WWindowDef *d, int64_t ts)
{
    int64_t step = wwin_slice_size(d);
    return wwin_start_with_offset(ts, d->offset_ms, step) + step;
}

int64_t wwin_slice_last_window_end(const WWindowDef *d, int64_t slice_end)
{
    switch (d->kind) {
    case WWIN_HOP:
        /* the latest window start at or before the slice's start */
        return wwin_start_with_offset(slice_end - wwin_slice_size(d), d->offset_ms, d->slide_ms) + d->size_ms;
    case WWIN_CUMULATE:
        return wwin_start_with_offset(slice_end - 1, d->offset_ms, d->size_ms) + d->size_ms;
    default:
        return slice_end;
    }
}

int64_t wwin_first_slice_end(const WWindowDef *d, int64_t window_end)
{
    return wwin_start_of(d, window_end) + wwin_slice_size(d);
}

int64_t wwin_start_of(const WWindowDef *d, int64_t window_end)
{
    switch (d->kind) {
    case WWIN_TUMBLE:
    case WWIN_HOP: return window_end - d->size_ms;
    case WWIN_CUMULATE: return wwin_start_with_offset(window_end - 1, d->offset_ms, d->size_ms);
    case WWIN_SESSION: return window_end - d->gap_ms;
    }
    return window_end;
}

int wwin_max_per_row(const WWindowDef *d)
{
    switch (d->kind) {
    case WWIN_HOP: {
        int64_t n = d->slide_ms > 0 ? (d->size_ms + d->slide_ms - 1) / d->slide_ms : 1;
        return n < 1 ? 1 : (int)(n > 1000000 ? 1000000 : n);
    }
    case WWIN_CUMULATE: {
        int64_t n = d->slide_ms > 0 ? d->size_ms / d->slide_ms : 1;
        return n < 1 ? 1 : (int)(n > 1000000 ? 1000000 : n);
    }
    default: return 1;
    }
}

bool wwin_validate(const WWindowDef *d, WError *err)
{
    switch (d->kind) {
    case WWIN_TUMBLE:
        if (d->size_ms <= 0)
            return werr_set(err, WEXC_ILLEGAL_ARG,
                            "TumblingWindowAssigner parameters must satisfy size > 0");
        return true;
    case WWIN_HOP:
        if (d->size_ms <= 0 || d->slide_ms <= 0)
            return werr_set(err, WEXC_ILLEGAL_ARG,
                            "SlidingWindowAssigner parameters must satisfy slide > 0 and size > 0");
        if (d->size_ms / d->slide_ms > 1000000)
            return werr_set(err, WEXC_ILLEGAL_ARG,
                            "HOP window of size %lldms and slide %lldms assigns too many windows "
                            "per row", (long long)d->size_ms, (long long)d->slide_ms);
        return true;
    case WWIN_CUMULATE:
        if (d->size_ms <= 0 || d->slide_ms <= 0)
            return werr_set(err, WEXC_ILLEGAL_ARG,
                            "CumulativeWindowAssigner parameters must satisfy step > 0 and size > 0");
        if (d->size_ms % d->slide_ms != 0)
            return werr_set(err, WEXC_ILLEGAL_ARG,
                            "CumulativeWindowAssigner requires size must be an integral multiple "
                            "of step.");
        if (d->size_ms / d->slide_ms > 1000000)
            return werr_set(err, WEXC_ILLEGAL_ARG,
                            "CUMULATE window of max size %lldms and step %lldms has too many steps",
                            (long long)d->size_ms, (long long)d->slide_ms);
        return true;
    case WWIN_SESSION:
        if (d->gap_ms <= 0)
            return werr_set(err, WEXC_ILLEGAL_ARG,
                            "SessionWindowAssigner parameters must satisfy 0 < size");
        return true;
    }
    return werr_set(err, WEXC_ILLEGAL_ARG, "unknown window kind %d", (int)d->kind);
}

bool wwin_validate_slicing(const WWindowDef *d, WError *err)
{
    switch (d->kind) {
    case WWIN_TUMBLE:
        if (d->size_ms <= 0)
            return werr_set(err, WEXC_ILLEGAL_ARG,
                            "Tumbling Window parameters must satisfy size > 0, but got size %lldms.",
                            (long long)d->size_ms);
        if ((d->offset_ms < 0 ? -d->offset_ms : d->offset_ms) >= d->size_ms)
            return werr_set(err, WEXC_ILLEGAL_ARG,
                            "Tumbling Window parameters must satisfy abs(offset) < size, bot got "
                            "size %lldms and offset %lldms.",
                            (long long)d->size_ms, (long long)d->offset_ms);
        return true;
    case WWIN_HOP:
        if (d->size_ms <= 0 || d->slide_ms <= 0)
            return werr_set(err, WEXC_ILLEGAL_ARG,
                            "Hopping Window must satisfy slide > 0 and size > 0, but got slide "
                            "%lldms and size %lldms.",
                            (long long)d->slide_ms, (long long)d->size_ms);
        if (d->size_ms % d->slide_ms != 0)
            return werr_set(err, WEXC_ILLEGAL_ARG,
                            "Slicing Hopping Window requires size must be an integral multiple of "
                            "slide, but got size %lldms and slide %lldms.",
                            (long long)d->size_ms, (long long)d->slide_ms);
        return wwin_validate(d, err);
    case WWIN_CUMULATE:
        if (d->size_ms <= 0 || d->slide_ms <= 0)
            return werr_set(err, WEXC_ILLEGAL_ARG,
                            "Cumulative Window parameters must satisfy maxSize > 0 and step > 0, "
                            "but got maxSize %lldms and step %lldms.",
                            (long long)d->size_ms, (long long)d->slide_ms);
        if (d->size_ms % d->slide_ms != 0)
            return werr_set(err, WEXC_ILLEGAL_ARG,
                            "Cumulative Window requires maxSize must be an integral multiple of "
                            "step, but got maxSize %lldms and step %lldms.",
                            (long long)d->size_ms, (long long)d->slide_ms);
        return wwin_validate(d, err);
    case WWIN_SESSION:
        return wwin_validate(d, err);
    }
    return wwin_validate(d, err);
}

/* ---- sessions ---- */

static bool intersects(int64_t s1, int64_t e1, int64_t s2, int64_t e2)
{
    return s1 <= e2 && e1 >= s2;
}

int wsess_add(WSession *set, int n, int64_t start, int64_t end, WSession *result, WSession *removed,
              int *nremoved)
{
    int64_t ms = start, me = end;
    int k = 0, w = 0;
    for (int i = 0; i < n; i++) {
        if (intersects(set[i].start, set[i].end, start, end)) {
            if (set[i].start < ms) ms = set[i].start;
            if (set[i].end > me) me = set[i].end;
            removed[k++] = set[i];
        } else {
            set[w++] = set[i];
        }
    }
    /* insert [ms, me) keeping the order by start */
    int pos = w;
    while (pos > 0 && set[pos - 1].start > ms) {
        set[pos] = set[pos - 1];
        pos--;
    }
    set[pos].start = ms;
    set[pos].end = me;
    *nremoved = k;
    result->start = ms;
    result->end = me;
    return w + 1;
}

int wsess_remove(WSession *set, int n, WSession win)
{
    for (int i = 0; i < n; i++) {
        if (set[i].start == win.start && set[i].end == win.end) {
            memmove(&set[i], &set[i + 1], sizeof *set * (size_t)(n - i - 1));
            return n - 1;
        }
    }
    return n;
}

int wsess_find_end(const WSession *set, int n, int64_t end)
{
    for (int i = 0; i < n; i++)
        if (set[i].end == end) return i;
    return -1;
}

int wwin_ncols(int props) { return props < 0 ? 3 : props; }

int wwin_spec_props(const WWindowAggSpec *spec)
{
    if (!spec->group_window || !spec->group_props) return -1;
    return spec->out.ncols - spec->nkeys - spec->naggs;
}

void wwin_set_cols(WChunk *out, int c, int o, int props, int64_t start, int64_t end, int64_t time)
{
    if (props == 0) return;
    out->cols[c].data[o].ts = (WTimestamp){start, 0};
    out->cols[c + 1].data[o].ts = (WTimestamp){end, 0};
    out->cols[c].nulls[o] = out->cols[c + 1].nulls[o] = 0;
    if (props < 0 || props == 4) {
        out->cols[c + 2].data[o].ts = (WTimestamp){time, 0};
        out->cols[c + 2].nulls[o] = 0;
    }
    if (props == 3 || props == 4) {
        int pc = c + props - 1;
        out->cols[pc].data[o] = (WDatum){0};
        out->cols[pc].nulls[o] = 1;
    }
}
