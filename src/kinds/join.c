/*
 * join.c — the node kind Join: the regular streaming join, INNER, LEFT, RIGHT, FULL, SEMI and ANTI
 * (Flink's StreamPhysicalJoin / StreamExecJoin). Its operations in every stage, each beside the
 * others: the physical derivation (changelog mode, unique key, TTL, exchanges), the update-before
 * requirement, the EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE PLAN check and
 * changelog mode, the cost, the Abstract Syntax Tree line, the runtime operator and the job-graph
 * operators; wkind_join at the end names them (kinds.h). Helpers shared with other kinds stay in
 * their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the physical derivation (physical.c) ---- */

static WRel *derive_join(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    WRelJoin *rj = wrel_join_mut(r);
    r = wrel_cast_mut(r, WR_JOIN);
    WRel *l = r->inputs[0], *rt = r->inputs[1];
    r->input_retracts = l->changelog != WCM_INSERT;
    rj->right_retracts = rt->changelog != WCM_INSERT;
    bool outer = rj->type != AJ_INNER || rj->anti;
    /* Flink's ModifyKindSet of an inner join: the union of its inputs' (the runtime forwards
       the input row's kind); outer and anti joins may produce every kind */
    r->changelog = outer ? ALL_KINDS : (uint8_t)(l->changelog | rt->changelog);
    if (rj->semi || rj->anti) {
        r->nunique = l->nunique;
        r->unique = l->unique;
        if (rj->anti || r->input_retracts || rj->right_retracts) r->changelog = ALL_KINDS;
        else r->changelog = ALL_KINDS;   /* semi joins retract when the match disappears */
    } else if (l->nunique >= 0 && rt->nunique >= 0) {
        int n = l->nunique + rt->nunique;
        int *u = ints(p, n);
        for (int i = 0; i < l->nunique; i++) u[i] = l->unique[i];
        for (int i = 0; i < rt->nunique; i++) u[l->nunique + i] = l->out.n + rt->unique[i];
        wphys_set_unique(p, r, n, u);
    }
    if (rj->semi && !r->input_retracts && !rj->right_retracts) r->changelog = WCM_INSERT;
    r->ttl_ms = ttl;
    rj->ttl_left_ms = ttl;
    rj->ttl_right_ms = ttl;
    r->inputs[0] = wphys_exchange(p, l, r->nkeys, r->keys);
    r->inputs[1] = wphys_exchange(p, rt, r->nkeys, rj->right_keys);
    return r;
}

/* ---- plan: the update-before requirement (update_before.c) ---- */

/* The join's input `side` has a unique key that contains its join keys (Flink's
   inputUniqueKeyContainsJoinKey): then the join can work with UPDATE_AFTER only. */
static bool join_input_keyed(const WRel *j, int side)
{
    const WRel *in = j->inputs[side];
    const int *keys = side == 0 ? j->keys : wrel_join(j)->right_keys;
    if (in->nunique < 0 || !keys) return false;
    for (int k = 0; k < j->nkeys; k++) {
        bool found = false;
        for (int u = 0; u < in->nunique && !found; u++) found = in->unique[u] == keys[k];
        if (!found) return false;
    }
    return true;
}

static bool ub_join(WRel *r, int req, bool apply)
{
    bool ok = true;
    for (int i = 0; i < 2 && ok; i++) {
        WRel *c = r->inputs[i];
        if (req == UK_ONLY_UA && ub_has_updates(c) && !join_input_keyed(r, i)) return false;
        ok = ub_satisfy(c, ub_uk_for(c, req == UK_ONLY_UA ? UK_ONLY_UA : UK_BEFORE_AFTER), apply);
    }
    return ok;
}

/* ---- explain: name, type and digest (digest.c) ---- */

static const char *input_spec(const WRel *in, int nkeys, const int *keys)
{
    if (in->nunique < 0) return "NoUniqueKey";   /* 0: the empty key, at most one row (a global aggregate) */
    for (int i = 0; i < in->nunique; i++) {
        bool found = false;
        for (int k = 0; k < nkeys; k++) if (keys[k] == in->unique[i]) found = true;
        if (!found) return "HasUniqueKey";
    }
    return "JoinKeyContainsUniqueKey";
}

static void dg_join(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = wrel_as_join(dn->r);
    ExDialect d = dn->d;
    const char *const *jn = dg_join_names(x, r);
    wsb_printf(out, "(joinType=[%s], where=[", dg_join_type_name(r));
    dg_join_condition(x, r, jn, d, out);
    wsb_puts(out, "], ");
    dg_select_list(x, r, out);
    wsb_printf(out, ", leftInputSpec=[%s], rightInputSpec=[%s]",
               input_spec(r->inputs[0], r->nkeys, r->keys), input_spec(r->inputs[1], r->nkeys, wrel_join(r)->right_keys));
    if (wrel_join(r)->minibatch) wsb_puts(out, ", miniBatch=[true]");
    if (d == EXD_REL) dg_ttl_hint_text(ex_hint(x, r), true, out);
    wsb_putc(out, ')');
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static json_t *upsert_keys(const WRel *in)
{
    json_t *a = json_array();
    /* the empty key (a global aggregate: at most one row) is [[]] */
    if (in->nunique >= 0) json_array_append_new(a, cp_ints_json(in->nunique, in->unique));
    return a;
}

static bool cp_join(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = wrel_as_join(cn->r);
    json_t *js = cp_join_spec(r);
    json_object_set_new(js, "nonEquiCondition", cp_non_equi_json(x, r));
    json_object_set_new(j, "joinSpec", js);
    /* Flink 2.3 writes the inputs' upsert keys only when they have some */
    if (r->inputs[0]->nunique >= 0) json_object_set_new(j, "leftUpsertKeys", upsert_keys(r->inputs[0]));
    if (r->inputs[1]->nunique >= 0) json_object_set_new(j, "rightUpsertKeys", upsert_keys(r->inputs[1]));
    json_t *st = json_array();
    json_array_append_new(st, cp_state_entry(0, wrel_join(r)->ttl_left_ms, "leftState"));
    json_array_append_new(st, cp_state_entry(1, wrel_join(r)->ttl_right_ms, "rightState"));
    json_object_set_new(j, "state", st);
    return false;
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static void set_unique_from(Rd *r, WRel *x, json_t *keys)
{
    if (json_array_size(keys) == 0) return;
    int *k;
    int n = rd_ints(r, json_array_get(keys, 0), &k);
    x->nunique = n;
    x->unique = k;
}

static WRel *rdn_join(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel **ins = n->ins;
    WRel *x = rd_new_rel(r, WR_JOIN, 2);
    if (!rd_join_spec(r, json_object_get(j, "joinSpec"), x, ins)) return NULL;
    set_unique_from(r, ins[0], json_object_get(j, "leftUpsertKeys"));
    set_unique_from(r, ins[1], json_object_get(j, "rightUpsertKeys"));
    wrel_join_mut(x)->ttl_left_ms = rd_ttl(r, j, 0);
    wrel_join_mut(x)->ttl_right_ms = rd_ttl(r, j, 1);
    x->ttl_ms = r->dflt_ttl;
    wrel_join_mut(x)->minibatch = r->minibatch;   /* Flink reads table.exec.mini-batch.enabled, no field */
    return x;
}

/* ---- explain: EXECUTE PLAN changelog mode (plan_reader.c) ---- */

static void mode_join(WRel *x, WRel *in)
{
    WRelJoin *rj = wrel_join_mut(x);
    WRel *l = x->inputs[0], *rt = x->inputs[1];
    x->input_retracts = l->changelog != WCM_INSERT;
    rj->right_retracts = rt->changelog != WCM_INSERT;
    bool outer = rj->type != AJ_INNER || rj->anti;
    x->changelog = (x->input_retracts || rj->right_retracts || outer) ? ALL_KINDS : WCM_INSERT;
    if (rj->semi) x->changelog = (x->input_retracts || rj->right_retracts) ? ALL_KINDS : WCM_INSERT;
    if (rj->anti) x->changelog = ALL_KINDS;
}

/* ---- explain: cost (explain_text.c) ---- */

static void cost_join(const ExCtx *x, const WRel *r, int n, const Cost *in, Cost *c, SelfCost *self)
{
    /* a stream join costs 100 per input, whatever the rows */
    self->rows = self->cpu = 100.0 * n;
    c->rowcount = in->rowcount;
}

/* ---- explain: Abstract Syntax Tree line (logical.c) ---- */

/* A lookup join as Calcite converts FOR SYSTEM_TIME AS OF: LogicalCorrelate over the probe side
   and LogicalFilter(condition, probe columns as $cor0.x) / LogicalSnapshot / the dim table. */
static void lookup_node(WPlanCtx *p, const WRel *r, WStrBuf *out, bool *last, int depth, const char *path)
{
    const WRelJoin *rj = wrel_join(r);
    const WRel *l = r->inputs[0], *dim = r->inputs[1];
    int ln = l->out.n, n = ln + dim->out.n;
    bool *used = WA_ARRAY(p->arena, bool, ln ? ln : 1);
    if (rj->cond) ast_cols_used(rj->cond, used, ln);
    if (rj->left_time_col >= 0 && rj->left_time_col < ln) used[rj->left_time_col] = true;
    wsb_printf(out, "LogicalCorrelate(correlation=[$cor0], joinType=[%s], requiredColumns=[{",
               rj->type == AJ_LEFT ? "left" : "inner");
    bool first = true;
    for (int i = 0; i < ln; i++)
        if (used[i]) { wsb_printf(out, "%s%d", first ? "" : ", ", i); first = false; }
    wsb_puts(out, "}])\n");
    if (depth >= 250) return;
    last[depth + 1] = false;
    ast_node(p, l, out, last, depth + 1, wa_sprintf(p->arena, "%s%s0", path, *path ? ", " : ""), NULL);
    const char **names = WA_ARRAY(p->arena, const char *, n ? n : 1);
    for (int i = 0; i < n; i++)
        names[i] = i < ln ? wa_sprintf(p->arena, "$cor0.%s", l->out.names[i]) : wa_sprintf(p->arena, "$%d", i - ln);
    int d = depth + 1;
    last[d] = true;
    if (rj->cond) {
        ast_prefix(out, last, d);
        wsb_puts(out, "LogicalFilter(condition=[");
        ex_rex(out, rj->cond, names, EXD_AST);
        wsb_puts(out, "])\n");
        d++;
        last[d] = true;
    }
    ast_prefix(out, last, d);
    wsb_printf(out, "LogicalSnapshot(period=[$cor0.%s])\n",
               rj->left_time_col >= 0 && rj->left_time_col < ln ? l->out.names[rj->left_time_col] : "");
    last[d + 1] = true;
    ast_node(p, dim, out, last, d + 1, wa_sprintf(p->arena, "%s%s1", path, *path ? ", " : ""), NULL);
}

static bool ast_join(AstNode *a)
{
    WPlanCtx *p = a->p;
    const WRel *r = a->r;
    WStrBuf *out = a->out;
    bool *last = a->last;
    int depth = a->depth;
    const char *path = a->path;
    if (wrel_join(r)->lookup) {
        lookup_node(p, r, out, last, depth, path);
        return false;
    }
    wsb_puts(out, "LogicalJoin(condition=[");
    if (wrel_join(r)->cond) ex_rex(out, wrel_join(r)->cond, NULL, EXD_AST);
    else wsb_puts(out, "true");
    const char *jt = wrel_join(r)->semi ? "semi" : wrel_join(r)->anti ? "anti"
                   : wrel_join(r)->type == AJ_LEFT ? "left" : wrel_join(r)->type == AJ_RIGHT ? "right"
                   : wrel_join(r)->type == AJ_FULL ? "full" : "inner";
    wsb_printf(out, "], joinType=[%s]", jt);
    ast_ttl_hints(r, path, out);
    wsb_puts(out, ")\n");
    return true;
}

/* ---- runtime: the operator (build.c) ---- */

static bool mb_join(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb)
{
    /* MiniBatchStreamingJoinOperator (not SEMI / ANTI) */
    if (wrel_join(r)->semi || wrel_join(r)->anti) return false;
    mb->mode = WMB_JOIN;
    return true;
}

static WOperator *bd_join(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    const WRelJoin *rj = wrel_join(r);
    WRel *l = r->inputs[0], *rt = r->inputs[1];
    WJoinSpec sp = {
        .kind = bd_join_kind(rj),
        .left_ncols = l->out.n, .right_ncols = rt->out.n, .left_types = l->out.types,
        .right_types = rt->out.types, .nkeys = r->nkeys, .left_keys = r->keys, .right_keys = rj->right_keys,
        .filter_nulls = rj->key_filter_nulls, .residual = rj->cond,
        .left_nuk = l->nunique > 0 ? l->nunique : 0, .right_nuk = rt->nunique > 0 ? rt->nunique : 0,
        .left_uk = l->unique, .right_uk = rt->unique,
        .left_retracts = r->input_retracts, .right_retracts = rj->right_retracts,
        .generate_update_before = r->generate_update_before,
        .left_ttl_ms = rj->ttl_left_ms, .right_ttl_ms = rj->ttl_right_ms, .out_reads = rj->out_reads,
        .out = {r->out.n, r->out.types, r->out.names}};
    return wop_join_new(&L->ctx, &sp);
}

const WKindDef wkind_join = {
    .kind = WR_JOIN,
    .phys = {.derive = derive_join},
    .ub = {.satisfy = ub_join},
    .ex = {.name = "Join", .exec_type = "stream-exec-join_1", .digest = dg_join},
    .cp = {.write = cp_join, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-join_1", 2, rdn_join}}},
    .rd_check = {.check = rdc_join},
    .rd_mode = {.mode = mode_join},
    .cost = {.cost = cost_join},
    .ast = {.print = ast_join},
    .build = {.build = bd_join, .bundle = mb_join},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
