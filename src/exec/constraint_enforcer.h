/*
 * constraint_enforcer.h — Flink's ConstraintEnforcer before a sink, on every row written (any row
 * kind), in Flink's order: NOT NULL columns first, then CHAR/VARCHAR lengths, then BINARY/VARBINARY
 * lengths.
 *   table.exec.sink.not-null-enforcer   ERROR (default): the job fails with Flink's
 *                                       EnforcerException naming the first NOT NULL column that
 *                                       holds a NULL; DROP: the row is dropped and counted
 *                                       (notNullDroppedRecords in the sink's metrics).
 *   table.exec.sink.type-length-enforcer IGNORE (default): values are written as they are;
 *                                       TRIM_PAD: CHAR(n)/VARCHAR(n) values are cut to n characters
 *                                       and CHAR(n) padded with spaces to n, BINARY(n)/VARBINARY(n)
 *                                       cut to n bytes and BINARY(n) padded with zero bytes; ERROR:
 *                                       a CHAR/BINARY value of another length than n, or a
 *                                       VARCHAR/VARBINARY value longer than n, fails the job.
 * Under ERROR the rows before the offending one are written. Values (option names) are
 * case-insensitive; a bad one gets Flink's enum message. Depends on exec/operator.h, types/, common/.
 */
#ifndef WEIR_EXEC_CONSTRAINT_ENFORCER_H
#define WEIR_EXEC_CONSTRAINT_ENFORCER_H

#include "../common/options.h"
#include "../common/error.h"
#include "../types/chunk.h"

#define WEXC_ENFORCER "org.apache.flink.table.runtime.operators.sink.constraint.EnforcerException"

typedef enum WLengthEnforcer { WLEN_IGNORE, WLEN_TRIM_PAD, WLEN_ERROR } WLengthEnforcer;

typedef struct WSinkEnforcer {
    int nnot_null;                  /* NOT NULL columns of the sink */
    int *not_null;
    int nchars, nbinaries;          /* CHAR/VARCHAR and BINARY/VARBINARY columns with a length */
    int *chars, *binaries;
    const WType **types;            /* all columns of the sink */
    const char **names;
    bool drop;                      /* not-null-enforcer DROP, else ERROR */
    WLengthEnforcer length;
    int64_t dropped;                /* rows dropped (DROP) */
    WChunk *kept;                   /* the rows written when they are not the input's */
} WSinkEnforcer;

/* Set up from the sink's column types and names and the configuration; false with err set on a
   bad option value. */
bool wsink_enforcer_init(WSinkEnforcer *e, int ncols, const WType **types, const char **names,
                         const WOptions *config, WError *err);
void wsink_enforcer_free(WSinkEnforcer *e);
/* The rows of `in` to write: `in` itself when nothing is to be enforced; else a chunk owned by e
   (valid until the next call) without the dropped rows and with trimmed / padded values; on an
   ERROR the rows before the offending one (NULL when there are none), *fail set and err set with
   Flink's message. */
const WChunk *wsink_enforce(WSinkEnforcer *e, const WChunk *in, bool *fail, WError *err);

/* Flink's ConstraintEnforcer as an operator of its own (in front of the sink, and of the
   SinkMaterializer when there is one): rows pass through wsink_enforce; the rows before an
   offending one are emitted before the job fails with ctx->err; its metrics report
   notNullDroppedRecords under DROP. NULL with err set on a bad option value. */
struct WOperator;
struct WExecCtx;
struct WOperator *wop_constraint_enforcer_new(struct WExecCtx *ctx, int ncols, const WType **types,
                                              const char **names, WError *err);

#endif
