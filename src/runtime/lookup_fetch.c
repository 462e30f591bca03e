/*
 * lookup_fetch.c — wires a LookupJoin (exec/lookup_join.h) to its dim table's connector: opens
 * the connector's lookup source on the plan's key columns and adapts it to a WLookupFetcher that
 * gives the dim scan's columns (the physical columns it reads, in its order) as a view of the
 * source's rows; the table's cache options become the operator's cache. Part of the runtime's
 * build step (build.c); may call connectors/, exec/, plan/.
 */
#include "job_internal.h"
#include "../exec/lookup_join.h"

#include <stdlib.h>
#include <string.h>

typedef struct Fetch {
    WLookupSource *src;
    int n;                          /* the dim scan's columns */
    int *fields;                    /* their physical column indexes */
    WChunk view;
    WVector *cols;
    const WType **types;
} Fetch;

static const WChunk *fetch(void *ctx, const WDatum *key, WError *err)
{
    Fetch *f = ctx;
    const WChunk *c = f->src->lookup(f->src, key, err);
    if (!c) return NULL;
    f->view = *c;
    f->view.ncols = f->n;
    for (int i = 0; i < f->n; i++) f->cols[i] = c->cols[f->fields[i]];
    f->view.cols = f->cols;
    f->view.types = f->types;
    return &f->view;
}

static void fetch_close(void *ctx)
{
    Fetch *f = ctx;
    f->src->close(f->src);
    free(f->fields);
    free(f->cols);
    free(f->types);
    free(f);
}

bool wjob_lookup_fetcher(const WConnector *c, const WTableSpec *spec, const WRel *r, WLookupJoinSpec *out,
                         WError *err)
{
    const WRel *dim = wrel_join(r)->lookup_scan;
    const WRelScan *ds = wrel_scan(dim);
    if (!c->open_lookup)
        return werr_set(err, WEXC_TABLE, "The '%s' connector of table %s is not a lookup source.", c->name,
                        spec->name);
    if (ds->nmeta)
        return werr_set(err, WEXC_TABLE, "A lookup join cannot read metadata columns of table %s.", spec->name);
    int keys[64];
    for (int k = 0; k < r->nkeys && k < 64; k++) keys[k] = ds->fields[wrel_join(r)->right_keys[k]];
    WLookupSource *src = c->open_lookup(spec, r->nkeys, keys, err);
    if (!src) return false;
    Fetch *f = wcalloc(1, sizeof *f);
    f->src = src;
    f->n = ds->nfields;
    f->fields = wmalloc(sizeof *f->fields * (size_t)(f->n ? f->n : 1));
    memcpy(f->fields, ds->fields, sizeof *f->fields * (size_t)f->n);
    f->cols = wcalloc((size_t)(f->n ? f->n : 1), sizeof *f->cols);
    f->types = wcalloc((size_t)(f->n ? f->n : 1), sizeof *f->types);
    for (int i = 0; i < f->n; i++) f->types[i] = dim->out.types[i];
    out->fetcher = (WLookupFetcher){.fetch = fetch, .close = fetch_close, .ctx = f};
    out->cache = src->cache.partial;
    out->cache_spec = (WLookupCacheSpec){.max_rows = src->cache.max_rows,
                                         .expire_after_write_ms = src->cache.expire_after_write_ms,
                                         .expire_after_access_ms = src->cache.expire_after_access_ms};
    out->cache_missing_key = src->cache.cache_missing_key;
    return true;
}
