/*
 * show_create.c — SHOW CREATE TABLE: the DDL of a catalog table as Flink's ShowCreateUtil writes
 * it (identifiers in backticks, serializable types — VARCHAR(2147483647) for STRING, no time
 * attribute markers —, computed and metadata columns by their expression, the watermark, the
 * primary key constraint, comment, PARTITIONED BY, options sorted by key), in Flink 2.3's layout
 * (COMMENT, PARTITIONED BY and WITH each on a line of their own). May use catalog/,
 * types/ and common/ only.
 */
#include "show_create.h"
#include "../common/sort.h"

#include <assert.h>
#include "../common/arena.h"
#include "../common/strbuf.h"

#include <stdlib.h>
#include <string.h>

/* s between quote characters q, a q inside doubled (identifiers in backticks, strings in ''). */
static void quote_with(WStrBuf *o, const char *s, char q)
{
    wsb_putc(o, q);
    for (; *s; s++) {
        if (*s == q) wsb_putc(o, q);
        wsb_putc(o, *s);
    }
    wsb_putc(o, q);
}

static void ident(WStrBuf *o, const char *s) { quote_with(o, s, '`'); }
static void quoted(WStrBuf *o, const char *s) { quote_with(o, s, '\''); }

/* LogicalType#asSerializableString from the summary string: STRING and BYTES spelled out,
   TIMESTAMP_LTZ(p) as TIMESTAMP(p) WITH LOCAL TIME ZONE, time attribute markers dropped. */
static void serializable_type(WStrBuf *o, const WType *t)
{
    WStrBuf b;
    wsb_init(&b);
    wtype_to_string(t, &b);
    const char *s = b.buf ? b.buf : "";
    const char *start = s;
    while (*s) {
        bool word_start = s == start || s[-1] == ' ' || s[-1] == '<' || s[-1] == '(';
        if (word_start && !strncmp(s, "STRING", 6)) {
            wsb_append(o, "VARCHAR(2147483647)");
            s += 6;
        } else if (word_start && !strncmp(s, "BYTES", 5)) {
            wsb_append(o, "VARBINARY(2147483647)");
            s += 5;
        } else if (word_start && !strncmp(s, "TIMESTAMP_LTZ(", 14)) {
            const char *close = strchr(s, ')');
            if (!close) { wsb_putc(o, *s++); continue; }
            wsb_append(o, "TIMESTAMP");
            wsb_appendn(o, s + 13, (size_t)(close - (s + 13) + 1));
            wsb_append(o, " WITH LOCAL TIME ZONE");
            s = close + 1;
        } else if (!strncmp(s, " *ROWTIME*", 10)) {
            s += 10;
        } else if (!strncmp(s, " *PROCTIME*", 11)) {
            s += 11;
        } else {
            wsb_putc(o, *s++);
        }
    }
    wsb_free(&b);
}

void wshow_create_view_as_written(const WTable *t, WStrBuf *out)
{
    assert(t->is_view && t->view_sql);
    wsb_append(out, "CREATE VIEW ");
    ident(out, t->name);
    if (t->nview_cols) {
        wsb_append(out, " (");
        for (int i = 0; i < t->nview_cols; i++) {
            if (i) wsb_append(out, ", ");
            ident(out, t->view_cols[i]);
        }
        wsb_putc(out, ')');
    }
    if (t->comment) {
        wsb_append(out, " COMMENT ");
        quoted(out, t->comment);
    }
    wsb_append(out, " AS\n");
    wsb_append(out, t->view_sql);
}

bool wshow_create_table(const WTable *t, WStrBuf *out, WError *err)
{
    if (t->is_view)
        return werr_set(err, WEXC_TABLE,
                        "SHOW CREATE TABLE is only supported for tables, but `%s`.`%s`.`%s` is a view. Please use "
                        "SHOW CREATE VIEW instead.", t->catalog, t->database, t->name);
    wsb_append(out, t->temporary ? "CREATE TEMPORARY TABLE " : "CREATE TABLE ");
    ident(out, t->catalog);
    wsb_putc(out, '.');
    ident(out, t->database);
    wsb_putc(out, '.');
    ident(out, t->name);
    wsb_append(out, " (\n");
    for (int i = 0; i < t->ncols; i++) {
        const WColumn *c = &t->cols[i];
        if (i) wsb_append(out, ",\n");
        wsb_append(out, "  ");
        ident(out, c->name);
        wsb_putc(out, ' ');
        if (c->kind == WCOL_COMPUTED) {
            wsb_append(out, c->expr_sql ? c->expr_sql : "");
        } else {
            serializable_type(out, c->type);
            if (c->kind == WCOL_METADATA && c->expr_sql) {
                wsb_putc(out, ' ');
                wsb_append(out, c->expr_sql);
            }
        }
        if (c->comment && *c->comment) {
            wsb_append(out, " COMMENT ");
            quoted(out, c->comment);
        }
    }
    if (t->wm_col >= 0) {
        wsb_append(out, ",\n  WATERMARK FOR ");
        ident(out, t->cols[t->wm_col].name);
        wsb_append(out, " AS ");
        wsb_append(out, t->wm_sql ? t->wm_sql : "");
    }
    if (t->npk) {
        wsb_append(out, ",\n  CONSTRAINT ");
        ident(out, t->pk_name ? t->pk_name : "PK");
        wsb_append(out, " PRIMARY KEY (");
        for (int k = 0; k < t->npk; k++) {
            if (k) wsb_append(out, ", ");
            ident(out, t->cols[t->pk[k]].name);
        }
        wsb_append(out, ") NOT ENFORCED");
    }
    /* Flink 2.3: COMMENT, PARTITIONED BY and WITH each start a line after the closing
       parenthesis (1.17-1.19 wrote ") WITH (") */
    wsb_append(out, "\n)");
    if (t->comment && *t->comment) {
        wsb_append(out, "\nCOMMENT ");
        quoted(out, t->comment);
    }
    if (t->npartition) {
        wsb_append(out, "\nPARTITIONED BY (");
        for (int k = 0; k < t->npartition; k++) {
            if (k) wsb_append(out, ", ");
            ident(out, t->cols[t->partition_keys[k]].name);
        }
        wsb_putc(out, ')');
    }
    int n = t->options.n;
    if (n) {
        /* sorted by key (Flink's TreeSet) */
        int *ord = wmalloc(sizeof(int) * (size_t)n);
        for (int i = 0; i < n; i++) ord[i] = i;
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && strcmp(t->options.items[ord[j - 1]].key, t->options.items[ord[j]].key) > 0; j--) {
                int x = ord[j];
                ord[j] = ord[j - 1];
                ord[j - 1] = x;
            }
        wsb_append(out, "\nWITH (\n");
        for (int i = 0; i < n; i++) {
            if (i) wsb_append(out, ",\n");
            wsb_append(out, "  ");
            quoted(out, t->options.items[ord[i]].key);
            wsb_append(out, " = ");
            quoted(out, t->options.items[ord[i]].value);
        }
        wsb_append(out, "\n)");
        free(ord);
    }
    wsb_putc(out, '\n');
    return true;
}

static int cmp_option_key(const void *a, const void *b)
{
    return strcmp(((const WOption *)a)->key, ((const WOption *)b)->key);
}

void wshow_create_catalog(const WCatalogEntry *e, WStrBuf *out)
{
    wsb_append(out, "CREATE CATALOG ");
    ident(out, e->name);
    wsb_putc(out, '\n');
    if (e->comment) {
        wsb_append(out, "COMMENT ");
        quoted(out, e->comment);
        wsb_putc(out, '\n');
    }
    WOption *sorted = wcalloc((size_t)e->options.n + 1, sizeof(WOption));
    memcpy(sorted, e->options.items, sizeof(WOption) * (size_t)e->options.n);
    wqsort(sorted, (size_t)e->options.n, sizeof(WOption), cmp_option_key);
    wsb_append(out, "WITH (\n");
    for (int i = 0; i < e->options.n; i++) {
        wsb_append(out, "  ");
        quoted(out, sorted[i].key);
        wsb_append(out, " = ");
        quoted(out, sorted[i].value);
        wsb_append(out, i + 1 < e->options.n ? ",\n" : "\n");
    }
    wsb_append(out, ")\n");
    free(sorted);
}
