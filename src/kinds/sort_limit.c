/*
 * sort_limit.c — the node kind SortLimit / Limit: ORDER BY ... LIMIT, or LIMIT alone, over a
 * stream (Flink's StreamPhysicalSortLimit / StreamExecSortLimit and StreamExecLimit). Its
 * operations in every stage, each beside the others: the physical derivation (changelog mode,
 * unique key, TTL, exchanges), the update-before requirement, the EXPLAIN name and digest, the
 * COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode, the cost, the Abstract Syntax
 * Tree line, the runtime operator and the job-graph operators; wkind_sort_limit at the end names
 * them (kinds.h). Helpers shared with other kinds stay in their stage (plan_kinds.h,
 * explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_sort_limit(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = wrel_as_rank(dn->r);
    const WRelRank *rr = wrel_rank(r);
    const WRel *in = dn->in;
    const char *const *inn = dn->inn;
    /* StreamPhysicalSortLimit / StreamPhysicalLimit */
    static const char *const STRAT[] = {"AppendFastStrategy", "UpdateFastStrategy", "RetractStrategy"};
    wsb_putc(out, '(');
    if (r->nsort) {
        wsb_puts(out, "orderBy=[");
        dg_sort_list(out, r, inn);
        wsb_puts(out, "], ");
    }
    wsb_printf(out, "offset=[%lld], fetch=[", (long long)(rr->start - 1));
    if (rr->end == INT64_MAX) wsb_puts(out, "unlimited");
    else wsb_printf(out, "%lld", (long long)(rr->end - rr->start + 1));
    wsb_putc(out, ']');
    if (r->nsort) {
        int s = wrank_strategy_index(rr->strategy);
        wsb_printf(out, ", strategy=[%s", STRAT[s]);
        if (s == WRANK_UPDATE_FAST && in && in->nunique > 0) {
            wsb_putc(out, '[');
            for (int i = 0; i < in->nunique; i++) wsb_printf(out, "%s%d", i ? ", " : "", in->unique[i]);
            wsb_putc(out, ']');
        }
        wsb_putc(out, ']');
    }
    wsb_putc(out, ')');
}

static const char *name_sort_limit(const WRel *r) { return r->nsort ? "SortLimit" : "Limit"; }

static const char *exec_type_sort_limit(const WRel *r)
{
    return r->nsort ? "stream-exec-sort-limit_1" : "stream-exec-limit_1";
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_sort_limit(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = wrel_as_rank(cn->r);
    const WRel *in = cn->in;
    /* StreamExecSortLimit / StreamExecLimit (a StreamExecRank): the rank's own fields
       (rankType, partition, outputRowNumber; Limit's empty orderBy) follow the description */
    json_t *c = json_object();
    json_object_set_new(c, "table.exec.rank.topn-cache-size",
                        json_string(cp_opt_str(x->p->config, "table.exec.rank.topn-cache-size", "10000")));
    json_object_set_new(j, "configuration", c);
    if (r->nsort) json_object_set_new(j, "orderBy", cp_sort_spec_json(r));
    cp_rank_range_and_strategy(j, r, in);
    json_object_set_new(j, "generateUpdateBefore", json_boolean(r->generate_update_before));
    json_object_set_new(j, "state", cp_one_state(r->ttl_ms, "rankState"));
    return false;
}

/* StreamExecLimit / StreamExecSortLimit are StreamExecRanks: the rank's own fields */
static void cp_after_limit_rank(const CpNode *cn, json_t *j)
{
    const WRel *r = wrel_as_rank(cn->r);
    json_object_set_new(j, "rankType", json_string("ROW_NUMBER"));
    json_t *part = json_object();
    json_object_set_new(part, "fields", json_array());
    json_object_set_new(j, "partition", part);
    if (!r->nsort) json_object_set_new(j, "orderBy", cp_sort_spec_json(r));
    json_object_set_new(j, "outputRowNumber", json_false());
}

/* ---- explain: EXECUTE PLAN changelog mode (plan_reader.c) ---- */

static void mode_sort_limit(WRel *x, WRel *in)
{
    x->input_retracts = in->changelog != WCM_INSERT;
    x->changelog = !x->nsort && !x->input_retracts && !(in->changelog & WCM_UPDATE_AFTER) ? WCM_INSERT : ALL_KINDS;
}


const WKindDef wkind_sort_limit = {
    .kind = WR_SORT_LIMIT,
    .phys = {.derive = derive_rank},
    .ub = {.satisfy = ub_rank},
    .ex = {.name_of = name_sort_limit, .exec_type_of = exec_type_sort_limit, .digest = dg_sort_limit},
    .cp = {.write = cp_sort_limit, .output_schema = cp_own_schema, .after_description = cp_after_limit_rank},
    .rd_read = {.types = {{"stream-exec-sort-limit_1", 1, rdn_rank}, {"stream-exec-limit_1", 1, rdn_rank}}},
    .rd_check = {.check = rdc_rank},
    .rd_mode = {.mode = mode_sort_limit},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_rank, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = name_sort_limit, .add_ops = vx_plain},
};
