/*
 * expand.c — the node kind Expand: each input row once per projection, for grouping sets (Flink's
 * StreamPhysicalExpand / StreamExecExpand). Its operations in every stage, each beside the others:
 * the physical derivation (changelog mode, unique key, TTL, exchanges), the update-before
 * requirement, the EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE PLAN check and
 * changelog mode, the cost, the Abstract Syntax Tree line, the runtime operator and the job-graph
 * operators; wkind_expand at the end names them (kinds.h). Helpers shared with other kinds stay in
 * their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_expand(const DgNode *dn, WStrBuf *out)
{
    ex_setops_expand_digest(dn->x, dn->r, dn->inn, out);
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_expand(const CpNode *cn, json_t *j)
{
    const WRel *r = cn->r;
    WArena *a = cn->a;
    const WRel *in = cn->in;
    const int *cm = cn->cm;
    /* projects: one RexNode list per projection: input fields, typed NULLs, the expand id */
    json_t *projects = json_array();
    int nc = r->out.n;
    for (int k = 0; k < wrel_expand(r)->n; k++) {
        json_t *pr = json_array();
        for (int c = 0; c < nc; c++) {
            int src = wrel_expand(r)->src[k * nc + c];
            if (src >= 0) {
                json_array_append_new(pr, cp_input_ref_json(in, src, cm));
            } else {
                json_t *l = json_object();
                json_object_set_new(l, "kind", json_string("LITERAL"));
                json_object_set_new(l, "value", src == -1 ? json_null() : json_integer(wrel_expand(r)->ids[k]));
                json_object_set_new(l, "type", ex_type_json(src == -1 ? wtype_with_nullable(a, r->out.types[c], true)
                                                                      : r->out.types[c]));
                json_array_append_new(pr, l);
            }
        }
        json_array_append_new(projects, pr);
    }
    json_object_set_new(j, "projects", projects);
    return false;
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

WRel *rd_expand(Rd *r, json_t *j, WRel *in, const WSchema *out)
{
    json_t *projects = json_object_get(j, "projects");
    int np = (int)json_array_size(projects), nc = out->n;
    if (np == 0) return rd_fail(r, "Invalid compiled plan: an Expand without %s.", "projects"), NULL;
    WRel *x = rd_new_rel(r, WR_EXPAND, 1);
    wrel_expand_mut(x)->n = np;
    wrel_expand_mut(x)->src = WA_ARRAY(r->a, int, np * nc);
    wrel_expand_mut(x)->ids = WA_ARRAY(r->a, int64_t, np);
    for (int k = 0; k < np; k++) {
        json_t *pr = json_array_get(projects, (size_t)k);
        if ((int)json_array_size(pr) != nc)
            return rd_fail(r, "Invalid compiled plan: an Expand projection has %s fields.", "the wrong number of"), NULL;
        for (int c = 0; c < nc; c++) {
            json_t *e = json_array_get(pr, (size_t)c);
            const char *kind = json_string_value(json_object_get(e, "kind"));
            json_t *v = json_object_get(e, "value");
            if (kind && !strcmp(kind, "INPUT_REF")) {
                int idx = rd_int(json_object_get(e, "inputIndex"), RD_BAD_INDEX);
                if (idx < 0 || idx >= in->out.n) return rd_fail(r, "The compiled plan refers to a missing input field%s", ""), NULL;
                wrel_expand_mut(x)->src[k * nc + c] = idx;
            } else if (kind && !strcmp(kind, "LITERAL") && json_is_null(v)) {
                wrel_expand_mut(x)->src[k * nc + c] = -1;
            } else if (kind && !strcmp(kind, "LITERAL") && (json_is_integer(v) || json_is_string(v))) {
                wrel_expand_mut(x)->src[k * nc + c] = -2;
                wrel_expand_mut(x)->ids[k] = json_is_integer(v) ? json_integer_value(v) : strtoll(json_string_value(v), NULL, 10);
            } else {
                return rd_fail(r, "EXECUTE PLAN reads only input fields, NULL and the expand id in an Expand projection%s", ""), NULL;
            }
        }
    }
    return x;
}

static WRel *rdn_expand(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *in = n->in;
    WSchema *out = &n->out;
    return rd_expand(r, j, in, out);
}

/* ---- explain: EXECUTE PLAN check (plan_reader_check.c) ---- */

static bool rdc_expand(Rd *r, WRel *x, const WRel *in, const WSchema *is)
{
    for (int i = 0; i < wrel_expand(x)->n * x->out.n; i++)
        if (wrel_expand(x)->src[i] >= 0 && !rdc_index_ok(r, "projects", wrel_expand(x)->src[i], is->n)) return false;
    return true;
}

/* ---- runtime: the operator (build.c) ---- */

static WOperator *bd_expand(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    const WRelExpand *e = wrel_expand(r);
    return wop_expand_new(&L->ctx, e->n, e->src, e->ids, r->out.n, r->out.types, r->out.names);
}

const WKindDef wkind_expand = {
    .kind = WR_EXPAND,
    .phys = {.derive = derive_input_modes},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "Expand", .exec_type = "stream-exec-expand_1", .digest = dg_expand},
    .cp = {.write = cp_expand, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-expand_1", 1, rdn_expand}}},
    .rd_check = {.check = rdc_expand},
    .rd_mode = {.mode = mode_as_input},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_expand, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
