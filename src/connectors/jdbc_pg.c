/*
 * jdbc_pg.c — the jdbc connector's PostgreSQL side: connections through libpq (retried until
 * connection.max-retry-timeout, session in UTC with ISO dates so text values parse one way), the
 * conversion of PostgreSQL's text output to weir values and back, and Flink's PostgresDialect type
 * check. Depends on connector.h, types/, common/, libpq.
 */
#include "jdbc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../types/format.h"
#include "../types/datetime.h"

void wjdbc_sleep_ms(int64_t ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

const char *wjdbc_pg_error(PGconn *conn, const PGresult *res)
{
    static _Thread_local char buf[512];
    const char *m = res ? PQresultErrorMessage(res) : NULL;
    if (!m || !*m) m = conn ? PQerrorMessage(conn) : "no connection";
    snprintf(buf, sizeof buf, "%s", m);
    size_t n = strlen(buf);
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ')) buf[--n] = 0;
    for (char *p = buf; *p; p++) if (*p == '\n') *p = ' ';
    return buf;
}

PGconn *wjdbc_connect(const WJdbcConf *c, WError *err)
{
    const char *keys[16], *vals[16];
    int n = 0;
    keys[n] = "host"; vals[n++] = c->host;
    keys[n] = "port"; vals[n++] = c->port;
    keys[n] = "dbname"; vals[n++] = c->dbname;
    if (c->user) { keys[n] = "user"; vals[n++] = c->user; }
    if (c->password) { keys[n] = "password"; vals[n++] = c->password; }
    keys[n] = "options"; vals[n++] = "-c TimeZone=UTC -c DateStyle=ISO -c IntervalStyle=iso_8601 -c extra_float_digits=3";
    keys[n] = "client_encoding"; vals[n++] = "UTF8";
    keys[n] = "connect_timeout"; vals[n++] = "10";
    keys[n] = "application_name"; vals[n++] = "weir";
    keys[n] = NULL; vals[n] = NULL;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int attempt = 0;; attempt++) {
        PGconn *conn = PQconnectdbParams(keys, vals, 0);
        if (conn && PQstatus(conn) == CONNECTION_OK) return conn;
        char why[512];
        snprintf(why, sizeof why, "%s", wjdbc_pg_error(conn, NULL));
        PQfinish(conn);
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        int64_t spent = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
        /* an authentication or unknown-database failure will not change by waiting */
        bool permanent = strstr(why, "authentication") || strstr(why, "does not exist");
        if (permanent || spent + 1000 > c->max_retry_timeout_ms) {
            werr_set(err, "java.sql.SQLException", "Cannot connect to '%s': %s", c->url, why);
            return NULL;
        }
        wjdbc_sleep_ms(attempt < 3 ? 200 : 1000);
    }
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

bool wjdbc_from_text(const WCastCtx *cx, const WType *t, const char *col, const char *s, int len,
                     WDatum *out, WArena *a, WError *err)
{
    switch (t->id) {
    case WT_BOOLEAN:
        if (len == 1 && (s[0] == 't' || s[0] == 'f')) { out->i = s[0] == 't'; return true; }
        break;
    case WT_BINARY: case WT_VARBINARY: {
        if (len < 2 || s[0] != '\\' || s[1] != 'x' || len % 2) break;
        int n = (len - 2) / 2;
        char *b = wa_alloc(a, (size_t)n + 1);
        for (int i = 0; i < n; i++) {
            int h = hexval(s[2 + 2 * i]), l = hexval(s[3 + 2 * i]);
            if (h < 0 || l < 0) goto bad;
            b[i] = (char)(h * 16 + l);
        }
        out->s.p = b;
        out->s.len = n;
        return true;
    }
    case WT_TIMESTAMP_LTZ: {
        /* timestamptz in the session zone UTC: "2024-01-02 03:04:05.678+00" */
        int l = len;
        if (l > 3 && s[l - 3] == '+' && s[l - 3 + 1] == '0' && s[l - 3 + 2] == '0') l -= 3;
        if (wparse_timestamp(s, l, &out->ts)) return true;
        break;
    }
    case WT_TIMESTAMP:
        if (wparse_timestamp(s, len, &out->ts)) return true;
        break;
    default: {
        WError e;
        werr_clear(&e);
        WCastResult r = wcast_from_text_ex(cx, s, len, t, out, a, &e);
        if (r == WCAST_OK) return true;
        break;
    }
    }
bad:;
    WStrBuf ts;
    wsb_init(&ts);
    wtype_to_string(t, &ts);
    werr_set(err, WEXC_UNSUPPORTED, "Cannot convert value '%.*s' of column '%s' read from PostgreSQL to %s.",
             len > 200 ? 200 : len, s, col, ts.buf);
    wsb_free(&ts);
    return false;
}

void wjdbc_to_text(const WType *t, WDatum v, WStrBuf *out)
{
    switch (t->id) {
    case WT_BINARY: case WT_VARBINARY: {
        static const char H[] = "0123456789abcdef";
        wsb_append(out, "\\x");
        for (int i = 0; i < v.s.len; i++) {
            unsigned char b = (unsigned char)v.s.p[i];
            wsb_putc(out, H[b >> 4]);
            wsb_putc(out, H[b & 15]);
        }
        return;
    }
    case WT_TIMESTAMP_LTZ: {
        char buf[64];
        int n = wfmt_timestamp(v.ts, 9, buf);
        wsb_appendn(out, buf, (size_t)n);
        wsb_append(out, "+00");
        return;
    }
    case WT_TIMESTAMP: {
        char buf[64];
        int n = wfmt_timestamp(v.ts, 9, buf);
        wsb_appendn(out, buf, (size_t)n);
        return;
    }
    default:
        wfmt_sql(t, v, false, NULL, out);
    }
}

bool wjdbc_check_types(const WTableSpec *spec, WError *err)
{
    for (int i = 0; i < spec->ncols; i++) {
        const WType *t = spec->col_types[i];
        bool ok = true;
        switch (t->id) {
        case WT_CHAR: case WT_VARCHAR: case WT_BOOLEAN: case WT_VARBINARY: case WT_DECIMAL: case WT_TINYINT:
        case WT_SMALLINT: case WT_INT: case WT_BIGINT: case WT_FLOAT: case WT_DOUBLE: case WT_DATE: case WT_TIME:
        case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
            break;
        default: ok = false;
        }
        WStrBuf ts;
        wsb_init(&ts);
        wtype_to_string(t, &ts);
        if (!ok) {
            werr_set(err, WEXC_VALIDATION, "The PostgreSQL dialect doesn't support type: %s.", ts.buf);
        } else if (t->id == WT_DECIMAL && (t->precision < 1 || t->precision > 1000)) {
            ok = false;
            werr_set(err, WEXC_VALIDATION, "The precision of field '%s' is out of the DECIMAL precision range [1, 1000] "
                     "supported by PostgreSQL dialect.", spec->col_names[i]);
        } else if (wtype_is_timestamp(t) && (t->precision < 1 || t->precision > 6)) {
            ok = false;
            werr_set(err, WEXC_VALIDATION, "The precision of field '%s' is out of the TIMESTAMP precision range [1, 6] "
                     "supported by PostgreSQL dialect.", spec->col_names[i]);
        }
        wsb_free(&ts);
        if (!ok) return false;
    }
    return true;
}
