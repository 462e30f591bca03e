/*
 * kafka_source.c — the 'kafka' source: one librdkafka consumer per subtask, with the partitions
 * assigned by hand as Flink's KafkaSourceEnumerator deals them (wkafka_split_owner), no group
 * rebalancing. At open it resolves each partition's start offset (scan.startup.mode) and, for a
 * bounded read, its stop offset (scan.bounded.mode, taken once at open: records at or after it are
 * not read); a bounded source ends when every partition has reached its stop offset (a partition
 * end event at or past it counts too, so transaction markers do not keep a read open). Records are
 * decoded by the key and value codecs; metadata columns (topic, partition, offset, timestamp,
 * timestamp-type, headers) follow the physical ones. The checkpoint position is the next offset
 * of every owned partition ("topic/partition/offset;..."; topic names have no '/' or ';'); seek
 * assigns those offsets. With 'properties.group.id' set (and the KafkaSource property
 * 'properties.commit.offsets.on.checkpoint' not false) the offsets of the last position() are
 * committed to the group when its checkpoint completes (Flink's KafkaSourceReader commits on
 * notifyCheckpointComplete), asynchronously: a failed commit only shows in the broker's group. A
 * bounded source that has ended commits no more (Flink's finished reader is not notified).
 * A record that cannot be decoded fails the job naming its topic, partition and offset.
 * 'upsert-kafka' (cfg.upsert): a record without value (a tombstone) is a DELETE row of its key,
 * every other record an INSERT (the planner's ChangelogNormalize makes the changelog whole).
 * Partition discovery ('scan.topic-partition-discovery.interval', unbounded sources): every interval
 * the metadata is read again and the new partitions this subtask owns are read from their earliest
 * offset (Flink's enumerator starts newly discovered partitions at EARLIEST).
 * Per-partition watermarks (WSource.split_watermarks): every chunk holds the records of one
 * partition (a record of another one is held for the next chunk) and names its split id; a
 * partition read to its stop offset is finished, one with nothing to read from the start only
 * after the first records were returned (Flink finishes those with its first fetch).
 * Records are taken from the consumer queue in batches (rd_kafka_consume_batch_queue, up to
 * FETCH_BATCH at a time) rather than one poll per record; those not yet turned into rows wait in
 * the source for the next call, and an assign (a restore's seek, a partition discovery) drops them:
 * the consumer fetches again from every partition's next offset.
 * Depends on kafka.h, librdkafka.
 */
#include "kafka.h"
#include "../common/proc_clock.h"
#include "../common/sort.h"
#include "conn_internal.h"

#include <librdkafka/rdkafka.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define META_TIMEOUT_MS 30000
#define FETCH_BATCH 1024            /* records taken from the consumer queue at a time */

enum { KM_TOPIC, KM_PARTITION, KM_OFFSET, KM_TIMESTAMP, KM_TIMESTAMP_TYPE, KM_HEADERS };

typedef struct KPart {
    char *topic;
    int32_t partition;
    int64_t next;           /* offset of the next record to read */
    int64_t stop;           /* bounded: first offset not read (-1: unbounded) */
    int64_t ckpt;           /* next as of the last position() (-1: none), committed when it completes */
    int split;              /* the split id of the source's per-partition watermark (WSource.split) */
    bool done;
} KPart;

typedef struct KSource {
    WSource base;
    WKafkaConfig cfg;
    rd_kafka_t *rk;
    KPart *parts;
    int nparts, ndone;
    int ncols, nmeta;
    int *meta_kind;
    char *table;
    const WType *headers_type;
    int subtask, parallelism;
    int64_t next_discovery_ms;      /* monotonic time of the next partition discovery */
    uint8_t *fin;                   /* per split id: read to its stop offset (WSource.split_finished) */
    rd_kafka_queue_t *queue;        /* the consumer's queue (records, partition ends, errors) */
    rd_kafka_message_t **batch;     /* taken from the queue, not yet turned into rows: batch[ibatch..nbatch) */
    int ibatch, nbatch;
    bool release_pending;           /* partitions with nothing to read at assign() are not finished yet */
    bool had_rows;                  /* a chunk with rows was returned since assign() */
    bool ended;                     /* bounded: every partition read to its stop offset */
} KSource;

static bool rk_error(WError *err, const char *what, rd_kafka_resp_err_t e)
{
    return werr_set(err, WEXC_IO, "Kafka: %s: %s", what, rd_kafka_err2str(e));
}

static rd_kafka_t *new_consumer(const WKafkaConfig *cfg, const char *table, WError *err)
{
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    char eb[512];
    /* Flink's KafkaSource defaults: no auto commit; weir also needs the partition end events */
    const char *dflt[][2] = {{"enable.auto.commit", "false"}, {"enable.partition.eof", "true"},
                             {"auto.offset.reset", "earliest"}, {"log_level", "3"}};
    for (size_t i = 0; i < sizeof dflt / sizeof dflt[0]; i++)
        rd_kafka_conf_set(conf, dflt[i][0], dflt[i][1], eb, sizeof eb);
    char gid[300];
    snprintf(gid, sizeof gid, "weir-%s", table);
    rd_kafka_conf_set(conf, "group.id", cfg->group_id ? cfg->group_id : gid, eb, sizeof eb);
    for (int i = 0; i < cfg->props.n; i++) {
        const char *k = cfg->props.items[i].key, *v = cfg->props.items[i].value;
        if (!strcmp(k, "auto.offset.reset")) continue;     /* resolved by weir below */
        if (rd_kafka_conf_set(conf, k, v, eb, sizeof eb) != RD_KAFKA_CONF_OK) {
            rd_kafka_conf_destroy(conf);
            werr_set(err, WEXC_VALIDATION, "Invalid Kafka property 'properties.%s' = '%s': %s", k, v, eb);
            return NULL;
        }
    }
    rd_kafka_conf_set(conf, "enable.partition.eof", "true", eb, sizeof eb);
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, eb, sizeof eb);
    if (!rk) {
        werr_set(err, WEXC_IO, "Kafka: cannot create the consumer: %s", eb);
        return NULL;
    }
    rd_kafka_poll_set_consumer(rk);
    return rk;
}

static void add_part(KSource *s, const char *topic, int32_t p)
{
    s->parts = realloc(s->parts, sizeof *s->parts * (size_t)(s->nparts + 1));
    s->parts[s->nparts++] = (KPart){wstrdup(topic), p, -1, -1, -1, -1, false};     /* next: set by the caller */
}

static int cmp_part(const void *a, const void *b)
{
    const KPart *x = a, *y = b;
    int c = strcmp(x->topic, y->topic);
    return c ? c : (x->partition > y->partition) - (x->partition < y->partition);
}

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static KPart *find_part(KSource *s, const char *topic, int32_t partition);

/* Add partition p of topic if this subtask owns it and does not read it yet. */
static void maybe_add(KSource *s, const char *topic, int32_t p)
{
    if (wkafka_split_owner(topic, p, s->parallelism) == s->subtask && !find_part(s, topic, p)) add_part(s, topic, p);
}

/* The partitions of the subscribed topics this subtask owns (again: only those not read yet are
   added; a topic that does not exist is then skipped). */
static bool discover(KSource *s, bool again, WError *err)
{
    const struct rd_kafka_metadata *md = NULL;
    rd_kafka_resp_err_t e = rd_kafka_metadata(s->rk, 1, NULL, &md, META_TIMEOUT_MS);
    if (e) return rk_error(err, "cannot read the cluster metadata", e);
    regex_t re;
    bool ok = true;
    if (s->cfg.pattern) {
        char *anch = wmalloc(strlen(s->cfg.pattern) + 8);
        sprintf(anch, "^(%s)$", s->cfg.pattern);
        int rc = regcomp(&re, anch, REG_EXTENDED | REG_NOSUB);
        free(anch);
        if (rc) {
            rd_kafka_metadata_destroy(md);
            return werr_set(err, WEXC_VALIDATION, "Invalid 'topic-pattern' regular expression '%s'.", s->cfg.pattern);
        }
    }
    for (int t = 0; ok && t < s->cfg.ntopics; t++) {
        const struct rd_kafka_metadata_topic *mt = NULL;
        for (int i = 0; i < md->topic_cnt; i++)
            if (!strcmp(md->topics[i].topic, s->cfg.topics[t])) mt = &md->topics[i];
        if (!mt || mt->err || mt->partition_cnt == 0) {
            if (again) continue;
            ok = werr_set(err, WEXC_IO, "Failed to get metadata for topics [%s]: the topic does not exist.", s->cfg.topics[t]);
            break;
        }
        for (int p = 0; p < mt->partition_cnt; p++) maybe_add(s, mt->topic, mt->partitions[p].id);
    }
    if (s->cfg.pattern) {
        for (int i = 0; i < md->topic_cnt; i++) {
            const struct rd_kafka_metadata_topic *mt = &md->topics[i];
            if (mt->err || strncmp(mt->topic, "__", 2) == 0 || regexec(&re, mt->topic, 0, NULL, 0) != 0) continue;
            for (int p = 0; p < mt->partition_cnt; p++) maybe_add(s, mt->topic, mt->partitions[p].id);
        }
        regfree(&re);
    }
    rd_kafka_metadata_destroy(md);
    if (s->nparts > 1) wqsort(s->parts, (size_t)s->nparts, sizeof *s->parts, cmp_part);
    /* split ids: the partitions found first in topic/partition order, later ones after them */
    for (int i = 0; i < s->nparts; i++) {
        if (s->parts[i].split >= 0) continue;
        s->parts[i].split = s->base.nsplits++;
        s->fin = realloc(s->fin, (size_t)s->base.nsplits);
        s->fin[s->parts[i].split] = 0;
    }
    s->base.split_finished = s->fin;
    return ok;
}

static rd_kafka_topic_partition_list_t *part_list(const KSource *s)
{
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(s->nparts ? s->nparts : 1);
    for (int i = 0; i < s->nparts; i++) rd_kafka_topic_partition_list_add(l, s->parts[i].topic, s->parts[i].partition);
    return l;
}

static const WKafkaOffset *specific(const WKafkaOffset *o, int n, int32_t p)
{
    for (int i = 0; i < n; i++) if (o[i].partition == p) return &o[i];
    return NULL;
}

/* Resolve mode into one concrete offset per owned partition (out[i]); `starting` selects the
   startup fallbacks (a missing committed offset). */
static bool resolve(KSource *s, WKafkaMode mode, int64_t ts, const WKafkaOffset *offs, int noffs, bool starting,
                    int64_t *out, WError *err)
{
    int64_t *lo = wmalloc(sizeof(int64_t) * (size_t)(s->nparts + 1)), *hi = wmalloc(sizeof(int64_t) * (size_t)(s->nparts + 1));
    bool ok = true;
    for (int i = 0; ok && i < s->nparts; i++) {
        rd_kafka_resp_err_t e = rd_kafka_query_watermark_offsets(s->rk, s->parts[i].topic, s->parts[i].partition,
                                                                 &lo[i], &hi[i], META_TIMEOUT_MS);
        if (e) ok = rk_error(err, "cannot read the offsets of the partitions", e);
    }
    rd_kafka_topic_partition_list_t *l = NULL;
    if (ok && (mode == WKS_GROUP || mode == WKS_SPECIFIC)) {
        l = part_list(s);
        rd_kafka_resp_err_t e = rd_kafka_committed(s->rk, l, META_TIMEOUT_MS);
        if (e) ok = rk_error(err, "cannot read the committed offsets of the group", e);
    } else if (ok && mode == WKS_TIMESTAMP) {
        l = part_list(s);
        for (int i = 0; i < l->cnt; i++) l->elems[i].offset = ts;
        rd_kafka_resp_err_t e = rd_kafka_offsets_for_times(s->rk, l, META_TIMEOUT_MS);
        if (e) ok = rk_error(err, "cannot look up the offsets for the timestamp", e);
    }
    const char *reset = wopts_get(&s->cfg.props, "auto.offset.reset");
    WStrBuf undefined;
    wsb_init(&undefined);
    for (int i = 0; ok && i < s->nparts; i++) {
        int64_t o = 0;
        switch (mode) {
        case WKS_EARLIEST: o = lo[i]; break;
        case WKS_LATEST: case WKS_UNBOUNDED: o = hi[i]; break;
        case WKS_TIMESTAMP: o = l->elems[i].offset < 0 ? hi[i] : l->elems[i].offset; break;
        case WKS_SPECIFIC: case WKS_GROUP: {
            const WKafkaOffset *so = mode == WKS_SPECIFIC ? specific(offs, noffs, s->parts[i].partition) : NULL;
            if (so) { o = so->offset; break; }
            o = l->elems[i].offset;
            if (o >= 0) break;
            /* no committed offset: specific-offsets falls back to the earliest offset, group-offsets to
               'auto.offset.reset' (none by default, as Flink's OffsetResetStrategy.NONE) */
            if (mode == WKS_SPECIFIC) o = starting ? lo[i] : hi[i];     /* unlisted: all of it */
            else if (reset && !strcasecmp(reset, "earliest")) o = lo[i];
            else if (reset && !strcasecmp(reset, "latest")) o = hi[i];
            else if (starting) wsb_printf(&undefined, "%s%s-%d", undefined.len ? ", " : "", s->parts[i].topic, s->parts[i].partition);
            else o = hi[i];
            break;
        }
        }
        if (o < lo[i]) o = lo[i];
        if (o > hi[i] && starting) o = hi[i];
        out[i] = o;
    }
    if (ok && undefined.len)
        ok = werr_set(err, WEXC_IO, "Undefined offset with no reset policy for partitions: [%s]", undefined.buf);
    wsb_free(&undefined);
    if (l) rd_kafka_topic_partition_list_destroy(l);
    free(lo);
    free(hi);
    return ok;
}

/* Assign every partition not yet done at its next offset. */
/* Drop the records taken from the queue and not read yet (an assign fetches them again). */
static void drop_batch(KSource *s)
{
    for (int i = s->ibatch; i < s->nbatch; i++) rd_kafka_message_destroy(s->batch[i]);
    s->ibatch = s->nbatch = 0;
}

static bool assign(KSource *s, WError *err)
{
    drop_batch(s);
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(s->nparts ? s->nparts : 1);
    s->ndone = 0;
    s->had_rows = false;
    for (int i = 0; i < s->nparts; i++) {
        KPart *p = &s->parts[i];
        p->done = p->stop >= 0 && p->next >= p->stop;
        s->fin[p->split] = 0;       /* a partition with nothing to read: finished after the first records (below) */
        if (p->done) { s->ndone++; s->release_pending = true; continue; }
        rd_kafka_topic_partition_list_add(l, p->topic, p->partition)->offset = p->next;
    }
    rd_kafka_resp_err_t e = rd_kafka_assign(s->rk, l);
    rd_kafka_topic_partition_list_destroy(l);
    return e ? rk_error(err, "cannot assign the partitions", e) : true;
}

static KPart *find_part(KSource *s, const char *topic, int32_t partition)
{
    for (int i = 0; i < s->nparts; i++)
        if (s->parts[i].partition == partition && !strcmp(s->parts[i].topic, topic)) return &s->parts[i];
    return NULL;
}

static void part_done(KSource *s, KPart *p)
{
    if (p->done) return;
    p->done = true;
    s->fin[p->split] = 1;
    s->ndone++;
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(l, p->topic, p->partition);
    rd_kafka_pause_partitions(s->rk, l);
    rd_kafka_topic_partition_list_destroy(l);
}

/* The decoded row's values into row r of out (their bytes are in out's arena already). */
static void copy_side(const WKafkaCodec *c, WChunk *out, int r)
{
    for (int i = 0; i < c->ncols; i++) {
        WVector *v = &out->cols[c->cols[i]];
        bool isnull = c->row->cols[i].nulls[0] != 0;
        v->nulls[r] = isnull;
        v->data[r] = isnull ? (WDatum){0} : c->row->cols[i].data[0];
    }
}

static void fill_meta(KSource *s, WChunk *out, int r, const rd_kafka_message_t *m)
{
    for (int k = 0; k < s->nmeta; k++) {
        WVector *v = &out->cols[s->ncols + k];
        v->nulls[r] = 0;
        switch (s->meta_kind[k]) {
        case KM_TOPIC: {
            const char *t = rd_kafka_topic_name(m->rkt);
            v->data[r].s = (WStr){wa_strdup(out->arena, t), (int32_t)strlen(t)};
            break;
        }
        case KM_PARTITION: v->data[r].i = m->partition; break;
        case KM_OFFSET: v->data[r].i = m->offset; break;
        case KM_TIMESTAMP: case KM_TIMESTAMP_TYPE: {
            rd_kafka_timestamp_type_t tt;
            int64_t ts = rd_kafka_message_timestamp(m, &tt);
            if (s->meta_kind[k] == KM_TIMESTAMP) { v->data[r].ts = (WTimestamp){ts, 0}; break; }
            const char *name = tt == RD_KAFKA_TIMESTAMP_CREATE_TIME ? "CreateTime"
                               : tt == RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME ? "LogAppendTime" : "NoTimestampType";
            v->data[r].s = (WStr){name, (int32_t)strlen(name)};
            break;
        }
        case KM_HEADERS: {
            rd_kafka_headers_t *h = NULL;
            size_t nh = rd_kafka_message_headers(m, &h) == RD_KAFKA_RESP_ERR_NO_ERROR && h ? rd_kafka_header_cnt(h) : 0;
            WComposite *cx = wa_zalloc(out->arena, sizeof *cx);
            cx->n = (int32_t)nh;
            cx->vals = wa_zalloc(out->arena, sizeof(WDatum) * (2 * nh + 1));
            cx->nulls = wa_zalloc(out->arena, 2 * nh + 1);
            for (size_t i = 0; i < nh; i++) {
                const char *name;
                const void *val;
                size_t len;
                rd_kafka_header_get_all(h, i, &name, &val, &len);
                cx->vals[2 * i].s = (WStr){wa_strdup(out->arena, name), (int32_t)strlen(name)};
                if (val) cx->vals[2 * i + 1].s = (WStr){wa_memdup(out->arena, val, len ? len : 1), (int32_t)len};
                else cx->nulls[2 * i + 1] = 1;
            }
            v->data[r].cx = cx;
            break;
        }
        }
    }
}

/* Decode one record into a new row of out: 1 row, 0 skipped, -1 error. */
static int decode(KSource *s, const rd_kafka_message_t *m, WChunk *out, WError *err)
{
    char eb[1024];
    int kv = 1;
    bool tombstone = s->cfg.upsert && !m->payload;
    if (s->cfg.has_key) kv = wkafka_codec_decode(&s->cfg.key, m->key, m->key_len, out->arena, eb, sizeof eb);
    if (kv > 0 && !tombstone) kv = wkafka_codec_decode(&s->cfg.value, m->payload, m->len, out->arena, eb, sizeof eb);
    if (kv < 0) {
        werr_set(err, WEXC_IO, "Failed to deserialize consumer record of topic '%s', partition %d, offset %lld: %s",
                 rd_kafka_topic_name(m->rkt), (int)m->partition, (long long)m->offset, eb);
        return -1;
    }
    if (kv == 0) { s->base.rows_skipped++; return 0; }
    int r = wchunk_add_row(out, tombstone ? WRK_DELETE : WRK_INSERT);
    /* upsert-kafka: a null value deletes its key; the other columns are NULL */
    for (int i = 0; tombstone && i < s->cfg.value.ncols; i++) out->cols[s->cfg.value.cols[i]].nulls[r] = 1;
    if (s->cfg.has_key) copy_side(&s->cfg.key, out, r);
    if (!tombstone) copy_side(&s->cfg.value, out, r);      /* value.fields-include ALL: the value's copy wins */
    fill_meta(s, out, r, m);
    return 1;
}

static bool fatal_consumer_error(rd_kafka_resp_err_t e)
{
    /* librdkafka retries connection problems itself; everything else ends the job */
    return e != RD_KAFKA_RESP_ERR__TRANSPORT && e != RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN &&
           e != RD_KAFKA_RESP_ERR__TIMED_OUT && e != RD_KAFKA_RESP_ERR__PARTITION_EOF;
}

/* Partition discovery: new owned partitions start at their earliest offset. */
static bool rediscover(KSource *s, WError *err)
{
    int before = s->nparts;
    if (!discover(s, true, err)) return false;
    if (s->nparts == before) return true;
    for (int i = 0; i < s->nparts; i++) {
        KPart *p = &s->parts[i];
        if (p->next >= 0) continue;
        int64_t lo = 0, hi = 0;
        rd_kafka_resp_err_t e = rd_kafka_query_watermark_offsets(s->rk, p->topic, p->partition, &lo, &hi, META_TIMEOUT_MS);
        if (e) return rk_error(err, "cannot read the offsets of the partitions", e);
        p->next = lo;
    }
    return assign(s, err);
}

static WSourceStatus ks_next(WSource *base, WChunk *out, WError *err)
{
    KSource *s = (KSource *)base;
    bool bounded = s->cfg.bounded != WKS_UNBOUNDED;
    if (s->cfg.discovery_ms > 0 && mono_ms() >= s->next_discovery_ms) {
        if (!rediscover(s, err)) return WSRC_ERROR;
        s->next_discovery_ms = mono_ms() + s->cfg.discovery_ms;
    }
    /* Flink's KafkaPartitionSplitReader finishes the splits with nothing to read (start at their
       stop offset) with its first fetch, after that fetch's records: until then they hold the
       watermark back */
    if (s->release_pending && s->had_rows) {
        for (int i = 0; i < s->nparts; i++) if (s->parts[i].done) s->fin[s->parts[i].split] = 1;
        s->release_pending = false;
    }
    int timeout = s->ibatch < s->nbatch ? 0 : 100;
    int split = -1;         /* a chunk holds the records of one partition (per-partition watermarks) */
    while (out->nrows < out->cap && !(bounded && s->ndone == s->nparts)) {
        if (s->ibatch == s->nbatch) {
            int64_t t0 = timeout ? wproc_mono_ns() : 0;
            ssize_t n = rd_kafka_consume_batch_queue(s->queue, timeout, s->batch, FETCH_BATCH);
            if (t0) wsrc_add_wait(base, t0);        /* waiting for the first record */
            s->ibatch = 0;
            s->nbatch = n > 0 ? (int)n : 0;
            if (s->nbatch == 0) break;
        }
        rd_kafka_message_t *m = s->batch[s->ibatch++];
        timeout = 0;
        KPart *p = m->rkt ? find_part(s, rd_kafka_topic_name(m->rkt), m->partition) : NULL;
        if (m->err) {
            rd_kafka_resp_err_t e = m->err;
            if (e == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
                if (p && bounded && m->offset >= p->stop) part_done(s, p);
            } else if (fatal_consumer_error(e)) {
                werr_set(err, WEXC_IO, "Kafka consumer error%s%s: %s", m->rkt ? " on topic " : "",
                         m->rkt ? rd_kafka_topic_name(m->rkt) : "", rd_kafka_message_errstr(m));
                rd_kafka_message_destroy(m);
                return WSRC_ERROR;
            }
            rd_kafka_message_destroy(m);
            continue;
        }
        if (!p || p->done || m->offset < p->next) { rd_kafka_message_destroy(m); continue; }
        if (bounded && m->offset >= p->stop) {
            part_done(s, p);
            rd_kafka_message_destroy(m);
            continue;
        }
        if (out->nrows > 0 && p->split != split) {
            s->ibatch--;        /* another partition's record: the next chunk's first */
            break;
        }
        split = p->split;
        int rc = decode(s, m, out, err);
        p->next = m->offset + 1;
        rd_kafka_message_destroy(m);
        if (rc < 0) return WSRC_ERROR;
        if (rc > 0) base->rows_read++;
        if (bounded && p->next >= p->stop) part_done(s, p);
    }
    base->split = split < 0 ? 0 : split;
    if (out->nrows) s->had_rows = true;
    if (bounded && s->ndone == s->nparts) {
        s->ended = true;
        return WSRC_END;
    }
    return out->nrows ? WSRC_MORE : WSRC_IDLE;
}

static bool ks_position(WSource *base, char *buf, size_t bufsz)
{
    KSource *s = (KSource *)base;
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < s->nparts; i++) {
        int n = snprintf(buf + o, bufsz - o, "%s%s/%d/%lld", i ? ";" : "", s->parts[i].topic, s->parts[i].partition,
                         (long long)s->parts[i].next);
        if (n < 0 || (size_t)n >= bufsz - o) return false;
        o += (size_t)n;
    }
    for (int i = 0; i < s->nparts; i++) s->parts[i].ckpt = s->parts[i].next;
    return true;
}

/* The checkpoint of the last position() completed: commit its offsets to the group. */
static bool ks_checkpoint_complete(WSource *base, WError *err)
{
    KSource *s = (KSource *)base;
    (void)err;
    /* a finished reader is not notified in Flink (measured: a bounded job commits nothing at its end) */
    if (!s->cfg.commit_offsets || s->ended) return true;
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(s->nparts > 0 ? s->nparts : 1);
    for (int i = 0; i < s->nparts; i++)
        if (s->parts[i].ckpt >= 0) rd_kafka_topic_partition_list_add(l, s->parts[i].topic, s->parts[i].partition)->offset = s->parts[i].ckpt;
    if (l->cnt > 0) rd_kafka_commit(s->rk, l, 1);      /* async, as Flink's commitAsync; the result is not awaited */
    rd_kafka_topic_partition_list_destroy(l);
    return true;
}

static bool ks_seek(WSource *base, const char *pos, WError *err)
{
    KSource *s = (KSource *)base;
    for (const char *p = pos; p && *p;) {
        const char *sl = strchr(p, '/');
        char *end;
        if (!sl) return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid kafka source position '%s'.", pos);
        long part = strtol(sl + 1, &end, 10);
        if (*end != '/') return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid kafka source position '%s'.", pos);
        long long off = strtoll(end + 1, &end, 10);
        if (*end && *end != ';') return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid kafka source position '%s'.", pos);
        char *topic = strndup(p, (size_t)(sl - p));
        KPart *kp = find_part(s, topic, (int32_t)part);
        free(topic);
        if (kp) kp->next = off;       /* a partition this subtask no longer owns is not read here */
        p = *end == ';' ? end + 1 : end;
    }
    return assign(s, err);
}

static void ks_close(WSource *base)
{
    KSource *s = (KSource *)base;
    drop_batch(s);
    free(s->batch);
    if (s->queue) rd_kafka_queue_destroy(s->queue);
    if (s->rk) {
        rd_kafka_consumer_close(s->rk);
        rd_kafka_destroy(s->rk);
    }
    for (int i = 0; i < s->nparts; i++) free(s->parts[i].topic);
    free(s->parts);
    free(s->fin);
    free(s->meta_kind);
    free(s->table);
    wkafka_config_free(&s->cfg);
    free(s);
}

/* Flink's KafkaPartitionSplit id: "<topic>-<partition>". */
static void ks_split_label(const WSource *base, int split, char *buf, size_t bufsz)
{
    const KSource *s = (const KSource *)base;
    snprintf(buf, bufsz, "split %d", split);
    for (int i = 0; i < s->nparts; i++)
        if (s->parts[i].split == split) snprintf(buf, bufsz, "%s-%d", s->parts[i].topic, (int)s->parts[i].partition);
}

WSource *wkafka_open_source(const WTableSpec *spec, WError *err)
{
    KSource *s = wcalloc(1, sizeof *s);
    s->base.next = ks_next;
    s->base.position = ks_position;
    s->base.seek = ks_seek;
    s->base.checkpoint_complete = ks_checkpoint_complete;
    s->base.close = ks_close;
    s->base.split_watermarks = true;
    s->base.split_label = ks_split_label;
    s->ncols = spec->ncols;
    s->nmeta = spec->nmeta;
    s->table = wstrdup(spec->name);
    s->meta_kind = wcalloc((size_t)(spec->nmeta + 1), sizeof(int));
    static const char *const KEYS[] = {"topic", "partition", "offset", "timestamp", "timestamp-type", "headers"};
    for (int m = 0; m < spec->nmeta; m++) {
        s->meta_kind[m] = -1;
        for (int k = 0; k < 6; k++) if (!strcmp(spec->meta_keys[m], KEYS[k])) s->meta_kind[m] = k;
        if (s->meta_kind[m] < 0) {
            werr_set(err, WEXC_VALIDATION, "Metadata key '%s' of the kafka source is not supported by weir yet.",
                     spec->meta_keys[m]);
            ks_close(&s->base);
            return NULL;
        }
    }
    s->subtask = spec->subtask;
    s->parallelism = spec->parallelism;
    if (!wkafka_config(&s->cfg, spec, true, err) || !(s->rk = new_consumer(&s->cfg, spec->name, err)) ||
        !discover(s, false, err)) {
        ks_close(&s->base);
        return NULL;
    }
    s->queue = rd_kafka_queue_get_consumer(s->rk);
    s->batch = wmalloc(sizeof *s->batch * FETCH_BATCH);
    s->base.bounded = s->cfg.bounded != WKS_UNBOUNDED;
    int64_t *start = wmalloc(sizeof(int64_t) * (size_t)(s->nparts + 1));
    int64_t *stop = wmalloc(sizeof(int64_t) * (size_t)(s->nparts + 1));
    bool ok = resolve(s, s->cfg.startup, s->cfg.startup_ts, s->cfg.startup_offsets, s->cfg.nstartup_offsets, true, start, err);
    if (ok && s->base.bounded)
        ok = resolve(s, s->cfg.bounded, s->cfg.bounded_ts, s->cfg.bounded_offsets, s->cfg.nbounded_offsets, false, stop, err);
    for (int i = 0; ok && i < s->nparts; i++) {
        s->parts[i].next = start[i];
        s->parts[i].stop = s->base.bounded ? stop[i] : -1;
    }
    free(start);
    free(stop);
    s->next_discovery_ms = mono_ms() + s->cfg.discovery_ms;
    if (!ok || !assign(s, err)) {
        ks_close(&s->base);
        return NULL;
    }
    return &s->base;
}
