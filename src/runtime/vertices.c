/*
 * vertices.c — stream operators, chaining and job vertices of a SQL job. The stream operators of
 * each node and their name are its kind's operations (its file in src/kinds/, reached through
 * wkinds_vx: runtime_kinds.h); the pieces several kinds share are here. See vertices.h.
 */
#include "vertices.h"
#include "runtime_kinds.h"
#include "../plan/scan_parallelism.h"
#include "../plan/sink_constraints.h"
#include "../common/arena.h"
#include "../common/hash.h"
#include "../common/strbuf.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *wship_name(WShip s)
{
    switch (s) {
    case WSHIP_FORWARD: return "FORWARD";
    case WSHIP_HASH: return "HASH";
    case WSHIP_GLOBAL: return "GLOBAL";
    case WSHIP_REBALANCE: return "REBALANCE";
    case WSHIP_BROADCAST: return "BROADCAST";
    }
    return "FORWARD";
}

/* ------------------------------------------------------------------ builder state */

static RelInfo *info_of(Builder *b, const WRel *r)
{
    for (int i = 0; i < b->nrels; i++) if (b->rels[i].rel == r) return &b->rels[i];
    return NULL;
}

static void collect(Builder *b, WRel *r)
{
    if (!r || info_of(b, r)) return;
    for (int i = 0; i < r->ninputs; i++) collect(b, r->inputs[i]);
    if (info_of(b, r)) return;   /* reached again through a shared input */
    if (b->nrels == b->cap_rels) {
        b->cap_rels = b->cap_rels ? b->cap_rels * 2 : 16;
        b->rels = wrealloc(b->rels, sizeof(RelInfo) * (size_t)b->cap_rels);
    }
    b->rels[b->nrels++] = (RelInfo){.rel = r, .first_op = -1, .last_op = -1};
}

static int64_t opt_long(const WOptions *o, const char *key, int64_t dflt)
{
    if (!o) return dflt;
    int64_t v = dflt;
    WError tmp;
    werr_clear(&tmp);
    if (!wopts_get_long(o, key, dflt, &v, &tmp)) return dflt;
    return v;
}

static bool opt_bool(const WOptions *o, const char *key, bool dflt)
{
    if (!o) return dflt;
    bool v = dflt;
    WError tmp;
    werr_clear(&tmp);
    if (!wopts_get_bool(o, key, dflt, &v, &tmp)) return dflt;
    return v;
}

int vx_new_op(Builder *b, const char *name, const char *desc, const WRel *r, WStreamOpRole role)
{
    if (b->nops == b->cap_ops) {
        b->cap_ops = b->cap_ops ? b->cap_ops * 2 : 16;
        b->ops = wrealloc(b->ops, sizeof(WStreamOp) * (size_t)b->cap_ops);
    }
    WStreamOp *o = &b->ops[b->nops];
    memset(o, 0, sizeof *o);
    o->name = wstrdup(name);
    o->description = wstrdup(desc);
    o->rel = r;
    o->rel_id = r->id;
    o->kind = r->kind;
    o->role = role;
    o->vertex = -1;
    o->ttl_ms = r->ttl_ms;
    if (wrel_is_join(r->kind)) {       /* a join's per-side TTLs (set on WR_JOIN only) */
        o->ttl_left_ms = wrel_join(r)->ttl_left_ms;
        o->ttl_right_ms = wrel_join(r)->ttl_right_ms;
    }
    return b->nops++;
}

void vx_add_input(WStreamOp *o, int from, WShip ship)
{
    o->inputs = wrealloc(o->inputs, sizeof(WGraphEdge) * (size_t)(o->ninputs + 1));
    o->inputs[o->ninputs++] = (WGraphEdge){from, ship};
}

/* A Calc that repeats its input column by column (same types, no condition) is no operator of
   Flink's job: Calcite removes such a projection (ProjectRemoveRule) and EXPLAIN folds it the same
   way (explain/view.c fold_identity). Its names may differ from the input's only where EXPLAIN
   names the input's columns after the Calc: aggregate results and a rank's number. */
bool wjobgraph_folds_calc(const WRel *r)
{
    if (r->kind != WR_CALC || wrel_calc(r)->cond || r->ninputs != 1) return false;
    const WRelCalc *rc = wrel_calc(r);
    const WRel *in = r->inputs[0];
    if (rc->nexprs == 0 || rc->nexprs != in->out.n) return false;
    bool renames_ok = in->kind == WR_GROUP_AGG || in->kind == WR_GLOBAL_GROUP_AGG || in->kind == WR_RANK;
    for (int i = 0; i < rc->nexprs; i++) {
        const WExpr *e = rc->exprs[i];
        if (e->kind != WX_COLUMN || e->col != i || !wtype_equals(e->type, r->out.types[i], false) ||
            !wtype_equals(in->out.types[i], r->out.types[i], false))
            return false;
        if (!renames_ok && strcmp(in->out.names[i], r->out.names[i]) != 0) return false;
    }
    return true;
}

/* Whether Calc r is no operator of Flink's job: an identity projection, or (in a numbered plan) a
   Calc EXPLAIN folds — a projection / filter pushed into the scan below it, which the source does
   in Flink (the runtime still runs it, as part of the source: runtime/build.c). */
static bool folded_calc(const Builder *b, const WRel *r)
{
    if (r->kind != WR_CALC) return false;
    return wjobgraph_folds_calc(r) || (b->numbered && r->exec_id == 0);
}

/* The exec-node id Flink gives r: the planner's id less the identity Calcs numbered before it
   (they are not in Flink's exec graph). */
int vx_xid(const Builder *b, const WRel *r)
{
    if (r->exec_id > 0) return r->exec_id;      /* numbered by the statement that runs it */
    int folded = 0;
    for (int i = 0; i < b->nrels; i++)
        if (b->rels[i].rel->id < r->id && folded_calc(b, b->rels[i].rel)) folded++;
    return r->id - folded;
}

/* Producers of r's output as seen by a consumer: (operator, ship) pairs. */
static void producers(Builder *b, const WRel *r, WShip ship, WGraphEdge **out, int *n)
{
    if (folded_calc(b, r)) {        /* passes its input's records on */
        producers(b, r->inputs[0], ship, out, n);
        return;
    }
    if (r->kind == WR_EXCHANGE) {
        WShip s = wrel_exchange(r)->single || r->nkeys == 0 ? WSHIP_GLOBAL : WSHIP_HASH;
        producers(b, r->inputs[0], s, out, n);
        return;
    }
    if (r->kind == WR_UNION) {
        for (int i = 0; i < r->ninputs; i++) producers(b, r->inputs[i], ship, out, n);
        return;
    }
    RelInfo *ri = info_of(b, r);
    if (!ri || ri->last_op < 0) return;
    *out = wrealloc(*out, sizeof(WGraphEdge) * (size_t)(*n + 1));
    (*out)[(*n)++] = (WGraphEdge){ri->last_op, ship};
}

/* Connect rel r's inputs to operator `op`. */
void vx_wire_inputs(Builder *b, const WRel *r, int op, bool keyed)
{
    for (int i = 0; i < r->ninputs; i++) {
        WGraphEdge *e = NULL;
        int n = 0;
        producers(b, r->inputs[i], WSHIP_FORWARD, &e, &n);
        for (int k = 0; k < n; k++)
            vx_add_input(&b->ops[op], e[k].from, keyed && e[k].ship == WSHIP_FORWARD ? WSHIP_HASH : e[k].ship);
        free(e);
    }
}

/* ------------------------------------------------------------------ sink expansion */

/* Adds the ConstraintEnforcer of sink `sink` fed by rel r's inputs; returns its op or -1. */
int vx_add_enforcer(Builder *b, const WRel *sink, const WRel *fed_by)
{
    WStrBuf d;
    wsb_init(&d);
    if (!wsink_constraint_digest(sink, b->config, &d)) {
        wsb_free(&d);
        return -1;
    }
    char name[64];
    snprintf(name, sizeof name, "ConstraintEnforcer[%d]", vx_xid(b, sink));
    WStrBuf full;
    wsb_init(&full);
    wsb_printf(&full, "[%d]:%s", vx_xid(b, sink), d.buf);
    int op = vx_new_op(b, name, full.buf, sink, WSOP_CONSTRAINT_ENFORCER);
    wsb_free(&full);
    wsb_free(&d);
    vx_wire_inputs(b, fed_by, op, false);
    return op;
}

/* ------------------------------------------------------------------ operators per exec node */

const char *vx_name_of_kind(const WRel *r) { return wrel_kind_name(r->kind); }

static const char *simple_name(const WRel *r);
void vx_plain_desc(const WRel *r, int id, WStrBuf *d)
{
    wsb_printf(d, "[%d]:%s", id, simple_name(r));
    if (r->digest && *r->digest) wsb_printf(d, "(%s)", r->digest);
}

/* ------------------------------------------------------------------ operators several kinds share */

/* Exchange, Union: an edge of the job graph, no operator (first_op / last_op stay -1) */
void vx_edge(Builder *b, RelInfo *ri, WRel *r, int id, WStrBuf *name, WStrBuf *desc)
{
}

/* the node's own operator, named as EXPLAIN names it */
void vx_plain(Builder *b, RelInfo *ri, WRel *r, int id, WStrBuf *name, WStrBuf *desc)
{
    wsb_printf(name, "%s[%d]", simple_name(r), id);
    vx_plain_desc(r, id, desc);
    int op = vx_new_op(b, name->buf, desc->buf, r, WSOP_OPERATOR);
    vx_wire_inputs(b, r, op, false);
    ri->first_op = ri->last_op = op;
}

static const char *simple_name(const WRel *r)
{
    assert((unsigned)r->kind < WR__COUNT);
    const VxKindOps *o = wkinds_vx[r->kind];
    return o->name ? o->name : o->name_of(r);
}

static void build_ops(Builder *b, RelInfo *ri)
{
    WRel *r = ri->rel;
    if (folded_calc(b, r)) return;      /* no operator: its consumers read its input (producers) */
    WStrBuf name, desc;
    wsb_init(&name);
    wsb_init(&desc);
    assert((unsigned)r->kind < WR__COUNT);
    wkinds_vx[r->kind]->add_ops(b, ri, r, vx_xid(b, r), &name, &desc);
    wsb_free(&name);
    wsb_free(&desc);
}

/* ------------------------------------------------------------------ parallelism */

static const WRel *rel_by_id(Builder *b, int id, WRelKind kind)
{
    for (int i = 0; i < b->nrels; i++)
        if (b->rels[i].rel->id == id && b->rels[i].rel->kind == kind) return b->rels[i].rel;
    return NULL;
}

static int table_parallelism(const WTable *t, const char *key, int dflt)
{
    if (!t) return dflt;
    int64_t v = opt_long(&t->options, key, 0);
    return v > 0 && v <= 32768 ? (int)v : dflt;
}

/* The parallelism an operator fed FORWARD by operator `from` inherits: its own, except a table
   source's (a source with scan.parallelism is wrapped so that what follows runs at the default). */
static int fed_par(const Builder *b, int from)
{
    const WStreamOp *in = &b->ops[from];
    return in->is_source && in->kind == WR_SCAN ? b->default_p : in->parallelism;
}

static void set_parallelism(Builder *b)
{
    for (int i = 0; i < b->nops; i++) {
        WStreamOp *o = &b->ops[i];
        int p = b->default_p;
        bool single = false;
        if (o->role == WSOP_SINK_END || o->role == WSOP_COMPACT_COORDINATOR || o->role == WSOP_PARTITION_COMMITTER) {
            p = 1;                  /* Flink's discarding end of a file sink, its coordinator, committer: one subtask */
            if (o->role != WSOP_SINK_END) single = true;
        } else if (o->role == WSOP_COMPACT_OPERATOR) {
            p = b->ops[b->ops[o->inputs[0].from].inputs[0].from].parallelism;  /* the writer's */
        } else if (o->is_source) {
            if (o->kind == WR_VALUES) {
                p = 1;
                single = true;
            } else {
                int sp = wscan_parallelism(rel_by_id(b, o->rel_id, WR_SCAN));
                p = sp > 0 ? sp : b->default_p;
            }
        } else if (o->ninputs > 0) {
            /* behind a source with its own scan.parallelism that emits updates: a keyBy on the
               primary key (CommonExecTableSourceScan), unless an exchange of the plan is there */
            for (int k = 0; k < o->ninputs; k++)
                if (o->inputs[k].ship == WSHIP_FORWARD && b->ops[o->inputs[k].from].is_source &&
                    wscan_keyed_by_pk(b->ops[o->inputs[k].from].rel))
                    o->inputs[k].ship = WSHIP_HASH;
            bool all_global = true, any_forward = false;
            for (int k = 0; k < o->ninputs; k++) {
                if (o->inputs[k].ship != WSHIP_GLOBAL) all_global = false;
                if (o->inputs[k].ship == WSHIP_FORWARD) any_forward = true;
            }
            if (all_global) {
                p = 1;
                single = true;
            } else if (o->ninputs == 1 && any_forward) {
                const WStreamOp *in = &b->ops[o->inputs[0].from];
                p = fed_par(b, o->inputs[0].from);
                single = in->max_parallelism == 1 && p == 1;
            } else if (o->ninputs > 1) {
                /* every input forward (a union's): the largest of their parallelisms */
                bool all_forward = true;
                int maxp = 0;
                for (int k = 0; k < o->ninputs; k++) {
                    if (o->inputs[k].ship != WSHIP_FORWARD) all_forward = false;
                    else if (fed_par(b, o->inputs[k].from) > maxp) maxp = fed_par(b, o->inputs[k].from);
                }
                if (all_forward && maxp > 0) p = maxp;
            }
            if (o->is_sink || (o->kind == WR_SINK_MATERIALIZER && o->role == WSOP_OPERATOR)) {
                const WRel *sink = NULL;
                if (o->is_sink) {
                    sink = rel_by_id(b, o->rel_id, WR_SINK);
                } else {
                    /* the materializer of a sink: find that sink through its consumer edge */
                    for (int j = i + 1; j < b->nops && !sink; j++)
                        for (int k = 0; k < b->ops[j].ninputs; k++)
                            if (b->ops[j].inputs[k].from == i && b->ops[j].is_sink)
                                sink = rel_by_id(b, b->ops[j].rel_id, WR_SINK);
                }
                int sp = table_parallelism(sink ? wrel_sink(sink)->table : NULL, "sink.parallelism", 0);
                if (sp > 0) {
                    p = sp;
                    single = false;
                }
            }
        }
        /* table.exec.sink.keyed-shuffle: a keyBy on the primary key in front of the sink */
        if (o->is_sink && o->role == WSOP_OPERATOR && o->rel && o->rel->kind == WR_SINK && o->ninputs == 1 &&
            o->inputs[0].ship == WSHIP_FORWARD &&
            wsink_keyed_shuffle(o->rel, b->config, fed_par(b, o->inputs[0].from), p))
            o->inputs[0].ship = WSHIP_HASH;
        o->parallelism = p;
        if (single) o->max_parallelism = 1;
        else if (b->max_p > 0) o->max_parallelism = (int)b->max_p;
        else o->max_parallelism = wflink_default_max_parallelism(p);
        /* a forward edge between different parallelisms is a rebalance (StreamGraph) */
        for (int k = 0; k < o->ninputs; k++)
            if (o->inputs[k].ship == WSHIP_FORWARD && b->ops[o->inputs[k].from].parallelism != p)
                o->inputs[k].ship = WSHIP_REBALANCE;
    }
}

/* ------------------------------------------------------------------ chaining */

static bool chained_edge(const Builder *b, const WStreamOp *o, int k)
{
    if (!b->chaining || o->ninputs != 1) return false;
    const WGraphEdge *e = &o->inputs[k];
    return e->ship == WSHIP_FORWARD && b->ops[e->from].parallelism == o->parallelism;
}

static void chained_name(const WJobGraph *g, int op, WStrBuf *out)
{
    wsb_append(out, g->ops[op].name);
    int kids[64], n = 0;
    for (int j = op + 1; j < g->nops && n < 64; j++) {
        const WStreamOp *c = &g->ops[j];
        if (c->vertex == g->ops[op].vertex && c->ninputs == 1 && c->inputs[0].from == op) kids[n++] = j;
    }
    if (n == 1) {
        wsb_append(out, " -> ");
        chained_name(g, kids[0], out);
    } else if (n > 1) {
        wsb_append(out, " -> (");
        for (int i = 0; i < n; i++) {
            if (i) wsb_append(out, ", ");
            chained_name(g, kids[i], out);
        }
        wsb_putc(out, ')');
    }
}

static void chained_desc(const WJobGraph *g, int op, int depth, WStrBuf *out)
{
    if (depth > 0) {
        wsb_putc(out, '\n');
        wsb_repeat(out, ' ', (size_t)(depth - 1) * 3);
        wsb_append(out, "+- ");
    }
    wsb_append(out, g->ops[op].description);
    for (int j = op + 1; j < g->nops; j++) {
        const WStreamOp *c = &g->ops[j];
        if (c->vertex == g->ops[op].vertex && c->ninputs == 1 && c->inputs[0].from == op)
            chained_desc(g, j, depth + 1, out);
    }
}

WJobGraph *wjobgraph_build(WRel *const *roots, int nroots, const WOptions *config)
{
    if (nroots <= 0 || !roots) return NULL;
    Builder b;
    memset(&b, 0, sizeof b);
    b.config = config;
    int64_t p = opt_long(config, "parallelism.default", 1);
    b.default_p = p >= 1 && p <= 32768 ? (int)p : 1;
    b.max_p = opt_long(config, "pipeline.max-parallelism", 0);
    if (b.max_p < 0 || b.max_p > 32768) b.max_p = 0;
    b.chaining = opt_bool(config, "pipeline.operator-chaining.enabled", true);
    const char *mode = config ? wopts_get(config, "execution.runtime-mode") : NULL;
    b.batch = mode && !strcasecmp(mode, "batch");
    for (int i = 0; i < nroots; i++) collect(&b, roots[i]);
    for (int i = 0; i < b.nrels; i++) b.numbered |= b.rels[i].rel->exec_id > 0;
    for (int i = 0; i < b.nrels; i++) {
        WRel *r = b.rels[i].rel;
        for (int k = 0; k < r->ninputs; k++) {
            RelInfo *in = info_of(&b, r->inputs[k]);
            if (!in) continue;
            if (in->nconsumers++ == 0) in->consumer = r;
        }
    }
    for (int i = 0; i < b.nrels; i++) build_ops(&b, &b.rels[i]);
    set_parallelism(&b);

    WJobGraph *g = wcalloc(1, sizeof *g);
    g->chaining = b.chaining;
    g->nops = b.nops;
    g->ops = b.ops;
    for (int i = 0; i < g->nops; i++)
        for (int k = 0; k < g->ops[i].ninputs; k++)
            if (g->ops[i].inputs[k].ship != WSHIP_FORWARD) g->nedges_non_forward++;

    /* vertices: an operator joins its input's vertex when that single edge chains */
    g->vertices = wcalloc((size_t)(g->nops ? g->nops : 1), sizeof(WJobVertex));
    for (int i = 0; i < g->nops; i++) {
        WStreamOp *o = &g->ops[i];
        if (o->ninputs == 1 && chained_edge(&b, o, 0)) {
            o->vertex = g->ops[o->inputs[0].from].vertex;
        } else {
            o->vertex = g->nvertices++;
            WJobVertex *v = &g->vertices[o->vertex];
            v->parallelism = o->parallelism;
            v->max_parallelism = o->max_parallelism;
        }
        WJobVertex *v = &g->vertices[o->vertex];
        v->ops = wrealloc(v->ops, sizeof(int) * (size_t)(v->nops + 1));
        v->ops[v->nops++] = i;
    }
    for (int vi = 0; vi < g->nvertices; vi++) {
        WJobVertex *v = &g->vertices[vi];
        WStrBuf s;
        wsb_init(&s);
        chained_name(g, v->ops[0], &s);
        v->name = wsb_detach(&s);
        chained_desc(g, v->ops[0], 0, &s);
        v->description = wsb_detach(&s);
        for (int k = 0; k < v->nops; k++) {
            const WStreamOp *o = &g->ops[v->ops[k]];
            for (int e = 0; e < o->ninputs; e++) {
                if (g->ops[o->inputs[e].from].vertex == vi) continue;   /* chained */
                v->inputs = wrealloc(v->inputs, sizeof(WGraphEdge) * (size_t)(v->ninputs + 1));
                v->inputs[v->ninputs++] = (WGraphEdge){g->ops[o->inputs[e].from].vertex, o->inputs[e].ship};
            }
        }
    }
    free(b.rels);
    return g;
}

void wjobgraph_free(WJobGraph *g)
{
    if (!g) return;
    for (int i = 0; i < g->nops; i++) {
        free(g->ops[i].name);
        free(g->ops[i].description);
        free(g->ops[i].inputs);
    }
    free(g->ops);
    for (int i = 0; i < g->nvertices; i++) {
        free(g->vertices[i].name);
        free(g->vertices[i].description);
        free(g->vertices[i].ops);
        free(g->vertices[i].inputs);
    }
    free(g->vertices);
    free(g);
}

void wjobgraph_vertex_id(const char *job_id, int vertex, char out[33])
{
    size_t n = job_id ? strlen(job_id) : 0;
    uint64_t a = whash_combine(whash_bytes(job_id ? job_id : "", n, 0x6a09e667f3bcc908ULL), (uint64_t)vertex);
    uint64_t c = whash_combine(whash_bytes(job_id ? job_id : "", n, 0xbb67ae8584caa73bULL), (uint64_t)vertex * 31 + 7);
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)whash_u64(a), (unsigned long long)whash_u64(c));
}
