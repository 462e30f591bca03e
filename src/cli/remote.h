/*
 * remote.h — the SQL client's remote mode (private to src/cli): with a weir cluster running,
 * statements run in a session of the cluster's SQL gateway (server/gateway.h) and the client
 * prints what comes back exactly as it prints local results (messages.h, tableau.h).
 *
 * Contract: wremote_attach looks for a running cluster (cluster.h; WEIR_EMBEDDED=1 disables the
 * lookup), opens a gateway session with the -D options as session properties, and hooks the
 * client (WClient.remote) so wcli_execute hands every statement to it. It returns NULL when no
 * cluster runs (the client stays embedded) and sets *failed when a cluster runs but cannot be used
 * (after printing why). While a statement runs, Ctrl-C cancels it on the cluster. INSERTs return
 * at once with Flink's submission lines and the cluster's job id (or wait under table.dml-sync),
 * queries stream their rows into the tableau. wremote_detach closes the session.
 * Also the small HTTP/1.1 client used for it (JSON bodies, Connection: close).
 * Depends on cli/client, cli/messages, cli/tableau, cli/cluster, types/, jansson.
 */
#ifndef WEIR_CLI_REMOTE_H
#define WEIR_CLI_REMOTE_H

#include <stdbool.h>
#include <jansson.h>
#include "client.h"

typedef struct WRemote WRemote;

WRemote *wremote_attach(WClient *c, const char *const *dyn, int ndyn, bool verbose, bool *failed);
void wremote_detach(WRemote *rm);

/* One HTTP request; *status gets the HTTP status (0 when no answer), *out the parsed JSON answer
   (NULL when none or not JSON). False with a message in err when the request could not be made. */
bool wremote_http(const char *host, int port, const char *method, const char *path, const json_t *body,
                  int timeout_ms, int *status, json_t **out, char *err, size_t errsz);

#endif
