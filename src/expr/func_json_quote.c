/*
 * func_json_quote.c — JSON_QUOTE and JSON_UNQUOTE with the results Flink 2.3 gives (measured by
 * tests/flink/functions):
 *   JSON_QUOTE(s): s in double quotes; '"', '\' and '/' escaped with a backslash, \b \f \n \r \t
 *     as such, other ASCII characters as they are, every other character as \u and the lower-case
 *     hex of its code point, at least 4 digits ('ß' is \u00df); a character outside the BMP is
 *     written as Flink writes it, \u of the whole code point followed by \u of its low surrogate
 *     ('😀' is \u1f600\ude00).
 *   JSON_UNQUOTE(s): a JSON string literal ("...") unescaped; any other text, or one whose escapes
 *     are malformed, is returned unchanged ('[1]', '"unterminated').
 * A NULL argument gives NULL. Depends on func_impl.h.
 */
#include "func_impl.h"

#define EV(nm) static void nm(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, \
                              const uint8_t *act, WVector *out)
#define INF(nm) static const WType *nm(WArena *a, const WType **t, int n, const WType **co, WError *err)

INF(inf_json_quote)
{
    (void)co;
    if (!wf_check(err, "JSON_QUOTE", t, n, "S")) return NULL;
    return wf_string(a, wf_any_nullable(t, n));
}

INF(inf_json_unquote)
{
    (void)co;
    if (!wf_check(err, "JSON_UNQUOTE", t, n, "S")) return NULL;
    return wf_string(a, wf_any_nullable(t, n));
}

EV(ev_json_quote)
{
    (void)call; (void)na;
    WStrBuf b;
    wsb_init(&b);
    WF_FOR(i, n, act) {
        WStr s = av[0]->data[i].s;
        wsb_clear(&b);
        wsb_putc(&b, '"');
        for (int k = 0; k < s.len;) {
            int adv;
            int cp = wf_u8_decode(s.p + k, s.len - k, &adv);
            k += adv > 0 ? adv : 1;
            switch (cp) {
            case '"': wsb_append(&b, "\\\""); continue;
            case '\\': wsb_append(&b, "\\\\"); continue;
            case '/': wsb_append(&b, "\\/"); continue;
            case '\b': wsb_append(&b, "\\b"); continue;
            case '\f': wsb_append(&b, "\\f"); continue;
            case '\n': wsb_append(&b, "\\n"); continue;
            case '\r': wsb_append(&b, "\\r"); continue;
            case '\t': wsb_append(&b, "\\t"); continue;
            default: break;
            }
            if (cp < 0x80) wsb_putc(&b, (char)cp);
            else if (cp < 0x10000) wsb_printf(&b, "\\u%04x", (unsigned)cp);
            else wsb_printf(&b, "\\u%x\\u%04x", (unsigned)cp, (unsigned)(0xDC00 + ((cp - 0x10000) & 0x3FF)));
        }
        wsb_putc(&b, '"');
        wf_set_str(ctx, out, i, b.buf, b.len);
    }
    wsb_free(&b);
}

static int hex4(const char *p)
{
    int v = 0;
    for (int k = 0; k < 4; k++) {
        char c = p[k];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

/* the unescaped text of the JSON string literal s into b; false when s is not one */
static bool unquote(WStr s, WStrBuf *b)
{
    if (s.len < 2 || s.p[0] != '"' || s.p[s.len - 1] != '"') return false;
    for (int k = 1; k < s.len - 1; k++) {
        char c = s.p[k];
        if (c == '"') return false;
        if (c != '\\') { wsb_putc(b, c); continue; }
        if (++k >= s.len - 1) return false;
        switch (s.p[k]) {
        case '"': wsb_putc(b, '"'); break;
        case '\\': wsb_putc(b, '\\'); break;
        case '/': wsb_putc(b, '/'); break;
        case 'b': wsb_putc(b, '\b'); break;
        case 'f': wsb_putc(b, '\f'); break;
        case 'n': wsb_putc(b, '\n'); break;
        case 'r': wsb_putc(b, '\r'); break;
        case 't': wsb_putc(b, '\t'); break;
        case 'u': {
            if (k + 4 >= s.len) return false;
            int cp = hex4(s.p + k + 1);
            if (cp < 0) return false;
            k += 4;
            if (cp >= 0xD800 && cp < 0xDC00 && k + 6 < s.len && s.p[k + 1] == '\\' && s.p[k + 2] == 'u') {
                int lo = hex4(s.p + k + 3);
                if (lo >= 0xDC00 && lo < 0xE000) { cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00); k += 6; }
            }
            char u[4];
            int m = wf_u8_encode(cp, u);
            wsb_appendn(b, u, (size_t)m);
            break;
        }
        default: return false;
        }
    }
    return true;
}

EV(ev_json_unquote)
{
    (void)call; (void)na;
    WStrBuf b;
    wsb_init(&b);
    WF_FOR(i, n, act) {
        WStr s = av[0]->data[i].s;
        wsb_clear(&b);
        if (unquote(s, &b)) wf_set_str(ctx, out, i, b.buf ? b.buf : "", b.len);
        else wf_set_ref(out, i, s.p, s.len);
    }
    wsb_free(&b);
}

static const WFuncDef D_JSON_QUOTE = { "JSON_QUOTE", 1, 1, false, true, inf_json_quote, ev_json_quote, NULL };
static const WFuncDef D_JSON_UNQUOTE = { "JSON_UNQUOTE", 1, 1, false, true, inf_json_unquote, ev_json_unquote, NULL };

const WFuncDef *const wf_json_quote_defs[] = { &D_JSON_QUOTE, &D_JSON_UNQUOTE, NULL };
