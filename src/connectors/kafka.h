/*
 * kafka.h — private to src/connectors: Flink's 'kafka' and 'upsert-kafka' connectors (librdkafka
 * underneath).
 *
 * Contract:
 *  - WKafkaConfig is a table's WITH options read and validated once (kafka.c) with Flink's option
 *    names: topics or a topic pattern, the librdkafka properties ('properties.*' minus the
 *    prefix), startup and bounded modes, key/value formats and the columns each one carries.
 *  - A WKafkaCodec (kafka_codec.c) turns a record's key or value bytes into the columns of its
 *    format (csv, json, raw) and back, with the format's own options ('csv.*', 'key.csv.*', ...).
 *    It reads into a private one-row chunk whose values' bytes live in the caller's arena.
 *  - kafka_source.c / kafka_sink.c open the consumer and the producer, for both connectors; the
 *    exactly-once sink keeps each pre-committed transaction's records (kafka_txn.c) until it is
 *    known committed, so that a restore can write them again when the failure aborted it.
 *  - upsert-kafka (upsert_kafka.c) reads its options into the same WKafkaConfig with `upsert` set
 *    (the key: the PRIMARY KEY columns; a null value: a DELETE / tombstone); its sink's reducing
 *    buffer is kafka_upsert_buffer.c.
 * Depends on connector.h, csv_reader.h, format_json.h, types/, common/.
 */
#ifndef WEIR_CONNECTORS_KAFKA_H
#define WEIR_CONNECTORS_KAFKA_H

#include <stdbool.h>
#include <stdint.h>
#include "connector.h"
#include "csv_reader.h"
#include "format_json.h"

typedef enum { WKF_CSV, WKF_JSON, WKF_RAW } WKafkaFormatKind;

/* One side (key or value) of a record: its format and the table columns it carries. */
typedef struct WKafkaCodec {
    WKafkaFormatKind kind;
    int ncols;
    int *cols;                  /* indexes into the table's physical columns */
    const char **names;         /* field names in the format (key.fields-prefix removed) */
    const WType **types;
    WCsvConfig csv;
    WJsonFmt json;
    bool raw_big_endian;
    WJsonReader *jrd;           /* json decoding */
    WChunk *row;                /* decoding: one row of the format's fields */
    WStrBuf buf;                /* encoding */
    WChunk view;                /* encoding: the row's columns of this side */
    WVector *view_cols;
} WKafkaCodec;

typedef enum { WKS_EARLIEST, WKS_LATEST, WKS_GROUP, WKS_TIMESTAMP, WKS_SPECIFIC, WKS_UNBOUNDED } WKafkaMode;
typedef enum { WKP_DEFAULT, WKP_FIXED, WKP_ROUND_ROBIN } WKafkaPartitioner;

typedef struct WKafkaOffset { int32_t partition; int64_t offset; } WKafkaOffset;

typedef struct WKafkaConfig {
    char **topics;              /* 'topic' split on ';' */
    int ntopics;
    char *pattern;              /* 'topic-pattern' (Java regex, matched whole) */
    WOptions props;             /* 'properties.*' without the prefix */
    char *group_id;             /* properties.group.id (NULL: unset) */
    int64_t discovery_ms;       /* source: scan.topic-partition-discovery.interval (0: off) */
    bool commit_offsets;        /* source: commit the checkpointed offsets to the group (commit.offsets.on.checkpoint) */
    WKafkaMode startup;
    int64_t startup_ts;
    WKafkaOffset *startup_offsets;
    int nstartup_offsets;
    WKafkaMode bounded;         /* WKS_UNBOUNDED unless scan.bounded.mode says otherwise */
    int64_t bounded_ts;
    WKafkaOffset *bounded_offsets;
    int nbounded_offsets;
    WKafkaPartitioner partitioner;
    bool at_least_once;         /* sink.delivery-guarantee at-least-once (or exactly-once: also flushes) */
    bool exactly_once;          /* sink.delivery-guarantee exactly-once: Kafka transactions */
    char *txn_prefix;           /* sink.transactional-id-prefix (exactly-once) */
    bool upsert;                /* 'upsert-kafka': the key is the primary key, a null value is a DELETE */
    int64_t flush_max_rows;     /* upsert sink: sink.buffer-flush.max-rows (0: no buffer) */
    int64_t flush_interval_ms;  /* upsert sink: sink.buffer-flush.interval */
    bool has_key;
    WKafkaCodec key, value;
} WKafkaConfig;

/* Read and validate spec's options (Flink's messages); an 'upsert-kafka' table is read by
   wkafka_upsert_config (upsert_kafka.c). */
bool wkafka_config(WKafkaConfig *cfg, const WTableSpec *spec, bool as_source, WError *err);
bool wkafka_upsert_config(WKafkaConfig *cfg, const WTableSpec *spec, bool as_source, WError *err);
/* Pieces of the configuration shared by both connectors (kafka.c). wkafka_check_common validates the
   options against the connector's inventory inv (wconnector_check_inventory; the formats' own
   options are supported too, under their prefixes) and reads the topics and the properties. */
bool wkafka_check_common(WKafkaConfig *cfg, const WTableSpec *spec, const char *connector, const WConnOption *inv,
                         bool as_source, WError *err);
/* The enums of KafkaConnectorOptions and the sink's, shared by both inventories. */
extern const WOptEnum wkafka_bounded_mode_enum, wkafka_value_fields_enum, wkafka_delivery_enum, wkafka_naming_enum;
/* scan.bounded.mode and its offsets / timestamp (a batch query needs a bounded one). */
bool wkafka_check_bounded(WKafkaConfig *cfg, const WTableSpec *spec, bool as_source, WError *err);
/* sink.delivery-guarantee (none / at-least-once / exactly-once with its transactional-id prefix) and
   the parallelism options. */
bool wkafka_sink_options(WKafkaConfig *cfg, const WOptions *o, bool as_source, WError *err);
/* The value's columns (value.fields-include, key.fields-prefix) given the key's kc[nk]; then both
   codecs (key.format / value.format, or 'format' for the value). */
bool wkafka_value_projection(const WTableSpec *spec, const int *kc, int nk, int *vc, int *nv, WError *err);
bool wkafka_init_codecs(WKafkaConfig *cfg, const WTableSpec *spec, bool as_source, const int *kc, int nk,
                        const int *vc, int nv, WError *err);
void wkafka_config_free(WKafkaConfig *cfg);
/* The connectors' validate hook (kafka and upsert-kafka): wkafka_config on the table's options. */
bool wkafka_validate(const WTableSpec *spec, bool as_source, WError *err);
/* Is a kafka or upsert-kafka source with these options unbounded (no 'scan.bounded.mode')? */
bool wkafka_unbounded(const WOptions *options);
/* The metadata of Flink's KafkaDynamicSource (ReadableMetadata: topic, partition, headers,
   leader-epoch, offset, timestamp, timestamp-type) and KafkaDynamicSink (WritableMetadata:
   headers, timestamp), kafka's and upsert-kafka's alike. */
extern const WConnMetadata wkafka_read_metadata, wkafka_write_metadata;
/* Their source and sink (kafka_source.c, kafka_sink.c). */
WSource *wkafka_open_source(const WTableSpec *spec, WError *err);
WSink *wkafka_open_sink(const WTableSpec *spec, WError *err);
/* Flink's owner of a partition among parallel readers (KafkaSourceEnumerator.getSplitOwner). */
int wkafka_split_owner(const char *topic, int32_t partition, int parallelism);

/* Codec set-up (within wkafka_config): format options are read under opt_prefix ("" for 'format',
   "key." / "value."); names/types are the codec's columns. */
bool wkafka_codec_init(WKafkaCodec *c, const char *format, const char *opt_prefix, const WOptions *o,
                       bool as_source, const WTableSpec *spec, WError *err);
void wkafka_codec_free(WKafkaCodec *c);
/* Decode bytes (NULL = no key/value) into row 0 of c->row: 1 = one row, 0 = skipped (a tombstone,
   or a bad record under ignore-parse-errors), -1 = error (cause in eb). The values' bytes (strings,
   composites) are allocated in `arena` (the caller's output chunk's), so they stay valid as long as
   it and the caller can take the values without copying them. */
int wkafka_codec_decode(WKafkaCodec *c, const void *p, size_t n, WArena *arena, char *eb, size_t esz);
/* Encode row `row` of in (the table's physical columns) into c->buf; false with err set. */
bool wkafka_codec_encode(WKafkaCodec *c, const WChunk *in, int row, WError *err);

/* A record's writable metadata (a sink's 'timestamp' / 'headers' columns, Flink's
   KafkaDynamicSink.WritableMetadata): ts the record's CreateTime in epoch ms (-1: none, the
   producer's clock); hdrs the headers as wkafka_headers_add appends them (hlen 0: none). */
typedef struct WKafkaMeta {
    int64_t ts;
    const char *hdrs;
    size_t hlen;
} WKafkaMeta;
/* Append one header to a WKafkaMeta's header bytes: u32 key length, key, u32 value length, value
   (native byte order; the bytes only travel inside one build of the engine). */
void wkafka_headers_add(WStrBuf *b, const char *key, size_t klen, const void *val, size_t vlen);
/* The i-th header of hdrs[0..hlen) from offset *pos (advanced); false at the end. */
bool wkafka_headers_next(const char *hdrs, size_t hlen, size_t *pos, const char **key, size_t *klen,
                         const void **val, size_t *vlen);

/* The upsert sink's reducing buffer (kafka_upsert_buffer.c): the latest record (val NULL: a
   tombstone) per key bytes, drained in the keys' first-arrival order. put returns the number of
   keys buffered; drain passes every record to fn (stopping at its first false) and empties it. */
typedef struct WKafkaUpsertBuf WKafkaUpsertBuf;
typedef bool (*WKafkaRecordFn)(void *ctx, const void *key, size_t klen, const void *val, size_t vlen,
                               const WKafkaMeta *meta, WError *err);
WKafkaUpsertBuf *wkafka_ubuf_new(void);
int64_t wkafka_ubuf_put(WKafkaUpsertBuf *b, const void *key, size_t klen, const void *val, size_t vlen,
                        const WKafkaMeta *meta);
int64_t wkafka_ubuf_count(const WKafkaUpsertBuf *b);
bool wkafka_ubuf_drain(WKafkaUpsertBuf *b, WKafkaRecordFn fn, void *ctx, WError *err);
void wkafka_ubuf_free(WKafkaUpsertBuf *b);

/* Exactly-once (kafka_txn.c): the records of a transaction kept until it is known committed, its
   text in a checkpoint, and the restore's check of whether a pre-committed transaction committed. */
typedef struct WKafkaTxnLog {
    WStrBuf recs;               /* one line per record (kafka_txn.c) */
    int64_t nrecs;
    int32_t probe_part;         /* the first acknowledged record (-1: none yet) */
    int64_t probe_off;
} WKafkaTxnLog;
typedef struct WKafkaTxnEntry {  /* a log read back from a checkpoint (points into its text) */
    int64_t ckpt, nrecs, probe_off;
    int32_t probe_part;
    const char *recs, *recs_end;
} WKafkaTxnEntry;
typedef bool (*WKafkaPartRecordFn)(void *ctx, int32_t part, const void *key, size_t klen, const void *val, size_t vlen,
                                   const WKafkaMeta *meta, WError *err);
void wkafka_txnlog_init(WKafkaTxnLog *l);
void wkafka_txnlog_free(WKafkaTxnLog *l);
void wkafka_txnlog_add(WKafkaTxnLog *l, int32_t part, const void *key, size_t klen, const void *val, size_t vlen,
                       const WKafkaMeta *meta);
void wkafka_txnlog_state(WStrBuf *out, int64_t ckpt, const WKafkaTxnLog *l);
/* Parse the log starting at p (before end); returns the text after it, NULL with err set. */
const char *wkafka_txnlog_parse(const char *p, const char *end, WKafkaTxnEntry *t, WError *err);
bool wkafka_txnlog_replay(const WKafkaTxnEntry *t, WKafkaPartRecordFn fn, void *ctx, WError *err);
/* 1: the record at (partition, offset) of cfg's topic is visible to read_committed (its
   transaction committed); 0: it is not (aborted); -1: err set. */
int wkafka_txn_committed(const WKafkaConfig *cfg, int32_t part, int64_t off, WError *err);

#endif
