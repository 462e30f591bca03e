/*
 * bind_expr.c — binding expressions: names to input columns, literals to typed values, calls to
 * the function library with Flink's type derivation and implicit casts; aggregate-mode matching
 * of GROUP BY keys and aggregate calls. See bind_internal.h.
 */
#include "bind_internal.h"
#include "../expr/functions.h"
#include "../types/datetime.h"
#include "../common/strbuf.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void bscope_init(BScope *s) { memset(s, 0, sizeof *s); }

void bscope_add(WArena *a, BScope *s, const char *qual, const char *name, const WType *t)
{
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 16;
        BCol *c = WA_ARRAY(a, BCol, cap);
        if (s->n) memcpy(c, s->cols, sizeof(BCol) * (size_t)s->n);
        s->cols = c;
        s->cap = cap;
    }
    s->cols[s->n++] = (BCol){qual, name, t, false, 0};
}

void bscope_append(WArena *a, BScope *dst, const BScope *src)
{
    for (int i = 0; i < src->n; i++) bscope_add(a, dst, src->cols[i].qual, src->cols[i].name, src->cols[i].type);
}

/* ---- helpers ---- */

static WExpr *fail_at(BindCtx *b, AstPos pos, const char *cls, const char *fmt, const char *arg)
{
    werr_set_at(b->p->err, pos.line, pos.col, cls, fmt, arg);
    return NULL;
}

WExpr *bind_cast(BindCtx *b, WExpr *e, const WType *t)
{
    if (!e) return NULL;
    if (wtype_equals(e->type, t, true)) return e;
    /* NULL literal: just retype */
    if (e->kind == WX_LITERAL && e->is_null) {
        WExpr *c = wexpr_literal(b->p->arena, wtype_with_nullable(b->p->arena, t, true), e->lit, true);
        return c;
    }
    WExpr *c = wexpr_new(b->p->arena, WX_CAST, wtype_with_nullable(b->p->arena, t, e->type->nullable), 1);
    c->args[0] = e;
    return c;
}

static const char *const AGG_NAMES[] = {
    "COUNT", "SUM", "SUM0", "MIN", "MAX", "AVG", "FIRST_VALUE", "LAST_VALUE", "LISTAGG",
    "STDDEV", "STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP", "VARIANCE", "COLLECT",
    "BOOL_AND", "BOOL_OR", BIND_SINGLE_VALUE, NULL
};

bool ast_is_aggregate_call(const AstExpr *e)
{
    if (!e || e->kind != AE_FUNC || e->over || e->name.n != 1) return false;
    for (int i = 0; AGG_NAMES[i]; i++)
        if (strcasecmp(e->name.parts[0], AGG_NAMES[i]) == 0) return true;
    return false;
}

bool ast_contains_aggregate(const AstExpr *e)
{
    if (!e) return false;
    if (ast_is_aggregate_call(e)) return true;
    if (e->kind == AE_SUBQUERY || e->kind == AE_EXISTS) return false;
    for (int i = 0; i < e->nargs; i++) if (ast_contains_aggregate(e->args[i])) return true;
    for (int i = 0; i < e->nwhen; i++)
        if (ast_contains_aggregate(e->when[i]) || ast_contains_aggregate(e->then[i])) return true;
    return ast_contains_aggregate(e->case_operand) || ast_contains_aggregate(e->else_expr);
}

/* ---- SQL text of expressions (messages, DESCRIBE, plan digests) ---- */

static const char *op_text(AstOp op)
{
    switch (op) {
    case AO_PLUS: return "+"; case AO_MINUS: return "-"; case AO_MUL: return "*";
    case AO_DIV: return "/"; case AO_MOD: return "%"; case AO_CONCAT: return "||";
    case AO_EQ: return "="; case AO_NE: return "<>"; case AO_LT: return "<";
    case AO_LE: return "<="; case AO_GT: return ">"; case AO_GE: return ">=";
    case AO_AND: return "AND"; case AO_OR: return "OR"; case AO_NEG: return "-";
    case AO_POS: return "+"; case AO_NOT: return "NOT";
    default: return "?";
    }
}

static const char *unit_name(int u)
{
    static const char *N[] = {"", "YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND",
                              "MILLISECOND", "MICROSECOND", "NANOSECOND", "DOW", "DOY", "EPOCH", "DECADE",
                              "CENTURY", "MILLENNIUM", "ISODOW", "ISOYEAR"};
    return (u >= 0 && u < (int)(sizeof N / sizeof N[0])) ? N[u] : "?";
}

static void expr_sql(WStrBuf *o, const AstExpr *e)
{
    if (!e) { wsb_append(o, "NULL"); return; }
    switch (e->kind) {
    case AE_LITERAL:
        switch (e->lit) {
        case AL_NULL: wsb_append(o, "NULL"); break;
        case AL_TRUE: wsb_append(o, "TRUE"); break;
        case AL_FALSE: wsb_append(o, "FALSE"); break;
        case AL_UNKNOWN: wsb_append(o, "UNKNOWN"); break;
        case AL_STRING: wsb_printf(o, "'%s'", e->text); break;
        case AL_BINARY: wsb_printf(o, "X'%s'", e->text); break;
        case AL_DATE: wsb_printf(o, "DATE '%s'", e->text); break;
        case AL_TIME: wsb_printf(o, "TIME '%s'", e->text); break;
        case AL_TIMESTAMP: wsb_printf(o, "TIMESTAMP '%s'", e->text); break;
        case AL_TIMESTAMP_LTZ: wsb_printf(o, "TIMESTAMP_LTZ '%s'", e->text); break;
        case AL_INTERVAL:
            wsb_printf(o, "INTERVAL %s'%s' %s", e->negative ? "-" : "", e->text, unit_name(e->iv_start));
            if (e->iv_end) wsb_printf(o, " TO %s", unit_name(e->iv_end));
            break;
        default: wsb_append(o, e->text ? e->text : "?");
        }
        break;
    case AE_COLUMN:
    case AE_SCOPE_REF:
        for (int i = 0; i < e->name.n; i++) wsb_printf(o, "%s`%s`", i ? "." : "", e->name.parts[i]);
        break;
    case AE_STAR: wsb_append(o, "*"); break;
    case AE_UNARY:
        if (e->op == AO_NOT) wsb_append(o, "NOT ");
        else wsb_append(o, op_text(e->op));
        expr_sql(o, e->args[0]);
        break;
    case AE_BINARY:
        expr_sql(o, e->args[0]);
        wsb_printf(o, " %s ", op_text(e->op));
        expr_sql(o, e->args[1]);
        break;
    case AE_FUNC:
        for (int i = 0; i < e->name.n; i++) wsb_printf(o, "%s%s", i ? "." : "", e->name.parts[i]);
        if (e->nargs == 0 && !e->star_arg && e->special == 0 && !strchr("(", 0)) {
            /* niladic functions like CURRENT_TIMESTAMP print without parentheses only when
               written so; PROCTIME() has them */
        }
        wsb_putc(o, '(');
        if (e->distinct) wsb_append(o, "DISTINCT ");
        if (e->star_arg) wsb_putc(o, '*');
        for (int i = 0; i < e->nargs; i++) {
            if (i) wsb_append(o, ", ");
            expr_sql(o, e->args[i]);
        }
        wsb_putc(o, ')');
        break;
    case AE_TIMEUNIT: wsb_append(o, unit_name(e->unit)); break;
    case AE_CAST:
        wsb_append(o, e->try_cast ? "TRY_CAST(" : "CAST(");
        expr_sql(o, e->args[0]);
        wsb_append(o, " AS ...)");
        break;
    default:
        wsb_append(o, "...");
    }
}

char *ast_expr_sql(WArena *a, const AstExpr *e)
{
    WStrBuf s;
    wsb_init(&s);
    expr_sql(&s, e);
    char *r = wa_strdup(a, s.buf);
    wsb_free(&s);
    return r;
}

/* ---- literals ---- */

static bool parse_i128(const char *s, __int128 *out, int *digits)
{
    __int128 v = 0;
    int n = 0;
    bool any = false;
    for (; *s; s++) {
        if (!isdigit((unsigned char)*s)) return false;
        if (n > 0 || *s != '0') n++;
        if (n > 38) return false;
        v = v * 10 + (*s - '0');
        any = true;
    }
    *out = v;
    *digits = n;
    return any;
}

/* An exact literal; `negated` when a minus sign is written before it (Calcite's parser folds the
   sign into the literal, so -9223372036854775808 is a BIGINT while 9223372036854775808 is refused). */
static WExpr *bind_decimal_literal(BindCtx *b, AstExpr *e, bool negated)
{
    const char *t = e->text;
    char digits[128];
    int nd = 0, scale = 0;
    bool frac = false;
    for (const char *q = t; *q; q++) {
        if (*q == '.') { frac = true; continue; }
        if (!isdigit((unsigned char)*q) || nd >= 120) return fail_at(b, e->pos, WEXC_VALIDATION, "Invalid numeric literal '%s'", t);
        digits[nd++] = *q;
        if (frac) scale++;
    }
    digits[nd] = 0;
    __int128 v;
    int prec;
    /* Calcite's validator takes an exact literal only if its unscaled value fits a BIGINT:
       0.1234567890123456789 is DECIMAL(20, 19), one digit more is out of range (Flink 2.3) */
    if (!parse_i128(digits, &v, &prec) || v > (__int128)INT64_MAX + negated)
        {
        werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_CALCITE, "Numeric literal '%s%s' out of range",
                    negated ? "-" : "", t);
        return NULL;
    }
    if (negated) v = -v;
    /* Calcite types an exact literal by its text: every digit written counts, leading zeros too
       (0.25 is DECIMAL(3, 2), .5 DECIMAL(1, 1), 0.001 DECIMAL(4, 3); measured on Flink 2.3) */
    prec = nd > 38 ? 38 : nd;
    if (prec < scale) prec = scale;
    if (prec == 0) prec = 1;
    WDatum d = {.dec = v};
    return wexpr_literal(b->p->arena, wtype_decimal(b->p->arena, prec, scale, false), d, false);
}

static int frac_digits(const char *s)
{
    const char *dot = strrchr(s, '.');
    if (!dot) return 0;
    int n = 0;
    for (const char *q = dot + 1; isdigit((unsigned char)*q); q++) n++;
    return n;
}

static bool interval_value(const AstExpr *e, int64_t *out, bool *ym)
{
    const char *s = e->text;
    while (*s == ' ') s++;
    bool neg = e->negative;
    if (*s == '-') { neg = !neg; s++; }
    else if (*s == '+') s++;
    /* collect numbers separated by ' ', ':', '-', '.' */
    int64_t f[6] = {0};
    int nf = 0;
    int fraclen[6] = {0};
    char seps[6] = {0};
    while (*s && nf < 6) {
        if (!isdigit((unsigned char)*s)) return false;
        int64_t v = 0;
        int len = 0;
        while (isdigit((unsigned char)*s)) {
            if (len > 17) return false;
            v = v * 10 + (*s - '0');
            s++;
            len++;
        }
        fraclen[nf] = len;
        f[nf++] = v;
        if (*s) {
            if (*s != ' ' && *s != ':' && *s != '-' && *s != '.') return false;
            seps[nf] = *s;
            s++;
        }
    }
    if (*s) return false;
    int st = e->iv_start, en = e->iv_end ? e->iv_end : e->iv_start;
    *ym = (st == AU_YEAR || st == AU_MONTH || st == AU_QUARTER);
    int64_t v = 0;
    /* seconds fraction: last field after '.' */
    int64_t frac_ms = 0;
    if (nf >= 2 && seps[nf - 1] == '.') {
        int64_t fr = f[nf - 1];
        int len = fraclen[nf - 1];
        while (len > 3) { fr /= 10; len--; }
        while (len < 3) { fr *= 10; len++; }
        frac_ms = fr;
        nf--;
    }
    static const int64_t MS[] = {0, 0, 0, 0, 604800000LL, 86400000LL, 3600000LL, 60000LL, 1000LL};
    if (*ym) {
        if (st == AU_YEAR && en == AU_MONTH) { if (nf != 2) return false; v = f[0] * 12 + f[1]; }
        else if (st == AU_YEAR) { if (nf != 1) return false; v = f[0] * 12; }
        else if (st == AU_QUARTER) { if (nf != 1) return false; v = f[0] * 3; }
        else { if (nf != 1) return false; v = f[0]; }
    } else {
        /* units from st to en inclusive among DAY, HOUR, MINUTE, SECOND */
        int units[4], nu = 0;
        for (int u = st; u <= en && u <= AU_SECOND; u++) {
            if (u == AU_WEEK && st != AU_WEEK) continue;
            units[nu++] = u;
            if (nu == 4) break;
        }
        if (nu == 0) {
            if (st == AU_MILLISECOND && nf == 1) { *out = neg ? -f[0] : f[0]; return true; }
            return false;
        }
        if (nf != nu) return false;
        for (int i = 0; i < nu; i++) v += f[i] * MS[units[i]];
        v += frac_ms;
    }
    *out = neg ? -v : v;
    return true;
}

static WIntervalQual interval_qual(int st, int en)
{
    if (!en) en = st;
    switch (st) {
    case AU_YEAR: return en == AU_MONTH ? WIQ_YEAR_TO_MONTH : WIQ_YEAR;
    case AU_QUARTER: case AU_MONTH: return WIQ_MONTH;
    case AU_WEEK: case AU_DAY:
        return en == AU_HOUR ? WIQ_DAY_TO_HOUR : en == AU_MINUTE ? WIQ_DAY_TO_MINUTE
             : en == AU_SECOND ? WIQ_DAY_TO_SECOND : WIQ_DAY;
    case AU_HOUR: return en == AU_MINUTE ? WIQ_HOUR_TO_MINUTE : en == AU_SECOND ? WIQ_HOUR_TO_SECOND : WIQ_HOUR;
    case AU_MINUTE: return en == AU_SECOND ? WIQ_MINUTE_TO_SECOND : WIQ_MINUTE;
    default: return WIQ_SECOND;
    }
}

static WExpr *bind_exact_integer(BindCtx *b, AstExpr *e, bool negated)
{
    WDatum d = {0};
    __int128 v;
    int nd;
    /* beyond BIGINT Calcite's validator refuses the literal (see bind_decimal_literal) */
    if (!parse_i128(e->text, &v, &nd) || v > (__int128)INT64_MAX + negated)
        {
        werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_CALCITE, "Numeric literal '%s%s' out of range",
                    negated ? "-" : "", e->text);
        return NULL;
    }
    if (negated) v = -v;
    d.i = (int64_t)v;
    return wexpr_literal(b->p->arena, v >= INT32_MIN && v <= INT32_MAX ? &WTYPE_INT_NN : &WTYPE_BIGINT_NN, d, false);
}

static WExpr *bind_literal(BindCtx *b, AstExpr *e)
{
    WArena *a = b->p->arena;
    WDatum d = {0};
    switch (e->lit) {
    case AL_NULL: return wexpr_literal(a, &WTYPE_NULL, d, true);
    case AL_TRUE: d.i = 1; return wexpr_literal(a, &WTYPE_BOOLEAN_NN, d, false);
    case AL_FALSE: d.i = 0; return wexpr_literal(a, &WTYPE_BOOLEAN_NN, d, false);
    case AL_UNKNOWN: return wexpr_literal(a, &WTYPE_BOOLEAN, d, true);
    case AL_INTEGER: return bind_exact_integer(b, e, false);
    case AL_DECIMAL: return bind_decimal_literal(b, e, false);
    case AL_APPROX: d.d = strtod(e->text, NULL); return wexpr_literal(a, &WTYPE_DOUBLE_NN, d, false);
    case AL_STRING: {
        int len = (int)strlen(e->text), chars = 0;
        for (int i = 0; i < len; i++) if (((unsigned char)e->text[i] & 0xC0) != 0x80) chars++;
        d.s.p = e->text;
        d.s.len = len;
        return wexpr_literal(a, wtype_char(a, chars, false), d, false);
    }
    case AL_BINARY: {
        int hl = (int)strlen(e->text);
        if (hl % 2) return fail_at(b, e->pos, WEXC_VALIDATION, "Binary literal string must contain an even number of hexits: %s", e->text);
        char *bytes = wa_alloc(a, (size_t)hl / 2 + 1);
        for (int i = 0; i < hl / 2; i++) {
            char h[3] = {e->text[2 * i], e->text[2 * i + 1], 0};
            bytes[i] = (char)strtol(h, NULL, 16);
        }
        d.s.p = bytes;
        d.s.len = hl / 2;
        WType *t = wtype_new(a, WT_BINARY, false);
        t->precision = hl / 2;
        return wexpr_literal(a, t, d, false);
    }
    case AL_DATE:
        if (!wparse_date(e->text, (int)strlen(e->text), &d.i))
            return fail_at(b, e->pos, WEXC_VALIDATION, "Illegal DATE literal '%s'", e->text);
        return wexpr_literal(a, wtype_with_nullable(a, &WTYPE_DATE, false), d, false);
    case AL_TIME:
        if (!wparse_time(e->text, (int)strlen(e->text), &d.i))
            return fail_at(b, e->pos, WEXC_VALIDATION, "Illegal TIME literal '%s'", e->text);
        return wexpr_literal(a, wtype_time(a, frac_digits(e->text), false), d, false);
    case AL_TIMESTAMP:
    case AL_TIMESTAMP_LTZ: {
        if (!wparse_timestamp(e->text, (int)strlen(e->text), &d.ts))
            return fail_at(b, e->pos, WEXC_VALIDATION, "Illegal TIMESTAMP literal '%s'", e->text);
        int p = frac_digits(e->text);
        if (e->lit == AL_TIMESTAMP_LTZ) {
            if (b->p->cast && b->p->cast->tz)
                d.ts.ms -= (int64_t)wtz_offset_for_local(b->p->cast->tz, d.ts.ms) * 1000;
            return wexpr_literal(a, wtype_timestamp(a, WT_TIMESTAMP_LTZ, p, false), d, false);
        }
        return wexpr_literal(a, wtype_timestamp(a, WT_TIMESTAMP, p, false), d, false);
    }
    case AL_INTERVAL: {
        int64_t v;
        bool ym;
        if (!interval_value(e, &v, &ym))
            return fail_at(b, e->pos, WEXC_VALIDATION, "Illegal interval literal format '%s'", e->text);
        d.i = v;
        WIntervalQual q = interval_qual(e->iv_start, e->iv_end);
        int prec = e->iv_precision >= 0 ? e->iv_precision : 2;
        int frac = e->iv_frac >= 0 ? e->iv_frac : 3;
        if (e->iv_start == AU_SECOND && !e->iv_end && e->iv_precision >= 0 && e->iv_frac < 0) frac = 3;
        return wexpr_literal(a, wtype_interval(a, ym ? WT_INTERVAL_YM : WT_INTERVAL_DT, q, prec, frac, false), d, false);
    }
    }
    return fail_at(b, e->pos, WEXC_VALIDATION, "Unsupported literal%s", "");
}

/* ---- names ---- */

/* FIELD(row, i): the field `fname` of a ROW-typed expression; NULL when it has no such field. */
static WExpr *field_access(BindCtx *b, WExpr *row, const char *fname)
{
    const WType *rt = row->type;
    if (rt->id != WT_ROW) return NULL;
    const WFuncDef *fd = wfunc_lookup("FIELD");
    for (int f = 0; fd && f < rt->nfields; f++) {
        if (strcmp(rt->field_names[f], fname) != 0) continue;
        /* a field of a nullable row is nullable */
        WExpr *c = wexpr_new(b->p->arena, WX_CALL,
                             wtype_with_nullable(b->p->arena, rt->fields[f], rt->fields[f]->nullable || rt->nullable), 2);
        c->func = fd;
        c->args[0] = row;
        WDatum fi = {.i = f};
        c->args[1] = wexpr_literal(b->p->arena, &WTYPE_INT_NN, fi, false);
        return c;
    }
    return NULL;
}

/* parts[from..to-1] joined by dots (arena). */
static const char *dotted(BindCtx *b, char **parts, int from, int to)
{
    size_t len = 1;
    for (int i = from; i < to; i++) len += strlen(parts[i]) + 1;
    char *r = wa_alloc(b->p->arena, len);
    r[0] = 0;
    for (int i = from; i < to; i++) {
        if (i > from) strcat(r, ".");
        strcat(r, parts[i]);
    }
    return r;
}

/* A compound name as Calcite resolves it: `qual.col[.field...]` when the first part names a
   table (alias) in scope, else `col[.field...]`; the parts after the column are field accesses
   into ROW values (FIELD calls). */
static WExpr *bind_column(BindCtx *b, BScope *s, AstExpr *e)
{
    int n = e->name.n;
    bool qual_seen = false;
    for (int i = 0; n >= 2 && i < s->n && !qual_seen; i++)
        qual_seen = s->cols[i].qual && strcmp(s->cols[i].qual, e->name.parts[0]) == 0;
    const char *qual = qual_seen ? e->name.parts[0] : NULL;
    int at = qual_seen ? 1 : 0;                     /* the part that names the column */
    const char *name = e->name.parts[at];
    if (!qual && n == 1 && b->expand_using) {
        /* a select item or GROUP BY key naming a USING column: COALESCE of the first two columns
           of that name in the FROM (Calcite's expandCommonColumn, whatever the join type) */
        bool is_using = false;
        for (int k = 0; k < s->nusing && !is_using; k++) is_using = strcmp(s->using_names[k], name) == 0;
        int copies[2], ncopies = 0;
        for (int i = 0; is_using && i < s->n && ncopies < 2; i++)
            if (s->cols[i].depth == 0 && strcmp(s->cols[i].name, name) == 0) copies[ncopies++] = i;
        if (ncopies == 2) {
            WExpr *xs[2];
            for (int k = 0; k < 2; k++)
                xs[k] = wexpr_column(b->p->arena, copies[k], s->cols[copies[k]].type, s->cols[copies[k]].name);
            return bind_coalesce(b, e->pos, xs, 2);
        }
    }
    int found = -1;
    bool ambiguous = false;
    for (int i = 0; i < s->n; i++) {
        BCol *c = &s->cols[i];
        if (qual && (!c->qual || strcmp(c->qual, qual) != 0)) continue;
        if (strcmp(c->name, name) != 0) continue;
        if (found >= 0 && s->cols[found].depth == c->depth) { ambiguous = true; continue; }
        if (found < 0 || c->depth < s->cols[found].depth) { found = i; ambiguous = false; }
    }
    if (ambiguous) return fail_at(b, e->pos, WEXC_CALCITE, "Column '%s' is ambiguous", name);
    if (found < 0) {
        if (qual) {
            char msg[512];
            snprintf(msg, sizeof msg, "Column '%s' not found in table '%s'", name, qual);
            return fail_at(b, e->pos, WEXC_CALCITE, "%s", msg);
        }
        if (n >= 2) /* Calcite names every part but the last as the table it did not find */
            return fail_at(b, e->pos, WEXC_CALCITE, "Table '%s' not found", dotted(b, e->name.parts, 0, n - 1));
        return fail_at(b, e->pos, WEXC_CALCITE, "Column '%s' not found in any table", name);
    }
    WExpr *x = wexpr_column(b->p->arena, found, s->cols[found].type, s->cols[found].name);
    for (int k = at + 1; k < n; k++) {
        WExpr *f = field_access(b, x, e->name.parts[k]);
        if (!f) {   /* the column and its fields up to the missing one, in the column's table */
            const char *tq = qual ? qual : s->cols[found].qual;
            char msg[768];
            if (tq) snprintf(msg, sizeof msg, "Column '%s' not found in table '%s'", dotted(b, e->name.parts, at, k + 1), tq);
            else snprintf(msg, sizeof msg, "Column '%s' not found in any table", dotted(b, e->name.parts, at, k + 1));
            return fail_at(b, e->pos, WEXC_CALCITE, "%s", msg);
        }
        x = f;
    }
    return x;
}

/* ---- calls ---- */

static const char *type_family(const WType *t)
{
    if (wtype_is_numeric(t)) return "<NUMERIC>";
    if (wtype_is_string(t)) return "<CHARACTER>";
    if (t->id == WT_BOOLEAN) return "<BOOLEAN>";
    if (wtype_is_binary(t)) return "<BINARY>";
    if (t->id == WT_DATE) return "<DATE>";
    if (t->id == WT_TIME) return "<TIME>";
    if (t->id == WT_TIMESTAMP) return "<TIMESTAMP>";
    if (t->id == WT_TIMESTAMP_LTZ) return "<TIMESTAMP_WITH_LOCAL_TIME_ZONE>";
    if (t->id == WT_INTERVAL_DT) return "<INTERVAL_DAY_TIME>";
    if (t->id == WT_INTERVAL_YM) return "<INTERVAL_YEAR_MONTH>";
    if (t->id == WT_NULL) return "<NULL>";
    if (t->id == WT_ARRAY) return "<ARRAY>";
    if (t->id == WT_MAP) return "<MAP>";
    if (t->id == WT_ROW) return "<ROW>";
    return "<ANY>";
}

/* Build a call to library function `name` over bound args (coercions applied). */
static WExpr *make_call(BindCtx *b, AstPos pos, const char *name, const char *shown_name, WExpr **args, int nargs)
{
    WArena *a = b->p->arena;
    const WFuncDef *fd = wfunc_lookup(name);
    if (!fd) {
        WStrBuf s;
        wsb_init(&s);
        wsb_printf(&s, "No match found for function signature %s(", shown_name);
        for (int i = 0; i < nargs; i++) wsb_printf(&s, "%s%s", i ? ", " : "", type_family(args[i]->type));
        wsb_putc(&s, ')');
        werr_set_at(b->p->err, pos.line, pos.col, WEXC_CALCITE, "%s", s.buf);
        wsb_free(&s);
        return NULL;
    }
    if (nargs < fd->min_args || (fd->max_args >= 0 && nargs > fd->max_args)) {
        WStrBuf s;
        wsb_init(&s);
        wsb_printf(&s, "Invalid number of arguments to function '%s'. Was expecting %d arguments",
                   fd->name, fd->min_args);
        werr_set_at(b->p->err, pos.line, pos.col, WEXC_CALCITE, "%s", s.buf);
        wsb_free(&s);
        return NULL;
    }
    const WType **at = WA_ARRAY(a, const WType *, nargs ? nargs : 1);
    const WType **coerce = WA_ARRAY(a, const WType *, nargs ? nargs : 1);
    for (int i = 0; i < nargs; i++) at[i] = args[i]->type;
    const WType *rt = fd->infer(a, at, nargs, coerce, b->p->err);
    if (!rt) {
        if (b->p->err && b->p->err->set && !b->p->err->line) { b->p->err->line = pos.line; b->p->err->col = pos.col; }
        return NULL;
    }
    WExpr *c = wexpr_new(a, WX_CALL, rt, nargs);
    c->func = fd;
    c->name = fd->name;
    for (int i = 0; i < nargs; i++) c->args[i] = coerce[i] ? bind_cast(b, args[i], coerce[i]) : args[i];
    if (fd->prepare && !fd->prepare(a, c, b->p->err)) return NULL;
    return c;
}

static WExpr *bind_args_call(BindCtx *b, BScope *s, AstExpr *e, const char *fname)
{
    WExpr **args = WA_ARRAY(b->p->arena, WExpr *, e->nargs ? e->nargs : 1);
    for (int i = 0; i < e->nargs; i++) {
        args[i] = bind_expr(b, s, e->args[i]);
        if (!args[i]) return NULL;
    }
    return make_call(b, e->pos, fname, fname, args, e->nargs);
}

static WExpr *string_lit(BindCtx *b, const char *v)
{
    WDatum d = {.s = {v, (int32_t)strlen(v)}};
    return wexpr_literal(b->p->arena, wtype_char(b->p->arena, (int)strlen(v), false), d, false);
}

static WExpr *bind_nary_logic(BindCtx *b, BScope *s, AstExpr *e, WExprKind kind)
{
    WExpr *l = bind_condition(b, s, e->args[0], kind == WX_AND ? "AND" : "OR");
    WExpr *r = l ? bind_condition(b, s, e->args[1], kind == WX_AND ? "AND" : "OR") : NULL;
    if (!r) return NULL;
    int n = (l->kind == kind ? l->nargs : 1) + (r->kind == kind ? r->nargs : 1);
    WExpr *x = wexpr_new(b->p->arena, kind, wtype_with_nullable(b->p->arena, &WTYPE_BOOLEAN,
                                                                l->type->nullable || r->type->nullable), n);
    int k = 0;
    WExpr *parts[2] = {l, r};
    for (int p = 0; p < 2; p++) {
        if (parts[p]->kind == kind) for (int i = 0; i < parts[p]->nargs; i++) x->args[k++] = parts[p]->args[i];
        else x->args[k++] = parts[p];
    }
    return x;
}

static const WType *common_of(BindCtx *b, AstPos pos, WExpr **xs, int n, const char *what)
{
    const WType *t = NULL;
    for (int i = 0; i < n; i++) {
        if (!xs[i]) continue;
        if (!t) { t = xs[i]->type; continue; }
        const WType *c = wtype_common(b->p->arena, t, xs[i]->type);
        if (!c) {
            werr_set_at(b->p->err, pos.line, pos.col, WEXC_VALIDATION,
                        "Cannot apply '%s' to arguments of type '%s' and '%s'.", what,
                        wtype_str(b->p->arena, t), wtype_str(b->p->arena, xs[i]->type));
            return NULL;
        }
        t = c;
    }
    return t;
}

WExpr *bind_coalesce(BindCtx *b, AstPos pos, WExpr **xs, int n)
{
    WArena *a = b->p->arena;
    const WType *t = common_of(b, pos, xs, n, "COALESCE");
    if (!t) return NULL;
    bool nullable = true;
    for (int i = 0; i < n; i++) if (!xs[i]->type->nullable) nullable = false;
    t = wtype_with_nullable(a, t, nullable);
    WExpr *x = wexpr_new(a, WX_COALESCE, t, n);
    for (int i = 0; i < n; i++) x->args[i] = bind_cast(b, xs[i], t);
    return x;
}

static WExpr *bind_case(BindCtx *b, BScope *s, AstExpr *e)
{
    WArena *a = b->p->arena;
    int n = e->nwhen;
    WExpr *operand = e->case_operand ? bind_expr(b, s, e->case_operand) : NULL;
    if (e->case_operand && !operand) return NULL;
    WExpr **conds = WA_ARRAY(a, WExpr *, n), **vals = WA_ARRAY(a, WExpr *, n + 1);
    for (int i = 0; i < n; i++) {
        if (operand) {
            WExpr *w = bind_expr(b, s, e->when[i]);
            if (!w) return NULL;
            WExpr *args[2] = {operand, w};
            conds[i] = make_call(b, e->when[i]->pos, "=", "=", args, 2);
        } else {
            conds[i] = bind_condition(b, s, e->when[i], "WHEN");
        }
        if (!conds[i]) return NULL;
        vals[i] = bind_expr(b, s, e->then[i]);
        if (!vals[i]) return NULL;
    }
    int nv = n;
    if (e->else_expr) {
        vals[nv] = bind_expr(b, s, e->else_expr);
        if (!vals[nv]) return NULL;
        nv++;
    }
    const WType *t = common_of(b, e->pos, vals, nv, "CASE");
    if (!t) return NULL;
    if (t->id == WT_NULL) t = &WTYPE_NULL;
    bool nullable = !e->else_expr;
    for (int i = 0; i < nv; i++) nullable = nullable || vals[i]->type->nullable;
    t = wtype_with_nullable(a, t, nullable);
    WExpr *x = wexpr_new(a, WX_CASE, t, 2 * n + (e->else_expr ? 1 : 0));
    x->has_else = e->else_expr != NULL;
    for (int i = 0; i < n; i++) {
        x->args[2 * i] = conds[i];
        x->args[2 * i + 1] = bind_cast(b, vals[i], t);
    }
    if (e->else_expr) x->args[2 * n] = bind_cast(b, vals[n], t);
    return x;
}

static WExpr *bind_in(BindCtx *b, BScope *s, AstExpr *e)
{
    WArena *a = b->p->arena;
    if (e->subquery)
        return fail_at(b, e->pos, WEXC_TABLE, "%s", "IN with a subquery is not supported yet in this position");
    int n = e->nargs;
    WExpr **xs = WA_ARRAY(a, WExpr *, n);
    for (int i = 0; i < n; i++) if (!(xs[i] = bind_expr(b, s, e->args[i]))) return NULL;
    const WType *t = common_of(b, e->pos, xs, n, "IN");
    if (!t) return NULL;
    bool nullable = false;
    for (int i = 0; i < n; i++) nullable = nullable || xs[i]->type->nullable;
    WExpr *x = wexpr_new(a, WX_IN, wtype_with_nullable(a, &WTYPE_BOOLEAN, nullable), n);
    x->negated = e->negated;
    for (int i = 0; i < n; i++) x->args[i] = bind_cast(b, xs[i], t);
    return x;
}

static WExpr *bind_is(BindCtx *b, BScope *s, AstExpr *e)
{
    WArena *a = b->p->arena;
    WExpr *x = bind_expr(b, s, e->args[0]);
    if (!x) return NULL;
    switch (e->is_what) {
    case AIS_NULL:
    case AIS_UNKNOWN: {
        WExpr *r = wexpr_new(a, WX_IS_NULL, &WTYPE_BOOLEAN_NN, 1);
        r->args[0] = x;
        r->negated = e->negated;
        return r;
    }
    case AIS_TRUE:
    case AIS_FALSE: {
        const char *fn = e->is_what == AIS_TRUE ? (e->negated ? "IS NOT TRUE" : "IS TRUE")
                                                : (e->negated ? "IS NOT FALSE" : "IS FALSE");
        WExpr *args[1] = {x};
        return make_call(b, e->pos, fn, fn, args, 1);
    }
    case AIS_DISTINCT_FROM: {
        WExpr *y = bind_expr(b, s, e->args[1]);
        if (!y) return NULL;
        WExpr *args[2] = {x, y};
        const char *fn = e->negated ? "IS NOT DISTINCT FROM" : "IS DISTINCT FROM";
        return make_call(b, e->pos, fn, fn, args, 2);
    }
    }
    return NULL;
}

static WExpr *bind_not(BindCtx *b, WExpr *x)
{
    WExpr *n = wexpr_new(b->p->arena, WX_NOT, x->type, 1);
    n->args[0] = x;
    return n;
}

static const char *binary_func(AstOp op)
{
    switch (op) {
    case AO_PLUS: return "+"; case AO_MINUS: return "-"; case AO_MUL: return "*";
    case AO_DIV: return "/"; case AO_MOD: return "MOD"; case AO_CONCAT: return "||";
    case AO_EQ: return "="; case AO_NE: return "<>"; case AO_LT: return "<";
    case AO_LE: return "<="; case AO_GT: return ">"; case AO_GE: return ">=";
    default: return NULL;
    }
}

static WExpr *bind_func(BindCtx *b, BScope *s, AstExpr *e)
{
    WArena *a = b->p->arena;
    const char *name = e->name.parts[e->name.n - 1];
    char upper[128];
    snprintf(upper, sizeof upper, "%s", name);
    for (char *q = upper; *q; q++) *q = (char)toupper((unsigned char)*q);

    /* JSON(text) is a value of JSON_OBJECT or JSON_ARRAY only (its text inserted as JSON there);
       elsewhere Flink's validation refuses it */
    if (e->special == 'J' && (!strcmp(upper, "JSON_OBJECT") || !strcmp(upper, "JSON_ARRAY"))) {
        bool object = !strcmp(upper, "JSON_OBJECT");
        for (int i = object ? 2 : 1; i < e->nargs; i += object ? 2 : 1) {
            AstExpr *v = e->args[i];
            if (v && v->kind == AE_FUNC && v->name.n == 1 && !strcasecmp(v->name.parts[0], "JSON")) v->special = 'R';
        }
    }
    if (!strcmp(upper, "JSON") && e->name.n == 1 && e->special != 'R') {
        werr_set(b->p->err, WEXC_VALIDATION, "%s",
                 "The JSON() function is currently only supported inside JSON_ARRAY() or as the VALUE param of "
                 "JSON_OBJECT(). Example: JSON_OBJECT('a', JSON('{\"key\": \"value\"}')) or "
                 "JSON_ARRAY(JSON('{\"key\": \"value\"}')).");
        return NULL;
    }
    if (e->special == 'j')   /* a {fn NAME(..)} escape outside the JDBC function table */
        return fail_at(b, e->pos, WEXC_CALCITE, "Function '{fn %s}' is not defined", name);
    if (e->special == 'u') {
        /* a {fn} escape Calcite maps to one of its own operators that Flink's code generator
           does not have (parse_jdbc.c): Flink fails when it generates the call, measured */
        WStrBuf sig;
        wsb_init(&sig);
        wsb_printf(&sig, "Unsupported call: %s(", name);
        for (int i = 0; i < e->nargs; i++) {
            WExpr *x = bind_expr(b, s, e->args[i]);
            if (!x) { wsb_free(&sig); return NULL; }
            if (i) wsb_append(&sig, ", ");
            wtype_to_string(x->type, &sig);
        }
        wsb_append(&sig, ") \nIf you think this function should be supported, you can create an issue and "
                         "start a discussion for it.");
        WExpr *r = fail_at(b, e->pos, WEXC_CODEGEN, "%s", sig.buf);
        wsb_free(&sig);
        return r;
    }
    if (e->over) {
        /* batch: computed by an OverAggregate below (bind_over.c) */
        for (int i = 0; i < b->nover_map; i++)
            if (b->over_map_ast[i] == e) {
                int c = b->over_map_col[i];
                return wexpr_column(a, c, s->cols[c].type, s->cols[c].name);
            }
        return fail_at(b, e->pos, WEXC_TABLE, "%s", "OVER windows are not supported yet");
    }
    if (ast_is_aggregate_call(e))
        return fail_at(b, e->pos, WEXC_VALIDATION,
                       "Aggregate function '%s' is not allowed in this position (no GROUP BY context)", upper);
    /* niladic functions written without parentheses (USER, CURRENT_DATE, ...) name a column
       when one of that name is in scope, as Calcite resolves them */
    if (e->nargs == 0 && e->name.n == 1 && !e->star_arg) {
        for (int i = 0; i < s->n; i++)
            if (strcasecmp(s->cols[i].name, name) == 0)
                return wexpr_column(a, i, s->cols[i].type, s->cols[i].name);
    }
    if (strcmp(upper, "PROCTIME") == 0 && e->nargs == 0) {
        const WType *t = wtype_with_time_attr(a, wtype_timestamp(a, WT_TIMESTAMP_LTZ, 3, false), WTA_PROCTIME);
        WExpr *x = wexpr_new(a, WX_PROCTIME, t, 0);
        x->name = "PROCTIME";
        return x;
    }
    if (strcmp(upper, "COALESCE") == 0) {
        if (e->nargs < 1) return fail_at(b, e->pos, WEXC_CALCITE, "Invalid number of arguments to function '%s'", "COALESCE");
        WExpr **xs = WA_ARRAY(a, WExpr *, e->nargs);
        for (int i = 0; i < e->nargs; i++) if (!(xs[i] = bind_expr(b, s, e->args[i]))) return NULL;
        return bind_coalesce(b, e->pos, xs, e->nargs);
    }
    /* time-unit arguments become string literals naming the unit */
    WExpr **args = WA_ARRAY(a, WExpr *, e->nargs ? e->nargs : 1);
    for (int i = 0; i < e->nargs; i++) {
        if (!e->args[i]) {
            /* an omitted optional argument of a special form (TRIM's characters): a space */
            args[i] = string_lit(b, " ");
            continue;
        }
        if (e->args[i]->kind == AE_TIMEUNIT) args[i] = string_lit(b, unit_name(e->args[i]->unit));
        else args[i] = bind_expr(b, s, e->args[i]);
        if (!args[i]) return NULL;
    }
    return make_call(b, e->pos, upper, name, args, e->nargs);
}

WExpr *bind_condition(BindCtx *b, BScope *s, AstExpr *e, const char *clause)
{
    WExpr *x = bind_expr(b, s, e);
    if (!x) return NULL;
    if (x->type->id == WT_NULL) return bind_cast(b, x, &WTYPE_BOOLEAN);
    if (x->type->id != WT_BOOLEAN) {
        werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_CALCITE,
                    "%s clause must be a condition", clause);
        return NULL;
    }
    return x;
}

/* ---- aggregate mode ---- */

static int agg_register(BindCtx *b, BScope *input, AstExpr *e);

static WExpr *agg_match(BindCtx *b, AstExpr *e, bool *handled)
{
    BAgg *g = b->agg;
    *handled = false;
    if (bgs_is_grouping_func(e)) {
        *handled = true;
        return bgs_grouping_call(b, e);
    }
    if (ast_is_aggregate_call(e)) {
        *handled = true;
        int idx = agg_register(b, g->input, e);
        if (idx < 0) return NULL;
        return wexpr_column(b->p->arena, g->ngroup + idx, g->calls[idx].type, g->calls[idx].out_name);
    }
    /* a literal is itself, unless it is a key of grouping sets: there it reads NULL in the sets
       without it (Flink 2.3: SELECT 7, 3, COUNT(*) ... GROUP BY ROLLUP(7, 3) gives (7, NULL) and
       (NULL, NULL) rows; found by the differential tester) */
    if (e->kind == AE_LITERAL && !g->gsets) return NULL;
    /* legacy group window properties: TUMBLE_START(...), HOP_END(...), SESSION_ROWTIME(...) */
    if (g->win_key >= 0 && e->kind == AE_FUNC && e->name.n == 1) {
        const char *nm = e->name.parts[0];
        const char *us = strchr(nm, '_');
        if (us && (!strncasecmp(nm, "TUMBLE_", 7) || !strncasecmp(nm, "HOP_", 4) || !strncasecmp(nm, "SESSION_", 8))) {
            int off = -1;
            if (!strcasecmp(us + 1, "START")) off = 0;
            else if (!strcasecmp(us + 1, "END")) off = 1;
            else if (!strcasecmp(us + 1, "ROWTIME") || !strcasecmp(us + 1, "PROCTIME")) off = 2;
            if (off >= 0) {
                *handled = true;
                g->win_props_used = true;
                int k = g->win_key + off;
                const WType *t = g->group[k]->type;
                if (off < 2) t = wtype_with_time_attr(b->p->arena, t, WTA_NONE);
                return wexpr_column(b->p->arena, k, t, nm);
            }
        }
    }
    /* try to bind against the input and match a group key */
    WError tmp;
    werr_clear(&tmp);
    WError *saved = b->p->err;
    b->p->err = &tmp;
    BAgg *sa = b->agg;
    b->agg = NULL;
    WExpr *w = ast_contains_aggregate(e) ? NULL : bind_expr(b, g->input, e);
    b->agg = sa;
    b->p->err = saved;
    if (w) {
        for (int i = 0; i < g->ngroup; i++) {
            if (wexpr_equal(w, g->group[i])) {
                *handled = true;
                return wexpr_column(b->p->arena, i, g->key_types ? g->key_types[i] : g->group[i]->type,
                                    g->group[i]->name);
            }
        }
        if (wexpr_is_const(w)) { *handled = true; return w; }
    }
    if (e->kind == AE_COLUMN && !w && tmp.set) {
        /* a name that resolves to nothing or to two columns: that error first (Calcite
           validates names before grouping) */
        *handled = true;
        *b->p->err = tmp;
        return NULL;
    }
    if (e->kind == AE_COLUMN || e->kind == AE_SCOPE_REF) {
        *handled = true;
        /* Flink 2.3 names the column without quotes: Expression 't0.v' is not being grouped */
        char *txt = ast_expr_sql(b->p->arena, e);
        char *w = txt;
        for (char *c = txt; *c; c++) if (*c != '`') *w++ = *c;
        *w = 0;
        werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_CALCITE,
                    "Expression '%s' is not being grouped", txt);
        return NULL;
    }
    return NULL;
}

static WAggKind agg_kind(const char *up, bool star, bool *ok)
{
    *ok = true;
    if (strcmp(up, "COUNT") == 0) return star ? WAGG_COUNT_STAR : WAGG_COUNT;
    if (strcmp(up, "SUM") == 0) return WAGG_SUM;
    if (strcmp(up, "SUM0") == 0) return WAGG_SUM0;
    if (strcmp(up, "MIN") == 0) return WAGG_MIN;
    if (strcmp(up, "MAX") == 0) return WAGG_MAX;
    if (strcmp(up, "AVG") == 0) return WAGG_AVG;
    if (strcmp(up, "FIRST_VALUE") == 0) return WAGG_FIRST_VALUE;
    if (strcmp(up, "LAST_VALUE") == 0) return WAGG_LAST_VALUE;
    if (strcmp(up, "LISTAGG") == 0) return WAGG_LISTAGG;
    if (strcmp(up, "STDDEV_POP") == 0) return WAGG_STDDEV_POP;
    if (strcmp(up, "STDDEV_SAMP") == 0 || strcmp(up, "STDDEV") == 0) return WAGG_STDDEV_SAMP;
    if (strcmp(up, "VAR_POP") == 0) return WAGG_VAR_POP;
    if (strcmp(up, "VAR_SAMP") == 0 || strcmp(up, "VARIANCE") == 0) return WAGG_VAR_SAMP;
    if (strcmp(up, "BOOL_AND") == 0) return WAGG_BOOL_AND;
    if (strcmp(up, "BOOL_OR") == 0) return WAGG_BOOL_OR;
    if (strcmp(up, "COLLECT") == 0) return WAGG_COLLECT;
    if (strcmp(up, BIND_SINGLE_VALUE) == 0) return WAGG_SINGLE_VALUE;
    *ok = false;
    return WAGG_COUNT;
}

static int agg_add_arg(BindCtx *b, WExpr *x)
{
    BAgg *g = b->agg;
    for (int i = 0; i < g->nargs; i++)
        if (wexpr_equal(g->args[i], x)) return g->ngroup + i;
    if (g->nargs == g->cap_args) {
        int cap = g->cap_args ? g->cap_args * 2 : 8;
        WExpr **n = WA_ARRAY(b->p->arena, WExpr *, cap);
        if (g->nargs) memcpy(n, g->args, sizeof(WExpr *) * (size_t)g->nargs);
        g->args = n;
        g->cap_args = cap;
    }
    g->args[g->nargs++] = x;
    return g->ngroup + g->nargs - 1;
}

static int agg_register(BindCtx *b, BScope *input, AstExpr *e)
{
    BAgg *g = b->agg;
    WArena *a = b->p->arena;
    char up[64];
    snprintf(up, sizeof up, "%s", e->name.parts[0]);
    for (char *q = up; *q; q++) *q = (char)toupper((unsigned char)*q);
    bool ok;
    WAggCall c = {0};
    c.kind = agg_kind(up, e->star_arg || (strcmp(up, "COUNT") == 0 && e->nargs == 0), &ok);
    c.name = c.kind == WAGG_SINGLE_VALUE ? "SINGLE_VALUE" : wa_strdup(a, up);
    c.distinct = e->distinct;
    c.filter_col = -1;
    /* arguments are bound against the input, outside aggregate mode */
    BAgg *sa = b->agg;
    b->agg = NULL;
    WExpr *argx[2] = {NULL, NULL};
    int nargs = e->nargs > 2 ? 2 : e->nargs;
    for (int i = 0; i < nargs; i++) {
        if (ast_contains_aggregate(e->args[i])) {
            b->agg = sa;
            werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_CALCITE,
                        "Aggregate expressions cannot be nested");
            return -1;
        }
        argx[i] = bind_expr(b, input, e->args[i]);
        if (!argx[i]) { b->agg = sa; return -1; }
    }
    WExpr *filt = e->filter ? bind_condition(b, input, e->filter, "FILTER") : NULL;
    b->agg = sa;
    if (e->filter && !filt) return -1;
    if (filt && filt->type->nullable) {
        /* Calcite's aggregate converter: a nullable FILTER condition becomes IS TRUE(cond) */
        WExpr *args[1] = {filt};
        filt = make_call(b, e->filter->pos, "IS TRUE", "IS TRUE", args, 1);
        if (!filt) return -1;
    }
    /* the argument count: one, LISTAGG's separator besides; COUNT of several fields is refused by
       Flink's planner (measured on Flink 2.3, messages included: Calcite names 1 for LISTAGG too) */
    if (c.kind == WAGG_COUNT && e->nargs > 1) {
        werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_TABLE, "We now only support the count of one field.");
        return -1;
    }
    if ((c.kind != WAGG_COUNT_STAR && nargs < 1) || e->nargs > (c.kind == WAGG_LISTAGG ? 2 : 1)) {
        werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_CALCITE,
                    "Invalid number of arguments to function '%s'. Was expecting 1 arguments", up);
        return -1;
    }
    const WType *at = nargs ? argx[0]->type : NULL;
    switch (c.kind) {
    case WAGG_COUNT_STAR: case WAGG_COUNT: c.type = &WTYPE_BIGINT_NN; break;
    case WAGG_SUM:
        if (!wtype_is_numeric(at)) goto badtype;
        c.type = wtype_sum_result(a, at);
        break;
    case WAGG_SUM0:
        if (!wtype_is_numeric(at)) goto badtype;
        c.type = wtype_with_nullable(a, wtype_sum_result(a, at), false);
        break;
    case WAGG_AVG:
        if (!wtype_is_numeric(at)) goto badtype;
        c.type = wtype_avg_result(a, at);
        break;
    case WAGG_MIN: case WAGG_MAX: case WAGG_FIRST_VALUE: case WAGG_LAST_VALUE: case WAGG_SINGLE_VALUE:
        c.type = wtype_with_nullable(a, wtype_with_time_attr(a, at, WTA_NONE), true);
        break;
    case WAGG_LISTAGG:
        if (!wtype_is_string(at)) goto badtype;
        c.type = &WTYPE_STRING;
        if (nargs == 2 && !wexpr_is_const(argx[1])) {
            werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_VALIDATION,
                        "Supported form(s): 'LISTAGG(<CHARACTER>)'\n'LISTAGG(<CHARACTER>, <CHARACTER_LITERAL>)'");
            return -1;
        }
        break;
    case WAGG_STDDEV_POP: case WAGG_STDDEV_SAMP: case WAGG_VAR_POP: case WAGG_VAR_SAMP:
        if (!wtype_is_numeric(at)) goto badtype;
        c.type = at->id == WT_DECIMAL ? wtype_decimal(a, 38, at->scale > 6 ? at->scale : 6, true)
                                      : wtype_with_nullable(a, at, true);
        break;
    case WAGG_BOOL_AND: case WAGG_BOOL_OR:
        if (at->id != WT_BOOLEAN) goto badtype;
        c.type = &WTYPE_BOOLEAN;
        break;
    case WAGG_COLLECT:
        c.type = wtype_new(a, WT_MULTISET, false);
        ((WType *)c.type)->elem = at;
        break;
    }
    /* Calcite's converter drops the arguments of a COUNT that can never see a NULL: COUNT(1) and
       COUNT(k) of a NOT NULL k are COUNT(*) (and merge with it); COUNT(DISTINCT k) keeps k */
    /* (the dropped arguments still take their place in the projection below the aggregate, which
       numbers the $f columns after them, as Calcite projects before it simplifies) */
    c.nargs = 0;
    bool count_args = c.kind == WAGG_COUNT && !c.distinct;
    for (int i = 0; i < nargs; i++) {
        int col = agg_add_arg(b, argx[i]);
        if (!count_args || argx[i]->type->nullable) c.args[c.nargs++] = col;
    }
    if (count_args && c.nargs == 0) c.kind = WAGG_COUNT_STAR;
    if (filt) c.filter_col = agg_add_arg(b, filt);
    /* same call already registered? */
    for (int i = 0; i < g->ncalls; i++) {
        WAggCall *o = &g->calls[i];
        if (o->kind == c.kind && o->distinct == c.distinct && o->nargs == c.nargs &&
            o->filter_col == c.filter_col && (c.nargs < 1 || o->args[0] == c.args[0]) &&
            (c.nargs < 2 || o->args[1] == c.args[1]))
            return i;
    }
    if (g->ncalls == g->cap_calls) {
        int cap = g->cap_calls ? g->cap_calls * 2 : 8;
        WAggCall *n = WA_ARRAY(a, WAggCall, cap);
        AstExpr **na = WA_ARRAY(a, AstExpr *, cap);
        if (g->ncalls) {
            memcpy(n, g->calls, sizeof(WAggCall) * (size_t)g->ncalls);
            memcpy(na, g->call_ast, sizeof(AstExpr *) * (size_t)g->ncalls);
        }
        g->calls = n;
        g->call_ast = na;
        g->cap_calls = cap;
    }
    /* a call no select item names (in HAVING, inside an expression) is its field: $f<n> */
    c.out_name = wa_sprintf(a, "$f%d", g->ngroup + g->ncalls);
    g->call_ast[g->ncalls] = e;
    g->calls[g->ncalls++] = c;
    return g->ncalls - 1;
badtype: {
    /* Calcite's SqlValidatorException, the operand type as Calcite writes it (STRING is
       VARCHAR(2147483647); measured on Flink 2.3) */
    WStrBuf ts;
    wsb_init(&ts);
    wfunc_calcite_type(at, &ts);
    werr_set_at(b->p->err, e->pos.line, e->pos.col, WEXC_CALCITE,
                "Cannot apply '%s' to arguments of type '%s(<%s>)'. Supported form(s): '%s(<NUMERIC>)'",
                up, up, ts.buf ? ts.buf : "", up);
    wsb_free(&ts);
    return -1;
}
}

int bind_agg_register(BindCtx *b, BScope *input, AstExpr *e) { return agg_register(b, input, e); }

/* ---- main entry ---- */

WExpr *bind_expr(BindCtx *b, BScope *s, AstExpr *e)
{
    if (!e) return NULL;
    if (++b->p->depth > 400) {
        b->p->depth--;
        return fail_at(b, e->pos, WEXC_VALIDATION, "%s", "Expression is too deeply nested");
    }
    WExpr *r = NULL;
    if (b->agg) {
        bool handled;
        r = agg_match(b, e, &handled);
        if (handled || r) { b->p->depth--; return r; }
    }
    WArena *a = b->p->arena;
    switch (e->kind) {
    case AE_LITERAL: r = bind_literal(b, e); break;
    case AE_COLUMN: r = bind_column(b, s, e); break;
    case AE_SCOPE_REF:
        assert(e->scope_col >= 0 && e->scope_col < s->n);
        r = wexpr_column(a, e->scope_col, s->cols[e->scope_col].type, s->cols[e->scope_col].name);
        break;
    case AE_STAR: r = fail_at(b, e->pos, WEXC_CALCITE, "%s", "Unknown identifier '*'"); break;
    case AE_PARAM: r = fail_at(b, e->pos, WEXC_VALIDATION, "%s", "Dynamic parameters are not supported"); break;
    case AE_UNARY: {
        if (e->op == AO_NOT) {
            WExpr *x = bind_condition(b, s, e->args[0], "NOT");
            r = x ? bind_not(b, x) : NULL;
        } else if (e->op == AO_POS) {
            r = bind_expr(b, s, e->args[0]);
        } else {
            AstExpr *x = e->args[0];
            if (x->kind == AE_LITERAL && x->lit == AL_INTEGER) {
                r = bind_exact_integer(b, x, true);
            } else if (x->kind == AE_LITERAL && x->lit == AL_DECIMAL) {
                r = bind_decimal_literal(b, x, true);
            } else if (x->kind == AE_LITERAL && x->lit == AL_APPROX) {
                r = bind_expr(b, s, x);
                if (r) {
                    assert(r->type->id == WT_DOUBLE);
                    WExpr *n = wexpr_literal(a, r->type, r->lit, false);
                    /* Calcite's literal is a BigDecimal: -0.0E0 is 0.0 (measured on Flink 2.3) */
                    n->lit.d = r->lit.d == 0 ? 0.0 : -r->lit.d;
                    r = n;
                }
            } else if (x->kind == AE_LITERAL && x->lit == AL_INTERVAL) {
                r = bind_expr(b, s, x);
                if (r) r->lit.i = -r->lit.i;
            } else {
                WExpr *v = bind_expr(b, s, x);
                WExpr *args[1] = {v};
                r = v ? make_call(b, e->pos, "NEG", "-", args, 1) : NULL;
            }
        }
        break;
    }
    case AE_BINARY:
        if (e->op == AO_AND) r = bind_nary_logic(b, s, e, WX_AND);
        else if (e->op == AO_OR) r = bind_nary_logic(b, s, e, WX_OR);
        else {
            WExpr *l = bind_expr(b, s, e->args[0]);
            WExpr *rr = l ? bind_expr(b, s, e->args[1]) : NULL;
            if (!rr) break;
            WExpr *args[2] = {l, rr};
            r = make_call(b, e->pos, binary_func(e->op), op_text(e->op), args, 2);
        }
        break;
    case AE_FUNC: r = bind_func(b, s, e); break;
    case AE_CASE: r = bind_case(b, s, e); break;
    case AE_CAST: {
        WExpr *x = bind_expr(b, s, e->args[0]);
        if (!x) break;
        const WType *t = wbind_type(b->p, e->type);
        if (!t) break;
        if (x->type->id != WT_NULL && !wcast_check(x->type, t, b->p->err)) {
            if (b->p->err && !b->p->err->line) { b->p->err->line = e->pos.line; b->p->err->col = e->pos.col; }
            break;
        }
        bool nullable = e->try_cast || x->type->nullable || x->type->id == WT_NULL;
        if (e->type && e->type->not_null) nullable = nullable && true;
        r = wexpr_new(a, WX_CAST, wtype_with_nullable(a, t, nullable), 1);
        r->args[0] = x;
        r->try_cast = e->try_cast;
        r->explicit_cast = true;
        break;
    }
    case AE_IN: r = bind_in(b, s, e); break;
    case AE_BETWEEN: {
        WExpr *x = bind_expr(b, s, e->args[0]);
        WExpr *lo = x ? bind_expr(b, s, e->args[1]) : NULL;
        WExpr *hi = lo ? bind_expr(b, s, e->args[2]) : NULL;
        if (!hi) break;
        WExpr *a1[2] = {x, lo}, *a2[2] = {x, hi};
        WExpr *c1 = make_call(b, e->pos, e->negated ? "<" : ">=", "BETWEEN", a1, 2);
        WExpr *c2 = c1 ? make_call(b, e->pos, e->negated ? ">" : "<=", "BETWEEN", a2, 2) : NULL;
        if (!c2) break;
        if (e->symmetric) {
            WExpr *a3[2] = {x, hi}, *a4[2] = {x, lo};
            WExpr *c3 = make_call(b, e->pos, e->negated ? "<" : ">=", "BETWEEN", a3, 2);
            WExpr *c4 = c3 ? make_call(b, e->pos, e->negated ? ">" : "<=", "BETWEEN", a4, 2) : NULL;
            if (!c4) break;
            WExprKind inner = e->negated ? WX_OR : WX_AND, outer = e->negated ? WX_AND : WX_OR;
            WExpr *p1 = wexpr_new(a, inner, c1->type, 2), *p2 = wexpr_new(a, inner, c3->type, 2);
            p1->args[0] = c1; p1->args[1] = c2;
            p2->args[0] = c3; p2->args[1] = c4;
            r = wexpr_new(a, outer, c1->type, 2);
            r->args[0] = p1; r->args[1] = p2;
        } else {
            r = wexpr_new(a, e->negated ? WX_OR : WX_AND,
                          wtype_with_nullable(a, &WTYPE_BOOLEAN, c1->type->nullable || c2->type->nullable), 2);
            r->args[0] = c1;
            r->args[1] = c2;
        }
        break;
    }
    case AE_LIKE: {
        r = bind_args_call(b, s, e, e->similar ? "SIMILAR" : "LIKE");
        if (r && e->negated) r = bind_not(b, r);
        break;
    }
    case AE_IS: r = bind_is(b, s, e); break;
    case AE_ROW: r = bind_args_call(b, s, e, "ROW"); break;
    case AE_ARRAY: r = bind_args_call(b, s, e, "ARRAY"); break;
    case AE_MAP: r = bind_args_call(b, s, e, "MAP"); break;
    case AE_ITEM: r = bind_args_call(b, s, e, "ITEM"); break;
    case AE_FIELD: {
        WExpr *x = bind_expr(b, s, e->args[0]);
        if (!x) break;
        if (x->type->id != WT_ROW) { r = fail_at(b, e->pos, WEXC_CALCITE, "Unknown field '%s'", e->str); break; }
        int f = -1;
        for (int i = 0; i < x->type->nfields; i++) if (strcmp(x->type->field_names[i], e->str) == 0) f = i;
        if (f < 0) { r = fail_at(b, e->pos, WEXC_CALCITE, "Unknown field '%s'", e->str); break; }
        WDatum fi = {.i = f};
        WExpr *args[2] = {x, wexpr_literal(a, &WTYPE_INT_NN, fi, false)};
        r = make_call(b, e->pos, "FIELD", "FIELD", args, 2);
        break;
    }
    case AE_SUBQUERY:
        for (int i = 0; i < b->nsubq_map && !r; i++)
            if (b->subq_map_ast[i] == e) r = b->subq_map_expr[i];
        if (!r) r = fail_at(b, e->pos, WEXC_TABLE, "%s", "Subqueries in expressions are not supported yet");
        break;
    case AE_EXISTS:
    case AE_QUANTIFIED:
        r = fail_at(b, e->pos, WEXC_TABLE, "%s", "Subqueries in expressions are not supported yet");
        break;
    case AE_TIMEUNIT:
        r = string_lit(b, unit_name(e->unit));
        break;
    default:
        r = fail_at(b, e->pos, WEXC_VALIDATION, "%s", "This expression is not supported in this position");
    }
    b->p->depth--;
    return r;
}
