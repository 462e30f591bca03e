/*
 * chunk.h — the unit of data between operators: a changelog chunk.
 *
 * Contract: a WChunk holds up to `cap` rows in columnar vectors (one WVector per column, a WDatum
 * per row plus a null byte per row) and a row-kind byte per row (+I, -U, +U, -D). Variable-length
 * bytes referenced by the datums live in the chunk's arena (or in memory the producer guarantees
 * outlives the chunk, e.g. a source's read buffer until its next call). A consumer that keeps a
 * value beyond the call that delivered the chunk must copy it. Control elements (watermarks,
 * end of input, barriers) travel separately, not in chunks. Depends on types/type.h, value.h.
 */
#ifndef WEIR_TYPES_CHUNK_H
#define WEIR_TYPES_CHUNK_H

#include <stdbool.h>
#include <stdint.h>
#include "type.h"
#include "value.h"

#define WCHUNK_CAP 2048

/* RowKind as Flink numbers it (BinaryRowData header byte). */
typedef enum WRowKind {
    WRK_INSERT = 0,         /* +I */
    WRK_UPDATE_BEFORE = 1,  /* -U */
    WRK_UPDATE_AFTER = 2,   /* +U */
    WRK_DELETE = 3          /* -D */
} WRowKind;

const char *wrowkind_short(WRowKind k);              /* "+I", "-U", "+U", "-D" */
bool wrowkind_is_retract(WRowKind k);                /* -U or -D */
/* Parse "+I"/"-U"/"+U"/"-D" or INSERT/UPDATE_BEFORE/UPDATE_AFTER/DELETE; false if unknown. */
bool wrowkind_parse(const char *s, int len, WRowKind *out);

typedef struct WVector {
    const WType *type;
    WDatum *data;
    uint8_t *nulls;         /* 1 = NULL; one byte per row */
} WVector;

typedef struct WChunk {
    int ncols;
    int nrows;
    int cap;
    const WType **types;    /* ncols column types */
    WVector *cols;
    uint8_t *kinds;         /* WRowKind per row */
    WArena *arena;          /* owns vectors, kinds and variable-length bytes; reset with the chunk */
} WChunk;

/* A chunk with its own arena, for `ncols` columns of the given types, capacity cap rows. */
WChunk *wchunk_new(int ncols, const WType **types, int cap);
void wchunk_free(WChunk *c);
/* Drop all rows and the variable-length bytes (arena reset); the vectors are re-allocated. */
void wchunk_reset(WChunk *c);
/* Append one row slot (returns its index, -1 when full); values must then be filled by the caller. */
int wchunk_add_row(WChunk *c, WRowKind kind);
/* Read ahead the bytes of row r's strings (CHAR/VARCHAR/BINARY/VARBINARY values, their first two
   cache lines): an operator about to copy row r into its state, a few rows ahead (the strings may
   lie anywhere: a generator's pool, a reader's buffer). Nothing for r beyond the chunk. */
void wchunk_prefetch_strings(const WChunk *c, int r);
/* Copy row `row` of src (all columns) to the end of dst, deep-copying variable bytes into dst's arena. */
int wchunk_append_row(WChunk *dst, const WChunk *src, int row);
/* Appends (deep copies) the rows of src with sel[r] != 0 (sel NULL = all), column by column;
   dst must have room. Returns the number of rows appended. */
int wchunk_append_selected(WChunk *dst, const WChunk *src, const uint8_t *sel);
/* Appends src's rows rows[0..n), in that order, column by column; deep: variable bytes and
   composites copied into dst's arena, else dst refers to src's. dst must have room for n rows. */
void wchunk_append_rows(WChunk *dst, const WChunk *src, const int *rows, int n, bool deep);
/* A column of type t refers to bytes outside the chunk's vectors (strings, bytes, composites), which
   a deep copy copies. */
bool wchunk_type_is_deep(const WType *t);
/* Deep-copy a datum of type t into arena a (strings/bytes/composites copied). */
WDatum wdatum_copy(WArena *a, const WType *t, WDatum v);

#endif
