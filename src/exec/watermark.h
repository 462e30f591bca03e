/* watermark.h — the WatermarkAssigner operator; see watermark.c. */
#ifndef WEIR_EXEC_WATERMARK_H
#define WEIR_EXEC_WATERMARK_H

#include "operator.h"

WOperator *wop_watermark_new(WExecCtx *ctx, WExpr *expr, int ncols, const WType **types, const char **names);

#endif
