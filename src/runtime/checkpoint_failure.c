/*
 * checkpoint_failure.c — the failure policy of checkpoints, as Flink's CheckpointFailureManager:
 * a checkpoint past execution.checkpointing.timeout expires (its files removed), a declined one is
 * logged and counted, and more consecutive failures than
 * execution.checkpointing.tolerable-failed-checkpoints fail the job. See checkpoint.h.
 */
#include "checkpoint_internal.h"

#include <stdio.h>
#include <stdlib.h>

/* A checkpoint failed (expired, or its files could not be written): as Flink's
   CheckpointFailureManager, more consecutive failures than
   execution.checkpointing.tolerable-failed-checkpoints fail the job (wckpt_job_failure); a
   completed checkpoint resets the count. `why` is Flink's CheckpointFailureReason message.
   Called with c->mu held. */
/* A declined checkpoint: Flink's job failure message names only the failure reason and points to
   the checkpoint history and the JobManager log for the cause; weir's log is the process's
   standard error (the daemon's log file in a cluster), so the cause (the file that could not be
   written and the errno text, or the expiry) goes there, one line per failed checkpoint. */
void ckpt_count_failure_locked(WCkpt *c, int64_t id, const char *why, const char *detail)
{
    fprintf(stderr, "WARN Checkpoint %lld of job %s failed (%d consecutive failures, %lld tolerated): %s\n",
            (long long)id, c->job_id, (int)(c->consecutive_failed + 1), (long long)c->tolerable,
            detail && *detail ? detail : why);
    if (++c->consecutive_failed > c->tolerable && !c->job_failure) {
        char msg[512];
        snprintf(msg, sizeof msg,
                 "Exceeded checkpoint tolerable failure threshold. The latest checkpoint failed due to %s, view the "
                 "Checkpoint History tab or the Job Manager log to find out why continuous checkpoints failed.", why);
        c->job_failure = wstrdup(msg);
    }
}

/* The pending checkpoint (or savepoint) ran past execution.checkpointing.timeout: it is declined
   (Flink's CHECKPOINT_EXPIRED), its files removed; lanes still aligning for it drop it
   (wckpt_pending no longer names it). More consecutive failures than
   execution.checkpointing.tolerable-failed-checkpoints fail the job, as Flink's
   CheckpointFailureManager does. Called with c->mu held. */
void ckpt_expire_locked(WCkpt *c)
{
    int64_t id = c->pending;
    bool sp = c->cur_req >= 0 && c->reqs[c->cur_req].id == id;
    const char *why = "Checkpoint expired before completing.";
    WCkptStats st = {.id = id, .savepoint = sp, .trigger_ms = c->trigger_wall_ms};
    st.duration_ms = ckpt_wall_ms() - c->trigger_wall_ms;
    snprintf(st.failure, sizeof st.failure, "%s", why);
    char *dir = sp ? wstrdup(c->cur_dir) : ckpt_chk_dir(c, id, false);
    snprintf(st.path, sizeof st.path, "%s", dir);
    ckpt_record_stats(c, &st);
    wsnap_rmtree(dir);
    free(dir);
    if (sp) {
        SpReq *q = &c->reqs[c->cur_req];
        q->state = WCKPT_REQ_FAILED;
        snprintf(q->failure, sizeof q->failure, "%s", why);
        c->cur_req = -1;
    }
    for (int i = 0; i < c->parallelism; i++) { wsb_clear(&c->lane_meta[i]); free(c->lane_dirs[i]); c->lane_dirs[i] = NULL; }
    c->pending = 0;
    c->acks = 0;
    if (!sp) ckpt_count_failure_locked(c, id, why, why);
}

bool ckpt_expired_locked(const WCkpt *c)
{
    return c->pending && c->timeout_ms > 0 && ckpt_wall_ms() - c->trigger_wall_ms > c->timeout_ms;
}

bool wckpt_job_failure(WCkpt *c, WError *err)
{
    if (!c) return false;
    pthread_mutex_lock(&c->mu);
    bool f = c->job_failure != NULL;
    if (f) werr_set(err, "org.apache.flink.util.FlinkRuntimeException", "%s", c->job_failure);
    pthread_mutex_unlock(&c->mu);
    return f;
}
