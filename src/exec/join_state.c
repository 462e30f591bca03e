/*
 * join_state.c — record state views of the regular join (see join_state.h). Only keyed state
 * (state.h) holds records; this file owns their byte layout. Calls state/, common/.
 */
#include "join_state.h"
#include "../state/prefetch.h"

#include <stdlib.h>
#include <string.h>

static void put_i32(unsigned char *p, int32_t v)
{
    uint32_t u = (uint32_t)v;
    p[0] = (unsigned char)u;
    p[1] = (unsigned char)(u >> 8);
    p[2] = (unsigned char)(u >> 16);
    p[3] = (unsigned char)(u >> 24);
}

static int32_t get_i32(const void *q)
{
    const unsigned char *p = q;
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

void wjview_init(WJoinView *v, WStateBackend *b, const char *name, WJoinViewKind kind, bool outer,
                 int64_t ttl_ms)
{
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->outer = outer;
    v->st = wstate_register(b, name, kind == WJV_JOINKEY_CONTAINS_UK ? WSTATE_VALUE : WSTATE_MAP,
                            ttl_ms > 0 ? ttl_ms : 0);
    wsb_init(&v->tmp);
}

void wjview_free(WJoinView *v)
{
    wsb_free(&v->tmp);
    free(v->ents);
    v->ents = NULL;
    v->cap = 0;
}

/* tmp = row [++ int32 assoc] */
static const void *row_value(WJoinView *v, const void *row, size_t rowlen, int32_t assoc, size_t *len)
{
    if (!v->outer) { *len = rowlen; return row; }
    wsb_clear(&v->tmp);
    wsb_reserve(&v->tmp, rowlen + 4);
    memcpy(v->tmp.buf, row, rowlen);
    put_i32((unsigned char *)v->tmp.buf + rowlen, assoc);
    v->tmp.len = rowlen + 4;
    *len = rowlen + 4;
    return v->tmp.buf;
}

static void count_lookup(WJoinView *v, WStateLookup how)
{
    if (how == WSL_EXPIRED) v->expired++;
}

/* A NO_UK view's record, looked up by its hash (rowhash NULL: hashed here). */
static WStateLookup record_ref(WJoinView *v, const void *row, size_t rowlen, const uint64_t *rowhash,
                               WMapRef *ref)
{
    WStateLookup how = rowhash ? wmap_ref_hashed(v->st, row, rowlen, *rowhash, ref)
                               : wmap_ref(v->st, row, rowlen, ref);
    count_lookup(v, how);
    if (ref->key_entries >= 0) v->rows_per_lookup += ((double)ref->key_entries - v->rows_per_lookup) / 256.0;
    return how;
}

bool wjview_reads_ahead(const WJoinView *v)
{
    return v->kind == WJV_NO_UK && wmap_outgrows_cache(v->st, v->rows_per_lookup);
}

static void view_add(WJoinView *v, const void *row, size_t rowlen, const uint64_t *rowhash,
                     const void *uk, size_t uklen, int32_t assoc)
{
    size_t len;
    const void *val;
    switch (v->kind) {
    case WJV_JOINKEY_CONTAINS_UK:
        val = row_value(v, row, rowlen, assoc, &len);
        wvalue_put(v->st, val, len);
        break;
    case WJV_HAS_UK:
        val = row_value(v, row, rowlen, assoc, &len);
        wmap_put(v->st, uk, uklen, val, len);
        break;
    case WJV_NO_UK: {
        WMapRef ref;            /* one lookup for the read and the write */
        WStateLookup how = record_ref(v, row, rowlen, rowhash, &ref);
        int32_t cnt = 1;
        if (how == WSL_FOUND && ref.cur.len >= 4) cnt = get_i32(ref.cur.p) + 1;
        unsigned char b[8];
        put_i32(b, cnt);
        put_i32(b + 4, assoc);
        wmap_ref_put(&ref, b, v->outer ? 8 : 4);
        break;
    }
    }
}

void wjview_add(WJoinView *v, const void *row, size_t rowlen, const void *uk, size_t uklen, int32_t assoc)
{
    view_add(v, row, rowlen, NULL, uk, uklen, assoc);
}

void wjview_add_hashed(WJoinView *v, const void *row, size_t rowlen, uint64_t rowhash, const void *uk,
                       size_t uklen, int32_t assoc)
{
    view_add(v, row, rowlen, &rowhash, uk, uklen, assoc);
}

static void view_retract(WJoinView *v, const void *row, size_t rowlen, const uint64_t *rowhash,
                         const void *uk, size_t uklen)
{
    switch (v->kind) {
    case WJV_JOINKEY_CONTAINS_UK:
        /* as Flink: clear without checking the stored row */
        wvalue_clear(v->st);
        break;
    case WJV_HAS_UK: {
        WMapRef ref;
        WStateLookup how = wmap_ref(v->st, uk, uklen, &ref);
        count_lookup(v, how);
        if (how == WSL_FOUND) wmap_ref_remove(&ref);
        else v->unknown_retracts++;
        break;
    }
    case WJV_NO_UK: {
        WMapRef ref;
        WStateLookup how = record_ref(v, row, rowlen, rowhash, &ref);
        if (how != WSL_FOUND || ref.cur.len < 4) { v->unknown_retracts++; break; }
        int32_t cnt = get_i32(ref.cur.p);
        if (cnt > 1) {
            unsigned char b[8] = {0};
            memcpy(b, ref.cur.p, ref.cur.len >= 8 ? 8 : 4);
            put_i32(b, cnt - 1);
            wmap_ref_put(&ref, b, v->outer ? 8 : 4);
        } else {
            wmap_ref_remove(&ref);
        }
        break;
    }
    }
}

void wjview_retract(WJoinView *v, const void *row, size_t rowlen, const void *uk, size_t uklen)
{
    view_retract(v, row, rowlen, NULL, uk, uklen);
}

void wjview_retract_hashed(WJoinView *v, const void *row, size_t rowlen, uint64_t rowhash, const void *uk,
                           size_t uklen)
{
    view_retract(v, row, rowlen, &rowhash, uk, uklen);
}

bool wjview_has_uk(WJoinView *v, const void *uk, size_t uklen)
{
    if (v->kind != WJV_HAS_UK) return false;
    WBytes old;
    WStateLookup how = wmap_get(v->st, uk, uklen, &old);
    count_lookup(v, how);
    return how == WSL_FOUND;
}

void wjview_update_assoc(WJoinView *v, const WJoinEntry *e, int32_t assoc)
{
    if (!v->outer) return;
    size_t len;
    const void *val;
    switch (v->kind) {
    case WJV_JOINKEY_CONTAINS_UK:
        val = row_value(v, e->row, e->rowlen, assoc, &len);
        wvalue_put(v->st, val, len);
        break;
    case WJV_HAS_UK:
        val = row_value(v, e->row, e->rowlen, assoc, &len);
        wmap_put(v->st, e->id, e->idlen, val, len);
        break;
    case WJV_NO_UK: {
        WMapRef ref;
        WStateLookup how = wmap_ref(v->st, e->id, e->idlen, &ref);
        count_lookup(v, how);
        int32_t cnt = (how == WSL_FOUND && ref.cur.len >= 4) ? get_i32(ref.cur.p) : 1; /* expired: (1, n) as Flink */
        unsigned char b[8];
        put_i32(b, cnt);
        put_i32(b + 4, assoc);
        wmap_ref_put(&ref, b, 8);
        break;
    }
    }
}

int32_t wjview_assoc(WJoinView *v, const WJoinEntry *e)
{
    if (!v->outer) return e->assoc;
    WBytes b;
    WStateLookup how;
    switch (v->kind) {
    case WJV_JOINKEY_CONTAINS_UK:
        how = wvalue_get(v->st, &b);
        count_lookup(v, how);
        return how == WSL_FOUND && b.len >= 4 ? get_i32((const unsigned char *)b.p + b.len - 4) : e->assoc;
    case WJV_HAS_UK:
        how = wmap_get(v->st, e->id, e->idlen, &b);
        count_lookup(v, how);
        return how == WSL_FOUND && b.len >= 4 ? get_i32((const unsigned char *)b.p + b.len - 4) : e->assoc;
    case WJV_NO_UK:
        how = wmap_get(v->st, e->id, e->idlen, &b);
        count_lookup(v, how);
        return how == WSL_FOUND && b.len >= 8 ? get_i32((const unsigned char *)b.p + 4) : e->assoc;
    }
    return e->assoc;
}

static WJoinEntry *next_slot(WJoinView *v, int n)
{
    if (n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 16;
        v->ents = wrealloc(v->ents, sizeof(WJoinEntry) * (size_t)v->cap);
    }
    return &v->ents[n];
}

int wjview_collect(WJoinView *v, WArena *a, WJoinEntry **out)
{
    int n = 0;
    if (v->kind == WJV_JOINKEY_CONTAINS_UK) {
        WBytes b;
        WStateLookup how = wvalue_get(v->st, &b);
        count_lookup(v, how);
        if (how == WSL_FOUND && b.len >= (v->outer ? 4u : 0u)) {
            WJoinEntry *e = next_slot(v, n++);
            size_t rl = v->outer ? b.len - 4 : b.len;
            e->id = NULL;
            e->idlen = 0;
            e->row = wa_memdup(a, b.p, rl ? rl : 1);
            e->rowlen = rl;
            e->count = 1;
            e->assoc = v->outer ? get_i32((const unsigned char *)b.p + rl) : -1;
        }
        *out = v->ents;
        return n;
    }
    WMapIter it;
    WBytes uk, uv;
    wmap_iter(v->st, &it);
    while (wmap_next(&it, &uk, &uv)) {
        WJoinEntry *e = next_slot(v, n++);
        if (v->kind == WJV_HAS_UK) {
            size_t rl = v->outer && uv.len >= 4 ? uv.len - 4 : uv.len;
            e->id = wa_memdup(a, uk.p, uk.len ? uk.len : 1);
            e->idlen = uk.len;
            e->row = wa_memdup(a, uv.p, rl ? rl : 1);
            e->rowlen = rl;
            e->count = 1;
            e->assoc = v->outer && uv.len >= 4 ? get_i32((const unsigned char *)uv.p + rl) : -1;
        } else {
            e->row = e->id = wa_memdup(a, uk.p, uk.len ? uk.len : 1);
            e->rowlen = e->idlen = uk.len;
            e->count = uv.len >= 4 ? get_i32(uv.p) : 1;
            e->assoc = v->outer && uv.len >= 8 ? get_i32((const unsigned char *)uv.p + 4) : -1;
        }
    }
    *out = v->ents;
    return n;
}
