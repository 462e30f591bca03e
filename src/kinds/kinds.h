/*
 * kinds/kinds.h — the node kinds of a plan, one file each: a kind's operations in every stage
 * (physical derivation, update-before requirement, EXPLAIN digest, COMPILE PLAN fields, EXECUTE
 * PLAN check and changelog mode, cost, AST line, runtime operator, job-graph operators) live in
 * src/kinds/<kind>.c, with the kind's WKindDef at its end. registry.c lists the definitions once
 * (WKIND_LIST) and hands each stage its view of them: the arrays its header declares
 * (plan/plan_kinds.h, explain/explain_kinds.h, runtime/runtime_kinds.h), indexed by WRelKind.
 * Adding a kind: its enum value in plan/plan.h, its file here and its line in WKIND_LIST; the
 * compile (a kind missing from WKIND_LIST) or the start-up check (wkinds_check) names what is
 * missing.
 * This layer sits above runtime/ and below session/: it may include every stage's kinds header
 * and the internal headers of the stages whose helpers a kind calls.
 */
#ifndef WEIR_KINDS_H
#define WEIR_KINDS_H

#include "../plan/plan_kinds.h"
#include "../explain/explain_kinds.h"
#include "../runtime/runtime_kinds.h"

/* One node kind's operations, one member per stage's table. */
typedef struct WKindDef {
    WRelKind kind;
    PhysKindOps phys;
    UbKindOps ub;
    ExKindOps ex;
    CpKindOps cp;
    RdKindOps rd_check;
    RdReadKindOps rd_read;
    RdModeKindOps rd_mode;
    CostKindOps cost;
    AstKindOps ast;
    BuildKindOps build;
    VxKindOps vx;
} WKindDef;

/* Every kind: its WRelKind and its file's name, kinds/<name>.c, whose definition is wkind_<name>. */
#define WKIND_LIST(X) \
    X(WR_SCAN, scan) \
    X(WR_VALUES, values) \
    X(WR_CALC, calc) \
    X(WR_UNION, union) \
    X(WR_WATERMARK, watermark) \
    X(WR_SINK, sink) \
    X(WR_EXCHANGE, exchange) \
    X(WR_GROUP_AGG, group_agg) \
    X(WR_JOIN, join) \
    X(WR_DEDUP, dedup) \
    X(WR_RANK, rank) \
    X(WR_SORT_LIMIT, sort_limit) \
    X(WR_WINDOW_AGG, window_agg) \
    X(WR_CHANGELOG_NORMALIZE, changelog_normalize) \
    X(WR_DROP_UPDATE_BEFORE, drop_update_before) \
    X(WR_SINK_MATERIALIZER, sink_materializer) \
    X(WR_OVER_RANK, over_rank) \
    X(WR_WINDOW_TVF, window_tvf) \
    X(WR_WINDOW_RANK, window_rank) \
    X(WR_WINDOW_JOIN, window_join) \
    X(WR_INTERVAL_JOIN, interval_join) \
    X(WR_TEMPORAL_JOIN, temporal_join) \
    X(WR_LOOKUP_JOIN, lookup_join) \
    X(WR_OVER_AGG, over_agg) \
    X(WR_MINIBATCH_ASSIGNER, minibatch_assigner) \
    X(WR_LOCAL_GROUP_AGG, local_group_agg) \
    X(WR_GLOBAL_GROUP_AGG, global_group_agg) \
    X(WR_INCREMENTAL_GROUP_AGG, incremental_group_agg) \
    X(WR_SORT, sort) \
    X(WR_TEMPORAL_SORT, temporal_sort) \
    X(WR_LOCAL_WINDOW_AGG, local_window_agg) \
    X(WR_GLOBAL_WINDOW_AGG, global_window_agg) \
    X(WR_EXPAND, expand) \
    X(WR_REPLICATE_ROWS, replicate_rows) \
    X(WR_CORRELATE, correlate) \
    X(WR_MATCH, match)

#define WKIND_DECLARE(k, name) extern const WKindDef wkind_##name;
WKIND_LIST(WKIND_DECLARE)
#undef WKIND_DECLARE

/* The definition of kind k (asserts k is a kind). */
const WKindDef *wkind_def(WRelKind k);

/* True when kind k's definition d (from file, for the message) is k's and has every operation, or
   its kind's explicit "not applicable" marker (a name and an exec type: exactly one of a fixed
   value and a function of the node); otherwise false, each gap appended to err as "<file>: node
   kind <name> (<k>) has no <member.op> operation". */
bool wkind_def_check(const WKindDef *d, WRelKind k, const char *file, WStrBuf *err);

/* wkind_def_check of every kind. The test build runs it when weir starts (cli/main.c: abort with
   the gaps listed), and tests/unit/test_kind_ops.c runs it, so that a kind added without its
   operations fails there, not in a user's query. */
bool wkinds_check(WStrBuf *err);

#endif
