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

#endif
