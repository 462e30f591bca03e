/*
 * state_ttl.c — state TTL resolution (job default and STATE_TTL hints). See state_ttl.h.
 *
 * Flink's rules (QueryHintsResolver, StateTtlHint): a hint of a query block reaches the joins and
 * aggregates of that block only; a join maps each key that names its left or right input to LEFT
 * or RIGHT (within one hint the last value of a key wins, across hints the first hint wins per
 * side); an aggregate takes the first matching value of the first hint that matches its input.
 * A key that names no input of any hinted node is an error listing every such key.
 */
#include "state_ttl.h"
#include "../common/duration.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define EXC_ASSERTION "java.lang.AssertionError"

/* A key of a hint name and whether it named some input. */
typedef struct KeyCheck { const char *hint; const char *key; bool matched; } KeyCheck;

typedef struct Walk {
    WPlanCtx *p;
    bool apply;                         /* set the TTL fields */
    int64_t dflt;                       /* table.exec.state.ttl */
    const AstHint **blocked;            /* grown in the plan's arena */
    int nblocked, blocked_cap;
    KeyCheck *keys;                     /* grown in the plan's arena */
    int nkeys, keys_cap;
    WStateTtlHint *out;
    int nout, cap;
} Walk;

/* ---------------- Java HashMap iteration order ---------------- */

static int32_t java_string_hash(const char *s)
{
    uint32_t h = 0;
    const unsigned char *u = (const unsigned char *)s;
    while (*u) {
        uint32_t cp;
        int len;
        if (*u < 0x80) { cp = *u; len = 1; }
        else if ((*u & 0xE0) == 0xC0 && u[1]) { cp = (uint32_t)(*u & 0x1F) << 6 | (u[1] & 0x3F); len = 2; }
        else if ((*u & 0xF0) == 0xE0 && u[1] && u[2]) {
            cp = (uint32_t)(*u & 0x0F) << 12 | (uint32_t)(u[1] & 0x3F) << 6 | (u[2] & 0x3F);
            len = 3;
        } else if ((*u & 0xF8) == 0xF0 && u[1] && u[2] && u[3]) {
            cp = (uint32_t)(*u & 0x07) << 18 | (uint32_t)(u[1] & 0x3F) << 12 | (uint32_t)(u[2] & 0x3F) << 6 |
                 (u[3] & 0x3F);
            len = 4;
        } else { cp = *u; len = 1; }
        if (cp > 0xFFFF) {
            cp -= 0x10000;
            h = 31 * h + (0xD800 + (cp >> 10));
            h = 31 * h + (0xDC00 + (cp & 0x3FF));
        } else {
            h = 31 * h + cp;
        }
        u += len;
    }
    return (int32_t)h;
}

void wstate_java_hash_order(const char **keys, int n, int *idx)
{
    uint32_t cap = 16;
    for (int size = 1; size <= n; size++)
        if ((double)size > cap * 0.75) cap *= 2;
    /* stable insertion sort by bucket */
    for (int i = 0; i < n; i++) idx[i] = i;
    for (int i = 1; i < n; i++) {
        int v = idx[i];
        uint32_t h = (uint32_t)java_string_hash(keys[v]);
        uint32_t bv = (h ^ (h >> 16)) & (cap - 1);
        int j = i - 1;
        while (j >= 0) {
            uint32_t hj = (uint32_t)java_string_hash(keys[idx[j]]);
            uint32_t bj = (hj ^ (hj >> 16)) & (cap - 1);
            if (bj <= bv) break;
            idx[j + 1] = idx[j];
            j--;
        }
        idx[j + 1] = v;
    }
}

/* ---------------- hint helpers ---------------- */

static bool is_ttl_hint(const AstHint *h)
{
    return strcasecmp(h->name, "STATE_TTL") == 0 || strcasecmp(h->name, "JOIN_STATE_TTL") == 0;
}

static const char *hint_upper(WArena *a, const char *name)
{
    char *s = wa_strdup(a, name);
    for (char *c = s; *c; c++) if (*c >= 'a' && *c <= 'z') *c = (char)(*c - 'a' + 'A');
    return s;
}

/* Flink's matchIdentifier: the dotted parts of the shorter name equal the last parts of the other. */
static bool match_identifier(const char *option, const char *name)
{
    if (!option || !name) return false;
    const char *oe = option + strlen(option), *ne = name + strlen(name);
    for (;;) {
        const char *os = oe, *ns = ne;
        while (os > option && os[-1] != '.') os--;
        while (ns > name && ns[-1] != '.') ns--;
        if ((size_t)(oe - os) != (size_t)(ne - ns) || strncmp(os, ns, (size_t)(oe - os)) != 0) return false;
        if (os == option || ns == name) return true;
        oe = os - 1;
        ne = ns - 1;
    }
}

static bool blocked(const Walk *w, const AstHint *h)
{
    for (int i = 0; i < w->nblocked; i++) if (w->blocked[i] == h) return true;
    return false;
}

static void note_key(Walk *w, const char *hint, const char *key)
{
    for (int i = 0; i < w->nkeys; i++)
        if (!strcmp(w->keys[i].hint, hint) && !strcmp(w->keys[i].key, key)) return;
    w->keys = wa_grow(w->p->arena, w->keys, w->nkeys, &w->keys_cap, sizeof *w->keys, 16);
    w->keys[w->nkeys++] = (KeyCheck){hint, key, false};
}

/* Flink marks every key of the hint name that matches an input name of a hinted node. */
static void mark_name(Walk *w, const char *hint, const char *name)
{
    if (!name) return;
    for (int i = 0; i < w->nkeys; i++)
        if (!strcmp(w->keys[i].hint, hint) && match_identifier(w->keys[i].key, name)) w->keys[i].matched = true;
}

static bool parse_ttl(Walk *w, const char *text, int64_t *ms)
{
    return wduration_parse(text, ms, w->p->err);
}

static WStateTtlHint *add_out(Walk *w)
{
    w->out = wa_grow(w->p->arena, w->out, w->nout, &w->cap, sizeof *w->out, 8);
    WStateTtlHint *h = &w->out[w->nout++];
    memset(h, 0, sizeof *h);
    return h;
}

static bool is_join_kind(WRelKind k)
{
    return k == WR_JOIN || k == WR_INTERVAL_JOIN || k == WR_TEMPORAL_JOIN || k == WR_WINDOW_JOIN;
}

static bool is_agg_kind(WRelKind k) { return k == WR_GROUP_AGG || k == WR_WINDOW_AGG || k == WR_GLOBAL_WINDOW_AGG; }

static bool empty_hint_error(Walk *w, const AstHint *h)
{
    return werr_set(w->p->err, EXC_ASSERTION,
                    "Invalid %s hint, expecting at least one key-value options specified.",
                    hint_upper(w->p->arena, h->name));
}

/* The hints of a join: LEFT/RIGHT values as written (first hint wins per side). */
static bool resolve_join(Walk *w, WRel *r, WStateTtlHint *info)
{
    const char *ln = r->left_name, *rn = wrel_join(r)->right_name;
    for (int i = 0; i < r->nhints; i++) {
        const AstHint *h = &r->hints[i];
        if (!is_ttl_hint(h)) continue;
        if (!h->kv || h->nopts == 0) return empty_hint_error(w, h);
        const char *name = hint_upper(w->p->arena, h->name);
        if (!info->hint_name) info->hint_name = name;
        for (int k = 0; k < h->nopts; k++) note_key(w, name, h->opts[k].key);
        mark_name(w, name, ln);
        mark_name(w, name, rn);
        const char *hl = NULL, *hr = NULL;
        for (int k = 0; k < h->nopts; k++) {
            const char *key = h->opts[k].key;
            bool ml = match_identifier(key, ln), mr = match_identifier(key, rn);
            if (ml && mr)
                return werr_set(w->p->err, WEXC_VALIDATION,
                                "Ambitious option: %s in state ttl hint: %s, the input relations are: "
                                "Optional[%s], Optional[%s]", key, name, ln, rn);
            if (ml) hl = h->opts[k].value;
            else if (mr) hr = h->opts[k].value;
        }
        if (hl && !info->left) info->left = hl;
        if (hr && !info->right) info->right = hr;
    }
    info->left_unnamed = !ln;
    info->right_unnamed = !rn;
    return true;
}

/* The hints of an aggregate: the first matching value of the first matching hint. */
static bool resolve_agg(Walk *w, WRel *r, WStateTtlHint *info)
{
    const char *in = r->left_name;
    for (int i = 0; i < r->nhints; i++) {
        const AstHint *h = &r->hints[i];
        if (!is_ttl_hint(h)) continue;
        if (!h->kv || h->nopts == 0) return empty_hint_error(w, h);
        const char *name = hint_upper(w->p->arena, h->name);
        if (!info->hint_name) info->hint_name = name;
        for (int k = 0; k < h->nopts; k++) note_key(w, name, h->opts[k].key);
        /* JOIN_STATE_TTL is for regular joins only (Alibaba VVR) */
        if (!strcmp(name, "JOIN_STATE_TTL")) continue;
        mark_name(w, name, in);
        if (info->input) continue;
        /* a key given twice: its last value counts, at the place of its first occurrence */
        for (int k = 0; k < h->nopts && !info->input; k++) {
            if (!match_identifier(h->opts[k].key, in)) continue;
            const char *v = h->opts[k].value;
            for (int m = k + 1; m < h->nopts; m++)
                if (!strcmp(h->opts[m].key, h->opts[k].key)) v = h->opts[m].value;
            info->input = v;
        }
    }
    info->input_unnamed = !in;
    return true;
}

static bool has_ttl_hint(const WRel *r)
{
    for (int i = 0; i < r->nhints; i++) if (is_ttl_hint(&r->hints[i])) return true;
    return false;
}

static bool is_stateful(WRelKind k)
{
    return k == WR_GROUP_AGG || k == WR_JOIN || k == WR_DEDUP || k == WR_RANK || k == WR_SORT_LIMIT ||
           k == WR_CHANGELOG_NORMALIZE || k == WR_SINK_MATERIALIZER || k == WR_OVER_AGG;
}

static bool walk(Walk *w, WRel *r, int depth)
{
    if (depth > 1000) return true;
    if (w->apply && is_stateful(r->kind)) {
        r->ttl_ms = w->dflt;
        if (r->kind == WR_JOIN) { wrel_join_mut(r)->ttl_left_ms = w->dflt; wrel_join_mut(r)->ttl_right_ms = w->dflt; }
    }
    bool hinted = r->nhints > 0 && has_ttl_hint(r) && !blocked(w, r->hints) &&
                  (is_join_kind(r->kind) || is_agg_kind(r->kind));
    int saved = w->nblocked;
    if (hinted) {
        WStateTtlHint info;
        memset(&info, 0, sizeof info);
        info.node = r;
        bool ok = is_join_kind(r->kind) ? resolve_join(w, r, &info) : resolve_agg(w, r, &info);
        if (!ok) return false;
        if (r->kind == WR_JOIN) {
            if (info.left && !parse_ttl(w, info.left, w->apply ? &wrel_join_mut(r)->ttl_left_ms : &(int64_t){0})) return false;
            if (info.right && !parse_ttl(w, info.right, w->apply ? &wrel_join_mut(r)->ttl_right_ms : &(int64_t){0})) return false;
        } else if (r->kind == WR_GROUP_AGG) {
            if (info.input && !parse_ttl(w, info.input, w->apply ? &r->ttl_ms : &(int64_t){0})) return false;
        }
        *add_out(w) = info;
        /* below a named input starts another query block */
        bool named_below = is_join_kind(r->kind) ? (r->left_name || wrel_join(r)->right_name) : r->left_name != NULL;
        if (named_below) {
            w->blocked = wa_grow(w->p->arena, w->blocked, w->nblocked, &w->blocked_cap, sizeof *w->blocked, 16);
            w->blocked[w->nblocked++] = r->hints;
        }
    }
    for (int i = 0; i < r->ninputs; i++) {
        /* the block continues into unnamed join inputs; a named one is a table, view or subquery */
        bool keep = hinted && is_join_kind(r->kind) && ((i == 0 && !r->left_name) || (i == 1 && !wrel_join(r)->right_name));
        int nb = w->nblocked;
        if (keep && nb > saved) w->nblocked = saved;      /* unblock for this input */
        bool ok = walk(w, r->inputs[i], depth + 1);
        w->nblocked = nb;
        if (!ok) return false;
    }
    w->nblocked = saved;
    return true;
}

/* Every key must have named some input: Flink's message lists the others per hint name. */
static bool check_keys(Walk *w)
{
    bool bad = false;
    for (int i = 0; i < w->nkeys; i++) if (!w->keys[i].matched) bad = true;
    if (!bad) return true;
    const char **names = WA_ARRAY(w->p->arena, const char *, w->nkeys);
    int nn = 0;
    for (int i = 0; i < w->nkeys; i++) {
        bool seen = false;
        for (int k = 0; k < nn; k++) if (!strcmp(names[k], w->keys[i].hint)) seen = true;
        if (!seen) names[nn++] = w->keys[i].hint;
    }
    int *order = WA_ARRAY(w->p->arena, int, w->nkeys);
    wstate_java_hash_order(names, nn, order);
    WStrBuf sb;
    wsb_init(&sb);
    wsb_puts(&sb, "The options of following hints cannot match the name of input tables or views: ");
    for (int n = 0; n < nn; n++) {
        const char *hint = names[order[n]];
        const char **ks = WA_ARRAY(w->p->arena, const char *, w->nkeys);
        int nk = 0;
        for (int i = 0; i < w->nkeys; i++) if (!strcmp(w->keys[i].hint, hint)) ks[nk++] = w->keys[i].key;
        int *ko = WA_ARRAY(w->p->arena, int, w->nkeys);
        wstate_java_hash_order(ks, nk, ko);
        wsb_puts(&sb, "\n`");
        bool first = true;
        for (int k = 0; k < nk; k++) {
            const char *key = ks[ko[k]];
            bool matched = false;
            for (int i = 0; i < w->nkeys; i++)
                if (!strcmp(w->keys[i].hint, hint) && !strcmp(w->keys[i].key, key)) matched = w->keys[i].matched;
            if (matched) continue;
            wsb_printf(&sb, "%s%s", first ? "" : ", ", key);
            first = false;
        }
        wsb_printf(&sb, "` in `%s`", hint);
    }
    werr_set(w->p->err, WEXC_VALIDATION, "%s", sb.buf);
    wsb_free(&sb);
    return false;
}

static bool run(Walk *w, WRel *root)
{
    WError tmp;
    werr_clear(&tmp);
    if (!wopts_get_duration_ms(w->p->config, "table.exec.state.ttl", 0, &w->dflt, &tmp)) {
        *w->p->err = tmp;
        return false;
    }
    if (!walk(w, root, 0)) return false;
    return check_keys(w);
}

bool wstate_ttl_resolve(WPlanCtx *p, WRel *root)
{
    Walk *w = calloc(1, sizeof *w);
    if (!w) return werr_set(p->err, WEXC_TABLE, "out of memory");
    w->p = p;
    w->apply = true;
    bool ok = run(w, root);
    free(w);
    return ok;
}

int wstate_ttl_hints(WPlanCtx *p, const WRel *root, WStateTtlHint **out)
{
    Walk *w = calloc(1, sizeof *w);
    if (!w) { werr_set(p->err, WEXC_TABLE, "out of memory"); return -1; }
    w->p = p;
    w->apply = false;
    bool ok = run(w, (WRel *)root);
    int n = w->nout;
    *out = w->out;
    free(w);
    return ok ? n : -1;
}
