/*
 * kafka_upsert_buffer.c — the reducing buffer of the 'upsert-kafka' sink ('sink.buffer-flush.*',
 * Flink's ReducingUpsertWriter): records keyed by their encoded key bytes, only the latest record
 * of a key kept (a later upsert or tombstone replaces an earlier one), drained in the order the keys
 * first arrived since the last drain. Equal keys encode to equal bytes (the key format is
 * deterministic), so the bytes are the key's identity. A record's writable metadata (timestamp,
 * headers) is kept with it. Depends on kafka.h, common/hash.h.
 */
#include "kafka.h"
#include "../common/hash.h"

#include <stdlib.h>
#include <string.h>

typedef struct UEntry {
    char *key;
    size_t klen;
    char *val;                  /* NULL: a tombstone */
    size_t vlen;
    int64_t ts;                 /* WKafkaMeta's */
    char *hdrs;
    size_t hlen;
    uint64_t hash;
} UEntry;

struct WKafkaUpsertBuf {
    UEntry *e;
    int64_t n, cap;
    int64_t *slot;              /* open addressing: entry index + 1, 0 = empty */
    int64_t nslots;             /* power of two, >= 2 * cap */
};

WKafkaUpsertBuf *wkafka_ubuf_new(void) { return wcalloc(1, sizeof(WKafkaUpsertBuf)); }

static char *dup_bytes(const void *p, size_t n)
{
    char *d = wmalloc(n ? n : 1);
    if (n) memcpy(d, p, n);
    return d;
}

static void rehash(WKafkaUpsertBuf *b, int64_t nslots)
{
    free(b->slot);
    b->nslots = nslots;
    b->slot = wcalloc((size_t)nslots, sizeof(int64_t));
    for (int64_t i = 0; i < b->n; i++) {
        int64_t s = (int64_t)(b->e[i].hash & (uint64_t)(nslots - 1));
        while (b->slot[s]) s = (s + 1) & (nslots - 1);
        b->slot[s] = i + 1;
    }
}

static void set_meta(UEntry *e, const WKafkaMeta *meta)
{
    free(e->hdrs);
    e->ts = meta ? meta->ts : -1;
    e->hlen = meta ? meta->hlen : 0;
    e->hdrs = e->hlen ? dup_bytes(meta->hdrs, e->hlen) : NULL;
}

int64_t wkafka_ubuf_put(WKafkaUpsertBuf *b, const void *key, size_t klen, const void *val, size_t vlen,
                        const WKafkaMeta *meta)
{
    uint64_t h = whash_bytes(key, klen, 0x75707365u);
    if (b->nslots) {
        for (int64_t s = (int64_t)(h & (uint64_t)(b->nslots - 1)); b->slot[s]; s = (s + 1) & (b->nslots - 1)) {
            UEntry *e = &b->e[b->slot[s] - 1];
            if (e->hash != h || e->klen != klen || (klen && memcmp(e->key, key, klen) != 0)) continue;
            free(e->val);
            e->val = val ? dup_bytes(val, vlen) : NULL;
            e->vlen = vlen;
            set_meta(e, meta);
            return b->n;
        }
    }
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->e = realloc(b->e, sizeof *b->e * (size_t)b->cap);
        rehash(b, 2 * b->cap);
    }
    b->e[b->n] = (UEntry){.key = dup_bytes(key, klen), .klen = klen, .val = val ? dup_bytes(val, vlen) : NULL,
                          .vlen = vlen, .hash = h};
    set_meta(&b->e[b->n], meta);
    int64_t s = (int64_t)(h & (uint64_t)(b->nslots - 1));
    while (b->slot[s]) s = (s + 1) & (b->nslots - 1);
    b->slot[s] = ++b->n;
    return b->n;
}

int64_t wkafka_ubuf_count(const WKafkaUpsertBuf *b) { return b->n; }

static void clear(WKafkaUpsertBuf *b)
{
    for (int64_t i = 0; i < b->n; i++) {
        free(b->e[i].key);
        free(b->e[i].val);
        free(b->e[i].hdrs);
    }
    b->n = 0;
    if (b->slot) memset(b->slot, 0, sizeof(int64_t) * (size_t)b->nslots);
}

bool wkafka_ubuf_drain(WKafkaUpsertBuf *b, WKafkaRecordFn fn, void *ctx, WError *err)
{
    bool ok = true;
    for (int64_t i = 0; ok && i < b->n; i++) {
        WKafkaMeta m = {b->e[i].ts, b->e[i].hdrs, b->e[i].hlen};
        ok = fn(ctx, b->e[i].key, b->e[i].klen, b->e[i].val, b->e[i].vlen, &m, err);
    }
    clear(b);
    return ok;
}

void wkafka_ubuf_free(WKafkaUpsertBuf *b)
{
    if (!b) return;
    clear(b);
    free(b->e);
    free(b->slot);
    free(b);
}
