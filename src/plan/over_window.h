/*
 * over_window.h — the windows of a batch OverAggregate (Flink's BatchPhysicalOverAggregate):
 * partition keys in WRel.keys, order keys in WRel.sort_cols / sort_desc / sort_nulls_first, and
 * per frame (Flink's window#i) the calls evaluated over it. The binder (bind_over.c) builds them,
 * the batch over rules (over_rules.c) plan the Sort below, EXPLAIN prints them (digest.c) and the
 * runtime evaluates them (exec/over_batch.c). Everything lives in the statement's arena.
 * Depends on plan.h.
 */
#ifndef WEIR_PLAN_OVER_WINDOW_H
#define WEIR_PLAN_OVER_WINDOW_H

#include "plan.h"

typedef enum WOverFn {
    WOF_AGG,                /* an aggregate function over the frame (WOverCall.agg) */
    WOF_ROW_NUMBER, WOF_RANK, WOF_DENSE_RANK, WOF_PERCENT_RANK, WOF_CUME_DIST, WOF_NTILE,
    WOF_LAG, WOF_LEAD
} WOverFn;

typedef enum WOverBoundKind {
    WOB_UNBOUNDED_PRECEDING, WOB_PRECEDING, WOB_CURRENT_ROW, WOB_FOLLOWING, WOB_UNBOUNDED_FOLLOWING
} WOverBoundKind;

typedef struct WOverBound {
    WOverBoundKind kind;
    double offset;          /* n PRECEDING / FOLLOWING: rows (ROWS) or order-key units (RANGE;
                               milliseconds for intervals, days * 86400000 for DATE keys too) */
    const WExpr *lit;       /* the offset literal (EXPLAIN prints it), NULL for other kinds */
} WOverBound;

typedef struct WOverCall {
    WOverFn fn;
    WAggCall agg;           /* WOF_AGG: the aggregate (argument columns of the node's input) */
    int arg;                /* LAG / LEAD: value column, -1 when none */
    int64_t n;              /* LAG / LEAD: offset (default 1); NTILE: number of buckets */
    int default_col;        /* LAG / LEAD: default value column (of the value's type), -1 none */
    const WType *type;      /* result type */
    const char *name;       /* output column name: w<window>$o<call> */
    const char *args_text;  /* arguments as EXPLAIN prints them, e.g. "v, 2" ("*" when none) */
} WOverCall;

typedef struct WOverWindow {
    bool rows;              /* ROWS frame, else RANGE */
    WOverBound lower, upper;
    int ncalls;
    WOverCall *calls;
} WOverWindow;

/* A batch OverAggregate's output is its input's columns then every window's calls, in order. */
typedef struct WOverSpec {
    int nwindows;
    WOverWindow *windows;
} WOverSpec;

/* The function name Flink prints for a call (ROW_NUMBER, RANK, LAG, COUNT, $SUM0, ...). */
const char *wover_fn_name(const WOverCall *c);

#endif
