/*
 * rest_metrics.c — Flink's metric queries of a job vertex: GET /jobs/:jid/vertices/:vid/metrics and
 * GET /jobs/:jid/vertices/:vid/subtasks/metrics, as Flink's dashboard polls them for its job graph.
 *
 * Contract: (registry locked) without `get` the answer lists the ids of the metrics weir measures,
 * [{"id":...}]; with `get=a,b,...` it answers the requested ones weir measures, in the order asked,
 * and leaves out the others (as Flink leaves out a metric its store does not hold; the dashboard
 * shows N/A for them). weir measures the records a subtask read and wrote (numRecordsIn,
 * numRecordsOut: the counts of GET /jobs/:jid/vertices/:vid), their rates, and the task times
 * (busy / back-pressured / idle ms per second and accumulated: registry.h WRegVertexTimes); a
 * rate is left out when there is none (registry.h has_rates). /metrics ids are "<subtask>.<metric>" with
 * a string value in Flink's form (a Java long, or a Java double: "172.0"); /subtasks/metrics
 * aggregates over the subtasks: min, max, avg, sum and skew (the mean absolute deviation from the
 * average, in percent of the average; 0 when the average is 0).
 * Depends on server/rest, server/registry, types/format (Java doubles), common/arena, jansson.
 */
#include "rest.h"
#include "../common/arena.h"
#include "../types/format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The metrics weir measures, with the form of Flink's value: a count or a duration (Java long),
   a Java double (Flink's Gauge<Double> and rates). */
typedef enum { MK_LONG, MK_DOUBLE } MetricKind;
typedef enum {
    M_RECORDS_IN, M_RECORDS_OUT, M_RECORDS_IN_RATE, M_RECORDS_OUT_RATE, M_BUSY_RATE, M_BP_RATE, M_HARD_BP_RATE,
    M_SOFT_BP_RATE, M_IDLE_RATE, M_BUSY_MS, M_BP_MS, M_IDLE_MS
} MetricId;
static const struct { const char *name; MetricKind kind; bool rate; } MEASURED[] = {
    [M_RECORDS_IN] = {"numRecordsIn", MK_LONG, false},
    [M_RECORDS_OUT] = {"numRecordsOut", MK_LONG, false},
    [M_RECORDS_IN_RATE] = {"numRecordsInPerSecond", MK_DOUBLE, true},
    [M_RECORDS_OUT_RATE] = {"numRecordsOutPerSecond", MK_DOUBLE, true},
    [M_BUSY_RATE] = {"busyTimeMsPerSecond", MK_DOUBLE, true},
    [M_BP_RATE] = {"backPressuredTimeMsPerSecond", MK_LONG, true},
    /* a weir lane waits for room blocked (Flink's hard back-pressure); it has no soft form */
    [M_HARD_BP_RATE] = {"hardBackPressuredTimeMsPerSecond", MK_LONG, true},
    [M_SOFT_BP_RATE] = {"softBackPressuredTimeMsPerSecond", MK_LONG, true},
    [M_IDLE_RATE] = {"idleTimeMsPerSecond", MK_LONG, true},
    [M_BUSY_MS] = {"accumulateBusyTimeMs", MK_DOUBLE, false},
    [M_BP_MS] = {"accumulateBackPressuredTimeMs", MK_LONG, false},
    [M_IDLE_MS] = {"accumulateIdleTimeMs", MK_LONG, false},
};
#define NMEASURED (int)(sizeof MEASURED / sizeof MEASURED[0])

static int measured_index(const char *name, size_t len)
{
    for (int i = 0; i < NMEASURED; i++)
        if (strlen(MEASURED[i].name) == len && !strncmp(MEASURED[i].name, name, len)) return i;
    return -1;
}

/* The value of measured metric m of subtask s; false for a rate the subtask has none of yet
   (registry.h has_rates: the metric is left out then). */
static bool subtask_value(const WRegJob *j, int v, int s, int m, int64_t now, double *out)
{
    WRegVertexTimes t;
    wregistry_vertex_times(j, v, s, now, &t);
    if (MEASURED[m].rate && !t.has_rates) return false;
    switch ((MetricId)m) {
    case M_RECORDS_IN: *out = (double)t.read; break;
    case M_RECORDS_OUT: *out = (double)t.write; break;
    case M_RECORDS_IN_RATE: *out = t.records_in_per_s; break;
    case M_RECORDS_OUT_RATE: *out = t.records_out_per_s; break;
    case M_BUSY_RATE: *out = (double)(int64_t)t.busy_per_s; break;
    case M_BP_RATE: case M_HARD_BP_RATE: *out = (double)(int64_t)t.backpressured_per_s; break;
    case M_SOFT_BP_RATE: *out = 0; break;
    case M_IDLE_RATE: *out = (double)(int64_t)t.idle_per_s; break;
    case M_BUSY_MS: *out = (double)t.busy_ms; break;
    case M_BP_MS: *out = (double)t.backpressured_ms; break;
    case M_IDLE_MS: *out = (double)t.idle_ms; break;
    }
    return true;
}

static json_t *aggregate(const WRegJob *j, int v, int m, int64_t now)
{
    int n = j->graph->vertices[v].parallelism;
    double sum = 0, mn = 0, mx = 0;
    double *vals = wcalloc((size_t)n + 1, sizeof *vals);
    for (int s = 0; s < n; s++) {
        if (!subtask_value(j, v, s, m, now, &vals[s])) {
            free(vals);
            return NULL;
        }
        sum += vals[s];
        if (s == 0 || vals[s] < mn) mn = vals[s];
        if (s == 0 || vals[s] > mx) mx = vals[s];
    }
    double avg = n ? sum / n : 0, dev = 0;
    for (int s = 0; s < n; s++) dev += vals[s] > avg ? vals[s] - avg : avg - vals[s];
    free(vals);
    double skew = avg > 0 ? dev / n / avg * 100.0 : 0;
    return json_pack("{s:s, s:f, s:f, s:f, s:f, s:f}", "id", MEASURED[m].name, "min", mn, "max", mx, "avg", avg,
                     "sum", sum, "skew", skew);
}

int wrest_vertex_metrics(const WRegJob *j, int v, bool aggregated, const char *query, json_t **out)
{
    int64_t now = wregistry_now();
    int n = j->graph->vertices[v].parallelism;
    char want[1024];
    const char *get = wrest_query(query, "get", want, sizeof want);
    json_t *a = json_array();
    if (!get) {
        for (int m = 0; m < NMEASURED; m++)
            for (int s = 0; s < (aggregated ? 1 : n); s++) {
                char id[96];
                if (aggregated) snprintf(id, sizeof id, "%s", MEASURED[m].name);
                else snprintf(id, sizeof id, "%d.%s", s, MEASURED[m].name);
                json_array_append_new(a, json_pack("{s:s}", "id", id));
            }
        *out = a;
        return 200;
    }
    for (const char *p = get; *p;) {
        size_t len = strcspn(p, ",");
        if (aggregated) {
            int m = measured_index(p, len);
            json_t *x = m >= 0 ? aggregate(j, v, m, now) : NULL;
            if (x) json_array_append_new(a, x);
        } else {
            /* "<subtask>.<metric>" */
            char *end;
            long s = strtol(p, &end, 10);
            int m = end > p && *end == '.' ? measured_index(end + 1, len - (size_t)(end + 1 - p)) : -1;
            double x;
            if (m >= 0 && s >= 0 && s < n && subtask_value(j, v, (int)s, m, now, &x)) {
                char id[96], val[40];
                snprintf(id, sizeof id, "%ld.%s", s, MEASURED[m].name);
                if (MEASURED[m].kind == MK_DOUBLE) wfmt_double_java(x, val);
                else snprintf(val, sizeof val, "%lld", (long long)x);
                json_array_append_new(a, json_pack("{s:s, s:s}", "id", id, "value", val));
            }
        }
        p += len;
        if (*p == ',') p++;
    }
    *out = a;
    return 200;
}
