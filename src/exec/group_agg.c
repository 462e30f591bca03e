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
 * (emitting in input order), and written back before process() returns. Data views (map/list
 * state used by MIN/MAX with retraction, DISTINCT, FIRST/LAST_VALUE, LISTAGG) are read and written
 * per record under the record's key. Insert-only COUNT/SUM/SUM0/MIN/MAX/AVG over integers and
 * doubles take a fast path that updates the 8-byte slots of the accumulator row in place.
 *
 * Metrics: `<state>.entries=N <state>.bytes=N ttlExpiredRecords=N` (bytes include the data views),
 * plus `droppedRetractions=N` when retractions for absent keys were dropped.
 * May call exec/operator.h, exec/accumulators.h, state/, types/, common/.
 */
#include "stateful.h"
#include "accumulators.h"
#include "../types/row.h"
#include "../types/compare.h"
#include "../common/hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ types */

typedef struct Slot {
    uint64_t hash;
    int first_row;              /* a row of the current chunk holding this key */
    uint32_t koff, klen;        /* encoded key in GroupAgg.keys */
    bool present;               /* accumulators exist */
    bool had_state;             /* state held an entry when loaded */
    bool expired;               /* state had expired: the next record is counted */
    bool dirty;
    WDatum *acc;                /* general path */
    uint8_t *nulls;
    unsigned char *bytes;       /* fast path: accumulator row */
} Slot;

/* Fast-path aggregate. */
typedef enum FOp { F_COUNT_STAR, F_COUNT, F_SUM, F_SUM0, F_MIN, F_MAX, F_AVG } FOp;
typedef struct FAgg {
    FOp op;
    bool dbl;                   /* DOUBLE argument (else integer) */
    int arg, filter;
    int f;                      /* first accumulator field */
    const WType *res;
} FAgg;

typedef enum KeyMode { KM_DATUM, KM_ENCODED } KeyMode;

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

    KeyMode kmode;
    const WType **ktypes;

    /* per-call scratch */
    int tcap;
    int32_t *table;
    Slot *slots;
    int nslots, slots_cap;
    int32_t *row_slot;
    int rows_cap;
    WStrBuf kbytes;             /* encoded keys of the chunk's slots */
    WStrBuf tmp;
    WChunk *out;
    WDatum *prev, *cur;
    uint8_t *prevn, *curn;

    int64_t ttl_expired, dropped;
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

static bool same_key_datum(const GroupAgg *g, const WChunk *in, int a, int b)
{
    for (int k = 0; k < g->nkeys; k++) {
        const WVector *v = &in->cols[g->keys[k]];
        if (v->nulls[a] != v->nulls[b]) return false;
        if (v->nulls[a]) continue;
        WDatum x = v->data[a], y = v->data[b];
        const WType *t = g->ktypes[k];
        switch (t->id) {
        case WT_FLOAT: if (ffbits(x.d) != ffbits(y.d)) return false; break;
        case WT_DOUBLE: if (fbits(x.d) != fbits(y.d)) return false; break;
        case WT_DECIMAL: if (x.dec != y.dec) return false; break;
        case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
            if (x.ts.ms != y.ts.ms || (t->precision > 3 && x.ts.ns != y.ts.ns)) return false;
            break;
        case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
            if (x.s.len != y.s.len || (x.s.len && memcmp(x.s.p, y.s.p, (size_t)x.s.len) != 0)) return false;
            break;
        default:
            if (x.i != y.i) return false;
            break;
        }
    }
    return true;
}

/* ------------------------------------------------------------------ per-call table */

static void table_prepare(GroupAgg *g, int nrows)
{
    int need = 16;
    while (need < nrows * 2) need *= 2;
    if (need > g->tcap) {
        free(g->table);
        g->table = wmalloc(sizeof(int32_t) * (size_t)need);
        g->tcap = need;
    }
    memset(g->table, 0xff, sizeof(int32_t) * (size_t)g->tcap);
    if (nrows > g->rows_cap) {
        g->rows_cap = nrows;
        g->row_slot = wrealloc(g->row_slot, sizeof(int32_t) * (size_t)nrows);
    }
    if (nrows > g->slots_cap) {
        g->slots_cap = nrows;
        g->slots = wrealloc(g->slots, sizeof(Slot) * (size_t)nrows);
    }
    g->nslots = 0;
    wsb_clear(&g->kbytes);
}

static void set_slot_key(GroupAgg *g, const Slot *s)
{
    wstate_set_key(g->backend, g->kbytes.buf + s->koff, s->klen);
}

/* Create slot for row r: encode its key, read its accumulators. */
static int slot_new(GroupAgg *g, const WChunk *in, int r, uint64_t h)
{
    int si = g->nslots++;
    Slot *s = &g->slots[si];
    memset(s, 0, sizeof *s);
    s->hash = h;
    s->first_row = r;
    wrow_encode_chunk(&g->tmp, in, r, g->nkeys, g->keys);
    s->koff = (uint32_t)g->kbytes.len;
    s->klen = (uint32_t)g->tmp.len;
    wsb_appendn(&g->kbytes, g->tmp.buf, g->tmp.len);
    set_slot_key(g, s);
    WBytes v;
    WStateLookup how = wvalue_get(g->acc_state, &v);
    if (how == WSL_EXPIRED) s->expired = true;
    if (how == WSL_FOUND) {
        s->had_state = true;
        if (g->fast) {
            s->bytes = wa_alloc(&g->scratch, g->acc_len);
            if (v.len == g->acc_len) {
                memcpy(s->bytes, v.p, g->acc_len);
                s->present = true;
            }
        } else {
            s->acc = wa_alloc(&g->scratch, sizeof(WDatum) * (size_t)g->L->nfields);
            s->nulls = wa_alloc(&g->scratch, (size_t)g->L->nfields);
            wacc_decode(&g->ac, v.p, v.len, s->acc, s->nulls);
            s->present = true;
        }
    }
    if (!s->bytes && g->fast) s->bytes = wa_alloc(&g->scratch, g->acc_len);
    if (!s->acc && !g->fast) {
        s->acc = wa_alloc(&g->scratch, sizeof(WDatum) * (size_t)g->L->nfields);
        s->nulls = wa_alloc(&g->scratch, (size_t)g->L->nfields);
    }
    return si;
}

/* Assign every row of the chunk to a slot. */
static void assign_slots(GroupAgg *g, const WChunk *in)
{
    uint32_t mask = (uint32_t)g->tcap - 1;
    for (int r = 0; r < in->nrows; r++) {
        uint64_t h;
        if (g->kmode == KM_DATUM) {
            h = g->nkeys ? hash_key_datum(g, in, r) : 0;
        } else {
            wrow_encode_chunk(&g->tmp, in, r, g->nkeys, g->keys);
            h = whash_bytes(g->tmp.buf, g->tmp.len, 11);
        }
        uint32_t i = (uint32_t)h & mask;
        int si;
        for (;;) {
            si = g->table[i];
            if (si < 0) {
                si = slot_new(g, in, r, h);
                g->table[i] = si;
                break;
            }
            Slot *s = &g->slots[si];
            if (s->hash == h) {
                bool eq;
                if (g->kmode == KM_DATUM) eq = same_key_datum(g, in, s->first_row, r);
                else eq = s->klen == g->tmp.len && memcmp(g->kbytes.buf + s->koff, g->tmp.buf, g->tmp.len) == 0;
                if (eq) break;
            }
            i = (i + 1) & mask;
        }
        g->row_slot[r] = si;
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

/* Flink's emission after an update of a key that had accumulators before (not first). */
static void emit_update(GroupAgg *g, const WChunk *in, int r)
{
    if (g->ttl_ms <= 0 && wacc_values_equal(g->L, g->prev, g->prevn, g->cur, g->curn)) return;
    if (g->gen_ub) emit_row(g, WRK_UPDATE_BEFORE, in, r, g->prev, g->prevn);
    emit_row(g, WRK_UPDATE_AFTER, in, r, g->cur, g->curn);
}

/* ------------------------------------------------------------------ general path */

static void process_general(GroupAgg *g, const WChunk *in)
{
    const WAccLayout *L = g->L;
    int cur_key = -1;
    for (int r = 0; r < in->nrows; r++) {
        Slot *s = &g->slots[g->row_slot[r]];
        bool retract = wrowkind_is_retract((WRowKind)in->kinds[r]);
        if (s->expired) { g->ttl_expired++; s->expired = false; }
        bool first = false;
        if (!s->present) {
            if (retract) { g->dropped++; continue; }
            wacc_create(L, s->acc, s->nulls);
            s->present = true;
            first = true;
        }
        if (L->has_views && cur_key != g->row_slot[r]) {
            set_slot_key(g, s);
            cur_key = g->row_slot[r];
        }
        if (!first) wacc_get_value(&g->ac, s->acc, s->nulls, g->prev, g->prevn);
        if (retract) wacc_retract(&g->ac, s->acc, s->nulls, in, r);
        else wacc_accumulate(&g->ac, s->acc, s->nulls, in, r);
        s->dirty = true;
        if (s->acc[0].i != 0) {
            wacc_get_value(&g->ac, s->acc, s->nulls, g->cur, g->curn);
            if (first) emit_row(g, WRK_INSERT, in, r, g->cur, g->curn);
            else emit_update(g, in, r);
        } else {
            if (!first) emit_row(g, WRK_DELETE, in, r, g->prev, g->prevn);
            if (L->has_views) wacc_cleanup(L);
            s->present = false;
        }
    }
}

/* ------------------------------------------------------------------ fast path */

static inline int64_t rd_i(const unsigned char *p, size_t hdr, int f)
{
    int64_t v;
    memcpy(&v, p + hdr + 8 * (size_t)f, 8);
    return v;
}
static inline double rd_d(const unsigned char *p, size_t hdr, int f)
{
    double v;
    memcpy(&v, p + hdr + 8 * (size_t)f, 8);
    return v;
}
static inline void wr_i(unsigned char *p, size_t hdr, int f, int64_t v) { memcpy(p + hdr + 8 * (size_t)f, &v, 8); }
static inline void wr_d(unsigned char *p, size_t hdr, int f, double v) { memcpy(p + hdr + 8 * (size_t)f, &v, 8); }
static inline bool is_nul(const unsigned char *p, int f) { int b = f + 8; return (p[b >> 3] >> (b & 7)) & 1; }
static inline void clr_nul(unsigned char *p, int f) { int b = f + 8; p[b >> 3] &= (unsigned char)~(1u << (b & 7)); }

static int64_t wrap_res(int64_t v, const WType *t)
{
    switch (t->id) {
    case WT_TINYINT: return (int8_t)(uint8_t)(uint64_t)v;
    case WT_SMALLINT: return (int16_t)(uint16_t)(uint64_t)v;
    case WT_INT: return (int32_t)(uint32_t)(uint64_t)v;
    default: return v;
    }
}

static void fast_values(const GroupAgg *g, const unsigned char *p, WDatum *vals, uint8_t *vn)
{
    size_t hdr = g->hdr;
    for (int a = 0; a < g->naggs; a++) {
        const FAgg *fa = &g->fa[a];
        vn[a] = 0;
        switch (fa->op) {
        case F_COUNT_STAR: case F_COUNT:
            vals[a].i = rd_i(p, hdr, fa->f);
            break;
        case F_SUM: case F_SUM0: case F_MIN: case F_MAX:
            if (is_nul(p, fa->f)) { vn[a] = 1; vals[a].i = 0; break; }
            vals[a].i = rd_i(p, hdr, fa->f);   /* same bits for doubles */
            break;
        case F_AVG: {
            int64_t cnt = rd_i(p, hdr, fa->f + 1);
            if (cnt == 0) { vn[a] = 1; vals[a].i = 0; break; }
            if (fa->dbl) vals[a].d = rd_d(p, hdr, fa->f) / (double)cnt;
            else vals[a].i = wrap_res(rd_i(p, hdr, fa->f) / cnt, fa->res);
            break;
        }
        }
    }
}

static bool fast_equal(const GroupAgg *g, const WDatum *a, const uint8_t *an, const WDatum *b, const uint8_t *bn)
{
    for (int i = 0; i < g->naggs; i++) {
        if (an[i] != bn[i]) return false;
        if (an[i]) continue;
        if (g->fa[i].dbl && g->fa[i].op != F_COUNT && g->fa[i].op != F_COUNT_STAR) {
            if (!(a[i].d == b[i].d)) return false;
        } else if (a[i].i != b[i].i) return false;
    }
    return true;
}

static void fast_update(const GroupAgg *g, unsigned char *p, const WChunk *in, int r)
{
    size_t hdr = g->hdr;
    wr_i(p, hdr, 0, rd_i(p, hdr, 0) + 1);
    for (int a = 0; a < g->naggs; a++) {
        const FAgg *fa = &g->fa[a];
        if (fa->filter >= 0) {
            const WVector *fv = &in->cols[fa->filter];
            if (fv->nulls[r] || !fv->data[r].i) continue;
        }
        if (fa->op == F_COUNT_STAR) { wr_i(p, hdr, fa->f, rd_i(p, hdr, fa->f) + 1); continue; }
        const WVector *v = &in->cols[fa->arg];
        if (v->nulls[r]) continue;
        WDatum x = v->data[r];
        int f = fa->f;
        switch (fa->op) {
        case F_COUNT:
            wr_i(p, hdr, f, rd_i(p, hdr, f) + 1);
            break;
        case F_SUM:
            if (is_nul(p, f)) { clr_nul(p, f); wr_i(p, hdr, f, x.i); break; }
            /* fallthrough */
        case F_SUM0:
            if (fa->dbl) wr_d(p, hdr, f, rd_d(p, hdr, f) + x.d);
            else wr_i(p, hdr, f, wrap_res((int64_t)((uint64_t)rd_i(p, hdr, f) + (uint64_t)x.i), fa->res));
            break;
        case F_MIN:
            if (is_nul(p, f)) { clr_nul(p, f); wr_i(p, hdr, f, x.i); }
            else if (fa->dbl ? x.d < rd_d(p, hdr, f) : x.i < rd_i(p, hdr, f)) wr_i(p, hdr, f, x.i);
            break;
        case F_MAX:
            if (is_nul(p, f)) { clr_nul(p, f); wr_i(p, hdr, f, x.i); }
            else if (fa->dbl ? x.d > rd_d(p, hdr, f) : x.i > rd_i(p, hdr, f)) wr_i(p, hdr, f, x.i);
            break;
        case F_AVG:
            if (fa->dbl) wr_d(p, hdr, f, rd_d(p, hdr, f) + x.d);
            else wr_i(p, hdr, f, (int64_t)((uint64_t)rd_i(p, hdr, f) + (uint64_t)x.i));
            wr_i(p, hdr, f + 1, rd_i(p, hdr, f + 1) + 1);
            break;
        case F_COUNT_STAR:
            break;
        }
    }
}

static void process_fast(GroupAgg *g, const WChunk *in)
{
    for (int r = 0; r < in->nrows; r++) {
        Slot *s = &g->slots[g->row_slot[r]];
        if (s->expired) { g->ttl_expired++; s->expired = false; }
        bool first = !s->present;
        if (first) {
            memcpy(s->bytes, g->tmpl, g->acc_len);
            s->present = true;
        } else {
            fast_values(g, s->bytes, g->prev, g->prevn);
        }
        fast_update(g, s->bytes, in, r);
        s->dirty = true;
        fast_values(g, s->bytes, g->cur, g->curn);
        if (first) {
            emit_row(g, WRK_INSERT, in, r, g->cur, g->curn);
        } else if (g->ttl_ms > 0 || !fast_equal(g, g->prev, g->prevn, g->cur, g->curn)) {
            if (g->gen_ub) emit_row(g, WRK_UPDATE_BEFORE, in, r, g->prev, g->prevn);
            emit_row(g, WRK_UPDATE_AFTER, in, r, g->cur, g->curn);
        }
    }
}

/* ------------------------------------------------------------------ operator */

static void write_back(GroupAgg *g)
{
    for (int i = 0; i < g->nslots; i++) {
        Slot *s = &g->slots[i];
        if (!s->dirty) continue;
        set_slot_key(g, s);
        if (s->present) {
            if (g->fast) {
                wvalue_put(g->acc_state, s->bytes, g->acc_len);
            } else {
                wacc_encode(&g->ac, s->acc, s->nulls, &g->tmp);
                wvalue_put(g->acc_state, g->tmp.buf, g->tmp.len);
            }
        } else {
            wvalue_clear(g->acc_state);
        }
    }
}

static void ga_process(WOperator *op, int input, const WChunk *in)
{
    GroupAgg *g = (GroupAgg *)op;
    (void)input;
    if (!g->input_retracts) {
        for (int r = 0; r < in->nrows; r++) {
            if (wrowkind_is_retract((WRowKind)in->kinds[r])) {
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
    if (g->fast) process_fast(g, in);
    else process_general(g, in);
    write_back(g);
    flush_out(g);
}

static void ga_metrics(WOperator *op, char *buf, size_t bufsz)
{
    GroupAgg *g = (GroupAgg *)op;
    WStateStats st[64];
    int n = wstate_stats(g->backend, st, 64);
    int64_t entries = 0, bytes = 0;
    for (int i = 0; i < n; i++) {
        if (st[i].name && strcmp(st[i].name, g->state_name) == 0) entries = st[i].entries;
        bytes += st[i].bytes;
    }
    size_t len = strlen(buf);
    if (len >= bufsz) return;
    int w = snprintf(buf + len, bufsz - len, "%s%s.entries=%lld %s.bytes=%lld ttlExpiredRecords=%lld",
                     len ? " " : "", g->state_name, (long long)entries, g->state_name, (long long)bytes,
                     (long long)g->ttl_expired);
    if (w < 0) return;
    len += (size_t)w;
    if (g->dropped && len < bufsz)
        snprintf(buf + len, bufsz - len, " droppedRetractions=%lld", (long long)g->dropped);
}

static void ga_destroy(WOperator *op)
{
    GroupAgg *g = (GroupAgg *)op;
    wacc_ctx_free(&g->ac);
    wacc_layout_free(g->L);
    wstate_backend_free(g->backend);
    warena_free(&g->scratch);
    wchunk_free(g->out);
    wsb_free(&g->kbytes);
    wsb_free(&g->tmp);
    free(g->table);
    free(g->slots);
    free(g->row_slot);
    free(g->keys);
    free(g->ktypes);
    free(g->fa);
    free(g->tmpl);
    free(g->prev);
    free(g->cur);
    free(g->prevn);
    free(g->curn);
    free(g->state_name);
    free(g);
}

static const WOpOps GA_OPS = {.process = ga_process, .destroy = ga_destroy, .metrics = ga_metrics};

static bool fast_arg_type(const WType *t)
{
    switch (t->id) {
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT: case WT_DOUBLE: return true;
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
        fa[i] = (FAgg){.op = op, .dbl = ag->arg_type && ag->arg_type->id == WT_DOUBLE, .arg = ag->arg,
                       .filter = ag->filter_col, .f = ag->off, .res = ag->res_type};
    }
    for (int i = 0; i < L->nfields; i++)
        if (L->ftypes[i]->id != WT_BIGINT && L->ftypes[i]->id != WT_DOUBLE) goto no;
    g->fa = fa;
    g->fast = true;
    g->acc_len = wrow_fixed_size(L->nfields);
    g->hdr = g->acc_len - 8 * (size_t)L->nfields;
    WDatum *acc = wcalloc((size_t)L->nfields, sizeof(WDatum));
    uint8_t *nl = wcalloc((size_t)L->nfields, 1);
    wacc_create(L, acc, nl);
    wacc_encode(&g->ac, acc, nl, &g->tmp);
    g->tmpl = wmalloc(g->acc_len);
    memcpy(g->tmpl, g->tmp.buf, g->acc_len);
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
    g->in_types = spec->in_types;
    g->naggs = spec->naggs;
    g->input_retracts = spec->input_retracts;
    g->gen_ub = spec->generate_update_before;
    g->ttl_ms = spec->ttl_ms > 0 ? spec->ttl_ms : 0;
    g->state_name = wstrdup(spec->state_name ? spec->state_name : "groupAggregateState");
    warena_init(&g->scratch, 0);
    wsb_init(&g->kbytes);
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
    setup_fast(g, spec);
    return &g->base;
}
