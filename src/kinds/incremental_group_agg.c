/*
 * incremental_group_agg.c — the node kind IncrementalGroupAggregate: the distinct split's partial
 * global and final local aggregate in one (Flink's StreamPhysicalIncrementalGroupAggregate /
 * StreamExecIncrementalGroupAggregate). Its operations in every stage, each beside the others: the
 * physical derivation (changelog mode, unique key, TTL, exchanges), the update-before requirement,
 * the EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode,
 * the cost, the Abstract Syntax Tree line, the runtime operator and the job-graph operators;
 * wkind_incremental_group_agg at the end names them (kinds.h). Helpers shared with other kinds
 * stay in their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_incremental_group_aggregate(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *x = rd_new_rel(r, WR_INCREMENTAL_GROUP_AGG, 1);
    WRelAgg *xa = wrel_agg_mut(x);
    x->nkeys = rd_ints(r, json_object_get(j, "partialAggGrouping"), &x->keys);
    xa->nfinal_keys = rd_ints(r, json_object_get(j, "finalAggGrouping"), &xa->final_keys);
    if (!rd_aggs(r, json_object_get(j, "partialOriginalAggCalls"), x)) return NULL;
    if (!rd_schema(r, json_object_get(j, "partialLocalAggInputRowType"), &xa->agg_input)) return NULL;
    x->input_retracts = json_is_true(json_object_get(j, "partialAggNeedRetraction"));
    x->ttl_ms = rd_ttl(r, j, 0);
    xa->count1_col = -1;
    return x;
}

/* ---- explain: EXECUTE PLAN check (plan_reader_check.c) ---- */

static bool rdc_incremental_group_agg(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    const WRelAgg *xa = wrel_agg(x);
    return rdc_indexes_ok(r, "partialAggGrouping", x->keys, x->nkeys, is->n) &&
           rdc_indexes_ok(r, "finalAggGrouping", xa->final_keys, xa->nfinal_keys, is->n) &&
           rdc_aggs_ok(r, "partialOriginalAggCalls", x, xa->agg_input.n);
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_incremental_group_agg(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelAgg *ag = wrel_agg(r);
    WIncrementalAggSpec sp = {
        .agg_ncols = ag->agg_input.n, .agg_types = ag->agg_input.types, .in_ncols = in->out.n,
        .in_types = in->out.types, .nkeys = r->nkeys, .nfinal_keys = ag->nfinal_keys,
        .final_keys = ag->final_keys, .naggs = ag->naggs, .aggs = ag->aggs,
        .input_retracts = r->input_retracts, .ttl_ms = r->ttl_ms,
        .out = {r->out.n, r->out.types, r->out.names}};
    return wop_incremental_agg_new(&L->ctx, &sp);
}

const WKindDef wkind_incremental_group_agg = {
    .kind = WR_INCREMENTAL_GROUP_AGG,
    .phys = {.derive = DERIVE_MADE_LATER},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "IncrementalGroupAggregate", .exec_type = "stream-exec-incremental-group-aggregate_1", .digest = dg_two_phase},
    .cp = {.write = cp_two_phase_group, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-incremental-group-aggregate_1", 1, rdn_incremental_group_aggregate}}},
    .rd_check = {.check = rdc_incremental_group_agg},
    .rd_mode = {.mode = mode_inserts},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_incremental_group_agg, .bundle = mb_global_group_agg},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
