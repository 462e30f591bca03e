/*
 * global_window_agg.c — the node kind GlobalWindowAggregate: the slices' partial accumulators
 * merged into windows (Flink's StreamPhysicalGlobalWindowAggregate /
 * StreamExecGlobalWindowAggregate). Its operations in every stage, each beside the others: the
 * physical derivation (changelog mode, unique key, TTL, exchanges), the update-before requirement,
 * the EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode,
 * the cost, the Abstract Syntax Tree line, the runtime operator and the job-graph operators;
 * wkind_global_window_agg at the end names them (kinds.h). Helpers shared with other kinds stay in
 * their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_global_window_aggregate(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WSchema *out = &n->out;
    WRel *x = rd_new_rel(r, WR_GLOBAL_WINDOW_AGG, 1);
    WRelWindow *xw = wrel_window_mut(x);
    WRelAgg *xa = wrel_agg_mut(x);
    x->nkeys = rd_ints(r, json_object_get(j, "grouping"), &x->keys);
    if (!rd_aggs(r, json_object_get(j, "aggCalls"), x)) return NULL;
    if (!rd_schema(r, json_object_get(j, "localAggInputRowType"), &xa->agg_input)) return NULL;
    json_t *w = json_object_get(j, "windowing");
    rd_window(r, w, x);
    const char *strategy = json_string_value(json_object_get(w, "strategy"));
    xw->attached = strategy && !strcmp(strategy, "WindowAttached");
    /* the time attribute of the local aggregate's input (its zone shifts the windows) */
    const WType *tt = rd_type(r, json_object_get(w, "timeAttributeType"));
    if (!tt) return NULL;
    xw->time_col = 0;
    for (int i = xa->agg_input.n - 1; i >= 0; i--)
        if (xa->agg_input.types[i]->id == tt->id && xa->agg_input.types[i]->time_attr == WTA_ROWTIME) xw->time_col = i;
    xa->count1_col = -1;
    xw->out_start = x->nkeys + xa->naggs;
    xw->out_end = xw->out_start + 1;
    xw->out_time = xw->out_start + 2;
    if (!rd_window_time(r, w, x, out)) return NULL;
    return x;
}

/* ---- explain: EXECUTE PLAN check (plan_reader_check.c) ---- */

static bool rdc_global_window_agg(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    const WRelAgg *xa = wrel_agg(x);
    return rdc_indexes_ok(r, "grouping", x->keys, x->nkeys, is->n) && rdc_aggs_ok(r, "aggCalls", x, xa->agg_input.n) &&
           rdc_window_ok(r, "windowing", x, &xa->agg_input) && rdc_keys_aggs_out_ok(r, x, is, 3);
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_global_window_agg(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    /* the window's time attribute is the local aggregate's input column (its zone) */
    const WRelAgg *ag = wrel_agg(r);
    WRel *in = r->inputs[0], local_in = {.out = ag->agg_input};
    WWindowAggSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
                         .naggs = ag->naggs, .aggs = ag->aggs, .win = bd_window_def(L, r, &local_in),
                         .out = {r->out.n, r->out.types, r->out.names}, .merge = true,
                         .slice_is_window = wrel_window(r)->attached, .agg_ncols = ag->agg_input.n,
                         .agg_types = ag->agg_input.types};
    return wop_window_agg_new(&L->ctx, &sp);
}

const WKindDef wkind_global_window_agg = {
    .kind = WR_GLOBAL_WINDOW_AGG,
    .phys = {.derive = DERIVE_MADE_LATER},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "GlobalWindowAggregate", .exec_type = "stream-exec-global-window-aggregate_1", .digest = dg_two_phase},
    .cp = {.write = cp_windowed_agg, .output_schema = cp_schema_window_time_if_used, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-global-window-aggregate_1", 1, rdn_global_window_aggregate}}},
    .rd_check = {.check = rdc_global_window_agg},
    .rd_mode = {.mode = mode_appends},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_global_window_agg, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
