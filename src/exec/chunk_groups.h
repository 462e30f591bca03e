/*
 * chunk_groups.h — the per-chunk grouping buffers the aggregate operators share (GroupAggregate,
 * LocalGroupAggregate, GlobalGroupAggregate, LocalWindowAggregate): an open-addressing table of
 * group indexes (power-of-two size >= 2 x rows, -1 = empty), one int per row (its group, or the
 * next row of its group), the groups' encoded keys, and a growable array of the operator's own
 * group records. Buffers are kept between chunks and only grow. Depends on common/.
 */
#ifndef WEIR_EXEC_CHUNK_GROUPS_H
#define WEIR_EXEC_CHUNK_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../common/strbuf.h"

/* The first member of a group record whose key is its encoded bytes (wcg_find_or_add): the key's
   hash and where its bytes are in kbytes. */
typedef struct WGroupKey {
    uint64_t hash;
    uint32_t koff, klen;
} WGroupKey;

typedef struct WChunkGroups {
    int32_t *table;             /* slots: group index or -1 */
    int tcap;
    void *groups;               /* group records of gsize bytes */
    size_t gsize;
    int ngroups, gcap;
    int32_t *rows;              /* per row */
    int rcap;
    WStrBuf kbytes;             /* encoded keys of this chunk's groups */
} WChunkGroups;

void wcg_init(WChunkGroups *cg, size_t group_size);
/* Ready for a chunk of nrows rows: table emptied, room for nrows groups and rows, no groups, no
   key bytes. Returns the group array (it may have moved). */
void *wcg_prepare(WChunkGroups *cg, int nrows);
void wcg_free(WChunkGroups *cg);
/* The group of key bytes key (hash h) in a table of records that start with a WGroupKey: found,
   or added — its WGroupKey filled, the key appended to kbytes, *added set; the caller fills the
   rest of the record. Returns the group index. */
int wcg_find_or_add(WChunkGroups *cg, const void *key, size_t klen, uint64_t h, bool *added);

#endif
