/*
 * correlate.c — the node kind Correlate of $UNNEST_ROWS$1: UNNEST of an ARRAY, MAP or MULTISET
 * (Flink's StreamPhysicalCorrelate / StreamExecCorrelate). Its operations in every stage, each
 * beside the others: the physical derivation (changelog mode, unique key, TTL, exchanges), the
 * update-before requirement, the EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE
 * PLAN check and changelog mode, the cost, the Abstract Syntax Tree line, the runtime operator and
 * the job-graph operators; wkind_correlate at the end names them (kinds.h). Helpers shared with
 * other kinds stay in their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_correlate(const DgNode *dn, WStrBuf *out)
{
    ex_correlate_digest(dn->x, dn->r, out);
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_correlate(const CpNode *cn, json_t *j)
{
    ex_correlate_json(cn->x, cn->r, j);
    return false;
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_correlate(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    const WRelCorrelate *rc = wrel_correlate(r);
    WCorrelateSpec sp = {
        .in_ncols = r->inputs[0]->out.n, .in_types = r->inputs[0]->out.types, .nleft = rc->nleft_out,
        .collection = rc->collection, .ordinality = rc->ordinality, .left_join = rc->join_type == AJ_LEFT,
        .cond = rc->cond, .ncols = r->out.n, .types = r->out.types, .names = r->out.names};
    return wop_correlate_new(&L->ctx, &sp);
}

const WKindDef wkind_correlate = {
    .kind = WR_CORRELATE,
    .phys = {.derive = derive_input_modes},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "Correlate", .exec_type = "stream-exec-correlate_1", .digest = dg_correlate},
    .cp = {.write = cp_correlate, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_check = {.check = rdc_own_reader},
    .rd_mode = {.mode = mode_as_input},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_correlate, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
