/* test_kafka_config.c — the 'kafka' connector's options read into its configuration (kafka.h):
   what each option selects, and Flink's errors for wrong combinations. The connector's reading and
   writing against a real broker is tested by the tests in tests/kafka. */
#include "unit.h"
#include "../../src/connectors/kafka.h"

#include <string.h>

typedef struct KSpec {
    WTableSpec spec;
    WOptions opts;
    const char *names[4];
    const WType *types[4];
    WCastCtx cast;
} KSpec;

static void kspec(KSpec *k, const char *const *kv)
{
    memset(k, 0, sizeof *k);
    wopts_init(&k->opts);
    k->names[0] = "k_id"; k->types[0] = &WTYPE_INT;
    k->names[1] = "name"; k->types[1] = &WTYPE_STRING;
    k->names[2] = "v"; k->types[2] = &WTYPE_BIGINT;
    k->spec.name = "default_catalog.default_database.t";
    k->spec.short_name = "t";
    k->spec.ncols = 3;
    k->spec.col_names = k->names;
    k->spec.col_types = k->types;
    k->spec.options = &k->opts;
    k->spec.cast = &k->cast;
    k->spec.parallelism = 1;
    wopts_set(&k->opts, "connector", "kafka");
    wopts_set(&k->opts, "properties.bootstrap.servers", "127.0.0.1:9");
    for (int i = 0; kv[i]; i += 2) wopts_set(&k->opts, kv[i], kv[i + 1]);
}

static bool kconfig(const char *const *kv, bool as_source, WKafkaConfig *cfg, WError *e)
{
    KSpec k;
    kspec(&k, kv);
    werr_clear(e);
    bool ok = wkafka_config(cfg, &k.spec, as_source, e);
    if (!ok) wkafka_config_free(cfg);
    if (ok) {
        /* the codecs keep pointers to the names, which live in k: copy what the checks read */
        static char names[8][32];
        for (int i = 0; i < cfg->key.ncols && i < 4; i++) { snprintf(names[i], 32, "%s", cfg->key.names[i]); cfg->key.names[i] = names[i]; }
        for (int i = 0; i < cfg->value.ncols && i < 4; i++) { snprintf(names[4 + i], 32, "%s", cfg->value.names[i]); cfg->value.names[i] = names[4 + i]; }
    }
    wopts_free(&k.opts);
    return ok;
}

WTEST(kafka_config_reads_options)
{
    WKafkaConfig c;
    WError e;
    /* topics, properties, startup and bounded modes */
    const char *const a[] = {"topic", "a; b", "format", "csv", "properties.group.id", "g1", "properties.fetch.min.bytes", "7",
                             "scan.startup.mode", "timestamp", "scan.startup.timestamp-millis", "1000",
                             "scan.bounded.mode", "latest-offset", NULL};
    CHECK(kconfig(a, true, &c, &e));
    CHECK_INT(c.ntopics, 2);
    CHECK_STR(c.topics[1], "b");
    CHECK_STR(c.group_id, "g1");
    CHECK_STR(wopts_get(&c.props, "fetch.min.bytes"), "7");
    CHECK_STR(wopts_get(&c.props, "bootstrap.servers"), "127.0.0.1:9");
    CHECK_INT(c.startup, WKS_TIMESTAMP);
    CHECK_INT(c.startup_ts, 1000);
    CHECK_INT(c.bounded, WKS_LATEST);
    CHECK_INT(c.value.kind, WKF_CSV);
    CHECK_INT(c.value.ncols, 3);
    CHECK(!c.has_key);
    wkafka_config_free(&c);
    /* default startup: group-offsets, unbounded */
    const char *const d[] = {"topic-pattern", "ev.*", "value.format", "json", NULL};
    CHECK(kconfig(d, true, &c, &e));
    CHECK_STR(c.pattern, "ev.*");
    CHECK_INT(c.startup, WKS_GROUP);
    CHECK_INT(c.bounded, WKS_UNBOUNDED);
    CHECK_INT(c.value.kind, WKF_JSON);
    wkafka_config_free(&c);
    /* specific offsets */
    const char *const s[] = {"topic", "t", "format", "csv", "scan.startup.mode", "specific-offsets",
                             "scan.startup.specific-offsets", "partition:0,offset:42;partition:3,offset:7",
                             "scan.bounded.mode", "specific-offsets", "scan.bounded.specific-offsets", "partition:1,offset:5",
                             "scan.bounded.timestamp-millis", "9", NULL};
    CHECK(kconfig(s, true, &c, &e));
    CHECK_INT(c.nstartup_offsets, 2);
    CHECK_INT(c.startup_offsets[1].partition, 3);
    CHECK_INT(c.startup_offsets[1].offset, 7);
    CHECK_INT(c.nbounded_offsets, 1);
    CHECK_INT(c.bounded_offsets[0].offset, 5);
    CHECK_INT(c.bounded_ts, 9);
    wkafka_config_free(&c);
    /* key and value: key.fields with a prefix (removed in the key format), EXCEPT_KEY */
    const char *const k[] = {"topic", "t", "key.format", "json", "key.fields", "k_id", "key.fields-prefix", "k_",
                             "value.format", "csv", "value.fields-include", "EXCEPT_KEY", NULL};
    CHECK(kconfig(k, true, &c, &e));
    CHECK(c.has_key);
    CHECK_INT(c.key.kind, WKF_JSON);
    CHECK_INT(c.key.ncols, 1);
    CHECK_STR(c.key.names[0], "id");
    CHECK_INT(c.value.ncols, 2);
    CHECK_INT(c.value.cols[0], 1);
    wkafka_config_free(&c);
    /* sink options */
    const char *const p[] = {"topic", "t", "format", "raw", "sink.partitioner", "round-robin",
                             "sink.delivery-guarantee", "none", "sink.parallelism", "2", NULL};
    KSpec one;
    (void)one;
    CHECK(!kconfig(p, false, &c, &e));      /* raw: one column only */
    CHECK(strstr(e.msg, "single physical column") != NULL);
    const char *const p2[] = {"topic", "t", "format", "csv", "sink.partitioner", "round-robin",
                              "sink.delivery-guarantee", "none", "sink.parallelism", "2", NULL};
    CHECK(kconfig(p2, false, &c, &e));
    CHECK_INT(c.partitioner, WKP_ROUND_ROBIN);
    CHECK(!c.at_least_once);
    wkafka_config_free(&c);
    const char *const p3[] = {"topic", "t", "format", "csv", "sink.partitioner", "fixed", NULL};
    CHECK(kconfig(p3, false, &c, &e));
    CHECK_INT(c.partitioner, WKP_FIXED);
    CHECK(c.at_least_once);
    wkafka_config_free(&c);
}

WTEST(kafka_config_errors)
{
    WKafkaConfig c;
    WError e;
    const char *const none[] = {"format", "csv", NULL};
    CHECK(!kconfig(none, true, &c, &e));
    CHECK_STR(e.msg, "Either 'topic' or 'topic-pattern' must be set.");
    const char *const both[] = {"topic", "t", "topic-pattern", "t.*", "format", "csv", NULL};
    CHECK(!kconfig(both, true, &c, &e));
    CHECK_STR(e.msg, "Option 'topic' and 'topic-pattern' shouldn't be set together.");
    const char *const nofmt[] = {"topic", "t", NULL};
    CHECK(!kconfig(nofmt, true, &c, &e));
    CHECK_STR(e.msg, "Could not find required scan format 'value.format'.");
    const char *const ts[] = {"topic", "t", "format", "csv", "scan.startup.mode", "timestamp", NULL};
    CHECK(!kconfig(ts, true, &c, &e));
    CHECK_STR(e.msg, "'scan.startup.timestamp-millis' is required in 'timestamp' startup mode but missing.");
    const char *const mode[] = {"topic", "t", "format", "csv", "scan.bounded.mode", "earliest-offset", NULL};
    CHECK(!kconfig(mode, true, &c, &e));
    CHECK_STR(e.msg, "Could not parse value for enum class "
                     "org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions$ScanBoundedMode. "
                     "Expected one of: [[unbounded, latest-offset, group-offsets, timestamp, specific-offsets]]");
    const char *const offs[] = {"topic", "t", "format", "csv", "scan.startup.mode", "specific-offsets",
                                "scan.startup.specific-offsets", "partition:0;offset:1", NULL};
    CHECK(!kconfig(offs, true, &c, &e));
    CHECK(strstr(e.msg, "should follow the format 'partition:0,offset:42;partition:1,offset:300'") != NULL);
    const char *const kf[] = {"topic", "t", "format", "csv", "key.fields", "k_id", NULL};
    CHECK(!kconfig(kf, true, &c, &e));
    CHECK_STR(e.msg, "The option 'key.fields' can only be declared if a key format is defined using 'key.format'.");
    const char *const kp[] = {"topic", "t", "format", "csv", "key.format", "csv", "key.fields", "name",
                              "key.fields-prefix", "k_", "value.fields-include", "EXCEPT_KEY", NULL};
    CHECK(!kconfig(kp, true, &c, &e));
    CHECK(strstr(e.msg, "must be prefixed with 'k_'") != NULL);
    const char *const kpa[] = {"topic", "t", "format", "csv", "key.format", "csv", "key.fields", "k_id",
                               "key.fields-prefix", "k_", NULL};
    CHECK(!kconfig(kpa, true, &c, &e));
    CHECK(strstr(e.msg, "A key prefix is not allowed when option 'value.fields-include' is set to 'ALL'") != NULL);
    /* exactly-once needs a transactional-id prefix (Flink 2.3 + kafka connector 4.0.1, measured); a
       source does not check it; an unknown guarantee fails with Flink's enum message */
    const char *const eo[] = {"topic", "t", "format", "csv", "sink.delivery-guarantee", "exactly-once", NULL};
    CHECK(!kconfig(eo, false, &c, &e));
    CHECK_STR(e.msg, "sink.transactional-id-prefix must be specified when using DeliveryGuarantee.EXACTLY_ONCE.");
    CHECK(kconfig(eo, true, &c, &e));
    wkafka_config_free(&c);
    const char *const eo2[] = {"topic", "t", "format", "csv", "sink.delivery-guarantee", "exactly-once",
                               "sink.transactional-id-prefix", "tx", NULL};
    CHECK(kconfig(eo2, false, &c, &e));
    CHECK(c.exactly_once && c.at_least_once);
    CHECK_STR(c.txn_prefix, "tx");
    wkafka_config_free(&c);
    const char *const eo3[] = {"topic", "t", "format", "csv", "sink.delivery-guarantee", "exactly-twice", NULL};
    CHECK(!kconfig(eo3, false, &c, &e));
    CHECK_STR(e.msg, "Could not parse value for enum class org.apache.flink.connector.base.DeliveryGuarantee. "
                     "Expected one of: [[exactly-once, at-least-once, none]]");
    const char *const ns[] = {"topic", "t", "format", "csv", "sink.delivery-guarantee", "exactly-once",
                              "sink.transactional-id-prefix", "tx", "sink.transaction-naming-strategy", "bogus", NULL};
    CHECK(!kconfig(ns, false, &c, &e));
    CHECK_STR(e.msg, "Could not parse value for enum class org.apache.flink.connector.kafka.sink.TransactionNamingStrategy. "
                     "Expected one of: [[INCREMENTING, POOLING]]");
    const char *const ns2[] = {"topic", "t", "format", "csv", "sink.delivery-guarantee", "exactly-once",
                               "sink.transactional-id-prefix", "", "sink.transaction-naming-strategy", "incrementing", NULL};
    CHECK(kconfig(ns2, false, &c, &e));     /* an empty prefix is accepted, as in Flink */
    CHECK_STR(c.txn_prefix, "");
    wkafka_config_free(&c);
    const char *const part[] = {"topic", "t", "format", "csv", "sink.partitioner", "com.example.P", NULL};
    CHECK(!kconfig(part, false, &c, &e));
    CHECK(strstr(e.msg, "com.example.P") != NULL);
    const char *const unk[] = {"topic", "t", "format", "csv", "scan.foo", "1", NULL};
    CHECK(!kconfig(unk, true, &c, &e));
    CHECK(strstr(e.msg, "Unsupported options found for 'kafka'.") != NULL);
    const char *const noboot[] = {NULL};
    KSpec k;
    kspec(&k, noboot);
    wopts_remove(&k.opts, "properties.bootstrap.servers");
    wopts_set(&k.opts, "topic", "t");
    werr_clear(&e);
    CHECK(!wkafka_config(&c, &k.spec, true, &e));
    wkafka_config_free(&c);
    CHECK(strstr(e.msg, "Missing required options are:\n\nproperties.bootstrap.servers") != NULL);
    wopts_free(&k.opts);
}

/* scan.watermark.* (measured on Flink 2.3 with the Kafka connector 4.0.1: the kafka table accepts
   them; a wrong emit strategy or duration fails with these texts; alignment is refused by weir) */
static bool uconfig(const char *const *kv, bool as_source, bool with_pk, WKafkaConfig *cfg, WError *e);

WTEST(kafka_scan_watermark_options)
{
    WKafkaConfig c;
    WError e;
    const char *const ok[] = {"topic", "t", "format", "csv", "scan.watermark.emit.strategy", "ON-EVENT",
                              "scan.watermark.idle-timeout", "1500 ms", NULL};
    CHECK(kconfig(ok, true, &c, &e));
    wkafka_config_free(&c);
    WOptions o;
    wopts_init(&o);
    WScanWatermark sw;
    werr_clear(&e);
    CHECK(wconn_scan_watermark(&o, &sw, &e));
    CHECK(sw.emit == -1 && sw.idle_timeout_ms == -1);
    wopts_set(&o, "scan.watermark.emit.strategy", "on-periodic");
    wopts_set(&o, "scan.watermark.idle-timeout", "2 s");
    CHECK(wconn_scan_watermark(&o, &sw, &e));
    CHECK(sw.emit == 1 && sw.idle_timeout_ms == 2000);
    wopts_set(&o, "scan.watermark.emit.strategy", "On-Event");
    CHECK(wconn_scan_watermark(&o, &sw, &e));
    CHECK(sw.emit == 0);
    wopts_free(&o);
    const char *const bad[] = {"topic", "t", "format", "csv", "scan.watermark.emit.strategy", "bogus", NULL};
    CHECK(!kconfig(bad, true, &c, &e));
    CHECK_STR(e.msg, "Could not parse value for enum class org.apache.flink.table.watermark.WatermarkEmitStrategy. "
                     "Expected one of: [[on-event, on-periodic]]");
    const char *const dur[] = {"topic", "t", "format", "csv", "scan.watermark.idle-timeout", "abc", NULL};
    CHECK(!kconfig(dur, true, &c, &e));
    CHECK_STR(e.msg, "text does not start with a number, and is not a valid ISO-8601 duration format: abc");
    const char *const al[] = {"topic", "t", "format", "csv", "scan.watermark.alignment.group", "g", NULL};
    CHECK(!kconfig(al, true, &c, &e));
    CHECK_STR(e.msg, "Option 'scan.watermark.alignment.group' of the 'kafka' connector is not supported by weir yet "
                     "(watermark alignment is not implemented).");
    /* a sink reads them too (measured on Flink 2.3: its factory parses every option it declares) */
    CHECK(!kconfig(bad, false, &c, &e));
    CHECK_STR(e.msg, "Could not parse value for enum class org.apache.flink.table.watermark.WatermarkEmitStrategy. "
                     "Expected one of: [[on-event, on-periodic]]");
    wkafka_config_free(&c);
    /* upsert-kafka: the same options */
    const char *const uok[] = {"topic", "t", "key.format", "csv", "value.format", "json",
                               "scan.watermark.emit.strategy", "on-event", "scan.watermark.idle-timeout", "1 s", NULL};
    CHECK(uconfig(uok, true, true, &c, &e));
    wkafka_config_free(&c);
    const char *const ubad[] = {"topic", "t", "key.format", "csv", "value.format", "json", "scan.watermark.emit.strategy", "x", NULL};
    CHECK(!uconfig(ubad, true, true, &c, &e));
    CHECK(strstr(e.msg, "WatermarkEmitStrategy") != NULL);
}

WTEST(kafka_split_owner_as_flink)
{
    /* KafkaSourceEnumerator.getSplitOwner: ((topic.hashCode() * 31) & 0x7FFFFFFF) % n, + partition */
    int seen[4] = {0};
    for (int p = 0; p < 4; p++) seen[wkafka_split_owner("events", p, 4)]++;
    for (int i = 0; i < 4; i++) CHECK_INT(seen[i], 1);
    /* "events".hashCode() = -1291329255; * 31 = -1376501241 (int); & 0x7FFFFFFF = 770982407; % 3 = 2 */
    CHECK_INT(wkafka_split_owner("events", 0, 3), 2);
    CHECK_INT(wkafka_split_owner("events", 1, 3), 0);
}

/* 'upsert-kafka': the primary key (k_id) is the key; kv as for kconfig, connector replaced. */
static bool uconfig(const char *const *kv, bool as_source, bool with_pk, WKafkaConfig *cfg, WError *e)
{
    KSpec k;
    kspec(&k, kv);
    wopts_set(&k.opts, "connector", "upsert-kafka");
    static const int pk[] = {0};
    k.spec.npk = with_pk ? 1 : 0;
    k.spec.pk = pk;
    werr_clear(e);
    bool ok = wkafka_config(cfg, &k.spec, as_source, e);
    if (!ok) wkafka_config_free(cfg);
    wopts_free(&k.opts);
    return ok;
}

WTEST(upsert_kafka_config_reads_options)
{
    WKafkaConfig c;
    WError e;
    /* the key is the primary key; the value all columns (ALL); the source reads from the earliest offset */
    const char *const a[] = {"topic", "t", "key.format", "csv", "value.format", "json", "properties.fetch.min.bytes", "7",
                             "scan.bounded.mode", "timestamp", "scan.bounded.timestamp-millis", "1000", NULL};
    CHECK(uconfig(a, true, true, &c, &e));
    CHECK(c.upsert);
    CHECK(c.has_key);
    CHECK_INT(c.key.ncols, 1);
    CHECK_INT(c.key.cols[0], 0);
    CHECK_INT(c.value.ncols, 3);
    CHECK_INT(c.startup, WKS_EARLIEST);
    CHECK_INT(c.bounded, WKS_TIMESTAMP);
    CHECK_INT(c.bounded_ts, 1000);
    CHECK_STR(wopts_get(&c.props, "fetch.min.bytes"), "7");
    CHECK_INT(c.flush_max_rows, 0);
    CHECK(c.at_least_once);
    wkafka_config_free(&c);
    /* EXCEPT_KEY with a key prefix; topic-pattern; specific bounded offsets; the sink buffer */
    const char *const b[] = {"topic-pattern", "u.*", "key.format", "json", "value.format", "csv", "key.fields-prefix", "k_",
                             "value.fields-include", "EXCEPT_KEY", "scan.bounded.mode", "specific-offsets",
                             "scan.bounded.specific-offsets", "partition:0,offset:5", NULL};
    CHECK(uconfig(b, true, true, &c, &e));
    CHECK_STR(c.pattern, "u.*");
    CHECK_INT(c.value.ncols, 2);
    CHECK_INT(c.value.cols[0], 1);
    CHECK_INT(c.nbounded_offsets, 1);
    CHECK_INT(c.bounded_offsets[0].offset, 5);
    wkafka_config_free(&c);
    const char *const s[] = {"topic", "t", "key.format", "csv", "value.format", "csv", "sink.buffer-flush.max-rows", "50",
                             "sink.buffer-flush.interval", "2 s", "sink.delivery-guarantee", "none", NULL};
    CHECK(uconfig(s, false, true, &c, &e));
    CHECK_INT(c.flush_max_rows, 50);
    CHECK_INT(c.flush_interval_ms, 2000);
    CHECK(!c.at_least_once);
    wkafka_config_free(&c);
}

/* Flink 2.3's messages (measured with its Kafka SQL connector 4.0.1-2.0) */
WTEST(upsert_kafka_config_errors)
{
    WKafkaConfig c;
    WError e;
    const char *const ok[] = {"topic", "t", "key.format", "csv", "value.format", "json", NULL};
    CHECK(!uconfig(ok, true, false, &c, &e));
    CHECK_STR(e.msg, "'upsert-kafka' tables require to define a PRIMARY KEY constraint. The PRIMARY KEY specifies which "
                     "columns should be read from or write to the Kafka message key. The PRIMARY KEY also defines records "
                     "in the 'upsert-kafka' table should update or delete on which keys.");
    const char *const nokf[] = {"topic", "t", "value.format", "json", NULL};
    CHECK(!uconfig(nokf, true, true, &c, &e));
    CHECK_STR(e.msg, "Could not find required scan format 'key.format'.");
    CHECK(!uconfig(nokf, false, true, &c, &e));
    CHECK_STR(e.msg, "Could not find required sink format 'key.format'.");
    const char *const kf[] = {"topic", "t", "key.format", "csv", "value.format", "json", "key.fields", "k_id", NULL};
    CHECK(!uconfig(kf, true, true, &c, &e));
    CHECK(strncmp(e.msg, "Unsupported options found for 'upsert-kafka'.\n\nUnsupported options:\n\nkey.fields\n\n", 79) == 0);
    const char *const ss[] = {"topic", "t", "key.format", "csv", "value.format", "json", "scan.startup.mode", "earliest-offset", NULL};
    CHECK(!uconfig(ss, true, true, &c, &e));
    CHECK(strstr(e.msg, "Unsupported options:\n\nscan.startup.mode\n\n") != NULL);
    const char *const bf[] = {"topic", "t", "key.format", "csv", "value.format", "json", "sink.buffer-flush.max-rows", "10", NULL};
    CHECK(!uconfig(bf, false, true, &c, &e));
    CHECK_STR(e.msg, "'sink.buffer-flush.max-rows' and 'sink.buffer-flush.interval' must be set to be greater than zero "
                     "together to enable sink buffer flushing.");
    const char *const bf2[] = {"topic", "t", "key.format", "csv", "value.format", "json", "sink.buffer-flush.max-rows", "-1",
                               "sink.buffer-flush.interval", "1s", NULL};
    CHECK(!uconfig(bf2, false, true, &c, &e));
    CHECK(strstr(e.msg, "must be set to be greater than zero together") != NULL);
    const char *const eo[] = {"topic", "t", "key.format", "csv", "value.format", "json", "sink.delivery-guarantee", "exactly-once", NULL};
    CHECK(!uconfig(eo, false, true, &c, &e));
    CHECK_STR(e.msg, "sink.transactional-id-prefix must be specified when using DeliveryGuarantee.EXACTLY_ONCE.");
    const char *const ns[] = {"topic", "t", "key.format", "csv", "value.format", "json", "sink.delivery-guarantee", "exactly-once",
                              "sink.transactional-id-prefix", "p", "sink.transaction-naming-strategy", "POOLING", NULL};
    CHECK(!uconfig(ns, false, true, &c, &e));
    CHECK(strstr(e.msg, "'sink.transaction-naming-strategy' = 'POOLING'") != NULL);
    const char *const kp[] = {"topic", "t", "key.format", "csv", "value.format", "json", "key.fields-prefix", "x_", NULL};
    CHECK(!uconfig(kp, true, true, &c, &e));
    CHECK_STR(e.msg, "All fields in 'key.fields' must be prefixed with 'x_' when option 'key.fields-prefix' is set but "
                     "field 'k_id' is not prefixed.");
}

typedef struct URec { char line[64][48]; int n; } URec;

static bool urec(void *ctx, const void *key, size_t klen, const void *val, size_t vlen, const WKafkaMeta *meta,
                 WError *err)
{
    (void)err;
    URec *r = ctx;
    if (r->n >= 64) return true;
    char *l = r->line[r->n++];
    int o = snprintf(l, 48, "%.*s=%.*s", (int)klen, (const char *)key, val ? (int)vlen : 4, val ? (const char *)val : "NULL");
    if (meta && meta->ts >= 0) o += snprintf(l + o, (size_t)(48 - o), "@%lld", (long long)meta->ts);
    size_t pos = 0, hk, hv;
    const char *k;
    const void *v;
    while (meta && wkafka_headers_next(meta->hdrs, meta->hlen, &pos, &k, &hk, &v, &hv))
        o += snprintf(l + o, (size_t)(48 - o), " %.*s:%.*s", (int)hk, k, (int)hv, (const char *)v);
    return true;
}

static bool urec_part(void *ctx, int32_t part, const void *key, size_t klen, const void *val, size_t vlen,
                      const WKafkaMeta *meta, WError *err)
{
    (void)part;
    return urec(ctx, key, klen, val, vlen, meta, err);
}

/* a record's written metadata (timestamp, headers) stays with it in the upsert buffer (the latest
   record's) and through the exactly-once log's text */
WTEST(kafka_sink_metadata_kept_with_records)
{
    WError e;
    werr_clear(&e);
    WStrBuf h;
    wsb_init(&h);
    wkafka_headers_add(&h, "a", 1, "x", 1);
    wkafka_headers_add(&h, "b", 1, "", 0);
    WKafkaMeta m1 = {.ts = 5, .hdrs = h.buf, .hlen = h.len}, m2 = {.ts = 1700000000123};
    WKafkaUpsertBuf *b = wkafka_ubuf_new();
    wkafka_ubuf_put(b, "k1", 2, "a", 1, &m2);
    wkafka_ubuf_put(b, "k2", 2, "b", 1, NULL);
    wkafka_ubuf_put(b, "k1", 2, "c", 1, &m1);
    URec r = {.n = 0};
    CHECK(wkafka_ubuf_drain(b, urec, &r, &e));
    CHECK_INT(r.n, 2);
    CHECK_STR(r.line[0], "k1=c@5 a:x b:");
    CHECK_STR(r.line[1], "k2=b");
    wkafka_ubuf_free(b);
    WKafkaTxnLog l;
    wkafka_txnlog_init(&l);
    wkafka_txnlog_add(&l, 1, "k1", 2, "v", 1, &m1);
    wkafka_txnlog_add(&l, -1, NULL, 0, "w", 1, &m2);
    wkafka_txnlog_add(&l, 0, "k3", 2, NULL, 0, NULL);
    WStrBuf st;
    wsb_init(&st);
    wkafka_txnlog_state(&st, 7, &l);
    WKafkaTxnEntry t;
    CHECK(wkafka_txnlog_parse(st.buf, st.buf + st.len, &t, &e) == st.buf + st.len);
    r.n = 0;
    CHECK(wkafka_txnlog_replay(&t, urec_part, &r, &e));
    CHECK_INT(r.n, 3);
    CHECK_STR(r.line[0], "k1=v@5 a:x b:");
    CHECK_STR(r.line[1], "=w@1700000000123");
    CHECK_STR(r.line[2], "k3=NULL");
    wsb_free(&st);
    wkafka_txnlog_free(&l);
    wsb_free(&h);
}

/* the upsert sink's reducing buffer: the last record per key, in the keys' first-arrival order */
WTEST(upsert_kafka_buffer_reduces_per_key)
{
    WKafkaUpsertBuf *b = wkafka_ubuf_new();
    WError e;
    werr_clear(&e);
    CHECK_INT(wkafka_ubuf_put(b, "k1", 2, "a", 1, NULL), 1);
    CHECK_INT(wkafka_ubuf_put(b, "k2", 2, "b", 1, NULL), 2);
    CHECK_INT(wkafka_ubuf_put(b, "k1", 2, "c", 1, NULL), 2);        /* replaces k1's record */
    CHECK_INT(wkafka_ubuf_put(b, "k2", 2, NULL, 0, NULL), 2);       /* a tombstone replaces k2's */
    CHECK_INT(wkafka_ubuf_put(b, "k", 1, "d", 1, NULL), 3);         /* a prefix of another key is another key */
    URec r = {.n = 0};
    CHECK(wkafka_ubuf_drain(b, urec, &r, &e));
    CHECK_INT(r.n, 3);
    CHECK_STR(r.line[0], "k1=c");
    CHECK_STR(r.line[1], "k2=NULL");
    CHECK_STR(r.line[2], "k=d");
    CHECK_INT(wkafka_ubuf_count(b), 0);
    /* many keys (the index grows), then drained again in order */
    char k[16];
    for (int i = 0; i < 1000; i++) { snprintf(k, sizeof k, "x%d", i % 300); wkafka_ubuf_put(b, k, strlen(k), k, strlen(k), NULL); }
    CHECK_INT(wkafka_ubuf_count(b), 300);
    r.n = 0;
    CHECK(wkafka_ubuf_drain(b, urec, &r, &e));
    CHECK_STR(r.line[0], "x0=x0");
    CHECK_STR(r.line[63], "x63=x63");
    wkafka_ubuf_free(b);
}

/* The csv value codec: unquoted fields are read in place (a string's bytes copied into the arena,
   so its value outlives the record), quoted ones and a null literal as before, and a bad field
   fails naming it. */
WTEST(kafka_csv_decode_fields)
{
    WKafkaConfig c;
    WError e;
    const char *const a[] = {"topic", "t", "format", "csv", "csv.null-literal", "n/a", NULL};
    CHECK(kconfig(a, true, &c, &e));
    WArena arena;
    warena_init(&arena, 0);
    char eb[512];
    char rec[64];
    snprintf(rec, sizeof rec, "7,abc,123");
    CHECK_INT(wkafka_codec_decode(&c.value, rec, strlen(rec), &arena, eb, sizeof eb), 1);
    memset(rec, 'X', sizeof rec);      /* the record's buffer is freed after the decode */
    const WChunk *row = c.value.row;
    CHECK_INT(row->cols[0].data[0].i, 7);
    CHECK_INT(row->cols[1].data[0].s.len, 3);
    CHECK(memcmp(row->cols[1].data[0].s.p, "abc", 3) == 0);
    CHECK_INT(row->cols[2].data[0].i, 123);
    snprintf(rec, sizeof rec, "8,\"x,y\",-5");
    CHECK_INT(wkafka_codec_decode(&c.value, rec, strlen(rec), &arena, eb, sizeof eb), 1);
    memset(rec, 'X', sizeof rec);
    CHECK_INT(row->cols[1].data[0].s.len, 3);
    CHECK(memcmp(row->cols[1].data[0].s.p, "x,y", 3) == 0);
    CHECK_INT(row->cols[2].data[0].i, -5);
    snprintf(rec, sizeof rec, "9,n/a");        /* a null literal, and a missing last field */
    CHECK_INT(wkafka_codec_decode(&c.value, rec, strlen(rec), &arena, eb, sizeof eb), 1);
    CHECK_INT(row->cols[0].data[0].i, 9);
    CHECK(row->cols[1].nulls[0]);
    CHECK(row->cols[2].nulls[0]);
    snprintf(rec, sizeof rec, "1,b,12x");
    CHECK_INT(wkafka_codec_decode(&c.value, rec, strlen(rec), &arena, eb, sizeof eb), -1);
    CHECK(strstr(eb, "field 'v'") != NULL);
    warena_free(&arena);
    wkafka_config_free(&c);
}
