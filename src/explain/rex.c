/*
 * rex.c — expressions and types as Flink's plans print them: Calcite's RexNode digest (prefix
 * calls, _UTF-16LE string literals, typed literals such as 10000:INTERVAL SECOND) for the
 * abstract syntax tree and the optimized physical plan, Flink's infix form for the execution plan
 * and compiled-plan descriptions, and the RexNode JSON of compiled plans. See explain_internal.h.
 */
#include "../common/base64.h"
#include "../common/sort.h"
#include "explain_internal.h"
#include "../expr/functions.h"
#include "../types/format.h"
#include "../types/datetime.h"
#include "../plan/reduce.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* How weir's operator functions print. */
enum { ST_FUNC, ST_BINARY, ST_PREFIX, ST_POSTFIX };

typedef struct OpInfo {
    const char *weir;       /* WFuncDef name */
    const char *calcite;    /* operator name in plans and JSON internal names */
    int style;
    const char *syntax;     /* JSON "syntax" (NULL = plain function, omitted) */
} OpInfo;

static const OpInfo OPS[] = {
    {"+", "+", ST_BINARY, "BINARY"}, {"-", "-", ST_BINARY, "BINARY"}, {"*", "*", ST_BINARY, "BINARY"},
    {"/", "/", ST_BINARY, "BINARY"}, {"%", "MOD", ST_FUNC, NULL}, {"=", "=", ST_BINARY, "BINARY"},
    {"<>", "<>", ST_BINARY, "BINARY"}, {"<", "<", ST_BINARY, "BINARY"}, {"<=", "<=", ST_BINARY, "BINARY"},
    {">", ">", ST_BINARY, "BINARY"}, {">=", ">=", ST_BINARY, "BINARY"},
    {"||", "||", ST_FUNC, "BINARY"},     /* ||(s, 'ab') in the execution plan too (Flink 2.3) */
    {"NEG", "-", ST_PREFIX, "PREFIX"}, {"LIKE", "LIKE", ST_FUNC, "SPECIAL"},
    {"SIMILAR", "SIMILAR TO", ST_FUNC, "SPECIAL"},
    {"IS TRUE", "IS TRUE", ST_POSTFIX, "POSTFIX"}, {"IS NOT TRUE", "IS NOT TRUE", ST_POSTFIX, "POSTFIX"},
    {"IS FALSE", "IS FALSE", ST_POSTFIX, "POSTFIX"}, {"IS NOT FALSE", "IS NOT FALSE", ST_POSTFIX, "POSTFIX"},
    {"IS UNKNOWN", "IS UNKNOWN", ST_POSTFIX, "POSTFIX"},
    {"IS NOT UNKNOWN", "IS NOT UNKNOWN", ST_POSTFIX, "POSTFIX"},
    {"IS DISTINCT FROM", "IS DISTINCT FROM", ST_BINARY, "BINARY"},
    {"IS NOT DISTINCT FROM", "IS NOT DISTINCT FROM", ST_BINARY, "BINARY"},
};

static const OpInfo *op_info(const char *name)
{
    for (size_t i = 0; i < sizeof OPS / sizeof OPS[0]; i++)
        if (!strcmp(OPS[i].weir, name)) return &OPS[i];
    return NULL;
}

/* ---------------- types ---------------- */

/* Flink's serializable type string: VARCHAR(2147483647) for STRING, no time-attribute marker. */
const char *ex_type_str(WArena *a, const WType *t)
{
    WStrBuf b;
    wsb_init(&b);
    wtype_to_string(t, &b);
    WStrBuf o;
    wsb_init(&o);
    const char *s = b.buf ? b.buf : "";
    while (*s) {
        if (!strncmp(s, "STRING", 6) && (s == b.buf || s[-1] == ' ' || s[-1] == '<' || s[-1] == '(')) {
            wsb_puts(&o, "VARCHAR(2147483647)");
            s += 6;
        } else if (!strncmp(s, "BYTES", 5) && (s == b.buf || s[-1] == ' ' || s[-1] == '<' || s[-1] == '(')) {
            wsb_puts(&o, "VARBINARY(2147483647)");
            s += 5;
        } else if (!strncmp(s, " *ROWTIME*", 10)) {
            s += 10;
        } else if (!strncmp(s, " *PROCTIME*", 11)) {
            s += 11;
        } else {
            wsb_putc(&o, *s++);
        }
    }
    const char *r = wa_strdup(a, o.buf ? o.buf : "");
    wsb_free(&b);
    wsb_free(&o);
    return r;
}

const char *ex_type_serial(WArena *a, const WType *t)
{
    const char *s = ex_type_str(a, t);
    if (!strstr(s, "TIMESTAMP_LTZ(")) return s;
    /* LocalZonedTimestampType.asSerializableString: TIMESTAMP(p) WITH LOCAL TIME ZONE */
    WStrBuf o;
    wsb_init(&o);
    while (*s) {
        int p = 0, n = 0;
        if (sscanf(s, "TIMESTAMP_LTZ(%d)%n", &p, &n) == 1 && n > 0) {
            wsb_printf(&o, "TIMESTAMP(%d) WITH LOCAL TIME ZONE", p);
            s += n;
        } else {
            wsb_putc(&o, *s++);
        }
    }
    const char *r = wa_strdup(a, o.buf ? o.buf : "");
    wsb_free(&o);
    return r;
}

json_t *ex_type_json(const WType *t)
{
    WArena *a = warena_new(0);
    json_t *j;
    if ((t->id == WT_TIMESTAMP || t->id == WT_TIMESTAMP_LTZ) && t->time_attr != WTA_NONE) {
        j = json_object();
        json_object_set_new(j, "type", json_string(t->id == WT_TIMESTAMP ? "TIMESTAMP_WITHOUT_TIME_ZONE"
                                                                         : "TIMESTAMP_WITH_LOCAL_TIME_ZONE"));
        if (!t->nullable) json_object_set_new(j, "nullable", json_false());
        json_object_set_new(j, "precision", json_integer(t->precision));
        json_object_set_new(j, "kind", json_string(t->time_attr == WTA_ROWTIME ? "ROWTIME" : "PROCTIME"));
    } else {
        j = json_string(ex_type_serial(a, t));
    }
    warena_delete(a);
    return j;
}

json_t *ex_row_type_json(WArena *a, const WSchema *s)
{
    bool structured = false;
    for (int i = 0; i < s->n; i++)
        if (wtype_is_timestamp(s->types[i]) && s->types[i]->time_attr != WTA_NONE) structured = true;
    if (!structured) {
        WStrBuf b;
        wsb_init(&b);
        wsb_puts(&b, "ROW<");
        for (int i = 0; i < s->n; i++)
            wsb_printf(&b, "%s`%s` %s", i ? ", " : "", s->names[i], ex_type_serial(a, s->types[i]));
        wsb_puts(&b, ">");
        json_t *j = json_string(b.buf);
        wsb_free(&b);
        return j;
    }
    json_t *j = json_object();
    json_object_set_new(j, "type", json_string("ROW"));
    json_t *fields = json_array();
    for (int i = 0; i < s->n; i++) {
        json_t *f = json_object();
        json_object_set_new(f, "name", json_string(s->names[i]));
        json_object_set_new(f, "fieldType", ex_type_json(s->types[i]));
        json_array_append_new(fields, f);
    }
    json_object_set_new(j, "fields", fields);
    return j;
}

/* Calcite's type names (as in CAST digests and typed literals). */
static void calcite_type(WStrBuf *out, const WType *t, bool with_null)
{
    switch (t->id) {
    case WT_INT: wsb_puts(out, "INTEGER"); break;
    case WT_VARCHAR:
        wsb_printf(out, "VARCHAR(%d) CHARACTER SET \"UTF-16LE\"", t->precision);
        break;
    case WT_CHAR: wsb_printf(out, "CHAR(%d) CHARACTER SET \"UTF-16LE\"", t->precision); break;
    case WT_TIMESTAMP_LTZ: wsb_printf(out, "TIMESTAMP_WITH_LOCAL_TIME_ZONE(%d)", t->precision); break;
    /* composite types as Calcite's getFullTypeString: INTEGER ARRAY, (K, V) MAP,
       RecordType:peek_no_expand(T name, ...), the inner types with their NOT NULL */
    case WT_ARRAY: case WT_MULTISET:
        if (!t->elem) goto other;
        calcite_type(out, t->elem, true);
        wsb_puts(out, t->id == WT_ARRAY ? " ARRAY" : " MULTISET");
        break;
    case WT_MAP:
        if (!t->elem || !t->key) goto other;
        wsb_putc(out, '(');
        calcite_type(out, t->key, true);
        wsb_puts(out, ", ");
        calcite_type(out, t->elem, true);
        wsb_puts(out, ") MAP");
        break;
    case WT_ROW:
        wsb_puts(out, "RecordType:peek_no_expand(");
        for (int i = 0; i < t->nfields; i++) {
            if (i) wsb_puts(out, ", ");
            calcite_type(out, t->fields[i], true);
            wsb_printf(out, " %s", t->field_names[i]);
        }
        wsb_putc(out, ')');
        break;
    default: other: {
        WArena *a = warena_new(0);
        const char *s = ex_type_str(a, wtype_with_nullable(a, t, true));
        wsb_puts(out, s);
        warena_delete(a);
        break;
    }
    }
    if (with_null && !t->nullable) wsb_puts(out, " NOT NULL");
}

/* The target type of a CAST in the execution plan: Calcite's type name without the character
   set and nullability (INTEGER, VARCHAR(2147483647), TIMESTAMP_WITH_LOCAL_TIME_ZONE(3),
   INTEGER ARRAY) */
static void exec_cast_type(WStrBuf *out, const WType *t)
{
    switch (t->id) {
    case WT_INT: wsb_puts(out, "INTEGER"); return;
    case WT_VARCHAR: wsb_printf(out, "VARCHAR(%d)", t->precision); return;
    case WT_CHAR: wsb_printf(out, "CHAR(%d)", t->precision); return;
    case WT_TIMESTAMP_LTZ: wsb_printf(out, "TIMESTAMP_WITH_LOCAL_TIME_ZONE(%d)", t->precision); return;
    case WT_ARRAY: case WT_MULTISET:
        if (t->elem) {
            exec_cast_type(out, t->elem);
            wsb_puts(out, t->id == WT_ARRAY ? " ARRAY" : " MULTISET");
            return;
        }
        break;
    case WT_MAP:
        if (t->elem && t->key) {
            wsb_putc(out, '(');
            exec_cast_type(out, t->key);
            wsb_puts(out, ", ");
            exec_cast_type(out, t->elem);
            wsb_puts(out, ") MAP");
            return;
        }
        break;
    case WT_ROW:
        wsb_puts(out, "RecordType:peek_no_expand(");
        for (int i = 0; i < t->nfields; i++) {
            if (i) wsb_puts(out, ", ");
            exec_cast_type(out, t->fields[i]);
            wsb_printf(out, " %s", t->field_names[i]);
        }
        wsb_putc(out, ')');
        return;
    default: break;
    }
    WArena *a = warena_new(0);
    wsb_puts(out, ex_type_str(a, wtype_with_nullable(a, t, true)));
    warena_delete(a);
}

void ex_calcite_type_name(WStrBuf *out, const WType *t)
{
    exec_cast_type(out, t);
}

static const char *interval_qual(WIntervalQual q)
{
    switch (q) {
    case WIQ_YEAR: return "YEAR";
    case WIQ_YEAR_TO_MONTH: return "YEAR TO MONTH";
    case WIQ_MONTH: return "MONTH";
    case WIQ_DAY: return "DAY";
    case WIQ_DAY_TO_HOUR: return "DAY TO HOUR";
    case WIQ_DAY_TO_MINUTE: return "DAY TO MINUTE";
    case WIQ_DAY_TO_SECOND: return "DAY TO SECOND";
    case WIQ_HOUR: return "HOUR";
    case WIQ_HOUR_TO_MINUTE: return "HOUR TO MINUTE";
    case WIQ_HOUR_TO_SECOND: return "HOUR TO SECOND";
    case WIQ_MINUTE: return "MINUTE";
    case WIQ_MINUTE_TO_SECOND: return "MINUTE TO SECOND";
    default: return "SECOND";
    }
}

/* ---------------- literals ---------------- */

static void put_quoted(WStrBuf *out, const char *p, int len)
{
    wsb_putc(out, '\'');
    for (int i = 0; i < len; i++) {
        if (p[i] == '\'') wsb_putc(out, '\'');
        wsb_putc(out, p[i]);
    }
    wsb_putc(out, '\'');
}

/* The execution plan's string literal: quoted, a quote inside it not doubled ('it's'; measured on
   Flink 2.3, where the optimised plans show _UTF-16LE'it''s'). */
static void put_quoted_raw(WStrBuf *out, const char *p, int len)
{
    wsb_putc(out, '\'');
    wsb_appendn(out, p, (size_t)len);
    wsb_putc(out, '\'');
}

/* Calcite's digest of a DOUBLE literal: the BigDecimal it holds in scientific notation (1.5E0,
   1E-1, 1.024E3). A literal from the query holds the value as written (Java's shortest form); a
   reduced one holds the double's exact binary value cut to 20 significant digits (measured on Flink
   2.3: 0.1e0 + 0.2e0 is 3.0000000000000004440E-1). */
static void calcite_double(WStrBuf *out, double d, bool exact)
{
    char buf[64], dig[48];
    int nd = 0, exp10 = 0;
    if (exact) {
        snprintf(buf, sizeof buf, "%.40e", d);
    } else {
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
            if (strtod(buf, NULL) == d) break;
        }
    }
    const char *q = buf;
    if (*q == '-') q++;
    for (; *q && *q != 'e'; q++) if (*q >= '0' && *q <= '9' && nd < (int)sizeof dig - 1) dig[nd++] = *q;
    if (*q == 'e') exp10 = atoi(q + 1);
    while (nd > 1 && dig[nd - 1] == '0') nd--;      /* the exact value ends */
    if (exact && nd > 20) nd = 20;
    if (d < 0) wsb_putc(out, '-');
    wsb_putc(out, dig[0]);
    if (nd > 1) {
        wsb_putc(out, '.');
        wsb_appendn(out, dig + 1, (size_t)(nd - 1));
    }
    wsb_printf(out, "E%d", exp10);
}

/* "… 03:04:05.120000000" -> "… 03:04:05.12", "… 03:04:05.000000000" -> "… 03:04:05". */
static void trim_fraction(char *buf)
{
    char *dot = strrchr(buf, '.');
    if (!dot) return;
    size_t n = strlen(buf);
    while (n > (size_t)(dot - buf) + 1 && buf[n - 1] == '0') buf[--n] = 0;
    if (buf[n - 1] == '.') buf[n - 1] = 0;
}

/* A TIMESTAMP / TIME literal as Calcite prints it: the fraction without trailing zeros. */
static void calcite_time_text(WStrBuf *out, const WExpr *e)
{
    char buf[64];
    if (e->type->id == WT_TIME) wfmt_time(e->lit.i, 9, buf);
    else wfmt_timestamp(e->lit.ts, 9, buf);
    trim_fraction(buf);
    wsb_puts(out, buf);
}

/* A literal's digest. `notype`: Calcite's RexDigestIncludeType.NO_TYPE, with which Values prints
   its tuples in every section (`{ 0, null, 12.5, _UTF-16LE'a' }`: no `:TYPE` suffix, NULL as
   `null`; measured on Flink 2.3). */
static void literal(WStrBuf *out, const WExpr *e, ExDialect d, bool typed_time, bool notype)
{
    const WType *t = e->type;
    bool exec = d == EXD_EXEC || notype;
    if ((e->is_null || t->id == WT_NULL) && notype) {
        wsb_puts(out, "null");
        return;
    }
    if (e->is_null || t->id == WT_NULL) {
        /* the execution plan's types have no character set (null:VARCHAR(2147483647)) */
        wsb_puts(out, "null:");
        if (t->id == WT_NULL) wsb_puts(out, "NULL");
        else if (exec) exec_cast_type(out, t);
        else calcite_type(out, t, false);
        return;
    }
    char buf[128];
    /* the execution plan prints literals without their type (`1 AS vcol_marker`, `3.50`,
       `2020-01-01 10:00:00.123`), except intervals */
    switch (t->id) {
    case WT_BOOLEAN: wsb_puts(out, e->lit.i ? "true" : "false"); break;
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
        wsb_printf(out, "%lld", (long long)e->lit.i);
        if (exec) break;
        if (t->id == WT_BIGINT) wsb_puts(out, ":BIGINT");
        else if (t->id == WT_SMALLINT) wsb_puts(out, ":SMALLINT");
        else if (t->id == WT_TINYINT) wsb_puts(out, ":TINYINT");
        break;
    case WT_DECIMAL:
        wfmt_decimal(e->lit.dec, t->scale, buf);
        wsb_puts(out, buf);
        if (!exec) wsb_printf(out, ":DECIMAL(%d, %d)", t->precision, t->scale);
        break;
    case WT_DOUBLE:
        calcite_double(out, e->lit.d, wplan_reduced(e));
        if (!exec) wsb_puts(out, ":DOUBLE");
        break;
    case WT_FLOAT:
        wfmt_double_java(e->lit.d, buf);
        wsb_puts(out, buf);
        if (!notype) wsb_puts(out, ":FLOAT");
        break;
    case WT_CHAR: case WT_VARCHAR:
        if (!exec || (notype && d != EXD_EXEC)) wsb_puts(out, "_UTF-16LE");
        if (d == EXD_EXEC) put_quoted_raw(out, e->lit.s.p, e->lit.s.len);
        else put_quoted(out, e->lit.s.p, e->lit.s.len);
        if (t->id == WT_VARCHAR && !exec) {
            wsb_putc(out, ':');
            calcite_type(out, t, false);
        }
        break;
    case WT_DATE: wfmt_date(e->lit.i, buf); wsb_puts(out, buf); break;
    case WT_TIME: case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
        /* precision 0 is the literal's default type (10:00:00.5:TIME(1)); an LTZ instant prints
           in UTC */
        calcite_time_text(out, e);
        if (!exec && typed_time && t->precision > 0) {
            wsb_putc(out, ':');
            calcite_type(out, t, false);
        }
        break;
    case WT_INTERVAL_DT: case WT_INTERVAL_YM:
        wsb_printf(out, "%lld", (long long)e->lit.i);
        if (!notype) wsb_printf(out, ":INTERVAL %s", interval_qual(t->qual));
        break;
    case WT_BINARY: case WT_VARBINARY:
        /* X'0102':BINARY(2) */
        wsb_puts(out, "X'");
        for (int i = 0; i < e->lit.s.len; i++) wsb_printf(out, "%02X", (unsigned char)e->lit.s.p[i]);
        wsb_putc(out, '\'');
        if (!exec) {
            wsb_putc(out, ':');
            calcite_type(out, t, false);
        }
        break;
    default: {
        WStrBuf v;
        wsb_init(&v);
        wfmt_sql(t, e->lit, false, NULL, &v);
        wsb_puts(out, v.buf ? v.buf : "");
        wsb_free(&v);
    }
    }
}

void ex_literal(WStrBuf *out, const WExpr *e, ExDialect d) { literal(out, e, d, true, false); }

void ex_tuple_literal(WStrBuf *out, const WExpr *e, ExDialect d) { literal(out, e, d, false, true); }

/* ---------------- text ---------------- */

/* Whether an integer value has at most `digits` digits (the integer part of a DECIMAL). */
static bool integer_fits_decimal(int64_t v, int digits)
{
    uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    int n = 1;
    while (m >= 10) { m /= 10; n++; }
    return v == 0 ? digits >= 0 : n <= digits;
}

/* Whether an integer value is in the range of an integer type (TINYINT..BIGINT). */
static bool integer_fits(int64_t v, WTypeId id)
{
    switch (id) {
    case WT_TINYINT: return v >= INT8_MIN && v <= INT8_MAX;
    case WT_SMALLINT: return v >= INT16_MIN && v <= INT16_MAX;
    case WT_INT: return v >= INT32_MIN && v <= INT32_MAX;
    default: return true;
    }
}

static void rex(WStrBuf *out, const WExpr *e, const char *const *names, ExDialect d);

/* The keyword an argument stands for (Calcite's flag literals): TRIM's BOTH / LEADING / TRAILING
   and the ON NULL behaviour of JSON_OBJECT / JSON_ARRAY, which weir keeps as string literals.
   Printed FLAG(BOTH) in the AST and physical plans, BOTH in the execution plan. */
static const char *flag_arg(const WExpr *call, int i)
{
    if (call->kind != WX_CALL || !call->func || i != 0) return NULL;
    const WExpr *a = call->args[0];
    if (a->kind != WX_LITERAL || a->is_null || (a->type->id != WT_CHAR && a->type->id != WT_VARCHAR)) return NULL;
    static const char *const TRIM_FLAGS[] = {"BOTH", "LEADING", "TRAILING", NULL};
    static const char *const JSON_FLAGS[] = {"NULL_ON_NULL", "ABSENT_ON_NULL", NULL};
    const char *const *flags = !strcasecmp(call->func->name, "TRIM") ? TRIM_FLAGS
                             : (!strcasecmp(call->func->name, "JSON_OBJECT") || !strcasecmp(call->func->name, "JSON_ARRAY"))
                             ? JSON_FLAGS : NULL;
    for (int k = 0; flags && flags[k]; k++)
        if ((size_t)a->lit.s.len == strlen(flags[k]) && !strncmp(a->lit.s.p, flags[k], (size_t)a->lit.s.len)) return flags[k];
    return NULL;
}

/* The time unit of an EXTRACT call (its unit argument, a string literal in weir) or of a
   shorthand that Calcite turns into one (YEAR(x) is EXTRACT(YEAR FROM x), DAYOFWEEK(x) is
   EXTRACT(DOW FROM x)); NULL for any other call. */
static const char *extract_unit(const WExpr *call)
{
    if (call->kind != WX_CALL || !call->func) return NULL;
    const char *f = call->func->name;
    if (!strcasecmp(f, "EXTRACT") && call->nargs == 2) {
        const WExpr *u = call->args[0];
        if (u->kind != WX_LITERAL || u->is_null || (u->type->id != WT_CHAR && u->type->id != WT_VARCHAR)) return NULL;
        static const char *const UNITS[] = {
            "MILLENNIUM", "CENTURY", "DECADE", "YEAR", "ISOYEAR", "QUARTER", "MONTH", "WEEK", "DOY", "DOW",
            "ISODOW", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND", "EPOCH", NULL,
        };
        for (int k = 0; UNITS[k]; k++)
            if ((size_t)u->lit.s.len == strlen(UNITS[k]) && !strncasecmp(u->lit.s.p, UNITS[k], (size_t)u->lit.s.len))
                return UNITS[k];
        return NULL;
    }
    if (call->nargs != 1) return NULL;
    static const char *const SHORT[][2] = {
        {"YEAR", "YEAR"}, {"QUARTER", "QUARTER"}, {"MONTH", "MONTH"}, {"WEEK", "WEEK"},
        {"DAYOFYEAR", "DOY"}, {"DAYOFMONTH", "DAY"}, {"DAYOFWEEK", "DOW"},
        {"HOUR", "HOUR"}, {"MINUTE", "MINUTE"}, {"SECOND", "SECOND"},
    };
    for (size_t k = 0; k < sizeof SHORT / sizeof SHORT[0]; k++)
        if (!strcasecmp(f, SHORT[k][0])) return SHORT[k][1];
    return NULL;
}

static void args_list(WStrBuf *out, const WExpr *e, const char *const *names, ExDialect d, int from)
{
    for (int i = from; i < e->nargs; i++) {
        if (i > from) wsb_puts(out, ", ");
        const char *flag = flag_arg(e, i);
        if (flag && d == EXD_EXEC) wsb_puts(out, flag);
        else if (flag) wsb_printf(out, "FLAG(%s)", flag);
        else rex(out, e->args[i], names, d);
    }
}

static void call_form(WStrBuf *out, const char *name, const WExpr *e, const char *const *names, ExDialect d)
{
    wsb_printf(out, "%s(", name);
    args_list(out, e, names, d, 0);
    wsb_putc(out, ')');
}

/* n-ary AND/OR flattened as Calcite does */
static void flatten(const WExpr *e, WExprKind k, const WExpr **xs, int *n, int max)
{
    if (e->kind == k) {
        for (int i = 0; i < e->nargs; i++) flatten(e->args[i], k, xs, n, max);
    } else if (*n < max) {
        xs[(*n)++] = e;
    }
}

static void rex(WStrBuf *out, const WExpr *e, const char *const *names, ExDialect d)
{
    bool exec = d == EXD_EXEC;
    switch (e->kind) {
    case WX_COLUMN:
        if (!names) wsb_printf(out, "$%d", e->col);
        else wsb_puts(out, names[e->col]);
        return;
    case WX_LITERAL: ex_literal(out, e, d); return;
    case WX_PROCTIME: wsb_puts(out, "PROCTIME()"); return;
    case WX_AND: case WX_OR: {
        const WExpr *xs[256];
        int n = 0;
        flatten(e, e->kind, xs, &n, 256);
        const char *op = e->kind == WX_AND ? "AND" : "OR";
        if (exec) {
            wsb_putc(out, '(');
            for (int i = 0; i < n; i++) {
                if (i) wsb_printf(out, " %s ", op);
                rex(out, xs[i], names, d);
            }
            wsb_putc(out, ')');
        } else if (d == EXD_PUSHED && (e->kind == WX_OR ? n > 1 : n > 2)) {
            /* a pushed-down predicate comes back from Flink's expression conversion as nested
               binary calls: OR(OR(a, b), c), and the accepted conjuncts as and(and(a, b), c) */
            const char *fn = e->kind == WX_OR ? "OR(" : "and(";
            for (int i = 1; i < n; i++) wsb_puts(out, fn);
            rex(out, xs[0], names, d);
            for (int i = 1; i < n; i++) {
                wsb_puts(out, ", ");
                rex(out, xs[i], names, d);
                wsb_putc(out, ')');
            }
        } else {
            wsb_puts(out, d == EXD_PUSHED ? (e->kind == WX_AND ? "and" : "or") : op);
            wsb_putc(out, '(');
            for (int i = 0; i < n; i++) {
                if (i) wsb_puts(out, ", ");
                rex(out, xs[i], names, d);
            }
            wsb_putc(out, ')');
        }
        return;
    }
    case WX_NOT:
        if (exec) { wsb_puts(out, "NOT("); rex(out, e->args[0], names, d); wsb_putc(out, ')'); }
        else call_form(out, "NOT", e, names, d);
        return;
    case WX_IS_NULL: {
        const char *op = e->negated ? "IS NOT NULL" : "IS NULL";
        if (exec) { rex(out, e->args[0], names, d); wsb_printf(out, " %s", op); }
        else call_form(out, op, e, names, d);
        return;
    }
    case WX_CAST:
        if (wplan_reduced(e)) {
            /* a reduced constant of a nullable type (plan/reduce.c): Calcite's CAST of the NOT
               NULL literal, CAST(true AS BOOLEAN) */
            wsb_puts(out, "CAST(");
            rex(out, e->args[0], names, d);
            wsb_puts(out, " AS ");
            if (exec) exec_cast_type(out, e->type);
            else calcite_type(out, e->type, true);
            wsb_putc(out, ')');
            return;
        }
        /* CAST(42 AS BIGINT) written in the query: Calcite's RexBuilder.makeCast folds the cast of
           a literal whose value the type holds into a literal of that type (42:BIGINT; measured) */
        if (e->explicit_cast && !e->try_cast && e->args[0]->kind == WX_LITERAL && !e->args[0]->is_null &&
            wtype_is_integer(e->args[0]->type) && wtype_is_integer(e->type) &&
            integer_fits(e->args[0]->lit.i, e->type->id)) {
            WExpr typed = *e->args[0];
            typed.type = e->type;
            ex_literal(out, &typed, d);
            return;
        }
        bool keep_cast = false;
        /* CAST(1.5 AS DOUBLE), CAST(2 AS DECIMAL(5, 1)) written in the query: makeCast keeps the
           literal's value as written and gives it the target type (1.5:DOUBLE, 2:DECIMAL(5, 1),
           1.5E0:DECIMAL(5, 2); the execution plan shows the value only), unless the value has more
           integer digits than the DECIMAL holds (then the CAST stays; measured on Flink 2.3) */
        if (e->explicit_cast && !e->try_cast && e->args[0]->kind == WX_LITERAL && !e->args[0]->is_null &&
            (wtype_is_integer(e->args[0]->type) || e->args[0]->type->id == WT_DECIMAL ||
             e->args[0]->type->id == WT_DOUBLE) &&
            (e->type->id == WT_DOUBLE || e->type->id == WT_FLOAT || e->type->id == WT_DECIMAL) &&
            !wtype_equals(e->args[0]->type, e->type, false)) {
            const WExpr *l = e->args[0];
            bool fits = true;
            if (e->type->id == WT_DECIMAL) {
                int digits = e->type->precision - e->type->scale;
                if (wtype_is_integer(l->type)) fits = integer_fits_decimal(l->lit.i, digits);
                else if (l->type->id == WT_DECIMAL) {
                    __int128 m = l->lit.dec < 0 ? -(__int128)l->lit.dec : l->lit.dec;
                    for (int k = 0; k < l->type->scale; k++) m /= 10;
                    fits = integer_fits_decimal((int64_t)m, digits);
                } else {
                    fits = fabs(l->lit.d) < pow(10.0, digits);
                }
            }
            keep_cast = !fits;
            if (fits) {
                WStrBuf v;
                wsb_init(&v);
                literal(&v, l, EXD_EXEC, false, true);
                wsb_puts(out, v.buf ? v.buf : "");
                wsb_free(&v);
                if (!exec) {
                    wsb_putc(out, ':');
                    calcite_type(out, e->type, false);
                }
                return;
            }
        }
        /* an implicit widening of a numeric literal: Calcite keeps the literal as written; an
           explicit CAST of an integer literal to a DECIMAL too narrow for it stays a CAST
           (RexBuilder.canRemoveCastFromLiteral: CAST(586386581342:BIGINT):DECIMAL(10, 2)) */
        if (!keep_cast &&
            !(e->explicit_cast && e->type->id == WT_DECIMAL && wtype_is_integer(e->args[0]->type) &&
              e->args[0]->kind == WX_LITERAL && !e->args[0]->is_null &&
              !integer_fits_decimal(e->args[0]->lit.i, e->type->precision - e->type->scale)) &&
            !e->try_cast && e->args[0]->kind == WX_LITERAL && !e->args[0]->is_null &&
            wtype_is_numeric(e->args[0]->type) && wtype_is_numeric(e->type) &&
            (wtype_is_integer(e->args[0]->type) || e->args[0]->type->id == e->type->id)) {
            ex_literal(out, e->args[0], d);
            return;
        }
        if (!e->try_cast && e->args[0]->kind == WX_LITERAL && !e->args[0]->is_null &&
            (e->args[0]->type->id == WT_CHAR || e->args[0]->type->id == WT_VARCHAR) &&
            (e->type->id == WT_VARCHAR || e->type->id == WT_CHAR)) {
            /* a string literal cast to a type that holds it unchanged is a typed literal in
               Calcite (the reduction folds the CAST): 'x':VARCHAR(5) CHARACTER SET "UTF-16LE" */
            const WStr *v = &e->args[0]->lit.s;
            int chars = 0;
            for (size_t k = 0; k < (size_t)v->len; k++) chars += ((unsigned char)v->p[k] & 0xC0) != 0x80;
            if (e->type->id == WT_VARCHAR ? chars <= e->type->precision : chars == e->type->precision) {
                ex_literal(out, e->args[0], d);
                if (!exec) {
                    wsb_putc(out, ':');
                    calcite_type(out, e->type, false);
                }
                return;
            }
        }
        if (exec) {
            wsb_puts(out, e->try_cast ? "TRY_CAST(" : "CAST(");
            rex(out, e->args[0], names, d);
            wsb_puts(out, " AS ");
            exec_cast_type(out, e->type);
            wsb_putc(out, ')');
        } else if (d == EXD_REL || d == EXD_MATCH) {
            /* Flink 2.x's physical digests: CAST(x AS <Calcite type>); a cast that only makes a string
               nullable (a NOT NULL metadata column read into a STRING column) shows no character
               set, as recorded from Flink 2.3 */
            wsb_puts(out, e->try_cast ? "TRY_CAST(" : "CAST(");
            rex(out, e->args[0], names, d);
            wsb_puts(out, " AS ");
            const WType *from = e->args[0]->type;
            if (e->type->id == WT_VARCHAR && from->id == WT_VARCHAR && from->precision == e->type->precision &&
                !from->nullable && e->type->nullable)
                wsb_printf(out, "VARCHAR(%d)", e->type->precision);
            else
                calcite_type(out, e->type, true);
            wsb_putc(out, ')');
        } else if (!e->try_cast && e->args[0]->kind == WX_LITERAL && e->args[0]->type->id == WT_NULL) {
            /* CAST(NULL AS t): Calcite's convertCast makes the typed NULL literal null:t */
            wsb_puts(out, "null:");
            calcite_type(out, e->type, false);
        } else if (e->try_cast) {
            /* TRY_CAST is a function call in Flink's logical plan: its digest shows no type
               (measured: TRY_CAST(_UTF-16LE'abc')) */
            wsb_puts(out, "TRY_CAST(");
            rex(out, e->args[0], names, d);
            wsb_putc(out, ')');
        } else {
            wsb_puts(out, "CAST(");
            rex(out, e->args[0], names, d);
            wsb_puts(out, "):");
            calcite_type(out, e->type, true);
        }
        return;
    case WX_CASE:
        call_form(out, "CASE", e, names, d);
        if (!e->has_else) {
            /* Calcite's CASE always has its ELSE: NULL of the CASE's type */
            out->len--;
            out->buf[out->len] = 0;
            wsb_puts(out, ", null:");
            if (exec) exec_cast_type(out, e->type);
            else calcite_type(out, e->type, false);
            wsb_putc(out, ')');
        }
        return;
    case WX_COALESCE: call_form(out, "COALESCE", e, names, d); return;
    case WX_IN:
        if (e->negated) wsb_puts(out, exec ? "NOT(" : "NOT(");
        wsb_puts(out, "SEARCH(");
        rex(out, e->args[0], names, d);
        wsb_puts(out, ", Sarg[");
        for (int i = 1; i < e->nargs; i++) {
            if (i > 1) wsb_puts(out, ", ");
            rex(out, e->args[i], names, d);
        }
        wsb_puts(out, "])");
        if (e->negated) wsb_putc(out, ')');
        return;
    case WX_CALL: {
        const char *fname = e->func ? e->func->name : (e->name ? e->name : "?");
        if (!strcmp(fname, "FIELD") && e->nargs == 2 && e->args[1]->kind == WX_LITERAL &&
            e->args[0]->type->id == WT_ROW && e->args[0]->type->field_names &&
            e->args[1]->lit.i >= 0 && e->args[1]->lit.i < e->args[0]->type->nfields) {
            /* Calcite's RexFieldAccess: <expr>.<field> */
            rex(out, e->args[0], names, d);
            wsb_printf(out, ".%s", e->args[0]->type->field_names[e->args[1]->lit.i]);
            return;
        }
        const OpInfo *op = op_info(fname);
        if (!op) {
            if (!strcmp(fname, "SUBSTR")) fname = "SUBSTRING";
            const char *unit = extract_unit(e);
            if (unit) {
                /* Calcite's EXTRACT with its time unit flag: YEAR(x) and the other shorthands are
                   EXTRACT calls in Flink's plans (measured: EXTRACT(FLAG(YEAR), $1), and in the
                   execution plan EXTRACT(YEAR, d)) */
                wsb_printf(out, exec ? "EXTRACT(%s, " : "EXTRACT(FLAG(%s), ", unit);
                rex(out, e->args[e->nargs - 1], names, d);
                wsb_putc(out, ')');
                return;
            }
            call_form(out, fname, e, names, d);
            return;
        }
        /* numeric operands of a comparison are compared as they are in Calcite's plan: the
           widening casts weir's binder adds are not shown */
        if (e->nargs == 2 && (!strcmp(fname, "=") || !strcmp(fname, "<>") || !strcmp(fname, "<") ||
                              !strcmp(fname, "<=") || !strcmp(fname, ">") || !strcmp(fname, ">="))) {
            WExpr tmp = *e;
            WExpr *targs[2] = {e->args[0], e->args[1]};
            for (int i = 0; i < 2; i++) {
                const WExpr *a = targs[i];
                if (a->kind == WX_CAST && !a->try_cast && a->nargs == 1 && wtype_is_numeric(a->type) &&
                    wtype_is_numeric(a->args[0]->type) &&
                    /* a written CAST of a literal is a typed literal in the optimised plans
                       (420:BIGINT, WX_CAST below); the AST compares the literal as written */
                    !(d != EXD_AST && a->explicit_cast && a->args[0]->kind == WX_LITERAL))
                    targs[i] = a->args[0];
            }
            /* a CHAR literal compared with a VARCHAR operand: the optimised plan holds it as a
               literal of the operand's type (Calcite's reduction folds the coercion CAST) */
            WExpr casts[2];
            WExpr *lits[2] = {targs[0], targs[1]};
            for (int i = 0; i < 2 && (d == EXD_REL || d == EXD_PUSHED); i++) {
                const WExpr *l = targs[i], *o = targs[1 - i];
                if (l->kind == WX_LITERAL && !l->is_null && l->type->id == WT_CHAR &&
                    o->kind != WX_LITERAL && o->type->id == WT_VARCHAR) {
                    casts[i] = (WExpr){.kind = WX_CAST, .type = o->type, .nargs = 1,
                                       .args = &lits[i]};
                    targs[i] = &casts[i];
                    break;
                }
            }
            if (targs[0] != e->args[0] || targs[1] != e->args[1]) {
                tmp.args = targs;
                e = &tmp;
                rex(out, e, names, d);
                return;
            }
        }
        switch (op->style) {
        case ST_BINARY:
            if (exec && e->nargs == 2) {
                wsb_putc(out, '(');
                rex(out, e->args[0], names, d);
                wsb_printf(out, " %s ", op->calcite);
                rex(out, e->args[1], names, d);
                wsb_putc(out, ')');
            } else {
                call_form(out, op->calcite, e, names, d);
            }
            return;
        case ST_POSTFIX:
            if (exec) { rex(out, e->args[0], names, d); wsb_printf(out, " %s", op->calcite); }
            else call_form(out, op->calcite, e, names, d);
            return;
        case ST_PREFIX:
            call_form(out, op->calcite, e, names, d);
            return;
        default:
            call_form(out, op->calcite, e, names, d);
            return;
        }
    }
    }
}

void ex_rex(WStrBuf *out, const WExpr *e, const char *const *names, ExDialect d) { rex(out, e, names, d); }

/* ---------------- JSON ---------------- */

static json_t *call_json(const char *syntax, const char *name, json_t *operands, const WType *t)
{
    json_t *j = json_object();
    json_object_set_new(j, "kind", json_string("CALL"));
    if (syntax) json_object_set_new(j, "syntax", json_string(syntax));
    char *in = NULL;
    if (asprintf(&in, "$%s$1", name) < 0) in = NULL;
    json_object_set_new(j, "internalName", json_string(in ? in : name));
    free(in);
    json_object_set_new(j, "operands", operands);
    json_object_set_new(j, "type", ex_type_json(t));
    return j;
}

/* A literal's value as Flink's JSON writes it (null for NULL). */
static json_t *literal_value_json(const WExpr *e)
{
    const WType *t = e->type;
    char buf[128];
    json_t *v;
    if (e->is_null || t->id == WT_NULL) {
        v = json_null();
    } else {
        switch (t->id) {
        case WT_BOOLEAN: v = json_boolean(e->lit.i != 0); break;
        case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT: v = json_integer(e->lit.i); break;
        case WT_FLOAT: case WT_DOUBLE: v = json_real(e->lit.d); break;
        case WT_DECIMAL: wfmt_decimal(e->lit.dec, t->scale, buf); v = json_string(buf); break;
        case WT_CHAR: case WT_VARCHAR:
            v = json_stringn(e->lit.s.p, (size_t)e->lit.s.len);
            break;
        case WT_BINARY: case WT_VARBINARY: {     /* Jackson writes byte[] as base64 */
            WStrBuf b;
            wsb_init(&b);
            wbase64_append(&b, e->lit.s.p, (size_t)e->lit.s.len);
            v = json_stringn(b.buf ? b.buf : "", b.len);
            wsb_free(&b);
            break;
        }
        case WT_DATE: wfmt_date(e->lit.i, buf); v = json_string(buf); break;
        case WT_TIME: wfmt_time(e->lit.i, t->precision, buf); v = json_string(buf); break;
        case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
            /* Calcite's TimestampString: the fraction without trailing zeros, none when zero */
            wfmt_timestamp(e->lit.ts, 9, buf);
            trim_fraction(buf);
            v = json_string(buf);
            break;
        case WT_INTERVAL_DT: case WT_INTERVAL_YM:
            snprintf(buf, sizeof buf, "%lld", (long long)e->lit.i);
            v = json_string(buf);
            break;
        default: v = json_null(); break;
        }
    }
    return v;
}

static json_t *literal_json(const WExpr *e)
{
    json_t *j = json_object();
    json_object_set_new(j, "kind", json_string("LITERAL"));
    json_t *v = literal_value_json(e);
    const WType *t = e->type;
    json_object_set_new(j, "value", v);
    if (t->id == WT_NULL) {
        json_object_set_new(j, "type", json_string("NULL"));
    } else if (t->id == WT_INTERVAL_DT && t->qual == WIQ_SECOND) {
        /* the literal's Calcite type keeps Calcite's default fractional second precision (6);
           Flink's logical type of it, which weir carries, has 3 */
        json_object_set_new(j, "type", json_string(t->nullable ? "INTERVAL SECOND(6)" : "INTERVAL SECOND(6) NOT NULL"));
    } else {
        json_object_set_new(j, "type", ex_type_json(t));
    }
    return j;
}

/* Order of two non-NULL literals of one type (Calcite keeps a Sarg's points sorted); 0 for types
   without an order here (their points keep the IN list's order). */
static int literal_cmp(const void *pa, const void *pb)
{
    const WExpr *a = *(const WExpr *const *)pa, *b = *(const WExpr *const *)pb;
    switch (a->type->id) {
    case WT_BOOLEAN: case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
    case WT_DATE: case WT_TIME: case WT_INTERVAL_DT: case WT_INTERVAL_YM:
        return (a->lit.i > b->lit.i) - (a->lit.i < b->lit.i);
    case WT_FLOAT: case WT_DOUBLE: return (a->lit.d > b->lit.d) - (a->lit.d < b->lit.d);
    case WT_DECIMAL: return (a->lit.dec > b->lit.dec) - (a->lit.dec < b->lit.dec);
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
        if (a->lit.ts.ms != b->lit.ts.ms) return (a->lit.ts.ms > b->lit.ts.ms) - (a->lit.ts.ms < b->lit.ts.ms);
        return (a->lit.ts.ns > b->lit.ts.ns) - (a->lit.ts.ns < b->lit.ts.ns);
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY: {
        int n = a->lit.s.len < b->lit.s.len ? a->lit.s.len : b->lit.s.len;
        int c = n ? memcmp(a->lit.s.p, b->lit.s.p, (size_t)n) : 0;
        return c ? c : (a->lit.s.len > b->lit.s.len) - (a->lit.s.len < b->lit.s.len);
    }
    default: return 0;
    }
}

static bool is_integer_id(WTypeId id) { return id == WT_TINYINT || id == WT_SMALLINT || id == WT_INT || id == WT_BIGINT; }

/* An IN-list element as a Sarg point: a non-NULL literal, or a widening CAST of one (integer to a
   wider integer, CHAR to VARCHAR: the value is the same), which Calcite has folded into the
   literal; NULL for anything else. Returns the literal (its value is the element's value). */
static const WExpr *sarg_point(const WExpr *x)
{
    if (x->kind == WX_LITERAL) return x->is_null ? NULL : x;
    if (x->kind != WX_CAST || x->try_cast || x->args[0]->kind != WX_LITERAL || x->args[0]->is_null) return NULL;
    const WExpr *l = x->args[0];
    WTypeId from = l->type->id, to = x->type->id;
    bool widen = (is_integer_id(from) && is_integer_id(to) && to >= from) ||
                 (from == WT_CHAR && to == WT_VARCHAR);
    return widen ? l : NULL;
}

/* `x [NOT] IN (literals)` as Calcite writes it: SEARCH(x, Sarg[points]) — each point a CLOSED
   range of one value, sorted, without repeats — under NOT for NOT IN. NULL when an element is not
   a non-NULL literal of the elements' common type (the caller writes the IN call then). */
static json_t *search_json(WPlanCtx *p, const WExpr *e, const int *colmap)
{
    int n = e->nargs - 1;
    if (n < 1) return NULL;
    const WExpr **pts = wmalloc(sizeof *pts * (size_t)n);
    for (int i = 0; i < n; i++) {
        const WExpr *x = sarg_point(e->args[i + 1]);
        if (!x || e->args[i + 1]->type->id != e->args[1]->type->id) { free(pts); return NULL; }
        pts[i] = x;
    }
    wqsort(pts, (size_t)n, sizeof *pts, literal_cmp);
    json_t *ranges = json_array();
    for (int i = 0; i < n; i++) {
        if (i > 0 && literal_cmp(&pts[i - 1], &pts[i]) == 0 && pts[i]->type->id != WT_NULL) {
            json_t *pv = literal_value_json(pts[i - 1]), *cv = literal_value_json(pts[i]);
            bool same = json_equal(pv, cv);
            json_decref(pv);
            json_decref(cv);
            if (same) continue;
        }
        json_t *range = json_object(), *lo = json_object(), *hi = json_object();
        json_object_set_new(lo, "value", literal_value_json(pts[i]));
        json_object_set_new(lo, "boundType", json_string("CLOSED"));
        json_object_set_new(hi, "value", literal_value_json(pts[i]));
        json_object_set_new(hi, "boundType", json_string("CLOSED"));
        json_object_set_new(range, "lower", lo);
        json_object_set_new(range, "upper", hi);
        json_array_append_new(ranges, range);
    }
    json_t *sarg = json_object();
    json_object_set_new(sarg, "ranges", ranges);
    json_object_set_new(sarg, "nullAs", json_string("UNKNOWN"));
    json_t *lit = json_object();
    json_object_set_new(lit, "kind", json_string("LITERAL"));
    json_object_set_new(lit, "sarg", sarg);
    WType pt = *e->args[1]->type;      /* the elements' type (after the widening casts) */
    pt.nullable = false;
    json_object_set_new(lit, "type", ex_type_json(&pt));
    free(pts);
    json_t *ops = json_array();
    json_array_append_new(ops, ex_rex_json(p, e->args[0], colmap));
    json_array_append_new(ops, lit);
    json_t *search = call_json("INTERNAL", "SEARCH", ops, e->type);
    if (!e->negated) return search;
    json_t *nops = json_array();
    json_array_append_new(nops, search);
    return call_json("PREFIX", "NOT", nops, e->type);
}

json_t *ex_rex_json(WPlanCtx *p, const WExpr *e, const int *colmap)
{
    if (e->kind == WX_CALL && e->func && !strcmp(e->func->name, "FIELD") && e->nargs == 2 &&
        e->args[1]->kind == WX_LITERAL && e->args[0]->type->id == WT_ROW && e->args[0]->type->field_names &&
        e->args[1]->lit.i >= 0 && e->args[1]->lit.i < e->args[0]->type->nfields) {
        /* Calcite's RexFieldAccess, as Flink writes it: {kind, name, expr} without a type */
        json_t *j = json_object();
        json_object_set_new(j, "kind", json_string("FIELD_ACCESS"));
        json_object_set_new(j, "name", json_string(e->args[0]->type->field_names[e->args[1]->lit.i]));
        json_object_set_new(j, "expr", ex_rex_json(p, e->args[0], colmap));
        return j;
    }
    if (e->kind == WX_IN) {
        json_t *search = search_json(p, e, colmap);
        if (search) return search;
    }
    json_t *ops = NULL;
    if (e->kind != WX_COLUMN && e->kind != WX_LITERAL && e->kind != WX_PROCTIME) {
        ops = json_array();
        for (int i = 0; i < e->nargs; i++) json_array_append_new(ops, ex_rex_json(p, e->args[i], colmap));
    }
    switch (e->kind) {
    case WX_COLUMN: {
        json_t *j = json_object();
        json_object_set_new(j, "kind", json_string("INPUT_REF"));
        json_object_set_new(j, "inputIndex", json_integer(colmap ? colmap[e->col] : e->col));
        json_object_set_new(j, "type", ex_type_json(e->type));
        return j;
    }
    case WX_LITERAL: return literal_json(e);
    case WX_PROCTIME: {
        /* Flink writes PROCTIME() without syntax and operands */
        json_t *j = json_object();
        json_object_set_new(j, "kind", json_string("CALL"));
        json_object_set_new(j, "internalName", json_string("$PROCTIME$1"));
        json_object_set_new(j, "type", ex_type_json(e->type));
        return j;
    }
    case WX_AND: return call_json("BINARY", "AND", ops, e->type);
    case WX_OR: return call_json("BINARY", "OR", ops, e->type);
    case WX_NOT: return call_json("PREFIX", "NOT", ops, e->type);
    case WX_IS_NULL: return call_json("POSTFIX", e->negated ? "IS NOT NULL" : "IS NULL", ops, e->type);
    case WX_CAST:
        if (e->args[0]->kind == WX_LITERAL && (e->args[0]->is_null || e->args[0]->type->id == WT_NULL)) {
            /* CAST(NULL AS t) is Calcite's typed NULL literal */
            json_decref(ops);
            json_t *j = json_object();
            json_object_set_new(j, "kind", json_string("LITERAL"));
            json_object_set_new(j, "value", json_null());
            json_object_set_new(j, "type", ex_type_json(e->type));
            return j;
        }
        return call_json("SPECIAL", e->try_cast ? "TRY_CAST" : "CAST", ops, e->type);
    case WX_CASE:
        if (!e->has_else) {         /* Calcite's ELSE NULL */
            WExpr nul = {.kind = WX_LITERAL, .type = e->type, .is_null = true, .col = -1};
            json_array_append_new(ops, literal_json(&nul));
        }
        return call_json("SPECIAL", "CASE", ops, e->type);
    case WX_COALESCE: return call_json(NULL, "COALESCE", ops, e->type);
    case WX_IN: return call_json("BINARY", e->negated ? "NOT IN" : "IN", ops, e->type);
    case WX_CALL: {
        const char *fname = e->func ? e->func->name : "?";
        const OpInfo *op = op_info(fname);
        if (op && !strcmp(fname, "%")) return call_json(NULL, "MOD", ops, e->type);
        /* datetime +/- interval: Calcite's DATETIME_PLUS / MINUS_DATE are special operators (not
           for TIMESTAMP_LTZ, which Flink 2.3 writes with the binary operator) */
        if (op && (!strcmp(fname, "+") || !strcmp(fname, "-")) && e->nargs == 2 &&
            (e->type->id == WT_TIMESTAMP || e->type->id == WT_DATE || e->type->id == WT_TIME) &&
            (e->args[1]->type->id == WT_INTERVAL_DT || e->args[1]->type->id == WT_INTERVAL_YM ||
             e->args[0]->type->id == WT_INTERVAL_DT || e->args[0]->type->id == WT_INTERVAL_YM))
            return call_json("SPECIAL", op->calcite, ops, e->type);
        if (op) return call_json(op->syntax, op->calcite, ops, e->type);
        /* Calcite's special operators among the functions: the value constructors and ITEM */
        static const char *const SPECIAL[] = {"ARRAY", "MAP", "ROW", "ITEM"};
        for (size_t i = 0; i < sizeof SPECIAL / sizeof SPECIAL[0]; i++)
            if (!strcmp(fname, SPECIAL[i])) return call_json("SPECIAL", fname, ops, e->type);
        return call_json(NULL, fname, ops, e->type);
    }
    }
    if (ops) json_decref(ops);
    return json_null();
}
