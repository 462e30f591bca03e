/*
 * rank.c — the Rank operator (ROW_NUMBER() OVER (PARTITION BY .. ORDER BY ..) filtered to a rank
 * range), choosing Flink's process function as StreamExecRank does and reproducing its changelog:
 *   AppendFast + ORDER BY a proctime attribute ASC   AppendOnlyFirstNFunction (+I only);
 *   AppendFast / UpdateFast with rank range [1, 1]   FastTop1Function (+I, then -U/+U when a
 *                                                   strictly better row arrives);
 *   AppendFast                                       AppendOnlyTopNFunction (with rank number or an
 *                                                   offset: rows shift ranks with -U/+U and the
 *                                                   tail row gets +I; otherwise -D(evicted)/+I);
 *   UpdateFast                                       UpdatableTopNFunction (rows identified by the
 *                                                   input's unique key);
 *   Retract                                          RetractableTopNFunction (rank_retract.c).
 * RANK and DENSE_RANK are rejected as Flink does ("RANK() on streaming table is not supported
 * currently"). The top-N buffer of a partition key lives in value state `rankState` as one byte
 * string: [u32 count][u32 offset of the last entry] then [u32 length][binary row] per row, in
 * order (ties in arrival order) — the flat equivalent of Flink's TreeMap<sortKey, rows>.
 * May call exec/operator, state/, types/, common/.
 */
#include "rank_internal.h"
#include "op_rows.h"
#include "insight.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------- emission ---------------- */

static int out_add(RankOp *o, WRowKind k)
{
    if (o->out->nrows >= o->out->cap) o->out_epoch++;      /* wop_out_row emits and empties it */
    return wop_out_row(&o->base, o->out, k);
}

/* Row r of out gets the values of stored row `row` (o->ncols columns): copied from the row of out
   it was decoded into earlier in this proc_append (their strings are in out's arena, which holds
   until out is emitted) or decoded. */
static void out_stored_row(RankOp *o, const uint8_t *row, size_t len, int r)
{
    WChunk *out = o->out;
    if (o->reuse_decoded) {
        for (int m = 0; m < RANK_DECODED; m++) {
            if (o->decoded[m].p != row || o->decoded[m].epoch != o->out_epoch) continue;
            int from = o->decoded[m].row;
            assert(from < r);
            for (int c = 0; c < o->ncols; c++) {
                out->cols[c].data[r] = out->cols[c].data[from];
                out->cols[c].nulls[r] = out->cols[c].nulls[from];
            }
            return;
        }
    }
    wrow_decode_chunk(row, len, o->ncols, o->types, out, r, 0, out->arena, true);
    if (o->reuse_decoded) {
        memmove(o->decoded + 1, o->decoded, sizeof o->decoded[0] * (RANK_DECODED - 1));
        o->decoded[0].p = row;
        o->decoded[0].row = r;
        o->decoded[0].epoch = o->out_epoch;
    }
}

/* Emit a stored row (rank appended when the operator outputs the rank number). */
void rank_emit(RankOp *o, WRowKind k, const uint8_t *row, size_t len, int64_t rank)
{
    int r = out_add(o, k);
    out_stored_row(o, row, len, r);
    if (o->out_rank) {
        o->out->cols[o->ncols].nulls[r] = 0;
        o->out->cols[o->ncols].data[r].i = rank;
    }
}

bool rank_in_range(const RankOp *o, int64_t rank)
{
    return rank <= o->rank_end && rank >= o->rank_start;
}

static bool in_rank_end(const RankOp *o, int64_t rank) { return rank <= o->rank_end; }

/* Flink's collectX(out, row, rank) (range-checked) and collectX(out, row) (unchecked). */
static void c_insert_r(RankOp *o, RankEnt e, int64_t rank)
{
    if (rank_in_range(o, rank)) rank_emit(o, WRK_INSERT, e.p, e.len, rank);
}
static void c_ua_r(RankOp *o, RankEnt e, int64_t rank)
{
    if (rank_in_range(o, rank)) rank_emit(o, WRK_UPDATE_AFTER, e.p, e.len, rank);
}
static void c_ub_r(RankOp *o, RankEnt e, int64_t rank)
{
    if (o->gen_ub && rank_in_range(o, rank)) rank_emit(o, WRK_UPDATE_BEFORE, e.p, e.len, rank);
}
static void c_insert(RankOp *o, RankEnt e) { rank_emit(o, WRK_INSERT, e.p, e.len, 1); }
static void c_delete(RankOp *o, RankEnt e) { rank_emit(o, WRK_DELETE, e.p, e.len, 1); }
static void c_ua(RankOp *o, RankEnt e) { rank_emit(o, WRK_UPDATE_AFTER, e.p, e.len, 1); }
static void c_ub(RankOp *o, RankEnt e)
{
    if (o->gen_ub) rank_emit(o, WRK_UPDATE_BEFORE, e.p, e.len, 1);
}

/* ---------------- sort keys ---------------- */

/* Flink's generated sort comparator: NULLs by nulls_first regardless of direction. */
int rank_cmp_sk(const RankOp *o, const WDatum *a, const uint8_t *an, const WDatum *b, const uint8_t *bn)
{
    for (int k = 0; k < o->nsort; k++) {
        int c;
        if (an[k] && bn[k]) c = 0;
        else if (an[k]) c = o->sort[k].nulls_first ? -1 : 1;
        else if (bn[k]) c = o->sort[k].nulls_first ? 1 : -1;
        else {
            c = wdatum_compare(o->stypes[k], a[k], b[k]);
            if (o->sort[k].desc) c = -c;
        }
        if (c) return c < 0 ? -1 : 1;
    }
    return 0;
}

static void sk_from_row(const RankOp *o, const uint8_t *p, size_t len, WDatum *v, uint8_t *nul)
{
    for (int k = 0; k < o->nsort; k++) {
        bool nn = wrow_get(p, len, o->ncols, o->stypes[k], o->scols[k], &v[k]);
        nul[k] = !nn;
    }
}

void rank_sk_from_keyrow(const RankOp *o, const uint8_t *p, size_t len, WDatum *v, uint8_t *nul)
{
    for (int k = 0; k < o->nsort; k++) {
        bool nn = wrow_get(p, len, o->nsort, o->stypes[k], k, &v[k]);
        nul[k] = !nn;
    }
}

/* ---------------- the flat top-N buffer ---------------- */

void rank_ensure_ents(RankOp *o, int n)
{
    if (n <= o->entcap) return;
    int cap = o->entcap ? o->entcap : 16;
    while (cap < n) cap *= 2;
    o->ents = wrealloc(o->ents, sizeof *o->ents * (size_t)cap);
    size_t ns = (size_t)(o->nsort ? o->nsort : 1);
    o->esk = wrealloc(o->esk, sizeof *o->esk * (size_t)cap * ns);
    o->esk_null = wrealloc(o->esk_null, (size_t)cap * ns);
    o->entcap = cap;
}

static WDatum *esk_at(RankOp *o, int i) { return o->esk + (size_t)i * (size_t)o->nsort; }
static uint8_t *eskn_at(RankOp *o, int i) { return o->esk_null + (size_t)i * (size_t)o->nsort; }

static int cmp_ent_in(RankOp *o, int i) /* entry i vs input */
{
    return rank_cmp_sk(o, esk_at(o, i), eskn_at(o, i), o->in_sk, o->in_sk_null);
}
static int cmp_ents(RankOp *o, int i, int j)
{
    return rank_cmp_sk(o, esk_at(o, i), eskn_at(o, i), esk_at(o, j), eskn_at(o, j));
}

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Header of a stored buffer: count, and a view of the last row (worst sort key). */
static int buffer_count(WBytes blob) { return blob.len >= 8 ? (int)rd32(blob.p) : 0; }

static RankEnt buffer_last(WBytes blob)
{
    const uint8_t *p = blob.p;
    uint32_t off = rd32(p + 4);
    return (RankEnt){p + off + 4, rd32(p + off)};
}

/* Parse all entries (views) and decode their sort keys. */
static int buffer_parse(RankOp *o, WBytes blob, int extra)
{
    int n = buffer_count(blob);
    rank_ensure_ents(o, n + extra + 1);
    size_t off = 8;
    const uint8_t *p = blob.p;
    for (int i = 0; i < n; i++) {
        uint32_t len = rd32(p + off);
        o->ents[i] = (RankEnt){p + off + 4, len};
        sk_from_row(o, o->ents[i].p, len, esk_at(o, i), eskn_at(o, i));
        off += 4 + len;
    }
    o->work += n;
    return n;
}

static void buffer_write(RankOp *o, int n)
{
    if (n == 0) {
        wvalue_clear(o->st);
        return;
    }
    WStrBuf *b = &o->nbuf;
    wsb_clear(b);
    uint32_t hdr[2] = {(uint32_t)n, 0};
    wsb_appendn(b, (const char *)hdr, 8);
    uint32_t last = 8;
    for (int i = 0; i < n; i++) {
        last = (uint32_t)b->len;
        wsb_appendn(b, (const char *)&o->ents[i].len, 4);
        wsb_appendn(b, (const char *)o->ents[i].p, o->ents[i].len);
    }
    memcpy(b->buf + 4, &last, 4);
    wvalue_put(o->st, b->buf, b->len);
}

/* Insert the input (rank_input_row, o->in_sk) after all entries whose sort key is <= it. */
static int buffer_insert_input(RankOp *o, int n)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (cmp_ent_in(o, mid) <= 0) lo = mid + 1;
        else hi = mid;
    }
    int p = lo;
    size_t ns = (size_t)o->nsort;
    memmove(o->ents + p + 1, o->ents + p, sizeof *o->ents * (size_t)(n - p));
    memmove(o->esk + (size_t)(p + 1) * ns, o->esk + (size_t)p * ns, sizeof *o->esk * (size_t)(n - p) * ns);
    memmove(o->esk_null + (size_t)(p + 1) * ns, o->esk_null + (size_t)p * ns, (size_t)(n - p) * ns);
    o->ents[p] = rank_input_row(o);
    memcpy(esk_at(o, p), o->in_sk, sizeof *o->esk * ns);
    memcpy(eskn_at(o, p), o->in_sk_null, ns);
    return p;
}

static void buffer_remove(RankOp *o, int n, int i)
{
    size_t ns = (size_t)o->nsort;
    memmove(o->ents + i, o->ents + i + 1, sizeof *o->ents * (size_t)(n - i - 1));
    memmove(o->esk + (size_t)i * ns, o->esk + (size_t)(i + 1) * ns, sizeof *o->esk * (size_t)(n - i - 1) * ns);
    memmove(o->esk_null + (size_t)i * ns, o->esk_null + (size_t)(i + 1) * ns, (size_t)(n - i - 1) * ns);
}

static int group_end(RankOp *o, int n, int i)
{
    int j = i + 1;
    while (j < n && cmp_ents(o, i, j) == 0) j++;
    return j;
}

static WStateLookup load(RankOp *o, WBytes *v)
{
    WStateLookup how = wvalue_get(o->st, v);
    if (how == WSL_EXPIRED) o->ttl_expired++;
    return how;
}

/* checkSortKeyInBufferRange against a stored buffer. */
static bool in_buffer_range(RankOp *o, WBytes blob, bool have)
{
    int n = have ? buffer_count(blob) : 0;
    if (n == 0) return true;
    RankEnt last = buffer_last(blob);
    sk_from_row(o, last.p, last.len, o->tmp_sk, o->tmp_sk_null);
    if (rank_cmp_sk(o, o->in_sk, o->in_sk_null, o->tmp_sk, o->tmp_sk_null) < 0) return true;
    return n < o->rank_end;
}

/* ---------------- AppendOnlyFirstNFunction ---------------- */

static void proc_firstn(RankOp *o)
{
    WBytes v;
    int64_t count = 0;
    if (load(o, &v) == WSL_FOUND && v.len == 8) memcpy(&count, v.p, 8);
    if (count >= o->rank_end) return;
    count++;
    wvalue_put(o->st, &count, 8);
    if (o->with_number) c_insert_r(o, rank_input_row(o), count);
    else c_insert(o, rank_input_row(o));
}

/* ---------------- FastTop1Function ---------------- */

static void proc_top1(RankOp *o)
{
    WBytes prev;
    if (load(o, &prev) != WSL_FOUND) {
        RankEnt row = rank_input_row(o);
        wvalue_put(o->st, row.p, row.len);
        if (o->out_rank) c_insert_r(o, row, 1);
        else c_insert(o, row);
        return;
    }
    sk_from_row(o, prev.p, prev.len, o->tmp_sk, o->tmp_sk_null);
    if (rank_cmp_sk(o, o->in_sk, o->in_sk_null, o->tmp_sk, o->tmp_sk_null) >= 0) return;
    RankEnt p = {prev.p, (uint32_t)prev.len};
    if (o->out_rank) {
        c_ub_r(o, p, 1);
        c_ua_r(o, rank_input_row(o), 1);
    } else {
        c_ub(o, p);
        c_ua(o, rank_input_row(o));
    }
    RankEnt row = rank_input_row(o);
    wvalue_put(o->st, row.p, row.len);
}

/* ---------------- AppendOnlyTopNFunction ---------------- */

static void proc_append(RankOp *o)
{
    WBytes blob;
    bool have = load(o, &blob) == WSL_FOUND;
    if (!in_buffer_range(o, blob, have)) return;
    int n = have ? buffer_parse(o, blob, 1) : 0;
    rank_ensure_ents(o, n + 1);
    int p = buffer_insert_input(o, n);
    n++;
    if (o->with_number) {
        o->reuse_decoded = true;        /* the stored rows' bytes hold until buffer_write */
        memset(o->decoded, 0, sizeof o->decoded);
        int64_t rank = 0;
        bool found = false;
        RankEnt cur = {0};
        int i = 0;
        while (i < n && in_rank_end(o, rank)) {
            int gs = i, ge = group_end(o, n, i);
            i = ge;
            if (!found && cmp_ent_in(o, gs) == 0) {
                rank += ge - gs;
                cur = rank_input_row(o);
                found = true;
            } else if (found) {
                for (int j = gs; j < ge && in_rank_end(o, rank); j++) {
                    c_ub_r(o, o->ents[j], rank);
                    c_ua_r(o, cur, rank);
                    cur = o->ents[j];
                    rank++;
                }
            } else {
                rank += ge - gs;
            }
        }
        if (in_rank_end(o, rank)) c_insert_r(o, cur, rank);
        o->reuse_decoded = false;
        n = i;                      /* drop the sort keys beyond the top N */
    } else if (n > o->rank_end) {
        int last = n - 1;
        RankEnt ev = o->ents[last];
        n--;
        if (last != p) {
            c_delete(o, ev);
            c_insert(o, rank_input_row(o));
        }
    } else {
        c_insert(o, rank_input_row(o));
    }
    buffer_write(o, n);
}

/* ---------------- UpdatableTopNFunction ---------------- */

static bool same_uk(RankOp *o, RankEnt e, const WChunk *in, int r)
{
    for (int k = 0; k < o->nuk; k++) {
        int c = o->uk[k];
        WDatum v;
        bool nn = wrow_get(e.p, e.len, o->ncols, o->types[c], c, &v);
        bool inn = !in->cols[c].nulls[r];
        if (nn != inn) return false;
        if (nn && !wdatum_equal(o->types[c], v, in->cols[c].data[r])) return false;
    }
    return true;
}

/* emitRecordsWithRowNumber; returns the number of entries to keep. */
static int update_emit_with_number(RankOp *o, int n, bool has_old, RankEnt old, int64_t old_rank,
                                   const WDatum *old_sk, const uint8_t *old_skn)
{
    int64_t rank = 0;
    bool found = false, old_retracted = false, cur_is_input = false;
    RankEnt cur = {0};
    int i = 0;
    while (i < n && in_rank_end(o, rank)) {
        int gs = i, ge = group_end(o, n, i);
        i = ge;
        if (!found && cmp_ent_in(o, gs) == 0) {
            rank += ge - gs;
            cur = rank_input_row(o);
            cur_is_input = true;
            found = true;
        } else if (found) {
            if (!has_old) {
                for (int j = gs; j < ge && in_rank_end(o, rank); j++) {
                    c_ub_r(o, o->ents[j], rank);
                    c_ua_r(o, cur, rank);
                    cur = o->ents[j];
                    cur_is_input = false;
                    rank++;
                }
            } else if (rank_cmp_sk(o, esk_at(o, gs), eskn_at(o, gs), old_sk, old_skn) <= 0) {
                for (int j = gs; j < ge && rank < old_rank; j++) {
                    c_ub_r(o, o->ents[j], rank);
                    if (cur_is_input && !old_retracted) {
                        c_ub_r(o, old, old_rank);
                        old_retracted = true;
                    }
                    c_ua_r(o, cur, rank);
                    cur = o->ents[j];
                    cur_is_input = false;
                    rank++;
                }
            } else {
                break;
            }
        } else {
            rank += ge - gs;
        }
    }
    if (in_rank_end(o, rank)) {
        if (!has_old) {
            c_insert_r(o, cur, rank);
        } else {
            if (!old_retracted) c_ub_r(o, old, old_rank);
            c_ua_r(o, cur, rank);
        }
        return n;
    }
    return i;
}

static void proc_update(RankOp *o, const WChunk *in, int r)
{
    WBytes blob;
    bool have = load(o, &blob) == WSL_FOUND;
    int n = have ? buffer_parse(o, blob, 1) : 0;
    rank_ensure_ents(o, n + 1);
    int idx = -1;
    for (int i = 0; i < n && idx < 0; i++)
        if (same_uk(o, o->ents[i], in, r)) idx = i;
    size_t ns = (size_t)o->nsort;
    if (idx >= 0) {
        RankEnt old = o->ents[idx];
        /* keep the old sort key: the entry arrays are about to shift */
        WDatum old_sk_s[16];
        uint8_t old_skn_s[16];
        WDatum *old_sk = ns <= 16 ? old_sk_s : wmalloc(sizeof *old_sk * ns);
        uint8_t *old_skn = ns <= 16 ? old_skn_s : wmalloc(ns);
        memcpy(old_sk, esk_at(o, idx), sizeof *old_sk * ns);
        memcpy(old_skn, eskn_at(o, idx), ns);
        int c = rank_cmp_sk(o, o->in_sk, o->in_sk_null, old_sk, old_skn);
        int64_t old_rank = idx + 1;
        if (!o->with_number) {
            if (c != 0) {
                buffer_remove(o, n, idx);
                buffer_insert_input(o, n - 1);
            } else {
                o->ents[idx] = rank_input_row(o);
            }
            c_ub(o, old);
            c_ua(o, rank_input_row(o));
        } else if (c == 0) {
            o->ents[idx] = rank_input_row(o);
            c_ub_r(o, old, old_rank);
            c_ua_r(o, rank_input_row(o), old_rank);
        } else {
            buffer_remove(o, n, idx);
            int p = buffer_insert_input(o, n - 1);
            if (c < 0) {
                n = update_emit_with_number(o, n, true, old, old_rank, old_sk, old_skn);
            } else {
                /* the sort key moved the wrong way (Flink: lenient, logs the monotonicity
                   violation and re-emits the affected ranks) */
                o->stale++;
                int64_t new_rank = p + 1;
                c_ub_r(o, old, old_rank);
                for (int j = 0; j < n; j++) {
                    int64_t cr = j + 1;
                    if (cr == new_rank) break;
                    if (old_rank <= cr) {
                        c_ub_r(o, o->ents[j], cr + 1);
                        c_ua_r(o, o->ents[j], cr);
                    }
                }
                c_ua_r(o, rank_input_row(o), new_rank);
            }
        }
        if (ns > 16) { free(old_sk); free(old_skn); }
    } else if (in_buffer_range(o, blob, have)) {
        buffer_insert_input(o, n);
        n++;
        if (o->with_number) {
            n = update_emit_with_number(o, n, false, (RankEnt){0}, -1, NULL, NULL);
        } else {
            if (n > o->rank_end) {
                RankEnt last = o->ents[n - 1];
                n--;
                c_delete(o, last);
            }
            c_insert(o, rank_input_row(o));
        }
    } else {
        return;
    }
    buffer_write(o, n);
}

/* ---------------- driver ---------------- */

/* Rows ahead whose strings are read ahead (a row entering the top N is copied into its state),
   while at least a quarter of the rows are (a top 1 over many rows per key keeps few of them). */
#define STRINGS_AHEAD 4
#define COPY_SHARE_ONE 1024
#define COPY_SHARE_AHEAD (COPY_SHARE_ONE / 4)

static void rank_process(WOperator *op, int input, const WChunk *in)
{
    RankOp *o = (RankOp *)op;
    (void)input;
    wchunk_reset(o->out);
    o->out_epoch++;
    if (o->mode == RM_UNSUPPORTED) return;
    /* insight's slow keys: a row's work is the stored rows of its key it read; a row that read
       WINS_WORK_MIN rows or more is timed from the previous such row's end (or the chunk's start:
       a coarse clock reading, none for the rows that read a few rows) */
    int64_t t0 = wop_key_begin(op), small = 0;
    for (int r = 0; r < in->nrows; r++) {
        WRowKind k = (WRowKind)in->kinds[r];
        bool acc = k == WRK_INSERT || k == WRK_UPDATE_AFTER;
        if (!acc && o->mode != RM_RETRACT) {
            /* append-only and update-fast strategies never receive retractions from a correct
               plan; drop (and count) them instead of corrupting the top N */
            o->dropped++;
            continue;
        }
        o->work = 0;
        if (o->copy_share >= COPY_SHARE_AHEAD) wchunk_prefetch_strings(in, r + STRINGS_AHEAD);
        wop_encode_cols(&o->kbuf, in, r, o->nkeys, o->keys, o->ktypes, o->vals, o->nulls);
        wstate_set_key(o->be, o->kbuf.buf, o->kbuf.len);
        o->row_in = in;
        o->row_r = r;
        o->row_ready = false;
        for (int s = 0; s < o->nsort; s++) {
            o->in_sk[s] = in->cols[o->scols[s]].data[r];
            o->in_sk_null[s] = in->cols[o->scols[s]].nulls[r];
        }
        switch (o->mode) {
        case RM_FIRSTN: proc_firstn(o); break;
        case RM_TOP1: proc_top1(o); break;
        case RM_APPEND: proc_append(o); break;
        case RM_UPDATE: proc_update(o, in, r); break;
        case RM_RETRACT:
            wop_encode_cols(&o->skbuf, in, r, o->nsort, o->scols, o->stypes, o->vals, o->nulls);
            rank_retract_process(o, in, r);
            break;
        default: break;
        }
        o->copy_share += ((o->row_ready ? COPY_SHARE_ONE : 0) - o->copy_share) / 32;
        if (o->work >= WINS_WORK_MIN && op->insight) {
            wop_key_work(op, 0, in, r, o->work);
            t0 = wop_key_slow_end(op, t0, o->work, in, r);
        } else {
            small += o->work;
        }
    }
    wop_key_work_add(op, small);
    if (o->out->nrows) wop_emit(op, o->out);
    wchunk_reset(o->out);
}

static void rank_metrics(WOperator *op, WOpMetrics *m)
{
    RankOp *o = (RankOp *)op;
    wop_metrics_states(m, o->be);
    wop_metrics_value(m, "ttlExpiredRecords", o->ttl_expired);
}

static void rank_destroy(WOperator *op)
{
    RankOp *o = (RankOp *)op;
    wstate_backend_free(o->be);
    wchunk_free(o->out);
    WStrBuf *bufs[] = {&o->kbuf, &o->rbuf, &o->skbuf, &o->nbuf, &o->cur, &o->prev, &o->idx, &o->lbuf};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) wsb_free(bufs[i]);
    free(o->vals);
    free(o->nulls);
    free(o->in_sk);
    free(o->in_sk_null);
    free(o->tmp_sk);
    free(o->tmp_sk_null);
    free(o->ents);
    free(o->esk);
    free(o->esk_null);
    free(o->ikeys);
    free(o->icounts);
    free(o->ioffs);
    free(o->types);
    free(o->otypes);
    free(o->keys);
    free(o->ktypes);
    free(o->sort);
    free(o->scols);
    free(o->stypes);
    free(o->uk);
    free(o);
}

static const WOpOps RANK_OPS = {.process = rank_process, .destroy = rank_destroy,
                                .metrics = rank_metrics};

WOperator *wop_rank_new(WExecCtx *ctx, const WRankSpec *spec)
{
    RankOp *o = wcalloc(1, sizeof *o);
    o->copy_share = COPY_SHARE_ONE;
    o->ncols = spec->in_ncols;
    o->out_rank = spec->output_rank_number;
    o->out_ncols = o->ncols + (o->out_rank ? 1 : 0);
    size_t nc = (size_t)(o->ncols ? o->ncols : 1);
    o->types = wmalloc(sizeof *o->types * nc);
    memcpy(o->types, spec->in_types, sizeof *o->types * (size_t)o->ncols);
    o->otypes = wmalloc(sizeof *o->otypes * (size_t)(o->out_ncols ? o->out_ncols : 1));
    for (int c = 0; c < o->out_ncols; c++) {
        if (spec->out.types && spec->out.ncols == o->out_ncols) o->otypes[c] = spec->out.types[c];
        else o->otypes[c] = c < o->ncols ? o->types[c] : &WTYPE_BIGINT_NN;
    }
    wop_init(&o->base, &RANK_OPS, ctx, 1, o->out_ncols, o->otypes, spec->out.names);
    o->nkeys = spec->nkeys;
    o->keys = wmalloc(sizeof *o->keys * (size_t)(o->nkeys ? o->nkeys : 1));
    o->ktypes = wmalloc(sizeof *o->ktypes * (size_t)(o->nkeys ? o->nkeys : 1));
    bool bad = !wop_cols_in_range(spec->keys, spec->nkeys, o->ncols) ||
               (spec->nuk > 0 && !wop_cols_in_range(spec->uk, spec->nuk, o->ncols)) ||
               spec->nsort < 0 || (spec->nsort > 0 && !spec->sort);
    for (int k = 0; !bad && k < spec->nsort; k++)
        if (spec->sort[k].col < 0 || spec->sort[k].col >= o->ncols) bad = true;
    if (bad) {
        o->nkeys = 0;
        o->nsort = 0;
    }
    for (int k = 0; k < o->nkeys; k++) {
        o->keys[k] = spec->keys[k];
        o->ktypes[k] = o->types[spec->keys[k]];
    }
    if (!bad) o->nsort = spec->nsort;
    size_t ns = (size_t)(o->nsort ? o->nsort : 1);
    o->sort = wmalloc(sizeof *o->sort * ns);
    o->scols = wmalloc(sizeof *o->scols * ns);
    o->stypes = wmalloc(sizeof *o->stypes * ns);
    for (int k = 0; k < o->nsort; k++) {
        o->sort[k] = spec->sort[k];
        o->scols[k] = spec->sort[k].col;
        o->stypes[k] = o->types[spec->sort[k].col];
    }
    o->nuk = spec->nuk > 0 && spec->uk && !bad ? spec->nuk : 0;
    o->uk = wmalloc(sizeof *o->uk * (size_t)(o->nuk ? o->nuk : 1));
    if (o->nuk) memcpy(o->uk, spec->uk, sizeof *o->uk * (size_t)o->nuk);
    o->rank_start = spec->rank_start;
    o->rank_end = spec->rank_end;
    o->gen_ub = spec->generate_update_before;
    o->with_number = o->out_rank || o->rank_start > 1;
    o->vals = wcalloc(nc, sizeof *o->vals);
    o->nulls = wcalloc(nc, 1);
    o->in_sk = wcalloc(ns, sizeof *o->in_sk);
    o->in_sk_null = wcalloc(ns, 1);
    o->tmp_sk = wcalloc(ns, sizeof *o->tmp_sk);
    o->tmp_sk_null = wcalloc(ns, 1);
    WStrBuf *bufs[] = {&o->kbuf, &o->rbuf, &o->skbuf, &o->nbuf, &o->cur, &o->prev, &o->idx, &o->lbuf};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) wsb_init(bufs[i]);
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    o->out = wchunk_new(o->out_ncols, o->otypes, cap);
    o->be = wexec_new_backend(ctx, "Rank");

    bool top1 = spec->rank_start == 1 && spec->rank_end == 1;
    bool proctime_asc = !bad && spec->nsort == 1 && !spec->sort[0].desc &&
                        o->stypes[0]->time_attr == WTA_PROCTIME;
    if (bad) {
        o->mode = RM_UNSUPPORTED;
        werr_set(ctx->err, WEXC_TABLE, "Rank: partition, sort or unique key column index out of range");
    } else if (spec->func == WRANK_RANK) {
        o->mode = RM_UNSUPPORTED;
        werr_set(ctx->err, WEXC_UNSUPPORTED, "RANK() on streaming table is not supported currently");
    } else if (spec->func == WRANK_DENSE_RANK) {
        o->mode = RM_UNSUPPORTED;
        werr_set(ctx->err, WEXC_UNSUPPORTED, "DENSE_RANK() on streaming table is not supported currently");
    } else if (spec->rank_end < 1 || spec->rank_start < 1 || spec->rank_start > spec->rank_end) {
        o->mode = RM_UNSUPPORTED;
        werr_set(ctx->err, WEXC_UNSUPPORTED,
                 "Rank end is not specified. Currently rank only support TopN, which means the rank end must be specified.");
    } else if (spec->strategy == WRANK_APPEND_FAST) {
        o->mode = proctime_asc ? RM_FIRSTN : top1 ? RM_TOP1 : RM_APPEND;
    } else if (spec->strategy == WRANK_UPDATE_FAST) {
        if (top1) {
            o->mode = RM_TOP1;
        } else if (o->nuk == 0) {
            o->mode = RM_UNSUPPORTED;
            werr_set(ctx->err, WEXC_TABLE, "UpdateFast rank strategy requires the input's unique key");
        } else {
            o->mode = RM_UPDATE;
        }
    } else {
        o->mode = RM_RETRACT;
    }
    o->st = wstate_register(o->be, "rankState", o->mode == RM_RETRACT ? WSTATE_MAP : WSTATE_VALUE,
                            spec->ttl_ms);
    return &o->base;
}
