/*
 * interval_join.c — the node kind IntervalJoin: a join bounded by a time interval between its
 * inputs' time attributes (Flink's StreamPhysicalIntervalJoin / StreamExecIntervalJoin). Its
 * operations in every stage, each beside the others: the physical derivation (changelog mode,
 * unique key, TTL, exchanges), the update-before requirement, the EXPLAIN name and digest, the
 * COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode, the cost, the Abstract Syntax
 * Tree line, the runtime operator and the job-graph operators; wkind_interval_join at the end
 * names them (kinds.h). Helpers shared with other kinds stay in their stage (plan_kinds.h,
 * explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_interval_join(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = dn->r;
    const WRelJoin *rj = wrel_join(r);
    ExDialect d = dn->d;
    const char *const *jn = dg_join_names(x, r);
    bool rowtime = r->inputs[0]->out.types[rj->left_time_col]->time_attr != WTA_PROCTIME;
    wsb_printf(out, "(joinType=[%s], windowBounds=[isRowTime=%s, leftLowerBound=%lld, leftUpperBound=%lld, "
               "leftTimeIndex=%d, rightTimeIndex=%d], where=[", dg_join_type_name(r), rowtime ? "true" : "false",
               (long long)wrel_interval(r)->lower_ms, (long long)wrel_interval(r)->upper_ms, rj->left_time_col, rj->right_time_col);
    /* Flink shows the whole condition, time bounds included */
    WRel shown = *r;
    if (rj->shown_cond) wrel_join_mut(&shown)->cond = rj->shown_cond;
    dg_join_condition(x, &shown, jn, d, out);
    wsb_puts(out, "], ");
    dg_select_list(x, r, out);
    wsb_putc(out, ')');
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_interval_join(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    json_t *ij = json_object();
    json_t *js = cp_join_spec(r);
    json_object_set_new(js, "nonEquiCondition", cp_non_equi_json(x, r));
    json_object_set_new(ij, "joinSpec", js);
    json_t *wb = json_object();
    bool rowtime = r->inputs[0]->out.types[wrel_join(r)->left_time_col]->time_attr != WTA_PROCTIME;
    json_object_set_new(wb, "isEventTime", json_boolean(rowtime));
    json_object_set_new(wb, "leftLowerBound", json_integer(wrel_interval(r)->lower_ms));
    json_object_set_new(wb, "leftUpperBound", json_integer(wrel_interval(r)->upper_ms));
    json_object_set_new(wb, "leftTimeIndex", json_integer(wrel_join(r)->left_time_col));
    json_object_set_new(wb, "rightTimeIndex", json_integer(wrel_join(r)->right_time_col));
    json_object_set_new(ij, "windowBounds", wb);
    json_object_set_new(j, "intervalJoinSpec", ij);
    return false;
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_interval_join(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel **ins = n->ins;
    WRel *x = rd_new_rel(r, WR_INTERVAL_JOIN, 2);
    json_t *ij = json_object_get(j, "intervalJoinSpec");
    if (!rd_join_spec(r, json_object_get(ij, "joinSpec"), x, ins)) return NULL;
    json_t *wb = json_object_get(ij, "windowBounds");
    wrel_interval_mut(x)->lower_ms = json_integer_value(json_object_get(wb, "leftLowerBound"));
    wrel_interval_mut(x)->upper_ms = json_integer_value(json_object_get(wb, "leftUpperBound"));
    wrel_join_mut(x)->left_time_col = rd_int(json_object_get(wb, "leftTimeIndex"), RD_BAD_INDEX);
    wrel_join_mut(x)->right_time_col = rd_int(json_object_get(wb, "rightTimeIndex"), RD_BAD_INDEX);
    return x;
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_interval_join(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    const WRelJoin *rj = wrel_join(r);
    WRel *l = r->inputs[0], *rt = r->inputs[1];
    WIntervalJoinSpec sp = {
        .kind = rj->type == AJ_LEFT ? WJK_LEFT : rj->type == AJ_RIGHT ? WJK_RIGHT
              : rj->type == AJ_FULL ? WJK_FULL : WJK_INNER,
        .left_ncols = l->out.n, .right_ncols = rt->out.n, .left_types = l->out.types,
        .right_types = rt->out.types, .nkeys = r->nkeys, .left_keys = r->keys, .right_keys = rj->right_keys,
        .left_time_col = rj->left_time_col, .right_time_col = rj->right_time_col,
        .lower_ms = wrel_interval(r)->lower_ms, .upper_ms = wrel_interval(r)->upper_ms,
        .lower_strict = wrel_interval(r)->lower_strict, .upper_strict = wrel_interval(r)->upper_strict,
        .proctime = l->out.types[rj->left_time_col]->time_attr == WTA_PROCTIME,
        .residual = rj->cond, .out = {r->out.n, r->out.types, r->out.names}};
    return wop_interval_join_new(&L->ctx, &sp);
}

const WKindDef wkind_interval_join = {
    .kind = WR_INTERVAL_JOIN,
    .phys = {.derive = derive_time_join},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "IntervalJoin", .exec_type = "stream-exec-interval-join_1", .digest = dg_interval_join},
    .cp = {.write = cp_interval_join, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-interval-join_1", 2, rdn_interval_join}}},
    .rd_check = {.check = rdc_join},
    .rd_mode = {.mode = mode_appends},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_interval_join, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
