/*
 * lookup_join.h — LookupJoin: each input row is joined with the rows of a dim table whose key
 * columns equal the row's key values, fetched through a WLookupFetcher (the runtime wires a
 * connector's lookup source to it) and optionally kept in a PARTIAL cache (lookup_cache.h).
 * INNER or LEFT; the output row kind is the input row's. Metrics: Flink's lookup cache names
 * (hitCount, missCount, loadCount, numLoadFailures, numCachedRecords). Depends on exec/operator, exec/stateful (WOpSchema).
 */
#ifndef WEIR_EXEC_LOOKUP_JOIN_H
#define WEIR_EXEC_LOOKUP_JOIN_H

#include "operator.h"
#include "stateful.h"
#include "lookup_cache.h"

/* The rows of the dim table for key (nkeys values, never NULL): a chunk of the dim's columns
   valid until the next call; NULL with err set on failure. close frees ctx. */
typedef struct WLookupFetcher {
    const WChunk *(*fetch)(void *ctx, const WDatum *key, WError *err);
    void (*close)(void *ctx);
    void *ctx;
} WLookupFetcher;

typedef struct WLookupJoinSpec {
    bool left_outer;
    int left_ncols;
    const WType **left_types;
    int dim_ncols;
    const WType **dim_types;
    int nkeys;
    const int *left_keys;           /* input columns giving the key values, in the fetcher's order */
    WExpr *residual;                /* over input ++ dim columns, NULL = none */
    bool cache;                     /* PARTIAL cache */
    WLookupCacheSpec cache_spec;
    bool cache_missing_key;         /* an empty result is cached too */
    WLookupFetcher fetcher;         /* owned by the operator from now on (closed with it) */
    WOpSchema out;
} WLookupJoinSpec;

WOperator *wop_lookup_join_new(WExecCtx *ctx, const WLookupJoinSpec *spec);

#endif
