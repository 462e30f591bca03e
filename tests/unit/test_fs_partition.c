/* test_fs_partition.c — unit tests for the partitioned filesystem sink and source
   (src/connectors/fs_writer.c, fs_sink.c, fs_source.c): partition directories, exactly-once rolling per partition,
   more partitions than open files, partition values read back from the path. */
#include "unit.h"
#include "../../src/connectors/connector.h"
#include "../../src/types/format.h"
#include "../../src/common/arena.h"
#include "../../src/common/strbuf.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void fsp_rm_rf(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *dd = opendir(path);
        struct dirent *e;
        while (dd && (e = readdir(dd)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char sub[1024];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            fsp_rm_rf(sub);
        }
        if (dd) closedir(dd);
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* Count files under dir: published (no leading '.') and hidden in-progress ones. */
static void fsp_count(const char *dir, int *published, int *hidden)
{
    DIR *dd = opendir(dir);
    struct dirent *e;
    while (dd && (e = readdir(dd)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char sub[1024];
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(sub, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) fsp_count(sub, published, hidden);
        else if (e->d_name[0] == '.') (*hidden)++;
        else (*published)++;
    }
    if (dd) closedir(dd);
}

typedef struct FspTable {
    WTableSpec spec;
    WOptions opts;
    WCastCtx cast;
    int part[2];
} FspTable;

static const char *FSP_NAMES[] = {"id", "k", "v"};
static const WType *FSP_TYPES[3];

/* (id INT, k INT, v STRING) PARTITIONED BY (k) at path */
static void fsp_init(FspTable *t, const char *path)
{
    memset(t, 0, sizeof *t);
    FSP_TYPES[0] = &WTYPE_INT;
    FSP_TYPES[1] = &WTYPE_INT;
    FSP_TYPES[2] = &WTYPE_STRING;
    wopts_init(&t->opts);
    wopts_set(&t->opts, "connector", "filesystem");
    wopts_set(&t->opts, "path", path);
    wopts_set(&t->opts, "format", "csv");
    t->spec.name = "default_catalog.default_database.t";
    t->spec.short_name = "t";
    t->spec.ncols = 3;
    t->spec.col_names = FSP_NAMES;
    t->spec.col_types = FSP_TYPES;
    t->spec.options = &t->opts;
    t->spec.cast = &t->cast;
    t->spec.parallelism = 1;
    t->part[0] = 1;
    t->spec.npartition = 1;
    t->spec.partition = t->part;
}

static void fsp_rows(WChunk *c, int from, int n, int nkeys)
{
    wchunk_reset(c);
    for (int i = from; i < from + n; i++) {
        int r = wchunk_add_row(c, WRK_INSERT);
        c->cols[0].data[r].i = i;
        c->cols[1].data[r].i = i % nkeys;
        c->cols[2].data[r].s.p = "x";
        c->cols[2].data[r].s.len = 1;
    }
}

/* The whole table read through the source with chunks of cap rows, one line per row. */
static char *fsp_read(FspTable *t, int cap, WError *err)
{
    WSource *s = wconnector_find("filesystem")->open_source(&t->spec, err);
    if (!s) return NULL;
    WChunk *ch = wchunk_new(3, FSP_TYPES, cap);
    WStrBuf out;
    wsb_init(&out);
    wsb_append(&out, "");
    bool ok = true;
    for (;;) {
        wchunk_reset(ch);
        WSourceStatus st = s->next(s, ch, err);
        if (st == WSRC_ERROR) { ok = false; break; }
        for (int r = 0; r < ch->nrows; r++) {
            for (int i = 0; i < 3; i++) {
                if (i) wsb_putc(&out, ',');
                wfmt_sql(ch->types[i], ch->cols[i].data[r], ch->cols[i].nulls[r] != 0, NULL, &out);
            }
            wsb_putc(&out, '\n');
        }
        if (st == WSRC_END) break;
    }
    s->close(s);
    wchunk_free(ch);
    if (!ok) { wsb_free(&out); return NULL; }
    return wsb_detach(&out);
}

WTEST(fs_partition_exactly_once_per_partition)
{
    char dir[64] = "/tmp/weir-fsp-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/t", dir);
    FspTable t;
    fsp_init(&t, path);
    WError e;
    werr_clear(&e);
    WSink *s = wconnector_find("filesystem")->open_sink(&t.spec, &e);
    CHECK(s != NULL);
    s->transactional = true;
    WChunk *c = wchunk_new(3, FSP_TYPES, 16);
    fsp_rows(c, 0, 4, 2);                       /* k=0: 0,2  k=1: 1,3 */
    CHECK(s->write(s, c, &e));
    char *state = NULL;
    CHECK(s->prepare_commit(s, 1, &state, &e));
    int pub = 0, hid = 0;
    fsp_count(path, &pub, &hid);
    CHECK_INT(pub, 0);
    CHECK_INT(hid, 2);                          /* one closed part file per partition */
    CHECK(state && strstr(state, "/t/k=0/.part-") && strstr(state, "/t/k=1/.part-"));
    free(state);
    fsp_rows(c, 4, 2, 2);                       /* after the checkpoint: new part files */
    CHECK(s->write(s, c, &e));
    CHECK(s->commit(s, 1, &e));
    pub = hid = 0;
    fsp_count(path, &pub, &hid);
    CHECK_INT(pub, 2);
    CHECK_INT(hid, 2);
    CHECK(s->finish(s, &e));
    CHECK(s->prepare_commit(s, 2, &state, &e));
    free(state);
    CHECK(s->commit(s, 2, &e));
    s->close(s);
    pub = hid = 0;
    fsp_count(path, &pub, &hid);
    CHECK_INT(pub, 4);
    CHECK_INT(hid, 0);
    /* read back (chunks of 2 rows): files hold id and v; k comes from the directory */
    char *got = fsp_read(&t, 2, &e);
    CHECK_STR(got, "0,0,x\n2,0,x\n4,0,x\n1,1,x\n3,1,x\n5,1,x\n");
    free(got);
    wchunk_free(c);
    wopts_free(&t.opts);
    fsp_rm_rf(dir);
}

WTEST(fs_partition_many_partitions_and_bad_values)
{
    char dir[64] = "/tmp/weir-fsp-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/t", dir);
    FspTable t;
    fsp_init(&t, path);
    WError e;
    werr_clear(&e);
    WSink *s = wconnector_find("filesystem")->open_sink(&t.spec, &e);
    CHECK(s != NULL);
    WChunk *c = wchunk_new(3, FSP_TYPES, 200);
    fsp_rows(c, 0, 200, 100);                   /* 100 partitions, more than the open-file limit */
    CHECK(s->write(s, c, &e));
    CHECK(s->finish(s, &e));
    CHECK_INT(s->rows_written, 200);
    s->close(s);
    int pub = 0, hid = 0;
    fsp_count(path, &pub, &hid);
    CHECK(pub >= 100);
    CHECK_INT(hid, 0);
    char *got = fsp_read(&t, 7, &e);
    CHECK(got != NULL);
    int lines = 0;
    for (const char *p = got; p && *p; p++) lines += *p == '\n';
    CHECK_INT(lines, 200);
    free(got);
    /* a directory value that is not an INT */
    char bad[256];
    snprintf(bad, sizeof bad, "%s/k=abc", path);
    CHECK(mkdir(bad, 0777) == 0);
    snprintf(bad, sizeof bad, "%s/k=abc/part-1", path);
    FILE *f = fopen(bad, "w");
    CHECK(f != NULL);
    if (f) { fputs("1,y\n", f); fclose(f); }
    werr_clear(&e);
    got = fsp_read(&t, 7, &e);
    CHECK(got == NULL);
    CHECK_STR(e.msg, "For input string: 'abc'. Invalid character found.");
    wchunk_free(c);
    wopts_free(&t.opts);
    fsp_rm_rf(dir);
}

/* ---- auto-compaction's coordinator and compact-operator halves (src/connectors/fs_compact.c, as
   runtime/fs_compact_flow.c drives them) ---- */
#include "../../src/connectors/fs_compact.h"

static void fsp_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) { fputs(text, f); fclose(f); }
}

WTEST(fs_compact_coordinate_units_and_pending_state)
{
    char dir[64] = "/tmp/weir-fsc-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char p0[128], p1[128], a[160], b[160], c[160];
    snprintf(p0, sizeof p0, "%s/p=0", dir);
    snprintf(p1, sizeof p1, "%s/p=1", dir);
    CHECK(mkdir(p0, 0777) == 0 && mkdir(p1, 0777) == 0);
    snprintf(a, sizeof a, "%s/.uncompacted-part-u-0-0", p0);
    snprintf(b, sizeof b, "%s/.uncompacted-part-u-1-0", p0);
    snprintf(c, sizeof c, "%s/.uncompacted-part-u-0-1", p1);
    fsp_write_file(a, "1\n");
    fsp_write_file(b, "2\n");
    fsp_write_file(c, "3\n");
    WSinkShared sh = {0};
    pthread_mutex_init(&sh.mu, NULL);
    WFsCompact *cp = wfs_compact_get(&sh, 2, 1 << 20);
    CHECK(wfs_compact_of(&sh) == cp);
    WError e;
    werr_clear(&e);
    /* writer 0's files of checkpoint 1 and its EndCheckpoint: writer 1 has not ended 1 yet */
    wfs_compact_add_file(cp, 1, a);
    wfs_compact_add_file(cp, 1, c);
    WFsUnit *u;
    int nu;
    int64_t low;
    CHECK(wfs_compact_coordinate(cp, 1, 0, &u, &nu, &low, &e));
    CHECK_INT(nu, 0);
    CHECK(low == 0);
    /* the coordinator's pending files are in the state */
    WStrBuf st;
    wsb_init(&st);
    wfs_compact_pending_state(cp, &st);
    CHECK(strstr(st.buf, "#pending\t") == st.buf && strstr(st.buf, a) && strstr(st.buf, c));
    wsb_free(&st);
    /* writer 1's file and EndCheckpoint: checkpoint 1 is coordinated, one unit per partition */
    wfs_compact_add_file(cp, 1, b);
    CHECK(wfs_compact_coordinate(cp, 1, 1, &u, &nu, &low, &e));
    CHECK(low == 1);
    CHECK_INT(nu, 2);
    CHECK_INT(u[0].n, 2);                       /* p=0: both writers' files, sorted by path */
    CHECK(strcmp(u[0].paths[0], a) == 0 && strcmp(u[0].paths[1], b) == 0);
    CHECK_INT(u[1].n, 1);
    for (int k = 0; k < nu; k++) CHECK(wfs_compact_unit(cp, &u[k], low, &e));
    wfs_compact_units_free(u, nu);
    char t0[160];
    snprintf(t0, sizeof t0, "%s/compacted-part-u-0-0", p0);
    FILE *f = fopen(t0, "r");
    CHECK(f != NULL);
    char buf[16] = {0};
    if (f) { CHECK(fread(buf, 1, sizeof buf - 1, f) == 4); fclose(f); }
    CHECK(strcmp(buf, "1\n2\n") == 0);
    /* nothing pending any more; the inputs go when the compactors end */
    wsb_init(&st);
    wfs_compact_pending_state(cp, &st);
    CHECK(st.len == 0);
    wsb_free(&st);
    wfs_compact_finish(cp);
    struct stat sst;
    CHECK(stat(a, &sst) != 0 && stat(c, &sst) != 0);
    /* a restore coordinates a file listed by two writers' states once */
    WSinkShared sh2 = {0};
    pthread_mutex_init(&sh2.mu, NULL);
    WFsCompact *cp2 = wfs_compact_get(&sh2, 1, 1 << 20);
    char d[160];
    snprintf(d, sizeof d, "%s/.uncompacted-part-v-0-0", p1);
    fsp_write_file(d, "4\n");
    wfs_compact_restore_file(cp2, d);
    CHECK(wfs_compact_restore_end(cp2, 0, 2, &e));
    wfs_compact_restore_file(cp2, d);
    CHECK(wfs_compact_restore_end(cp2, 1, 2, &e));
    char t1[160];
    snprintf(t1, sizeof t1, "%s/compacted-part-v-0-0", p1);
    f = fopen(t1, "r");
    CHECK(f != NULL);
    memset(buf, 0, sizeof buf);
    if (f) { CHECK(fread(buf, 1, sizeof buf - 1, f) == 2); fclose(f); }
    CHECK(strcmp(buf, "4\n") == 0);
    CHECK(!e.set);
    sh.free_data(sh.data);
    sh2.free_data(sh2.data);
    pthread_mutex_destroy(&sh.mu);
    pthread_mutex_destroy(&sh2.mu);
    fsp_rm_rf(dir);
}

/* ---- the PartitionCommitter's trigger and the writers' PartitionCommitInfo (fs_partition_commit.c,
   fs_sink.c; runtime/fs_compact_flow.c runs the committer) ---- */
#include "../../src/connectors/fs_partition_commit.h"

static bool fsp_exists(const char *dir, const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    struct stat st;
    return stat(p, &st) == 0;
}

/* Flink's PartitionTimeCommitTrigger: committable at checkpoint n when the partition's time + delay
   is below the watermark the committer had at its snapshot of n; nothing without that snapshot. */
WTEST(fs_partition_commit_trigger_uses_the_snapshot_watermark)
{
    char dir[64] = "/tmp/weir-fsp-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    WOptions o;
    wopts_init(&o);
    wopts_set(&o, "sink.partition-commit.trigger", "partition-time");
    wopts_set(&o, "sink.partition-commit.delay", "1 h");
    wopts_set(&o, "partition.time-extractor.timestamp-pattern", "$dt:00:00");
    wopts_set(&o, "sink.partition-commit.policy.kind", "success-file");
    WFsCommitConfig cfg;
    WError e;
    werr_clear(&e);
    CHECK(wfs_commit_config(&cfg, &o, &e));
    char d0[128], d1[128];
    snprintf(d0, sizeof d0, "%s/dt=2026-01-01 00", dir);
    snprintf(d1, sizeof d1, "%s/dt=2026-01-01 01", dir);
    CHECK(mkdir(d0, 0777) == 0 && mkdir(d1, 0777) == 0);
    const int64_t H = 3600000, T0 = 1767225600000LL;          /* 2026-01-01 00:00 UTC */
    WFsCommitTracker *t = wfs_commit_tracker_new(&cfg);
    wfs_commit_add(t, "dt=2026-01-01 00", d0, 0);
    wfs_commit_add(t, "dt=2026-01-01 01", d1, 0);
    /* no snapshot of checkpoint 1: nothing is committable */
    CHECK(wfs_commit_ready(t, 1, false, 0, &e));
    CHECK(!fsp_exists(d0, "_SUCCESS") && !fsp_exists(d1, "_SUCCESS"));
    /* the watermark at the snapshot counts, not a later one */
    wfs_commit_snapshot(t, 2, T0 + H + H / 4);                 /* 01:15 > 00:00 + 1 h */
    wfs_commit_snapshot(t, 3, T0 + 2 * H);                     /* 02:00, not > 01:00 + 1 h */
    CHECK(wfs_commit_ready(t, 2, false, 0, &e));
    CHECK(fsp_exists(d0, "_SUCCESS") && !fsp_exists(d1, "_SUCCESS"));
    WStrBuf st;
    wsb_init(&st);
    wfs_commit_state(t, &st);
    CHECK(st.buf && strstr(st.buf, "#commit\t0\t") && strstr(st.buf, "dt=2026-01-01 01\n") &&
          !strstr(st.buf, "dt=2026-01-01 00"));
    CHECK(wfs_commit_ready(t, 3, false, 0, &e));
    CHECK(!fsp_exists(d1, "_SUCCESS"));
    /* restored into a new committer, it commits at a later snapshot past its time */
    WFsCommitTracker *r = wfs_commit_tracker_new(&cfg);
    wfs_commit_add(r, "dt=2026-01-01 01", d1, 0);
    wfs_commit_snapshot(r, 4, T0 + 2 * H + 1);
    CHECK(wfs_commit_ready(r, 4, false, 0, &e));
    CHECK(fsp_exists(d1, "_SUCCESS"));
    wsb_free(&st);
    wfs_commit_tracker_free(t);
    wfs_commit_tracker_free(r);
    wfs_commit_config_free(&cfg);
    wopts_free(&o);
    fsp_rm_rf(dir);
}

typedef struct FspMsgs { WStrBuf log; } FspMsgs;

static bool fsp_message(void *ctx, const WSinkMessage *m, WError *err)
{
    (void)err;
    FspMsgs *g = ctx;
    if (m->kind == WSM_SNAPSHOT) wsb_printf(&g->log, "snapshot %lld\n", (long long)m->ckpt);
    if (m->kind == WSM_COMMIT_INFO) {
        int n = 0;
        for (const char *p = m->path; p && *p; p++) n += *p == '\n';
        wsb_printf(&g->log, "info %lld %d%s%s%s\n", m->ckpt == INT64_MAX ? -1LL : (long long)m->ckpt,
                   m->path ? n + 1 : 0, m->path && strstr(m->path, "/k=0") ? " k0" : "",
                   m->path && strstr(m->path, "/k=1") ? " k1" : "", m->ended ? " ended" : "");
    }
    return true;
}

/* Without compaction the writer sends the partitions it wrote up to each checkpoint in its
   PartitionCommitInfo and commits none itself (the PartitionCommitter does). */
WTEST(fs_partition_writer_sends_its_partitions_and_commits_none)
{
    char dir[64] = "/tmp/weir-fsp-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/t", dir);
    FspTable t;
    fsp_init(&t, path);
    wopts_set(&t.opts, "sink.partition-commit.policy.kind", "success-file");
    WError e;
    werr_clear(&e);
    WSink *s = wconnector_find("filesystem")->open_sink(&t.spec, &e);
    CHECK(s != NULL);
    FspMsgs g;
    wsb_init(&g.log);
    s->transactional = true;
    s->message = fsp_message;
    s->message_ctx = &g;
    WChunk *c = wchunk_new(3, FSP_TYPES, 16);
    fsp_rows(c, 0, 4, 2);                       /* k=0 and k=1 */
    CHECK(s->write(s, c, &e));
    char *state = NULL;
    CHECK(s->prepare_commit(s, 1, &state, &e));
    free(state);
    fsp_rows(c, 4, 1, 2);                       /* k=0 after the barrier: the next info */
    CHECK(s->write(s, c, &e));
    CHECK(s->commit(s, 1, &e));
    CHECK(s->finish(s, &e));
    CHECK(s->prepare_commit(s, 2, &state, &e));
    free(state);
    CHECK(s->commit(s, 2, &e));
    s->close(s);
    CHECK_STR(g.log.buf, "snapshot 1\ninfo 1 2 k0 k1\nsnapshot 2\ninfo -1 1 k0 ended\n");
    char k0[256];
    snprintf(k0, sizeof k0, "%s/k=0", path);
    CHECK(!fsp_exists(k0, "_SUCCESS"));
    wsb_free(&g.log);
    wchunk_free(c);
    wopts_free(&t.opts);
    fsp_rm_rf(dir);
}

/* ---- the PartitionCommitter operator (runtime/fs_compact_flow.c) fed by two writers without
   compaction ---- */
#include "../../src/runtime/fs_compact_flow.h"
#include <pthread.h>

static const WOpOps FSP_WRITER_OPS = {0};

static bool fsp_send(WSink *w, WSinkMessageKind kind, int task, int64_t ckpt, int64_t wm, const char *parts,
                     const char *root, WStrBuf *state)
{
    WError e;
    werr_clear(&e);
    WSinkMessage m = {.kind = kind, .ckpt = ckpt, .task = task, .wm = wm, .path = parts, .root = root,
                      .ended = ckpt == INT64_MAX, .state = state};
    return w->message(w->message_ctx, &m, &e);
}

/* Flink's PartitionCommitter: the partition-time trigger reads the watermark the committer had at
   its snapshot of the checkpoint (the lowest of the writers' at their barriers), not the one it
   has when the checkpoint's infos are complete; its pending partitions go into the state of the
   writer whose barrier came last; everything is committed at the end of the input. */
WTEST(fs_partition_committer_commits_with_the_watermark_of_its_snapshot)
{
    char dir[64] = "/tmp/weir-fsp-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char d0[128], d1[128];
    snprintf(d0, sizeof d0, "%s/dt=2026-01-01 00", dir);
    snprintf(d1, sizeof d1, "%s/dt=2026-01-01 05", dir);
    CHECK(mkdir(d0, 0777) == 0 && mkdir(d1, 0777) == 0);
    WOptions o;
    wopts_init(&o);
    wopts_set(&o, "sink.partition-commit.trigger", "partition-time");
    wopts_set(&o, "sink.partition-commit.delay", "1 h");
    wopts_set(&o, "partition.time-extractor.timestamp-pattern", "$dt:00:00");
    wopts_set(&o, "sink.partition-commit.policy.kind", "success-file");
    WError err;
    werr_clear(&err);
    WExecCtx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.err = &err;
    WSinkShared *sh = calloc(1, sizeof *sh);
    pthread_mutex_init(&sh->mu, NULL);
    WFsFlow *f = wfs_flow_get(sh, &ctx, 2, false, true);
    CHECK(wfs_flow_committer(f) != NULL);
    WOperator *wop[2];
    WSink sink[2];
    memset(sink, 0, sizeof sink);
    for (int i = 0; i < 2; i++) {
        wop[i] = calloc(1, sizeof(WOperator));
        wop_init(wop[i], &FSP_WRITER_OPS, &ctx, 1, 0, NULL, NULL);
        wfs_flow_attach_writer(f, wop[i], &sink[i], i, &o);
    }
    const int64_t H = 3600000, T0 = 1767225600000LL;          /* 2026-01-01 00:00 UTC */
    WStrBuf s0, s1;
    wsb_init(&s0);
    wsb_init(&s1);
    /* checkpoint 1: barriers at 01:30 and 00:30; the watermarks move on to 05:00 before the infos */
    CHECK(fsp_send(&sink[0], WSM_SNAPSHOT, 0, 1, T0 + H + H / 2, NULL, dir, &s0));
    CHECK(fsp_send(&sink[1], WSM_SNAPSHOT, 1, 1, T0 + H / 2, NULL, dir, &s1));
    wfs_flow_writer_watermark(f, 0, T0 + 5 * H);
    wfs_flow_writer_watermark(f, 1, T0 + 5 * H);
    CHECK(fsp_send(&sink[0], WSM_COMMIT_INFO, 0, 1, 0, d0, dir, NULL));
    CHECK(fsp_send(&sink[1], WSM_COMMIT_INFO, 1, 1, 0, NULL, dir, NULL));
    CHECK(!fsp_exists(d0, "_SUCCESS"));                      /* 00:30 is not past 00:00 + 1 h */
    /* checkpoint 2: barriers at 05:00 and 01:10: its snapshot keeps d0 in the last writer's state */
    wsb_clear(&s0);
    wsb_clear(&s1);
    CHECK(fsp_send(&sink[0], WSM_SNAPSHOT, 0, 2, T0 + 5 * H, NULL, dir, &s0));
    CHECK(fsp_send(&sink[1], WSM_SNAPSHOT, 1, 2, T0 + H + H / 6, NULL, dir, &s1));
    CHECK(s0.len == 0);
    CHECK(s1.buf && strncmp(s1.buf, "#commit\t", 8) == 0 && strstr(s1.buf, "dt=2026-01-01 00\n"));
    CHECK(fsp_send(&sink[0], WSM_COMMIT_INFO, 0, 2, 0, d1, dir, NULL));
    CHECK(!fsp_exists(d0, "_SUCCESS"));                      /* writer 1's info of 2 is missing */
    CHECK(fsp_send(&sink[1], WSM_COMMIT_INFO, 1, 2, 0, NULL, dir, NULL));
    CHECK(fsp_exists(d0, "_SUCCESS"));                       /* 01:10 is past 01:00 */
    CHECK(!fsp_exists(d1, "_SUCCESS"));
    /* the end of the input: every pending partition */
    CHECK(fsp_send(&sink[0], WSM_COMMIT_INFO, 0, INT64_MAX, 0, NULL, dir, NULL));
    CHECK(!fsp_exists(d1, "_SUCCESS"));
    CHECK(fsp_send(&sink[1], WSM_COMMIT_INFO, 1, INT64_MAX, 0, NULL, dir, NULL));
    CHECK(fsp_exists(d1, "_SUCCESS"));
    CHECK(!err.set);
    wsb_free(&s0);
    wsb_free(&s1);
    for (int i = 0; i < 2; i++) wop_free(wop[i]);
    sh->free_runtime(sh->runtime);
    pthread_mutex_destroy(&sh->mu);
    free(sh);
    wopts_free(&o);
    fsp_rm_rf(dir);
}
