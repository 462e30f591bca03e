/*
 * kafka_codec.c — the key and value formats of Kafka records (see kafka.h): 'csv' (one CSV record,
 * no line separator: Flink's CsvRowDataSerializationSchema), 'json' (one JSON object) and 'raw'
 * (the bytes of one STRING or BYTES column). Values are converted by the filesystem formats' code
 * (wcsv_convert / wcsv_write_value, wjsonfmt_read_object / wjsonfmt_write_object), so the
 * semantics and messages are the same as for files. Depends on kafka.h.
 */
#include "kafka.h"
#include "conn_internal.h"

#include <stdlib.h>
#include <string.h>

static bool prefixed_options(const WOptions *o, const char *opt_prefix, const char *format, WOptions *out)
{
    /* "<opt_prefix><format>.x" -> "<format>.x", the keys the format readers look up */
    wopts_init(out);
    size_t pl = strlen(opt_prefix);
    for (int i = 0; o && i < o->n; i++)
        if (strncmp(o->items[i].key, opt_prefix, pl) == 0 && strncmp(o->items[i].key + pl, format, strlen(format)) == 0 &&
            o->items[i].key[pl + strlen(format)] == '.')
            wopts_set(out, o->items[i].key + pl, o->items[i].value);
    return true;
}

bool wkafka_codec_init(WKafkaCodec *c, const char *format, const char *opt_prefix, const WOptions *o,
                       bool as_source, const WTableSpec *spec, WError *err)
{
    WOptions fo;
    prefixed_options(o, opt_prefix, format, &fo);
    bool ok = true;
    if (strcmp(format, "csv") == 0) {
        c->kind = WKF_CSV;
        wcsv_config_init(&c->csv, false);
        ok = wcsv_config_from_options(&c->csv, &fo, "csv.", false, err) &&
             wcsv_check_types(c->ncols, c->names, c->types, err);
    } else if (strcmp(format, "json") == 0) {
        c->kind = WKF_JSON;
        ok = wjsonfmt_config(&c->json, &fo, "json", as_source, err) &&
             wjsonfmt_check_types(c->ncols, c->names, c->types, err);
        if (ok && as_source) c->jrd = wjsonfmt_reader_new(&c->json, c->ncols, c->names, c->types);
    } else if (strcmp(format, "raw") == 0) {
        c->kind = WKF_RAW;
        const char *cs = wopts_get(&fo, "raw.charset");
        const char *en = wopts_get(&fo, "raw.endianness");
        if (cs && strcasecmp(cs, "UTF-8") != 0)
            ok = werr_set(err, WEXC_VALIDATION, "Option '%sraw.charset' = '%s' is not supported by weir yet (UTF-8 only).",
                          opt_prefix, cs);
        else if (en && strcasecmp(en, "big-endian") != 0 && strcasecmp(en, "little-endian") != 0)
            ok = werr_set(err, WEXC_VALIDATION, "Unsupported endianness name: %s.", en);
        else if (c->ncols != 1)
            ok = werr_set(err, WEXC_VALIDATION,
                          "The 'raw' format only supports single physical column. However the defined schema "
                          "contains multiple physical columns: [%s%s]", c->ncols ? c->names[0] : "", c->ncols > 1 ? ", ..." : "");
        else if (c->types[0]->id != WT_VARCHAR && c->types[0]->id != WT_CHAR && c->types[0]->id != WT_VARBINARY &&
                 c->types[0]->id != WT_BINARY)
            ok = werr_set(err, WEXC_VALIDATION,
                          "weir's 'raw' format reads and writes STRING and BYTES columns only, not column '%s'.",
                          c->names[0]);
    } else {
        ok = werr_set(err, WEXC_VALIDATION,
                      "Could not find any format factory for identifier '%s' in the classpath.", format);
    }
    wopts_free(&fo);
    if (!ok) return false;
    c->row = wchunk_new(c->ncols, c->types, 4);
    c->view_cols = wcalloc((size_t)(c->ncols ? c->ncols : 1), sizeof(WVector));
    wsb_init(&c->buf);
    (void)spec;
    return true;
}

void wkafka_codec_free(WKafkaCodec *c)
{
    if (c->kind == WKF_CSV) wcsv_config_free(&c->csv);
    if (c->kind == WKF_JSON) wjsonfmt_config_free(&c->json);
    if (c->jrd) wjsonfmt_reader_free(c->jrd);
    if (c->row) wchunk_free(c->row);
    wsb_free(&c->buf);
    free(c->view_cols);
    free(c->cols);
    free(c->names);
    free(c->types);
    memset(c, 0, sizeof *c);
}

/* Split one CSV record into fields (quotes and the escape character as Jackson's CsvParser reads
   them) and convert each. */
static int decode_csv(WKafkaCodec *c, const char *p, size_t n, char *eb, size_t esz)
{
    while (n > 0 && (p[n - 1] == '\n' || p[n - 1] == '\r')) n--;
    WChunk *row = c->row;
    int r = wchunk_add_row(row, WRK_INSERT);
    char *tmp = wa_alloc(row->arena, n + 1);
    size_t i = 0;
    for (int col = 0; col < c->ncols; col++) {
        if (i > n) { row->cols[col].nulls[r] = 1; continue; }   /* fewer fields: NULL */
        size_t len = 0;
        bool quoted = false;
        const char *raw = NULL;     /* the field's bytes in p (not copied to tmp) */
        if (i < n && c->csv.quote >= 0 && p[i] == (char)c->csv.quote) {
            quoted = true;
            i++;
            while (i < n) {
                if (c->csv.escape >= 0 && p[i] == (char)c->csv.escape && i + 1 < n) { tmp[len++] = p[i + 1]; i += 2; continue; }
                if (p[i] == (char)c->csv.quote) {
                    if (i + 1 < n && p[i + 1] == (char)c->csv.quote) { tmp[len++] = p[i]; i += 2; continue; }
                    i++;
                    break;
                }
                tmp[len++] = p[i++];
            }
            while (i < n && p[i] != c->csv.delim) i++;
        } else if (c->csv.escape < 0) {
            /* unquoted without an escape character: the field is the bytes up to the delimiter;
               only a string's value keeps pointing at them, so only a string is copied */
            const char *d = i < n ? memchr(p + i, c->csv.delim, n - i) : NULL;
            size_t end = d ? (size_t)(d - p) : n;
            len = end - i;
            raw = p + i;
            i = end;
        } else {
            while (i < n && p[i] != c->csv.delim) {
                if (p[i] == (char)c->csv.escape && i + 1 < n) { tmp[len++] = p[i + 1]; i += 2; continue; }
                tmp[len++] = p[i++];
            }
        }
        i++;    /* the delimiter (or one past the end) */
        if (raw && wtype_is_string(c->types[col])) {
            memcpy(tmp, raw, len);
            raw = NULL;
        }
        const char *s = raw ? raw : tmp;
        if (!raw) tmp += len;
        if (c->csv.null_literal && (!quoted || c->csv.null_literal_quoted) && (int)len == c->csv.null_literal_len &&
            memcmp(s, c->csv.null_literal, len) == 0) {
            row->cols[col].nulls[r] = 1;
            continue;
        }
        int k = wcsv_convert(&c->csv, c->types[col], s, (int)len, &row->cols[col].data[r], row->arena, eb, esz);
        if (k < 0) {
            if (c->csv.ignore_errors) { row->nrows--; return 0; }
            char cause[256];
            snprintf(cause, sizeof cause, "%s", eb);
            snprintf(eb, esz, "Failed to deserialize CSV row '%.*s', field '%s': %s", (int)(n > 200 ? 200 : n), p,
                     c->names[col], cause);
            row->nrows--;
            return -1;
        }
        row->cols[col].nulls[r] = k != 1;
    }
    return 1;
}

static int decode_json(WKafkaCodec *c, const char *p, size_t n, char *eb, size_t esz)
{
    char cause[256];
    WJson *doc = wjson_parse(c->row->arena, p, n, false, cause, sizeof cause);
    if (doc && doc->kind != WJ_OBJECT) {
        doc = NULL;
        snprintf(cause, sizeof cause, "No content to map due to end-of-input");
    }
    int bad = -1;
    if (doc && wjsonfmt_read_object(c->jrd, doc, c->row, WRK_INSERT, &bad, cause, sizeof cause) > 0) return 1;
    if (!doc && c->json.ignore_errors) return 0;
    int shown = n > 200 ? 200 : (int)n;
    if (bad >= 0)
        snprintf(eb, esz, "Failed to deserialize JSON '%.*s%s', field '%s': %s", shown, p, (int)n > shown ? "..." : "",
                 c->names[bad], cause);
    else
        snprintf(eb, esz, "Failed to deserialize JSON '%.*s%s': %s", shown, p, (int)n > shown ? "..." : "", cause);
    return -1;
}

int wkafka_codec_decode(WKafkaCodec *c, const void *p, size_t n, WArena *arena, char *eb, size_t esz)
{
    /* the row's vectors stay (allocated once in the row's own arena); the values' bytes go to the
       caller's arena for the time of the decode, so that they need no copy (per record) */
    WChunk *row = c->row;
    row->nrows = 0;
    WArena *own = row->arena;
    row->arena = arena;
    int rc;
    if (c->kind == WKF_RAW) {
        int r = wchunk_add_row(row, WRK_INSERT);
        if (!p) row->cols[0].nulls[r] = 1;
        else {
            row->cols[0].data[r].s = (WStr){wa_memdup(row->arena, p, n ? n : 1), (int32_t)n};
            row->cols[0].nulls[r] = 0;
        }
        rc = 1;
    } else if (!p) {
        rc = 0;     /* a tombstone: no row (Flink's deserializers give null) */
    } else {
        rc = c->kind == WKF_CSV ? decode_csv(c, p, n, eb, esz) : decode_json(c, p, n, eb, esz);
    }
    row->arena = own;
    return rc;
}

bool wkafka_codec_encode(WKafkaCodec *c, const WChunk *in, int row, WError *err)
{
    wsb_clear(&c->buf);
    if (c->kind == WKF_RAW) {
        const WVector *v = &in->cols[c->cols[0]];
        if (!v->nulls[row]) wsb_appendn(&c->buf, v->data[row].s.p, (size_t)v->data[row].s.len);
        return true;
    }
    for (int i = 0; i < c->ncols; i++) c->view_cols[i] = in->cols[c->cols[i]];
    c->view = (WChunk){.ncols = c->ncols, .nrows = in->nrows, .cap = in->cap, .types = c->types,
                       .cols = c->view_cols, .kinds = in->kinds, .arena = in->arena};
    if (c->kind == WKF_JSON) return wjsonfmt_write_object(&c->json, c->ncols, c->names, c->types, &c->view, row, &c->buf, err);
    wcsv_write_row(&c->csv, c->ncols, c->types, &c->view, row, &c->buf);
    while (c->buf.len && c->buf.buf[c->buf.len - 1] == '\n') c->buf.buf[--c->buf.len] = 0;
    return true;
}
