/*
 * group_agg.c — the node kind GroupAggregate: GROUP BY over a changelog (Flink's
 * StreamPhysicalGroupAggregate / StreamExecGroupAggregate). Its operations in every stage, each
 * beside the others: the physical derivation (changelog mode, unique key, TTL, exchanges), the
 * update-before requirement, the EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE
 * PLAN check and changelog mode, the cost, the Abstract Syntax Tree line, the runtime operator and
 * the job-graph operators; wkind_group_agg at the end names them (kinds.h). Helpers shared with
 * other kinds stay in their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the physical derivation (physical.c) ---- */

static WRel *derive_group_agg(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r = wrel_cast_mut(r, WR_GROUP_AGG);
    WRel *removed = wphys_remove_unique_agg(p, r, in);
    if (removed == in) return in;   /* an identity projection: simplified away to the input */
    if (removed) {
        r = removed;
        r->changelog = r->inputs[0]->changelog;
        phys_calc_unique(p, r);
        return r;
    }
    r->input_retracts = (in->changelog & (WCM_UPDATE_BEFORE | WCM_DELETE)) != 0 ||
                        (in->changelog & WCM_UPDATE_AFTER);
    /* Flink's ModifyKindSet of a GroupAggregate: inserts and updates, deletes only when the
       input updates or deletes (a group's count never returns to zero otherwise). The
       two-phase and incremental rewrites run later and keep it: a FINAL aggregate of a
       split distinct reads the partial aggregate's updates, so it declares deletes too. */
    r->changelog = (uint8_t)(WCM_INSERT | WCM_UPDATE_BEFORE | WCM_UPDATE_AFTER |
                             (r->input_retracts ? WCM_DELETE : 0));
    int *k = ints(p, r->nkeys);
    for (int i = 0; i < r->nkeys; i++) k[i] = i;
    wphys_set_unique(p, r, r->nkeys, k);
    r->ttl_ms = ttl;
    r->inputs[0] = wphys_exchange(p, in, r->nkeys, r->keys);
    return r;
}

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_group_agg(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = dn->r;
    const WRelAgg *ag = wrel_agg(r);
    ExDialect d = dn->d;
    const WRel *in = dn->in;
    const char *const *inn = dn->inn;
    wsb_putc(out, '(');
    if (r->nkeys) {
        wsb_puts(out, "groupBy=[");
        dg_key_names(out, inn, r->nkeys, r->keys);
        wsb_puts(out, "], ");
    }
    dg_partial_final_type(out, r);
    wsb_puts(out, "select=[");
    for (int i = 0; i < r->nkeys; i++) wsb_printf(out, "%s%s", i ? ", " : "", inn[r->keys[i]]);
    /* the FINAL aggregate of a distinct split over an insert-only PARTIAL one: the partial
       MIN/MAX only ever fall/rise, so Flink's monotonicity analysis drops their retraction */
    const WRel *part = in && in->kind == WR_EXCHANGE ? in->inputs[0] : in;
    bool mono = ag->partial_final == WPF_FINAL && part && part->kind == WR_GROUP_AGG && !part->input_retracts;
    for (int j = 0; j < ag->naggs; j++) {
        if (r->nkeys || j) wsb_puts(out, ", ");
        const WAggCall *c = &ag->aggs[j];
        bool minmax = c->kind == WAGG_MIN || c->kind == WAGG_MAX;
        ex_agg_call(c, inn, ex_out_names(x, r)[r->nkeys + j], out, r->input_retracts && !(mono && minmax));
    }
    wsb_putc(out, ']');
    if (d == EXD_REL) dg_ttl_hint_text(ex_hint(x, r), false, out);
    wsb_putc(out, ')');
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_group_agg(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    const WRelAgg *ag = wrel_agg(r);
    json_object_set_new(j, "configuration", cp_minibatch_configuration(x));
    json_object_set_new(j, "grouping", cp_ints_json(r->nkeys, r->keys));
    json_object_set_new(j, "aggCalls", cp_agg_calls_json(ag->naggs, ag->aggs,
                                                      ag->partial_final != WPF_NONE ? NULL : ex_out_names(x, r) + r->nkeys));
    json_object_set_new(j, "aggCallNeedRetractions", cp_bools_json(ag->naggs, r->input_retracts));
    json_object_set_new(j, "generateUpdateBefore", json_boolean(r->generate_update_before));
    json_object_set_new(j, "needRetraction", json_boolean(r->input_retracts));
    json_object_set_new(j, "state", cp_one_state(r->ttl_ms, "groupAggregateState"));
    return false;
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_group_aggregate(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *x = rd_new_rel(r, WR_GROUP_AGG, 1);
    x->nkeys = rd_ints(r, json_object_get(j, "grouping"), &x->keys);
    if (!rd_aggs(r, json_object_get(j, "aggCalls"), x)) return NULL;
    x->input_retracts = json_is_true(json_object_get(j, "needRetraction"));
    x->generate_update_before = json_is_true(json_object_get(j, "generateUpdateBefore"));
    x->ttl_ms = rd_ttl(r, j, 0);
    int *u = WA_ARRAY(r->a, int, x->nkeys ? x->nkeys : 1);
    for (int i = 0; i < x->nkeys; i++) u[i] = i;
    x->nunique = x->nkeys;
    x->unique = u;
    return x;
}

/* ---- explain: EXECUTE PLAN check (plan_reader_check.c) ---- */

static bool rdc_group_agg(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return rdc_indexes_ok(r, "grouping", x->keys, x->nkeys, is->n) && rdc_aggs_ok(r, "aggCalls", x, is->n) &&
           rdc_keys_aggs_out_ok(r, x, is, 0);
}

/* ---- explain: Abstract Syntax Tree line (logical.c) ---- */

static const char *agg_name(const WAggCall *c)
{
    switch (c->kind) {
    case WAGG_COUNT_STAR: case WAGG_COUNT: return "COUNT";
    case WAGG_SUM: return "SUM";
    case WAGG_SUM0: return "$SUM0";
    case WAGG_MIN: return "MIN";
    case WAGG_MAX: return "MAX";
    case WAGG_AVG: return "AVG";
    default: return c->name ? c->name : "AGG";
    }
}

static bool ast_group_agg(AstNode *a)
{
    WPlanCtx *p = a->p;
    const WRel *r = a->r;
    const WRelAgg *ag = wrel_agg(r);
    WStrBuf *out = a->out;
    bool *last = a->last;
    int depth = a->depth;
    const char *path = a->path;
    const char *const *rename = a->rename;
    const WRel *ex = r->inputs[0]->kind == WR_EXPAND ? r->inputs[0] : NULL;
    int nk = ex ? r->nkeys - 1 : r->nkeys;     /* grouping sets: $e is the last key */
    wsb_puts(out, "LogicalAggregate(group=[{");
    for (int i = 0; i < nk; i++) wsb_printf(out, "%s%d", i ? ", " : "", r->keys[i]);
    wsb_puts(out, "}]");
    if (ex) {
        wsb_puts(out, ", groups=[[");
        for (int k = 0; k < wrel_expand(ex)->n; k++) {
            wsb_puts(out, k ? ", {" : "{");
            bool first = true;
            for (int i = 0; i < nk; i++) {
                if (wrel_expand(ex)->src[(size_t)k * (size_t)ex->out.n + (size_t)r->keys[i]] < 0) continue;
                wsb_printf(out, "%s%d", first ? "" : ", ", r->keys[i]);
                first = false;
            }
            wsb_putc(out, '}');
        }
        wsb_puts(out, "]]");
    }
    for (int j = 0; j < ag->naggs; j++) {
        const WAggCall *c = &ag->aggs[j];
        const char *nm = rename ? rename[r->nkeys + j] : c->out_name ? c->out_name : "EXPR$0";
        wsb_printf(out, ", %s=[%s(", nm, agg_name(c));
        if (c->distinct) wsb_puts(out, "DISTINCT ");
        for (int k = 0; k < c->nargs; k++) wsb_printf(out, "%s$%d", k ? ", " : "", c->args[k]);
        wsb_putc(out, ')');
        if (c->filter_col >= 0) wsb_printf(out, " FILTER $%d", c->filter_col);
        wsb_putc(out, ']');
    }
    ast_ttl_hints(r, path, out);
    wsb_puts(out, ")\n");
    if (ex) {
        /* the Expand is the planner's: the AST shows the aggregate over its input */
        last[depth + 1] = true;
        if (depth < 255) ast_node(p, ex->inputs[0], out, last, depth + 1, path, NULL);
        return false;
    }
    return true;
}

/* ---- runtime: the operator (build.c) ---- */

/* The operators Flink makes mini-batch aware get a bundle (exec/minibatch.h): each kind's
   `bundle` operation fills in its mode and keys, or returns false (no bundle). */
static bool mb_group_agg(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb)
{
    /* MiniBatchGroupAggFunction: one change per key */
    mb->mode = WMB_COMPACT;
    mb->nkeys = r->nkeys;
    mb->keys = r->keys;
    mb->nout_keys = r->nkeys;                            /* the output starts with the keys */
    mb->generate_update_before = r->generate_update_before;
    mb->emit_unchanged = r->ttl_ms > 0;
    return true;
}

static WOperator *bd_group_agg(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelAgg *ag = wrel_agg(r);
    WGroupAggSpec sp = {
        .in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
        .naggs = ag->naggs, .aggs = ag->aggs, .input_retracts = r->input_retracts,
        .generate_update_before = r->generate_update_before || bd_minibatch_size(p) > 0, .ttl_ms = r->ttl_ms,
        .state_name = "groupAggregateState",
        .out = {r->out.n, r->out.types, r->out.names}};
    /* the empty key's rows all reach subtask 0 (an exchange to one subtask, or one lane) */
    sp.empty_input_row = r->nkeys == 0 && wplan_batch_mode(p) && L->index == 0;
    return wop_group_agg_new(&L->ctx, &sp);
}

const WKindDef wkind_group_agg = {
    .kind = WR_GROUP_AGG,
    .phys = {.derive = derive_group_agg},
    .ub = {.satisfy = ub_needs_both},
    .ex = {.name = "GroupAggregate", .exec_type = "stream-exec-group-aggregate_1", .digest = dg_group_agg},
    .cp = {.write = cp_group_agg, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-group-aggregate_1", 1, rdn_group_aggregate}}},
    .rd_check = {.check = rdc_group_agg},
    .rd_mode = {.mode = mode_all_kinds},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = ast_group_agg},
    .build = {.build = bd_group_agg, .bundle = mb_group_agg},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
