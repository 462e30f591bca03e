/*
 * flink_resultset.h — Flink's SQL Gateway ResultSet shapes (what the gateway's REST API answers,
 * measured on Flink 2.3.0: tests/gateway/flink-recorded/).
 *
 * Contract:
 *  - wflink_logical_type: a column's type as Flink's LogicalTypeJsonSerializer writes it
 *    ({"type":"INTEGER","nullable":false}, VARCHAR/CHAR with "length", DECIMAL "precision"/"scale",
 *    TIME/TIMESTAMP "precision", ARRAY "elementType", MAP "keyType"/"valueType", ROW "fields"
 *    [{"name","fieldType"}]).
 *  - wflink_logical_type_parse: the inverse, for weir's client.
 *  - wflink_column: {"name","logicalType","comment":null}.
 *  - wflink_value: a cell as rowFormat=JSON carries it (PLAIN_TEXT cells are wfmt_sql's text) (numbers, booleans, strings, ISO dates and
 *    timestamps, arrays, maps as objects, rows as objects by field name, NULL as null).
 *  - wflink_row_kind: INSERT / UPDATE_BEFORE / UPDATE_AFTER / DELETE.
 *  - wflink_error_body: the 500 body of a failed operation: "Internal server error." and the server
 *    side exception text whose last "Caused by:" is the statement's error (Flink's clients show
 *    that line).
 * Depends on types/ and jansson.
 */
#ifndef WEIR_SERVER_FLINK_RESULTSET_H
#define WEIR_SERVER_FLINK_RESULTSET_H

#include <jansson.h>
#include "../common/arena.h"
#include "../types/type.h"
#include "../types/value.h"
#include "../types/chunk.h"
#include "../types/datetime.h"

json_t *wflink_logical_type(const WType *t);
json_t *wflink_column(const char *name, const WType *t);
/* The inverse of wflink_logical_type (what a client reads from a result set's columns), built in
   `a`; a type name weir does not know reads as STRING. */
const WType *wflink_logical_type_parse(WArena *a, const json_t *o);
/* A VARCHAR(2147483647) column (the result tables of SHOW, SET, DESCRIBE, EXPLAIN, job ids). */
json_t *wflink_string_column(const char *name);
json_t *wflink_value(const WType *t, WDatum v, bool is_null, const WTimeZone *tz);
const char *wflink_row_kind(WRowKind k);
/* {"errors":["Internal server error.", "<Exception on server side:\n...Caused by: cls: msg..."]};
   outer (WError.outer: "<class>: <message>", NULL or "" = none) is the cause that wraps the root
   in Flink's chain, printed before it. */
json_t *wflink_error_body(const char *what, const char *outer, const char *cause_cls, const char *cause_msg);
/* A handler's failure (500 in Flink): {"errors":["RestHandlerException: <what>\n...Caused by:
   SqlGatewayException: <root_msg>..."]}, e.g. an unknown session or operation. */
json_t *wflink_handler_error(const char *what, const char *root_msg);

#endif
