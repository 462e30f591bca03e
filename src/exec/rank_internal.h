/*
 * rank_internal.h — shared internals of the Rank operator (rank.c: framework, append-only
 * top-N, first-N, fast top-1, updatable top-N; rank_retract.c: retractable top-N). Not a public
 * contract: only the rank files include it. Depends on op_rows.h, stateful.h, types/row.h, types/compare.h.
 */
#ifndef WEIR_EXEC_RANK_INTERNAL_H
#define WEIR_EXEC_RANK_INTERNAL_H

#include "op_rows.h"
#include "stateful.h"
#include "../types/row.h"
#include "../types/compare.h"

/* A view of a binary row held in state (or in a scratch buffer). */
typedef struct RankEnt {
    const uint8_t *p;
    uint32_t len;
} RankEnt;

typedef enum RankMode {
    RM_UNSUPPORTED,     /* RANK / DENSE_RANK: Flink rejects them on streams */
    RM_FIRSTN,          /* AppendOnlyFirstNFunction (ORDER BY proctime ASC) */
    RM_TOP1,            /* FastTop1Function */
    RM_APPEND,          /* AppendOnlyTopNFunction */
    RM_UPDATE,          /* UpdatableTopNFunction */
    RM_RETRACT          /* RetractableTopNFunction */
} RankMode;

typedef struct RankOp {
    WOperator base;
    RankMode mode;
    int ncols, out_ncols;
    const WType **types;        /* input */
    const WType **otypes;       /* output (input + BIGINT rank when out_rank) */
    int nkeys;
    int *keys;
    const WType **ktypes;
    int nsort;
    WSortKey *sort;
    int *scols;
    const WType **stypes;
    int nuk;
    int *uk;
    int64_t rank_start, rank_end;
    bool out_rank, gen_ub, with_number;
    WStateBackend *be;
    WState *st;                 /* rankState */
    WChunk *out;
    WStrBuf kbuf, rbuf, skbuf, nbuf, cur, prev, idx, lbuf;
    const WChunk *row_in;       /* the current input row: row row_r of row_in */
    int row_r;
    bool row_ready;             /* rbuf holds it encoded (rank_input_row) */
    int copy_share;             /* of the last few dozen rows, the share encoded (0..1024):
                                   their strings are read ahead only while it is high */
    WDatum *vals;               /* encode scratch (ncols) */
    uint8_t *nulls;
    WDatum *in_sk;              /* sort key of the current input row */
    uint8_t *in_sk_null;
    WDatum *tmp_sk;             /* scratch sort key */
    uint8_t *tmp_sk_null;
    /* entries of the current top-N buffer and their decoded sort keys (nsort per entry) */
    RankEnt *ents;
    WDatum *esk;
    uint8_t *esk_null;
    int entcap;
    /* retract: sorted index (sort key row, count) */
    RankEnt *ikeys;
    int64_t *icounts;
    uint32_t *ioffs;            /* byte offset of each entry in o->idx (UINT32_MAX = new entry) */
    int icap;
    int64_t ttl_expired, dropped, stale;
    /* AppendOnlyTopNFunction with a rank number emits a shifted row twice (-U at its old rank, then
       +U at the next): the stored rows decoded into out during one proc_append (their bytes stay
       put until its buffer_write), so that the second emit copies the decoded values instead of
       decoding the row again (out_epoch counts out's flushes: a row index is valid within one).
       Between a row's two emits come the next row's -U and, after the first shift, the input
       row's +U: the last RANK_DECODED decoded rows are kept. */
    bool reuse_decoded;
    uint64_t out_epoch;
#define RANK_DECODED 3
    struct { const uint8_t *p; int row; uint64_t epoch; } decoded[RANK_DECODED];
    int64_t work;               /* stored rows / index entries read for the current input row (insight) */
} RankOp;

/* The current input row as an INSERT binary row (in o->rbuf), encoded on first use: most rows of
   a top N over many rows per key never enter it and are never encoded. */
static inline RankEnt rank_input_row(RankOp *o)
{
    if (!o->row_ready) {
        wop_encode_cols(&o->rbuf, o->row_in, o->row_r, o->ncols, NULL, o->types, o->vals, o->nulls);
        o->row_ready = true;
    }
    return (RankEnt){(const uint8_t *)o->rbuf.buf, (uint32_t)o->rbuf.len};
}

/* rank.c helpers used by rank_retract.c */
void rank_emit(RankOp *o, WRowKind k, const uint8_t *row, size_t len, int64_t rank);
bool rank_in_range(const RankOp *o, int64_t rank);
int rank_cmp_sk(const RankOp *o, const WDatum *a, const uint8_t *an, const WDatum *b, const uint8_t *bn);
/* Room for n entries in ents / esk / esk_null (entcap grows by doubling). */
void rank_ensure_ents(RankOp *o, int n);
/* Decode the sort key of a sort-key row (arity nsort). */
void rank_sk_from_keyrow(const RankOp *o, const uint8_t *p, size_t len, WDatum *v, uint8_t *nul);

/* Retractable top-N: process row r of `in` (current key set, rank_input_row = the row encoded as
   INSERT, o->skbuf = its sort key row, o->in_sk = its decoded sort key). */
void rank_retract_process(RankOp *o, const WChunk *in, int r);

#endif
