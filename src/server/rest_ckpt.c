/*
 * rest_ckpt.c — checkpoint statistics over REST (see rest.h): GET /jobs/:jid/checkpoints (Flink's
 * CheckpointingStatistics: counts, summary, latest, history) and /jobs/:jid/checkpoints/details/:cid
 * (one CheckpointStatistics), built from the runtime's figures (runtime/checkpoint.h WCkptStats,
 * read through wregistry_ckpt_stats: live while the job runs, the kept copy afterwards).
 * Called with the registry locked; reads the restored checkpoint's _metadata (a small text file)
 * for the "restored" entry. weir has no unaligned checkpoints: alignment_buffered, processed_data
 * and persisted_data are 0, and per-task figures (tasks{}) are not kept.
 * Depends on server/registry, runtime/checkpoint (WCkptStats), common/, jansson.
 */
#include "rest.h"
#include "../common/sort.h"
#include "../common/arena.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

double wrest_percentile(const int64_t *sorted, int n, double p)
{
    if (n <= 0) return 0.0;
    if (n == 1) return (double)sorted[0];
    /* Apache Commons Math Percentile (LEGACY estimation), as Flink's histogram statistics */
    double pos = p * (double)(n + 1);
    if (pos < 1) return (double)sorted[0];
    if (pos >= n) return (double)sorted[n - 1];
    int ip = (int)pos;
    double dif = pos - (double)ip;
    double lower = (double)sorted[ip - 1], upper = (double)sorted[ip];
    return lower + dif * (upper - lower);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* StatsSummaryDto of n values (sorted here). */
static json_t *summary(int64_t *v, int n)
{
    if (n == 0)     /* Flink 2.3: no completed checkpoint, no percentiles ("NaN") */
        return json_pack("{s:i, s:i, s:i, s:s, s:s, s:s, s:s, s:s}", "min", 0, "max", 0, "avg", 0, "p50", "NaN", "p90",
                         "NaN", "p95", "NaN", "p99", "NaN", "p999", "NaN");
    wqsort(v, (size_t)n, sizeof *v, cmp_i64);
    int64_t sum = 0;
    for (int i = 0; i < n; i++) sum += v[i];
    return json_pack("{s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f}", "min", (json_int_t)v[0], "max", (json_int_t)v[n - 1],
                     "avg", (json_int_t)(sum / n), "p50", wrest_percentile(v, n, 0.5), "p90",
                     wrest_percentile(v, n, 0.9), "p95", wrest_percentile(v, n, 0.95), "p99",
                     wrest_percentile(v, n, 0.99), "p999", wrest_percentile(v, n, 0.999));
}

/* Subtasks of the job: every vertex's parallelism summed. */
static int job_subtasks(const WRegJob *j)
{
    if (!j->graph) return j->nlanes > 0 ? j->nlanes : 1;
    int n = 0;
    for (int v = 0; v < j->graph->nvertices; v++) n += j->graph->vertices[v].parallelism;
    return n > 0 ? n : 1;
}

static bool has_dir(const WRegJob *j)
{
    const char *d = wopts_get(&j->config, "execution.checkpointing.dir");
    if (!d) d = wopts_get(&j->config, "state.checkpoints.dir");
    return d && *d;
}

static json_t *external_path(const char *path)
{
    char buf[600];
    snprintf(buf, sizeof buf, "%s%s", path[0] == '/' ? "file:" : "", path);
    return json_string(buf);
}

/* One CheckpointStatistics (Flink's "completed" / "failed" subtypes). */
static json_t *ckpt_json(const WRegJob *j, const WCkptStats *st)
{
    int nsub = job_subtasks(j);
    int64_t ack = st->trigger_ms + st->duration_ms;
    json_t *o = json_pack("{s:s, s:I, s:s, s:b, s:o, s:I, s:I, s:I, s:I, s:I, s:i, s:i, s:i, s:i, s:i, s:s, s:{}}",
                          "@class", st->completed ? "completed" : "failed", "id", (json_int_t)st->id, "status",
                          st->completed ? "COMPLETED" : "FAILED", "is_savepoint", st->savepoint, "savepointFormat",
                          st->savepoint ? json_string("CANONICAL") : json_null(), "trigger_timestamp",
                          (json_int_t)st->trigger_ms, "latest_ack_timestamp", (json_int_t)(st->completed ? ack : -1),
                          "checkpointed_size", (json_int_t)(st->completed ? st->incremental_bytes : 0), "state_size",
                          (json_int_t)(st->completed ? st->full_bytes : 0), "end_to_end_duration",
                          (json_int_t)st->duration_ms, "alignment_buffered", 0, "processed_data", 0,
                          "persisted_data", 0, "num_subtasks", nsub, "num_acknowledged_subtasks",
                          st->completed ? nsub : 0, "checkpoint_type", st->savepoint ? "SAVEPOINT" : "CHECKPOINT",
                          "tasks");
    if (st->completed) {
        bool addressable = st->savepoint || has_dir(j);
        char meta[600];
        snprintf(meta, sizeof meta, "%s/_metadata", st->path);
        json_object_set_new(o, "external_path",
                            addressable ? external_path(st->path) : json_string("<checkpoint-not-externally-addressable>"));
        json_object_set_new(o, "discarded", json_boolean(access(meta, F_OK) != 0));
    } else {
        json_object_set_new(o, "failure_timestamp", json_integer(ack));
        json_object_set_new(o, "failure_message", st->failure[0] ? json_string(st->failure) : json_null());
    }
    return o;
}

/* RestoredCheckpointStatistics of execution.savepoint.path (null when the job was not restored). */
static json_t *restored_json(const WRegJob *j)
{
    const char *p = wopts_get(&j->config, "execution.savepoint.path");
    if (!p || !*p) return json_null();
    char dir[600];
    snprintf(dir, sizeof dir, "%s", !strncmp(p, "file://", 7) ? p + 7 : !strncmp(p, "file:", 5) ? p + 5 : p);
    size_t l = strlen(dir);
    while (l > 1 && dir[l - 1] == '/') dir[--l] = 0;
    if (l > 10 && !strcmp(dir + l - 10, "/_metadata")) dir[l - 10] = 0;
    long long id = 0;
    bool savepoint = false;
    char path[640];
    snprintf(path, sizeof path, "%s/_metadata", dir);
    FILE *f = fopen(path, "rb");
    if (f) {
        char buf[4096];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = 0;
        for (size_t i = 0; i < n; i++) if (!buf[i]) buf[i] = '\n';
        const char *c = strstr(buf, "\ncheckpoint ");
        if (c) sscanf(c + 12, "%lld", &id);
        savepoint = strstr(buf, "\ntype SAVEPOINT") != NULL;
    }
    return json_pack("{s:I, s:I, s:b, s:o}", "id", (json_int_t)id, "restore_timestamp", (json_int_t)j->start_ms,
                     "is_savepoint", savepoint, "external_path", external_path(dir));
}

json_t *wrest_checkpoints(const WRegJob *j)
{
    WCkptStats *st = NULL;
    int n = wregistry_ckpt_stats(j, &st);
    if (n < 0) n = 0;
    int completed = 0, failed = 0;
    int64_t *full = wmalloc(sizeof(int64_t) * (size_t)(n + 1)), *inc = wmalloc(sizeof(int64_t) * (size_t)(n + 1));
    int64_t *dur = wmalloc(sizeof(int64_t) * (size_t)(n + 1)), *zero = wcalloc((size_t)n + 1, sizeof(int64_t));
    const WCkptStats *last_ok = NULL, *last_sp = NULL, *last_fail = NULL;
    for (int i = 0; i < n; i++) {
        if (!st[i].completed) { failed++; last_fail = &st[i]; continue; }
        full[completed] = st[i].full_bytes;
        inc[completed] = st[i].incremental_bytes;
        dur[completed] = st[i].duration_ms;
        completed++;
        if (st[i].savepoint) last_sp = &st[i];
        else last_ok = &st[i];
    }
    WError e;
    werr_clear(&e);
    int64_t keep = 10;
    if (!wopts_get_long(&j->config, "web.checkpoints.history", 10, &keep, &e) || keep < 0) keep = 10;
    json_t *hist = json_array();
    for (int i = n - 1; i >= 0 && (int64_t)json_array_size(hist) < keep; i--) json_array_append_new(hist, ckpt_json(j, &st[i]));
    json_t *restored = restored_json(j);
    json_t *out = json_pack(
        "{s:{s:i, s:i, s:i, s:i, s:i}, s:{s:o, s:o, s:o, s:o, s:o, s:o}, s:{s:o, s:o, s:o, s:o}, s:o}", "counts",
        "restored", json_is_null(restored) ? 0 : 1, "total", n, "in_progress", 0, "completed", completed, "failed",
        failed, "summary", "checkpointed_size", summary(inc, completed), "state_size", summary(full, completed),
        "end_to_end_duration", summary(dur, completed), "alignment_buffered", summary(zero, completed),
        "processed_data", summary(zero, completed), "persisted_data", summary(zero, completed), "latest",
        "completed", last_ok ? ckpt_json(j, last_ok) : json_null(), "savepoint",
        last_sp ? ckpt_json(j, last_sp) : json_null(), "failed", last_fail ? ckpt_json(j, last_fail) : json_null(),
        "restored", restored, "history", hist);
    free(full);
    free(inc);
    free(dur);
    free(zero);
    free(st);
    return out;
}

int wrest_checkpoint_details(const WRegJob *j, const char *cid, json_t **out)
{
    char *end = NULL;
    errno = 0;
    long long id = strtoll(cid, &end, 10);
    if (!*cid || *end || errno || !(isdigit((unsigned char)cid[0]) || cid[0] == '-')) {
        *out = wrest_error("Bad request, could not parse parameters: Cannot resolve path parameter (checkpointid) "
                           "from value \"%.64s\".", cid);
        return 400;
    }
    WCkptStats *st = NULL;
    int n = wregistry_ckpt_stats(j, &st);
    const WCkptStats *hit = NULL;
    for (int i = n - 1; i >= 0 && !hit; i--) if (st[i].id == id) hit = &st[i];
    int status = 200;
    if (hit) {
        *out = ckpt_json(j, hit);
    } else {
        *out = wrest_error("Could not find checkpointing statistics for checkpoint %lld.", id);
        status = 404;
    }
    free(st);
    return status;
}
