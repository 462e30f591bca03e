/*
 * rest_jobs.c — job REST endpoints (Flink's shapes) and weir's /weir/jobs additions. See rest.h.
 */
#include "rest.h"
#include "rest_path.h"
#include "../common/arena.h"
#include "../common/duration.h"
#include "../common/strbuf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char *const EXEC_STATES[] = {"CREATED", "SCHEDULED", "DEPLOYING", "RUNNING", "FINISHED",
                                          "CANCELING", "CANCELED", "FAILED", "RECONCILING", "INITIALIZING"};
#define NEXEC (int)(sizeof EXEC_STATES / sizeof EXEC_STATES[0])

static bool valid_jid(const char *s)
{
    if (strlen(s) != 32) return false;
    for (int i = 0; i < 32; i++)
        if (!isxdigit((unsigned char)s[i])) return false;
    return true;
}

static int exec_index(const char *s)
{
    for (int i = 0; i < NEXEC; i++)
        if (!strcmp(EXEC_STATES[i], s)) return i;
    return 0;
}

/* ------------------------------------------------------------------ vertices (locked) */

static bool vertex_finished(const WRegJob *j, int v)
{
    const WJobVertex *vx = &j->graph->vertices[v];
    for (int k = 0; k < vx->nops; k++) {
        WOpStats st;
        wregistry_op_stats(j, vx->ops[k], -1, &st);
        if (!st.finished) return false;
    }
    return vx->nops > 0;
}

static const char *vertex_state(const WRegJob *j, int v)
{
    switch (j->state) {
    case WJS_FINISHED: return "FINISHED";
    case WJS_CANCELED: return vertex_finished(j, v) ? "FINISHED" : "CANCELED";
    case WJS_FAILED:
    case WJS_FAILING: return vertex_finished(j, v) ? "FINISHED" : "FAILED";
    case WJS_CANCELLING: return vertex_finished(j, v) ? "FINISHED" : "CANCELING";
    case WJS_RUNNING: return vertex_finished(j, v) ? "FINISHED" : "RUNNING";
    case WJS_INITIALIZING: return "INITIALIZING";
    default: return "CREATED";
    }
}


/* Flink's IOMetricsInfo. weir measures records and the task times (busy, back-pressured, idle:
   registry.h's WRegVertexTimes); bytes are not measured (weir exchanges chunks, not serialized
   buffers): their figures say so with Flink's `-complete: false`. */
static json_t *metrics_json(int64_t read, int64_t write, bool complete, const WRegVertexTimes *t)
{
    return json_pack("{s:i, s:b, s:i, s:b, s:I, s:b, s:I, s:b, s:I, s:I, s:f}", "read-bytes", 0, "read-bytes-complete", 0,
                     "write-bytes", 0, "write-bytes-complete", 0, "read-records", (json_int_t)read,
                     "read-records-complete", complete, "write-records", (json_int_t)write,
                     "write-records-complete", complete, "accumulated-backpressured-time",
                     (json_int_t)t->backpressured_ms, "accumulated-idle-time", (json_int_t)t->idle_ms,
                     "accumulated-busy-time", (double)t->busy_ms);
}

/* The task times of vertex v summed over its subtasks (Flink's job details add them up). */
static WRegVertexTimes vertex_times_sum(const WRegJob *j, int v, int64_t now)
{
    WRegVertexTimes sum = {0};
    for (int s = 0; s < j->graph->vertices[v].parallelism; s++) {
        WRegVertexTimes t;
        wregistry_vertex_times(j, v, s, now, &t);
        sum.busy_ms += t.busy_ms;
        sum.backpressured_ms += t.backpressured_ms;
        sum.idle_ms += t.idle_ms;
    }
    return sum;
}

/* One AggregatedMetric of Flink's vertex details: min, max, sum, avg and percentiles over the
   subtasks' values. */
static json_t *aggregate_values(int64_t *v, int n)
{
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && v[b - 1] > v[b]; b--) {
            int64_t t = v[b];
            v[b] = v[b - 1];
            v[b - 1] = t;
        }
    int64_t sum = 0;
    for (int i = 0; i < n; i++) sum += v[i];
    json_int_t mn = n ? v[0] : 0, mx = n ? v[n - 1] : 0, avg = n ? sum / n : 0;
    json_int_t p25 = n ? v[(n - 1) / 4] : 0, med = n ? v[(n - 1) / 2] : 0, p75 = n ? v[(n - 1) * 3 / 4] : 0;
    json_int_t p95 = n ? v[(n - 1) * 95 / 100] : 0;
    return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "p25", p25, "min", mn, "avg", avg, "median", med, "max",
                     mx, "sum", (json_int_t)sum, "p95", p95, "p75", p75);
}

/* Flink's "aggregated" block of /jobs/:jid/vertices/:vid over the subtasks built there. */
static json_t *aggregated_json(json_t *subs)
{
    static const char *const METRICS[] = {"read-bytes", "write-bytes", "read-records", "write-records",
                                          "accumulated-backpressured-time", "accumulated-idle-time",
                                          "accumulated-busy-time"};
    int n = (int)json_array_size(subs);
    int64_t *vals = wcalloc((size_t)n + 1, sizeof *vals);
    json_t *m = json_object(), *sd = json_object();
    for (size_t k = 0; k < sizeof METRICS / sizeof METRICS[0]; k++) {
        bool unmeasured = false;
        for (int i = 0; i < n; i++) {
            json_t *x = json_object_get(json_object_get(json_array_get(subs, (size_t)i), "metrics"), METRICS[k]);
            vals[i] = json_is_integer(x) ? json_integer_value(x) : json_is_real(x) ? (int64_t)json_real_value(x) : 0;
            if (json_is_string(x)) unmeasured = true;       /* NaN: Flink aggregates it as -1 */
        }
        if (unmeasured)
            for (int i = 0; i < n; i++) vals[i] = -1;
        json_object_set_new(m, METRICS[k], aggregate_values(vals, n));
    }
    json_t *first = json_object_get(json_array_get(subs, 0), "status-duration");
    const char *state;
    json_t *unused;
    json_object_foreach(first, state, unused) {
        for (int i = 0; i < n; i++)
            vals[i] = json_integer_value(json_object_get(json_object_get(json_array_get(subs, (size_t)i), "status-duration"), state));
        json_object_set_new(sd, state, aggregate_values(vals, n));
    }
    free(vals);
    return json_pack("{s:o, s:o}", "metrics", m, "status-duration", sd);
}

/* Flink's back-pressure level of a ratio (JobVertexBackPressureHandler: OK up to 10 %, LOW up to
   50 %, HIGH above). */
static const char *bp_level(double ratio) { return ratio <= 0.10 ? "ok" : ratio <= 0.5 ? "low" : "high"; }

/* GET /jobs/:jid/vertices/:vid/backpressure: Flink's JobVertexBackPressureInfo from the subtasks'
   back-pressured / idle / busy times per second; "deprecated" (Flink: no task metrics yet) while a
   subtask has no rates (registry.h has_rates). */
static json_t *backpressure_json(const WRegJob *j, int v, int64_t now)
{
    json_t *subs = json_array();
    double worst = 0;
    for (int s = 0; s < j->graph->vertices[v].parallelism; s++) {
        WRegVertexTimes t;
        wregistry_vertex_times(j, v, s, now, &t);
        if (!t.has_rates) {
            json_decref(subs);
            return json_pack("{s:s}", "status", "deprecated");
        }
        double ratio = (double)(int64_t)t.backpressured_per_s / 1000.0;
        if (ratio > worst) worst = ratio;
        json_array_append_new(subs, json_pack("{s:i, s:s, s:f, s:f, s:f, s:s}", "subtask", s, "backpressureLevel",
                                              bp_level(ratio), "ratio", ratio, "idleRatio",
                                              (double)(int64_t)t.idle_per_s / 1000.0, "busyRatio",
                                              (double)(int64_t)t.busy_per_s / 1000.0, "backpressure-level",
                                              bp_level(ratio)));
    }
    return json_pack("{s:s, s:s, s:I, s:o, s:s}", "status", "ok", "backpressureLevel", bp_level(worst), "end-timestamp",
                     (json_int_t)now, "subtasks", subs, "backpressure-level", bp_level(worst));
}

static void vertex_id(const WRegJob *j, int v, char out[33]) { wjobgraph_vertex_id(j->id, v, out); }

static int64_t job_end(const WRegJob *j) { return j->end_ms > 0 ? j->end_ms : -1; }

static int64_t job_duration(const WRegJob *j, int64_t now)
{
    return (j->end_ms > 0 ? j->end_ms : now) - j->start_ms;
}

static json_t *plan_json(const WRegJob *j)
{
    json_t *nodes = json_array();
    bool batch = strcasecmp(wopts_get_or(&j->config, "execution.runtime-mode", "streaming"), "batch") == 0;
    if (j->graph) {
        for (int v = j->graph->nvertices - 1; v >= 0; v--) {     /* Flink 2.3: sinks first */
            const WJobVertex *vx = &j->graph->vertices[v];
            char id[33];
            vertex_id(j, v, id);
            json_t *inputs = json_array();
            for (int e = 0; e < vx->ninputs; e++) {
                char from[33];
                vertex_id(j, vx->inputs[e].from, from);
                json_array_append_new(inputs, json_pack("{s:i, s:s, s:s, s:s}", "num", e, "id", from, "ship_strategy",
                                                        wship_name(vx->inputs[e].ship), "exchange",
                                                        "pipelined_bounded"));
            }
            json_t *node = json_pack("{s:s, s:i, s:s, s:s, s:s, s:{}}", "id", id, "parallelism", vx->parallelism,
                                     "operator", "", "operator_strategy", "", "description", vx->description,
                                     "optimizer_properties");
            if (json_array_size(inputs)) json_object_set_new(node, "inputs", inputs);
            else json_decref(inputs);
            json_array_append_new(nodes, node);
        }
    }
    return json_pack("{s:s, s:s, s:s, s:o}", "jid", j->id, "name", j->name, "type", batch ? "BATCH" : "STREAMING",
                     "nodes", nodes);
}

static json_t *tasks_json(const int *counts, bool with_total, int total)
{
    json_t *o = json_object();
    if (with_total) json_object_set_new(o, "total", json_integer(total));
    for (int i = 0; i < NEXEC; i++) {
        char low[32];
        snprintf(low, sizeof low, "%s", EXEC_STATES[i]);
        if (with_total)
            for (char *p = low; *p; p++) *p = (char)tolower((unsigned char)*p);
        json_object_set_new(o, with_total ? low : EXEC_STATES[i], json_integer(counts[i]));
    }
    return o;
}

/* (locked) subtasks per execution state over the job */
static int job_task_counts(const WRegJob *j, int *counts)
{
    memset(counts, 0, sizeof(int) * NEXEC);
    int total = 0;
    if (!j->graph) return 0;
    for (int v = 0; v < j->graph->nvertices; v++) {
        int p = j->graph->vertices[v].parallelism;
        counts[exec_index(vertex_state(j, v))] += p;
        total += p;
    }
    return total;
}

static json_t *job_details(const WRegJob *j, int64_t now)
{
    json_t *ts = json_object();
    for (int s = 0; s < WJS__COUNT; s++) json_object_set_new(ts, wjob_state_name((WJobState)s), json_integer(j->ts[s]));
    json_t *vertices = json_array();
    int status_counts[NEXEC];
    memset(status_counts, 0, sizeof status_counts);
    char ssg[33];       /* every vertex is in the default slot sharing group */
    wjobgraph_vertex_id(j->id, -1, ssg);
    if (j->graph) {
        for (int v = 0; v < j->graph->nvertices; v++) {
            const WJobVertex *vx = &j->graph->vertices[v];
            char id[33];
            vertex_id(j, v, id);
            const char *st = vertex_state(j, v);
            status_counts[exec_index(st)]++;
            int counts[NEXEC];
            memset(counts, 0, sizeof counts);
            counts[exec_index(st)] = vx->parallelism;
            int64_t rd, wr;
            wregistry_vertex_records(j, v, -1, &rd, &wr);
            WRegVertexTimes times = vertex_times_sum(j, v, now);
            json_array_append_new(
                vertices,
                json_pack("{s:s, s:s, s:s, s:i, s:i, s:s, s:I, s:I, s:I, s:o, s:o}", "id", id,
                          "slotSharingGroupId", ssg, "name", vx->name,
                          "maxParallelism", vx->max_parallelism, "parallelism", vx->parallelism, "status", st,
                          "start-time", (json_int_t)j->start_ms, "end-time", (json_int_t)job_end(j), "duration",
                          (json_int_t)job_duration(j, now), "tasks", tasks_json(counts, false, 0), "metrics",
                          metrics_json(rd, wr, wjob_state_terminal(j->state), &times)));
        }
    }
    bool batch = strcasecmp(wopts_get_or(&j->config, "execution.runtime-mode", "streaming"), "batch") == 0;
    return json_pack("{s:s, s:s, s:s, s:b, s:s, s:s, s:s, s:I, s:I, s:I, s:i, s:I, s:o, s:o, s:o, s:o, s:i}", "jid",
                     j->id, "application-id", j->id, "name", j->name, "isStoppable", 0, "state",
                     wjob_state_name(j->state), "job-type", batch ? "BATCH" : "STREAMING", "schedulerType", "Default",
                     "start-time", (json_int_t)j->start_ms, "end-time", (json_int_t)job_end(j), "duration",
                     (json_int_t)job_duration(j, now), "maxParallelism", -1, "now", (json_int_t)now, "timestamps", ts,
                     "vertices", vertices, "status-counts", tasks_json(status_counts, false, 0), "plan", plan_json(j),
                     "pending-operators", 0);
}

static json_t *job_overview_entry(const WRegJob *j, int64_t now)
{
    int counts[NEXEC];
    int total = job_task_counts(j, counts);
    int64_t last = j->start_ms;
    for (int s = 0; s < WJS__COUNT; s++) if (j->ts[s] > last) last = j->ts[s];
    bool batch = strcasecmp(wopts_get_or(&j->config, "execution.runtime-mode", "streaming"), "batch") == 0;
    return json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:s, s:o, s:s, s:i, s:s}", "jid", j->id, "name", j->name,
                     "start-time", (json_int_t)j->start_ms, "end-time", (json_int_t)job_end(j), "duration",
                     (json_int_t)job_duration(j, now), "last-modification", (json_int_t)last, "state",
                     wjob_state_name(j->state), "tasks", tasks_json(counts, true, total), "jobType",
                     batch ? "BATCH" : "STREAMING", "pending-operators", 0, "schedulerType", "Default");
}

/* ------------------------------------------------------------------ checkpoints */

static int64_t cfg_duration(const WOptions *o, const char *key, int64_t dflt)
{
    int64_t v = dflt;
    WError e;
    werr_clear(&e);
    if (!wopts_get_duration_ms(o, key, dflt, &v, &e)) return dflt;
    return v;
}

static int64_t cfg_long(const WOptions *o, const char *key, int64_t dflt)
{
    int64_t v = dflt;
    WError e;
    werr_clear(&e);
    if (!wopts_get_long(o, key, dflt, &v, &e)) return dflt;
    return v;
}

static bool cfg_bool2(const WOptions *o, const char *k1, const char *k2, bool dflt)
{
    const char *v = wopts_get(o, k1);
    if (!v && k2) v = wopts_get(o, k2);
    if (!v) return dflt;
    return strcasecmp(v, "true") == 0;
}

/* The state backend's name as StateBackend.getName() reports it (its simple class name). */
static const char *backend_name(const WOptions *o)
{
    const char *v = wopts_get(o, "state.backend.type");
    if (!v) v = wopts_get(o, "state.backend");
    if (!v || !*v) return "HashMapStateBackend";
    if (!strcasecmp(v, "hashmap")) return "HashMapStateBackend";
    if (!strcasecmp(v, "rocksdb")) return "EmbeddedRocksDBStateBackend";
    if (!strcasecmp(v, "forst")) return "ForStStateBackend";
    if (!strcasecmp(v, "jobmanager")) return "MemoryStateBackend";
    if (!strcasecmp(v, "filesystem")) return "FsStateBackend";
    if (strstr(v, "RocksDB")) return "EmbeddedRocksDBStateBackend";
    if (strstr(v, "HashMap")) return "HashMapStateBackend";
    return v;
}

static const char *storage_name(const WOptions *o)
{
    const char *v = wopts_get(o, "execution.checkpointing.storage");
    if (!v) v = wopts_get(o, "state.checkpoint-storage");
    if (v && !strcasecmp(v, "jobmanager")) return "JobManagerCheckpointStorage";
    if (v && !strcasecmp(v, "filesystem")) return "FileSystemCheckpointStorage";
    if (wopts_get(o, "execution.checkpointing.dir") || wopts_get(o, "state.checkpoints.dir"))
        return "FileSystemCheckpointStorage";
    return "JobManagerCheckpointStorage";
}

static json_t *checkpoint_config(const WRegJob *j)
{
    const WOptions *o = &j->config;
    const char *mode = wopts_get_or(o, "execution.checkpointing.mode", "EXACTLY_ONCE");
    bool at_least = !strcasecmp(mode, "AT_LEAST_ONCE");
    int64_t interval = cfg_duration(o, "execution.checkpointing.interval", INT64_MAX);
    if (interval <= 0) interval = INT64_MAX;
    if (interval == INT64_MAX) at_least = true;     /* Flink 2.3: no checkpoints, no alignment */
    const char *ret = wopts_get(o, "execution.checkpointing.externalized-checkpoint-retention");
    if (!ret) ret = wopts_get(o, "execution.checkpointing.externalized-checkpoint-retention.type");
    bool ext = ret && strcasecmp(ret, "NO_EXTERNALIZED_CHECKPOINTS") != 0;
    bool delete_on_cancel = !ret || strcasecmp(ret, "RETAIN_ON_CANCELLATION") != 0;
    return json_pack(
        "{s:s, s:I, s:I, s:I, s:I, s:{s:b, s:b}, s:s, s:s, s:b, s:I, s:I, s:b, s:b, s:I, s:s}", "mode",
        at_least ? "at_least_once" : "exactly_once", "interval", (json_int_t)interval, "timeout",
        (json_int_t)cfg_duration(o, "execution.checkpointing.timeout", 600000), "min_pause",
        (json_int_t)cfg_duration(o, "execution.checkpointing.min-pause", 0), "max_concurrent",
        (json_int_t)cfg_long(o, "execution.checkpointing.max-concurrent-checkpoints", 1), "externalization",
        "enabled", ext, "delete_on_cancellation", delete_on_cancel, "state_backend", backend_name(o),
        "checkpoint_storage", storage_name(o), "unaligned_checkpoints",
        cfg_bool2(o, "execution.checkpointing.unaligned.enabled", "execution.checkpointing.unaligned", false),
        "tolerable_failed_checkpoints", (json_int_t)cfg_long(o, "execution.checkpointing.tolerable-failed-checkpoints", 0),
        "aligned_checkpoint_timeout", (json_int_t)cfg_duration(o, "execution.checkpointing.aligned-checkpoint-timeout", 0),
        "checkpoints_after_tasks_finish",
        cfg_bool2(o, "execution.checkpointing.checkpoints-after-tasks-finish",
                  "execution.checkpointing.checkpoints-after-tasks-finish.enabled", true),
        "state_changelog_enabled", cfg_bool2(o, "state.changelog.enabled", "state.backend.changelog.enabled", false),
        "changelog_periodic_materialization_interval",
        (json_int_t)cfg_duration(o, "state.changelog.periodic-materialize.interval", 600000), "changelog_storage",
        wopts_get_or(o, "state.changelog.storage", "memory"));
}

/* ------------------------------------------------------------------ triggers (savepoints etc.) */

static void add_trigger(WRest *r, const char *job, const char *kind, char out[33], int64_t req, const char *failure,
                        const char *failure_class)
{
    wregistry_new_id(r->reg, out);
    wregistry_lock(r->reg);
    int slot = r->ntriggers < 64 ? r->ntriggers++ : 0;
    if (r->ntriggers == 64) {
        int64_t oldest = INT64_MAX;
        for (int i = 0; i < 64; i++) if (r->triggers[i].ts < oldest) { oldest = r->triggers[i].ts; slot = i; }
    }
    WTrigger *t = &r->triggers[slot];
    snprintf(t->job, sizeof t->job, "%s", job);
    snprintf(t->id, sizeof t->id, "%s", out);
    t->kind = kind;
    t->ts = wregistry_now();
    t->req = req;
    snprintf(t->failure, sizeof t->failure, "%s", failure ? failure : "");
    t->failure_class = failure_class;
    wregistry_unlock(r->reg);
}

static int trigger_status(WRest *r, const char *job, const char *kind, const char *id, json_t **out)
{
    wregistry_lock(r->reg);
    const WTrigger *t = NULL;
    for (int i = 0; i < r->ntriggers; i++)
        if (!strcmp(r->triggers[i].job, job) && !strcmp(r->triggers[i].id, id) &&
            (!strcmp(r->triggers[i].kind, kind) || (!strcmp(kind, "savepoint") && !strcmp(r->triggers[i].kind, "stop"))))
            t = &r->triggers[i];
    const char *tk = t ? t->kind : NULL;
    int64_t req = t ? t->req : 0;
    char refused[256] = "";
    const char *cls = t && t->failure_class ? t->failure_class : "org.apache.flink.runtime.checkpoint.CheckpointException";
    if (t) snprintf(refused, sizeof refused, "%s", t->failure);
    wregistry_unlock(r->reg);
    if (!t) {
        *out = wrest_error("There is no %s operation with trigger id %s for job %s.", kind, id, job);
        return 404;
    }
    if (strcmp(tk, "checkpoint") != 0) {
        WCkptRequest q;
        memset(&q, 0, sizeof q);
        if (req > 0 && wregistry_savepoint_status(r->reg, job, req, &q) && q.state == WCKPT_REQ_PENDING) {
            *out = json_pack("{s:{s:s}}", "status", "id", "IN_PROGRESS");
            return 200;
        }
        if (req > 0 && q.state == WCKPT_REQ_COMPLETED && q.path[0]) {
            char loc[600];
            snprintf(loc, sizeof loc, "file:%s", q.path);
            *out = json_pack("{s:{s:s}, s:{s:s}}", "status", "id", "COMPLETED", "operation", "location", loc);
            return 200;
        }
        const char *why = req > 0 ? (q.failure[0] ? q.failure : "The savepoint was not taken: the job ended.")
                                  : (refused[0] ? refused : "The job is not running.");
        char trace[400];
        snprintf(trace, sizeof trace, "%s: %s\n", cls, why);
        *out = json_pack("{s:{s:s}, s:{s:{s:s, s:s, s:s}}}", "status", "id", "COMPLETED", "operation", "failure-cause",
                         "class", cls, "stack-trace", trace, "serialized-throwable", "");
        return 200;
    }
    char msg[300];
    snprintf(msg, sizeof msg, "weir cannot take %ss yet (%s of job %s).", !strcmp(tk, "checkpoint") ? "checkpoint" : "savepoint",
             !strcmp(tk, "stop") ? "stop-with-savepoint" : tk, job);
    char trace[400];
    snprintf(trace, sizeof trace, "java.lang.UnsupportedOperationException: %s\n", msg);
    *out = json_pack("{s:{s:s}, s:{s:{s:s, s:s, s:s}}}", "status", "id", "COMPLETED", "operation", "failure-cause",
                     "class", "java.lang.UnsupportedOperationException", "stack-trace", trace,
                     "serialized-throwable", "");
    return 200;
}

/* ------------------------------------------------------------------ /jobs */

int wrest_jobs(WRest *r, const char *method, char **seg, int nseg, const char *query, const char *body,
               size_t body_len, json_t **out)
{
    bool get = !strcmp(method, "GET"), post = !strcmp(method, "POST"), patch = !strcmp(method, "PATCH");
    int64_t now = wregistry_now();
    if (nseg == 1) {
        if (!get) goto bad_method;
        json_t *a = json_array();
        wregistry_lock(r->reg);
        for (int i = 0; i < r->reg->n; i++)
            json_array_append_new(a, json_pack("{s:s, s:s}", "id", r->reg->jobs[i]->id, "status",
                                               wjob_state_name(r->reg->jobs[i]->state)));
        wregistry_unlock(r->reg);
        *out = json_pack("{s:o}", "jobs", a);
        return 200;
    }
    if (nseg == 2 && !strcmp(seg[1], "overview")) {
        if (!get) goto bad_method;
        json_t *a = json_array();
        wregistry_lock(r->reg);
        for (int i = r->reg->n - 1; i >= 0; i--) json_array_append_new(a, job_overview_entry(r->reg->jobs[i], now));
        wregistry_unlock(r->reg);
        *out = json_pack("{s:o}", "jobs", a);
        return 200;
    }
    const char *jid = seg[1];
    if (!valid_jid(jid)) {
        *out = wrest_error("Bad request, could not parse parameters: Cannot resolve path parameter (jobid) from "
                           "value \"%.64s\".", jid);
        return 400;
    }
    char lowid[33];
    for (int i = 0; i < 33; i++) lowid[i] = (char)tolower((unsigned char)jid[i]);
    jid = lowid;
    const char *sub = nseg >= 3 ? seg[2] : NULL;

    /* PATCH /jobs/:jid?mode=cancel */
    if (nseg == 2 && patch) {
        char mode[32];
        const char *m = wrest_query(query, "mode", mode, sizeof mode);
        if (m && strcmp(m, "cancel") != 0) {
            *out = wrest_error("Bad request, could not parse parameters: Value '%s' of query parameter 'mode' is "
                               "not valid: only 'cancel' is supported.", m);
            return 400;
        }
        int rc = wregistry_cancel(r->reg, jid);
        if (rc < 0) {
            *out = wrest_error("org.apache.flink.runtime.rest.NotFoundException: Job %s not found", jid);
            return 404;
        }
        if (rc > 0) {
            wregistry_lock(r->reg);
            WRegJob *j = wregistry_find(r->reg, jid);
            const char *st = j ? wjob_state_name(j->state) : "UNKNOWN";
            wregistry_unlock(r->reg);
            if (!strcmp(st, "CANCELLING")) {
                *out = json_object();
                return 202;
            }
            *out = wrest_error("Job cancellation failed: Job %s was not canceled, but instead %s.", jid, st);
            return 409;
        }
        *out = json_object();
        return 202;
    }

    /* triggers that need no entry lookup under the lock for long */
    wregistry_lock(r->reg);
    WRegJob *j = wregistry_find(r->reg, jid);
    if (!j && nseg == 3 && post && (!strcmp(sub, "savepoints") || !strcmp(sub, "stop"))) {
        /* Flink accepts the trigger (202) and its status reports the missing job */
        wregistry_unlock(r->reg);
        char id[33], why[128];
        snprintf(why, sizeof why, "Could not find Flink job (%s)", jid);
        add_trigger(r, jid, !strcmp(sub, "stop") ? "stop" : "savepoint", id, 0, why,
                    "org.apache.flink.runtime.messages.FlinkJobNotFoundException");
        *out = json_pack("{s:s}", "request-id", id);
        return 202;
    }
    if (!j && nseg == 4 && get && !strcmp(sub, "savepoints")) {
        wregistry_unlock(r->reg);       /* the status of such a trigger */
        return trigger_status(r, jid, "savepoint", seg[3], out);
    }
    if (!j) {
        wregistry_unlock(r->reg);
        *out = wrest_error("org.apache.flink.runtime.rest.NotFoundException: Job %s not found", jid);
        return 404;
    }
    int status = 200;
    if (nseg == 2) {
        if (!get) { wregistry_unlock(r->reg); goto bad_method; }
        *out = job_details(j, now);
    } else if (nseg == 3 && !strcmp(sub, "status")) {
        if (!get) { wregistry_unlock(r->reg); goto bad_method; }
        *out = json_pack("{s:s}", "status", wjob_state_name(j->state));
    } else if (nseg == 3 && !strcmp(sub, "plan")) {
        if (!get) { wregistry_unlock(r->reg); goto bad_method; }
        *out = json_pack("{s:o}", "plan", plan_json(j));
    } else if (nseg == 3 && !strcmp(sub, "config")) {
        if (!get) { wregistry_unlock(r->reg); goto bad_method; }
        /* user-config is the job's global job parameters, which a SQL job does not set */
        *out = json_pack("{s:s, s:s, s:{s:s, s:I, s:b, s:{}}}", "jid", j->id, "name", j->name, "execution-config",
                         "restart-strategy", "Cluster level default restart strategy",
                         "job-parallelism", (json_int_t)cfg_long(&j->config, "parallelism.default", 1),
                         "object-reuse-mode", 0, "user-config");
    } else if (nseg == 3 && !strcmp(sub, "exceptions")) {
        if (!get) { wregistry_unlock(r->reg); goto bad_method; }
        char buf[32];
        const char *mx = wrest_query(query, "maxExceptions", buf, sizeof buf);
        if (mx) {
            char *end;
            long v = strtol(mx, &end, 10);
            if (*end || end == mx || v < 0) {
                wregistry_unlock(r->reg);
                *out = wrest_error("Bad request, could not parse parameters: Cannot resolve query parameter "
                                   "(maxExceptions) from value \"%s\".", mx);
                return 400;
            }
        }
        json_t *entries = json_array();
        if (j->failure)
            json_array_append_new(entries, json_pack("{s:s, s:s, s:I, s:n, s:n, s:n, s:{}, s:[]}", "exceptionName",
                                                     j->error.cls[0] ? j->error.cls : "org.apache.flink.runtime.JobException",
                                                     "stacktrace", j->failure, "timestamp", (json_int_t)j->failure_ms,
                                                     "taskName", "endpoint", "taskManagerId", "failureLabels",
                                                     "concurrentExceptions"));
        *out = json_pack("{s:{s:o, s:b}}", "exceptionHistory", "entries", entries, "truncated", 0);
    } else if (nseg == 3 && !strcmp(sub, "accumulators")) {
        if (!get) { wregistry_unlock(r->reg); goto bad_method; }
        *out = json_pack("{s:[], s:[], s:{}}", "job-accumulators", "user-task-accumulators",
                         "serialized-user-task-accumulators");
    } else if (nseg == 3 && !strcmp(sub, "execution-result")) {
        if (!get) { wregistry_unlock(r->reg); goto bad_method; }
        if (!wjob_state_terminal(j->state)) {
            *out = json_pack("{s:{s:s}}", "status", "id", "IN_PROGRESS");
        } else {
            const char *app = j->state == WJS_FINISHED ? "SUCCEEDED" : j->state == WJS_CANCELED ? "CANCELED" : "FAILED";
            json_t *res = json_pack("{s:s, s:s, s:s, s:{}, s:I, s:s, s:I, s:I}", "id", j->id, "name", j->name,
                                    "application-status", app, "accumulator-results", "net-runtime",
                                    (json_int_t)job_duration(j, now), "application-id", j->id, "start-time",
                                    (json_int_t)j->start_ms, "end-time", (json_int_t)job_end(j));
            if (j->failure)
                json_object_set_new(res, "failure-cause", json_pack("{s:s, s:s, s:s}", "class", j->error.cls,
                                                                    "stack-trace", j->failure, "serialized-throwable", ""));
            *out = json_pack("{s:{s:s}, s:o}", "status", "id", "COMPLETED", "job-execution-result", res);
        }
    } else if (nseg == 3 && !strcmp(sub, "checkpoints")) {
        if (get) {
            *out = wrest_checkpoints(j);
        } else if (post) {
            wregistry_unlock(r->reg);
            char id[33];
            add_trigger(r, jid, "checkpoint", id, 0, NULL, NULL);
            *out = json_pack("{s:s}", "request-id", id);
            return 202;
        } else {
            wregistry_unlock(r->reg);
            goto bad_method;
        }
    } else if (nseg == 4 && !strcmp(sub, "checkpoints") && !strcmp(seg[3], "config")) {
        if (!get) { wregistry_unlock(r->reg); goto bad_method; }
        *out = checkpoint_config(j);
    } else if (nseg == 4 && !strcmp(sub, "checkpoints")) {
        if (!get) { wregistry_unlock(r->reg); goto bad_method; }
        wregistry_unlock(r->reg);
        return trigger_status(r, jid, "checkpoint", seg[3], out);
    } else if (nseg == 5 && !strcmp(sub, "checkpoints") && !strcmp(seg[3], "details")) {
        if (!get) { wregistry_unlock(r->reg); goto bad_method; }
        status = wrest_checkpoint_details(j, seg[4], out);
    } else if ((nseg == 3 && !strcmp(sub, "savepoints")) || (nseg == 3 && !strcmp(sub, "stop"))) {
        /* the default directory of the job's effective configuration */
        char dflt[512] = "";
        const char *dd = wopts_get(&j->config, "execution.checkpointing.savepoint-dir");
        if (!dd || !*dd) dd = wopts_get(&j->config, "state.savepoints.dir");
        if (dd) snprintf(dflt, sizeof dflt, "%s", dd);
        wregistry_unlock(r->reg);
        if (!post) goto bad_method;
        bool is_stop = !strcmp(sub, "stop");
        const char *tkey = is_stop ? "targetDirectory" : "target-directory";
        char target[512] = "";
        bool cancel = false, drain = false;
        if (body_len) {
            json_error_t je;
            json_t *b = json_loadb(body, body_len, 0, &je);
            bool okb = b && json_is_object(b);
            if (okb) {
                json_t *td = json_object_get(b, tkey);
                if (json_is_string(td)) snprintf(target, sizeof target, "%s", json_string_value(td));
                cancel = json_is_true(json_object_get(b, "cancel-job"));
                drain = json_is_true(json_object_get(b, "drain"));
            }
            json_decref(b);
            if (!okb) {
                *out = wrest_error("Bad request: the request body is not a JSON object.");
                return 400;
            }
        }
        if (!target[0] && !dflt[0]) {
            *out = wrest_error("Config key [execution.checkpointing.savepoint-dir] is not set. Property [%s] must be provided.",
                               tkey);
            return 400;
        }
        WError e;
        werr_clear(&e);
        int64_t req = wregistry_savepoint(r->reg, jid, target[0] ? target : dflt, is_stop || cancel, is_stop && drain, &e);
        char refused[256] = "";
        if (req < 0) snprintf(refused, sizeof refused, "Job %s is not in state RUNNING.", jid);
        else if (req == 0) snprintf(refused, sizeof refused, "%s", e.msg);
        char id[33];
        add_trigger(r, jid, is_stop ? "stop" : "savepoint", id, req > 0 ? req : 0, refused, NULL);
        *out = json_pack("{s:s}", "request-id", id);
        return 202;
    } else if (nseg == 4 && !strcmp(sub, "savepoints")) {
        wregistry_unlock(r->reg);
        if (!get) goto bad_method;
        return trigger_status(r, jid, "savepoint", seg[3], out);
    } else if (nseg >= 4 && !strcmp(sub, "vertices")) {
        if (!get) { wregistry_unlock(r->reg); goto bad_method; }
        int v = -1;
        for (int i = 0; j->graph && i < j->graph->nvertices; i++) {
            char id[33];
            vertex_id(j, i, id);
            if (!strcasecmp(id, seg[3])) v = i;
        }
        if (v < 0) {
            bool hex = strlen(seg[3]) == 32 && strspn(seg[3], "0123456789abcdefABCDEF") == 32;
            *out = hex ? wrest_error("org.apache.flink.runtime.rest.NotFoundException: JobVertex %s not found", seg[3])
                       : wrest_error("Bad request, could not parse parameters: Cannot resolve path parameter "
                                     "(vertexid) from value \"%.64s\".", seg[3]);
            status = hex ? 404 : 400;
        } else if (nseg == 4) {
            const WJobVertex *vx = &j->graph->vertices[v];
            const char *st = vertex_state(j, v);
            json_t *subs = json_array();
            for (int s = 0; s < vx->parallelism; s++) {
                WRegVertexTimes times;      /* records and times (zero for a subtask weir does not run) */
                wregistry_vertex_times(j, v, s, now, &times);
                /* the states the subtask went through (Flink 2.3 lists them, not the final one) */
                json_t *sd = json_object();
                static const char *const PASSED[] = {"CREATED", "SCHEDULED", "DEPLOYING", "INITIALIZING"};
                for (int k = 0; k < 4; k++) json_object_set_new(sd, PASSED[k], json_integer(0));
                json_object_set_new(sd, "RUNNING", json_integer(job_duration(j, now)));
                char ep[128];
                snprintf(ep, sizeof ep, "%s:%d", r->host, r->port);
                json_array_append_new(
                    subs, json_pack("{s:i, s:s, s:i, s:s, s:I, s:I, s:I, s:o, s:s, s:o, s:I}", "subtask", s, "status",
                                    st, "attempt", 0, "endpoint", ep, "start-time", (json_int_t)j->start_ms,
                                    "end-time", (json_int_t)job_end(j), "duration", (json_int_t)job_duration(j, now),
                                    "metrics", metrics_json(times.read, times.write, wjob_state_terminal(j->state), &times), "taskmanager-id",
                                    r->tm_id, "status-duration", sd, "start_time", (json_int_t)j->start_ms));
            }
            char id[33];
            vertex_id(j, v, id);
            *out = json_pack("{s:s, s:s, s:i, s:i, s:I, s:o, s:o}", "id", id, "name", vx->name, "parallelism",
                             vx->parallelism, "maxParallelism", vx->max_parallelism, "now", (json_int_t)now,
                             "subtasks", subs, "aggregated", aggregated_json(subs));
        } else if ((nseg == 5 && !strcmp(seg[4], "metrics")) ||
                   (nseg == 6 && !strcmp(seg[4], "subtasks") && !strcmp(seg[5], "metrics"))) {
            status = wrest_vertex_metrics(j, v, nseg == 6, query, out);
        } else if (nseg == 5 && !strcmp(seg[4], "backpressure")) {
            *out = backpressure_json(j, v, now);
        } else if (nseg == 5 && !strcmp(seg[4], "watermarks")) {
            const WJobVertex *vx = &j->graph->vertices[v];
            json_t *a = json_array();
            /* Flink 2.3 keeps no metrics of a finished task: the list is empty then */
            bool gone = !strcmp(vertex_state(j, v), "FINISHED") || wjob_state_terminal(j->state);
            for (int s = 0; s < (gone ? 0 : vx->parallelism); s++) {
                WOpStats st;
                wregistry_op_stats(j, vx->ops[0], s < j->nlanes ? s : -2, &st);
                char idb[32], val[32];
                snprintf(idb, sizeof idb, "%d.currentInputWatermark", s);
                snprintf(val, sizeof val, "%lld", (long long)st.watermark);
                json_array_append_new(a, json_pack("{s:s, s:s}", "id", idb, "value", val));
            }
            *out = a;
        } else {
            *out = NULL;
            status = 0;
        }
    } else {
        *out = NULL;
        status = 0;     /* not found */
    }
    wregistry_unlock(r->reg);
    return status;
bad_method:
    *out = wrest_error("Method %s is not allowed here.", method);
    return 405;
}

/* ------------------------------------------------------------------ /weir/jobs */

static int64_t state_ttl(const WStreamOp *so, const char *state)
{
    if (!strcmp(state, "leftState")) return so->ttl_left_ms;
    if (!strcmp(state, "rightState")) return so->ttl_right_ms;
    return so->ttl_ms;
}

static json_t *state_view(const WRegJob *j)
{
    json_t *ops = json_array();
    for (int k = 0; j->graph && k < j->graph->nops; k++) {
        const WStreamOp *so = &j->graph->ops[k];
        if (so->role != WSOP_OPERATOR) continue;
        WOpStats st;
        wregistry_op_stats(j, k, -1, &st);
        if (st.nstates == 0 && !st.metrics[0]) continue;    /* (a lookup join: cache metrics only) */
        json_t *states = json_array();
        int64_t entries = 0, bytes = 0;
        for (int i = 0; i < st.nstates; i++) {
            char ttl[64];
            int64_t t = state_ttl(so, st.states[i].name);
            wduration_format(t, ttl, sizeof ttl);
            entries += st.states[i].entries;
            bytes += st.states[i].bytes;
            json_array_append_new(states, json_pack("{s:s, s:s, s:I, s:I, s:I}", "name", st.states[i].name, "ttl", ttl,
                                                    "ttl_ms", (json_int_t)t, "entries",
                                                    (json_int_t)st.states[i].entries, "bytes",
                                                    (json_int_t)st.states[i].bytes));
        }
        char vid[33];
        wjobgraph_vertex_id(j->id, so->vertex, vid);
        json_array_append_new(
            ops, json_pack("{s:s, s:i, s:s, s:s, s:o, s:I, s:I, s:I, s:I, s:s}", "operator", so->name, "exec_node_id",
                           so->rel_id, "vertex_id", vid, "vertex", j->graph->vertices[so->vertex].name, "states",
                           states, "entries", (json_int_t)entries, "bytes", (json_int_t)bytes, "ttl_expired_records",
                           (json_int_t)st.ttl_expired, "rows_in", (json_int_t)st.rows_in, "other_metrics",
                           st.metrics));
    }
    return json_pack("{s:s, s:s, s:s, s:s, s:o}", "jid", j->id, "name", j->name, "state", wjob_state_name(j->state),
                     "state_backend", backend_name(&j->config), "operators", ops);
}

static void thread_info(pid_t tid, json_t *into)
{
    char path[128], stat[1024] = "", comm[64] = "", wchan[64] = "";
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)tid);
    FILE *f = fopen(path, "r");
    if (!f) return;
    if (!fgets(stat, sizeof stat, f)) stat[0] = 0;
    fclose(f);
    snprintf(path, sizeof path, "/proc/self/task/%d/comm", (int)tid);
    if ((f = fopen(path, "r"))) {
        if (!fgets(comm, sizeof comm, f)) comm[0] = 0;
        fclose(f);
    }
    comm[strcspn(comm, "\n")] = 0;
    snprintf(path, sizeof path, "/proc/self/task/%d/wchan", (int)tid);
    if ((f = fopen(path, "r"))) {
        if (!fgets(wchan, sizeof wchan, f)) wchan[0] = 0;
        fclose(f);
    }
    char st = '?';
    unsigned long long ut = 0, stt = 0;
    char *rp = strrchr(stat, ')');
    if (rp && rp[1]) {
        st = rp[2];
        char *p = rp + 3;
        for (int k = 0; k < 11 && p; k++) {
            p = strchr(p, ' ');
            if (p) p++;
        }
        if (p) sscanf(p, "%llu %llu", &ut, &stt);
    }
    long hz = sysconf(_SC_CLK_TCK);
    if (hz <= 0) hz = 100;
    const char *state = st == 'R' ? "RUNNABLE" : st == 'S' ? "WAITING" : st == 'D' ? "BLOCKED" : "OTHER";
    json_object_set_new(into, "thread", json_pack("{s:i, s:s, s:s, s:I, s:s}", "tid", (int)tid, "name", comm, "state",
                                                  state, "cpu_ms", (json_int_t)((ut + stt) * 1000 / (unsigned long long)hz),
                                                  "waiting_in", strcmp(wchan, "0") ? wchan : ""));
}

static json_t *tasks_view(const WRegJob *j, int64_t now)
{
    json_t *ops = json_array();
    int busiest = -1;
    int64_t newest = -1, oldest_running = INT64_MAX;
    for (int k = 0; j->graph && k < j->graph->nops; k++) {
        const WStreamOp *so = &j->graph->ops[k];
        WOpStats st;
        wregistry_op_stats(j, k, -1, &st);
        int64_t idle = j->last_change ? now - j->last_change[k] : 0;
        if (j->job && j->last_change && !st.finished) {
            if (j->last_change[k] > newest) { newest = j->last_change[k]; busiest = k; }
            if (j->last_change[k] < oldest_running) oldest_running = j->last_change[k];
        }
        json_t *o = json_pack("{s:s, s:s, s:I, s:I, s:b, s:I}", "operator", so->name, "vertex",
                              j->graph->vertices[so->vertex].name, "rows_in", (json_int_t)st.rows_in, "rows_out",
                              (json_int_t)st.rows_out, "finished", st.finished, "idle_ms", (json_int_t)idle);
        if (st.watermark != INT64_MIN) json_object_set_new(o, "watermark", json_integer(st.watermark));
        else json_object_set_new(o, "watermark", json_null());
        json_array_append_new(ops, o);
    }
    json_t *v = json_pack("{s:s, s:s, s:s, s:I, s:i, s:o}", "jid", j->id, "name", j->name, "state",
                          wjob_state_name(j->state), "now", (json_int_t)now, "subtasks", j->nlanes, "operators", ops);
    if (j->tid) thread_info(j->tid, v);
    /* a one-line reading for a person looking at a stuck job */
    char hint[600];
    if (!j->job) {
        snprintf(hint, sizeof hint, "The job is %s; nothing is running.", wjob_state_name(j->state));
    } else if (busiest < 0) {
        snprintf(hint, sizeof hint, "Every operator has finished; the job is completing.");
    } else {
        int64_t quiet = now - newest;
        json_t *th = json_object_get(v, "thread");
        const char *ts = th ? json_string_value(json_object_get(th, "state")) : NULL;
        if (quiet < 3000)
            snprintf(hint, sizeof hint, "Records are flowing; the last progress was at %s %lld ms ago.",
                     j->graph->ops[busiest].name, (long long)quiet);
        else if (ts && !strcmp(ts, "RUNNABLE"))
            snprintf(hint, sizeof hint, "No operator counter moved for %lld s while the job thread is busy (RUNNABLE): "
                     "a record is taking long in or after %s, the operator that moved last.",
                     (long long)(quiet / 1000), j->graph->ops[busiest].name);
        else
            snprintf(hint, sizeof hint, "No operator counter moved for %lld s and the job thread is %s: the sources "
                     "are waiting for input (or the job waits for its client to fetch results).",
                     (long long)(quiet / 1000), ts ? ts : "not running");
    }
    json_object_set_new(v, "summary", json_string(hint));
    return v;
}

static json_t *history_view(const WRegJob *j)
{
    json_t *a = json_array();
    for (int i = 0; i < j->nhist; i++) {
        const WRegSample *s = &j->hist[(j->hist_start + i) % WREG_HISTORY];
        json_array_append_new(a, json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "t", (json_int_t)s->t, "rows_in",
                                           (json_int_t)s->rows_in, "rows_out", (json_int_t)s->rows_out, "source_out",
                                           (json_int_t)s->source_out, "sink_in", (json_int_t)s->sink_in,
                                           "state_bytes", (json_int_t)s->state_bytes, "state_entries",
                                           (json_int_t)s->state_entries));
    }
    return json_pack("{s:s, s:i, s:o}", "jid", j->id, "interval_ms", 1000, "samples", a);
}

int wrest_weir(WRest *r, const char *method, char **seg, int nseg, const char *query, json_t **out)
{
    (void)query;
    /* seg[0] == "weir" */
    if ((nseg != 4 && !(nseg == 6 && !strcmp(seg[3], "vertices"))) || strcmp(seg[1], "jobs") != 0) return 0;
    if (strcmp(method, "GET") != 0) {
        *out = wrest_error("Method %s is not allowed here.", method);
        return 405;
    }
    if (!valid_jid(seg[2])) {
        *out = wrest_error("Bad request, could not parse parameters: Cannot resolve path parameter (jobid) from "
                           "value \"%.64s\".", seg[2]);
        return 400;
    }
    char jid[33];
    for (int i = 0; i < 33; i++) jid[i] = (char)tolower((unsigned char)seg[2][i]);
    int64_t now = wregistry_now();
    wregistry_lock(r->reg);
    WRegJob *j = wregistry_find(r->reg, jid);
    int status = 200;
    if (!j) {
        *out = wrest_error("org.apache.flink.runtime.rest.NotFoundException: Job %s not found", jid);
        status = 404;
    } else if (nseg == 6) {
        int v = -1;
        for (int i = 0; j->graph && i < j->graph->nvertices; i++) {
            char id[33];
            vertex_id(j, i, id);
            if (!strcasecmp(id, seg[4])) v = i;
        }
        if (v < 0) {
            *out = wrest_error("org.apache.flink.runtime.rest.NotFoundException: JobVertex %.64s not found", seg[4]);
            status = 404;
        } else {
            status = wrest_insight(j, v, seg[5], out);
        }
    } else if (!strcmp(seg[3], "state")) {
        *out = state_view(j);
    } else if (!strcmp(seg[3], "tasks")) {
        *out = tasks_view(j, now);
    } else if (!strcmp(seg[3], "history")) {
        *out = history_view(j);
    } else {
        status = 0;
    }
    wregistry_unlock(r->reg);
    return status;
}

void wrest_init(WRest *r, WRegistry *reg, const WClusterConfig *cfg, const char *host, int port)
{
    memset(r, 0, sizeof *r);
    r->reg = reg;
    r->cfg = cfg;
    r->host = host;
    r->port = port;
    char rnd[33];
    wregistry_new_id(reg, rnd);
    snprintf(r->tm_id, sizeof r->tm_id, "%s:%d-%.6s", host, port, rnd);
}

int wrest_handle(WRest *r, const char *method, const char *path, const char *query, const char *body,
                 size_t body_len, json_t **out)
{
    *out = NULL;
    WRestPath rp;
    int nseg = wrest_path_split(&rp, path, WREST_PATH_SEGMENTS);
    if (nseg < 0) {
        *out = wrest_error("Not found: %.200s", path);
        return 404;
    }
    char **seg = rp.seg;
    /* Flink's REST paths may carry the API version prefix /v1 (stripped by the server) */
    int status = 0;
    if (nseg >= 1 && !strcmp(seg[0], "jobs")) status = wrest_jobs(r, method, seg, nseg, query, body, body_len, out);
    else if (nseg >= 1 && !strcmp(seg[0], "weir")) status = wrest_weir(r, method, seg, nseg, query, out);
    else if (nseg >= 1) status = wrest_cluster(r, method, seg, nseg, query, out);
    if (status == 0) {
        json_decref(*out);
        *out = wrest_error("Not found: %.200s", path);
        status = 404;
    }
    return status;
}
