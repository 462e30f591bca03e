/*
 * join_rules.c — physical planning of joins: Calcite's FilterJoinRule (one-input conjuncts of a
 * join condition, and a WHERE over an inner join, filter the inputs below it), equi-join keys
 * from the condition (computed keys in a Calc below, both sides cast to one type), then the
 * join's kind: LookupJoin, WindowJoin, TemporalJoin or IntervalJoin, else a regular Join.
 * The filter push runs before the window rules, the keys and kinds after them; both before the
 * changelog derivation. See physical_internal.h.
 */
#include "physical_internal.h"
#include "bind_internal.h"
#include "../expr/functions.h"

#include <stdint.h>
#include <string.h>

/* ---------------- inner-join filter merge ---------------- */

/* The columns e reads: bit 0 = some below `split`, bit 1 = some at or above it; 4 = a
   non-deterministic part (PROCTIME(), a non-deterministic function). */
static int join_side_refs(const WExpr *e, int split)
{
    if (e->kind == WX_COLUMN) return e->col < split ? 1 : 2;
    if (e->kind == WX_PROCTIME || (e->kind == WX_CALL && e->func && !e->func->deterministic)) return 4;
    int m = 0;
    for (int i = 0; i < e->nargs; i++) m |= join_side_refs(e->args[i], split);
    return m;
}

/* A filter over `in` keeping all its columns. */
static WRel *filter_rel(WPlanCtx *p, WRel *in, WExpr *cond)
{
    WRel *c = wrel_new(p, WR_CALC, 1);
    WRelCalc *cc = wrel_calc_mut(c);
    c->inputs[0] = in;
    cc->nexprs = in->out.n;
    cc->exprs = WA_ARRAY(p->arena, WExpr *, in->out.n ? in->out.n : 1);
    c->out = in->out;
    for (int i = 0; i < in->out.n; i++) cc->exprs[i] = wexpr_column(p->arena, i, in->out.types[i], in->out.names[i]);
    cc->cond = cond;
    c->changelog = in->changelog;
    return c;
}

static bool window_input(const WRel *r)
{
    while (r->kind == WR_CALC) r = r->inputs[0];
    if (r->kind == WR_WINDOW_TVF || r->kind == WR_WINDOW_AGG || r->kind == WR_WINDOW_RANK) return true;
    return (r->kind == WR_GROUP_AGG || r->kind == WR_RANK || r->kind == WR_DEDUP) && r->ninputs &&
           window_input(r->inputs[0]);
}

/* Calcite's FilterJoinRule: a join condition's conjuncts that read one input only filter that
   input below the join — both inputs of an inner join, the inner side of an outer or semi/anti
   join (the preserved side's rows must all reach the join). Deterministic conjuncts only; joins
   of windows and temporal joins keep their conditions (their rules read them). */
static WRel *push_join_filters(WPlanCtx *p, WRel *j)
{
    if (j->kind != WR_JOIN) return j;
    const WRelJoin *rj = wrel_join(j);
    if (!rj->cond || rj->temporal || rj->type == AJ_FULL) return j;
    if (window_input(j->inputs[0]) || window_input(j->inputs[1])) return j;
    int nl = j->inputs[0]->out.n;
    bool to_left = rj->type == AJ_INNER && !rj->semi && !rj->anti;
    to_left = to_left || (rj->type == AJ_RIGHT);
    bool to_right = rj->type == AJ_INNER || rj->type == AJ_LEFT;
    WExpr *all[256], *keep[256], *lf[256], *rf[256];
    int n = 0, nk = 0, nlf = 0, nrf = 0;
    wplan_split_and(rj->cond, all, &n, 256);
    for (int i = 0; i < n; i++) {
        int m = join_side_refs(all[i], nl);
        if (m == 1 && to_left) lf[nlf++] = all[i];
        else if (m == 2 && to_right) rf[nrf++] = wphys_shift_cols(p, all[i], nl, -nl);
        else keep[nk++] = all[i];
    }
    if (!nlf && !nrf) return j;
    WRel *nj = wa_memdup(p->arena, j, sizeof *j);
    nj->inputs = WA_ARRAY(p->arena, WRel *, 2);
    nj->inputs[0] = nlf ? filter_rel(p, j->inputs[0], wplan_and(p, lf, nlf)) : j->inputs[0];
    nj->inputs[1] = nrf ? filter_rel(p, j->inputs[1], wplan_and(p, rf, nrf)) : j->inputs[1];
    wrel_join_mut(nj)->cond = wplan_and(p, keep, nk);
    return nj;
}

/* Whether e is NULL whenever every column on one side of the join is NULL (Calcite's Strong):
   a column of that side, or an operator that is NULL on a NULL operand over such an expression.
   side: 1 = the columns below split, 2 = the others. */
static bool null_on_side(const WExpr *e, int split, int side)
{
    if (e->kind == WX_COLUMN) return (e->col < split ? 1 : 2) == side;
    if (e->kind == WX_CAST) return null_on_side(e->args[0], split, side);
    if (e->kind != WX_CALL || !e->name) return false;
    static const char *const STRICT[] = {"=", "<>", "<", "<=", ">", ">=", "+", "-", "*", "/", "MOD", "NEG", "||",
                                         "LIKE", "UPPER", "LOWER", "CHAR_LENGTH", "ABS", NULL};
    bool strict = false;
    for (int i = 0; STRICT[i] && !strict; i++) strict = strcmp(e->name, STRICT[i]) == 0;
    if (!strict) return false;
    for (int i = 0; i < e->nargs; i++)
        if (null_on_side(e->args[i], split, side)) return true;
    return false;
}

/* An outer join under a WHERE that drops the rows it pads with NULLs is that narrower join
   (Calcite's FilterJoinRule via RelOptUtil.simplifyJoin): a conjunct NULL when the right side is
   NULL makes LEFT -> INNER and FULL -> RIGHT... as Flink plans them. */
static void outer_to_inner(WRel *j, const WExpr *cond)
{
    WRelJoin *rj = wrel_join_mut(j);
    if (rj->semi || rj->anti || rj->temporal || rj->type == AJ_INNER) return;
    WExpr *cs[256];
    int n = 0;
    wplan_split_and((WExpr *)cond, cs, &n, 256);
    int nl = j->inputs[0]->out.n;
    bool kills_left_pad = false, kills_right_pad = false;      /* rows with a NULL left / right side */
    for (int i = 0; i < n; i++) {
        kills_left_pad |= null_on_side(cs[i], nl, 1);
        kills_right_pad |= null_on_side(cs[i], nl, 2);
    }
    bool left_padded = rj->type == AJ_RIGHT || rj->type == AJ_FULL;
    bool right_padded = rj->type == AJ_LEFT || rj->type == AJ_FULL;
    if (kills_left_pad) left_padded = false;
    if (kills_right_pad) right_padded = false;
    rj->type = left_padded && right_padded ? AJ_FULL : left_padded ? AJ_RIGHT : right_padded ? AJ_LEFT : AJ_INNER;
}

WRel *wphys_merge_join_filters(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) r->inputs[i] = push_join_filters(p, wphys_merge_join_filters(p, r->inputs[i]));
    if (r->kind == WR_CALC && wrel_calc(r)->cond && r->inputs[0]->kind == WR_JOIN) {
        WRel *j = r->inputs[0];
        if (wrel_join(j)->type != AJ_INNER && !wrel_join(j)->semi && !wrel_join(j)->anti && !wrel_join(j)->temporal) {
            WRel *nj = wa_memdup(p->arena, j, sizeof *j);
            outer_to_inner(nj, wrel_calc(r)->cond);
            if (wrel_join(nj)->type != wrel_join(j)->type) {
                r->inputs[0] = nj;
                j = nj;
            }
        }
        if (wrel_join(j)->type == AJ_INNER && !wrel_join(j)->semi && !wrel_join(j)->anti) {
            WExpr *cs[2] = {wrel_join(j)->cond, wrel_calc(r)->cond};
            WExpr *all[256];
            int n = 0;
            wplan_split_and(cs[0], all, &n, 256);
            wplan_split_and(cs[1], all, &n, 256);
            WRel *nj = wa_memdup(p->arena, j, sizeof *j);
            wrel_join_mut(nj)->cond = wplan_and(p, all, n);
            WRel *c = wa_memdup(p->arena, r, sizeof *r);
            c->inputs = WA_ARRAY(p->arena, WRel *, 1);
            c->inputs[0] = push_join_filters(p, nj);
            wrel_calc_mut(c)->cond = NULL;
            return c;
        }
    }
    return r;
}

/* ---------------- join keys ---------------- */

/* Append expressions as extra columns of `side` (a Calc over it). Returns the new rel. */
static WRel *extend(WPlanCtx *p, WRel *side, WExpr **extra, int nextra)
{
    int n = side->out.n;
    WRel *c = wrel_new(p, WR_CALC, 1);
    WRelCalc *cc = wrel_calc_mut(c);
    c->inputs[0] = side;
    cc->nexprs = n + nextra;
    cc->exprs = WA_ARRAY(p->arena, WExpr *, n + nextra);
    c->out.n = n + nextra;
    c->out.names = WA_ARRAY(p->arena, const char *, n + nextra);
    c->out.types = WA_ARRAY(p->arena, const WType *, n + nextra);
    for (int i = 0; i < n; i++) {
        cc->exprs[i] = wexpr_column(p->arena, i, side->out.types[i], side->out.names[i]);
        c->out.names[i] = side->out.names[i];
        c->out.types[i] = side->out.types[i];
    }
    for (int i = 0; i < nextra; i++) {
        cc->exprs[n + i] = extra[i];
        c->out.names[n + i] = wa_sprintf(p->arena, "$f%d", n + i);
        c->out.types[n + i] = extra[i]->type;
    }
    c->changelog = side->changelog;
    return c;
}

/* Recognise (l IS NULL AND r IS NULL) OR l = r. */
static bool is_null_safe_eq(const WExpr *e, WExpr **l, WExpr **r)
{
    if (e->kind != WX_OR || e->nargs != 2) return false;
    const WExpr *a = e->args[0], *b = e->args[1];
    if (a->kind != WX_AND) { const WExpr *t = a; a = b; b = t; }
    if (a->kind != WX_AND || a->nargs != 2 || !wphys_is_func(b, "=")) return false;
    if (a->args[0]->kind != WX_IS_NULL || a->args[1]->kind != WX_IS_NULL) return false;
    if (a->args[0]->negated || a->args[1]->negated) return false;
    if (!wexpr_equal(a->args[0]->args[0], b->args[0]) || !wexpr_equal(a->args[1]->args[0], b->args[1])) {
        if (!wexpr_equal(a->args[0]->args[0], b->args[1]) || !wexpr_equal(a->args[1]->args[0], b->args[0]))
            return false;
    }
    *l = b->args[0];
    *r = b->args[1];
    return true;
}

static WRel *plan_join_keys(WPlanCtx *p, WRel *j)
{
    int ln = j->inputs[0]->out.n, rn = j->inputs[1]->out.n;
    WExpr *cs[256];
    int n = 0;
    wplan_split_and(wrel_join(j)->cond, cs, &n, 256);
    WExpr *lx[64], *rx[64];
    bool fnull[64], swapped[64];
    int nkeys = 0;
    WExpr *rest[256];
    int nrest = 0;
    for (int i = 0; i < n; i++) {
        WExpr *c = cs[i], *a = NULL, *b = NULL;
        bool filter_nulls = true;
        if (wphys_is_func(c, "=") ) { a = c->args[0]; b = c->args[1]; }
        else if (wphys_is_func(c, "IS NOT DISTINCT FROM")) { a = c->args[0]; b = c->args[1]; filter_nulls = false; }
        else if (is_null_safe_eq(c, &a, &b)) filter_nulls = false;
        if (a && nkeys < 64) {
            int alo = -1, ahi = -1, blo = -1, bhi = -1;
            wphys_col_range(a, &alo, &ahi);
            wphys_col_range(b, &blo, &bhi);
            bool a_left = alo >= 0 && ahi < ln, a_right = alo >= ln;
            bool b_left = blo >= 0 && bhi < ln, b_right = blo >= ln;
            if ((a_left && b_right) || (a_right && b_left)) {
                if (a_right) { WExpr *t = a; a = b; b = t; }
                swapped[nkeys] = a_right;
                lx[nkeys] = a;
                rx[nkeys] = wphys_shift_cols(p, b, ln, -ln);
                fnull[nkeys] = filter_nulls;
                nkeys++;
                continue;
            }
        }
        rest[nrest++] = c;
    }
    /* both sides of a key have one type (the operator compares key bytes): cast to the common one */
    for (int k = 0; k < nkeys; k++) {
        const WType *lt = lx[k]->type, *rt = rx[k]->type;
        if (wtype_equals(lt, rt, true)) continue;
        const WType *ct = wtype_common(p->arena, lt, rt);
        if (!ct) continue;
        if (!wtype_equals(lt, ct, true)) {
            WExpr *c = wexpr_new(p->arena, WX_CAST, wtype_with_nullable(p->arena, ct, lt->nullable), 1);
            c->args[0] = lx[k];
            lx[k] = c;
        }
        if (!wtype_equals(rt, ct, true)) {
            WExpr *c = wexpr_new(p->arena, WX_CAST, wtype_with_nullable(p->arena, ct, rt->nullable), 1);
            c->args[0] = rx[k];
            rx[k] = c;
        }
    }
    /* keys that are not plain columns are computed below the join */
    WExpr *lextra[64], *rextra[64];
    int nle = 0, nre = 0;
    j->nkeys = nkeys;
    j->keys = ints(p, nkeys);
    wrel_join_mut(j)->right_keys = ints(p, nkeys);
    wrel_join_mut(j)->key_filter_nulls = WA_ARRAY(p->arena, bool, nkeys ? nkeys : 1);
    wrel_join_mut(j)->key_swapped = WA_ARRAY(p->arena, bool, nkeys ? nkeys : 1);
    for (int k = 0; k < nkeys; k++) {
        wrel_join_mut(j)->key_filter_nulls[k] = fnull[k];
        wrel_join_mut(j)->key_swapped[k] = swapped[k];
        if (lx[k]->kind == WX_COLUMN) j->keys[k] = lx[k]->col;
        else { j->keys[k] = ln + nle; lextra[nle++] = lx[k]; }
        if (rx[k]->kind == WX_COLUMN) wrel_join_mut(j)->right_keys[k] = rx[k]->col;
        else { wrel_join_mut(j)->right_keys[k] = rn + nre; rextra[nre++] = rx[k]; }
    }
    WExpr *residual = wplan_and(p, rest, nrest);
    if (nle == 0 && nre == 0) {
        wrel_join_mut(j)->cond = residual;
        return j;
    }
    WRel *l = nle ? extend(p, j->inputs[0], lextra, nle) : j->inputs[0];
    WRel *r = nre ? extend(p, j->inputs[1], rextra, nre) : j->inputs[1];
    WRel *nj = wa_memdup(p->arena, j, sizeof *j);
    nj->inputs = WA_ARRAY(p->arena, WRel *, 2);
    nj->inputs[0] = l;
    nj->inputs[1] = r;
    /* residual: right columns shift by nle */
    wrel_join_mut(nj)->cond = residual && nle ? wphys_shift_cols(p, residual, ln, nle) : residual;
    int lo = l->out.n, ro = wrel_join(j)->semi || wrel_join(j)->anti ? 0 : r->out.n;
    nj->out.n = lo + ro;
    nj->out.names = WA_ARRAY(p->arena, const char *, lo + ro + 1);
    nj->out.types = WA_ARRAY(p->arena, const WType *, lo + ro + 1);
    bool lnull = wrel_join(j)->type == AJ_RIGHT || wrel_join(j)->type == AJ_FULL;
    bool rnull = wrel_join(j)->type == AJ_LEFT || wrel_join(j)->type == AJ_FULL;
    for (int i = 0; i < lo; i++) {
        nj->out.names[i] = l->out.names[i];
        nj->out.types[i] = lnull ? wtype_with_nullable(p->arena, l->out.types[i], true) : l->out.types[i];
    }
    for (int i = 0; i < ro; i++) {
        nj->out.names[lo + i] = r->out.names[i];
        nj->out.types[lo + i] = rnull ? wtype_with_nullable(p->arena, r->out.types[i], true) : r->out.types[i];
    }
    /* project the extra key columns away */
    WRel *c = wrel_new(p, WR_CALC, 1);
    c->inputs[0] = nj;
    c->out = j->out;
    wrel_calc_mut(c)->nexprs = j->out.n;
    wrel_calc_mut(c)->exprs = WA_ARRAY(p->arena, WExpr *, j->out.n ? j->out.n : 1);
    for (int i = 0; i < j->out.n; i++) {
        int src = i < ln ? i : i + nle;
        wrel_calc_mut(c)->exprs[i] = wexpr_column(p->arena, src, nj->out.types[src], j->out.names[i]);
    }
    return c;
}

/* A join whose keys pair window_start and window_end of two windowed inputs: WindowJoin. */
static WRel *window_join_rule(WPlanCtx *p, WRel *j)
{
    int lws, lwe, rws, rwe;
    wphys_window_props(j->inputs[0], &lws, &lwe);
    wphys_window_props(j->inputs[1], &rws, &rwe);
    if (lws < 0 || rws < 0) return j;
    int ks = -1, ke = -1;
    for (int k = 0; k < j->nkeys; k++) {
        if (j->keys[k] == lws && wrel_join(j)->right_keys[k] == rws) ks = k;
        if (j->keys[k] == lwe && wrel_join(j)->right_keys[k] == rwe) ke = k;
    }
    if (ks < 0 || ke < 0) return j;
    WRel *w = wa_memdup(p->arena, j, sizeof *j);
    w->kind = WR_WINDOW_JOIN;
    /* a Join has no window: clear the join payload's (keeping the join's fields) */
    memset(&wrel_join_mut(w)->window, 0, sizeof wrel_join(w)->window);
    WRelWindow *ww = wrel_window_mut(w);
    wphys_copy_window_spec(w, j->inputs[0]);
    ww->start_col = lws;
    ww->end_col = lwe;
    ww->rstart_col = rws;
    ww->rend_col = rwe;
    w->keys = ints(p, j->nkeys);
    wrel_join_mut(w)->right_keys = ints(p, j->nkeys);
    w->nkeys = 0;
    for (int k = 0; k < j->nkeys; k++) {
        if (k == ks || k == ke) continue;
        w->keys[w->nkeys] = j->keys[k];
        wrel_join_mut(w)->right_keys[w->nkeys] = wrel_join(j)->right_keys[k];
        w->nkeys++;
    }
    return w;
}

/* A time bound "col [+/- interval]" of one join side: *side 0 left / 1 right, *col, *off ms. */
static bool time_term(const WRel *j, const WExpr *e, int ln, int *side, int *col, int64_t *off)
{
    int64_t o = 0;
    if (e->kind == WX_CAST && e->nargs == 1) e = e->args[0];
    if (e->kind == WX_CALL && e->nargs == 2 && (wphys_is_func(e, "+") || wphys_is_func(e, "-"))) {
        const WExpr *iv = e->args[1];
        if (iv->kind != WX_LITERAL || iv->is_null || iv->type->id != WT_INTERVAL_DT) return false;
        o = wphys_is_func(e, "+") ? iv->lit.i : -iv->lit.i;
        e = e->args[0];
        if (e->kind == WX_CAST && e->nargs == 1) e = e->args[0];
    }
    if (e->kind != WX_COLUMN || !wtype_is_timestamp(e->type)) return false;
    *side = e->col >= ln;
    *col = e->col >= ln ? e->col - ln : e->col;
    /* the input's column decides: a WHERE merged into the join refers to the join's output row,
       whose types no longer carry time attributes */
    const WRel *in = j->inputs[*side];
    if (*col >= in->out.n || in->out.types[*col]->time_attr == WTA_NONE) return false;
    *off = o;
    return true;
}

/* Time-bounded join conditions l.t OP r.t +/- c make an IntervalJoin (Flink's
   IntervalJoinUtil): both a lower and an upper bound on l.t - r.t are needed. */
static WRel *interval_join_rule(WPlanCtx *p, WRel *j)
{
    if (wrel_join(j)->semi || wrel_join(j)->anti || wrel_join(j)->temporal) return j;
    int ln = j->inputs[0]->out.n;
    WExpr *cs[256];
    int n = 0;
    wplan_split_and(wrel_join(j)->cond, cs, &n, 256);
    bool has_lo = false, has_hi = false, lo_strict = false, hi_strict = false;
    int64_t lo = 0, hi = 0;
    int lcol = -1, rcol = -1;
    WExpr *rest[256];
    int nrest = 0;
    for (int i = 0; i < n; i++) {
        WExpr *c = cs[i];
        int sa, ca, sb, cb;
        int64_t oa, ob;
        const char *f = c->kind == WX_CALL && c->func ? c->func->name : "";
        bool cmp = !strcmp(f, "<") || !strcmp(f, "<=") || !strcmp(f, ">") || !strcmp(f, ">=");
        if (!cmp || !time_term(j, c->args[0], ln, &sa, &ca, &oa) || !time_term(j, c->args[1], ln, &sb, &cb, &ob) ||
            sa == sb) {
            rest[nrest++] = c;
            continue;
        }
        if ((lcol >= 0 && lcol != (sa == 0 ? ca : cb)) || (rcol >= 0 && rcol != (sa == 1 ? ca : cb))) {
            rest[nrest++] = c;
            continue;
        }
        lcol = sa == 0 ? ca : cb;
        rcol = sa == 1 ? ca : cb;
        /* a + oa OP b + ob  =>  a - b OP ob - oa; make it l - r OP k */
        int64_t k = ob - oa;
        bool less = f[0] == '<', strict = f[1] == 0;
        if (sa == 1) { less = !less; k = -k; }      /* r - l OP' k  =>  l - r OP'' -k */
        if (less) {
            if (!has_hi || k < hi || (k == hi && strict)) { hi = k; hi_strict = strict; }
            has_hi = true;
        } else {
            if (!has_lo || k > lo || (k == lo && strict)) { lo = k; lo_strict = strict; }
            has_lo = true;
        }
    }
    if (!has_lo || !has_hi) return j;
    WRel *x = wa_memdup(p->arena, j, sizeof *j);
    x->kind = WR_INTERVAL_JOIN;
    wrel_join_mut(x)->left_time_col = lcol;
    wrel_join_mut(x)->right_time_col = rcol;
    wrel_interval_mut(x)->lower_ms = lo;
    wrel_interval_mut(x)->upper_ms = hi;
    wrel_interval_mut(x)->lower_strict = lo_strict;
    wrel_interval_mut(x)->upper_strict = hi_strict;
    wrel_join_mut(x)->shown_cond = wrel_join(j)->cond;
    wrel_join_mut(x)->cond = wplan_and(p, rest, nrest);
    return x;
}

static WRel *temporal_join_rule(WPlanCtx *p, WRel *j)
{
    if (!wrel_join(j)->temporal) return j;
    WRel *x = wa_memdup(p->arena, j, sizeof *j);
    x->kind = WR_TEMPORAL_JOIN;
    if (x->nkeys == 0) {
        werr_set(p->err, WEXC_VALIDATION,
                 "Temporal table's primary key [%s] must be included in the equivalence condition of temporal join, "
                 "but current temporal join condition is [%s].", "", "");
        return NULL;
    }
    return x;
}

/* A processing-time temporal join against a lookup source: a LookupJoin whose one input is the
   left side, the dim table's scan kept aside (lookup_scan). The keys must be the dim table's own
   columns (Flink: "Temporal table join requires an equality condition on fields of table [t].") */
static WRel *lookup_join_rule(WPlanCtx *p, WRel *j)
{
    if (!wrel_join(j)->lookup) return j;
    WRel *dim = j->inputs[1];
    const char *qname = dim->kind == WR_SCAN && wrel_scan(dim)->table_qname ? wrel_scan(dim)->table_qname : "";
    bool keys_ok = j->nkeys > 0 && dim->kind == WR_SCAN;
    for (int k = 0; keys_ok && k < j->nkeys; k++) keys_ok = wrel_join(j)->right_keys[k] < dim->out.n;
    if (!keys_ok) {
        werr_set(p->err, WEXC_TABLE, "Temporal table join requires an equality condition on fields of table [%s].",
                 qname);
        return NULL;
    }
    WRel *x = wa_memdup(p->arena, j, sizeof *j);
    x->kind = WR_LOOKUP_JOIN;
    x->ninputs = 1;
    x->inputs = WA_ARRAY(p->arena, WRel *, 1);
    x->inputs[0] = j->inputs[0];
    wrel_join_mut(x)->lookup_scan = dim;
    /* EXPLAIN's joinCondition: the conjuncts reading an input column */
    WExpr *cs[256], *shown[256];
    int n = 0, ns = 0, ln = j->inputs[0]->out.n;
    wplan_split_and(wrel_join(j)->cond, cs, &n, 256);
    for (int i = 0; i < n; i++) {
        int lo = -1, hi = -1;
        wphys_col_range(cs[i], &lo, &hi);
        if (lo >= 0 && lo < ln) shown[ns++] = cs[i];
    }
    wrel_join_mut(x)->shown_cond = wplan_and(p, shown, ns);
    return x;
}

/* The join node itself, below a Calc that plan_join_keys may have put on top. */
static WRel *join_rules(WPlanCtx *p, WRel *x)
{
    WRel *jn = x->kind == WR_CALC ? x->inputs[0] : x;
    if (jn->kind != WR_JOIN) return x;
    WRel *y = lookup_join_rule(p, jn);
    if (!y) return NULL;
    if (y == jn) y = window_join_rule(p, jn);
    if (y == jn) y = temporal_join_rule(p, jn);
    if (!y) return NULL;
    if (y == jn) y = interval_join_rule(p, jn);
    if (x->kind == WR_CALC) { x->inputs[0] = y; return x; }
    return y;
}

WRel *wphys_join_keys(WPlanCtx *p, WRel *r)
{
    for (int i = 0; i < r->ninputs; i++) {
        r->inputs[i] = wphys_join_keys(p, r->inputs[i]);
        if (!r->inputs[i]) return NULL;
    }
    if (r->kind == WR_JOIN && !r->keys) return join_rules(p, plan_join_keys(p, r));
    return r;
}
