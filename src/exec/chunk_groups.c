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
