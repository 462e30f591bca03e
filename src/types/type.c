/* type.c — Flink logical types: constructors, rendering, derivation rules; see type.h. */
#include "type.h"

#include <string.h>

#define SCALAR(nm, tid, nul, p, s) const WType nm = { .id = tid, .nullable = nul, .precision = p, .scale = s }
SCALAR(WTYPE_NULL, WT_NULL, true, 0, 0);
SCALAR(WTYPE_BOOLEAN, WT_BOOLEAN, true, 0, 0);
SCALAR(WTYPE_BOOLEAN_NN, WT_BOOLEAN, false, 0, 0);
SCALAR(WTYPE_TINYINT, WT_TINYINT, true, 0, 0);
SCALAR(WTYPE_SMALLINT, WT_SMALLINT, true, 0, 0);
SCALAR(WTYPE_INT, WT_INT, true, 0, 0);
SCALAR(WTYPE_INT_NN, WT_INT, false, 0, 0);
SCALAR(WTYPE_BIGINT, WT_BIGINT, true, 0, 0);
SCALAR(WTYPE_BIGINT_NN, WT_BIGINT, false, 0, 0);
SCALAR(WTYPE_FLOAT, WT_FLOAT, true, 0, 0);
SCALAR(WTYPE_DOUBLE, WT_DOUBLE, true, 0, 0);
SCALAR(WTYPE_DOUBLE_NN, WT_DOUBLE, false, 0, 0);
SCALAR(WTYPE_STRING, WT_VARCHAR, true, WT_MAX_LENGTH, 0);
SCALAR(WTYPE_STRING_NN, WT_VARCHAR, false, WT_MAX_LENGTH, 0);
SCALAR(WTYPE_BYTES, WT_VARBINARY, true, WT_MAX_LENGTH, 0);
SCALAR(WTYPE_DATE, WT_DATE, true, 0, 0);

WType *wtype_new(WArena *a, WTypeId id, bool nullable)
{
    WType *t = WA_NEW(a, WType);
    t->id = id;
    t->nullable = nullable;
    return t;
}

const WType *wtype_decimal(WArena *a, int precision, int scale, bool nullable)
{
    WType *t = wtype_new(a, WT_DECIMAL, nullable);
    t->precision = precision;
    t->scale = scale;
    return t;
}

const WType *wtype_varchar(WArena *a, int length, bool nullable)
{
    WType *t = wtype_new(a, WT_VARCHAR, nullable);
    t->precision = length;
    return t;
}

const WType *wtype_char(WArena *a, int length, bool nullable)
{
    WType *t = wtype_new(a, WT_CHAR, nullable);
    t->precision = length;
    return t;
}

const WType *wtype_timestamp(WArena *a, WTypeId id, int precision, bool nullable)
{
    WType *t = wtype_new(a, id, nullable);
    t->precision = precision;
    return t;
}

const WType *wtype_time(WArena *a, int precision, bool nullable)
{
    WType *t = wtype_new(a, WT_TIME, nullable);
    t->precision = precision;
    return t;
}

const WType *wtype_array(WArena *a, const WType *elem, bool nullable)
{
    WType *t = wtype_new(a, WT_ARRAY, nullable);
    t->elem = elem;
    return t;
}

const WType *wtype_map(WArena *a, const WType *key, const WType *value, bool nullable)
{
    WType *t = wtype_new(a, WT_MAP, nullable);
    t->key = key;
    t->elem = value;
    return t;
}

const WType *wtype_row(WArena *a, int n, const char **names, const WType **fields, bool nullable)
{
    WType *t = wtype_new(a, WT_ROW, nullable);
    t->nfields = n;
    t->field_names = WA_ARRAY(a, const char *, n);
    t->fields = WA_ARRAY(a, const WType *, n);
    for (int i = 0; i < n; i++) {
        t->field_names[i] = wa_strdup(a, names[i]);
        t->fields[i] = fields[i];
    }
    return t;
}

const WType *wtype_interval(WArena *a, WTypeId id, WIntervalQual q, int precision, int frac, bool nullable)
{
    WType *t = wtype_new(a, id, nullable);
    t->qual = q;
    t->precision = precision;
    t->scale = frac;
    return t;
}

const WType *wtype_with_nullable(WArena *a, const WType *t, bool nullable)
{
    if (t->nullable == nullable) return t;
    WType *c = wa_memdup(a, t, sizeof *t);
    c->nullable = nullable;
    return c;
}

const WType *wtype_with_time_attr(WArena *a, const WType *t, WTimeAttr attr)
{
    if (t->time_attr == attr) return t;
    WType *c = wa_memdup(a, t, sizeof *t);
    c->time_attr = attr;
    return c;
}

bool wtype_is_integer(const WType *t) { return t->id >= WT_TINYINT && t->id <= WT_BIGINT; }
bool wtype_is_exact_numeric(const WType *t) { return wtype_is_integer(t) || t->id == WT_DECIMAL; }
bool wtype_is_approx(const WType *t) { return t->id == WT_FLOAT || t->id == WT_DOUBLE; }
bool wtype_is_numeric(const WType *t) { return wtype_is_exact_numeric(t) || wtype_is_approx(t); }
bool wtype_is_string(const WType *t) { return t->id == WT_CHAR || t->id == WT_VARCHAR; }
bool wtype_is_binary(const WType *t) { return t->id == WT_BINARY || t->id == WT_VARBINARY; }
bool wtype_is_temporal(const WType *t) { return t->id >= WT_DATE && t->id <= WT_TIMESTAMP_LTZ; }
bool wtype_is_timestamp(const WType *t) { return t->id == WT_TIMESTAMP || t->id == WT_TIMESTAMP_LTZ; }
bool wtype_is_interval(const WType *t) { return t->id == WT_INTERVAL_YM || t->id == WT_INTERVAL_DT; }
bool wtype_is_composite(const WType *t) { return t->id >= WT_ARRAY && t->id <= WT_ROW; }

bool wtype_equals(const WType *a, const WType *b, bool ignore_null)
{
    if (a == b) return true;
    if (!a || !b) return false;
    if (a->id != b->id) return false;
    if (!ignore_null && a->nullable != b->nullable) return false;
    switch (a->id) {
    case WT_DECIMAL:
        return a->precision == b->precision && a->scale == b->scale;
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
    case WT_TIME: case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
        return a->precision == b->precision;
    case WT_INTERVAL_YM: case WT_INTERVAL_DT:
        return a->qual == b->qual && a->precision == b->precision && a->scale == b->scale;
    case WT_ARRAY: case WT_MULTISET:
        return wtype_equals(a->elem, b->elem, false);
    case WT_MAP:
        return wtype_equals(a->key, b->key, false) && wtype_equals(a->elem, b->elem, false);
    case WT_ROW:
        if (a->nfields != b->nfields) return false;
        for (int i = 0; i < a->nfields; i++) {
            if (strcmp(a->field_names[i], b->field_names[i]) != 0) return false;
            if (!wtype_equals(a->fields[i], b->fields[i], false)) return false;
        }
        return true;
    default:
        return true;
    }
}

static void interval_to_string(const WType *t, WStrBuf *o)
{
    int p = t->precision, f = t->scale;
    switch (t->qual) {
    case WIQ_YEAR: wsb_printf(o, "INTERVAL YEAR(%d)", p); break;
    case WIQ_YEAR_TO_MONTH: wsb_printf(o, "INTERVAL YEAR(%d) TO MONTH", p); break;
    case WIQ_MONTH: wsb_append(o, "INTERVAL MONTH"); break;
    case WIQ_DAY: wsb_printf(o, "INTERVAL DAY(%d)", p); break;
    case WIQ_DAY_TO_HOUR: wsb_printf(o, "INTERVAL DAY(%d) TO HOUR", p); break;
    case WIQ_DAY_TO_MINUTE: wsb_printf(o, "INTERVAL DAY(%d) TO MINUTE", p); break;
    case WIQ_DAY_TO_SECOND: wsb_printf(o, "INTERVAL DAY(%d) TO SECOND(%d)", p, f); break;
    case WIQ_HOUR: wsb_append(o, "INTERVAL HOUR"); break;
    case WIQ_HOUR_TO_MINUTE: wsb_append(o, "INTERVAL HOUR TO MINUTE"); break;
    case WIQ_HOUR_TO_SECOND: wsb_printf(o, "INTERVAL HOUR TO SECOND(%d)", f); break;
    case WIQ_MINUTE: wsb_append(o, "INTERVAL MINUTE"); break;
    case WIQ_MINUTE_TO_SECOND: wsb_printf(o, "INTERVAL MINUTE TO SECOND(%d)", f); break;
    case WIQ_SECOND: wsb_printf(o, "INTERVAL SECOND(%d)", f); break;
    default:
        if (t->id == WT_INTERVAL_YM) wsb_printf(o, "INTERVAL YEAR(%d) TO MONTH", p ? p : 2);
        else wsb_printf(o, "INTERVAL DAY(%d) TO SECOND(%d)", p ? p : 2, f);
    }
}

void wtype_to_string(const WType *t, WStrBuf *o)
{
    switch (t->id) {
    case WT_NULL: wsb_append(o, "NULL"); return;   /* NULL type has no NOT NULL form */
    case WT_BOOLEAN: wsb_append(o, "BOOLEAN"); break;
    case WT_TINYINT: wsb_append(o, "TINYINT"); break;
    case WT_SMALLINT: wsb_append(o, "SMALLINT"); break;
    case WT_INT: wsb_append(o, "INT"); break;
    case WT_BIGINT: wsb_append(o, "BIGINT"); break;
    case WT_FLOAT: wsb_append(o, "FLOAT"); break;
    case WT_DOUBLE: wsb_append(o, "DOUBLE"); break;
    case WT_DECIMAL: wsb_printf(o, "DECIMAL(%d, %d)", t->precision, t->scale); break;
    case WT_CHAR: wsb_printf(o, "CHAR(%d)", t->precision); break;
    case WT_VARCHAR:
        if (t->precision == WT_MAX_LENGTH) wsb_append(o, "STRING");
        else wsb_printf(o, "VARCHAR(%d)", t->precision);
        break;
    case WT_BINARY: wsb_printf(o, "BINARY(%d)", t->precision); break;
    case WT_VARBINARY:
        if (t->precision == WT_MAX_LENGTH) wsb_append(o, "BYTES");
        else wsb_printf(o, "VARBINARY(%d)", t->precision);
        break;
    case WT_DATE: wsb_append(o, "DATE"); break;
    case WT_TIME: wsb_printf(o, "TIME(%d)", t->precision); break;
    case WT_TIMESTAMP:
    case WT_TIMESTAMP_LTZ:
        wsb_printf(o, "%s(%d)", t->id == WT_TIMESTAMP ? "TIMESTAMP" : "TIMESTAMP_LTZ", t->precision);
        if (t->time_attr == WTA_ROWTIME) wsb_append(o, " *ROWTIME*");
        else if (t->time_attr == WTA_PROCTIME) wsb_append(o, " *PROCTIME*");
        break;
    case WT_INTERVAL_YM:
    case WT_INTERVAL_DT:
        interval_to_string(t, o);
        break;
    case WT_ARRAY:
    case WT_MULTISET:
        wsb_append(o, t->id == WT_ARRAY ? "ARRAY<" : "MULTISET<");
        wtype_to_string(t->elem, o);
        wsb_putc(o, '>');
        break;
    case WT_MAP:
        wsb_append(o, "MAP<");
        wtype_to_string(t->key, o);
        wsb_append(o, ", ");
        wtype_to_string(t->elem, o);
        wsb_putc(o, '>');
        break;
    case WT_ROW:
        wsb_append(o, "ROW<");
        for (int i = 0; i < t->nfields; i++) {
            if (i) wsb_append(o, ", ");
            wsb_printf(o, "`%s` ", t->field_names[i]);
            wtype_to_string(t->fields[i], o);
        }
        wsb_putc(o, '>');
        break;
    default:
        wsb_append(o, "?");
    }
    if (!t->nullable) wsb_append(o, " NOT NULL");
}

const char *wtype_str(WArena *a, const WType *t)
{
    WStrBuf s;
    wsb_init(&s);
    wtype_to_string(t, &s);
    const char *r = wa_strdup(a, s.buf);
    wsb_free(&s);
    return r;
}

int wtype_integer_digits(const WType *t)
{
    switch (t->id) {
    case WT_TINYINT: return 3;
    case WT_SMALLINT: return 5;
    case WT_INT: return 10;
    case WT_BIGINT: return 19;
    case WT_DECIMAL: return t->precision;
    default: return 0;
    }
}

/* ---- derivation rules (Flink LogicalTypeMerging) ---- */

static const WType *decimal_adjusted(WArena *a, int p, int s, bool nullable)
{
    if (p > 38) {
        int int_digits = p - s;
        int min_scale = s < 6 ? s : 6;
        s = 38 - int_digits;
        if (s < min_scale) s = min_scale;
        p = 38;
    }
    return wtype_decimal(a, p, s, nullable);
}

/* An exact numeric as a DECIMAL(p, s) view. */
static void as_decimal(const WType *t, int *p, int *s)
{
    if (t->id == WT_DECIMAL) { *p = t->precision; *s = t->scale; }
    else { *p = wtype_integer_digits(t); *s = 0; }
}

static const WType *scalar_with_null(WArena *a, WTypeId id, bool nullable)
{
    return wtype_new(a, id, nullable);
}

/* Shared numeric preamble: NULL when not both numeric; handles approx and integer cases. */
static const WType *numeric_simple(WArena *a, const WType *x, const WType *y, bool *done)
{
    bool nullable = x->nullable || y->nullable;
    *done = true;
    if (x->id == WT_NULL && y->id == WT_NULL) return wtype_with_nullable(a, &WTYPE_INT, true);
    if (x->id == WT_NULL) return wtype_with_nullable(a, y, true);
    if (y->id == WT_NULL) return wtype_with_nullable(a, x, true);
    if (!wtype_is_numeric(x) || !wtype_is_numeric(y)) return NULL;
    if (wtype_is_approx(x) || wtype_is_approx(y)) {
        if (x->id == WT_DOUBLE || y->id == WT_DOUBLE) return scalar_with_null(a, WT_DOUBLE, nullable);
        return scalar_with_null(a, WT_FLOAT, nullable);
    }
    if (wtype_is_integer(x) && wtype_is_integer(y))
        return scalar_with_null(a, x->id > y->id ? x->id : y->id, nullable);
    *done = false;
    return NULL;
}

const WType *wtype_plus_minus(WArena *a, const WType *x, const WType *y)
{
    bool done;
    const WType *r = numeric_simple(a, x, y, &done);
    if (done) return r;
    int p1, s1, p2, s2;
    as_decimal(x, &p1, &s1);
    as_decimal(y, &p2, &s2);
    int s = s1 > s2 ? s1 : s2;
    int ip = (p1 - s1) > (p2 - s2) ? (p1 - s1) : (p2 - s2);
    return decimal_adjusted(a, ip + s + 1, s, x->nullable || y->nullable);
}

const WType *wtype_multiply(WArena *a, const WType *x, const WType *y)
{
    bool done;
    const WType *r = numeric_simple(a, x, y, &done);
    if (done) return r;
    int p1, s1, p2, s2;
    as_decimal(x, &p1, &s1);
    as_decimal(y, &p2, &s2);
    return decimal_adjusted(a, p1 + p2 + 1, s1 + s2, x->nullable || y->nullable);
}

const WType *wtype_divide(WArena *a, const WType *x, const WType *y)
{
    bool done;
    const WType *r = numeric_simple(a, x, y, &done);
    if (done) return r;
    int p1, s1, p2, s2;
    as_decimal(x, &p1, &s1);
    as_decimal(y, &p2, &s2);
    int s = s1 + p2 + 1;
    if (s < 6) s = 6;
    int p = p1 - s1 + s2 + s;
    return decimal_adjusted(a, p, s, x->nullable || y->nullable);
}

const WType *wtype_mod(WArena *a, const WType *x, const WType *y)
{
    bool done;
    const WType *r = numeric_simple(a, x, y, &done);
    if (done) {
        /* Flink: MOD of integers has the type of the second operand */
        if (r && wtype_is_integer(x) && wtype_is_integer(y))
            return scalar_with_null(a, y->id, x->nullable || y->nullable);
        return r;
    }
    int p1, s1, p2, s2;
    as_decimal(x, &p1, &s1);
    as_decimal(y, &p2, &s2);
    int s = s1 > s2 ? s1 : s2;
    int ip = (p1 - s1) < (p2 - s2) ? (p1 - s1) : (p2 - s2);
    return decimal_adjusted(a, ip + s, s, x->nullable || y->nullable);
}

const WType *wtype_sum_result(WArena *a, const WType *arg)
{
    if (arg->id == WT_DECIMAL) return wtype_decimal(a, 38, arg->scale, true);
    return wtype_with_nullable(a, arg, true);
}

const WType *wtype_avg_result(WArena *a, const WType *arg)
{
    if (arg->id == WT_DECIMAL) return wtype_decimal(a, 38, arg->scale > 6 ? arg->scale : 6, true);
    return wtype_with_nullable(a, arg, true);
}

const WType *wtype_common(WArena *a, const WType *x, const WType *y)
{
    bool nullable = x->nullable || y->nullable;
    if (x->id == WT_NULL) return wtype_with_nullable(a, y, true);
    if (y->id == WT_NULL) return wtype_with_nullable(a, x, true);
    if (wtype_equals(x, y, true)) return wtype_with_nullable(a, wtype_with_time_attr(a, x, WTA_NONE), nullable);
    if (wtype_is_numeric(x) && wtype_is_numeric(y)) {
        bool done;
        const WType *r = numeric_simple(a, x, y, &done);
        if (done) return r;
        int p1, s1, p2, s2;
        as_decimal(x, &p1, &s1);
        as_decimal(y, &p2, &s2);
        /* Flink's common DECIMAL: the whole digits are kept (at most 38), the scale gives way:
           DECIMAL(38, 0) and DECIMAL(1, 1) meet at DECIMAL(38, 0), (30, 10) and (30, 20) at (38, 18) */
        int ip = (p1 - s1) > (p2 - s2) ? (p1 - s1) : (p2 - s2);
        if (ip > 38) ip = 38;
        int s = s1 > s2 ? s1 : s2;
        if (s > 38 - ip) s = 38 - ip;
        return wtype_decimal(a, ip + s, s, nullable);
    }
    if (wtype_is_string(x) && wtype_is_string(y)) {
        int len = x->precision > y->precision ? x->precision : y->precision;
        /* Flink's type system converts ragged CHAR unions to VARCHAR
           (shouldConvertRaggedUnionTypesToVarying) */
        if (x->id == WT_CHAR && y->id == WT_CHAR && x->precision == y->precision)
            return wtype_char(a, len, nullable);
        return wtype_varchar(a, len, nullable);
    }
    if (wtype_is_binary(x) && wtype_is_binary(y)) {
        WType *t = wtype_new(a, (x->id == WT_BINARY && y->id == WT_BINARY) ? WT_BINARY : WT_VARBINARY, nullable);
        t->precision = x->precision > y->precision ? x->precision : y->precision;
        return t;
    }
    if (wtype_is_timestamp(x) && wtype_is_timestamp(y)) {
        int p = x->precision > y->precision ? x->precision : y->precision;
        WTypeId id = (x->id == WT_TIMESTAMP_LTZ && y->id == WT_TIMESTAMP_LTZ) ? WT_TIMESTAMP_LTZ : WT_TIMESTAMP;
        return wtype_timestamp(a, id, p, nullable);
    }
    if ((x->id == WT_DATE && wtype_is_timestamp(y)) || (y->id == WT_DATE && wtype_is_timestamp(x))) {
        const WType *ts = wtype_is_timestamp(x) ? x : y;
        return wtype_timestamp(a, ts->id, ts->precision, nullable);
    }
    if (x->id == WT_TIME && y->id == WT_TIME)
        return wtype_time(a, x->precision > y->precision ? x->precision : y->precision, nullable);
    if (x->id == y->id && wtype_is_interval(x)) {
        return wtype_with_nullable(a, x, nullable);
    }
    if (x->id == y->id && (x->id == WT_ARRAY || x->id == WT_MULTISET)) {
        const WType *e = wtype_common(a, x->elem, y->elem);
        if (!e) return NULL;
        WType *t = wtype_new(a, x->id, nullable);
        t->elem = e;
        return t;
    }
    if (x->id == WT_MAP && y->id == WT_MAP) {
        const WType *k = wtype_common(a, x->key, y->key), *v = wtype_common(a, x->elem, y->elem);
        if (!k || !v) return NULL;
        return wtype_map(a, k, v, nullable);
    }
    if (x->id == WT_ROW && y->id == WT_ROW && x->nfields == y->nfields) {
        const WType **f = WA_ARRAY(a, const WType *, x->nfields);
        for (int i = 0; i < x->nfields; i++) {
            f[i] = wtype_common(a, x->fields[i], y->fields[i]);
            if (!f[i]) return NULL;
        }
        return wtype_row(a, x->nfields, x->field_names, f, nullable);
    }
    return NULL;
}
