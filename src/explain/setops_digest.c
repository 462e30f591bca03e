/*
 * setops_digest.c — how the plan nodes of set operations and grouping sets print: Expand
 * (projects=[{...}, ...]), the Correlate of $REPLICATE_ROWS$1 (INTERSECT ALL / EXCEPT ALL), and
 * the null-safe join condition of INTERSECT / EXCEPT, in Flink's formats. See explain_internal.h.
 */
#include "explain_internal.h"

#include <string.h>

void ex_setops_expand_digest(const ExCtx *x, const WRel *r, const char *const *inn, WStrBuf *out)
{
    const char *const *on = ex_out_names(x, r);
    int nc = r->out.n;
    wsb_puts(out, "(projects=[");
    for (int k = 0; k < wrel_expand(r)->n; k++) {
        wsb_puts(out, k ? ", {" : "{");
        for (int c = 0; c < nc; c++) {
            int s = wrel_expand(r)->src[(size_t)k * (size_t)nc + (size_t)c];
            if (c) wsb_puts(out, ", ");
            if (s >= 0) {
                if (!strcmp(inn[s], on[c])) wsb_puts(out, on[c]);
                else wsb_printf(out, "%s AS %s", inn[s], on[c]);
            } else if (s == -2) {
                wsb_printf(out, "%lld AS %s", (long long)wrel_expand(r)->ids[k], on[c]);
            } else {
                wsb_printf(out, "null AS %s", on[c]);
            }
        }
        wsb_putc(out, '}');
    }
    wsb_puts(out, "])");
}

/* Calcite's RelDataType field type: INTEGER for INT, NOT NULL when not nullable. */
static void record_field_type(WArena *a, WStrBuf *out, const WType *t)
{
    const char *s = ex_type_str(a, t);
    if (t->id == WT_INT && !strncmp(s, "INT", 3) && strncmp(s, "INTEGER", 7)) {
        wsb_puts(out, "INTEGER");
        s += 3;
    }
    wsb_puts(out, s);
}

void ex_setops_correlate_digest(const ExCtx *x, const WRel *r, const char *const *inn, WStrBuf *out)
{
    const WRel *in = r->inputs[0];
    const char *const *on = ex_out_names(x, r);
    int nin = in->out.n;
    wsb_puts(out, "(invocation=[$REPLICATE_ROWS$1(");
    for (int i = 0; i < nin; i++) wsb_printf(out, "%s$%d", i ? ", " : "", i);
    wsb_puts(out, ")], correlate=[table($REPLICATE_ROWS$1(");
    for (int i = 0; i < nin; i++) wsb_printf(out, "%s%s", i ? "," : "", inn[i]);
    wsb_puts(out, "))], select=[");
    for (int i = 0; i < r->out.n; i++) wsb_printf(out, "%s%s", i ? "," : "", on[i]);
    wsb_puts(out, "], rowType=[RecordType(");
    for (int i = 0; i < r->out.n; i++) {
        if (i) wsb_puts(out, ", ");
        record_field_type(x->p->arena, out, r->out.types[i]);
        wsb_printf(out, " %s", on[i]);
    }
    wsb_puts(out, ")], joinType=[INNER])");
}

bool ex_setops_null_safe_condition(const WRel *r, const char *const *names, ExDialect d, WStrBuf *out)
{
    if (r->kind != WR_JOIN || r->nkeys == 0 || wrel_join(r)->cond || !wrel_join(r)->key_filter_nulls) return false;
    for (int k = 0; k < r->nkeys; k++) if (wrel_join(r)->key_filter_nulls[k]) return false;
    int ln = r->inputs[0]->out.n;
    bool exec = d == EXD_EXEC;
    if (r->nkeys == 1) {
        wsb_printf(out, "IS NOT DISTINCT FROM(%s, %s)", names[r->keys[0]], names[ln + wrel_join(r)->right_keys[0]]);
        return true;
    }
    wsb_puts(out, exec ? "(" : "AND(");
    for (int k = 0; k < r->nkeys; k++) {
        const char *a = names[r->keys[k]], *b = names[ln + wrel_join(r)->right_keys[k]];
        if (k) wsb_puts(out, exec ? " AND " : ", ");
        if (exec) wsb_printf(out, "((%s = %s) OR (%s IS NULL AND %s IS NULL))", a, b, a, b);
        else wsb_printf(out, "OR(=(%s, %s), AND(IS NULL(%s), IS NULL(%s)))", a, b, a, b);
    }
    wsb_putc(out, ')');
    return true;
}
