/*
 * flink_resultset.c — Flink's SQL Gateway ResultSet shapes. See flink_resultset.h.
 */
#include "../common/base64.h"
#include "flink_resultset.h"
#include "../common/strbuf.h"
#include "../common/arena.h"
#include "../types/format.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static const char *type_name(const WType *t)
{
    switch (t->id) {
    case WT_NULL: return "NULL";
    case WT_BOOLEAN: return "BOOLEAN";
    case WT_TINYINT: return "TINYINT";
    case WT_SMALLINT: return "SMALLINT";
    case WT_INT: return "INTEGER";
    case WT_BIGINT: return "BIGINT";
    case WT_FLOAT: return "FLOAT";
    case WT_DOUBLE: return "DOUBLE";
    case WT_DECIMAL: return "DECIMAL";
    case WT_CHAR: return "CHAR";
    case WT_VARCHAR: return "VARCHAR";
    case WT_BINARY: return "BINARY";
    case WT_VARBINARY: return "VARBINARY";
    case WT_DATE: return "DATE";
    case WT_TIME: return "TIME_WITHOUT_TIME_ZONE";
    case WT_TIMESTAMP: return "TIMESTAMP_WITHOUT_TIME_ZONE";
    case WT_TIMESTAMP_LTZ: return "TIMESTAMP_WITH_LOCAL_TIME_ZONE";
    case WT_INTERVAL_YM: return "INTERVAL_YEAR_MONTH";
    case WT_INTERVAL_DT: return "INTERVAL_DAY_TIME";
    case WT_ARRAY: return "ARRAY";
    case WT_MAP: return "MAP";
    case WT_MULTISET: return "MULTISET";
    case WT_ROW: return "ROW";
    case WT__COUNT: break;
    }
    assert(!"unknown type id");
    return "NULL";
}

static const char *resolution(WIntervalQual q)
{
    switch (q) {
    case WIQ_YEAR: return "YEAR";
    case WIQ_YEAR_TO_MONTH: return "YEAR_TO_MONTH";
    case WIQ_MONTH: return "MONTH";
    case WIQ_DAY: return "DAY";
    case WIQ_DAY_TO_HOUR: return "DAY_TO_HOUR";
    case WIQ_DAY_TO_MINUTE: return "DAY_TO_MINUTE";
    case WIQ_DAY_TO_SECOND: return "DAY_TO_SECOND";
    case WIQ_HOUR: return "HOUR";
    case WIQ_HOUR_TO_MINUTE: return "HOUR_TO_MINUTE";
    case WIQ_HOUR_TO_SECOND: return "HOUR_TO_SECOND";
    case WIQ_MINUTE: return "MINUTE";
    case WIQ_MINUTE_TO_SECOND: return "MINUTE_TO_SECOND";
    case WIQ_SECOND: return "SECOND";
    case WIQ_NONE: break;
    }
    return "SECOND";
}

json_t *wflink_logical_type(const WType *t)
{
    json_t *o = json_pack("{s:s, s:b}", "type", type_name(t), "nullable", t->nullable);
    switch (t->id) {
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
        json_object_set_new(o, "length", json_integer(t->precision));
        break;
    case WT_DECIMAL:
        json_object_set_new(o, "precision", json_integer(t->precision));
        json_object_set_new(o, "scale", json_integer(t->scale));
        break;
    case WT_TIME:
        json_object_set_new(o, "precision", json_integer(t->precision));
        break;
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
        json_object_set_new(o, "precision", json_integer(t->precision));
        if (t->time_attr != WTA_NONE)
            json_object_set_new(o, "kind", json_string(t->time_attr == WTA_ROWTIME ? "ROWTIME" : "PROCTIME"));
        break;
    case WT_INTERVAL_YM:
        json_object_set_new(o, "resolution", json_string(resolution(t->qual)));
        json_object_set_new(o, "yearPrecision", json_integer(t->precision));
        break;
    case WT_INTERVAL_DT:
        json_object_set_new(o, "resolution", json_string(resolution(t->qual)));
        json_object_set_new(o, "dayPrecision", json_integer(t->precision));
        json_object_set_new(o, "fractionalPrecision", json_integer(t->scale));
        break;
    case WT_ARRAY: case WT_MULTISET:
        json_object_set_new(o, "elementType", wflink_logical_type(t->elem));
        break;
    case WT_MAP:
        json_object_set_new(o, "keyType", wflink_logical_type(t->key));
        json_object_set_new(o, "valueType", wflink_logical_type(t->elem));
        break;
    case WT_ROW: {
        json_t *fields = json_array();
        for (int i = 0; i < t->nfields; i++)
            json_array_append_new(fields, json_pack("{s:s, s:o}", "name", t->field_names[i], "fieldType",
                                                    wflink_logical_type(t->fields[i])));
        json_object_set_new(o, "fields", fields);
        break;
    }
    default: break;
    }
    return o;
}

static WIntervalQual parse_resolution(const char *r)
{
    for (int q = WIQ_NONE + 1; q <= WIQ_SECOND; q++)
        if (r && !strcmp(resolution((WIntervalQual)q), r)) return (WIntervalQual)q;
    return WIQ_SECOND;
}

static int jint(const json_t *o, const char *k, int dflt)
{
    const json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? (int)json_integer_value(v) : dflt;
}

const WType *wflink_logical_type_parse(WArena *a, const json_t *o)
{
    const char *name = json_string_value(json_object_get(o, "type"));
    bool nullable = !json_is_false(json_object_get(o, "nullable"));
    WTypeId id = WT__COUNT;
    for (int i = 0; i < WT__COUNT && name; i++) {
        WType probe = {.id = (WTypeId)i};
        if (!strcmp(type_name(&probe), name)) { id = (WTypeId)i; break; }
    }
    switch (id) {
    case WT__COUNT: return nullable ? &WTYPE_STRING : &WTYPE_STRING_NN;   /* a type weir does not know */
    case WT_CHAR: return wtype_char(a, jint(o, "length", 1), nullable);
    case WT_VARCHAR: return wtype_varchar(a, jint(o, "length", WT_MAX_LENGTH), nullable);
    case WT_DECIMAL: return wtype_decimal(a, jint(o, "precision", 10), jint(o, "scale", 0), nullable);
    case WT_TIME: return wtype_time(a, jint(o, "precision", 0), nullable);
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: {
        WType *t = (WType *)wtype_timestamp(a, id, jint(o, "precision", 6), nullable);
        const char *kind = json_string_value(json_object_get(o, "kind"));
        if (kind) t->time_attr = !strcmp(kind, "ROWTIME") ? WTA_ROWTIME : !strcmp(kind, "PROCTIME") ? WTA_PROCTIME : WTA_NONE;
        return t;
    }
    case WT_INTERVAL_YM:
        return wtype_interval(a, id, parse_resolution(json_string_value(json_object_get(o, "resolution"))),
                              jint(o, "yearPrecision", 2), 0, nullable);
    case WT_INTERVAL_DT:
        return wtype_interval(a, id, parse_resolution(json_string_value(json_object_get(o, "resolution"))),
                              jint(o, "dayPrecision", 2), jint(o, "fractionalPrecision", 6), nullable);
    case WT_ARRAY: case WT_MULTISET: {
        const WType *e = wflink_logical_type_parse(a, json_object_get(o, "elementType"));
        if (id == WT_ARRAY) return wtype_array(a, e, nullable);
        WType *t = wtype_new(a, WT_MULTISET, nullable);
        t->elem = e;
        return t;
    }
    case WT_MAP:
        return wtype_map(a, wflink_logical_type_parse(a, json_object_get(o, "keyType")),
                         wflink_logical_type_parse(a, json_object_get(o, "valueType")), nullable);
    case WT_ROW: {
        const json_t *fs = json_object_get(o, "fields");
        int n = (int)json_array_size(fs);
        const char **names = WA_ARRAY(a, const char *, n ? n : 1);
        const WType **types = WA_ARRAY(a, const WType *, n ? n : 1);
        for (int i = 0; i < n; i++) {
            const json_t *f = json_array_get(fs, (size_t)i);
            const char *fn = json_string_value(json_object_get(f, "name"));
            names[i] = wa_strdup(a, fn ? fn : "");
            types[i] = wflink_logical_type_parse(a, json_object_get(f, "fieldType"));
        }
        return wtype_row(a, n, names, types, nullable);
    }
    default: return wtype_new(a, id, nullable);
    }
}

json_t *wflink_column(const char *name, const WType *t)
{
    return json_pack("{s:s, s:o, s:n}", "name", name, "logicalType", wflink_logical_type(t), "comment");
}

json_t *wflink_string_column(const char *name)
{
    WType t = {.id = WT_VARCHAR, .nullable = true, .precision = WT_MAX_LENGTH};
    return wflink_column(name, &t);
}

/* ISO-8601 local date-time: seconds always, the fraction only as long as needed (Flink's JSON). */
static void iso_timestamp(WTimestamp ts, bool zulu, WStrBuf *out)
{
    char buf[64];
    wfmt_timestamp(ts, 9, buf);
    char *sp = strchr(buf, ' ');
    if (sp) *sp = 'T';
    char *dot = strchr(buf, '.');
    if (dot) {
        char *e = dot + strlen(dot);
        while (e > dot + 1 && e[-1] == '0') *--e = 0;
        if (e == dot + 1) *dot = 0;
    }
    wsb_append(out, buf);
    if (zulu) wsb_putc(out, 'Z');
}

static json_t *text(const WStrBuf *b)
{
    return json_stringn(b->buf ? b->buf : "", b->len);
}

json_t *wflink_value(const WType *t, WDatum v, bool is_null, const WTimeZone *tz)
{
    if (is_null) return json_null();
    WStrBuf b;
    wsb_init(&b);
    json_t *j = NULL;
    char buf[64];
    switch (t->id) {
    case WT_BOOLEAN: j = json_boolean(v.i); break;
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
    case WT_INTERVAL_YM: case WT_INTERVAL_DT:
        j = json_integer((json_int_t)v.i);
        break;
    case WT_FLOAT: j = json_real((double)(float)v.d); break;
    case WT_DOUBLE: j = json_real(v.d); break;
    case WT_DECIMAL: wfmt_decimal(v.dec, t->scale, buf); j = json_real(strtod(buf, NULL)); break;
    case WT_CHAR: case WT_VARCHAR: j = json_stringn(v.s.p ? v.s.p : "", (size_t)v.s.len); break;
    case WT_BINARY: case WT_VARBINARY: {
        /* Jackson writes byte[] as base64 */
        wbase64_append(&b, v.s.p, (size_t)v.s.len);
        j = text(&b);
        break;
    }
    case WT_DATE: wfmt_date(v.i, buf); j = json_string(buf); break;
    case WT_TIME: {
        wfmt_time(v.i, 3, buf);
        char *dot = strchr(buf, '.');
        if (dot) {
            char *e = dot + strlen(dot);
            while (e > dot + 1 && e[-1] == '0') *--e = 0;
            if (e == dot + 1) *dot = 0;
        }
        j = json_string(buf);
        break;
    }
    case WT_TIMESTAMP: iso_timestamp(v.ts, false, &b); j = text(&b); break;
    case WT_TIMESTAMP_LTZ: iso_timestamp(v.ts, true, &b); j = text(&b); break;
    case WT_ARRAY: {
        j = json_array();
        const WComposite *c = v.cx;
        for (int i = 0; c && i < c->n; i++)
            json_array_append_new(j, wflink_value(t->elem, c->vals[i], c->nulls && c->nulls[i], tz));
        break;
    }
    case WT_MAP: case WT_MULTISET: {
        /* keys as text (a JSON object); a multiset counts its equal elements */
        j = json_object();
        const WComposite *c = v.cx;
        const WType *kt = t->id == WT_MAP ? t->key : t->elem;
        int step = t->id == WT_MAP ? 2 : 1;
        for (int i = 0; c && i < c->n; i++) {
            bool kn = c->nulls && c->nulls[step * i];
            wsb_clear(&b);
            if (wtype_is_string(kt) && !kn) wsb_appendn(&b, c->vals[step * i].s.p, (size_t)c->vals[step * i].s.len);
            else wfmt_sql(kt, c->vals[step * i], kn, tz, &b);
            char *key = wsb_detach(&b);
            wsb_init(&b);
            if (t->id == WT_MAP) {
                json_object_set_new(j, key ? key : "", wflink_value(t->elem, c->vals[2 * i + 1],
                                                                    c->nulls && c->nulls[2 * i + 1], tz));
            } else {
                json_t *cnt = json_object_get(j, key ? key : "");
                json_object_set_new(j, key ? key : "", json_integer(cnt ? json_integer_value(cnt) + 1 : 1));
            }
            free(key);
        }
        break;
    }
    case WT_ROW: {
        j = json_object();
        const WComposite *c = v.cx;
        for (int i = 0; c && i < c->n && i < t->nfields; i++)
            json_object_set_new(j, t->field_names[i], wflink_value(t->fields[i], c->vals[i], c->nulls && c->nulls[i], tz));
        break;
    }
    case WT_NULL: case WT__COUNT: j = json_null(); break;
    }
    wsb_free(&b);
    return j ? j : json_null();
}

const char *wflink_row_kind(WRowKind k)
{
    const char *s = wrowkind_short(k);
    if (!strcmp(s, "-U")) return "UPDATE_BEFORE";
    if (!strcmp(s, "+U")) return "UPDATE_AFTER";
    if (!strcmp(s, "-D")) return "DELETE";
    return "INSERT";
}

json_t *wflink_error_body(const char *what, const char *outer, const char *cause_cls, const char *cause_msg)
{
    WStrBuf b;
    wsb_init(&b);
    wsb_printf(&b, "<Exception on server side:\norg.apache.flink.table.gateway.api.utils.SqlGatewayException: %s\n"
                   "\tat org.apache.flink.table.gateway.rest.handler.AbstractSqlGatewayRestHandler.respondToRequest"
                   "(AbstractSqlGatewayRestHandler.java)\n", what);
    if (outer && *outer) wsb_printf(&b, "Caused by: %s\n\tat weir.gateway(gateway.c)\n", outer);
    /* Flink's clients show the last cause up to its first stack frame line */
    wsb_printf(&b, "Caused by: %s: %s\n\tat weir.gateway(gateway.c)\n\nEnd of exception on server side>", cause_cls,
               cause_msg);
    json_t *o = json_pack("{s:[s, s]}", "errors", "Internal server error.", b.buf);
    wsb_free(&b);
    return o;
}

json_t *wflink_handler_error(const char *what, const char *root_msg)
{
    WStrBuf b;
    wsb_init(&b);
    wsb_printf(&b, "org.apache.flink.runtime.rest.handler.RestHandlerException: %s\n"
                   "\tat org.apache.flink.table.gateway.rest.handler.AbstractSqlGatewayRestHandler.respondToRequest"
                   "(AbstractSqlGatewayRestHandler.java)\n"
                   "Caused by: org.apache.flink.table.gateway.api.utils.SqlGatewayException: %s\n"
                   "\tat weir.gateway(gateway.c)\n"
                   "Caused by: org.apache.flink.table.gateway.api.utils.SqlGatewayException: %s\n"
                   "\tat weir.gateway(gateway.c)\n",
               what, what, root_msg);
    json_t *o = json_pack("{s:[s]}", "errors", b.buf);
    wsb_free(&b);
    return o;
}
