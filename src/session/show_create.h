/*
 * show_create.h — SHOW CREATE TABLE / CATALOG text (Flink's ShowCreateUtil).
 */
#ifndef WEIR_SESSION_SHOW_CREATE_H
#define WEIR_SESSION_SHOW_CREATE_H

#include "../catalog/catalog.h"
#include "../common/error.h"
#include "../common/strbuf.h"

/* Append the DDL of table t to out; false with Flink's error for a view. */
bool wshow_create_table(const WTable *t, WStrBuf *out, WError *err);

/* Append a view's CREATE VIEW statement with its query as written (named by its object name only;
   the weir-file catalog keeps views this way). */
void wshow_create_view_as_written(const WTable *t, WStrBuf *out);

/* Append the CREATE CATALOG statement of a catalog (Flink's ShowCreateUtil.buildShowCreateCatalogRow:
   comment, then the options sorted by key). */
void wshow_create_catalog(const WCatalogEntry *e, WStrBuf *out);

#endif
