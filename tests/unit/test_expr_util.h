/*
 * test_expr_util.h — helpers for the expression unit tests: an evaluation environment, literal
 * and call constructors that run type inference / coercion / prepare the way the binder does,
 * constant evaluation rendered as text, and hand-built chunks.
 */
#ifndef WEIR_TESTS_TEST_EXPR_UTIL_H
#define WEIR_TESTS_TEST_EXPR_UTIL_H

#include "unit.h"
#include "../../src/expr/expr.h"
#include "../../src/expr/functions.h"
#include "../../src/types/format.h"
#include "../../src/types/datetime.h"
#include "../../src/common/arena.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct TEnv {
    WArena *a;
    WEvalCtx ctx;
    WError err;
    WTimeZone *tz;
    char out[4096];
} TEnv;

static inline void tenv_init(TEnv *e, const char *tz)
{
    memset(e, 0, sizeof *e);
    e->a = warena_new(0);
    werr_clear(&e->err);
    e->ctx.arena = e->a;
    e->ctx.err = &e->err;
    e->ctx.now_ms = 1700000000123LL;          /* 2023-11-14 22:13:20.123 UTC */
    if (tz) {
        WError le;
        werr_clear(&le);
        e->tz = wtz_load(tz, &le);
    }
    e->ctx.cast.tz = e->tz;
}

static inline void tenv_free(TEnv *e)
{
    if (e->tz) wtz_free(e->tz);
    warena_delete(e->a);
}

static inline WExpr *t_lit(TEnv *e, const WType *t, WDatum v) { return wexpr_literal(e->a, t, v, false); }
static inline WExpr *t_null(TEnv *e, const WType *t) { WDatum z; memset(&z, 0, sizeof z); return wexpr_literal(e->a, t, z, true); }
static inline WExpr *t_int(TEnv *e, int64_t v) { return t_lit(e, &WTYPE_INT_NN, WDATUM_I(v)); }
static inline WExpr *t_bigint(TEnv *e, int64_t v) { return t_lit(e, &WTYPE_BIGINT_NN, WDATUM_I(v)); }
static inline WExpr *t_double(TEnv *e, double v) { return t_lit(e, &WTYPE_DOUBLE_NN, WDATUM_D(v)); }
static inline WExpr *t_bool(TEnv *e, bool v) { return t_lit(e, &WTYPE_BOOLEAN_NN, WDATUM_I(v)); }

/* a string literal is CHAR(n) NOT NULL in Flink */
static inline WExpr *t_str(TEnv *e, const char *s)
{
    WDatum d;
    d.s.p = wa_strdup(e->a, s);
    d.s.len = (int32_t)strlen(s);
    return t_lit(e, wtype_char(e->a, d.s.len > 0 ? d.s.len : 1, false), d);
}

static inline WExpr *t_vstr(TEnv *e, const char *s)
{
    WDatum d;
    d.s.p = wa_strdup(e->a, s);
    d.s.len = (int32_t)strlen(s);
    return t_lit(e, &WTYPE_STRING_NN, d);
}

static inline WExpr *t_dec(TEnv *e, int64_t unscaled, int p, int s)
{
    WDatum d;
    memset(&d, 0, sizeof d);
    d.dec = unscaled;
    return t_lit(e, wtype_decimal(e->a, p, s, false), d);
}

static inline WExpr *t_ts(TEnv *e, const char *text, int precision)
{
    WTimestamp ts;
    memset(&ts, 0, sizeof ts);
    wparse_timestamp(text, (int)strlen(text), &ts);
    WDatum d;
    memset(&d, 0, sizeof d);
    d.ts = ts;
    return t_lit(e, wtype_timestamp(e->a, WT_TIMESTAMP, precision, false), d);
}

static inline WExpr *t_ltz(TEnv *e, int64_t epoch_ms)
{
    WDatum d;
    memset(&d, 0, sizeof d);
    d.ts.ms = epoch_ms;
    return t_lit(e, wtype_timestamp(e->a, WT_TIMESTAMP_LTZ, 3, false), d);
}

static inline WExpr *t_date(TEnv *e, const char *text)
{
    int64_t days = 0;
    wparse_date(text, (int)strlen(text), &days);
    return t_lit(e, wtype_new(e->a, WT_DATE, false), WDATUM_I(days));
}

static inline WExpr *t_col(TEnv *e, int col, const WType *t) { return wexpr_column(e->a, col, t, "c"); }

/* Build a call as the binder does: infer, wrap coerced args in CASTs, prepare. NULL on error. */
static inline WExpr *t_callv(TEnv *e, const char *name, int n, WExpr **args)
{
    const WFuncDef *f = wfunc_lookup(name);
    if (!f) {
        werr_set(&e->err, WEXC_CALCITE, "No match found for function signature %s", name);
        return NULL;
    }
    for (int i = 0; i < n; i++) if (!args[i]) return NULL;
    const WType **ts = WA_ARRAY(e->a, const WType *, n + 1);
    const WType **co = WA_ARRAY(e->a, const WType *, n + 1);
    for (int i = 0; i < n; i++) ts[i] = args[i]->is_null && args[i]->kind == WX_LITERAL && args[i]->type->id == WT_NULL ? &WTYPE_NULL : args[i]->type;
    const WType *rt = f->infer(e->a, ts, n, co, &e->err);
    if (!rt) return NULL;
    WExpr *c = wexpr_new(e->a, WX_CALL, rt, n);
    c->func = f;
    c->name = f->name;
    for (int i = 0; i < n; i++) {
        WExpr *arg = args[i];
        if (co[i]) {
            WExpr *cast = wexpr_new(e->a, WX_CAST, co[i], 1);
            cast->args[0] = arg;
            arg = cast;
        }
        c->args[i] = arg;
    }
    if (f->prepare && !f->prepare(e->a, c, &e->err)) return NULL;
    return c;
}

static inline WExpr *t_call(TEnv *e, const char *name, int n, ...)
{
    WExpr **args = WA_ARRAY(e->a, WExpr *, n + 1);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) args[i] = va_arg(ap, WExpr *);
    va_end(ap);
    return t_callv(e, name, n, args);
}

static inline WExpr *t_node(TEnv *e, WExprKind k, const WType *t, int n, ...)
{
    WExpr *x = wexpr_new(e->a, k, t, n);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) x->args[i] = va_arg(ap, WExpr *);
    va_end(ap);
    return x;
}

/* Render one value for comparisons in tests. */
static inline void t_render(TEnv *e, const WType *t, WDatum v, bool is_null, char *buf, size_t sz)
{
    if (is_null) { snprintf(buf, sz, "NULL"); return; }
    switch (t->id) {
    case WT_BOOLEAN: snprintf(buf, sz, "%s", v.i ? "TRUE" : "FALSE"); return;
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
    case WT_INTERVAL_YM: case WT_INTERVAL_DT:
        snprintf(buf, sz, "%lld", (long long)v.i); return;
    case WT_FLOAT: case WT_DOUBLE: snprintf(buf, sz, "%.15g", v.d); return;
    case WT_DECIMAL: { char b[64]; wfmt_decimal(v.dec, t->scale, b); snprintf(buf, sz, "%s", b); return; }
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
        snprintf(buf, sz, "%.*s", v.s.len, v.s.p ? v.s.p : ""); return;
    case WT_DATE: { char b[48]; int k = wfmt_date(v.i, b); b[k] = 0; snprintf(buf, sz, "%s", b); return; }
    case WT_TIME: { char b[48]; int k = wfmt_time(v.i, t->precision, b); b[k] = 0; snprintf(buf, sz, "%s", b); return; }
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: {
        char b[48];
        int k = wfmt_timestamp(v.ts, t->precision, b);
        b[k] = 0;
        snprintf(buf, sz, "%s%s", b, t->id == WT_TIMESTAMP_LTZ ? "Z" : "");
        return;
    }
    default: {
        WStrBuf sb;
        wsb_init(&sb);
        wfmt_sql(t, v, false, e->ctx.cast.tz, &sb);
        snprintf(buf, sz, "%s", sb.buf ? sb.buf : "");
        wsb_free(&sb);
        return;
    }
    }
}

/* Evaluate a constant expression; returns its rendering, or "ERR:<class>: <msg>" */
static inline const char *t_eval(TEnv *e, WExpr *x)
{
    if (!x) {
        snprintf(e->out, sizeof e->out, "ERR:%s: %s", e->err.cls, e->err.msg);
        werr_clear(&e->err);
        return e->out;
    }
    WDatum d;
    bool isnull = false;
    memset(&d, 0, sizeof d);
    if (!wexpr_eval_const(&e->ctx, x, &d, &isnull)) {
        snprintf(e->out, sizeof e->out, "ERR:%s: %s", e->err.cls, e->err.msg);
        werr_clear(&e->err);
        return e->out;
    }
    t_render(e, x->type, d, isnull, e->out, sizeof e->out);
    return e->out;
}

/* Type of an expression as Flink prints it */
static inline const char *t_type(TEnv *e, WExpr *x)
{
    if (!x) {
        snprintf(e->out, sizeof e->out, "ERR:%s: %s", e->err.cls, e->err.msg);
        werr_clear(&e->err);
        return e->out;
    }
    return wtype_str(e->a, x->type);
}

#endif
