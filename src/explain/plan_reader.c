/*
 * plan_reader.c — EXECUTE PLAN: a compiled plan (as compiled_plan.c writes it) read back into
 * finalised exec-graph roots the runtime runs. See explain.h.
 */
#include "explain_internal.h"

int wplan_from_json(WPlanCtx *p, const char *json, WRel ***roots)
{
    (void)json; (void)roots;
    werr_set(p->err, WEXC_TABLE, "EXECUTE PLAN is not supported yet in weir.");
    return -1;
}
