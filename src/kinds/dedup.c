/*
 * dedup.c — the node kind Deduplicate: ROW_NUMBER() ... = 1 keeping the first or last row (Flink's
 * StreamPhysicalDeduplicate / StreamExecDeduplicate). Its operations in every stage, each beside
 * the others: the physical derivation (changelog mode, unique key, TTL, exchanges), the update-
 * before requirement, the EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE PLAN check
 * and changelog mode, the cost, the Abstract Syntax Tree line, the runtime operator and the job-
 * graph operators; wkind_dedup at the end names them (kinds.h). Helpers shared with other kinds
 * stay in their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the physical derivation (physical.c) ---- */

static WRel *derive_dedup(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r = wrel_cast_mut(r, WR_DEDUP);
    r->input_retracts = in->changelog != WCM_INSERT;
    /* keep-first over an insert-only input only ever inserts; on rowtime the earliest row waits
       for the watermark (Flink 2.3: outputInsertOnly=[true] for proctime and rowtime alike),
       except under mini-batch, where Flink's rowtime dedup emits each batch's first row and
       updates it when a later batch brings an earlier one */
    const WRelRank *rr = wrel_rank(r);
    bool insert_only = !rr->keep_last && !r->input_retracts && !(rr->dedup_rowtime && phys_minibatch_enabled(p));
    r->changelog = insert_only ? WCM_INSERT : ALL_KINDS;
    wphys_set_unique(p, r, r->nkeys, r->keys);
    r->ttl_ms = ttl;
    r->inputs[0] = wphys_exchange(p, in, r->nkeys, r->keys);
    return r;
}

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_dedup(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    const WRelRank *rr = wrel_rank(r);
    const char *const *inn = dn->inn;
    wsb_printf(out, "(keep=[%s], key=[", rr->keep_last ? "LastRow" : "FirstRow");
    dg_key_names(out, inn, r->nkeys, r->keys);
    wsb_printf(out, "], order=[%s], outputInsertOnly=[%s])", rr->dedup_rowtime ? "ROWTIME" : "PROCTIME",
               r->changelog == WCM_INSERT ? "true" : "false");
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_dedup(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    json_t *c = json_object();
    json_object_set_new(c, "table.exec.deduplicate.insert-update-after-sensitive-enabled",
                        json_string(cp_bool_str(x->p->config, "table.exec.deduplicate.insert-update-after-sensitive-enabled", "true")));
    json_object_set_new(c, "table.exec.deduplicate.mini-batch.compact-changes-enabled",
                        json_string(cp_bool_str(x->p->config, "table.exec.deduplicate.mini-batch.compact-changes-enabled", "false")));
    json_object_update_new(c, cp_minibatch_configuration(x));     /* after the deduplicate keys */
    json_object_set_new(j, "configuration", c);
    json_object_set_new(j, "uniqueKeys", cp_ints_json(r->nkeys, r->keys));
    json_object_set_new(j, "isRowtime", json_boolean(wrel_rank(r)->dedup_rowtime));
    json_object_set_new(j, "keepLastRow", json_boolean(wrel_rank(r)->keep_last));
    json_object_set_new(j, "outputInsertOnly", json_boolean(r->changelog == WCM_INSERT));
    json_object_set_new(j, "generateUpdateBefore", json_boolean(r->generate_update_before));
    json_object_set_new(j, "state", cp_one_state(r->ttl_ms, "deduplicateState"));
    return false;
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_deduplicate(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *in = n->in;
    WRel *x = rd_new_rel(r, WR_DEDUP, 1);
    WRelRank *xr = wrel_rank_mut(x);
    x->nkeys = rd_ints(r, json_object_get(j, "uniqueKeys"), &x->keys);
    xr->dedup_rowtime = json_is_true(json_object_get(j, "isRowtime"));
    xr->keep_last = json_is_true(json_object_get(j, "keepLastRow"));
    x->generate_update_before = json_is_true(json_object_get(j, "generateUpdateBefore"));
    x->ttl_ms = rd_ttl(r, j, 0);
    x->time_col = -1;
    for (int i = 0; i < in->out.n; i++)
        if (wtype_is_timestamp(in->out.types[i]) &&
            in->out.types[i]->time_attr == (xr->dedup_rowtime ? WTA_ROWTIME : WTA_PROCTIME)) x->time_col = i;
    x->nunique = x->nkeys;
    x->unique = x->keys;
    return x;
}

/* ---- explain: EXECUTE PLAN changelog mode (plan_reader.c) ---- */

static void mode_dedup(WRel *x, WRel *in)
{
    x->input_retracts = in->changelog != WCM_INSERT;
    const WRelRank *xr = wrel_rank(x);
    x->changelog = (!xr->keep_last && !xr->dedup_rowtime && !x->input_retracts) ? WCM_INSERT : ALL_KINDS;
}

/* ---- runtime: the operator (build.c) ---- */

static bool mb_dedup(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb)
{
    /* RowTime/ProcTimeMiniBatchDeduplicate...Function */
    const WRelRank *rr = wrel_rank(r);
    mb->mode = rr->dedup_rowtime ? WMB_FOLD : rr->keep_last ? WMB_LAST_PER_KEY : WMB_FIRST_PER_KEY;
    mb->nkeys = r->nkeys;
    mb->keys = r->keys;
    return true;
}

static WOperator *bd_dedup(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelRank *rr = wrel_rank(r);
    WDedupSpec sp = {
        .in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
        .keep_last = rr->keep_last, .rowtime = rr->dedup_rowtime, .time_col = r->time_col,
        .input_retracts = r->input_retracts, .generate_update_before = r->generate_update_before,
        .generate_insert_only = r->changelog == WCM_INSERT, .ttl_ms = r->ttl_ms,
        .out = {r->out.n, r->out.types, r->out.names}};
    return wop_dedup_new(&L->ctx, &sp);
}

const WKindDef wkind_dedup = {
    .kind = WR_DEDUP,
    .phys = {.derive = derive_dedup},
    .ub = {.satisfy = ub_needs_both},
    .ex = {.name = "Deduplicate", .exec_type = "stream-exec-deduplicate_1", .digest = dg_dedup},
    .cp = {.write = cp_dedup, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-deduplicate_1", 1, rdn_deduplicate}}},
    .rd_check = {.check = rdc_unique_keys},
    .rd_mode = {.mode = mode_dedup},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_dedup, .bundle = mb_dedup},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
