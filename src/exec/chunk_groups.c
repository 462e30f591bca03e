/*
 * chunk_groups.c — see chunk_groups.h.
 */
#include "chunk_groups.h"
#include "../common/arena.h"

#include <stdlib.h>
#include <string.h>

void wcg_init(WChunkGroups *cg, size_t group_size)
{
    memset(cg, 0, sizeof *cg);
    cg->gsize = group_size;
    wsb_init(&cg->kbytes);
}

void *wcg_prepare(WChunkGroups *cg, int nrows)
{
    int need = 16;
    while (need < nrows * 2) need *= 2;
    if (need > cg->tcap) {
        free(cg->table);
        cg->table = wmalloc(sizeof(int32_t) * (size_t)need);
        cg->tcap = need;
    }
    memset(cg->table, 0xff, sizeof(int32_t) * (size_t)cg->tcap);
    if (nrows > cg->gcap) {
        cg->gcap = nrows;
        cg->groups = wrealloc(cg->groups, cg->gsize * (size_t)nrows);
    }
    if (nrows > cg->rcap) {
        cg->rcap = nrows;
        cg->rows = wrealloc(cg->rows, sizeof(int32_t) * (size_t)nrows);
    }
    cg->ngroups = 0;
    wsb_clear(&cg->kbytes);
    return cg->groups;
}

void wcg_free(WChunkGroups *cg)
{
    free(cg->table);
    free(cg->groups);
    free(cg->rows);
    wsb_free(&cg->kbytes);
    memset(cg, 0, sizeof *cg);
}

int wcg_find_or_add(WChunkGroups *cg, const void *key, size_t klen, uint64_t h, bool *added)
{
    uint32_t mask = (uint32_t)cg->tcap - 1, i = (uint32_t)h & mask;
    for (;;) {
        int gi = cg->table[i];
        if (gi < 0) {
            gi = cg->ngroups++;
            WGroupKey *n = (WGroupKey *)((char *)cg->groups + (size_t)gi * cg->gsize);
            n->hash = h;
            n->koff = (uint32_t)cg->kbytes.len;
            n->klen = (uint32_t)klen;
            wsb_appendn(&cg->kbytes, key, klen);
            cg->table[i] = gi;
            *added = true;
            return gi;
        }
        const WGroupKey *o = (const WGroupKey *)((const char *)cg->groups + (size_t)gi * cg->gsize);
        if (o->hash == h && o->klen == klen && !memcmp(cg->kbytes.buf + o->koff, key, klen)) {
            *added = false;
            return gi;
        }
        i = (i + 1) & mask;
    }
}
