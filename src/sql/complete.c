/*
 * complete.c — Flink's statement completion (ParserImpl.getCompletionHints): the client commands,
 * then Calcite's SqlAdvisor, over weir's parser.
 *
 * Contract (complete.h): the advisor's steps, as Calcite 1.x does them for Flink 2.3.0:
 *   1. the word around the cursor (Java identifier characters, an opening back-tick) is cut out of
 *      the text; the part before the cursor filters the result (case-insensitive unless it mixes
 *      cases, compared with the last part of each candidate's name);
 *   2. SqlSimpleParser puts the hint identifier `_suggest_` at the cursor and simplifies the text:
 *      words and parentheses grouped into (sub-)queries, then the clauses of the query holding the
 *      hint that do not matter for it purged (a select list cut to the hint's item, a FROM clause
 *      to the hint's table, WHERE / GROUP BY / ORDER BY dropped, ...);
 *   3. the simplified text is parsed; a syntax error gives its expected keywords and symbols (the
 *      last tokens of the longest `Was expecting` sequences in quotes, sorted) and ends there; another
 *      error gives nothing;
 *   4. it is parsed again with the character BEL in front of the hint: the keywords and symbols
 *      expected there, sorted (`*` only where the hint is a select-list item);
 *   5. the identifiers in scope (SqlValidatorImpl.lookupHints, for a SELECT only): where a table
 *      name goes, the catalogs, databases and tables under the current catalog.database, the
 *      current catalog and the root; in an expression (not GROUP BY / HAVING / USING, where Calcite
 *      registers no identifier), the aliases of the FROM items of its select and of the selects
 *      enclosing it through expression sub-queries and, when its select has one item, that item's
 *      columns (after `alias.`, that item's columns); sorted by kind (column, table, schema) then
 *      name, as fully qualified names.
 * Statements other than queries and INSERT, where the parse succeeds, make Flink's validator fail
 * (an AssertionError, a 500 answer): -1 here. Depends on complete.h, parser.h, common/.
 */
#include "complete.h"

#include <assert.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "../common/sort.h"
#include "../common/strbuf.h"
#include "parser.h"

#define HINT "_suggest_"

/* ---- SqlSimpleParser ---- */

typedef enum STok {
    S_SELECT, S_FROM, S_JOIN, S_ON, S_USING, S_WHERE, S_GROUP, S_HAVING, S_ORDER, S_BY,
    S_UNION, S_INTERSECT, S_EXCEPT, S_MINUS, S_LPAREN, S_RPAREN, S_ID, S_DQID, S_SQID, S_COMMENT,
    S_COMMA, S_QUERY, S__COUNT, S_NONE = -1
} STok;

/* the token types by name: a word spelling one of them (any case) is that token, as in Calcite */
static const char *const S_NAMES[S__COUNT] = {
    "SELECT", "FROM", "JOIN", "ON", "USING", "WHERE", "GROUP", "HAVING", "ORDER", "BY",
    "UNION", "INTERSECT", "EXCEPT", "MINUS", "LPAREN", "RPAREN", "ID", "DQID", "SQID", "COMMENT",
    "COMMA", "QUERY",
};

typedef struct SNode SNode;
typedef struct SList { SNode **v; int n, cap; } SList;
struct SNode {
    STok t;
    const char *s;      /* the text of an identifier / literal; NULL for a keyword token */
    SList q;            /* S_QUERY: its tokens */
    int at;             /* byte offset in the simplified text */
};

typedef struct Simp {
    WArena *a;
    SNode *hint_query;  /* the query holding the hint directly, and the clause it is in */
    STok hint_clause;
} Simp;

static void sl_push(WArena *a, SList *l, SNode *x)
{
    if (l->n == l->cap) {
        int ncap = l->cap ? l->cap * 2 : 16;
        SNode **nv = WA_ARRAY(a, SNode *, ncap);
        if (l->n) memcpy(nv, l->v, sizeof(SNode *) * (size_t)l->n);
        l->v = nv;
        l->cap = ncap;
    }
    l->v[l->n++] = x;
}

/* replaces l[from, to) with the n nodes of r */
static void sl_splice(WArena *a, SList *l, int from, int to, SNode *const *r, int n)
{
    assert(from >= 0 && from <= to && to <= l->n);
    SList nl = {0};
    for (int i = 0; i < from; i++) sl_push(a, &nl, l->v[i]);
    for (int i = 0; i < n; i++) sl_push(a, &nl, r[i]);
    for (int i = to; i < l->n; i++) sl_push(a, &nl, l->v[i]);
    *l = nl;
}

static SNode *snode(WArena *a, STok t, const char *s)
{
    SNode *n = WA_NEW(a, SNode);
    n->t = t;
    n->s = s;
    return n;
}

static bool is_hint(const SNode *n) { return n->t == S_ID && n->s && strcmp(n->s, HINT) == 0; }

/* Java's Character.isWhitespace for the characters a statement holds */
static bool java_space(unsigned char c) { return c == ' ' || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f); }

static int line_end(const char *s, int n, int i)
{
    while (i < n && s[i] != '\r' && s[i] != '\n') i++;
    return i;
}

/* the tokens of Calcite's SqlSimpleParser.Tokenizer (back-tick quoting), comments dropped */
static void tokenize(WArena *a, const char *s, int n, SList *out)
{
    int pos = 0;
    while (pos < n) {
        char c = s[pos];
        if (c == ',') { pos++; sl_push(a, out, snode(a, S_COMMA, NULL)); continue; }
        if (c == '(') { pos++; sl_push(a, out, snode(a, S_LPAREN, NULL)); continue; }
        if (c == ')') { pos++; sl_push(a, out, snode(a, S_RPAREN, NULL)); continue; }
        if (c == '\'') {
            int start = pos++;
            while (pos < n) {
                char d = s[pos++];
                if (d == '\'') {
                    if (pos < n && s[pos] == '\'') pos++;
                    else break;
                }
            }
            sl_push(a, out, snode(a, S_SQID, wa_strndup(a, s + start, (size_t)(pos - start))));
            continue;
        }
        if (c == '/' && pos + 1 < n && s[pos + 1] == '*') {
            const char *e = strstr(s + pos + 2, "*/");
            pos = e && e < s + n ? (int)(e - s) + 2 : n;
            continue;
        }
        if (c == '/' && pos + 1 < n && s[pos + 1] == '/') { pos = line_end(s, n, pos + 2); continue; }
        if (c == '-' && pos + 1 < n && s[pos + 1] == '-') { pos = line_end(s, n, pos + 2); continue; }
        if (c == '`') {
            int start = pos++;
            while (pos < n) {
                char d = s[pos++];
                if (d == '`') {
                    if (pos < n && s[pos] == '`') { pos++; continue; }
                    break;
                }
            }
            char *m = wa_strndup(a, s + start, (size_t)(pos - start));
            if (strncmp(m, "` " HINT " ", strlen(HINT) + 3) == 0) sl_push(a, out, snode(a, S_ID, HINT));
            else sl_push(a, out, snode(a, S_DQID, m));
            continue;
        }
        if (java_space((unsigned char)c)) { pos++; continue; }
        int start = pos++;
        while (pos < n) {
            char d = s[pos];
            if (d == '(' || d == ')' || d == '/' || d == ',' || d == '\'' || d == '`' || java_space((unsigned char)d)) break;
            if (d == '-' && pos + 1 < n && s[pos + 1] == '-') break;
            pos++;
        }
        char *w = wa_strndup(a, s + start, (size_t)(pos - start));
        STok t = S_NONE;
        for (int k = 0; k < S__COUNT; k++)
            if (strcasecmp(w, S_NAMES[k]) == 0) t = (STok)k;
        sl_push(a, out, t == S_NONE ? snode(a, S_ID, w) : snode(a, t, NULL));
    }
}

static void consume_query(WArena *a, const SList *in, int *i, SList *out);

static bool is_setop(STok t) { return t == S_UNION || t == S_INTERSECT || t == S_EXCEPT || t == S_MINUS; }

static void consume_select(WArena *a, const SList *in, int *i, SList *out)
{
    bool is_query = false;
    SList sub = {0};
    while (*i < in->n) {
        SNode *t = in->v[(*i)++];
        sl_push(a, &sub, t);
        if (t->t == S_LPAREN) {
            consume_query(a, in, i, &sub);
        } else if (t->t == S_RPAREN) {
            if (is_query) sub.n--;
            break;
        } else if (t->t == S_SELECT) {
            is_query = true;
        } else if (is_setop(t->t)) {
            sub.n--;
            (*i)--;
            break;
        }
    }
    if (is_query) {
        SNode *q = snode(a, S_QUERY, NULL);
        q->q = sub;
        sl_push(a, out, q);
        if (out->n >= 2 && out->v[out->n - 2]->t == S_LPAREN) sl_push(a, out, snode(a, S_RPAREN, NULL));
    } else {
        for (int k = 0; k < sub.n; k++) sl_push(a, out, sub.v[k]);
    }
}

static void consume_query(WArena *a, const SList *in, int *i, SList *out)
{
    while (*i < in->n) {
        consume_select(a, in, i, out);
        if (*i < in->n) {
            SNode *t = in->v[(*i)++];
            if (!is_setop(t->t)) {
                (*i)--;
                return;
            }
            sl_push(a, out, t);
            if (*i < in->n) {
                t = in->v[(*i)++];
                if (t->t == S_ID && strcasecmp(t->s, "ALL") == 0) sl_push(a, out, t);
                else (*i)--;
            }
        }
    }
}

static bool q_contains(const SNode *q)
{
    for (int i = 0; i < q->q.n; i++) {
        const SNode *t = q->q.v[i];
        if (is_hint(t) || (t->t == S_QUERY && q_contains(t))) return true;
    }
    return false;
}

static bool is_clause(STok t)
{
    return t == S_SELECT || t == S_FROM || t == S_WHERE || t == S_GROUP || t == S_HAVING || t == S_ORDER;
}

/* Query.findClauseOrNull: [*from, *to) of the clause starting with kw; false when there is none */
static bool find_clause(const SNode *q, STok kw, int *from, int *to)
{
    int start = -1;
    for (int k = 0; k < q->q.n; k++) {
        STok t = q->q.v[k]->t;
        if (t == kw) start = k;
        else if (start >= 0 && is_clause(t)) {
            *from = start;
            *to = k;
            return true;
        }
    }
    if (start < 0) return false;
    *from = start;
    *to = q->q.n;
    return true;
}

static void purge_clause(WArena *a, SNode *q, STok kw)
{
    int f, t;
    if (find_clause(q, kw, &f, &t)) sl_splice(a, &q->q, f, t, NULL, 0);
}

static void purge_select(WArena *a, SNode *q)
{
    int f, t;
    if (!find_clause(q, S_SELECT, &f, &t)) return;
    SNode *r[2] = {q->q.v[f], snode(a, S_ID, "*")};
    sl_splice(a, &q->q, f, t, r, 2);
}

static void purge_select_list_except(WArena *a, SNode *q)
{
    int f, t;
    if (!find_clause(q, S_SELECT, &f, &t)) return;
    int depth = 0, item_start = 1, item_end = -1;
    bool found = false;
    for (int i = 0; i < t - f; i++) {
        const SNode *x = q->q.v[f + i];
        if (x->t == S_LPAREN) depth++;
        else if (x->t == S_RPAREN) depth--;
        else if (x->t == S_COMMA && depth == 0) {
            /* Calcite's `break` leaves the switch only: the last comma after the hint ends the item */
            if (found) item_end = i;
            else item_start = i + 1;
        } else if (is_hint(x)) found = true;
    }
    if (!found) return;
    if (item_end < 0) item_end = t - f;
    SList r = {0};
    sl_push(a, &r, q->q.v[f]);
    for (int i = item_start; i < item_end; i++) sl_push(a, &r, q->q.v[f + i]);
    sl_splice(a, &q->q, f, t, r.v, r.n);
}

static void purge_from_except(WArena *a, SNode *q)
{
    int f, t;
    if (!find_clause(q, S_FROM, &f, &t)) return;
    int item_start = -1, item_end = -1, joins = 0;
    bool found = false;
    for (int i = 0; i < t - f; i++) {
        const SNode *x = q->q.v[f + i];
        if (x->t == S_QUERY && q_contains(x)) found = true;
        else if (x->t == S_JOIN || x->t == S_FROM || x->t == S_ON || x->t == S_COMMA) {
            if (x->t == S_JOIN) joins++;
            if (found) item_end = i;
            else item_start = i + 1;
        } else if (is_hint(x)) found = true;
    }
    if (found && joins == 0) {
        if (item_end < 0) item_end = t - f;
        SList r = {0};
        sl_push(a, &r, q->q.v[f]);
        for (int i = item_start; i < item_end; i++) sl_push(a, &r, q->q.v[f + i]);
        sl_splice(a, &q->q, f, t, r.v, r.n);
        t = f + r.n;
    }
    if (q->q.v[t - 1]->t == S_ON) {
        SNode *r[1] = {snode(a, S_ID, "TRUE")};
        sl_splice(a, &q->q, t, t, r, 1);
    }
}

static void simplify(Simp *sp, SNode *q, bool hint)
{
    WArena *a = sp->a;
    STok clause = S_SELECT, found = S_NONE, major = S_NONE;
    SNode *found_sub = NULL;
    if (hint) {
        for (int i = 0; i < q->q.n; i++) {
            SNode *t = q->q.v[i];
            switch (t->t) {
            case S_ID:
                if (is_hint(t)) {
                    found = clause;
                    sp->hint_query = q;
                    sp->hint_clause = clause;
                }
                break;
            case S_SELECT: case S_FROM: case S_WHERE: case S_GROUP: case S_HAVING: case S_ORDER:
                major = t->t;
                clause = t->t;
                break;
            case S_JOIN: case S_USING: case S_ON: clause = t->t; break;
            case S_COMMA:
                if (major == S_FROM) clause = S_FROM;
                break;
            case S_QUERY:
                if (q_contains(t)) {
                    found = clause;
                    found_sub = t;
                }
                break;
            default: break;
            }
        }
    } else {
        found = S_QUERY;
    }
    switch (found) {
    case S_SELECT:
        purge_select_list_except(a, q);
        purge_clause(a, q, S_WHERE);
        purge_clause(a, q, S_ORDER);
        break;
    case S_FROM:
    case S_JOIN:
        purge_select(a, q);
        purge_from_except(a, q);
        purge_clause(a, q, S_WHERE);
        purge_clause(a, q, S_GROUP);
        purge_clause(a, q, S_HAVING);
        purge_clause(a, q, S_ORDER);
        break;
    case S_ON:
    case S_USING:
    case S_GROUP:
    case S_HAVING:
        purge_select(a, q);
        purge_clause(a, q, S_WHERE);
        purge_clause(a, q, S_ORDER);
        break;
    case S_WHERE:
        purge_select(a, q);
        purge_clause(a, q, S_GROUP);
        purge_clause(a, q, S_HAVING);
        purge_clause(a, q, S_ORDER);
        break;
    case S_ORDER: purge_clause(a, q, S_WHERE); break;
    case S_QUERY:
        purge_clause(a, q, S_WHERE);
        purge_clause(a, q, S_GROUP);
        purge_clause(a, q, S_HAVING);
        break;
    default: break;
    }
    for (int i = 0; i < q->q.n; i++)
        if (q->q.v[i]->t == S_QUERY) simplify(sp, q->q.v[i], q->q.v[i] == found_sub);
}

static const char *tok_sql(const SNode *t)
{
    if (t->s) return t->s;
    if (t->t == S_LPAREN) return "(";
    if (t->t == S_RPAREN) return ")";
    if (t->t == S_COMMA) return ",";
    return S_NAMES[t->t];
}

/* the simplified text: tokens joined by a space, each token's offset noted */
static void unparse(WStrBuf *b, SList *l)
{
    for (int i = 0; i < l->n; i++) {
        SNode *t = l->v[i];
        if (i) wsb_putc(b, ' ');
        t->at = (int)b->len;
        if (t->t == S_QUERY) unparse(b, &t->q);
        else wsb_append(b, tok_sql(t));
    }
}

/* ---- SqlMoniker: a kind and a name path, ordered by kind then names (SqlMoniker.COMPARATOR) ---- */

typedef enum MkType { MK_COLUMN, MK_TABLE, MK_VIEW, MK_SCHEMA, MK_CATALOG, MK_REPOSITORY, MK_FUNCTION,
                      MK_KEYWORD } MkType;
typedef struct Mk { MkType type; int n; const char **names; } Mk;
typedef struct MkList { Mk *v; int n, cap; } MkList;

static int mk_cmp(const void *x, const void *y)
{
    const Mk *a = x, *b = y;
    if (a->type != b->type) return a->type < b->type ? -1 : 1;
    for (int i = 0; i < a->n && i < b->n; i++) {
        int c = strcmp(a->names[i], b->names[i]);
        if (c) return c;
    }
    return (a->n > b->n) - (a->n < b->n);
}

static void mk_add(WArena *a, MkList *l, MkType type, const char *const *names, int n, bool set)
{
    Mk m = {type, n, WA_ARRAY(a, const char *, n > 0 ? n : 1)};
    for (int i = 0; i < n; i++) m.names[i] = names[i];
    if (set)
        for (int i = 0; i < l->n; i++)
            if (mk_cmp(&l->v[i], &m) == 0) return;
    if (l->n == l->cap) {
        int ncap = l->cap ? l->cap * 2 : 32;
        Mk *nv = WA_ARRAY(a, Mk, ncap);
        if (l->n) memcpy(nv, l->v, sizeof(Mk) * (size_t)l->n);
        l->v = nv;
        l->cap = ncap;
    }
    l->v[l->n++] = m;
}

static void mk_add1(WArena *a, MkList *l, MkType type, const char *name, bool set)
{
    mk_add(a, l, type, &name, 1, set);
}

/* ---- the advisor ---- */

typedef struct Adv {
    WArena *a;
    const WSqlCatalogView *cv;
    MkList hints;       /* parser keywords, in order */
    MkList ids;         /* the validator's identifiers (a sorted set) */
} Adv;

static int str_cmp(const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); }

/* SqlAdvisor.tryParse on a syntax error: the expected tokens in quotes (SqlParseException's
   getExpectedTokenNames, a sorted set) */
static void add_expected(Adv *ad, const WSqlExpected *e)
{
    if (e->n == 0) return;
    const char **v = WA_ARRAY(ad->a, const char *, e->n);
    memcpy(v, e->names, sizeof(char *) * (size_t)e->n);
    wqsort(v, (size_t)e->n, sizeof(char *), str_cmp);
    for (int i = 0; i < e->n; i++) {
        size_t len = strlen(v[i]);
        if (i > 0 && strcmp(v[i], v[i - 1]) == 0) continue;
        if (len <= 2 || v[i][0] != '"' || v[i][len - 1] != '"') continue;
        /* weir's parser reads a statement list (";" may follow a statement); the advisor's
           parseSqlStmtEof expects the end of the text there */
        if (strcmp(v[i], "\";\"") == 0) continue;
        mk_add1(ad->a, &ad->hints, MK_KEYWORD, wa_strndup(ad->a, v[i] + 1, len - 2), false);
    }
}

/* SqlValidatorUtil.getSchemaObjectMonikers: the objects under current catalog.database + qual,
   current catalog + qual and qual */
static void schema_objects(Adv *ad, const char *const *qual, int nqual)
{
    const WSqlCatalogView *cv = ad->cv;
    for (int p = 0; p < 3; p++) {
        int np = 2 - p;
        if (np + nqual > 2) continue;   /* no schema is deeper than catalog.database */
        const char *path[2];
        int n = 0;
        if (np >= 1) path[n++] = cv->catalog;
        if (np >= 2) path[n++] = cv->database;
        for (int i = 0; i < nqual; i++) path[n++] = qual[i];
        char **kids = NULL;
        int nk = cv->names(cv->ctx, ad->a, path, n, &kids);
        if (nk < 0) continue;
        if (n > 0) mk_add(ad->a, &ad->ids, MK_SCHEMA, path, n, true);
        for (int k = 0; k < nk; k++) {
            const char *full[3];
            for (int i = 0; i < n; i++) full[i] = path[i];
            full[n] = kids[k];
            mk_add(ad->a, &ad->ids, n == 2 ? MK_TABLE : MK_SCHEMA, full, n + 1, true);
        }
    }
}

/* the FROM items of a scope, joins flattened */
typedef struct Leaf { const char *alias; const AstFrom *f; } Leaf;
typedef struct Leaves { Leaf v[64]; int n; } Leaves;

static void leaves(const AstFrom *f, Leaves *out)
{
    if (!f) return;
    if (f->kind == AFR_JOIN) {
        leaves(f->left, out);
        leaves(f->right, out);
        return;
    }
    if (out->n == (int)(sizeof out->v / sizeof out->v[0])) return;
    const char *alias = f->alias;
    if (!alias && f->kind == AFR_TABLE && f->name.n > 0) alias = f->name.parts[f->name.n - 1];
    out->v[out->n].alias = alias;
    out->v[out->n++].f = f;
}

/* the columns a FROM item gives its scope */
static void leaf_columns(Adv *ad, const Leaf *l)
{
    const AstFrom *f = l->f;
    if (f->ncol_aliases > 0) {
        for (int i = 0; i < f->ncol_aliases; i++) mk_add1(ad->a, &ad->ids, MK_COLUMN, f->col_aliases[i], true);
        return;
    }
    if (f->kind == AFR_TABLE) {
        char **cols = NULL;
        int nc = ad->cv->columns(ad->cv->ctx, ad->a, (const char *const *)f->name.parts, f->name.n, &cols);
        for (int i = 0; i < nc; i++) mk_add1(ad->a, &ad->ids, MK_COLUMN, cols[i], true);
    } else if (f->kind == AFR_SUBQUERY && f->subquery && f->subquery->kind == AQ_SELECT) {
        const AstQuery *q = f->subquery;
        for (int i = 0; i < q->nitems; i++) {
            const AstSelectItem *it = &q->items[i];
            const char *name = it->alias;
            if (!name && it->expr->kind == AE_COLUMN && it->expr->name.n > 0)
                name = it->expr->name.parts[it->expr->name.n - 1];
            if (name) mk_add1(ad->a, &ad->ids, MK_COLUMN, name, true);
        }
    }
}

/* the SELECT whose keyword is at column col of line 1 (the innermost one of that position), and
   the selects whose scopes enclose its own (through sub-queries in expressions) */
typedef struct Found {
    int col;
    const AstQuery *sel;
    const AstQuery *outer[16];
    int nouter;
    const AstQuery *stack[16];   /* while searching */
    int nstack;
} Found;

/* SqlValidatorImpl.lookupNameCompletionHints for an identifier qual._suggest_ in the select fd
   found: the aliases of its FROM items and of the enclosing scopes, the columns of its only item;
   after a qualifier the columns of the item it names */
static void name_hints(Adv *ad, const Found *fd, const char *const *qual, int nqual)
{
    Leaves ls = {0};
    leaves(fd->sel->from, &ls);
    int own = ls.n;
    for (int k = fd->nouter - 1; k >= 0; k--) leaves(fd->outer[k]->from, &ls);
    if (nqual == 0) {
        for (int i = 0; i < ls.n; i++)
            if (ls.v[i].alias) mk_add1(ad->a, &ad->ids, MK_TABLE, ls.v[i].alias, true);
        /* the columns when the enclosing SELECT's scope has one child */
        if (own == 1) leaf_columns(ad, &ls.v[0]);
    } else if (nqual == 1) {
        for (int i = 0; i < ls.n; i++)
            if (ls.v[i].alias && strcmp(ls.v[i].alias, qual[0]) == 0) {
                leaf_columns(ad, &ls.v[i]);
                break;
            }
    }
}


static void find_select(const AstQuery *q, Found *fd);

static void find_select_expr(const AstExpr *e, Found *fd)
{
    if (!e) return;
    if (e->subquery) find_select(e->subquery, fd);
    for (int i = 0; i < e->nargs; i++) find_select_expr(e->args[i], fd);
}

static void find_select_from(const AstFrom *f, Found *fd)
{
    if (!f) return;
    if (f->kind == AFR_JOIN) {
        find_select_from(f->left, fd);
        find_select_from(f->right, fd);
    } else if (f->kind == AFR_SUBQUERY && f->subquery) {
        find_select(f->subquery, fd);
    }
}

/* the expressions of select q in which a sub-query sees q's scope */
static void find_select_in_exprs(const AstQuery *q, Found *fd)
{
    if (fd->nstack == (int)(sizeof fd->stack / sizeof fd->stack[0])) return;
    fd->stack[fd->nstack++] = q;
    for (int i = 0; i < q->nitems; i++) find_select_expr(q->items[i].expr, fd);
    find_select_expr(q->where, fd);
    find_select_expr(q->having, fd);
    for (const AstFrom *f = q->from; f && f->kind == AFR_JOIN; f = f->left) find_select_expr(f->on, fd);
    fd->nstack--;
}

static void find_select(const AstQuery *q, Found *fd)
{
    if (!q) return;
    for (int i = 0; i < q->nctes; i++) find_select(q->ctes[i].query, fd);
    if (q->kind == AQ_SELECT) {
        if (q->pos.line == 1 && q->pos.col == fd->col) {
            fd->sel = q;
            fd->nouter = fd->nstack;
            memcpy(fd->outer, fd->stack, sizeof(fd->stack[0]) * (size_t)fd->nstack);
        }
        find_select_from(q->from, fd);   /* a FROM sub-query does not see q's scope */
        find_select_in_exprs(q, fd);
    } else if (q->kind == AQ_SETOP) {
        find_select(q->left, fd);
        find_select(q->right, fd);
    }
}

/* the UTF-16 length of s[0, n) */
static int utf16_len(const char *s, int n)
{
    int u = 0;
    for (int i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c & 0xC0) == 0x80) continue;
        u += c >= 0xF0 ? 2 : 1;
    }
    return u;
}

/* the byte offset of UTF-16 position pos in s (its length when pos is beyond it) */
static int byte_offset(const char *s, int pos)
{
    int u = 0, i = 0;
    while (s[i] && u < pos) {
        unsigned char c = (unsigned char)s[i];
        u += c >= 0xF0 ? 2 : 1;
        i++;
        while (((unsigned char)s[i] & 0xC0) == 0x80) i++;
    }
    return i;
}

/* Java's Character.isJavaIdentifierPart for a byte of UTF-8 text (a non-ASCII character counts as
   a letter) */
static bool ident_part(unsigned char c)
{
    return isalnum(c) || c == '_' || c == '$' || c >= 0x80 || c <= 0x08 || (c >= 0x0e && c <= 0x1b) || c == 0x7f;
}

/* the qualifier written before the hint in its query: `a.b. _suggest_` gives a, b */
static int hint_qualifier(WArena *a, const SNode *q, int at, const char ***out)
{
    *out = NULL;
    if (at == 0) return 0;
    const SNode *t = q->q.v[at - 1];
    if (t->t != S_ID || !t->s) return 0;
    size_t len = strlen(t->s);
    if (len < 2 || t->s[len - 1] != '.') return 0;
    const char **parts = WA_ARRAY(a, const char *, len);
    int n = 0;
    const char *p = t->s;
    while (*p) {
        const char *e = strchr(p, '.');
        if (!e) break;
        if (e > p + 1 && p[0] == '`' && e[-1] == '`') parts[n++] = wa_strndup(a, p + 1, (size_t)(e - p - 2));
        else parts[n++] = wa_strndup(a, p, (size_t)(e - p));
        p = e + 1;
    }
    *out = parts;
    return n;
}

/* the hint is where a table name goes: after FROM / JOIN / a comma of the FROM clause */
static bool table_position(const SNode *q, int at, int nqual)
{
    int k = at - 1 - (nqual > 0 ? 1 : 0);
    if (k < 0) return false;
    STok t = q->q.v[k]->t;
    return t == S_FROM || t == S_JOIN || t == S_COMMA;
}

static bool select_has_alias(const AstQuery *q, const char *alias)
{
    for (int i = 0; i < q->nitems; i++)
        if (q->items[i].alias && strcmp(q->items[i].alias, alias) == 0) return true;
    Leaves ls = {0};
    leaves(q->from, &ls);
    for (int i = 0; i < ls.n; i++)
        if (ls.v[i].f->alias && strcmp(ls.v[i].f->alias, alias) == 0) return true;
    return false;
}

/* SqlAdvisor.isSelectListItem: the hint is an item of the select list itself */
static bool select_list_item(const AstQuery *q)
{
    for (int i = 0; i < q->nitems; i++) {
        const AstExpr *e = q->items[i].expr;
        if (!q->items[i].alias && e && e->kind == AE_COLUMN && e->name.n > 0
            && strcmp(e->name.parts[e->name.n - 1], HINT) == 0)
            return true;
    }
    return false;
}

/* Flink's ParserImpl: the client commands (ExtendedParser's strategies) the trimmed, upper-cased
   text before the cursor is a proper prefix of */
static void client_commands(WArena *a, const char *sql, int cur, char ***out, int *n)
{
    static const char *const CMDS[] = {"CLEAR", "HELP", "EXIT", "QUIT", "RESET", "SET"};
    int b = 0, e = cur;
    while (b < e && (unsigned char)sql[b] <= ' ') b++;
    while (e > b && (unsigned char)sql[e - 1] <= ' ') e--;
    for (size_t i = 0; i < sizeof CMDS / sizeof CMDS[0]; i++) {
        size_t len = (size_t)(e - b);
        if (len < strlen(CMDS[i]) && strncasecmp(CMDS[i], sql + b, len) == 0) (*out)[(*n)++] = wa_strdup(a, CMDS[i]);
    }
}

static const char *mk_text(WArena *a, const Mk *m)
{
    WStrBuf b;
    wsb_init(&b);
    for (int i = 0; i < m->n; i++) {
        if (i) wsb_putc(&b, '.');
        wsb_append(&b, m->names[i][0] ? m->names[i] : "*");
    }
    char *s = wa_strdup(a, b.buf ? b.buf : "");
    wsb_free(&b);
    return s;
}

/* SqlAdvisor.getPreferredCasing: a word in one case matches either case */
static bool matches(const char *cand, const char *word)
{
    bool lower = false, upper = false;
    for (const char *p = word; *p; p++) {
        if (islower((unsigned char)*p)) lower = true;
        if (isupper((unsigned char)*p)) upper = true;
    }
    size_t n = strlen(word);
    if (strlen(cand) < n) return false;
    return lower && upper ? strncmp(cand, word, n) == 0 : strncasecmp(cand, word, n) == 0;
}

static bool fail500(WError *err, const char *why)
{
    werr_set(err, "java.lang.AssertionError", "%s", why);
    return false;
}

/* SqlAdvisor.getCompletionHints(sql, pos) on the simplified text: false where Flink's advisor throws */
static bool advise(Adv *ad, Simp *sp, const char *simple, WError *err)
{
    WArena *a = ad->a;
    const char *h = strstr(simple, HINT);
    if (!h) return true;
    int x = (int)(h - simple);
    WError perr;
    werr_clear(&perr);
    WSqlExpected exp;
    AstStmt *st = wsql_parse_statement_ex(a, simple, &perr, &exp);
    if (!st) {
        add_expected(ad, &exp);
        return true;
    }
    char *bel = wa_sprintf(a, "%.*s \a%s", x, simple, simple + x);
    werr_clear(&perr);
    AstStmt *st2 = wsql_parse_statement_ex(a, bel, &perr, &exp);
    if (!st2) add_expected(ad, &exp);

    /* the select the hint is in */
    Found fd;
    memset(&fd, 0, sizeof fd);
    int at = -1;
    if (sp->hint_query) {
        for (int i = 0; i < sp->hint_query->q.n && at < 0; i++)
            if (is_hint(sp->hint_query->q.v[i])) at = i;
        const SNode *kw = NULL;
        for (int i = 0; i < sp->hint_query->q.n && !kw; i++)
            if (sp->hint_query->q.v[i]->t == S_SELECT) kw = sp->hint_query->q.v[i];
        if (kw && (st->kind == AS_QUERY || st->kind == AS_INSERT)) {
            fd.col = utf16_len(simple, kw->at) + 1;
            find_select(st->query, &fd);
        }
    }
    const AstQuery *sel = fd.sel;
    if (!(sel && sp->hint_clause == S_SELECT && select_list_item(sel)))
        for (int i = 0; i < ad->hints.n; i++)
            if (ad->hints.v[i].n == 1 && strcmp(ad->hints.v[i].names[0], "*") == 0) {
                memmove(&ad->hints.v[i], &ad->hints.v[i + 1], sizeof(Mk) * (size_t)(ad->hints.n - i - 1));
                ad->hints.n--;
                break;
            }

    /* the validator's identifiers: for a SELECT statement only (lookupHints) */
    if (st->kind == AS_INSERT) return true;
    if (st->kind != AS_QUERY)
        return fail500(err, "Not a query: the statement at the cursor is no query (Flink's SQL advisor "
                            "fails on it)");
    const AstQuery *top = st->query;
    if (top->kind != AQ_SELECT || top->nctes > 0 || !sel || at < 0) return true;
    const char **qual = NULL;
    int nqual = hint_qualifier(a, sp->hint_query, at, &qual);
    STok c = sp->hint_clause;
    if (c == S_FROM || c == S_JOIN) {
        if (table_position(sp->hint_query, at, nqual)) schema_objects(ad, qual, nqual);
        return true;
    }
    /* GROUP BY / HAVING items and USING columns are not validated as identifiers (measured: no
       identifiers there) */
    if (c == S_USING || c == S_GROUP || c == S_HAVING || select_has_alias(sel, HINT)) return true;
    name_hints(ad, &fd, qual, nqual);
    return true;
}

int wsql_complete(WArena *a, const char *sql, int position, const WSqlCatalogView *cv, char ***out, WError *err)
{
    assert(a && sql && cv && out);
    *out = NULL;
    int len16 = utf16_len(sql, (int)strlen(sql));
    if (position < 0 || position > len16) {
        werr_set(err, "java.lang.StringIndexOutOfBoundsException", "begin 0, end %d, length %d", position, len16);
        return -1;
    }
    int cur = byte_offset(sql, position);
    int n = 0;
    char **res = NULL;

    /* 1. the word at the cursor */
    int ws = cur, we = cur, len = (int)strlen(sql);
    while (ws > 0 && ident_part((unsigned char)sql[ws - 1])) ws--;
    bool quoted = ws > 0 && sql[ws - 1] == '`';
    if (quoted) ws--;
    while (we < len && ident_part((unsigned char)sql[we])) we++;
    if (quoted && we < len && sql[we] == '`') we++;
    const char *word = wa_strndup(a, sql + ws + (quoted ? 1 : 0), (size_t)(cur - ws - (quoted ? 1 : 0)));
    char *rest = wa_sprintf(a, "%.*s%s", ws, sql, sql + we);

    /* 2. the simplified statement with the hint at the cursor */
    char *marked = ws >= (int)strlen(rest) ? wa_sprintf(a, "%s " HINT " ", rest)
                                           : wa_sprintf(a, "%.*s " HINT " %s", ws, rest, rest + ws);
    SList toks = {0}, list = {0};
    tokenize(a, marked, (int)strlen(marked), &toks);
    int i = 0;
    consume_query(a, &toks, &i, &list);
    Simp sp = {a, NULL, S_NONE};
    for (int k = 0; k < list.n; k++)
        if (list.v[k]->t == S_QUERY && q_contains(list.v[k])) {
            simplify(&sp, list.v[k], true);
            SNode *only = list.v[k];
            list.n = 0;
            sl_push(a, &list, only);
            break;
        }
    WStrBuf b;
    wsb_init(&b);
    unparse(&b, &list);
    char *simple = wa_strdup(a, b.buf ? b.buf : "");
    wsb_free(&b);

    /* 3-5. the advisor */
    Adv ad = {a, cv, {0}, {0}};
    if (!advise(&ad, &sp, simple, err)) return -1;
    if (ad.ids.n) wqsort(ad.ids.v, (size_t)ad.ids.n, sizeof(Mk), mk_cmp);

    res = WA_ARRAY(a, char *, 6 + ad.hints.n + ad.ids.n);
    client_commands(a, sql, cur, &res, &n);
    for (int pass = 0; pass < 2; pass++) {
        const MkList *l = pass ? &ad.ids : &ad.hints;
        for (int k = 0; k < l->n; k++) {
            const Mk *m = &l->v[k];
            if (*word && !matches(m->names[m->n - 1], word)) continue;
            res[n++] = (char *)mk_text(a, m);
        }
    }
    *out = res;
    return n;
}
