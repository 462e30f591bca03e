/*
 * over_rank.c — the node kind OverRank: ROW_NUMBER / RANK / DENSE_RANK OVER (...) before the rank
 * rule makes it a Rank, Deduplicate or OverAggregate (logical only). Its operations in every
 * stage, each beside the others: the physical derivation (changelog mode, unique key, TTL,
 * exchanges), the update-before requirement, the EXPLAIN name and digest, the COMPILE PLAN fields,
 * the EXECUTE PLAN check and changelog mode, the cost, the Abstract Syntax Tree line, the runtime
 * operator and the job-graph operators; wkind_over_rank at the end names them (kinds.h). Helpers
 * shared with other kinds stay in their stage (plan_kinds.h, explain_kinds.h, runtime_kinds.h).
 */
#include "kinds_internal.h"

/* ---- explain: Abstract Syntax Tree line (logical.c) ---- */

static bool ast_over_rank(AstNode *a)
{
    const WRel *r = a->r;
    WStrBuf *out = a->out;
    const char *const *rename = a->rename;
    static const char *const F[] = {"ROW_NUMBER", "RANK", "DENSE_RANK"};
    wsb_puts(out, "LogicalProject(");
    for (int i = 0; i < r->out.n; i++) {
        if (i) wsb_puts(out, ", ");
        const char *nm = rename ? rename[i] : r->out.names[i];
        if (i == wrel_rank(r)->col) {
            wsb_printf(out, "%s=[%s() OVER (PARTITION BY ", nm,
                       F[wrank_func_index(wrel_rank(r)->func)]);
            for (int k = 0; k < r->nkeys; k++) wsb_printf(out, "%s$%d", k ? ", " : "", r->keys[k]);
            wsb_puts(out, " ORDER BY ");
            for (int k = 0; k < r->nsort; k++)
                wsb_printf(out, "%s$%d%s NULLS %s", k ? ", " : "", r->sort_cols[k], r->sort_desc[k] ? " DESC" : "",
                           r->sort_nulls_first[k] ? "FIRST" : "LAST");
            wsb_puts(out, ")]");
        } else {
            wsb_printf(out, "%s=[$%d]", nm, i);
        }
    }
    wsb_puts(out, ")\n");
    return true;
}

const WKindDef wkind_over_rank = {
    .kind = WR_OVER_RANK,
    .phys = {.derive = DERIVE_MADE_LATER},
    .ub = {.satisfy = ub_forward},
    .ex = {.name = "OverRank", .exec_type = EX_NOT_AN_EXEC_NODE, .digest = DG_NOT_AN_EXEC_NODE},
    .cp = {.write = CP_NOT_IN_A_COMPILED_PLAN, .output_schema = CP_NOT_IN_A_COMPILED_PLAN_SCHEMA, .after_description = CP_NOT_IN_A_COMPILED_PLAN_AFTER},
    .rd_read = RD_READ_NONE,
    .rd_check = {.check = RDC_NOT_IN_A_COMPILED_PLAN},
    .rd_mode = {.mode = MODE_NOT_IN_A_COMPILED_PLAN},
    .cost = {.cost = COST_AS_ITS_INPUT},
    .ast = {.print = ast_over_rank},
    .build = {.build = BUILD_NOT_A_RUNTIME_NODE, .bundle = NO_MINIBATCH_BUNDLE},
    .vx = {.name_of = VX_NAMED_AS_ITS_KIND, .add_ops = vx_plain},
};
