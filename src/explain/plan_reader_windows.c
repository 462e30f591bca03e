/*
 * plan_reader_windows.c — EXECUTE PLAN for windows: a windowing strategy (TUMBLE / HOP / CUMULATE
 * / SESSION, its ISO-8601 durations, attached window columns) into a node's win_* fields, the
 * legacy group window aggregate (stream-exec-group-window-aggregate_1) and the window_time column
 * Flink leaves out of a window aggregate's outputType.
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
static int64_t iso_ms(const char *s)
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
        xw->gap = iso_ms(json_string_value(json_object_get(win, "gap")));
        xw->npartition = rd_ints(r, json_object_get(win, "partition_key_indices"), &xw->partition);
    } else {
        xw->size = iso_ms(json_string_value(json_object_get(win, xw->kind == WWIN_CUMULATE ? "maxSize" : "size")));
        if (xw->kind == WWIN_HOP) xw->slide = iso_ms(json_string_value(json_object_get(win, "slide")));
        if (xw->kind == WWIN_CUMULATE) xw->slide = iso_ms(json_string_value(json_object_get(win, "step")));
    }
    xw->offset = iso_ms(json_string_value(json_object_get(win, "offset")));
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

/* StreamExecGroupWindowAggregate (legacy GROUP BY TUMBLE / HOP / SESSION): grouping, aggCalls,
   window {kind, alias, timeField, isTimeWindow, size | slide | gap}, namedWindowProperties (none,
   or w$start, w$end, [w$rowtime,] w$proctime after the aggregates), needRetraction. */
WRel *rd_group_window(Rd *r, json_t *j, WRel *in, const WSchema *out)
{
    WRel *x = rd_new_rel(r, WR_WINDOW_AGG, 1);
    WRelWindow *xw = wrel_window_mut(x);
    xw->legacy = true;
    x->nkeys = rd_ints(r, json_object_get(j, "grouping"), &x->keys);
    if (!rd_aggs(r, json_object_get(j, "aggCalls"), x)) return NULL;
    json_t *w = json_object_get(j, "window");
    const char *kind = json_string_value(json_object_get(w, "kind"));
    if (!kind || (strcmp(kind, "TUMBLING") && strcmp(kind, "SLIDING") && strcmp(kind, "SESSION")) ||
        json_is_false(json_object_get(w, "isTimeWindow"))) {
        rd_fail(r, "The compiled plan has an unsupported group window kind: %s", kind ? kind : "(none)");
        return NULL;
    }
    xw->kind = !strcmp(kind, "SLIDING") ? WWIN_HOP : !strcmp(kind, "SESSION") ? WWIN_SESSION : WWIN_TUMBLE;
    if (xw->kind == WWIN_SESSION) {
        xw->gap = iso_ms(json_string_value(json_object_get(w, "gap")));
    } else {
        xw->size = iso_ms(json_string_value(json_object_get(w, "size")));
        if (xw->kind == WWIN_HOP) xw->slide = iso_ms(json_string_value(json_object_get(w, "slide")));
    }
    json_t *tf = json_object_get(w, "timeField");
    json_t *fi = json_object_get(tf, "fieldIndex");
    xw->time_col = (int)json_integer_value(fi);
    if (!json_is_integer(fi) || xw->time_col < 0 || xw->time_col >= in->out.n ||
        in->out.types[xw->time_col]->time_attr == WTA_NONE) {
        rd_fail(r, "The compiled plan's group window has no time attribute field%s", "");
        return NULL;
    }
    xw->proctime = in->out.types[xw->time_col]->time_attr == WTA_PROCTIME;
    size_t nprops = json_array_size(json_object_get(j, "namedWindowProperties"));
    size_t want = nprops == 0 ? 0 : xw->proctime ? 3 : 4;
    if (nprops != want || out->n != x->nkeys + wrel_agg(x)->naggs + (int)want) {
        rd_fail(r, "The compiled plan's group window has unexpected named window properties%s", "");
        return NULL;
    }
    xw->legacy_props = nprops > 0;
    xw->out_start = xw->out_end = xw->out_time = -1;
    if (nprops) {
        xw->out_start = x->nkeys + wrel_agg(x)->naggs;
        xw->out_end = xw->out_start + 1;
        xw->out_time = xw->out_start + 2;
    }
    x->input_retracts = json_is_true(json_object_get(j, "needRetraction"));
    return x;
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
