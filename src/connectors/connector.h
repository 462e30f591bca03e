/*
 * connector.h — table sources and sinks, found by the 'connector' option as Flink's factories are.
 *
 * Contract: a WConnector validates a table's options (Flink's messages for missing required and
 * unsupported options, naming the table), then opens sources (bounded or unbounded producers of
 * changelog chunks), sinks (consumers of changelog chunks) and lookup sources (the rows of given
 * key values, for lookup joins). Sources fill chunks whose columns are the table's physical
 * columns in order; they report their input position for checkpoints.
 * Sinks receive the sink table's physical columns. Neither knows about plans or operators.
 * Depends on types/, common/.
 */
#ifndef WEIR_CONNECTORS_CONNECTOR_H
#define WEIR_CONNECTORS_CONNECTOR_H

#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include "../types/type.h"
#include "../types/chunk.h"
#include "../types/cast.h"
#include "../common/options.h"
#include "../common/error.h"

typedef struct WSource WSource;
typedef struct WSink WSink;

/* State shared by the parallel subtasks of one sink of one job (the runtime makes one per sink
   node and frees it with the job): a connector keeps data there under mu (the filesystem sink's
   compaction coordinator, fs_compact.h); free_data releases it. The runtime keeps its own part
   in `runtime` (the operators after a compacting file sink, runtime/fs_compact_flow.h), freed
   with free_runtime before the job's operators. */
typedef struct WSinkShared {
    pthread_mutex_t mu;
    void *data;
    void (*free_data)(void *data);
    void *runtime;
    void (*free_runtime)(void *runtime);
} WSinkShared;

/* What a source or sink is opened for. */
typedef struct WTableSpec {
    const char *name;               /* fully qualified: default_catalog.default_database.t */
    const char *short_name;         /* as the user named it: t */
    int ncols;                      /* physical columns */
    const char **col_names;
    const WType **col_types;
    const uint8_t *col_read;        /* per physical column: 1 when the query reads it (NULL: all);
                                       a source may leave the others unparsed (NULL values) */
    const uint64_t *col_fields_read;/* per physical column of ROW type: bit k set when the query
                                       reads its field k (UINT64_MAX: the whole value, and the
                                       fields from the 64th on; NULL: all); a source may leave
                                       the other fields NULL where no input could fail them */
    const WOptions *options;        /* WITH (...) */
    int nmeta;                      /* metadata columns after the physical ones in the chunks, their
                                       keys: read by a source (filesystem: "file.path", "file.name",
                                       "file.size", "file.modification-time"), or written by a sink
                                       (kafka: "headers", "timestamp") */
    const char *const *meta_keys;
    int npk;                        /* primary key column indexes (into the physical columns) */
    const int *pk;
    const WCastCtx *cast;           /* session time zone etc. */
    int subtask, parallelism;       /* this instance among parallel ones (0 of 1 when single) */
    FILE *out;                      /* print sink: where lines go (stdout in the embedded client) */
    int npartition;                 /* PARTITIONED BY keys as indexes into the physical columns */
    const int *partition;
    int nstatic;                    /* sinks: INSERT ... PARTITION (k = 'v'), in the table's
                                       partition key order (the print sink prints them) */
    const char *const *static_keys;
    const char *const *static_values;
    bool ignore_errors_counted;     /* internal */
    /* INSERT OVERWRITE (sinks); bounded: the job runs in batch mode (sources must end there);
       sink_uuid names this job's part files, the same for every subtask of the sink (NULL: the
       sink makes its own) */
    bool overwrite, bounded;
    const char *sink_uuid;
    WSinkShared *shared;            /* sinks: shared by the subtasks of this sink (never NULL there) */
    /* processing time in ms (the job's clock: simulated in tests); NULL = the wall clock */
    int64_t (*clock)(void *ctx);
    void *clock_ctx;
} WTableSpec;

typedef enum WSourceStatus { WSRC_MORE = 1, WSRC_END = 0, WSRC_ERROR = -1, WSRC_IDLE = 2 } WSourceStatus;

struct WSource {
    /* Fill `out` (already reset, columns = physical columns) with up to out->cap rows.
       WSRC_MORE: rows were produced (possibly 0 with IDLE meaning "nothing now");
       WSRC_END: bounded input exhausted (out may still hold final rows);
       WSRC_ERROR: err set (with file:line for data errors). */
    WSourceStatus (*next)(WSource *s, WChunk *out, WError *err);
    /* Opaque position for checkpoints; restore seeks back to it. */
    bool (*position)(WSource *s, char *buf, size_t bufsz);
    bool (*seek)(WSource *s, const char *pos, WError *err);
    void (*close)(WSource *s);
    /* Rescaling (optional, additive): position this source from the positions of every subtask
       of an earlier run at parallelism n (positions[i] NULL = none saved); the source takes over
       the part of that input it owns now. NULL = the source cannot change parallelism. */
    bool (*seek_rescaled)(WSource *s, const char *const *positions, int n, WError *err);
    /* Optional (Flink's notifyCheckpointComplete): the checkpoint that took the last position()
       completed (the runtime has one checkpoint pending at a time, so no later position() came in
       between). The kafka source commits those offsets to its consumer group. */
    bool (*checkpoint_complete)(WSource *s, WError *err);
    bool bounded;
    bool emits_changelog;           /* may emit -U/+U/-D (changelog-csv, debezium-json) */
    int min_chunk_rows;             /* rows one input record can give at once (debezium-json: 2 for an
                                       update); the chunks given to next() hold at least that many */
    int64_t rows_skipped;           /* rows dropped by ignore-parse-errors */
    int64_t rows_read;
    int64_t waited_ns;              /* time next() spent waiting for input (a rate limit, a poll
                                       without data, a directory scan interval): the runtime counts
                                       it idle, not busy (wsrc_sleep_ns / wsrc_add_wait) */
    /* Per-split watermarks (optional, additive): a source whose watermark Flink generates per
       split (a FLIP-27 source with the watermark pushed into the scan: kafka, per partition) sets
       split_watermarks. Every chunk next() returns then holds the rows of one split, `split`
       (0 .. nsplits-1, the same split for the same partition for the source's lifetime);
       split_finished[i] is set once split i was read to its end (a bounded read) and no longer
       holds the watermark back; nsplits only grows (partition discovery). */
    bool split_watermarks;
    int nsplits;
    int split;
    const uint8_t *split_finished;
    /* The name of split i as Flink's split id ("<topic>-<partition>"), for insight; optional. A
       source without split_watermarks may set it too, with `split` the origin of each chunk's
       rows (the filesystem source: the file index, named by its path): insight counts rows behind
       the watermark by origin. */
    void (*split_label)(const WSource *s, int split, char *buf, size_t bufsz);
};

/* Sleep ns in a source's next(), counted as waiting for input. */
void wsrc_sleep_ns(WSource *s, int64_t ns);
/* Count the time since since_ns (common/proc_clock.h wproc_mono_ns) as waiting for input. */
void wsrc_add_wait(WSource *s, int64_t since_ns);

typedef enum WSinkMessageKind {
    WSM_INPUT_FILE,                 /* compaction: a committed file (path) */
    WSM_END_CHECKPOINT,             /* compaction: every file up to ckpt went */
    WSM_COMMIT_INFO,                /* no compaction: the writer committed up to ckpt (path: its
                                       partitions' directories, one a line; NULL: none) */
    WSM_SNAPSHOT,                   /* the writer snapshots checkpoint ckpt with watermark wm (not
                                       a row: the barrier); the operators after it may append
                                       their state lines to `state` */
    WSM_RESTORE                     /* a state line (path) the operators appended, at a restore */
} WSinkMessageKind;

typedef struct WSinkMessage {
    WSinkMessageKind kind;
    int64_t ckpt;                   /* the checkpoint (INT64_MAX: the end of the input) */
    int task;                       /* the writer subtask */
    const char *path;               /* WSM_INPUT_FILE: the committed file */
    const char *root;               /* WSM_INPUT_FILE: the table's directory (partitions below it) */
    bool ended;                     /* WSM_END_CHECKPOINT, WSM_COMMIT_INFO: the last one of this subtask */
    int64_t wm;                     /* WSM_SNAPSHOT: the writer's watermark */
    struct WStrBuf *state;          /* WSM_SNAPSHOT: the writer's checkpoint state being written */
} WSinkMessage;

struct WSink {
    bool (*write)(WSink *s, const WChunk *in, WError *err);
    bool (*finish)(WSink *s, WError *err);          /* end of input: flush */
    void (*close)(WSink *s);
    int64_t rows_written;
    /* Exactly-once (optional, additive). With checkpointing the runtime sets `transactional`
       before the first write: finish then leaves the last file pending instead of publishing it.
       prepare_commit (at a checkpoint) closes the file in progress, marks every pending file not
       yet assigned as covered by checkpoint ckpt_id and returns the list of all files not yet
       published in *state (malloc'd text, for the checkpoint); commit publishes the files of
       checkpoints <= ckpt_id; recover publishes the files of a state written by prepare_commit
       (a restored checkpoint's), skipping those published already. */
    bool transactional;
    bool (*prepare_commit)(WSink *s, int64_t ckpt_id, char **state, WError *err);
    bool (*commit)(WSink *s, int64_t ckpt_id, WError *err);
    bool (*recover)(WSink *s, const char *state, WError *err);
    /* The sink's input watermark advanced (optional; the filesystem sink's partition-time
       commit trigger). */
    void (*watermark)(WSink *s, int64_t wm);
    /* A streaming file sink's messages to the operators after it (optional, set by the runtime
       before the first write). With compaction Flink's CompactMessages: each file it committed
       (InputFile) and, after them, that it committed everything up to checkpoint ckpt
       (EndCheckpoint); without, one PartitionCommitInfo per commit. ended: its input ended and
       nothing of it is pending any more. Without the callback a compacting sink hands its files
       to the compactor it shares with its other subtasks itself. false + err: the job fails. */
    bool (*message)(void *ctx, const WSinkMessage *m, WError *err);
    void *message_ctx;
};


/* A lookup source (Flink's LookupTableSource): the rows of a table whose key columns equal given
   values, fetched when asked (a lookup join's probe). `lookup` returns a chunk of the source's
   own (columns = the table's physical columns, rows +I; valid until the next call) with every
   row whose columns key_cols[i] equal key[i] (never NULL); NULL with err set when the fetch
   failed after its retries.
   The cache the table's options ask for is described in `cache`; the caller keeps it. */
typedef struct WLookupCacheConf {
    bool partial;                   /* lookup.cache = PARTIAL (else NONE) */
    int64_t max_rows;               /* lookup.partial-cache.max-rows (0 = unbounded) */
    int64_t expire_after_write_ms;  /* 0 = never */
    int64_t expire_after_access_ms; /* 0 = never */
    bool cache_missing_key;         /* an empty result is cached too */
} WLookupCacheConf;

typedef struct WLookupSource WLookupSource;
struct WLookupSource {
    const WChunk *(*lookup)(WLookupSource *s, const WDatum *key, WError *err);
    void (*close)(WLookupSource *s);
    WLookupCacheConf cache;
};

/* The inventory of the options a connector or format accepts: the one typed description of each
   option (Flink's ConfigOption: key, type, default, required) and what it does in weir. The
   factory's generic validation is made from it (wconnector_check_inventory): the missing required
   options, every present option's value parsed as its type, the unsupported options (Flink's
   messages) and the WOPT_REFUSED options unless set to their default (naming them: "... is not
   supported by weir yet"); rules between options stay in each connector.
   tests/unit/test_option_inventory.c walks every entry and proves its effect or its error, its
   default parsing as its type and a bad value refused with its type's message, and fails on an
   accepted option missing here. A '#' in a key stands for a column (or nested field) name:
   datagen's "fields.#.kind"; a key ending in '#' is a prefix ("properties.#": every key under
   "properties."). Lists end with a {0} entry. */
typedef enum WOptEffect {
    WOPT_APPLIED = 1,               /* changes what is read, written or run, as in Flink */
    WOPT_NO_EFFECT_IN_FLINK,        /* Flink accepts it and nothing observable depends on it there
                                       either (property-version) */
    WOPT_REFUSED,                   /* Flink's, not implemented by weir: refused unless default */
} WOptEffect;

/* The type of an option's value, as Flink's ConfigOption declares it. A present value is parsed as
   Flink's Configuration does; a bad one fails with the root cause of Flink's "Invalid value for
   option 'k'." / "Could not parse value 'v' for key 'k'.", which its SQL client prints. */
typedef enum WOptType {
    WOT_STRING = 0,                 /* any text */
    WOT_INT,                        /* Integer.parseInt: 'For input string: "v"' (beyond int too) */
    WOT_LONG,                       /* Long.parseLong: 'For input string: "v"' */
    WOT_DOUBLE,                     /* Double.parseDouble: 'For input string: "v"' */
    WOT_BOOL,                       /* true / false in any case: "Unrecognized option for boolean: v. ..." */
    WOT_DURATION,                   /* TimeUtils.parseDuration (common/duration.h) */
    WOT_MEMORY,                     /* MemorySize.parse (wopts_get_bytes) */
    WOT_ENUM,                       /* one of enum_of's values in any case: "Could not parse value
                                       for enum class C. Expected one of: [[a, b]]" */
    WOT_LIST,                       /* ';'-separated strings (Flink's asList) */
    WOT_BY_COLUMN,                  /* a value of its column's type (datagen's min, max, start,
                                       end): parsed by the connector */
} WOptType;

/* An enum option's Java class and values, as Flink's message names them ("a, b, c"). */
typedef struct WOptEnum {
    const char *java_class;
    const char *values;
} WOptEnum;

/* Flink's message for a value that is none of e's (false): "Could not parse value for enum class
   C. Expected one of: [[a, b]]". */
bool wconn_enum_error(const WOptEnum *e, WError *err);

/* Required for which use (WConnOption.required). */
enum { WOPT_REQ_SOURCE = 1, WOPT_REQ_SINK = 2, WOPT_REQ = 3 };

typedef struct WConnOption {
    const char *key;
    WOptEffect effect;
    const char *dflt;               /* Flink's default (NULL: none); WOPT_REFUSED: the value that
                                       changes nothing (accepted) */
    const char *what;               /* what it does, one line */
    WOptType type;
    uint8_t required;               /* WOPT_REQ_* bits: missing for that use is an error */
    const WOptEnum *enum_of;        /* WOT_ENUM */
} WConnOption;

/* Does key match the inventory key pattern ('#' = one or more characters)? */
bool wconn_option_key_matches(const char *pattern, const char *key);
/* The entry of key in inv (NULL: not in the inventory). */
const WConnOption *wconn_option_find(const WConnOption *inv, const char *key);
/* Refuse every option of o (keys under prefix, "" = all) whose inventory entry is WOPT_REFUSED and
   whose value is not its default: "Option 'k' of the 'owner' connector|format is not supported by
   weir yet." owner_kind is "connector" or "format". */
bool wconn_refuse_unimplemented(const WConnOption *inv, const char *owner, const char *owner_kind,
                                const char *prefix, const WOptions *o, WError *err);

/* Flink's scan.watermark.* table options (FLIP-296) that weir applies, for a source whose
   watermark Flink pushes into the scan (WSource.split_watermarks): the emit strategy (Flink's
   error for another value) and the idle timeout of a split. The alignment options are refused by
   the connectors' inventories. */
typedef struct WScanWatermark {
    int emit;                       /* -1: not set, 0: on-event, 1: on-periodic */
    int64_t idle_timeout_ms;        /* -1: not set */
} WScanWatermark;
bool wconn_scan_watermark(const WOptions *o, WScanWatermark *out, WError *err);
/* scan.watermark.emit.strategy's enum (WatermarkEmitStrategy), for the inventories. */
extern const WOptEnum wconn_watermark_emit_enum;

/* Changelog row kinds as bits: the values of the planner's WCM_* (plan.h checks they agree). */
enum { WCONN_INSERT = 1, WCONN_UPDATE_BEFORE = 2, WCONN_UPDATE_AFTER = 4, WCONN_DELETE = 8, WCONN_ALL_KINDS = 15 };

/* How a sink runs in Flink's job graph, which decides its operators and their names. */
typedef enum WSinkRuntime {
    WSINK_FUNCTION = 0,             /* one sink operator ('Sink: <table>'): print, jdbc, kafka */
    WSINK_WRITER,                   /* a SinkV2 writer ('<table>[n]: Writer'): Flink 2.3's blackhole */
    WSINK_FILES,                    /* the file sink: writer + committer (streaming),
                                       FileSystemOutputFormat (batch) */
} WSinkRuntime;

/* A metadata key a source reads or a sink writes (Flink's listReadableMetadata /
   listWritableMetadata): the key and its data type. */
typedef struct WConnMetaKey {
    const char *key;
    const WType *type;
} WConnMetaKey;

/* The metadata one side of a connector offers (Flink's SupportsReadingMetadata or
   SupportsWritingMetadata): its keys in Flink's order and the DynamicTableSource / DynamicTableSink
   class Flink's "Invalid metadata key" message names. */
typedef struct WConnMetadata {
    const WConnMetaKey *keys;
    int nkeys;
    const char *class_name;
} WConnMetadata;

/* The key's entry in m (NULL: m offers no such key). */
const WConnMetaKey *wconn_metadata_key(const WConnMetadata *m, const char *key);
/* Flink's error for a metadata key m does not offer, declared by `column` of `table` (reading: a
   source's metadata, else a sink's): "Invalid metadata key ..." listing m's keys. Returns false. */
bool wconn_metadata_invalid_key(WError *err, const WConnMetadata *m, bool reading, const char *key,
                                const char *column, const char *table);

/* What a connector can do, as the planner asks it (Flink's ability interfaces of a dynamic table
   source or sink). Zero is the plain answer: no push-down, bounded, a sink of one operator that
   takes every row kind it is given. */
typedef struct WConnCaps {
    /* The row kinds the sink accepts (WCONN_* bits; 0: every kind); sink_kinds_for, when set,
       gives them for the table's options instead. sink_kinds_fixed: it takes exactly those
       whatever the query sends (Flink's getChangelogMode ignoring the requested mode), else the
       kinds of its input it accepts. */
    uint8_t sink_kinds;
    bool sink_kinds_fixed;
    uint8_t (*sink_kinds_for)(const WOptions *options);
    /* A source that is unbounded with these options (NULL: bounded). */
    bool (*unbounded)(const WOptions *options);
    bool upsert_source;             /* sends [INSERT, UPDATE_AFTER, DELETE] by primary key (upsert-kafka) */
    bool sink_needs_pk_for_updates; /* refuses updates without a primary key (Flink's JDBC sink) */
    bool projection_pushdown;       /* SupportsProjectionPushDown */
    bool filter_pushdown;           /* SupportsFilterPushDown */
    WSinkRuntime sink_runtime;
    const WConnMetadata *read_metadata;     /* the source's metadata (NULL: no SupportsReadingMetadata) */
    const WConnMetadata *write_metadata;    /* the sink's metadata (NULL: no SupportsWritingMetadata) */
    /* The source's asSummaryString, which Flink's message for metadata columns on a source without
       SupportsReadingMetadata names ("Table 'DataGenTableSource' declares metadata columns, ..."). */
    const char *source_summary;
} WConnCaps;

typedef struct WConnector {
    const char *name;               /* value of 'connector' */
    WConnCaps caps;
    const WConnOption *options;     /* every option the factory accepts (required ones too) */
    bool can_source, can_sink;
    bool can_overwrite;             /* INSERT OVERWRITE (Flink's SupportsOverwrite) */
    /* Validate options for use as a source (as_source) or sink; Flink's messages on failure. */
    bool (*validate)(const WTableSpec *spec, bool as_source, WError *err);
    WSource *(*open_source)(const WTableSpec *spec, WError *err);
    WSink *(*open_sink)(const WTableSpec *spec, WError *err);
    /* Lookup source for a lookup join on nkeys key columns (indexes into the physical columns);
       NULL = the connector is no lookup source. */
    WLookupSource *(*open_lookup)(const WTableSpec *spec, int nkeys, const int *key_cols, WError *err);
    /* Does the source produce updates (changelog format)? For planning the changelog mode. */
    bool (*source_is_changelog)(const WOptions *options);
} WConnector;

/* The connector of a table of Flink's legacy descriptor options ('connector.type' = 'filesystem',
   no 'connector'): fs_legacy.c. Not a 'connector' value a user writes, nor a listed identifier. */
#define WCONN_LEGACY_FILESYSTEM "filesystem (connector.type)"
/* The connector options name: 'connector', or WCONN_LEGACY_FILESYSTEM for a legacy filesystem
   table; NULL when neither. */
const char *wconnector_id(const WOptions *options);
/* A source-only connector named as a sink: Flink's message (false, err set). */
bool wconnector_refuse_sink(const WConnector *c, WError *err);
const WConnector *wconnector_find(const char *name);
/* The capabilities of the connector named by options' 'connector' (NULL: none named or unknown). */
const WConnCaps *wconnector_caps(const WOptions *options);
/* Does the format of this name carry each row's kind (changelog-csv, debezium-json)? */
bool wconnector_format_is_changelog(const char *format);
const WConnector *const *wconnector_all(void);

/* Find the connector named by options' 'connector' for use as a source (as_source) or sink, with
   Flink's messages (root causes, as the SQL client prints them): no 'connector' option, unknown
   identifier ("Could not find any factory for identifier 'x' that implements
   'org.apache.flink.table.factories.DynamicTableFactory' in the classpath. ..."), or a sink-only
   connector used as a source and vice versa. */
bool wconnector_lookup(const WOptions *options, bool as_source, const WConnector **out, WError *err);

/* The generic validation of spec->options against inv (an inventory, see WConnOption), as Flink's
   FactoryUtil validates a factory's options, in its order: the options inv requires for this use
   (as_source) that are missing ("One or more required options are missing. ..."); the value of
   every supported option present parsed as its type (wconn_option_check_value); the options that
   are not supported ("Unsupported options found for 'connector'. ...", listing the supported ones
   present or declared); then wconn_refuse_unimplemented. Supported: 'connector', inv's keys
   without '#', `extra` keys (computed by the connector: datagen's per-column options, the
   formats' options; NULL = none), and keys under a prefix of `prefixes` or of an inv key ending
   in '#'. */
bool wconnector_check_inventory(const WTableSpec *spec, const char *connector, const WConnOption *inv,
                                bool as_source, const char *const *extra, const char *const *prefixes,
                                WError *err);
/* Parse the value v of an option described by e as its type; false + Flink's root cause (see WOptType). */
bool wconn_option_check_value(const WConnOption *e, const char *v, WError *err);

#endif
