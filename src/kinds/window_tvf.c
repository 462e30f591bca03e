/*
 * window_tvf.c — the node kind WindowTableFunction: TUMBLE / HOP / CUMULATE / SESSION (TABLE t,
 * DESCRIPTOR(ts), ...) (Flink's StreamPhysicalWindowTableFunction /
 * StreamExecWindowTableFunction). Its operations in every stage, each beside the others: the
 * physical derivation (changelog mode, unique key, TTL, exchanges), the update-before requirement,
 * the EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode,
 * the cost, the Abstract Syntax Tree line, the runtime operator and the job-graph operators;
 * wkind_window_tvf at the end names them (kinds.h). Helpers shared with other kinds stay in their
 * stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the physical derivation (physical.c) ---- */

static WRel *derive_window_tvf(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    const WRelWindow *rw = wrel_window(r);
    r->changelog = in->changelog;
    /* as Flink's StreamPhysicalWindowTableFunction: a SESSION window table function needs
       all rows of a partition in one place, hashed by its partition keys (single without) */
    if (rw->kind == WWIN_SESSION && !rw->legacy)
        r->inputs[0] = wphys_exchange(p, in, rw->npartition, rw->partition);
    return r;
}

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_window_tvf(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = wrel_as_windowed(dn->r);
    const char *const *inn = dn->inn;
    wsb_puts(out, "(window=[");
    dg_window_spec(out, r, inn[wrel_window(r)->time_col], NULL, NULL, inn);
    wsb_puts(out, "])");
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_window_table_function(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *x = rd_new_rel(r, WR_WINDOW_TVF, 1);
    rd_window(r, json_object_get(j, "windowing"), x);
    return x;
}

/* ---- explain: EXECUTE PLAN check (plan_reader_check.c) ---- */

static bool rdc_window_tvf(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    const WRelWindow *xw = wrel_window(x);
    if (!rdc_window_ok(r, "windowing", x, is) ||
        !rdc_indexes_ok(r, "windowing.window.partition_key_indices", xw->partition, xw->npartition, is->n) ||
        !rdc_width_ok(r, x, is->n + 3) || !rdc_columns_ok(r, x, 0, is, 0, is->n))
        return false;
    for (int i = is->n; i < is->n + 3; i++)
        if (rdc_repr_class(x->out.types[i]->id) != 5)
            return rdc_bad(r, "outputType", "declares window column %d as %s, not a TIMESTAMP.", i,
                       rdc_tn(x->out.types[i], (char[96]){0}));
    return true;
}

/* ---- explain: Abstract Syntax Tree line (logical.c) ---- */

/* A field type as Calcite's RecordType lists it: no nullability, time attributes marked
   (TIMESTAMP(3) *ROWTIME*, TIMESTAMP_LTZ(3) *PROCTIME*). */
static void record_field_type(WStrBuf *out, const WType *t)
{
    if (wtype_is_timestamp(t) && t->time_attr != WTA_NONE) {
        wsb_printf(out, "%s(%d) %s", t->id == WT_TIMESTAMP_LTZ ? "TIMESTAMP_LTZ" : "TIMESTAMP", t->precision,
                   t->time_attr == WTA_ROWTIME ? "*ROWTIME*" : "*PROCTIME*");
        return;
    }
    ex_calcite_type_name(out, t);
}

static bool ast_window_tvf(AstNode *a)
{
    WPlanCtx *p = a->p;
    const WRel *r = a->r;
    const WRelWindow *rw = wrel_window(r);
    WStrBuf *out = a->out;
    bool *last = a->last;
    int depth = a->depth;
    const char *path = a->path;
    /* Calcite's call: TUMBLE(TABLE(#0), DESCRIPTOR(_UTF-16LE'ts'), 10000:INTERVAL SECOND), the
       intervals in the order of the function's parameters (HOP/CUMULATE: slide or step, then
       size; the offset last) */
    static const char *const K[WWIN_NKINDS] = {"TUMBLE", "HOP", "CUMULATE", "SESSION"};
    wsb_printf(out, "LogicalTableFunctionScan(invocation=[%s(TABLE(#0)", K[rw->kind]);
    if (rw->npartition) {
        wsb_puts(out, " PARTITION BY(");
        for (int k = 0; k < rw->npartition; k++) wsb_printf(out, "%s$%d", k ? ", " : "", rw->partition[k]);
        wsb_putc(out, ')');
    }
    wsb_printf(out, ", DESCRIPTOR(_UTF-16LE'%s')", r->inputs[0]->out.names[rw->time_col]);
    const WExpr *order[3] = {rw->args[1], rw->args[0], rw->args[2]};
    for (int k = 0; k < 3; k++) {
        if (!order[k]) continue;
        wsb_puts(out, ", ");
        ex_literal(out, order[k], EXD_AST);
    }
    wsb_puts(out, ")], rowType=[RecordType(");
    for (int i = 0; i < r->out.n; i++) {
        if (i) wsb_puts(out, ", ");
        record_field_type(out, r->out.types[i]);
        wsb_printf(out, " %s", r->out.names[i]);
    }
    wsb_puts(out, ")])\n");
    if (rw->table_input && depth < 254) {
        /* TABLE t reads the table's columns through a projection */
        const WRel *in = r->inputs[0];
        last[depth + 1] = true;
        ast_prefix(out, last, depth + 1);
        wsb_puts(out, "LogicalProject(");
        for (int i = 0; i < in->out.n; i++) wsb_printf(out, "%s%s=[$%d]", i ? ", " : "", in->out.names[i], i);
        wsb_puts(out, ")\n");
        ast_children(p, r, out, last, depth + 1, path);
        return false;
    }
    return true;
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_window_tvf(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    WWindowTvfSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types,
                         .win = bd_window_def(L, r, in), .out = {r->out.n, r->out.types, r->out.names}};
    return wop_window_tvf_new(&L->ctx, &sp);
}

const WKindDef wkind_window_tvf = {
    .kind = WR_WINDOW_TVF,
    .phys = {.derive = derive_window_tvf},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "WindowTableFunction", .exec_type = "stream-exec-window-table-function_1", .digest = dg_window_tvf},
    .cp = {.write = cp_windowed_agg, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-window-table-function_1", 1, rdn_window_table_function}}},
    .rd_check = {.check = rdc_window_tvf},
    .rd_mode = {.mode = mode_as_input},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = ast_window_tvf},
    .build = {.build = bd_window_tvf, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
