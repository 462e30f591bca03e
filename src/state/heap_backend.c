/*
 * heap_backend.c — the `hashmap` state backend: keyed state in memory, in open-addressing hash
 * tables of byte keys (linear probing, backward-shift deletion). An entry is one allocation: its
 * key with the value inline behind it (value state, map user entries), so a lookup touches the
 * slot and the entry only; what only some entries need sits before the entry's header (the write
 * time when the state keeps times, the pointer to a key's map or list table); the get-for-update refs (wvalue_ref, and wmap_ref for a map's user
 * entry, without TTL) update the entries they found, and a caller may pass the key's hash along
 * (wstate_set_key_hashed). Map state keeps a key's one user entry in the key's entry, and a table
 * of user entries per key from the second on (KeyMap); list state a growable array per key. TTL timestamps are kept per entry and
 * checked on every read; 5 slots are inspected per access for incremental cleanup (Flink's
 * incremental cleanup default). See state.h for the contract.
 *
 * The operations are wheap_state_ops (backend_internal.h), reached through backend.c, which owns
 * the objects; this file keeps the heap's side of them (the table in each state, the pool in the
 * backend). The heap side of full snapshots and restores is at the end.
 */
#include "backend_internal.h"
#include "prefetch.h"
#include "pool.h"
#include "../common/arena.h"
#include "../common/hash.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#define CLEANUP_PER_ACCESS 5

typedef WHeapEntry Entry;
typedef WHeapTable HTab;
typedef WPool Pool;

typedef struct ListVal {
    int n, cap;
    WBytes *items;          /* copies in the backend's pool (list_append) */
} ListVal;

/* One allocation per entry: the header, the key, and (value state, map user entries) the value
   inline after the key, padded so that the value starts 8-byte aligned (operators update
   accumulator rows of 8-byte slots in place through wvalue_ref_reserve). In front of the header,
   only where needed (entry_prefix):
     [table: the key's map or list table; top entries of map and list state]
     [time: the last write (ms); every entry of a state that keeps times (s->entry_times)]
     header (hash, klen, vlen), key, value
   so that a value state without TTL spends 16 bytes of header per key, not 32 (millions of keys:
   issue 16's bytes per key). */
struct WHeapEntry {
    uint64_t hash;
    uint32_t klen, vlen;
    unsigned char key[];    /* klen bytes, padding to 8, then vlen bytes of value */
};

#define VAL_OFF(klen) (((size_t)(klen) + 7) & ~(size_t)7)

static inline uint64_t key_word(const unsigned char *p) { uint64_t w; memcpy(&w, p, 8); return w; }

/* The n bytes at a and b are equal: keys of 8-64 bytes (a BIGINT's or an INT pair's binary row, a
   DISTINCT value, a row of a few short strings) word by word, the last word overlapping, instead
   of a call to memcmp per probe. */
static inline bool key_equal(const unsigned char *a, const void *bv, size_t n)
{
    const unsigned char *b = bv;
    if (n >= 8 && n <= 64) {
        for (size_t i = 0; i + 8 < n; i += 8)
            if (key_word(a + i) != key_word(b + i)) return false;
        return key_word(a + n - 8) == key_word(b + n - 8);
    }
    return memcmp(a, b, n) == 0;
}
static inline unsigned char *eval(Entry *e) { return e->key + VAL_OFF(e->klen); }
static inline size_t entry_size(size_t klen, size_t vlen) { return sizeof(Entry) + VAL_OFF(klen) + vlen; }

/* The bytes in front of an entry of s (top: an entry of s's own table, not a map's user entry). */
static inline size_t entry_prefix(const WState *s, bool top)
{
    return 8 * ((size_t)s->entry_times + (top && s->kind != WSTATE_VALUE));
}

/* The entry's last write time; 0 in a state that keeps none. */
static inline int64_t entry_time(const WState *s, const Entry *e)
{
    int64_t t = 0;
    if (s->entry_times) memcpy(&t, (const unsigned char *)e - 8, 8);
    return t;
}

static inline void entry_stamp(const WState *s, Entry *e, int64_t t)
{
    if (s->entry_times) memcpy((unsigned char *)e - 8, &t, 8);
}

/* The table of a top entry of map or list state. */
static inline void *entry_table(const WState *s, const Entry *e)
{
    assert(s->kind != WSTATE_VALUE);
    void *t;
    memcpy(&t, (const unsigned char *)e - 8 - 8 * (size_t)s->entry_times, sizeof t);
    return t;
}

static inline void entry_set_table(const WState *s, Entry *e, void *t)
{
    assert(s->kind != WSTATE_VALUE);
    memcpy((unsigned char *)e - 8 - 8 * (size_t)s->entry_times, &t, sizeof t);
}

static inline ListVal *entry_list(const WState *s, const Entry *e) { assert(s->kind == WSTATE_LIST); return entry_table(s, e); }

/* ---- a key's map of user entries ----
   The table word of a map state's top entry (in front of its header, entry_table's place) is 0
   while the key's map is empty, the tagged slot (slot_of) of its user entry while it holds one,
   and the address of a table of its own with bit 0 set from the second entry on (the table then
   stays until its key goes). Most keys of a join's record state hold one row, and a key's table
   and first slots are 64 bytes and a dependent load more per lookup. KeyMap gives both forms the
   one interface of a table: for one entry a one-slot view of the word itself, so that emptying
   the slot (htab_remove_at) or re-pointing it (resize_val) updates the word. */
#define MAP_TABLE_BIT ((uintptr_t)1)
typedef struct KeyMap {
    HTab *t;            /* the key's table, or &one */
    HTab one;           /* the view of the word: cap 1, slots = the word */
    bool tag;           /* its home slots are wslot_home's (an order-free map, tab_home) */
} KeyMap;

static inline uintptr_t *map_word(const WState *s, Entry *e)
{
    assert(s->kind == WSTATE_MAP);
    return (uintptr_t *)(void *)((unsigned char *)e - 8 - 8 * (size_t)s->entry_times);
}

/* The table of word w (a map's table word, above) of state s through km. */
static inline HTab *keymap_of_word(const WState *s, uintptr_t *w, KeyMap *km)
{
    km->tag = s->order_free;
    if (*w & MAP_TABLE_BIT) {
        km->t = (HTab *)(*w & ~MAP_TABLE_BIT);
    } else {
        km->one = (HTab){.cap = 1, .n = *w != 0, .slots = w};
        km->t = &km->one;
    }
    return km->t;
}

static inline HTab *keymap_open(const WState *s, Entry *e, KeyMap *km) { return keymap_of_word(s, map_word(s, e), km); }
static inline bool keymap_single(const KeyMap *km) { return km->t == &km->one; }

/* A table's slots are tagged (common/hash.h: wslot_make): htab_find passes the slots of other
   hashes without loading their entries. */
static inline uintptr_t slot_of(const Entry *e)
{
    assert(e && (uintptr_t)e >> WSLOT_TAG_SHIFT == 0);
    return wslot_make(e, e->hash);
}
static inline Entry *htab_at(const HTab *t, size_t i) { return wslot_ptr(t->slots[i]); }

/* The home slot of hash h in a table of mask + 1 slots: the low bits, or (tag: the key maps of an
   order-free map state, wmap_set_order_free) wslot_home's, which grows a small table and deletes
   from it reading its slots only. A state's own table and the maps whose order a query sees (a
   join's records, emitted in their table's order) keep the low bits: the tag's form orders
   entries otherwise. */
static inline size_t tab_home(bool tag, uint64_t h, size_t mask)
{
    return tag ? wslot_home(h, mask) : (size_t)h & mask;
}

/* Entries with their values, per-key map tables and list items come from the backend's pool
   (pool.h). A value that grows (a Top-N's buffer of rows) moves only when it leaves its size
   class (Nexmark q19 on the generator, p=1: 10 % less user time; it malloc'd each buffer that had
   outgrown 1 KiB); a key's slot array over WPOOL_MAX bytes is a big allocation (key_slots_new). */

WStateBackend *wstate_heap_new(const WStateBackendConfig *cfg) { return wstate_backend_new(cfg, &wheap_state_ops); }

/* weir.state.memory-limit: after a write that grew the state, the bytes of every state of the
   backend against the limit (a handful of states: cheaper than a second running total). Passing it
   fails the job with an error naming the operator instead of growing until the kernel kills the
   process. */
static void check_memory_limit(WState *s)
{
    WStateBackend *b = s->b;
    if (!b->cfg.memory_limit || b->over_limit || !b->cfg.limit_err) return;
    int64_t total = 0;
    for (int i = 0; i < b->nstates; i++) total += b->states[i]->bytes;
    if (total <= b->cfg.memory_limit) return;
    b->over_limit = true;
    if (!b->cfg.limit_err->set)
        werr_set(b->cfg.limit_err, WEXC_RUNTIME,
                 "The keyed state of operator %s holds %lld bytes, more than weir.state.memory-limit (%lld bytes). "
                 "Raise the limit, give the state a TTL (table.exec.state.ttl), or use the rocksdb state backend, "
                 "which keeps state on disk.",
                 b->cfg.operator_name ? b->cfg.operator_name : "(unnamed)", (long long)total,
                 (long long)b->cfg.memory_limit);
}

/* ---- entries and tables ---- */

/* A new entry of s (top: of its own table, else a user entry of a key's map) with room for vlen
   bytes of value (not initialised); its time 0, its table NULL. */
static Entry *entry_new(WState *s, bool top, uint64_t h, const void *k, size_t klen, size_t vlen)
{
    size_t pre = entry_prefix(s, top);
    unsigned char *m = wpool_alloc(&s->b->pool, pre + entry_size(klen, vlen));
    memset(m, 0, pre);
    Entry *e = (Entry *)(void *)(m + pre);
    e->hash = h;
    e->klen = (uint32_t)klen;
    e->vlen = (uint32_t)vlen;
    memcpy(e->key, k, klen);
    return e;
}

/* A key's map table's slot array of cap slots (not initialised): from the pool's classes up to
   WPOOL_MAX bytes, malloc'd beyond (pool_big_alloc), not from the wide classes. The DISTINCT maps of
   many keys grow together, and each array a table leaves behind would wait in its class for a
   table that never grows to that size again, where malloc merges it with its neighbours (Nexmark
   q16: 813 MB peak against 704 MB). */
static uintptr_t *key_slots_new(Pool *pool, size_t cap)
{
    size_t n = sizeof(uintptr_t) * cap;
    return n <= WPOOL_MAX ? wpool_alloc(pool, n) : wpool_big_alloc(pool, n);
}

static void key_slots_free(Pool *pool, uintptr_t *slots, size_t cap)
{
    size_t n = sizeof(uintptr_t) * cap;
    if (n <= WPOOL_MAX) wpool_free(pool, slots, n);
    else wpool_big_free(pool, slots);
}

static void htab_free(WState *s, HTab *t, bool top, bool sub);

static void entry_free(WState *s, Entry *e, bool top)
{
    Pool *pool = &s->b->pool;
    if (top && s->kind == WSTATE_MAP) {
        KeyMap km;
        HTab *m = keymap_open(s, e, &km);
        if (!keymap_single(&km)) {
            htab_free(s, m, false, true);
            wpool_free(pool, m, sizeof(HTab));
            s->maps_freed++;
        } else if (m->n) {
            entry_free(s, htab_at(m, 0), false);
        }
    }
    if (top && s->kind == WSTATE_LIST && entry_list(s, e)) {
        ListVal *l = entry_list(s, e);
        for (int i = 0; i < l->n; i++) wpool_free(pool, (void *)l->items[i].p, l->items[i].len);
        free(l->items);
        free(l);
    }
    size_t pre = entry_prefix(s, top);
    wpool_free(pool, (unsigned char *)e - pre, pre + entry_size(e->klen, e->vlen));
}

/* The entries of table t of s (top: s's own table, else a key's map) and its slots (sub: a
   per-key map table, whose slot array comes from the pool). */
static void htab_free(WState *s, HTab *t, bool top, bool sub)
{
    for (size_t i = 0; i < t->cap; i++) if (htab_at(t, i)) entry_free(s, htab_at(t, i), top);
    if (sub) key_slots_free(&s->b->pool, t->slots, t->cap);
    else free(t->slots);
    memset(t, 0, sizeof *t);
}

static inline __attribute__((always_inline)) size_t htab_find(const HTab *t, bool tag, uint64_t h, const void *k, size_t klen)
{
    if (!t->cap) return SIZE_MAX;
    size_t mask = t->cap - 1;
    for (size_t i = tab_home(tag, h, mask);; i = (i + 1) & mask) {
        uintptr_t v = t->slots[i];
        if (!v) return SIZE_MAX;
        if (!wslot_may_hold(v, h)) continue;         /* another hash: its entry is not touched */
        const Entry *e = wslot_ptr(v);
        if (e->hash == h && e->klen == klen && key_equal(e->key, k, klen)) return i;
    }
}

/* A key's (empty) table of user entries with its first slots, in one pool block: the pool keeps
   no headers, so the table and its slot array are freed as the two allocations they would have
   been (the slots when the table grows or goes, the table with its key). */
#define MAP_FIRST_SLOTS 4
static HTab *map_table_new(Pool *pool)
{
    _Static_assert(sizeof(HTab) % WPOOL_GRAIN == 0, "the slots start on a pool class boundary");
    HTab *t = wpool_zalloc(pool, sizeof(HTab) + sizeof(uintptr_t) * MAP_FIRST_SLOTS);
    t->slots = (uintptr_t *)(void *)(t + 1);
    t->cap = MAP_FIRST_SLOTS;
    return t;
}

/* Slot v into the first empty slot from home j on (linear probing) of slots (mask + 1 of them). */
static inline void slot_place(uintptr_t *slots, size_t mask, size_t j, uintptr_t v)
{
    while (slots[j]) j = (j + 1) & mask;
    slots[j] = v;
}

/* pool: NULL for a state's top table (malloc), the backend's pool for per-key map tables; tag:
   the table's home slots are wslot_home's (tab_home) */
static void htab_grow(Pool *pool, HTab *t, bool tag)
{
    size_t ncap = t->cap ? t->cap * 2 : MAP_FIRST_SLOTS;   /* small: map state keeps a table per key */
    uintptr_t *ns = pool ? key_slots_new(pool, ncap) : wmalloc(sizeof(uintptr_t) * ncap);
    if (!pool) wmem_prefault(ns, sizeof(uintptr_t) * ncap);    /* a top table's pages at once */
    memset(ns, 0, sizeof(uintptr_t) * ncap);
    size_t nmask = ncap - 1;
    if (tag && nmask < WSLOT_TAG_HOME_CAP) {    /* the homes from the slots' tags (wslot_home) */
        for (size_t i = 0; i < t->cap; i++) {
            uintptr_t v = t->slots[i];
            if (!v) continue;
            size_t j = wslot_home_of(v, nmask, offsetof(Entry, hash));
            slot_place(ns, nmask, j, v);
        }
    } else {
        /* each entry's hash is read from the entry (a cache miss each in a large table: 7 % of a
           5M-row join's CPU went to growing its tables), so the entries GROW_AHEAD slots on are
           read ahead, and the new slots of those half as far on */
        enum { GROW_AHEAD = 64 };
        for (size_t i = 0; i < t->cap; i++) {
            if (i + GROW_AHEAD < t->cap && t->slots[i + GROW_AHEAD]) __builtin_prefetch(wslot_ptr(t->slots[i + GROW_AHEAD]));
            if (i + GROW_AHEAD / 2 < t->cap && t->slots[i + GROW_AHEAD / 2])
                __builtin_prefetch(&ns[tab_home(tag, ((const Entry *)wslot_ptr(t->slots[i + GROW_AHEAD / 2]))->hash, nmask)], 1);
            uintptr_t v = t->slots[i];
            if (!v) continue;
            size_t j = tab_home(tag, ((const Entry *)wslot_ptr(v))->hash, nmask);
            slot_place(ns, nmask, j, v);
        }
    }
    if (pool) key_slots_free(pool, t->slots, t->cap);
    else free(t->slots);
    t->slots = ns;
    t->cap = ncap;
}

static size_t htab_insert(Pool *pool, HTab *t, bool tag, Entry *e)
{
    if ((t->n + 1) * 4 > t->cap * 3) htab_grow(pool, t, tag);
    size_t mask = t->cap - 1, i = tab_home(tag, e->hash, mask);
    while (t->slots[i]) i = (i + 1) & mask;
    t->slots[i] = slot_of(e);
    t->n++;
    return i;
}

/* Entry e into s's own table; its slot. An insert moves no other entry, growth moves them all
   (top_gen: the hints of other keys stay valid across inserts). */
static size_t top_insert(WState *s, Entry *e)
{
    size_t cap = s->tab.cap, i = htab_insert(NULL, &s->tab, false, e);
    if (s->tab.cap != cap) s->top_gen++;
    return i;
}

/* Remove slot i with backward-shift deletion; returns the removed entry. */
static Entry *htab_remove_at(HTab *t, bool tag, size_t i)
{
    Entry *gone = htab_at(t, i);
    wslot_remove_at(t->slots, t->cap - 1, i, offsetof(Entry, hash), tag);
    t->n--;
    return gone;
}

/* As htab_find (a full one-slot view would never end htab_find's probe loop). */
static size_t keymap_find(const KeyMap *km, uint64_t h, const void *k, size_t klen)
{
    if (!keymap_single(km)) return htab_find(km->t, km->tag, h, k, klen);
    uintptr_t v = km->one.slots[0];
    if (!v || !wslot_may_hold(v, h)) return SIZE_MAX;
    const Entry *u = wslot_ptr(v);
    return u->hash == h && u->klen == klen && key_equal(u->key, k, klen) ? 0 : SIZE_MAX;
}

/* Insert user entry u (absent from the map) into km, the map of a top entry of s; returns its
   slot in km->t. The second entry moves both into a table of their own. */
static size_t keymap_insert(WState *s, KeyMap *km, Entry *u)
{
    Pool *pool = &s->b->pool;
    if (!keymap_single(km)) return htab_insert(pool, km->t, km->tag, u);
    uintptr_t *w = km->one.slots;
    if (!*w) {
        *w = slot_of(u);
        km->one.n = 1;
        return 0;
    }
    HTab *t = map_table_new(pool);
    htab_insert(pool, t, km->tag, wslot_ptr(*w));
    size_t i = htab_insert(pool, t, km->tag, u);
    assert(((uintptr_t)t & MAP_TABLE_BIT) == 0);
    *w = (uintptr_t)t | MAP_TABLE_BIT;
    km->t = t;
    return i;
}

/* The clock for a state's timestamps: only read when the state has a TTL (a clock read per
   access is measurable on the hot path, and write times matter only for TTL). */
static inline int64_t state_now(const WState *s)
{
    return s->ttl > 0 ? wstate_now(s->b) : 0;
}

static bool expired(const WState *s, const Entry *e, int64_t now)
{
    assert(s->ttl <= 0 || s->entry_times);
    return s->ttl > 0 && now - entry_time(s, e) >= s->ttl;
}

static size_t entry_bytes(const WState *s, const Entry *e)
{
    (void)s;
    return e->klen + e->vlen;
}

static void account_remove(WState *s, Entry *e)
{
    if (s->kind == WSTATE_MAP) {
        KeyMap km;
        HTab *m = keymap_open(s, e, &km);
        for (size_t i = 0; i < m->cap; i++)
            if (htab_at(m, i)) { s->entries--; s->bytes -= htab_at(m, i)->klen + htab_at(m, i)->vlen; }
        s->bytes -= e->klen;
        return;
    }
    if (s->kind == WSTATE_LIST && entry_list(s, e)) {
        const ListVal *l = entry_list(s, e);
        for (int i = 0; i < l->n; i++) s->bytes -= (int64_t)l->items[i].len;
    }
    s->entries--;
    s->bytes -= (int64_t)entry_bytes(s, e);
}

/* For map state an entry "expires" when all its user entries did; handled per user entry. */
static void cleanup_step(WState *s, int64_t now)
{
    if (s->ttl <= 0 || !s->tab.cap) return;
    HTab *t = &s->tab;
    for (int k = 0; k < CLEANUP_PER_ACCESS; k++) {
        size_t i = t->cursor & (t->cap - 1);
        t->cursor = i + 1;
        Entry *e = htab_at(t, i);
        if (!e) continue;
        if (s->kind == WSTATE_MAP) {
            KeyMap km;
            HTab *m = keymap_open(s, e, &km);
            for (size_t q = 0; q < m->cap; q++) {
                Entry *u = htab_at(m, q);
                if (u && expired(s, u, now)) {
                    s->entries--;
                    s->expired++;
                    s->bytes -= u->klen + u->vlen;
                    entry_free(s, htab_remove_at(m, km.tag, q), false);
                    q--;    /* re-check the slot the shift filled */
                }
            }
            if (m->n == 0) {
                s->bytes -= e->klen;
                entry_free(s, htab_remove_at(t, false, i), true);
                s->top_gen++;
                t->cursor = i;
            }
        } else if (expired(s, e, now)) {
            s->expired++;
            account_remove(s, e);
            entry_free(s, htab_remove_at(t, false, i), true);
            s->top_gen++;
            t->cursor = i;  /* the shift may have moved another entry here */
        }
    }
}

/* ---- backend ---- */

/* Everything of the backend's states goes with the pool's release (its blocks and its list of big
   allocations): entries, values, keys' map tables and their slot arrays, list items, without a walk
   over the entries; a list state's keys are visited for their item arrays and headers (malloc'd).
   At the end of a job with millions of COUNT(DISTINCT ...) values, freeing entry by entry was 2-3 %
   of Nexmark q16's CPU. */
static void heap_free_backend(WStateBackend *b)
{
    for (int i = 0; i < b->nstates; i++) {
        WState *s = b->states[i];
        if (s->kind == WSTATE_LIST) {
            for (size_t j = 0; j < s->tab.cap; j++) {
                Entry *e = htab_at(&s->tab, j);
                ListVal *l = e ? entry_list(s, e) : NULL;
                if (!l) continue;
                free(l->items);
                free(l);
            }
        }
        free(s->tab.slots);
        memset(&s->tab, 0, sizeof s->tab);
        s->top_gen++;
    }
    wpool_release(&b->pool);
}

static void heap_add_state(WState *s) { (void)s; }     /* an empty table: zeroed with the state */
/* A restored state's entries kept their times (entries_begin), whatever TTL it adopts. */
static void heap_adopt_ttl(WState *s, int64_t ttl) { assert(s->tab.n == 0 || s->entry_times); (void)s; (void)ttl; }

/* s became order-free (tab_home): each key's table of user entries (restored before) is placed
   anew by the tag's homes. */
static void heap_order_freed(WState *s)
{
    assert(s->kind == WSTATE_MAP && s->order_free);
    for (size_t ti = 0; ti < s->tab.cap; ti++) {
        Entry *e = htab_at(&s->tab, ti);
        if (!e) continue;
        KeyMap km;
        HTab *m = keymap_open(s, e, &km);
        if (keymap_single(&km)) continue;
        uintptr_t *old = wmalloc(sizeof(uintptr_t) * m->cap);
        memcpy(old, m->slots, sizeof(uintptr_t) * m->cap);
        memset(m->slots, 0, sizeof(uintptr_t) * m->cap);
        size_t mask = m->cap - 1;
        for (size_t i = 0; i < m->cap; i++) {
            if (!old[i]) continue;
            size_t j = tab_home(true, ((const Entry *)wslot_ptr(old[i]))->hash, mask);
            slot_place(m->slots, mask, j, old[i]);
        }
        free(old);
    }
}

/* A restored state registered with another kind: its entries are dropped, so that the state
   works with its new kind (the backend's sticky error reports the change). */
static void heap_kind_changed(WState *s, WStateKind kind, const char *msg)
{
    (void)msg;
    htab_free(s, &s->tab, true, false);
    s->top_gen++;
    s->kind = kind;
    s->entries = s->bytes = 0;
}

static void heap_key_set(WStateBackend *b, const void *key, size_t len, bool hashed, uint64_t hash)
{
    b->khash = hashed ? hash : wstate_key_hash(key, len);
    b->key_group = -1;
}

static bool heap_failed(const WStateBackend *b, WError *err) { (void)b; (void)err; return false; }
static void heap_compact(WStateBackend *b) { (void)b; }

/* Find the current key's top entry; removes it when expired (value/list). */
static inline __attribute__((always_inline)) Entry *top_entry(WState *s, int64_t now, WStateLookup *how, size_t *slot)
{
    WStateBackend *b = s->b;
    size_t i = htab_find(&s->tab, false, b->khash, b->key, b->klen);
    if (i == SIZE_MAX) { cleanup_step(s, now); *how = WSL_ABSENT; return NULL; }
    Entry *e = htab_at(&s->tab, i);
    if (s->kind != WSTATE_MAP && expired(s, e, now)) {
        s->expired++;
        account_remove(s, e);
        entry_free(s, htab_remove_at(&s->tab, false, i), true);
        s->top_gen++;
        s->expired_reads++;
        *how = WSL_EXPIRED;
        return NULL;
    }
    *how = WSL_FOUND;
    if (slot) *slot = i;
    /* incremental cleanup after the lookup, so that an access reports the expiry of its own key;
       it must not move the entry just found, so it runs only when the table has other slots */
    if (s->ttl > 0 && s->tab.n > 1) {
        size_t before = s->tab.n;
        cleanup_step(s, now);
        if (s->tab.n != before) {
            i = htab_find(&s->tab, false, b->khash, b->key, b->klen);
            if (i == SIZE_MAX) { *how = WSL_ABSENT; return NULL; }
            e = htab_at(&s->tab, i);
            if (slot) *slot = i;
        }
    }
    return e;
}

/* Before a top entry is made: an empty state (no entries of any kind) decides whether its
   entries keep their write time, which only the TTL check and snapshots read. A state restored
   from a snapshot keeps them whatever its TTL (the operator may give it one when it registers). */
static void entries_begin(WState *s)
{
    if (s->tab.n == 0) s->entry_times = s->ttl > 0 || s->from_restore;
}

/* A new top entry (empty value) for the current key, known to be absent; *slot = its slot. */
static Entry *top_entry_insert(WState *s, size_t *slot)
{
    WStateBackend *b = s->b;
    entries_begin(s);
    Entry *e = entry_new(s, true, b->khash, b->key, b->klen, 0);
    *slot = top_insert(s, e);
    if (s->kind == WSTATE_MAP) {
        s->bytes += e->klen;        /* an empty map: its table word 0 (entry_new) */
    } else {
        if (s->kind == WSTATE_LIST) entry_set_table(s, e, wcalloc(1, sizeof(ListVal)));
        s->entries++;
        s->created++;
        s->bytes += e->klen;
    }
    return e;
}

/* The current key's top entry, created (empty value) when absent; *slot = its slot. */
static Entry *top_entry_create(WState *s, int64_t now, size_t *slot)
{
    WStateLookup how;
    Entry *e = top_entry(s, now, &how, slot);
    return e ? e : top_entry_insert(s, slot);
}

/* Make the value of the entry in slot i of t (s's own table of value state, or a key's map) len
   bytes long (its first bytes kept); the entry moves to a new block when its size class changes.
   Returns the entry. */
static Entry *resize_val(WState *s, HTab *t, size_t i, size_t len)
{
    bool top = t == &s->tab;
    assert(!top || s->kind == WSTATE_VALUE);
    Pool *pool = &s->b->pool;
    Entry *e = htab_at(t, i);
    size_t pre = entry_prefix(s, top);
    size_t old = pre + entry_size(e->klen, e->vlen), nw = pre + entry_size(e->klen, len);
    if (!wpool_same_block(old, nw)) {
        unsigned char *n = wpool_alloc(pool, nw);
        memcpy(n, (unsigned char *)e - pre, (old < nw ? old : nw));
        wpool_free(pool, (unsigned char *)e - pre, old);
        e = (Entry *)(void *)(n + pre);
        t->slots[i] = slot_of(e);
    }
    e->vlen = (uint32_t)len;
    return e;
}

/* Set the value of the entry in slot i of t (as resize_val). */
static Entry *set_val(WState *s, HTab *t, size_t i, const void *v, size_t len)
{
    Entry *e = resize_val(s, t, i, len);
    if (len) memcpy(eval(e), v, len);
    return e;
}

/* ---- value ---- */

static WStateLookup heap_value_get(WState *s, WBytes *out)
{
    WStateLookup how;
    Entry *e = top_entry(s, state_now(s), &how, NULL);
    if (!e) { out->p = NULL; out->len = 0; return how; }
    out->p = eval(e);
    out->len = e->vlen;
    return WSL_FOUND;
}

static void heap_value_put(WState *s, const void *v, size_t len)
{
    int64_t now = state_now(s);
    size_t i;
    Entry *e = top_entry_create(s, now, &i);
    s->bytes += (int64_t)len - (int64_t)e->vlen;
    e = set_val(s, &s->tab, i, v, len);
    entry_stamp(s, e, now);
    check_memory_limit(s);
}

/* ---- prefetch hints (prefetch.h) ---- */

/* Read-ahead of a lookup of hash h in t: the first slot it probes, or (entry) the entry of the
   first of its next few slots whose hash bits match (returned). Inlined by force: gcc counts a
   prefetch as no side effect, so a call whose result is unused would be dropped as pure (and
   was: heap_prefetch_slot compiled to a bare return). */
static inline __attribute__((always_inline)) const Entry *htab_prefetch(const HTab *t, bool tag, uint64_t h, bool entry)
{
    if (!t->cap) return NULL;
    size_t mask = t->cap - 1, i = tab_home(tag, h, mask);
    if (!entry) { __builtin_prefetch(&t->slots[i]); return NULL; }
    for (int probe = 0; probe < 4; probe++, i = (i + 1) & mask) {     /* as htab_find probes */
        uintptr_t v = t->slots[i];
        if (!v) return NULL;
        if (wslot_may_hold(v, h)) { __builtin_prefetch(wslot_ptr(v)); return wslot_ptr(v); }
    }
    return NULL;
}

/* Bytes an entry takes beyond its key and value: its slot (at about 2/3 load), header and prefix. */
#define ENTRY_OVERHEAD 48
#define LLC_FALLBACK (32L << 20)    /* when the system does not say */
/* The most of the last-level cache counted on: a socket's L3 is shared with its other cores (and,
   in a VM, with other machines). */
#define LLC_USABLE (128L << 20)

static bool heap_outgrows_cache(const WState *s)
{
#ifdef WEIR_TEST_BUILD
    /* the test build reads ahead at every size, so that every test runs the read-ahead paths (a
       passed-on hash is checked against the key: WASSERT_COSTLY in backend.c's map_ref) */
    (void)s;
    return true;
#endif
    WStateBackend *b = s->b;
    if (!b->cache_bytes) {
        long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
        if (llc <= 0) llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
        b->cache_bytes = llc > 0 ? (llc < LLC_USABLE ? llc : LLC_USABLE) : LLC_FALLBACK;
    }
    return s->bytes + s->entries * ENTRY_OVERHEAD > b->cache_bytes / 2;
}

/* User entries in the maps lookups search from which those maps are read ahead in stages
   (prefetch.h: wmap_outgrows_cache). */
#define MAP_ENTRIES_AHEAD 64.0

static bool heap_map_outgrows_cache(const WState *s, double entries_per_lookup)
{
    if (s->kind != WSTATE_MAP || !heap_outgrows_cache(s)) return false;
#ifdef WEIR_TEST_BUILD
    (void)entries_per_lookup;
    return true;    /* as heap_outgrows_cache: every test runs the read-ahead paths */
#endif
    return entries_per_lookup >= MAP_ENTRIES_AHEAD;
}

static void heap_prefetch_slot(const WState *s, uint64_t hash) { htab_prefetch(&s->tab, false, hash, false); }

static void heap_prefetch_entry(const WState *s, uint64_t hash)
{
    const Entry *e = htab_prefetch(&s->tab, false, hash, true);
    /* a map state's entry was (usually) allocated from the pool together with its first user
       entry, the lines just after it (and its table, when it has one, later): a hint for them too */
    if (e && s->kind == WSTATE_MAP) {
        __builtin_prefetch((const char *)e + 64);
        __builtin_prefetch((const char *)e + 128);
    }
}

/* ---- value: get-for-update (one lookup; see state.h) ---- */

static WStateLookup heap_value_ref(WState *s, WValueRef *r)
{
    size_t i = SIZE_MAX;
    Entry *e = top_entry(s, state_now(s), &r->how, &i);
    r->slot = e ? i : SIZE_MAX;
    if (e) r->cur = (WBytes){eval(e), e->vlen};
    return r->how;
}

static void *heap_value_ref_reserve(WValueRef *r, size_t len)
{
    WState *s = r->s;
    r->len = len;
    int64_t now = state_now(s);
    WStateBackend *b = s->b;
    Entry *e;
    if (r->slot == SIZE_MAX) {
        entries_begin(s);
        e = entry_new(s, true, b->khash, b->key, b->klen, len);
        r->slot = top_insert(s, e);
        s->entries++;
        s->created++;
        s->bytes += (int64_t)(b->klen + len);
    } else {
        e = htab_at(&s->tab, r->slot);
        s->bytes += (int64_t)len - (int64_t)e->vlen;
        if (e->vlen != len) e = resize_val(s, &s->tab, r->slot, len);   /* an update in place: as is */
    }
    entry_stamp(s, e, now);
    r->p = eval(e);
    return r->p;
}

static void heap_value_ref_commit(WValueRef *r) { check_memory_limit(r->s); }

static void heap_value_ref_clear(WValueRef *r)
{
    WState *s = r->s;
    if (r->slot == SIZE_MAX) return;
    account_remove(s, htab_at(&s->tab, r->slot));
    entry_free(s, htab_remove_at(&s->tab, false, r->slot), true);
    s->top_gen++;
    r->slot = SIZE_MAX;
}

/* the current key's value, map or list */
static void heap_clear(WState *s)
{
    WStateBackend *b = s->b;
    size_t i = htab_find(&s->tab, false, b->khash, b->key, b->klen);
    if (i == SIZE_MAX) return;
    account_remove(s, htab_at(&s->tab, i));
    entry_free(s, htab_remove_at(&s->tab, false, i), true);
    s->top_gen++;
}

/* ---- map ---- */

static WStateLookup heap_map_get(WState *s, const void *uk, size_t uklen, WBytes *out)
{
    int64_t now = state_now(s);
    WStateLookup how;
    Entry *e = top_entry(s, now, &how, NULL);
    out->p = NULL;
    out->len = 0;
    if (!e) return how;
    uint64_t h = wmap_key_hash(uk, uklen);
    KeyMap km;
    keymap_open(s, e, &km);
    size_t i = keymap_find(&km, h, uk, uklen);
    if (i == SIZE_MAX) return WSL_ABSENT;
    Entry *u = htab_at(km.t, i);
    if (expired(s, u, now)) {
        s->entries--;
        s->expired++;
        s->bytes -= u->klen + u->vlen;
        entry_free(s, htab_remove_at(km.t, km.tag, i), false);
        s->expired_reads++;
        return WSL_EXPIRED;
    }
    out->p = eval(u);
    out->len = u->vlen;
    return WSL_FOUND;
}

/* Set user key uk (hash h; in slot i of the current key's map table, SIZE_MAX when absent) of
   top entry e to uv: the write of heap_map_put after its lookups. */
static void map_entry_set(WState *s, Entry *e, uint64_t h, size_t i, const void *uk, size_t uklen,
                          const void *uv, size_t uvlen, int64_t now)
{
    Entry *u;
    KeyMap km;
    keymap_open(s, e, &km);
    if (i == SIZE_MAX) {        /* a new user entry, allocated at its final size */
        u = entry_new(s, false, h, uk, uklen, uvlen);
        if (uvlen) memcpy(eval(u), uv, uvlen);
        keymap_insert(s, &km, u);
        s->entries++;
        s->created++;
        s->bytes += (int64_t)(uklen + uvlen);
    } else {
        u = htab_at(km.t, i);
        s->bytes += (int64_t)uvlen - (int64_t)u->vlen;
        u = set_val(s, km.t, i, uv, uvlen);
    }
    entry_stamp(s, u, now);
    check_memory_limit(s);
    entry_stamp(s, e, now);
}

static void heap_map_put(WState *s, const void *uk, size_t uklen, const void *uv, size_t uvlen)
{
    int64_t now = state_now(s);
    size_t ti;
    Entry *e = top_entry_create(s, now, &ti);
    uint64_t h = wmap_key_hash(uk, uklen);
    KeyMap km;
    keymap_open(s, e, &km);
    map_entry_set(s, e, h, keymap_find(&km, h, uk, uklen), uk, uklen, uv, uvlen, now);
}

/* Get-for-update (state.h). With a TTL, heap_map_get, heap_map_put and heap_map_remove (their
   expiry and incremental cleanup, which may move or free entries); without, the lookup's top
   entry and its slot (or that the key has no map yet) and the user entry's slot are kept for the
   write (nothing else may touch s in between). */
static WStateLookup heap_map_ref(WState *s, WMapRef *r)
{
    if (s->ttl > 0) return heap_map_get(s, r->uk, r->uklen, &r->cur);
    WStateLookup how = WSL_ABSENT;
    Entry *e;
    WKeyHint *hint = r->hint;
    if (hint && hint->gen == s->top_gen + 1) {      /* the current key's slot, as found before */
        assert(hint->slot < s->tab.cap && htab_at(&s->tab, hint->slot)->hash == s->b->khash);
        r->tslot = hint->slot;
        e = htab_at(&s->tab, hint->slot);
    } else {
        e = top_entry(s, 0, &how, &r->tslot);
        if (e && hint) *hint = (WKeyHint){s->top_gen + 1, r->tslot};
    }
    r->top = e;
    if (!r->hashed) r->hash = wmap_key_hash(r->uk, r->uklen);
    if (!e) return how;
    KeyMap km;
    keymap_open(s, e, &km);
    r->slot = keymap_find(&km, r->hash, r->uk, r->uklen);
    r->key_entries = (int64_t)km.t->n;
    if (r->slot == SIZE_MAX) return WSL_ABSENT;
    Entry *u = htab_at(km.t, r->slot);
    r->cur = (WBytes){eval(u), u->vlen};
    return WSL_FOUND;
}

static void heap_map_ref_put(WMapRef *r, const void *uv, size_t uvlen)
{
    WState *s = r->s;
    if (s->ttl > 0) { heap_map_put(s, r->uk, r->uklen, uv, uvlen); return; }
    Entry *e = r->top ? r->top : top_entry_insert(s, &r->tslot);
    map_entry_set(s, e, r->hash, r->slot, r->uk, r->uklen, uv, uvlen, state_now(s));   /* as heap_map_put */
}

/* Read-ahead (prefetch.h wmap_prefetch): key's map table (its header: size and slot array), the
   first slot the lookup of ukhash under key probes, or the entry of the first of its next few
   slots whose hash bits match. Key's map table is found in the top table, or taken from `where`
   when no map table was freed since `where` was filled (a table stays where it is while its key
   lives; its slots may move, and are read from it). */
static void heap_map_prefetch(WState *s, const void *key, size_t klen, uint64_t khash,
                              WMapWhere *where, uint64_t ukhash, WMapPrefetch stage)
{
    const HTab *m;
    if (where && where->table && where->gen == s->maps_freed) {
        m = where->table;
    } else {
        size_t ti = htab_find(&s->tab, false, khash, key, klen);
        if (ti == SIZE_MAX) return;
        if (where) where->top = (WKeyHint){s->top_gen + 1, ti};     /* as heap_map_ref's hint */
        KeyMap km;
        m = keymap_open(s, htab_at(&s->tab, ti), &km);
        if (keymap_single(&km)) {       /* the slot is the word just read; not kept in `where` */
            if (stage == WMAP_PREFETCH_ENTRY && m->n) __builtin_prefetch(htab_at(m, 0));
            return;
        }
        if (where) {
            where->table = m;
            where->gen = s->maps_freed;
        }
    }
    if (stage == WMAP_PREFETCH_TABLE) { __builtin_prefetch(m); return; }
    htab_prefetch(m, s->order_free, ukhash, stage == WMAP_PREFETCH_ENTRY);
}

/* Remove the user entry in slot i of the map of the top entry in slot ti (and the top entry
   when its map became empty). */
static void map_remove_at(WState *s, size_t ti, size_t i)
{
    Entry *e = htab_at(&s->tab, ti);
    KeyMap km;
    HTab *m = keymap_open(s, e, &km);
    Entry *u = htab_at(m, i);
    s->entries--;
    s->bytes -= u->klen + u->vlen;
    entry_free(s, htab_remove_at(m, km.tag, i), false);
    if (m->n == 0) {
        s->bytes -= e->klen;
        entry_free(s, htab_remove_at(&s->tab, false, ti), true);
        s->top_gen++;
    }
}

static void heap_map_remove(WState *s, const void *uk, size_t uklen)
{
    WStateBackend *b = s->b;
    size_t ti = htab_find(&s->tab, false, b->khash, b->key, b->klen);
    if (ti == SIZE_MAX) return;
    KeyMap km;
    keymap_open(s, htab_at(&s->tab, ti), &km);
    size_t i = keymap_find(&km, wmap_key_hash(uk, uklen), uk, uklen);
    if (i != SIZE_MAX) map_remove_at(s, ti, i);
}

static void heap_map_ref_remove(WMapRef *r)
{
    WState *s = r->s;
    if (s->ttl > 0) heap_map_remove(s, r->uk, r->uklen);
    else if (r->slot != SIZE_MAX) map_remove_at(s, r->tslot, r->slot);
}

static size_t heap_map_size(WState *s, bool stop_at_first)
{
    (void)stop_at_first;    /* counting a key's table is cheap */
    int64_t now = state_now(s);
    WStateLookup how;
    Entry *e = top_entry(s, now, &how, NULL);
    if (!e) return 0;
    size_t n = 0;
    KeyMap km;
    HTab *m = keymap_open(s, e, &km);
    for (size_t i = 0; i < m->cap; i++) if (htab_at(m, i) && !expired(s, htab_at(m, i), now)) n++;
    return n;
}

static void heap_map_iter(WState *s, WMapIter *it)
{
    WStateLookup how;
    Entry *e = top_entry(s, state_now(s), &how, NULL);
    it->s = s;
    it->table = e ? map_word(s, e) : NULL;     /* its table word: read again at each step */
    it->pos = 0;
}

static bool heap_map_next(WMapIter *it, WBytes *uk, WBytes *uv)
{
    if (!it->table) return false;
    KeyMap km;
    HTab *m = keymap_of_word(it->s, it->table, &km);
    int64_t now = state_now(it->s);
    while (it->pos < m->cap) {
        Entry *u = htab_at(m, it->pos++);
        if (!u || expired(it->s, u, now)) continue;
        uk->p = u->key;
        uk->len = u->klen;
        uv->p = eval(u);
        uv->len = u->vlen;
        return true;
    }
    return false;
}

static void heap_map_iter_remove(WMapIter *it)
{
    if (!it->table || it->pos == 0) return;
    KeyMap km;
    HTab *m = keymap_of_word(it->s, it->table, &km);
    size_t i = it->pos - 1;
    Entry *u = htab_at(m, i);
    if (!u) return;
    it->s->entries--;
    it->s->bytes -= u->klen + u->vlen;
    entry_free(it->s, htab_remove_at(m, km.tag, i), false);
    it->pos = i;    /* the backward shift may have moved an unvisited entry into slot i */
    /* note: an entry that wrapped around from the table start may be visited twice; callers
       only remove entries they decided on, so a second visit sees the same decision */
}

/* ---- list ---- */

/* Append a copy of v (len bytes) to list l of s: items come from the backend's pool (one malloc
   per item before: a window join appends every row of a window to one list). */
static void list_append(WState *s, ListVal *l, const void *v, size_t len)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 4;
        l->items = wrealloc(l->items, sizeof(WBytes) * (size_t)l->cap);
    }
    void *copy = wpool_alloc(&s->b->pool, len);
    if (len) memcpy(copy, v, len);
    l->items[l->n++] = (WBytes){copy, len};
    s->bytes += (int64_t)len;
}

static void heap_list_add(WState *s, const void *v, size_t len)
{
    int64_t now = state_now(s);
    size_t ti;
    Entry *e = top_entry_create(s, now, &ti);
    list_append(s, entry_list(s, e), v, len);
    entry_stamp(s, e, now);
    check_memory_limit(s);
}

static int heap_list_get(WState *s, const WBytes **items, WStateLookup *how)
{
    WStateLookup h;
    Entry *e = top_entry(s, state_now(s), &h, NULL);
    if (how) *how = h;
    if (!e) { *items = NULL; return 0; }
    *items = entry_list(s, e)->items;
    return entry_list(s, e)->n;
}

static void heap_list_remove_at(WState *s, int index)
{
    WStateBackend *b = s->b;
    size_t ti = htab_find(&s->tab, false, b->khash, b->key, b->klen);
    if (ti == SIZE_MAX) return;
    Entry *e = htab_at(&s->tab, ti);
    ListVal *l = entry_list(s, e);
    if (index < 0 || index >= l->n) return;
    s->bytes -= (int64_t)l->items[index].len;
    wpool_free(&s->b->pool, (void *)l->items[index].p, l->items[index].len);
    memmove(&l->items[index], &l->items[index + 1], sizeof(WBytes) * (size_t)(l->n - index - 1));
    l->n--;
    entry_stamp(s, e, state_now(s));
    if (l->n == 0) {
        account_remove(s, e);
        entry_free(s, htab_remove_at(&s->tab, false, ti), true);
        s->top_gen++;
    }
}

static void heap_for_each(WState *s, WStateKeyFn fn, void *ctx)
{
    for (size_t i = 0; i < s->tab.cap; i++) {
        Entry *e = htab_at(&s->tab, i);
        if (e) fn(ctx, (WBytes){e->key, e->klen}, (WBytes){eval(e), e->vlen});
    }
}

/* A key's map or list longer than a step's remaining budget is counted from a sample of at least
   this many of its slots or items (see heap_scan_key_bytes). */
#define SCAN_SAMPLE_MIN 64

/* The bytes a key holds in a map or list state (its entry and its user entries or items), walking
   its n map slots or list items while *budget lasts, at least SCAN_SAMPLE_MIN of them (each
   lowers *budget): exact when that is all of them, else the walked items' bytes scaled to the
   key's count (a map's slots are in hash order, so its first ones are a fair sample). */
static int64_t inner_bytes(const WState *s, Entry *e, int64_t *budget)
{
    KeyMap km;
    const HTab *m = s->kind == WSTATE_MAP ? keymap_open(s, e, &km) : NULL;
    const ListVal *l = m ? NULL : entry_list(s, e);
    size_t n = m ? m->cap : (size_t)l->n, count = m ? m->n : n;
    size_t walk = n <= (size_t)*budget ? n : *budget > SCAN_SAMPLE_MIN ? (size_t)*budget : SCAN_SAMPLE_MIN;
    if (walk > n) walk = n;
    *budget -= (int64_t)walk;
    int64_t bytes = 0;
    size_t seen = 0;
    for (size_t i = 0; i < walk; i++) {
        const Entry *u = m ? htab_at(m, i) : NULL;
        if (m && !u) continue;
        bytes += m ? (int64_t)(u->klen + u->vlen) : (int64_t)l->items[i].len;
        seen++;
    }
    if (walk < n && seen) bytes = (int64_t)((double)bytes * (double)count / (double)seen);
    return (m ? (int64_t)e->klen : (int64_t)entry_bytes(s, e)) + bytes;
}

/* One bounded step of the walk of s's keys by their bytes: every slot visited counts against
   *budget, empty ones too, and so does every slot of a key's map and item of its list. A key whose
   map or list is longer than what is left of the budget is counted from a sample of
   max(left, SCAN_SAMPLE_MIN) of them, so that a step costs about its budget however big one key's
   state is (one DISTINCT map of every value of a query's single group); the budget then ends
   below zero by up to SCAN_SAMPLE_MIN. True when the pass over s ended (*pos back to 0). */
static bool heap_scan_key_bytes(WState *s, size_t *pos, int64_t *budget, WStateKeyBytesFn fn, void *ctx)
{
    size_t ns_bytes = s->b->ns_bytes;
    for (; *pos < s->tab.cap && *budget > 0; ++*pos) {
        Entry *e = htab_at(&s->tab, *pos);
        --*budget;
        if (!e) continue;
        int64_t bytes = s->kind == WSTATE_MAP || (s->kind == WSTATE_LIST && entry_list(s, e))
                            ? inner_bytes(s, e, budget)
                            : (int64_t)entry_bytes(s, e);
        size_t klen = e->klen > ns_bytes ? e->klen - ns_bytes : 0;
        fn(ctx, (WBytes){e->key, klen}, bytes);
    }
    if (*pos < s->tab.cap) return false;
    *pos = 0;
    return true;
}

/* ---- heap snapshots: live entries grouped by key group ---- */

static void heap_snapshot_state(WState *s, WSnapWriter *w, int64_t now)
{
    int maxp = s->b->cfg.max_parallelism;
    size_t n = s->tab.n;
    if (!n) return;
    int *count = wcalloc((size_t)maxp + 1, sizeof(int));
    uint16_t *kgs = wmalloc(sizeof(uint16_t) * s->tab.cap);
    for (size_t i = 0; i < s->tab.cap; i++) {
        Entry *e = htab_at(&s->tab, i);
        if (!e) continue;
        kgs[i] = (uint16_t)wstate_key_group_ns(e->key, e->klen, s->b->ns_bytes, maxp);
        count[kgs[i] + 1]++;
    }
    for (int g = 0; g < maxp; g++) count[g + 1] += count[g];
    size_t *order = wmalloc(sizeof(size_t) * n);
    for (size_t i = 0; i < s->tab.cap; i++)
        if (htab_at(&s->tab, i)) order[count[kgs[i]]++] = i;
    for (size_t j = 0; j < n; j++) {
        Entry *e = htab_at(&s->tab, order[j]);
        int kg = kgs[order[j]];
        if (s->kind == WSTATE_MAP) {
            KeyMap km;
            HTab *m = keymap_open(s, e, &km);
            for (size_t q = 0; q < m->cap; q++) {
                Entry *u = htab_at(m, q);
                if (u && !expired(s, u, now))
                    wsnap_put_map(w, kg, entry_time(s, u), e->key, e->klen, u->key, u->klen, eval(u), u->vlen);
            }
        } else if (!expired(s, e, now)) {
            if (s->kind == WSTATE_VALUE) wsnap_put_value(w, kg, entry_time(s, e), e->key, e->klen, eval(e), e->vlen);
            else wsnap_put_list(w, kg, entry_time(s, e), e->key, e->klen, entry_list(s, e)->items, entry_list(s, e)->n);
        }
    }
    free(order);
    free(kgs);
    free(count);
}

/* The current key's top entry, created (and counted) when absent; no TTL check; *slot = its
   slot. */
static Entry *restore_top(WState *s, const void *k, size_t kl, size_t *slot)
{
    WStateBackend *b = s->b;
    wstate_set_key(b, k, kl);
    size_t i = htab_find(&s->tab, false, b->khash, b->key, b->klen);
    if (i != SIZE_MAX) { *slot = i; return htab_at(&s->tab, i); }
    entries_begin(s);
    Entry *e = entry_new(s, true, b->khash, b->key, b->klen, 0);
    *slot = top_insert(s, e);
    s->bytes += e->klen;
    if (s->kind != WSTATE_MAP) {        /* a map starts empty: its table word 0 (entry_new) */
        if (s->kind == WSTATE_LIST) entry_set_table(s, e, wcalloc(1, sizeof(ListVal)));
        s->entries++;
    }
    return e;
}

static void heap_restore_value(WState *s, int kg, const void *k, size_t kl, const void *v, size_t vl, int64_t ts)
{
    (void)kg;
    size_t i;
    Entry *e = restore_top(s, k, kl, &i);
    s->bytes += (int64_t)vl - (int64_t)e->vlen;
    e = set_val(s, &s->tab, i, v, vl);
    entry_stamp(s, e, ts);
}

static void heap_restore_map(WState *s, int kg, const void *k, size_t kl, const void *uk, size_t ukl,
                             const void *v, size_t vl, int64_t ts)
{
    (void)kg;
    size_t ti;
    Entry *e = restore_top(s, k, kl, &ti);
    uint64_t h = wmap_key_hash(uk, ukl);
    KeyMap km;
    keymap_open(s, e, &km);
    size_t i = keymap_find(&km, h, uk, ukl);
    Entry *u;
    if (i == SIZE_MAX) {
        u = entry_new(s, false, h, uk, ukl, 0);
        i = keymap_insert(s, &km, u);
        s->entries++;
        s->bytes += (int64_t)ukl;
    } else {
        u = htab_at(km.t, i);
    }
    s->bytes += (int64_t)vl - (int64_t)u->vlen;
    u = set_val(s, km.t, i, v, vl);
    entry_stamp(s, u, ts);
    if (ts > entry_time(s, e)) entry_stamp(s, e, ts);
}

static void restore_list_item(WState *s, const void *k, size_t kl, const void *v, size_t vl, int64_t ts)
{
    size_t ti;
    Entry *e = restore_top(s, k, kl, &ti);
    list_append(s, entry_list(s, e), v, vl);
    entry_stamp(s, e, ts);
}

static void heap_restore_list(WState *s, int kg, const void *k, size_t kl, const unsigned char *body,
                              size_t bodylen, int nitems, int64_t ts)
{
    (void)kg;
    size_t off = 0;
    for (int q = 0; q < nitems && bodylen - off >= 4; q++) {
        uint32_t il = wbe_get32(body + off);
        if (il > bodylen - off - 4) break;
        restore_list_item(s, k, kl, body + off + 4, il, ts);
        off += 4 + il;
    }
}

const WStateOps wheap_state_ops = {
    .type = WSTATE_BACKEND_HASHMAP,
    .class_name = "HashMapStateBackend",
    .free_backend = heap_free_backend,
    .add_state = heap_add_state,
    .adopt_ttl = heap_adopt_ttl,
    .order_freed = heap_order_freed,
    .kind_changed = heap_kind_changed,
    .key_set = heap_key_set,
    .failed = heap_failed,
    .compact = heap_compact,
    .value_get = heap_value_get,
    .value_put = heap_value_put,
    .clear = heap_clear,
    .value_ref = heap_value_ref,
    .value_ref_reserve = heap_value_ref_reserve,
    .value_ref_commit = heap_value_ref_commit,
    .value_ref_clear = heap_value_ref_clear,
    .map_get = heap_map_get,
    .map_put = heap_map_put,
    .map_ref = heap_map_ref,
    .map_ref_put = heap_map_ref_put,
    .map_ref_remove = heap_map_ref_remove,
    .map_prefetch = heap_map_prefetch,
    .outgrows_cache = heap_outgrows_cache,
    .map_outgrows_cache = heap_map_outgrows_cache,
    .map_remove = heap_map_remove,
    .map_size = heap_map_size,
    .map_iter = heap_map_iter,
    .map_next = heap_map_next,
    .map_iter_remove = heap_map_iter_remove,
    .list_add = heap_list_add,
    .list_get = heap_list_get,
    .list_remove_at = heap_list_remove_at,
    .for_each = heap_for_each,
    .scan_key_bytes = heap_scan_key_bytes,
    .refresh_stats = NULL,              /* counted as it goes */
    .counts_growth = true,
    .prefetch_slot = heap_prefetch_slot,
    .prefetch_entry = heap_prefetch_entry,
    .snapshot_prepare = NULL,
    .snapshot_state = heap_snapshot_state,
    .snapshot_incremental = NULL,       /* full snapshots only */
    .local_dir = NULL,
    .restore_value = heap_restore_value,
    .restore_map = heap_restore_map,
    .restore_list = heap_restore_list,
    .restore_raw = NULL,
};
