/*
 * drop_update_before.c — the node kind DropUpdateBefore: UPDATE_BEFORE rows nobody reads dropped
 * above a source (Flink's StreamPhysicalDropUpdateBefore / StreamExecDropUpdateBefore). Its
 * operations in every stage, each beside the others: the physical derivation (changelog mode,
 * unique key, TTL, exchanges), the update-before requirement, the EXPLAIN name and digest, the
 * COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode, the cost, the Abstract Syntax
 * Tree line, the runtime operator and the job-graph operators; wkind_drop_update_before at the end
 * names them (kinds.h). Helpers shared with other kinds stay in their stage (plan_kinds.h,
 * explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_drop_update_before(Rd *r, RdNode *n)
{
    WRel *in = n->in;
    WRel *x = rd_new_rel(r, WR_DROP_UPDATE_BEFORE, 1);
    x->nunique = in->nunique;
    x->unique = in->unique;
    return x;
}

/* ---- explain: EXECUTE PLAN changelog mode (plan_reader.c) ---- */

static void mode_drop_update_before(WRel *x, WRel *in)
{
    x->changelog = in->changelog & (uint8_t)~WCM_UPDATE_BEFORE;
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_drop_update_before(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WOperator *op = wcalloc(1, sizeof *op);
    wop_init(op, &DROP_UB_OPS, &L->ctx, 1, r->out.n, r->out.types, r->out.names);
    return op;
}

const WKindDef wkind_drop_update_before = {
    .kind = WR_DROP_UPDATE_BEFORE,
    .phys = {.derive = derive_forward},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "DropUpdateBefore", .exec_type = "stream-exec-drop-update-before_1", .digest = dg_name_only},
    .cp = {.write = cp_common_fields_only, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-drop-update-before_1", 1, rdn_drop_update_before}}},
    .rd_check = {.check = rdc_passthrough},
    .rd_mode = {.mode = mode_drop_update_before},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_drop_update_before, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
