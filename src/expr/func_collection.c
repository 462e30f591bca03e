/*
 * func_collection.c — value construction and access for composite types: ARRAY[...], MAP[...],
 * ROW(...), ITEM (array[i] 1-based, map[key]), FIELD (row field by index literal, as the binder
 * emits for r.f), ELEMENT, ARRAY_CONTAINS, MAP_KEYS, MAP_VALUES. Constructors coerce their items
 * to the common type; out-of-range indexes and missing keys give NULL.
 * Depends on func_impl.h.
 */
#include "func_impl.h"

#define EV(nm) static void nm(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, \
                              const uint8_t *act, WVector *out)
#define INF(nm) static const WType *nm(WArena *a, const WType **t, int n, const WType **co, WError *err)

static WComposite *new_cx(WEvalCtx *ctx, int slots)
{
    WComposite *cx = WA_NEW(ctx->arena, WComposite);
    cx->vals = WA_ARRAY(ctx->arena, WDatum, slots > 0 ? slots : 1);
    cx->nulls = WA_ARRAY(ctx->arena, uint8_t, slots > 0 ? slots : 1);
    return cx;
}

/* common type of args[first], args[first+step], ...; requests coercions */
static const WType *common_every(WArena *a, const WType **t, int n, int first, int step, const WType **co)
{
    const WType *c = NULL;
    bool nullable = false;
    for (int i = first; i < n; i += step) {
        nullable |= t[i]->nullable || wf_null(t[i]);
        if (wf_null(t[i])) continue;
        const WType *ti = wtype_with_time_attr(a, t[i], WTA_NONE);
        c = c ? wtype_common(a, c, ti) : ti;
        if (!c) return NULL;
    }
    if (!c) c = &WTYPE_NULL;
    c = wtype_with_nullable(a, c, nullable);
    for (int i = first; i < n; i += step)
        if (!wtype_equals(t[i], c, true) && c->id != WT_NULL &&
            !(wtype_is_string(t[i]) && c->id == WT_VARCHAR && t[i]->id == WT_VARCHAR))
            co[i] = wtype_with_nullable(a, c, t[i]->nullable || wf_null(t[i]));
    return c;
}

/* ---------------------------------------------------------------- constructors */

INF(inf_array)
{
    if (n < 1) return wf_err_arg_count(err, "ARRAY", 1), NULL;
    const WType *e = common_every(a, t, n, 0, 1, co);
    if (!e) return wf_err_apply(err, "ARRAY", t, n, "ARRAY(<EQUIVALENT_TYPE>)");
    return wtype_array(a, e, false);
}

EV(ev_array)
{
    (void)call;
    WF_FOR(i, n, act) {
        WComposite *cx = new_cx(ctx, na);
        cx->n = na;
        for (int k = 0; k < na; k++) { cx->vals[k] = av[k]->data[i]; cx->nulls[k] = av[k]->nulls[i]; }
        out->nulls[i] = 0;
        out->data[i].cx = cx;
    }
}

INF(inf_map)
{
    if (n < 2 || n % 2) return wf_err_apply(err, "MAP", t, n, "MAP(<EQUIVALENT_TYPE>, <EQUIVALENT_TYPE>, ...)");
    const WType *k = common_every(a, t, n, 0, 2, co);
    const WType *v = k ? common_every(a, t, n, 1, 2, co) : NULL;
    if (!k || !v) return wf_err_apply(err, "MAP", t, n, "MAP(<EQUIVALENT_TYPE>, <EQUIVALENT_TYPE>, ...)");
    return wtype_map(a, k, v, false);
}

EV(ev_map)
{
    const WType *kt = call->type->key;
    WF_FOR(i, n, act) {
        WComposite *cx = new_cx(ctx, na);
        int cnt = 0;
        for (int k = 0; k + 1 < na; k += 2) {
            /* a later duplicate key replaces the earlier value (Java map semantics) */
            int at = -1;
            for (int j = 0; j < cnt; j++) {
                bool kn = av[k]->nulls[i], jn = cx->nulls[2 * j];
                if ((kn && jn) || (!kn && !jn && wf_eq(kt, cx->vals[2 * j], av[k]->data[i]))) { at = j; break; }
            }
            if (at < 0) at = cnt++;
            cx->vals[2 * at] = av[k]->data[i];
            cx->nulls[2 * at] = av[k]->nulls[i];
            cx->vals[2 * at + 1] = av[k + 1]->data[i];
            cx->nulls[2 * at + 1] = av[k + 1]->nulls[i];
        }
        cx->n = cnt;
        out->nulls[i] = 0;
        out->data[i].cx = cx;
    }
}

INF(inf_row)
{
    (void)co; (void)err;
    const char **names = WA_ARRAY(a, const char *, n > 0 ? n : 1);
    const WType **fs = WA_ARRAY(a, const WType *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        names[i] = wa_sprintf(a, "EXPR$%d", i);
        fs[i] = wf_null(t[i]) ? wtype_with_nullable(a, &WTYPE_NULL, true) : wtype_with_time_attr(a, t[i], WTA_NONE);
    }
    return wtype_row(a, n, names, fs, false);
}

EV(ev_row) { ev_array(ctx, call, av, na, n, act, out); }

/* ---------------------------------------------------------------- access */

INF(inf_item)
{
    if (n == 2 && (t[0]->id == WT_ARRAY || t[0]->id == WT_MULTISET) && wf_int(t[1]))
        return wtype_with_nullable(a, t[0]->elem, true);
    if (n == 2 && t[0]->id == WT_MAP) {
        const WType *k = t[0]->key;
        if (!wf_null(t[1]) && !wtype_equals(t[1], k, true)) {
            if (wtype_common(a, t[1], k)) co[1] = wtype_with_nullable(a, k, t[1]->nullable);
            else return wf_err_apply_op(err, "ITEM", t, n, "<ARRAY>[<INTEGER>]\n<MAP>[<ANY>]\n<ROW>[<CHARACTER>|<INTEGER>]");
        }
        return wtype_with_nullable(a, t[0]->elem, true);
    }
    if (n == 2 && t[0]->id == WT_ROW && wf_int(t[1]))
        return wf_err_apply_op(err, "ITEM", t, n, "<ROW>[<CHARACTER>|<INTEGER>] with a literal");
    char forms[] = "<ARRAY>[<INTEGER>]\n<MAP>[<ANY>]\n<ROW>[<CHARACTER>|<INTEGER>]";
    if (n == 2) {
        WStrBuf b;
        wsb_init(&b);
        wsb_append(&b, "Cannot apply 'ITEM' to arguments of type 'ITEM(<");
        wf_calcite_type(t[0], &b);
        wsb_append(&b, ">, <");
        wf_calcite_type(t[1], &b);
        wsb_printf(&b, ">)'. Supported form(s): %s", forms);
        werr_set(err, WEXC_CALCITE, "%s", b.buf);
        wsb_free(&b);
        return NULL;
    }
    return wf_err_arg_count(err, "ITEM", 2), NULL;
}

EV(ev_item)
{
    (void)na; (void)ctx;
    const WType *t0 = av[0]->type;
    WF_FOR(i, n, act) {
        const WComposite *cx = av[0]->data[i].cx;
        if (!cx) { out->nulls[i] = 1; continue; }
        if (t0->id == WT_MAP) {
            int at = -1;
            for (int j = 0; j < cx->n; j++)
                if (!cx->nulls[2 * j] && wf_eq(t0->key, cx->vals[2 * j], av[1]->data[i])) { at = j; break; }
            if (at < 0 || cx->nulls[2 * at + 1]) { out->nulls[i] = 1; continue; }
            out->data[i] = cx->vals[2 * at + 1];
            continue;
        }
        int64_t k = av[1]->data[i].i;
        if (k < 1 || k > cx->n || cx->nulls[k - 1]) { out->nulls[i] = 1; continue; }
        out->data[i] = cx->vals[k - 1];
    }
    (void)call;
}

INF(inf_field)
{
    (void)co;
    if (n != 2 || t[0]->id != WT_ROW || !wf_int(t[1]))
        return wf_err_invalid_call(err, "FIELD", t, n, "");
    /* the field index is a literal; the type is fixed by prepare */
    return wtype_with_nullable(a, t[0]->nfields > 0 ? t[0]->fields[0] : &WTYPE_NULL, true);
}

static bool prep_field(WArena *a, WExpr *call, WError *err)
{
    const WExpr *ix = call->args[1];
    const WType *rt = call->args[0]->type;
    if (ix->kind != WX_LITERAL || ix->is_null || ix->lit.i < 0 || ix->lit.i >= rt->nfields) {
        werr_set(err, WEXC_CALCITE, "Unknown field index");
        return false;
    }
    const WType *ft = rt->fields[ix->lit.i];
    call->type = wtype_with_nullable(a, ft, ft->nullable || rt->nullable);
    return true;
}

EV(ev_field)
{
    (void)ctx; (void)na;
    int64_t f = call->args[1]->lit.i;
    const WDatum *rows = av[0]->data;       /* hoisted: the stores below may alias them */
    WDatum *od = out->data;
    uint8_t *on = out->nulls;
    WF_FOR(i, n, act) {
        const WComposite *cx = rows[i].cx;
        if (!cx || f >= cx->n || cx->nulls[f]) { on[i] = 1; continue; }
        od[i] = cx->vals[f];
    }
}

INF(inf_element)
{
    (void)co;
    if (n != 1 || !(t[0]->id == WT_ARRAY || t[0]->id == WT_MULTISET))
        return wf_err_apply(err, "ELEMENT", t, n, "ELEMENT(<MULTISET>)\nELEMENT(<ARRAY>)");
    return wtype_with_nullable(a, t[0]->elem, true);
}

EV(ev_element)
{
    (void)call; (void)na;
    WF_FOR(i, n, act) {
        const WComposite *cx = av[0]->data[i].cx;
        if (!cx || cx->n == 0) { out->nulls[i] = 1; continue; }
        if (cx->n > 1) { wf_fail(ctx, WEXC_TABLE, "Array has more than one element."); return; }
        out->nulls[i] = cx->nulls[0];
        out->data[i] = cx->vals[0];
    }
}

INF(inf_array_contains)
{
    if (n != 2 || t[0]->id != WT_ARRAY)
        return wf_err_invalid_call(err, "ARRAY_CONTAINS", t, n, "ARRAY_CONTAINS(haystack <ARRAY>, needle <ARRAY ELEMENT>)");
    const WType *e = t[0]->elem;
    if (!wf_null(t[1]) && !wtype_equals(t[1], e, true)) {
        if (!wtype_common(a, t[1], e))
            return wf_err_invalid_call(err, "ARRAY_CONTAINS", t, n, "ARRAY_CONTAINS(haystack <ARRAY>, needle <ARRAY ELEMENT>)");
        co[1] = wtype_with_nullable(a, e, t[1]->nullable);
    }
    return wf_type(a, WT_BOOLEAN, t[0]->nullable);
}

EV(ev_array_contains)
{
    (void)ctx; (void)na;
    const WType *et = call->args[0]->type->elem;
    WF_FOR(i, n, act) {
        if (av[0]->nulls[i]) { out->nulls[i] = 1; continue; }
        const WComposite *cx = av[0]->data[i].cx;
        bool found = false;
        bool needle_null = av[1]->nulls[i];
        for (int k = 0; cx && k < cx->n && !found; k++) {
            if (cx->nulls[k]) found = needle_null;
            else if (!needle_null) found = wf_eq(et, cx->vals[k], av[1]->data[i]);
        }
        out->nulls[i] = 0;
        out->data[i].i = found;
    }
}

static const WType *inf_map_part(WArena *a, const char *name, const WType **t, int n, WError *err, bool keys)
{
    if (n != 1 || t[0]->id != WT_MAP) {
        char sig[64];
        snprintf(sig, sizeof sig, "%s(<MAP>)", name);
        return wf_err_invalid_call(err, name, t, n, sig);
    }
    return wtype_array(a, keys ? t[0]->key : t[0]->elem, t[0]->nullable);
}

INF(inf_map_keys) { (void)co; return inf_map_part(a, "MAP_KEYS", t, n, err, true); }
INF(inf_map_values) { (void)co; return inf_map_part(a, "MAP_VALUES", t, n, err, false); }

static void map_part(WEvalCtx *ctx, WVector *const *av, int n, const uint8_t *act, WVector *out, int off)
{
    WF_FOR(i, n, act) {
        const WComposite *m = av[0]->data[i].cx;
        int cnt = m ? m->n : 0;
        WComposite *cx = new_cx(ctx, cnt);
        cx->n = cnt;
        for (int k = 0; k < cnt; k++) { cx->vals[k] = m->vals[2 * k + off]; cx->nulls[k] = m->nulls[2 * k + off]; }
        out->data[i].cx = cx;
    }
}

EV(ev_map_keys) { (void)call; (void)na; map_part(ctx, av, n, act, out, 0); }
EV(ev_map_values) { (void)call; (void)na; map_part(ctx, av, n, act, out, 1); }

/* ---------------------------------------------------------------- table */

static const WFuncDef D_ARRAY = { "ARRAY", 1, -1, true, true, inf_array, ev_array, NULL };
static const WFuncDef D_MAP = { "MAP", 2, -1, true, true, inf_map, ev_map, NULL };
static const WFuncDef D_ROW = { "ROW", 1, -1, true, true, inf_row, ev_row, NULL };
static const WFuncDef D_ITEM = { "ITEM", 2, 2, false, true, inf_item, ev_item, NULL };
static const WFuncDef D_FIELD = { "FIELD", 2, 2, false, true, inf_field, ev_field, prep_field };
static const WFuncDef D_ELEMENT = { "ELEMENT", 1, 1, false, true, inf_element, ev_element, NULL };
static const WFuncDef D_ARRAY_CONTAINS = { "ARRAY_CONTAINS", 2, 2, true, true, inf_array_contains, ev_array_contains, NULL };
static const WFuncDef D_MAP_KEYS = { "MAP_KEYS", 1, 1, false, true, inf_map_keys, ev_map_keys, NULL };
static const WFuncDef D_MAP_VALUES = { "MAP_VALUES", 1, 1, false, true, inf_map_values, ev_map_values, NULL };

const WFuncDef *const wf_collection_defs[] = {
    &D_ARRAY, &D_MAP, &D_ROW, &D_ITEM, &D_FIELD, &D_ELEMENT, &D_ARRAY_CONTAINS, &D_MAP_KEYS,
    &D_MAP_VALUES, NULL
};
