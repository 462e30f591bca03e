/*
 * format_changelog_csv.c — weir's 'changelog-csv' format and the format registry of the
 * filesystem connector ('csv', 'changelog-csv', 'json', 'debezium-json').
 *
 * changelog-csv is CSV whose first field is the row kind (+I, -U, +U, -D or INSERT,
 * UPDATE_BEFORE, UPDATE_AFTER, DELETE), followed by the physical columns. It follows the
 * conformance corpus conventions (FORMAT.md §4): a bare, upper-case NULL is SQL NULL while a quoted
 * "NULL" is the string; fields with the delimiter, quotes, leading/trailing spaces or an empty
 * value are quoted; `@sql:` composite literals are rejected. Its options are the csv ones under
 * the 'changelog-csv.' prefix. Parsing and writing are shared with 'csv' (csv_reader.c,
 * format_csv.c) and switched by WCsvConfig.changelog. Depends on types/, common/.
 */
#include "conn_internal.h"
#include "csv_reader.h"

#include <stdio.h>
#include <string.h>

/* The options of the formats (keys under "<format>."); the filesystem connector lets through any
   key under the format's prefix, as Flink's FileSystemTableFactory does (validateExcept), and the
   formats read these. */
static const WConnOption CSV_OPTIONS[] = {
    {"field-delimiter", WOPT_APPLIED, ",", "the field separator", .type = WOT_STRING},
    {"disable-quote-character", WOPT_APPLIED, "false", "no quoting", .type = WOT_BOOL},
    {"quote-character", WOPT_APPLIED, "\"", "the quote character", .type = WOT_STRING},
    {"allow-comments", WOPT_APPLIED, "false", "lines starting with # are skipped", .type = WOT_BOOL},
    {"ignore-parse-errors", WOPT_APPLIED, "false", "rows that do not parse are skipped (fields as NULL)",
     .type = WOT_BOOL},
    {"array-element-delimiter", WOPT_APPLIED, ";", "the separator of array elements", .type = WOT_STRING},
    {"escape-character", WOPT_APPLIED, NULL, "the escape character", .type = WOT_STRING},
    {"null-literal", WOPT_APPLIED, NULL, "the text read and written as NULL", .type = WOT_STRING},
    {"write-bigdecimal-in-scientific-notation", WOPT_APPLIED, "true", "DECIMAL written as 1E+1 or 10", .type = WOT_BOOL},
    /* Flink 2.3's csv format also declares these reader options (measured: its factories list them) */
    {"allow-trailing-comma", WOPT_REFUSED, "false", "a trailing comma after the last field", .type = WOT_BOOL},
    {"empty-string-as-null", WOPT_REFUSED, "false", "empty fields read as NULL", .type = WOT_BOOL},
    {"fail-on-missing-columns", WOPT_REFUSED, "false", "a row with fewer fields is an error", .type = WOT_BOOL},
    {"ignore-trailing-unmappable", WOPT_REFUSED, "false", "extra trailing fields are ignored", .type = WOT_BOOL},
    {"trim-spaces", WOPT_REFUSED, "false", "spaces around fields are trimmed", .type = WOT_BOOL},
    {0},
};
static const WConnOption JSON_OPTIONS[] = {
    {"fail-on-missing-field", WOPT_APPLIED, "false", "a missing field is an error", .type = WOT_BOOL},
    {"ignore-parse-errors", WOPT_APPLIED, "false", "rows that do not parse are skipped", .type = WOT_BOOL},
    {"timestamp-format.standard", WOPT_APPLIED, "SQL", "SQL or ISO-8601 timestamps", .type = WOT_STRING},
    {"map-null-key.mode", WOPT_APPLIED, "FAIL", "FAIL, DROP or LITERAL for a NULL map key when writing",
     .type = WOT_STRING},
    {"map-null-key.literal", WOPT_APPLIED, "null", "the key written for a NULL map key (LITERAL)", .type = WOT_STRING},
    {"encode.decimal-as-plain-number", WOPT_APPLIED, "false", "DECIMAL written without exponent", .type = WOT_BOOL},
    {"encode.ignore-null-fields", WOPT_APPLIED, "false", "NULL fields left out when writing", .type = WOT_BOOL},
    {"decode.json-parser.enabled", WOPT_APPLIED, "true",
     "false: numbers are read as Jackson tree nodes, as debezium-json reads them (-0 as 0, 1e3 into a STRING as 1000.0)",
     .type = WOT_BOOL},
    {0},
};
static const WConnOption DEBEZIUM_JSON_OPTIONS[] = {
    {"schema-include", WOPT_APPLIED, "false", "the events are wrapped in {\"schema\", \"payload\"}", .type = WOT_BOOL},
    {"ignore-parse-errors", WOPT_APPLIED, "false", "events that do not parse are skipped", .type = WOT_BOOL},
    {"timestamp-format.standard", WOPT_APPLIED, "SQL", "SQL or ISO-8601 timestamps", .type = WOT_STRING},
    {"map-null-key.mode", WOPT_APPLIED, "FAIL", "FAIL, DROP or LITERAL for a NULL map key when writing",
     .type = WOT_STRING},
    {"map-null-key.literal", WOPT_APPLIED, "null", "the key written for a NULL map key (LITERAL)", .type = WOT_STRING},
    {"encode.decimal-as-plain-number", WOPT_APPLIED, "false", "DECIMAL written without exponent", .type = WOT_BOOL},
    {"encode.ignore-null-fields", WOPT_APPLIED, "false", "NULL fields left out when writing", .type = WOT_BOOL},
    {0},
};

static const WConnFormat FORMATS[] = {
    {"csv", false, false, CSV_OPTIONS},
    {"changelog-csv", true, false, CSV_OPTIONS},
    {"json", false, true, JSON_OPTIONS},
    {"debezium-json", true, true, DEBEZIUM_JSON_OPTIONS},   /* Debezium's change events (format_debezium_json.c) */
};

const WConnFormat *wconn_format_all(int *n)
{
    *n = (int)(sizeof FORMATS / sizeof FORMATS[0]);
    return FORMATS;
}

const WConnFormat *wconn_format_find(const char *name)
{
    if (!name) return NULL;
    for (size_t i = 0; i < sizeof FORMATS / sizeof FORMATS[0]; i++)
        if (strcmp(FORMATS[i].name, name) == 0) return &FORMATS[i];
    return NULL;
}

bool wconn_format_config(const WConnFormat *f, const WOptions *o, struct WCsvConfig *cfg, WError *err)
{
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s.", f->name);
    return wcsv_config_from_options(cfg, o, prefix, f->changelog, err);
}
