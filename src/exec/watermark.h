/* watermark.h — the WatermarkAssigner operator; see watermark.c. */
#ifndef WEIR_EXEC_WATERMARK_H
#define WEIR_EXEC_WATERMARK_H

#include "operator.h"

/* rowtime_col: the rowtime column (rows not after the pending watermark cut the chunk), -1 none */
WOperator *wop_watermark_new(WExecCtx *ctx, WExpr *expr, int rowtime_col, int ncols, const WType **types,
                             const char **names);

#endif
