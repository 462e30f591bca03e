/*
 * row.h — the binary row format: keys, accumulators and stored rows, identical in every backend.
 *
 * Contract: layout as Flink's BinaryRowData (little-endian): a null-bit region of
 * ((arity + 63 + 8) / 64) * 8 bytes whose byte 0 is the RowKind header and field i's null bit is
 * bit i+8; one 8-byte slot per field; then a variable part of 8-byte-aligned chunks. Strings and
 * bytes of <= 7 bytes live in their slot (0x80|len in the last byte); longer ones in the variable
 * part with (offset << 32 | len) in the slot. DECIMAL p <= 18 and TIMESTAMP p <= 3 are compact
 * (in the slot); larger ones use 16 bytes in the variable part. Composite values are stored in
 * weir's own nested encoding inside the variable part. Because the bytes equal Flink's for the
 * scalar types, wrow_hash gives Flink's BinaryRowData.hashCode and so Flink's key groups.
 * Depends on type, value, common.
 */
#ifndef WEIR_TYPES_ROW_H
#define WEIR_TYPES_ROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "type.h"
#include "value.h"
#include "chunk.h"
#include "../common/strbuf.h"

/* Encode fields (datums + null flags, types given) as a binary row appended to out (cleared
   first). kind is written into the header byte. */
void wrow_encode(WStrBuf *out, int arity, const WType **types, const WDatum *vals,
                 const uint8_t *nulls, WRowKind kind);
/* The same bytes appended to out (from out->len on): rows one after another in one buffer. */
void wrow_encode_append(WStrBuf *out, int arity, const WType **types, const WDatum *vals,
                        const uint8_t *nulls, WRowKind kind);
/* Encode selected columns `cols` of chunk row `row`. */
void wrow_encode_chunk(WStrBuf *out, const WChunk *c, int row, int ncols, const int *cols);
/* Decode field i of a binary row; strings point into the row bytes (copy if the row is freed).
   Returns false when the field is NULL. */
bool wrow_get(const void *row, size_t size, int arity, const WType *t, int i, WDatum *out);
/* Same, decoding composite values (ARRAY/MAP/MULTISET/ROW) into arena `a` (wrow_get leaves
   their cx NULL since it has no memory to build them in). */
bool wrow_get_arena(const void *row, size_t size, int arity, const WType *t, int i, WDatum *out,
                    WArena *a);
/* The bytes of a binary row's null-bit region (its header byte and the null bits). */
static inline size_t wrow_bitset_bytes(int arity) { return (size_t)((arity + 63 + 8) / 64) * 8; }
/* The 8-byte slot word of field i of a binary row of `arity` fields (a BIGINT's value, a DOUBLE's
   bits); false when the field is NULL. Inline: decoders of accumulator rows read every field. */
static inline bool wrow_get_word(const void *row, int arity, int i, uint64_t *out)
{
    const unsigned char *p = row;
    int bit = i + 8;
    if (p[bit >> 3] & (1u << (bit & 7))) return false;
    p += wrow_bitset_bytes(arity) + 8 * (size_t)i;
    uint64_t v = 0;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&v, p, 8);
#else
    for (int b = 7; b >= 0; b--) v = (v << 8) | p[b];
#endif
    *out = v;
    return true;
}
/* Every field of a binary row of `arity` fields (types given) set in row r of chunk c, in columns
   col0 .. col0 + arity - 1, a NULL field zeroed: composites decoded into arena a; with copy every
   value is deep-copied into a (wdatum_copy), else strings point into the row bytes. */
void wrow_decode_chunk(const void *row, size_t size, int arity, const WType **types, WChunk *c, int r,
                       int col0, WArena *a, bool copy);
WRowKind wrow_kind(const void *row);
size_t wrow_fixed_size(int arity);
/* A non-compact DECIMAL's 16 variable-part bytes: wrow_dec_put writes v's minimal big-endian
   two's complement bytes (BigInteger.toByteArray) at dst, zeroes the rest of the 16 and returns
   their count n (1..16; the slot's low 32 bits); wrow_dec_get reads such n bytes back (src must
   have 16 readable bytes, as the variable part reserves). */
int wrow_dec_put(unsigned char *dst, __int128 v);
__int128 wrow_dec_get(const unsigned char *src, int n);
/* Values that live in their 8-byte slot with no variable part, NULL or not: integers, dates and
   times, FLOAT/DOUBLE, DECIMAL p <= 18 and TIMESTAMP p <= 3. wrow_inline_word gives the slot's
   word of a non-NULL such value (the little-endian slot bytes, upper bytes zero). A row of such
   fields only is wrow_fixed_size(arity) bytes; wrow_encode_inline writes it at dst, byte-identical
   to wrow_encode(..., WRK_INSERT) and without a buffer, and returns its size. */
bool wrow_type_inline(const WType *t);
bool wrow_types_inline(int n, const WType **types);    /* every one of the n types */
uint64_t wrow_inline_word(const WType *t, WDatum v);
size_t wrow_encode_inline(unsigned char *dst, int arity, const WType **types, const WDatum *vals,
                          const uint8_t *nulls);
/* wrow_encode_inline of columns cols (of the given types) of chunk row `row`, read in place. */
size_t wrow_encode_chunk_inline(unsigned char *dst, const WChunk *c, int row, int ncols, const int *cols,
                                const WType **types);
/* wrow_encode_chunk_inline of every row r of c at once, row r's words at dst + r * stride (stride
   >= wrow_fixed_size(ncols) / 8 words): a column at a time, its type looked at once, not per row
   (a DISTINCT argument's keys for a whole chunk). */
void wrow_encode_rows_inline(uint64_t *dst, size_t stride, const WChunk *c, int ncols, const int *cols,
                             const WType **types);
/* The same for rows rows[0..n) of c (rows NULL: rows 0..n-1), row rows[i]'s words at dst + i * stride
   (a GROUP BY's keys, one row per key of the chunk). */
void wrow_encode_selected_inline(uint64_t *dst, size_t stride, const WChunk *c, const int *rows, int n,
                                 int ncols, const int *cols, const WType **types);
/* Flink's BinaryRowData.hashCode() (murmur by words, seed 42). */
int32_t wrow_hash(const void *row, size_t size);
/* wrow_hash of wrow_encode_chunk(c, r, ncols, cols) for every row r of c, into out[r]: keys of
   fixed-width columns (integers, dates and times, floating point, compact DECIMAL and TIMESTAMP)
   are hashed from their slot words without building the row; others are encoded into scratch. */
void wrow_hash_rows(const WChunk *c, int ncols, const int *cols, int32_t *out, WStrBuf *scratch);

#endif
