/*
 * match.c — the node kind Match: MATCH_RECOGNIZE (Flink's StreamPhysicalMatch / StreamExecMatch).
 * Its operations in every stage, each beside the others: the physical derivation (changelog mode,
 * unique key, TTL, exchanges), the update-before requirement, the EXPLAIN name and digest, the
 * COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode, the cost, the Abstract Syntax
 * Tree line, the runtime operator and the job-graph operators; wkind_match at the end names them
 * (kinds.h). Helpers shared with other kinds stay in their stage (plan_kinds.h, explain_kinds.h,
 * runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the physical derivation (physical.c) ---- */

static WRel *derive_match(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    /* StreamPhysicalMatchRule: a hash exchange on the partition keys */
    if (in->changelog != WCM_INSERT)
        return fail(p, WEXC_TABLE, "Match doesn't support consuming update and delete changes.");
    r->changelog = WCM_INSERT;
    r->inputs[0] = wphys_exchange(p, in, r->nkeys, r->keys);
    return r;
}

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_match(const DgNode *dn, WStrBuf *out)
{
    ex_match_digest(dn->x, dn->r, dn->inn, dn->d, out);
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_match(const CpNode *cn, json_t *j)
{
    ex_match_json(cn->x, cn->r, j);
    return false;
}

/* ---- explain: Abstract Syntax Tree line (logical.c) ---- */

static bool ast_match(AstNode *a)
{
    const WRel *r = a->r;
    WStrBuf *out = a->out;
    ex_match_ast(r, out);
    return true;
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_match(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    WSortKeySpec *ks = WA_ARRAY(p->arena, WSortKeySpec, r->nsort ? r->nsort : 1);
    for (int i = 0; i < r->nsort; i++)
        ks[i] = (WSortKeySpec){r->sort_cols[i], r->sort_desc[i], r->sort_nulls_first[i]};
    WMatchOpSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
                       .norder = r->nsort, .order = ks, .spec = wrel_match(r)->spec, .out_ncols = r->out.n,
                       .out_types = r->out.types, .out_names = r->out.names};
    return wop_match_new(&L->ctx, &sp);
}

const WKindDef wkind_match = {
    .kind = WR_MATCH,
    .phys = {.derive = derive_match},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "Match", .exec_type = "stream-exec-match_1", .digest = dg_match},
    .cp = {.write = cp_match, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_check = {.check = rdc_own_reader},
    .rd_mode = {.mode = mode_appends},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = ast_match},
    .build = {.build = bd_match, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
