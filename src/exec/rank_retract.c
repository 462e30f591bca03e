/*
 * rank_retract.c — the Retract strategy of the Rank operator: Flink's RetractableTopNFunction,
 * which keeps every row of a partition (not only the top N) so that a retraction can pull the
 * next row back into the top N. Emission follows Flink exactly, with and without the rank number:
 *   accumulate (+I/+U)   emitRecordsWithRowNumber (-U/+U for every shifted row, +I for the tail)
 *                        or emitRecordsWithoutRowNumber (-D of the row pushed out, +I of the new);
 *   retract (-U/-D)      retractRecordWithRowNumber (-U/+U shifting up, -D of the last rank) or
 *                        retractRecordWithoutRowNumber (-D of the row, +I of the row that enters);
 *   a retraction of a row outside the top N only updates state; one for an unknown row (or for
 *   state cleared by TTL) emits nothing and is counted.
 * State (map state `rankState` of the partition key): user key = the sort key as a binary row ->
 * [u32 length][binary row]... (rows with that sort key, in arrival order); the reserved 1-byte
 * user key 0x00 -> the sorted index [u32 key length][u32 0][i64 count][key row]... (Flink's
 * "sorted-map" value state).
 * May call rank.c helpers (rank_internal.h), state/, types/, common/.
 */
#include "rank_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t IDX_KEY[1] = {0};

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static void ensure_idx(RankOp *o, int n)
{
    if (n <= o->icap) return;
    int cap = o->icap ? o->icap : 16;
    while (cap < n) cap *= 2;
    o->ikeys = wrealloc(o->ikeys, sizeof *o->ikeys * (size_t)cap);
    o->icounts = wrealloc(o->icounts, sizeof *o->icounts * (size_t)cap);
    o->ioffs = wrealloc(o->ioffs, sizeof *o->ioffs * (size_t)cap);
    o->icap = cap;
}

/* Load the sorted index (copied: list accesses may touch the state meanwhile). */
static int idx_load(RankOp *o)
{
    WBytes v;
    WStateLookup how = wmap_get(o->st, IDX_KEY, 1, &v);
    if (how == WSL_EXPIRED) o->ttl_expired++;
    if (how != WSL_FOUND) return 0;
    wsb_clear(&o->idx);
    wsb_appendn(&o->idx, v.p, v.len);
    const uint8_t *p = (const uint8_t *)o->idx.buf;
    size_t off = 0, len = o->idx.len;
    int n = 0;
    while (off + 16 <= len) {
        uint32_t klen = rd32(p + off);
        if (off + 16 + klen > len) break;
        if (n >= o->icap) ensure_idx(o, n + 1);
        memcpy(&o->icounts[n], p + off + 8, 8);
        o->ikeys[n] = (RankEnt){p + off + 16, klen};
        o->ioffs[n] = (uint32_t)off;
        off += 16 + klen;
        n++;
    }
    o->work += n;
    return n;
}

/* Write the index back: runs of unchanged entries are copied from the loaded bytes in one
   piece; the new entry is appended; counts are patched. */
static void idx_write(RankOp *o, int n)
{
    WStrBuf *b = &o->nbuf;
    wsb_clear(b);
    const char *old = o->idx.buf;
    int i = 0;
    while (i < n) {
        if (o->icounts[i] < 0) { i++; continue; }
        if (o->ioffs[i] == UINT32_MAX) {
            uint32_t hdr[2] = {o->ikeys[i].len, 0};
            wsb_appendn(b, (const char *)hdr, 8);
            wsb_appendn(b, (const char *)&o->icounts[i], 8);
            wsb_appendn(b, (const char *)o->ikeys[i].p, o->ikeys[i].len);
            i++;
            continue;
        }
        /* a run of consecutive old entries */
        size_t start = o->ioffs[i], end = start;
        size_t base = b->len;
        int j = i;
        while (j < n && o->icounts[j] >= 0 && o->ioffs[j] == end) {
            end += 16 + o->ikeys[j].len;
            j++;
        }
        wsb_appendn(b, old + start, end - start);
        for (int q = i; q < j; q++) {
            size_t at = base + (o->ioffs[q] - start) + 8;
            memcpy(b->buf + at, &o->icounts[q], 8);
        }
        i = j;
    }
    if (b->len == 0) wmap_remove(o->st, IDX_KEY, 1);
    else wmap_put(o->st, IDX_KEY, 1, b->buf, b->len);
}

/* Position of the input's sort key: first index whose key is >= it. */
static int idx_lower_bound(RankOp *o, int n, bool *exists)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        rank_sk_from_keyrow(o, o->ikeys[mid].p, o->ikeys[mid].len, o->tmp_sk, o->tmp_sk_null);
        if (rank_cmp_sk(o, o->tmp_sk, o->tmp_sk_null, o->in_sk, o->in_sk_null) < 0) lo = mid + 1;
        else hi = mid;
    }
    *exists = false;
    if (lo < n) {
        rank_sk_from_keyrow(o, o->ikeys[lo].p, o->ikeys[lo].len, o->tmp_sk, o->tmp_sk_null);
        *exists = rank_cmp_sk(o, o->tmp_sk, o->tmp_sk_null, o->in_sk, o->in_sk_null) == 0;
    }
    return lo;
}

/* Rows stored under a sort key (views into state, valid until the next state access). */
static int list_get(RankOp *o, RankEnt key, bool *present)
{
    WBytes v;
    WStateLookup how = wmap_get(o->st, key.p, key.len, &v);
    *present = how == WSL_FOUND;
    if (!*present) return 0;
    const uint8_t *p = v.p;
    size_t off = 0;
    int n = 0;
    while (off + 4 <= v.len) {
        uint32_t len = rd32(p + off);
        if (off + 4 + len > v.len) break;
        if (n >= o->entcap) rank_ensure_ents(o, n + 1);
        o->ents[n++] = (RankEnt){p + off + 4, len};
        off += 4 + len;
    }
    o->work += n;
    return n;
}

/* Write the own sort key's list (n views, contiguous in the stored bytes) back without entry
   `skip` (-1 = none), with `extra` appended. */
static void list_put(RankOp *o, RankEnt key, int n, int skip, const RankEnt *extra)
{
    WStrBuf *b = &o->lbuf;
    wsb_clear(b);
    if (n > 0) {
        const char *first = (const char *)o->ents[0].p - 4;
        const char *end = (const char *)o->ents[n - 1].p + o->ents[n - 1].len;
        if (skip < 0) {
            wsb_appendn(b, first, (size_t)(end - first));
        } else {
            const char *cut = (const char *)o->ents[skip].p - 4;
            const char *resume = (const char *)o->ents[skip].p + o->ents[skip].len;
            wsb_appendn(b, first, (size_t)(cut - first));
            wsb_appendn(b, resume, (size_t)(end - resume));
        }
    }
    if (extra) {
        wsb_appendn(b, (const char *)&extra->len, 4);
        wsb_appendn(b, (const char *)extra->p, extra->len);
    }
    if (b->len == 0) wmap_remove(o->st, key.p, key.len);
    else wmap_put(o->st, key.p, key.len, b->buf, b->len);
}

static RankEnt keep_copy(WStrBuf *buf, RankEnt e)
{
    wsb_clear(buf);
    wsb_appendn(buf, (const char *)e.p, e.len);
    return (RankEnt){(const uint8_t *)buf->buf, e.len};
}

static bool same_row(RankOp *o, RankEnt e)
{
    RankEnt row = rank_input_row(o);
    return e.len == row.len && memcmp(e.p, row.p, e.len) == 0;
}

static void staled(RankOp *o, int i)
{
    o->icounts[i] = -1;     /* removed from the sorted index */
    o->stale++;
}

static bool in_end(const RankOp *o, int64_t rank) { return rank <= o->rank_end; }

static void emit_r(RankOp *o, WRowKind k, RankEnt e, int64_t rank)
{
    if (k == WRK_UPDATE_BEFORE && !o->gen_ub) return;
    if (rank_in_range(o, rank)) rank_emit(o, k, e.p, e.len, rank);
}

static RankEnt own_key(RankOp *o) { return (RankEnt){(const uint8_t *)o->skbuf.buf, (uint32_t)o->skbuf.len}; }

/* ---- accumulate ---- */

static void emit_with_number(RankOp *o, int n, int pos)
{
    int64_t rank = 0;
    bool found = false;
    RankEnt cur = {0};
    for (int i = 0; i < n && in_end(o, rank); i++) {
        if (o->icounts[i] < 0) continue;
        if (!found && i == pos) {
            rank += o->icounts[i];
            cur = rank_input_row(o);
            found = true;
        } else if (found) {
            bool present;
            int m = list_get(o, o->ikeys[i], &present);
            if (!present) { staled(o, i); continue; }
            for (int j = 0; j < m && in_end(o, rank); j++) {
                emit_r(o, WRK_UPDATE_BEFORE, o->ents[j], rank);
                emit_r(o, WRK_UPDATE_AFTER, cur, rank);
                cur = keep_copy(&o->cur, o->ents[j]);
                rank++;
            }
        } else {
            rank += o->icounts[i];
        }
    }
    if (in_end(o, rank)) emit_r(o, WRK_INSERT, cur, rank);
}

static void emit_without_number(RankOp *o, int n, int pos)
{
    int64_t rank = 0;
    bool found = false, collect = false, del = false;
    RankEnt to_delete = {0};
    for (int i = 0; i < n && in_end(o, rank); i++) {
        if (o->icounts[i] < 0) continue;
        if (!found && i == pos) {
            rank += o->icounts[i];
            if (rank_in_range(o, rank)) collect = true;
            found = true;
        } else if (found) {
            bool present;
            int m = list_get(o, o->ikeys[i], &present);
            if (!present) { staled(o, i); continue; }
            int64_t last = rank + o->icounts[i];
            if (in_end(o, last)) {
                rank = last;
            } else {
                int64_t index = o->rank_end - rank;
                if (index >= 0 && index < m) {
                    to_delete = keep_copy(&o->prev, o->ents[index]);
                    del = true;
                }
                break;
            }
        } else {
            rank += o->icounts[i];
        }
    }
    if (del) rank_emit(o, WRK_DELETE, to_delete.p, to_delete.len, 1);
    if (collect) {
        RankEnt row = rank_input_row(o);
        rank_emit(o, WRK_INSERT, row.p, row.len, 1);
    }
}

/* ---- retract ---- */

static bool retract_with_number(RankOp *o, int n, int pos)
{
    int64_t rank = 0;
    bool found = false, have_prev = false;
    RankEnt prev = {0};
    for (int i = 0; i < n && in_end(o, rank); i++) {
        if (o->icounts[i] < 0) continue;
        if (!found && i == pos) {
            bool present;
            int m = list_get(o, own_key(o), &present);
            if (!present) { staled(o, i); continue; }
            int removed = -1;
            for (int j = 0; j < m && in_end(o, rank); j++) {
                RankEnt cur = o->ents[j];
                if (!found && same_row(o, cur)) {
                    prev = keep_copy(&o->prev, cur);
                    have_prev = true;
                    found = true;
                    removed = j;
                } else if (found) {
                    emit_r(o, WRK_UPDATE_BEFORE, prev, rank);
                    emit_r(o, WRK_UPDATE_AFTER, cur, rank);
                    prev = keep_copy(&o->prev, cur);
                }
                rank++;
            }
            list_put(o, own_key(o), m, removed, NULL);
        } else if (found) {
            bool present;
            int m = list_get(o, o->ikeys[i], &present);
            if (!present) { staled(o, i); continue; }
            for (int j = 0; j < m && in_end(o, rank); j++) {
                emit_r(o, WRK_UPDATE_BEFORE, prev, rank);
                emit_r(o, WRK_UPDATE_AFTER, o->ents[j], rank);
                prev = keep_copy(&o->prev, o->ents[j]);
                rank++;
            }
        } else {
            rank += o->icounts[i];
        }
    }
    if (in_end(o, rank)) {
        if (!found && !have_prev) o->stale++;
        else emit_r(o, WRK_DELETE, prev, rank);
    }
    return found;
}

static bool retract_without_number(RankOp *o, int n, int pos)
{
    int64_t next = 1;
    bool found = false;
    for (int i = 0; i < n && in_end(o, next); i++) {
        if (o->icounts[i] < 0) continue;
        if (!found && i == pos) {
            bool present;
            int m = list_get(o, own_key(o), &present);
            if (!present) { staled(o, i); continue; }
            int removed = -1;
            for (int j = 0; j < m && in_end(o, next); j++) {
                RankEnt prev = o->ents[j];
                if (!found && same_row(o, prev)) {
                    emit_r(o, WRK_DELETE, prev, next);
                    next -= 1;
                    found = true;
                    removed = j;
                } else if (found) {
                    if (next == o->rank_end) emit_r(o, WRK_INSERT, prev, next);
                }
                next += 1;
            }
            list_put(o, own_key(o), m, removed, NULL);
        } else if (found) {
            int64_t last = next + o->icounts[i] - 1;
            if (last < o->rank_end) {
                next = last + 1;
            } else {
                int64_t index = o->rank_end - next;
                bool present;
                int m = list_get(o, o->ikeys[i], &present);
                if (!present) { staled(o, i); continue; }
                if (index >= 0 && index < m)
                    rank_emit(o, WRK_INSERT, o->ents[index].p, o->ents[index].len, 1);
                break;
            }
        } else {
            next += o->icounts[i];
        }
    }
    return found;
}

void rank_retract_process(RankOp *o, const WChunk *in, int r)
{
    WRowKind k = (WRowKind)in->kinds[r];
    bool acc = k == WRK_INSERT || k == WRK_UPDATE_AFTER;
    int n = idx_load(o);
    ensure_idx(o, n + 1);
    bool exists;
    int pos = idx_lower_bound(o, n, &exists);
    if (acc) {
        if (exists) {
            o->icounts[pos]++;
        } else {
            memmove(o->ikeys + pos + 1, o->ikeys + pos, sizeof *o->ikeys * (size_t)(n - pos));
            memmove(o->icounts + pos + 1, o->icounts + pos, sizeof *o->icounts * (size_t)(n - pos));
            memmove(o->ioffs + pos + 1, o->ioffs + pos, sizeof *o->ioffs * (size_t)(n - pos));
            o->ioffs[pos] = UINT32_MAX;
            o->ikeys[pos] = own_key(o);
            o->icounts[pos] = 1;
            n++;
        }
        if (o->with_number) emit_with_number(o, n, pos);
        else emit_without_number(o, n, pos);
        bool present;
        int m = list_get(o, own_key(o), &present);
        RankEnt row = rank_input_row(o);
        list_put(o, own_key(o), m, -1, &row);
    } else {
        int own = exists ? pos : -1;
        bool removed = o->with_number ? retract_with_number(o, n, own)
                                      : retract_without_number(o, n, own);
        if (exists && o->icounts[pos] >= 0) {
            if (--o->icounts[pos] == 0) o->icounts[pos] = -1;
        } else {
            o->stale++;         /* Flink: "The state is cleared because of state ttl" (lenient) */
        }
        if (!removed) {
            bool present;
            int m = list_get(o, own_key(o), &present);
            if (present) {
                int skip = -1;
                for (int j = 0; j < m && skip < 0; j++)
                    if (same_row(o, o->ents[j])) skip = j;
                list_put(o, own_key(o), m, skip, NULL);
            }
        }
    }
    idx_write(o, n);
}
