/*
 * remote.c — the SQL client talking to a running cluster's SQL gateway. See remote.h.
 */
#include "remote.h"
#include "cluster.h"
#include "messages.h"
#include "result_view.h"
#include "tableau.h"
#include "../common/arena.h"
#include "../common/strbuf.h"
#include "../types/type.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define MAX_ANSWER (64u << 20)

struct WRemote {
    char host[256];
    int port;
    char session[64];
    WClient *c;
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

static bool call(WRemote *rm, const char *method, const char *path, json_t *body, int timeout_ms, json_t **out,
                 WError *err)
{
    int status = 0;
    char msg[1024];
    json_t *ans = NULL;
    bool ok = wremote_http(rm->host, rm->port, method, path, body, timeout_ms, &status, &ans, msg, sizeof msg);
    json_decref(body);
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
        json_t *e = ans ? json_object_get(ans, "errors") : NULL;
        const char *m = e && json_array_size(e) ? json_string_value(json_array_get(e, 0)) : NULL;
        werr_set(err, "org.apache.flink.table.client.gateway.SqlExecutionException",
                 "The cluster at %s:%d answered %d: %s", rm->host, rm->port, status, m ? m : "(no message)");
        json_decref(ans);
        return false;
    }
    if (out) *out = ans;
    else json_decref(ans);
    return true;
}

/* ------------------------------------------------------------------ one statement */

typedef struct Run {
    WClient *c;
    WArena *arena;
    bool batch, reject, opened, cancelled, time_cost, announced;
    bool use_view, changelog;   /* interactive table/changelog result view (result_view.h) */
    bool viewed;                /* a view showed the rows: no tableau footer */
    WResultView *view;
    int max_width;
    double t0;
    int ncols;
    const WType **str_types;    /* STRING per column, for the chunks of rendered cells */
    WTabStream st;
    WTabBatch b;
} Run;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *jstr(json_t *o, const char *k, const char *dflt)
{
    const char *v = json_string_value(json_object_get(o, k));
    return v ? v : dflt;
}

static void apply_client_config(Run *r, json_t *cfg)
{
    if (!cfg) return;
    r->batch = json_is_true(json_object_get(cfg, "batch"));
    const char *mode = jstr(cfg, "resultMode", "table");
    r->reject = r->c->mode == WCLI_NON_INTERACTIVE && strcasecmp(mode, "tableau") != 0;
    r->use_view = r->c->mode == WCLI_INTERACTIVE && strcasecmp(mode, "tableau") != 0 && r->c->tty_out
                  && isatty(STDIN_FILENO);
    r->changelog = strcasecmp(mode, "changelog") == 0;
    r->time_cost = !strcasecmp(jstr(cfg, "printTimeCost", "false"), "true");
    const char *w = jstr(cfg, "maxColumnWidth", NULL);
    r->max_width = WTAB_DEFAULT_MAX_WIDTH;
    if (w) {
        char *end;
        long v = strtol(w, &end, 10);
        while (*end == ' ') end++;
        if (end != w && !*end && v > 0 && v < 1000000) r->max_width = (int)v;
    }
}

static void time_suffix(const Run *r, char *buf, size_t n)
{
    if (!r->time_cost) buf[0] = 0;
    else snprintf(buf, n, " (%.2f seconds)", now_seconds() - r->t0);
}

static void on_open(Run *r, json_t *ev)
{
    if (r->opened) return;
    r->opened = true;
    apply_client_config(r, json_object_get(ev, "client"));
    if (r->reject) return;
    json_t *cols = json_object_get(ev, "columns");
    int n = (int)json_array_size(cols);
    r->ncols = n;
    const char **names = WA_ARRAY(r->arena, const char *, n ? n : 1);
    const WType **types = WA_ARRAY(r->arena, const WType *, n ? n : 1);
    r->str_types = WA_ARRAY(r->arena, const WType *, n ? n : 1);
    for (int i = 0; i < n; i++) {
        json_t *c = json_array_get(cols, (size_t)i);
        names[i] = wa_strdup(r->arena, jstr(c, "name", ""));
        WType *t = wtype_new(r->arena, (WTypeId)json_integer_value(json_object_get(c, "typeId")),
                             !json_is_false(json_object_get(c, "nullable")));
        t->precision = (int)json_integer_value(json_object_get(c, "precision"));
        t->scale = (int)json_integer_value(json_object_get(c, "scale"));
        t->qual = (WIntervalQual)json_integer_value(json_object_get(c, "qual"));
        t->time_attr = (WTimeAttr)json_integer_value(json_object_get(c, "timeAttr"));
        types[i] = t;
        r->str_types[i] = &WTYPE_STRING;
    }
    if (r->use_view) {
        r->view = wrv_open(STDIN_FILENO, r->c->out, r->changelog, n, names, types,
                           r->max_width, NULL);
        r->viewed = true;
    } else if (r->batch) {
        wtab_batch_begin(&r->b, n, names, NULL);
    } else {
        wtab_stream_begin(&r->st, r->c->out, n, names, types, r->max_width, NULL);
    }
}

/* The user left the result view: restore the terminal now; the caller cancels the query. */
static void leave_view(Run *r)
{
    wrv_close(r->view, true);
    r->view = NULL;
    r->cancelled = true;
}

static void on_rows(Run *r, json_t *ev)
{
    if (!r->opened || r->reject || r->cancelled) return;
    json_t *kinds = json_object_get(ev, "kinds"), *data = json_object_get(ev, "data");
    size_t nrows = json_array_size(data);
    for (size_t off = 0; off < nrows; off += WCHUNK_CAP) {
        size_t m = nrows - off < WCHUNK_CAP ? nrows - off : WCHUNK_CAP;
        WChunk *ch = wchunk_new(r->ncols, r->str_types, (int)m);
        for (size_t i = 0; i < m; i++) {
            WRowKind k = WRK_INSERT;
            const char *ks = json_string_value(json_array_get(kinds, off + i));
            if (ks) wrowkind_parse(ks, (int)strlen(ks), &k);
            int row = wchunk_add_row(ch, k);
            json_t *vals = json_array_get(data, off + i);
            for (int col = 0; col < r->ncols; col++) {
                json_t *v = json_array_get(vals, (size_t)col);
                const char *s = json_string_value(v);
                ch->cols[col].nulls[row] = s == NULL;
                ch->cols[col].data[row].s = (WStr){s ? s : "", s ? (int32_t)json_string_length(v) : 0};
            }
        }
        if (r->view) {
            if (!wrv_rows(r->view, ch)) leave_view(r);
        } else if (!r->viewed) {
            if (r->batch) wtab_batch_chunk(&r->b, ch);
            else wtab_stream_chunk(&r->st, ch);
        }
        wchunk_free(ch);
        if (r->cancelled) break;
    }
}

static void on_close(Run *r, bool ok)
{
    if (!r->opened || r->reject) return;
    if (!r->cancelled && wcli_take_sigint()) r->cancelled = true;
    if (r->viewed) {
        /* The view stays until the user leaves it; Ctrl-C leaves it too (Flink binds it to Quit). */
        if (r->view) {
            if (!r->cancelled) wrv_finish(r->view, ok, wcli_take_sigint);
            wrv_close(r->view, ok || r->cancelled);
            r->view = NULL;
        }
        r->opened = false;
        return;
    }
    char suffix[64];
    time_suffix(r, suffix, sizeof suffix);
    if (r->batch) {
        if (r->cancelled) fprintf(r->c->out, "Query terminated, received a total of 0 row%s\n", suffix);
        else if (ok) wtab_batch_print(&r->b, r->c->out, r->max_width, suffix);
        fflush(r->c->out);
        wtab_batch_free(&r->b);
    } else {
        if (r->cancelled) wtab_stream_terminated(&r->st, suffix);
        else if (ok) wtab_stream_end(&r->st, suffix);
        wtab_stream_free(&r->st);
    }
    r->opened = false;
}

static void error_from_json(json_t *e, WError *err)
{
    werr_clear(err);
    snprintf(err->cls, sizeof err->cls, "%s", jstr(e, "class", WEXC_TABLE));
    snprintf(err->msg, sizeof err->msg, "%s", jstr(e, "message", ""));
    err->line = (int)json_integer_value(json_object_get(e, "line"));
    err->col = (int)json_integer_value(json_object_get(e, "col"));
    snprintf(err->file, sizeof err->file, "%s", jstr(e, "file", ""));
    err->file_line = (long)json_integer_value(json_object_get(e, "fileLine"));
    err->set = true;
}

static WStmtResultKind kind_of(const char *k)
{
    static const struct { const char *n; WStmtResultKind k; } T[] = {
        {"OK", WSR_OK}, {"MESSAGE", WSR_MESSAGE}, {"TABLE", WSR_TABLE}, {"TEXT", WSR_TEXT},
        {"QUERY_DONE", WSR_QUERY_DONE}, {"JOB_SUBMITTED", WSR_JOB_SUBMITTED},
        {"JOB_COMPLETED", WSR_JOB_COMPLETED}, {"QUIT", WSR_QUIT}};
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        if (!strcmp(T[i].n, k)) return T[i].k;
    return WSR_OK;
}

static void result_from_json(json_t *o, WStmtResult *res)
{
    memset(res, 0, sizeof *res);
    res->kind = kind_of(jstr(o, "kind", "OK"));
    const char *m = jstr(o, "message", NULL);
    if (m) res->message = wstrdup(m);
    snprintf(res->job_id, sizeof res->job_id, "%s", jstr(o, "jobId", ""));
    if (res->kind == WSR_TABLE) {
        json_t *cols = json_object_get(o, "columns"), *rows = json_object_get(o, "rows");
        res->ncols = (int)json_array_size(cols);
        res->nrows = (int)json_array_size(rows);
        res->col_names = wcalloc((size_t)(res->ncols ? res->ncols : 1), sizeof(char *));
        for (int i = 0; i < res->ncols; i++)
            res->col_names[i] = wstrdup(json_string_value(json_array_get(cols, (size_t)i)) ? json_string_value(json_array_get(cols, (size_t)i)) : "");
        res->cells = wcalloc((size_t)(res->nrows ? res->nrows : 1) * (size_t)(res->ncols ? res->ncols : 1), sizeof(char *));
        for (int r = 0; r < res->nrows; r++) {
            json_t *row = json_array_get(rows, (size_t)r);
            for (int c = 0; c < res->ncols; c++) {
                const char *v = json_string_value(json_array_get(row, (size_t)c));
                res->cells[r * res->ncols + c] = v ? wstrdup(v) : NULL;
            }
        }
        res->empty_as_empty_set = json_is_true(json_object_get(o, "emptyAsEmptySet"));
    }
}

/* Runs one statement on the cluster and prints its result; mirrors wcli_execute. */
static bool remote_exec(void *ctx, WClient *c, const char *stmt, bool *quit)
{
    WRemote *rm = ctx;
    Run r;
    memset(&r, 0, sizeof r);
    r.c = c;
    r.arena = warena_new(0);
    r.t0 = now_seconds();
    r.max_width = WTAB_DEFAULT_MAX_WIDTH;
    WError err;
    werr_clear(&err);
    fflush(c->out);

    char path[256];
    snprintf(path, sizeof path, "/v1/sessions/%s/statements", rm->session);
    json_t *ans = NULL;
    bool ok = call(rm, "POST", path, json_pack("{s:s}", "statement", stmt), 30000, &ans, &err);
    const char *oh = ok ? jstr(ans, "operationHandle", NULL) : NULL;
    char op[64] = "";
    if (oh) snprintf(op, sizeof op, "%s", oh);
    json_decref(ans);
    if (ok && !op[0]) ok = werr_set(&err, WEXC_CLIENT_EXEC, "The cluster did not return an operation handle.");

    bool have_result = false, result_ok = false, cancel_sent = false;
    WStmtResult res;
    memset(&res, 0, sizeof res);
    WError stmt_err;
    werr_clear(&stmt_err);
    char *report = NULL;
    long token = 0;
    while (ok && !have_result) {
        if (r.view && !wrv_poll(r.view)) leave_view(&r);
        if (!cancel_sent && (r.viewed && r.cancelled)) {
            cancel_sent = true;
            snprintf(path, sizeof path, "/v1/sessions/%s/operations/%s/cancel", rm->session, op);
            WError ce;
            werr_clear(&ce);
            call(rm, "POST", path, NULL, 10000, NULL, &ce);
        }
        if (!cancel_sent && wcli_take_sigint()) {
            r.cancelled = true;
            cancel_sent = true;
            snprintf(path, sizeof path, "/v1/sessions/%s/operations/%s/cancel", rm->session, op);
            WError ce;
            werr_clear(&ce);
            call(rm, "POST", path, NULL, 10000, NULL, &ce);
        }
        snprintf(path, sizeof path, "/v1/sessions/%s/operations/%s/result/%ld?wait=500", rm->session, op, token);
        json_t *page = NULL;
        if (!call(rm, "GET", path, NULL, 30000, &page, &err)) {
            ok = false;
            break;
        }
        const char *type = jstr(page, "resultType", "");
        json_t *evs = json_object_get(page, "events");
        size_t i;
        json_t *ev;
        json_array_foreach(evs, i, ev) {
            const char *t = jstr(ev, "type", "");
            if (!strcmp(t, "submitted")) {
                if (!json_is_true(json_object_get(ev, "sync")) && c->mode != WCLI_INITIALIZATION) {
                    WStmtResult sr;
                    memset(&sr, 0, sizeof sr);
                    sr.kind = WSR_JOB_SUBMITTED;
                    snprintf(sr.job_id, sizeof sr.job_id, "%s", jstr(ev, "jobId", ""));
                    wmsg_print_result(c->out, c->color, &sr);
                    fflush(c->out);
                    r.announced = true;
                }
            } else if (!strcmp(t, "open")) {
                on_open(&r, ev);
            } else if (!strcmp(t, "rows")) {
                on_rows(&r, ev);
                if (!cancel_sent && wcli_take_sigint()) {
                    r.cancelled = true;
                    cancel_sent = true;
                    snprintf(path, sizeof path, "/v1/sessions/%s/operations/%s/cancel", rm->session, op);
                    WError ce;
                    werr_clear(&ce);
                    call(rm, "POST", path, NULL, 10000, NULL, &ce);
                }
            } else if (!strcmp(t, "close")) {
                on_close(&r, json_is_true(json_object_get(ev, "ok")));
            } else if (!strcmp(t, "result")) {
                have_result = true;
                result_ok = json_is_true(json_object_get(ev, "ok"));
                if (!r.opened) apply_client_config(&r, json_object_get(ev, "client"));
                if (result_ok) result_from_json(json_object_get(ev, "result"), &res);
                else error_from_json(json_object_get(ev, "error"), &stmt_err);
                const char *rep = jstr(ev, "jobReport", NULL);
                if (rep) report = wstrdup(rep);
            }
        }
        token = (long)json_integer_value(json_object_get(page, "nextToken"));
        bool eos = !strcmp(type, "EOS");
        json_decref(page);
        if (eos && !have_result) ok = werr_set(&err, WEXC_CLIENT_EXEC, "The statement ended without a result.");
    }
    if (op[0]) {
        snprintf(path, sizeof path, "/v1/sessions/%s/operations/%s/close", rm->session, op);
        WError ce;
        werr_clear(&ce);
        call(rm, "DELETE", path, NULL, 10000, NULL, &ce);
    }
    if (r.opened) on_close(&r, false);
    if (!r.cancelled && wcli_take_sigint()) c->interrupted = true;

    bool success = true;
    if (!ok) {
        wmsg_error_werr(c->out, c->color, &err);
        success = false;
    } else if (r.reject && r.opened) {
        wmsg_error(c->out, c->color, WMSG_SQL_EXECUTION_ERROR, WEXC_CLIENT_EXEC,
                   "In non-interactive mode, it only supports to use TABLEAU as value of "
                   "sql-client.execution.result-mode when execute query. Please add "
                   "'SET sql-client.execution.result-mode=TABLEAU;' in the sql file.");
        success = false;
    } else if (r.cancelled) {
        success = true;
    } else if (!result_ok) {
        wmsg_error_werr(c->out, c->color, &stmt_err);
        success = false;
    } else if (c->mode == WCLI_INITIALIZATION) {
        wmsg_info(c->out, c->color, WMSG_EXECUTE_STATEMENT);
    } else if (!(res.kind == WSR_JOB_SUBMITTED && r.announced)) {
        if (!wmsg_print_result(c->out, c->color, &res)) *quit = true;
        if (c->job_report && c->err && report && *report &&
            (res.kind == WSR_QUERY_DONE || res.kind == WSR_JOB_COMPLETED)) {
            fputs(report, c->err);
            if (report[strlen(report) - 1] != '\n') fputc('\n', c->err);
            fflush(c->err);
        }
    }
    wstmt_result_free(&res);
    free(report);
    warena_delete(r.arena);
    fflush(c->out);
    if (c->interrupted && c->mode != WCLI_INTERACTIVE) *quit = true;
    return success;
}

/* ------------------------------------------------------------------ attach / detach */

WRemote *wremote_attach(WClient *c, const char *const *dyn, int ndyn, bool verbose, bool *failed)
{
    *failed = false;
    const char *emb = getenv("WEIR_EMBEDDED");
    if (emb && *emb && strcmp(emb, "0") != 0) return NULL;
    char host[256];
    int port;
    if (!wcli_cluster_find(host, sizeof host, &port)) return NULL;
    WRemote *rm = wcalloc(1, sizeof *rm);
    snprintf(rm->host, sizeof rm->host, "%s", host);
    rm->port = port;
    rm->c = c;
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
    json_t *ans = NULL;
    WError err;
    werr_clear(&err);
    bool ok = call(rm, "POST", "/v1/sessions", json_pack("{s:o, s:b}", "properties", props, "verbose", verbose), 30000,
                   &ans, &err);
    const char *sh = ok ? jstr(ans, "sessionHandle", NULL) : NULL;
    if (sh) snprintf(rm->session, sizeof rm->session, "%s", sh);
    json_decref(ans);
    if (!sh) {
        if (ok) werr_set(&err, WEXC_CLIENT_EXEC, "The cluster did not open a session.");
        fprintf(stderr, "[ERROR] Could not open a session on the weir cluster at %s:%d.\n%s: %s\n"
                        "(Stop the cluster with bin/stop-cluster.sh, or set WEIR_EMBEDDED=1 to run embedded.)\n",
                host, port, err.cls, err.msg);
        free(rm);
        *failed = true;
        return NULL;
    }
    c->remote = remote_exec;
    c->remote_ctx = rm;
    return rm;
}

void wremote_detach(WRemote *rm)
{
    if (!rm) return;
    char path[128];
    snprintf(path, sizeof path, "/v1/sessions/%s", rm->session);
    WError err;
    werr_clear(&err);
    call(rm, "DELETE", path, NULL, 10000, NULL, &err);
    if (rm->c) {
        rm->c->remote = NULL;
        rm->c->remote_ctx = NULL;
    }
    free(rm);
}
