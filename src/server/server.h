/*
 * server.h — the cluster daemon's HTTP servers: Flink's REST API and the dashboard page on the
 * REST port; weir's SQL gateway (Flink's SQL Gateway REST API, gateway.h) on its own endpoint
 * (sql-gateway.endpoint.rest.*, default port 8083).
 *
 * Contract: wserver_start binds rest.bind-address (default localhost) on the first free port of
 * rest.port (default 8081; 0 = any free port) and serves, with libmicrohttpd (a thread per
 * connection, at most 128 open connections, 30 s idle timeout; conn_guard.h accepts them: at the
 * limit the longest-idle connection is closed to make room, and when all are busy a new client
 * gets 503 at once, so idle connections never lock clients out):
 *   /  and /index.html        the dashboard (web/dashboard.html under `web_dir`, read once at start)
 *   everything else           the REST API (rest.h)
 * Safety: request bodies above 1 MiB get 413; methods other than GET/POST/PATCH/DELETE get 405;
 * on a loopback address the Host header must name a loopback host (DNS rebinding), and a request
 * carrying an Origin header must come from the server's own origin (cross-site requests get 403);
 * Every error is Flink's
 * {"errors":[...]} with a 4xx/5xx status; nothing is read or written on disk through the API.
 * The SQL gateway (which runs SQL with the daemon's rights, like Flink's) is enabled by default only
 * on a loopback address; `weir.gateway.enabled: true|false` overrides that.
 * wserver_stop stops accepting, ends waiting requests, cancels running statements and jobs and
 * frees everything. Depends on server/ (registry, gateway, rest, cluster_config), session/,
 * libmicrohttpd, jansson.
 */
#ifndef WEIR_SERVER_SERVER_H
#define WEIR_SERVER_SERVER_H

#include <stdio.h>
#include "cluster_config.h"
#include "../common/error.h"

typedef struct WServer WServer;

/* cfg must outlive the server. print_out receives print-sink output (the daemon's .out file). */
WServer *wserver_start(const WClusterConfig *cfg, const char *web_dir, FILE *print_out, WError *err);
int wserver_port(const WServer *s);
/* Port of Flink's SQL gateway endpoint (sql-gateway.endpoint.rest.port, default 8083); 0 when the
   gateway is disabled. */
int wserver_gateway_port(const WServer *s);
/* The address clients should use (rest.address, or the bound host). */
const char *wserver_address(const WServer *s);
void wserver_stop(WServer *s);

#endif
