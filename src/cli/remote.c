/*
 * remote.c — the SQL client talking to a SQL gateway with Flink's SQL Gateway REST protocol
 * (a weir cluster's, or Flink's own). See remote.h.
 */
#include "remote.h"
#include "cluster.h"
#include "messages.h"
#include "result_view.h"
#include "tableau.h"
#include "../server/flink_resultset.h"
#include "../common/arena.h"
#include "../common/strbuf.h"
#include "../types/type.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define MAX_ANSWER (64u << 20)
#define MAX_API_VERSION 4       /* the newest SQL Gateway REST API version this client speaks */
#define POLL_MS 100             /* pause after a NOT_READY or an empty streaming page */
#define HEARTBEAT_S 30          /* session heartbeat period */

struct WRemote {
    char host[256];
    int port;
    char ver[4];                /* "v1".."v4": the negotiated REST API version */
    char session[64];
    WClient *c;
    pthread_t hb;               /* the heartbeat thread */
    bool hb_running, hb_stop;
    pthread_mutex_t hb_mu;
    pthread_cond_t hb_cv;
};

/* ------------------------------------------------------------------ HTTP */

static int connect_to(const char *host, int port, int timeout_ms, char *err, size_t errsz)
{
    char ps[16];
    snprintf(ps, sizeof ps, "%d", port);
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int gai = getaddrinfo(host, ps, &hints, &res);
    if (gai != 0) {
        snprintf(err, errsz, "java.net.UnknownHostException: %s: %s", host, gai_strerror(gai));
        return -1;
    }
    int last = ECONNREFUSED;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
        if (fd < 0) {
            last = errno;
            continue;
        }
        int rc = connect(fd, ai->ai_addr, ai->ai_addrlen);
        if (rc != 0 && errno == EINPROGRESS) {
            struct pollfd pf = {.fd = fd, .events = POLLOUT};
            rc = poll(&pf, 1, 5000) == 1 ? 0 : -1;
            int soerr = 0;
            socklen_t sl = sizeof soerr;
            if (rc == 0 && (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) != 0 || soerr)) {
                errno = soerr ? soerr : ETIMEDOUT;
                rc = -1;
            } else if (rc != 0) {
                errno = ETIMEDOUT;
            }
        }
        if (rc == 0) {
            int flags = fcntl(fd, F_GETFL);
            fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
            struct timeval tv = {.tv_sec = timeout_ms / 1000, .tv_usec = (timeout_ms % 1000) * 1000};
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
            freeaddrinfo(res);
            return fd;
        }
        last = errno;
        close(fd);
    }
    freeaddrinfo(res);
    snprintf(err, errsz, "java.net.ConnectException: Could not connect to %s:%d: %s", host, port, strerror(last));
    return -1;
}

static bool send_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* Decode a chunked body in place; returns its length, or (size_t)-1 when malformed. */
static size_t dechunk(char *b, size_t n)
{
    size_t in = 0, out = 0;
    for (;;) {
        char *end;
        unsigned long len = strtoul(b + in, &end, 16);
        char *crlf = strstr(end, "\r\n");
        if (!crlf || (size_t)(crlf - b) >= n) return (size_t)-1;
        in = (size_t)(crlf - b) + 2;
        if (len == 0) return out;
        if (in + len > n) return (size_t)-1;
        memmove(b + out, b + in, len);
        out += len;
        in += len + 2;
        if (in > n) return (size_t)-1;
    }
}

bool wremote_http(const char *host, int port, const char *method, const char *path, const json_t *body,
                  int timeout_ms, int *status, json_t **out, char *err, size_t errsz)
{
    *status = 0;
    if (out) *out = NULL;
    int fd = connect_to(host, port, timeout_ms, err, errsz);
    if (fd < 0) return false;
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    WStrBuf req;
    wsb_init(&req);
    bool v6 = strchr(host, ':') != NULL;
    wsb_printf(&req, "%s %s HTTP/1.1\r\nHost: %s%s%s:%d\r\nConnection: close\r\nAccept: application/json\r\n", method,
               path, v6 ? "[" : "", host, v6 ? "]" : "", port);
    if (text) wsb_printf(&req, "Content-Type: application/json\r\nContent-Length: %zu\r\n", strlen(text));
    else if (strcmp(method, "GET") != 0) wsb_append(&req, "Content-Length: 0\r\n");
    wsb_append(&req, "\r\n");
    if (text) wsb_append(&req, text);
    free(text);
    bool ok = send_all(fd, req.buf, req.len);
    wsb_free(&req);
    if (!ok) {
        snprintf(err, errsz, "java.io.IOException: Could not send the request to %s:%d: %s", host, port, strerror(errno));
        close(fd);
        return false;
    }
    WStrBuf ans;
    wsb_init(&ans);
    char buf[65536];
    for (;;) {
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            snprintf(err, errsz, "java.net.SocketTimeoutException: No answer from %s:%d: %s", host, port, strerror(errno));
            wsb_free(&ans);
            close(fd);
            return false;
        }
        if (n == 0) break;
        if (ans.len + (size_t)n > MAX_ANSWER) {
            snprintf(err, errsz, "java.io.IOException: The answer from %s:%d is too large.", host, port);
            wsb_free(&ans);
            close(fd);
            return false;
        }
        wsb_appendn(&ans, buf, (size_t)n);
    }
    close(fd);
    int code = 0;
    if (!ans.buf || sscanf(ans.buf, "HTTP/%*d.%*d %d", &code) != 1) {
        snprintf(err, errsz, "java.io.IOException: Malformed answer from %s:%d.", host, port);
        wsb_free(&ans);
        return false;
    }
    *status = code;
    char *hdr_end = strstr(ans.buf, "\r\n\r\n");
    if (hdr_end && out) {
        *hdr_end = 0;
        bool chunked = false;
        for (char *h = strstr(ans.buf, "\r\n"); h; h = strstr(h + 2, "\r\n"))
            if (!strncasecmp(h + 2, "Transfer-Encoding:", 18) && strstr(h + 20, "chunked")) chunked = true;
        char *b = hdr_end + 4;
        size_t blen = ans.len - (size_t)(b - ans.buf);
        if (chunked) blen = dechunk(b, blen);
        if (blen != (size_t)-1 && blen) *out = json_loadb(b, blen, 0, NULL);
    }
    wsb_free(&ans);
    return true;
}

/* ------------------------------------------------------------------ talking to the gateway */

/* The message a Flink client reads from a gateway error body {"errors":[...]}: the last
   "Caused by: <class>: <message>" of the server-side exception text, up to its first stack frame
   (what Flink's sql-client prints as the reason); else the whole first error. */
static void error_from_body(json_t *ans, int status, const WRemote *rm, WError *err)
{
    json_t *errs = ans ? json_object_get(ans, "errors") : NULL;
    WStrBuf all;
    wsb_init(&all);
    size_t i;
    json_t *e;
    json_array_foreach(errs, i, e) {
        if (!json_is_string(e)) continue;
        if (all.len) wsb_putc(&all, '\n');
        wsb_append(&all, json_string_value(e));
    }
    const char *text = all.buf ? all.buf : "";
    const char *cause = NULL;
    for (const char *p = strstr(text, "Caused by: "); p; p = strstr(p + 1, "Caused by: ")) cause = p + 11;
    if (!cause) {
        werr_set(err, WEXC_CLIENT_EXEC, "The SQL gateway at %s:%d answered %d: %s", rm->host, rm->port, status,
                 *text ? text : "(no message)");
        wsb_free(&all);
        return;
    }
    const char *end = cause;
    for (;;) {
        const char *nl = strchr(end, '\n');
        if (!nl) { end += strlen(end); break; }
        const char *next = nl + 1;
        while (*next == ' ' || *next == '\t') next++;
        if (!strncmp(next, "at ", 3) || !strncmp(next, "... ", 4) || !strncmp(nl + 1, "Caused by:", 10) ||
            nl[1] == '\n' || nl[1] == 0) {
            end = nl;
            break;
        }
        end = nl + 1;
    }
    while (end > cause && (end[-1] == ' ' || end[-1] == '\r' || end[-1] == '\n')) end--;
    const char *colon = cause;
    while (colon < end && *colon != ':' && *colon != ' ' && *colon != '\n') colon++;
    werr_clear(err);
    if (colon < end && *colon == ':' && colon[1] == ' ') {
        size_t cl = (size_t)(colon - cause);
        if (cl >= sizeof err->cls) cl = sizeof err->cls - 1;
        memcpy(err->cls, cause, cl);
        err->cls[cl] = 0;
        snprintf(err->msg, sizeof err->msg, "%.*s", (int)(end - colon - 2), colon + 2);
    } else {
        snprintf(err->cls, sizeof err->cls, "%s", WEXC_CLIENT_EXEC);
        snprintf(err->msg, sizeof err->msg, "%.*s", (int)(end - cause), cause);
    }
    err->set = true;
    wsb_free(&all);
}

/* One call; a non-2xx answer becomes err (the gateway's reason). body is consumed. */
static bool call(WRemote *rm, const char *method, const char *path, json_t *body, int timeout_ms, json_t **out,
                 WError *err)
{
    int status = 0;
    char msg[1024];
    json_t *ans = NULL;
    bool ok = wremote_http(rm->host, rm->port, method, path, body, timeout_ms, &status, &ans, msg, sizeof msg);
    json_decref(body);
    if (out) *out = NULL;
    if (!ok) {
        const char *colon = strstr(msg, ": ");
        char cls[96];
        size_t cl = colon ? (size_t)(colon - msg) : 0;
        if (cl >= sizeof cls) cl = 0;
        memcpy(cls, msg, cl);
        cls[cl] = 0;
        werr_set(err, cl ? cls : "java.io.IOException", "%s", colon ? colon + 2 : msg);
        return false;
    }
    if (status < 200 || status >= 300) {
        error_from_body(ans, status, rm, err);
        json_decref(ans);
        return false;
    }
    if (out) *out = ans;
    else json_decref(ans);
    return true;
}

/* Best-effort calls (cancel, close, heartbeat): their failure changes nothing for the user. */
static void call_quietly(WRemote *rm, const char *method, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void call_quietly(WRemote *rm, const char *method, const char *fmt, ...)
{
    char path[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    WError e;
    werr_clear(&e);
    call(rm, method, path, NULL, 10000, NULL, &e);
}

/* Flink's client keeps its session alive with a heartbeat while it is open (an idle terminal
   included); one thread per client, stopped by wremote_detach. */
static void *heartbeat_thread(void *arg)
{
    WRemote *rm = arg;
    pthread_mutex_lock(&rm->hb_mu);
    while (!rm->hb_stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += HEARTBEAT_S;
        while (!rm->hb_stop && pthread_cond_timedwait(&rm->hb_cv, &rm->hb_mu, &until) != ETIMEDOUT) {}
        if (rm->hb_stop) break;
        pthread_mutex_unlock(&rm->hb_mu);
        call_quietly(rm, "POST", "/%s/sessions/%s/heartbeat", rm->ver, rm->session);
        pthread_mutex_lock(&rm->hb_mu);
    }
    pthread_mutex_unlock(&rm->hb_mu);
    return NULL;
}

/* ------------------------------------------------------------------ the session's configuration */

/* What the client reads from the session's configuration (GET /sessions/:sh), as Flink's client
   reads it after each statement: the result mode, runtime mode, column width, time cost, dml-sync. */
typedef struct SessConf {
    bool batch, dml_sync, time_cost;
    char mode[16];
    int max_width;
} SessConf;

static const char *prop(json_t *props, const char *k, const char *dflt)
{
    const char *v = json_string_value(json_object_get(props, k));
    return v ? v : dflt;
}

static void session_conf(WRemote *rm, SessConf *sc)
{
    memset(sc, 0, sizeof *sc);
    snprintf(sc->mode, sizeof sc->mode, "table");
    sc->time_cost = true;
    sc->max_width = WTAB_DEFAULT_MAX_WIDTH;
    char path[256];
    snprintf(path, sizeof path, "/%s/sessions/%s", rm->ver, rm->session);
    json_t *ans = NULL;
    WError e;
    werr_clear(&e);
    if (!call(rm, "GET", path, NULL, 30000, &ans, &e)) return;
    json_t *p = json_object_get(ans, "properties");
    sc->batch = !strcasecmp(prop(p, "execution.runtime-mode", "streaming"), "batch");
    sc->dml_sync = !strcasecmp(prop(p, "table.dml-sync", "false"), "true");
    sc->time_cost = !strcasecmp(prop(p, "sql-client.display.print-time-cost", "true"), "true");
    snprintf(sc->mode, sizeof sc->mode, "%s", prop(p, "sql-client.execution.result-mode", "table"));
    /* only the table.* key, as the local client (Flink 2.3 ignores sql-client.display.max-column-width) */
    const char *w = prop(p, "table.display.max-column-width", NULL);
    if (w) {
        char *end;
        long v = strtol(w, &end, 10);
        while (*end == ' ') end++;
        if (end != w && !*end && v > 0 && v < 1000000) sc->max_width = (int)v;
    }
    json_decref(ans);
}

/* ------------------------------------------------------------------ one statement */

typedef struct Run {
    WClient *c;
    WRemote *rm;
    WArena *arena;
    SessConf conf;
    bool reject, opened, cancelled, cancel_sent;
    bool use_view, changelog;   /* interactive table/changelog result view (result_view.h) */
    WResultView *view;
    double t0;
    int ncols;
    const char **names;
    const WType **str_types;    /* STRING per column: PLAIN_TEXT cells */
    WTabStream st;
    WTabBatch b;
    char op[64];
} Run;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void time_suffix(const Run *r, char *buf, size_t n)
{
    if (!r->conf.time_cost) buf[0] = 0;
    else snprintf(buf, n, " (%.2f seconds)", now_seconds() - r->t0);
}

static void cancel_op(Run *r)
{
    if (r->cancel_sent) return;
    r->cancel_sent = true;
    call_quietly(r->rm, "POST", "/%s/sessions/%s/operations/%s/cancel", r->rm->ver, r->rm->session, r->op);
}

/* A query's result set opened: its columns (names, Flink's logical types) and the display. */
static void open_query(Run *r, json_t *cols)
{
    r->opened = true;
    r->reject = r->c->mode == WCLI_NON_INTERACTIVE && strcasecmp(r->conf.mode, "tableau") != 0;
    if (r->reject) return;
    r->use_view = r->c->mode == WCLI_INTERACTIVE && strcasecmp(r->conf.mode, "tableau") != 0 && r->c->tty_out
                  && isatty(STDIN_FILENO);
    r->changelog = strcasecmp(r->conf.mode, "changelog") == 0;
    int n = (int)json_array_size(cols);
    r->ncols = n;
    r->names = WA_ARRAY(r->arena, const char *, n ? n : 1);
    const WType **types = WA_ARRAY(r->arena, const WType *, n ? n : 1);
    r->str_types = WA_ARRAY(r->arena, const WType *, n ? n : 1);
    for (int i = 0; i < n; i++) {
        json_t *c = json_array_get(cols, (size_t)i);
        const char *name = json_string_value(json_object_get(c, "name"));
        r->names[i] = wa_strdup(r->arena, name ? name : "");
        types[i] = wflink_logical_type_parse(r->arena, json_object_get(c, "logicalType"));
        r->str_types[i] = &WTYPE_STRING;
    }
    if (r->use_view) {
        r->view = wrv_open(STDIN_FILENO, r->c->out, r->changelog, n, r->names, types, r->conf.max_width, NULL);
    } else if (r->conf.batch) {
        wtab_batch_begin(&r->b, n, r->names, NULL);
    } else {
        wtab_stream_begin(&r->st, r->c->out, n, r->names, types, r->conf.max_width, NULL);
    }
}

/* The user left the result view: restore the terminal now; the caller cancels the query. */
static void leave_view(Run *r)
{
    wrv_close(r->view, true);
    r->view = NULL;
    r->cancelled = true;
}

static WRowKind row_kind(const char *k)
{
    if (!k) return WRK_INSERT;
    if (!strcmp(k, "UPDATE_BEFORE")) return WRK_UPDATE_BEFORE;
    if (!strcmp(k, "UPDATE_AFTER")) return WRK_UPDATE_AFTER;
    if (!strcmp(k, "DELETE")) return WRK_DELETE;
    return WRK_INSERT;
}

/* A page of PLAIN_TEXT rows [{"kind","fields":[text|null,...]}] into the display. */
static void query_rows(Run *r, json_t *data)
{
    if (!r->opened || r->reject || r->cancelled) return;
    size_t nrows = json_array_size(data);
    for (size_t off = 0; off < nrows; off += WCHUNK_CAP) {
        size_t m = nrows - off < WCHUNK_CAP ? nrows - off : WCHUNK_CAP;
        WChunk *ch = wchunk_new(r->ncols, r->str_types, (int)m);
        for (size_t i = 0; i < m; i++) {
            json_t *row = json_array_get(data, off + i);
            int at = wchunk_add_row(ch, row_kind(json_string_value(json_object_get(row, "kind"))));
            json_t *vals = json_object_get(row, "fields");
            for (int col = 0; col < r->ncols; col++) {
                json_t *v = json_array_get(vals, (size_t)col);
                const char *s = json_string_value(v);
                ch->cols[col].nulls[at] = s == NULL;
                ch->cols[col].data[at].s = (WStr){s ? s : "", s ? (int32_t)json_string_length(v) : 0};
            }
        }
        if (r->view) {
            if (!wrv_rows(r->view, ch)) leave_view(r);
        } else if (r->conf.batch) {
            wtab_batch_chunk(&r->b, ch);
        } else {
            wtab_stream_chunk(&r->st, ch);
        }
        wchunk_free(ch);
        if (r->cancelled) break;
    }
}

static void close_query(Run *r, bool ok)
{
    if (!r->opened || r->reject) return;
    r->opened = false;
    if (!r->cancelled && wcli_take_sigint()) r->cancelled = true;
    if (r->use_view) {
        /* The view stays until the user leaves it; Ctrl-C leaves it too (Flink binds it to Quit). */
        if (r->view) {
            if (!r->cancelled) wrv_finish(r->view, ok, wcli_take_sigint);
            wrv_close(r->view, ok || r->cancelled);
            r->view = NULL;
        }
        return;
    }
    char suffix[64];
    time_suffix(r, suffix, sizeof suffix);
    if (r->conf.batch) {
        /* Flink prints a batch result once it is complete, and counts 0 rows when cancelled */
        if (r->cancelled) fprintf(r->c->out, "Query terminated, received a total of 0 row%s\n", suffix);
        else if (ok) wtab_batch_print(&r->b, r->c->out, r->conf.max_width, suffix);
        fflush(r->c->out);
        wtab_batch_free(&r->b);
    } else {
        if (r->cancelled) wtab_stream_terminated(&r->st, suffix);
        else if (ok) wtab_stream_end(&r->st, suffix);
        wtab_stream_free(&r->st);
    }
}

/* The rows of a result that is not a query (SHOW, DESCRIBE, EXPLAIN, SET; ...) as a string table. */
static void table_rows(WStmtResult *res, json_t *cols, json_t *data, bool first)
{
    if (first) {
        res->kind = WSR_TABLE;
        res->empty_as_empty_set = true;
        res->ncols = (int)json_array_size(cols);
        res->col_names = wcalloc((size_t)(res->ncols ? res->ncols : 1), sizeof(char *));
        for (int i = 0; i < res->ncols; i++) {
            const char *n = json_string_value(json_object_get(json_array_get(cols, (size_t)i), "name"));
            res->col_names[i] = wstrdup(n ? n : "");
        }
    }
    int add = (int)json_array_size(data);
    if (!add || !res->ncols) return;
    res->cells = wrealloc(res->cells, sizeof(char *) * (size_t)(res->nrows + add) * (size_t)res->ncols);
    for (int r = 0; r < add; r++) {
        json_t *f = json_object_get(json_array_get(data, (size_t)r), "fields");
        for (int c = 0; c < res->ncols; c++) {
            const char *v = json_string_value(json_array_get(f, (size_t)c));
            res->cells[(res->nrows + r) * res->ncols + c] = v ? wstrdup(v) : NULL;
        }
    }
    res->nrows += add;
}

/* Fetch the next page; NOT_READY pages are waited out here. *page is NULL at the end. */
static bool fetch_page(Run *r, char *uri, size_t urisz, json_t **page, WError *err)
{
    for (;;) {
        if (r->view && !wrv_poll(r->view)) leave_view(r);
        if (r->cancelled || wcli_take_sigint()) {
            r->cancelled = true;
            cancel_op(r);
            *page = NULL;
            return true;
        }
        json_t *p = NULL;
        if (!call(r->rm, "GET", uri, NULL, 60000, &p, err)) return false;
        const char *type = json_string_value(json_object_get(p, "resultType"));
        const char *next = json_string_value(json_object_get(p, "nextResultUri"));
        if (type && !strcmp(type, "NOT_READY")) {
            if (next) snprintf(uri, urisz, "%s", next);
            json_decref(p);
            sleep_ms(POLL_MS);
            continue;
        }
        if (next) snprintf(uri, urisz, "%s", next);
        else uri[0] = 0;
        *page = p;
        return true;
    }
}

/* Runs one statement on the gateway and prints its result as Flink's sql-client does; mirrors
   wcli_execute. */
static bool remote_exec(void *ctx, WClient *c, const char *stmt, bool *quit)
{
    WRemote *rm = ctx;
    Run r;
    memset(&r, 0, sizeof r);
    r.c = c;
    r.rm = rm;
    r.arena = warena_new(0);
    r.t0 = now_seconds();
    r.conf.max_width = WTAB_DEFAULT_MAX_WIDTH;
    WError err;
    werr_clear(&err);
    fflush(c->out);
    char path[512];
    bool ok;

    if (c->mode == WCLI_INITIALIZATION) {
        /* -i: Flink's client configures the session with each statement */
        snprintf(path, sizeof path, "/%s/sessions/%s/configure-session", rm->ver, rm->session);
        ok = call(rm, "POST", path, json_pack("{s:s}", "statement", stmt), 60000, NULL, &err);
        if (ok) wmsg_info(c->out, c->color, WMSG_EXECUTE_STATEMENT);
        else wmsg_error_werr(c->out, c->color, &err);
        warena_delete(r.arena);
        fflush(c->out);
        return ok;
    }

    snprintf(path, sizeof path, "/%s/sessions/%s/statements", rm->ver, rm->session);
    json_t *ans = NULL;
    ok = call(rm, "POST", path, json_pack("{s:s}", "statement", stmt), 60000, &ans, &err);
    const char *oh = ok ? json_string_value(json_object_get(ans, "operationHandle")) : NULL;
    if (oh) snprintf(r.op, sizeof r.op, "%s", oh);
    json_decref(ans);
    if (ok && !r.op[0]) ok = werr_set(&err, WEXC_CLIENT_EXEC, "The SQL gateway did not return an operation handle.");

    WStmtResult res;
    memset(&res, 0, sizeof res);
    bool query = false, first = true;
    char uri[512];
    snprintf(uri, sizeof uri, "/%s/sessions/%s/operations/%s/result/0?rowFormat=PLAIN_TEXT", rm->ver, rm->session,
             r.op);
    while (ok && uri[0]) {
        json_t *page = NULL;
        if (!fetch_page(&r, uri, sizeof uri, &page, &err)) {
            ok = false;
            break;
        }
        if (!page) break;       /* cancelled */
        json_t *results = json_object_get(page, "results");
        json_t *cols = json_object_get(results, "columns"), *data = json_object_get(results, "data");
        if (first) {
            first = false;
            session_conf(rm, &r.conf);
            query = json_is_true(json_object_get(page, "isQueryResult"));
            const char *job = json_string_value(json_object_get(page, "jobID"));
            const char *kind = json_string_value(json_object_get(page, "resultKind"));
            if (query) {
                open_query(&r, cols);
                if (r.reject) {
                    json_decref(page);
                    cancel_op(&r);
                    break;
                }
            } else if (job) {
                res.kind = r.conf.dml_sync ? WSR_JOB_COMPLETED : WSR_JOB_SUBMITTED;
                snprintf(res.job_id, sizeof res.job_id, "%s", job);
                json_decref(page);
                break;
            } else if (kind && !strcmp(kind, "SUCCESS")) {
                res.kind = WSR_OK;
                json_decref(page);
                break;
            } else {
                table_rows(&res, cols, NULL, true);
            }
        }
        if (query) {
            query_rows(&r, data);
            if (r.cancelled) cancel_op(&r);
        } else {
            table_rows(&res, cols, data, false);
        }
        bool empty = json_array_size(data) == 0;
        json_decref(page);
        if (query && empty && uri[0] && !r.cancelled) sleep_ms(POLL_MS);
    }
    if (r.op[0]) call_quietly(rm, "DELETE", "/%s/sessions/%s/operations/%s/close", rm->ver, rm->session, r.op);
    if (r.opened) close_query(&r, ok);
    if (!r.cancelled && wcli_take_sigint()) c->interrupted = true;

    bool success = true;
    if (!ok) {
        wmsg_error_werr(c->out, c->color, &err);
        success = false;
    } else if (r.reject) {
        wmsg_error(c->out, c->color, WMSG_SQL_EXECUTION_ERROR, WEXC_CLIENT_EXEC,
                   "In non-interactive mode, it only supports to use TABLEAU as value of "
                   "sql-client.execution.result-mode when execute query. Please add "
                   "'SET sql-client.execution.result-mode=TABLEAU;' in the sql file.");
        success = false;
    } else if (!query) {
        wmsg_print_result(c->out, c->color, &res);
    }
    wstmt_result_free(&res);
    warena_delete(r.arena);
    fflush(c->out);
    if (c->interrupted && c->mode != WCLI_INTERACTIVE) *quit = true;
    return success;
}

/* ------------------------------------------------------------------ connect / detach */

/* The highest REST API version both sides know (Flink's client asks GET /v1/api_versions). */
static void negotiate_version(WRemote *rm)
{
    snprintf(rm->ver, sizeof rm->ver, "v1");
    json_t *ans = NULL;
    WError e;
    werr_clear(&e);
    if (!call(rm, "GET", "/v1/api_versions", NULL, 30000, &ans, &e)) return;
    size_t i;
    json_t *v;
    int best = 1;
    json_array_foreach(json_object_get(ans, "versions"), i, v) {
        const char *s = json_string_value(v);
        if (s && (s[0] == 'V' || s[0] == 'v') && s[1] >= '1' && s[1] <= '0' + MAX_API_VERSION && !s[2] &&
            s[1] - '0' > best)
            best = s[1] - '0';
    }
    snprintf(rm->ver, sizeof rm->ver, "v%d", best);
    json_decref(ans);
}

static WRemote *open_remote(WClient *c, const char *host, int port, const char *const *dyn, int ndyn,
                            const char *session_name, WError *err)
{
    WRemote *rm = wcalloc(1, sizeof *rm);
    snprintf(rm->host, sizeof rm->host, "%s", host);
    rm->port = port;
    rm->c = c;
    negotiate_version(rm);
    json_t *props = json_object();
    for (int i = 0; i < ndyn; i++) {
        const char *eq = strchr(dyn[i], '=');
        if (!eq) continue;
        char key[512];
        size_t kl = (size_t)(eq - dyn[i]);
        if (kl >= sizeof key) kl = sizeof key - 1;
        memcpy(key, dyn[i], kl);
        key[kl] = 0;
        json_object_set_new(props, key, json_string(eq + 1));
    }
    char path[64];
    snprintf(path, sizeof path, "/%s/sessions", rm->ver);
    json_t *ans = NULL;
    /* Flink's client sends its -s identifier as the session's name (ExecutorImpl.openSession) */
    json_t *body = json_pack("{s:o}", "properties", props);
    if (session_name) json_object_set_new(body, "sessionName", json_string(session_name));
    bool ok = call(rm, "POST", path, body, 60000, &ans, err);
    const char *sh = ok ? json_string_value(json_object_get(ans, "sessionHandle")) : NULL;
    if (sh) snprintf(rm->session, sizeof rm->session, "%s", sh);
    json_decref(ans);
    if (!sh) {
        if (ok) werr_set(err, WEXC_CLIENT_EXEC, "The SQL gateway did not open a session.");
        free(rm);
        return NULL;
    }
    pthread_mutex_init(&rm->hb_mu, NULL);
    pthread_cond_init(&rm->hb_cv, NULL);
    rm->hb_running = pthread_create(&rm->hb, NULL, heartbeat_thread, rm) == 0;
    c->remote = remote_exec;
    c->remote_ctx = rm;
    return rm;
}

WRemote *wremote_attach(WClient *c, const char *const *dyn, int ndyn, const char *session_name, bool *failed)
{
    *failed = false;
    const char *emb = getenv("WEIR_EMBEDDED");
    if (emb && *emb && strcmp(emb, "0") != 0) return NULL;
    char host[256], gw[256];
    int port, gport;
    if (!wcli_cluster_find(host, sizeof host, &port)) return NULL;
    WError err;
    werr_clear(&err);
    WRemote *rm = NULL;
    if (!wcli_cluster_find_gateway(gw, sizeof gw, &gport))
        werr_set(&err, WEXC_CLIENT_EXEC, "The cluster serves no SQL gateway endpoint (weir.gateway.enabled).");
    else
        rm = open_remote(c, gw, gport, dyn, ndyn, session_name, &err);
    if (!rm) {
        fprintf(stderr, "[ERROR] Could not open a session on the weir cluster at %s:%d.\n%s: %s\n"
                        "(Stop the cluster with bin/stop-cluster.sh, or set WEIR_EMBEDDED=1 to run embedded.)\n",
                host, port, err.cls, err.msg);
        *failed = true;
    }
    return rm;
}

WRemote *wremote_connect(WClient *c, const char *endpoint, const char *const *dyn, int ndyn, const char *session_name)
{
    char host[256];
    int port = 0;
    const char *colon = strrchr(endpoint, ':');
    const char *h = endpoint;
    size_t hl = colon ? (size_t)(colon - endpoint) : 0;
    if (hl >= 2 && h[0] == '[' && h[hl - 1] == ']') { h++; hl -= 2; }   /* [::1]:8083 */
    char *end = NULL;
    long p = colon ? strtol(colon + 1, &end, 10) : 0;
    if (!colon || hl == 0 || hl >= sizeof host || end == colon + 1 || *end || p <= 0 || p > 65535) {
        fprintf(stderr, "Exception in thread \"main\" java.lang.IllegalArgumentException: The given host:port ('%s') "
                        "doesn't contain a valid port\n", endpoint);
        return NULL;
    }
    memcpy(host, h, hl);
    host[hl] = 0;
    port = (int)p;
    WError err;
    werr_clear(&err);
    WRemote *rm = open_remote(c, host, port, dyn, ndyn, session_name, &err);
    if (!rm)   /* Flink 2.3's client fails to start the same way (its stack frames left out) */
        fprintf(stderr, "Exception in thread \"main\" org.apache.flink.table.client.SqlClientException: Failed to "
                        "create the executor.\nCaused by: org.apache.flink.table.client.gateway.SqlExecutionException: "
                        "Failed to get response.\nCaused by: %s: %s\n", err.cls, err.msg);
    return rm;
}

void wremote_detach(WRemote *rm)
{
    if (!rm) return;
    if (rm->hb_running) {
        pthread_mutex_lock(&rm->hb_mu);
        rm->hb_stop = true;
        pthread_cond_signal(&rm->hb_cv);
        pthread_mutex_unlock(&rm->hb_mu);
        pthread_join(rm->hb, NULL);
    }
    pthread_mutex_destroy(&rm->hb_mu);
    pthread_cond_destroy(&rm->hb_cv);
    call_quietly(rm, "DELETE", "/%s/sessions/%s", rm->ver, rm->session);
    if (rm->c) {
        rm->c->remote = NULL;
        rm->c->remote_ctx = NULL;
    }
    free(rm);
}
