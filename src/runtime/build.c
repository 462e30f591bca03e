/*
 * build.c — operators from exec nodes: one operator per node of the exec graph in a lane (sources
 * with their connectors, calc, watermarks, every stateful operator, exchanges' senders and
 * receivers, sinks), with the connector specs and window definitions they need. job.c calls it
 * once per lane and root. The operator of each node and its mini-batch bundle are its kind's
 * build operations (its file in src/kinds/, reached through wkinds_build: runtime_kinds.h); the
 * pieces several kinds share are here. May call exec/, connectors/, state/ through exec, types/,
 * common/.
 */
#include "job_internal.h"
#include "runtime_kinds.h"
#include "final_rows.h"
#include "fs_compact_flow.h"
#include "../exec/calc.h"
#include "../exec/correlate.h"
#include "../exec/watermark.h"
#include "../exec/union.h"
#include "../exec/expand.h"
#include "../exec/replicate_rows.h"
#include "../exec/stateful.h"
#include "../exec/windowed.h"
#include "../plan/over_window.h"
#include "../exec/sort.h"
#include "../exec/match.h"
#include "../exec/over_batch.h"
#include "../exec/insight.h"
#include "../exec/minibatch.h"
#include "../exec/lookup_join.h"
#include "../plan/scan_parallelism.h"
#include "../plan/table_factory.h"
#include "../expr/functions.h"

#include "../common/hash.h"
#include "../types/row.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- passthrough head for sources ---- */

static void pass_process(WOperator *op, int input, const WChunk *in) { (void)input; wop_emit(op, in); }
static const WOpOps PASS_OPS = {.process = pass_process};

/* DropUpdateBefore: forwards everything but -U rows. */
typedef struct DropUbOp { WOperator base; WChunk *out; } DropUbOp;
static void drop_ub_process(WOperator *op, int input, const WChunk *in)
{
    (void)input;
    bool any = false;
    for (int i = 0; i < in->nrows && !any; i++) any = in->kinds[i] == WRK_UPDATE_BEFORE;
    if (!any) { wop_emit(op, in); return; }
    uint8_t sel[WCHUNK_CAP];
    for (int i = 0; i < in->nrows; i++) sel[i] = in->kinds[i] != WRK_UPDATE_BEFORE;
    WChunk *c = wchunk_new(in->ncols, in->types, in->nrows);
    wchunk_gather(c, in, sel);
    wop_emit(op, c);
    wchunk_free(c);
}
const WOpOps DROP_UB_OPS = {.process = drop_ub_process};

/* ---- sink operators ---- */

static void sink_process(WOperator *op, int input, const WChunk *in)
{
    SinkOp *s = (SinkOp *)op;
    (void)input;
    assert(s->is_collect || s->sink);       /* an idle copy (no sink opened) receives nothing */
    if (s->is_collect) {
        if (s->collect.rows && !s->collect.rows(s->collect.ctx, in)) wexec_cancel(op->ctx);
        return;
    }
    if (s->final) wfinal_apply(s->final, in);     /* batch over an updating input: at the end */
    else s->sink->write(s->sink, in, op->ctx->err);
}

static bool sink_write_final(void *ctx, const WChunk *c)
{
    SinkOp *s = ctx;
    return s->sink->write(s->sink, c, s->base.ctx->err);
}

static void sink_end(WOperator *op)
{
    SinkOp *s = (SinkOp *)op;
    assert(s->is_collect || s->sink);
    if (s->final && !op->ctx->err->set && !wfinal_flush(s->final, sink_write_final, s)) return;
    if (!s->is_collect && s->sink->finish) s->sink->finish(s->sink, op->ctx->err);
    /* a compacting file sink's coordinator hears of the end after the writer's last files */
    if (s->flow) wfs_flow_writer_end(s->flow, s->subtask);
    else wop_emit_end(op);  /* a file sink's `end: Writer` follows it */
}

static void sink_watermark(WOperator *op, int64_t wm)
{
    SinkOp *s = (SinkOp *)op;
    if (!s->is_collect && s->sink && s->sink->watermark) s->sink->watermark(s->sink, wm);
    if (s->flow) wfs_flow_writer_watermark(s->flow, s->subtask, wm);
}

static void sink_destroy(WOperator *op)
{
    SinkOp *s = (SinkOp *)op;
    wfinal_free(s->final);
    free(s);
}

const WOpOps SINK_OPS = {.process = sink_process, .watermark = sink_watermark, .end_input = sink_end,
                                .destroy = sink_destroy};

/* StreamRecordTimestampInserter: Flink copies the rowtime column into the StreamRecord's timestamp
   for the sink; a weir row has no timestamp apart from its rowtime column, so rows pass as they are. */
const WOpOps TIMESTAMP_INSERTER_OPS = {.process = pass_process};

/* `end: Writer`: the discarding sink after a StreamingFileWriter (its committables end there). */
static void discard_process(WOperator *op, int input, const WChunk *in) { (void)op; (void)input; (void)in; }
const WOpOps DISCARD_OPS = {.process = discard_process};

/* ---- table spec for connectors ---- */

/* parallelism: the subtasks of the source or sink (this lane is subtask L->index of them) */
WTableSpec *bd_make_spec(WPlanCtx *p, Lane *L, WTable *t, const char *qname, int parallelism)
{
    assert(L->index < parallelism);
    WTableSpec *sp = wplan_table_spec(p->arena, t, qname);
    sp->cast = &L->ctx.cast;
    sp->subtask = L->index;
    sp->parallelism = parallelism;
    sp->out = L->job->env.print_out ? L->job->env.print_out : stdout;
    sp->clock = L->ctx.clock;
    sp->clock_ctx = L->ctx.clock_ctx;
    return sp;
}

const WConnector *bd_find_connector(WPlanCtx *p, WTable *t) { return wplan_table_connector(t, p->err); }

/* ---- building ---- */

static WOperator *build(WPlanCtx *p, Lane *L, WRel *r);

static WOperator *built_lookup(Lane *L, WRel *r)
{
    for (int i = 0; i < L->nbuilt; i++) if (L->built[i].rel == r) return L->built[i].op;
    return NULL;
}

static void built_add(Lane *L, WRel *r, WOperator *op, int stream_op)
{
    if (L->nbuilt == L->cap_built) {
        L->cap_built = L->cap_built ? L->cap_built * 2 : 16;
        L->built = wrealloc(L->built, sizeof(Built) * (size_t)L->cap_built);
    }
    L->built[L->nbuilt++] = (Built){r, op, stream_op};
    op->untimed = stream_op < 0;    /* plumbing Flink has no operator for: its time is its caller's */
    wckpt_registry_tag(&L->registry, r->id);    /* checkpoints: backends/timers it created */
}

/* The job-graph operator that exec node r's runtime operator in `role` implements (-1: none, the
   node is an edge of the job graph — Exchange, Union — or folded into its consumer). */
int bd_stream_op_of(const WJob *j, const WRel *r, WStreamOpRole role)
{
    for (int k = 0; j->graph && k < j->graph->nops; k++)
        if (j->graph->ops[k].rel == r && j->graph->ops[k].role == role) return k;
    return -1;
}

/* Operators are named as the job graph names them ("Source: orders[1]", "GroupAggregate[4]",
   "ConstraintEnforcer[5]"); the runtime's own plumbing by its exec node ("Exchange[3]"). The id
   stays the exec node's (checkpoints key state by it). */
static void set_name(WPlanCtx *p, Lane *L, WOperator *op, WRel *r, int stream_op)
{
    op->id = r->id;
    op->name = stream_op >= 0 ? wa_strdup(p->arena, L->job->graph->ops[stream_op].name)
                              : wa_sprintf(p->arena, "%s[%d]", wrel_kind_name(r->kind), r->id);
}

/* Registers op (built for r as job-graph operator stream_op) in lane L, fed by `input` (may be NULL). */
WOperator *bd_add_op(WPlanCtx *p, Lane *L, WRel *r, WOperator *op, int stream_op, WOperator *input)
{
    set_name(p, L, op, r, stream_op);
    wjob_add_op(L->job, op);
    built_add(L, r, op, stream_op);
    if (input) wop_connect(input, op, 0);
    return op;
}

/* A pass-through operator (timestamp inserter) or a discarding one (`end: Writer`) over r's schema. */
WOperator *bd_simple_op(Lane *L, const WRel *r, const WOpOps *ops)
{
    WOperator *op = wcalloc(1, sizeof *op);
    wop_init(op, ops, &L->ctx, 1, r->out.n, r->out.types, r->out.names);
    return op;
}

/* The ConstraintEnforcer of sink `sink` (job-graph operator k) over `input`. */
WOperator *bd_build_enforcer(WPlanCtx *p, Lane *L, WRel *sink, int k, WOperator *input)
{
    WOperator *op = wop_constraint_enforcer_new(&L->ctx, sink->out.n, sink->out.types, sink->out.names, p->err);
    return op ? bd_add_op(p, L, sink, op, k, input) : NULL;
}

/* The lanes that receive from plan exchange x: those of the SinkMaterializer or sink writer it
   feeds directly (which run at the sink's parallelism), else the job's. */
int bd_exchange_recv_par(const WJob *j, const WRel *x)
{
    for (int k = 0; j->graph && k < j->graph->nops; k++) {
        const WStreamOp *o = &j->graph->ops[k];
        if ((o->kind == WR_SINK_MATERIALIZER || o->kind == WR_SINK) && o->role == WSOP_OPERATOR && o->rel &&
            o->rel->ninputs == 1 && o->rel->inputs[0] == x && o->ninputs == 1 && o->inputs[0].ship == WSHIP_HASH)
            return wjob_run_par(j, k);
    }
    return j->par;
}

/* The exchange r over `input`: with one lane the consumer reads `input` itself; with several, a
   sender ends the upstream chain and a receiver starts the downstream one. send_p lanes send
   (the job's, or a source's own parallelism); recv_p lanes receive (rebalance: rows dealt
   round-robin, else as r says: by key or to one). */
WOperator *bd_build_exchange(WPlanCtx *p, Lane *L, WRel *r, WOperator *input, int send_p, int recv_p,
                             bool rebalance)
{
    WJob *j = L->job;
    if (j->nlanes <= 1) return input;
    int xi = wjob_exchange_index(j, r);
    if (xi < 0) { werr_set(p->err, WEXC_TABLE, "Too many exchanges in one job"); return NULL; }
    wjob_exchange_setup(j, xi, send_p, recv_p, rebalance);    /* the same in every lane */
    WOperator *snd = wjob_sender_new(L, xi, r);
    L->send[xi] = snd;
    set_name(p, L, snd, r, -1);
    wjob_add_op(j, snd);
    wop_connect(input, snd, 0);
    Receiver *rc = wjob_receiver_new(L, xi, r);
    L->recv[xi] = rc;
    return bd_add_op(p, L, r, &rc->base, -1, NULL);
}

static SourceSlot *add_source(Lane *L)
{
    if (L->nsrc == L->cap_src) {
        L->cap_src = L->cap_src ? L->cap_src * 2 : 4;
        L->srcs = wrealloc(L->srcs, sizeof(SourceSlot) * (size_t)L->cap_src);
    }
    SourceSlot *s = &L->srcs[L->nsrc++];
    memset(s, 0, sizeof *s);
    return s;
}

/* The window definition of a window node over input `in`. */
WWindowDef bd_window_def(Lane *L, const WRel *r, const WRel *in)
{
    const WRelWindow *rw = wrel_window(r);
    WWindowDef d = {.kind = rw->kind, .size_ms = rw->size, .slide_ms = rw->slide,
                    .offset_ms = rw->offset, .gap_ms = rw->gap, .time_col = rw->time_col,
                    .proctime = rw->proctime, .npartition = rw->npartition, .partition = rw->partition};
    if (r->kind == WR_WINDOW_AGG && rw->attached) {
        d.attached = true;
        d.start_col = rw->start_col;
        d.end_col = rw->end_col;
    }
    /* the plan reader refuses out-of-range indexes (plan_reader_check.c); never index past the row */
    assert(rw->time_col < in->out.n || r->kind == WR_GLOBAL_WINDOW_AGG);
    d.time_is_ltz = rw->time_col >= 0 && rw->time_col < in->out.n &&
                    in->out.types[rw->time_col]->id == WT_TIMESTAMP_LTZ;
    d.tz = L->ctx.cast.tz;
    return d;
}

/* table.exec.mini-batch.size when mini-batch is on in a streaming job, else -1. */
int64_t bd_minibatch_size(WPlanCtx *p)
{
    bool on = false;
    int64_t size = -1;
    WError tmp;
    werr_clear(&tmp);
    const char *mode = wopts_get(p->config, "execution.runtime-mode");
    if (mode && !strcasecmp(mode, "batch")) return -1;
    wopts_get_bool(p->config, "table.exec.mini-batch.enabled", false, &on, &tmp);
    if (!on) return -1;
    wopts_get_long(p->config, "table.exec.mini-batch.size", -1, &size, &tmp);
    return size > 0 ? size : -1;
}

/* GlobalGroupAggregate, IncrementalGroupAggregate: input the (partial) keys first */
bool mb_global_group_agg(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb)
{
    int *keys = WA_ARRAY(p->arena, int, r->nkeys ? r->nkeys : 1);
    for (int k = 0; k < r->nkeys; k++) keys[k] = k;
    mb->mode = WMB_FOLD;
    mb->nkeys = r->nkeys;
    mb->keys = keys;
    /* MiniBatchIncrementalGroupAggFunction emits through a HashMap of the final keys */
    if (r->kind == WR_INCREMENTAL_GROUP_AGG) mb->nout_keys = wrel_agg(r)->nfinal_keys;
    return true;
}

/* A kind Flink does not make mini-batch aware. */
bool mb_none(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb) { return false; }

/* The exchange behind table scan r when its source runs at its own parallelism ('scan.parallelism':
   plan/scan_parallelism.h): from the source's lanes to the job's, round-robin (Flink's REBALANCE)
   or, for a source that emits updates, keyed by the primary key. NULL when r needs none. */
WRel *bd_scan_exchange_rel(WPlanCtx *p, WJob *j, WRel *r)
{
    if (r->kind != WR_SCAN || j->nlanes <= 1) return NULL;
    int k = bd_stream_op_of(j, r, WSOP_OPERATOR);
    bool keyed = wscan_keyed_by_pk(r);
    if (k < 0 || (wjob_run_par(j, k) == j->par && !keyed)) return NULL;
    int xi = wjob_scan_exchange(j, r);
    if (xi >= 0) return j->exch[xi];
    const WTable *t = wrel_scan(r)->table;
    int *keys = WA_ARRAY(p->arena, int, t->npk ? t->npk : 1);
    int nkeys = keyed ? wscan_pk_out_cols(r, keys) : 0;
    WRel *x = WA_NEW(p->arena, WRel);
    x->kind = WR_EXCHANGE;
    x->id = r->id;
    x->ninputs = 1;
    x->inputs = WA_ARRAY(p->arena, WRel *, 1);
    x->inputs[0] = r;
    x->out = r->out;
    x->changelog = r->changelog;
    x->nkeys = nkeys;
    x->keys = keys;
    return x;
}

WOperator *bd_materializer_new(Lane *L, WRel *r)
{
    WRel *in = r->inputs[0];
    const WRelSink *sk = wrel_sink(r);
    WSinkMaterializerSpec sp = {
        .in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
        .ttl_ms = r->ttl_ms, .out = {r->out.n, r->out.types, r->out.names}};
    if (sk->conflict == ACF_ERROR || sk->conflict == ACF_NOTHING) {
        /* Flink's WatermarkCompactingSinkMaterializer matches rows by the input's upsert key */
        sp.conflict = sk->conflict == ACF_ERROR ? WSCM_ERROR : WSCM_NOTHING;
        sp.key_names = sk->key_names;
        sp.nuk = in->nunique > 0 ? in->nunique : 0;
        sp.uk = in->unique;
    }
    return wop_sink_materializer_new(&L->ctx, &sp);
}

/* The ConstraintEnforcer (job-graph operator) that feeds SinkMaterializer r, -1 when none. */
static int enforcer_before(const WJob *j, const WRel *r)
{
    int k = bd_stream_op_of(j, r, WSOP_OPERATOR);
    if (k < 0 || j->graph->ops[k].ninputs != 1) return -1;
    int from = j->graph->ops[k].inputs[0].from;
    if (j->graph->ops[from].role == WSOP_WM_TIMESTAMP_ASSIGNER) {     /* ON CONFLICT DO ERROR / NOTHING */
        if (j->graph->ops[from].ninputs != 1) return -1;
        from = j->graph->ops[from].inputs[0].from;
    }
    return j->graph->ops[from].role == WSOP_CONSTRAINT_ENFORCER ? from : -1;
}

/* Flink's CommonExecSink order: input -> ConstraintEnforcer -> keyBy(primary key) ->
   SinkMaterializer (whose exec node sits above the exchange in weir's exec graph). */
static WOperator *build_materialized(WPlanCtx *p, Lane *L, WRel *r, int enforcer)
{
    WRel *x = r->inputs[0];
    WRel *below = x->kind == WR_EXCHANGE ? x->inputs[0] : x;
    WOperator *in = build(p, L, below);
    if (!in) return NULL;
    WOperator *enf = bd_build_enforcer(p, L, (WRel *)L->job->graph->ops[enforcer].rel, enforcer, in);
    if (!enf) return NULL;
    WOperator *fed = x->kind == WR_EXCHANGE ? bd_build_exchange(p, L, x, enf, L->job->par, bd_exchange_recv_par(L->job, x), false) : enf;
    if (!fed) return NULL;
    int ka = bd_stream_op_of(L->job, r, WSOP_WM_TIMESTAMP_ASSIGNER);
    if (ka >= 0) fed = bd_add_op(p, L, r, bd_simple_op(L, r, &PASS_OPS), ka, fed);
    if (!fed) return NULL;
    WOperator *op = bd_materializer_new(L, r);
    return op ? bd_add_op(p, L, r, op, bd_stream_op_of(L->job, r, WSOP_OPERATOR), fed) : NULL;
}

/* ---- build operations several kinds share ---- */

/* The runtime join kind of a Join or WindowJoin node. */
WJoinKind bd_join_kind(const WRelJoin *rj)
{
    return rj->semi ? WJK_SEMI : rj->anti ? WJK_ANTI
         : rj->type == AJ_LEFT ? WJK_LEFT : rj->type == AJ_RIGHT ? WJK_RIGHT
         : rj->type == AJ_FULL ? WJK_FULL : WJK_INNER;
}

WOperator *bd_scan(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WJob *j = L->job;
    WOperator *op = wcalloc(1, sizeof *op);
    wop_init(op, &PASS_OPS, &L->ctx, 1, r->out.n, r->out.types, r->out.names);
    /* a scan runs at its own parallelism (scan.parallelism, else the job's) */
    int src_par = wjob_run_par(j, bd_stream_op_of(j, r, WSOP_OPERATOR));
    if (L->index >= src_par) return op;     /* beyond the source's subtasks: an idle copy, no source */
    SourceSlot *s = add_source(L);
    s->rel = r;
    s->head = op;
    if (r->kind == WR_SCAN) {
        const WRelScan *sc = wrel_scan(r);
        const WConnector *c = bd_find_connector(p, sc->table);
        if (!c) { wop_free(op); L->nsrc--; return NULL; }
        if (!c->can_source) {
            werr_set(p->err, WEXC_VALIDATION,
                     "Connector '%s' can only be used as a sink. It cannot be used as a source.", c->name);
            wop_free(op);
            L->nsrc--;
            return NULL;
        }
        WTableSpec *sp = bd_make_spec(p, L, sc->table, sc->table_qname, src_par);
        if (sc->reads && r->out.n == sp->ncols) sp->col_read = sc->reads;
        if (sc->field_reads && r->out.n == sp->ncols) sp->col_fields_read = sc->field_reads;
        sp->nmeta = sc->nmeta;
        sp->meta_keys = sc->meta_keys;
        const char *rmode = j->env.config ? wopts_get(j->env.config, "execution.runtime-mode") : NULL;
        sp->bounded = rmode && !strcasecmp(rmode, "batch");     /* a batch job: sources must be bounded */
        if (c->validate && !c->validate(sp, true, p->err)) { wop_free(op); L->nsrc--; return NULL; }
        s->src = c->open_source(sp, p->err);
        if (!s->src) { wop_free(op); L->nsrc--; return NULL; }
    }
    int cap = L->ctx.chunk_rows;
    if (s->src && s->src->min_chunk_rows > cap) cap = s->src->min_chunk_rows;   /* -U/+U of one record */
    s->chunk = wchunk_new(r->out.n, r->out.types, cap);
    return op;
}

/* SortLimit / Limit: a rank over the whole input */
WOperator *bd_rank(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelRank *rr = wrel_rank(r);
    WSortKey *sk = WA_ARRAY(p->arena, WSortKey, r->nsort ? r->nsort : 1);
    for (int i = 0; i < r->nsort; i++)
        sk[i] = (WSortKey){r->sort_cols[i], r->sort_desc[i], r->sort_nulls_first[i]};
    WRankSpec sp = {
        .in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
        .nsort = r->nsort, .sort = sk, .func = (WRankFunc)rr->func,
        .strategy = (WRankStrategy)rr->strategy, .rank_start = rr->start, .rank_end = rr->end,
        .output_rank_number = rr->output_number, .nuk = in->nunique > 0 ? in->nunique : 0,
        .uk = in->unique, .input_retracts = r->input_retracts,
        .generate_update_before = r->generate_update_before, .ttl_ms = r->ttl_ms,
        .out = {r->out.n, r->out.types, r->out.names}};
    return wop_rank_new(&L->ctx, &sp);
}

WOperator *bd_sort(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    WSortKeySpec *ks = WA_ARRAY(p->arena, WSortKeySpec, r->nsort ? r->nsort : 1);
    for (int i = 0; i < r->nsort; i++)
        ks[i] = (WSortKeySpec){r->sort_cols[i], r->sort_desc[i], r->sort_nulls_first[i]};
    if (r->kind == WR_SORT) {
        WSortOpSpec sp = {.ncols = r->out.n, .types = r->out.types, .names = r->out.names,
                          .nkeys = r->nsort, .keys = ks, .offset = wrel_sort(r)->offset, .fetch = wrel_sort(r)->fetch};
        return wop_sort_new(&L->ctx, &sp);
    }
        bool rowtime = r->nsort && in->out.types[r->sort_cols[0]]->time_attr == WTA_ROWTIME;
        WTemporalSortSpec sp = {.ncols = r->out.n, .types = r->out.types, .names = r->out.names,
                                .nkeys = r->nsort, .keys = ks, .rowtime = rowtime};
        return wop_temporal_sort_new(&L->ctx, &sp);
}

/* OverRank: the rank rule replaces it before the exec graph (logical only); not applicable. */
WOperator *bd_not_a_runtime_node(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    werr_set(p->err, WEXC_TABLE, "The operator %s is not supported yet by the runtime.", wrel_kind_name(r->kind));
    return NULL;
}

static WOperator *build(WPlanCtx *p, Lane *L, WRel *r)
{
    WJob *j = L->job;
    WRel *scan_x = bd_scan_exchange_rel(p, j, r);     /* consumers of such a scan read the exchange */
    WOperator *op = built_lookup(L, scan_x ? scan_x : r);
    if (op) return op;
    if (r->kind == WR_SINK_MATERIALIZER && enforcer_before(j, r) >= 0)
        return build_materialized(p, L, r, enforcer_before(j, r));
    WOperator **ins = WA_ARRAY(p->arena, WOperator *, r->ninputs ? r->ninputs : 1);
    for (int i = 0; i < r->ninputs; i++) {
        ins[i] = build(p, L, r->inputs[i]);
        if (!ins[i]) return NULL;
    }
    if (wjobgraph_folds_calc(r)) return ins[0];     /* no operator in Flink's job: reads its input */
    assert((unsigned)r->kind < WR__COUNT);
    bool done = false;      /* the kind registered and connected its operators itself */
    op = wkinds_build[r->kind]->build(p, L, r, ins, &done);
    if (!op || done) return op;
    int64_t mb_size = bd_minibatch_size(p);
    WMiniBatchSpec mb = {.size = mb_size};
    if (mb_size > 0 && wkinds_build[r->kind]->bundle(p, r, &mb)) wop_minibatch_enable(op, &mb);
    /* a Union is no operator of the job graph (its inputs feed its consumer): the runtime's merge;
       a Calc the job graph folds into the scan below (a pushed-down projection / filter, which
       Flink's source does) runs as part of that source: neither is a stream operator */
    int k = r->kind == WR_UNION ? -1 : bd_stream_op_of(j, r, WSOP_OPERATOR);
    set_name(p, L, op, r, k);
    wjob_add_op(j, op);
    built_add(L, r, op, k);
    if (scan_x) {   /* the source's lanes send to the job's */
        assert(r->ninputs == 0);
        bool keyed = scan_x->nkeys > 0;
        return bd_build_exchange(p, L, scan_x, op, wjob_run_par(j, k), j->par, !keyed);
    }
    for (int i = 0; i < r->ninputs; i++) {
        wop_connect(ins[i], op, i);
        /* insight: an input behind a hash exchange is keyed by the exchange's keys */
        const WRel *x = r->inputs[i];
        if (x->kind == WR_EXCHANGE && !wrel_exchange(x)->single && !wrel_exchange(x)->collect && x->nkeys > 0)
            wop_insight_keys(op, i, x->nkeys, x->keys);
    }
    return op;
}

WOperator *wjob_build_node(WPlanCtx *p, Lane *L, WRel *r) { return build(p, L, r); }

/* ---------------------------------------------------------------- columns a scan's readers use */
typedef struct ReadMarks {
    WRel **seen;
    int nseen, cap;
} ReadMarks;

/* Nodes between a Calc and a changelog scan that pass columns through unchanged: Flink pushes the
   projection into the scan below them (keeping the primary key that ChangelogNormalize needs), so
   ChangelogNormalize sees only the columns read above it and drops an update of the others. */
static bool reads_pass_through(const WRel *r)
{
    return (r->kind == WR_EXCHANGE || r->kind == WR_DROP_UPDATE_BEFORE || r->kind == WR_CHANGELOG_NORMALIZE) &&
           r->ninputs == 1 && r->inputs[0]->out.n == r->out.n;
}

/* `used` (over rel's output columns) is read by one consumer of rel: pass it down through
   watermark assigners (which also read the rowtime and their expression) and the pass-through
   nodes above a changelog scan (ChangelogNormalize also reads its keys and its filter) to the
   scan. */
static void reads_into(WPlanCtx *p, WRel *rel, const uint8_t *used)
{
    int n = rel->out.n;
    if (reads_pass_through(rel)) {
        uint8_t *u = wa_zalloc(p->arena, (size_t)(n ? n : 1));
        for (int i = 0; i < n; i++) u[i] = used ? used[i] : 1;
        if (rel->kind == WR_CHANGELOG_NORMALIZE) {
            for (int k = 0; k < rel->nkeys; k++)
                if (rel->keys[k] >= 0 && rel->keys[k] < n) u[rel->keys[k]] = 1;
            wexpr_mark_columns(wrel_normalize(rel)->filter, u, n);
        }
        reads_into(p, rel->inputs[0], u);
        return;
    }
    if (rel->kind == WR_WATERMARK && rel->ninputs == 1 && rel->inputs[0]->out.n == n) {
        uint8_t *u = wa_zalloc(p->arena, (size_t)(n ? n : 1));
        for (int i = 0; i < n; i++) u[i] = used ? used[i] : 1;
        const WRelWatermark *ww = wrel_watermark(rel);
        if (ww->rowtime_col >= 0 && ww->rowtime_col < n) u[ww->rowtime_col] = 1;
        wexpr_mark_columns(ww->expr, u, n);
        reads_into(p, rel->inputs[0], u);
        return;
    }
    if (rel->kind != WR_SCAN) return;
    WRelScan *sc = wrel_scan_mut(rel);
    if (!sc->reads) sc->reads = wa_zalloc(p->arena, (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) sc->reads[i] |= used ? used[i] : 1;
}

static void mark_reads(WPlanCtx *p, ReadMarks *m, WRel *r)
{
    for (int i = 0; i < m->nseen; i++) if (m->seen[i] == r) return;
    if (m->nseen == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 64;
        WRel **g = WA_ARRAY(p->arena, WRel *, m->cap);
        for (int i = 0; i < m->nseen; i++) g[i] = m->seen[i];
        m->seen = g;
    }
    m->seen[m->nseen++] = r;
    for (int i = 0; i < r->ninputs; i++) {
        WRel *in = r->inputs[i];
        if (r->kind == WR_CALC) {
            int n = in->out.n;
            uint8_t *u = wa_zalloc(p->arena, (size_t)(n ? n : 1));
            for (int k = 0; k < wrel_calc(r)->nexprs; k++) wexpr_mark_columns(wrel_calc(r)->exprs[k], u, n);
            wexpr_mark_columns(wrel_calc(r)->cond, u, n);
            reads_into(p, in, u);
        } else if (!reads_pass_through(r)) {
            reads_into(p, in, NULL);   /* any other consumer reads every column */
        }                              /* (a pass-through node's consumers mark through it) */
        mark_reads(p, m, in);
    }
}

/* Below a sink materializer that compacts on watermarks (ON CONFLICT DO ERROR / NOTHING), every
   WatermarkAssigner cuts its chunks at each watermark advance: Flink's SQL sources emit a
   watermark after every record, and each one compacts the changes buffered before it. */
static int64_t gcd64(int64_t a, int64_t b) { while (b) { int64_t t = a % b; a = b; b = t; } return a; }

/* ... and below a LocalWindowAggregate on event time, every WatermarkAssigner also cuts where its
   watermark crosses one of the aggregate's trigger points (exec/local_window_agg.c: its buffer is
   flushed there, as Flink's is on the per-record watermark). */
static void mark_watermark_cuts(WRel *r, bool below, int64_t interval)
{
    if (r->kind == WR_SINK_MATERIALIZER && (wrel_sink(r)->conflict == ACF_ERROR || wrel_sink(r)->conflict == ACF_NOTHING))
        below = true;
    if (r->kind == WR_LOCAL_WINDOW_AGG) {
        const WRelWindow *rw = wrel_window(r);
        int64_t i = rw->kind == WWIN_TUMBLE ? rw->size : rw->slide;
        if (!rw->proctime && !rw->attached && i > 0) interval = interval > 0 ? gcd64(interval, i) : i;
    }
    if (r->kind == WR_WATERMARK) {
        WRelWatermark *ww = wrel_watermark_mut(r);
        if (below) ww->every_record = true;
        if (interval > 0) ww->trigger_interval = ww->trigger_interval > 0 ? gcd64(ww->trigger_interval, interval) : interval;
    }
    for (int i = 0; i < r->ninputs; i++) mark_watermark_cuts(r->inputs[i], below, interval);
}

/* ---------------------------------------------------------------- fields of ROW columns read */
/* Which fields of a scan's ROW columns the plan reads: a consumer's demand (per output column, a
   mask of fields, WREL_ALL_FIELDS for the whole value) goes down through Calcs (a column passed
   through carries its consumers' demand; FIELD(column, k) reads field k only; any other use reads
   the whole value), WatermarkAssigners and the pass-through nodes; every other kind reads all of
   its inputs. Nodes are visited consumers first (the reverse of a post-order walk from the roots),
   so a node's demand is complete before it passes it on. A source may leave the fields no one
   reads unconverted (the JSON reader: VARCHAR fields, which any JSON value converts to); a regular
   join keeps its own output's demand (WRelJoin.out_reads), and its records store NULL in the
   columns nothing reads. */
typedef struct DemandNode {
    WRel *rel;
    uint64_t *want;                     /* per output column: the fields its consumers read */
} DemandNode;

typedef struct FieldDemand {
    DemandNode *nodes;                  /* post-order: inputs before their consumers */
    int n, cap;
} FieldDemand;

static int demand_index(const FieldDemand *d, const WRel *r)
{
    for (int i = 0; i < d->n; i++) if (d->nodes[i].rel == r) return i;
    return -1;
}

static void demand_post_order(WPlanCtx *p, FieldDemand *d, WRel *r)
{
    if (demand_index(d, r) >= 0) return;
    for (int i = 0; i < r->ninputs; i++) demand_post_order(p, d, r->inputs[i]);
    d->nodes = wa_grow(p->arena, d->nodes, d->n, &d->cap, sizeof *d->nodes, 64);
    d->nodes[d->n++] = (DemandNode){r, WA_ARRAY(p->arena, uint64_t, r->out.n ? r->out.n : 1)};
}

/* Add what e reads of its input's columns (n of them) to want. */
static void demand_expr(const WExpr *e, uint64_t *want, int n)
{
    if (!e) return;
    if (e->kind == WX_COLUMN) {
        if (e->col >= 0 && e->col < n) want[e->col] = WREL_ALL_FIELDS;
        return;
    }
    if (e->kind == WX_CALL && e->func && !strcmp(e->func->name, "FIELD") && e->nargs == 2 &&
        e->args[0]->kind == WX_COLUMN && e->args[1]->kind == WX_LITERAL && !e->args[1]->is_null) {
        int c = e->args[0]->col;
        int64_t k = e->args[1]->lit.i;
        if (c >= 0 && c < n) want[c] |= k >= 0 && k < 63 ? (uint64_t)1 << k : WREL_ALL_FIELDS;
        return;
    }
    for (int i = 0; i < e->nargs; i++) demand_expr(e->args[i], want, n);
}

/* Pass node `at`'s demand (complete: its consumers came before it) on to its inputs; a scan keeps
   its own as the fields read. */
static void demand_node(FieldDemand *d, int at)
{
    WRel *r = d->nodes[at].rel;
    const uint64_t *mine = d->nodes[at].want;
    int n = r->out.n;
    if (r->kind == WR_SCAN) {
        wrel_scan_mut(r)->field_reads = d->nodes[at].want;
        return;
    }
    if (r->kind == WR_JOIN) wrel_join_mut(r)->out_reads = d->nodes[at].want;     /* its record state */
    for (int i = 0; i < r->ninputs; i++) {
        WRel *in = r->inputs[i];
        int at_in = demand_index(d, in);
        assert(at_in >= 0 && at_in < at);
        uint64_t *want = d->nodes[at_in].want;
        int nin = in->out.n;
        if (r->kind == WR_CALC) {
            const WRelCalc *calc = wrel_calc(r);
            for (int k = 0; k < calc->nexprs; k++) {
                const WExpr *e = calc->exprs[k];
                if (e->kind == WX_COLUMN && e->col >= 0 && e->col < nin && k < n) want[e->col] |= mine[k];
                else demand_expr(e, want, nin);
            }
            demand_expr(calc->cond, want, nin);
        } else if ((reads_pass_through(r) || r->kind == WR_WATERMARK) && nin == n) {
            for (int c = 0; c < n; c++) want[c] |= mine[c];
            if (r->kind == WR_WATERMARK) {
                const WRelWatermark *ww = wrel_watermark(r);
                if (ww->rowtime_col >= 0 && ww->rowtime_col < n) want[ww->rowtime_col] = WREL_ALL_FIELDS;
                demand_expr(ww->expr, want, n);
            } else {
                /* ChangelogNormalize and a hash exchange read their keys, the normalize its filter */
                for (int k = 0; k < r->nkeys; k++)
                    if (r->keys[k] >= 0 && r->keys[k] < n) want[r->keys[k]] = WREL_ALL_FIELDS;
                if (r->kind == WR_CHANGELOG_NORMALIZE) demand_expr(wrel_normalize(r)->filter, want, n);
            }
        } else {
            for (int c = 0; c < nin; c++) want[c] = WREL_ALL_FIELDS;
        }
    }
}

static void mark_field_reads(WPlanCtx *p, WRel **roots, int nroots)
{
    FieldDemand d = {0};
    for (int i = 0; i < nroots; i++) demand_post_order(p, &d, roots[i]);
    for (int i = 0; i < nroots; i++) {
        DemandNode *root = &d.nodes[demand_index(&d, roots[i])];
        for (int c = 0; c < root->rel->out.n; c++) root->want[c] = WREL_ALL_FIELDS;
    }
    for (int i = d.n - 1; i >= 0; i--) demand_node(&d, i);
}

void wjob_mark_scan_reads(WPlanCtx *p, WRel **roots, int nroots)
{
    ReadMarks m = {0};
    for (int i = 0; i < nroots; i++) {
        mark_reads(p, &m, roots[i]);
        mark_watermark_cuts(roots[i], false, 0);
    }
    mark_field_reads(p, roots, nroots);
}
