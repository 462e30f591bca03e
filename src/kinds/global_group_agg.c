/*
 * global_group_agg.c — the node kind GlobalGroupAggregate: the second phase, partial accumulators
 * merged into state (Flink's StreamPhysicalGlobalGroupAggregate / StreamExecGlobalGroupAggregate).
 * Its operations in every stage, each beside the others: the physical derivation (changelog mode,
 * unique key, TTL, exchanges), the update-before requirement, the EXPLAIN name and digest, the
 * COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode, the cost, the Abstract Syntax
 * Tree line, the runtime operator and the job-graph operators; wkind_global_group_agg at the end
 * names them (kinds.h). Helpers shared with other kinds stay in their stage (plan_kinds.h,
 * explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_global_group_aggregate(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *x = rd_new_rel(r, WR_GLOBAL_GROUP_AGG, 1);
    WRelAgg *xa = wrel_agg_mut(x);
    x->nkeys = rd_ints(r, json_object_get(j, "grouping"), &x->keys);
    if (!rd_aggs(r, json_object_get(j, "aggCalls"), x)) return NULL;
    if (!rd_schema(r, json_object_get(j, "localAggInputRowType"), &xa->agg_input)) return NULL;
    x->input_retracts = json_is_true(json_object_get(j, "needRetraction"));
    x->generate_update_before = json_is_true(json_object_get(j, "generateUpdateBefore"));
    json_t *count_star = json_object_get(j, "indexOfCountStar");
    if (count_star) {
        json_int_t i = json_is_integer(count_star) ? json_integer_value(count_star) : -2;
        if (i < -1 || i >= xa->naggs || (i >= 0 && xa->aggs[i].kind != WAGG_SUM0 && xa->aggs[i].kind != WAGG_COUNT_STAR))
        {
            rd_fail(r, "The compiled plan has a GlobalGroupAggregate whose indexOfCountStar is not one of "
                       "its record counts%s", "");
            return NULL;
        }
        if (i >= 0 && xa->aggs[i].kind == WAGG_SUM0) xa->aggs[i].counts_records = true;
    }
    x->ttl_ms = rd_ttl(r, j, 0);
    xa->count1_col = -1;
    int *u = WA_ARRAY(r->a, int, x->nkeys ? x->nkeys : 1);
    for (int i = 0; i < x->nkeys; i++) u[i] = i;
    x->nunique = x->nkeys;
    x->unique = u;
    return x;
}

/* ---- explain: EXECUTE PLAN check (plan_reader_check.c) ---- */

static bool rdc_global_group_agg(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    const WRelAgg *xa = wrel_agg(x);
    return rdc_indexes_ok(r, "grouping", x->keys, x->nkeys, is->n) &&
           rdc_aggs_ok(r, "aggCalls", x, xa->agg_input.n) && rdc_keys_aggs_out_ok(r, x, is, 0);
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_global_group_agg(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelAgg *ag = wrel_agg(r);
    WGlobalAggSpec sp = {
        .agg_ncols = ag->agg_input.n, .agg_types = ag->agg_input.types, .in_ncols = in->out.n,
        .in_types = in->out.types, .nkeys = r->nkeys, .naggs = ag->naggs, .aggs = ag->aggs,
        .input_retracts = r->input_retracts, .generate_update_before = r->generate_update_before,
        .ttl_ms = r->ttl_ms, .state_name = "globalGroupAggregateState",
        .out = {r->out.n, r->out.types, r->out.names}};
    return wop_global_agg_new(&L->ctx, &sp);
}

const WKindDef wkind_global_group_agg = {
    .kind = WR_GLOBAL_GROUP_AGG,
    .phys = {.derive = DERIVE_MADE_LATER},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "GlobalGroupAggregate", .exec_type = "stream-exec-global-group-aggregate_1", .digest = dg_two_phase},
    .cp = {.write = cp_two_phase_group, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-global-group-aggregate_1", 1, rdn_global_group_aggregate}}},
    .rd_check = {.check = rdc_global_group_agg},
    .rd_mode = {.mode = mode_all_kinds},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_global_group_agg, .bundle = mb_global_group_agg},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
