/*
 * op_harness.h — helpers for operator unit tests: a job context with a controllable clock, a
 * capture operator that renders every received row as Flink's Row.toString ("+I[a, 1]"), and a
 * builder that makes a chunk from text rows ("+I", "a", "1", ...).
 */
#ifndef WEIR_TESTS_OP_HARNESS_H
#define WEIR_TESTS_OP_HARNESS_H

#include "../../src/exec/operator.h"
#include "../../src/common/strbuf.h"

typedef struct TestEnv {
    WExecCtx ctx;
    WError err;
    int64_t now;            /* processing-time clock (ms) */
} TestEnv;

void test_env_init(TestEnv *e);

typedef struct Capture {
    WOperator base;
    WStrBuf text;           /* one line per row: "+I[a, 1]\n" */
    int rows;
    int64_t last_wm;
    bool ended;
} Capture;

/* A capture operator for output schema (ncols, types); connect the tested op to it. */
Capture *capture_new(TestEnv *e, int ncols, const WType **types);
void capture_free(Capture *c);
void capture_clear(Capture *c);

/* Build a chunk: kinds[i] like "+I"; cells row-major, ncols per row, NULL pointer or "null"
   for SQL NULL; values parsed with CAST-from-string rules for each column type. */
WChunk *chunk_from_text(TestEnv *e, int ncols, const WType **types, int nrows, const char **kinds,
                        const char **cells);
/* Push rows written one per line as "+I,v1,v2,..." (at most 64 rows of 8 columns, no commas
   inside values) into input 0 of op as one chunk. */
void push_text_rows(TestEnv *e, WOperator *op, int ncols, const WType **types, const char *text);

#endif
