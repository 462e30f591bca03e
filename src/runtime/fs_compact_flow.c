/*
 * fs_compact_flow.c — the compact-coordinator, compact-operator and PartitionCommitter operators
 * of a compacting filesystem sink. Contract in fs_compact_flow.h.
 */
#include "fs_compact_flow.h"
#include "../connectors/fs_compact.h"
#include "../connectors/fs_partition_commit.h"
#include "../common/arena.h"
#include "../common/strbuf.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The rows on the flow's edges: (kind, checkpoint, task, payload). */
enum { MSG_INPUT_FILE, MSG_END_CHECKPOINT, MSG_UNIT, MSG_END_COMPACTION, MSG_COMMIT_INFO };
#define MSG_COLS 4
static const WType *MSG_TYPES[MSG_COLS] = {&WTYPE_INT_NN, &WTYPE_BIGINT_NN, &WTYPE_INT_NN, &WTYPE_STRING};
static const char *MSG_NAMES[MSG_COLS] = {"kind", "checkpoint", "task", "payload"};

typedef struct FlowWriter {
    WFsFlow *flow;
    int task;
    WOperator *op;              /* the writer's operator (NULL until attached) */
    bool end_pending;           /* its input ended before its last EndCheckpoint */
    bool final_reported;        /* its last EndCheckpoint went */
} FlowWriter;

typedef struct CoordOp {
    WOperator base;
    WFsFlow *flow;
} CoordOp;

typedef struct CompactOp {
    WOperator base;
    WFsFlow *flow;
    int index;
    int nparts;
    char **parts;               /* partition directories compacted since the last EndCompaction */
} CompactOp;

typedef struct CommitterOp {
    WOperator base;
    WFsFlow *flow;
    WFsCommitConfig cfg;
    WFsCommitTracker *tracker;  /* its trigger: the partitions pending, the snapshots' watermarks */
    int64_t *reported;          /* per input: the checkpoint of its last commit info */
    int64_t committed;          /* the last checkpoint whose partitions were committed */
    int64_t snapped;            /* the last checkpoint it snapshotted */
} CommitterOp;

struct WFsFlow {
    WSinkShared *sh;
    char *root;                 /* the table's directory (from the writers' InputFiles) */
    WExecCtx ctx;
    WError err;
    int nwriters;
    bool compaction;
    FlowWriter *writers;
    int64_t *snap_ckpt, *snap_wm;   /* per writer: the last checkpoint it snapshotted, its watermark then */
    WOperator *coord, *committer, *end;
    CompactOp **compact;
    int nops;
    WOperator *ops[4];          /* coordinator, committer, end; compactors in `compact` */
    bool *registered;           /* per operator: 0..2 as ops, 3.. compactors */
};

/* ---- rows ---- */

static WChunk *msg_chunk(int cap) { return wchunk_new(MSG_COLS, MSG_TYPES, cap); }

static void msg_add(WChunk *c, int kind, int64_t ckpt, int task, const char *payload, size_t len)
{
    int r = wchunk_add_row(c, WRK_INSERT);
    assert(r >= 0);
    c->cols[0].data[r] = WDATUM_I(kind);
    c->cols[1].data[r] = WDATUM_I(ckpt);
    c->cols[2].data[r] = WDATUM_I(task);
    c->cols[0].nulls[r] = c->cols[1].nulls[r] = c->cols[2].nulls[r] = 0;
    c->cols[3].nulls[r] = payload == NULL;
    if (payload) c->cols[3].data[r].s = (WStr){wa_memdup(c->arena, payload, len ? len : 1), (int32_t)len};
}

static char *payload_of(const WChunk *in, int r)
{
    if (in->cols[3].nulls[r]) return NULL;
    WStr s = in->cols[3].data[r].s;
    char *p = wmalloc((size_t)s.len + 1);
    memcpy(p, s.p, (size_t)s.len);
    p[s.len] = 0;
    return p;
}

static WFsCompact *compactor(WFsFlow *f)
{
    WFsCompact *c = wfs_compact_of(f->sh);
    assert(c);
    return c;
}

/* ---- compact-coordinator ---- */

static void coord_emit_units(WOperator *op, const WFsUnit *u, int nu, int64_t ckpt)
{
    WStrBuf b;
    wsb_init(&b);
    for (int k = 0; k <= nu; k += 512) {
        int n = nu - k < 512 ? nu - k : 512;
        WChunk *c = msg_chunk(n + 1);
        for (int q = 0; q < n; q++) {
            wsb_clear(&b);
            for (int i = 0; i < u[k + q].n; i++) wsb_printf(&b, "%s%s", i ? "\n" : "", u[k + q].paths[i]);
            msg_add(c, MSG_UNIT, ckpt, k + q, b.buf, b.len);
        }
        if (k + n == nu) msg_add(c, MSG_END_COMPACTION, ckpt, 0, NULL, 0);
        wop_emit(op, c);
        wchunk_free(c);
        if (k + n == nu) break;
    }
    wsb_free(&b);
}

static void coord_process(WOperator *op, int input, const WChunk *in)
{
    WFsFlow *f = ((CoordOp *)op)->flow;
    WFsCompact *c = compactor(f);
    for (int r = 0; r < in->nrows && !op->ctx->err->set; r++) {
        int kind = (int)in->cols[0].data[r].i;
        int64_t ckpt = in->cols[1].data[r].i;
        if (kind == MSG_INPUT_FILE) {
            char *path = payload_of(in, r);
            assert(path);
            wfs_compact_add_file(c, ckpt, path);
            free(path);
            continue;
        }
        assert(kind == MSG_END_CHECKPOINT);
        assert(in->cols[2].data[r].i == input);
        WFsUnit *u;
        int nu;
        int64_t low;
        if (wfs_compact_coordinate(c, ckpt, input, &u, &nu, &low, op->ctx->err) && low > 0)
            coord_emit_units(op, u, nu, low);
        wfs_compact_units_free(u, nu);
    }
}

static void coord_destroy(WOperator *op) { free(op); }
static const WOpOps COORD_OPS = {.process = coord_process, .destroy = coord_destroy};

/* ---- compact-operator ---- */

static void compact_commit_info(CompactOp *o, int64_t ckpt)
{
    WStrBuf b;
    wsb_init(&b);
    for (int i = 0; i < o->nparts; i++) {
        wsb_printf(&b, "%s%s", i ? "\n" : "", o->parts[i]);
        free(o->parts[i]);
    }
    o->nparts = 0;
    WChunk *c = msg_chunk(1);
    msg_add(c, MSG_COMMIT_INFO, ckpt, o->index, b.buf ? b.buf : "", b.len);
    wop_emit(&o->base, c);
    wchunk_free(c);
    wsb_free(&b);
}

static void compact_note_partition(CompactOp *o, const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    for (int i = 0; i < o->nparts; i++)
        if (strlen(o->parts[i]) == n && !strncmp(o->parts[i], path, n)) return;
    o->parts = wrealloc(o->parts, sizeof(char *) * (size_t)(o->nparts + 1));
    char *d = wmalloc(n + 1);
    memcpy(d, path, n);
    d[n] = 0;
    o->parts[o->nparts++] = d;
}

static void compact_process(WOperator *op, int input, const WChunk *in)
{
    CompactOp *o = (CompactOp *)op;
    (void)input;
    int ntasks = o->flow->nwriters;
    for (int r = 0; r < in->nrows && !op->ctx->err->set; r++) {
        int kind = (int)in->cols[0].data[r].i;
        int64_t ckpt = in->cols[1].data[r].i;
        if (kind == MSG_END_COMPACTION) { compact_commit_info(o, ckpt); continue; }
        assert(kind == MSG_UNIT);
        if (in->cols[2].data[r].i % ntasks != o->index) continue;   /* CompactionUnit.isTaskMessage */
        char *paths = payload_of(in, r);
        assert(paths);
        WFsUnit u = {0, NULL};
        for (char *p = paths, *nl; p; p = nl ? nl + 1 : NULL) {
            nl = strchr(p, '\n');
            if (nl) *nl = 0;
            u.paths = wrealloc(u.paths, sizeof(char *) * (size_t)(u.n + 1));
            u.paths[u.n++] = p;
        }
        if (wfs_compact_unit(compactor(o->flow), &u, ckpt, op->ctx->err)) compact_note_partition(o, u.paths[0]);
        free(u.paths);
        free(paths);
    }
}

static void compact_end(WOperator *op)
{
    CompactOp *o = (CompactOp *)op;
    compact_commit_info(o, INT64_MAX);          /* CompactOperator.endInput */
    wfs_compact_finish(compactor(o->flow));
    wop_emit_end(op);
}

static void compact_destroy(WOperator *op)
{
    CompactOp *o = (CompactOp *)op;
    for (int i = 0; i < o->nparts; i++) free(o->parts[i]);
    free(o->parts);
    free(o);
}

static const WOpOps COMPACT_OPS = {.process = compact_process, .end_input = compact_end, .destroy = compact_destroy};

/* ---- PartitionCommitter, end: Writer ---- */

/* The partition below the table's directory that directory dir is ("" = the table itself). */
static const char *rel_of(const WFsFlow *f, const char *dir)
{
    size_t n = f->root ? strlen(f->root) : 0;
    return n && !strncmp(dir, f->root, n) && dir[n] == '/' ? dir + n + 1 : "";
}

/* Flink's PartitionCommitter: the partitions of each PartitionCommitInfo go to the trigger
   (addPartition); once every input (compact-operator, or writer without compaction) sent its info
   of a checkpoint (the TaskTracker), the trigger's committable partitions are committed (the
   policy: the success file): process-time, those added `delay` ago; partition-time, those whose
   time + delay is below the watermark of the committer's snapshot of that checkpoint; all of them
   at the end of the input (the info of checkpoint Long.MAX_VALUE). */
static void committer_process(WOperator *op, int input, const WChunk *in)
{
    CommitterOp *o = (CommitterOp *)op;
    WFsFlow *f = o->flow;
    assert(o->tracker);
    int64_t now = wexec_now(op->ctx);
    for (int r = 0; r < in->nrows && !op->ctx->err->set; r++) {
        assert(in->cols[0].data[r].i == MSG_COMMIT_INFO);
        int64_t ckpt = in->cols[1].data[r].i;
        char *parts = payload_of(in, r);
        for (char *p = parts, *nl; p && *p; p = nl ? nl + 1 : NULL) {
            nl = strchr(p, '\n');
            if (nl) *nl = 0;
            wfs_commit_add(o->tracker, rel_of(f, p), p, now);
        }
        free(parts);
        if (ckpt > o->reported[input]) o->reported[input] = ckpt;
        int64_t low = INT64_MAX;
        for (int t = 0; t < f->nwriters; t++)
            if (o->reported[t] < low) low = o->reported[t];
        if (low <= o->committed) continue;
        o->committed = low;
        (void)wfs_commit_ready(o->tracker, low, low == INT64_MAX, now, op->ctx->err);
    }
}

static void committer_destroy(WOperator *op)
{
    CommitterOp *o = (CommitterOp *)op;
    wfs_commit_tracker_free(o->tracker);
    wfs_commit_config_free(&o->cfg);
    free(o->reported);
    free(o);
}

static void discard_process(WOperator *op, int input, const WChunk *in) { (void)op; (void)input; (void)in; }
static const WOpOps COMMITTER_OPS = {.process = committer_process, .destroy = committer_destroy};
static const WOpOps END_OPS = {.process = discard_process};

/* ---- the flow ---- */

static void flow_free(void *data)
{
    WFsFlow *f = data;
    if (!f) return;
    for (int i = 0; i < 3; i++)
        if (f->ops[i] && !f->registered[i]) wop_free(f->ops[i]);
    for (int i = 0; i < f->nwriters; i++)
        if (f->compact[i] && !f->registered[3 + i]) wop_free(&f->compact[i]->base);
    free(f->compact);
    free(f->root);
    free(f->writers);
    free(f->snap_ckpt);
    free(f->snap_wm);
    free(f->registered);
    free(f);
}

WFsFlow *wfs_flow_get(WSinkShared *sh, const WExecCtx *ctx, int nwriters, bool compaction, bool committer)
{
    assert(sh && ctx && nwriters > 0);
    pthread_mutex_lock(&sh->mu);
    WFsFlow *f = sh->runtime;
    if (f) {
        assert(f->nwriters == nwriters);
        pthread_mutex_unlock(&sh->mu);
        return f;
    }
    f = wcalloc(1, sizeof *f);
    f->sh = sh;
    f->ctx = *ctx;
    f->ctx.err = &f->err;
    f->ctx.cancelled = false;
    f->ctx.registry = NULL;
    f->ctx.timed_op = NULL;
    f->ctx.timed_mark_ns = 0;
    f->nwriters = nwriters;
    f->compaction = compaction;
    f->writers = wcalloc((size_t)nwriters, sizeof(FlowWriter));
    f->snap_ckpt = wcalloc((size_t)nwriters, sizeof(int64_t));
    f->snap_wm = wcalloc((size_t)nwriters, sizeof(int64_t));
    f->registered = wcalloc((size_t)(3 + nwriters), sizeof(bool));
    f->compact = wcalloc((size_t)nwriters, sizeof(CompactOp *));
    for (int i = 0; i < nwriters; i++) f->writers[i] = (FlowWriter){.flow = f, .task = i};
    if (compaction) {
        CoordOp *co = wcalloc(1, sizeof *co);
        co->flow = f;
        f->coord = &co->base;
        wop_init(f->coord, &COORD_OPS, &f->ctx, nwriters, MSG_COLS, MSG_TYPES, MSG_NAMES);
    }
    for (int i = 0; compaction && i < nwriters; i++) {
        CompactOp *o = wcalloc(1, sizeof *o);
        o->flow = f;
        o->index = i;
        wop_init(&o->base, &COMPACT_OPS, &f->ctx, 1, MSG_COLS, MSG_TYPES, MSG_NAMES);
        wop_connect(f->coord, &o->base, 0);         /* BROADCAST */
        f->compact[i] = o;
    }
    if (committer) {
        CommitterOp *o = wcalloc(1, sizeof *o);
        o->flow = f;
        o->reported = wcalloc((size_t)nwriters, sizeof(int64_t));
        f->committer = &o->base;
        wop_init(f->committer, &COMMITTER_OPS, &f->ctx, nwriters, MSG_COLS, MSG_TYPES, MSG_NAMES);
        for (int i = 0; compaction && i < nwriters; i++) wop_connect(&f->compact[i]->base, f->committer, i);
    }
    f->end = wcalloc(1, sizeof(WOperator));
    wop_init(f->end, &END_OPS, &f->ctx, committer ? 1 : nwriters, MSG_COLS, MSG_TYPES, MSG_NAMES);
    if (committer) wop_connect(f->committer, f->end, 0);
    else for (int i = 0; compaction && i < nwriters; i++) wop_connect(&f->compact[i]->base, f->end, i);
    f->ops[0] = f->coord;
    f->ops[1] = f->committer;
    f->ops[2] = f->end;
    sh->runtime = f;
    sh->free_runtime = flow_free;
    pthread_mutex_unlock(&sh->mu);
    return f;
}

WOperator *wfs_flow_coordinator(WFsFlow *f) { return f->coord; }
WOperator *wfs_flow_compactor(WFsFlow *f, int subtask)
{
    assert(subtask >= 0 && subtask < f->nwriters && f->compaction);
    return &f->compact[subtask]->base;
}
WOperator *wfs_flow_committer(WFsFlow *f) { return f->committer; }
WOperator *wfs_flow_end(WFsFlow *f) { return f->end; }

void wfs_flow_registered(WFsFlow *f, WOperator *op)
{
    pthread_mutex_lock(&f->sh->mu);
    for (int i = 0; i < 3; i++)
        if (f->ops[i] == op) f->registered[i] = true;
    for (int i = 0; i < f->nwriters; i++)
        if (f->compact[i] && &f->compact[i]->base == op) f->registered[3 + i] = true;
    pthread_mutex_unlock(&f->sh->mu);
}

/* The flow failed: its error becomes the writer's. */
static bool flow_result(WFsFlow *f, WError *err)
{
    if (!f->err.set) return true;
    if (err && !err->set) *err = f->err;
    return false;
}

/* The checkpoint barrier of writer w (checkpoint ckpt, its watermark wm) reached the operators
   after it: once every writer's did, the PartitionCommitter snapshots (Flink's
   PartitionCommitter.snapshotState: the trigger keeps the watermark it had, which is the lowest of
   the writers' at their barriers, and its pending partitions go into the checkpoint: into the
   state of the writer whose barrier came last). */
static void writer_snapshot(WFsFlow *f, FlowWriter *w, const WSinkMessage *m)
{
    f->snap_ckpt[w->task] = m->ckpt;
    f->snap_wm[w->task] = m->wm;
    CommitterOp *co = (CommitterOp *)f->committer;
    if (!co || !co->tracker || m->ckpt <= co->snapped) return;
    int64_t wm = INT64_MAX;
    for (int t = 0; t < f->nwriters; t++) {
        if (f->snap_ckpt[t] < m->ckpt) return;
        if (f->snap_wm[t] < wm) wm = f->snap_wm[t];
    }
    co->snapped = m->ckpt;
    wfs_commit_snapshot(co->tracker, m->ckpt, wm);
    if (m->state) wfs_commit_state(co->tracker, m->state);
}

/* A "#commit\t<created ms>\t<dir>" line of a restored checkpoint: a pending partition of the
   PartitionCommitter. */
static void committer_restore(WFsFlow *f, const char *line)
{
    CommitterOp *co = (CommitterOp *)f->committer;
    const char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    if (!co || !co->tracker || !t2) return;
    wfs_commit_add(co->tracker, rel_of(f, t2 + 1), t2 + 1, atoll(t1 + 1));
}

static bool writer_message(void *ctx, const WSinkMessage *m, WError *err)
{
    FlowWriter *w = ctx;
    WFsFlow *f = w->flow;
    assert(m->task == w->task && w->op);
    pthread_mutex_lock(&f->sh->mu);
    if (!f->root && m->root) f->root = wstrdup(m->root);
    if (m->kind == WSM_SNAPSHOT || m->kind == WSM_RESTORE) {
        if (m->kind == WSM_SNAPSHOT) writer_snapshot(f, w, m);
        else committer_restore(f, m->path);
        pthread_mutex_unlock(&f->sh->mu);
        return true;
    }
    WChunk *c = msg_chunk(1);
    assert((m->kind == WSM_COMMIT_INFO) == !f->compaction);
    if (m->kind == WSM_END_CHECKPOINT) msg_add(c, MSG_END_CHECKPOINT, m->ckpt, w->task, NULL, 0);
    else if (m->kind == WSM_INPUT_FILE) msg_add(c, MSG_INPUT_FILE, m->ckpt, w->task, m->path, strlen(m->path));
    else msg_add(c, MSG_COMMIT_INFO, m->ckpt, w->task, m->path ? m->path : "", m->path ? strlen(m->path) : 0);
    wop_emit(w->op, c);
    wchunk_free(c);
    if (m->kind != WSM_INPUT_FILE && m->ended && !w->final_reported) {
        w->final_reported = true;
        if (w->end_pending) wop_emit_end(w->op);
    }
    bool ok = flow_result(f, err);
    pthread_mutex_unlock(&f->sh->mu);
    return ok;
}

void wfs_flow_attach_writer(WFsFlow *f, WOperator *writer, WSink *sink, int subtask, const WOptions *options)
{
    assert(subtask >= 0 && subtask < f->nwriters);
    pthread_mutex_lock(&f->sh->mu);
    CommitterOp *co = (CommitterOp *)f->committer;
    if (co && !co->tracker) {
        /* the sink checked these options when it opened */
        WError e = {0};
        bool ok = wfs_commit_config(&co->cfg, options, &e);
        assert(ok);
        (void)ok;
        co->tracker = wfs_commit_tracker_new(&co->cfg);
    }
    FlowWriter *w = &f->writers[subtask];
    w->op = writer;
    if (f->compaction) wop_connect(writer, f->coord, subtask);
    else if (f->committer) wop_connect(writer, f->committer, subtask);
    else wop_connect(writer, f->end, subtask);
    sink->message = writer_message;
    sink->message_ctx = w;
    pthread_mutex_unlock(&f->sh->mu);
}

void wfs_flow_writer_end(WFsFlow *f, int subtask)
{
    pthread_mutex_lock(&f->sh->mu);
    FlowWriter *w = &f->writers[subtask];
    if (w->final_reported) wop_emit_end(w->op);
    else w->end_pending = true;
    pthread_mutex_unlock(&f->sh->mu);
}

void wfs_flow_writer_watermark(WFsFlow *f, int subtask, int64_t wm)
{
    pthread_mutex_lock(&f->sh->mu);
    FlowWriter *w = &f->writers[subtask];
    if (w->op) wop_emit_watermark(w->op, wm);
    pthread_mutex_unlock(&f->sh->mu);
}
