/* test_savepoint_request.c — savepoints on demand in the checkpoint coordinator
   (runtime/checkpoint.h wckpt_request_savepoint / wckpt_request_status / wckpt_stop_state): an
   idle coordinator (no checkpointing) wakes on a request, the savepoint directory is chosen once,
   completion, stop states, refusals. */
#include "unit.h"
#include "../../src/runtime/checkpoint.h"
#include "../../src/state/snapshot.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool snap_lane(WCkpt *c, int index, int64_t id, WError *e)
{
    WCkptLane L;
    memset(&L, 0, sizeof L);
    L.index = index;
    return wckpt_lane_snapshot(c, &L, id, 0, 0, e);
}

WTEST(savepoint_request_idle_coordinator)
{
    char root[64];
    snprintf(root, sizeof root, "/tmp/weir-test-sp-XXXXXX");
    CHECK(mkdtemp(root) != NULL);
    WOptions o;
    wopts_init(&o);
    WError e;
    werr_clear(&e);
    WCkpt *c = wckpt_new(&o, "0123456789abcdef0123456789abcdef", 2, &e);
    CHECK(c != NULL && !e.set);
    int mp = 0;
    CHECK(wckpt_max_parallelism(c, 0, 128, &mp, &e));
    CHECK(!wckpt_live(c));
    CHECK(!wckpt_enabled(c));
    CHECK_INT(wckpt_poll_trigger(c, 1000), 0);
    CHECK_INT(wckpt_stats_count(c), 0);
    /* no directory: refused */
    CHECK_INT(wckpt_request_savepoint(c, "", false, false, &e), 0);
    CHECK(e.set && strstr(e.msg, "No savepoint directory configured") != NULL);
    CHECK(!wckpt_live(c));
    werr_clear(&e);
    /* a request wakes it; the next poll triggers one savepoint with one directory */
    char target[128];
    snprintf(target, sizeof target, "file://%s/sps", root);
    int64_t r = wckpt_request_savepoint(c, target, true, false, &e);
    CHECK_INT(r, 1);
    CHECK(wckpt_live(c));
    WCkptRequest q;
    CHECK(wckpt_request_status(c, r, &q));
    CHECK(q.state == WCKPT_REQ_PENDING && q.id == 0 && q.stop && !q.drain);
    CHECK(!wckpt_request_status(c, 2, &q));
    int64_t id = wckpt_poll_trigger(c, 0);
    CHECK(id > 0);
    CHECK_INT(wckpt_pending(c), id);
    CHECK_INT(wckpt_poll_trigger(c, 0), 0);       /* nothing more to trigger */
    CHECK(wckpt_request_status(c, r, &q));
    CHECK(q.id == id && q.state == WCKPT_REQ_PENDING);
    char prefix[160];
    snprintf(prefix, sizeof prefix, "%s/sps/savepoint-012345-", root);
    CHECK(strncmp(q.path, prefix, strlen(prefix)) == 0);
    CHECK_INT(wckpt_stop_state(c, id), 1);
    CHECK_INT(wckpt_stop_state(c, id + 7), 0);
    /* both lanes write into the same directory; the last completes it */
    CHECK(snap_lane(c, 0, id, &e));
    CHECK(wckpt_request_status(c, r, &q) && q.state == WCKPT_REQ_PENDING);
    CHECK(snap_lane(c, 1, id, &e));
    CHECK(wckpt_request_status(c, r, &q) && q.state == WCKPT_REQ_COMPLETED);
    char *meta = wsnap_join(q.path, "_metadata"), *l0 = wsnap_join(q.path, "lane-0"), *l1 = wsnap_join(q.path, "lane-1");
    CHECK(access(meta, F_OK) == 0 && access(l0, F_OK) == 0 && access(l1, F_OK) == 0);
    free(meta);
    free(l0);
    free(l1);
    CHECK_INT(wckpt_stop_state(c, id), 2);
    CHECK_INT(wckpt_pending(c), 0);
    CHECK_INT(wckpt_stats_count(c), 1);
    WCkptStats st;
    CHECK(wckpt_stats_get(c, 0, &st) && st.savepoint && st.completed);
    /* a request after a lane ended fails; the job's end fails what is left */
    int64_t r2 = wckpt_request_savepoint(c, target, false, false, &e);
    CHECK_INT(r2, 2);
    CHECK(wckpt_lane_may_end(c, 0, id));
    CHECK_INT(wckpt_poll_trigger(c, 0), 0);
    CHECK(wckpt_request_status(c, r2, &q) && q.state == WCKPT_REQ_FAILED);
    CHECK(strstr(q.failure, "Not all required tasks are currently running") != NULL);
    int64_t r3 = wckpt_request_savepoint(c, target, false, false, &e);
    CHECK(wckpt_finish(c, NULL, 0, true, 0, &e));
    CHECK(wckpt_request_status(c, r3, &q) && q.state == WCKPT_REQ_FAILED);
    wckpt_free(c);
    wopts_free(&o);
    wsnap_rmtree(root);
}
