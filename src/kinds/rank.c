/*
 * rank.c — the node kind Rank: a top-N over a partition (Flink's StreamPhysicalRank /
 * StreamExecRank). Its operations in every stage, each beside the others: the physical derivation
 * (changelog mode, unique key, TTL, exchanges), the update-before requirement, the EXPLAIN name
 * and digest, the COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode, the cost, the
 * Abstract Syntax Tree line, the runtime operator and the job-graph operators; wkind_rank at the
 * end names them (kinds.h). Helpers shared with other kinds stay in their stage (plan_kinds.h,
 * explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_rank(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = wrel_as_rank(dn->r);
    const WRelRank *rr = wrel_rank(r);
    const WRel *in = dn->in;
    const char *const *inn = dn->inn;
    static const char *const STRAT[] = {"AppendFastStrategy", "UpdateFastStrategy", "RetractStrategy"};
    int s = wrank_strategy_index(rr->strategy);
    wsb_printf(out, "(strategy=[%s", STRAT[s]);
    if (s == WRANK_UPDATE_FAST && in && in->nunique > 0) {
        wsb_putc(out, '[');
        for (int i = 0; i < in->nunique; i++) wsb_printf(out, "%s%d", i ? ", " : "", in->unique[i]);
        wsb_putc(out, ']');
    }
    wsb_printf(out, "], rankType=[%s], rankRange=[rankStart=%lld, rankEnd=%lld], partitionBy=[",
               dg_rank_type(rr->func), (long long)rr->start, (long long)rr->end);
    dg_key_names(out, inn, r->nkeys, r->keys);
    wsb_puts(out, "], orderBy=[");
    for (int i = 0; i < r->nsort; i++) dg_rank_sort_key(out, in, inn, r->sort_cols[i], r->sort_desc[i], i == 0);
    wsb_puts(out, "], ");
    dg_select_list(x, r, out);
    wsb_putc(out, ')');
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_rank(const CpNode *cn, json_t *j)
{
    const WRel *r = wrel_as_rank(cn->r);
    const WRel *in = cn->in;
    static const char *const RT[] = {"ROW_NUMBER", "RANK", "DENSE_RANK"};
    json_object_set_new(j, "rankType", json_string(RT[wrank_func_index(wrel_rank(r)->func)]));
    json_t *part = json_object();
    json_object_set_new(part, "fields", cp_ints_json(r->nkeys, r->keys));
    json_object_set_new(j, "partition", part);
    json_object_set_new(j, "orderBy", cp_sort_spec_json(r));
    cp_rank_range_and_strategy(j, r, in);
    json_object_set_new(j, "outputRowNumber", json_boolean(wrel_rank(r)->output_number));
    json_object_set_new(j, "generateUpdateBefore", json_boolean(r->generate_update_before));
    json_object_set_new(j, "state", cp_one_state(r->ttl_ms, "rankState"));
    return false;
}

const WKindDef wkind_rank = {
    .kind = WR_RANK,
    .phys = {.derive = derive_rank},
    .ub = {.satisfy = ub_rank},
    .ex = {.name = "Rank", .exec_type = "stream-exec-rank_1", .digest = dg_rank},
    .cp = {.write = cp_rank, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-rank_1", 1, rdn_rank}}},
    .rd_check = {.check = rdc_rank},
    .rd_mode = {.mode = mode_all_kinds},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_rank, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
