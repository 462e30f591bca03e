/*
 * format_json.h — private to src/connectors: Flink's 'json' format for the filesystem connector
 * (JSON lines: one object per line), reader and row writer.
 *
 * Contract:
 *  - WJsonFmt holds the format options (json.fail-on-missing-field, json.ignore-parse-errors,
 *    json.timestamp-format.standard, json.map-null-key.mode / .literal,
 *    json.encode.decimal-as-plain-number, json.encode.ignore-null-fields,
 *    json.decode.json-parser.enabled); wjsonfmt_config reads and validates them with Flink's
 *    messages (JsonFormatOptionsUtil).
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

typedef enum { WJF_NULLKEY_FAIL, WJF_NULLKEY_DROP, WJF_NULLKEY_LITERAL } WJsonNullKeyMode;

typedef struct WJsonFmt {
    bool fail_on_missing;
    bool ignore_errors;
    bool iso8601;               /* timestamp-format.standard = ISO-8601 (else SQL) */
    WJsonNullKeyMode null_key;
    char *null_key_literal;     /* heap */
    bool decimal_plain;
    bool ignore_null_fields;
} WJsonFmt;

/* Read "json.*" of o (unknown keys under the prefix are ignored, as Flink's filesystem connector
   does). Validation as Flink's (decoding options for a source, encoding ones for a sink): both
   fail-on-missing-field and ignore-parse-errors true, an unknown timestamp standard or null-key
   mode, a non-boolean value. */
bool wjsonfmt_config(WJsonFmt *cfg, const WOptions *o, bool as_source, WError *err);
void wjsonfmt_config_free(WJsonFmt *cfg);
/* Types the format cannot map (MAP/MULTISET keys that are not strings, NULL, ...). */
bool wjsonfmt_check_types(int ncols, const char **names, const WType **types, WError *err);

typedef struct WJsonReader WJsonReader;
WJsonReader *wjsonfmt_reader_new(const WJsonFmt *cfg, int ncols, const char **names, const WType **types);
void wjsonfmt_reader_free(WJsonReader *r);
bool wjsonfmt_reader_open(WJsonReader *r, const char *path, int64_t offset, int64_t line, WError *err);
void wjsonfmt_reader_close(WJsonReader *r);
/* 1 = more (chunk full), 0 = end of file, -1 = error (as WCsvStatus). */
int wjsonfmt_reader_fill(WJsonReader *r, WChunk *out, int64_t *skipped, WError *err);
void wjsonfmt_reader_position(const WJsonReader *r, int64_t *offset, int64_t *line);

/* Append row `row` of c as a JSON object line; false with err set for a map with a NULL key under
   map-null-key.mode FAIL. */
bool wjsonfmt_write_row(const WJsonFmt *cfg, int ncols, const char **names, const WType **types,
                        const WChunk *c, int row, WStrBuf *out, WError *err);

#endif
