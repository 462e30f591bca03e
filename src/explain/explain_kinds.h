/*
 * explain_kinds.h — what explain/ asks of each node kind: the operation types of its stages
 * (EXPLAIN name, type and digest, digest.c; COMPILE PLAN fields, compiled_plan.c; EXECUTE PLAN
 * reader, check and changelog mode, plan_reader.c and plan_reader_check.c; cost, explain_text.c; the
 * Abstract Syntax Tree line, logical.c), the node views they get, the table of each indexed by
 * WRelKind, and the helpers of those stages that the kinds' operations call. The operations live
 * in src/kinds/<kind>.c; kinds/registry.c defines the tables (explain/ never includes kinds/).
 */
#ifndef WEIR_EXPLAIN_KINDS_H
#define WEIR_EXPLAIN_KINDS_H

#include "explain_internal.h"
#include "plan_reader_internal.h"

/* One exec node's digest as the stage sees it: the node, its first input and their names. */
typedef struct DgNode {
    const ExCtx *x;
    const WRel *r;
    ExDialect d;
    const WRel *in;                 /* first input, NULL for a leaf */
    const char *const *inn;         /* its output names */
    ExNode *node;                   /* the exec view of r (pushed filters, projections), may be NULL */
} DgNode;

/* One node being written: the node, its exec view, its first exec input and the map of that
   input's columns to the ones a projected scan produces (NULL = identity). */
typedef struct CpNode {
    const ExCtx *x;
    const WRel *r;
    WArena *a;
    const ExNode *node;             /* may be NULL */
    const WRel *in;                 /* first exec input, NULL for a source */
    const int *cm;
} CpNode;

/* Flink's estimate without statistics: 1.0E8 rows per source, filters halve, aggregates keep. */
typedef struct Cost { double rowcount, rows, cpu, io, network, memory; } Cost;

/* The cost operation of a node kind, cost(x, r, n, in, c, self): node r's own cost (self: rows,
   cpu, io, network, memory; the model's default: (rows, rows, 0, 0, 0) of the n inputs' rows, as
   set on entry) and its row count (c->rowcount: the inputs' on entry), given the inputs' summed
   cost `in`. */
typedef struct SelfCost {
    double rows, cpu, io, net, mem;
} SelfCost;

/* One node of the tree being printed. depth and path may change for the node's inputs (a
   LogicalProject over a LogicalFilter puts its input one level deeper). */
typedef struct AstNode {
    WPlanCtx *p;
    const WRel *r;
    WStrBuf *out;
    bool *last;
    int depth;
    const char *path;               /* the hint inherit path of the node's inputs */
    const char *const *rename;      /* names of r's columns from the select items, or NULL */
} AstNode;

/* EXPLAIN name, exec type and digest (explain/digest.c) */
typedef struct ExKindOps {
    const char *name;                               /* Calc, GroupAggregate, ... */
    const char *(*name_of)(const WRel *r);          /* ... for a kind with several names */
    const char *exec_type;                          /* stream-exec-calc_1, ... */
    const char *(*exec_type_of)(const WRel *r);     /* ... for a kind with several types */
    void (*digest)(const DgNode *dn, WStrBuf *out); /* (attrs) after the name */
} ExKindOps;

/* Kinds that are no exec node of Flink's (OverRank: logical only; SinkMaterializer: folded into
   its sink's upsertMaterialize=[true]): their name alone, typed as no Flink node. */
#define DG_NOT_AN_EXEC_NODE dg_name_only
#define EX_NOT_AN_EXEC_NODE "stream-exec-unknown_1"
extern const ExKindOps *const wkinds_ex[WR__COUNT];

/* explain/digest.c: shared by several kinds or by the stage itself */
const char *const *dg_in_names(const ExCtx *x, const WRel *in);
const char *const *dg_join_names(const ExCtx *x, const WRel *r);
void dg_key_names(WStrBuf *out, const char *const *names, int n, const int *keys);
void dg_window_spec(WStrBuf *out, const WRel *r, const char *time_name, const char *ws, const char *we,
                    const char *const *inn);
const char *dg_join_type_name(const WRel *r);
void dg_join_condition(const ExCtx *x, const WRel *r, const char *const *names, ExDialect d, WStrBuf *out);
void dg_ttl_hint_text(const WStateTtlHint *h, bool join, WStrBuf *out);
void dg_select_list(const ExCtx *x, const WRel *r, WStrBuf *out);
void dg_sort_list(WStrBuf *out, const WRel *r, const char *const *names);
void dg_rank_sort_key(WStrBuf *out, const WRel *in, const char *const *names, int col, bool desc, bool first);
void dg_partial_final_type(WStrBuf *out, const WRel *r);
const char *dg_rank_type(WRankFunc f);
void dg_two_phase(const DgNode *dn, WStrBuf *out);
void dg_name_only(const DgNode *dn, WStrBuf *out);

/* COMPILE PLAN fields (explain/compiled_plan.c) */
typedef struct CpKindOps {
    bool (*write)(const CpNode *cn, json_t *j);                 /* the kind's own fields */
    WSchema (*output_schema)(const CpNode *cn);                 /* outputType's row */
    void (*after_description)(const CpNode *cn, json_t *j);     /* fields after "description" */
} CpKindOps;

/* Kinds that never reach a compiled plan: OverRank (logical only, the rank rule replaces it),
   SinkMaterializer (folded into its sink: requireUpsertMaterialize), Sort (batch: Flink compiles
   no batch plan). Written as the common fields, as before the table. */
#define CP_NOT_IN_A_COMPILED_PLAN cp_common_fields_only
#define CP_NOT_IN_A_COMPILED_PLAN_SCHEMA cp_own_schema
#define CP_NOT_IN_A_COMPILED_PLAN_AFTER cp_nothing_after
extern const CpKindOps *const wkinds_cp[WR__COUNT];

/* explain/compiled_plan.c: shared by several kinds or by the stage itself */
json_t *cp_state_entry(int index, int64_t ttl_ms, const char *name);
json_t *cp_sort_spec_json(const WRel *r);
void cp_rank_range_and_strategy(json_t *j, const WRel *r, const WRel *in);
const char *cp_bool_str(const WOptions *o, const char *key, const char *dflt);
const char *cp_opt_str(const WOptions *o, const char *key, const char *dflt);
json_t *cp_table_json(const ExCtx *x, const WTable *t, const char *qname, const WRel *wm);
json_t *cp_changelog_json(uint8_t m);
json_t *cp_non_equi_json(const ExCtx *x, const WRel *r);
json_t *cp_join_spec(const WRel *r);
int *cp_input_colmap(const ExCtx *x, const WRel *in);
json_t *cp_input_ref_json(const WRel *in, int i, const int *cm);
bool cp_two_phase_group(const CpNode *cn, json_t *j);
bool cp_window_rank_join(const CpNode *cn, json_t *j);
bool cp_windowed_agg(const CpNode *cn, json_t *j);
bool cp_common_fields_only(const CpNode *cn, json_t *j);
WSchema cp_own_schema(const CpNode *cn);
WSchema cp_schema_projected(const CpNode *cn);
WSchema cp_schema_window_time_if_used(const CpNode *cn);
void cp_nothing_after(const CpNode *cn, json_t *j);

/* EXECUTE PLAN check (explain/plan_reader_check.c) */
typedef struct RdKindOps {
    bool (*check)(Rd *r, WRel *x, const WRel *in, const WSchema *is);
} RdKindOps;

/* Kinds whose reader checks the indexes it reads (LookupJoin: its lookup keys, plan_reader_tables.c)
   and kinds no compiled plan holds (OverRank: logical only; Sort: batch), which the reader never
   makes: nothing more to check, as before the table. */
#define RDC_CHECKED_BY_ITS_READER rdc_leaf
#define RDC_NOT_IN_A_COMPILED_PLAN rdc_leaf
extern const RdKindOps *const wkinds_rd_check[WR__COUNT];

/* explain/plan_reader_check.c: shared by several kinds or by the stage itself */
bool rdc_bad(Rd *r, const char *field, const char *fmt, ...);
const char *rdc_tn(const WType *t, char *buf);
bool rdc_index_ok(Rd *r, const char *field, int v, int n);
bool rdc_indexes_ok(Rd *r, const char *field, const int *v, int cnt, int n);
bool rdc_time_col_ok(Rd *r, const char *field, const WSchema *s, int c);
int rdc_repr_class(WTypeId id);
bool rdc_same_repr(const WType *a, const WType *b, int depth);
bool rdc_width_ok(Rd *r, const WRel *x, int want);
bool rdc_columns_ok(Rd *r, const WRel *x, int at, const WSchema *src, int from, int n);
bool rdc_passthrough_ok(Rd *r, const WRel *x, const WSchema *in);
bool rdc_aggs_ok(Rd *r, const char *field, const WRel *x, int nin);
bool rdc_keys_aggs_out_ok(Rd *r, const WRel *x, const WSchema *in, int extra);
bool rdc_window_ok(Rd *r, const char *w, const WRel *x, const WSchema *in);
bool rdc_leaf(Rd *r, WRel *x, const WRel *in, const WSchema *is);
bool rdc_passthrough(Rd *r, WRel *x, const WRel *in, const WSchema *is);
bool rdc_join(Rd *r, WRel *x, const WRel *in, const WSchema *is);
bool rdc_unique_keys(Rd *r, WRel *x, const WRel *in, const WSchema *is);
bool rdc_rank(Rd *r, WRel *x, const WRel *in, const WSchema *is);
bool rdc_own_reader(Rd *r, WRel *x, const WRel *in, const WSchema *is);

/* EXECUTE PLAN's reading of one node: read(r, n) reads node n->j of the compiled plan (its inputs
   read already: n->ins, n->nin; n->in the first; n->out its outputType, which the reader may
   adjust) into a new WRel, NULL with the error set. plan_reader.c's build_node sets the inputs,
   schema and changelog mode of the node returned and checks it, unless the reader did all that
   (n->done: a scan and its rebuilt projection). */
typedef struct RdNode {
    json_t *j;
    WRel **ins;
    int nin;
    WRel *in;           /* a sink's reader may put the SinkMaterializer it rebuilds here */
    WSchema out;
    bool done;
} RdNode;

/* A compiled-plan node type a kind reads (stream-exec-calc_1, ...), its number of inputs (-1:
   any) and its reader. A kind lists the types whose nodes it is: several types can make one kind
   (stream-exec-sink_1 and _2), and a type's reader may make another kind too (the correlate's
   reader a ReplicateRows for $REPLICATE_ROWS$1; the sink's its SinkUpsertMaterializer). */
typedef struct RdNodeType {
    const char *type;
    int ninputs;
    WRel *(*read)(Rd *r, RdNode *n);
} RdNodeType;

#define RD_MAX_TYPES 3
/* EXECUTE PLAN reader (explain/plan_reader.c): the node types of the kind, ended by the first
   with no type; none for a kind no compiled plan holds (RD_READ_NONE: OverRank, batch Sort) or
   that another kind's reader makes (RD_READ_BY_ANOTHER_KIND: SinkUpsertMaterializer by the
   sink's, ReplicateRows by the correlate's). */
typedef struct RdReadKindOps {
    RdNodeType types[RD_MAX_TYPES];
    bool no_type;               /* set by the markers: the kind has no type of its own */
} RdReadKindOps;
#define RD_READ_NONE {.no_type = true}
#define RD_READ_BY_ANOTHER_KIND {.no_type = true}
extern const RdReadKindOps *const wkinds_rd_read[WR__COUNT];

/* plan_reader.c: the reader of Rank, SortLimit and Limit (the other shared helpers of the readers
   are in plan_reader_internal.h) */
WRel *rdn_rank(Rd *r, RdNode *n);

/* EXECUTE PLAN changelog mode (explain/plan_reader.c): mode(x, in) sets the changelog mode of node x
   read from a compiled plan (and whether its inputs retract) from its inputs' (in: the first
   input, NULL for a leaf). */
typedef struct RdModeKindOps {
    void (*mode)(WRel *x, WRel *in);
} RdModeKindOps;

/* OverRank (the rank rule replaces it) and the batch Sort are in no compiled plan: not applicable,
   read as appends as before the table */
#define MODE_NOT_IN_A_COMPILED_PLAN mode_appends
extern const RdModeKindOps *const wkinds_rd_mode[WR__COUNT];

/* explain/plan_reader.c: shared by several kinds or by the stage itself */
void mode_as_input(WRel *x, WRel *in);
void mode_inserts(WRel *x, WRel *in);
void mode_all_kinds(WRel *x, WRel *in);
void mode_set_by_reader(WRel *x, WRel *in);
void mode_appends(WRel *x, WRel *in);

/* ESTIMATED_COST (explain/explain_text.c) */
typedef struct CostKindOps {
    void (*cost)(const ExCtx *x, const WRel *r, int n, const Cost *in, Cost *c, SelfCost *self);
} CostKindOps;

/* The kinds Flink's cost model passes through: the input's row count, (rows, rows) of its own. */
#define COST_AS_ITS_INPUT cost_of_its_input
extern const CostKindOps *const wkinds_cost[WR__COUNT];

/* explain/explain_text.c: shared by several kinds or by the stage itself */
double cost_row_size(const WSchema *s, bool raw_bytes);
void cost_of_its_input(const ExCtx *x, const WRel *r, int n, const Cost *in, Cost *c, SelfCost *self);

/* Abstract Syntax Tree line (explain/logical.c): print(a) prints node a->r's line(s) (after the
   tree prefix); true: ast_node() prints its inputs below, false: it printed them itself. */
typedef struct AstKindOps {
    bool (*print)(AstNode *a);
} AstKindOps;

/* The kinds the Abstract Syntax Tree prints as Logical + their exec node's name. */
#define AST_NAMED_AS_ITS_EXEC_NODE ast_by_name
extern const AstKindOps *const wkinds_ast[WR__COUNT];

/* explain/logical.c: shared by several kinds or by the stage itself */
void ast_prefix(WStrBuf *out, const bool *last, int depth);
bool ast_identity_exprs(const WRel *r);
void ast_ttl_hints(const WRel *r, const char *path, WStrBuf *out);
void ast_children(WPlanCtx *p, const WRel *r, WStrBuf *out, bool *last, int depth, const char *path);
void ast_cols_used(const WExpr *e, bool *used, int n);
bool ast_by_name(AstNode *a);
void ast_node(WPlanCtx *p, const WRel *r, WStrBuf *out, bool *last, int depth, const char *path,
              const char *const *rename);

#endif
