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

/* The common subexpressions of one operator's expressions (a Calc's condition and projections:
   wexpr_memo_plan), each evaluated at most once per chunk row: the deterministic subtrees that occur
   more than once (wexpr_equal) share a slot, whose values and computed rows eval.c keeps for the
   chunk (wexpr_memo_begin) and reuses for rows already computed. A lazy context (CASE, COALESCE,
   AND / OR short-circuits) computes only its active rows, as without the memo. */
typedef struct WExprMemo {
    int nocc;                   /* occurrences that share a slot, and the slot of each */
    const WExpr **occ;
    int *slot_of;
    int nslots;
    WVector **vals;             /* per slot, this chunk's values (NULL: none computed yet) */
    uint8_t **done;             /* per slot, the rows computed */
    int nrows;                  /* this chunk's rows */
} WExprMemo;
/* Plans m over the roots (memory from a); false when nothing occurs twice. */
bool wexpr_memo_plan(WExprMemo *m, WArena *a, WExpr *const *roots, int nroots);
int wexpr_memo_slot(const WExprMemo *m, const WExpr *e);   /* -1: not shared */
/* A new chunk of nrows rows (its values come from the evaluating context's arena). */
void wexpr_memo_begin(WExprMemo *m, int nrows);
/* The chunk was reduced to its rows with sel[i] != 0 (in order), as wchunk_gather does. */
void wexpr_memo_gather(WExprMemo *m, const uint8_t *sel);
/* Structurally equal (kind, type, function, arguments, literals). */
bool wexpr_equal(const WExpr *x, const WExpr *y);

/* Literal arguments broadcast once for an operator's lifetime instead of once per chunk: each
   literal met as a call's argument gets a vector of its value for up to `rows` rows, kept across
   chunks and read only (as an input column's vector is). Set in the context by an operator that
   evaluates with one context on one thread (Calc); up to WCONST_VECS_MAX literals, the rest are
   broadcast per chunk. Zero-initialised = empty. */
#define WCONST_VECS_MAX 64
typedef struct WConstVecs {
    int n;
    const WExpr *expr[WCONST_VECS_MAX];
    WVector vec[WCONST_VECS_MAX];
    int rows[WCONST_VECS_MAX];           /* rows each vector holds */
} WConstVecs;
void wconst_vecs_free(WConstVecs *c);

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
    WExprMemo *memo;            /* NULL, or the evaluated expressions' memo, begun for this chunk */
    WConstVecs *consts;         /* NULL, or the operator's broadcast literals (WConstVecs) */
} WEvalCtx;

/* Evaluate e over chunk rows [0, in->nrows); writes into out (type e->type). out->data and
   out->nulls must have room for in->nrows entries. */
bool wexpr_eval(WEvalCtx *ctx, const WExpr *e, const WChunk *in, const uint8_t *active, WVector *out);
/* Evaluate a predicate and AND it into `sel` (sel[i] = 1 keeps row i; NULL counts as false). */
bool wexpr_filter(WEvalCtx *ctx, const WExpr *e, const WChunk *in, uint8_t *sel);
/* Evaluate a constant expression (no column references). */
bool wexpr_eval_const(WEvalCtx *ctx, const WExpr *e, WDatum *out, bool *is_null);
bool wexpr_is_const(const WExpr *e);
/* Set used[c] = 1 for every input column c < n that e reads (e may be NULL). */
void wexpr_mark_columns(const WExpr *e, uint8_t *used, int n);

/* Constructors (arena). */
WExpr *wexpr_column(WArena *a, int col, const WType *t, const char *name);
WExpr *wexpr_literal(WArena *a, const WType *t, WDatum v, bool is_null);
WExpr *wexpr_new(WArena *a, WExprKind kind, const WType *t, int nargs);

#endif
