/*
 * row.c — the binary row format (row.h), byte-identical to Flink's BinaryRowData for scalar
 * fields (BinaryRowWriter / AbstractBinaryWriter), so wrow_hash equals BinaryRowData.hashCode.
 *
 * Layout: null bits ((arity + 63 + 8) / 64) * 8 bytes (byte 0 = RowKind, field i = bit i + 8),
 * 8-byte slots, 8-byte aligned variable part. Non-compact DECIMAL (p > 18) reserves 16 zeroed
 * bytes holding the minimal big-endian two's complement unscaled value; non-compact TIMESTAMP
 * (p > 3) reserves 8 bytes of millis with (offset << 32 | nanoOfMilli) in the slot — both also for
 * NULL values, as Flink's null setters do. Composite values (weir's own encoding): the slot holds
 * (offset << 32 | length) of a chunk [int64 n][nested binary row of n slots (2n for MAP)].
 * May call common/ (hash, strbuf, arena).
 */
#include "row.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "../common/hash.h"
#include "../common/check.h"

static size_t bitset_bytes(int arity) { return wrow_bitset_bytes(arity); }

size_t wrow_fixed_size(int arity) { return bitset_bytes(arity) + 8 * (size_t)arity; }

/* The n (1..8) low bytes of v at p, little-endian, and back: one memcpy on a little-endian
   machine (every field of every encoded row goes through these). */
static inline void put_le(unsigned char *p, uint64_t v, int n)
{
    assert(n >= 1 && n <= 8);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(p, &v, (size_t)n);
#else
    for (int i = 0; i < n; i++) { p[i] = (unsigned char)v; v >>= 8; }
#endif
}
static inline uint64_t get_le(const unsigned char *p, int n)
{
    assert(n >= 1 && n <= 8);
    uint64_t v = 0;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&v, p, (size_t)n);
#else
    for (int i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
#endif
    return v;
}

static void zero_append(WStrBuf *out, size_t n)
{
    wsb_reserve(out, n);
    memset(out->buf + out->len, 0, n);
    out->len += n;
    out->buf[out->len] = 0;
}

static size_t round8(size_t n) { return (n + 7) & ~(size_t)7; }

/* Types of the fields of a (possibly nested) row being encoded. */
typedef struct FieldTypes {
    const WType *const *types;   /* per field, or NULL */
    const WType *elem, *key;     /* ARRAY/MULTISET: elem; MAP: key/elem alternate */
} FieldTypes;

static const WType *ftype(const FieldTypes *ft, int i)
{
    if (ft->types) return ft->types[i];
    if (ft->key) return (i % 2 == 0) ? ft->key : ft->elem;
    return ft->elem;
}

static bool is_compact_decimal(const WType *t) { return t->precision <= 18; }
static bool is_compact_ts(const WType *t) { return t->precision <= 3; }

static void encode_row(WStrBuf *out, int arity, const FieldTypes *ft, const WDatum *vals,
                       const uint8_t *nulls, uint8_t header);

/* The 16 big-endian bytes of v (unaligned). */
static void be16_put(unsigned char *b, unsigned __int128 v)
{
    uint64_t hi = __builtin_bswap64((uint64_t)(v >> 64)), lo = __builtin_bswap64((uint64_t)v);
    memcpy(b, &hi, 8);
    memcpy(b + 8, &lo, 8);
}

int wrow_dec_put(unsigned char *dst, __int128 v)
{
    /* bits of the magnitude (of ~v when negative); one more for the sign, rounded up to bytes */
    unsigned __int128 u = v < 0 ? ~(unsigned __int128)v : (unsigned __int128)v;
    uint64_t hi = (uint64_t)(u >> 64), lo = (uint64_t)u;
    int bits = hi ? 128 - __builtin_clzll(hi) : lo ? 64 - __builtin_clzll(lo) : 0;
    int n = bits / 8 + 1;
    if (n > 16) n = 16;
    /* the n low bytes moved to the top: big-endian, they come first and zeros follow */
    be16_put(dst, (unsigned __int128)v << (8 * (16 - n)));
    return n;
}

__int128 wrow_dec_get(const unsigned char *src, int n)
{
    if (n <= 0) return 0;
    if (n > 16) n = 16;
    uint64_t hi, lo;
    memcpy(&hi, src, 8);
    memcpy(&lo, src + 8, 8);
    __int128 v = (__int128)(((unsigned __int128)__builtin_bswap64(hi) << 64) | __builtin_bswap64(lo));
    return v >> (8 * (16 - n));     /* arithmetic: the first n bytes, sign-extended */
}

static void write_field(WStrBuf *out, size_t base, size_t slot, const WType *t, WDatum v, bool is_null)
{
    unsigned char *sp;
#define SLOT() (sp = (unsigned char *)out->buf + base + slot)
    switch (t->id) {
    case WT_DECIMAL:
        if (!is_compact_decimal(t)) {
            size_t off = out->len - base;
            zero_append(out, 16);
            int n = 0;
            if (!is_null) n = wrow_dec_put((unsigned char *)out->buf + base + off, v.dec);
            SLOT();
            put_le(sp, ((uint64_t)off << 32) | (uint32_t)n, 8);
            return;
        }
        break;
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
        if (!is_compact_ts(t)) {
            size_t off = out->len - base;
            zero_append(out, 8);
            if (!is_null) put_le((unsigned char *)out->buf + base + off, (uint64_t)v.ts.ms, 8);
            SLOT();
            put_le(sp, ((uint64_t)off << 32) | (uint32_t)(is_null ? 0 : v.ts.ns), 8);
            return;
        }
        break;
    default: break;
    }
    if (is_null) return;    /* slot stays zero */
    switch (t->id) {
    case WT_NULL: break;
    case WT_BOOLEAN: case WT_TINYINT: SLOT(); put_le(sp, (uint64_t)v.i, 1); break;
    case WT_SMALLINT: SLOT(); put_le(sp, (uint64_t)v.i, 2); break;
    case WT_INT: case WT_DATE: case WT_TIME: case WT_INTERVAL_YM: SLOT(); put_le(sp, (uint64_t)v.i, 4); break;
    case WT_BIGINT: case WT_INTERVAL_DT: SLOT(); put_le(sp, (uint64_t)v.i, 8); break;
    case WT_FLOAT: {
        float f = (float)v.d;
        uint32_t bits;
        memcpy(&bits, &f, 4);
        SLOT(); put_le(sp, bits, 4);
        break;
    }
    case WT_DOUBLE: {
        uint64_t bits;
        memcpy(&bits, &v.d, 8);
        SLOT(); put_le(sp, bits, 8);
        break;
    }
    case WT_DECIMAL: SLOT(); put_le(sp, (uint64_t)(int64_t)v.dec, 8); break;
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: SLOT(); put_le(sp, (uint64_t)v.ts.ms, 8); break;
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY: {
        int len = v.s.len;
        if (len <= 7) {
            SLOT();
            if (len > 0) memcpy(sp, v.s.p, (size_t)len);
            sp[7] = (unsigned char)(0x80 | len);
        } else {
            size_t off = out->len - base, padded = round8((size_t)len);
            wsb_reserve(out, padded);
            unsigned char *d = (unsigned char *)out->buf + out->len;
            memset(d + padded - 8, 0, 8);       /* the padding (len > 7: a whole last word) */
            memcpy(d, v.s.p, (size_t)len);
            out->len += padded;
            out->buf[out->len] = 0;
            SLOT();
            put_le(sp, ((uint64_t)off << 32) | (uint32_t)len, 8);
        }
        break;
    }
    case WT_ARRAY: case WT_MULTISET: case WT_MAP: case WT_ROW: {
        const WComposite *c = v.cx;
        int n = c ? c->n : 0;
        int slots = t->id == WT_MAP ? 2 * n : n;
        if (t->id == WT_ROW && slots > t->nfields) slots = t->nfields;
        size_t off = out->len - base;
        zero_append(out, 8);
        put_le((unsigned char *)out->buf + base + off, (uint64_t)n, 8);
        FieldTypes ft = { NULL, t->elem, NULL };
        if (t->id == WT_ROW) ft.types = t->fields;
        if (t->id == WT_MAP) ft.key = t->key;
        static const WDatum none = { 0 };
        encode_row(out, slots, &ft, c ? c->vals : &none, c ? c->nulls : NULL, 0);
        size_t total = out->len - base - off;
        SLOT();
        put_le(sp, ((uint64_t)off << 32) | (uint32_t)total, 8);
        break;
    }
    default: break;
    }
#undef SLOT
}

static void encode_row(WStrBuf *out, int arity, const FieldTypes *ft, const WDatum *vals,
                       const uint8_t *nulls, uint8_t header)
{
    size_t base = out->len, nb = bitset_bytes(arity);
    zero_append(out, wrow_fixed_size(arity));
    out->buf[base] = (char)header;
    for (int i = 0; i < arity; i++) {
        bool isn = nulls && nulls[i];
        if (isn) {
            int bit = i + 8;
            out->buf[base + (size_t)(bit >> 3)] |= (char)(1u << (bit & 7));
        }
        const WType *t = ftype(ft, i);
        if (t->id == WT_BIGINT) {       /* most accumulator fields (counts, sums): as write_field */
            if (!isn) put_le((unsigned char *)out->buf + base + nb + 8 * (size_t)i, (uint64_t)vals[i].i, 8);
            continue;
        }
        write_field(out, base, nb + 8 * (size_t)i, t, vals[i], isn);
    }
}

void wrow_encode_append(WStrBuf *out, int arity, const WType **types, const WDatum *vals,
                        const uint8_t *nulls, WRowKind kind)
{
    FieldTypes ft = { (const WType *const *)types, NULL, NULL };
    encode_row(out, arity, &ft, vals, nulls, (uint8_t)kind);
}

void wrow_encode(WStrBuf *out, int arity, const WType **types, const WDatum *vals,
                 const uint8_t *nulls, WRowKind kind)
{
    wsb_clear(out);
    wrow_encode_append(out, arity, types, vals, nulls, kind);
}

void wrow_encode_chunk(WStrBuf *out, const WChunk *c, int row, int ncols, const int *cols)
{
    enum { SMALL = 16 };
    const WType *tys_s[SMALL];
    WDatum vals_s[SMALL] = { { 0 } };
    uint8_t nulls_s[SMALL] = { 0 };
    const WType **tys = tys_s;
    WDatum *vals = vals_s;
    uint8_t *nulls = nulls_s;
    if (ncols > SMALL) {
        tys = wmalloc(sizeof *tys * (size_t)ncols);
        vals = wmalloc(sizeof *vals * (size_t)ncols);
        nulls = wmalloc((size_t)ncols);
    }
    for (int k = 0; k < ncols; k++) {
        const WVector *v = &c->cols[cols[k]];
        tys[k] = v->type;
        vals[k] = v->data[row];
        nulls[k] = v->nulls ? v->nulls[row] : 0;
    }
    wrow_encode(out, ncols, tys, vals, nulls, WRK_INSERT);
    if (ncols > SMALL) { free(tys); free(vals); free(nulls); }
}

/* inlined into each reader of a row's fields (one row of many fields: Top-N and join emits) */
static inline __attribute__((always_inline)) bool decode_field(const unsigned char *row, size_t size,
                                                               int arity, const WType *t, int i,
                                                               WDatum *out, WArena *a);

void wrow_decode_chunk(const void *row, size_t size, int arity, const WType **types, WChunk *c, int r,
                       int col0, WArena *a, bool copy)
{
    if (copy && a && size > 0) {
        /* one copy of the whole row in the arena, its values decoded pointing into it: one
           allocation and memcpy per row instead of one per string (Top-N and join emits) */
        void *dup = wa_alloc(a, size);
        memcpy(dup, row, size);
        row = dup;
        copy = false;
    }
    /* each value decoded into its place (NULL: zeroed there by decode_field); decoded into a
       local WDatum and copied, gcc wrote the local in 8-byte parts and read it back in one 16-byte
       load, a store-forwarding stall per field (three quarters of this function's time in
       Nexmark q9's join and Top-N emits) */
    for (int k = 0; k < arity; k++) {
        const WType *t = types[k];
        WVector *col = &c->cols[col0 + k];
        WDatum *d = &col->data[r];
        bool nn = decode_field(row, size, arity, t, k, d, a);    /* a: composites only */
        col->nulls[r] = !nn;
        if (nn && copy) *d = wdatum_copy(a, t, *d);
    }
}

WRowKind wrow_kind(const void *row) { return (WRowKind)((const unsigned char *)row)[0]; }

static __attribute__((noinline)) bool decode_composite(const unsigned char *row, size_t size, const WType *t,
                                                       uint64_t slot, WDatum *out, WArena *a)
{
    size_t off = (size_t)(slot >> 32), len = (uint32_t)slot;
    if (!a || off + len > size || len < 8) { out->cx = NULL; return true; }
    const unsigned char *p = row + off;
    int n = (int)get_le(p, 8);
    int slots = t->id == WT_MAP ? 2 * n : n;
    if (t->id == WT_ROW && slots > t->nfields) slots = t->nfields;
    WComposite *c = WA_NEW(a, WComposite);
    c->n = n;
    c->vals = WA_ARRAY(a, WDatum, slots > 0 ? slots : 1);
    c->nulls = WA_ARRAY(a, uint8_t, slots > 0 ? slots : 1);
    const unsigned char *sub = p + 8;
    size_t subsize = len - 8;
    for (int k = 0; k < slots; k++) {
        const WType *et = t->id == WT_ROW ? t->fields[k] : (t->id == WT_MAP && k % 2 == 0) ? t->key : t->elem;
        c->nulls[k] = !decode_field(sub, subsize, slots, et, k, &c->vals[k], a);
    }
    out->cx = c;
    return true;
}

static inline __attribute__((always_inline)) bool decode_field(const unsigned char *row, size_t size,
                                                               int arity, const WType *t, int i,
                                                               WDatum *out, WArena *a)
{
    int bit = i + 8;
    memset(out, 0, sizeof *out);
    if (row[bit >> 3] & (1u << (bit & 7))) return false;
    const unsigned char *sp = row + bitset_bytes(arity) + 8 * (size_t)i;
    uint64_t slot = get_le(sp, 8);
    switch (t->id) {
    case WT_BOOLEAN: out->i = sp[0] != 0; break;
    case WT_TINYINT: out->i = (int8_t)sp[0]; break;
    case WT_SMALLINT: out->i = (int16_t)get_le(sp, 2); break;
    case WT_INT: case WT_DATE: case WT_TIME: case WT_INTERVAL_YM: out->i = (int32_t)get_le(sp, 4); break;
    case WT_BIGINT: case WT_INTERVAL_DT: out->i = (int64_t)slot; break;
    case WT_FLOAT: {
        uint32_t bits = (uint32_t)get_le(sp, 4);
        float f;
        memcpy(&f, &bits, 4);
        out->d = f;
        break;
    }
    case WT_DOUBLE: memcpy(&out->d, &slot, 8); break;
    case WT_DECIMAL:
        if (is_compact_decimal(t)) out->dec = (int64_t)slot;
        else {
            size_t off = (size_t)(slot >> 32);
            int n = (int)(uint32_t)slot;
            if (off + 16 > size || n > 16) { out->dec = 0; break; }
            out->dec = wrow_dec_get(row + off, n);
        }
        break;
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
        if (is_compact_ts(t)) { out->ts.ms = (int64_t)slot; out->ts.ns = 0; }
        else {
            size_t off = (size_t)(slot >> 32);
            out->ts.ms = off + 8 <= size ? (int64_t)get_le(row + off, 8) : 0;
            out->ts.ns = (int32_t)(uint32_t)slot;
        }
        break;
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
        if (slot & (1ULL << 63)) {
            out->s.len = (int32_t)((slot >> 56) & 0x7F);
            out->s.p = (const char *)sp;
        } else {
            size_t off = (size_t)(slot >> 32);
            int32_t len = (int32_t)(uint32_t)slot;
            if (off + (size_t)len > size) { out->s.p = ""; out->s.len = 0; break; }
            out->s.p = (const char *)row + off;
            out->s.len = len;
        }
        break;
    case WT_ARRAY: case WT_MULTISET: case WT_MAP: case WT_ROW:
        return decode_composite(row, size, t, slot, out, a);
    default: break;
    }
    return true;
}

bool wrow_get(const void *row, size_t size, int arity, const WType *t, int i, WDatum *out)
{
    return decode_field((const unsigned char *)row, size, arity, t, i, out, NULL);
}

bool wrow_get_arena(const void *row, size_t size, int arity, const WType *t, int i, WDatum *out, WArena *a)
{
    return decode_field((const unsigned char *)row, size, arity, t, i, out, a);
}

int32_t wrow_hash(const void *row, size_t size)
{
    return wflink_murmur_words(row, size, 42);
}

/* The bytes of t's value in its slot when it has no variable part (write_field's put_le width),
   0 when it has one or no fixed width. */
static int inline_slot_width(const WType *t)
{
    switch (t->id) {
    case WT_BOOLEAN: case WT_TINYINT: return 1;
    case WT_SMALLINT: return 2;
    case WT_INT: case WT_DATE: case WT_TIME: case WT_INTERVAL_YM: case WT_FLOAT: return 4;
    case WT_BIGINT: case WT_INTERVAL_DT: case WT_DOUBLE: return 8;
    case WT_DECIMAL: return is_compact_decimal(t) ? 8 : 0;
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: return is_compact_ts(t) ? 8 : 0;
    default: return 0;
    }
}

bool wrow_type_inline(const WType *t) { return inline_slot_width(t) > 0; }

bool wrow_types_inline(int n, const WType **types)
{
    for (int i = 0; i < n; i++)
        if (!wrow_type_inline(types[i])) return false;
    return true;
}

/* The slot word of a non-NULL value of type t, whose slot holds width (inline_slot_width) bytes. */
static inline uint64_t inline_word(const WType *t, int width, WDatum v)
{
    uint64_t bits;
    switch (t->id) {
    case WT_FLOAT: { float f = (float)v.d; uint32_t b32; memcpy(&b32, &f, 4); bits = b32; break; }
    case WT_DOUBLE: memcpy(&bits, &v.d, 8); break;
    case WT_DECIMAL: bits = (uint64_t)(int64_t)v.dec; break;
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: bits = (uint64_t)v.ts.ms; break;
    default: bits = (uint64_t)v.i; break;
    }
    return width == 8 ? bits : bits & ((1ULL << (8 * width)) - 1);
}

uint64_t wrow_inline_word(const WType *t, WDatum v)
{
    int width = inline_slot_width(t);
    assert(width > 0);
    return inline_word(t, width, v);
}

/* wrow_encode_inline's row at dst, its field i from vals[i] / nulls[i], or when c is set from
   column cols[i] of chunk row `row` (inlined into both callers, each with its own reads). */
static inline size_t encode_inline(unsigned char *dst, int arity, const WType **types, const WDatum *vals,
                                   const uint8_t *nulls, const WChunk *c, int row, const int *cols)
{
    size_t nb = bitset_bytes(arity), size = wrow_fixed_size(arity);
    /* row kind INSERT (0) in byte 0, then the null bits (one 8-byte store up to 56 fields) */
    if (nb == 8) memset(dst, 0, 8);
    else memset(dst, 0, nb);
    for (int i = 0; i < arity; i++) {
        const WVector *v = c ? &c->cols[cols[i]] : NULL;
        uint64_t w = 0;
        if (v ? v->nulls && v->nulls[row] : nulls && nulls[i]) {
            int bit = i + 8;
            dst[bit >> 3] |= (unsigned char)(1u << (bit & 7));
        } else {
            int width = inline_slot_width(types[i]);
            assert(width > 0);
            w = inline_word(types[i], width, v ? v->data[row] : vals[i]);
        }
        put_le(dst + nb + 8 * (size_t)i, w, 8);
    }
    return size;
}

size_t wrow_encode_inline(unsigned char *dst, int arity, const WType **types, const WDatum *vals,
                          const uint8_t *nulls)
{
    return encode_inline(dst, arity, types, vals, nulls, NULL, 0, NULL);
}

size_t wrow_encode_chunk_inline(unsigned char *dst, const WChunk *c, int row, int ncols, const int *cols,
                                const WType **types)
{
    return encode_inline(dst, ncols, types, NULL, NULL, c, row, cols);
}

/* Column k (vector v) of rows rows[0..n) (NULL: 0..n-1) into their words (wrow_encode_selected_inline);
   inlined twice, with and without the row list. */
static inline __attribute__((always_inline)) void encode_column_words(uint64_t *dst, size_t stride, size_t nbw,
            int k, const WVector *v, const int *rows, int n, bool plain, uint64_t mask, const WType *t,
            int width, int bit)
{
    for (int i = 0; i < n; i++) {
        int r = rows ? rows[i] : i;
        unsigned char *row = (unsigned char *)(dst + (size_t)i * stride);
        uint64_t w = 0;
        if (v->nulls && v->nulls[r]) row[bit >> 3] |= (unsigned char)(1u << (bit & 7));
        else w = plain ? (uint64_t)v->data[r].i & mask : inline_word(t, width, v->data[r]);
        put_le(row + 8 * (nbw + (size_t)k), w, 8);
    }
}

void wrow_encode_selected_inline(uint64_t *dst, size_t stride, const WChunk *c, const int *rows, int n,
                                 int ncols, const int *cols, const WType **types)
{
    size_t nbw = bitset_bytes(ncols) / 8;
    assert(stride >= nbw + (size_t)ncols && n >= 0 && (rows || n <= c->nrows));
    for (int i = 0; rows && i < n; i++) WASSERT_COSTLY(rows[i] >= 0 && rows[i] < c->nrows);
    /* kind INSERT, no nulls: one header word up to 56 columns (a store each, not a memset call) */
    if (nbw == 1) for (int i = 0; i < n; i++) dst[(size_t)i * stride] = 0;
    else for (int i = 0; i < n; i++) memset(dst + (size_t)i * stride, 0, 8 * nbw);
    for (int k = 0; k < ncols; k++) {
        const WVector *v = &c->cols[cols[k]];
        const WType *t = types[k];
        int width = inline_slot_width(t), bit = k + 8;
        assert(width > 0);
        bool plain = t->id != WT_FLOAT && t->id != WT_DOUBLE && t->id != WT_DECIMAL &&
                     t->id != WT_TIMESTAMP && t->id != WT_TIMESTAMP_LTZ;   /* inline_word's default */
        uint64_t mask = width == 8 ? UINT64_MAX : (1ULL << (8 * width)) - 1;
        if (rows) encode_column_words(dst, stride, nbw, k, v, rows, n, plain, mask, t, width, bit);
        else encode_column_words(dst, stride, nbw, k, v, NULL, n, plain, mask, t, width, bit);
    }
}

void wrow_encode_rows_inline(uint64_t *dst, size_t stride, const WChunk *c, int ncols, const int *cols,
                             const WType **types)
{
    wrow_encode_selected_inline(dst, stride, c, NULL, c->nrows, ncols, cols, types);
}

/* Whether two values of type t that hold the same bytes (strings) or the same integer encode to
   the same binary row bytes: strings and the integer-backed types (not floating point, whose
   -0.0 and 0.0 differ in bytes, nor timestamps and decimals, held in more than one word). */
static bool same_bytes_if_equal(const WType *t)
{
    switch (t->id) {
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
    case WT_BOOLEAN: case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
    case WT_DATE: case WT_TIME: case WT_INTERVAL_YM: case WT_INTERVAL_DT:
        return true;
    default:
        return false;
    }
}

/* Rows a and b of c hold the same key (columns cols, types same_bytes_if_equal): same nulls,
   same strings byte for byte, same integers. */
static bool key_bytes_equal(const WChunk *c, int ncols, const int *cols, int a, int b)
{
    for (int k = 0; k < ncols; k++) {
        const WVector *v = &c->cols[cols[k]];
        bool na = v->nulls && v->nulls[a], nb = v->nulls && v->nulls[b];
        if (na != nb) return false;
        if (na) continue;
        WDatum x = v->data[a], y = v->data[b];
        switch (v->type->id) {
        case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
            if (x.s.len != y.s.len || (x.s.p != y.s.p && x.s.len && memcmp(x.s.p, y.s.p, (size_t)x.s.len) != 0))
                return false;
            break;
        default:
            if (x.i != y.i) return false;
        }
    }
    return true;
}

/* The little-endian word of the n bytes at p (n <= 8), zero padded. */
static inline uint64_t tail_word(const char *p, size_t n)
{
    uint64_t w = 0;
    memcpy(&w, p, n);
    return w;
}

/* Key columns wrow_hash_rows hashes from their words (one header word: arity + 8 <= 64). */
enum { HASH_KEY_MAX = 8 };

/* wrow_hash of row r's key (columns cols of c, at most HASH_KEY_MAX, each inline (width[k] > 0) or a string)
   as wrow_encode_chunk writes it, computed without writing the row: the header word, a slot word
   per column, then the bytes of the strings longer than 7 bytes, each padded with zeros to whole
   words (write_field), fed to the murmur hash in that order. */
static int32_t hash_key_strings(const WChunk *c, int r, int ncols, const int *cols, const int *width)
{
    assert(ncols > 0 && ncols <= HASH_KEY_MAX);
    uint64_t slot[HASH_KEY_MAX];
    uint64_t header = 0;            /* row kind INSERT (0) in the first byte, then the null bits */
    size_t var = 8 * (1 + (size_t)ncols);
    for (int k = 0; k < ncols; k++) {
        const WVector *v = &c->cols[cols[k]];
        slot[k] = 0;
        if (v->nulls && v->nulls[r]) {
            header |= (uint64_t)1 << (k + 8);
        } else if (width[k]) {
            slot[k] = inline_word(v->type, width[k], v->data[r]);
        } else {
            WStr str = v->data[r].s;
            size_t n = (size_t)str.len;
            if (n <= 7) {
                slot[k] = (n ? tail_word(str.p, n) : 0) | (uint64_t)(0x80 | n) << 56;
            } else {
                slot[k] = ((uint64_t)var << 32) | (uint32_t)n;
                var += round8(n);
            }
        }
    }
    uint32_t h = wflink_murmur_add_u64(42, header);
    for (int k = 0; k < ncols; k++) h = wflink_murmur_add_u64(h, slot[k]);
    for (int k = 0; k < ncols; k++) {
        const WVector *v = &c->cols[cols[k]];
        if (width[k] || (v->nulls && v->nulls[r]) || v->data[r].s.len <= 7) continue;
        const char *p = v->data[r].s.p;
        size_t n = (size_t)v->data[r].s.len, i = 0;
        for (; i + 8 <= n; i += 8) {
            uint64_t w;
            memcpy(&w, p + i, 8);
            h = wflink_murmur_add_u64(h, w);
        }
        if (i < n) {                /* the last bytes, as the low bytes of the word ending at p + n */
            uint64_t w;
            memcpy(&w, p + n - 8, 8);
            h = wflink_murmur_add_u64(h, w >> (8 * (8 - (n - i))));
        }
    }
    return wflink_murmur_end(h, var);
}

#ifdef WEIR_TEST_BUILD
/* h is wrow_hash of wrow_encode_chunk's key row for row r (hash_key_strings' invariant). */
static bool hash_of_encoded(const WChunk *c, int r, int ncols, const int *cols, int32_t h)
{
    WStrBuf want;
    wsb_init(&want);
    wrow_encode_chunk(&want, c, r, ncols, cols);
    bool same = wrow_hash(want.buf, want.len) == h;
    wsb_free(&want);
    return same;
}
#endif

void wrow_hash_rows(const WChunk *c, int ncols, const int *cols, int32_t *out, WStrBuf *scratch)
{
    int width[HASH_KEY_MAX];
    /* the words below are the row's bytes on a little-endian machine only */
    bool words = ncols > 0 && ncols <= HASH_KEY_MAX && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
    bool fixed = words, strings = words;
    for (int k = 0; words && k < ncols; k++) {
        const WType *t = c->cols[cols[k]].type;
        width[k] = inline_slot_width(t);
        fixed = fixed && width[k] > 0;
        strings = strings && (width[k] > 0 || wtype_is_string(t) || wtype_is_binary(t));
    }
    if (!fixed) {
        /* a row whose key encodes to the previous row's bytes has its hash (runs of one key are
           common in an exchange: Nexmark q15's one day, a sorted input) */
        bool reuse = ncols > 0;
        for (int k = 0; reuse && k < ncols; k++) reuse = same_bytes_if_equal(c->cols[cols[k]].type);
        for (int r = 0; r < c->nrows; r++) {
            if (reuse && r > 0 && key_bytes_equal(c, ncols, cols, r, r - 1)) {
                out[r] = out[r - 1];
                continue;
            }
            /* keys of strings and inline values (Nexmark q16's channel and day) are hashed as
               their row would be, without writing it; others through the datums
               (wrow_encode_chunk) */
            if (strings) {
                out[r] = hash_key_strings(c, r, ncols, cols, width);
                WASSERT_COSTLY(hash_of_encoded(c, r, ncols, cols, out[r]));
                continue;
            }
            wrow_encode_chunk(scratch, c, r, ncols, cols);
            out[r] = wrow_hash(scratch->buf, scratch->len);
        }
        return;
    }
    assert(bitset_bytes(ncols) == 8);
    /* the rows' words side by side in scratch, then hashed in one call */
    size_t nw = 1 + (size_t)ncols;
    wsb_clear(scratch);
    wsb_reserve(scratch, sizeof(uint64_t) * nw * (size_t)(c->nrows ? c->nrows : 1));
    uint64_t *all = (uint64_t *)(void *)scratch->buf;
    assert(((uintptr_t)all & 7) == 0);
    const WType *types[HASH_KEY_MAX];
    for (int k = 0; k < ncols; k++) types[k] = c->cols[cols[k]].type;
    wrow_encode_rows_inline(all, nw, c, ncols, cols, types);    /* a column at a time */
    wflink_murmur_rows(all, (int)nw, c->nrows, 42, out);
}
