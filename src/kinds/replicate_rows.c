/*
 * replicate_rows.c — the node kind Correlate of $REPLICATE_ROWS$1: each row n times, for
 * INTERSECT ALL / EXCEPT ALL (Flink's StreamPhysicalCorrelate / StreamExecCorrelate). Its
 * operations in every stage, each beside the others: the physical derivation (changelog mode,
 * unique key, TTL, exchanges), the update-before requirement, the EXPLAIN name and digest, the
 * COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode, the cost, the Abstract Syntax
 * Tree line, the runtime operator and the job-graph operators; wkind_replicate_rows at the end
 * names them (kinds.h). Helpers shared with other kinds stay in their stage (plan_kinds.h,
 * explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_replicate_rows(const DgNode *dn, WStrBuf *out)
{
    ex_setops_correlate_digest(dn->x, dn->r, dn->inn, out);
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_replicate_rows(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    WArena *a = cn->a;
    const WRel *in = cn->in;
    const int *cm = cn->cm;
    /* Correlate with the internal table function $REPLICATE_ROWS$1 over all input fields
       (the count first); its row type is the fields it appends */
    json_object_set_new(j, "joinType", json_string("INNER"));
    json_t *fc = json_object(), *ops = json_array();
    json_object_set_new(fc, "kind", json_string("CALL"));
    json_object_set_new(fc, "internalName", json_string("$REPLICATE_ROWS$1"));
    for (int i = 0; i < in->out.n; i++) json_array_append_new(ops, cp_input_ref_json(in, i, cm));
    json_object_set_new(fc, "operands", ops);
    const char *const *on = ex_out_names(x, r);
    int nf = r->out.n - in->out.n;
    WSchema fs = {nf, (const char **)on + in->out.n, r->out.types + in->out.n};
    json_t *row = ex_row_type_json(a, &fs);
    if (json_is_string(row)) {
        json_t *nn = json_string(wa_sprintf(a, "%s NOT NULL", json_string_value(row)));
        json_decref(row);
        row = nn;
    }
    json_object_set_new(fc, "type", row);
    json_object_set_new(j, "functionCall", fc);
    json_object_set_new(j, "condition", json_null());
    return false;
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_replicate_rows(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    return wop_replicate_rows_new(&L->ctx, r->out.n, r->out.types, r->out.names);
}

const WKindDef wkind_replicate_rows = {
    .kind = WR_REPLICATE_ROWS,
    .phys = {.derive = derive_input_modes},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "Correlate", .exec_type = "stream-exec-correlate_1", .digest = dg_replicate_rows},
    .cp = {.write = cp_replicate_rows, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = RD_READ_BY_ANOTHER_KIND,
    .rd_check = {.check = rdc_own_reader},
    .rd_mode = {.mode = mode_as_input},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_replicate_rows, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name = "Correlate", .add_ops = vx_plain},
};
