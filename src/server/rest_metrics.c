/*
 * rest_metrics.c — Flink's metric queries of a job vertex: GET /jobs/:jid/vertices/:vid/metrics and
 * GET /jobs/:jid/vertices/:vid/subtasks/metrics, as Flink's dashboard polls them for its job graph.
 *
 * Contract: (registry locked) without `get` the answer lists the ids of the metrics weir measures,
 * [{"id":...}]; with `get=a,b,...` it answers the requested ones weir measures, in the order asked,
 * and leaves out the others (as Flink leaves out a metric its store does not hold; the dashboard
 * shows N/A for them). weir measures the records a subtask read and wrote (numRecordsIn,
 * numRecordsOut: the counts of GET /jobs/:jid/vertices/:vid); busy, back-pressure and per-second
 * rates are not measured. /metrics ids are "<subtask>.<metric>" with a string value;
 * /subtasks/metrics aggregates over the subtasks: min, max, avg, sum and skew (the mean absolute
 * deviation from the average, in percent of the average; 0 when the average is 0).
 * Depends on server/rest (wrest_vertex_records, wrest_query), common/arena (wcalloc), jansson.
 */
#include "rest.h"
#include "../common/arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const MEASURED[] = {"numRecordsIn", "numRecordsOut"};
#define NMEASURED (int)(sizeof MEASURED / sizeof MEASURED[0])

static int measured_index(const char *name, size_t len)
{
    for (int i = 0; i < NMEASURED; i++)
        if (strlen(MEASURED[i]) == len && !strncmp(MEASURED[i], name, len)) return i;
    return -1;
}

/* the value of measured metric m of subtask s */
static int64_t subtask_value(const WRegJob *j, int v, int s, int m)
{
    int64_t rd, wr;
    wrest_vertex_records(j, v, s < j->nlanes ? s : -2, &rd, &wr);
    return m == 0 ? rd : wr;
}

static json_t *aggregate(const WRegJob *j, int v, int m)
{
    int n = j->graph->vertices[v].parallelism;
    double sum = 0, mn = 0, mx = 0;
    double *vals = wcalloc((size_t)n + 1, sizeof *vals);
    for (int s = 0; s < n; s++) {
        vals[s] = (double)subtask_value(j, v, s, m);
        sum += vals[s];
        if (s == 0 || vals[s] < mn) mn = vals[s];
        if (s == 0 || vals[s] > mx) mx = vals[s];
    }
    double avg = n ? sum / n : 0, dev = 0;
    for (int s = 0; s < n; s++) dev += vals[s] > avg ? vals[s] - avg : avg - vals[s];
    free(vals);
    double skew = avg > 0 ? dev / n / avg * 100.0 : 0;
    return json_pack("{s:s, s:f, s:f, s:f, s:f, s:f}", "id", MEASURED[m], "min", mn, "max", mx, "avg", avg, "sum",
                     sum, "skew", skew);
}

int wrest_vertex_metrics(const WRegJob *j, int v, bool aggregated, const char *query, json_t **out)
{
    int n = j->graph->vertices[v].parallelism;
    char want[1024];
    const char *get = wrest_query(query, "get", want, sizeof want);
    json_t *a = json_array();
    if (!get) {
        for (int m = 0; m < NMEASURED; m++)
            for (int s = 0; s < (aggregated ? 1 : n); s++) {
                char id[96];
                if (aggregated) snprintf(id, sizeof id, "%s", MEASURED[m]);
                else snprintf(id, sizeof id, "%d.%s", s, MEASURED[m]);
                json_array_append_new(a, json_pack("{s:s}", "id", id));
            }
        *out = a;
        return 200;
    }
    for (const char *p = get; *p;) {
        size_t len = strcspn(p, ",");
        if (aggregated) {
            int m = measured_index(p, len);
            if (m >= 0) json_array_append_new(a, aggregate(j, v, m));
        } else {
            /* "<subtask>.<metric>" */
            char *end;
            long s = strtol(p, &end, 10);
            int m = end > p && *end == '.' ? measured_index(end + 1, len - (size_t)(end + 1 - p)) : -1;
            if (m >= 0 && s >= 0 && s < n) {
                char id[96], val[32];
                snprintf(id, sizeof id, "%ld.%s", s, MEASURED[m]);
                snprintf(val, sizeof val, "%lld", (long long)subtask_value(j, v, (int)s, m));
                json_array_append_new(a, json_pack("{s:s, s:s}", "id", id, "value", val));
            }
        }
        p += len;
        if (*p == ',') p++;
    }
    *out = a;
    return 200;
}
