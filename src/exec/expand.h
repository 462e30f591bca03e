/* expand.h — the Expand operator (grouping sets); see expand.c. */
#ifndef WEIR_EXEC_EXPAND_H
#define WEIR_EXEC_EXPAND_H

#include "operator.h"

/* nproj projections of ncols output columns each: src[k * ncols + c] is the input column of output
   column c in projection k, -1 for NULL, -2 for the BIGINT literal ids[k]. The arrays must outlive
   the operator (plan arena). */
WOperator *wop_expand_new(WExecCtx *ctx, int nproj, const int *src, const int64_t *ids, int ncols,
                          const WType **types, const char **names);

#endif
