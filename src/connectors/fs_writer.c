/*
 * fs_writer.c — the filesystem sink's part-file writer: partition paths (Hive's escaping, as
 * Flink's PartitionPathUtils), buckets, part file names (streaming: part-<uuid>-<subtask>-<n>,
 * batch: part-<uuid>-task-<subtask>-file-<n>, compaction: the .uncompacted- prefix), rows encoded
 * by the table's format, and the rolling policy (Flink's TableRollingPolicy: size at the next
 * row, with the size csv's bulk writer reports; rollover / inactivity at check-interval ticks).
 * Contract in fs_writer.h.
 */
#include "fs_writer.h"
#include "../common/proc_clock.h"
#include "../types/compare.h"
#include "../types/format.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int64_t wfs_sink_now(const FsSink *s)
{
    if (s->clock) return s->clock(s->clock_ctx);
    return wproc_wall_ms();
}

void wfs_make_uuid(char *out /* >= 37 */)
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

bool wfs_mkdirs(const char *path, WError *err)
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
static const uint8_t PATH_ESCAPED[256] = {
    [0 ... 0x1F] = 1, [0x7F] = 1, ['"'] = 1, ['#'] = 1, ['%'] = 1, ['\''] = 1, ['*'] = 1, ['/'] = 1,
    [':'] = 1, ['='] = 1, ['?'] = 1, ['\\'] = 1, ['{'] = 1, ['['] = 1, [']'] = 1, ['^'] = 1,
};

static void escape_path_name(WStrBuf *out, const char *s, size_t len)
{
    static const char HEX[] = "0123456789ABCDEF";
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!PATH_ESCAPED[c]) { wsb_putc(out, (char)c); continue; }
        char e[3] = { '%', HEX[c >> 4], HEX[c & 15] };
        wsb_appendn(out, e, 3);
    }
}

bool wfs_flush_bucket(FsBucket *b, WError *err)
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
bool wfs_close_bucket(FsSink *s, FsBucket *b, WError *err)
{
    if (b->fd < 0) return true;
    s->nopen--;
    if (!wfs_flush_bucket(b, err)) { close(b->fd); b->fd = -1; return false; }
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

bool wfs_close_all(FsSink *s, WError *err)
{
    for (int i = 0; i < s->nbuckets; i++)
        if (!wfs_close_bucket(s, &s->buckets[i], err)) return false;
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
        if (lru && !wfs_close_bucket(s, lru, err)) return false;
    }
    if (b->rel[0] && !wfs_mkdirs(b->dir, err)) return false;
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
        wfs_make_uuid(tag);
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
    b->created_ms = b->last_ms = wfs_sink_now(s);
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
int64_t wfs_roll_bytes(const FsSink *s, const FsBucket *b)
{
    return s->roll_on_checkpoint ? b->bulk_flushed : b->bytes;
}

/* The processing-time check of the rolling policy (Flink's timer every check-interval from the
   start): at each tick passed, files older than rollover-interval or idle for
   inactivity-interval are rolled, as of the tick's time. */
bool wfs_check_rolling_times(FsSink *s, WError *err)
{
    if (s->batch) return true;
    int64_t now = wfs_sink_now(s);
    if (now < s->next_check_ms) return true;
    int64_t tick = s->next_check_ms + (now - s->next_check_ms) / s->check_ms * s->check_ms;
    s->next_check_ms = tick + s->check_ms;
    for (int i = 0; i < s->nbuckets; i++) {
        FsBucket *b = &s->buckets[i];
        if (b->fd >= 0 && (tick - b->created_ms >= s->rollover_ms || tick - b->last_ms >= s->inactivity_ms) &&
            !wfs_close_bucket(s, b, err))
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

/* Whether rows r and q have the same partition values, so the same partition path: values equal
   and formatted alike (a float's -0.0 and 0.0 are equal but print apart: compared by bits). */
static bool same_partition(const FsSink *s, const WChunk *in, int r, int q)
{
    for (int k = 0; k < s->npart; k++) {
        const WVector *col = &in->cols[s->part_cols[k]];
        if (col->nulls[r] != col->nulls[q]) return false;
        if (col->nulls[r]) continue;
        const WType *t = s->part_types[k];
        WDatum a = col->data[r], b = col->data[q];
        if (t->id == WT_FLOAT || t->id == WT_DOUBLE) {
            if (memcmp(&a.d, &b.d, sizeof a.d) != 0) return false;
        } else if (!wdatum_equal(t, a, b)) {
            return false;
        }
    }
    return true;
}

/* Rows ahead whose strings are read ahead before the row is formatted: a source's strings may
   lie anywhere (a generator's pool, a reader's buffer) and miss the caches when copied. */
enum { STRINGS_AHEAD = 4 };

bool wfs_write(WSink *base, const WChunk *in, WError *err)
{
    FsSink *s = (FsSink *)base;
    if (in->nrows == 0) return true;
    if (s->done) return werr_set(err, WEXC_TABLE, "The filesystem sink received rows after its input ended.");
    WChunk view = *in;          /* the written columns only */
    view.ncols = s->ncols;
    view.cols = s->view;
    for (int i = 0; i < s->ncols; i++) s->view[i] = in->cols[s->write_cols[i]];
    /* the rolling policy's timer ticks that passed before these rows arrived */
    if (!wfs_check_rolling_times(s, err)) return false;
    const uint64_t tick0 = s->tick;
    for (int r = 0; r < in->nrows; r++) {
        wchunk_prefetch_strings(&view, r + STRINGS_AHEAD);
        /* the planner gives an insert-only sink insert-only streams; +U still arrives from a
           Top-1 Flink 2.3 declares insert-only (src/plan/physical.c, WR_RANK), and Flink's
           encoders write it as a row, as here. -U/-D would be a planning error. */
        if (!s->changelog && in->kinds[r] != WRK_INSERT && in->kinds[r] != WRK_UPDATE_AFTER)
            return werr_set(err, WEXC_TABLE,
                            "The '%s' format of the filesystem sink only accepts INSERT rows, got %s.",
                            s->format, wrowkind_short((WRowKind)in->kinds[r]));
        /* a row of the previous row's partition goes to its bucket (time-ordered rows mostly do) */
        FsBucket *b;
        if (r > 0 && s->last >= 0 && (!s->npart || same_partition(s, in, r, r - 1))) {
            b = &s->buckets[s->last];
        } else {
            if (s->npart) partition_path(s, in, r, &s->key);
            b = find_bucket(s, s->npart ? s->key.buf : "");
        }
        /* rolled on the next row once larger than the file size (streaming only) */
        if (b->fd >= 0 && !s->batch && wfs_roll_bytes(s, b) > s->roll_size && !wfs_close_bucket(s, b, err)) return false;
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
        if (b->buf.len >= (1u << 20) && !wfs_flush_bucket(b, err)) return false;
    }
    int64_t now = wfs_sink_now(s);
    for (int i = 0; i < s->nbuckets; i++) if (s->buckets[i].fd >= 0 && s->buckets[i].used > tick0) s->buckets[i].last_ms = now;
    base->rows_written += in->nrows;
    return true;
}

