/*
 * constraint_enforcer.h — Flink's ConstraintEnforcer before a sink: the NOT NULL columns of the
 * sink table are enforced on every row written (any row kind), as
 * `table.exec.sink.not-null-enforcer` says:
 *   ERROR (default)  the job fails with Flink's EnforcerException naming the first NOT NULL column
 *                    that holds a NULL ("Column 'x' is NOT NULL, however, a null value is being
 *                    written into it. ..."); the rows before it in the chunk are written;
 *   DROP             the row is dropped and counted (notNullDroppedRecords in the sink's metrics).
 * Depends on types/, common/.
 */
#ifndef WEIR_EXEC_CONSTRAINT_ENFORCER_H
#define WEIR_EXEC_CONSTRAINT_ENFORCER_H

#include "../common/options.h"
#include "../common/error.h"
#include "../types/chunk.h"

#define WEXC_ENFORCER "org.apache.flink.table.runtime.operators.sink.constraint.EnforcerException"

typedef struct WNotNullEnforcer {
    int ncols;                      /* NOT NULL columns of the sink (0 = nothing to enforce) */
    int *cols;
    const char **names;             /* all column names of the sink */
    bool drop;                      /* DROP, else ERROR */
    int64_t dropped;                /* rows dropped (DROP) */
    WChunk *kept;                   /* DROP: the rows kept of a chunk with NULLs */
} WNotNullEnforcer;

/* Set up from the sink's column types and names and the configuration; false with err set on a
   bad table.exec.sink.not-null-enforcer value. */
bool wnotnull_init(WNotNullEnforcer *e, int ncols, const WType **types, const char **names,
                   const WOptions *config, WError *err);
void wnotnull_free(WNotNullEnforcer *e);
/* The rows of `in` to write: `in` itself when no NOT NULL column holds a NULL; under DROP the
   other rows (a chunk owned by e, valid until the next call); under ERROR the rows before the first
   offending one (*fail set, err set with Flink's message; NULL when there are none). */
const WChunk *wnotnull_apply(WNotNullEnforcer *e, const WChunk *in, bool *fail, WError *err);

#endif
