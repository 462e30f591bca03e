/*
 * function_statements.c — the session's module and function statements with Flink 2.3's result
 * tables and messages: LOAD / UNLOAD / USE MODULES and SHOW [FULL] MODULES over the catalog
 * manager's modules (catalog/modules.c); SHOW [USER] FUNCTIONS [FROM | IN db] [[NOT] LIKE | ILIKE],
 * DESCRIBE FUNCTION [EXTENDED] of a built-in function, DROP [TEMPORARY [SYSTEM]] FUNCTION, and the
 * refusal of CREATE FUNCTION (a Java class cannot run in weir, so there are no user-defined
 * functions and SHOW USER FUNCTIONS is always empty). Built-in functions are weir's function
 * library (expr/func_registry.c). See session_internal.h.
 */
#include "session_internal.h"
#include "../common/sort.h"
#include "../expr/functions.h"
#include "../common/strbuf.h"

#define WEXC_FUNCTION_MISSING "org.apache.flink.table.catalog.exceptions.FunctionNotExistException"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void ok(WStmtResult *res) { res->kind = WSR_OK; }

static bool like_filter(const AstStmt *st, const char *name)
{
    if (!st->like_pattern) return true;
    return wres_like(st->like_pattern, name, st->ilike) != st->not_like;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* ---- modules ---- */

static bool show_modules(const WModules *m, bool full, WStmtResult *res)
{
    static const char *const SHORT[] = {"module name"};
    static const char *const FULL[] = {"module name", "used"};
    wres_table(res, full ? 2 : 1, full ? FULL : SHORT);
    res->empty_as_empty_set = true;
    for (int i = 0; i < m->nused; i++) {
        const char *cells[2] = {m->used[i], "TRUE"};
        wres_row(res, cells);
    }
    for (int i = 0; full && i < m->nloaded; i++) {
        bool used = false;
        for (int j = 0; j < m->nused; j++) used |= strcmp(m->used[j], m->loaded[i]) == 0;
        if (used) continue;
        const char *cells[2] = {m->loaded[i], "FALSE"};
        wres_row(res, cells);
    }
    return true;
}

/* ---- functions ---- */

/* the core module's function a (one-part) name designates, or NULL */
static const WCoreFunction *builtin(const WCatalog *c, const AstName *name)
{
    if (name->n != 1 || !wmodules_core_used(&c->modules)) return NULL;
    return wcore_function(name->parts[0]);
}

static bool show_functions(const WCatalog *c, const AstStmt *st, WStmtResult *res, WError *err)
{
    static const char *const COL[] = {"function name"};
    /* FROM / IN names the database whose catalog functions are listed besides the system ones:
       weir has none, and Flink does not check that the database exists either */
    (void)err;
    wres_table(res, 1, COL);
    res->empty_as_empty_set = true;
    if (st->show == ASH_USER_FUNCTIONS || !wmodules_core_used(&c->modules)) return true;
    int total = 0;
    for (const WCoreFunction *f = wcore_functions(); f->name; f++) total++;
    const char **names = wcalloc((size_t)total + 1, sizeof(char *));
    int n = 0;
    for (const WCoreFunction *f = wcore_functions(); f->name; f++)
        if (like_filter(st, f->name)) names[n++] = f->name;
    wqsort(names, (size_t)n, sizeof(char *), cmp_str);
    for (int i = 0; i < n; i++) {
        const char *cell[1] = {names[i]};
        wres_row(res, cell);
    }
    free(names);
    return true;
}

static bool describe_function(const WCatalog *c, const AstStmt *st, WStmtResult *res, WError *err)
{
    const WCoreFunction *f = builtin(c, &st->target);
    if (!f) {
        WStrBuf n;
        wsb_init(&n);
        for (int i = 0; i < st->target.n; i++) wsb_printf(&n, "%s`%s`", i ? "." : "", st->target.parts[i]);
        werr_set(err, WEXC_VALIDATION, "Function with the identifier '%s' doesn't exist.", n.buf);
        wsb_free(&n);
        return false;
    }
    static const char *const COLS[] = {"info name", "info value"};
    wres_table(res, 2, COLS);
    const char *rows[][2] = {{"is system function", "true"}, {"is temporary", "false"}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) wres_row(res, rows[i]);
    if (!st->extended) return true;
    /* Flink's own description of the function (expr/core_module.c, measured on Flink 2.3.0) */
    const char *more[][2] = {
        {"kind", wcore_kind_name(f->kind)},
        {"requirements", "[]"},
        {"is deterministic", f->deterministic ? "true" : "false"},
        {"supports constant folding", "true"},
        {"signature", NULL},
    };
    /* each form of the signature starts with the function's name as the statement wrote it */
    WStrBuf sig;
    wsb_init(&sig);
    size_t len = strlen(f->name);
    for (const char *line = f->signature; *line;) {
        assert(strncmp(line, f->name, len) == 0);
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        wsb_printf(&sig, "%s%s%.*s", sig.len ? "\n" : "", st->target.parts[0], (int)(n - len), line + len);
        line += n + (nl ? 1 : 0);
    }
    more[4][1] = sig.buf ? sig.buf : "";
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) wres_row(res, more[i]);
    wsb_free(&sig);
    return true;
}

static bool drop_function(const WCatalog *c, const AstStmt *st, WStmtResult *res, WError *err)
{
    WStrBuf n;
    wsb_init(&n);
    for (int i = 0; i < st->target.n; i++) wsb_printf(&n, "%s%s", i ? "." : "", st->target.parts[i]);
    bool done = st->if_exists;
    if (!done) {
        if (st->system_function)
            werr_set(err, WEXC_VALIDATION,
                     "Could not drop temporary system function. A function named '%s' doesn't exist.", n.buf);
        else if (st->temporary) {
            WObjectId id;
            if (wcatalog_resolve(c, &st->target, &id, err))
                werr_set(err, WEXC_VALIDATION, "Temporary catalog function `%s`.`%s`.`%s` doesn't exist", id.catalog,
                         id.database, id.object);
        }
        else {
            WObjectId id;
            if (wcatalog_resolve(c, &st->target, &id, err))
                werr_set(err, WEXC_FUNCTION_MISSING, "Function %s.%s does not exist in Catalog %s.", id.database,
                         id.object, id.catalog);
        }
    }
    wsb_free(&n);
    if (done) ok(res);
    return done;
}

bool wsession_function_statement(WCatalog *c, const AstStmt *st, WStmtResult *res, WError *err)
{
    switch (st->kind) {
    case AS_LOAD_MODULE: {
        WOptions o;
        wopts_init(&o);
        for (int i = 0; i < st->noptions; i++) wopts_set(&o, st->options[i].key, st->options[i].value);
        bool done = wmodules_load(&c->modules, st->target.parts[0], &o, err);
        wopts_free(&o);
        if (done) ok(res);
        return done;
    }
    case AS_UNLOAD_MODULE:
        if (!wmodules_unload(&c->modules, st->target.parts[0], err)) return false;
        ok(res);
        return true;
    case AS_USE_MODULES:
        if (!wmodules_use(&c->modules, st->names, st->nnames, err)) return false;
        ok(res);
        return true;
    case AS_DROP_FUNCTION: return drop_function(c, st, res, err);
    case AS_DESCRIBE_FUNCTION: return describe_function(c, st, res, err);
    case AS_CREATE_FUNCTION:
        return werr_set(err, WEXC_VALIDATION,
                        "CREATE FUNCTION is not supported in weir: functions implemented by a Java, Scala or Python "
                        "class ('%s') cannot run in a native engine.", st->value ? st->value : "");
    case AS_SHOW:
        switch (st->show) {
        case ASH_MODULES: return show_modules(&c->modules, false, res);
        case ASH_FULL_MODULES: return show_modules(&c->modules, true, res);
        case ASH_FUNCTIONS:
        case ASH_USER_FUNCTIONS: return show_functions(c, st, res, err);
        default: break;
        }
        break;
    default:
        break;
    }
    return werr_set(err, WEXC_TABLE, "Not a module or function statement.");
}

bool wsession_is_function_statement(const AstStmt *st)
{
    switch (st->kind) {
    case AS_LOAD_MODULE: case AS_UNLOAD_MODULE: case AS_USE_MODULES: case AS_DROP_FUNCTION:
    case AS_DESCRIBE_FUNCTION: case AS_CREATE_FUNCTION:
        return true;
    case AS_SHOW:
        return st->show == ASH_MODULES || st->show == ASH_FULL_MODULES || st->show == ASH_FUNCTIONS
               || st->show == ASH_USER_FUNCTIONS;
    default:
        return false;
    }
}
