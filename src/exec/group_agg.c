/*
 * group_agg.c — the GroupAggregate operator (Flink GroupAggFunction), see stateful.h.
 *
 * Per record, exactly as Flink: read the key's accumulators (state `groupAggregateState`, TTL
 * spec->ttl_ms); a retraction for a key without state (never seen, cleared or expired) is dropped;
 * otherwise accumulate (+I/+U) or retract (-U/-D), then emit +I for the key's first row,
 * -U(old)/+U(new) for a changed result (-U only with generate_update_before; an unchanged result
 * is emitted again only when TTL is enabled), and -D(old) plus clearing all state when the record
 * count reaches 0.
 *
 * Execution is a chunk at a time: the chunk's rows are grouped by key in a per-call table (never
 * kept across calls), each key's accumulator row is read from state once, updated in input order
 * (emitting in input order), and written back before process() returns; a key's results after a
 * row are kept as the previous results of its next row in the chunk (unless they read data views).
 * Without TTL, the general path keeps the accumulators of the keys it aggregated last decoded
 * between chunks (acc_cache.h, at most ACC_CACHE_MAX keys): a key found there is neither read
 * from state nor decoded, and its accumulators reach state when they are flushed — before the
 * lane's state is snapshotted (pre_snapshot), at the end of the input, and when the cache empties
 * (every key is in state from its first chunk on; a cached key's bytes there may lag).
 * Data views (map/list state used by MIN/MAX with retraction, DISTINCT, FIRST/LAST_VALUE, LISTAGG)
 * are read and written per record under the record's key. Insert-only COUNT/SUM/SUM0/MIN/MAX/AVG over integers,
 * doubles and DECIMALs take a fast path that updates the accumulator row in place, in the state
 * entry itself (one lookup per key and chunk, wvalue_ref): 8-byte slots, and a DECIMAL(38, s) sum
 * decoded once per key and chunk from its 16 variable-part bytes and written back in the same
 * format (the state format is the general path's, so either path reads the other's state). The
 * keys' hashes are computed once and each lookup's table slot and entry prefetched a few keys
 * ahead (state/prefetch.h).
 *
 * Metrics: `<state>.entries=N <state>.bytes=N ttlExpiredRecords=N` (bytes include the data views),
 * plus `droppedRetractions=N` when retractions for absent keys were dropped.
 * May call exec/operator.h, exec/accumulators.h, state/, types/, common/.
 */
#include "stateful.h"
#include "accumulators.h"
#include "insight.h"
#include "../types/row.h"
#include "../types/compare.h"
#include "../common/hash.h"
#include "../common/check.h"
#include "chunk_groups.h"
#include "acc_cache.h"
#include "../state/prefetch.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fast path reads and writes the 8-byte little-endian slots of binary rows directly. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "group_agg.c assumes a little-endian host (binary row slots are little-endian)"
#endif

/* ------------------------------------------------------------------ types */

typedef struct Slot {
    uint64_t hash;              /* KM_ENCODED: the state's hash of the key (wstate_key_hash) */
    uint64_t shash;             /* the state's hash of the key, once loaded */
    int first_row;              /* a row of the current chunk holding this key */
    uint32_t koff, klen;        /* encoded key in GroupAgg.keys */
    bool present;               /* accumulators exist */
    bool expired;               /* state had expired: the next record is counted */
    bool dirty;
    WDatum *acc;                /* general path */
    uint8_t *nulls;
    /* general path: the results of acc after the key's last row in this chunk (NULL before it),
       its next row's previous results */
    WDatum *vals;
    uint8_t *vn;
    WDatum *spare;              /* general path: a second buffer of results, swapped with vals */
    uint8_t *spare_n;
    WAccCached *cached;         /* general path: the key's entry in GroupAgg.cache (acc, nulls are its) */
    int last_row;               /* fast path: last row of this key seen in the chunk */
    int nrows;                  /* fast path: rows of this key in the chunk */
} Slot;

/* Fast-path aggregate. */
typedef enum FOp { F_COUNT_STAR, F_COUNT, F_SUM, F_SUM0, F_MIN, F_MAX, F_AVG } FOp;
typedef struct FAgg {
    FOp op;
    bool dbl;                   /* DOUBLE argument (else integer) */
    bool dec;                   /* DECIMAL argument of SUM/SUM0/AVG/MIN/MAX (field f a DECIMAL) */
    int voff;                   /* dec: byte offset of field f's 16 variable-part bytes when it is
                                   not compact (p > 18), else -1 */
    int ascale, rscale;         /* dec AVG: scales of the sum (the argument's) and of the result */
    int arg, filter;
    int f;                      /* first accumulator field */
    int wrap;                   /* shift wrapping integer results to the result type */
} FAgg;

typedef enum KeyMode { KM_DATUM, KM_INT1, KM_ENCODED } KeyMode;

typedef struct GroupAgg {
    WOperator base;
    int nkeys;
    int *keys;
    const WType **in_types;
    int naggs;
    bool input_retracts, gen_ub;
    int64_t ttl_ms;
    char *state_name;

    WStateBackend *backend;
    WState *acc_state;
    WAccLayout *L;
    WAccCtx ac;
    WArena scratch;

    bool fast;
    FAgg *fa;
    size_t acc_len;             /* fast path accumulator row size */
    size_t hdr;                 /* null-bit region size */
    unsigned char *tmpl;        /* fresh accumulator row */
    bool always_changes;        /* a COUNT(*) without FILTER: every row changes the result */
    int32_t *order, *prev_row;  /* per-call buffers of the fast path */
    uint8_t *first;
    WDatum *vals_buf, *init;
    uint8_t *vn_buf, *initn;
    int order_cap, prev_cap, first_cap, vals_cap, vn_cap, init_cap, initn_cap;

    /* general path, without TTL: the accumulators of the keys last aggregated, kept decoded
       between chunks (acc_cache.h); a key found there is neither read from state nor decoded, and
       its accumulators are written back only when flushed (cache_flush) */
    bool cache_on;
    WAccCache cache;
    bool cache_full;                    /* full: its finds are counted (cache_end_chunk) */
    int64_t cache_lookups, cache_hits;

    KeyMode kmode;
    bool key_fixed;             /* every key column has a fixed-width slot */
    const WType **ktypes;

    /* per-call scratch */
    WChunkGroups cg;            /* table, each row's slot, encoded keys of the chunk's slots */
    Slot *slots;                /* = cg.groups */
    WStrBuf tmp;
    WChunk *out;
    WDatum *prev, *cur;
    uint8_t *prevn, *curn;

    int64_t ttl_expired, dropped;
    bool empty_input_row;           /* spec: one row of empty values when no row came (batch) */
} GroupAgg;

/* ------------------------------------------------------------------ keys */

static uint64_t fbits(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static uint64_t ffbits(double d) { float f = (float)d; uint32_t b; memcpy(&b, &f, 4); return b; }

static uint64_t hash_key_datum(const GroupAgg *g, const WChunk *in, int r)
{
    uint64_t h = 0x243f6a8885a308d3ULL;
    for (int k = 0; k < g->nkeys; k++) {
        const WVector *v = &in->cols[g->keys[k]];
        if (v->nulls[r]) { h = whash_combine(h, 0x6e756c6cULL); continue; }
        WDatum d = v->data[r];
        const WType *t = g->ktypes[k];
        switch (t->id) {
        case WT_FLOAT: h = whash_combine(h, ffbits(d.d)); break;
        case WT_DOUBLE: h = whash_combine(h, fbits(d.d)); break;
        case WT_DECIMAL:
            h = whash_combine(h, (uint64_t)(int64_t)d.dec);
            if (t->precision > 18) h = whash_combine(h, (uint64_t)(d.dec >> 64));
            break;
        case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
            h = whash_combine(h, (uint64_t)d.ts.ms);
            if (t->precision > 3) h = whash_combine(h, (uint64_t)d.ts.ns);
            break;
        case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
            h = whash_combine(h, whash_bytes(d.s.p, (size_t)d.s.len, 7));
            break;
        default:
            h = whash_combine(h, (uint64_t)d.i);
            break;
        }
    }
    return h;
}

/* Key values x and y of type t are the same key (as hash_key_datum hashes them). */
static bool key_value_equal(const WType *t, WDatum x, WDatum y)
{
    switch (t->id) {
    case WT_FLOAT: return ffbits(x.d) == ffbits(y.d);
    case WT_DOUBLE: return fbits(x.d) == fbits(y.d);
    case WT_DECIMAL: return x.dec == y.dec;
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
        return x.ts.ms == y.ts.ms && (t->precision <= 3 || x.ts.ns == y.ts.ns);
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
        return x.s.len == y.s.len && (!x.s.len || memcmp(x.s.p, y.s.p, (size_t)x.s.len) == 0);
    default:
        return x.i == y.i;
    }
}

static bool same_key_datum(const GroupAgg *g, const WChunk *in, int a, int b)
{
    for (int k = 0; k < g->nkeys; k++) {
        const WVector *v = &in->cols[g->keys[k]];
        if (v->nulls[a] != v->nulls[b]) return false;
        if (!v->nulls[a] && !key_value_equal(g->ktypes[k], v->data[a], v->data[b])) return false;
    }
    return true;
}

/* ------------------------------------------------------------------ per-call table */

static void table_prepare(GroupAgg *g, int nrows) { g->slots = wcg_prepare(&g->cg, nrows); }

static void set_slot_key(GroupAgg *g, const Slot *s)
{
    wstate_set_key_hashed(g->backend, g->cg.kbytes.buf + s->koff, s->klen, s->shash);
}

/* Key bytes of row r (the binary row of the key columns) and their state hash
   (wstate_key_hash). Fixed-width key columns are written slot by slot (wrow_encode_chunk_inline,
   byte-identical to wrow_encode_chunk, which handles everything else) and hashed from the words
   written. */
static uint64_t encode_key(GroupAgg *g, const WChunk *in, int r, WStrBuf *out)
{
    if (!g->key_fixed) {
        wrow_encode_chunk(out, in, r, g->nkeys, g->keys);
        return wstate_key_hash(out->buf, out->len);
    }
    wsb_clear(out);
    wsb_reserve(out, wrow_fixed_size(g->nkeys));
    out->len = wrow_encode_chunk_inline((unsigned char *)out->buf, in, r, g->nkeys, g->keys, g->ktypes);
    out->buf[out->len] = 0;
    assert((uintptr_t)out->buf % 8 == 0);
    return wstate_key_hash_words((const uint64_t *)(const void *)out->buf, out->len / 8);
}

static int slot_new(GroupAgg *g, int r, uint64_t h)
{
    int si = g->cg.ngroups++;
    g->slots[si] = (Slot){.hash = h, .first_row = r, .last_row = -1};    /* stores, not a memset call */
    return si;
}

/* The slot's key bytes (in cg.kbytes: encoded here unless assign_slots kept them, hashed with the
   state's hash) and that hash, s->shash. */
static void slot_key(GroupAgg *g, const WChunk *in, Slot *s)
{
    if (s->cached) return;          /* cache_find set it */
    if (g->kmode == KM_ENCODED) {
        s->shash = s->hash;
        return;
    }
    s->shash = encode_key(g, in, s->first_row, &g->tmp);
    s->koff = (uint32_t)g->cg.kbytes.len;
    s->klen = (uint32_t)g->tmp.len;
    wsb_appendn(&g->cg.kbytes, g->tmp.buf, g->tmp.len);
}

/* Make the slot's key (slot_key) the backend's current key, hash passed on, and look its
   accumulator row up for update (one probe). */
static WStateLookup slot_ref(GroupAgg *g, Slot *s, WValueRef *ref)
{
    set_slot_key(g, s);
    WStateLookup how = wvalue_ref(g->acc_state, ref);
    if (how == WSL_EXPIRED) s->expired = true;
    return how;
}

/* Slots ahead of the one whose accumulator row is looked up (read, updated or written back) whose
   lookups are announced: the table slot SLOTS_AHEAD_SLOT ahead, the entry SLOTS_AHEAD_ENTRY
   ahead (once its slot arrived), so that a chunk of many keys overlaps their cache misses. */
enum { SLOTS_AHEAD_SLOT = 8, SLOTS_AHEAD_ENTRY = 4 };

/* Before slot i's lookup (its keys' hashes known, slot_key): the read-ahead of the slots after it;
   at i == 0 the table slots of the first ones too. */
static void read_slots_ahead(GroupAgg *g, int i)
{
    int ns = g->cg.ngroups;
    if (i == 0)
        for (int k = 0; k < SLOTS_AHEAD_SLOT && k < ns; k++) wstate_prefetch_slot(g->acc_state, g->slots[k].shash);
    if (i + SLOTS_AHEAD_SLOT < ns) wstate_prefetch_slot(g->acc_state, g->slots[i + SLOTS_AHEAD_SLOT].shash);
    if (i + SLOTS_AHEAD_ENTRY < ns) wstate_prefetch_entry(g->acc_state, g->slots[i + SLOTS_AHEAD_ENTRY].shash);
}

#ifdef WEIR_TEST_BUILD
/* Slot s's key bytes and hash are encode_key's (fixed_slot_keys' invariant). */
static bool slot_key_is_encoded(GroupAgg *g, const WChunk *in, const Slot *s)
{
    uint64_t h = encode_key(g, in, s->first_row, &g->tmp);
    return h == s->shash && g->tmp.len == s->klen && memcmp(g->tmp.buf, g->cg.kbytes.buf + s->koff, s->klen) == 0;
}
#endif

/* slot_key for every slot not taken from the cache, keys of fixed-width columns only: the slots'
   first rows are encoded at once, a column at a time, straight into the chunk's key bytes
   (wrow_encode_selected_inline), each hashed from its words (bench/agg's 100K keys: about one key
   per row, each encoded by its own call through a buffer, 19 % of the instructions). */
static void fixed_slot_keys(GroupAgg *g, const WChunk *in)
{
    int ns = g->cg.ngroups, n = 0;
    int *rows = wa_alloc(&g->scratch, sizeof(int) * (size_t)(ns ? ns : 1));
    int *which = wa_alloc(&g->scratch, sizeof(int) * (size_t)(ns ? ns : 1));
    for (int i = 0; i < ns; i++) {
        if (g->slots[i].cached) continue;       /* cache_find set it */
        rows[n] = g->slots[i].first_row;
        which[n++] = i;
    }
    WStrBuf *kb = &g->cg.kbytes;
    size_t fixed = wrow_fixed_size(g->nkeys), nw = fixed / 8, base = kb->len;
    wsb_reserve(kb, fixed * (size_t)n + 1);
    uint64_t *dst = (uint64_t *)(void *)(kb->buf + base);
    wrow_encode_selected_inline(dst, nw, in, rows, n, g->nkeys, g->keys, g->ktypes);
    for (int k = 0; k < n; k++) {
        Slot *s = &g->slots[which[k]];
        s->koff = (uint32_t)(base + fixed * (size_t)k);
        s->klen = (uint32_t)fixed;
        s->shash = wstate_key_hash_words(dst + nw * (size_t)k, nw);
    }
    kb->len = base + fixed * (size_t)n;
    kb->buf[kb->len] = 0;
    for (int k = 0; k < n; k++) WASSERT_COSTLY(slot_key_is_encoded(g, in, &g->slots[which[k]]));
}

/* Every slot's key (slot_key); a backend that reads from storage (RocksDB) then reads the
   chunk's accumulator rows in one batch. */
static void slot_keys(GroupAgg *g, const WChunk *in)
{
    int ns = g->cg.ngroups;
    /* words written in place: the key bytes so far are whole words, at an 8-byte aligned buffer */
    if (g->key_fixed && g->kmode != KM_ENCODED && g->nkeys > 0 && g->cg.kbytes.len % 8 == 0 &&
        (uintptr_t)g->cg.kbytes.buf % 8 == 0)
        fixed_slot_keys(g, in);
    else
        for (int i = 0; i < ns; i++) slot_key(g, in, &g->slots[i]);
    if (!wstate_loads_values(g->acc_state)) return;
    WBytes *keys = wa_alloc(&g->scratch, sizeof(WBytes) * (size_t)(ns ? ns : 1));
    uint64_t *hashes = wa_alloc(&g->scratch, sizeof(uint64_t) * (size_t)(ns ? ns : 1));
    int n = 0;
    for (int i = 0; i < ns; i++) {
        if (g->slots[i].cached) continue;       /* not read from state */
        keys[n] = (WBytes){g->cg.kbytes.buf + g->slots[i].koff, g->slots[i].klen};
        hashes[n++] = g->slots[i].shash;
    }
    wstate_load_values(g->acc_state, keys, hashes, n);
}

/* ---- the accumulators kept decoded between chunks (general path, no TTL) ---- */

/* Entries held at most: a few of the CPU's caches' worth (an entry's accumulators are read in
   place; a cache of 65,536 keys of a 100K-key aggregation missed the CPU cache at each, and took
   40 % more time than decoding them from state). */
#define ACC_CACHE_MAX 8192

/* Is entry e slot s's key (row s->first_row of in)? Keys of composite types (KM_ENCODED) are not
   cached (wacc_cache_supports). */
static bool cached_key_matches(const GroupAgg *g, const WChunk *in, const Slot *s, const WAccCached *e)
{
    assert(g->kmode != KM_ENCODED);
    for (int k = 0; k < g->nkeys; k++) {
        const WVector *v = &in->cols[g->keys[k]];
        int r = s->first_row;
        if ((v->nulls[r] != 0) != (e->knulls[k] != 0)) return false;
        if (!v->nulls[r] && !key_value_equal(g->ktypes[k], v->data[r], e->kvals[k])) return false;
    }
    return true;
}

/* Slot s's key in the cache: its accumulators are the entry's (present), its key bytes and state
   hash the entry's (copied to the chunk's key bytes, as slot_key would have written them). */
static void cache_find(GroupAgg *g, const WChunk *in, Slot *s)
{
    g->cache_lookups++;
    size_t pos = 0;
    for (WAccCached *e; (e = wacc_cache_next_of(&g->cache, s->hash, &pos));) {
        if (!cached_key_matches(g, in, s, e)) continue;
        s->cached = e;
        s->acc = e->acc;
        s->nulls = e->nulls;
        s->present = true;
        s->shash = e->shash;
        s->koff = (uint32_t)g->cg.kbytes.len;
        s->klen = e->klen;
        wsb_appendn(&g->cg.kbytes, (const char *)e->key, e->klen);
        g->cache_hits++;
        return;
    }
}

/* Slot s (written to state, present) into the cache, clean; nothing when it is full. */
static void cache_add(GroupAgg *g, const WChunk *in, const Slot *s)
{
    WDatum kv[16];
    uint8_t kn[16];
    WDatum *kvals = g->nkeys <= 16 ? kv : wa_alloc(&g->scratch, sizeof(WDatum) * (size_t)g->nkeys);
    uint8_t *knulls = g->nkeys <= 16 ? kn : wa_alloc(&g->scratch, (size_t)g->nkeys);
    for (int k = 0; k < g->nkeys; k++) {
        const WVector *v = &in->cols[g->keys[k]];
        knulls[k] = v->nulls[s->first_row];
        kvals[k] = v->data[s->first_row];
    }
    wacc_cache_add(&g->cache, s->hash, s->shash, g->cg.kbytes.buf + s->koff, s->klen, kvals, knulls, s->acc,
                   s->nulls);
}

/* Write the accumulators of every dirty entry back to state (they stay cached, clean). */
static void cache_flush(GroupAgg *g)
{
    if (!g->cache_on) return;
    for (size_t i = 0; i < g->cache.cap; i++) {
        WAccCached *e = g->cache.slots[i];
        if (!e || !e->dirty) continue;
        wstate_set_key_hashed(g->backend, e->key, e->klen, e->shash);
        wacc_encode(&g->ac, e->acc, e->nulls, &g->tmp);
        wvalue_put(g->acc_state, g->tmp.buf, g->tmp.len);
        e->dirty = false;
    }
}

/* After a chunk. Once the cache is full, its finds are counted over windows of ACC_CACHE_MAX
   lookups: a window with fewer finds than lookups / 2 says its keys do not come back: written back
   and emptied, to fill with the keys of now; fewer than one in eight, keys that hardly repeat
   (millions of them), whose copies into the cache cost more than its finds save: the cache is
   turned off. */
static void cache_end_chunk(GroupAgg *g)
{
    if (g->cache.n < g->cache.max) return;
    if (!g->cache_full) {           /* the first window starts now */
        g->cache_full = true;
        g->cache_lookups = g->cache_hits = 0;
        return;
    }
    if (g->cache_lookups < (int64_t)g->cache.max) return;
    bool cold = 2 * g->cache_hits < g->cache_lookups, off = 8 * g->cache_hits < g->cache_lookups;
    g->cache_lookups = g->cache_hits = 0;
    if (!cold) return;
    cache_flush(g);
    wacc_cache_clear(&g->cache);
    g->cache_full = false;
    if (off) {
        wacc_cache_free(&g->cache);
        g->cache_on = false;
    }
}

/* General path: read every slot's accumulators (decoded into scratch). */
static void load_slots_general(GroupAgg *g, const WChunk *in)
{
    int nf = g->L->nfields;
    if (g->cache_on) {
        enum { CACHE_AHEAD = 4 };
        int ns = g->cg.ngroups;
        for (int i = 0; i < ns && i < CACHE_AHEAD; i++) wacc_cache_prefetch(&g->cache, g->slots[i].hash);
        for (int i = 0; i < ns; i++) {
            if (i + CACHE_AHEAD < ns) wacc_cache_prefetch(&g->cache, g->slots[i + CACHE_AHEAD].hash);
            cache_find(g, in, &g->slots[i]);
        }
    }
    slot_keys(g, in);
    for (int i = 0; i < g->cg.ngroups; i++) {
        Slot *s = &g->slots[i];
        if (s->cached) continue;
        read_slots_ahead(g, i);
        WValueRef ref;
        s->acc = wa_alloc(&g->scratch, sizeof(WDatum) * (size_t)nf);
        s->nulls = wa_alloc(&g->scratch, (size_t)nf);
        if (slot_ref(g, s, &ref) == WSL_FOUND) {
            wacc_decode(&g->ac, ref.cur.p, ref.cur.len, s->acc, s->nulls);
            s->present = true;
        }
    }
}

/* Rows ahead of the one hashed whose string keys' bytes are read ahead: they may lie anywhere (a
   generator's pool, a reader's buffer, another operator's arena) and missed the cache in Nexmark
   q16's GROUP BY channel, day (half of the hash's time). */
enum { KEY_BYTES_AHEAD = 8 };

static void prefetch_key_strings(const GroupAgg *g, const WChunk *in, int r)
{
    for (int k = 0; k < g->nkeys; k++) {
        const WVector *v = &in->cols[g->keys[k]];
        switch (g->ktypes[k]->id) {
        case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
            if (!v->nulls[r]) __builtin_prefetch(v->data[r].s.p);
            break;
        default:
            break;
        }
    }
}

/* Assign every row of the chunk to a slot (per-call table; no state access). */
static void assign_slots(GroupAgg *g, const WChunk *in)
{
    uint32_t mask = (uint32_t)g->cg.tcap - 1;
    const int n = in->nrows;
    if (g->kmode == KM_INT1) {
        const WVector *kv = &in->cols[g->keys[0]];
        for (int r = 0; r < n; r++) {
            bool nul = kv->nulls[r] != 0;
            int64_t x = nul ? 0 : kv->data[r].i;
            uint64_t h = whash_u64((uint64_t)x ^ (nul ? 0x6e756c6cULL : 0x243f6a8885a308d3ULL));
            uint32_t i = (uint32_t)h & mask;
            int si;
            for (;;) {
                si = g->cg.table[i];
                if (si < 0) { si = slot_new(g, r, h); g->cg.table[i] = si; break; }
                const Slot *s = &g->slots[si];
                int fr = s->first_row;
                if (s->hash == h && (kv->nulls[fr] != 0) == nul && (nul || kv->data[fr].i == x)) break;
                i = (i + 1) & mask;
            }
            g->cg.rows[r] = si;
        }
        return;
    }
    for (int r = 0; r < n; r++) {
        uint64_t h;
        if (g->kmode == KM_DATUM) {
            if (r + KEY_BYTES_AHEAD < n) prefetch_key_strings(g, in, r + KEY_BYTES_AHEAD);
            h = g->nkeys ? hash_key_datum(g, in, r) : 0;
        } else {
            wrow_encode_chunk(&g->tmp, in, r, g->nkeys, g->keys);
            h = wstate_key_hash(g->tmp.buf, g->tmp.len);    /* carried to the state (slot_ref) */
        }
        uint32_t i = (uint32_t)h & mask;
        int si;
        for (;;) {
            si = g->cg.table[i];
            if (si < 0) {
                si = slot_new(g, r, h);
                g->cg.table[i] = si;
                if (g->kmode == KM_ENCODED) {
                    Slot *s = &g->slots[si];
                    s->koff = (uint32_t)g->cg.kbytes.len;
                    s->klen = (uint32_t)g->tmp.len;
                    wsb_appendn(&g->cg.kbytes, g->tmp.buf, g->tmp.len);
                }
                break;
            }
            Slot *s = &g->slots[si];
            if (s->hash == h) {
                bool eq;
                if (g->kmode == KM_DATUM) eq = same_key_datum(g, in, s->first_row, r);
                else eq = s->klen == g->tmp.len && memcmp(g->cg.kbytes.buf + s->koff, g->tmp.buf, g->tmp.len) == 0;
                if (eq) break;
            }
            i = (i + 1) & mask;
        }
        g->cg.rows[r] = si;
    }
}

/* ------------------------------------------------------------------ output */

static void flush_out(GroupAgg *g)
{
    if (g->out->nrows) {
        wop_emit(&g->base, g->out);
        wchunk_reset(g->out);
    }
}

static void emit_row(GroupAgg *g, WRowKind kind, const WChunk *in, int r, const WDatum *vals,
                     const uint8_t *vn)
{
    WChunk *o = g->out;
    if (o->nrows >= o->cap) flush_out(g);
    int i = o->nrows++;
    o->kinds[i] = (uint8_t)kind;
    for (int k = 0; k < g->nkeys; k++) {
        const WVector *v = &in->cols[g->keys[k]];
        o->cols[k].data[i] = v->data[r];
        o->cols[k].nulls[i] = v->nulls[r];
    }
    for (int a = 0; a < g->naggs; a++) {
        o->cols[g->nkeys + a].data[i] = vals[a];
        o->cols[g->nkeys + a].nulls[i] = vn[a];
    }
}

/* Flink's emission after an update of a key that had accumulators before (not first): its
   results before (prev) and after (cur) row r. */
static void emit_update(GroupAgg *g, const WChunk *in, int r, const WDatum *prev, const uint8_t *prevn,
                        const WDatum *cur, const uint8_t *curn)
{
    if (g->ttl_ms <= 0 && wacc_values_equal(g->L, prev, prevn, cur, curn)) return;
    if (g->gen_ub) emit_row(g, WRK_UPDATE_BEFORE, in, r, prev, prevn);
    emit_row(g, WRK_UPDATE_AFTER, in, r, cur, curn);
}

/* ------------------------------------------------------------------ general path */

/* process_general's read-ahead of a row's accumulators: rows ahead, and the bytes of a chunk's
   accumulators from which it pays (L1's) */
enum { ACC_AHEAD = 4 };
#define ACC_AHEAD_MIN_BYTES ((size_t)32 << 10)

/* Rows ahead of the one accumulated whose group's entry in the DISTINCT maps' key table (its
   slot, then the entry), then its map table, then the slot and entry of the row's value in it
   are read ahead: a map lookup misses the CPU cache when the maps are many and large, and the
   misses of several rows overlap this way instead of one after the other. */
enum { AHEAD_KEY_SLOT = 40, AHEAD_KEY_ENTRY = 32, AHEAD_TABLE = 24, AHEAD_SLOT = 16, AHEAD_ENTRY = 8 };

/* Row r's group's slot (entry: its entry) in each DISTINCT map's key table, unless the group's
   map table was found in this chunk already (`where`). */
static void prefetch_group_key(GroupAgg *g, int r, const WMapWhere *where, bool entry)
{
    size_t nd = (size_t)g->L->ndistinct;
    int si = g->cg.rows[r];
    uint64_t h = g->slots[si].shash;
    for (size_t d = 0; d < nd; d++) {
        const WAccDistinct *D = &g->L->distinct[d];
        if (!D->inline_key || where[(size_t)si * nd + d].table) continue;
        if (entry) wstate_prefetch_entry(D->map, h);
        else wstate_prefetch_slot(D->map, h);
    }
}

/* Row r's read-ahead stage, with the places of its group's maps and its user keys. */
static void prefetch_row(GroupAgg *g, int r, WMapWhere *where, const WAccKey *keys, WMapPrefetch stage)
{
    size_t nd = (size_t)g->L->ndistinct;
    int si = g->cg.rows[r];
    const Slot *s = &g->slots[si];
    if (stage == WMAP_PREFETCH_TABLE && where[(size_t)si * nd].table) return;  /* read by an earlier row */
    wacc_prefetch(&g->ac, g->cg.kbytes.buf + s->koff, s->klen, s->shash, &where[(size_t)si * nd],
                  &keys[(size_t)r * nd], stage);
}

/* Before row r: the read-ahead of the rows AHEAD_TABLE, AHEAD_SLOT and AHEAD_ENTRY after it (r <
   0: of the chunk's first rows, before its first row). */
static void prefetch_distinct(GroupAgg *g, const WChunk *in, int r, WMapWhere *where, const WAccKey *keys)
{
    if (r < 0) {
        for (int i = 0; i < AHEAD_KEY_SLOT && i < in->nrows; i++) prefetch_group_key(g, i, where, false);
        for (int i = 0; i < AHEAD_KEY_ENTRY && i < in->nrows; i++) prefetch_group_key(g, i, where, true);
        for (int i = 0; i < AHEAD_TABLE && i < in->nrows; i++) prefetch_row(g, i, where, keys, WMAP_PREFETCH_TABLE);
        for (int i = 0; i < AHEAD_SLOT && i < in->nrows; i++) prefetch_row(g, i, where, keys, WMAP_PREFETCH_SLOT);
        for (int i = 0; i < AHEAD_ENTRY && i < in->nrows; i++) prefetch_row(g, i, where, keys, WMAP_PREFETCH_ENTRY);
        return;
    }
    if (r + AHEAD_KEY_SLOT < in->nrows) prefetch_group_key(g, r + AHEAD_KEY_SLOT, where, false);
    if (r + AHEAD_KEY_ENTRY < in->nrows) prefetch_group_key(g, r + AHEAD_KEY_ENTRY, where, true);
    if (r + AHEAD_TABLE < in->nrows) prefetch_row(g, r + AHEAD_TABLE, where, keys, WMAP_PREFETCH_TABLE);
    if (r + AHEAD_SLOT < in->nrows) prefetch_row(g, r + AHEAD_SLOT, where, keys, WMAP_PREFETCH_SLOT);
    if (r + AHEAD_ENTRY < in->nrows) prefetch_row(g, r + AHEAD_ENTRY, where, keys, WMAP_PREFETCH_ENTRY);
}

static void process_general(GroupAgg *g, const WChunk *in)
{
    const WAccLayout *L = g->L;
    int cur_key = -1;
    /* insight's slow keys: a row's work is the data-view entries its aggregates read (a MIN/MAX
       with retraction rescans its key's values when the extreme leaves); each such row is timed */
    WOperator *op = &g->base;
    bool track = L->has_views && op->insight;
    /* a row that read WINS_WORK_MIN entries or more is timed from the previous such row's end (or
       the chunk's start: one coarse clock reading per such row) */
    int64_t t0 = track ? wop_key_begin(op) : 0, small = 0;
    /* a key's results after its row are its next row's previous results, unless they read data
       views (whose reads insight counts): kept per key instead of computed twice */
    bool keep_values = !L->value_reads_views;
    /* DISTINCT maps: each row's user keys (encoded and hashed once), and when read ahead, where
       each group's maps are */
    WMapWhere *where = NULL;
    WAccKey *keys = NULL;
    if (L->ndistinct) {
        keys = wa_alloc(&g->scratch, sizeof(WAccKey) * (size_t)in->nrows * (size_t)L->ndistinct);
        wacc_distinct_keys(&g->ac, in, keys);
    }
    /* DISTINCT maps: where each group's entry and map are, found by the read-ahead or by the
       group's first row of the chunk */
    WMapWhere *wheres = L->ndistinct ? WA_ARRAY(&g->scratch, WMapWhere, (size_t)g->cg.ngroups * (size_t)L->ndistinct) : NULL;
    if (L->ndistinct && wacc_prefetch_pays(&g->ac)) {
        where = wheres;
        prefetch_distinct(g, in, -1, where, keys);
    }
    /* the accumulators of the row ACC_AHEAD on, when the chunk's do not stay in L1 between the
       group pass that found them and their rows (Nexmark q16: 10,000 groups, a chunk's rows
       nearly all of different ones; the first read of each, wacc_get_value's, missed) */
    size_t acc_bytes = sizeof(WDatum) * (size_t)L->nfields;
    bool acc_ahead = (size_t)g->cg.ngroups * acc_bytes > ACC_AHEAD_MIN_BYTES;
    for (int r = 0; r < in->nrows; r++) {
        Slot *s = &g->slots[g->cg.rows[r]];
        if (acc_ahead && r + ACC_AHEAD < in->nrows) {
            const char *a = (const char *)g->slots[g->cg.rows[r + ACC_AHEAD]].acc;
            for (size_t off = 0; off < acc_bytes; off += 64) __builtin_prefetch(a + off);
        }
        if (where) prefetch_distinct(g, in, r, where, keys);
        if (keys) g->ac.row_keys = &keys[(size_t)r * (size_t)L->ndistinct];
        if (wheres) g->ac.row_where = &wheres[(size_t)g->cg.rows[r] * (size_t)L->ndistinct];
        bool retract = wrowkind_is_retract((WRowKind)in->kinds[r]);
        if (s->expired) { g->ttl_expired++; s->expired = false; }
        bool first = false;
        if (!s->present) {
            if (retract) { g->dropped++; continue; }
            wacc_create(L, s->acc, s->nulls);
            s->present = true;
            first = true;
        }
        if (track) g->ac.work = 0;
        if (L->has_views && cur_key != g->cg.rows[r]) {
            set_slot_key(g, s);
            cur_key = g->cg.rows[r];
        }
        /* the key's results before the row: kept from its previous row (read in place: not
           written until the row's results are out), else computed */
        const WDatum *prev = g->prev;
        const uint8_t *prevn = g->prevn;
        if (!first && s->vals) {
            prev = s->vals;
            prevn = s->vn;
        } else if (!first) {
            wacc_get_value(&g->ac, s->acc, s->nulls, g->prev, g->prevn);
        }
        if (retract) wacc_retract(&g->ac, s->acc, s->nulls, in, r);
        else wacc_accumulate(&g->ac, s->acc, s->nulls, in, r);
        if (g->ac.err && g->ac.err->set) return;       /* SINGLE_VALUE's second row fails the job */
        s->dirty = true;
        if (s->acc[0].i != 0) {
            /* the results after the row: into the key's spare buffer when kept, which then
               becomes its results and the old ones its spare (no copy of either) */
            WDatum *cur = g->cur;
            uint8_t *curn = g->curn;
            if (keep_values) {
                if (!s->spare) {
                    s->spare = WA_ARRAY(&g->scratch, WDatum, g->naggs ? g->naggs : 1);
                    s->spare_n = WA_ARRAY(&g->scratch, uint8_t, g->naggs ? g->naggs : 1);
                }
                cur = s->spare;
                curn = s->spare_n;
            }
            wacc_get_value(&g->ac, s->acc, s->nulls, cur, curn);
            if (first) emit_row(g, WRK_INSERT, in, r, cur, curn);
            else emit_update(g, in, r, prev, prevn, cur, curn);
            if (keep_values) {
                s->spare = s->vals;
                s->spare_n = s->vn;
                s->vals = cur;
                s->vn = curn;
            }
        } else {
            if (!first) emit_row(g, WRK_DELETE, in, r, prev, prevn);
            if (L->has_views) wacc_cleanup(L);
            s->present = false;
            s->vals = NULL;
        }
        if (track && g->ac.work >= WINS_WORK_MIN) {
            wop_key_work(op, 0, in, r, g->ac.work);
            t0 = wop_key_slow_end(op, t0, g->ac.work, in, r);
        } else if (track) {
            small += g->ac.work;
        }
    }
    if (track) wop_key_work_add(op, small);
}

/* ------------------------------------------------------------------ fast path */

static inline bool is_nul(const unsigned char *p, int f) { int b = f + 8; return (p[b >> 3] >> (b & 7)) & 1; }
static inline void clr_nul(unsigned char *p, int f) { int b = f + 8; p[b >> 3] &= (unsigned char)~(1u << (b & 7)); }

/* Shift that wraps an int64 to the width of the result type (Java int arithmetic). */
static int wrap_shift(const WType *t)
{
    switch (t->id) {
    case WT_TINYINT: return 56;
    case WT_SMALLINT: return 48;
    case WT_INT: return 32;
    default: return 0;
    }
}
static inline int64_t wrap_sh(int64_t v, int sh) { return (int64_t)((uint64_t)v << sh) >> sh; }

/* 10^38 - 1, the largest DECIMAL(38) unscaled value (wdecimal_max(38), without the table lookup). */
#define DEC38_MAX ((__int128)(((unsigned __int128)0x4b3b4ca85a86c47aULL << 64) | 0x098a223fffffffffULL))

/* A DECIMAL accumulator field f of row p: compact (the unscaled value in its slot; voff < 0) or
   not (16 bytes at voff holding the minimal big-endian bytes, their count in the slot's low 32
   bits: row.h), exactly as wacc_encode writes it, so the state format is the general path's.
   dec_store also sets the field's null bit (a NULL keeps a zero slot, or zeroed bytes and n = 0). */
static inline __int128 dec_load(const GroupAgg *g, const unsigned char *p, int f, int voff)
{
    uint64_t slot;
    memcpy(&slot, p + g->hdr + 8 * (size_t)f, 8);
    if (voff < 0) return (int64_t)slot;
    return wrow_dec_get(p + voff, (int)(uint32_t)slot);
}

static inline void dec_store(const GroupAgg *g, unsigned char *p, int f, int voff, __int128 v, bool null)
{
    uint64_t slot;
    if (voff < 0) {
        slot = null ? 0 : (uint64_t)(int64_t)v;
    } else {
        int n = 0;
        if (null) memset(p + voff, 0, 16);
        else n = wrow_dec_put(p + voff, v);
        slot = ((uint64_t)(uint32_t)voff << 32) | (uint32_t)n;
    }
    memcpy(p + g->hdr + 8 * (size_t)f, &slot, 8);
    int b = f + 8;
    if (null) p[b >> 3] |= (unsigned char)(1u << (b & 7));
    else p[b >> 3] &= (unsigned char)~(1u << (b & 7));
}

/* Results of one accumulator row (a key's values before the chunk). */
static void fast_values(const GroupAgg *g, const unsigned char *p, WDatum *vals, uint8_t *vn)
{
    const int64_t *pi = (const int64_t *)(const void *)(p + g->hdr);
    const double *pd = (const double *)(const void *)(p + g->hdr);
    for (int a = 0; a < g->naggs; a++) {
        const FAgg *fa = &g->fa[a];
        int f = fa->f;
        vn[a] = 0;
        memset(&vals[a], 0, sizeof vals[a]);
        if (fa->dec) {
            if (is_nul(p, f) || (fa->op == F_AVG && pi[f + 1] == 0)) vn[a] = 1;
            else if (fa->op != F_AVG) vals[a].dec = dec_load(g, p, f, fa->voff);
            else if (!wacc_dec_avg(dec_load(g, p, f, fa->voff), fa->ascale, pi[f + 1], fa->rscale, &vals[a].dec)) {
                vn[a] = 1;
                vals[a].dec = 0;
            }
            continue;
        }
        switch (fa->op) {
        case F_COUNT_STAR: case F_COUNT:
            vals[a].i = pi[f];
            break;
        case F_SUM: case F_SUM0: case F_MIN: case F_MAX:
            if (is_nul(p, f)) vn[a] = 1;
            else vals[a].i = pi[f];       /* same bits for doubles */
            break;
        case F_AVG:
            if (pi[f + 1] == 0) vn[a] = 1;
            else if (fa->dbl) vals[a].d = pd[f] / (double)pi[f + 1];
            else vals[a].i = wrap_sh(pi[f] / pi[f + 1], fa->wrap);
            break;
        }
    }
}

static bool fast_equal(const GroupAgg *g, const WDatum *a, const uint8_t *an, const WDatum *b, const uint8_t *bn)
{
    for (int i = 0; i < g->naggs; i++) {
        if (an[i] != bn[i]) return false;
        if (an[i]) continue;
        if (g->fa[i].dec) {
            if (a[i].dec != b[i].dec) return false;
        } else if (g->fa[i].dbl && g->fa[i].op != F_COUNT && g->fa[i].op != F_COUNT_STAR) {
            if (!(a[i].d == b[i].d)) return false;
        } else if (a[i].i != b[i].i) return false;
    }
    return true;
}

/* One aggregate's inputs for the current chunk. */
typedef struct FCol {
    FOp op;
    bool dbl, dec;
    int voff, ascale, rscale;   /* dec: FAgg's */
    int f, sh;
    int nbyte;                  /* null bit of field f in the accumulator row */
    unsigned char nmask;
    const uint8_t *fnul, *anul;
    const WDatum *fdat, *adat;
    WDatum *out;
    uint8_t *on;
} FCol;

#define PASS(r) ((!fnul || (!fnul[r] && fdat[r].i)) && (!anul || !anul[r]))

/* fast_key_rows for a DECIMAL aggregate: the field is decoded once per key and chunk, updated in
   an __int128 with the general path's semantics (accumulators.c: a SUM / SUM0 / AVG sum leaving
   38 digits becomes NULL, a NULL SUM restarts at the next value, SUM0's and AVG's stay NULL),
   and stored back when a row passed. */
static void fast_dec_rows(const GroupAgg *g, const FCol *c, unsigned char *p, const int32_t *rows, int m)
{
    int64_t *pi = (int64_t *)(void *)(p + g->hdr);
    const int f = c->f;
    WDatum *out = c->out;
    uint8_t *on = c->on;
    const uint8_t *fnul = c->fnul, *anul = c->anul;
    const WDatum *fdat = c->fdat, *adat = c->adat;
    const __int128 lim = DEC38_MAX;
    bool nul = is_nul(p, f), changed = false;
    __int128 v = nul ? 0 : dec_load(g, p, f, c->voff);
    switch (c->op) {
    case F_SUM: case F_SUM0:
        for (int k = 0; k < m; k++) {
            int r = rows[k];
            if (PASS(r)) {
                __int128 x;
                if (nul) {
                    if (c->op == F_SUM) { v = adat[r].dec; nul = false; }
                } else if (__builtin_add_overflow(v, adat[r].dec, &x) || x > lim || x < -lim) {
                    nul = true;
                } else {
                    v = x;
                }
                changed = true;
            }
            out[r].dec = nul ? 0 : v;
            on[r] = nul;
        }
        break;
    case F_AVG: {
        int64_t cnt = pi[f + 1];
        for (int k = 0; k < m; k++) {
            int r = rows[k];
            if (PASS(r)) {
                __int128 x;
                if (!nul) {
                    if (__builtin_add_overflow(v, adat[r].dec, &x) || x > lim || x < -lim) nul = true;
                    else v = x;
                }
                cnt++;
                changed = true;
            }
            out[r].dec = 0;
            on[r] = cnt == 0 || nul || !wacc_dec_avg(v, c->ascale, cnt, c->rscale, &out[r].dec);
            if (on[r]) out[r].dec = 0;
        }
        pi[f + 1] = cnt;
        break;
    }
    case F_MIN: case F_MAX: {
        bool mx = c->op == F_MAX;
        for (int k = 0; k < m; k++) {
            int r = rows[k];
            if (PASS(r)) {
                __int128 x = adat[r].dec;
                if (nul || (mx ? x > v : x < v)) { v = x; nul = false; changed = true; }
            }
            out[r].dec = nul ? 0 : v;
            on[r] = nul;
        }
        break;
    }
    case F_COUNT_STAR: case F_COUNT:
        assert(!"COUNT is not a DECIMAL aggregate");
        break;
    }
    if (changed) dec_store(g, p, f, c->voff, v, nul);
}

/* Updates accumulator row p for the rows rows[0..m) of one key (in input order) and stores each
   row's results (after its update) in the aggregates' result columns. */
static void fast_key_rows(const GroupAgg *g, const FCol *cols, unsigned char *p, const int32_t *rows, int m)
{
    int64_t *pi = (int64_t *)(void *)(p + g->hdr);
    double *pd = (double *)(void *)(p + g->hdr);
    pi[0] += m;
    for (int a = 0; a < g->naggs; a++) {
        const FCol *c = &cols[a];
        if (c->dec) {
            fast_dec_rows(g, c, p, rows, m);
            continue;
        }
        const int f = c->f;
        WDatum *out = c->out;
        uint8_t *on = c->on;
        const uint8_t *fnul = c->fnul, *anul = c->anul;
        const WDatum *fdat = c->fdat, *adat = c->adat;
        unsigned char *nb = p + c->nbyte;
        const unsigned char nm = c->nmask;
        switch (c->op) {
        case F_COUNT_STAR: case F_COUNT:
            for (int k = 0; k < m; k++) {
                int r = rows[k];
                if (PASS(r)) pi[f]++;
                out[r].i = pi[f];
                on[r] = 0;
            }
            break;
        case F_SUM: case F_SUM0:
            for (int k = 0; k < m; k++) {
                int r = rows[k];
                if (PASS(r)) {
                    if (*nb & nm) { *nb &= (unsigned char)~nm; pi[f] = adat[r].i; }
                    else if (c->dbl) pd[f] += adat[r].d;
                    else pi[f] = wrap_sh((int64_t)((uint64_t)pi[f] + (uint64_t)adat[r].i), c->sh);
                }
                out[r].i = pi[f];
                on[r] = (*nb & nm) != 0;
            }
            break;
        case F_MIN: case F_MAX: {
            bool mx = c->op == F_MAX;
            for (int k = 0; k < m; k++) {
                int r = rows[k];
                if (PASS(r)) {
                    if (*nb & nm) { *nb &= (unsigned char)~nm; pi[f] = adat[r].i; }
                    else if (c->dbl) {
                        double x = adat[r].d, cur = pd[f];
                        if (mx ? x > cur : x < cur) pd[f] = x;
                    } else {
                        int64_t x = adat[r].i, cur = pi[f];
                        if (mx ? x > cur : x < cur) pi[f] = x;
                    }
                }
                out[r].i = pi[f];
                on[r] = (*nb & nm) != 0;
            }
            break;
        }
        case F_AVG:
            for (int k = 0; k < m; k++) {
                int r = rows[k];
                if (PASS(r)) {
                    if (c->dbl) pd[f] += adat[r].d;
                    else pi[f] = (int64_t)((uint64_t)pi[f] + (uint64_t)adat[r].i);
                    pi[f + 1]++;
                }
                int64_t cnt = pi[f + 1];
                on[r] = cnt == 0;
                if (cnt == 0) out[r].i = 0;
                else if (c->dbl) out[r].d = pd[f] / (double)cnt;
                else out[r].i = wrap_sh(pi[f] / cnt, c->sh);
            }
            break;
        }
    }
}
#undef PASS

/* Grow a per-operator buffer to hold n elements of size sz. */
static void *grow(void *p, int *cap, int n, size_t sz)
{
    if (n <= *cap) return p;
    *cap = n;
    return wrealloc(p, sz * (size_t)n);
}

static void process_fast(GroupAgg *g, const WChunk *in)
{
    const int n = in->nrows, na = g->naggs, ns = g->cg.ngroups;
    WChunk *o = g->out;
    /* rows grouped by key, stable (counting sort over slots) */
    int32_t *start = wa_alloc(&g->scratch, sizeof(int32_t) * (size_t)(ns + 1));
    memset(start, 0, sizeof(int32_t) * (size_t)(ns + 1));
    for (int r = 0; r < n; r++) start[g->cg.rows[r] + 1]++;
    for (int i = 0; i < ns; i++) start[i + 1] += start[i];
    g->order = grow(g->order, &g->order_cap, n, sizeof(int32_t));
    g->prev_row = grow(g->prev_row, &g->prev_cap, n, sizeof(int32_t));
    g->first = grow(g->first, &g->first_cap, n, 1);
    for (int r = 0; r < n; r++) {
        Slot *s = &g->slots[g->cg.rows[r]];
        g->order[start[g->cg.rows[r]] + s->nrows++] = r;
        g->prev_row[r] = s->last_row;
        s->last_row = r;
    }
    bool direct = !g->gen_ub && (g->always_changes || g->ttl_ms > 0) && n <= o->cap && o->nrows == 0;
    int nv = na ? na : 1;
    g->vals_buf = grow(g->vals_buf, &g->vals_cap, direct ? 1 : n * nv, sizeof(WDatum));
    g->vn_buf = grow(g->vn_buf, &g->vn_cap, direct ? 1 : n * nv, 1);
    if (!direct) {
        g->init = grow(g->init, &g->init_cap, ns * nv, sizeof(WDatum));
        g->initn = grow(g->initn, &g->initn_cap, ns * nv, 1);
    }
    FCol *cols = wa_alloc(&g->scratch, sizeof(FCol) * (size_t)nv);
    for (int a = 0; a < na; a++) {
        const FAgg *fa = &g->fa[a];
        FCol *c = &cols[a];
        c->op = fa->op;
        c->dbl = fa->dbl;
        c->dec = fa->dec;
        c->voff = fa->voff;
        c->ascale = fa->ascale;
        c->rscale = fa->rscale;
        c->f = fa->f;
        c->sh = fa->wrap;
        c->nbyte = (fa->f + 8) >> 3;
        c->nmask = (unsigned char)(1u << ((fa->f + 8) & 7));
        c->fnul = fa->filter >= 0 ? in->cols[fa->filter].nulls : NULL;
        c->fdat = fa->filter >= 0 ? in->cols[fa->filter].data : NULL;
        c->anul = fa->arg >= 0 ? in->cols[fa->arg].nulls : NULL;
        c->adat = fa->arg >= 0 ? in->cols[fa->arg].data : NULL;
        if (direct) {
            c->out = o->cols[g->nkeys + a].data;
            c->on = o->cols[g->nkeys + a].nulls;
        } else {
            c->out = g->vals_buf + (size_t)a * (size_t)n;
            c->on = g->vn_buf + (size_t)a * (size_t)n;
        }
    }
    /* per key: one lookup of the accumulator row, updated in place for the key's rows; the
       lookups of the keys after it are read ahead (read_slots_ahead) */
    slot_keys(g, in);
    for (int i = 0; i < ns; i++) {
        Slot *s = &g->slots[i];
        read_slots_ahead(g, i);
        WValueRef ref;
        WStateLookup how = slot_ref(g, s, &ref);
        if (s->expired) g->ttl_expired++;
        bool present = how == WSL_FOUND && ref.cur.len == g->acc_len;
        unsigned char *acc = wvalue_ref_reserve(&ref, g->acc_len);
        if (present) {
            if (!direct) fast_values(g, acc, g->init + (size_t)i * (size_t)na, g->initn + (size_t)i * (size_t)na);
        } else {
            memcpy(acc, g->tmpl, g->acc_len);
        }
        const int32_t *rows = g->order + start[i];
        g->first[rows[0]] = !present;
        for (int k = 1; k < s->nrows; k++) g->first[rows[k]] = 0;
        fast_key_rows(g, cols, acc, rows, s->nrows);
        wvalue_ref_commit(&ref);
    }
    if (direct) {
        for (int r = 0; r < n; r++) o->kinds[r] = g->first[r] ? WRK_INSERT : WRK_UPDATE_AFTER;
        for (int k = 0; k < g->nkeys; k++) {
            const WVector *kv = &in->cols[g->keys[k]];
            memcpy(o->cols[k].data, kv->data, sizeof(WDatum) * (size_t)n);
            memcpy(o->cols[k].nulls, kv->nulls, (size_t)n);
        }
        o->nrows = n;
        return;
    }
    for (int r = 0; r < n; r++) {
        for (int a = 0; a < na; a++) { g->cur[a] = cols[a].out[r]; g->curn[a] = cols[a].on[r]; }
        if (g->first[r]) {
            emit_row(g, WRK_INSERT, in, r, g->cur, g->curn);
            continue;
        }
        int pr = g->prev_row[r];
        if (pr >= 0) {
            for (int a = 0; a < na; a++) { g->prev[a] = cols[a].out[pr]; g->prevn[a] = cols[a].on[pr]; }
        } else {
            size_t base = (size_t)g->cg.rows[r] * (size_t)na;
            memcpy(g->prev, g->init + base, sizeof(WDatum) * (size_t)na);
            memcpy(g->prevn, g->initn + base, (size_t)na);
        }
        if (g->ttl_ms <= 0 && fast_equal(g, g->prev, g->prevn, g->cur, g->curn)) continue;
        if (g->gen_ub) emit_row(g, WRK_UPDATE_BEFORE, in, r, g->prev, g->prevn);
        emit_row(g, WRK_UPDATE_AFTER, in, r, g->cur, g->curn);
    }
}

/* ------------------------------------------------------------------ operator */

/* The chunk's changed accumulators to state; a cached key's stay in the cache (dirty), a key
   written to state is cached (clean), a key whose accumulators went leaves the cache and state. */
static void write_back(GroupAgg *g, const WChunk *in)
{
    for (int i = 0; i < g->cg.ngroups; i++) {
        Slot *s = &g->slots[i];
        if (!s->cached) read_slots_ahead(g, i);
        if (!s->dirty) continue;
        if (s->cached && s->present) {
            wacc_cache_own(&g->cache, s->cached);       /* its new strings: the chunk's */
            s->cached->dirty = true;
            continue;
        }
        if (s->cached) wacc_cache_remove(&g->cache, s->cached);
        set_slot_key(g, s);
        if (s->present) {
            wacc_encode(&g->ac, s->acc, s->nulls, &g->tmp);
            wvalue_put(g->acc_state, g->tmp.buf, g->tmp.len);
            if (g->cache_on) cache_add(g, in, s);
        } else {
            wvalue_clear(g->acc_state);
        }
    }
    if (g->cache_on) cache_end_chunk(g);
}

static void ga_process(WOperator *op, int input, const WChunk *in)
{
    GroupAgg *g = (GroupAgg *)op;
    (void)input;
    if (!g->input_retracts) {
        for (int r = 0; r < in->nrows; r++) {
            if (in->kinds[r] == WRK_UPDATE_BEFORE || in->kinds[r] == WRK_DELETE) {
                werr_set(op->ctx->err, WEXC_TABLE,
                         "%s received a retraction (%s) but its input was planned as insert-only",
                         op->name ? op->name : "GroupAggregate", wrowkind_short((WRowKind)in->kinds[r]));
                return;
            }
        }
    }
    warena_reset(&g->scratch);
    g->ac.now = wexec_now(op->ctx);
    table_prepare(g, in->nrows);
    assign_slots(g, in);
    if (g->fast) {
        process_fast(g, in);
    } else {
        load_slots_general(g, in);
        process_general(g, in);
        g->ac.row_keys = NULL;              /* they were the chunk's (scratch) */
        g->ac.row_where = NULL;
        flush_out(g);       /* first: its rows may point at cached strings write_back replaces */
        write_back(g, in);
    }
    flush_out(g);
}

/* The state's sizes: every key is in state (a key is written when it is first cached); the
   bytes of a cached key's accumulators are those last written back (cache_flush: at checkpoints,
   when the cache empties and at the end of the input), not flushed here, every 100 ms (a flush of
   65,536 keys per publication took half of the time of a 100K-key aggregation). */
static void ga_metrics(WOperator *op, WOpMetrics *m)
{
    GroupAgg *g = (GroupAgg *)op;
    wop_metrics_agg_state(m, g->backend, g->state_name);
    wop_metrics_value(m, "ttlExpiredRecords", g->ttl_expired);
    if (g->dropped) wop_metrics_value(m, "droppedRetractions", g->dropped);
}

/* Before the lane's state is snapshotted: the cached accumulators written back. */
static void ga_pre_snapshot(WOperator *op) { cache_flush((GroupAgg *)op); }

static void ga_destroy(WOperator *op)
{
    GroupAgg *g = (GroupAgg *)op;
    wacc_cache_free(&g->cache);
    wacc_ctx_free(&g->ac);
    wacc_layout_free(g->L);
    wstate_backend_free(g->backend);
    warena_free(&g->scratch);
    wchunk_free(g->out);
    wsb_free(&g->tmp);
    wcg_free(&g->cg);
    free(g->keys);
    free(g->ktypes);
    free(g->fa);
    free(g->tmpl);
    free(g->order);
    free(g->prev_row);
    free(g->first);
    free(g->vals_buf);
    free(g->vn_buf);
    free(g->init);
    free(g->initn);
    free(g->prev);
    free(g->cur);
    free(g->prevn);
    free(g->curn);
    free(g->state_name);
    free(g);
}

/* The end of the input: a global aggregate in batch mode whose input came to no rows (none came,
   or those that came were retracted again, as an EXCEPT's anti join does: its group was removed)
   answers with one row of the aggregates' values over no rows (COUNT 0, SUM/MIN/MAX/AVG NULL),
   as Flink's batch aggregate does; the streaming one answers nothing (both measured on Flink 2.3). */
static void ga_end(WOperator *op)
{
    GroupAgg *g = (GroupAgg *)op;
    bool none = false;
    cache_flush(g);                 /* the state is complete at the end (a final checkpoint) */
    if (g->empty_input_row && !op->ctx->err->set) {
        assert(g->nkeys == 0 && g->key_fixed);
        uint64_t h = encode_key(g, NULL, 0, &g->tmp);       /* the empty key: no column is read */
        wstate_set_key_hashed(g->backend, g->tmp.buf, g->tmp.len, h);
        WBytes cur;
        none = wvalue_get(g->acc_state, &cur) != WSL_FOUND;
    }
    if (none) {
        int nf = g->L->nfields;
        WDatum *acc = WA_ARRAY(&g->scratch, WDatum, nf ? nf : 1);
        uint8_t *nulls = WA_ARRAY(&g->scratch, uint8_t, nf ? nf : 1);
        wacc_create(g->L, acc, nulls);
        wacc_get_value(&g->ac, acc, nulls, g->cur, g->curn);
        emit_row(g, WRK_INSERT, NULL, 0, g->cur, g->curn);
        flush_out(g);
    }
    wop_emit_end(op);
}

static const WOpOps GA_OPS = {.process = ga_process, .end_input = ga_end, .destroy = ga_destroy, .metrics = ga_metrics,
                              .pre_snapshot = ga_pre_snapshot};

static bool fast_arg_type(const WType *t)
{
    switch (t->id) {
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT: case WT_DOUBLE: case WT_DECIMAL: return true;
    default: return false;
    }
}

/* Insert-only COUNT/SUM/SUM0/MIN/MAX/AVG over integers and doubles, no DISTINCT. */
static bool setup_fast(GroupAgg *g, const WGroupAggSpec *spec)
{
    if (spec->input_retracts) return false;
    const WAccLayout *L = g->L;
    FAgg *fa = wcalloc((size_t)(spec->naggs ? spec->naggs : 1), sizeof(FAgg));
    for (int i = 0; i < spec->naggs; i++) {
        const WAggCall *c = &spec->aggs[i];
        const WAccAgg *ag = &L->aggs[i];
        if (c->distinct) goto no;
        FOp op;
        switch (c->kind) {
        case WAGG_COUNT_STAR: op = F_COUNT_STAR; break;
        case WAGG_COUNT: op = F_COUNT; break;
        case WAGG_SUM: op = F_SUM; break;
        case WAGG_SUM0: op = F_SUM0; break;
        case WAGG_MIN: op = F_MIN; break;
        case WAGG_MAX: op = F_MAX; break;
        case WAGG_AVG: op = F_AVG; break;
        default: goto no;
        }
        if (op != F_COUNT_STAR && op != F_COUNT && !fast_arg_type(ag->arg_type)) goto no;
        bool dec = op != F_COUNT_STAR && op != F_COUNT && ag->arg_type->id == WT_DECIMAL;
        fa[i] = (FAgg){.op = op, .dbl = ag->arg_type && ag->arg_type->id == WT_DOUBLE, .dec = dec, .voff = -1,
                       .ascale = dec ? ag->arg_type->scale : 0, .rscale = dec ? ag->res_type->scale : 0,
                       .arg = ag->arg, .filter = ag->filter_col, .f = ag->off, .wrap = wrap_shift(ag->res_type)};
        assert(!dec || L->ftypes[ag->off]->id == WT_DECIMAL);
        if (op == F_COUNT_STAR && c->filter_col < 0) g->always_changes = true;
    }
    for (int i = 0; i < L->nfields; i++)
        if (L->ftypes[i]->id != WT_BIGINT && L->ftypes[i]->id != WT_DOUBLE && L->ftypes[i]->id != WT_DECIMAL)
            goto no;
    g->fa = fa;
    g->fast = true;
    g->hdr = wrow_fixed_size(L->nfields) - 8 * (size_t)L->nfields;
    assert(DEC38_MAX == wdecimal_max(38));
    WDatum *acc = wcalloc((size_t)L->nfields, sizeof(WDatum));
    uint8_t *nl = wcalloc((size_t)L->nfields, 1);
    wacc_create(L, acc, nl);
    wacc_encode(&g->ac, acc, nl, &g->tmp);
    /* the row is the fixed part plus 16 variable-part bytes per non-compact DECIMAL field, whose
       offsets (in their slots) are the same in every row of this layout */
    g->acc_len = g->tmp.len;
    g->tmpl = wmalloc(g->acc_len);
    memcpy(g->tmpl, g->tmp.buf, g->acc_len);
    size_t nwide = 0;
    for (int i = 0; i < L->nfields; i++) if (L->ftypes[i]->id == WT_DECIMAL && L->ftypes[i]->precision > 18) nwide++;
    assert(g->acc_len == wrow_fixed_size(L->nfields) + 16 * nwide);
    for (int i = 0; i < spec->naggs; i++) {
        FAgg *x = &fa[i];
        const WType *ft = x->dec ? L->ftypes[x->f] : NULL;
        if (!ft || ft->precision <= 18) continue;
        uint64_t slot;
        memcpy(&slot, g->tmpl + g->hdr + 8 * (size_t)x->f, 8);
        x->voff = (int)(slot >> 32);
        assert(x->voff >= (int)wrow_fixed_size(L->nfields) && (size_t)x->voff + 16 <= g->acc_len);
    }
    free(acc);
    free(nl);
    return true;
no:
    free(fa);
    return false;
}

WOperator *wop_group_agg_new(WExecCtx *ctx, const WGroupAggSpec *spec)
{
    for (int k = 0; k < spec->nkeys; k++) {
        if (spec->keys[k] < 0 || spec->keys[k] >= spec->in_ncols) {
            werr_set(ctx->err, WEXC_TABLE, "GroupAggregate: grouping key column %d out of range", spec->keys[k]);
            return NULL;
        }
    }
    for (int i = 0; i < spec->naggs; i++) {
        const WAggCall *c = &spec->aggs[i];
        for (int k = 0; k < c->nargs; k++)
            if (c->args[k] < 0 || c->args[k] >= spec->in_ncols) {
                werr_set(ctx->err, WEXC_TABLE, "GroupAggregate: argument column %d of %s out of range",
                         c->args[k], c->name ? c->name : "?");
                return NULL;
            }
        if (c->filter_col >= spec->in_ncols) {
            werr_set(ctx->err, WEXC_TABLE, "GroupAggregate: FILTER column %d out of range", c->filter_col);
            return NULL;
        }
    }
    if (spec->out.ncols != spec->nkeys + spec->naggs) {
        werr_set(ctx->err, WEXC_TABLE, "GroupAggregate: output has %d columns, expected %d",
                 spec->out.ncols, spec->nkeys + spec->naggs);
        return NULL;
    }
    GroupAgg *g = wcalloc(1, sizeof *g);
    wop_init(&g->base, &GA_OPS, ctx, 1, spec->out.ncols, spec->out.types, spec->out.names);
    g->base.name = "GroupAggregate";
    g->nkeys = spec->nkeys;
    g->keys = wmalloc(sizeof(int) * (size_t)(spec->nkeys ? spec->nkeys : 1));
    g->ktypes = wmalloc(sizeof(WType *) * (size_t)(spec->nkeys ? spec->nkeys : 1));
    g->kmode = KM_DATUM;
    for (int k = 0; k < spec->nkeys; k++) {
        g->keys[k] = spec->keys[k];
        g->ktypes[k] = spec->in_types[spec->keys[k]];
        if (wtype_is_composite(g->ktypes[k])) g->kmode = KM_ENCODED;
    }
    g->key_fixed = wrow_types_inline(spec->nkeys, g->ktypes);
    if (spec->nkeys == 1 && g->kmode == KM_DATUM) {
        switch (g->ktypes[0]->id) {
        case WT_BOOLEAN: case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
        case WT_DATE: case WT_TIME: case WT_INTERVAL_YM: case WT_INTERVAL_DT:
            g->kmode = KM_INT1;
            break;
        default: break;
        }
    }
    g->in_types = spec->in_types;
    g->naggs = spec->naggs;
    g->input_retracts = spec->input_retracts;
    g->gen_ub = spec->generate_update_before;
    g->empty_input_row = spec->empty_input_row && spec->nkeys == 0;
    g->ttl_ms = spec->ttl_ms > 0 ? spec->ttl_ms : 0;
    g->state_name = wstrdup(spec->state_name ? spec->state_name : "groupAggregateState");
    warena_init(&g->scratch, 0);
    wcg_init(&g->cg, sizeof(Slot));
    wsb_init(&g->tmp);
    g->backend = wexec_new_backend(ctx, "GroupAggregate");
    g->acc_state = wstate_register(g->backend, g->state_name, WSTATE_VALUE, g->ttl_ms);
    g->L = wacc_layout_new(spec->aggs, spec->naggs, spec->in_types, spec->input_retracts, g->backend,
                           g->state_name, g->ttl_ms, ctx->err);
    int na = spec->naggs ? spec->naggs : 1;
    g->prev = wcalloc((size_t)na, sizeof(WDatum));
    g->cur = wcalloc((size_t)na, sizeof(WDatum));
    g->prevn = wcalloc((size_t)na, 1);
    g->curn = wcalloc((size_t)na, 1);
    g->out = wchunk_new(spec->out.ncols, spec->out.types, ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP);
    if (!g->L) {
        wop_free(&g->base);
        return NULL;
    }
    wacc_ctx_init(&g->ac, g->L, &g->scratch);
    g->ac.cast = ctx->cast;
    g->ac.err = ctx->err;
    setup_fast(g, spec);
    g->cache_on = !g->fast && g->ttl_ms == 0 &&
                  wacc_cache_supports(g->nkeys, g->ktypes, g->L->nfields, g->L->ftypes);
    if (g->cache_on) wacc_cache_init(&g->cache, g->nkeys, g->ktypes, g->L->nfields, g->L->ftypes, ACC_CACHE_MAX);
    return &g->base;
}
