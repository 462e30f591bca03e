/*
 * server.c — libmicrohttpd wiring, request limits and routing. See server.h.
 */
#include "server.h"
#include "conn_guard.h"
#include "gateway.h"
#include "registry.h"
#include "rest.h"
#include "../common/arena.h"
#include "../common/strbuf.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_BODY (1u << 20)
#define MAX_CONNECTIONS 128     /* open connections (a thread each) */
#define IDLE_TIMEOUT_S 30       /* an idle connection is closed after this long */

struct WServer {
    const WClusterConfig *cfg;
    WRegistry reg;
    WGateway *gw;
    WRest rest;
    struct MHD_Daemon *mhd;
    WConnGuard *guard;          /* accepts connections, bounds them, closes idle ones under load */
    int listen_fd;
    int port;
    bool loopback;
    bool gateway_enabled;
    char address[256];
    char *dashboard;
    size_t dashboard_len;
    /* Flink's SQL gateway endpoint (sql-gateway.endpoint.rest.*), when the gateway is enabled */
    struct MHD_Daemon *gw_mhd;
    WConnGuard *gw_guard;
    int gw_fd;
    int gw_port;
    bool gw_loopback;
};

typedef struct Req {
    WServer *server;
    WConnGuard *guard;
    bool flink_gateway;         /* a request to the SQL gateway endpoint */
    WStrBuf body;
    bool too_big;
    bool responded;
} Req;

static const char FALLBACK_PAGE[] =
    "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>weir</title></head><body>"
    "<h1>weir</h1><p>The dashboard page (web/dashboard.html) was not found when the cluster started. "
    "The REST API works: try <a href=\"/jobs/overview\">/jobs/overview</a>.</p></body></html>";

/* ------------------------------------------------------------------ responses */

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned status, const char *type, char *text,
                                 size_t len, bool owned)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(len, text, owned ? MHD_RESPMEM_MUST_FREE
                                                                              : MHD_RESPMEM_PERSISTENT);
    if (!r) {
        if (owned) free(text);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    enum MHD_Result ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result send_json(struct MHD_Connection *c, unsigned status, json_t *j)
{
    char *text = j ? wrest_json_text(j) : NULL;
    json_decref(j);
    if (!text) text = strdup("{\"errors\":[\"Internal server error: could not render the answer.\"]}");
    if (!text) return MHD_NO;
    return send_text(c, status, "application/json; charset=UTF-8", text, strlen(text), true);
}

static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *msg)
{
    return send_json(c, status, json_pack("{s:[s]}", "errors", msg));
}

/* ------------------------------------------------------------------ request checks */

static bool loopback_host(const char *host)
{
    if (!host) return true;     /* HTTP/1.0 without Host: allowed */
    char h[256];
    snprintf(h, sizeof h, "%s", host);
    char *end = h;
    if (h[0] == '[') {
        end = strchr(h, ']');
        if (!end) return false;
        *end = 0;
        return !strcmp(h + 1, "::1");
    }
    char *colon = strrchr(h, ':');
    if (colon) *colon = 0;
    return !strcasecmp(h, "localhost") || !strncmp(h, "127.", 4);
}

static bool same_origin(const char *origin, const char *host)
{
    if (!origin) return true;
    if (!host) return false;
    const char *p = strstr(origin, "://");
    if (!p) return false;
    return !strcasecmp(p + 3, host);
}

struct QueryBuild {
    WStrBuf sb;
    int count;
};

static enum MHD_Result query_arg(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    struct QueryBuild *q = cls;
    if (q->count++ >= 64) return MHD_NO;
    if (q->sb.len) wsb_putc(&q->sb, '&');
    wsb_append(&q->sb, key);
    if (value) {
        wsb_putc(&q->sb, '=');
        wsb_append(&q->sb, value);
    }
    return MHD_YES;
}

/* ------------------------------------------------------------------ dispatch */

static bool collect_query(struct MHD_Connection *c, WStrBuf *out)
{
    struct QueryBuild q;
    wsb_init(&q.sb);
    q.count = 0;
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, query_arg, &q);
    *out = q.sb;
    return q.count <= 64;
}

/* The SQL gateway endpoint: Flink's protocol only. */
static enum MHD_Result dispatch_gateway(WServer *s, struct MHD_Connection *c, const char *url, const char *method,
                                        Req *rq)
{
    if (strlen(url) > 2048) return send_error(c, 414, "The request path is too long.");
    for (const char *p = url; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == '\\') return send_error(c, 400, "Bad request: malformed path.");
    WStrBuf q;
    if (!collect_query(c, &q)) {
        wsb_free(&q);
        return send_error(c, 400, "Bad request: too many query parameters.");
    }
    json_t *out = NULL;
    int status = wgateway_flink_handle(s->gw, method, url, q.buf ? q.buf : "", rq->body.buf, rq->body.len, &out);
    wsb_free(&q);
    return send_json(c, (unsigned)status, out);
}

static enum MHD_Result dispatch(WServer *s, struct MHD_Connection *c, const char *url, const char *method, Req *rq)
{
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    if ((rq->flink_gateway ? s->gw_loopback : s->loopback) && !loopback_host(host))
        return send_error(c, 403, "Forbidden: this server answers requests for localhost only.");
    if (!same_origin(origin, host)) return send_error(c, 403, "Forbidden: cross-origin requests are not accepted.");
    bool get = !strcmp(method, "GET"), head = !strcmp(method, "HEAD");
    if (!get && !head && strcmp(method, "POST") && strcmp(method, "PATCH") && strcmp(method, "DELETE"))
        return send_error(c, 405, "Method not allowed.");
    if (head) return send_error(c, 405, "Method not allowed.");
    if (rq->flink_gateway) return dispatch_gateway(s, c, url, method, rq);

    if (!strcmp(url, "/") || !strcmp(url, "/index.html")) {
        if (!get) return send_error(c, 405, "Method not allowed.");
        if (s->dashboard)
            return send_text(c, 200, "text/html; charset=UTF-8", s->dashboard, s->dashboard_len, false);
        return send_text(c, 200, "text/html; charset=UTF-8", (char *)FALLBACK_PAGE, sizeof FALLBACK_PAGE - 1, false);
    }
    if (strlen(url) > 2048) return send_error(c, 414, "The request path is too long.");
    for (const char *p = url; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == '\\') return send_error(c, 400, "Bad request: malformed path.");

    struct QueryBuild q;
    wsb_init(&q.sb);
    q.count = 0;
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, query_arg, &q);
    if (q.count > 64) {
        wsb_free(&q.sb);
        return send_error(c, 400, "Bad request: too many query parameters.");
    }
    const char *query = q.sb.buf ? q.sb.buf : "";
    json_t *out = NULL;
    int status;
    {
        const char *path = url;
        /* Flink accepts the REST API version prefix */
        if (!strncmp(path, "/v1/", 4)) path += 3;
        status = wrest_handle(&s->rest, method, path, query, rq->body.buf, rq->body.len, &out);
    }
    wsb_free(&q.sb);
    return send_json(c, (unsigned)status, out);
}

static enum MHD_Result handle(WServer *s, bool gateway_conn, struct MHD_Connection *c, const char *url,
                              const char *method, const char *upload_data, size_t *upload_data_size, void **con_cls)
{
    Req *rq = *con_cls;
    if (!rq) {
        rq = calloc(1, sizeof *rq);
        if (!rq) return MHD_NO;
        wsb_init(&rq->body);
        rq->server = s;
        rq->flink_gateway = gateway_conn;
        rq->guard = gateway_conn ? s->gw_guard : s->guard;
        *con_cls = rq;
        wconn_guard_busy(rq->guard, c, true);
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
        if (cl && strtoull(cl, NULL, 10) > MAX_BODY) rq->too_big = true;
        return MHD_YES;
    }
    if (*upload_data_size) {
        if (!rq->too_big) {
            if (rq->body.len + *upload_data_size > MAX_BODY) {
                rq->too_big = true;
                wsb_free(&rq->body);
                wsb_init(&rq->body);
            } else {
                wsb_appendn(&rq->body, upload_data, *upload_data_size);
            }
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (rq->responded) return MHD_YES;
    rq->responded = true;
    if (rq->too_big) return send_error(c, 413, "Request entity too large: the body exceeds 1048576 bytes.");
    return dispatch(s, c, url, method, rq);
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                               const char *version, const char *upload_data, size_t *upload_data_size,
                               void **con_cls)
{
    (void)version;
    return handle(cls, false, c, url, method, upload_data, upload_data_size, con_cls);
}

static enum MHD_Result gw_handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    (void)version;
    return handle(cls, true, c, url, method, upload_data, upload_data_size, con_cls);
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)toe;
    Req *rq = *con_cls;
    if (!rq) return;
    wconn_guard_busy(rq->guard, c, false);
    wsb_free(&rq->body);
    free(rq);
    *con_cls = NULL;
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    fputs("weir: http: ", stderr);
    vfprintf(stderr, fmt, ap);
    fflush(stderr);
}

/* ------------------------------------------------------------------ start / stop */

static int bind_listen(const char *address, int lo, int hi, int *port_out, bool *loopback, bool *ipv6, WError *err)
{
    const char *node = !strcasecmp(address, "localhost") ? "127.0.0.1" : address;
    int last = 0;
    for (int port = lo; port <= hi; port++) {
        char ps[16];
        snprintf(ps, sizeof ps, "%d", port);
        struct addrinfo hints, *res = NULL;
        memset(&hints, 0, sizeof hints);
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
        int gai = getaddrinfo(node, ps, &hints, &res);
        if (gai != 0) {
            werr_set(err, "java.net.UnknownHostException", "%s: %s", address, gai_strerror(gai));
            return -1;
        }
        for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
            int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
            if (fd < 0) {
                last = errno;
                continue;
            }
            int one = 1;
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
            if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 256) == 0) {
                struct sockaddr_storage ss;
                socklen_t sl = sizeof ss;
                getsockname(fd, (struct sockaddr *)&ss, &sl);
                if (ss.ss_family == AF_INET) {
                    struct sockaddr_in *in = (struct sockaddr_in *)&ss;
                    *port_out = ntohs(in->sin_port);
                    *loopback = (ntohl(in->sin_addr.s_addr) >> 24) == 127;
                    *ipv6 = false;
                } else {
                    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
                    *port_out = ntohs(in6->sin6_port);
                    *loopback = IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
                    *ipv6 = true;
                }
                freeaddrinfo(res);
                return fd;
            }
            last = errno;
            close(fd);
        }
        freeaddrinfo(res);
    }
    if (lo == hi)
        werr_set(err, "java.net.BindException", "Could not start rest endpoint on %s:%d: %s", address, lo, strerror(last));
    else
        werr_set(err, "java.net.BindException", "Could not start rest endpoint on any port in range %d-%d on %s: %s",
                 lo, hi, address, strerror(last));
    return -1;
}

static struct MHD_Daemon *start_daemon(WServer *s, WConnGuard *guard, bool ipv6, MHD_AccessHandlerCallback h)
{
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG |
                     MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC;
    if (ipv6) flags |= MHD_USE_IPv6;
    return MHD_start_daemon(flags, 0, NULL, NULL, h, s, MHD_OPTION_EXTERNAL_LOGGER, mhd_log, s,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned)(2 * MAX_CONNECTIONS + 8),
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)IDLE_TIMEOUT_S,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024), MHD_OPTION_NOTIFY_COMPLETED,
                            completed, s, MHD_OPTION_NOTIFY_CONNECTION, wconn_guard_notify, guard, MHD_OPTION_END);
}

/* Flink's SQL gateway endpoint on its own address and port (sql-gateway.endpoint.rest.*). */
static bool start_gateway_endpoint(WServer *s, const WClusterConfig *cfg, WError *err)
{
    int lo, hi;
    if (!wcluster_gateway_port_range(cfg, &lo, &hi, err)) return false;
    bool ipv6 = false;
    const char *bind_addr = wcluster_gateway_bind_address(cfg);
    s->gw_fd = bind_listen(bind_addr, lo, hi, &s->gw_port, &s->gw_loopback, &ipv6, err);
    if (s->gw_fd < 0) return false;
    s->gw_guard = wconn_guard_new(s->gw_fd, MAX_CONNECTIONS);
    s->gw_mhd = start_daemon(s, s->gw_guard, ipv6, gw_handler);
    if (!s->gw_mhd || !wconn_guard_start(s->gw_guard, s->gw_mhd))
        return werr_set(err, "org.apache.flink.table.gateway.api.utils.SqlGatewayException",
                        "Could not start the SQL gateway endpoint on %s:%d.", bind_addr, s->gw_port);
    return true;
}

static char *read_small_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    WStrBuf sb;
    wsb_init(&sb);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0 && sb.len < (4u << 20)) wsb_appendn(&sb, buf, n);
    fclose(f);
    *len = sb.len;
    return wsb_detach(&sb);
}

WServer *wserver_start(const WClusterConfig *cfg, const char *web_dir, FILE *print_out, WError *err)
{
    int lo, hi;
    if (!wcluster_port_range(cfg, &lo, &hi, err)) return NULL;
    bool loopback = false, ipv6 = false;
    int port = 0;
    const char *bind_addr = wcluster_bind_address(cfg);
    int fd = bind_listen(bind_addr, lo, hi, &port, &loopback, &ipv6, err);
    if (fd < 0) return NULL;

    WServer *s = wcalloc(1, sizeof *s);
    s->cfg = cfg;
    s->listen_fd = fd;
    s->port = port;
    s->loopback = loopback;
    const char *ge = wcluster_get(cfg, "weir.gateway.enabled", NULL);
    s->gateway_enabled = ge ? !strcasecmp(ge, "true") : loopback;
    snprintf(s->address, sizeof s->address, "%s", wcluster_connect_address(cfg));
    if (web_dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/dashboard.html", web_dir);
        s->dashboard = read_small_file(path, &s->dashboard_len);
        if (!s->dashboard) fprintf(stderr, "weir: dashboard page %s not found; serving a placeholder\n", path);
    }
    wregistry_init(&s->reg, cfg);
    s->gw = wgateway_new(&s->reg, cfg, print_out);
    wrest_init(&s->rest, &s->reg, cfg, s->address, port);

    /* the guard accepts and bounds the connections (conn_guard.h); the daemon's own limit leaves
       room for the ones the guard has shut down and that are still closing */
    s->guard = wconn_guard_new(fd, MAX_CONNECTIONS);
    s->gw_fd = -1;
    s->mhd = start_daemon(s, s->guard, ipv6, handler);
    if (!s->mhd || !wconn_guard_start(s->guard, s->mhd)) {
        werr_set(err, "org.apache.flink.runtime.rest.RestServerEndpoint", "Could not start the HTTP server on %s:%d.",
                 bind_addr, port);
        wconn_guard_stop(s->guard);
        if (s->mhd) MHD_stop_daemon(s->mhd);
        wconn_guard_free(s->guard);
        wgateway_free(s->gw);
        wregistry_destroy(&s->reg);
        close(fd);
        free(s->dashboard);
        free(s);
        return NULL;
    }
    if (s->gateway_enabled && !start_gateway_endpoint(s, cfg, err)) {
        wserver_stop(s);
        return NULL;
    }
    return s;
}

int wserver_port(const WServer *s) { return s ? s->port : 0; }
int wserver_gateway_port(const WServer *s) { return s && s->gw_mhd ? s->gw_port : 0; }
const char *wserver_address(const WServer *s) { return s ? s->address : ""; }

void wserver_stop(WServer *s)
{
    if (!s) return;
    /* end waiting requests first, then the HTTP threads, then the sessions and the jobs */
    wgateway_shutdown_begin(s->gw);
    if (s->gw_guard) wconn_guard_stop(s->gw_guard);
    if (s->gw_mhd) MHD_stop_daemon(s->gw_mhd);
    if (s->gw_guard) wconn_guard_free(s->gw_guard);
    if (s->gw_fd >= 0) close(s->gw_fd);
    wconn_guard_stop(s->guard);
    MHD_stop_daemon(s->mhd);
    wconn_guard_free(s->guard);
    close(s->listen_fd);
    wregistry_stop_jobs(&s->reg);   /* before the sessions whose catalogs the jobs read */
    wgateway_free(s->gw);
    wregistry_destroy(&s->reg);
    free(s->dashboard);
    free(s);
}
