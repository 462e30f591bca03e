/*
 * minibatch_assigner.c — the node kind MiniBatchAssigner: the mini-batch interval's watermarks
 * (Flink's StreamPhysicalMiniBatchAssigner / StreamExecMiniBatchAssigner). Its operations in every
 * stage, each beside the others: the physical derivation (changelog mode, unique key, TTL,
 * exchanges), the update-before requirement, the EXPLAIN name and digest, the COMPILE PLAN fields,
 * the EXECUTE PLAN check and changelog mode, the cost, the Abstract Syntax Tree line, the runtime
 * operator and the job-graph operators; wkind_minibatch_assigner at the end names them (kinds.h).
 * Helpers shared with other kinds stay in their stage (plan_kinds.h, explain_kinds.h,
 * runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_minibatch_assigner(const DgNode *dn, WStrBuf *out)
{
    const WRelMiniBatch *mb = wrel_minibatch(dn->r);
    wsb_printf(out, "(interval=[%lldms], mode=[%s])", (long long)mb->interval_ms, mb->rowtime ? "RowTime" : "ProcTime");
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_minibatch_assigner(const CpNode *cn, json_t *j)
{
    const WRel *r = cn->r;
    json_t *mi = json_object();
    json_object_set_new(mi, "interval", json_integer(wrel_minibatch(r)->interval_ms));
    json_object_set_new(mi, "mode", json_string(wrel_minibatch(r)->rowtime ? "RowTime" : "ProcTime"));
    json_object_set_new(j, "miniBatchInterval", mi);
    return false;
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_mini_batch_assigner(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *in = n->in;
    WRel *x = rd_new_rel(r, WR_MINIBATCH_ASSIGNER, 1);
    json_t *mi = json_object_get(j, "miniBatchInterval");
    wrel_minibatch_mut(x)->interval_ms = json_integer_value(json_object_get(mi, "interval"));
    const char *mode = json_string_value(json_object_get(mi, "mode"));
    wrel_minibatch_mut(x)->rowtime = mode && !strcmp(mode, "RowTime");
    wrel_minibatch_mut(x)->check_size = true;
    x->nunique = in->nunique;
    x->unique = in->unique;
    return x;
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_minibatch_assigner(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    /* Flink checks the size here (the operators that buffer per mini-batch need it) */
    const WRelMiniBatch *mb = wrel_minibatch(r);
    if (mb->check_size && bd_minibatch_size(p) <= 0) {
        werr_set(p->err, WEXC_ILLEGAL_ARG,
                 "Key: 'table.exec.mini-batch.size' , default: -1 (fallback keys: []) must be > 0.");
        return NULL;
    }
    return wop_minibatch_assigner_new(&L->ctx, mb->interval_ms, mb->rowtime, r->out.n, r->out.types,
                                      r->out.names);
}

const WKindDef wkind_minibatch_assigner = {
    .kind = WR_MINIBATCH_ASSIGNER,
    .phys = {.derive = DERIVE_MADE_LATER},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "MiniBatchAssigner", .exec_type = "stream-exec-mini-batch-assigner_1", .digest = dg_minibatch_assigner},
    .cp = {.write = cp_minibatch_assigner, .output_schema = cp_schema_projected, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-mini-batch-assigner_1", 1, rdn_mini_batch_assigner}}},
    .rd_check = {.check = rdc_passthrough},
    .rd_mode = {.mode = mode_as_input},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_minibatch_assigner, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
