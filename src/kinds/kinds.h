/*
 * kinds/kinds.h — the node kinds of a plan, one file each: a kind's operations in every stage
 * (physical derivation, update-before requirement, EXPLAIN digest, COMPILE PLAN fields, EXECUTE
 * PLAN reader, check and changelog mode, cost, AST line, runtime operator, job-graph operators)
 * live in src/kinds/<kind>.c, with the kind's WKindDef at its end. registry.c makes the
 * definitions of the kinds plan/plan.h lists (WREL_KINDS) into each stage's view of them: the
 * arrays its header declares (plan/plan_kinds.h, explain/explain_kinds.h,
 * runtime/runtime_kinds.h), indexed by WRelKind.
 * Adding a kind: its line in WREL_KINDS and its file here. A file missing fails the link
 * (wkind_<file> undefined); an operation missing, the start-up check (wkinds_check).
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
    RdReadKindOps rd_read;
    RdKindOps rd_check;
    RdModeKindOps rd_mode;
    CostKindOps cost;
    AstKindOps ast;
    BuildKindOps build;
    VxKindOps vx;
} WKindDef;

#define WKIND_DECLARE(k, file, name) extern const WKindDef wkind_##file;
WREL_KINDS(WKIND_DECLARE)
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
