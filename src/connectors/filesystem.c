/*
 * filesystem.c — the 'filesystem' connector: a bounded source over a file or a directory tree and
 * a simple (non-transactional) sink, for the formats 'csv' and 'changelog-csv'.
 *
 * Source: `path` is a file or a directory; directories are walked recursively, entries sorted by
 * name, skipping hidden files/directories (names starting with '.' or '_'), as Flink's file
 * enumerator does. Files are dealt round-robin to the subtasks. Position = file index, byte offset
 * and line of the next row. Sink: `path` is a directory; each subtask writes one part file
 * `part-<uuid>-<subtask>-0`, written as `.part-...inprogress` and renamed when the input ends.
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
    free(s);
}

static WSourceStatus fs_next(WSource *base, WChunk *out, WError *err)
{
    FsSource *s = (FsSource *)base;
    for (;;) {
        if (!s->open) {
            if (s->cur >= s->nfiles) return WSRC_END;
            if (!wcsv_reader_open(s->rd, s->files[s->cur], 0, 1, err)) return WSRC_ERROR;
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

static bool fs_position(WSource *base, char *buf, size_t bufsz)
{
    FsSource *s = (FsSource *)base;
    int64_t off = 0, line = 1;
    if (s->open) wcsv_reader_position(s->rd, &off, &line);
    int n = snprintf(buf, bufsz, "fs:%d:%lld:%lld", s->cur, (long long)off, (long long)line);
    return n > 0 && (size_t)n < bufsz;
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
    if (cur >= s->nfiles) return true;
    if (!wcsv_reader_open(s->rd, s->files[cur], off, line, err)) return false;
    s->open = true;
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
    for (int i = 0; i < tmp.nfiles; i++) {
        if (i % p == spec->subtask) add_file(s, tmp.files[i]);
        free(tmp.files[i]);
    }
    free(tmp.files);
    return &s->base;
}

/* ------------------------------------------------------------------------------------------ */
/* sink                                                                                        */

typedef struct FsSink {
    WSink base;
    WCsvConfig cfg;
    int ncols;
    const WType **types;
    char *dir, *tmp_path, *final_path;
    int fd;
    bool done;
    WStrBuf buf;
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

static bool fs_finish(WSink *base, WError *err)
{
    FsSink *s = (FsSink *)base;
    if (s->done) return true;
    if (s->fd >= 0) {
        if (!flush_buf(s, err)) return false;
        if (close(s->fd) != 0) { s->fd = -1; return werr_set(err, WEXC_IO, "Failed to close '%s': %s", s->tmp_path, strerror(errno)); }
        s->fd = -1;
        if (rename(s->tmp_path, s->final_path) != 0)
            return werr_set(err, WEXC_IO, "Failed to commit '%s': %s", s->final_path, strerror(errno));
    }
    s->done = true;
    return true;
}

static void fs_sink_close(WSink *base)
{
    FsSink *s = (FsSink *)base;
    if (s->fd >= 0) {
        close(s->fd);
        unlink(s->tmp_path);        /* not finished: drop the in-progress file */
    }
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
    s->ncols = spec->ncols;
    s->types = wmalloc(sizeof(WType *) * (size_t)(spec->ncols ? spec->ncols : 1));
    for (int i = 0; i < spec->ncols; i++) s->types[i] = spec->col_types[i];
    s->dir = wstrdup(path);
    s->fd = -1;
    wsb_init(&s->buf);
    char uuid[40];
    make_uuid(uuid);
    size_t l = strlen(path) + 128;
    s->tmp_path = wmalloc(l);
    s->final_path = wmalloc(l);
    snprintf(s->tmp_path, l, "%s/.part-%s-%d-0.inprogress", path, uuid, spec->subtask);
    snprintf(s->final_path, l, "%s/part-%s-%d-0", path, uuid, spec->subtask);
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
