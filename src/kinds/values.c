/*
 * values.c — the node kind Values: literal rows (Flink's StreamPhysicalValues / StreamExecValues).
 * Its operations in every stage, each beside the others: the physical derivation (changelog mode,
 * unique key, TTL, exchanges), the update-before requirement, the EXPLAIN name and digest, the
 * COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode, the cost, the Abstract Syntax
 * Tree line, the runtime operator and the job-graph operators; wkind_values at the end names them
 * (kinds.h). Helpers shared with other kinds stay in their stage (plan_kinds.h, explain_kinds.h,
 * runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the physical derivation (physical.c) ---- */

static WRel *derive_values(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    r->changelog = WCM_INSERT;
    return r;
}

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_values(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = dn->r;
    const WRelValues *rv = wrel_values(r);
    ExDialect d = dn->d;
    /* Calcite's Values: type=[RecordType(...)] only at the DIGEST_ATTRIBUTES level (the
       physical plan without costs), the tuples as RexLiterals print in every plan; Flink's
       batch Values adds values=[names] */
    wsb_putc(out, '(');
    if (d == EXD_REL && !x->costs && !x->batch) {
        wsb_puts(out, "type=[RecordType(");
        for (int k = 0; k < r->out.n; k++) {
            if (k) wsb_puts(out, ", ");
            ex_calcite_type_name(out, r->out.types[k]);
            wsb_printf(out, " %s", r->out.names[k]);
        }
        wsb_puts(out, ")], ");
    }
    wsb_puts(out, "tuples=[[");
    for (int i = 0; i < rv->nrows; i++) {
        wsb_printf(out, "%s{ ", i ? ", " : "");
        for (int k = 0; k < r->out.n; k++) {
            WExpr lit = {.kind = WX_LITERAL, .type = r->out.types[k], .lit = rv->rows[i][k],
                         .is_null = rv->row_nulls[i][k] != 0};
            if (k) wsb_puts(out, ", ");
            if (!lit.is_null && (lit.type->id == WT_VARCHAR || lit.type->id == WT_CHAR)) {
                /* the tuples keep the CHAR literals as written; the row type widens them */
                WExpr ch = lit;
                ch.type = wtype_new(x->p->arena, WT_CHAR, false);
                ex_tuple_literal(out, &ch, EXD_REL);
            } else {
                ex_tuple_literal(out, &lit, EXD_REL);
            }
        }
        wsb_puts(out, " }");
    }
    wsb_puts(out, "]]");
    if (x->batch) {
        wsb_puts(out, ", values=[");
        ex_names_list(out, &r->out);
        wsb_putc(out, ']');
    }
    wsb_putc(out, ')');
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_values(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    const WRelValues *rv = wrel_values(r);
    json_t *tuples = json_array();
    for (int i = 0; i < rv->nrows; i++) {
        json_t *row = json_array();
        for (int k = 0; k < r->out.n; k++) {
            WExpr lit = {.kind = WX_LITERAL, .type = r->out.types[k], .lit = rv->rows[i][k],
                         .is_null = rv->row_nulls[i][k] != 0};
            json_array_append_new(row, ex_rex_json(x->p, &lit, NULL));
        }
        json_array_append_new(tuples, row);
    }
    json_object_set_new(j, "tuples", tuples);
    return false;
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_values(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WSchema *out = &n->out;
    WRel *x = rd_new_rel(r, WR_VALUES, 0);
    WRelValues *rv = wrel_values_mut(x);
    json_t *tuples = json_object_get(j, "tuples");
    rv->nrows = (int)json_array_size(tuples);
    rv->rows = WA_ARRAY(r->a, WDatum *, rv->nrows ? rv->nrows : 1);
    rv->row_nulls = WA_ARRAY(r->a, uint8_t *, rv->nrows ? rv->nrows : 1);
    for (int i = 0; i < rv->nrows; i++) {
        rv->rows[i] = WA_ARRAY(r->a, WDatum, out->n ? out->n : 1);
        rv->row_nulls[i] = WA_ARRAY(r->a, uint8_t, out->n ? out->n : 1);
        json_t *row = json_array_get(tuples, (size_t)i);
        for (int k = 0; k < out->n; k++) {
            WExpr *lit = rd_rex(r, json_array_get(row, (size_t)k), out);
            if (!lit) return NULL;
            rv->rows[i][k] = lit->lit;
            rv->row_nulls[i][k] = lit->is_null;
        }
    }
    x->changelog = WCM_INSERT;
    return x;
}

/* ---- explain: cost (explain_text.c) ---- */

static void cost_values(const ExCtx *x, const WRel *r, int n, const Cost *in, Cost *c, SelfCost *self)
{
    c->rowcount = self->rows = wrel_values(r)->nrows;
    self->cpu = 1;
}

/* ---- explain: Abstract Syntax Tree line (logical.c) ---- */

static bool ast_values(AstNode *a)
{
    const WRel *r = a->r;
    const WRelValues *rv = wrel_values(r);
    WStrBuf *out = a->out;
    wsb_puts(out, "LogicalValues(tuples=[[");
    for (int i = 0; i < rv->nrows; i++) {
        wsb_printf(out, "%s{ ", i ? ", " : "");
        for (int k = 0; k < r->out.n; k++) {
            WExpr lit = {.kind = WX_LITERAL, .type = r->out.types[k], .lit = rv->rows[i][k],
                         .is_null = rv->row_nulls[i][k] != 0};
            if (k) wsb_puts(out, ", ");
            ex_tuple_literal(out, &lit, EXD_AST);
        }
        wsb_puts(out, " }");
    }
    wsb_puts(out, "]])\n");
    return true;
}

/* ---- runtime: job-graph operators (vertices.c) ---- */

/* Values: a source */
static void vx_values(Builder *b, RelInfo *ri, WRel *r, int id, WStrBuf *name, WStrBuf *desc)
{
    wsb_printf(name, "Source: Values[%d]", id);
    vx_plain_desc(r, id, desc);
    int op = vx_new_op(b, name->buf, desc->buf, r, WSOP_OPERATOR);
    b->ops[op].is_source = true;
    ri->first_op = ri->last_op = op;
}

const WKindDef wkind_values = {
    .kind = WR_VALUES,
    .phys = {.derive = derive_values},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "Values", .exec_type = "stream-exec-values_1", .digest = dg_values},
    .cp = {.write = cp_values, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-values_1", 0, rdn_values}}},
    .rd_check = {.check = rdc_leaf},
    .rd_mode = {.mode = mode_set_by_reader},
    .cost = {.cost = cost_values},
    .ast = {.print = ast_values},
    .build = {.build = bd_scan, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_values},
};
