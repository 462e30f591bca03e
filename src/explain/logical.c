/*
 * logical.c — the Abstract Syntax Tree section: the bound, unoptimised plan printed as Calcite's
 * logical operators (LogicalSink, LogicalProject, LogicalFilter, LogicalAggregate, LogicalJoin,
 * LogicalUnion, LogicalValues, LogicalWatermarkAssigner, LogicalTableScan), fields referred to by
 * position ($0), with the STATE_TTL hints of joins and aggregates as Calcite prints them. The
 * line of each node is its kind's print operation (its file in src/kinds/, reached through
 * wkinds_ast: explain_kinds.h). See explain_internal.h.
 */
#include "explain_internal.h"
#include "explain_kinds.h"
#include "../common/duration.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void ast_prefix(WStrBuf *out, const bool *last, int depth)
{
    for (int i = 1; i < depth; i++) wsb_puts(out, last[i] ? "   " : ":  ");
    if (depth > 0) wsb_puts(out, last[depth] ? "+- " : ":- ");
}

bool ast_identity_exprs(const WRel *r)
{
    const WRelCalc *rc = wrel_calc(r);
    const WRel *in = r->inputs[0];
    if (rc->nexprs != in->out.n) return false;
    for (int i = 0; i < rc->nexprs; i++)
        if (rc->exprs[i]->kind != WX_COLUMN || rc->exprs[i]->col != i) return false;
    return true;
}

/* STATE_TTL hints as Calcite prints them on a logical node: options sorted by key. */
void ast_ttl_hints(const WRel *r, const char *path, WStrBuf *out)
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

void ast_children(WPlanCtx *p, const WRel *r, WStrBuf *out, bool *last, int depth, const char *path)
{
    if (depth >= 255) return;
    for (int i = 0; i < r->ninputs; i++) {
        last[depth + 1] = i == r->ninputs - 1;
        char *cp = wa_sprintf(p->arena, "%s%s%d", path, *path ? ", " : "", i);
        ast_node(p, r->inputs[i], out, last, depth + 1, cp, NULL);
    }
}

void ast_cols_used(const WExpr *e, bool *used, int n)
{
    if (e->kind == WX_COLUMN && e->col >= 0 && e->col < n) used[e->col] = true;
    for (int i = 0; i < e->nargs; i++) ast_cols_used(e->args[i], used, n);
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
        ast_prefix(out, last, depth);
        wsb_printf(out, "LogicalCorrelate(correlation=[$cor%d], joinType=[%s], requiredColumns=[{", rc->cor_id,
                   rc->join_type == AJ_LEFT ? "left" : "inner");
        bool *used = WA_ARRAY(p->arena, bool, in->out.n ? in->out.n : 1);
        ast_cols_used(rc->collection, used, in->out.n);
        bool first = true;
        for (int i = 0; i < in->out.n; i++)
            if (used[i]) { wsb_printf(out, "%s%d", first ? "" : ", ", i); first = false; }
        wsb_puts(out, "}])\n");
        last[depth + 1] = false;
        ast_node(p, in, out, last, depth + 1, wa_sprintf(p->arena, "%s%s0", path, *path ? ", " : ""), NULL);
        d = depth + 1;
        last[d] = true;
    }
    int nl = rc->nleft_out;
    int nf = r->out.n - nl;
    if (r->nalias) {
        ast_prefix(out, last, d);
        wsb_puts(out, "LogicalProject(");
        for (int i = 0; i < nf; i++) wsb_printf(out, "%s%s=[$%d]", i ? ", " : "", r->out.names[nl + i], i);
        wsb_puts(out, ")\n");
        d++;
        last[d] = true;
    }
    if (rc->cond) {
        ast_prefix(out, last, d);
        wsb_puts(out, "LogicalFilter(condition=[");
        ex_rex(out, rc->cond, NULL, EXD_AST);
        wsb_puts(out, "])\n");
        d++;
        last[d] = true;
    }
    ast_prefix(out, last, d);
    wsb_puts(out, rc->ordinality ? "Uncollect(withOrdinality=[true])\n" : "Uncollect\n");
    d++;
    last[d] = true;
    ast_prefix(out, last, d);
    const WExpr *e = rc->collection;
    const char **cn = WA_ARRAY(p->arena, const char *, in->out.n ? in->out.n : 1);
    for (int i = 0; i < in->out.n; i++) cn[i] = wa_sprintf(p->arena, "$cor%d.%s", rc->cor_id, in->out.names[i]);
    wsb_printf(out, "LogicalProject(%s=[", e->kind == WX_COLUMN ? in->out.names[e->col] : "EXPR$0");
    ex_rex(out, e, cn, EXD_REL);
    wsb_puts(out, "])\n");
    d++;
    last[d] = true;
    ast_prefix(out, last, d);
    wsb_puts(out, "LogicalValues(tuples=[[{ 0 }]])\n");
}

/* ---- the Abstract Syntax Tree line of each node ---- */

/* The kinds without a line of their own print as Logical + their exec node's name (ex_rel_name) */
bool ast_by_name(AstNode *a)
{
    wsb_printf(a->out, "Logical%s\n", ex_rel_name(a->r));
    return true;
}

/* Node r's line and its inputs' below it. A Correlate prints through correlate_node. */
void ast_node(WPlanCtx *p, const WRel *r, WStrBuf *out, bool *last, int depth, const char *path,
              const char *const *rename)
{
    /* SELECT k, AGG(x) ... GROUP BY k: Calcite names the aggregate calls after the select items
       and keeps no projection on top */
    if (r->kind == WR_CALC && !wrel_calc(r)->cond && (r->inputs[0]->kind == WR_GROUP_AGG || r->inputs[0]->kind == WR_OVER_RANK) &&
        ast_identity_exprs(r)) {
        ast_node(p, r->inputs[0], out, last, depth, path, (const char *const *)r->out.names);
        return;
    }
    if (r->ast_hidden) {
        ast_node(p, r->inputs[0], out, last, depth, path, rename);
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
    ast_prefix(out, last, depth);
    if (r->setop_kind && r->setop_inputs[0] && r->setop_inputs[1]) {
        /* INTERSECT / EXCEPT as written (bind_setops.c keeps the bound inputs) */
        wsb_printf(out, "%s(all=[%s])\n", r->setop_kind == WSO_INTERSECT ? "LogicalIntersect" : "LogicalMinus",
                   r->setop_all ? "true" : "false");
        for (int i = 0; i < 2 && depth < 255; i++) {
            last[depth + 1] = i == 1;
            ast_node(p, r->setop_inputs[i], out, last, depth + 1, path, NULL);
        }
        return;
    }
    assert((unsigned)r->kind < WR__COUNT);
    AstNode a = {.p = p, .r = r, .out = out, .last = last, .depth = depth, .path = path, .rename = rename};
    if (!wkinds_ast[r->kind]->print(&a)) return;
    depth = a.depth;
    path = a.path;
    if (agg_rename && depth < 255) {
        last[depth + 1] = true;
        ast_node(p, r->inputs[0], out, last, depth + 1, wa_sprintf(p->arena, "%s%s0", path, *path ? ", " : ""),
             agg_rename);
        return;
    }
    ast_children(p, r, out, last, depth, path);
}

void ex_ast_tree(WPlanCtx *p, const WRel *root, WStrBuf *out)
{
    bool last[256];
    last[0] = true;
    ast_node(p, root, out, last, 0, "", NULL);
}
