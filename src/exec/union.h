/* union.h — the Union operator; see union.c. */
#ifndef WEIR_EXEC_UNION_H
#define WEIR_EXEC_UNION_H

#include "operator.h"

WOperator *wop_union_new(WExecCtx *ctx, int ninputs, int ncols, const WType **types, const char **names);

#endif
