/*
 * join_inputs.c — the time-bounded joins' inputs, see join_inputs.h.
 * May call types/, common/.
 */
#include "join_inputs.h"
#include "../common/arena.h"

#include <stdlib.h>
#include <string.h>

static void input_init(WJoinInput *s, int ncols, const WType **types, int nkeys, const int *keys)
{
    s->ncols = ncols;
    s->types = wmalloc(sizeof *s->types * (size_t)(ncols ? ncols : 1));
    memcpy(s->types, types, sizeof *s->types * (size_t)ncols);
    s->keys = wmalloc(sizeof *s->keys * (size_t)(nkeys ? nkeys : 1));
    if (nkeys) memcpy(s->keys, keys, sizeof *s->keys * (size_t)nkeys);
    s->all = wmalloc(sizeof *s->all * (size_t)(ncols ? ncols : 1));
    for (int i = 0; i < ncols; i++) s->all[i] = i;
}

const WType **wjoin_inputs_init(WJoinInput *left, WJoinInput *right, int nkeys, int left_ncols,
                                const WType **left_types, const int *left_keys, int right_ncols,
                                const WType **right_types, const int *right_keys)
{
    input_init(left, left_ncols, left_types, nkeys, left_keys);
    input_init(right, right_ncols, right_types, nkeys, right_keys);
    int nj = left_ncols + right_ncols;
    const WType **jtypes = wmalloc(sizeof *jtypes * (size_t)(nj ? nj : 1));
    for (int i = 0; i < left_ncols; i++) jtypes[i] = left_types[i];
    for (int i = 0; i < right_ncols; i++) jtypes[left_ncols + i] = right_types[i];
    return jtypes;
}

void wjoin_input_free(WJoinInput *in)
{
    free(in->keys);
    free(in->all);
    free(in->types);
}
