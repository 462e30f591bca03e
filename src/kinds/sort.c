/*
 * sort.c — the node kind Sort: ORDER BY / LIMIT / OFFSET, logical in streaming and the physical
 * Sort / SortLimit / Limit in batch mode (Flink's BatchExecSort, BatchExecSortLimit,
 * BatchExecLimit). Its operations in every stage, each beside the others: the physical derivation
 * (changelog mode, unique key, TTL, exchanges), the update-before requirement, the EXPLAIN name
 * and digest, the COMPILE PLAN fields, the EXECUTE PLAN check and changelog mode, the cost, the
 * Abstract Syntax Tree line, the runtime operator and the job-graph operators; wkind_sort at the
 * end names them (kinds.h). Helpers shared with other kinds stay in their stage (plan_kinds.h,
 * explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- plan: the physical derivation (physical.c) ---- */

static WRel *derive_sort(WPlanCtx *p, WRel *r, WRel *in, int64_t ttl)
{
    /* batch: the final rows, sorted, once the input ended */
    r->input_retracts = in->changelog != WCM_INSERT;
    r->changelog = WCM_INSERT;
    if (!wrel_sort(r)->local) r->inputs[0] = wphys_exchange(p, in, 0, NULL);
    return r;
}

/* ---- explain: name, type and digest (digest.c) ---- */

static void dg_sort(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    const char *const *inn = dn->inn;
    /* BatchPhysicalSort / BatchPhysicalSortLimit / BatchPhysicalLimit */
    const WRelSort *so = wrel_sort(r);
    bool limited = so->fetch >= 0 || so->offset >= 0;
    wsb_putc(out, '(');
    if (r->nsort) {
        wsb_puts(out, "orderBy=[");
        dg_sort_list(out, r, inn);
        wsb_putc(out, ']');
    }
    if (limited || !r->nsort) {
        wsb_printf(out, "%soffset=[%lld], fetch=[", r->nsort ? ", " : "",
                   (long long)(so->offset > 0 ? so->offset : 0));
        if (so->fetch < 0) wsb_puts(out, "unlimited");
        else wsb_printf(out, "%lld", (long long)so->fetch);
        wsb_printf(out, "], global=[%s]", so->local ? "false" : "true");
    }
    wsb_putc(out, ')');
}

static bool sort_limited(const WRel *r) { return wrel_sort(r)->fetch >= 0 || wrel_sort(r)->offset >= 0; }

static const char *name_sort(const WRel *r) { return !r->nsort ? "Limit" : sort_limited(r) ? "SortLimit" : "Sort"; }

static const char *exec_type_sort(const WRel *r)
{
    return !r->nsort ? "batch-exec-limit_1" : sort_limited(r) ? "batch-exec-sort-limit_1" : "batch-exec-sort_1";
}

/* ---- explain: Abstract Syntax Tree line (logical.c) ---- */

static bool ast_sort(AstNode *a)
{
    const WRel *r = a->r;
    WStrBuf *out = a->out;
    /* Calcite's Sort.explainTerms: sortN, dirN (RelFieldCollation.shortString: the null
       direction only when it is not the direction's default, ASC LAST / DESC FIRST), offset, fetch */
    wsb_puts(out, "LogicalSort(");
    bool first = true;
    for (int k = 0; k < r->nsort; k++, first = false) wsb_printf(out, "%ssort%d=[$%d]", first ? "" : ", ", k, r->sort_cols[k]);
    for (int k = 0; k < r->nsort; k++, first = false) {
        const char *nd = r->sort_desc[k] ? (r->sort_nulls_first[k] ? "" : "-nulls-last")
                                         : (r->sort_nulls_first[k] ? "-nulls-first" : "");
        wsb_printf(out, "%sdir%d=[%s%s]", first ? "" : ", ", k, r->sort_desc[k] ? "DESC" : "ASC", nd);
    }
    const WRelSort *so = wrel_sort(r);
    if (so->offset >= 0) { wsb_printf(out, "%soffset=[%lld]", first ? "" : ", ", (long long)so->offset); first = false; }
    if (so->fetch >= 0) wsb_printf(out, "%sfetch=[%lld]", first ? "" : ", ", (long long)so->fetch);
    wsb_puts(out, ")\n");
    return true;
}


const WKindDef wkind_sort = {
    .kind = WR_SORT,
    .phys = {.derive = derive_sort},
    .ub = {.satisfy = ub_needs_both},
    .ex = {.name_of = name_sort, .exec_type_of = exec_type_sort, .digest = dg_sort},
    .cp = {.write = CP_NOT_IN_A_COMPILED_PLAN, .output_schema = CP_NOT_IN_A_COMPILED_PLAN_SCHEMA, .after_description = CP_NOT_IN_A_COMPILED_PLAN_AFTER},
    .rd_read = RD_READ_NONE,
    .rd_check = {.check = RDC_NOT_IN_A_COMPILED_PLAN},
    .rd_mode = {.mode = MODE_NOT_IN_A_COMPILED_PLAN},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = ast_sort},
    .build = {.build = bd_sort, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = name_sort, .add_ops = vx_plain},
};
