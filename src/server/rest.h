/*
 * rest.h — Flink's REST API over the job registry (private to src/server).
 *
 * Contract: wrest_handle answers one request (method, path without query, decoded query string
 * "k=v&k2=v2", body) with an HTTP status and a JSON document; 4xx/5xx answers are Flink's
 * {"errors":[...]}. Read endpoints take the registry lock only while they copy what they need.
 * Paths (Flink's shapes, see ../shared/reference/flink-runtime.md §2):
 *   /config /overview /jobmanager/config /taskmanagers /taskmanagers/:tmid
 *   /taskmanagers/:tmid/thread-dump
 *   /jobs /jobs/overview /jobs/:jid (GET, PATCH ?mode=cancel) /jobs/:jid/status /jobs/:jid/plan
 *   /jobs/:jid/config /jobs/:jid/exceptions /jobs/:jid/accumulators /jobs/:jid/execution-result
 *   /jobs/:jid/checkpoints (GET, POST trigger) /jobs/:jid/checkpoints/config
 *   /jobs/:jid/checkpoints/details/:cid /jobs/:jid/vertices/:vid /jobs/:jid/vertices/:vid/watermarks
 *   /jobs/:jid/savepoints (POST) /jobs/:jid/savepoints/:triggerid /jobs/:jid/stop (POST)
 *   /jobs/:jid/checkpoints/:triggerid (trigger status)
 *   /jobs/:jid/vertices/:vid/metrics /jobs/:jid/vertices/:vid/subtasks/metrics (?get=a,b)
 * weir's additions, under /weir:
 *   /weir/jobs/:jid/state     per-operator state: name, TTL, entries, bytes, TTL-accuracy counter
 *   /weir/jobs/:jid/tasks     what each task is doing now (progress, idle time, threads)
 *   /weir/jobs/:jid/history   throughput and state-size samples (one a second, 5 minutes)
 * Depends on server/registry, server/cluster_config, runtime/vertices, runtime/checkpoint (figures), jansson.
 */
#ifndef WEIR_SERVER_REST_H
#define WEIR_SERVER_REST_H

#include <jansson.h>
#include "registry.h"

#include "flink_version.h"    /* WEIR_FLINK_VERSION, generated from FLINK_VERSION */

typedef struct WTrigger {
    char job[33];
    char id[33];
    const char *kind;           /* "savepoint", "stop", "checkpoint" */
    int64_t ts;
    int64_t req;                /* savepoint request of the job (wregistry_savepoint), 0 = none */
    char failure[256];          /* why it was refused when req is 0 */
    const char *failure_class;  /* the exception class of that failure (NULL: CheckpointException) */
} WTrigger;

typedef struct WRest {
    WRegistry *reg;
    const WClusterConfig *cfg;
    const char *host;           /* address clients use */
    int port;
    char tm_id[64];             /* the one task manager's id */
    int ntriggers;
    WTrigger triggers[64];      /* guarded by the registry lock; oldest replaced */
} WRest;

void wrest_init(WRest *r, WRegistry *reg, const WClusterConfig *cfg, const char *host, int port);
int wrest_handle(WRest *r, const char *method, const char *path, const char *query, const char *body,
                 size_t body_len, json_t **out);

/* helpers shared by the rest_*.c files */
json_t *wrest_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *wrest_query(const char *query, const char *key, char *buf, size_t n);  /* NULL if absent */
int wrest_cluster(WRest *r, const char *method, char **seg, int nseg, const char *query, json_t **out);
int wrest_jobs(WRest *r, const char *method, char **seg, int nseg, const char *query, const char *body,
               size_t body_len, json_t **out);
int wrest_weir(WRest *r, const char *method, char **seg, int nseg, const char *query, json_t **out);
/* (locked) GET /weir/jobs/:jid/vertices/:vid/<what> for vertex v (rest_insight.c): hot-keys,
   late-data, state-growth; 0 when `what` is none of them. */
int wrest_insight(const WRegJob *j, int v, const char *what, json_t **out);
/* (rest_ckpt.c, registry locked) GET /jobs/:jid/checkpoints, and .../checkpoints/details/:cid
   (400 when cid is not a number, 404 when no such checkpoint is known). */
json_t *wrest_checkpoints(const WRegJob *j);
int wrest_checkpoint_details(const WRegJob *j, const char *cid, json_t **out);
/* Percentile p (0..1] of n sorted values, as Flink's checkpoint summaries compute it. */
double wrest_percentile(const int64_t *sorted, int n, double p);
/* (rest_metrics.c, locked) GET /jobs/:jid/vertices/:vid/metrics (aggregated = false: per-subtask
   ids "<n>.<metric>") or .../subtasks/metrics (aggregated over the subtasks) of vertex v. */
int wrest_vertex_metrics(const WRegJob *j, int v, bool aggregated, const char *query, json_t **out);
/* (json_text.c) The answer text of j as Flink's Jackson writes it (doubles as Java's
   Double.toString); malloc'ed, NULL when out of memory. */
char *wrest_json_text(const json_t *j);
/* Slots a job uses (its largest vertex parallelism, at least 1). */
int wrest_job_slots(const WRegJob *j);

#endif
