/*
 * explain_internal.h — private to explain/: the view of an exec graph that EXPLAIN and COMPILE
 * PLAN print (Flink's exec node ids, nodes weir keeps separately but Flink folds into another,
 * the scan abilities Flink's filesystem source shows), expression rendering in Flink's dialects,
 * and node digests.
 *
 * Contract: everything reads finalised WRel trees and never changes them; strings go to WStrBuf
 * or the plan arena. Depends on plan/, types/, common/.
 */
#ifndef WEIR_EXPLAIN_INTERNAL_H
#define WEIR_EXPLAIN_INTERNAL_H

#include "explain.h"
#include "../plan/state_ttl.h"

#include <jansson.h>

/* Expression dialects. */
typedef enum ExDialect {
    EXD_REL,        /* Calcite RexNode digest with field names: >(a, 10), _UTF-16LE'x' (physical plan) */
    EXD_EXEC,       /* Flink's infix form: (a > 10), 'x' (execution plan, compiled-plan descriptions) */
    EXD_AST,        /* Calcite digest with input refs: >($0, 10) (abstract syntax tree) */
    EXD_PUSHED,     /* a predicate pushed into a scan: like EXD_REL but and(...) in lower case */
    EXD_MATCH       /* like EXD_REL, for MATCH_RECOGNIZE's measures and definitions, which the
                       planner does not reduce (string literals keep their CHAR type) */
} ExDialect;

/* One exec node as Flink sees it. */
typedef struct ExNode {
    const WRel *rel;
    int id;                         /* Flink exec node id (1-based, inputs first) */
    const WRel *materializer;       /* Sink: the SinkUpsertMaterializer folded into it */
    /* scans read by a Calc: Flink's filter/projection push-down into the filesystem source */
    const WExpr *pushed_filter;     /* shown as filter=[...] (the Calc keeps it too) */
    int nproj;                      /* projected physical columns (table order), 0 = no projection */
    int *proj;                      /* indexes into the scan's output */
    bool wtime_used;                /* window aggregate: window_time is read above */
} ExNode;

typedef struct ExCtx {
    WPlanCtx *p;
    bool batch;                     /* execution.runtime-mode = batch (Flink's batch physical nodes) */
    bool costs;                     /* the physical plan being printed shows ESTIMATED_COST: Calcite's
                                       ALL_ATTRIBUTES level, which leaves out DIGEST_ATTRIBUTES-only items */
    int n, cap;
    ExNode *nodes;
    WStateTtlHint *hints;
    int nhints;
    /* cache of unique output names per node */
    int nnames, capnames;
    const WRel **name_rel;
    const char *const **names;
} ExCtx;

/* Build the view of roots[0..n) (collect sinks of queries are left out: Flink prints no sink). */
bool ex_ctx_init(ExCtx *x, WPlanCtx *p, WRel **roots, int n);
ExNode *ex_node(const ExCtx *x, const WRel *r);
/* The exec inputs of r (a folded materializer is skipped). Returns the count. */
int ex_inputs(const ExCtx *x, const WRel *r, const WRel **out);
/* The root to print for a statement root (a collect sink's input). */
const WRel *ex_root(const WRel *r);
const WStateTtlHint *ex_hint(const ExCtx *x, const WRel *r);
/* r, or the first node below it that is printed (folded nodes are skipped). */
const WRel *ex_skip(const ExCtx *x, const WRel *r);
uint8_t ex_changelog_mode(const ExCtx *x, const WRel *r);

/* The node's output names, made unique as Calcite does (order_id, order_id0). */
const char *const *ex_out_names(const ExCtx *x, const WRel *r);
/* r->out with those names. */
WSchema ex_schema(const ExCtx *x, const WRel *r);
/* Column name of input column i as the node's digest shows it (after projection push-down). */
const char *ex_in_name(const ExCtx *x, const WRel *in, int col);

/* ---- sub-plan reuse in the execution plan (reuse.c) ----
   Reuse ids of the nodes reached more than once from tops[0..n) (exec inputs), and the state of
   one printing: a single tree counts visits (the first prints the node with its reuse id), a
   DAG of several roots prints each reused node as its own block first (first[] set while it
   prints) and stops at it afterwards (stop[]), as Flink's ExecNodePlanDumper. */
typedef struct ExReuse {
    int n;
    const WRel **node;
    int *id;
    int *visits;
    bool *first;
    bool dag;
    int nstop;
    const WRel **stop;
} ExReuse;
void ex_reuse_init(const ExCtx *x, const WRel *const *tops, int n, ExReuse *u);
int ex_reuse_id(const ExReuse *u, const WRel *r);       /* 0: not reused */
/* Is this occurrence of reused node r the one that prints it (count: a tree's visit)? */
bool ex_reuse_first(ExReuse *u, const WRel *r, bool count);
bool ex_reuse_stopped(const ExReuse *u, const WRel *r);

/* ---- expressions (rex.c) ---- */
/* `names` are the input field names (NULL for EXD_AST). */
void ex_rex(WStrBuf *out, const WExpr *e, const char *const *names, ExDialect d);
/* A literal as Calcite/Flink prints it. */
void ex_literal(WStrBuf *out, const WExpr *e, ExDialect d);
/* A literal of a Values tuple: Calcite's Values digest prints every literal without its type
   (RexDigestIncludeType.NO_TYPE: { 0, null, 2021-04-13 20:12:11.123456789, _UTF-16LE'a' }). */
void ex_tuple_literal(WStrBuf *out, const WExpr *e, ExDialect d);
/* JSON form of an expression; colmap maps input refs (NULL = identity). */
json_t *ex_rex_json(WPlanCtx *p, const WExpr *e, const int *colmap);
/* Flink's JSON type string or object ("INT NOT NULL", or {"type":"TIMESTAMP_WITHOUT_TIME_ZONE",...}). */
json_t *ex_type_json(const WType *t);
const char *ex_type_str(WArena *a, const WType *t);       /* summary string: VARCHAR(2147483647) */
/* The type as a compiled plan writes it (LogicalType.asSerializableString: TIMESTAMP(p) WITH LOCAL
   TIME ZONE where EXPLAIN text writes TIMESTAMP_LTZ(p)). */
const char *ex_type_serial(WArena *a, const WType *t);
json_t *ex_row_type_json(WArena *a, const WSchema *s);     /* outputType */
/* Calcite's type name without character set and nullability, as RecordType(...) lists its
   fields: INTEGER, VARCHAR(11), TIMESTAMP_WITH_LOCAL_TIME_ZONE(3), INTEGER ARRAY */
void ex_calcite_type_name(WStrBuf *out, const WType *t);

/* ---- node digests (digest.c) ---- */
const char *ex_rel_name(const WRel *r);                     /* Calc, GroupAggregate, ... */
const char *ex_exec_type(const WRel *r);                    /* stream-exec-calc_1, ... */
/* name(attrs) of one node for the physical (EXD_REL) or execution (EXD_EXEC) plan: the
   operations of its kind in digest.c's table (one row per WRelKind). */
void ex_digest(const ExCtx *x, const WRel *r, ExDialect d, WStrBuf *out);
/* "partitionBy=[k, ...], orderBy=[c ASC, ...], " of r's keys and sort (each only when present),
   as Flink's Match and batch OverAggregate print them over input names inn (digest.c). */
void ex_partition_order_by(WStrBuf *out, const WRel *r, const char *const *inn);
/* Aggregate call text, e.g. SUM(amount) AS EXPR$1 */
void ex_agg_call(const WAggCall *c, const char *const *in_names, const char *out_name, WStrBuf *out, bool retract);
/* Changelog mode: I,UB,UA,D or NONE */
void ex_changelog(uint8_t mode, WStrBuf *out);

/* ---- UNNEST's Correlate (correlate.c) ---- */
/* The attributes after the name: (invocation=[...], ..., joinType=[INNER]). */
void ex_correlate_digest(const ExCtx *x, const WRel *r, WStrBuf *out);
/* stream-exec-correlate_1's joinType, functionCall and condition into node j. */
void ex_correlate_json(const ExCtx *x, const WRel *r, json_t *j);

/* ---- logical plan for the Abstract Syntax Tree (logical.c) ---- */
void ex_ast_tree(WPlanCtx *p, const WRel *root, WStrBuf *out);

/* small helpers */
void ex_names_list(WStrBuf *out, const WSchema *s);          /* a, b, c */

/* ---- set operations and grouping sets (setops_digest.c) ---- */
/* Expand(projects=[{a, null AS b, 0 AS $e}, ...]) */
void ex_setops_expand_digest(const ExCtx *x, const WRel *r, const char *const *inn, WStrBuf *out);
/* Correlate(invocation=[$REPLICATE_ROWS$1($0, $1)], correlate=[...], select=[...], rowType=[...], joinType=[INNER]) */
void ex_setops_correlate_digest(const ExCtx *x, const WRel *r, const char *const *inn, WStrBuf *out);
/* A join on null-safe keys only (INTERSECT / EXCEPT): IS NOT DISTINCT FROM(a, b) for one key, the
   expanded ((a = b) OR (a IS NULL AND b IS NULL)) conjunction for several; false (nothing
   printed) for any other join. */
bool ex_setops_null_safe_condition(const WRel *r, const char *const *names, ExDialect d, WStrBuf *out);

/* ---- MATCH_RECOGNIZE (match_digest.c) ---- */
/* The attributes after the name: (partitionBy=[...], ..., define=[{...}]). */
void ex_match_digest(const ExCtx *x, const WRel *r, const char *const *inn, ExDialect d, WStrBuf *out);
/* The Abstract Syntax Tree line: LogicalMatch(partition=[[0]], ..., inputFields=[[...]]) and a newline. */
void ex_match_ast(const WRel *r, WStrBuf *out);
/* stream-exec-match_1's matchSpec into node j (match_json.c). */
void ex_match_json(const ExCtx *x, const WRel *r, json_t *j);

/* ", hints=[[[OPTIONS [inheritPath:[] ]options:{k=v, ...}]]]" of a scan with table OPTIONS hints
   (ast: the LogicalTableScan form), nothing otherwise (digest.c). */
void ex_options_hints(WStrBuf *out, const WRel *scan, bool ast);

#endif
