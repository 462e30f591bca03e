/*
 * union.c — the node kind Union (ALL): rows of every input (Flink's StreamPhysicalUnion /
 * StreamExecUnion). Its operations in every stage, each beside the others: the physical derivation
 * (changelog mode, unique key, TTL, exchanges), the update-before requirement, the EXPLAIN name
 * and digest, the COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode, the cost, the
 * Abstract Syntax Tree line, the runtime operator and the job-graph operators; wkind_union at the
 * end names them (kinds.h). Helpers shared with other kinds stay in their stage (plan_kinds.h,
 * explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the physical derivation (physical.c) ---- */

static WRel *derive_union(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r->changelog = 0;
    for (int i = 0; i < r->ninputs; i++) r->changelog |= r->inputs[i]->changelog;
    return r;
}

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_union(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    wsb_puts(out, "(all=[true], union=[");
    ex_names_list(out, &r->out);
    wsb_puts(out, "])");
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_union(Rd *r, RdNode *n)
{
    WRel **ins = n->ins;
    int nin = n->nin;
    WRel *x = rd_new_rel(r, WR_UNION, nin);
    for (int i = 0; i < nin; i++) x->inputs[i] = ins[i];
    return x;
}

/* ---- explain: EXECUTE PLAN check (plan_reader_check.c) ---- */

static bool rdc_union(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    if (x->ninputs < 1) return rdc_bad(r, "edges", "give the union no input.");
    for (int i = 0; i < x->ninputs; i++)
        if (!rdc_passthrough_ok(r, x, &x->inputs[i]->out)) return false;
    return true;
}

/* ---- explain: EXECUTE PLAN changelog mode (plan_reader.c) ---- */

static void mode_union(WRel *x, WRel *in)
{
    x->changelog = 0;
    for (int i = 0; i < x->ninputs; i++) x->changelog |= x->inputs[i]->changelog;
}

/* ---- explain: Abstract Syntax Tree line (logical.c) ---- */

static bool ast_union(AstNode *a)
{
    WStrBuf *out = a->out;
    wsb_puts(out, "LogicalUnion(all=[true])\n");
    return true;
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_union(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    return wop_union_new(&L->ctx, r->ninputs, r->out.n, r->out.types, r->out.names);
}

const WKindDef wkind_union = {
    .kind = WR_UNION,
    .phys = {.derive = derive_union},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "Union", .exec_type = "stream-exec-union_1", .digest = dg_union},
    .cp = {.write = cp_common_fields_only, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-union_1", -1, rdn_union}}},
    .rd_check = {.check = rdc_union},
    .rd_mode = {.mode = mode_union},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = ast_union},
    .build = {.build = bd_union, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_edge},
};
