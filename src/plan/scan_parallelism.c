/* scan_parallelism.c — 'scan.parallelism' of a table scan (contract in scan_parallelism.h). */
#include "scan_parallelism.h"
#include <assert.h>
#include <string.h>

int wscan_parallelism(const WRel *r)
{
    if (!r || r->kind != WR_SCAN || !r->table) return 0;
    int64_t v = 0;
    WError tmp;
    werr_clear(&tmp);
    if (!wopts_get_long(&r->table->options, "scan.parallelism", 0, &v, &tmp)) return 0;
    return v > 0 && v <= 32768 ? (int)v : 0;
}

bool wscan_keyed_by_pk(const WRel *r)
{
    if (wscan_parallelism(r) <= 0) return false;
    assert(r->table);
    return (r->changelog & ~WCM_INSERT) != 0 && r->table->npk > 0;
}

int wscan_pk_out_cols(const WRel *r, int *keys)
{
    assert(r && r->kind == WR_SCAN && r->table);
    for (int k = 0; k < r->table->npk; k++) {
        const char *name = r->table->cols[r->table->pk[k]].name;
        int found = -1;
        for (int c = 0; c < r->out.n && found < 0; c++)
            if (r->out.names[c] && !strcmp(r->out.names[c], name)) found = c;
        if (found < 0) return 0;
        keys[k] = found;
    }
    return r->table->npk;
}
