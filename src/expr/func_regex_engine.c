/*
 * func_regex_engine.c — a small backtracking regular-expression engine with java.util.regex semantics
 * (leftmost match, greedy/lazy quantifiers tried in Java's order, capture groups, back-references),
 * used by REGEXP, REGEXP_EXTRACT, REGEXP_REPLACE, SIMILAR TO and STR_TO_MAP.
 *
 * Supported syntax: literals and escapes (\t \n \r \f \a \e \0oo \xhh \x{h..} \uhhhh \cX \Q..\E),
 * . ^ $ \A \z \Z \b \B, classes [..] with ranges, negation, \d \w \s \D \W \S and \p{..} (ASCII
 * POSIX names, L, Lu, Ll, N, P), groups ( ), (?: ), (?<name> ), inline flags (?i) (?s) (?m) (?x)
 * and (?flags: ..), alternation, * + ? {n} {n,} {n,m} with lazy (?) and possessive (+, treated
 * as greedy) forms. Lookaround is rejected as a syntax error. Matching works on code points of
 * UTF-8 text; capture offsets are byte offsets. The program lives in the arena given to
 * wre_compile; matching keeps its backtrack stack on the C stack, moved to the heap when it grows.
 * Filters spare the matcher work and never change a result: a subject without the literal text
 * every match contains is refused at once, tries start no earlier than the literal's bounded lead
 * before its first occurrence, and positions whose byte no match can start with are skipped
 * (WRegex.lit, lit_lead, first). A greedy loop of one character is one instruction (OP_STAR)
 * that gives back a character per backtrack.
 * Depends on func_impl.h (UTF-8 helpers), common/.
 */
#include "func_impl.h"
#include "../common/memfind.h"

#include <assert.h>

enum {
    OP_CHAR, OP_ANY, OP_CLASS, OP_SPLIT, OP_JMP, OP_SAVE, OP_MATCH, OP_BOL, OP_EOL, OP_WORDB,
    OP_NWORDB, OP_BACKREF, OP_MARK, OP_PROGRESS, OP_BEGIN, OP_END, OP_ENDZ,
    OP_STAR             /* a greedy loop of one character (x: its OP_CHAR/ANY/CLASS, y: after it) */
};

typedef struct Inst {
    uint8_t op;
    uint8_t icase, dotall, multiline;
    int x, y;
} Inst;

typedef struct RClass {
    int n;
    int *lo, *hi;
    bool neg;
    uint8_t neg_builtin;     /* bit 1: \D, 2: \W, 4: \S inside the class */
    bool icase;
    uint8_t *ascii;          /* class_has of each code point below 0x80, filled by wre_compile */
} RClass;

struct WRegex {
    Inst *prog;
    int nprog;
    RClass *classes;
    int nclasses;
    int ngroups;
    int nslots;              /* 2*(ngroups+1) + loop marks */
    const char *lit;         /* ASCII text every match contains (NULL: none known): a subject
                                without it is refused before any backtracking */
    int nlit;
    int lit_lead;            /* the most bytes a match spans before lit (literal_lead); -1: no bound
                                known */
    const uint8_t *first;    /* 256 flags: the bytes a match that starts after the first position
                                tried can start with (every byte >= 0x80 is flagged); NULL: any
                                position may start a match (an empty match, \b, $ ...) */
};

/* ---------------------------------------------------------------- AST */

enum { N_EMPTY, N_CHAR, N_ANY, N_CLASS, N_CAT, N_ALT, N_GROUP, N_REPEAT, N_ASSERT, N_BACKREF };

typedef struct Node Node;
struct Node {
    int kind;
    int c;                   /* N_CHAR code point; N_CLASS index; N_GROUP group (-1 none); N_ASSERT op; N_BACKREF */
    uint8_t icase, dotall, multiline;
    int min, max;            /* N_REPEAT (max -1 = inf) */
    bool greedy;
    Node **kids;
    int nkids;
};

typedef struct Parser {
    WArena *a;
    const char *p;
    int len, pos;
    int ngroups;
    bool icase, dotall, multiline, comments;
    char *err;
    RClass *classes;
    int nclasses, capclasses;
    int depth;
} Parser;

static Node *mk(Parser *ps, int kind)
{
    Node *n = WA_NEW(ps->a, Node);
    n->kind = kind;
    n->icase = ps->icase;
    n->dotall = ps->dotall;
    n->multiline = ps->multiline;
    return n;
}

static void add_kid(Parser *ps, Node *n, Node *k)
{
    Node **nk = WA_ARRAY(ps->a, Node *, n->nkids + 1);
    if (n->nkids) memcpy(nk, n->kids, sizeof(Node *) * (size_t)n->nkids);
    nk[n->nkids++] = k;
    n->kids = nk;
}

/* Java's PatternSyntaxException text: description, index, the pattern and a caret under the index */
static bool fail_at(Parser *ps, const char *msg, int index)
{
    if (!ps->err)
        ps->err = wa_sprintf(ps->a, "%s near index %d\n%.*s\n%*s^", msg, index, ps->len, ps->p, index, "");
    return false;
}

static bool fail(Parser *ps, const char *msg) { return fail_at(ps, msg, ps->pos); }

static int peek(Parser *ps) { return ps->pos < ps->len ? (unsigned char)ps->p[ps->pos] : -1; }

static int next_cp(Parser *ps)
{
    int adv;
    int c = wf_u8_decode(ps->p + ps->pos, ps->len - ps->pos, &adv);
    ps->pos += adv;
    return c;
}

static int new_class(Parser *ps)
{
    if (ps->nclasses == ps->capclasses) {
        int nc = ps->capclasses ? ps->capclasses * 2 : 8;
        RClass *c = WA_ARRAY(ps->a, RClass, nc);
        if (ps->nclasses) memcpy(c, ps->classes, sizeof(RClass) * (size_t)ps->nclasses);
        ps->classes = c;
        ps->capclasses = nc;
    }
    RClass *c = &ps->classes[ps->nclasses];
    memset(c, 0, sizeof *c);
    c->icase = ps->icase;
    return ps->nclasses++;
}

static void class_add(Parser *ps, int ci, int lo, int hi)
{
    RClass *c = &ps->classes[ci];
    int *nl = WA_ARRAY(ps->a, int, c->n + 1), *nh = WA_ARRAY(ps->a, int, c->n + 1);
    if (c->n) { memcpy(nl, c->lo, sizeof(int) * (size_t)c->n); memcpy(nh, c->hi, sizeof(int) * (size_t)c->n); }
    nl[c->n] = lo;
    nh[c->n] = hi;
    c->lo = nl;
    c->hi = nh;
    c->n++;
}

/* add a shorthand (d w s, upper = negated) to class ci */
static void class_builtin(Parser *ps, int ci, int b)
{
    switch (b) {
    case 'd': class_add(ps, ci, '0', '9'); break;
    case 'w': class_add(ps, ci, 'a', 'z'); class_add(ps, ci, 'A', 'Z'); class_add(ps, ci, '0', '9'); class_add(ps, ci, '_', '_'); break;
    case 's': class_add(ps, ci, ' ', ' '); class_add(ps, ci, '\t', '\r'); break;
    case 'D': ps->classes[ci].neg_builtin |= 1; break;
    case 'W': ps->classes[ci].neg_builtin |= 2; break;
    case 'S': ps->classes[ci].neg_builtin |= 4; break;
    default: break;
    }
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* \p{Name}: add to class ci; false if unknown */
static bool class_property(Parser *ps, int ci, const char *name, int nlen)
{
#define IS(s) (nlen == (int)strlen(s) && strncmp(name, s, (size_t)nlen) == 0)
    if (IS("Lower") || IS("Ll") || IS("javaLowerCase") || IS("IsLowercase")) { class_add(ps, ci, 'a', 'z'); class_add(ps, ci, 0xDF, 0xFF); return true; }
    if (IS("Upper") || IS("Lu") || IS("javaUpperCase") || IS("IsUppercase")) { class_add(ps, ci, 'A', 'Z'); class_add(ps, ci, 0xC0, 0xDE); return true; }
    if (IS("Alpha") || IS("L") || IS("IsAlphabetic") || IS("IsLetter") || IS("javaLetter")) {
        class_add(ps, ci, 'a', 'z'); class_add(ps, ci, 'A', 'Z');
        if (!IS("Alpha")) { class_add(ps, ci, 0xC0, 0x24F); class_add(ps, ci, 0x370, 0x52F); class_add(ps, ci, 0x3040, 0x30FF); class_add(ps, ci, 0x4E00, 0x9FFF); class_add(ps, ci, 0xAC00, 0xD7A3); }
        return true;
    }
    if (IS("Digit") || IS("N") || IS("Nd") || IS("IsDigit")) { class_add(ps, ci, '0', '9'); return true; }
    if (IS("Alnum")) { class_add(ps, ci, 'a', 'z'); class_add(ps, ci, 'A', 'Z'); class_add(ps, ci, '0', '9'); return true; }
    if (IS("Punct") || IS("P") || IS("IsPunctuation")) {
        class_add(ps, ci, '!', '/'); class_add(ps, ci, ':', '@'); class_add(ps, ci, '[', '`'); class_add(ps, ci, '{', '~');
        if (!IS("Punct")) { class_add(ps, ci, 0x3000, 0x303F); class_add(ps, ci, 0xFF01, 0xFF0F); }
        return true;
    }
    if (IS("Space") || IS("Z") || IS("Zs") || IS("IsWhite_Space")) { class_add(ps, ci, ' ', ' '); class_add(ps, ci, '\t', '\r'); return true; }
    if (IS("ASCII")) { class_add(ps, ci, 0, 0x7F); return true; }
    if (IS("XDigit")) { class_add(ps, ci, '0', '9'); class_add(ps, ci, 'a', 'f'); class_add(ps, ci, 'A', 'F'); return true; }
    if (IS("Cntrl") || IS("Cc")) { class_add(ps, ci, 0, 0x1F); class_add(ps, ci, 0x7F, 0x7F); return true; }
    if (IS("Graph")) { class_add(ps, ci, 0x21, 0x7E); return true; }
    if (IS("Print")) { class_add(ps, ci, 0x20, 0x7E); return true; }
    if (IS("Blank")) { class_add(ps, ci, ' ', ' '); class_add(ps, ci, '\t', '\t'); return true; }
    if (IS("S") || IS("Sm") || IS("Sc")) { class_add(ps, ci, '$', '$'); class_add(ps, ci, '+', '+'); class_add(ps, ci, '<', '>'); class_add(ps, ci, '^', '^'); class_add(ps, ci, '`', '`'); class_add(ps, ci, '|', '|'); class_add(ps, ci, '~', '~'); return true; }
    if (nlen > 2 && strncmp(name, "In", 2) == 0) { class_add(ps, ci, 0, 0x10FFFF); return true; }
    return false;
#undef IS
}

/* Parse an escape after '\'. Returns: >= 0 literal code point; -2 when a class/assertion node was
   produced into *out (or class ci when in_class), -1 on error. */
static int parse_escape(Parser *ps, bool in_class, int ci, Node **out)
{
    if (ps->pos >= ps->len) { fail(ps, "Unexpected internal error"); return -1; }
    int c = next_cp(ps);
    switch (c) {
    case 't': return '\t';
    case 'n': return '\n';
    case 'r': return '\r';
    case 'f': return '\f';
    case 'a': return 7;
    case 'e': return 27;
    case '0': {
        int v = 0, k = 0;
        while (k < 3 && peek(ps) >= '0' && peek(ps) <= '7' && v * 8 + (peek(ps) - '0') <= 0377) { v = v * 8 + (next_cp(ps) - '0'); k++; }
        if (!k) { fail(ps, "Illegal octal escape sequence"); return -1; }
        return v;
    }
    case 'x': {
        if (peek(ps) == '{') {
            ps->pos++;
            int v = 0, k = 0;
            while (peek(ps) >= 0 && hexval(peek(ps)) >= 0) { v = v * 16 + hexval(next_cp(ps)); k++; if (v > 0x10FFFF) break; }
            if (!k || peek(ps) != '}' || v > 0x10FFFF) { fail(ps, "Illegal hexadecimal escape sequence"); return -1; }
            ps->pos++;
            return v;
        }
        int h1 = peek(ps) >= 0 ? hexval(peek(ps)) : -1;
        if (h1 < 0) { fail(ps, "Illegal hexadecimal escape sequence"); return -1; }
        ps->pos++;
        int h2 = peek(ps) >= 0 ? hexval(peek(ps)) : -1;
        if (h2 < 0) { fail(ps, "Illegal hexadecimal escape sequence"); return -1; }
        ps->pos++;
        return h1 * 16 + h2;
    }
    case 'u': {
        int v = 0;
        for (int k = 0; k < 4; k++) {
            int h = peek(ps) >= 0 ? hexval(peek(ps)) : -1;
            if (h < 0) { fail(ps, "Illegal Unicode escape sequence"); return -1; }
            ps->pos++;
            v = v * 16 + h;
        }
        return v;
    }
    case 'c': {
        if (ps->pos >= ps->len) { fail(ps, "Illegal control escape sequence"); return -1; }
        return next_cp(ps) ^ 64;
    }
    case 'd': case 'w': case 's': case 'D': case 'W': case 'S': {
        if (in_class) { class_builtin(ps, ci, c); return -2; }
        int k = new_class(ps);
        int lower = c | 0x20;
        class_builtin(ps, k, lower);
        ps->classes[k].neg = c != lower;
        Node *n = mk(ps, N_CLASS);
        n->c = k;
        *out = n;
        return -2;
    }
    case 'p': case 'P': {
        const char *name;
        int nlen;
        if (peek(ps) == '{') {
            int st = ++ps->pos;
            while (ps->pos < ps->len && ps->p[ps->pos] != '}') ps->pos++;
            if (ps->pos >= ps->len) { fail(ps, "Unclosed character family"); return -1; }
            name = ps->p + st;
            nlen = ps->pos - st;
            ps->pos++;
        } else {
            if (ps->pos >= ps->len) { fail(ps, "Illegal character family"); return -1; }
            name = ps->p + ps->pos;
            nlen = 1;
            ps->pos++;
        }
        if (nlen > 2 && strncmp(name, "Is", 2) == 0 && !(nlen == 11 && !strncmp(name, "IsLowercase", 11)) &&
            !(nlen == 11 && !strncmp(name, "IsUppercase", 11))) {
            /* \p{IsLatin} etc: accept the common ones as letters */
        }
        int k = in_class && c == 'p' ? ci : new_class(ps);
        if (!class_property(ps, k, name, nlen)) { fail(ps, "Unknown character property name"); return -1; }
        if (!(in_class && c == 'p')) {
            ps->classes[k].neg = c == 'P';
            if (in_class) {
                /* negated property inside a class: approximate by adding its complement ranges */
                RClass *src = &ps->classes[k];
                int prev = 0;
                for (int r = 0; r < src->n; r++) {
                    if (src->lo[r] > prev) class_add(ps, ci, prev, src->lo[r] - 1);
                    prev = src->hi[r] + 1;
                }
                class_add(ps, ci, prev, 0x10FFFF);
                return -2;
            }
            Node *n = mk(ps, N_CLASS);
            n->c = k;
            *out = n;
        }
        return -2;
    }
    default: break;
    }
    if (!in_class) {
        int as = -1;
        switch (c) {
        case 'b': as = OP_WORDB; break;
        case 'B': as = OP_NWORDB; break;
        case 'A': as = OP_BEGIN; break;
        case 'z': as = OP_END; break;
        case 'Z': as = OP_ENDZ; break;
        case 'G': as = OP_BEGIN; break;
        default: break;
        }
        if (as >= 0) {
            Node *n = mk(ps, N_ASSERT);
            n->c = as;
            *out = n;
            return -2;
        }
        if (c >= '1' && c <= '9') {
            int g = c - '0';
            while (peek(ps) >= '0' && peek(ps) <= '9' && g * 10 + (peek(ps) - '0') <= ps->ngroups) g = g * 10 + (next_cp(ps) - '0');
            Node *n = mk(ps, N_BACKREF);
            n->c = g;
            *out = n;
            return -2;
        }
    }
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) { fail(ps, "Illegal/unsupported escape sequence"); return -1; }
    return c;
}

static Node *parse_alt(Parser *ps);

static Node *parse_class(Parser *ps)
{
    /* at '[' already consumed */
    int ci = new_class(ps);
    if (peek(ps) == '^') { ps->classes[ci].neg = true; ps->pos++; }
    bool first = true;
    for (;;) {
        if (ps->pos >= ps->len) { fail_at(ps, "Unclosed character class", ps->len - 1); return NULL; }
        int c = peek(ps);
        if (c == ']' && !first) { ps->pos++; break; }
        first = false;
        if (c == '[') {
            /* nested class union: parse and merge its ranges */
            ps->pos++;
            Node *sub = parse_class(ps);
            if (!sub) return NULL;
            RClass *s = &ps->classes[sub->c];
            for (int r = 0; r < s->n; r++) class_add(ps, ci, s->lo[r], s->hi[r]);
            continue;
        }
        if (c == '&' && ps->pos + 1 < ps->len && ps->p[ps->pos + 1] == '&') {
            fail(ps, "Character class intersection is not supported");
            return NULL;
        }
        int lo;
        if (c == '\\') {
            ps->pos++;
            Node *dummy = NULL;
            lo = parse_escape(ps, true, ci, &dummy);
            if (lo == -1) return NULL;
            if (lo == -2) continue;
            if (peek(ps) == 'E' && 0) continue;
        } else lo = next_cp(ps);
        if (peek(ps) == '-' && ps->pos + 1 < ps->len && ps->p[ps->pos + 1] != ']') {
            ps->pos++;
            int hi;
            if (peek(ps) == '\\') {
                ps->pos++;
                Node *dummy = NULL;
                hi = parse_escape(ps, true, ci, &dummy);
                if (hi < 0) { if (hi == -2) fail(ps, "Illegal character range"); return NULL; }
            } else if (peek(ps) == '[') {
                fail(ps, "Illegal character range");
                return NULL;
            } else hi = next_cp(ps);
            if (hi < lo) { fail(ps, "Illegal character range"); return NULL; }
            class_add(ps, ci, lo, hi);
        } else {
            class_add(ps, ci, lo, lo);
        }
    }
    Node *n = mk(ps, N_CLASS);
    n->c = ci;
    return n;
}

static void skip_comments(Parser *ps)
{
    if (!ps->comments) return;
    for (;;) {
        int c = peek(ps);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B) { ps->pos++; continue; }
        if (c == '#') { while (ps->pos < ps->len && ps->p[ps->pos] != '\n') ps->pos++; continue; }
        break;
    }
}

/* parse flags like "i-s" up to ')' or ':' */
static bool parse_flags(Parser *ps, bool *icase, bool *dotall, bool *multi, bool *comments)
{
    bool on = true;
    while (ps->pos < ps->len) {
        int c = peek(ps);
        if (c == ')' || c == ':') return true;
        ps->pos++;
        switch (c) {
        case '-': on = false; break;
        case 'i': *icase = on; break;
        case 's': *dotall = on; break;
        case 'm': *multi = on; break;
        case 'x': *comments = on; break;
        case 'u': case 'd': case 'U': break;
        default: return fail(ps, "Unknown inline modifier");
        }
    }
    return fail(ps, "Unclosed group");
}

static Node *parse_atom(Parser *ps)
{
    skip_comments(ps);
    int c = peek(ps);
    if (c == '(') {
        if (++ps->depth > 200) { fail(ps, "Regular expression nesting is too deep"); return NULL; }
        ps->pos++;
        int group = -1;
        bool save_i = ps->icase, save_s = ps->dotall, save_m = ps->multiline, save_x = ps->comments;
        bool scoped_flags = false;
        if (peek(ps) == '?') {
            ps->pos++;
            int k = peek(ps);
            if (k == ':') ps->pos++;
            else if (k == '<' && ps->pos + 1 < ps->len && ps->p[ps->pos + 1] != '=' && ps->p[ps->pos + 1] != '!') {
                ps->pos++;
                while (ps->pos < ps->len && ps->p[ps->pos] != '>') ps->pos++;
                if (ps->pos >= ps->len) { fail(ps, "named capturing group is missing trailing '>'"); return NULL; }
                ps->pos++;
                group = ++ps->ngroups;
            } else if (k == '=' || k == '!' || k == '<' || k == '>') {
                fail(ps, "Lookaround groups are not supported");
                return NULL;
            } else {
                bool i = ps->icase, s = ps->dotall, m = ps->multiline, x = ps->comments;
                if (!parse_flags(ps, &i, &s, &m, &x)) return NULL;
                if (peek(ps) == ')') {
                    /* (?i) applies to the rest of the enclosing group */
                    ps->pos++;
                    ps->icase = i; ps->dotall = s; ps->multiline = m; ps->comments = x;
                    return mk(ps, N_EMPTY);
                }
                ps->pos++;   /* ':' */
                ps->icase = i; ps->dotall = s; ps->multiline = m; ps->comments = x;
                scoped_flags = true;
            }
        } else {
            group = ++ps->ngroups;
        }
        Node *inner = parse_alt(ps);
        if (!inner) return NULL;
        if (peek(ps) != ')') { fail(ps, "Unclosed group"); return NULL; }
        ps->pos++;
        (void)scoped_flags;
        ps->icase = save_i; ps->dotall = save_s; ps->multiline = save_m; ps->comments = save_x;
        ps->depth--;
        Node *g = mk(ps, N_GROUP);
        g->c = group;
        add_kid(ps, g, inner);
        return g;
    }
    if (c == '[') { ps->pos++; return parse_class(ps); }
    if (c == '.') { ps->pos++; return mk(ps, N_ANY); }
    if (c == '^') { ps->pos++; Node *n = mk(ps, N_ASSERT); n->c = OP_BOL; return n; }
    if (c == '$') { ps->pos++; Node *n = mk(ps, N_ASSERT); n->c = OP_EOL; return n; }
    if (c == '\\') {
        ps->pos++;
        if (peek(ps) == 'Q') {
            ps->pos++;
            Node *cat = mk(ps, N_CAT);
            cat->c = 'Q';           /* quoted text: a quantifier after it applies to its last character */
            while (ps->pos < ps->len) {
                if (ps->p[ps->pos] == '\\' && ps->pos + 1 < ps->len && ps->p[ps->pos + 1] == 'E') { ps->pos += 2; break; }
                Node *ch = mk(ps, N_CHAR);
                ch->c = next_cp(ps);
                add_kid(ps, cat, ch);
            }
            return cat;
        }
        Node *out = NULL;
        int v = parse_escape(ps, false, -1, &out);
        if (v == -1) return NULL;
        if (v == -2) return out;
        Node *n = mk(ps, N_CHAR);
        n->c = v;
        return n;
    }
    if (c == '*' || c == '+' || c == '?') { fail(ps, "Dangling meta character '*'"); return NULL; }
    if (c == '{') { fail(ps, "Illegal repetition"); return NULL; }
    Node *n = mk(ps, N_CHAR);
    n->c = next_cp(ps);
    return n;
}

static bool parse_int(Parser *ps, int *v)
{
    int k = 0;
    *v = 0;
    while (peek(ps) >= '0' && peek(ps) <= '9') {
        *v = *v * 10 + (next_cp(ps) - '0');
        if (*v > 100000) return fail(ps, "Illegal repetition range");
        k++;
    }
    return k > 0;
}

static Node *parse_repeat(Parser *ps)
{
    Node *atom = parse_atom(ps);
    if (!atom) return NULL;
    for (;;) {
        skip_comments(ps);
        int c = peek(ps);
        int mn, mx;
        if (c == '*') { mn = 0; mx = -1; ps->pos++; }
        else if (c == '+') { mn = 1; mx = -1; ps->pos++; }
        else if (c == '?') { mn = 0; mx = 1; ps->pos++; }
        else if (c == '{') {
            ps->pos++;
            if (!parse_int(ps, &mn)) { fail(ps, "Illegal repetition"); return NULL; }
            mx = mn;
            if (peek(ps) == ',') {
                ps->pos++;
                if (peek(ps) == '}') mx = -1;
                else if (!parse_int(ps, &mx)) { fail(ps, "Illegal repetition range"); return NULL; }
            }
            if (peek(ps) != '}') { fail(ps, "Unclosed counted closure"); return NULL; }
            ps->pos++;
            if (mx >= 0 && mx < mn) { fail(ps, "Illegal repetition range"); return NULL; }
        } else break;
        bool greedy = true;
        if (peek(ps) == '?') { greedy = false; ps->pos++; }
        else if (peek(ps) == '+') ps->pos++;
        Node *r = mk(ps, N_REPEAT);
        r->min = mn;
        r->max = mx;
        r->greedy = greedy;
        if (atom->kind == N_CAT && atom->c == 'Q' && atom->nkids > 1) {
            /* Java quotes \Q..\E character by character: the quantifier takes the last one */
            add_kid(ps, r, atom->kids[atom->nkids - 1]);
            atom->kids[atom->nkids - 1] = r;
            atom->c = 0;
            continue;
        }
        add_kid(ps, r, atom);
        atom = r;
    }
    return atom;
}

static Node *parse_cat(Parser *ps)
{
    Node *cat = mk(ps, N_CAT);
    for (;;) {
        skip_comments(ps);
        int c = peek(ps);
        if (c < 0 || c == '|' || c == ')') break;
        Node *k = parse_repeat(ps);
        if (!k) return NULL;
        add_kid(ps, cat, k);
    }
    return cat;
}

static Node *parse_alt(Parser *ps)
{
    Node *first = parse_cat(ps);
    if (!first) return NULL;
    if (peek(ps) != '|') return first;
    Node *alt = mk(ps, N_ALT);
    add_kid(ps, alt, first);
    while (peek(ps) == '|') {
        ps->pos++;
        Node *k = parse_cat(ps);
        if (!k) return NULL;
        add_kid(ps, alt, k);
    }
    return alt;
}

/* ---------------------------------------------------------------- compiler */

typedef struct Comp {
    WArena *a;
    Inst *prog;
    int n, cap;
    int marks;               /* loop mark slots allocated */
    bool overflow;
} Comp;

#define MAX_PROG 200000

static int emit(Comp *c, int op, int x, int y, const Node *src)
{
    if (c->n >= MAX_PROG) { c->overflow = true; return c->n; }
    if (c->n == c->cap) {
        int nc = c->cap ? c->cap * 2 : 64;
        Inst *p = WA_ARRAY(c->a, Inst, nc);
        if (c->n) memcpy(p, c->prog, sizeof(Inst) * (size_t)c->n);
        c->prog = p;
        c->cap = nc;
    }
    Inst *in = &c->prog[c->n];
    in->op = (uint8_t)op;
    in->x = x;
    in->y = y;
    in->icase = src ? src->icase : 0;
    in->dotall = src ? src->dotall : 0;
    in->multiline = src ? src->multiline : 0;
    return c->n++;
}

static void compile(Comp *c, const Node *n, int base_slots)
{
    if (c->overflow) return;
    switch (n->kind) {
    case N_EMPTY: break;
    case N_CHAR: emit(c, OP_CHAR, n->c, 0, n); break;
    case N_ANY: emit(c, OP_ANY, 0, 0, n); break;
    case N_CLASS: emit(c, OP_CLASS, n->c, 0, n); break;
    case N_ASSERT: emit(c, n->c, 0, 0, n); break;
    case N_BACKREF: emit(c, OP_BACKREF, n->c, 0, n); break;
    case N_CAT:
        for (int i = 0; i < n->nkids; i++) compile(c, n->kids[i], base_slots);
        break;
    case N_GROUP:
        if (n->c > 0) emit(c, OP_SAVE, 2 * n->c, 0, n);
        compile(c, n->kids[0], base_slots);
        if (n->c > 0) emit(c, OP_SAVE, 2 * n->c + 1, 0, n);
        break;
    case N_ALT: {
        int *jumps = WA_ARRAY(c->a, int, n->nkids);
        int nj = 0;
        for (int i = 0; i < n->nkids; i++) {
            if (i + 1 < n->nkids) {
                int sp = emit(c, OP_SPLIT, 0, 0, n);
                c->prog[sp].x = sp + 1;
                compile(c, n->kids[i], base_slots);
                int j = emit(c, OP_JMP, 0, 0, n);
                jumps[nj++] = j;
                if (!c->overflow) c->prog[sp].y = c->n;
            } else {
                compile(c, n->kids[i], base_slots);
            }
        }
        for (int k = 0; k < nj && !c->overflow; k++) c->prog[jumps[k]].x = c->n;
        break;
    }
    case N_REPEAT: {
        const Node *kid = n->kids[0];
        for (int i = 0; i < n->min && !c->overflow; i++) compile(c, kid, base_slots);
        if (n->max == -1 && n->greedy && (kid->kind == N_CHAR || kid->kind == N_ANY || kid->kind == N_CLASS)) {
            /* one character per pass: never an empty pass, no captures inside, so the loop takes
               what it can at once and gives back one character per backtrack (java.util.regex's
               Curly), without the frames and marks of the general loop below */
            int star = emit(c, OP_STAR, 0, 0, n);
            compile(c, kid, base_slots);
            if (c->overflow) break;
            c->prog[star].x = star + 1;
            c->prog[star].y = c->n;
        } else if (n->max == -1) {
            int slot = base_slots + c->marks++;
            int loop = emit(c, OP_MARK, slot, 0, n);
            int sp = emit(c, OP_SPLIT, 0, 0, n);
            compile(c, kid, base_slots);
            int pr = emit(c, OP_PROGRESS, slot, 0, n);
            emit(c, OP_JMP, loop, 0, n);
            if (c->overflow) break;
            c->prog[pr].y = c->n;      /* an empty iteration leaves the loop (java.util.regex Loop) */
            if (n->greedy) { c->prog[sp].x = sp + 1; c->prog[sp].y = c->n; }
            else { c->prog[sp].x = c->n; c->prog[sp].y = sp + 1; }
        } else {
            int opt = n->max - n->min;
            int *splits = WA_ARRAY(c->a, int, opt > 0 ? opt : 1);
            int ns = 0;
            for (int i = 0; i < opt && !c->overflow; i++) {
                int sp = emit(c, OP_SPLIT, 0, 0, n);
                splits[ns++] = sp;
                compile(c, kid, base_slots);
            }
            if (c->overflow) break;
            for (int k = 0; k < ns; k++) {
                int sp = splits[k];
                if (n->greedy) { c->prog[sp].x = sp + 1; c->prog[sp].y = c->n; }
                else { c->prog[sp].x = c->n; c->prog[sp].y = sp + 1; }
            }
        }
        break;
    }
    default: break;
    }
}

static int count_loops(const Node *n)
{
    int k = n->kind == N_REPEAT && n->max == -1 ? 1 : 0;
    int mult = n->kind == N_REPEAT ? (n->max > n->min ? n->max : n->min) + 1 : 1;
    int sub = 0;
    for (int i = 0; i < n->nkids; i++) sub += count_loops(n->kids[i]);
    long total = (long)k + (long)sub * mult;
    return total > 1000000 ? 1000000 : (int)total;
}

/* The longest run of literal ASCII characters (case-sensitive) that every match of n contains,
   into best (at most cap <= 64 bytes); returns its length. Looks through concatenations, groups and
   repetitions of at least one; an alternation or an optional part contributes nothing. */
static int required_literal(const Node *n, char *best, int cap)
{
    assert(cap <= 64);
    if (n->kind == N_GROUP) return n->nkids ? required_literal(n->kids[0], best, cap) : 0;
    if (n->kind == N_REPEAT) return n->min >= 1 && n->nkids ? required_literal(n->kids[0], best, cap) : 0;
    if (n->kind != N_CAT) return 0;
    int nbest = 0, run = 0;
    char cur[64], sub[64];
    for (int i = 0; i < n->nkids; i++) {
        const Node *k = n->kids[i];
        if (k->kind == N_CHAR && !k->icase && k->c > 0 && k->c < 128 && run < cap) {
            cur[run++] = (char)k->c;
            if (run > nbest) {
                memcpy(best, cur, (size_t)run);
                nbest = run;
            }
            continue;
        }
        run = 0;
        int m = required_literal(k, sub, cap);
        if (m > nbest) {
            memcpy(best, sub, (size_t)m);
            nbest = m;
        }
    }
    return nbest;
}

/* The most bytes a match of n spans; -1: no bound (a repetition without a maximum, a
   back-reference). A character class or any character: one code point, up to 4 bytes. */
enum { WIDTH_CAP = 1 << 20 };
static int max_width(const Node *n)
{
    switch (n->kind) {
    case N_EMPTY: case N_ASSERT: return 0;
    case N_CHAR: return n->icase || n->c >= 0x80 ? 4 : 1;
    case N_ANY: case N_CLASS: return 4;
    case N_GROUP: return n->nkids ? max_width(n->kids[0]) : 0;
    case N_CAT: case N_ALT: {
        int w = 0;
        for (int i = 0; i < n->nkids; i++) {
            int k = max_width(n->kids[i]);
            if (k < 0) return -1;
            w = n->kind == N_CAT ? w + k : (k > w ? k : w);
            if (w > WIDTH_CAP) return -1;
        }
        return w;
    }
    case N_REPEAT: {
        if (n->max < 0) return -1;
        int k = n->nkids ? max_width(n->kids[0]) : 0;
        if (k < 0 || (long)k * n->max > WIDTH_CAP) return -1;
        return k * n->max;
    }
    default: return -1;     /* a back-reference */
    }
}

/* At most how many bytes of a match of n come before the occurrence of lit (nlit characters of
   required_literal) that the match must contain, when lit is a run of characters of n's
   top-level concatenation (groups and repetitions of at least one looked through: a match starts
   with their first pass) after parts of bounded width; -1: not known. A match then starts at most
   that many bytes before the subject's first lit: the positions before are not tried (REGEXP_EXTRACT
   of '(&|^)channel_id=([^&]*)' over a URL: one try at the '&' instead of a byte-wise scan for it). */
static int literal_lead(const Node *n, const char *lit, int nlit)
{
    while ((n->kind == N_GROUP || (n->kind == N_REPEAT && n->min >= 1)) && n->nkids) n = n->kids[0];
    if (n->kind != N_CAT) return -1;
    int lead = 0;
    for (int j = 0; j < n->nkids; j++) {
        bool run = j + nlit <= n->nkids;
        for (int q = 0; q < nlit && run; q++) {
            const Node *k = n->kids[j + q];
            run = k->kind == N_CHAR && !k->icase && k->c == (unsigned char)lit[q];
        }
        if (run) return lead;
        int w = max_width(n->kids[j]);
        if (w < 0 || lead + w > WIDTH_CAP) return -1;
        lead += w;
    }
    return -1;
}

static bool class_has(const RClass *k, int c);

/* The first bytes of n's matches at a position after the first one tried (see WRegex.first) into
   set; *nullable: n can match the empty text. false: no such set (n may start with an assertion
   other than ^ or \A, a back-reference, or any character). ^ (not multi-line) and \A hold only at
   the subject's start, so a branch that begins with one adds nothing. */
static bool first_bytes(const Parser *ps, const Node *n, uint8_t *set, bool *nullable)
{
    *nullable = false;
    switch (n->kind) {
    case N_EMPTY: *nullable = true; return true;
    case N_CHAR:
        if (n->c >= 0x80 || n->icase) memset(set + 0x80, 1, 0x80);
        if (n->c < 0x80) {
            set[n->c] = 1;
            if (n->icase && n->c >= 'a' && n->c <= 'z') set[n->c - 32] = 1;
            if (n->icase && n->c >= 'A' && n->c <= 'Z') set[n->c + 32] = 1;
        }
        return true;
    case N_CLASS:
        for (int b = 0; b < 0x80; b++)
            if (ps->classes[n->c].ascii[b]) set[b] = 1;
        memset(set + 0x80, 1, 0x80);
        return true;
    case N_CAT:
        for (int i = 0; i < n->nkids; i++) {
            bool kid_nullable;
            if (!first_bytes(ps, n->kids[i], set, &kid_nullable)) return false;
            if (!kid_nullable) return true;
        }
        *nullable = true;
        return true;
    case N_ALT:
        for (int i = 0; i < n->nkids; i++) {
            bool kid_nullable;
            if (!first_bytes(ps, n->kids[i], set, &kid_nullable)) return false;
            *nullable |= kid_nullable;
        }
        return true;
    case N_GROUP:
        if (!n->nkids) { *nullable = true; return true; }
        return first_bytes(ps, n->kids[0], set, nullable);
    case N_REPEAT:
        if (!n->nkids || n->max == 0) { *nullable = true; return true; }
        if (!first_bytes(ps, n->kids[0], set, nullable)) return false;
        *nullable |= n->min == 0;
        return true;
    case N_ASSERT:
        return n->c == OP_BEGIN || (n->c == OP_BOL && !n->multiline);
    default:
        return false;       /* N_ANY, N_BACKREF */
    }
}

WRegex *wre_compile(WArena *a, const char *pat, int len, char **errmsg)
{
    Parser ps;
    memset(&ps, 0, sizeof ps);
    ps.a = a;
    ps.p = pat;
    ps.len = len;
    Node *root = parse_alt(&ps);
    if (root && ps.pos < ps.len) {
        fail(&ps, ps.p[ps.pos] == ')' ? "Unmatched closing ')'" : "Unexpected character");
        root = NULL;
    }
    if (!root) {
        if (errmsg) *errmsg = ps.err ? ps.err : wa_strdup(a, "Invalid regular expression");
        return NULL;
    }
    int base = 2 * (ps.ngroups + 1);
    int loops = count_loops(root);
    Comp c;
    memset(&c, 0, sizeof c);
    c.a = a;
    emit(&c, OP_SAVE, 0, 0, NULL);
    compile(&c, root, base);
    emit(&c, OP_SAVE, 1, 0, NULL);
    emit(&c, OP_MATCH, 0, 0, NULL);
    if (c.overflow) {
        if (errmsg) *errmsg = wa_strdup(a, "Regular expression is too large");
        return NULL;
    }
    (void)loops;
    WRegex *re = WA_NEW(a, WRegex);
    re->prog = c.prog;
    re->nprog = c.n;
    re->classes = ps.classes;
    re->nclasses = ps.nclasses;
    re->ngroups = ps.ngroups;
    re->nslots = base + c.marks;
    for (int k = 0; k < ps.nclasses; k++) {
        RClass *rc = &ps.classes[k];
        rc->ascii = wa_zalloc(a, 0x80);
        for (int b = 0; b < 0x80; b++) rc->ascii[b] = class_has(rc, b);
    }
    uint8_t *first = wa_zalloc(a, 256);
    bool nullable;
    if (first_bytes(&ps, root, first, &nullable) && !nullable) re->first = first;
    char lit[64];
    int nlit = required_literal(root, lit, (int)sizeof lit);
    if (nlit >= 2) {
        char *l = wa_alloc(a, (size_t)nlit);
        memcpy(l, lit, (size_t)nlit);
        re->lit = l;
        re->nlit = nlit;
        re->lit_lead = literal_lead(root, l, nlit);
    } else {
        re->lit_lead = -1;
    }
    return re;
}

int wre_ngroups(const WRegex *re) { return re->ngroups; }

/* ---------------------------------------------------------------- matcher */

static int fold(int c)
{
    if (c >= 'A' && c <= 'Z') return c + 32;
    if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 32;
    return c;
}

static bool is_word(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

/* A word character for \b and \B: java.util.regex's Bound takes '_' and Character.isLetterOrDigit,
   so letters beyond ASCII count (\w does not: is_word). */
static bool is_bound_word(int c) { return c == '_' || wf_java_alnum(c); }

static bool class_has(const RClass *k, int c)
{
    bool in = false;
    for (int r = 0; r < k->n && !in; r++) {
        if (c >= k->lo[r] && c <= k->hi[r]) in = true;
        else if (k->icase) {
            int f = fold(c), u = (c >= 'a' && c <= 'z') ? c - 32 : c;
            if ((f >= k->lo[r] && f <= k->hi[r]) || (u >= k->lo[r] && u <= k->hi[r])) in = true;
        }
    }
    if (!in && k->neg_builtin) {
        if ((k->neg_builtin & 1) && !(c >= '0' && c <= '9')) in = true;
        if ((k->neg_builtin & 2) && !is_word(c)) in = true;
        if ((k->neg_builtin & 4) && !(c == ' ' || (c >= '\t' && c <= '\r'))) in = true;
    }
    return k->neg ? !in : in;
}

static bool line_term(int c) { return c == '\n' || c == '\r' || c == 0x85 || c == 0x2028 || c == 0x2029; }

typedef struct Frame { int pc, sp, slot, old; } Frame;

/* The backtrack stack: frames on the caller's C stack first (most matches need few), moved to
   the heap when they outgrow it. */
typedef struct Stack { Frame *f; int n, cap; bool heap; } Stack;

static bool grow(Stack *st)
{
    int nc = st->cap ? st->cap * 2 : 256;
    if (nc > 50000000) return false;
    if (st->heap) {
        st->f = wrealloc(st->f, sizeof(Frame) * (size_t)nc);
    } else {
        Frame *f = wmalloc(sizeof(Frame) * (size_t)nc);
        memcpy(f, st->f, sizeof(Frame) * (size_t)st->n);
        st->f = f;
        st->heap = true;
    }
    st->cap = nc;
    return true;
}

static inline bool push(Stack *st, int pc, int sp, int slot, int old)
{
    if (st->n == st->cap && !grow(st)) return false;
    st->f[st->n++] = (Frame){ pc, sp, slot, old };
    return true;
}

/* The code point at s[sp] (sp < len) and its length in *adv; ASCII without a call. */
static inline int cp_at(const char *s, int sp, int len, int *adv)
{
    unsigned char b = (unsigned char)s[sp];
    if (b < 0x80) { *adv = 1; return b; }
    return wf_u8_decode(s + sp, len - sp, adv);
}

static int prev_cp(const char *s, int sp)
{
    if (sp <= 0) return -1;
    int b = sp - 1;
    while (b > 0 && ((unsigned char)s[b] & 0xC0) == 0x80) b--;
    int adv;
    return wf_u8_decode(s + b, sp - b, &adv);
}

#define MAX_STEPS 20000000L

/* Does the one-character instruction in (OP_CHAR, OP_ANY, OP_CLASS) match at s[sp]? *adv: the
   character's bytes. */
static inline bool one_char(const WRegex *re, const Inst *in, const char *s, int sp, int len, int *adv)
{
    if (sp >= len) return false;
    int c = cp_at(s, sp, len, adv);
    switch (in->op) {
    case OP_CHAR: return c == in->x || (in->icase && fold(c) == fold(in->x));
    case OP_ANY: return in->dotall || !line_term(c);
    case OP_CLASS: {
        const RClass *k = &re->classes[in->x];
        return c < 0x80 ? k->ascii[c] : class_has(k, c);
    }
    default: assert(!"one_char: not a one-character instruction"); return false;
    }
}

/* The start of the code point before position sp (> from) of s, stepping as cp_at does from
   `from`: an ASCII byte is one; otherwise the code points from `from` are walked (a backtrack into
   non-ASCII text). */
static int cp_before(const char *s, int from, int sp, int len)
{
    if ((unsigned char)s[sp - 1] < 0x80) return sp - 1;
    int q = from, adv;
    for (;;) {
        cp_at(s, q, len, &adv);
        if (q + adv >= sp) return q;
        q += adv;
    }
}

static bool run(const WRegex *re, const char *s, int len, int start, bool full, int *slots, Stack *st, long *steps)
{
    st->n = 0;
    int pc = 0, sp = start;
    for (;;) {
        if (++*steps > MAX_STEPS) return false;
        const Inst *in = &re->prog[pc];
        bool ok = true;
        switch (in->op) {
        case OP_CHAR: case OP_ANY: case OP_CLASS: {
            int adv;
            if (one_char(re, in, s, sp, len, &adv)) { sp += adv; pc++; }
            else ok = false;
            break;
        }
        case OP_STAR: {
            /* all the characters it takes; a frame to give one back at each backtrack (slot -2:
               sp the position tried, old the loop's start) */
            const Inst *body = &re->prog[in->x];
            int p = sp, adv;
            while (one_char(re, body, s, p, len, &adv)) {
                p += adv;
                if (++*steps > MAX_STEPS) return false;
            }
            if (p > sp && !push(st, in->y, p, -2, sp)) return false;
            sp = p;
            pc = in->y;
            break;
        }
        case OP_SPLIT:
            if (!push(st, in->y, sp, -1, 0)) return false;
            pc = in->x;
            break;
        case OP_JMP: pc = in->x; break;
        case OP_SAVE: case OP_MARK:
            if (!push(st, 0, 0, in->x, slots[in->x])) return false;
            slots[in->x] = sp;
            pc++;
            break;
        case OP_PROGRESS:
            pc = slots[in->x] == sp ? in->y : pc + 1;
            break;
        case OP_MATCH:
            if (full && sp != len) { ok = false; break; }
            return true;
        case OP_BOL:
            /* multi-line (java.util.regex's Caret): never at the end of the input, after a line
               terminator, and not between the \r and \n of one line break */
            if (in->multiline ? sp < len && (sp == 0 || (line_term(prev_cp(s, sp)) && !(s[sp - 1] == '\r' && s[sp] == '\n')))
                              : sp == 0) pc++;
            else ok = false;
            break;
        case OP_EOL:
            if (in->multiline) {
                if (sp == len) { pc++; break; }
                int adv;
                if (line_term(wf_u8_decode(s + sp, len - sp, &adv))) pc++;
                else ok = false;
            } else {
                if (sp == len || (sp == len - 1 && s[sp] == '\n') ||
                    (sp == len - 2 && s[sp] == '\r' && s[sp + 1] == '\n')) pc++;
                else ok = false;
            }
            break;
        case OP_WORDB: case OP_NWORDB: {
            int adv;
            bool a = sp > 0 && is_bound_word(prev_cp(s, sp));
            bool b = sp < len && is_bound_word(wf_u8_decode(s + sp, len - sp, &adv));
            if ((a != b) == (in->op == OP_WORDB)) pc++;
            else ok = false;
            break;
        }
        case OP_BEGIN: if (sp == 0) pc++; else ok = false; break;
        case OP_END: if (sp == len) pc++; else ok = false; break;
        case OP_ENDZ:
            if (sp == len || (sp == len - 1 && s[sp] == '\n')) pc++;
            else ok = false;
            break;
        case OP_BACKREF: {
            int g = in->x;
            if (g > re->ngroups || slots[2 * g] < 0 || slots[2 * g + 1] < 0) { ok = false; break; }
            int gl = slots[2 * g + 1] - slots[2 * g];
            if (sp + gl > len) { ok = false; break; }
            bool eq = true;
            for (int k = 0; k < gl && eq; k++) {
                char x = s[slots[2 * g] + k], y = s[sp + k];
                eq = x == y || (in->icase && fold((unsigned char)x) == fold((unsigned char)y));
            }
            if (!eq) { ok = false; break; }
            sp += gl;
            pc++;
            break;
        }
        default: ok = false; break;
        }
        if (ok) continue;
        /* backtrack */
        for (;;) {
            if (st->n == 0) return false;
            Frame f = st->f[--st->n];
            if (f.slot >= 0) { slots[f.slot] = f.old; continue; }
            pc = f.pc;
            sp = f.sp;
            if (f.slot == -2) {         /* an OP_STAR gives back one character */
                sp = cp_before(s, f.old, f.sp, len);
                if (sp > f.old && !push(st, f.pc, sp, -2, f.old)) return false;
            }
            break;
        }
    }
}

bool wre_exec(const WRegex *re, const char *s, int len, int start, bool anchored, bool full, int *caps)
{
    int from = start;
    if (re->nlit) {
        const char *hit = len - start < re->nlit ? NULL : wmem_find(s + start, (size_t)(len - start), re->lit, (size_t)re->nlit);
        if (!hit) return false;     /* every match contains re->lit */
        if (re->lit_lead >= 0 && !anchored && hit - s - re->lit_lead > start) {
            from = (int)(hit - s) - re->lit_lead;
            while (from > start && ((unsigned char)s[from] & 0xC0) == 0x80) from--;    /* a code point's start */
        }
    }
    int ns = re->nslots;
    int local[64];
    int *slots = ns <= 64 ? local : wmalloc(sizeof(int) * (size_t)ns);
    Frame frames[128];
    Stack st = { frames, 0, (int)(sizeof frames / sizeof frames[0]), false };
    long steps = 0;
    bool found = false;
    for (int pos = from; pos <= len; ) {
        if (re->first && pos > start && !anchored) {
            /* no match starts here: an ASCII byte outside the first bytes (one code point), or
               the end (a match is not empty) */
            while (pos < len && !re->first[(unsigned char)s[pos]]) pos++;
            if (pos == len) break;
        }
        for (int k = 0; k < ns; k++) slots[k] = -1;
        if (run(re, s, len, pos, full, slots, &st, &steps)) { found = true; break; }
        if (anchored || steps > MAX_STEPS) break;
        if (pos >= len) break;
        int adv;
        cp_at(s, pos, len, &adv);
        pos += adv;
    }
    if (found && caps)
        for (int k = 0; k < 2 * (re->ngroups + 1); k++) caps[k] = slots[k];
    if (st.heap) free(st.f);
    if (slots != local) free(slots);
    return found;
}
