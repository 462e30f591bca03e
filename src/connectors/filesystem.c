/*
 * filesystem.c — the 'filesystem' connector's factory: FS_INVENTORY (every option
 * FileSystemTableFactory accepts, with what it does: connector.h), the validation as
 * FileSystemTableFactory does it (required path/format, unknown options rejected except the
 * format's own "<format>." keys, unknown formats with Flink's message, unimplemented options
 * refused by name, every declared option parsed for a source too) and the option helpers the
 * source and the sink share. Formats: 'csv', 'changelog-csv', 'json', 'debezium-json' (the
 * changelog ones read and write every row kind, the others only inserts).
 * The source is fs_source.c; the sink is fs_writer.c (part files, rolling) and fs_sink.c
 * (checkpoints, publishing, partition commit: fs_partition_commit.c, compaction: fs_compact.c).
 * Depends on fs_internal.h, csv_reader.h, format_json.h, fs_partition_commit.h, common/.
 */
#include "fs_internal.h"
#include "conn_internal.h"
#include "csv_reader.h"
#include "format_json.h"
#include "fs_partition_commit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every option FileSystemTableFactory accepts (and weir's sink.changelog-mode): its type, default
   and what it does here. The validation's required, unsupported and value checks are made from it. */
static const WOptEnum FS_STATISTICS = {
    "org.apache.flink.connector.file.table.FileSystemConnectorOptions$FileStatisticsType", "NONE, ALL"};
static const WConnOption FS_INVENTORY[] = {
    {"path", WOPT_APPLIED, NULL, "the file or directory read or written", .type = WOT_STRING, .required = WOPT_REQ},
    {"format", WOPT_APPLIED, NULL, "the format of the files", .type = WOT_STRING, .required = WOPT_REQ},
    {"property-version", WOPT_NO_EFFECT_IN_FLINK, NULL, "a legacy version number Flink accepts and ignores",
     .type = WOT_STRING},
    {"sink.changelog-mode", WOPT_APPLIED, NULL, "weir: the row kinds a changelog format's sink accepts (planner)",
     .type = WOT_STRING},
    {"partition.default-name", WOPT_APPLIED, "__DEFAULT_PARTITION__",
     "the directory name of a NULL or empty partition value", .type = WOT_STRING},
    {"source.monitor-interval", WOPT_APPLIED, NULL,
     "an unbounded source listing the path again every interval for new files", .type = WOT_DURATION},
    {"source.report-statistics", WOPT_NO_EFFECT_IN_FLINK, "ALL",
     "statistics for Flink's batch cost-based optimizer only; weir's plans use no statistics",
     .type = WOT_ENUM, .enum_of = &FS_STATISTICS},
    {"source.path.regex-pattern", WOPT_APPLIED, NULL, "only the files whose whole path matches are read",
     .type = WOT_STRING},
    {"sink.rolling-policy.file-size", WOPT_APPLIED, "128MB",
     "streaming: a part file larger than this rolls at the next row (and at a checkpoint)", .type = WOT_MEMORY},
    {"sink.rolling-policy.rollover-interval", WOPT_APPLIED, "30 min",
     "streaming: a part file this old rolls at the next check", .type = WOT_DURATION},
    {"sink.rolling-policy.inactivity-interval", WOPT_APPLIED, "30 min",
     "streaming: a part file idle this long rolls at the next check", .type = WOT_DURATION},
    {"sink.rolling-policy.check-interval", WOPT_APPLIED, "1 min", "how often the rolling times are checked",
     .type = WOT_DURATION},
    {"sink.shuffle-by-partition.enable", WOPT_APPLIED, "false",
     "a hash exchange on the dynamic partition columns before the sink (plan/sink_rules.c)", .type = WOT_BOOL},
    {"partition.time-extractor.kind", WOPT_APPLIED, "default", "default (custom needs a Java class: refused)",
     .type = WOT_STRING},
    {"partition.time-extractor.class", WOPT_REFUSED, NULL, "a Java PartitionTimeExtractor class", .type = WOT_STRING},
    {"partition.time-extractor.timestamp-formatter", WOPT_APPLIED, "yyyy-MM-dd HH:mm:ss",
     "the pattern the partition time is parsed with", .type = WOT_STRING},
    {"partition.time-extractor.timestamp-pattern", WOPT_APPLIED, NULL,
     "the partition time from the key values ($key)", .type = WOT_STRING},
    {"sink.partition-commit.trigger", WOPT_APPLIED, "process-time",
     "process-time or partition-time (watermark) commits", .type = WOT_ENUM, .enum_of = &wfs_commit_trigger_enum},
    {"sink.partition-commit.delay", WOPT_APPLIED, "0 s", "how long after its creation / its time a partition commits",
     .type = WOT_DURATION},
    {"sink.partition-commit.watermark-time-zone", WOPT_APPLIED, "UTC", "the zone the partition time is read in",
     .type = WOT_STRING},
    {"sink.partition-commit.policy.kind", WOPT_APPLIED, NULL,
     "success-file (metastore: refused as Flink does; custom: refused)", .type = WOT_STRING},
    {"sink.partition-commit.policy.class", WOPT_REFUSED, NULL, "a Java PartitionCommitPolicy class",
     .type = WOT_STRING},
    {"sink.partition-commit.policy.class.parameters", WOPT_REFUSED, NULL,
     "parameters of a Java PartitionCommitPolicy class", .type = WOT_LIST},
    {"sink.partition-commit.success-file.name", WOPT_APPLIED, "_SUCCESS", "the success file's name",
     .type = WOT_STRING},
    {"auto-compaction", WOPT_APPLIED, "false",
     "streaming: the files of each checkpoint compacted (fs_compact.c); batch: no effect, as in Flink 2.3",
     .type = WOT_BOOL},
    {"compaction.file-size", WOPT_APPLIED, NULL,
     "the size compacted files reach (default: sink.rolling-policy.file-size)", .type = WOT_MEMORY},
    {"sink.parallelism", WOPT_APPLIED, NULL, "the sink's parallelism (runtime/vertices.c)", .type = WOT_INT},
    {0},
};

/* 'source.path.regex-pattern' compiled in arena a (Java's PatternSyntaxException on a bad
   pattern); *re = NULL when the option is absent. */
bool wfs_path_regex(const WOptions *o, WArena *a, WRegex **re, WError *err)
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
bool wfs_path_matches(const WRegex *re, const char *file)
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
bool wfs_rolling_options(const WOptions *o, bool check_positive, int64_t *size, int64_t *rollover,
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
bool wfs_compaction_options(const WOptions *o, int64_t roll_size, bool *on, int64_t *target, WError *err)
{
    if (!wopts_get_bool(o, "auto-compaction", false, on, err)) return false;
    if (!wopts_get_bytes(o, "compaction.file-size", roll_size, target, err)) return false;
    if (*target <= 0) return werr_set(err, WEXC_ILLEGAL_ARG, "The compaction file size must be positive.");
    return true;
}

/* Local path of a Flink path ('file:///x' or 'file:/x' or '/x'). */
const char *wfs_local_path(const char *p)
{
    if (strncmp(p, "file://", 7) == 0) return p + 7;
    if (strncmp(p, "file:", 5) == 0) return p + 5;
    return p;
}

bool wfs_validate(const WTableSpec *spec, bool as_source, WError *err)
{
    const char *format = wopts_get(spec->options, "format");
    char prefix[80];
    snprintf(prefix, sizeof prefix, "%s.", format ? format : "null");
    const char *const prefixes[] = {prefix, NULL};
    if (!wconnector_check_inventory(spec, "filesystem", FS_INVENTORY, as_source, NULL, prefixes, err)) return false;
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
        if (!wfs_rolling_options(spec->options, !as_source, &a1, &a2, &a3, &a4, err)) return false;
        bool on;
        if (!wfs_compaction_options(spec->options, a1, &on, &a2, err)) return false;
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
        bool ok = wfs_path_regex(spec->options, a, &re, err);
        warena_delete(a);
        if (!ok) return false;
    }
    return true;
}

static bool fs_is_changelog(const WOptions *options)
{
    return wconnector_format_is_changelog(wopts_get(options, "format"));
}

/* a file sink writes inserts only, unless its format carries row kinds */
static uint8_t fs_sink_kinds(const WOptions *options)
{
    return fs_is_changelog(options) ? WCONN_ALL_KINDS : WCONN_INSERT;
}

static bool fs_unbounded(const WOptions *options) { return wopts_get(options, "source.monitor-interval") != NULL; }

/* FileSystemTableSource's readable metadata (Flink 2.3), in its order */
static const WType FS_MODIFICATION_TIME = {.id = WT_TIMESTAMP_LTZ, .nullable = false, .precision = 3};
static const WConnMetaKey FS_READABLE[] = {
    {"file.path", &WTYPE_STRING_NN}, {"file.name", &WTYPE_STRING_NN}, {"file.size", &WTYPE_BIGINT_NN},
    {"file.modification-time", &FS_MODIFICATION_TIME},
};

static const WConnMetadata FS_METADATA = {FS_READABLE, (int)(sizeof FS_READABLE / sizeof *FS_READABLE),
                                           "org.apache.flink.connector.file.table.FileSystemTableSource"};

const WConnector wconn_filesystem = {
    .name = "filesystem",
    .caps = {.sink_kinds_for = fs_sink_kinds, .sink_kinds_fixed = true, .unbounded = fs_unbounded, .projection_pushdown = true,
             .filter_pushdown = true, .sink_runtime = WSINK_FILES,
             .read_metadata = &FS_METADATA},
    .options = FS_INVENTORY,
    .can_source = true,
    .can_sink = true,
    .can_overwrite = true,
    .validate = wfs_validate,
    .open_source = wfs_open_source,
    .open_sink = wfs_open_sink,
    .source_is_changelog = fs_is_changelog,
};
