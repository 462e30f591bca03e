/*
 * gateway.h — weir's SQL gateway: SQL client sessions run inside the cluster, modelled on Flink's
 * SQL Gateway REST API (v1): sessions, statements as operations, results fetched by token.
 *
 * Contract (paths below /v1; bodies and answers are JSON):
 *   POST   /sessions                                   {"properties":{k:v}} -> {"sessionHandle"}
 *   GET    /sessions/:sh                               -> {"properties":{...}}
 *   POST   /sessions/:sh/heartbeat                     -> {}
 *   DELETE /sessions/:sh                               -> {"status":"CLOSED"}
 *   POST   /sessions/:sh/statements                    {"statement":"..."} -> {"operationHandle"}
 *   GET    /sessions/:sh/operations/:oh/status         -> {"status":"RUNNING|FINISHED|ERROR|CANCELED"}
 *   POST   /sessions/:sh/operations/:oh/cancel         -> {"status":...}
 *   DELETE /sessions/:sh/operations/:oh/close          -> {"status":"CLOSED"}
 *   GET    /sessions/:sh/operations/:oh/result/:token  -> {"resultType":"PAYLOAD|NOT_READY|EOS",
 *          "events":[...], "nextToken":n, "nextResultUri":"..."}   (waits up to ?wait= ms, max 5000)
 * A session is a WSession whose background jobs go to the registry's executor (INSERT returns at
 * once with its job id) and whose own jobs (queries, dml-sync INSERTs) are observed by it. New
 * sessions start with the cluster configuration's job keys (parallelism., pipeline., state.,
 * execution., table., sql-client.) as if SET, then the given properties. Each statement runs in
 * its own thread, one at a time per session; it produces events in order:
 *   {"type":"submitted","jobId","sync"}  {"type":"open","columns":[...],"client":{...}}
 *   {"type":"rows","kinds":["+I",...],"data":[[cell|null,...],...]}  {"type":"close","ok"}
 *   {"type":"result","ok","result":{...}|"error":{...},"client":{...},"jobReport"}
 * Cells are rendered as the SQL client's tableau renders them (wfmt_sql in the session's time
 * zone). Unfetched rows are bounded: the query blocks until the client fetches (Flink's collect
 * sink does the same). SHOW JOBS and STOP JOB '<id>' [WITH SAVEPOINT] [WITH DRAIN] are answered
 * from the registry (STOP JOB without savepoint cancels, as Flink does; WITH SAVEPOINT stops the job
 * with a savepoint into execution.checkpointing.savepoint-dir and answers its `savepoint path`). Sessions idle for
 * weir.gateway.session-idle-timeout (default 30 min) are closed. Limits: 64 sessions, 32
 * operations per session. Depends on session/, server/registry, types/ (rendering), jansson.
 */
#ifndef WEIR_SERVER_GATEWAY_H
#define WEIR_SERVER_GATEWAY_H

#include <stdio.h>
#include <jansson.h>
#include "registry.h"

typedef struct WGateway WGateway;

WGateway *wgateway_new(WRegistry *reg, const WClusterConfig *cfg, FILE *print_out);
/* Make waiting result fetches return and refuse new sessions (before the HTTP server stops). */
void wgateway_shutdown_begin(WGateway *g);
/* Cancel running statements, wait for them, close every session. */
void wgateway_free(WGateway *g);

/* Handle a request under /v1 (path without the "/v1" prefix, query string separate). Returns the
   HTTP status and sets *out to the answer (an {"errors":[...]} object for 4xx/5xx). */
int wgateway_handle(WGateway *g, const char *method, const char *path, const char *query, const char *body,
                    size_t body_len, json_t **out);

/* Flink's SQL Gateway REST API (its own endpoint, sql-gateway.endpoint.rest.*), as Flink 2.3.0
   serves it: GET /api_versions, /info, /v{1..4}/info; under /v{1..4}/sessions: open (properties),
   GET (properties), DELETE, heartbeat, configure-session, statements {statement, executionConfig}
   -> operationHandle, operations/:oh/status|cancel|close, operations/:oh/result/:token?rowFormat=JSON|PLAIN_TEXT
   -> Flink's ResultSet (resultType NOT_READY/PAYLOAD/EOS, isQueryResult, jobID, resultKind,
   results{columns with serialized logical types, rowFormat, data [{kind, fields}]}, nextResultUri).
   Errors as Flink's: 500 with RestHandlerException text (unknown session / operation), a failed
   statement's fetch answers 500 with the server-side exception whose last "Caused by:" is the error.
   Unknown paths and methods 404 "Not found: <path>" (as Flink's router). */
int wgateway_flink_handle(WGateway *g, const char *method, const char *path, const char *query, const char *body,
                          size_t body_len, json_t **out);

/* Flink-style error body {"errors":[msg]}. */
json_t *wgateway_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
