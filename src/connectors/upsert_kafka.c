/*
 * upsert_kafka.c — the 'upsert-kafka' connector's factory (Flink's UpsertKafkaDynamicTableFactory):
 * a Kafka topic read and written as an upsert changelog keyed by the table's PRIMARY KEY. Its option
 * inventory and validation (Flink's option names and messages) produce a WKafkaConfig (kafka.h)
 * with `upsert` set: the key format carries the primary key columns (no 'key.fields'), the value
 * format the columns 'value.fields-include' selects, the source reads every partition from the
 * earliest offset (Flink's upsert-kafka has no startup mode) and turns a record with a null value
 * (a tombstone) into a DELETE of its key; the sink writes UPDATE_AFTER / INSERT rows as records and
 * DELETE rows as tombstones, optionally through the reducing buffer of 'sink.buffer-flush.*'
 * (kafka_upsert_buffer.c). The source and sink are kafka_source.c / kafka_sink.c; the planner puts
 * ChangelogNormalize after the source (src/plan/changelog_source.c).
 * Depends on kafka.h.
 */
#include "kafka.h"
#include "conn_internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Flink's options (its formats are found before the options are validated: key.format and
   value.format are checked first, with the message of a missing format) */
static const WConnOption UPSERT_INVENTORY[] = {
    {"topic", WOPT_APPLIED, NULL, "the topics read (';'-separated) or the topic written", .type = WOT_LIST},
    {"topic-pattern", WOPT_APPLIED, NULL, "a regular expression of the topics read", .type = WOT_STRING},
    {"properties.bootstrap.servers", WOPT_APPLIED, NULL, "the brokers", .type = WOT_STRING, .required = WOPT_REQ},
    {"properties.#", WOPT_APPLIED, NULL, "passed to librdkafka as its configuration property", .type = WOT_STRING},
    {"key.format", WOPT_APPLIED, NULL, "the format of the key: the primary key columns (csv, json, raw)",
     .type = WOT_STRING},
    {"value.format", WOPT_APPLIED, NULL, "the value format (csv, json, raw)", .type = WOT_STRING},
    {"key.fields-prefix", WOPT_APPLIED, NULL, "the prefix of the key columns' names, removed in the key format",
     .type = WOT_STRING},
    {"value.fields-include", WOPT_APPLIED, "ALL", "ALL or EXCEPT_KEY: the columns the value carries",
     .type = WOT_ENUM, .enum_of = &wkafka_value_fields_enum},
    {"scan.bounded.mode", WOPT_APPLIED, "unbounded", "where a bounded read ends", .type = WOT_ENUM,
     .enum_of = &wkafka_bounded_mode_enum},
    {"scan.bounded.specific-offsets", WOPT_APPLIED, NULL, "end offsets per partition", .type = WOT_STRING},
    {"scan.bounded.timestamp-millis", WOPT_APPLIED, NULL, "end at the first record at or after this time",
     .type = WOT_LONG},
    {"scan.parallelism", WOPT_APPLIED, NULL, "the source's parallelism (runtime/vertices.c)", .type = WOT_INT},
    {"sink.buffer-flush.max-rows", WOPT_APPLIED, "0", "keys buffered (last row per key) before a flush",
     .type = WOT_INT},
    {"sink.buffer-flush.interval", WOPT_APPLIED, "0 s", "time after which the buffer is flushed",
     .type = WOT_DURATION},
    {"sink.delivery-guarantee", WOPT_APPLIED, "at-least-once",
     "none, at-least-once (flush at checkpoints) or exactly-once (transactions)", .type = WOT_ENUM,
     .enum_of = &wkafka_delivery_enum},
    {"sink.transactional-id-prefix", WOPT_APPLIED, NULL,
     "the transactional ids of exactly-once: <prefix>-<subtask>-<checkpoint>", .type = WOT_STRING},
    {"sink.transaction-naming-strategy", WOPT_APPLIED, "INCREMENTING", "INCREMENTING only (POOLING is refused)",
     .type = WOT_ENUM, .enum_of = &wkafka_naming_enum},
    {"property-version", WOPT_NO_EFFECT_IN_FLINK, NULL, "the version of the options' layout", .type = WOT_STRING},
    {"scan.watermark.alignment.group", WOPT_REFUSED, NULL, "watermark alignment is not implemented",
     .type = WOT_STRING},
    {"scan.watermark.alignment.max-drift", WOPT_REFUSED, NULL, "watermark alignment is not implemented",
     .type = WOT_DURATION},
    {"scan.watermark.alignment.update-interval", WOPT_REFUSED, "1s", "watermark alignment is not implemented",
     .type = WOT_DURATION},
    {"scan.watermark.emit.strategy", WOPT_APPLIED, "on-periodic",
     "on-periodic (default: every pipeline.auto-watermark-interval) or on-event (after every record)",
     .type = WOT_ENUM, .enum_of = &wconn_watermark_emit_enum},
    {"scan.watermark.idle-timeout", WOPT_APPLIED, NULL,
     "a partition without records that long no longer holds the watermark back", .type = WOT_DURATION},
    {"sink.parallelism", WOPT_APPLIED, NULL, "the sink's parallelism (runtime/vertices.c)", .type = WOT_INT},
    {0},
};

/* sink.buffer-flush.max-rows / .interval: both greater than zero, or neither
   (UpsertKafkaDynamicTableFactory.validateSinkBufferFlush). */
static bool buffer_flush(WKafkaConfig *cfg, const WOptions *o, WError *err)
{
    if (!wopts_get_long(o, "sink.buffer-flush.max-rows", 0, &cfg->flush_max_rows, err)) return false;
    const char *iv = wopts_get(o, "sink.buffer-flush.interval");
    cfg->flush_interval_ms = 0;
    if (iv && !wopts_parse_duration_ms(iv, &cfg->flush_interval_ms, err)) return false;
    if ((cfg->flush_max_rows > 0) != (cfg->flush_interval_ms > 0))
        return werr_set(err, WEXC_VALIDATION,
                        "'sink.buffer-flush.max-rows' and 'sink.buffer-flush.interval' must be set to be greater than "
                        "zero together to enable sink buffer flushing.");
    if (cfg->flush_max_rows <= 0) cfg->flush_max_rows = cfg->flush_interval_ms = 0;
    return true;
}

bool wkafka_upsert_config(WKafkaConfig *cfg, const WTableSpec *spec, bool as_source, WError *err)
{
    const WOptions *o = spec->options;
    memset(cfg, 0, sizeof *cfg);
    wopts_init(&cfg->props);
    if (!wopts_get(o, "key.format"))
        return werr_set(err, WEXC_VALIDATION, "Could not find required %s format 'key.format'.", as_source ? "scan" : "sink");
    if (!wopts_get(o, "value.format"))
        return werr_set(err, WEXC_VALIDATION, "Could not find required %s format 'value.format'.", as_source ? "scan" : "sink");
    wopts_free(&cfg->props);
    if (!wkafka_check_common(cfg, spec, "upsert-kafka", UPSERT_INVENTORY, as_source, err)) return false;
    cfg->upsert = true;
    if (spec->npk == 0)
        return werr_set(err, WEXC_VALIDATION,
                        "'upsert-kafka' tables require to define a PRIMARY KEY constraint. The PRIMARY KEY specifies "
                        "which columns should be read from or write to the Kafka message key. The PRIMARY KEY also "
                        "defines records in the 'upsert-kafka' table should update or delete on which keys.");
    cfg->startup = WKS_EARLIEST;
    if (!wkafka_check_bounded(cfg, spec, as_source, err) || !wkafka_sink_options(cfg, o, as_source, err) ||
        !buffer_flush(cfg, o, err))
        return false;
    /* the key carries the primary key columns, in the order of the key's declaration */
    const char *prefix = wopts_get_or(o, "key.fields-prefix", "");
    for (int k = 0; k < spec->npk; k++)
        if (strncmp(spec->col_names[spec->pk[k]], prefix, strlen(prefix)) != 0)
            return werr_set(err, WEXC_VALIDATION,
                            "All fields in 'key.fields' must be prefixed with '%s' when option 'key.fields-prefix' "
                            "is set but field '%s' is not prefixed.", prefix, spec->col_names[spec->pk[k]]);
    int *vc = wmalloc(sizeof(int) * (size_t)(spec->ncols + 1));
    int nv = 0;
    bool ok = wkafka_value_projection(spec, spec->pk, spec->npk, vc, &nv, err) &&
              wkafka_init_codecs(cfg, spec, as_source, spec->pk, spec->npk, vc, nv, err);
    free(vc);
    return ok;
}

const WConnector wconn_upsert_kafka = {
    .name = "upsert-kafka",
    /* an upsert source and sink by the primary key; Flink 2.3 pushes no projection into it */
    .caps = {.sink_kinds = WCONN_INSERT | WCONN_UPDATE_AFTER | WCONN_DELETE, .sink_kinds_fixed = true,
             .unbounded = wkafka_unbounded, .upsert_source = true, .read_metadata = &wkafka_read_metadata,
             .write_metadata = &wkafka_write_metadata},
    .options = UPSERT_INVENTORY,
    .can_source = true,
    .can_sink = true,
    .validate = wkafka_validate,
    .open_source = wkafka_open_source,
    .open_sink = wkafka_open_sink,
    .source_is_changelog = NULL,
};
