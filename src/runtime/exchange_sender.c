/*
 * exchange_sender.c — the upstream side of an exchange, one operator per lane: routes each row to
 * the receiving lane that owns its key group (Flink's KeyGroupRangeAssignment), everything to lane
 * 0 for a single exchange, round-robin for a rebalance; watermarks, idleness and the end go to
 * every receiving lane. The rows' key hashes feed insight's exchange sketch. Local rows go to the
 * lane's own receiver by reference, other lanes get copies through their inboxes
 * (wjob_lane_send, with its back-pressure); a channel blocked by checkpoint alignment holds them.
 * Depends on job_internal.h.
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
} Sender;

/* Sends rows rows[0..n) of c (rows NULL: all of them) to lane `to`: the local lane takes them by
   reference, synchronously; another lane (or a local channel blocked by checkpoint alignment)
   gets a deep copy it owns. */
static void send_rows_to(Sender *sd, int to, const WChunk *c, const int *rows, int n)
{
    Lane *L = sd->lane;
    assert(sd->active && to >= 0 && to < sd->nrecv && (!rows || (n > 0 && n <= c->nrows)));
    if (to == L->index && !wjob_ck_blocked(L, L->recv[sd->exch], L->index)) {
        if (!rows) {
            wjob_receiver_deliver(L->recv[sd->exch], MSG_CHUNK, L->index, 0, c);
            return;
        }
        WChunk *part = wchunk_new(c->ncols, c->types, n);
        wchunk_append_rows(part, c, rows, n, false);
        wjob_receiver_deliver(L->recv[sd->exch], MSG_CHUNK, L->index, 0, part);
        wchunk_free(part);
        return;
    }
    WChunk *copy = wchunk_new(c->ncols, c->types, rows ? n : c->nrows);
    if (rows) wchunk_append_rows(copy, c, rows, n, true);
    else wchunk_append_selected(copy, c, NULL);
    if (to == L->index) {       /* checkpoint alignment: the local channel is blocked */
        Msg *m = wcalloc(1, sizeof *m);
        *m = (Msg){.kind = MSG_CHUNK, .exch = sd->exch, .from = L->index, .chunk = copy};
        wjob_ck_hold(L, m);
        return;
    }
    wjob_lane_send(L, to, MSG_CHUNK, sd->exch, 0, copy);
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
    return &sd->base;
}
