/*
 * kafka_sink.c — the 'kafka' sink: one librdkafka producer per subtask writing every row (insert
 * only) as one record: key and value encoded by their codecs (kafka.h), the partition chosen by
 * 'sink.partitioner' — default: Kafka's (murmur2 of the key bytes, any partition for a record
 * without key, as the Java client's default partitioner), fixed: partition subtask % partitions
 * (Flink's FlinkFixedPartitioner), round-robin: the partitions in turn. With
 * 'sink.delivery-guarantee' = 'at-least-once' (the default) every checkpoint waits until all
 * records written so far are acknowledged (prepare_commit); finish always does. A delivery
 * failure fails the job with the broker's reason.
 * Writable metadata (Flink's KafkaDynamicSink.WritableMetadata): the sink's metadata columns follow
 * the physical ones in its rows (spec->meta_keys): 'timestamp' (TIMESTAMP_LTZ(3)) is the record's
 * CreateTime (NULL: the producer's clock; a negative one fails the job as Kafka's ProducerRecord
 * does), 'headers' (MAP<STRING, BYTES>) its headers in the map's order, entries with a NULL key or
 * value left out (NULL: none). They go with the record through the upsert buffer and the
 * exactly-once log.
 * Batching: a chunk of rows with neither metadata nor buffer nor transaction (the plain
 * at-least-once / none sink) is encoded whole into one byte buffer, its records grouped by
 * partition (stable: each partition keeps the rows' order) and handed to librdkafka with one
 * rd_kafka_produce_batch per partition, after waiting until the producer queue
 * (queue.buffering.max.messages) has room for them: one lock and one clock read per batch instead
 * of per record. The partition is chosen here then: keyed records by murmur2 of the key (what
 * librdkafka's murmur2 partitioner computes), keyless ones with 'default' all to one partition per
 * chunk, the next chunk to the next partition (as the Java client's sticky partitioner fills one
 * partition's batch before it moves on, KIP-480/KIP-794).
 * 'upsert-kafka' (cfg.upsert): INSERT and UPDATE_AFTER rows are written as records, DELETE and
 * UPDATE_BEFORE rows as tombstones (the key with a null value); with 'sink.buffer-flush.max-rows' /
 * '.interval' the records go through the reducing buffer (kafka_upsert_buffer.c), flushed when it
 * holds max-rows keys, when a write finds the interval elapsed since the last flush (the job
 * clock; no timer fires between writes), at every checkpoint and at the end of the input.
 * Exactly-once ('sink.delivery-guarantee' = 'exactly-once', Flink's ExactlyOnceKafkaWriter with the
 * DEFAULT naming strategy): the records go into Kafka transactions, one transactional producer per
 * transaction (librdkafka binds a producer to one transactional.id), named
 * '<sink.transactional-id-prefix>-<subtask>-<checkpoint id>' where the checkpoint is the one that
 * will pre-commit it (the first: 1, or the restored checkpoint's id + 1). A transaction begins with
 * the first record after a checkpoint; prepare_commit flushes it (pre-commit) and keeps it open
 * until commit(ckpt) says its checkpoint completed, which commits it. Without checkpointing
 * (`transactional` false) the end of the input commits it. recover (a restore from checkpoint R of
 * subtask s) aborts what the failed run may have left open: the ids s-R, s-R+1 and s-R+2 (the
 * runtime has one checkpoint pending at a time, so a run pre-commits at most R+1 past the last
 * completed R and has R+2 open); init_transactions of an id fences its old producer and aborts its
 * open transaction. close aborts the transaction in progress, not the pre-committed ones.
 * Depends on kafka.h, librdkafka.
 */
#include "kafka.h"
#include "../common/proc_clock.h"
#include "conn_internal.h"

#include <librdkafka/rdkafka.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FLUSH_TIMEOUT_MS 120000
#define TXN_TIMEOUT_MS 60000            /* init / commit / abort of a transaction */

/* A pre-committed transaction waiting for its checkpoint to complete. */
typedef struct KTxn {
    int64_t ckpt;
    rd_kafka_t *rk;
    rd_kafka_topic_t *rkt;
    WKafkaTxnLog log;               /* its records, in the checkpoints until it committed */
} KTxn;

typedef struct KSink {
    WSink base;
    WKafkaConfig cfg;
    rd_kafka_t *rk;                 /* the producer (exactly-once: of the transaction in progress, or NULL) */
    rd_kafka_topic_t *rkt;
    int subtask;
    int64_t txn_ckpt;               /* exactly-once: the checkpoint id naming the next transaction */
    KTxn *pending;                  /* exactly-once: pre-committed transactions, oldest first */
    int npending, cap_pending;
    WKafkaTxnLog log;               /* exactly-once: the records of the transaction in progress */
    WStrBuf restored;               /* exactly-once: the restored run's transactions not known committed
                                       (kafka_txn.c's text), checked and written again if aborted before
                                       the first record after the restore */
    int32_t npartitions;
    int32_t rr_next;
    char delivery_error[512];       /* first failed delivery (from the delivery report callback) */
    WKafkaUpsertBuf *buf;           /* upsert-kafka with sink.buffer-flush.*: NULL otherwise */
    int64_t last_flush_ms;
    int64_t (*clock)(void *ctx);
    void *clock_ctx;
    int ts_col, hdr_col;            /* the row's 'timestamp' / 'headers' metadata column (-1: none) */
    WStrBuf hdrs;                   /* the headers of the row being written */
    int32_t sticky;                 /* batching: the partition of the next chunk's keyless records */
    int64_t queue_max;              /* batching: the producer's queue.buffering.max.messages */
    WStrBuf bytes;                  /* batching: the chunk's keys and values */
    size_t *offs;                   /* batching: per row key offset, key length, value offset, value length */
    int32_t *parts;                 /* batching: per row its partition */
    int *starts;                    /* batching: per partition its first message in msgs (npartitions + 1) */
    rd_kafka_message_t *msgs;       /* batching: the chunk's records grouped by partition */
    int cap_rows;
} KSink;

static int64_t now_ms(const KSink *s)
{
    if (s->clock) return s->clock(s->clock_ctx);
    return wproc_wall_ms();
}

static void on_delivery(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque)
{
    KSink *s = opaque;
    if (!m->err && s->cfg.exactly_once && rk == s->rk && s->log.probe_part < 0) {
        s->log.probe_part = m->partition;       /* the transaction's probe (kafka_txn.c) */
        s->log.probe_off = m->offset;
    }
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

static bool ensure_txn(KSink *s, WError *err);

void wkafka_headers_add(WStrBuf *b, const char *key, size_t klen, const void *val, size_t vlen)
{
    uint32_t n = (uint32_t)klen;
    wsb_appendn(b, (const char *)&n, sizeof n);
    wsb_appendn(b, key, klen);
    n = (uint32_t)vlen;
    wsb_appendn(b, (const char *)&n, sizeof n);
    wsb_appendn(b, val, vlen);
}

bool wkafka_headers_next(const char *hdrs, size_t hlen, size_t *pos, const char **key, size_t *klen,
                         const void **val, size_t *vlen)
{
    uint32_t n;
    if (*pos + sizeof n > hlen) return false;
    memcpy(&n, hdrs + *pos, sizeof n);
    *key = hdrs + *pos + sizeof n;
    *klen = n;
    *pos += sizeof n + n;
    assert(*pos + sizeof n <= hlen);
    memcpy(&n, hdrs + *pos, sizeof n);
    *val = hdrs + *pos + sizeof n;
    *vlen = n;
    *pos += sizeof n + n;
    assert(*pos <= hlen);
    return true;
}

/* One record to the producer: librdkafka's producev with the metadata's timestamp and headers. */
static rd_kafka_resp_err_t send_record(KSink *s, int32_t part, const void *key, size_t klen, const void *val, size_t vlen,
                                       const WKafkaMeta *meta)
{
    if (!meta || (meta->ts < 0 && !meta->hlen)) {
        if (rd_kafka_produce(s->rkt, part, RD_KAFKA_MSG_F_COPY, (void *)val, vlen, (void *)key, klen, NULL) == 0) return 0;
        return rd_kafka_last_error();
    }
    rd_kafka_headers_t *h = NULL;
    if (meta->hlen) {
        h = rd_kafka_headers_new(8);
        size_t pos = 0, kl, hvl;
        const char *k;
        const void *v;
        while (wkafka_headers_next(meta->hdrs, meta->hlen, &pos, &k, &kl, &v, &hvl))
            rd_kafka_header_add(h, k, (ssize_t)kl, v, (ssize_t)hvl);
    }
    rd_kafka_resp_err_t e = rd_kafka_producev(s->rk, RD_KAFKA_V_RKT(s->rkt), RD_KAFKA_V_PARTITION(part),
                                              RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                              RD_KAFKA_V_VALUE((void *)val, vlen), RD_KAFKA_V_KEY(key, klen),
                                              RD_KAFKA_V_TIMESTAMP(meta->ts < 0 ? 0 : meta->ts),
                                              RD_KAFKA_V_HEADERS(h), RD_KAFKA_V_END);
    if (e && h) rd_kafka_headers_destroy(h);     /* producev owns them only when it succeeds */
    return e;
}

/* Send one record (val NULL: a tombstone) to partition part (RD_KAFKA_PARTITION_UA: Kafka's
   partitioner) with its metadata (NULL: none); exactly-once: in the transaction, and in its log. */
static bool produce_to(void *ctx, int32_t part, const void *key, size_t klen, const void *val, size_t vlen,
                       const WKafkaMeta *meta, WError *err)
{
    KSink *s = ctx;
    if (s->cfg.exactly_once) {
        if (!ensure_txn(s, err)) return false;
        wkafka_txnlog_add(&s->log, part, key, klen, val, vlen, meta);
    }
    for (;;) {
        rd_kafka_resp_err_t e = send_record(s, part, key, klen, val, vlen, meta);
        if (!e) return true;
        if (e != RD_KAFKA_RESP_ERR__QUEUE_FULL)
            return werr_set(err, WEXC_IO, "Failed to send data to Kafka topic '%s': %s", s->cfg.topics[0], rd_kafka_err2str(e));
        rd_kafka_poll(s->rk, 50);       /* wait for room: deliveries free the queue */
        if (!check_delivery(s, err)) return false;
    }
}

/* Send one record to the partition 'sink.partitioner' picks. */
static bool produce(void *ctx, const void *key, size_t klen, const void *val, size_t vlen, const WKafkaMeta *meta,
                    WError *err)
{
    KSink *s = ctx;
    int32_t part = RD_KAFKA_PARTITION_UA;
    if (s->cfg.partitioner == WKP_FIXED) part = s->subtask % s->npartitions;
    else if (s->cfg.partitioner == WKP_ROUND_ROBIN) { part = s->rr_next; s->rr_next = (s->rr_next + 1) % s->npartitions; }
    return produce_to(s, part, key, klen, val, vlen, meta, err);
}

/* Exactly-once after a restore: the restored run's pre-committed transactions that turn out aborted
   (the failure came between their checkpoint's completion and their commit) are written again, in
   the first transaction. Done here, not in recover, so that every subtask has fenced the ids of the
   failed run first: an open transaction of any of them holds back what read_committed sees. */
static bool write_replay(KSink *s, WError *err)
{
    if (!s->restored.len) return true;
    bool ok = true;
    const char *p = s->restored.buf, *end = s->restored.buf + s->restored.len;
    while (ok && p < end) {
        WKafkaTxnEntry t;
        if (!(p = wkafka_txnlog_parse(p, end, &t, err))) { ok = false; break; }
        if (t.nrecs == 0) continue;
        int committed = t.probe_part < 0 ? 0 : wkafka_txn_committed(&s->cfg, t.probe_part, t.probe_off, err);
        if (committed < 0) ok = false;
        else if (!committed) ok = wkafka_txnlog_replay(&t, produce_to, s, err);
    }
    wsb_free(&s->restored);
    return ok;
}

static bool flush_buffer(KSink *s, WError *err)
{
    s->last_flush_ms = now_ms(s);
    return !s->buf || wkafka_ubuf_drain(s->buf, produce, s, err);
}

/* Row r's writable metadata into *m (s->hdrs holds its headers); false with err set. */
static bool row_meta(KSink *s, const WChunk *in, int r, WKafkaMeta *m, WError *err)
{
    *m = (WKafkaMeta){.ts = -1};
    if (s->ts_col >= 0 && !in->cols[s->ts_col].nulls[r]) {
        m->ts = in->cols[s->ts_col].data[r].ts.ms;
        if (m->ts < 0)      /* Kafka's ProducerRecord refuses it (measured: the Flink job fails) */
            return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid timestamp: %lld. Timestamp should always be non-negative or null.",
                            (long long)m->ts);
    }
    if (s->hdr_col >= 0 && !in->cols[s->hdr_col].nulls[r]) {
        const WComposite *cx = in->cols[s->hdr_col].data[r].cx;
        wsb_clear(&s->hdrs);
        for (int i = 0; cx && i < cx->n; i++) {
            if (cx->nulls[2 * i] || cx->nulls[2 * i + 1]) continue;     /* as Flink: entries with a NULL are left out */
            const WStr *k = &cx->vals[2 * i].s, *v = &cx->vals[2 * i + 1].s;
            wkafka_headers_add(&s->hdrs, k->p, (size_t)k->len, v->p, (size_t)v->len);
        }
        m->hdrs = s->hdrs.buf;
        m->hlen = s->hdrs.len;
    }
    return true;
}

/* Hand n records of partition part (msgs[0..n)) to librdkafka in batches that fit its queue. */
static bool produce_batch(KSink *s, int32_t part, rd_kafka_message_t *msgs, int n, WError *err)
{
    int64_t room = s->queue_max > 1 ? s->queue_max / 2 : 1;
    for (int done = 0; done < n;) {
        int k = n - done < room ? n - done : (int)room;
        /* wait for room: deliveries free the queue (a partial enqueue could reorder the partition) */
        while (rd_kafka_outq_len(s->rk) > 0 && rd_kafka_outq_len(s->rk) + k > s->queue_max) {
            rd_kafka_poll(s->rk, 50);
            if (!check_delivery(s, err)) return false;
        }
        int ok = rd_kafka_produce_batch(s->rkt, part, RD_KAFKA_MSG_F_COPY, msgs + done, k);
        if (ok < k) {
            /* what did not fit (the queue's byte limit): one at a time, waiting for room */
            for (int i = done; i < done + k; i++) {
                if (!msgs[i].err) continue;
                if (msgs[i].err != RD_KAFKA_RESP_ERR__QUEUE_FULL)
                    return werr_set(err, WEXC_IO, "Failed to send data to Kafka topic '%s': %s", s->cfg.topics[0],
                                    rd_kafka_err2str(msgs[i].err));
                if (!produce_to(s, part, msgs[i].key, msgs[i].key_len, msgs[i].payload, msgs[i].len, NULL, err))
                    return false;
            }
        }
        done += k;
    }
    return true;
}

/* The batched write of a chunk (see the top): encode every row, group by partition, produce. */
static bool write_batched(KSink *s, const WChunk *in, WError *err)
{
    int n = in->nrows;
    if (n > s->cap_rows) {
        s->cap_rows = n;
        s->offs = wrealloc(s->offs, sizeof *s->offs * 4 * (size_t)n);
        s->parts = wrealloc(s->parts, sizeof *s->parts * (size_t)n);
        s->msgs = wrealloc(s->msgs, sizeof *s->msgs * (size_t)n);
    }
    wsb_clear(&s->bytes);
    int32_t np = s->npartitions;
    int32_t sticky = s->sticky;
    s->sticky = (s->sticky + 1) % np;
    for (int r = 0; r < n; r++) {
        size_t *o = s->offs + 4 * (size_t)r;
        o[0] = s->bytes.len;
        o[1] = 0;
        if (s->cfg.has_key) {
            if (!wkafka_codec_encode(&s->cfg.key, in, r, err)) return false;
            wsb_appendn(&s->bytes, s->cfg.key.buf.buf ? s->cfg.key.buf.buf : "", s->cfg.key.buf.len);
            o[1] = s->cfg.key.buf.len;
        }
        if (!wkafka_codec_encode(&s->cfg.value, in, r, err)) return false;
        o[2] = s->bytes.len;
        o[3] = s->cfg.value.kind == WKF_RAW && in->cols[s->cfg.value.cols[0]].nulls[r] ? SIZE_MAX : s->cfg.value.buf.len;
        if (o[3] != SIZE_MAX) wsb_appendn(&s->bytes, s->cfg.value.buf.buf ? s->cfg.value.buf.buf : "", s->cfg.value.buf.len);
        int32_t part;
        if (s->cfg.partitioner == WKP_FIXED) part = s->subtask % np;
        else if (s->cfg.partitioner == WKP_ROUND_ROBIN) { part = s->rr_next; s->rr_next = (s->rr_next + 1) % np; }
        else if (s->cfg.has_key)
            part = rd_kafka_msg_partitioner_murmur2(s->rkt, s->bytes.buf + o[0], o[1], np, NULL, NULL);
        else part = sticky;
        assert(part >= 0 && part < np);
        s->parts[r] = part;
    }
    /* group the rows by partition (a counting sort: each partition's rows in the chunk's order) */
    int *st = s->starts;
    memset(st, 0, sizeof *st * (size_t)(np + 1));
    for (int r = 0; r < n; r++) st[s->parts[r] + 1]++;
    for (int32_t p = 0; p < np; p++) st[p + 1] += st[p];
    for (int r = 0; r < n; r++) {
        const size_t *o = s->offs + 4 * (size_t)r;
        rd_kafka_message_t *msg = &s->msgs[st[s->parts[r]]++];
        memset(msg, 0, sizeof *msg);
        msg->key = s->cfg.has_key ? s->bytes.buf + o[0] : NULL;
        msg->key_len = o[1];
        msg->payload = o[3] == SIZE_MAX ? NULL : s->bytes.buf + o[2];
        msg->len = o[3] == SIZE_MAX ? 0 : o[3];
    }
    /* st[p] is now the end of partition p's messages, its start that of p - 1 */
    for (int32_t p = 0; p < np; p++) {
        int from = p ? st[p - 1] : 0;
        if (st[p] > from && !produce_batch(s, p, s->msgs + from, st[p] - from, err)) return false;
    }
    assert(st[np - 1] == n);
    return true;
}

static bool ksk_write(WSink *base, const WChunk *in, WError *err)
{
    KSink *s = (KSink *)base;
    if (!write_replay(s, err)) return false;
    bool has_meta = s->ts_col >= 0 || s->hdr_col >= 0;
    if (!has_meta && !s->buf && !s->cfg.exactly_once && !s->cfg.upsert && in->nrows > 0) {
        if (!write_batched(s, in, err)) return false;
        rd_kafka_poll(s->rk, 0);
        base->rows_written += in->nrows;
        return check_delivery(s, err);
    }
    for (int r = 0; r < in->nrows; r++) {
        WKafkaMeta meta;
        if (has_meta && !row_meta(s, in, r, &meta, err)) return false;
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
            if (!produce(s, key, klen, val, vlen, has_meta ? &meta : NULL, err)) return false;
        } else if (wkafka_ubuf_put(s->buf, key, klen, val, vlen, has_meta ? &meta : NULL) >= s->cfg.flush_max_rows &&
                   !flush_buffer(s, err)) {
            return false;
        }
    }
    if (s->buf && now_ms(s) - s->last_flush_ms >= s->cfg.flush_interval_ms && !flush_buffer(s, err)) return false;
    if (s->rk) rd_kafka_poll(s->rk, 0);
    base->rows_written += in->nrows;
    return check_delivery(s, err);
}

/* A producer writing to the sink's topic; txid non-NULL: transactional (initialized, so an open
   transaction of an earlier producer with this id is aborted). */
static bool new_producer(KSink *s, const char *txid, rd_kafka_t **rkp, rd_kafka_topic_t **rktp, WError *err)
{
    *rkp = NULL;
    *rktp = NULL;
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    char eb[512];
    /* the Java client's default partitioner: murmur2 of the key, any partition without a key */
    rd_kafka_conf_set(conf, "partitioner", "murmur2_random", eb, sizeof eb);
    rd_kafka_conf_set(conf, "log_level", "3", eb, sizeof eb);
    for (int i = 0; i < s->cfg.props.n; i++) {
        const char *k = s->cfg.props.items[i].key, *v = s->cfg.props.items[i].value;
        if (!strcmp(k, "group.id")) continue;       /* a consumer property; Flink passes it, the producer ignores it */
        if (txid && !strcmp(k, "transactional.id")) continue;   /* Flink overrides it too */
        if (rd_kafka_conf_set(conf, k, v, eb, sizeof eb) != RD_KAFKA_CONF_OK) {
            rd_kafka_conf_destroy(conf);
            return werr_set(err, WEXC_VALIDATION, "Invalid Kafka property 'properties.%s' = '%s': %s", k, v, eb);
        }
    }
    /* Flink's KafkaSink sets transaction.timeout.ms to 1 hour unless the table says otherwise (a
       broker with the default transaction.max.timeout.ms of 15 minutes refuses it, in Flink too) */
    if (txid && !wopts_get(&s->cfg.props, "transaction.timeout.ms"))
        rd_kafka_conf_set(conf, "transaction.timeout.ms", "3600000", eb, sizeof eb);
    if (txid && rd_kafka_conf_set(conf, "transactional.id", txid, eb, sizeof eb) != RD_KAFKA_CONF_OK) {
        rd_kafka_conf_destroy(conf);
        return werr_set(err, WEXC_VALIDATION, "Invalid transactional id '%s': %s", txid, eb);
    }
    rd_kafka_conf_set_opaque(conf, s);
    rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, eb, sizeof eb);
    if (!rk) return werr_set(err, WEXC_IO, "Kafka: cannot create the producer: %s", eb);
    if (txid) {
        rd_kafka_error_t *e = NULL;
        /* a retriable error (CONCURRENT_TRANSACTIONS while the old transaction is being aborted) is retried */
        for (int attempt = 0; attempt < 20; attempt++) {
            if (e) rd_kafka_error_destroy(e);
            e = rd_kafka_init_transactions(rk, TXN_TIMEOUT_MS);
            if (!e || !rd_kafka_error_is_retriable(e)) break;
            rd_kafka_poll(rk, 500);
        }
        if (e) {
            werr_set(err, WEXC_IO, "Failed to initialize the Kafka transactions of transactional id '%s': %s", txid,
                     rd_kafka_error_string(e));
            rd_kafka_error_destroy(e);
            rd_kafka_destroy(rk);
            return false;
        }
    }
    *rkp = rk;
    *rktp = rd_kafka_topic_new(rk, s->cfg.topics[0], NULL);
    return true;
}

static char *txn_id(const KSink *s, int subtask, int64_t ckpt)
{
    char *id = wmalloc(strlen(s->cfg.txn_prefix) + 48);
    sprintf(id, "%s-%d-%lld", s->cfg.txn_prefix, subtask, (long long)ckpt);
    return id;
}

static void destroy_producer(rd_kafka_t *rk, rd_kafka_topic_t *rkt)
{
    if (rkt) rd_kafka_topic_destroy(rkt);
    if (rk) rd_kafka_destroy(rk);
}

/* Exactly-once: the transaction records go to; begun with the first record after a checkpoint. */
static bool ensure_txn(KSink *s, WError *err)
{
    if (s->rk) return true;
    assert(s->cfg.exactly_once);
    char *id = txn_id(s, s->subtask, s->txn_ckpt);
    bool ok = new_producer(s, id, &s->rk, &s->rkt, err);
    if (ok) {
        rd_kafka_error_t *e = rd_kafka_begin_transaction(s->rk);
        if (e) {
            ok = werr_set(err, WEXC_IO, "Failed to begin the Kafka transaction '%s': %s", id, rd_kafka_error_string(e));
            rd_kafka_error_destroy(e);
        }
    }
    free(id);
    return ok;
}

/* End a transaction of producer rk: commit (true) or abort. */
static bool end_txn(KSink *s, rd_kafka_t *rk, bool commit, WError *err)
{
    rd_kafka_error_t *e = commit ? rd_kafka_commit_transaction(rk, TXN_TIMEOUT_MS) : rd_kafka_abort_transaction(rk, TXN_TIMEOUT_MS);
    if (!e) return true;
    werr_set(err, WEXC_IO, "Failed to %s the Kafka transaction of topic '%s': %s", commit ? "commit" : "abort",
             s->cfg.topics[0], rd_kafka_error_string(e));
    rd_kafka_error_destroy(e);
    return false;
}

static bool ksk_finish(WSink *base, WError *err)
{
    KSink *s = (KSink *)base;
    if (!write_replay(s, err) || !flush_buffer(s, err)) return false;
    if (!s->rk) return true;                        /* exactly-once, nothing since the last checkpoint */
    if (!flush_all(s, err)) return false;
    if (!s->cfg.exactly_once || base->transactional) return true;  /* the final checkpoint commits it */
    /* exactly-once without checkpointing: the end of the input commits (Flink's endInput commit) */
    bool ok = end_txn(s, s->rk, true, err);
    destroy_producer(s->rk, s->rkt);
    s->rk = NULL;
    s->rkt = NULL;
    wkafka_txnlog_free(&s->log);
    return ok;
}

/* A checkpoint: at-least-once waits for every record written before it; exactly-once also
   pre-commits the transaction in progress (kept until commit) and names the next one after the
   next checkpoint. */
static bool ksk_prepare_commit(WSink *base, int64_t ckpt_id, char **state, WError *err)
{
    KSink *s = (KSink *)base;
    *state = NULL;
    if (!write_replay(s, err) || !flush_buffer(s, err)) return false;
    if (!s->cfg.exactly_once) return s->cfg.at_least_once ? flush_all(s, err) : check_delivery(s, err);
    if (s->rk) {
        if (!flush_all(s, err)) return false;
        if (s->npending == s->cap_pending) {
            s->cap_pending = s->cap_pending ? 2 * s->cap_pending : 4;
            s->pending = wrealloc(s->pending, sizeof *s->pending * (size_t)s->cap_pending);
        }
        s->pending[s->npending++] = (KTxn){.ckpt = ckpt_id, .rk = s->rk, .rkt = s->rkt, .log = s->log};
        wkafka_txnlog_init(&s->log);
        s->rk = NULL;
        s->rkt = NULL;
    }
    s->txn_ckpt = ckpt_id + 1;
    /* the state: this subtask and the checkpoint (for the restore's abort of what a failed run
       left open), and every transaction not yet committed with its records */
    WStrBuf b;
    wsb_init(&b);
    wsb_printf(&b, "S %d %lld\n", s->subtask, (long long)ckpt_id);
    for (int i = 0; i < s->npending; i++) wkafka_txnlog_state(&b, s->pending[i].ckpt, &s->pending[i].log);
    *state = wsb_detach(&b);
    return true;
}

/* Checkpoint ckpt_id completed: commit the transactions it and the earlier ones pre-committed. */
static bool ksk_commit(WSink *base, int64_t ckpt_id, WError *err)
{
    KSink *s = (KSink *)base;
    int kept = 0;
    bool ok = true;
    for (int i = 0; i < s->npending; i++) {
        KTxn *t = &s->pending[i];
        if (!ok || t->ckpt > ckpt_id) { s->pending[kept++] = *t; continue; }
        ok = end_txn(s, t->rk, true, err);
        destroy_producer(t->rk, t->rkt);
        wkafka_txnlog_free(&t->log);
    }
    s->npending = kept;
    return ok;
}

/* Fence transactional id <prefix>-sub-ckpt: aborts its transaction if a failed run left it open. */
static bool fence(KSink *s, int sub, int64_t ckpt, WError *err)
{
    char *id = txn_id(s, sub, ckpt);
    rd_kafka_t *rk;
    rd_kafka_topic_t *rkt;
    bool ok = new_producer(s, id, &rk, &rkt, err);
    free(id);
    if (ok) destroy_producer(rk, rkt);
    return ok;
}

/* A restore from the state prepare_commit wrote for checkpoint R of subtask sub: fence the ids the
   failed run may have left open (its pre-committed transactions, R, R+1 and R+2) and keep its
   pre-committed transactions for write_replay. */
static bool ksk_recover(WSink *base, const char *state, WError *err)
{
    KSink *s = (KSink *)base;
    if (!s->cfg.exactly_once || !state || !*state) return true;
    int sub, used = 0;
    long long r;
    if (sscanf(state, "S %d %lld\n%n", &sub, &r, &used) != 2 || used <= 0 || sub < 0 || r < 1)
        return werr_set(err, WEXC_IO, "The Kafka sink's checkpointed state is not valid.");
    assert(!s->rk && s->npending == 0);
    if (r + 1 > s->txn_ckpt) s->txn_ckpt = r + 1;
    const char *p = state + used, *end = state + strlen(state);
    while (p < end) {
        WKafkaTxnEntry t;
        if (!(p = wkafka_txnlog_parse(p, end, &t, err))) return false;
        if (t.ckpt < r && !fence(s, sub, t.ckpt, err)) return false;     /* R and later: below */
    }
    for (long long c = r; c <= r + 2; c++)
        if (!fence(s, sub, c, err)) return false;
    wsb_append(&s->restored, state + used);
    return true;
}

static void ksk_close(WSink *base)
{
    KSink *s = (KSink *)base;
    if (s->cfg.exactly_once && s->rk) {
        WError e = {0};
        end_txn(s, s->rk, false, &e);       /* the transaction in progress; pre-committed ones stay for a restore */
        werr_clear(&e);
    }
    if (s->rkt) rd_kafka_topic_destroy(s->rkt);
    if (s->rk) {
        if (!s->cfg.exactly_once) rd_kafka_flush(s->rk, 5000);
        rd_kafka_destroy(s->rk);
    }
    for (int i = 0; i < s->npending; i++) {
        destroy_producer(s->pending[i].rk, s->pending[i].rkt);
        wkafka_txnlog_free(&s->pending[i].log);
    }
    wkafka_txnlog_free(&s->log);
    wsb_free(&s->restored);
    wsb_free(&s->hdrs);
    wsb_free(&s->bytes);
    free(s->offs);
    free(s->parts);
    free(s->starts);
    free(s->msgs);
    free(s->pending);
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
    s->txn_ckpt = 1;
    s->ts_col = s->hdr_col = -1;
    for (int m = 0; m < spec->nmeta; m++) {
        if (!strcmp(spec->meta_keys[m], "timestamp")) s->ts_col = spec->ncols + m;
        else if (!strcmp(spec->meta_keys[m], "headers")) s->hdr_col = spec->ncols + m;
        else assert(!"a metadata key the planner does not let a kafka sink write");
    }
    wkafka_txnlog_init(&s->log);
    if (!wkafka_config(&s->cfg, spec, false, err)) { ksk_close(&s->base); return NULL; }
    if (s->cfg.flush_max_rows > 0) s->buf = wkafka_ubuf_new();
    s->last_flush_ms = now_ms(s);
    /* the topic's partitions (exactly-once: with a plain producer; the transactional ones come later) */
    if (!new_producer(s, NULL, &s->rk, &s->rkt, err)) { ksk_close(&s->base); return NULL; }
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
    s->sticky = spec->subtask % s->npartitions;
    s->starts = wmalloc(sizeof *s->starts * (size_t)(s->npartitions + 1));
    char qm[32];
    size_t qml = sizeof qm;
    s->queue_max = 100000;
    if (rd_kafka_conf_get(rd_kafka_conf(s->rk), "queue.buffering.max.messages", qm, &qml) == RD_KAFKA_CONF_OK)
        s->queue_max = atoll(qm) > 0 ? atoll(qm) : 1;
    if (s->cfg.exactly_once) {
        destroy_producer(s->rk, s->rkt);
        s->rk = NULL;
        s->rkt = NULL;
    }
    return &s->base;
}
