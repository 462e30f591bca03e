/*
 * job_graph_check.h — "the plan that is explained is the plan that runs": a check the test
 * runner turns on (environment variable WEIR_CHECK_JOB_GRAPH=1; tests/run.sh sets it for every
 * golden and conformance script) that compares, for every job weir builds,
 *   - the nodes of EXPLAIN's JSON execution plan of the same plan (explain/, with the ids the
 *     running statement took), names, order and predecessors with their ship strategies,
 *   - the job graph the REST API and the -v report show (runtime/vertices.h), and
 *   - the operators the runtime built (runtime/job.h): one per stream operator, named as it,
 *     wired along the graph's forward edges.
 * A query's collect sink (and what Flink adds for it) is compared with the job graph only, as
 * Flink's EXPLAIN of a query shows no sink. Users never see it: it only reports differences.
 * Depends on explain/, runtime/, plan/, common/.
 */
#ifndef WEIR_SESSION_JOB_GRAPH_CHECK_H
#define WEIR_SESSION_JOB_GRAPH_CHECK_H

#include <stdbool.h>
#include "../plan/plan.h"
#include "../runtime/job.h"
#include "../common/strbuf.h"

/* Whether WEIR_CHECK_JOB_GRAPH is set (to anything but "0"). */
bool wjob_graph_check_enabled(void);

/* Compares the three views of built job `job` of finalised roots; true when they agree, else
   false with the differences (one per line) appended to `diff`. */
bool wjob_graph_check(WPlanCtx *p, WRel **roots, int n, const WJob *job, WStrBuf *diff);

#endif
