/*
 * checkpoint.c — checkpoint options, coordinator, files and restore. See checkpoint.h.
 *
 * A lane's part of a checkpoint is written by the lane's own thread once it is consistent (all
 * its inputs aligned, see job.c); its acknowledgement adds the lane's lines to the checkpoint's
 * metadata, and the last one writes `_metadata` (checksummed text, like every file here) and
 * completes the checkpoint: older ones beyond the retained count are deleted and unreferenced
 * shared SST files collected. Restore reads `_metadata`, checks every file it names (checksums,
 * sizes, the keyed-state manifests) and the operators (matched by exec node id, kind and output
 * row type) before it changes anything, then restores backends and timers by key-group range,
 * source positions, watermarks, and finally lets the sinks publish the files the checkpoint
 * covered.
 */
#include "checkpoint.h"
#include "../state/snapshot.h"
#include "../state/timers.h"
#include "../common/hash.h"
#include "../common/arena.h"
#include "../common/duration.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#define META_FILE "_metadata"
static const char META_MAGIC[8] = {'W', 'E', 'I', 'R', 'C', 'K', 'P', '1'};
static const char LANE_MAGIC[8] = {'W', 'E', 'I', 'R', 'L', 'A', 'N', '1'};
static const char END_MAGIC[4] = {'W', 'E', 'N', 'D'};

typedef enum { RET_NONE, RET_DELETE_ON_CANCEL, RET_RETAIN_ON_CANCEL } Retention;
typedef enum { KILL_NONE, KILL_TICK, KILL_BEFORE_META, KILL_DURING_META, KILL_AFTER_META } KillAt;
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
    int parallelism, max_parallelism;
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

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static const char *local_path(const char *p)
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

static void random_hex(char *out, int n)
{
    unsigned char b[32];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) {
        uint64_t x = (uint64_t)wall_ms() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)mono_us();
        for (int i = 0; i < 32; i++) { x = x * 6364136223846793005ULL + 1442695040888963407ULL; b[i] = (unsigned char)(x >> 56); }
    }
    static const char hx[] = "0123456789abcdef";
    for (int i = 0; i < n; i++) out[i] = hx[(b[i / 2] >> (i % 2 ? 0 : 4)) & 15];
    out[n] = 0;
}

/* ------------------------------------------------------------------------ _metadata parsing */

static void meta_free(Meta *m)
{
    if (!m) return;
    for (int i = 0; i < m->nops; i++) { free(m->ops[i].kind); free(m->ops[i].sig); }
    for (int i = 0; i < m->nlanes; i++) free(m->lanes[i].file);
    for (int i = 0; i < m->nstates; i++) free(m->states[i].file);
    free(m->ops);
    free(m->lanes);
    free(m->states);
    free(m->dir);
    free(m->job_id);
    free(m);
}

#define PUSH(arr, n, item) do { (arr) = wrealloc((arr), sizeof *(arr) * (size_t)((n) + 1)); (arr)[(n)++] = (item); } while (0)

/* One line of text (without the newline) from p..end; advances *p. */
static char *next_line(const char **p, const char *end)
{
    if (*p >= end) return NULL;
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    if (!nl) nl = end;
    char *s = strndup(*p, (size_t)(nl - *p));
    *p = nl < end ? nl + 1 : end;
    return s;
}

static bool meta_read(const char *dir, Meta **out, WError *err)
{
    *out = NULL;
    char *path = wsnap_join(dir, META_FILE);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        free(path);
        return werr_set(err, WEXC_IO,
                        "Cannot restore from '%s': it is not a checkpoint or savepoint directory (it does not exist).", dir);
    }
    if (stat(path, &st) != 0) {
        free(path);
        return werr_set(err, WEXC_IO,
                        "Cannot restore from '%s': it has no _metadata file (an incomplete checkpoint, or not a checkpoint or savepoint directory).",
                        dir);
    }
    WSnapIn in;
    bool ok = wsnap_in_open(&in, path, META_MAGIC, END_MAGIC, "Checkpoint metadata", err);
    free(path);
    if (!ok) return false;
    Meta *m = wcalloc(1, sizeof *m);
    m->dir = wstrdup(dir);
    const char *p = (const char *)in.p + 8, *end = (const char *)in.p + in.size;
    char *line;
    bool bad = false;
    int nline = 0;
    while (!bad && (line = next_line(&p, end)) != NULL) {
        char a[256], b[512];
        long long x, y, z;
        int i1, i2, i3;
        if (nline++ == 0) bad = strcmp(line, "weir-checkpoint 1") != 0;
        else if (sscanf(line, "job %255s", a) == 1) {
            /* a second job line is a damaged file (and would leak the first: found by
               tests/fuzz/fuzz_checkpoint.c) */
            if (m->job_id) bad = true;
            else m->job_id = wstrdup(a);
        }
        else if (sscanf(line, "checkpoint %lld", &x) == 1) m->id = x;
        else if (sscanf(line, "type %255s", a) == 1) m->savepoint = strcmp(a, "SAVEPOINT") == 0;
        else if (sscanf(line, "parallelism %d", &i1) == 1) m->parallelism = i1;
        else if (sscanf(line, "max-parallelism %d", &i1) == 1) m->max_parallelism = i1;
        else if (sscanf(line, "sim-now %lld", &x) == 1) m->sim_now = x;
        else if (strncmp(line, "operator ", 9) == 0) {
            int used = 0;
            if (sscanf(line, "operator %d %255s %n", &i1, a, &used) < 2 || used == 0) bad = true;
            else PUSH(m->ops, m->nops, ((MOp){i1, wstrdup(a), wstrdup(line + used)}));
        } else if (sscanf(line, "lane %d %511s %lld %lld", &i1, b, &x, &y) == 4) {
            PUSH(m->lanes, m->nlanes, ((MLane){i1, wstrdup(b), x, (uint32_t)y}));
        } else if (sscanf(line, "state %d %d %d %511s", &i1, &i2, &i3, b) == 4) {
            PUSH(m->states, m->nstates, ((MState){i1, i2, i3, false, wstrdup(b), 0, 0}));
        } else if (sscanf(line, "timers %d %d %d %511s %lld %lld", &i1, &i2, &i3, b, &x, &z) == 6) {
            PUSH(m->states, m->nstates, ((MState){i1, i2, i3, true, wstrdup(b), x, (uint32_t)z}));
        } else if (strncmp(line, "timestamp ", 10) != 0 && line[0]) {
            bad = true;
        }
        free(line);
    }
    wsnap_in_close(&in);
    if (bad || m->parallelism < 1 || m->max_parallelism < 1 || m->nlanes != m->parallelism) {
        meta_free(m);
        return werr_set(err, WEXC_IO, "Checkpoint metadata file '%s/%s' is not valid.", dir, META_FILE);
    }
    *out = m;
    return true;
}

/* ------------------------------------------------------------------------------ options */

/* WEIR_TEST_FAIL_CHECKPOINTS=2,3,7 (an environment variable of the weir process, for tests only):
   the state writes of these checkpoints fail */
static bool parse_fail_ids(WCkpt *c, const char *v, WError *err)
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

static bool parse_kill(WCkpt *c, const char *v, WError *err)
{
    if (!v) return true;
    char what[64];
    long long n;
    if (sscanf(v, "%63[a-z-]:%lld", what, &n) != 2 || n < 1)
        return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid value for WEIR_TEST_KILL_AT: '%s'.", v);
    c->kill_n = n;
    if (!strcmp(what, "tick")) c->kill_at = KILL_TICK;
    else if (!strcmp(what, "before-metadata")) c->kill_at = KILL_BEFORE_META;
    else if (!strcmp(what, "during-metadata")) c->kill_at = KILL_DURING_META;
    else if (!strcmp(what, "after-metadata")) c->kill_at = KILL_AFTER_META;
    else return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid value for WEIR_TEST_KILL_AT: '%s'.", v);
    return true;
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
    if (ok) ok = parse_kill(c, getenv("WEIR_TEST_KILL_AT"), err);
    if (ok) ok = parse_fail_ids(c, getenv("WEIR_TEST_FAIL_CHECKPOINTS"), err);
    const char *dir = opt2(o, "execution.checkpointing.dir", "state.checkpoints.dir");
    if (dir && *dir) c->root = wstrdup(local_path(dir));
    const char *spe = wopts_get(o, "weir.exec.savepoint-at-end");
    if (ok && spe && strcasecmp(spe, "false") != 0) {
        const char *sd = strcasecmp(spe, "true") == 0
                             ? opt2(o, "execution.checkpointing.savepoint-dir", "state.savepoints.dir") : spe;
        if (!sd || !*sd)
            ok = werr_set(err, WEXC_ILLEGAL_ARG,
                          "No savepoint directory configured. You can either specify a directory as the value of "
                          "'weir.exec.savepoint-at-end' or configure a default via key 'state.savepoints.dir'.");
        else c->savepoint_dir = wstrdup(local_path(sd));
    }
    if (ok) ok = wopts_get_bool(o, "weir.exec.savepoint-at-end.drain", true, &c->savepoint_drain, err);
    const char *rp = wopts_get(o, "execution.savepoint.path");
    if (ok && rp && *rp) {
        c->restore_path = wstrdup(local_path(rp));
        size_t l = strlen(c->restore_path);
        while (l > 1 && c->restore_path[l - 1] == '/') c->restore_path[--l] = 0;
        /* a path to the _metadata file itself names its directory */
        if (l > 10 && !strcmp(c->restore_path + l - 10, "/_metadata")) c->restore_path[l - 10] = 0;
        ok = meta_read(c->restore_path, &c->restore, err);
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
    else random_hex(c->job_id, 32);
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
    meta_free(c->restore);
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

void wckpt_tick(WCkpt *c)
{
    if (c && c->kill_at == KILL_TICK && ++c->ticks >= c->kill_n) raise(SIGKILL);
}

/* ------------------------------------------------------------------------------ helpers */

static Dist node_dist(const WRel *r)
{
    for (;;) {
        if (r->ninputs == 0) return DIST_FORWARD;
        const WRel *in = r->inputs[0];
        if (in->kind == WR_EXCHANGE) return in->exchange_single || in->nkeys == 0 ? DIST_SINGLE : DIST_HASH;
        r = in;
    }
}

static void kg_range(int maxp, int p, int index, int *first, int *last)
{
    *first = (int)(((int64_t)index * maxp + p - 1) / p);
    *last = (int)((((int64_t)index + 1) * maxp - 1) / p);
}

/* "GroupAggregate[3]" */
static void op_label(char *buf, size_t n, const char *kind, int node) { snprintf(buf, n, "%s[%d]", kind, node); }

/* The identity of a node for matching: its output row type (and table for scans/sinks). */
static char *node_sig(const WRel *r)
{
    WArena *a = warena_new(0);
    WStrBuf s;
    wsb_init(&s);
    if (r->kind == WR_SCAN && r->table_qname) wsb_printf(&s, "table=%s ", r->table_qname);
    if (r->kind == WR_SINK && r->sink_qname) wsb_printf(&s, "table=%s ", r->sink_qname);
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

static const WRel *lane_rel(const WCkptLane *L, int node)
{
    for (int i = 0; i < L->nops; i++) if (L->rels[i]->id == node) return L->rels[i];
    return NULL;
}

static bool write_text_file(const char *path, const char magic[8], const char *text, size_t len, int64_t *size,
                            uint32_t *crc, WError *err)
{
    WSnapOut o;
    if (!wsnap_out_open(&o, path, err)) return false;
    wsnap_out_write(&o, magic, 8);
    wsnap_out_write(&o, text, len);
    return wsnap_out_finish(&o, END_MAGIC, size, crc, err);
}

/* ------------------------------------------------------------------------------ snapshots */

static char *chk_dir(const WCkpt *c, int64_t id, bool savepoint);

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
    random_hex(rnd, 12);
    snprintf(name, sizeof name, "savepoint-%.6s-%s", c->job_id, rnd);
    free(c->cur_dir);
    c->cur_dir = wsnap_join(q->target, name);
    snprintf(q->path, sizeof q->path, "%s", c->cur_dir);
    c->trigger_wall_ms = wall_ms();
    c->acks = 0;
    c->full_bytes = c->inc_bytes = c->align_us = c->sync_us = 0;
    c->inc_any = false;
    return id;
}

static void expire_locked(WCkpt *c);
static bool expired_locked(const WCkpt *c);

int64_t wckpt_poll_trigger(WCkpt *c, int64_t now_ms)
{
    if (!c) return 0;
    bool req = __atomic_load_n(&c->req_waiting, __ATOMIC_SEQ_CST) > 0;
    if (c->interval_ms <= 0 && !req) return 0;
    int64_t id = 0;
    pthread_mutex_lock(&c->mu);
    if (expired_locked(c)) expire_locked(c);
    if (req && !c->pending) id = trigger_request(c);
    if (!id && c->interval_ms > 0 && !c->pending && !c->lane_ended && !c->failed) {
        if (!c->last_trigger_ms) c->last_trigger_ms = now_ms;     /* first interval from the start */
        bool due = now_ms - c->last_trigger_ms >= c->interval_ms;
        if (due && c->any_complete && now_ms - c->last_complete_ms < c->min_pause_ms) due = false;
        if (due) {
            id = ++c->last_id;
            c->pending = id;
            c->last_trigger_ms = now_ms;
            c->trigger_wall_ms = wall_ms();
            c->acks = 0;
            c->full_bytes = c->inc_bytes = c->align_us = c->sync_us = 0;
            c->inc_any = false;
            char *d = chk_dir(c, id, false);
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
        wait = c->trigger_wall_ms + c->timeout_ms + 1 - wall_ms();
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

static char *chk_dir(const WCkpt *c, int64_t id, bool savepoint)
{
    char name[96];
    if (savepoint) {
        char rnd[16];
        random_hex(rnd, 12);
        snprintf(name, sizeof name, "savepoint-%.6s-%s", c->job_id, rnd);
        return wsnap_join(c->savepoint_dir, name);
    }
    snprintf(name, sizeof name, "chk-%lld", (long long)id);
    return wsnap_join(c->base, name);
}

static void record_stats(WCkpt *c, const WCkptStats *st)
{
    if (c->nstats == c->cap_stats) {
        c->cap_stats = c->cap_stats ? c->cap_stats * 2 : 8;
        c->stats = wrealloc(c->stats, sizeof(WCkptStats) * (size_t)c->cap_stats);
    }
    c->stats[c->nstats++] = *st;
}

/* A checkpoint failed (expired, or its files could not be written): as Flink's
   CheckpointFailureManager, more consecutive failures than
   execution.checkpointing.tolerable-failed-checkpoints fail the job (wckpt_job_failure); a
   completed checkpoint resets the count. `why` is Flink's CheckpointFailureReason message.
   Called with c->mu held. */
/* A declined checkpoint: Flink's job failure message names only the failure reason and points to
   the checkpoint history and the JobManager log for the cause; weir's log is the process's
   standard error (the daemon's log file in a cluster), so the cause (the file that could not be
   written and the errno text, or the expiry) goes there, one line per failed checkpoint. */
static void count_failure_locked(WCkpt *c, int64_t id, const char *why, const char *detail)
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
static void expire_locked(WCkpt *c)
{
    int64_t id = c->pending;
    bool sp = c->cur_req >= 0 && c->reqs[c->cur_req].id == id;
    const char *why = "Checkpoint expired before completing.";
    WCkptStats st = {.id = id, .savepoint = sp, .trigger_ms = c->trigger_wall_ms};
    st.duration_ms = wall_ms() - c->trigger_wall_ms;
    snprintf(st.failure, sizeof st.failure, "%s", why);
    char *dir = sp ? wstrdup(c->cur_dir) : chk_dir(c, id, false);
    snprintf(st.path, sizeof st.path, "%s", dir);
    record_stats(c, &st);
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
    if (!sp) count_failure_locked(c, id, why, why);
}

static bool expired_locked(const WCkpt *c)
{
    return c->pending && c->timeout_ms > 0 && wall_ms() - c->trigger_wall_ms > c->timeout_ms;
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
        ok = write_text_file(path, LANE_MAGIC, t.buf ? t.buf : "", t.len, &size, &crc, err);
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
            char *sig = node_sig(L->rels[i]);
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
    if (c->kill_at == KILL_BEFORE_META && id >= c->kill_n) raise(SIGKILL);
    WStrBuf m;
    wsb_init(&m);
    wsb_printf(&m, "weir-checkpoint 1\njob %s\ncheckpoint %lld\ntype %s\nparallelism %d\nmax-parallelism %d\n"
                   "sim-now %lld\ntimestamp %lld\n",
               c->job_id, (long long)id, savepoint ? "SAVEPOINT" : "CHECKPOINT", c->parallelism, c->max_parallelism,
               (long long)sim_now, (long long)c->trigger_wall_ms);
    for (int i = 0; i < c->parallelism; i++) if (c->lane_meta[i].len) wsb_appendn(&m, c->lane_meta[i].buf, c->lane_meta[i].len);
    /* _metadata marks a checkpoint complete, so it must appear whole or not at all: written as
       _metadata.inprogress, then renamed (and the directory synced). Written in place, a SIGKILL
       inside the write left a torn _metadata that looked complete and was refused at restore
       (found by tests/recovery/chaos; WEIR_TEST_KILL_AT=during-metadata:<n> tears the write) */
    char *path = wsnap_join(dir, META_FILE);
    char *tmp = wsnap_join(dir, META_FILE ".inprogress");
    int64_t size = 0;
    if (c->kill_at == KILL_DURING_META && id >= c->kill_n) {
        int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd >= 0 && write(fd, m.buf, m.len / 2) >= 0) raise(SIGKILL);
        raise(SIGKILL);
    }
    bool ok = write_text_file(tmp, META_MAGIC, m.buf, m.len, &size, NULL, err);
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
    st.duration_ms = wall_ms() - c->trigger_wall_ms;
    snprintf(st.path, sizeof st.path, "%s", dir);
    if (!ok) snprintf(st.failure, sizeof st.failure, "%s", err->msg);
    record_stats(c, &st);
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
        count_failure_locked(c, id, "Failure to finalize checkpoint.", err->msg);
        werr_clear(err);
        ok = true;
    } else {
        c->failed = true;
        wsnap_rmtree(dir);
    }
    c->pending = 0;
    if (ok && c->kill_at == KILL_AFTER_META && id >= c->kill_n) raise(SIGKILL);
    return ok;
}

static bool lane_snapshot(WCkpt *c, WCkptLane *L, int64_t id, bool savepoint, const char *dir, int64_t align_us,
                          int64_t sim_now, WError *err)
{
    if (c->test_delay_ms > 0) {
        struct timespec ts = {c->test_delay_ms / 1000, (c->test_delay_ms % 1000) * 1000000};
        nanosleep(&ts, NULL);
    }
    int64_t t0 = mono_us();
    WStrBuf meta, dirs;
    wsb_init(&meta);
    wsb_init(&dirs);
    int64_t full = 0, inc = 0;
    bool inc_any = false;
    bool ok = wsnap_mkdirs(dir, err);
    for (int i = 0; ok && !savepoint && i < c->nfail_ids; i++)
        if (c->fail_ids[i] == id)
            ok = werr_set(err, WEXC_IO, "Cannot write '%s': %s (WEIR_TEST_FAIL_CHECKPOINTS)", dir, strerror(ENOSPC));
    ok = ok && write_lane(c, L, id, dir, &meta, &dirs, &full, &inc, &inc_any, err);
    int64_t sync = mono_us() - t0;
    pthread_mutex_lock(&c->mu);
    if (c->pending == id && expired_locked(c)) expire_locked(c);
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
        st.duration_ms = wall_ms() - c->trigger_wall_ms;
        record_stats(c, &st);
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
            count_failure_locked(c, id, "Asynchronous task checkpoint failed.", err->msg);
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
    char *dir = sp ? wstrdup(c->cur_dir) : chk_dir(c, id, false);
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
    q->target = wstrdup(local_path(target_dir));
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
        c->trigger_wall_ms = wall_ms();
        c->full_bytes = c->inc_bytes = c->align_us = c->sync_us = 0;
        c->inc_any = false;
        pthread_mutex_unlock(&c->mu);
        char *dir = chk_dir(c, id, sp);
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

/* ------------------------------------------------------------------------------ restore */

static void lane_file_free(LaneFile *f)
{
    for (int i = 0; i < f->nsrc; i++) free(f->srcs[i].pos);
    for (int i = 0; i < f->nops; i++) free(f->ops[i].wm);
    for (int i = 0; i < f->nrecv; i++) free(f->recv[i].wm);
    for (int i = 0; i < f->nsinks; i++) free(f->sinks[i].state);
    free(f->srcs);
    free(f->ops);
    free(f->recv);
    free(f->sinks);
}

static bool parse_wm_line(const char *line, LWm *w)
{
    int used = 0;
    if (sscanf(line, "%d %d%n", &w->node, &w->n, &used) != 2 || w->n < 0 || w->n > 100000) return false;
    w->wm = wcalloc((size_t)(w->n ? w->n : 1), sizeof(int64_t));
    const char *p = line + used;
    for (int i = 0; i < w->n; i++) {
        long long v;
        int u = 0;
        if (sscanf(p, " %lld%n", &v, &u) != 1) return false;
        w->wm[i] = v;
        p += u;
    }
    return true;
}

static bool lane_file_read(const char *path, LaneFile *f, WError *err)
{
    memset(f, 0, sizeof *f);
    WSnapIn in;
    if (!wsnap_in_open(&in, path, LANE_MAGIC, END_MAGIC, "Checkpoint", err)) return false;
    const char *p = (const char *)in.p + 8, *end = (const char *)in.p + in.size;
    bool bad = false;
    char *line;
    while (!bad && (line = next_line(&p, end)) != NULL) {
        if (!strncmp(line, "source ", 7)) {
            LSource s = {0};
            int used = 0;
            if (sscanf(line + 7, "%d %d %n", &s.node, &s.values_next, &used) != 2 || !used) bad = true;
            else {
                s.pos = strcmp(line + 7 + used, "-") ? wstrdup(line + 7 + used) : NULL;
                PUSH(f->srcs, f->nsrc, s);
            }
        } else if (!strncmp(line, "op ", 3) || !strncmp(line, "recv ", 5)) {
            bool op = line[0] == 'o';
            LWm w = {0};
            if (!parse_wm_line(line + (op ? 3 : 5), &w)) { free(w.wm); bad = true; }
            else if (op) PUSH(f->ops, f->nops, w);
            else PUSH(f->recv, f->nrecv, w);
        } else if (!strncmp(line, "sink ", 5)) {
            LSink k = {0};
            size_t n;
            if (sscanf(line + 5, "%d %zu", &k.node, &n) != 2 || n > (size_t)(end - p)) bad = true;
            else {
                k.state = strndup(p, n);
                p += n;
                if (p < end && *p == '\n') p++;
                PUSH(f->sinks, f->nsinks, k);
            }
        } else if (line[0]) {
            bad = true;
        }
        free(line);
    }
    wsnap_in_close(&in);
    if (bad) {
        lane_file_free(f);
        return werr_set(err, WEXC_IO, "Checkpoint file '%s' is not valid.", path);
    }
    return true;
}

/* CRC32C and size of a file, over all of it or (trailer) all but its last 8 bytes. */
static bool file_crc(const char *path, bool trailer, uint32_t *crc, int64_t *size, WError *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return werr_set(err, WEXC_IO, "Checkpoint file '%s' is missing or unreadable: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0) { fclose(f); return werr_set(err, WEXC_IO, "Cannot read '%s'", path); }
    *size = st.st_size;
    int64_t left = trailer ? st.st_size - 8 : st.st_size;
    uint32_t c = 0;
    unsigned char buf[65536];
    while (left > 0) {
        size_t want = left < (int64_t)sizeof buf ? (size_t)left : sizeof buf;
        size_t r = fread(buf, 1, want, f);
        if (r == 0) break;
        c = wsnap_crc32c(c, buf, r);
        left -= (int64_t)r;
    }
    fclose(f);
    *crc = c;
    return true;
}

/* Check a keyed-state snapshot directory completely (manifest and every file's size and
   checksum), so that a damaged one is refused before any state is restored. */
static bool verify_state_dir(const char *dir, WError *err)
{
    WSnapManifest m;
    if (!wsnap_manifest_read(dir, &m, err)) return false;
    bool ok = true;
    for (int i = 0; ok && i < m.nfiles; i++) {
        char *p = wsnap_file_path(&m, i);
        uint32_t crc = 0;
        int64_t size = 0;
        ok = file_crc(p, !m.incremental && !m.files[i].shared, &crc, &size, err);
        if (ok && size != m.files[i].size)
            ok = werr_set(err, WEXC_IO, "Checkpoint file '%s' is truncated or corrupted (%lld bytes, expected %lld).", p,
                          (long long)size, (long long)m.files[i].size);
        else if (ok && crc != m.files[i].crc)
            ok = werr_set(err, WEXC_IO, "Checkpoint file '%s' is corrupted: checksum mismatch (stored %08x, computed %08x).",
                          p, m.files[i].crc, crc);
        free(p);
    }
    wsnap_manifest_free(&m);
    return ok;
}

static const MOp *meta_op(const Meta *m, int node)
{
    for (int i = 0; i < m->nops; i++) if (m->ops[i].node == node) return &m->ops[i];
    return NULL;
}

/* Old subtasks lane `l` (of n) restores a node's state from; full = no key-group filter. */
static int old_subtasks(const Meta *m, Dist d, int l, int n, int *out, bool *full)
{
    int k = 0;
    *full = true;
    if (m->parallelism == n) { out[k++] = l; return k; }
    for (int s = 0; s < m->parallelism; s++) {
        if (d == DIST_HASH) { out[k++] = s; *full = false; }
        else if (d == DIST_SINGLE) { if (l == 0) out[k++] = s; }
        else if (s % n == l) out[k++] = s;
    }
    return k;
}

static bool mismatch(WCkpt *c, const char *label, const char *why, WError *err)
{
    return werr_set(err, "java.lang.IllegalStateException",
                    "Failed to rollback to checkpoint/savepoint %s. Cannot map checkpoint/savepoint state for operator "
                    "%s to the new program, because the operator %s. If you want to allow to skip this, you can set "
                    "'execution.savepoint.ignore-unclaimed-state' = 'true'.",
                    c->restore_path, label, why);
}

/* Every node with state in the checkpoint must exist in the new job with the same kind and row
   type. Returns false with Flink's message naming the first that does not. */
static bool match_operators(WCkpt *c, const WCkptLane *L0, LaneFile *files, WError *err)
{
    const Meta *m = c->restore;
    int cap = m->nstates + m->parallelism * 8 + 8;
    int *nodes = wcalloc((size_t)cap, sizeof(int));
    int nn = 0;
    for (int i = 0; i < m->nstates; i++) nodes[nn++] = m->states[i].node;
    for (int s = 0; s < m->parallelism; s++) {
        for (int i = 0; i < files[s].nsrc && nn < cap; i++) if (files[s].srcs[i].pos || files[s].srcs[i].values_next) nodes[nn++] = files[s].srcs[i].node;
        for (int i = 0; i < files[s].nsinks && nn < cap; i++) if (files[s].sinks[i].state && files[s].sinks[i].state[0]) nodes[nn++] = files[s].sinks[i].node;
    }
    bool ok = true;
    for (int i = 0; ok && i < nn; i++) {
        const MOp *o = meta_op(m, nodes[i]);
        char label[160];
        op_label(label, sizeof label, o ? o->kind : "operator", nodes[i]);
        const WRel *r = lane_rel(L0, nodes[i]);
        if (c->ignore_unclaimed && (!r || !o || strcmp(o->kind, wrel_kind_name(r->kind)))) continue;
        if (!o || !r) { ok = mismatch(c, label, "is not available in the new program", err); break; }
        if (strcmp(o->kind, wrel_kind_name(r->kind)) != 0) {
            char why[300];
            snprintf(why, sizeof why, "is not available in the new program (node %d is now %s[%d])", r->id,
                     wrel_kind_name(r->kind), r->id);
            ok = mismatch(c, label, why, err);
            break;
        }
        char *sig = node_sig(r);
        if (strcmp(sig, o->sig) != 0 && !c->ignore_unclaimed) {
            char why[1200];
            snprintf(why, sizeof why, "has changed in the new program (it produced %s, now %s)", o->sig, sig);
            ok = mismatch(c, label, why, err);
        }
        free(sig);
    }
    free(nodes);
    return ok;
}

static const LWm *find_wm(const LWm *a, int n, int node)
{
    for (int i = 0; i < n; i++) if (a[i].node == node) return &a[i];
    return NULL;
}

bool wckpt_restore(WCkpt *c, WCkptLane *lanes, int nlanes, int64_t *sim_now, WError *err)
{
    if (sim_now) *sim_now = 0;
    if (!c || !c->restore) return true;
    assert(nlanes >= 0 && nlanes <= c->parallelism && (lanes || nlanes == 0));
    Meta *m = c->restore;
    const char *dir = m->dir;
    LaneFile *files = wcalloc((size_t)m->parallelism, sizeof(LaneFile));
    bool ok = true;
    /* 1. check every file before anything changes */
    for (int s = 0; ok && s < m->parallelism; s++) {
        const MLane *ml = NULL;
        for (int i = 0; i < m->nlanes; i++) if (m->lanes[i].sub == s) ml = &m->lanes[i];
        if (!ml) { ok = werr_set(err, WEXC_IO, "Checkpoint metadata file '%s/_metadata' is not valid (no subtask %d).", dir, s); break; }
        char *p = wsnap_join(dir, ml->file);
        ok = lane_file_read(p, &files[s], err);
        free(p);
    }
    for (int i = 0; ok && i < m->nstates; i++) {
        MState *st = &m->states[i];
        char *p = wsnap_join(dir, st->file);
        if (st->timers) {
            uint32_t crc = 0;
            int64_t size = 0;
            ok = wsnap_file_crc(p, &crc, &size, err);
            if (ok && (size != st->size || crc != st->crc))
                ok = werr_set(err, WEXC_IO, "Checkpoint file '%s' is %s (expected %lld bytes, CRC32C %08x; found %lld bytes, %08x).",
                              p, size != st->size ? "truncated or extended" : "corrupted", (long long)st->size, st->crc,
                              (long long)size, crc);
        } else {
            ok = verify_state_dir(p, err);
        }
        free(p);
    }
    if (ok) ok = match_operators(c, &lanes[0], files, err);
    /* A sink of its own parallelism gives a job more lanes than source subtasks (runtime/job.c:
       runtime_parallelism). Lanes map one to one when both runs have the same lanes and source
       subtasks; key groups and source positions redistribute only between runs whose lanes are
       all source subtasks — anything else is refused rather than restored wrongly. */
    if (ok) {
        int old_par = 0, new_par = 0;
        for (int s = 0; s < m->parallelism; s++) if (files[s].nsrc > 0) old_par = s + 1;
        for (int l = 0; l < nlanes; l++) if (lanes[l].nsrc > 0) new_par = l + 1;
        bool same = m->parallelism == nlanes && old_par == new_par;
        bool plain = old_par == m->parallelism && new_par == nlanes;
        if (!same && !plain)
            ok = werr_set(err, "java.lang.IllegalStateException",
                          "Failed to rollback to checkpoint/savepoint %s. The checkpoint was taken with %d source "
                          "subtasks in %d lanes and the job now has %d source subtasks in %d lanes: weir does not "
                          "restore a job whose sink runs at its own parallelism ('sink.parallelism') at another "
                          "parallelism yet.",
                          c->restore_path, old_par, m->parallelism, new_par, nlanes);
    }
    /* sources that cannot take another parallelism */
    if (ok && m->parallelism != nlanes) {
        for (int i = 0; ok && i < lanes[0].nsrc; i++) {
            WCkptSource *src = &lanes[0].srcs[i];
            if (!src->src || src->src->seek_rescaled) continue;
            bool any = false;
            for (int s = 0; s < m->parallelism; s++)
                for (int q = 0; q < files[s].nsrc; q++) if (files[s].srcs[q].node == src->rel->id && files[s].srcs[q].pos) any = true;
            if (any)
                ok = werr_set(err, "java.lang.IllegalStateException",
                              "Failed to rollback to checkpoint/savepoint %s. The source %s[%d] (%s) cannot be restored at "
                              "parallelism %d: the checkpoint was taken at parallelism %d.",
                              c->restore_path, wrel_kind_name(src->rel->kind), src->rel->id,
                              src->rel->table_qname ? src->rel->table_qname : "?", nlanes, m->parallelism);
        }
    }
    /* 2. keyed state and timers */
    int *subs = wcalloc((size_t)m->parallelism + 1, sizeof(int));
    const char **paths = wcalloc((size_t)m->parallelism + 1, sizeof(char *));
    char **owned = wcalloc((size_t)m->parallelism + 1, sizeof(char *));
    for (int l = 0; ok && l < nlanes; l++) {
        WCkptLane *L = &lanes[l];
        WExecRegistry *reg = L->registry;
        for (int i = 0; ok && reg && i < reg->n; i++) {
            WExecStateEntry *e = &reg->items[i];
            if (e->node_id < 0) continue;
            int k = 0;
            for (int q = 0; q < i; q++) if (reg->items[q].node_id == e->node_id && !reg->items[q].timers == !e->timers) k++;
            const WRel *r = lane_rel(L, e->node_id);
            bool full;
            int ns = old_subtasks(m, r ? node_dist(r) : DIST_FORWARD, l, nlanes, subs, &full);
            int np = 0;
            for (int j = 0; j < ns; j++)
                for (int q = 0; q < m->nstates; q++) {
                    MState *st = &m->states[q];
                    if (st->node == e->node_id && st->k == k && st->sub == subs[j] && st->timers == (e->timers != NULL)) {
                        owned[np] = wsnap_join(dir, st->file);
                        paths[np] = owned[np];
                        np++;
                    }
                }
            int kgf = 0, kgl = m->max_parallelism - 1;
            if (!full) kg_range(m->max_parallelism, nlanes, l, &kgf, &kgl);
            if (np > 0) {
                if (e->backend) ok = wstate_restore(e->backend, paths, np, kgf, kgl, err);
                else ok = wtimers_restore(e->timers, paths, np, m->max_parallelism, kgf, kgl, err);
            }
            for (int j = 0; j < np; j++) free(owned[j]);
        }
    }
    /* 3. sources */
    const char **pos = wcalloc((size_t)m->parallelism + 1, sizeof(char *));
    for (int l = 0; ok && l < nlanes; l++) {
        WCkptLane *L = &lanes[l];
        for (int i = 0; ok && i < L->nsrc; i++) {
            WCkptSource *src = &L->srcs[i];
            int node = src->rel->id;
            for (int s = 0; s < m->parallelism; s++) {
                pos[s] = NULL;
                for (int q = 0; q < files[s].nsrc; q++) if (files[s].srcs[q].node == node) {
                    pos[s] = files[s].srcs[q].pos;
                    if (src->values_next && (m->parallelism == nlanes ? s == l : l == 0 && s == 0))
                        *src->values_next = files[s].srcs[q].values_next;
                }
            }
            if (!src->src) continue;
            if (m->parallelism == nlanes) {
                if (pos[l] && src->src->seek) ok = src->src->seek(src->src, pos[l], err);
            } else if (src->src->seek_rescaled) {
                ok = src->src->seek_rescaled(src->src, pos, m->parallelism, err);
            }
        }
    }
    free(pos);
    /* 4. watermarks: the same subtask's, or the minimum over the old subtasks when rescaled */
    for (int l = 0; ok && l < nlanes; l++) {
        WCkptLane *L = &lanes[l];
        for (int i = 0; i < L->nrecv; i++) {
            WCkptRecv *r = &L->recv[i];
            if (m->parallelism == nlanes) {
                const LWm *w = find_wm(files[l].recv, files[l].nrecv, r->rel->id);
                if (w && w->n == r->nfrom) for (int q = 0; q < r->nfrom; q++) r->wm[q] = w->wm[q];
                continue;
            }
            int64_t mn = WWM_MAX;
            bool any = false;
            for (int s = 0; s < m->parallelism; s++) {
                const LWm *w = find_wm(files[s].recv, files[s].nrecv, r->rel->id);
                for (int q = 0; w && q < w->n; q++) { if (w->wm[q] < mn) mn = w->wm[q]; any = true; }
            }
            if (any) for (int q = 0; q < r->nfrom; q++) r->wm[q] = mn;
        }
        for (int i = 0; i < L->nops; i++) {
            WOperator *op = L->ops[i];
            for (int q = 0; q < op->ninputs; q++) {
                int64_t mn = WWM_MAX;
                bool any = false;
                for (int s = 0; s < m->parallelism; s++) {
                    if (m->parallelism == nlanes && s != l) continue;
                    const LWm *w = find_wm(files[s].ops, files[s].nops, L->rels[i]->id);
                    int64_t v = w && q < w->n ? w->wm[q] : WWM_MIN;
                    if (v < mn) mn = v;
                    any = true;
                }
                if (any && mn > WWM_MIN) wop_input_watermark(op, q, mn);
            }
        }
    }
    /* 5. sinks publish what the checkpoint covered (last: nothing above may fail after this) */
    for (int l = 0; ok && l < nlanes; l++) {
        WCkptLane *L = &lanes[l];
        for (int i = 0; ok && i < L->nsinks; i++) {
            WSink *sk = L->sinks[i];
            for (int s = 0; ok && s < m->parallelism; s++) {
                if (m->parallelism == nlanes ? s != l : s % nlanes != l) continue;
                for (int q = 0; ok && q < files[s].nsinks; q++) {
                    if (files[s].sinks[q].node != L->sink_rels[i]->id) continue;
                    if (!sk->recover) continue;
                    ok = sk->recover(sk, files[s].sinks[q].state, err);
                }
            }
        }
    }
    if (ok && sim_now) *sim_now = m->sim_now;
    free(subs);
    free(paths);
    free(owned);
    for (int s = 0; s < m->parallelism; s++) lane_file_free(&files[s]);
    free(files);
    return ok;
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
