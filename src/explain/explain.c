/*
 * explain.c — EXPLAIN text, compiled plan JSON, and reading compiled plans back. See explain.h.
 * (First version: the formats are being built; until then these report that they are missing.)
 */
#include "explain.h"

bool wexplain_text(WPlanCtx *p, WRel **ast_roots, WRel **roots, int n, int details, WStrBuf *out)
{
    (void)ast_roots; (void)roots; (void)n; (void)details; (void)out;
    return werr_set(p->err, WEXC_TABLE, "EXPLAIN is not supported yet in weir.");
}

bool wexplain_compiled_plan(WPlanCtx *p, WRel **roots, int n, WStrBuf *out)
{
    (void)roots; (void)n; (void)out;
    return werr_set(p->err, WEXC_TABLE, "COMPILE PLAN is not supported yet in weir.");
}

int wplan_from_json(WPlanCtx *p, const char *json, WRel ***roots)
{
    (void)json; (void)roots;
    werr_set(p->err, WEXC_TABLE, "EXECUTE PLAN is not supported yet in weir.");
    return -1;
}
