/*
 * alter_table.c — ALTER TABLE schema changes (ADD / MODIFY / DROP columns, primary key and
 * watermark; RENAME column) with Flink's validation messages. The table's definition is written as
 * its CREATE TABLE statement (SHOW CREATE TABLE), parsed, changed, and bound again, so the new
 * schema passes every check a CREATE TABLE does; the new table then replaces the old one in its
 * database. See session_internal.h.
 */
#include "session_internal.h"
#include "show_create.h"
#include "../sql/parser.h"
#include "../plan/plan.h"
#include "../common/strbuf.h"

#include <string.h>

#define ALTER_FAILED "Failed to execute ALTER TABLE statement.\n"

static int col_index(const AstStmt *s, const char *name)
{
    for (int i = 0; i < s->ncols; i++)
        if (strcmp(s->cols[i].name, name) == 0) return i;
    return -1;
}

/* whether an expression refers to column `name` */
static bool refers_to(const AstExpr *e, const char *name)
{
    if (!e) return false;
    if (e->kind == AE_COLUMN && e->name.n >= 1 && strcmp(e->name.parts[e->name.n - 1], name) == 0) return true;
    for (int i = 0; i < e->nargs; i++)
        if (refers_to(e->args[i], name)) return true;
    if (refers_to(e->case_operand, name) || refers_to(e->else_expr, name) || refers_to(e->filter, name)) return true;
    for (int i = 0; i < e->nwhen; i++)
        if (refers_to(e->when[i], name) || refers_to(e->then[i], name)) return true;
    return false;
}

static bool check_unreferenced(const AstStmt *base, const char *name, WError *err)
{
    for (int i = 0; i < base->ncols; i++)
        if (base->cols[i].computed && refers_to(base->cols[i].computed, name))
            return werr_set(err, WEXC_VALIDATION, ALTER_FAILED "The column `%s` is referenced by computed column `%s`.",
                            name, base->cols[i].name);
    return true;
}

static void pk_list(WStrBuf *b, const AstStmt *s)
{
    for (int i = 0; i < s->npk; i++) wsb_printf(b, "%s`%s`", i ? ", " : "", s->pk_cols[i]);
}

/* put column c (a copy) at its FIRST / AFTER position, or at `at` (-1: the end) */
static bool place_column(WArena *a, AstStmt *base, AstColumnDef c, int at, WError *err)
{
    if (c.first) at = 0;
    else if (c.after) {
        int k = col_index(base, c.after);
        if (k < 0)
            return werr_set(err, WEXC_VALIDATION, ALTER_FAILED "Referenced column `%s` by 'AFTER' does not exist in the table.",
                            c.after);
        at = k + 1;
    }
    if (at < 0 || at > base->ncols) at = base->ncols;
    AstColumnDef *cols = WA_ARRAY(a, AstColumnDef, base->ncols + 1);
    memcpy(cols, base->cols, sizeof(AstColumnDef) * (size_t)at);
    cols[at] = c;
    memcpy(cols + at + 1, base->cols + at, sizeof(AstColumnDef) * (size_t)(base->ncols - at));
    base->cols = cols;
    base->ncols++;
    return true;
}

static void remove_column(AstStmt *base, int k)
{
    memmove(&base->cols[k], &base->cols[k + 1], sizeof(AstColumnDef) * (size_t)(base->ncols - k - 1));
    base->ncols--;
}

static bool apply_add_modify(WArena *a, AstStmt *base, const AstStmt *st, const WTable *t, WError *err)
{
    bool add = st->alter_kind == AAL_ADD;
    for (int i = 0; i < st->ncols; i++) {
        AstColumnDef c = st->cols[i];
        int k = col_index(base, c.name);
        if (add && k >= 0)
            return werr_set(err, WEXC_VALIDATION, ALTER_FAILED "Column `%s` already exists in the table.", c.name);
        if (!add && k < 0)
            return werr_set(err, WEXC_VALIDATION, ALTER_FAILED "Column `%s` does not exist in the table.", c.name);
        if (c.primary_key) {
            /* a column-level PRIMARY KEY becomes the table's key */
            if (add && base->npk) {
                WStrBuf b;
                wsb_init(&b);
                pk_list(&b, base);
                werr_set(err, WEXC_VALIDATION, ALTER_FAILED "The current table has already defined the primary key "
                         "constraint [%s]. You might want to drop it before adding a new one.", b.buf);
                wsb_free(&b);
                return false;
            }
            base->npk = 1;
            base->pk_cols = WA_ARRAY(a, char *, 1);
            base->pk_cols[0] = c.name;
            base->pk_enforced = c.pk_enforced;
            c.primary_key = false;
        }
        if (!add) {
            bool moves = c.first || c.after;
            if (moves) remove_column(base, k);
            else { base->cols[k] = c; continue; }
            k = -1;
        }
        if (!place_column(a, base, c, k, err)) return false;
    }
    if (st->npk) {
        if (add && base->npk) {
            WStrBuf b;
            wsb_init(&b);
            pk_list(&b, base);
            werr_set(err, WEXC_VALIDATION, ALTER_FAILED "The current table has already defined the primary key constraint "
                     "[%s]. You might want to drop it before adding a new one.", b.buf);
            wsb_free(&b);
            return false;
        }
        if (!add && !base->npk)
            return werr_set(err, WEXC_VALIDATION, ALTER_FAILED "The current table does not define any primary key "
                            "constraint. You might want to add a new one.");
        base->npk = st->npk;
        base->pk_cols = st->pk_cols;
        base->pk_enforced = st->pk_enforced;
        base->pk_pos = st->pk_pos;
    }
    if (st->wm_column) {
        if (add && base->wm_column)
            return werr_set(err, WEXC_VALIDATION, ALTER_FAILED "The current table has already defined the watermark "
                            "strategy `%s` AS %s. You might want to drop it before adding a new one.", base->wm_column,
                            t->wm_sql ? t->wm_sql : "");
        if (!add && !base->wm_column)
            return werr_set(err, WEXC_VALIDATION, ALTER_FAILED "The current table does not define any watermark. "
                            "You might want to add a new one.");
        if (col_index(base, st->wm_column) < 0) {
            /* Flink's ALTER TABLE names the columns without backticks (its CREATE TABLE quotes them) */
            WStrBuf b;
            wsb_init(&b);
            for (int i = 0; i < base->ncols; i++) wsb_printf(&b, "%s%s", i ? ", " : "", base->cols[i].name);
            werr_set(err, WEXC_VALIDATION, "Invalid column name '%s' for rowtime attribute in watermark declaration. "
                     "Available columns are: [%s]", st->wm_column, b.buf ? b.buf : "");
            wsb_free(&b);
            return false;
        }
        base->wm_column = st->wm_column;
        base->wm_expr = st->wm_expr;
        base->wm_pos = st->wm_pos;
    }
    return true;
}

static bool apply_change(WArena *a, AstStmt *base, const AstStmt *st, const WTable *t, WError *err)
{
    switch (st->alter_kind) {
    case AAL_ADD:
    case AAL_MODIFY:
        return apply_add_modify(a, base, st, t, err);
    case AAL_DROP_COLUMNS:
        for (int i = 0; i < st->nview_cols; i++) {
            const char *name = st->view_cols[i];
            int k = col_index(base, name);
            if (k < 0)
                return werr_set(err, WEXC_VALIDATION, ALTER_FAILED "The column `%s` does not exist in the base table.", name);
            remove_column(base, k);
        }
        for (int i = 0; i < st->nview_cols; i++)
            if (!check_unreferenced(base, st->view_cols[i], err)) return false;
        return true;
    case AAL_DROP_PRIMARY_KEY:
        if (!base->npk) return werr_set(err, WEXC_VALIDATION, ALTER_FAILED "The current table does not define any primary key.");
        base->npk = 0;
        base->pk_cols = NULL;
        return true;
    case AAL_DROP_WATERMARK:
        if (!base->wm_column)
            return werr_set(err, WEXC_VALIDATION, ALTER_FAILED "The current table does not define any watermark strategy.");
        base->wm_column = NULL;
        base->wm_expr = NULL;
        return true;
    case AAL_RENAME_COLUMN: {
        int k = col_index(base, st->key);
        if (k < 0)
            return werr_set(err, WEXC_VALIDATION, ALTER_FAILED "The column `%s` does not exist in the base table.", st->key);
        if (!check_unreferenced(base, st->key, err)) return false;
        if (col_index(base, st->value) >= 0)
            return werr_set(err, WEXC_VALIDATION, ALTER_FAILED "The column `%s` already existed in table schema.", st->value);
        base->cols[k].name = st->value;
        for (int i = 0; i < base->npk; i++)
            if (strcmp(base->pk_cols[i], st->key) == 0) base->pk_cols[i] = st->value;
        if (base->wm_column && strcmp(base->wm_column, st->key) == 0) base->wm_column = st->value;
        for (int i = 0; i < base->npartitioned; i++)
            if (strcmp(base->partitioned_by[i], st->key) == 0) base->partitioned_by[i] = st->value;
        return true;
    }
    default:
        return werr_set(err, WEXC_TABLE, "This ALTER TABLE statement is not supported yet in weir.");
    }
}

bool wsession_alter_table_schema(WCatalog *c, WPlanCtx *p, WTable *t, const AstStmt *st, WError *err)
{
    /* everything the new table refers to lives in its own arena: the statement is parsed again there */
    WArena *ta = warena_new(0);
    WStrBuf ddl;
    wsb_init(&ddl);
    AstStmt *change = wsql_parse_statement(ta, st->sql, err);
    AstStmt *base = change && wshow_create_table(t, &ddl, err) ? wsql_parse_statement(ta, ddl.buf, err) : NULL;
    wsb_free(&ddl);
    WTable *nt = NULL;
    if (base && apply_change(ta, base, change, t, err)) {
        WArena *saved = p->arena;
        p->arena = ta;
        nt = wbind_create_table(p, base, ta);
        p->arena = saved;
    }
    if (!nt) {
        warena_delete(ta);
        return false;
    }
    return wcatalog_replace(c, t, nt, err);
}
