/* correlate.h — the Correlate operator of UNNEST ($UNNEST_ROWS$1); see correlate.c. */
#ifndef WEIR_EXEC_CORRELATE_H
#define WEIR_EXEC_CORRELATE_H

#include "operator.h"

typedef struct WCorrelateSpec {
    int in_ncols;
    const WType **in_types;
    int nleft;                  /* leading input columns copied to the output (0: standalone UNNEST) */
    const WExpr *collection;    /* ARRAY / MULTISET / MAP expression over the input */
    bool ordinality;            /* WITH ORDINALITY: a 1-based INT column after the element's */
    bool left_join;             /* LEFT JOIN ... ON TRUE: an empty/NULL collection gives one NULL-padded row */
    const WExpr *cond;          /* NULL, or a filter over the function's columns ($0 = its first) */
    int ncols;                  /* output: nleft + the function's columns */
    const WType **types;
    const char **names;
} WCorrelateSpec;

WOperator *wop_correlate_new(WExecCtx *ctx, const WCorrelateSpec *spec);

#endif
