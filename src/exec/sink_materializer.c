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
 *
 * With ON CONFLICT DO ERROR / NOTHING it is Flink 2.3's WatermarkCompactingSinkMaterializer
 * (FLIP-558) instead: a row's change is buffered under its sink key (`watermark-buffer`, a
 * +I/+U cancelling a buffered -U/-D of the same content and the other way round) until the
 * watermark advances; then, per buffered key, the rows alive are the previous value
 * (`current-value`) with the buffered changes applied (an addition replaces the row of the same
 * upsert key or is appended, a retraction removes the first match). One row alive: emitted as +I
 * or +U when it differs from the previous value; none: -D of the previous one; several: ERROR
 * fails the job, NOTHING keeps the previous value (or, without one, emits the first as +I).
 * May call exec/operator, state/, types/, common/.
 */
#include "stateful.h"
#include "op_rows.h"
#include "../types/row.h"
#include "../types/compare.h"
#include "../types/format.h"

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
    /* the watermark-compacting variant */
    WSinkConflictMode conflict;
    WState *cur;                    /* current-value: the row the sink holds for the key */
    WStrBuf scratch;                /* previous value and buffered changes of one key */
    char **key_names;               /* the sink's primary key columns, for ERROR's message */
    WStrBuf wm_keys;                /* buffered keys at a watermark: [u32 length][key] */
} SumOp;

static int out_add(SumOp *m, WRowKind k) { return wop_out_row(&m->base, m->out, k); }

static void emit_bin_row(SumOp *m, WRowKind k, const uint8_t *row, size_t len)
{
    int o = out_add(m, k);
    wrow_decode_chunk(row, len, m->ncols, m->types, m->out, o, 0, m->out->arena, true);
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
        wop_encode_cols(&m->kbuf, in, r, m->nkeys, m->keys, m->ktypes, m->vals, m->nulls);
        wstate_set_key(m->be, m->kbuf.buf, m->kbuf.len);
        WBytes blob;
        WStateLookup how = wvalue_get(m->st, &blob);
        if (how == WSL_EXPIRED) m->ttl_expired++;
        int n = how == WSL_FOUND ? parse_list(m, blob) : 0;
        wop_encode_cols(&m->rbuf, in, r, m->ncols, NULL, m->types, m->vals, m->nulls);
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
            wop_out_copy_row(&m->base, m->out, n == 0 ? WRK_INSERT : WRK_UPDATE_AFTER, in, r, m->ncols);
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
                wop_out_copy_row(&m->base, m->out, WRK_DELETE, in, r, m->ncols);
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

/* ---- ON CONFLICT DO ERROR / NOTHING: compaction on watermarks ---- */

/* Rows a and b (binary, kind byte first) equal in content, whatever their kinds? */
static bool same_content(const uint8_t *a, uint32_t alen, const uint8_t *b, uint32_t blen)
{
    return alen == blen && alen >= 1 && memcmp(a + 1, b + 1, alen - 1) == 0;
}

/* Do rows a and b have the same upsert key (the same content without one)? */
static bool same_upsert_key(SumOp *m, const uint8_t *a, uint32_t alen, const uint8_t *b, uint32_t blen)
{
    if (m->nuk == 0) return same_content(a, alen, b, blen);
    for (int k = 0; k < m->nuk; k++) {
        int c = m->uk[k];
        WDatum va, vb;
        bool na = wrow_get(a, alen, m->ncols, m->types[c], c, &va);
        bool nb = wrow_get(b, blen, m->ncols, m->types[c], c, &vb);
        if (na != nb) return false;
        if (na && !wdatum_equal(m->types[c], va, vb)) return false;
    }
    return true;
}

static bool is_addition(WRowKind k) { return k == WRK_INSERT || k == WRK_UPDATE_AFTER; }

/* Buffer row r of `in` under its key: cancel a buffered change of the same content and the
   opposite sign, else append. */
static void csum_process(WOperator *op, int input, const WChunk *in)
{
    SumOp *m = (SumOp *)op;
    (void)input;
    if (m->broken) return;
    for (int r = 0; r < in->nrows; r++) {
        WRowKind k = (WRowKind)in->kinds[r];
        wop_encode_cols(&m->kbuf, in, r, m->nkeys, m->keys, m->ktypes, m->vals, m->nulls);
        wstate_set_key(m->be, m->kbuf.buf, m->kbuf.len);
        for (int c = 0; c < m->ncols; c++) {
            m->vals[c] = in->cols[c].data[r];
            m->nulls[c] = in->cols[c].nulls[r];
        }
        wrow_encode(&m->rbuf, m->ncols, m->types, m->vals, m->nulls, k);
        WBytes blob;
        WStateLookup how = wvalue_get(m->st, &blob);
        if (how == WSL_EXPIRED) m->ttl_expired++;
        int n = how == WSL_FOUND ? parse_list(m, blob) : 0;
        int cancel = -1;
        for (int i = 0; i < n && cancel < 0; i++)
            if (is_addition(wrow_kind(m->ent[i])) != is_addition(k) &&
                same_content(m->ent[i], m->entlen[i], (const uint8_t *)m->rbuf.buf, (uint32_t)m->rbuf.len))
                cancel = i;
        wsb_clear(&m->lbuf);
        for (int i = 0; i < n; i++)
            if (i != cancel) put_entry(&m->lbuf, m->ent[i], m->entlen[i]);
        if (cancel < 0) put_entry(&m->lbuf, m->rbuf.buf, (uint32_t)m->rbuf.len);
        if (m->lbuf.len) wvalue_put(m->st, m->lbuf.buf, m->lbuf.len);
        else wvalue_clear(m->st);
    }
}

static void collect_key(void *ctx, WBytes key, WBytes value)
{
    (void)value;
    put_entry((WStrBuf *)ctx, key.p, (uint32_t)key.len);
}

/* The compaction of the current key (FLIP-558's compactAndEmit). */
static void compact_key(SumOp *m)
{
    WBytes prev, buf;
    bool has_prev = wvalue_get(m->cur, &prev) == WSL_FOUND;
    if (wvalue_get(m->st, &buf) != WSL_FOUND) buf = (WBytes){NULL, 0};
    /* the previous value and the buffered changes as one list of entries in scratch */
    wsb_clear(&m->scratch);
    if (has_prev) put_entry(&m->scratch, prev.p, (uint32_t)prev.len);
    if (buf.len) wsb_appendn(&m->scratch, (const char *)buf.p, buf.len);
    wvalue_clear(m->st);
    const uint8_t *prev_row = has_prev ? (const uint8_t *)m->scratch.buf + 4 : NULL;
    uint32_t prev_len = has_prev ? (uint32_t)prev.len : 0;
    int n = parse_list(m, (WBytes){(const uint8_t *)m->scratch.buf, m->scratch.len});
    /* the rows alive: ent[0..alive) after applying the changes in order (ent[] is rewritten in
       place; entries stay views into scratch) */
    int alive = has_prev ? 1 : 0;
    for (int i = alive; i < n; i++) {
        const uint8_t *e = m->ent[i];
        uint32_t el = m->entlen[i];
        int at = -1;
        for (int a = 0; a < alive && at < 0; a++)
            if (is_addition(wrow_kind(e)) ? m->nuk > 0 && same_upsert_key(m, m->ent[a], m->entlen[a], e, el)
                                          : same_upsert_key(m, m->ent[a], m->entlen[a], e, el))
                at = a;
        if (is_addition(wrow_kind(e))) {
            if (at < 0) at = alive++;
            m->ent[at] = e;
            m->entlen[at] = el;
        } else if (at < 0) {
            m->dropped++;                       /* retracts a row the state no longer has */
        } else {
            for (int a = at; a + 1 < alive; a++) {
                m->ent[a] = m->ent[a + 1];
                m->entlen[a] = m->entlen[a + 1];
            }
            alive--;
        }
    }
    if (alive > 1) {
        if (m->conflict == WSCM_ERROR) {
            if (!m->base.ctx->err->set) {
                /* Flink 2.3.0 names the key: "Conflicting key: [cnt=1]" */
                WStrBuf kt;
                wsb_init(&kt);
                for (int k = 0; k < m->nkeys; k++) {
                    WDatum v;
                    int c = m->keys[k];
                    bool nn = wrow_get(m->ent[0], m->entlen[0], m->ncols, m->types[c], c, &v);
                    wsb_printf(&kt, "%s%s=", k ? ", " : "", m->key_names ? m->key_names[k] : "?");
                    wfmt_java(m->types[c], v, !nn, m->base.ctx->cast.tz, &kt);
                }
                werr_set(m->base.ctx->err, WEXC_RUNTIME,
                         "Primary key constraint violation: multiple distinct records with the same primary key "
                         "detected. Conflicting key: [%s]. Use ON CONFLICT DO NOTHING to keep the first record.",
                         kt.buf ? kt.buf : "");
                wsb_free(&kt);
            }
            m->broken = true;
        } else if (!has_prev) {
            emit_bin_row(m, WRK_INSERT, m->ent[0], m->entlen[0]);
            wvalue_put(m->cur, m->ent[0], m->entlen[0]);
        }
    } else if (alive == 0) {
        if (has_prev) {
            emit_bin_row(m, WRK_DELETE, prev_row, prev_len);
            wvalue_clear(m->cur);
        }
    } else if (!has_prev) {
        emit_bin_row(m, WRK_INSERT, m->ent[0], m->entlen[0]);
        wvalue_put(m->cur, m->ent[0], m->entlen[0]);
    } else if (!same_content(prev_row, prev_len, m->ent[0], m->entlen[0])) {
        emit_bin_row(m, WRK_UPDATE_AFTER, m->ent[0], m->entlen[0]);
        wvalue_put(m->cur, m->ent[0], m->entlen[0]);
    }
}

static void csum_watermark(WOperator *op, int64_t wm)
{
    SumOp *m = (SumOp *)op;
    if (!m->broken) {
        wsb_clear(&m->wm_keys);
        wstate_for_each(m->st, collect_key, &m->wm_keys);
        wchunk_reset(m->out);
        for (size_t off = 0; off + 4 <= m->wm_keys.len && !m->broken;) {
            uint32_t len;
            memcpy(&len, m->wm_keys.buf + off, 4);
            wstate_set_key(m->be, m->wm_keys.buf + off + 4, len);
            compact_key(m);
            off += 4 + len;
        }
        if (m->out->nrows && !m->broken) wop_emit(op, m->out);
        wchunk_reset(m->out);
    }
    wop_emit_watermark(op, wm);
}

static void sum_metrics(WOperator *op, WOpMetrics *m)
{
    SumOp *s = (SumOp *)op;
    wop_metrics_states(m, s->be);
    wop_metrics_value(m, "ttlExpiredRecords", s->ttl_expired);
}

static void sum_destroy(WOperator *op)
{
    SumOp *m = (SumOp *)op;
    wstate_backend_free(m->be);
    wchunk_free(m->out);
    wsb_free(&m->kbuf);
    wsb_free(&m->rbuf);
    wsb_free(&m->lbuf);
    wsb_free(&m->scratch);
    wsb_free(&m->wm_keys);
    if (m->key_names)
        for (int k = 0; k < m->nkeys; k++) free(m->key_names[k]);
    free(m->key_names);
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
static const WOpOps COMPACTING_OPS = {.process = csum_process, .watermark = csum_watermark,
                                      .destroy = sum_destroy, .metrics = sum_metrics};

WOperator *wop_sink_materializer_new(WExecCtx *ctx, const WSinkMaterializerSpec *spec)
{
    SumOp *m = wcalloc(1, sizeof *m);
    m->ncols = spec->in_ncols;
    size_t nc = (size_t)(m->ncols ? m->ncols : 1);
    m->types = wmalloc(sizeof *m->types * nc);
    memcpy(m->types, spec->in_types, sizeof *m->types * (size_t)m->ncols);
    m->conflict = spec->conflict;
    wop_init(&m->base, m->conflict == WSCM_LEGACY ? &SUM_OPS : &COMPACTING_OPS, ctx, 1, spec->out.ncols ? spec->out.ncols : m->ncols,
             spec->out.types ? spec->out.types : m->types, spec->out.names);
    m->nkeys = spec->nkeys;
    m->keys = wmalloc(sizeof *m->keys * (size_t)(m->nkeys ? m->nkeys : 1));
    m->ktypes = wmalloc(sizeof *m->ktypes * (size_t)(m->nkeys ? m->nkeys : 1));
    if (!wop_cols_in_range(spec->keys, spec->nkeys, m->ncols) ||
        (spec->nuk > 0 && !wop_cols_in_range(spec->uk, spec->nuk, m->ncols))) {
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
    if (spec->key_names) {
        m->key_names = wcalloc((size_t)(m->nkeys ? m->nkeys : 1), sizeof *m->key_names);
        for (int k = 0; k < m->nkeys; k++) m->key_names[k] = wstrdup(spec->key_names[k] ? spec->key_names[k] : "?");
    }
    if (m->nuk) memcpy(m->uk, spec->uk, sizeof *m->uk * (size_t)m->nuk);
    m->be = wexec_new_backend(ctx, "SinkMaterializer");
    if (m->conflict == WSCM_LEGACY) {
        m->st = wstate_register(m->be, "sinkMaterializeState", WSTATE_VALUE, spec->ttl_ms);
    } else {
        m->st = wstate_register(m->be, "watermark-buffer", WSTATE_VALUE, spec->ttl_ms);
        m->cur = wstate_register(m->be, "current-value", WSTATE_VALUE, spec->ttl_ms);
    }
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    m->out = wchunk_new(m->ncols, m->types, cap);
    wsb_init(&m->kbuf);
    wsb_init(&m->rbuf);
    wsb_init(&m->lbuf);
    wsb_init(&m->scratch);
    wsb_init(&m->wm_keys);
    m->vals = wcalloc(nc, sizeof *m->vals);
    m->nulls = wcalloc(nc, 1);
    return &m->base;
}
