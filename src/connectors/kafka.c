/*
 * kafka.c — the 'kafka' connector's factory: its option inventory and validation with Flink's
 * option names and messages (KafkaDynamicTableFactory, KafkaConnectorOptionsUtil), read into a
 * WKafkaConfig (kafka.h). The source and the sink are in kafka_source.c / kafka_sink.c.
 * Depends on kafka.h.
 */
#include "kafka.h"
#include "conn_internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define KOPT "org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions$"
static const WOptEnum STARTUP_MODE = {KOPT "ScanStartupMode",
                                      "earliest-offset, latest-offset, group-offsets, timestamp, specific-offsets"};
const WOptEnum wkafka_bounded_mode_enum = {KOPT "ScanBoundedMode",
                                           "unbounded, latest-offset, group-offsets, timestamp, specific-offsets"};
const WOptEnum wkafka_value_fields_enum = {KOPT "ValueFieldsStrategy", "ALL, EXCEPT_KEY"};
const WOptEnum wkafka_delivery_enum = {"org.apache.flink.connector.base.DeliveryGuarantee",
                                       "exactly-once, at-least-once, none"};
const WOptEnum wkafka_naming_enum = {"org.apache.flink.connector.kafka.sink.TransactionNamingStrategy",
                                     "INCREMENTING, POOLING"};

static const WConnOption KAFKA_INVENTORY[] = {
    {"topic", WOPT_APPLIED, NULL, "the topics read or written (';'-separated for a source)", .type = WOT_LIST},
    {"topic-pattern", WOPT_APPLIED, NULL, "a regular expression of the topics read", .type = WOT_STRING},
    {"properties.bootstrap.servers", WOPT_APPLIED, NULL, "the brokers", .type = WOT_STRING, .required = WOPT_REQ},
    {"properties.group.id", WOPT_APPLIED, NULL, "the consumer group (group-offsets)", .type = WOT_STRING},
    {"properties.#", WOPT_APPLIED, NULL, "passed to librdkafka as its configuration property", .type = WOT_STRING},
    {"format", WOPT_APPLIED, NULL, "the value format (csv, json, raw)", .type = WOT_STRING},
    {"value.format", WOPT_APPLIED, NULL, "the value format (csv, json, raw)", .type = WOT_STRING},
    {"key.format", WOPT_APPLIED, NULL, "the key format (csv, json, raw)", .type = WOT_STRING},
    {"key.fields", WOPT_APPLIED, NULL, "the columns the key carries", .type = WOT_LIST},
    {"key.fields-prefix", WOPT_APPLIED, NULL, "the prefix of the key columns' names, removed in the key format",
     .type = WOT_STRING},
    {"value.fields-include", WOPT_APPLIED, "ALL", "ALL or EXCEPT_KEY: the columns the value carries",
     .type = WOT_ENUM, .enum_of = &wkafka_value_fields_enum},
    {"scan.startup.mode", WOPT_APPLIED, "group-offsets", "where reading starts", .type = WOT_ENUM,
     .enum_of = &STARTUP_MODE},
    {"scan.startup.specific-offsets", WOPT_APPLIED, NULL, "start offsets per partition", .type = WOT_STRING},
    {"scan.startup.timestamp-millis", WOPT_APPLIED, NULL, "start at the first record at or after this time",
     .type = WOT_LONG},
    {"scan.bounded.mode", WOPT_APPLIED, "unbounded", "where a bounded read ends", .type = WOT_ENUM,
     .enum_of = &wkafka_bounded_mode_enum},
    {"scan.bounded.specific-offsets", WOPT_APPLIED, NULL, "end offsets per partition", .type = WOT_STRING},
    {"scan.bounded.timestamp-millis", WOPT_APPLIED, NULL, "end at the first record at or after this time",
     .type = WOT_LONG},
    {"scan.topic-partition-discovery.interval", WOPT_APPLIED, "5 min",
     "new partitions found while an unbounded source runs (read from their earliest offset)", .type = WOT_DURATION},
    {"scan.parallelism", WOPT_APPLIED, NULL, "the source's parallelism (runtime/vertices.c)", .type = WOT_INT},
    {"sink.partitioner", WOPT_APPLIED, "default", "default, fixed or round-robin", .type = WOT_STRING},
    {"sink.delivery-guarantee", WOPT_APPLIED, "at-least-once",
     "none, at-least-once (flush at checkpoints) or exactly-once (transactions)", .type = WOT_ENUM,
     .enum_of = &wkafka_delivery_enum},
    {"sink.transactional-id-prefix", WOPT_APPLIED, NULL,
     "the transactional ids of exactly-once: <prefix>-<subtask>-<checkpoint>", .type = WOT_STRING},
    {"sink.transaction-naming-strategy", WOPT_APPLIED, "INCREMENTING", "INCREMENTING only (POOLING is refused)",
     .type = WOT_ENUM, .enum_of = &wkafka_naming_enum},
    {"sink.parallelism", WOPT_APPLIED, NULL, "the sink's parallelism (runtime/vertices.c)", .type = WOT_INT},
    {"scan.watermark.emit.strategy", WOPT_APPLIED, "on-periodic",
     "on-periodic (default: every pipeline.auto-watermark-interval) or on-event (after every record)",
     .type = WOT_ENUM, .enum_of = &wconn_watermark_emit_enum},
    {"scan.watermark.idle-timeout", WOPT_APPLIED, NULL,
     "a partition without records that long no longer holds the watermark back", .type = WOT_DURATION},
    {"scan.watermark.alignment.group", WOPT_REFUSED, NULL, "watermark alignment is not implemented",
     .type = WOT_STRING},
    {"scan.watermark.alignment.max-drift", WOPT_REFUSED, NULL, "watermark alignment is not implemented",
     .type = WOT_DURATION},
    {"scan.watermark.alignment.update-interval", WOPT_REFUSED, "1s", "watermark alignment is not implemented",
     .type = WOT_DURATION},
    {"property-version", WOPT_NO_EFFECT_IN_FLINK, NULL, "a legacy version number Flink accepts and ignores",
     .type = WOT_STRING},
    {"sink.semantic", WOPT_REFUSED, NULL, "the deprecated form of sink.delivery-guarantee: use sink.delivery-guarantee",
     .type = WOT_STRING},
    {0},
};

int wkafka_split_owner(const char *topic, int32_t partition, int parallelism)
{
    int32_t h = 0;          /* java.lang.String.hashCode (ASCII topic names) */
    for (const unsigned char *p = (const unsigned char *)topic; *p; p++) h = (int32_t)((uint32_t)h * 31u + *p);
    int32_t start = (int32_t)(((uint32_t)h * 31u) & 0x7FFFFFFFu) % parallelism;
    return (int)((start + partition) % parallelism);
}

static bool parse_mode(const WOptions *o, const char *key, bool bounded, WKafkaMode *out, WError *err)
{
    const char *v = wopts_get(o, key);
    *out = bounded ? WKS_UNBOUNDED : WKS_GROUP;
    if (!v) return true;
    static const struct { const char *name; WKafkaMode m; } M[] = {
        {"earliest-offset", WKS_EARLIEST}, {"latest-offset", WKS_LATEST}, {"group-offsets", WKS_GROUP},
        {"timestamp", WKS_TIMESTAMP}, {"specific-offsets", WKS_SPECIFIC}, {"unbounded", WKS_UNBOUNDED},
    };
    for (size_t i = 0; i < sizeof M / sizeof M[0]; i++) {
        if (strcasecmp(v, M[i].name) == 0 && (bounded ? M[i].m != WKS_EARLIEST : M[i].m != WKS_UNBOUNDED)) {
            *out = M[i].m;
            return true;
        }
    }
    /* Flink's ConfigOption enum parse (measured on Flink 2.3.0 with the 4.0.1 connector) */
    return wconn_enum_error(bounded ? &wkafka_bounded_mode_enum : &STARTUP_MODE, err);
}

/* "partition:0,offset:42;partition:1,offset:300" */
static bool parse_offsets(const WOptions *o, const char *key, WKafkaOffset **out, int *n, WError *err)
{
    const char *v = wopts_get(o, key);
    *out = NULL;
    *n = 0;
    if (!v) return true;
    const char *p = v;
    while (*p) {
        long long part, off;
        int used = 0;
        if (sscanf(p, "partition:%lld,offset:%lld%n", &part, &off, &used) != 2 || used == 0 || part < 0 ||
            (p[used] && p[used] != ';')) {
            free(*out);
            *out = NULL;
            *n = 0;
            return werr_set(err, WEXC_VALIDATION,
                            "Invalid properties '%s' should follow the format 'partition:0,offset:42;partition:1,offset:300', "
                            "but is '%s'.", key, v);
        }
        *out = realloc(*out, sizeof **out * (size_t)(*n + 1));
        (*out)[(*n)++] = (WKafkaOffset){(int32_t)part, off};
        p += used;
        if (*p == ';') p++;
    }
    return true;
}

static int find_col(const WTableSpec *spec, const char *name, size_t len)
{
    for (int i = 0; i < spec->ncols; i++)
        if (strlen(spec->col_names[i]) == len && strncmp(spec->col_names[i], name, len) == 0) return i;
    return -1;
}

static void codec_cols(WKafkaCodec *c, const WTableSpec *spec, const int *cols, int n, const char *prefix)
{
    c->ncols = n;
    c->cols = wmalloc(sizeof(int) * (size_t)(n ? n : 1));
    c->names = wmalloc(sizeof(char *) * (size_t)(n ? n : 1));
    c->types = wmalloc(sizeof(WType *) * (size_t)(n ? n : 1));
    size_t pl = prefix ? strlen(prefix) : 0;
    for (int i = 0; i < n; i++) {
        c->cols[i] = cols[i];
        c->names[i] = spec->col_names[cols[i]] + pl;     /* the plan outlives the codec */
        c->types[i] = spec->col_types[cols[i]];
    }
}

/* key.fields: the key's columns (KafkaConnectorOptionsUtil.createKeyFormatProjection). */
static bool key_projection(const WTableSpec *spec, const char *key_format, int *kc, int *nk, WError *err)
{
    const WOptions *o = spec->options;
    const char *kf = wopts_get(o, "key.fields");
    const char *prefix = wopts_get_or(o, "key.fields-prefix", "");
    *nk = 0;
    if (key_format && !kf)
        return werr_set(err, WEXC_VALIDATION,
                        "A key format 'key.format' requires the declaration of one or more of key fields using 'key.fields'.");
    if (!key_format && kf)
        return werr_set(err, WEXC_VALIDATION,
                        "The option 'key.fields' can only be declared if a key format is defined using 'key.format'.");
    for (const char *p = kf; p && *p;) {
        const char *e = strchr(p, ';');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int col = find_col(spec, p, len);
        if (col < 0) {
            WStrBuf all;
            wsb_init(&all);
            for (int i = 0; i < spec->ncols; i++) wsb_printf(&all, "%s%s", i ? ", " : "", spec->col_names[i]);
            werr_set(err, WEXC_VALIDATION,
                     "Could not find the field '%.*s' in the table schema for usage in the key format. "
                     "A key field must be a regular, physical column. The following columns can be selected "
                     "in the 'key.fields' option:\n[%s]", (int)len, p, all.buf ? all.buf : "");
            wsb_free(&all);
            return false;
        }
        if (strncmp(spec->col_names[col], prefix, strlen(prefix)) != 0)
            return werr_set(err, WEXC_VALIDATION,
                            "All fields in 'key.fields' must be prefixed with '%s' when option 'key.fields-prefix' "
                            "is set but field '%s' is not prefixed.", prefix, spec->col_names[col]);
        kc[(*nk)++] = col;
        p = e ? e + 1 : p + len;
    }
    return true;
}

bool wkafka_value_projection(const WTableSpec *spec, const int *kc, int nk, int *vc, int *nv, WError *err)
{
    const WOptions *o = spec->options;
    const char *prefix = wopts_get_or(o, "key.fields-prefix", "");
    const char *inc = wopts_get_or(o, "value.fields-include", "ALL");
    bool except_key = strcasecmp(inc, "EXCEPT_KEY") == 0;
    if (!except_key && strcasecmp(inc, "ALL") != 0)
        return wconn_enum_error(&wkafka_value_fields_enum, err);
    if (prefix[0] && !except_key)
        return werr_set(err, WEXC_VALIDATION,
                        "A key prefix is not allowed when option 'value.fields-include' is set to 'ALL'. "
                        "Set it to 'EXCEPT_KEY' instead to avoid field overlaps.");
    *nv = 0;
    for (int i = 0; i < spec->ncols; i++) {
        bool is_key = false;
        for (int k = 0; k < nk; k++) is_key |= kc[k] == i;
        if (except_key && is_key) continue;
        vc[(*nv)++] = i;
    }
    return true;
}

bool wkafka_init_codecs(WKafkaConfig *cfg, const WTableSpec *spec, bool as_source, const int *kc, int nk,
                        const int *vc, int nv, WError *err)
{
    const WOptions *o = spec->options;
    const char *fmt = wopts_get(o, "format"), *vfmt = wopts_get(o, "value.format"), *kfmt = wopts_get(o, "key.format");
    codec_cols(&cfg->value, spec, vc, nv, NULL);
    if (!wkafka_codec_init(&cfg->value, fmt ? fmt : vfmt, fmt ? "" : "value.", o, as_source, spec, err)) return false;
    if (!kfmt) return true;
    cfg->has_key = true;
    codec_cols(&cfg->key, spec, kc, nk, wopts_get_or(o, "key.fields-prefix", ""));
    return wkafka_codec_init(&cfg->key, kfmt, "key.", o, as_source, spec, err);
}

bool wkafka_check_common(WKafkaConfig *cfg, const WTableSpec *spec, const char *connector, const WConnOption *inv,
                         bool as_source, WError *err)
{
    memset(cfg, 0, sizeof *cfg);
    wopts_init(&cfg->props);
    const WOptions *o = spec->options;
    /* the formats' own options are accepted under their prefixes */
    const char *fmt = wopts_get(o, "format"), *vfmt = wopts_get(o, "value.format"), *kfmt = wopts_get(o, "key.format");
    char p1[128], p2[128], p3[128];
    snprintf(p1, sizeof p1, "%s.", fmt ? fmt : "\x01");
    snprintf(p2, sizeof p2, "value.%s.", vfmt ? vfmt : "\x01");
    snprintf(p3, sizeof p3, "key.%s.", kfmt ? kfmt : "\x01");
    const char *const prefixes[] = {p1, p2, p3, NULL};
    /* Flink's factory helper lists the formats' options ("<prefix><format>.<key>") among the
       supported ones (measured: an unknown option's message lists json.encode.* ...) */
    WArena *fa = warena_new(0);
    const char *const fprefix[3] = {"", "value.", "key."};
    const char *const fname[3] = {fmt, fmt ? NULL : vfmt, kfmt};
    int nf = 0;
    const WConnFormat *fs[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++) {
        fs[i] = fname[i] ? wconn_format_find(fname[i]) : NULL;
        for (int k = 0; fs[i] && fs[i]->options && fs[i]->options[k].key; k++) nf++;
    }
    const char **fkeys = WA_ARRAY(fa, const char *, (size_t)(nf + 1));
    int na = 0;
    for (int i = 0; i < 3; i++)
        for (int k = 0; fs[i] && fs[i]->options && fs[i]->options[k].key; k++)
            fkeys[na++] = wa_sprintf(fa, "%s%s.%s", fprefix[i], fs[i]->name, fs[i]->options[k].key);
    fkeys[na] = NULL;
    bool ok = wconnector_check_inventory(spec, connector, inv, as_source, fkeys, prefixes, err);
    warena_delete(fa);
    if (!ok) return false;
    WScanWatermark swm;
    if (as_source && !wconn_scan_watermark(o, &swm, err)) return false;
    const char *topic = wopts_get(o, "topic"), *pattern = wopts_get(o, "topic-pattern");
    if (topic && pattern)
        return werr_set(err, WEXC_VALIDATION, "Option 'topic' and 'topic-pattern' shouldn't be set together.");
    if (!topic && !pattern)
        return werr_set(err, WEXC_VALIDATION, "Either 'topic' or 'topic-pattern' must be set.");
    if (!as_source && pattern)
        return werr_set(err, WEXC_VALIDATION, "Currently 'topic-pattern' is not supported for a sink; use 'topic'.");
    if (!as_source && topic && strchr(topic, ';'))
        return werr_set(err, WEXC_VALIDATION,
                        "Flink Kafka sink currently only supports single topic, but got topic: [%s].", topic);
    for (const char *p = topic; p && *p;) {
        const char *e = strchr(p, ';');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        while (len && *p == ' ') { p++; len--; }
        while (len && p[len - 1] == ' ') len--;
        if (len) {
            cfg->topics = realloc(cfg->topics, sizeof(char *) * (size_t)(cfg->ntopics + 1));
            cfg->topics[cfg->ntopics++] = strndup(p, len);
        }
        p = e ? e + 1 : p + strlen(p);
    }
    if (topic && !cfg->ntopics) return werr_set(err, WEXC_VALIDATION, "Option 'topic' names no topic.");
    cfg->pattern = pattern ? wstrdup(pattern) : NULL;
    for (int i = 0; i < o->n; i++)
        if (strncmp(o->items[i].key, "properties.", 11) == 0) wopts_set(&cfg->props, o->items[i].key + 11, o->items[i].value);
    const char *gid = wopts_get(o, "properties.group.id");
    cfg->group_id = gid ? wstrdup(gid) : NULL;
    /* a KafkaSource property, not the client's: offsets committed to the group on checkpoint
       completion (true by default; Boolean.parseBoolean; off without a group.id, as KafkaSourceBuilder) */
    const char *coc = wopts_get(&cfg->props, "commit.offsets.on.checkpoint");
    cfg->commit_offsets = gid && (!coc || strcasecmp(coc, "true") == 0);
    if (coc) wopts_remove(&cfg->props, "commit.offsets.on.checkpoint");
    return true;
}

bool wkafka_check_bounded(WKafkaConfig *cfg, const WTableSpec *spec, bool as_source, WError *err)
{
    const WOptions *o = spec->options;
    if (!parse_mode(o, "scan.bounded.mode", true, &cfg->bounded, err) ||
        !parse_offsets(o, "scan.bounded.specific-offsets", &cfg->bounded_offsets, &cfg->nbounded_offsets, err) ||
        !wopts_get_long(o, "scan.bounded.timestamp-millis", -1, &cfg->bounded_ts, err))
        return false;
    if (cfg->bounded == WKS_TIMESTAMP && cfg->bounded_ts < 0)
        return werr_set(err, WEXC_VALIDATION,
                        "'scan.bounded.timestamp-millis' is required in 'timestamp' bounded mode but missing.");
    if (cfg->bounded == WKS_SPECIFIC && !cfg->nbounded_offsets)
        return werr_set(err, WEXC_VALIDATION,
                        "'scan.bounded.specific-offsets' is required in 'specific-offsets' bounded mode but missing.");
    if (as_source && spec->bounded && cfg->bounded == WKS_UNBOUNDED)
        return werr_set(err, WEXC_VALIDATION,
                        "Querying an unbounded table 'default_catalog.default_database.%s' in batch mode is not allowed. "
                        "The table source is unbounded.", spec->short_name ? spec->short_name : spec->name);
    return true;
}

bool wkafka_sink_options(WKafkaConfig *cfg, const WOptions *o, bool as_source, WError *err)
{
    const char *dg = wopts_get_or(o, "sink.delivery-guarantee", "at-least-once");
    if (strcasecmp(dg, "at-least-once") != 0 && strcasecmp(dg, "none") != 0 && strcasecmp(dg, "exactly-once") != 0)
        return wconn_enum_error(&wkafka_delivery_enum, err);
    cfg->exactly_once = strcasecmp(dg, "exactly-once") == 0;
    cfg->at_least_once = cfg->exactly_once || strcasecmp(dg, "at-least-once") == 0;
    const char *prefix = wopts_get(o, "sink.transactional-id-prefix");
    if (!as_source && cfg->exactly_once && !prefix)   /* present, even empty: KafkaConnectorOptionsUtil.validateDeliveryGuarantee */
        return werr_set(err, WEXC_VALIDATION,
                        "sink.transactional-id-prefix must be specified when using DeliveryGuarantee.EXACTLY_ONCE.");
    if (cfg->exactly_once && prefix) cfg->txn_prefix = wstrdup(prefix);
    const char *ns = wopts_get_or(o, "sink.transaction-naming-strategy", "INCREMENTING");
    if (strcasecmp(ns, "INCREMENTING") != 0 && strcasecmp(ns, "POOLING") != 0)
        return wconn_enum_error(&wkafka_naming_enum, err);
    if (strcasecmp(ns, "POOLING") == 0)
        return werr_set(err, WEXC_VALIDATION, "Option 'sink.transaction-naming-strategy' = '%s' of the '%s' connector is "
                        "not supported by weir yet (only INCREMENTING).", ns, wopts_get_or(o, "connector", "kafka"));
    int64_t par;
    return wopts_get_long(o, "sink.parallelism", 1, &par, err) && wopts_get_long(o, "scan.parallelism", 1, &par, err);
}

bool wkafka_config(WKafkaConfig *cfg, const WTableSpec *spec, bool as_source, WError *err)
{
    const WOptions *o = spec->options;
    if (strcmp(wopts_get_or(o, "connector", ""), "upsert-kafka") == 0) return wkafka_upsert_config(cfg, spec, as_source, err);
    if (!wkafka_check_common(cfg, spec, "kafka", KAFKA_INVENTORY, as_source, err)) return false;
    const char *fmt = wopts_get(o, "format"), *vfmt = wopts_get(o, "value.format"), *kfmt = wopts_get(o, "key.format");
    if (fmt && vfmt)
        return werr_set(err, WEXC_VALIDATION,
                        "Option 'format' = '%s' and 'value.format' = '%s' are both set; use one of them.", fmt, vfmt);
    if (!fmt && !vfmt)
        return werr_set(err, WEXC_VALIDATION, "Could not find required %s format 'value.format'.",
                        as_source ? "scan" : "sink");
    /* startup and bounded modes */
    if (!parse_mode(o, "scan.startup.mode", false, &cfg->startup, err) ||
        !parse_offsets(o, "scan.startup.specific-offsets", &cfg->startup_offsets, &cfg->nstartup_offsets, err) ||
        !wopts_get_long(o, "scan.startup.timestamp-millis", -1, &cfg->startup_ts, err))
        return false;
    if (cfg->startup == WKS_TIMESTAMP && cfg->startup_ts < 0)
        return werr_set(err, WEXC_VALIDATION,
                        "'scan.startup.timestamp-millis' is required in 'timestamp' startup mode but missing.");
    if (cfg->startup == WKS_SPECIFIC && !cfg->nstartup_offsets)
        return werr_set(err, WEXC_VALIDATION,
                        "'scan.startup.specific-offsets' is required in 'specific-offsets' startup mode but missing.");
    if (!wkafka_check_bounded(cfg, spec, as_source, err)) return false;
    if ((cfg->startup == WKS_SPECIFIC || cfg->bounded == WKS_SPECIFIC) && cfg->ntopics != 1)
        return werr_set(err, WEXC_VALIDATION,
                        "Currently Kafka source only supports specific offset for single topic.");
    /* sink options */
    const char *part = wopts_get_or(o, "sink.partitioner", "default");
    if (strcmp(part, "default") == 0) cfg->partitioner = WKP_DEFAULT;
    else if (strcmp(part, "fixed") == 0) cfg->partitioner = WKP_FIXED;
    else if (strcmp(part, "round-robin") == 0) cfg->partitioner = WKP_ROUND_ROBIN;
    else {
        /* Flink loads it as a class name (the client prints the root cause); weir has only the
           built-in partitioners */
        werr_set(err, "java.lang.ClassNotFoundException", "%s", part);
        werr_wrap(err, WEXC_VALIDATION, "Could not find and instantiate partitioner class '%s'", part);
        return false;
    }
    if (!wkafka_sink_options(cfg, o, as_source, err)) return false;
    /* KafkaConnectorOptions: 5 minutes by default, 0 disables; a bounded source never discovers
       (KafkaSourceBuilder sets partition.discovery.interval.ms to -1) */
    const char *pd = wopts_get(o, "scan.topic-partition-discovery.interval");
    cfg->discovery_ms = 5 * 60 * 1000;
    if (pd && !wopts_parse_duration_ms(pd, &cfg->discovery_ms, err)) return false;
    if (cfg->bounded != WKS_UNBOUNDED || cfg->discovery_ms < 0) cfg->discovery_ms = 0;
    /* key and value formats */
    int *kc = wmalloc(sizeof(int) * (size_t)(spec->ncols + 1)), *vc = wmalloc(sizeof(int) * (size_t)(spec->ncols + 1));
    int nk = 0, nv = 0;
    bool ok = key_projection(spec, kfmt, kc, &nk, err) && wkafka_value_projection(spec, kc, nk, vc, &nv, err) &&
              wkafka_init_codecs(cfg, spec, as_source, kc, nk, vc, nv, err);
    free(kc);
    free(vc);
    return ok;
}

void wkafka_config_free(WKafkaConfig *cfg)
{
    for (int i = 0; i < cfg->ntopics; i++) free(cfg->topics[i]);
    free(cfg->topics);
    free(cfg->pattern);
    free(cfg->group_id);
    free(cfg->startup_offsets);
    free(cfg->bounded_offsets);
    free(cfg->txn_prefix);
    wopts_free(&cfg->props);
    wkafka_codec_free(&cfg->key);
    wkafka_codec_free(&cfg->value);
    memset(cfg, 0, sizeof *cfg);
}

bool wkafka_validate(const WTableSpec *spec, bool as_source, WError *err)
{
    WKafkaConfig cfg;
    bool ok = wkafka_config(&cfg, spec, as_source, err);
    wkafka_config_free(&cfg);
    return ok;
}

/* unbounded unless 'scan.bounded.mode' names where the read ends */
bool wkafka_unbounded(const WOptions *options)
{
    const char *m = wopts_get(options, "scan.bounded.mode");
    return !m || strcmp(m, "unbounded") == 0;
}

static const WType KAFKA_PARTITION = {.id = WT_INT, .nullable = false};
static const WType KAFKA_TIMESTAMP = {.id = WT_TIMESTAMP_LTZ, .nullable = false, .precision = 3};
static const WType KAFKA_HEADERS = {.id = WT_MAP, .nullable = false, .key = &WTYPE_STRING, .elem = &WTYPE_BYTES};
static const WType KAFKA_TIMESTAMP_W = {.id = WT_TIMESTAMP_LTZ, .nullable = true, .precision = 3};
static const WType KAFKA_HEADERS_W = {.id = WT_MAP, .nullable = true, .key = &WTYPE_STRING, .elem = &WTYPE_BYTES};

static const WConnMetaKey KAFKA_READABLE[] = {
    {"topic", &WTYPE_STRING_NN},      {"partition", &KAFKA_PARTITION}, {"headers", &KAFKA_HEADERS},
    {"leader-epoch", &WTYPE_INT},     {"offset", &WTYPE_BIGINT_NN},    {"timestamp", &KAFKA_TIMESTAMP},
    {"timestamp-type", &WTYPE_STRING_NN},
};
static const WConnMetaKey KAFKA_WRITABLE[] = {{"headers", &KAFKA_HEADERS_W}, {"timestamp", &KAFKA_TIMESTAMP_W}};

const WConnMetadata wkafka_read_metadata = {
    KAFKA_READABLE, (int)(sizeof KAFKA_READABLE / sizeof *KAFKA_READABLE),
    "org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource"};
const WConnMetadata wkafka_write_metadata = {
    KAFKA_WRITABLE, (int)(sizeof KAFKA_WRITABLE / sizeof *KAFKA_WRITABLE),
    "org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSink"};

const WConnector wconn_kafka = {
    .name = "kafka",
    .caps = {.sink_kinds = WCONN_INSERT, .sink_kinds_fixed = true, .unbounded = wkafka_unbounded,
             .projection_pushdown = true, .read_metadata = &wkafka_read_metadata,
             .write_metadata = &wkafka_write_metadata},
    .options = KAFKA_INVENTORY,
    .can_source = true,
    .can_sink = true,
    .validate = wkafka_validate,
    .open_source = wkafka_open_source,
    .open_sink = wkafka_open_sink,
    .source_is_changelog = NULL,
};
