/*
 * join.c — the regular (unbounded) streaming join: Flink's StreamingJoinOperator (INNER, LEFT,
 * RIGHT, FULL) and StreamingSemiAntiJoinOperator (SEMI, ANTI), record for record.
 *
 * Each input row sets the join key (binary row of the key columns) as the current state key,
 * is stored in / retracted from its side's record view (join_state.h: leftState / rightState)
 * and is matched against the other side's records of that key: a key with a NULL in a
 * '='-compared column matches nothing (Flink's JoinConditionWithNullFilters), otherwise the
 * residual condition decides, evaluated over a chunk of joined (left ++ right) candidate rows.
 * Output row kinds are Flink's: an inner join forwards the input kind (+I/+U/-U/-D); outer joins
 * emit +I/-D, retract a NULL-padded row when its first match arrives and re-pad it when its last
 * match goes, tracking the number of associations per record of an outer side. SEMI/ANTI emit
 * left rows only. Under mini-batch (WMB_JOIN, minibatch.h) rows go to one bundle per input
 * (minibatch_join.h) and a batch is processed right input first (left first for RIGHT JOIN),
 * rows in the bundle's order, with Flink's isSuppress for folded -U/+U pairs.
 * Per chunk, every row's join key is encoded and hashed first (fixed-width keys and rows are
 * written slot by slot, wrow_encode_chunk_inline), so that both sides' state lookups of the row a
 * few rows ahead are prefetched (state/prefetch.h); a record's count is read and written with one
 * lookup (join_state.c, wmap_ref).
 * Insight: the candidates each row scans are its key's work (slow keys); a row with more
 * candidates than a chunk is timed against weir.insight.slow-threshold.
 * Calls exec/operator, exec/join_state, exec/minibatch_join, state/, expr/, types/.
 */
#include "stateful.h"
#include "join_state.h"
#include "minibatch_join.h"
#include "insight.h"
#include "../types/row.h"
#include "../state/prefetch.h"
#include "../common/proc_clock.h"
#include "../common/hash.h"
#include "../common/check.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Scratch memory (copied state rows, decoded composites) is recycled past this size. */
#define SCRATCH_LIMIT ((size_t)4 << 20)

typedef struct JoinSide {
    int ncols;
    const WType **types;
    const int *keys;
    int nuk;
    int *uk;
    const WType **uk_types;
    int *all;               /* 0..ncols-1 */
    uint8_t *drop;          /* per column, 1: no one reads it, records store NULL (NULL: keep all) */
    bool outer;             /* records keep association counts */
    bool pad;               /* this side is null-padded when unmatched (outer join side) */
    bool retracts;
    bool row_fixed, uk_fixed;   /* rows / unique keys of fixed-width types (wrow_types_inline) */
    WJoinView view;
} JoinSide;

/* Whether reading a chunk's records ahead pays, measured per input (encode_records_ahead). */
enum { TUNE_SAMPLE = 8, TUNE_RUN = 256 };

typedef struct AheadTune {
    bool settled;               /* keeping `on` (else alternating: zero, at the start) */
    bool on;                    /* the faster way measured last */
    int n;                      /* chunks of the current phase */
    int64_t ns[2], rows[2];     /* exploring: CPU time and rows without (0) and with (1) */
} AheadTune;

typedef struct JoinOp {
    WOperator base;
    WJoinKind kind;
    bool semi_anti, anti;
    int nkeys;
    const WType **key_types;    /* left key column types, used for both sides' key rows */
    bool key_fixed;             /* of fixed-width types (wrow_types_inline) */
    bool *filter_null;          /* per key */
    bool any_filter;
    WExpr *residual;
    JoinSide side[2];
    int L, R;                   /* column counts */
    WStateBackend *be;
    WChunk *joined;             /* candidate rows: left ++ right */
    uint8_t *sel;
    WChunk *out;
    /* joined rows emitted but not yet copied into out (emit_joined): copied a column at a time
       (flush_joined) before out takes any other row, before out goes downstream and before the
       joined chunk is refilled */
    int *pend_row;
    uint8_t *pend_kind;
    int npend;
    bool pend_gap;              /* some pending row is not its predecessor + 1 (a row skipped by
                                   the condition, a record of count 2 emitted twice) */
    WArena *scratch;
    WArena *eval_arena;
    WStrBuf keybuf, rowbuf, ukbuf;
    WStrBuf kbytes;             /* the join keys of the chunk processed (encode_keys) */
    struct RowKey *rkeys;
    int rkcap;
    /* the record of the row processed (encode_record): in rowbuf, or read ahead in rbytes */
    const void *row;
    size_t rowlen;
    bool row_hashed;            /* row_hash is its wmap_key_hash */
    uint64_t row_hash;
    /* records read ahead (encode_records_ahead): the input chunk's records, their hashes and
       where each one's key map was found, for the map lookups' read-ahead */
    const WChunk *ahead;        /* the chunk they belong to, NULL: none */
    const WChunk *recs_of;      /* the chunk whose records recs holds (encode_records: read
                                   ahead, or a chunk of fixed-width rows), NULL: none */
    AheadTune tune[2];          /* per input: whether reading ahead pays, measured */
    WStrBuf rbytes;
    struct RecAhead *recs;
    WMapWhere *where;
    int reccap;
    WDatum *vals;
    uint8_t *nulls;
    int64_t ttl_expired;
    WJoinEntry *cands;          /* candidates of the rows of a batch */
    int ccap;
    struct SegRow *seg;         /* rows of a batch */
    int segcap;
    WJoinBundle *bundle[2];     /* mini-batch: the rows of each input in the current batch */
    const uint8_t *suppress;    /* mini-batch: Flink's isSuppress per row of the chunk processed */
} JoinOp;

/* ---------------- encoding ---------------- */

/* The binary row of columns cols (of the given types) of chunk row `row`; fixed: the types are
   fixed-width ones (wrow_types_inline), written slot by slot (wrow_encode_chunk_inline). */
static void append_cols(JoinOp *j, WStrBuf *out, const WChunk *c, int row, int n, const int *cols,
                        const WType **types, bool fixed, const uint8_t *drop)
{
    if (fixed) {
        wsb_reserve(out, wrow_fixed_size(n));
        out->len += wrow_encode_chunk_inline((unsigned char *)out->buf + out->len, c, row, n, cols, types);
        out->buf[out->len] = 0;
        return;
    }
    for (int k = 0; k < n; k++) {
        const WVector *v = &c->cols[cols[k]];
        j->nulls[k] = (v->nulls ? v->nulls[row] : 0) | (drop ? drop[k] : 0);
        j->vals[k] = j->nulls[k] ? (WDatum){0} : v->data[row];
    }
    wrow_encode_append(out, n, types, j->vals, j->nulls, WRK_INSERT);
}

/* Every row of c's columns cols (fixed-width types, `fixed` = wrow_fixed_size(n) bytes a row) into
   out, row r at r * fixed, a column at a time (wrow_encode_rows_inline). */
static void encode_fixed_rows(WStrBuf *out, size_t fixed, const WChunk *c, int n, const int *cols,
                              const WType **types)
{
    wsb_clear(out);
    if (c->nrows == 0) return;
    wsb_reserve(out, fixed * (size_t)c->nrows);
    assert((uintptr_t)out->buf % 8 == 0 && fixed % 8 == 0);
    wrow_encode_rows_inline((uint64_t *)(void *)out->buf, fixed / 8, c, n, cols, types);
    out->len = fixed * (size_t)c->nrows;
    out->buf[out->len] = 0;
}

static void encode_cols(JoinOp *j, WStrBuf *out, const WChunk *c, int row, int n, const int *cols,
                        const WType **types, bool fixed, const uint8_t *drop)
{
    wsb_clear(out);
    append_cols(j, out, c, row, n, cols, types, fixed, drop);
}

/* ---------------- output ---------------- */

static void emit_out(JoinOp *j)
{
    if (j->out->nrows > 0) {
        wop_emit(&j->base, j->out);
        j->out->nrows = 0;
    }
}

/* The pending joined rows (emit_joined) into out, in order, a column at a time: a run of
   consecutive joined rows is one memcpy per column. */
static void flush_joined(JoinOp *j)
{
    WChunk *out = j->out, *jc = j->joined;
    int n = j->L + j->R, done = 0;
    while (done < j->npend) {
        if (out->nrows >= out->cap) emit_out(j);
        int m = j->npend - done;
        if (m > out->cap - out->nrows) m = out->cap - out->nrows;
        const int *rows = j->pend_row + done;
        int o0 = out->nrows;
        memcpy(out->kinds + o0, j->pend_kind + done, (size_t)m);
        bool consecutive = !j->pend_gap;
        for (int k = 0; k < n; k++) {
            const WVector *src = &jc->cols[k];
            WVector *dst = &out->cols[k];
            if (consecutive) {
                memcpy(dst->data + o0, src->data + rows[0], sizeof(WDatum) * (size_t)m);
                memcpy(dst->nulls + o0, src->nulls + rows[0], (size_t)m);
            } else {
                for (int i = 0; i < m; i++) {
                    dst->data[o0 + i] = src->data[rows[i]];
                    dst->nulls[o0 + i] = src->nulls[rows[i]];
                }
            }
        }
        out->nrows += m;
        done += m;
    }
    j->npend = 0;
    j->pend_gap = false;
}

static void flush_out(JoinOp *j)
{
    flush_joined(j);
    emit_out(j);
}

static int out_row(JoinOp *j, WRowKind kind)
{
    flush_joined(j);
    if (j->out->nrows >= j->out->cap) emit_out(j);
    return wchunk_add_row(j->out, kind);
}

/* Joined candidate row jr of the joined chunk, all columns: pending until flush_joined. */
static void emit_joined(JoinOp *j, WRowKind kind, int jr)
{
    assert(jr >= 0 && jr < j->joined->nrows);
    if (j->npend == WCHUNK_CAP) flush_joined(j);
    if (j->npend > 0 && jr != j->pend_row[j->npend - 1] + 1) j->pend_gap = true;
    j->pend_row[j->npend] = jr;
    j->pend_kind[j->npend++] = (uint8_t)kind;
}

/* Input row padded with NULLs on the other side (or, for SEMI/ANTI, the left row alone). */
static void emit_input(JoinOp *j, int in, WRowKind kind, const WChunk *c, int r)
{
    int o = out_row(j, kind);
    int off = in == 0 ? 0 : j->L;
    int n = j->side[in].ncols;
    for (int k = 0; k < n; k++) {
        j->out->cols[off + k].data[o] = c->cols[k].data[r];
        j->out->cols[off + k].nulls[o] = c->cols[k].nulls[r];
    }
    if (j->semi_anti) return;
    int ooff = in == 0 ? j->L : 0, on = j->side[1 - in].ncols;
    for (int k = 0; k < on; k++) {
        j->out->cols[ooff + k].nulls[o] = 1;
        j->out->cols[ooff + k].data[o] = (WDatum){0};
    }
}

/* The other side's record of candidate row jr, padded with NULLs on the input side (SEMI/ANTI:
   the left record alone). */
static void emit_other(JoinOp *j, int in, WRowKind kind, int jr)
{
    int o = out_row(j, kind);
    int ot = 1 - in;
    int off = ot == 0 ? 0 : j->L, n = j->side[ot].ncols;
    for (int k = 0; k < n; k++) {
        j->out->cols[off + k].data[o] = j->joined->cols[off + k].data[jr];
        j->out->cols[off + k].nulls[o] = j->joined->cols[off + k].nulls[jr];
    }
    if (j->semi_anti) return;
    int ioff = in == 0 ? 0 : j->L, in_n = j->side[in].ncols;
    for (int k = 0; k < in_n; k++) {
        j->out->cols[ioff + k].nulls[o] = 1;
        j->out->cols[ioff + k].data[o] = (WDatum){0};
    }
}

/* ---------------- candidates ---------------- */

/* Decode candidates ents[0..n) of the other side into new joined rows (from jc->nrows on),
   each next to input row r. decode=false only reserves the rows. */
static void fill_joined(JoinOp *j, int in, const WChunk *c, int r, const WJoinEntry *ents, int n,
                        bool decode)
{
    WChunk *jc = j->joined;
    int ot = 1 - in;
    JoinSide *os = &j->side[ot], *is = &j->side[in];
    int ooff = ot == 0 ? 0 : j->L, ioff = in == 0 ? 0 : j->L;
    int j0 = jc->nrows;
    assert(n >= 0 && j0 + n <= jc->cap);
    if (n == 0) return;
    /* the joined chunk is refilled only once its pending rows went to out (flush_joined) */
    assert(j->npend == 0 || j->pend_row[j->npend - 1] < j0);
    jc->nrows += n;
    /* byte loops, not memset: most rows have one candidate */
    for (int i = j0; i < j0 + n; i++) {
        jc->kinds[i] = WRK_INSERT;
        j->sel[i] = 1;
    }
    if (!decode) {
        for (int k = 0; k < jc->ncols; k++)
            for (int i = j0; i < j0 + n; i++) jc->cols[k].nulls[i] = 0;
        return;
    }
    for (int i = 0; i < n; i++)
        wrow_decode_chunk(ents[i].row, ents[i].rowlen, os->ncols, os->types, jc, j0 + i, ooff, j->scratch, false);
    for (int k = 0; k < is->ncols; k++) {
        WVector *v = &jc->cols[ioff + k];
        WDatum d = c->cols[k].data[r];
        uint8_t isnull = c->cols[k].nulls[r];
        for (int i = j0; i < j0 + n; i++) {
            v->data[i] = d;
            v->nulls[i] = isnull;
        }
    }
}

/* Evaluate the residual over every joined row (sel[i] &= condition). */
static bool eval_residual(JoinOp *j)
{
    if (!j->residual || j->joined->nrows == 0) return true;
    warena_reset(j->eval_arena);
    WEvalCtx ec = {.arena = j->eval_arena, .cast = j->base.ctx->cast,
                   .now_ms = j->base.ctx->start_ms, .clock = j->base.ctx->clock, .clock_ctx = j->base.ctx->clock_ctx, .err = j->base.ctx->err};
    return wexpr_filter(&ec, j->residual, j->joined, j->sel) && !j->base.ctx->err->set;
}

/* ---------------- one input row: begin, matches (in one or more parts), end ----------------
   Candidate i of a matches() call is joined row jbase + i (sel[jbase + i] tells whether the
   residual held). `fresh` re-reads the association counts from state, because an earlier row
   of the same batch may have changed them since they were collected. */

typedef struct RowCtx {
    int in;
    const WChunk *c;
    int r;
    WRowKind kind;
    bool acc;
    bool additional;
    bool fresh;
    bool sup;                   /* mini-batch: a -U/+U pair of one unique key (Flink's isSuppress):
                                   the retraction leaves state alone, no NULL-padded row of the
                                   other side is retracted or re-emitted */
    int matches;
} RowCtx;

static int32_t cur_assoc(JoinOp *j, RowCtx *x, JoinSide *os, const WJoinEntry *e)
{
    return x->fresh ? wjview_assoc(&os->view, e) : e->assoc;
}

/* Add / retract the current record (encode_record) to / from the input side's view. */
static void add_record(JoinOp *j, JoinSide *is, int32_t assoc)
{
    if (j->row_hashed) wjview_add_hashed(&is->view, j->row, j->rowlen, j->row_hash, j->ukbuf.buf, j->ukbuf.len, assoc);
    else wjview_add(&is->view, j->row, j->rowlen, j->ukbuf.buf, j->ukbuf.len, assoc);
}

static void retract_record(JoinOp *j, JoinSide *is)
{
    if (j->row_hashed) wjview_retract_hashed(&is->view, j->row, j->rowlen, j->row_hash, j->ukbuf.buf, j->ukbuf.len);
    else wjview_retract(&is->view, j->row, j->rowlen, j->ukbuf.buf, j->ukbuf.len);
}

static inline void row_begin(JoinOp *j, RowCtx *x)
{
    JoinSide *is = &j->side[x->in], *os = &j->side[1 - x->in];
    const void *uk = j->ukbuf.buf;
    size_t uklen = j->ukbuf.len;
    x->kind = (WRowKind)x->c->kinds[x->r];
    x->acc = !wrowkind_is_retract(x->kind);
    x->matches = 0;
    x->additional = false;
    if (j->semi_anti) {
        if (x->in == 1) {
            if (x->acc) add_record(j, is, -1);
            else retract_record(j, is);
        }
        return;
    }
    if (x->acc) {
        /* Flink's isAdditionalMatch: does this record add a match for other-side records? */
        x->additional = os->pad && is->view.kind != WJV_JOINKEY_CONTAINS_UK &&
                        !(is->view.kind == WJV_HAS_UK && wjview_has_uk(&is->view, uk, uklen));
        if (!is->pad) add_record(j, is, -1);
    } else if (!x->sup) {
        retract_record(j, is);
    }
}

static inline void row_matches(JoinOp *j, RowCtx *x, const WJoinEntry *ents, int n, int jbase)
{
    int in = x->in;
    JoinSide *is = &j->side[in], *os = &j->side[1 - in];
    const uint8_t *sel = j->sel + jbase;
    if (j->semi_anti && in == 0) {
        for (int i = 0; i < n; i++)
            if (!j->residual || sel[i]) x->matches += ents[i].count;
        return;
    }
    for (int i = 0; i < n; i++) {
        if (!sel[i]) continue;
        const WJoinEntry *e = &ents[i];
        int jr = jbase + i;
        int32_t assoc = (os->outer) ? cur_assoc(j, x, os, e) : e->assoc;
        for (int t = 0; t < e->count; t++) {
            if (j->semi_anti) {
                if (x->acc) {
                    if (assoc == 0) emit_other(j, 1, j->anti ? WRK_DELETE : x->kind, jr);
                    wjview_update_assoc(&os->view, e, assoc + 1);
                } else {
                    if (assoc == 1) emit_other(j, 1, j->anti ? WRK_INSERT : x->kind, jr);
                    wjview_update_assoc(&os->view, e, assoc - 1);
                }
            } else if (x->acc) {
                if (os->pad) {
                    if (assoc == 0 && !x->sup) emit_other(j, in, WRK_DELETE, jr);
                    if (assoc == 0 || x->additional) wjview_update_assoc(&os->view, e, assoc + 1);
                    emit_joined(j, WRK_INSERT, jr);
                } else {
                    emit_joined(j, is->pad ? WRK_INSERT : x->kind, jr);
                }
            } else {
                emit_joined(j, is->pad ? WRK_DELETE : x->kind, jr);
                if (os->pad) {
                    if (assoc == 1 && !x->sup) emit_other(j, in, WRK_INSERT, jr);
                    wjview_update_assoc(&os->view, e, assoc - 1);
                }
            }
            x->matches++;
        }
    }
}

static inline void row_end(JoinOp *j, RowCtx *x)
{
    JoinSide *is = &j->side[x->in];
    if (j->semi_anti) {
        if (x->in == 1) return;
        if ((x->matches == 0) == j->anti) emit_input(j, 0, x->kind, x->c, x->r);
        if (x->acc) add_record(j, is, x->matches);
        else retract_record(j, is);
        return;
    }
    if (!is->pad) return;
    if (x->acc) {
        if (x->matches == 0) emit_input(j, x->in, WRK_INSERT, x->c, x->r);
        add_record(j, is, x->matches);
    } else if (x->matches == 0) {
        emit_input(j, x->in, WRK_DELETE, x->c, x->r);
    }
}

/* ---------------- process ---------------- */

/* A row's join key: its bytes in kbytes, their state hash (wstate_key_hash); null_key: a
   '='-compared key column is NULL (the row then matches nothing, but is still stored, as in
   Flink). */
typedef struct RowKey {
    size_t off, len;
    uint64_t hash;
    bool null_key;
} RowKey;

/* Each lookup's table slot and entry are prefetched PF_SLOT and PF_ENTRY rows ahead. With the
   records read ahead (encode_records_ahead), the keys' slots and entries further ahead, and the
   input side's record lookup in its key's map in three stages after them (prefetch.h). */
enum { PF_ENTRY = 4, PF_SLOT = 8 };
enum { PFA_SLOT = 8, PFA_ENTRY = 6, PFA_MAP_TABLE = 4, PFA_MAP_SLOT = 2, PFA_MAP_ENTRY = 1 };

typedef struct RecAhead {
    size_t off, len;
    uint64_t hash;              /* wmap_key_hash */
} RecAhead;

/* The join keys of every row of c (from input side is) encoded and hashed before the rows are
   processed, so that the state lookups of later rows can be prefetched (both sides' states are
   looked up under the same key); the first rows' slots are prefetched here. */
static void encode_keys(JoinOp *j, const JoinSide *is, const JoinSide *os, const WChunk *c)
{
    if (c->nrows > j->rkcap) {
        j->rkcap = c->nrows;
        j->rkeys = wrealloc(j->rkeys, sizeof(RowKey) * (size_t)j->rkcap);
    }
    size_t fixed = j->key_fixed ? wrow_fixed_size(j->nkeys) : 0;
    if (fixed) encode_fixed_rows(&j->kbytes, fixed, c, j->nkeys, is->keys, j->key_types);   /* hashed by words */
    else wsb_clear(&j->kbytes);
    for (int r = 0; r < c->nrows; r++) {
        RowKey *k = &j->rkeys[r];
        k->null_key = false;
        for (int q = 0; q < j->nkeys && j->any_filter; q++)
            if (j->filter_null[q] && c->cols[is->keys[q]].nulls[r]) { k->null_key = true; break; }
        if (fixed) {
            k->off = fixed * (size_t)r;
            k->len = fixed;
            k->hash = wstate_key_hash_words((const uint64_t *)(const void *)(j->kbytes.buf + k->off), fixed / 8);
            WASSERT_COSTLY(k->hash == wstate_key_hash(j->kbytes.buf + k->off, k->len));
            continue;
        }
        encode_cols(j, &j->keybuf, c, r, j->nkeys, is->keys, j->key_types, j->key_fixed, NULL);
        k->off = j->kbytes.len;
        k->len = j->keybuf.len;
        k->hash = wstate_key_hash(j->keybuf.buf, j->keybuf.len);
        wsb_appendn(&j->kbytes, j->keybuf.buf, j->keybuf.len);
    }
    for (int r = 0; r < c->nrows && r < PF_SLOT; r++) {
        wstate_prefetch_slot(os->view.st, j->rkeys[r].hash);
        wstate_prefetch_slot(is->view.st, j->rkeys[r].hash);
    }
}

/* One stage of the read-ahead of row r's record lookup in its key's map (records read ahead). */
static void map_prefetch(JoinOp *j, const JoinSide *is, int r, WMapPrefetch stage)
{
    const RowKey *k = &j->rkeys[r];
    wmap_prefetch(is->view.st, j->kbytes.buf + k->off, k->len, k->hash, &j->where[r], j->recs[r].hash, stage);
}

/* Row r's join key (encode_keys) becomes the state key; the lookups of rows ahead are
   prefetched. True if the key has a NULL in a '='-compared column. */
static bool set_row_key(JoinOp *j, const JoinSide *is, const JoinSide *os, const WChunk *c, int r)
{
    int nrows = c->nrows;
    if (j->ahead) {
        if (r + PFA_SLOT < nrows) {
            wstate_prefetch_slot(os->view.st, j->rkeys[r + PFA_SLOT].hash);
            wstate_prefetch_slot(is->view.st, j->rkeys[r + PFA_SLOT].hash);
        }
        if (r + PFA_ENTRY < nrows) {
            wstate_prefetch_entry(os->view.st, j->rkeys[r + PFA_ENTRY].hash);
            wstate_prefetch_entry(is->view.st, j->rkeys[r + PFA_ENTRY].hash);
        }
        if (r + PFA_MAP_TABLE < nrows) map_prefetch(j, is, r + PFA_MAP_TABLE, WMAP_PREFETCH_TABLE);
        if (r + PFA_MAP_SLOT < nrows) map_prefetch(j, is, r + PFA_MAP_SLOT, WMAP_PREFETCH_SLOT);
        if (r + PFA_MAP_ENTRY < nrows) map_prefetch(j, is, r + PFA_MAP_ENTRY, WMAP_PREFETCH_ENTRY);
    } else {
        if (!is->row_fixed) wchunk_prefetch_strings(c, r + PF_ENTRY);   /* the record's copy */
        if (r + PF_SLOT < nrows) {
            wstate_prefetch_slot(os->view.st, j->rkeys[r + PF_SLOT].hash);
            wstate_prefetch_slot(is->view.st, j->rkeys[r + PF_SLOT].hash);
        }
        if (r + PF_ENTRY < nrows) {
            wstate_prefetch_entry(os->view.st, j->rkeys[r + PF_ENTRY].hash);
            wstate_prefetch_entry(is->view.st, j->rkeys[r + PF_ENTRY].hash);
        }
    }
    const RowKey *k = &j->rkeys[r];
    wstate_set_key_hashed(j->be, j->kbytes.buf + k->off, k->len, k->hash);
    return k->null_key;
}

/* Smallest chunk whose records are read ahead. */
#define AHEAD_MIN_ROWS 32

/* A record state of rows without a unique key (one map entry per distinct row under its join
   key) that has outgrown the caches, whose rows go to keys of many rows (wjview_reads_ahead:
   Nexmark q7's bids by price, thousands at the low prices), misses up to three times more per
   row, in the key's map: the chunk's records are then encoded and hashed before its rows are
   processed, so that those lookups are read ahead too (set_row_key).
   Whether the read-ahead pays is measured, not guessed: where the keys of many rows stay in the
   caches (Nexmark q9 and q20: the bids of the auctions hot at the moment) its stages are pure cost
   (5-10 % more CPU), where they do not (q7: bids by price, the low prices' thousands of rows
   visited all along) it saves 15-20 %, and the state's figures (sizes, rows per lookup) are alike
   in both. So an eligible input alternates chunks without and with it for TUNE_SAMPLE chunks each,
   compares their CPU time per row (the lane thread's: wproc_thread_cpu_ns), keeps the faster for
   TUNE_RUN chunks and measures again. Both ways give the same state and output. */
static bool tune_choose(const AheadTune *t) { return t->settled ? t->on : (t->n & 1) != 0; }

static void tune_record(AheadTune *t, bool on, int64_t ns, int rows)
{
    if (t->settled) {
        if (++t->n >= TUNE_RUN) *t = (AheadTune){.on = t->on};
        return;
    }
    t->ns[on] += ns;
    t->rows[on] += rows;
    if (++t->n < 2 * TUNE_SAMPLE) return;
    /* ns per row with <= without, cross-multiplied */
    t->on = (double)t->ns[1] * (double)t->rows[0] <= (double)t->ns[0] * (double)t->rows[1];
    *t = (AheadTune){.settled = true, .on = t->on};
}

/* The records of every row of c into recs and rbytes, with their hashes (recs_of = c). */
static void encode_records(JoinOp *j, const JoinSide *is, const WChunk *c)
{
    if (c->nrows > j->reccap) {
        j->reccap = c->nrows;
        j->recs = wrealloc(j->recs, sizeof(RecAhead) * (size_t)j->reccap);
        j->where = wrealloc(j->where, sizeof(WMapWhere) * (size_t)j->reccap);
    }
    j->recs_of = c;
    size_t fixed = is->row_fixed ? wrow_fixed_size(is->ncols) : 0;
    if (fixed) {                    /* fixed-width rows (no column dropped) */
        assert(!is->drop);
        encode_fixed_rows(&j->rbytes, fixed, c, is->ncols, is->all, is->types);
        for (int r = 0; r < c->nrows; r++) {
            const uint64_t *w = (const uint64_t *)(const void *)(j->rbytes.buf + fixed * (size_t)r);
            j->recs[r] = (RecAhead){fixed * (size_t)r, fixed, wmap_key_hash_words(w, fixed / 8)};
            WASSERT_COSTLY(j->recs[r].hash == wmap_key_hash(w, fixed));
        }
        return;
    }
    wsb_clear(&j->rbytes);
    for (int r = 0; r < c->nrows; r++) {
        wchunk_prefetch_strings(c, r + PF_ENTRY);
        size_t off = j->rbytes.len;
        append_cols(j, &j->rbytes, c, r, is->ncols, is->all, is->types, is->row_fixed, is->drop);
        size_t len = j->rbytes.len - off;
        j->recs[r] = (RecAhead){off, len, wmap_key_hash(j->rbytes.buf + off, len)};
    }
}

/* Records read ahead: encode_records, and where each one's key map is found, for the map
   lookups' read-ahead (ahead = c). */
static void encode_records_ahead(JoinOp *j, const JoinSide *is, const WChunk *c)
{
    encode_records(j, is, c);
    memset(j->where, 0, sizeof(WMapWhere) * (size_t)c->nrows);
    j->ahead = c;
}

static void encode_record(JoinOp *j, const JoinSide *is, const WChunk *c, int r)
{
    if (j->recs_of == c) {
        const RecAhead *a = &j->recs[r];
        j->row = j->rbytes.buf + a->off;
        j->rowlen = a->len;
        j->row_hash = a->hash;
        j->row_hashed = true;
    } else {
        encode_cols(j, &j->rowbuf, c, r, is->ncols, is->all, is->types, is->row_fixed, is->drop);
        j->row = j->rowbuf.buf;
        j->rowlen = j->rowbuf.len;
        j->row_hashed = false;
    }
    if (is->view.kind == WJV_HAS_UK) encode_cols(j, &j->ukbuf, c, r, is->nuk, is->uk, is->uk_types, is->uk_fixed, NULL);
    else wsb_clear(&j->ukbuf);
}

static int64_t expired_sum(const JoinOp *j) { return j->side[0].view.expired + j->side[1].view.expired; }

/* A row with more candidates than the joined chunk holds: matched window by window. */
static void big_row(JoinOp *j, int in, const WChunk *c, int r, const WJoinEntry *ents, int n,
                    bool decode)
{
    RowCtx x = {.in = in, .c = c, .r = r, .sup = j->suppress && j->suppress[r]};
    encode_record(j, &j->side[in], c, r);
    row_begin(j, &x);
    int cap = j->joined->cap;
    for (int from = 0; from < n; from += cap) {
        int m = n - from < cap ? n - from : cap;
        flush_joined(j);
        j->joined->nrows = 0;
        fill_joined(j, in, c, r, ents + from, m, decode);
        if (!eval_residual(j)) return;
        row_matches(j, &x, ents + from, m, 0);
    }
    row_end(j, &x);
}

typedef struct SegRow {
    RowCtx x;
    bool expired;
    const void *key;            /* batch: the join key (in kbytes) */
    size_t keylen;
    const WJoinEntry *ents;     /* not batched: the view's collected entries */
    int cfrom, cn, jbase;
} SegRow;

/*
 * Rows are processed in runs. Phase 1, per row in order: set the key, collect the other side's
 * candidates into the joined chunk and, for a side that is not outer, apply the row's own state
 * change (row_begin). Then the residual is evaluated once for the run, and phase 2 applies, in
 * row order, the rest (for an outer side all of its own changes, which depend on the matches).
 * This equals processing row by row: the other side's records do not change while rows of this
 * side are processed (only their association counts do, which phase 2 re-reads), and the input
 * side's changes keep their order. Without a residual a run is one row.
 */
static void join_process(WOperator *op, int input, const WChunk *in)
{
    JoinOp *j = (JoinOp *)op;
    if (input < 0 || input > 1) return;
    JoinSide *is = &j->side[input], *os = &j->side[1 - input];
    WChunk *jc = j->joined;
    bool batch = j->residual != NULL;
    bool decode = !(j->semi_anti && input == 0 && !j->residual);
    /* phase 2 touches state (and needs the key again) only for association counts and for the
       outer / semi-anti left side's final add */
    bool phase2_state = os->outer || is->outer;
    if (in->nrows > j->segcap) {
        j->segcap = in->nrows;
        j->seg = wrealloc(j->seg, sizeof(SegRow) * (size_t)j->segcap);
    }
    SegRow *seg = j->seg;
    encode_keys(j, is, os, in);
    /* reading ahead: only for an input that may gain (wjview_reads_ahead), as measured (tune) */
    bool tuned = in->nrows >= AHEAD_MIN_ROWS && wjview_reads_ahead(&is->view);
    bool ahead = tuned && tune_choose(&j->tune[input]);
    int64_t t0 = tuned ? wproc_thread_cpu_ns() : 0;
    assert(!j->ahead && !j->recs_of);      /* set for the chunk being processed only */
    if (ahead) encode_records_ahead(j, is, in);
    else if (is->row_fixed) encode_records(j, is, in);     /* a column at a time, before the rows */
    int r = 0;
    /* Without a residual a run is one row, and the joined chunk is refilled only when the next
       row's candidates do not fit: the matched rows of many input rows go out together, a column
       at a time (flush_joined), not one input row's at a time. */
    flush_joined(j);
    jc->nrows = 0;
    while (r < in->nrows && !op->ctx->err->set) {
        if (j->scratch->total > SCRATCH_LIMIT) {
            flush_out(j);
            warena_reset(j->scratch);       /* the joined rows' strings may be in it */
            jc->nrows = 0;
        }
        int nseg = 0, ncand = 0;
        if (batch) {
            flush_joined(j);
            jc->nrows = 0;
        }
        while (r < in->nrows) {
            bool null_key = set_row_key(j, is, os, in, r);
            int64_t exp0 = expired_sum(j);
            WJoinEntry *ents = NULL;
            int n = null_key ? 0 : wjview_collect(&os->view, j->scratch, &ents);
            int need = decode ? n : 0;
            if (!batch && jc->nrows > 0 && need > jc->cap - jc->nrows && need <= jc->cap) {
                flush_joined(j);                /* the candidates fit an empty joined chunk */
                jc->nrows = 0;
            }
            if (need > jc->cap - jc->nrows || (!decode && n > jc->cap)) {
                if (nseg > 0) break;                /* r starts the next run */
                /* a key with more candidates than a chunk: its row is timed (insight's slow keys) */
                int64_t t0 = wop_key_begin(op);
                wop_key_work(op, input, in, r, n);
                big_row(j, input, in, r, ents, n, decode);
                wop_key_slow_end(op, t0, n, in, r);
                if (expired_sum(j) > exp0) j->ttl_expired++;
                r++;
                break;
            }
            SegRow *s = &seg[nseg++];
            s->cn = n;
            s->jbase = jc->nrows;
            if (batch) {
                /* keep the candidates (the next collect reuses the view's array) and the key */
                if (phase2_state) {
                    s->key = j->kbytes.buf + j->rkeys[r].off;
                    s->keylen = j->rkeys[r].len;
                }
                s->cfrom = ncand;
                if (ncand + n > j->ccap) {
                    j->ccap = (ncand + n) * 2;
                    j->cands = wrealloc(j->cands, sizeof(WJoinEntry) * (size_t)j->ccap);
                }
                if (n) memcpy(j->cands + ncand, ents, sizeof(WJoinEntry) * (size_t)n);
                ncand += n;
            } else {
                s->ents = ents;
            }
            if (n && op->insight) wop_key_work(op, input, in, r, n);
            fill_joined(j, input, in, r, ents, n, decode);
            s->x = (RowCtx){.in = input, .c = in, .r = r, .sup = j->suppress && j->suppress[r]};
            if (!is->outer) {
                /* all of this side's own changes happen here, in row order */
                encode_record(j, is, in, r);
                row_begin(j, &s->x);
            }
            s->expired = expired_sum(j) > exp0;
            r++;
            if (!batch) break;
        }
        if (nseg == 0) continue;
        if (!eval_residual(j)) { j->ahead = j->recs_of = NULL; return; }
        for (int i = 0; i < nseg; i++) {
            SegRow *s = &seg[i];
            int64_t exp0 = expired_sum(j);
            /* a later row (even one that did not fit the run) may have set another key */
            if (batch && phase2_state) wstate_set_key_hashed(j->be, s->key, s->keylen, j->rkeys[s->x.r].hash);
            if (is->outer) {
                /* an outer side adds its records with their match counts: begin and end here */
                encode_record(j, is, in, s->x.r);
                row_begin(j, &s->x);
            }
            s->x.fresh = nseg > 1;
            row_matches(j, &s->x, batch ? j->cands + s->cfrom : s->ents, s->cn, s->jbase);
            row_end(j, &s->x);
            if (s->expired || expired_sum(j) > exp0) j->ttl_expired++;
        }
    }
    j->ahead = j->recs_of = NULL;
    flush_out(j);
    warena_reset(j->scratch);
    if (tuned) tune_record(&j->tune[input], ahead, wproc_thread_cpu_ns() - t0, in->nrows);
}

/* ---------------- mini-batch (Flink's MiniBatchStreamingJoinOperator) ---------------- */

static void join_bundle_add(WOperator *op, int input, const WChunk *in, int from, int n)
{
    JoinOp *j = (JoinOp *)op;
    JoinSide *is = &j->side[input];
    if (!j->bundle[input]) j->bundle[input] = wjbundle_new(is->view.kind, is->ncols, is->types);
    for (int r = from; r < from + n; r++) {
        encode_cols(j, &j->keybuf, in, r, j->nkeys, is->keys, j->key_types, j->key_fixed, NULL);
        encode_record(j, is, in, r);
        wjbundle_add(j->bundle[input], in, r, j->keybuf.buf, j->keybuf.len, j->ukbuf.buf, j->ukbuf.len,
                     j->row, j->rowlen);
    }
}

/* The batch ends: the right input's rows are joined first, then the left's (a RIGHT JOIN the
   other way round), each side's rows in its bundle's order. */
static void join_bundle_flush(WOperator *op)
{
    JoinOp *j = (JoinOp *)op;
    int first = j->kind == WJK_RIGHT ? 0 : 1;
    for (int k = 0; k < 2 && !op->ctx->err->set; k++) {
        int side = k == 0 ? first : 1 - first;
        WJoinBundle *b = j->bundle[side];
        if (!b || wjbundle_count(b) == 0) continue;
        const uint8_t *sup;
        const WChunk *c = wjbundle_order(b, &sup);
        if (c->nrows == 0) continue;
        j->suppress = sup;
        join_process(op, side, c);
        j->suppress = NULL;
    }
    for (int side = 0; side < 2; side++)
        if (j->bundle[side]) wjbundle_clear(j->bundle[side]);
}

static void join_metrics(WOperator *op, WOpMetrics *m)
{
    JoinOp *j = (JoinOp *)op;
    wop_metrics_states(m, j->be);
    wop_metrics_value(m, "ttlExpiredRecords", j->ttl_expired);
}

static void side_free(JoinSide *s)
{
    wjview_free(&s->view);
    free(s->uk);
    free(s->uk_types);
    free(s->all);
    free(s->drop);
}

static void join_destroy(WOperator *op)
{
    JoinOp *j = (JoinOp *)op;
    for (int i = 0; i < 2; i++) side_free(&j->side[i]);
    wstate_backend_free(j->be);
    wchunk_free(j->joined);
    wchunk_free(j->out);
    if (j->scratch) warena_delete(j->scratch);
    if (j->eval_arena) warena_delete(j->eval_arena);
    wsb_free(&j->keybuf);
    wsb_free(&j->kbytes);
    free(j->rkeys);
    wsb_free(&j->rowbuf);
    wsb_free(&j->rbytes);
    free(j->recs);
    free(j->where);
    wsb_free(&j->ukbuf);
    free(j->key_types);
    free(j->filter_null);
    free(j->vals);
    free(j->nulls);
    free(j->sel);
    free(j->pend_row);
    free(j->pend_kind);
    free(j->cands);
    free(j->seg);
    wjbundle_free(j->bundle[0]);
    wjbundle_free(j->bundle[1]);
    free(j);
}

static const WOpOps JOIN_OPS = {.process = join_process, .destroy = join_destroy,
                                .metrics = join_metrics, .bundle_add = join_bundle_add,
                                .bundle_flush = join_bundle_flush};

static bool side_init(JoinOp *j, JoinSide *s, int ncols, const WType **types, const int *keys,
                      int nkeys, int nuk, const int *uk, bool outer, bool pad, bool retracts,
                      const char *state_name, int64_t ttl)
{
    s->ncols = ncols;
    s->types = types;
    s->keys = keys;
    s->outer = outer;
    s->pad = pad;
    s->retracts = retracts;
    s->row_fixed = wrow_types_inline(ncols, types);
    s->all = wmalloc(sizeof(int) * (size_t)(ncols > 0 ? ncols : 1));
    for (int i = 0; i < ncols; i++) s->all[i] = i;
    for (int k = 0; k < nkeys; k++)
        if (keys[k] < 0 || keys[k] >= ncols) return false;
    WJoinViewKind vk = WJV_NO_UK;
    if (nuk > 0 && uk) {
        s->nuk = nuk;
        s->uk = wmalloc(sizeof(int) * (size_t)nuk);
        s->uk_types = wmalloc(sizeof(WType *) * (size_t)nuk);
        bool contained = true;
        for (int i = 0; i < nuk; i++) {
            if (uk[i] < 0 || uk[i] >= ncols) return false;
            s->uk[i] = uk[i];
            s->uk_types[i] = types[uk[i]];
            bool in_key = false;
            for (int k = 0; k < nkeys; k++) in_key |= keys[k] == uk[i];
            contained &= in_key;
        }
        vk = contained ? WJV_JOINKEY_CONTAINS_UK : WJV_HAS_UK;
        s->uk_fixed = wrow_types_inline(nuk, s->uk_types);
    }
    (void)j;
    wjview_init(&s->view, j->be, state_name, vk, outer, ttl);
    return true;
}

/* The columns each side's records keep (spec->out_reads): those a consumer reads, the keys, the
   unique key and the residual's; the others are stored NULL. A record of variable-width columns is
   then smaller (a join whose output is projected keeps what the projection reads, not whole rows),
   and rows that differ only in dropped columns share one record with their count summed, which
   joins as the separate rows did. Rows of fixed-width columns keep every slot (no saving). */
static void plan_record_columns(JoinOp *j, const WJoinSpec *spec)
{
    if (!spec->out_reads) return;
    int n = j->L + j->R;
    uint8_t *needed = wcalloc((size_t)n, 1);
    wexpr_mark_columns(spec->residual, needed, n);
    for (int side = 0; side < 2; side++) {
        JoinSide *s = &j->side[side];
        int base = side ? j->L : 0;
        for (int k = 0; k < j->nkeys; k++) needed[base + s->keys[k]] = 1;
        for (int k = 0; k < s->nuk; k++) needed[base + s->uk[k]] = 1;
        if (s->row_fixed) continue;
        for (int c = 0; c < s->ncols; c++) {
            int o = base + c;   /* semi / anti: the right side's columns are no output */
            if (needed[o] || (o < spec->out.ncols && spec->out_reads[o])) continue;
            if (!s->drop) s->drop = wcalloc((size_t)s->ncols, 1);
            s->drop[c] = 1;
        }
    }
    free(needed);
}

WOperator *wop_join_new(WExecCtx *ctx, const WJoinSpec *spec)
{
    bool semi_anti = spec->kind == WJK_SEMI || spec->kind == WJK_ANTI;
    int L = spec->left_ncols, R = spec->right_ncols;
    int want_out = semi_anti ? L : L + R;
    if (L <= 0 || R <= 0 || spec->out.ncols != want_out || spec->nkeys < 0 ||
        (spec->nkeys > 0 && (!spec->left_keys || !spec->right_keys))) {
        werr_set(ctx->err, WEXC_TABLE, "Invalid join specification: %d left, %d right and %d output columns",
                 L, R, spec->out.ncols);
        return NULL;
    }
    JoinOp *j = wcalloc(1, sizeof *j);
    wop_init(&j->base, &JOIN_OPS, ctx, 2, spec->out.ncols, spec->out.types, spec->out.names);
    j->kind = spec->kind;
    j->semi_anti = semi_anti;
    j->anti = spec->kind == WJK_ANTI;
    j->nkeys = spec->nkeys;
    j->residual = spec->residual;
    j->L = L;
    j->R = R;
    j->be = wexec_new_backend(ctx, "Join");
    int nk = spec->nkeys > 0 ? spec->nkeys : 1;
    j->key_types = wmalloc(sizeof(WType *) * (size_t)nk);
    j->filter_null = wmalloc(sizeof(bool) * (size_t)nk);
    for (int k = 0; k < spec->nkeys; k++) {
        j->filter_null[k] = spec->filter_nulls ? spec->filter_nulls[k] : true;
        j->any_filter |= j->filter_null[k];
    }
    bool left_outer = spec->kind == WJK_LEFT || spec->kind == WJK_FULL || semi_anti;
    bool right_outer = spec->kind == WJK_RIGHT || spec->kind == WJK_FULL;
    bool ok = side_init(j, &j->side[0], L, spec->left_types, spec->left_keys, spec->nkeys,
                        spec->left_nuk, spec->left_uk, left_outer, left_outer && !semi_anti,
                        spec->left_retracts, "leftState", spec->left_ttl_ms);
    ok = ok && side_init(j, &j->side[1], R, spec->right_types, spec->right_keys, spec->nkeys,
                         spec->right_nuk, spec->right_uk, right_outer, right_outer,
                         spec->right_retracts, "rightState", spec->right_ttl_ms);
    for (int k = 0; ok && k < spec->nkeys; k++) {
        const WType *lt = spec->left_types[spec->left_keys[k]];
        const WType *rt = spec->right_types[spec->right_keys[k]];
        j->key_types[k] = lt;
        if (lt->id != rt->id) {
            werr_set(ctx->err, WEXC_TABLE,
                     "Join key %d has different types on the two inputs; they must be cast to a common type", k);
            ok = false;
        }
    }
    j->key_fixed = ok && wrow_types_inline(spec->nkeys, j->key_types);
    if (ok) plan_record_columns(j, spec);
    if (!ok) {
        if (!ctx->err->set) werr_set(ctx->err, WEXC_TABLE, "Invalid join specification: column index out of range");
        wop_free(&j->base);
        return NULL;
    }
    const WType **jt = wmalloc(sizeof(WType *) * (size_t)(L + R));
    for (int i = 0; i < L; i++) jt[i] = spec->left_types[i];
    for (int i = 0; i < R; i++) jt[L + i] = spec->right_types[i];
    j->joined = wchunk_new(L + R, jt, WCHUNK_CAP);
    free(jt);
    j->sel = wmalloc(WCHUNK_CAP);
    j->pend_row = wmalloc(sizeof(int) * WCHUNK_CAP);
    j->pend_kind = wmalloc(WCHUNK_CAP);
    j->out = wchunk_new(spec->out.ncols, spec->out.types, ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP);
    j->scratch = warena_new(1 << 20);
    j->eval_arena = warena_new(1 << 16);
    wsb_init(&j->keybuf);
    wsb_init(&j->kbytes);
    wsb_init(&j->rowbuf);
    wsb_init(&j->rbytes);
    wsb_init(&j->ukbuf);
    int mx = L > R ? L : R;
    if (spec->nkeys > mx) mx = spec->nkeys;
    j->vals = wmalloc(sizeof(WDatum) * (size_t)mx);
    j->nulls = wmalloc((size_t)mx);
    return &j->base;
}
