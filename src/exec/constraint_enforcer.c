/*
 * constraint_enforcer.c — NOT NULL enforcement before a sink (Flink's ConstraintEnforcer), see
 * constraint_enforcer.h.
 * May call types/, common/.
 */
#include "constraint_enforcer.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool wnotnull_init(WNotNullEnforcer *e, int ncols, const WType **types, const char **names,
                   const WOptions *config, WError *err)
{
    memset(e, 0, sizeof *e);
    const char *mode = config ? wopts_get(config, "table.exec.sink.not-null-enforcer") : NULL;
    if (mode && strcasecmp(mode, "ERROR") != 0 && strcasecmp(mode, "DROP") != 0)
        return werr_set(err, WEXC_ILLEGAL_ARG,
                        "Could not parse value for enum class "
                        "org.apache.flink.table.api.config.ExecutionConfigOptions$NotNullEnforcer. "
                        "Expected one of: [[ERROR, DROP]]");
    e->drop = mode && !strcasecmp(mode, "DROP");
    e->names = names;
    e->cols = wmalloc(sizeof(int) * (size_t)(ncols ? ncols : 1));
    for (int i = 0; i < ncols; i++)
        if (types[i] && !types[i]->nullable) e->cols[e->ncols++] = i;
    return true;
}

void wnotnull_free(WNotNullEnforcer *e)
{
    free(e->cols);
    if (e->kept) wchunk_free(e->kept);
    memset(e, 0, sizeof *e);
}

/* The first NOT NULL column holding a NULL in row r, -1 = none. */
static int null_col(const WNotNullEnforcer *e, const WChunk *in, int r)
{
    for (int k = 0; k < e->ncols; k++)
        if (in->cols[e->cols[k]].nulls[r]) return e->cols[k];
    return -1;
}

const WChunk *wnotnull_apply(WNotNullEnforcer *e, const WChunk *in, bool *fail, WError *err)
{
    *fail = false;
    if (!e->ncols) return in;
    int first = -1, col = -1;
    for (int r = 0; r < in->nrows && first < 0; r++)
        if ((col = null_col(e, in, r)) >= 0) first = r;
    if (first < 0) return in;
    if (!e->kept || e->kept->cap < in->nrows) {
        if (e->kept) wchunk_free(e->kept);
        e->kept = wchunk_new(in->ncols, in->types, in->cap > in->nrows ? in->cap : in->nrows);
    }
    WChunk *k = e->kept;
    k->nrows = 0;
    int upto = in->nrows;
    if (!e->drop) {
        *fail = true;
        werr_set(err, WEXC_ENFORCER,
                 "Column '%s' is NOT NULL, however, a null value is being written into it. You can set job "
                 "configuration 'table.exec.sink.not-null-enforcer'='DROP' to suppress this exception and "
                 "drop such records silently.",
                 e->names && e->names[col] ? e->names[col] : "?");
        upto = first;
    }
    for (int r = 0; r < upto; r++) {
        if (e->drop && null_col(e, in, r) >= 0) {
            e->dropped++;
            continue;
        }
        int at = k->nrows++;               /* shallow: `in` outlives the write */
        k->kinds[at] = in->kinds[r];
        for (int c = 0; c < in->ncols; c++) {
            k->cols[c].data[at] = in->cols[c].data[r];
            k->cols[c].nulls[at] = in->cols[c].nulls[r];
        }
    }
    return k->nrows ? k : NULL;
}
