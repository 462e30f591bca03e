/*
 * session_internal.h — what the statement files of the session share: building result tables and
 * the pattern matching of SHOW ... [NOT] LIKE / ILIKE. Internal to src/session/.
 */
#ifndef WEIR_SESSION_SESSION_INTERNAL_H
#define WEIR_SESSION_SESSION_INTERNAL_H

#include <stdbool.h>
#include "session.h"
#include "../catalog/catalog.h"
#include "../sql/ast.h"
#include "../common/strbuf.h"

/* Start a result table with these column names; rows are added with wres_row (a NULL cell prints
   as <NULL>). */
void wres_table(WStmtResult *r, int ncols, const char *const *names);
void wres_row(WStmtResult *r, const char *const *cells);
/* SQL LIKE of SHOW statements: % and _, '\' escapes the next character; ci = ILIKE. */
bool wres_like(const char *pattern, const char *s, bool ci);

/* Catalog, database and metadata statements (catalog_statements.c): CREATE / DROP / ALTER / USE /
   DESCRIBE CATALOG and DATABASE, SHOW CATALOGS / DATABASES / TABLES / VIEWS / COLUMNS / CURRENT /
   CREATE CATALOG, DESCRIBE of a table. Returns false with err set on failure. */
bool wsession_catalog_statement(WCatalog *c, const AstStmt *st, WStmtResult *res, WError *err);
/* Whether wsession_catalog_statement runs this statement. */
bool wsession_is_catalog_statement(const AstStmt *st);

/* ALTER TABLE ADD / MODIFY / DROP / RENAME of columns, primary key and watermark on permanent table
   t (alter_table.c): the changed table replaces t in its database. p is a planning context of the
   session (its arena is not used for the new table). */
struct WPlanCtx;
bool wsession_alter_table_schema(WCatalog *c, struct WPlanCtx *p, WTable *t, const AstStmt *st, WError *err);

/* Module and function statements (function_statements.c): LOAD / UNLOAD / USE MODULES, SHOW [FULL]
   MODULES, SHOW [USER] FUNCTIONS, DESCRIBE FUNCTION, DROP / CREATE FUNCTION. */
bool wsession_function_statement(WCatalog *c, const AstStmt *st, WStmtResult *res, WError *err);
bool wsession_is_function_statement(const AstStmt *st);

/* ADD JAR, REMOVE JAR and SHOW JARS (jar_statements.c): weir adds no jar; Flink's answers. */
bool wsession_jar_statement(const AstStmt *st, WStmtResult *res, WError *err);
bool wsession_is_jar_statement(const AstStmt *st);

/* SHOW CREATE VIEW's text of view t (view_expand.c): Flink's expanded query; refused with a message
   for a query using a construct the expansion does not cover. */
bool wsession_show_create_view(WCatalog *c, const WTable *t, WStrBuf *out, WError *err);

/* ALTER VIEW v RENAME TO w | AS query (alter_view.c). */
bool wsession_alter_view(WSession *s, const AstStmt *st, WError *err);

/* The session's catalog manager and a planning context over it (session.c). */
struct WCastCtx;
WCatalog *wsession_catalog(WSession *s);
bool wsession_plan_ctx(WSession *s, struct WPlanCtx *p, WArena *a, struct WCastCtx *cast, WError *err);

/* weir-file catalogs (file_catalog_sync.c): bind the stored tables and views of the catalogs opened
   since the last call; after a statement succeeded, write or delete the files of what it changed. */
bool wsession_load_file_catalogs(WSession *s, WError *err);
bool wsession_persist_statement(WSession *s, const AstStmt *st, WError *err);

#endif
