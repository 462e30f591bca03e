/*
 * gateway.h — weir's SQL gateway: SQL client sessions run inside the cluster, served with Flink's
 * SQL Gateway REST API on its own endpoint (sql-gateway.endpoint.rest.*, default port 8083) — the
 * one protocol for Flink's sql-client, Flink's JDBC driver and weir's own sql-client (cli/remote.h).
 *
 * Contract: a session is a WSession whose background jobs go to the registry's executor (INSERT
 * returns at once with its job id) and whose own jobs (queries, dml-sync INSERTs) are observed by
 * it. New sessions start with the cluster configuration's job keys (parallelism., pipeline.,
 * state., execution., table., sql-client.) as if SET, then the given properties. Each statement
 * runs in its own thread, one at a time per session; its result set is kept as pages of rows
 * (both row formats) until the client fetches them; unfetched rows are bounded (the query blocks
 * until the client fetches, as Flink's collect sink does). SHOW JOBS and STOP JOB '<id>' [WITH
 * SAVEPOINT] [WITH DRAIN] are answered from the registry (gateway_jobs.c). A statement's warning
 * (a SET of an option weir does not apply) goes to the daemon's log: Flink's protocol has no place
 * for it. Sessions idle for weir.gateway.session-idle-timeout (default 30 min) are closed.
 * Limits: 64 sessions, 32 operations per session. Files: gateway.c (sessions, operations),
 * gateway_jobs.c, flink_gateway.c (the REST protocol). Depends on session/, server/registry,
 * server/flink_resultset, jansson.
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
