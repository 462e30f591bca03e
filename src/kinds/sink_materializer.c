/*
 * sink_materializer.c — the node kind SinkUpsertMaterializer in front of a sink whose upsert key
 * differs from its primary key (Flink's SinkUpsertMaterializer, shown in its sink's
 * upsertMaterialize=[true]). Its operations in every stage, each beside the others: the physical
 * derivation (changelog mode, unique key, TTL, exchanges), the update-before requirement, the
 * EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode, the
 * cost, the Abstract Syntax Tree line, the runtime operator and the job-graph operators;
 * wkind_sink_materializer at the end names them (kinds.h). Helpers shared with other kinds stay in
 * their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the update-before requirement (update_before.c) ---- */

static bool ub_sink_materializer(WRel *r, int req, bool apply)
{
    /* see compacts_by_upsert_key */
    if (ub_compacts_by_upsert_key(r))
        return ub_satisfy(r->inputs[0], ub_uk_for(r->inputs[0], UK_ONLY_UA), apply);
    return ub_satisfy(r->inputs[0], ub_uk_for(r->inputs[0], UK_BEFORE_AFTER), apply);
}

/* ---- explain: EXECUTE PLAN check (plan_reader_check.c) ---- */

static bool rdc_sink_materializer(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    return rdc_indexes_ok(r, "dynamicTableSink.table.resolvedTable.schema.primaryKey", x->keys, x->nkeys, is->n) &&
           rdc_passthrough_ok(r, x, is);
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_sink_materializer(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    return bd_materializer_new(L, r);
}

/* ---- runtime: job-graph operators (vertices.c) ---- */

static void vx_sink_materializer(Builder *b, RelInfo *ri, WRel *r, int id, WStrBuf *name, WStrBuf *desc)
{
    /* Flink's SinkUpsertMaterializer is part of the sink node: it carries the sink's id and
       is fed by a keyBy on the primary key, after the sink's ConstraintEnforcer. */
    const WRelSink *sk = wrel_sink(r);
    const WRel *sink = ri->nconsumers == 1 && ri->consumer->kind == WR_SINK ? ri->consumer : NULL;
    int mid = sink ? vx_xid(b, sink) : id;
    int enf = sink ? vx_add_enforcer(b, sink, r) : -1;
    /* the keyBy on the primary key feeds the materializer: the enforcer reads its input as it is */
    for (int k = 0; enf >= 0 && k < b->ops[enf].ninputs; k++)
        if (b->ops[enf].inputs[k].ship == WSHIP_HASH) b->ops[enf].inputs[k].ship = WSHIP_FORWARD;
    wsb_printf(name, "SinkMaterializer[%d]", mid);
    wsb_printf(desc, "[%d]:SinkMaterializer(pk=[", mid);
    for (int k = 0; k < r->nkeys; k++)      /* the sink's primary key names (Flink's pk=[...]) */
        wsb_printf(desc, "%s%s", k ? ", " : "", sk->key_names ? sk->key_names[k]
                                                 : r->keys[k] < r->out.n ? r->out.names[r->keys[k]] : "?");
    wsb_append(desc, "])");
    int assigner = -1;
    if (sk->conflict == ACF_ERROR || sk->conflict == ACF_NOTHING) {
        /* Flink 2.3: keyBy -> WatermarkTimestampAssigner -> SinkMaterializer */
        char an[48], ad[48];
        snprintf(an, sizeof an, "WatermarkTimestampAssigner[%d]", mid);
        snprintf(ad, sizeof ad, "[%d]:WatermarkTimestampAssigner", mid);
        assigner = vx_new_op(b, an, ad, r, WSOP_WM_TIMESTAMP_ASSIGNER);
        if (enf >= 0) vx_add_input(&b->ops[assigner], enf, WSHIP_HASH);
        else vx_wire_inputs(b, r, assigner, true);
    }
    int op = vx_new_op(b, name->buf, desc->buf, r, WSOP_OPERATOR);
    if (assigner >= 0) vx_add_input(&b->ops[op], assigner, WSHIP_FORWARD);
    else if (enf >= 0) vx_add_input(&b->ops[op], enf, WSHIP_HASH);
    else vx_wire_inputs(b, r, op, true);
    ri->first_op = enf >= 0 ? enf : assigner >= 0 ? assigner : op;
    ri->last_op = op;
}

const WKindDef wkind_sink_materializer = {
    .kind = WR_SINK_MATERIALIZER,
    .phys = {.derive = DERIVE_MADE_LATER},
    .ub = {.satisfy = ub_sink_materializer},
    .ex = {.name = "SinkMaterializer", .exec_type = EX_NOT_AN_EXEC_NODE, .digest = DG_NOT_AN_EXEC_NODE},
    .cp = {.write = CP_NOT_IN_A_COMPILED_PLAN, .output_schema = CP_NOT_IN_A_COMPILED_PLAN_SCHEMA, .after_description = CP_NOT_IN_A_COMPILED_PLAN_AFTER},
    .rd_read = RD_READ_BY_ANOTHER_KIND,
    .rd_check = {.check = rdc_sink_materializer},
    .rd_mode = {.mode = mode_as_input},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_sink_materializer, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name = "SinkMaterializer", .add_ops = vx_sink_materializer},
};
