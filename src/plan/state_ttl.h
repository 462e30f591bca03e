/*
 * state_ttl.h — state TTL resolution of an exec graph: the job default `table.exec.state.ttl` for
 * every stateful node, and the STATE_TTL query hint (Alibaba's JOIN_STATE_TTL spelling too) on
 * regular joins and group aggregates, with Flink's QueryHintsResolver rules and errors.
 *
 * Contract: works on a physical plan (after wplan_physical); wstate_ttl_resolve sets ttl_ms / a
 * join's wrel_join(r)->ttl_left_ms / ttl_right_ms, which the runtime uses and COMPILE PLAN prints.
 * wstate_ttl_hints repeats the resolution without changing the plan and reports, per hinted node,
 * what the hint gave (for EXPLAIN's stateTtlHints and the plan advice). Hint keys match the node's
 * left_name / wrel_join(r)->right_name (table name, view name or alias; with an alias the alias
 * must be used) by Flink's dotted-suffix rule; a join input that is itself a join has no name and
 * keeps the job default. Depends on plan.h, common/ (duration parsing, options).
 */
#ifndef WEIR_PLAN_STATE_TTL_H
#define WEIR_PLAN_STATE_TTL_H

#include "plan.h"

/* What the TTL hints of a query block gave one join or aggregate. */
typedef struct WStateTtlHint {
    const WRel *node;
    const char *hint_name;      /* STATE_TTL or JOIN_STATE_TTL (upper-cased) */
    const char *left, *right;   /* join: the values as written, NULL when the side is not hinted */
    const char *input;          /* aggregate: the value as written, NULL when not hinted */
    bool left_unnamed;          /* join: this side has no name (e.g. another join), so no key can reach it */
    bool right_unnamed;
    bool input_unnamed;         /* aggregate: the input has no name */
} WStateTtlHint;

/* Resolve TTLs over one finalised root. false with p->err set on a bad hint or duration. */
bool wstate_ttl_resolve(WPlanCtx *p, WRel *root);

/* The hinted nodes of `root` (arena array in p->arena), without changing the plan. Nodes whose
   query block carries TTL hints are listed even when no key reached them. Returns the count,
   -1 with p->err set on error. */
int wstate_ttl_hints(WPlanCtx *p, const WRel *root, WStateTtlHint **out);

/* Order of Java's HashMap iteration over string keys (String.hashCode buckets, insertion order
   within a bucket), which Flink's error messages follow. Sorts idx[0..n) in place. */
void wstate_java_hash_order(const char **keys, int n, int *idx);

#endif
