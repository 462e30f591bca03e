/*
 * accumulators.c — GroupAggregate's accumulator library; see accumulators.h for the contract and
 * the state layout. Semantics follow Flink's built-in aggregate functions:
 *   COUNT / COUNT(*)            CountAggFunction / Count1AggFunction (retract: count - 1)
 *   SUM                         SumAggFunction (NULL until a non-NULL value) or
 *                               SumWithRetractAggFunction (sum + count of non-NULL values; NULL
 *                               when that count is 0). Integer sums wrap at the type's width,
 *                               DECIMAL(38, s) sums become NULL on overflow (DecimalDataUtils.add).
 *   SUM0                        Sum0AggFunction
 *   AVG                         AvgAggFunction: BIGINT/DOUBLE/DECIMAL(38, s) sum and a count;
 *                               integer results truncate (sum / count cast to the argument type)
 *   MIN / MAX, BOOL_AND / OR    Min/MaxAggFunction; Min/MaxWithRetractAggFunction keep a
 *                               value -> count map view and rescan it when the extreme leaves
 *   FIRST_VALUE / LAST_VALUE    First/LastValueAggFunction; *WithRetract keep value -> orders and
 *                               order -> values map views (order = processing time)
 *   LISTAGG                     ListAggFunction; ListAgg(Ws)WithRetractAggFunction (list views)
 *   STDDEV/VAR (POP/SAMP)       Flink's rewrite to WELFORD_M2(x) and COUNT(x), then
 *                               POWER(m2 / n, 0.5) etc. cast to the call's type
 *   SINGLE_VALUE                SingleValueAggFunction: the value and a count of rows (NULLs
 *                               included); a second row fails the job (TableRuntimeException
 *                               "SingleValueAggFunction received more than one element."), a
 *                               retraction empties it
 *   DISTINCT                    DistinctAggCodeGen: a value -> counts map view per argument list
 * May call types/, state/, common/.
 */
#include "accumulators.h"
#include "../types/row.h"
#include "../types/compare.h"
#include "../types/decimal.h"
#include "../common/check.h"
#include "../common/hash.h"

#include <math.h>
#include <stdlib.h>
#include <assert.h>
#include <string.h>

/* ------------------------------------------------------------------ helpers */

static bool in_null(const WChunk *in, int row, int col) { return in->cols[col].nulls[row] != 0; }

static bool filter_ok(const WChunk *in, int row, int col)
{
    return col < 0 || (!in_null(in, row, col) && in->cols[col].data[row].i != 0);
}

/* Accumulator field type for values of type t: integer-like types widen to BIGINT and FLOAT to
   DOUBLE (datums are the same; the slot becomes a plain 8-byte value). */
static const WType *norm_type(const WType *t)
{
    switch (t->id) {
    case WT_BOOLEAN: case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT:
    case WT_DATE: case WT_TIME: case WT_INTERVAL_YM: case WT_INTERVAL_DT:
        return &WTYPE_BIGINT;
    case WT_FLOAT: case WT_DOUBLE:
        return &WTYPE_DOUBLE;
    default:
        return t;
    }
}

static bool is_float_type(const WType *t) { return t->id == WT_FLOAT || t->id == WT_DOUBLE; }

static int64_t wrap_int(int64_t v, WSumKind k)
{
    switch (k) {
    case WSK_I8: return (int8_t)(uint8_t)(uint64_t)v;
    case WSK_I16: return (int16_t)(uint16_t)(uint64_t)v;
    case WSK_I32: return (int32_t)(uint32_t)(uint64_t)v;
    default: return v;
    }
}

static int64_t wrap_to_type(int64_t v, const WType *t)
{
    switch (t->id) {
    case WT_TINYINT: return wrap_int(v, WSK_I8);
    case WT_SMALLINT: return wrap_int(v, WSK_I16);
    case WT_INT: return wrap_int(v, WSK_I32);
    default: return v;
    }
}

static WSumKind sum_kind_of(const WType *t)
{
    switch (t->id) {
    case WT_TINYINT: return WSK_I8;
    case WT_SMALLINT: return WSK_I16;
    case WT_INT: return WSK_I32;
    case WT_FLOAT: return WSK_FLOAT;
    case WT_DOUBLE: return WSK_DOUBLE;
    case WT_DECIMAL: return WSK_DEC;
    default: return WSK_I64;
    }
}

/* acc (+|-) v in the sum's arithmetic; false when a DECIMAL(38) result overflows (-> NULL). */
static bool sum_step(WSumKind k, WDatum *acc, WDatum v, bool minus)
{
    switch (k) {
    case WSK_I8: case WSK_I16: case WSK_I32: case WSK_I64: {
        uint64_t a = (uint64_t)acc->i, b = (uint64_t)v.i;
        acc->i = wrap_int((int64_t)(minus ? a - b : a + b), k);
        return true;
    }
    case WSK_FLOAT: {
        float a = (float)acc->d, b = (float)v.d;
        float r = minus ? a - b : a + b;
        acc->d = r;
        return true;
    }
    case WSK_DOUBLE:
        acc->d = minus ? acc->d - v.d : acc->d + v.d;
        return true;
    case WSK_DEC: {
        __int128 r;
        bool ovf = minus ? __builtin_sub_overflow(acc->dec, v.dec, &r)
                         : __builtin_add_overflow(acc->dec, v.dec, &r);
        if (ovf || !wdec_fits(r, 38)) return false;
        acc->dec = r;
        return true;
    }
    }
    return true;
}

static WDatum zero_of(WSumKind k)
{
    WDatum z;
    memset(&z, 0, sizeof z);
    return z;   /* i = 0, d = 0.0 (all-zero bits), dec = 0 */
}

/* Java equals-like identity of two values of type t (doubles by bits, as Double.equals). */
static bool value_same(const WType *t, WDatum a, WDatum b)
{
    if (is_float_type(t)) {
        if (t->id == WT_FLOAT) { float x = (float)a.d, y = (float)b.d; return memcmp(&x, &y, 4) == 0; }
        return memcmp(&a.d, &b.d, 8) == 0;
    }
    return wdatum_equal(t, a, b);
}

static WDatum copy_to(WAccCtx *c, const WType *t, WDatum v) { return wdatum_copy(c->scratch, t, v); }

/* Encode one value (or a tuple) as a binary row into buf. */
static void enc_values(WStrBuf *buf, int n, const WType **types, const WDatum *vals, const uint8_t *nulls)
{
    wrow_encode(buf, n, types, vals, nulls, WRK_INSERT);
}

static void enc_value(WStrBuf *buf, const WType *t, WDatum v)
{
    const WType *ts[1] = {t};
    uint8_t nl[1] = {0};
    enc_values(buf, 1, ts, &v, nl);
}

static WDatum dec_value(WAccCtx *c, const WType *t, const void *p, size_t len)
{
    WDatum v;
    if (!wrow_get_arena(p, len, 1, t, 0, &v, c->scratch)) memset(&v, 0, sizeof v);
    return copy_to(c, t, v);
}

static int64_t get_i64(const void *p) { int64_t v; memcpy(&v, p, 8); return v; }

/* ------------------------------------------------------------------ layout */

typedef struct LayoutImpl {
    WAccLayout L;
    WArena arena;
} LayoutImpl;

static bool kind_supported_type(WAggKind k, const WType *t)
{
    switch (k) {
    case WAGG_SUM: case WAGG_SUM0: case WAGG_AVG:
    case WAGG_STDDEV_POP: case WAGG_STDDEV_SAMP: case WAGG_VAR_POP: case WAGG_VAR_SAMP:
        return t && wtype_is_numeric(t);
    case WAGG_LISTAGG:
        return t && wtype_is_string(t);
    case WAGG_BOOL_AND: case WAGG_BOOL_OR:
        return t && t->id == WT_BOOLEAN;
    case WAGG_MIN: case WAGG_MAX:
        return t && !wtype_is_composite(t);
    default:
        return true;
    }
}

WAccLayout *wacc_layout_new(const WAggCall *aggs, int naggs, const WType **in_types, bool retract,
                            WStateBackend *b, const char *state_name, int64_t ttl_ms, WError *err)
{
    LayoutImpl *li = wcalloc(1, sizeof *li);
    warena_init(&li->arena, 0);
    WArena *a = &li->arena;
    WAccLayout *L = &li->L;
    L->retract = retract;
    L->naggs = naggs;
    L->aggs = WA_ARRAY(a, WAccAgg, naggs ? naggs : 1);
    int cap = 1 + 4 * (naggs ? naggs : 1);
    L->ftypes = WA_ARRAY(a, const WType *, cap);
    L->distinct = WA_ARRAY(a, WAccDistinct, naggs ? naggs : 1);
    int nf = 0;
    L->ftypes[nf++] = &WTYPE_BIGINT;    /* record count */
    const char *sn = state_name ? state_name : "groupAggregateState";

    for (int i = 0; i < naggs; i++) {
        const WAggCall *call = &aggs[i];
        WAccAgg *g = &L->aggs[i];
        g->kind = call->kind;
        g->retract = retract;
        g->arg = call->nargs > 0 ? call->args[0] : -1;
        g->arg2 = call->nargs > 1 ? call->args[1] : -1;
        g->arg_type = g->arg >= 0 ? in_types[g->arg] : NULL;
        g->res_type = call->type;
        g->filter_col = call->filter_col;
        g->distinct = -1;
        g->off = nf;
        if (call->kind != WAGG_COUNT_STAR && g->arg < 0) {
            werr_set(err, WEXC_TABLE, "Aggregate function %s expects an argument", call->name ? call->name : "?");
            goto fail;
        }
        if (!kind_supported_type(call->kind, g->arg_type)) {
            werr_set(err, WEXC_TABLE, "Unsupported argument type for aggregate function %s",
                     call->name ? call->name : "?");
            goto fail;
        }
        const WType *at = g->arg_type;
        switch (call->kind) {
        case WAGG_COUNT_STAR: case WAGG_COUNT:
            L->ftypes[nf++] = &WTYPE_BIGINT;
            break;
        case WAGG_SUM: case WAGG_SUM0: {
            g->sum_kind = sum_kind_of(at);
            const WType *st = at->id == WT_DECIMAL ? wtype_decimal(a, 38, at->scale, true) : norm_type(at);
            L->ftypes[nf++] = st;
            if (call->kind == WAGG_SUM && retract) L->ftypes[nf++] = &WTYPE_BIGINT;
            break;
        }
        case WAGG_AVG:
            g->sum_kind = at->id == WT_DECIMAL ? WSK_DEC : is_float_type(at) ? WSK_DOUBLE : WSK_I64;
            L->ftypes[nf++] = at->id == WT_DECIMAL ? wtype_decimal(a, 38, at->scale, true)
                                                   : is_float_type(at) ? &WTYPE_DOUBLE : &WTYPE_BIGINT;
            L->ftypes[nf++] = &WTYPE_BIGINT;
            break;
        case WAGG_MIN: case WAGG_MAX: case WAGG_BOOL_AND: case WAGG_BOOL_OR:
            L->ftypes[nf++] = norm_type(at);
            if (retract) {
                L->ftypes[nf++] = &WTYPE_BIGINT;        /* mapSize */
                g->map1 = wstate_register(b, wa_sprintf(a, "%s$agg%d$map", sn, i), WSTATE_MAP, ttl_ms);
                L->has_views = true;
            }
            break;
        case WAGG_FIRST_VALUE: case WAGG_LAST_VALUE:
            L->ftypes[nf++] = norm_type(at);
            L->ftypes[nf++] = &WTYPE_BIGINT;            /* order */
            if (retract) {
                g->map1 = wstate_register(b, wa_sprintf(a, "%s$agg%d$valueToOrderMap", sn, i), WSTATE_MAP, ttl_ms);
                g->map2 = wstate_register(b, wa_sprintf(a, "%s$agg%d$orderToValueMap", sn, i), WSTATE_MAP, ttl_ms);
                L->has_views = true;
            }
            break;
        case WAGG_LISTAGG:
            L->ftypes[nf++] = &WTYPE_STRING;            /* delimiter */
            if (retract) {
                g->list1 = wstate_register(b, wa_sprintf(a, "%s$agg%d$list", sn, i), WSTATE_LIST, ttl_ms);
                g->list2 = wstate_register(b, wa_sprintf(a, "%s$agg%d$retractList", sn, i), WSTATE_LIST, ttl_ms);
                L->has_views = true;
                L->value_reads_views = true;
            } else {
                L->ftypes[nf++] = &WTYPE_STRING;        /* concatenation */
            }
            break;
        case WAGG_STDDEV_POP: case WAGG_STDDEV_SAMP: case WAGG_VAR_POP: case WAGG_VAR_SAMP:
            L->ftypes[nf++] = &WTYPE_BIGINT;            /* n */
            L->ftypes[nf++] = &WTYPE_DOUBLE;            /* mean */
            L->ftypes[nf++] = &WTYPE_DOUBLE;            /* m2 */
            break;
        case WAGG_COLLECT:
            werr_set(err, WEXC_TABLE, "COLLECT is not supported by GroupAggregate yet");
            goto fail;
        case WAGG_SINGLE_VALUE:
            L->ftypes[nf++] = norm_type(at);            /* value */
            L->ftypes[nf++] = &WTYPE_BIGINT;            /* count */
            break;
        }
        g->nfields = nf - g->off;

        if (call->distinct && call->kind != WAGG_COUNT_STAR) {
            int d = -1;
            for (int k = 0; k < L->ndistinct; k++) {
                WAccDistinct *D = &L->distinct[k];
                if (D->nargs == call->nargs && D->args[0] == call->args[0] &&
                    (call->nargs < 2 || D->args[1] == call->args[1])) { d = k; break; }
            }
            if (d < 0) {
                d = L->ndistinct++;
                WAccDistinct *D = &L->distinct[d];
                D->nargs = call->nargs;
                for (int k = 0; k < call->nargs; k++) {
                    D->args[k] = call->args[k];
                    D->types[k] = in_types[call->args[k]];
                }
                D->aggs = WA_ARRAY(a, int, naggs);
                D->all_filtered = true;
                D->inline_key = wrow_types_inline(call->nargs, D->types);
                D->map = wstate_register(b, wa_sprintf(a, "%s$distinctAcc_%d", sn, d), WSTATE_MAP, ttl_ms);
                wmap_set_order_free(D->map);    /* only how many values it holds is seen */
                L->has_views = true;
            }
            WAccDistinct *D = &L->distinct[d];
            D->aggs[D->naggs++] = i;
            if (call->filter_col < 0) D->all_filtered = false;
            g->distinct = d;
        }
    }
    L->nfields = nf;
    L->fcopy = WA_ARRAY(a, bool, nf);
    L->fword = WA_ARRAY(a, bool, nf);
    for (int f = 0; f < nf; f++) {
        L->fcopy[f] = !wrow_type_inline(L->ftypes[f]);
        L->fword[f] = L->ftypes[f]->id == WT_BIGINT || L->ftypes[f]->id == WT_DOUBLE;
    }
    /* wacc_values_equal's order: results compared as one integer first (a count that moved
       answers in one test, before a string MAX is compared) */
    L->eq_order = WA_ARRAY(a, int, L->naggs ? L->naggs : 1);
    int ne = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < L->naggs; i++)
            if (wtype_is_integer(L->aggs[i].res_type) == (pass == 0)) L->eq_order[ne++] = i;
    assert(ne == L->naggs);
    L->plain = WA_ARRAY(a, int, L->naggs ? L->naggs : 1);
    for (int i = 0; i < L->naggs; i++)
        if (L->aggs[i].distinct < 0) L->plain[L->nplain++] = i;
    L->counts = WA_ARRAY(a, WAccCount, L->naggs ? L->naggs : 1);
    L->valued = WA_ARRAY(a, int, L->naggs ? L->naggs : 1);
    for (int i = 0; i < L->naggs; i++) {
        if (L->aggs[i].kind == WAGG_COUNT || L->aggs[i].kind == WAGG_COUNT_STAR)
            L->counts[L->ncounts++] = (WAccCount){i, L->aggs[i].off};
        else
            L->valued[L->nvalued++] = i;
    }
    return L;
fail:
    warena_free(&li->arena);
    free(li);
    return NULL;
}

void wacc_layout_free(WAccLayout *L)
{
    if (!L) return;
    LayoutImpl *li = (LayoutImpl *)L;
    warena_free(&li->arena);
    free(li);
}

void wacc_ctx_init(WAccCtx *c, const WAccLayout *L, WArena *scratch)
{
    memset(c, 0, sizeof *c);
    c->L = L;
    c->scratch = scratch;
    wsb_init(&c->kbuf);
    wsb_init(&c->vbuf);
    wsb_init(&c->tbuf);
}

void wacc_ctx_free(WAccCtx *c)
{
    wsb_free(&c->kbuf);
    wsb_free(&c->vbuf);
    wsb_free(&c->tbuf);
}

/* ------------------------------------------------------------------ create */

void wacc_create(const WAccLayout *L, WDatum *acc, uint8_t *nulls)
{
    memset(acc, 0, sizeof(WDatum) * (size_t)L->nfields);
    memset(nulls, 0, (size_t)L->nfields);
    for (int i = 0; i < L->naggs; i++) {
        const WAccAgg *g = &L->aggs[i];
        int o = g->off;
        switch (g->kind) {
        case WAGG_SUM:
            nulls[o] = 1;                       /* sum = NULL (count = 0 when retracting) */
            break;
        case WAGG_MIN: case WAGG_MAX: case WAGG_BOOL_AND: case WAGG_BOOL_OR:
            nulls[o] = 1;                       /* value NULL, mapSize 0 */
            break;
        case WAGG_FIRST_VALUE:
            nulls[o] = 1;
            if (g->retract) nulls[o + 1] = 1;   /* firstOrder = null */
            else acc[o + 1].i = INT64_MAX;
            break;
        case WAGG_LAST_VALUE:
            nulls[o] = 1;
            if (g->retract) nulls[o + 1] = 1;
            else acc[o + 1].i = INT64_MIN;
            break;
        case WAGG_SINGLE_VALUE:
            nulls[o] = 1;                       /* value NULL, count 0 */
            break;
        case WAGG_LISTAGG:
            acc[o].s = (WStr){",", 1};          /* delimiter */
            if (!g->retract) nulls[o + 1] = 1;  /* concatenation = NULL */
            break;
        default:
            break;                              /* counts, SUM0, AVG, M2: zeros */
        }
    }
}

/* ------------------------------------------------------------------ MIN / MAX */

static bool minmax_better(const WAccAgg *g, WDatum cand, WDatum cur, bool retract_variant)
{
    bool is_max = g->kind == WAGG_MAX || g->kind == WAGG_BOOL_OR;
    if (!retract_variant && is_float_type(g->arg_type))     /* primitive comparison */
        return is_max ? cand.d > cur.d : cand.d < cur.d;
    int c = wdatum_compare(g->arg_type, cand, cur);
    return is_max ? c > 0 : c < 0;
}

static void minmax_update_extreme(WAccCtx *c, const WAccAgg *g, WDatum *acc, uint8_t *nulls)
{
    int o = g->off;
    bool has = false;
    WMapIter it;
    WBytes k, v;
    wmap_iter(g->map1, &it);
    WDatum best = {0};
    while (wmap_next(&it, &k, &v)) {
        WDatum x;
        c->work++;
        if (!wrow_get_arena(k.p, k.len, 1, g->arg_type, 0, &x, c->scratch)) continue;
        if (!has || minmax_better(g, x, best, true)) { best = x; has = true; }
    }
    if (has) {
        acc[o] = copy_to(c, g->arg_type, best);
        nulls[o] = 0;
    } else {
        acc[o + 1].i = 0;
        nulls[o] = 1;
    }
}

static void minmax_acc(WAccCtx *c, const WAccAgg *g, WDatum *acc, uint8_t *nulls, WDatum v, bool retract)
{
    int o = g->off;
    if (!g->retract) {
        if (nulls[o] || minmax_better(g, v, acc[o], false)) { acc[o] = v; nulls[o] = 0; }
        return;
    }
    enc_value(&c->kbuf, g->arg_type, v);
    WBytes cur;
    int64_t cnt = 0;
    if (wmap_get(g->map1, c->kbuf.buf, c->kbuf.len, &cur) == WSL_FOUND && cur.len == 8) cnt = get_i64(cur.p);
    if (!retract) {
        if (acc[o + 1].i == 0 || nulls[o] || minmax_better(g, v, acc[o], true)) { acc[o] = v; nulls[o] = 0; }
        cnt += 1;
        if (cnt == 0) wmap_remove(g->map1, c->kbuf.buf, c->kbuf.len);
        else wmap_put(g->map1, c->kbuf.buf, c->kbuf.len, &cnt, 8);
        if (cnt == 1) acc[o + 1].i += 1;
    } else {
        cnt -= 1;
        if (cnt == 0) {
            wmap_remove(g->map1, c->kbuf.buf, c->kbuf.len);
            acc[o + 1].i -= 1;
            if (acc[o + 1].i == 0) { nulls[o] = 1; return; }
            if (!nulls[o] && value_same(g->arg_type, v, acc[o])) minmax_update_extreme(c, g, acc, nulls);
        } else {
            wmap_put(g->map1, c->kbuf.buf, c->kbuf.len, &cnt, 8);
        }
    }
}

/* ------------------------------------------------------------------ FIRST / LAST VALUE */

/* order -> values list encoding: repeated [u32 length][1-field binary row]. */
static void list_append_enc(WStrBuf *out, const void *p, size_t len)
{
    uint32_t n = (uint32_t)len;
    wsb_appendn(out, (const char *)&n, 4);
    wsb_appendn(out, (const char *)p, len);
}

static void firstlast_acc(WAccCtx *c, const WAccAgg *g, WDatum *acc, uint8_t *nulls, WDatum v, bool retract)
{
    int o = g->off;
    bool first = g->kind == WAGG_FIRST_VALUE;
    if (!g->retract) {
        if (first) {
            if (acc[o + 1].i == INT64_MAX) { acc[o] = v; nulls[o] = 0; acc[o + 1].i = c->now; }
        } else {
            acc[o] = v;
            nulls[o] = 0;
            acc[o + 1].i = c->now;
        }
        return;
    }
    enc_value(&c->kbuf, g->arg_type, v);
    WBytes cur;
    if (!retract) {
        int64_t order = c->now;
        /* value -> orders */
        wsb_clear(&c->vbuf);
        if (wmap_get(g->map1, c->kbuf.buf, c->kbuf.len, &cur) == WSL_FOUND) wsb_appendn(&c->vbuf, cur.p, cur.len);
        wsb_appendn(&c->vbuf, (const char *)&order, 8);
        wmap_put(g->map1, c->kbuf.buf, c->kbuf.len, c->vbuf.buf, c->vbuf.len);
        /* extreme */
        bool prev_null = nulls[o + 1];
        if (first ? (prev_null || acc[o + 1].i > order) : (prev_null || acc[o + 1].i <= order)) {
            acc[o] = v;
            nulls[o] = 0;
            acc[o + 1].i = order;
            nulls[o + 1] = 0;
        }
        /* order -> values */
        wsb_clear(&c->vbuf);
        if (wmap_get(g->map2, &order, 8, &cur) == WSL_FOUND) wsb_appendn(&c->vbuf, cur.p, cur.len);
        list_append_enc(&c->vbuf, c->kbuf.buf, c->kbuf.len);
        wmap_put(g->map2, &order, 8, c->vbuf.buf, c->vbuf.len);
        return;
    }
    /* retract: take the oldest order recorded for this value */
    if (wmap_get(g->map1, c->kbuf.buf, c->kbuf.len, &cur) != WSL_FOUND || cur.len < 8) return;
    int64_t order = get_i64(cur.p);
    if (cur.len == 8) wmap_remove(g->map1, c->kbuf.buf, c->kbuf.len);
    else {
        wsb_clear(&c->vbuf);
        wsb_appendn(&c->vbuf, (const char *)cur.p + 8, cur.len - 8);
        wmap_put(g->map1, c->kbuf.buf, c->kbuf.len, c->vbuf.buf, c->vbuf.len);
    }
    if (wmap_get(g->map2, &order, 8, &cur) != WSL_FOUND) return;
    /* remove the first equal value from the order's list */
    wsb_clear(&c->vbuf);
    bool removed = false;
    int left = 0;
    for (size_t pos = 0; pos + 4 <= cur.len;) {
        uint32_t n;
        memcpy(&n, (const char *)cur.p + pos, 4);
        const char *item = (const char *)cur.p + pos + 4;
        if (!removed && n == c->kbuf.len && memcmp(item, c->kbuf.buf, n) == 0) removed = true;
        else { list_append_enc(&c->vbuf, item, n); left++; }
        pos += 4 + n;
    }
    if (removed) {
        if (left == 0) wmap_remove(g->map2, &order, 8);
        else wmap_put(g->map2, &order, 8, c->vbuf.buf, c->vbuf.len);
    }
    if (nulls[o] || !value_same(g->arg_type, v, acc[o])) return;
    /* the current first/last value left: find the next order */
    int64_t start = acc[o + 1].i;
    bool found = false;
    int64_t best = 0;
    WMapIter it;
    WBytes k, val;
    wmap_iter(g->map2, &it);
    while (wmap_next(&it, &k, &val)) {
        c->work++;
        if (k.len != 8) continue;
        int64_t key = get_i64(k.p);
        if (first ? (key >= start && (!found || key < best)) : (key <= start && (!found || key > best))) {
            best = key;
            found = true;
        }
    }
    if (first ? (found && best == INT64_MAX) : (found && best == INT64_MIN)) found = false;
    if (!found) {
        nulls[o] = 1;
        nulls[o + 1] = 1;
        return;
    }
    if (wmap_get(g->map2, &best, 8, &cur) != WSL_FOUND || cur.len < 4) { nulls[o] = 1; nulls[o + 1] = 1; return; }
    /* first value of the list (FIRST_VALUE) or last one (LAST_VALUE) */
    const char *pick = NULL;
    uint32_t pick_n = 0;
    for (size_t pos = 0; pos + 4 <= cur.len;) {
        uint32_t n;
        memcpy(&n, (const char *)cur.p + pos, 4);
        pick = (const char *)cur.p + pos + 4;
        pick_n = n;
        if (first) break;
        pos += 4 + n;
    }
    acc[o] = dec_value(c, g->arg_type, pick, pick_n);
    nulls[o] = 0;
    acc[o + 1].i = best;
    nulls[o + 1] = 0;
}

/* ------------------------------------------------------------------ LISTAGG */

static void listagg_acc(WAccCtx *c, const WAccAgg *g, WDatum *acc, uint8_t *nulls, WDatum v,
                        const WChunk *in, int row, bool retract)
{
    int o = g->off;
    WDatum delim = {.s = {",", 1}};
    bool delim_null = false;
    if (g->arg2 >= 0) {
        delim_null = in_null(in, row, g->arg2);
        delim = in->cols[g->arg2].data[row];
    }
    if (!g->retract) {
        /* delimiter = current delimiter; acc = acc NULL ? v : acc || delim || v */
        acc[o] = delim;
        nulls[o] = delim_null;
        if (nulls[o + 1]) { acc[o + 1] = v; nulls[o + 1] = 0; return; }
        if (delim_null) { nulls[o + 1] = 1; return; }
        size_t n = (size_t)acc[o + 1].s.len + (size_t)delim.s.len + (size_t)v.s.len;
        char *p = wa_alloc(c->scratch, n ? n : 1);
        memcpy(p, acc[o + 1].s.p, (size_t)acc[o + 1].s.len);
        memcpy(p + acc[o + 1].s.len, delim.s.p, (size_t)delim.s.len);
        memcpy(p + acc[o + 1].s.len + delim.s.len, v.s.p, (size_t)v.s.len);
        acc[o + 1].s = (WStr){p, (int32_t)n};
        return;
    }
    if (g->arg2 >= 0) { acc[o] = delim; nulls[o] = delim_null; }
    if (!retract) {
        wlist_add(g->list1, v.s.p, (size_t)v.s.len);
        return;
    }
    const WBytes *items;
    WStateLookup how;
    int n = wlist_get(g->list1, &items, &how);
    for (int i = 0; i < n; i++) {
        c->work++;
        if (items[i].len == (size_t)v.s.len && memcmp(items[i].p, v.s.p, items[i].len) == 0) {
            wlist_remove_at(g->list1, i);
            return;
        }
    }
    wlist_add(g->list2, v.s.p, (size_t)v.s.len);
}

/* ------------------------------------------------------------------ per aggregate */

static void agg_step(WAccCtx *c, const WAccAgg *g, WDatum *acc, uint8_t *nulls, const WChunk *in,
                     int row, bool retract)
{
    int o = g->off;
    if (g->kind == WAGG_COUNT_STAR) {
        acc[o].i += retract ? -1 : 1;
        return;
    }
    if (g->kind == WAGG_SINGLE_VALUE) {       /* a NULL is an element too */
        if (retract) {
            acc[o + 1].i -= 1;
            nulls[o] = 1;
        } else if (acc[o + 1].i > 0) {
            if (c->err && !c->err->set)
                werr_set(c->err, WEXC_RUNTIME, "SingleValueAggFunction received more than one element.");
        } else {
            nulls[o] = in_null(in, row, g->arg);
            if (!nulls[o]) acc[o] = copy_to(c, g->arg_type, in->cols[g->arg].data[row]);
            acc[o + 1].i += 1;
        }
        return;
    }
    if (in_null(in, row, g->arg)) return;     /* every function other than SINGLE_VALUE ignores NULL input */
    WDatum v = in->cols[g->arg].data[row];
    switch (g->kind) {
    case WAGG_COUNT:
        acc[o].i += retract ? -1 : 1;
        break;
    case WAGG_SUM:
        if (!g->retract) {
            if (nulls[o]) { acc[o] = v; nulls[o] = 0; }
            else if (!sum_step(g->sum_kind, &acc[o], v, false)) nulls[o] = 1;
        } else {
            if (nulls[o]) {
                acc[o] = zero_of(g->sum_kind);
                nulls[o] = 0;
                if (!retract) acc[o] = v;
                else if (!sum_step(g->sum_kind, &acc[o], v, true)) nulls[o] = 1;
            } else if (!sum_step(g->sum_kind, &acc[o], v, retract)) {
                nulls[o] = 1;
            }
            acc[o + 1].i += retract ? -1 : 1;
        }
        break;
    case WAGG_SUM0:
        if (!nulls[o] && !sum_step(g->sum_kind, &acc[o], v, retract)) nulls[o] = 1;
        break;
    case WAGG_AVG:
        if (g->sum_kind != WSK_DEC && g->sum_kind != WSK_DOUBLE) {
            uint64_t s = (uint64_t)acc[o].i;
            acc[o].i = (int64_t)(retract ? s - (uint64_t)v.i : s + (uint64_t)v.i);
        } else if (!nulls[o] && !sum_step(g->sum_kind, &acc[o], v, retract)) {
            nulls[o] = 1;
        }
        acc[o + 1].i += retract ? -1 : 1;
        break;
    case WAGG_MIN: case WAGG_MAX: case WAGG_BOOL_AND: case WAGG_BOOL_OR:
        minmax_acc(c, g, acc, nulls, v, retract);
        break;
    case WAGG_FIRST_VALUE: case WAGG_LAST_VALUE:
        firstlast_acc(c, g, acc, nulls, v, retract);
        break;
    case WAGG_LISTAGG:
        listagg_acc(c, g, acc, nulls, v, in, row, retract);
        break;
    case WAGG_STDDEV_POP: case WAGG_STDDEV_SAMP: case WAGG_VAR_POP: case WAGG_VAR_SAMP: {
        double x = v.d;
        if (g->arg_type->id == WT_DECIMAL) x = wdec_to_double(v.dec, g->arg_type->scale);
        else if (!is_float_type(g->arg_type)) x = (double)v.i;
        int64_t *n = &acc[o].i;
        double *mean = &acc[o + 1].d, *m2 = &acc[o + 2].d;
        if (!retract) {
            *n += 1;
            if (*n <= 0) break;
            double delta = x - *mean;
            *mean += delta / (double)*n;
            double delta2 = x - *mean;
            *m2 += delta * delta2;
        } else {
            *n -= 1;
            if (*n <= 0) {
                if (*n == 0) { *mean = 0.0; *m2 = 0.0; }
                break;
            }
            double delta2 = x - *mean;
            *mean -= delta2 / (double)*n;
            double delta = x - *mean;
            *m2 -= delta * delta2;
        }
        break;
    }
    case WAGG_COUNT_STAR: case WAGG_COLLECT: case WAGG_SINGLE_VALUE:
        break;
    }
}

/* The map key of row `row`'s DISTINCT argument values (their binary row): in the caller's
   buffer `own` (3 words: the header and up to 2 slots) when D->inline_key, else copied into
   scratch (it must survive the inner steps that reuse kbuf). */
static const void *distinct_key(WAccCtx *c, const WAccDistinct *D, const WChunk *in, int row,
                                uint64_t own[3], size_t *klen)
{
    WDatum vals[2];
    uint8_t vn[2];
    for (int k = 0; k < D->nargs; k++) {
        vals[k] = in->cols[D->args[k]].data[row];
        vn[k] = in->cols[D->args[k]].nulls[row];
    }
    const WType *tys[2] = {D->types[0], D->types[1]};
    if (D->inline_key) {
        assert(wrow_fixed_size(D->nargs) <= 3 * sizeof(uint64_t));
        *klen = wrow_encode_inline((unsigned char *)own, D->nargs, tys, vals, vn);
        return own;
    }
    enc_values(&c->kbuf, D->nargs, tys, vals, vn);
    *klen = c->kbuf.len;
    return wa_memdup(c->scratch, c->kbuf.buf, c->kbuf.len);
}

#ifdef WEIR_TEST_BUILD
/* rk is row `row`'s key as distinct_key writes it (row_keys' invariant). */
static bool same_key(WAccCtx *c, const WAccDistinct *D, const WChunk *in, int row, const WAccKey *rk)
{
    uint64_t own[3];
    size_t klen;
    const void *k = distinct_key(c, D, in, row, own, &klen);
    return klen == rk->len && memcmp(k, rk->words, klen) == 0 && wmap_key_hash(k, klen) == rk->hash;
}
#endif

/* DISTINCT: DistinctAggCodeGen over the shared value map. */
static void distinct_step(WAccCtx *c, const WAccDistinct *D, WDatum *acc, uint8_t *nulls,
                          const WChunk *in, int row, bool retract)
{
    enum { SMALL = 64 };
    const WAccLayout *L = c->L;
    bool pass[SMALL], any = false;
    int n = D->naggs;
    bool *ps = n <= SMALL ? pass : wa_alloc(c->scratch, (size_t)n);
    for (int j = 0; j < n; j++) {
        ps[j] = filter_ok(in, row, L->aggs[D->aggs[j]].filter_col);
        any |= ps[j];
    }
    if (D->all_filtered && !any) return;
    uint64_t own[3];
    size_t klen;
    const void *key;
    uint64_t h = 0;
    const WAccKey *rk = c->row_keys ? &c->row_keys[D - L->distinct] : NULL;
    if (rk && rk->len) {
        key = rk->words;
        klen = rk->len;
        h = rk->hash;
        WASSERT_COSTLY(same_key(c, D, in, row, rk));
    } else {
        key = distinct_key(c, D, in, row, own, &klen);
    }
    WMapRef ref;                /* the value's counts or bits, rewritten in place */
    WKeyHint *hint = c->row_where ? &c->row_where[D - L->distinct].top : NULL;
    bool found = wmap_ref_hinted(D->map, key, klen, h, hint, &ref) == WSL_FOUND;
    WBytes cur = ref.cur;
    if (!L->retract) {
        int words = (n + 63) / 64;
        uint64_t bits_small[SMALL / 64];
        uint64_t *bits = words <= SMALL / 64 ? bits_small : wa_alloc(c->scratch, (size_t)words * 8);
        if (found && cur.len == (size_t)words * 8) memcpy(bits, cur.p, cur.len);
        else memset(bits, 0, (size_t)words * 8);
        bool changed = false;
        for (int j = 0; j < n; j++) {
            if (!ps[j]) continue;
            uint64_t m = 1ULL << (j % 64);
            if (bits[j / 64] & m) continue;
            bits[j / 64] |= m;
            changed = true;
            agg_step(c, &L->aggs[D->aggs[j]], acc, nulls, in, row, false);
        }
        if (changed) wmap_ref_put(&ref, bits, (size_t)words * 8);
        return;
    }
    int64_t cnt_small[SMALL];
    int64_t *cnt = n <= SMALL ? cnt_small : wa_alloc(c->scratch, (size_t)n * 8);
    if (found && cur.len == (size_t)n * 8) memcpy(cnt, cur.p, cur.len);
    else memset(cnt, 0, (size_t)n * 8);
    for (int j = 0; j < n; j++) {
        if (!ps[j]) continue;
        if (!retract) {
            if (++cnt[j] == 1) agg_step(c, &L->aggs[D->aggs[j]], acc, nulls, in, row, false);
        } else {
            if (--cnt[j] == 0) agg_step(c, &L->aggs[D->aggs[j]], acc, nulls, in, row, true);
        }
    }
    bool empty = true;
    for (int j = 0; j < n; j++) if (cnt[j] != 0) { empty = false; break; }
    if (empty) wmap_remove(D->map, key, klen);
    else wmap_ref_put(&ref, cnt, (size_t)n * 8);
}

void wacc_distinct_keys(const WAccCtx *c, const WChunk *in, WAccKey *keys)
{
    const WAccLayout *L = c->L;
    int nd = L->ndistinct;
    for (int d = 0; d < nd; d++) {
        const WAccDistinct *D = &L->distinct[d];
        WAccKey *k = &keys[d];
        if (!D->inline_key) {               /* its key would be copied into scratch first */
            for (int r = 0; r < in->nrows; r++, k += nd) k->len = 0;
            continue;
        }
        /* the key's hash from its words (wmap_key_hash_words) */
        size_t len = wrow_fixed_size(D->nargs), nw = len / 8;
        assert(len <= sizeof k->words && len % 8 == 0 && len < 32);
        const WType *tys[2] = {D->types[0], D->types[1]};
        _Static_assert(sizeof(WAccKey) % 8 == 0, "keys are whole words apart");
        wrow_encode_rows_inline(k->words, nd * sizeof(WAccKey) / 8, in, D->nargs, D->args, tys);
        for (int r = 0; r < in->nrows; r++, k += nd) {
            k->len = (uint32_t)len;
            k->hash = wmap_key_hash_words(k->words, nw);
        }
    }
}

void wacc_prefetch(WAccCtx *c, const void *key, size_t klen, uint64_t khash, WMapWhere *where,
                   const WAccKey *keys, WMapPrefetch stage)
{
    const WAccLayout *L = c->L;
    for (int d = 0; d < L->ndistinct; d++)
        if (keys[d].len) wmap_prefetch(L->distinct[d].map, key, klen, khash, &where[d], keys[d].hash, stage);
}

bool wacc_prefetch_pays(const WAccCtx *c)
{
    const WAccLayout *L = c->L;
    for (int d = 0; d < L->ndistinct; d++)
        if (L->distinct[d].inline_key && wstate_outgrows_cache(L->distinct[d].map)) return true;
    return false;
}

static void step_all(WAccCtx *c, WDatum *acc, uint8_t *nulls, const WChunk *in, int row, bool retract)
{
    const WAccLayout *L = c->L;
    acc[0].i += retract ? -1 : 1;
    for (int k = 0; k < L->nplain; k++) {
        const WAccAgg *g = &L->aggs[L->plain[k]];
        if (!filter_ok(in, row, g->filter_col)) continue;
        agg_step(c, g, acc, nulls, in, row, retract);
    }
    for (int d = 0; d < L->ndistinct; d++) distinct_step(c, &L->distinct[d], acc, nulls, in, row, retract);
}

void wacc_accumulate(WAccCtx *c, WDatum *acc, uint8_t *nulls, const WChunk *in, int row)
{
    step_all(c, acc, nulls, in, row, false);
}

void wacc_retract(WAccCtx *c, WDatum *acc, uint8_t *nulls, const WChunk *in, int row)
{
    step_all(c, acc, nulls, in, row, true);
}

/* ------------------------------------------------------------------ get value */

/* Flink's DecimalDataUtils.divide(sum, count) at DECIMAL(38, t): the exact quotient rounded to
   34 significant digits (MathContext.DECIMAL128, HALF_EVEN), then to scale t (HALF_UP); false
   when the result needs more than 38 digits. */
bool wacc_dec_avg(__int128 sum, int s, int64_t cnt, int t, __int128 *out)
{
    if (cnt == 0) return false;
    bool neg = (sum < 0) != (cnt < 0);
    unsigned __int128 a = sum < 0 ? (unsigned __int128)0 - (unsigned __int128)sum : (unsigned __int128)sum;
    unsigned __int128 b = cnt < 0 ? (unsigned __int128)(-(__int128)cnt) : (unsigned __int128)cnt;
    unsigned __int128 q = a / b, r = a % b;
    unsigned char dig[256];
    int nd = 0;
    unsigned char tmp[48];
    int nt = 0;
    do { tmp[nt++] = (unsigned char)(q % 10); q /= 10; } while (q);
    while (nt) dig[nd++] = tmp[--nt];
    int scale = s;
    int first = 0;
    while (first < nd && dig[first] == 0) first++;
    while (nd < 200 && (scale < t + 1 || (r != 0 && nd - first < 36))) {
        r *= 10;
        dig[nd++] = (unsigned char)(r / b);
        r %= b;
        scale++;
        while (first < nd && dig[first] == 0) first++;
    }
    bool sticky = r != 0;
    /* 1. round to 34 significant digits, HALF_EVEN */
    if (first < nd && nd - first > 34) {
        int keep = first + 34;
        int rd = dig[keep];
        bool rest = sticky;
        for (int i = keep + 1; i < nd; i++) if (dig[i]) rest = true;
        for (int i = keep; i < nd; i++) dig[i] = 0;
        bool up = rd > 5 || (rd == 5 && (rest || (dig[keep - 1] & 1)));
        if (up) {
            int i = keep - 1;
            while (i >= 0 && dig[i] == 9) { dig[i] = 0; i--; }
            if (i >= 0) dig[i]++;
            else { memmove(dig + 1, dig, (size_t)nd); dig[0] = 1; nd++; }
        }
    }
    /* 2. to scale t, HALF_UP (the remaining dropped digits are exact now) */
    int drop = scale - t;               /* >= 1 */
    int keepn = nd - drop;
    bool up = keepn < nd && dig[keepn] >= 5;
    unsigned __int128 v = 0;
    for (int i = 0; i < keepn; i++) {
        if (v > (unsigned __int128)wdecimal_max(38) / 10 + 1) return false;
        v = v * 10 + dig[i];
    }
    if (up) v += 1;
    if (v > (unsigned __int128)wdecimal_max(38)) return false;
    *out = neg ? -(__int128)v : (__int128)v;
    return true;
}

static bool double_to_result(WAccCtx *c, double d, const WType *rt, WDatum *out)
{
    if (rt->id == WT_DOUBLE) { out->d = d; return true; }
    WError err;
    werr_clear(&err);
    WDatum in = {.d = d};
    return wcast_datum_ex(&c->cast, &WTYPE_DOUBLE, in, rt, out, c->scratch, &err) == WCAST_OK;
}

static void agg_value(WAccCtx *c, const WAccAgg *g, const WDatum *acc, const uint8_t *nulls,
                      WDatum *out, uint8_t *onull)
{
    int o = g->off;
    memset(out, 0, sizeof *out);
    *onull = 0;
    switch (g->kind) {
    case WAGG_COUNT_STAR: case WAGG_COUNT:
        out->i = acc[o].i;
        return;
    case WAGG_SUM:
        if (g->retract && acc[o + 1].i == 0) { *onull = 1; return; }
        /* fallthrough */
    case WAGG_SUM0:
        if (nulls[o]) { *onull = 1; return; }
        *out = acc[o];
        if (g->sum_kind == WSK_FLOAT) out->d = (float)out->d;
        return;
    case WAGG_AVG: {
        int64_t cnt = acc[o + 1].i;
        if (cnt == 0 || nulls[o]) { *onull = 1; return; }
        if (g->sum_kind == WSK_I64) {
            int64_t q = cnt == -1 ? (int64_t)(0 - (uint64_t)acc[o].i) : acc[o].i / cnt;
            out->i = wrap_to_type(q, g->res_type);
        } else if (g->sum_kind == WSK_DOUBLE) {
            double q = acc[o].d / (double)cnt;
            out->d = g->res_type->id == WT_FLOAT ? (double)(float)q : q;
        } else if (!wacc_dec_avg(acc[o].dec, g->arg_type->scale, cnt, g->res_type->scale, &out->dec)) {
            *onull = 1;
        }
        return;
    }
    case WAGG_MIN: case WAGG_MAX: case WAGG_BOOL_AND: case WAGG_BOOL_OR:
        if (nulls[o] || (g->retract && acc[o + 1].i <= 0)) { *onull = 1; return; }
        *out = acc[o];
        if (g->res_type->id == WT_FLOAT) out->d = (float)out->d;
        return;
    case WAGG_FIRST_VALUE: case WAGG_LAST_VALUE: case WAGG_SINGLE_VALUE:
        if (nulls[o]) { *onull = 1; return; }
        *out = acc[o];
        return;
    case WAGG_LISTAGG: {
        if (!g->retract) {
            if (nulls[o + 1]) { *onull = 1; return; }
            *out = acc[o + 1];
            return;
        }
        const WBytes *items;
        WStateLookup how;
        int n = wlist_get(g->list1, &items, &how);
        c->work += n;
        if (n == 0 || nulls[o]) { *onull = 1; return; }
        size_t total = 0;
        for (int i = 0; i < n; i++) total += items[i].len + (size_t)acc[o].s.len;
        char *p = wa_alloc(c->scratch, total + 1);
        size_t len = 0;
        for (int i = 0; i < n; i++) {
            if (i) { memcpy(p + len, acc[o].s.p, (size_t)acc[o].s.len); len += (size_t)acc[o].s.len; }
            memcpy(p + len, items[i].p, items[i].len);
            len += items[i].len;
        }
        out->s = (WStr){p, (int32_t)len};
        return;
    }
    case WAGG_STDDEV_POP: case WAGG_STDDEV_SAMP: case WAGG_VAR_POP: case WAGG_VAR_SAMP: {
        int64_t n = acc[o].i;
        double m2 = acc[o + 2].d;
        if (n <= 0 || m2 < 0) { *onull = 1; return; }       /* WELFORD_M2 is NULL */
        bool samp = g->kind == WAGG_STDDEV_SAMP || g->kind == WAGG_VAR_SAMP;
        if (samp && n == 1) { *onull = 1; return; }
        double var = m2 / (double)(samp ? n - 1 : n);
        double r = (g->kind == WAGG_STDDEV_POP || g->kind == WAGG_STDDEV_SAMP) ? pow(var, 0.5) : var;
        if (!double_to_result(c, r, g->res_type, out)) *onull = 1;
        return;
    }
    case WAGG_COLLECT:
        *onull = 1;
        return;
    }
}

void wacc_get_value(WAccCtx *c, const WDatum *acc, const uint8_t *nulls, WDatum *vals, uint8_t *vnulls)
{
    const WAccLayout *L = c->L;
    /* as agg_value, without its switch; the count is stored into its result in place (built in a
       local WDatum and copied, gcc wrote it to the stack in two 8-byte stores and read it back in
       one of 16 bytes, which the store buffer cannot forward: a stall of a dozen cycles per
       count, 12 % of Nexmark q16's CPU with its 12 COUNTs) */
    for (int k = 0; k < L->ncounts; k++) {
        WAccCount n = L->counts[k];
        WDatum *o = &vals[n.agg];
        int64_t x = acc[n.off].i;
        memset(o, 0, sizeof *o);
        o->i = x;
        vnulls[n.agg] = 0;
    }
    for (int k = 0; k < L->nvalued; k++) {
        int i = L->valued[k];
        agg_value(c, &L->aggs[i], acc, nulls, &vals[i], &vnulls[i]);
    }
}

bool wacc_values_equal(const WAccLayout *L, const WDatum *a, const uint8_t *an, const WDatum *b,
                       const uint8_t *bn)
{
    for (int k = 0; k < L->naggs; k++) {
        int i = L->eq_order[k];
        if (an[i] != bn[i]) return false;
        if (an[i]) continue;
        const WType *t = L->aggs[i].res_type;
        if (is_float_type(t)) { if (!(a[i].d == b[i].d)) return false; }
        else if (!wdatum_equal(t, a[i], b[i])) return false;
    }
    return true;
}

void wacc_cleanup(const WAccLayout *L)
{
    for (int i = 0; i < L->naggs; i++) {
        const WAccAgg *g = &L->aggs[i];
        if (g->map1) wmap_clear(g->map1);
        if (g->map2) wmap_clear(g->map2);
        if (g->list1) wlist_clear(g->list1);
        if (g->list2) wlist_clear(g->list2);
    }
    for (int d = 0; d < L->ndistinct; d++) wmap_clear(L->distinct[d].map);
}

void wacc_cleanup_values(const WAccLayout *L)
{
    for (int i = 0; i < L->naggs; i++) {
        const WAccAgg *g = &L->aggs[i];
        if (g->map1) wmap_clear(g->map1);
        if (g->map2) wmap_clear(g->map2);
        if (g->list1) wlist_clear(g->list1);
        if (g->list2) wlist_clear(g->list2);
    }
}

/* ------------------------------------------------------------------ row <-> datums */

void wacc_decode(WAccCtx *c, const void *row, size_t len, WDatum *acc, uint8_t *nulls)
{
    const WAccLayout *L = c->L;
    bool words = len >= wrow_fixed_size(L->nfields);
    for (int i = 0; i < L->nfields; i++) {
        const WType *t = L->ftypes[i];
        if (L->fword[i] && words) {     /* as wrow_get_arena, without its switch */
            uint64_t w = 0;
            memset(&acc[i], 0, sizeof acc[i]);
            nulls[i] = !wrow_get_word(row, L->nfields, i, &w);
            if (t->id == WT_BIGINT) acc[i].i = (int64_t)w;
            else memcpy(&acc[i].d, &w, 8);
            continue;
        }
        nulls[i] = !wrow_get_arena(row, len, L->nfields, t, i, &acc[i], c->scratch);
        if (!nulls[i] && L->fcopy[i]) acc[i] = copy_to(c, t, acc[i]);
    }
}

void wacc_encode(WAccCtx *c, const WDatum *acc, const uint8_t *nulls, WStrBuf *out)
{
    const WAccLayout *L = c->L;
    wrow_encode(out, L->nfields, L->ftypes, acc, nulls, WRK_INSERT);
}

/* ------------------------------------------------------------------ partial accumulators */

static void put_u32(WStrBuf *b, uint32_t v) { wsb_appendn(b, (const char *)&v, 4); }

/* The map view m of the current key as one VARBINARY value in arena dst. */
static WStr ser_map(WAccCtx *c, WState *m, WArena *dst)
{
    WStrBuf *b = &c->tbuf;
    wsb_clear(b);
    put_u32(b, 0);
    uint32_t n = 0;
    WMapIter it;
    WBytes k, v;
    wmap_iter(m, &it);
    while (wmap_next(&it, &k, &v)) {
        c->work++;
        put_u32(b, (uint32_t)k.len);
        wsb_appendn(b, (const char *)k.p, k.len);
        put_u32(b, (uint32_t)v.len);
        wsb_appendn(b, (const char *)v.p, v.len);
        n++;
    }
    memcpy(b->buf, &n, 4);
    char *p = wa_memdup(dst, b->buf, b->len);
    return (WStr){p, (int32_t)b->len};
}

typedef struct MapBlob { const unsigned char *p, *end; uint32_t left; } MapBlob;

static void blob_init(MapBlob *b, WStr s)
{
    b->p = (const unsigned char *)s.p;
    b->end = b->p + (s.len > 0 ? s.len : 0);
    b->left = 0;
    if (s.len >= 4) { memcpy(&b->left, b->p, 4); b->p += 4; }
}

static bool blob_next(MapBlob *b, WBytes *k, WBytes *v)
{
    if (!b->left || b->end - b->p < 4) return false;
    uint32_t kl, vl;
    memcpy(&kl, b->p, 4);
    if ((size_t)(b->end - b->p - 4) < kl) return false;
    k->p = b->p + 4;
    k->len = kl;
    b->p += 4 + kl;
    if (b->end - b->p < 4) return false;
    memcpy(&vl, b->p, 4);
    if ((size_t)(b->end - b->p - 4) < vl) return false;
    v->p = b->p + 4;
    v->len = vl;
    b->p += 4 + vl;
    b->left--;
    return true;
}

static void set_out(WChunk *out, int col, int row, WDatum v, bool null)
{
    out->cols[col].data[row] = v;
    out->cols[col].nulls[row] = null;
}

void wacc_write_partial(WAccCtx *c, const WAggPartial *P, const WDatum *acc, const uint8_t *nulls,
                        WChunk *out, int row, int col0)
{
    const WAccLayout *L = c->L;
    for (int i = 0; i < L->naggs && i < P->naggs; i++) {
        const WAccAgg *g = &L->aggs[i];
        int o = g->off, col = col0 + P->first[i];
        switch (g->kind) {
        case WAGG_COUNT_STAR: case WAGG_COUNT:
            set_out(out, col, row, acc[o], false);
            break;
        case WAGG_SUM: case WAGG_SUM0: case WAGG_AVG: {
            WDatum v = acc[o];
            if (g->sum_kind == WSK_FLOAT) v.d = (float)v.d;
            set_out(out, col, row, v, nulls[o] != 0);
            if (P->nfields[i] > 1) set_out(out, col + 1, row, acc[o + 1], false);
            break;
        }
        case WAGG_MIN: case WAGG_MAX: case WAGG_BOOL_AND: case WAGG_BOOL_OR:
            if (!g->retract) {
                WDatum v = nulls[o] ? acc[o] : wdatum_copy(out->arena, g->arg_type, acc[o]);
                if (!nulls[o] && g->arg_type->id == WT_FLOAT) v.d = (float)v.d;
                set_out(out, col, row, v, nulls[o] != 0);
            } else {
                WDatum v = {.s = ser_map(c, g->map1, out->arena)};
                set_out(out, col, row, v, false);
            }
            break;
        case WAGG_LISTAGG:
            if (!g->retract) {
                for (int k = 0; k < 2; k++)
                    set_out(out, col + k, row, nulls[o + k] ? acc[o + k] : wdatum_copy(out->arena, &WTYPE_STRING, acc[o + k]),
                            nulls[o + k] != 0);
                break;
            }
            /* fallthrough */
        default: {
            WDatum z = {0};
            set_out(out, col, row, z, true);
            break;
        }
        }
    }
    if (P->count1_added && P->count1 >= 0) set_out(out, col0 + P->count1, row, acc[0], false);
    for (int d = 0; d < P->ndistinct && d < L->ndistinct; d++) {
        if (P->distinct_col[d] < 0) continue;
        WDatum v = {.s = ser_map(c, L->distinct[d].map, out->arena)};
        set_out(out, col0 + P->distinct_col[d], row, v, false);
    }
}

/* MIN/MAX with retraction: add the value counts of a partial map, then find the extreme again. */
static void minmax_merge(WAccCtx *c, const WAccAgg *g, WDatum *acc, uint8_t *nulls, WStr blob)
{
    int o = g->off;
    MapBlob b;
    blob_init(&b, blob);
    WBytes k, v;
    bool changed = false;
    while (blob_next(&b, &k, &v)) {
        if (v.len != 8) continue;
        int64_t add = get_i64(v.p), old = 0;
        WBytes cur;
        if (wmap_get(g->map1, k.p, k.len, &cur) == WSL_FOUND && cur.len == 8) old = get_i64(cur.p);
        int64_t nw = old + add;
        if (nw == 0) wmap_remove(g->map1, k.p, k.len);
        else wmap_put(g->map1, k.p, k.len, &nw, 8);
        if (old > 0 && nw <= 0) acc[o + 1].i -= 1;
        else if (old <= 0 && nw > 0) acc[o + 1].i += 1;
        changed = true;
    }
    if (!changed) return;
    if (acc[o + 1].i <= 0) { nulls[o] = 1; return; }
    minmax_update_extreme(c, g, acc, nulls);
}

/* One accumulate/retract of call g with the value(s) of a distinct map key. */
static void step_value(WAccCtx *c, const WAccAgg *g, const WAccDistinct *D, WDatum *acc, uint8_t *nulls,
                       const WDatum *vals, const uint8_t *vn, bool retract)
{
    int ncols = 1;
    for (int m = 0; m < D->nargs; m++) if (D->args[m] + 1 > ncols) ncols = D->args[m] + 1;
    WVector *cols = wa_zalloc(c->scratch, sizeof(WVector) * (size_t)ncols);
    WDatum *dv = wa_alloc(c->scratch, sizeof(WDatum) * 2);
    uint8_t *nv = wa_alloc(c->scratch, 2);
    for (int m = 0; m < D->nargs; m++) {
        dv[m] = vals[m];
        nv[m] = vn[m];
        cols[D->args[m]] = (WVector){D->types[m], &dv[m], &nv[m]};
    }
    WChunk ch;
    memset(&ch, 0, sizeof ch);
    ch.ncols = ncols;
    ch.nrows = 1;
    ch.cap = 1;
    ch.cols = cols;
    agg_step(c, g, acc, nulls, &ch, 0, retract);
}

/* DISTINCT: merge a partial value map into the key's map; each value new to a call is
   accumulated into it, each value whose count falls to zero is retracted. */
static void distinct_merge(WAccCtx *c, const WAccDistinct *D, WDatum *acc, uint8_t *nulls, WStr blob)
{
    const WAccLayout *L = c->L;
    int n = D->naggs;
    MapBlob b;
    blob_init(&b, blob);
    WBytes k, v;
    while (blob_next(&b, &k, &v)) {
        WDatum vals[2] = {{0}, {0}};
        uint8_t vn[2] = {0, 0};
        for (int m = 0; m < D->nargs; m++)
            vn[m] = !wrow_get_arena(k.p, k.len, D->nargs, D->types[m], m, &vals[m], c->scratch);
        WBytes cur;
        bool found = wmap_get(D->map, k.p, k.len, &cur) == WSL_FOUND;
        if (!L->retract) {
            int words = (n + 63) / 64;
            uint64_t *bits = wa_zalloc(c->scratch, (size_t)words * 8);
            if (found && cur.len == (size_t)words * 8) memcpy(bits, cur.p, cur.len);
            uint64_t *inb = wa_zalloc(c->scratch, (size_t)words * 8);
            memcpy(inb, v.p, v.len < (size_t)words * 8 ? v.len : (size_t)words * 8);
            bool changed = false;
            for (int j = 0; j < n; j++) {
                uint64_t mk = 1ULL << (j % 64);
                if (!(inb[j / 64] & mk) || (bits[j / 64] & mk)) continue;
                bits[j / 64] |= mk;
                changed = true;
                step_value(c, &L->aggs[D->aggs[j]], D, acc, nulls, vals, vn, false);
            }
            if (changed) wmap_put(D->map, k.p, k.len, bits, (size_t)words * 8);
            continue;
        }
        int64_t *cnt = wa_zalloc(c->scratch, (size_t)n * 8);
        if (found && cur.len == (size_t)n * 8) memcpy(cnt, cur.p, cur.len);
        for (int j = 0; j < n; j++) {
            int64_t add = 0;
            if (v.len >= (size_t)(j + 1) * 8) memcpy(&add, (const char *)v.p + 8 * j, 8);
            int64_t old = cnt[j], nw = old + add;
            cnt[j] = nw;
            if (old <= 0 && nw > 0) step_value(c, &L->aggs[D->aggs[j]], D, acc, nulls, vals, vn, false);
            else if (old > 0 && nw <= 0) step_value(c, &L->aggs[D->aggs[j]], D, acc, nulls, vals, vn, true);
        }
        bool empty = true;
        for (int j = 0; j < n; j++) if (cnt[j] != 0) empty = false;
        if (empty) wmap_remove(D->map, k.p, k.len);
        else wmap_put(D->map, k.p, k.len, cnt, (size_t)n * 8);
    }
}

void wacc_merge_partial(WAccCtx *c, const WAggPartial *P, WDatum *acc, uint8_t *nulls, const WChunk *in,
                        int row, int col0)
{
    const WAccLayout *L = c->L;
    for (int i = 0; i < L->naggs && i < P->naggs; i++) {
        const WAccAgg *g = &L->aggs[i];
        if (g->distinct >= 0) continue;             /* driven by the value map */
        int o = g->off, col = col0 + P->first[i];
        const WVector *vec = &in->cols[col];
        bool vn = vec->nulls[row] != 0;
        WDatum x = vec->data[row];
        switch (g->kind) {
        case WAGG_COUNT_STAR: case WAGG_COUNT:
            if (!vn) acc[o].i += x.i;
            break;
        case WAGG_SUM:
            if (!vn) {
                if (nulls[o]) { acc[o] = x; nulls[o] = 0; }
                else if (!sum_step(g->sum_kind, &acc[o], x, false)) nulls[o] = 1;
            }
            if (g->retract && P->nfields[i] > 1 && !in->cols[col + 1].nulls[row])
                acc[o + 1].i += in->cols[col + 1].data[row].i;
            break;
        case WAGG_SUM0:
            if (vn) nulls[o] = 1;
            else if (!nulls[o] && !sum_step(g->sum_kind, &acc[o], x, false)) nulls[o] = 1;
            break;
        case WAGG_AVG:
            if (vn) nulls[o] = 1;
            else if (!nulls[o] && !sum_step(g->sum_kind, &acc[o], x, false)) nulls[o] = 1;
            if (P->nfields[i] > 1 && !in->cols[col + 1].nulls[row]) acc[o + 1].i += in->cols[col + 1].data[row].i;
            break;
        case WAGG_MIN: case WAGG_MAX: case WAGG_BOOL_AND: case WAGG_BOOL_OR:
            if (!g->retract) {
                if (!vn && (nulls[o] || minmax_better(g, x, acc[o], false))) {
                    acc[o] = copy_to(c, g->arg_type, x);
                    nulls[o] = 0;
                }
            } else if (!vn) {
                minmax_merge(c, g, acc, nulls, x.s);
            }
            break;
        case WAGG_LISTAGG: {
            /* ListAggFunction.mergeExpressions: the other's delimiter; acc || delimiter || other */
            if (g->retract) break;
            const WVector *cv = &in->cols[col + 1];
            WDatum delim = x;
            bool dnull = vn;
            acc[o] = dnull ? acc[o] : copy_to(c, &WTYPE_STRING, delim);
            nulls[o] = dnull;
            if (cv->nulls[row]) break;
            WStr other = cv->data[row].s;
            if (nulls[o + 1]) {
                acc[o + 1] = copy_to(c, &WTYPE_STRING, cv->data[row]);
                nulls[o + 1] = 0;
                break;
            }
            if (dnull) { nulls[o + 1] = 1; break; }
            size_t len = (size_t)acc[o + 1].s.len + (size_t)delim.s.len + (size_t)other.len;
            char *p = wa_alloc(c->scratch, len ? len : 1);
            memcpy(p, acc[o + 1].s.p, (size_t)acc[o + 1].s.len);
            memcpy(p + acc[o + 1].s.len, delim.s.p, (size_t)delim.s.len);
            memcpy(p + acc[o + 1].s.len + delim.s.len, other.p, (size_t)other.len);
            acc[o + 1].s = (WStr){p, (int32_t)len};
            break;
        }
        default:
            break;
        }
    }
    if (P->count1 >= 0) {
        const WVector *vec = &in->cols[col0 + P->count1];
        if (!vec->nulls[row]) acc[0].i += vec->data[row].i;
    } else {
        acc[0].i += 1;
    }
    for (int d = 0; d < P->ndistinct && d < L->ndistinct; d++) {
        if (P->distinct_col[d] < 0) continue;
        const WVector *vec = &in->cols[col0 + P->distinct_col[d]];
        if (vec->nulls[row]) continue;
        distinct_merge(c, &L->distinct[d], acc, nulls, vec->data[row].s);
    }
}

/* ------------------------------------------------------------------ accumulator merge */

bool wacc_layout_mergeable(const WAccLayout *L)
{
    if (L->has_views || L->ndistinct > 0) return false;
    for (int i = 0; i < L->naggs; i++) {
        const WAccAgg *g = &L->aggs[i];
        if (g->distinct >= 0) return false;
        switch (g->kind) {
        case WAGG_COUNT_STAR: case WAGG_COUNT: case WAGG_SUM: case WAGG_SUM0: case WAGG_AVG:
            break;
        case WAGG_MIN: case WAGG_MAX:
            if (g->retract) return false;
            break;
        case WAGG_LISTAGG:
            if (g->retract) return false;
            break;
        default:
            return false;
        }
    }
    return true;
}

void wacc_merge(WAccCtx *c, WDatum *acc, uint8_t *nulls, const WDatum *o, const uint8_t *on)
{
    const WAccLayout *L = c->L;
    assert(!L->has_views);
    acc[0].i += o[0].i;                             /* record count */
    for (int i = 0; i < L->naggs; i++) {
        const WAccAgg *g = &L->aggs[i];
        int f = g->off;
        switch (g->kind) {
        case WAGG_COUNT_STAR: case WAGG_COUNT:
            acc[f].i += o[f].i;
            break;
        case WAGG_SUM:
            if (!on[f]) {
                if (nulls[f]) { acc[f] = o[f]; nulls[f] = 0; }
                else if (!sum_step(g->sum_kind, &acc[f], o[f], false)) nulls[f] = 1;
            }
            if (g->retract) acc[f + 1].i += o[f + 1].i;
            break;
        case WAGG_SUM0:
            if (on[f]) nulls[f] = 1;
            else if (!nulls[f] && !sum_step(g->sum_kind, &acc[f], o[f], false)) nulls[f] = 1;
            break;
        case WAGG_AVG:
            if (g->sum_kind != WSK_DEC && g->sum_kind != WSK_DOUBLE)
                acc[f].i = (int64_t)((uint64_t)acc[f].i + (uint64_t)o[f].i);
            else if (on[f]) nulls[f] = 1;
            else if (!nulls[f] && !sum_step(g->sum_kind, &acc[f], o[f], false)) nulls[f] = 1;
            acc[f + 1].i += o[f + 1].i;
            break;
        case WAGG_MIN: case WAGG_MAX:
            assert(!g->retract);
            if (!on[f] && (nulls[f] || minmax_better(g, o[f], acc[f], false))) {
                acc[f] = copy_to(c, g->arg_type, o[f]);
                nulls[f] = 0;
            }
            break;
        case WAGG_LISTAGG: {
            /* ListAggFunction.mergeExpressions: the other's delimiter; acc || delimiter || other */
            assert(!g->retract);
            acc[f] = on[f] ? acc[f] : copy_to(c, &WTYPE_STRING, o[f]);
            nulls[f] = on[f];
            if (on[f + 1]) break;
            if (nulls[f + 1]) {
                acc[f + 1] = copy_to(c, &WTYPE_STRING, o[f + 1]);
                nulls[f + 1] = 0;
                break;
            }
            if (on[f]) { nulls[f + 1] = 1; break; }
            WStr a = acc[f + 1].s, d = o[f].s, b = o[f + 1].s;
            size_t len = (size_t)a.len + (size_t)d.len + (size_t)b.len;
            char *p = wa_alloc(c->scratch, len ? len : 1);
            memcpy(p, a.p, (size_t)a.len);
            memcpy(p + a.len, d.p, (size_t)d.len);
            memcpy(p + a.len + d.len, b.p, (size_t)b.len);
            acc[f + 1].s = (WStr){p, (int32_t)len};
            break;
        }
        default:
            assert(!"wacc_merge: aggregate without a merge");
            break;
        }
    }
}
