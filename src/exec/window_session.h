/*
 * window_session.h — session windows (exec/ internal, not a module contract): the SESSION window
 * TVF (Flink UnalignedWindowTableFunctionOperator) and the session window aggregate (Flink
 * UnsliceWindowAggProcessor for TVF sessions, WindowOperator with a MergingWindowSet for legacy
 * GROUP BY SESSION). wop_window_tvf_new / wop_window_agg_new hand SESSION definitions here.
 * Depends on windowed.h.
 */
#ifndef WEIR_EXEC_WINDOW_SESSION_H
#define WEIR_EXEC_WINDOW_SESSION_H

#include "windowed.h"

WOperator *wop_session_tvf_new(WExecCtx *ctx, const WWindowTvfSpec *spec);
WOperator *wop_session_agg_new(WExecCtx *ctx, const WWindowAggSpec *spec);

#endif
