/*
 * correlate.c — the node kind Correlate of $UNNEST_ROWS$1: UNNEST of an ARRAY, MAP or MULTISET
 * (Flink's StreamPhysicalCorrelate / StreamExecCorrelate). Its operations in every stage, each
 * beside the others: the physical derivation (changelog mode, unique key, TTL, exchanges), the
 * update-before requirement, the EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE
 * PLAN check and changelog mode, the cost, the Abstract Syntax Tree line, the runtime operator and
 * the job-graph operators; wkind_correlate at the end names them (kinds.h). Helpers shared with
 * other kinds stay in their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_correlate(const DgNode *dn, WStrBuf *out)
{
    ex_correlate_digest(dn->x, dn->r, out);
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_correlate(const CpNode *cn, json_t *j)
{
    ex_correlate_json(cn->x, cn->r, j);
    return false;
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

WRel *rd_correlate(Rd *r, json_t *j, WRel *in, const WSchema *out)
{
    json_t *fc = json_object_get(j, "functionCall");
    const char *fn = rd_call_name(fc);
    if (fn && !strcmp(fn, "$REPLICATE_ROWS$1")) {
        WRel *x = rd_new_rel(r, WR_REPLICATE_ROWS, 1);
        if (out->n != 2 * in->out.n - 1)
            return rd_fail(r, "Invalid compiled plan: the $REPLICATE_ROWS$1 Correlate has %s output fields.", "the wrong number of"), NULL;
        return x;
    }
    bool ord = fn && !strcmp(fn, "$UNNEST_ROWS_WITH_ORDINALITY$1");
    if (!fn || (!ord && strcmp(fn, "$UNNEST_ROWS$1") != 0))
        return rd_fail(r, "EXECUTE PLAN cannot run a Correlate of the table function %s (only UNNEST and the set operations' $REPLICATE_ROWS$1).",
                       fn ? fn : "(none)"), NULL;
    json_t *ops = json_object_get(fc, "operands");
    if (json_array_size(ops) != 1) return rd_fail(r, "Invalid compiled plan: %s takes one operand.", fn), NULL;
    WRel *x = rd_new_rel(r, WR_CORRELATE, 1);
    WRelCorrelate *xc = wrel_correlate_mut(x);
    xc->ordinality = ord;
    xc->physical = true;
    r->correl = &in->out;
    WExpr *coll = rd_rex(r, json_array_get(ops, 0), &in->out);
    r->correl = NULL;
    if (!coll) return NULL;
    xc->collection = coll;
    const char **phys, **sql;
    const WType **types;
    int nf = wunnest_columns(r->p, coll->type, ord, false, &phys, &sql, &types);
    if (nf <= 0 || nf > out->n) return rd_fail(r, "Invalid compiled plan: %s over a value that is not a collection.", fn), NULL;
    xc->nleft_out = out->n - nf;
    const char *jt = json_string_value(json_object_get(j, "joinType"));
    xc->join_type = jt && !strcmp(jt, "LEFT") ? AJ_LEFT : AJ_INNER;
    xc->cor_id = 0;
    /* the $cor<N> of the correlation variable, where the operand names it */
    const char *s = json_dumps(json_array_get(ops, 0), JSON_COMPACT);
    const char *c = s ? strstr(s, "\"$cor") : NULL;
    if (c) xc->cor_id = atoi(c + 5);
    free((void *)s);
    json_t *cond = json_object_get(j, "condition");
    if (cond && !json_is_null(cond)) {
        /* over the function's columns only */
        WSchema fs = {nf, out->names + xc->nleft_out, out->types + xc->nleft_out};
        if (!(xc->cond = rd_rex(r, cond, &fs))) return NULL;
    }
    return x;
}

static WRel *rdn_correlate(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *in = n->in;
    WSchema *out = &n->out;
    return rd_correlate(r, j, in, out);
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_correlate(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    const WRelCorrelate *rc = wrel_correlate(r);
    WCorrelateSpec sp = {
        .in_ncols = r->inputs[0]->out.n, .in_types = r->inputs[0]->out.types, .nleft = rc->nleft_out,
        .collection = rc->collection, .ordinality = rc->ordinality, .left_join = rc->join_type == AJ_LEFT,
        .cond = rc->cond, .ncols = r->out.n, .types = r->out.types, .names = r->out.names};
    return wop_correlate_new(&L->ctx, &sp);
}

const WKindDef wkind_correlate = {
    .kind = WR_CORRELATE,
    .phys = {.derive = derive_input_modes},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "Correlate", .exec_type = "stream-exec-correlate_1", .digest = dg_correlate},
    .cp = {.write = cp_correlate, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-correlate_1", 1, rdn_correlate}}},
    .rd_check = {.check = rdc_own_reader},
    .rd_mode = {.mode = mode_as_input},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_correlate, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
