/*
 * minibatch_join.c — the input buffer of the mini-batch regular join, see minibatch_join.h.
 * May call exec/join_state.h (view kinds), exec/minibatch.h (Java table lengths), types/, common/.
 */
#include "minibatch_join.h"
#include "minibatch.h"
#include "../common/hash.h"
#include "../common/sort.h"
#include "../types/row.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* A key of one of the bundle's maps: a join key, or a sub key (unique key, record hashCode, or
   for JOINKEY_CONTAINS_UK the join key's single list) under its join key. */
typedef struct Ent {
    uint64_t h64;           /* hash of the key bytes in this file's table */
    uint32_t koff, klen;    /* key bytes in the map's `keys` */
    uint32_t jhash;         /* Java: the key's hashCode spread (h ^ h >>> 16) */
    int64_t seq;            /* when it was (last) put into its Java map */
    bool present;
    int parent;             /* sub: its join key */
    int head, tail;         /* sub: its rows (linked through the row arrays) */
    int64_t icap;           /* join key: table length of its inner Java map (HAS_UK, NO_UK) */
    int isize;              /* join key: present subs */
    int order;              /* join key: position in the processing order (wjbundle_order) */
} Ent;

typedef struct Map {
    Ent *e;
    int n, cap;
    int32_t *table;         /* slots: entry index or -1 */
    int tcap;
    WStrBuf keys;
} Map;

struct WJoinBundle {
    WJoinViewKind kind;
    int ncols;
    const WType **types;
    Map jks, subs;
    int64_t jcap;           /* table length of Flink's bundle map of join keys (never shrinks) */
    int jsize;
    int64_t seq;
    int64_t count;
    WChunk *rows;           /* buffered rows (deep copies) */
    int *next, *prev, *sub; /* per row */
    uint32_t *roff, *rlen;  /* per row: its record bytes in recs (NO_UK) */
    int rcap;
    WStrBuf recs;
    WStrBuf tmp;
    WChunk *ordered;        /* wjbundle_order's result (shallow) */
    uint8_t *sup;
    int *list;
    int listcap;
};

/* ---------------- a byte-keyed map of entries (open addressing, grows) ---------------- */

static void map_init(Map *m) { memset(m, 0, sizeof *m); wsb_init(&m->keys); }

static void map_free(Map *m)
{
    free(m->e);
    free(m->table);
    wsb_free(&m->keys);
}

static void map_clear(Map *m)
{
    m->n = 0;
    wsb_clear(&m->keys);
    if (m->table) memset(m->table, 0xff, sizeof(int32_t) * (size_t)m->tcap);
}

static void map_rehash(Map *m, int tcap)
{
    free(m->table);
    m->tcap = tcap;
    m->table = wmalloc(sizeof(int32_t) * (size_t)tcap);
    memset(m->table, 0xff, sizeof(int32_t) * (size_t)tcap);
    for (int i = 0; i < m->n; i++) {
        size_t s = (size_t)(m->e[i].h64 & (uint64_t)(tcap - 1));
        while (m->table[s] >= 0) s = (s + 1) & (size_t)(tcap - 1);
        m->table[s] = i;
    }
}

/* The entry of key (found or added: *added, its bytes copied, the rest zero). */
static int map_get(Map *m, const void *key, size_t klen, bool *added)
{
    if ((m->n + 1) * 2 > m->tcap) map_rehash(m, m->tcap ? m->tcap * 2 : 64);
    uint64_t h = whash_bytes(key, klen, 41);
    size_t s = (size_t)(h & (uint64_t)(m->tcap - 1));
    for (; m->table[s] >= 0; s = (s + 1) & (size_t)(m->tcap - 1)) {
        Ent *e = &m->e[m->table[s]];
        if (e->h64 == h && e->klen == klen && !memcmp(m->keys.buf + e->koff, key, klen)) {
            *added = false;
            return m->table[s];
        }
    }
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 64;
        m->e = wrealloc(m->e, sizeof(Ent) * (size_t)m->cap);
    }
    int i = m->n++;
    Ent *e = &m->e[i];
    memset(e, 0, sizeof *e);
    e->h64 = h;
    e->koff = (uint32_t)m->keys.len;
    e->klen = (uint32_t)klen;
    wsb_appendn(&m->keys, key, klen);
    m->table[s] = i;
    *added = true;
    return i;
}

/* ---------------- Java's HashMap ---------------- */

static uint32_t java_spread(int32_t h) { uint32_t u = (uint32_t)h; return u ^ (u >> 16); }

/* Table length after one more key: HashMap resizes when ++size > 0.75 * length. */
static int64_t java_grow(int64_t cap, int64_t size) { return size * 4 > cap * 3 ? cap * 2 : cap; }


/* ---------------- the bundle ---------------- */

WJoinBundle *wjbundle_new(WJoinViewKind kind, int ncols, const WType **types)
{
    WJoinBundle *b = wcalloc(1, sizeof *b);
    b->kind = kind;
    b->ncols = ncols;
    b->types = types;
    map_init(&b->jks);
    map_init(&b->subs);
    b->jcap = 16;
    wsb_init(&b->recs);
    wsb_init(&b->tmp);
    return b;
}

void wjbundle_free(WJoinBundle *b)
{
    if (!b) return;
    map_free(&b->jks);
    map_free(&b->subs);
    if (b->rows) wchunk_free(b->rows);
    if (b->ordered) wchunk_free(b->ordered);
    free(b->next);
    free(b->prev);
    free(b->sub);
    free(b->roff);
    free(b->rlen);
    free(b->sup);
    free(b->list);
    wsb_free(&b->recs);
    wsb_free(&b->tmp);
    free(b);
}

int64_t wjbundle_count(const WJoinBundle *b) { return b->count; }

void wjbundle_clear(WJoinBundle *b)
{
    map_clear(&b->jks);
    map_clear(&b->subs);
    b->jsize = 0;
    b->count = 0;
    wsb_clear(&b->recs);
    if (b->rows) wchunk_reset(b->rows);
}

/* Room for one more buffered row. */
static void room(WJoinBundle *b)
{
    int have = b->rows ? b->rows->nrows : 0;
    if (!b->rows || have == b->rows->cap) {
        int cap = b->rows ? b->rows->cap * 2 : WCHUNK_CAP;
        WChunk *n = wchunk_new(b->ncols, b->types, cap);
        if (b->rows) {
            wchunk_append_selected(n, b->rows, NULL);
            wchunk_free(b->rows);
        }
        b->rows = n;
    }
    if (have + 1 > b->rcap) {
        b->rcap = b->rows->cap;
        b->next = wrealloc(b->next, sizeof(int) * (size_t)b->rcap);
        b->prev = wrealloc(b->prev, sizeof(int) * (size_t)b->rcap);
        b->sub = wrealloc(b->sub, sizeof(int) * (size_t)b->rcap);
        b->roff = wrealloc(b->roff, sizeof(uint32_t) * (size_t)b->rcap);
        b->rlen = wrealloc(b->rlen, sizeof(uint32_t) * (size_t)b->rcap);
    }
}

static bool is_acc(const WChunk *c, int r) { return !wrowkind_is_retract((WRowKind)c->kinds[r]); }

static void unlink_row(WJoinBundle *b, Ent *s, int x)
{
    if (b->prev[x] >= 0) b->next[b->prev[x]] = b->next[x];
    else s->head = b->next[x];
    if (b->next[x] >= 0) b->prev[b->next[x]] = b->prev[x];
    else s->tail = b->prev[x];
}

/* A sub key whose list became empty by a fold leaves its map, and a join key left without sub
   keys leaves the bundle (Flink removes both). */
static void drop_empty(WJoinBundle *b, Ent *s)
{
    if (s->head >= 0) return;
    Ent *j = &b->jks.e[s->parent];
    s->present = false;
    j->isize--;
    if (j->isize == 0) {
        j->present = false;
        b->jsize--;
    }
}

void wjbundle_add(WJoinBundle *b, const WChunk *c, int r, const void *jk, size_t jklen,
                  const void *uk, size_t uklen, const void *rec, size_t reclen)
{
    bool added;
    int ji = map_get(&b->jks, jk, jklen, &added);
    Ent *j = &b->jks.e[ji];
    if (!j->present) {                      /* bundle.computeIfAbsent(joinKey, ...) */
        if (added) j->jhash = java_spread(wrow_hash(jk, jklen));
        j->present = true;
        j->seq = ++b->seq;
        j->icap = 16;
        j->isize = 0;
        b->jsize++;
        b->jcap = java_grow(b->jcap, b->jsize);
    }
    /* the sub key: the join key's own list, the unique key, or the record's hashCode */
    int32_t rh = 0;
    wsb_clear(&b->tmp);
    wsb_appendn(&b->tmp, jk, jklen);
    if (b->kind == WJV_HAS_UK) {
        wsb_appendn(&b->tmp, uk, uklen);
    } else if (b->kind == WJV_NO_UK) {
        rh = wrow_hash(rec, reclen);
        wsb_appendn(&b->tmp, (const char *)&rh, sizeof rh);
    }
    int si = map_get(&b->subs, b->tmp.buf, b->tmp.len, &added);
    j = &b->jks.e[ji];
    Ent *s = &b->subs.e[si];
    if (!s->present) {
        if (added) s->jhash = b->kind == WJV_HAS_UK ? java_spread(wrow_hash(uk, uklen))
                                                   : java_spread(rh);   /* Integer.hashCode */
        s->present = true;
        s->parent = ji;
        s->seq = ++b->seq;
        s->head = s->tail = -1;
        j->isize++;
        if (b->kind != WJV_JOINKEY_CONTAINS_UK) j->icap = java_grow(j->icap, j->isize);
    }
    b->count++;
    bool acc = is_acc(c, r), fold = false;
    if (b->kind == WJV_NO_UK) {
        for (int x = s->tail; x >= 0; x = b->prev[x]) {
            if (is_acc(b->rows, x) == acc || b->rlen[x] != reclen ||
                memcmp(b->recs.buf + b->roff[x], rec, reclen) != 0) continue;
            unlink_row(b, s, x);
            drop_empty(b, s);
            fold = true;
            break;
        }
    } else if (s->tail >= 0) {
        int last = s->tail;
        if (is_acc(b->rows, last)) {
            fold = !acc;
            unlink_row(b, s, last);
            if (fold) drop_empty(b, s);
        } else if (!acc) {
            unlink_row(b, s, last);
        }
    }
    if (fold) return;
    room(b);
    int x = wchunk_append_row(b->rows, c, r);
    assert(x >= 0);
    b->sub[x] = si;
    b->next[x] = -1;
    b->prev[x] = s->tail;
    if (s->tail >= 0) b->next[s->tail] = x;
    else s->head = x;
    s->tail = x;
    b->roff[x] = (uint32_t)b->recs.len;
    b->rlen[x] = (uint32_t)(b->kind == WJV_NO_UK ? reclen : 0);
    if (b->kind == WJV_NO_UK) wsb_appendn(&b->recs, rec, reclen);
}

/* ---------------- processing order ---------------- */

typedef struct OrdKey { uint64_t a, b; int64_t seq; int idx; } OrdKey;

static int by_ord(const void *x, const void *y)
{
    const OrdKey *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if (p->b != q->b) return p->b < q->b ? -1 : 1;
    return p->seq < q->seq ? -1 : p->seq > q->seq;
}

static void push(WJoinBundle *b, int *n, int row, bool sup)
{
    b->list[*n] = row;
    b->sup[*n] = sup;
    (*n)++;
}

/* MiniBatchStreamingJoinOperator.processElementWithSuppress over one list. */
static void with_suppress(WJoinBundle *b, const Ent *s, int *n)
{
    const WChunk *c = b->rows;
    int pre = -1;
    for (int x = s->head; x >= 0;) {
        int cur = x;
        x = b->next[x];
        bool sup = false;
        if (!is_acc(c, cur) && x >= 0) {
            int nxt = x;
            x = b->next[x];
            if (is_acc(c, nxt)) sup = true;
            else pre = nxt;
            push(b, n, cur, sup);
            if (sup) push(b, n, nxt, sup);
        } else {
            if (pre >= 0) {
                if (is_acc(c, cur)) sup = true;
                push(b, n, pre, sup);
            }
            push(b, n, cur, sup);
            pre = -1;
        }
    }
}

const WChunk *wjbundle_order(WJoinBundle *b, const uint8_t **suppress)
{
    int nrows = b->rows ? b->rows->nrows : 0;
    if (nrows + 1 > b->listcap) {
        b->listcap = nrows + 1;
        b->list = wrealloc(b->list, sizeof(int) * (size_t)b->listcap);
        b->sup = wrealloc(b->sup, (size_t)b->listcap);
    }
    /* Flink's maps are filled by computeIfAbsent, which puts a new key at the head of its bucket:
       a map hands out its keys by bucket, the keys of a bucket newest first. Join keys: the
       bundle map's order; NO_UK: re-put in that order into a fresh map (getRecords), which
       reverses the bundle's order within each of its buckets */
    int nj = 0;
    OrdKey *ok = wmalloc(sizeof(OrdKey) * (size_t)(b->jks.n + b->subs.n + 1));
    int64_t rcap = wmb_java_table_length(16, b->jsize);
    uint32_t jmask = (uint32_t)(b->jcap - 1), rmask = (uint32_t)(rcap - 1);
    for (int i = 0; i < b->jks.n; i++) {
        const Ent *j = &b->jks.e[i];
        if (!j->present) continue;
        if (b->kind == WJV_NO_UK) ok[nj] = (OrdKey){j->jhash & rmask, ~(uint64_t)(j->jhash & jmask), j->seq, i};
        else ok[nj] = (OrdKey){j->jhash & jmask, 0, -j->seq, i};
        nj++;
    }
    wqsort(ok, (size_t)nj, sizeof(OrdKey), by_ord);
    for (int i = 0; i < nj; i++) b->jks.e[ok[i].idx].order = i;
    /* sub keys: by their join key, then their inner map's order */
    int ns = 0;
    for (int i = 0; i < b->subs.n; i++) {
        const Ent *s = &b->subs.e[i];
        if (!s->present) continue;
        const Ent *j = &b->jks.e[s->parent];
        ok[ns++] = (OrdKey){(uint64_t)j->order, s->jhash & (uint32_t)(j->icap - 1), -s->seq, i};
    }
    wqsort(ok, (size_t)ns, sizeof(OrdKey), by_ord);
    int n = 0;
    for (int i = 0; i < ns; i++) {
        const Ent *s = &b->subs.e[ok[i].idx];
        if (b->kind == WJV_NO_UK) {
            for (int x = s->head; x >= 0; x = b->next[x]) push(b, &n, x, false);
        } else {
            with_suppress(b, s, &n);
        }
    }
    free(ok);
    if (b->ordered && b->ordered->cap < n) {
        wchunk_free(b->ordered);
        b->ordered = NULL;
    }
    if (!b->ordered) b->ordered = wchunk_new(b->ncols, b->types, n > WCHUNK_CAP ? n : WCHUNK_CAP);
    WChunk *o = b->ordered;
    for (int i = 0; i < n; i++) {
        int r = b->list[i];
        o->kinds[i] = b->rows->kinds[r];
        for (int c = 0; c < b->ncols; c++) {       /* shallow: the bundle owns the bytes */
            o->cols[c].data[i] = b->rows->cols[c].data[r];
            o->cols[c].nulls[i] = b->rows->cols[c].nulls[r];
        }
    }
    o->nrows = n;
    *suppress = b->sup;
    return o;
}
