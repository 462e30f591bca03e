/*
 * sort_buffer.c — rows kept for sorting: chunk storage, arrival numbers, removal by value through
 * a chained hash index, a stable merge sort of row numbers by Flink's sort keys, compaction.
 * See sort_buffer.h.
 */
#include "sort_buffer.h"
#include "../types/compare.h"
#include "../common/arena.h"

#include <stdlib.h>
#include <string.h>

#define SB_CHUNK_ROWS 1024

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) abort();
    return q;
}

void wsortbuf_init(WSortBuf *b, int ncols, const WType **types, int nkeys, const WSortKeySpec *keys, bool indexed)
{
    memset(b, 0, sizeof *b);
    b->ncols = ncols;
    b->types = types;
    b->nkeys = nkeys;
    b->keys = xrealloc(NULL, sizeof *b->keys * (size_t)(nkeys ? nkeys : 1));
    if (nkeys) memcpy(b->keys, keys, sizeof *b->keys * (size_t)nkeys);
    b->indexed = indexed;
}

static void free_storage(WSortBuf *b)
{
    for (int k = 0; k < b->nchunks; k++) wchunk_free(b->chunks[k]);
    free(b->chunks);
    free(b->chunk_of);
    free(b->row_of);
    free(b->dead);
    free(b->heads);
    free(b->next);
    free(b->hash);
    b->chunks = NULL;
    b->chunk_of = b->row_of = NULL;
    b->dead = NULL;
    b->heads = b->next = NULL;
    b->hash = NULL;
    b->nchunks = b->capchunks = 0;
    b->n = b->cap = b->live = 0;
    b->nbuckets = 0;
}

void wsortbuf_free(WSortBuf *b)
{
    free_storage(b);
    free(b->keys);
    b->keys = NULL;
}

static uint64_t row_hash(const WSortBuf *b, const WChunk *c, int row)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (int k = 0; k < b->ncols; k++) {
        if (c->cols[k].nulls[row]) h = h * 31 + 0x5bd1e995u;
        else h = wdatum_hash(c->types[k], c->cols[k].data[row], h);
    }
    return h;
}

static void index_insert(WSortBuf *b, int64_t i)
{
    if (b->live * 2 >= b->nbuckets) {
        int64_t nb = b->nbuckets ? b->nbuckets * 2 : 1024;
        while (nb < b->live * 2 + 2) nb *= 2;
        free(b->heads);
        b->heads = xrealloc(NULL, sizeof *b->heads * (size_t)nb);
        for (int64_t k = 0; k < nb; k++) b->heads[k] = -1;
        b->nbuckets = nb;
        for (int64_t j = 0; j < b->n; j++) {
            if (j == i || b->dead[j]) continue;
            int64_t bk = (int64_t)(b->hash[j] & (uint64_t)(nb - 1));
            b->next[j] = b->heads[bk];
            b->heads[bk] = j;
        }
    }
    int64_t bk = (int64_t)(b->hash[i] & (uint64_t)(b->nbuckets - 1));
    b->next[i] = b->heads[bk];
    b->heads[bk] = i;
}

int64_t wsortbuf_add(WSortBuf *b, const WChunk *c, int row)
{
    WChunk *h = b->nchunks ? b->chunks[b->nchunks - 1] : NULL;
    if (!h || h->nrows == h->cap) {
        if (b->nchunks == b->capchunks) {
            b->capchunks = b->capchunks ? b->capchunks * 2 : 8;
            b->chunks = xrealloc(b->chunks, sizeof *b->chunks * (size_t)b->capchunks);
        }
        h = wchunk_new(b->ncols, b->types, SB_CHUNK_ROWS);
        b->chunks[b->nchunks++] = h;
    }
    if (b->n == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 1024;
        b->chunk_of = xrealloc(b->chunk_of, sizeof *b->chunk_of * (size_t)b->cap);
        b->row_of = xrealloc(b->row_of, sizeof *b->row_of * (size_t)b->cap);
        b->dead = xrealloc(b->dead, (size_t)b->cap);
        if (b->indexed) {
            b->next = xrealloc(b->next, sizeof *b->next * (size_t)b->cap);
            b->hash = xrealloc(b->hash, sizeof *b->hash * (size_t)b->cap);
        }
    }
    int r = wchunk_append_row(h, c, row);
    h->kinds[r] = WRK_INSERT;
    int64_t i = b->n++;
    b->chunk_of[i] = b->nchunks - 1;
    b->row_of[i] = r;
    b->dead[i] = 0;
    b->live++;
    if (b->indexed) {
        b->hash[i] = row_hash(b, c, row);
        index_insert(b, i);
    }
    return i;
}

WDatum wsortbuf_get(const WSortBuf *b, int64_t i, int col, bool *is_null)
{
    const WChunk *h = b->chunks[b->chunk_of[i]];
    int r = b->row_of[i];
    *is_null = h->cols[col].nulls[r] != 0;
    return h->cols[col].data[r];
}

static bool equal_to(const WSortBuf *b, int64_t i, const WChunk *c, int row)
{
    for (int k = 0; k < b->ncols; k++) {
        bool n1;
        WDatum v = wsortbuf_get(b, i, k, &n1);
        bool n2 = c->cols[k].nulls[row] != 0;
        if (n1 != n2) return false;
        if (!n1 && !wdatum_equal(b->types[k], v, c->cols[k].data[row])) return false;
    }
    return true;
}

bool wsortbuf_remove(WSortBuf *b, const WChunk *c, int row)
{
    if (!b->indexed || !b->nbuckets) return false;
    uint64_t hv = row_hash(b, c, row);
    int64_t prev = -1;
    int64_t bk = (int64_t)(hv & (uint64_t)(b->nbuckets - 1));
    for (int64_t i = b->heads[bk]; i >= 0; prev = i, i = b->next[i]) {
        if (b->hash[i] != hv || !equal_to(b, i, c, row)) continue;
        if (prev < 0) b->heads[bk] = b->next[i];
        else b->next[prev] = b->next[i];
        b->dead[i] = 1;
        b->live--;
        return true;
    }
    return false;
}

void wsortbuf_kill(WSortBuf *b, int64_t i)
{
    if (i < 0 || i >= b->n || b->dead[i]) return;
    if (b->indexed) {
        int64_t bk = (int64_t)(b->hash[i] & (uint64_t)(b->nbuckets - 1)), prev = -1;
        for (int64_t j = b->heads[bk]; j >= 0; prev = j, j = b->next[j]) {
            if (j != i) continue;
            if (prev < 0) b->heads[bk] = b->next[j];
            else b->next[prev] = b->next[j];
            break;
        }
    }
    b->dead[i] = 1;
    b->live--;
}

bool wsortbuf_is_live(const WSortBuf *b, int64_t i) { return i >= 0 && i < b->n && !b->dead[i]; }

int wsortbuf_cmp(const WSortBuf *b, int64_t i, int64_t j, int from)
{
    for (int k = from; k < b->nkeys; k++) {
        const WSortKeySpec *s = &b->keys[k];
        bool ni, nj;
        WDatum vi = wsortbuf_get(b, i, s->col, &ni);
        WDatum vj = wsortbuf_get(b, j, s->col, &nj);
        if (ni || nj) {
            if (ni && nj) continue;
            /* the null direction is absolute, whatever the order */
            return ni ? (s->nulls_first ? -1 : 1) : (s->nulls_first ? 1 : -1);
        }
        int c = wdatum_compare(b->types[s->col], vi, vj);
        if (c) return s->desc ? -c : c;
    }
    return 0;
}

void wsortbuf_sort(const WSortBuf *b, int64_t *idx, int64_t n, int from)
{
    if (n < 2 || from >= b->nkeys) return;
    int64_t *tmp = xrealloc(NULL, sizeof *tmp * (size_t)n);
    /* bottom-up merge sort: stable */
    for (int64_t w = 1; w < n; w *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * w) {
            int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int64_t a = lo, c = mid, o = lo;
            while (a < mid && c < hi) tmp[o++] = wsortbuf_cmp(b, idx[c], idx[a], from) < 0 ? idx[c++] : idx[a++];
            while (a < mid) tmp[o++] = idx[a++];
            while (c < hi) tmp[o++] = idx[c++];
        }
        memcpy(idx, tmp, sizeof *idx * (size_t)n);
    }
    free(tmp);
}

bool wsortbuf_emit_to(const WSortBuf *b, int64_t i, WChunk *out, WRowKind k)
{
    if (out->nrows >= out->cap) return false;
    int r = wchunk_append_row(out, b->chunks[b->chunk_of[i]], b->row_of[i]);
    if (r < 0) return false;
    out->kinds[r] = (uint8_t)k;
    return true;
}

void wsortbuf_compact(WSortBuf *b)
{
    if (b->live == b->n) return;
    WSortBuf nb;
    wsortbuf_init(&nb, b->ncols, b->types, b->nkeys, b->keys, b->indexed);
    for (int64_t i = 0; i < b->n; i++)
        if (!b->dead[i]) wsortbuf_add(&nb, b->chunks[b->chunk_of[i]], b->row_of[i]);
    free_storage(b);
    free(b->keys);
    *b = nb;
}

int64_t wsortbuf_apply(WSortBuf *b, const WChunk *c)
{
    int64_t unmatched = 0;
    for (int r = 0; r < c->nrows; r++) {
        if (wrowkind_is_retract((WRowKind)c->kinds[r])) {
            if (!wsortbuf_remove(b, c, r)) unmatched++;
        } else {
            wsortbuf_add(b, c, r);
        }
    }
    if (b->n > 4096 && b->live * 2 < b->n) wsortbuf_compact(b);
    return unmatched;
}

int64_t wsortbuf_sorted_live(const WSortBuf *b, int64_t *idx)
{
    int64_t n = 0;
    for (int64_t i = 0; i < b->n; i++) if (wsortbuf_is_live(b, i)) idx[n++] = i;
    wsortbuf_sort(b, idx, n, 0);
    return n;
}

/* ---- rows in keyed state ---- */

#include "../types/row.h"

static uint32_t rd_u32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

void wrowlist_append(WStrBuf *list, const WChunk *c, int row, WStrBuf *scratch)
{
    enum { SMALL = 64 };
    int all_s[SMALL] = {0};
    int *all = c->ncols > SMALL ? xrealloc(NULL, sizeof *all * (size_t)c->ncols) : all_s;
    for (int k = 0; k < c->ncols; k++) all[k] = k;
    wrow_encode_chunk(scratch, c, row, c->ncols, all);
    if (all != all_s) free(all);
    uint32_t l = (uint32_t)scratch->len;
    wsb_appendn(list, (const char *)&l, 4);
    wsb_appendn(list, scratch->buf, scratch->len);
}

static void ensure_room(WChunk **dst, int ncols, const WType **types, int more)
{
    WChunk *c = *dst;
    if (c && c->nrows + more <= c->cap) return;
    int cap = c ? c->cap : 0;
    int need = (c ? c->nrows : 0) + more;
    while (cap < need) cap = cap ? cap * 2 : 16;
    WChunk *n = wchunk_new(ncols, types, cap);
    if (c) {
        /* shallow copy: the values live in the caller's arena */
        for (int r = 0; r < c->nrows; r++) {
            int q = wchunk_add_row(n, (WRowKind)c->kinds[r]);
            for (int k = 0; k < ncols; k++) {
                n->cols[k].nulls[q] = c->cols[k].nulls[r];
                n->cols[k].data[q] = c->cols[k].data[r];
            }
        }
        wchunk_free(c);
    }
    *dst = n;
}

static void decode_row(const uint8_t *p, size_t len, WChunk *c, int ncols, const WType **types, WArena *a)
{
    int r = wchunk_add_row(c, WRK_INSERT);
    wrow_decode_chunk(p, len, ncols, types, c, r, 0, a, false);
}

bool wrow_decode_into(const void *p, size_t len, WChunk **dst, int ncols, const WType **types, WArena *a)
{
    if (len < wrow_fixed_size(ncols)) return false;
    ensure_room(dst, ncols, types, 1);
    decode_row(wa_memdup(a, p, len), len, *dst, ncols, types, a);
    return true;
}

int wrowlist_decode(const void *p, size_t len, WChunk **dst, int ncols, const WType **types, WArena *a)
{
    if (!len) return 0;
    const uint8_t *b = wa_memdup(a, p, len), *end = b + len;
    int n = 0;
    size_t fixed = wrow_fixed_size(ncols);
    for (const uint8_t *q = b; q < end; n++) {
        if (end - q < 4) return -1;
        uint32_t l = rd_u32(q);
        if (l < fixed || (size_t)(end - q - 4) < l) return -1;
        q += 4 + l;
    }
    ensure_room(dst, ncols, types, n);
    for (const uint8_t *q = b; q < end; q += 4 + rd_u32(q)) decode_row(q + 4, rd_u32(q), *dst, ncols, types, a);
    return n;
}

static int chunk_cmp(const WChunk *c, const WSortKeySpec *keys, int nkeys, int from, int i, int j)
{
    for (int k = from; k < nkeys; k++) {
        const WSortKeySpec *s = &keys[k];
        bool ni = c->cols[s->col].nulls[i] != 0, nj = c->cols[s->col].nulls[j] != 0;
        if (ni || nj) {
            if (ni && nj) continue;
            return ni ? (s->nulls_first ? -1 : 1) : (s->nulls_first ? 1 : -1);
        }
        int r = wdatum_compare(c->types[s->col], c->cols[s->col].data[i], c->cols[s->col].data[j]);
        if (r) return s->desc ? -r : r;
    }
    return 0;
}

void wsort_chunk_rows(const WChunk *c, const WSortKeySpec *keys, int nkeys, int from, int *idx, int n)
{
    if (n < 2 || from >= nkeys) return;
    int *tmp = xrealloc(NULL, sizeof *tmp * (size_t)n);
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int a = lo, b = mid, o = lo;
            while (a < mid && b < hi) tmp[o++] = chunk_cmp(c, keys, nkeys, from, idx[b], idx[a]) < 0 ? idx[b++] : idx[a++];
            while (a < mid) tmp[o++] = idx[a++];
            while (b < hi) tmp[o++] = idx[b++];
        }
        memcpy(idx, tmp, sizeof *idx * (size_t)n);
    }
    free(tmp);
}
