/*
 * functions.h — the scalar function library (arithmetic, comparison, string, numeric, time,
 * hashing), looked up by name as Flink's FunctionCatalog does (case-insensitive).
 *
 * Contract: each WFuncDef can (1) derive its result type from argument types with Flink's rules,
 * telling the binder which arguments to coerce (coerce[i] = target type, NULL to keep), or fail
 * with Flink's validation message; (2) evaluate a vector of rows. Operators are functions too:
 * "+", "-", "*", "/", "%", "||", "=", "<>", "<", "<=", ">", ">=", "NEG", "LIKE", "SIMILAR",
 * "BETWEEN" is rewritten by the binder; "IS DISTINCT FROM", "IS TRUE", ... have entries.
 * Unless a def sets `handles_nulls`, the evaluator gives NULL output for rows with any NULL input
 * and only calls eval for the others (the `active` mask has those rows cleared).
 * Depends on expr.h, types/, common/.
 */
#ifndef WEIR_EXPR_FUNCTIONS_H
#define WEIR_EXPR_FUNCTIONS_H

#include "expr.h"

struct WFuncDef {
    const char *name;               /* upper-case canonical name */
    int min_args, max_args;         /* max_args -1 = variadic */
    bool handles_nulls;             /* eval sees NULL inputs itself (e.g. CONCAT_WS, IS DISTINCT FROM) */
    bool deterministic;             /* false for RAND, CURRENT_TIMESTAMP, UUID ... */
    /* Derive the result type. args[i] are the argument types (WT_NULL for an untyped NULL
       literal); set coerce[i] to request a cast of argument i. Return NULL and set err for
       invalid calls. `a` is the plan arena. */
    const WType *(*infer)(WArena *a, const WType **args, int nargs, const WType **coerce, WError *err);
    /* Evaluate: args are evaluated argument vectors (n rows), out has the result type. */
    void (*eval)(WEvalCtx *ctx, const WExpr *call, WVector *const *args, int nargs, int nrows,
                 const uint8_t *active, WVector *out);
    /* Optional: prepare call->aux at bind time (e.g. constant LIKE pattern / regex). */
    bool (*prepare)(WArena *a, WExpr *call, WError *err);
};

const WFuncDef *wfunc_lookup(const char *name);     /* NULL if unknown */
/* Calcite's error for an unknown function (SqlValidatorException), e.g.
   "No match found for function signature foo(<NUMERIC>, <CHARACTER>)"; `name` as the user wrote
   it. Always returns false. */
bool wfunc_unknown_error(WError *err, const char *name, const WType **args, int nargs);
/* A type as Calcite writes it in validation messages (INTEGER, VARCHAR(2147483647), DECIMAL(10, 2)). */
void wfunc_calcite_type(const WType *t, WStrBuf *out);

/* Argument conventions the library expects from the binder (all unit / mode arguments are STRING
   literals): EXTRACT(unit, x); FLOOR/CEIL(x, unit) for the "TO unit" form; TIMESTAMPADD(unit, n, x);
   TIMESTAMPDIFF(unit, a, b); TRIM(str) or TRIM(mode 'BOTH'|'LEADING'|'TRAILING', chars, str);
   LIKE / SIMILAR (str, pattern [, escape]); POSITION(needle, haystack). `prepare` runs after the
   call node carries the type from `infer` and may refine call->type (ROUND/TRUNCATE on DECIMAL
   with a literal digit count, TIMESTAMPADD of a sub-day unit to a DATE), or fail with a
   validation error (bad LIKE escape, unknown time unit). */
/* All scalar functions (for SHOW FUNCTIONS), NULL-terminated. */
const WFuncDef *const *wfunc_all(void);
/* Flink's core module (core_module.c): the built-in function definitions SHOW FUNCTIONS lists, in
   Flink's order (NULL-terminated by name), and a case-insensitive lookup (NULL when absent). */
typedef enum WCoreFunctionKind { WCORE_SCALAR, WCORE_AGGREGATE, WCORE_PROCESS_TABLE, WCORE_OTHER } WCoreFunctionKind;
typedef struct WCoreFunction {
    const char *name;
    WCoreFunctionKind kind;     /* Flink's FunctionKind */
    bool deterministic;         /* DESCRIBE FUNCTION EXTENDED's "is deterministic" */
    const char *signature;      /* its "signature": Flink's type inference text, forms split by '\n' */
} WCoreFunction;
/* Flink's name of a function kind (SCALAR, AGGREGATE, PROCESS_TABLE, OTHER). */
const char *wcore_kind_name(WCoreFunctionKind k);
const WCoreFunction *wcore_functions(void);
const WCoreFunction *wcore_function(const char *name);
/* Whether SHOW FUNCTIONS lists it (not an operator or internal name). */
bool wfunc_listed(const WFuncDef *d);

#endif
