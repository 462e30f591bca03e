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

static const WConnFormat FORMATS[] = {
    {"csv", false, false},
    {"changelog-csv", true, false},
    {"json", false, true},
    {"debezium-json", true, true},      /* Debezium's change events (format_debezium_json.c) */
};

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
