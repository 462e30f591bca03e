/*
 * func_regex.c — regular-expression functions with Flink's SqlFunctionUtils semantics:
 * REGEXP(s, re) (find; FALSE for an invalid pattern), REGEXP_EXTRACT(s, re [, group]) (group 0
 * by default; NULL for no match, an invalid pattern or group), REGEXP_REPLACE(s, re, r) (the
 * replacement is literal: Matcher.quoteReplacement; NULL for an invalid pattern), SIMILAR TO
 * ("SIMILAR"; Calcite's translation of SQL regular expressions, full match), STR_TO_MAP (Java
 * String.split with regex delimiters). Constant patterns are compiled once by `prepare`.
 * Depends on func_impl.h (the engine in func_regex_engine.c).
 */
#include "func_impl.h"

#define EV(nm) static void nm(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, \
                              const uint8_t *act, WVector *out)
#define INF(nm) static const WType *nm(WArena *a, const WType **t, int n, const WType **co, WError *err)

typedef struct Compiled {
    WRegex *re;         /* NULL when the pattern is invalid */
    char *errmsg;
} Compiled;

/* Prepare: compile argument `k` when it is a string literal. */
static bool prep_pattern_arg(WArena *a, WExpr *call, int k)
{
    if (call->nargs <= k) return true;
    const WExpr *p = call->args[k];
    if (p->kind != WX_LITERAL || p->is_null || !wtype_is_string(p->type)) return true;
    Compiled *c = WA_NEW(a, Compiled);
    c->re = wre_compile(a, p->lit.s.p, p->lit.s.len, &c->errmsg);
    call->aux = c;
    return true;
}

static bool prep_regex1(WArena *a, WExpr *call, WError *err) { (void)err; return prep_pattern_arg(a, call, 1); }

static const WRegex *pattern_for(WEvalCtx *ctx, const WExpr *call, WStr p)
{
    const Compiled *c = call->aux;
    if (c) return c->re;
    char *msg;
    return wre_compile(ctx->arena, p.p, p.len, &msg);
}

/* ---------------------------------------------------------------- REGEXP */

INF(inf_regexp)
{
    (void)co;
    if (!wf_check(err, "REGEXP", t, n, "SS")) return NULL;
    return wf_type(a, WT_BOOLEAN, wf_any_nullable(t, n));
}

EV(ev_regexp)
{
    (void)na;
    WF_FOR(i, n, act) {
        WStr s = av[0]->data[i].s, p = av[1]->data[i].s;
        if (p.len == 0) { out->data[i].i = 0; continue; }
        const WRegex *re = pattern_for(ctx, call, p);
        out->data[i].i = re ? wre_exec(re, s.p, s.len, 0, false, false, NULL) : 0;
    }
}

/* ---------------------------------------------------------------- REGEXP_EXTRACT */

INF(inf_regexp_extract)
{
    (void)co;
    if (!wf_check(err, "REGEXP_EXTRACT", t, n, "SSI|SS")) return NULL;
    return wf_string(a, true);
}

EV(ev_regexp_extract)
{
    WF_FOR(i, n, act) {
        WStr s = av[0]->data[i].s, p = av[1]->data[i].s;
        int64_t g = na > 2 ? av[2]->data[i].i : 0;
        const WRegex *re = pattern_for(ctx, call, p);
        if (!re || g < 0 || g > wre_ngroups(re)) { out->nulls[i] = 1; continue; }
        int caps[2 * 100 + 2];
        int *cp = wre_ngroups(re) < 100 ? caps : (int *)wf_alloc(ctx, sizeof(int) * (size_t)(2 * wre_ngroups(re) + 2));
        if (!wre_exec(re, s.p, s.len, 0, false, false, cp) || cp[2 * g] < 0 || cp[2 * g + 1] < 0) {
            out->nulls[i] = 1;
            continue;
        }
        wf_set_ref(out, i, s.p + cp[2 * g], cp[2 * g + 1] - cp[2 * g]);
    }
}

/* ---------------------------------------------------------------- REGEXP_REPLACE */

INF(inf_regexp_replace)
{
    (void)co;
    if (!wf_check(err, "REGEXP_REPLACE", t, n, "SSS")) return NULL;
    return wf_string(a, wf_any_nullable(t, n));
}

EV(ev_regexp_replace)
{
    (void)na;
    WF_FOR(i, n, act) {
        WStr s = av[0]->data[i].s, p = av[1]->data[i].s, r = av[2]->data[i].s;
        const WRegex *re = pattern_for(ctx, call, p);
        if (!re) { out->nulls[i] = 1; continue; }
        int ng = wre_ngroups(re);
        int *caps = (int *)wf_alloc(ctx, sizeof(int) * (size_t)(2 * ng + 2));
        WStrBuf b;
        wsb_init(&b);
        int pos = 0, last = 0;
        while (pos <= s.len && wre_exec(re, s.p, s.len, pos, false, false, caps)) {
            int ms = caps[0], me = caps[1];
            wsb_appendn(&b, s.p + last, (size_t)(ms - last));
            wsb_appendn(&b, r.p, (size_t)r.len);
            last = me;
            if (me == ms) {
                if (ms >= s.len) break;
                int adv;
                wf_u8_decode(s.p + ms, s.len - ms, &adv);
                pos = ms + adv;
            } else pos = me;
        }
        wsb_appendn(&b, s.p + last, (size_t)(s.len - last));
        wf_set_str(ctx, out, i, b.buf, b.len);
        wsb_free(&b);
    }
}

/* ---------------------------------------------------------------- SIMILAR TO */

/* Calcite's Like.sqlToRegexSimilar; returns NULL and sets err on a bad escape. */
static char *similar_to_java(WArena *a, WStr pat, int escape, WError *err)
{
    static const char *SQL_SPECIALS = "[]()|^-+*%_?{}";
    static const char *JAVA_SPECIALS = "[]()|^-+*?{}$\\.";
    WStrBuf b;
    wsb_init(&b);
    bool in_enum = false;
    for (int i = 0; i < pat.len; i++) {
        char c = pat.p[i];
        if (escape >= 0 && (unsigned char)c == escape) {
            if (i == pat.len - 1) {
                werr_set(err, "java.lang.RuntimeException", "Invalid escape sequence '%.*s', %d", pat.len, pat.p, i);
                wsb_free(&b);
                return NULL;
            }
            char nx = pat.p[i + 1];
            if (strchr(SQL_SPECIALS, nx)) {
                if (strchr(JAVA_SPECIALS, nx)) wsb_putc(&b, '\\');
                wsb_putc(&b, nx);
            } else if ((unsigned char)nx == escape) {
                if (strchr(JAVA_SPECIALS, nx)) wsb_putc(&b, '\\');
                wsb_putc(&b, nx);
            } else {
                werr_set(err, "java.lang.RuntimeException", "Invalid escape sequence '%.*s', %d", pat.len, pat.p, i);
                wsb_free(&b);
                return NULL;
            }
            i++;
            continue;
        }
        switch (c) {
        case '_': wsb_append(&b, in_enum ? "_" : "."); break;
        case '%': wsb_append(&b, in_enum ? "%" : "(?s:.*)"); break;
        case '[': in_enum = true; wsb_putc(&b, c); break;
        case ']': in_enum = false; wsb_putc(&b, c); break;
        case '\\': wsb_append(&b, "\\\\"); break;
        case '.': wsb_append(&b, "\\."); break;
        case '$': wsb_append(&b, "\\$"); break;
        case '^': wsb_append(&b, in_enum ? "^" : "\\^"); break;
        default: wsb_putc(&b, c); break;
        }
    }
    char *r = wa_memdup(a, b.buf ? b.buf : "", b.len + 1);
    wsb_free(&b);
    return r;
}

INF(inf_similar)
{
    (void)co;
    if (n < 2 || n > 3 || !wf_str(t[0]) || !wf_str(t[1]) || (n == 3 && !wf_str(t[2])))
        return wf_err_apply_op(err, "SIMILAR TO", t, n, "<STRING> SIMILAR TO <STRING>\n<STRING> SIMILAR TO <STRING> ESCAPE <STRING>");
    return wf_type(a, WT_BOOLEAN, wf_any_nullable(t, n));
}

static int escape_of(WStr e, WError *err, bool *ok)
{
    *ok = true;
    if (e.len != 1) {
        werr_set(err, "java.lang.RuntimeException", "Invalid escape character '%.*s'", e.len, e.p);
        *ok = false;
        return -1;
    }
    return (unsigned char)e.p[0];
}

static bool prep_similar(WArena *a, WExpr *call, WError *err)
{
    const WExpr *p = call->args[1];
    const WExpr *e = call->nargs > 2 ? call->args[2] : NULL;
    if (p->kind != WX_LITERAL || p->is_null || (e && (e->kind != WX_LITERAL || e->is_null))) return true;
    int esc = '\\';
    if (e) {
        bool ok;
        esc = escape_of(e->lit.s, err, &ok);
        if (!ok) return false;
    }
    char *jp = similar_to_java(a, p->lit.s, esc, err);
    if (!jp) return false;
    Compiled *c = WA_NEW(a, Compiled);
    c->re = wre_compile(a, jp, (int)strlen(jp), &c->errmsg);
    if (!c->re) {
        werr_set(err, "java.util.regex.PatternSyntaxException", "%s", c->errmsg);
        return false;
    }
    call->aux = c;
    return true;
}

EV(ev_similar)
{
    const Compiled *fixed = call->aux;
    WF_FOR(i, n, act) {
        const WRegex *re = fixed ? fixed->re : NULL;
        if (!re) {
            int esc = '\\';
            if (na > 2) {
                bool ok;
                esc = escape_of(av[2]->data[i].s, ctx->err, &ok);
                if (!ok) return;
            }
            char *jp = similar_to_java(ctx->arena, av[1]->data[i].s, esc, ctx->err);
            if (!jp) return;
            char *msg;
            re = wre_compile(ctx->arena, jp, (int)strlen(jp), &msg);
            if (!re) { wf_fail(ctx, "java.util.regex.PatternSyntaxException", "%s", msg); return; }
        }
        WStr s = av[0]->data[i].s;
        out->data[i].i = wre_exec(re, s.p, s.len, 0, true, true, NULL);
    }
}

/* ---------------------------------------------------------------- STR_TO_MAP */

INF(inf_str_to_map)
{
    (void)co;
    if (!wf_check(err, "STR_TO_MAP", t, n, "S|SSS")) return NULL;
    return wtype_map(a, &WTYPE_STRING, &WTYPE_STRING, wf_any_nullable(t, n));
}

/* Java String.split(regex, limit): parts into an arena array; trailing empties removed when limit == 0 */
static int java_split(WEvalCtx *ctx, WStr s, const WRegex *re, int limit, WStr **out)
{
    int cap = 8, cnt = 0;
    WStr *parts = WA_ARRAY(ctx->arena, WStr, cap);
    int caps[2 * 100 + 2];
    int ng = wre_ngroups(re);
    int *cp = ng < 100 ? caps : (int *)wf_alloc(ctx, sizeof(int) * (size_t)(2 * ng + 2));
    int pos = 0, last = 0;
    while ((limit <= 0 || cnt < limit - 1) && pos <= s.len && wre_exec(re, s.p, s.len, pos, false, false, cp)) {
        int ms = cp[0], me = cp[1];
        if (me == 0 && ms == 0) {          /* a zero-width match at the beginning never yields an empty leading part */
            if (s.len == 0) break;
            int adv;
            wf_u8_decode(s.p, s.len, &adv);
            pos = adv;
            continue;
        }
        if (cnt == cap) { WStr *np = WA_ARRAY(ctx->arena, WStr, cap * 2); memcpy(np, parts, sizeof(WStr) * (size_t)cap); parts = np; cap *= 2; }
        parts[cnt++] = (WStr){ s.p + last, ms - last };
        last = me;
        if (me == ms) {
            if (ms >= s.len) break;
            int adv;
            wf_u8_decode(s.p + ms, s.len - ms, &adv);
            pos = ms + adv;
        } else pos = me;
    }
    if (cnt == 0) { parts[0] = s; *out = parts; return 1; }
    if (cnt == cap) { WStr *np = WA_ARRAY(ctx->arena, WStr, cap + 1); memcpy(np, parts, sizeof(WStr) * (size_t)cap); parts = np; }
    parts[cnt++] = (WStr){ s.p + last, s.len - last };
    if (limit == 0)
        while (cnt > 0 && parts[cnt - 1].len == 0) cnt--;
    *out = parts;
    return cnt;
}

EV(ev_str_to_map)
{
    (void)call;
    WF_FOR(i, n, act) {
        WStr s = av[0]->data[i].s;
        WStr d1 = na > 1 ? av[1]->data[i].s : (WStr){ ",", 1 };
        WStr d2 = na > 2 ? av[2]->data[i].s : (WStr){ "=", 1 };
        WComposite *cx = WA_NEW(ctx->arena, WComposite);
        if (s.len == 0) {
            cx->n = 0;
            cx->vals = WA_ARRAY(ctx->arena, WDatum, 1);
            cx->nulls = WA_ARRAY(ctx->arena, uint8_t, 1);
            out->data[i].cx = cx;
            continue;
        }
        char *m1, *m2;
        const WRegex *r1 = wre_compile(ctx->arena, d1.p, d1.len, &m1);
        const WRegex *r2 = wre_compile(ctx->arena, d2.p, d2.len, &m2);
        if (!r1 || !r2) {
            wf_fail(ctx, "java.util.regex.PatternSyntaxException", "%s", r1 ? m2 : m1);
            return;
        }
        WStr *pairs;
        int np = java_split(ctx, s, r1, 0, &pairs);
        cx->vals = WA_ARRAY(ctx->arena, WDatum, 2 * (np > 0 ? np : 1));
        cx->nulls = WA_ARRAY(ctx->arena, uint8_t, 2 * (np > 0 ? np : 1));
        int cnt = 0;
        for (int k = 0; k < np; k++) {
            WStr *kv;
            int nkv = java_split(ctx, pairs[k], r2, 2, &kv);
            WStr key = kv[0];
            bool vnull = nkv < 2;
            WStr val = vnull ? (WStr){ NULL, 0 } : kv[1];
            if (nkv < 2) key = pairs[k];
            int at = -1;
            for (int j = 0; j < cnt; j++)
                if (cx->vals[2 * j].s.len == key.len && (key.len == 0 || memcmp(cx->vals[2 * j].s.p, key.p, (size_t)key.len) == 0)) { at = j; break; }
            if (at < 0) at = cnt++;
            cx->vals[2 * at].s = key;
            cx->nulls[2 * at] = 0;
            cx->vals[2 * at + 1].s = val;
            cx->nulls[2 * at + 1] = vnull;
        }
        cx->n = cnt;
        out->data[i].cx = cx;
    }
}

/* ---------------------------------------------------------------- table */

static const WFuncDef D_REGEXP = { "REGEXP", 2, 2, false, true, inf_regexp, ev_regexp, prep_regex1 };
static const WFuncDef D_REGEXP_EXTRACT = { "REGEXP_EXTRACT", 2, 3, false, true, inf_regexp_extract, ev_regexp_extract, prep_regex1 };
static const WFuncDef D_REGEXP_REPLACE = { "REGEXP_REPLACE", 3, 3, false, true, inf_regexp_replace, ev_regexp_replace, prep_regex1 };
static const WFuncDef D_SIMILAR = { "SIMILAR", 2, 3, false, true, inf_similar, ev_similar, prep_similar };
static const WFuncDef D_STR_TO_MAP = { "STR_TO_MAP", 1, 3, false, true, inf_str_to_map, ev_str_to_map, NULL };

const WFuncDef *const wf_regex_defs[] = {
    &D_REGEXP, &D_REGEXP_EXTRACT, &D_REGEXP_REPLACE, &D_SIMILAR, &D_STR_TO_MAP, NULL
};
