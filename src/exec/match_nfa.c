/*
 * match_nfa.c — Flink CEP's NFA for MATCH_RECOGNIZE patterns (see match_nfa.h).
 *
 * Compilation follows NFACompiler from the last element backwards to the start: a final state;
 * per element a singleton (TAKE to the next, PROCEED to the element's sink when optional), a
 * times(n, m) chain (n - 1 mandatory and m - n optional singletons, the greedy variant ANDs
 * "not this variable" into the transitions of the following state), or a looping state (PROCEED
 * to the sink, "not this variable" when greedy, then TAKE to itself) behind its times(n) chain.
 * Processing follows NFA.doProcess: for each partial match the decision graph (PROCEED edges are
 * followed at once, TAKE edges collected), one new partial match per TAKE, one more at the final
 * state when PROCEED edges lead there, the start state kept; completed matches wait until no
 * partial match started earlier, then the skip strategy prunes partial and waiting matches
 * (SKIP PAST LAST ROW: started at or before the last row; TO NEXT ROW: at or before the first
 * row; TO FIRST / TO LAST v: before v's first / last row). advanceTime drops partial matches
 * whose first row is WITHIN or more older. May call common/ only (and libc).
 */
#include "match_nfa.h"
#include "../common/sort.h"
#include "../common/arena.h"

#include <stdlib.h>
#include <string.h>

/* ---- compilation ---- */

typedef struct Builder {
    WNfa *nfa;
    int cap;
} Builder;

static int new_state(Builder *b, int var, bool final)
{
    WNfa *n = b->nfa;
    if (n->nstates == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 16;
        n->states = wrealloc(n->states, sizeof *n->states * (size_t)b->cap);
    }
    WNfaState *s = &n->states[n->nstates];
    memset(s, 0, sizeof *s);
    s->var = var;
    s->final = final;
    return n->nstates++;
}

static void add_edge(Builder *b, int from, int action, int target, WNfaCond cond)
{
    WNfaState *s = &b->nfa->states[from];
    s->edges[s->nedges++] = (WNfaEdge){action, target, cond};
}

static WNfaCond lit(int var, bool neg)
{
    WNfaCond c = {.n = 1};
    c.lit[0] = (WNfaLit){(int16_t)var, neg};
    return c;
}

static const WNfaCond TRUE_COND = {0};

static int singleton(Builder *b, int var, int target, int proceed, bool optional, bool greedy)
{
    int s = new_state(b, var, false);
    add_edge(b, s, WNFA_TAKE, target, lit(var, false));
    if (optional) add_edge(b, s, WNFA_PROCEED, proceed, greedy ? lit(var, true) : TRUE_COND);
    return s;
}

static bool greedy_update(Builder *b, int state, int var)
{
    WNfaState *s = &b->nfa->states[state];
    for (int i = 0; i < s->nedges; i++) {
        WNfaCond *c = &s->edges[i].cond;
        if (c->n >= WNFA_MAX_LITS) return false;
        c->lit[c->n++] = (WNfaLit){(int16_t)var, true};
    }
    return true;
}

bool wnfa_compile(const WMatchElem *elems, int n, int64_t window_ms, WMatchAfter after, int after_var,
                  WNfa *out, const char **msg)
{
    memset(out, 0, sizeof *out);
    Builder b = {out, 0};
    out->window_ms = window_ms;
    out->after = after;
    out->after_var = after_var;
    *msg = NULL;
    if (n <= 0) { *msg = "empty pattern"; return false; }
    int sink = new_state(&b, -1, true);
    for (int i = n - 1; i >= 0; i--) {
        const WMatchElem *e = &elems[i];
        int v = e->var;
        if (e->max == -1) {                         /* oneOrMore / timesOrMore (consecutive) */
            int from = e->min > 1 ? e->min : 1;
            bool optional = e->min == 0;
            int L = new_state(&b, v, false);
            add_edge(&b, L, WNFA_PROCEED, sink, e->greedy ? lit(v, true) : TRUE_COND);
            add_edge(&b, L, WNFA_TAKE, L, lit(v, false));
            int last = L;
            for (int k = 0; k < from - 1; k++) last = singleton(&b, v, last, -1, false, false);
            sink = singleton(&b, v, last, sink, optional, e->greedy);
        } else {                                    /* single, optional, times(n, m) */
            int from = e->min, to = e->max;
            bool optional = false;
            if (from == 0) { optional = true; from = 1; }
            if (to < from) { *msg = "To should be greater than or equal to from."; wnfa_free(out); return false; }
            if (e->greedy && from != to && !greedy_update(&b, sink, v)) {
                *msg = "pattern too complex"; wnfa_free(out); return false;
            }
            int proceed = sink, last = sink;
            for (int k = from; k < to; k++) last = singleton(&b, v, last, proceed, true, e->greedy);
            for (int k = 0; k < from - 1; k++) last = singleton(&b, v, last, -1, false, false);
            sink = singleton(&b, v, last, proceed, optional, e->greedy);
        }
    }
    out->start = sink;
    out->states[sink].start = true;
    return true;
}

void wnfa_free(WNfa *nfa)
{
    free(nfa->states);
    nfa->states = NULL;
    nfa->nstates = 0;
}

/* ---- computation states ---- */

static void cs_free(WNfaCS *c) { free(c->path); c->path = NULL; }

static WNfaCS cs_start(const WNfa *nfa, WNfaRun *run)
{
    WNfaCS c = {.state = nfa->start, .start_seq = -1, .order = run->next_order++};
    return c;
}

static void push(WNfaCS **arr, int *n, int *cap, WNfaCS c)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        *arr = wrealloc(*arr, sizeof **arr * (size_t)*cap);
    }
    (*arr)[(*n)++] = c;
}

/* Flink's COMPUTATION_STATE_COMPARATOR (start event; the start state last), creation order on ties. */
static int cs_cmp(const void *x, const void *y)
{
    const WNfaCS *a = x, *b = y;
    int64_t sa = a->start_seq < 0 ? INT64_MAX : a->start_seq, sb = b->start_seq < 0 ? INT64_MAX : b->start_seq;
    if (sa != sb) return sa < sb ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

void wnfa_run_init(const WNfa *nfa, WNfaRun *run)
{
    memset(run, 0, sizeof *run);
    push(&run->partial, &run->n, &run->cap, cs_start(nfa, run));
}

void wnfa_run_free(WNfaRun *run)
{
    for (int i = 0; i < run->n; i++) cs_free(&run->partial[i]);
    for (int i = 0; i < run->nc; i++) cs_free(&run->completed[i]);
    free(run->partial);
    free(run->completed);
    memset(run, 0, sizeof *run);
}

static bool cond_holds(const WNfaCond *c, const WNfaCS *cs, int64_t seq, WNfaCallbacks *cb)
{
    for (int i = 0; i < c->n; i++) {
        bool v = cb->cond(cb->ctx, c->lit[i].var, cs->path, cs->npath, seq, &cb->err);
        if (cb->err) return false;
        if (v == c->lit[i].neg) return false;
    }
    return true;
}

/* findFinalStateAfterProceed */
static bool final_after_proceed(const WNfa *nfa, int state, const WNfaCS *ctx, int64_t seq, WNfaCallbacks *cb)
{
    int stack[64], sp = 0;
    stack[sp++] = state;
    while (sp) {
        const WNfaState *s = &nfa->states[stack[--sp]];
        for (int i = 0; i < s->nedges; i++) {
            const WNfaEdge *e = &s->edges[i];
            if (e->action != WNFA_PROCEED || !cond_holds(&e->cond, ctx, seq, cb)) continue;
            if (nfa->states[e->target].final) return true;
            if (sp < 64) stack[sp++] = e->target;
        }
    }
    return false;
}

static WNfaCS cs_extend(const WNfaCS *from, int state, int64_t seq, int var, int64_t start_seq, int64_t start_ts,
                        WNfaRun *run)
{
    WNfaCS c = {.state = state, .start_seq = start_seq, .start_ts = start_ts, .order = run->next_order++};
    c.npath = from->npath + 1;
    c.cap = c.npath;
    c.path = wmalloc(sizeof *c.path * (size_t)c.cap);
    if (from->npath) memcpy(c.path, from->path, sizeof *c.path * (size_t)from->npath);
    c.path[from->npath] = (WNfaStep){seq, var};
    return c;
}

static WNfaCS cs_copy(const WNfaCS *from, int state, WNfaRun *run)
{
    WNfaCS c = *from;
    c.state = state;
    c.order = run->next_order++;
    c.cap = c.npath ? c.npath : 1;
    c.path = wmalloc(sizeof *c.path * (size_t)c.cap);
    if (c.npath) memcpy(c.path, from->path, sizeof *c.path * (size_t)c.npath);
    return c;
}

/* ---- the after-match skip strategies ---- */

static int64_t pruning_id(const WNfa *nfa, const WNfaCS *m, WNfaCallbacks *cb)
{
    int64_t id = -1;
    switch (nfa->after) {
    case WMA_PAST_LAST_ROW:
        for (int i = 0; i < m->npath; i++) if (m->path[i].seq > id) id = m->path[i].seq;
        return id;
    case WMA_TO_NEXT_ROW:
        return m->npath ? m->path[0].seq : -1;
    case WMA_TO_FIRST:
        for (int i = 0; i < m->npath; i++) if (m->path[i].var == nfa->after_var) return m->path[i].seq;
        break;
    case WMA_TO_LAST:
        for (int i = m->npath - 1; i >= 0; i--) if (m->path[i].var == nfa->after_var) return m->path[i].seq;
        break;
    }
    cb->err = true;
    cb->errmsg = nfa->after == WMA_TO_FIRST ? "Could not skip to first element of non-existing event."
                                             : "Could not skip to last element of non-existing event.";
    return -1;
}

static bool should_prune(const WNfa *nfa, int64_t start, int64_t id)
{
    if (start < 0) return false;
    return nfa->after == WMA_PAST_LAST_ROW || nfa->after == WMA_TO_NEXT_ROW ? start <= id : start < id;
}

static void prune(const WNfa *nfa, WNfaCS *arr, int *n, int64_t id)
{
    int k = 0;
    for (int i = 0; i < *n; i++) {
        if (should_prune(nfa, arr[i].start_seq, id)) cs_free(&arr[i]);
        else arr[k++] = arr[i];
    }
    *n = k;
}

static void emit_ready(const WNfa *nfa, WNfaRun *run, int64_t ts, WNfaCallbacks *cb)
{
    if (!run->nc) return;
    wqsort(run->completed, (size_t)run->nc, sizeof *run->completed, cs_cmp);
    wqsort(run->partial, (size_t)run->n, sizeof *run->partial, cs_cmp);
    while (run->nc && !cb->err) {
        WNfaCS m = run->completed[0];
        if (run->n && run->partial[0].start_seq >= 0 && cs_cmp(&m, &run->partial[0]) > 0) break;
        memmove(run->completed, run->completed + 1, sizeof *run->completed * (size_t)(run->nc - 1));
        run->nc--;
        int64_t id = pruning_id(nfa, &m, cb);
        if (cb->err) { cs_free(&m); return; }
        prune(nfa, run->partial, &run->n, id);
        prune(nfa, run->completed, &run->nc, id);
        cb->match(cb->ctx, m.path, m.npath, ts);
        cs_free(&m);
    }
}

void wnfa_process(const WNfa *nfa, WNfaRun *run, int64_t seq, int64_t ts, WNfaCallbacks *cb)
{
    wqsort(run->partial, (size_t)run->n, sizeof *run->partial, cs_cmp);
    WNfaCS *next = NULL;
    int nn = 0, capn = 0;
    for (int i = 0; i < run->n && !cb->err; i++) {
        WNfaCS *cs = &run->partial[i];
        /* decision graph */
        const WNfaEdge *takes[32];
        int from_state[32];
        int nt = 0;
        int stack[64], sp = 0;
        stack[sp++] = cs->state;
        while (sp && !cb->err) {
            int st = stack[--sp];
            const WNfaState *s = &nfa->states[st];
            for (int k = 0; k < s->nedges; k++) {
                const WNfaEdge *e = &s->edges[k];
                if (!cond_holds(&e->cond, cs, seq, cb)) continue;
                if (e->action == WNFA_PROCEED) { if (sp < 64) stack[sp++] = e->target; }
                else if (nt < 32) { takes[nt] = e; from_state[nt] = st; nt++; }
            }
        }
        bool is_start = nfa->states[cs->state].start;
        for (int k = 0; k < nt && !cb->err; k++) {
            int64_t sseq = is_start ? seq : cs->start_seq;
            int64_t sts = is_start ? ts : cs->start_ts;
            WNfaCS c = cs_extend(cs, takes[k]->target, seq, nfa->states[from_state[k]].var, sseq, sts, run);
            bool fin = final_after_proceed(nfa, takes[k]->target, cs, seq, cb);
            if (nfa->states[c.state].final) push(&run->completed, &run->nc, &run->capc, c);
            else push(&next, &nn, &capn, c);
            if (fin) push(&run->completed, &run->nc, &run->capc, cs_copy(&c, 0, run)),
                     run->completed[run->nc - 1].state = -1;
        }
        if (is_start) push(&next, &nn, &capn, cs_start(nfa, run));
    }
    for (int i = 0; i < run->n; i++) cs_free(&run->partial[i]);
    free(run->partial);
    run->partial = next;
    run->n = nn;
    run->cap = capn;
    if (!cb->err) emit_ready(nfa, run, ts, cb);
}

void wnfa_advance(const WNfa *nfa, WNfaRun *run, int64_t ts, WNfaCallbacks *cb)
{
    if (nfa->window_ms > 0) {
        int k = 0;
        for (int i = 0; i < run->n; i++) {
            WNfaCS *c = &run->partial[i];
            bool start = nfa->states[c->state].start && c->start_seq < 0;
            if (!start && c->start_seq >= 0 && ts - c->start_ts >= nfa->window_ms) cs_free(c);
            else run->partial[k++] = *c;
        }
        run->n = k;
    }
    emit_ready(nfa, run, ts, cb);
}

int64_t wnfa_min_seq(const WNfaRun *run)
{
    int64_t m = INT64_MAX;
    for (int i = 0; i < run->n; i++) if (run->partial[i].npath && run->partial[i].path[0].seq < m) m = run->partial[i].path[0].seq;
    for (int i = 0; i < run->nc; i++) if (run->completed[i].npath && run->completed[i].path[0].seq < m) m = run->completed[i].path[0].seq;
    return m;
}

bool wnfa_idle(const WNfaRun *run)
{
    return run->nc == 0 && run->n == 1 && run->partial[0].start_seq < 0;
}

/* ---- the run as bytes: u32 version | i64 next_order | i32 n | i32 nc |
   per computation state: i32 state | i64 start_seq | i64 start_ts | i64 order | i32 npath |
   npath x (i64 seq | i32 var) — host byte order (checkpoints are read by the same build) ---- */

#define RUN_VERSION 1u

static void put_cs(WStrBuf *out, const WNfaCS *c)
{
    int32_t st = c->state, np = c->npath;
    wsb_appendn(out, (const char *)&st, 4);
    wsb_appendn(out, (const char *)&c->start_seq, 8);
    wsb_appendn(out, (const char *)&c->start_ts, 8);
    wsb_appendn(out, (const char *)&c->order, 8);
    wsb_appendn(out, (const char *)&np, 4);
    for (int i = 0; i < c->npath; i++) {
        int32_t v = c->path[i].var;
        wsb_appendn(out, (const char *)&c->path[i].seq, 8);
        wsb_appendn(out, (const char *)&v, 4);
    }
}

void wnfa_run_encode(const WNfaRun *run, WStrBuf *out)
{
    uint32_t ver = RUN_VERSION;
    int32_t n = run->n, nc = run->nc;
    wsb_appendn(out, (const char *)&ver, 4);
    wsb_appendn(out, (const char *)&run->next_order, 8);
    wsb_appendn(out, (const char *)&n, 4);
    wsb_appendn(out, (const char *)&nc, 4);
    for (int i = 0; i < run->n; i++) put_cs(out, &run->partial[i]);
    for (int i = 0; i < run->nc; i++) put_cs(out, &run->completed[i]);
}

typedef struct Rd { const uint8_t *p, *end; bool bad; } Rd;

static void rd(Rd *r, void *dst, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) { r->bad = true; memset(dst, 0, n); return; }
    memcpy(dst, r->p, n);
    r->p += n;
}

static bool get_cs(Rd *r, const WNfa *nfa, bool completed, WNfaCS *c)
{
    int32_t st = 0, np = 0;
    memset(c, 0, sizeof *c);
    rd(r, &st, 4);
    rd(r, &c->start_seq, 8);
    rd(r, &c->start_ts, 8);
    rd(r, &c->order, 8);
    rd(r, &np, 4);
    if (r->bad || np < 0 || (size_t)np > (size_t)(r->end - r->p) / 12) return false;
    if (st < (completed ? -1 : 0) || st >= nfa->nstates) return false;
    c->state = st;
    c->npath = np;
    c->cap = np ? np : 1;
    c->path = wmalloc(sizeof *c->path * (size_t)c->cap);
    for (int i = 0; i < np; i++) {
        int32_t v = 0;
        rd(r, &c->path[i].seq, 8);
        rd(r, &v, 4);
        c->path[i].var = v;
    }
    if (r->bad) { cs_free(c); return false; }
    return true;
}

bool wnfa_run_decode(const WNfa *nfa, WNfaRun *run, const void *p, size_t len)
{
    memset(run, 0, sizeof *run);
    Rd r = {p, (const uint8_t *)p + len, false};
    uint32_t ver = 0;
    int32_t n = 0, nc = 0;
    rd(&r, &ver, 4);
    rd(&r, &run->next_order, 8);
    rd(&r, &n, 4);
    rd(&r, &nc, 4);
    bool ok = !r.bad && ver == RUN_VERSION && n >= 0 && nc >= 0;
    for (int i = 0; ok && i < n; i++) {
        WNfaCS c;
        if (!(ok = get_cs(&r, nfa, false, &c))) break;
        push(&run->partial, &run->n, &run->cap, c);
    }
    for (int i = 0; ok && i < nc; i++) {
        WNfaCS c;
        if (!(ok = get_cs(&r, nfa, true, &c))) break;
        push(&run->completed, &run->nc, &run->capc, c);
    }
    if (ok && r.p != r.end) ok = false;
    if (!ok) {
        wnfa_run_free(run);
        wnfa_run_init(nfa, run);
    }
    return ok;
}
