/*
 * exchange_sender.c — the upstream side of an exchange, one operator per lane: routes each row to
 * the receiving lane that owns its key group (Flink's KeyGroupRangeAssignment), everything to lane
 * 0 for a single exchange, round-robin for a rebalance; watermarks, idleness and the end go to
 * every receiving lane. The rows' key hashes feed insight's exchange sketch. Rows for another lane
 * are copied into an outgoing chunk per receiver, sent through its inbox (wjob_lane_send, with its
 * back-pressure) when full or flushed (wjob_sender_flush): before a watermark, idleness, the end or
 * a checkpoint barrier goes out, and when the lane's sources stop giving full chunks or it has no
 * rows of its own. So a receiver gets whole chunks where a split chunk gave it halves (the per-chunk
 * work of the operator behind, such as a GROUP BY's per-key state access, is paid per chunk).
 * Rows for the lane's own receiver go by reference, synchronously, unless they hold only
 * fixed-width values: then they are gathered the same way (copying them costs what the split
 * did). A channel blocked by checkpoint alignment holds them. Depends on job_internal.h.
 */
#include "job_internal.h"
#include "../common/hash.h"
#include "../common/proc_clock.h"
#include "../exec/insight.h"
#include "../types/row.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The upstream side of an exchange: routes each row to the receiving lane owning its key group
   (KeyGroupRangeAssignment), everything to lane 0 for a single exchange, row by row round-robin
   for a rebalance (Flink's RebalancePartitioner: from a random receiver on); watermarks and the
   end go to every receiving lane. A sender in a lane beyond the exchange's sending subtasks is an
   idle copy and sends nothing. */
typedef struct Sender {
    WOperator base;
    Lane *lane;
    int exch;
    int nkeys;
    const int *keys;
    bool single;
    bool active;                /* this lane sends on the exchange */
    bool rebalance;
    int nrecv;                  /* receiving lanes [0, nrecv) */
    int rr_next;                /* rebalance: the receiver of the last row */
    int maxp;
    uint16_t *lane_of_kg;       /* key group -> receiving lane (KeyGroupRangeAssignment), maxp entries */
    WStrBuf kb;
    int *target;                /* each row's receiving lane (first its key group) */
    int32_t *hash;              /* each row's key hash (Flink's BinaryRowData.hashCode; insight's
                                   exchange sketch reuses it) */
    int *order;                 /* a chunk's rows by receiving lane: lane t's at [start[t], start[t+1]) */
    int *start;                 /* nrecv + 1 offsets into order */
    WChunk **out;               /* per receiving lane: the rows gathered for it, not sent yet (or NULL) */
    int out_cap;                /* rows an outgoing chunk holds (the job's chunk size) */
    bool gather_local;          /* the rows hold fixed-width values only: the local lane's are gathered too */
} Sender;

/* Lane `to` is this lane and its channel is open (not blocked by checkpoint alignment): it takes
   chunks synchronously, by reference. */
static bool local_open(const Sender *sd, int to)
{
    Lane *L = sd->lane;
    return to == L->index && !wjob_ck_blocked(L, L->recv[sd->exch], L->index);
}

/* Rows are gathered for lane `to` and not sent yet. */
static bool pending(const Sender *sd, int to) { return sd->out[to] && sd->out[to]->nrows > 0; }

/* Hands chunk c (owned: the caller's ownership moves) to lane `to`: the local lane takes it
   synchronously (it is freed after), another lane (or a local channel blocked by checkpoint
   alignment) through a message. */
static void hand_over(Sender *sd, int to, WChunk *c)
{
    Lane *L = sd->lane;
    if (local_open(sd, to)) {
        wjob_receiver_deliver(L->recv[sd->exch], MSG_CHUNK, L->index, 0, c);
        wchunk_free(c);
    } else if (to == L->index) {    /* checkpoint alignment: the local channel is blocked */
        Msg *m = wcalloc(1, sizeof *m);
        *m = (Msg){.kind = MSG_CHUNK, .exch = sd->exch, .from = L->index, .chunk = c};
        wjob_ck_hold(L, m);
    } else {
        wjob_lane_send(L, to, MSG_CHUNK, sd->exch, 0, c);
    }
}

/* Sends the rows gathered for lane `to`, if any. */
static void flush_to(Sender *sd, int to)
{
    if (!pending(sd, to)) return;
    WChunk *c = sd->out[to];
    Lane *L = sd->lane;
    if (local_open(sd, to)) {
        wjob_receiver_deliver(L->recv[sd->exch], MSG_CHUNK, L->index, 0, c);
        wchunk_reset(c);        /* taken synchronously: the chunk gathers again */
        return;
    }
    sd->out[to] = NULL;         /* before the send: a send into a full inbox works off this lane's own */
    hand_over(sd, to, c);
}

void wjob_sender_flush(WOperator *op)
{
    Sender *sd = (Sender *)op;
    if (!sd->active) return;
    for (int t = 0; t < sd->nrecv; t++) flush_to(sd, t);
}

/* Sends rows rows[0..n) of c (rows NULL: all of them) to lane `to`: gathered into its outgoing
   chunk (a deep copy; for the local lane only fixed-width rows), sent when full; the local lane
   takes other rows by reference, synchronously, after what was gathered for it. */
static void send_rows_to(Sender *sd, int to, const WChunk *c, const int *rows, int n)
{
    Lane *L = sd->lane;
    assert(sd->active && to >= 0 && to < sd->nrecv && (!rows || (n > 0 && n <= c->nrows)));
    if (!rows) n = c->nrows;
    bool local = local_open(sd, to);
    if ((local && (!sd->gather_local || (!rows && !pending(sd, to)))) || n > sd->out_cap) {
        flush_to(sd, to);
        if (local && !rows) {
            wjob_receiver_deliver(L->recv[sd->exch], MSG_CHUNK, L->index, 0, c);
            return;
        }
        WChunk *part = wchunk_new(c->ncols, c->types, n);
        if (rows) wchunk_append_rows(part, c, rows, n, !local);
        else wchunk_append_selected(part, c, NULL);
        hand_over(sd, to, part);
        return;
    }
    if (!rows) {                /* the whole chunk: sender_process is not using `order` */
        for (int r = 0; r < n; r++) sd->order[r] = r;
        rows = sd->order;
    }
    while (n > 0) {             /* fill the outgoing chunk, send it when full, go on in a new one */
        WChunk *o = sd->out[to];
        if (!o) o = sd->out[to] = wchunk_new(c->ncols, c->types, sd->out_cap);
        int k = o->cap - o->nrows < n ? o->cap - o->nrows : n;
        wchunk_append_rows(o, c, rows, k, true);
        rows += k;
        n -= k;
        if (o->nrows == o->cap) flush_to(sd, to);
    }
}

static void sender_process(WOperator *op, int input, const WChunk *in)
{
    Sender *sd = (Sender *)op;
    (void)input;
    if (!sd->active || in->nrows == 0) return;
    int n = sd->nrecv;
    if (sd->single) { send_rows_to(sd, 0, in, NULL, 0); return; }
    int *target = sd->target;
    if (sd->rebalance) {
        for (int r = 0; r < in->nrows; r++) target[r] = sd->rr_next = (sd->rr_next + 1) % n;
    } else {    /* the chunk's key hashes and key groups at once */
        wrow_hash_rows(in, sd->nkeys, sd->keys, sd->hash, &sd->kb);
        wflink_key_groups(sd->hash, in->nrows, sd->maxp, target);
        for (int r = 0; r < in->nrows; r++) target[r] = sd->lane_of_kg[target[r]];
    }
    if (op->insight && !sd->rebalance) winsight_exchange_rows(op, in, sd->nkeys, sd->keys, sd->hash, target, n);
    /* the rows by receiving lane, in their order (a counting sort) */
    int *start = sd->start;
    memset(start, 0, sizeof *start * (size_t)(n + 1));
    for (int r = 0; r < in->nrows; r++) start[target[r] + 1]++;
    for (int t = 0; t < n; t++) {
        if (start[t + 1] == in->nrows) { send_rows_to(sd, t, in, NULL, 0); return; }   /* all to one lane */
        start[t + 1] += start[t];
    }
    for (int r = 0; r < in->nrows; r++) sd->order[start[target[r]]++] = r;
    for (int t = 0, from = 0; t < n; from = start[t++])     /* start[t] is now lane t's end */
        if (start[t] > from) send_rows_to(sd, t, in, sd->order + from, start[t] - from);
}

static void sender_broadcast(Sender *sd, MsgKind kind, int64_t wm)
{
    Lane *L = sd->lane;
    if (!sd->active) return;
    wjob_sender_flush(&sd->base);       /* the rows before it, in each channel */
    for (int t = 0; t < sd->nrecv; t++) {
        if (t == L->index && wjob_ck_blocked(L, L->recv[sd->exch], L->index)) {
            Msg *m = wcalloc(1, sizeof *m);
            *m = (Msg){.kind = kind, .exch = sd->exch, .from = L->index, .wm = wm};
            wjob_ck_hold(L, m);
        } else if (t == L->index) {
            wjob_receiver_deliver(L->recv[sd->exch], kind, L->index, wm, NULL);
        } else {
            wjob_lane_send(L, t, kind, sd->exch, wm, NULL);
        }
    }
}

static void sender_watermark(WOperator *op, int64_t wm) { sender_broadcast((Sender *)op, MSG_WATERMARK, wm); }
static void sender_end(WOperator *op) { sender_broadcast((Sender *)op, MSG_END, 0); }
static void sender_idle(WOperator *op, bool idle) { sender_broadcast((Sender *)op, MSG_IDLE, idle); }

static void sender_destroy(WOperator *op)
{
    Sender *sd = (Sender *)op;
    for (int t = 0; t < sd->nrecv; t++) wchunk_free(sd->out[t]);     /* a failed job's unsent rows */
    free(sd->out);
    wsb_free(&sd->kb);
    free(sd->lane_of_kg);
    free(sd->target);
    free(sd->hash);
    free(sd->order);
    free(sd->start);
    free(sd);
}

static const WOpOps SENDER_OPS = {.process = sender_process, .watermark = sender_watermark,
                                  .end_input = sender_end, .idle = sender_idle, .destroy = sender_destroy};

WOperator *wjob_sender_new(Lane *L, int exch, WRel *r)
{
    Sender *sd = wcalloc(1, sizeof *sd);
    wop_init(&sd->base, &SENDER_OPS, &L->ctx, 1, r->out.n, r->out.types, r->out.names);
    sd->base.untimed = true;
    sd->lane = L;
    sd->exch = exch;
    sd->nkeys = r->nkeys;
    sd->keys = r->keys;
    WJob *j = L->job;
    assert(exch >= 0 && exch < j->nexch);
    sd->active = L->index < j->exch_send_p[exch];
    sd->nrecv = j->exch_recv_p[exch];
    sd->rebalance = j->exch_rebalance[exch];
    sd->single = !sd->rebalance && (wrel_exchange(r)->single || r->nkeys == 0);
    if (sd->rebalance) {        /* Flink: ThreadLocalRandom.nextInt(numberOfChannels) per sender */
        uint64_t seed = (uint64_t)wproc_mono_ns() ^ ((uint64_t)(L->index + 1) * 0x9e3779b97f4a7c15ULL) ^ (uint64_t)(uintptr_t)sd;
        sd->rr_next = (int)(whash_u64(seed) % (uint64_t)sd->nrecv);
    }
    sd->maxp = L->ctx.max_parallelism;
    sd->lane_of_kg = wmalloc(sizeof *sd->lane_of_kg * (size_t)(sd->maxp > 0 ? sd->maxp : 1));
    for (int kg = 0; kg < sd->maxp; kg++)
        sd->lane_of_kg[kg] = (uint16_t)wflink_operator_index(sd->maxp, sd->nrecv, kg);
    wsb_init(&sd->kb);
    sd->target = wmalloc(sizeof(int) * WCHUNK_CAP);
    sd->hash = wmalloc(sizeof(int32_t) * WCHUNK_CAP);
    sd->order = wmalloc(sizeof(int) * WCHUNK_CAP);
    sd->start = wmalloc(sizeof(int) * (size_t)(sd->nrecv + 1));
    sd->out = wcalloc((size_t)sd->nrecv, sizeof *sd->out);
    sd->out_cap = L->ctx.chunk_rows > 0 ? L->ctx.chunk_rows : WCHUNK_CAP;
    sd->gather_local = true;
    for (int i = 0; i < r->out.n; i++) if (wchunk_type_is_deep(r->out.types[i])) sd->gather_local = false;
    return &sd->base;
}
