/*
 * calc.c — the node kind Calc: a projection with an optional condition (Flink's StreamPhysicalCalc
 * / StreamExecCalc). Its operations in every stage, each beside the others: the physical
 * derivation (changelog mode, unique key, TTL, exchanges), the update-before requirement, the
 * EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode, the
 * cost, the Abstract Syntax Tree line, the runtime operator and the job-graph operators;
 * wkind_calc at the end names them (kinds.h). Helpers shared with other kinds stay in their stage
 * (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the physical derivation (physical.c) ---- */

static WRel *derive_calc(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    if (in->kind == WR_CALC && wrel_calc(in)->agg_removed) {
        r = wplan_simplify_calc(p, r);      /* as Flink's CalcMerge after the removal */
        in = r->inputs[0];
    }
    r->changelog = in->changelog;
    phys_calc_unique(p, r);
    return r;
}

/* ---- plan: the update-before requirement (update_before.c) ---- */

/* The Calc's condition reads only columns of its input's unique key. */
static bool cond_on_unique_key(const WRel *calc)
{
    const WRel *in = calc->inputs[0];
    int n = in->out.n;
    if (in->nunique <= 0 || n <= 0 || n > 4096) return false;
    bool used[4096] = {0};
    wplan_mark_refs(wrel_calc(calc)->cond, used, n);
    for (int i = 0; i < n; i++) {
        if (!used[i]) continue;
        bool key = false;
        for (int u = 0; u < in->nunique && !key; u++) key = in->unique[u] == i;
        if (!key) return false;
    }
    return true;
}

static bool ub_calc(WRel *r, int req, bool apply)
{
    /* a filter does not keep UPDATE_AFTER-only streams correct (a row leaving the filter
       would need a retraction): Flink refuses, and the parent falls back; unless it reads
       only the input's unique key, which every version of a key shares (measured on Flink
       2.3: "Calc(select=[id, name, amount], where=[>(id, 3)], changelogMode=[UA,D])" over an
       upsert-kafka source under an upsert sink) */
    if (req == UK_ONLY_UA && wrel_calc(r)->cond && !cond_on_unique_key(r)) return false;
    return ub_satisfy(r->inputs[0], ub_uk_for(r->inputs[0], req == UK_NONE ? UK_BEFORE_AFTER : req), apply);
}

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_calc(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = dn->r;
    const WRelCalc *rc = wrel_calc(r);
    ExDialect d = dn->d;
    const char *const *inn = dn->inn;
    wsb_puts(out, "(select=[");
    for (int i = 0; i < rc->nexprs; i++) {
        const WExpr *e = rc->exprs[i];
        if (i) wsb_puts(out, ", ");
        ex_rex(out, e, inn, d);
        const char *on = ex_out_names(x, r)[i];
        if (!(e->kind == WX_COLUMN && !strcmp(inn[e->col], on))) wsb_printf(out, " AS %s", on);
    }
    wsb_putc(out, ']');
    if (rc->cond) {
        wsb_puts(out, ", where=[");
        ex_rex(out, rc->cond, inn, d);
        wsb_putc(out, ']');
    }
    wsb_putc(out, ')');
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_calc(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    const WRelCalc *rc = wrel_calc(r);
    const int *cm = cn->cm;
    json_t *proj = json_array();
    for (int i = 0; i < rc->nexprs; i++) json_array_append_new(proj, ex_rex_json(x->p, rc->exprs[i], cm));
    json_object_set_new(j, "projection", proj);
    json_object_set_new(j, "condition", rc->cond ? ex_rex_json(x->p, rc->cond, cm) : json_null());
    return false;
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_calc(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *in = n->in;
    WSchema *out = &n->out;
    WRel *x = rd_new_rel(r, WR_CALC, 1);
    json_t *proj = json_object_get(j, "projection");
    WRelCalc *xc = wrel_calc_mut(x);
    xc->nexprs = (int)json_array_size(proj);
    xc->exprs = WA_ARRAY(r->a, WExpr *, xc->nexprs ? xc->nexprs : 1);
    for (int i = 0; i < xc->nexprs; i++) {
        xc->exprs[i] = rd_rex(r, json_array_get(proj, (size_t)i), &in->out);
        if (!xc->exprs[i]) return NULL;
        if (i < out->n) xc->exprs[i]->name = out->names[i];
    }
    json_t *c = json_object_get(j, "condition");
    if (c && !json_is_null(c)) {
        xc->cond = rd_rex(r, c, &in->out);
        if (!xc->cond) return NULL;
    }
    return x;
}

/* ---- explain: EXECUTE PLAN check (plan_reader_check.c) ---- */

static bool rdc_calc(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    const WRelCalc *xc = wrel_calc(x);
    if (!rdc_width_ok(r, x, xc->nexprs)) return false;
    for (int i = 0; i < xc->nexprs; i++)
        if (!rdc_same_repr(x->out.types[i], xc->exprs[i]->type, 0))
            return rdc_bad(r, "outputType", "declares field %d as %s, but projection %d is a %s.", i,
                       rdc_tn(x->out.types[i], (char[96]){0}), i, rdc_tn(xc->exprs[i]->type, (char[96]){0}));
    return true;
}

/* ---- explain: cost (explain_text.c) ---- */

/* Flink's guesses without statistics: = 0.15, <> 0.85, comparisons 0.5, LIKE 0.05, IS NOT NULL
   0.9, anything else 0.25; AND multiplies, OR is the sum less the product. */
static double selectivity(const WExpr *e)
{
    if (!e) return 1.0;
    if (e->kind == WX_AND) {
        double s = 1.0;
        for (int i = 0; i < e->nargs; i++) s *= selectivity(e->args[i]);
        return s;
    }
    if (e->kind == WX_OR) {
        double sum = 0, prod = 1.0;
        for (int i = 0; i < e->nargs; i++) {
            double k = selectivity(e->args[i]);
            sum += k;
            prod *= k;
        }
        return sum - prod;
    }
    if (e->kind == WX_IS_NULL && e->negated) return 0.9;
    if (e->kind == WX_CALL && e->func) {
        const char *n = e->func->name;
        if (!strcmp(n, "=")) return 0.15;
        if (!strcmp(n, "<>")) return 0.85;
        if (!strcmp(n, "<") || !strcmp(n, "<=") || !strcmp(n, ">") || !strcmp(n, ">=")) return 0.5;
        if (!strcasecmp(n, "LIKE")) return 0.05;
    }
    return 0.25;
}

/* Calc's computations: projections that are neither a field, a literal nor a CAST (Flink counts
   no CASTs, which its reduction leaves only where needed) */
static int computations(const WRel *r)
{
    int n = 0;
    for (int i = 0; i < wrel_calc(r)->nexprs; i++) {
        const WExpr *e = wrel_calc(r)->exprs[i];
        if (e->kind != WX_COLUMN && e->kind != WX_LITERAL && e->kind != WX_CAST) n++;
    }
    return n;
}

static void cost_calc(const ExCtx *x, const WRel *r, int n, const Cost *in, Cost *c, SelfCost *self)
{
    c->rowcount = in->rowcount * selectivity(wrel_calc(r)->cond);
    self->rows = c->rowcount;
    self->cpu = c->rowcount * computations(r);
}

/* ---- explain: Abstract Syntax Tree line (logical.c) ---- */

static bool ast_calc(AstNode *a)
{
    const WRel *r = a->r;
    const WRelCalc *rc = wrel_calc(r);
    WStrBuf *out = a->out;
    bool *last = a->last;
    int depth = a->depth;
    const char *path = a->path;
    bool filter_only = rc->cond && ast_identity_exprs(r);
    if (!filter_only) {
        wsb_puts(out, "LogicalProject(");
        for (int i = 0; i < rc->nexprs; i++) {
            if (i) wsb_puts(out, ", ");
            wsb_printf(out, "%s=[", r->out.names[i]);
            ex_rex(out, rc->exprs[i], NULL, EXD_AST);
            wsb_putc(out, ']');
        }
        wsb_puts(out, ")\n");
        if (rc->cond) {
            depth++;
            last[depth] = true;
            ast_prefix(out, last, depth);
        }
    }
    if (rc->cond) {
        wsb_puts(out, "LogicalFilter(condition=[");
        ex_rex(out, rc->cond, NULL, EXD_AST);
        wsb_puts(out, "])\n");
    }
    /* hint inherit paths count from the query block's projection */
    a->path = filter_only ? path : rc->cond ? "0" : "";
    a->depth = depth;
    return true;
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_calc(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    return wop_calc_new(&L->ctx, r->inputs[0]->out.n, r->inputs[0]->out.types, wrel_calc(r)->nexprs, wrel_calc(r)->exprs, wrel_calc(r)->cond,
                        r->out.types, r->out.names);
}

const WKindDef wkind_calc = {
    .kind = WR_CALC,
    .phys = {.derive = derive_calc},
    .ub = {.satisfy = ub_calc},
    .ex = {.name = "Calc", .exec_type = "stream-exec-calc_1", .digest = dg_calc},
    .cp = {.write = cp_calc, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-calc_1", 1, rdn_calc}}},
    .rd_check = {.check = rdc_calc},
    .rd_mode = {.mode = mode_as_input},
    .cost = {.cost = cost_calc},
    .ast = {.print = ast_calc},
    .build = {.build = bd_calc, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
