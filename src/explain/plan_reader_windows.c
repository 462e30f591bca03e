/*
 * plan_reader_windows.c — EXECUTE PLAN for windows, what the readers of the windowed kinds share
 * (src/kinds/window_*.c): a windowing strategy (TUMBLE / HOP / CUMULATE / SESSION, its ISO-8601
 * durations) into a node's window payload, the attached window columns of a window rank,
 * deduplicate or join, the range check of key indexes, and the window_time column Flink leaves
 * out of a window aggregate's outputType.
 * Contract: see plan_reader_internal.h.
 */
#include "plan_reader_internal.h"

#include <stdlib.h>
#include <string.h>

static WWindowKind window_kind(const char *t)
{
    if (!t) return WWIN_TUMBLE;
    if (!strcmp(t, "HoppingWindow") || !strcmp(t, "SlidingWindow")) return WWIN_HOP;
    if (!strcmp(t, "CumulativeWindow")) return WWIN_CUMULATE;
    if (!strcmp(t, "SessionWindow")) return WWIN_SESSION;
    return WWIN_TUMBLE;
}

/* ISO-8601 PTnHnMn.nS to ms */
int64_t rd_iso_ms(const char *s)
{
    if (!s) return 0;
    int64_t ms = 0;
    const char *p = s;
    if (*p == 'P') p++;
    if (*p == 'T') p++;
    while (*p) {
        char *end;
        double v = strtod(p, &end);
        if (end == p) break;
        switch (*end) {
        case 'D': ms += (int64_t)(v * 86400000.0); break;
        case 'H': ms += (int64_t)(v * 3600000.0); break;
        case 'M': ms += (int64_t)(v * 60000.0); break;
        case 'S': ms += (int64_t)(v * 1000.0 + 0.5); break;
        default: return ms;
        }
        p = end + 1;
    }
    return ms;
}

void rd_window(Rd *r, json_t *w, WRel *x)
{
    json_t *win = json_object_get(w, "window");
    WRelWindow *xw = wrel_window_mut(x);
    xw->kind = window_kind(json_string_value(json_object_get(win, "type")));
    if (xw->kind == WWIN_SESSION) {
        xw->gap = rd_iso_ms(json_string_value(json_object_get(win, "gap")));
        xw->npartition = rd_ints(r, json_object_get(win, "partition_key_indices"), &xw->partition);
    } else {
        xw->size = rd_iso_ms(json_string_value(json_object_get(win, xw->kind == WWIN_CUMULATE ? "maxSize" : "size")));
        if (xw->kind == WWIN_HOP) xw->slide = rd_iso_ms(json_string_value(json_object_get(win, "slide")));
        if (xw->kind == WWIN_CUMULATE) xw->slide = rd_iso_ms(json_string_value(json_object_get(win, "step")));
    }
    xw->offset = rd_iso_ms(json_string_value(json_object_get(win, "offset")));
    xw->time_col = rd_int(json_object_get(w, "timeAttributeIndex"), 0);
    xw->proctime = json_is_false(json_object_get(w, "isRowtime"));
    const char *strategy = json_string_value(json_object_get(w, "strategy"));
    if ((x->kind == WR_WINDOW_AGG || x->kind == WR_LOCAL_WINDOW_AGG || x->kind == WR_WINDOW_RANK ||
         x->kind == WR_WINDOW_JOIN) && strategy && !strcmp(strategy, "WindowAttached")) {
        xw->attached = true;
        xw->start_col = rd_int(json_object_get(w, "windowStart"), RD_BAD_INDEX);
        xw->end_col = rd_int(json_object_get(w, "windowEnd"), RD_BAD_INDEX);
        xw->time_col = xw->end_col;
    }
}

/* Flink 2.3 writes a window aggregate's window_time in its outputType only when a consumer reads
   it; weir's window operators always produce start, end and time: the column is added back. */
bool rd_window_time(Rd *r, json_t *windowing, const WRel *x, WSchema *out)
{
    const WRelWindow *xw = wrel_window(x);
    if (out->n != xw->out_start + 2) return true;
    const WType *tt = rd_type(r, json_object_get(windowing, "timeAttributeType"));
    if (!tt) return false;
    WSchema s = {out->n + 1, WA_ARRAY(r->a, const char *, out->n + 1), WA_ARRAY(r->a, const WType *, out->n + 1)};
    for (int i = 0; i < out->n; i++) {
        s.names[i] = out->names[i];
        s.types[i] = out->types[i];
    }
    s.names[out->n] = "window_time";
    s.types[out->n] = wtype_with_nullable(r->a, wtype_with_time_attr(r->a, tt, xw->proctime ? WTA_PROCTIME : WTA_ROWTIME),
                                          false);
    *out = s;
    return true;
}

/* The attached window columns of `w` (a WindowAttached strategy) over a row of n fields into
   *ws / *we; false with the error set when they are missing or out of range. */
bool rd_attached_cols(Rd *r, json_t *w, int n, int *ws, int *we)
{
    const char *strategy = json_string_value(json_object_get(w, "strategy"));
    json_t *js = json_object_get(w, "windowStart"), *je = json_object_get(w, "windowEnd");
    if (!strategy || strcmp(strategy, "WindowAttached") != 0 || !json_is_integer(js) || !json_is_integer(je))
        return rd_fail(r, "Invalid compiled plan: a window rank, deduplicate or join needs a %s windowing strategy.",
                       "WindowAttached");
    *ws = rd_int(js, RD_BAD_INDEX);
    *we = rd_int(je, RD_BAD_INDEX);
    if (*ws < 0 || *ws >= n || *we < 0 || *we >= n)
        return rd_fail(r, "Invalid compiled plan: the window %s columns are out of range.", "start/end");
    return true;
}

/* Whether the nk key indexes k are within a row of n fields; false with the error set naming what. */
bool rd_keys_in_range(Rd *r, int nk, const int *k, int n, const char *what)
{
    for (int i = 0; i < nk; i++)
        if (k[i] < 0 || k[i] >= n) return rd_fail(r, "Invalid compiled plan: a %s index is out of range.", what);
    return true;
}
