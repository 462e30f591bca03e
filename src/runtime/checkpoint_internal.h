/*
 * checkpoint_internal.h — private to the checkpoint files of runtime/: the coordinator's state
 * (struct WCkpt, guarded by its mutex as each field says), the parsed `_metadata` and lane files,
 * and the helpers the files share: checkpoint.c (the protocol: trigger, lane snapshots,
 * completion, retention, savepoints on request, figures), checkpoint_options.c,
 * checkpoint_failure.c (tolerable failures), checkpoint_restore.c, checkpoint_test_hooks.c.
 */
#ifndef WEIR_RUNTIME_CHECKPOINT_INTERNAL_H
#define WEIR_RUNTIME_CHECKPOINT_INTERNAL_H

#include "checkpoint.h"
#include "../state/snapshot.h"
#include "../common/hash.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define META_FILE "_metadata"
extern const char CKPT_META_MAGIC[8];       /* checkpoint.c */
extern const char CKPT_LANE_MAGIC[8];
extern const char CKPT_END_MAGIC[4];

typedef enum { RET_NONE, RET_DELETE_ON_CANCEL, RET_RETAIN_ON_CANCEL } Retention;
typedef enum { KILL_NONE, KILL_TICK, KILL_TICK_AFTER_CKPT, KILL_BEFORE_META, KILL_DURING_META, KILL_AFTER_META } KillAt;
typedef enum { DIST_FORWARD, DIST_HASH, DIST_SINGLE } Dist;

/* ---- parsed _metadata ---- */
typedef struct MOp { int node; char *kind, *sig; } MOp;
typedef struct MLane { int sub; char *file; int64_t size; uint32_t crc; } MLane;
typedef struct MState {
    int node, k, sub;
    bool timers;
    char *file;                 /* relative to the checkpoint directory */
    int64_t size;               /* timers only */
    uint32_t crc;
} MState;

typedef struct Meta {
    char *dir;
    char *job_id;
    int64_t id;
    bool savepoint;
    int parallelism, max_parallelism;
    int job_parallelism;        /* "job-parallelism" (0 in checkpoints of older builds: = parallelism) */
    int64_t sim_now;
    int nops, nlanes, nstates;
    MOp *ops;
    MLane *lanes;
    MState *states;
} Meta;

/* ---- a lane file, parsed ---- */
typedef struct LSource { int node; int values_next; char *pos; } LSource;
typedef struct LWm { int node; int n; int64_t *wm; } LWm;
typedef struct LSink { int node; char *state; } LSink;
typedef struct LaneFile {
    int nsrc, nops, nrecv, nsinks;
    LSource *srcs;
    LWm *ops, *recv;
    LSink *sinks;
} LaneFile;

/* A savepoint asked for while the job runs (wckpt_request_savepoint). */
typedef struct SpReq {
    char *target;               /* the savepoint directory's parent */
    bool stop, drain;
    WCkptRequestState state;
    int64_t id;                 /* its checkpoint id once triggered */
    char path[512];
    char failure[256];
} SpReq;

/* A retained checkpoint: its directory and its keyed-state snapshot directories (GC roots). */
typedef struct Retained { char *dir; int ndirs; char **dirs; } Retained;

struct WCkpt {
    int64_t interval_ms, timeout_ms, min_pause_ms;
    int64_t tolerable;          /* execution.checkpointing.tolerable-failed-checkpoints */
    int64_t consecutive_failed; /* checkpoints failed (expired) since the last completed one */
    char *job_failure;          /* the tolerable failures were exceeded: the job fails with this */
    int64_t test_delay_ms;      /* WEIR_TEST_SNAPSHOT_DELAY (environment): each lane sleeps before writing */
    int nfail_ids;              /* WEIR_TEST_FAIL_CHECKPOINTS (environment): checkpoint ids whose state */
    int64_t fail_ids[32];       /* write fails as on a full disk (ENOSPC), for the tolerance tests */
    bool exactly_once, incremental, ignore_unclaimed;
    Retention retention;
    int num_retained;
    char *root;                 /* execution.checkpointing.dir (local path), NULL = temporary */
    char *base;                 /* <root>/<job id> */
    char *shared;               /* <base>/shared */
    bool temp_base;
    char *savepoint_dir;        /* weir.exec.savepoint-at-end target, NULL = none */
    bool savepoint_drain;       /* weir.exec.savepoint-at-end.drain (default true) */
    char job_id[33];
    int parallelism, max_parallelism;   /* parallelism: the job's lanes */
    int job_parallelism;        /* parallelism.default (lanes beyond it: a source's or sink's own) */
    Meta *restore;
    char *restore_path;
    KillAt kill_at;
    int64_t kill_n, ticks;

    pthread_mutex_t mu;
    int64_t last_id;            /* last triggered */
    int64_t pending;            /* in progress, 0 = none */
    int64_t completed;          /* last completed */
    int64_t last_trigger_ms, last_complete_ms;
    bool any_complete;
    bool lane_ended;
    int acks;
    WStrBuf *lane_meta;         /* per lane: its lines of the checkpoint in progress */
    char **lane_dirs;           /* per lane: its keyed-state dirs (\n separated) */
    int64_t trigger_wall_ms;
    int64_t full_bytes, inc_bytes, align_us, sync_us;
    bool inc_any;
    bool failed;
    bool finishing;             /* the final checkpoint of a finished job is being taken: it cannot be
                                   declined (nothing after it would commit the job's last output) */
    int nretained;
    Retained *retained;
    int nstats, cap_stats;
    WCkptStats *stats;
    /* savepoints on request (guarded by mu; req_waiting is read without it) */
    bool live;                  /* takes checkpoints, restores or has had a request */
    int nreqs;
    SpReq *reqs;
    int req_waiting;            /* requests not yet triggered (atomic) */
    int cur_req;                /* the request of the savepoint in progress, -1 = none */
    char *cur_dir;              /* its directory, chosen once at the trigger */
    bool stopped;               /* stop-with-savepoint without drain ended the job */
};

#define PUSH(arr, n, item) do { (arr) = wrealloc((arr), sizeof *(arr) * (size_t)((n) + 1)); (arr)[(n)++] = (item); } while (0)

/* checkpoint.c */
int64_t ckpt_wall_ms(void);
int64_t ckpt_mono_us(void);
void ckpt_random_hex(char *out, int n);                     /* n hex digits and a NUL */
char *ckpt_node_sig(const WRel *r);                         /* a node's identity for matching (malloc) */
char *ckpt_chk_dir(const WCkpt *c, int64_t id, bool savepoint);
void ckpt_record_stats(WCkpt *c, const WCkptStats *st);    /* with mu held */

/* checkpoint_options.c */
const char *ckpt_local_path(const char *p);                /* without a file:// or file: scheme */

/* checkpoint_failure.c (with mu held) */
void ckpt_count_failure_locked(WCkpt *c, int64_t id, const char *why, const char *detail);
void ckpt_expire_locked(WCkpt *c);
bool ckpt_expired_locked(const WCkpt *c);

/* checkpoint_restore.c */
bool ckpt_meta_read(const char *dir, Meta **out, WError *err);
void ckpt_meta_free(Meta *m);

/* checkpoint_test_hooks.c */
bool ckpt_parse_fail_ids(WCkpt *c, const char *v, WError *err);
bool ckpt_parse_kill(WCkpt *c, const char *v, WError *err);
void ckpt_test_kill(const WCkpt *c, KillAt at, int64_t id);
void ckpt_test_kill_at_finish(const WCkpt *c);
void ckpt_test_torn_write(const WCkpt *c, int64_t id, const char *tmp, const char *buf, size_t len);
void ckpt_test_delay(const WCkpt *c);
bool ckpt_test_write(const WCkpt *c, int64_t id, const char *dir, WError *err);

#endif
