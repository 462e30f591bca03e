/*
 * union.c — the Union operator (UNION ALL): rows from every input pass through; the framework
 * merges watermarks as the minimum over inputs and ends when every input ended.
 */
#include "union.h"

#include <stdlib.h>

static void union_process(WOperator *op, int input, const WChunk *in)
{
    (void)input;
    wop_emit(op, in);
}

static const WOpOps UNION_OPS = {.process = union_process};

WOperator *wop_union_new(WExecCtx *ctx, int ninputs, int ncols, const WType **types, const char **names)
{
    WOperator *op = wcalloc(1, sizeof *op);
    wop_init(op, &UNION_OPS, ctx, ninputs, ncols, types, names);
    return op;
}
