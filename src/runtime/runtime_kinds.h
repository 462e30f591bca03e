/*
 * runtime_kinds.h — what runtime/ asks of each node kind: the operation types of its stages (the
 * node's operator and mini-batch bundle, build.c; its stream operators in the job graph,
 * vertices.c), the job-graph builder they get, the table of each indexed by WRelKind, and the
 * helpers of those stages that the kinds' operations call. The operations live in
 * src/kinds/<kind>.c; kinds/registry.c defines the tables (runtime/ never includes kinds/).
 */
#ifndef WEIR_RUNTIME_KINDS_H
#define WEIR_RUNTIME_KINDS_H

#include "job_internal.h"
#include "vertices.h"
#include "../exec/minibatch.h"
#include "../exec/windowed.h"

typedef struct RelInfo {
    WRel *rel;
    int first_op, last_op;      /* -1 for Exchange / Union */
    int nconsumers;
    WRel *consumer;             /* the (first) consumer */
} RelInfo;

typedef struct Builder {
    const WOptions *config;
    int default_p;
    int64_t max_p;              /* pipeline.max-parallelism, 0 = Flink's default */
    bool chaining;
    bool batch;                 /* execution.runtime-mode = batch */
    bool numbered;              /* the statement took ExecNode ids (WRel.exec_id): nodes without one
                                   are folded into others as in Flink's plan */
    int nrels, cap_rels;
    RelInfo *rels;
    int nops, cap_ops;
    WStreamOp *ops;
} Builder;

/* The runtime operator of a node and its mini-batch bundle (runtime/build.c).
   build(p, L, r, ins, done) makes the runtime operator of exec node r in lane L, its inputs'
   operators already built (ins, in r's input order). It returns the operator for build.c to
   register, name and connect, or NULL with p->err set; a kind that registers and connects its
   operators itself (the sink's chain, an exchange's sender/receiver) sets *done. bundle(p, r, mb)
   fills the node's mini-batch bundle, false for a kind Flink does not make mini-batch aware. */
typedef struct BuildKindOps {
    WOperator *(*build)(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done);
    bool (*bundle)(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb);  /* mini-batch: false = none */
} BuildKindOps;

/* Kinds Flink does not make mini-batch aware. */
#define NO_MINIBATCH_BUNDLE mb_none
/* OverRank: the rank rule replaces it before the runtime (an error if one ever reaches it). */
#define BUILD_NOT_A_RUNTIME_NODE bd_not_a_runtime_node
/* The operations of build.c's own small operators. */
extern const WOpOps DROP_UB_OPS, SINK_OPS, TIMESTAMP_INSERTER_OPS, DISCARD_OPS;
extern const BuildKindOps *const wkinds_build[WR__COUNT];

/* runtime/build.c: shared by several kinds or by the stage itself */
WTableSpec *bd_make_spec(WPlanCtx *p, Lane *L, WTable *t, const char *qname, int parallelism);
const WConnector *bd_find_connector(WPlanCtx *p, WTable *t);
int bd_stream_op_of(const WJob *j, const WRel *r, WStreamOpRole role);
WOperator *bd_add_op(WPlanCtx *p, Lane *L, WRel *r, WOperator *op, int stream_op, WOperator *input);
WOperator *bd_simple_op(Lane *L, const WRel *r, const WOpOps *ops);
/* The runtime join kind (exec/stateful.h) of a Join or WindowJoin node. */
WJoinKind bd_join_kind(const WRelJoin *rj);
WOperator *bd_build_enforcer(WPlanCtx *p, Lane *L, WRel *sink, int k, WOperator *input);
int bd_exchange_recv_par(const WJob *j, const WRel *x);
WOperator *bd_build_exchange(WPlanCtx *p, Lane *L, WRel *r, WOperator *input, int send_p, int recv_p,
                             bool rebalance);
WWindowDef bd_window_def(Lane *L, const WRel *r, const WRel *in);
int64_t bd_minibatch_size(WPlanCtx *p);
bool mb_global_group_agg(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb);
bool mb_none(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb);
WRel *bd_scan_exchange_rel(WPlanCtx *p, WJob *j, WRel *r);
WOperator *bd_materializer_new(Lane *L, WRel *r);
WOperator *bd_scan(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done);
WOperator *bd_rank(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done);
WOperator *bd_sort(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done);
WOperator *bd_not_a_runtime_node(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done);

/* The stream operators of a node in the job graph and their name (runtime/vertices.c).
   add_ops(b, ri, r, id, name, desc) adds the stream operators of exec node r (job-graph id `id`),
   wired to its producers, and records the first and last in ri; name and desc are empty buffers
   to build the operators' names and descriptions in. name / name_of: the operator's name
   (exactly one of them). */
typedef struct VxKindOps {
    const char *name;
    const char *(*name_of)(const WRel *r);
    void (*add_ops)(Builder *b, RelInfo *ri, WRel *r, int id, WStrBuf *name, WStrBuf *desc);
} VxKindOps;

/* The stream operator named as its node kind (wrel_kind_name). */
#define VX_NAMED_AS_ITS_KIND vx_name_of_kind
extern const VxKindOps *const wkinds_vx[WR__COUNT];

/* runtime/vertices.c: shared by several kinds or by the stage itself */
int vx_new_op(Builder *b, const char *name, const char *desc, const WRel *r, WStreamOpRole role);
void vx_add_input(WStreamOp *o, int from, WShip ship);
int vx_xid(const Builder *b, const WRel *r);
void vx_wire_inputs(Builder *b, const WRel *r, int op, bool keyed);
int vx_add_enforcer(Builder *b, const WRel *sink, const WRel *fed_by);
const char *vx_name_of_kind(const WRel *r);
void vx_plain_desc(const WRel *r, int id, WStrBuf *d);
void vx_edge(Builder *b, RelInfo *ri, WRel *r, int id, WStrBuf *name, WStrBuf *desc);
void vx_plain(Builder *b, RelInfo *ri, WRel *r, int id, WStrBuf *name, WStrBuf *desc);

#endif
