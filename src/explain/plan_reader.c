/*
 * plan_reader.c — EXECUTE PLAN: a compiled plan (the JSON compiled_plan.c writes, in Flink's
 * shape) read back into finalised exec-graph roots the runtime runs: catalog tables come from the
 * plan's own table definitions (schema, primary key, options), expressions from the RexNode JSON,
 * state TTLs from the `state` lists (an edited TTL wins; a missing list falls back to
 * table.exec.state.ttl). Nodes weir keeps apart from Flink's (the projection of a scan, the
 * upsert materializer of a sink) are rebuilt. See explain.h.
 */
#include "../common/base64.h"
#include "plan_reader_internal.h"
#include "../sql/parser.h"
#include "../expr/functions.h"
#include "../common/duration.h"
#include "../types/datetime.h"
#include "../types/decimal.h"

#include <limits.h>
#include <stdlib.h>
#include <assert.h>
#include <string.h>
#include <strings.h>


bool rd_fail(Rd *r, const char *fmt, const char *what)
{
    return werr_set(r->p->err, WEXC_TABLE, fmt, what ? what : "");
}

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

/* ---------------- helpers ---------------- */

int rd_int(json_t *v, int absent)
{
    if (!v) return absent;
    if (!json_is_integer(v)) return RD_BAD_INDEX;
    json_int_t i = json_integer_value(v);
    return i < 0 && i != -1 ? RD_BAD_INDEX : i > INT_MAX ? RD_BAD_INDEX : (int)i;
}

int rd_ints(Rd *r, json_t *arr, int **out)
{
    int n = (int)json_array_size(arr);
    *out = WA_ARRAY(r->a, int, n ? n : 1);
    for (int i = 0; i < n; i++) (*out)[i] = rd_int(json_array_get(arr, (size_t)i), RD_BAD_INDEX);
    return n;
}

int64_t rd_ttl(Rd *r, json_t *node, int index)
{
    json_t *st = json_object_get(node, "state");
    for (size_t i = 0; i < json_array_size(st); i++) {
        json_t *s = json_array_get(st, i);
        if ((int)json_integer_value(json_object_get(s, "index")) != index) continue;
        const char *ttl = json_string_value(json_object_get(s, "ttl"));
        int64_t ms = 0;
        WError tmp;
        werr_clear(&tmp);
        if (ttl && wduration_parse(ttl, &ms, &tmp)) return ms;
    }
    return r->dflt_ttl;
}

WRel *rd_new_rel(Rd *r, WRelKind kind, int nin)
{
    WRel *x = wrel_new(r->p, kind, nin);
    x->id = ++r->next_id;
    x->nunique = -1;
    return x;
}

/* A LookupJoin: the dim table (its physical columns, as weir writes the node) and the probe
   side's key fields; pushed-down abilities of the lookup table (Flink's jdbc filter and
   projection push-down) and constant lookup keys are refused by name. */
static WTable *table_from_json(Rd *r, json_t *tj, const char **qname);

/* Adds by to every INPUT_REF's inputIndex in j (a predicate over the dim row read as one over
   the probe row ++ the dim row). */
static void shift_refs(json_t *j, int by)
{
    if (json_is_array(j)) {
        for (size_t i = 0; i < json_array_size(j); i++) shift_refs(json_array_get(j, i), by);
        return;
    }
    if (!json_is_object(j)) return;
    const char *kind = json_string_value(json_object_get(j, "kind"));
    json_t *idx = json_object_get(j, "inputIndex");
    if (kind && !strcmp(kind, "INPUT_REF") && json_is_integer(idx))
        json_object_set_new(j, "inputIndex", json_integer(json_integer_value(idx) + by));
    const char *key;
    json_t *v;
    json_object_foreach(j, key, v) shift_refs(v, by);
}

static WRel *rd_lookup_join(Rd *r, json_t *j, WRel *in)
{
    json_t *lts = json_object_get(json_object_get(j, "temporalTable"), "lookupTableSource");
    json_t *abs = json_object_get(lts, "abilities");
    bool other = false;
    for (size_t i = 0; i < json_array_size(abs); i++) {
        const char *at = json_string_value(json_object_get(json_array_get(abs, i), "type"));
        other = other || !at || strcmp(at, "FilterPushDown") != 0;
    }
    if (other || !json_is_null(json_object_get(j, "projectionOnTemporalTable")) ||
        !json_is_null(json_object_get(j, "filterOnTemporalTable"))) {
        rd_fail(r, "EXECUTE PLAN cannot run a %s with a projection or filter pushed into its table yet.",
                "stream-exec-lookup-join_1");
        return NULL;
    }
    const char *qname;
    WTable *t = table_from_json(r, json_object_get(lts, "table"), &qname);
    if (!t) return NULL;
    WRel *dim = wrel_new(r->p, WR_SCAN, 0);
    dim->nunique = -1;
    dim->table = t;
    dim->table_qname = qname;
    int *phys = WA_ARRAY(r->a, int, t->ncols ? t->ncols : 1);
    int np = wtable_physical(t, phys);
    dim->nfields = dim->out.n = np;
    dim->fields = WA_ARRAY(r->a, int, np ? np : 1);
    dim->out.names = WA_ARRAY(r->a, const char *, np ? np : 1);
    dim->out.types = WA_ARRAY(r->a, const WType *, np ? np : 1);
    for (int i = 0; i < np; i++) {
        dim->fields[i] = i;
        dim->out.names[i] = t->cols[phys[i]].name;
        dim->out.types[i] = t->cols[phys[i]].type;
    }
    WRel *x = rd_new_rel(r, WR_LOOKUP_JOIN, 1);
    x->lookup_scan = dim;
    const char *jt = json_string_value(json_object_get(j, "joinType"));
    x->join_type = jt && !strcmp(jt, "LEFT") ? AJ_LEFT : AJ_INNER;
    json_t *lk = json_object_get(j, "lookupKeys");
    x->nkeys = (int)json_object_size(lk);
    x->keys = WA_ARRAY(r->a, int, x->nkeys ? x->nkeys : 1);
    x->right_keys = WA_ARRAY(r->a, int, x->nkeys ? x->nkeys : 1);
    const char *key;
    json_t *v;
    int k = 0;
    json_object_foreach(lk, key, v) {
        const char *kt = json_string_value(json_object_get(v, "type"));
        int di = atoi(key), li = rd_int(json_object_get(v, "index"), -1);
        if (!kt || strcmp(kt, "FieldRef") != 0 || di < 0 || di >= np || li < 0 || li >= in->out.n) {
            rd_fail(r, "EXECUTE PLAN cannot run the lookup key '%s' of a stream-exec-lookup-join_1 yet.", key);
            return NULL;
        }
        x->keys[k] = li;
        x->right_keys[k++] = di;
    }
    WSchema comb = rd_concat(r, &in->out, &dim->out);
    json_t *jc = json_object_get(j, "joinCondition");
    if (jc && !json_is_null(jc) && !(x->shown_cond = rd_rex(r, jc, &comb))) return NULL;
    /* pushed-down predicates over the dim row: evaluated with the join condition */
    WExpr *all[256];
    int n = 0;
    if (x->shown_cond) all[n++] = x->shown_cond;
    for (size_t i = 0; i < json_array_size(abs); i++) {
        json_t *preds = json_object_get(json_array_get(abs, i), "predicates");
        for (size_t k = 0; k < json_array_size(preds) && n < 256; k++) {
            json_t *pj = json_deep_copy(json_array_get(preds, k));
            shift_refs(pj, in->out.n);
            WExpr *e = rd_rex(r, pj, &comb);
            json_decref(pj);
            if (!e) return NULL;
            all[n++] = e;
        }
    }
    x->join_cond = wplan_and(r->p, all, n);
    return x;
}

/* The orderBy fields of a rank / sort node into x's sort columns; false (error set) when an
   index is outside the input row. */
bool rd_sort_fields(Rd *r, json_t *j, WRel *x, const WRel *in)
{
    json_t *of = json_object_get(json_object_get(j, "orderBy"), "fields");
    x->nsort = (int)json_array_size(of);
    x->sort_cols = WA_ARRAY(r->a, int, x->nsort ? x->nsort : 1);
    x->sort_desc = WA_ARRAY(r->a, bool, x->nsort ? x->nsort : 1);
    x->sort_nulls_first = WA_ARRAY(r->a, bool, x->nsort ? x->nsort : 1);
    for (int i = 0; i < x->nsort; i++) {
        json_t *f = json_array_get(of, (size_t)i);
        x->sort_cols[i] = rd_int(json_object_get(f, "index"), RD_BAD_INDEX);
        x->sort_desc[i] = json_is_false(json_object_get(f, "isAscending"));
        x->sort_nulls_first[i] = json_is_false(json_object_get(f, "nullIsLast"));
        if (x->sort_cols[i] < 0 || x->sort_cols[i] >= in->out.n) {
            werr_set(r->p->err, WEXC_TABLE, "Invalid compiled plan: sort field index out of range.");
            return false;
        }
    }
    return true;
}

static char *unquote_identifier(WArena *a, const char *id)
{
    WStrBuf b;
    wsb_init(&b);
    for (const char *s = id; *s; s++) if (*s != '`') wsb_putc(&b, *s);
    char *res = wa_strdup(a, b.buf ? b.buf : "");
    wsb_free(&b);
    return res;
}

/* A catalog table from {identifier, resolvedTable{schema, options}}. */
static WTable *table_from_json(Rd *r, json_t *tj, const char **qname)
{
    WArena *a = r->a;
    const char *id = json_string_value(json_object_get(tj, "identifier"));
    json_t *rt = json_object_get(tj, "resolvedTable");
    json_t *schema = json_object_get(rt, "schema");
    json_t *cols = json_object_get(schema, "columns");
    if (!id || !cols) { rd_fail(r, "The compiled plan has a table without identifier or schema%s", ""); return NULL; }
    WTable *t = WA_NEW(a, WTable);
    *qname = unquote_identifier(a, id);
    /* catalog.database.object (names with dots inside backticks are not split correctly) */
    const char *dot = strrchr(*qname, '.');
    t->name = wa_strdup(a, dot ? dot + 1 : *qname);
    t->catalog = "default_catalog";
    t->database = "default_database";
    const char *first = strchr(*qname, '.');
    if (dot && first && first != dot) {
        t->catalog = wa_strndup(a, *qname, (size_t)(first - *qname));
        t->database = wa_strndup(a, first + 1, (size_t)(dot - first - 1));
    }
    t->wm_col = -1;
    int n = (int)json_array_size(cols);
    t->ncols = n;
    t->cols = WA_ARRAY(a, WColumn, n ? n : 1);
    for (int i = 0; i < n; i++) {
        json_t *c = json_array_get(cols, (size_t)i);
        WColumn *col = &t->cols[i];
        col->name = wa_strdup(a, json_string_value(json_object_get(c, "name")) ? json_string_value(json_object_get(c, "name")) : "");
        const char *k = json_string_value(json_object_get(c, "kind"));
        if (k && !strcmp(k, "COMPUTED")) {
            col->kind = WCOL_COMPUTED;
            col->type = &WTYPE_STRING;
            continue;
        }
        col->kind = k && !strcmp(k, "METADATA") ? WCOL_METADATA : WCOL_PHYSICAL;
        if (col->kind == WCOL_METADATA) {
            const char *mk = json_string_value(json_object_get(c, "metadataKey"));
            col->metadata_key = mk ? wa_strdup(a, mk) : NULL;
            col->is_virtual = json_is_true(json_object_get(c, "isVirtual"));
        }
        col->type = rd_type(r, json_object_get(c, "dataType"));
        if (!col->type) return NULL;
    }
    json_t *pk = json_object_get(schema, "primaryKey");
    if (pk) {
        json_t *pc = json_object_get(pk, "columns");
        t->npk = (int)json_array_size(pc);
        t->pk = WA_ARRAY(a, int, t->npk ? t->npk : 1);
        for (int k = 0; k < t->npk; k++) {
            const char *cn = json_string_value(json_array_get(pc, (size_t)k));
            t->pk[k] = -1;
            for (int i = 0; i < n; i++) if (cn && !strcmp(t->cols[i].name, cn)) t->pk[k] = i;
            if (t->pk[k] < 0) { rd_fail(r, "The compiled plan's primary key names a missing column: %s", cn); return NULL; }
        }
        const char *pkn = json_string_value(json_object_get(pk, "name"));
        t->pk_name = pkn ? wa_strdup(a, pkn) : NULL;
    }
    /* PARTITIONED BY: the filesystem sink's directories, a static partition's columns */
    json_t *parts = json_object_get(rt, "partitionKeys");
    t->npartition = (int)json_array_size(parts);
    t->partition_keys = WA_ARRAY(a, int, t->npartition ? t->npartition : 1);
    for (int k = 0; k < t->npartition; k++) {
        const char *cn = json_string_value(json_array_get(parts, (size_t)k));
        t->partition_keys[k] = -1;
        for (int i = 0; i < n; i++) if (cn && !strcmp(t->cols[i].name, cn)) t->partition_keys[k] = i;
        if (t->partition_keys[k] < 0) { rd_fail(r, "The compiled plan's partition keys name a missing column: %s", cn); return NULL; }
    }
    json_t *wms = json_object_get(schema, "watermarkSpecs");
    if (json_array_size(wms)) {
        const char *ra = json_string_value(json_object_get(json_array_get(wms, 0), "rowtimeAttribute"));
        for (int i = 0; i < n; i++) if (ra && !strcmp(t->cols[i].name, ra)) t->wm_col = i;
    }
    json_t *opts = json_object_get(rt, "options");
    int no = (int)json_object_size(opts);
    t->options.items = WA_ARRAY(a, WOption, no ? no : 1);
    t->options.cap = no;
    const char *key;
    json_t *val;
    json_object_foreach(opts, key, val) {
        WOption *o = &t->options.items[t->options.n++];
        o->key = wa_strdup(a, key);
        o->value = wa_strdup(a, json_string_value(val) ? json_string_value(val) : "");
    }
    if (!wopts_get(&t->options, "connector"))
        { rd_fail(r, "The compiled plan has no options for table '%s' (compile it with weir to run it here).", *qname); return NULL; }
    return t;
}

/* ---------------- changelog modes (as the planner derives them) ---------------- */

enum { ALL_KINDS = WCM_INSERT | WCM_UPDATE_BEFORE | WCM_UPDATE_AFTER | WCM_DELETE };

static void derive_mode(WRel *x)
{
    WRel *in = x->ninputs ? x->inputs[0] : NULL;
    switch (x->kind) {
    case WR_CALC: case WR_EXCHANGE: case WR_WATERMARK: case WR_SINK: case WR_SINK_MATERIALIZER:
    case WR_MINIBATCH_ASSIGNER: case WR_CORRELATE: case WR_EXPAND: case WR_REPLICATE_ROWS: case WR_WINDOW_TVF:
        x->changelog = in->changelog;
        break;
    case WR_LOCAL_GROUP_AGG: case WR_INCREMENTAL_GROUP_AGG: x->changelog = WCM_INSERT; break;
    case WR_GLOBAL_GROUP_AGG: x->changelog = ALL_KINDS; break;
    case WR_DROP_UPDATE_BEFORE: x->changelog = in->changelog & (uint8_t)~WCM_UPDATE_BEFORE; break;
    case WR_UNION:
        x->changelog = 0;
        for (int i = 0; i < x->ninputs; i++) x->changelog |= x->inputs[i]->changelog;
        break;
    case WR_GROUP_AGG: case WR_RANK: case WR_CHANGELOG_NORMALIZE: x->changelog = ALL_KINDS; break;
    case WR_SORT_LIMIT:
        x->input_retracts = in->changelog != WCM_INSERT;
        x->changelog = !x->nsort && !x->input_retracts && !(in->changelog & WCM_UPDATE_AFTER) ? WCM_INSERT : ALL_KINDS;
        break;
    case WR_JOIN: {
        WRel *l = x->inputs[0], *rt = x->inputs[1];
        x->input_retracts = l->changelog != WCM_INSERT;
        x->right_retracts = rt->changelog != WCM_INSERT;
        bool outer = x->join_type != AJ_INNER || x->anti;
        x->changelog = (x->input_retracts || x->right_retracts || outer) ? ALL_KINDS : WCM_INSERT;
        if (x->semi) x->changelog = (x->input_retracts || x->right_retracts) ? ALL_KINDS : WCM_INSERT;
        if (x->anti) x->changelog = ALL_KINDS;
        break;
    }
    case WR_DEDUP:
        x->input_retracts = in->changelog != WCM_INSERT;
        x->changelog = (!x->keep_last && !x->dedup_rowtime && !x->input_retracts) ? WCM_INSERT : ALL_KINDS;
        break;
    case WR_SCAN: case WR_VALUES: break;
    default:
        x->changelog = WCM_INSERT;
        if (in) x->input_retracts = in->changelog != WCM_INSERT;
        break;
    }
}

static void set_unique_from(Rd *r, WRel *x, json_t *keys)
{
    if (json_array_size(keys) == 0) return;
    int *k;
    int n = rd_ints(r, json_array_get(keys, 0), &k);
    x->nunique = n;
    x->unique = k;
}

static WWindowKind window_kind(const char *t)
{
    if (!t) return WWIN_TUMBLE;
    if (!strcmp(t, "HoppingWindow") || !strcmp(t, "SlidingWindow")) return WWIN_HOP;
    if (!strcmp(t, "CumulativeWindow")) return WWIN_CUMULATE;
    if (!strcmp(t, "SessionWindow")) return WWIN_SESSION;
    return WWIN_TUMBLE;
}

/* ISO-8601 PTnHnMn.nS to ms */
static int64_t iso_ms(const char *s)
{
    if (!s) return 0;
    int64_t ms = 0;
    const char *p = s;
    if (*p == 'P') p++;
    if (*p == 'T') p++;
    while (*p) {
        char *end;
        double v = strtod(p, &end);
        if (end == p) break;
        switch (*end) {
        case 'D': ms += (int64_t)(v * 86400000.0); break;
        case 'H': ms += (int64_t)(v * 3600000.0); break;
        case 'M': ms += (int64_t)(v * 60000.0); break;
        case 'S': ms += (int64_t)(v * 1000.0 + 0.5); break;
        default: return ms;
        }
        p = end + 1;
    }
    return ms;
}

bool rd_aggs(Rd *r, json_t *calls, WRel *x)
{
    int n = (int)json_array_size(calls);
    x->naggs = n;
    x->aggs = WA_ARRAY(r->a, WAggCall, n ? n : 1);
    static const struct { const char *in; WAggKind k; const char *name; } K[] = {
        {"$COUNT$1", WAGG_COUNT, "COUNT"}, {"$SUM$1", WAGG_SUM, "SUM"}, {"$$SUM0$1", WAGG_SUM0, "SUM0"},
        {"$MIN$1", WAGG_MIN, "MIN"}, {"$MAX$1", WAGG_MAX, "MAX"}, {"$AVG$1", WAGG_AVG, "AVG"},
        {"$FIRST_VALUE$1", WAGG_FIRST_VALUE, "FIRST_VALUE"}, {"$LAST_VALUE$1", WAGG_LAST_VALUE, "LAST_VALUE"},
        {"$LISTAGG$1", WAGG_LISTAGG, "LISTAGG"}, {"$STDDEV_POP$1", WAGG_STDDEV_POP, "STDDEV_POP"},
        {"$STDDEV_SAMP$1", WAGG_STDDEV_SAMP, "STDDEV_SAMP"}, {"$VAR_POP$1", WAGG_VAR_POP, "VAR_POP"},
        {"$VAR_SAMP$1", WAGG_VAR_SAMP, "VAR_SAMP"}, {"$BOOL_AND$1", WAGG_BOOL_AND, "BOOL_AND"},
        {"$BOOL_OR$1", WAGG_BOOL_OR, "BOOL_OR"}, {"$COLLECT$1", WAGG_COLLECT, "COLLECT"},
    };
    for (int i = 0; i < n; i++) {
        json_t *c = json_array_get(calls, (size_t)i);
        WAggCall *ac = &x->aggs[i];
        const char *in = json_string_value(json_object_get(c, "internalName"));
        bool found = false;
        for (size_t k = 0; k < sizeof K / sizeof K[0]; k++)
            if (in && !strcmp(in, K[k].in)) { ac->kind = K[k].k; ac->name = K[k].name; found = true; }
        if (!found) return rd_fail(r, "The compiled plan uses an aggregate function weir does not know: %s", in);
        json_t *args = json_object_get(c, "argList");
        ac->nargs = (int)json_array_size(args);
        if (ac->nargs > 2) ac->nargs = 2;
        for (int k = 0; k < ac->nargs; k++) ac->args[k] = rd_int(json_array_get(args, (size_t)k), RD_BAD_INDEX);
        if (ac->kind == WAGG_COUNT && ac->nargs == 0) ac->kind = WAGG_COUNT_STAR;
        ac->filter_col = rd_int(json_object_get(c, "filterArg"), -1);
        ac->distinct = json_is_true(json_object_get(c, "distinct"));
        ac->type = rd_type(r, json_object_get(c, "type"));
        if (!ac->type) return false;
        const char *nm = json_string_value(json_object_get(c, "name"));
        ac->out_name = nm ? wa_strdup(r->a, nm) : NULL;
    }
    return true;
}

void rd_window(Rd *r, json_t *w, WRel *x)
{
    json_t *win = json_object_get(w, "window");
    x->win_kind = window_kind(json_string_value(json_object_get(win, "type")));
    if (x->win_kind == WWIN_SESSION) {
        x->win_gap = iso_ms(json_string_value(json_object_get(win, "gap")));
        x->win_npartition = rd_ints(r, json_object_get(win, "partition_key_indices"), &x->win_partition);
    } else {
        x->win_size = iso_ms(json_string_value(json_object_get(win, x->win_kind == WWIN_CUMULATE ? "maxSize" : "size")));
        if (x->win_kind == WWIN_HOP) x->win_slide = iso_ms(json_string_value(json_object_get(win, "slide")));
        if (x->win_kind == WWIN_CUMULATE) x->win_slide = iso_ms(json_string_value(json_object_get(win, "step")));
    }
    x->win_offset = iso_ms(json_string_value(json_object_get(win, "offset")));
    x->win_time_col = rd_int(json_object_get(w, "timeAttributeIndex"), 0);
    x->win_proctime = json_is_false(json_object_get(w, "isRowtime"));
    const char *strategy = json_string_value(json_object_get(w, "strategy"));
    if ((x->kind == WR_WINDOW_AGG || x->kind == WR_LOCAL_WINDOW_AGG || x->kind == WR_WINDOW_RANK ||
         x->kind == WR_WINDOW_JOIN) && strategy && !strcmp(strategy, "WindowAttached")) {
        x->win_attached = true;
        x->win_start_col = rd_int(json_object_get(w, "windowStart"), RD_BAD_INDEX);
        x->win_end_col = rd_int(json_object_get(w, "windowEnd"), RD_BAD_INDEX);
        x->win_time_col = x->win_end_col;
    }
}

bool rd_join_spec(Rd *r, json_t *js, WRel *x, const WSchema *combined)
{
    const char *jt = json_string_value(json_object_get(js, "joinType"));
    x->join_type = AJ_INNER;
    if (jt && !strcmp(jt, "LEFT")) x->join_type = AJ_LEFT;
    else if (jt && !strcmp(jt, "RIGHT")) x->join_type = AJ_RIGHT;
    else if (jt && !strcmp(jt, "FULL")) x->join_type = AJ_FULL;
    else if (jt && !strcmp(jt, "SEMI")) x->semi = true;
    else if (jt && !strcmp(jt, "ANTI")) x->anti = true;
    x->nkeys = rd_ints(r, json_object_get(js, "leftKeys"), &x->keys);
    int *rk;
    int nr = rd_ints(r, json_object_get(js, "rightKeys"), &rk);
    if (nr != x->nkeys) return rd_fail(r, "The compiled plan has a join with unequal key lists%s", "");
    x->right_keys = rk;
    json_t *fn = json_object_get(js, "filterNulls");
    x->key_filter_nulls = WA_ARRAY(r->a, bool, x->nkeys ? x->nkeys : 1);
    for (int k = 0; k < x->nkeys; k++) x->key_filter_nulls[k] = !json_is_false(json_array_get(fn, (size_t)k));
    json_t *c = json_object_get(js, "nonEquiCondition");
    if (c && !json_is_null(c)) {
        x->join_cond = rd_rex(r, c, combined);
        if (!x->join_cond) return false;
    }
    return true;
}

WSchema rd_concat(Rd *r, const WSchema *a, const WSchema *b)
{
    WSchema s;
    s.n = a->n + b->n;
    s.names = WA_ARRAY(r->a, const char *, s.n ? s.n : 1);
    s.types = WA_ARRAY(r->a, const WType *, s.n ? s.n : 1);
    for (int i = 0; i < a->n; i++) { s.names[i] = a->names[i]; s.types[i] = a->types[i]; }
    for (int i = 0; i < b->n; i++) { s.names[a->n + i] = b->names[i]; s.types[a->n + i] = b->types[i]; }
    return s;
}

/* StreamExecGroupWindowAggregate (legacy GROUP BY TUMBLE / HOP / SESSION): grouping, aggCalls,
   window {kind, alias, timeField, isTimeWindow, size | slide | gap}, namedWindowProperties (none,
   or w$start, w$end, [w$rowtime,] w$proctime after the aggregates), needRetraction. */
static WRel *rd_group_window(Rd *r, json_t *j, WRel *in, const WSchema *out)
{
    WRel *x = rd_new_rel(r, WR_WINDOW_AGG, 1);
    x->win_legacy = true;
    x->nkeys = rd_ints(r, json_object_get(j, "grouping"), &x->keys);
    if (!rd_aggs(r, json_object_get(j, "aggCalls"), x)) return NULL;
    json_t *w = json_object_get(j, "window");
    const char *kind = json_string_value(json_object_get(w, "kind"));
    if (!kind || (strcmp(kind, "TUMBLING") && strcmp(kind, "SLIDING") && strcmp(kind, "SESSION")) ||
        json_is_false(json_object_get(w, "isTimeWindow"))) {
        rd_fail(r, "The compiled plan has an unsupported group window kind: %s", kind ? kind : "(none)");
        return NULL;
    }
    x->win_kind = !strcmp(kind, "SLIDING") ? WWIN_HOP : !strcmp(kind, "SESSION") ? WWIN_SESSION : WWIN_TUMBLE;
    if (x->win_kind == WWIN_SESSION) {
        x->win_gap = iso_ms(json_string_value(json_object_get(w, "gap")));
    } else {
        x->win_size = iso_ms(json_string_value(json_object_get(w, "size")));
        if (x->win_kind == WWIN_HOP) x->win_slide = iso_ms(json_string_value(json_object_get(w, "slide")));
    }
    json_t *tf = json_object_get(w, "timeField");
    json_t *fi = json_object_get(tf, "fieldIndex");
    x->win_time_col = (int)json_integer_value(fi);
    if (!json_is_integer(fi) || x->win_time_col < 0 || x->win_time_col >= in->out.n ||
        in->out.types[x->win_time_col]->time_attr == WTA_NONE) {
        rd_fail(r, "The compiled plan's group window has no time attribute field%s", "");
        return NULL;
    }
    x->win_proctime = in->out.types[x->win_time_col]->time_attr == WTA_PROCTIME;
    size_t nprops = json_array_size(json_object_get(j, "namedWindowProperties"));
    size_t want = nprops == 0 ? 0 : x->win_proctime ? 3 : 4;
    if (nprops != want || out->n != x->nkeys + x->naggs + (int)want) {
        rd_fail(r, "The compiled plan's group window has unexpected named window properties%s", "");
        return NULL;
    }
    x->win_legacy_props = nprops > 0;
    x->win_out_start = x->win_out_end = x->win_out_time = -1;
    if (nprops) {
        x->win_out_start = x->nkeys + x->naggs;
        x->win_out_end = x->win_out_start + 1;
        x->win_out_time = x->win_out_start + 2;
    }
    x->input_retracts = json_is_true(json_object_get(j, "needRetraction"));
    return x;
}

/* Flink 2.3 writes a window aggregate's window_time in its outputType only when a consumer reads
   it; weir's window operators always produce start, end and time: the column is added back. */
static bool rd_window_time(Rd *r, json_t *windowing, const WRel *x, WSchema *out)
{
    if (out->n != x->win_out_start + 2) return true;
    const WType *tt = rd_type(r, json_object_get(windowing, "timeAttributeType"));
    if (!tt) return false;
    WSchema s = {out->n + 1, WA_ARRAY(r->a, const char *, out->n + 1), WA_ARRAY(r->a, const WType *, out->n + 1)};
    for (int i = 0; i < out->n; i++) {
        s.names[i] = out->names[i];
        s.types[i] = out->types[i];
    }
    s.names[out->n] = "window_time";
    s.types[out->n] = wtype_with_nullable(r->a, wtype_with_time_attr(r->a, tt, x->win_proctime ? WTA_PROCTIME : WTA_ROWTIME),
                                          false);
    *out = s;
    return true;
}

/* ---------------- nodes ---------------- */

/* A sink writes its table's physical columns, NOT NULL and lengths included (the node's outputType
   is its input's row type): the ConstraintEnforcer checks the table's types, as after an INSERT. */
/* The sink abilities of dynamicTableSink: Overwrite {overwrite} and Partitioning {partition:
   {column: value}} (INSERT [OVERWRITE] ... PARTITION (k = 'v')); the static partition is kept in
   the table's partition key order, a column that is not a partition key is refused. */
static bool rd_sink_abilities(Rd *r, json_t *abs, WRel *x)
{
    const WTable *t = x->sink_table;
    for (size_t i = 0; i < json_array_size(abs); i++) {
        json_t *ab = json_array_get(abs, i);
        const char *type = json_string_value(json_object_get(ab, "type"));
        if (type && !strcmp(type, "Overwrite")) {
            x->sink_overwrite = json_is_true(json_object_get(ab, "overwrite"));
            continue;
        }
        if (!type || strcmp(type, "Partitioning")) continue;
        json_t *part = json_object_get(ab, "partition");
        const char *key;
        json_t *v;
        json_object_foreach(part, key, v) {
            bool found = false;
            for (int k = 0; k < t->npartition; k++) found |= !strcmp(t->cols[t->partition_keys[k]].name, key);
            if (!found || !json_is_string(v))
                return rd_fail(r, "The compiled plan's Partitioning sink ability names '%s', which is not a "
                                  "partition column of the sink table (with a string value).", key);
        }
        int n = t->npartition ? t->npartition : 1;
        x->sink_static_keys = WA_ARRAY(r->a, const char *, n);
        x->sink_static_values = WA_ARRAY(r->a, const char *, n);
        x->sink_nstatic = 0;
        for (int k = 0; k < t->npartition; k++) {
            const char *name = t->cols[t->partition_keys[k]].name;
            json_t *val = json_object_get(part, name);
            if (!val) continue;
            x->sink_static_keys[x->sink_nstatic] = name;
            x->sink_static_values[x->sink_nstatic++] = wa_strdup(r->a, json_string_value(val));
        }
    }
    return true;
}

static void sink_schema_from_table(Rd *r, WRel *x)
{
    const WTable *t = x->sink_table;
    int *phys = WA_ARRAY(r->a, int, t->ncols ? t->ncols : 1);
    int np = wtable_physical(t, phys);
    if (np != x->out.n) return;     /* rd_check_node reports the mismatch */
    WSchema s = {.n = np, .names = WA_ARRAY(r->a, const char *, np ? np : 1),
                 .types = WA_ARRAY(r->a, const WType *, np ? np : 1)};
    for (int i = 0; i < np; i++) {
        s.names[i] = t->cols[phys[i]].name;
        s.types[i] = t->cols[phys[i]].type;
    }
    x->out = s;
}

static WRel *build_node(Rd *r, int pos, WRel **ins, int nin)
{
    json_t *j = r->nodes[pos];
    const char *type = json_string_value(json_object_get(j, "type"));
    r->cur_id = r->ids[pos];
    r->cur_type = type;
    if (!type) { rd_fail(r, "The compiled plan has a node without type%s", ""); return NULL; }
    WSchema out;
    if (!rd_schema(r, json_object_get(j, "outputType"), &out)) return NULL;
    WRel *in = nin ? ins[0] : NULL;
#define NEED(k) do { if (nin != (k)) { rd_fail(r, "The compiled plan's node %s has the wrong number of inputs.", type); return NULL; } } while (0)
    WRel *x;
    if (!strcmp(type, "stream-exec-table-source-scan_1") || !strcmp(type, "stream-exec-table-source-scan_2")) {
        NEED(0);
        json_t *sts = json_object_get(j, "scanTableSource");
        const char *qname;
        WTable *t = table_from_json(r, json_object_get(sts, "table"), &qname);
        if (!t) return NULL;
        x = rd_new_rel(r, WR_SCAN, 0);
        x->table = t;
        x->table_qname = qname;
        int *phys = WA_ARRAY(r->a, int, t->ncols ? t->ncols : 1);
        int np = wtable_physical(t, phys);
        x->nfields = np;
        x->fields = WA_ARRAY(r->a, int, np ? np : 1);
        x->out.n = np;
        x->out.names = WA_ARRAY(r->a, const char *, np ? np : 1);
        x->out.types = WA_ARRAY(r->a, const WType *, np ? np : 1);
        for (int i = 0; i < np; i++) {
            x->fields[i] = i;
            x->out.names[i] = t->cols[phys[i]].name;
            x->out.types[i] = t->cols[phys[i]].type;
            /* time attributes as the plan's output type marks them */
            for (int k = 0; k < out.n; k++)
                if (!strcmp(out.names[k], x->out.names[i]) && wtype_is_timestamp(out.types[k]))
                    x->out.types[i] = out.types[k];
        }
        /* the table's metadata columns, read after the physical ones as the binder reads them */
        if (!wplan_scan_metadata(r->p, t, x, wopts_get(&t->options, "connector"))) return NULL;
        const char *fmt = wopts_get(&t->options, "format");
        x->source_changelog = wplan_changelog_format(fmt);
        x->changelog = x->source_changelog ? ALL_KINDS : WCM_INSERT;
        if (wplan_upsert_connector(wopts_get(&t->options, "connector"))) {
            x->source_changelog = true;
            x->changelog = WCM_UPDATE_AFTER | WCM_DELETE;
        }
        if (x->source_changelog) {
            const char *m = wopts_get(&t->options, "changelog-csv.changelog-mode");
            if (m) {
                uint8_t bits = 0;
                if (strstr(m, "I")) bits |= WCM_INSERT;
                if (strstr(m, "UB")) bits |= WCM_UPDATE_BEFORE;
                if (strstr(m, "UA")) bits |= WCM_UPDATE_AFTER;
                if (strstr(m, "D")) bits |= WCM_DELETE;
                x->changelog = bits;
            }
        }
        if (t->npk) {
            x->nunique = t->npk;
            x->unique = WA_ARRAY(r->a, int, t->npk);
            for (int k = 0; k < t->npk; k++)
                for (int i = 0; i < np; i++) if (phys[i] == t->pk[k]) x->unique[k] = i;
        }
        /* projection push-down: the scan reads every column, a Calc picks the projected ones */
        json_t *ab = json_object_get(sts, "abilities");
        for (size_t i = 0; i < json_array_size(ab); i++) {
            json_t *ability = json_array_get(ab, i);
            const char *at = json_string_value(json_object_get(ability, "type"));
            if (!at || strcmp(at, "ProjectPushDown") != 0) continue;
            json_t *pf = json_object_get(ability, "projectedFields");
            /* the metadata keys read come after the projected physical fields */
            json_t *mkeys = NULL;
            for (size_t q = 0; q < json_array_size(ab); q++) {
                const char *qt = json_string_value(json_object_get(json_array_get(ab, q), "type"));
                if (qt && !strcmp(qt, "ReadingMetadata")) mkeys = json_object_get(json_array_get(ab, q), "metadataKeys");
            }
            int nphys = (int)json_array_size(pf);
            int n = nphys + (int)json_array_size(mkeys);
            WRel *c = rd_new_rel(r, WR_CALC, 1);
            c->inputs[0] = x;
            c->nexprs = n;
            c->exprs = WA_ARRAY(r->a, WExpr *, n ? n : 1);
            c->out.n = n;
            c->out.names = WA_ARRAY(r->a, const char *, n ? n : 1);
            c->out.types = WA_ARRAY(r->a, const WType *, n ? n : 1);
            for (int k = 0; k < n; k++) {
                int col = RD_BAD_INDEX;
                if (k < nphys) {
                    col = rd_int(json_array_get(json_array_get(pf, (size_t)k), 0), RD_BAD_INDEX);
                    if (col >= np) col = RD_BAD_INDEX;
                } else {
                    const char *key = json_string_value(json_array_get(mkeys, (size_t)(k - nphys)));
                    for (int m = 0; key && m < x->nmeta; m++) if (!strcmp(x->meta_keys[m], key)) col = np + m;
                }
                if (col < 0 || col >= x->out.n) { rd_fail(r, "The compiled plan projects a missing column%s", ""); return NULL; }
                c->exprs[k] = wexpr_column(r->a, col, x->out.types[col], x->out.names[col]);
                c->out.names[k] = x->out.names[col];
                c->out.types[k] = x->out.types[col];
            }
            c->changelog = x->changelog;
            x = c;
        }
        return x;
    }
    if (!strcmp(type, "stream-exec-calc_1")) {
        NEED(1);
        x = rd_new_rel(r, WR_CALC, 1);
        json_t *proj = json_object_get(j, "projection");
        x->nexprs = (int)json_array_size(proj);
        x->exprs = WA_ARRAY(r->a, WExpr *, x->nexprs ? x->nexprs : 1);
        for (int i = 0; i < x->nexprs; i++) {
            x->exprs[i] = rd_rex(r, json_array_get(proj, (size_t)i), &in->out);
            if (!x->exprs[i]) return NULL;
            if (i < out.n) x->exprs[i]->name = out.names[i];
        }
        json_t *c = json_object_get(j, "condition");
        if (c && !json_is_null(c)) {
            x->cond = rd_rex(r, c, &in->out);
            if (!x->cond) return NULL;
        }
    } else if (!strcmp(type, "stream-exec-watermark-assigner_1")) {
        NEED(1);
        x = rd_new_rel(r, WR_WATERMARK, 1);
        x->rowtime_col = rd_int(json_object_get(j, "rowtimeFieldIndex"), RD_BAD_INDEX);
        x->wm_expr = rd_rex(r, json_object_get(j, "watermarkExpr"), &in->out);
        if (!x->wm_expr) return NULL;
    } else if (!strcmp(type, "stream-exec-exchange_1")) {
        NEED(1);
        x = rd_new_rel(r, WR_EXCHANGE, 1);
        json_t *d = json_object_get(json_array_get(json_object_get(j, "inputProperties"), 0), "requiredDistribution");
        const char *dt = json_string_value(json_object_get(d, "type"));
        if (dt && !strcmp(dt, "HASH")) x->nkeys = rd_ints(r, json_object_get(d, "keys"), &x->keys);
        else x->exchange_single = true;
        x->nunique = in->nunique;
        x->unique = in->unique;
    } else if (!strcmp(type, "stream-exec-drop-update-before_1")) {
        NEED(1);
        x = rd_new_rel(r, WR_DROP_UPDATE_BEFORE, 1);
        x->nunique = in->nunique;
        x->unique = in->unique;
    } else if (!strcmp(type, "stream-exec-union_1")) {
        x = rd_new_rel(r, WR_UNION, nin);
        for (int i = 0; i < nin; i++) x->inputs[i] = ins[i];
    } else if (!strcmp(type, "stream-exec-values_1")) {
        NEED(0);
        x = rd_new_rel(r, WR_VALUES, 0);
        json_t *tuples = json_object_get(j, "tuples");
        x->nrows = (int)json_array_size(tuples);
        x->rows = WA_ARRAY(r->a, WDatum *, x->nrows ? x->nrows : 1);
        x->row_nulls = WA_ARRAY(r->a, uint8_t *, x->nrows ? x->nrows : 1);
        for (int i = 0; i < x->nrows; i++) {
            x->rows[i] = WA_ARRAY(r->a, WDatum, out.n ? out.n : 1);
            x->row_nulls[i] = WA_ARRAY(r->a, uint8_t, out.n ? out.n : 1);
            json_t *row = json_array_get(tuples, (size_t)i);
            for (int k = 0; k < out.n; k++) {
                WExpr *lit = rd_rex(r, json_array_get(row, (size_t)k), &out);
                if (!lit) return NULL;
                x->rows[i][k] = lit->lit;
                x->row_nulls[i][k] = lit->is_null;
            }
        }
        x->changelog = WCM_INSERT;
    } else if (!strcmp(type, "stream-exec-group-aggregate_1")) {
        NEED(1);
        x = rd_new_rel(r, WR_GROUP_AGG, 1);
        x->nkeys = rd_ints(r, json_object_get(j, "grouping"), &x->keys);
        if (!rd_aggs(r, json_object_get(j, "aggCalls"), x)) return NULL;
        x->input_retracts = json_is_true(json_object_get(j, "needRetraction"));
        x->generate_update_before = json_is_true(json_object_get(j, "generateUpdateBefore"));
        x->ttl_ms = rd_ttl(r, j, 0);
        int *u = WA_ARRAY(r->a, int, x->nkeys ? x->nkeys : 1);
        for (int i = 0; i < x->nkeys; i++) u[i] = i;
        x->nunique = x->nkeys;
        x->unique = u;
    } else if (!strcmp(type, "stream-exec-mini-batch-assigner_1")) {
        NEED(1);
        x = rd_new_rel(r, WR_MINIBATCH_ASSIGNER, 1);
        json_t *mi = json_object_get(j, "miniBatchInterval");
        x->minibatch_ms = json_integer_value(json_object_get(mi, "interval"));
        const char *mode = json_string_value(json_object_get(mi, "mode"));
        x->minibatch_rowtime = mode && !strcmp(mode, "RowTime");
        x->minibatch_check_size = true;
        x->nunique = in->nunique;
        x->unique = in->unique;
    } else if (!strcmp(type, "stream-exec-local-group-aggregate_1")) {
        NEED(1);
        x = rd_new_rel(r, WR_LOCAL_GROUP_AGG, 1);
        x->nkeys = rd_ints(r, json_object_get(j, "grouping"), &x->keys);
        if (!rd_aggs(r, json_object_get(j, "aggCalls"), x)) return NULL;
        x->input_retracts = json_is_true(json_object_get(j, "needRetraction"));
        x->agg_input = in->out;
        x->count1_col = -1;
    } else if (!strcmp(type, "stream-exec-global-group-aggregate_1")) {
        NEED(1);
        x = rd_new_rel(r, WR_GLOBAL_GROUP_AGG, 1);
        x->nkeys = rd_ints(r, json_object_get(j, "grouping"), &x->keys);
        if (!rd_aggs(r, json_object_get(j, "aggCalls"), x)) return NULL;
        if (!rd_schema(r, json_object_get(j, "localAggInputRowType"), &x->agg_input)) return NULL;
        x->input_retracts = json_is_true(json_object_get(j, "needRetraction"));
        x->generate_update_before = json_is_true(json_object_get(j, "generateUpdateBefore"));
        json_t *count_star = json_object_get(j, "indexOfCountStar");
        if (count_star) {
            json_int_t i = json_is_integer(count_star) ? json_integer_value(count_star) : -2;
            if (i < -1 || i >= x->naggs || (i >= 0 && x->aggs[i].kind != WAGG_SUM0 && x->aggs[i].kind != WAGG_COUNT_STAR))
            {
                rd_fail(r, "The compiled plan has a GlobalGroupAggregate whose indexOfCountStar is not one of "
                           "its record counts%s", "");
                return NULL;
            }
            if (i >= 0 && x->aggs[i].kind == WAGG_SUM0) x->aggs[i].counts_records = true;
        }
        x->ttl_ms = rd_ttl(r, j, 0);
        x->count1_col = -1;
        int *u = WA_ARRAY(r->a, int, x->nkeys ? x->nkeys : 1);
        for (int i = 0; i < x->nkeys; i++) u[i] = i;
        x->nunique = x->nkeys;
        x->unique = u;
    } else if (!strcmp(type, "stream-exec-incremental-group-aggregate_1")) {
        NEED(1);
        x = rd_new_rel(r, WR_INCREMENTAL_GROUP_AGG, 1);
        x->nkeys = rd_ints(r, json_object_get(j, "partialAggGrouping"), &x->keys);
        x->nfinal_keys = rd_ints(r, json_object_get(j, "finalAggGrouping"), &x->final_keys);
        if (!rd_aggs(r, json_object_get(j, "partialOriginalAggCalls"), x)) return NULL;
        if (!rd_schema(r, json_object_get(j, "partialLocalAggInputRowType"), &x->agg_input)) return NULL;
        x->input_retracts = json_is_true(json_object_get(j, "partialAggNeedRetraction"));
        x->ttl_ms = rd_ttl(r, j, 0);
        x->count1_col = -1;
    } else if (!strcmp(type, "stream-exec-join_1")) {
        NEED(2);
        x = rd_new_rel(r, WR_JOIN, 2);
        WSchema comb = rd_concat(r, &ins[0]->out, &ins[1]->out);
        if (!rd_join_spec(r, json_object_get(j, "joinSpec"), x, &comb)) return NULL;
        set_unique_from(r, ins[0], json_object_get(j, "leftUpsertKeys"));
        set_unique_from(r, ins[1], json_object_get(j, "rightUpsertKeys"));
        x->ttl_left_ms = rd_ttl(r, j, 0);
        x->ttl_right_ms = rd_ttl(r, j, 1);
        x->ttl_ms = r->dflt_ttl;
        x->join_minibatch = r->minibatch;   /* Flink reads table.exec.mini-batch.enabled, no field */
    } else if (!strcmp(type, "stream-exec-interval-join_1")) {
        NEED(2);
        x = rd_new_rel(r, WR_INTERVAL_JOIN, 2);
        json_t *ij = json_object_get(j, "intervalJoinSpec");
        WSchema comb = rd_concat(r, &ins[0]->out, &ins[1]->out);
        if (!rd_join_spec(r, json_object_get(ij, "joinSpec"), x, &comb)) return NULL;
        json_t *wb = json_object_get(ij, "windowBounds");
        x->lower_ms = json_integer_value(json_object_get(wb, "leftLowerBound"));
        x->upper_ms = json_integer_value(json_object_get(wb, "leftUpperBound"));
        x->left_time_col = rd_int(json_object_get(wb, "leftTimeIndex"), RD_BAD_INDEX);
        x->right_time_col = rd_int(json_object_get(wb, "rightTimeIndex"), RD_BAD_INDEX);
    } else if (!strcmp(type, "stream-exec-temporal-join_1")) {
        NEED(2);
        x = rd_new_rel(r, WR_TEMPORAL_JOIN, 2);
        WSchema comb = rd_concat(r, &ins[0]->out, &ins[1]->out);
        if (!rd_join_spec(r, json_object_get(j, "joinSpec"), x, &comb)) return NULL;
        x->left_time_col = rd_int(json_object_get(j, "leftTimeAttributeIndex"), 0);
        x->right_time_col = rd_int(json_object_get(j, "rightTimeAttributeIndex"), 0);
    } else if (!strcmp(type, "stream-exec-lookup-join_1")) {
        NEED(1);
        x = rd_lookup_join(r, j, in);
        if (!x) return NULL;
    } else if (!strcmp(type, "stream-exec-deduplicate_1")) {
        NEED(1);
        x = rd_new_rel(r, WR_DEDUP, 1);
        x->nkeys = rd_ints(r, json_object_get(j, "uniqueKeys"), &x->keys);
        x->dedup_rowtime = json_is_true(json_object_get(j, "isRowtime"));
        x->keep_last = json_is_true(json_object_get(j, "keepLastRow"));
        x->generate_update_before = json_is_true(json_object_get(j, "generateUpdateBefore"));
        x->ttl_ms = rd_ttl(r, j, 0);
        x->time_col = -1;
        for (int i = 0; i < in->out.n; i++)
            if (wtype_is_timestamp(in->out.types[i]) &&
                in->out.types[i]->time_attr == (x->dedup_rowtime ? WTA_ROWTIME : WTA_PROCTIME)) x->time_col = i;
        x->nunique = x->nkeys;
        x->unique = x->keys;
    } else if (!strcmp(type, "stream-exec-rank_1") || !strcmp(type, "stream-exec-sort-limit_1") ||
               !strcmp(type, "stream-exec-limit_1")) {
        NEED(1);
        x = rd_new_rel(r, strcmp(type, "stream-exec-rank_1") ? WR_SORT_LIMIT : WR_RANK, 1);
        x->sort_offset = x->sort_fetch = -1;
        const char *rt = json_string_value(json_object_get(j, "rankType"));
        x->rank_func = rt && !strcmp(rt, "RANK") ? 1 : rt && !strcmp(rt, "DENSE_RANK") ? 2 : 0;
        x->nkeys = rd_ints(r, json_object_get(json_object_get(j, "partition"), "fields"), &x->keys);
        if (!rd_sort_fields(r, j, x, in)) return NULL;
        json_t *rr = json_object_get(j, "rankRange");
        x->rank_start = json_integer_value(json_object_get(rr, "start"));
        x->rank_end = json_integer_value(json_object_get(rr, "end"));
        const char *rs = json_string_value(json_object_get(json_object_get(j, "rankStrategy"), "type"));
        x->rank_strategy = rs && !strcmp(rs, "AppendFast") ? 0 : rs && !strcmp(rs, "UpdateFast") ? 1 : 2;
        json_t *pks = json_object_get(json_object_get(j, "rankStrategy"), "primaryKeys");
        if (pks) in->nunique = rd_ints(r, pks, &in->unique);
        x->output_rank_number = json_is_true(json_object_get(j, "outputRowNumber"));
        x->rank_col = x->output_rank_number ? out.n - 1 : -1;
        x->generate_update_before = json_is_true(json_object_get(j, "generateUpdateBefore"));
        x->ttl_ms = rd_ttl(r, j, 0);
    } else if (!strcmp(type, "stream-exec-temporal-sort_1")) {
        NEED(1);
        x = rd_new_rel(r, WR_TEMPORAL_SORT, 1);
        x->sort_offset = x->sort_fetch = -1;
        if (!rd_sort_fields(r, j, x, in)) return NULL;
        if (!x->nsort || x->sort_desc[0] || in->out.types[x->sort_cols[0]]->time_attr == WTA_NONE) {
            werr_set(r->p->err, WEXC_TABLE, "Sort: Primary sort order of a streaming table must be ascending on time.\n"
                                         "please re-check sort statement according to the description above");
            return NULL;
        }
    } else if (!strcmp(type, "stream-exec-changelog-normalize_1")) {
        NEED(1);
        x = rd_new_rel(r, WR_CHANGELOG_NORMALIZE, 1);
        x->nkeys = rd_ints(r, json_object_get(j, "uniqueKeys"), &x->keys);
        x->generate_update_before = json_is_true(json_object_get(j, "generateUpdateBefore"));
        x->input_retracts = true;
        json_t *fc = json_object_get(j, "filterCondition");
        if (fc && !json_is_null(fc)) {
            x->normalize_filter = rd_rex(r, fc, &in->out);
            if (!x->normalize_filter) return NULL;
        }
        x->ttl_ms = rd_ttl(r, j, 0);
        x->nunique = x->nkeys;
        x->unique = x->keys;
    } else if (!strcmp(type, "stream-exec-group-window-aggregate_1")) {
        NEED(1);
        if (!(x = rd_group_window(r, j, in, &out))) return NULL;
    } else if (!strcmp(type, "stream-exec-window-aggregate_1")) {
        NEED(1);
        x = rd_new_rel(r, WR_WINDOW_AGG, 1);
        x->nkeys = rd_ints(r, json_object_get(j, "grouping"), &x->keys);
        if (!rd_aggs(r, json_object_get(j, "aggCalls"), x)) return NULL;
        rd_window(r, json_object_get(j, "windowing"), x);
        x->win_out_start = x->nkeys + x->naggs;
        x->win_out_end = x->win_out_start + 1;
        x->win_out_time = x->win_out_start + 2;
        if (!rd_window_time(r, json_object_get(j, "windowing"), x, &out)) return NULL;
    } else if (!strcmp(type, "stream-exec-local-window-aggregate_1")) {
        NEED(1);
        x = rd_new_rel(r, WR_LOCAL_WINDOW_AGG, 1);
        x->nkeys = rd_ints(r, json_object_get(j, "grouping"), &x->keys);
        if (!rd_aggs(r, json_object_get(j, "aggCalls"), x)) return NULL;
        rd_window(r, json_object_get(j, "windowing"), x);
        x->agg_input = in->out;
        x->count1_col = -1;
        x->win_out_start = x->win_out_end = x->win_out_time = -1;
    } else if (!strcmp(type, "stream-exec-global-window-aggregate_1")) {
        NEED(1);
        x = rd_new_rel(r, WR_GLOBAL_WINDOW_AGG, 1);
        x->nkeys = rd_ints(r, json_object_get(j, "grouping"), &x->keys);
        if (!rd_aggs(r, json_object_get(j, "aggCalls"), x)) return NULL;
        if (!rd_schema(r, json_object_get(j, "localAggInputRowType"), &x->agg_input)) return NULL;
        json_t *w = json_object_get(j, "windowing");
        rd_window(r, w, x);
        const char *strategy = json_string_value(json_object_get(w, "strategy"));
        x->win_attached = strategy && !strcmp(strategy, "WindowAttached");
        /* the time attribute of the local aggregate's input (its zone shifts the windows) */
        const WType *tt = rd_type(r, json_object_get(w, "timeAttributeType"));
        if (!tt) return NULL;
        x->win_time_col = 0;
        for (int i = x->agg_input.n - 1; i >= 0; i--)
            if (x->agg_input.types[i]->id == tt->id && x->agg_input.types[i]->time_attr == WTA_ROWTIME) x->win_time_col = i;
        x->count1_col = -1;
        x->win_out_start = x->nkeys + x->naggs;
        x->win_out_end = x->win_out_start + 1;
        x->win_out_time = x->win_out_start + 2;
        if (!rd_window_time(r, w, x, &out)) return NULL;
    } else if (!strcmp(type, "stream-exec-window-table-function_1")) {
        NEED(1);
        x = rd_new_rel(r, WR_WINDOW_TVF, 1);
        rd_window(r, json_object_get(j, "windowing"), x);
    } else if (!strcmp(type, "stream-exec-window-rank_1") || !strcmp(type, "stream-exec-window-deduplicate_1")) {
        NEED(1);
        if (!(x = rd_window_rank(r, j, in, &out, strcmp(type, "stream-exec-window-rank_1") != 0))) return NULL;
    } else if (!strcmp(type, "stream-exec-window-join_1")) {
        NEED(2);
        if (!(x = rd_window_join(r, j, ins, &out))) return NULL;
    } else if (!strcmp(type, "stream-exec-correlate_1")) {
        NEED(1);
        if (!(x = rd_correlate(r, j, in, &out))) return NULL;
    } else if (!strcmp(type, "stream-exec-expand_1")) {
        NEED(1);
        if (!(x = rd_expand(r, j, in, &out))) return NULL;
    } else if (!strcmp(type, "stream-exec-over-aggregate_1")) {
        NEED(1);
        if (!(x = rd_over_aggregate(r, j, in, &out))) return NULL;
    } else if (!strcmp(type, "stream-exec-match_1")) {
        NEED(1);
        if (!(x = rd_match(r, j, in, &out))) return NULL;
    } else if (!strcmp(type, "stream-exec-sink_1") || !strcmp(type, "stream-exec-sink_2")) {
        NEED(1);
        json_t *dts = json_object_get(j, "dynamicTableSink");
        const char *qname;
        WTable *t = table_from_json(r, json_object_get(dts, "table"), &qname);
        if (!t) return NULL;
        if (json_is_true(json_object_get(j, "requireUpsertMaterialize"))) {
            WRel *m = rd_new_rel(r, WR_SINK_MATERIALIZER, 1);
            m->inputs[0] = in;
            m->out = in->out;
            int *phys = WA_ARRAY(r->a, int, t->ncols ? t->ncols : 1);
            int np = wtable_physical(t, phys);
            m->nkeys = t->npk;
            m->keys = WA_ARRAY(r->a, int, t->npk ? t->npk : 1);
            for (int k = 0; k < t->npk; k++)
                for (int i = 0; i < np; i++) if (phys[i] == t->pk[k]) m->keys[k] = i;
            m->ttl_ms = rd_ttl(r, j, 0);
            derive_mode(m);
            in = m;
        }
        x = rd_new_rel(r, WR_SINK, 1);
        x->sink_table = t;
        x->sink_qname = qname;
        x->upsert_sink = t->npk > 0;
        if (!rd_sink_abilities(r, json_object_get(dts, "abilities"), x)) return NULL;
    } else {
        rd_fail(r, "EXECUTE PLAN cannot run a plan node of type '%s' yet.", type);
        return NULL;
    }
#undef NEED
    for (int i = 0; i < nin && i < x->ninputs; i++) x->inputs[i] = ins[i];
    if (x->kind == WR_SINK) x->inputs[0] = in;
    x->out = out;
    if (x->kind == WR_SINK) sink_schema_from_table(r, x);
    derive_mode(x);
    if (x->kind == WR_SINK && in->kind == WR_SINK_MATERIALIZER && !rd_check_node(r, in)) return NULL;
    if (!rd_check_node(r, x)) return NULL;
    return x;
}

int wplan_from_json(WPlanCtx *p, const char *json, WRel ***roots)
{
    json_error_t jerr;
    json_t *doc = json_loads(json, 0, &jerr);
    if (!doc) {
        werr_set(p->err, WEXC_TABLE, "Cannot read the compiled plan: %s (line %d, column %d).", jerr.text, jerr.line,
                 jerr.column);
        return -1;
    }
    Rd rd;
    memset(&rd, 0, sizeof rd);
    rd.p = p;
    rd.a = p->arena;
    WError tmp;
    werr_clear(&tmp);
    if (!wopts_get_duration_ms(p->config, "table.exec.state.ttl", 0, &rd.dflt_ttl, &tmp)) {
        *p->err = tmp;
        json_decref(doc);
        return -1;
    }
    bool mb = false;
    wopts_get_bool(p->config, "table.exec.mini-batch.enabled", false, &mb, &tmp);
    rd.minibatch = mb && !wplan_batch_mode(p);
    json_t *nodes = json_object_get(doc, "nodes");
    rd.edges = json_object_get(doc, "edges");
    if (!json_is_array(nodes) || !json_is_array(rd.edges) || json_array_size(nodes) == 0) {
        werr_set(p->err, WEXC_TABLE, "Cannot read the compiled plan: it has no nodes or edges.");
        json_decref(doc);
        return -1;
    }
    rd.n = (int)json_array_size(nodes);
    rd.nodes = WA_ARRAY(p->arena, json_t *, rd.n);
    rd.ids = WA_ARRAY(p->arena, int, rd.n);
    rd.rels = WA_ARRAY(p->arena, WRel *, rd.n);
    for (int i = 0; i < rd.n; i++) {
        rd.nodes[i] = json_array_get(nodes, (size_t)i);
        json_t *idj = json_object_get(rd.nodes[i], "id");
        rd.ids[i] = rd_int(idj, RD_BAD_INDEX);
        rd.rels[i] = NULL;
        if (!json_is_object(rd.nodes[i]) || !json_is_integer(idj) || rd.ids[i] < 0) {
            werr_set(p->err, WEXC_TABLE, "Invalid compiled plan: node %d of 'nodes' has no valid 'id' (an integer from 0).", i + 1);
            json_decref(doc);
            return -1;
        }
        for (int k = 0; k < i; k++)
            if (rd.ids[k] == rd.ids[i]) {
                werr_set(p->err, WEXC_TABLE, "Invalid compiled plan: two nodes have the 'id' %d.", rd.ids[i]);
                json_decref(doc);
                return -1;
            }
    }
    for (size_t e = 0; e < json_array_size(rd.edges); e++) {
        json_t *ed = json_array_get(rd.edges, e);
        json_t *sj = json_object_get(ed, "source"), *tj = json_object_get(ed, "target");
        int src = rd_int(sj, RD_BAD_INDEX), dst = rd_int(tj, RD_BAD_INDEX);
        bool known_src = false, known_dst = false;
        for (int k = 0; k < rd.n; k++) {
            if (rd.ids[k] == src) known_src = true;
            if (rd.ids[k] == dst) known_dst = true;
        }
        if (!json_is_integer(sj) || !json_is_integer(tj) || !known_src || !known_dst) {
            werr_set(p->err, WEXC_TABLE, "Invalid compiled plan: edge %zu of 'edges' does not connect two nodes of the plan "
                     "('source' and 'target' must be node ids).", e + 1);
            json_decref(doc);
            return -1;
        }
    }
    /* nodes are listed inputs first; edges give each node's inputs in order */
    int nroots = 0;
    WRel **out = WA_ARRAY(p->arena, WRel *, rd.n);
    for (int i = 0; i < rd.n; i++) {
        int nin = 0;
        WRel **ins = WA_ARRAY(p->arena, WRel *, json_array_size(rd.edges) + 1);
        for (size_t e = 0; e < json_array_size(rd.edges); e++) {
            json_t *ed = json_array_get(rd.edges, e);
            if ((int)json_integer_value(json_object_get(ed, "target")) != rd.ids[i]) continue;
            int src = (int)json_integer_value(json_object_get(ed, "source"));
            WRel *sr = NULL;
            for (int k = 0; k < i; k++) if (rd.ids[k] == src) sr = rd.rels[k];
            if (!sr) {
                werr_set(p->err, WEXC_TABLE, "Cannot read the compiled plan: node %d is used before it is defined.", src);
                json_decref(doc);
                return -1;
            }
            ins[nin++] = sr;
        }
        rd.rels[i] = build_node(&rd, i, ins, nin);
        if (!rd.rels[i] && !p->err->set) rd_fail(&rd, "The compiled plan has a node weir cannot read%s", "");
        if (!rd.rels[i] || p->err->set) {
            /* name the node in the reader's own messages (Flink's messages stay as they are) */
            if (strstr(p->err->msg, "compiled plan") && !strstr(p->err->msg, "Invalid compiled plan: node ")) {
                size_t len = strlen(p->err->msg);
                while (len && p->err->msg[len - 1] == '.') len--;
                snprintf(p->err->msg + len, sizeof p->err->msg - len, " (node %d, %s).", rd.ids[i],
                         rd.cur_type ? rd.cur_type : "without type");
            }
            json_decref(doc);
            return -1;
        }
        if (rd.rels[i]->kind == WR_SINK) out[nroots++] = rd.rels[i];
    }
    json_decref(doc);
    if (nroots == 0) {
        werr_set(p->err, WEXC_TABLE, "Cannot read the compiled plan: it has no sink.");
        return -1;
    }
    *roots = out;
    return nroots;
}
