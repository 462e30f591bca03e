/*
 * explain.h — what users read about a plan: EXPLAIN text (Abstract Syntax Tree, Optimized
 * Physical Plan, Optimized Execution Plan, Physical Execution Plan JSON), the compiled plan JSON of
 * COMPILE PLAN, and reading a compiled plan back for EXECUTE PLAN.
 *
 * Contract: explain/ reads finalised exec graphs (plan.h, after wplan_build) and never changes
 * them; wplan_from_json builds an exec graph the runtime can run directly (the same graph the
 * SQL produced). Formats follow Flink (see ../shared/reference/flink-plans.md). Depends on plan/,
 * catalog/, types/, common/.
 */
#ifndef WEIR_EXPLAIN_EXPLAIN_H
#define WEIR_EXPLAIN_EXPLAIN_H

#include <stdbool.h>
#include "../plan/plan.h"
#include "../common/strbuf.h"

/* EXPLAIN: `details` is the AX_* bit set of sql/ast.h. `ast_roots` are the bound (unoptimised)
   plans for the Abstract Syntax Tree section, `roots` the finalised ones. */
bool wexplain_text(WPlanCtx *p, WRel **ast_roots, WRel **roots, int n, int details, WStrBuf *out);

/* PLAN_ADVICE from a running job's figures (weir's insight, docs/insight.md): for each node of
   the optimised plan, `advise` is asked for advice about the job's operator with the same exec
   node id (a job planned from the same statement has the same ids) and answers by calling add
   (kind "WARNING" or "ADVICE"; text copied). */
typedef void (*WExplainAddAdvice)(void *actx, const char *kind, const char *text);
typedef struct WExplainAdvisor {
    void *ctx;
    void (*advise)(void *ctx, int node_id, WExplainAddAdvice add, void *actx);
} WExplainAdvisor;
/* wexplain_text with advice from a running job added to PLAN_ADVICE's (adv NULL: none). */
bool wexplain_text_advised(WPlanCtx *p, WRel **ast_roots, WRel **roots, int n, int details,
                           const WExplainAdvisor *adv, WStrBuf *out);

/* COMPILE PLAN: the JSON document Flink writes (flinkVersion, nodes, edges). */
bool wexplain_compiled_plan(WPlanCtx *p, WRel **roots, int n, WStrBuf *out);

/* A statement that runs takes ExecNode ids from the session's counter (p->exec_node_ids) as
   Flink's translation does: one per node of its plan, the collect sink of a query included. The
   only change explain/ makes to a plan: each numbered node's WRel.exec_id is set, so that the job
   graph and the runtime name their operators with the ids EXPLAIN shows. */
void wexplain_take_exec_node_ids(WPlanCtx *p, WRel **roots, int n);

/* Sub-plan reuse (plan/reuse.c, through WPlanCtx.node_digests): digests[i] = the digest of
   nodes[i] alone as Flink's physical plan prints it (a sink's is unique: sinks are not reused);
   folded[i]: the node is folded into another (no node of Flink's plan). */
bool wexplain_node_digests(WPlanCtx *p, WRel **roots, int n, WRel **nodes, int nnodes, const char **digests,
                           bool *folded);

/* EXECUTE PLAN: parse a compiled plan into finalised roots (allocated in p->arena); the tables
   the plan names are taken from the plan itself. Returns the number of roots, -1 on error. */
int wplan_from_json(WPlanCtx *p, const char *json, WRel ***roots);


#endif
