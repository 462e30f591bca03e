/*
 * view.c — the exec graph as Flink shows it: exec node ids (inputs first, left before right,
 * a shared node once), a SinkUpsertMaterializer folded into its Sink (upsertMaterialize=[true]),
 * and the projection/filter push-down into sources that Flink's planner performs: a scan read by
 * a Calc shows project=[...] / filter=[...], and a Calc that only picks columns disappears into
 * the scan. The runtime still runs weir's nodes; only what is printed follows Flink.
 * See explain_internal.h.
 */
#include "explain_internal.h"
#include "../connectors/connector.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

ExNode *ex_node(const ExCtx *x, const WRel *r)
{
    for (int i = 0; i < x->n; i++) if (x->nodes[i].rel == r) return &x->nodes[i];
    return NULL;
}

const WStateTtlHint *ex_hint(const ExCtx *x, const WRel *r)
{
    for (int i = 0; i < x->nhints; i++) if (x->hints[i].node == r) return &x->hints[i];
    return NULL;
}

const WRel *ex_root(const WRel *r)
{
    if (r->kind == WR_SINK && !wrel_sink(r)->table && r->ninputs == 1) {
        r = r->inputs[0];
        if (r->kind == WR_EXCHANGE && wrel_exchange(r)->collect) r = r->inputs[0];
    }
    return r;
}

static bool folded(const ExCtx *x, const WRel *r)
{
    if (r->kind == WR_SINK_MATERIALIZER) return true;
    ExNode *n = ex_node(x, r);
    return n && n->id < 0;
}

/* The input as printed: a folded node is replaced by its own input. */
static const WRel *skip_folded(const ExCtx *x, const WRel *r)
{
    while (r->ninputs == 1 && folded(x, r)) r = r->inputs[0];
    return r;
}

int ex_inputs(const ExCtx *x, const WRel *r, const WRel **out)
{
    for (int i = 0; i < r->ninputs; i++) out[i] = skip_folded(x, r->inputs[i]);
    return r->ninputs;
}

/* Calcite's ProjectToWindowRule (CalcRelSplitter) over a streaming OVER aggregate: when the
   projection above the window only picks columns, the window level is the split's last one and
   the Calc Flink keeps above it has derived names (CalcRelSplitter.deriveFieldName): an input
   column keeps its name unless it starts with '$', any other column is named $<position>
   (Calc(select=[k, b, w0$o0 AS $2]), measured). A projection that computes something is a level
   of its own and keeps the select items' names. NULL when the rule does not apply. Batch plans
   keep the names (measured for one OVER window), so they are left alone. */
static const char **over_split_names(const ExCtx *x, const WRel *r)
{
    if (x->batch || r->kind != WR_CALC || wrel_calc(r)->cond || r->ninputs != 1) return NULL;
    const WRelCalc *rc = wrel_calc(r);
    const WRel *over = r->inputs[0];
    if (over->kind != WR_OVER_AGG || over->ninputs != 1) return NULL;
    int nin = over->inputs[0]->out.n;
    for (int i = 0; i < rc->nexprs; i++)
        if (rc->exprs[i]->kind != WX_COLUMN) return NULL;
    const char **names = WA_ARRAY(x->p->arena, const char *, rc->nexprs ? rc->nexprs : 1);
    for (int i = 0; i < rc->nexprs; i++) {
        int c = rc->exprs[i]->col;
        const char *in = over->out.names[c];
        names[i] = c < nin && (in[0] != '$' || !strncmp(in, "$EXPR", 5)) ? in : wa_sprintf(x->p->arena, "$%d", i);
    }
    return names;
}

/* Flink's SplitAggregateRule ends a window distinct split with a projection of its own
   (RelBuilder: the aggregate results as $f<position>, the keys and window columns by name); the
   query's own projection over the aggregate was identity (its keys first, then the aggregates in
   order) and Calcite removed it, so those names show: Calc(select=[name, window_start,
   window_end, $f1 AS $f3]) (measured). A reordering projection stays and keeps its names.
   NULL when the rule does not apply. */
static const char **split_layout_names(const ExCtx *x, const WRel *r)
{
    if (r->kind != WR_CALC || !wrel_calc(r)->split_layout || wrel_calc(r)->cond || r->ninputs != 1) return NULL;
    const WRelCalc *rc = wrel_calc(r);
    const WRel *agg = r->inputs[0];
    int first = agg->nkeys, end = agg->nkeys + wrel_agg(agg)->naggs, next = first;
    for (int i = 0; i < rc->nexprs; i++) {
        const WExpr *e = rc->exprs[i];
        if (e->kind != WX_COLUMN) return NULL;
        bool is_agg = e->col >= first && e->col < end;
        if (next > first && !is_agg) return NULL;     /* a key after an aggregate */
        if (is_agg && e->col != next++) return NULL;  /* aggregates in their order, each once */
    }
    if (next != end) return NULL;
    const char **names = WA_ARRAY(x->p->arena, const char *, rc->nexprs ? rc->nexprs : 1);
    for (int i = 0; i < rc->nexprs; i++) {
        int c = rc->exprs[i]->col;
        names[i] = c >= first && c < end ? wa_sprintf(x->p->arena, "$f%d", i) : r->out.names[i];
    }
    return names;
}

/* Output names made unique as Calcite does (a repeated name gets 0, 1, ... appended). */
const char *const *ex_out_names(const ExCtx *x, const WRel *r)
{
    ExCtx *mx = (ExCtx *)x;
    for (int i = 0; i < mx->nnames; i++) if (mx->name_rel[i] == r) return mx->names[i];
    WArena *a = x->p->arena;
    int n = r->out.n;
    const char **names = WA_ARRAY(a, const char *, n ? n : 1);
    const char *const *base = over_split_names(x, r);
    if (!base) base = split_layout_names(x, r);
    if (!base) base = r->out.names;
    for (int i = 0; i < n; i++) {
        const char *nm = base[i] ? base[i] : "$f";
        bool clash = false;
        for (int k = 0; k < i; k++) if (!strcmp(names[k], nm)) clash = true;
        for (int suffix = 0; clash; suffix++) {
            const char *cand = wa_sprintf(a, "%s%d", base[i], suffix);
            clash = false;
            for (int k = 0; k < n; k++)
                if ((k < i && !strcmp(names[k], cand)) || (k > i && !strcmp(base[k], cand))) clash = true;
            if (!clash) nm = cand;
        }
        names[i] = nm;
    }
    if (mx->nnames == mx->capnames) {
        int nc = mx->capnames ? mx->capnames * 2 : 32;
        const WRel **nr = WA_ARRAY(a, const WRel *, nc);
        const char *const **nn = WA_ARRAY(a, const char *const *, nc);
        if (mx->nnames) {
            memcpy(nr, mx->name_rel, sizeof *nr * (size_t)mx->nnames);
            memcpy(nn, mx->names, sizeof *nn * (size_t)mx->nnames);
        }
        mx->name_rel = nr;
        mx->names = nn;
        mx->capnames = nc;
    }
    mx->name_rel[mx->nnames] = r;
    mx->names[mx->nnames++] = names;
    return names;
}

const char *ex_in_name(const ExCtx *x, const WRel *in, int col)
{
    return ex_out_names(x, in)[col];
}

static ExNode *add(ExCtx *x, const WRel *r)
{
    ExNode *n = ex_node(x, r);
    if (n) return n;
    x->nodes = wa_grow(x->p->arena, x->nodes, x->n, &x->cap, sizeof *x->nodes, 32);
    n = &x->nodes[x->n++];
    memset(n, 0, sizeof *n);
    n->rel = r;
    return n;
}

static void mark_refs(const WExpr *e, bool *used, int n)
{
    if (!e) return;
    if (e->kind == WX_COLUMN && e->col >= 0 && e->col < n) used[e->col] = true;
    for (int i = 0; i < e->nargs; i++) mark_refs(e->args[i], used, n);
}

static bool projectable(const WRel *scan)
{
    const WTable *t = scan->kind == WR_SCAN ? wrel_scan(scan)->table : NULL;
    if (!t) return false;
    /* a connector weir does not know is taken to push projections down, as most of Flink's do */
    const WConnector *c = wconnector_find(wconnector_id(&t->options));
    return !c || c->caps.projection_pushdown;
}

static bool filterable(const WRel *scan)
{
    const WTable *t = wrel_scan(scan)->table;
    const WConnCaps *caps = t ? wconnector_caps(&t->options) : NULL;
    return caps && caps->filter_pushdown;
}

/* Number of parents of each node (to leave shared scans alone): input edges of distinct nodes
   (a node below a shared one is counted once). */
static int parents_of(const WRel *target, WRel **roots, int n, int depth_guard);

typedef struct Seen { int n, cap; const WRel **v; } Seen;

static int count_parents(const WRel *r, const WRel *target, int depth, Seen *s)
{
    if (depth > 2000) return 0;
    for (int i = 0; i < s->n; i++) if (s->v[i] == r) return 0;
    if (s->n < s->cap) s->v[s->n++] = r;
    int c = 0;
    for (int i = 0; i < r->ninputs; i++) {
        if (r->inputs[i] == target) c++;
        c += count_parents(r->inputs[i], target, depth + 1, s);
    }
    return c;
}

/* The node that reads `target` (the first found), or NULL. */
static const WRel *parent_in(const WRel *r, const WRel *target, int depth)
{
    if (depth > 2000) return NULL;
    for (int i = 0; i < r->ninputs; i++) {
        if (r->inputs[i] == target) return r;
        const WRel *p = parent_in(r->inputs[i], target, depth + 1);
        if (p) return p;
    }
    return NULL;
}

/* A group aggregate reads `calc` (through its hash exchange): Calcite merges a Calc that only
   picks columns into the aggregate's own field references. */
static bool read_by_aggregate(const WRel *calc, WRel **roots, int nroots)
{
    const WRel *p = NULL;
    for (int i = 0; i < nroots && !p; i++) p = roots[i] == calc ? NULL : parent_in(roots[i], calc, 0);
    if (p && p->kind == WR_EXCHANGE) {
        const WRel *q = NULL;
        for (int i = 0; i < nroots && !q; i++) q = parent_in(roots[i], p, 0);
        p = q;
    }
    return p && (p->kind == WR_GROUP_AGG || p->kind == WR_LOCAL_GROUP_AGG);
}

static int parents_of(const WRel *target, WRel **roots, int n, int depth_guard)
{
    const WRel *v[4096];
    Seen s = {0, 4096, v};
    int c = 0;
    for (int i = 0; i < n; i++) c += count_parents(roots[i], target, depth_guard, &s);
    return c;
}

/* Projection (and filter) push-down for Calc -> [WatermarkAssigner ->] Scan. */
static void push_down(ExCtx *x, const WRel *calc, WRel **roots, int nroots)
{
    const WRelCalc *cc = wrel_calc(calc);
    if (cc->late_calc) return;   /* made after Flink's scan push-down (CalcRankTransposeRule) */
    const WRel *below = calc->inputs[0];
    const WRel *mba = NULL;         /* a MiniBatchAssigner comes after Flink's push-down */
    if (below->kind == WR_MINIBATCH_ASSIGNER) { mba = below; below = below->inputs[0]; }
    /* so does a DropUpdateBefore over a changelog source (a Calc with a condition has none below
       it: measured on Flink 2.3, the projection reaches the scan in the Calc's order) */
    if (below->kind == WR_DROP_UPDATE_BEFORE && !cc->cond) {
        if (!below->reused && parents_of(below, roots, nroots, 0) != 1) return;
        below = below->inputs[0];
    }
    const WRel *wa = NULL;
    if (below->kind == WR_WATERMARK) { wa = below; below = below->inputs[0]; }
    const WRel *scan = below;
    if (!projectable(scan)) return;
    /* a node shared by sub-plan reuse (plan/reuse.c) was one copy per consumer, with equal
       push-downs: the first consumer pushes them */
    if ((!scan->reused && parents_of(scan, roots, nroots, 0) != 1) ||
        (wa && !wa->reused && parents_of(wa, roots, nroots, 0) != 1) ||
        (mba && !mba->reused && parents_of(mba, roots, nroots, 0) != 1)) return;
    ExNode *sn = add(x, scan);
    if (sn->nproj || sn->pushed_filter) return;
    int n = scan->out.n;
    WArena *a = x->p->arena;
    /* a Calc that only picks columns straight off the scan becomes the scan's projection */
    bool pure = !wa && !cc->cond && cc->nexprs > 0;
    for (int i = 0; i < cc->nexprs && pure; i++) {
        const WExpr *e = cc->exprs[i];
        if (e->kind != WX_COLUMN || strcmp(scan->out.names[e->col], calc->out.names[i]) != 0 ||
            !wtype_equals(e->type, scan->out.types[e->col], false)) pure = false;
        for (int k = 0; k < i && pure; k++) if (cc->exprs[k]->col == e->col) pure = false;
    }
    /* every field, reordered: Flink pushes no projection; the Calc stays, unless an aggregate
       reads it (then the aggregate refers to the scan's fields itself) */
    if (pure && cc->nexprs == n) {
        bool same_order = true;
        for (int i = 0; i < n; i++) if (cc->exprs[i]->col != i) same_order = false;
        if (same_order || read_by_aggregate(calc, roots, nroots)) add(x, calc)->id = -1;
        return;
    }
    if (pure) {
        sn->nproj = cc->nexprs;
        sn->proj = WA_ARRAY(a, int, cc->nexprs);
        for (int i = 0; i < cc->nexprs; i++) sn->proj[i] = cc->exprs[i]->col;
        ExNode *cn = add(x, calc);
        cn->id = -1;        /* folded into the scan */
        return;
    }
    bool *used = WA_ARRAY(a, bool, n ? n : 1);
    memset(used, 0, sizeof(bool) * (size_t)(n ? n : 1));
    for (int i = 0; i < cc->nexprs; i++) mark_refs(cc->exprs[i], used, n);
    mark_refs(cc->cond, used, n);
    if (wa) {
        used[wrel_watermark(wa)->rowtime_col] = true;
        mark_refs(wrel_watermark(wa)->expr, used, n);
    }
    int nu = 0;
    for (int i = 0; i < n; i++) nu += used[i];
    if (nu == 0 && n > 0 && !wa) {
        /* nothing read (SELECT 1 FROM t): Flink's projection keeps the first field (measured) */
        used[0] = true;
        nu = 1;
    }
    if (nu < n && nu > 0) {
        sn->nproj = nu;
        sn->proj = WA_ARRAY(a, int, nu);
        int k = 0;
        bool *seen = WA_ARRAY(a, bool, n);
        memset(seen, 0, sizeof(bool) * (size_t)n);
        /* with a filter the projection comes from below it (Calcite's transpose keeps the table
           order); without, the projection's own order */
        if (!cc->cond)
            for (int i = 0; i < cc->nexprs; i++) wplan_refs_in_order(cc->exprs[i], seen, sn->proj, &k, n);
        if (wa) {
            const WRelWatermark *ww = wrel_watermark(wa);
            if (!seen[ww->rowtime_col]) { seen[ww->rowtime_col] = true; sn->proj[k++] = ww->rowtime_col; }
            wplan_refs_in_order(ww->expr, seen, sn->proj, &k, n);
        }
        for (int i = 0; i < n; i++) if (used[i] && !seen[i]) sn->proj[k++] = i;
    }
    if (!wa && cc->cond && filterable(scan)) sn->pushed_filter = cc->cond;
    /* a Calc that now only repeats the projected columns disappears too */
    int np = sn->nproj ? sn->nproj : n;
    bool ident = !cc->cond && cc->nexprs == np;
    for (int i = 0; i < cc->nexprs && ident; i++) {
        const WExpr *e = cc->exprs[i];
        int want = sn->nproj ? sn->proj[i] : i;
        if (e->kind != WX_COLUMN || e->col != want || strcmp(scan->out.names[want], calc->out.names[i]) != 0)
            ident = false;
    }
    if (ident) {
        ExNode *cn = add(x, calc);
        cn->id = -1;
    }
}

/* A window aggregate only produces the window properties that are used (window_time when a
   select item or a filter above reads it). The aggregates keep the names the binder gave them
   (Calcite's: the select item that is exactly the call, else $fN): CalcMerge and ProjectRemove
   keep the surviving node's names, so a Calc above shows `EXPR$1 AS n` (measured). */
static void window_time_used(ExCtx *x, const WRel *calc)
{
    const WRelCalc *cc = wrel_calc(calc);
    const WRel *agg = calc->inputs[0];
    if (agg->kind != WR_WINDOW_AGG && agg->kind != WR_GLOBAL_WINDOW_AGG) return;
    if (wrel_agg(agg)->partial_final != WPF_NONE || wrel_window(agg)->out_time < 0) return;
    WArena *a = x->p->arena;
    bool *used = WA_ARRAY(a, bool, agg->out.n ? agg->out.n : 1);
    memset(used, 0, sizeof(bool) * (size_t)(agg->out.n ? agg->out.n : 1));
    for (int i = 0; i < cc->nexprs; i++) {
        const WExpr *e = cc->exprs[i];
        if (e->kind == WX_CAST && e->nargs == 1 && e->args[0]->kind == WX_COLUMN) e = e->args[0];
        if (e->kind == WX_COLUMN && e->col >= 0 && e->col < agg->out.n) used[e->col] = true;
    }
    mark_refs(cc->cond, used, agg->out.n);
    if (used[wrel_window(agg)->out_time]) add(x, agg)->wtime_used = true;
}

WSchema ex_schema(const ExCtx *x, const WRel *r)
{
    WSchema s = r->out;
    s.names = (const char **)ex_out_names(x, r);
    return s;
}

/* A Calc that repeats its input (same columns, same names once aggregates are named) is not
   in Flink's plan. */
static void fold_identity(ExCtx *x, const WRel *calc)
{
    const WRelCalc *cc = wrel_calc(calc);
    const WRel *in = calc->inputs[0];
    if (cc->cond || cc->nexprs != in->out.n || cc->nexprs == 0) return;
    ExNode *cn = ex_node(x, calc);
    if (cn && cn->id < 0) return;
    const char *const *inn = ex_out_names(x, in);
    /* a Calc that only renames is a trivial program Calcite removes (CalcRemoveRule and
       ProjectRemoveRule ignore names): the names below it show through */
    (void)inn;
    for (int i = 0; i < cc->nexprs; i++) {
        const WExpr *e = cc->exprs[i];
        if (e->kind != WX_COLUMN || e->col != i || !wtype_equals(e->type, calc->out.types[i], false)) return;
    }
    cn = add(x, calc);
    cn->id = -1;
}

static void scan_push_downs(ExCtx *x, const WRel *r, WRel **roots, int nroots, int depth)
{
    if (depth > 2000) return;
    for (int i = 0; i < r->ninputs; i++) scan_push_downs(x, r->inputs[i], roots, nroots, depth + 1);
    if (r->kind == WR_CALC) {
        push_down(x, r, roots, nroots);
        window_time_used(x, r);
        fold_identity(x, r);
    }
    /* the keyBy on the primary key that feeds a SinkMaterializer is part of Flink's sink
       translation: no Exchange node in the plan, no ExecNode id */
    if (r->kind == WR_SINK_MATERIALIZER && r->ninputs == 1 && r->inputs[0]->kind == WR_EXCHANGE)
        add(x, r->inputs[0])->id = -1;
}

const WRel *ex_skip(const ExCtx *x, const WRel *r) { return skip_folded(x, r); }

/* Changelog mode as Flink prints it: UPDATE_BEFORE only where it is produced (the planner's
   modes carry DELETE as Flink's ModifyKindSet does). */
uint8_t ex_changelog_mode(const ExCtx *x, const WRel *r)
{
    switch (r->kind) {
    case WR_SINK: return 0;
    case WR_SCAN: return r->changelog;      /* what the source sends (a DropUpdateBefore may follow) */
    case WR_CALC: case WR_EXCHANGE: case WR_WATERMARK: case WR_SINK_MATERIALIZER: case WR_MINIBATCH_ASSIGNER:
    case WR_CORRELATE:       /* keeps_insert: over a ChangelogNormalize the planner dropped */
        return (uint8_t)((r->keeps_insert ? WCM_INSERT : 0) | (r->ninputs ? ex_changelog_mode(x, r->inputs[0]) : r->changelog));
    case WR_LOCAL_GROUP_AGG: case WR_INCREMENTAL_GROUP_AGG:
        return WCM_INSERT;
    case WR_DROP_UPDATE_BEFORE:
        return (uint8_t)(ex_changelog_mode(x, r->inputs[0]) & ~WCM_UPDATE_BEFORE);
    case WR_UNION: {
        uint8_t m = 0;
        for (int i = 0; i < r->ninputs; i++) m |= ex_changelog_mode(x, r->inputs[i]);
        return m;
    }
    default: {
        uint8_t m = r->changelog;
        if (m == WCM_INSERT) return m;
        if (!r->generate_update_before) m &= (uint8_t)~WCM_UPDATE_BEFORE;
        return m;
    }
    }
}

static void number(ExCtx *x, const WRel *r, int *next, int depth)
{
    if (depth > 2000) return;
    ExNode *n = ex_node(x, r);
    if (n && n->id > 0) return;       /* numbered already (a shared node) */
    for (int i = 0; i < r->ninputs; i++) number(x, r->inputs[i], next, depth + 1);
    if (r->kind == WR_SINK_MATERIALIZER || (n && n->id < 0)) return;     /* folded */
    n = add(x, r);
    n->id = (*next)++;
    if (r->kind == WR_SINK && r->ninputs == 1 && r->inputs[0]->kind == WR_SINK_MATERIALIZER)
        n->materializer = r->inputs[0];
}

bool ex_ctx_init(ExCtx *x, WPlanCtx *p, WRel **roots, int n)
{
    memset(x, 0, sizeof *x);
    x->p = p;
    const char *mode = wopts_get(p->config, "execution.runtime-mode");
    x->batch = mode && !strcasecmp(mode, "batch");
    if (p->err && p->err->set) return false;
    for (int i = 0; i < n; i++) scan_push_downs(x, roots[i], roots, n, 0);
    int next = p->exec_node_ids ? *p->exec_node_ids + 1 : 1;
    for (int i = 0; i < n; i++) number(x, ex_root(roots[i]), &next, 0);
    if (p->exec_node_ids) *p->exec_node_ids = next - 1;
    for (int i = 0; i < n; i++) {
        WStateTtlHint *h = NULL;
        int k = wstate_ttl_hints(p, roots[i], &h);
        if (k < 0) return false;
        if (!k) continue;
        WStateTtlHint *all = WA_ARRAY(p->arena, WStateTtlHint, x->nhints + k);
        if (x->nhints) memcpy(all, x->hints, sizeof *all * (size_t)x->nhints);
        memcpy(all + x->nhints, h, sizeof *h * (size_t)k);
        x->hints = all;
        x->nhints += k;
    }
    return true;
}

void wexplain_take_exec_node_ids(WPlanCtx *p, WRel **roots, int n)
{
    if (!p->exec_node_ids) return;
    ExCtx x;
    if (!ex_ctx_init(&x, p, roots, n)) return;
    /* the job graph and the runtime name their operators with these ids (WRel.exec_id) */
    for (int i = 0; i < x.n; i++)
        if (x.nodes[i].id > 0) ((WRel *)x.nodes[i].rel)->exec_id = x.nodes[i].id;
    /* a query's collect sink is an exec node too when the statement runs */
    for (int i = 0; i < n; i++)
        if (roots[i]->kind == WR_SINK && !wrel_sink(roots[i])->table) roots[i]->exec_id = ++(*p->exec_node_ids);
}
