/*
 * join_inputs.h — the two inputs of the time-bounded joins (windowed.h: IntervalJoin, WindowJoin,
 * TemporalJoin) as each operator holds them: an input's column count and types, its equi-key
 * columns, and the identity column list that encodes a whole row (types/row.h), plus the types
 * of the joined row (left columns, then right). Copies of the spec's arrays, so the spec need not
 * outlive the operator. Depends on types/.
 */
#ifndef WEIR_EXEC_JOIN_INPUTS_H
#define WEIR_EXEC_JOIN_INPUTS_H

#include "../types/type.h"

typedef struct WJoinInput {
    int ncols;
    const WType **types;
    int *keys;                      /* the join's nkeys equi-key columns of this input */
    int *all;                       /* 0..ncols-1 */
} WJoinInput;

/* left and right set up (nkeys keys each); returns the joined row's types, left ++ right, which
   the caller frees. */
const WType **wjoin_inputs_init(WJoinInput *left, WJoinInput *right, int nkeys, int left_ncols,
                                const WType **left_types, const int *left_keys, int right_ncols,
                                const WType **right_types, const int *right_keys);
void wjoin_input_free(WJoinInput *in);

#endif
