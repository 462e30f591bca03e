/*
 * json_path.c — compiling and evaluating SQL/JSON paths with Jayway JsonPath's semantics under
 * Flink's options (see json_path.h). Depends on common/json.h, common/strbuf.h.
 */
#include "json_path.h"
#include "../common/strbuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef enum { JT_PROP, JT_INDEX, JT_SLICE, JT_WILD, JT_SCAN } JTKind;

struct WJsonPathTok {
    JTKind kind;
    const char *name;           /* PROP / SCAN: property name */
    int nlen;
    int nidx;                   /* INDEX: indexes */
    int *idx;
    bool has_from, has_to;      /* SLICE */
    int from, to;
    bool upstream_definite;     /* every token before this one is definite */
    bool definite;              /* this token selects at most one value */
};

static bool bad(char *err, size_t errsz, const char *spec, size_t len)
{
    snprintf(err, errsz, "Illegal jsonpath spec ''%.*s'', format of the spec should be: ''<lax|strict> $'{'expr'}'''",
             (int)len, spec);
    return false;
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

static bool parse_int(const char **pp, const char *end, int *out)
{
    const char *p = *pp;
    while (p < end && *p == ' ') p++;
    bool neg = false;
    if (p < end && *p == '-') { neg = true; p++; }
    if (p >= end || *p < '0' || *p > '9') return false;
    long v = 0;
    while (p < end && *p >= '0' && *p <= '9') { v = v * 10 + (*p - '0'); if (v > 1000000000L) return false; p++; }
    while (p < end && *p == ' ') p++;
    *out = (int)(neg ? -v : v);
    *pp = p;
    return true;
}

bool wjpath_compile(WArena *a, const char *spec, size_t len, WJsonPath *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    /* ^\s*(strict|lax)\s+(.+)$ , case-insensitive; no match: strict, the whole spec is the path */
    const char *p = spec, *end = spec + len;
    const char *q = p;
    while (q < end && is_space(*q)) q++;
    const char *body = spec, *bend = end;
    int ml = 0;
    if ((size_t)(end - q) > 6 && strncasecmp(q, "strict", 6) == 0) ml = 6;
    else if ((size_t)(end - q) > 3 && strncasecmp(q, "lax", 3) == 0) ml = 3;
    if (ml && is_space(q[ml])) {
        const char *r = q + ml;
        while (r < end && is_space(*r)) r++;
        if (r < end) {
            /* (.+) is greedy after \s+ which gives back one blank at least: the path starts at r */
            out->lax = ml == 3;
            body = r;
        }
    }
    /* Jayway trims the path; an empty path is an IllegalArgumentException */
    while (body < bend && is_space(*body)) body++;
    while (bend > body && is_space(bend[-1])) bend--;
    if (body == bend) { snprintf(err, errsz, "Path can not be null or empty"); return false; }
    WStrBuf pb;
    wsb_init(&pb);
    if (*body != '$' && *body != '@') wsb_append(&pb, "$.");
    wsb_appendn(&pb, body, (size_t)(bend - body));
    const char *s = wa_memdup(a, pb.buf, pb.len + 1);
    const char *e = s + pb.len;
    wsb_free(&pb);
    if (*s == '@') return bad(err, errsz, spec, len);
    if (e[-1] == '.') return bad(err, errsz, spec, len);
    int cap = 8, n = 0;
    WJsonPathTok *t = WA_ARRAY(a, WJsonPathTok, cap);
    const char *c = s + 1;
    while (c < e) {
        if (n == cap) {
            WJsonPathTok *nt = WA_ARRAY(a, WJsonPathTok, cap * 2);
            memcpy(nt, t, sizeof *t * (size_t)n);
            t = nt;
            cap *= 2;
        }
        WJsonPathTok *k = &t[n];
        memset(k, 0, sizeof *k);
        if (*c == '.') {
            c++;
            bool scan = false;
            if (c < e && *c == '.') { scan = true; c++; }
            if (c >= e) return bad(err, errsz, spec, len);
            if (*c == '*') {
                k->kind = scan ? JT_SCAN : JT_WILD;     /* '..*': scan of every value */
                k->name = NULL;
                c++;
            } else if (*c == '[') {
                if (scan) return bad(err, errsz, spec, len);
                continue;                               /* '.[' is read as the bracket */
            } else {
                const char *st = c;
                while (c < e && *c != '.' && *c != '[' && !is_space(*c) && *c != '(' && *c != ')') c++;
                if (c < e && !(*c == '.' || *c == '[')) return bad(err, errsz, spec, len);
                k->kind = scan ? JT_SCAN : JT_PROP;
                k->name = st;
                k->nlen = (int)(c - st);
            }
            n++;
            continue;
        }
        if (*c != '[') return bad(err, errsz, spec, len);
        c++;
        while (c < e && *c == ' ') c++;
        if (c >= e) return bad(err, errsz, spec, len);
        if (*c == '\'' || *c == '"') {
            char qc = *c++;
            const char *st = c;
            WStrBuf nb;
            wsb_init(&nb);
            while (c < e && *c != qc) {
                if (*c == '\\' && c + 1 < e) c++;
                wsb_putc(&nb, *c++);
            }
            (void)st;
            if (c >= e) { wsb_free(&nb); return bad(err, errsz, spec, len); }
            c++;
            while (c < e && *c == ' ') c++;
            if (c >= e || *c != ']') { wsb_free(&nb); return bad(err, errsz, spec, len); }  /* ['a','b'] unsupported */
            c++;
            k->kind = JT_PROP;
            k->name = wa_memdup(a, nb.buf, nb.len + 1);
            k->nlen = (int)nb.len;
            wsb_free(&nb);
            n++;
            continue;
        }
        if (*c == '*') {
            c++;
            while (c < e && *c == ' ') c++;
            if (c >= e || *c != ']') return bad(err, errsz, spec, len);
            c++;
            k->kind = JT_WILD;
            n++;
            continue;
        }
        if (*c == '?' || *c == '(') return bad(err, errsz, spec, len);     /* filters: not supported */
        /* indexes or a slice */
        const char *close = memchr(c, ']', (size_t)(e - c));
        if (!close) return bad(err, errsz, spec, len);
        if (memchr(c, ':', (size_t)(close - c))) {
            k->kind = JT_SLICE;
            const char *r = c;
            while (r < close && *r == ' ') r++;
            if (*r != ':') { if (!parse_int(&r, close, &k->from)) return bad(err, errsz, spec, len); k->has_from = true; }
            if (r >= close || *r != ':') return bad(err, errsz, spec, len);
            r++;
            while (r < close && *r == ' ') r++;
            if (r < close) { if (!parse_int(&r, close, &k->to)) return bad(err, errsz, spec, len); k->has_to = true; }
            if (r != close) return bad(err, errsz, spec, len);
        } else {
            k->kind = JT_INDEX;
            int ni = 1;
            for (const char *r = c; r < close; r++) if (*r == ',') ni++;
            k->idx = WA_ARRAY(a, int, ni);
            const char *r = c;
            for (int i = 0; i < ni; i++) {
                if (!parse_int(&r, close, &k->idx[i])) return bad(err, errsz, spec, len);
                if (i + 1 < ni) { if (*r != ',') return bad(err, errsz, spec, len); r++; }
            }
            if (r != close) return bad(err, errsz, spec, len);
            k->nidx = ni;
        }
        c = close + 1;
        n++;
    }
    bool defin = true;
    for (int i = 0; i < n; i++) {
        t[i].upstream_definite = defin;
        t[i].definite = t[i].kind == JT_PROP || (t[i].kind == JT_INDEX && t[i].nidx == 1);
        if (!t[i].definite) defin = false;
    }
    out->definite = defin;
    out->ntok = n;
    out->toks = t;
    return true;
}

/* ------------------------------------------------------------------------------------------ */

typedef struct Eval {
    WArena *a;
    const WJsonPath *p;
    bool lax;
    WJson *results;             /* array node collecting results */
    char *err;
    size_t errsz;
    bool failed;
} Eval;

static bool ev_fail(Eval *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool ev_fail(Eval *v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->err, v->errsz, fmt, ap);
    va_end(ap);
    v->failed = true;
    return false;
}

/* Java class of a value as Jackson reads it into an Object. */
static const char *java_class(const WJson *x)
{
    if (!x || x->kind == WJ_NULL) return "null";
    switch (x->kind) {
    case WJ_TRUE: case WJ_FALSE: return "java.lang.Boolean";
    case WJ_STRING: return "java.lang.String";
    case WJ_ARRAY: return "java.util.ArrayList";
    case WJ_OBJECT: return "java.util.LinkedHashMap";
    case WJ_NUMBER: {
        if (x->is_float) return "java.math.BigDecimal";
        int digits = x->len - (x->s[0] == '-');
        if (digits < 10) return "java.lang.Integer";
        long long lim = 0;
        char *endp;
        errno = 0;
        lim = strtoll(x->s, &endp, 10);
        if (digits <= 19 && errno == 0) return lim >= -2147483648LL && lim <= 2147483647LL ? "java.lang.Integer" : "java.lang.Long";
        return "java.math.BigInteger";
    }
    default: return "null";
    }
}

static void path_append_prop(WStrBuf *b, const char *name, int n)
{
    wsb_append(b, "['");
    wsb_appendn(b, name, (size_t)n);
    wsb_append(b, "']");
}

static bool walk(Eval *v, int ti, const WJson *model, WStrBuf *path);

static bool add_or_next(Eval *v, int ti, const WJson *hit, WStrBuf *path)
{
    if (ti + 1 >= v->p->ntok) {
        wjson_push(v->a, v->results, hit ? (WJson *)hit : wjson_new(v->a, WJ_NULL));
        return true;
    }
    return walk(v, ti + 1, hit, path);
}

static bool is_map(const WJson *m) { return m && m->kind == WJ_OBJECT; }
static bool is_arr(const WJson *m) { return m && m->kind == WJ_ARRAY; }

static bool array_check(Eval *v, const WJsonPathTok *k, const WJson *model, WStrBuf *path, const char *tok)
{
    if (is_arr(model)) return true;
    if (!k->upstream_definite || v->lax) return false;
    if (!model || model->kind == WJ_NULL) return ev_fail(v, "The path %s is null", path->buf);
    WStrBuf b;
    wsb_init(&b);
    wjson_java_string(model, &b);
    ev_fail(v, "Filter: %s can only be applied to arrays. Current context is: %s", tok, b.buf);
    wsb_free(&b);
    return false;
}

static bool index_hit(Eval *v, int ti, const WJson *model, int idx, WStrBuf *path)
{
    int eff = idx < 0 ? model->n + idx : idx;
    if (eff < 0 || eff >= model->n) return true;      /* IndexOutOfBounds: nothing */
    size_t mark = path->len;
    wsb_printf(path, "[%d]", idx);
    bool ok = add_or_next(v, ti, model->items[eff], path);
    path->len = mark;
    path->buf[mark] = 0;
    return ok;
}

/* ..name / ..* : the next step applied to every node of the tree, parents before children */
static bool scan(Eval *v, int ti, const WJson *model, WStrBuf *path)
{
    const WJsonPathTok *k = &v->p->toks[ti];
    if (is_map(model)) {
        if (k->name) {
            const WJson *x = wjson_get(model, k->name, (size_t)k->nlen);
            if (x) {
                size_t mark = path->len;
                path_append_prop(path, k->name, k->nlen);
                bool ok = add_or_next(v, ti, x, path);
                path->len = mark;
                path->buf[mark] = 0;
                if (!ok) return false;
            }
        }
        for (int i = 0; i < model->n; i++) {
            size_t mark = path->len;
            path_append_prop(path, model->keys[i], model->key_lens[i]);
            bool ok = true;
            if (!k->name) ok = add_or_next(v, ti, model->items[i], path);
            if (ok && (is_map(model->items[i]) || is_arr(model->items[i]))) ok = scan(v, ti, model->items[i], path);
            path->len = mark;
            path->buf[mark] = 0;
            if (!ok) return false;
        }
    } else if (is_arr(model)) {
        for (int i = 0; i < model->n; i++) {
            size_t mark = path->len;
            wsb_printf(path, "[%d]", i);
            bool ok = true;
            if (!k->name) ok = add_or_next(v, ti, model->items[i], path);
            if (ok && (is_map(model->items[i]) || is_arr(model->items[i]))) ok = scan(v, ti, model->items[i], path);
            path->len = mark;
            path->buf[mark] = 0;
            if (!ok) return false;
        }
    }
    return true;
}

static bool walk(Eval *v, int ti, const WJson *model, WStrBuf *path)
{
    const WJsonPathTok *k = &v->p->toks[ti];
    bool leaf = ti + 1 >= v->p->ntok;
    switch (k->kind) {
    case JT_PROP: {
        if (!is_map(model)) {
            if (!k->upstream_definite || v->lax) return true;
            return ev_fail(v, "Expected to find an object with property ['%.*s'] in path %s but found '%s'. "
                              "This is not a json object according to the JsonProvider: "
                              "'com.jayway.jsonpath.spi.json.JacksonJsonProvider'.",
                           k->nlen, k->name, path->buf, java_class(model));
        }
        const WJson *x = wjson_get(model, k->name, (size_t)k->nlen);
        if (!x) {
            if (leaf) return true;
            if (!(k->upstream_definite && k->definite) || v->lax) return true;
            return ev_fail(v, "Missing property in path %s['%.*s']", path->buf, k->nlen, k->name);
        }
        size_t mark = path->len;
        path_append_prop(path, k->name, k->nlen);
        bool ok = add_or_next(v, ti, x, path);
        path->len = mark;
        path->buf[mark] = 0;
        return ok;
    }
    case JT_INDEX: {
        char tok[64];
        snprintf(tok, sizeof tok, "[%d%s]", k->idx[0], k->nidx > 1 ? ", ..." : "");
        if (!array_check(v, k, model, path, tok)) return !v->failed;
        for (int i = 0; i < k->nidx; i++)
            if (!index_hit(v, ti, model, k->idx[i], path)) return false;
        return true;
    }
    case JT_SLICE: {
        if (!array_check(v, k, model, path, "[:]")) return !v->failed;
        int n = model->n, from, to;
        if (k->has_from && !k->has_to) {        /* [n:] ; negative counts from the end */
            from = k->from < 0 ? n + k->from : k->from;
            if (from < 0) from = 0;
            to = n;
        } else if (!k->has_from) {              /* [:n] ; negative: all but the last -n */
            from = 0;
            to = k->has_to ? (k->to < 0 ? n + k->to : k->to) : n;
        } else {
            from = k->from < 0 ? n + k->from : k->from;
            to = k->to < 0 ? n + k->to : k->to;
            if (from < 0) from = 0;
        }
        if (to > n) to = n;
        for (int i = from; i < to; i++)
            if (!index_hit(v, ti, model, i, path)) return false;
        return true;
    }
    case JT_WILD:
        if (is_map(model)) {
            for (int i = 0; i < model->n; i++) {
                size_t mark = path->len;
                path_append_prop(path, model->keys[i], model->key_lens[i]);
                bool ok = add_or_next(v, ti, model->items[i], path);
                path->len = mark;
                path->buf[mark] = 0;
                if (!ok) return false;
            }
        } else if (is_arr(model)) {
            for (int i = 0; i < model->n; i++)
                if (!index_hit(v, ti, model, i, path)) return false;
        }
        return true;
    case JT_SCAN:
        return scan(v, ti, model, path);
    }
    return true;
}

bool wjpath_eval(WArena *a, const WJsonPath *p, const WJson *root, const WJson **out, char *err, size_t errsz)
{
    *out = NULL;
    if (!root || root->kind == WJ_NULL) {
        snprintf(err, errsz, "json object can not be null");
        return false;
    }
    if (p->ntok == 0) { *out = root; return true; }
    Eval v = { .a = a, .p = p, .lax = p->lax, .err = err, .errsz = errsz };
    v.results = wjson_new(a, WJ_ARRAY);
    WStrBuf path;
    wsb_init(&path);
    wsb_putc(&path, '$');
    bool ok = walk(&v, 0, root, &path);
    if (!ok) {
        wsb_free(&path);
        if (v.lax) { *out = p->definite ? NULL : wjson_new(a, WJ_ARRAY); return true; }
        return false;
    }
    if (!p->definite) { wsb_free(&path); *out = v.results; return true; }
    if (v.results->n == 0) {
        if (v.lax) { wsb_free(&path); return true; }
        /* Jayway renders the compiled path in bracket notation */
        wsb_clear(&path);
        wsb_putc(&path, '$');
        for (int i = 0; i < p->ntok; i++) {
            if (p->toks[i].kind == JT_PROP) path_append_prop(&path, p->toks[i].name, p->toks[i].nlen);
            else wsb_printf(&path, "[%d]", p->toks[i].idx[0]);
        }
        snprintf(err, errsz, "No results for path: %s", path.buf);
        wsb_free(&path);
        return false;
    }
    wsb_free(&path);
    const WJson *r = v.results->items[v.results->n - 1];
    *out = r->kind == WJ_NULL ? NULL : r;
    return true;
}
