/*
 * alter_view.c — ALTER VIEW v RENAME TO w and ALTER VIEW v AS query on a permanent view, with Flink's
 * rules and messages: a temporary view or a table cannot be altered this way, a new name must be
 * free in the view's database (Flink renames within it, whatever catalog and database the new name
 * gives), and the new query is validated against the current catalog and database as CREATE VIEW's
 * (the view keeps its comment; its columns come from the new query). See session_internal.h.
 */
#include "session_internal.h"
#include "../sql/parser.h"
#include "../plan/plan.h"
#include "../common/arena.h"

#include <assert.h>
#include <string.h>

/* Flink renames within the view's database: only the new name's last part counts */
static bool rename_view(WCatalog *c, WTable *t, const WObjectId *id, const AstStmt *st, WError *err)
{
    const char *to = st->rename_to.parts[st->rename_to.n - 1];
    WObjectId to_id = {id->catalog, id->database, to};
    if (wcatalog_find_permanent(c, &to_id))
        return werr_set(err, WEXC_TABLE_EXISTS, "Table (or view) %s.%s already exists in Catalog %s.", id->database,
                        to, id->catalog);
    t->name = wa_strdup(t->arena, to);
    return true;
}

static bool replace_query(WSession *s, WTable *t, const AstStmt *st, WError *err)
{
    /* the new view owns its arena: the statement is parsed again there */
    WArena *ta = warena_new(0);
    AstStmt *again = wsql_parse_statement(ta, st->sql, err);
    WTable *nt = NULL;
    if (again) {
        assert(again->kind == AS_ALTER_VIEW && again->alter_kind == AAL_VIEW_QUERY);
        AstStmt *create = WA_NEW(ta, AstStmt);
        create->kind = AS_CREATE_VIEW;
        create->pos = again->pos;
        create->target.n = 3;
        create->target.parts = WA_ARRAY(ta, char *, 3);
        create->target.parts[0] = wa_strdup(ta, t->catalog);
        create->target.parts[1] = wa_strdup(ta, t->database);
        create->target.parts[2] = wa_strdup(ta, t->name);
        create->query = again->query;
        create->query_sql = again->query_sql;
        create->comment = t->comment ? wa_strdup(ta, t->comment) : NULL;
        WPlanCtx p;
        WCastCtx cast;
        if (wsession_plan_ctx(s, &p, ta, &cast, err)) nt = wbind_create_view(&p, create, ta);
    }
    if (!nt) {
        warena_delete(ta);
        return false;
    }
    return wcatalog_replace(wsession_catalog(s), t, nt, err);
}

bool wsession_alter_view(WSession *s, const AstStmt *st, WError *err)
{
    WCatalog *c = wsession_catalog(s);
    WObjectId id;
    if (!wcatalog_resolve(c, &st->target, &id, err)) return false;
    WTable *t = wcatalog_find_permanent(c, &id);
    if (!t)
        return werr_set(err, WEXC_VALIDATION, "View `%s`.`%s`.`%s` doesn't exist or is a temporary view.", id.catalog,
                        id.database, id.object);
    if (!t->is_view) return werr_set(err, WEXC_VALIDATION, "ALTER VIEW for a table is not allowed");
    return st->alter_kind == AAL_RENAME ? rename_view(c, t, &id, st, err) : replace_query(s, t, st, err);
}
