/*
 * build.c — operators from exec nodes: one operator per node of the exec graph in a lane (sources
 * with their connectors, calc, watermarks, every stateful operator, exchanges' senders and
 * receivers, sinks), with the connector specs and window definitions they need. job.c calls it
 * once per lane and root. The operator of each node kind and its mini-batch bundle are its row of
 * BUILD_KIND_OPS (wjob_check_kind_ops: no kind without them). May call exec/, connectors/,
 * state/ through exec, types/, common/.
 */
#include "job_internal.h"
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
static const WOpOps DROP_UB_OPS = {.process = drop_ub_process};

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

static const WOpOps SINK_OPS = {.process = sink_process, .watermark = sink_watermark, .end_input = sink_end,
                                .destroy = sink_destroy};

/* StreamRecordTimestampInserter: Flink copies the rowtime column into the StreamRecord's timestamp
   for the sink; a weir row has no timestamp apart from its rowtime column, so rows pass as they are. */
static const WOpOps TIMESTAMP_INSERTER_OPS = {.process = pass_process};

/* `end: Writer`: the discarding sink after a StreamingFileWriter (its committables end there). */
static void discard_process(WOperator *op, int input, const WChunk *in) { (void)op; (void)input; (void)in; }
static const WOpOps DISCARD_OPS = {.process = discard_process};

/* ---- table spec for connectors ---- */

/* parallelism: the subtasks of the source or sink (this lane is subtask L->index of them) */
static WTableSpec *make_spec(WPlanCtx *p, Lane *L, WTable *t, const char *qname, int parallelism)
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

/* The state the subtasks of sink node `id` share (made by the first lane that builds it). */
static WSinkShared *sink_shared(WJob *j, int id)
{
    pthread_mutex_lock(&j->mu);
    WSinkShared *sh = NULL;
    for (int i = 0; i < j->nshared && !sh; i++) if (j->shared_rel[i] == id) sh = j->shared[i];
    if (!sh) {
        if (j->nshared == j->cap_shared) {
            j->cap_shared = j->cap_shared ? j->cap_shared * 2 : 4;
            j->shared = wrealloc(j->shared, sizeof(WSinkShared *) * (size_t)j->cap_shared);
            j->shared_rel = wrealloc(j->shared_rel, sizeof(int) * (size_t)j->cap_shared);
        }
        sh = wcalloc(1, sizeof *sh);
        pthread_mutex_init(&sh->mu, NULL);
        j->shared_rel[j->nshared] = id;
        j->shared[j->nshared++] = sh;
    }
    pthread_mutex_unlock(&j->mu);
    return sh;
}

static const WConnector *find_connector(WPlanCtx *p, WTable *t) { return wplan_table_connector(t, p->err); }

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
static int stream_op_of(const WJob *j, const WRel *r, WStreamOpRole role)
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
static WOperator *add_op(WPlanCtx *p, Lane *L, WRel *r, WOperator *op, int stream_op, WOperator *input)
{
    set_name(p, L, op, r, stream_op);
    wjob_add_op(L->job, op);
    built_add(L, r, op, stream_op);
    if (input) wop_connect(input, op, 0);
    return op;
}

/* A pass-through operator (timestamp inserter) or a discarding one (`end: Writer`) over r's schema. */
static WOperator *simple_op(Lane *L, const WRel *r, const WOpOps *ops)
{
    WOperator *op = wcalloc(1, sizeof *op);
    wop_init(op, ops, &L->ctx, 1, r->out.n, r->out.types, r->out.names);
    return op;
}

/* A streaming file sink's [compact-coordinator -> compact-operator] -> [PartitionCommitter] ->
   end: Writer (fs_compact_flow.h): one set of operators for all lanes; lane 0 registers the
   single-subtask ones, lane i < npar the writer's and compact-operator i, the other lanes idle
   copies. */
static bool build_file_sink_flow(WPlanCtx *p, Lane *L, WRel *r, SinkOp *s, int npar, int kco, int kcp, int kpc,
                                 int kend)
{
    WJob *j = L->job;
    assert((kco >= 0) == (kcp >= 0));
    WFsFlow *f = wfs_flow_get(sink_shared(j, r->id), &L->ctx, npar, kco >= 0, kpc >= 0);
    const int ks[4] = {kco, kcp, kpc, kend};
    for (int q = 0; q < 4; q++) {
        if (ks[q] < 0) continue;
        bool single = q != 1;
        WOperator *op = NULL;
        if (single && L->index == 0) op = q == 0 ? wfs_flow_coordinator(f) : q == 2 ? wfs_flow_committer(f) : wfs_flow_end(f);
        else if (!single && L->index < npar) op = wfs_flow_compactor(f, L->index);
        if (op) {
            add_op(p, L, r, op, ks[q], NULL);
            wfs_flow_registered(f, op);
        } else {
            add_op(p, L, r, simple_op(L, r, &DISCARD_OPS), ks[q], NULL);
        }
    }
    if (L->index < npar) {
        s->flow = f;
        s->subtask = L->index;
        wfs_flow_attach_writer(f, &s->base, s->sink, L->index, &wrel_sink(r)->table->options);
    }
    return true;
}

/* The ConstraintEnforcer of sink `sink` (job-graph operator k) over `input`. */
static WOperator *build_enforcer(WPlanCtx *p, Lane *L, WRel *sink, int k, WOperator *input)
{
    WOperator *op = wop_constraint_enforcer_new(&L->ctx, sink->out.n, sink->out.types, sink->out.names, p->err);
    return op ? add_op(p, L, sink, op, k, input) : NULL;
}

/* The lanes that receive from plan exchange x: those of the SinkMaterializer or sink writer it
   feeds directly (which run at the sink's parallelism), else the job's. */
static int exchange_recv_par(const WJob *j, const WRel *x)
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
static WOperator *build_exchange(WPlanCtx *p, Lane *L, WRel *r, WOperator *input, int send_p, int recv_p,
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
    return add_op(p, L, r, &rc->base, -1, NULL);
}

/* A source's split name for the WatermarkAssigner's insight (WWmSplits.label). */
static void source_split_label(void *ctx, int split, char *buf, size_t bufsz)
{
    const WSource *src = ctx;
    if (src->split_label) src->split_label(src, split, buf, bufsz);
    else snprintf(buf, bufsz, "split %d", split);
}

/* A source's origin name for insight (WWmOrigin.label): "split <Flink's split id>" for a source
   with per-split watermarks, else the source's own ("file <path>"). */
static void source_origin_label(void *ctx, int split, char *buf, size_t bufsz)
{
    const WSource *src = ctx;
    char name[WINS_ORIGIN_NAME];
    source_split_label(ctx, split, name, sizeof name);
    snprintf(buf, bufsz, "%s%s", src->split_watermarks ? "split " : "", name);
}

/* The WatermarkAssigner r's configuration. Its input is a source of lane L (through Calcs): the
   source's split / file names the origin of the rows (insight's rows behind the watermark); a
   source with per-split watermarks (kafka: Flink pushes the watermark into the scan) gets one per
   split, the table's scan.watermark.* options (emit strategy, default on-periodic as Flink's;
   idle timeout, default table.exec.source.idle-timeout) and pipeline.auto-watermark-interval. */
static bool watermark_config(WPlanCtx *p, Lane *L, const WRel *r, WWmConfig *wc)
{
    const WRelWatermark *ww = wrel_watermark(r);
    *wc = (WWmConfig){.rowtime_col = ww->rowtime_col, .every_record = ww->every_record,
                      .trigger_interval_ms = ww->trigger_interval};
    const WRel *in = r->inputs[0];
    while (in->kind == WR_CALC) in = in->inputs[0];
    const WSource *src = NULL;
    for (int i = 0; in->kind == WR_SCAN && i < L->nsrc; i++)
        if (L->srcs[i].rel == in) src = L->srcs[i].src;
    /* insight: the rows' origin (a source that names its splits or files) */
    if (src && src->split_label) wc->origin = (WWmOrigin){&src->split, source_origin_label, (void *)src};
    if (!src || !src->split_watermarks) return true;
    WScanWatermark sw;
    if (!wconn_scan_watermark(&wrel_scan(in)->table->options, &sw, p->err)) return false;
    const WOptions *conf = L->job->env.config;
    wc->splits = (WWmSplits){&src->nsplits, &src->split, &src->split_finished, source_split_label, (void *)src};
    wc->periodic = sw.emit != 0;
    wc->idle_timeout_ms = sw.idle_timeout_ms >= 0 ? sw.idle_timeout_ms : L->job->idle_timeout_ms;
    wc->interval_ms = 200;
    if (conf && !wopts_get_duration_ms(conf, "pipeline.auto-watermark-interval", 200, &wc->interval_ms, p->err))
        return false;
    return true;
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
static WWindowDef window_def(Lane *L, const WRel *r, const WRel *in)
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
static int64_t minibatch_size(WPlanCtx *p)
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

/* The operators Flink makes mini-batch aware get a bundle (exec/minibatch.h): each kind's
   `bundle` operation fills in its mode and keys, or returns false (no bundle). */
static bool mb_group_agg(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb)
{
    /* MiniBatchGroupAggFunction: one change per key */
    mb->mode = WMB_COMPACT;
    mb->nkeys = r->nkeys;
    mb->keys = r->keys;
    mb->nout_keys = r->nkeys;                            /* the output starts with the keys */
    mb->generate_update_before = r->generate_update_before;
    mb->emit_unchanged = r->ttl_ms > 0;
    return true;
}

static bool mb_local_group_agg(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb)
{
    mb->mode = WMB_FOLD;
    mb->nkeys = r->nkeys;
    mb->keys = r->keys;
    return true;
}

/* GlobalGroupAggregate, IncrementalGroupAggregate: input the (partial) keys first */
static bool mb_global_group_agg(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb)
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

static bool mb_dedup(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb)
{
    /* RowTime/ProcTimeMiniBatchDeduplicate...Function */
    const WRelRank *rr = wrel_rank(r);
    mb->mode = rr->dedup_rowtime ? WMB_FOLD : rr->keep_last ? WMB_LAST_PER_KEY : WMB_FIRST_PER_KEY;
    mb->nkeys = r->nkeys;
    mb->keys = r->keys;
    return true;
}

static bool mb_join(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb)
{
    /* MiniBatchStreamingJoinOperator (not SEMI / ANTI) */
    if (wrel_join(r)->semi || wrel_join(r)->anti) return false;
    mb->mode = WMB_JOIN;
    return true;
}

static bool mb_changelog_normalize(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb)
{
    /* ProcTimeMiniBatchDeduplicateKeepLastRowFunction */
    mb->mode = WMB_LAST_PER_KEY;
    mb->nkeys = r->nkeys;
    mb->keys = r->keys;
    return true;
}

/* A kind Flink does not make mini-batch aware. */
static bool mb_none(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb) { return false; }
#define NO_MINIBATCH_BUNDLE mb_none

/* The edge in front of sink r's writer when it is not FORWARD (an edge of the job graph, so an
   exchange of the runtime into the writer's recv_p lanes): the keyBy on the primary key
   (table.exec.sink.keyed-shuffle), or a rebalance (sink.parallelism differs from its input's). */
static WOperator *build_sink_exchange(WPlanCtx *p, Lane *L, WRel *r, WOperator *input, bool keyed, int recv_p)
{
    if (L->job->nlanes <= 1) return input;
    WRel *x = NULL;
    for (int i = 0; i < L->job->nexch && !x; i++)     /* one exchange node for every lane */
        if (L->job->exch[i]->inputs[0] == r->inputs[0] && L->job->exch[i]->id == r->id)  /* the sink's id */
            x = L->job->exch[i];
    if (!x) {
        const WTable *t = wrel_sink(r)->table;
        int *phys = WA_ARRAY(p->arena, int, t->ncols ? t->ncols : 1);
        int np = wtable_physical(t, phys);
        int *keys = WA_ARRAY(p->arena, int, t->npk ? t->npk : 1);
        for (int k = 0; k < t->npk; k++)
            for (int i = 0; i < np; i++) if (phys[i] == t->pk[k]) keys[k] = i;
        x = WA_NEW(p->arena, WRel);
        x->kind = WR_EXCHANGE;
        x->id = r->id;
        x->ninputs = 1;
        x->inputs = WA_ARRAY(p->arena, WRel *, 1);
        x->inputs[0] = r->inputs[0];
        x->out = r->inputs[0]->out;
        x->changelog = r->inputs[0]->changelog;
        x->nkeys = keyed ? t->npk : 0;
        x->keys = keys;
    }
    return build_exchange(p, L, x, input, L->job->par, recv_p, !keyed);
}

/* The exchange behind table scan r when its source runs at its own parallelism ('scan.parallelism':
   plan/scan_parallelism.h): from the source's lanes to the job's, round-robin (Flink's REBALANCE)
   or, for a source that emits updates, keyed by the primary key. NULL when r needs none. */
static WRel *scan_exchange_rel(WPlanCtx *p, WJob *j, WRel *r)
{
    if (r->kind != WR_SCAN || j->nlanes <= 1) return NULL;
    int k = stream_op_of(j, r, WSOP_OPERATOR);
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

static WOperator *materializer_new(Lane *L, WRel *r)
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
    int k = stream_op_of(j, r, WSOP_OPERATOR);
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
    WOperator *enf = build_enforcer(p, L, (WRel *)L->job->graph->ops[enforcer].rel, enforcer, in);
    if (!enf) return NULL;
    WOperator *fed = x->kind == WR_EXCHANGE ? build_exchange(p, L, x, enf, L->job->par, exchange_recv_par(L->job, x), false) : enf;
    if (!fed) return NULL;
    int ka = stream_op_of(L->job, r, WSOP_WM_TIMESTAMP_ASSIGNER);
    if (ka >= 0) fed = add_op(p, L, r, simple_op(L, r, &PASS_OPS), ka, fed);
    if (!fed) return NULL;
    WOperator *op = materializer_new(L, r);
    return op ? add_op(p, L, r, op, stream_op_of(L->job, r, WSOP_OPERATOR), fed) : NULL;
}

/* ---- the operator of each node kind (BUILD_KIND_OPS) ----

   build_X(p, L, r, ins, done) makes the runtime operator of exec node r in lane L, its inputs'
   operators already built (ins, in r's input order). It returns the operator for build() to
   register, name and connect, or NULL with p->err set; a kind that registers and connects its
   operators itself (the sink's chain, an exchange's sender/receiver) sets *done. */
static WOperator *bd_scan(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WJob *j = L->job;
    WOperator *op = wcalloc(1, sizeof *op);
    wop_init(op, &PASS_OPS, &L->ctx, 1, r->out.n, r->out.types, r->out.names);
    /* a scan runs at its own parallelism (scan.parallelism, else the job's) */
    int src_par = wjob_run_par(j, stream_op_of(j, r, WSOP_OPERATOR));
    if (L->index >= src_par) return op;     /* beyond the source's subtasks: an idle copy, no source */
    SourceSlot *s = add_source(L);
    s->rel = r;
    s->head = op;
    if (r->kind == WR_SCAN) {
        const WRelScan *sc = wrel_scan(r);
        const WConnector *c = find_connector(p, sc->table);
        if (!c) { wop_free(op); L->nsrc--; return NULL; }
        if (!c->can_source) {
            werr_set(p->err, WEXC_VALIDATION,
                     "Connector '%s' can only be used as a sink. It cannot be used as a source.", c->name);
            wop_free(op);
            L->nsrc--;
            return NULL;
        }
        WTableSpec *sp = make_spec(p, L, sc->table, sc->table_qname, src_par);
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

static WOperator *bd_calc(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    return wop_calc_new(&L->ctx, r->inputs[0]->out.n, r->inputs[0]->out.types, wrel_calc(r)->nexprs, wrel_calc(r)->exprs, wrel_calc(r)->cond,
                        r->out.types, r->out.names);
}

static WOperator *bd_correlate(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    const WRelCorrelate *rc = wrel_correlate(r);
    WCorrelateSpec sp = {
        .in_ncols = r->inputs[0]->out.n, .in_types = r->inputs[0]->out.types, .nleft = rc->nleft_out,
        .collection = rc->collection, .ordinality = rc->ordinality, .left_join = rc->join_type == AJ_LEFT,
        .cond = rc->cond, .ncols = r->out.n, .types = r->out.types, .names = r->out.names};
    return wop_correlate_new(&L->ctx, &sp);
}

static WOperator *bd_watermark(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WWmConfig wc;
    if (!watermark_config(p, L, r, &wc)) return NULL;
    return wop_watermark_new(&L->ctx, wrel_watermark(r)->expr, &wc, r->out.n, r->out.types, r->out.names);
}

static WOperator *bd_union(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    return wop_union_new(&L->ctx, r->ninputs, r->out.n, r->out.types, r->out.names);
}

static WOperator *bd_expand(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    const WRelExpand *e = wrel_expand(r);
    return wop_expand_new(&L->ctx, e->n, e->src, e->ids, r->out.n, r->out.types, r->out.names);
}

static WOperator *bd_replicate_rows(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    return wop_replicate_rows_new(&L->ctx, r->out.n, r->out.types, r->out.names);
}

static WOperator *bd_sink(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WJob *j = L->job;
    const WRelSink *sk = wrel_sink(r);
    *done = true;
    /* [ConstraintEnforcer] -> [StreamRecordTimestampInserter] -> the writer -> [end: Writer],
       as the job graph expands the sink (a materialized sink's enforcer is in front of the
       SinkMaterializer: build_materialized) */
    WOperator *feed = ins[0];
    int ke = r->inputs[0]->kind == WR_SINK_MATERIALIZER ? -1 : stream_op_of(j, r, WSOP_CONSTRAINT_ENFORCER);
    if (ke >= 0 && !(feed = build_enforcer(p, L, r, ke, feed))) return NULL;
    int ki = stream_op_of(j, r, WSOP_TIMESTAMP_INSERTER);
    if (ki >= 0) feed = add_op(p, L, r, simple_op(L, r, &TIMESTAMP_INSERTER_OPS), ki, feed);
    int ks = stream_op_of(j, r, WSOP_OPERATOR);
    WShip ship = ks >= 0 && j->graph->ops[ks].ninputs == 1 ? j->graph->ops[ks].inputs[0].ship : WSHIP_FORWARD;
    int npar = wjob_run_par(j, ks);     /* the writer's subtasks */
    /* right behind a source at its own parallelism: its exchange (scan_exchange_rel) already
       brought the rows to the job's lanes */
    if (ship == WSHIP_REBALANCE && npar == j->par && scan_exchange_rel(p, j, r->inputs[0]))
        ship = WSHIP_FORWARD;
    /* an exchange of the plan right below the writer is that edge already */
    bool plan_edge = r->inputs[0]->kind == WR_EXCHANGE && ke < 0 && ki < 0;
    if (sk->table && (ship == WSHIP_HASH || ship == WSHIP_REBALANCE) && !plan_edge &&
        !(feed = build_sink_exchange(p, L, r, feed, ship == WSHIP_HASH, npar)))
        return NULL;
    /* a FORWARD writer runs where its input does: the job's lanes */
    if (sk->table && ship != WSHIP_HASH && ship != WSHIP_REBALANCE && r->inputs[0]->kind != WR_SINK_MATERIALIZER)
        npar = j->par;
    SinkOp *s = wcalloc(1, sizeof *s);
    wop_init(&s->base, &SINK_OPS, &L->ctx, 1, r->out.n, r->out.types, r->out.names);
    if (!sk->table) {
        s->is_collect = true;
        if (L->index == 0) s->collect = j->env.collect;
    } else if (L->index >= npar) {
        /* beyond the sink's subtasks: an idle copy that opens no sink and receives nothing */
    } else {
        const WConnector *c = find_connector(p, sk->table);
        if (!c) { wop_free(&s->base); return NULL; }
        if (!c->can_sink) {
            werr_set(p->err, WEXC_VALIDATION,
                     "Connector '%s' can only be used as a source. It cannot be used as a sink.", c->name);
            wop_free(&s->base);
            return NULL;
        }
        WTableSpec *sp = make_spec(p, L, sk->table, sk->qname, npar);
        if (sk->overwrite && !c->can_overwrite) {
            werr_set(p->err, WEXC_VALIDATION,
                     "INSERT OVERWRITE requires that the underlying DynamicTableSink of table '%s' implements "
                     "the SupportsOverwrite interface.", sk->qname);
            wop_free(&s->base);
            return NULL;
        }
        const char *mode = j->env.config ? wopts_get(j->env.config, "execution.runtime-mode") : NULL;
        sp->overwrite = sk->overwrite;
        sp->nmeta = sk->nmeta;      /* metadata columns written, after the physical ones */
        sp->meta_keys = sk->meta_keys;
        sp->nstatic = sk->nstatic;
        sp->static_keys = sk->static_keys;
        sp->static_values = sk->static_values;
        sp->bounded = mode && !strcasecmp(mode, "batch");
        /* one part-file prefix for every subtask of this sink, as Flink's per-sink UUID */
        char idk[64];
        int idn = snprintf(idk, sizeof idk, "%s/%d", j->env.job_id ? j->env.job_id : "", r->id);
        uint64_t h1 = whash_bytes(idk, (size_t)idn, 0x243f6a8885a308d3ULL);
        uint64_t h2 = whash_bytes(idk, (size_t)idn, 0x13198a2e03707344ULL);
        sp->sink_uuid = wa_sprintf(p->arena, "%08x-%04x-4%03x-%04x-%012llx", (unsigned)(h1 >> 32),
                                   (unsigned)(h1 >> 16) & 0xffff, (unsigned)h1 & 0xfff,
                                   0x8000 | ((unsigned)(h2 >> 48) & 0x3fff),
                                   (unsigned long long)(h2 & 0xffffffffffffULL));
        sp->shared = sink_shared(j, r->id);
        if (c->validate && !c->validate(sp, false, p->err)) { wop_free(&s->base); return NULL; }
        s->sink = c->open_sink(sp, p->err);
        if (!s->sink) { wop_free(&s->base); return NULL; }
        if (sk->final_rows) s->final = wfinal_new(r->out.n, r->out.types);
        pthread_mutex_lock(&j->mu);
        if (j->nsinks == j->cap_sinks) {
            j->cap_sinks = j->cap_sinks ? j->cap_sinks * 2 : 4;
            j->sinks = wrealloc(j->sinks, sizeof(WSink *) * (size_t)j->cap_sinks);
        }
        j->sinks[j->nsinks++] = s->sink;
        pthread_mutex_unlock(&j->mu);
    }
    add_op(p, L, r, &s->base, stream_op_of(j, r, WSOP_OPERATOR), feed);
    WOperator *tail = &s->base;
    int kco = stream_op_of(j, r, WSOP_COMPACT_COORDINATOR);
    int kcp = stream_op_of(j, r, WSOP_COMPACT_OPERATOR);
    int kpc = stream_op_of(j, r, WSOP_PARTITION_COMMITTER);
    int kend = stream_op_of(j, r, WSOP_SINK_END);
    if (kend >= 0 && sk->table)         /* a streaming file sink */
        return build_file_sink_flow(p, L, r, s, npar, kco, kcp, kpc, kend) ? &s->base : NULL;
    if (kco >= 0) tail = add_op(p, L, r, simple_op(L, r, &DISCARD_OPS), kco, tail);
    if (kcp >= 0) tail = add_op(p, L, r, simple_op(L, r, &DISCARD_OPS), kcp, tail);
    if (kpc >= 0) tail = add_op(p, L, r, simple_op(L, r, &DISCARD_OPS), kpc, tail);
    if (kend >= 0) add_op(p, L, r, simple_op(L, r, &DISCARD_OPS), kend, tail);
    return &s->base;
}

/* an edge of the job graph */
static WOperator *bd_exchange(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WJob *j = L->job;
    *done = true;
    return build_exchange(p, L, r, ins[0], j->par, exchange_recv_par(j, r), false);
}

static WOperator *bd_drop_update_before(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WOperator *op = wcalloc(1, sizeof *op);
    wop_init(op, &DROP_UB_OPS, &L->ctx, 1, r->out.n, r->out.types, r->out.names);
    return op;
}

static WOperator *bd_group_agg(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelAgg *ag = wrel_agg(r);
    WGroupAggSpec sp = {
        .in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
        .naggs = ag->naggs, .aggs = ag->aggs, .input_retracts = r->input_retracts,
        .generate_update_before = r->generate_update_before || minibatch_size(p) > 0, .ttl_ms = r->ttl_ms,
        .state_name = "groupAggregateState",
        .out = {r->out.n, r->out.types, r->out.names}};
    return wop_group_agg_new(&L->ctx, &sp);
}

static WOperator *bd_minibatch_assigner(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    /* Flink checks the size here (the operators that buffer per mini-batch need it) */
    const WRelMiniBatch *mb = wrel_minibatch(r);
    if (mb->check_size && minibatch_size(p) <= 0) {
        werr_set(p->err, WEXC_ILLEGAL_ARG,
                 "Key: 'table.exec.mini-batch.size' , default: -1 (fallback keys: []) must be > 0.");
        return NULL;
    }
    return wop_minibatch_assigner_new(&L->ctx, mb->interval_ms, mb->rowtime, r->out.n, r->out.types,
                                      r->out.names);
}

static WOperator *bd_local_group_agg(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelAgg *ag = wrel_agg(r);
    WLocalAggSpec sp = {
        .in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
        .naggs = ag->naggs, .aggs = ag->aggs, .input_retracts = r->input_retracts,
        .out = {r->out.n, r->out.types, r->out.names}};
    return wop_local_agg_new(&L->ctx, &sp);
}

static WOperator *bd_global_group_agg(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelAgg *ag = wrel_agg(r);
    WGlobalAggSpec sp = {
        .agg_ncols = ag->agg_input.n, .agg_types = ag->agg_input.types, .in_ncols = in->out.n,
        .in_types = in->out.types, .nkeys = r->nkeys, .naggs = ag->naggs, .aggs = ag->aggs,
        .input_retracts = r->input_retracts, .generate_update_before = r->generate_update_before,
        .ttl_ms = r->ttl_ms, .state_name = "globalGroupAggregateState",
        .out = {r->out.n, r->out.types, r->out.names}};
    return wop_global_agg_new(&L->ctx, &sp);
}

static WOperator *bd_incremental_group_agg(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelAgg *ag = wrel_agg(r);
    WIncrementalAggSpec sp = {
        .agg_ncols = ag->agg_input.n, .agg_types = ag->agg_input.types, .in_ncols = in->out.n,
        .in_types = in->out.types, .nkeys = r->nkeys, .nfinal_keys = ag->nfinal_keys,
        .final_keys = ag->final_keys, .naggs = ag->naggs, .aggs = ag->aggs,
        .input_retracts = r->input_retracts, .ttl_ms = r->ttl_ms,
        .out = {r->out.n, r->out.types, r->out.names}};
    return wop_incremental_agg_new(&L->ctx, &sp);
}

static WOperator *bd_join(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    const WRelJoin *rj = wrel_join(r);
    WRel *l = r->inputs[0], *rt = r->inputs[1];
    WJoinSpec sp = {
        .kind = rj->semi ? WJK_SEMI : rj->anti ? WJK_ANTI
              : rj->type == AJ_LEFT ? WJK_LEFT : rj->type == AJ_RIGHT ? WJK_RIGHT
              : rj->type == AJ_FULL ? WJK_FULL : WJK_INNER,
        .left_ncols = l->out.n, .right_ncols = rt->out.n, .left_types = l->out.types,
        .right_types = rt->out.types, .nkeys = r->nkeys, .left_keys = r->keys, .right_keys = rj->right_keys,
        .filter_nulls = rj->key_filter_nulls, .residual = rj->cond,
        .left_nuk = l->nunique > 0 ? l->nunique : 0, .right_nuk = rt->nunique > 0 ? rt->nunique : 0,
        .left_uk = l->unique, .right_uk = rt->unique,
        .left_retracts = r->input_retracts, .right_retracts = rj->right_retracts,
        .generate_update_before = r->generate_update_before,
        .left_ttl_ms = rj->ttl_left_ms, .right_ttl_ms = rj->ttl_right_ms,
        .out = {r->out.n, r->out.types, r->out.names}};
    return wop_join_new(&L->ctx, &sp);
}

static WOperator *bd_dedup(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelRank *rr = wrel_rank(r);
    WDedupSpec sp = {
        .in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
        .keep_last = rr->keep_last, .rowtime = rr->dedup_rowtime, .time_col = r->time_col,
        .input_retracts = r->input_retracts, .generate_update_before = r->generate_update_before,
        .generate_insert_only = r->changelog == WCM_INSERT, .ttl_ms = r->ttl_ms,
        .out = {r->out.n, r->out.types, r->out.names}};
    return wop_dedup_new(&L->ctx, &sp);
}

/* SortLimit / Limit: a rank over the whole input */
static WOperator *bd_rank(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
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

static WOperator *bd_sort(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
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

static WOperator *bd_match(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    WSortKeySpec *ks = WA_ARRAY(p->arena, WSortKeySpec, r->nsort ? r->nsort : 1);
    for (int i = 0; i < r->nsort; i++)
        ks[i] = (WSortKeySpec){r->sort_cols[i], r->sort_desc[i], r->sort_nulls_first[i]};
    WMatchOpSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
                       .norder = r->nsort, .order = ks, .spec = wrel_match(r)->spec, .out_ncols = r->out.n,
                       .out_types = r->out.types, .out_names = r->out.names};
    return wop_match_new(&L->ctx, &sp);
}

static WOperator *bd_changelog_normalize(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    WChangelogNormalizeSpec sp = {
        .in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
        .generate_update_before = r->generate_update_before, .ttl_ms = r->ttl_ms,
        .filter = wrel_normalize(r)->filter, .out = {r->out.n, r->out.types, r->out.names}};
    return wop_changelog_normalize_new(&L->ctx, &sp);
}

static WOperator *bd_sink_materializer(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    return materializer_new(L, r);
}

static WOperator *bd_window_tvf(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    WWindowTvfSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types,
                         .win = window_def(L, r, in), .out = {r->out.n, r->out.types, r->out.names}};
    return wop_window_tvf_new(&L->ctx, &sp);
}

static WOperator *bd_window_agg(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelAgg *ag = wrel_agg(r);
    WWindowAggSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
                         .naggs = ag->naggs, .aggs = ag->aggs, .win = window_def(L, r, in),
                         .input_retracts = r->input_retracts, .out = {r->out.n, r->out.types, r->out.names},
                         .group_window = wrel_window(r)->legacy, .group_props = wrel_window(r)->legacy};
    return wop_window_agg_new(&L->ctx, &sp);
}

static WOperator *bd_local_window_agg(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelAgg *ag = wrel_agg(r);
    const WRelWindow *rw = wrel_window(r);
    WWindowDef d = window_def(L, r, in);
    if (rw->attached) {
        d.attached = true;
        d.start_col = rw->start_col;
        d.end_col = rw->end_col;
    }
    WLocalWindowAggSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys,
                              .keys = r->keys, .naggs = ag->naggs, .aggs = ag->aggs, .win = d,
                              .out = {r->out.n, r->out.types, r->out.names}};
    return wop_local_window_agg_new(&L->ctx, &sp);
}

static WOperator *bd_global_window_agg(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    /* the window's time attribute is the local aggregate's input column (its zone) */
    const WRelAgg *ag = wrel_agg(r);
    WRel *in = r->inputs[0], local_in = {.out = ag->agg_input};
    WWindowAggSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
                         .naggs = ag->naggs, .aggs = ag->aggs, .win = window_def(L, r, &local_in),
                         .out = {r->out.n, r->out.types, r->out.names}, .merge = true,
                         .slice_is_window = wrel_window(r)->attached, .agg_ncols = ag->agg_input.n,
                         .agg_types = ag->agg_input.types};
    return wop_window_agg_new(&L->ctx, &sp);
}

static WOperator *bd_window_rank(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelWindow *rw = wrel_window(r);
    const WRelRank *rr = wrel_rank(r);
    WSortKey *sk = WA_ARRAY(p->arena, WSortKey, r->nsort ? r->nsort : 1);
    for (int i = 0; i < r->nsort; i++) sk[i] = (WSortKey){r->sort_cols[i], r->sort_desc[i], r->sort_nulls_first[i]};
    WWindowRankSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
                          .start_col = rw->start_col, .end_col = rw->end_col, .nsort = r->nsort, .sort = sk,
                          .func = (WRankFunc)rr->func, .rank_start = rr->start, .rank_end = rr->end,
                          .output_rank_number = rr->output_number, .dedup = rw->dedup,
                          .keep_last = rr->keep_last, .proctime = rw->proctime,
                          .out = {r->out.n, r->out.types, r->out.names}};
    return wop_window_rank_new(&L->ctx, &sp);
}

static WOperator *bd_over_agg(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    WRel *in = r->inputs[0];
    const WRelAgg *ag = wrel_agg(r);
    const WRelOver *ro = wrel_over(r);
    if (ro->batch) {        /* batch */
        WSortKeySpec *ks = WA_ARRAY(p->arena, WSortKeySpec, r->nsort ? r->nsort : 1);
        for (int i = 0; i < r->nsort; i++)
            ks[i] = (WSortKeySpec){r->sort_cols[i], r->sort_desc[i], r->sort_nulls_first[i]};
        WOverBatchSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys,
                             .keys = r->keys, .nsort = r->nsort, .sort = ks, .over = ro->batch,
                             .out = {r->out.n, r->out.types, r->out.names}};
        return wop_over_batch_new(&L->ctx, &sp);
    }
    WOverAggSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
                       .time_col = r->time_col, .proctime = ro->proctime, .rows_frame = ro->rows,
                       .unbounded = ro->unbounded, .preceding = ro->preceding, .naggs = ag->naggs,
                       .aggs = ag->aggs, .out = {r->out.n, r->out.types, r->out.names}};
    if (ro->stream && ro->stream->nwindows == 1) {
        sp.ncalls = ro->stream->windows[0].ncalls;
        sp.calls = ro->stream->windows[0].calls;
    }
    return wop_over_agg_new(&L->ctx, &sp);
}

static WOperator *bd_interval_join(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    const WRelJoin *rj = wrel_join(r);
    WRel *l = r->inputs[0], *rt = r->inputs[1];
    WIntervalJoinSpec sp = {
        .kind = rj->type == AJ_LEFT ? WJK_LEFT : rj->type == AJ_RIGHT ? WJK_RIGHT
              : rj->type == AJ_FULL ? WJK_FULL : WJK_INNER,
        .left_ncols = l->out.n, .right_ncols = rt->out.n, .left_types = l->out.types,
        .right_types = rt->out.types, .nkeys = r->nkeys, .left_keys = r->keys, .right_keys = rj->right_keys,
        .left_time_col = rj->left_time_col, .right_time_col = rj->right_time_col,
        .lower_ms = wrel_interval(r)->lower_ms, .upper_ms = wrel_interval(r)->upper_ms,
        .lower_strict = wrel_interval(r)->lower_strict, .upper_strict = wrel_interval(r)->upper_strict,
        .proctime = l->out.types[rj->left_time_col]->time_attr == WTA_PROCTIME,
        .residual = rj->cond, .out = {r->out.n, r->out.types, r->out.names}};
    return wop_interval_join_new(&L->ctx, &sp);
}

static WOperator *bd_temporal_join(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    const WRelJoin *rj = wrel_join(r);
    WRel *l = r->inputs[0], *rt = r->inputs[1];
    WTemporalJoinSpec sp = {
        .left_outer = rj->type == AJ_LEFT, .left_ncols = l->out.n, .right_ncols = rt->out.n,
        .left_types = l->out.types, .right_types = rt->out.types, .nkeys = r->nkeys,
        .left_keys = r->keys, .right_keys = rj->right_keys, .left_time_col = rj->left_time_col,
        .right_time_col = rj->right_time_col, .residual = rj->cond,
        .out = {r->out.n, r->out.types, r->out.names}};
    return wop_temporal_join_new(&L->ctx, &sp);
}

static WOperator *bd_lookup_join(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    const WRelJoin *rj = wrel_join(r);
    WJob *j = L->job;
    WRel *l = r->inputs[0], *dim = rj->lookup_scan;
    const WRelScan *ds = wrel_scan(dim);
    const WConnector *c = find_connector(p, ds->table);
    if (!c) return NULL;
    /* a lookup source splits nothing: every lane (idle copies too) is one of nlanes */
    WTableSpec *ts = make_spec(p, L, ds->table, ds->table_qname, j->nlanes);
    if (c->validate && !c->validate(ts, true, p->err)) return NULL;
    WLookupJoinSpec sp = {
        .left_outer = rj->type == AJ_LEFT, .left_ncols = l->out.n, .left_types = l->out.types,
        .dim_ncols = dim->out.n, .dim_types = dim->out.types, .nkeys = r->nkeys, .left_keys = r->keys,
        .residual = rj->cond, .out = {r->out.n, r->out.types, r->out.names}};
    if (!wjob_lookup_fetcher(c, ts, r, &sp, p->err)) return NULL;
    return wop_lookup_join_new(&L->ctx, &sp);
}

static WOperator *bd_window_join(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    const WRelJoin *rj = wrel_join(r);
    const WRelWindow *rw = wrel_window(r);
    WRel *l = r->inputs[0], *rt = r->inputs[1];
    WWindowJoinSpec sp = {
        .kind = rj->semi ? WJK_SEMI : rj->anti ? WJK_ANTI
              : rj->type == AJ_LEFT ? WJK_LEFT : rj->type == AJ_RIGHT ? WJK_RIGHT
              : rj->type == AJ_FULL ? WJK_FULL : WJK_INNER,
        .left_ncols = l->out.n, .right_ncols = rt->out.n, .left_types = l->out.types,
        .right_types = rt->out.types, .nkeys = r->nkeys, .left_keys = r->keys, .right_keys = rj->right_keys,
        .left_start_col = rw->start_col, .left_end_col = rw->end_col,
        .right_start_col = rw->rstart_col, .right_end_col = rw->rend_col,
        .residual = rj->cond, .proctime = false, .out = {r->out.n, r->out.types, r->out.names}};
    return wop_window_join_new(&L->ctx, &sp);
}


/* OverRank: the rank rule replaces it before the exec graph (logical only); not applicable. */
static WOperator *bd_not_a_runtime_node(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done)
{
    werr_set(p->err, WEXC_TABLE, "The operator %s is not supported yet by the runtime.", wrel_kind_name(r->kind));
    return NULL;
}
#define BUILD_NOT_A_RUNTIME_NODE bd_not_a_runtime_node

/* The runtime operator of each node kind. A kind added to WRelKind needs its row here
   (wjob_check_kind_ops fails otherwise, at start-up of the test build and in the unit tests). */
typedef struct BuildKindOps {
    WOperator *(*build)(WPlanCtx *p, Lane *L, WRel *r, WOperator **ins, bool *done);
    bool (*bundle)(WPlanCtx *p, const WRel *r, WMiniBatchSpec *mb);  /* mini-batch: false = none */
} BuildKindOps;

static const BuildKindOps BUILD_KIND_OPS[WR__COUNT] = {
    [WR_SCAN] = {.build = bd_scan, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_VALUES] = {.build = bd_scan, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_CALC] = {.build = bd_calc, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_CORRELATE] = {.build = bd_correlate, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_WATERMARK] = {.build = bd_watermark, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_UNION] = {.build = bd_union, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_EXPAND] = {.build = bd_expand, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_REPLICATE_ROWS] = {.build = bd_replicate_rows, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_SINK] = {.build = bd_sink, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_EXCHANGE] = {.build = bd_exchange, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_DROP_UPDATE_BEFORE] = {.build = bd_drop_update_before, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_GROUP_AGG] = {.build = bd_group_agg, .bundle = mb_group_agg},
    [WR_MINIBATCH_ASSIGNER] = {.build = bd_minibatch_assigner, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_LOCAL_GROUP_AGG] = {.build = bd_local_group_agg, .bundle = mb_local_group_agg},
    [WR_GLOBAL_GROUP_AGG] = {.build = bd_global_group_agg, .bundle = mb_global_group_agg},
    [WR_INCREMENTAL_GROUP_AGG] = {.build = bd_incremental_group_agg, .bundle = mb_global_group_agg},
    [WR_JOIN] = {.build = bd_join, .bundle = mb_join},
    [WR_DEDUP] = {.build = bd_dedup, .bundle = mb_dedup},
    [WR_RANK] = {.build = bd_rank, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_SORT_LIMIT] = {.build = bd_rank, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_SORT] = {.build = bd_sort, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_TEMPORAL_SORT] = {.build = bd_sort, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_MATCH] = {.build = bd_match, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_CHANGELOG_NORMALIZE] = {.build = bd_changelog_normalize, .bundle = mb_changelog_normalize},
    [WR_SINK_MATERIALIZER] = {.build = bd_sink_materializer, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_WINDOW_TVF] = {.build = bd_window_tvf, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_WINDOW_AGG] = {.build = bd_window_agg, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_LOCAL_WINDOW_AGG] = {.build = bd_local_window_agg, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_GLOBAL_WINDOW_AGG] = {.build = bd_global_window_agg, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_WINDOW_RANK] = {.build = bd_window_rank, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_OVER_AGG] = {.build = bd_over_agg, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_INTERVAL_JOIN] = {.build = bd_interval_join, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_TEMPORAL_JOIN] = {.build = bd_temporal_join, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_LOOKUP_JOIN] = {.build = bd_lookup_join, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_WINDOW_JOIN] = {.build = bd_window_join, .bundle = NO_MINIBATCH_BUNDLE},
    [WR_OVER_RANK] = {.build = BUILD_NOT_A_RUNTIME_NODE, .bundle = NO_MINIBATCH_BUNDLE},
};

bool wjob_build_ops_check(WStrBuf *err)
{
    bool ok = true;
    for (int k = 0; k < WR__COUNT; k++) {
        ok &= wrel_kind_op_check(BUILD_KIND_OPS[k].build != NULL, k, "runtime/build.c", "build", err);
        ok &= wrel_kind_op_check(BUILD_KIND_OPS[k].bundle != NULL, k, "runtime/build.c", "mini-batch bundle", err);
    }
    return ok;
}

bool wjob_check_kind_ops(WStrBuf *err)
{
    bool graph = wjobgraph_ops_check(err);
    return wjob_build_ops_check(err) && graph;
}

static WOperator *build(WPlanCtx *p, Lane *L, WRel *r)
{
    WJob *j = L->job;
    WRel *scan_x = scan_exchange_rel(p, j, r);     /* consumers of such a scan read the exchange */
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
    op = BUILD_KIND_OPS[r->kind].build(p, L, r, ins, &done);
    if (!op || done) return op;
    int64_t mb_size = minibatch_size(p);
    WMiniBatchSpec mb = {.size = mb_size};
    if (mb_size > 0 && BUILD_KIND_OPS[r->kind].bundle(p, r, &mb)) wop_minibatch_enable(op, &mb);
    /* a Union is no operator of the job graph (its inputs feed its consumer): the runtime's merge;
       a Calc the job graph folds into the scan below (a pushed-down projection / filter, which
       Flink's source does) runs as part of that source: neither is a stream operator */
    int k = r->kind == WR_UNION ? -1 : stream_op_of(j, r, WSOP_OPERATOR);
    set_name(p, L, op, r, k);
    wjob_add_op(j, op);
    built_add(L, r, op, k);
    if (scan_x) {   /* the source's lanes send to the job's */
        assert(r->ninputs == 0);
        bool keyed = scan_x->nkeys > 0;
        return build_exchange(p, L, scan_x, op, wjob_run_par(j, k), j->par, !keyed);
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

static void mark_expr(const WExpr *e, uint8_t *used, int n)
{
    if (!e) return;
    if (e->kind == WX_COLUMN && e->col >= 0 && e->col < n) used[e->col] = 1;
    for (int i = 0; i < e->nargs; i++) mark_expr(e->args[i], used, n);
}

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
            mark_expr(wrel_normalize(rel)->filter, u, n);
        }
        reads_into(p, rel->inputs[0], u);
        return;
    }
    if (rel->kind == WR_WATERMARK && rel->ninputs == 1 && rel->inputs[0]->out.n == n) {
        uint8_t *u = wa_zalloc(p->arena, (size_t)(n ? n : 1));
        for (int i = 0; i < n; i++) u[i] = used ? used[i] : 1;
        const WRelWatermark *ww = wrel_watermark(rel);
        if (ww->rowtime_col >= 0 && ww->rowtime_col < n) u[ww->rowtime_col] = 1;
        mark_expr(ww->expr, u, n);
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
            for (int k = 0; k < wrel_calc(r)->nexprs; k++) mark_expr(wrel_calc(r)->exprs[k], u, n);
            mark_expr(wrel_calc(r)->cond, u, n);
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
   reads unconverted (the JSON reader: VARCHAR fields, which any JSON value converts to). */
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
            } else if (r->kind == WR_CHANGELOG_NORMALIZE) {
                for (int k = 0; k < r->nkeys; k++)
                    if (r->keys[k] >= 0 && r->keys[k] < n) want[r->keys[k]] = WREL_ALL_FIELDS;
                demand_expr(wrel_normalize(r)->filter, want, n);
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
