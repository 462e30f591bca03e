/*
 * kafka_txn.c — what the exactly-once Kafka sink keeps of a pre-committed transaction until it is
 * known committed, and how a restore finds out whether it was.
 *
 * Flink's committer resumes a pre-committed transaction after a failure (its producer id and
 * epoch are in the checkpoint) and commits it. librdkafka cannot resume another producer's
 * transaction, so weir keeps the transaction's records instead: a WKafkaTxnLog holds every record
 * written in it (partition as chosen by the sink, key and value, base64) and the partition/offset
 * of its first acknowledged record (the probe). A checkpoint stores the logs of the transactions
 * it pre-committed; a restore first fences the transactional id (which aborts the transaction if it
 * was still open), then reads the probe partition from the probe offset with isolation.level
 * read_committed: the probe record visible means the transaction committed; skipped (a later
 * offset, or the end of the partition) means it was aborted, and the sink writes the logged records
 * again in its next transaction.
 *
 * Text of a log in a checkpoint: "T <ckpt> <probe partition> <probe offset> <records>\n" followed by
 * one line per record: "<partition> <K<base64>|-> <V<base64>|->[ T<timestamp>][ H<base64>]\n"
 * (partition -1: the partitioner chooses; '-' a null key or value; T and H the record's written
 * metadata, WKafkaMeta, when it has some).
 * Depends on kafka.h, common/base64.h, librdkafka.
 */
#include "kafka.h"
#include "conn_internal.h"
#include "../common/base64.h"

#include <librdkafka/rdkafka.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROBE_TIMEOUT_MS 60000         /* an open transaction of another producer holds read_committed back */

void wkafka_txnlog_init(WKafkaTxnLog *l)
{
    memset(l, 0, sizeof *l);       /* an all-zero WStrBuf is empty and grows on first use */
    l->probe_part = -1;
    l->probe_off = -1;
}

void wkafka_txnlog_free(WKafkaTxnLog *l)
{
    wsb_free(&l->recs);
    wkafka_txnlog_init(l);
}

void wkafka_txnlog_add(WKafkaTxnLog *l, int32_t part, const void *key, size_t klen, const void *val, size_t vlen,
                       const WKafkaMeta *meta)
{
    wsb_printf(&l->recs, "%d ", (int)part);
    if (key) { wsb_putc(&l->recs, 'K'); wbase64_append(&l->recs, key, klen); }
    else wsb_putc(&l->recs, '-');
    wsb_putc(&l->recs, ' ');
    if (val) { wsb_putc(&l->recs, 'V'); wbase64_append(&l->recs, val, vlen); }
    else wsb_putc(&l->recs, '-');
    if (meta && meta->ts >= 0) wsb_printf(&l->recs, " T%lld", (long long)meta->ts);
    if (meta && meta->hlen) { wsb_append(&l->recs, " H"); wbase64_append(&l->recs, meta->hdrs, meta->hlen); }
    wsb_putc(&l->recs, '\n');
    l->nrecs++;
}

void wkafka_txnlog_state(WStrBuf *out, int64_t ckpt, const WKafkaTxnLog *l)
{
    wsb_printf(out, "T %lld %d %lld %lld\n", (long long)ckpt, (int)l->probe_part, (long long)l->probe_off,
               (long long)l->nrecs);
    if (l->recs.len) wsb_appendn(out, l->recs.buf, l->recs.len);
}

/* One base64 field ("K..." / "V..." / "-") of a record line into *buf; NULL data for '-'. */
static bool field(const char *p, size_t n, unsigned char **buf, const void **data, size_t *len)
{
    if (n == 1 && p[0] == '-') { *data = NULL; *len = 0; return true; }
    if (n < 1 || (p[0] != 'K' && p[0] != 'V' && p[0] != 'H')) return false;
    *buf = realloc(*buf, n * 3 / 4 + 4);
    size_t bad = 0;
    long m = wbase64_decode(p + 1, n - 1, *buf, &bad);
    if (m < 0) return false;
    *data = *buf;
    *len = (size_t)m;
    return true;
}

const char *wkafka_txnlog_parse(const char *p, const char *end, WKafkaTxnEntry *t, WError *err)
{
    memset(t, 0, sizeof *t);
    long long ck, off, n;
    int part, used = 0;
    if (sscanf(p, "T %lld %d %lld %lld\n%n", &ck, &part, &off, &n, &used) != 4 || used <= 0 || n < 0)
        return werr_set(err, WEXC_IO, "The Kafka sink's checkpointed state is not valid."), NULL;
    t->ckpt = ck;
    t->probe_part = part;
    t->probe_off = off;
    t->nrecs = n;
    p += used;
    t->recs = p;
    for (long long i = 0; i < n; i++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) return werr_set(err, WEXC_IO, "The Kafka sink's checkpointed state is truncated."), NULL;
        p = nl + 1;
    }
    t->recs_end = p;
    return p;
}

bool wkafka_txnlog_replay(const WKafkaTxnEntry *t, WKafkaPartRecordFn fn, void *ctx, WError *err)
{
    unsigned char *kb = NULL, *vb = NULL, *hb = NULL;
    bool ok = true;
    for (const char *p = t->recs; ok && p < t->recs_end;) {
        const char *nl = memchr(p, '\n', (size_t)(t->recs_end - p));
        assert(nl);
        /* the fields after the partition: key, value, then the optional T<ts> and H<headers> */
        const char *f[4];
        size_t fl[4];
        int nf = 0;
        const char *q = memchr(p, ' ', (size_t)(nl - p));
        while (q && q < nl && nf < 4) {
            const char *e = memchr(q + 1, ' ', (size_t)(nl - q - 1));
            if (!e) e = nl;
            f[nf] = q + 1;
            fl[nf++] = (size_t)(e - q - 1);
            q = e < nl ? e : NULL;
        }
        const void *k, *v, *h = NULL;
        size_t kl, vl, hl = 0;
        WKafkaMeta meta = {.ts = -1};
        bool good = nf >= 2 && !q && field(f[0], fl[0], &kb, &k, &kl) && field(f[1], fl[1], &vb, &v, &vl);
        for (int i = 2; good && i < nf; i++) {
            if (f[i][0] == 'T' && fl[i] > 1) meta.ts = strtoll(f[i] + 1, NULL, 10);
            else if (f[i][0] == 'H' && field(f[i], fl[i], &hb, &h, &hl)) { meta.hdrs = h; meta.hlen = hl; }
            else good = false;
        }
        if (!good) {
            ok = werr_set(err, WEXC_IO, "The Kafka sink's checkpointed state has an invalid record.");
            break;
        }
        ok = fn(ctx, (int32_t)atoi(p), k, kl, v, vl, &meta, err);
        p = nl + 1;
    }
    free(kb);
    free(vb);
    free(hb);
    return ok;
}

int wkafka_txn_committed(const WKafkaConfig *cfg, int32_t part, int64_t off, WError *err)
{
    assert(part >= 0 && off >= 0);
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    char eb[512];
    for (int i = 0; i < cfg->props.n; i++) {
        const char *k = cfg->props.items[i].key, *v = cfg->props.items[i].value;
        if (!strcmp(k, "transactional.id")) continue;
        rd_kafka_conf_set(conf, k, v, eb, sizeof eb);     /* the producer's properties were checked already */
    }
    const char *kv[][2] = {{"group.id", "weir-transaction-probe"}, {"enable.auto.commit", "false"},
                           {"enable.partition.eof", "true"}, {"isolation.level", "read_committed"}, {"log_level", "3"}};
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++) rd_kafka_conf_set(conf, kv[i][0], kv[i][1], eb, sizeof eb);
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, eb, sizeof eb);
    if (!rk) return werr_set(err, WEXC_IO, "Kafka: cannot create the consumer: %s", eb), -1;
    rd_kafka_poll_set_consumer(rk);
    rd_kafka_topic_partition_list_t *tp = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(tp, cfg->topics[0], part)->offset = off;
    rd_kafka_resp_err_t e = rd_kafka_assign(rk, tp);
    rd_kafka_topic_partition_list_destroy(tp);
    int res = -1;
    if (e) werr_set(err, WEXC_IO, "Kafka: cannot read topic '%s' partition %d: %s", cfg->topics[0], (int)part, rd_kafka_err2str(e));
    for (int waited = 0; !e && res < 0 && waited < PROBE_TIMEOUT_MS; waited += 200) {
        rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, 200);
        if (!m) continue;
        if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) res = 0;        /* nothing visible at or after it */
        else if (!m->err) res = m->offset == off;                       /* visible: committed; skipped: aborted */
        else if (!rd_kafka_message_errstr(m) || m->err != RD_KAFKA_RESP_ERR__TRANSPORT) {
            werr_set(err, WEXC_IO, "Kafka: reading topic '%s' partition %d failed: %s", cfg->topics[0], (int)part,
                     rd_kafka_message_errstr(m));
            rd_kafka_message_destroy(m);
            break;
        }
        rd_kafka_message_destroy(m);
    }
    if (res < 0 && !err->set)
        werr_set(err, WEXC_IO, "Kafka: timed out reading topic '%s' partition %d at offset %lld", cfg->topics[0],
                 (int)part, (long long)off);
    rd_kafka_consumer_close(rk);
    rd_kafka_destroy(rk);
    return res;
}
