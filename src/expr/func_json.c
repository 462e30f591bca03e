/*
 * func_json.c — Flink's JSON functions (SqlJsonUtils / JsonGenerateUtils semantics):
 *   JSON_VALUE(x, path, returning, empty_mode, empty_default, error_mode, error_default)
 *   JSON_QUERY(x, path, wrapper, empty_mode, error_mode)
 *   JSON_EXISTS(x, path [, error_mode])
 *   IS [NOT] JSON VALUE|OBJECT|ARRAY|SCALAR (x)
 *   JSON_STRING(x), JSON_OBJECT(on_null, k1, v1, ...), JSON_ARRAY(on_null, v1, ...)
 * The argument layout is what the parser produces for the SQL syntax (ast.h): modes are upper-case
 * STRING literals ('NULL', 'ERROR', 'DEFAULT', 'EMPTY ARRAY', 'EMPTY OBJECT', 'TRUE', 'FALSE',
 * 'UNKNOWN'; wrappers 'WITHOUT', 'CONDITIONAL', 'UNCONDITIONAL'; 'NULL_ON_NULL' / 'ABSENT_ON_NULL'),
 * the RETURNING type is the type of a NULL literal argument (untyped NULL: STRING).
 * Paths follow json_path.h (strict unless 'lax'); documents are parsed with common/json.h
 * (Jackson's rules: content after the first value is ignored). Output JSON is compact with object
 * keys sorted (Flink's ORDER_MAP_ENTRIES_BY_KEYS); JSON_OBJECT / JSON_ARRAY arguments that are
 * themselves JSON_OBJECT / JSON_ARRAY calls, or JSON(text) calls, are inserted as JSON, not as
 * strings (JSON(text) anywhere else fails the query, as in Flink).
 * Depends on func_impl.h, json_path.h, common/json.h.
 */
#include "../common/base64.h"
#include "func_impl.h"
#include "json_path.h"
#include "../common/json.h"
#include "../types/datetime.h"

#define EV(nm) static void nm(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, \
                              const uint8_t *act, WVector *out)
#define INF(nm) static const WType *nm(WArena *a, const WType **t, int n, const WType **co, WError *err)

enum { M_NULL, M_ERROR, M_DEFAULT, M_EMPTY_ARRAY, M_EMPTY_OBJECT, M_TRUE, M_FALSE, M_UNKNOWN };
enum { W_WITHOUT, W_CONDITIONAL, W_UNCONDITIONAL };

static int mode_of(const WExpr *lit, int dflt)
{
    if (!lit || lit->kind != WX_LITERAL || lit->is_null || !wtype_is_string(lit->type)) return dflt;
    static const char *const N[] = {"NULL", "ERROR", "DEFAULT", "EMPTY ARRAY", "EMPTY OBJECT", "TRUE", "FALSE", "UNKNOWN"};
    for (int i = 0; i < 8; i++)
        if ((int)strlen(N[i]) == lit->lit.s.len && memcmp(N[i], lit->lit.s.p, (size_t)lit->lit.s.len) == 0) return i;
    if (lit->lit.s.len == 7 && !memcmp(lit->lit.s.p, "WITHOUT", 7)) return W_WITHOUT;
    if (lit->lit.s.len == 11 && !memcmp(lit->lit.s.p, "CONDITIONAL", 11)) return W_CONDITIONAL;
    if (lit->lit.s.len == 13 && !memcmp(lit->lit.s.p, "UNCONDITIONAL", 13)) return W_UNCONDITIONAL;
    return dflt;
}

/* A constant path compiled once at bind time. */
typedef struct JPrep {
    bool have;          /* the path argument is a literal */
    bool ok;
    WJsonPath path;
    char err[512];
} JPrep;

static bool prep_path(WArena *a, WExpr *call, WError *err)
{
    (void)err;
    if (call->nargs < 2) return true;
    const WExpr *p = call->args[1];
    if (p->kind != WX_LITERAL || p->is_null || !wtype_is_string(p->type)) return true;
    JPrep *j = WA_NEW(a, JPrep);
    j->have = true;
    j->ok = wjpath_compile(a, p->lit.s.p, (size_t)p->lit.s.len, &j->path, j->err, sizeof j->err);
    call->aux = j;
    return true;
}

/* The outcome of SqlJsonUtils.jsonApiCommonSyntax: a value (NULL = none) or an exception. */
typedef struct JCtx {
    bool lax;
    bool failed;
    const WJson *obj;
    char err[1024];
} JCtx;

static void api_common(WEvalCtx *ctx, const WExpr *call, WStr doc, WStr spec, JCtx *r)
{
    memset(r, 0, sizeof *r);
    const JPrep *jp = call->aux;
    WJsonPath local;
    const WJsonPath *path = NULL;
    bool ok;
    char perr[512];
    if (jp && jp->have) { ok = jp->ok; path = &jp->path; if (!ok) snprintf(r->err, sizeof r->err, "%s", jp->err); }
    else {
        ok = wjpath_compile(ctx->arena, spec.p, (size_t)spec.len, &local, perr, sizeof perr);
        path = &local;
        if (!ok) snprintf(r->err, sizeof r->err, "%s", perr);
    }
    char jerr[512];
    WJson *root = wjson_parse(ctx->arena, doc.p, (size_t)doc.len, false, jerr, sizeof jerr);
    if (!ok) {
        /* an invalid path: the mode prefix still decides what an unparsable document does */
        r->lax = path->lax;
        r->failed = true;
        return;
    }
    r->lax = path->lax;
    if (!root) {
        if (r->lax) return;                         /* lax: the document error is an empty result */
        r->failed = true;
        snprintf(r->err, sizeof r->err, "%s", jerr);
        return;
    }
    if (!wjpath_eval(ctx->arena, path, root, &r->obj, r->err, sizeof r->err)) { r->failed = true; return; }
    if (!r->lax && !r->obj) {
        r->failed = true;
        snprintf(r->err, sizeof r->err, "Strict jsonpath mode requires a non empty returned value, but is null");
    }
}

static bool is_scalar(const WJson *v) { return v->kind != WJ_ARRAY && v->kind != WJ_OBJECT; }

static void java_text(const WJson *v, WStrBuf *b)
{
    if (v->kind == WJ_NUMBER) wjson_number_java(v->s, (size_t)v->len, b);
    else wjson_java_string(v, b);
}

/* ---------------------------------------------------------------- JSON_VALUE */

static bool returning_supported(const WType *r)
{
    switch (r->id) {
    case WT_CHAR: case WT_VARCHAR: case WT_BOOLEAN: case WT_TINYINT: case WT_SMALLINT: case WT_INT:
    case WT_BIGINT: case WT_FLOAT: case WT_DOUBLE: case WT_DECIMAL:
        return true;
    default:
        return false;
    }
}

INF(inf_json_value)
{
    if (n != 7) return wf_err_invalid_call(err, "JSON_VALUE", t, n, "JSON_VALUE(STRING, STRING)");
    if (!wf_str(t[0]) || !wf_str(t[1]))
        return wf_err_apply(err, "JSON_VALUE", t, 2, "JSON_VALUE(<CHARACTER>, <CHARACTER>)");
    const WType *r = t[2]->id == WT_NULL ? &WTYPE_STRING : t[2];
    if (!returning_supported(r)) {
        WStrBuf b;
        wsb_init(&b);
        wtype_to_string(wtype_with_nullable(a, r, true), &b);
        werr_set(err, WEXC_VALIDATION, "Unsupported RETURNING type %s for JSON_VALUE. Supported: STRING, VARCHAR, CHAR, BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL.", b.buf);
        wsb_free(&b);
        return NULL;
    }
    r = wtype_with_nullable(a, r, true);
    co[4] = r;
    co[6] = r;
    return r;
}

static const char *root_name(const WType *t)
{
    switch (t->id) {
    case WT_BOOLEAN: return "BOOLEAN";
    case WT_TINYINT: return "TINYINT";
    case WT_SMALLINT: return "SMALLINT";
    case WT_INT: return "INTEGER";
    case WT_BIGINT: return "BIGINT";
    case WT_FLOAT: return "FLOAT";
    case WT_DOUBLE: return "DOUBLE";
    case WT_DECIMAL: return "DECIMAL";
    default: return "VARCHAR";
    }
}

static const char *java_class_of(const WJson *v)
{
    switch (v->kind) {
    case WJ_TRUE: case WJ_FALSE: return "java.lang.Boolean";
    case WJ_STRING: return "java.lang.String";
    case WJ_NUMBER: return v->is_float ? "java.math.BigDecimal" : (v->len - (v->s[0] == '-') < 10 ? "java.lang.Integer" : "java.lang.Long");
    default: return "java.lang.Object";
    }
}

/* SqlJsonUtils.convertToType: false when the value cannot be converted. */
static bool convert_scalar(WEvalCtx *ctx, const WJson *v, const WType *rt, WDatum *out)
{
    if (wtype_is_string(rt)) {
        WStrBuf b;
        wsb_init(&b);
        java_text(v, &b);
        out->s.p = wa_memdup(ctx->arena, b.buf, b.len + 1);
        out->s.len = (int32_t)b.len;
        wsb_free(&b);
        return true;
    }
    if (v->kind == WJ_STRING && rt->id == WT_BOOLEAN) {
        char buf[8];
        int s = 0, e = v->len;
        while (s < e && (unsigned char)v->s[s] <= ' ') s++;
        while (e > s && (unsigned char)v->s[e - 1] <= ' ') e--;
        if (e - s > 5) return false;
        for (int i = s; i < e; i++) buf[i - s] = (char)(v->s[i] >= 'A' && v->s[i] <= 'Z' ? v->s[i] + 32 : v->s[i]);
        buf[e - s] = 0;
        if (!strcmp(buf, "true") || !strcmp(buf, "t") || !strcmp(buf, "yes") || !strcmp(buf, "1")) { out->i = 1; return true; }
        if (!strcmp(buf, "false") || !strcmp(buf, "f") || !strcmp(buf, "no") || !strcmp(buf, "0")) { out->i = 0; return true; }
        return false;
    }
    if (rt->id == WT_BOOLEAN) {
        if (v->kind != WJ_TRUE && v->kind != WJ_FALSE) return false;
        out->i = v->kind == WJ_TRUE;
        return true;
    }
    /* numbers (a string is read as a BigDecimal first) */
    if (v->kind != WJ_NUMBER && v->kind != WJ_STRING) return false;
    const char *s = v->s;
    int len = v->len;
    if (rt->id == WT_DECIMAL) {
        __int128 d;
        if (wdec_parse_flink(s, len, rt->precision, rt->scale, &d) != WDEC_OK) return false;
        out->dec = d;
        return true;
    }
    __int128 u;
    int sc;
    if (!wdec_parse_java(s, len, &u, &sc)) {
        if (rt->id != WT_FLOAT && rt->id != WT_DOUBLE) return false;
        char *tmp = wf_cstr(ctx, (WStr){s, len});
        char *endp;
        double d = strtod(tmp, &endp);
        if (*endp) return false;
        if (rt->id == WT_FLOAT) d = (float)d;
        if (d != d || d > 1.7976931348623157e308 || d < -1.7976931348623157e308 ||
            (rt->id == WT_FLOAT && (d > 3.4028234663852886e38 || d < -3.4028234663852886e38))) return false;
        out->d = d;
        return true;
    }
    if (rt->id == WT_FLOAT || rt->id == WT_DOUBLE) {
        double d = wdec_to_double(u, sc);
        if (rt->id == WT_FLOAT) {
            if (d > 3.4028234663852886e38 || d < -3.4028234663852886e38) return false;
            d = (float)d;
        }
        out->d = d;
        return true;
    }
    /* integers: truncate toward zero, then range-check */
    while (sc > 0) { u /= 10; sc--; }
    while (sc < 0) {
        if (u > ((__int128)1 << 100) || u < -((__int128)1 << 100)) return false;
        u *= 10;
        sc++;
    }
    __int128 lo, hi;
    switch (rt->id) {
    case WT_TINYINT: lo = -128; hi = 127; break;
    case WT_SMALLINT: lo = -32768; hi = 32767; break;
    case WT_INT: lo = INT32_MIN; hi = INT32_MAX; break;
    default: lo = INT64_MIN; hi = INT64_MAX; break;
    }
    if (u < lo || u > hi) return false;
    out->i = (int64_t)u;
    return true;
}

EV(ev_json_value)
{
    (void)na;
    int empty_mode = mode_of(call->args[3], M_NULL), error_mode = mode_of(call->args[5], M_NULL);
    const WType *rt = call->type;
    WF_FOR(i, n, act) {
        if (av[0]->nulls[i] || av[1]->nulls[i]) { out->nulls[i] = 1; continue; }
        JCtx c;
        api_common(ctx, call, av[0]->data[i].s, av[1]->data[i].s, &c);
        if (!c.failed) {
            const WJson *v = c.obj;
            if (!v || (c.lax && !is_scalar(v))) {
                if (empty_mode == M_ERROR) { wf_fail(ctx, WEXC_RUNTIME, "Empty result of JSON_VALUE function is not allowed"); return; }
                if (empty_mode == M_DEFAULT) { out->nulls[i] = av[4]->nulls[i]; out->data[i] = av[4]->data[i]; }
                else out->nulls[i] = 1;
                continue;
            }
            if (!is_scalar(v)) {
                WStrBuf b;
                wsb_init(&b);
                wjson_java_string(v, &b);
                snprintf(c.err, sizeof c.err, "Strict jsonpath mode requires scalar value, and the actual value is: ''%s''", b.buf);
                wsb_free(&b);
                c.failed = true;
            } else if (v->kind == WJ_NULL) {
                out->nulls[i] = 1;
                continue;
            } else if (convert_scalar(ctx, v, rt, &out->data[i])) {
                continue;
            } else {
                /* a value of the wrong kind for the RETURNING type */
                if (error_mode == M_ERROR) {
                    wf_fail(ctx, WEXC_RUNTIME, "Cannot cast %s to %s", java_class_of(v), root_name(rt));
                    return;
                }
                if (error_mode == M_DEFAULT) { out->nulls[i] = av[6]->nulls[i]; out->data[i] = av[6]->data[i]; }
                else out->nulls[i] = 1;
                continue;
            }
        }
        if (error_mode == M_ERROR) { wf_fail(ctx, WEXC_RUNTIME, "%s", c.err); return; }
        if (error_mode == M_DEFAULT) { out->nulls[i] = av[6]->nulls[i]; out->data[i] = av[6]->data[i]; }
        else out->nulls[i] = 1;
    }
}

/* ---------------------------------------------------------------- JSON_QUERY */

INF(inf_json_query)
{
    (void)co;
    if (n != 5) return wf_err_invalid_call(err, "JSON_QUERY", t, n, "JSON_QUERY(STRING, STRING)");
    if (!wf_str(t[0]) || !wf_str(t[1]))
        return wf_err_apply(err, "JSON_QUERY", t, 2, "JSON_QUERY(<CHARACTER>, <CHARACTER>)");
    return wf_string(a, true);
}

static void set_json_text(WEvalCtx *ctx, WVector *out, int i, const WJson *v)
{
    WStrBuf b;
    wsb_init(&b);
    wjson_write(v, true, &b);
    wf_set_str(ctx, out, i, b.buf, b.len);
    wsb_free(&b);
}

/* the ON EMPTY / ON ERROR result of JSON_QUERY; false after raising an error */
static bool query_fallback(WEvalCtx *ctx, WVector *out, int i, int mode, bool empty, const char *msg)
{
    switch (mode) {
    case M_ERROR:
        return wf_fail(ctx, WEXC_RUNTIME, "%s", empty ? "Empty result of JSON_QUERY function is not allowed" : msg);
    case M_EMPTY_ARRAY: wf_set_str(ctx, out, i, "[]", 2); return true;
    case M_EMPTY_OBJECT: wf_set_str(ctx, out, i, "{}", 2); return true;
    default: out->nulls[i] = 1; return true;
    }
}

EV(ev_json_query)
{
    (void)na;
    int wrapper = mode_of(call->args[2], W_WITHOUT);
    int empty_mode = mode_of(call->args[3], M_NULL), error_mode = mode_of(call->args[4], M_NULL);
    WF_FOR(i, n, act) {
        if (av[0]->nulls[i] || av[1]->nulls[i]) { out->nulls[i] = 1; continue; }
        JCtx c;
        api_common(ctx, call, av[0]->data[i].s, av[1]->data[i].s, &c);
        if (!c.failed) {
            const WJson *v = c.obj;
            if (v) {
                if (wrapper == W_UNCONDITIONAL || (wrapper == W_CONDITIONAL && v->kind != WJ_ARRAY)) {
                    WJson *arr = wjson_new(ctx->arena, WJ_ARRAY);
                    wjson_push(ctx->arena, arr, (WJson *)v);
                    v = arr;
                }
            }
            if (!v || (c.lax && is_scalar(v))) {
                if (!query_fallback(ctx, out, i, empty_mode, true, NULL)) return;
                continue;
            }
            if (is_scalar(v)) {
                WStrBuf b;
                wsb_init(&b);
                java_text(v, &b);
                snprintf(c.err, sizeof c.err,
                         "Strict jsonpath mode requires array or object value, and the actual value is: ''%s''", b.buf);
                wsb_free(&b);
            } else {
                set_json_text(ctx, out, i, v);
                continue;
            }
        }
        if (!query_fallback(ctx, out, i, error_mode, false, c.err)) return;
    }
}

/* ---------------------------------------------------------------- JSON_EXISTS */

INF(inf_json_exists)
{
    (void)co;
    if (n < 2 || n > 3) return wf_err_invalid_call(err, "JSON_EXISTS", t, n, "JSON_EXISTS(STRING, STRING)");
    if (!wf_str(t[0]) || !wf_str(t[1]))
        return wf_err_apply(err, "JSON_EXISTS", t, 2, "JSON_EXISTS(<CHARACTER>, <CHARACTER>)");
    return wf_type(a, WT_BOOLEAN, true);
}

EV(ev_json_exists)
{
    int mode = na > 2 ? mode_of(call->args[2], M_FALSE) : M_FALSE;
    WF_FOR(i, n, act) {
        if (av[0]->nulls[i] || av[1]->nulls[i]) { out->nulls[i] = 1; continue; }
        JCtx c;
        api_common(ctx, call, av[0]->data[i].s, av[1]->data[i].s, &c);
        if (!c.failed) { out->data[i].i = c.obj != NULL; continue; }
        switch (mode) {
        case M_TRUE: out->data[i].i = 1; break;
        case M_UNKNOWN: out->nulls[i] = 1; break;
        case M_ERROR: wf_fail(ctx, WEXC_RUNTIME, "%s", c.err); return;
        default: out->data[i].i = 0; break;
        }
    }
}

/* ---------------------------------------------------------------- IS JSON */

INF(inf_is_json)
{
    (void)co;
    if (n != 1 || !wf_str(t[0])) return wf_err_apply(err, "IS JSON VALUE", t, n, "<CHARACTER> IS JSON VALUE");
    return wf_type(a, WT_BOOLEAN, false);
}

/* kind: 0 VALUE, 1 OBJECT, 2 ARRAY, 3 SCALAR; negated for IS NOT JSON */
static void is_json(WEvalCtx *ctx, WVector *const *av, int n, const uint8_t *act, WVector *out, int kind, bool neg)
{
    WF_FOR(i, n, act) {
        bool r = false;
        if (!av[0]->nulls[i]) {
            WStr s = av[0]->data[i].s;
            WJson *v = wjson_parse(ctx->arena, s.p, (size_t)s.len, false, NULL, 0);
            if (v) {
                switch (kind) {
                case 0: r = true; break;
                case 1: r = v->kind == WJ_OBJECT; break;
                case 2: r = v->kind == WJ_ARRAY; break;
                default: r = is_scalar(v); break;
                }
            }
            out->data[i].i = neg ? !r : r;
        } else {
            out->data[i].i = neg;       /* NULL IS JSON is FALSE, NULL IS NOT JSON is TRUE */
        }
        out->nulls[i] = 0;
    }
}

#define IS_JSON_EV(nm, kind, neg) \
    EV(nm) { (void)call; (void)na; is_json(ctx, av, n, act, out, kind, neg); }
IS_JSON_EV(ev_is_json_value, 0, false)
IS_JSON_EV(ev_is_json_object, 1, false)
IS_JSON_EV(ev_is_json_array, 2, false)
IS_JSON_EV(ev_is_json_scalar, 3, false)
IS_JSON_EV(ev_is_not_json_value, 0, true)
IS_JSON_EV(ev_is_not_json_object, 1, true)
IS_JSON_EV(ev_is_not_json_array, 2, true)
IS_JSON_EV(ev_is_not_json_scalar, 3, true)

/* ---------------------------------------------------------------- building JSON */

static const WFuncDef D_JSON_OBJECT, D_JSON_ARRAY, D_JSON;

/* call->aux of a JSON(...) call that is a value of JSON_OBJECT / JSON_ARRAY (prep_json_values) */
static const char JSON_NESTED = 0;

/* JsonGenerateUtils.createNodeTerm: a SQL value as a JSON node. */
static WJson *to_node(WEvalCtx *ctx, const WType *t, WDatum v, bool is_null)
{
    WArena *a = ctx->arena;
    if (is_null || t->id == WT_NULL) return wjson_new(a, WJ_NULL);
    char buf[96];
    switch (t->id) {
    case WT_CHAR: case WT_VARCHAR: return wjson_string(a, v.s.p, (size_t)v.s.len);
    case WT_BOOLEAN: return wjson_new(a, v.i ? WJ_TRUE : WJ_FALSE);
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
    case WT_INTERVAL_YM: case WT_INTERVAL_DT:
        snprintf(buf, sizeof buf, "%lld", (long long)v.i);
        return wjson_number(a, buf, false);
    case WT_FLOAT: case WT_DOUBLE:
        if (v.d != v.d || v.d > 1.7976931348623157e308 || v.d < -1.7976931348623157e308) {
            wfmt_double_java(v.d, buf);
            return wjson_string(a, buf, strlen(buf));
        }
        wfmt_double_java(v.d, buf);     /* BigDecimal.valueOf(double) */
        return wjson_number(a, buf, true);
    case WT_DECIMAL:
        wfmt_decimal(v.dec, t->scale, buf);
        return wjson_number(a, buf, t->scale > 0);
    case WT_DATE: wjson_fmt_date(v.i, buf); return wjson_string(a, buf, strlen(buf));
    case WT_TIME: wjson_fmt_time(v.i * 1000000LL, buf); return wjson_string(a, buf, strlen(buf));
    case WT_TIMESTAMP: wjson_fmt_datetime(v.ts.ms, v.ts.ns, 'T', buf); return wjson_string(a, buf, strlen(buf));
    case WT_TIMESTAMP_LTZ: {
        int k = wjson_fmt_datetime(v.ts.ms, v.ts.ns, 'T', buf);
        buf[k++] = 'Z';
        buf[k] = 0;
        return wjson_string(a, buf, (size_t)k);
    }
    case WT_BINARY: case WT_VARBINARY: {
        WStrBuf b;
        wsb_init(&b);
        wbase64_append(&b, v.s.p, (size_t)v.s.len);
        WJson *r = wjson_string(a, b.buf, b.len);
        wsb_free(&b);
        return r;
    }
    case WT_ARRAY: {
        WJson *arr = wjson_new(a, WJ_ARRAY);
        for (int k = 0; v.cx && k < v.cx->n; k++)
            wjson_push(a, arr, to_node(ctx, t->elem, v.cx->vals[k], v.cx->nulls[k]));
        return arr;
    }
    case WT_MAP: {
        WJson *obj = wjson_new(a, WJ_OBJECT);
        for (int k = 0; v.cx && k < v.cx->n; k++) {
            bool kn = v.cx->nulls[2 * k];
            WStr ks = kn ? (WStr){"null", 4} : wf_to_text(ctx, t->key, v.cx->vals[2 * k]);
            wjson_put(a, obj, wa_memdup(a, ks.p, (size_t)ks.len + 1), (size_t)ks.len,
                      to_node(ctx, t->elem, v.cx->vals[2 * k + 1], v.cx->nulls[2 * k + 1]));
        }
        return obj;
    }
    case WT_MULTISET: {             /* element -> count */
        WJson *obj = wjson_new(a, WJ_OBJECT);
        for (int k = 0; v.cx && k < v.cx->n; k++) {
            WStr ks = v.cx->nulls[k] ? (WStr){"null", 4} : wf_to_text(ctx, t->elem, v.cx->vals[k]);
            const WJson *prev = wjson_get(obj, ks.p, (size_t)ks.len);
            char cnt[24];
            snprintf(cnt, sizeof cnt, "%lld", prev ? atoll(prev->s) + 1 : 1LL);
            wjson_put(a, obj, wa_memdup(a, ks.p, (size_t)ks.len + 1), (size_t)ks.len, wjson_number(a, cnt, false));
        }
        return obj;
    }
    case WT_ROW: {
        WJson *obj = wjson_new(a, WJ_OBJECT);
        for (int k = 0; v.cx && k < t->nfields && k < v.cx->n; k++)
            wjson_put(a, obj, t->field_names[k], strlen(t->field_names[k]),
                      to_node(ctx, t->fields[k], v.cx->vals[k], v.cx->nulls[k]));
        return obj;
    }
    default: {
        WStr txt = wf_to_text(ctx, t, v);
        return wjson_string(a, txt.p, (size_t)txt.len);
    }
    }
}

static bool blank(WStr t)
{
    for (int k = 0; k < t.len; k++)
        if (t.p[k] != ' ' && t.p[k] != '\t' && t.p[k] != '\n' && t.p[k] != '\r') return false;
    return true;
}

/* Argument arg of row i is NULL for ON NULL: a NULL, or a JSON(text) of no value (Jackson reads
   none from a blank text) */
static bool arg_null(const WExpr *arg, const WVector *v, int i)
{
    if (v->nulls[i] || arg->type->id == WT_NULL) return true;
    return arg->kind == WX_CALL && arg->func == &D_JSON && blank(v->data[i].s);
}

/* An argument as a node: the JSON text of a nested JSON_OBJECT / JSON_ARRAY call, and of a
   JSON(text) call, is inserted as JSON; NULL (an error set) for a JSON(text) that is not JSON. */
static WJson *arg_node(WEvalCtx *ctx, const WExpr *arg, const WVector *v, int i)
{
    bool raw = arg->kind == WX_CALL && arg->func == &D_JSON;
    if (!v->nulls[i] && raw) {          /* Jackson's readTree: what follows the value is not read */
        WStr t = v->data[i].s;
        if (blank(t)) return wjson_new(ctx->arena, WJ_NULL);           /* no value: null */
        char eb[256];
        WJson *j = wjson_parse(ctx->arena, t.p, (size_t)t.len, false, eb, sizeof eb);
        if (!j) wf_fail(ctx, WEXC_RUNTIME, "%s", eb);
        return j;
    }
    if (!v->nulls[i] && arg->kind == WX_CALL && (arg->func == &D_JSON_OBJECT || arg->func == &D_JSON_ARRAY)) {
        WJson *j = wjson_parse(ctx->arena, v->data[i].s.p, (size_t)v->data[i].s.len, true, NULL, 0);
        if (j) return j;
    }
    return to_node(ctx, arg->type, v->data[i], v->nulls[i]);
}

/* JSON(text): text inserted as JSON by the JSON_OBJECT / JSON_ARRAY it is a value of (its text
   passes through); anywhere else the query fails, as in Flink */
INF(inf_json)
{
    (void)co;
    if (!wf_check(err, "JSON", t, n, "S")) return NULL;
    return wf_string(a, t[0]->nullable || t[0]->id == WT_NULL);
}

EV(ev_json)
{
    (void)na;
    if (call->aux != &JSON_NESTED) {
        wf_fail(ctx, WEXC_RUNTIME, "The JSON() function is currently only supported inside JSON_ARRAY() or as the VALUE param of JSON_OBJECT(). Example: JSON_OBJECT('a', JSON('{\"key\": \"value\"}')) or JSON_ARRAY(JSON('{\"key\": \"value\"}')).");
        return;
    }
    WF_FOR(i, n, act) {
        out->nulls[i] = av[0]->nulls[i];
        out->data[i] = av[0]->data[i];
    }
}

/* JSON_OBJECT / JSON_ARRAY: their JSON(...) values (from first on, every step-th argument) are
   marked as allowed there */
static void mark_json_values(WExpr *call, int first, int step)
{
    for (int k = first; k < call->nargs; k += step) {
        WExpr *v = call->args[k];
        if (v->kind == WX_CALL && v->func == &D_JSON) v->aux = (void *)&JSON_NESTED;
    }
}

static bool prep_json_object(WArena *a, WExpr *call, WError *err) { (void)a; (void)err; mark_json_values(call, 2, 2); return true; }
static bool prep_json_array(WArena *a, WExpr *call, WError *err) { (void)a; (void)err; mark_json_values(call, 1, 1); return true; }

INF(inf_json_string)
{
    (void)co;
    if (n != 1) return wf_err_invalid_call(err, "JSON_STRING", t, n, "JSON_STRING(<ANY>)");
    return wf_string(a, t[0]->nullable || t[0]->id == WT_NULL);
}

EV(ev_json_string)
{
    (void)na;
    WF_FOR(i, n, act) {
        if (av[0]->nulls[i] || call->args[0]->type->id == WT_NULL) { out->nulls[i] = 1; continue; }
        WJson *v = arg_node(ctx, call->args[0], av[0], i);
        if (!v) return;
        set_json_text(ctx, out, i, v);
    }
}

static bool absent_on_null(const WExpr *lit)
{
    return lit->kind == WX_LITERAL && !lit->is_null && lit->lit.s.len == 14 && !memcmp(lit->lit.s.p, "ABSENT_ON_NULL", 14);
}

INF(inf_json_object)
{
    (void)co;
    if (n < 1 || (n - 1) % 2) return wf_err_invalid_call(err, "JSON_OBJECT", t, n, "JSON_OBJECT([KEY] key VALUE value, ...)");
    for (int k = 1; k < n; k += 2)
        if (!wf_str(t[k]))
            return wf_err_apply(err, "JSON_OBJECT", t, n, "JSON_OBJECT(<CHARACTER> VALUE <ANY>, ...)");
    return wf_string(a, false);
}

EV(ev_json_object)
{
    bool absent = absent_on_null(call->args[0]);
    WF_FOR(i, n, act) {
        WJson *obj = wjson_new(ctx->arena, WJ_OBJECT);
        for (int k = 1; k + 1 < na; k += 2) {
            if (av[k]->nulls[i] || call->args[k]->type->id == WT_NULL) {
                wf_fail(ctx, WEXC_RUNTIME, "JSON_OBJECT key must not be NULL");
                return;
            }
            if (absent && arg_null(call->args[k + 1], av[k + 1], i)) continue;
            WStr key = av[k]->data[i].s;
            WJson *v = arg_node(ctx, call->args[k + 1], av[k + 1], i);
            if (!v) return;
            wjson_put(ctx->arena, obj, key.p, (size_t)key.len, v);
        }
        set_json_text(ctx, out, i, obj);
        out->nulls[i] = 0;
    }
}

INF(inf_json_array)
{
    (void)co;
    (void)t;
    (void)err;
    (void)n;
    return wf_string(a, false);
}

EV(ev_json_array)
{
    bool absent = absent_on_null(call->args[0]);
    WF_FOR(i, n, act) {
        WJson *arr = wjson_new(ctx->arena, WJ_ARRAY);
        for (int k = 1; k < na; k++) {
            if (absent && arg_null(call->args[k], av[k], i)) continue;
            WJson *v = arg_node(ctx, call->args[k], av[k], i);
            if (!v) return;
            wjson_push(ctx->arena, arr, v);
        }
        set_json_text(ctx, out, i, arr);
        out->nulls[i] = 0;
    }
}

/* ---------------------------------------------------------------- registry */

static const WFuncDef D_JSON_VALUE = { "JSON_VALUE", 7, 7, true, true, inf_json_value, ev_json_value, prep_path };
static const WFuncDef D_JSON_QUERY = { "JSON_QUERY", 5, 5, true, true, inf_json_query, ev_json_query, prep_path };
static const WFuncDef D_JSON_EXISTS = { "JSON_EXISTS", 2, 3, true, true, inf_json_exists, ev_json_exists, prep_path };
static const WFuncDef D_JSON_STRING = { "JSON_STRING", 1, 1, true, true, inf_json_string, ev_json_string, NULL };
static const WFuncDef D_JSON_OBJECT = { "JSON_OBJECT", 1, -1, true, true, inf_json_object, ev_json_object, prep_json_object };
static const WFuncDef D_JSON_ARRAY = { "JSON_ARRAY", 1, -1, true, true, inf_json_array, ev_json_array, prep_json_array };
static const WFuncDef D_JSON = { "JSON", 1, 1, true, true, inf_json, ev_json, NULL };
static const WFuncDef D_IS_JSON_VALUE = { "IS JSON VALUE", 1, 1, true, true, inf_is_json, ev_is_json_value, NULL };
static const WFuncDef D_IS_JSON_OBJECT = { "IS JSON OBJECT", 1, 1, true, true, inf_is_json, ev_is_json_object, NULL };
static const WFuncDef D_IS_JSON_ARRAY = { "IS JSON ARRAY", 1, 1, true, true, inf_is_json, ev_is_json_array, NULL };
static const WFuncDef D_IS_JSON_SCALAR = { "IS JSON SCALAR", 1, 1, true, true, inf_is_json, ev_is_json_scalar, NULL };
static const WFuncDef D_IS_NOT_JSON_VALUE = { "IS NOT JSON VALUE", 1, 1, true, true, inf_is_json, ev_is_not_json_value, NULL };
static const WFuncDef D_IS_NOT_JSON_OBJECT = { "IS NOT JSON OBJECT", 1, 1, true, true, inf_is_json, ev_is_not_json_object, NULL };
static const WFuncDef D_IS_NOT_JSON_ARRAY = { "IS NOT JSON ARRAY", 1, 1, true, true, inf_is_json, ev_is_not_json_array, NULL };
static const WFuncDef D_IS_NOT_JSON_SCALAR = { "IS NOT JSON SCALAR", 1, 1, true, true, inf_is_json, ev_is_not_json_scalar, NULL };

const WFuncDef *const wf_json_defs[] = {
    &D_JSON_VALUE, &D_JSON_QUERY, &D_JSON_EXISTS, &D_JSON_STRING, &D_JSON_OBJECT, &D_JSON_ARRAY, &D_JSON,
    &D_IS_JSON_VALUE, &D_IS_JSON_OBJECT, &D_IS_JSON_ARRAY, &D_IS_JSON_SCALAR,
    &D_IS_NOT_JSON_VALUE, &D_IS_NOT_JSON_OBJECT, &D_IS_NOT_JSON_ARRAY, &D_IS_NOT_JSON_SCALAR, NULL
};
