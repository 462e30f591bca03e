/*
 * gateway.c — SQL gateway sessions and operations. See gateway.h.
 */
#include "gateway.h"
#include "rest_path.h"
#include "flink_resultset.h"
#include "flink_version.h"
#include "../common/arena.h"
#include "../common/strbuf.h"
#include "../types/format.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_SESSIONS 64
#define MAX_OPS_PER_SESSION 32
#define MAX_PENDING_ROWS 20000      /* unfetched rows before a query waits for its client */
#define MAX_EVENTS_PER_FETCH 64

enum { OP_RUNNING, OP_FINISHED, OP_ERROR, OP_CANCELED };
static const char *const OP_STATUS[] = {"RUNNING", "FINISHED", "ERROR", "CANCELED"};

typedef struct Sess Sess;

typedef struct Op {
    char id[37];
    Sess *sess;
    char *stmt;
    pthread_t thread;
    bool has_thread;
    int status;
    bool cancel;
    pid_t tid;
    json_t *events;             /* events not yet acknowledged; events[0] has token `base` */
    long base;
    long pending_rows;
    bool done;
    /* Flink's protocol (flink = true): events are Flink rows {"kind","fields"}; the result set's
       columns, whether it is a query, its job id and kind, or the error body */
    bool flink;
    json_t *exec_config;        /* executionConfig: the session's options for this statement */
    json_t *fcols;
    bool fquery;
    char fjob[33];
    const char *fkind;
    json_t *ferr;
    bool fserved;               /* a PAYLOAD page was answered (EOS comes after one, as in Flink) */
    int64_t start_ms;
    struct Op *next;
} Op;

struct Sess {
    char id[37];
    WGateway *g;
    WSession *s;
    pthread_mutex_t run_mu;     /* one statement at a time */
    int64_t last_access;
    Op *ops;
    int nops;
    int busy;                   /* requests and operation threads using the session */
    bool closing;
    int njobs;                  /* background jobs submitted from this session: its catalog must */
    char (*jobs)[33];           /* outlive them, so a closed session waits until they are freed */
};

struct WGateway {
    WRegistry *reg;
    const WClusterConfig *cfg;
    FILE *print_out;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int nsess;
    Sess *sessions[MAX_SESSIONS];
    int nzombies;               /* closed sessions waiting for their jobs */
    Sess **zombies;
    uint64_t rng;
    int64_t idle_ms;
    bool stopping;
};

json_t *wgateway_error(const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return json_pack("{s:[s]}", "errors", buf);
}

static int64_t now_ms(void) { return wregistry_now(); }

static uint64_t next_rand(WGateway *g)
{
    uint64_t x = g->rng += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* (locked) A random UUID as text (version 4 layout). */
static void new_uuid(WGateway *g, char out[37])
{
    uint64_t a = next_rand(g), b = next_rand(g);
    a = (a & ~0xf000ULL) | 0x4000ULL;
    b = (b & ~(3ULL << 62)) | (2ULL << 62);
    snprintf(out, 37, "%08llx-%04llx-%04llx-%04llx-%012llx", (unsigned long long)(a >> 32),
             (unsigned long long)((a >> 16) & 0xffff), (unsigned long long)(a & 0xffff),
             (unsigned long long)(b >> 48), (unsigned long long)(b & 0xffffffffffffULL));
}

static bool is_uuid(const char *s)
{
    if (strlen(s) != 36) return false;
    for (int i = 0; i < 36; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i] != '-') return false;
        } else if (!isxdigit((unsigned char)s[i])) {
            return false;
        }
    }
    return true;
}

/* ------------------------------------------------------------------ events */

/* (locked) */
static void push_event(WGateway *g, Op *op, json_t *ev, long rows)
{
    json_array_append_new(op->events, ev);
    op->pending_rows += rows;
    pthread_cond_broadcast(&g->cv);
}

static void emit(Op *op, json_t *ev, long rows)
{
    WGateway *g = op->sess->g;
    pthread_mutex_lock(&g->mu);
    push_event(g, op, ev, rows);
    pthread_mutex_unlock(&g->mu);
}

static json_t *client_config(WSession *s)
{
    const char *w = wsession_get(s, "table.display.max-column-width", NULL);
    if (!w) w = wsession_get(s, "sql-client.display.max-column-width", NULL);
    return json_pack("{s:s, s:b, s:s?, s:s, s:s}",
                     "resultMode", wsession_get(s, "sql-client.execution.result-mode", "table"),
                     "batch", wsession_is_batch(s), "maxColumnWidth", w,
                     "printTimeCost", wsession_get(s, "sql-client.display.print-time-cost", "false"),
                     "verbose", wsession_get(s, "sql-client.verbose", "false"));
}

/* ------------------------------------------------------------------ the result sink */

typedef struct SinkCtx {
    Op *op;
    int ncols;
} SinkCtx;

static void sk_open(void *ctx, int ncols, const char *const *names, const WType *const *types)
{
    SinkCtx *k = ctx;
    k->ncols = ncols;
    if (k->op->flink) {
        json_t *fc = json_array();
        for (int i = 0; i < ncols; i++) json_array_append_new(fc, wflink_column(names[i], types[i]));
        WGateway *g = k->op->sess->g;
        pthread_mutex_lock(&g->mu);
        json_decref(k->op->fcols);
        k->op->fcols = fc;
        k->op->fquery = true;
        k->op->fkind = "SUCCESS_WITH_CONTENT";
        pthread_cond_broadcast(&g->cv);
        pthread_mutex_unlock(&g->mu);
        return;
    }
    json_t *cols = json_array();
    for (int i = 0; i < ncols; i++) {
        const WType *t = types[i];
        WStrBuf ts;
        wsb_init(&ts);
        wtype_to_string(t, &ts);
        json_array_append_new(cols, json_pack("{s:s, s:s, s:i, s:b, s:i, s:i, s:i, s:i}", "name", names[i],
                                              "logicalType", ts.buf ? ts.buf : "", "typeId", (int)t->id,
                                              "nullable", t->nullable, "precision", t->precision, "scale", t->scale,
                                              "qual", (int)t->qual, "timeAttr", (int)t->time_attr));
        wsb_free(&ts);
    }
    emit(k->op, json_pack("{s:s, s:o, s:o}", "type", "open", "columns", cols, "client",
                          client_config(k->op->sess->s)), 0);
}

static bool flink_rows(SinkCtx *k, const WChunk *c, const WTimeZone *tz);

static bool sk_rows(void *ctx, const WChunk *c)
{
    SinkCtx *k = ctx;
    Op *op = k->op;
    WGateway *g = op->sess->g;
    const WTimeZone *tz = wsession_time_zone(op->sess->s);
    if (op->flink) return flink_rows(k, c, tz);
    json_t *kinds = json_array(), *data = json_array();
    WStrBuf cell;
    wsb_init(&cell);
    for (int r = 0; r < c->nrows; r++) {
        json_array_append_new(kinds, json_string(wrowkind_short((WRowKind)c->kinds[r])));
        json_t *row = json_array();
        for (int col = 0; col < c->ncols; col++) {
            const WVector *v = &c->cols[col];
            if (v->nulls && v->nulls[r]) {
                json_array_append_new(row, json_null());
                continue;
            }
            wsb_clear(&cell);
            wfmt_sql(c->types[col], v->data[r], false, tz, &cell);
            json_t *js = json_stringn(cell.buf ? cell.buf : "", cell.len);
            json_array_append_new(row, js ? js : json_string("?"));
        }
        json_array_append_new(data, row);
    }
    wsb_free(&cell);
    pthread_mutex_lock(&g->mu);
    push_event(g, op, json_pack("{s:s, s:o, s:o}", "type", "rows", "kinds", kinds, "data", data), c->nrows);
    /* a slow client: wait (bounded by cancellation) until it fetched enough */
    while (op->pending_rows > MAX_PENDING_ROWS && !op->cancel && !op->sess->closing && !g->stopping)
        pthread_cond_wait(&g->cv, &g->mu);
    bool go_on = !op->cancel && !op->sess->closing && !g->stopping;
    pthread_mutex_unlock(&g->mu);
    return go_on;
}

/* The running query's job id: the registry's entry run by this operation's thread. */
static void find_query_job(WGateway *g, Op *op)
{
    if (op->fjob[0] || !op->tid) return;
    wregistry_lock(g->reg);
    for (int i = g->reg->n - 1; i >= 0; i--) {
        const WRegJob *j = g->reg->jobs[i];
        if (j->owner_tid == op->tid && j->start_ms >= op->start_ms) {
            snprintf(op->fjob, sizeof op->fjob, "%s", j->id);
            break;
        }
    }
    wregistry_unlock(g->reg);
}

/* Flink's protocol: one event per row; waits for a slow client as sk_rows does. */
static bool flink_rows(SinkCtx *k, const WChunk *c, const WTimeZone *tz)
{
    Op *op = k->op;
    WGateway *g = op->sess->g;
    /* each row in both of Flink's row formats: JSON (typed values) and PLAIN_TEXT (the values cast
       to STRING, as Flink's sql-client asks for them) */
    json_t *rows = json_array();
    WStrBuf cell;
    wsb_init(&cell);
    for (int r = 0; r < c->nrows; r++) {
        json_t *fields = json_array(), *texts = json_array();
        for (int col = 0; col < c->ncols; col++) {
            const WVector *v = &c->cols[col];
            bool null = v->nulls && v->nulls[r];
            json_array_append_new(fields, wflink_value(c->types[col], v->data[r], null, tz));
            if (null) {
                json_array_append_new(texts, json_null());
                continue;
            }
            wsb_clear(&cell);
            wfmt_sql(c->types[col], v->data[r], false, tz, &cell);
            json_array_append_new(texts, json_stringn(cell.buf ? cell.buf : "", cell.len));
        }
        json_array_append_new(rows, json_pack("{s:s, s:o, s:o}", "kind", wflink_row_kind((WRowKind)c->kinds[r]),
                                              "fields", fields, "text", texts));
    }
    wsb_free(&cell);
    pthread_mutex_lock(&g->mu);
    find_query_job(g, op);
    push_event(g, op, json_pack("{s:o}", "data", rows), c->nrows);
    while (op->pending_rows > MAX_PENDING_ROWS && !op->cancel && !op->sess->closing && !g->stopping)
        pthread_cond_wait(&g->cv, &g->mu);
    bool go_on = !op->cancel && !op->sess->closing && !g->stopping;
    pthread_mutex_unlock(&g->mu);
    return go_on;
}

static void sk_close(void *ctx, bool ok)
{
    SinkCtx *k = ctx;
    if (k->op->flink) {
        WGateway *g = k->op->sess->g;
        pthread_mutex_lock(&g->mu);
        find_query_job(g, k->op);
        pthread_mutex_unlock(&g->mu);
        return;
    }
    emit(k->op, json_pack("{s:s, s:b}", "type", "close", "ok", ok), 0);
}

static void sk_submitted(void *ctx, const char *job_id, bool sync)
{
    SinkCtx *k = ctx;
    if (k->op->flink) {
        WGateway *g = k->op->sess->g;
        pthread_mutex_lock(&g->mu);
        snprintf(k->op->fjob, sizeof k->op->fjob, "%s", job_id);
        pthread_mutex_unlock(&g->mu);
        return;
    }
    emit(k->op, json_pack("{s:s, s:s, s:b}", "type", "submitted", "jobId", job_id, "sync", sync), 0);
}

/* ------------------------------------------------------------------ SHOW JOBS / STOP JOB */

typedef struct Tok {
    char text[128];
    bool str;                   /* a '...' literal */
} Tok;

/* Split into at most max tokens (words, string literals, ';'); -1 if something else appears. */
static int tokenize(const char *s, Tok *out, int max)
{
    int n = 0;
    const char *p = s;
    while (*p) {
        if (isspace((unsigned char)*p)) { p++; continue; }
        if (p[0] == '-' && p[1] == '-') { while (*p && *p != '\n') p++; continue; }
        if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            if (!e) return -1;
            p = e + 2;
            continue;
        }
        if (n == max) return -1;
        Tok *t = &out[n];
        memset(t, 0, sizeof *t);
        size_t k = 0;
        if (*p == '\'') {
            t->str = true;
            p++;
            for (;;) {
                if (!*p) return -1;
                if (*p == '\'') {
                    if (p[1] == '\'') { p += 2; if (k + 1 < sizeof t->text) t->text[k++] = '\''; continue; }
                    p++;
                    break;
                }
                if (k + 1 < sizeof t->text) t->text[k++] = *p;
                p++;
            }
        } else if (isalpha((unsigned char)*p) || *p == '_') {
            while (isalnum((unsigned char)*p) || *p == '_') {
                if (k + 1 < sizeof t->text) t->text[k++] = (char)toupper((unsigned char)*p);
                p++;
            }
        } else if (*p == ';') {
            t->text[k++] = ';';
            p++;
        } else {
            return -1;
        }
        t->text[k] = 0;
        n++;
    }
    if (n && !strcmp(out[n - 1].text, ";") && !out[n - 1].str) n--;
    return n;
}

static bool kw(const Tok *t, const char *w) { return !t->str && !strcmp(t->text, w); }

/* Java LocalDateTime.toString of epoch ms in the daemon's local time zone. */
static void local_datetime(int64_t ms, char *buf, size_t n)
{
    time_t sec = (time_t)(ms / 1000);
    int milli = (int)(ms % 1000);
    struct tm tm;
    localtime_r(&sec, &tm);
    char base[32];
    strftime(base, sizeof base, "%Y-%m-%dT%H:%M", &tm);
    if (tm.tm_sec == 0 && milli == 0) snprintf(buf, n, "%s", base);
    else if (milli == 0) snprintf(buf, n, "%s:%02d", base, tm.tm_sec);
    else snprintf(buf, n, "%s:%02d.%03d", base, tm.tm_sec, milli);
}

static void result_table(WStmtResult *res, int ncols, const char *const *names)
{
    res->kind = WSR_TABLE;
    res->ncols = ncols;
    res->col_names = wcalloc((size_t)ncols, sizeof(char *));
    for (int i = 0; i < ncols; i++) res->col_names[i] = wstrdup(names[i]);
    res->empty_as_empty_set = true;
}

/* STOP JOB '<id>' WITH SAVEPOINT [WITH DRAIN]: stop-with-savepoint into the session's
   execution.checkpointing.savepoint-dir (state.savepoints.dir); waits for it, as Flink's gateway
   does, and answers a table of its `savepoint path`. */
static bool stop_with_savepoint(WGateway *g, Sess *ss, const char *id, bool drain, WStmtResult *res, WError *err,
                                bool *ok)
{
    const WOptions *o = wsession_config(ss->s);
    const char *dir = o ? wopts_get(o, "execution.checkpointing.savepoint-dir") : NULL;
    if ((!dir || !*dir) && o) dir = wopts_get(o, "state.savepoints.dir");
    wregistry_lock(g->reg);
    WRegJob *j = wregistry_find(g->reg, id);
    WJobState st = j ? j->state : WJS_CREATED;
    wregistry_unlock(g->reg);
    if (!j) {
        *ok = werr_set(err, "org.apache.flink.runtime.messages.FlinkJobNotFoundException", "Could not find Flink job (%s)", id);
        return true;
    }
    if (wjob_state_terminal(st) || st == WJS_CANCELLING) {
        *ok = werr_set(err, WEXC_GATEWAY, "Could not stop job %s: java.lang.IllegalStateException: Job %s is not in state "
                       "RUNNING but %s instead. Aborting stop-with-savepoint.", id, id, wjob_state_name(st));
        return true;
    }
    if (!dir || !*dir) {
        *ok = werr_set(err, "java.lang.IllegalStateException",
                       "No savepoint directory configured. You can either specify a directory while cancelling via "
                       "-s :targetDirectory or configure a cluster-wide default via key "
                       "'execution.checkpointing.savepoint-dir'.");
        return true;
    }
    WError e;
    werr_clear(&e);
    int64_t req = wregistry_savepoint(g->reg, id, dir, true, drain, &e);
    if (req <= 0) {
        *ok = werr_set(err, WEXC_GATEWAY, "Could not stop job %s: %s", id, req < 0 ? "the job is not running." : e.msg);
        return true;
    }
    WCkptRequest q;
    memset(&q, 0, sizeof q);
    for (int waited = 0;; waited += 20) {
        if (!wregistry_savepoint_status(g->reg, id, req, &q)) break;
        if (q.state != WCKPT_REQ_PENDING) break;
        if (waited > 600000) { snprintf(q.failure, sizeof q.failure, "the savepoint did not complete in time."); break; }
        struct timespec ts = {0, 20 * 1000000};
        nanosleep(&ts, NULL);
    }
    if (q.state != WCKPT_REQ_COMPLETED) {
        *ok = werr_set(err, WEXC_GATEWAY, "Could not stop job %s: org.apache.flink.runtime.checkpoint.CheckpointException: %s",
                       id, q.failure[0] ? q.failure : "the savepoint failed.");
        return true;
    }
    static const char *const COLS[] = {"savepoint path"};
    result_table(res, 1, COLS);
    res->nrows = 1;
    res->cells = wcalloc(1, sizeof(char *));
    WStrBuf b;
    wsb_init(&b);
    wsb_printf(&b, "file:%s", q.path);
    res->cells[0] = wsb_detach(&b);
    *ok = true;
    return true;
}

/* Returns true when the statement was a job statement (handled: *ok and res/err set). */
static bool job_statement(WGateway *g, Sess *ss, const char *stmt, WStmtResult *res, WError *err, bool *ok)
{
    Tok t[8];
    int n = tokenize(stmt, t, 8);
    if (n < 2) return false;
    if (n == 2 && kw(&t[0], "SHOW") && kw(&t[1], "JOBS")) {
        static const char *const COLS[] = {"job id", "job name", "status", "start time"};
        result_table(res, 4, COLS);
        wregistry_lock(g->reg);
        res->nrows = g->reg->n;
        res->cells = wcalloc((size_t)(res->nrows ? res->nrows : 1) * 4, sizeof(char *));
        for (int i = 0; i < g->reg->n; i++) {
            const WRegJob *j = g->reg->jobs[i];
            char when[40];
            local_datetime(j->start_ms, when, sizeof when);
            res->cells[i * 4 + 0] = wstrdup(j->id);
            res->cells[i * 4 + 1] = wstrdup(j->name);
            res->cells[i * 4 + 2] = wstrdup(wjob_state_name(j->state));
            res->cells[i * 4 + 3] = wstrdup(when);
        }
        wregistry_unlock(g->reg);
        *ok = true;
        return true;
    }
    if (kw(&t[0], "STOP") && kw(&t[1], "JOB")) {
        if (n < 3 || !t[2].str) return false;   /* let the parser report it */
        bool savepoint = false, drain = false;
        for (int i = 3; i < n; i += 2) {
            if (i + 1 >= n || !kw(&t[i], "WITH")) return false;
            if (kw(&t[i + 1], "SAVEPOINT")) savepoint = true;
            else if (kw(&t[i + 1], "DRAIN")) drain = true;
            else return false;
        }
        const char *id = t[2].text;
        if (savepoint) return stop_with_savepoint(g, ss, id, drain, res, err, ok);
        wregistry_lock(g->reg);
        WRegJob *j = wregistry_find(g->reg, id);
        WJobState st = j ? j->state : WJS_CREATED;
        wregistry_unlock(g->reg);
        if (!j) {
            *ok = werr_set(err, "org.apache.flink.runtime.messages.FlinkJobNotFoundException",
                           "Could not find Flink job (%s)", id);
        } else if (wjob_state_terminal(st)) {
            *ok = werr_set(err, "org.apache.flink.runtime.messages.FlinkJobTerminatedWithoutCancellationException",
                           "Flink job (%s) was not canceled, but instead %s.", id, wjob_state_name(st));
        } else {
            wregistry_cancel(g->reg, id);
            res->kind = WSR_OK;
            *ok = true;
        }
        (void)ss;
        return true;
    }
    return false;
}

/* ------------------------------------------------------------------ statements */

/* DROP / ALTER of a table, view or database: what would free table definitions a job reads. */
static bool changes_tables(const char *stmt)
{
    Tok t[2];
    Tok all[64];
    int n = tokenize(stmt, all, 64);
    if (n < 2) {
        /* tokenize gives up on anything but words and strings: look at the first two words only */
        const char *p = stmt;
        int k = 0;
        while (*p && k < 2) {
            while (*p && !isalpha((unsigned char)*p)) {
                if (p[0] == '-' && p[1] == '-') { while (*p && *p != '\n') p++; continue; }
                if (!isspace((unsigned char)*p)) return false;
                p++;
            }
            size_t len = 0;
            while (isalnum((unsigned char)p[len]) || p[len] == '_') len++;
            if (!len) break;
            if (len >= sizeof t[k].text) len = sizeof t[k].text - 1;
            for (size_t i = 0; i < len; i++) t[k].text[i] = (char)toupper((unsigned char)p[i]);
            t[k].text[len] = 0;
            t[k].str = false;
            k++;
            p += len;
        }
        if (k < 2) return false;
    } else {
        t[0] = all[0];
        t[1] = all[1];
    }
    if (!kw(&t[0], "DROP") && !kw(&t[0], "ALTER")) return false;
    return kw(&t[1], "TABLE") || kw(&t[1], "TEMPORARY") || kw(&t[1], "VIEW") || kw(&t[1], "DATABASE") ||
           kw(&t[1], "CATALOG");
}

/* Background jobs of the session that are still alive. */
static bool live_jobs(WGateway *g, Sess *ss)
{
    pthread_mutex_lock(&g->mu);
    int n = ss->njobs;
    char (*ids)[33] = n ? wmalloc(sizeof *ids * (size_t)n) : NULL;
    if (n) memcpy(ids, ss->jobs, sizeof *ids * (size_t)n);
    pthread_mutex_unlock(&g->mu);
    bool alive = false;
    for (int i = 0; i < n && !alive; i++) alive = !wregistry_released(g->reg, ids[i]);
    free(ids);
    return alive;
}

static json_t *error_json(const WError *e)
{
    return json_pack("{s:s, s:s, s:i, s:i, s:s, s:I}", "class", e->cls[0] ? e->cls : WEXC_TABLE, "message", e->msg,
                     "line", e->line, "col", e->col, "file", e->file, "fileLine", (json_int_t)e->file_line);
}

static const char *kind_name(WStmtResultKind k)
{
    switch (k) {
    case WSR_OK: return "OK";
    case WSR_MESSAGE: return "MESSAGE";
    case WSR_TABLE: return "TABLE";
    case WSR_TEXT: return "TEXT";
    case WSR_QUERY_DONE: return "QUERY_DONE";
    case WSR_JOB_SUBMITTED: return "JOB_SUBMITTED";
    case WSR_JOB_COMPLETED: return "JOB_COMPLETED";
    case WSR_QUIT: return "QUIT";
    }
    return "OK";
}

static json_t *result_json(const WStmtResult *r)
{
    json_t *o = json_pack("{s:s}", "kind", kind_name(r->kind));
    if (r->message) json_object_set_new(o, "message", json_string(r->message));
    if (r->job_id[0]) json_object_set_new(o, "jobId", json_string(r->job_id));
    if (r->kind == WSR_TABLE) {
        json_t *cols = json_array(), *rows = json_array();
        for (int i = 0; i < r->ncols; i++) json_array_append_new(cols, json_string(r->col_names[i] ? r->col_names[i] : ""));
        for (int i = 0; i < r->nrows; i++) {
            json_t *row = json_array();
            for (int c = 0; c < r->ncols; c++) {
                const char *v = r->cells ? r->cells[i * r->ncols + c] : NULL;
                json_array_append_new(row, v ? json_string(v) : json_null());
            }
            json_array_append_new(rows, row);
        }
        json_object_set_new(o, "columns", cols);
        json_object_set_new(o, "rows", rows);
        json_object_set_new(o, "emptyAsEmptySet", json_boolean(r->empty_as_empty_set));
    }
    return o;
}

static bool set_property(WSession *s, const char *k, const char *v, WError *err);

/* Run a SET / RESET on the session (the statement's executionConfig and its restoring). */
static void set_or_reset(WSession *s, const char *k, const char *v)
{
    WError e;
    werr_clear(&e);
    if (v) {
        set_property(s, k, v, &e);
        return;
    }
    WStrBuf sql;
    wsb_init(&sql);
    wsb_append(&sql, "RESET '");
    for (const char *p = k; *p; p++) { if (*p == '\'') wsb_putc(&sql, '\''); wsb_putc(&sql, *p); }
    wsb_putc(&sql, '\'');
    WStmtResult res;
    memset(&res, 0, sizeof res);
    wsession_execute(s, sql.buf, NULL, &res, &e);
    wstmt_result_free(&res);
    wsb_free(&sql);
}

/* (locked) Flink's result set of a finished statement that was not a query. */
static void flink_finish(Op *op, bool ok, const WStmtResult *res, const WError *err)
{
    if (!ok) {
        op->ferr = wflink_error_body("org.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to fetchResults.",
                                     err->cls[0] ? err->cls : WEXC_TABLE, err->msg);
        return;
    }
    if (op->fquery) return;
    json_t *cols = json_array(), *rows = json_array();
    op->fkind = "SUCCESS_WITH_CONTENT";
    switch (res->kind) {
    case WSR_TABLE:
        for (int i = 0; i < res->ncols; i++) json_array_append_new(cols, wflink_string_column(res->col_names[i] ? res->col_names[i] : ""));
        for (int r = 0; r < res->nrows; r++) {
            json_t *f = json_array();
            for (int c = 0; c < res->ncols; c++) {
                const char *v = res->cells ? res->cells[r * res->ncols + c] : NULL;
                json_array_append_new(f, v ? json_string(v) : json_null());
            }
            json_array_append_new(rows, json_pack("{s:s, s:o}", "kind", "INSERT", "fields", f));
        }
        break;
    case WSR_TEXT:
        json_array_append_new(cols, wflink_string_column("result"));
        json_array_append_new(rows, json_pack("{s:s, s:[s]}", "kind", "INSERT", "fields", res->message ? res->message : ""));
        break;
    case WSR_JOB_SUBMITTED: case WSR_JOB_COMPLETED:
        if (res->job_id[0]) snprintf(op->fjob, sizeof op->fjob, "%s", res->job_id);
        json_array_append_new(cols, wflink_string_column("job id"));
        json_array_append_new(rows, json_pack("{s:s, s:[s]}", "kind", "INSERT", "fields", op->fjob));
        break;
    default:
        op->fkind = "SUCCESS";
        json_array_append_new(cols, wflink_string_column("result"));
        json_array_append_new(rows, json_pack("{s:s, s:[s]}", "kind", "INSERT", "fields", "OK"));
        break;
    }
    op->fcols = cols;
    long n = (long)json_array_size(rows);
    json_array_append_new(op->events, json_pack("{s:o}", "data", rows));
    op->pending_rows += n;
}

static void *op_thread(void *arg)
{
    Op *op = arg;
    Sess *ss = op->sess;
    WGateway *g = ss->g;
    pthread_setname_np(pthread_self(), "weir-sql");
    pthread_mutex_lock(&g->mu);
    op->tid = (pid_t)syscall(SYS_gettid);
    pthread_mutex_unlock(&g->mu);

    pthread_mutex_lock(&ss->run_mu);
    WStmtResult res;
    memset(&res, 0, sizeof res);
    WError err;
    werr_clear(&err);
    bool ok = false;
    bool cancelled_early;
    pthread_mutex_lock(&g->mu);
    cancelled_early = op->cancel || ss->closing || g->stopping;
    pthread_mutex_unlock(&g->mu);
    if (cancelled_early) {
        werr_set(&err, WEXC_GATEWAY, "The statement was cancelled before it ran.");
    } else if (changes_tables(op->stmt) && live_jobs(g, ss)) {
        /* the session's running jobs read its table definitions */
        werr_set(&err, WEXC_VALIDATION,
                 "A job submitted from this session is still running and reads the tables of this session: "
                 "weir cannot drop or alter them meanwhile. Stop the job first (SHOW JOBS; STOP JOB '<id>').");
    } else if (!job_statement(g, ss, op->stmt, &res, &err, &ok)) {
        SinkCtx k = {.op = op};
        WResultSink sink = {.ctx = &k, .open = sk_open, .rows = sk_rows, .close = sk_close,
                            .submitted = sk_submitted};
        /* executionConfig: the statement runs with these options, the session keeps its own */
        json_t *saved = json_object();
        const char *key;
        json_t *val;
        bool cfg_ok = true;
        json_object_foreach(op->exec_config, key, val) {
            const char *old = wsession_get(ss->s, key, NULL);
            json_object_set_new(saved, key, old ? json_string(old) : json_null());
            if (cfg_ok && !set_property(ss->s, key, json_string_value(val), &err)) cfg_ok = false;
        }
        if (cfg_ok) ok = wsession_execute(ss->s, op->stmt, &sink, &res, &err);
        json_object_foreach(saved, key, val) set_or_reset(ss->s, key, json_string_value(val));
        json_decref(saved);
    }
    if (ok && res.kind == WSR_JOB_SUBMITTED && res.job_id[0]) {
        pthread_mutex_lock(&g->mu);
        ss->jobs = wrealloc(ss->jobs, sizeof *ss->jobs * (size_t)(ss->njobs + 1));
        snprintf(ss->jobs[ss->njobs++], 33, "%s", res.job_id);
        pthread_mutex_unlock(&g->mu);
    }
    json_t *ev = json_pack("{s:s, s:b, s:o}", "type", "result", "ok", ok, "client", client_config(ss->s));
    if (ok) json_object_set_new(ev, "result", result_json(&res));
    else json_object_set_new(ev, "error", error_json(&err));
    if (ok && (res.kind == WSR_QUERY_DONE || res.kind == WSR_JOB_COMPLETED)) {
        const char *rep = wsession_last_job_report(ss->s);
        if (rep) json_object_set_new(ev, "jobReport", json_string(rep));
    }
    pthread_mutex_unlock(&ss->run_mu);

    pthread_mutex_lock(&g->mu);
    if (op->flink) {
        json_decref(ev);
        flink_finish(op, ok, &res, &err);
        pthread_cond_broadcast(&g->cv);
    } else {
        push_event(g, op, ev, 0);
    }
    wstmt_result_free(&res);
    op->done = true;
    op->status = op->cancel ? OP_CANCELED : ok ? OP_FINISHED : OP_ERROR;
    op->tid = 0;
    ss->busy--;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

/* ------------------------------------------------------------------ sessions */

/* (locked) */
static Sess *find_session(WGateway *g, const char *id)
{
    for (int i = 0; i < g->nsess; i++)
        if (!strcmp(g->sessions[i]->id, id) && !g->sessions[i]->closing) return g->sessions[i];
    return NULL;
}

static Op *find_op(Sess *ss, const char *id)
{
    for (Op *o = ss->ops; o; o = o->next)
        if (!strcmp(o->id, id)) return o;
    return NULL;
}

/* (locked) Cancel an operation and the job running in its thread. */
static void cancel_op(WGateway *g, Op *op)
{
    op->cancel = true;
    if (op->tid && !op->done) {
        wregistry_lock(g->reg);
        char ids[16][33];
        int n = 0;
        for (int i = 0; i < g->reg->n && n < 16; i++) {
            const WRegJob *j = g->reg->jobs[i];
            if (j->tid == op->tid && !wjob_state_terminal(j->state)) snprintf(ids[n++], 33, "%s", j->id);
        }
        wregistry_unlock(g->reg);
        for (int i = 0; i < n; i++) wregistry_cancel(g->reg, ids[i]);
    }
    pthread_cond_broadcast(&g->cv);
}

static void free_op(Op *op)
{
    if (op->has_thread) pthread_join(op->thread, NULL);
    json_decref(op->events);
    json_decref(op->exec_config);
    json_decref(op->fcols);
    json_decref(op->ferr);
    free(op->stmt);
    free(op);
}

/* (locked) Close an operation: cancel it if it runs, unlink it from its session and free it
   (the lock is released while its thread is joined; the session stays pinned by busy). */
static void close_op_locked(WGateway *g, Sess *ss, Op *op)
{
    if (!op->done) cancel_op(g, op);
    Op **pp = &ss->ops;
    while (*pp != op) pp = &(*pp)->next;
    *pp = op->next;
    ss->nops--;
    ss->busy++;
    pthread_mutex_unlock(&g->mu);
    free_op(op);
    pthread_mutex_lock(&g->mu);
    ss->busy--;
    pthread_cond_broadcast(&g->cv);
}

static void reap_zombies(WGateway *g);

/* Remove a session from the list (locked), wait for its users, then free it once its background
   jobs are gone (see reap_zombies). */
static void close_session_locked(WGateway *g, Sess *ss)
{
    ss->closing = true;
    for (int i = 0; i < g->nsess; i++) {
        if (g->sessions[i] == ss) {
            g->sessions[i] = g->sessions[--g->nsess];
            break;
        }
    }
    for (Op *o = ss->ops; o; o = o->next) cancel_op(g, o);
    while (ss->busy > 0) pthread_cond_wait(&g->cv, &g->mu);
    Op *ops = ss->ops;
    ss->ops = NULL;
    pthread_mutex_unlock(&g->mu);
    while (ops) {
        Op *next = ops->next;
        free_op(ops);
        ops = next;
    }
    pthread_mutex_lock(&g->mu);
    g->zombies = wrealloc(g->zombies, sizeof(Sess *) * (size_t)(g->nzombies + 1));
    g->zombies[g->nzombies++] = ss;
    reap_zombies(g);
}

/* Free closed sessions none of whose jobs is still alive (locked; unlocks while freeing). */
static void reap_zombies(WGateway *g)
{
    for (int i = 0; i < g->nzombies; i++) {
        Sess *ss = g->zombies[i];
        bool alive = false;
        for (int k = 0; k < ss->njobs && !alive; k++) alive = !wregistry_released(g->reg, ss->jobs[k]);
        if (alive) continue;
        g->zombies[i--] = g->zombies[--g->nzombies];
        pthread_mutex_unlock(&g->mu);
        wsession_free(ss->s);
        pthread_mutex_destroy(&ss->run_mu);
        free(ss->jobs);
        free(ss);
        pthread_mutex_lock(&g->mu);
    }
}

static bool set_property(WSession *s, const char *k, const char *v, WError *err)
{
    WStrBuf sql;
    wsb_init(&sql);
    wsb_append(&sql, "SET '");
    for (const char *p = k; *p; p++) { if (*p == '\'') wsb_putc(&sql, '\''); wsb_putc(&sql, *p); }
    wsb_append(&sql, "' = '");
    for (const char *p = v; *p; p++) { if (*p == '\'') wsb_putc(&sql, '\''); wsb_putc(&sql, *p); }
    wsb_putc(&sql, '\'');
    WStmtResult res;
    bool ok = wsession_execute(s, sql.buf, NULL, &res, err);
    wstmt_result_free(&res);
    wsb_free(&sql);
    return ok;
}

static bool job_key(const char *k)
{
    static const char *const PREFIXES[] = {"parallelism.", "pipeline.", "state.", "execution.", "table.",
                                           "sql-client."};
    for (size_t i = 0; i < sizeof PREFIXES / sizeof PREFIXES[0]; i++)
        if (!strncmp(k, PREFIXES[i], strlen(PREFIXES[i]))) return true;
    return false;
}

/* Close sessions idle for longer than the timeout (locked). */
static void reap_idle(WGateway *g)
{
    int64_t now = now_ms();
    for (int i = 0; i < g->nsess; i++) {
        Sess *ss = g->sessions[i];
        bool running = false;
        for (Op *o = ss->ops; o; o = o->next) running |= !o->done;
        if (!running && ss->busy == 0 && now - ss->last_access > g->idle_ms) {
            fprintf(stderr, "weir: closing idle SQL gateway session %s\n", ss->id);
            close_session_locked(g, ss);
            i = -1;     /* the list changed */
        }
    }
}

static int open_session(WGateway *g, json_t *body, json_t **out)
{
    json_t *props = body ? json_object_get(body, "properties") : NULL;
    if (props && !json_is_object(props)) {
        *out = wgateway_error("Bad request: \"properties\" must be an object of strings.");
        return 400;
    }
    json_t *verbose = body ? json_object_get(body, "verbose") : NULL;
    pthread_mutex_lock(&g->mu);
    reap_idle(g);
    if (g->nsess >= MAX_SESSIONS) {
        pthread_mutex_unlock(&g->mu);
        *out = wgateway_error("Too many open SQL gateway sessions (%d). Close one first.", MAX_SESSIONS);
        return 429;
    }
    pthread_mutex_unlock(&g->mu);

    WSession *s = wsession_new(g->print_out);
    if (!s) {
        *out = wgateway_error("Could not create a session.");
        return 500;
    }
    wsession_set_executor(s, wregistry_executor(g->reg));
    if (verbose && json_is_true(verbose)) wsession_set_verbose(s, true);
    WError err;
    werr_clear(&err);
    if (g->cfg) {
        for (int i = 0; i < g->cfg->opts.n; i++) {
            const WOption *o = &g->cfg->opts.items[i];
            if (job_key(o->key) && !set_property(s, o->key, o->value, &err)) {
                fprintf(stderr, "weir: ignoring cluster option %s: %s\n", o->key, err.msg);
                werr_clear(&err);
            }
        }
    }
    if (props) {
        const char *k;
        json_t *v;
        json_object_foreach(props, k, v) {
            if (!json_is_string(v) || !set_property(s, k, json_string_value(v), &err)) {
                wsession_free(s);
                *out = wgateway_error("Bad session property '%s': %s", k,
                                      json_is_string(v) ? err.msg : "the value must be a string");
                return 400;
            }
        }
    }
    /* the catalog store named by the cluster configuration or the properties (Flink builds the
       session's catalog manager from them when the session opens) */
    if (!wsession_open_catalog_store(s, &err)) {
        wsession_free(s);
        *out = wgateway_error("Could not open the catalog store: %s", err.msg);
        return 400;
    }
    Sess *ss = wcalloc(1, sizeof *ss);
    ss->g = g;
    ss->s = s;
    pthread_mutex_init(&ss->run_mu, NULL);
    pthread_mutex_lock(&g->mu);
    if (g->nsess >= MAX_SESSIONS || g->stopping) {
        pthread_mutex_unlock(&g->mu);
        wsession_free(s);
        pthread_mutex_destroy(&ss->run_mu);
        free(ss);
        *out = wgateway_error("Too many open SQL gateway sessions (%d). Close one first.", MAX_SESSIONS);
        return 429;
    }
    new_uuid(g, ss->id);
    ss->last_access = now_ms();
    g->sessions[g->nsess++] = ss;
    *out = json_pack("{s:s}", "sessionHandle", ss->id);
    pthread_mutex_unlock(&g->mu);
    return 200;
}

static int submit_statement(WGateway *g, Sess *ss, json_t *body, json_t **out, bool flink)
{
    json_t *st = body ? json_object_get(body, "statement") : NULL;
    if (!st || !json_is_string(st)) {
        *out = wgateway_error("Bad request: the body must be {\"statement\": \"<SQL>\"}.");
        return 400;
    }
    json_t *xc = body ? json_object_get(body, "executionConfig") : NULL;
    if (xc && !json_is_null(xc)) {
        const char *k;
        json_t *v;
        bool strings = json_is_object(xc);
        if (strings) json_object_foreach(xc, k, v) strings &= json_is_string(v);
        if (!strings) {
            *out = wgateway_error("Bad request: \"executionConfig\" must be an object of strings.");
            return 400;
        }
    } else {
        xc = NULL;
    }
    /* drop finished operations beyond the limit (oldest first) */
    if (ss->nops >= MAX_OPS_PER_SESSION) {
        Op **pp = &ss->ops, *victim = NULL, **vpp = NULL;
        for (; *pp; pp = &(*pp)->next)
            if ((*pp)->done) { victim = *pp; vpp = pp; }
        if (!victim) {
            *out = wgateway_error("Too many running operations in session %s.", ss->id);
            return 429;
        }
        *vpp = victim->next;
        ss->nops--;
        pthread_mutex_unlock(&g->mu);
        free_op(victim);
        pthread_mutex_lock(&g->mu);
    }
    Op *op = wcalloc(1, sizeof *op);
    op->sess = ss;
    op->stmt = wstrdup(json_string_value(st));
    op->events = json_array();
    op->flink = flink;
    op->start_ms = now_ms();
    op->exec_config = xc ? json_deep_copy(xc) : json_object();
    op->status = OP_RUNNING;
    new_uuid(g, op->id);
    ss->busy++;
    if (pthread_create(&op->thread, NULL, op_thread, op) != 0) {
        ss->busy--;
        json_decref(op->events);
        json_decref(op->exec_config);
        free(op->stmt);
        free(op);
        *out = wgateway_error("Could not start the statement: out of threads.");
        return 503;
    }
    op->has_thread = true;
    op->next = ss->ops;
    ss->ops = op;
    ss->nops++;
    *out = json_pack("{s:s}", "operationHandle", op->id);
    return 200;
}

static long query_long(const char *query, const char *key, long dflt)
{
    if (!query) return dflt;
    size_t kl = strlen(key);
    for (const char *p = query; p && *p;) {
        if (!strncmp(p, key, kl) && p[kl] == '=') {
            char *end;
            long v = strtol(p + kl + 1, &end, 10);
            return end == p + kl + 1 ? dflt : v;
        }
        p = strchr(p, '&');
        if (p) p++;
    }
    return dflt;
}

/* (locked) GET .../result/:token */
static int fetch(WGateway *g, Sess *ss, Op *op, const char *token_s, const char *query, json_t **out)
{
    char *end;
    errno = 0;
    long token = strtol(token_s, &end, 10);
    if (*end || end == token_s || errno || token < 0) {
        *out = wgateway_error("Bad request: the result token must be a number, not '%s'.", token_s);
        return 400;
    }
    long have = op->base + (long)json_array_size(op->events);
    if (token < op->base || token > have) {
        *out = wgateway_error("Bad request: result token %ld is out of range (expected %ld..%ld).", token, op->base,
                              have);
        return 400;
    }
    /* acknowledge what the client has */
    long drop = token - op->base;
    for (long i = 0; i < drop; i++) {
        json_t *ev = json_array_get(op->events, 0);
        json_t *rows = json_object_get(ev, "data");
        if (rows) op->pending_rows -= (long)json_array_size(rows);
        json_array_remove(op->events, 0);
    }
    op->base = token;
    if (drop) pthread_cond_broadcast(&g->cv);
    long wait = query_long(query, "wait", 1000);
    if (wait < 0) wait = 0;
    if (wait > 5000) wait = 5000;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += wait / 1000;
    until.tv_nsec += (wait % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) { until.tv_sec++; until.tv_nsec -= 1000000000L; }
    while (json_array_size(op->events) == 0 && !op->done && !ss->closing && !g->stopping) {
        if (pthread_cond_timedwait(&g->cv, &g->mu, &until) == ETIMEDOUT) break;
    }
    json_t *evs = json_array();
    size_t n = json_array_size(op->events);
    if (n > MAX_EVENTS_PER_FETCH) n = MAX_EVENTS_PER_FETCH;
    for (size_t i = 0; i < n; i++) json_array_append(evs, json_array_get(op->events, i));
    long next = token + (long)n;
    const char *type = n ? "PAYLOAD" : op->done ? "EOS" : "NOT_READY";
    char uri[200];
    snprintf(uri, sizeof uri, "/v1/sessions/%s/operations/%s/result/%ld", ss->id, op->id, next);
    *out = json_pack("{s:s, s:o, s:I, s:s?}", "resultType", type, "events", evs, "nextToken", (json_int_t)next,
                     "nextResultUri", strcmp(type, "EOS") ? uri : NULL);
    return 200;
}

int wgateway_handle(WGateway *g, const char *method, const char *path, const char *query, const char *body,
                    size_t body_len, json_t **out)
{
    /* split the path (reentrant: one thread per connection) */
    WRestPath rp;
    int nseg = wrest_path_split(&rp, path, 8);
    if (nseg < 0) {
        *out = wgateway_error("Not found: /v1%.200s", path);
        return 404;
    }
    char **seg = rp.seg;
    json_t *jb = NULL;
    if (body_len) {
        json_error_t je;
        jb = json_loadb(body, body_len, JSON_REJECT_DUPLICATES, &je);
        if (!jb || !json_is_object(jb)) {
            json_decref(jb);
            *out = wgateway_error("Bad request: the body is not a JSON object (%s at line %d, column %d).",
                                  jb ? "not an object" : je.text, je.line, je.column);
            return 400;
        }
    }
    pthread_mutex_lock(&g->mu);
    reap_zombies(g);
    pthread_mutex_unlock(&g->mu);
    bool is_get = !strcmp(method, "GET"), is_post = !strcmp(method, "POST"), is_del = !strcmp(method, "DELETE");
    int status = 404;
    *out = NULL;
    if (nseg < 1 || strcmp(seg[0], "sessions") != 0) goto not_found;
    if (nseg == 1) {
        if (!is_post) goto bad_method;
        status = open_session(g, jb, out);
        goto done;
    }
    if (!is_uuid(seg[1])) {
        *out = wgateway_error("Bad request: '%s' is not a session handle.", seg[1]);
        status = 400;
        goto done;
    }
    pthread_mutex_lock(&g->mu);
    Sess *ss = find_session(g, seg[1]);
    if (!ss) {
        pthread_mutex_unlock(&g->mu);
        *out = wgateway_error("Session '%s' does not exist.", seg[1]);
        status = 404;
        goto done;
    }
    ss->last_access = now_ms();
    if (nseg == 2) {
        if (is_del) {
            close_session_locked(g, ss);
            *out = json_pack("{s:s}", "status", "CLOSED");
            status = 200;
        } else if (is_get) {
            json_t *props = json_object();
            const WOptions *cfg = wsession_config(ss->s);
            for (int i = 0; i < cfg->n; i++) json_object_set_new(props, cfg->items[i].key, json_string(cfg->items[i].value));
            *out = json_pack("{s:o}", "properties", props);
            status = 200;
        } else {
            pthread_mutex_unlock(&g->mu);
            goto bad_method;
        }
        pthread_mutex_unlock(&g->mu);
        goto done;
    }
    if (nseg == 3 && !strcmp(seg[2], "heartbeat")) {
        pthread_mutex_unlock(&g->mu);
        if (!is_post) goto bad_method;
        *out = json_object();
        status = 200;
        goto done;
    }
    if (nseg == 3 && !strcmp(seg[2], "statements")) {
        if (!is_post) { pthread_mutex_unlock(&g->mu); goto bad_method; }
        status = submit_statement(g, ss, jb, out, false);
        pthread_mutex_unlock(&g->mu);
        goto done;
    }
    if (nseg >= 5 && !strcmp(seg[2], "operations")) {
        if (!is_uuid(seg[3])) {
            pthread_mutex_unlock(&g->mu);
            *out = wgateway_error("Bad request: '%s' is not an operation handle.", seg[3]);
            status = 400;
            goto done;
        }
        Op *op = find_op(ss, seg[3]);
        if (!op) {
            pthread_mutex_unlock(&g->mu);
            *out = wgateway_error("Operation '%s' does not exist in session '%s'.", seg[3], seg[1]);
            status = 404;
            goto done;
        }
        if (nseg == 5 && !strcmp(seg[4], "status")) {
            if (!is_get) { pthread_mutex_unlock(&g->mu); goto bad_method; }
            *out = json_pack("{s:s}", "status", OP_STATUS[op->status]);
            status = 200;
        } else if (nseg == 5 && !strcmp(seg[4], "cancel")) {
            if (!is_post) { pthread_mutex_unlock(&g->mu); goto bad_method; }
            if (!op->done) cancel_op(g, op);
            *out = json_pack("{s:s}", "status", op->done ? OP_STATUS[op->status] : "CANCELED");
            status = 200;
        } else if (nseg == 5 && !strcmp(seg[4], "close")) {
            if (!is_del) { pthread_mutex_unlock(&g->mu); goto bad_method; }
            close_op_locked(g, ss, op);
            *out = json_pack("{s:s}", "status", "CLOSED");
            status = 200;
        } else if (nseg == 6 && !strcmp(seg[4], "result")) {
            if (!is_get) { pthread_mutex_unlock(&g->mu); goto bad_method; }
            ss->busy++;
            status = fetch(g, ss, op, seg[5], query, out);
            ss->busy--;
            ss->last_access = now_ms();
            pthread_cond_broadcast(&g->cv);
        } else {
            pthread_mutex_unlock(&g->mu);
            goto not_found;
        }
        pthread_mutex_unlock(&g->mu);
        goto done;
    }
    pthread_mutex_unlock(&g->mu);
not_found:
    *out = wgateway_error("Not found: /v1%s", path);
    status = 404;
    goto done;
bad_method:
    *out = wgateway_error("Method %s is not allowed for /v1%s.", method, path);
    status = 405;
done:
    json_decref(jb);
    return status;
}

/* ------------------------------------------------------------------ Flink's protocol */

#define FLINK_PAGE_ROWS 1000

/* (locked) GET .../result/:token in Flink's ResultSet format. */
static int flink_fetch(WGateway *g, Sess *ss, Op *op, const char *ver, const char *token_s, const char *query,
                       json_t **out)
{
    char *end;
    errno = 0;
    long token = strtol(token_s, &end, 10);
    long have = op->base + (long)json_array_size(op->events);
    if (*end || end == token_s || errno || token < op->base || token > have) {
        char msg[160];
        snprintf(msg, sizeof msg, "The token %s is not valid: the next token is %ld.", token_s, have);
        *out = wflink_handler_error("Failed to fetchResults.", msg);
        return 500;
    }
    const char *fmt = strstr(query ? query : "", "rowFormat=");
    bool plain = fmt && !strncmp(fmt + 10, "PLAIN_TEXT", 10);
    if (fmt && !plain && strncmp(fmt + 10, "JSON", 4) != 0) {
        *out = wflink_handler_error("Failed to fetchResults.", "The row format must be JSON or PLAIN_TEXT.");
        return 500;
    }
    const char *fmt_name = plain ? "PLAIN_TEXT" : "JSON";
    for (long i = op->base; i < token; i++) {
        json_t *rows = json_object_get(json_array_get(op->events, 0), "data");
        op->pending_rows -= (long)json_array_size(rows);
        json_array_remove(op->events, 0);
    }
    if (token > op->base) pthread_cond_broadcast(&g->cv);
    op->base = token;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 500 * 1000000L;
    if (until.tv_nsec >= 1000000000L) { until.tv_sec++; until.tv_nsec -= 1000000000L; }
    while (json_array_size(op->events) == 0 && !op->done && !ss->closing && !g->stopping) {
        if (pthread_cond_timedwait(&g->cv, &g->mu, &until) == ETIMEDOUT) break;
    }
    size_t n = 0, nrows = 0;
    json_t *data = json_array();
    while (n < json_array_size(op->events) && nrows < FLINK_PAGE_ROWS) {
        json_t *rows = json_object_get(json_array_get(op->events, n), "data");
        size_t i;
        json_t *row;
        json_array_foreach(rows, i, row) {
            json_t *text = json_object_get(row, "text");
            json_array_append_new(data, json_pack("{s:O, s:O}", "kind", json_object_get(row, "kind"), "fields",
                                                  plain && text ? text : json_object_get(row, "fields")));
        }
        nrows += json_array_size(rows);
        n++;
    }
    if (!n && op->done && op->ferr) {
        json_decref(data);
        *out = json_deep_copy(op->ferr);
        return 500;
    }
    char uri[256];
    snprintf(uri, sizeof uri, "/%s/sessions/%s/operations/%s/result/%ld?rowFormat=%s", ver, ss->id, op->id,
             token + (long)n, fmt_name);
    if (!op->fcols) {
        json_decref(data);
        snprintf(uri, sizeof uri, "/%s/sessions/%s/operations/%s/result/%ld?rowFormat=%s", ver, ss->id, op->id,
                 token, fmt_name);
        *out = json_pack("{s:s, s:s}", "resultType", "NOT_READY", "nextResultUri", uri);
        return 200;
    }
    bool eos = !n && op->done && op->fserved;
    op->fserved = true;
    *out = json_pack("{s:s, s:b, s:s, s:{s:O, s:s, s:o}}", "resultType", eos ? "EOS" : "PAYLOAD", "isQueryResult",
                     op->fquery, "resultKind", op->fkind ? op->fkind : "SUCCESS", "results", "columns", op->fcols,
                     "rowFormat", fmt_name, "data", data);
    if (op->fjob[0]) json_object_set_new(*out, "jobID", json_string(op->fjob));
    if (!eos) json_object_set_new(*out, "nextResultUri", json_string(uri));
    return 200;
}

static bool configure_statement(const char *stmt)
{
    static const char *const OK[] = {"SET", "RESET", "CREATE", "DROP", "ALTER", "USE", "LOAD", "UNLOAD", "ADD"};
    const char *p = stmt;
    while (*p && isspace((unsigned char)*p)) p++;
    size_t len = 0;
    while (isalpha((unsigned char)p[len])) len++;
    for (size_t i = 0; i < sizeof OK / sizeof OK[0]; i++)
        if (len == strlen(OK[i]) && !strncasecmp(p, OK[i], len)) return true;
    return false;
}

/* POST .../configure-session {"statement"}: runs a SET / DDL / USE ... in the session at once. */
static int configure_session(WGateway *g, Sess *ss, json_t *body, json_t **out)
{
    json_t *st = body ? json_object_get(body, "statement") : NULL;
    if (!st || !json_is_string(st)) {
        *out = wflink_handler_error("Bad request received.", "The body must be {\"statement\": \"<SQL>\"}.");
        return 400;
    }
    const char *sql = json_string_value(st);
    if (!configure_statement(sql)) {
        WStrBuf m;
        wsb_init(&m);
        wsb_printf(&m, "Unsupported statement for configuring session: %s\nThe configureSession API only supports "
                       "executing statements of type SET, RESET, CREATE TABLE, CREATE VIEW, CREATE DATABASE, CREATE "
                       "FUNCTION, CREATE TEMPORARY SYSTEM FUNCTION, CREATE CATALOG, CREATE MODEL, CREATE MATERIALIZED "
                       "TABLE, DROP TABLE, DROP VIEW, DROP DATABASE, DROP FUNCTION, DROP TEMPORARY SYSTEM FUNCTION, "
                       "DROP CATALOG, DROP MODEL, DROP MATERIALIZED TABLE, ALTER TABLE, ALTER VIEW, ALTER DATABASE, "
                       "ALTER FUNCTION, ALTER CATALOG SET, ALTER CATALOG RESET, ALTER CATALOG COMMENT, ALTER MODEL, "
                       "ALTER MODEL, ALTER MATERIALIZED TABLE, USE CATALOG, USE [CATALOG.]DATABASE, USE MODULES, "
                       "LOAD MODULE, UNLOAD MODULE, ADD JAR.", sql);
        *out = wflink_error_body("Failed to configure session.", "java.lang.UnsupportedOperationException", m.buf);
        wsb_free(&m);
        return 500;
    }
    ss->busy++;
    pthread_mutex_unlock(&g->mu);
    pthread_mutex_lock(&ss->run_mu);
    WStmtResult res;
    memset(&res, 0, sizeof res);
    WError err;
    werr_clear(&err);
    bool ok = wsession_execute(ss->s, sql, NULL, &res, &err);
    wstmt_result_free(&res);
    pthread_mutex_unlock(&ss->run_mu);
    pthread_mutex_lock(&g->mu);
    ss->busy--;
    pthread_cond_broadcast(&g->cv);
    if (!ok) {
        *out = wflink_error_body("Failed to configure session.", err.cls[0] ? err.cls : WEXC_TABLE, err.msg);
        return 500;
    }
    *out = json_object();
    return 200;
}

int wgateway_flink_handle(WGateway *g, const char *method, const char *path, const char *query, const char *body,
                          size_t body_len, json_t **out)
{
    bool is_get = !strcmp(method, "GET"), is_post = !strcmp(method, "POST"), is_del = !strcmp(method, "DELETE");
    *out = NULL;
    if (!strcmp(path, "/api_versions") || (!strncmp(path, "/v", 2) && path[2] >= '1' && path[2] <= '4' &&
                                           !strcmp(path + 3, "/api_versions"))) {
        if (!is_get) goto bad_method;
        *out = json_pack("{s:[s, s, s, s]}", "versions", "V1", "V2", "V3", "V4");
        return 200;
    }
    char ver[3] = "v1";
    const char *rest = path;
    if (path[0] == '/' && path[1] == 'v' && path[2] >= '1' && path[2] <= '4' && (path[3] == '/' || !path[3])) {
        ver[1] = path[2];
        rest = path + 3;
    }
    if (!strcmp(rest, "/info")) {
        if (!is_get) goto bad_method;
        *out = json_pack("{s:s, s:s}", "productName", "Apache Flink", "version", WEIR_FLINK_VERSION);
        return 200;
    }
    if (rest == path) goto not_found;
    WRestPath rp;
    int nseg = wrest_path_split(&rp, rest, 8);
    if (nseg < 1 || strcmp(rp.seg[0], "sessions") != 0) goto not_found;
    char **seg = rp.seg;
    json_t *jb = NULL;
    if (body_len) {
        json_error_t je;
        jb = json_loadb(body, body_len, JSON_REJECT_DUPLICATES, &je);
        if (!jb || !json_is_object(jb)) {
            json_decref(jb);
            *out = json_pack("{s:[s]}", "errors", "Bad request received. Request did not conform to expected format.");
            return 400;
        }
    }
    int status = 404;
    pthread_mutex_lock(&g->mu);
    reap_zombies(g);
    pthread_mutex_unlock(&g->mu);
    if (nseg == 1) {
        if (!is_post) { json_decref(jb); goto bad_method; }
        status = open_session(g, jb, out);
        if (status != 200) {
            json_t *e = *out;
            *out = wflink_handler_error("Failed to openSession.",
                                        json_string_value(json_array_get(json_object_get(e, "errors"), 0)));
            json_decref(e);
            status = 500;
        }
        json_decref(jb);
        return status;
    }
    pthread_mutex_lock(&g->mu);
    Sess *ss = is_uuid(seg[1]) ? find_session(g, seg[1]) : NULL;
    if (!ss) {
        pthread_mutex_unlock(&g->mu);
        json_decref(jb);
        char msg[160];
        snprintf(msg, sizeof msg, "Session '%.60s' does not exist.", seg[1]);
        *out = wflink_handler_error(nseg > 3 && !strcmp(seg[2], "operations") ? "Failed to getOperationInfo."
                                                                             : "Failed to getSessionConfig.", msg);
        return 500;
    }
    ss->last_access = now_ms();
    bool handled = true;
    if (nseg == 2 && is_del) {
        close_session_locked(g, ss);
        *out = json_pack("{s:s}", "status", "CLOSED");
        status = 200;
    } else if (nseg == 2 && is_get) {
        json_t *props = json_object();
        const WOptions *cfg = wsession_config(ss->s);
        for (int i = 0; i < cfg->n; i++) json_object_set_new(props, cfg->items[i].key, json_string(cfg->items[i].value));
        *out = json_pack("{s:o}", "properties", props);
        status = 200;
    } else if (nseg == 3 && !strcmp(seg[2], "heartbeat") && is_post) {
        *out = json_object();
        status = 200;
    } else if (nseg == 3 && !strcmp(seg[2], "complete-statement") && is_get) {
        /* Flink completes from Calcite's SQL advisor; weir has no completion engine: a body-less
           request gets Flink's 400, a real one a clear 500 */
        if (!jb) {
            *out = json_pack("{s:[s]}", "errors", "org.apache.flink.runtime.rest.handler.RestHandlerException: "
                                                  "Bad request received. Request did not conform to expected format.\n"
                                                  "Caused by: org.apache.flink.shaded.jackson2.com.fasterxml.jackson."
                                                  "databind.exc.MismatchedInputException: Cannot map `null` into type "
                                                  "`int` (set DeserializationConfig.DeserializationFeature."
                                                  "FAIL_ON_NULL_FOR_PRIMITIVES to 'false' to allow)");
            status = 400;
        } else {
            *out = wflink_handler_error("Failed to getCompletionHints.",
                                        "weir does not complete statements (complete-statement is not supported).");
            status = 500;
        }
    } else if (nseg == 3 && !strcmp(seg[2], "configure-session") && is_post) {
        status = configure_session(g, ss, jb, out);
    } else if (nseg == 3 && !strcmp(seg[2], "statements") && is_post) {
        status = submit_statement(g, ss, jb, out, true);
        if (status != 200) {
            json_t *e = *out;
            *out = wflink_handler_error("Failed to executeStatement.",
                                        json_string_value(json_array_get(json_object_get(e, "errors"), 0)));
            json_decref(e);
            status = 500;
        }
    } else if (nseg >= 5 && !strcmp(seg[2], "operations")) {
        Op *op = is_uuid(seg[3]) ? find_op(ss, seg[3]) : NULL;
        if (!op || !op->flink) {
            char msg[200];
            snprintf(msg, sizeof msg, "Can not find the submitted operation in the OperationManager with the %.60s.",
                     seg[3]);
            *out = wflink_handler_error(nseg == 6 ? "Failed to fetchResults." : "Failed to getOperationInfo.", msg);
            status = 500;
        } else if (nseg == 5 && !strcmp(seg[4], "status") && is_get) {
            /* a cancelled operation is CANCELED at once, as in Flink, while its thread winds down */
            *out = json_pack("{s:s}", "status", op->cancel ? "CANCELED" : OP_STATUS[op->status]);
            status = 200;
        } else if (nseg == 5 && !strcmp(seg[4], "cancel") && is_post) {
            if (!op->done) cancel_op(g, op);
            *out = json_pack("{s:s}", "status", op->done ? OP_STATUS[op->status] : "CANCELED");
            status = 200;
        } else if (nseg == 5 && !strcmp(seg[4], "close") && is_del) {
            close_op_locked(g, ss, op);
            *out = json_pack("{s:s}", "status", "CLOSED");
            status = 200;
        } else if (nseg == 6 && !strcmp(seg[4], "result") && is_get) {
            ss->busy++;
            status = flink_fetch(g, ss, op, ver, seg[5], query, out);
            ss->busy--;
            ss->last_access = now_ms();
            pthread_cond_broadcast(&g->cv);
        } else {
            handled = false;
        }
    } else {
        handled = false;
    }
    pthread_mutex_unlock(&g->mu);
    json_decref(jb);
    if (handled) return status;
not_found:
    *out = json_pack("{s:[s+]}", "errors", "Not found: ", path);
    return 404;
bad_method:
    *out = json_pack("{s:[s+]}", "errors", "Not found: ", path);
    return 404;
}

/* ------------------------------------------------------------------ lifecycle */

WGateway *wgateway_new(WRegistry *reg, const WClusterConfig *cfg, FILE *print_out)
{
    WGateway *g = wcalloc(1, sizeof *g);
    g->reg = reg;
    g->cfg = cfg;
    g->print_out = print_out ? print_out : stdout;
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    g->rng = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)getpid() << 32) ^ (uint64_t)ts.tv_sec;
    g->idle_ms = 30 * 60 * 1000;
    const char *idle = cfg ? wcluster_get(cfg, "weir.gateway.session-idle-timeout", NULL) : NULL;
    if (idle) {
        WOptions tmp;
        wopts_init(&tmp);
        wopts_set(&tmp, "k", idle);
        int64_t ms = 0;
        WError e;
        werr_clear(&e);
        if (wopts_get_duration_ms(&tmp, "k", 0, &ms, &e) && ms > 0) g->idle_ms = ms;
        wopts_free(&tmp);
    }
    return g;
}

void wgateway_shutdown_begin(WGateway *g)
{
    if (!g) return;
    pthread_mutex_lock(&g->mu);
    g->stopping = true;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

void wgateway_free(WGateway *g)
{
    if (!g) return;
    pthread_mutex_lock(&g->mu);
    g->stopping = true;
    pthread_cond_broadcast(&g->cv);
    while (g->nsess > 0) close_session_locked(g, g->sessions[0]);
    reap_zombies(g);
    if (g->nzombies)
        fprintf(stderr, "weir: %d SQL gateway session(s) kept: their jobs did not stop\n", g->nzombies);
    free(g->zombies);
    pthread_mutex_unlock(&g->mu);
    pthread_cond_destroy(&g->cv);
    pthread_mutex_destroy(&g->mu);
    free(g);
}
