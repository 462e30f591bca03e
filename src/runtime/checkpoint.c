/*
 * checkpoint.c — the checkpoint protocol: when to trigger (interval, min-pause, savepoints on
 * request), each lane's part, completion and retention, the final checkpoint of a finished job,
 * and the figures. See checkpoint.h; options, failure policy, restore and test hooks have their
 * own files (checkpoint_internal.h).
 *
 * A lane's part of a checkpoint is written by the lane's own thread once it is consistent (all
 * its inputs aligned, see job.c); its acknowledgement adds the lane's lines to the checkpoint's
 * metadata, and the last one writes `_metadata` (checksummed text, like every file here) and
 * completes the checkpoint: older ones beyond the retained count are deleted and unreferenced
 * shared SST files collected.
 */
#include "checkpoint_internal.h"
#include "../state/timers.h"
#include "../common/arena.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

const char CKPT_META_MAGIC[8] = {'W', 'E', 'I', 'R', 'C', 'K', 'P', '1'};
const char CKPT_LANE_MAGIC[8] = {'W', 'E', 'I', 'R', 'L', 'A', 'N', '1'};
const char CKPT_END_MAGIC[4] = {'W', 'E', 'N', 'D'};

int64_t ckpt_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t ckpt_mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void ckpt_random_hex(char *out, int n)
{
    unsigned char b[32];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) {
        uint64_t x = (uint64_t)ckpt_wall_ms() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)ckpt_mono_us();
        for (int i = 0; i < 32; i++) { x = x * 6364136223846793005ULL + 1442695040888963407ULL; b[i] = (unsigned char)(x >> 56); }
    }
    static const char hx[] = "0123456789abcdef";
    for (int i = 0; i < n; i++) out[i] = hx[(b[i / 2] >> (i % 2 ? 0 : 4)) & 15];
    out[n] = 0;
}

/* The identity of a node for matching: its output row type (and table for scans/sinks). */
char *ckpt_node_sig(const WRel *r)
{
    WArena *a = warena_new(0);
    WStrBuf s;
    wsb_init(&s);
    if (r->kind == WR_SCAN && wrel_scan(r)->table_qname) wsb_printf(&s, "table=%s ", wrel_scan(r)->table_qname);
    if (r->kind == WR_SINK && wrel_sink(r)->qname) wsb_printf(&s, "table=%s ", wrel_sink(r)->qname);
    wsb_append(&s, "row(");
    for (int i = 0; i < r->out.n; i++) {
        const char *t = wtype_str(a, r->out.types[i]);
        for (const char *q = t; *q; q++) wsb_putc(&s, *q == ' ' || *q == '\n' ? '_' : *q);
        if (i + 1 < r->out.n) wsb_putc(&s, ',');
    }
    wsb_putc(&s, ')');
    warena_delete(a);
    return wsb_detach(&s);
}

static bool write_text_file(const char *path, const char magic[8], const char *text, size_t len, int64_t *size,
                            uint32_t *crc, WError *err)
{
    WSnapOut o;
    if (!wsnap_out_open(&o, path, err)) return false;
    wsnap_out_write(&o, magic, 8);
    wsnap_out_write(&o, text, len);
    return wsnap_out_finish(&o, CKPT_END_MAGIC, size, crc, err);
}

/* ------------------------------------------------------------------------------ snapshots */


/* Called with mu held: start the oldest waiting savepoint request, if any. */
static int64_t trigger_request(WCkpt *c)
{
    int r = -1;
    for (int i = 0; i < c->nreqs && r < 0; i++) if (c->reqs[i].state == WCKPT_REQ_PENDING && !c->reqs[i].id) r = i;
    if (r < 0) return 0;
    SpReq *q = &c->reqs[r];
    __atomic_sub_fetch(&c->req_waiting, 1, __ATOMIC_SEQ_CST);
    if (c->lane_ended || c->failed) {
        q->state = WCKPT_REQ_FAILED;
        snprintf(q->failure, sizeof q->failure, "%s",
                 c->failed ? "Failed to trigger savepoint. Failure reason: the job's checkpoint coordinator has failed."
                           : "Failed to trigger savepoint. Failure reason: Not all required tasks are currently running.");
        return 0;
    }
    int64_t id = ++c->last_id;
    q->id = id;
    c->pending = id;
    c->cur_req = r;
    char rnd[16], name[96];
    ckpt_random_hex(rnd, 12);
    snprintf(name, sizeof name, "savepoint-%.6s-%s", c->job_id, rnd);
    free(c->cur_dir);
    c->cur_dir = wsnap_join(q->target, name);
    snprintf(q->path, sizeof q->path, "%s", c->cur_dir);
    c->trigger_wall_ms = ckpt_wall_ms();
    c->acks = 0;
    c->full_bytes = c->inc_bytes = c->align_us = c->sync_us = 0;
    c->inc_any = false;
    return id;
}

int64_t wckpt_poll_trigger(WCkpt *c, int64_t now_ms)
{
    if (!c) return 0;
    bool req = __atomic_load_n(&c->req_waiting, __ATOMIC_SEQ_CST) > 0;
    if (c->interval_ms <= 0 && !req) return 0;
    int64_t id = 0;
    pthread_mutex_lock(&c->mu);
    if (ckpt_expired_locked(c)) ckpt_expire_locked(c);
    if (req && !c->pending) id = trigger_request(c);
    if (!id && c->interval_ms > 0 && !c->pending && !c->lane_ended && !c->failed) {
        if (!c->last_trigger_ms) c->last_trigger_ms = now_ms;     /* first interval from the start */
        bool due = now_ms - c->last_trigger_ms >= c->interval_ms;
        if (due && c->any_complete && now_ms - c->last_complete_ms < c->min_pause_ms) due = false;
        if (due) {
            id = ++c->last_id;
            c->pending = id;
            c->last_trigger_ms = now_ms;
            c->trigger_wall_ms = ckpt_wall_ms();
            c->acks = 0;
            c->full_bytes = c->inc_bytes = c->align_us = c->sync_us = 0;
            c->inc_any = false;
            char *d = ckpt_chk_dir(c, id, false);
            wsnap_rmtree(d);            /* an incomplete one of an earlier run with this job id */
            free(d);
        }
    }
    pthread_mutex_unlock(&c->mu);
    return id;
}

int64_t wckpt_wait_ms(WCkpt *c, int64_t now_ms)
{
    if (!c) return -1;
    if (__atomic_load_n(&c->req_waiting, __ATOMIC_SEQ_CST) > 0) return 0;
    int64_t wait = 0;
    bool timed = true;
    pthread_mutex_lock(&c->mu);
    if (c->pending && c->timeout_ms > 0) {
        wait = c->trigger_wall_ms + c->timeout_ms + 1 - ckpt_wall_ms();
    } else if (!c->pending && c->interval_ms > 0 && !c->lane_ended && !c->failed) {
        int64_t due = (c->last_trigger_ms ? c->last_trigger_ms : now_ms) + c->interval_ms;
        if (c->any_complete && c->last_complete_ms + c->min_pause_ms > due) due = c->last_complete_ms + c->min_pause_ms;
        wait = due - now_ms;
    } else {
        timed = false;
    }
    pthread_mutex_unlock(&c->mu);
    return !timed ? -1 : wait < 0 ? 0 : wait;
}

int64_t wckpt_pending(WCkpt *c)
{
    if (!c) return 0;
    pthread_mutex_lock(&c->mu);
    int64_t p = c->pending;
    pthread_mutex_unlock(&c->mu);
    return p;
}

bool wckpt_lane_may_end(WCkpt *c, int lane, int64_t lane_done)
{
    if (!c) return true;
    assert(lane >= 0 && lane < c->parallelism && lane_done >= 0);
    pthread_mutex_lock(&c->mu);
    bool ok = !(c->pending && c->pending > lane_done);
    if (ok) c->lane_ended = true;
    pthread_mutex_unlock(&c->mu);
    return ok;
}

char *ckpt_chk_dir(const WCkpt *c, int64_t id, bool savepoint)
{
    char name[96];
    if (savepoint) {
        char rnd[16];
        ckpt_random_hex(rnd, 12);
        snprintf(name, sizeof name, "savepoint-%.6s-%s", c->job_id, rnd);
        return wsnap_join(c->savepoint_dir, name);
    }
    snprintf(name, sizeof name, "chk-%lld", (long long)id);
    return wsnap_join(c->base, name);
}

void ckpt_record_stats(WCkpt *c, const WCkptStats *st)
{
    if (c->nstats == c->cap_stats) {
        c->cap_stats = c->cap_stats ? c->cap_stats * 2 : 8;
        c->stats = wrealloc(c->stats, sizeof(WCkptStats) * (size_t)c->cap_stats);
    }
    c->stats[c->nstats++] = *st;
}

/* Write lane L's files into dir; its metadata lines go to meta, its keyed-state dirs to dirs. */
static bool write_lane(WCkpt *c, WCkptLane *L, int64_t id, const char *dir, WStrBuf *meta, WStrBuf *dirs,
                       int64_t *full, int64_t *inc, bool *inc_any, WError *err)
{
    int s = L->index;
    WExecRegistry *reg = L->registry;
    /* keyed state and timers of every registered backend, numbered per node */
    for (int i = 0; reg && i < reg->n; i++) {
        WExecStateEntry *e = &reg->items[i];
        if (e->node_id < 0) continue;
        int k = 0;
        for (int q = 0; q < i; q++) if (reg->items[q].node_id == e->node_id && !reg->items[q].timers == !e->timers) k++;
        char name[128];
        if (e->backend) {
            snprintf(name, sizeof name, "op-%d-%d-%d", e->node_id, k, s);
            char *sub = wsnap_join(dir, name);
            WSnapshotStats st = {0};
            bool incr = c->incremental && wstate_backend_type(e->backend) == WSTATE_BACKEND_ROCKSDB;
            bool ok = wstate_snapshot(e->backend, sub, incr ? c->shared : NULL, &st, err);
            if (ok) {
                wsb_printf(meta, "state %d %d %d %s\n", e->node_id, k, s, name);
                wsb_printf(dirs, "%s\n", sub);
                *full += st.state_bytes;
                *inc += st.written_bytes;
                if (st.incremental) *inc_any = true;
            }
            free(sub);
            if (!ok) return false;
        } else if (e->timers) {
            snprintf(name, sizeof name, "op-%d-%d-%d.timers", e->node_id, k, s);
            char *path = wsnap_join(dir, name);
            int64_t size = 0;
            uint32_t crc = 0;
            bool ok = wtimers_snapshot(e->timers, path, c->max_parallelism, err) &&
                      wsnap_file_crc(path, &crc, &size, err);
            free(path);
            if (!ok) return false;
            wsb_printf(meta, "timers %d %d %d %s %lld %lld\n", e->node_id, k, s, name, (long long)size,
                       (long long)crc);
            *full += size;
            *inc += size;
        }
    }
    /* the lane file: source positions, watermarks, sink commit state */
    WStrBuf t;
    wsb_init(&t);
    char *pos = wmalloc(65536);
    for (int i = 0; i < L->nsrc; i++) {
        WCkptSource *src = &L->srcs[i];
        bool have = src->src && src->src->position && src->src->position(src->src, pos, 65536);
        if (have && (strchr(pos, ' ') || strchr(pos, '\n'))) have = false;
        wsb_printf(&t, "source %d %d %s\n", src->rel->id, src->values_next ? *src->values_next : 0, have ? pos : "-");
    }
    free(pos);
    for (int i = 0; i < L->nops; i++) {
        WOperator *op = L->ops[i];
        bool any = false;
        for (int q = 0; q < op->ninputs; q++) any |= op->input_wm[q] != WWM_MIN;
        if (!any) continue;
        wsb_printf(&t, "op %d %d", L->rels[i]->id, op->ninputs);
        for (int q = 0; q < op->ninputs; q++) wsb_printf(&t, " %lld", (long long)op->input_wm[q]);
        wsb_putc(&t, '\n');
    }
    for (int i = 0; i < L->nrecv; i++) {
        WCkptRecv *r = &L->recv[i];
        wsb_printf(&t, "recv %d %d", r->rel->id, r->nfrom);
        for (int q = 0; q < r->nfrom; q++) wsb_printf(&t, " %lld", (long long)r->wm[q]);
        wsb_putc(&t, '\n');
    }
    bool ok = true;
    for (int i = 0; ok && i < L->nsinks; i++) {
        WSink *sk = L->sinks[i];
        if (!sk->prepare_commit) continue;
        char *state = NULL;
        ok = sk->prepare_commit(sk, id, &state, err);
        if (ok) {
            size_t n = state ? strlen(state) : 0;
            wsb_printf(&t, "sink %d %zu\n", L->sink_rels[i]->id, n);
            if (n) wsb_appendn(&t, state, n);
            wsb_putc(&t, '\n');
        }
        free(state);
    }
    if (ok) {
        char name[64];
        snprintf(name, sizeof name, "lane-%d", s);
        char *path = wsnap_join(dir, name);
        int64_t size = 0;
        uint32_t crc = 0;
        ok = write_text_file(path, CKPT_LANE_MAGIC, t.buf ? t.buf : "", t.len, &size, &crc, err);
        free(path);
        if (ok) {
            wsb_printf(meta, "lane %d %s %lld %lld\n", s, name, (long long)size, (long long)crc);
            *full += size;
            *inc += size;
        }
    }
    wsb_free(&t);
    if (ok && s == 0) {
        for (int i = 0; i < L->nops; i++) {
            char *sig = ckpt_node_sig(L->rels[i]);
            wsb_printf(meta, "operator %d %s %s\n", L->rels[i]->id, wrel_kind_name(L->rels[i]->kind), sig);
            free(sig);
        }
    }
    return ok;
}

/* Keep the newest num_retained checkpoints; collect shared files nobody references. */
static void apply_retention(WCkpt *c, char *dir, char *dirs_text)
{
    Retained r = {.dir = dir};
    for (char *p = dirs_text; p && *p; ) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        r.dirs = wrealloc(r.dirs, sizeof(char *) * (size_t)(r.ndirs + 1));
        r.dirs[r.ndirs++] = strndup(p, n);
        p += n + (nl ? 1 : 0);
    }
    PUSH(c->retained, c->nretained, r);
    while (c->nretained > c->num_retained) {
        wsnap_rmtree(c->retained[0].dir);
        free(c->retained[0].dir);
        for (int k = 0; k < c->retained[0].ndirs; k++) free(c->retained[0].dirs[k]);
        free(c->retained[0].dirs);
        memmove(c->retained, c->retained + 1, sizeof(Retained) * (size_t)(c->nretained - 1));
        c->nretained--;
    }
    if (c->incremental && c->shared) {
        int n = 0;
        for (int i = 0; i < c->nretained; i++) n += c->retained[i].ndirs;
        const char **live = wcalloc((size_t)(n ? n : 1), sizeof(char *));
        n = 0;
        for (int i = 0; i < c->nretained; i++)
            for (int k = 0; k < c->retained[i].ndirs; k++) live[n++] = c->retained[i].dirs[k];
        WError e;
        werr_clear(&e);
        wstate_snapshot_gc(c->shared, live, n, &e);
        free(live);
    }
}

/* Called with c->mu held once every lane acknowledged: write _metadata and complete. */
static bool complete(WCkpt *c, int64_t id, const char *dir, bool savepoint, int64_t sim_now, WError *err)
{
    ckpt_test_kill(c, KILL_BEFORE_META, id);
    WStrBuf m;
    wsb_init(&m);
    wsb_printf(&m, "weir-checkpoint 1\njob %s\ncheckpoint %lld\ntype %s\nparallelism %d\nmax-parallelism %d\n"
                   "job-parallelism %d\nsim-now %lld\ntimestamp %lld\n",
               c->job_id, (long long)id, savepoint ? "SAVEPOINT" : "CHECKPOINT", c->parallelism, c->max_parallelism,
               c->job_parallelism > 0 ? c->job_parallelism : c->parallelism, (long long)sim_now,
               (long long)c->trigger_wall_ms);
    for (int i = 0; i < c->parallelism; i++) if (c->lane_meta[i].len) wsb_appendn(&m, c->lane_meta[i].buf, c->lane_meta[i].len);
    /* _metadata marks a checkpoint complete, so it must appear whole or not at all: written as
       _metadata.inprogress, then renamed (and the directory synced). Written in place, a SIGKILL
       inside the write left a torn _metadata that looked complete and was refused at restore
       (found by tests/recovery/chaos; WEIR_TEST_KILL_AT=during-metadata:<n> tears the write) */
    char *path = wsnap_join(dir, META_FILE);
    char *tmp = wsnap_join(dir, META_FILE ".inprogress");
    int64_t size = 0;
    ckpt_test_torn_write(c, id, tmp, m.buf, m.len);
    bool ok = write_text_file(tmp, CKPT_META_MAGIC, m.buf, m.len, &size, NULL, err);
    if (ok && rename(tmp, path) != 0) {
        ok = werr_set(err, WEXC_IO, "Cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
    }
    if (ok) {
        int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) { fsync(dfd); close(dfd); }
    }
    free(tmp);
    free(path);
    wsb_free(&m);
    WCkptStats st = {.id = id, .savepoint = savepoint, .completed = ok, .incremental = c->inc_any,
                     .trigger_ms = c->trigger_wall_ms, .full_bytes = c->full_bytes + size,
                     .incremental_bytes = c->inc_bytes + size, .alignment_us = c->align_us, .sync_us = c->sync_us};
    st.duration_ms = ckpt_wall_ms() - c->trigger_wall_ms;
    snprintf(st.path, sizeof st.path, "%s", dir);
    if (!ok) snprintf(st.failure, sizeof st.failure, "%s", err->msg);
    ckpt_record_stats(c, &st);
    if (c->cur_req >= 0 && c->reqs[c->cur_req].id == id) {
        SpReq *q = &c->reqs[c->cur_req];
        q->state = ok ? WCKPT_REQ_COMPLETED : WCKPT_REQ_FAILED;
        if (!ok) snprintf(q->failure, sizeof q->failure, "%s", err->msg);
        c->cur_req = -1;
    }
    if (ok && !savepoint) {
        WStrBuf d;
        wsb_init(&d);
        for (int i = 0; i < c->parallelism; i++) if (c->lane_dirs[i]) wsb_append(&d, c->lane_dirs[i]);
        char *text = wsb_detach(&d);
        apply_retention(c, wstrdup(dir), text);
        free(text);
    }
    for (int i = 0; i < c->parallelism; i++) { wsb_clear(&c->lane_meta[i]); free(c->lane_dirs[i]); c->lane_dirs[i] = NULL; }
    if (ok) {
        c->completed = id;
        c->any_complete = true;
        if (!savepoint) c->consecutive_failed = 0;
    } else if (!savepoint && !c->finishing) {
        /* declined, counted against the tolerance; checkpointing goes on */
        wsnap_rmtree(dir);
        ckpt_count_failure_locked(c, id, "Failure to finalize checkpoint.", err->msg);
        werr_clear(err);
        ok = true;
    } else {
        c->failed = true;
        wsnap_rmtree(dir);
    }
    c->pending = 0;
    if (ok) ckpt_test_kill(c, KILL_AFTER_META, id);
    return ok;
}

static bool lane_snapshot(WCkpt *c, WCkptLane *L, int64_t id, bool savepoint, const char *dir, int64_t align_us,
                          int64_t sim_now, WError *err)
{
    ckpt_test_delay(c);
    int64_t t0 = ckpt_mono_us();
    WStrBuf meta, dirs;
    wsb_init(&meta);
    wsb_init(&dirs);
    int64_t full = 0, inc = 0;
    bool inc_any = false;
    bool ok = wsnap_mkdirs(dir, err);
    if (ok && !savepoint) ok = ckpt_test_write(c, id, dir, err);
    ok = ok && write_lane(c, L, id, dir, &meta, &dirs, &full, &inc, &inc_any, err);
    int64_t sync = ckpt_mono_us() - t0;
    pthread_mutex_lock(&c->mu);
    if (c->pending == id && ckpt_expired_locked(c)) ckpt_expire_locked(c);
    if (c->pending != id) {
        /* expired meanwhile: this lane's part is dropped with the rest (a write that failed because
           the expiry removed the directory under it is no failure of the job) */
        wsnap_rmtree(dir);
        if (!ok) werr_clear(err);
        ok = true;
    } else if (ok) {
        wsb_clear(&c->lane_meta[L->index]);
        if (meta.len) wsb_appendn(&c->lane_meta[L->index], meta.buf, meta.len);
        free(c->lane_dirs[L->index]);
        c->lane_dirs[L->index] = wsb_detach(&dirs);
        c->full_bytes += full;
        c->inc_bytes += inc;
        c->inc_any |= inc_any;
        if (align_us > c->align_us) c->align_us = align_us;
        if (sync > c->sync_us) c->sync_us = sync;
        if (++c->acks == c->parallelism) ok = complete(c, id, dir, savepoint, sim_now, err);
    } else {
        WCkptStats st = {.id = id, .savepoint = savepoint, .trigger_ms = c->trigger_wall_ms};
        snprintf(st.path, sizeof st.path, "%s", dir);
        snprintf(st.failure, sizeof st.failure, "%s", err->msg);
        st.duration_ms = ckpt_wall_ms() - c->trigger_wall_ms;
        ckpt_record_stats(c, &st);
        c->pending = 0;
        for (int i = 0; i < c->parallelism; i++) { wsb_clear(&c->lane_meta[i]); free(c->lane_dirs[i]); c->lane_dirs[i] = NULL; }
        c->acks = 0;
        if (!savepoint && !c->finishing) {
            /* a checkpoint whose files could not be written (a full disk) is declined and counted
               against the tolerance, as Flink's CHECKPOINT_ASYNC_EXCEPTION; the job goes on. The
               final checkpoint of a finished job is not declined: the job's last output is only
               committed by it, so its failure fails the job (found by tests/fault/sweep: a failed
               rename of the final checkpoint's manifest ended the job "successfully" with its last
               part file never published) */
            ckpt_count_failure_locked(c, id, "Asynchronous task checkpoint failed.", err->msg);
            wsnap_rmtree(dir);
            werr_clear(err);
            ok = true;
        } else {
            c->failed = true;
        }
        if (c->cur_req >= 0 && c->reqs[c->cur_req].id == id) {
            c->reqs[c->cur_req].state = WCKPT_REQ_FAILED;
            snprintf(c->reqs[c->cur_req].failure, sizeof c->reqs[c->cur_req].failure, "%s", err->msg);
            c->cur_req = -1;
        }
    }
    pthread_mutex_unlock(&c->mu);
    wsb_free(&meta);
    wsb_free(&dirs);
    return ok;
}

bool wckpt_lane_snapshot(WCkpt *c, WCkptLane *L, int64_t id, int64_t align_us, int64_t sim_now, WError *err)
{
    assert(c && L && L->index >= 0 && L->index < c->parallelism && id > 0 && err);
    pthread_mutex_lock(&c->mu);
    bool sp = c->cur_req >= 0 && c->reqs[c->cur_req].id == id;
    char *dir = sp ? wstrdup(c->cur_dir) : ckpt_chk_dir(c, id, false);
    pthread_mutex_unlock(&c->mu);
    bool ok = lane_snapshot(c, L, id, sp, dir, align_us, sim_now, err);
    if (!ok) wsnap_rmtree(dir);
    free(dir);
    if (!ok) werr_prefix(err, "%s %lld of job %s failed: ", sp ? "Savepoint" : "Checkpoint", (long long)id, c->job_id);
    return ok;
}

/* ------------------------------------------------------------------ savepoints on request */

int64_t wckpt_request_savepoint(WCkpt *c, const char *target_dir, bool stop, bool drain, WError *err)
{
    if (!c) return werr_set(err, "java.lang.IllegalStateException", "The job takes no savepoints."), 0;
    if (!target_dir || !*target_dir)
        return werr_set(err, WEXC_ILLEGAL_ARG,
                        "No savepoint directory configured. You can either specify a directory explicitly or "
                        "configure a default savepoint directory via key 'execution.checkpointing.savepoint-dir'."), 0;
    pthread_mutex_lock(&c->mu);
    if (c->nreqs >= 1024) {
        pthread_mutex_unlock(&c->mu);
        return werr_set(err, "java.lang.IllegalStateException", "Too many savepoint requests for job %s.", c->job_id), 0;
    }
    c->reqs = wrealloc(c->reqs, sizeof(SpReq) * (size_t)(c->nreqs + 1));
    SpReq *q = &c->reqs[c->nreqs++];
    memset(q, 0, sizeof *q);
    q->target = wstrdup(ckpt_local_path(target_dir));
    q->stop = stop;
    q->drain = drain;
    q->state = WCKPT_REQ_PENDING;
    __atomic_store_n(&c->live, true, __ATOMIC_SEQ_CST);
    int64_t n = c->nreqs;
    __atomic_add_fetch(&c->req_waiting, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&c->mu);
    return n;
}

bool wckpt_request_status(const WCkpt *c, int64_t req, WCkptRequest *out)
{
    if (!c || req < 1) return false;
    pthread_mutex_lock((pthread_mutex_t *)&c->mu);
    bool ok = req <= c->nreqs;
    if (ok) {
        const SpReq *q = &c->reqs[req - 1];
        memset(out, 0, sizeof *out);
        out->state = q->state;
        out->id = q->id;
        out->stop = q->stop;
        out->drain = q->drain;
        snprintf(out->path, sizeof out->path, "%s", q->path);
        snprintf(out->failure, sizeof out->failure, "%s", q->failure);
    }
    pthread_mutex_unlock((pthread_mutex_t *)&c->mu);
    return ok;
}

int wckpt_stop_state(WCkpt *c, int64_t id)
{
    if (!c || id <= 0) return 0;
    int res = 0;
    pthread_mutex_lock(&c->mu);
    for (int i = 0; i < c->nreqs; i++) {
        const SpReq *q = &c->reqs[i];
        if (q->id != id || !q->stop) continue;
        res = q->state == WCKPT_REQ_PENDING ? 1 : q->state == WCKPT_REQ_FAILED ? -1 : q->drain ? 3 : 2;
        if (res == 2) c->stopped = true;
    }
    pthread_mutex_unlock(&c->mu);
    return res;
}

bool wckpt_live(const WCkpt *c)
{
    if (!c) return false;
    return __atomic_load_n(&c->live, __ATOMIC_SEQ_CST);
}

bool wckpt_lane_commit(WCkpt *c, WCkptLane *L, int64_t *committed, WError *err)
{
    assert(c && L && committed && L->index >= 0 && L->index < c->parallelism);
    pthread_mutex_lock(&c->mu);
    int64_t done = c->completed;
    pthread_mutex_unlock(&c->mu);
    if (done <= *committed) return true;
    for (int i = 0; i < L->nsinks; i++)
        if (L->sinks[i]->commit && !L->sinks[i]->commit(L->sinks[i], done, err)) return false;
    for (int i = 0; i < L->nsrc; i++) {
        WSource *src = L->srcs[i].src;
        if (src && src->checkpoint_complete && !src->checkpoint_complete(src, err)) return false;
    }
    *committed = done;
    return true;
}

bool wckpt_finish(WCkpt *c, WCkptLane *lanes, int nlanes, bool ok, int64_t sim_now, WError *err)
{
    if (!c) return true;
    assert(err && nlanes >= 0 && nlanes <= c->parallelism && (lanes || nlanes == 0));
    bool res = true;
    pthread_mutex_lock(&c->mu);
    if (ok) ckpt_test_kill_at_finish(c);
    bool stopped = c->stopped;
    for (int i = 0; i < c->nreqs; i++)
        if (c->reqs[i].state == WCKPT_REQ_PENDING) {
            c->reqs[i].state = WCKPT_REQ_FAILED;
            snprintf(c->reqs[i].failure, sizeof c->reqs[i].failure,
                     "Failed to trigger savepoint. Failure reason: Not all required tasks are currently running.");
        }
    c->req_waiting = 0;
    pthread_mutex_unlock(&c->mu);
    if (stopped) ok = true;     /* stop-with-savepoint: finished, the savepoint is the last one */
    if (ok && !stopped && (c->interval_ms > 0 || c->savepoint_dir)) {
        /* the final checkpoint (or savepoint) of a finished job: every lane is quiescent */
        bool sp = c->savepoint_dir != NULL;
        pthread_mutex_lock(&c->mu);
        int64_t id = ++c->last_id;
        c->pending = id;
        c->acks = 0;
        c->failed = false;
        c->finishing = true;
        c->trigger_wall_ms = ckpt_wall_ms();
        c->full_bytes = c->inc_bytes = c->align_us = c->sync_us = 0;
        c->inc_any = false;
        pthread_mutex_unlock(&c->mu);
        char *dir = ckpt_chk_dir(c, id, sp);
        if (!sp) wsnap_rmtree(dir);
        if (sp && !wsnap_mkdirs(c->savepoint_dir, err)) res = false;
        for (int l = 0; res && l < nlanes; l++) res = lane_snapshot(c, &lanes[l], id, sp, dir, 0, sim_now, err);
        if (!res) {
            wsnap_rmtree(dir);
            werr_prefix(err, "%s %lld of job %s failed: ", sp ? "Savepoint" : "Checkpoint", (long long)id, c->job_id);
        }
        free(dir);
        if (res) {
            pthread_mutex_lock(&c->mu);
            c->completed = id;
            pthread_mutex_unlock(&c->mu);
            for (int l = 0; res && l < nlanes; l++) {
                int64_t committed = 0;
                res = wckpt_lane_commit(c, &lanes[l], &committed, err);
            }
        }
    }
    /* retention when the job terminates: only RETAIN_ON_CANCELLATION keeps the checkpoints of a
       finished or cancelled job; a failed one keeps them unless none are externalized */
    bool keep = c->retention == RET_RETAIN_ON_CANCEL || (!ok && c->retention == RET_DELETE_ON_CANCEL);
    if (c->base && (!keep || c->temp_base)) wsnap_rmtree(c->base);
    return res;
}

/* ------------------------------------------------------------------------------ figures */

int wckpt_stats_count(const WCkpt *c)
{
    if (!c) return 0;
    pthread_mutex_lock((pthread_mutex_t *)&c->mu);
    int n = c->nstats;
    pthread_mutex_unlock((pthread_mutex_t *)&c->mu);
    return n;
}

bool wckpt_stats_get(const WCkpt *c, int i, WCkptStats *out)
{
    if (!c) return false;
    pthread_mutex_lock((pthread_mutex_t *)&c->mu);
    bool ok = i >= 0 && i < c->nstats;
    if (ok) *out = c->stats[i];
    pthread_mutex_unlock((pthread_mutex_t *)&c->mu);
    return ok;
}

void wckpt_report(const WCkpt *c, WStrBuf *out)
{
    if (!c) return;
    if (c->restore)
        wsb_printf(out, "Restored from %s %lld (%s, parallelism %d)\n", c->restore->savepoint ? "savepoint" : "checkpoint",
                   (long long)c->restore->id, c->restore_path, c->restore->parallelism);
    int n = wckpt_stats_count(c);
    for (int i = 0; i < n; i++) {
        WCkptStats st;
        if (!wckpt_stats_get(c, i, &st)) break;
        wsb_printf(out, "%s %lld: %s", st.savepoint ? "Savepoint" : "Checkpoint", (long long)st.id,
                   st.completed ? "COMPLETED" : "FAILED");
        if (st.completed)
            wsb_printf(out, " full_size=%lld incremental_size=%lld%s duration=%lldms alignment=%lldus sync=%lldus",
                       (long long)st.full_bytes, (long long)st.incremental_bytes, st.incremental ? " (incremental)" : "",
                       (long long)st.duration_ms, (long long)st.alignment_us, (long long)st.sync_us);
        if (st.savepoint) wsb_printf(out, " path=%s", st.path);
        if (!st.completed && st.failure[0]) wsb_printf(out, " (%s)", st.failure);
        wsb_putc(out, '\n');
    }
}
