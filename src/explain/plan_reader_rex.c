/*
 * plan_reader_rex.c — EXECUTE PLAN's reading of types (Flink's type strings and JSON type
 * objects), row types and RexNodes (input references, literals, calls by internal name,
 * SEARCH/Sarg, CASTs, field access of a correlate) back into WType / WSchema / WExpr.
 * Contract: see plan_reader_internal.h.
 */
#include "plan_reader_internal.h"
#include "../common/base64.h"
#include "../sql/parser.h"
#include "../expr/functions.h"
#include "../types/datetime.h"
#include "../types/decimal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------- types ---------------- */

const WType *rd_type(Rd *r, json_t *j)
{
    WArena *a = r->a;
    if (json_is_string(j)) {
        const char *s = json_string_value(j);
        if (!strcmp(s, "NULL")) return &WTYPE_NULL;
        WError tmp;
        werr_clear(&tmp);
        AstType *t = wsql_parse_type(a, s, &tmp);
        if (!t) { rd_fail(r, "The compiled plan has a type weir cannot read: %s", s); return NULL; }
        const WType *w = wbind_type(r->p, t);
        if (!w) return NULL;
        /* VARCHAR(2147483647) is STRING */
        return w;
    }
    if (json_is_object(j)) {
        const char *ty = json_string_value(json_object_get(j, "type"));
        if (!ty) { rd_fail(r, "The compiled plan has a malformed type%s", ""); return NULL; }
        if (!strcmp(ty, "TIMESTAMP_WITHOUT_TIME_ZONE") || !strcmp(ty, "TIMESTAMP_WITH_LOCAL_TIME_ZONE")) {
            json_t *pj = json_object_get(j, "precision");
            int prec = pj ? rd_int(pj, 6) : 6;
            if (prec < 0 || prec > 9) {
                rd_fail(r, "The compiled plan has a TIMESTAMP type with a precision outside 0..9%s", "");
                return NULL;
            }
            json_t *nj = json_object_get(j, "nullable");
            bool nullable = !nj || json_is_true(nj);
            const WType *t = wtype_timestamp(a, !strcmp(ty, "TIMESTAMP_WITHOUT_TIME_ZONE") ? WT_TIMESTAMP : WT_TIMESTAMP_LTZ,
                                             prec, nullable);
            const char *kind = json_string_value(json_object_get(j, "kind"));
            if (kind && !strcmp(kind, "ROWTIME")) t = wtype_with_time_attr(a, t, WTA_ROWTIME);
            else if (kind && !strcmp(kind, "PROCTIME")) t = wtype_with_time_attr(a, t, WTA_PROCTIME);
            return t;
        }
        /* accumulators of two-phase aggregation (MapView, MIN/MAX with retraction): bytes here */
        if (!strcmp(ty, "RAW")) return &WTYPE_BYTES;
        rd_fail(r, "The compiled plan has a type weir cannot read: %s", ty);
        return NULL;
    }
    rd_fail(r, "The compiled plan has a malformed type%s", "");
    return NULL;
}

/* outputType: "ROW<`a` INT, `b` BIGINT>" or {"type":"ROW","fields":[{name, fieldType}]} */
bool rd_schema(Rd *r, json_t *j, WSchema *out)
{
    WArena *a = r->a;
    if (json_is_object(j)) {
        json_t *f = json_object_get(j, "fields");
        int n = (int)json_array_size(f);
        out->n = n;
        out->names = WA_ARRAY(a, const char *, n ? n : 1);
        out->types = WA_ARRAY(a, const WType *, n ? n : 1);
        for (int i = 0; i < n; i++) {
            json_t *fi = json_array_get(f, (size_t)i);
            out->names[i] = wa_strdup(a, json_string_value(json_object_get(fi, "name")) ? json_string_value(json_object_get(fi, "name")) : "");
            out->types[i] = rd_type(r, json_object_get(fi, "fieldType"));
            if (!out->types[i]) return false;
        }
        return true;
    }
    const char *s = json_string_value(j);
    if (!s || strncmp(s, "ROW<", 4) != 0) return rd_fail(r, "The compiled plan has a malformed outputType%s", "");
    /* split the top-level fields: `name` type, ... */
    int cap = 16, n = 0;
    const char **names = WA_ARRAY(a, const char *, cap);
    const WType **types = WA_ARRAY(a, const WType *, cap);
    const char *q = s + 4;
    while (*q && *q != '>') {
        while (*q == ' ' || *q == ',') q++;
        if (*q != '`') break;
        const char *ns = ++q;
        WStrBuf nm;
        wsb_init(&nm);
        while (*q && !(*q == '`' && q[1] != '`')) {
            if (*q == '`' && q[1] == '`') q++;
            wsb_putc(&nm, *q++);
        }
        (void)ns;
        if (*q == '`') q++;
        while (*q == ' ') q++;
        const char *ts = q;
        int depth = 0;
        while (*q) {
            if (*q == '<' || *q == '(') depth++;
            else if (*q == '>' || *q == ')') { if (depth == 0) break; depth--; }
            else if (*q == ',' && depth == 0) break;
            q++;
        }
        if (n == cap) {
            int nc = cap * 2;
            const char **nn = WA_ARRAY(a, const char *, nc);
            const WType **nt = WA_ARRAY(a, const WType *, nc);
            memcpy(nn, names, sizeof *nn * (size_t)n);
            memcpy(nt, types, sizeof *nt * (size_t)n);
            names = nn;
            types = nt;
            cap = nc;
        }
        names[n] = wa_strdup(a, nm.buf ? nm.buf : "");
        wsb_free(&nm);
        char *tstr = wa_strndup(a, ts, (size_t)(q - ts));
        json_t *tj = json_string(tstr);
        types[n] = rd_type(r, tj);
        json_decref(tj);
        if (!types[n]) return false;
        n++;
    }
    out->n = n;
    out->names = names;
    out->types = types;
    return true;
}

/* ---------------- expressions ---------------- */

static bool literal_value(Rd *r, json_t *v, const WType *t, WExpr *e)
{
    WArena *a = r->a;
    if (json_is_null(v)) { e->is_null = true; return true; }
    switch (t->id) {
    case WT_BOOLEAN: e->lit.i = json_is_true(v); return true;
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
        if (json_is_string(v)) e->lit.i = strtoll(json_string_value(v), NULL, 10);
        else e->lit.i = (int64_t)json_integer_value(v);
        return true;
    case WT_FLOAT: case WT_DOUBLE:     /* Flink writes them as decimal strings ("0.5", "10000000000") */
        if (json_is_string(v)) {
            char *end;
            e->lit.d = strtod(json_string_value(v), &end);
            if (*end) return rd_fail(r, "The compiled plan has a bad DOUBLE literal: %s", json_string_value(v));
        } else {
            e->lit.d = json_number_value(v);
        }
        return true;
    case WT_DECIMAL: {
        const char *s = json_string_value(v);
        char buf[64];
        if (!s) { snprintf(buf, sizeof buf, "%.17g", json_number_value(v)); s = buf; }
        __int128 u;
        int sc;
        if (!wdec_parse_java(s, (int)strlen(s), &u, &sc) || !wdec_rescale(u, sc, t->scale, &e->lit.dec))
            return rd_fail(r, "The compiled plan has a bad DECIMAL literal: %s", s);
        return true;
    }
    case WT_BINARY: case WT_VARBINARY: {
        const char *s = json_string_value(v);
        size_t len = s ? json_string_length(v) : 0;
        unsigned char *bytes = wa_alloc(a, len * 3 / 4 + 1);
        long n = s ? wbase64_decode(s, len, bytes, NULL) : -1;
        if (n < 0) return rd_fail(r, "The compiled plan has a bad binary literal (not base64): %s", s ? s : "");
        e->lit.s.p = (const char *)bytes;
        e->lit.s.len = (int32_t)n;
        return true;
    }
    case WT_CHAR: case WT_VARCHAR: {
        const char *s = json_string_value(v);
        if (!s) return rd_fail(r, "The compiled plan has a bad string literal%s", "");
        size_t len = json_string_length(v);
        e->lit.s.p = wa_strndup(a, s, len);
        e->lit.s.len = (int32_t)len;
        return true;
    }
    case WT_DATE: {
        const char *s = json_string_value(v);
        return (s && wparse_date(s, (int)strlen(s), &e->lit.i)) || rd_fail(r, "The compiled plan has a bad DATE literal%s", "");
    }
    case WT_TIME: {
        const char *s = json_string_value(v);
        return (s && wparse_time(s, (int)strlen(s), &e->lit.i)) || rd_fail(r, "The compiled plan has a bad TIME literal%s", "");
    }
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: {
        const char *s = json_string_value(v);
        return (s && wparse_timestamp(s, (int)strlen(s), &e->lit.ts)) ||
               rd_fail(r, "The compiled plan has a bad TIMESTAMP literal%s", "");
    }
    case WT_INTERVAL_DT: case WT_INTERVAL_YM: {
        const char *s = json_string_value(v);
        e->lit.i = s ? strtoll(s, NULL, 10) : (int64_t)json_integer_value(v);
        return true;
    }
    default:
        return rd_fail(r, "The compiled plan has a literal of a type EXECUTE PLAN cannot read yet%s", "");
    }
}

/* weir operator name for a Calcite/Flink internal name "$NAME$1" */
static const char *op_from_internal(const char *name, int nargs)
{
    static const struct { const char *calcite, *weir; } M[] = {
        {"MOD", "MOD"}, {"SIMILAR TO", "SIMILAR"},
    };
    if (!strcmp(name, "-") && nargs == 1) return "NEG";
    for (size_t i = 0; i < sizeof M / sizeof M[0]; i++) if (!strcmp(M[i].calcite, name)) return M[i].weir;
    return name;
}

/* x IS [NOT] NULL of boolean type t. */
static WExpr *rd_is_null(Rd *r, WExpr *x, bool negated, const WType *t)
{
    WExpr *e = wexpr_new(r->a, WX_IS_NULL, t, 1);
    e->args[0] = x;
    e->negated = negated;
    return e;
}

/* A call of a comparison or logical function over args (nargs 1 or 2) of boolean type t. */
static WExpr *rd_call(Rd *r, const char *fn, const WType *t, WExpr *x, WExpr *y)
{
    WExpr *e = wexpr_new(r->a, WX_CALL, t, y ? 2 : 1);
    e->args[0] = x;
    if (y) e->args[1] = y;
    e->func = wfunc_lookup(fn);
    assert(e->func);
    e->name = e->func->name;
    if (e->func->prepare && !e->func->prepare(r->a, e, r->p->err)) return NULL;
    return e;
}

static WExpr *rd_logic(Rd *r, WExprKind k, const WType *t, WExpr *x, WExpr *y)
{
    if (!x) return y;
    if (!y) return x;
    WExpr *e = wexpr_new(r->a, k, t, 2);
    e->args[0] = x;
    e->args[1] = y;
    return e;
}

/* SEARCH(x, Sarg[...]) of Calcite's plans: x IN (points) OR each other range as comparisons
   (a bound absent = unbounded), then nullAs TRUE / FALSE as OR x IS NULL / AND x IS NOT NULL. */
static WExpr *rd_search(Rd *r, json_t *ops, const WSchema *in, const WType *t)
{
    json_t *lit = json_array_get(ops, 1);
    json_t *sarg = json_object_get(lit, "sarg");
    if (json_array_size(ops) != 2 || !json_is_object(sarg)) {
        rd_fail(r, "The compiled plan has a SEARCH call without a Sarg literal%s", "");
        return NULL;
    }
    WExpr *x = rd_rex(r, json_array_get(ops, 0), in);
    const WType *pt = x ? rd_type(r, json_object_get(lit, "type")) : NULL;
    if (!pt) return NULL;
    json_t *ranges = json_object_get(sarg, "ranges");
    size_t nr = json_array_size(ranges);
    WExpr **points = WA_ARRAY(r->a, WExpr *, nr + 1);
    int np = 0;
    WExpr *any = NULL;
    for (size_t i = 0; i < nr; i++) {
        json_t *rg = json_array_get(ranges, i);
        json_t *lo = json_object_get(rg, "lower"), *hi = json_object_get(rg, "upper");
        WExpr *lv = NULL, *hv = NULL;
        if (lo) {
            lv = wexpr_new(r->a, WX_LITERAL, pt, 0);
            if (!literal_value(r, json_object_get(lo, "value"), pt, lv)) return NULL;
        }
        if (hi) {
            hv = wexpr_new(r->a, WX_LITERAL, pt, 0);
            if (!literal_value(r, json_object_get(hi, "value"), pt, hv)) return NULL;
        }
        const char *lb = json_string_value(json_object_get(lo, "boundType"));
        const char *hb = json_string_value(json_object_get(hi, "boundType"));
        bool lclosed = lb && !strcmp(lb, "CLOSED"), hclosed = hb && !strcmp(hb, "CLOSED");
        if (lo && hi && lclosed && hclosed && json_equal(json_object_get(lo, "value"), json_object_get(hi, "value"))) {
            points[np++] = lv;
            continue;
        }
        WExpr *c = NULL;
        if (lo) c = rd_call(r, lclosed ? ">=" : ">", t, x, lv);
        if (hi) c = rd_logic(r, WX_AND, t, c, rd_call(r, hclosed ? "<=" : "<", t, x, hv));
        if (!c) c = rd_is_null(r, x, true, t);       /* (-inf, +inf): every non-NULL x */
        any = rd_logic(r, WX_OR, t, any, c);
    }
    if (np > 0) {
        WExpr *inx = wexpr_new(r->a, WX_IN, t, np + 1);
        inx->args[0] = x;
        for (int i = 0; i < np; i++) inx->args[i + 1] = points[i];
        any = rd_logic(r, WX_OR, t, inx, any);
    }
    if (!any) {     /* no range: nothing matches a non-NULL x */
        any = wexpr_new(r->a, WX_LITERAL, t, 0);
        any->lit.i = 0;
    }
    const char *null_as = json_string_value(json_object_get(sarg, "nullAs"));
    if (null_as && !strcmp(null_as, "TRUE")) any = rd_logic(r, WX_OR, t, rd_is_null(r, x, false, t), any);
    else if (null_as && !strcmp(null_as, "FALSE")) any = rd_logic(r, WX_AND, t, rd_is_null(r, x, true, t), any);
    return any;
}

WExpr *rd_rex(Rd *r, json_t *j, const WSchema *in)
{
    WArena *a = r->a;
    const char *kind = json_string_value(json_object_get(j, "kind"));
    if (!kind) { rd_fail(r, "The compiled plan has a malformed expression%s", ""); return NULL; }
    if (r->hook) {
        bool handled = false;
        WExpr *h = r->hook(r, j, r->hook_ctx, &handled);
        if (h || handled) return h;
    }
    if (!strcmp(kind, "FIELD_ACCESS") && r->correl) {
        /* a Correlate's $cor0.name: the left input's column of that name */
        const char *nm = json_string_value(json_object_get(j, "name"));
        const char *dot = nm ? strrchr(nm, '.') : NULL;
        const char *col = dot ? dot + 1 : nm;
        for (int i = 0; col && i < r->correl->n; i++)
            if (!strcmp(r->correl->names[i], col))
                return wexpr_column(a, i, r->correl->types[i], r->correl->names[i]);
        rd_fail(r, "The compiled plan's correlation refers to a missing field: %s", nm);
        return NULL;
    }
    if (!strcmp(kind, "FIELD_ACCESS")) {
        /* Calcite's RexFieldAccess <expr>.<name> (no type of its own): weir's FIELD(row, index),
           nullable when the row is */
        const char *nm = json_string_value(json_object_get(j, "name"));
        WExpr *row = rd_rex(r, json_object_get(j, "expr"), in);
        if (!row) return NULL;
        const WType *rt = row->type;
        int f = -1;
        for (int i = 0; nm && rt->id == WT_ROW && i < rt->nfields; i++) if (!strcmp(rt->field_names[i], nm)) f = i;
        if (f < 0) {
            rd_fail(r, "The compiled plan accesses a field its ROW expression does not have: %s", nm ? nm : "?");
            return NULL;
        }
        WExpr *c = wexpr_new(a, WX_CALL, wtype_with_nullable(a, rt->fields[f], rt->fields[f]->nullable || rt->nullable), 2);
        c->func = wfunc_lookup("FIELD");
        assert(c->func);
        c->name = c->func->name;
        c->args[0] = row;
        WDatum fi = {.i = f};
        c->args[1] = wexpr_literal(a, &WTYPE_INT_NN, fi, false);
        return c;
    }
    const WType *t = rd_type(r, json_object_get(j, "type"));
    if (!t) return NULL;
    if (!strcmp(kind, "INPUT_REF")) {
        int idx = rd_int(json_object_get(j, "inputIndex"), RD_BAD_INDEX);
        if (idx < 0 || idx >= in->n) { rd_fail(r, "The compiled plan refers to a missing input field%s", ""); return NULL; }
        return wexpr_column(a, idx, in->types[idx], in->names[idx]);
    }
    if (!strcmp(kind, "LITERAL")) {
        WExpr *e = wexpr_new(a, WX_LITERAL, t, 0);
        if (!literal_value(r, json_object_get(j, "value"), t, e)) return NULL;
        return e;
    }
    if (strcmp(kind, "CALL") != 0) { rd_fail(r, "The compiled plan has an expression of kind %s", kind); return NULL; }
    const char *in_name = json_string_value(json_object_get(j, "internalName"));
    if (!in_name) { rd_fail(r, "The compiled plan has a call without internalName%s", ""); return NULL; }
    /* strip "$" ... "$1" */
    char name[128];
    snprintf(name, sizeof name, "%s", in_name[0] == '$' ? in_name + 1 : in_name);
    char *dollar = strrchr(name, '$');
    if (dollar && dollar != name) *dollar = 0;
    json_t *ops = json_object_get(j, "operands");
    if (!strcmp(name, "SEARCH")) return rd_search(r, ops, in, t);
    int n = (int)json_array_size(ops);
    WExpr **args = WA_ARRAY(a, WExpr *, n ? n : 1);
    for (int i = 0; i < n; i++) {
        args[i] = rd_rex(r, json_array_get(ops, (size_t)i), in);
        if (!args[i]) return NULL;
    }
    WExprKind k = WX_CALL;
    bool negated = false, try_cast = false;
    if (!strcmp(name, "AND")) k = WX_AND;
    else if (!strcmp(name, "OR")) k = WX_OR;
    else if (!strcmp(name, "NOT")) k = WX_NOT;
    else if (!strcmp(name, "IS NULL")) k = WX_IS_NULL;
    else if (!strcmp(name, "IS NOT NULL")) { k = WX_IS_NULL; negated = true; }
    else if (!strcmp(name, "CAST")) k = WX_CAST;
    else if (!strcmp(name, "TRY_CAST")) { k = WX_CAST; try_cast = true; }
    else if (!strcmp(name, "CASE")) k = WX_CASE;
    else if (!strcmp(name, "COALESCE")) k = WX_COALESCE;
    else if (!strcmp(name, "IN")) k = WX_IN;
    else if (!strcmp(name, "NOT IN")) { k = WX_IN; negated = true; }
    else if (!strcmp(name, "PROCTIME")) k = WX_PROCTIME;
    WExpr *e = wexpr_new(a, k, t, n);
    for (int i = 0; i < n; i++) e->args[i] = args[i];
    e->negated = negated;
    e->try_cast = try_cast;
    if (k == WX_CASE) e->has_else = (n % 2) == 1;
    if (k == WX_CALL) {
        const char *fn = op_from_internal(name, n);
        e->func = wfunc_lookup(fn);
        if (!e->func) { rd_fail(r, "The compiled plan calls a function weir does not know: %s", name); return NULL; }
        e->name = e->func->name;
        if (e->func->prepare && !e->func->prepare(a, e, r->p->err)) return NULL;
    }
    return e;
}

/* The internal name of call j (its "internalName"), NULL when it has none. */
const char *rd_call_name(json_t *j)
{
    return json_string_value(json_object_get(j, "internalName"));
}
