/* calc.h — the Calc operator (filter + projection); see calc.c. */
#ifndef WEIR_EXEC_CALC_H
#define WEIR_EXEC_CALC_H

#include "operator.h"

WOperator *wop_calc_new(WExecCtx *ctx, int in_ncols, const WType **in_types, int nexprs, WExpr **exprs,
                        WExpr *cond, const WType **out_types, const char **out_names);

#endif
