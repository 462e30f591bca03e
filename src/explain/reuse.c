/*
 * reuse.c (explain/) — what sub-plan reuse needs from explain/: the digest of each node as Flink's
 * physical plan prints it (plan/reuse.c compares sub-plans by them), and the reuse ids of an exec
 * graph that the Optimized Execution Plan prints (`(reuse_id=[n])` on a node's first
 * occurrence, `Reused(reference_id=[n])` on the others), numbered as Flink's ExecNodePlanDumper
 * numbers them: in the order nodes are reached a second time, inputs first, roots in order.
 *
 * Contract: the digests read the plan only (a view of it is built and dropped; the session's
 * ExecNode counter is not advanced). Depends on explain_internal.h.
 */
#include "explain_internal.h"

#include <assert.h>
#include <string.h>

bool wexplain_node_digests(WPlanCtx *p, WRel **roots, int n, WRel **nodes, int nnodes, const char **digests,
                           bool *folded)
{
    int *ids = p->exec_node_ids;
    p->exec_node_ids = NULL;             /* a view for digests only: take no ExecNode ids */
    ExCtx x;
    bool ok = ex_ctx_init(&x, p, roots, n);
    p->exec_node_ids = ids;
    if (!ok) return false;
    for (int i = 0; i < nnodes; i++) {
        const WRel *r = nodes[i];
        const ExNode *en = ex_node(&x, r);
        folded[i] = en && en->id < 0;
        /* the sink (with the materializer and keyBy folded into it) is never shared: unique */
        if (r->kind == WR_SINK || r->kind == WR_SINK_MATERIALIZER ||
            (r->kind == WR_EXCHANGE && en && en->id < 0)) {
            digests[i] = wa_sprintf(p->arena, "%s#%p", wrel_kind_name(r->kind), (const void *)r);
            continue;
        }
        WStrBuf b;
        wsb_init(&b);
        ex_digest(&x, r, EXD_REL, &b);
        /* the output names as Flink's plan has them (an aggregate's are its select items') */
        const char *const *names = ex_out_names(&x, r);
        for (int c = 0; c < r->out.n; c++) wsb_printf(&b, "%s%s", c ? ", " : " | ", names ? names[c] : "?");
        digests[i] = wa_strdup(p->arena, b.buf ? b.buf : "");
        wsb_free(&b);
    }
    return true;
}

static int find(const ExReuse *u, const WRel *r)
{
    for (int i = 0; i < u->n; i++) if (u->node[i] == r) return i;
    return -1;
}

static void reuse_visit(const ExCtx *x, ExReuse *u, const WRel **seen, int *nseen, int cap, const WRel *r, int depth)
{
    if (depth > 2000) return;
    for (int i = 0; i < *nseen; i++)
        if (seen[i] == r) {
            if (find(u, r) < 0 && u->n < cap) {
                u->node[u->n] = r;
                u->id[u->n] = u->n + 1;
                u->n++;
            }
            return;
        }
    if (*nseen >= cap) return;
    seen[(*nseen)++] = r;
    const WRel **ins = WA_ARRAY(x->p->arena, const WRel *, r->ninputs ? r->ninputs : 1);
    int nin = ex_inputs(x, r, ins);
    for (int i = 0; i < nin; i++) reuse_visit(x, u, seen, nseen, cap, ins[i], depth + 1);
}

void ex_reuse_init(const ExCtx *x, const WRel *const *tops, int n, ExReuse *u)
{
    memset(u, 0, sizeof *u);
    int cap = x->n + 2 * n + 16;
    u->node = WA_ARRAY(x->p->arena, const WRel *, cap);
    u->id = WA_ARRAY(x->p->arena, int, cap);
    u->visits = WA_ARRAY(x->p->arena, int, cap);
    u->first = WA_ARRAY(x->p->arena, bool, cap);
    u->stop = WA_ARRAY(x->p->arena, const WRel *, cap);
    const WRel **seen = WA_ARRAY(x->p->arena, const WRel *, cap);
    int nseen = 0;
    for (int i = 0; i < n; i++) reuse_visit(x, u, seen, &nseen, cap, tops[i], 0);
    u->dag = n > 1;
}

int ex_reuse_id(const ExReuse *u, const WRel *r)
{
    int i = u ? find(u, r) : -1;
    return i < 0 ? 0 : u->id[i];
}

bool ex_reuse_first(ExReuse *u, const WRel *r, bool count)
{
    int i = find(u, r);
    assert(i >= 0);
    if (u->dag) return u->first[i];
    if (count) u->visits[i]++;
    return u->visits[i] == 1;
}

bool ex_reuse_stopped(const ExReuse *u, const WRel *r)
{
    for (int i = 0; u && i < u->nstop; i++) if (u->stop[i] == r) return true;
    return false;
}
