/*
 * bind_internal.h — private to the binder: name scopes and the expression binder.
 *
 * Contract: a BScope lists the columns visible to an expression (qualifier, name, type, input
 * index). Expression binding resolves names, derives types with the function library's rules and
 * inserts implicit casts. In aggregate mode (b->agg set) expressions that match a GROUP BY key
 * or an aggregate call become references to the aggregate's output columns.
 */
#ifndef WEIR_PLAN_BIND_INTERNAL_H
#define WEIR_PLAN_BIND_INTERNAL_H

/* The aggregate name bind_scalar_subquery.c gives Calcite's SINGLE_VALUE (no SQL spelling reaches
   it: the parser reads no identifier starting with '$' unquoted). */
#define BIND_SINGLE_VALUE "$SINGLE_VALUE"


#include "plan.h"

typedef struct BCol {
    const char *qual;       /* table alias/name qualifying the column (NULL for none) */
    const char *name;
    const WType *type;
    bool hidden;            /* not expanded by * (e.g. none yet) */
    int depth;              /* 0 = the innermost query; outer (correlated) columns are deeper and
                               are shadowed by inner ones of the same name */
} BCol;

/* An item of * over a join with USING / NATURAL: Calcite lists the common columns first, each
   as COALESCE(left, right) (every join type), then the other columns of each side. */
typedef struct BStar {
    const char *name;
    AstExpr *expr;          /* AE_SCOPE_REF, or COALESCE over such references */
} BStar;

typedef struct BScope {
    int n, cap;
    BCol *cols;
    int nstar;              /* > 0: what * expands to (a join with USING / NATURAL below); 0: the
                               columns not hidden */
    BStar *star;
    int nusing;             /* the USING columns of the FROM's join (and of the joins on its left),
                               which a select item or GROUP BY key names unqualified: Calcite's
                               COALESCE of the first two columns of that name */
    const char **using_names;
} BScope;

/* Aggregate-mode state (GROUP BY / aggregates in SELECT / HAVING). */
typedef struct BAgg {
    BScope *input;          /* scope of the aggregate's input */
    int ngroup;
    WExpr **group;          /* bound group keys (against input) */
    int nargs, cap_args;    /* pre-aggregate projection expressions (after group keys) */
    WExpr **args;
    int ncalls, cap_calls;
    WAggCall *calls;
    AstExpr **call_ast;
    bool probing;           /* binding against the input to match a group key */
    int win_key;            /* legacy group window: index of window_start among the group keys
                               (window_end and window_time follow), -1 if none */
    bool win_props_used;    /* a TUMBLE_START / HOP_END / ... property function was bound */
    const WType **key_types;            /* grouping sets: the (nullable) key types seen above the
                                           aggregate; NULL = the keys' own types */
    const struct BGroupSets *gsets;     /* grouping sets of this aggregate, NULL for none */
} BAgg;

typedef struct BindCtx {
    WPlanCtx *p;
    BAgg *agg;
    int expr_counter;       /* for EXPR$n names */
    int nover_map;          /* batch OVER calls already computed (bind_over.c): call -> column */
    AstExpr **over_map_ast;
    int *over_map_col;
    int nsubq_map;          /* scalar subqueries joined to the FROM (bind_scalar_subquery.c): */
    AstExpr **subq_map_ast; /* subquery -> what it reads (its scope column, or a CASE over it) */
    WExpr **subq_map_expr;
    bool expand_using;      /* binding a select item or GROUP BY key: an unqualified USING column is
                               the COALESCE of its copies (elsewhere it is ambiguous, as Calcite) */
} BindCtx;

void bscope_init(BScope *s);
void bscope_add(WArena *a, BScope *s, const char *qual, const char *name, const WType *t);
void bscope_append(WArena *a, BScope *dst, const BScope *src);

WExpr *bind_expr(BindCtx *b, BScope *s, AstExpr *e);
/* Bind and coerce to BOOLEAN (WHERE/HAVING/ON); error names the clause. */
WExpr *bind_condition(BindCtx *b, BScope *s, AstExpr *e, const char *clause);
/* Make names unique as Calcite does: a later copy of a name gets the first free suffix 0, 1, ... */
void bind_uniquify(WArena *a, int n, const char **names);
/* COALESCE(xs...) with its common type (NOT NULL when one argument is); NULL with the error set. */
WExpr *bind_coalesce(BindCtx *b, AstPos pos, WExpr **xs, int n);
/* Wrap e in a cast to t when the types differ (ignoring nullability). */
WExpr *bind_cast(BindCtx *b, WExpr *e, const WType *t);
bool ast_is_aggregate_call(const AstExpr *e);
/* Register aggregate call e (its arguments bound against `input`) in b->agg: returns its index
   among b->agg->calls, -1 on error. */
int bind_agg_register(BindCtx *b, BScope *input, AstExpr *e);
bool ast_contains_aggregate(const AstExpr *e);
/* SQL text of an expression as Flink prints it in messages/DESCRIBE. */
char *ast_expr_sql(WArena *a, const AstExpr *e);

/* ---- batch OVER windows (bind_over.c) ---- */
/* Whether a select item of aq calls a function with OVER. */
bool bover_has_over(const AstQuery *aq);
/* Batch mode: every OVER call of aq's select items (also inside expressions) is computed by
   OverAggregate nodes over `in` (one per partition / order, Flink's window#i per frame); their
   columns join the scope (hidden) and b's over map, so that bind_expr turns the calls into column
   references. NULL with the error set. */
WRel *bover_bind(BindCtx *b, AstQuery *aq, WRel *in, BScope *scope);
/* The SELECT's only OVER call is one top-level ROW_NUMBER / RANK / DENSE_RANK over columns: it
   is bound as a ranking node (a Top-N filter may follow; else over_rules.c makes it an
   OverAggregate). */
bool bover_only_rank(const AstQuery *aq);
/* Streaming: the checks Flink's StreamExecOverAggregate makes of a window, with its messages
   (one time-attribute ORDER BY key, ascending, frame ending at CURRENT ROW). */
bool bover_stream_window_check(BindCtx *b, BScope *scope, const AstOver *ov, AstPos pos);
/* Streaming: the error for an OVER call of a function the streaming OverAggregate does not run
   (CUME_DIST, PERCENT_RANK, NTILE, LEAD as Flink; LAG not yet). Always NULL. */
WRel *bover_stream_refuse(BindCtx *b, BScope *scope, AstExpr *e);

/* ---- OVER windows in an aggregating SELECT (bind_over_group.c) ---- */
/* Whether aq has OVER calls and aggregates (GROUP BY, HAVING or aggregate calls outside them). */
bool bover_in_aggregate(const AstQuery *aq);
/* aq as the equivalent two-level query: the aggregation in a FROM subquery, the window calls
   over its columns. NULL with the error set. */
AstQuery *bover_split_aggregate(BindCtx *b, AstQuery *aq);

/* ---- ORDER BY / LIMIT / OFFSET (bind_sort.c) ---- */
/* An ORDER BY item that is an ordinal (1-based) or names one of the n output columns: its index;
   -1 when it is neither; -2 with the error set (ordinal out of range). */
int bsort_ordinal_or_alias(BindCtx *b, AstExpr *e, int n, const char **names);
/* ORDER BY of a set operation or VALUES: items name output columns (or ordinals); other
   expressions over the output are appended by a Calc. Sets *cols (per item) and *nvisible. */
WRel *bsort_resolve_output(BindCtx *b, WRel *in, AstQuery *aq, int **cols, int *nvisible);
/* The LogicalSort over `in` (sort keys cols per ORDER BY item, OFFSET / FETCH), then a Calc
   keeping the first nvisible columns when ORDER BY added hidden ones. */
WRel *bsort_node(BindCtx *b, WRel *in, AstQuery *aq, const int *cols, int nvisible);

/* ---- GROUPING SETS / ROLLUP / CUBE (grouping_sets.c) ---- */
typedef struct BGroupSets {
    int nkeys, cap;             /* key expressions as written, duplicates included */
    AstExpr **keys;
    int nsets;
    uint64_t *sets;             /* per set: bit k = keys[k] (after bgs_remap: group key k) is in it */
    uint64_t *origins;          /* per set: the expansion it came from (sets of one ROLLUP / CUBE share
                                   it; a set written out in GROUPING SETS has its own) */
    uint64_t next_origin;
    uint64_t *ids;              /* after bgs_remap: $e of each set; sets are in $e order */
    int ngroup;
    bool active;                /* more than one set, or one set narrower than the keys: Expand + $e */
    int copy;                   /* in: which copy of repeated sets this aggregate computes (GROUP_ID) */
    int copies;                 /* out of bgs_remap: how often the most repeated set occurs */
} BGroupSets;
/* The grouping sets of aq's GROUP BY (cross product of its items). */
bool bgs_collect(BindCtx *b, AstQuery *aq, BGroupSets *gs);
/* map[k] = index among the bound (deduplicated) group keys of gs->keys[k]: sets over those keys,
   their ids, Calcite's order. A set written more than once (GROUP_ID() tells the copies apart) is
   computed by one aggregate per copy, as Calcite does: gs->copies says how many, and only the sets
   of copy gs->copy are kept (each distinct set in copy 0, its second occurrences in copy 1, ...). */
bool bgs_remap(BindCtx *b, BGroupSets *gs, const int *map, int ngroup, AstPos pos);
/* GROUPING / GROUPING_ID / GROUP_ID calls, bound in aggregate mode. */
bool bgs_is_grouping_func(const AstExpr *e);
WExpr *bgs_grouping_call(BindCtx *b, AstExpr *e);
/* Expand over the pre-aggregate Calc (keys, then arguments) and the GroupAggregate by keys + $e. */
WRel *bgs_aggregate(BindCtx *b, BAgg *g, const BGroupSets *gs, WRel *calc);
/* An expression bound over the aggregate's output without $e, moved over the output with $e after
   the ngroup keys (copied). */
WExpr *bgs_shift_post(WArena *a, WExpr *e, int ngroup);

/* ---- bind.c: nodes the binder makes ---- */
/* s with room for n columns (names and types to fill). */
void bind_schema_alloc(WPlanCtx *p, WSchema *s, int n);
/* A Calc over `in` computing exprs named names (and the optional condition cond). */
WRel *bind_make_calc(WPlanCtx *p, WRel *in, int n, WExpr **exprs, const char **names, WExpr *cond);

/* ---- INTERSECT / EXCEPT [ALL], UNION helpers (bind_setops.c) ---- */
/* l and r carry the set operation's column types (out): the rewrite Flink's planner makes of
   INTERSECT / EXCEPT (op), DISTINCT or ALL. NULL with the error set on failure. */
WRel *bsetop_rewrite(BindCtx *b, AstSetOp op, bool all, WRel *l, WRel *r, const WSchema *out);
/* The common type ct[i] of column i of n inputs; false with Calcite's "Type mismatch in column
   <i> of <opname>" (at pos) when there is none. */
bool bsetop_union_types(WPlanCtx *p, WRel **sides, int n, const WType **ct, const char *opname, AstPos pos);
/* Inputs cast to the column types ct where theirs differ (a Calc above each such input). */
void bsetop_cast_sides(WPlanCtx *p, WRel **sides, int n, const WType **ct);
/* UNION ALL of n >= 2 inputs of one column count, cast to their common types; named as the
   first. NULL with the error set when the types have no common one. */
WRel *bsetop_union_all(WPlanCtx *p, WRel **sides, int n);

#endif
