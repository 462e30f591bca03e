/*
 * parse_stmt.c — statements (DDL, DML, SHOW/DESCRIBE/SET/RESET, EXPLAIN, COMPILE/EXECUTE PLAN,
 * statement sets, client commands) and the public entry points of parser.h.
 *
 * Contract: wsql_parse_statement / wsql_parse_expression / wsql_parse_type lex the text, run the
 * recursive-descent parser under a setjmp guard and return NULL with err set on the first error.
 * Valid Flink statements weir does not implement parse to AS_OTHER (or AS_CREATE_FUNCTION etc.) so
 * the binder can report them. Depends on parse_int.h, parser.h.
 */
#include "parse_int.h"
#include "parser.h"

#include <string.h>
#include <strings.h>

static AstStmt *statement(WSqlParser *p);
static bool starts_expression(WSqlParser *p);

static AstStmt *new_stmt(WSqlParser *p, AstStmtKind k, AstPos pos)
{
    AstStmt *s = WA_NEW(p->a, AstStmt);
    s->kind = k;
    s->pos = pos;
    return s;
}

static char *slice(WSqlParser *p, int from_tok, int to_tok_excl)
{
    if (to_tok_excl <= from_tok) return wa_strdup(p->a, "");
    const WSqlToken *a = &p->t[from_tok], *b = &p->t[to_tok_excl - 1];
    return wa_strndup(p->a, a->start, (size_t)(b->start + b->len - a->start));
}

/* skips the rest of a statement we only recognise (up to ';' or EOF) */
static void skip_rest(WSqlParser *p)
{
    while (!ps_at(p, 0, TK_EOF) && !ps_at(p, 0, TK_SEMICOLON)) ps_next(p);
}

static AstStmt *other(WSqlParser *p, AstPos pos, const char *what)
{
    AstStmt *s = new_stmt(p, AS_OTHER, pos);
    s->other = what;
    skip_rest(p);
    return s;
}

/* ( 'k' = 'v', ... ) */
static void options_list(WSqlParser *p, AstStmt *s)
{
    ps_expect(p, TK_LPAREN);
    PsList l = {0};
    if (!ps_is(p, TK_RPAREN)) {
        do {
            AstOption *o = WA_NEW(p->a, AstOption);
            o->pos = ps_pos(p);
            o->key = ps_string(p);
            ps_expect(p, TK_EQ);
            o->value = ps_string(p);
            ps_list_add(p, &l, o);
        } while (ps_accept(p, TK_COMMA));
    }
    ps_expect(p, TK_RPAREN);
    s->noptions = l.n;
    s->options = WA_ARRAY(p->a, AstOption, l.n);
    for (int i = 0; i < l.n; i++) s->options[i] = *(AstOption *)l.v[i];
}

/* ( 'k', ... ) -> options with value NULL */
static void key_list(WSqlParser *p, AstStmt *s)
{
    ps_expect(p, TK_LPAREN);
    PsList l = {0};
    do {
        AstOption *o = WA_NEW(p->a, AstOption);
        o->pos = ps_pos(p);
        o->key = ps_string(p);
        ps_list_add(p, &l, o);
    } while (ps_accept(p, TK_COMMA));
    ps_expect(p, TK_RPAREN);
    s->noptions = l.n;
    s->options = WA_ARRAY(p->a, AstOption, l.n);
    for (int i = 0; i < l.n; i++) s->options[i] = *(AstOption *)l.v[i];
}

static char **ident_list(WSqlParser *p, int *n)
{
    ps_expect(p, TK_LPAREN);
    PsList l = {0};
    do ps_list_add(p, &l, ps_ident(p));
    while (ps_accept(p, TK_COMMA));
    ps_expect(p, TK_RPAREN);
    *n = l.n;
    return (char **)l.v;
}

/* A query and its text as written (from its first token to its last). */
static AstQuery *query_with_text(WSqlParser *p, char **text)
{
    const char *start = ps_cur(p)->start;
    AstQuery *q = ps_query(p);
    const WSqlToken *last = &p->t[p->pos - 1];
    *text = wa_strndup(p->a, start, (size_t)(last->start + last->len - start));
    return q;
}

/* [IF NOT EXISTS] / [IF EXISTS] before a name: Flink's grammar decides by LOOKAHEAD(3) / (2), so IF
   not followed by the rest is the (non-reserved) name itself (`DROP TABLE IF` drops table IF) */
static bool if_not_exists(WSqlParser *p)
{
    static const char *const SEQ[] = {"\"IF\"", "\"NOT\"", "\"EXISTS\""};
    if (ps_kw_at(p, 0, "IF") && ps_kw_at(p, 1, "NOT") && ps_kw_at(p, 2, "EXISTS")) {
        ps_next(p);
        ps_next(p);
        ps_next(p);
        return true;
    }
    ps_scan_failed(p, SEQ, 3);
    return false;
}

static bool if_exists(WSqlParser *p)
{
    static const char *const SEQ[] = {"\"IF\"", "\"EXISTS\""};
    if (ps_kw_at(p, 0, "IF") && ps_kw_at(p, 1, "EXISTS")) {
        ps_next(p);
        ps_next(p);
        return true;
    }
    ps_scan_failed(p, SEQ, 2);
    return false;
}

/* a one-part name (no "." is looked for after it) */
static AstName simple_name(WSqlParser *p)
{
    AstName n;
    memset(&n, 0, sizeof n);
    n.pos = ps_pos(p);
    n.n = 1;
    n.parts = WA_ARRAY(p->a, char *, 1);
    n.parts[0] = ps_ident(p);
    return n;
}

/* COMPILE PLAN 'file' [IF NOT EXISTS]: no name follows, the keywords are required once IF came */
static bool if_not_exists_plan(WSqlParser *p)
{
    if (!ps_kw_at(p, 0, "IF")) {
        (void)ps_is_kw(p, "IF");
        return false;
    }
    ps_next(p);
    ps_expect_kw(p, "NOT");
    ps_expect_kw(p, "EXISTS");
    return true;
}

/* ---- INSERT ---- */

static char *literal_text(WSqlParser *p)
{
    WSqlToken *t = ps_cur(p);
    if (t->kind == TK_STRING || t->kind == TK_USTRING) return ps_string(p);
    if (t->kind == TK_INTEGER || t->kind == TK_DECIMAL || t->kind == TK_APPROX) {
        ps_next(p);
        return t->val;
    }
    if (t->kind == TK_MINUS && (ps_at(p, 1, TK_INTEGER) || ps_at(p, 1, TK_DECIMAL) || ps_at(p, 1, TK_APPROX))) {
        ps_next(p);
        char *v = wa_sprintf(p->a, "-%s", ps_cur(p)->val);
        ps_next(p);
        return v;
    }
    if (ps_accept_kw(p, "TRUE")) return "TRUE";
    if (ps_accept_kw(p, "FALSE")) return "FALSE";
    if (ps_accept_kw(p, "NULL")) return NULL;
    (void)ps_is(p, TK_INTEGER);
    (void)ps_is_string(p);
    ps_fail(p);
}

static AstStmt *insert_stmt(WSqlParser *p)
{
    AstStmt *s = new_stmt(p, AS_INSERT, ps_pos(p));
    if (!ps_accept_kw(p, "INSERT")) ps_expect_kw(p, "UPSERT");
    if (ps_accept_kw(p, "OVERWRITE")) s->overwrite = true;
    else ps_expect_kw(p, "INTO");
    s->target = ps_compound(p);
    /* Calcite's target may go on with a name part or EXTEND (columns; not in weir) */
    (void)ps_is(p, TK_DOT);
    (void)ps_is_kw(p, "EXTEND");
    s->target_hints = ps_hints_opt(p);
    if (ps_accept_kw(p, "PARTITION")) {
        ps_expect(p, TK_LPAREN);
        PsList l = {0};
        do {
            AstOption *o = WA_NEW(p->a, AstOption);
            o->pos = ps_pos(p);
            o->key = ps_ident(p);
            ps_expect(p, TK_EQ);   /* Flink's partition spec always gives a value */
            o->value = literal_text(p);
            ps_list_add(p, &l, o);
        } while (ps_accept(p, TK_COMMA));
        ps_expect(p, TK_RPAREN);
        s->npartition = l.n;
        s->partition = WA_ARRAY(p->a, AstOption, l.n);
        for (int i = 0; i < l.n; i++) s->partition[i] = *(AstOption *)l.v[i];
    }
    if (ps_at(p, 0, TK_LPAREN) && !ps_is_query_start(p, 1)) {
        s->insert_cols = ident_list(p, &s->ninsert_cols);
    }
    s->query = ps_query(p);
    /* Flink 2.3: ON CONFLICT DO DEDUPLICATE | ERROR | NOTHING (Calcite lists the three in that
       order when another word follows DO) */
    if (ps_accept_kw(p, "ON")) {
        ps_expect_kw(p, "CONFLICT");
        ps_expect_kw(p, "DO");
        if (ps_accept_kw(p, "ERROR")) s->on_conflict = ACF_ERROR;
        else if (ps_accept_kw(p, "DEDUPLICATE")) s->on_conflict = ACF_DEDUPLICATE;
        else if (ps_accept_kw(p, "NOTHING")) s->on_conflict = ACF_NOTHING;
        else ps_fail(p);
    }
    return s;
}

/* STATEMENT SET BEGIN insert; ... END */
static AstStmt *statement_set(WSqlParser *p, AstPos pos)
{
    AstStmt *s = new_stmt(p, AS_STATEMENT_SET, pos);
    ps_expect_kw(p, "STATEMENT");
    ps_expect_kw(p, "SET");
    ps_expect_kw(p, "BEGIN");
    PsList l = {0};
    do {
        int from = p->pos;
        AstStmt *ins = insert_stmt(p);
        ins->sql = slice(p, from, p->pos);
        ps_list_add(p, &l, ins);
        ps_expect(p, TK_SEMICOLON);
    } while (!ps_is_kw(p, "END"));
    ps_expect_kw(p, "END");
    s->nstmts = l.n;
    s->stmts = (AstStmt **)l.v;
    return s;
}

/* the statement after EXPLAIN / COMPILE PLAN ... FOR / EXECUTE */
static AstStmt *inner_stmt(WSqlParser *p, bool allow_query, bool allow_ctas)
{
    int from = p->pos;
    AstPos pos = ps_pos(p);
    AstStmt *s;
    if (ps_is_kw(p, "STATEMENT")) s = statement_set(p, pos);
    else if (ps_kw_at(p, 0, "EXECUTE") && ps_kw_at(p, 1, "STATEMENT")) {
        ps_next(p);
        s = statement_set(p, pos);
    } else if (ps_is_kw(p, "INSERT") || ps_is_kw(p, "UPSERT")) s = insert_stmt(p);
    else if (allow_ctas && ps_is_kw(p, "CREATE")) s = statement(p);
    else if (allow_query && (ps_is_query_start(p, 0) || ps_kw_at(p, 0, "TABLE"))) {
        s = new_stmt(p, AS_QUERY, pos);
        s->query = ps_query(p);
    } else {
        if (allow_query) {
            /* Calcite parses a row expression here and then rejects it (EXPLAIN x, measured) */
            if (starts_expression(p))
                ps_fail_calcite(p, ps_cur(p), "Non-query expression encountered in illegal context");
            /* Flink's explainable / executable statement: a query or expression, DML, a statement set */
            static const char *const STARTS[] = {
                "\"EXECUTE\"", "\"SELECT\"", "\"TABLE\"", "\"VALUE\"", "\"VALUES\"", "\"WITH\"",
            };
            for (size_t i = 0; i < sizeof STARTS / sizeof STARTS[0]; i++) ps_note_image(p, STARTS[i]);
            for (int i = 0; i < WSQL_N_OPERAND_STARTS; i++) ps_note_image(p, WSQL_OPERAND_STARTS[i]);
        }
        ps_fail(p);
    }
    s->sql = slice(p, from, p->pos);
    return s;
}

/* ---- CREATE ---- */

static void column_or_constraint(WSqlParser *p, AstStmt *s, PsList *cols)
{
    AstPos pos = ps_pos(p);
    if (ps_is_kw(p, "WATERMARK")) {
        ps_next(p);
        s->wm_pos = pos;
        ps_expect_kw(p, "FOR");
        AstName n = ps_compound(p);
        s->wm_column = ps_name_join(p, &n);
        ps_expect_kw(p, "AS");
        s->wm_expr = ps_expr(p);
        return;
    }
    if (ps_accept_kw(p, "CONSTRAINT")) (void)ps_ident(p);
    if (ps_is_kw(p, "PRIMARY")) {
        ps_next(p);
        ps_expect_kw(p, "KEY");
        s->pk_pos = pos;
        s->pk_cols = ident_list(p, &s->npk);
        s->pk_enforced = true;
        if (ps_accept_kw(p, "NOT")) {
            ps_expect_kw(p, "ENFORCED");
            s->pk_enforced = false;
        } else {
            ps_accept_kw(p, "ENFORCED");
        }
        return;
    }
    if (ps_is_kw(p, "UNIQUE")) ps_fail_at(p, ps_cur(p), "UNIQUE constraint is not supported yet");
    AstColumnDef *c = WA_NEW(p->a, AstColumnDef);
    c->pos = pos;
    c->name = ps_ident(p);
    if (ps_accept_kw(p, "AS")) {
        c->computed = ps_expr(p);
    } else {
        if (ps_cur(p)->kind != TK_IDENT && ps_cur(p)->kind != TK_QIDENT) {
            /* no type follows the name: Flink's LOOKAHEAD for a typed column compared the type
               alternatives of its grammar here, in this order (measured: `CREATE TABLE t (a INT, b)`) */
            static const char *const TYPE_SCANS[] = {
                "\".\"", "\"STRING\"", "\"BYTES\"", "\"TIMESTAMP_LTZ\"", "\"ARRAY\"", "\"MULTISET\"", "\"RAW\"",
                "\"ROW\"", "\"STRUCTURED\"", "\"BITMAP\"", "\"BOOLEAN\"", "\"INTEGER\"", "\"INT\"", "\"TINYINT\"",
                "\"SMALLINT\"", "\"BIGINT\"", "\"REAL\"", "\"DOUBLE\"", "\"FLOAT\"", "\"VARIANT\"", "\"BINARY\"",
                "\"VARBINARY\"", "\"DECIMAL\"", "\"DEC\"", "\"NUMERIC\"", "\"ANY\"", "\"CHARACTER\"", "\"CHAR\"",
                "\"VARCHAR\"", "\"DATE\"", "\"TIME\"", "\"TIMESTAMP\"", "<IDENTIFIER>", "<HYPHENATED_IDENTIFIER>",
                "<QUOTED_IDENTIFIER>", "<BACK_QUOTED_IDENTIFIER>", "<BIG_QUERY_BACK_QUOTED_IDENTIFIER>",
                "<BRACKET_QUOTED_IDENTIFIER>", "<UNICODE_QUOTED_IDENTIFIER>"};
            ps_lookahead_tokens(p, TYPE_SCANS, (int)(sizeof TYPE_SCANS / sizeof TYPE_SCANS[0]));
            ps_fail(p);
        }
        c->type = ps_type_ext(p);
        if (ps_accept_kw(p, "METADATA")) {
            c->metadata = true;
            if (ps_accept_kw(p, "FROM")) c->metadata_key = ps_string(p);
            if (ps_accept_kw(p, "VIRTUAL")) c->is_virtual = true;
            /* a metadata column takes no constraint (Flink's grammar: one or the other) */
            if (ps_accept_kw(p, "COMMENT")) c->comment = ps_quoted(p);
            ps_list_add(p, cols, c);
            return;
        }
        if (ps_accept_kw(p, "CONSTRAINT")) (void)ps_ident(p);
        if (ps_accept_kw(p, "PRIMARY")) {
            ps_expect_kw(p, "KEY");
            c->primary_key = true;
            c->pk_enforced = true;
            if (ps_accept_kw(p, "NOT")) {
                ps_expect_kw(p, "ENFORCED");
                c->pk_enforced = false;
            } else {
                ps_accept_kw(p, "ENFORCED");
            }
        } else if (ps_is_kw(p, "UNIQUE")) {
            ps_fail_at(p, ps_cur(p), "UNIQUE constraint is not supported yet");
        }
    }
    if (ps_accept_kw(p, "COMMENT")) c->comment = ps_quoted(p);
    ps_list_add(p, cols, c);
}

static void like_clause(WSqlParser *p, AstStmt *s)
{
    s->like_table = ps_compound(p);
    if (ps_accept(p, TK_LPAREN)) {
        static const char *const FEATURES[] = {"ALL", "CONSTRAINTS", "PARTITIONS", "WATERMARKS", "GENERATED",
                                               "METADATA", "OPTIONS", "DISTRIBUTION"};
        do {
            AstLikeMode mode = ALM_INCLUDING;
            if (ps_accept_kw(p, "EXCLUDING")) mode = ALM_EXCLUDING;
            else if (!ps_accept_kw(p, "INCLUDING")) { ps_expect_kw(p, "OVERWRITING"); mode = ALM_OVERWRITING; }
            int f = -1;
            for (int i = 0; i < 8 && f < 0; i++) if (ps_accept_kw(p, FEATURES[i])) f = i;
            if (f < 0) { ps_fail(p); break; }
            if (s->nlike_opts < 16) {
                s->like_mode[s->nlike_opts] = mode;
                s->like_feature[s->nlike_opts++] = (AstLikeFeature)f;
            }
        } while (ps_accept(p, TK_COMMA) || ps_kw_at(p, 0, "INCLUDING") || ps_kw_at(p, 0, "EXCLUDING")
                 || ps_kw_at(p, 0, "OVERWRITING"));
        ps_expect(p, TK_RPAREN);
    }
}

static AstStmt *create_table(WSqlParser *p, AstStmt *s)
{
    s->kind = AS_CREATE_TABLE;
    s->if_not_exists = if_not_exists(p);
    s->target = ps_compound(p);
    /* Flink's LOOKAHEAD(3) tells typed columns from a list of names (for CREATE TABLE AS): a name
       followed by ",", ")" or "." starts the list */
    bool names = ps_at(p, 0, TK_LPAREN) && ps_ident_at(p, 1)
                 && (ps_at(p, 2, TK_COMMA) || ps_at(p, 2, TK_RPAREN) || ps_at(p, 2, TK_DOT));
    if (names) {
        ps_next(p);
        do (void)ps_compound(p);
        while (ps_accept(p, TK_COMMA));
        ps_expect(p, TK_RPAREN);
    } else if (ps_accept(p, TK_LPAREN)) {
        PsList cols = {0};
        do column_or_constraint(p, s, &cols);
        while (ps_accept(p, TK_COMMA));
        ps_expect(p, TK_RPAREN);
        s->ncols = cols.n;
        s->cols = WA_ARRAY(p->a, AstColumnDef, cols.n);
        for (int i = 0; i < cols.n; i++) s->cols[i] = *(AstColumnDef *)cols.v[i];
    }
    if (ps_accept_kw(p, "COMMENT")) s->comment = ps_quoted(p);
    if (ps_is_kw(p, "DISTRIBUTED"))
        ps_fail_at(p, ps_cur(p), "DISTRIBUTED BY is not supported (at line %d, column %d).", ps_cur(p)->line,
                   ps_cur(p)->col);
    if (ps_accept_kw(p, "PARTITIONED")) {
        ps_expect_kw(p, "BY");
        s->partitioned_by = ident_list(p, &s->npartitioned);
    }
    if (ps_accept_kw(p, "WITH")) options_list(p, s);
    if (ps_accept_kw(p, "LIKE")) like_clause(p, s);
    if (ps_accept_kw(p, "AS")) s->query = ps_query(p);
    if (names) {
        if (!s->query)
            ps_fail_at(p, ps_cur(p), "Columns identifiers without types in the schema are supported on CTAS/RTAS "
                       "statements only.");
        s->kind = AS_OTHER;
        s->other = "CREATE TABLE AS SELECT with a list of column names";
    }
    return s;
}

/* CREATE / DROP decide FUNCTION (after [TEMPORARY] [SYSTEM]) by a lookahead scan: Flink lists it after
   the single tokens of the statement choice (measured: `DROP t`, `CREATE TEMPORARY f`) */
static bool function_choice(WSqlParser *p, bool *system)
{
#define FN_SCAN(kind) {"\"FUNCTION\"", kind}
    static const char *const FN[][2] = {
        FN_SCAN("<IDENTIFIER>"), FN_SCAN("<HYPHENATED_IDENTIFIER>"), FN_SCAN("<QUOTED_IDENTIFIER>"),
        FN_SCAN("<BACK_QUOTED_IDENTIFIER>"), FN_SCAN("<BIG_QUERY_BACK_QUOTED_IDENTIFIER>"),
        FN_SCAN("<BRACKET_QUOTED_IDENTIFIER>"), FN_SCAN("<UNICODE_QUOTED_IDENTIFIER>")};
#undef FN_SCAN
    static const char *const SYSFN[] = {"\"SYSTEM\"", "\"FUNCTION\""};
    *system = false;
    if (ps_kw_at(p, 0, "SYSTEM") && ps_kw_at(p, 1, "FUNCTION")) {
        ps_next(p);
        ps_next(p);
        *system = true;
        return true;
    }
    /* FUNCTION alone is scanned with the name's first token (`DROP FUNCTION;` fails at FUNCTION) */
    if (ps_kw_at(p, 0, "FUNCTION") && ps_ident_at(p, 1)) {
        ps_next(p);
        return true;
    }
    for (size_t i = 0; i < sizeof FN / sizeof FN[0]; i++) ps_scan_failed(p, FN[i], 2);
    ps_scan_failed(p, SYSFN, 2);
    return false;
}

static AstStmt *create_stmt(WSqlParser *p)
{
    AstPos pos = ps_pos(p);
    const WSqlToken *first = ps_cur(p);
    ps_expect_kw(p, "CREATE");
    AstStmt *s = new_stmt(p, AS_CREATE_TABLE, pos);
    if (ps_accept_kw(p, "OR")) {
        if (ps_accept_kw(p, "REPLACE")) return other(p, pos, "CREATE OR REPLACE");
        ps_expect_kw(p, "ALTER");
        return other(p, pos, "CREATE OR ALTER");
    }
    if (ps_accept_kw(p, "TEMPORARY")) {
        s->temporary = true;
        /* Flink's choice after TEMPORARY still has OR ALTER (of a materialized table) */
        if (ps_accept_kw(p, "OR")) {
            ps_expect_kw(p, "ALTER");
            return other(p, pos, "CREATE TEMPORARY OR ALTER");
        }
    }
    bool system = false;
    if (function_choice(p, &system)) {
        if (system && !s->temporary)
            ps_fail_at(p, first, "CREATE SYSTEM FUNCTION is not supported, system functions can only be "
                       "registered as temporary functions, you can use CREATE TEMPORARY SYSTEM FUNCTION instead.");
        s->kind = AS_CREATE_FUNCTION;
        s->system_function = system;
        goto function;
    }
    if (ps_accept_kw(p, "TABLE")) return create_table(p, s);
    if (ps_accept_kw(p, "VIEW")) {
        s->kind = AS_CREATE_VIEW;
        s->if_not_exists = if_not_exists(p);
        s->target = ps_compound(p);
        if (ps_is(p, TK_LPAREN)) s->view_cols = ident_list(p, &s->nview_cols);
        if (ps_accept_kw(p, "COMMENT")) s->comment = ps_quoted(p);
        ps_expect_kw(p, "AS");
        s->query = query_with_text(p, &s->query_sql);
        return s;
    }
    if (ps_accept_kw(p, "CATALOG")) {
        if (s->temporary) return other(p, pos, "CREATE TEMPORARY CATALOG");
        /* Flink's grammar: a simple name, WITH optional (the catalog factory then misses 'type') */
        s->kind = AS_CREATE_CATALOG;
        s->if_not_exists = if_not_exists(p);
        s->target = simple_name(p);
        if (ps_accept_kw(p, "COMMENT")) s->comment = ps_quoted(p);
        if (ps_accept_kw(p, "WITH")) options_list(p, s);
        return s;
    }
    if (ps_accept_kw(p, "DATABASE")) {
        if (s->temporary) return other(p, pos, "CREATE TEMPORARY DATABASE");
        s->kind = AS_CREATE_DATABASE;
        s->if_not_exists = if_not_exists(p);
        s->target = ps_compound(p);
        if (ps_accept_kw(p, "COMMENT")) s->comment = ps_quoted(p);
        if (ps_accept_kw(p, "WITH")) options_list(p, s);
        return s;
    }
    if (ps_accept_kw(p, "MATERIALIZED")) {
        if (s->temporary)
            ps_fail_at(p, first, "CREATE TEMPORARY MATERIALIZED TABLE is not supported.");
        return other(p, pos, "CREATE MATERIALIZED TABLE");
    }
    if (ps_accept_kw(p, "MODEL")) return other(p, pos, "CREATE MODEL");
    if (ps_is_kw(p, "CONNECTION")) return other(p, pos, "CREATE CONNECTION");
    if (ps_accept_kw(p, "SYSTEM")) {
        if (!s->temporary)
            ps_fail_at(p, first, "CREATE SYSTEM CONNECTION is not supported, system connections can only "
                       "be registered as temporary connections, you can use CREATE TEMPORARY SYSTEM CONNECTION instead.");
        if (ps_is_kw(p, "CONNECTION")) return other(p, pos, "CREATE CONNECTION");
    }
    ps_fail(p);
function:
    s->if_not_exists = if_not_exists(p);
    s->target = ps_compound(p);
    ps_expect_kw(p, "AS");
    s->value = ps_quoted(p);
    if (ps_accept_kw(p, "LANGUAGE")) {
        /* Flink's grammar takes SQL here too; weir has no SQL-bodied functions */
        if (ps_accept_kw(p, "SQL")) return other(p, pos, "CREATE FUNCTION ... LANGUAGE SQL");
        if (!ps_accept_kw(p, "JAVA") && !ps_accept_kw(p, "SCALA")) ps_expect_kw(p, "PYTHON");
    }
    if (ps_accept_kw(p, "USING")) {
        do {
            ps_expect_kw(p, "JAR");
            (void)ps_quoted(p);
        } while (ps_accept(p, TK_COMMA));
    }
    return s;
}

/* ---- DROP / ALTER ---- */

static AstStmt *drop_stmt(WSqlParser *p)
{
    AstPos pos = ps_pos(p);
    const WSqlToken *first = ps_cur(p);
    ps_expect_kw(p, "DROP");
    AstStmt *s = new_stmt(p, AS_DROP_TABLE, pos);
    if (ps_accept_kw(p, "TEMPORARY")) s->temporary = true;
    bool system = false;
    if (function_choice(p, &system)) {
        s->kind = AS_DROP_FUNCTION;
        s->system_function = system;
    } else if (ps_accept_kw(p, "TABLE")) s->kind = AS_DROP_TABLE;
    else if (ps_accept_kw(p, "VIEW")) s->kind = AS_DROP_VIEW;
    else if (ps_accept_kw(p, "CATALOG")) {
        if (s->temporary) return other(p, pos, "DROP TEMPORARY CATALOG");
        /* Flink's grammar reads a compound name here (its "." is listed); a catalog name has one part */
        s->kind = AS_DROP_CATALOG;
        s->if_exists = if_exists(p);
        s->target = ps_compound(p);
        if (s->target.n != 1)
            ps_fail_at(p, ps_cur(p), "A catalog name must be a simple identifier: `%s` (at line %d, column %d).",
                       ps_name_join(p, &s->target), s->target.pos.line, s->target.pos.col);
        return s;
    } else if (ps_accept_kw(p, "DATABASE")) {
        if (s->temporary) return other(p, pos, "DROP TEMPORARY DATABASE");
        s->kind = AS_DROP_DATABASE;
        s->if_exists = if_exists(p);
        s->target = ps_compound(p);
        if (ps_accept_kw(p, "CASCADE")) s->cascade = true;
        else (void)ps_accept_kw(p, "RESTRICT");
        return s;
    }
    else if (ps_accept_kw(p, "MATERIALIZED")) {
        if (s->temporary) ps_fail_at(p, first, "DROP TEMPORARY MATERIALIZED TABLE is not supported.");
        return other(p, pos, "DROP MATERIALIZED TABLE");
    }
    else if (ps_accept_kw(p, "MODEL")) return other(p, pos, "DROP MODEL");
    else if (ps_is_kw(p, "CONNECTION")) return other(p, pos, "DROP CONNECTION");
    else if (ps_accept_kw(p, "SYSTEM")) {
        if (!s->temporary)
            ps_fail_at(p, first, "DROP SYSTEM CONNECTION is not supported, system connections can only "
                       "be dropped as temporary connections, you can use DROP TEMPORARY SYSTEM CONNECTION instead.");
        if (ps_is_kw(p, "CONNECTION")) return other(p, pos, "DROP CONNECTION");
        ps_fail(p);
    }
    else ps_fail(p);
    s->if_exists = if_exists(p);
    s->target = ps_compound(p);
    return s;
}

/* ALTER TABLE ... ADD / MODIFY / DROP: DISTRIBUTION is one of the choice's tokens, PARTITION is
   decided by a LOOKAHEAD scan (listed after the other tokens); both forms are not supported */
static bool distribution_or_partition(WSqlParser *p)
{
    static const char *const PARTITION[] = {"\"PARTITION\""};
    if (ps_is_kw(p, "DISTRIBUTION") || ps_kw_at(p, 0, "PARTITION")) return true;
    ps_lookahead_tokens(p, PARTITION, 1);
    return false;
}

static AstStmt *alter_stmt(WSqlParser *p)
{
    AstPos pos = ps_pos(p);
    ps_expect_kw(p, "ALTER");
    if (ps_accept_kw(p, "CATALOG")) {
        AstStmt *s = new_stmt(p, AS_ALTER_CATALOG, pos);
        s->target.n = 1;
        s->target.pos = ps_pos(p);
        s->target.parts = WA_ARRAY(p->a, char *, 1);
        s->target.parts[0] = ps_ident(p);
        if (ps_accept_kw(p, "SET")) {
            s->alter_kind = AAL_SET_OPTIONS;
            options_list(p, s);
        } else if (ps_accept_kw(p, "RESET")) {
            s->alter_kind = AAL_RESET_OPTIONS;
            key_list(p, s);
        } else {
            ps_expect_kw(p, "COMMENT");
            s->alter_kind = AAL_COMMENT;
            s->comment = ps_quoted(p);
        }
        return s;
    }
    if (ps_accept_kw(p, "DATABASE")) {
        AstStmt *s = new_stmt(p, AS_ALTER_DATABASE, pos);
        s->target = ps_compound(p);
        ps_expect_kw(p, "SET");
        s->alter_kind = AAL_SET_OPTIONS;
        options_list(p, s);
        return s;
    }
    if (ps_accept_kw(p, "VIEW")) {
        AstStmt *s = new_stmt(p, AS_ALTER_VIEW, pos);
        s->target = ps_compound(p);
        if (ps_accept_kw(p, "RENAME")) {
            ps_expect_kw(p, "TO");
            s->alter_kind = AAL_RENAME;
            s->rename_to = ps_compound(p);
            return s;
        }
        if (ps_accept_kw(p, "AS")) {
            s->alter_kind = AAL_VIEW_QUERY;
            s->query = query_with_text(p, &s->query_sql);
            return s;
        }
        (void)ps_is_kw(p, "RENAME");
        ps_fail(p);
    }
    if (!ps_accept_kw(p, "TABLE")) {
        const char *what = ps_kw_at(p, 0, "FUNCTION") || ps_kw_at(p, 0, "TEMPORARY") ? "ALTER FUNCTION"
                         : ps_kw_at(p, 0, "MATERIALIZED") ? "ALTER MATERIALIZED TABLE"
                         : ps_kw_at(p, 0, "MODEL") ? "ALTER MODEL" : NULL;
        if (!what) {
            (void)ps_is_kw(p, "TABLE");
            (void)ps_is_kw(p, "VIEW");
            (void)ps_is_kw(p, "DATABASE");
            (void)ps_is_kw(p, "CATALOG");
            (void)ps_is_kw(p, "FUNCTION");
            ps_fail(p);
        }
        return other(p, pos, what);
    }
    AstStmt *s = new_stmt(p, AS_ALTER_TABLE, pos);
    s->if_exists = if_exists(p);
    s->target = ps_compound(p);
    if (ps_accept_kw(p, "RENAME")) {
        if (ps_accept_kw(p, "TO")) {
            s->alter_kind = AAL_RENAME;
            s->rename_to = ps_compound(p);
            return s;
        }
        s->alter_kind = AAL_RENAME_COLUMN;
        AstName from = ps_compound(p);
        s->key = ps_name_join(p, &from);
        ps_expect_kw(p, "TO");
        AstName to = ps_compound(p);
        s->value = ps_name_join(p, &to);
        return s;
    }
    if (ps_is_kw(p, "ADD") || ps_is_kw(p, "MODIFY")) {
        s->alter_kind = ps_is_kw(p, "ADD") ? AAL_ADD : AAL_MODIFY;
        ps_next(p);
        if (distribution_or_partition(p)) return other(p, pos, "ALTER TABLE ... DISTRIBUTION / PARTITION");
        PsList cols = {0};
        bool list = ps_accept(p, TK_LPAREN);
        do {
            int before = cols.n;
            column_or_constraint(p, s, &cols);
            AstColumnDef *c = cols.n > before ? cols.v[cols.n - 1] : NULL;
            if (c && ps_accept_kw(p, "FIRST")) c->first = true;
            else if (c && ps_accept_kw(p, "AFTER")) c->after = ps_ident(p);
        } while (list && ps_accept(p, TK_COMMA));
        if (list) ps_expect(p, TK_RPAREN);
        s->ncols = cols.n;
        s->cols = WA_ARRAY(p->a, AstColumnDef, cols.n ? cols.n : 1);
        for (int i = 0; i < cols.n; i++) s->cols[i] = *(AstColumnDef *)cols.v[i];
        return s;
    }
    if (ps_accept_kw(p, "DROP")) {
        if (distribution_or_partition(p)) return other(p, pos, "ALTER TABLE ... DISTRIBUTION / PARTITION");
        if (ps_accept_kw(p, "PRIMARY")) {
            ps_expect_kw(p, "KEY");
            s->alter_kind = AAL_DROP_PRIMARY_KEY;
        } else if (ps_accept_kw(p, "CONSTRAINT")) {
            s->alter_kind = AAL_DROP_PRIMARY_KEY;
            s->key = ps_ident(p);
        } else if (ps_accept_kw(p, "WATERMARK")) {
            s->alter_kind = AAL_DROP_WATERMARK;
        } else if (ps_is(p, TK_LPAREN)) {
            s->alter_kind = AAL_DROP_COLUMNS;
            s->view_cols = ident_list(p, &s->nview_cols);
        } else {
            s->alter_kind = AAL_DROP_COLUMNS;
            AstName n = ps_compound(p);
            s->nview_cols = 1;
            s->view_cols = WA_ARRAY(p->a, char *, 1);
            s->view_cols[0] = ps_name_join(p, &n);
        }
        return s;
    }
    if (ps_accept_kw(p, "SET")) {
        s->alter_kind = AAL_SET_OPTIONS;
        options_list(p, s);
        return s;
    }
    if (ps_accept_kw(p, "RESET")) {
        s->alter_kind = AAL_RESET_OPTIONS;
        key_list(p, s);
        return s;
    }
    if (ps_is_kw(p, "COMPACT") || ps_is_kw(p, "DISTRIBUTED")) {
        skip_rest(p);
        return s;
    }
    (void)ps_is_kw(p, "RENAME");
    ps_fail(p);
}

/* ---- SHOW / DESCRIBE / USE ---- */

/* [NOT] LIKE 'p' (and [NOT] ILIKE 'p' where Flink's grammar has it: SHOW CATALOGS / DATABASES /
   FUNCTIONS, not SHOW TABLES / VIEWS / COLUMNS) */
static void like_opt_kind(WSqlParser *p, AstStmt *s, bool allow_ilike)
{
    bool neg = ps_accept_kw(p, "NOT");
    if (ps_accept_kw(p, "LIKE")) {
        s->like_pattern = ps_quoted(p);
    } else if (allow_ilike && ps_accept_kw(p, "ILIKE")) {
        s->ilike = true;
        s->like_pattern = ps_quoted(p);
    } else {
        if (neg) ps_fail(p);
        return;
    }
    s->not_like = neg;
}

static void like_opt(WSqlParser *p, AstStmt *s) { like_opt_kind(p, s, true); }
static void like_opt_no_ilike(WSqlParser *p, AstStmt *s) { like_opt_kind(p, s, false); }

static void from_in_opt(WSqlParser *p, AstStmt *s)
{
    if (ps_accept_kw(p, "FROM") || ps_accept_kw(p, "IN")) s->target = ps_compound(p);
}

static AstStmt *show_stmt(WSqlParser *p)
{
    AstPos pos = ps_pos(p);
    int start = p->pos;
    ps_expect_kw(p, "SHOW");
    AstStmt *s = new_stmt(p, AS_SHOW, pos);
    if (ps_accept_kw(p, "TABLES")) { s->show = ASH_TABLES; from_in_opt(p, s); like_opt_no_ilike(p, s); }
    else if (ps_accept_kw(p, "VIEWS")) { s->show = ASH_VIEWS; from_in_opt(p, s); like_opt_no_ilike(p, s); }
    else if (ps_accept_kw(p, "JOBS")) s->show = ASH_JOBS;
    else if (ps_accept_kw(p, "FUNCTIONS")) { s->show = ASH_FUNCTIONS; from_in_opt(p, s); like_opt(p, s); }
    else if (ps_accept_kw(p, "USER")) {
        ps_expect_kw(p, "FUNCTIONS");
        s->show = ASH_USER_FUNCTIONS;
        from_in_opt(p, s);
        like_opt(p, s);
    } else if (ps_accept_kw(p, "CATALOGS")) { s->show = ASH_CATALOGS; like_opt(p, s); }
    else if (ps_accept_kw(p, "DATABASES")) { s->show = ASH_DATABASES; from_in_opt(p, s); like_opt(p, s); }
    else if (ps_accept_kw(p, "CURRENT")) {
        if (ps_accept_kw(p, "CATALOG")) s->show = ASH_CURRENT_CATALOG;
        else { ps_expect_kw(p, "DATABASE"); s->show = ASH_CURRENT_DATABASE; }
    } else if (ps_accept_kw(p, "MODULES")) s->show = ASH_MODULES;
    else if (ps_accept_kw(p, "FULL")) {
        ps_expect_kw(p, "MODULES");
        s->show = ASH_FULL_MODULES;
    } else if (ps_accept_kw(p, "JARS")) s->show = ASH_JARS;
    else if (ps_accept_kw(p, "CREATE")) {
        if (ps_accept_kw(p, "TABLE")) s->show = ASH_CREATE_TABLE;
        else if (ps_accept_kw(p, "VIEW")) s->show = ASH_CREATE_VIEW;
        else if (ps_accept_kw(p, "CATALOG")) s->show = ASH_CREATE_CATALOG;
        else if (ps_is_kw(p, "MODEL") || ps_is_kw(p, "MATERIALIZED")
                 || ps_is_kw(p, "CONNECTION") || ps_is_kw(p, "OR"))
            return other(p, pos, "SHOW CREATE");
        else ps_fail(p);
        s->target = ps_compound(p);
    } else if (ps_accept_kw(p, "COLUMNS")) {
        s->show = ASH_COLUMNS;
        if (!ps_accept_kw(p, "FROM")) ps_expect_kw(p, "IN");
        s->target = ps_compound(p);
        like_opt_no_ilike(p, s);
    } else if (ps_is_kw(p, "PARTITIONS") || ps_is_kw(p, "PROCEDURES") || ps_is_kw(p, "MODELS")
               || ps_is_kw(p, "CONNECTIONS") || ps_is_kw(p, "MATERIALIZED")) {
        return other(p, pos, wa_sprintf(p->a, "SHOW %s", ps_cur(p)->kw->word));
    } else {
        /* no SHOW form's LOOKAHEAD(2) matched: the statement choice fails at SHOW */
        ps_fail_statement_start(p, start);
    }
    return s;
}

/* Flink's grammar decides DESCRIBE's form by the word after it (a non-reserved CATALOG, FUNCTION,
   DATABASE, JOB, MODEL or CONNECTION is never a table name there), then takes [EXTENDED] and the name */
static bool extended_opt(WSqlParser *p) { return ps_accept_kw(p, "EXTENDED"); }

static AstStmt *describe_stmt(WSqlParser *p)
{
    AstPos pos = ps_pos(p);
    if (!ps_accept_kw(p, "DESCRIBE")) ps_expect_kw(p, "DESC");
    if (ps_accept_kw(p, "CATALOG")) {
        AstStmt *s = new_stmt(p, AS_DESCRIBE_CATALOG, pos);
        s->extended = extended_opt(p);
        s->target.n = 1;
        s->target.pos = ps_pos(p);
        s->target.parts = WA_ARRAY(p->a, char *, 1);
        s->target.parts[0] = ps_ident(p);
        return s;
    }
    if (ps_kw_at(p, 0, "FUNCTION")) {
        ps_next(p);
        AstStmt *s = new_stmt(p, AS_DESCRIBE_FUNCTION, pos);
        s->extended = extended_opt(p);
        s->target = ps_compound(p);
        return s;
    }
    if (ps_is_kw(p, "JOB")) {
        ps_next(p);
        (void)ps_quoted(p);
        return other(p, pos, "DESCRIBE JOB");
    }
    if (ps_is_kw(p, "DATABASE") || ps_is_kw(p, "MODEL") || ps_is_kw(p, "CONNECTION")) {
        const char *what = wa_sprintf(p->a, "DESCRIBE %s", ps_cur(p)->kw->word);
        ps_next(p);
        (void)extended_opt(p);
        (void)ps_compound(p);
        return other(p, pos, what);
    }
    AstStmt *s = new_stmt(p, AS_DESCRIBE, pos);
    if (ps_kw_at(p, 0, "EXTENDED")) {
        ps_next(p);
        s->extended = true;
    } else if (!ps_ident_at(p, 0)) {
        /* Calcite's DESCRIBE [TABLE] name | DESCRIBE [STATEMENT] query beside Flink's forms, which
           its LOOKAHEAD scans try after (FUNCTION, EXTENDED) */
        static const char *const STARTS[] = {
            "\"DELETE\"", "\"INSERT\"", "\"MERGE\"", "\"SELECT\"", "\"STATEMENT\"", "\"TABLE\"",
            "\"UPDATE\"", "\"UPSERT\"", "\"VALUE\"", "\"VALUES\"", "\"WITH\"",
        };
        static const char *const SCANNED[] = {"\"FUNCTION\"", "\"EXTENDED\""};
        for (size_t i = 0; i < sizeof STARTS / sizeof STARTS[0]; i++) ps_note_image(p, STARTS[i]);
        for (int i = 0; i < WSQL_N_OPERAND_STARTS; i++) ps_note_image(p, WSQL_OPERAND_STARTS[i]);
        ps_lookahead_tokens(p, SCANNED, 2);
    }
    s->target = ps_compound(p);
    return s;
}

static AstStmt *use_stmt(WSqlParser *p)
{
    AstStmt *s = new_stmt(p, AS_USE, ps_pos(p));
    /* USE's forms are LOOKAHEAD(2) alternatives of the statement choice */
    if (!ps_ident_at(p, 1) && !ps_kw_at(p, 1, "MODULES")) ps_fail_statement_start(p, p->pos);
    ps_expect_kw(p, "USE");
    if (ps_accept_kw(p, "CATALOG")) {
        s->use_catalog = true;
        s->target.n = 1;
        s->target.pos = ps_pos(p);
        s->target.parts = WA_ARRAY(p->a, char *, 1);
        s->target.parts[0] = ps_ident(p);
        return s;
    } else if (ps_accept_kw(p, "MODULES")) {
        s->kind = AS_USE_MODULES;
        PsList l = {0};
        do ps_list_add(p, &l, ps_ident(p));
        while (ps_accept(p, TK_COMMA));
        s->nnames = l.n;
        s->names = (char **)l.v;
        return s;
    }
    s->target = ps_compound(p);
    return s;
}

/* ---- SET / RESET ---- */

/* a configuration key: 'quoted', or unquoted dotted words (reserved words allowed, as in
   table.exec.state.ttl; a '-' is not part of a word, as in Flink) */
static char *set_key(WSqlParser *p)
{
    if (ps_is_string(p)) return ps_string(p);
    if (ps_at(p, 0, TK_IDENT) && ps_cur(p)->kw && ps_cur(p)->kw->reserved) {
        PsList l = {0};
        for (;;) {
            WSqlToken *t = ps_cur(p);
            if (t->kind != TK_IDENT && t->kind != TK_QIDENT) (void)ps_ident(p);
            ps_list_add(p, &l, t->val);
            ps_next(p);
            if (!ps_at(p, 0, TK_DOT) || !(ps_at(p, 1, TK_IDENT) || ps_at(p, 1, TK_QIDENT))) break;
            ps_next(p);
        }
        AstName n = {l.n, (char **)l.v, {0, 0}};
        return ps_name_join(p, &n);
    }
    AstName n = ps_compound(p);
    if (ps_at(p, 0, TK_DOT) && ps_at(p, 1, TK_IDENT)) {
        /* a reserved word after the first part: continue leniently */
        PsList l = {0};
        for (int i = 0; i < n.n; i++) ps_list_add(p, &l, n.parts[i]);
        while (ps_at(p, 0, TK_DOT) && (ps_at(p, 1, TK_IDENT) || ps_at(p, 1, TK_QIDENT))) {
            ps_next(p);
            ps_list_add(p, &l, ps_cur(p)->val);
            ps_next(p);
        }
        n.n = l.n;
        n.parts = (char **)l.v;
    }
    return ps_name_join(p, &n);
}

static AstStmt *set_stmt(WSqlParser *p)
{
    AstStmt *s = new_stmt(p, AS_SET, ps_pos(p));
    ps_expect_kw(p, "SET");
    if (ps_at(p, 0, TK_EOF) || ps_at(p, 0, TK_SEMICOLON)) return s;
    s->key = set_key(p);
    ps_expect(p, TK_EQ);
    WSqlToken *t = ps_cur(p);
    if (t->kind == TK_STRING || t->kind == TK_USTRING) s->value = ps_string(p);
    else if (t->kind == TK_INTEGER || t->kind == TK_DECIMAL || t->kind == TK_APPROX) {
        s->value = t->val;
        ps_next(p);
    } else if (ps_kw_at(p, 0, "ON") || ps_kw_at(p, 0, "TRUE") || ps_kw_at(p, 0, "FALSE")) {
        s->value = wa_strdup(p->a, t->kw->word);
        for (char *c = s->value; *c; c++) *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
        ps_next(p);
    } else {
        /* Flink's grammar takes a string literal; weir also takes a plain word or number */
        if (!ps_ident_at(p, 0)) {
            (void)ps_is_string(p);
            ps_fail(p);
        }
        AstName n = ps_compound(p);
        s->value = ps_name_join(p, &n);
    }
    return s;
}

static AstStmt *reset_stmt(WSqlParser *p)
{
    AstStmt *s = new_stmt(p, AS_RESET, ps_pos(p));
    ps_expect_kw(p, "RESET");
    if (ps_at(p, 0, TK_EOF) || ps_at(p, 0, TK_SEMICOLON)) return s;
    if (ps_accept_kw(p, "ALL")) return s;
    s->key = set_key(p);
    return s;
}

/* ---- EXPLAIN / COMPILE / EXECUTE / statement sets / STOP JOB ---- */

static AstStmt *explain_stmt(WSqlParser *p)
{
    AstStmt *s = new_stmt(p, AS_EXPLAIN, ps_pos(p));
    ps_expect_kw(p, "EXPLAIN");
    if (ps_kw_at(p, 0, "PLAN") && ps_kw_at(p, 1, "FOR")) {
        ps_next(p);
        ps_next(p);
        s->explain_plan_for = true;
    } else {
        static const struct { const char *kw; int bit; } D[] = {
            {"ESTIMATED_COST", AX_ESTIMATED_COST}, {"CHANGELOG_MODE", AX_CHANGELOG_MODE},
            {"JSON_EXECUTION_PLAN", AX_JSON_EXECUTION_PLAN}, {"PLAN_ADVICE", AX_PLAN_ADVICE},
        };
        bool any = false;
        for (;;) {
            bool got = false;
            for (size_t i = 0; i < sizeof D / sizeof D[0]; i++) {
                if (ps_accept_kw(p, D[i].kw)) {
                    s->explain_details |= D[i].bit;
                    got = true;
                    break;
                }
            }
            if (!got) {
                if (any) ps_fail(p);
                break;
            }
            any = true;
            if (!ps_accept(p, TK_COMMA)) break;
        }
        if (!any) (void)ps_is_kw(p, "PLAN");
    }
    s->inner = inner_stmt(p, true, true);
    return s;
}

static AstStmt *compile_stmt(WSqlParser *p)
{
    AstPos pos = ps_pos(p);
    ps_expect_kw(p, "COMPILE");
    AstStmt *s = new_stmt(p, AS_COMPILE_PLAN, pos);
    if (ps_accept_kw(p, "AND")) {
        ps_expect_kw(p, "EXECUTE");
        s->kind = AS_COMPILE_AND_EXECUTE;
    }
    ps_expect_kw(p, "PLAN");
    s->plan_file = ps_string(p);
    if (s->kind == AS_COMPILE_PLAN) s->if_not_exists = if_not_exists_plan(p);
    ps_expect_kw(p, "FOR");
    s->inner = inner_stmt(p, false, false);
    return s;
}

static AstStmt *execute_stmt(WSqlParser *p)
{
    AstPos pos = ps_pos(p);
    ps_expect_kw(p, "EXECUTE");
    if (ps_accept_kw(p, "PLAN")) {
        AstStmt *s = new_stmt(p, AS_EXECUTE_PLAN, pos);
        s->plan_file = ps_string(p);
        return s;
    }
    if (ps_is_kw(p, "STATEMENT")) return statement_set(p, pos);
    AstStmt *s = new_stmt(p, AS_EXECUTE, pos);
    s->inner = inner_stmt(p, true, false);
    return s;
}

static AstStmt *stop_job(WSqlParser *p)
{
    AstStmt *s = new_stmt(p, AS_STOP_JOB, ps_pos(p));
    ps_expect_kw(p, "STOP");
    ps_expect_kw(p, "JOB");
    s->job_id = ps_quoted(p);
    if (ps_kw_at(p, 0, "WITH") && ps_kw_at(p, 1, "SAVEPOINT")) {
        ps_next(p);
        ps_next(p);
        s->with_savepoint = true;
    }
    if (ps_kw_at(p, 0, "WITH") && ps_kw_at(p, 1, "DRAIN")) {
        ps_next(p);
        ps_next(p);
        s->with_drain = true;
    }
    return s;
}

/* ---- dispatch ---- */

static bool sole_word(WSqlParser *p, const char *w)
{
    return ps_word_at(p, 0, w)
        && (ps_at(p, 1, TK_EOF) || (ps_at(p, 1, TK_SEMICOLON) && ps_at(p, 2, TK_EOF)));
}

/* a token that can only start a row expression (not a query) at statement level */
static bool starts_expression(WSqlParser *p)
{
    static const char *const KW[] = {
        "CASE", "CAST", "NULL", "TRUE", "FALSE", "UNKNOWN", "INTERVAL", "DATE", "TIME", "TIMESTAMP",
        "ROW", "ARRAY", "MAP", "EXISTS", "NOT", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP",
        "LOCALTIME", "LOCALTIMESTAMP", "EXTRACT", "POSITION", "SUBSTRING", "TRIM", "OVERLAY", "FLOOR",
        "CEIL", "CEILING", "USER", "CURRENT_USER",
    };
    WSqlToken *t = ps_cur(p);
    switch (t->kind) {
    case TK_INTEGER: case TK_DECIMAL: case TK_APPROX: case TK_STRING: case TK_USTRING:
    case TK_BINSTRING: case TK_QIDENT: case TK_MINUS: case TK_PLUS: case TK_HOOK:
        return true;
    case TK_IDENT:
        if (!t->kw || !t->kw->reserved) return true;
        for (size_t i = 0; i < sizeof KW / sizeof KW[0]; i++)
            if (strcmp(t->kw->word, KW[i]) == 0) return true;
        return false;
    default:
        return false;
    }
}

static AstStmt *statement(WSqlParser *p)
{
    AstPos pos = ps_pos(p);
    if (sole_word(p, "HELP")) { ps_next(p); return new_stmt(p, AS_HELP, pos); }
    if (sole_word(p, "QUIT") || sole_word(p, "EXIT")) { ps_next(p); return new_stmt(p, AS_QUIT, pos); }
    if (sole_word(p, "CLEAR")) { ps_next(p); return new_stmt(p, AS_CLEAR, pos); }
    if (ps_is_kw(p, "INSERT") || ps_is_kw(p, "UPSERT")) return insert_stmt(p);
    if (ps_is_kw(p, "BEGIN")) {
        ps_next(p);
        ps_expect_kw(p, "STATEMENT");
        ps_expect_kw(p, "SET");
        return new_stmt(p, AS_BEGIN_STATEMENT_SET, pos);
    }
    if (ps_is_kw(p, "END")) { ps_next(p); return new_stmt(p, AS_END, pos); }
    if (ps_is_kw(p, "SHOW")) return show_stmt(p);
    if (ps_is_kw(p, "USE")) return use_stmt(p);
    if (ps_is_kw(p, "ALTER")) return alter_stmt(p);
    if (ps_is_kw(p, "DESCRIBE") || ps_is_kw(p, "DESC")) return describe_stmt(p);
    if (ps_is_kw(p, "EXPLAIN")) return explain_stmt(p);
    if (ps_is_kw(p, "COMPILE") && (ps_kw_at(p, 1, "PLAN") || ps_kw_at(p, 1, "AND"))) return compile_stmt(p);
    if (ps_is_kw(p, "EXECUTE")) return execute_stmt(p);
    if (ps_is_kw(p, "ADD") && ps_kw_at(p, 1, "JAR")) {
        ps_next(p);
        ps_next(p);
        AstStmt *s = new_stmt(p, AS_ADD_JAR, pos);
        s->value = ps_quoted(p);
        return s;
    }
    if (ps_is_kw(p, "REMOVE") && ps_kw_at(p, 1, "JAR")) {
        ps_next(p);
        ps_next(p);
        AstStmt *s = new_stmt(p, AS_REMOVE_JAR, pos);
        s->value = ps_quoted(p);
        return s;
    }
    if ((ps_is_kw(p, "LOAD") || ps_is_kw(p, "UNLOAD")) && ps_word_at(p, 1, "MODULE")) {
        AstStmt *s = new_stmt(p, ps_is_kw(p, "LOAD") ? AS_LOAD_MODULE : AS_UNLOAD_MODULE, pos);
        ps_next(p);
        ps_next(p);
        s->target.n = 1;
        s->target.pos = ps_pos(p);
        s->target.parts = WA_ARRAY(p->a, char *, 1);
        s->target.parts[0] = ps_ident(p);
        if (s->kind == AS_LOAD_MODULE && ps_accept_kw(p, "WITH")) options_list(p, s);
        return s;
    }
    if (ps_is_kw(p, "ANALYZE") && ps_kw_at(p, 1, "TABLE")) return other(p, pos, "ANALYZE TABLE");
    if (ps_is_kw(p, "STOP") && ps_kw_at(p, 1, "JOB")) return stop_job(p);
    if (ps_is_kw(p, "SET")) return set_stmt(p);
    if (ps_is_kw(p, "RESET")) return reset_stmt(p);
    if (ps_is_kw(p, "CREATE")) return create_stmt(p);
    if (ps_is_kw(p, "DROP")) return drop_stmt(p);
    if (ps_is_kw(p, "TRUNCATE") && ps_kw_at(p, 1, "TABLE")) return other(p, pos, "TRUNCATE TABLE");
    if (ps_is_kw(p, "DELETE")) return other(p, pos, "DELETE");
    if (ps_is_kw(p, "UPDATE")) return other(p, pos, "UPDATE");
    if (ps_is_kw(p, "CALL")) return other(p, pos, "CALL");
    if (ps_is_kw(p, "REPLACE") && ps_kw_at(p, 1, "TABLE")) return other(p, pos, "REPLACE TABLE AS");
    (void)ps_is_kw(p, "MERGE");
    (void)ps_is_kw(p, "TABLE");
    (void)ps_is_kw(p, "WITH");
    (void)ps_is_kw(p, "SELECT");
    (void)ps_is_kw(p, "VALUES");
    (void)ps_is(p, TK_LPAREN);
    if (ps_is_query_start(p, 0) || ps_kw_at(p, 0, "TABLE")) {
        AstStmt *s = new_stmt(p, AS_QUERY, pos);
        s->query = ps_query(p);
        return s;
    }
    if (starts_expression(p)) {
        /* Calcite parses a row expression here and then rejects it */
        ps_fail_calcite(p, ps_cur(p), "Non-query expression encountered in illegal context");
    }
    ps_fail_statement_start(p, p->pos);
}

/* ---- entry points ---- */

static bool setup(WSqlParser *p, WArena *a, const char *sql, WError *err)
{
    memset(p, 0, sizeof *p);
    p->a = a;
    p->src = sql ? sql : "";
    p->srclen = (int)strlen(p->src);
    p->err = err;
    p->exp_pos = -1;
    p->values_row_pos = p->cont_pos = p->start_pos = p->sorted_start_pos = p->comma_pos = p->look_pos = p->escape_pos = p->dot_pos = p->name_end_pos = p->join_pos = p->hint_pos = -1;
    p->stmt_start_pos = p->op3_pos = -1;
    WSqlTokens toks;
    if (!wsql_lex(a, p->src, p->srclen, &toks, err)) return false;
    p->t = toks.t;
    p->n = toks.n;
    return true;
}

static char *trimmed_text(WSqlParser *p)
{
    const char *s = p->src;
    int b = 0, e = p->srclen;
    while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\n' || s[b] == '\r' || s[b] == '\f')) b++;
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\n' || s[e - 1] == '\r' || s[e - 1] == '\f'))
        e--;
    /* drop the trailing ';' when it is the statement's terminator token */
    if (p->n >= 2 && p->t[p->n - 2].kind == TK_SEMICOLON && e > b && s[e - 1] == ';'
        && p->t[p->n - 2].start == s + e - 1) {
        e--;
        while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\n' || s[e - 1] == '\r'
                         || s[e - 1] == '\f'))
            e--;
    }
    return wa_strndup(p->a, s + b, (size_t)(e - b));
}

AstStmt *wsql_parse_statement(WArena *a, const char *sql, WError *err)
{
    return wsql_parse_statement_ex(a, sql, err, NULL);
}

/* SqlParseException.getExpectedTokenNames of the syntax error p reported: the last token of each
   of the longest expected sequences */
static void report_expected(WSqlParser *p, WSqlExpected *exp)
{
    int maxlen = 0;
    for (int i = 0; i < p->failed.n; i++)
        if (p->failed.v[i].n > maxlen) maxlen = p->failed.v[i].n;
    exp->names = p->failed.n ? WA_ARRAY(p->a, const char *, p->failed.n) : NULL;
    exp->n = 0;
    for (int i = 0; i < p->failed.n; i++)
        if (p->failed.v[i].n == maxlen) exp->names[exp->n++] = p->failed.v[i].tok[maxlen - 1];
}

AstStmt *wsql_parse_statement_ex(WArena *a, const char *sql, WError *err, WSqlExpected *exp)
{
    /* in the arena: its fields change between setjmp and longjmp */
    WSqlParser *p = WA_NEW(a, WSqlParser);
    if (exp) memset(exp, 0, sizeof *exp);
    if (!setup(p, a, sql, err)) return NULL;
    if (setjmp(p->jb)) {
        if (exp) report_expected(p, exp);
        return NULL;
    }
    AstStmt *s = statement(p);
    int extra = 0;
    /* more statements after ';' parse like Flink's parseSqlList, then are refused */
    while (ps_accept(p, TK_SEMICOLON)) {
        if (ps_at(p, 0, TK_EOF) || ps_at(p, 0, TK_SEMICOLON)) continue;
        (void)statement(p);
        extra++;
    }
    if (!ps_is(p, TK_EOF)) ps_fail(p);
    if (extra) {
        werr_set(err, WEXC_ILLEGAL_ARG, "only single statement supported");
        return NULL;
    }
    s->sql = trimmed_text(p);
    return s;
}

AstExpr *wsql_parse_expression(WArena *a, const char *sql, WError *err)
{
    WSqlParser p;
    if (!setup(&p, a, sql, err)) return NULL;
    if (setjmp(p.jb)) return NULL;
    AstExpr *e = ps_expr(&p);
    if (!ps_is(&p, TK_EOF)) ps_fail(&p);
    return e;
}

AstType *wsql_parse_type(WArena *a, const char *sql, WError *err)
{
    WSqlParser p;
    if (!setup(&p, a, sql, err)) return NULL;
    if (setjmp(p.jb)) return NULL;
    AstType *t = ps_type(&p);
    if (!ps_is(&p, TK_EOF)) ps_fail(&p);
    return t;
}
