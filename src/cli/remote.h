/*
 * remote.h — the SQL client's remote mode (private to src/cli): statements run in a session of a
 * SQL gateway that speaks Flink's SQL Gateway REST protocol — a running weir cluster's
 * (server/flink_gateway.h) or, with `sql-client gateway --endpoint host:port`, Flink's own — and the
 * client prints what comes back exactly as Flink's sql-client does (messages.h, tableau.h,
 * result_view.h).
 *
 * Contract: the protocol is Flink's only: GET /v1/api_versions picks the newest version both
 * know (up to v4); POST /sessions {"properties": the -D options}; each statement is POST
 * .../statements, its result fetched page by page (GET .../result/:token?rowFormat=PLAIN_TEXT,
 * following nextResultUri; NOT_READY is polled), then DELETE .../operations/:oh/close; -i
 * statements go to POST .../configure-session. After a statement's first page the client reads
 * the session's configuration (GET /sessions/:sh: result mode, runtime mode, column width, time
 * cost, table.dml-sync) and prints: a query (isQueryResult) as the tableau (streaming with op
 * column, or batch), or the table/changelog view interactively; a statement with a jobID as
 * Flink's submission lines (or its completion under table.dml-sync); resultKind SUCCESS as
 * "Execute statement succeeded."; other results as a string table. A failed fetch (500) prints
 * the last "Caused by:" of the gateway's exception as the reason. Ctrl-C (or leaving the view)
 * cancels the operation. A thread sends POST .../heartbeat every 30 s while the session is open;
 * wremote_detach closes the session (DELETE /sessions/:sh).
 * wremote_attach looks for a running cluster (cluster.h; WEIR_EMBEDDED=1 disables the lookup):
 * NULL when none runs (the client stays embedded), *failed set when one runs but cannot be used
 * (after printing why). wremote_connect opens a session on an explicit gateway endpoint (NULL and
 * Flink's message on stderr when the endpoint is malformed or unreachable). Both open the session
 * with the client's -s identifier as its sessionName, as Flink's client does (NULL: none).
 * Also the small HTTP/1.1 client used for it (JSON bodies, Connection: close).
 * Depends on cli/client, cli/messages, cli/tableau, cli/result_view, cli/cluster,
 * server/flink_resultset (logical types), types/, jansson, pthreads.
 */
#ifndef WEIR_CLI_REMOTE_H
#define WEIR_CLI_REMOTE_H

#include <stdbool.h>
#include <jansson.h>
#include "client.h"

typedef struct WRemote WRemote;

WRemote *wremote_attach(WClient *c, const char *const *dyn, int ndyn, const char *session_name, bool *failed);
WRemote *wremote_connect(WClient *c, const char *endpoint, const char *const *dyn, int ndyn, const char *session_name);
void wremote_detach(WRemote *rm);

/* One HTTP request; *status gets the HTTP status (0 when no answer), *out the parsed JSON answer
   (NULL when none or not JSON). False with a message in err when the request could not be made. */
bool wremote_http(const char *host, int port, const char *method, const char *path, const json_t *body,
                  int timeout_ms, int *status, json_t **out, char *err, size_t errsz);

#endif
