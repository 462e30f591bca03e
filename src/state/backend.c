/*
 * backend.c — the keyed-state API of state.h over any state backend: the backend and state
 * objects (registration, the current key, restored states, statistics, errors) and the dispatch
 * of every value / map / list call through the table of operations of the state's backend
 * (backend_internal.h: WStateOps; heap_backend.c and rocksdb_backend.c implement it). Nothing
 * here knows a backend's own fields; a table missing an operation is refused when the backend
 * is created (an assert), not at a user's query. Depends on common/ and the state headers.
 */
#include "backend_internal.h"
#include "../common/proc_clock.h"
#include "../common/hash.h"
#include "prefetch.h"

#include <assert.h>
#include "../common/check.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- backend objects ---- */

static int64_t wall_ms(void *ctx)
{
    (void)ctx;
    return wproc_wall_ms();
}

/* Every operation a backend must have; the optional ones (snapshot_incremental, local_dir,
   restore_raw, refresh_stats, snapshot_prepare, map_ref with map_ref_put and map_ref_remove,
   value_load) may be NULL. */
static bool ops_complete(const WStateOps *o)
{
    return o->class_name && o->free_backend && o->add_state && o->adopt_ttl && o->order_freed && o->kind_changed && o->key_set &&
           o->failed && o->compact && o->value_get && o->value_put && o->clear && o->value_ref &&
           o->value_ref_reserve && o->value_ref_commit && o->value_ref_clear && o->map_get && o->map_put &&
           o->map_remove && o->map_size && o->map_iter && o->map_next && o->map_iter_remove && o->list_add &&
           o->list_get && o->list_remove_at && o->for_each && o->scan_key_bytes && o->prefetch_slot &&
           o->prefetch_entry && o->map_prefetch && o->outgrows_cache && o->map_outgrows_cache && o->snapshot_state && o->restore_value && o->restore_map && o->restore_list;
}

WStateBackend *wstate_backend_new(const WStateBackendConfig *cfg, const WStateOps *ops)
{
    assert(cfg && ops && ops_complete(ops));
    WStateBackend *b = wcalloc(1, sizeof *b);
    b->ops = ops;
    b->cfg = *cfg;
    if (!b->cfg.clock) b->cfg.clock = wall_ms;
    if (b->cfg.max_parallelism <= 0) b->cfg.max_parallelism = 128;
    return b;
}

int64_t wstate_now(const WStateBackend *b) { return b->cfg.clock(b->cfg.clock_ctx); }

void wstate_backend_free(WStateBackend *b)
{
    if (!b) return;
    b->ops->free_backend(b);
    for (int i = 0; i < b->nstates; i++) {
        free(b->states[i]->name);
        free(b->states[i]);
    }
    free(b->states);
    free(b->key);
    free(b->mismatch);
    free(b);
}

static const char *kind_name(WStateKind k)
{
    return k == WSTATE_MAP ? "MAP" : k == WSTATE_LIST ? "LIST" : "VALUE";
}

/* The operator registers a restored state with another kind: the restored entries cannot be
   used. The backend drops them or fails (kind_changed); either way the error is sticky. */
static void restore_mismatch(WStateBackend *b, WState *s, WStateKind kind)
{
    char msg[1024];
    snprintf(msg, sizeof msg,
             "The restored state '%s' of operator %s is %s state, but the operator registers it as %s "
             "state; the query changed incompatibly since the snapshot.",
             s->name, b->cfg.operator_name ? b->cfg.operator_name : "?", kind_name(s->kind), kind_name(kind));
    if (!b->mismatch) b->mismatch = wstrdup(msg);
    b->ops->kind_changed(s, kind, msg);
}

WState *wstate_register(WStateBackend *b, const char *name, WStateKind kind, int64_t ttl_ms)
{
    for (int i = 0; i < b->nstates; i++)
        if (strcmp(b->states[i]->name, name) == 0) {
            WState *f = b->states[i];
            if (f->from_restore) {          /* restored before the operator registered it */
                f->from_restore = false;
                f->ttl = ttl_ms;
                b->ops->adopt_ttl(f, ttl_ms);
                if (f->kind != kind) restore_mismatch(b, f, kind);
            }
            return f;
        }
    WState *s = wcalloc(1, sizeof *s);
    s->ops = b->ops;
    s->b = b;
    s->name = wstrdup(name);
    s->kind = kind;
    s->ttl = ttl_ms;
    b->states = wrealloc(b->states, sizeof(WState *) * (size_t)(b->nstates + 1));
    b->states[b->nstates++] = s;
    b->ops->add_state(s);
    return s;
}

WState *wstate_restore_state(WStateBackend *b, const char *name, WStateKind kind, int64_t ttl,
                             WError *err)
{
    for (int i = 0; i < b->nstates; i++) {
        WState *s = b->states[i];
        if (strcmp(s->name, name) != 0) continue;
        if (s->kind != kind) {
            werr_set(err, "org.apache.flink.util.StateMigrationException",
                     "The snapshot holds state '%s' of operator %s as %s state, but the operator "
                     "registers it as %s state; the query changed incompatibly since the snapshot.",
                     name, b->cfg.operator_name ? b->cfg.operator_name : "?", kind_name(kind),
                     kind_name(s->kind));
            return NULL;
        }
        return s;
    }
    WState *s = wstate_register(b, name, kind, ttl);
    s->from_restore = true;
    return s;
}

/* ---- the current key ---- */

static void copy_key(WStateBackend *b, const void *key, size_t len)
{
    if (len > b->kcap) {
        b->kcap = len * 2 + 16;
        b->key = wrealloc(b->key, b->kcap);
    }
    memcpy(b->key, key, len);
    b->klen = len;
}

void wstate_set_key(WStateBackend *b, const void *key, size_t len)
{
    copy_key(b, key, len);
    b->ops->key_set(b, key, len, false, 0);
}

void wstate_set_key_hashed(WStateBackend *b, const void *key, size_t len, uint64_t hash)
{
    WASSERT_COSTLY(hash == wstate_key_hash(key, len));     /* a second hash of every key */
    copy_key(b, key, len);
    b->ops->key_set(b, key, len, true, hash);
}

uint64_t wstate_key_hash(const void *key, size_t len) { return whash_bytes(key, len, WSTATE_KEY_SEED); }

WBytes wstate_current_key(const WStateBackend *b) { return (WBytes){b->key, b->klen}; }

int wstate_current_key_group(const WStateBackend *b)
{
    WStateBackend *m = (WStateBackend *)b;
    if (m->key_group < 0)
        m->key_group = wstate_key_group_ns(b->key, b->klen, b->ns_bytes, b->cfg.max_parallelism);
    return m->key_group;
}

void wstate_set_namespace_bytes(WStateBackend *b, size_t ns_bytes) { b->ns_bytes = ns_bytes; }

int wstate_key_group_ns(const void *key, size_t len, size_t ns_bytes, int max_parallelism)
{
    return wstate_key_group_of(key, len > ns_bytes ? len - ns_bytes : 0, max_parallelism);
}

int wstate_key_group_of(const void *key, size_t len, int max_parallelism)
{
    return wflink_key_group(wflink_murmur_words(key, len - len % 4, 42), max_parallelism);
}

/* ---- value, map, list: dispatched to the backend ---- */

WStateLookup wvalue_get(WState *s, WBytes *out) { return s->ops->value_get(s, out); }
void wvalue_put(WState *s, const void *v, size_t len) { s->ops->value_put(s, v, len); }
void wvalue_clear(WState *s) { s->ops->clear(s); }

WStateLookup wvalue_ref(WState *s, WValueRef *r)
{
    assert(s->kind == WSTATE_VALUE);
    r->s = s;
    r->p = NULL;
    r->len = 0;
    r->cur = (WBytes){NULL, 0};
    return s->ops->value_ref(s, r);
}

void *wvalue_ref_reserve(WValueRef *r, size_t len) { return r->s->ops->value_ref_reserve(r, len); }

void wvalue_ref_commit(WValueRef *r)
{
    assert(r->p);
    r->s->ops->value_ref_commit(r);
}

void wvalue_ref_put(WValueRef *r, const void *v, size_t len)
{
    void *p = wvalue_ref_reserve(r, len);
    if (len) memcpy(p, v, len);
    wvalue_ref_commit(r);
}

void wvalue_ref_clear(WValueRef *r)
{
    r->p = NULL;
    r->s->ops->value_ref_clear(r);
}

WStateLookup wmap_get(WState *s, const void *uk, size_t uklen, WBytes *out)
{
    return s->ops->map_get(s, uk, uklen, out);
}

void wmap_put(WState *s, const void *uk, size_t uklen, const void *uv, size_t uvlen)
{
    s->ops->map_put(s, uk, uklen, uv, uvlen);
}

static WStateLookup map_ref(WState *s, WMapRef *r)
{
    assert(s->kind == WSTATE_MAP);
    assert((s->ops->map_ref == NULL) == (s->ops->map_ref_put == NULL));
    assert((s->ops->map_ref == NULL) == (s->ops->map_ref_remove == NULL));
    WASSERT_COSTLY(!r->hashed || r->hash == wmap_key_hash(r->uk, r->uklen));
    r->how = s->ops->map_ref ? s->ops->map_ref(s, r) : s->ops->map_get(s, r->uk, r->uklen, &r->cur);
    return r->how;
}

WStateLookup wmap_ref(WState *s, const void *uk, size_t uklen, WMapRef *r)
{
    *r = (WMapRef){.s = s, .uk = uk, .uklen = uklen, .tslot = SIZE_MAX, .slot = SIZE_MAX, .key_entries = -1};
    return map_ref(s, r);
}

WStateLookup wmap_ref_hashed(WState *s, const void *uk, size_t uklen, uint64_t ukhash, WMapRef *r)
{
    *r = (WMapRef){.s = s, .uk = uk, .uklen = uklen, .hash = ukhash, .hashed = true,
                   .tslot = SIZE_MAX, .slot = SIZE_MAX, .key_entries = -1};
    return map_ref(s, r);
}

WStateLookup wmap_ref_hinted(WState *s, const void *uk, size_t uklen, uint64_t ukhash, WKeyHint *hint, WMapRef *r)
{
    *r = (WMapRef){.s = s, .uk = uk, .uklen = uklen, .hash = ukhash, .hashed = ukhash != 0, .hint = hint,
                   .tslot = SIZE_MAX, .slot = SIZE_MAX, .key_entries = -1};
    return map_ref(s, r);
}

uint64_t wmap_key_hash(const void *uk, size_t uklen) { return whash_bytes_wide(uk, uklen, WSTATE_KEY_SEED); }

void wmap_set_order_free(WState *s)
{
    assert(s->kind == WSTATE_MAP);
    if (s->order_free) return;
    s->order_free = true;
    s->ops->order_freed(s);
}

void wmap_ref_put(WMapRef *r, const void *v, size_t len)
{
    if (r->s->ops->map_ref_put) r->s->ops->map_ref_put(r, v, len);
    else r->s->ops->map_put(r->s, r->uk, r->uklen, v, len);
}

void wmap_ref_remove(WMapRef *r)
{
    if (r->s->ops->map_ref_remove) r->s->ops->map_ref_remove(r);
    else r->s->ops->map_remove(r->s, r->uk, r->uklen);
}

void wmap_remove(WState *s, const void *uk, size_t uklen) { s->ops->map_remove(s, uk, uklen); }

bool wstate_outgrows_cache(const WState *s) { return s->ops->outgrows_cache(s); }
bool wmap_outgrows_cache(const WState *s, double entries_per_lookup) { return s->ops->map_outgrows_cache(s, entries_per_lookup); }

void wmap_prefetch(WState *s, const void *key, size_t klen, uint64_t khash, WMapWhere *where,
                   uint64_t ukhash, WMapPrefetch stage)
{
    assert(s->kind == WSTATE_MAP);
    s->ops->map_prefetch(s, key, klen, khash, where, ukhash, stage);
}
size_t wmap_size(WState *s) { return s->ops->map_size(s, false); }
bool wmap_is_empty(WState *s) { return s->ops->map_size(s, true) == 0; }
void wmap_clear(WState *s) { s->ops->clear(s); }
void wmap_iter(WState *s, WMapIter *it) { s->ops->map_iter(s, it); }

bool wmap_next(WMapIter *it, WBytes *uk, WBytes *uv)
{
    return it->s && it->s->ops->map_next(it, uk, uv);
}

void wmap_iter_remove(WMapIter *it)
{
    if (it->s) it->s->ops->map_iter_remove(it);
}

void wlist_add(WState *s, const void *v, size_t len) { s->ops->list_add(s, v, len); }

int wlist_get(WState *s, const WBytes **items, WStateLookup *how) { return s->ops->list_get(s, items, how); }

void wlist_remove_at(WState *s, int index) { s->ops->list_remove_at(s, index); }
void wlist_clear(WState *s) { s->ops->clear(s); }

void wstate_for_each(WState *s, WStateKeyFn fn, void *ctx) { s->ops->for_each(s, fn, ctx); }

void wstate_prefetch_slot(const WState *s, uint64_t hash) { s->ops->prefetch_slot(s, hash); }
void wstate_prefetch_entry(const WState *s, uint64_t hash) { s->ops->prefetch_entry(s, hash); }
bool wstate_loads_values(const WState *s) { return s->ops->value_load != NULL; }

void wstate_load_values(WState *s, const WBytes *keys, const uint64_t *hashes, int n)
{
    assert(s->kind == WSTATE_VALUE);
    if (s->ops->value_load && n > 0) s->ops->value_load(s, keys, hashes, n);
}

/* ---- whole backend ---- */

bool wstate_scan_key_bytes(WStateBackend *b, WStateScanCursor *cursor, int64_t *budget, WStateKeyBytesFn fn, void *ctx)
{
    while (*budget > 0 && cursor->state < b->nstates) {
        WState *s = b->states[cursor->state];
        if (b->ops->scan_key_bytes(s, &cursor->slot, budget, fn, ctx)) cursor->state++;
    }
    if (cursor->state < b->nstates) return false;
    *cursor = (WStateScanCursor){0, 0};
    return true;
}

int wstate_stats(const WStateBackend *b, WStateStats *out, int max)
{
    int n = 0;
    for (int i = 0; i < b->nstates && n < max; i++, n++) {
        WState *s = b->states[i];
        if (b->ops->refresh_stats) b->ops->refresh_stats(s);
        /* a backend that does not count creations and expiries: -1 (insight falls back to net
           growth) */
        bool g = b->ops->counts_growth;
        out[n] = (WStateStats){s->name, s->kind, s->ttl, s->entries, s->bytes, s->expired_reads,
                               g ? s->created : -1, g ? s->expired : -1};
    }
    return n;
}

WStateBackendType wstate_backend_type(const WStateBackend *b) { return b->ops->type; }
const char *wstate_backend_name(const WStateBackend *b) { return b->ops->class_name; }
int wstate_max_parallelism(const WStateBackend *b) { return b->cfg.max_parallelism; }

bool wstate_backend_failed(const WStateBackend *b, WError *err)
{
    if (b->mismatch) {
        werr_set(err, "org.apache.flink.util.StateMigrationException", "%s", b->mismatch);
        return true;
    }
    return b->ops->failed(b, err);
}

void wstate_compact(WStateBackend *b) { b->ops->compact(b); }

const WStateBackendConfig *wstate_config(const WStateBackend *b) { return &b->cfg; }
int wstate_count(const WStateBackend *b) { return b->nstates; }

WStateStats *wstate_stats_all(const WStateBackend *b, int *n)
{
    int cap = b ? b->nstates : 0;
    WStateStats *st = wmalloc(sizeof *st * (size_t)(cap ? cap : 1));
    *n = b ? wstate_stats(b, st, cap) : 0;
    assert(*n == cap);
    return st;
}
WState *wstate_at(const WStateBackend *b, int i) { return b->states[i]; }
const char *wstate_name(const WState *s) { return s->name; }
WStateKind wstate_kind(const WState *s) { return s->kind; }
int64_t wstate_ttl(const WState *s) { return s->ttl; }
