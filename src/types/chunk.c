/* chunk.c — changelog chunks; see chunk.h for the contract. */
#include "chunk.h"

#include <assert.h>
#include <string.h>
#include <strings.h>
#include <stdlib.h>

const char *wrowkind_short(WRowKind k)
{
    static const char *S[] = {"+I", "-U", "+U", "-D"};
    return (unsigned)k < 4 ? S[k] : "??";
}

bool wrowkind_is_retract(WRowKind k) { return k == WRK_UPDATE_BEFORE || k == WRK_DELETE; }

bool wrowkind_parse(const char *s, int len, WRowKind *out)
{
    static const struct { const char *a, *b; WRowKind k; } M[] = {
        {"+I", "INSERT", WRK_INSERT}, {"-U", "UPDATE_BEFORE", WRK_UPDATE_BEFORE},
        {"+U", "UPDATE_AFTER", WRK_UPDATE_AFTER}, {"-D", "DELETE", WRK_DELETE},
    };
    for (int i = 0; i < 4; i++) {
        if ((int)strlen(M[i].a) == len && strncasecmp(s, M[i].a, (size_t)len) == 0) { *out = M[i].k; return true; }
        if ((int)strlen(M[i].b) == len && strncasecmp(s, M[i].b, (size_t)len) == 0) { *out = M[i].k; return true; }
    }
    return false;
}

static void alloc_vectors(WChunk *c)
{
    c->cols = WA_ARRAY(c->arena, WVector, c->ncols ? c->ncols : 1);
    for (int i = 0; i < c->ncols; i++) {
        c->cols[i].type = c->types[i];
        c->cols[i].data = wa_alloc(c->arena, sizeof(WDatum) * (size_t)c->cap);
        c->cols[i].nulls = wa_zalloc(c->arena, (size_t)c->cap);
    }
    c->kinds = wa_zalloc(c->arena, (size_t)c->cap);
}

WChunk *wchunk_new(int ncols, const WType **types, int cap)
{
    WChunk *c = wcalloc(1, sizeof *c);
    c->ncols = ncols;
    c->cap = cap > 0 ? cap : WCHUNK_CAP;
    c->types = wmalloc(sizeof(WType *) * (size_t)(ncols ? ncols : 1));
    for (int i = 0; i < ncols; i++) c->types[i] = types[i];
    /* vectors take cap * (16 + 1) bytes per column; size blocks so they fit a few columns */
    c->arena = warena_new((size_t)c->cap * 17 * 4 + 4096);
    alloc_vectors(c);
    return c;
}

void wchunk_free(WChunk *c)
{
    if (!c) return;
    warena_delete(c->arena);
    free(c->types);
    free(c);
}

void wchunk_reset(WChunk *c)
{
    warena_reset(c->arena);
    c->nrows = 0;
    alloc_vectors(c);
}

int wchunk_add_row(WChunk *c, WRowKind kind)
{
    if (c->nrows >= c->cap) return -1;
    int r = c->nrows++;
    c->kinds[r] = (uint8_t)kind;
    for (int i = 0; i < c->ncols; i++) c->cols[i].nulls[r] = 0;
    return r;
}

void wchunk_prefetch_strings(const WChunk *c, int r)
{
    if (r < 0 || r >= c->nrows) return;
    for (int k = 0; k < c->ncols; k++) {
        const WVector *v = &c->cols[k];
        switch (v->type->id) {
        case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
            if ((v->nulls && v->nulls[r]) || v->data[r].s.len <= 0) break;
            __builtin_prefetch(v->data[r].s.p);
            if (v->data[r].s.len > 64) __builtin_prefetch(v->data[r].s.p + 64);
            break;
        default:
            break;
        }
    }
}

WDatum wdatum_copy(WArena *a, const WType *t, WDatum v)
{
    switch (t->id) {
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
        if (v.s.len > 0) v.s.p = wa_memdup(a, v.s.p, (size_t)v.s.len);
        return v;
    case WT_ARRAY: case WT_MULTISET: case WT_MAP: case WT_ROW: {
        if (!v.cx) return v;
        WComposite *src = v.cx, *dst = WA_NEW(a, WComposite);
        int slots = t->id == WT_MAP ? src->n * 2 : src->n;
        dst->n = src->n;
        dst->vals = WA_ARRAY(a, WDatum, slots ? slots : 1);
        dst->nulls = wa_memdup(a, src->nulls, (size_t)slots);
        for (int i = 0; i < slots; i++) {
            const WType *et;
            if (t->id == WT_ROW) et = t->fields[i];
            else if (t->id == WT_MAP) et = (i % 2 == 0) ? t->key : t->elem;
            else et = t->elem;
            dst->vals[i] = src->nulls[i] ? src->vals[i] : wdatum_copy(a, et, src->vals[i]);
        }
        v.cx = dst;
        return v;
    }
    default:
        return v;
    }
}

bool wchunk_type_is_deep(const WType *t)
{
    switch (t->id) {
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
    case WT_ARRAY: case WT_MULTISET: case WT_MAP: case WT_ROW:
        return true;
    default:
        return false;
    }
}

int wchunk_append_selected(WChunk *dst, const WChunk *src, const uint8_t *sel)
{
    int k0 = dst->nrows, k = k0;
    for (int r = 0; r < src->nrows && k < dst->cap; r++)
        if (!sel || sel[r]) dst->kinds[k++] = src->kinds[r];
    int n = k - k0;
    for (int i = 0; i < dst->ncols; i++) {
        const WVector *sc = &src->cols[i];
        WVector *dc = &dst->cols[i];
        bool deep = wchunk_type_is_deep(dst->types[i]);
        int q = k0;
        for (int r = 0; r < src->nrows && q < k; r++) {
            if (sel && !sel[r]) continue;
            uint8_t isnull = sc->nulls[r];
            dc->nulls[q] = isnull;
            dc->data[q] = isnull || !deep ? sc->data[r] : wdatum_copy(dst->arena, dst->types[i], sc->data[r]);
            q++;
        }
    }
    dst->nrows = k;
    return n;
}

/* The bytes of the non-null strings in dd[0..n) (nulls dn) copied into a: one reservation for
   them all, packed (wdatum_copy's wa_memdup per string was two calls and a 16-byte aligned block
   each: the exchange's gather of Nexmark q9's bids and auctions for the other lane). */
static void copy_strings(WArena *a, WDatum *dd, const uint8_t *dn, int n)
{
    size_t total = 0;
    for (int j = 0; j < n; j++)
        if (!dn[j] && dd[j].s.len > 0) total += (size_t)dd[j].s.len;
    if (!total) return;
    char *q = wa_alloc(a, total);
    for (int j = 0; j < n; j++) {
        if (dn[j] || dd[j].s.len <= 0) continue;
        memcpy(q, dd[j].s.p, (size_t)dd[j].s.len);
        dd[j].s.p = q;
        q += dd[j].s.len;
    }
}

void wchunk_append_rows(WChunk *dst, const WChunk *src, const int *rows, int n, bool deep)
{
    int k0 = dst->nrows;
    assert(n >= 0 && k0 + n <= dst->cap && dst->ncols == src->ncols);
    for (int j = 0; j < n; j++) dst->kinds[k0 + j] = src->kinds[rows[j]];
    for (int i = 0; i < dst->ncols; i++) {
        const WVector *sc = &src->cols[i];
        WVector *dc = &dst->cols[i];
        WDatum *dd = dc->data + k0;
        uint8_t *dn = dc->nulls + k0;
        for (int j = 0; j < n; j++) { dd[j] = sc->data[rows[j]]; dn[j] = sc->nulls[rows[j]]; }
        if (!deep || !wchunk_type_is_deep(dst->types[i])) continue;
        if (wtype_is_string(dst->types[i]) || wtype_is_binary(dst->types[i]))
            copy_strings(dst->arena, dd, dn, n);
        else
            for (int j = 0; j < n; j++)
                if (!dn[j]) dd[j] = wdatum_copy(dst->arena, dst->types[i], dd[j]);
    }
    dst->nrows = k0 + n;
}

int wchunk_append_row(WChunk *dst, const WChunk *src, int row)
{
    int r = wchunk_add_row(dst, (WRowKind)src->kinds[row]);
    if (r < 0) return -1;
    for (int i = 0; i < dst->ncols; i++) {
        uint8_t isnull = src->cols[i].nulls[row];
        dst->cols[i].nulls[r] = isnull;
        dst->cols[i].data[r] = isnull ? src->cols[i].data[row]
                                      : wdatum_copy(dst->arena, dst->types[i], src->cols[i].data[row]);
    }
    return r;
}
