/*
 * filesystem.c — the 'filesystem' connector: a source over a file or a directory tree (bounded, or
 * unbounded with source.monitor-interval) and a sink with Flink's part files, rolling policy and
 * partition commit, for the formats 'csv', 'changelog-csv', 'json' and 'debezium-json' (JSON
 * lines, format_json.h: the same files, positions and commits, another row reader and encoder).
 * The changelog formats (changelog-csv, debezium-json) read and write every row kind; the others
 * only inserts. FS_INVENTORY lists every option with what it does (connector.h).
 *
 * Source: `path` is a file or a directory; directories are walked recursively, entries sorted by
 * name, skipping hidden files/directories (names starting with '.' or '_'), as Flink's file
 * enumerator does; source.path.regex-pattern keeps the files whose whole path matches. Files are
 * dealt round-robin to the subtasks (monitored: by path hash, the path listed again every
 * interval). Position = file index, byte offset and line of the next row (monitored: hashes of the
 * paths read). Metadata columns (WTableSpec.nmeta) get file.path / file.name / file.size /
 * file.modification-time of each row's file.
 * Sink: `path` is a directory; part files part-<uuid>-<subtask>-<n> (batch:
 * part-<uuid>-task-<subtask>-file-<n>) are written hidden (.part-...inprogress[.<uuid>]) and
 * published when a checkpoint covering them completes (prepare_commit / commit / recover of
 * WSink) or, without checkpoints, when the input ends. Streaming files roll as Flink's
 * TableRollingPolicy says (size at the next row, rollover / inactivity at check-interval ticks of
 * the job clock, csv also at every checkpoint); a json file in progress at a checkpoint stays in
 * progress (the state keeps its length). Partition commit (success file, process-time /
 * partition-time triggers) is fs_partition_commit.c.
 * Partitioned tables (PARTITIONED BY, WTableSpec.partition), as Flink's FileSystemTableSink:
 * each row goes to <path>/k1=v1/k2=v2/ (values as CAST(.. AS STRING), NULL and '' as
 * 'partition.default-name', names and values escaped as PartitionPathUtils.escapePathName does),
 * every partition directory with its own part file in progress, rolled and committed like the
 * unpartitioned one; the files hold the other columns only. The source reads the keys back from
 * the k=v directory names (the default name reads as NULL).
 * Validation follows FileSystemTableFactory: required path/format, unknown options rejected except
 * the format's own "<format>." keys, unknown formats with Flink's message, unimplemented options
 * refused by name.
 * Depends on csv_reader, types/, common/.
 */
#include "connector.h"
#include "../common/proc_clock.h"
#include "../common/sort.h"
#include "conn_internal.h"
#include "csv_reader.h"
#include "format_json.h"
#include "../types/format.h"
#include "../expr/regex.h"
#include "fs_partition_commit.h"
#include "fs_compact.h"
#include "../common/hash.h"

#include <assert.h>
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

/* Every option FileSystemTableFactory accepts (and weir's sink.changelog-mode), with what it does
   here; FS_REQUIRED / FS_OPTIONAL for the validation are made from it. */
static const WConnOption FS_INVENTORY[] = {
    {"path", WOPT_APPLIED, NULL, "the file or directory read or written"},
    {"format", WOPT_APPLIED, NULL, "the format of the files"},
    {"property-version", WOPT_NO_EFFECT_IN_FLINK, NULL, "a legacy version number Flink accepts and ignores"},
    {"sink.changelog-mode", WOPT_APPLIED, NULL, "weir: the row kinds a changelog format's sink accepts (planner)"},
    {"partition.default-name", WOPT_APPLIED, NULL, "the directory name of a NULL or empty partition value"},
    {"source.monitor-interval", WOPT_APPLIED, NULL, "an unbounded source listing the path again every interval for new files"},
    {"source.report-statistics", WOPT_NO_EFFECT_IN_FLINK, NULL,
     "statistics for Flink's batch cost-based optimizer only; weir's plans use no statistics"},
    {"source.path.regex-pattern", WOPT_APPLIED, NULL, "only the files whose whole path matches are read"},
    {"sink.rolling-policy.file-size", WOPT_APPLIED, NULL, "streaming: a part file larger than this rolls at the next row (and at a checkpoint)"},
    {"sink.rolling-policy.rollover-interval", WOPT_APPLIED, NULL, "streaming: a part file this old rolls at the next check"},
    {"sink.rolling-policy.inactivity-interval", WOPT_APPLIED, NULL, "streaming: a part file idle this long rolls at the next check"},
    {"sink.rolling-policy.check-interval", WOPT_APPLIED, NULL, "how often the rolling times are checked"},
    {"sink.shuffle-by-partition.enable", WOPT_APPLIED, NULL, "a hash exchange on the dynamic partition columns before the sink (plan/sink_rules.c)"},
    {"partition.time-extractor.kind", WOPT_APPLIED, NULL, "default (custom needs a Java class: refused)"},
    {"partition.time-extractor.class", WOPT_REFUSED, NULL, "a Java PartitionTimeExtractor class"},
    {"partition.time-extractor.timestamp-formatter", WOPT_APPLIED, NULL, "the pattern the partition time is parsed with"},
    {"partition.time-extractor.timestamp-pattern", WOPT_APPLIED, NULL, "the partition time from the key values ($key)"},
    {"sink.partition-commit.trigger", WOPT_APPLIED, NULL, "process-time or partition-time (watermark) commits"},
    {"sink.partition-commit.delay", WOPT_APPLIED, NULL, "how long after its creation / its time a partition commits"},
    {"sink.partition-commit.watermark-time-zone", WOPT_APPLIED, NULL, "the zone the partition time is read in"},
    {"sink.partition-commit.policy.kind", WOPT_APPLIED, NULL, "success-file (metastore: refused as Flink does; custom: refused)"},
    {"sink.partition-commit.policy.class", WOPT_REFUSED, NULL, "a Java PartitionCommitPolicy class"},
    {"sink.partition-commit.policy.class.parameters", WOPT_REFUSED, NULL, "parameters of a Java PartitionCommitPolicy class"},
    {"sink.partition-commit.success-file.name", WOPT_APPLIED, NULL, "the success file's name"},
    {"auto-compaction", WOPT_APPLIED, "false", "streaming: the files of each checkpoint compacted (fs_compact.c); batch: no effect, as in Flink 2.3"},
    {"compaction.file-size", WOPT_APPLIED, NULL, "the size compacted files reach (default: sink.rolling-policy.file-size)"},
    {"sink.parallelism", WOPT_APPLIED, NULL, "the sink's parallelism (runtime/vertices.c)"},
    {NULL, 0, NULL, NULL},
};
#define FS_NOPTIONS (sizeof FS_INVENTORY / sizeof FS_INVENTORY[0])
static const char *const FS_REQUIRED[] = {"path", "format", NULL};

/* The optional keys: every inventory key but the required ones. */
static void fs_optional_keys(const char **out /* FS_NOPTIONS */)
{
    int n = 0;
    for (size_t i = 0; FS_INVENTORY[i].key; i++)
        if (strcmp(FS_INVENTORY[i].key, "path") != 0 && strcmp(FS_INVENTORY[i].key, "format") != 0)
            out[n++] = FS_INVENTORY[i].key;
    out[n] = NULL;
}

/* 'source.path.regex-pattern' compiled in arena a (Java's PatternSyntaxException on a bad
   pattern); *re = NULL when the option is absent. */
static bool path_regex(const WOptions *o, WArena *a, WRegex **re, WError *err)
{
    *re = NULL;
    const char *rx = wopts_get(o, "source.path.regex-pattern");
    if (!rx) return true;
    char *msg = NULL;
    *re = wre_compile(a, rx, (int)strlen(rx), &msg);
    if (!*re) return werr_set(err, "java.util.regex.PatternSyntaxException", "%s", msg ? msg : rx);
    return true;
}

/* Does the file's path (as Flink's Path.getPath(): no scheme) match the whole pattern? */
static bool path_matches(const WRegex *re, const char *file)
{
    if (!re) return true;
    int caps[2 * 32];
    int ng = wre_ngroups(re);
    int *c = ng < 31 ? caps : wmalloc(sizeof(int) * 2 * (size_t)(ng + 1));
    bool m = wre_exec(re, file, (int)strlen(file), 0, true, true, c);
    if (c != caps) free(c);
    return m;
}

/* The rolling policy's options (Flink's defaults: 128MB, 30 min, 30 min, 1 min). */
/* check_positive: a sink's (a source parses them only, as Flink's factory reads every option) */
static bool rolling_options(const WOptions *o, bool check_positive, int64_t *size, int64_t *rollover,
                            int64_t *inactivity, int64_t *check, WError *err)
{
    if (!wopts_get_bytes(o, "sink.rolling-policy.file-size", 128LL << 20, size, err)) return false;
    if (!wopts_get_duration_ms(o, "sink.rolling-policy.rollover-interval", 30 * 60000, rollover, err)) return false;
    if (!wopts_get_duration_ms(o, "sink.rolling-policy.inactivity-interval", 30 * 60000, inactivity, err)) return false;
    if (!wopts_get_duration_ms(o, "sink.rolling-policy.check-interval", 60000, check, err)) return false;
    if (!check_positive) return true;
    if (*size <= 0 || *rollover <= 0 || *inactivity <= 0 || *check <= 0)
        return werr_set(err, WEXC_ILLEGAL_ARG, "The rolling policy's file size and intervals must be positive.");
    return true;
}

/* 'auto-compaction' and 'compaction.file-size' (default: the rolling file size), as Flink's
   FileSystemTableSink reads them. */
static bool compaction_options(const WOptions *o, int64_t roll_size, bool *on, int64_t *target, WError *err)
{
    if (!wopts_get_bool(o, "auto-compaction", false, on, err)) return false;
    if (!wopts_get_bytes(o, "compaction.file-size", roll_size, target, err)) return false;
    if (*target <= 0) return werr_set(err, WEXC_ILLEGAL_ARG, "The compaction file size must be positive.");
    return true;
}

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
    const char *optional[FS_NOPTIONS];
    fs_optional_keys(optional);
    if (!wconnector_check_options(spec, "filesystem", FS_REQUIRED, optional, prefixes, err)) return false;
    const WConnFormat *f = wconn_format_find(format);
    if (!f)
        return werr_set(err, WEXC_VALIDATION,
                        "Could not find any format factory for identifier '%s' in the classpath.", format);
    if (!wconn_refuse_unimplemented(f->options, f->name, "format", prefix, spec->options, err)) return false;
    if (f->json) {
        WJsonFmt jc;
        bool ok = wjsonfmt_config(&jc, spec->options, f->name, as_source, err);
        wjsonfmt_config_free(&jc);
        if (!ok || !wjsonfmt_check_types(spec->ncols, spec->col_names, spec->col_types, err)) return false;
    } else {
        WCsvConfig cfg;
        bool ok = wconn_format_config(f, spec->options, &cfg, err);
        wcsv_config_free(&cfg);
        if (!ok) return false;
        if (!wcsv_check_types(spec->ncols, spec->col_names, spec->col_types, err)) return false;
    }
    if (!as_source && spec->overwrite && !spec->bounded)
        return werr_set(err, "java.lang.IllegalStateException", "Streaming mode not support overwrite.");
    {
        WFsCommitConfig cc;
        int64_t a1, a2, a3, a4;
        bool ok = wfs_commit_config(&cc, spec->options, err);
        wfs_commit_config_free(&cc);
        if (!ok) return false;
        /* a source too: Flink's factory reads every option it declares (measured: a bad
           'sink.rolling-policy.file-size' fails a query of the table) */
        if (!rolling_options(spec->options, !as_source, &a1, &a2, &a3, &a4, err)) return false;
        bool on;
        if (!compaction_options(spec->options, a1, &on, &a2, err)) return false;
    }
    if (as_source && spec->bounded && wopts_get(spec->options, "source.monitor-interval"))
        return werr_set(err, WEXC_VALIDATION,
                        "Querying an unbounded table '%s' in batch mode is not allowed. The table source is unbounded.",
                        spec->name);
    if (as_source) {
        int64_t ms;
        if (!wopts_get_duration_ms(spec->options, "source.monitor-interval", 0, &ms, err)) return false;
        WArena *a = warena_new(0);
        WRegex *re;
        bool ok = path_regex(spec->options, a, &re, err);
        warena_delete(a);
        if (!ok) return false;
    }
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
        if (ok && (int)(h % (uint64_t)s->parallelism) == s->subtask && !seen_has(s, h) && path_matches(s->re, tmp.files[i])) {
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

static WSource *fs_open_source(const WTableSpec *spec, WError *err)
{
    if (!fs_validate(spec, true, err)) return NULL;
    const WConnFormat *f = wconn_format_find(wopts_get(spec->options, "format"));
    WCsvConfig cfg;
    WJsonFmt jcfg;
    memset(&jcfg, 0, sizeof jcfg);
    if (f->json) {
        wcsv_config_init(&cfg, false);
        if (!wjsonfmt_config(&jcfg, spec->options, f->name, true, err)) { wjsonfmt_config_free(&jcfg); wcsv_config_free(&cfg); return NULL; }
    } else if (!wconn_format_config(f, spec->options, &cfg, err)) { wcsv_config_free(&cfg); return NULL; }
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
    const char *path = local_path(wopts_get(spec->options, "path"));
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
        if (!path_regex(spec->options, s->re_arena, &s->re, err) || !fs_scan(s, err)) {
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
    if (!path_regex(spec->options, ra, &re, err)) {
        for (int i = 0; i < tmp.nfiles; i++) free(tmp.files[i]);
        free(tmp.files);
        warena_delete(ra);
        fs_source_close(&s->base);
        return NULL;
    }
    int kept = 0;
    for (int i = 0; i < tmp.nfiles; i++) {
        if (path_matches(re, tmp.files[i])) tmp.files[kept++] = tmp.files[i];
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

/* ------------------------------------------------------------------------------------------ */
/* sink                                                                                        */

typedef struct FsPending {
    char *tmp, *final;
    int64_t ckpt;               /* checkpoint that covers it; 0 = none yet */
} FsPending;

/* One partition directory (the table directory itself when the table is not partitioned) and
   its part file in progress. */
typedef struct FsBucket {
    char *rel;                  /* "dt=2024-01-01/hm=10%3A00" ("" = not partitioned) */
    char *dir;                  /* full directory */
    char *tmp_path, *final_path;
    int fd;                     /* -1 = no file in progress */
    WStrBuf buf;
    uint64_t used;              /* last write (tick), to close the least recently used */
    int64_t bytes;              /* the part file's size (written + buffered) */
    /* csv: the size Flink's CsvBulkWriter reports (bulk_size_add): rows pass through Jackson's
       4000-char buffer and the 8192-byte buffer of an OutputStreamWriter before the file sees them */
    int64_t bulk_chars, bulk_writer, bulk_flushed;
    int64_t created_ms, last_ms;    /* processing time the part file started / was last written */
} FsBucket;

/* Part files kept open at once; beyond that the least recently used one is rolled. */
#define FS_MAX_OPEN 64

typedef struct FsSink {
    WSink base;
    WCsvConfig cfg;
    bool json;                  /* json formats: rows written by wjsonfmt_write_row */
    bool changelog;             /* the format writes every row kind (else only inserts) */
    WJsonFmt jcfg;
    const char **names;         /* names of the written columns (json) */
    const char *format;
    int ncols;                  /* columns written to the files (all but the partition keys) */
    const WType **types;
    int *write_cols;            /* their indexes in the input */
    WVector *view;              /* scratch: the written columns of the current chunk */
    int npart;                  /* partition keys: input index, type, name */
    int *part_cols;
    const WType **part_types;
    char **part_names;
    char *default_name;         /* 'partition.default-name' */
    const WTimeZone *tz;
    char *dir;
    bool done;
    char uuid[40];
    int subtask;
    int counter;                /* part files started by this subtask */
    int nbuckets, cap_buckets, last, nopen;
    FsBucket *buckets;
    uint64_t tick;
    WStrBuf key;                /* scratch: a row's partition path */
    int npending, cap_pending;
    FsPending *pending;         /* closed files not yet published (transactional) */
    bool overwrite;             /* INSERT OVERWRITE: replace the data the job's output replaces */
    bool batch;                 /* a bounded (batch) job: Flink's FileSystemOutputFormat, no rolling */
    /* rolling policy (streaming), as Flink's TableRollingPolicy */
    int64_t roll_size;          /* sink.rolling-policy.file-size: roll when a file is larger */
    int64_t rollover_ms, inactivity_ms, check_ms;
    bool roll_on_checkpoint;    /* csv is a bulk format in Flink: its files roll at every checkpoint;
                                   json formats (Flink's row encoders) keep them in progress */
    int64_t next_check_ms;      /* the next processing-time check of the rolling times */
    int64_t (*clock)(void *ctx);
    void *clock_ctx;
    /* partition commit */
    WFsCommitConfig commit;
    WFsCommitTracker *tracker;
    int64_t wm;                 /* the input's watermark */
    /* auto-compaction (streaming): files are published as .uncompacted-part-... for the shared
       compactor, which merges each checkpoint's files (fs_compact.h) */
    bool compact;
    int64_t compact_target;
    int base_ntasks;            /* the sink's parallelism */
    bool counter_synced;        /* counter past the restored writers' part counters */
    WSinkShared *shared;        /* the subtasks' shared state (own_shared: made here, no runtime) */
    bool own_shared;
    WFsCompact *compactor;
} FsSink;

static int64_t sink_now(const FsSink *s)
{
    if (s->clock) return s->clock(s->clock_ctx);
    return wproc_wall_ms();
}

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

/* Hive's path escaping as Flink's PartitionPathUtils.escapePathName does it: control characters
   and  " # % ' * / : = ? \ DEL { [ ] ^  become %XX (upper-case hex); other bytes stay. */
static void escape_path_name(WStrBuf *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7F || (c < 0x80 && strchr("\"#%'*/:=?\\{[]^", c)))
            wsb_printf(out, "%%%02X", c);
        else
            wsb_putc(out, (char)c);
    }
}

static bool flush_bucket(FsBucket *b, WError *err)
{
    size_t off = 0;
    while (off < b->buf.len) {
        ssize_t n = write(b->fd, b->buf.buf + off, b->buf.len - off);
        if (n < 0) {
            if (errno == EINTR) continue;
            return werr_set(err, WEXC_IO, "Failed to write '%s': %s", b->tmp_path, strerror(errno));
        }
        off += (size_t)n;
    }
    wsb_clear(&b->buf);
    return true;
}

/* Flush, sync and close a bucket's file in progress: it is pending until a checkpoint covering it
   completes (transactional) or the input ends (as Flink, a streaming job without checkpoints
   publishes nothing before its end). */
static bool close_bucket(FsSink *s, FsBucket *b, WError *err)
{
    if (b->fd < 0) return true;
    s->nopen--;
    if (!flush_bucket(b, err)) { close(b->fd); b->fd = -1; return false; }
    if (s->base.transactional && fsync(b->fd) != 0) {
        close(b->fd);
        b->fd = -1;
        return werr_set(err, WEXC_IO, "Failed to sync '%s': %s", b->tmp_path, strerror(errno));
    }
    if (close(b->fd) != 0) { b->fd = -1; return werr_set(err, WEXC_IO, "Failed to close '%s': %s", b->tmp_path, strerror(errno)); }
    b->fd = -1;
    if (s->npending == s->cap_pending) {
        s->cap_pending = s->cap_pending ? s->cap_pending * 2 : 4;
        s->pending = wrealloc(s->pending, sizeof(FsPending) * (size_t)s->cap_pending);
    }
    s->pending[s->npending++] = (FsPending){wstrdup(b->tmp_path), wstrdup(b->final_path), 0};
    return true;
}

static bool close_all(FsSink *s, WError *err)
{
    for (int i = 0; i < s->nbuckets; i++)
        if (!close_bucket(s, &s->buckets[i], err)) return false;
    return true;
}

/* The bucket of partition path rel (created on first use). */
static FsBucket *find_bucket(FsSink *s, const char *rel)
{
    if (s->last >= 0 && s->last < s->nbuckets && strcmp(s->buckets[s->last].rel, rel) == 0)
        return &s->buckets[s->last];
    for (int i = 0; i < s->nbuckets; i++)
        if (strcmp(s->buckets[i].rel, rel) == 0) { s->last = i; return &s->buckets[i]; }
    if (s->nbuckets == s->cap_buckets) {
        s->cap_buckets = s->cap_buckets ? s->cap_buckets * 2 : 4;
        s->buckets = wrealloc(s->buckets, sizeof(FsBucket) * (size_t)s->cap_buckets);
    }
    FsBucket *b = &s->buckets[s->nbuckets];
    memset(b, 0, sizeof *b);
    b->rel = wstrdup(rel);
    size_t l = strlen(s->dir) + strlen(rel) + 2;
    b->dir = wmalloc(l);
    snprintf(b->dir, l, "%s%s%s", s->dir, rel[0] ? "/" : "", rel);
    l = strlen(b->dir) + 128;
    b->tmp_path = wmalloc(l);
    b->final_path = wmalloc(l);
    b->tmp_path[0] = b->final_path[0] = 0;
    b->fd = -1;
    wsb_init(&b->buf);
    s->last = s->nbuckets++;
    return b;
}

/* Start a part file in bucket b (its directory is created on first use). */
static bool open_bucket(FsSink *s, FsBucket *b, WError *err)
{
    if (s->nopen >= FS_MAX_OPEN) {
        FsBucket *lru = NULL;
        for (int i = 0; i < s->nbuckets; i++)
            if (s->buckets[i].fd >= 0 && (!lru || s->buckets[i].used < lru->used)) lru = &s->buckets[i];
        if (lru && !close_bucket(s, lru, err)) return false;
    }
    if (b->rel[0] && !mkdirs(b->dir, err)) return false;
    if (s->compactor && !s->counter_synced) {
        /* after a restore: numbered after the restored writers' files (every recover ran by now) */
        pthread_mutex_lock(&s->shared->mu);
        int c = wfs_compact_restored_counter(s->compactor);
        pthread_mutex_unlock(&s->shared->mu);
        if (c > s->counter) s->counter = c;
        s->counter_synced = true;
    }
    size_t l = strlen(b->dir) + 128;
    if (s->batch) {
        /* FileSystemOutputFormat's names (written hidden here instead of in a staging folder) */
        snprintf(b->tmp_path, l, "%s/.part-%s-task-%d-file-%d.inprogress", b->dir, s->uuid, s->subtask, s->counter);
        snprintf(b->final_path, l, "%s/part-%s-task-%d-file-%d", b->dir, s->uuid, s->subtask, s->counter);
    } else {
        /* the streaming file sink's: .part-<uuid>-<subtask>-<n>.inprogress.<uuid> until committed */
        char tag[40];
        make_uuid(tag);
        /* compaction: the part prefix becomes .uncompacted-part-<uuid> (CompactOperator) */
        const char *pre = s->compact ? WFS_UNCOMPACTED_PREFIX : "";
        snprintf(b->tmp_path, l, "%s/.%spart-%s-%d-%d.inprogress.%s", b->dir, pre, s->uuid, s->subtask, s->counter, tag);
        snprintf(b->final_path, l, "%s/%spart-%s-%d-%d", b->dir, pre, s->uuid, s->subtask, s->counter);
    }
    b->fd = open(b->tmp_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (b->fd < 0) return werr_set(err, WEXC_IO, "Failed to create '%s': %s", b->tmp_path, strerror(errno));
    s->counter++;
    s->nopen++;
    b->bytes = b->bulk_chars = b->bulk_writer = b->bulk_flushed = 0;
    b->created_ms = b->last_ms = sink_now(s);
    return true;
}

/* A row of len bytes written to a csv part file: what Flink's CsvBulkWriter has passed to the file
   by then (the size its rolling policy sees; recorded from Flink 2.3: with a 1kb file size its
   csv part files end at the row that makes the first 8192 bytes reach the file). */
static void bulk_size_add(FsBucket *b, int64_t len)
{
    if (b->bulk_chars + len >= 4000) {
        b->bulk_writer += b->bulk_chars;
        b->bulk_chars = 0;
        while (b->bulk_writer > 8192) { b->bulk_flushed += 8192; b->bulk_writer -= 8192; }
    }
    b->bulk_chars += len;
}

/* The size the rolling policy compares with the file size. */
static int64_t roll_bytes(const FsSink *s, const FsBucket *b)
{
    return s->roll_on_checkpoint ? b->bulk_flushed : b->bytes;
}

/* The processing-time check of the rolling policy (Flink's timer every check-interval from the
   start): at each tick passed, files older than rollover-interval or idle for
   inactivity-interval are rolled, as of the tick's time. */
static bool check_rolling_times(FsSink *s, WError *err)
{
    if (s->batch) return true;
    int64_t now = sink_now(s);
    if (now < s->next_check_ms) return true;
    int64_t tick = s->next_check_ms + (now - s->next_check_ms) / s->check_ms * s->check_ms;
    s->next_check_ms = tick + s->check_ms;
    for (int i = 0; i < s->nbuckets; i++) {
        FsBucket *b = &s->buckets[i];
        if (b->fd >= 0 && (tick - b->created_ms >= s->rollover_ms || tick - b->last_ms >= s->inactivity_ms) &&
            !close_bucket(s, b, err))
            return false;
    }
    return true;
}

/* The partition path of row r: k1=v1/k2=v2, NULL and empty values as the default name. */
static void partition_path(FsSink *s, const WChunk *in, int r, WStrBuf *out)
{
    wsb_clear(out);
    WStrBuf v;
    wsb_init(&v);
    for (int k = 0; k < s->npart; k++) {
        const WVector *col = &in->cols[s->part_cols[k]];
        wsb_clear(&v);
        if (!col->nulls[r]) wfmt_sql(s->part_types[k], col->data[r], false, s->tz, &v);
        if (k) wsb_putc(out, '/');
        escape_path_name(out, s->part_names[k], strlen(s->part_names[k]));
        wsb_putc(out, '=');
        if (v.len == 0) escape_path_name(out, s->default_name, strlen(s->default_name));
        else escape_path_name(out, v.buf, v.len);
    }
    wsb_free(&v);
}

static bool fs_write(WSink *base, const WChunk *in, WError *err)
{
    FsSink *s = (FsSink *)base;
    if (in->nrows == 0) return true;
    if (s->done) return werr_set(err, WEXC_TABLE, "The filesystem sink received rows after its input ended.");
    WChunk view = *in;          /* the written columns only */
    view.ncols = s->ncols;
    view.cols = s->view;
    for (int i = 0; i < s->ncols; i++) s->view[i] = in->cols[s->write_cols[i]];
    /* the rolling policy's timer ticks that passed before these rows arrived */
    if (!check_rolling_times(s, err)) return false;
    const uint64_t tick0 = s->tick;
    for (int r = 0; r < in->nrows; r++) {
        /* the planner gives an insert-only sink insert-only streams; +U still arrives from a
           Top-1 Flink 2.3 declares insert-only (src/plan/physical.c, WR_RANK), and Flink's
           encoders write it as a row, as here. -U/-D would be a planning error. */
        if (!s->changelog && in->kinds[r] != WRK_INSERT && in->kinds[r] != WRK_UPDATE_AFTER)
            return werr_set(err, WEXC_TABLE,
                            "The '%s' format of the filesystem sink only accepts INSERT rows, got %s.",
                            s->format, wrowkind_short((WRowKind)in->kinds[r]));
        if (s->npart) partition_path(s, in, r, &s->key);
        FsBucket *b = find_bucket(s, s->npart ? s->key.buf : "");
        /* rolled on the next row once larger than the file size (streaming only) */
        if (b->fd >= 0 && !s->batch && roll_bytes(s, b) > s->roll_size && !close_bucket(s, b, err)) return false;
        if (b->fd < 0 && !open_bucket(s, b, err)) return false;
        if (s->tracker) wfs_commit_touch(s->tracker, b->rel, b->dir);
        b->used = ++s->tick;
        size_t before = b->buf.len;
        if (s->json) {
            if (!wjsonfmt_write_row(&s->jcfg, s->ncols, s->names, s->types, &view, r, &b->buf, err)) return false;
        } else {
            wcsv_write_row(&s->cfg, s->ncols, s->types, &view, r, &b->buf);
        }
        b->bytes += (int64_t)(b->buf.len - before);
        if (s->roll_on_checkpoint) bulk_size_add(b, (int64_t)(b->buf.len - before));
        if (b->buf.len >= (1u << 20) && !flush_bucket(b, err)) return false;
    }
    int64_t now = sink_now(s);
    for (int i = 0; i < s->nbuckets; i++) if (s->buckets[i].fd >= 0 && s->buckets[i].used > tick0) s->buckets[i].last_ms = now;
    base->rows_written += in->nrows;
    return true;
}

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
        pthread_mutex_lock(&s->shared->mu);
        for (int i = 0; i < nfiles; i++) wfs_compact_add_file(s->compactor, INT64_MAX, files[i]);
        bool ok = wfs_compact_end_checkpoint(s->compactor, INT64_MAX, s->subtask, true, err);
        pthread_mutex_unlock(&s->shared->mu);
        for (int i = 0; i < nfiles; i++) free(files[i]);
        free(files);
        if (!ok) return false;
    }
    if (s->batch && s->commit.enabled) {
        /* FileSystemOutputFormat commits every partition written (the table folder when not
           partitioned) */
        if (!s->npart && s->nbuckets && !wfs_commit_partition_dir(&s->commit, s->dir, err)) return false;
        for (int i = 0; s->npart && i < s->nbuckets; i++)
            if (!wfs_commit_partition_dir(&s->commit, s->buckets[i].dir, err)) return false;
        return true;
    }
    return !s->tracker || wfs_commit_ready(s->tracker, INT64_MAX, true, sink_now(s), err);
}

static bool fs_finish(WSink *base, WError *err)
{
    FsSink *s = (FsSink *)base;
    if (s->done) return true;
    if (!close_all(s, err)) return false;
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
    if (!check_rolling_times(s, err)) return false;
    for (int i = 0; i < s->nbuckets; i++) {
        FsBucket *b = &s->buckets[i];
        if (b->fd < 0) continue;
        if (s->roll_on_checkpoint || s->compact || s->done || roll_bytes(s, b) > s->roll_size) {
            if (!close_bucket(s, b, err)) return false;
        } else if (!flush_bucket(b, err)) {
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
        pthread_mutex_unlock(&s->shared->mu);
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
    if (s->tracker) wfs_commit_checkpoint(s->tracker, ckpt_id, s->wm, sink_now(s));
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
            if (ok && s->compactor) {
                pthread_mutex_lock(&s->shared->mu);
                wfs_compact_add_file(s->compactor, p->ckpt, p->final);
                pthread_mutex_unlock(&s->shared->mu);
            }
            if (ok) { free(p->tmp); free(p->final); continue; }
        }
        s->pending[k++] = *p;
    }
    s->npending = k;
    /* the compactor hears that this writer committed up to ckpt_id (Flink's EndCheckpoint) */
    if (ok && s->compactor) {
        pthread_mutex_lock(&s->shared->mu);
        ok = wfs_compact_end_checkpoint(s->compactor, ckpt_id, s->subtask, s->done && s->npending == 0, err);
        pthread_mutex_unlock(&s->shared->mu);
    }
    /* the partitions whose files this checkpoint committed, as the trigger lets them through; all
       of them once the input ended */
    if (ok && s->tracker) ok = wfs_commit_ready(s->tracker, ckpt_id, s->done && s->npending == 0, sink_now(s), err);
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

static WSink *fs_open_sink(const WTableSpec *spec, WError *err)
{
    if (!fs_validate(spec, false, err)) return NULL;
    const WConnFormat *f = wconn_format_find(wopts_get(spec->options, "format"));
    const char *path = local_path(wopts_get(spec->options, "path"));
    if (!mkdirs(path, err)) return NULL;
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
    s->base.write = fs_write;
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
    else make_uuid(s->uuid);
    s->overwrite = spec->overwrite;
    s->subtask = spec->subtask;
    s->batch = spec->bounded;
    s->base.watermark = fs_sink_watermark;
    s->wm = INT64_MIN;
    s->clock = spec->clock;
    s->clock_ctx = spec->clock_ctx;
    s->roll_on_checkpoint = !f->json;
    if (!rolling_options(spec->options, true, &s->roll_size, &s->rollover_ms, &s->inactivity_ms, &s->check_ms, err) ||
        !wfs_commit_config(&s->commit, spec->options, err)) {
        fs_sink_close(&s->base);
        return NULL;
    }
    bool compact = false;
    if (!compaction_options(spec->options, s->roll_size, &compact, &s->compact_target, err)) {
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
    s->next_check_ms = sink_now(s) + s->check_ms;
    /* streaming: partitions are committed for partitioned tables only (Flink's StreamingSink) */
    if (s->commit.enabled && !s->batch && s->npart) s->tracker = wfs_commit_tracker_new(&s->commit);
    return &s->base;
}

const WConnector wconn_filesystem = {
    .name = "filesystem",
    .options = FS_INVENTORY,
    .can_source = true,
    .can_sink = true,
    .can_overwrite = true,
    .validate = fs_validate,
    .open_source = fs_open_source,
    .open_sink = fs_open_sink,
    .source_is_changelog = fs_is_changelog,
};
