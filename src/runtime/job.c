/*
 * job.c — building operators from the exec graph and driving sources. See job.h.
 */
#include "job.h"
#include "../exec/calc.h"
#include "../exec/watermark.h"
#include "../exec/union.h"
#include "../exec/stateful.h"
#include "../exec/windowed.h"
#include "../connectors/connector.h"

#include "../common/hash.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct SourceSlot {
    WSource *src;               /* NULL for VALUES */
    WRel *rel;
    WOperator *head;            /* receives the source's chunks on input 0 */
    WChunk *chunk;
    bool done;
    int values_next;            /* VALUES: next row */
} SourceSlot;

typedef struct Built { WRel *rel; WOperator *op; } Built;

struct WJob {
    WExecCtx ctx;
    int64_t sim_now, sim_step;  /* simulated processing time (weir.exec.simulated-clock.step) */
    WError err;                 /* the job's own error (it may outlive the statement) */
    WJobEnv env;
    int nops, cap_ops;
    WOperator **ops;
    int nsrc, cap_src;
    SourceSlot *srcs;
    int nsinks, cap_sinks;
    WSink **sinks;
    int nbuilt, cap_built;
    Built *built;
};

static void add_op(WJob *j, WOperator *op)
{
    if (j->nops == j->cap_ops) {
        j->cap_ops = j->cap_ops ? j->cap_ops * 2 : 16;
        j->ops = wrealloc(j->ops, sizeof(WOperator *) * (size_t)j->cap_ops);
    }
    j->ops[j->nops++] = op;
}

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

typedef struct SinkOp {
    WOperator base;
    WSink *sink;
    WCollect collect;
    bool is_collect;
} SinkOp;

static void sink_process(WOperator *op, int input, const WChunk *in)
{
    SinkOp *s = (SinkOp *)op;
    (void)input;
    if (s->is_collect) {
        if (s->collect.rows && !s->collect.rows(s->collect.ctx, in)) op->ctx->cancelled = true;
        return;
    }
    if (!s->sink->write(s->sink, in, op->ctx->err)) return;
}

static void sink_end(WOperator *op)
{
    SinkOp *s = (SinkOp *)op;
    if (!s->is_collect && s->sink->finish) s->sink->finish(s->sink, op->ctx->err);
}

static void sink_watermark(WOperator *op, int64_t wm) { (void)op; (void)wm; }

static const WOpOps SINK_OPS = {.process = sink_process, .watermark = sink_watermark, .end_input = sink_end};

/* ---- table spec for connectors ---- */

static WTableSpec *make_spec(WPlanCtx *p, WJob *j, WTable *t, const char *qname)
{
    WArena *a = p->arena;
    WTableSpec *sp = WA_NEW(a, WTableSpec);
    int *phys = WA_ARRAY(a, int, t->ncols ? t->ncols : 1);
    int np = wtable_physical(t, phys);
    sp->name = qname;
    sp->short_name = t->name;
    sp->ncols = np;
    sp->col_names = WA_ARRAY(a, const char *, np ? np : 1);
    sp->col_types = WA_ARRAY(a, const WType *, np ? np : 1);
    for (int i = 0; i < np; i++) {
        sp->col_names[i] = t->cols[phys[i]].name;
        sp->col_types[i] = t->cols[phys[i]].type;
    }
    /* primary key as indexes into the physical columns */
    sp->npk = t->npk;
    int *pk = WA_ARRAY(a, int, t->npk ? t->npk : 1);
    for (int k = 0; k < t->npk; k++)
        for (int i = 0; i < np; i++) if (phys[i] == t->pk[k]) pk[k] = i;
    sp->pk = pk;
    sp->options = &t->options;
    sp->cast = &j->ctx.cast;
    sp->subtask = 0;
    sp->parallelism = 1;
    sp->out = j->env.print_out ? j->env.print_out : stdout;
    return sp;
}

static const WConnector *find_connector(WPlanCtx *p, WTable *t, const char *qname, bool as_source)
{
    const char *cn = wopts_get(&t->options, "connector");
    if (!cn) {
        werr_set(p->err, WEXC_VALIDATION,
                 "Table options do not contain an option key 'connector' for discovering a connector. "
                 "Therefore, Flink assumes a managed table. However, a managed table factory that "
                 "implements org.apache.flink.table.factories.ManagedTableFactory is not in the classpath.");
        return NULL;
    }
    const WConnector *c = wconnector_find(cn);
    if (!c) {
        WStrBuf s;
        wsb_init(&s);
        wsb_printf(&s, "Could not find any factory for identifier '%s' that implements "
                       "'org.apache.flink.table.factories.DynamicTableFactory' in the classpath.\n\n"
                       "Available factory identifiers are:\n\n", cn);
        const WConnector *const *all = wconnector_all();
        for (int i = 0; all[i]; i++) wsb_printf(&s, "%s%s", i ? "\n" : "", all[i]->name);
        werr_set(p->err, WEXC_VALIDATION, "%s", s.buf);
        wsb_free(&s);
        return NULL;
    }
    (void)qname;
    (void)as_source;
    return c;
}

/* ---- building ---- */

static WOperator *build(WPlanCtx *p, WJob *j, WRel *r);

static WOperator *built_lookup(WJob *j, WRel *r)
{
    for (int i = 0; i < j->nbuilt; i++) if (j->built[i].rel == r) return j->built[i].op;
    return NULL;
}

static void built_add(WJob *j, WRel *r, WOperator *op)
{
    if (j->nbuilt == j->cap_built) {
        j->cap_built = j->cap_built ? j->cap_built * 2 : 16;
        j->built = wrealloc(j->built, sizeof(Built) * (size_t)j->cap_built);
    }
    j->built[j->nbuilt++] = (Built){r, op};
}

static void set_name(WPlanCtx *p, WOperator *op, WRel *r)
{
    op->id = r->id;
    op->name = wa_sprintf(p->arena, "%s[%d]", wrel_kind_name(r->kind), r->id);
}

static SourceSlot *add_source(WJob *j)
{
    if (j->nsrc == j->cap_src) {
        j->cap_src = j->cap_src ? j->cap_src * 2 : 4;
        j->srcs = wrealloc(j->srcs, sizeof(SourceSlot) * (size_t)j->cap_src);
    }
    SourceSlot *s = &j->srcs[j->nsrc++];
    memset(s, 0, sizeof *s);
    return s;
}

/* The window definition of a window node over input `in`. */
static WWindowDef window_def(WJob *j, const WRel *r, const WRel *in)
{
    WWindowDef d = {.kind = (WWindowKind)r->win_kind, .size_ms = r->win_size, .slide_ms = r->win_slide,
                    .offset_ms = r->win_offset, .gap_ms = r->win_gap, .time_col = r->win_time_col,
                    .proctime = r->win_proctime, .npartition = r->win_npartition, .partition = r->win_partition};
    d.time_is_ltz = in->out.types[r->win_time_col]->id == WT_TIMESTAMP_LTZ;
    d.tz = j->ctx.cast.tz;
    return d;
}

static WOperator *build(WPlanCtx *p, WJob *j, WRel *r)
{
    WOperator *op = built_lookup(j, r);
    if (op) return op;
    WOperator **ins = WA_ARRAY(p->arena, WOperator *, r->ninputs ? r->ninputs : 1);
    for (int i = 0; i < r->ninputs; i++) {
        ins[i] = build(p, j, r->inputs[i]);
        if (!ins[i]) return NULL;
    }
    switch (r->kind) {
    case WR_SCAN:
    case WR_VALUES: {
        op = wcalloc(1, sizeof *op);
        wop_init(op, &PASS_OPS, &j->ctx, 1, r->out.n, r->out.types, r->out.names);
        SourceSlot *s = add_source(j);
        s->rel = r;
        s->head = op;
        if (r->kind == WR_SCAN) {
            const WConnector *c = find_connector(p, r->table, r->table_qname, true);
            if (!c) { wop_free(op); j->nsrc--; return NULL; }
            if (!c->can_source) {
                werr_set(p->err, WEXC_VALIDATION,
                         "Connector '%s' can only be used as a sink. It cannot be used as a source.", c->name);
                wop_free(op);
                j->nsrc--;
                return NULL;
            }
            WTableSpec *sp = make_spec(p, j, r->table, r->table_qname);
            if (c->validate && !c->validate(sp, true, p->err)) { wop_free(op); j->nsrc--; return NULL; }
            s->src = c->open_source(sp, p->err);
            if (!s->src) { wop_free(op); j->nsrc--; return NULL; }
        }
        int cap = j->ctx.chunk_rows;
        s->chunk = wchunk_new(r->out.n, r->out.types, cap);
        break;
    }
    case WR_CALC:
        op = wop_calc_new(&j->ctx, r->inputs[0]->out.n, r->inputs[0]->out.types, r->nexprs, r->exprs, r->cond,
                          r->out.types, r->out.names);
        break;
    case WR_WATERMARK:
        op = wop_watermark_new(&j->ctx, r->wm_expr, r->out.n, r->out.types, r->out.names);
        break;
    case WR_UNION:
        op = wop_union_new(&j->ctx, r->ninputs, r->out.n, r->out.types, r->out.names);
        break;
    case WR_SINK: {
        SinkOp *s = wcalloc(1, sizeof *s);
        wop_init(&s->base, &SINK_OPS, &j->ctx, 1, r->out.n, r->out.types, r->out.names);
        if (!r->sink_table) {
            s->is_collect = true;
            s->collect = j->env.collect;
        } else {
            const WConnector *c = find_connector(p, r->sink_table, r->sink_qname, false);
            if (!c) { free(s); return NULL; }
            if (!c->can_sink) {
                werr_set(p->err, WEXC_VALIDATION,
                         "Connector '%s' can only be used as a source. It cannot be used as a sink.", c->name);
                free(s);
                return NULL;
            }
            WTableSpec *sp = make_spec(p, j, r->sink_table, r->sink_qname);
            if (c->validate && !c->validate(sp, false, p->err)) { free(s); return NULL; }
            s->sink = c->open_sink(sp, p->err);
            if (!s->sink) { free(s); return NULL; }
            if (j->nsinks == j->cap_sinks) {
                j->cap_sinks = j->cap_sinks ? j->cap_sinks * 2 : 4;
                j->sinks = wrealloc(j->sinks, sizeof(WSink *) * (size_t)j->cap_sinks);
            }
            j->sinks[j->nsinks++] = s->sink;
        }
        op = &s->base;
        break;
    }
    case WR_EXCHANGE:
        /* one subtask per vertex for now: the exchange forwards */
        op = wcalloc(1, sizeof *op);
        wop_init(op, &PASS_OPS, &j->ctx, 1, r->out.n, r->out.types, r->out.names);
        break;
    case WR_DROP_UPDATE_BEFORE:
        op = wcalloc(1, sizeof *op);
        wop_init(op, &DROP_UB_OPS, &j->ctx, 1, r->out.n, r->out.types, r->out.names);
        break;
    case WR_GROUP_AGG: {
        WRel *in = r->inputs[0];
        WGroupAggSpec sp = {
            .in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
            .naggs = r->naggs, .aggs = r->aggs, .input_retracts = r->input_retracts,
            .generate_update_before = r->generate_update_before, .ttl_ms = r->ttl_ms,
            .state_name = "groupAggregateState",
            .out = {r->out.n, r->out.types, r->out.names}};
        op = wop_group_agg_new(&j->ctx, &sp);
        break;
    }
    case WR_JOIN: {
        WRel *l = r->inputs[0], *rt = r->inputs[1];
        WJoinSpec sp = {
            .kind = r->semi ? WJK_SEMI : r->anti ? WJK_ANTI
                  : r->join_type == AJ_LEFT ? WJK_LEFT : r->join_type == AJ_RIGHT ? WJK_RIGHT
                  : r->join_type == AJ_FULL ? WJK_FULL : WJK_INNER,
            .left_ncols = l->out.n, .right_ncols = rt->out.n, .left_types = l->out.types,
            .right_types = rt->out.types, .nkeys = r->nkeys, .left_keys = r->keys, .right_keys = r->right_keys,
            .filter_nulls = r->key_filter_nulls, .residual = r->join_cond,
            .left_nuk = l->nunique > 0 ? l->nunique : 0, .right_nuk = rt->nunique > 0 ? rt->nunique : 0,
            .left_uk = l->unique, .right_uk = rt->unique,
            .left_retracts = r->input_retracts, .right_retracts = r->right_retracts,
            .generate_update_before = r->generate_update_before,
            .left_ttl_ms = r->ttl_left_ms, .right_ttl_ms = r->ttl_right_ms,
            .out = {r->out.n, r->out.types, r->out.names}};
        op = wop_join_new(&j->ctx, &sp);
        break;
    }
    case WR_DEDUP: {
        WRel *in = r->inputs[0];
        WDedupSpec sp = {
            .in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
            .keep_last = r->keep_last, .rowtime = r->dedup_rowtime, .time_col = r->time_col,
            .input_retracts = r->input_retracts, .generate_update_before = r->generate_update_before,
            .generate_insert_only = r->changelog == WCM_INSERT, .ttl_ms = r->ttl_ms,
            .out = {r->out.n, r->out.types, r->out.names}};
        op = wop_dedup_new(&j->ctx, &sp);
        break;
    }
    case WR_RANK: {
        WRel *in = r->inputs[0];
        WSortKey *sk = WA_ARRAY(p->arena, WSortKey, r->nsort ? r->nsort : 1);
        for (int i = 0; i < r->nsort; i++)
            sk[i] = (WSortKey){r->sort_cols[i], r->sort_desc[i], r->sort_nulls_first[i]};
        WRankSpec sp = {
            .in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
            .nsort = r->nsort, .sort = sk, .func = (WRankFunc)r->rank_func,
            .strategy = (WRankStrategy)r->rank_strategy, .rank_start = r->rank_start, .rank_end = r->rank_end,
            .output_rank_number = r->output_rank_number, .nuk = in->nunique > 0 ? in->nunique : 0,
            .uk = in->unique, .input_retracts = r->input_retracts,
            .generate_update_before = r->generate_update_before, .ttl_ms = r->ttl_ms,
            .out = {r->out.n, r->out.types, r->out.names}};
        op = wop_rank_new(&j->ctx, &sp);
        break;
    }
    case WR_CHANGELOG_NORMALIZE: {
        WRel *in = r->inputs[0];
        WChangelogNormalizeSpec sp = {
            .in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
            .generate_update_before = r->generate_update_before, .ttl_ms = r->ttl_ms,
            .filter = r->normalize_filter, .out = {r->out.n, r->out.types, r->out.names}};
        op = wop_changelog_normalize_new(&j->ctx, &sp);
        break;
    }
    case WR_SINK_MATERIALIZER: {
        WRel *in = r->inputs[0];
        WSinkMaterializerSpec sp = {
            .in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
            .ttl_ms = r->ttl_ms, .out = {r->out.n, r->out.types, r->out.names}};
        op = wop_sink_materializer_new(&j->ctx, &sp);
        break;
    }
    case WR_WINDOW_TVF: {
        WRel *in = r->inputs[0];
        WWindowTvfSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types,
                             .win = window_def(j, r, in), .out = {r->out.n, r->out.types, r->out.names}};
        op = wop_window_tvf_new(&j->ctx, &sp);
        break;
    }
    case WR_WINDOW_AGG: {
        WRel *in = r->inputs[0];
        WWindowAggSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
                             .naggs = r->naggs, .aggs = r->aggs, .win = window_def(j, r, in),
                             .input_retracts = r->input_retracts, .out = {r->out.n, r->out.types, r->out.names}};
        op = wop_window_agg_new(&j->ctx, &sp);
        break;
    }
    case WR_WINDOW_RANK: {
        WRel *in = r->inputs[0];
        WSortKey *sk = WA_ARRAY(p->arena, WSortKey, r->nsort ? r->nsort : 1);
        for (int i = 0; i < r->nsort; i++) sk[i] = (WSortKey){r->sort_cols[i], r->sort_desc[i], r->sort_nulls_first[i]};
        WWindowRankSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
                              .start_col = r->win_start_col, .end_col = r->win_end_col, .nsort = r->nsort, .sort = sk,
                              .func = (WRankFunc)r->rank_func, .rank_start = r->rank_start, .rank_end = r->rank_end,
                              .output_rank_number = r->output_rank_number, .dedup = r->win_dedup,
                              .keep_last = r->keep_last, .proctime = r->win_proctime,
                              .out = {r->out.n, r->out.types, r->out.names}};
        op = wop_window_rank_new(&j->ctx, &sp);
        break;
    }
    case WR_OVER_AGG: {
        WRel *in = r->inputs[0];
        WOverAggSpec sp = {.in_ncols = in->out.n, .in_types = in->out.types, .nkeys = r->nkeys, .keys = r->keys,
                           .time_col = r->time_col, .proctime = r->win_proctime, .rows_frame = r->over_rows,
                           .unbounded = r->over_unbounded, .preceding = r->over_preceding, .naggs = r->naggs,
                           .aggs = r->aggs, .out = {r->out.n, r->out.types, r->out.names}};
        op = wop_over_agg_new(&j->ctx, &sp);
        break;
    }
    case WR_INTERVAL_JOIN: {
        WRel *l = r->inputs[0], *rt = r->inputs[1];
        WIntervalJoinSpec sp = {
            .kind = r->join_type == AJ_LEFT ? WJK_LEFT : r->join_type == AJ_RIGHT ? WJK_RIGHT
                  : r->join_type == AJ_FULL ? WJK_FULL : WJK_INNER,
            .left_ncols = l->out.n, .right_ncols = rt->out.n, .left_types = l->out.types,
            .right_types = rt->out.types, .nkeys = r->nkeys, .left_keys = r->keys, .right_keys = r->right_keys,
            .left_time_col = r->left_time_col, .right_time_col = r->right_time_col,
            .lower_ms = r->lower_ms, .upper_ms = r->upper_ms, .lower_strict = r->lower_strict,
            .upper_strict = r->upper_strict,
            .proctime = l->out.types[r->left_time_col]->time_attr == WTA_PROCTIME,
            .residual = r->join_cond, .out = {r->out.n, r->out.types, r->out.names}};
        op = wop_interval_join_new(&j->ctx, &sp);
        break;
    }
    case WR_TEMPORAL_JOIN: {
        WRel *l = r->inputs[0], *rt = r->inputs[1];
        WTemporalJoinSpec sp = {
            .left_outer = r->join_type == AJ_LEFT, .left_ncols = l->out.n, .right_ncols = rt->out.n,
            .left_types = l->out.types, .right_types = rt->out.types, .nkeys = r->nkeys,
            .left_keys = r->keys, .right_keys = r->right_keys, .left_time_col = r->left_time_col,
            .right_time_col = r->right_time_col, .residual = r->join_cond,
            .out = {r->out.n, r->out.types, r->out.names}};
        op = wop_temporal_join_new(&j->ctx, &sp);
        break;
    }
    case WR_WINDOW_JOIN: {
        WRel *l = r->inputs[0], *rt = r->inputs[1];
        WWindowJoinSpec sp = {
            .kind = r->semi ? WJK_SEMI : r->anti ? WJK_ANTI
                  : r->join_type == AJ_LEFT ? WJK_LEFT : r->join_type == AJ_RIGHT ? WJK_RIGHT
                  : r->join_type == AJ_FULL ? WJK_FULL : WJK_INNER,
            .left_ncols = l->out.n, .right_ncols = rt->out.n, .left_types = l->out.types,
            .right_types = rt->out.types, .nkeys = r->nkeys, .left_keys = r->keys, .right_keys = r->right_keys,
            .left_start_col = r->win_start_col, .left_end_col = r->win_end_col,
            .right_start_col = r->win_rstart_col, .right_end_col = r->win_rend_col,
            .residual = r->join_cond, .proctime = false, .out = {r->out.n, r->out.types, r->out.names}};
        op = wop_window_join_new(&j->ctx, &sp);
        break;
    }
    default:
        werr_set(p->err, WEXC_TABLE, "The operator %s is not supported yet by the runtime.", wrel_kind_name(r->kind));
        return NULL;
    }
    if (!op) return NULL;
    set_name(p, op, r);
    add_op(j, op);
    built_add(j, r, op);
    for (int i = 0; i < r->ninputs; i++) wop_connect(ins[i], op, i);
    return op;
}

static int64_t sim_clock(void *ctx) { return ((WJob *)ctx)->sim_now; }

WJob *wjob_build(WPlanCtx *p, WRel **roots, int nroots, const WJobEnv *env)
{
    WJob *j = wcalloc(1, sizeof *j);
    j->env = *env;
    werr_clear(&j->err);
    j->ctx.err = &j->err;
    if (env->cast) j->ctx.cast = *env->cast;
    j->ctx.config = env->config;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    j->ctx.start_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    int64_t rows = WCHUNK_CAP;
    WError tmp;
    werr_clear(&tmp);
    if (env->config) wopts_get_long(env->config, "weir.exec.chunk-rows", WCHUNK_CAP, &rows, &tmp);
    if (rows < 1) rows = 1;
    if (rows > WCHUNK_CAP) rows = WCHUNK_CAP;
    j->ctx.chunk_rows = (int)rows;
    /* weir.exec.simulated-clock.step: processing time starts at the job's start and advances by
       this much after every chunk a source delivers, so TTL and processing-time behaviour are
       reproducible (tests, demonstrations) */
    int64_t step = 0;
    if (env->config && wopts_get_duration_ms(env->config, "weir.exec.simulated-clock.step", 0, &step, &tmp) && step > 0) {
        j->sim_step = step;
        j->sim_now = j->ctx.start_ms;
        j->ctx.clock = sim_clock;
        j->ctx.clock_ctx = j;
    }
    int64_t maxp = 0;
    if (env->config) wopts_get_long(env->config, "pipeline.max-parallelism", 0, &maxp, &tmp);
    j->ctx.max_parallelism = maxp > 0 ? (int)maxp : wflink_default_max_parallelism(1);
    for (int i = 0; i < nroots; i++) {
        if (!build(p, j, roots[i])) {
            /* operator constructors report through the job's error, planning through p->err */
            if (j->err.set && p->err && !p->err->set) *p->err = j->err;
            wjob_free(j);
            return NULL;
        }
    }
    if (j->err.set) {
        if (p->err && !p->err->set) *p->err = j->err;
        wjob_free(j);
        return NULL;
    }
    return j;
}

static bool pump_values(WJob *j, SourceSlot *s)
{
    WChunk *c = s->chunk;
    wchunk_reset(c);
    WRel *r = s->rel;
    while (s->values_next < r->nrows && c->nrows < c->cap) {
        int row = wchunk_add_row(c, WRK_INSERT);
        for (int k = 0; k < r->out.n; k++) {
            c->cols[k].data[row] = r->rows[s->values_next][k];
            c->cols[k].nulls[row] = r->row_nulls[s->values_next][k];
        }
        s->values_next++;
    }
    if (c->nrows) wop_push(s->head, 0, c);
    (void)j;
    return s->values_next < r->nrows;
}

bool wjob_run(WJob *j)
{
    int active = j->nsrc;
    while (active > 0 && !j->ctx.err->set && !j->ctx.cancelled) {
        for (int i = 0; i < j->nsrc; i++) {
            SourceSlot *s = &j->srcs[i];
            if (s->done) continue;
            bool more;
            if (!s->src) {
                more = pump_values(j, s);
            } else {
                wchunk_reset(s->chunk);
                WSourceStatus st = s->src->next(s->src, s->chunk, j->ctx.err);
                if (st == WSRC_ERROR) return false;
                if (s->chunk->nrows) wop_push(s->head, 0, s->chunk);
                if (j->sim_step) j->sim_now += j->sim_step;
                more = st != WSRC_END;
            }
            if (j->ctx.err->set || j->ctx.cancelled) break;
            if (!more) {
                s->done = true;
                active--;
                wop_input_watermark(s->head, 0, WWM_MAX);
                wop_input_end(s->head, 0);
            }
        }
    }
    return !j->ctx.err->set;
}

void wjob_cancel(WJob *j) { j->ctx.cancelled = true; }

void wjob_free(WJob *j)
{
    if (!j) return;
    for (int i = 0; i < j->nsrc; i++) {
        if (j->srcs[i].src && j->srcs[i].src->close) j->srcs[i].src->close(j->srcs[i].src);
        wchunk_free(j->srcs[i].chunk);
    }
    for (int i = 0; i < j->nsinks; i++) if (j->sinks[i]->close) j->sinks[i]->close(j->sinks[i]);
    for (int i = 0; i < j->nops; i++) wop_free(j->ops[i]);
    free(j->ops);
    free(j->srcs);
    free(j->sinks);
    free(j->built);
    free(j);
}

void wjob_report(const WJob *j, WStrBuf *out)
{
    for (int i = 0; i < j->nops; i++) {
        WOperator *op = j->ops[i];
        wsb_printf(out, "%s: rows_in=%lld rows_out=%lld", op->name, (long long)op->rows_in, (long long)op->rows_out);
        if (op->late_dropped) wsb_printf(out, " numLateRecordsDropped=%lld", (long long)op->late_dropped);
        if (op->ops->metrics) {
            char buf[1024];
            buf[0] = 0;
            op->ops->metrics(op, buf, sizeof buf);
            if (buf[0]) wsb_printf(out, " %s", buf);
        }
        wsb_putc(out, '\n');
    }
    for (int i = 0; i < j->nsrc; i++)
        if (j->srcs[i].src && j->srcs[i].src->rows_skipped)
            wsb_printf(out, "%s: rows skipped (csv.ignore-parse-errors)=%lld\n", j->srcs[i].head->name,
                       (long long)j->srcs[i].src->rows_skipped);
}

int64_t wjob_rows_skipped(const WJob *j)
{
    int64_t n = 0;
    for (int i = 0; i < j->nsrc; i++) if (j->srcs[i].src) n += j->srcs[i].src->rows_skipped;
    return n;
}

const WError *wjob_error(const WJob *j) { return &j->err; }

int wjob_node_count(const WJob *j) { return j ? j->nbuilt : 0; }

const WRel *wjob_node_rel(const WJob *j, int i)
{
    return j && i >= 0 && i < j->nbuilt ? j->built[i].rel : NULL;
}

const WOperator *wjob_node_op(const WJob *j, int i)
{
    return j && i >= 0 && i < j->nbuilt ? j->built[i].op : NULL;
}
