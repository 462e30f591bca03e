/*
 * fs_compact.c — the filesystem sink's auto-compaction: Flink's CompactCoordinator (files per
 * checkpoint, stable bin packing per partition) and CompactOperator (one compacted file per unit,
 * the inputs deleted after the next checkpoint). Contract in fs_compact.h.
 */
#include "fs_compact.h"
#include "../common/arena.h"
#include "../common/strbuf.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct CFile {
    int64_t ckpt;
    char *path;
} CFile;

typedef struct Expired {
    int64_t after;              /* deleted once a checkpoint after this one completed */
    char *path;
} Expired;

struct WFsCompact {
    int ntasks;
    int64_t target;
    int64_t *reported;          /* per subtask: the checkpoint it committed up to (0: none) */
    bool *ended;
    int64_t coordinated;        /* files up to this checkpoint are compacted */
    int nfiles, cap_files;
    CFile *files;               /* not coordinated yet */
    int nexp, cap_exp;
    Expired *expired;           /* compacted inputs waiting for deletion */
    /* restore: the files of the restored checkpoint's writer states */
    int old_ntasks, nrestored_tasks;
    bool *restored_task;
    int nrest, cap_rest;
    char **rest;
    int max_counter;            /* the restored writers' highest part counter */
};

static void compact_free(void *data)
{
    WFsCompact *c = data;
    if (!c) return;
    for (int i = 0; i < c->nfiles; i++) free(c->files[i].path);
    for (int i = 0; i < c->nexp; i++) free(c->expired[i].path);
    for (int i = 0; i < c->nrest; i++) free(c->rest[i]);
    free(c->files);
    free(c->expired);
    free(c->rest);
    free(c->restored_task);
    free(c->reported);
    free(c->ended);
    free(c);
}

WFsCompact *wfs_compact_get(WSinkShared *sh, int ntasks, int64_t target_size)
{
    assert(sh && ntasks > 0 && target_size > 0);
    pthread_mutex_lock(&sh->mu);
    WFsCompact *c = sh->data;
    if (!c) {
        c = wcalloc(1, sizeof *c);
        c->ntasks = ntasks;
        c->target = target_size;
        c->reported = wcalloc((size_t)ntasks, sizeof(int64_t));
        c->ended = wcalloc((size_t)ntasks, sizeof(bool));
        sh->data = c;
        sh->free_data = compact_free;
    }
    assert(c->ntasks == ntasks);
    pthread_mutex_unlock(&sh->mu);
    return c;
}

WFsCompact *wfs_compact_of(WSinkShared *sh) { return sh->data; }

void wfs_compact_add_file(WFsCompact *c, int64_t ckpt, const char *path)
{
    if (c->nfiles == c->cap_files) {
        c->cap_files = c->cap_files ? c->cap_files * 2 : 8;
        c->files = wrealloc(c->files, sizeof(CFile) * (size_t)c->cap_files);
    }
    c->files[c->nfiles++] = (CFile){ckpt, wstrdup(path)};
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int64_t file_size(const char *path, WError *err, bool *ok)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        *ok = werr_set(err, WEXC_IO, "Compaction file not exist: %s", path);
        return 0;
    }
    return (int64_t)st.st_size;
}

static bool copy_into(int out, const char *in_path, const char *tmp, WError *err)
{
    int in = open(in_path, O_RDONLY | O_CLOEXEC);
    if (in < 0) return werr_set(err, WEXC_IO, "Compaction file not exist: %s", in_path);
    char buf[65536];
    for (;;) {
        ssize_t n = read(in, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) { close(in); return werr_set(err, WEXC_IO, "Failed to read '%s': %s", in_path, strerror(errno)); }
        if (n == 0) break;
        for (ssize_t off = 0; off < n;) {
            ssize_t w = write(out, buf + off, (size_t)(n - off));
            if (w < 0 && errno == EINTR) continue;
            if (w < 0) { close(in); return werr_set(err, WEXC_IO, "Failed to write '%s': %s", tmp, strerror(errno)); }
            off += w;
        }
    }
    close(in);
    return true;
}

/* The compacted file of a unit: compacted-<name of its first file without .uncompacted-> beside
   it (CompactOperator.createCompactedFile). */
static void target_of(const char *first, WStrBuf *target, WStrBuf *tmp)
{
    const char *slash = strrchr(first, '/');
    size_t dirlen = slash ? (size_t)(slash - first) + 1 : 0;
    const char *name = first + dirlen;
    size_t pl = strlen(WFS_UNCOMPACTED_PREFIX);
    assert(strncmp(name, WFS_UNCOMPACTED_PREFIX, pl) == 0);
    name += pl;
    wsb_clear(target);
    wsb_clear(tmp);
    wsb_printf(target, "%.*s%s%s", (int)dirlen, first, WFS_COMPACTED_PREFIX, name);
    wsb_printf(tmp, "%.*s.%s%s.inprogress", (int)dirlen, first, WFS_COMPACTED_PREFIX, name);
}

/* One unit (CompactFileUtils.doCompact): an existing target is kept; otherwise every input must
   exist, and they are concatenated into the hidden temp file, synced and renamed. */
static bool compact_unit(char **paths, int n, WError *err)
{
    WStrBuf target, tmp;
    wsb_init(&target);
    wsb_init(&tmp);
    target_of(paths[0], &target, &tmp);
    bool ok = true;
    struct stat st;
    if (stat(target.buf, &st) == 0) goto done;
    for (int i = 0; ok && i < n; i++) (void)file_size(paths[i], err, &ok);
    if (!ok) goto done;
    int out = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (out < 0) { ok = werr_set(err, WEXC_IO, "Failed to create '%s': %s", tmp.buf, strerror(errno)); goto done; }
    for (int i = 0; ok && i < n; i++) ok = copy_into(out, paths[i], tmp.buf, err);
    if (ok && fsync(out) != 0) ok = werr_set(err, WEXC_IO, "Failed to sync '%s': %s", tmp.buf, strerror(errno));
    if (close(out) != 0 && ok) ok = werr_set(err, WEXC_IO, "Failed to close '%s': %s", tmp.buf, strerror(errno));
    if (ok && rename(tmp.buf, target.buf) != 0)
        ok = werr_set(err, WEXC_IO, "Failed to commit '%s': %s", target.buf, strerror(errno));
    if (!ok) unlink(tmp.buf);
done:
    wsb_free(&target);
    wsb_free(&tmp);
    return ok;
}

static void expire(WFsCompact *c, int64_t after, const char *path)
{
    if (c->nexp == c->cap_exp) {
        c->cap_exp = c->cap_exp ? c->cap_exp * 2 : 8;
        c->expired = wrealloc(c->expired, sizeof(Expired) * (size_t)c->cap_exp);
    }
    c->expired[c->nexp++] = (Expired){after, wstrdup(path)};
}

/* Delete the expired inputs of checkpoints before `upto` (every one: all). */
static void delete_expired(WFsCompact *c, int64_t upto, bool all)
{
    int k = 0;
    for (int i = 0; i < c->nexp; i++) {
        if (all || c->expired[i].after < upto) {
            unlink(c->expired[i].path);
            free(c->expired[i].path);
        } else {
            c->expired[k++] = c->expired[i];
        }
    }
    c->nexp = k;
}

static size_t dir_len(const char *p)
{
    const char *slash = strrchr(p, '/');
    return slash ? (size_t)(slash - p) : 0;
}

/* Pack paths (sorted here) into units: per directory, Flink's BinPacking.pack over the sorted
   files (first fit among the last 10 open bins; a bin is closed when an 11th opens). The units'
   paths are copies (wfs_compact_units_free). */
static bool pack(WFsCompact *c, char **paths, int n, WFsUnit **units, int *nunits, WError *err)
{
    qsort(paths, (size_t)n, sizeof(char *), cmp_str);
    typedef struct Bin { int64_t weight; } Bin;
    WFsUnit *u = NULL;
    int nu = 0;
    bool ok = true;
    for (int d0 = 0; ok && d0 < n;) {
        size_t dl = dir_len(paths[d0]);
        int d1 = d0 + 1;
        while (d1 < n && dir_len(paths[d1]) == dl && strncmp(paths[d1], paths[d0], dl) == 0) d1++;
        Bin *bins = wcalloc((size_t)(d1 - d0), sizeof(Bin));
        u = wrealloc(u, sizeof(WFsUnit) * (size_t)(nu + d1 - d0));
        int base = nu;
        int first = 0, nb = 0;      /* open bins: [first, nb) */
        for (int i = d0; ok && i < d1; i++) {
            int64_t w = file_size(paths[i], err, &ok);
            if (!ok) break;
            int b = -1;
            for (int k = first; k < nb && b < 0; k++)
                if (bins[k].weight + w <= c->target) b = k;
            if (b < 0) {
                b = nb++;
                u[base + b] = (WFsUnit){0, NULL};
                if (nb - first > 10) first++;
            }
            WFsUnit *x = &u[base + b];
            x->paths = wrealloc(x->paths, sizeof(char *) * (size_t)(x->n + 1));
            x->paths[x->n++] = wstrdup(paths[i]);
            bins[b].weight += w;
        }
        nu = base + nb;
        free(bins);
        d0 = d1;
    }
    if (!ok) { wfs_compact_units_free(u, nu); u = NULL; nu = 0; }
    *units = u;
    *nunits = nu;
    return ok;
}

void wfs_compact_units_free(WFsUnit *u, int n)
{
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < u[i].n; k++) free(u[i].paths[k]);
        free(u[i].paths);
    }
    free(u);
}

bool wfs_compact_unit(WFsCompact *c, const WFsUnit *u, int64_t ckpt, WError *err)
{
    assert(u->n > 0);
    if (!compact_unit(u->paths, u->n, err)) return false;
    for (int q = 0; q < u->n; q++) expire(c, ckpt, u->paths[q]);
    return true;
}

/* Coordinate and compact paths in one step (a restore, or a writer without the operators). */
static bool coordinate(WFsCompact *c, char **paths, int n, int64_t ckpt, WError *err)
{
    WFsUnit *u;
    int nu;
    bool ok = pack(c, paths, n, &u, &nu, err);
    for (int k = 0; ok && k < nu; k++) ok = wfs_compact_unit(c, &u[k], ckpt, err);
    wfs_compact_units_free(u, nu);
    return ok;
}

bool wfs_compact_coordinate(WFsCompact *c, int64_t ckpt, int task, WFsUnit **units, int *nunits,
                            int64_t *coordinated, WError *err)
{
    assert(task >= 0 && task < c->ntasks);
    *units = NULL;
    *nunits = 0;
    *coordinated = 0;
    if (ckpt > c->reported[task]) c->reported[task] = ckpt;
    int64_t low = INT64_MAX;
    for (int t = 0; t < c->ntasks; t++)
        if (c->reported[t] < low) low = c->reported[t];
    if (low <= c->coordinated) return true;
    /* a completed checkpoint after the one that compacted them: the inputs can go */
    delete_expired(c, low, false);
    char **paths = wmalloc(sizeof(char *) * (size_t)(c->nfiles ? c->nfiles : 1));
    int n = 0, k = 0;
    for (int i = 0; i < c->nfiles; i++) {
        if (c->files[i].ckpt <= low) paths[n++] = c->files[i].path;
        else c->files[k++] = c->files[i];
    }
    c->nfiles = k;
    bool ok = !n || pack(c, paths, n, units, nunits, err);
    for (int i = 0; i < n; i++) free(paths[i]);
    free(paths);
    c->coordinated = low;
    *coordinated = low;
    return ok;
}

void wfs_compact_finish(WFsCompact *c) { delete_expired(c, INT64_MAX, true); }   /* CompactOperator.endInput */

bool wfs_compact_end_checkpoint(WFsCompact *c, int64_t ckpt, int task, bool ended, WError *err)
{
    if (ended) c->ended[task] = true;
    bool all_ended = true;
    for (int t = 0; t < c->ntasks; t++) all_ended = all_ended && c->ended[t];
    WFsUnit *u;
    int nu;
    int64_t low;
    bool ok = wfs_compact_coordinate(c, ckpt, task, &u, &nu, &low, err);
    for (int k = 0; ok && k < nu; k++) ok = wfs_compact_unit(c, &u[k], low, err);
    wfs_compact_units_free(u, nu);
    if (ok && all_ended) wfs_compact_finish(c);
    return ok;
}

void wfs_compact_expired_state(const WFsCompact *c, WStrBuf *out)
{
    for (int i = 0; i < c->nexp; i++) wsb_printf(out, "#expired\t%s\n", c->expired[i].path);
}

void wfs_compact_pending_state(const WFsCompact *c, WStrBuf *out)
{
    for (int i = 0; i < c->nfiles; i++) wsb_printf(out, "#pending\t%s\n", c->files[i].path);
}

void wfs_compact_restore_counter(WFsCompact *c, int counter)
{
    if (counter > c->max_counter) c->max_counter = counter;
}

int wfs_compact_restored_counter(const WFsCompact *c) { return c->max_counter; }

void wfs_compact_restore_file(WFsCompact *c, const char *path)
{
    for (int i = 0; i < c->nrest; i++)
        if (!strcmp(c->rest[i], path)) return;     /* listed by more than one writer's state */
    if (c->nrest == c->cap_rest) {
        c->cap_rest = c->cap_rest ? c->cap_rest * 2 : 8;
        c->rest = wrealloc(c->rest, sizeof(char *) * (size_t)c->cap_rest);
    }
    c->rest[c->nrest++] = wstrdup(path);
}

bool wfs_compact_restore_end(WFsCompact *c, int task, int old_ntasks, WError *err)
{
    if (!c->restored_task) {
        c->old_ntasks = old_ntasks > 0 ? old_ntasks : 1;
        c->restored_task = wcalloc((size_t)c->old_ntasks, sizeof(bool));
    }
    if (task < 0 || task >= c->old_ntasks || old_ntasks != c->old_ntasks)
        return werr_set(err, WEXC_IO, "Invalid filesystem sink compaction state in the checkpoint.");
    if (!c->restored_task[task]) { c->restored_task[task] = true; c->nrestored_tasks++; }
    if (c->nrestored_tasks < c->old_ntasks) return true;
    /* every writer state of the checkpoint replayed: its files are coordinated as they were (a
       file another state listed as a compacted input is gone: its compacted file exists) */
    int k = 0;
    for (int i = 0; i < c->nrest; i++) {
        struct stat st;
        if (stat(c->rest[i], &st) == 0) c->rest[k++] = c->rest[i];
        else free(c->rest[i]);
    }
    c->nrest = k;
    bool ok = c->nrest == 0 || coordinate(c, c->rest, c->nrest, 0, err);
    for (int i = 0; i < c->nrest; i++) free(c->rest[i]);
    c->nrest = 0;
    return ok;
}
