/*
 * jdbc.c — the 'jdbc' connector's factory: Flink's JdbcDynamicTableFactory options and validation
 * for PostgreSQL URLs (jdbc:postgresql://host[:port]/database[?k=v&...]), read through libpq.
 * The scan is in jdbc_source.c, the sink in jdbc_sink.c, the connection and value conversions in
 * jdbc_pg.c. Depends on connector.h, common/.
 */
#include "jdbc_internal.h"
#include "conn_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define FULL_ONLY "the FULL lookup cache, which weir does not implement"
/* Flink's LookupOptions enums */
static const WOptEnum CACHE_TYPE = {"org.apache.flink.table.connector.source.lookup.LookupOptions$LookupCacheType",
                                    "NONE, PARTIAL, FULL"};
static const WOptEnum RELOAD_STRATEGY = {
    "org.apache.flink.table.connector.source.lookup.LookupOptions$ReloadStrategy", "PERIODIC, TIMED"};
static const WOptEnum SCHEDULE_MODE = {
    "org.apache.flink.table.connector.source.lookup.FullCachingReloadTrigger$ScheduleMode", "FIXED_DELAY, FIXED_RATE"};
static const WConnOption JDBC_INVENTORY[] = {
    {"url", WOPT_APPLIED, NULL, "the PostgreSQL server and database (jdbc:postgresql://host:port/db)",
     .type = WOT_STRING, .required = WOPT_REQ},
    {"table-name", WOPT_APPLIED, NULL, "the table read and written", .type = WOT_STRING, .required = WOPT_REQ},
    {"driver", WOPT_APPLIED, NULL, "the JDBC driver class: only org.postgresql.Driver (libpq)", .type = WOT_STRING},
    {"username", WOPT_APPLIED, NULL, "the database user", .type = WOT_STRING},
    {"password", WOPT_APPLIED, NULL, "the user's password", .type = WOT_STRING},
    {"compatible-mode", WOPT_REFUSED, NULL, "a dialect compatibility mode", .type = WOT_STRING},
    {"connection.max-retry-timeout", WOPT_APPLIED, "60 s", "how long connecting is retried", .type = WOT_DURATION},
    {"scan.partition.column", WOPT_APPLIED, NULL, "the numeric column the scan is split on", .type = WOT_STRING},
    {"scan.partition.num", WOPT_APPLIED, NULL, "the number of splits", .type = WOT_INT},
    {"scan.partition.lower-bound", WOPT_APPLIED, NULL, "the smallest value of the first split", .type = WOT_LONG},
    {"scan.partition.upper-bound", WOPT_APPLIED, NULL, "the largest value of the last split", .type = WOT_LONG},
    {"scan.fetch-size", WOPT_APPLIED, "0", "rows per round trip (a cursor); 0 = the whole result at once",
     .type = WOT_INT},
    {"scan.auto-commit", WOPT_REFUSED, "true", "reads outside an explicit transaction", .type = WOT_BOOL},
    {"lookup.cache", WOPT_APPLIED, "NONE", "the lookup join cache: NONE or PARTIAL (FULL is refused)",
     .type = WOT_ENUM, .enum_of = &CACHE_TYPE},
    {"lookup.partial-cache.max-rows", WOPT_APPLIED, NULL, "rows (keys) the PARTIAL cache keeps", .type = WOT_LONG},
    {"lookup.partial-cache.expire-after-write", WOPT_APPLIED, NULL,
     "a cached key expires this long after it was fetched", .type = WOT_DURATION},
    {"lookup.partial-cache.expire-after-access", WOPT_APPLIED, NULL,
     "a cached key expires this long after its last use", .type = WOT_DURATION},
    {"lookup.partial-cache.cache-missing-key", WOPT_APPLIED, "true", "a key without rows is cached too",
     .type = WOT_BOOL},
    {"lookup.full-cache.reload-strategy", WOPT_REFUSED, "PERIODIC", FULL_ONLY, .type = WOT_ENUM,
     .enum_of = &RELOAD_STRATEGY},
    {"lookup.full-cache.periodic-reload.interval", WOPT_REFUSED, NULL, FULL_ONLY, .type = WOT_DURATION},
    {"lookup.full-cache.periodic-reload.schedule-mode", WOPT_REFUSED, "FIXED_DELAY", FULL_ONLY, .type = WOT_ENUM,
     .enum_of = &SCHEDULE_MODE},
    {"lookup.full-cache.timed-reload.iso-time", WOPT_REFUSED, NULL, FULL_ONLY, .type = WOT_STRING},
    {"lookup.full-cache.timed-reload.interval-in-days", WOPT_REFUSED, "1", FULL_ONLY, .type = WOT_LONG},
    {"lookup.cache.max-rows", WOPT_APPLIED, NULL, "legacy: a PARTIAL cache of this many keys (with lookup.cache.ttl)",
     .type = WOT_LONG},
    {"lookup.cache.ttl", WOPT_APPLIED, NULL, "legacy: the PARTIAL cache's expire-after-write", .type = WOT_DURATION},
    {"lookup.cache.caching-missing-key", WOPT_APPLIED, "true", "legacy: cache-missing-key", .type = WOT_BOOL},
    {"lookup.max-retries", WOPT_APPLIED, "3", "retries of a failed lookup query (reconnecting)", .type = WOT_INT},
    {"sink.buffer-flush.max-rows", WOPT_APPLIED, "100", "rows buffered before a flush (0: no count trigger)",
     .type = WOT_INT},
    {"sink.buffer-flush.interval", WOPT_APPLIED, "1 s", "time after which buffered rows are flushed (0: none)",
     .type = WOT_DURATION},
    {"sink.max-retries", WOPT_APPLIED, "3", "retries of a failed flush", .type = WOT_INT},
    {"sink.parallelism", WOPT_APPLIED, NULL, "the sink's parallelism (runtime/vertices.c)", .type = WOT_INT},
    {"property-version", WOPT_NO_EFFECT_IN_FLINK, NULL, "a legacy version number Flink accepts and ignores",
     .type = WOT_STRING},
    {0},
};

/* Flink's FactoryUtil/JdbcDynamicTableFactory "all or none" check. */
static bool all_or_none(const WOptions *o, const char *const *keys, WError *err)
{
    int n = 0, set = 0;
    for (; keys[n]; n++) set += wopts_get(o, keys[n]) != NULL;
    if (set == 0 || set == n) return true;
    WStrBuf s;
    wsb_init(&s);
    for (int i = 0; i < n; i++) wsb_printf(&s, "\n%s", keys[i]);
    werr_set(err, WEXC_VALIDATION, "Either all or none of the following options should be provided:%s", s.buf);
    wsb_free(&s);
    return false;
}

static bool not_negative(const WOptions *o, const char *key, int64_t dflt, int64_t *out, WError *err)
{
    if (!wopts_get_long(o, key, dflt, out, err)) return false;
    if (*out < 0)
        return werr_set(err, WEXC_VALIDATION, "The value of '%s' option shouldn't be negative, but is %lld.", key,
                        (long long)*out);
    return true;
}

/* lookup.cache and the partial cache's options (Flink's LookupOptions), or the legacy
   lookup.cache.max-rows + lookup.cache.ttl, which make a PARTIAL cache. */
static bool lookup_cache_conf(const WOptions *o, WLookupCacheConf *cc, WError *err)
{
    memset(cc, 0, sizeof *cc);
    const char *mode = wopts_get(o, "lookup.cache");
    bool legacy = wopts_get(o, "lookup.cache.max-rows") != NULL;
    if (mode && strcasecmp(mode, "FULL") == 0)
        return werr_set(err, WEXC_TABLE, "Option 'lookup.cache'='FULL' of the 'jdbc' connector is not supported by "
                        "weir yet.");
    if (mode && !wconn_option_check_value(wconn_option_find(JDBC_INVENTORY, "lookup.cache"), mode, err))
        return false;
    cc->partial = (mode && strcasecmp(mode, "PARTIAL") == 0) || (!mode && legacy);
    if (!cc->partial) return true;
    if (mode) {
        if (!not_negative(o, "lookup.partial-cache.max-rows", 0, &cc->max_rows, err) ||
            !wopts_get_duration_ms(o, "lookup.partial-cache.expire-after-write", 0, &cc->expire_after_write_ms, err) ||
            !wopts_get_duration_ms(o, "lookup.partial-cache.expire-after-access", 0, &cc->expire_after_access_ms,
                                   err) ||
            !wopts_get_bool(o, "lookup.partial-cache.cache-missing-key", true, &cc->cache_missing_key, err))
            return false;
        if (!cc->max_rows && !cc->expire_after_write_ms && !cc->expire_after_access_ms)
            return werr_set(err, WEXC_ILLEGAL_ARG,
                            "Missing 'lookup.partial-cache.expire-after-access', "
                            "'lookup.partial-cache.expire-after-write' or 'lookup.partial-cache.max-rows' when "
                            "'lookup.cache' is set to 'PARTIAL'.");
        return true;
    }
    return not_negative(o, "lookup.cache.max-rows", 0, &cc->max_rows, err) &&
           wopts_get_duration_ms(o, "lookup.cache.ttl", 0, &cc->expire_after_write_ms, err) &&
           wopts_get_bool(o, "lookup.cache.caching-missing-key", true, &cc->cache_missing_key, err);
}

/* jdbc:postgresql://host[:port]/database[?params] into c (libpq keywords). */
static bool parse_url(const char *url, WJdbcConf *c, WError *err)
{
    static const char P[] = "jdbc:postgresql:";
    if (strncmp(url, P, sizeof P - 1) != 0)
        return werr_set(err, "java.lang.IllegalStateException",
                        "Could not find any jdbc dialect factory that can handle url '%s' that implements "
                        "'org.apache.flink.connector.jdbc.core.database.JdbcFactory' in the classpath.\n\n"
                        "Available factories are:\n\n"
                        "org.apache.flink.connector.jdbc.postgres.database.PostgresFactory", url);
    const char *s = url + sizeof P - 1;
    const char *bad = NULL;
    if (strncmp(s, "//", 2) != 0) bad = "expected jdbc:postgresql://host[:port]/database";
    else s += 2;
    const char *slash = bad ? NULL : strchr(s, '/');
    if (!bad && !slash) bad = "the database name is missing";
    if (bad) return werr_set(err, WEXC_VALIDATION, "Invalid PostgreSQL url '%s': %s.", url, bad);
    const char *colon = memchr(s, ':', (size_t)(slash - s));
    const char *hend = colon ? colon : slash;
    if (hend == s || (size_t)(hend - s) >= sizeof c->host)
        return werr_set(err, WEXC_VALIDATION, "Invalid PostgreSQL url '%s': the host is missing.", url);
    snprintf(c->host, sizeof c->host, "%.*s", (int)(hend - s), s);
    snprintf(c->port, sizeof c->port, "5432");
    if (colon) {
        int pl = (int)(slash - colon - 1);
        char *e;
        char tmp[16];
        snprintf(tmp, sizeof tmp, "%.*s", pl, colon + 1);
        long port = strtol(tmp, &e, 10);
        if (pl <= 0 || pl >= 6 || *e || port <= 0 || port > 65535)
            return werr_set(err, WEXC_VALIDATION, "Invalid PostgreSQL url '%s': bad port.", url);
        snprintf(c->port, sizeof c->port, "%ld", port);
    }
    const char *db = slash + 1, *q = strchr(db, '?');
    int dl = q ? (int)(q - db) : (int)strlen(db);
    if (dl == 0 || dl >= (int)sizeof c->dbname)
        return werr_set(err, WEXC_VALIDATION, "Invalid PostgreSQL url '%s': the database name is missing.", url);
    snprintf(c->dbname, sizeof c->dbname, "%.*s", dl, db);
    c->params[0] = 0;
    if (q) snprintf(c->params, sizeof c->params, "%s", q + 1);
    return true;
}

bool wjdbc_conf(const WTableSpec *spec, WJdbcConf *c, WError *err)
{
    const WOptions *o = spec->options;
    memset(c, 0, sizeof *c);
    c->url = wopts_get(o, "url");
    c->table = wopts_get(o, "table-name");
    c->user = wopts_get(o, "username");
    c->password = wopts_get(o, "password");
    const char *drv = wopts_get(o, "driver");
    if (drv && strcmp(drv, "org.postgresql.Driver") != 0)
        return werr_set(err, WEXC_VALIDATION,
                        "Option 'driver' = '%s' is not supported by weir: it reaches PostgreSQL through libpq "
                        "(driver 'org.postgresql.Driver').", drv);
    if (!parse_url(c->url, c, err)) return false;
    static const char *const CRED[] = {"username", "password", NULL};
    if (!all_or_none(o, CRED, err)) return false;
    static const char *const PART[] = {"scan.partition.column", "scan.partition.num", "scan.partition.lower-bound",
                                      "scan.partition.upper-bound", NULL};
    if (!all_or_none(o, PART, err)) return false;
    c->part_col = wopts_get(o, "scan.partition.column");
    if (c->part_col) {
        if (!wopts_get_long(o, "scan.partition.num", 0, &c->part_num, err) ||
            !wopts_get_long(o, "scan.partition.lower-bound", 0, &c->part_lo, err) ||
            !wopts_get_long(o, "scan.partition.upper-bound", 0, &c->part_hi, err))
            return false;
        if (c->part_lo > c->part_hi)
            return werr_set(err, WEXC_VALIDATION,
                            "'scan.partition.lower-bound'='%lld' must not be larger than "
                            "'scan.partition.upper-bound'='%lld'.", (long long)c->part_lo, (long long)c->part_hi);
        int col = -1;
        for (int i = 0; i < spec->ncols; i++)
            if (strcmp(spec->col_names[i], c->part_col) == 0) col = i;
        if (col < 0)
            return werr_set(err, WEXC_VALIDATION, "Partition column '%s' is not a column of table %s.",
                            c->part_col, spec->name);
        if (c->part_num <= 0)
            return werr_set(err, WEXC_ILLEGAL_ARG, "Batch number must be positive");
    }
    static const char *const CACHE[] = {"lookup.cache.max-rows", "lookup.cache.ttl", NULL};
    if (!all_or_none(o, CACHE, err)) return false;
    if (!not_negative(o, "lookup.max-retries", 3, &c->lookup_retries, err)) return false;
    if (!lookup_cache_conf(o, &c->cache, err)) return false;
    if (!not_negative(o, "sink.max-retries", 3, &c->sink_retries, err)) return false;
    if (!wopts_get_duration_ms(o, "connection.max-retry-timeout", 60000, &c->max_retry_timeout_ms, err)) return false;
    if (c->max_retry_timeout_ms < 1000 || c->max_retry_timeout_ms % 1000)
        return werr_set(err, WEXC_VALIDATION,
                        "The value of 'connection.max-retry-timeout' option must be in second granularity and "
                        "shouldn't be smaller than 1 second, but is %s.", wopts_get(o, "connection.max-retry-timeout"));
    if (!wopts_get_long(o, "scan.fetch-size", 0, &c->fetch_size, err)) return false;
    if (!wopts_get_bool(o, "scan.auto-commit", true, &c->auto_commit, err)) return false;
    if (!wopts_get_long(o, "sink.buffer-flush.max-rows", 100, &c->flush_rows, err)) return false;
    if (!wopts_get_duration_ms(o, "sink.buffer-flush.interval", 1000, &c->flush_interval_ms, err)) return false;
    int64_t par;
    if (!wopts_get_long(o, "sink.parallelism", 1, &par, err)) return false;
    return true;
}

static bool jdbc_validate(const WTableSpec *spec, bool as_source, WError *err)
{
    if (!wconnector_check_inventory(spec, "jdbc", JDBC_INVENTORY, as_source, NULL, NULL, err)) return false;
    WJdbcConf c;
    return wjdbc_conf(spec, &c, err) && wjdbc_check_types(spec, err);
}

const WConnector wconn_jdbc = {
    .name = "jdbc",
    /* an upsert sink (by the primary key it needs for updates); a lookup source (open_lookup) */
    .caps = {.sink_kinds = WCONN_INSERT | WCONN_UPDATE_AFTER | WCONN_DELETE, .sink_kinds_fixed = true,
             .sink_needs_pk_for_updates = true, .projection_pushdown = true, .source_summary = "JDBC:PostgreSQL"},
    .options = JDBC_INVENTORY,
    .can_source = true,
    .can_sink = true,
    .validate = jdbc_validate,
    .open_source = wjdbc_open_source,
    .open_sink = wjdbc_open_sink,
    .open_lookup = wjdbc_open_lookup,
    .source_is_changelog = NULL,
};
