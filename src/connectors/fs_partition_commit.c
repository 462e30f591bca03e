/* fs_partition_commit.c — partition commit of the filesystem sink; see fs_partition_commit.h. */
#include "fs_partition_commit.h"
#include "../common/arena.h"
#include "../common/strbuf.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static bool not_supported(WError *err, const char *key, const char *value, const char *why)
{
    return werr_set(err, WEXC_VALIDATION, "Option '%s' = '%s' of the 'filesystem' connector is not supported by weir yet (%s).",
                    key, value, why);
}

const WOptEnum wfs_commit_trigger_enum = {
    "org.apache.flink.connector.file.table.FileSystemConnectorOptions$PartitionCommitTriggerType",
    "process-time, partition-time"};

bool wfs_commit_config(WFsCommitConfig *c, const WOptions *o, WError *err)
{
    memset(c, 0, sizeof *c);
    /* the watermark time zone is checked whatever the rest says, as FileSystemTableFactory does */
    const char *tz = wopts_get_or(o, "sink.partition-commit.watermark-time-zone", "UTC");
    WError tzerr;
    werr_clear(&tzerr);
    c->wm_tz = wtz_load(tz, &tzerr);
    if (!c->wm_tz)
        return werr_set(err, WEXC_VALIDATION,
                        "Invalid time zone for 'sink.partition-commit.watermark-time-zone'. The value should be a "
                        "Time Zone Database (TZDB) ID such as 'America/Los_Angeles' to include daylight saving time. "
                        "Fixed offsets are supported using 'GMT-03:00' or 'GMT+03:00'. Or use 'UTC' without time "
                        "zone and daylight saving time.");
    const char *trigger = wopts_get_or(o, "sink.partition-commit.trigger", "process-time");
    /* an enum: any case, as Flink's */
    if (strcasecmp(trigger, "partition-time") == 0) c->partition_time = true;
    else if (strcasecmp(trigger, "process-time") != 0) return wconn_enum_error(&wfs_commit_trigger_enum, err);
    if (!wopts_get_duration_ms(o, "sink.partition-commit.delay", 0, &c->delay_ms, err)) return false;
    const char *kind = wopts_get_or(o, "partition.time-extractor.kind", "default");
    if (strcasecmp(kind, "custom") == 0)
        return not_supported(err, "partition.time-extractor.kind", kind, "a Java PartitionTimeExtractor class");
    if (strcasecmp(kind, "default") != 0)
        return werr_set(err, WEXC_UNSUPPORTED, "Unsupported extractor kind: %s", kind);
    const char *cls = wopts_get(o, "partition.time-extractor.class");
    if (cls) return not_supported(err, "partition.time-extractor.class", cls, "a Java PartitionTimeExtractor class");
    const char *pat = wopts_get(o, "partition.time-extractor.timestamp-pattern");
    const char *fmt = wopts_get(o, "partition.time-extractor.timestamp-formatter");
    c->ts_pattern = pat ? wstrdup(pat) : NULL;
    c->ts_formatter = fmt ? wstrdup(fmt) : NULL;
    const char *name = wopts_get_or(o, "sink.partition-commit.success-file.name", "_SUCCESS");
    c->success_name = wstrdup(name);
    const char *pcls = wopts_get(o, "sink.partition-commit.policy.class");
    if (pcls) return not_supported(err, "sink.partition-commit.policy.class", pcls, "a Java PartitionCommitPolicy class");
    const char *params = wopts_get(o, "sink.partition-commit.policy.class.parameters");
    if (params)
        return not_supported(err, "sink.partition-commit.policy.class.parameters", params,
                             "a Java PartitionCommitPolicy class");
    const char *policy = wopts_get(o, "sink.partition-commit.policy.kind");
    if (!policy) return true;
    c->enabled = true;
    /* a comma-separated list, as PartitionCommitPolicyFactory splits it */
    const char *p = policy;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char one[64];
        snprintf(one, sizeof one, "%.*s", (int)(n < sizeof one ? n : sizeof one - 1), p);
        if (strcasecmp(one, "success-file") == 0) {
            c->success_file = true;
        } else if (strcasecmp(one, "metastore") == 0) {
            return werr_set(err, WEXC_VALIDATION,
                            "Can not configure a 'metastore' partition commit policy for a file system table. You can "
                            "only configure 'metastore' partition commit policy for a hive table.");
        } else if (strcasecmp(one, "custom") == 0) {
            return not_supported(err, "sink.partition-commit.policy.kind", policy, "a Java PartitionCommitPolicy class");
        } else {
            return werr_set(err, WEXC_UNSUPPORTED, "Unsupported policy: %s", one);
        }
        p = e ? e + 1 : p + n;
    }
    return true;
}

void wfs_commit_config_free(WFsCommitConfig *c)
{
    wtz_free(c->wm_tz);
    free(c->success_name);
    free(c->ts_pattern);
    free(c->ts_formatter);
    memset(c, 0, sizeof *c);
}

bool wfs_partition_time(const WFsCommitConfig *c, int nkeys, const char *const *keys, const char *const *values,
                        int64_t *out_ms, WError *err)
{
    WStrBuf s;
    wsb_init(&s);
    if (!c->ts_pattern) {
        wsb_append(&s, nkeys > 0 && values[0] ? values[0] : "");
    } else {
        /* replaceAll("\\$" + key, value) for each key in order */
        wsb_append(&s, c->ts_pattern);
        for (int k = 0; k < nkeys; k++) {
            WStrBuf r;
            wsb_init(&r);
            size_t kl = strlen(keys[k]);
            for (const char *q = s.buf; *q; ) {
                if (*q == '$' && strncmp(q + 1, keys[k], kl) == 0) {
                    wsb_append(&r, values[k] ? values[k] : "null");
                    q += 1 + kl;
                } else {
                    wsb_putc(&r, *q++);
                }
            }
            wsb_free(&s);
            s = r;
        }
    }
    WTimestamp ts;
    bool ok;
    if (c->ts_formatter) {
        ok = wparse_pattern(s.buf, (int)s.len, c->ts_formatter, &ts);
    } else {
        /* yyyy-MM-dd HH:mm:ss, or a date alone (its midnight) */
        int64_t days;
        ok = s.len == 19 && s.buf[10] == ' ' && wparse_timestamp(s.buf, (int)s.len, &ts);
        if (!ok && s.len == 10 && wparse_date(s.buf, 10, &days)) { ts.ms = days * 86400000LL; ts.ns = 0; ok = true; }
    }
    if (!ok) {
        werr_set(err, "java.time.format.DateTimeParseException", "Text '%s' could not be parsed with the partition "
                 "time pattern '%s'.", s.buf, c->ts_formatter ? c->ts_formatter : "yyyy-MM-dd HH:mm:ss");
        wsb_free(&s);
        return false;
    }
    wsb_free(&s);
    /* the local time in the watermark's zone */
    *out_ms = ts.ms - (int64_t)wtz_offset_for_local(c->wm_tz, ts.ms) * 1000;
    return true;
}

/* ------------------------------------------------------------------------------------------ */

typedef struct Part {
    char *rel, *dir;
    int64_t ckpt;               /* the checkpoint the partition (re)appeared in; 0 = not yet taken */
    int64_t created_ms;         /* process-time: when the trigger saw it */
    int64_t last;               /* the last checkpoint whose barrier followed a row of it */
    bool pending;               /* touched since its last commit */
    bool touched;               /* a row went to it since the last checkpoint's barrier */
} Part;

typedef struct CkptWm { int64_t id, wm; } CkptWm;

struct WFsCommitTracker {
    const WFsCommitConfig *c;
    Part *parts;
    int nparts, cap;
    int last;                   /* the part touched last (a cache) */
    CkptWm *wms;                /* the watermark of each checkpoint not yet completed */
    int nwms, capwms;
};

WFsCommitTracker *wfs_commit_tracker_new(const WFsCommitConfig *c)
{
    WFsCommitTracker *t = wcalloc(1, sizeof *t);
    t->c = c;
    t->last = -1;
    return t;
}

void wfs_commit_tracker_free(WFsCommitTracker *t)
{
    if (!t) return;
    for (int i = 0; i < t->nparts; i++) { free(t->parts[i].rel); free(t->parts[i].dir); }
    free(t->parts);
    free(t->wms);
    free(t);
}

void wfs_commit_touch(WFsCommitTracker *t, const char *rel, const char *dir)
{
    Part *p = NULL;
    if (t->last >= 0 && strcmp(t->parts[t->last].rel, rel) == 0) p = &t->parts[t->last];
    for (int i = 0; !p && i < t->nparts; i++)
        if (strcmp(t->parts[i].rel, rel) == 0) { p = &t->parts[i]; t->last = i; }
    if (!p) {
        if (t->nparts == t->cap) {
            t->cap = t->cap ? t->cap * 2 : 8;
            t->parts = wrealloc(t->parts, sizeof(Part) * (size_t)t->cap);
        }
        p = &t->parts[t->nparts];
        memset(p, 0, sizeof *p);
        p->rel = wstrdup(rel);
        p->dir = wstrdup(dir);
        t->last = t->nparts++;
    }
    if (!p->pending) { p->pending = true; p->ckpt = 0; }
    p->touched = true;
}

void wfs_commit_checkpoint(WFsCommitTracker *t, int64_t ckpt_id, int64_t wm, int64_t now_ms)
{
    for (int i = 0; i < t->nparts; i++) {
        Part *p = &t->parts[i];
        if (p->pending && p->ckpt == 0) { p->ckpt = ckpt_id; p->created_ms = now_ms; }
        if (p->pending && p->touched) { p->last = ckpt_id; p->touched = false; }
    }
    wfs_commit_snapshot(t, ckpt_id, wm);
}

/* The partition's keys and unescaped values from its relative path k1=v1/k2=v2. */
static bool rel_time(const WFsCommitConfig *c, const char *rel, int64_t *ms, WError *err)
{
    char *buf = wstrdup(rel);
    const char *keys[64], *vals[64];
    int n = 0;
    for (char *seg = buf; seg && *seg && n < 64; ) {
        char *slash = strchr(seg, '/');
        if (slash) *slash = 0;
        char *eq = strchr(seg, '=');
        if (eq) {
            *eq = 0;
            /* unescape %XX in place */
            char *w = eq + 1;
            for (char *r = eq + 1; *r; r++) {
                unsigned x;
                if (*r == '%' && r[1] && r[2] && sscanf(r + 1, "%2x", &x) == 1) { *w++ = (char)x; r += 2; }
                else *w++ = *r;
            }
            *w = 0;
            keys[n] = seg;
            vals[n++] = eq + 1;
        }
        seg = slash ? slash + 1 : NULL;
    }
    bool ok = wfs_partition_time(c, n, keys, vals, ms, err);
    free(buf);
    return ok;
}

bool wfs_commit_partition_dir(const WFsCommitConfig *c, const char *dir, WError *err)
{
    if (!c->success_file) return true;
    WStrBuf p;
    wsb_init(&p);
    wsb_printf(&p, "%s/%s", dir, c->success_name);
    int fd = open(p.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    bool ok = fd >= 0;
    if (!ok) werr_set(err, WEXC_IO, "Failed to write the success file '%s': %s", p.buf, strerror(errno));
    else close(fd);
    wsb_free(&p);
    return ok;
}

void wfs_commit_take(WFsCommitTracker *t, int64_t ckpt_id, bool all, WStrBuf *out)
{
    for (int i = 0; i < t->nparts; i++) {
        Part *p = &t->parts[i];
        if (!p->pending || (!all && (p->ckpt == 0 || p->ckpt > ckpt_id))) continue;
        if (out->len) wsb_putc(out, '\n');
        wsb_append(out, p->dir);
        /* rows after the barrier of ckpt_id go into a later info */
        if (!all && p->touched) p->ckpt = 0;
        else if (!all && p->last > ckpt_id) p->ckpt = p->last;
        else p->pending = false;
    }
    int k = 0;
    for (int i = 0; i < t->nwms; i++)
        if (t->wms[i].id > ckpt_id) t->wms[k++] = t->wms[i];
    t->nwms = k;
}

void wfs_commit_add(WFsCommitTracker *t, const char *rel, const char *dir, int64_t now_ms)
{
    bool was = false;
    for (int i = 0; i < t->nparts; i++)
        if (strcmp(t->parts[i].rel, rel) == 0) { was = t->parts[i].pending; break; }
    wfs_commit_touch(t, rel, dir);
    Part *p = &t->parts[t->last];
    if (!was) { p->ckpt = 1; p->created_ms = now_ms; }
}

void wfs_commit_snapshot(WFsCommitTracker *t, int64_t ckpt_id, int64_t wm)
{
    if (t->nwms == t->capwms) {
        t->capwms = t->capwms ? t->capwms * 2 : 4;
        t->wms = wrealloc(t->wms, sizeof(CkptWm) * (size_t)t->capwms);
    }
    t->wms[t->nwms++] = (CkptWm){ckpt_id, wm};
}

void wfs_commit_state(const WFsCommitTracker *t, WStrBuf *out)
{
    for (int i = 0; i < t->nparts; i++)
        if (t->parts[i].pending)
            wsb_printf(out, "#commit\t%lld\t%s\n", (long long)t->parts[i].created_ms, t->parts[i].dir);
}

bool wfs_commit_ready(WFsCommitTracker *t, int64_t ckpt_id, bool end_of_input, int64_t now_ms, WError *err)
{
    int64_t wm = INT64_MIN;
    int k = 0;
    for (int i = 0; i < t->nwms; i++) {
        if (t->wms[i].id == ckpt_id) wm = t->wms[i].wm;
        if (t->wms[i].id > ckpt_id) t->wms[k++] = t->wms[i];
    }
    t->nwms = k;
    for (int i = 0; i < t->nparts; i++) {
        Part *p = &t->parts[i];
        if (!p->pending) continue;
        if (!end_of_input) {
            if (p->ckpt == 0 || p->ckpt > ckpt_id) continue;       /* its files are not committed yet */
            if (t->c->partition_time) {
                int64_t pt;
                if (!rel_time(t->c, p->rel, &pt, err)) return false;
                if (!(wm > pt + t->c->delay_ms)) continue;
            } else if (now_ms - p->created_ms < t->c->delay_ms) {
                continue;
            }
        }
        if (!wfs_commit_partition_dir(t->c, p->dir, err)) return false;
        p->pending = false;
    }
    return true;
}
