/*
 * conn_guard.h — admission of HTTP connections: the accept loop in front of libmicrohttpd.
 *
 * Contract: the server runs a thread per connection, so the number of open connections is
 * bounded (`limit`). libmicrohttpd on its own stops accepting at its limit, and new clients then
 * wait in the listen backlog until an idle connection times out — a few idle sockets lock
 * everybody out. The guard accepts every connection itself and hands it to the daemon
 * (MHD_add_connection). When `limit` connections are open it closes the one that has been idle
 * longest (connected, no request in progress) to make room; when every connection is busy with a
 * request the new client gets an immediate `503 Service Unavailable` (Flink's {"errors":[...]})
 * and is closed. So idle floods never lock clients out, and an accepted client is always served.
 * The guard keeps a dup() of each socket it handed over, so that it can shut an idle one down
 * from its own thread without ever touching a descriptor number the daemon has closed and the
 * process reused; the dup is closed when the daemon reports the connection closed.
 * Callbacks: pass wconn_guard_notify as MHD_OPTION_NOTIFY_CONNECTION (cls = the guard) and call
 * wconn_guard_busy when a request starts and ends. Depends on libmicrohttpd, pthreads.
 */
#ifndef WEIR_SERVER_CONN_GUARD_H
#define WEIR_SERVER_CONN_GUARD_H

#include <microhttpd.h>
#include <stdbool.h>

typedef struct WConnGuard WConnGuard;

/* A guard for listen_fd (not owned) with at most `limit` open connections. */
WConnGuard *wconn_guard_new(int listen_fd, int limit);
/* Start the accept thread, handing connections to d. false when the thread cannot start. */
bool wconn_guard_start(WConnGuard *g, struct MHD_Daemon *d);
/* Stop accepting (joins the accept thread); call before MHD_stop_daemon. */
void wconn_guard_stop(WConnGuard *g);
/* After MHD_stop_daemon: close what is left and free. */
void wconn_guard_free(WConnGuard *g);

void wconn_guard_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                        enum MHD_ConnectionNotificationCode code);
/* A request on c started (busy) or ended (idle again). */
void wconn_guard_busy(WConnGuard *g, struct MHD_Connection *c, bool busy);
/* Connections accepted, idle ones closed to make room, clients refused with 503 (for tests). */
void wconn_guard_counts(WConnGuard *g, long *accepted, long *evicted, long *refused);

#endif
