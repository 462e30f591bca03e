/*
 * kafka_sink.c — the 'kafka' sink: one librdkafka producer per subtask writing every row (insert
 * only) as one record: key and value encoded by their codecs (kafka.h), the partition chosen by
 * 'sink.partitioner' — default: Kafka's (murmur2 of the key bytes, any partition for a record
 * without key, as the Java client's default partitioner), fixed: partition subtask % partitions
 * (Flink's FlinkFixedPartitioner), round-robin: the partitions in turn. With
 * 'sink.delivery-guarantee' = 'at-least-once' (the default) every checkpoint waits until all
 * records written so far are acknowledged (prepare_commit); finish always does. A delivery
 * failure fails the job with the broker's reason.
 * 'upsert-kafka' (cfg.upsert): INSERT and UPDATE_AFTER rows are written as records, DELETE and
 * UPDATE_BEFORE rows as tombstones (the key with a null value); with 'sink.buffer-flush.max-rows' /
 * '.interval' the records go through the reducing buffer (kafka_upsert_buffer.c), flushed when it
 * holds max-rows keys, when a write finds the interval elapsed since the last flush (the job
 * clock; no timer fires between writes), at every checkpoint and at the end of the input.
 * Depends on kafka.h, librdkafka.
 */
#include "kafka.h"
#include "../common/proc_clock.h"
#include "conn_internal.h"

#include <librdkafka/rdkafka.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FLUSH_TIMEOUT_MS 120000

typedef struct KSink {
    WSink base;
    WKafkaConfig cfg;
    rd_kafka_t *rk;
    rd_kafka_topic_t *rkt;
    int subtask;
    int32_t npartitions;
    int32_t rr_next;
    char delivery_error[512];       /* first failed delivery (from the delivery report callback) */
    WKafkaUpsertBuf *buf;           /* upsert-kafka with sink.buffer-flush.*: NULL otherwise */
    int64_t last_flush_ms;
    int64_t (*clock)(void *ctx);
    void *clock_ctx;
} KSink;

static int64_t now_ms(const KSink *s)
{
    if (s->clock) return s->clock(s->clock_ctx);
    return wproc_wall_ms();
}

static void on_delivery(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque)
{
    (void)rk;
    KSink *s = opaque;
    if (m->err && !s->delivery_error[0])
        snprintf(s->delivery_error, sizeof s->delivery_error, "%s", rd_kafka_err2str(m->err));
}

static bool check_delivery(KSink *s, WError *err)
{
    if (!s->delivery_error[0]) return true;
    return werr_set(err, WEXC_IO, "Failed to send data to Kafka topic '%s': %s", s->cfg.topics[0], s->delivery_error);
}

static bool flush_all(KSink *s, WError *err)
{
    rd_kafka_resp_err_t e = rd_kafka_flush(s->rk, FLUSH_TIMEOUT_MS);
    if (!check_delivery(s, err)) return false;
    if (e) return werr_set(err, WEXC_IO, "Failed to flush the records to Kafka topic '%s': %s", s->cfg.topics[0], rd_kafka_err2str(e));
    return true;
}

/* Send one record (val NULL: a tombstone) to the partition 'sink.partitioner' picks. */
static bool produce(void *ctx, const void *key, size_t klen, const void *val, size_t vlen, WError *err)
{
    KSink *s = ctx;
    int32_t part = RD_KAFKA_PARTITION_UA;
    if (s->cfg.partitioner == WKP_FIXED) part = s->subtask % s->npartitions;
    else if (s->cfg.partitioner == WKP_ROUND_ROBIN) { part = s->rr_next; s->rr_next = (s->rr_next + 1) % s->npartitions; }
    for (;;) {
        if (rd_kafka_produce(s->rkt, part, RD_KAFKA_MSG_F_COPY, (void *)val, vlen, key, klen, NULL) == 0) return true;
        rd_kafka_resp_err_t e = rd_kafka_last_error();
        if (e != RD_KAFKA_RESP_ERR__QUEUE_FULL)
            return werr_set(err, WEXC_IO, "Failed to send data to Kafka topic '%s': %s", s->cfg.topics[0], rd_kafka_err2str(e));
        rd_kafka_poll(s->rk, 50);       /* wait for room: deliveries free the queue */
        if (!check_delivery(s, err)) return false;
    }
}

static bool flush_buffer(KSink *s, WError *err)
{
    s->last_flush_ms = now_ms(s);
    return !s->buf || wkafka_ubuf_drain(s->buf, produce, s, err);
}

static bool ksk_write(WSink *base, const WChunk *in, WError *err)
{
    KSink *s = (KSink *)base;
    for (int r = 0; r < in->nrows; r++) {
        const void *key = NULL, *val = NULL;
        size_t klen = 0, vlen = 0;
        if (s->cfg.has_key) {
            if (!wkafka_codec_encode(&s->cfg.key, in, r, err)) return false;
            key = s->cfg.key.buf.buf ? s->cfg.key.buf.buf : "";
            klen = s->cfg.key.buf.len;
        }
        bool tombstone = s->cfg.upsert && (in->kinds[r] == WRK_DELETE || in->kinds[r] == WRK_UPDATE_BEFORE);
        if (!tombstone) {
            if (!wkafka_codec_encode(&s->cfg.value, in, r, err)) return false;
            bool raw_null = s->cfg.value.kind == WKF_RAW && in->cols[s->cfg.value.cols[0]].nulls[r];
            if (!raw_null) {
                val = s->cfg.value.buf.buf ? s->cfg.value.buf.buf : "";
                vlen = s->cfg.value.buf.len;
            }
        }
        if (!s->buf) {
            if (!produce(s, key, klen, val, vlen, err)) return false;
        } else if (wkafka_ubuf_put(s->buf, key, klen, val, vlen) >= s->cfg.flush_max_rows && !flush_buffer(s, err)) {
            return false;
        }
    }
    if (s->buf && now_ms(s) - s->last_flush_ms >= s->cfg.flush_interval_ms && !flush_buffer(s, err)) return false;
    rd_kafka_poll(s->rk, 0);
    base->rows_written += in->nrows;
    return check_delivery(s, err);
}

static bool ksk_finish(WSink *base, WError *err)
{
    return flush_buffer((KSink *)base, err) && flush_all((KSink *)base, err);
}

/* A checkpoint: at-least-once waits for every record written before it; no state to keep. */
static bool ksk_prepare_commit(WSink *base, int64_t ckpt_id, char **state, WError *err)
{
    KSink *s = (KSink *)base;
    (void)ckpt_id;
    *state = NULL;
    if (!flush_buffer(s, err)) return false;
    return s->cfg.at_least_once ? flush_all(s, err) : check_delivery(s, err);
}

static bool ksk_commit(WSink *base, int64_t ckpt_id, WError *err) { (void)base; (void)ckpt_id; (void)err; return true; }
static bool ksk_recover(WSink *base, const char *state, WError *err) { (void)base; (void)state; (void)err; return true; }

static void ksk_close(WSink *base)
{
    KSink *s = (KSink *)base;
    if (s->rkt) rd_kafka_topic_destroy(s->rkt);
    if (s->rk) {
        rd_kafka_flush(s->rk, 5000);
        rd_kafka_destroy(s->rk);
    }
    wkafka_ubuf_free(s->buf);
    wkafka_config_free(&s->cfg);
    free(s);
}

WSink *wkafka_open_sink(const WTableSpec *spec, WError *err)
{
    KSink *s = wcalloc(1, sizeof *s);
    s->base.write = ksk_write;
    s->base.finish = ksk_finish;
    s->base.close = ksk_close;
    s->base.prepare_commit = ksk_prepare_commit;
    s->base.commit = ksk_commit;
    s->base.recover = ksk_recover;
    s->subtask = spec->subtask;
    s->clock = spec->clock;
    s->clock_ctx = spec->clock_ctx;
    if (!wkafka_config(&s->cfg, spec, false, err)) { ksk_close(&s->base); return NULL; }
    if (s->cfg.flush_max_rows > 0) s->buf = wkafka_ubuf_new();
    s->last_flush_ms = now_ms(s);
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    char eb[512];
    /* the Java client's default partitioner: murmur2 of the key, any partition without a key */
    rd_kafka_conf_set(conf, "partitioner", "murmur2_random", eb, sizeof eb);
    rd_kafka_conf_set(conf, "log_level", "3", eb, sizeof eb);
    for (int i = 0; i < s->cfg.props.n; i++) {
        const char *k = s->cfg.props.items[i].key, *v = s->cfg.props.items[i].value;
        if (!strcmp(k, "group.id")) continue;       /* a consumer property; Flink passes it, the producer ignores it */
        if (rd_kafka_conf_set(conf, k, v, eb, sizeof eb) != RD_KAFKA_CONF_OK) {
            rd_kafka_conf_destroy(conf);
            werr_set(err, WEXC_VALIDATION, "Invalid Kafka property 'properties.%s' = '%s': %s", k, v, eb);
            ksk_close(&s->base);
            return NULL;
        }
    }
    rd_kafka_conf_set_opaque(conf, s);
    rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
    s->rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, eb, sizeof eb);
    if (!s->rk) {
        werr_set(err, WEXC_IO, "Kafka: cannot create the producer: %s", eb);
        ksk_close(&s->base);
        return NULL;
    }
    s->rkt = rd_kafka_topic_new(s->rk, s->cfg.topics[0], NULL);
    const struct rd_kafka_metadata *md = NULL;
    rd_kafka_resp_err_t e = rd_kafka_metadata(s->rk, 0, s->rkt, &md, 30000);
    if (e || !md || md->topic_cnt != 1 || md->topics[0].err || md->topics[0].partition_cnt == 0) {
        werr_set(err, WEXC_IO, "Failed to get metadata for topics [%s]: %s.", s->cfg.topics[0],
                 e ? rd_kafka_err2str(e) : md && md->topic_cnt == 1 && md->topics[0].err
                                               ? rd_kafka_err2str(md->topics[0].err) : "the topic does not exist");
        if (md) rd_kafka_metadata_destroy(md);
        ksk_close(&s->base);
        return NULL;
    }
    s->npartitions = md->topics[0].partition_cnt;
    rd_kafka_metadata_destroy(md);
    s->rr_next = spec->subtask % s->npartitions;
    return &s->base;
}
