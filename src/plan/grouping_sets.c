/*
 * grouping_sets.c — GROUP BY GROUPING SETS / ROLLUP / CUBE and the GROUPING, GROUPING_ID and
 * GROUP_ID functions, planned as Flink does (DecomposeGroupingSetsRule, ExpandUtil):
 *   - the GROUP BY items become a list of grouping sets over the distinct key expressions
 *     (ROLLUP: the prefixes, CUBE: every subset, several items: their cross product); each set
 *     gets the id $e = the bits of the keys it leaves out (first key = highest bit), and the sets
 *     are ordered by $e as Calcite orders them;
 *   - Expand emits every input row once per set, with the keys outside the set NULL and $e
 *     appended; the GroupAggregate groups by the keys and $e;
 *   - GROUPING(k, ...) / GROUPING_ID(k, ...) become CASE expressions over $e above the
 *     aggregate (adjacent sets with the same value share a SEARCH branch, as Calcite simplifies
 *     them); GROUP_ID() is 0.
 * The binder (bind.c bind_aggregate, bind_expr.c agg_match) calls in here; see bind_internal.h.
 */
#include "bind_internal.h"
#include "../common/sort.h"
#include "../expr/functions.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_SETS 4096

/* Column index standing for $e in expressions bound above the aggregate, before the aggregate's
   output positions are known (bgs_shift_post replaces it). */
#define E_COL_MARK (1 << 29)

typedef struct SetList {
    int n;
    uint64_t *m;
    uint64_t *origin;           /* per set: see BGroupSets.origins */
} SetList;

static bool fail(BindCtx *b, AstPos pos, const char *msg)
{
    werr_set_at(b->p->err, pos.line, pos.col, WEXC_TABLE, "%s", msg);
    return false;
}

static int add_key(BindCtx *b, BGroupSets *gs, AstExpr *e)
{
    if (gs->nkeys == 64) return -1;
    if (gs->nkeys == gs->cap) {
        int cap = gs->cap ? gs->cap * 2 : 8;
        AstExpr **k = WA_ARRAY(b->p->arena, AstExpr *, cap);
        if (gs->nkeys) memcpy(k, gs->keys, sizeof(AstExpr *) * (size_t)gs->nkeys);
        gs->keys = k;
        gs->cap = cap;
    }
    gs->keys[gs->nkeys] = e;
    return gs->nkeys++;
}

static bool push_set(BindCtx *b, SetList *l, uint64_t m, uint64_t origin, AstPos pos)
{
    if (l->n >= MAX_SETS) return fail(b, pos, "Too many grouping sets (at most 4096 are supported)");
    if (!l->m) {
        l->m = WA_ARRAY(b->p->arena, uint64_t, MAX_SETS);
        l->origin = WA_ARRAY(b->p->arena, uint64_t, MAX_SETS);
    }
    l->origin[l->n] = origin;
    l->m[l->n++] = m;
    return true;
}
/* The mask of one element: an expression, or a parenthesised list of them (composite). */
static bool element_mask(BindCtx *b, BGroupSets *gs, AstExpr **items, int nitems, uint64_t *out, AstPos pos)
{
    uint64_t m = 0;
    for (int i = 0; i < nitems; i++) {
        AstExpr *e = items[i];
        if (e->kind == AE_ROW) {
            uint64_t sub;
            if (!element_mask(b, gs, e->args, e->nargs, &sub, pos)) return false;
            m |= sub;
            continue;
        }
        int k = add_key(b, gs, e);
        if (k < 0) return fail(b, pos, "Too many grouping expressions (at most 64 are supported)");
        m |= (uint64_t)1 << k;
    }
    *out = m;
    return true;
}

static bool is_named_func(const AstExpr *e, const char *name)
{
    return e && e->kind == AE_FUNC && !e->over && e->name.n == 1 && !strcasecmp(e->name.parts[0], name);
}

/* ROLLUP / CUBE over element masks em[0..n-1], appended to l; its sets share one origin, so that
   bgs_remap keeps each distinct set once, as Calcite expands them (ROLLUP(k, k) is (k), ()), while
   sets written out in GROUPING SETS keep their duplicates. */
static bool rollup_cube(BindCtx *b, BGroupSets *gs, bool cube, const uint64_t *em, int n, SetList *l, AstPos pos)
{
    uint64_t origin = ++gs->next_origin;
    if (cube) {
        if (n > 12) return fail(b, pos, "CUBE over more than 12 elements is not supported");
        for (uint32_t s = 0; s < (1u << n); s++) {
            uint64_t m = 0;
            for (int i = 0; i < n; i++) if (s & (1u << i)) m |= em[i];
            if (!push_set(b, l, m, origin, pos)) return false;
        }
        return true;
    }
    for (int i = n; i >= 0; i--) {
        uint64_t m = 0;
        for (int j = 0; j < i; j++) m |= em[j];
        if (!push_set(b, l, m, origin, pos)) return false;
    }
    return true;
}

/* ROLLUP(...) / CUBE(...) written as an element of GROUPING SETS (parsed as a function call). */
static bool nested_rollup_cube(BindCtx *b, BGroupSets *gs, AstExpr *f, SetList *l)
{
    int n = f->nargs;
    uint64_t *em = WA_ARRAY(b->p->arena, uint64_t, n ? n : 1);
    for (int i = 0; i < n; i++)
        if (!element_mask(b, gs, &f->args[i], 1, &em[i], f->pos)) return false;
    return rollup_cube(b, gs, is_named_func(f, "CUBE"), em, n, l, f->pos);
}

/* The sets of one GROUP BY item. */
static bool item_sets(BindCtx *b, BGroupSets *gs, AstGroupItem *it, AstPos pos, SetList *l)
{
    switch (it->kind) {
    case AG_EXPR: {
        uint64_t m;
        if (!element_mask(b, gs, &it->expr, 1, &m, pos)) return false;
        return push_set(b, l, m, ++gs->next_origin, pos);
    }
    case AG_GROUPING_SETS:
        for (int j = 0; j < it->nsets; j++) {
            if (it->set_sizes[j] == 1 && (is_named_func(it->sets[j][0], "ROLLUP") || is_named_func(it->sets[j][0], "CUBE"))) {
                if (!nested_rollup_cube(b, gs, it->sets[j][0], l)) return false;
                continue;
            }
            uint64_t m;
            if (!element_mask(b, gs, it->sets[j], it->set_sizes[j], &m, pos)) return false;
            if (!push_set(b, l, m, ++gs->next_origin, pos)) return false;
        }
        return true;
    case AG_ROLLUP:
    case AG_CUBE: {
        int n = it->nsets;
        uint64_t *em = WA_ARRAY(b->p->arena, uint64_t, n ? n : 1);
        for (int j = 0; j < n; j++)
            if (!element_mask(b, gs, it->sets[j], it->set_sizes[j], &em[j], pos)) return false;
        return rollup_cube(b, gs, it->kind == AG_CUBE, em, n, l, pos);
    }
    }
    return true;
}

bool bgs_collect(BindCtx *b, AstQuery *aq, BGroupSets *gs)
{
    memset(gs, 0, sizeof *gs);
    SetList acc = {0};
    if (!push_set(b, &acc, 0, 0, aq->pos)) return false;
    for (int i = 0; i < aq->ngroup; i++) {
        SetList its = {0};
        if (!item_sets(b, gs, &aq->group[i], aq->pos, &its)) return false;
        SetList next = {0};
        for (int x = 0; x < acc.n; x++)
            for (int y = 0; y < its.n; y++)
                if (!push_set(b, &next, acc.m[x] | its.m[y],
                              acc.origin[x] * 0x9E3779B97F4A7C15ULL + its.origin[y], aq->pos)) return false;
        acc = next;
    }
    gs->nsets = acc.n;
    gs->sets = acc.m;
    gs->origins = acc.origin;
    return true;
}

static uint64_t set_id(uint64_t m, int ng)
{
    uint64_t id = 0;
    for (int i = 0; i < ng; i++)
        if (!(m & ((uint64_t)1 << i))) id |= (uint64_t)1 << (ng - 1 - i);
    return id;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, c = *(const uint64_t *)y;
    return a < c ? -1 : a > c;
}

bool bgs_remap(BindCtx *b, BGroupSets *gs, const int *map, int ngroup, AstPos pos)
{
    gs->ngroup = ngroup;
    uint64_t *ids = WA_ARRAY(b->p->arena, uint64_t, gs->nsets ? gs->nsets : 1);
    for (int s = 0; s < gs->nsets; s++) {
        uint64_t m = 0;
        for (int k = 0; k < gs->nkeys; k++)
            if (gs->sets[s] & ((uint64_t)1 << k)) m |= (uint64_t)1 << map[k];
        gs->sets[s] = m;
    }
    int kept = 0;   /* a set its own expansion produced already (after the remap) is dropped */
    for (int s = 0; s < gs->nsets; s++) {
        bool again = false;
        for (int t = 0; t < kept && !again; t++)
            again = gs->sets[t] == gs->sets[s] && gs->origins[t] == gs->origins[s];
        if (again) continue;
        gs->origins[kept] = gs->origins[s];
        gs->sets[kept++] = gs->sets[s];
    }
    gs->nsets = kept;
    /* repeated sets: copy k of the aggregate keeps the k-th occurrence of each set */
    gs->copies = 1;
    kept = 0;
    for (int s = 0; s < gs->nsets; s++) {
        int occurrence = 0;
        for (int t = 0; t < s; t++) occurrence += gs->sets[t] == gs->sets[s];
        if (occurrence + 1 > gs->copies) gs->copies = occurrence + 1;
        if (occurrence == gs->copy) gs->sets[kept++] = gs->sets[s];
    }
    gs->nsets = kept;
    assert(gs->copy < gs->copies && gs->nsets > 0);
    for (int s = 0; s < gs->nsets; s++) ids[s] = set_id(gs->sets[s], ngroup);
    wqsort(ids, (size_t)gs->nsets, sizeof ids[0], cmp_u64);
    for (int s = 1; s < gs->nsets; s++) assert(ids[s] != ids[s - 1]);
    /* back to masks, in id order */
    for (int s = 0; s < gs->nsets; s++) {
        uint64_t m = 0;
        for (int i = 0; i < ngroup; i++)
            if (!(ids[s] & ((uint64_t)1 << (ngroup - 1 - i)))) m |= (uint64_t)1 << i;
        gs->sets[s] = m;
    }
    gs->ids = ids;
    /* one set narrower than the keys (a later copy of a repeated set): the keys outside it are
       NULL, which the Expand writes (Flink 2.3 groups such a copy by all the keys: docs) */
    gs->active = gs->nsets > 1 || ids[0] != 0;
    return true;
}

bool bgs_is_grouping_func(const AstExpr *e)
{
    return is_named_func(e, "GROUPING") || is_named_func(e, "GROUPING_ID") || is_named_func(e, "GROUP_ID");
}

static WExpr *bigint_lit(WArena *a, int64_t v)
{
    WDatum d = {.i = v};
    return wexpr_literal(a, &WTYPE_BIGINT_NN, d, false);
}

WExpr *bgs_grouping_call(BindCtx *b, AstExpr *e)
{
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    BAgg *g = b->agg;
    const char *fn = e->name.parts[0];
    bool group_id = !strcasecmp(fn, "GROUP_ID");
    if (group_id) {
        if (e->nargs) {
            werr_set_at(p->err, e->pos.line, e->pos.col, WEXC_CALCITE,
                        "Invalid number of arguments to function 'GROUP_ID'. Was expecting 0 arguments");
            return NULL;
        }
        return bigint_lit(a, g->gsets ? g->gsets->copy : 0);
    }
    if (e->nargs == 0) {
        werr_set_at(p->err, e->pos.line, e->pos.col, WEXC_CALCITE,
                    "Invalid number of arguments to function '%s'. Was expecting 1 arguments",
                    !strcasecmp(fn, "GROUPING") ? "GROUPING" : "GROUPING_ID");
        return NULL;
    }
    if (e->nargs > 63) {
        werr_set_at(p->err, e->pos.line, e->pos.col, WEXC_TABLE, "Too many arguments to %s", fn);
        return NULL;
    }
    /* each argument must be a group key */
    int key[64];
    for (int j = 0; j < e->nargs; j++) {
        BAgg *sa = b->agg;
        b->agg = NULL;
        WExpr *x = bind_expr(b, g->input, e->args[j]);
        b->agg = sa;
        if (!x) return NULL;
        key[j] = -1;
        for (int i = 0; i < g->ngroup; i++) if (wexpr_equal(x, g->group[i])) key[j] = i;
        if (key[j] < 0) {
            werr_set_at(p->err, e->args[j]->pos.line, e->args[j]->pos.col, WEXC_CALCITE,
                        "Argument to %s operator must be a grouped expression",
                        !strcasecmp(fn, "GROUPING") ? "GROUPING" : "GROUPING_ID");
            return NULL;
        }
    }
    const BGroupSets *gs = g->gsets;
    int nsets = gs && gs->active ? gs->nsets : 1;
    int64_t *val = WA_ARRAY(a, int64_t, nsets);
    for (int s = 0; s < nsets; s++) {
        uint64_t m = gs && gs->active ? gs->sets[s] : ~(uint64_t)0;
        int64_t v = 0;
        for (int j = 0; j < e->nargs; j++)
            if (!(m & ((uint64_t)1 << key[j]))) v |= (int64_t)1 << (e->nargs - 1 - j);
        val[s] = v;
    }
    bool all_same = true;
    for (int s = 1; s < nsets; s++) if (val[s] != val[0]) all_same = false;
    if (all_same) return bigint_lit(a, val[0]);
    /* CASE over $e: runs of adjacent sets with one value share a branch */
    WExpr *ecol = wexpr_column(a, E_COL_MARK, &WTYPE_BIGINT_NN, "$e");
    const WFuncDef *eq = wfunc_lookup("=");
    WExpr *branches[2 * MAX_SETS + 1];
    int nb = 0;
    int s = 0;
    while (s < nsets) {
        int t = s;
        while (t + 1 < nsets && val[t + 1] == val[s]) t++;
        if (t == nsets - 1) break;      /* the last run is the ELSE */
        WExpr *cond;
        if (t == s) {
            cond = wexpr_new(a, WX_CALL, &WTYPE_BOOLEAN_NN, 2);
            cond->func = eq;
            cond->name = eq->name;
            cond->args[0] = ecol;
            cond->args[1] = bigint_lit(a, (int64_t)gs->ids[s]);
        } else {
            cond = wexpr_new(a, WX_IN, &WTYPE_BOOLEAN_NN, 2 + (t - s));
            cond->args[0] = ecol;
            for (int k = s; k <= t; k++) cond->args[1 + k - s] = bigint_lit(a, (int64_t)gs->ids[k]);
        }
        branches[nb++] = cond;
        branches[nb++] = bigint_lit(a, val[s]);
        s = t + 1;
    }
    branches[nb++] = bigint_lit(a, val[nsets - 1]);
    WExpr *c = wexpr_new(a, WX_CASE, &WTYPE_BIGINT_NN, nb);
    c->has_else = true;
    for (int k = 0; k < nb; k++) c->args[k] = branches[k];
    return c;
}

WRel *bgs_aggregate(BindCtx *b, BAgg *g, const BGroupSets *gs, WRel *calc)
{
    WPlanCtx *p = b->p;
    WArena *a = p->arena;
    int ng = g->ngroup, npre = calc->out.n, nc = npre + 1;
    WRel *x = wrel_new(p, WR_EXPAND, 1);
    x->inputs[0] = calc;
    x->out.n = nc;
    x->out.names = WA_ARRAY(a, const char *, nc);
    x->out.types = WA_ARRAY(a, const WType *, nc);
    for (int c = 0; c < npre; c++) {
        x->out.names[c] = calc->out.names[c];
        x->out.types[c] = c < ng ? wtype_with_nullable(a, calc->out.types[c], true) : calc->out.types[c];
    }
    x->out.names[npre] = "$e";
    x->out.types[npre] = &WTYPE_BIGINT_NN;
    wrel_expand_mut(x)->n = gs->nsets;
    wrel_expand_mut(x)->src = WA_ARRAY(a, int, (size_t)gs->nsets * (size_t)nc);
    wrel_expand_mut(x)->ids = WA_ARRAY(a, int64_t, gs->nsets);
    for (int s = 0; s < gs->nsets; s++) {
        int *src = wrel_expand_mut(x)->src + (size_t)s * (size_t)nc;
        for (int c = 0; c < npre; c++) src[c] = c < ng && !(gs->sets[s] & ((uint64_t)1 << c)) ? -1 : c;
        src[npre] = -2;
        wrel_expand_mut(x)->ids[s] = (int64_t)gs->ids[s];
    }
    x->changelog = calc->changelog;
    WRel *agg = wrel_new(p, WR_GROUP_AGG, 1);
    agg->inputs[0] = x;
    agg->nkeys = ng + 1;
    agg->keys = WA_ARRAY(a, int, ng + 1);
    for (int i = 0; i < ng; i++) agg->keys[i] = i;
    agg->keys[ng] = npre;
    wrel_agg_mut(agg)->naggs = g->ncalls;
    wrel_agg_mut(agg)->aggs = g->calls;
    int no = ng + 1 + g->ncalls;
    agg->out.n = no;
    agg->out.names = WA_ARRAY(a, const char *, no);
    agg->out.types = WA_ARRAY(a, const WType *, no);
    for (int i = 0; i < ng; i++) {
        agg->out.names[i] = x->out.names[i];
        agg->out.types[i] = wtype_with_time_attr(a, x->out.types[i], WTA_NONE);
    }
    agg->out.names[ng] = "$e";
    agg->out.types[ng] = &WTYPE_BIGINT_NN;
    for (int i = 0; i < g->ncalls; i++) {
        agg->out.names[ng + 1 + i] = g->calls[i].out_name;
        agg->out.types[ng + 1 + i] = g->calls[i].type;
    }
    return agg;
}

WExpr *bgs_shift_post(WArena *a, WExpr *e, int ngroup)
{
    if (!e) return NULL;
    WExpr *c = wa_memdup(a, e, sizeof *e);
    if (e->kind == WX_COLUMN) {
        if (e->col == E_COL_MARK) c->col = ngroup;
        else if (e->col >= ngroup) c->col = e->col + 1;
        return c;
    }
    if (e->nargs) {
        c->args = WA_ARRAY(a, WExpr *, e->nargs);
        for (int i = 0; i < e->nargs; i++) c->args[i] = bgs_shift_post(a, e->args[i], ngroup);
    }
    return c;
}
