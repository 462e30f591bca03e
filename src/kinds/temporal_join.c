/*
 * temporal_join.c — the node kind TemporalJoin: FOR SYSTEM_TIME AS OF against a versioned table
 * (Flink's StreamPhysicalTemporalJoin / StreamExecTemporalJoin). Its operations in every stage,
 * each beside the others: the physical derivation (changelog mode, unique key, TTL, exchanges),
 * the update-before requirement, the EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE
 * PLAN check and changelog mode, the cost, the Abstract Syntax Tree line, the runtime operator and
 * the job-graph operators; wkind_temporal_join at the end names them (kinds.h). Helpers shared
 * with other kinds stay in their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the update-before requirement (update_before.c) ---- */

static bool ub_temporal_join(WRel *r, int req, bool apply)
{
    WRel *l = r->inputs[0], *rt = r->inputs[1];
    if (!ub_satisfy(l, ub_uk_for(l, req == UK_BEFORE_AFTER ? UK_BEFORE_AFTER : UK_ONLY_UA), apply)) return false;
    /* the versioned side: UPDATE_AFTER only if it can, else both */
    if (ub_satisfy(rt, ub_uk_for(rt, UK_ONLY_UA), false))
        return ub_satisfy(rt, ub_uk_for(rt, UK_ONLY_UA), apply);
    return ub_satisfy(rt, ub_uk_for(rt, UK_BEFORE_AFTER), apply);
}

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_temporal_join(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = dn->r;
    ExDialect d = dn->d;
    const char *const *jn = dg_join_names(x, r);
    wsb_printf(out, "(joinType=[%s], where=[", dg_join_type_name(r));
    dg_join_condition(x, r, jn, d, out);
    wsb_puts(out, "], ");
    dg_select_list(x, r, out);
    wsb_putc(out, ')');
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_temporal_join(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    json_t *js = cp_join_spec(r);
    json_object_set_new(js, "nonEquiCondition", cp_non_equi_json(x, r));
    json_object_set_new(j, "joinSpec", js);
    json_object_set_new(j, "isTemporalFunctionJoin", json_false());
    json_object_set_new(j, "leftTimeAttributeIndex", json_integer(wrel_join(r)->left_time_col));
    json_object_set_new(j, "rightTimeAttributeIndex", json_integer(wrel_join(r)->right_time_col));
    return false;
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_temporal_join(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel **ins = n->ins;
    WRel *x = rd_new_rel(r, WR_TEMPORAL_JOIN, 2);
    if (!rd_join_spec(r, json_object_get(j, "joinSpec"), x, ins)) return NULL;
    wrel_join_mut(x)->left_time_col = rd_int(json_object_get(j, "leftTimeAttributeIndex"), 0);
    wrel_join_mut(x)->right_time_col = rd_int(json_object_get(j, "rightTimeAttributeIndex"), 0);
    return x;
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_temporal_join(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    const WRelJoin *rj = wrel_join(r);
    WRel *l = r->inputs[0], *rt = r->inputs[1];
    WTemporalJoinSpec sp = {
        .left_outer = rj->type == AJ_LEFT, .left_ncols = l->out.n, .right_ncols = rt->out.n,
        .left_types = l->out.types, .right_types = rt->out.types, .nkeys = r->nkeys,
        .left_keys = r->keys, .right_keys = rj->right_keys, .left_time_col = rj->left_time_col,
        .right_time_col = rj->right_time_col, .residual = rj->cond,
        .out = {r->out.n, r->out.types, r->out.names}};
    return wop_temporal_join_new(&L->ctx, &sp);
}

const WKindDef wkind_temporal_join = {
    .kind = WR_TEMPORAL_JOIN,
    .phys = {.derive = derive_time_join},
    .ub = {.satisfy = ub_temporal_join},
    .ex = {.name = "TemporalJoin", .exec_type = "stream-exec-temporal-join_1", .digest = dg_temporal_join},
    .cp = {.write = cp_temporal_join, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-temporal-join_1", 2, rdn_temporal_join}}},
    .rd_check = {.check = rdc_join},
    .rd_mode = {.mode = mode_appends},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_temporal_join, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
