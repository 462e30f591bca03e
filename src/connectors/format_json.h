/*
 * format_json.h — private to src/connectors: Flink's 'json' and 'debezium-json' formats for the
 * filesystem connector (JSON lines: one object per line), reader and row writer.
 *
 * Contract:
 *  - WJsonFmt holds the format options (json.fail-on-missing-field, json.ignore-parse-errors,
 *    json.timestamp-format.standard, json.map-null-key.mode / .literal,
 *    json.encode.decimal-as-plain-number, json.encode.ignore-null-fields,
 *    json.decode.json-parser.enabled; for 'debezium-json' the same keys under its own prefix but
 *    without fail-on-missing-field and json-parser.enabled, plus schema-include); wjsonfmt_config
 *    reads and validates them with Flink's messages (JsonFormatOptionsUtil,
 *    DebeziumJsonFormatFactory).
 *  - 'debezium-json' wraps each row in Debezium's envelope {"before":..,"after":..,"op":..}
 *    (format_debezium_json.c): the reader turns one line into +I, -U/+U or -D rows, the writer
 *    one row into one line; the column values inside the envelope are read and written by the
 *    'json' code below.
 *  - A WJsonReader reads one file line by line; each line is one JSON object whose members are
 *    matched to the columns by name (JsonParserToRowDataConverters). Values are copied into the
 *    chunk's arena. Bad lines fail with "Failed to deserialize JSON '<line>' at <file>:<line>..."
 *    or, with ignore-parse-errors, are skipped (a malformed line) or read as NULL (a bad field).
 *  - wjsonfmt_write_row renders a row as one compact JSON object and "\n" (RowDataToJsonConverters).
 * Depends on common/json.h, csv_reader.h (shared scalar conversions), types/, common/.
 */
#ifndef WEIR_CONNECTORS_FORMAT_JSON_H
#define WEIR_CONNECTORS_FORMAT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include "../types/type.h"
#include "../types/chunk.h"
#include "../common/options.h"
#include "../common/error.h"
#include "../common/strbuf.h"
#include "../common/json.h"

typedef enum { WJF_NULLKEY_FAIL, WJF_NULLKEY_DROP, WJF_NULLKEY_LITERAL } WJsonNullKeyMode;

/* How a line holds a row: the row object itself ('json') or Debezium's change envelope. */
typedef enum { WJF_PLAIN, WJF_DEBEZIUM } WJsonEnvelope;

typedef struct WJsonFmt {
    WJsonEnvelope envelope;
    bool schema_include;        /* debezium-json.schema-include: the envelope is under "payload" */
    bool fail_on_missing;
    bool ignore_errors;
    bool iso8601;               /* timestamp-format.standard = ISO-8601 (else SQL) */
    WJsonNullKeyMode null_key;
    char *null_key_literal;     /* heap */
    bool decimal_plain;
    bool ignore_null_fields;
    /* Numbers are read as Jackson tree nodes (Flink's JsonRowDataDeserializationSchema: always for
       'debezium-json', for 'json' with json.decode.json-parser.enabled = false) instead of
       through the streaming parser: a number token reaches a column as its node's text
       (IntNode/DoubleNode, or a DecimalNode without trailing zeros when a column read has a
       DECIMAL type: USE_BIG_DECIMAL_FOR_FLOATS), so -0 and, with DECIMAL columns, -0.0 read as 0.0
       and a STRING column gets "1000.0" for 1e3. */
    bool tree_nodes;
} WJsonFmt;

/* Read the options "<format>.*" of o for format "json" or "debezium-json" (unknown keys under the
   prefix are ignored, as Flink's filesystem connector does). Validation as Flink's (decoding
   options for a source, encoding ones for a sink): both fail-on-missing-field and
   ignore-parse-errors true, an unknown timestamp standard or null-key mode, a non-boolean value,
   debezium-json.schema-include on a sink. */
bool wjsonfmt_config(WJsonFmt *cfg, const WOptions *o, const char *format, bool as_source, WError *err);
void wjsonfmt_config_free(WJsonFmt *cfg);
/* Types the format cannot map (MAP/MULTISET keys that are not strings, NULL, ...). */
bool wjsonfmt_check_types(int ncols, const char **names, const WType **types, WError *err);

typedef struct WJsonReader WJsonReader;
WJsonReader *wjsonfmt_reader_new(const WJsonFmt *cfg, int ncols, const char **names, const WType **types);
void wjsonfmt_reader_free(WJsonReader *r);
/* Leave column col unread: it reads as NULL and is never converted (a projection pushed into the
   source, as WTableSpec.col_read says). */
void wjsonfmt_reader_skip_column(WJsonReader *r, int col);
/* Of ROW column col, the query reads the fields in mask (bit k: field k; UINT64_MAX: all, as
   WTableSpec.col_fields_read says). The fast line reader leaves the others of type CHAR/VARCHAR
   unconverted (NULL): any JSON value converts to a string, so no line that fails in full can pass
   so; their syntax is still checked. Not under fail-on-missing-field (a missing field fails even
   when unread), nor for fields of other types (their conversion can fail a line). */
void wjsonfmt_reader_read_fields(WJsonReader *r, int col, uint64_t mask);
bool wjsonfmt_reader_open(WJsonReader *r, const char *path, int64_t offset, int64_t line, WError *err);
void wjsonfmt_reader_close(WJsonReader *r);
/* 1 = more (chunk full), 0 = end of file, -1 = error (as WCsvStatus). A debezium-json line may
   add two rows (-U, +U): out->cap must be at least 2. */
int wjsonfmt_reader_fill(WJsonReader *r, WChunk *out, int64_t *skipped, WError *err);
void wjsonfmt_reader_position(const WJsonReader *r, int64_t *offset, int64_t *line);
/* For tests: read every line through the document tree (no fast line reader); the number of
   lines the fast line reader took. */
void wjsonfmt_reader_tree_only(WJsonReader *r);
int64_t wjsonfmt_reader_fast_lines(const WJsonReader *r);

/* Append row `row` of c as a JSON object line (debezium-json: the row in its envelope, by the
   row's kind); false with err set for a map with a NULL key under map-null-key.mode FAIL. */
bool wjsonfmt_write_row(const WJsonFmt *cfg, int ncols, const char **names, const WType **types,
                        const WChunk *c, int row, WStrBuf *out, WError *err);

/* ---- shared with format_debezium_json.c (the envelope around the json rows) ---- */

/* Append row `row` of c (kind kind) to out from the members of JSON object obj, matched to the
   columns by name. 1 = added; -1 = a value cannot be converted (the row is not added, *bad_col is
   the column, eb the cause); with ignore-parse-errors bad values read as NULL instead. */
int wjsonfmt_read_object(WJsonReader *r, const WJson *obj, WChunk *out, WRowKind kind, int *bad_col,
                         char *eb, size_t esz);
/* Name of column i of the reader; the reader's options. */
const char *wjsonfmt_reader_column(const WJsonReader *r, int i);
const WJsonFmt *wjsonfmt_reader_config(const WJsonReader *r);
/* A data error of the line being read: "<what> '<line>' at <file>:<line>[, field '<field>']: <cause>"
   (IOException with file and line set); always returns false. */
bool wjsonfmt_line_error(WJsonReader *r, const char *what, const char *line, int len, const char *field,
                         const char *cause, WError *err);
/* Row `row` of c as a compact JSON object (no newline). */
bool wjsonfmt_write_object(const WJsonFmt *cfg, int ncols, const char **names, const WType **types,
                           const WChunk *c, int row, WStrBuf *out, WError *err);

/* format_debezium_json.c: decode one line's envelope doc into 0..2 rows of out (1 = rows added or
   the line skipped, -1 = error with err set), and write row `row` of c in its envelope. */
int wdbzjson_read_line(WJsonReader *r, const WJson *doc, const char *line, int len, WChunk *out,
                       int64_t *skipped, WError *err);
bool wdbzjson_write_row(const WJsonFmt *cfg, int ncols, const char **names, const WType **types,
                        const WChunk *c, int row, WStrBuf *out, WError *err);

#endif
