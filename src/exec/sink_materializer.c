/*
 * sink_materializer.c — the SinkUpsertMaterializer operator (Flink's legacy
 * SinkUpsertMaterializer): before an upsert sink whose primary key is not the input's upsert key,
 * keeps per sink key the list of rows currently "alive", so that retracting a row that is not
 * the latest one does not delete the sink's row:
 *   +I/+U  -> appended (or, with an input upsert key, replacing the row with the same upsert key
 *             in place); emitted as +I when the list was empty, else +U;
 *   -U/-D  -> the first matching row (full content ignoring the kind, or the same upsert key) is
 *             removed; the list empty -> -D(the retraction's row); the removed row was the last
 *             one -> +U(the new last row); otherwise nothing. A retraction that matches nothing
 *             (state expired or never seen) is dropped.
 * State: value state `sinkMaterializeState`, the list as one byte string of
 * [u32 length][binary row] entries (as Flink's ValueState<List<RowData>>).
 * May call exec/operator, state/, types/, common/.
 */
#include "stateful.h"
#include "../types/row.h"
#include "../types/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct SumOp {
    WOperator base;
    int ncols;
    const WType **types;
    int nkeys;
    int *keys;
    const WType **ktypes;
    int nuk;
    int *uk;
    WStateBackend *be;
    WState *st;
    WChunk *out;
    WStrBuf kbuf, rbuf, lbuf;
    WDatum *vals;
    uint8_t *nulls;
    /* entries of the current list (views into state bytes, valid until the next write) */
    const uint8_t **ent;
    uint32_t *entlen;
    int entcap;
    int64_t ttl_expired, dropped;
    bool broken;
} SumOp;

static bool cols_ok(const int *cols, int n, int ncols)
{
    for (int i = 0; i < n; i++)
        if (!cols || cols[i] < 0 || cols[i] >= ncols) return false;
    return true;
}

static void encode_cols(SumOp *m, WStrBuf *buf, const WChunk *in, int r, int cnt, const int *cols,
                        const WType **tys)
{
    for (int k = 0; k < cnt; k++) {
        int c = cols ? cols[k] : k;
        m->vals[k] = in->cols[c].data[r];
        m->nulls[k] = in->cols[c].nulls[r];
    }
    wrow_encode(buf, cnt, tys, m->vals, m->nulls, WRK_INSERT);
}

static int out_add(SumOp *m, WRowKind k)
{
    if (m->out->nrows >= m->out->cap) {
        wop_emit(&m->base, m->out);
        wchunk_reset(m->out);
    }
    return wchunk_add_row(m->out, k);
}

static void emit_chunk_row(SumOp *m, WRowKind k, const WChunk *in, int r)
{
    int o = out_add(m, k);
    for (int c = 0; c < m->ncols; c++) {
        m->out->cols[c].data[o] = in->cols[c].data[r];
        m->out->cols[c].nulls[o] = in->cols[c].nulls[r];
    }
}

static void emit_bin_row(SumOp *m, WRowKind k, const uint8_t *row, size_t len)
{
    int o = out_add(m, k);
    WArena *a = m->out->arena;
    for (int c = 0; c < m->ncols; c++) {
        WDatum v;
        const WType *t = m->types[c];
        bool nn = wtype_is_composite(t) ? wrow_get_arena(row, len, m->ncols, t, c, &v, a)
                                        : wrow_get(row, len, m->ncols, t, c, &v);
        m->out->cols[c].nulls[o] = !nn;
        m->out->cols[c].data[o] = nn ? wdatum_copy(a, t, v) : (WDatum){0};
    }
}

/* Parse the stored list into views; returns the count. */
static int parse_list(SumOp *m, WBytes blob)
{
    int n = 0;
    size_t off = 0;
    const uint8_t *p = blob.p;
    while (off + 4 <= blob.len) {
        uint32_t len;
        memcpy(&len, p + off, 4);
        off += 4;
        if (off + len > blob.len) break;
        if (n == m->entcap) {
            m->entcap = m->entcap ? m->entcap * 2 : 8;
            m->ent = wrealloc(m->ent, sizeof *m->ent * (size_t)m->entcap);
            m->entlen = wrealloc(m->entlen, sizeof *m->entlen * (size_t)m->entcap);
        }
        m->ent[n] = p + off;
        m->entlen[n] = len;
        n++;
        off += len;
    }
    return n;
}

static void put_entry(WStrBuf *b, const void *row, uint32_t len)
{
    wsb_appendn(b, (const char *)&len, 4);
    wsb_appendn(b, row, len);
}

/* Does stored row e match input row r (by upsert key, or by content ignoring the kind)? */
static bool matches(SumOp *m, const uint8_t *e, uint32_t elen, const WChunk *in, int r)
{
    if (m->nuk > 0) {
        for (int k = 0; k < m->nuk; k++) {
            int c = m->uk[k];
            WDatum v;
            bool nn = wrow_get(e, elen, m->ncols, m->types[c], c, &v);
            bool in_null = in->cols[c].nulls[r];
            if (!nn || in_null) {
                if (nn != !in_null) return false;
                continue;
            }
            if (!wdatum_equal(m->types[c], v, in->cols[c].data[r])) return false;
        }
        return true;
    }
    return elen == m->rbuf.len && elen >= 1 && memcmp(e + 1, m->rbuf.buf + 1, elen - 1) == 0;
}

static void sum_process(WOperator *op, int input, const WChunk *in)
{
    SumOp *m = (SumOp *)op;
    (void)input;
    if (m->broken) return;
    wchunk_reset(m->out);
    for (int r = 0; r < in->nrows; r++) {
        WRowKind k = (WRowKind)in->kinds[r];
        encode_cols(m, &m->kbuf, in, r, m->nkeys, m->keys, m->ktypes);
        wstate_set_key(m->be, m->kbuf.buf, m->kbuf.len);
        WBytes blob;
        WStateLookup how = wvalue_get(m->st, &blob);
        if (how == WSL_EXPIRED) m->ttl_expired++;
        int n = how == WSL_FOUND ? parse_list(m, blob) : 0;
        encode_cols(m, &m->rbuf, in, r, m->ncols, NULL, m->types);
        wsb_clear(&m->lbuf);
        if (k == WRK_INSERT || k == WRK_UPDATE_AFTER) {
            int idx = -1;
            if (m->nuk > 0)
                for (int i = 0; i < n && idx < 0; i++)
                    if (matches(m, m->ent[i], m->entlen[i], in, r)) idx = i;
            for (int i = 0; i < n; i++) {
                if (i == idx) put_entry(&m->lbuf, m->rbuf.buf, (uint32_t)m->rbuf.len);
                else put_entry(&m->lbuf, m->ent[i], m->entlen[i]);
            }
            if (idx < 0) put_entry(&m->lbuf, m->rbuf.buf, (uint32_t)m->rbuf.len);
            emit_chunk_row(m, n == 0 ? WRK_INSERT : WRK_UPDATE_AFTER, in, r);
            wvalue_put(m->st, m->lbuf.buf, m->lbuf.len);
        } else {
            int idx = -1;
            for (int i = 0; i < n && idx < 0; i++)
                if (matches(m, m->ent[i], m->entlen[i], in, r)) idx = i;
            if (idx < 0) {
                m->dropped++;
                continue;
            }
            int last = n - 1;
            if (n == 1) {
                emit_chunk_row(m, WRK_DELETE, in, r);
                wvalue_clear(m->st);
                continue;
            }
            for (int i = 0; i < n; i++)
                if (i != idx) put_entry(&m->lbuf, m->ent[i], m->entlen[i]);
            if (idx == last) {
                int nl = idx - 1;
                emit_bin_row(m, WRK_UPDATE_AFTER, m->ent[nl], m->entlen[nl]);
            }
            wvalue_put(m->st, m->lbuf.buf, m->lbuf.len);
        }
    }
    if (m->out->nrows) wop_emit(op, m->out);
    wchunk_reset(m->out);
}

static void sum_metrics(WOperator *op, char *buf, size_t bufsz)
{
    SumOp *m = (SumOp *)op;
    WStateStats st[2];
    int cnt = wstate_stats(m->be, st, 2);
    size_t len = strlen(buf);
    for (int i = 0; i < cnt && len < bufsz; i++) {
        int w = snprintf(buf + len, bufsz - len, "%s%s.entries=%lld %s.bytes=%lld", len ? " " : "",
                         st[i].name, (long long)st[i].entries, st[i].name, (long long)st[i].bytes);
        if (w < 0) return;
        len += (size_t)w;
    }
    if (len < bufsz)
        snprintf(buf + len, bufsz - len, "%sttlExpiredRecords=%lld", len ? " " : "",
                 (long long)m->ttl_expired);
}

static void sum_destroy(WOperator *op)
{
    SumOp *m = (SumOp *)op;
    wstate_backend_free(m->be);
    wchunk_free(m->out);
    wsb_free(&m->kbuf);
    wsb_free(&m->rbuf);
    wsb_free(&m->lbuf);
    free(m->vals);
    free(m->nulls);
    free(m->ent);
    free(m->entlen);
    free(m->ktypes);
    free(m->keys);
    free(m->uk);
    free(m->types);
    free(m);
}

static const WOpOps SUM_OPS = {.process = sum_process, .destroy = sum_destroy,
                               .metrics = sum_metrics};

WOperator *wop_sink_materializer_new(WExecCtx *ctx, const WSinkMaterializerSpec *spec)
{
    SumOp *m = wcalloc(1, sizeof *m);
    m->ncols = spec->in_ncols;
    size_t nc = (size_t)(m->ncols ? m->ncols : 1);
    m->types = wmalloc(sizeof *m->types * nc);
    memcpy(m->types, spec->in_types, sizeof *m->types * (size_t)m->ncols);
    wop_init(&m->base, &SUM_OPS, ctx, 1, spec->out.ncols ? spec->out.ncols : m->ncols,
             spec->out.types ? spec->out.types : m->types, spec->out.names);
    m->nkeys = spec->nkeys;
    m->keys = wmalloc(sizeof *m->keys * (size_t)(m->nkeys ? m->nkeys : 1));
    m->ktypes = wmalloc(sizeof *m->ktypes * (size_t)(m->nkeys ? m->nkeys : 1));
    if (!cols_ok(spec->keys, spec->nkeys, m->ncols) ||
        (spec->nuk > 0 && !cols_ok(spec->uk, spec->nuk, m->ncols))) {
        werr_set(ctx->err, WEXC_TABLE, "SinkUpsertMaterializer: key column index out of range");
        m->broken = true;
        m->nkeys = 0;
    }
    for (int k = 0; k < m->nkeys; k++) {
        m->keys[k] = spec->keys[k];
        m->ktypes[k] = m->types[spec->keys[k]];
    }
    m->nuk = spec->nuk > 0 && spec->uk && !m->broken ? spec->nuk : 0;
    m->uk = wmalloc(sizeof *m->uk * (size_t)(m->nuk ? m->nuk : 1));
    if (m->nuk) memcpy(m->uk, spec->uk, sizeof *m->uk * (size_t)m->nuk);
    m->be = wexec_new_backend(ctx, "SinkMaterializer");
    m->st = wstate_register(m->be, "sinkMaterializeState", WSTATE_VALUE, spec->ttl_ms);
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    m->out = wchunk_new(m->ncols, m->types, cap);
    wsb_init(&m->kbuf);
    wsb_init(&m->rbuf);
    wsb_init(&m->lbuf);
    m->vals = wcalloc(nc, sizeof *m->vals);
    m->nulls = wcalloc(nc, 1);
    return &m->base;
}
