/*
 * fuzz_formats.c — libFuzzer target for the filesystem formats' readers: the CSV reader under
 * 'csv' and 'changelog-csv' (src/connectors/csv_reader.c, format_csv.c) and the JSON reader under
 * 'json' and 'debezium-json' (format_json.c, format_debezium_json.c). The first input byte picks
 * the format and its options (ignore-parse-errors, comments, a null literal, schema-include, the
 * ISO-8601 timestamp standard); the rest is the file, read through an in-memory file into chunks of
 * a schema with every kind of column. Every row read is formatted back (the sink's writers).
 * Plain 'json' is read twice, by the fast line reader and through the document tree only
 * (wjsonfmt_reader_tree_only): rows, skipped lines and errors must be the same (abort otherwise);
 * with the mode's top bit, both read only some fields of the ROW column r (a query reading r.x and
 * r.in: the fast reader leaves r.s unconverted), and r.s is compared as NULL.
 * Depends on src/connectors, src/types, src/common.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../src/connectors/csv_reader.h"
#include "../../src/connectors/format_json.h"

enum { NCOLS = 12 };

static void schema(WArena *a, const WType **t, const char **names)
{
    static const char *const n[NCOLS] = {"id", "s", "d", "ts", "b", "f", "dt", "arr", "tm", "ltz", "bin", "r"};
    static const char *rn[] = {"x", "s", "in"};
    static const char *inn[] = {"q"};
    const WType *inner[] = {&WTYPE_INT};
    const WType *rt[] = {&WTYPE_BIGINT, &WTYPE_STRING, wtype_row(a, 1, inn, inner, true)};
    t[0] = &WTYPE_BIGINT;
    t[1] = &WTYPE_STRING;
    t[2] = wtype_decimal(a, 10, 2, true);
    t[3] = wtype_timestamp(a, WT_TIMESTAMP, 3, true);
    t[4] = &WTYPE_BOOLEAN;
    t[5] = &WTYPE_DOUBLE;
    t[6] = &WTYPE_DATE;
    t[7] = wtype_array(a, &WTYPE_INT, true);
    t[8] = wtype_time(a, 0, true);
    t[9] = wtype_timestamp(a, WT_TIMESTAMP_LTZ, 6, true);
    t[10] = &WTYPE_BYTES;
    t[11] = wtype_row(a, 3, rn, rt, true);
    for (int i = 0; i < NCOLS; i++) names[i] = n[i];
}

/* Column r's fields the masked reads read: x and the ROW in (its VARCHAR s is left unread). */
#define R_COL 11
#define R_READ ((uint64_t)1 << 0 | (uint64_t)1 << 2)

/* Read the file at path with a json reader into log: each row as written back, skipped lines,
   the error. tree: through the document tree only; skip_s: column s is not read; mask_r: only
   r.x and r.in are read (wjsonfmt_reader_read_fields) and r.s is logged as NULL by both reads. */
static void read_json(const WJsonFmt *cfg, const WType **types, const char **names, const char *path, WChunk *chunk,
                      bool tree, bool skip_s, bool mask_r, WStrBuf *log)
{
    WError err;
    werr_clear(&err);
    int64_t skipped = 0;
    WJsonReader *r = wjsonfmt_reader_new(cfg, NCOLS, names, types);
    if (tree) wjsonfmt_reader_tree_only(r);
    if (skip_s) wjsonfmt_reader_skip_column(r, 1);
    if (mask_r) wjsonfmt_reader_read_fields(r, R_COL, R_READ);
    int st = -1;
    if (wjsonfmt_reader_open(r, path, 0, 1, &err)) {
        for (int round = 0; round < 10000; round++) {
            wchunk_reset(chunk);
            st = wjsonfmt_reader_fill(r, chunk, &skipped, &err);
            for (int i = 0; i < chunk->nrows; i++) {
                WComposite *rx = chunk->cols[R_COL].nulls[i] ? NULL : chunk->cols[R_COL].data[i].cx;
                if (mask_r && rx && rx->n > 1) rx->nulls[1] = 1;       /* r.s: unread */
                WError werr;
                werr_clear(&werr);
                if (!wjsonfmt_write_row(cfg, NCOLS, names, types, chunk, i, log, &werr)) wsb_append(log, werr.msg);
            }
            if (st != 1) break;
        }
    }
    char tail[64];
    snprintf(tail, sizeof tail, "status %d, skipped %lld: ", st, (long long)skipped);
    wsb_append(log, tail);
    if (st < 0) wsb_append(log, err.msg);
    wjsonfmt_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    uint8_t mode = data[0];
    int fd = memfd_create("fuzz-formats", 0);
    if (fd < 0) return 0;
    if (size > 1 && write(fd, data + 1, size - 1) != (ssize_t)(size - 1)) { close(fd); return 0; }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);

    WArena a;
    warena_init(&a, 0);
    const WType *types[NCOLS];
    const char *names[NCOLS];
    schema(&a, types, names);
    WCastCtx cast = {0};
    WError err;
    werr_clear(&err);
    WChunk *chunk = wchunk_new(NCOLS, types, 64);
    WOptions o;
    wopts_init(&o);
    int64_t skipped = 0;
    WStrBuf out;
    wsb_init(&out);

    if ((mode & 3) < 2) {                       /* csv, changelog-csv */
        bool changelog = mode & 1;
        const char *pre = changelog ? "changelog-csv." : "csv.";
        char key[64];
        if (mode & 4) { snprintf(key, sizeof key, "%signore-parse-errors", pre); wopts_set(&o, key, "true"); }
        if (mode & 8) { snprintf(key, sizeof key, "%sallow-comments", pre); wopts_set(&o, key, "true"); }
        if (mode & 16) { snprintf(key, sizeof key, "%snull-literal", pre); wopts_set(&o, key, "n/a"); }
        if (mode & 32) { snprintf(key, sizeof key, "%sfield-delimiter", pre); wopts_set(&o, key, ";"); }
        if (mode & 64) { snprintf(key, sizeof key, "%sdisable-quote-character", pre); wopts_set(&o, key, "true"); }
        WCsvConfig cfg;
        wcsv_config_init(&cfg, changelog);
        if (wcsv_config_from_options(&cfg, &o, pre, changelog, &err)) {
            WCsvReader *r = wcsv_reader_new(&cfg, NCOLS, types, &cast);
            if (wcsv_reader_open(r, path, 0, 1, &err)) {
                for (int round = 0; round < 10000; round++) {
                    wchunk_reset(chunk);
                    WCsvStatus st = wcsv_reader_fill(r, chunk, &skipped, &err);
                    for (int i = 0; i < chunk->nrows; i++)
                        for (int c = 0; c < NCOLS; c++) {
                            wsb_clear(&out);
                            wcsv_write_value(&cfg, types[c], chunk->cols[c].data[i], chunk->cols[c].nulls[i], &out);
                        }
                    if (st != WCSV_MORE) break;
                }
            }
            wcsv_reader_free(r);
        }
        wcsv_config_free(&cfg);
    } else {                                    /* json, debezium-json */
        bool dbz = (mode & 3) == 3;
        const char *fmt = dbz ? "debezium-json" : "json";
        char key[64];
        if (mode & 4) { snprintf(key, sizeof key, "%s.ignore-parse-errors", fmt); wopts_set(&o, key, "true"); }
        if (mode & 8) { snprintf(key, sizeof key, "%s.timestamp-format.standard", fmt); wopts_set(&o, key, "ISO-8601"); }
        if (dbz && (mode & 16)) wopts_set(&o, "debezium-json.schema-include", "true");
        if (!dbz && (mode & 16)) wopts_set(&o, "json.fail-on-missing-field", "true");
        if (!dbz && (mode & 64)) wopts_set(&o, "json.decode.json-parser.enabled", "false");
        WJsonFmt cfg;
        if (wjsonfmt_config(&cfg, &o, fmt, true, &err)) {
            WStrBuf tree;
            wsb_init(&tree);
            wsb_append(&out, "");
            wsb_append(&tree, "");
            read_json(&cfg, types, names, path, chunk, false, (mode & 32) != 0, (mode & 128) != 0, &out);
            if (!dbz) {
                read_json(&cfg, types, names, path, chunk, true, (mode & 32) != 0, (mode & 128) != 0, &tree);
                if (strcmp(out.buf, tree.buf) != 0) {
                    fprintf(stderr, "fast json reader:\n%s\ntree:\n%s\n", out.buf, tree.buf);
                    abort();
                }
            }
            wsb_free(&tree);
            wjsonfmt_config_free(&cfg);
        }
    }
    wsb_free(&out);
    wopts_free(&o);
    wchunk_free(chunk);
    warena_free(&a);
    close(fd);
    return 0;
}
