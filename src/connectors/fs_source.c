/*
 * fs_source.c — the filesystem source: `path` is a file or a directory; directories are walked
 * recursively, entries sorted by name, skipping hidden files/directories (names starting with '.'
 * or '_'), as Flink's file enumerator does; source.path.regex-pattern keeps the files whose whole
 * path matches. Files are dealt round-robin to the subtasks (monitored, source.monitor-interval:
 * by path hash, the path listed again every interval: an unbounded source). Position = file
 * index, byte offset and line of the next row (monitored: hashes of the paths read); rescaling
 * deals the old subtasks' files anew. Partitioned tables read the keys back from the k=v
 * directory names (unescaped; the default name reads as NULL). Metadata columns
 * (WTableSpec.nmeta) get file.path / file.name / file.size / file.modification-time of each row's
 * file. Rows are read by csv_reader (csv, changelog-csv) or format_json (json, debezium-json).
 * Depends on fs_internal.h, csv_reader.h, format_json.h, common/.
 */
#include "fs_internal.h"
#include "conn_internal.h"
#include "csv_reader.h"
#include "format_json.h"
#include "../common/proc_clock.h"
#include "../common/sort.h"
#include "../common/hash.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct FsSource {
    WSource base;
    WCsvReader *rd;
    WJsonReader *jrd;       /* format 'json': used instead of rd */
    char **files;
    int nfiles, cap_files;
    int cur;                /* index of the open (or next) file */
    bool open;
    /* restore: where each file starts (offset -1 = already read); NULL = every file at 0 */
    int64_t *start_off, *start_line;
    int *gidx;              /* index of each file among all files of the table (rescaling) */
    int parallelism;
    /* partitioned tables: the files hold the other columns; the keys come from the path */
    int npart, nread;
    int *part_cols, *read_cols;     /* output column indexes */
    const WType **part_types;
    const char **part_names;
    char *default_name, *root;    /* root: the table path */
    const WCastCtx *cast;
    WChunk *tmp;                    /* rows as read from the file */
    WArena *pv_arena;               /* the current file's partition values */
    WDatum *pv;
    uint8_t *pv_null;
    int pv_file;                    /* file whose values pv holds (-1 = none) */
    /* source.monitor-interval: unbounded; the path is listed again every interval and files not
       seen before are read (this subtask's: hash of the path modulo the parallelism) */
    int64_t monitor_ms;             /* 0 = bounded */
    int64_t next_scan_ms;
    uint64_t *seen;                 /* hashes of the paths taken */
    int nseen, cap_seen;
    char *list_path;                /* what is listed (file or directory) */
    WArena *re_arena;
    WRegex *re;                     /* source.path.regex-pattern */
    int subtask;
    int64_t (*clock)(void *ctx);
    void *clock_ctx;
    /* metadata columns after the physical ones: which file.* key each is, and the current file's
       size and modification time (of file meta_file) */
    int ncols, nmeta;
    int *meta_kind;                 /* FS_META_* */
    int meta_file;
    int64_t meta_size, meta_mtime_ms;
} FsSource;

enum { FS_META_PATH, FS_META_NAME, FS_META_SIZE, FS_META_MTIME };

/* The file.* metadata of the rows [from, out->nrows) of the open file (Flink's
   FileSystemTableSource.ReadableFileInfo: the path without scheme, its last name, the size and the
   modification time in ms). */
static bool fill_metadata(FsSource *s, WChunk *out, int from, WError *err)
{
    if (!s->nmeta || from >= out->nrows) return true;
    const char *path = s->files[s->cur];
    if (s->meta_file != s->cur) {
        struct stat st;
        if (stat(path, &st) != 0) return werr_set(err, WEXC_IO, "Failed to read the metadata of '%s': %s", path, strerror(errno));
        s->meta_size = (int64_t)st.st_size;
        s->meta_mtime_ms = (int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
        s->meta_file = s->cur;
    }
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    for (int m = 0; m < s->nmeta; m++) {
        WVector *v = &out->cols[s->ncols + m];
        for (int r = from; r < out->nrows; r++) {
            v->nulls[r] = 0;
            switch (s->meta_kind[m]) {
            case FS_META_PATH: v->data[r].s = (WStr){path, (int)strlen(path)}; break;
            case FS_META_NAME: v->data[r].s = (WStr){name, (int)strlen(name)}; break;
            case FS_META_SIZE: v->data[r].i = s->meta_size; break;
            default: v->data[r].ts = (WTimestamp){s->meta_mtime_ms, 0}; break;
            }
        }
    }
    return true;
}

static uint64_t path_hash(const char *p) { return whash_bytes(p, strlen(p), 0x6d6f6e69746f72ULL); }

static bool seen_has(const FsSource *s, uint64_t h)
{
    for (int i = 0; i < s->nseen; i++) if (s->seen[i] == h) return true;
    return false;
}

static void seen_add(FsSource *s, uint64_t h)
{
    if (s->nseen == s->cap_seen) {
        s->cap_seen = s->cap_seen ? s->cap_seen * 2 : 64;
        s->seen = wrealloc(s->seen, sizeof(uint64_t) * (size_t)s->cap_seen);
    }
    s->seen[s->nseen++] = h;
}

static int64_t source_now(const FsSource *s)
{
    if (s->clock) return s->clock(s->clock_ctx);
    return wproc_wall_ms();
}

/* The row reader of the table's format. */
static bool rd_open(FsSource *s, const char *path, int64_t off, int64_t line, WError *err)
{
    return s->jrd ? wjsonfmt_reader_open(s->jrd, path, off, line, err) : wcsv_reader_open(s->rd, path, off, line, err);
}

static void rd_close(FsSource *s)
{
    if (s->jrd) wjsonfmt_reader_close(s->jrd);
    else wcsv_reader_close(s->rd);
}

static WCsvStatus rd_fill(FsSource *s, WChunk *out, WError *err)
{
    if (s->jrd) return (WCsvStatus)wjsonfmt_reader_fill(s->jrd, out, &s->base.rows_skipped, err);
    return wcsv_reader_fill(s->rd, out, &s->base.rows_skipped, err);
}

static void rd_position(const FsSource *s, int64_t *off, int64_t *line)
{
    if (s->jrd) wjsonfmt_reader_position(s->jrd, off, line);
    else wcsv_reader_position(s->rd, off, line);
}

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
    wqsort(names, (size_t)n, sizeof *names, cmp_name);     /* names is NULL for an empty directory */
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
    wjsonfmt_reader_free(s->jrd);
    for (int i = 0; i < s->nfiles; i++) free(s->files[i]);
    free(s->files);
    free(s->start_off);
    free(s->start_line);
    free(s->gidx);
    free(s->part_cols);
    free(s->read_cols);
    free(s->part_types);
    free(s->part_names);
    free(s->default_name);
    free(s->root);
    if (s->tmp) wchunk_free(s->tmp);
    if (s->pv_arena) warena_delete(s->pv_arena);
    free(s->pv);
    free(s->pv_null);
    free(s->seen);
    free(s->meta_kind);
    free(s->list_path);
    if (s->re_arena) warena_delete(s->re_arena);
    free(s);
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Flink's PartitionPathUtils.unescapePathName: %XX (hex) becomes the byte. */
static void unescape_path_name(WStrBuf *out, const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        int h1, h2;
        if (p[i] == '%' && i + 2 < len && (h1 = hexval(p[i + 1])) >= 0 && (h2 = hexval(p[i + 2])) >= 0) {
            wsb_putc(out, (char)(h1 * 16 + h2));
            i += 2;
        } else {
            wsb_putc(out, p[i]);
        }
    }
}

/* The partition values of file s->cur from the k=v directories between the table path and the
   file (the innermost wins); missing keys and the default partition name are NULL. */
static bool part_values(FsSource *s, WError *err)
{
    if (s->pv_file == s->cur) return true;
    warena_reset(s->pv_arena);
    for (int k = 0; k < s->npart; k++) s->pv_null[k] = 1;
    const char *f = s->files[s->cur];
    size_t bl = strlen(s->root);
    const char *rel = strncmp(f, s->root, bl) == 0 ? f + bl : "";
    const char *last = strrchr(rel, '/');
    WStrBuf key, val;
    wsb_init(&key);
    wsb_init(&val);
    bool ok = true;
    for (const char *c = rel; ok && last && c < last; ) {
        while (*c == '/') c++;
        const char *e = strchr(c, '/');
        if (!e || e > last) e = last;
        const char *eq = NULL;
        for (const char *q = c; q < e; q++) if (*q == '=') eq = q;
        if (eq && eq > c && eq + 1 < e) {
            wsb_clear(&key);
            wsb_clear(&val);
            unescape_path_name(&key, c, (size_t)(eq - c));
            unescape_path_name(&val, eq + 1, (size_t)(e - eq - 1));
            for (int k = 0; k < s->npart; k++) {
                if (strcmp(key.buf, s->part_names[k]) != 0) continue;
                if (strcmp(val.buf, s->default_name) == 0) { s->pv_null[k] = 1; break; }
                WCastResult r = wcast_from_text_ex(s->cast, val.buf, (int)val.len, s->part_types[k], &s->pv[k],
                                                   s->pv_arena, err);
                if (r == WCAST_ERROR) ok = false;       /* the cast's message (Flink: a parse exception) */
                s->pv_null[k] = r != WCAST_OK;
                break;
            }
        }
        c = e;
    }
    wsb_free(&key);
    wsb_free(&val);
    if (ok) s->pv_file = s->cur;
    return ok;
}

/* Read rows of the open file into out: straight for unpartitioned tables; through s->tmp with
   the partition values added otherwise. */
static WCsvStatus fill_rows(FsSource *s, WChunk *out, WError *err)
{
    if (!s->npart) return rd_fill(s, out, err);
    if (!part_values(s, err)) return WCSV_ERROR;
    if (!s->tmp) {
        const WType **rt = wmalloc(sizeof(WType *) * (size_t)(s->nread ? s->nread : 1));
        for (int i = 0; i < s->nread; i++) rt[i] = out->types[s->read_cols[i]];
        s->tmp = wchunk_new(s->nread, rt, out->cap - out->nrows > 0 ? out->cap - out->nrows : 1);
        free(rt);
    }
    wchunk_reset(s->tmp);
    WCsvStatus st = rd_fill(s, s->tmp, err);
    if (st == WCSV_ERROR) return st;
    for (int r = 0; r < s->tmp->nrows; r++) {
        int o = wchunk_add_row(out, (WRowKind)s->tmp->kinds[r]);
        if (o < 0) return werr_set(err, WEXC_TABLE, "filesystem source: chunk overflow"), WCSV_ERROR;
        for (int i = 0; i < s->nread; i++) {
            out->cols[s->read_cols[i]].data[o] = s->tmp->cols[i].data[r];
            out->cols[s->read_cols[i]].nulls[o] = s->tmp->cols[i].nulls[r];
        }
        for (int k = 0; k < s->npart; k++) {
            out->cols[s->part_cols[k]].data[o] = s->pv[k];
            out->cols[s->part_cols[k]].nulls[o] = s->pv_null[k];
        }
    }
    return st;
}

/* Monitoring: list the path again and append this subtask's files not seen before (in listing
   order: sorted by name, directories walked recursively). */
static bool fs_scan(FsSource *s, WError *err)
{
    FsSource tmp = {0};
    struct stat st;
    bool ok = true;
    if (stat(s->list_path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) ok = list_dir(&tmp, s->list_path, err);
        else add_file(&tmp, s->list_path);
    }
    for (int i = 0; i < tmp.nfiles; i++) {
        uint64_t h = path_hash(tmp.files[i]);
        if (ok && (int)(h % (uint64_t)s->parallelism) == s->subtask && !seen_has(s, h) && wfs_path_matches(s->re, tmp.files[i])) {
            seen_add(s, h);
            add_file(s, tmp.files[i]);
        }
        free(tmp.files[i]);
    }
    free(tmp.files);
    return ok;
}

/* A file's name for insight (the rows' origin): "file <path>", the path's tail when it is long. */
static void fs_split_label(const WSource *base, int split, char *buf, size_t bufsz)
{
    const FsSource *s = (const FsSource *)base;
    if (split < 0 || split >= s->nfiles || bufsz < 16) {
        snprintf(buf, bufsz, "file %d", split);
        return;
    }
    const char *f = s->files[split];
    size_t n = strlen(f);
    if (n + 5 < bufsz) snprintf(buf, bufsz, "file %s", f);
    else snprintf(buf, bufsz, "file ...%s", f + n - (bufsz - 9));
}

static WSourceStatus fs_next(WSource *base, WChunk *out, WError *err)
{
    FsSource *s = (FsSource *)base;
    for (;;) {
        if (!s->open && s->cur >= s->nfiles && s->monitor_ms > 0) {
            if (out->nrows > 0) return WSRC_MORE;
            int64_t now = source_now(s);
            if (now >= s->next_scan_ms) {
                s->next_scan_ms = now + s->monitor_ms;
                if (!fs_scan(s, err)) return WSRC_ERROR;
                if (s->cur < s->nfiles) continue;
            }
            wsrc_sleep_ns(&s->base, 10000000);
            return WSRC_IDLE;
        }
        if (!s->open) {
            if (s->cur >= s->nfiles) return WSRC_END;
            int64_t off = s->start_off ? s->start_off[s->cur] : 0;
            int64_t line = s->start_line ? s->start_line[s->cur] : 1;
            if (off < 0) { s->cur++; continue; }       /* read before a restore */
            if (!rd_open(s, s->files[s->cur], off, line, err)) return WSRC_ERROR;
            s->open = true;
        }
        int before = out->nrows;
        base->split = s->cur;           /* the chunk's rows come from this file (insight's origin) */
        WCsvStatus st = fill_rows(s, out, err);
        base->rows_read += out->nrows - before;
        if (st == WCSV_ERROR) return WSRC_ERROR;
        if (!fill_metadata(s, out, before, err)) return WSRC_ERROR;
        if (st == WCSV_MORE) return WSRC_MORE;
        rd_close(s);
        s->open = false;
        s->cur++;
        if (out->nrows > 0) return s->cur >= s->nfiles && !s->monitor_ms ? WSRC_END : WSRC_MORE;
    }
}

/* Position of a monitored source: "fsm:<hash of the open file or 0>:<offset>:<line>:<hashes of the
   files read, comma-separated>" (hex); a restore lists the path again, skips the files read and
   resumes the open one. */
static bool fsm_position(FsSource *s, char *buf, size_t bufsz)
{
    int64_t off = 0, line = 1;
    uint64_t cur = 0;
    if (s->open) { rd_position(s, &off, &line); cur = path_hash(s->files[s->cur]); }
    size_t n = (size_t)snprintf(buf, bufsz, "fsm:%llx:%lld:%lld:", (unsigned long long)cur, (long long)off, (long long)line);
    for (int i = 0; i < s->cur && n < bufsz; i++)
        n += (size_t)snprintf(buf + n, bufsz - n, "%s%llx", i ? "," : "", (unsigned long long)path_hash(s->files[i]));
    return n < bufsz;
}

static bool fsm_seek(FsSource *s, const char *pos, WError *err)
{
    unsigned long long cur;
    long long off, line;
    int used = 0;
    if (sscanf(pos, "fsm:%llx:%lld:%lld:%n", &cur, &off, &line, &used) != 3 || used == 0)
        return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid filesystem source position '%s'.", pos);
    rd_close(s);
    s->open = false;
    s->meta_file = -1;
    for (int i = 0; i < s->nfiles; i++) free(s->files[i]);
    s->nfiles = s->cur = 0;
    s->nseen = 0;
    for (const char *p = pos + used; *p; ) {
        char *end;
        unsigned long long h = strtoull(p, &end, 16);
        if (end == p) return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid filesystem source position '%s'.", pos);
        seen_add(s, h);
        p = *end == ',' ? end + 1 : end;
    }
    if (!fs_scan(s, err)) return false;
    s->next_scan_ms = source_now(s) + s->monitor_ms;
    for (int i = 0; cur && i < s->nfiles; i++) {
        if (path_hash(s->files[i]) != cur) continue;
        char *f = s->files[i];
        memmove(&s->files[1], &s->files[0], sizeof(char *) * (size_t)i);
        s->files[0] = f;
        if (!rd_open(s, f, off, line, err)) return false;
        s->open = true;
        break;
    }
    return true;
}

/* Position: "fs:<cur>:<offset>:<line>" (the open or next file of this subtask's list and where
   its next row starts), followed by ";<k>=<offset>:<line>" for later files that do not start at
   their beginning (offset -1: read already; only after a rescaled restore). */
static bool fs_position(WSource *base, char *buf, size_t bufsz)
{
    FsSource *s = (FsSource *)base;
    if (s->monitor_ms) return fsm_position(s, buf, bufsz);
    int64_t off = 0, line = 1;
    if (s->open) rd_position(s, &off, &line);
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
    if (s->monitor_ms) return fsm_seek(s, pos, err);
    int cur;
    long long off, line;
    if (sscanf(pos, "fs:%d:%lld:%lld", &cur, &off, &line) != 3 || cur < 0)
        return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid filesystem source position '%s'.", pos);
    rd_close(s);
    s->open = false;
    s->meta_file = -1;
    s->cur = cur;
    if (strchr(pos, ';')) {
        ensure_starts(s);
        for (int k = cur + 1; k < s->nfiles; k++)
            if (!pos_file_state(pos, k, &s->start_off[k], &s->start_line[k]))
                return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid filesystem source position '%s'.", pos);
    }
    if (cur >= s->nfiles) return true;
    if (off < 0) { s->cur++; return true; }
    if (!rd_open(s, s->files[cur], off, line, err)) return false;
    s->open = true;
    return true;
}

/* Rescaling: file g of the table was file g / n of old subtask g % n (files are dealt
   round-robin); each of this subtask's files starts where its old owner had got to. */
static bool fs_seek_rescaled(WSource *base, const char *const *positions, int n, WError *err)
{
    FsSource *s = (FsSource *)base;
    rd_close(s);
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

static WSource *open_source(const WTableSpec *spec, bool legacy_csv, WError *err);

WSource *wfs_open_source(const WTableSpec *spec, WError *err) { return open_source(spec, false, err); }
WSource *wfs_open_legacy_csv_source(const WTableSpec *spec, WError *err) { return open_source(spec, true, err); }

/* legacy_csv: the CSV rules of Flink's legacy CsvTableSource (WCsvConfig.legacy) */
static WSource *open_source(const WTableSpec *spec, bool legacy_csv, WError *err)
{
    if (!wfs_validate(spec, true, err)) return NULL;
    const WConnFormat *f = wconn_format_find(wopts_get(spec->options, "format"));
    WCsvConfig cfg;
    WJsonFmt jcfg;
    memset(&jcfg, 0, sizeof jcfg);
    if (f->json) {
        wcsv_config_init(&cfg, false);
        if (!wjsonfmt_config(&jcfg, spec->options, f->name, true, err)) { wjsonfmt_config_free(&jcfg); wcsv_config_free(&cfg); return NULL; }
    } else if (!wconn_format_config(f, spec->options, &cfg, err)) { wcsv_config_free(&cfg); return NULL; }
    assert(!legacy_csv || !f->json);
    cfg.legacy = legacy_csv;
    FsSource *s = wcalloc(1, sizeof *s);
    s->base.next = fs_next;
    s->base.position = fs_position;
    s->base.seek = fs_seek;
    s->base.seek_rescaled = fs_seek_rescaled;
    s->base.close = fs_source_close;
    s->base.bounded = true;
    s->base.split_label = fs_split_label;
    s->base.emits_changelog = f->changelog;
    s->base.min_chunk_rows = f->json && f->changelog ? 2 : 1;      /* debezium-json: an update is -U, +U */
    s->ncols = spec->ncols;
    s->nmeta = spec->nmeta;
    s->meta_file = -1;
    s->meta_kind = wcalloc((size_t)(spec->nmeta ? spec->nmeta : 1), sizeof(int));
    for (int m = 0; m < spec->nmeta; m++) {
        const char *k = spec->meta_keys[m];
        s->meta_kind[m] = !strcmp(k, "file.path") ? FS_META_PATH : !strcmp(k, "file.name") ? FS_META_NAME
                          : !strcmp(k, "file.size") ? FS_META_SIZE : FS_META_MTIME;
        assert(!strcmp(k, "file.path") || !strcmp(k, "file.name") || !strcmp(k, "file.size") ||
               !strcmp(k, "file.modification-time"));
    }
    const char *path = wfs_local_path(wopts_get(spec->options, "path"));
    if (spec->npartition > 0) {
        size_t n1 = (size_t)(spec->ncols ? spec->ncols : 1);
        s->read_cols = wmalloc(sizeof(int) * n1);
        s->part_cols = wmalloc(sizeof(int) * n1);
        s->part_types = wmalloc(sizeof(WType *) * n1);
        s->part_names = wmalloc(sizeof(char *) * n1);
        s->pv = wcalloc(n1, sizeof(WDatum));
        s->pv_null = wcalloc(n1, 1);
        const WType **rt = wmalloc(sizeof(WType *) * n1);
        const char **rn = wmalloc(sizeof(char *) * n1);
        for (int i = 0; i < spec->ncols; i++) {
            bool is_part = false;
            for (int k = 0; k < spec->npartition; k++) if (spec->partition[k] == i) is_part = true;
            if (!is_part) { rt[s->nread] = spec->col_types[i]; rn[s->nread] = spec->col_names[i]; s->read_cols[s->nread++] = i; }
        }
        for (int k = 0; k < spec->npartition; k++) {
            s->part_cols[k] = spec->partition[k];
            s->part_types[k] = spec->col_types[spec->partition[k]];
            s->part_names[k] = spec->col_names[spec->partition[k]];
        }
        s->npart = spec->npartition;
        const char *dn = wopts_get(spec->options, "partition.default-name");
        s->default_name = wstrdup(dn && dn[0] ? dn : "__DEFAULT_PARTITION__");
        s->root = wstrdup(path);
        s->cast = spec->cast;
        s->pv_arena = warena_new(0);
        s->pv_file = -1;
        if (f->json) s->jrd = wjsonfmt_reader_new(&jcfg, s->nread, rn, rt);
        else s->rd = wcsv_reader_new(&cfg, s->nread, rt, spec->cast);
        free(rt);
        free(rn);
    } else if (f->json) {
        s->jrd = wjsonfmt_reader_new(&jcfg, spec->ncols, spec->col_names, spec->col_types);
        for (int c = 0; spec->col_read && c < spec->ncols; c++)
            if (!spec->col_read[c]) wjsonfmt_reader_skip_column(s->jrd, c);
        for (int c = 0; spec->col_fields_read && c < spec->ncols; c++)
            if (spec->col_types[c]->id == WT_ROW && spec->col_fields_read[c] != UINT64_MAX)
                wjsonfmt_reader_read_fields(s->jrd, c, spec->col_fields_read[c]);
    } else {
        s->rd = wcsv_reader_new(&cfg, spec->ncols, spec->col_types, spec->cast);
        for (int c = 0; spec->col_read && c < spec->ncols; c++)
            if (!spec->col_read[c]) wcsv_reader_skip_column(s->rd, c);
    }
    wcsv_config_free(&cfg);
    wjsonfmt_config_free(&jcfg);
    struct stat st;
    if (stat(path, &st) != 0) {
        const char *user = getenv("USER");
        werr_set(err, "java.io.FileNotFoundException",
                 "File %s does not exist or the user running Flink ('%s') has insufficient permissions to access it.",
                 path, user ? user : "weir");
        fs_source_close(&s->base);
        return NULL;
    }
    if (!wopts_get_duration_ms(spec->options, "source.monitor-interval", 0, &s->monitor_ms, err)) {
        fs_source_close(&s->base);
        return NULL;
    }
    if (s->monitor_ms > 0) {
        s->base.bounded = false;
        s->base.seek_rescaled = NULL;       /* the files are dealt by path hash, not by index */
        s->parallelism = spec->parallelism > 0 ? spec->parallelism : 1;
        s->subtask = spec->subtask;
        s->clock = spec->clock;
        s->clock_ctx = spec->clock_ctx;
        s->list_path = wstrdup(path);
        s->re_arena = warena_new(0);
        if (!wfs_path_regex(spec->options, s->re_arena, &s->re, err) || !fs_scan(s, err)) {
            fs_source_close(&s->base);
            return NULL;
        }
        s->next_scan_ms = source_now(s) + s->monitor_ms;
        return &s->base;
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
    /* source.path.regex-pattern: only the files whose whole path matches (Flink's file enumerator
       with a regex still walks every directory and keeps the hidden-file rule) */
    WArena *ra = warena_new(0);
    WRegex *re = NULL;
    if (!wfs_path_regex(spec->options, ra, &re, err)) {
        for (int i = 0; i < tmp.nfiles; i++) free(tmp.files[i]);
        free(tmp.files);
        warena_delete(ra);
        fs_source_close(&s->base);
        return NULL;
    }
    int kept = 0;
    for (int i = 0; i < tmp.nfiles; i++) {
        if (wfs_path_matches(re, tmp.files[i])) tmp.files[kept++] = tmp.files[i];
        else free(tmp.files[i]);
    }
    tmp.nfiles = kept;
    warena_delete(ra);
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
