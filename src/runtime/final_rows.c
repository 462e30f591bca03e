/*
 * final_rows.c — a changelog applied to a multiset of rows. See final_rows.h.
 */
#include "final_rows.h"
#include "../common/arena.h"
#include "../common/hash.h"
#include "../common/strbuf.h"
#include "../types/row.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

typedef struct Distinct {
    char *key;                  /* the row's binary encoding (header byte cleared) */
    size_t klen;
    uint64_t hash;
    int64_t count;              /* live copies */
} Distinct;

struct WFinalRows {
    int ncols;
    const WType **types;
    int *cols;                  /* 0..ncols-1 */
    int nrows;                  /* distinct rows seen */
    int nchunks;
    WChunk **chunks;            /* the distinct rows, WCHUNK_CAP a chunk, first-seen order */
    Distinct *rows;
    size_t cap;                 /* hash table: index + 1 into rows, 0 = empty */
    int *slots;
    WStrBuf kb;
};

WFinalRows *wfinal_new(int ncols, const WType **types)
{
    WFinalRows *f = wcalloc(1, sizeof *f);
    f->ncols = ncols;
    f->types = types;
    f->cols = wcalloc((size_t)(ncols ? ncols : 1), sizeof(int));
    for (int i = 0; i < ncols; i++) f->cols[i] = i;
    f->cap = 64;
    f->slots = wcalloc(f->cap, sizeof(int));
    wsb_init(&f->kb);
    return f;
}

void wfinal_free(WFinalRows *f)
{
    if (!f) return;
    for (int i = 0; i < f->nrows; i++) free(f->rows[i].key);
    for (int i = 0; i < f->nchunks; i++) wchunk_free(f->chunks[i]);
    free(f->chunks);
    free(f->rows);
    free(f->slots);
    free(f->cols);
    wsb_free(&f->kb);
    free(f);
}

static void grow(WFinalRows *f)
{
    size_t cap = f->cap * 2;
    int *slots = wcalloc(cap, sizeof(int));
    for (int i = 0; i < f->nrows; i++) {
        size_t s = f->rows[i].hash & (cap - 1);
        while (slots[s]) s = (s + 1) & (cap - 1);
        slots[s] = i + 1;
    }
    free(f->slots);
    f->slots = slots;
    f->cap = cap;
}

/* The distinct row equal to row r of c (added with count 0 when new and `add`); -1 if absent. */
static int find(WFinalRows *f, const WChunk *c, int r, bool add)
{
    wrow_encode_chunk(&f->kb, c, r, f->ncols, f->cols);
    assert(f->kb.len > 0);
    f->kb.buf[0] = 0;           /* the row kind is not part of the row */
    uint64_t h = whash_bytes(f->kb.buf, f->kb.len, 0x9e3779b97f4a7c15ULL);
    size_t s = h & (f->cap - 1);
    while (f->slots[s]) {
        Distinct *d = &f->rows[f->slots[s] - 1];
        if (d->hash == h && d->klen == f->kb.len && !memcmp(d->key, f->kb.buf, d->klen)) return f->slots[s] - 1;
        s = (s + 1) & (f->cap - 1);
    }
    if (!add) return -1;
    int i = f->nrows++;
    f->rows = wrealloc(f->rows, sizeof(Distinct) * (size_t)f->nrows);
    f->rows[i] = (Distinct){.key = wmalloc(f->kb.len), .klen = f->kb.len, .hash = h, .count = 0};
    memcpy(f->rows[i].key, f->kb.buf, f->kb.len);
    f->slots[s] = i + 1;
    if (i % WCHUNK_CAP == 0) {
        f->chunks = wrealloc(f->chunks, sizeof(WChunk *) * (size_t)(f->nchunks + 1));
        f->chunks[f->nchunks++] = wchunk_new(f->ncols, f->types, WCHUNK_CAP);
    }
    int at = wchunk_append_row(f->chunks[i / WCHUNK_CAP], c, r);
    assert(at == i % WCHUNK_CAP);
    (void)at;
    if ((size_t)f->nrows * 2 > f->cap) grow(f);
    return i;
}

void wfinal_apply(WFinalRows *f, const WChunk *in)
{
    for (int r = 0; r < in->nrows; r++) {
        bool retract = in->kinds[r] == WRK_UPDATE_BEFORE || in->kinds[r] == WRK_DELETE;
        int i = find(f, in, r, !retract);
        if (i < 0) continue;                    /* a retraction of a row never seen: nothing to remove */
        if (retract) { if (f->rows[i].count > 0) f->rows[i].count--; }
        else f->rows[i].count++;
    }
}

bool wfinal_flush(WFinalRows *f, bool (*emit)(void *ctx, const WChunk *c), void *ctx)
{
    WChunk *out = wchunk_new(f->ncols, f->types, WCHUNK_CAP);
    bool ok = true;
    for (int i = 0; i < f->nrows && ok; i++) {
        for (int64_t k = 0; k < f->rows[i].count && ok; k++) {
            if (out->nrows == out->cap) {
                ok = emit(ctx, out);
                wchunk_reset(out);
            }
            int at = wchunk_append_row(out, f->chunks[i / WCHUNK_CAP], i % WCHUNK_CAP);
            out->kinds[at] = WRK_INSERT;
        }
    }
    if (ok && out->nrows) ok = emit(ctx, out);
    wchunk_free(out);
    return ok;
}
