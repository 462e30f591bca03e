/*
 * minibatch.c — mini-batch bundles and the MiniBatchAssigner, see minibatch.h.
 * May call exec/operator.h, exec/chunk_groups.h, types/, common/.
 */
#include "minibatch.h"
#include "../common/sort.h"
#include "chunk_groups.h"
#include "../types/row.h"
#include "../types/compare.h"
#include "../common/hash.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* A key of the bundle (ordering, picking) or of the operator's changes (compacting). */
typedef struct KeyRec {
    WGroupKey key;                  /* first: chunk_groups.h */
    int before;                     /* compact: row in `store` holding the result before the batch
                                       (-1 = none); pick: the row picked */
    int after;                      /* compact: row in `store` holding the latest result, -1 = none */
    uint32_t bucket;                /* order: the key's bucket in Flink's bundle HashMap */
} KeyRec;

typedef struct WMiniBatch WMiniBatch;
struct WMiniBatch {
    WMiniBatchMode mode;
    int64_t size;
    int nkeys;                      /* input key columns */
    int *keys;
    int nout_keys;                  /* compact: output key columns 0..nout_keys-1 */
    int *out_keys;
    bool gen_ub, emit_unchanged;
    int64_t java_cap;               /* table length of Flink's bundle HashMap (it never shrinks) */
    WChunk *ordered;                /* the bundle in the HashMap's key order (shallow) */
    uint64_t *order;
    WChunk *bundle;                 /* rows not processed yet (NULL until the first row) */
    bool collecting;                /* a compacting flush runs: emitted rows go to `store` */
    WChunk *store;                  /* compacting: copies of the operator's changes */
    WChunk *picked;                 /* first/last: the rows processed (shallow) */
    WChunkGroups cg;
    WStrBuf tmp;
    int64_t count;                  /* WMB_JOIN: rows of both inputs since the last flush */
    WMbWatermarkGate gate;          /* NULL: every watermark ends the bundle */
};

void wop_minibatch_enable(WOperator *op, const WMiniBatchSpec *spec)
{
    assert(spec->size > 0 && !op->mb);
    assert(spec->mode == WMB_JOIN ? op->ninputs == 2 && op->ops->bundle_add && op->ops->bundle_flush
                                  : op->ninputs == 1);
    WMiniBatch *mb = wcalloc(1, sizeof *mb);
    mb->mode = spec->mode;
    mb->size = spec->size;
    mb->nkeys = spec->nkeys;
    mb->keys = wmalloc(sizeof(int) * (size_t)(spec->nkeys ? spec->nkeys : 1));
    if (spec->nkeys) memcpy(mb->keys, spec->keys, sizeof(int) * (size_t)spec->nkeys);
    mb->nout_keys = spec->nout_keys;
    mb->out_keys = wmalloc(sizeof(int) * (size_t)(spec->nout_keys ? spec->nout_keys : 1));
    for (int k = 0; k < spec->nout_keys; k++) mb->out_keys[k] = k;
    mb->gen_ub = spec->generate_update_before;
    mb->emit_unchanged = spec->emit_unchanged;
    mb->java_cap = 16;
    wcg_init(&mb->cg, sizeof(KeyRec));
    wsb_init(&mb->tmp);
    op->mb = mb;
}

void wop_minibatch_set_gate(WOperator *op, WMbWatermarkGate gate)
{
    assert(op->mb && op->mb->mode != WMB_JOIN);
    op->mb->gate = gate;
}

bool wmb_ends_on_watermark(WOperator *op, int64_t wm)
{
    WMiniBatch *mb = op->mb;
    assert(mb);
    if (!mb->gate) return true;
    return mb->gate(op, wm, mb->bundle && mb->bundle->nrows ? mb->bundle : NULL);
}

void wmb_free(WOperator *op)
{
    WMiniBatch *mb = op->mb;
    if (!mb) return;
    if (mb->bundle) wchunk_free(mb->bundle);
    if (mb->store) wchunk_free(mb->store);
    if (mb->picked) wchunk_free(mb->picked);
    if (mb->ordered) wchunk_free(mb->ordered);
    wcg_free(&mb->cg);
    wsb_free(&mb->tmp);
    free(mb->keys);
    free(mb->out_keys);
    free(mb->order);
    free(mb);
    op->mb = NULL;
}

/* Room for `more` rows in *c (created with the types of `like`), growing by doubling. */
static void ensure_room(WChunk **c, int ncols, const WType **types, int more)
{
    if (!*c) {
        int cap = more > WCHUNK_CAP ? more : WCHUNK_CAP;
        *c = wchunk_new(ncols, types, cap);
        return;
    }
    if ((*c)->nrows + more <= (*c)->cap) return;
    int cap = (*c)->cap * 2;
    while (cap < (*c)->nrows + more) cap *= 2;
    WChunk *n = wchunk_new(ncols, types, cap);
    wchunk_append_selected(n, *c, NULL);
    wchunk_free(*c);
    *c = n;
}

void wmb_add(WOperator *op, int input, const WChunk *in)
{
    WMiniBatch *mb = op->mb;
    if (mb->mode == WMB_JOIN) {
        for (int r = 0; r < in->nrows && !op->ctx->err->set;) {
            int64_t room = mb->size - mb->count;
            int take = (int64_t)(in->nrows - r) < room ? in->nrows - r : (int)room;
            op->ops->bundle_add(op, input, in, r, take);
            mb->count += take;
            r += take;
            if (mb->count >= mb->size) wop_minibatch_flush(op);   /* CountCoBundleTrigger */
        }
        return;
    }
    for (int r = 0; r < in->nrows && !op->ctx->err->set;) {
        int have = mb->bundle ? mb->bundle->nrows : 0;
        int64_t room = mb->size - have;
        int take = (int64_t)(in->nrows - r) < room ? in->nrows - r : (int)room;
        ensure_room(&mb->bundle, in->ncols, in->types, take);
        if (r == 0 && take == in->nrows) wchunk_append_selected(mb->bundle, in, NULL);  /* by columns */
        else for (int k = 0; k < take; k++) wchunk_append_row(mb->bundle, in, r + k);
        r += take;
        if (mb->bundle->nrows >= mb->size) wop_minibatch_flush(op);   /* CountBundleTrigger */
    }
}

static int find_key(WMiniBatch *mb, const WChunk *c, int row, int nkeys, const int *keys, bool *added)
{
    wrow_encode_chunk(&mb->tmp, c, row, nkeys, keys);
    return wcg_find_or_add(&mb->cg, mb->tmp.buf, mb->tmp.len, whash_bytes(mb->tmp.buf, mb->tmp.len, 29), added);
}

bool wmb_collect(WOperator *op, const WChunk *c)
{
    WMiniBatch *mb = op->mb;
    if (!mb->collecting) return false;
    if (mb->mode != WMB_COMPACT) {          /* reordered later (emit_reordered) */
        ensure_room(&mb->store, op->ncols, op->types, c->nrows);
        wchunk_append_selected(mb->store, c, NULL);
        return true;
    }
    for (int r = 0; r < c->nrows; r++) {
        bool added;
        int gi = find_key(mb, c, r, mb->nout_keys, mb->out_keys, &added);
        KeyRec *k = &((KeyRec *)mb->cg.groups)[gi];
        WRowKind kind = (WRowKind)c->kinds[r];
        ensure_room(&mb->store, op->ncols, op->types, 1);
        int at = wchunk_append_row(mb->store, c, r);
        if (added) {
            /* +I: the key is new in this batch; -U / -D carry its result from before the batch */
            assert(kind != WRK_UPDATE_AFTER);
            k->before = kind == WRK_INSERT ? -1 : at;
            k->after = k->before;
        }
        if (kind == WRK_INSERT || kind == WRK_UPDATE_AFTER) k->after = at;
        else if (kind == WRK_DELETE) k->after = -1;
    }
    return true;
}

static bool same_row(const WChunk *c, int a, int b)
{
    for (int i = 0; i < c->ncols; i++) {
        const WVector *v = &c->cols[i];
        if (v->nulls[a] != v->nulls[b]) return false;
        if (!v->nulls[a] && !wdatum_equal(c->types[i], v->data[a], v->data[b])) return false;
    }
    return true;
}

/* The compacted changes of a flush, one per key, in the order of the keys' first change. */
static void emit_compacted(WOperator *op)
{
    WMiniBatch *mb = op->mb;
    if (!mb->store || !mb->store->nrows) return;
    WChunk *s = mb->store;
    WChunk *out = wchunk_new(op->ncols, op->types, WCHUNK_CAP);
    for (int gi = 0; gi < mb->cg.ngroups && !op->ctx->err->set; gi++) {
        const KeyRec *k = &((KeyRec *)mb->cg.groups)[gi];
        int rows[2], kinds[2], n = 0;
        if (k->before < 0 && k->after >= 0) {
            rows[n] = k->after, kinds[n++] = WRK_INSERT;
        } else if (k->before >= 0 && k->after < 0) {
            rows[n] = k->before, kinds[n++] = WRK_DELETE;
        } else if (k->before >= 0 && (mb->emit_unchanged || !same_row(s, k->before, k->after))) {
            if (mb->gen_ub) rows[n] = k->before, kinds[n++] = WRK_UPDATE_BEFORE;
            rows[n] = k->after, kinds[n++] = WRK_UPDATE_AFTER;
        }
        for (int i = 0; i < n; i++) {
            if (out->nrows == out->cap) {
                wop_emit(op, out);
                wchunk_reset(out);
            }
            int at = out->nrows;
            wchunk_append_row(out, s, rows[i]);
            out->kinds[at] = (uint8_t)kinds[i];
        }
    }
    wop_emit(op, out);
    wchunk_free(out);
}

/* The first (or last) row of every key of the bundle, in the order of the keys' first rows. */
static WChunk *pick_rows(WMiniBatch *mb, WChunk *b)
{
    wcg_prepare(&mb->cg, b->nrows);
    for (int r = 0; r < b->nrows; r++) {
        bool added;
        int gi = find_key(mb, b, r, mb->nkeys, mb->keys, &added);
        KeyRec *k = &((KeyRec *)mb->cg.groups)[gi];
        if (added || mb->mode == WMB_LAST_PER_KEY) k->before = r;
    }
    if (mb->picked && mb->picked->cap < mb->cg.ngroups) {
        wchunk_free(mb->picked);
        mb->picked = NULL;
    }
    if (!mb->picked) mb->picked = wchunk_new(b->ncols, b->types, b->cap);
    WChunk *p = mb->picked;
    p->nrows = 0;
    for (int gi = 0; gi < mb->cg.ngroups; gi++) {
        int r = ((KeyRec *)mb->cg.groups)[gi].before;
        p->kinds[gi] = b->kinds[r];
        for (int c = 0; c < b->ncols; c++) {       /* shallow: the bundle owns the bytes */
            p->cols[c].data[gi] = b->cols[c].data[r];
            p->cols[c].nulls[gi] = b->cols[c].nulls[r];
        }
    }
    p->nrows = mb->cg.ngroups;
    return p;
}

static int by_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Rows of c in the order of their keys' buckets in a java.util.HashMap of table length cap
   (keys[rows[r]].bucket holds the spread hashCode), the rows of one bucket in their order. */
static void sort_by_bucket(WMiniBatch *mb, int nrows, const KeyRec *keys, const int32_t *rows, int64_t cap)
{
    mb->order = wrealloc(mb->order, sizeof(uint64_t) * (size_t)(nrows ? nrows : 1));
    for (int r = 0; r < nrows; r++)
        mb->order[r] = (uint64_t)(keys[rows[r]].bucket & (uint32_t)(cap - 1)) << 32 | (uint32_t)r;
    wqsort(mb->order, (size_t)nrows, sizeof(uint64_t), by_u64);   /* (bucket, row): stable */
}

/* Group the rows of c by key columns keys into mb->cg (rows[r] = group), each group's bucket
   field the spread hashCode of the key's BinaryRowData, as java.util.HashMap computes it. */
static void group_java(WMiniBatch *mb, const WChunk *c, int nkeys, const int *keys)
{
    wcg_prepare(&mb->cg, c->nrows);
    for (int r = 0; r < c->nrows; r++) {
        bool added;
        int gi = find_key(mb, c, r, nkeys, keys, &added);
        if (added) {
            uint32_t h = (uint32_t)wrow_hash(mb->tmp.buf, mb->tmp.len);
            ((KeyRec *)mb->cg.groups)[gi].bucket = h ^ (h >> 16);
        }
        mb->cg.rows[r] = gi;
    }
}

/* Table length of a java.util.HashMap that held n keys, starting from cap (load factor 0.75). */
int64_t wmb_java_table_length(int64_t cap, int64_t n)
{
    while (n * 4 > cap * 3) cap *= 2;
    return cap;
}

/* The operator's output of a flush in the order of Flink's HashMap of output keys, created for the
   flush (MiniBatchIncrementalGroupAggFunction's map of final keys). */
static void emit_reordered(WOperator *op)
{
    WMiniBatch *mb = op->mb;
    WChunk *s = mb->store;
    if (!s || !s->nrows) return;
    group_java(mb, s, mb->nout_keys, mb->out_keys);
    sort_by_bucket(mb, s->nrows, mb->cg.groups, mb->cg.rows, wmb_java_table_length(16, mb->cg.ngroups));
    WChunk *out = wchunk_new(op->ncols, op->types, WCHUNK_CAP);
    for (int i = 0; i < s->nrows && !op->ctx->err->set; i++) {
        if (out->nrows == out->cap) {
            wop_emit(op, out);
            wchunk_reset(out);
        }
        wchunk_append_row(out, s, (int)(uint32_t)mb->order[i]);
    }
    wop_emit(op, out);
    wchunk_free(out);
}

/* The bundle's rows in the order Flink's bundle (a java.util.HashMap keyed by the key's
   BinaryRowData) hands its keys out: by bucket (the key's hashCode spread, modulo the table length,
   which grows as keys are added and is kept when the bundle is cleared), keys of one bucket in the
   order they were added; the rows of a key keep their order. Returns the bundle itself when it is
   in that order already. */
static WChunk *order_rows(WMiniBatch *mb, WChunk *b)
{
    if (mb->nkeys == 0 || b->nrows < 2) return b;
    group_java(mb, b, mb->nkeys, mb->keys);
    mb->java_cap = wmb_java_table_length(mb->java_cap, mb->cg.ngroups);
    const KeyRec *keys = mb->cg.groups;
    bool sorted = true;
    uint32_t mask = (uint32_t)(mb->java_cap - 1);
    for (int gi = 1; gi < mb->cg.ngroups && sorted; gi++)
        if ((keys[gi].bucket & mask) < (keys[gi - 1].bucket & mask)) sorted = false;
    if (sorted) return b;
    sort_by_bucket(mb, b->nrows, keys, mb->cg.rows, mb->java_cap);
    if (mb->ordered && mb->ordered->cap < b->nrows) {
        wchunk_free(mb->ordered);
        mb->ordered = NULL;
    }
    if (!mb->ordered) mb->ordered = wchunk_new(b->ncols, b->types, b->cap);
    WChunk *o = mb->ordered;
    for (int i = 0; i < b->nrows; i++) {
        int r = (int)(uint32_t)mb->order[i];
        o->kinds[i] = b->kinds[r];
        for (int c = 0; c < b->ncols; c++) {       /* shallow: the bundle owns the bytes */
            o->cols[c].data[i] = b->cols[c].data[r];
            o->cols[c].nulls[i] = b->cols[c].nulls[r];
        }
    }
    o->nrows = b->nrows;
    return o;
}

static void minibatch_flush(WOperator *op);

/* A bundle's processing is the operator's busy time (operator.h), also when the runtime flushes it
   before a checkpoint barrier. */
void wop_minibatch_flush(WOperator *op)
{
    WOperator *prev = wop_time_enter(op->ctx, op);
    minibatch_flush(op);
    wop_time_leave(op->ctx, prev);
}

static void minibatch_flush(WOperator *op)
{
    WMiniBatch *mb = op->mb;
    if (mb && mb->mode == WMB_JOIN) {
        if (mb->count > 0 && !op->ctx->err->set) op->ops->bundle_flush(op);
        mb->count = 0;
        return;
    }
    if (!mb || !mb->bundle || !mb->bundle->nrows) return;
    if (!op->ctx->err->set) {
        WChunk *b = order_rows(mb, mb->bundle);
        switch (mb->mode) {
        case WMB_FOLD:
            if (!mb->nout_keys) {
                op->ops->process(op, 0, b);
                break;
            }
            if (mb->store) wchunk_reset(mb->store);
            mb->collecting = true;
            op->ops->process(op, 0, b);
            mb->collecting = false;
            emit_reordered(op);
            break;
        case WMB_COMPACT:
            wcg_prepare(&mb->cg, b->nrows);
            if (mb->store) wchunk_reset(mb->store);
            mb->collecting = true;
            op->ops->process(op, 0, b);
            mb->collecting = false;
            emit_compacted(op);
            break;
        case WMB_JOIN:                      /* handled above */
            assert(0);
            break;
        case WMB_FIRST_PER_KEY:
        case WMB_LAST_PER_KEY:
            op->ops->process(op, 0, pick_rows(mb, b));
            break;
        }
    }
    wchunk_reset(mb->bundle);
}

/* ------------------------------------------------------------------ MiniBatchAssigner */

typedef struct Assigner {
    WOperator base;
    int64_t interval;
    bool rowtime;
    int64_t current;                /* the last boundary emitted */
    int64_t next;                   /* RowTime: the watermark that ends the current interval */
} Assigner;

/* ProcTime: a new interval started — emit its start (ProcTimeMiniBatchAssignerOperator) */
static void proctime_boundary(Assigner *a)
{
    if (a->current == WWM_MAX) return;
    int64_t now = wexec_now(a->base.ctx);
    int64_t batch = now - now % a->interval;
    if (batch > a->current) {
        a->current = batch;
        wop_emit_watermark(&a->base, batch);
    }
}

static void assigner_process(WOperator *op, int input, const WChunk *in)
{
    Assigner *a = (Assigner *)op;
    (void)input;
    if (!a->rowtime) proctime_boundary(a);
    wop_emit(op, in);
}

static void assigner_tick(WOperator *op)
{
    Assigner *a = (Assigner *)op;
    if (!a->rowtime) proctime_boundary(a);
}

/* Start of the interval holding wm (Flink's getMiniBatchStart with offset 0). */
static int64_t batch_start(int64_t wm, int64_t interval) { return wm - (wm + interval) % interval; }

static void assigner_watermark(WOperator *op, int64_t wm)
{
    Assigner *a = (Assigner *)op;
    if (wm == WWM_MAX) {
        /* the end of input passes in both modes */
        if (a->current != WWM_MAX) {
            a->current = WWM_MAX;
            wop_emit_watermark(op, WWM_MAX);
        }
        return;
    }
    if (!a->rowtime || a->current == WWM_MAX) return;      /* ProcTime drops event-time watermarks */
    /* RowTimeMiniBatchAssginerOperator: forward the watermark that reaches the interval's end */
    int64_t cur = wm > a->current ? wm : a->current;
    if (cur < a->next) {
        a->current = cur;
        return;
    }
    a->current = cur;
    wop_emit_watermark(op, cur);
    int64_t end = batch_start(cur, a->interval) + a->interval - 1;
    a->next = end > cur ? end : end + a->interval;
}

static void assigner_destroy(WOperator *op) { free(op); }

static const WOpOps ASSIGNER_OPS = {.process = assigner_process, .watermark = assigner_watermark,
                                    .destroy = assigner_destroy, .tick = assigner_tick};

WOperator *wop_minibatch_assigner_new(WExecCtx *ctx, int64_t interval_ms, bool rowtime, int ncols,
                                      const WType **types, const char **names)
{
    assert(interval_ms > 0);
    Assigner *a = wcalloc(1, sizeof *a);
    wop_init(&a->base, &ASSIGNER_OPS, ctx, 1, ncols, types, names);
    a->base.name = "MiniBatchAssigner";
    a->interval = interval_ms;
    a->rowtime = rowtime;
    a->current = 0;
    a->next = batch_start(0, interval_ms) + interval_ms - 1;
    return &a->base;
}
