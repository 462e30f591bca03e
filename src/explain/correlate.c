/*
 * correlate.c — the Correlate node of UNNEST as Flink prints it: the digest
 * `Correlate(invocation=[$UNNEST_ROWS$1($cor0.c)], correlate=[table(...)], select=[a,b,c,f0],
 * rowType=[RecordType(...)], joinType=[INNER][, condition=[...]])` and the compiled-plan fields
 * of stream-exec-correlate_1 (joinType, functionCall, condition). See explain_internal.h.
 */
#include "explain_internal.h"

#include <string.h>

static const char *function_name(const WRel *r)
{
    return wrel_correlate(r)->ordinality ? "$UNNEST_ROWS_WITH_ORDINALITY$1" : "$UNNEST_ROWS$1";
}

/* Calcite's RelDataType#toString: no NOT NULL, nested rows as RecordType:peek_no_expand(...). */
static void calcite_type(WStrBuf *out, const WType *t)
{
    switch (t->id) {
    case WT_ARRAY: calcite_type(out, t->elem); wsb_puts(out, " ARRAY"); return;
    case WT_MULTISET: calcite_type(out, t->elem); wsb_puts(out, " MULTISET"); return;
    case WT_MAP:
        wsb_putc(out, '(');
        calcite_type(out, t->key);
        wsb_puts(out, ", ");
        calcite_type(out, t->elem);
        wsb_puts(out, ") MAP");
        return;
    case WT_ROW:
        wsb_puts(out, "RecordType:peek_no_expand(");
        for (int i = 0; i < t->nfields; i++) {
            if (i) wsb_puts(out, ", ");
            calcite_type(out, t->fields[i]);
            wsb_printf(out, " %s", t->field_names ? t->field_names[i] : "");
        }
        wsb_putc(out, ')');
        return;
    default:
        wcast_calcite_type_name(t, out);
        if (t->time_attr == WTA_ROWTIME) wsb_puts(out, " *ROWTIME*");
        else if (t->time_attr == WTA_PROCTIME) wsb_puts(out, " *PROCTIME*");
        return;
    }
}

/* Names of the left input's columns as the correlation variable's fields: $cor0.name. */
static const char *const *cor_names(const ExCtx *x, const WRel *r)
{
    const WRel *in = r->inputs[0];
    int n = in->out.n;
    const char **names = WA_ARRAY(x->p->arena, const char *, n ? n : 1);
    for (int i = 0; i < n; i++) names[i] = wa_sprintf(x->p->arena, "$cor%d.%s", wrel_correlate(r)->cor_id, ex_in_name(x, in, i));
    return names;
}

void ex_correlate_digest(const ExCtx *x, const WRel *r, WStrBuf *out)
{
    WStrBuf call;
    wsb_init(&call);
    wsb_printf(&call, "%s(", function_name(r));
    ex_rex(&call, wrel_correlate(r)->collection, cor_names(x, r), EXD_REL);
    wsb_putc(&call, ')');
    wsb_printf(out, "(invocation=[%s], correlate=[table(%s)], select=[", call.buf, call.buf);
    wsb_free(&call);
    const char *const *names = ex_out_names(x, r);
    for (int i = 0; i < r->out.n; i++) wsb_printf(out, "%s%s", i ? "," : "", names[i]);
    wsb_puts(out, "], rowType=[RecordType(");
    for (int i = 0; i < r->out.n; i++) {
        if (i) wsb_puts(out, ", ");
        calcite_type(out, r->out.types[i]);
        wsb_printf(out, " %s", names[i]);
    }
    wsb_printf(out, ")], joinType=[%s]", wrel_correlate(r)->join_type == AJ_LEFT ? "LEFT" : "INNER");
    if (wrel_correlate(r)->cond) {
        wsb_puts(out, ", condition=[");
        ex_rex(out, wrel_correlate(r)->cond, NULL, EXD_AST);
        wsb_putc(out, ']');
    }
    wsb_putc(out, ')');
}

/* INPUT_REF operands become fields of the correlation variable. Takes j (owned), returns an
   owned reference. */
static json_t *correl_refs(json_t *j, const char *const *names, const char *cor, json_t *cor_type)
{
    if (json_is_array(j)) {
        for (size_t i = 0; i < json_array_size(j); i++) {
            json_t *item = json_incref(json_array_get(j, i));
            json_array_set_new(j, i, correl_refs(item, names, cor, cor_type));
        }
        return j;
    }
    if (!json_is_object(j)) return j;
    const char *kind = json_string_value(json_object_get(j, "kind"));
    if (kind && !strcmp(kind, "INPUT_REF")) {
        int idx = (int)json_integer_value(json_object_get(j, "inputIndex"));
        json_t *f = json_object();
        json_object_set_new(f, "kind", json_string("FIELD_ACCESS"));
        json_object_set_new(f, "name", json_string(names[idx]));
        json_t *v = json_object();
        json_object_set_new(v, "kind", json_string("CORREL_VARIABLE"));
        json_object_set_new(v, "correl", json_string(cor));
        json_object_set(v, "type", cor_type);
        json_object_set_new(f, "expr", v);
        json_decref(j);
        return f;
    }
    json_t *ops = json_object_get(j, "operands");
    if (ops) json_object_set_new(j, "operands", correl_refs(json_incref(ops), names, cor, cor_type));
    return j;
}

void ex_correlate_json(const ExCtx *x, const WRel *r, json_t *j)
{
    WArena *a = x->p->arena;
    const WRel *in = r->inputs[0];
    const WRelCorrelate *rc = wrel_correlate(r);
    json_object_set_new(j, "joinType", json_string(rc->join_type == AJ_LEFT ? "LEFT" : "INNER"));
    const char **phys, **sql;
    const WType **types;
    int nf = wunnest_columns(x->p, rc->collection->type, rc->ordinality, false, &phys, &sql, &types);
    /* the correlation variable: the left row and the UNNEST columns as the query names them */
    int nl = rc->nleft_out;
    int nc = nl + nf;
    const char **cn = WA_ARRAY(a, const char *, nc ? nc : 1);
    const WType **ct = WA_ARRAY(a, const WType *, nc ? nc : 1);
    for (int i = 0; i < nl; i++) { cn[i] = ex_in_name(x, in, i); ct[i] = in->out.types[i]; }
    for (int i = 0; i < nf; i++) { cn[nl + i] = r->nalias ? r->alias_names[i] : sql[i]; ct[nl + i] = types[i]; }
    json_t *cor_type = ex_type_json(wtype_row(a, nc, cn, ct, false));
    const char **ln = WA_ARRAY(a, const char *, in->out.n ? in->out.n : 1);
    for (int i = 0; i < in->out.n; i++) ln[i] = ex_in_name(x, in, i);
    json_t *fc = json_object();
    json_object_set_new(fc, "kind", json_string("CALL"));
    json_object_set_new(fc, "internalName", json_string(function_name(r)));
    json_t *ops = json_array();
    json_array_append_new(ops, correl_refs(ex_rex_json(x->p, rc->collection, NULL), ln,
                                           wa_sprintf(a, "$cor%d", rc->cor_id < 0 ? 0 : rc->cor_id), cor_type));
    json_object_set_new(fc, "operands", ops);
    json_object_set_new(fc, "type", ex_type_json(wtype_row(a, nf, phys, types, true)));
    json_decref(cor_type);
    json_object_set_new(j, "functionCall", fc);
    json_object_set_new(j, "condition", rc->cond ? ex_rex_json(x->p, rc->cond, NULL) : json_null());
}
