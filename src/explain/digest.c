/*
 * digest.c — one exec node as Flink prints it in the optimized physical plan and the execution
 * plan: its name (Calc, GroupAggregate, Exchange, ...), its attributes in Flink's order
 * (select=[...], where=[...], groupBy=[...], distribution=[hash[...]], ...), and the
 * stream-exec-*_1 type names of compiled plans. Each from EX_KIND_OPS, one row per WRelKind
 * (ex_digest_ops_check: no kind without its name, type and digest). See explain_internal.h.
 */
#include "explain_internal.h"
#include "../plan/agg_rules.h"
#include "../plan/over_window.h"
#include "../common/duration.h"

#include <stdint.h>
#include <assert.h>
#include <string.h>

void ex_changelog(uint8_t mode, WStrBuf *out)
{
    if (!mode) { wsb_puts(out, "NONE"); return; }
    bool first = true;
    static const struct { uint8_t bit; const char *s; } K[] = {
        {WCM_INSERT, "I"}, {WCM_UPDATE_BEFORE, "UB"}, {WCM_UPDATE_AFTER, "UA"}, {WCM_DELETE, "D"}};
    for (int i = 0; i < 4; i++)
        if (mode & K[i].bit) { wsb_printf(out, "%s%s", first ? "" : ",", K[i].s); first = false; }
}

void ex_names_list(WStrBuf *out, const WSchema *s)
{
    for (int i = 0; i < s->n; i++) wsb_printf(out, "%s%s", i ? ", " : "", s->names[i]);
}

static const char *const *in_names(const ExCtx *x, const WRel *in)
{
    WArena *a = x->p->arena;
    const char **n = WA_ARRAY(a, const char *, in->out.n ? in->out.n : 1);
    for (int i = 0; i < in->out.n; i++) n[i] = ex_in_name(x, in, i);
    return n;
}

static void key_names(WStrBuf *out, const char *const *names, int n, const int *keys)
{
    for (int i = 0; i < n; i++) wsb_printf(out, "%s%s", i ? ", " : "", names[keys[i]]);
}

static const char *agg_fn_name(const WAggCall *c)
{
    switch (c->kind) {
    case WAGG_COUNT_STAR: case WAGG_COUNT: return "COUNT";
    case WAGG_SUM: return "SUM";
    case WAGG_SUM0: return "$SUM0";
    case WAGG_MIN: return "MIN";
    case WAGG_MAX: return "MAX";
    case WAGG_AVG: return "AVG";
    case WAGG_FIRST_VALUE: return "FIRST_VALUE";
    case WAGG_LAST_VALUE: return "LAST_VALUE";
    case WAGG_LISTAGG: return "LISTAGG";
    case WAGG_STDDEV_POP: return "STDDEV_POP";
    case WAGG_STDDEV_SAMP: return "STDDEV_SAMP";
    case WAGG_VAR_POP: return "VAR_POP";
    case WAGG_VAR_SAMP: return "VAR_SAMP";
    case WAGG_BOOL_AND: return "BOOL_AND";
    case WAGG_BOOL_OR: return "BOOL_OR";
    case WAGG_COLLECT: return "COLLECT";
    case WAGG_SINGLE_VALUE: return "SINGLE_VALUE";
    }
    return c->name ? c->name : "AGG";
}

void ex_agg_call(const WAggCall *c, const char *const *names, const char *out_name, WStrBuf *out, bool retract)
{
    const char *fn = agg_fn_name(c);
    bool needs_retract_variant = retract && (c->kind == WAGG_COUNT_STAR || c->kind == WAGG_COUNT ||
                                             c->kind == WAGG_SUM || c->kind == WAGG_SUM0 ||
                                             c->kind == WAGG_MIN || c->kind == WAGG_MAX || c->kind == WAGG_AVG ||
                                             c->kind == WAGG_FIRST_VALUE || c->kind == WAGG_LAST_VALUE ||
                                             c->kind == WAGG_LISTAGG);
    wsb_printf(out, "%s%s(", fn, needs_retract_variant ? "_RETRACT" : "");
    if (c->distinct) wsb_puts(out, "DISTINCT ");
    if (c->kind == WAGG_COUNT_STAR) wsb_putc(out, '*');
    for (int i = 0; i < c->nargs; i++) wsb_printf(out, "%s%s", i ? ", " : "", names[c->args[i]]);
    wsb_putc(out, ')');
    if (c->filter_col >= 0) wsb_printf(out, " FILTER %s", names[c->filter_col]);
    wsb_printf(out, " AS %s", out_name ? out_name : c->out_name ? c->out_name : "EXPR$0");
}

static void over_bound(WStrBuf *out, const WOverBound *b, ExDialect d)
{
    switch (b->kind) {
    case WOB_UNBOUNDED_PRECEDING: wsb_puts(out, "UNBOUNDED PRECEDING"); return;
    case WOB_UNBOUNDED_FOLLOWING: wsb_puts(out, "UNBOUNDED FOLLOWING"); return;
    case WOB_CURRENT_ROW: wsb_puts(out, "CURRENT ROW"); return;
    case WOB_PRECEDING: case WOB_FOLLOWING:
        if (b->lit) ex_literal(out, b->lit, d);
        else wsb_printf(out, "%g", b->offset);
        wsb_puts(out, b->kind == WOB_PRECEDING ? " PRECEDING" : " FOLLOWING");
        return;
    }
}

/* BatchPhysicalOverAggregate: partitionBy, orderBy, window#i=[calls frame], select */
static void batch_over_digest(const WRel *r, const char *const *inn, ExDialect d, WStrBuf *out)
{
    const WOverSpec *ov = wrel_over(r)->batch;
    wsb_putc(out, '(');
    if (r->nkeys) {
        wsb_puts(out, "partitionBy=[");
        for (int i = 0; i < r->nkeys; i++) wsb_printf(out, "%s%s", i ? ", " : "", inn[r->keys[i]]);
        wsb_puts(out, "], ");
    }
    if (r->nsort) {
        wsb_puts(out, "orderBy=[");
        for (int i = 0; i < r->nsort; i++)
            wsb_printf(out, "%s%s %s", i ? ", " : "", inn[r->sort_cols[i]], r->sort_desc[i] ? "DESC" : "ASC");
        wsb_puts(out, "], ");
    }
    for (int w = 0; w < ov->nwindows; w++) {
        const WOverWindow *win = &ov->windows[w];
        wsb_printf(out, "window#%d=[", w);
        for (int k = 0; k < win->ncalls; k++) {
            const WOverCall *c = &win->calls[k];
            if (k) wsb_puts(out, ", ");
            if (c->fn == WOF_AGG) ex_agg_call(&c->agg, inn, c->name, out, false);
            else wsb_printf(out, "%s(%s) AS %s", wover_fn_name(c), c->args_text ? c->args_text : "*", c->name);
        }
        wsb_printf(out, " %s BETWEEN ", win->rows ? "ROWS" : "RANGE");
        over_bound(out, &win->lower, d);
        wsb_puts(out, " AND ");
        over_bound(out, &win->upper, d);
        wsb_puts(out, "], ");
    }
    wsb_puts(out, "select=[");
    for (int i = 0; i < r->out.n; i++) wsb_printf(out, "%s%s", i ? ", " : "", r->out.names[i]);
    wsb_puts(out, "])");
}

/* StreamPhysicalOverAggregate: partitionBy (when keyed), orderBy, window=[ ROWS|RANGE BETWEEN
   UNBOUNDED PRECEDING | n PRECEDING AND CURRENT ROW] (RANGE offsets in ms), select=[input columns,
   calls AS w0$oN] */
static void stream_over_digest(const WRel *r, const char *const *inn, WStrBuf *out)
{
    const WRelOver *ro = wrel_over(r);
    const WRelAgg *ag = wrel_agg(r);
    wsb_putc(out, '(');
    if (r->nkeys) {
        wsb_puts(out, "partitionBy=[");
        for (int i = 0; i < r->nkeys; i++) wsb_printf(out, "%s%s", i ? ", " : "", inn[r->keys[i]]);
        wsb_puts(out, "], ");
    }
    wsb_printf(out, "orderBy=[%s ASC], window=[ %s BETWEEN ", r->time_col >= 0 ? inn[r->time_col] : "",
               ro->rows ? "ROWS" : "RANGE");
    if (ro->unbounded) wsb_puts(out, "UNBOUNDED PRECEDING");
    else wsb_printf(out, "%lld PRECEDING", (long long)ro->preceding);
    wsb_puts(out, " AND CURRENT ROW], select=[");
    int nin = r->inputs[0]->out.n;
    for (int i = 0; i < nin; i++) wsb_printf(out, "%s%s", i ? ", " : "", inn[i]);
    const WOverWindow *w = ro->stream && ro->stream->nwindows == 1 ? &ro->stream->windows[0] : NULL;
    int ncalls = w ? w->ncalls : ag->naggs;
    for (int k = 0; k < ncalls; k++) {
        const char *name = nin + k < r->out.n ? r->out.names[nin + k] : "?";
        wsb_puts(out, nin + k ? ", " : "");
        if (!w) ex_agg_call(&ag->aggs[k], inn, name, out, false);
        else if (w->calls[k].fn == WOF_AGG) ex_agg_call(&w->calls[k].agg, inn, name, out, false);
        else wsb_printf(out, "%s(%s) AS %s", wover_fn_name(&w->calls[k]),
                        w->calls[k].args_text ? w->calls[k].args_text : "*", name);
    }
    wsb_puts(out, "])");
}

static void table_path(WStrBuf *out, const char *qname)
{
    for (const char *s = qname; *s; s++) {
        if (*s == '.') wsb_puts(out, ", ");
        else wsb_putc(out, *s);
    }
}

/* Flink's WindowSpec toSummaryString; inn (NULL: none) names the input fields a session window's
   partition keys index (", partition keys=[k1, k2]" when it has any). */
static void window_spec(WStrBuf *out, const WRel *r, const char *time_name, const char *ws, const char *we,
                        const char *const *inn)
{
    char a[48], b[48];
    const WRelWindow *rw = wrel_window(r);
    static const char *const KIND[WWIN_NKINDS] = {"TUMBLE", "HOP", "CUMULATE", "SESSION"};
    WWindowKind k = (int)rw->kind >= 0 && rw->kind < WWIN_NKINDS ? rw->kind : WWIN_TUMBLE;
    wsb_printf(out, "%s(", KIND[k]);
    if (time_name) wsb_printf(out, "time_col=[%s]", time_name);
    else if (!ws) wsb_printf(out, "%s=[%s]", rw->attached ? "win_end" : "slice_end", we);   /* global */
    else wsb_printf(out, "win_start=[%s], win_end=[%s]", ws, we);
    switch (k) {
    case WWIN_TUMBLE: wduration_format(rw->size, a, sizeof a); wsb_printf(out, ", size=[%s]", a); break;
    case WWIN_HOP:
        wduration_format(rw->size, a, sizeof a);
        wduration_format(rw->slide, b, sizeof b);
        wsb_printf(out, ", size=[%s], slide=[%s]", a, b);
        break;
    case WWIN_CUMULATE:
        wduration_format(rw->size, a, sizeof a);
        wduration_format(rw->slide, b, sizeof b);
        wsb_printf(out, ", max_size=[%s], step=[%s]", a, b);
        break;
    case WWIN_SESSION:
        wduration_format(rw->gap, a, sizeof a);
        wsb_printf(out, ", gap=[%s]", a);
        if (inn && rw->npartition) {
            wsb_puts(out, ", partition keys=[");
            key_names(out, inn, rw->npartition, rw->partition);
            wsb_putc(out, ']');
        }
        break;
    }
    if (rw->offset) { wduration_format(rw->offset, a, sizeof a); wsb_printf(out, ", offset=[%s]", a); }
    wsb_putc(out, ')');
}

/* A legacy group window's window, Flink's LogicalWindow toString: TumblingGroupWindow('w$,
   rowtime, 5000), SlidingGroupWindow('w$, proctime, size, slide), SessionGroupWindow('w$, ts, gap). */
static void legacy_window_spec(WStrBuf *out, const WRel *r, const char *time_name)
{
    const WRelWindow *rw = wrel_window(r);
    switch (rw->kind) {
    case WWIN_HOP:
        wsb_printf(out, "SlidingGroupWindow('w$, %s, %lld, %lld)", time_name, (long long)rw->size,
                   (long long)rw->slide);
        break;
    case WWIN_SESSION: wsb_printf(out, "SessionGroupWindow('w$, %s, %lld)", time_name, (long long)rw->gap); break;
    default: wsb_printf(out, "TumblingGroupWindow('w$, %s, %lld)", time_name, (long long)rw->size); break;
    }
}

/* GroupWindowAggregate's digest after its groupBy: window, properties, select (Flink
   StreamPhysicalGroupWindowAggregate explainTerms). */
static void legacy_window_digest(const ExCtx *x, const WRel *r, const char *const *inn, WStrBuf *out)
{
    const WRelAgg *ag = wrel_agg(r);
    wsb_puts(out, "window=[");
    legacy_window_spec(out, r, inn[wrel_window(r)->time_col]);
    wsb_putc(out, ']');
    int p0 = r->nkeys + ag->naggs, np = r->out.n - p0;
    static const char *const FN[] = {"start", "end", "rowtime", "proctime"};
    if (np > 0) {
        wsb_puts(out, ", properties=[");
        for (int i = 0; i < np; i++) wsb_printf(out, "%s%s", i ? ", " : "", r->out.names[p0 + i]);
        wsb_putc(out, ']');
    }
    wsb_puts(out, ", select=[");
    int q = 0;
    for (int i = 0; i < r->nkeys; i++) wsb_printf(out, "%s%s", q++ ? ", " : "", inn[r->keys[i]]);
    for (int j = 0; j < ag->naggs; j++) {
        if (q++) wsb_puts(out, ", ");
        ex_agg_call(&ag->aggs[j], inn, ex_out_names(x, r)[r->nkeys + j], out, false);
    }
    for (int i = 0; i < np; i++) {
        int f = np == 3 && i == 2 ? 3 : i < 4 ? i : 3;
        wsb_printf(out, "%s%s('w$) AS %s", q++ ? ", " : "", FN[f], r->out.names[p0 + i]);
    }
    wsb_puts(out, "])");
}

static const char *join_type_name(const WRel *r)
{
    if (wrel_join(r)->semi) return "LeftSemiJoin";
    if (wrel_join(r)->anti) return "LeftAntiJoin";
    switch (wrel_join(r)->type) {
    case AJ_LEFT: return "LeftOuterJoin";
    case AJ_RIGHT: return "RightOuterJoin";
    case AJ_FULL: return "FullOuterJoin";
    default: return "InnerJoin";
    }
}

/* Names of a join's combined row (left ++ right), right names made unique as Calcite does. */
static const char *const *join_names(const ExCtx *x, const WRel *r)
{
    const WRel *l = r->inputs[0], *rt = r->kind == WR_LOOKUP_JOIN ? wrel_join(r)->lookup_scan : r->inputs[1];
    int n = l->out.n + rt->out.n;
    WArena *a = x->p->arena;
    const char **names = WA_ARRAY(a, const char *, n ? n : 1);
    if (r->out.n == n) return ex_out_names(x, r);
    for (int i = 0; i < l->out.n; i++) names[i] = l->out.names[i];
    for (int j = 0; j < rt->out.n; j++) {
        const char *nm = rt->out.names[j];
        bool clash = true;
        for (int suffix = -1; clash; suffix++) {
            const char *cand = suffix < 0 ? nm : wa_sprintf(a, "%s%d", nm, suffix);
            clash = false;
            for (int i = 0; i < l->out.n + j; i++) if (!strcmp(names[i], cand)) clash = true;
            if (!clash) nm = cand;
        }
        names[l->out.n + j] = nm;
    }
    return names;
}

static void join_condition(const ExCtx *x, const WRel *r, const char *const *names, ExDialect d, WStrBuf *out)
{
    const WRelJoin *rj = wrel_join(r);
    int ln = r->inputs[0]->out.n;
    if (ex_setops_null_safe_condition(r, names, d, out)) return;
    int nterms = r->nkeys + (rj->cond ? 1 : 0);
    if (nterms == 0) { wsb_puts(out, "true"); return; }
    bool exec = d == EXD_EXEC;
    if (nterms > 1) wsb_puts(out, exec ? "(" : "AND(");
    int t = 0;
    for (int k = 0; k < r->nkeys; k++, t++) {
        if (t) wsb_puts(out, exec ? " AND " : ", ");
        const char *op = rj->key_filter_nulls && !rj->key_filter_nulls[k] ? "IS NOT DISTINCT FROM" : "=";
        const char *a = names[r->keys[k]], *b = names[ln + rj->right_keys[k]];
        if (exec) wsb_printf(out, "(%s %s %s)", a, op, b);
        else wsb_printf(out, "%s(%s, %s)", op, a, b);
    }
    if (rj->cond) {
        if (t) wsb_puts(out, exec ? " AND " : ", ");
        /* a nested AND is flattened into the outer one */
        const WExpr *c = rj->cond;
        if (c->kind == WX_AND && nterms > 1) {
            for (int i = 0; i < c->nargs; i++) {
                if (i) wsb_puts(out, exec ? " AND " : ", ");
                ex_rex(out, c->args[i], names, d);
            }
        } else {
            ex_rex(out, c, names, d);
        }
    }
    if (nterms > 1) wsb_putc(out, ')');
    (void)x;
}

static const char *input_spec(const WRel *in, int nkeys, const int *keys)
{
    if (in->nunique < 0) return "NoUniqueKey";   /* 0: the empty key, at most one row (a global aggregate) */
    for (int i = 0; i < in->nunique; i++) {
        bool found = false;
        for (int k = 0; k < nkeys; k++) if (keys[k] == in->unique[i]) found = true;
        if (!found) return "HasUniqueKey";
    }
    return "JoinKeyContainsUniqueKey";
}

static void ttl_hint_text(const WStateTtlHint *h, bool join, WStrBuf *out)
{
    if (!h) return;
    if (join) {
        if (!h->left && !h->right) return;
        wsb_printf(out, ", stateTtlHints=[[[%s options:{", h->hint_name);
        if (h->left) wsb_printf(out, "LEFT=%s", h->left);
        if (h->right) wsb_printf(out, "%sRIGHT=%s", h->left ? ", " : "", h->right);
        wsb_puts(out, "}]]]");
    } else {
        if (!h->input) return;
        wsb_printf(out, ", stateTtlHints=[[[%s options:[%s]]]]", h->hint_name, h->input);
    }
}

static void select_list(const ExCtx *x, const WRel *r, WStrBuf *out)
{
    const char *const *n = ex_out_names(x, r);
    wsb_puts(out, "select=[");
    for (int i = 0; i < r->out.n; i++) wsb_printf(out, "%s%s", i ? ", " : "", n[i]);
    wsb_putc(out, ']');
}

static void sort_list(WStrBuf *out, const WRel *r, const char *const *names)
{
    for (int i = 0; i < r->nsort; i++)
        wsb_printf(out, "%s%s %s", i ? ", " : "", names[r->sort_cols[i]], r->sort_desc[i] ? "DESC" : "ASC");
}

/* One sort key of a Rank as Flink 2.3 prints it: a rowtime attribute with a ROWTIME prefix
   (`ROWTIME ts DESC`, measured), a processing-time one (materialised below the rank) plain. */
static void rank_sort_key(WStrBuf *out, const WRel *in, const char *const *names, int col, bool desc, bool first)
{
    const WType *t = in && col >= 0 && col < in->out.n ? in->out.types[col] : NULL;
    wsb_printf(out, "%s%s%s %s", first ? "" : ", ", t && t->time_attr == WTA_ROWTIME ? "ROWTIME " : "",
               names[col], desc ? "DESC" : "ASC");
}

static void partial_final_type(WStrBuf *out, const WRel *r)
{
    WPartialFinal pf = wrel_agg(r)->partial_final;
    if (pf == WPF_PARTIAL) wsb_puts(out, "partialFinalType=[PARTIAL], ");
    else if (pf == WPF_FINAL) wsb_puts(out, "partialFinalType=[FINAL], ");
}

/* NAME[_RETRACT]( as RelExplainUtil prints aggregate calls of local/global/incremental nodes */
static void agg_head(WStrBuf *out, const WAggCall *c, bool retract)
{
    wsb_printf(out, "%s%s(", agg_fn_name(c), retract ? "_RETRACT" : "");
}

/* The accumulator columns of call i: `a` or `(a, b)`. */
static void acc_names(WStrBuf *out, const char *const *names, int first, int n)
{
    if (n > 1) wsb_putc(out, '(');
    for (int k = 0; k < n; k++) wsb_printf(out, "%s%s", k ? ", " : "", names[first + k]);
    if (n > 1) wsb_putc(out, ')');
}

static void item_sep(WStrBuf *out, int *q) { if ((*q)++) wsb_puts(out, ", "); }

/* LocalGroupAggregate / GlobalGroupAggregate / IncrementalGroupAggregate (Flink's
   RelExplainUtil.streamGroupAggregationToString with isLocal / isGlobal / a shuffle key), and
   LocalWindowAggregate / GlobalWindowAggregate (windowAggregationToString: window=[...] after
   groupBy, the slice end / window properties last). */
static void two_phase_digest(const ExCtx *x, const WRel *r, const char *const *inn, WStrBuf *out)
{
    WArena *a = x->p->arena;
    const char *const *on = ex_out_names(x, r);
    const WRelAgg *ag = wrel_agg(r);
    WAggPartial L;
    bool incr = r->kind == WR_INCREMENTAL_GROUP_AGG;
    bool window = r->kind == WR_LOCAL_WINDOW_AGG || r->kind == WR_GLOBAL_WINDOW_AGG;
    const WRelWindow *rw = window ? wrel_window(r) : NULL;     /* NULL unless `window` */
    bool local = r->kind == WR_LOCAL_GROUP_AGG || r->kind == WR_LOCAL_WINDOW_AGG;
    bool retract = r->input_retracts;
    wsb_putc(out, '(');
    if (incr) {
        wsb_puts(out, "partialAggGrouping=[");
        key_names(out, inn, r->nkeys, r->keys);
        wsb_puts(out, "], finalAggGrouping=[");
        key_names(out, inn, ag->nfinal_keys, ag->final_keys);
        wsb_puts(out, "], ");
    } else {
        if (r->nkeys) {
            wsb_puts(out, "groupBy=[");
            key_names(out, inn, r->nkeys, r->keys);
            wsb_puts(out, "], ");
        }
        if (window) {
            wsb_puts(out, "window=[");
            if (r->kind == WR_GLOBAL_WINDOW_AGG) window_spec(out, r, NULL, NULL, inn[r->inputs[0]->out.n - 1], NULL);
            else if (rw->attached) window_spec(out, r, NULL, inn[rw->start_col], inn[rw->end_col], NULL);
            else window_spec(out, r, inn[rw->time_col], NULL, NULL, inn);
            wsb_puts(out, "], ");
        } else {
            partial_final_type(out, r);
        }
    }
    wsb_puts(out, "select=[");
    int q = 0;
    if (local) {
        if (window) wagg_window_partial_layout(a, ag->aggs, ag->naggs, &ag->agg_input, rw->kind, &L);
        else wagg_partial_layout(a, ag->aggs, ag->naggs, &ag->agg_input, retract, false, &L);
        for (int i = 0; i < r->nkeys; i++) {
            item_sep(out, &q);
            wsb_puts(out, inn[r->keys[i]]);
            if (strcmp(inn[r->keys[i]], on[i])) wsb_printf(out, " AS %s", on[i]);
        }
        const char *const *acc = on + r->nkeys;
        for (int i = 0; i < ag->naggs; i++) {
            const WAggCall *c = &ag->aggs[i];
            item_sep(out, &q);
            agg_head(out, c, retract);
            if (L.distinct_of[i] >= 0) wsb_printf(out, "distinct$%d%s", L.distinct_of[i], c->nargs ? " " : "");
            if (c->kind == WAGG_COUNT_STAR || c->nargs == 0) wsb_putc(out, '*');
            for (int k = 0; k < c->nargs && c->kind != WAGG_COUNT_STAR; k++)
                wsb_printf(out, "%s%s", k ? ", " : "", inn[c->args[k]]);
            wsb_putc(out, ')');
            if (c->filter_col >= 0) wsb_printf(out, " FILTER %s", inn[c->filter_col]);
            wsb_puts(out, " AS ");
            acc_names(out, acc, L.first[i], L.nfields[i]);
        }
        if (L.count1_added) {
            item_sep(out, &q);
            wsb_printf(out, "%s(*) AS %s", window ? "COUNT" : "COUNT_RETRACT", acc[L.count1]);
        }
        for (int k = 0; k < L.ndistinct; k++) {
            item_sep(out, &q);
            wsb_puts(out, "DISTINCT(");
            for (int m = 0; m < L.distinct_nargs[k]; m++)
                wsb_printf(out, "%s%s", m ? ", " : "", inn[L.distinct_args[2 * k + m]]);
            wsb_printf(out, ") AS %s", acc[L.distinct_col[k]]);
        }
        if (window) wsb_printf(out, ", slice_end('w$) AS %s", on[r->out.n - 1]);
    } else {
        /* the input's accumulator columns follow its grouping columns */
        if (window) wagg_window_partial_layout(a, ag->aggs, ag->naggs, &ag->agg_input, rw->kind, &L);
        else wagg_partial_layout(a, ag->aggs, ag->naggs, &ag->agg_input, retract, false, &L);
        int nk = r->nkeys;
        const char *const *acc = inn + nk;
        const int *okeys = incr ? ag->final_keys : r->keys;
        int nok = incr ? ag->nfinal_keys : r->nkeys;
        for (int i = 0; i < nok; i++) {
            item_sep(out, &q);
            wsb_puts(out, inn[okeys[i]]);
            if (strcmp(inn[okeys[i]], on[i])) wsb_printf(out, " AS %s", on[i]);
        }
        WAggPartial O;
        if (incr) wagg_partial_layout(a, ag->aggs, ag->naggs, &ag->agg_input, retract, true, &O);
        for (int i = 0; i < ag->naggs; i++) {
            const WAggCall *c = &ag->aggs[i];
            item_sep(out, &q);
            agg_head(out, c, retract);
            if (L.distinct_of[i] >= 0) wsb_printf(out, "distinct$%d ", L.distinct_of[i]);
            acc_names(out, acc, L.first[i], L.nfields[i]);
            wsb_puts(out, ") AS ");
            if (incr) acc_names(out, on + nok, O.first[i], O.nfields[i]);
            else wsb_puts(out, on[nok + i]);
        }
        /* the incremental node passes the inserted record count on (a global hides it) */
        if (incr && O.count1_added)
            wsb_printf(out, ", COUNT_RETRACT(%s) AS %s", acc[L.count1], on[nok + O.count1]);
        if (window) {
            /* the window properties; a HOP window's added record count comes first, and Flink
               names the items by the output's remaining names in order, so that the count takes
               the first property's name and the last property is left out */
            const ExNode *node = ex_node(x, r);
            const char *item[4], *name[3];
            int ni = 0, nn = 0;
            if (L.count1_added) item[ni++] = wa_sprintf(a, "COUNT(%s)", acc[L.count1]);
            if (rw->out_start >= 0) { item[ni++] = "start('w$)"; name[nn++] = r->out.names[rw->out_start]; }
            if (rw->out_end >= 0) { item[ni++] = "end('w$)"; name[nn++] = r->out.names[rw->out_end]; }
            if (rw->out_time >= 0 && node && node->wtime_used) {
                item[ni++] = "rowtime('w$)";
                name[nn++] = r->out.names[rw->out_time];
            }
            for (int k = 0; k < nn; k++) wsb_printf(out, ", %s AS %s", item[k], name[k]);
        }
    }
    wsb_puts(out, "]");
    int count_star = wagg_index_of_count_star(r);
    if (count_star >= 0) wsb_printf(out, ", indexOfCountStar=[%d]", count_star);
    wsb_putc(out, ')');
}

static const char *rank_type(WRankFunc f)
{
    static const char *const NAME[WRANK_NFUNCS] = {"ROW_NUMBER", "RANK", "DENSE_RANK"};
    return NAME[wrank_func_index(f)];
}

/* One exec node's digest as the stage sees it: the node, its first input and their names. */
typedef struct DgNode {
    const ExCtx *x;
    const WRel *r;
    ExDialect d;
    const WRel *in;                 /* first input, NULL for a leaf */
    const char *const *inn;         /* its output names */
    ExNode *node;                   /* the exec view of r (pushed filters, projections), may be NULL */
} DgNode;

static void dg_scan(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = wrel_as_scan(dn->r);
    const WRelScan *sc = wrel_scan(r);
    ExNode *node = dn->node;
    wsb_puts(out, "(table=[[");
    table_path(out, sc->table_qname ? sc->table_qname : sc->table->name);
    if (node && node->pushed_filter) {
        /* the pushed predicate refers to the scan's (projected) fields */
        wsb_puts(out, ", filter=[");
        ex_rex(out, node->pushed_filter, (const char *const *)r->out.names, EXD_PUSHED);
        wsb_putc(out, ']');
    }
    if (node && node->nproj) {
        /* the physical columns read, then the metadata keys read (Flink's SupportsReadingMetadata) */
        wsb_puts(out, ", project=[");
        bool first = true;
        for (int i = 0; i < node->nproj; i++) {
            if (node->proj[i] >= sc->nfields) continue;
            wsb_printf(out, "%s%s", first ? "" : ", ", r->out.names[node->proj[i]]);
            first = false;
        }
        wsb_puts(out, "], metadata=[");
        first = true;
        for (int i = 0; i < node->nproj; i++) {
            if (node->proj[i] < sc->nfields) continue;
            wsb_printf(out, "%s%s", first ? "" : ", ", sc->meta_keys[node->proj[i] - sc->nfields]);
            first = false;
        }
        wsb_putc(out, ']');
    } else if (sc->nmeta) {
        wsb_puts(out, ", metadata=[");
        for (int m = 0; m < sc->nmeta; m++) wsb_printf(out, "%s%s", m ? ", " : "", sc->meta_keys[m]);
        wsb_putc(out, ']');
    }
    wsb_puts(out, "]], fields=[");
    if (node && node->nproj) {
        for (int i = 0; i < node->nproj; i++) wsb_printf(out, "%s%s", i ? ", " : "", r->out.names[node->proj[i]]);
    } else {
        ex_names_list(out, &r->out);
    }
    wsb_puts(out, "]");
    ex_options_hints(out, r, false);
    wsb_puts(out, ")");
}

static void dg_values(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = dn->r;
    const WRelValues *rv = wrel_values(r);
    ExDialect d = dn->d;
    /* Calcite's Values: type=[RecordType(...)] only at the DIGEST_ATTRIBUTES level (the
       physical plan without costs), the tuples as RexLiterals print in every plan; Flink's
       batch Values adds values=[names] */
    wsb_putc(out, '(');
    if (d == EXD_REL && !x->costs && !x->batch) {
        wsb_puts(out, "type=[RecordType(");
        for (int k = 0; k < r->out.n; k++) {
            if (k) wsb_puts(out, ", ");
            ex_calcite_type_name(out, r->out.types[k]);
            wsb_printf(out, " %s", r->out.names[k]);
        }
        wsb_puts(out, ")], ");
    }
    wsb_puts(out, "tuples=[[");
    for (int i = 0; i < rv->nrows; i++) {
        wsb_printf(out, "%s{ ", i ? ", " : "");
        for (int k = 0; k < r->out.n; k++) {
            WExpr lit = {.kind = WX_LITERAL, .type = r->out.types[k], .lit = rv->rows[i][k],
                         .is_null = rv->row_nulls[i][k] != 0};
            if (k) wsb_puts(out, ", ");
            if (!lit.is_null && (lit.type->id == WT_VARCHAR || lit.type->id == WT_CHAR)) {
                /* the tuples keep the CHAR literals as written; the row type widens them */
                WExpr ch = lit;
                ch.type = wtype_new(x->p->arena, WT_CHAR, false);
                ex_tuple_literal(out, &ch, EXD_REL);
            } else {
                ex_tuple_literal(out, &lit, EXD_REL);
            }
        }
        wsb_puts(out, " }");
    }
    wsb_puts(out, "]]");
    if (x->batch) {
        wsb_puts(out, ", values=[");
        ex_names_list(out, &r->out);
        wsb_putc(out, ']');
    }
    wsb_putc(out, ')');
}

static void dg_correlate(const DgNode *dn, WStrBuf *out)
{
    ex_correlate_digest(dn->x, dn->r, out);
}

static void dg_calc(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = dn->r;
    const WRelCalc *rc = wrel_calc(r);
    ExDialect d = dn->d;
    const char *const *inn = dn->inn;
    wsb_puts(out, "(select=[");
    for (int i = 0; i < rc->nexprs; i++) {
        const WExpr *e = rc->exprs[i];
        if (i) wsb_puts(out, ", ");
        ex_rex(out, e, inn, d);
        const char *on = ex_out_names(x, r)[i];
        if (!(e->kind == WX_COLUMN && !strcmp(inn[e->col], on))) wsb_printf(out, " AS %s", on);
    }
    wsb_putc(out, ']');
    if (rc->cond) {
        wsb_puts(out, ", where=[");
        ex_rex(out, rc->cond, inn, d);
        wsb_putc(out, ']');
    }
    wsb_putc(out, ')');
}

static void dg_union(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    wsb_puts(out, "(all=[true], union=[");
    ex_names_list(out, &r->out);
    wsb_puts(out, "])");
}

static void dg_watermark(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    const WRelWatermark *ww = wrel_watermark(r);
    ExDialect d = dn->d;
    const char *const *inn = dn->inn;
    wsb_printf(out, "(rowtime=[%s], watermark=[", inn[ww->rowtime_col]);
    if (ww->expr) ex_rex(out, ww->expr, inn, d);
    wsb_puts(out, "])");
}

static void dg_sink(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = wrel_as_sink(dn->r);
    const char *const *inn = dn->inn;
    ExNode *node = dn->node;
    wsb_printf(out, "(table=[%s], ", wrel_sink(r)->qname ? wrel_sink(r)->qname : "collect");
    wplan_target_columns_text(out, r);
    wsb_puts(out, "fields=[");
    /* Flink lists the input's field names (the sink writes by position): those of the node
       printed below it (a Calc that only renames is not in Flink's plan) */
    {
        const WRel *shown = ex_skip(x, r->inputs[0]);
        const char *const *sn = shown->out.n == r->inputs[0]->out.n ? in_names(x, shown) : inn;
        for (int i = 0; i < r->inputs[0]->out.n; i++) wsb_printf(out, "%s%s", i ? ", " : "", sn[i]);
    }
    wsb_putc(out, ']');
    if (node && node->materializer) wsb_puts(out, ", upsertMaterialize=[true]");
    if (wrel_sink(r)->conflict) wsb_printf(out, ", conflictStrategy=[%s]", wplan_conflict_name(wrel_sink(r)->conflict));
    wsb_putc(out, ')');
}

static void dg_exchange(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    const char *const *inn = dn->inn;
    if (wrel_exchange(r)->single || r->nkeys == 0) {
        wsb_puts(out, "(distribution=[single])");
    } else {
        wsb_puts(out, "(distribution=[hash[");
        key_names(out, inn, r->nkeys, r->keys);
        wsb_puts(out, "]])");
    }
}

static void dg_group_agg(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = dn->r;
    const WRelAgg *ag = wrel_agg(r);
    ExDialect d = dn->d;
    const WRel *in = dn->in;
    const char *const *inn = dn->inn;
    wsb_putc(out, '(');
    if (r->nkeys) {
        wsb_puts(out, "groupBy=[");
        key_names(out, inn, r->nkeys, r->keys);
        wsb_puts(out, "], ");
    }
    partial_final_type(out, r);
    wsb_puts(out, "select=[");
    for (int i = 0; i < r->nkeys; i++) wsb_printf(out, "%s%s", i ? ", " : "", inn[r->keys[i]]);
    /* the FINAL aggregate of a distinct split over an insert-only PARTIAL one: the partial
       MIN/MAX only ever fall/rise, so Flink's monotonicity analysis drops their retraction */
    const WRel *part = in && in->kind == WR_EXCHANGE ? in->inputs[0] : in;
    bool mono = ag->partial_final == WPF_FINAL && part && part->kind == WR_GROUP_AGG && !part->input_retracts;
    for (int j = 0; j < ag->naggs; j++) {
        if (r->nkeys || j) wsb_puts(out, ", ");
        const WAggCall *c = &ag->aggs[j];
        bool minmax = c->kind == WAGG_MIN || c->kind == WAGG_MAX;
        ex_agg_call(c, inn, ex_out_names(x, r)[r->nkeys + j], out, r->input_retracts && !(mono && minmax));
    }
    wsb_putc(out, ']');
    if (d == EXD_REL) ttl_hint_text(ex_hint(x, r), false, out);
    wsb_putc(out, ')');
}

static void dg_join(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = wrel_as_join(dn->r);
    ExDialect d = dn->d;
    const char *const *jn = join_names(x, r);
    wsb_printf(out, "(joinType=[%s], where=[", join_type_name(r));
    join_condition(x, r, jn, d, out);
    wsb_puts(out, "], ");
    select_list(x, r, out);
    wsb_printf(out, ", leftInputSpec=[%s], rightInputSpec=[%s]",
               input_spec(r->inputs[0], r->nkeys, r->keys), input_spec(r->inputs[1], r->nkeys, wrel_join(r)->right_keys));
    if (wrel_join(r)->minibatch) wsb_puts(out, ", miniBatch=[true]");
    if (d == EXD_REL) ttl_hint_text(ex_hint(x, r), true, out);
    wsb_putc(out, ')');
}

static void dg_interval_join(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = dn->r;
    const WRelJoin *rj = wrel_join(r);
    ExDialect d = dn->d;
    const char *const *jn = join_names(x, r);
    bool rowtime = r->inputs[0]->out.types[rj->left_time_col]->time_attr != WTA_PROCTIME;
    wsb_printf(out, "(joinType=[%s], windowBounds=[isRowTime=%s, leftLowerBound=%lld, leftUpperBound=%lld, "
               "leftTimeIndex=%d, rightTimeIndex=%d], where=[", join_type_name(r), rowtime ? "true" : "false",
               (long long)wrel_interval(r)->lower_ms, (long long)wrel_interval(r)->upper_ms, rj->left_time_col, rj->right_time_col);
    /* Flink shows the whole condition, time bounds included */
    WRel shown = *r;
    if (rj->shown_cond) wrel_join_mut(&shown)->cond = rj->shown_cond;
    join_condition(x, &shown, jn, d, out);
    wsb_puts(out, "], ");
    select_list(x, r, out);
    wsb_putc(out, ')');
}

static void dg_temporal_join(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = dn->r;
    ExDialect d = dn->d;
    const char *const *jn = join_names(x, r);
    wsb_printf(out, "(joinType=[%s], where=[", join_type_name(r));
    join_condition(x, r, jn, d, out);
    wsb_puts(out, "], ");
    select_list(x, r, out);
    wsb_putc(out, ')');
}

static void dg_lookup_join(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = dn->r;
    const WRelJoin *rj = wrel_join(r);
    ExDialect d = dn->d;
    /* conjuncts on the dim table's columns alone are pushed into the jdbc source (Flink's
       SupportsFilterPushDown) and are not shown */
    const char *const *jn = join_names(x, r);
    wsb_printf(out, "(table=[%s], joinType=[%s], lookup=[", wrel_scan(rj->lookup_scan)->table_qname,
               join_type_name(r));
    for (int k = 0; k < r->nkeys; k++)
        wsb_printf(out, "%s%s=%s", k ? ", " : "", rj->lookup_scan->out.names[rj->right_keys[k]],
                   jn[r->keys[k]]);
    wsb_putc(out, ']');
    WRel shown = *r;
    shown.nkeys = 0;
    wrel_join_mut(&shown)->cond = rj->shown_cond;
    if (wrel_join(&shown)->cond) {
        wsb_puts(out, ", joinCondition=[");
        join_condition(x, &shown, jn, d, out);
        wsb_putc(out, ']');
    }
    wsb_puts(out, ", ");
    select_list(x, r, out);
    wsb_putc(out, ')');
}

static void dg_window_join(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = wrel_as_windowed(dn->r);
    ExDialect d = dn->d;
    const char *const *jn = join_names(x, r);
    int ln = r->inputs[0]->out.n;
    const WRelWindow *rw = wrel_window(r);
    wsb_puts(out, "(leftWindow=[");
    window_spec(out, r, NULL, jn[rw->start_col], jn[rw->end_col], NULL);
    wsb_puts(out, "], rightWindow=[");
    /* the right window by the right input's own field names, as Flink prints it */
    const char *const *rn = in_names(x, r->inputs[1]);
    window_spec(out, r, NULL, rn ? rn[rw->rstart_col] : jn[ln + rw->rstart_col],
                rn ? rn[rw->rend_col] : jn[ln + rw->rend_col], NULL);
    wsb_printf(out, "], joinType=[%s], where=[", join_type_name(r));
    join_condition(x, r, jn, d, out);
    wsb_puts(out, "], ");
    select_list(x, r, out);
    wsb_putc(out, ')');
}

static void dg_dedup(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    const WRelRank *rr = wrel_rank(r);
    const char *const *inn = dn->inn;
    wsb_printf(out, "(keep=[%s], key=[", rr->keep_last ? "LastRow" : "FirstRow");
    key_names(out, inn, r->nkeys, r->keys);
    wsb_printf(out, "], order=[%s], outputInsertOnly=[%s])", rr->dedup_rowtime ? "ROWTIME" : "PROCTIME",
               r->changelog == WCM_INSERT ? "true" : "false");
}

static void dg_rank(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = wrel_as_rank(dn->r);
    const WRelRank *rr = wrel_rank(r);
    const WRel *in = dn->in;
    const char *const *inn = dn->inn;
    static const char *const STRAT[] = {"AppendFastStrategy", "UpdateFastStrategy", "RetractStrategy"};
    int s = wrank_strategy_index(rr->strategy);
    wsb_printf(out, "(strategy=[%s", STRAT[s]);
    if (s == WRANK_UPDATE_FAST && in && in->nunique > 0) {
        wsb_putc(out, '[');
        for (int i = 0; i < in->nunique; i++) wsb_printf(out, "%s%d", i ? ", " : "", in->unique[i]);
        wsb_putc(out, ']');
    }
    wsb_printf(out, "], rankType=[%s], rankRange=[rankStart=%lld, rankEnd=%lld], partitionBy=[",
               rank_type(rr->func), (long long)rr->start, (long long)rr->end);
    key_names(out, inn, r->nkeys, r->keys);
    wsb_puts(out, "], orderBy=[");
    for (int i = 0; i < r->nsort; i++) rank_sort_key(out, in, inn, r->sort_cols[i], r->sort_desc[i], i == 0);
    wsb_puts(out, "], ");
    select_list(x, r, out);
    wsb_putc(out, ')');
}

static void dg_sort_limit(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = wrel_as_rank(dn->r);
    const WRelRank *rr = wrel_rank(r);
    const WRel *in = dn->in;
    const char *const *inn = dn->inn;
    /* StreamPhysicalSortLimit / StreamPhysicalLimit */
    static const char *const STRAT[] = {"AppendFastStrategy", "UpdateFastStrategy", "RetractStrategy"};
    wsb_putc(out, '(');
    if (r->nsort) {
        wsb_puts(out, "orderBy=[");
        sort_list(out, r, inn);
        wsb_puts(out, "], ");
    }
    wsb_printf(out, "offset=[%lld], fetch=[", (long long)(rr->start - 1));
    if (rr->end == INT64_MAX) wsb_puts(out, "unlimited");
    else wsb_printf(out, "%lld", (long long)(rr->end - rr->start + 1));
    wsb_putc(out, ']');
    if (r->nsort) {
        int s = wrank_strategy_index(rr->strategy);
        wsb_printf(out, ", strategy=[%s", STRAT[s]);
        if (s == WRANK_UPDATE_FAST && in && in->nunique > 0) {
            wsb_putc(out, '[');
            for (int i = 0; i < in->nunique; i++) wsb_printf(out, "%s%d", i ? ", " : "", in->unique[i]);
            wsb_putc(out, ']');
        }
        wsb_putc(out, ']');
    }
    wsb_putc(out, ')');
}

static void dg_match(const DgNode *dn, WStrBuf *out)
{
    ex_match_digest(dn->x, dn->r, dn->inn, dn->d, out);
}

static void dg_temporal_sort(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    const char *const *inn = dn->inn;
    wsb_puts(out, "(orderBy=[");
    sort_list(out, r, inn);
    wsb_puts(out, "])");
}

static void dg_sort(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    const char *const *inn = dn->inn;
    /* BatchPhysicalSort / BatchPhysicalSortLimit / BatchPhysicalLimit */
    const WRelSort *so = wrel_sort(r);
    bool limited = so->fetch >= 0 || so->offset >= 0;
    wsb_putc(out, '(');
    if (r->nsort) {
        wsb_puts(out, "orderBy=[");
        sort_list(out, r, inn);
        wsb_putc(out, ']');
    }
    if (limited || !r->nsort) {
        wsb_printf(out, "%soffset=[%lld], fetch=[", r->nsort ? ", " : "",
                   (long long)(so->offset > 0 ? so->offset : 0));
        if (so->fetch < 0) wsb_puts(out, "unlimited");
        else wsb_printf(out, "%lld", (long long)so->fetch);
        wsb_printf(out, "], global=[%s]", so->local ? "false" : "true");
    }
    wsb_putc(out, ')');
}

static void dg_window_agg(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = wrel_as_windowed(dn->r);
    const WRelAgg *ag = wrel_agg(r);
    const char *const *inn = dn->inn;
    ExNode *node = dn->node;
    wsb_putc(out, '(');
    if (r->nkeys) {
        wsb_puts(out, "groupBy=[");
        key_names(out, inn, r->nkeys, r->keys);
        wsb_puts(out, "], ");
    }
    const WRelWindow *rw = wrel_window(r);
    if (rw->legacy) {
        legacy_window_digest(x, r, inn, out);
        return;
    }
    wsb_puts(out, "window=[");
    if (rw->attached) window_spec(out, r, NULL, inn[rw->start_col], inn[rw->end_col], NULL);
    else window_spec(out, r, inn[rw->time_col], NULL, NULL, inn);
    wsb_puts(out, "], select=[");
    int q = 0;
    for (int i = 0; i < r->nkeys; i++) wsb_printf(out, "%s%s", q++ ? ", " : "", inn[r->keys[i]]);
    for (int j = 0; j < ag->naggs; j++) {
        if (q++) wsb_puts(out, ", ");
        ex_agg_call(&ag->aggs[j], inn, ex_out_names(x, r)[r->nkeys + j], out, false);
    }
    if (rw->out_start >= 0) wsb_printf(out, "%sstart('w$) AS %s", q++ ? ", " : "", r->out.names[rw->out_start]);
    if (rw->out_end >= 0) wsb_printf(out, "%send('w$) AS %s", q++ ? ", " : "", r->out.names[rw->out_end]);
    if (rw->out_time >= 0 && node && node->wtime_used)
        wsb_printf(out, "%s%s('w$) AS %s", q++ ? ", " : "", rw->proctime ? "proctime" : "rowtime",
                   r->out.names[rw->out_time]);
    wsb_puts(out, "])");
}

static void dg_window_tvf(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = wrel_as_windowed(dn->r);
    const char *const *inn = dn->inn;
    wsb_puts(out, "(window=[");
    window_spec(out, r, inn[wrel_window(r)->time_col], NULL, NULL, inn);
    wsb_puts(out, "])");
}

static void dg_window_rank(const DgNode *dn, WStrBuf *out)
{
    const ExCtx *x = dn->x;
    const WRel *r = wrel_as_windowed(dn->r);
    const char *const *inn = dn->inn;
    const WRelWindow *rw = wrel_window(r);
    const WRelRank *rr = wrel_rank(r);
    wsb_puts(out, "(window=[");
    window_spec(out, r, NULL, inn[rw->start_col], inn[rw->end_col], NULL);
    if (rw->dedup) {
        wsb_printf(out, "], keep=[%s], partitionKeys=[", rr->keep_last ? "LastRow" : "FirstRow");
        key_names(out, inn, r->nkeys, r->keys);
        wsb_printf(out, "], orderKey=[%s], order=[%s])", r->nsort ? inn[r->sort_cols[0]] : "",
                   rw->proctime ? "PROCTIME" : "ROWTIME");
        return;
    }
    wsb_printf(out, "], rankType=[%s], rankRange=[rankStart=%lld, rankEnd=%lld], partitionBy=[",
               rank_type(rr->func), (long long)rr->start, (long long)rr->end);
    key_names(out, inn, r->nkeys, r->keys);
    wsb_puts(out, "], orderBy=[");
    sort_list(out, r, inn);
    wsb_puts(out, "], ");
    select_list(x, r, out);
    wsb_putc(out, ')');
}

static void dg_changelog_normalize(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    ExDialect d = dn->d;
    const char *const *inn = dn->inn;
    wsb_puts(out, "(key=[");
    key_names(out, inn, r->nkeys, r->keys);
    wsb_putc(out, ']');
    const WExpr *filter = wrel_normalize(r)->filter;
    if (filter) {
        wsb_puts(out, ", condition=[");
        ex_rex(out, filter, inn, d);
        wsb_putc(out, ']');
    }
    wsb_putc(out, ')');
}

static void dg_minibatch_assigner(const DgNode *dn, WStrBuf *out)
{
    const WRelMiniBatch *mb = wrel_minibatch(dn->r);
    wsb_printf(out, "(interval=[%lldms], mode=[%s])", (long long)mb->interval_ms, mb->rowtime ? "RowTime" : "ProcTime");
}

static void dg_two_phase(const DgNode *dn, WStrBuf *out)
{
    two_phase_digest(dn->x, wrel_as_two_phase(dn->r), dn->inn, out);
}

static void dg_expand(const DgNode *dn, WStrBuf *out)
{
    ex_setops_expand_digest(dn->x, dn->r, dn->inn, out);
}

static void dg_replicate_rows(const DgNode *dn, WStrBuf *out)
{
    ex_setops_correlate_digest(dn->x, dn->r, dn->inn, out);
}

static void dg_over_agg(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    ExDialect d = dn->d;
    const char *const *inn = dn->inn;
    if (wrel_over(r)->batch) {
        batch_over_digest(r, inn, d, out);
        return;
    }
    stream_over_digest(r, inn, out);
}

/* Operations of a kind with no attributes after its name (DropUpdateBefore) and of kinds that are
   no exec node of Flink's (OverRank: logical only; SinkMaterializer: folded into its sink's
   upsertMaterialize=[true]): explicit, so that the table check tells them from a forgotten kind. */
static void dg_name_only(const DgNode *dn, WStrBuf *out) { (void)dn; (void)out; }
#define DG_NOT_AN_EXEC_NODE dg_name_only
#define EX_NOT_AN_EXEC_NODE "stream-exec-unknown_1"

static const char *name_sort_limit(const WRel *r) { return r->nsort ? "SortLimit" : "Limit"; }
static const char *exec_type_sort_limit(const WRel *r)
{
    return r->nsort ? "stream-exec-sort-limit_1" : "stream-exec-limit_1";
}
static const char *name_window_agg(const WRel *r)
{
    return wrel_window(r)->legacy ? "GroupWindowAggregate" : "WindowAggregate";
}
static const char *exec_type_window_agg(const WRel *r)
{
    return wrel_window(r)->legacy ? "stream-exec-group-window-aggregate_1" : "stream-exec-window-aggregate_1";
}
static const char *name_window_rank(const WRel *r)
{
    return wrel_window(r)->dedup ? "WindowDeduplicate" : "WindowRank";
}
static const char *exec_type_window_rank(const WRel *r)
{
    return wrel_window(r)->dedup ? "stream-exec-window-deduplicate_1" : "stream-exec-window-rank_1";
}
static const char *exec_type_over_agg(const WRel *r)
{
    return wrel_over(r)->batch ? "batch-exec-over-aggregate_1" : "stream-exec-over-aggregate_1";
}
static bool sort_limited(const WRel *r) { return wrel_sort(r)->fetch >= 0 || wrel_sort(r)->offset >= 0; }
static const char *name_sort(const WRel *r) { return !r->nsort ? "Limit" : sort_limited(r) ? "SortLimit" : "Sort"; }
static const char *exec_type_sort(const WRel *r)
{
    return !r->nsort ? "batch-exec-limit_1" : sort_limited(r) ? "batch-exec-sort-limit_1" : "batch-exec-sort_1";
}

/* The digest operations of each node kind: Flink's node name, its compiled-plan type and its
   attributes. A kind added to WRelKind needs its row here (ex_digest_ops_check fails otherwise). */
typedef struct ExKindOps {
    const char *name;                               /* Calc, GroupAggregate, ... */
    const char *(*name_of)(const WRel *r);          /* ... for a kind with several names */
    const char *exec_type;                          /* stream-exec-calc_1, ... */
    const char *(*exec_type_of)(const WRel *r);     /* ... for a kind with several types */
    void (*digest)(const DgNode *dn, WStrBuf *out); /* (attrs) after the name */
} ExKindOps;

static const ExKindOps EX_KIND_OPS[WR__COUNT] = {
    [WR_SCAN] = {.name = "TableSourceScan", .exec_type = "stream-exec-table-source-scan_2", .digest = dg_scan},
    [WR_VALUES] = {.name = "Values", .exec_type = "stream-exec-values_1", .digest = dg_values},
    [WR_CALC] = {.name = "Calc", .exec_type = "stream-exec-calc_1", .digest = dg_calc},
    [WR_UNION] = {.name = "Union", .exec_type = "stream-exec-union_1", .digest = dg_union},
    [WR_WATERMARK] = {.name = "WatermarkAssigner", .exec_type = "stream-exec-watermark-assigner_1", .digest = dg_watermark},
    [WR_SINK] = {.name = "Sink", .exec_type = "stream-exec-sink_2", .digest = dg_sink},
    [WR_EXCHANGE] = {.name = "Exchange", .exec_type = "stream-exec-exchange_1", .digest = dg_exchange},
    [WR_GROUP_AGG] = {.name = "GroupAggregate", .exec_type = "stream-exec-group-aggregate_1", .digest = dg_group_agg},
    [WR_JOIN] = {.name = "Join", .exec_type = "stream-exec-join_1", .digest = dg_join},
    [WR_DEDUP] = {.name = "Deduplicate", .exec_type = "stream-exec-deduplicate_1", .digest = dg_dedup},
    [WR_RANK] = {.name = "Rank", .exec_type = "stream-exec-rank_1", .digest = dg_rank},
    [WR_SORT_LIMIT] = {.name_of = name_sort_limit, .exec_type_of = exec_type_sort_limit, .digest = dg_sort_limit},
    [WR_WINDOW_AGG] = {.name_of = name_window_agg, .exec_type_of = exec_type_window_agg, .digest = dg_window_agg},
    [WR_CHANGELOG_NORMALIZE] = {.name = "ChangelogNormalize", .exec_type = "stream-exec-changelog-normalize_1", .digest = dg_changelog_normalize},
    [WR_DROP_UPDATE_BEFORE] = {.name = "DropUpdateBefore", .exec_type = "stream-exec-drop-update-before_1", .digest = dg_name_only},
    [WR_SINK_MATERIALIZER] = {.name = "SinkMaterializer", .exec_type = EX_NOT_AN_EXEC_NODE, .digest = DG_NOT_AN_EXEC_NODE},
    [WR_OVER_RANK] = {.name = "OverRank", .exec_type = EX_NOT_AN_EXEC_NODE, .digest = DG_NOT_AN_EXEC_NODE},
    [WR_WINDOW_TVF] = {.name = "WindowTableFunction", .exec_type = "stream-exec-window-table-function_1", .digest = dg_window_tvf},
    [WR_WINDOW_RANK] = {.name_of = name_window_rank, .exec_type_of = exec_type_window_rank, .digest = dg_window_rank},
    [WR_WINDOW_JOIN] = {.name = "WindowJoin", .exec_type = "stream-exec-window-join_1", .digest = dg_window_join},
    [WR_INTERVAL_JOIN] = {.name = "IntervalJoin", .exec_type = "stream-exec-interval-join_1", .digest = dg_interval_join},
    [WR_TEMPORAL_JOIN] = {.name = "TemporalJoin", .exec_type = "stream-exec-temporal-join_1", .digest = dg_temporal_join},
    [WR_LOOKUP_JOIN] = {.name = "LookupJoin", .exec_type = "stream-exec-lookup-join_1", .digest = dg_lookup_join},
    [WR_OVER_AGG] = {.name = "OverAggregate", .exec_type_of = exec_type_over_agg, .digest = dg_over_agg},
    [WR_MINIBATCH_ASSIGNER] = {.name = "MiniBatchAssigner", .exec_type = "stream-exec-mini-batch-assigner_1", .digest = dg_minibatch_assigner},
    [WR_LOCAL_GROUP_AGG] = {.name = "LocalGroupAggregate", .exec_type = "stream-exec-local-group-aggregate_1", .digest = dg_two_phase},
    [WR_GLOBAL_GROUP_AGG] = {.name = "GlobalGroupAggregate", .exec_type = "stream-exec-global-group-aggregate_1", .digest = dg_two_phase},
    [WR_INCREMENTAL_GROUP_AGG] = {.name = "IncrementalGroupAggregate", .exec_type = "stream-exec-incremental-group-aggregate_1", .digest = dg_two_phase},
    [WR_SORT] = {.name_of = name_sort, .exec_type_of = exec_type_sort, .digest = dg_sort},
    [WR_TEMPORAL_SORT] = {.name = "TemporalSort", .exec_type = "stream-exec-temporal-sort_1", .digest = dg_temporal_sort},
    [WR_LOCAL_WINDOW_AGG] = {.name = "LocalWindowAggregate", .exec_type = "stream-exec-local-window-aggregate_1", .digest = dg_two_phase},
    [WR_GLOBAL_WINDOW_AGG] = {.name = "GlobalWindowAggregate", .exec_type = "stream-exec-global-window-aggregate_1", .digest = dg_two_phase},
    [WR_EXPAND] = {.name = "Expand", .exec_type = "stream-exec-expand_1", .digest = dg_expand},
    [WR_REPLICATE_ROWS] = {.name = "Correlate", .exec_type = "stream-exec-correlate_1", .digest = dg_replicate_rows},
    [WR_CORRELATE] = {.name = "Correlate", .exec_type = "stream-exec-correlate_1", .digest = dg_correlate},
    [WR_MATCH] = {.name = "Match", .exec_type = "stream-exec-match_1", .digest = dg_match},
};

static const ExKindOps *kind_ops(const WRel *r)
{
    assert((unsigned)r->kind < WR__COUNT);
    return &EX_KIND_OPS[r->kind];
}

const char *ex_rel_name(const WRel *r)
{
    const ExKindOps *o = kind_ops(r);
    return o->name ? o->name : o->name_of(r);
}

const char *ex_exec_type(const WRel *r)
{
    const ExKindOps *o = kind_ops(r);
    return o->exec_type ? o->exec_type : o->exec_type_of(r);
}

bool ex_digest_ops_check(WStrBuf *err)
{
    static const char *const W = "explain/digest.c";
    bool ok = true;
    for (int k = 0; k < WR__COUNT; k++) {
        /* exactly one of a fixed value and a function of the node */
        const ExKindOps *o = &EX_KIND_OPS[k];
        ok &= wrel_kind_op_check(!o->name != !o->name_of, k, W, "name", err);
        ok &= wrel_kind_op_check(!o->exec_type != !o->exec_type_of, k, W, "exec type", err);
        ok &= wrel_kind_op_check(o->digest != NULL, k, W, "digest", err);
    }
    return ok;
}

bool wexplain_check_kind_ops(WStrBuf *err)
{
    bool digest = ex_digest_ops_check(err);
    bool write = ex_compiled_plan_ops_check(err);
    bool read = ex_plan_reader_ops_check(err);
    bool mode = ex_plan_reader_mode_ops_check(err);
    bool cost = ex_cost_ops_check(err);
    bool ast = ex_ast_ops_check(err);
    return digest && write && read && mode && cost && ast;
}

/* A deduplication in Flink 2.3's physical plan: the ROW_NUMBER Top-1 it is (StreamPhysicalRank; the
   execution plan and the compiled plan have its Deduplicate), ordered by the time attribute,
   ascending for the first row, descending for the last */
static void dedup_as_rank(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    wsb_puts(out, "Rank(strategy=[AppendFastStrategy], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=1], partitionBy=[");
    key_names(out, dn->inn, r->nkeys, r->keys);
    wsb_puts(out, "], orderBy=[");
    rank_sort_key(out, dn->in, dn->inn, r->time_col, wrel_rank(r)->keep_last, true);
    wsb_puts(out, "], ");
    select_list(dn->x, r, out);
    wsb_putc(out, ')');
}

void ex_digest(const ExCtx *x, const WRel *r, ExDialect d, WStrBuf *out)
{
    const WRel *in = r->ninputs ? r->inputs[0] : NULL;
    DgNode dn = {.x = x, .r = r, .d = d, .in = in, .inn = in ? in_names(x, in) : NULL, .node = ex_node(x, r)};
    if (r->kind == WR_DEDUP && d != EXD_EXEC && in && r->time_col >= 0 && r->time_col < in->out.n) {
        dedup_as_rank(&dn, out);
        return;
    }
    wsb_puts(out, ex_rel_name(r));
    kind_ops(r)->digest(&dn, out);
}

void ex_options_hints(WStrBuf *out, const WRel *scan, bool ast)
{
    if (scan->kind != WR_SCAN || !scan->nhints) return;
    wsb_puts(out, ", hints=[[");
    for (int h = 0; h < scan->nhints; h++) {
        const AstHint *hint = &scan->hints[h];
        wsb_printf(out, "%s[OPTIONS %soptions:{", h ? ", " : "", ast ? "inheritPath:[] " : "");
        for (int k = 0; k < hint->nopts; k++)
            wsb_printf(out, "%s%s=%s", k ? ", " : "", hint->opts[k].key ? hint->opts[k].key : "",
                       hint->opts[k].value ? hint->opts[k].value : "");
        wsb_puts(out, "}]");
    }
    wsb_puts(out, "]]");
}
