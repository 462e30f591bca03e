/*
 * fs_sink.c — the filesystem sink (WSink): the files fs_writer.c rolled are published when a
 * checkpoint covering them completes (prepare_commit / commit / recover of WSink) or, without
 * checkpoints, when the input ends; a json file in progress at a checkpoint stays in progress (the
 * state keeps its length, a restore ends it there). Then the partitions are committed
 * (fs_partition_commit.c: success file, process-time / partition-time triggers; batch: every
 * partition written; streaming, under the runtime: the PartitionCommitter after the writers, fed
 * the partitions of each commit through WSink.message), INSERT OVERWRITE (batch) removes the old
 * files of what it replaces, and with 'auto-compaction' the published files go to the shared
 * compactor (fs_compact.h).
 * State of a subtask (one line each): "#compact\t<subtask>\t<parallelism>\t<part counter>" and the
 * compactor's "#expired\t<path>" and "#pending\t<path>" lines (compaction only), the
 * PartitionCommitter's "#commit\t<ms>\t<dir>" lines (in one writer's state), then "<tmp>\t<final>" per pending file
 * and "<tmp>\t<final>\t<length>" per file in progress.
 * Depends on fs_writer.h, fs_internal.h, common/.
 */
#include "fs_writer.h"
#include "fs_internal.h"
#include "conn_internal.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* INSERT OVERWRITE: remove the visible files of dir that this job did not write (its part files
   share the prefix part-<uuid>-); hidden files ('.', '_') are not data. */
static bool remove_old_files(FsSink *s, const char *dir, WError *err)
{
    DIR *d = opendir(dir);
    if (!d) return true;
    char mine[64];
    snprintf(mine, sizeof mine, "part-%s-", s->uuid);
    bool ok = true;
    struct dirent *e;
    while (ok && (e = readdir(d))) {
        const char *nm = e->d_name;
        if (nm[0] == '.' || nm[0] == '_' || strncmp(nm, mine, strlen(mine)) == 0) continue;
        WStrBuf path;
        wsb_init(&path);
        wsb_printf(&path, "%s/%s", dir, nm);
        struct stat st;
        if (stat(path.buf, &st) == 0 && S_ISREG(st.st_mode) && unlink(path.buf) != 0 && errno != ENOENT)
            ok = werr_set(err, WEXC_IO, "Failed to overwrite '%s': %s", path.buf, strerror(errno));
        wsb_free(&path);
    }
    closedir(d);
    return ok;
}

static bool publish(const char *tmp, const char *final, WError *err);

/* The writer commits its partitions itself only when the runtime takes no messages: else the
   PartitionCommitter after it does (after the compaction, or fed the writers' PartitionCommitInfo). */
static bool writer_commits(const FsSink *s) { return s->tracker && !s->base.message; }

/* A committed file goes to the compaction (InputFile): as a message to the operators after the
   writer when the runtime takes them (WSink.message), else to the shared compactor. */
static bool to_compactor(FsSink *s, int64_t ckpt, const char *path, WError *err)
{
    if (s->base.message) {
        WSinkMessage m = {.kind = WSM_INPUT_FILE, .ckpt = ckpt, .task = s->subtask, .path = path, .root = s->dir};
        return s->base.message(s->base.message_ctx, &m, err);
    }
    pthread_mutex_lock(&s->shared->mu);
    wfs_compact_add_file(s->compactor, ckpt, path);
    pthread_mutex_unlock(&s->shared->mu);
    return true;
}

/* Every file up to checkpoint ckpt went to the compaction (EndCheckpoint). */
static bool end_checkpoint(FsSink *s, int64_t ckpt, bool ended, WError *err)
{
    if (s->base.message) {
        WSinkMessage m = {.kind = WSM_END_CHECKPOINT, .ckpt = ckpt, .task = s->subtask, .ended = ended};
        return s->base.message(s->base.message_ctx, &m, err);
    }
    pthread_mutex_lock(&s->shared->mu);
    bool ok = wfs_compact_end_checkpoint(s->compactor, ckpt, s->subtask, ended, err);
    pthread_mutex_unlock(&s->shared->mu);
    return ok;
}

/* A writer without compaction committed up to ckpt (Flink's PartitionCommitInfo to the
   PartitionCommitter or `end: Writer`: the partitions written up to ckpt; the last one, at the end
   of the input, is Flink's endInput info of checkpoint Long.MAX_VALUE: every partition), when the
   runtime takes the messages. */
static bool commit_info(FsSink *s, int64_t ckpt, bool ended, WError *err)
{
    if (s->compactor || !s->base.message) return true;
    WStrBuf parts;
    wsb_init(&parts);
    if (s->tracker) wfs_commit_take(s->tracker, ckpt, ended, &parts);
    WSinkMessage m = {.kind = WSM_COMMIT_INFO, .ckpt = ended ? INT64_MAX : ckpt, .task = s->subtask,
                      .ended = ended, .path = parts.len ? parts.buf : NULL, .root = s->dir};
    bool ok = s->base.message(s->base.message_ctx, &m, err);
    wsb_free(&parts);
    return ok;
}

/* A restored file's partition goes into the writer's next PartitionCommitInfo (the committer
   commits it as it would have after the checkpoint, had the job not failed). */
static void restored_partition(FsSink *s, const char *final)
{
    if (!s->tracker || !s->base.message || s->compactor) return;
    const char *slash = strrchr(final, '/');
    size_t n = strlen(s->dir);
    if (!slash || strncmp(final, s->dir, n) != 0 || final[n] != '/' || slash <= final + n) return;
    char *dir = strndup(final, (size_t)(slash - final));
    wfs_commit_touch(s->tracker, dir + n + 1, dir);
    free(dir);
}

/* Publish every pending file, then commit the partitions (end of input). */
static bool publish_all(FsSink *s, WError *err)
{
    char **files = s->compactor ? wmalloc(sizeof(char *) * (size_t)(s->npending ? s->npending : 1)) : NULL;
    int nfiles = 0;
    for (int i = 0; i < s->npending; i++) {
        if (!publish(s->pending[i].tmp, s->pending[i].final, err)) {
            for (int k = 0; k < nfiles; k++) free(files[k]);
            free(files);
            return false;
        }
        free(s->pending[i].tmp);
        if (files) files[nfiles++] = s->pending[i].final;
        else free(s->pending[i].final);
        s->pending[i].tmp = s->pending[i].final = NULL;
    }
    s->npending = 0;
    if (s->compactor) {
        bool ok = true;
        for (int i = 0; ok && i < nfiles; i++) ok = to_compactor(s, INT64_MAX, files[i], err);
        ok = ok && end_checkpoint(s, INT64_MAX, true, err);
        for (int i = 0; i < nfiles; i++) free(files[i]);
        free(files);
        if (!ok) return false;
    }
    if (!commit_info(s, INT64_MAX, true, err)) return false;
    if (s->batch && s->commit.enabled) {
        /* FileSystemOutputFormat commits every partition written (the table folder when not
           partitioned) */
        if (!s->npart && s->nbuckets && !wfs_commit_partition_dir(&s->commit, s->dir, err)) return false;
        for (int i = 0; s->npart && i < s->nbuckets; i++)
            if (!wfs_commit_partition_dir(&s->commit, s->buckets[i].dir, err)) return false;
        return true;
    }
    return !writer_commits(s) || wfs_commit_ready(s->tracker, INT64_MAX, true, wfs_sink_now(s), err);
}

static bool fs_finish(WSink *base, WError *err)
{
    FsSink *s = (FsSink *)base;
    if (s->done) return true;
    if (!wfs_close_all(s, err)) return false;
    /* INSERT OVERWRITE (batch): the table (unpartitioned) or the partitions written are replaced */
    if (s->overwrite) {
        if (!s->npart && !remove_old_files(s, s->dir, err)) return false;
        for (int i = 0; s->npart && i < s->nbuckets; i++)
            if (!remove_old_files(s, s->buckets[i].dir, err)) return false;
    }
    s->done = true;
    /* with checkpoints the files wait for the final checkpoint (fs_commit) */
    return s->base.transactional || publish_all(s, err);
}

/* Publish tmp as final; a file published already (a repeated commit) is fine. */
static bool publish(const char *tmp, const char *final, WError *err)
{
    if (rename(tmp, final) == 0) return true;
    struct stat st;
    if (errno == ENOENT && stat(final, &st) == 0) return true;
    if (errno == ENOENT)
        return werr_set(err, WEXC_IO,
                        "Cannot commit the filesystem sink file '%s': neither it nor its in-progress file '%s' exists.",
                        final, tmp);
    return werr_set(err, WEXC_IO, "Failed to commit '%s': %s", final, strerror(errno));
}

/* At a checkpoint: files roll as Flink's shouldRollOnCheckpoint says (csv: always; json: when
   larger than the file size), the others stay in progress and the state keeps their length. */
static bool fs_prepare_commit(WSink *base, int64_t ckpt_id, char **state, WError *err)
{
    FsSink *s = (FsSink *)base;
    *state = NULL;
    if (!wfs_check_rolling_times(s, err)) return false;
    for (int i = 0; i < s->nbuckets; i++) {
        FsBucket *b = &s->buckets[i];
        if (b->fd < 0) continue;
        if (s->roll_on_checkpoint || s->compact || s->done || wfs_roll_bytes(s, b) > s->roll_size) {
            if (!wfs_close_bucket(s, b, err)) return false;
        } else if (!wfs_flush_bucket(b, err)) {
            return false;
        } else if (fsync(b->fd) != 0) {
            return werr_set(err, WEXC_IO, "Failed to sync '%s': %s", b->tmp_path, strerror(errno));
        }
    }
    WStrBuf b;
    wsb_init(&b);
    /* compaction: which writer of how many (a restore replays every writer's files before they
       are coordinated again) */
    if (s->compactor) wsb_printf(&b, "#compact\t%d\t%d\t%d\n", s->subtask, s->base_ntasks, s->counter);
    /* every writer lists them: the one that compacted a checkpoint's files last snapshots after */
    if (s->compactor) {
        pthread_mutex_lock(&s->shared->mu);
        wfs_compact_expired_state(s->compactor, &b);
        wfs_compact_pending_state(s->compactor, &b);
        pthread_mutex_unlock(&s->shared->mu);
    }
    /* the checkpoint barrier passes on to the operators after the writer: the PartitionCommitter
       snapshots with the last writer (its "#commit" lines go into that writer's state) */
    if (s->base.message) {
        WSinkMessage m = {.kind = WSM_SNAPSHOT, .ckpt = ckpt_id, .task = s->subtask, .wm = s->wm, .root = s->dir,
                          .state = &b};
        if (!s->base.message(s->base.message_ctx, &m, err)) { wsb_free(&b); return false; }
    }
    for (int i = 0; i < s->npending; i++) {
        if (s->pending[i].ckpt == 0) s->pending[i].ckpt = ckpt_id;
        wsb_printf(&b, "%s\t%s\n", s->pending[i].tmp, s->pending[i].final);
    }
    /* files in progress: "<tmp>\t<final>\t<length>"; a restore ends them at that length */
    for (int i = 0; i < s->nbuckets; i++)
        if (s->buckets[i].fd >= 0)
            wsb_printf(&b, "%s\t%s\t%lld\n", s->buckets[i].tmp_path, s->buckets[i].final_path,
                       (long long)s->buckets[i].bytes);
    if (s->tracker && (writer_commits(s) || !s->compactor))
        wfs_commit_checkpoint(s->tracker, ckpt_id, s->wm, wfs_sink_now(s));
    *state = wsb_detach(&b);
    return true;
}

static bool fs_commit(WSink *base, int64_t ckpt_id, WError *err)
{
    FsSink *s = (FsSink *)base;
    int k = 0;
    bool ok = true;
    for (int i = 0; i < s->npending; i++) {
        FsPending *p = &s->pending[i];
        if (ok && p->ckpt > 0 && p->ckpt <= ckpt_id) {
            ok = publish(p->tmp, p->final, err);
            if (ok && s->compactor) ok = to_compactor(s, p->ckpt, p->final, err);
            if (ok) { free(p->tmp); free(p->final); continue; }
        }
        s->pending[k++] = *p;
    }
    s->npending = k;
    /* the compactor hears that this writer committed up to ckpt_id (Flink's EndCheckpoint) */
    if (ok && s->compactor) ok = end_checkpoint(s, ckpt_id, s->done && s->npending == 0, err);
    if (ok) ok = commit_info(s, ckpt_id, s->done && s->npending == 0, err);
    /* the partitions whose files this checkpoint committed, as the trigger lets them through; all
       of them once the input ended */
    if (ok && writer_commits(s)) ok = wfs_commit_ready(s->tracker, ckpt_id, s->done && s->npending == 0, wfs_sink_now(s), err);
    return ok;
}

static bool fs_recover(WSink *base, const char *state, WError *err)
{
    FsSink *s = (FsSink *)base;
    const char *p = state ? state : "";
    int ctask = -1, cntasks = 0, ccounter = 0;
    if (strncmp(p, "#compact\t", 9) == 0) {
        const char *nl = strchr(p, '\n');
        if (!nl || sscanf(p + 9, "%d\t%d\t%d", &ctask, &cntasks, &ccounter) != 3)
            return werr_set(err, WEXC_IO, "Invalid filesystem sink state in the checkpoint.");
        p = nl + 1;
        if (s->compactor) {
            pthread_mutex_lock(&s->shared->mu);
            wfs_compact_restore_counter(s->compactor, ccounter);
            pthread_mutex_unlock(&s->shared->mu);
        }
    }
    /* compacted inputs the checkpoint still listed: their compacted files exist, they can go */
    while (strncmp(p, "#expired\t", 9) == 0) {
        const char *nl = strchr(p, '\n');
        if (!nl) return werr_set(err, WEXC_IO, "Invalid filesystem sink state in the checkpoint.");
        char *path = strndup(p + 9, (size_t)(nl - p - 9));
        if (unlink(path) != 0 && errno != ENOENT) {
            werr_set(err, WEXC_IO, "Failed to delete '%s': %s", path, strerror(errno));
            free(path);
            return false;
        }
        free(path);
        p = nl + 1;
    }
    /* files the coordinator had not coordinated yet (published already): coordinated again, unless
       they were compacted and deleted before the crash */
    while (strncmp(p, "#pending\t", 9) == 0) {
        const char *nl = strchr(p, '\n');
        if (!nl || ctask < 0) return werr_set(err, WEXC_IO, "Invalid filesystem sink state in the checkpoint.");
        char *path = strndup(p + 9, (size_t)(nl - p - 9));
        struct stat st;
        if (s->compactor && stat(path, &st) == 0) {
            pthread_mutex_lock(&s->shared->mu);
            wfs_compact_restore_file(s->compactor, path);
            pthread_mutex_unlock(&s->shared->mu);
        }
        free(path);
        p = nl + 1;
    }
    /* the PartitionCommitter's pending partitions, when this writer snapshotted with it */
    while (strncmp(p, "#commit\t", 8) == 0) {
        const char *nl = strchr(p, '\n');
        if (!nl) return werr_set(err, WEXC_IO, "Invalid filesystem sink state in the checkpoint.");
        char *line = strndup(p, (size_t)(nl - p));
        WSinkMessage m = {.kind = WSM_RESTORE, .task = s->subtask, .path = line, .root = s->dir};
        bool ok = !s->base.message || s->base.message(s->base.message_ctx, &m, err);
        free(line);
        if (!ok) return false;
        p = nl + 1;
    }
    while (*p) {
        const char *tab = strchr(p, '\t'), *nl = strchr(p, '\n');
        if (!tab || !nl || tab > nl)
            return werr_set(err, WEXC_IO, "Invalid filesystem sink state in the checkpoint.");
        const char *tab2 = memchr(tab + 1, '\t', (size_t)(nl - tab - 1));
        char *tmp = strndup(p, (size_t)(tab - p));
        char *final = strndup(tab + 1, (size_t)((tab2 ? tab2 : nl) - tab - 1));
        bool ok = true;
        if (tab2) {
            /* a file in progress at the checkpoint: its content up to there is kept and published
               (Flink resumes writing it; weir ends it there) */
            long long len = atoll(tab2 + 1);
            struct stat st;
            if (stat(tmp, &st) == 0 && truncate(tmp, (off_t)len) != 0)
                ok = werr_set(err, WEXC_IO, "Failed to restore '%s': %s", tmp, strerror(errno));
        }
        /* compaction: a file the compactor removed already was compacted before the crash */
        struct stat st;
        if (ok && ctask >= 0 && stat(tmp, &st) != 0 && stat(final, &st) != 0) {
            free(tmp);
            free(final);
            p = nl + 1;
            continue;
        }
        if (ok) ok = publish(tmp, final, err);
        if (ok) restored_partition(s, final);
        if (ok && ctask >= 0 && s->compactor) {
            pthread_mutex_lock(&s->shared->mu);
            wfs_compact_restore_file(s->compactor, final);
            pthread_mutex_unlock(&s->shared->mu);
        }
        free(tmp);
        free(final);
        if (!ok) return false;
        p = nl + 1;
    }
    if (ctask >= 0 && s->compactor) {
        pthread_mutex_lock(&s->shared->mu);
        bool ok = wfs_compact_restore_end(s->compactor, ctask, cntasks, err);
        pthread_mutex_unlock(&s->shared->mu);
        return ok;
    }
    return true;
}

static void fs_sink_close(WSink *base)
{
    FsSink *s = (FsSink *)base;
    for (int i = 0; i < s->nbuckets; i++) {
        FsBucket *b = &s->buckets[i];
        if (b->fd >= 0) {
            close(b->fd);
            unlink(b->tmp_path);    /* not finished: drop the in-progress file */
        }
        wsb_free(&b->buf);
        free(b->rel);
        free(b->dir);
        free(b->tmp_path);
        free(b->final_path);
    }
    free(s->buckets);
    /* pending files stay: a restore from the checkpoint that covers them publishes them */
    for (int i = 0; i < s->npending; i++) { free(s->pending[i].tmp); free(s->pending[i].final); }
    free(s->pending);
    wfs_commit_tracker_free(s->tracker);
    if (s->own_shared) {
        if (s->shared->free_data) s->shared->free_data(s->shared->data);
        pthread_mutex_destroy(&s->shared->mu);
        free(s->shared);
    }
    wfs_commit_config_free(&s->commit);
    wcsv_config_free(&s->cfg);
    wjsonfmt_config_free(&s->jcfg);
    free(s->names);
    wsb_free(&s->key);
    free(s->types);
    free(s->write_cols);
    free(s->view);
    free(s->part_cols);
    free(s->part_types);
    free(s->part_names);
    free(s->default_name);
    free(s->dir);
    free(s);
}

static void fs_sink_watermark(WSink *base, int64_t wm)
{
    FsSink *s = (FsSink *)base;
    if (wm > s->wm) s->wm = wm;
}

static bool is_partition_col(const WTableSpec *spec, int i)
{
    for (int k = 0; k < spec->npartition; k++) if (spec->partition[k] == i) return true;
    return false;
}

WSink *wfs_open_sink(const WTableSpec *spec, WError *err)
{
    if (!wfs_validate(spec, false, err)) return NULL;
    const WConnFormat *f = wconn_format_find(wopts_get(spec->options, "format"));
    const char *path = wfs_local_path(wopts_get(spec->options, "path"));
    if (!wfs_mkdirs(path, err)) return NULL;
    FsSink *s = wcalloc(1, sizeof *s);
    s->json = f->json;
    s->changelog = f->changelog;
    s->format = f->name;
    if (f->json) {
        wcsv_config_init(&s->cfg, false);
        if (!wjsonfmt_config(&s->jcfg, spec->options, f->name, false, err)) {
            wjsonfmt_config_free(&s->jcfg);
            wcsv_config_free(&s->cfg);
            free(s);
            return NULL;
        }
    } else if (!wconn_format_config(f, spec->options, &s->cfg, err)) { wcsv_config_free(&s->cfg); free(s); return NULL; }
    s->base.write = wfs_write;
    s->base.finish = fs_finish;
    s->base.close = fs_sink_close;
    s->base.prepare_commit = fs_prepare_commit;
    s->base.commit = fs_commit;
    s->base.recover = fs_recover;
    size_t n1 = (size_t)(spec->ncols ? spec->ncols : 1);
    s->types = wmalloc(sizeof(WType *) * n1);
    s->names = wmalloc(sizeof(char *) * n1);
    s->write_cols = wmalloc(sizeof(int) * n1);
    s->view = wmalloc(sizeof(WVector) * n1);
    size_t np1 = (size_t)(spec->npartition ? spec->npartition : 1);
    s->part_cols = wmalloc(sizeof(int) * np1);
    s->part_types = wmalloc(sizeof(WType *) * np1);
    s->part_names = wmalloc(sizeof(char *) * np1);
    for (int i = 0; i < spec->ncols; i++) {
        if (is_partition_col(spec, i)) continue;
        s->types[s->ncols] = spec->col_types[i];
        s->names[s->ncols] = spec->col_names[i];      /* the plan outlives the sink */
        s->write_cols[s->ncols++] = i;
    }
    for (int k = 0; k < spec->npartition; k++) {
        int c = spec->partition[k];
        s->part_cols[k] = c;
        s->part_types[k] = spec->col_types[c];
        s->part_names[k] = (char *)spec->col_names[c];  /* the plan outlives the sink */
    }
    s->npart = spec->npartition;
    const char *dn = wopts_get(spec->options, "partition.default-name");
    s->default_name = wstrdup(dn && dn[0] ? dn : "__DEFAULT_PARTITION__");
    s->tz = spec->cast ? spec->cast->tz : NULL;
    s->dir = wstrdup(path);
    s->last = -1;
    wsb_init(&s->key);
    if (spec->sink_uuid) snprintf(s->uuid, sizeof s->uuid, "%s", spec->sink_uuid);
    else wfs_make_uuid(s->uuid);
    s->overwrite = spec->overwrite;
    s->subtask = spec->subtask;
    s->batch = spec->bounded;
    s->base.watermark = fs_sink_watermark;
    s->wm = INT64_MIN;
    s->clock = spec->clock;
    s->clock_ctx = spec->clock_ctx;
    s->roll_on_checkpoint = !f->json;
    if (!wfs_rolling_options(spec->options, true, &s->roll_size, &s->rollover_ms, &s->inactivity_ms, &s->check_ms, err) ||
        !wfs_commit_config(&s->commit, spec->options, err)) {
        fs_sink_close(&s->base);
        return NULL;
    }
    bool compact = false;
    if (!wfs_compaction_options(spec->options, s->roll_size, &compact, &s->compact_target, err)) {
        fs_sink_close(&s->base);
        return NULL;
    }
    /* auto-compaction: streaming only (Flink 2.3's batch sink ignores it, measured); the files roll
       at every checkpoint (TableRollingPolicy) and are compacted by the shared compactor */
    s->compact = compact && !s->batch;
    s->base_ntasks = spec->parallelism > 0 ? spec->parallelism : 1;
    if (s->compact) {
        s->shared = spec->shared;
        if (!s->shared) {
            assert(s->base_ntasks == 1);
            s->shared = wcalloc(1, sizeof *s->shared);
            pthread_mutex_init(&s->shared->mu, NULL);
            s->own_shared = true;
        }
        s->compactor = wfs_compact_get(s->shared, s->base_ntasks, s->compact_target);
    }
    s->next_check_ms = wfs_sink_now(s) + s->check_ms;
    /* streaming: partitions are committed for partitioned tables only (Flink's StreamingSink) */
    if (s->commit.enabled && !s->batch && s->npart) s->tracker = wfs_commit_tracker_new(&s->commit);
    return &s->base;
}

