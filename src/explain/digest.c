/*
 * digest.c — one exec node as Flink prints it in the optimized physical plan and the execution
 * plan: its name (Calc, GroupAggregate, Exchange, ...), its attributes in Flink's order
 * (select=[...], where=[...], groupBy=[...], distribution=[hash[...]], ...), and the
 * stream-exec-*_1 type names of compiled plans. Each from the node kind's operations (its file in
 * src/kinds/, reached through wkinds_ex: explain_kinds.h); the pieces several kinds print are
 * here. See explain_internal.h.
 */
#include "explain_internal.h"
#include "explain_kinds.h"
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

const char *const *dg_in_names(const ExCtx *x, const WRel *in)
{
    WArena *a = x->p->arena;
    const char **n = WA_ARRAY(a, const char *, in->out.n ? in->out.n : 1);
    for (int i = 0; i < in->out.n; i++) n[i] = ex_in_name(x, in, i);
    return n;
}

void ex_partition_order_by(WStrBuf *out, const WRel *r, const char *const *inn)
{
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
}

void dg_key_names(WStrBuf *out, const char *const *names, int n, const int *keys)
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

/* Flink's WindowSpec toSummaryString; inn (NULL: none) names the input fields a session window's
   partition keys index (", partition keys=[k1, k2]" when it has any). */
void dg_window_spec(WStrBuf *out, const WRel *r, const char *time_name, const char *ws, const char *we,
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
            dg_key_names(out, inn, rw->npartition, rw->partition);
            wsb_putc(out, ']');
        }
        break;
    }
    if (rw->offset) { wduration_format(rw->offset, a, sizeof a); wsb_printf(out, ", offset=[%s]", a); }
    wsb_putc(out, ')');
}

const char *dg_join_type_name(const WRel *r)
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
const char *const *dg_join_names(const ExCtx *x, const WRel *r)
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

void dg_join_condition(const ExCtx *x, const WRel *r, const char *const *names, ExDialect d, WStrBuf *out)
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
        if (rj->key_swapped && rj->key_swapped[k]) { const char *s = a; a = b; b = s; }
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

void dg_ttl_hint_text(const WStateTtlHint *h, bool join, WStrBuf *out)
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

void dg_select_list(const ExCtx *x, const WRel *r, WStrBuf *out)
{
    const char *const *n = ex_out_names(x, r);
    wsb_puts(out, "select=[");
    for (int i = 0; i < r->out.n; i++) wsb_printf(out, "%s%s", i ? ", " : "", n[i]);
    wsb_putc(out, ']');
}

void dg_sort_list(WStrBuf *out, const WRel *r, const char *const *names)
{
    for (int i = 0; i < r->nsort; i++)
        wsb_printf(out, "%s%s %s", i ? ", " : "", names[r->sort_cols[i]], r->sort_desc[i] ? "DESC" : "ASC");
}

/* One sort key of a Rank as Flink 2.3 prints it: a rowtime attribute with a ROWTIME prefix
   (`ROWTIME ts DESC`, measured), a processing-time one (materialised below the rank) plain. */
void dg_rank_sort_key(WStrBuf *out, const WRel *in, const char *const *names, int col, bool desc, bool first)
{
    const WType *t = in && col >= 0 && col < in->out.n ? in->out.types[col] : NULL;
    wsb_printf(out, "%s%s%s %s", first ? "" : ", ", t && t->time_attr == WTA_ROWTIME ? "ROWTIME " : "",
               names[col], desc ? "DESC" : "ASC");
}

void dg_partial_final_type(WStrBuf *out, const WRel *r)
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
        dg_key_names(out, inn, r->nkeys, r->keys);
        wsb_puts(out, "], finalAggGrouping=[");
        dg_key_names(out, inn, ag->nfinal_keys, ag->final_keys);
        wsb_puts(out, "], ");
    } else {
        if (r->nkeys) {
            wsb_puts(out, "groupBy=[");
            dg_key_names(out, inn, r->nkeys, r->keys);
            wsb_puts(out, "], ");
        }
        if (window) {
            wsb_puts(out, "window=[");
            if (r->kind == WR_GLOBAL_WINDOW_AGG) dg_window_spec(out, r, NULL, NULL, inn[r->inputs[0]->out.n - 1], NULL);
            else if (rw->attached) dg_window_spec(out, r, NULL, inn[rw->start_col], inn[rw->end_col], NULL);
            else dg_window_spec(out, r, inn[rw->time_col], NULL, NULL, inn);
            wsb_puts(out, "], ");
        } else {
            dg_partial_final_type(out, r);
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

const char *dg_rank_type(WRankFunc f)
{
    static const char *const NAME[WRANK_NFUNCS] = {"ROW_NUMBER", "RANK", "DENSE_RANK"};
    return NAME[wrank_func_index(f)];
}

void dg_two_phase(const DgNode *dn, WStrBuf *out)
{
    two_phase_digest(dn->x, wrel_as_two_phase(dn->r), dn->inn, out);
}

/* Operations of a kind with no attributes after its name (DropUpdateBefore) and of kinds that are
   no exec node of Flink's (OverRank: logical only; SinkMaterializer: folded into its sink's
   upsertMaterialize=[true]): explicit, so that the table check tells them from a forgotten kind. */
void dg_name_only(const DgNode *dn, WStrBuf *out) { (void)dn; (void)out; }

/* The digest operations of a node's kind: Flink's node name, its compiled-plan type and its
   attributes. */
static const ExKindOps *kind_ops(const WRel *r)
{
    assert((unsigned)r->kind < WR__COUNT);
    return wkinds_ex[r->kind];
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

/* A deduplication in Flink 2.3's physical plan: the ROW_NUMBER Top-1 it is (StreamPhysicalRank; the
   execution plan and the compiled plan have its Deduplicate), ordered by the time attribute,
   ascending for the first row, descending for the last */
static void dedup_as_rank(const DgNode *dn, WStrBuf *out)
{
    const WRel *r = dn->r;
    wsb_puts(out, "Rank(strategy=[AppendFastStrategy], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=1], partitionBy=[");
    dg_key_names(out, dn->inn, r->nkeys, r->keys);
    wsb_puts(out, "], orderBy=[");
    dg_rank_sort_key(out, dn->in, dn->inn, r->time_col, wrel_rank(r)->keep_last, true);
    wsb_puts(out, "], ");
    dg_select_list(dn->x, r, out);
    wsb_putc(out, ')');
}

void ex_digest(const ExCtx *x, const WRel *r, ExDialect d, WStrBuf *out)
{
    const WRel *in = r->ninputs ? r->inputs[0] : NULL;
    DgNode dn = {.x = x, .r = r, .d = d, .in = in, .inn = in ? dg_in_names(x, in) : NULL, .node = ex_node(x, r)};
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
