/*
 * flink_gateway.c — Flink's SQL Gateway REST protocol over the gateway's sessions and operations
 * (gateway.c): the request router of the SQL gateway endpoint. See gateway.h for the contract
 * (wgateway_flink_handle) and gateway_internal.h for the sessions it works on.
 * Depends on server/gateway (internal), server/flink_resultset, server/rest_path, jansson.
 */
#include "gateway_internal.h"
#include "flink_resultset.h"
#include "flink_version.h"
#include "rest_path.h"
#include "../common/strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <strings.h>
#include <time.h>

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
    for (;;) {      /* whitespace and comments before the first word, as the SQL lexer skips them */
        while (*p && isspace((unsigned char)*p)) p++;
        if ((p[0] == '-' && p[1] == '-') || (p[0] == '/' && p[1] == '/')) {
            while (*p && *p != '\n') p++;
        } else if (p[0] == '/' && p[1] == '*' && p[2] != '+') {
            const char *end = strstr(p + 2, "*/");
            p = end ? end + 2 : p + strlen(p);
        } else {
            break;
        }
    }
    size_t len = 0;
    while (isalpha((unsigned char)p[len])) len++;
    for (size_t i = 0; i < sizeof OK / sizeof OK[0]; i++)
        if (len == strlen(OK[i]) && !strncasecmp(p, OK[i], len)) return true;
    return false;
}

/* POST .../configure-session {"statement"}: runs a SET / DDL / USE ... in the session at once. */
/* GET .../complete-statement: the candidates of Flink's SQL advisor (sql/complete.c); called and
   returns with g->mu held, the session's statements wait meanwhile */
static int complete_statement(WGateway *g, Sess *ss, json_t *body, json_t **out)
{
    json_t *pos = body ? json_object_get(body, "position") : NULL;
    json_t *st = body ? json_object_get(body, "statement") : NULL;
    if (!pos || !json_is_integer(pos)) {
        *out = json_pack("{s:[s]}", "errors", "org.apache.flink.runtime.rest.handler.RestHandlerException: "
                                              "Bad request received. Request did not conform to expected format.\n"
                                              "Caused by: org.apache.flink.shaded.jackson2.com.fasterxml.jackson."
                                              "databind.exc.MismatchedInputException: Cannot map `null` into type "
                                              "`int` (set DeserializationConfig.DeserializationFeature."
                                              "FAIL_ON_NULL_FOR_PRIMITIVES to 'false' to allow)");
        return 400;
    }
    if (!st || !json_is_string(st)) {
        *out = wflink_error_body("Failed to get statement completion candidates.", NULL, "java.lang.NullPointerException",
                                 "The request has no statement.");
        return 500;
    }
    json_int_t p = json_integer_value(pos);
    ss->busy++;
    pthread_mutex_unlock(&g->mu);
    pthread_mutex_lock(&ss->run_mu);
    WArena a;
    warena_init(&a, 0);
    WError err;
    werr_clear(&err);
    char **cand = NULL;
    int n = wsession_complete(ss->s, &a, json_string_value(st), p < INT_MIN || p > INT_MAX ? -1 : (int)p, &cand, &err);
    pthread_mutex_unlock(&ss->run_mu);
    int status = 200;
    if (n < 0) {
        *out = wflink_error_body("Failed to get statement completion candidates.", err.outer, err.cls, err.msg);
        status = 500;
    } else {
        json_t *arr = json_array();
        for (int i = 0; i < n; i++) json_array_append_new(arr, json_string(cand[i]));
        *out = json_pack("{s:o}", "candidates", arr);
    }
    warena_free(&a);
    pthread_mutex_lock(&g->mu);
    ss->busy--;
    ss->last_access = wgw_now_ms();
    pthread_cond_broadcast(&g->cv);
    return status;
}

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
        *out = wflink_error_body("Failed to configure session.", NULL, "java.lang.UnsupportedOperationException", m.buf);
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
    if (ok && res.kind == WSR_OK && res.message && *res.message)   /* a warning: no place for it in the answer */
        fprintf(stderr, "weir: SQL gateway session %s: [WARNING] %s\n", ss->id, res.message);
    wstmt_result_free(&res);
    pthread_mutex_unlock(&ss->run_mu);
    pthread_mutex_lock(&g->mu);
    ss->busy--;
    pthread_cond_broadcast(&g->cv);
    if (!ok) {
        *out = wflink_error_body("Failed to configure session.", err.outer, err.cls[0] ? err.cls : WEXC_TABLE, err.msg);
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
    wgw_reap_zombies(g);
    pthread_mutex_unlock(&g->mu);
    if (nseg == 1) {
        if (!is_post) { json_decref(jb); goto bad_method; }
        status = wgw_open_session(g, jb, out);
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
    Sess *ss = wgw_is_uuid(seg[1]) ? wgw_find_session(g, seg[1]) : NULL;
    if (!ss) {
        pthread_mutex_unlock(&g->mu);
        json_decref(jb);
        char msg[160];
        snprintf(msg, sizeof msg, "Session '%.60s' does not exist.", seg[1]);
        *out = wflink_handler_error(nseg > 3 && !strcmp(seg[2], "operations") ? "Failed to getOperationInfo."
                                                                             : "Failed to getSessionConfig.", msg);
        return 500;
    }
    ss->last_access = wgw_now_ms();
    bool handled = true;
    if (nseg == 2 && is_del) {
        wgw_close_session_locked(g, ss);
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
        /* Flink serves GET only, with a JSON body {"statement", "position"} (its sql-client sends
           one); without a position the body does not map onto the request */
        status = complete_statement(g, ss, jb, out);
    } else if (nseg == 3 && !strcmp(seg[2], "configure-session") && is_post) {
        status = configure_session(g, ss, jb, out);
    } else if (nseg == 3 && !strcmp(seg[2], "statements") && is_post) {
        status = wgw_submit_statement(g, ss, jb, out);
        if (status != 200) {
            json_t *e = *out;
            *out = wflink_handler_error("Failed to executeStatement.",
                                        json_string_value(json_array_get(json_object_get(e, "errors"), 0)));
            json_decref(e);
            status = 500;
        }
    } else if (nseg >= 5 && !strcmp(seg[2], "operations")) {
        Op *op = wgw_is_uuid(seg[3]) ? wgw_find_op(ss, seg[3]) : NULL;
        if (!op) {
            char msg[200];
            snprintf(msg, sizeof msg, "Can not find the submitted operation in the OperationManager with the %.60s.",
                     seg[3]);
            *out = wflink_handler_error(nseg == 6 ? "Failed to fetchResults." : "Failed to getOperationInfo.", msg);
            status = 500;
        } else if (nseg == 5 && !strcmp(seg[4], "status") && is_get) {
            /* a cancelled operation is CANCELED at once, as in Flink, while its thread winds down */
            *out = json_pack("{s:s}", "status", op->cancel ? "CANCELED" : WGW_OP_STATUS[op->status]);
            status = 200;
        } else if (nseg == 5 && !strcmp(seg[4], "cancel") && is_post) {
            if (!op->done) wgw_cancel_op(g, op);
            *out = json_pack("{s:s}", "status", op->done ? WGW_OP_STATUS[op->status] : "CANCELED");
            status = 200;
        } else if (nseg == 5 && !strcmp(seg[4], "close") && is_del) {
            wgw_close_op_locked(g, ss, op);
            *out = json_pack("{s:s}", "status", "CLOSED");
            status = 200;
        } else if (nseg == 6 && !strcmp(seg[4], "result") && is_get) {
            ss->busy++;
            status = flink_fetch(g, ss, op, ver, seg[5], query, out);
            ss->busy--;
            ss->last_access = wgw_now_ms();
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
