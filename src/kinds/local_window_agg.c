/*
 * local_window_agg.c — the node kind LocalWindowAggregate: partial accumulators per key and slice
 * (Flink's StreamPhysicalLocalWindowAggregate / StreamExecLocalWindowAggregate). Its operations in
 * every stage, each beside the others: the physical derivation (changelog mode, unique key, TTL,
 * exchanges), the update-before requirement, the EXPLAIN name and digest, the COMPILE PLAN fields,
 * the EXECUTE PLAN check and changelog mode, the cost, the Abstract Syntax Tree line, the runtime
 * operator and the job-graph operators; wkind_local_window_agg at the end names them (kinds.h).
 * Helpers shared with other kinds stay in their stage (plan_kinds.h, explain_kinds.h,
 * runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_local_window_aggregate(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *in = n->in;
    WRel *x = rd_new_rel(r, WR_LOCAL_WINDOW_AGG, 1);
    WRelWindow *xw = wrel_window_mut(x);
    WRelAgg *xa = wrel_agg_mut(x);
    x->nkeys = rd_ints(r, json_object_get(j, "grouping"), &x->keys);
    if (!rd_aggs(r, json_object_get(j, "aggCalls"), x)) return NULL;
    rd_window(r, json_object_get(j, "windowing"), x);
    xa->agg_input = in->out;
    xa->count1_col = -1;
    xw->out_start = xw->out_end = xw->out_time = -1;
    return x;
}

/* ---- explain: EXECUTE PLAN check (plan_reader_check.c) ---- */

static bool rdc_local_window_agg(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return rdc_indexes_ok(r, "grouping", x->keys, x->nkeys, is->n) && rdc_aggs_ok(r, "aggCalls", x, is->n) &&
           rdc_window_ok(r, "windowing", x, is);
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_local_window_agg(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelAgg *ag = wrel_agg(r);
    const WRelWindow *rw = wrel_window(r);
    WWindowDef d = bd_window_def(L, r, in);
    if (rw->attached) {
        d.attached = true;
        d.start_col = rw->start_col;
        d.end_col = rw->end_col;
    }
    WLocalWindowAggSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys,
                              .keys = r->keys, .naggs = ag->naggs, .aggs = ag->aggs, .win = d,
                              .out = {r->out.n, r->out.types, r->out.names}};
    return wop_local_window_agg_new(&L->ctx, &sp);
}

const WKindDef wkind_local_window_agg = {
    .kind = WR_LOCAL_WINDOW_AGG,
    .phys = {.derive = DERIVE_MADE_LATER},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "LocalWindowAggregate", .exec_type = "stream-exec-local-window-aggregate_1", .digest = dg_two_phase},
    .cp = {.write = cp_windowed_agg, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-local-window-aggregate_1", 1, rdn_local_window_aggregate}}},
    .rd_check = {.check = rdc_local_window_agg},
    .rd_mode = {.mode = mode_appends},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_local_window_agg, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
