/*
 * logical.c — the Abstract Syntax Tree section: the bound, unoptimised plan printed as Calcite's
 * logical operators (LogicalSink, LogicalProject, LogicalFilter, LogicalAggregate, LogicalJoin,
 * LogicalUnion, LogicalValues, LogicalWatermarkAssigner, LogicalTableScan), fields referred to by
 * position ($0), with the STATE_TTL hints of joins and aggregates as Calcite prints them. The
 * line of each node kind is its row of AST_KIND_OPS (ex_ast_ops_check: no kind without one).
 * See explain_internal.h.
 */
#include "explain_internal.h"
#include "../common/duration.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void prefix(WStrBuf *out, const bool *last, int depth)
{
    for (int i = 1; i < depth; i++) wsb_puts(out, last[i] ? "   " : ":  ");
    if (depth > 0) wsb_puts(out, last[depth] ? "+- " : ":- ");
}

static bool identity_exprs(const WRel *r)
{
    const WRelCalc *rc = wrel_calc(r);
    const WRel *in = r->inputs[0];
    if (rc->nexprs != in->out.n) return false;
    for (int i = 0; i < rc->nexprs; i++)
        if (rc->exprs[i]->kind != WX_COLUMN || rc->exprs[i]->col != i) return false;
    return true;
}

static const char *agg_name(const WAggCall *c)
{
    switch (c->kind) {
    case WAGG_COUNT_STAR: case WAGG_COUNT: return "COUNT";
    case WAGG_SUM: return "SUM";
    case WAGG_SUM0: return "$SUM0";
    case WAGG_MIN: return "MIN";
    case WAGG_MAX: return "MAX";
    case WAGG_AVG: return "AVG";
    default: return c->name ? c->name : "AGG";
    }
}

/* STATE_TTL hints as Calcite prints them on a logical node: options sorted by key. */
static void ttl_hints(const WRel *r, const char *path, WStrBuf *out)
{
    bool any = false;
    for (int i = 0; i < r->nhints; i++) {
        const AstHint *h = &r->hints[i];
        if (strcasecmp(h->name, "STATE_TTL") && strcasecmp(h->name, "JOIN_STATE_TTL")) continue;
        if (!h->kv || !h->nopts) continue;
        if (!any) wsb_puts(out, ", stateTtlHints=[[");
        any = true;
        wsb_puts(out, "[");
        for (const char *c = h->name; *c; c++) wsb_putc(out, (*c >= 'a' && *c <= 'z') ? (char)(*c - 32) : *c);
        wsb_printf(out, " inheritPath:[%s] options:{", *path ? path : "0");
        int idx[64];
        int n = h->nopts < 64 ? h->nopts : 64;
        for (int k = 0; k < n; k++) idx[k] = k;
        for (int a = 1; a < n; a++)
            for (int b = a; b > 0 && strcmp(h->opts[idx[b - 1]].key, h->opts[idx[b]].key) > 0; b--) {
                int t = idx[b];
                idx[b] = idx[b - 1];
                idx[b - 1] = t;
            }
        bool first = true;
        for (int k = 0; k < n; k++) {
            /* a repeated key shows its last value once */
            bool later = false;
            for (int m = 0; m < n; m++)
                if (m != idx[k] && m > idx[k] && !strcmp(h->opts[m].key, h->opts[idx[k]].key)) later = true;
            if (later) continue;
            wsb_printf(out, "%s%s=%s", first ? "" : ", ", h->opts[idx[k]].key, h->opts[idx[k]].value);
            first = false;
        }
        wsb_puts(out, "}]");
    }
    if (any) wsb_puts(out, "]]");
}

static void node(WPlanCtx *p, const WRel *r, WStrBuf *out, bool *last, int depth, const char *path,
                 const char *const *rename);

/* A field type as Calcite's RecordType lists it: no nullability, time attributes marked
   (TIMESTAMP(3) *ROWTIME*, TIMESTAMP_LTZ(3) *PROCTIME*). */
static void record_field_type(WStrBuf *out, const WType *t)
{
    if (wtype_is_timestamp(t) && t->time_attr != WTA_NONE) {
        wsb_printf(out, "%s(%d) %s", t->id == WT_TIMESTAMP_LTZ ? "TIMESTAMP_LTZ" : "TIMESTAMP", t->precision,
                   t->time_attr == WTA_ROWTIME ? "*ROWTIME*" : "*PROCTIME*");
        return;
    }
    ex_calcite_type_name(out, t);
}

static void children(WPlanCtx *p, const WRel *r, WStrBuf *out, bool *last, int depth, const char *path)
{
    if (depth >= 255) return;
    for (int i = 0; i < r->ninputs; i++) {
        last[depth + 1] = i == r->ninputs - 1;
        char *cp = wa_sprintf(p->arena, "%s%s%d", path, *path ? ", " : "", i);
        node(p, r->inputs[i], out, last, depth + 1, cp, NULL);
    }
}

static void cols_used(const WExpr *e, bool *used, int n)
{
    if (e->kind == WX_COLUMN && e->col >= 0 && e->col < n) used[e->col] = true;
    for (int i = 0; i < e->nargs; i++) cols_used(e->args[i], used, n);
}

/* UNNEST as Calcite converts it: LogicalCorrelate over the left input and
   [LogicalProject(aliases)] / Uncollect / LogicalProject($cor0.x) / LogicalValues({ 0 }); a
   standalone UNNEST is the Uncollect part alone. */
static void correlate_node(WPlanCtx *p, const WRel *r, WStrBuf *out, bool *last, int depth, const char *path)
{
    const WRelCorrelate *rc = wrel_correlate(r);
    const WRel *in = r->inputs[0];
    bool alone = rc->cor_id < 0;
    int d = depth;
    if (!alone && depth < 250) {
        prefix(out, last, depth);
        wsb_printf(out, "LogicalCorrelate(correlation=[$cor%d], joinType=[%s], requiredColumns=[{", rc->cor_id,
                   rc->join_type == AJ_LEFT ? "left" : "inner");
        bool *used = WA_ARRAY(p->arena, bool, in->out.n ? in->out.n : 1);
        cols_used(rc->collection, used, in->out.n);
        bool first = true;
        for (int i = 0; i < in->out.n; i++)
            if (used[i]) { wsb_printf(out, "%s%d", first ? "" : ", ", i); first = false; }
        wsb_puts(out, "}])\n");
        last[depth + 1] = false;
        node(p, in, out, last, depth + 1, wa_sprintf(p->arena, "%s%s0", path, *path ? ", " : ""), NULL);
        d = depth + 1;
        last[d] = true;
    }
    int nl = rc->nleft_out;
    int nf = r->out.n - nl;
    if (r->nalias) {
        prefix(out, last, d);
        wsb_puts(out, "LogicalProject(");
        for (int i = 0; i < nf; i++) wsb_printf(out, "%s%s=[$%d]", i ? ", " : "", r->out.names[nl + i], i);
        wsb_puts(out, ")\n");
        d++;
        last[d] = true;
    }
    if (rc->cond) {
        prefix(out, last, d);
        wsb_puts(out, "LogicalFilter(condition=[");
        ex_rex(out, rc->cond, NULL, EXD_AST);
        wsb_puts(out, "])\n");
        d++;
        last[d] = true;
    }
    prefix(out, last, d);
    wsb_puts(out, rc->ordinality ? "Uncollect(withOrdinality=[true])\n" : "Uncollect\n");
    d++;
    last[d] = true;
    prefix(out, last, d);
    const WExpr *e = rc->collection;
    const char **cn = WA_ARRAY(p->arena, const char *, in->out.n ? in->out.n : 1);
    for (int i = 0; i < in->out.n; i++) cn[i] = wa_sprintf(p->arena, "$cor%d.%s", rc->cor_id, in->out.names[i]);
    wsb_printf(out, "LogicalProject(%s=[", e->kind == WX_COLUMN ? in->out.names[e->col] : "EXPR$0");
    ex_rex(out, e, cn, EXD_REL);
    wsb_puts(out, "])\n");
    d++;
    last[d] = true;
    prefix(out, last, d);
    wsb_puts(out, "LogicalValues(tuples=[[{ 0 }]])\n");
}

/* A lookup join as Calcite converts FOR SYSTEM_TIME AS OF: LogicalCorrelate over the probe side
   and LogicalFilter(condition, probe columns as $cor0.x) / LogicalSnapshot / the dim table. */
static void lookup_node(WPlanCtx *p, const WRel *r, WStrBuf *out, bool *last, int depth, const char *path)
{
    const WRelJoin *rj = wrel_join(r);
    const WRel *l = r->inputs[0], *dim = r->inputs[1];
    int ln = l->out.n, n = ln + dim->out.n;
    bool *used = WA_ARRAY(p->arena, bool, ln ? ln : 1);
    if (rj->cond) cols_used(rj->cond, used, ln);
    if (rj->left_time_col >= 0 && rj->left_time_col < ln) used[rj->left_time_col] = true;
    wsb_printf(out, "LogicalCorrelate(correlation=[$cor0], joinType=[%s], requiredColumns=[{",
               rj->type == AJ_LEFT ? "left" : "inner");
    bool first = true;
    for (int i = 0; i < ln; i++)
        if (used[i]) { wsb_printf(out, "%s%d", first ? "" : ", ", i); first = false; }
    wsb_puts(out, "}])\n");
    if (depth >= 250) return;
    last[depth + 1] = false;
    node(p, l, out, last, depth + 1, wa_sprintf(p->arena, "%s%s0", path, *path ? ", " : ""), NULL);
    const char **names = WA_ARRAY(p->arena, const char *, n ? n : 1);
    for (int i = 0; i < n; i++)
        names[i] = i < ln ? wa_sprintf(p->arena, "$cor0.%s", l->out.names[i]) : wa_sprintf(p->arena, "$%d", i - ln);
    int d = depth + 1;
    last[d] = true;
    if (rj->cond) {
        prefix(out, last, d);
        wsb_puts(out, "LogicalFilter(condition=[");
        ex_rex(out, rj->cond, names, EXD_AST);
        wsb_puts(out, "])\n");
        d++;
        last[d] = true;
    }
    prefix(out, last, d);
    wsb_printf(out, "LogicalSnapshot(period=[$cor0.%s])\n",
               rj->left_time_col >= 0 && rj->left_time_col < ln ? l->out.names[rj->left_time_col] : "");
    last[d + 1] = true;
    node(p, dim, out, last, d + 1, wa_sprintf(p->arena, "%s%s1", path, *path ? ", " : ""), NULL);
}

/* ---- the Abstract Syntax Tree line of each node kind (AST_KIND_OPS) ---- */

/* One node of the tree being printed. depth and path may change for the node's inputs (a
   LogicalProject over a LogicalFilter puts its input one level deeper). */
typedef struct AstNode {
    WPlanCtx *p;
    const WRel *r;
    WStrBuf *out;
    bool *last;
    int depth;
    const char *path;               /* the hint inherit path of the node's inputs */
    const char *const *rename;      /* names of r's columns from the select items, or NULL */
} AstNode;

/* ast_X(a) prints node a->r's line(s) (after the tree prefix); true: node() prints its inputs
   below, false: it printed them itself. */
static bool ast_sink(AstNode *a)
{
    const WRel *r = a->r;
    WStrBuf *out = a->out;
    wsb_printf(out, "LogicalSink(table=[%s], ", wrel_sink(r)->qname ? wrel_sink(r)->qname : "collect");
    wplan_target_columns_text(out, r);
    wsb_puts(out, "fields=[");
    /* Flink 2.x lists the query's field names (the sink writes by position) */
    ex_names_list(out, r->ninputs ? &r->inputs[0]->out : &r->out);
    wsb_puts(out, "])\n");
    return true;
}

static bool ast_calc(AstNode *a)
{
    const WRel *r = a->r;
    const WRelCalc *rc = wrel_calc(r);
    WStrBuf *out = a->out;
    bool *last = a->last;
    int depth = a->depth;
    const char *path = a->path;
    bool filter_only = rc->cond && identity_exprs(r);
    if (!filter_only) {
        wsb_puts(out, "LogicalProject(");
        for (int i = 0; i < rc->nexprs; i++) {
            if (i) wsb_puts(out, ", ");
            wsb_printf(out, "%s=[", r->out.names[i]);
            ex_rex(out, rc->exprs[i], NULL, EXD_AST);
            wsb_putc(out, ']');
        }
        wsb_puts(out, ")\n");
        if (rc->cond) {
            depth++;
            last[depth] = true;
            prefix(out, last, depth);
        }
    }
    if (rc->cond) {
        wsb_puts(out, "LogicalFilter(condition=[");
        ex_rex(out, rc->cond, NULL, EXD_AST);
        wsb_puts(out, "])\n");
    }
    /* hint inherit paths count from the query block's projection */
    a->path = filter_only ? path : rc->cond ? "0" : "";
    a->depth = depth;
    return true;
}

static bool ast_scan(AstNode *a)
{
    const WRel *r = a->r;
    const WRelScan *sc = wrel_scan(r);
    WStrBuf *out = a->out;
    wsb_puts(out, "LogicalTableScan(table=[[");
    const char *q = sc->table_qname ? sc->table_qname : sc->table->name;
    for (const char *s = q; *s; s++) {
        if (*s == '.') wsb_puts(out, ", ");
        else wsb_putc(out, *s);
    }
    if (sc->nmeta) {
        wsb_puts(out, ", metadata=[");
        for (int m = 0; m < sc->nmeta; m++) wsb_printf(out, "%s%s", m ? ", " : "", sc->meta_keys[m]);
        wsb_putc(out, ']');
    }
    wsb_puts(out, "]]");
    ex_options_hints(out, r, true);
    wsb_puts(out, ")\n");
    return true;
}

static bool ast_watermark(AstNode *a)
{
    const WRel *r = a->r;
    const WRelWatermark *ww = wrel_watermark(r);
    WStrBuf *out = a->out;
    wsb_printf(out, "LogicalWatermarkAssigner(rowtime=[%s], watermark=[", r->inputs[0]->out.names[ww->rowtime_col]);
    if (ww->expr) ex_rex(out, ww->expr, NULL, EXD_AST);
    wsb_puts(out, "])\n");
    return true;
}

static bool ast_group_agg(AstNode *a)
{
    WPlanCtx *p = a->p;
    const WRel *r = a->r;
    const WRelAgg *ag = wrel_agg(r);
    WStrBuf *out = a->out;
    bool *last = a->last;
    int depth = a->depth;
    const char *path = a->path;
    const char *const *rename = a->rename;
    const WRel *ex = r->inputs[0]->kind == WR_EXPAND ? r->inputs[0] : NULL;
    int nk = ex ? r->nkeys - 1 : r->nkeys;     /* grouping sets: $e is the last key */
    wsb_puts(out, "LogicalAggregate(group=[{");
    for (int i = 0; i < nk; i++) wsb_printf(out, "%s%d", i ? ", " : "", r->keys[i]);
    wsb_puts(out, "}]");
    if (ex) {
        wsb_puts(out, ", groups=[[");
        for (int k = 0; k < wrel_expand(ex)->n; k++) {
            wsb_puts(out, k ? ", {" : "{");
            bool first = true;
            for (int i = 0; i < nk; i++) {
                if (wrel_expand(ex)->src[(size_t)k * (size_t)ex->out.n + (size_t)r->keys[i]] < 0) continue;
                wsb_printf(out, "%s%d", first ? "" : ", ", r->keys[i]);
                first = false;
            }
            wsb_putc(out, '}');
        }
        wsb_puts(out, "]]");
    }
    for (int j = 0; j < ag->naggs; j++) {
        const WAggCall *c = &ag->aggs[j];
        const char *nm = rename ? rename[r->nkeys + j] : c->out_name ? c->out_name : "EXPR$0";
        wsb_printf(out, ", %s=[%s(", nm, agg_name(c));
        if (c->distinct) wsb_puts(out, "DISTINCT ");
        for (int k = 0; k < c->nargs; k++) wsb_printf(out, "%s$%d", k ? ", " : "", c->args[k]);
        wsb_putc(out, ')');
        if (c->filter_col >= 0) wsb_printf(out, " FILTER $%d", c->filter_col);
        wsb_putc(out, ']');
    }
    ttl_hints(r, path, out);
    wsb_puts(out, ")\n");
    if (ex) {
        /* the Expand is the planner's: the AST shows the aggregate over its input */
        last[depth + 1] = true;
        if (depth < 255) node(p, ex->inputs[0], out, last, depth + 1, path, NULL);
        return false;
    }
    return true;
}

static bool ast_join(AstNode *a)
{
    WPlanCtx *p = a->p;
    const WRel *r = a->r;
    WStrBuf *out = a->out;
    bool *last = a->last;
    int depth = a->depth;
    const char *path = a->path;
    if (wrel_join(r)->lookup) {
        lookup_node(p, r, out, last, depth, path);
        return false;
    }
    wsb_puts(out, "LogicalJoin(condition=[");
    if (wrel_join(r)->cond) ex_rex(out, wrel_join(r)->cond, NULL, EXD_AST);
    else wsb_puts(out, "true");
    const char *jt = wrel_join(r)->semi ? "semi" : wrel_join(r)->anti ? "anti"
                   : wrel_join(r)->type == AJ_LEFT ? "left" : wrel_join(r)->type == AJ_RIGHT ? "right"
                   : wrel_join(r)->type == AJ_FULL ? "full" : "inner";
    wsb_printf(out, "], joinType=[%s]", jt);
    ttl_hints(r, path, out);
    wsb_puts(out, ")\n");
    return true;
}

static bool ast_union(AstNode *a)
{
    WStrBuf *out = a->out;
    wsb_puts(out, "LogicalUnion(all=[true])\n");
    return true;
}

static bool ast_values(AstNode *a)
{
    const WRel *r = a->r;
    const WRelValues *rv = wrel_values(r);
    WStrBuf *out = a->out;
    wsb_puts(out, "LogicalValues(tuples=[[");
    for (int i = 0; i < rv->nrows; i++) {
        wsb_printf(out, "%s{ ", i ? ", " : "");
        for (int k = 0; k < r->out.n; k++) {
            WExpr lit = {.kind = WX_LITERAL, .type = r->out.types[k], .lit = rv->rows[i][k],
                         .is_null = rv->row_nulls[i][k] != 0};
            if (k) wsb_puts(out, ", ");
            ex_tuple_literal(out, &lit, EXD_AST);
        }
        wsb_puts(out, " }");
    }
    wsb_puts(out, "]])\n");
    return true;
}

static bool ast_over_rank(AstNode *a)
{
    const WRel *r = a->r;
    WStrBuf *out = a->out;
    const char *const *rename = a->rename;
    static const char *const F[] = {"ROW_NUMBER", "RANK", "DENSE_RANK"};
    wsb_puts(out, "LogicalProject(");
    for (int i = 0; i < r->out.n; i++) {
        if (i) wsb_puts(out, ", ");
        const char *nm = rename ? rename[i] : r->out.names[i];
        if (i == wrel_rank(r)->col) {
            wsb_printf(out, "%s=[%s() OVER (PARTITION BY ", nm,
                       F[wrank_func_index(wrel_rank(r)->func)]);
            for (int k = 0; k < r->nkeys; k++) wsb_printf(out, "%s$%d", k ? ", " : "", r->keys[k]);
            wsb_puts(out, " ORDER BY ");
            for (int k = 0; k < r->nsort; k++)
                wsb_printf(out, "%s$%d%s NULLS %s", k ? ", " : "", r->sort_cols[k], r->sort_desc[k] ? " DESC" : "",
                           r->sort_nulls_first[k] ? "FIRST" : "LAST");
            wsb_puts(out, ")]");
        } else {
            wsb_printf(out, "%s=[$%d]", nm, i);
        }
    }
    wsb_puts(out, ")\n");
    return true;
}

static bool ast_sort(AstNode *a)
{
    const WRel *r = a->r;
    WStrBuf *out = a->out;
    /* Calcite's Sort.explainTerms: sortN, dirN (RelFieldCollation.shortString: the null
       direction only when it is not the direction's default, ASC LAST / DESC FIRST), offset, fetch */
    wsb_puts(out, "LogicalSort(");
    bool first = true;
    for (int k = 0; k < r->nsort; k++, first = false) wsb_printf(out, "%ssort%d=[$%d]", first ? "" : ", ", k, r->sort_cols[k]);
    for (int k = 0; k < r->nsort; k++, first = false) {
        const char *nd = r->sort_desc[k] ? (r->sort_nulls_first[k] ? "" : "-nulls-last")
                                         : (r->sort_nulls_first[k] ? "-nulls-first" : "");
        wsb_printf(out, "%sdir%d=[%s%s]", first ? "" : ", ", k, r->sort_desc[k] ? "DESC" : "ASC", nd);
    }
    const WRelSort *so = wrel_sort(r);
    if (so->offset >= 0) { wsb_printf(out, "%soffset=[%lld]", first ? "" : ", ", (long long)so->offset); first = false; }
    if (so->fetch >= 0) wsb_printf(out, "%sfetch=[%lld]", first ? "" : ", ", (long long)so->fetch);
    wsb_puts(out, ")\n");
    return true;
}

static bool ast_window_tvf(AstNode *a)
{
    WPlanCtx *p = a->p;
    const WRel *r = a->r;
    const WRelWindow *rw = wrel_window(r);
    WStrBuf *out = a->out;
    bool *last = a->last;
    int depth = a->depth;
    const char *path = a->path;
    /* Calcite's call: TUMBLE(TABLE(#0), DESCRIPTOR(_UTF-16LE'ts'), 10000:INTERVAL SECOND), the
       intervals in the order of the function's parameters (HOP/CUMULATE: slide or step, then
       size; the offset last) */
    static const char *const K[WWIN_NKINDS] = {"TUMBLE", "HOP", "CUMULATE", "SESSION"};
    wsb_printf(out, "LogicalTableFunctionScan(invocation=[%s(TABLE(#0)", K[rw->kind]);
    if (rw->npartition) {
        wsb_puts(out, " PARTITION BY(");
        for (int k = 0; k < rw->npartition; k++) wsb_printf(out, "%s$%d", k ? ", " : "", rw->partition[k]);
        wsb_putc(out, ')');
    }
    wsb_printf(out, ", DESCRIPTOR(_UTF-16LE'%s')", r->inputs[0]->out.names[rw->time_col]);
    const WExpr *order[3] = {rw->args[1], rw->args[0], rw->args[2]};
    for (int k = 0; k < 3; k++) {
        if (!order[k]) continue;
        wsb_puts(out, ", ");
        ex_literal(out, order[k], EXD_AST);
    }
    wsb_puts(out, ")], rowType=[RecordType(");
    for (int i = 0; i < r->out.n; i++) {
        if (i) wsb_puts(out, ", ");
        record_field_type(out, r->out.types[i]);
        wsb_printf(out, " %s", r->out.names[i]);
    }
    wsb_puts(out, ")])\n");
    if (rw->table_input && depth < 254) {
        /* TABLE t reads the table's columns through a projection */
        const WRel *in = r->inputs[0];
        last[depth + 1] = true;
        prefix(out, last, depth + 1);
        wsb_puts(out, "LogicalProject(");
        for (int i = 0; i < in->out.n; i++) wsb_printf(out, "%s%s=[$%d]", i ? ", " : "", in->out.names[i], i);
        wsb_puts(out, ")\n");
        children(p, r, out, last, depth + 1, path);
        return false;
    }
    return true;
}

static bool ast_match(AstNode *a)
{
    const WRel *r = a->r;
    WStrBuf *out = a->out;
    ex_match_ast(r, out);
    return true;
}

/* The other kinds print as Logical + their exec node's name (ex_rel_name) */
static bool ast_by_name(AstNode *a)
{
    wsb_printf(a->out, "Logical%s\n", ex_rel_name(a->r));
    return true;
}
#define AST_NAMED_AS_ITS_EXEC_NODE ast_by_name

/* The Abstract Syntax Tree line of each node kind (checked by ex_ast_ops_check, at start-up of
   the test build and in the unit tests). A Correlate prints through correlate_node (node()). */
typedef struct AstKindOps {
    bool (*print)(AstNode *a);
} AstKindOps;

static const AstKindOps AST_KIND_OPS[WR__COUNT] = {
    [WR_SCAN] = {.print = ast_scan},
    [WR_VALUES] = {.print = ast_values},
    [WR_CALC] = {.print = ast_calc},
    [WR_UNION] = {.print = ast_union},
    [WR_WATERMARK] = {.print = ast_watermark},
    [WR_SINK] = {.print = ast_sink},
    [WR_EXCHANGE] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_GROUP_AGG] = {.print = ast_group_agg},
    [WR_JOIN] = {.print = ast_join},
    [WR_DEDUP] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_RANK] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_SORT_LIMIT] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_WINDOW_AGG] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_CHANGELOG_NORMALIZE] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_DROP_UPDATE_BEFORE] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_SINK_MATERIALIZER] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_OVER_RANK] = {.print = ast_over_rank},
    [WR_WINDOW_TVF] = {.print = ast_window_tvf},
    [WR_WINDOW_RANK] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_WINDOW_JOIN] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_INTERVAL_JOIN] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_TEMPORAL_JOIN] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_LOOKUP_JOIN] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_OVER_AGG] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_MINIBATCH_ASSIGNER] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_LOCAL_GROUP_AGG] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_GLOBAL_GROUP_AGG] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_INCREMENTAL_GROUP_AGG] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_SORT] = {.print = ast_sort},
    [WR_TEMPORAL_SORT] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_LOCAL_WINDOW_AGG] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_GLOBAL_WINDOW_AGG] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_EXPAND] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_REPLICATE_ROWS] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_CORRELATE] = {.print = AST_NAMED_AS_ITS_EXEC_NODE},
    [WR_MATCH] = {.print = ast_match},
};

bool ex_ast_ops_check(WStrBuf *err)
{
    bool ok = true;
    for (int k = 0; k < WR__COUNT; k++)
        ok &= wrel_kind_op_check(AST_KIND_OPS[k].print != NULL, k, "explain/logical.c", "AST", err);
    return ok;
}


static void node(WPlanCtx *p, const WRel *r, WStrBuf *out, bool *last, int depth, const char *path,
                 const char *const *rename)
{
    /* SELECT k, AGG(x) ... GROUP BY k: Calcite names the aggregate calls after the select items
       and keeps no projection on top */
    if (r->kind == WR_CALC && !wrel_calc(r)->cond && (r->inputs[0]->kind == WR_GROUP_AGG || r->inputs[0]->kind == WR_OVER_RANK) &&
        identity_exprs(r)) {
        node(p, r->inputs[0], out, last, depth, path, (const char *const *)r->out.names);
        return;
    }
    if (r->ast_hidden) {
        node(p, r->inputs[0], out, last, depth, path, rename);
        return;
    }
    if (r->kind == WR_CORRELATE) {
        correlate_node(p, r, out, last, depth, path);
        return;
    }
    /* a projection over an aggregate that drops or reorders columns: the aggregate calls are
       still named after the select items that read them */
    const char **agg_rename = NULL;
    if (r->kind == WR_CALC && r->inputs[0]->kind == WR_GROUP_AGG && wrel_agg(r->inputs[0])->naggs) {
        const WRel *g = r->inputs[0];
        const WRelAgg *ga = wrel_agg(g);
        agg_rename = WA_ARRAY(p->arena, const char *, g->out.n);
        for (int i = 0; i < g->out.n; i++) agg_rename[i] = g->out.names[i];
        for (int i = 0; i < ga->naggs; i++)
            if (ga->aggs[i].out_name)
                agg_rename[g->nkeys + i] = ga->aggs[i].named ? ga->aggs[i].out_name : wa_sprintf(p->arena, "agg#%d", i);
        for (int i = 0; i < wrel_calc(r)->nexprs; i++) {
            const WExpr *e = wrel_calc(r)->exprs[i];
            if (e->kind == WX_COLUMN && e->col >= g->nkeys && e->col < g->nkeys + ga->naggs)
                agg_rename[e->col] = r->out.names[i];
        }
    }
    prefix(out, last, depth);
    if (r->setop_kind && r->setop_inputs[0] && r->setop_inputs[1]) {
        /* INTERSECT / EXCEPT as written (bind_setops.c keeps the bound inputs) */
        wsb_printf(out, "%s(all=[%s])\n", r->setop_kind == WSO_INTERSECT ? "LogicalIntersect" : "LogicalMinus",
                   r->setop_all ? "true" : "false");
        for (int i = 0; i < 2 && depth < 255; i++) {
            last[depth + 1] = i == 1;
            node(p, r->setop_inputs[i], out, last, depth + 1, path, NULL);
        }
        return;
    }
    assert((unsigned)r->kind < WR__COUNT);
    AstNode a = {.p = p, .r = r, .out = out, .last = last, .depth = depth, .path = path, .rename = rename};
    if (!AST_KIND_OPS[r->kind].print(&a)) return;
    depth = a.depth;
    path = a.path;
    if (agg_rename && depth < 255) {
        last[depth + 1] = true;
        node(p, r->inputs[0], out, last, depth + 1, wa_sprintf(p->arena, "%s%s0", path, *path ? ", " : ""),
             agg_rename);
        return;
    }
    children(p, r, out, last, depth, path);
}

void ex_ast_tree(WPlanCtx *p, const WRel *root, WStrBuf *out)
{
    bool last[256];
    last[0] = true;
    node(p, root, out, last, 0, "", NULL);
}
