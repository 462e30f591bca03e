/* catalog.c — tables and views of a session; see catalog.h for the contract. */
#include "catalog.h"

#include <stdlib.h>
#include <string.h>

void wcatalog_init(WCatalog *c)
{
    memset(c, 0, sizeof *c);
    c->current_catalog = wstrdup("default_catalog");
    c->current_database = wstrdup("default_database");
}

void wtable_free(WTable *t)
{
    if (!t) return;
    wopts_free(&t->options);
    warena_delete(t->arena);
}

void wcatalog_free(WCatalog *c)
{
    for (int i = 0; i < c->n; i++) wtable_free(c->tables[i]);
    free(c->tables);
    free(c->current_catalog);
    free(c->current_database);
    memset(c, 0, sizeof *c);
}

/* Resolve a name to (catalog, database, object); false when it has too many parts. */
static bool split_name(const WCatalog *c, const AstName *name, const char **cat, const char **db,
                       const char **obj)
{
    *cat = c->current_catalog;
    *db = c->current_database;
    if (name->n == 1) { *obj = name->parts[0]; return true; }
    if (name->n == 2) { *db = name->parts[0]; *obj = name->parts[1]; return true; }
    if (name->n == 3) { *cat = name->parts[0]; *db = name->parts[1]; *obj = name->parts[2]; return true; }
    return false;
}

WTable *wcatalog_lookup(WCatalog *c, const AstName *name)
{
    const char *cat, *db, *obj;
    if (!split_name(c, name, &cat, &db, &obj)) return NULL;
    for (int i = 0; i < c->n; i++) {
        WTable *t = c->tables[i];
        if (strcmp(t->name, obj) == 0 && strcmp(t->catalog, cat) == 0 && strcmp(t->database, db) == 0)
            return t;
    }
    return NULL;
}

WTable *wcatalog_lookup_simple(WCatalog *c, const char *name)
{
    char *parts[1] = {(char *)name};
    AstName n = {.n = 1, .parts = parts};
    return wcatalog_lookup(c, &n);
}

char *wcatalog_qualified(WArena *a, const WCatalog *c, const AstName *name)
{
    const char *cat, *db, *obj;
    if (!split_name(c, name, &cat, &db, &obj)) {
        /* too many parts: join them as written */
        char *s = wa_strdup(a, name->parts[0]);
        for (int i = 1; i < name->n; i++) s = wa_sprintf(a, "%s.%s", s, name->parts[i]);
        return s;
    }
    return wa_sprintf(a, "%s.%s.%s", cat, db, obj);
}

bool wcatalog_add(WCatalog *c, WTable *t, WError *err)
{
    if (!t->catalog) t->catalog = wa_strdup(t->arena, c->current_catalog);
    if (!t->database) t->database = wa_strdup(t->arena, c->current_database);
    for (int i = 0; i < c->n; i++) {
        WTable *o = c->tables[i];
        if (strcmp(o->name, t->name) == 0 && strcmp(o->catalog, t->catalog) == 0 &&
            strcmp(o->database, t->database) == 0) {
            if (t->is_view)
                return werr_set(err, WEXC_VALIDATION,
                                "Could not execute CreateTable in path `%s`.`%s`.`%s`", t->catalog,
                                t->database, t->name);
            return werr_set(err, WEXC_VALIDATION,
                            "Could not execute CreateTable in path `%s`.`%s`.`%s`", t->catalog,
                            t->database, t->name);
        }
    }
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 8;
        c->tables = wrealloc(c->tables, sizeof(WTable *) * (size_t)c->cap);
    }
    c->tables[c->n++] = t;
    return true;
}

bool wcatalog_drop(WCatalog *c, const AstName *name, bool want_view, bool if_exists, WError *err)
{
    const char *cat, *db, *obj = NULL;
    if (!split_name(c, name, &cat, &db, &obj))
        return if_exists ? true : werr_set(err, WEXC_VALIDATION, "Invalid identifier: too many parts");
    for (int i = 0; i < c->n; i++) {
        WTable *t = c->tables[i];
        if (strcmp(t->name, obj) == 0 && strcmp(t->catalog, cat) == 0 && strcmp(t->database, db) == 0) {
            if (t->is_view != want_view) {
                if (want_view)
                    return werr_set(err, WEXC_VALIDATION,
                                    "View with identifier '%s.%s.%s' does not exist.", cat, db, obj);
                return werr_set(err, WEXC_VALIDATION,
                                "Table with identifier '%s.%s.%s' does not exist.", cat, db, obj);
            }
            wtable_free(t);
            memmove(&c->tables[i], &c->tables[i + 1], sizeof(WTable *) * (size_t)(c->n - i - 1));
            c->n--;
            return true;
        }
    }
    if (if_exists) return true;
    return werr_set(err, WEXC_VALIDATION, "%s with identifier '%s.%s.%s' does not exist.",
                    want_view ? "View" : "Table", cat, db, obj);
}

int wtable_physical(const WTable *t, int *idx)
{
    int n = 0;
    for (int i = 0; i < t->ncols; i++)
        if (t->cols[i].kind == WCOL_PHYSICAL) idx[n++] = i;
    return n;
}
