/* replicate_rows.h — the Correlate of $REPLICATE_ROWS$1 (INTERSECT ALL / EXCEPT ALL); see
   replicate_rows.c. */
#ifndef WEIR_EXEC_REPLICATE_ROWS_H
#define WEIR_EXEC_REPLICATE_ROWS_H

#include "operator.h"

/* Input: a BIGINT count then n columns; output: the input columns then the n columns again
   (ncols = 1 + 2n), each input row `count` times. */
WOperator *wop_replicate_rows_new(WExecCtx *ctx, int ncols, const WType **types, const char **names);

#endif
