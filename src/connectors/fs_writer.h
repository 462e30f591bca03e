/*
 * fs_writer.h — private to the filesystem sink (fs_writer.c, fs_sink.c): the sink subtask's state
 * and its part-file writer.
 *
 * Contract: an FsSink holds one FsBucket per partition directory (the table directory when not
 * partitioned), each with at most one part file in progress (hidden, .part-...inprogress...);
 * wfs_write routes each row to its bucket, opening a part file on demand and rolling it as
 * Flink's TableRollingPolicy says (size at the next row, rollover / inactivity at check-interval
 * ticks: wfs_check_rolling_times). A rolled file (wfs_close_bucket) is flushed, synced when the
 * sink is transactional, closed and appended to FsSink.pending; publishing pending files, the
 * checkpoint protocol and the partition commit are fs_sink.c's. At most FS_MAX_OPEN files are
 * open at once (the least recently used one rolls).
 * Depends on connector.h, csv_reader.h, format_json.h, fs_partition_commit.h, fs_compact.h.
 */
#ifndef WEIR_CONNECTORS_FS_WRITER_H
#define WEIR_CONNECTORS_FS_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include "connector.h"
#include "csv_reader.h"
#include "format_json.h"
#include "fs_partition_commit.h"
#include "fs_compact.h"
#include "../common/strbuf.h"

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
/* The job clock's processing time (the wall clock without one). */
int64_t wfs_sink_now(const FsSink *s);
/* A random (version 4) UUID, 36 characters and the terminator. */
void wfs_make_uuid(char *out /* >= 37 */);
/* mkdir -p; false + an IOException message when path is not a directory afterwards. */
bool wfs_mkdirs(const char *path, WError *err);
/* Write the bucket's buffered bytes to its part file. */
bool wfs_flush_bucket(FsBucket *b, WError *err);
/* Roll the bucket's part file: flushed, synced (transactional), closed, appended to s->pending. */
bool wfs_close_bucket(FsSink *s, FsBucket *b, WError *err);
bool wfs_close_all(FsSink *s, WError *err);
/* The size the rolling policy compares with the file size (csv: what Flink's bulk writer has
   passed to the file; json: the bytes written). */
int64_t wfs_roll_bytes(const FsSink *s, const FsBucket *b);
/* The rolling policy's processing-time check: the ticks passed roll old or idle files. */
bool wfs_check_rolling_times(FsSink *s, WError *err);
/* WSink.write: the rows to their partitions' part files. */
bool wfs_write(WSink *base, const WChunk *in, WError *err);

#endif
