/*
 * window_join.c — the node kind WindowJoin: two windowed inputs joined per window (Flink's
 * StreamPhysicalWindowJoin / StreamExecWindowJoin). Its operations in every stage, each beside the
 * others: the physical derivation (changelog mode, unique key, TTL, exchanges), the update-before
 * requirement, the EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE PLAN check and
 * changelog mode, the cost, the Abstract Syntax Tree line, the runtime operator and the job-graph
 * operators; wkind_window_join at the end names them (kinds.h). Helpers shared with other kinds
 * stay in their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the physical derivation (physical.c) ---- */

static WRel *derive_window_join(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    WRel *l = r->inputs[0], *rt = r->inputs[1];
    r->changelog = WCM_INSERT;
    /* as Flink's WindowJoin: hash by the join keys without the window columns (state is keyed
       the same way), single when there are none */
    r->inputs[0] = wphys_exchange(p, l, r->nkeys, r->keys);
    r->inputs[1] = wphys_exchange(p, rt, r->nkeys, wrel_join(r)->right_keys);
    return r;
}

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_window_join(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = wrel_as_windowed(dn->r);
    ExDialect d = dn->d;
    const char *const *jn = dg_join_names(x, r);
    int ln = r->inputs[0]->out.n;
    const WRelWindow *rw = wrel_window(r);
    wsb_puts(out, "(leftWindow=[");
    dg_window_spec(out, r, NULL, jn[rw->start_col], jn[rw->end_col], NULL);
    wsb_puts(out, "], rightWindow=[");
    /* the right window by the right input's own field names, as Flink prints it */
    const char *const *rn = dg_in_names(x, r->inputs[1]);
    dg_window_spec(out, r, NULL, rn ? rn[rw->rstart_col] : jn[ln + rw->rstart_col],
                rn ? rn[rw->rend_col] : jn[ln + rw->rend_col], NULL);
    wsb_printf(out, "], joinType=[%s], where=[", dg_join_type_name(r));
    dg_join_condition(x, r, jn, d, out);
    wsb_puts(out, "], ");
    dg_select_list(x, r, out);
    wsb_putc(out, ')');
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

WRel *rd_window_join(Rd *r, json_t *j, WRel **ins, const WSchema *out)
{
    WRel *x = rd_new_rel(r, WR_WINDOW_JOIN, 2);
    WRelWindow *xw = wrel_window_mut(x);
    if (!rd_join_spec(r, json_object_get(j, "joinSpec"), x, ins)) return NULL;
    if (!rd_keys_in_range(r, x->nkeys, x->keys, ins[0]->out.n, "join key") ||
        !rd_keys_in_range(r, x->nkeys, wrel_join(x)->right_keys, ins[1]->out.n, "join key"))
        return NULL;
    json_t *lw = json_object_get(j, "leftWindowing"), *rw = json_object_get(j, "rightWindowing");
    rd_window(r, lw, x);
    if (!rd_attached_cols(r, lw, ins[0]->out.n, &xw->start_col, &xw->end_col) ||
        !rd_attached_cols(r, rw, ins[1]->out.n, &xw->rstart_col, &xw->rend_col))
        return NULL;
    xw->time_col = xw->end_col;
    int expect = ins[0]->out.n + (wrel_join(x)->semi || wrel_join(x)->anti ? 0 : ins[1]->out.n);
    if (out->n != expect)
        return rd_fail(r, "Invalid compiled plan: the window join has %s output fields.", "the wrong number of"), NULL;
    return x;
}

static WRel *rdn_window_join(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel **ins = n->ins;
    WSchema *out = &n->out;
    return rd_window_join(r, j, ins, out);
}

/* ---- explain: cost (explain_text.c) ---- */

static void cost_window_join(const ExCtx *x, const WRel *r, int n, const Cost *in, Cost *c, SelfCost *self)
{
    self->cpu = 0;
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_window_join(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    const WRelJoin *rj = wrel_join(r);
    const WRelWindow *rw = wrel_window(r);
    WRel *l = r->inputs[0], *rt = r->inputs[1];
    WWindowJoinSpec sp = {
        .kind = bd_join_kind(rj),
        .left_ncols = l->out.n, .right_ncols = rt->out.n, .left_types = l->out.types,
        .right_types = rt->out.types, .nkeys = r->nkeys, .left_keys = r->keys, .right_keys = rj->right_keys,
        .left_start_col = rw->start_col, .left_end_col = rw->end_col,
        .right_start_col = rw->rstart_col, .right_end_col = rw->rend_col,
        .residual = rj->cond, .proctime = false, .out = {r->out.n, r->out.types, r->out.names}};
    return wop_window_join_new(&L->ctx, &sp);
}

const WKindDef wkind_window_join = {
    .kind = WR_WINDOW_JOIN,
    .phys = {.derive = derive_window_join},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "WindowJoin", .exec_type = "stream-exec-window-join_1", .digest = dg_window_join},
    .cp = {.write = cp_window_rank_join, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-window-join_1", 2, rdn_window_join}}},
    .rd_check = {.check = rdc_join},
    .rd_mode = {.mode = mode_appends},
    .cost = {.cost = cost_window_join},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_window_join, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
