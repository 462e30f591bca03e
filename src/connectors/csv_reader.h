/*
 * csv_reader.h — the CSV parser behind the filesystem source (formats 'csv' and 'changelog-csv'),
 * plus the CSV value conversions and the CSV row writer shared by the filesystem sink.
 *
 * Contract:
 *  - WCsvConfig holds the format options (csv.field-delimiter, quote, escape, comments, null
 *    literal, ignore-parse-errors, array element delimiter); wcsv_config_from_options reads and
 *    validates them from a table's WITH options under a prefix ("csv." / "changelog-csv.") with
 *    Flink's messages.
 *  - A WCsvReader reads one file at a time with large buffered reads and parses rows straight into
 *    a chunk's column vectors. String datums point into the reader's buffer, which stays put until
 *    the next wcsv_reader_fill call (the chunk contract's "source read buffer" case); unescaped
 *    values are copied into the chunk's arena. Values follow Flink's CSV format (Jackson +
 *    CsvToRowDataConverters): numbers are trimmed, BOOLEAN is Boolean.parseBoolean, DATE/TIME/
 *    TIMESTAMP use the SQL text forms, BYTES are base64. An empty field of a non-string column is
 *    NULL (Flink would fail with NumberFormatException; weir reads its own sink's NULLs back).
 *  - Data errors carry the file and line (WError.file/file_line) and name the column.
 *  - wcsv_convert / wcsv_write_value are the per-value conversions (format_csv.c).
 * Depends on types/, common/.
 */
#ifndef WEIR_CONNECTORS_CSV_READER_H
#define WEIR_CONNECTORS_CSV_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../types/type.h"
#include "../types/chunk.h"
#include "../types/cast.h"
#include "../common/options.h"
#include "../common/error.h"
#include "../common/strbuf.h"

typedef struct WCsvConfig {
    char delim;                 /* csv.field-delimiter (default ',') */
    int quote;                  /* csv.quote-character, -1 when disabled */
    int escape;                 /* csv.escape-character, -1 when none */
    bool allow_comments;        /* csv.allow-comments: skip lines starting with '#' */
    bool ignore_errors;         /* csv.ignore-parse-errors */
    char array_delim;           /* csv.array-element-delimiter (default ';') */
    char *null_literal;         /* csv.null-literal (heap, NULL when unset) */
    int null_literal_len;
    bool null_literal_quoted;   /* a quoted field equal to the literal is NULL too (csv: yes) */
    bool decimal_scientific;    /* csv.write-bigdecimal-in-scientific-notation (default true) */
    bool changelog;             /* changelog-csv: first field is the row kind; bare NULL = NULL */
    bool legacy;                /* the rules of Flink's legacy CsvTableSource ('connector.type' =
                                   'filesystem'): an empty field of a type other than a string is
                                   NULL, fields after the table's columns are not read */
} WCsvConfig;

/* Defaults for the format (changelog: changelog-csv conventions). */
void wcsv_config_init(WCsvConfig *cfg, bool changelog);
void wcsv_config_free(WCsvConfig *cfg);
/* Read and validate "<prefix>field-delimiter" etc. Unknown keys under the prefix are ignored, as
   Flink's filesystem connector does. Messages as Flink's CsvCommons. */
bool wcsv_config_from_options(WCsvConfig *cfg, const WOptions *o, const char *prefix, bool changelog,
                              WError *err);
/* Check that every column type can be read/written as CSV (Flink's CsvRowSchemaConverter rules). */
bool wcsv_check_types(int ncols, const char **names, const WType **types, WError *err);

/* ---- reading ---- */

typedef struct WCsvReader WCsvReader;

typedef enum WCsvStatus { WCSV_MORE = 1, WCSV_EOF = 0, WCSV_ERROR = -1 } WCsvStatus;

/* Column `col` is not read by the query: its field is still split off but not converted, so a
   value that would not parse does not fail the row (Flink's projected csv reading); it reads as
   NULL. */
void wcsv_reader_skip_column(WCsvReader *r, int col);
WCsvReader *wcsv_reader_new(const WCsvConfig *cfg, int ncols, const WType **types,
                            const WCastCtx *cast);
void wcsv_reader_free(WCsvReader *r);
/* Open a file, positioned at byte `offset` (0 = start; a BOM is skipped there) which is line
   `line` (1-based). Closes a previously open file. */
bool wcsv_reader_open(WCsvReader *r, const char *path, int64_t offset, int64_t line, WError *err);
void wcsv_reader_close(WCsvReader *r);
/* Parse rows appending to `out` until it is full or the buffer needs a refill (WCSV_MORE), the
   file ends (WCSV_EOF; rows may have been added) or an error (WCSV_ERROR, err set). Rows from a
   previous call must be consumed before calling again (their strings point into the buffer).
   *skipped counts rows dropped under ignore-parse-errors. */
WCsvStatus wcsv_reader_fill(WCsvReader *r, WChunk *out, int64_t *skipped, WError *err);
/* Byte offset and line of the next unread row of the open file. */
void wcsv_reader_position(const WCsvReader *r, int64_t *offset, int64_t *line);

/* ---- values (format_csv.c) ---- */

/* Convert the text of one field (already unquoted/unescaped) to a value of type t with Flink's CSV
   semantics. Returns 1 = value, 0 = NULL, -1 = error (cause written to errbuf, Java-style, e.g.
   `For input string: "abc"`). Bytes are copied into `a` only when needed (composites, BYTES). */
int wcsv_convert(const WCsvConfig *cfg, const WType *t, const char *s, int len, WDatum *out,
                 WArena *a, char *errbuf, size_t errsz);
/* Append one value as CSV text (quoted when Jackson's CsvGenerator would quote it). */
void wcsv_write_value(const WCsvConfig *cfg, const WType *t, WDatum v, bool is_null, WStrBuf *out);
/* Append a whole row (changelog: kind first) terminated by "\n". */
void wcsv_write_row(const WCsvConfig *cfg, int ncols, const WType **types, const WChunk *c, int row,
                    WStrBuf *out);

/* Java BigDecimal.toString (scientific) / toPlainString of unscaled*10^-scale. buf >= 64. */
int wcsv_bigdecimal_string(__int128 unscaled, int scale, bool scientific, char *buf);

#endif
