/*
 * format_json.c — the 'json' format of the filesystem connector (see format_json.h): its
 * options, type checks and reader.
 *
 * Reading follows Flink 1.20's default JsonParserRowDataDeserializationSchema /
 * JsonParserToRowDataConverters: each line must hold a JSON object (anything after it on the line
 * is ignored, as Jackson does); members are matched to columns by name, unknown members are
 * ignored, a missing one is NULL (or "Could not find field with name 'x'." with
 * fail-on-missing-field); JSON null is NULL. Numbers written as strings are accepted where Flink
 * parses the text (INT from "12", DOUBLE from "1.5", DECIMAL from "1.23", BOOLEAN by
 * Boolean.parseBoolean); a JSON object or array read into a STRING column is its JSON text.
 * Timestamps: SQL 'yyyy-MM-dd HH:mm:ss[.f]' or ISO-8601 'yyyy-MM-ddTHH:mm:ss[.f]' ('Z' suffix for
 * TIMESTAMP_LTZ), BYTES as base64. The JSON text is parsed with common/json.h (a hand parser that
 * keeps number literals exact for DECIMAL); scalar texts go through the CSV format's Java-exact
 * conversions (csv_reader.h) so messages match ('For input string: "x"').
 * Writing: format_json_write.c.
 * The file reader is line based like the CSV one: one read(2) buffer, position = byte offset and
 * line of the next line (restores seek there). Columns a query does not read are left NULL and
 * never converted (wjsonfmt_reader_skip_column). A plain 'json' line is first read by the fast
 * line reader (below: straight into the chunk's columns, no tree); a line it does not take as the
 * tree path would (a syntax error, a value conv() rejects, a duplicate or escaped member name, a
 * missing field under fail-on-missing-field...) is read again through the tree, which decides.
 * A 'debezium-json' line is handed to format_debezium_json.c, which reads the rows inside the
 * envelope with wjsonfmt_read_object.
 * Depends on common/json.h, csv_reader.h, types/, common/.
 */
#include "format_json.h"
#include "conn_internal.h"
#include "csv_reader.h"
#include "../common/json.h"
#include "../types/format.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

int wcsv_parse_timestamp_text(const char *s, int len, bool ltz, WTimestamp *out, int *bad);  /* format_csv.c */

/* ------------------------------------------------------------------------------------------ */
/* options                                                                                     */

bool wjsonfmt_config(WJsonFmt *cfg, const WOptions *o, const char *format, bool as_source, WError *err)
{
    memset(cfg, 0, sizeof *cfg);
    bool debezium = strcmp(format, "debezium-json") == 0;
    assert(debezium || strcmp(format, "json") == 0);
    cfg->envelope = debezium ? WJF_DEBEZIUM : WJF_PLAIN;
    char key[96];
#define KEY(k) (snprintf(key, sizeof key, "%s.%s", format, k), key)
    bool b;
    /* fail-on-missing-field and decode.json-parser.enabled are 'json' options only: under
       'debezium-json.' they are unknown keys, which the filesystem connector ignores */
    if (!debezium) {
        if (!wopts_get_bool(o, KEY("fail-on-missing-field"), false, &b, err)) return false;
        cfg->fail_on_missing = b;
    }
    if (!wopts_get_bool(o, KEY("ignore-parse-errors"), false, &b, err)) return false;
    cfg->ignore_errors = b;
    if (!wopts_get_bool(o, KEY("encode.decimal-as-plain-number"), false, &b, err)) return false;
    cfg->decimal_plain = b;
    if (!wopts_get_bool(o, KEY("encode.ignore-null-fields"), false, &b, err)) return false;
    cfg->ignore_null_fields = b;
    if (debezium) {
        if (!wopts_get_bool(o, KEY("schema-include"), false, &b, err)) return false;
        cfg->schema_include = b;
    } else if (!wopts_get_bool(o, KEY("decode.json-parser.enabled"), true, &b, err)) {
        return false;
    }
    cfg->tree_nodes = debezium || !b;
    if (as_source && cfg->fail_on_missing && cfg->ignore_errors)
        return werr_set(err, WEXC_VALIDATION, "fail-on-missing-field and ignore-parse-errors shouldn't both be true.");
    const char *ts = wopts_get(o, KEY("timestamp-format.standard"));
    if (ts && strcmp(ts, "SQL") != 0 && strcmp(ts, "ISO-8601") != 0)
        return werr_set(err, WEXC_VALIDATION,
                        "Unsupported value '%s' for timestamp-format.standard. Supported values are [SQL, ISO-8601].", ts);
    cfg->iso8601 = ts && strcmp(ts, "ISO-8601") == 0;
    const char *nk = wopts_get(o, KEY("map-null-key.mode"));
    cfg->null_key = WJF_NULLKEY_FAIL;
    if (nk) {
        if (!strcasecmp(nk, "FAIL")) cfg->null_key = WJF_NULLKEY_FAIL;
        else if (!strcasecmp(nk, "DROP")) cfg->null_key = WJF_NULLKEY_DROP;
        else if (!strcasecmp(nk, "LITERAL")) cfg->null_key = WJF_NULLKEY_LITERAL;
        else if (!as_source)
            return werr_set(err, WEXC_VALIDATION,
                            "Unsupported value '%s' for option map-null-key.mode. Supported values are [LITERAL, FAIL, DROP].", nk);
    }
    if (debezium && !as_source && cfg->schema_include)
        return werr_set(err, WEXC_VALIDATION,
                        "Debezium JSON serialization doesn't support '%s.schema-include' option been set to true.", format);
    const char *lit = wopts_get(o, KEY("map-null-key.literal"));
#undef KEY
    cfg->null_key_literal = wstrdup(lit ? lit : "null");
    return true;
}

void wjsonfmt_config_free(WJsonFmt *cfg)
{
    free(cfg->null_key_literal);
    cfg->null_key_literal = NULL;
}

static bool check_type(const WType *t, WError *err)
{
    switch (t->id) {
    case WT_NULL: {
        return werr_set(err, WEXC_UNSUPPORTED, "Unsupported type: NULL");
    }
    case WT_MAP: case WT_MULTISET: {
        const WType *k = t->id == WT_MAP ? t->key : t->elem;
        if (!wtype_is_string(k)) {
            WStrBuf b;
            wsb_init(&b);
            wtype_to_string(t, &b);
            werr_set(err, WEXC_UNSUPPORTED, "JSON format doesn't support non-string as key type of map. The type is: %s", b.buf);
            wsb_free(&b);
            return false;
        }
        return t->id == WT_MAP ? check_type(t->elem, err) : true;
    }
    case WT_ARRAY: return check_type(t->elem, err);
    case WT_ROW:
        for (int i = 0; i < t->nfields; i++) if (!check_type(t->fields[i], err)) return false;
        return true;
    default: return true;
    }
}

bool wjsonfmt_check_types(int ncols, const char **names, const WType **types, WError *err)
{
    (void)names;
    for (int i = 0; i < ncols; i++)
        if (!check_type(types[i], err)) return false;
    return true;
}

/* ------------------------------------------------------------------------------------------ */
/* values                                                                                      */

#define BUF_INIT (256u << 10)
#define BUF_PAD 32      /* zeroed bytes after the data: wconn_read_digits reads up to 24 on */

typedef struct FastLevel FastLevel;

/* The first 19 bytes ('yyyy-MM-dd HH:mm:ss') of the last timestamp fast_timestamp read, as three
   words (bytes 0-7, 8-15, 11-18), and that second's milliseconds since the epoch: the lines of a
   file mostly share their second with the line before, whose date and time need no new parse. */
typedef struct TsMemo {
    uint64_t w[3];
    int64_t ms;
    bool set;
} TsMemo;

struct WJsonReader {
    WJsonFmt cfg;
    WCsvConfig csv;             /* default CSV config for the shared scalar conversions */
    int ncols;
    const char **names;
    const WType **types;
    uint8_t *skip;              /* per column: 1 = not read (NULL) */
    uint64_t *field_reads;      /* per ROW column: the fields read (wjsonfmt_reader_read_fields) */
    bool big_decimals;          /* tree nodes: a column read has a DECIMAL type */
    WArena *scratch;            /* one line's document */
    FastLevel *fast;            /* the fast line reader's name tables (NULL: tree path only) */
    bool tree_only;             /* tests: no fast line reader */
    int64_t fast_lines;         /* lines the fast line reader took */
    TsMemo ts_memo;             /* the fast line reader's last timestamp second */
    int fd;
    char *path;
    char *buf;
    size_t cap, len, pos;
    int64_t buf_off, line;
    bool eof;
};

/* Text of a scalar node as Jackson's getText gives it. */
static void node_text(const WJson *v, const char **s, int *len)
{
    switch (v->kind) {
    case WJ_TRUE: *s = "true"; *len = 4; break;
    case WJ_FALSE: *s = "false"; *len = 5; break;
    case WJ_NULL: *s = "null"; *len = 4; break;
    default: *s = v->s; *len = v->len; break;
    }
}

static void java_trim(const char **s, int *len)
{
    while (*len > 0 && (unsigned char)(*s)[0] <= ' ') { (*s)++; (*len)--; }
    while (*len > 0 && (unsigned char)(*s)[*len - 1] <= ' ') (*len)--;
}

static int conv(const WJsonReader *r, const WType *t, const WJson *v, WDatum *out, WArena *a, char *eb, size_t esz);

static int conv_text_scalar(const WJsonReader *r, const WType *t, const char *s, int len, WDatum *out, WArena *a,
                            char *eb, size_t esz)
{
    if (len == 0) {             /* parseInt("") etc.: the CSV conversion reads "" as NULL */
        snprintf(eb, esz, "For input string: \"\"");
        return -1;
    }
    return wcsv_convert(&r->csv, t, s, len, out, a, eb, esz);
}

static int conv_timestamp(const WJsonReader *r, const WType *t, const char *s, int len, WDatum *out, char *eb, size_t esz)
{
    bool ltz = t->id == WT_TIMESTAMP_LTZ;
    /* the date part is yyyy-MM-dd; the separator is ' ' (SQL) or 'T' (ISO-8601) */
    const char *sep = memchr(s, r->cfg.iso8601 ? 'T' : ' ', (size_t)len);
    int bad = 0;
    char tmp[96];
    if (sep && len < (int)sizeof tmp) {
        memcpy(tmp, s, (size_t)len);
        tmp[sep - s] = ' ';
        if (wcsv_parse_timestamp_text(tmp, len, ltz, &out->ts, &bad) > 0) return 1;
    } else {
        bad = sep ? 0 : (len > 10 ? 10 : len);
    }
    snprintf(eb, esz, "Text '%.*s' could not be parsed at index %d", len > 200 ? 200 : len, s, bad);
    return -1;
}

static bool has_decimal(const WType *t)
{
    if (t->id == WT_DECIMAL) return true;
    if (t->id == WT_ROW) {
        for (int i = 0; i < t->nfields; i++) if (has_decimal(t->fields[i])) return true;
        return false;
    }
    if (t->id == WT_ARRAY || t->id == WT_MULTISET) return has_decimal(t->elem);
    if (t->id == WT_MAP) return has_decimal(t->key) || has_decimal(t->elem);
    return false;
}

/* Flink enables Jackson's USE_BIG_DECIMAL_FOR_FLOATS when the row type it decodes (the columns the
   query reads) holds a DECIMAL anywhere. */
static void find_big_decimals(WJsonReader *r)
{
    r->big_decimals = false;
    for (int c = 0; c < r->ncols; c++)
        if (!r->skip[c] && has_decimal(r->types[c])) { r->big_decimals = true; break; }
}

/* BigDecimal(text).stripTrailingZeros().toString(), zero as "0" (Jackson's JsonNodeFactory for a
   DecimalNode), for a JSON number literal. */
static int big_decimal_text(const char *s, int len, char *out)
{
    int i = 0, o = 0;
    bool neg = i < len && s[i] == '-';
    if (neg) i++;
    char *digits = out + len + 24;              /* scratch after the room for the result */
    int nd = 0, frac = 0;
    bool in_frac = false;
    for (; i < len && s[i] != 'e' && s[i] != 'E'; i++) {
        if (s[i] == '.') { in_frac = true; continue; }
        if (nd || s[i] != '0') digits[nd++] = s[i];
        if (in_frac) frac++;
    }
    long long exp = 0;
    if (i < len) exp = strtoll(s + i + 1, NULL, 10);
    if (nd == 0) { out[0] = '0'; return 1; }
    long long scale = frac - exp;
    while (nd > 1 && digits[nd - 1] == '0') { nd--; scale--; }
    if (neg) out[o++] = '-';
    long long adjusted = -scale + (nd - 1);
    if (scale == 0) {
        memcpy(out + o, digits, (size_t)nd);
        return o + nd;
    }
    if (scale > 0 && adjusted >= -6) {         /* plain notation */
        if (nd > scale) {
            memcpy(out + o, digits, (size_t)(nd - scale));
            o += nd - (int)scale;
            out[o++] = '.';
            memcpy(out + o, digits + nd - scale, (size_t)scale);
            return o + (int)scale;
        }
        out[o++] = '0';
        out[o++] = '.';
        for (long long z = 0; z < scale - nd; z++) out[o++] = '0';
        memcpy(out + o, digits, (size_t)nd);
        return o + nd;
    }
    out[o++] = digits[0];
    if (nd > 1) {
        out[o++] = '.';
        memmove(out + o, digits + 1, (size_t)(nd - 1));
        o += nd - 1;
    }
    return o + sprintf(out + o, "E%s%lld", adjusted > 0 ? "+" : "", adjusted);
}

/* A number token as Flink's tree-node decoding sees it (JsonNode.asText): an integer as its
   canonical digits ("-0" is IntNode 0), a float as Double.toString of its value or, when the
   reader decodes big decimals, as the stripped BigDecimal. Other tokens and the streaming parser:
   v itself. */
static const WJson *tree_node(const WJsonReader *r, const WJson *v, WJson *tmp, WArena *a)
{
    if (!r->cfg.tree_nodes || v->kind != WJ_NUMBER) return v;
    *tmp = *v;
    if (!v->is_float) {
        if (v->len == 2 && v->s[0] == '-' && v->s[1] == '0') { tmp->s = "0"; tmp->len = 1; }
        return tmp;
    }
    char *text = wa_alloc(a, (size_t)(2 * v->len + 48));
    if (r->big_decimals) {
        tmp->len = big_decimal_text(v->s, v->len, text);
    } else {
        char lit[512];
        int n = v->len < (int)sizeof lit - 1 ? v->len : (int)sizeof lit - 1;
        memcpy(lit, v->s, (size_t)n);
        lit[n] = 0;
        tmp->len = wfmt_double_java(strtod(lit, NULL), text);
    }
    tmp->s = text;
    return tmp;
}

/* A float token read into INT / BIGINT: Jackson converts the number, truncating towards zero, and
   fails outside the type's range (the streaming parser's getIntValue, a tree node's
   canConvertToInt + asInt). 1 = converted, 0 = out of range. */
static int float_token_to_integer(const WJson *v, bool is_int, int64_t *out)
{
    char lit[512];
    int n = v->len < (int)sizeof lit - 1 ? v->len : (int)sizeof lit - 1;
    memcpy(lit, v->s, (size_t)n);
    lit[n] = 0;
    double d = strtod(lit, NULL);
    double lo = is_int ? (double)INT32_MIN : -9223372036854775808.0, hi = is_int ? (double)INT32_MAX : 9223372036854775807.0;
    if (!(d >= lo && d <= hi)) return 0;
    if (!is_int && d >= 9223372036854775807.0) { *out = INT64_MAX; return 1; }
    *out = (int64_t)d;
    return 1;
}

static int conv_integer_node(const WJsonReader *r, const WType *t, const WJson *v, WDatum *out, WArena *a,
                             char *eb, size_t esz)
{
    if (v->kind == WJ_NUMBER && !v->is_float && (t->id == WT_INT || t->id == WT_BIGINT ||
                                                 t->id == WT_INTERVAL_YM || t->id == WT_INTERVAL_DT)) {
        bool is_int = t->id == WT_INT || t->id == WT_INTERVAL_YM;
        errno = 0;
        char tmp[64];
        int n = v->len < 63 ? v->len : 63;
        memcpy(tmp, v->s, (size_t)n);
        tmp[n] = 0;
        long long x = strtoll(tmp, NULL, 10);
        if (errno == ERANGE || v->len > 62 || (is_int && (x < INT32_MIN || x > INT32_MAX))) {
            snprintf(eb, esz, is_int ? "Numeric value (%.*s) out of range of int (-2147483648 - 2147483647)"
                                     : "Numeric value (%.*s) out of range of long (-9223372036854775808 - 9223372036854775807)",
                     v->len > 200 ? 200 : v->len, v->s);
            return -1;
        }
        out->i = x;
        return 1;
    }
    if (v->kind == WJ_NUMBER && v->is_float && (t->id == WT_INT || t->id == WT_BIGINT)) {
        if (float_token_to_integer(v, t->id == WT_INT, &out->i)) return 1;
        if (!r->cfg.tree_nodes) {
            snprintf(eb, esz, t->id == WT_INT ? "Numeric value (%.*s) out of range of int (-2147483648 - 2147483647)"
                                              : "Numeric value (%.*s) out of range of long (-9223372036854775808 - 9223372036854775807)",
                     v->len > 200 ? 200 : v->len, v->s);
            return -1;
        }
    }
    WJson tmp;
    v = tree_node(r, v, &tmp, a);
    const char *s;
    int len;
    node_text(v, &s, &len);
    java_trim(&s, &len);
    return conv_text_scalar(r, t, s, len, out, a, eb, esz);
}

static const char *token_name(const WJson *v)
{
    switch (v->kind) {
    case WJ_OBJECT: return "START_OBJECT";
    case WJ_ARRAY: return "START_ARRAY";
    case WJ_STRING: return "VALUE_STRING";
    case WJ_NUMBER: return v->is_float ? "VALUE_NUMBER_FLOAT" : "VALUE_NUMBER_INT";
    case WJ_TRUE: return "VALUE_TRUE";
    case WJ_FALSE: return "VALUE_FALSE";
    default: return "VALUE_NULL";
    }
}

static int conv(const WJsonReader *r, const WType *t, const WJson *v, WDatum *out, WArena *a, char *eb, size_t esz)
{
    if (!v || v->kind == WJ_NULL) return 0;
    const char *s;
    int len;
    WJson tmp;
    switch (t->id) {
    case WT_CHAR: case WT_VARCHAR:
        v = tree_node(r, v, &tmp, a);
        if (v->kind == WJ_OBJECT || v->kind == WJ_ARRAY) {
            WStrBuf b;
            wsb_init(&b);
            wjson_write(v, false, &b);
            out->s.p = wa_memdup(a, b.buf, b.len + 1);
            out->s.len = (int32_t)b.len;
            wsb_free(&b);
        } else {
            node_text(v, &s, &len);
            out->s.p = len ? wa_memdup(a, s, (size_t)len) : "";
            out->s.len = len;
        }
        return 1;
    case WT_BOOLEAN:
        if (v->kind == WJ_TRUE || v->kind == WJ_FALSE) { out->i = v->kind == WJ_TRUE; return 1; }
        node_text(v, &s, &len);
        java_trim(&s, &len);
        out->i = len == 4 && strncasecmp(s, "true", 4) == 0;
        return 1;
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
    case WT_INTERVAL_YM: case WT_INTERVAL_DT:
        if (v->kind == WJ_OBJECT || v->kind == WJ_ARRAY) break;
        return conv_integer_node(r, t, v, out, a, eb, esz);
    case WT_FLOAT: case WT_DOUBLE: case WT_DECIMAL:
        if (v->kind == WJ_OBJECT || v->kind == WJ_ARRAY) break;
        if (t->id == WT_FLOAT && r->cfg.tree_nodes && !r->big_decimals && v->kind == WJ_NUMBER && v->is_float) {
            char lit[512];              /* a DoubleNode: (float) asDouble() */
            int n = v->len < (int)sizeof lit - 1 ? v->len : (int)sizeof lit - 1;
            memcpy(lit, v->s, (size_t)n);
            lit[n] = 0;
            out->d = (double)(float)strtod(lit, NULL);
            return 1;
        }
        if (t->id != WT_DECIMAL) v = tree_node(r, v, &tmp, a);
        node_text(v, &s, &len);
        if (t->id != WT_DECIMAL) java_trim(&s, &len);
        return conv_text_scalar(r, t, s, len, out, a, eb, esz);
    case WT_DATE: case WT_TIME:
        if (v->kind == WJ_OBJECT || v->kind == WJ_ARRAY) break;
        v = tree_node(r, v, &tmp, a);
        node_text(v, &s, &len);
        return conv_text_scalar(r, t, s, len, out, a, eb, esz);
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
        if (v->kind == WJ_OBJECT || v->kind == WJ_ARRAY) break;
        node_text(v, &s, &len);
        return conv_timestamp(r, t, s, len, out, eb, esz);
    case WT_BINARY: case WT_VARBINARY:
        if (v->kind != WJ_STRING) {
            snprintf(eb, esz, "Current token (%s) not VALUE_STRING or VALUE_EMBEDDED_OBJECT, can not access as binary",
                     token_name(v));
            return -1;
        }
        return wcsv_convert(&r->csv, t, v->s, v->len, out, a, eb, esz);
    case WT_ARRAY: {
        if (v->kind != WJ_ARRAY) break;
        WComposite *cx = WA_NEW(a, WComposite);
        cx->n = v->n;
        cx->vals = WA_ARRAY(a, WDatum, v->n ? v->n : 1);
        cx->nulls = wa_zalloc(a, (size_t)(v->n ? v->n : 1));
        for (int i = 0; i < v->n; i++) {
            int k = conv(r, t->elem, v->items[i], &cx->vals[i], a, eb, esz);
            if (k < 0 && !r->cfg.ignore_errors) return -1;
            cx->nulls[i] = k != 1;
        }
        out->cx = cx;
        return 1;
    }
    case WT_MAP: case WT_MULTISET: {
        if (v->kind != WJ_OBJECT) break;
        WComposite *cx = WA_NEW(a, WComposite);
        cx->n = v->n;
        bool ms = t->id == WT_MULTISET;
        int slots = ms ? 0 : 2 * v->n;
        if (ms) for (int i = 0; i < v->n; i++) {     /* element repeated count times */
            WDatum c;
            int k = conv(r, &WTYPE_INT, v->items[i], &c, a, eb, esz);
            if (k < 0) { if (!r->cfg.ignore_errors) return -1; continue; }
            if (k == 1 && c.i > 0) slots += (int)(c.i > 1000000 ? 1000000 : c.i);
        }
        cx->vals = WA_ARRAY(a, WDatum, slots ? slots : 1);
        cx->nulls = wa_zalloc(a, (size_t)(slots ? slots : 1));
        int o = 0;
        for (int i = 0; i < v->n; i++) {
            WDatum key;
            key.s.p = v->key_lens[i] ? wa_memdup(a, v->keys[i], (size_t)v->key_lens[i]) : "";
            key.s.len = v->key_lens[i];
            if (ms) {
                WDatum c;
                if (conv(r, &WTYPE_INT, v->items[i], &c, a, eb, esz) != 1) continue;
                for (int64_t k = 0; k < c.i && o < slots; k++) cx->vals[o++] = key;
                continue;
            }
            cx->vals[2 * i] = key;
            int k = conv(r, t->elem, v->items[i], &cx->vals[2 * i + 1], a, eb, esz);
            if (k < 0 && !r->cfg.ignore_errors) return -1;
            cx->nulls[2 * i + 1] = k != 1;
        }
        cx->n = ms ? o : v->n;
        out->cx = cx;
        return 1;
    }
    case WT_ROW: {
        if (v->kind != WJ_OBJECT) break;
        WComposite *cx = WA_NEW(a, WComposite);
        cx->n = t->nfields;
        cx->vals = WA_ARRAY(a, WDatum, t->nfields ? t->nfields : 1);
        cx->nulls = wa_zalloc(a, (size_t)(t->nfields ? t->nfields : 1));
        for (int i = 0; i < t->nfields; i++) {
            const WJson *f = wjson_get(v, t->field_names[i], strlen(t->field_names[i]));
            if (!f && r->cfg.fail_on_missing) {
                snprintf(eb, esz, "Could not find field with name '%s'.", t->field_names[i]);
                return -1;
            }
            int k = conv(r, t->fields[i], f, &cx->vals[i], a, eb, esz);
            if (k < 0 && !r->cfg.ignore_errors) return -1;
            cx->nulls[i] = k != 1;
        }
        out->cx = cx;
        return 1;
    }
    default: {
        WStrBuf b;
        wsb_init(&b);
        wtype_to_string(t, &b);
        snprintf(eb, esz, "Unsupported type: %s", b.buf);
        wsb_free(&b);
        return -1;
    }
    }
    WStrBuf b;
    wsb_init(&b);
    wtype_to_string(t, &b);
    snprintf(eb, esz, "Unexpected JSON %s for a value of type %s.", token_name(v), b.buf);
    wsb_free(&b);
    return -1;
}

/* ------------------------------------------------------------------------------------------ */
/* fast line reader                                                                            */
/*
 * A 'json' line parsed straight into the chunk's columns, without the document tree: each object
 * level (the columns, a ROW's fields) has a name table (open addressing on the key's length and
 * end bytes); a member no column reads is skipped without decoding (strings scanned for their
 * closing quote, escapes checked, numbers checked against the grammar, not converted); a member
 * read into a column is handed to conv() as a one-node WJson (integers into INT/BIGINT and strings
 * into VARCHAR converted here directly, strings copied once into the chunk's arena), an array or
 * an object read into a non-ROW column is parsed into a tree (common/json.h) for that value only.
 * Anything this path does not take as common/json.c does, or any value conv() rejects, a missing
 * field under fail-on-missing-field, a member read twice (duplicate key), an escaped key or a
 * byte order mark, gives the line to the tree path (parse_line), which decides and words errors:
 * the fast path accepts a line only where the tree path would read the same row.
 */

#define FAST_MAX_FIELDS 64
#define FAST_MAX_DEPTH 1000             /* common/json.c's nesting limit (Jackson's default) */

struct FastLevel {
    int n;                              /* fields (the columns at the top level) */
    const char **names;
    int *lens;
    uint64_t *heads;                    /* a name's first 8 bytes, zero padded (key_is) */
    uint64_t *kc;                       /* per field two words: a plain name of up to 14 bytes,
                                           its closing quote and the colon, zero padded (key_colon_at) */
    uint64_t *kcmask;                   /* per field two words: the bytes of kc a member's key must
                                           match; both 0: a longer or escaped name */
    const WType **types;
    FastLevel **kids;                   /* per field: the level of a ROW field, else NULL */
    uint64_t want;                      /* fields read (top level: columns not skipped) */
    int mask;                           /* slots - 1 */
    int16_t *slots;                     /* field index, -1 empty */
};

/* Bytes that end a scan inside a string: the quote, the backslash, control characters. */
static const uint8_t STR_STOP[256] = {
    [0 ... 0x1f] = 1, ['"'] = 1, ['\\'] = 1,
};

/* The first byte at or after p that ends a scan inside a string (STR_STOP), or e. */
static inline const char *fast_scan_string(const char *p, const char *e)
{
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'), ctl = _mm_set1_epi8(0x1f);
    while (e - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
                                   _mm_cmpeq_epi8(_mm_max_epu8(v, ctl), ctl));     /* v <= 0x1f */
        int m = _mm_movemask_epi8(hit);
        if (m) return p + __builtin_ctz((unsigned)m);
        p += 16;
    }
#endif
    while (p < e && !STR_STOP[(unsigned char)*p]) p++;
    return p;
}

static unsigned fast_hash(const char *k, int len)
{
    unsigned h = (unsigned)len * 0x9E3779B1u;
    if (len > 0) h ^= (unsigned)(unsigned char)k[0] * 0x85EBCA6Bu ^ (unsigned)(unsigned char)k[len - 1] * 0xC2B2AE35u;
    if (len > 2) h ^= (unsigned)(unsigned char)k[len / 2] * 0x27D4EB2Fu;
    return h ^ (h >> 15);
}

static void fast_level_free(FastLevel *l)
{
    if (!l) return;
    for (int i = 0; i < l->n; i++) fast_level_free(l->kids[i]);
    free(l->names);
    free(l->lens);
    free(l->heads);
    free(l->kc);
    free(l->kcmask);
    free(l->types);
    free(l->kids);
    free(l->slots);
    free(l);
}

/* A ROW field that need not be converted when unread: any JSON value converts to a string. */
static bool fast_may_leave_unread(const WType *t) { return t->id == WT_VARCHAR || t->id == WT_CHAR; }

/* A level for n fields (skip: fields not read, may be NULL; field_reads: per ROW field, the mask
   of its own fields read, NULL = all); NULL when the fast path cannot serve it (more than 64
   fields, two fields of one name). */
static FastLevel *fast_level_new(int n, const char *const *names, const WType *const *types, const uint8_t *skip,
                                 const uint64_t *field_reads)
{
    if (n > FAST_MAX_FIELDS) return NULL;
    FastLevel *l = wcalloc(1, sizeof *l);
    size_t n1 = (size_t)(n ? n : 1);
    l->n = n;
    l->names = wmalloc(sizeof(char *) * n1);
    l->lens = wmalloc(sizeof(int) * n1);
    l->heads = wcalloc(n1, sizeof(uint64_t));
    l->kc = wcalloc(2 * n1, sizeof(uint64_t));
    l->kcmask = wcalloc(2 * n1, sizeof(uint64_t));
    l->types = wmalloc(sizeof(WType *) * n1);
    l->kids = wcalloc(n1, sizeof(FastLevel *));
    int slots = 8;
    while (slots < 4 * n) slots *= 2;
    l->mask = slots - 1;
    l->slots = wmalloc(sizeof(int16_t) * (size_t)slots);
    for (int s = 0; s < slots; s++) l->slots[s] = -1;
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        l->names[i] = names[i];
        l->lens[i] = (int)strlen(names[i]);
        char head[8] = {0};
        memcpy(head, names[i], (size_t)(l->lens[i] < 8 ? l->lens[i] : 8));
        memcpy(&l->heads[i], head, 8);
        l->types[i] = types[i];
        bool plain = true;
        for (int c = 0; c < l->lens[i]; c++) {
            unsigned char ch = (unsigned char)names[i][c];
            if (ch < 0x20 || ch == '"' || ch == '\\') plain = false;
        }
        if (plain && l->lens[i] <= 14) {
            unsigned char q[16] = {0}, m[16] = {0};
            memcpy(q, names[i], (size_t)l->lens[i]);
            q[l->lens[i]] = '"';
            q[l->lens[i] + 1] = ':';
            memset(m, 0xff, (size_t)l->lens[i] + 2);
            memcpy(&l->kc[2 * i], q, 16);
            memcpy(&l->kcmask[2 * i], m, 16);
        }
        if (skip && skip[i]) continue;
        l->want |= (uint64_t)1 << i;
        if (types[i]->id == WT_ROW) {
            const WType *rt = types[i];
            uint8_t kid_skip[FAST_MAX_FIELDS] = {0};
            for (int k = 0; field_reads && k < rt->nfields && k < FAST_MAX_FIELDS; k++)
                kid_skip[k] = k < 63 && !(field_reads[i] >> k & 1) && fast_may_leave_unread(rt->fields[k]);
            l->kids[i] = fast_level_new(rt->nfields, rt->field_names, rt->fields, kid_skip, NULL);
            if (!l->kids[i]) ok = false;
        }
        unsigned h = fast_hash(l->names[i], l->lens[i]) & (unsigned)l->mask;
        for (; l->slots[h] >= 0; h = (h + 1) & (unsigned)l->mask) {
            int j = l->slots[h];
            if (l->lens[j] == l->lens[i] && memcmp(l->names[j], l->names[i], (size_t)l->lens[i]) == 0) ok = false;
        }
        l->slots[h] = (int16_t)i;
    }
    if (!ok) { fast_level_free(l); return NULL; }
    return l;
}

/* Key k (klen bytes, at least 8 bytes before e when it is shorter) is the name of field f: one
   word compare for names up to 8 bytes on a little-endian machine. */
static inline bool key_is(const FastLevel *l, int f, const char *k, int klen, const char *e)
{
    if (l->lens[f] != klen) return false;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (klen <= 8 && e - k >= 8) {
        uint64_t w;
        memcpy(&w, k, 8);
        if (klen < 8) w &= ((uint64_t)1 << (8 * klen)) - 1;
        return w == l->heads[f];
    }
#endif
    return memcmp(l->names[f], k, (size_t)klen) == 0;
}

/* Is the key at k (after its opening quote, before e) the name of field f, closed by its quote
   and followed by the colon (no whitespace between)? Read in place, without a scan for the key's
   end: a name with no byte JSON escapes is its key's text. Two word compares for a name of up to
   14 bytes: the 16 bytes at k are readable (the reader's buffer has BUF_PAD zeroed bytes after its
   data), and a match lies before e, as the byte at e is a newline or the zeroed pad, which no name,
   quote or colon is. Else false (the caller scans the key). */
static inline bool key_colon_at(const FastLevel *l, int f, const char *k)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w[2];
    memcpy(w, k, 16);
    const uint64_t *kc = l->kc + 2 * f, *m = l->kcmask + 2 * f;
    return m[0] && (((w[0] ^ kc[0]) & m[0]) | ((w[1] ^ kc[1]) & m[1])) == 0;
#else
    (void)l, (void)f, (void)k;
    return false;
#endif
}

static int fast_lookup(const FastLevel *l, const char *k, int len, const char *e)
{
    for (unsigned h = fast_hash(k, len) & (unsigned)l->mask; l->slots[h] >= 0; h = (h + 1) & (unsigned)l->mask) {
        int j = l->slots[h];
        if (key_is(l, j, k, len, e)) return j;
    }
    return -1;
}

/* Whitespace inside a line: never a newline, so that a parse that starts at a line's first byte
   (fast_next_line: before the line's end is known) stops at its end. */
static inline const char *fast_ws(const char *p, const char *e)
{
    if (p < e && (unsigned char)*p > ' ') return p;
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
    return p;
}

static inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

static int hex4(const char *q)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = q[i];
        int h = is_digit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

/* The string whose opening quote is at p - 1: the position after its closing quote, or NULL when
   common/json.c would reject it (end of line, a control character, a bad escape). *escaped: it
   holds a backslash. */
static const char *fast_string_end(const char *p, const char *e, bool *escaped)
{
    for (;;) {
        p = fast_scan_string(p, e);
        if (p >= e) return NULL;
        if (*p == '"') return p + 1;
        if (*p != '\\' || p + 1 >= e) return NULL;
        *escaped = true;
        char c = p[1];
        if (c == 'u') {
            if (e - p < 6 || hex4(p + 2) < 0) return NULL;
            p += 6;
        } else if (c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n' || c == 'r' || c == 't') {
            p += 2;
        } else {
            return NULL;
        }
    }
}

static char *put_cp(char *d, unsigned cp)
{
    if (cp < 0x80) *d++ = (char)cp;
    else if (cp < 0x800) { *d++ = (char)(0xC0 | (cp >> 6)); *d++ = (char)(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) {
        *d++ = (char)(0xE0 | (cp >> 12));
        *d++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *d++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *d++ = (char)(0xF0 | (cp >> 18));
        *d++ = (char)(0x80 | ((cp >> 12) & 0x3F));
        *d++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *d++ = (char)(0x80 | (cp & 0x3F));
    }
    return d;
}

/* Room fast_unescape needs for a body of n bytes: no escape grows, and its copy is by 16-byte
   blocks. */
#define UNESCAPE_ROOM(n) ((size_t)(n) + 16)

/* Unescape s[0..n) (a string body fast_string_end accepted, in the reader's buffer: readable 16
   bytes beyond it, BUF_PAD) into d (UNESCAPE_ROOM(n) bytes), as common/json.c's parse_string
   does: a high surrogate followed by an escaped low one is one code point, a lone surrogate is
   written as its 3-byte form. Returns the length. The plain runs between escapes are copied 16
   bytes at a time, whole (a memchr and a memcpy per run cost more: nexmark's strings escape a
   backslash every few dozen bytes). */
static int fast_unescape(const char *s, int n, char *d)
{
    const char *e = s + n;
    char *d0 = d;
    while (s < e) {
#ifdef __SSE2__
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
        _mm_storeu_si128((__m128i *)(void *)d, v);
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
        size_t left = (size_t)(e - s), plain = m ? (size_t)__builtin_ctz(m) : 16;
        if (plain >= left) { d += left; break; }        /* the rest is plain */
        d += plain;
        s += plain;
        if (plain == 16) continue;
#else
        const char *bs = memchr(s, '\\', (size_t)(e - s));
        size_t plain = (size_t)((bs ? bs : e) - s);
        memcpy(d, s, plain);
        d += plain;
        s += plain;
        if (!bs) break;
#endif
        assert(*s == '\\' && s + 1 < e);
        char c = s[1];
        s += 2;
        switch (c) {
        case 'b': *d++ = '\b'; break;
        case 'f': *d++ = '\f'; break;
        case 'n': *d++ = '\n'; break;
        case 'r': *d++ = '\r'; break;
        case 't': *d++ = '\t'; break;
        case 'u': {
            int cp = hex4(s);
            assert(cp >= 0);
            s += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF && e - s >= 6 && s[0] == '\\' && s[1] == 'u') {
                int lo = hex4(s + 2);
                if (lo >= 0xDC00 && lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    s += 6;
                }
            }
            d = put_cp(d, (unsigned)cp);
            break;
        }
        default: *d++ = c; break;           /* " \ / */
        }
    }
    return (int)(d - d0);
}

/* The end of the number at p (common/json.c's grammar: no leading zeros, digits after '.' and
   after the exponent), NULL when there is none. */
static const char *fast_number_end(const char *p, const char *e, bool *is_float)
{
    const char *q = p;
    if (q < e && *q == '-') q++;
    if (q >= e || !is_digit(*q)) return NULL;
    if (*q == '0' && q + 1 < e && is_digit(q[1])) return NULL;
    while (q < e && is_digit(*q)) q++;
    *is_float = false;
    if (q < e && *q == '.') {
        *is_float = true;
        if (++q >= e || !is_digit(*q)) return NULL;
        while (q < e && is_digit(*q)) q++;
    }
    if (q < e && (*q == 'e' || *q == 'E')) {
        *is_float = true;
        q++;
        if (q < e && (*q == '+' || *q == '-')) q++;
        if (q >= e || !is_digit(*q)) return NULL;
        while (q < e && is_digit(*q)) q++;
    }
    return q;
}

/* null / true / false at p (not followed by a letter, digit or '_'): the end, else NULL. */
static inline const char *fast_word_end(const char *p, const char *e, const char *w, int n)
{
    assert(n == 4 || n == 5);
    if (e - p < n) return NULL;
    uint32_t have, want;                /* one compare of 4 bytes (a memcmp call per null member) */
    memcpy(&have, p, 4);
    memcpy(&want, w, 4);
    if (have != want || (n == 5 && p[4] != w[4])) return NULL;
    p += n;
    if (p < e && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || is_digit(*p) || *p == '_')) return NULL;
    return p;
}

/* The end of the value at p inside containers nested depth deep, checked, not decoded. */
static const char *fast_skip_value(const char *p, const char *e, int depth)
{
    if (p >= e) return NULL;
    bool esc, fl;
    switch (*p) {
    case '"': return fast_string_end(p + 1, e, &esc);
    case 'n': return fast_word_end(p, e, "null", 4);
    case 't': return fast_word_end(p, e, "true", 4);
    case 'f': return fast_word_end(p, e, "false", 5);
    case '{': case '[': {
        if (depth + 1 > FAST_MAX_DEPTH) return NULL;
        bool obj = *p == '{';
        char close = obj ? '}' : ']';
        p = fast_ws(p + 1, e);
        if (p < e && *p == close) return p + 1;
        for (;;) {
            p = fast_ws(p, e);
            if (obj) {
                if (p >= e || *p != '"' || !(p = fast_string_end(p + 1, e, &esc))) return NULL;
                p = fast_ws(p, e);
                if (p >= e || *p != ':') return NULL;
                p = fast_ws(p + 1, e);
            }
            if (!(p = fast_skip_value(p, e, depth + 1))) return NULL;
            p = fast_ws(p, e);
            if (p >= e) return NULL;
            if (*p == ',') { p++; continue; }
            if (*p == close) return p + 1;
            return NULL;
        }
    }
    default: return fast_number_end(p, e, &fl);
    }
}

static inline int digits2(const char *s)
{
    return is_digit(s[0]) && is_digit(s[1]) ? (s[0] - '0') * 10 + (s[1] - '0') : -1;
}

/* 'yyyy-MM-dd HH:mm:ss[.f{1,9}]' (sep 'T' for ISO-8601) into a TIMESTAMP as conv_timestamp reads
   it; false for any other form (a day past the month's end, a sign, a short time...), which
   conv_timestamp then reads or rejects. The second (the first 19 bytes) is taken from memo when
   its bytes are memo's, and kept there when they are read. */
static bool fast_timestamp(const char *s, int len, char sep, TsMemo *memo, WTimestamp *out)
{
    if (len < 19 || len == 20 || len > 29) return false;
    uint64_t w[3];
    memcpy(&w[0], s, 8);
    memcpy(&w[1], s + 8, 8);
    memcpy(&w[2], s + 11, 8);
    int64_t sec_ms;
    if (memo->set && w[0] == memo->w[0] && w[1] == memo->w[1] && w[2] == memo->w[2]) {
        sec_ms = memo->ms;
    } else {
        if (s[4] != '-' || s[7] != '-' || s[10] != sep || s[13] != ':' || s[16] != ':') return false;
        int y1 = digits2(s), y2 = digits2(s + 2), mo = digits2(s + 5), d = digits2(s + 8);
        int h = digits2(s + 11), mi = digits2(s + 14), se = digits2(s + 17);
        if (y1 < 0 || y2 < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59)
            return false;
        int y = y1 * 100 + y2;
        if (d > wconn_month_len(y, mo)) return false;
        sec_ms = wconn_days_from_civil(y, mo, d) * 86400000LL + ((int64_t)h * 3600 + mi * 60 + se) * 1000;
        *memo = (TsMemo){.w = {w[0], w[1], w[2]}, .ms = sec_ms, .set = true};
    }
    int64_t ns = 0;
    if (len > 19) {
        if (s[19] != '.') return false;
        for (int i = 20; i < len; i++) {
            if (!is_digit(s[i])) return false;
            ns = ns * 10 + (s[i] - '0');
        }
        static const int32_t SCALE[10] = {1000000000, 100000000, 10000000, 1000000, 100000, 10000, 1000, 100, 10, 1};
        assert(len - 20 >= 1 && len - 20 <= 9);
        ns *= SCALE[len - 20];          /* the fraction's digits to nanoseconds */
    }
    out->ms = sec_ms + ns / 1000000;
    out->ns = (int32_t)(ns % 1000000);
    return true;
}

typedef struct FastCtx {
    WJsonReader *r;
    const char *end;
    WArena *arena;                      /* the chunk's */
    char eb[512];
} FastCtx;

static int fast_object(FastCtx *x, const FastLevel *l, const char **pp, WChunk *ch, int row, WComposite *cx, int depth);

/* The value at *pp read into type t (kid: its level when t is a ROW): 1 = a value, 0 = NULL,
   -1 = give the line to the tree path. */
static int fast_value(FastCtx *x, const WType *t, const FastLevel *kid, const char **pp, WDatum *out, int depth)
{
    const char *p = *pp, *e = x->end;
    WJson v;                            /* set by the cases that end in conv() (not per value) */
    if (p >= e) return -1;
    switch (*p) {
    case '"': {
        bool esc = false;
        const char *q = fast_string_end(p + 1, e, &esc);
        if (!q) return -1;
        *pp = q;
        int n = (int)(q - 1 - (p + 1));
        bool text = t->id == WT_VARCHAR || t->id == WT_CHAR;
        if (!esc) {
            if (t->id == WT_TIMESTAMP && fast_timestamp(p + 1, n, x->r->cfg.iso8601 ? 'T' : ' ', &x->r->ts_memo, &out->ts)) return 1;
            if (text) {
                out->s.p = n ? wa_memdup(x->arena, p + 1, (size_t)n) : "";
                out->s.len = n;
                return 1;
            }
            v = (WJson){.kind = WJ_STRING, .s = p + 1, .len = n};
        } else {
            char *d = wa_alloc(text ? x->arena : x->r->scratch, UNESCAPE_ROOM(n));
            int dn = fast_unescape(p + 1, n, d);
            if (text) {
                out->s.p = dn ? d : "";
                out->s.len = dn;
                return 1;
            }
            v = (WJson){.kind = WJ_STRING, .s = d, .len = dn};
        }
        break;
    }
    case 'n':
        if (!(*pp = fast_word_end(p, e, "null", 4))) return -1;
        return 0;
    case 't':
        if (!(*pp = fast_word_end(p, e, "true", 4))) return -1;
        v = (WJson){.kind = WJ_TRUE};
        break;
    case 'f':
        if (!(*pp = fast_word_end(p, e, "false", 5))) return -1;
        v = (WJson){.kind = WJ_FALSE};
        break;
    case '{':
        if (kid) {
            assert(t->id == WT_ROW && t->nfields == kid->n);
            size_t nf = (size_t)(t->nfields ? t->nfields : 1);
            /* its values, the composite and its null flags in one allocation (one per row; the
               arena's 16-byte alignment is the values') */
            _Static_assert(sizeof(WDatum) % _Alignof(WComposite) == 0, "the header follows the values aligned");
            unsigned char *m = wa_alloc(x->arena, nf * sizeof(WDatum) + sizeof(WComposite) + nf);
            WComposite *cx = (WComposite *)(void *)(m + nf * sizeof(WDatum));
            cx->n = t->nfields;
            cx->vals = (WDatum *)(void *)m;
            cx->nulls = (uint8_t *)(cx + 1);
            memset(cx->vals, 0, nf * sizeof(WDatum));
            memset(cx->nulls, 1, nf);
            if (fast_object(x, kid, pp, NULL, 0, cx, depth + 1) < 0) return -1;
            out->cx = cx;
            return 1;
        }
        /* fall through - an object read into another type */
    case '[': {
        const char *q = fast_skip_value(p, e, depth);
        if (!q) return -1;
        *pp = q;
        WJson *tree = wjson_parse(x->r->scratch, p, (size_t)(q - p), false, x->eb, sizeof x->eb);
        if (!tree) return -1;
        int k = conv(x->r, t, tree, out, x->arena, x->eb, sizeof x->eb);
        return k < 0 ? -1 : k;
    }
    default: {
        if (t->id == WT_BIGINT || t->id == WT_INT) {   /* an integer of up to 18 digits, in one pass */
            const char *q = p + (*p == '-'), *d0 = q;
            int64_t x64 = 0;
            int nd = wconn_read_digits(q, &x64);    /* stops at the buffer's zeroed padding */
            if (nd > e - q) nd = 19;                /* digits beyond the line: not this number's */
            q += nd <= 18 ? nd : 0;
            if (q > d0 && !(*d0 == '0' && q - d0 > 1) &&
                (q == e || (!is_digit(*q) && *q != '.' && *q != 'e' && *q != 'E'))) {
                if (*p == '-') x64 = -x64;
                if (t->id == WT_BIGINT || (x64 >= INT32_MIN && x64 <= INT32_MAX)) {
                    *pp = q;
                    out->i = x64;
                    return 1;
                }
            }
        }
        bool fl;
        const char *q = fast_number_end(p, e, &fl);
        if (!q) return -1;
        *pp = q;
        int n = (int)(q - p);
        v = (WJson){.kind = WJ_NUMBER, .is_float = fl, .s = p, .len = n};
        break;
    }
    }
    int k = conv(x->r, t, &v, out, x->arena, x->eb, sizeof x->eb);
    return k < 0 ? -1 : k;
}

/* The object at *pp (on '{') into the fields of level l: the columns of row `row` of ch, or cx's
   values (nulls preset to 1). 0 = read, -1 = give the line to the tree path. */
static int fast_object(FastCtx *x, const FastLevel *l, const char **pp, WChunk *ch, int row, WComposite *cx, int depth)
{
    const char *p = fast_ws(*pp + 1, x->end), *e = x->end;
    uint64_t seen = 0;
    int hint = 0;
    if (p < e && *p == '}') {
        p++;
    } else {
        /* Compact JSON ("k":v,"k":v) takes no whitespace scan: a byte at e or past it is never a
           quote, colon, comma or a byte above the space (a newline or the buffer's zeroed pad),
           so a test that passes did not read beyond the data. */
        for (;;) {
            if (*p != '"') {
                p = fast_ws(p, e);
                if (p >= e || *p != '"') return -1;
            }
            const char *k = p + 1, *q;
            int f;
            if (hint < l->n && key_colon_at(l, hint, k)) {  /* members usually come in the columns' order */
                f = hint;
                p = fast_ws(k + l->lens[f] + 2, e);
            } else {
                q = fast_scan_string(k, e);
                if (q >= e || *q != '"') return -1;     /* an escaped key (or a bad one) */
                f = fast_lookup(l, k, (int)(q - k), e);
                p = fast_ws(q + 1, e);
                if (p >= e || *p != ':') return -1;
                p = fast_ws(p + 1, e);
            }
            hint = f + 1;
            if (f < 0 || !(l->want >> f & 1)) {
                if (!(p = fast_skip_value(p, e, depth))) return -1;
            } else {
                if (seen >> f & 1) return -1;           /* a duplicate member: the last one wins */
                seen |= (uint64_t)1 << f;
                WDatum *d = ch ? &ch->cols[f].data[row] : &cx->vals[f];
                int kk = fast_value(x, l->types[f], l->kids[f], &p, d, depth);
                if (kk < 0) return -1;
                if (ch) ch->cols[f].nulls[row] = kk != 1;
                else cx->nulls[f] = kk != 1;
            }
            if (*p == ',') { p++; continue; }
            p = fast_ws(p, e);
            if (p >= e) return -1;
            if (*p == ',') { p++; continue; }
            if (*p == '}') { p++; break; }
            return -1;
        }
    }
    if (x->r->cfg.fail_on_missing && (seen & l->want) != l->want) return -1;
    *pp = p;
    return 0;
}

/* The name tables for the columns read (plain 'json' lines only). */
static void fast_rebuild(WJsonReader *r)
{
    fast_level_free(r->fast);
    r->fast = r->cfg.envelope == WJF_PLAIN && !r->tree_only
                  ? fast_level_new(r->ncols, r->names, r->types, r->skip, r->cfg.fail_on_missing ? NULL : r->field_reads)
                  : NULL;
}

/* The object at *pp (on '{'; the data ends at e) into the next row of out: 1 = read (*pp after
   the object), 0 = not taken (out unchanged but for its arena). */
static int fast_row(WJsonReader *r, const char **pp, const char *e, WChunk *out)
{
    FastCtx x;                          /* eb is written only by a failing conv() */
    x.r = r;
    x.end = e;
    x.arena = out->arena;
    assert(out->nrows < out->cap);
    int row = out->nrows++;             /* wchunk_add_row's slot, its nulls set here (all NULL) */
    out->kinds[row] = WRK_INSERT;
    for (int c = 0; c < r->ncols; c++) out->cols[c].nulls[row] = 1;
    if (fast_object(&x, r->fast, pp, out, row, NULL, 1) < 0) {
        out->nrows--;
        return 0;
    }
    return 1;
}

/* One 'json' line into the next row of out: 1 = read, 0 = not taken (out unchanged but for its
   arena): the tree path reads it. */
static int fast_line(WJsonReader *r, const char *line, int len, WChunk *out)
{
    const char *e = line + len, *p = fast_ws(line, e);
    if (p >= e || *p != '{') return 0;
    return fast_row(r, &p, e, out);
}

/* ------------------------------------------------------------------------------------------ */
/* reader                                                                                      */

WJsonReader *wjsonfmt_reader_new(const WJsonFmt *cfg, int ncols, const char **names, const WType **types)
{
    WJsonReader *r = wcalloc(1, sizeof *r);
    r->cfg = *cfg;
    r->cfg.null_key_literal = wstrdup(cfg->null_key_literal ? cfg->null_key_literal : "null");
    wcsv_config_init(&r->csv, false);
    r->ncols = ncols;
    size_t n1 = (size_t)(ncols ? ncols : 1);
    r->names = wmalloc(sizeof(char *) * n1);
    r->types = wmalloc(sizeof(WType *) * n1);
    for (int i = 0; i < ncols; i++) { r->names[i] = wstrdup(names[i]); r->types[i] = types[i]; }
    r->skip = wcalloc(n1, 1);
    r->field_reads = wmalloc(sizeof(uint64_t) * n1);
    for (int i = 0; i < ncols; i++) r->field_reads[i] = UINT64_MAX;
    find_big_decimals(r);
    fast_rebuild(r);
    r->scratch = warena_new(0);
    r->fd = -1;
    return r;
}

void wjsonfmt_reader_skip_column(WJsonReader *r, int col)
{
    assert(col >= 0 && col < r->ncols);
    r->skip[col] = 1;
    find_big_decimals(r);
    fast_rebuild(r);
}

void wjsonfmt_reader_read_fields(WJsonReader *r, int col, uint64_t mask)
{
    assert(col >= 0 && col < r->ncols);
    r->field_reads[col] = mask;
    fast_rebuild(r);
}

void wjsonfmt_reader_tree_only(WJsonReader *r)
{
    r->tree_only = true;
    fast_rebuild(r);
}

int64_t wjsonfmt_reader_fast_lines(const WJsonReader *r) { return r->fast_lines; }

void wjsonfmt_reader_close(WJsonReader *r)
{
    if (!r) return;
    if (r->fd >= 0) close(r->fd);
    r->fd = -1;
    free(r->path);
    r->path = NULL;
    r->len = r->pos = 0;
}

void wjsonfmt_reader_free(WJsonReader *r)
{
    if (!r) return;
    wjsonfmt_reader_close(r);
    free(r->buf);
    for (int i = 0; i < r->ncols; i++) free((char *)r->names[i]);
    free(r->names);
    free(r->types);
    free(r->skip);
    free(r->field_reads);
    fast_level_free(r->fast);
    wcsv_config_free(&r->csv);
    wjsonfmt_config_free(&r->cfg);
    warena_delete(r->scratch);
    free(r);
}

static bool io_error(WJsonReader *r, const char *what, WError *err)
{
    werr_set(err, WEXC_IO, "%s '%s': %s", what, r->path ? r->path : "?", strerror(errno));
    if (err) snprintf(err->file, sizeof err->file, "%s", r->path ? r->path : "");
    return false;
}

bool wjsonfmt_reader_open(WJsonReader *r, const char *path, int64_t offset, int64_t line, WError *err)
{
    wjsonfmt_reader_close(r);
    r->path = wstrdup(path);
    r->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (r->fd < 0) return io_error(r, "Failed to open", err);
    if (offset > 0 && lseek(r->fd, (off_t)offset, SEEK_SET) < 0) return io_error(r, "Failed to seek", err);
    r->buf_off = offset;
    r->line = line;
    r->len = r->pos = 0;
    r->eof = false;
    return true;
}

void wjsonfmt_reader_position(const WJsonReader *r, int64_t *offset, int64_t *line)
{
    *offset = r->buf_off + (int64_t)r->pos;
    *line = r->line;
}

/* Move unread bytes to the front and read more, growing the buffer when a line does not fit. */
static bool refill(WJsonReader *r, WError *err)
{
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->buf_off += (int64_t)r->pos;
        r->len -= r->pos;
        r->pos = 0;
    }
    if (r->len == r->cap) {
        r->cap = r->cap ? r->cap * 2 : BUF_INIT;
        r->buf = wrealloc(r->buf, r->cap + BUF_PAD);
    }
    while (r->len < r->cap && !r->eof) {
        ssize_t n = read(r->fd, r->buf + r->len, r->cap - r->len);
        if (n < 0) {
            if (errno == EINTR) continue;
            return io_error(r, "Failed to read", err);
        }
        if (n == 0) { r->eof = true; break; }
        r->len += (size_t)n;
    }
    memset(r->buf + r->len, 0, BUF_PAD);
    return true;
}

bool wjsonfmt_line_error(WJsonReader *r, const char *what, const char *line, int len, const char *field,
                         const char *cause, WError *err)
{
    while (len > 0 && line[len - 1] == '\r') len--;
    int shown = len > 200 ? 200 : len;
    if (field)
        werr_set(err, WEXC_IO, "%s '%.*s%s' at %s:%lld, field '%s': %s", what, shown, line,
                 len > shown ? "..." : "", r->path, (long long)r->line, field, cause);
    else
        werr_set(err, WEXC_IO, "%s '%.*s%s' at %s:%lld: %s", what, shown, line,
                 len > shown ? "..." : "", r->path, (long long)r->line, cause);
    if (err) {
        snprintf(err->file, sizeof err->file, "%s", r->path);
        err->file_line = (long)r->line;
    }
    return false;
}

const char *wjsonfmt_reader_column(const WJsonReader *r, int i)
{
    assert(i >= 0 && i < r->ncols);
    return r->names[i];
}

const WJsonFmt *wjsonfmt_reader_config(const WJsonReader *r) { return &r->cfg; }

int wjsonfmt_read_object(WJsonReader *r, const WJson *obj, WChunk *out, WRowKind kind, int *bad_col,
                         char *eb, size_t esz)
{
    assert(obj && obj->kind == WJ_OBJECT && out->nrows < out->cap);
    int row = wchunk_add_row(out, kind);
    for (int c = 0; c < r->ncols; c++) {
        if (r->skip[c]) { out->cols[c].nulls[row] = 1; continue; }
        const WJson *f = wjson_get(obj, r->names[c], strlen(r->names[c]));
        if (!f && r->cfg.fail_on_missing) {
            out->nrows--;
            *bad_col = -1;
            snprintf(eb, esz, "Could not find field with name '%s'.", r->names[c]);
            return -1;
        }
        int k = conv(r, r->types[c], f, &out->cols[c].data[row], out->arena, eb, esz);
        if (k < 0) {
            if (!r->cfg.ignore_errors) {
                out->nrows--;
                *bad_col = c;
                return -1;
            }
            k = 0;
        }
        out->cols[c].nulls[row] = k != 1;
    }
    return 1;
}

/* Parse one line into the next row(s) of out. 1 row(s) added or the line skipped, -1 error. */
static int parse_line(WJsonReader *r, const char *line, int len, WChunk *out, int64_t *skipped, WError *err)
{
    warena_reset(r->scratch);
    char eb[512];
    if (r->cfg.envelope == WJF_DEBEZIUM && len == 0) return 1;     /* an empty message: no rows */
    if (r->fast && fast_line(r, line, len, out)) { r->fast_lines++; return 1; }
    WJson *doc = wjson_parse(r->scratch, line, (size_t)len, false, eb, sizeof eb);
    if (r->cfg.envelope == WJF_DEBEZIUM) {
        if (!doc) {
            if (r->cfg.ignore_errors) { if (skipped) (*skipped)++; return 1; }
            return wjsonfmt_line_error(r, "Corrupt Debezium JSON message", line, len, NULL, eb, err) ? 1 : -1;
        }
        return wdbzjson_read_line(r, doc, line, len, out, skipped, err);
    }
    if (doc && doc->kind != WJ_OBJECT) {
        doc = NULL;
        snprintf(eb, sizeof eb, "No content to map due to end-of-input");
    }
    if (!doc) {
        if (r->cfg.ignore_errors) { if (skipped) (*skipped)++; return 1; }
        return wjsonfmt_line_error(r, "Failed to deserialize JSON", line, len, NULL, eb, err) ? 1 : -1;
    }
    int bad = -1;
    if (wjsonfmt_read_object(r, doc, out, WRK_INSERT, &bad, eb, sizeof eb) < 0)
        return wjsonfmt_line_error(r, "Failed to deserialize JSON", line, len, bad >= 0 ? r->names[bad] : NULL, eb, err)
               ? 1 : -1;
    return 1;
}

/* The fast line reader on the line at start, whose end is not known yet (the data ends at e,
   readable up to e + BUF_PAD): nothing in a line's parse crosses a newline (strings stop at
   control characters, fast_ws at '\n'), so the object is read first and its line's end found
   after it, usually the next byte; one pass over the bytes instead of a newline search and a
   parse. Returns the line's length (the row added) or -1 (nothing added, the line's end not
   looked for): the caller takes the two-pass way, which also sees incomplete lines. */
static ssize_t fast_next_line(WJsonReader *r, const char *start, const char *e, WChunk *out)
{
    const char *p = fast_ws(start, e);
    if (p >= e || *p != '{') return -1;
    warena_reset(r->scratch);
    if (!fast_row(r, &p, e, out)) return -1;
    const char *nl = p < e && *p == '\n' ? p : memchr(p, '\n', (size_t)(e - p));   /* usually the next byte */
    if (!nl) {                          /* the buffer ends before the line does */
        out->nrows--;
        return -1;
    }
    r->fast_lines++;
    return nl - start;
}

int wjsonfmt_reader_fill(WJsonReader *r, WChunk *out, int64_t *skipped, WError *err)
{
    if (r->fd < 0) return 0;
    /* room for the rows one line can give (an update: -U and +U) */
    int per_line = r->cfg.envelope == WJF_DEBEZIUM ? 2 : 1;
    assert(out->cap >= per_line);
    while (out->nrows + per_line <= out->cap) {
        /* no buffer before the first refill: no pointer arithmetic on NULL (UBSan, found by
           tests/fuzz/fuzz_formats.c) */
        char *start = r->buf ? r->buf + r->pos : NULL;
        if (r->fast && r->len > r->pos) {
            ssize_t n = fast_next_line(r, start, r->buf + r->len, out);
            if (n >= 0) {
                r->pos += (size_t)n + 1;
                r->line++;
                continue;
            }
        }
        char *nl = r->len > r->pos ? memchr(start, '\n', r->len - r->pos) : NULL;
        if (!nl && !r->eof) {
            if (!refill(r, err)) return -1;
            continue;
        }
        size_t llen = nl ? (size_t)(nl - start) : r->len - r->pos;
        if (!nl && llen == 0) return 0;             /* end of file */
        int k = parse_line(r, start, (int)llen, out, skipped, err);
        if (k < 0) return -1;
        r->pos += llen + (nl ? 1 : 0);
        r->line++;
    }
    return 1;
}
