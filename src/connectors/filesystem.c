/*
 * filesystem.c — the 'filesystem' connector: a bounded source over a file or a directory tree and
 * a simple (non-transactional) sink, for the formats 'csv' and 'changelog-csv'.
 *
 * Source: `path` is a file or a directory; directories are walked recursively, entries sorted by
 * name, skipping hidden files/directories (names starting with '.' or '_'), as Flink's file
 * enumerator does. Files are dealt round-robin to the subtasks. Position = file index, byte offset
 * and line of the next row. Sink: `path` is a directory; each subtask writes one part file
 * `part-<uuid>-<subtask>-<n>`, written as `.part-...inprogress` and renamed when the input ends;
 * with checkpointing (exactly-once) a new part file starts at every checkpoint and a closed one
 * is renamed only when the checkpoint that covers it completes (prepare_commit / commit /
 * recover of WSink).
 * Validation follows FileSystemTableFactory: required path/format, unknown options rejected except
 * the format's own "<format>." keys, unknown formats with Flink's message.
 * Depends on csv_reader, types/, common/.
 */
#include "connector.h"
#include "conn_internal.h"
#include "csv_reader.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const FS_REQUIRED[] = {"path", "format", NULL};
static const char *const FS_OPTIONAL[] = {
    "property-version",
    "sink.changelog-mode",          /* weir: the row kinds a changelog-csv sink accepts */
    "partition.default-name",
    "source.monitor-interval",
    "source.report-statistics",
    "source.path.regex-pattern",
    "sink.rolling-policy.file-size",
    "sink.rolling-policy.rollover-interval",
    "sink.rolling-policy.inactivity-interval",
    "sink.rolling-policy.check-interval",
    "sink.shuffle-by-partition.enable",
    "partition.time-extractor.kind",
    "partition.time-extractor.class",
    "partition.time-extractor.timestamp-formatter",
    "partition.time-extractor.timestamp-pattern",
    "sink.partition-commit.trigger",
    "sink.partition-commit.delay",
    "sink.partition-commit.watermark-time-zone",
    "sink.partition-commit.policy.kind",
    "sink.partition-commit.policy.class",
    "sink.partition-commit.policy.class.parameters",
    "sink.partition-commit.success-file.name",
    "auto-compaction",
    "compaction.file-size",
    "sink.parallelism",
    NULL,
};

/* Local path of a Flink path ('file:///x' or 'file:/x' or '/x'). */
static const char *local_path(const char *p)
{
    if (strncmp(p, "file://", 7) == 0) return p + 7;
    if (strncmp(p, "file:", 5) == 0) return p + 5;
    return p;
}

static bool fs_validate(const WTableSpec *spec, bool as_source, WError *err)
{
    const char *format = wopts_get(spec->options, "format");
    char prefix[80];
    snprintf(prefix, sizeof prefix, "%s.", format ? format : "null");
    const char *const prefixes[] = {prefix, NULL};
    if (!wconnector_check_options(spec, "filesystem", FS_REQUIRED, FS_OPTIONAL, prefixes, err)) return false;
    const WConnFormat *f = wconn_format_find(format);
    if (!f)
        return werr_set(err, WEXC_VALIDATION,
                        "Could not find any format factory for identifier '%s' in the classpath.", format);
    WCsvConfig cfg;
    bool ok = wconn_format_config(f, spec->options, &cfg, err);
    wcsv_config_free(&cfg);
    if (!ok) return false;
    if (!wcsv_check_types(spec->ncols, spec->col_names, spec->col_types, err)) return false;
    int64_t ms;
    if (!wopts_get_duration_ms(spec->options, "source.monitor-interval", 0, &ms, err)) return false;
    if (as_source && wopts_get(spec->options, "source.monitor-interval"))
        return werr_set(err, WEXC_UNSUPPORTED,
                        "The filesystem option 'source.monitor-interval' (continuous file monitoring) is not supported by weir yet.");
    return true;
}

static bool fs_is_changelog(const WOptions *options)
{
    const WConnFormat *f = wconn_format_find(wopts_get(options, "format"));
    return f && f->changelog;
}

/* ------------------------------------------------------------------------------------------ */
/* source                                                                                      */

typedef struct FsSource {
    WSource base;
    WCsvReader *rd;
    char **files;
    int nfiles, cap_files;
    int cur;                /* index of the open (or next) file */
    bool open;
    /* restore: where each file starts (offset -1 = already read); NULL = every file at 0 */
    int64_t *start_off, *start_line;
    int *gidx;              /* index of each file among all files of the table (rescaling) */
    int parallelism;
} FsSource;

static void add_file(FsSource *s, const char *path)
{
    if (s->nfiles == s->cap_files) {
        s->cap_files = s->cap_files ? s->cap_files * 2 : 16;
        s->files = wrealloc(s->files, sizeof(char *) * (size_t)s->cap_files);
    }
    s->files[s->nfiles++] = wstrdup(path);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool list_dir(FsSource *s, const char *dir, WError *err)
{
    DIR *d = opendir(dir);
    if (!d) return werr_set(err, WEXC_IO, "Failed to list directory '%s': %s", dir, strerror(errno));
    char **names = NULL;
    int n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || e->d_name[0] == '_') continue;
        if (n == cap) { cap = cap ? cap * 2 : 16; names = wrealloc(names, sizeof(char *) * (size_t)cap); }
        names[n++] = wstrdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_name);
    bool ok = true;
    for (int i = 0; i < n; i++) {
        size_t l = strlen(dir) + strlen(names[i]) + 2;
        char *full = wmalloc(l);
        snprintf(full, l, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]);
        struct stat st;
        if (ok && stat(full, &st) == 0) {
            if (S_ISDIR(st.st_mode)) ok = list_dir(s, full, err);
            else if (S_ISREG(st.st_mode)) add_file(s, full);
        }
        free(full);
        free(names[i]);
    }
    free(names);
    return ok;
}

static void fs_source_close(WSource *base)
{
    FsSource *s = (FsSource *)base;
    wcsv_reader_free(s->rd);
    for (int i = 0; i < s->nfiles; i++) free(s->files[i]);
    free(s->files);
    free(s->start_off);
    free(s->start_line);
    free(s->gidx);
    free(s);
}

static WSourceStatus fs_next(WSource *base, WChunk *out, WError *err)
{
    FsSource *s = (FsSource *)base;
    for (;;) {
        if (!s->open) {
            if (s->cur >= s->nfiles) return WSRC_END;
            int64_t off = s->start_off ? s->start_off[s->cur] : 0;
            int64_t line = s->start_line ? s->start_line[s->cur] : 1;
            if (off < 0) { s->cur++; continue; }       /* read before a restore */
            if (!wcsv_reader_open(s->rd, s->files[s->cur], off, line, err)) return WSRC_ERROR;
            s->open = true;
        }
        int before = out->nrows;
        WCsvStatus st = wcsv_reader_fill(s->rd, out, &base->rows_skipped, err);
        base->rows_read += out->nrows - before;
        if (st == WCSV_ERROR) return WSRC_ERROR;
        if (st == WCSV_MORE) return WSRC_MORE;
        wcsv_reader_close(s->rd);
        s->open = false;
        s->cur++;
        if (out->nrows > 0) return s->cur >= s->nfiles ? WSRC_END : WSRC_MORE;
    }
}

/* Position: "fs:<cur>:<offset>:<line>" (the open or next file of this subtask's list and where
   its next row starts), followed by ";<k>=<offset>:<line>" for later files that do not start at
   their beginning (offset -1: read already; only after a rescaled restore). */
static bool fs_position(WSource *base, char *buf, size_t bufsz)
{
    FsSource *s = (FsSource *)base;
    int64_t off = 0, line = 1;
    if (s->open) wcsv_reader_position(s->rd, &off, &line);
    else if (s->start_off && s->cur < s->nfiles) { off = s->start_off[s->cur]; line = s->start_line[s->cur]; }
    int n = snprintf(buf, bufsz, "fs:%d:%lld:%lld", s->cur, (long long)off, (long long)line);
    if (n <= 0 || (size_t)n >= bufsz) return false;
    for (int k = s->cur + 1; s->start_off && k < s->nfiles; k++) {
        if (s->start_off[k] == 0) continue;
        int m = snprintf(buf + n, bufsz - (size_t)n, ";%d=%lld:%lld", k, (long long)s->start_off[k],
                         (long long)s->start_line[k]);
        if (m <= 0 || (size_t)m >= bufsz - (size_t)n) return false;
        n += m;
    }
    return true;
}

/* Where file k of a position's list starts: offset -1 = read already. */
static bool pos_file_state(const char *pos, int k, int64_t *off, int64_t *line)
{
    int cur;
    long long o, l;
    int used = 0;
    if (sscanf(pos, "fs:%d:%lld:%lld%n", &cur, &o, &l, &used) != 3 || cur < 0) return false;
    if (k < cur) { *off = -1; *line = 1; return true; }
    if (k == cur) { *off = o; *line = l; return true; }
    *off = 0;
    *line = 1;
    for (const char *p = pos + used; *p == ';'; ) {
        int kk, u = 0;
        if (sscanf(p, ";%d=%lld:%lld%n", &kk, &o, &l, &u) != 3 || u == 0) return false;
        if (kk == k) { *off = o; *line = l; }
        p += u;
    }
    return true;
}

static void ensure_starts(FsSource *s)
{
    if (s->start_off) return;
    s->start_off = wcalloc((size_t)(s->nfiles ? s->nfiles : 1), sizeof(int64_t));
    s->start_line = wcalloc((size_t)(s->nfiles ? s->nfiles : 1), sizeof(int64_t));
    for (int i = 0; i < s->nfiles; i++) s->start_line[i] = 1;
}

static bool fs_seek(WSource *base, const char *pos, WError *err)
{
    FsSource *s = (FsSource *)base;
    int cur;
    long long off, line;
    if (sscanf(pos, "fs:%d:%lld:%lld", &cur, &off, &line) != 3 || cur < 0)
        return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid filesystem source position '%s'.", pos);
    wcsv_reader_close(s->rd);
    s->open = false;
    s->cur = cur;
    if (strchr(pos, ';')) {
        ensure_starts(s);
        for (int k = cur + 1; k < s->nfiles; k++)
            if (!pos_file_state(pos, k, &s->start_off[k], &s->start_line[k]))
                return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid filesystem source position '%s'.", pos);
    }
    if (cur >= s->nfiles) return true;
    if (off < 0) { s->cur++; return true; }
    if (!wcsv_reader_open(s->rd, s->files[cur], off, line, err)) return false;
    s->open = true;
    return true;
}

/* Rescaling: file g of the table was file g / n of old subtask g % n (files are dealt
   round-robin); each of this subtask's files starts where its old owner had got to. */
static bool fs_seek_rescaled(WSource *base, const char *const *positions, int n, WError *err)
{
    FsSource *s = (FsSource *)base;
    wcsv_reader_close(s->rd);
    s->open = false;
    s->cur = 0;
    ensure_starts(s);
    for (int k = 0; k < s->nfiles; k++) {
        int g = s->gidx[k];
        const char *pos = n > 0 ? positions[g % n] : NULL;
        s->start_off[k] = 0;
        s->start_line[k] = 1;
        if (pos && !pos_file_state(pos, g / n, &s->start_off[k], &s->start_line[k]))
            return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid filesystem source position '%s'.", pos);
    }
    return true;
}

static WSource *fs_open_source(const WTableSpec *spec, WError *err)
{
    if (!fs_validate(spec, true, err)) return NULL;
    const WConnFormat *f = wconn_format_find(wopts_get(spec->options, "format"));
    WCsvConfig cfg;
    if (!wconn_format_config(f, spec->options, &cfg, err)) { wcsv_config_free(&cfg); return NULL; }
    FsSource *s = wcalloc(1, sizeof *s);
    s->base.next = fs_next;
    s->base.position = fs_position;
    s->base.seek = fs_seek;
    s->base.seek_rescaled = fs_seek_rescaled;
    s->base.close = fs_source_close;
    s->base.bounded = true;
    s->base.emits_changelog = f->changelog;
    s->rd = wcsv_reader_new(&cfg, spec->ncols, spec->col_types, spec->cast);
    wcsv_config_free(&cfg);
    const char *path = local_path(wopts_get(spec->options, "path"));
    struct stat st;
    if (stat(path, &st) != 0) {
        const char *user = getenv("USER");
        werr_set(err, "java.io.FileNotFoundException",
                 "File %s does not exist or the user running Flink ('%s') has insufficient permissions to access it.",
                 path, user ? user : "weir");
        fs_source_close(&s->base);
        return NULL;
    }
    FsSource tmp = {0};
    if (S_ISDIR(st.st_mode)) {
        if (!list_dir(&tmp, path, err)) {
            for (int i = 0; i < tmp.nfiles; i++) free(tmp.files[i]);
            free(tmp.files);
            fs_source_close(&s->base);
            return NULL;
        }
    } else {
        add_file(&tmp, path);
    }
    int p = spec->parallelism > 0 ? spec->parallelism : 1;
    s->parallelism = p;
    s->gidx = wmalloc(sizeof(int) * (size_t)(tmp.nfiles / p + 1));
    for (int i = 0; i < tmp.nfiles; i++) {
        if (i % p == spec->subtask) { s->gidx[s->nfiles] = i; add_file(s, tmp.files[i]); }
        free(tmp.files[i]);
    }
    free(tmp.files);
    return &s->base;
}

/* ------------------------------------------------------------------------------------------ */
/* sink                                                                                        */

typedef struct FsPending {
    char *tmp, *final;
    int64_t ckpt;               /* checkpoint that covers it; 0 = none yet */
} FsPending;

typedef struct FsSink {
    WSink base;
    WCsvConfig cfg;
    int ncols;
    const WType **types;
    char *dir, *tmp_path, *final_path;
    int fd;
    bool done;
    WStrBuf buf;
    char uuid[40];
    int subtask;
    int counter;                /* part files started (the current one's number) */
    int npending, cap_pending;
    FsPending *pending;         /* closed files not yet published (transactional) */
} FsSink;

static void make_uuid(char *out /* >= 37 */)
{
    unsigned char b[16];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40);
        for (int i = 0; i < 16; i++) { x = x * 6364136223846793005ULL + 1442695040888963407ULL; b[i] = (unsigned char)(x >> 56); }
    }
    b[6] = (unsigned char)((b[6] & 0x0F) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3F) | 0x80);
    sprintf(out, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static bool mkdirs(const char *path, WError *err)
{
    char *p = wstrdup(path);
    for (char *c = p + 1; ; c++) {
        if (*c == '/' || *c == 0) {
            char save = *c;
            *c = 0;
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                werr_set(err, WEXC_IO, "Failed to create directory '%s': %s", p, strerror(errno));
                free(p);
                return false;
            }
            *c = save;
            if (!save) break;
        }
    }
    free(p);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return werr_set(err, WEXC_IO, "The filesystem sink path '%s' is not a directory.", path);
    return true;
}

static bool flush_buf(FsSink *s, WError *err)
{
    size_t off = 0;
    while (off < s->buf.len) {
        ssize_t n = write(s->fd, s->buf.buf + off, s->buf.len - off);
        if (n < 0) {
            if (errno == EINTR) continue;
            return werr_set(err, WEXC_IO, "Failed to write '%s': %s", s->tmp_path, strerror(errno));
        }
        off += (size_t)n;
    }
    wsb_clear(&s->buf);
    return true;
}

static bool fs_write(WSink *base, const WChunk *in, WError *err)
{
    FsSink *s = (FsSink *)base;
    if (in->nrows == 0) return true;
    if (s->fd < 0) {
        if (s->done) return werr_set(err, WEXC_TABLE, "The filesystem sink received rows after its input ended.");
        size_t l = strlen(s->dir) + 128;
        snprintf(s->tmp_path, l, "%s/.part-%s-%d-%d.inprogress", s->dir, s->uuid, s->subtask, s->counter);
        snprintf(s->final_path, l, "%s/part-%s-%d-%d", s->dir, s->uuid, s->subtask, s->counter);
        s->fd = open(s->tmp_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (s->fd < 0) return werr_set(err, WEXC_IO, "Failed to create '%s': %s", s->tmp_path, strerror(errno));
    }
    for (int r = 0; r < in->nrows; r++) {
        if (!s->cfg.changelog && in->kinds[r] != WRK_INSERT)
            return werr_set(err, WEXC_TABLE,
                            "The 'csv' format of the filesystem sink only accepts INSERT rows, got %s.",
                            wrowkind_short((WRowKind)in->kinds[r]));
        wcsv_write_row(&s->cfg, s->ncols, s->types, in, r, &s->buf);
    }
    base->rows_written += in->nrows;
    if (s->buf.len >= (1u << 20)) return flush_buf(s, err);
    return true;
}

/* Flush, sync and close the file in progress; transactional sinks keep it pending, others
   publish it at once. */
static bool close_current(FsSink *s, WError *err)
{
    if (s->fd < 0) return true;
    if (!flush_buf(s, err)) return false;
    if (s->base.transactional && fsync(s->fd) != 0) {
        close(s->fd);
        s->fd = -1;
        return werr_set(err, WEXC_IO, "Failed to sync '%s': %s", s->tmp_path, strerror(errno));
    }
    if (close(s->fd) != 0) { s->fd = -1; return werr_set(err, WEXC_IO, "Failed to close '%s': %s", s->tmp_path, strerror(errno)); }
    s->fd = -1;
    s->counter++;
    if (s->base.transactional) {
        if (s->npending == s->cap_pending) {
            s->cap_pending = s->cap_pending ? s->cap_pending * 2 : 4;
            s->pending = wrealloc(s->pending, sizeof(FsPending) * (size_t)s->cap_pending);
        }
        s->pending[s->npending++] = (FsPending){wstrdup(s->tmp_path), wstrdup(s->final_path), 0};
        return true;
    }
    if (rename(s->tmp_path, s->final_path) != 0)
        return werr_set(err, WEXC_IO, "Failed to commit '%s': %s", s->final_path, strerror(errno));
    return true;
}

static bool fs_finish(WSink *base, WError *err)
{
    FsSink *s = (FsSink *)base;
    if (s->done) return true;
    if (!close_current(s, err)) return false;
    s->done = true;
    return true;
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

static bool fs_prepare_commit(WSink *base, int64_t ckpt_id, char **state, WError *err)
{
    FsSink *s = (FsSink *)base;
    *state = NULL;
    if (!close_current(s, err)) return false;
    WStrBuf b;
    wsb_init(&b);
    for (int i = 0; i < s->npending; i++) {
        if (s->pending[i].ckpt == 0) s->pending[i].ckpt = ckpt_id;
        wsb_printf(&b, "%s\t%s\n", s->pending[i].tmp, s->pending[i].final);
    }
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
            if (ok) { free(p->tmp); free(p->final); continue; }
        }
        s->pending[k++] = *p;
    }
    s->npending = k;
    return ok;
}

static bool fs_recover(WSink *base, const char *state, WError *err)
{
    (void)base;
    const char *p = state ? state : "";
    while (*p) {
        const char *tab = strchr(p, '\t'), *nl = strchr(p, '\n');
        if (!tab || !nl || tab > nl)
            return werr_set(err, WEXC_IO, "Invalid filesystem sink state in the checkpoint.");
        char *tmp = strndup(p, (size_t)(tab - p));
        char *final = strndup(tab + 1, (size_t)(nl - tab - 1));
        bool ok = publish(tmp, final, err);
        free(tmp);
        free(final);
        if (!ok) return false;
        p = nl + 1;
    }
    return true;
}

static void fs_sink_close(WSink *base)
{
    FsSink *s = (FsSink *)base;
    if (s->fd >= 0) {
        close(s->fd);
        unlink(s->tmp_path);        /* not finished: drop the in-progress file */
    }
    /* pending files stay: a restore from the checkpoint that covers them publishes them */
    for (int i = 0; i < s->npending; i++) { free(s->pending[i].tmp); free(s->pending[i].final); }
    free(s->pending);
    wcsv_config_free(&s->cfg);
    wsb_free(&s->buf);
    free(s->types);
    free(s->dir);
    free(s->tmp_path);
    free(s->final_path);
    free(s);
}

static WSink *fs_open_sink(const WTableSpec *spec, WError *err)
{
    if (!fs_validate(spec, false, err)) return NULL;
    const WConnFormat *f = wconn_format_find(wopts_get(spec->options, "format"));
    const char *path = local_path(wopts_get(spec->options, "path"));
    if (!mkdirs(path, err)) return NULL;
    FsSink *s = wcalloc(1, sizeof *s);
    if (!wconn_format_config(f, spec->options, &s->cfg, err)) { wcsv_config_free(&s->cfg); free(s); return NULL; }
    s->base.write = fs_write;
    s->base.finish = fs_finish;
    s->base.close = fs_sink_close;
    s->base.prepare_commit = fs_prepare_commit;
    s->base.commit = fs_commit;
    s->base.recover = fs_recover;
    s->ncols = spec->ncols;
    s->types = wmalloc(sizeof(WType *) * (size_t)(spec->ncols ? spec->ncols : 1));
    for (int i = 0; i < spec->ncols; i++) s->types[i] = spec->col_types[i];
    s->dir = wstrdup(path);
    s->fd = -1;
    wsb_init(&s->buf);
    make_uuid(s->uuid);
    s->subtask = spec->subtask;
    size_t l = strlen(path) + 128;
    s->tmp_path = wmalloc(l);
    s->final_path = wmalloc(l);
    snprintf(s->tmp_path, l, "%s/.part-%s-%d-0.inprogress", path, s->uuid, spec->subtask);
    snprintf(s->final_path, l, "%s/part-%s-%d-0", path, s->uuid, spec->subtask);
    return &s->base;
}

const WConnector wconn_filesystem = {
    .name = "filesystem",
    .can_source = true,
    .can_sink = true,
    .validate = fs_validate,
    .open_source = fs_open_source,
    .open_sink = fs_open_sink,
    .source_is_changelog = fs_is_changelog,
};
