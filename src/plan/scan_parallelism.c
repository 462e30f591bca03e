/* scan_parallelism.c — 'scan.parallelism' of a table scan (contract in scan_parallelism.h). */
#include "scan_parallelism.h"
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int wscan_parallelism(const WRel *r)
{
    if (!r || r->kind != WR_SCAN || !r->table) return 0;
    int64_t v = 0;
    WError tmp;
    werr_clear(&tmp);
    if (!wopts_get_long(&r->table->options, "scan.parallelism", 0, &v, &tmp)) return 0;
    return v > 0 && v <= INT32_MAX ? (int)v : 0;
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

static bool check_scans(const WRel *r, WError *err, int depth)
{
    if (depth > 4000) return true;      /* deeper than any plan the binder builds */
    if (r->kind == WR_SCAN && r->table) {
        const char *v = wopts_get(&r->table->options, "scan.parallelism");
        if (v) {
            char *end = NULL;
            errno = 0;
            long long n = strtoll(v, &end, 10);
            if (!*v || *end || errno == ERANGE || n < INT32_MIN || n > INT32_MAX)
                return werr_set(err, WEXC_NUMBER, "For input string: \"%s\"", v);
            if (n <= 0)
                return werr_set(err, WEXC_TABLE, "Invalid configured parallelism %lld for table '%s'.", n,
                                r->table_qname ? r->table_qname : r->table->name);
        }
    }
    for (int i = 0; i < r->ninputs; i++)
        if (!check_scans(r->inputs[i], err, depth + 1)) return false;
    return true;
}

bool wscan_check_parallelism(const WRel *root, WError *err)
{
    return !root || check_scans(root, err, 0);
}
