/*
 * match.c — the Match operator (see match.h): per-key row buffers, Flink CepOperator's event
 * time / processing time handling, and evaluation of DEFINE conditions and MEASURES over the
 * rows of a (partial) match (MatchCodeGenerator's semantics: a variable's rows in match order,
 * the current row appended for the variable being defined and for the universal variable *;
 * FIRST(x, n) / LAST(x, n) count from either end; aggregates run over those rows).
 * Per key a "session" loads the run from nfaStateName, reads rows of partial matches from
 * sharedBuffer-events only when a condition or measure needs them, feeds the key's rows, and saves
 * once: rows no partial match needs are removed, new ones a partial match needs are written.
 * Event-time rows of one chunk are grouped by key and time: one read and write of a time's list.
 * May call exec/operator, exec/sort_buffer, exec/match_nfa, state/, expr/, types/, common/.
 */
#include "insight.h"
#include "op_rows.h"
#include "../common/sort.h"
#include "match.h"
#include "match_nfa.h"
#include "../common/arena.h"
#include "../common/hash.h"
#include "../common/strbuf.h"
#include "../types/compare.h"
#include "../types/row.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows of the loaded key, in chunks of RS_ROWS (reused from key to key). */
#define RS_ROWS 64
typedef struct RowStore {
    WChunk **ch;
    int nch, capch;
    int64_t n;
    int ncols;
    const WType **types;
} RowStore;

typedef struct Ent { size_t koff; uint32_t klen; int r; int64_t ts; } Ent;

typedef struct Prog {
    const WMatchProg *p;
    WChunk *row;                /* one row: the references' values */
    WVector out;
    WDatum outd;
    uint8_t outn;
} Prog;

typedef struct MatchOp {
    WOperator base;
    WMatchOpSpec sp;
    const WMatchSpec *ms;
    WNfa nfa;
    bool rowtime;
    int time_col;
    int64_t cur_wm, adv_wm;
    /* keyed state (Flink's CepOperator / SharedBuffer names) and timers */
    WStateBackend *be;
    WState *queue;              /* eventQueuesStateName: time -> rows waiting for the watermark */
    WState *nfa_st;             /* nfaStateName: row numbering + the NFA's partial matches */
    WState *events;             /* sharedBuffer-events: row number -> row of a partial match */
    WTimerService *timers;
    /* the key loaded (a session: load, feed rows, save) */
    bool loaded;
    WStrBuf skey;
    WNfaRun run;
    int64_t seq0, next_seq;     /* rows seq0..next_seq-1 are addressable */
    int64_t stored_lo, stored_hi;   /* rows in sharedBuffer-events at load */
    int64_t *slot;              /* row number - base -> hist index, -1 = not loaded yet */
    int64_t slotcap;
    RowStore hist;
    /* decoding */
    WArena decarena;
    WChunk *dec;
    int *ord;
    int ordcap;
    int64_t *tsl;
    int tslcap;
    Ent *ents;
    int entcap;
    WStrBuf kall, list, enc;
    Prog *define;               /* per variable (p NULL = true) */
    Prog *measures;
    WEvalCtx ev;
    WArena arena;
    WError everr;
    WStrBuf kb;
    WChunk *out;
    /* the evaluation in progress */
    int64_t cur_seq, cur_ts;
    bool in_define;
    int cur_var;
    int64_t *list_seq;
    int listcap;
    int64_t matches;
} MatchOp;

/* ---- row store ---- */

static int64_t rs_add(RowStore *s, const WChunk *c, int r)
{
    int ci = (int)(s->n / RS_ROWS);
    if (ci == s->nch) {
        if (s->nch == s->capch) {
            s->capch = s->capch ? s->capch * 2 : 8;
            s->ch = wrealloc(s->ch, sizeof *s->ch * (size_t)s->capch);
        }
        s->ch[s->nch++] = wchunk_new(s->ncols, s->types, RS_ROWS);
    }
    wchunk_append_row(s->ch[ci], c, r);
    return s->n++;
}

static WDatum rs_get(const RowStore *s, int64_t i, int col, bool *isnull)
{
    const WChunk *h = s->ch[i / RS_ROWS];
    int r = (int)(i % RS_ROWS);
    *isnull = h->cols[col].nulls[r] != 0;
    return h->cols[col].data[r];
}

static void rs_reset(RowStore *s)
{
    for (int i = 0; i < s->nch; i++) if (s->ch[i]->nrows) wchunk_reset(s->ch[i]);
    s->n = 0;
}

static void rs_free(RowStore *s)
{
    for (int i = 0; i < s->nch; i++) wchunk_free(s->ch[i]);
    free(s->ch);
}

/* ---- the key's state: load, rows, save ---- */

static void ensure_slot(MatchOp *o, int64_t n)
{
    if (n <= o->slotcap) return;
    o->slotcap = n * 2 + 64;
    o->slot = wrealloc(o->slot, sizeof *o->slot * (size_t)o->slotcap);
}

static void session_load(MatchOp *o, const void *key, size_t klen)
{
    wstate_set_key(o->be, key, klen);
    wsb_clear(&o->skey);
    wsb_appendn(&o->skey, key, klen);
    if (o->loaded) wnfa_run_free(&o->run);
    rs_reset(&o->hist);
    o->loaded = true;
    WBytes v;
    o->seq0 = o->next_seq = 0;
    if (wvalue_get(o->nfa_st, &v) == WSL_FOUND) {
        if (v.len < 16 || !wnfa_run_decode(&o->nfa, &o->run, (const uint8_t *)v.p + 16, v.len - 16)) {
            if (v.len >= 16) wnfa_run_free(&o->run);
            wnfa_run_init(&o->nfa, &o->run);
            werr_set(o->base.ctx->err, WEXC_RUNTIME, "%s: damaged nfaStateName entry", o->base.name ? o->base.name : "Match");
        } else {
            memcpy(&o->seq0, v.p, 8);
            memcpy(&o->next_seq, (const uint8_t *)v.p + 8, 8);
            if (o->next_seq < o->seq0) o->next_seq = o->seq0;
        }
    } else {
        wnfa_run_init(&o->nfa, &o->run);
    }
    o->stored_lo = o->seq0;
    o->stored_hi = o->next_seq;
    ensure_slot(o, o->next_seq - o->seq0);
    for (int64_t i = 0; i < o->next_seq - o->seq0; i++) o->slot[i] = -1;
}

/* Write the loaded key back: rows no partial match needs leave sharedBuffer-events, new rows a
   partial match needs enter it, the run is stored (or cleared when only the start state is left,
   which also restarts the row numbering). */
static void session_save(MatchOp *o)
{
    if (!o->loaded) return;
    wstate_set_key(o->be, o->skey.buf, o->skey.len);
    bool idle = wnfa_idle(&o->run);
    int64_t keep = idle ? o->next_seq : wnfa_min_seq(&o->run);
    if (keep == INT64_MAX || keep > o->next_seq) keep = o->next_seq;
    if (keep < o->seq0) keep = o->seq0;
    uint8_t uk[8];
    for (int64_t q = o->stored_lo; q < keep && q < o->stored_hi; q++) {
        wkey_put_be64(uk, q);
        wmap_remove(o->events, uk, 8);
    }
    for (int64_t q = keep > o->stored_hi ? keep : o->stored_hi; q < o->next_seq; q++) {
        int64_t h = o->slot[q - o->seq0];
        if (h < 0) continue;
        WChunk *c = o->hist.ch[h / RS_ROWS];
        wsb_clear(&o->list);
        wrowlist_append(&o->list, c, (int)(h % RS_ROWS), &o->enc);
        wkey_put_be64(uk, q);
        wmap_put(o->events, uk, 8, o->list.buf + 4, o->list.len - 4);
    }
    if (idle) {
        wvalue_clear(o->nfa_st);
    } else {
        wsb_clear(&o->list);
        wsb_appendn(&o->list, (const char *)&keep, 8);
        wsb_appendn(&o->list, (const char *)&o->next_seq, 8);
        wnfa_run_encode(&o->run, &o->list);
        wvalue_put(o->nfa_st, o->list.buf, o->list.len);
    }
    wnfa_run_free(&o->run);
    o->loaded = false;
}

/* Row `seq` of the loaded key (from sharedBuffer-events on first use); -1 when absent. */
static int64_t hist_row(MatchOp *o, int64_t seq)
{
    if (seq < o->seq0 || seq >= o->next_seq) return -1;
    int64_t h = o->slot[seq - o->seq0];
    if (h >= 0) return h;
    uint8_t uk[8];
    wkey_put_be64(uk, seq);
    WBytes v;
    if (wmap_get(o->events, uk, 8, &v) != WSL_FOUND) return -1;
    warena_reset(&o->decarena);
    if (o->dec) wchunk_reset(o->dec);
    if (!wrow_decode_into(v.p, v.len, &o->dec, o->sp.in_ncols, o->sp.in_types, &o->decarena)) return -1;
    h = rs_add(&o->hist, o->dec, 0);
    o->slot[seq - o->seq0] = h;
    return h;
}

/* ---- references ---- */

static WDatum hist_get(MatchOp *o, int64_t seq, int col, bool *isnull)
{
    int64_t h = hist_row(o, seq);
    if (h < 0) { *isnull = true; return (WDatum){0}; }
    return rs_get(&o->hist, h, col, isnull);
}

/* The rows (sequence numbers) of the reference's variables, in match order. */
static int ref_rows(MatchOp *o, const WMatchRef *r, const WNfaStep *path, int npath)
{
    int n = 0;
    if (o->listcap < npath + 1) {
        o->listcap = (npath + 1) * 2;
        o->list_seq = wrealloc(o->list_seq, sizeof *o->list_seq * (size_t)o->listcap);
    }
    for (int v = 0; v < o->ms->nvars; v++) {
        if (!(r->vars & (1ULL << v))) continue;
        for (int i = 0; i < npath; i++) if (path[i].var == v) o->list_seq[n++] = path[i].seq;
    }
    if (o->in_define && (r->all || (r->vars & (1ULL << o->cur_var)))) o->list_seq[n++] = o->cur_seq;
    return n;
}

static bool agg_value(MatchOp *o, const WMatchRef *r, int n, WDatum *out, bool *isnull)
{
    *isnull = true;
    if (r->agg == WAGG_COUNT_STAR) { out->i = n; *isnull = false; return true; }
    const WType *at = o->sp.in_types[r->col];
    bool isint = wtype_is_integer(at);
    int64_t isum = 0, cnt = 0;
    double dsum = 0;
    WDatum best = {0};
    bool have = false;
    for (int i = 0; i < n; i++) {
        bool nl;
        WDatum v = hist_get(o, o->list_seq[i], r->col, &nl);
        if (nl) continue;
        cnt++;
        if (r->agg == WAGG_SUM || r->agg == WAGG_AVG) {
            if (isint) isum = (int64_t)((uint64_t)isum + (uint64_t)v.i);
            else dsum += v.d;
        } else if (r->agg == WAGG_MIN || r->agg == WAGG_MAX) {
            int c = have ? wdatum_compare(at, v, best) : 0;
            if (!have || (r->agg == WAGG_MIN ? c < 0 : c > 0)) best = v;
            have = true;
        }
    }
    switch (r->agg) {
    case WAGG_COUNT: out->i = cnt; *isnull = false; break;
    case WAGG_SUM: case WAGG_AVG:
        if (!cnt) break;
        *isnull = false;
        if (isint) {
            int64_t v = r->agg == WAGG_SUM ? isum : isum / cnt;
            switch (r->type->id) {
            case WT_TINYINT: v = (int8_t)v; break;
            case WT_SMALLINT: v = (int16_t)v; break;
            case WT_INT: v = (int32_t)v; break;
            default: break;
            }
            out->i = v;
        } else {
            out->d = r->agg == WAGG_SUM ? dsum : dsum / (double)cnt;
            if (r->type->id == WT_FLOAT) out->d = (float)out->d;
        }
        break;
    default:
        if (have) { *out = best; *isnull = false; }
        break;
    }
    return true;
}

/* Evaluate a program for the given match rows; result in pg->outd / pg->outn. */
static bool run_prog(MatchOp *o, Prog *pg, const WNfaStep *path, int npath)
{
    const WMatchProg *p = pg->p;
    WChunk *c = pg->row;
    wchunk_reset(c);
    wchunk_add_row(c, WRK_INSERT);
    for (int k = 0; k < p->nrefs; k++) {
        const WMatchRef *r = &p->refs[k];
        WDatum v = {0};
        bool isnull = true;
        switch (r->kind) {
        case WMR_FIELD: {
            int n = ref_rows(o, r, path, npath);
            if (n > r->offset) {
                int idx = r->first ? r->offset : n - 1 - r->offset;
                v = hist_get(o, o->list_seq[idx], r->col, &isnull);
            }
            break;
        }
        case WMR_AGG:
            agg_value(o, r, ref_rows(o, r, path, npath), &v, &isnull);
            break;
        case WMR_ROWTIME:
            v.ts.ms = o->cur_ts;
            v.ts.ns = 0;
            isnull = false;
            break;
        case WMR_PROCTIME:
            v.ts.ms = wexec_now(o->base.ctx);
            v.ts.ns = 0;
            isnull = false;
            break;
        }
        c->cols[k].data[0] = v;
        c->cols[k].nulls[0] = isnull;
    }
    pg->out.type = p->expr->type;
    pg->out.data = &pg->outd;
    pg->out.nulls = &pg->outn;
    if (!wexpr_eval(&o->ev, p->expr, c, NULL, &pg->out)) return false;
    return true;
}

static bool nfa_cond(void *ctx, int var, const WNfaStep *path, int npath, int64_t seq, bool *err)
{
    MatchOp *o = ctx;
    Prog *pg = &o->define[var];
    if (!pg->p) return true;
    o->in_define = true;
    o->cur_var = var;
    o->cur_seq = seq;
    bool ok = run_prog(o, pg, path, npath);
    o->in_define = false;
    if (!ok) { *err = true; return false; }
    return !pg->outn && pg->outd.i != 0;
}

static void flush(MatchOp *o) { wop_out_flush(&o->base, o->out); }

static void nfa_match(void *ctx, const WNfaStep *path, int npath, int64_t ts)
{
    MatchOp *o = ctx;
    if (o->base.ctx->err->set) return;
    if (o->out->nrows >= o->out->cap) flush(o);
    int row = wchunk_add_row(o->out, WRK_INSERT);
    int nk = o->sp.nkeys;
    o->cur_ts = ts;
    for (int k = 0; k < nk; k++) {
        bool isnull;
        WDatum v = hist_get(o, path[0].seq, o->sp.keys[k], &isnull);
        o->out->cols[k].nulls[row] = isnull;
        o->out->cols[k].data[row] = isnull ? (WDatum){0} : wdatum_copy(o->out->arena, o->out->types[k], v);
    }
    for (int i = 0; i < o->ms->nmeasures; i++) {
        Prog *pg = &o->measures[i];
        if (!run_prog(o, pg, path, npath)) {
            werr_set(o->base.ctx->err, o->everr.cls[0] ? o->everr.cls : WEXC_RUNTIME, "%s", o->everr.msg);
            return;
        }
        o->out->cols[nk + i].nulls[row] = pg->outn;
        o->out->cols[nk + i].data[row] = pg->outn ? (WDatum){0} : wdatum_copy(o->out->arena, o->out->types[nk + i], pg->outd);
    }
    o->matches++;
}

/* ---- feeding the NFA ---- */

static bool check_cb(MatchOp *o, WNfaCallbacks *cb)
{
    if (!cb->err) return !o->base.ctx->err->set;
    if (!o->base.ctx->err->set) {
        if (cb->errmsg) werr_set(o->base.ctx->err, "org.apache.flink.util.FlinkRuntimeException", "%s", cb->errmsg);
        else werr_set(o->base.ctx->err, o->everr.cls[0] ? o->everr.cls : WEXC_RUNTIME, "%s", o->everr.msg);
    }
    return false;
}

/* Feed row r of c (copied into the loaded key's rows) at time ts. */
static bool feed(MatchOp *o, const WChunk *c, int r, int64_t ts, WNfaCallbacks *cb)
{
    int64_t seq = o->next_seq++;
    ensure_slot(o, o->next_seq - o->seq0);
    o->slot[seq - o->seq0] = rs_add(&o->hist, c, r);
    o->cur_ts = ts;
    wnfa_process(&o->nfa, &o->run, seq, ts, cb);
    return check_cb(o, cb);
}

static void advance(MatchOp *o, int64_t ts, WNfaCallbacks *cb)
{
    o->cur_ts = ts;
    wnfa_advance(&o->nfa, &o->run, ts, cb);
    check_cb(o, cb);
}

static void ensure_ord(MatchOp *o, int n)
{
    if (n <= o->ordcap) return;
    o->ordcap = n * 2 + 64;
    o->ord = wrealloc(o->ord, sizeof *o->ord * (size_t)o->ordcap);
}

/* Entries of one chunk by key bytes, then time, then arrival (stable merge sort). */
static int ent_cmp(const Ent *a, const Ent *b, const char *kb)
{
    size_t n = a->klen < b->klen ? a->klen : b->klen;
    int c = n ? memcmp(kb + a->koff, kb + b->koff, n) : 0;
    if (c) return c;
    if (a->klen != b->klen) return a->klen < b->klen ? -1 : 1;
    if (a->ts != b->ts) return a->ts < b->ts ? -1 : 1;
    return a->r < b->r ? -1 : a->r > b->r;
}

static void sort_ents(Ent *e, int n, const char *kb)
{
    Ent *tmp = wmalloc(sizeof *tmp * (size_t)(n ? n : 1));
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int a = lo, b = mid, k = lo;
            while (a < mid && b < hi) tmp[k++] = ent_cmp(&e[b], &e[a], kb) < 0 ? e[b++] : e[a++];
            while (a < mid) tmp[k++] = e[a++];
            while (b < hi) tmp[k++] = e[b++];
        }
        memcpy(e, tmp, sizeof *e * (size_t)n);
    }
    free(tmp);
}

/* Event time: buffer the chunk's rows in eventQueuesStateName, one read and write per key and
   time, and an event-time timer per new time (CepOperator.bufferEvent). */
static void rt_process(MatchOp *o, const WChunk *in)
{
    WOperator *op = &o->base;
    if (o->entcap < in->nrows) {
        o->entcap = in->nrows * 2;
        o->ents = wrealloc(o->ents, sizeof *o->ents * (size_t)o->entcap);
    }
    int n = 0;
    wsb_clear(&o->kall);
    for (int r = 0; r < in->nrows; r++) {
        if (wrowkind_is_retract((WRowKind)in->kinds[r])) continue;
        if (in->cols[o->time_col].nulls[r] || in->cols[o->time_col].data[r].ts.ms <= o->cur_wm) {
            wop_late_row(op, 0, in, r, in->cols[o->time_col].nulls[r] ? 0 : winsight_lateness(o->cur_wm, in->cols[o->time_col].data[r].ts.ms));
            continue;
        }
        wrow_encode_chunk(&o->kb, in, r, o->sp.nkeys, o->sp.keys);
        o->ents[n] = (Ent){o->kall.len, (uint32_t)o->kb.len, r, in->cols[o->time_col].data[r].ts.ms};
        wsb_appendn(&o->kall, o->kb.buf, o->kb.len);
        n++;
    }
    sort_ents(o->ents, n, o->kall.buf);
    for (int i = 0; i < n;) {
        const Ent *k0 = &o->ents[i];
        const char *key = o->kall.buf + k0->koff;
        wstate_set_key(o->be, key, k0->klen);
        while (i < n && o->ents[i].klen == k0->klen && memcmp(o->kall.buf + o->ents[i].koff, key, k0->klen) == 0) {
            int64_t t = o->ents[i].ts;
            uint8_t uk[8];
            wkey_put_be64(uk, t);
            WBytes old;
            wsb_clear(&o->list);
            bool had = wmap_get(o->queue, uk, 8, &old) == WSL_FOUND;
            if (had) wsb_appendn(&o->list, old.p, old.len);
            for (; i < n && o->ents[i].ts == t && o->ents[i].klen == k0->klen &&
                   memcmp(o->kall.buf + o->ents[i].koff, key, k0->klen) == 0; i++)
                wrowlist_append(&o->list, in, o->ents[i].r, &o->enc);
            wmap_put(o->queue, uk, 8, o->list.buf, o->list.len);
            if (!had) wtimers_register(o->timers, t, key, k0->klen, 0);
        }
    }
}

/* Processing time: rows run at once, in arrival order; a key stays loaded while its rows follow
   each other and is saved at the end of the chunk. */
static void pt_process(MatchOp *o, const WChunk *in)
{
    WOperator *op = &o->base;
    WNfaCallbacks cb = {.cond = nfa_cond, .match = nfa_match, .ctx = o};
    for (int r = 0; r < in->nrows && !op->ctx->err->set; r++) {
        if (wrowkind_is_retract((WRowKind)in->kinds[r])) continue;
        wrow_encode_chunk(&o->kb, in, r, o->sp.nkeys, o->sp.keys);
        if (!o->loaded || o->kb.len != o->skey.len || memcmp(o->kb.buf, o->skey.buf, o->kb.len) != 0) {
            session_save(o);
            session_load(o, o->kb.buf, o->kb.len);
        }
        int64_t now = wexec_now(op->ctx);
        warena_reset(&o->arena);
        advance(o, now, &cb);
        if (!op->ctx->err->set) feed(o, in, r, now, &cb);
    }
    session_save(o);
}

static void m_process(WOperator *op, int input, const WChunk *in)
{
    MatchOp *o = (MatchOp *)op;
    (void)input;
    if (op->ctx->err->set || !o->nfa.states) return;
    if (o->rowtime) rt_process(o, in);
    else pt_process(o, in);
    flush(o);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* CepOperator.onEventTime: the key's waiting rows up to the watermark run through the NFA in time
   order (ties by the secondary ORDER BY keys, then arrival), then time advances to the watermark.
   One timer does it for all the key's due times (their other timers are deleted). */
static void on_timer(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    MatchOp *o = ctx;
    (void)ns;
    if (o->base.ctx->err->set) return;
    int64_t wm = o->adv_wm;
    session_load(o, key, klen);
    int nt = 0;
    size_t sz = wmap_size(o->queue);
    if ((size_t)o->tslcap < sz) {
        o->tslcap = (int)sz * 2 + 16;
        o->tsl = wrealloc(o->tsl, sizeof *o->tsl * (size_t)o->tslcap);
    }
    WMapIter it;
    WBytes uk, uv;
    wmap_iter(o->queue, &it);
    while (wmap_next(&it, &uk, &uv) && (size_t)nt < sz)
        if (uk.len == 8 && wkey_get_be64(uk.p) <= wm) o->tsl[nt++] = wkey_get_be64(uk.p);
    wqsort(o->tsl, (size_t)nt, sizeof *o->tsl, cmp_i64);
    WNfaCallbacks cb = {.cond = nfa_cond, .match = nfa_match, .ctx = o};
    for (int i = 0; i < nt && !o->base.ctx->err->set; i++) {
        int64_t t = o->tsl[i];
        uint8_t tk[8];
        wkey_put_be64(tk, t);
        WBytes v;
        if (wmap_get(o->queue, tk, 8, &v) != WSL_FOUND) continue;
        warena_reset(&o->decarena);
        if (o->dec) wchunk_reset(o->dec);
        int n = wrowlist_decode(v.p, v.len, &o->dec, o->sp.in_ncols, o->sp.in_types, &o->decarena);
        if (n < 0) {
            werr_set(o->base.ctx->err, WEXC_RUNTIME, "%s: damaged eventQueuesStateName entry",
                     o->base.name ? o->base.name : "Match");
            break;
        }
        ensure_ord(o, n);
        for (int j = 0; j < n; j++) o->ord[j] = j;
        wsort_chunk_rows(o->dec, o->sp.order, o->sp.norder, 1, o->ord, n);
        warena_reset(&o->arena);
        advance(o, t, &cb);
        for (int j = 0; j < n && !o->base.ctx->err->set; j++) {
            warena_reset(&o->arena);
            if (!feed(o, o->dec, o->ord[j], t, &cb)) break;
        }
        wmap_remove(o->queue, tk, 8);
        if (t != ts) wtimers_delete(o->timers, t, key, klen, 0);
    }
    if (!o->base.ctx->err->set) {
        warena_reset(&o->arena);
        advance(o, wm, &cb);
    }
    /* partial matches that WITHIN may time out: look again at the next watermark */
    if (o->nfa.window_ms > 0 && !wnfa_idle(&o->run) && wm < INT64_MAX)
        wtimers_register(o->timers, wm + 1, key, klen, 0);
    session_save(o);
}

static void m_watermark(WOperator *op, int64_t wm)
{
    MatchOp *o = (MatchOp *)op;
    if (o->rowtime && o->nfa.states && !op->ctx->err->set) {
        o->adv_wm = wm;
        wtimers_advance(o->timers, wm, on_timer, o);
        flush(o);
    }
    if (wm > o->cur_wm) o->cur_wm = wm;
    wop_emit_watermark(op, wm);
}

static void m_destroy(WOperator *op)
{
    MatchOp *o = (MatchOp *)op;
    if (o->loaded) wnfa_run_free(&o->run);
    wstate_backend_free(o->be);
    wtimers_free(o->timers);
    rs_free(&o->hist);
    free(o->slot);
    warena_free(&o->decarena);
    if (o->dec) wchunk_free(o->dec);
    free(o->ord);
    free(o->tsl);
    free(o->ents);
    wsb_free(&o->kall);
    wsb_free(&o->list);
    wsb_free(&o->enc);
    wsb_free(&o->skey);
    for (int v = 0; v < o->ms->nvars; v++) if (o->define[v].row) wchunk_free(o->define[v].row);
    for (int i = 0; i < o->ms->nmeasures; i++) if (o->measures[i].row) wchunk_free(o->measures[i].row);
    free(o->define);
    free(o->measures);
    free(o->list_seq);
    wnfa_free(&o->nfa);
    wchunk_free(o->out);
    wsb_free(&o->kb);
    warena_free(&o->arena);
    free(o);
}

static void m_metrics(WOperator *op, WOpMetrics *m)
{
    MatchOp *o = (MatchOp *)op;
    wop_metrics_states(m, o->be);
    wop_metrics_value(m, "matches", o->matches);
    wop_metrics_value(m, "numLateRecordsDropped", op->late_dropped);
}

static const WOpOps MATCH_OPS = {.process = m_process, .watermark = m_watermark, .destroy = m_destroy,
                                 .metrics = m_metrics};

static void prog_init(Prog *pg, const WMatchProg *p)
{
    pg->p = p;
    if (!p) return;
    const WType **ts = wmalloc(sizeof *ts * (size_t)(p->nrefs ? p->nrefs : 1));
    for (int k = 0; k < p->nrefs; k++) ts[k] = p->refs[k].type;
    pg->row = wchunk_new(p->nrefs, ts, 1);
    free(ts);
}

WOperator *wop_match_new(WExecCtx *ctx, const WMatchOpSpec *spec)
{
    MatchOp *o = wcalloc(1, sizeof *o);
    wop_init(&o->base, &MATCH_OPS, ctx, 1, spec->out_ncols, spec->out_types, spec->out_names);
    o->sp = *spec;
    o->ms = spec->spec;
    o->time_col = spec->order[0].col;
    o->rowtime = spec->in_types[o->time_col]->time_attr == WTA_ROWTIME;
    o->cur_wm = INT64_MIN;
    const char *msg = NULL;
    if (!wnfa_compile(o->ms->elems, o->ms->nelems, o->ms->has_within ? o->ms->within_ms : 0, o->ms->after,
                      o->ms->after_var, &o->nfa, &msg))
        werr_set(ctx->err, WEXC_TABLE, "%s", msg ? msg : "invalid pattern");
    o->define = wcalloc((size_t)(o->ms->nvars ? o->ms->nvars : 1), sizeof *o->define);
    for (int v = 0; v < o->ms->nvars; v++) prog_init(&o->define[v], o->ms->define[v]);
    o->measures = wcalloc((size_t)(o->ms->nmeasures ? o->ms->nmeasures : 1), sizeof *o->measures);
    for (int i = 0; i < o->ms->nmeasures; i++) prog_init(&o->measures[i], &o->ms->measures[i]);
    warena_init(&o->arena, 0);
    warena_init(&o->decarena, 0);
    o->ev.arena = &o->arena;
    o->ev.cast = ctx->cast;
    o->ev.now_ms = ctx->start_ms;
    o->ev.clock = ctx->clock;
    o->ev.clock_ctx = ctx->clock_ctx;
    o->ev.err = &o->everr;
    wsb_init(&o->kb);
    wsb_init(&o->kall);
    wsb_init(&o->list);
    wsb_init(&o->enc);
    wsb_init(&o->skey);
    o->hist.ncols = spec->in_ncols;
    o->hist.types = spec->in_types;
    o->be = wexec_new_backend(ctx, "Match");
    o->queue = wstate_register(o->be, "eventQueuesStateName", WSTATE_MAP, 0);
    o->nfa_st = wstate_register(o->be, "nfaStateName", WSTATE_VALUE, 0);
    o->events = wstate_register(o->be, "sharedBuffer-events", WSTATE_MAP, 0);
    o->timers = wexec_new_timers(ctx, "Match");
    o->out = wchunk_new(spec->out_ncols, spec->out_types, ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP);
    return &o->base;
}
