/*
 * test_complete.c — sql/complete.c, statement completion as Flink 2.3.0's SQL gateway answers it,
 * over a fixed catalog view (default_catalog.default_database.orders(id, amount), customers(cid,
 * cname); default_catalog.db2.items(sku, qty); catalog c2). The expected lists are Flink's answers
 * recorded in tests/gateway/flink-recorded/complete_statement.json (tests/gateway/
 * complete_statement.sh compares all of them through the gateway); the ones here are the short ones.
 */
#include "unit.h"

#include "../../src/sql/complete.h"

static int fake_names(void *ctx, WArena *a, const char *const *path, int npath, char ***out)
{
    (void)ctx;
    static char *CATS[] = {"default_catalog", "c2"};
    static char *DBS[] = {"default_database", "db2"};
    static char *C2DBS[] = {"default"};
    static char *TABLES[] = {"orders", "customers"};
    static char *ITEMS[] = {"items"};
    (void)a;
    if (npath == 0) { *out = CATS; return 2; }
    bool dc = strcmp(path[0], "default_catalog") == 0;
    if (!dc && strcmp(path[0], "c2") != 0) return -1;
    if (npath == 1) { *out = dc ? DBS : C2DBS; return dc ? 2 : 1; }
    if (dc && strcmp(path[1], "default_database") == 0) { *out = TABLES; return 2; }
    if (dc && strcmp(path[1], "db2") == 0) { *out = ITEMS; return 1; }
    if (!dc && strcmp(path[1], "default") == 0) { *out = NULL; return 0; }
    return -1;
}

static int fake_columns(void *ctx, WArena *a, const char *const *name, int n, char ***out)
{
    (void)ctx;
    (void)a;
    static char *ORDERS[] = {"id", "amount"};
    static char *CUSTOMERS[] = {"cid", "cname"};
    static char *ITEMS[] = {"sku", "qty"};
    const char *last = name[n - 1];
    if (strcmp(last, "orders") == 0 && n == 1) { *out = ORDERS; return 2; }
    if (strcmp(last, "customers") == 0 && n == 1) { *out = CUSTOMERS; return 2; }
    if (strcmp(last, "items") == 0 && n == 2 && strcmp(name[0], "db2") == 0) { *out = ITEMS; return 2; }
    return -1;
}

static const WSqlCatalogView CV = {NULL, "default_catalog", "default_database", fake_names, fake_columns};

/* the candidates joined by '|', or "ERROR: <class>" */
static const char *complete(const char *sql, int pos)
{
    static char buf[8192];
    WArena a;
    warena_init(&a, 0);
    WError e;
    werr_clear(&e);
    char **c = NULL;
    int n = wsql_complete(&a, sql, pos == -1 ? (int)strlen(sql) : pos, &CV, &c, &e);
    buf[0] = 0;
    if (n < 0) snprintf(buf, sizeof buf, "ERROR: %s", e.cls);
    for (int i = 0; i < n; i++) {
        strncat(buf, c[i], sizeof buf - strlen(buf) - 2);
        if (i + 1 < n) strcat(buf, "|");
    }
    warena_free(&a);
    return buf;
}

WTEST(complete_client_commands_and_partial_words)
{
    CHECK_STR(complete("", -1), "CLEAR|HELP|EXIT|QUIT|RESET|SET");
    CHECK_STR(complete("SE", -1), "SET");
    CHECK_STR(complete("he", -1), "HELP");
    CHECK_STR(complete("SEL", -1), "");           /* Calcite: non-query expression, no hints */
    CHECK_STR(complete("select", -1), "");
    CHECK_STR(complete("SELECT * FR", -1), "FROM");
    CHECK_STR(complete("SELECT * FROM orders wh", -1), "WHERE");
    CHECK_STR(complete("SELECT CA", -1), "CARDINALITY|CASE|CAST");
    CHECK_STR(complete("SELECT * FROM t GROUP ", -1), "BY");
    CHECK_STR(complete("show t", -1), "TABLES");
}

WTEST(complete_tables_catalogs_databases)
{
    CHECK_STR(complete("SELECT * FROM ", -1),
              "(|LATERAL|TABLE|UNNEST|default_catalog.default_database.customers|"
              "default_catalog.default_database.orders|c2|default_catalog|default_catalog.db2|"
              "default_catalog.default_database");
    CHECK_STR(complete("SELECT * FROM ord", -1), "default_catalog.default_database.orders");
    CHECK_STR(complete("select * from ord", -1), "default_catalog.default_database.orders");
    CHECK_STR(complete("SELECT * FROM Ord", -1), "");       /* mixed case: case-sensitive */
    CHECK_STR(complete("SELECT * FROM `ord", -1), "default_catalog.default_database.orders");
    CHECK_STR(complete("SELECT * FROM db2.", -1), "default_catalog.db2.items|default_catalog.db2");
    CHECK_STR(complete("SELECT * FROM default_catalog.", -1),
              "default_catalog|default_catalog.db2|default_catalog.default_database");
    CHECK_STR(complete("INSERT INTO orders SELECT * FROM ", -1), "(|LATERAL|TABLE|UNNEST");
}

WTEST(complete_columns_and_aliases_in_scope)
{
    CHECK_STR(complete("SELECT * FROM orders WHERE am", -1), "amount");
    CHECK_STR(complete("SELECT * FROM orders ORDER BY am", -1), "amount");
    CHECK_STR(complete("SELECT a FROM orders", 8), "ABS|ALL|ARRAY|ARRAY_CONCAT_AGG|AVG|amount");
    CHECK_STR(complete("SELECT orders. FROM orders", 14), "*|amount|id");
    CHECK_STR(complete("SELECT * FROM orders o JOIN customers c ON o.", -1), "amount|id");
    CHECK_STR(complete("SELECT am", -1), "");               /* no FROM: nothing in scope */
    const char *w = complete("SELECT * FROM orders, customers WHERE ", -1);
    CHECK(strstr(w, "|YEAR|customers|orders") != NULL);     /* two items: their names, no columns */
    w = complete("SELECT * FROM orders WHERE ", -1);
    CHECK(strstr(w, "|YEAR|amount|id|orders") != NULL);
    /* a sub-query in an expression sees the enclosing scope's names; HAVING gets none */
    w = complete("SELECT * FROM orders WHERE id IN (SELECT cid FROM customers WHERE ", -1);
    CHECK(strstr(w, "|YEAR|cid|cname|customers|orders") != NULL);
    w = complete("SELECT * FROM (SELECT id FROM orders) t WHERE ", -1);
    CHECK(strstr(w, "|YEAR|ID|t") != NULL);                 /* Calcite's simple parser upper-cases `id` */
    w = complete("SELECT id FROM orders HAVING ", -1);
    CHECK(strstr(w, "|YEAR") != NULL && strstr(w, "orders") == NULL);
}

WTEST(complete_errors_where_flink_fails)
{
    CHECK_STR(complete("USE ", -1), "ERROR: java.lang.AssertionError");
    CHECK_STR(complete("DESCRIBE ", -1), "ERROR: java.lang.AssertionError");
    CHECK_STR(complete("SELECT", 7), "ERROR: java.lang.StringIndexOutOfBoundsException");
    CHECK_STR(complete("SELECT", -2), "ERROR: java.lang.StringIndexOutOfBoundsException");
}
