/*
 * changelog_normalize.c — the node kind ChangelogNormalize: an upsert stream keyed by its primary
 * key made a full changelog (Flink's StreamPhysicalChangelogNormalize /
 * StreamExecChangelogNormalize). Its operations in every stage, each beside the others: the
 * physical derivation (changelog mode, unique key, TTL, exchanges), the update-before requirement,
 * the EXPLAIN name and digest, the COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode,
 * the cost, the Abstract Syntax Tree line, the runtime operator and the job-graph operators;
 * wkind_changelog_normalize at the end names them (kinds.h). Helpers shared with other kinds stay
 * in their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the update-before requirement (update_before.c) ---- */

static bool ub_changelog_normalize(WRel *r, int req, bool apply)
{
    /* emits either; reads its upsert input without UPDATE_BEFORE */
    return ub_satisfy(r->inputs[0], ub_uk_for(r->inputs[0], UK_ONLY_UA), apply);
}

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_changelog_normalize(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    ExDialect d = dn->d;
    const char *const *inn = dn->inn;
    wsb_puts(out, "(key=[");
    dg_key_names(out, inn, r->nkeys, r->keys);
    wsb_putc(out, ']');
    const WExpr *filter = wrel_normalize(r)->filter;
    if (filter) {
        wsb_puts(out, ", condition=[");
        ex_rex(out, filter, inn, d);
        wsb_putc(out, ']');
    }
    wsb_putc(out, ')');
}

/* ---- explain: COMPILE PLAN fields (compiled_plan.c) ---- */

static bool cp_changelog_normalize(const CpNode *cn, json_t *j)
{
    const ExCtx *x = cn->x;
    const WRel *r = cn->r;
    json_object_set_new(j, "configuration", cp_minibatch_configuration(x));
    json_object_set_new(j, "uniqueKeys", cp_ints_json(r->nkeys, r->keys));
    json_object_set_new(j, "generateUpdateBefore", json_boolean(r->generate_update_before));
    const WExpr *filter = wrel_normalize(r)->filter;
    if (filter) json_object_set_new(j, "filterCondition", ex_rex_json(x->p, filter, NULL));
    json_object_set_new(j, "state", cp_one_state(r->ttl_ms, "changelogNormalizeState"));
    return false;
}

/* ---- explain: EXECUTE PLAN reader (plan_reader.c reads the node by its compiled-plan type) ---- */

static WRel *rdn_changelog_normalize(Rd *r, RdNode *n)
{
    json_t *j = n->j;
    WRel *in = n->in;
    WRel *x = rd_new_rel(r, WR_CHANGELOG_NORMALIZE, 1);
    x->nkeys = rd_ints(r, json_object_get(j, "uniqueKeys"), &x->keys);
    x->generate_update_before = json_is_true(json_object_get(j, "generateUpdateBefore"));
    x->input_retracts = true;
    json_t *fc = json_object_get(j, "filterCondition");
    if (fc && !json_is_null(fc)) {
        WRelNormalize *xn = wrel_normalize_mut(x);
        xn->filter = rd_rex(r, fc, &in->out);
        if (!xn->filter) return NULL;
    }
    x->ttl_ms = rd_ttl(r, j, 0);
    x->nunique = x->nkeys;
    x->unique = x->keys;
    return x;
}

/* ---- runtime: the operator (build.c) ---- */

static bool mb_changelog_normalize(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb)
{
    /* ProcTimeMiniBatchDeduplicateKeepLastRowFunction */
    mb->mode = WMB_LAST_PER_KEY;
    mb->nkeys = r->nkeys;
    mb->keys = r->keys;
    return true;
}

static WOperator *bd_changelog_normalize(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    WChangelogNormalizeSpec sp = {
        .in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
        .generate_update_before = r->generate_update_before, .ttl_ms = r->ttl_ms,
        .filter = wrel_normalize(r)->filter, .out = {r->out.n, r->out.types, r->out.names}};
    return wop_changelog_normalize_new(&L->ctx, &sp);
}

const WKindDef wkind_changelog_normalize = {
    .kind = WR_CHANGELOG_NORMALIZE,
    .phys = {.derive = DERIVE_MADE_LATER},
    .ub = {.satisfy = ub_changelog_normalize},
    .ex = {.name = "ChangelogNormalize", .exec_type = "stream-exec-changelog-normalize_1", .digest = dg_changelog_normalize},
    .cp = {.write = cp_changelog_normalize, .output_schema = cp_own_schema, .after_description = cp_nothing_after},
    .rd_read = {.types = {{"stream-exec-changelog-normalize_1", 1, rdn_changelog_normalize}}},
    .rd_check = {.check = rdc_unique_keys},
    .rd_mode = {.mode = mode_all_kinds},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    .build = {.build = bd_changelog_normalize, .bundle = mb_changelog_normalize},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
