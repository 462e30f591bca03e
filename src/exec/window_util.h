/*
 * window_util.h — window assignment math shared by the window operators (window TVF, window
 * aggregate, and whoever else needs Flink's window bounds): the window start of a timestamp with
 * an offset (Flink TimeWindow.getWindowStartWithOffset), the windows of TUMBLE / HOP / CUMULATE in
 * Flink's order, the shift of TIMESTAMP_LTZ time attributes into the session time zone and back
 * (Flink TimeWindowUtil: toUtcTimestampMills, toEpochMills, toEpochMillsForTimer incl. DST), the
 * "has this window fired" test, parameter validation with Flink's messages, and the session
 * merge of a new window into a key's set of sessions (Flink MergingWindowSet with
 * SessionWindowAssigner: windows that intersect, bounds inclusive, are merged).
 *
 * Times in "shifted" space are wall-clock milliseconds of the session zone (UTC when the time
 * attribute is a TIMESTAMP, or no zone is given); window bounds live in that space. Timer and
 * watermark times are epoch milliseconds. May call types/ (datetime), common/.
 */
#ifndef WEIR_EXEC_WINDOW_UTIL_H
#define WEIR_EXEC_WINDOW_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include "windowed.h"
#include "../types/datetime.h"
#include "../common/error.h"

/* Time-zone shift of one operator: tz NULL = UTC (no shift). */
typedef struct WWinShift {
    const WTimeZone *tz;
    bool dst;                   /* Java TimeZone.useDaylightTime() of tz */
} WWinShift;

/* The shift a window definition implies (its zone when the time attribute is TIMESTAMP_LTZ). */
WWinShift wwin_shift_of(const WWindowDef *d, int64_t now_ms);
/* Whether the zone observes daylight saving around now_ms (offsets differ within a year). */
bool wwin_tz_uses_dst(const WTimeZone *tz, int64_t now_ms);

/* TimeWindow.getWindowStartWithOffset. */
int64_t wwin_start_with_offset(int64_t ts, int64_t offset, int64_t size);
/* TimeWindowUtil.toUtcTimestampMills: epoch ms -> shifted wall-clock ms. */
int64_t wwin_to_shifted(const WWinShift *s, int64_t epoch_ms);
/* TimeWindowUtil.toEpochMills: shifted wall-clock ms -> epoch ms. */
int64_t wwin_to_epoch(const WWinShift *s, int64_t shifted_ms);
/* TimeWindowUtil.toEpochMillsForTimer (first instant after a DST gap, later one in an overlap). */
int64_t wwin_timer_time(const WWinShift *s, int64_t shifted_ms);
/* TimeWindowUtil.isWindowFired: progress (watermark / processing time) >= timer of end - 1. */
bool wwin_fired(const WWinShift *s, int64_t window_end, int64_t progress);

/* Windows of a TUMBLE / HOP / CUMULATE definition containing the shifted timestamp ts, in the
   order Flink's group-window assigners list them (HOP: latest start first; CUMULATE: growing
   ends). Writes at most max windows; returns how many there are (may exceed max). */
int wwin_assign(const WWindowDef *d, int64_t ts, int64_t *starts, int64_t *ends, int max);
/* Slices (Flink's SliceAssigners; the legacy WindowOperator's panes): the time axis is cut into
   slices that no window boundary crosses, and a slice is named by its end. Slice size: TUMBLE
   the size, HOP gcd(size, slide) (the slide for a window TVF, whose size is a multiple of it),
   CUMULATE the step. Slices are aligned on the window offset. */
int64_t wwin_slice_size(const WWindowDef *d);
/* End of the slice of shifted timestamp ts (SliceAssigner.assignSliceEnd). The windows of a slice
   are those of any of its timestamps, e.g. wwin_assign(d, slice_end - 1, ...). */
int64_t wwin_slice_end(const WWindowDef *d, int64_t ts);
/* End of the last window the slice ending at slice_end belongs to (SliceAssigner.getLastWindowEnd;
   HOP: the window with the latest start at or before the slice start; CUMULATE: the end of its
   max-size window; TUMBLE: the slice end). */
int64_t wwin_slice_last_window_end(const WWindowDef *d, int64_t slice_end);
/* End of the first slice of the window ending at window_end (HOP: start + slice size;
   CUMULATE: start + step, the slice that holds the window's running accumulator). */
int64_t wwin_first_slice_end(const WWindowDef *d, int64_t window_end);
/* Start of the window that ends at window_end (CUMULATE: the start of its max-size window). */
int64_t wwin_start_of(const WWindowDef *d, int64_t window_end);
/* Upper bound of windows per row (size / slide for HOP, max size / step for CUMULATE). */
int wwin_max_per_row(const WWindowDef *d);

/* Parameter checks with Flink's messages (java.lang.IllegalArgumentException).
   wwin_validate: what every window operator needs (positive sizes, CUMULATE multiple).
   wwin_validate_slicing: the window-TVF aggregation (slice assigners) restrictions on top:
   HOP size a multiple of slide, TUMBLE |offset| < size. Return false with err set. */
bool wwin_validate(const WWindowDef *d, WError *err);
bool wwin_validate_slicing(const WWindowDef *d, WError *err);

/* A session window [start, end). */
typedef struct WSession {
    int64_t start, end;
} WSession;

/* Adds the window [start, end) to a key's sessions (n entries, sorted by start, pairwise not
   intersecting; the array must have room for n + 1). Every session that intersects the new one
   (bounds inclusive, as TimeWindow.intersects) is merged with it; the merged-away sessions are
   copied to removed[] (room for n) and *nremoved set. Returns the new count; *result is the
   resulting session. */
int wsess_add(WSession *set, int n, int64_t start, int64_t end, WSession *result, WSession *removed,
              int *nremoved);
/* Removes the session with exactly these bounds; returns the new count. */
int wsess_remove(WSession *set, int n, WSession w);
/* Index of the session ending at end, or -1. */
int wsess_find_end(const WSession *set, int n, int64_t end);

/* The window columns an aggregate emits after its aggregates. props < 0: window_start,
   window_end, window_time (window TVF layout); props >= 0: that many GroupWindowAggregate named
   properties (0; 3 = w$start, w$end, w$proctime; 4 = w$start, w$end, w$rowtime, w$proctime, the
   w$proctime NULL). wwin_ncols gives the column count, wwin_set_cols writes row o from column c. */
int wwin_ncols(int props);
void wwin_set_cols(WChunk *out, int c, int o, int props, int64_t start, int64_t end, int64_t time);
/* props of a WWindowAggSpec (its group_props layout), given its output column count */
int wwin_spec_props(const WWindowAggSpec *spec);

#endif
