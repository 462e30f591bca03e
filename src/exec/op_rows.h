/*
 * op_rows.h — the small pieces every operator needs around its rows: appending to its output
 * chunk (emitted first when full) and emitting what it holds, a time attribute's value, and the
 * 8-byte big-endian encodings of times and counters inside state keys and values (the
 * order-preserving one flips the sign bit, so that byte order is time order). Static inline:
 * one definition for every operator instead of a copy in each. Depends on operator.h.
 */
#ifndef WEIR_EXEC_OP_ROWS_H
#define WEIR_EXEC_OP_ROWS_H

#include "operator.h"

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
