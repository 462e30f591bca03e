/*
 * format_debezium_json.c — the envelope of Flink's 'debezium-json' format (see format_json.h):
 * each line is a Debezium change event {"before": <row>, "after": <row>, "op": "c|r|u|d", ...},
 * with debezium-json.schema-include the same under "payload" ({"schema": ..., "payload": {...}}).
 *
 * Reading, as Flink 2.3's DebeziumJsonDeserializationSchema: "c" (insert) and "r" (snapshot read)
 * give +I of "after"; "u" gives -U of "before" then +U of "after"; "d" gives -D of "before".
 * Other members ("source", "ts_ms", "transaction") are ignored, and so are unknown members of the
 * rows, missing ones read as NULL. An empty line gives no rows. Everything else that Flink
 * rejects is a "Corrupt Debezium JSON message" error naming the line, file:line and the cause:
 * a line that is not a JSON object, no "payload" with schema-include, no "op", an "op" that is not
 * one of c/r/u/d (Flink: 'Unknown "op" value'), a missing "before" for "u"/"d" (Flink's
 * REPLICA IDENTITY hint), a missing "after" for "c"/"r"/"u", a row that is not an object, a value
 * that does not convert to its column. With debezium-json.ignore-parse-errors such lines are
 * skipped and counted, and a value that does not convert reads as NULL (Flink's converters).
 * Column values are converted by the 'json' reader (wjsonfmt_read_object).
 *
 * Writing, as DebeziumJsonSerializationSchema: +I and +U as {"before":null,"after":{..},"op":"c"},
 * -U and -D as {"before":{..},"after":null,"op":"d"} (an update is a delete and an insert: Flink
 * writes no "u"); the row objects by the 'json' writer, so the encode options
 * (decimal-as-plain-number, timestamp standard, map-null-key, ignore-null-fields — which also
 * leaves out the envelope's null member) apply.
 * Depends on format_json.h, common/json.h, types/.
 */
#include "format_json.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#define CORRUPT "Corrupt Debezium JSON message"

/* The text of "op" as Flink's STRING conversion gives it (JSON text of a container). */
static void op_text(const WJson *op, WStrBuf *out)
{
    switch (op->kind) {
    case WJ_STRING: case WJ_NUMBER: wsb_appendn(out, op->s, (size_t)op->len); break;
    case WJ_TRUE: wsb_append(out, "true"); break;
    case WJ_FALSE: wsb_append(out, "false"); break;
    default: wjson_write(op, false, out); break;
    }
}

static bool is_null(const WJson *v) { return !v || v->kind == WJ_NULL; }

/* Add the row of member `which` ("before"/"after") of the envelope with kind; 1 = added, 0 = the
   line is corrupt (cause in eb, the column in *field), never partially added. */
static int add_row(WJsonReader *r, const WJson *env, const char *which, WRowKind kind, WChunk *out,
                   char *field, size_t fsz, char *eb, size_t esz)
{
    const WJson *v = wjson_get(env, which, strlen(which));
    field[0] = 0;
    if (is_null(v)) {
        if (kind == WRK_UPDATE_BEFORE || kind == WRK_DELETE)
            snprintf(eb, esz, "The \"before\" field of %s message is null, if you are using Debezium Postgres "
                     "Connector, please check the Postgres table has been set REPLICA IDENTITY to FULL level.",
                     kind == WRK_DELETE ? "DELETE" : "UPDATE");
        else
            snprintf(eb, esz, "The \"%s\" field of %s message is null.", which,
                     kind == WRK_INSERT ? "a create or read" : "an UPDATE");
        return 0;
    }
    if (v->kind != WJ_OBJECT) {
        snprintf(eb, esz, "The \"%s\" field is not a JSON object.", which);
        return 0;
    }
    int bad = -1;
    if (wjsonfmt_read_object(r, v, out, kind, &bad, eb, esz) < 0) {
        if (bad >= 0) snprintf(field, fsz, "%s.%s", which, wjsonfmt_reader_column(r, bad));
        return 0;
    }
    return 1;
}

int wdbzjson_read_line(WJsonReader *r, const WJson *doc, const char *line, int len, WChunk *out,
                       int64_t *skipped, WError *err)
{
    assert(doc && out->cap - out->nrows >= 2);
    const WJsonFmt *cfg = wjsonfmt_reader_config(r);
    bool ignore = cfg->ignore_errors;
    char eb[600], field[300];
    field[0] = 0;
    int start = out->nrows;
    const WJson *env = doc;
    bool ok = false;
    if (doc->kind != WJ_OBJECT) {
        snprintf(eb, sizeof eb, "The message is not a JSON object.");
    } else if (cfg->schema_include && is_null(env = wjson_get(doc, "payload", 7))) {
        snprintf(eb, sizeof eb, "The message has no \"payload\" (debezium-json.schema-include is true).");
    } else if (env->kind != WJ_OBJECT) {
        snprintf(eb, sizeof eb, "The \"payload\" field is not a JSON object.");
    } else {
        const WJson *op = wjson_get(env, "op", 2);
        if (is_null(op)) {
            snprintf(eb, sizeof eb, "The message has no \"op\" field.");
        } else {
            WStrBuf t;
            wsb_init(&t);
            op_text(op, &t);
            if (!strcmp(t.buf, "c") || !strcmp(t.buf, "r")) {
                ok = add_row(r, env, "after", WRK_INSERT, out, field, sizeof field, eb, sizeof eb);
            } else if (!strcmp(t.buf, "u")) {
                /* Flink checks "before" first, then converts both */
                ok = add_row(r, env, "before", WRK_UPDATE_BEFORE, out, field, sizeof field, eb, sizeof eb) &&
                     add_row(r, env, "after", WRK_UPDATE_AFTER, out, field, sizeof field, eb, sizeof eb);
            } else if (!strcmp(t.buf, "d")) {
                ok = add_row(r, env, "before", WRK_DELETE, out, field, sizeof field, eb, sizeof eb);
            } else {
                snprintf(eb, sizeof eb, "Unknown \"op\" value \"%.100s\".", t.buf);
            }
            wsb_free(&t);
        }
    }
    if (ok) return 1;
    out->nrows = start;         /* no half of an update */
    if (ignore) {
        if (skipped) (*skipped)++;
        return 1;
    }
    wjsonfmt_line_error(r, CORRUPT, line, len, field[0] ? field : NULL, eb, err);
    return -1;
}

bool wdbzjson_write_row(const WJsonFmt *cfg, int ncols, const char **names, const WType **types,
                        const WChunk *c, int row, WStrBuf *out, WError *err)
{
    assert(cfg->envelope == WJF_DEBEZIUM);
    WRowKind k = (WRowKind)c->kinds[row];
    bool insert = k == WRK_INSERT || k == WRK_UPDATE_AFTER;
    size_t mark = out->len;
    wsb_putc(out, '{');
    if (insert) {
        if (!cfg->ignore_null_fields) wsb_append(out, "\"before\":null,");
        wsb_append(out, "\"after\":");
        if (!wjsonfmt_write_object(cfg, ncols, names, types, c, row, out, err)) goto fail;
        wsb_append(out, ",\"op\":\"c\"}\n");
    } else {
        wsb_append(out, "\"before\":");
        if (!wjsonfmt_write_object(cfg, ncols, names, types, c, row, out, err)) goto fail;
        wsb_append(out, cfg->ignore_null_fields ? ",\"op\":\"d\"}\n" : ",\"after\":null,\"op\":\"d\"}\n");
    }
    return true;
fail:
    out->len = mark;
    out->buf[mark] = 0;
    return false;
}
