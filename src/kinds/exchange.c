/*
 * exchange.c — the node kind Exchange: a redistribution between lanes, hash, single or forward
 * (Flink's StreamPhysicalExchange / StreamExecExchange). Its operations in every stage, each
 * beside the others: the physical derivation (changelog mode, unique key, TTL, exchanges), the
 * update-before requirement, the EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE
 * PLAN check and changelog mode, the cost, the Abstract Syntax Tree line, the runtime operator and
 * the job-graph operators; wkind_exchange at the end names them (kinds.h). Helpers shared with
 * other kinds stay in their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_exchange(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    const char *const *inn = dn->inn;
    if (wrel_exchange(r)->single || r->nkeys == 0) {
        wsb_puts(out, "(distribution=[single])");
    } else {
        wsb_puts(out, "(distribution=[hash[");
        dg_key_names(out, inn, r->nkeys, r->keys);
        wsb_puts(out, "]])");
    }
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_exchange(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *in = n->in;
    WRel *x = rd_new_rel(r, WR_EXCHANGE, 1);
    json_t *d = json_object_get(json_array_get(json_object_get(j, "inputProperties"), 0), "requiredDistribution");
    const char *dt = json_string_value(json_object_get(d, "type"));
    if (dt && !strcmp(dt, "HASH")) x->nkeys = rd_ints(r, json_object_get(d, "keys"), &x->keys);
    else wrel_exchange_mut(x)->single = true;
    x->nunique = in->nunique;
    x->unique = in->unique;
    return x;
}

/* ---- explain: EXECUTE PLAN check (plan_reader_check.c) ---- */

static bool rdc_exchange(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return rdc_indexes_ok(r, "inputProperties.requiredDistribution.keys", x->keys, x->nkeys, is->n) &&
           rdc_passthrough_ok(r, x, is);
}

/* ---- explain: cost (explain_text.c) ---- */

static bool partial_agg_rows(const WRel *r)
{
    while (r && (r->kind == WR_EXCHANGE || r->kind == WR_MINIBATCH_ASSIGNER)) r = r->inputs[0];
    return r && (r->kind == WR_LOCAL_GROUP_AGG || r->kind == WR_LOCAL_WINDOW_AGG);
}

static void cost_exchange(const ExCtx *x, const WRel *r, int n, const Cost *in, Cost *c, SelfCost *self)
{
    /* serialisation (160 per row) plus hashing (8 per key) or 1 for a single target */
    double per_row = 160 + ((wrel_exchange(r)->single || r->nkeys == 0) ? 1 : 8.0 * r->nkeys);
    self->cpu = in->rowcount * per_row;
    self->net = in->rowcount * cost_row_size(&r->out, partial_agg_rows(r));
}

/* ---- runtime: the operator (build.c) ---- */

/* an edge of the job graph */
static WOperator *bd_exchange(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WJob *j = L->job;
    *done = true;
    return bd_build_exchange(p, L, r, ins[0], j->par, bd_exchange_recv_par(j, r), false);
}

const WKindDef wkind_exchange = {
    .kind = WR_EXCHANGE,
    .phys = {.derive = derive_forward},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "Exchange", .exec_type = "stream-exec-exchange_1", .digest = dg_exchange},
    .cp = {.write = cp_common_fields_only, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-exchange_1", 1, rdn_exchange}}},
    .rd_check = {.check = rdc_exchange},
    .rd_mode = {.mode = mode_as_input},
    .cost = {.cost = cost_exchange},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_exchange, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_edge},
};
