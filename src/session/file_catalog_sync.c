/*
 * file_catalog_sync.c — the session's side of weir-file catalogs (catalog/file_catalog.c): binding
 * the stored tables and views when such a catalog is opened (CREATE CATALOG, the catalog store at
 * session start, ALTER CATALOG), and writing or deleting the files of the objects and databases a
 * statement changed once it succeeded. Objects are synced by identifier: present in the catalog
 * means its file is (re)written, absent means its file is deleted, so a statement only touches
 * what it named and concurrent sessions do not undo each other's other objects.
 * See session_internal.h.
 */
#include "session_internal.h"
#include "show_create.h"
#include "../sql/parser.h"
#include "../plan/plan.h"
#include "../common/arena.h"
#include "../common/strbuf.h"

#include <stdlib.h>
#include <string.h>

/* ---- loading ---- */

typedef struct LoadCtx {
    WSession *s;
    const WCatalogEntry *e;
    bool views;             /* this pass binds views (tables come first) */
    int loaded, pending;    /* views bound in this pass / views waiting for another object */
    bool unbound;           /* the last pass: views that do not bind are kept unbound */
} LoadCtx;

/* A view whose query does not bind (it reads an object that was dropped): kept without columns, its
   query is bound (and fails with the binder's message) when it is used. */
static WTable *unbound_view(AstStmt *st, const WFileCatObject *o, WArena *a)
{
    WTable *t = WA_NEW(a, WTable);
    t->arena = a;
    t->is_view = true;
    t->catalog = st->target.parts[0];
    t->database = st->target.parts[1];
    t->name = st->target.parts[2];
    t->view_query = st->query;
    t->view_sql = st->query_sql;
    t->view_catalog = wa_strdup(a, o->view_catalog);
    t->view_database = wa_strdup(a, o->view_database ? o->view_database : o->database);
    t->nview_cols = st->nview_cols;
    t->view_cols = st->view_cols;
    t->comment = st->comment;
    t->wm_col = -1;
    wopts_init(&t->options);
    return t;
}

static bool load_object(void *vctx, const WFileCatObject *o, WError *err)
{
    LoadCtx *x = vctx;
    WCatalog *c = wsession_catalog(x->s);
    WObjectId id = {x->e->name, o->database, o->name};
    if (wcatalog_find_permanent(c, &id)) return true;          /* bound in an earlier pass */
    bool is_view = o->view_catalog != NULL;
    if (is_view != x->views) return true;
    WArena *a = warena_new(0);
    AstStmt *st = wsql_parse_statement(a, o->ddl, err);
    bool ok = st && (st->kind == AS_CREATE_TABLE || st->kind == AS_CREATE_VIEW) && !st->temporary
              && (st->kind == AS_CREATE_VIEW) == is_view;
    if (st && !ok)
        werr_set(err, WEXC_CATALOG, "Catalog %s: %s does not hold a CREATE %s statement.", x->e->name, o->file,
                 is_view ? "VIEW" : "TABLE");
    if (!ok) {
        warena_delete(a);
        return false;
    }
    /* the object is where its file is, whatever name the statement gives */
    st->target.n = 3;
    st->target.parts = WA_ARRAY(a, char *, 3);
    st->target.parts[0] = wa_strdup(a, x->e->name);
    st->target.parts[1] = wa_strdup(a, o->database);
    st->target.parts[2] = wa_strdup(a, o->name);
    /* a view's query resolves against the catalog and database current when it was created */
    char *saved_cat = c->current_catalog, *saved_db = c->current_database;
    if (is_view) {
        c->current_catalog = o->view_catalog;
        c->current_database = o->view_database ? o->view_database : saved_db;
    }
    WError bind_err;
    werr_clear(&bind_err);
    WPlanCtx p;
    WCastCtx cast;
    WTable *t = NULL;
    if (wsession_plan_ctx(x->s, &p, a, &cast, &bind_err))
        t = is_view ? wbind_create_view(&p, st, a) : wbind_create_table(&p, st, a);
    c->current_catalog = saved_cat;
    c->current_database = saved_db;
    if (!t && is_view && x->unbound) t = unbound_view(st, o, a);
    if (t && wcatalog_add(c, t, &bind_err)) {
        x->loaded++;
        return true;
    }
    if (t) wopts_free(&t->options);
    warena_delete(a);
    if (is_view) {
        /* it may read a view not bound yet: another pass */
        x->pending++;
        return true;
    }
    return werr_set(err, WEXC_CATALOG, "Catalog %s: the table in %s could not be created: %s", x->e->name, o->file,
                    bind_err.msg);
}

bool wsession_load_file_catalogs(WSession *s, WError *err)
{
    WCatalog *c = wsession_catalog(s);
    for (int i = 0; i < c->ncat; i++) {
        WCatalogEntry *e = c->cats[i];
        if (!e->objects_to_load) continue;
        e->objects_to_load = false;
        LoadCtx x = {.s = s, .e = e};
        if (!wfilecat_objects(e, load_object, &x, err)) return false;
        x.views = true;
        do {
            x.loaded = x.pending = 0;
            if (!wfilecat_objects(e, load_object, &x, err)) return false;
        } while (x.pending && x.loaded);
        /* what is left reads an object that is gone (Flink keeps such a view too: it fails when queried) */
        x.unbound = true;
        if (x.pending && !wfilecat_objects(e, load_object, &x, err)) return false;
    }
    return true;
}

/* ---- writing ---- */

static WCatalogEntry *file_catalog(WCatalog *c, const char *name)
{
    WCatalogEntry *e = name ? wcatalog_find_catalog(c, name) : NULL;
    return e && wcatalog_is_file_catalog(e) ? e : NULL;
}

static bool sync_object(WCatalog *c, const WObjectId *id, WError *err)
{
    WCatalogEntry *e = file_catalog(c, id->catalog);
    if (!e) return true;
    WTable *t = wcatalog_find_permanent(c, id);
    if (!t) return wfilecat_remove_object(e, id->database, id->object, err);
    WStrBuf ddl;
    wsb_init(&ddl);
    bool ok = true;
    if (t->is_view) wshow_create_view_as_written(t, &ddl);
    else ok = wshow_create_table(t, &ddl, err);
    if (ok) ok = wfilecat_save_object(e, t, ddl.buf, err);
    wsb_free(&ddl);
    return ok;
}

static bool sync_name(WCatalog *c, const AstName *name, WError *err)
{
    WObjectId id;
    WError ignored;
    werr_clear(&ignored);
    return !wcatalog_resolve(c, name, &id, &ignored) || sync_object(c, &id, err);
}

static bool sync_database(WCatalog *c, const AstName *name, WError *err)
{
    const char *cat = name->n >= 2 ? name->parts[0] : c->current_catalog;
    const char *db = name->parts[name->n - 1];
    WCatalogEntry *e = file_catalog(c, cat);
    if (!e) return true;
    WDatabase *d = wcatalog_find_database(e, db);
    return d ? wfilecat_save_database(e, d, err) : wfilecat_remove_database(e, db, err);
}

bool wsession_persist_statement(WSession *s, const AstStmt *st, WError *err)
{
    WCatalog *c = wsession_catalog(s);
    switch (st->kind) {
    case AS_CREATE_TABLE:
    case AS_CREATE_VIEW:
    case AS_DROP_TABLE:
    case AS_DROP_VIEW:
        return st->temporary || sync_name(c, &st->target, err);
    case AS_ALTER_TABLE:
    case AS_ALTER_VIEW:
    {
        if (!sync_name(c, &st->target, err)) return false;
        if (st->alter_kind != AAL_RENAME) return true;
        /* a table or view is renamed within its database (the new name's last part counts) */
        WObjectId id;
        WError ignored;
        werr_clear(&ignored);
        if (!wcatalog_resolve(c, &st->target, &id, &ignored)) return true;
        id.object = st->rename_to.parts[st->rename_to.n - 1];
        return sync_object(c, &id, err);
    }
    case AS_CREATE_DATABASE:
    case AS_DROP_DATABASE:
    case AS_ALTER_DATABASE:
        return sync_database(c, &st->target, err);
    case AS_CREATE_CATALOG:
    case AS_ALTER_CATALOG:
        return wsession_load_file_catalogs(s, err);
    default:
        return true;
    }
}
