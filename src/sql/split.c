/*
 * split.c — splitting a script into statements and telling whether typed text is complete, the
 * way Flink's SQL client does it.
 *
 * Contract: a ';' ends a statement unless it is inside a 'string', a `name`, a dash-dash line
 * comment or a slash-star comment (hints included). Inside a STATEMENT SET BEGIN ... block only the
 * ';' after a lone END ends the statement. A piece starts at its first non-blank character (a
 * leading comment belongs to the statement, so error lines count from there), keeps its text
 * without the ';' and trailing blanks, and pieces holding only blanks and comments are dropped.
 * One linear pass; no allocation besides the result array. wsql_is_complete follows Flink's client
 * instead: it lexes the text and looks at the last token. Depends on parser.h, lexer.h.
 */
#include "parser.h"
#include "lexer.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

typedef struct Scan {
    const char *s;
    int n;
    /* current piece */
    int start;          /* byte offset of the first non-blank char, -1 if none yet */
    int start_line;
    bool content;       /* saw something besides blanks and comments */
    /* statement-set tracking */
    char w[3][12];      /* the last three words of the piece (upper case, truncated) */
    bool block;         /* inside STATEMENT SET BEGIN ... */
    int words_since_semi;
    bool last_was_end;
} Scan;

static void reset_piece(Scan *sc)
{
    sc->start = -1;
    sc->content = false;
    memset(sc->w, 0, sizeof sc->w);
    sc->block = false;
    sc->words_since_semi = 0;
    sc->last_was_end = false;
}

static void word(Scan *sc, const char *p, int len)
{
    char up[12];
    int l = len < 11 ? len : 11;
    for (int i = 0; i < l; i++) up[i] = (char)toupper((unsigned char)p[i]);
    up[l] = 0;
    if (len > 11) up[0] = '#';   /* long words never match a keyword we look for */
    memmove(sc->w[0], sc->w[1], sizeof sc->w[0]);
    memmove(sc->w[1], sc->w[2], sizeof sc->w[1]);
    memcpy(sc->w[2], up, sizeof up);
    if (!sc->block && strcmp(sc->w[0], "STATEMENT") == 0 && strcmp(sc->w[1], "SET") == 0
        && strcmp(sc->w[2], "BEGIN") == 0) {
        sc->block = true;
        sc->words_since_semi = 0;
        sc->last_was_end = false;
        return;
    }
    sc->words_since_semi++;
    sc->last_was_end = sc->words_since_semi == 1 && strcmp(up, "END") == 0;
}

typedef void (*PieceFn)(void *ctx, const char *text, int len, int line, bool terminated);

/* returns true when the text ends inside a quote or comment */
static bool scan(const char *s, PieceFn fn, void *ctx)
{
    Scan sc;
    memset(&sc, 0, sizeof sc);
    sc.s = s;
    sc.n = (int)strlen(s);
    reset_piece(&sc);
    int line = 1;
    int i = 0;
    bool open = false;
#define MARK() do { if (sc.start < 0) { sc.start = i; sc.start_line = line; } } while (0)
    while (i < sc.n) {
        char c = s[i];
        if (c == '\n') { line++; i++; continue; }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f') { i++; continue; }
        MARK();
        if (c == '-' && i + 1 < sc.n && s[i + 1] == '-') {
            while (i < sc.n && s[i] != '\n') i++;
            continue;
        }
        if (c == '/' && i + 1 < sc.n && s[i + 1] == '*') {
            i += 2;
            open = true;
            while (i < sc.n) {
                if (s[i] == '*' && i + 1 < sc.n && s[i + 1] == '/') { i += 2; open = false; break; }
                if (s[i] == '\n') line++;
                i++;
            }
            if (open) break;
            continue;
        }
        if (c == '\'' || c == '`') {
            sc.content = true;
            i++;
            open = true;
            while (i < sc.n) {
                if (s[i] == c) {
                    if (i + 1 < sc.n && s[i + 1] == c) { i += 2; continue; }
                    i++;
                    open = false;
                    break;
                }
                if (s[i] == '\n') line++;
                i++;
            }
            if (open) break;
            sc.words_since_semi += 1;
            sc.last_was_end = false;
            continue;
        }
        if (c == ';') {
            if (!sc.block || sc.last_was_end) {
                if (sc.content) {
                    int e = i;
                    while (e > sc.start && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\n'
                                            || s[e - 1] == '\r' || s[e - 1] == '\f'))
                        e--;
                    fn(ctx, s + sc.start, e - sc.start, sc.start_line, true);
                }
                reset_piece(&sc);
            } else {
                sc.words_since_semi = 0;
                sc.last_was_end = false;
            }
            i++;
            continue;
        }
        sc.content = true;
        if (isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80 || c == '$') {
            int b = i;
            while (i < sc.n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '$'
                                || (unsigned char)s[i] >= 0x80))
                i++;
            word(&sc, s + b, i - b);
            continue;
        }
        sc.words_since_semi += 1;
        sc.last_was_end = false;
        i++;
    }
#undef MARK
    if (sc.content || open) {
        int e = sc.n;
        while (e > sc.start && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\n' || s[e - 1] == '\r'
                                || s[e - 1] == '\f'))
            e--;
        fn(ctx, s + sc.start, e - sc.start, sc.start_line, false);
    }
    return open;
}

typedef struct SplitCtx {
    WArena *a;
    WSqlPiece *v;
    int n, cap;
} SplitCtx;

static void add_piece(void *ctx, const char *text, int len, int line, bool terminated)
{
    SplitCtx *c = ctx;
    if (c->n == c->cap) {
        int ncap = c->cap ? c->cap * 2 : 8;
        WSqlPiece *nv = wa_alloc(c->a, sizeof(WSqlPiece) * (size_t)ncap);
        if (c->n) memcpy(nv, c->v, sizeof(WSqlPiece) * (size_t)c->n);
        c->v = nv;
        c->cap = ncap;
    }
    c->v[c->n++] = (WSqlPiece){text, len, line, terminated};
}

int wsql_split(WArena *a, const char *script, WSqlPiece **out)
{
    SplitCtx c = {a, NULL, 0, 0};
    scan(script ? script : "", add_piece, &c);
    *out = c.v;
    return c.n;
}

/* The lexical states of Flink's client (SqlClientParserState, default dialect), tried in this
   order at each character outside any of them. */
typedef struct ClientState {
    const char *start, *end;
} ClientState;

static const ClientState CLIENT_STATES[] = {
    {"'", "'"},         /* string ('' closes and reopens: the same as an escape) */
    {"`", "`"},         /* quoted identifier */
    {"--", "\n"},       /* line comment */
    {"/*+", "*/"},      /* hint */
    {"/*", "*/"},       /* block comment */
};

/* true when the text ends inside a string, quoted identifier, comment or hint, by the rules of
   Flink's SqlClientParserState.computeCurrentStateAtTheEndOfLine: outside a state a start marker
   opens one (the scan skips the marker); inside, the end marker closes it and the scan goes on at
   the next character (so the '/' of a closing star-slash is looked at again). */
static bool ends_inside_client_state(const char *t)
{
    const ClientState *cur = NULL;
    for (size_t i = 0; t[i]; i++) {
        if (!cur) {
            for (size_t k = 0; k < sizeof CLIENT_STATES / sizeof CLIENT_STATES[0]; k++) {
                size_t len = strlen(CLIENT_STATES[k].start);
                if (strncmp(t + i, CLIENT_STATES[k].start, len) == 0) {
                    cur = &CLIENT_STATES[k];
                    i += len - 1;
                    break;
                }
            }
        } else if (strncmp(t + i, cur->end, strlen(cur->end)) == 0) {
            cur = NULL;
        }
    }
    return cur != NULL;
}

/* Flink's client (SqlMultiLineParser) keeps reading while the text does not end with ';' or ends
   inside a string, quoted identifier, comment or hint (ends_inside_client_state); then its
   ClientParser runs the lexer over the text: the statement is complete when the last token is ';'
   (a lexical error also ends the input, so that it gets reported). weir adds one rule: after
   STATEMENT SET BEGIN the input continues until "END ;". */
bool wsql_is_complete(const char *text)
{
    const char *t = text ? text : "";
    size_t n = strlen(t);
    while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\t' || t[n - 1] == '\n' || t[n - 1] == '\r'
                     || t[n - 1] == '\f'))
        n--;
    if (n == 0 || t[n - 1] != ';') return false;
    if (ends_inside_client_state(t)) return false;
    WArena a;
    warena_init(&a, 0);
    WError err;
    werr_clear(&err);
    WSqlTokens toks;
    bool complete;
    if (!wsql_lex(&a, t, (int)strlen(t), &toks, &err)) {
        complete = true;
    } else {
        int m = toks.n - 1;   /* without EOF */
        complete = m > 0 && toks.t[m - 1].kind == TK_SEMICOLON;
        /* inside STATEMENT SET BEGIN ... the block must be closed by END ; */
        bool block = false;
        for (int i = 0; i + 2 < m; i++) {
            const WSqlToken *a0 = &toks.t[i], *a1 = &toks.t[i + 1], *a2 = &toks.t[i + 2];
            if (a0->kw && a1->kw && a2->kw && strcmp(a0->kw->word, "STATEMENT") == 0
                && strcmp(a1->kw->word, "SET") == 0 && strcmp(a2->kw->word, "BEGIN") == 0)
                block = true;
            if (block && a0->kw && strcmp(a0->kw->word, "END") == 0 && a1->kind == TK_SEMICOLON
                && (i == 0 || toks.t[i - 1].kind == TK_SEMICOLON))
                block = false;
        }
        if (block && m >= 2 && toks.t[m - 2].kw && strcmp(toks.t[m - 2].kw->word, "END") == 0
            && (m < 3 || toks.t[m - 3].kind == TK_SEMICOLON))
            block = false;
        if (block) complete = false;
    }
    warena_free(&a);
    return complete;
}
