/* scan_parallelism.c — 'scan.parallelism' of a table scan (contract in scan_parallelism.h). */
#include "scan_parallelism.h"
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int wscan_parallelism(const WRel *r)
{
    const WTable *t = r && r->kind == WR_SCAN ? wrel_scan(r)->table : NULL;
    if (!t) return 0;
    int64_t v = 0;
    WError tmp;
    werr_clear(&tmp);
    if (!wopts_get_long(&t->options, "scan.parallelism", 0, &v, &tmp)) return 0;
    return v > 0 && v <= INT32_MAX ? (int)v : 0;
}

bool wscan_keyed_by_pk(const WRel *r)
{
    if (wscan_parallelism(r) <= 0) return false;
    const WTable *t = wrel_scan(r)->table;
    assert(t);
    return (r->changelog & ~WCM_INSERT) != 0 && t->npk > 0;
}

int wscan_pk_out_cols(const WRel *r, int *keys)
{
    const WTable *t = wrel_scan(r)->table;
    assert(t);
    for (int k = 0; k < t->npk; k++) {
        const char *name = t->cols[t->pk[k]].name;
        int found = -1;
        for (int c = 0; c < r->out.n && found < 0; c++)
            if (r->out.names[c] && !strcmp(r->out.names[c], name)) found = c;
        if (found < 0) return 0;
        keys[k] = found;
    }
    return t->npk;
}

static bool check_scans(const WRel *r, WError *err, int depth)
{
    if (depth > 4000) return true;      /* deeper than any plan the binder builds */
    const WRelScan *sc = r->kind == WR_SCAN ? wrel_scan(r) : NULL;
    if (sc && sc->table) {
        const char *v = wopts_get(&sc->table->options, "scan.parallelism");
        if (v) {
            char *end = NULL;
            errno = 0;
            long long n = strtoll(v, &end, 10);
            if (!*v || *end || errno == ERANGE || n < INT32_MIN || n > INT32_MAX)
                return werr_set(err, WEXC_NUMBER, "For input string: \"%s\"", v);
            if (n <= 0)
                return werr_set(err, WEXC_TABLE, "Invalid configured parallelism %lld for table '%s'.", n,
                                sc->table_qname ? sc->table_qname : sc->table->name);
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
