/*
 * func_impl.h — internal helpers shared by the scalar function library (src/expr/func_*.c and
 * eval.c only; not a public contract).
 *
 * Contract: argument-family tests, Flink/Calcite validation messages, result-type shortcuts,
 * string output into the eval arena, UTF-8 helpers, DECIMAL arithmetic on __int128 with Flink's
 * HALF_UP rounding and overflow-to-NULL, a small backtracking regex engine with java.util.regex
 * semantics, and the list of function definitions the registry exposes.
 * Depends on expr.h, functions.h, types/, common/.
 */
#ifndef WEIR_EXPR_FUNC_IMPL_H
#define WEIR_EXPR_FUNC_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "functions.h"
#include "../types/format.h"
#include "../types/compare.h"
#include "../types/decimal.h"
#include "../common/strbuf.h"

/* Row i is to be computed. */
#define WF_ON(act, i) (!(act) || (act)[i])
#define WF_FOR(i, n, act) for (int i = 0; i < (n); i++) if (WF_ON(act, i))

/* ---- argument families (an untyped NULL literal fits every family) ---- */
static inline bool wf_null(const WType *t) { return t->id == WT_NULL; }
static inline bool wf_str(const WType *t) { return wf_null(t) || wtype_is_string(t); }
static inline bool wf_int(const WType *t) { return wf_null(t) || wtype_is_integer(t); }
static inline bool wf_num(const WType *t) { return wf_null(t) || wtype_is_numeric(t); }
static inline bool wf_bool(const WType *t) { return wf_null(t) || t->id == WT_BOOLEAN; }
static inline bool wf_bin(const WType *t) { return wf_null(t) || wtype_is_binary(t); }
bool wf_any_nullable(const WType **args, int n);

/* ---- result types ---- */
const WType *wf_type(WArena *a, WTypeId id, bool nullable);
const WType *wf_string(WArena *a, bool nullable);           /* STRING */

/* ---- validation messages ----
 * Calcite (classic) functions: SqlValidatorException
 *   "Cannot apply 'NAME' to arguments of type 'NAME(<INTEGER>)'. Supported form(s): 'NAME(<CHARACTER>)'"
 * `forms` lists the supported forms separated by '\n' without quotes, e.g. "UPPER(<CHARACTER>)".
 * Binary operators render as '<T1> op <T2>'. Always returns NULL (for use in infer). */
const WType *wf_err_apply(WError *err, const char *name, const WType **args, int nargs, const char *forms);
const WType *wf_err_apply_op(WError *err, const char *op, const WType **args, int nargs, const char *forms);
/* New-stack (BuiltInFunctionDefinitions) functions: ValidationException
 *   "Invalid function call:\nNAME(INT)" followed by the signatures Flink lists. */
const WType *wf_err_invalid_call(WError *err, const char *name, const WType **args, int nargs, const char *sigs);
/* Check argument families against a signature list such as "CI|CII" (alternatives separated
   by '|'; letters: C CHARACTER, S STRING (character), X BINARY, I INTEGER, N NUMERIC,
   E EXACT_NUMERIC, B BOOLEAN, D DATE, T TIMESTAMP (incl. LTZ), M TIME, V DATETIME_INTERVAL,
   A ANY; a trailing '*' repeats the last letter any number of times). On mismatch sets Calcite's
   "Cannot apply" error listing the forms and returns false. */
bool wf_check(WError *err, const char *name, const WType **args, int nargs, const char *sig);
/* Calcite's "Invalid number of arguments to function 'NAME'. Was expecting N arguments". */
bool wf_err_arg_count(WError *err, const char *name, int expected);
/* Calcite's rendering of a type in such messages: INTEGER, VARCHAR(10), CHAR(3), DECIMAL(10, 2),
   TIMESTAMP(3), TIMESTAMP_WITH_LOCAL_TIME_ZONE(3), NULL ... */
void wf_calcite_type(const WType *t, WStrBuf *o);
/* Runtime error; returns false. */
bool wf_fail(WEvalCtx *ctx, const char *cls, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- output ---- */
char *wf_alloc(WEvalCtx *ctx, size_t n);
void wf_set_str(WEvalCtx *ctx, WVector *out, int i, const char *p, size_t n);   /* copies */
static inline void wf_set_ref(WVector *out, int i, const char *p, int n)
{
    out->data[i].s.p = p;
    out->data[i].s.len = n;
}
static inline void wf_set_null(WVector *out, int i) { out->nulls[i] = 1; }
/* Text of a value as CAST(x AS STRING) renders it, into the eval arena. */
WStr wf_to_text(WEvalCtx *ctx, const WType *t, WDatum v);

/* ---- UTF-8 ---- */
int wf_u8_count(const char *p, int n);                       /* code points */
int wf_u8_offset(const char *p, int n, int cp);              /* byte offset of code point cp (clamped to n) */
int wf_u8_decode(const char *p, int n, int *adv);            /* one code point; invalid byte -> itself */
int wf_u8_encode(int cp, char *out);                         /* 1..4 bytes */
/* The value of an ASCII hexadecimal digit (either case); -1 for any other character. */
int wf_hex_digit(int c);
/* Java String.hashCode over the UTF-16 form of a UTF-8 string. */
int32_t wf_java_string_hash(const char *p, int n);
/* Java Character.isWhitespace / isLetterOrDigit / isLetter / isDigit for a code point (ASCII
   exact, common Unicode approximated). */
bool wf_java_space(int cp);
bool wf_java_alnum(int cp);
bool wf_java_alpha(int cp);
int wf_java_upper(int cp);
int wf_java_lower(int cp);

/* ---- numerics ---- */
double wf_as_double(const WType *t, WDatum v);              /* any numeric datum */
/* DECIMAL helpers (see also types/decimal.h): values are unscaled __int128.
   a (scale sa) op b (scale sb) -> result at scale s, precision p. Return 0 ok, 1 overflow (NULL),
   2 division by zero, 3 zero divided by zero. */
int wf_dec_add(__int128 a, int sa, __int128 b, int sb, int p, int s, bool sub, __int128 *out);
int wf_dec_mul(__int128 a, int sa, __int128 b, int sb, int p, int s, __int128 *out);
int wf_dec_div(__int128 a, int sa, __int128 b, int sb, int p, int s, __int128 *out);
int wf_dec_mod(__int128 a, int sa, __int128 b, int sb, int p, int s, __int128 *out);
/* Round v (scale s) to d fractional digits (HALF_UP, or toward zero when truncate); d may be
   negative. The result is at scale max(0, min(d, s)). */
__int128 wf_dec_round_to(__int128 v, int s, int d, bool truncate);

/* ---- time ---- */
/* Time units as Calcite's TimeUnitRange names them; WTU_NONE if unknown. */
typedef enum WTimeUnit {
    WTU_NONE = 0, WTU_MILLENNIUM, WTU_CENTURY, WTU_DECADE, WTU_YEAR, WTU_QUARTER, WTU_MONTH,
    WTU_WEEK, WTU_DAY, WTU_HOUR, WTU_MINUTE, WTU_SECOND, WTU_MILLISECOND, WTU_MICROSECOND,
    WTU_NANOSECOND, WTU_DOW, WTU_ISODOW, WTU_DOY, WTU_ISOYEAR, WTU_EPOCH
} WTimeUnit;
WTimeUnit wf_time_unit(const char *s, int len);
/* The unit literal of a call argument (a STRING literal), or WTU_NONE. */
WTimeUnit wf_unit_arg(const WExpr *arg);

/* FLOOR(x TO unit) / CEIL(x TO unit): args [x, unit literal]; implemented in func_time.c. */
const WType *wf_infer_time_floor(WArena *a, const char *name, const WType **args, int nargs,
                                 const WType **coerce, WError *err, bool ceil_);
void wf_eval_time_floor(WEvalCtx *ctx, const WExpr *call, WVector *const *args, int nargs, int nrows,
                        const uint8_t *active, WVector *out, bool ceil_);
/* NUL-terminated copy of a string into the eval arena. */
char *wf_cstr(WEvalCtx *ctx, WStr s);

/* ---- regex (java.util.regex semantics, backtracking) ---- */
#include "regex.h"         /* wre_compile, wre_exec */

/* ---- digests ---- */
void wf_md5(const void *p, size_t n, uint8_t out[16]);
void wf_sha1(const void *p, size_t n, uint8_t out[20]);
void wf_sha256(const void *p, size_t n, uint8_t out[32], bool is224);
void wf_sha512(const void *p, size_t n, uint8_t out[64], int outbits); /* 384 or 512 */

/* ---- comparison of two non-NULL values of one type (SQL semantics: DOUBLE by IEEE operators,
   strings by bytes, DECIMAL of one scale, timestamps by instant; others via compare.h) ---- */
bool wf_eq(const WType *t, WDatum a, WDatum b);
int wf_cmp(const WType *t, WDatum a, WDatum b);

/* ---- special defs the evaluator knows ---- */
extern const WFuncDef WF_IF;            /* evaluated lazily by eval.c */

/* ---- the library (each file exports its table) ---- */
extern const WFuncDef *const wf_arith_defs[];
extern const WFuncDef *const wf_compare_defs[];
extern const WFuncDef *const wf_string_defs[];
extern const WFuncDef *const wf_string_more_defs[];
extern const WFuncDef *const wf_json_quote_defs[];
extern const WFuncDef *const wf_regex_defs[];
extern const WFuncDef *const wf_numeric_defs[];
extern const WFuncDef *const wf_time_defs[];
extern const WFuncDef *const wf_misc_defs[];
extern const WFuncDef *const wf_collection_defs[];
extern const WFuncDef *const wf_json_defs[];
extern const WFuncDef *const wf_url_defs[];
extern const WFuncDef *const wf_charset_defs[];
extern const WFuncDef *const wf_printf_defs[];

#endif
