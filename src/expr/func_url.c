/*
 * func_url.c — PARSE_URL(url, part [, key]): a part of a URL as Flink 2.3 gives it, which is what
 * Java's java.net.URL(String) parses (Flink calls its getters): the protocol before the first ':'
 * (a letter, then letters, digits, '+', '-', '.'; lower-cased), known only for the protocols the
 * JDK has handlers for (http, https, ftp, file, jar, jrt, jmod, mailto), the reference after the
 * first '#', the query after the first '?', the authority after "//" (user info before a single
 * '@', an IPv6 host in brackets, a port of digits). A text java.net.URL refuses gives NULL, as an
 * unknown part does; PARSE_URL(url, 'QUERY', key) is the value of the first `key=` in the query
 * (at its start or after '&') up to the next '&'. Measured against Flink by tests/flink/functions.
 * Depends on func_impl.h.
 */
#include "func_impl.h"

#include <arpa/inet.h>
#include <ctype.h>

#define EV(nm) static void nm(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, \
                              const uint8_t *act, WVector *out)
#define INF(nm) static const WType *nm(WArena *a, const WType **t, int n, const WType **co, WError *err)

/* A piece of the URL's text (absent: Java's null; a present one may be empty). */
typedef struct Piece {
    const char *p;
    int len;
    bool present;
} Piece;

typedef struct JavaUrl {
    char protocol[16];
    Piece host, authority, userinfo, path, query, ref;
    bool path_slash;            /* path is "/" + path (a relative path after an authority) */
} JavaUrl;

static Piece piece(const char *p, int len) { return (Piece){p, len, true}; }
static Piece absent(void) { return (Piece){NULL, 0, false}; }

static int index_of(const char *s, int from, int to, char c)
{
    for (int i = from; i < to; i++)
        if (s[i] == c) return i;
    return -1;
}

/* Integer.parseInt of s[0..len): a sign, then at least one digit, within int. */
static bool java_parse_int(const char *s, int len, int *out)
{
    int i = 0;
    bool neg = false;
    if (len > 0 && (s[0] == '+' || s[0] == '-')) { neg = s[0] == '-'; i = 1; }
    if (i >= len) return false;
    int64_t v = 0;
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        v = v * 10 + (s[i] - '0');
        if (v > (int64_t)INT32_MAX + 1) return false;
    }
    if (neg) v = -v;
    if (v > INT32_MAX || v < INT32_MIN) return false;
    *out = (int)v;
    return true;
}

/* sun.net.util.IPAddressUtil.isIPv6LiteralAddress: an IPv6 address, with an optional non-empty
   %scope */
static bool ipv6_literal(const char *s, int len)
{
    int pc = index_of(s, 0, len, '%');
    if (pc == len - 1) return false;
    if (pc >= 0) len = pc;
    char buf[64];
    if (len <= 0 || len >= (int)sizeof buf) return false;
    memcpy(buf, s, (size_t)len);
    buf[len] = 0;
    unsigned char addr[16];
    return inet_pton(AF_INET6, buf, addr) == 1;
}

/* URLStreamHandler.parseURL of s[start..limit) (the default handler's: every protocol but jar and
   mailto), with the query cut first. */
static bool parse_hierarchical(JavaUrl *u, const char *s, int start, int limit)
{
    int qs = index_of(s, 0, limit, '?');     /* the first '?' of the text (none before start) */
    bool query_only = qs == start;
    if (start < limit && qs >= 0) {
        u->query = piece(s + qs + 1, limit - qs - 1);
        limit = qs;
    }
    Piece path = absent();
    bool unc = start <= limit - 4 && s[start] == '/' && s[start + 1] == '/' && s[start + 2] == '/' && s[start + 3] == '/';
    u->host = absent();
    if (!unc && start <= limit - 2 && s[start] == '/' && s[start + 1] == '/') {
        start += 2;
        int i = index_of(s, start, limit, '/');
        if (i < 0) i = limit;
        const char *a = s + start;
        int alen = i - start;
        u->authority = piece(a, alen);
        int at = index_of(a, 0, alen, '@');
        Piece host = piece(a, alen);
        if (at >= 0) {
            bool single = true;
            for (int k = at + 1; k < alen; k++) if (a[k] == '@') single = false;
            if (single) {
                u->userinfo = piece(a, at);
                host = piece(a + at + 1, alen - at - 1);
            } else {
                host = absent();                /* not server based */
            }
        }
        int port = -1;
        if (host.present) {
            if (host.len > 0 && host.p[0] == '[') {
                int rb = index_of(host.p, 0, host.len, ']');
                if (rb <= 2) return false;      /* Invalid authority field */
                if (!ipv6_literal(host.p + 1, rb - 1)) return false;
                if (host.len > rb + 1) {
                    if (host.p[rb + 1] != ':') return false;
                    if (host.len > rb + 2 && !java_parse_int(host.p + rb + 2, host.len - rb - 2, &port)) return false;
                }
                host.len = rb + 1;
            } else {
                int colon = index_of(host.p, 0, host.len, ':');
                if (colon >= 0) {
                    if (host.len > colon + 1 && !java_parse_int(host.p + colon + 1, host.len - colon - 1, &port))
                        return false;
                    host.len = colon;
                }
            }
            u->host = host;
        }
        if (port < -1) return false;            /* Invalid port number */
        start = i;
        if (alen > 0) path = piece(s, 0);
    }
    if (!u->host.present) u->host = piece(s, 0);
    if (start < limit) {
        if (s[start] == '/') {
            path = piece(s + start, limit - start);
        } else {                                /* after an authority: "/" + the rest */
            path = piece(s + start, limit - start);
            u->path_slash = u->authority.present;
        }
    } else if (query_only && path.present) {
        path = piece("/", 1);
    }
    u->path = path.present ? path : piece(s, 0);
    return true;
}

/* The 6-argument URLStreamHandler.setURL the jar and mailto handlers call: no host (so no
   authority nor user info), the path and query split at the file's last '?', the reference as
   given. */
static void set_file(JavaUrl *u, const char *file, int len, Piece ref)
{
    u->host = piece(file, 0);
    int q = -1;
    for (int k = len - 1; k >= 0; k--) if (file[k] == '?') { q = k; break; }
    if (q >= 0) {
        u->query = piece(file + q + 1, len - q - 1);
        u->path = piece(file, q);
    } else {
        u->path = piece(file, len);
    }
    u->ref = ref;
}

static bool parse_url(const char *s, int n, JavaUrl *u, int depth);

/* jar:<url>!/<entry>: the nested URL must parse; the reference runs to the text's end */
static bool parse_jar(JavaUrl *u, const char *s, int n, int start, int limit, int depth)
{
    if (n < 4 || strncasecmp(s, "jar:", 4) != 0 || depth > 4) return false;
    Piece ref = absent();
    int rp = index_of(s, limit, n, '#');
    if (rp >= 0) ref = piece(s + rp + 1, n - rp - 1);
    const char *spec = s + start;
    int len = limit - start, bang = -1;
    for (int k = 0; k + 1 < len; k++) if (spec[k] == '!' && spec[k + 1] == '/') { bang = k; break; }
    if (bang < 0) return false;                 /* no !/ in spec */
    JavaUrl inner;                              /* the JDK tests the text before "!/" less its last byte */
    if (bang == 0 || !parse_url(spec, bang - 1, &inner, depth + 1)) return false;
    set_file(u, spec, len, ref);
    return true;
}

/* mailto:<address>: the address must not be empty or blank; no reference */
static bool parse_mailto(JavaUrl *u, const char *s, int start, int limit)
{
    bool blank = true;
    for (int k = start; k < limit; k++) if (s[k] != ' ') blank = false;
    if (blank) return false;                    /* No email address */
    set_file(u, s + start, limit - start, absent());
    return true;
}

/* new java.net.URL(s[0..n)) into u; false where Java throws MalformedURLException */
static bool parse_url(const char *s, int n, JavaUrl *u, int depth)
{
    memset(u, 0, sizeof *u);
    int limit = n, start = 0;
    while (limit > 0 && (unsigned char)s[limit - 1] <= ' ') limit--;
    while (start < limit && (unsigned char)s[start] <= ' ') start++;
    if (limit - start >= 4 && strncasecmp(s + start, "url:", 4) == 0) start += 4;
    bool a_ref = start < n && s[start] == '#';
    int plen = -1;
    for (int i = start; !a_ref && i < limit && s[i] != '/'; i++) {
        if (s[i] != ':') continue;
        bool valid = i > start && isalpha((unsigned char)s[start]);
        for (int k = start + 1; valid && k < i; k++)
            valid = isalnum((unsigned char)s[k]) || s[k] == '.' || s[k] == '+' || s[k] == '-';
        if (valid && i - start < (int)sizeof u->protocol) {
            plen = i - start;
            for (int k = 0; k < plen; k++) u->protocol[k] = (char)tolower((unsigned char)s[start + k]);
            u->protocol[plen] = 0;
            start = i + 1;
        }
        break;
    }
    if (plen < 0) return false;                 /* no protocol (or one Java has no handler for) */
    static const char *const KNOWN[] = {"http", "https", "ftp", "file", "jar", "jrt", "jmod", "mailto"};
    bool known = false;
    for (size_t k = 0; k < sizeof KNOWN / sizeof *KNOWN; k++) known |= strcmp(u->protocol, KNOWN[k]) == 0;
    if (!known) return false;                   /* unknown protocol */
    int hash = index_of(s, start, n, '#');
    if (hash >= 0) {
        u->ref = piece(s + hash + 1, limit - hash - 1);
        limit = hash;
    }
    if (strcmp(u->protocol, "jar") == 0) return parse_jar(u, s, n, start, limit, depth);
    if (strcmp(u->protocol, "mailto") == 0) return parse_mailto(u, s, start, limit);
    return parse_hierarchical(u, s, start, limit);
}

/* The part named by name of u (file: path and "?query"), into the eval arena; false: NULL. */
static bool url_part(WEvalCtx *ctx, const JavaUrl *u, WStr name, WStr *out)
{
#define IS(lit) (name.len == (int)sizeof(lit) - 1 && memcmp(name.p, lit, sizeof(lit) - 1) == 0)
    Piece pc;
    if (IS("HOST")) pc = u->host;
    else if (IS("QUERY")) pc = u->query;
    else if (IS("REF")) pc = u->ref;
    else if (IS("PROTOCOL")) {                  /* u is the caller's: the name is copied out */
        int len = (int)strlen(u->protocol);
        char *d = wf_alloc(ctx, (size_t)len);
        memcpy(d, u->protocol, (size_t)len);
        pc = piece(d, len);
    }
    else if (IS("AUTHORITY")) pc = u->authority;
    else if (IS("USERINFO")) pc = u->userinfo;
    else if (IS("PATH") || IS("FILE")) {
        bool file = IS("FILE") && u->query.present;
        int len = u->path.len + u->path_slash + (file ? 1 + u->query.len : 0);
        char *d = wf_alloc(ctx, (size_t)len);
        int o = 0;
        if (u->path_slash) d[o++] = '/';
        memcpy(d + o, u->path.p, (size_t)u->path.len);
        o += u->path.len;
        if (file) {
            d[o++] = '?';
            memcpy(d + o, u->query.p, (size_t)u->query.len);
        }
        *out = (WStr){d, len};
        return true;
    }
    else return false;
#undef IS
    if (!pc.present) return false;
    *out = (WStr){pc.p, pc.len};
    return true;
}

/* The value of the first `key=` of query q (at its start or after '&'), up to the next '&'. */
static bool query_value(WStr q, WStr key, WStr *out)
{
    for (int p = 0; p + key.len + 1 <= q.len; p++) {
        if (p > 0 && q.p[p - 1] != '&') continue;
        if (memcmp(q.p + p, key.p, (size_t)key.len) != 0 || q.p[p + key.len] != '=') continue;
        int v = p + key.len + 1, e = v;
        while (e < q.len && q.p[e] != '&') e++;
        *out = (WStr){q.p + v, e - v};
        return true;
    }
    return false;
}

INF(inf_parse_url)
{
    (void)co;
    if (!wf_check(err, "PARSE_URL", t, n, "SS|SSS")) return NULL;
    return wf_string(a, true);
}

EV(ev_parse_url)
{
    (void)call;
    WF_FOR(i, n, act) {
        WStr url = av[0]->data[i].s, part = av[1]->data[i].s, v;
        JavaUrl u;
        bool ok = parse_url(url.p, url.len, &u, 0);
        if (ok && na == 3) {
            static const char Q[] = "QUERY";
            ok = part.len == 5 && memcmp(part.p, Q, 5) == 0 && u.query.present &&
                 query_value((WStr){u.query.p, u.query.len}, av[2]->data[i].s, &v);
        } else if (ok) {
            ok = url_part(ctx, &u, part, &v);
        }
        if (!ok) { out->nulls[i] = 1; continue; }
        out->nulls[i] = 0;
        wf_set_ref(out, i, v.p, v.len);
    }
}

static const WFuncDef D_PARSE_URL = {"PARSE_URL", 2, 3, false, true, inf_parse_url, ev_parse_url, NULL};

const WFuncDef *const wf_url_defs[] = {&D_PARSE_URL, NULL};
