/*
 * lexer.c — Flink SQL text to tokens, following Calcite's token manager in back-tick mode.
 *
 * Contract: see lexer.h. Longest match as JavaCC does it: an unterminated 'string' is not an
 * error here but a lone quote token (the parser then reports `Encountered "\'"`), while an
 * unterminated comment or back-quoted identifier, or a character no token starts with, is a
 * lexical error worded like TokenMgrError.LexicalError. Depends on common/ (arena, error).
 */
#include "lexer.h"

#include <stdio.h>
#include <string.h>

typedef struct Lx {
    const char *s;
    int n;
    int i;              /* byte offset of the current character */
    int line, col;      /* its position */
    int pline, pcol;    /* position of the previously consumed character */
    bool any;           /* at least one character consumed */
    WArena *a;
    WError *err;
    WSqlToken *toks;
    int ntok, cap;
} Lx;

/* ---- characters ---- */

/* decode the code point at s[i] (lenient: invalid bytes are taken as Latin-1); sets *blen */
static unsigned decode(const char *s, int n, int i, int *blen)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned c = u[i];
    int need;
    unsigned cp;
    if (c >= 0xF0 && c <= 0xF4) { need = 3; cp = c & 0x07; }
    else if (c >= 0xE0 && c <= 0xEF) { need = 2; cp = c & 0x0F; }
    else if (c >= 0xC2 && c <= 0xDF) { need = 1; cp = c & 0x1F; }
    else { *blen = 1; return c; }
    if (i + need > n - 1) { *blen = 1; return c; }
    for (int k = 1; k <= need; k++) {
        if ((u[i + k] & 0xC0) != 0x80) { *blen = 1; return c; }
        cp = (cp << 6) | (u[i + k] & 0x3F);
    }
    *blen = need + 1;
    return cp;
}

static unsigned cur_cp(Lx *L, int *blen)
{
    return decode(L->s, L->n, L->i, blen);
}

static int peekc(Lx *L, int k)
{
    return L->i + k < L->n ? (unsigned char)L->s[L->i + k] : -1;
}

/* consume one character, keeping JavaCC's line/column accounting (tab size 1, UTF-16 columns) */
static void adv(Lx *L)
{
    if (L->i >= L->n) return;
    int blen;
    unsigned cp = cur_cp(L, &blen);
    L->pline = L->line;
    L->pcol = L->col + (cp > 0xFFFF ? 1 : 0);
    L->any = true;
    L->i += blen;
    if (cp == '\n' || (cp == '\r' && !(L->i < L->n && L->s[L->i] == '\n'))) {
        L->line++;
        L->col = 1;
    } else {
        L->col += cp > 0xFFFF ? 2 : 1;
    }
}

static bool is_letter_cp(unsigned c)
{
    return c == '$' || (c >= 'A' && c <= 'Z') || c == '_' || (c >= 'a' && c <= 'z')
        || (c >= 0xC0 && c <= 0xD6) || (c >= 0xD8 && c <= 0xF6) || (c >= 0xF8 && c <= 0xFF)
        || (c >= 0x100 && c <= 0x1FFF) || (c >= 0x3040 && c <= 0x318F)
        || (c >= 0x3300 && c <= 0x337F) || (c >= 0x3400 && c <= 0x3D2D)
        || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF);
}

static bool is_digit_cp(unsigned c) { return c >= '0' && c <= '9'; }

/* ---- escapes ---- */

void wsql_add_escapes(char *out, int cap, const char *s, int len)
{
    int o = 0;
    if (cap <= 0) return;
    for (int i = 0; i < len;) {
        int blen;
        unsigned cp = decode(s, len, i, &blen);
        i += blen;
        char tmp[16];
        const char *rep = NULL;
        tmp[0] = 0;
        switch (cp) {
        case 0: continue;
        case '\b': rep = "\\b"; break;
        case '\t': rep = "\\t"; break;
        case '\n': rep = "\\n"; break;
        case '\f': rep = "\\f"; break;
        case '\r': rep = "\\r"; break;
        case '"': rep = "\\\""; break;
        case '\'': rep = "\\'"; break;
        case '\\': rep = "\\\\"; break;
        default:
            if (cp < 0x20 || cp > 0x7e) {
                if (cp > 0xFFFF) {
                    unsigned v = cp - 0x10000;
                    snprintf(tmp, sizeof tmp, "\\u%04x\\u%04x", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
                } else {
                    snprintf(tmp, sizeof tmp, "\\u%04x", cp);
                }
            } else {
                tmp[0] = (char)cp;
                tmp[1] = 0;
            }
            rep = tmp;
        }
        int rl = (int)strlen(rep);
        if (o + rl >= cap) break;
        memcpy(out + o, rep, (size_t)rl);
        o += rl;
    }
    out[o] = 0;
}

/* ---- errors ---- */

static void lex_err_eof(Lx *L, const char *after, int after_len)
{
    int line = L->pline, col = L->pcol;
    if (!L->any) { line = 1; col = 0; }
    unsigned last = 0;
    if (L->n > 0) {
        /* find the last character */
        int j = L->n - 1;
        while (j > 0 && ((unsigned char)L->s[j] & 0xC0) == 0x80) j--;
        int bl;
        last = decode(L->s, L->n, j, &bl);
    }
    if (last == '\n' || last == '\r') { line++; col = 0; } else col++;
    char esc[512];
    wsql_add_escapes(esc, sizeof esc, after, after_len);
    werr_set_at(L->err, line, col, WEXC_TOKEN_MGR,
                "Lexical error at line %d, column %d.  Encountered: <EOF> after : \"%s\"", line, col, esc);
}

static void lex_err_char(Lx *L, const char *after, int after_len)
{
    int blen;
    unsigned cp = cur_cp(L, &blen);
    unsigned unit = cp > 0xFFFF ? 0xD800 + ((cp - 0x10000) >> 10) : cp;
    char ch[16], esc[512];
    if (cp > 0xFFFF) {
        snprintf(ch, sizeof ch, "\\u%04x", unit);
    } else {
        char u8[8];
        memcpy(u8, L->s + L->i, (size_t)blen);
        wsql_add_escapes(ch, sizeof ch, u8, blen);
    }
    wsql_add_escapes(esc, sizeof esc, after, after_len);
    werr_set_at(L->err, L->line, L->col, WEXC_TOKEN_MGR,
                "Lexical error at line %d, column %d.  Encountered: \"%s\" (%u), after : \"%s\"",
                L->line, L->col, ch, unit, esc);
}

/* ---- token building ---- */

static WSqlToken *push(Lx *L, WSqlTokKind kind, int start, int line, int col)
{
    if (L->ntok == L->cap) {
        int ncap = L->cap ? L->cap * 2 : 64;
        WSqlToken *nt = wa_alloc(L->a, sizeof(WSqlToken) * (size_t)ncap);
        if (L->ntok) memcpy(nt, L->toks, sizeof(WSqlToken) * (size_t)L->ntok);
        L->toks = nt;
        L->cap = ncap;
    }
    WSqlToken *t = &L->toks[L->ntok++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->start = L->s + start;
    t->len = L->i - start;
    t->line = line;
    t->col = col;
    t->end_line = L->pline;
    t->end_col = L->pcol;
    return t;
}

/* scans a quoted body starting at the opening quote q (at L->i); on success consumes it (and
   returns true with the unescaped body in *val); on EOF leaves L untouched and returns false */
static bool scan_quoted(Lx *L, char q, char **val)
{
    int j = L->i + 1;
    int count = 0;
    while (j < L->n) {
        if (L->s[j] == q) {
            if (j + 1 < L->n && L->s[j + 1] == q) { j += 2; count++; continue; }
            break;
        }
        j++;
        count++;
    }
    if (j >= L->n) return false;
    /* unescape */
    char *out = wa_alloc(L->a, (size_t)(j - L->i) + 1);
    int o = 0;
    for (int k = L->i + 1; k < j; k++) {
        out[o++] = L->s[k];
        if (L->s[k] == q) k++;
    }
    out[o] = 0;
    *val = out;
    while (L->i <= j) adv(L);
    return true;
}

static bool lex_backquoted(Lx *L)
{
    int start = L->i, line = L->line, col = L->col;
    adv(L);   /* opening ` */
    int body = 0;
    for (;;) {
        if (L->i >= L->n) {
            lex_err_eof(L, L->s + start, L->i - start);
            return false;
        }
        char c = L->s[L->i];
        if (c == '`') {
            if (peekc(L, 1) == '`') { adv(L); adv(L); body++; continue; }
            if (body == 0) {
                /* "``" needs a further back-tick to be an escaped one */
                adv(L);
                if (L->i >= L->n) { lex_err_eof(L, L->s + start, L->i - start); return false; }
                lex_err_char(L, L->s + start, L->i - start);
                return false;
            }
            adv(L);
            break;
        }
        if (c == '\n' || c == '\r') {
            lex_err_char(L, L->s + start, L->i - start);
            return false;
        }
        adv(L);
        body++;
    }
    WSqlToken *t = push(L, TK_QIDENT, start, line, col);
    char *v = wa_alloc(L->a, (size_t)t->len + 1);
    int o = 0;
    for (int k = start + 1; k < L->i - 1; k++) {
        v[o++] = L->s[k];
        if (L->s[k] == '`') k++;
    }
    v[o] = 0;
    t->val = v;
    return true;
}

static void lex_number(Lx *L)
{
    int start = L->i, line = L->line, col = L->col;
    WSqlTokKind kind = TK_INTEGER;
    while (L->i < L->n && L->s[L->i] >= '0' && L->s[L->i] <= '9') adv(L);
    if (L->i < L->n && L->s[L->i] == '.') {
        kind = TK_DECIMAL;
        adv(L);
        while (L->i < L->n && L->s[L->i] >= '0' && L->s[L->i] <= '9') adv(L);
    }
    if (L->i < L->n && (L->s[L->i] == 'e' || L->s[L->i] == 'E')) {
        int k = 1;
        if (peekc(L, 1) == '+' || peekc(L, 1) == '-') k = 2;
        int d = peekc(L, k);
        if (d >= '0' && d <= '9') {
            kind = TK_APPROX;
            for (int z = 0; z < k; z++) adv(L);
            while (L->i < L->n && L->s[L->i] >= '0' && L->s[L->i] <= '9') adv(L);
        }
    }
    WSqlToken *t = push(L, kind, start, line, col);
    t->val = wa_strndup(L->a, t->start, (size_t)t->len);
}

static void lex_word(Lx *L)
{
    int start = L->i, line = L->line, col = L->col;
    while (L->i < L->n) {
        int bl;
        unsigned cp = cur_cp(L, &bl);
        if (!is_letter_cp(cp) && !is_digit_cp(cp)) break;
        adv(L);
    }
    WSqlToken *t = push(L, TK_IDENT, start, line, col);
    t->val = wa_strndup(L->a, t->start, (size_t)t->len);
    t->kw = wsql_keyword_lookup(t->start, t->len);
}

/* a prefixed string: prefix characters [L->i, L->i+plen) then a quote; returns false when the
   quoted part is unterminated (nothing consumed) */
static bool lex_prefixed(Lx *L, int plen, WSqlTokKind kind)
{
    int start = L->i, line = L->line, col = L->col;
    Lx save = *L;
    for (int k = 0; k < plen; k++) adv(L);
    char *val;
    if (!scan_quoted(L, '\'', &val)) {
        *L = save;
        return false;
    }
    WSqlToken *t = push(L, kind, start, line, col);
    t->val = val;
    return true;
}

/* a JDBC escape's opening: "{", spaces, then fn, ts, t or d (any case), the longest that matches */
static bool lex_jdbc_escape(Lx *L)
{
    int k = 1;
    while (peekc(L, k) == ' ') k++;
    int a = peekc(L, k), b = peekc(L, k + 1);
    a = a >= 'A' && a <= 'Z' ? a + 32 : a;
    b = b >= 'A' && b <= 'Z' ? b + 32 : b;
    WSqlTokKind kind;
    int len;
    if (a == 'f' && b == 'n') { kind = TK_LBRACE_FN; len = k + 2; }
    else if (a == 't' && b == 's') { kind = TK_LBRACE_TS; len = k + 2; }
    else if (a == 't') { kind = TK_LBRACE_T; len = k + 1; }
    else if (a == 'd') { kind = TK_LBRACE_D; len = k + 1; }
    else return false;
    int start = L->i, line = L->line, col = L->col;
    for (int z = 0; z < len; z++) adv(L);
    push(L, kind, start, line, col);
    return true;
}

typedef struct { const char *op; WSqlTokKind kind; } OpDef;
static const OpDef OPS[] = {
    {"<=>", TK_NULLEQ}, {"<=", TK_LE}, {">=", TK_GE}, {"<>", TK_NE}, {"!=", TK_NE2},
    {"||", TK_CONCAT}, {"=>", TK_NAMED_ARG}, {"..", TK_DOUBLE_PERIOD}, {"*/", TK_COMMENT_END},
    {"(", TK_LPAREN}, {")", TK_RPAREN}, {"{", TK_LBRACE}, {"}", TK_RBRACE}, {"[", TK_LBRACKET},
    {"]", TK_RBRACKET}, {";", TK_SEMICOLON}, {".", TK_DOT}, {",", TK_COMMA}, {"=", TK_EQ},
    {">", TK_GT}, {"<", TK_LT}, {"?", TK_HOOK}, {":", TK_COLON}, {"+", TK_PLUS}, {"-", TK_MINUS},
    {"*", TK_STAR}, {"/", TK_SLASH}, {"%", TK_PERCENT}, {"\"", TK_DOUBLE_QUOTE},
    {"|", TK_VERTICAL_BAR}, {"^", TK_CARET}, {"$", TK_DOLLAR}, {"'", TK_QUOTE},
};

bool wsql_lex(WArena *a, const char *src, int len, WSqlTokens *out, WError *err)
{
    Lx L;
    memset(&L, 0, sizeof L);
    L.s = src;
    L.n = len;
    L.line = L.col = 1;
    L.a = a;
    L.err = err;
    out->t = NULL;
    out->n = 0;
    while (L.i < L.n) {
        char c = L.s[L.i];
        int c1 = peekc(&L, 1);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') { adv(&L); continue; }
        if ((c == '-' && c1 == '-') || (c == '/' && c1 == '/')) {
            while (L.i < L.n && L.s[L.i] != '\n' && L.s[L.i] != '\r') adv(&L);
            continue;
        }
        if (c == '/' && c1 == '*') {
            if (peekc(&L, 2) == '+') {
                int start = L.i, line = L.line, col = L.col;
                adv(&L); adv(&L); adv(&L);
                push(&L, TK_HINT_BEG, start, line, col);
                continue;
            }
            adv(&L); adv(&L);
            for (;;) {
                if (L.i >= L.n) { lex_err_eof(&L, "", 0); return false; }
                if (L.s[L.i] == '*' && peekc(&L, 1) == '/') { adv(&L); adv(&L); break; }
                adv(&L);
            }
            continue;
        }
        if (c == '`') {
            if (!lex_backquoted(&L)) return false;
            continue;
        }
        if (c == '\'') {
            int start = L.i, line = L.line, col = L.col;
            char *val;
            if (scan_quoted(&L, '\'', &val)) {
                push(&L, TK_STRING, start, line, col)->val = val;
            } else {
                adv(&L);
                push(&L, TK_QUOTE, start, line, col);
            }
            continue;
        }
        if ((c == 'x' || c == 'X') && c1 == '\'' && lex_prefixed(&L, 1, TK_BINSTRING)) continue;
        if ((c == 'n' || c == 'N') && c1 == '\'' && lex_prefixed(&L, 1, TK_STRING)) continue;
        if ((c == 'u' || c == 'U') && c1 == '&' && peekc(&L, 2) == '\''
            && lex_prefixed(&L, 2, TK_USTRING)) continue;
        if (c == '_') {
            /* _charset'...' */
            int k = 1;
            int ch;
            while ((ch = peekc(&L, k)) >= 0
                   && ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
                       || ch == ':' || ch == '.' || ch == '-' || ch == '_'))
                k++;
            if (k > 1 && ch == '\'' && lex_prefixed(&L, k, TK_STRING)) continue;
        }
        if ((c >= '0' && c <= '9') || (c == '.' && c1 >= '0' && c1 <= '9')) {
            lex_number(&L);
            continue;
        }
        int bl;
        unsigned cp = cur_cp(&L, &bl);
        if (is_letter_cp(cp)) {
            lex_word(&L);
            continue;
        }
        if (c == '{' && lex_jdbc_escape(&L)) continue;
        bool matched = false;
        for (size_t k = 0; k < sizeof OPS / sizeof OPS[0]; k++) {
            int ol = (int)strlen(OPS[k].op);
            if (L.i + ol <= L.n && memcmp(L.s + L.i, OPS[k].op, (size_t)ol) == 0) {
                int start = L.i, line = L.line, col = L.col;
                for (int z = 0; z < ol; z++) adv(&L);
                push(&L, OPS[k].kind, start, line, col);
                matched = true;
                break;
            }
        }
        if (matched) continue;
        if (c == 0x07) {
            int start = L.i, line = L.line, col = L.col;
            adv(&L);
            push(&L, TK_BEL, start, line, col);
            continue;
        }
        lex_err_char(&L, "", 0);
        return false;
    }
    /* EOF: Calcite reports it at the position of the last character read */
    int start = L.i;
    WSqlToken *t = push(&L, TK_EOF, start, L.any ? L.pline : 1, L.any ? L.pcol : 1);
    t->val = "<EOF>";
    out->t = L.toks;
    out->n = L.ntok;
    return true;
}
