/*
 * expr.h — bound, typed expressions and their vectorised evaluation.
 *
 * Contract: a WExpr is produced by the binder (plan/) from the syntax tree: names are resolved to
 * input column indexes, every node has its result type, implicit casts are explicit WX_CAST nodes,
 * and function calls point at a WFuncDef from the library (functions.h). wexpr_eval evaluates a
 * tree over the rows of a chunk a vector at a time, honouring an optional `active` row mask (rows
 * with active[i] == 0 need not be computed; their output is unspecified), which is how CASE,
 * COALESCE, AND/OR and IF avoid raising errors for rows whose branch is not taken. Results are
 * written into `out` (data/nulls sized for the chunk) and variable bytes go to the eval arena.
 * A runtime error (cast failure, division by zero for DECIMAL, ...) sets ctx->err and evaluation
 * stops. Depends on types/, common/.
 */
#ifndef WEIR_EXPR_EXPR_H
#define WEIR_EXPR_EXPR_H

#include <stdbool.h>
#include <stdint.h>
#include "../types/type.h"
#include "../types/value.h"
#include "../types/chunk.h"
#include "../types/cast.h"
#include "../types/datetime.h"
#include "../common/error.h"

typedef struct WExpr WExpr;
typedef struct WFuncDef WFuncDef;

typedef enum WExprKind {
    WX_COLUMN,      /* input column `col` */
    WX_LITERAL,     /* constant `lit` (is_null for NULL) */
    WX_CALL,        /* func(args) */
    WX_CAST,        /* args[0] cast to type (try_cast: failure gives NULL) */
    WX_CASE,        /* args: cond1, val1, cond2, val2, ..., [else]; has_else tells */
    WX_AND,         /* n-ary, three-valued */
    WX_OR,          /* n-ary, three-valued */
    WX_NOT,
    WX_IS_NULL,     /* args[0] IS NULL (negated: IS NOT NULL) */
    WX_IN,          /* args[0] IN (args[1..]) with SQL's null rules (negated: NOT IN) */
    WX_COALESCE,    /* lazy: evaluates later args only for rows still NULL */
    WX_PROCTIME     /* PROCTIME(): the wall clock at evaluation, TIMESTAMP_LTZ(3) */
} WExprKind;

struct WExpr {
    WExprKind kind;
    const WType *type;
    int col;                    /* WX_COLUMN */
    WDatum lit;                 /* WX_LITERAL */
    bool is_null;               /* WX_LITERAL */
    const WFuncDef *func;       /* WX_CALL */
    int nargs;
    WExpr **args;
    bool try_cast;              /* WX_CAST */
    bool explicit_cast;         /* WX_CAST: written in the query (CAST / TRY_CAST), not implied */
    bool has_else;              /* WX_CASE */
    bool negated;               /* WX_IS_NULL, WX_IN */
    void *aux;                  /* per-call data prepared at bind time (e.g. compiled regex, LIKE
                                   pattern when constant); owned by the plan arena */
    const char *name;           /* display name (column name or function name), for plans */
};

/* Evaluation context shared by a whole operator. */
typedef struct WEvalCtx {
    WArena *arena;              /* result bytes (strings) and scratch; reset per chunk by the caller */
    WCastCtx cast;              /* time zone etc. */
    int64_t now_ms;             /* statement/query start for CURRENT_TIMESTAMP (streaming: per record
                                   in Flink; weir uses per chunk) */
    WError *err;
    bool has_watermark;         /* CURRENT_WATERMARK: the evaluating operator's watermark (ms), */
    int64_t watermark;          /* when it has received one (else NULL) */
    int64_t (*clock)(void *);   /* PROCTIME(): the job's processing-time clock (common/proc_clock.h); */
    void *clock_ctx;            /* NULL = the wall clock */
} WEvalCtx;

/* Evaluate e over chunk rows [0, in->nrows); writes into out (type e->type). out->data and
   out->nulls must have room for in->nrows entries. */
bool wexpr_eval(WEvalCtx *ctx, const WExpr *e, const WChunk *in, const uint8_t *active, WVector *out);
/* Evaluate a predicate and AND it into `sel` (sel[i] = 1 keeps row i; NULL counts as false). */
bool wexpr_filter(WEvalCtx *ctx, const WExpr *e, const WChunk *in, uint8_t *sel);
/* Evaluate a constant expression (no column references). */
bool wexpr_eval_const(WEvalCtx *ctx, const WExpr *e, WDatum *out, bool *is_null);
bool wexpr_is_const(const WExpr *e);

/* Constructors (arena). */
WExpr *wexpr_column(WArena *a, int col, const WType *t, const char *name);
WExpr *wexpr_literal(WArena *a, const WType *t, WDatum v, bool is_null);
WExpr *wexpr_new(WArena *a, WExprKind kind, const WType *t, int nargs);

#endif
