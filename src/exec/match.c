/*
 * match.c — the Match operator (see match.h): per-key row buffers, Flink CepOperator's event
 * time / processing time handling, and evaluation of DEFINE conditions and MEASURES over the
 * rows of a (partial) match (MatchCodeGenerator's semantics: a variable's rows in match order,
 * the current row appended for the variable being defined and for the universal variable *;
 * FIRST(x, n) / LAST(x, n) count from either end; aggregates run over those rows).
 * May call exec/operator, exec/sort_buffer, exec/match_nfa, expr/, types/, common/.
 */
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

typedef struct KeyState {
    uint8_t *key;
    size_t keylen;
    uint64_t hash;
    WSortBuf pending;           /* event time: rows waiting for the watermark */
    WSortBuf hist;              /* rows fed to the NFA; row number = seq - base */
    int64_t base, next_seq;
    WNfaRun run;
} KeyState;

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
    int64_t cur_wm;
    KeyState **tab;             /* open addressing */
    size_t tabcap, nkeys_live;
    Prog *define;               /* per variable (p NULL = true) */
    Prog *measures;
    WEvalCtx ev;
    WArena arena;
    WError everr;
    WStrBuf kb;
    WChunk *out;
    /* the evaluation in progress */
    KeyState *ks;
    int64_t cur_seq, cur_ts;
    bool in_define;
    int cur_var;
    int64_t *list;
    int listcap;
    int64_t matches;
} MatchOp;

/* ---- keys ---- */

static KeyState *key_state(MatchOp *o, const WChunk *in, int r)
{
    wsb_clear(&o->kb);
    wrow_encode_chunk(&o->kb, in, r, o->sp.nkeys, o->sp.keys);
    uint64_t h = whash_bytes(o->kb.buf, o->kb.len, 0x5eed);
    if ((o->nkeys_live + 1) * 2 > o->tabcap) {
        size_t nc = o->tabcap ? o->tabcap * 2 : 64;
        KeyState **nt = wcalloc(nc, sizeof *nt);
        for (size_t i = 0; i < o->tabcap; i++) {
            KeyState *k = o->tab[i];
            if (!k) continue;
            size_t j = k->hash & (nc - 1);
            while (nt[j]) j = (j + 1) & (nc - 1);
            nt[j] = k;
        }
        free(o->tab);
        o->tab = nt;
        o->tabcap = nc;
    }
    size_t j = h & (o->tabcap - 1);
    while (o->tab[j]) {
        KeyState *k = o->tab[j];
        if (k->hash == h && k->keylen == o->kb.len && memcmp(k->key, o->kb.buf, k->keylen) == 0) return k;
        j = (j + 1) & (o->tabcap - 1);
    }
    KeyState *k = wcalloc(1, sizeof *k);
    k->keylen = o->kb.len;
    k->key = wmalloc(k->keylen ? k->keylen : 1);
    memcpy(k->key, o->kb.buf, k->keylen);
    k->hash = h;
    wsortbuf_init(&k->pending, o->sp.in_ncols, o->sp.in_types, o->sp.norder, o->sp.order, false);
    wsortbuf_init(&k->hist, o->sp.in_ncols, o->sp.in_types, 0, NULL, false);
    wnfa_run_init(&o->nfa, &k->run);
    o->tab[j] = k;
    o->nkeys_live++;
    return k;
}

static void key_free(KeyState *k)
{
    wsortbuf_free(&k->pending);
    wsortbuf_free(&k->hist);
    wnfa_run_free(&k->run);
    free(k->key);
    free(k);
}

/* ---- references ---- */

static WDatum hist_get(MatchOp *o, int64_t seq, int col, bool *isnull)
{
    return wsortbuf_get(&o->ks->hist, seq - o->ks->base, col, isnull);
}

/* The rows (sequence numbers) of the reference's variables, in match order. */
static int ref_rows(MatchOp *o, const WMatchRef *r, const WNfaStep *path, int npath)
{
    int n = 0;
    if (o->listcap < npath + 1) {
        o->listcap = (npath + 1) * 2;
        o->list = wrealloc(o->list, sizeof *o->list * (size_t)o->listcap);
    }
    for (int v = 0; v < o->ms->nvars; v++) {
        if (!(r->vars & (1ULL << v))) continue;
        for (int i = 0; i < npath; i++) if (path[i].var == v) o->list[n++] = path[i].seq;
    }
    if (o->in_define && (r->all || (r->vars & (1ULL << o->cur_var)))) o->list[n++] = o->cur_seq;
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
        WDatum v = hist_get(o, o->list[i], r->col, &nl);
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
                v = hist_get(o, o->list[idx], r->col, &isnull);
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

static void flush(MatchOp *o)
{
    if (o->out->nrows) wop_emit(&o->base, o->out);
    wchunk_reset(o->out);
}

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

static void gc_hist(MatchOp *o, KeyState *k)
{
    int64_t keep = wnfa_min_seq(&k->run);
    if (keep == INT64_MAX) keep = k->next_seq;
    int64_t dead = keep - k->base;
    if (dead <= 0 || dead * 2 < k->hist.n) return;
    for (int64_t i = 0; i < dead; i++) wsortbuf_kill(&k->hist, i);
    wsortbuf_compact(&k->hist);
    k->base = keep;
    (void)o;
}

static bool check_cb(MatchOp *o, WNfaCallbacks *cb)
{
    if (!cb->err) return !o->base.ctx->err->set;
    if (!o->base.ctx->err->set) {
        if (cb->errmsg) werr_set(o->base.ctx->err, "org.apache.flink.util.FlinkRuntimeException", "%s", cb->errmsg);
        else werr_set(o->base.ctx->err, o->everr.cls[0] ? o->everr.cls : WEXC_RUNTIME, "%s", o->everr.msg);
    }
    return false;
}

/* Feed the row (copied into hist) at time ts. */
static bool feed(MatchOp *o, KeyState *k, const WChunk *c, int r, int64_t ts, WNfaCallbacks *cb)
{
    int64_t num = wsortbuf_add(&k->hist, c, r);
    int64_t seq = k->base + num;
    k->next_seq = seq + 1;
    o->ks = k;
    o->cur_ts = ts;
    wnfa_process(&o->nfa, &k->run, seq, ts, cb);
    return check_cb(o, cb);
}

static void advance(MatchOp *o, KeyState *k, int64_t ts, WNfaCallbacks *cb)
{
    o->ks = k;
    o->cur_ts = ts;
    wnfa_advance(&o->nfa, &k->run, ts, cb);
    check_cb(o, cb);
}

static void m_process(WOperator *op, int input, const WChunk *in)
{
    MatchOp *o = (MatchOp *)op;
    (void)input;
    WNfaCallbacks cb = {.cond = nfa_cond, .match = nfa_match, .ctx = o};
    for (int r = 0; r < in->nrows && !op->ctx->err->set; r++) {
        if (wrowkind_is_retract((WRowKind)in->kinds[r])) continue;
        if (o->rowtime) {
            if (in->cols[o->time_col].nulls[r] || in->cols[o->time_col].data[r].ts.ms <= o->cur_wm) {
                op->late_dropped++;
                continue;
            }
            KeyState *k = key_state(o, in, r);
            wsortbuf_add(&k->pending, in, r);
        } else {
            KeyState *k = key_state(o, in, r);
            int64_t now = wexec_now(op->ctx);
            warena_reset(&o->arena);
            advance(o, k, now, &cb);
            if (!op->ctx->err->set) feed(o, k, in, r, now, &cb);
            gc_hist(o, k);
        }
    }
    flush(o);
}

static void process_key(MatchOp *o, KeyState *k, int64_t wm, WNfaCallbacks *cb)
{
    WSortBuf *b = &k->pending;
    int64_t n = 0;
    int64_t *idx = wmalloc(sizeof *idx * (size_t)(b->n ? b->n : 1));
    for (int64_t i = 0; i < b->n; i++) {
        if (!wsortbuf_is_live(b, i)) continue;
        bool isnull;
        if (wsortbuf_get(b, i, o->time_col, &isnull).ts.ms <= wm) idx[n++] = i;
    }
    wsortbuf_sort(b, idx, n, 0);
    int64_t last_ts = INT64_MIN;
    WChunk *one = wchunk_new(o->sp.in_ncols, o->sp.in_types, 1);
    for (int64_t i = 0; i < n && !o->base.ctx->err->set; i++) {
        bool isnull;
        int64_t ts = wsortbuf_get(b, idx[i], o->time_col, &isnull).ts.ms;
        warena_reset(&o->arena);
        if (ts != last_ts) {
            advance(o, k, ts, cb);
            last_ts = ts;
        }
        wchunk_reset(one);
        wsortbuf_emit_to(b, idx[i], one, WRK_INSERT);
        if (!feed(o, k, one, 0, ts, cb)) break;
        if (o->out->nrows >= o->out->cap) flush(o);
    }
    wchunk_free(one);
    for (int64_t i = 0; i < n; i++) wsortbuf_kill(b, idx[i]);
    if (b->live * 2 < b->n) wsortbuf_compact(b);
    free(idx);
    if (!o->base.ctx->err->set) advance(o, k, wm, cb);
    gc_hist(o, k);
}

static void m_watermark(WOperator *op, int64_t wm)
{
    MatchOp *o = (MatchOp *)op;
    if (o->rowtime) {
        WNfaCallbacks cb = {.cond = nfa_cond, .match = nfa_match, .ctx = o};
        for (size_t i = 0; i < o->tabcap && !op->ctx->err->set; i++) {
            KeyState *k = o->tab[i];
            if (k && k->pending.live) process_key(o, k, wm, &cb);
        }
        flush(o);
    }
    if (wm > o->cur_wm) o->cur_wm = wm;
    wop_emit_watermark(op, wm);
}

static void m_destroy(WOperator *op)
{
    MatchOp *o = (MatchOp *)op;
    for (size_t i = 0; i < o->tabcap; i++) if (o->tab[i]) key_free(o->tab[i]);
    free(o->tab);
    for (int v = 0; v < o->ms->nvars; v++) if (o->define[v].row) wchunk_free(o->define[v].row);
    for (int i = 0; i < o->ms->nmeasures; i++) if (o->measures[i].row) wchunk_free(o->measures[i].row);
    free(o->define);
    free(o->measures);
    free(o->list);
    wnfa_free(&o->nfa);
    wchunk_free(o->out);
    wsb_free(&o->kb);
    warena_free(&o->arena);
    free(o);
}

static void m_metrics(WOperator *op, char *buf, size_t bufsz)
{
    MatchOp *o = (MatchOp *)op;
    int64_t pending = 0, partial = 0;
    for (size_t i = 0; i < o->tabcap; i++)
        if (o->tab[i]) { pending += o->tab[i]->pending.live; partial += o->tab[i]->run.n - 1; }
    snprintf(buf, bufsz, "bufferedRows: %lld\npartialMatches: %lld\nmatches: %lld\n", (long long)pending,
             (long long)partial, (long long)o->matches);
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
    o->ev.arena = &o->arena;
    o->ev.cast = ctx->cast;
    o->ev.now_ms = ctx->start_ms;
    o->ev.err = &o->everr;
    wsb_init(&o->kb);
    o->out = wchunk_new(spec->out_ncols, spec->out_types, ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP);
    return &o->base;
}
