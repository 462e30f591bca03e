/*
 * vertices.h — the job graph a Flink user sees for a SQL job: stream operators named as Flink
 * names them, chained into job vertices by Flink's chaining rules, and the edges between vertices.
 *
 * Contract: wjobgraph_build reads finalised exec graphs (plan.h roots, the sinks) and the job's
 * configuration, and returns a heap-owned graph that stays valid after the plan's arena is gone.
 *  - Stream operators (Flink's StreamNodes, the nodes of JSON_EXECUTION_PLAN): one per exec node,
 *    except Exchange (an edge) and Union (a virtual node: its inputs feed its consumer directly).
 *    A sink expands as Flink's CommonExecSink does: ConstraintEnforcer[id] (when a sink column is
 *    NOT NULL, or a length enforcer applies), SinkMaterializer[id] (fed by a HASH edge on the
 *    primary key), StreamRecordTimestampInserter[id] (collect sink over one rowtime column), then
 *    `Sink: <table>[id]` (`Sink: Collect table sink` for a SELECT). Scans are
 *    `Source: <table>[id]`, VALUES is `Source: Values[id]`, everything else `<ExecNode>[id]`
 *    (table.exec.simplify-operator-name-enabled = true, Flink's default).
 *  - Parallelism: sources `scan.parallelism` or parallelism.default (VALUES 1), sinks
 *    `sink.parallelism` or their input's, operators after a forward edge their input's (after a
 *    table source: parallelism.default, plan/scan_parallelism.h), after a hash/rebalance edge
 *    parallelism.default, after a global (single) exchange 1.
 *  - Behind a source with `scan.parallelism` that emits updates: a HASH edge on the primary key.
 *  - Edges: FORWARD unless an Exchange says HASH (keys) or GLOBAL (single); a forward edge between
 *    different parallelisms becomes REBALANCE (as Flink's StreamGraph does).
 *  - Chaining (StreamingJobGraphGenerator.isChainable): an edge is chained when chaining is on
 *    (pipeline.operator-chaining.enabled), the consumer has exactly one input edge, the edge is
 *    FORWARD and both sides have the same parallelism. A vertex is a head operator plus the
 *    operators chained to it; its name joins theirs with " -> " (", " inside "(...)" when an
 *    operator chains to several outputs), as createChainedName does.
 * Vertices are listed in topological order from the sources. Depends on plan/, catalog/, common/.
 */
#ifndef WEIR_RUNTIME_VERTICES_H
#define WEIR_RUNTIME_VERTICES_H

#include <stdbool.h>
#include "../plan/plan.h"
#include "../common/options.h"

typedef enum WShip { WSHIP_FORWARD, WSHIP_HASH, WSHIP_GLOBAL, WSHIP_REBALANCE, WSHIP_BROADCAST } WShip;

/* "FORWARD", "HASH", "GLOBAL", "REBALANCE" (Flink's partitioner names in plans). */
const char *wship_name(WShip s);

typedef struct WGraphEdge {
    int from;                   /* operator (or vertex) index */
    WShip ship;
} WGraphEdge;

typedef enum WStreamOpRole {
    WSOP_OPERATOR = 0,          /* the exec node's own operator */
    WSOP_CONSTRAINT_ENFORCER,   /* added in front of a sink (no weir operator of its own) */
    WSOP_TIMESTAMP_INSERTER,    /* added in front of a collect or file sink over a rowtime column */
    WSOP_SINK_END,              /* `end: Writer`, the discarding end after a StreamingFileWriter */
    WSOP_WM_TIMESTAMP_ASSIGNER, /* `WatermarkTimestampAssigner` in front of a SinkMaterializer that
                                   compacts on watermarks (ON CONFLICT DO ERROR / NOTHING); weir's
                                   rows carry no timestamp, so it forwards them */
    WSOP_COMPACT_COORDINATOR,   /* a compacting file sink's compact-coordinator (one subtask) */
    WSOP_COMPACT_OPERATOR,      /* its compact-operator (the writer's subtasks) */
    WSOP_PARTITION_COMMITTER    /* its PartitionCommitter (one subtask): partitioned, with a commit policy */
} WStreamOpRole;

typedef struct WStreamOp {
    char *name;                 /* "Calc[2]", "Source: orders[1]", "Sink: kv_sink[5]" */
    char *description;          /* "[2]:Calc" (+ details where weir has them) */
    const WRel *rel;            /* the exec node it comes from (valid while the plan is: the runtime
                                   builds one operator per stream operator from it, runtime/build.c) */
    int rel_id;                 /* exec node id of the weir operator that measures it */
    WRelKind kind;              /* exec node kind it came from */
    WStreamOpRole role;
    int parallelism, max_parallelism;
    int vertex;                 /* index into WJobGraph.vertices */
    int ninputs;
    WGraphEdge *inputs;         /* from = operator index */
    bool is_source, is_sink;
    int64_t ttl_ms;             /* state TTL from the exec graph (0 = never expires) */
    int64_t ttl_left_ms, ttl_right_ms;  /* joins: leftState / rightState */
} WStreamOp;

typedef struct WJobVertex {
    char *name;                 /* chained name */
    char *description;          /* operator descriptions as a tree (pipeline.vertex-description-mode TREE) */
    int parallelism, max_parallelism;
    int nops;
    int *ops;                   /* operator indexes, head first, in chain order */
    int ninputs;
    WGraphEdge *inputs;         /* from = vertex index */
} WJobVertex;

typedef struct WJobGraph {
    int nops;
    WStreamOp *ops;             /* topological order (inputs first) */
    int nvertices;
    WJobVertex *vertices;       /* topological order (sources first) */
    int nedges_non_forward;     /* operator edges that are not FORWARD */
    bool chaining;              /* pipeline.operator-chaining.enabled */
} WJobGraph;

/* Whether Calc r is an identity projection Flink has no operator for (Calcite removes it): its
   consumers read its input, in the job graph and in the runtime. */
bool wjobgraph_folds_calc(const WRel *r);

/* Build the job graph of finalised exec-graph roots (sinks). NULL only for nroots <= 0. */
WJobGraph *wjobgraph_build(WRel *const *roots, int nroots, const WOptions *config);
void wjobgraph_free(WJobGraph *g);


/* A vertex id as Flink shows one (32 lower-case hex digits), stable for (job id, vertex index). */
void wjobgraph_vertex_id(const char *job_id, int vertex, char out[33]);

#endif
