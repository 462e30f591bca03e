/*
 * format_json_write.c — the 'json' format's writer (format_json.h: wjsonfmt_write_object,
 * wjsonfmt_write_row; the reader is format_json.c). It follows Flink's RowDataToJsonConverters:
 * fields in column order, NULL as null (or left out with encode.ignore-null-fields), DECIMAL
 * without trailing zeros (Jackson's node factory) as BigDecimal.toString (with
 * decimal-as-plain-number: toPlainString, the scale kept), FLOAT/DOUBLE as Java prints them, TIME
 * as HH:mm:ss, DATE ISO, BYTES base64, MAP as an object (NULL keys per map-null-key.mode),
 * MULTISET as element -> count. A 'debezium-json' row goes to format_debezium_json.c.
 * Depends on common/json.h, csv_reader.h, types/, common/.
 */
#include "format_json.h"
#include "csv_reader.h"
#include "../common/json.h"
#include "../types/format.h"

#include <stdio.h>
#include <string.h>

static bool write_value(const WJsonFmt *cfg, const WType *t, WDatum v, WStrBuf *o, WError *err);

/* A DECIMAL as Flink 2.3's JSON writers put it (measured): by default Jackson's node factory strips
   the trailing zeros (zero is 0) and BigDecimal.toString renders it (12.5, 2E+1, 1E-8); with
   encode.decimal-as-plain-number the value keeps its scale and is written by toPlainString
   (20.00000000, 0.00000001). */
static void write_decimal(__int128 unscaled, int scale, bool plain, WStrBuf *o)
{
    char b[96];
    if (!plain) {
        if (unscaled == 0) { wsb_putc(o, '0'); return; }
        while (unscaled % 10 == 0) { unscaled /= 10; scale--; }
    }
    wcsv_bigdecimal_string(unscaled, scale, !plain, b);
    wsb_append(o, b);
}

static bool write_row_fields(const WJsonFmt *cfg, int n, const char *const *names, const WType *const *types,
                             const WDatum *vals, const uint8_t *nulls, WStrBuf *o, WError *err)
{
    wsb_putc(o, '{');
    bool first = true;
    for (int i = 0; i < n; i++) {
        if (nulls[i] && cfg->ignore_null_fields) continue;
        if (!first) wsb_putc(o, ',');
        first = false;
        wjson_write_string(names[i], strlen(names[i]), o);
        wsb_putc(o, ':');
        if (nulls[i]) wsb_append(o, "null");
        else if (!write_value(cfg, types[i], vals[i], o, err)) return false;
    }
    wsb_putc(o, '}');
    return true;
}

static bool write_value(const WJsonFmt *cfg, const WType *t, WDatum v, WStrBuf *o, WError *err)
{
    char b[96];
    switch (t->id) {
    case WT_BOOLEAN: wsb_append(o, v.i ? "true" : "false"); break;
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
    case WT_INTERVAL_YM: case WT_INTERVAL_DT:
        wsb_printf(o, "%lld", (long long)v.i);
        break;
    case WT_FLOAT: case WT_DOUBLE:
        if (t->id == WT_FLOAT) wfmt_float_java((float)v.d, b);
        else wfmt_double_java(v.d, b);
        if (v.d != v.d || v.d > 1.7976931348623157e308 || v.d < -1.7976931348623157e308)
            wjson_write_string(b, strlen(b), o);    /* Jackson quotes non-numeric numbers */
        else
            wsb_append(o, b);
        break;
    case WT_DECIMAL:
        write_decimal(v.dec, t->scale, cfg->decimal_plain, o);
        break;
    case WT_CHAR: case WT_VARCHAR: wjson_write_string(v.s.p, (size_t)v.s.len, o); break;
    case WT_BINARY: case WT_VARBINARY: {
        WStrBuf t64;
        wsb_init(&t64);
        WCsvConfig csv;
        wcsv_config_init(&csv, false);
        csv.quote = -1;
        wcsv_write_value(&csv, t, v, false, &t64);      /* base64 */
        wcsv_config_free(&csv);
        wjson_write_string(t64.buf, t64.len, o);
        wsb_free(&t64);
        break;
    }
    case WT_DATE: wjson_fmt_date(v.i, b); wjson_write_string(b, strlen(b), o); break;
    case WT_TIME: wjson_fmt_time(v.i / 1000 * 1000000000LL, b); wjson_write_string(b, strlen(b), o); break;
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: {
        int k = wjson_fmt_datetime(v.ts.ms, v.ts.ns, cfg->iso8601 ? 'T' : ' ', b);
        if (t->id == WT_TIMESTAMP_LTZ) { b[k++] = 'Z'; b[k] = 0; }
        wjson_write_string(b, (size_t)k, o);
        break;
    }
    case WT_ARRAY:
        wsb_putc(o, '[');
        for (int i = 0; v.cx && i < v.cx->n; i++) {
            if (i) wsb_putc(o, ',');
            if (v.cx->nulls[i]) wsb_append(o, "null");
            else if (!write_value(cfg, t->elem, v.cx->vals[i], o, err)) return false;
        }
        wsb_putc(o, ']');
        break;
    case WT_MAP: {
        wsb_putc(o, '{');
        bool first = true;
        for (int i = 0; v.cx && i < v.cx->n; i++) {
            const char *kp;
            size_t kl;
            if (v.cx->nulls[2 * i]) {
                if (cfg->null_key == WJF_NULLKEY_DROP) continue;
                if (cfg->null_key == WJF_NULLKEY_FAIL)
                    return werr_set(err, WEXC_RUNTIME,
                                    "JSON format doesn't support to serialize map data with null keys. You can drop null key "
                                    "entries or encode null in literals by specifying map-null-key.mode option.");
                kp = cfg->null_key_literal;
                kl = strlen(kp);
            } else {
                kp = v.cx->vals[2 * i].s.p;
                kl = (size_t)v.cx->vals[2 * i].s.len;
            }
            if (!first) wsb_putc(o, ',');
            first = false;
            wjson_write_string(kp, kl, o);
            wsb_putc(o, ':');
            if (v.cx->nulls[2 * i + 1]) wsb_append(o, "null");
            else if (!write_value(cfg, t->elem, v.cx->vals[2 * i + 1], o, err)) return false;
        }
        wsb_putc(o, '}');
        break;
    }
    case WT_MULTISET: {         /* element -> number of occurrences, in first-seen order */
        wsb_putc(o, '{');
        int n = v.cx ? v.cx->n : 0;
        bool first = true;
        for (int i = 0; i < n; i++) {
            bool seen = false;
            for (int j = 0; j < i && !seen; j++)
                seen = v.cx->nulls[j] == v.cx->nulls[i] &&
                       (v.cx->nulls[i] || (v.cx->vals[j].s.len == v.cx->vals[i].s.len &&
                                           !memcmp(v.cx->vals[j].s.p, v.cx->vals[i].s.p, (size_t)v.cx->vals[i].s.len)));
            if (seen) continue;
            int cnt = 0;
            for (int j = i; j < n; j++)
                if (v.cx->nulls[j] == v.cx->nulls[i] &&
                    (v.cx->nulls[i] || (v.cx->vals[j].s.len == v.cx->vals[i].s.len &&
                                        !memcmp(v.cx->vals[j].s.p, v.cx->vals[i].s.p, (size_t)v.cx->vals[i].s.len)))) cnt++;
            if (v.cx->nulls[i] && cfg->null_key == WJF_NULLKEY_DROP) continue;
            if (v.cx->nulls[i] && cfg->null_key == WJF_NULLKEY_FAIL)
                return werr_set(err, WEXC_RUNTIME,
                                "JSON format doesn't support to serialize map data with null keys. You can drop null key "
                                "entries or encode null in literals by specifying map-null-key.mode option.");
            if (!first) wsb_putc(o, ',');
            first = false;
            if (v.cx->nulls[i]) wjson_write_string(cfg->null_key_literal, strlen(cfg->null_key_literal), o);
            else wjson_write_string(v.cx->vals[i].s.p, (size_t)v.cx->vals[i].s.len, o);
            wsb_printf(o, ":%d", cnt);
        }
        wsb_putc(o, '}');
        break;
    }
    case WT_ROW:
        if (!v.cx) { wsb_append(o, "null"); break; }
        return write_row_fields(cfg, t->nfields < v.cx->n ? t->nfields : v.cx->n, t->field_names,
                                (const WType *const *)t->fields, v.cx->vals, v.cx->nulls, o, err);
    default:
        wfmt_java(t, v, false, NULL, o);
        break;
    }
    return true;
}

bool wjsonfmt_write_object(const WJsonFmt *cfg, int ncols, const char **names, const WType **types,
                           const WChunk *c, int row, WStrBuf *out, WError *err)
{
    size_t mark = out->len;
    wsb_putc(out, '{');
    bool first = true;
    for (int i = 0; i < ncols; i++) {
        bool isnull = c->cols[i].nulls[row] != 0;
        if (isnull && cfg->ignore_null_fields) continue;
        if (!first) wsb_putc(out, ',');
        first = false;
        wjson_write_string(names[i], strlen(names[i]), out);
        wsb_putc(out, ':');
        if (isnull) wsb_append(out, "null");
        else if (!write_value(cfg, types[i], c->cols[i].data[row], out, err)) {
            out->len = mark;
            out->buf[mark] = 0;
            return false;
        }
    }
    wsb_putc(out, '}');
    return true;
}

bool wjsonfmt_write_row(const WJsonFmt *cfg, int ncols, const char **names, const WType **types,
                        const WChunk *c, int row, WStrBuf *out, WError *err)
{
    if (cfg->envelope == WJF_DEBEZIUM) return wdbzjson_write_row(cfg, ncols, names, types, c, row, out, err);
    if (!wjsonfmt_write_object(cfg, ncols, names, types, c, row, out, err)) return false;
    wsb_putc(out, '\n');
    return true;
}
