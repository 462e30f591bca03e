/*
 * split_distinct.c — Flink's SplitAggregateRule (table.optimizer.distinct-agg.split.enabled,
 * .bucket-num, default 1024) for group aggregates and window TVF aggregates:
 *
 *   STEP 1  Calc: the input and MOD(HASH_CODE(x), buckets) AS $fN for every argument x of a call
 *           that needs buckets (DISTINCT calls, MIN/MAX/FIRST_VALUE/LAST_VALUE) and is no key.
 *   STEP 2  one grouping set per such call: keys + its bucket columns (the keys alone for the
 *           other calls), ordered as Calcite's ImmutableBitSet.ORDERING orders them. When more
 *           than one call adds its own bucket set, an Expand emits every row once per set (the
 *           bucket columns of the other sets NULL, $e = ExpandUtil.genExpandId) and a Calc turns
 *           $e into the filters `($e = n) AS $g_n` (AND the call's own FILTER), which the
 *           partial calls use. The PARTIAL aggregate groups by the keys and every bucket column.
 *   STEP 3  the FINAL aggregate groups by the keys: COUNT -> $SUM0, the others merge themselves.
 *   STEP 4  a Calc back to the original row.
 *
 * For a WindowAggregate (row time; not SESSION, not legacy group windows) the PARTIAL level is a
 * WindowAggregate of the same window grouped by the keys and the buckets, and the FINAL level a
 * window-attached WindowAggregate over its window_start / window_end (Flink's plans:
 * WindowAggregate -> Calc -> WindowAggregate, each of which TwoStageOptimizedWindowAggregateRule
 * may split in Local/Global later).
 *
 * weir splits COUNT/SUM/$SUM0/MIN/MAX/FIRST_VALUE/LAST_VALUE of at most one argument; AVG, LISTAGG
 * and several-argument calls keep the one-level plan, and so do the rare Expand cases that need
 * duplicated argument columns (ExpandUtil's duplicate fields).
 *
 * May call plan.h, expr/ (function lookup), types/, common/.
 */
#include "agg_rules.h"
#include "../expr/functions.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_COLS 64

static int *ints(WPlanCtx *p, int n) { return WA_ARRAY(p->arena, int, n ? n : 1); }

static bool opt_bool(WPlanCtx *p, const char *key, bool dflt)
{
    bool v = dflt;
    WError tmp;
    werr_clear(&tmp);
    wopts_get_bool(p->config, key, dflt, &v, &tmp);
    return v;
}

static int64_t opt_long(WPlanCtx *p, const char *key, int64_t dflt)
{
    int64_t v = dflt;
    WError tmp;
    werr_clear(&tmp);
    wopts_get_long(p->config, key, dflt, &v, &tmp);
    return v;
}

static bool split_supported(const WAggCall *c)
{
    switch (c->kind) {
    case WAGG_COUNT_STAR: case WAGG_COUNT: case WAGG_SUM: case WAGG_SUM0: case WAGG_MIN: case WAGG_MAX:
    case WAGG_FIRST_VALUE: case WAGG_LAST_VALUE:
        return c->nargs <= 1;
    default:
        return false;
    }
}

/* MIN/MAX/FIRST_VALUE/LAST_VALUE are split by buckets too (they would retract into one hot
   instance), and every DISTINCT call. */
static bool needs_hash(const WAggCall *c)
{
    return c->distinct || c->kind == WAGG_MIN || c->kind == WAGG_MAX || c->kind == WAGG_FIRST_VALUE ||
           c->kind == WAGG_LAST_VALUE;
}

static bool has_name(const char **names, int n, const char *s)
{
    for (int i = 0; i < n; i++) if (names[i] && !strcmp(names[i], s)) return true;
    return false;
}

/* Calcite's names for unnamed fields: <base>, then <base>_0, _1, ... on a clash. */
static const char *unique_name(WArena *a, const char **names, int n, const char *base)
{
    const char *nm = base;
    for (int i = 0; has_name(names, n, nm); i++) nm = wa_sprintf(a, "%s_%d", base, i);
    return nm;
}

static const char *calcite_name(WArena *a, const char **names, int n, int pos)
{
    return unique_name(a, names, n, wa_sprintf(a, "$f%d", pos));
}

static bool contains(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++) if (v[i] == x) return true;
    return false;
}

static void sort_ints(int *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) { int t = v[j]; v[j] = v[j - 1]; v[j - 1] = t; }
}

static WExpr *hash_bucket(WPlanCtx *p, WExpr *col, int64_t buckets)
{
    WArena *a = p->arena;
    const WFuncDef *hc = wfunc_lookup("HASH_CODE"), *mod = wfunc_lookup("MOD");
    if (!hc || !mod) return NULL;
    WExpr *h = wexpr_new(a, WX_CALL, wtype_with_nullable(a, &WTYPE_INT, col->type->nullable), 1);
    h->func = hc;
    h->name = hc->name;
    h->args[0] = col;
    WDatum d = {.i = buckets};
    WExpr *lit = wexpr_literal(a, &WTYPE_INT_NN, d, false);
    WExpr *m = wexpr_new(a, WX_CALL, wtype_mod(a, h->type, lit->type), 2);
    m->func = mod;
    m->name = mod->name;
    m->args[0] = h;
    m->args[1] = lit;
    return m;
}

/* The final call merging partial call o (its partial result in column `col`); the $SUM0 of an
   unfiltered COUNT(*) counts the final node's records (a FILTER of the expanded rows stops it). */
static WAggCall final_call(const WAggCall *o, int col)
{
    WAggCall c = {0};
    c.kind = o->kind == WAGG_COUNT || o->kind == WAGG_COUNT_STAR ? WAGG_SUM0 : o->kind;
    c.name = c.kind == WAGG_SUM0 ? "$SUM0" : o->name;
    c.nargs = 1;
    c.args[0] = col;
    c.filter_col = -1;
    c.type = o->type;
    c.counts_records = o->kind == WAGG_COUNT_STAR && o->filter_col < 0 && !o->distinct;
    return c;
}

/* ------------------------------------------------------------------ grouping sets */

static int popcount64(uint64_t m)
{
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

/* Calcite's ImmutableBitSet.COMPARATOR: a set before the sets it contains, else lexicographic
   by set bits (a set that runs out of bits first sorts first). */
static int bitset_cmp(uint64_t x, uint64_t y)
{
    if (x == y) return 0;
    if ((x & y) == y) return -1;
    if ((x & y) == x) return 1;
    for (int i = 0; i < 64; i++) {
        bool bx = (x >> i) & 1, by = (y >> i) & 1;
        if (bx == by) continue;
        /* the first differing bit: the set holding it has the smaller next bit */
        return bx ? -1 : 1;
    }
    return 0;
}

/* ExpandUtil.genExpandId: the bits of the full set's columns missing from `set`, the first
   column the highest bit. */
static int64_t expand_id(uint64_t full, uint64_t set)
{
    int64_t v = 0, x = (int64_t)1 << (popcount64(full) - 1);
    for (int i = 0; i < 64; i++) {
        if (!((full >> i) & 1)) continue;
        if (!((set >> i) & 1)) v |= x;
        x >>= 1;
    }
    return v;
}

/* The split's shape, shared by the group and the window variants. Column indexes refer to the
   hash Calc's output (the aggregate's input columns, in `pos` order, and the bucket columns). */
typedef struct SplitShape {
    int nsets;
    uint64_t sets[MAX_COLS];        /* grouping sets in ORDERING order */
    uint64_t *call_set;             /* per call */
    uint64_t full;
    bool expand;
} SplitShape;

static bool split_shape(WPlanCtx *p, const WAggCall *aggs, int naggs, uint64_t keys, const int *hash_col,
                        SplitShape *s)
{
    memset(s, 0, sizeof *s);
    s->call_set = WA_ARRAY(p->arena, uint64_t, naggs ? naggs : 1);
    int newsets = 0;
    for (int i = 0; i < naggs; i++) {
        const WAggCall *c = &aggs[i];
        uint64_t g = keys;
        if (needs_hash(c) && c->nargs > 0) {
            for (int k = 0; k < c->nargs; k++) {
                int col = hash_col[c->args[k]];
                if (col >= MAX_COLS) return false;
                g |= (uint64_t)1 << col;
            }
        }
        bool known = false;
        for (int k = 0; k < s->nsets; k++) if (s->sets[k] == g) known = true;
        if (needs_hash(c) && !known) newsets++;
        if (!known) {
            if (s->nsets == MAX_COLS) return false;
            int at = s->nsets;
            while (at > 0 && bitset_cmp(g, s->sets[at - 1]) < 0) at--;
            memmove(&s->sets[at + 1], &s->sets[at], sizeof(uint64_t) * (size_t)(s->nsets - at));
            s->sets[at] = g;
            s->nsets++;
        }
        s->call_set[i] = g;
        s->full |= g;
    }
    s->expand = newsets > 1;
    return true;
}

/* ExpandUtil's duplicate fields: an argument (or filter) column of a call that is a grouping
   column of some but not all sets would need a copy; weir keeps the one-level plan then. */
static bool needs_duplicates(const SplitShape *s, const WAggCall *aggs, int naggs)
{
    uint64_t common = ~(uint64_t)0;
    for (int k = 0; k < s->nsets; k++) common &= s->sets[k];
    for (int i = 0; i < naggs; i++) {
        const WAggCall *c = &aggs[i];
        int cols[3], n = 0;
        for (int k = 0; k < c->nargs; k++) cols[n++] = c->args[k];
        if (c->filter_col >= 0) cols[n++] = c->filter_col;
        bool all_common = true;
        for (int k = 0; k < n; k++) if (cols[k] >= MAX_COLS || !((common >> cols[k]) & 1)) all_common = false;
        if (all_common) continue;
        for (int k = 0; k < n; k++)
            if (cols[k] < MAX_COLS && !((common >> cols[k]) & 1) && ((s->full >> cols[k]) & 1)) return true;
    }
    return false;
}

/* The expand id a $g_n filter compares $e (BIGINT) with: SplitAggregateRule's
   relBuilder.literal(id), an INTEGER literal (=($e, 1)) */
static WExpr *expand_id_lit(WArena *a, int64_t v)
{
    WDatum d = {.i = v};
    return wexpr_literal(a, &WTYPE_INT_NN, d, false);
}

/* Expand over `in` (one projection per set, $e appended), then the Calc of the $g_n filters.
   Rewrites the calls' filter columns (in place) to the filter columns of that Calc. */
static WRel *expand_filters(WPlanCtx *p, WRel *in, const SplitShape *s, WAggCall *calls, int naggs)
{
    WArena *a = p->arena;
    int n = in->out.n, nc = n + 1;
    WRel *x = wrel_new(p, WR_EXPAND, 1);
    x->inputs[0] = in;
    x->out.n = nc;
    x->out.names = WA_ARRAY(a, const char *, nc);
    x->out.types = WA_ARRAY(a, const WType *, nc);
    wrel_expand_mut(x)->n = s->nsets;
    wrel_expand_mut(x)->src = WA_ARRAY(a, int, (size_t)s->nsets * (size_t)nc);
    wrel_expand_mut(x)->ids = WA_ARRAY(a, int64_t, s->nsets);
    for (int c = 0; c < n; c++) {
        bool nulled = false;
        for (int k = 0; k < s->nsets; k++)
            if (c < MAX_COLS && ((s->full >> c) & 1) && !((s->sets[k] >> c) & 1)) nulled = true;
        x->out.names[c] = in->out.names[c];
        x->out.types[c] = nulled ? wtype_with_nullable(a, in->out.types[c], true) : in->out.types[c];
    }
    x->out.names[n] = "$e";
    x->out.types[n] = &WTYPE_BIGINT_NN;
    for (int k = 0; k < s->nsets; k++) {
        int *src = wrel_expand_mut(x)->src + (size_t)k * (size_t)nc;
        for (int c = 0; c < n; c++)
            src[c] = c < MAX_COLS && ((s->full >> c) & 1) && !((s->sets[k] >> c) & 1) ? -1 : c;
        src[n] = -2;
        wrel_expand_mut(x)->ids[k] = expand_id(s->full, s->sets[k]);
    }
    x->changelog = in->changelog;
    /* the filters, in order of first use: (set, old filter) -> column */
    int cap = n + naggs;
    WRel *g = wrel_new(p, WR_CALC, 1);
    WRelCalc *gc = wrel_calc_mut(g);
    g->inputs[0] = x;
    gc->exprs = WA_ARRAY(a, WExpr *, cap);
    g->out.names = WA_ARRAY(a, const char *, cap);
    g->out.types = WA_ARRAY(a, const WType *, cap);
    for (int c = 0; c < n; c++) {
        gc->exprs[c] = wexpr_column(a, c, x->out.types[c], x->out.names[c]);
        g->out.names[c] = x->out.names[c];
        g->out.types[c] = x->out.types[c];
    }
    int m = n;
    uint64_t *fset = WA_ARRAY(a, uint64_t, naggs ? naggs : 1);
    int *fold = ints(p, naggs), *fcol = ints(p, naggs), nf = 0;
    const WFuncDef *eq = wfunc_lookup("=");
    if (!eq) return NULL;
    for (int i = 0; i < naggs; i++) {
        uint64_t set = s->call_set[i];
        int old = calls[i].filter_col, found = -1;
        for (int k = 0; k < nf; k++) if (fset[k] == set && fold[k] == old) found = fcol[k];
        if (found < 0) {
            int64_t id = expand_id(s->full, set);
            WExpr *e = wexpr_new(a, WX_CALL, &WTYPE_BOOLEAN_NN, 2);
            e->func = eq;
            e->name = eq->name;
            e->args[0] = wexpr_column(a, n, &WTYPE_BIGINT_NN, "$e");
            e->args[1] = expand_id_lit(a, id);
            if (old >= 0) {
                WExpr *f = wexpr_column(a, old, x->out.types[old], x->out.names[old]);
                WExpr *and = wexpr_new(a, WX_AND, wtype_with_nullable(a, &WTYPE_BOOLEAN, f->type->nullable), 2);
                and->args[0] = e;
                and->args[1] = f;
                e = and;
            }
            gc->exprs[m] = e;
            g->out.types[m] = e->type;
            g->out.names[m] = unique_name(a, g->out.names, m, wa_sprintf(a, "$g_%lld", (long long)id));
            fset[nf] = set;
            fold[nf] = old;
            fcol[nf++] = found = m++;
        }
        calls[i].filter_col = found;
    }
    gc->nexprs = m;
    g->out.n = m;
    g->changelog = x->changelog;
    return g;
}

/* ------------------------------------------------------------------ group aggregate */

/* STEP 1: the Calc adding the bucket columns (hash_col[c] = the bucket column of input column c,
   -1 when none); `in` itself when no column needs one. */
static WRel *hash_calc(WPlanCtx *p, WRel *in, const int *hf, int nh, int *hash_col)
{
    WArena *a = p->arena;
    int n = in->out.n;
    for (int i = 0; i < n; i++) hash_col[i] = -1;
    if (!nh) return in;
    int64_t buckets = opt_long(p, "table.optimizer.distinct-agg.split.bucket-num", 1024);
    WRel *calc = wrel_new(p, WR_CALC, 1);
    WRelCalc *cc = wrel_calc_mut(calc);
    calc->inputs[0] = in;
    cc->nexprs = n + nh;
    cc->exprs = WA_ARRAY(a, WExpr *, n + nh);
    calc->out.n = n + nh;
    calc->out.names = WA_ARRAY(a, const char *, n + nh);
    calc->out.types = WA_ARRAY(a, const WType *, n + nh);
    for (int i = 0; i < n; i++) {
        cc->exprs[i] = wexpr_column(a, i, in->out.types[i], in->out.names[i]);
        calc->out.names[i] = in->out.names[i];
        calc->out.types[i] = in->out.types[i];
    }
    for (int j = 0; j < nh; j++) {
        WExpr *col = wexpr_column(a, hf[j], in->out.types[hf[j]], in->out.names[hf[j]]);
        WExpr *hb = hash_bucket(p, col, buckets);
        if (!hb) return NULL;
        cc->exprs[n + j] = hb;
        calc->out.names[n + j] = calcite_name(a, calc->out.names, n + j, n + j);
        calc->out.types[n + j] = hb->type;
        hash_col[hf[j]] = n + j;
    }
    calc->changelog = in->changelog;
    return calc;
}

/* The hash fields: argument columns of calls that need buckets, minus the keys, sorted. */
static int hash_fields(const WAggCall *aggs, int naggs, const int *keys, int nkeys, int *hf)
{
    int nh = 0;
    for (int i = 0; i < naggs; i++) {
        const WAggCall *c = &aggs[i];
        if (!needs_hash(c)) continue;
        for (int k = 0; k < c->nargs; k++)
            if (!contains(hf, nh, c->args[k]) && !contains(keys, nkeys, c->args[k])) hf[nh++] = c->args[k];
    }
    sort_ints(hf, nh);
    return nh;
}

static bool splittable(const WAggCall *aggs, int naggs)
{
    bool any_distinct = false;
    for (int i = 0; i < naggs; i++) {
        if (!split_supported(&aggs[i])) return false;
        if (aggs[i].distinct) any_distinct = true;
    }
    return any_distinct;
}

static WRel *split_group(WPlanCtx *p, WRel *r)
{
    WArena *a = p->arena;
    const WRelAgg *ra = wrel_agg(r);
    if (ra->partial_final != WPF_NONE || !splittable(ra->aggs, ra->naggs)) return r;
    WRel *in = r->inputs[0];
    int n = in->out.n;
    int *hf = ints(p, 2 * ra->naggs + 1);
    int nh = hash_fields(ra->aggs, ra->naggs, r->keys, r->nkeys, hf);
    if (n + nh > MAX_COLS) return r;
    int *hash_col = ints(p, n);
    /* the keys and the bucket sets */
    uint64_t keys = 0;
    for (int i = 0; i < r->nkeys; i++) {
        if (r->keys[i] >= MAX_COLS) return r;
        keys |= (uint64_t)1 << r->keys[i];
    }
    int *hc_pre = ints(p, n);      /* bucket column per input column (for split_shape) */
    for (int i = 0; i < n; i++) hc_pre[i] = i;
    for (int j = 0; j < nh; j++) hc_pre[hf[j]] = n + j;
    SplitShape s;
    if (!split_shape(p, ra->aggs, ra->naggs, keys, hc_pre, &s)) return r;
    if (s.expand && needs_duplicates(&s, ra->aggs, ra->naggs)) return r;
    WRel *calc = hash_calc(p, in, hf, nh, hash_col);
    if (!calc) return r;
    /* STEP 2: the partial aggregate over the (expanded) rows, grouped by the full set */
    WAggCall *pcalls = WA_ARRAY(a, WAggCall, ra->naggs ? ra->naggs : 1);
    memcpy(pcalls, ra->aggs, sizeof(WAggCall) * (size_t)ra->naggs);
    WRel *pin = calc;
    if (s.expand) {
        pin = expand_filters(p, calc, &s, pcalls, ra->naggs);
        if (!pin) return r;
    }
    int npk = popcount64(s.full);
    int *pkeys = ints(p, npk);
    for (int c = 0, k = 0; c < MAX_COLS; c++) if ((s.full >> c) & 1) pkeys[k++] = c;
    WRel *part = wrel_new(p, WR_GROUP_AGG, 1);
    WRelAgg *pa = wrel_agg_mut(part);
    part->inputs[0] = pin;
    part->nkeys = npk;
    part->keys = pkeys;
    pa->naggs = ra->naggs;
    pa->aggs = pcalls;
    pa->partial_final = WPF_PARTIAL;
    part->nhints = r->nhints;
    part->hints = r->hints;
    part->left_name = r->left_name;
    part->out.n = npk + ra->naggs;
    part->out.names = WA_ARRAY(a, const char *, part->out.n);
    part->out.types = WA_ARRAY(a, const WType *, part->out.n);
    for (int i = 0; i < npk; i++) {
        part->out.names[i] = pin->out.names[pkeys[i]];
        part->out.types[i] = wtype_with_time_attr(a, pin->out.types[pkeys[i]], WTA_NONE);
    }
    for (int i = 0; i < ra->naggs; i++) {
        pcalls[i].out_name = calcite_name(a, part->out.names, npk + i, npk + i);
        part->out.names[npk + i] = pcalls[i].out_name;
        part->out.types[npk + i] = pcalls[i].type;
    }
    /* STEP 3: the final aggregate over the partial results */
    WRel *fin = wrel_new(p, WR_GROUP_AGG, 1);
    WRelAgg *fa = wrel_agg_mut(fin);
    fin->inputs[0] = part;
    fin->nkeys = r->nkeys;
    fin->keys = ints(p, r->nkeys);
    for (int i = 0; i < r->nkeys; i++)
        for (int k = 0; k < npk; k++) if (pkeys[k] == r->keys[i]) fin->keys[i] = k;
    fa->naggs = ra->naggs;
    fa->aggs = WA_ARRAY(a, WAggCall, ra->naggs ? ra->naggs : 1);
    fa->partial_final = WPF_FINAL;
    fin->nhints = r->nhints;
    fin->hints = r->hints;
    fin->out.n = r->nkeys + ra->naggs;
    fin->out.names = WA_ARRAY(a, const char *, fin->out.n);
    fin->out.types = WA_ARRAY(a, const WType *, fin->out.n);
    for (int i = 0; i < r->nkeys; i++) {
        fin->out.names[i] = part->out.names[fin->keys[i]];
        fin->out.types[i] = part->out.types[fin->keys[i]];
    }
    for (int i = 0; i < ra->naggs; i++) {
        WAggCall c = final_call(&pcalls[i], npk + i);
        c.out_name = calcite_name(a, fin->out.names, r->nkeys + i, r->nkeys + i);
        fa->aggs[i] = c;
        fin->out.names[r->nkeys + i] = c.out_name;
        fin->out.types[r->nkeys + i] = c.type;
    }
    /* STEP 4: back to the original row (same positions and types, the original names) */
    WRel *top = wrel_new(p, WR_CALC, 1);
    top->inputs[0] = fin;
    wrel_calc_mut(top)->nexprs = r->out.n;
    wrel_calc_mut(top)->exprs = WA_ARRAY(a, WExpr *, r->out.n ? r->out.n : 1);
    top->out = r->out;
    for (int i = 0; i < r->out.n; i++) wrel_calc_mut(top)->exprs[i] = wexpr_column(a, i, fin->out.types[i], fin->out.names[i]);
    return top;
}

/* ------------------------------------------------------------------ window aggregate */

/* post: the Calc above a WindowAggregate w laying its output out as the replaced GroupAggregate
   (window_rules.c window_agg_layout: the keys with the window columns, then the aggregates). */
static WRel *split_window(WPlanCtx *p, WRel *post)
{
    WArena *a = p->arena;
    WRel *w = post->inputs[0];
    const WRelCalc *pc = wrel_calc(post);
    const WRelWindow *ww = wrel_window(w);
    const WRelAgg *wa = wrel_agg(w);
    if (ww->attached || ww->legacy || ww->proctime || ww->kind == WWIN_SESSION || ww->out_start < 0 ||
        ww->out_end < 0 || ww->out_time < 0 || !splittable(wa->aggs, wa->naggs) || pc->cond)
        return post;
    int nlk = pc->nexprs - wa->naggs;              /* the logical keys: w's keys + window columns */
    if (nlk != w->nkeys + 2) return post;
    for (int i = 0; i < pc->nexprs; i++) {
        const WExpr *e = pc->exprs[i];
        if (e->kind != WX_COLUMN) return post;
        if (i < nlk ? !(e->col < w->nkeys || e->col == ww->out_start || e->col == ww->out_end)
                    : e->col != w->nkeys + (i - nlk))
            return post;
    }
    WRel *in = w->inputs[0];
    int n = in->out.n, tc = ww->time_col;
    int *hf = ints(p, 2 * wa->naggs + 1);
    int nh = hash_fields(wa->aggs, wa->naggs, w->keys, w->nkeys, hf);
    if (n + nh > MAX_COLS) return post;
    /* buckets per set: one set (no Expand) only */
    uint64_t keys = 0;
    int *hc_pre = ints(p, n);
    for (int i = 0; i < n; i++) hc_pre[i] = i;
    for (int j = 0; j < nh; j++) hc_pre[hf[j]] = n + j;
    for (int i = 0; i < w->nkeys; i++) keys |= (uint64_t)1 << w->keys[i];
    SplitShape s;
    if (!split_shape(p, wa->aggs, wa->naggs, keys, hc_pre, &s) || s.expand) return post;
    /* STEP 1: [input columns but the time column, the buckets, the time column]; the logical
       input had the window_start / window_end columns instead of the time column */
    int64_t buckets = opt_long(p, "table.optimizer.distinct-agg.split.bucket-num", 1024);
    int nc = n + nh;
    int *pos = ints(p, n);
    WRel *calc = wrel_new(p, WR_CALC, 1);
    WRelCalc *cc = wrel_calc_mut(calc);
    calc->inputs[0] = in;
    cc->nexprs = nc;
    cc->exprs = WA_ARRAY(a, WExpr *, nc);
    calc->out.n = nc;
    calc->out.names = WA_ARRAY(a, const char *, nc);
    calc->out.types = WA_ARRAY(a, const WType *, nc);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (i == tc) continue;
        pos[i] = m;
        cc->exprs[m] = wexpr_column(a, i, in->out.types[i], in->out.names[i]);
        calc->out.names[m] = in->out.names[i];
        calc->out.types[m++] = in->out.types[i];
    }
    int logical_n = n - 1 + 2;
    int *hpos = ints(p, nh);
    for (int j = 0; j < nh; j++) {
        WExpr *hb = hash_bucket(p, wexpr_column(a, hf[j], in->out.types[hf[j]], in->out.names[hf[j]]), buckets);
        if (!hb) return post;
        cc->exprs[m] = hb;
        calc->out.names[m] = calcite_name(a, calc->out.names, m, logical_n + j);
        calc->out.types[m] = hb->type;
        hpos[j] = m++;
    }
    pos[tc] = m;
    cc->exprs[m] = wexpr_column(a, tc, in->out.types[tc], in->out.names[tc]);
    calc->out.names[m] = in->out.names[tc];
    calc->out.types[m++] = in->out.types[tc];
    calc->changelog = in->changelog;
    /* STEP 2: the partial WindowAggregate, grouped by the keys and the buckets */
    int nk1 = w->nkeys + nh;
    WRel *w1 = wrel_new(p, WR_WINDOW_AGG, 1);
    WRel **w1in = w1->inputs;
    *w1 = *w;
    w1->id = 0;
    w1->inputs = w1in;
    w1->ninputs = 1;
    w1->inputs[0] = calc;
    WRelWindow *w1w = wrel_window_mut(w1);
    WRelAgg *w1a = wrel_agg_mut(w1);
    w1w->time_col = pos[tc];
    w1a->partial_final = WPF_PARTIAL;      /* explain: the calls keep Calcite's $fN names */
    w1->nkeys = nk1;
    w1->keys = ints(p, nk1);
    for (int i = 0; i < w->nkeys; i++) w1->keys[i] = pos[w->keys[i]];
    for (int j = 0; j < nh; j++) w1->keys[w->nkeys + j] = hpos[j];
    w1a->aggs = WA_ARRAY(a, WAggCall, wa->naggs ? wa->naggs : 1);
    int no1 = nk1 + wa->naggs + 3;
    w1->out.n = no1;
    w1->out.names = WA_ARRAY(a, const char *, no1);
    w1->out.types = WA_ARRAY(a, const WType *, no1);
    for (int i = 0; i < nk1; i++) {
        w1->out.names[i] = calc->out.names[w1->keys[i]];
        w1->out.types[i] = wtype_with_time_attr(a, calc->out.types[w1->keys[i]], WTA_NONE);
    }
    for (int i = 0; i < wa->naggs; i++) {
        WAggCall c = wa->aggs[i];
        for (int k = 0; k < c.nargs; k++) c.args[k] = pos[c.args[k]];
        if (c.filter_col >= 0) c.filter_col = pos[c.filter_col];
        c.out_name = calcite_name(a, w1->out.names, nk1 + i, nk1 + i);
        w1a->aggs[i] = c;
        w1->out.names[nk1 + i] = c.out_name;
        w1->out.types[nk1 + i] = c.type;
    }
    int q = nk1 + wa->naggs;
    w1w->out_start = q;
    w1->out.names[q] = "window_start";
    w1->out.types[q++] = w->out.types[ww->out_start];
    w1w->out_end = q;
    w1->out.names[q] = "window_end";
    w1->out.types[q++] = w->out.types[ww->out_end];
    w1w->out_time = q;
    w1->out.names[q] = "window_time";
    w1->out.types[q++] = w->out.types[ww->out_time];
    /* the Calc to the logical partial row: the keys in the order of the logical ones (window
       columns included), the buckets, the partial results */
    int nmid = nlk + nh + wa->naggs;
    WRel *mid = wrel_new(p, WR_CALC, 1);
    WRelCalc *mc = wrel_calc_mut(mid);
    mid->inputs[0] = w1;
    mc->nexprs = nmid;
    mc->exprs = WA_ARRAY(a, WExpr *, nmid);
    mid->out.n = nmid;
    mid->out.names = WA_ARRAY(a, const char *, nmid);
    mid->out.types = WA_ARRAY(a, const WType *, nmid);
    int ms = -1, me = -1;
    int *fkeys = ints(p, w->nkeys), nfk = 0;
    for (int i = 0; i < nlk; i++) {
        int col = pc->exprs[i]->col;
        int src = col == ww->out_start ? w1w->out_start : col == ww->out_end ? w1w->out_end : col;
        if (col == ww->out_start) ms = i;
        else if (col == ww->out_end) me = i;
        else fkeys[nfk++] = i;
        mc->exprs[i] = wexpr_column(a, src, w1->out.types[src], w1->out.names[src]);
    }
    for (int j = 0; j < nh; j++) {
        int src = w->nkeys + j;
        mc->exprs[nlk + j] = wexpr_column(a, src, w1->out.types[src], w1->out.names[src]);
    }
    for (int i = 0; i < nlk + nh; i++) {
        mid->out.names[i] = mc->exprs[i]->name;
        mid->out.types[i] = mc->exprs[i]->type;
    }
    for (int i = 0; i < wa->naggs; i++) {
        int src = nk1 + i, at = nlk + nh + i;
        mc->exprs[at] = wexpr_column(a, src, w1->out.types[src], w1->out.names[src]);
        mid->out.names[at] = calcite_name(a, mid->out.names, at, at);
        mid->out.types[at] = w1->out.types[src];
    }
    if (ms < 0 || me < 0 || nfk != w->nkeys) return post;
    mid->changelog = WCM_INSERT;
    /* STEP 3: the final WindowAggregate on the window columns the rows carry */
    WRel *w2 = wrel_new(p, WR_WINDOW_AGG, 1);
    WRel **w2in = w2->inputs;
    *w2 = *w;
    w2->id = 0;
    w2->inputs = w2in;
    w2->ninputs = 1;
    w2->inputs[0] = mid;
    WRelWindow *w2w = wrel_window_mut(w2);
    WRelAgg *w2a = wrel_agg_mut(w2);
    w2w->attached = true;
    w2a->partial_final = WPF_FINAL;
    w2w->start_col = ms;
    w2w->end_col = me;
    w2w->time_col = me;
    w2->input_retracts = false;
    w2->keys = fkeys;
    w2a->aggs = WA_ARRAY(a, WAggCall, wa->naggs ? wa->naggs : 1);
    w2->out.names = WA_ARRAY(a, const char *, w->out.n);
    w2->out.types = WA_ARRAY(a, const WType *, w->out.n);
    for (int i = 0; i < w->nkeys; i++) {
        w2->out.names[i] = mid->out.names[fkeys[i]];
        w2->out.types[i] = w->out.types[i];
    }
    for (int i = 0; i < wa->naggs; i++) {
        WAggCall c = final_call(&wa->aggs[i], nlk + nh + i);
        c.out_name = calcite_name(a, w2->out.names, w->nkeys + i, w->nkeys + i);
        w2a->aggs[i] = c;
        w2->out.names[w->nkeys + i] = c.out_name;
        w2->out.types[w->nkeys + i] = c.type;
    }
    for (int i = w->nkeys + wa->naggs; i < w->out.n; i++) {
        w2->out.names[i] = w->out.names[i];
        w2->out.types[i] = w->out.types[i];
    }
    /* STEP 4: the layout Calc reads the final aggregate (the select items keep their names) */
    WRel *top = wa_memdup(a, post, sizeof *post);
    WRelCalc *topc = wrel_calc_mut(top);
    top->inputs = WA_ARRAY(a, WRel *, 1);
    top->inputs[0] = w2;
    topc->split_layout = true;
    topc->exprs = WA_ARRAY(a, WExpr *, pc->nexprs);
    top->out.names = WA_ARRAY(a, const char *, pc->nexprs);
    top->out.types = WA_ARRAY(a, const WType *, pc->nexprs);
    for (int i = 0; i < pc->nexprs; i++) {
        int col = pc->exprs[i]->col;
        topc->exprs[i] = wexpr_column(a, col, w2->out.types[col], w2->out.names[col]);
        top->out.types[i] = w2->out.types[col];
        top->out.names[i] = post->out.names[i];
    }
    return top;
}

/* ------------------------------------------------------------------ entry */

static WRel *split_walk(WPlanCtx *p, WRel *r, int depth)
{
    if (depth > 2000) return r;
    for (int i = 0; i < r->ninputs; i++) r->inputs[i] = split_walk(p, r->inputs[i], depth + 1);
    if (r->kind == WR_GROUP_AGG) return split_group(p, r);
    if (r->kind == WR_CALC && r->ninputs == 1 && r->inputs[0]->kind == WR_WINDOW_AGG) return split_window(p, r);
    return r;
}

WRel *wagg_split_distinct(WPlanCtx *p, WRel *root)
{
    const char *m = wopts_get(p->config, "execution.runtime-mode");
    if (m && !strcasecmp(m, "batch")) return root;
    if (!opt_bool(p, "table.optimizer.distinct-agg.split.enabled", false)) return root;
    return split_walk(p, root, 0);
}
