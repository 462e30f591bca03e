/*
 * jdbc_internal.h — private to the 'jdbc' connector (jdbc.c options and validation, jdbc_pg.c the
 * PostgreSQL connection and value conversions, jdbc_source.c the bounded scan, jdbc_sink.c the
 * append/upsert sink, jdbc_lookup.c the lookup source). Not a public contract. Depends on connector.h and libpq.
 */
#ifndef WEIR_CONNECTORS_JDBC_INTERNAL_H
#define WEIR_CONNECTORS_JDBC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <libpq-fe.h>
#include "connector.h"
#include "../common/strbuf.h"

/* The options of one jdbc table, validated as Flink's JdbcDynamicTableFactory does. */
typedef struct WJdbcConf {
    char host[256], port[16], dbname[256];
    char params[512];               /* the URL's ?query, as libpq keywords where they map */
    const char *url, *table, *user, *password;
    int64_t max_retry_timeout_ms;   /* connection.max-retry-timeout */
    /* scan */
    const char *part_col;           /* NULL: one query */
    int64_t part_num, part_lo, part_hi;
    int64_t fetch_size;
    bool auto_commit;
    /* sink */
    int64_t flush_rows, flush_interval_ms, sink_retries;
    /* lookup */
    int64_t lookup_retries;
    WLookupCacheConf cache;
} WJdbcConf;

bool wjdbc_conf(const WTableSpec *spec, WJdbcConf *c, WError *err);

/* A connection with the session settings the conversions rely on (UTC, ISO dates); retried
   until connection.max-retry-timeout. Error: "Cannot connect to 'url': <libpq message>". */
PGconn *wjdbc_connect(const WJdbcConf *c, WError *err);
/* Waits ms milliseconds (between retries). */
void wjdbc_sleep_ms(int64_t ms);
/* libpq's message of the last failure, one line. */
const char *wjdbc_pg_error(PGconn *conn, const PGresult *res);

/* Value of PostgreSQL's text output s (len bytes) as Flink type t: booleans t/f, bytea \x..,
   timestamptz with offset (session UTC). Bytes go to arena a. Error names the column. */
bool wjdbc_from_text(const WCastCtx *cx, const WType *t, const char *col, const char *s, int len,
                     WDatum *out, WArena *a, WError *err);
/* A non-NULL value as PostgreSQL input text (appended to out). */
void wjdbc_to_text(const WType *t, WDatum v, WStrBuf *out);

/* Flink's PostgresDialect type check: "The PostgreSQL dialect doesn't support type: T." */
bool wjdbc_check_types(const WTableSpec *spec, WError *err);

/* The scan's splits: Flink's JdbcNumericBetweenParametersProvider.ofBatchNum + getParameterValues
   ([lo, hi] per split, malloc'd in *out; the count returned). Without scan.partition.column one
   split without bounds (*out NULL). */
int wjdbc_splits(const WJdbcConf *c, int64_t (**out)[2]);

WSource *wjdbc_open_source(const WTableSpec *spec, WError *err);
WSink *wjdbc_open_sink(const WTableSpec *spec, WError *err);
WLookupSource *wjdbc_open_lookup(const WTableSpec *spec, int nkeys, const int *key_cols, WError *err);

#endif
