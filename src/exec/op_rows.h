/*
 * op_rows.h — the small pieces every operator needs around its rows: appending to its output
 * chunk (emitted first when full), an input row copied into it, and emitting what it holds;
 * whether a spec's column indexes are in range; columns of a chunk row encoded as a binary row
 * (a key or a stored row); a time attribute's value, and the 8-byte big-endian encodings of
 * times and counters inside state keys and values (the order-preserving one flips the sign bit,
 * so that byte order is time order). Static inline: one definition for every operator instead
 * of a copy in each. Depends on operator.h, types/row.h.
 */
#ifndef WEIR_EXEC_OP_ROWS_H
#define WEIR_EXEC_OP_ROWS_H

#include "operator.h"
#include "../types/row.h"

#include <string.h>

/* A row of kind k appended to op's output chunk out; a full chunk is emitted (and emptied) first.
   Returns the row's index. */
static inline int wop_out_row(WOperator *op, WChunk *out, WRowKind k)
{
    if (out->nrows >= out->cap) {
        wop_emit(op, out);
        wchunk_reset(out);
    }
    return wchunk_add_row(out, k);
}

/* out emitted when it holds rows, then emptied. */
static inline void wop_out_flush(WOperator *op, WChunk *out)
{
    if (out->nrows) wop_emit(op, out);
    wchunk_reset(out);
}

/* Row r of in (its first ncols columns, values not copied) appended to op's output chunk out with
   kind k (wop_out_row); returns the row's index. */
static inline int wop_out_copy_row(WOperator *op, WChunk *out, WRowKind k, const WChunk *in, int r, int ncols)
{
    int o = wop_out_row(op, out, k);
    for (int c = 0; c < ncols; c++) {
        out->cols[c].data[o] = in->cols[c].data[r];
        out->cols[c].nulls[o] = in->cols[c].nulls[r];
    }
    return o;
}

/* Whether cols holds n column indexes in [0, ncols) (false for NULL cols when n > 0). */
static inline bool wop_cols_in_range(const int *cols, int n, int ncols)
{
    for (int i = 0; i < n; i++)
        if (!cols || cols[i] < 0 || cols[i] >= ncols) return false;
    return true;
}

/* Columns cols[0..cnt) of row r of in (NULL cols: columns 0..cnt-1) encoded as an INSERT binary
   row of types tys into buf; vals / nulls: the operator's scratch of at least cnt entries. */
static inline void wop_encode_cols(WStrBuf *buf, const WChunk *in, int r, int cnt, const int *cols,
                                   const WType **tys, WDatum *vals, uint8_t *nulls)
{
    for (int k = 0; k < cnt; k++) {
        int c = cols ? cols[k] : k;
        vals[k] = in->cols[c].data[r];
        nulls[k] = in->cols[c].nulls[r];
    }
    wrow_encode(buf, cnt, tys, vals, nulls, WRK_INSERT);
}

/* The value of a time attribute (a TIMESTAMP's milliseconds, else the BIGINT itself); 0 for NULL. */
static inline int64_t wop_datum_time(const WType *t, WDatum v, bool isnull)
{
    if (isnull) return 0;
    return wtype_is_timestamp(t) ? v.ts.ms : v.i;
}

/* Order-preserving: big-endian with the sign bit flipped (keys sort by time). */
static inline void wkey_put_time(uint8_t *p, int64_t v)
{
    uint64_t u = (uint64_t)v ^ 0x8000000000000000ull;
    for (int i = 7; i >= 0; i--) { p[i] = (uint8_t)u; u >>= 8; }
}

static inline int64_t wkey_get_time(const uint8_t *p)
{
    uint64_t u = 0;
    for (int i = 0; i < 8; i++) u = (u << 8) | p[i];
    return (int64_t)(u ^ 0x8000000000000000ull);
}

/* Plain big-endian (two's complement as is). */
static inline void wkey_put_be64(uint8_t *p, int64_t v)
{
    uint64_t u = (uint64_t)v;
    for (int i = 7; i >= 0; i--) { p[i] = (uint8_t)u; u >>= 8; }
}

static inline int64_t wkey_get_be64(const uint8_t *p)
{
    uint64_t u = 0;
    for (int i = 0; i < 8; i++) u = (u << 8) | p[i];
    return (int64_t)u;
}

/* A native-order u32 at p (any alignment). */
static inline uint32_t wload_u32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

#endif
