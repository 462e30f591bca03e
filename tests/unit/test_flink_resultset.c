/* test_flink_resultset.c — src/server/flink_resultset: column types and values in the shapes
   Flink 2.3.0's SQL gateway answers (tests/gateway/flink-recorded/scenario.json). */
#include "unit.h"
#include "../../src/server/flink_resultset.h"

#include <stdlib.h>
#include <string.h>

static char *dump(json_t *j)
{
    char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    json_decref(j);
    return s;
}

#define CHECK_JSON(j, want)                                                        \
    do {                                                                           \
        char *got_ = dump(j);                                                      \
        CHECK_STR(got_, want);                                                     \
        free(got_);                                                                \
    } while (0)

WTEST(flink_resultset_logical_types)
{
    WArena a;
    warena_init(&a, 0);
    CHECK_JSON(wflink_logical_type(&WTYPE_INT_NN), "{\"nullable\":false,\"type\":\"INTEGER\"}");
    CHECK_JSON(wflink_logical_type(&WTYPE_STRING),
               "{\"length\":2147483647,\"nullable\":true,\"type\":\"VARCHAR\"}");
    CHECK_JSON(wflink_logical_type(wtype_decimal(&a, 10, 2, false)),
               "{\"nullable\":false,\"precision\":10,\"scale\":2,\"type\":\"DECIMAL\"}");
    CHECK_JSON(wflink_logical_type(wtype_timestamp(&a, WT_TIMESTAMP, 3, false)),
               "{\"nullable\":false,\"precision\":3,\"type\":\"TIMESTAMP_WITHOUT_TIME_ZONE\"}");
    const char *names[] = {"EXPR$0", "EXPR$1"};
    const WType *fields[] = {&WTYPE_INT_NN, wtype_char(&a, 1, false)};
    CHECK_JSON(wflink_logical_type(wtype_row(&a, 2, names, fields, false)),
               "{\"fields\":[{\"fieldType\":{\"nullable\":false,\"type\":\"INTEGER\"},\"name\":\"EXPR$0\"},"
               "{\"fieldType\":{\"length\":1,\"nullable\":false,\"type\":\"CHAR\"},\"name\":\"EXPR$1\"}],"
               "\"nullable\":false,\"type\":\"ROW\"}");
    CHECK_JSON(wflink_logical_type(wtype_map(&a, wtype_char(&a, 1, false), &WTYPE_INT_NN, false)),
               "{\"keyType\":{\"length\":1,\"nullable\":false,\"type\":\"CHAR\"},\"nullable\":false,\"type\":\"MAP\","
               "\"valueType\":{\"nullable\":false,\"type\":\"INTEGER\"}}");
    CHECK_JSON(wflink_column("k", &WTYPE_INT), "{\"comment\":null,\"logicalType\":{\"nullable\":true,\"type\":\"INTEGER\"},"
                                               "\"name\":\"k\"}");
    warena_free(&a);
}

WTEST(flink_resultset_values)
{
    WArena a;
    warena_init(&a, 0);
    /* 2024-01-02 10:11:12.345 and the same instant on a whole second */
    WTimestamp ts = {.ms = 1704190272345LL, .ns = 0};
    CHECK_JSON(wflink_value(wtype_timestamp(&a, WT_TIMESTAMP, 3, false), (WDatum){.ts = ts}, false, NULL),
               "\"2024-01-02T10:11:12.345\"");
    WTimestamp whole = {.ms = 1704190272000LL, .ns = 0};
    CHECK_JSON(wflink_value(wtype_timestamp(&a, WT_TIMESTAMP, 3, false), (WDatum){.ts = whole}, false, NULL),
               "\"2024-01-02T10:11:12\"");
    CHECK_JSON(wflink_value(wtype_time(&a, 0, false), WDATUM_I(36672000), false, NULL), "\"10:11:12\"");
    CHECK_JSON(wflink_value(&WTYPE_DATE, WDATUM_I(19724), false, NULL), "\"2024-01-02\"");
    CHECK_JSON(wflink_value(&WTYPE_INT, WDATUM_I(7), true, NULL), "null");
    CHECK_JSON(wflink_value(&WTYPE_BOOLEAN, WDATUM_I(1), false, NULL), "true");
    CHECK_JSON(wflink_value(wtype_decimal(&a, 10, 2, false), (WDatum){.dec = 150}, false, NULL), "1.5");
    WDatum bytes = {.s = {.p = "ab", .len = 2}};
    CHECK_JSON(wflink_value(&WTYPE_BYTES, bytes, false, NULL), "\"YWI=\"");
    CHECK_STR(wflink_row_kind(WRK_UPDATE_BEFORE), "UPDATE_BEFORE");
    CHECK_STR(wflink_row_kind(WRK_INSERT), "INSERT");
    warena_free(&a);
}

WTEST(flink_resultset_error_body)
{
    json_t *e = wflink_error_body("Failed to fetchResults.", NULL, "org.apache.calcite.sql.validate.SqlValidatorException",
                                  "Object 'nope' not found");
    const char *text = json_string_value(json_array_get(json_object_get(e, "errors"), 1));
    CHECK_STR(json_string_value(json_array_get(json_object_get(e, "errors"), 0)), "Internal server error.");
    /* the cause line Flink's sql-client shows, ended by a stack frame line */
    CHECK(strstr(text, "\nCaused by: org.apache.calcite.sql.validate.SqlValidatorException: Object 'nope' not found\n\tat ")
          != NULL);
    json_decref(e);
}

/* A wrapped cause (Flink's "Unable to create a source ..." around a connector's message) comes
   before the root, which stays the last "Caused by:" (what the clients print). */
WTEST(flink_resultset_error_body_wrapped)
{
    json_t *e = wflink_error_body("Failed to fetchResults.",
                                  "org.apache.flink.table.api.ValidationException: Unable to create a source for "
                                  "reading table 'default_catalog.default_database.t'.",
                                  "org.apache.flink.table.api.ValidationException", "One or more required options are missing.");
    const char *text = json_string_value(json_array_get(json_object_get(e, "errors"), 1));
    const char *w = strstr(text, "\nCaused by: org.apache.flink.table.api.ValidationException: Unable to create a source "
                                 "for reading table 'default_catalog.default_database.t'.\n\tat ");
    const char *r = strstr(text, "\nCaused by: org.apache.flink.table.api.ValidationException: One or more required");
    CHECK(w != NULL && r != NULL && w < r);
    CHECK(strstr(r + 2, "Caused by:") == NULL);
    json_decref(e);
}

/* weir's client reads the columns back (wflink_logical_type_parse): every type round-trips. */
WTEST(flink_resultset_logical_types_parse_back)
{
    WArena a;
    warena_init(&a, 0);
    const char *names[] = {"x", "y"};
    const WType *fields[] = {&WTYPE_INT_NN, wtype_varchar(&a, 5, true)};
    const WType *types[] = {
        &WTYPE_INT_NN, &WTYPE_STRING, wtype_decimal(&a, 10, 2, false), wtype_timestamp(&a, WT_TIMESTAMP, 3, false),
        wtype_timestamp(&a, WT_TIMESTAMP_LTZ, 6, true), wtype_time(&a, 0, true), wtype_char(&a, 3, false),
        wtype_interval(&a, WT_INTERVAL_DT, WIQ_DAY_TO_SECOND, 2, 3, true),
        wtype_interval(&a, WT_INTERVAL_YM, WIQ_YEAR_TO_MONTH, 4, 0, false),
        wtype_array(&a, &WTYPE_INT, true), wtype_map(&a, &WTYPE_STRING, &WTYPE_INT_NN, false),
        wtype_row(&a, 2, names, fields, true), wtype_new(&a, WT_BIGINT, true), wtype_new(&a, WT_DATE, false),
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        json_t *j = wflink_logical_type(types[i]);
        const WType *back = wflink_logical_type_parse(&a, j);
        CHECK(wtype_equals(types[i], back, false));
        CHECK_INT(back->nullable, types[i]->nullable);
        json_decref(j);
    }
    /* a type weir does not know reads as STRING */
    json_t *odd = json_pack("{s:s, s:b}", "type", "STRUCTURED_TYPE", "nullable", true);
    CHECK(wflink_logical_type_parse(&a, odd)->id == WT_VARCHAR);
    json_decref(odd);
    warena_free(&a);
}
