/*
 * bind_ddl.c — data types as written to logical types, and CREATE TABLE / CREATE VIEW validated
 * into catalog entries with Flink's rules and messages. See plan.h.
 */
#include "bind_internal.h"

#include <stdlib.h>
#include <string.h>

const WType *wbind_type(WPlanCtx *p, const AstType *t)
{
    WArena *a = p->arena;
    bool nullable = !t->not_null;
    WType *r = NULL;
    switch (t->kind) {
    case AT_BOOLEAN: r = wtype_new(a, WT_BOOLEAN, nullable); break;
    case AT_TINYINT: r = wtype_new(a, WT_TINYINT, nullable); break;
    case AT_SMALLINT: r = wtype_new(a, WT_SMALLINT, nullable); break;
    case AT_INT: r = wtype_new(a, WT_INT, nullable); break;
    case AT_BIGINT: r = wtype_new(a, WT_BIGINT, nullable); break;
    case AT_FLOAT: r = wtype_new(a, WT_FLOAT, nullable); break;
    case AT_DOUBLE: r = wtype_new(a, WT_DOUBLE, nullable); break;
    case AT_DECIMAL: {
        int pr = t->has_precision ? t->precision : 10, sc = t->has_scale ? t->scale : 0;
        if (pr < 1 || pr > 38) {
            werr_set_at(p->err, t->pos.line, t->pos.col, WEXC_VALIDATION,
                        "Decimal precision must be between 1 and 38 (both inclusive).");
            return NULL;
        }
        if (sc < 0 || sc > pr) {
            werr_set_at(p->err, t->pos.line, t->pos.col, WEXC_VALIDATION,
                        "Decimal scale must be between 0 and the precision %d (both inclusive).", pr);
            return NULL;
        }
        return wtype_decimal(a, pr, sc, nullable);
    }
    case AT_CHAR: case AT_VARCHAR: case AT_BINARY: case AT_VARBINARY: {
        /* Flink's type system: VARCHAR / VARBINARY without a length are the maximum length
           (STRING / BYTES); CHAR / BINARY default to 1 */
        int len = t->has_precision ? t->precision
                : (t->kind == AT_VARCHAR || t->kind == AT_VARBINARY) ? WT_MAX_LENGTH : 1;
        if (len < 1) {
            werr_set_at(p->err, t->pos.line, t->pos.col, WEXC_VALIDATION,
                        "%s length must be between 1 and 2147483647 (both inclusive).",
                        t->kind == AT_CHAR ? "Character" : t->kind == AT_VARCHAR ? "Variable character"
                        : t->kind == AT_BINARY ? "Binary" : "Variable binary");
            return NULL;
        }
        WTypeId id = t->kind == AT_CHAR ? WT_CHAR : t->kind == AT_VARCHAR ? WT_VARCHAR
                   : t->kind == AT_BINARY ? WT_BINARY : WT_VARBINARY;
        r = wtype_new(a, id, nullable);
        r->precision = len;
        break;
    }
    case AT_STRING: r = wtype_new(a, WT_VARCHAR, nullable); r->precision = WT_MAX_LENGTH; break;
    case AT_BYTES: r = wtype_new(a, WT_VARBINARY, nullable); r->precision = WT_MAX_LENGTH; break;
    case AT_DATE: r = wtype_new(a, WT_DATE, nullable); break;
    case AT_TIME: case AT_TIMESTAMP: case AT_TIMESTAMP_LTZ: {
        int dflt = t->kind == AT_TIME ? 0 : 6;
        int pr = t->has_precision ? t->precision : dflt;
        if (pr < 0 || pr > 9) {
            werr_set_at(p->err, t->pos.line, t->pos.col, WEXC_VALIDATION,
                        "%s precision must be between 0 and 9 (both inclusive).",
                        t->kind == AT_TIME ? "Time" : "Timestamp");
            return NULL;
        }
        r = wtype_new(a, t->kind == AT_TIME ? WT_TIME : t->kind == AT_TIMESTAMP ? WT_TIMESTAMP : WT_TIMESTAMP_LTZ,
                      nullable);
        r->precision = pr;
        break;
    }
    case AT_INTERVAL: {
        int st = t->iv_start, en = t->iv_end ? t->iv_end : t->iv_start;
        bool ym = st == AU_YEAR || st == AU_MONTH;
        WIntervalQual q;
        if (ym) q = (st == AU_YEAR && en == AU_MONTH) ? WIQ_YEAR_TO_MONTH : st == AU_YEAR ? WIQ_YEAR : WIQ_MONTH;
        else if (st == AU_DAY) q = en == AU_HOUR ? WIQ_DAY_TO_HOUR : en == AU_MINUTE ? WIQ_DAY_TO_MINUTE
                                 : en == AU_SECOND ? WIQ_DAY_TO_SECOND : WIQ_DAY;
        else if (st == AU_HOUR) q = en == AU_MINUTE ? WIQ_HOUR_TO_MINUTE : en == AU_SECOND ? WIQ_HOUR_TO_SECOND : WIQ_HOUR;
        else if (st == AU_MINUTE) q = en == AU_SECOND ? WIQ_MINUTE_TO_SECOND : WIQ_MINUTE;
        else q = WIQ_SECOND;
        return wtype_interval(a, ym ? WT_INTERVAL_YM : WT_INTERVAL_DT, q,
                              t->iv_precision >= 0 ? t->iv_precision : 2, t->iv_frac >= 0 ? t->iv_frac : 6,
                              nullable);
    }
    case AT_ARRAY: case AT_MULTISET: {
        const WType *e = wbind_type(p, t->elem);
        if (!e) return NULL;
        r = wtype_new(a, t->kind == AT_ARRAY ? WT_ARRAY : WT_MULTISET, nullable);
        r->elem = e;
        break;
    }
    case AT_MAP: {
        const WType *k = wbind_type(p, t->key), *v = k ? wbind_type(p, t->elem) : NULL;
        if (!v) return NULL;
        return wtype_map(a, k, v, nullable);
    }
    case AT_ROW: {
        const WType **f = WA_ARRAY(a, const WType *, t->nfields ? t->nfields : 1);
        for (int i = 0; i < t->nfields; i++) if (!(f[i] = wbind_type(p, t->fields[i]))) return NULL;
        return wtype_row(a, t->nfields, (const char **)t->field_names, f, nullable);
    }
    case AT_NULL: return &WTYPE_NULL;
    }
    return r;
}

static int find_col(const WTable *t, int n, const char *name)
{
    for (int i = 0; i < n; i++) if (strcmp(t->cols[i].name, name) == 0) return i;
    return -1;
}

WTable *wbind_create_table(WPlanCtx *p, AstStmt *s, WArena *ta)
{
    if (s->like_table.n)
        { werr_set(p->err, WEXC_TABLE, "CREATE TABLE ... LIKE is not supported yet"); return NULL; }
    /* CREATE TABLE ... AS SELECT: the columns are the query's (names and types, time attributes
       dropped, nullability kept, as Flink's SqlCreateTableAsConverter derives them) */
    const WRel *q = NULL;
    if (s->query) {
        if (s->ncols || s->npk || s->wm_column) {
            werr_set(p->err, WEXC_TABLE, "CREATE TABLE AS SELECT with a column list, primary key or watermark "
                                         "is not supported yet in weir.");
            return NULL;
        }
        WArena *saved_arena = p->arena;
        p->arena = ta;
        q = wbind_query(p, s->query);
        p->arena = saved_arena;
        if (!q) return NULL;
    }
    WTable *t = WA_NEW(ta, WTable);
    t->arena = ta;
    t->name = wa_strdup(ta, s->target.parts[s->target.n - 1]);
    if (s->target.n >= 2) t->database = wa_strdup(ta, s->target.parts[s->target.n - 2]);
    if (s->target.n >= 3) t->catalog = wa_strdup(ta, s->target.parts[0]);
    t->temporary = s->temporary;
    t->ncols = s->ncols;
    t->cols = WA_ARRAY(ta, WColumn, s->ncols ? s->ncols : 1);
    t->wm_col = -1;
    t->comment = s->comment;
    wopts_init(&t->options);
    /* The plan arena must be the table arena here: types and bound expressions are kept. */
    WArena *saved = p->arena;
    p->arena = ta;
    BindCtx b = {.p = p};
    BScope scope;
    bscope_init(&scope);
    int pk_from_col = -1;
    for (int i = 0; i < s->ncols; i++) {
        AstColumnDef *cd = &s->cols[i];
        WColumn *c = &t->cols[i];
        c->name = cd->name;
        c->comment = cd->comment;
        if (find_col(t, i, cd->name) >= 0) {
            werr_set_at(p->err, cd->pos.line, cd->pos.col, WEXC_VALIDATION,
                        "A column named '%s' already exists in the table.", cd->name);
            goto fail;
        }
        if (cd->primary_key) {
            if (cd->pk_enforced) goto enforced;
            pk_from_col = i;
        }
        if (cd->computed) {
            c->kind = WCOL_COMPUTED;
            c->expr = cd->computed;
            WExpr *x = bind_expr(&b, &scope, cd->computed);
            if (!x) goto fail;
            c->type = x->type;
            c->expr_sql = wa_sprintf(ta, "AS %s", ast_expr_sql(ta, cd->computed));
        } else {
            c->type = wbind_type(p, cd->type);
            if (!c->type) goto fail;
            if (cd->metadata) {
                /* one column per metadata key (Flink's DefaultSchemaResolver) */
                const char *key = cd->metadata_key ? cd->metadata_key : c->name;
                for (int k = 0; k < i; k++) {
                    const WColumn *o = &t->cols[k];
                    if (o->kind != WCOL_METADATA || strcmp(o->metadata_key ? o->metadata_key : o->name, key) != 0) continue;
                    werr_set(p->err, WEXC_VALIDATION,
                             "The column `%s` and `%s` in the table are both from the same metadata key '%s'. Please "
                             "specify one of the columns as the metadata column and use the computed column syntax to "
                             "specify the others.", o->name, c->name, key);
                    goto fail;
                }
                c->kind = WCOL_METADATA;
                c->metadata_key = cd->metadata_key;
                c->is_virtual = cd->is_virtual;
                c->expr_sql = cd->metadata_key ? wa_sprintf(ta, "METADATA FROM '%s'%s", cd->metadata_key,
                                                            cd->is_virtual ? " VIRTUAL" : "")
                                               : wa_sprintf(ta, "METADATA%s", cd->is_virtual ? " VIRTUAL" : "");
            }
        }
        bscope_add(ta, &scope, NULL, c->name, c->type);
    }
    if (q) {
        t->ncols = q->out.n;
        t->cols = WA_ARRAY(ta, WColumn, t->ncols ? t->ncols : 1);
        for (int i = 0; i < t->ncols; i++) {
            t->cols[i].name = wa_strdup(ta, q->out.names[i]);
            t->cols[i].type = wtype_with_time_attr(ta, q->out.types[i], WTA_NONE);
            if (find_col(t, i, t->cols[i].name) >= 0) {
                werr_set(p->err, WEXC_VALIDATION, "A column named '%s' already exists in the table.", t->cols[i].name);
                goto fail;
            }
        }
    }
    /* primary key */
    if (s->npk || pk_from_col >= 0) {
        if (s->npk && pk_from_col >= 0) {
            werr_set(p->err, WEXC_VALIDATION, "Duplicate primary key definition");
            goto fail;
        }
        if (s->pk_enforced) goto enforced;
        int n = s->npk ? s->npk : 1;
        t->npk = n;
        t->pk = WA_ARRAY(ta, int, n);
        for (int k = 0; k < n; k++) {
            const char *cn = s->npk ? s->pk_cols[k] : t->cols[pk_from_col].name;
            int ci = find_col(t, t->ncols, cn);
            if (ci < 0) {
                werr_set(p->err, WEXC_VALIDATION,
                         "Invalid primary key 'PK_%s'. Column '%s' does not exist.", cn, cn);
                goto fail;
            }
            if (t->cols[ci].kind != WCOL_PHYSICAL) {
                werr_set(p->err, WEXC_VALIDATION,
                         "Invalid primary key 'PK_%s'. Column '%s' is not a physical column.", cn, cn);
                goto fail;
            }
            t->pk[k] = ci;
            t->cols[ci].type = wtype_with_nullable(ta, t->cols[ci].type, false);
        }
        WStrBuf nm;
        wsb_init(&nm);
        wsb_append(&nm, "PK");
        for (int k = 0; k < n; k++) wsb_printf(&nm, "_%s", t->cols[t->pk[k]].name);
        t->pk_name = wa_strdup(ta, nm.buf);
        wsb_free(&nm);
    }
    /* watermark */
    if (s->wm_column) {
        int ci = find_col(t, t->ncols, s->wm_column);
        if (ci < 0) {
            WStrBuf av;
            wsb_init(&av);
            wsb_putc(&av, '[');
            for (int i = 0; i < t->ncols; i++) wsb_printf(&av, "%s`%s`", i ? ", " : "", t->cols[i].name);
            wsb_putc(&av, ']');
            werr_set_at(p->err, s->wm_pos.line, s->wm_pos.col, WEXC_VALIDATION,
                        "Invalid column name '%s' for rowtime attribute in watermark declaration. "
                        "Available columns are: %s", s->wm_column, av.buf);
            wsb_free(&av);
            goto fail;
        }
        const WType *ct = t->cols[ci].type;
        if (!wtype_is_timestamp(ct) || ct->precision > 3) {
            werr_set_at(p->err, s->wm_pos.line, s->wm_pos.col, WEXC_VALIDATION,
                        "Invalid data type of time field for watermark definition. The field must be of type "
                        "TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the "
                        "time field type is %s", wtype_str(ta, ct));
            goto fail;
        }
        WExpr *wm = bind_expr(&b, &scope, s->wm_expr);
        if (!wm) goto fail;
        if (!wtype_is_timestamp(wm->type) || wm->type->precision > 3) {
            werr_set_at(p->err, s->wm_pos.line, s->wm_pos.col, WEXC_VALIDATION,
                        "Invalid data type of expression for watermark definition. The field must be of type "
                        "TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the "
                        "watermark expression type is %s", wtype_str(ta, wm->type));
            goto fail;
        }
        t->wm_col = ci;
        t->wm_expr = s->wm_expr;
        t->wm_sql = ast_expr_sql(ta, s->wm_expr);
        t->cols[ci].type = wtype_with_time_attr(ta, ct, WTA_ROWTIME);
    }
    /* PARTITIONED BY: the keys must be columns of the table (Flink's SqlCreateTableConverter) */
    if (s->npartitioned) {
        t->npartition = s->npartitioned;
        t->partition_keys = WA_ARRAY(ta, int, s->npartitioned);
        for (int k = 0; k < s->npartitioned; k++) {
            int ci = find_col(t, t->ncols, s->partitioned_by[k]);
            if (ci < 0) {
                WStrBuf av;
                wsb_init(&av);
                for (int i = 0; i < t->ncols; i++) wsb_printf(&av, "%s'%s'", i ? ", " : "", t->cols[i].name);
                werr_set(p->err, WEXC_VALIDATION,
                         "Partition column '%s' not defined in the table schema. Available columns: [%s]",
                         s->partitioned_by[k], av.buf);
                wsb_free(&av);
                goto fail;
            }
            t->partition_keys[k] = ci;
        }
    }
    for (int i = 0; i < s->noptions; i++) {
        if (wopts_get(&t->options, s->options[i].key)) {
            werr_set(p->err, WEXC_VALIDATION, "Duplicate option key '%s'", s->options[i].key);
            goto fail;
        }
        wopts_set(&t->options, s->options[i].key, s->options[i].value);
    }
    p->arena = saved;
    return t;
enforced:
    werr_set(p->err, WEXC_SQL_VALIDATE,
             "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT ENFORCED controls "
             "if the constraint checks are performed on the incoming/outgoing data. Flink does not own the data "
             "therefore the only supported mode is the NOT ENFORCED mode");
fail:
    wopts_free(&t->options);
    p->arena = saved;
    return NULL;
}

WTable *wbind_create_view(WPlanCtx *p, AstStmt *s, WArena *ta)
{
    /* validate the query now (Flink does) */
    WRel *r = wbind_query(p, s->query);
    if (!r) return NULL;
    if (s->nview_cols && s->nview_cols != r->out.n) {
        werr_set(p->err, WEXC_VALIDATION,
                 "VIEW definition and input fields not match:\n\tDef fields: %d.\n\tInput fields: %d.",
                 s->nview_cols, r->out.n);
        return NULL;
    }
    WTable *t = WA_NEW(ta, WTable);
    t->arena = ta;
    t->is_view = true;
    t->temporary = s->temporary;
    t->name = wa_strdup(ta, s->target.parts[s->target.n - 1]);
    if (s->target.n >= 2) t->database = wa_strdup(ta, s->target.parts[s->target.n - 2]);
    if (s->target.n >= 3) t->catalog = wa_strdup(ta, s->target.parts[0]);
    t->view_query = s->query;
    t->view_sql = s->query_sql ? wa_strdup(ta, s->query_sql) : NULL;
    t->comment = s->comment ? wa_strdup(ta, s->comment) : NULL;
    t->view_catalog = wa_strdup(ta, p->catalog->current_catalog);
    t->view_database = wa_strdup(ta, p->catalog->current_database);
    t->wm_col = -1;
    t->nview_cols = s->nview_cols;
    t->view_cols = s->view_cols;
    t->ncols = r->out.n;
    t->cols = WA_ARRAY(ta, WColumn, r->out.n ? r->out.n : 1);
    for (int i = 0; i < r->out.n; i++) {
        t->cols[i].name = wa_strdup(ta, s->nview_cols ? s->view_cols[i] : r->out.names[i]);
        t->cols[i].kind = WCOL_PHYSICAL;
        t->cols[i].type = r->out.types[i];   /* types live in the statement arena: copy below */
    }
    wopts_init(&t->options);
    return t;
}
