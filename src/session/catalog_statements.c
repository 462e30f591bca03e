/*
 * catalog_statements.c — the session's catalog, database and metadata statements, with Flink 2.3's
 * result tables and messages: CREATE / DROP / ALTER / USE / DESCRIBE CATALOG, SHOW CREATE CATALOG,
 * CREATE / DROP / ALTER / USE DATABASE, SHOW [CURRENT] CATALOGS / DATABASES, SHOW TABLES / VIEWS
 * [FROM | IN db] [[NOT] LIKE], SHOW COLUMNS and DESCRIBE of a table or view. The catalog manager
 * (catalog/) keeps the objects; this file maps statements onto it. See session_internal.h.
 */
#include "session_internal.h"
#include "../common/sort.h"
#include "show_create.h"
#include "../common/strbuf.h"
#include "../types/format.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- result tables ---- */

void wres_table(WStmtResult *r, int ncols, const char *const *names)
{
    r->kind = WSR_TABLE;
    r->ncols = ncols;
    r->col_names = wcalloc((size_t)ncols, sizeof(char *));
    for (int i = 0; i < ncols; i++) r->col_names[i] = wstrdup(names[i]);
}

void wres_row(WStmtResult *r, const char *const *cells)
{
    r->cells = wrealloc(r->cells, sizeof(char *) * (size_t)((r->nrows + 1) * r->ncols));
    for (int i = 0; i < r->ncols; i++) r->cells[r->nrows * r->ncols + i] = cells[i] ? wstrdup(cells[i]) : NULL;
    r->nrows++;
}

static bool same_char(char a, char b, bool ci)
{
    return ci ? tolower((unsigned char)a) == tolower((unsigned char)b) : a == b;
}

bool wres_like(const char *pat, const char *s, bool ci)
{
    for (;;) {
        if (!*pat) return !*s;
        if (*pat == '%') {
            while (*pat == '%') pat++;
            if (!*pat) return true;
            for (;; s++) {
                if (wres_like(pat, s, ci)) return true;
                if (!*s) return false;
            }
        }
        if (!*s) return false;
        if (*pat == '\\' && pat[1]) {
            if (!same_char(pat[1], *s, ci)) return false;
            pat += 2;
        } else {
            if (*pat != '_' && !same_char(*pat, *s, ci)) return false;
            pat++;
        }
        s++;
    }
}

static bool like_filter(const AstStmt *st, const char *name)
{
    if (!st->like_pattern) return true;
    return wres_like(st->like_pattern, name, st->ilike) != st->not_like;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A one-column result of names, sorted (duplicates removed), filtered by the statement's LIKE. */
static void name_list(WStmtResult *res, const char *col, const AstStmt *st, const char **names, int n)
{
    wqsort(names, (size_t)n, sizeof(char *), cmp_str);
    const char *c[1] = {col};
    wres_table(res, 1, c);
    res->empty_as_empty_set = true;
    for (int i = 0; i < n; i++) {
        if (i && strcmp(names[i], names[i - 1]) == 0) continue;
        if (!like_filter(st, names[i])) continue;
        const char *cell[1] = {names[i]};
        wres_row(res, cell);
    }
}

static void ok(WStmtResult *res) { res->kind = WSR_OK; }

/* ---- catalogs ---- */

static bool create_catalog(WCatalog *c, const AstStmt *st, WStmtResult *res, WError *err)
{
    const char *name = st->target.parts[st->target.n - 1];
    if (st->if_not_exists && wcatalog_find_catalog(c, name)) { ok(res); return true; }
    WOptions o;
    wopts_init(&o);
    for (int i = 0; i < st->noptions; i++) wopts_set(&o, st->options[i].key, st->options[i].value);
    /* the file store keeps options only: a catalog read back from it has no comment */
    bool done = wcatalog_create_catalog(c, name, c->store_dir ? NULL : st->comment, &o, true, err);
    wopts_free(&o);
    if (done) done = wcatalog_store_save(c, wcatalog_find_catalog(c, name), err);
    if (done) ok(res);
    return done;
}

static bool alter_descriptor(WCatalog *c, WCatalogEntry *e, const AstStmt *st, WError *err);

static bool alter_catalog(WCatalog *c, const AstStmt *st, WStmtResult *res, WError *err)
{
    const char *name = st->target.parts[0];
    WCatalogEntry *e = wcatalog_find_catalog(c, name);
    if (!e || !e->in_store) return werr_set(err, WEXC_CATALOG, "Catalog %s does not exist in the catalog store.", name);
    WOptions before;
    wopts_copy(&before, &e->options);
    bool done = alter_descriptor(c, e, st, err);
    if (!done && c->store_dir) {
        /* a file store's descriptor is read afresh for each statement: a failed change is not kept */
        wopts_free(&e->options);
        wopts_copy(&e->options, &before);
    }
    wopts_free(&before);
    if (!done) return false;
    if (!wcatalog_reinit_catalog(e, err)) return false;
    if (!wcatalog_store_save(c, e, err)) return false;
    ok(res);
    return true;
}

static bool alter_descriptor(WCatalog *c, WCatalogEntry *e, const AstStmt *st, WError *err)
{
    switch (st->alter_kind) {
    case AAL_SET_OPTIONS:
        /* Flink changes the in-memory store's descriptor in place before it creates the catalog
           again, so an option the catalog type refuses stays there although the statement fails */
        for (int i = 0; i < st->noptions; i++) wopts_set(&e->options, st->options[i].key, st->options[i].value);
        break;
    case AAL_RESET_OPTIONS:
        for (int i = 0; i < st->noptions; i++)
            if (strcmp(st->options[i].key, "type") == 0)
                return werr_set(err, WEXC_VALIDATION, "ALTER CATALOG RESET does not support changing 'type'");
        for (int i = 0; i < st->noptions; i++) wopts_remove(&e->options, st->options[i].key);
        break;
    case AAL_COMMENT:
        free(e->comment);
        e->comment = c->store_dir ? NULL : wstrdup(st->comment ? st->comment : "");
        break;
    default:
        return werr_set(err, WEXC_TABLE, "Unsupported ALTER CATALOG statement.");
    }
    return wcatalog_validate_options(&e->options, err);
}

static int cmp_option(const void *a, const void *b)
{
    return strcmp(((const WOption *)a)->key, ((const WOption *)b)->key);
}

static bool describe_catalog(WCatalog *c, const AstStmt *st, WStmtResult *res, WError *err)
{
    const char *name = st->target.parts[0];
    WCatalogEntry *e = wcatalog_find_catalog(c, name);
    if (!e || !e->in_store)
        return werr_set(err, WEXC_VALIDATION, "Cannot obtain metadata information from Catalog %s.", name);
    static const char *const COLS[] = {"info name", "info value"};
    wres_table(res, 2, COLS);
    const char *r1[2] = {"name", e->name};
    const char *r2[2] = {"type", wopts_get_or(&e->options, "type", "")};
    const char *r3[2] = {"comment", e->comment ? e->comment : ""};
    wres_row(res, r1);
    wres_row(res, r2);
    wres_row(res, r3);
    if (st->extended) {
        WOption *sorted = wcalloc((size_t)e->options.n + 1, sizeof(WOption));
        memcpy(sorted, e->options.items, sizeof(WOption) * (size_t)e->options.n);
        wqsort(sorted, (size_t)e->options.n, sizeof(WOption), cmp_option);
        WStrBuf k;
        wsb_init(&k);
        for (int i = 0; i < e->options.n; i++) {
            if (strcmp(sorted[i].key, "type") == 0) continue;
            wsb_clear(&k);
            wsb_printf(&k, "option:%s", sorted[i].key);
            const char *row[2] = {k.buf, sorted[i].value};
            wres_row(res, row);
        }
        wsb_free(&k);
        free(sorted);
    }
    return true;
}

static bool show_create_catalog(WCatalog *c, const AstStmt *st, WStmtResult *res, WError *err)
{
    const char *name = st->target.parts[st->target.n - 1];
    WCatalogEntry *e = wcatalog_find_catalog(c, name);
    if (!e || !e->in_store)
        return werr_set(err, WEXC_VALIDATION, "Cannot obtain metadata information from Catalog %s.", name);
    WStrBuf b;
    wsb_init(&b);
    wshow_create_catalog(e, &b);
    const char *col[1] = {"result"};
    wres_table(res, 1, col);
    const char *cell[1] = {b.buf};
    wres_row(res, cell);
    wsb_free(&b);
    return true;
}

/* ---- SHOW ---- */

static bool show_databases(WCatalog *c, const AstStmt *st, WStmtResult *res, WError *err)
{
    const char *cat = st->target.n ? st->target.parts[st->target.n - 1] : c->current_catalog;
    WCatalogEntry *e = wcatalog_find_catalog(c, cat);
    if (!e) return werr_set(err, WEXC_VALIDATION, "Catalog %s does not exist", cat);
    const char **names = wcalloc((size_t)e->ndb + 1, sizeof(char *));
    for (int i = 0; i < e->ndb; i++) names[i] = e->dbs[i]->name;
    name_list(res, "database name", st, names, e->ndb);
    free(names);
    return true;
}

static bool show_tables(WCatalog *c, const AstStmt *st, WStmtResult *res, WError *err)
{
    bool views = st->show == ASH_VIEWS;
    const char *cat = c->current_catalog, *db = c->current_database;
    if (st->target.n > 2) {
        WStrBuf b;
        wsb_init(&b);
        for (int i = 0; i < st->target.n; i++) wsb_printf(&b, "%s%s", i ? "." : "", st->target.parts[i]);
        werr_set(err, WEXC_VALIDATION,
                 "SHOW %s from/in identifier [ %s ] format error, it should be [catalog_name.]database_name.",
                 views ? "VIEWS" : "TABLES", b.buf);
        wsb_free(&b);
        return false;
    }
    if (st->target.n == 2) cat = st->target.parts[0];
    if (st->target.n >= 1) db = st->target.parts[st->target.n - 1];
    WCatalogEntry *e = wcatalog_find_catalog(c, cat);
    if (!e) return werr_set(err, WEXC_VALIDATION, "Catalog %s does not exist", cat);
    WDatabase *d = wcatalog_find_database(e, db);
    if (!d) return werr_set(err, WEXC_VALIDATION, "Database '%s'.'%s' doesn't exist.", cat, db);
    const char **names = wcalloc((size_t)(d->n + c->ntemp) + 1, sizeof(char *));
    int n = 0;
    for (int i = 0; i < d->n; i++)
        if (!views || d->tables[i]->is_view) names[n++] = d->tables[i]->name;
    for (int i = 0; i < c->ntemp; i++) {
        WTable *t = c->temps[i];
        if (strcmp(t->catalog, cat) == 0 && strcmp(t->database, db) == 0 && (!views || t->is_view)) names[n++] = t->name;
    }
    name_list(res, views ? "view name" : "table name", st, names, n);
    free(names);
    return true;
}

/* DESCRIBE t / SHOW COLUMNS FROM t [[NOT] LIKE p]: name, type, null, key, extras, watermark, and
   comment when a column has one. */
static bool describe_table(WCatalog *c, const AstStmt *st, WStmtResult *res, WError *err)
{
    WTable *t = wcatalog_lookup(c, &st->target);
    if (!t) {
        WArena *a = warena_new(0);
        werr_set(err, WEXC_VALIDATION, "Tables or views with the identifier '%s' doesn't exist.",
                 wcatalog_qualified(a, c, &st->target));
        warena_delete(a);
        return false;
    }
    bool comments = false;
    for (int i = 0; i < t->ncols; i++) comments |= t->cols[i].comment != NULL;
    static const char *const COLS[] = {"name", "type", "null", "key", "extras", "watermark", "comment"};
    wres_table(res, comments ? 7 : 6, COLS);
    if (st->kind == AS_SHOW) res->empty_as_empty_set = true;
    WStrBuf ty, key;
    wsb_init(&ty);
    wsb_init(&key);
    for (int i = 0; i < t->ncols; i++) {
        WColumn *col = &t->cols[i];
        if (st->kind == AS_SHOW && !like_filter(st, col->name)) continue;
        wsb_clear(&ty);
        wtype_to_string(wtype_with_nullable(t->arena, col->type, true), &ty);
        wsb_clear(&key);
        for (int k = 0; k < t->npk; k++) {
            if (t->pk[k] != i) continue;
            wsb_append(&key, "PRI(");
            for (int m = 0; m < t->npk; m++) wsb_printf(&key, "%s%s", m ? ", " : "", t->cols[t->pk[m]].name);
            wsb_putc(&key, ')');
        }
        /* `null` is a BOOLEAN column of the result: TRUE / FALSE, as Flink 2.x prints booleans */
        const char *cells[7] = {col->name, ty.buf, col->type->nullable ? "TRUE" : "FALSE", key.buf,
                                col->expr_sql ? col->expr_sql : "", i == t->wm_col ? t->wm_sql : "",
                                col->comment ? col->comment : ""};
        wres_row(res, cells);
    }
    wsb_free(&ty);
    wsb_free(&key);
    return true;
}

static bool show(WCatalog *c, const AstStmt *st, WStmtResult *res, WError *err)
{
    const char **names;
    switch (st->show) {
    case ASH_CATALOGS:
        names = wcalloc((size_t)c->ncat + 1, sizeof(char *));
        for (int i = 0; i < c->ncat; i++) names[i] = c->cats[i]->name;
        name_list(res, "catalog name", st, names, c->ncat);
        free(names);
        return true;
    case ASH_CURRENT_CATALOG:
    case ASH_CURRENT_DATABASE: {
        bool cat = st->show == ASH_CURRENT_CATALOG;
        const char *col[1] = {cat ? "current catalog name" : "current database name"};
        wres_table(res, 1, col);
        const char *cell[1] = {cat ? c->current_catalog : c->current_database};
        wres_row(res, cell);
        return true;
    }
    case ASH_DATABASES: return show_databases(c, st, res, err);
    case ASH_TABLES:
    case ASH_VIEWS: return show_tables(c, st, res, err);
    case ASH_COLUMNS: return describe_table(c, st, res, err);
    case ASH_CREATE_CATALOG: return show_create_catalog(c, st, res, err);
    default: return werr_set(err, WEXC_TABLE, "This SHOW statement is not supported yet.");
    }
}

bool wsession_is_catalog_statement(const AstStmt *st)
{
    switch (st->kind) {
    case AS_CREATE_CATALOG: case AS_DROP_CATALOG: case AS_ALTER_CATALOG: case AS_DESCRIBE_CATALOG:
    case AS_CREATE_DATABASE: case AS_DROP_DATABASE: case AS_ALTER_DATABASE: case AS_USE: case AS_DESCRIBE:
        return true;
    case AS_SHOW:
        switch (st->show) {
        case ASH_CATALOGS: case ASH_CURRENT_CATALOG: case ASH_CURRENT_DATABASE: case ASH_DATABASES:
        case ASH_TABLES: case ASH_VIEWS: case ASH_COLUMNS: case ASH_CREATE_CATALOG:
            return true;
        default:
            return false;
        }
    default:
        return false;
    }
}

bool wsession_catalog_statement(WCatalog *c, const AstStmt *st, WStmtResult *res, WError *err)
{
    bool done;
    switch (st->kind) {
    case AS_CREATE_CATALOG: return create_catalog(c, st, res, err);
    case AS_DROP_CATALOG:
        done = wcatalog_drop_catalog(c, st->target.parts[0], st->if_exists, err);
        break;
    case AS_ALTER_CATALOG: return alter_catalog(c, st, res, err);
    case AS_DESCRIBE_CATALOG: return describe_catalog(c, st, res, err);
    case AS_USE:
        done = st->use_catalog ? wcatalog_use_catalog(c, st->target.parts[st->target.n - 1], err)
                               : wcatalog_use_database(c, &st->target, err);
        break;
    case AS_CREATE_DATABASE: {
        WOptions o;
        wopts_init(&o);
        for (int i = 0; i < st->noptions; i++) wopts_set(&o, st->options[i].key, st->options[i].value);
        done = wcatalog_create_database(c, &st->target, st->comment, &o, st->if_not_exists, err);
        wopts_free(&o);
        break;
    }
    case AS_DROP_DATABASE:
        done = wcatalog_drop_database(c, &st->target, st->if_exists, st->cascade, err);
        break;
    case AS_ALTER_DATABASE: {
        WDatabase *d = wcatalog_database_or_error(c, &st->target, err);
        if (!d) return false;
        for (int i = 0; i < st->noptions; i++) wopts_set(&d->properties, st->options[i].key, st->options[i].value);
        done = true;
        break;
    }
    case AS_DESCRIBE: return describe_table(c, st, res, err);
    case AS_SHOW: return show(c, st, res, err);
    default: return werr_set(err, WEXC_TABLE, "Not a catalog statement.");
    }
    if (done) ok(res);
    return done;
}
