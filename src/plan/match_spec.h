/*
 * match_spec.h — a bound MATCH_RECOGNIZE (ONE ROW PER MATCH), as the WR_MATCH plan node carries
 * it (plan.h: `match`) and the Match operator (exec/match.c) runs it.
 *
 * Contract: plain data in the plan arena, built by bind_match.c. The pattern is a sequence of
 * variables, each with a quantifier (Flink's CEP compiles only such patterns; grouping,
 * alternation and PERMUTE are refused while binding). DEFINE conditions and MEASURES are
 * "programs": an ordinary expression (expr.h) over the columns of a one-row chunk whose column k
 * is the value of navigation reference refs[k] (a pattern column of some row of the match, an
 * aggregate over the rows of a variable, MATCH_ROWTIME(), MATCH_PROCTIME()). The reference texts
 * for EXPLAIN are kept here too (Calcite's RexNode digests). Depends on expr/expr.h, plan.h's
 * WAggKind.
 */
#ifndef WEIR_PLAN_MATCH_SPEC_H
#define WEIR_PLAN_MATCH_SPEC_H

#include <stdbool.h>
#include <stdint.h>
#include "../expr/expr.h"
#include "plan.h"

#define WMATCH_MAX_VARS 64

typedef enum WMatchAfter {
    WMA_PAST_LAST_ROW, WMA_TO_NEXT_ROW, WMA_TO_FIRST, WMA_TO_LAST
} WMatchAfter;

typedef struct WMatchElem {
    int var;                    /* index into vars */
    int min, max;               /* max -1: unbounded */
    bool greedy;                /* Flink's CEP greedy property (a looping or {n,m} quantifier
                                   written without ?) */
    bool quantified;            /* written with a quantifier */
    bool reluctant;             /* written with a trailing ? */
} WMatchElem;

typedef enum WMatchRefKind {
    WMR_FIELD,                  /* column `col` of one row of the variables in `vars` */
    WMR_AGG,                    /* aggregate `agg` of column `col` (-1: COUNT(*)) over their rows */
    WMR_ROWTIME,                /* MATCH_ROWTIME(): the time of the row that completed the match */
    WMR_PROCTIME                /* MATCH_PROCTIME() */
} WMatchRefKind;

typedef struct WMatchRef {
    WMatchRefKind kind;
    uint64_t vars;              /* bit i = variable i; all bits = the universal variable * */
    bool all;                   /* the universal pattern variable (*) */
    int col;                    /* input column */
    bool first;                 /* FIRST(...): count from the first row (else from the last) */
    int offset;
    int agg;                    /* WAggKind */
    const WType *type;          /* the reference's value type */
    const char *text;           /* digest: PREV(A.$1, 0), LAST(A.price, 1), SUM(A.$2), ... */
} WMatchRef;

typedef struct WMatchProg {
    WExpr *expr;                /* over columns 0..nrefs-1 = the references' values */
    int nrefs;
    WMatchRef *refs;
} WMatchProg;

typedef struct WMatchSpec {
    int nvars;
    const char **vars;          /* pattern variables in pattern order */
    int nelems;
    WMatchElem *elems;          /* the pattern: one element per variable, in order */
    WMatchProg **define;        /* per variable: its condition, NULL = always true */
    int ndefine_order;          /* DEFINE as written (digest order) */
    int *define_order;          /* variable indexes */
    int nmeasures;
    const char **measure_names;
    WMatchProg *measures;
    WMatchAfter after;
    int after_var;              /* TO FIRST / TO LAST: variable index */
    int64_t within_ms;          /* WITHIN interval, 0 = none */
    bool has_within;
    int time_col;               /* the first ORDER BY key (a time attribute) */
    bool proctime;              /* ordered by a processing-time attribute */
    int nsubsets;
    const char **subset_names;
    uint64_t *subset_vars;
    const char *pattern_text;   /* digest: (PATTERN_QUANTIFIER(_UTF-16LE'A', 1, -1, false), _UTF-16LE'B') */
} WMatchSpec;

#endif
