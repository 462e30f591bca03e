/*
 * temporal_sort.c — the node kind TemporalSort: ORDER BY a time attribute ASC without a limit
 * (Flink's StreamPhysicalTemporalSort / StreamExecTemporalSort). Its operations in every stage,
 * each beside the others: the physical derivation (changelog mode, unique key, TTL, exchanges),
 * the update-before requirement, the EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE
 * PLAN check and changelog mode, the cost, the Abstract Syntax Tree line, the runtime operator and
 * the job-graph operators; wkind_temporal_sort at the end names them (kinds.h). Helpers shared
 * with other kinds stay in their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the physical derivation (physical.c) ---- */

static WRel *derive_temporal_sort(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    if (in->changelog != WCM_INSERT)
        return fail(p, WEXC_TABLE, "TemporalSort doesn't support consuming update and delete changes.");
    r->changelog = WCM_INSERT;
    r->inputs[0] = wphys_exchange(p, in, 0, NULL);
    return r;
}

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_temporal_sort(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    const char *const *inn = dn->inn;
    wsb_puts(out, "(orderBy=[");
    dg_sort_list(out, r, inn);
    wsb_puts(out, "])");
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_temporal_sort(const CpNode *cn, json_t *j)
{
    json_object_set_new(j, "orderBy", cp_sort_spec_json(cn->r));
    return false;
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_temporal_sort(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *in = n->in;
    WRel *x = rd_new_rel(r, WR_TEMPORAL_SORT, 1);
    if (!rd_sort_fields(r, j, x, in)) return NULL;
    if (!x->nsort || x->sort_desc[0] || in->out.types[x->sort_cols[0]]->time_attr == WTA_NONE) {
        werr_set(r->p->err, WEXC_TABLE, "Sort: Primary sort order of a streaming table must be ascending on time.\n"
                                     "please re-check sort statement according to the description above");
        return NULL;
    }
    return x;
}

const WKindDef wkind_temporal_sort = {
    .kind = WR_TEMPORAL_SORT,
    .phys = {.derive = derive_temporal_sort},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "TemporalSort", .exec_type = "stream-exec-temporal-sort_1", .digest = dg_temporal_sort},
    .cp = {.write = cp_temporal_sort, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-temporal-sort_1", 1, rdn_temporal_sort}}},
    .rd_check = {.check = rdc_passthrough},
    .rd_mode = {.mode = mode_appends},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_sort, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
