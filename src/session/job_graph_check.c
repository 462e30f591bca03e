/*
 * job_graph_check.c — EXPLAIN's JSON execution plan, the job graph and the built runtime
 * operators of one job compared. See job_graph_check.h.
 */
#include "job_graph_check.h"
#include "../explain/explain.h"
#include "../runtime/vertices.h"
#include "../sql/ast.h"
#include "../exec/operator.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

bool wjob_graph_check_enabled(void)
{
    const char *v = getenv("WEIR_CHECK_JOB_GRAPH");
    return v && *v && strcmp(v, "0") != 0;
}

/* One operator as a line: "name <- pred1 (SHIP), pred2 (SHIP)". */
typedef struct OpLines { int n; char **lines; } OpLines;

static void lines_add(OpLines *l, char *line)
{
    l->lines = realloc(l->lines, sizeof(char *) * (size_t)(l->n + 1));
    if (!l->lines) abort();
    l->lines[l->n++] = line;
}

static void lines_free(OpLines *l)
{
    for (int i = 0; i < l->n; i++) free(l->lines[i]);
    free(l->lines);
}

static void min_exec_id(const WRel *r, int *min, int depth)
{
    if (depth > 2000) return;
    if (r->exec_id > 0 && (*min == 0 || r->exec_id < *min)) *min = r->exec_id;
    for (int i = 0; i < r->ninputs; i++) min_exec_id(r->inputs[i], min, depth + 1);
}

static bool collect_sink_op(const WStreamOp *o)
{
    return o->rel && o->rel->kind == WR_SINK && !wrel_sink(o->rel)->table;
}

/* The nodes of the JSON execution plan EXPLAIN prints for the roots, with the same ids. */
static bool explain_lines(WPlanCtx *p, WRel **roots, int n, OpLines *out, WStrBuf *diff)
{
    int first = 0;
    for (int i = 0; i < n; i++) min_exec_id(roots[i], &first, 0);
    int counter = first > 0 ? first - 1 : 0;
    WError err;
    werr_clear(&err);
    WPlanCtx q = *p;
    q.err = &err;
    q.exec_node_ids = first > 0 ? &counter : NULL;
    WStrBuf text;
    wsb_init(&text);
    bool ok = wexplain_text(&q, NULL, roots, n, AX_JSON_EXECUTION_PLAN, &text);
    const char *mark = ok && text.buf ? strstr(text.buf, "== Physical Execution Plan ==\n") : NULL;
    json_t *doc = mark ? json_loads(mark + strlen("== Physical Execution Plan ==\n"), 0, NULL) : NULL;
    wsb_free(&text);
    if (!doc) {
        wsb_printf(diff, "EXPLAIN gives no JSON execution plan (%s)\n", err.set ? err.msg : "unreadable");
        return false;
    }
    json_t *nodes = json_object_get(doc, "nodes");
    size_t i;
    json_t *node;
    json_array_foreach(nodes, i, node) {
        WStrBuf l;
        wsb_init(&l);
        wsb_append(&l, json_string_value(json_object_get(node, "type")));
        size_t k;
        json_t *pred;
        json_array_foreach(json_object_get(node, "predecessors"), k, pred) {
            json_int_t pid = json_integer_value(json_object_get(pred, "id"));
            const char *pname = "?";
            size_t m;
            json_t *other;
            json_array_foreach(nodes, m, other)
                if (json_integer_value(json_object_get(other, "id")) == pid)
                    pname = json_string_value(json_object_get(other, "type"));
            wsb_printf(&l, "%s%s (%s)", k ? ", " : " <- ", pname,
                       json_string_value(json_object_get(pred, "ship_strategy")));
        }
        lines_add(out, wsb_detach(&l));
    }
    json_decref(doc);
    return true;
}

static void graph_lines(const WJobGraph *g, bool without_collect, OpLines *out)
{
    for (int k = 0; g && k < g->nops; k++) {
        const WStreamOp *o = &g->ops[k];
        if (without_collect && collect_sink_op(o)) continue;
        WStrBuf l;
        wsb_init(&l);
        wsb_append(&l, o->name);
        for (int e = 0; e < o->ninputs; e++)
            wsb_printf(&l, "%s%s (%s)", e ? ", " : " <- ", g->ops[o->inputs[e].from].name, wship_name(o->inputs[e].ship));
        lines_add(out, wsb_detach(&l));
    }
}

static int line_cmp(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* The operators and their edges are compared, not the order they are listed in (the JSON plan
   lists sinks last as Flink's JSONGenerator does, the job graph in the order it builds them). */
static bool compare(const char *what, OpLines *a, OpLines *b, WStrBuf *diff)
{
    if (a->n > 1) qsort(a->lines, (size_t)a->n, sizeof *a->lines, line_cmp);
    if (b->n > 1) qsort(b->lines, (size_t)b->n, sizeof *b->lines, line_cmp);
    bool same = a->n == b->n;
    for (int i = 0; same && i < a->n; i++) same = strcmp(a->lines[i], b->lines[i]) == 0;
    if (same) return true;
    wsb_printf(diff, "%s differ:\n", what);
    int n = a->n > b->n ? a->n : b->n;
    for (int i = 0; i < n; i++)
        wsb_printf(diff, "  %s %-60s | %s\n", i < a->n && i < b->n && !strcmp(a->lines[i], b->lines[i]) ? " " : "*",
                   i < a->n ? a->lines[i] : "-", i < b->n ? b->lines[i] : "-");
    return false;
}

/* Whether runtime operator `from` feeds `to` directly or through the runtime's plumbing
   (a Union's merge: no operator of the graph). */
static bool feeds(const WJob *job, const WOperator *from, const WOperator *to, int depth)
{
    if (depth > 64) return false;
    for (int i = 0; i < from->nouts; i++) {
        const WOperator *o = from->outs[i].op;
        if (o == to) return true;
        int nn = wjob_node_count(job);
        bool plumbing = false;
        for (int k = 0; k < nn; k++)
            if (wjob_node_op(job, k) == o) plumbing = wjob_node_stream_op(job, k) < 0;
        if (plumbing && feeds(job, o, to, depth + 1)) return true;
    }
    return false;
}

static bool runtime_check(const WJob *job, const WJobGraph *g, WStrBuf *diff)
{
    bool ok = true;
    for (int k = 0; k < g->nops; k++) {
        int i = wjob_stream_op_built(job, k);
        const WOperator *op = i >= 0 ? wjob_node_op(job, i) : NULL;
        if (!op) {
            wsb_printf(diff, "the runtime built no operator for %s\n", g->ops[k].name);
            ok = false;
            continue;
        }
        if (strcmp(op->name, g->ops[k].name) != 0) {
            wsb_printf(diff, "the runtime's operator for %s is named %s\n", g->ops[k].name, op->name);
            ok = false;
        }
        /* one lane: every forward edge of the graph is a connection of the runtime's operators */
        for (int e = 0; wjob_parallelism(job) == 1 && e < g->ops[k].ninputs; e++) {
            int fi = wjob_stream_op_built(job, g->ops[k].inputs[e].from);
            const WOperator *from = fi >= 0 ? wjob_node_op(job, fi) : NULL;
            if (from && !feeds(job, from, op, 0)) {
                wsb_printf(diff, "the runtime does not feed %s from %s\n", g->ops[k].name,
                           g->ops[g->ops[k].inputs[e].from].name);
                ok = false;
            }
        }
    }
    int nn = wjob_node_count(job), mapped = 0;
    for (int i = 0; i < nn; i++) if (wjob_node_stream_op(job, i) >= 0) mapped++;
    if (mapped != g->nops) {
        wsb_printf(diff, "the runtime built %d operators for the %d of the job graph\n", mapped, g->nops);
        ok = false;
    }
    return ok;
}

bool wjob_graph_check(WPlanCtx *p, WRel **roots, int n, const WJob *job, WStrBuf *diff)
{
    const WJobGraph *g = wjob_graph(job);
    if (!g) return true;
    bool ok = runtime_check(job, g, diff);
    OpLines ex = {0}, gr = {0};
    if (explain_lines(p, roots, n, &ex, diff)) {
        graph_lines(g, true, &gr);
        ok = compare("EXPLAIN's JSON execution plan (left) and the job that runs (right)", &ex, &gr, diff) && ok;
    } else {
        ok = false;
    }
    lines_free(&ex);
    lines_free(&gr);
    return ok;
}
