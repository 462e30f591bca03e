/*
 * local_group_agg.c — the node kind LocalGroupAggregate: the first phase of a two-phase
 * aggregation, partial accumulators per mini-batch (Flink's StreamPhysicalLocalGroupAggregate /
 * StreamExecLocalGroupAggregate). Its operations in every stage, each beside the others: the
 * physical derivation (changelog mode, unique key, TTL, exchanges), the update-before requirement,
 * the EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode,
 * the cost, the Abstract Syntax Tree line, the runtime operator and the job-graph operators;
 * wkind_local_group_agg at the end names them (kinds.h). Helpers shared with other kinds stay in
 * their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_local_group_aggregate(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *in = n->in;
    WRel *x = rd_new_rel(r, WR_LOCAL_GROUP_AGG, 1);
    WRelAgg *xa = wrel_agg_mut(x);
    x->nkeys = rd_ints(r, json_object_get(j, "grouping"), &x->keys);
    if (!rd_aggs(r, json_object_get(j, "aggCalls"), x)) return NULL;
    x->input_retracts = json_is_true(json_object_get(j, "needRetraction"));
    xa->agg_input = in->out;
    xa->count1_col = -1;
    return x;
}

/* ---- explain: EXECUTE PLAN check (plan_reader_check.c) ---- */

static bool rdc_local_group_agg(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    if (!rdc_indexes_ok(r, "grouping", x->keys, x->nkeys, is->n) || !rdc_aggs_ok(r, "aggCalls", x, is->n)) return false;
    if (x->out.n < x->nkeys) return rdc_width_ok(r, x, x->nkeys);
    for (int k = 0; k < x->nkeys; k++)
        if (!rdc_columns_ok(r, x, k, is, x->keys[k], 1)) return false;
    return true;
}

/* ---- runtime: the operator (build.c) ---- */

static bool mb_local_group_agg(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb)
{
    mb->mode = WMB_FOLD;
    mb->nkeys = r->nkeys;
    mb->keys = r->keys;
    return true;
}

static WOperator *bd_local_group_agg(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelAgg *ag = wrel_agg(r);
    WLocalAggSpec sp = {
        .in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
        .naggs = ag->naggs, .aggs = ag->aggs, .input_retracts = r->input_retracts,
        .out = {r->out.n, r->out.types, r->out.names}};
    return wop_local_agg_new(&L->ctx, &sp);
}

const WKindDef wkind_local_group_agg = {
    .kind = WR_LOCAL_GROUP_AGG,
    .phys = {.derive = DERIVE_MADE_LATER},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "LocalGroupAggregate", .exec_type = "stream-exec-local-group-aggregate_1", .digest = dg_two_phase},
    .cp = {.write = cp_two_phase_group, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-local-group-aggregate_1", 1, rdn_local_group_aggregate}}},
    .rd_check = {.check = rdc_local_group_agg},
    .rd_mode = {.mode = mode_inserts},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_local_group_agg, .bundle = mb_local_group_agg},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
