/*
 * gateway_jobs.c — the statements the SQL gateway answers from the job registry rather than the
 * session: SHOW JOBS (job id, job name, status, start time as Flink's gateway lists them) and
 * STOP JOB '<id>' [WITH SAVEPOINT] [WITH DRAIN] (without savepoint it cancels, as Flink does; with
 * one it stops the job with a savepoint into execution.checkpointing.savepoint-dir and answers its
 * `savepoint path`); and the check that a statement drops or alters definitions (the gateway
 * refuses those while a job of the session reads them). See gateway_internal.h.
 * Depends on server/registry, session/.
 */
#include "gateway_internal.h"
#include "../common/strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
static bool stop_with_savepoint(WGateway *g, WSession *s, const char *id, bool drain, WStmtResult *res, WError *err,
                                bool *ok)
{
    const WOptions *o = wsession_config(s);
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
bool wgw_job_statement(WGateway *g, WSession *s, const char *stmt, WStmtResult *res, WError *err, bool *ok)
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
        if (savepoint) return stop_with_savepoint(g, s, id, drain, res, err, ok);
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
        (void)s;
        return true;
    }
    return false;
}


bool wgw_changes_tables(const char *stmt)
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
