/* acc_cache.c — GroupAggregate's decoded accumulators between chunks; see acc_cache.h. */
#include "acc_cache.h"
#include "../common/arena.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static bool is_bytes(const WType *t)
{
    return t->id == WT_CHAR || t->id == WT_VARCHAR || t->id == WT_BINARY || t->id == WT_VARBINARY;
}

bool wacc_cache_supports(int nkeys, const WType **ktypes, int nfields, const WType **ftypes)
{
    for (int k = 0; k < nkeys; k++)
        if (wtype_is_composite(ktypes[k])) return false;
    for (int f = 0; f < nfields; f++)
        if (wtype_is_composite(ftypes[f])) return false;
    return true;
}

void wacc_cache_init(WAccCache *c, int nkeys, const WType **ktypes, int nfields, const WType **ftypes,
                     size_t max)
{
    assert(wacc_cache_supports(nkeys, ktypes, nfields, ftypes) && max > 0);
    memset(c, 0, sizeof *c);
    c->nkeys = nkeys;
    c->ktypes = ktypes;
    c->nfields = nfields;
    c->ftypes = ftypes;
    c->max = max;
    c->str_fields = wmalloc(sizeof(int) * (size_t)(nfields ? nfields : 1));
    for (int f = 0; f < nfields; f++)
        if (is_bytes(ftypes[f])) c->str_fields[c->nstr++] = f;
    c->cap = 16;
    c->slots = wcalloc(c->cap, sizeof *c->slots);
}

/* Twice the slots (at most half full: short probes; sized to the entries, not to max, so that a
   few thousand keys' table stays in the CPU's caches). */
static void grow(WAccCache *c)
{
    size_t ncap = c->cap * 2, mask = ncap - 1;
    WAccCached **ns = wcalloc(ncap, sizeof *ns);
    for (size_t i = 0; i < c->cap; i++) {
        WAccCached *e = c->slots[i];
        if (!e) continue;
        size_t j = e->hash & mask;
        while (ns[j]) j = (j + 1) & mask;
        ns[j] = e;
    }
    free(c->slots);
    c->slots = ns;
    c->cap = ncap;
}

void wacc_cache_prefetch(const WAccCache *c, uint64_t h)
{
    const WAccCached *e = c->slots[h & (c->cap - 1)];
    if (!e) return;
    __builtin_prefetch(e);
    __builtin_prefetch((const char *)e + 64);      /* the rest of its allocation (wacc_cache_add): */
    __builtin_prefetch((const char *)e + 128);     /* key values, accumulators, key bytes */
}

static void entry_free(const WAccCache *c, WAccCached *e)
{
    for (int i = 0; i < c->nstr; i++) free(e->sbuf[c->str_fields[i]]);
    free(e);
}

void wacc_cache_clear(WAccCache *c)
{
    for (size_t i = 0; i < c->cap; i++) {
        if (c->slots[i]) entry_free(c, c->slots[i]);
        c->slots[i] = NULL;
    }
    c->n = 0;
}

void wacc_cache_free(WAccCache *c)
{
    if (!c->slots) return;
    wacc_cache_clear(c);
    free(c->slots);
    free(c->str_fields);
    memset(c, 0, sizeof *c);
}

WAccCached *wacc_cache_next_of(const WAccCache *c, uint64_t h, size_t *pos)
{
    size_t mask = c->cap - 1;
    for (size_t k = *pos; k < c->cap; k++) {
        WAccCached *e = c->slots[(h + k) & mask];
        if (!e) break;
        if (e->hash == h) {
            *pos = k + 1;
            return e;
        }
    }
    *pos = c->cap;
    return NULL;
}

/* One allocation: the entry, its key bytes, key values with their strings, the accumulators and
   the per-field string copies' pointers and capacities. */
WAccCached *wacc_cache_add(WAccCache *c, uint64_t h, uint64_t shash, const void *key, size_t klen,
                           const WDatum *kvals, const uint8_t *knulls, const WDatum *acc, const uint8_t *nulls)
{
    if (c->n >= c->max) return NULL;
    int nk = c->nkeys, nf = c->nfields;
    size_t kstr = 0;
    for (int k = 0; k < nk; k++)
        if (!knulls[k] && is_bytes(c->ktypes[k])) kstr += (size_t)kvals[k].s.len;
    size_t off_kvals = (sizeof(WAccCached) + 15) & ~(size_t)15;
    size_t off_acc = off_kvals + sizeof(WDatum) * (size_t)nk;
    size_t off_sbuf = off_acc + sizeof(WDatum) * (size_t)nf;
    size_t off_scap = off_sbuf + sizeof(char *) * (size_t)nf;
    size_t off_nulls = off_scap + sizeof(uint32_t) * (size_t)nf;
    size_t off_knulls = off_nulls + (size_t)nf;
    size_t off_key = off_knulls + (size_t)nk;
    size_t off_kstr = off_key + klen;
    unsigned char *m = wcalloc(1, off_kstr + kstr + 1);
    WAccCached *e = (WAccCached *)(void *)m;
    e->hash = h;
    e->shash = shash;
    e->klen = (uint32_t)klen;
    e->kvals = (WDatum *)(void *)(m + off_kvals);
    e->acc = (WDatum *)(void *)(m + off_acc);
    e->sbuf = (char **)(void *)(m + off_sbuf);
    e->scap = (uint32_t *)(void *)(m + off_scap);
    e->nulls = m + off_nulls;
    e->knulls = m + off_knulls;
    e->key = m + off_key;
    if (klen) memcpy(e->key, key, klen);
    unsigned char *ks = m + off_kstr;
    for (int k = 0; k < nk; k++) {
        e->knulls[k] = knulls[k];
        e->kvals[k] = kvals[k];
        if (!knulls[k] && is_bytes(c->ktypes[k]) && kvals[k].s.len > 0) {
            memcpy(ks, kvals[k].s.p, (size_t)kvals[k].s.len);
            e->kvals[k].s.p = (const char *)ks;
            ks += kvals[k].s.len;
        }
    }
    memcpy(e->acc, acc, sizeof(WDatum) * (size_t)nf);
    memcpy(e->nulls, nulls, (size_t)nf);
    wacc_cache_own(c, e);
    if (2 * (c->n + 1) > c->cap) grow(c);
    size_t mask = c->cap - 1, i = h & mask;
    while (c->slots[i]) i = (i + 1) & mask;
    c->slots[i] = e;
    c->n++;
    return e;
}

void wacc_cache_own(const WAccCache *c, WAccCached *e)
{
    for (int i = 0; i < c->nstr; i++) {
        int f = c->str_fields[i];
        if (e->nulls[f]) continue;
        WStr *s = &e->acc[f].s;
        if (s->len <= 0 || s->p == e->sbuf[f]) continue;
        if ((uint32_t)s->len > e->scap[f]) {
            free(e->sbuf[f]);
            e->scap[f] = (uint32_t)s->len < 16 ? 16 : (uint32_t)s->len;
            e->sbuf[f] = wmalloc(e->scap[f]);
        }
        memmove(e->sbuf[f], s->p, (size_t)s->len);
        s->p = e->sbuf[f];
    }
}

void wacc_cache_remove(WAccCache *c, WAccCached *e)
{
    size_t mask = c->cap - 1, i = e->hash & mask;
    while (c->slots[i] != e) {
        assert(c->slots[i]);
        i = (i + 1) & mask;
    }
    entry_free(c, e);
    c->slots[i] = NULL;
    c->n--;
    /* backward-shift deletion: the entries of the cluster after i that may move back do */
    for (size_t j = (i + 1) & mask; c->slots[j]; j = (j + 1) & mask) {
        size_t home = c->slots[j]->hash & mask;
        if ((i <= j) ? (home <= i || home > j) : (home <= i && home > j)) {
            c->slots[i] = c->slots[j];
            c->slots[j] = NULL;
            i = j;
        }
    }
}
