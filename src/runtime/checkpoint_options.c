/*
 * checkpoint_options.c — a job's checkpoint coordinator from its options: execution.checkpointing.*
 * (interval, mode, timeout, min-pause, tolerable failures, retention, incremental),
 * state.checkpoints.*, execution.savepoint.* (the path to restore from, read at once),
 * weir.exec.savepoint-at-end, the job id and the checkpoint directories; freeing it; the small
 * getters. See checkpoint.h.
 */
#include "checkpoint_internal.h"
#include "../common/duration.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *ckpt_local_path(const char *p)
{
    if (strncmp(p, "file://", 7) == 0) return p + 7;
    if (strncmp(p, "file:", 5) == 0) return p + 5;
    return p;
}

/* First of two keys present (Flink 2 name, then the older one). */
static const char *opt2(const WOptions *o, const char *a, const char *b)
{
    const char *v = wopts_get(o, a);
    return v ? v : b ? wopts_get(o, b) : NULL;
}
void wckpt_set_job_parallelism(WCkpt *c, int job_parallelism)
{
    assert(job_parallelism > 0);
    if (c) c->job_parallelism = job_parallelism;
}

WCkpt *wckpt_new(const WOptions *o, const char *job_id, int parallelism, WError *err)
{
    if (!o) return NULL;
    WCkpt *c = wcalloc(1, sizeof *c);
    pthread_mutex_init(&c->mu, NULL);
    c->parallelism = parallelism;
    bool ok = true;
    const char *iv = wopts_get(o, "execution.checkpointing.interval");
    if (iv) ok = wopts_get_duration_ms(o, "execution.checkpointing.interval", 0, &c->interval_ms, err);
    if (c->interval_ms < 0) c->interval_ms = 0;
    const char *mode = wopts_get_or(o, "execution.checkpointing.mode", "EXACTLY_ONCE");
    if (ok && !strcasecmp(mode, "EXACTLY_ONCE")) c->exactly_once = true;
    else if (ok && strcasecmp(mode, "AT_LEAST_ONCE") != 0)
        ok = werr_set(err, WEXC_ILLEGAL_ARG,
                      "Could not parse value '%s' for key 'execution.checkpointing.mode'.", mode);
    if (ok) ok = wopts_get_duration_ms(o, "execution.checkpointing.timeout", 600000, &c->timeout_ms, err);
    if (ok) ok = wopts_get_long(o, "execution.checkpointing.tolerable-failed-checkpoints", 0, &c->tolerable, err);
    /* test hooks: only the environment of the weir process reaches them (tests/recovery), never a
       SQL session or the gateway (a SET of any other key is accepted and has no effect, as in Flink) */
    const char *delay = getenv("WEIR_TEST_SNAPSHOT_DELAY");
    if (ok && delay && *delay) ok = wduration_parse(delay, &c->test_delay_ms, err);
    if (ok) ok = wopts_get_duration_ms(o, "execution.checkpointing.min-pause", 0, &c->min_pause_ms, err);
    int64_t nret = 1;
    const char *nk = wopts_get(o, "execution.checkpointing.num-retained") ? "execution.checkpointing.num-retained"
                                                                          : "state.checkpoints.num-retained";
    if (ok) ok = wopts_get_long(o, nk, 1, &nret, err);
    if (ok && nret < 1)
        ok = werr_set(err, WEXC_ILLEGAL_ARG, "The configured number of retained checkpoints must be positive, got %lld.",
                      (long long)nret);
    c->num_retained = (int)nret;
    const char *ret = opt2(o, "execution.checkpointing.externalized-checkpoint-retention",
                           "execution.checkpointing.externalized-checkpoint-retention.type");
    if (!ret || !strcasecmp(ret, "NO_EXTERNALIZED_CHECKPOINTS")) c->retention = RET_NONE;
    else if (!strcasecmp(ret, "DELETE_ON_CANCELLATION")) c->retention = RET_DELETE_ON_CANCEL;
    else if (!strcasecmp(ret, "RETAIN_ON_CANCELLATION")) c->retention = RET_RETAIN_ON_CANCEL;
    else if (ok)
        ok = werr_set(err, WEXC_ILLEGAL_ARG,
                      "Could not parse value '%s' for key 'execution.checkpointing.externalized-checkpoint-retention'.", ret);
    const char *ik = wopts_get(o, "execution.checkpointing.incremental") ? "execution.checkpointing.incremental"
                                                                         : "state.backend.incremental";
    if (ok) ok = wopts_get_bool(o, ik, false, &c->incremental, err);
    const char *ik2 = wopts_get(o, "execution.savepoint.ignore-unclaimed-state") ? "execution.savepoint.ignore-unclaimed-state"
                                                                                  : "execution.savepoint.allow-non-restored-state";
    if (ok) ok = wopts_get_bool(o, ik2, false, &c->ignore_unclaimed, err);
    if (ok) ok = ckpt_parse_kill(c, getenv("WEIR_TEST_KILL_AT"), err);
    if (ok) ok = ckpt_parse_fail_ids(c, getenv("WEIR_TEST_FAIL_CHECKPOINTS"), err);
    const char *dir = opt2(o, "execution.checkpointing.dir", "state.checkpoints.dir");
    if (dir && *dir) c->root = wstrdup(ckpt_local_path(dir));
    const char *spe = wopts_get(o, "weir.exec.savepoint-at-end");
    if (ok && spe && strcasecmp(spe, "false") != 0) {
        const char *sd = strcasecmp(spe, "true") == 0
                             ? opt2(o, "execution.checkpointing.savepoint-dir", "state.savepoints.dir") : spe;
        if (!sd || !*sd)
            ok = werr_set(err, WEXC_ILLEGAL_ARG,
                          "No savepoint directory configured. You can either specify a directory as the value of "
                          "'weir.exec.savepoint-at-end' or configure a default via key 'state.savepoints.dir'.");
        else c->savepoint_dir = wstrdup(ckpt_local_path(sd));
    }
    if (ok) ok = wopts_get_bool(o, "weir.exec.savepoint-at-end.drain", true, &c->savepoint_drain, err);
    const char *rp = wopts_get(o, "execution.savepoint.path");
    if (ok && rp && *rp) {
        c->restore_path = wstrdup(ckpt_local_path(rp));
        size_t l = strlen(c->restore_path);
        while (l > 1 && c->restore_path[l - 1] == '/') c->restore_path[--l] = 0;
        /* a path to the _metadata file itself names its directory */
        if (l > 10 && !strcmp(c->restore_path + l - 10, "/_metadata")) c->restore_path[l - 10] = 0;
        ok = ckpt_meta_read(c->restore_path, &c->restore, err);
        if (ok) c->last_id = c->restore->id;       /* ids continue after the restored one */
    }
    if (!ok) {
        wckpt_free(c);
        return NULL;
    }
    /* without checkpoints, a restore or a final savepoint the coordinator idles until a savepoint
       is requested (nothing is written and every hook returns at once) */
    c->live = c->interval_ms || c->restore || c->savepoint_dir;
    c->cur_req = -1;
    const char *fixed = wopts_get(o, "$internal.pipeline.job-id");
    if (job_id && strlen(job_id) == 32) snprintf(c->job_id, sizeof c->job_id, "%s", job_id);
    else if (fixed && strlen(fixed) == 32) snprintf(c->job_id, sizeof c->job_id, "%s", fixed);
    else ckpt_random_hex(c->job_id, 32);
    if (c->interval_ms || c->savepoint_dir) {
        const char *root = c->root;
        char tmpl[512];
        if (!root) {
            const char *t = getenv("TMPDIR");
            snprintf(tmpl, sizeof tmpl, "%s/weir-checkpoints-XXXXXX", t && *t ? t : "/tmp");
            if (!mkdtemp(tmpl)) {
                werr_set(err, WEXC_IO, "Cannot create a checkpoint directory under '%s': %s", t && *t ? t : "/tmp",
                         strerror(errno));
                wckpt_free(c);
                return NULL;
            }
            root = tmpl;
            c->temp_base = true;
            c->root = wstrdup(tmpl);
        }
        c->base = wsnap_join(c->root, c->job_id);
        c->shared = wsnap_join(c->base, "shared");
        char *owned = wsnap_join(c->base, "taskowned");
        ok = wsnap_mkdirs(c->shared, err) && wsnap_mkdirs(owned, err);
        free(owned);
        if (!ok) { wckpt_free(c); return NULL; }
    }
    c->lane_meta = wcalloc((size_t)parallelism, sizeof(WStrBuf));
    for (int i = 0; i < parallelism; i++) wsb_init(&c->lane_meta[i]);
    c->lane_dirs = wcalloc((size_t)parallelism, sizeof(char *));
    return c;
}

void wckpt_free(WCkpt *c)
{
    if (!c) return;
    if (c->temp_base && c->root) wsnap_rmtree(c->root);
    ckpt_meta_free(c->restore);
    for (int i = 0; c->lane_meta && i < c->parallelism; i++) wsb_free(&c->lane_meta[i]);
    free(c->lane_meta);
    for (int i = 0; c->lane_dirs && i < c->parallelism; i++) free(c->lane_dirs[i]);
    free(c->lane_dirs);
    for (int i = 0; i < c->nretained; i++) {
        free(c->retained[i].dir);
        for (int k = 0; k < c->retained[i].ndirs; k++) free(c->retained[i].dirs[k]);
        free(c->retained[i].dirs);
    }
    free(c->retained);
    free(c->stats);
    free(c->root);
    free(c->base);
    free(c->shared);
    free(c->savepoint_dir);
    free(c->job_failure);
    for (int i = 0; i < c->nreqs; i++) free(c->reqs[i].target);
    free(c->reqs);
    free(c->cur_dir);
    free(c->restore_path);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

bool wckpt_max_parallelism(WCkpt *c, int configured, int dflt, int *out, WError *err)
{
    int m = configured > 0 ? configured : dflt;
    if (c && c->restore) {
        if (configured > 0 && configured != c->restore->max_parallelism)
            return werr_set(err, "java.lang.IllegalStateException",
                            "Failed to rollback to checkpoint/savepoint %s. Max parallelism mismatch between "
                            "checkpoint/savepoint state and new program. Cannot map the job with max parallelism %d "
                            "to new program with max parallelism %d. This indicates that the program has been changed "
                            "in a non-compatible way after the checkpoint/savepoint.",
                            c->restore_path, c->restore->max_parallelism, configured);
        m = c->restore->max_parallelism;
    }
    if (c) c->max_parallelism = m;
    *out = m;
    return true;
}

bool wckpt_enabled(const WCkpt *c) { return c && c->interval_ms > 0; }
bool wckpt_exactly_once(const WCkpt *c) { return c && c->exactly_once; }
bool wckpt_stop_at_end(const WCkpt *c) { return c && c->savepoint_dir && !c->savepoint_drain; }

int64_t wckpt_request_stop_at_end(WCkpt *c, WError *err)
{
    if (!wckpt_stop_at_end(c)) return 0;
    return wckpt_request_savepoint(c, c->savepoint_dir, true, false, err);
}

bool wckpt_transactional(const WCkpt *c) { return c && (c->interval_ms > 0 || c->savepoint_dir); }
const char *wckpt_job_id(const WCkpt *c) { return c ? c->job_id : NULL; }

void wckpt_registry_tag(WExecRegistry *r, int node_id)
{
    for (int i = 0; r && i < r->n; i++)
        if (r->items[i].node_id < 0) r->items[i].node_id = node_id;
}
