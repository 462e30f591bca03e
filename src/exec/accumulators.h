/*
 * accumulators.h — GroupAggregate's private accumulator library (exec/ internal, not a module
 * contract): create / accumulate / retract / get-value for every WAggKind over WDatum, with the
 * semantics of Flink's built-in aggregate functions (planner DeclarativeAggregateFunctions and
 * runtime *WithRetractAggFunction classes, DistinctAggCodeGen for DISTINCT, the Welford M2
 * rewrite for STDDEV/VAR).
 *
 * State layout: the scalar part of all accumulators of one key is one binary row (types/row.h)
 * with the field types in WAccLayout.ftypes; field 0 is the record count (Flink's COUNT(*) record
 * counter). Integer fields are widened to BIGINT and FLOAT to DOUBLE so that the insert-only fast
 * path can update 8-byte slots in place. Data views live in keyed state of the same backend and
 * TTL (never in private tables): MIN/MAX-with-retraction value->count maps, FIRST/LAST_VALUE
 * value->orders and order->values maps, LISTAGG list/retract lists, COLLECT value->count maps and
 * one value->counts map per DISTINCT argument list (shared by the calls with the same argument:
 * int64 counts per call when retracting, else a bitmask of the calls that saw the value; the key
 * is the values' binary row, written without a buffer for slot values, read and rewritten with
 * one lookup, wmap_ref). All data-view functions act on the backend's current key.
 *
 * May call types/, state/, common/.
 */
#ifndef WEIR_EXEC_ACCUMULATORS_H
#define WEIR_EXEC_ACCUMULATORS_H

#include <stdbool.h>
#include <stdint.h>
#include "../plan/plan.h"
#include "../plan/agg_rules.h"
#include "../state/state.h"
#include "../state/prefetch.h"
#include "../types/chunk.h"
#include "../types/cast.h"
#include "../common/strbuf.h"

/* How a sum is added (width of integer wrap-around, float, double, decimal). */
typedef enum WSumKind { WSK_I8, WSK_I16, WSK_I32, WSK_I64, WSK_FLOAT, WSK_DOUBLE, WSK_DEC } WSumKind;

typedef struct WAccAgg {
    WAggKind kind;
    bool retract;               /* the *WithRetract variant */
    int arg, arg2;              /* input columns (arg2: LISTAGG separator), -1 when none */
    const WType *arg_type;      /* type of arg (NULL for COUNT(*)) */
    const WType *res_type;
    int filter_col;             /* -1 when none */
    int distinct;               /* distinct group, -1 when not DISTINCT */
    int off, nfields;           /* fields of this aggregate in the accumulator row */
    WSumKind sum_kind;          /* SUM/SUM0/AVG arithmetic */
    WState *map1, *map2;        /* data views, see the file comment */
    WState *list1, *list2;
} WAccAgg;

typedef struct WAccDistinct {
    int nargs;
    int args[2];
    const WType *types[2];
    int naggs;
    int *aggs;                  /* aggregate indexes sharing this argument list, in order */
    bool all_filtered;          /* every call has a FILTER: skip rows where none passes */
    bool inline_key;            /* every argument is a slot value (wrow_type_inline): the map key
                                   is written without a buffer (wrow_encode_inline) */
    WState *map;                /* value row -> int64 counts (one per call), or a bitmask */
} WAccDistinct;

/* A COUNT / COUNT(*) aggregate's index and its accumulator field (wacc_get_value). */
typedef struct WAccCount {
    int agg, off;
} WAccCount;

typedef struct WAccLayout {
    bool retract;               /* input may retract */
    int nfields;
    const WType **ftypes;       /* accumulator row field types; [0] = record count BIGINT */
    bool *fcopy;                /* per field: its type has a variable part (decoding copies it) */
    bool *fword;                /* per field: BIGINT or DOUBLE (decoded from its slot word) */
    int naggs;
    WAccAgg *aggs;
    int ndistinct;
    WAccDistinct *distinct;
    bool has_views;             /* any data view state */
    bool value_reads_views;     /* wacc_get_value reads data views (LISTAGG with retraction) */
    int *eq_order;              /* the aggregates in wacc_values_equal's order (integers first) */
    int nplain;                 /* the aggregates without DISTINCT (an accumulate steps through */
    int *plain;                 /* them, and through the DISTINCT groups) */
    int ncounts;                /* COUNT / COUNT(*) aggregates (their result is their field, read */
    WAccCount *counts;          /* without agg_value's switch), and the others (nvalued) */
    int nvalued;
    int *valued;
} WAccLayout;

/* A DISTINCT map's user key of one row (the binary row of its arguments, wrow_encode_inline) and
   its hash (wmap_key_hash), computed once per row by wacc_distinct_keys for both the read-ahead
   and the accumulate. len 0: not computed (the map's key is not inline_key). */
typedef struct WAccKey {
    uint64_t words[3];
    uint64_t hash;
    uint32_t len;
} WAccKey;

/* Working context of one call (scratch memory lives as long as the values computed in it). */
typedef struct WAccCtx {
    const WAccLayout *L;
    WArena *scratch;            /* strings produced by accumulators / read from views */
    WStrBuf kbuf, vbuf, tbuf;   /* encoding buffers */
    int64_t now;                /* processing time (FIRST/LAST_VALUE order) */
    WCastCtx cast;
    WError *err;                /* a failure of the job (SINGLE_VALUE's second row); NULL = none
                                   reported (the caller checks it after each accumulate) */
    int64_t work;               /* data-view entries read (MIN/MAX, FIRST/LAST_VALUE and LISTAGG with
                                   retraction, collections): insight's slow keys; the caller resets it */
    const WAccKey *row_keys;    /* NULL, or the DISTINCT user keys of the row accumulated or
                                   retracted next (L->ndistinct), as wacc_distinct_keys wrote them */
    WMapWhere *row_where;       /* NULL, or where the row's key is in the DISTINCT maps
                                   (prefetch.h WMapWhere; L->ndistinct), kept by the caller per
                                   key: its `top` is the reads' hint (state.h WKeyHint) */
} WAccCtx;

/* Builds the layout and registers the data-view states ("<state_name>$<agg>..." names) in b
   with ttl_ms. Returns NULL with err set for an aggregate it cannot run. */
WAccLayout *wacc_layout_new(const WAggCall *aggs, int naggs, const WType **in_types, bool retract,
                            WStateBackend *b, const char *state_name, int64_t ttl_ms, WError *err);
void wacc_layout_free(WAccLayout *L);

void wacc_ctx_init(WAccCtx *c, const WAccLayout *L, WArena *scratch);
void wacc_ctx_free(WAccCtx *c);

/* Fresh accumulators (Flink createAccumulators). */
void wacc_create(const WAccLayout *L, WDatum *acc, uint8_t *nulls);
/* Accumulate / retract input row `row` (FILTER and DISTINCT applied here). Increments /
   decrements the record count (field 0). */
void wacc_accumulate(WAccCtx *c, WDatum *acc, uint8_t *nulls, const WChunk *in, int row);
void wacc_retract(WAccCtx *c, WDatum *acc, uint8_t *nulls, const WChunk *in, int row);
/* The DISTINCT maps' user keys of in's rows: keys[row * L->ndistinct + d] (row_keys). */
void wacc_distinct_keys(const WAccCtx *c, const WChunk *in, WAccKey *keys);
/* Read-ahead of a row's DISTINCT map entries under key (klen bytes, khash its wstate_key_hash),
   some rows before it is accumulated or retracted (prefetch.h wmap_prefetch; stage as there).
   where: L->ndistinct places of key's maps, kept as wmap_prefetch keeps them; keys: the row's
   L->ndistinct user keys (wacc_distinct_keys). Changes nothing. */
void wacc_prefetch(WAccCtx *c, const void *key, size_t klen, uint64_t khash, WMapWhere *where,
                   const WAccKey *keys, WMapPrefetch stage);
/* Whether wacc_prefetch pays: a DISTINCT map it reads ahead outgrew the CPU caches. */
bool wacc_prefetch_pays(const WAccCtx *c);
/* Aggregate results (one per call, of its result type): a function of the accumulators and,
   with L->value_reads_views, of the current key's data views. */
void wacc_get_value(WAccCtx *c, const WDatum *acc, const uint8_t *nulls, WDatum *vals,
                    uint8_t *vnulls);
/* AVG of a DECIMAL: Flink's DecimalDataUtils.divide(sum, cnt) of a sum at scale s, as
   DECIMAL(38, t); false when the result is NULL (cnt 0, or more than 38 digits). */
bool wacc_dec_avg(__int128 sum, int s, int64_t cnt, int t, __int128 *out);
/* Flink's RecordEqualiser over two result vectors. */
bool wacc_values_equal(const WAccLayout *L, const WDatum *a, const uint8_t *an, const WDatum *b,
                       const uint8_t *bn);
/* Clear every data view of the current key (Flink function.cleanup()). */
void wacc_cleanup(const WAccLayout *L);
/* Clear the data views of the current key except the DISTINCT value maps (additive). */
void wacc_cleanup_values(const WAccLayout *L);

/* ---- partial accumulators (two-phase aggregation; additive) ----
   The partial-accumulator row is described by plan/agg_rules.h (WAggPartial, built for the same
   calls, input types and retract flag as L). Views (MIN/MAX with retraction, DISTINCT value maps)
   of the backend's current key travel as VARBINARY fields: [u32 n] then n times
   [u32 key length][key bytes][u32 value length][value bytes], key = the value's binary row.
   wacc_write_partial writes acc's fields into row `row` of out from column col0 on (without the
   distinct maps when P has none); bytes go to out's arena. */
void wacc_write_partial(WAccCtx *c, const WAggPartial *P, const WDatum *acc, const uint8_t *nulls,
                        WChunk *out, int row, int col0);
/* Merge the partial row `row` of in (columns from col0 on) into acc, as Flink's merge of the
   accumulators: counts and sums add (NULL-aware), MIN/MAX keep the extreme (merging value maps
   when retracting), a DISTINCT call counts each value its map did not hold (or retracts a value
   whose count falls to zero). The record count (field 0) grows by the row's count1 field, or by 1
   when the row has none (insert-only input: never zero). */
void wacc_merge_partial(WAccCtx *c, const WAggPartial *P, WDatum *acc, uint8_t *nulls, const WChunk *in,
                        int row, int col0);

/* ---- accumulator merge (slice-shared windows; additive) ----
   wacc_layout_mergeable: every accumulator of L is scalar and has Flink's merge (COUNT, SUM,
   $SUM0, AVG, MIN/MAX without retraction, LISTAGG without retraction; no DISTINCT, no data view).
   wacc_merge folds accumulator `o` into `acc` as Flink's merge(acc, other) (record counts, counts
   and sums add NULL-aware, MIN/MAX keep the extreme, LISTAGG appends other after the delimiter);
   only for a mergeable layout. Strings it produces live in the context's scratch arena. */
bool wacc_layout_mergeable(const WAccLayout *L);
void wacc_merge(WAccCtx *c, WDatum *acc, uint8_t *nulls, const WDatum *o, const uint8_t *on);

/* Accumulator row <-> datums. Decoding copies variable-length values into scratch. */
void wacc_decode(WAccCtx *c, const void *row, size_t len, WDatum *acc, uint8_t *nulls);
void wacc_encode(WAccCtx *c, const WDatum *acc, const uint8_t *nulls, WStrBuf *out);

#endif
