/*
 * gateway.c — SQL gateway sessions and operations: each statement runs in its own thread and its
 * result set is kept as pages for Flink's protocol (flink_gateway.c) to serve. See gateway.h and
 * gateway_internal.h.
 */
#include "gateway_internal.h"
#include "flink_resultset.h"
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

const char *const WGW_OP_STATUS[] = {"RUNNING", "FINISHED", "ERROR", "CANCELED"};

json_t *wgateway_error(const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return json_pack("{s:[s]}", "errors", buf);
}

int64_t wgw_now_ms(void) { return wregistry_now(); }

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

bool wgw_is_uuid(const char *s)
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
/* ------------------------------------------------------------------ the result sink */

typedef struct SinkCtx {
    Op *op;
    int ncols;
} SinkCtx;

static void sk_open(void *ctx, int ncols, const char *const *names, const WType *const *types)
{
    SinkCtx *k = ctx;
    k->ncols = ncols;
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

/* A chunk of rows as one page; a slow client makes the query wait (Flink's collect sink does too). */
static bool sk_rows(void *ctx, const WChunk *c)
{
    SinkCtx *k = ctx;
    Op *op = k->op;
    WGateway *g = op->sess->g;
    const WTimeZone *tz = wsession_time_zone(op->sess->s);
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
    (void)ok;
    WGateway *g = k->op->sess->g;
    pthread_mutex_lock(&g->mu);
    find_query_job(g, k->op);
    pthread_mutex_unlock(&g->mu);
}

static void sk_submitted(void *ctx, const char *job_id, bool sync)
{
    SinkCtx *k = ctx;
    (void)sync;
    WGateway *g = k->op->sess->g;
    pthread_mutex_lock(&g->mu);
    snprintf(k->op->fjob, sizeof k->op->fjob, "%s", job_id);
    pthread_mutex_unlock(&g->mu);
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
                                     err->outer, err->cls[0] ? err->cls : WEXC_TABLE, err->msg);
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
    } else if (wgw_changes_tables(op->stmt) && live_jobs(g, ss)) {
        /* the session's running jobs read its table definitions */
        werr_set(&err, WEXC_VALIDATION,
                 "A job submitted from this session is still running and reads the tables of this session: "
                 "weir cannot drop or alter them meanwhile. Stop the job first (SHOW JOBS; STOP JOB '<id>').");
    } else if (!wgw_job_statement(g, ss->s, op->stmt, &res, &err, &ok)) {
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
    if (ok && res.kind == WSR_OK && res.message && *res.message)   /* a warning: Flink's protocol has no place for it */
        fprintf(stderr, "weir: SQL gateway session %s: [WARNING] %s\n", ss->id, res.message);
    pthread_mutex_unlock(&ss->run_mu);

    pthread_mutex_lock(&g->mu);
    flink_finish(op, ok, &res, &err);
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
Sess *wgw_find_session(WGateway *g, const char *id)
{
    for (int i = 0; i < g->nsess; i++)
        if (!strcmp(g->sessions[i]->id, id) && !g->sessions[i]->closing) return g->sessions[i];
    return NULL;
}

Op *wgw_find_op(Sess *ss, const char *id)
{
    for (Op *o = ss->ops; o; o = o->next)
        if (!strcmp(o->id, id)) return o;
    return NULL;
}

/* (locked) Cancel an operation and the job running in its thread. */
void wgw_cancel_op(WGateway *g, Op *op)
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
void wgw_close_op_locked(WGateway *g, Sess *ss, Op *op)
{
    if (!op->done) wgw_cancel_op(g, op);
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


/* Remove a session from the list (locked), wait for its users, then free it once its background
   jobs are gone (see reap_zombies). */
void wgw_close_session_locked(WGateway *g, Sess *ss)
{
    ss->closing = true;
    for (int i = 0; i < g->nsess; i++) {
        if (g->sessions[i] == ss) {
            g->sessions[i] = g->sessions[--g->nsess];
            break;
        }
    }
    for (Op *o = ss->ops; o; o = o->next) wgw_cancel_op(g, o);
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
    wgw_reap_zombies(g);
}

/* Free closed sessions none of whose jobs is still alive (locked; unlocks while freeing). */
void wgw_reap_zombies(WGateway *g)
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
    int64_t now = wgw_now_ms();
    for (int i = 0; i < g->nsess; i++) {
        Sess *ss = g->sessions[i];
        bool running = false;
        for (Op *o = ss->ops; o; o = o->next) running |= !o->done;
        if (!running && ss->busy == 0 && now - ss->last_access > g->idle_ms) {
            fprintf(stderr, "weir: closing idle SQL gateway session %s\n", ss->id);
            wgw_close_session_locked(g, ss);
            i = -1;     /* the list changed */
        }
    }
}

int wgw_open_session(WGateway *g, json_t *body, json_t **out)
{
    json_t *props = body ? json_object_get(body, "properties") : NULL;
    if (props && !json_is_object(props)) {
        *out = wgateway_error("Bad request: \"properties\" must be an object of strings.");
        return 400;
    }
    /* sessionName: a string; a number or boolean is taken as its text, as Jackson coerces a scalar
       into Flink's String field */
    json_t *name = body ? json_object_get(body, "sessionName") : NULL;
    char name_text[128] = "";
    if (json_is_string(name)) snprintf(name_text, sizeof name_text, "%s", json_string_value(name));
    else if (json_is_integer(name)) snprintf(name_text, sizeof name_text, "%" JSON_INTEGER_FORMAT, json_integer_value(name));
    else if (json_is_real(name)) wfmt_double_java(json_real_value(name), name_text);
    else if (json_is_boolean(name)) snprintf(name_text, sizeof name_text, "%s", json_is_true(name) ? "true" : "false");
    else if (name && !json_is_null(name)) {
        *out = wgateway_error("Bad request: \"sessionName\" must be a string.");
        return 400;
    }
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
    snprintf(ss->name, sizeof ss->name, "%s", name_text);
    ss->last_access = wgw_now_ms();
    g->sessions[g->nsess++] = ss;
    /* as Flink's gateway keeps a session's name in its environment: the log says which it is */
    if (ss->name[0]) fprintf(stderr, "weir: SQL gateway session %s opened with the name '%s'\n", ss->id, ss->name);
    *out = json_pack("{s:s}", "sessionHandle", ss->id);
    pthread_mutex_unlock(&g->mu);
    return 200;
}

int wgw_submit_statement(WGateway *g, Sess *ss, json_t *body, json_t **out)
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
    op->start_ms = wgw_now_ms();
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
    while (g->nsess > 0) wgw_close_session_locked(g, g->sessions[0]);
    wgw_reap_zombies(g);
    if (g->nzombies)
        fprintf(stderr, "weir: %d SQL gateway session(s) kept: their jobs did not stop\n", g->nzombies);
    free(g->zombies);
    pthread_mutex_unlock(&g->mu);
    pthread_cond_destroy(&g->cv);
    pthread_mutex_destroy(&g->mu);
    free(g);
}
