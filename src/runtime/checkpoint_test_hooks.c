/*
 * checkpoint_test_hooks.c — fault injection for the recovery tests, reached only through the
 * environment of the weir process (never a SQL session or the gateway):
 * WEIR_TEST_KILL_AT=<tick|tick-after-checkpoint|before-metadata|during-metadata|after-metadata>:<n>
 * kills the process (SIGKILL) at that point (tick-after-checkpoint: the n-th chunk step once a
 * checkpoint has completed, so that a kill between checkpoints always has one to restore from, or
 * before the job's final checkpoint if the input ends first; before-/after-metadata:<n>: checkpoint
 * n's _metadata, or the final checkpoint's when the input ends first and one has completed),
 * WEIR_TEST_FAIL_CHECKPOINTS=<ids> makes those checkpoints' state writes
 * fail as on a full disk, WEIR_TEST_SNAPSHOT_DELAY=<duration> slows every lane's snapshot.
 * Without them every hook does nothing. See checkpoint_internal.h.
 */
#include "checkpoint_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* WEIR_TEST_FAIL_CHECKPOINTS=2,3,7 (an environment variable of the weir process, for tests only):
   the state writes of these checkpoints fail */
bool ckpt_parse_fail_ids(WCkpt *c, const char *v, WError *err)
{
    if (!v) return true;
    const char *p = v;
    while (*p) {
        char *end;
        long long id = strtoll(p, &end, 10);
        if (end == p || id < 1 || c->nfail_ids == (int)(sizeof c->fail_ids / sizeof c->fail_ids[0]) ||
            (*end && *end != ','))
            return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid value for WEIR_TEST_FAIL_CHECKPOINTS: '%s'.", v);
        c->fail_ids[c->nfail_ids++] = id;
        p = *end ? end + 1 : end;
    }
    return true;
}

bool ckpt_parse_kill(WCkpt *c, const char *v, WError *err)
{
    if (!v) return true;
    char what[64];
    long long n;
    if (sscanf(v, "%63[a-z-]:%lld", what, &n) != 2 || n < 1)
        return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid value for WEIR_TEST_KILL_AT: '%s'.", v);
    c->kill_n = n;
    if (!strcmp(what, "tick")) c->kill_at = KILL_TICK;
    else if (!strcmp(what, "tick-after-checkpoint")) c->kill_at = KILL_TICK_AFTER_CKPT;
    else if (!strcmp(what, "before-metadata")) c->kill_at = KILL_BEFORE_META;
    else if (!strcmp(what, "during-metadata")) c->kill_at = KILL_DURING_META;
    else if (!strcmp(what, "after-metadata")) c->kill_at = KILL_AFTER_META;
    else return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid value for WEIR_TEST_KILL_AT: '%s'.", v);
    return true;
}

void wckpt_tick(WCkpt *c)
{
    if (!c) return;
    if (c->kill_at == KILL_TICK && ++c->ticks >= c->kill_n) raise(SIGKILL);
    if (c->kill_at == KILL_TICK_AFTER_CKPT) {
        pthread_mutex_lock(&c->mu);
        bool started = c->completed > 0;
        pthread_mutex_unlock(&c->mu);
        if (started && ++c->ticks >= c->kill_n) raise(SIGKILL);
    }
}

/* WEIR_TEST_KILL_AT=tick-after-checkpoint:<n> when the job ends before its n-th chunk step after
   the first completed checkpoint: dies before the final checkpoint (called with c->mu held) */
void ckpt_test_kill_at_finish(const WCkpt *c)
{
    if (c->kill_at == KILL_TICK_AFTER_CKPT && c->completed > 0) raise(SIGKILL);
}

/* WEIR_TEST_KILL_AT=<at>:<n>: dies at `at` of checkpoint id >= n, or of the job's final checkpoint
   when the input ended before checkpoint n (on a loaded machine fewer periodic checkpoints complete)
   and one it can be restored from has completed (called with c->mu held) */
void ckpt_test_kill(const WCkpt *c, KillAt at, int64_t id)
{
    if (c->kill_at == at && (id >= c->kill_n || (c->finishing && c->any_complete))) raise(SIGKILL);
}

/* WEIR_TEST_KILL_AT=during-metadata:<n>: writes half of _metadata's text to `tmp`, then dies */
void ckpt_test_torn_write(const WCkpt *c, int64_t id, const char *tmp, const char *buf, size_t len)
{
    if (c->kill_at == KILL_DURING_META && id >= c->kill_n) {
        int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd >= 0 && write(fd, buf, len / 2) >= 0) raise(SIGKILL);
        raise(SIGKILL);
    }
}

/* WEIR_TEST_SNAPSHOT_DELAY: each lane sleeps before writing its part */
void ckpt_test_delay(const WCkpt *c)
{
    if (c->test_delay_ms > 0) {
        struct timespec ts = {c->test_delay_ms / 1000, (c->test_delay_ms % 1000) * 1000000};
        nanosleep(&ts, NULL);
    }
}

/* WEIR_TEST_FAIL_CHECKPOINTS: false with an ENOSPC error when checkpoint `id`'s writes fail */
bool ckpt_test_write(const WCkpt *c, int64_t id, const char *dir, WError *err)
{
    bool ok = true;
    for (int i = 0; ok && i < c->nfail_ids; i++)
        if (c->fail_ids[i] == id)
            ok = werr_set(err, WEXC_IO, "Cannot write '%s': %s (WEIR_TEST_FAIL_CHECKPOINTS)", dir, strerror(ENOSPC));
    return ok;
}
