/*
 * reuse.c — sub-plan reuse as Flink's SubplanReuser does it (table.optimizer.reuse-sub-plan-enabled,
 * table.optimizer.reuse-source-enabled, both true by default).
 *
 * Contract: runs over the physical plans of all roots of one statement (a statement set's INSERTs
 * together) before the nodes are numbered. Two sub-plans whose digests are equal node by node
 * (each node's digest as Flink's physical plan prints it with its output names, rendered by
 * explain/ through p->node_digests, and its output types) become one node with several consumers:
 * the first one visited (pre-order, inputs in order, roots in order) stays, the others are
 * replaced by it, and it is marked `reused`. As in Flink, a sink is never reused, a source scan
 * only with reuse-source-enabled, an Exchange only when its input may be; the nodes under a
 * replaced copy are not looked at. The plan's physical section stays the same text (a shared node
 * prints where each copy was); the execution plan, the JSON plans and the runtime see one node.
 * Depends on plan.h only.
 */
#include "plan.h"
#include "../common/strbuf.h"
#include "../types/type.h"

#include <assert.h>
#include <string.h>

typedef struct Reuse {
    WPlanCtx *p;
    int n, cap;
    WRel **nodes;               /* every node once (pointer identity), pre-order */
    const char **own;           /* the node's own digest (explain/) */
    const char **sub;           /* the sub-plan's digest: own, columns, inputs' sub-plan groups */
    int *group;                 /* index of the first node with the same sub-plan digest */
    int *members;               /* per group head: nodes registered by the visitor */
    bool *visited;
    bool *folded;               /* no node of Flink's plan (a Calc pushed into its scan) */
    bool source_reuse;
} Reuse;

static int index_of(const Reuse *R, const WRel *r)
{
    for (int i = 0; i < R->n; i++) if (R->nodes[i] == r) return i;
    return -1;
}

static void collect(Reuse *R, WRel *r, int depth)
{
    assert(depth < 4000);
    if (index_of(R, r) >= 0) return;
    if (R->n == R->cap) {
        R->cap = R->cap ? 2 * R->cap : 64;
        WRel **g = WA_ARRAY(R->p->arena, WRel *, R->cap);
        if (R->n) memcpy(g, R->nodes, sizeof *g * (size_t)R->n);
        R->nodes = g;
    }
    R->nodes[R->n++] = r;
    for (int i = 0; i < r->ninputs; i++) collect(R, r->inputs[i], depth + 1);
}

/* The sub-plan digest of node i (its inputs' first), and its group. */
static int sub_digest(Reuse *R, int i, int depth)
{
    assert(depth < 4000);
    if (R->sub[i]) return R->group[i];
    WRel *r = R->nodes[i];
    WStrBuf b;
    wsb_init(&b);
    wsb_puts(&b, R->own[i] ? R->own[i] : "");
    for (int c = 0; c < r->out.n; c++)         /* the names are in the digest as Flink's plan shows them */
        wsb_printf(&b, "%s%s", c ? ", " : " | ", wtype_str(R->p->arena, r->out.types[c]));
    for (int k = 0; k < r->ninputs; k++) {
        int in = index_of(R, r->inputs[k]);
        assert(in >= 0);
        wsb_printf(&b, " <- #%d", sub_digest(R, in, depth + 1));
    }
    R->sub[i] = wa_strdup(R->p->arena, b.buf ? b.buf : "");
    wsb_free(&b);
    R->group[i] = i;
    for (int k = 0; k < R->n; k++)
        if (k != i && R->sub[k] && R->group[k] == k && !strcmp(R->sub[k], R->sub[i])) {
            /* the group's head is the node first in pre-order */
            if (k < i) R->group[i] = k;
            else {
                for (int m = 0; m < R->n; m++) if (R->sub[m] && R->group[m] == k) R->group[m] = i;
            }
            break;
        }
    return R->group[i];
}

/* SubplanReuseContext.isNodeReusableDisabled */
static bool reuse_disabled(const Reuse *R, const WRel *r)
{
    /* a folded Calc is part of the node below it in Flink's plan (the scan it projects) */
    for (int i = index_of(R, r); i >= 0 && R->folded[i] && r->ninputs == 1; i = index_of(R, r)) r = r->inputs[0];
    if (r->kind == WR_SCAN) return !R->source_reuse;
    if (r->kind == WR_EXCHANGE) return r->ninputs == 1 && reuse_disabled(R, r->inputs[0]);
    return r->kind == WR_SINK || r->kind == WR_SINK_MATERIALIZER;
}

static bool reusable_group(const Reuse *R, int head)
{
    return R->members[head] > 1 && !reuse_disabled(R, R->nodes[head]);
}

/* ReusableSubplanVisitor: registers the nodes Flink's visitor reaches. */
static void visit(Reuse *R, int i, int depth)
{
    assert(depth < 4000);
    if (R->visited[i]) return;
    R->visited[i] = true;
    int g = R->group[i];
    R->members[g]++;
    if (reusable_group(R, g)) return;      /* replaced by the head: its inputs do not matter */
    WRel *r = R->nodes[i];
    for (int k = 0; k < r->ninputs; k++) visit(R, index_of(R, r->inputs[k]), depth + 1);
}

/* SubplanReuseShuttle: a node of a reusable group that is not its head becomes the head. */
static WRel *replace(Reuse *R, WRel *r, bool *done, int depth)
{
    assert(depth < 4000);
    int i = index_of(R, r);
    int g = R->group[i];
    if (g != i && reusable_group(R, g)) {
        R->nodes[g]->reused = true;
        return R->nodes[g];
    }
    if (done[i]) return r;
    done[i] = true;
    for (int k = 0; k < r->ninputs; k++) r->inputs[k] = replace(R, r->inputs[k], done, depth + 1);
    return r;
}

bool wplan_reuse(WPlanCtx *p, WRel **roots, int n)
{
    if (!p->node_digests || n <= 0) return true;
    WError tmp;
    werr_clear(&tmp);
    bool enabled = true, source = true;
    wopts_get_bool(p->config, "table.optimizer.reuse-sub-plan-enabled", true, &enabled, &tmp);
    wopts_get_bool(p->config, "table.optimizer.reuse-source-enabled", true, &source, &tmp);
    if (!enabled) return true;
    Reuse R = {.p = p, .source_reuse = source};
    for (int i = 0; i < n; i++) collect(&R, roots[i], 0);
    if (R.n < 2) return true;
    R.own = WA_ARRAY(p->arena, const char *, R.n);
    R.sub = WA_ARRAY(p->arena, const char *, R.n);
    R.group = WA_ARRAY(p->arena, int, R.n);
    R.members = WA_ARRAY(p->arena, int, R.n);
    R.visited = WA_ARRAY(p->arena, bool, R.n);
    R.folded = WA_ARRAY(p->arena, bool, R.n);
    if (!p->node_digests(p, roots, n, R.nodes, R.n, R.own, R.folded)) return false;
    for (int i = 0; i < R.n; i++) sub_digest(&R, i, 0);
    for (int i = 0; i < n; i++) visit(&R, index_of(&R, roots[i]), 0);
    bool *done = WA_ARRAY(p->arena, bool, R.n);
    for (int i = 0; i < n; i++) roots[i] = replace(&R, roots[i], done, 0);
    return true;
}
