/*
 * eval.c — vectorised evaluation of bound expressions (expr.h): columns, literals, function
 * calls with NULL propagation, CAST/TRY_CAST, lazy CASE / COALESCE / IF, three-valued AND / OR
 * with short-circuit through the active mask, NOT, IS [NOT] NULL, [NOT] IN, PROCTIME; plus
 * filters, constant evaluation and the node constructors.
 *
 * Rows whose active byte is 0 are not computed (their output is unspecified); scratch vectors
 * come from ctx->arena. With ctx->memo (expr_memo.c), a shared subexpression's rows are computed
 * once per chunk and read from the memo after. A runtime error is left in ctx->err and evaluation
 * returns false.
 * Depends on functions.h (the library), types/ (casts), common/.
 */
#include "func_impl.h"
#include "../common/proc_clock.h"

#include <assert.h>
#include <time.h>

static WVector *tmp_vec(WEvalCtx *ctx, const WType *t, int n)
{
    /* data is left uninitialised (rows not computed are never interpreted); null bytes are zeroed */
    WVector *v = WA_NEW(ctx->arena, WVector);
    v->type = t;
    v->data = wa_alloc(ctx->arena, sizeof(WDatum) * (size_t)(n > 0 ? n : 1));
    v->nulls = WA_ARRAY(ctx->arena, uint8_t, n > 0 ? n : 1);
    return v;
}

static uint8_t *tmp_mask(WEvalCtx *ctx, int n)
{
    return WA_ARRAY(ctx->arena, uint8_t, n > 0 ? n : 1);
}

/* mask = copy of active (all ones if NULL) */
static uint8_t *mask_from(WEvalCtx *ctx, const uint8_t *active, int n)
{
    uint8_t *m = tmp_mask(ctx, n);
    if (active) memcpy(m, active, (size_t)n);
    else memset(m, 1, (size_t)n);
    return m;
}

/* Masks eight rows at a time: a row mask's bytes are any value, nonzero = on. */
#define MASK_ONES 0x0101010101010101ULL
static inline uint64_t mask_word(const uint8_t *m, int i)
{
    uint64_t w;
    memcpy(&w, m + i, 8);
    return w;
}

/* 1 in each byte of w that is nonzero, else 0 (no carry crosses a byte: (b & 0x7F) + 0x7F <= 0xFE) */
static inline uint64_t mask_on(uint64_t w)
{
    return ((((w & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | w) >> 7) & MASK_ONES;
}

static bool mask_any(const uint8_t *m, int n)
{
    int i = 0;
    for (; i + 8 <= n; i += 8)
        if (mask_word(m, i)) return true;
    for (; i < n; i++)
        if (m[i]) return true;
    return false;
}

/* dst |= src, eight bytes at a time */
static void bytes_or(uint8_t *dst, const uint8_t *src, int n)
{
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t a, b;
        memcpy(&a, dst + i, 8);
        memcpy(&b, src + i, 8);
        a |= b;
        memcpy(dst + i, &a, 8);
    }
    for (; i < n; i++) dst[i] |= src[i];
}

/* any row with dst[i] && (mask == NULL || mask[i]) */
static bool bytes_any_masked(const uint8_t *p, const uint8_t *mask, int n)
{
    if (!mask) return mask_any(p, n);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t a, b;
        memcpy(&a, p + i, 8);
        memcpy(&b, mask + i, 8);
        if (a & b) return true;
    }
    for (; i < n; i++)
        if (p[i] && mask[i]) return true;
    return false;
}

/* need = the rows on in active (NULL: all) and not in done, as 0/1 bytes; whether any is. */
static bool mask_need(uint8_t *need, const uint8_t *active, const uint8_t *done, int n)
{
    uint64_t any = 0;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t a = active ? mask_on(mask_word(active, i)) : MASK_ONES;
        uint64_t w = a & ~mask_on(mask_word(done, i));
        memcpy(need + i, &w, 8);
        any |= w;
    }
    for (; i < n; i++) {
        need[i] = (uint8_t)((!active || active[i]) && !done[i]);
        any |= need[i];
    }
    return any != 0;
}

/* fill n datums with v (doubling copies) */
static void fill_datum(WDatum *d, WDatum v, int n)
{
    if (n <= 0) return;
    d[0] = v;
    int done = 1;
    while (done < n) {
        int k = done < n - done ? done : n - done;
        memcpy(d + done, d, sizeof(WDatum) * (size_t)k);
        done += k;
    }
}

static bool failed(WEvalCtx *ctx) { return ctx->err && ctx->err->set; }
static bool eval_node(WEvalCtx *ctx, const WExpr *e, const WChunk *in, const uint8_t *active, WVector *out);
static WVector *memo_values(WEvalCtx *ctx, const WExpr *e, int s, const WChunk *in, const uint8_t *active);

static void fill_datum(WDatum *d, WDatum v, int n);

/* A constant subtree other than a bare literal (e.g. an implicit CAST of a literal): evaluated
   once and broadcast. */
static bool is_folded_const(const WExpr *a)
{
    return a->kind != WX_LITERAL && a->kind != WX_COLUMN && wexpr_is_const(a);
}

static bool eval_const_vec(WEvalCtx *ctx, const WExpr *a, int n, WVector *v)
{
    WDatum d;
    bool isnull;
    if (!wexpr_eval_const(ctx, a, &d, &isnull)) return false;
    memset(v->nulls, isnull, (size_t)n);
    fill_datum(v->data, d, n);
    return true;
}

void wconst_vecs_free(WConstVecs *c)
{
    for (int i = 0; i < c->n; i++) {
        free(c->vec[i].data);
        free(c->vec[i].nulls);
    }
    c->n = 0;
}

/* Literal a's vector of at least n rows in c (made or grown on first need), NULL when c is full. */
static WVector *const_vec(WConstVecs *c, const WExpr *a, int n)
{
    assert(a->kind == WX_LITERAL && n > 0);
    int i = 0;
    while (i < c->n && c->expr[i] != a) i++;
    if (i == WCONST_VECS_MAX) return NULL;
    if (i == c->n) {
        c->expr[c->n++] = a;
        c->vec[i] = (WVector){.type = a->type};
        c->rows[i] = 0;
    }
    WVector *v = &c->vec[i];
    if (c->rows[i] < n) {
        int rows = n > WCHUNK_CAP ? n : WCHUNK_CAP;
        v->data = wrealloc(v->data, sizeof(WDatum) * (size_t)rows);
        v->nulls = wrealloc(v->nulls, (size_t)rows);
        memset(v->nulls, a->is_null, (size_t)rows);
        if (!a->is_null) fill_datum(v->data, a->lit, rows);
        else memset(v->data, 0, sizeof(WDatum) * (size_t)rows);
        c->rows[i] = rows;
    }
    return v;
}

/* Evaluate an argument; column references are used in place, and literals from the operator's
   broadcast ones when it keeps them (ctx->consts). */
static bool eval_arg(WEvalCtx *ctx, const WExpr *a, const WChunk *in, const uint8_t *active, WVector **res)
{
    if (a->kind == WX_COLUMN && a->col >= 0 && a->col < in->ncols) {
        *res = &in->cols[a->col];
        return true;
    }
    if (a->kind == WX_LITERAL && ctx->consts && in->nrows > 0) {
        WVector *v = const_vec(ctx->consts, a, in->nrows);
        if (v) {
            *res = v;
            return true;
        }
    }
    int s = ctx->memo ? wexpr_memo_slot(ctx->memo, a) : -1;
    if (s >= 0 && in->nrows > 0) return (*res = memo_values(ctx, a, s, in, active)) != NULL;
    WVector *v = tmp_vec(ctx, a->type, in->nrows);
    if (in->nrows > 1 && is_folded_const(a) && (!active || mask_any(active, in->nrows))) {
        if (!eval_const_vec(ctx, a, in->nrows, v)) return false;
        *res = v;
        return true;
    }
    if (!wexpr_eval(ctx, a, in, active, v)) return false;
    *res = v;
    return true;
}

static void copy_rows(WVector *out, const WVector *src, const uint8_t *rows, int n)
{
    for (int i = 0; i < n; i += 8) {
        int end = n - i < 8 ? n : i + 8;
        if (end == i + 8) {             /* eight rows all off or all on at once */
            uint64_t on = mask_on(mask_word(rows, i));
            if (!on) continue;
            if (on == MASK_ONES) {
                memcpy(out->nulls + i, src->nulls + i, 8);
                memcpy(out->data + i, src->data + i, sizeof(WDatum) * 8);
                continue;
            }
        }
        for (int k = i; k < end; k++) {
            if (!rows[k]) continue;
            out->nulls[k] = src->nulls[k];
            out->data[k] = src->data[k];
        }
    }
}

/* ---------------------------------------------------------------- calls */

static bool eval_if(WEvalCtx *ctx, const WExpr *e, const WChunk *in, const uint8_t *active, WVector *out)
{
    int n = in->nrows;
    WVector *c;
    if (!eval_arg(ctx, e->args[0], in, active, &c)) return false;
    uint8_t *yes = tmp_mask(ctx, n), *no = tmp_mask(ctx, n);
    WF_FOR(i, n, active) {
        bool t = !c->nulls[i] && c->data[i].i;
        yes[i] = t;
        no[i] = !t;
    }
    for (int b = 0; b < 2; b++) {
        uint8_t *m = b == 0 ? yes : no;
        if (!mask_any(m, n)) continue;
        WVector *v;
        if (!eval_arg(ctx, e->args[1 + b], in, m, &v)) return false;
        copy_rows(out, v, m, n);
    }
    return true;
}

static bool eval_call(WEvalCtx *ctx, const WExpr *e, const WChunk *in, const uint8_t *active, WVector *out)
{
    const WFuncDef *f = e->func;
    int n = in->nrows;
    if (!f) return wf_fail(ctx, WEXC_TABLE, "Unbound function call '%s'.", e->name ? e->name : "?");
    if (f == &WF_IF && e->nargs == 3) return eval_if(ctx, e, in, active, out);
    WVector **av = WA_ARRAY(ctx->arena, WVector *, e->nargs > 0 ? e->nargs : 1);
    for (int k = 0; k < e->nargs; k++)
        if (!eval_arg(ctx, e->args[k], in, active, &av[k])) return false;
    const uint8_t *sub = active;
    if (f->handles_nulls || e->nargs == 0) {
        memset(out->nulls, 0, (size_t)n);
    } else {
        /* column-wise OR of the argument null bytes; NOT NULL arguments and non-NULL literals
           contribute nothing */
        uint8_t *on = out->nulls;
        bool first = true;
        for (int k = 0; k < e->nargs; k++) {
            const WExpr *ak = e->args[k];
            if (ak->kind == WX_LITERAL ? !ak->is_null : !ak->type->nullable) continue;
            const uint8_t *an = av[k]->nulls;
            if (first) { memcpy(on, an, (size_t)n); first = false; }
            else bytes_or(on, an, n);
        }
        if (first) {
            memset(on, 0, (size_t)n);
        } else {
            if (bytes_any_masked(on, active, n)) {
                uint8_t *m = tmp_mask(ctx, n);
                if (active) for (int i = 0; i < n; i++) m[i] = (uint8_t)(active[i] & !on[i]);
                else for (int i = 0; i < n; i++) m[i] = !on[i];
                sub = m;
            }
        }
    }
    if (sub != active && !mask_any(sub, n)) return true;
    f->eval(ctx, e, av, e->nargs, n, sub, out);
    return !failed(ctx);
}

/* ---------------------------------------------------------------- CAST */

static bool eval_cast(WEvalCtx *ctx, const WExpr *e, const WChunk *in, const uint8_t *active, WVector *out)
{
    int n = in->nrows;
    const WExpr *arg = e->args[0];
    const WType *from = arg->type, *to = e->type;
    if (from->id == WT_NULL) {
        WF_FOR(i, n, active) out->nulls[i] = 1;
        return true;
    }
    WVector *v;
    if (!eval_arg(ctx, arg, in, active, &v)) return false;
    /* fast paths */
    bool same = from->id == to->id &&
        (from->id != WT_DECIMAL || (from->precision <= to->precision && from->scale == to->scale)) &&
        (!wtype_is_string(from) || to->id == WT_VARCHAR || from->precision == to->precision) &&
        (!wtype_is_timestamp(from) || from->precision <= to->precision) &&
        (from->id != WT_TIME || from->precision <= to->precision) &&
        !wtype_is_binary(from) && !wtype_is_composite(from) &&
        (!wtype_is_string(from) || to->precision >= from->precision);
    bool widen_int = wtype_is_integer(from) && wtype_is_integer(to) && to->id >= from->id;
    if (same || widen_int) {
        WF_FOR(i, n, active) { out->nulls[i] = v->nulls[i]; out->data[i] = v->data[i]; }
        return true;
    }
    /* an integer into a DECIMAL with room for all its digits: exact, never NULL */
    if (wtype_is_integer(from) && to->id == WT_DECIMAL && to->precision - to->scale >= wtype_integer_digits(from)) {
        __int128 f = wpow10_i128(to->scale);
        WF_FOR(i, n, active) { out->nulls[i] = v->nulls[i]; out->data[i].dec = (__int128)v->data[i].i * f; }
        return true;
    }
    /* a DECIMAL into one of the same scale and fewer digits: NULL where it does not fit (as
       wcast_datum's overflow) */
    if (from->id == WT_DECIMAL && to->id == WT_DECIMAL && from->scale == to->scale) {
        WF_FOR(i, n, active) {
            bool fits = !v->nulls[i] && wdec_fits(v->data[i].dec, to->precision);
            out->nulls[i] = !fits;
            out->data[i].dec = fits ? v->data[i].dec : 0;
        }
        return true;
    }
    if (wtype_is_integer(from) && (to->id == WT_DOUBLE || to->id == WT_FLOAT)) {
        WF_FOR(i, n, active) {
            out->nulls[i] = v->nulls[i];
            double d = (double)v->data[i].i;
            out->data[i].d = to->id == WT_FLOAT ? (double)(float)d : d;
        }
        return true;
    }
    bool soft = e->try_cast || ctx->cast.legacy_behaviour;
    WError local;
    WF_FOR(i, n, active) {
        if (v->nulls[i]) { out->nulls[i] = 1; continue; }
        out->nulls[i] = 0;
        if (soft) {
            werr_clear(&local);
            if (!wcast_datum(&ctx->cast, from, v->data[i], to, &out->data[i], ctx->arena, &local))
                out->nulls[i] = 1;
        } else {
            /* a numeric value out of a DECIMAL's range is NULL in Flink, not an error */
            WCastResult cr = wcast_datum_ex(&ctx->cast, from, v->data[i], to, &out->data[i], ctx->arena, ctx->err);
            if (cr == WCAST_NULL) { out->nulls[i] = 1; continue; }
            if (cr != WCAST_OK) {
                if (ctx->err && !ctx->err->set)
                    werr_set(ctx->err, WEXC_TABLE, "Cast failed.");
                return false;
            }
        }
    }
    return true;
}

/* ---------------------------------------------------------------- conditionals */

static bool eval_case(WEvalCtx *ctx, const WExpr *e, const WChunk *in, const uint8_t *active, WVector *out)
{
    int n = in->nrows;
    uint8_t *rem = mask_from(ctx, active, n);
    uint8_t *taken = tmp_mask(ctx, n);
    int pairs = (e->nargs - (e->has_else ? 1 : 0)) / 2;
    for (int k = 0; k < pairs; k++) {
        if (!mask_any(rem, n)) return true;
        WVector *c;
        if (!eval_arg(ctx, e->args[2 * k], in, rem, &c)) return false;
        bool any = false;
        const uint8_t *cn = c->nulls;           /* hoisted: the stores to taken may alias them */
        const WDatum *cd = c->data;
        for (int i = 0; i < n; i++) {
            taken[i] = rem[i] && !cn[i] && cd[i].i;
            any |= taken[i];
        }
        if (!any) continue;
        WVector *v;
        if (!eval_arg(ctx, e->args[2 * k + 1], in, taken, &v)) return false;
        copy_rows(out, v, taken, n);
        for (int i = 0; i < n; i++)
            if (taken[i]) rem[i] = 0;
    }
    if (!mask_any(rem, n)) return true;
    if (e->has_else) {
        WVector *v;
        if (!eval_arg(ctx, e->args[e->nargs - 1], in, rem, &v)) return false;
        copy_rows(out, v, rem, n);
    } else {
        for (int i = 0; i < n; i++)
            if (rem[i]) out->nulls[i] = 1;
    }
    return true;
}

static bool eval_coalesce(WEvalCtx *ctx, const WExpr *e, const WChunk *in, const uint8_t *active, WVector *out)
{
    int n = in->nrows;
    uint8_t *rem = mask_from(ctx, active, n);
    for (int k = 0; k < e->nargs; k++) {
        if (!mask_any(rem, n)) return true;
        WVector *v;
        if (!eval_arg(ctx, e->args[k], in, rem, &v)) return false;
        for (int i = 0; i < n; i++) {
            if (!rem[i] || v->nulls[i]) continue;
            out->nulls[i] = 0;
            out->data[i] = v->data[i];
            rem[i] = 0;
        }
    }
    for (int i = 0; i < n; i++)
        if (rem[i]) out->nulls[i] = 1;
    return true;
}

/* AND (is_and) / OR, three-valued; rows decided early are not evaluated further. */
static bool eval_logic(WEvalCtx *ctx, const WExpr *e, const WChunk *in, const uint8_t *active, WVector *out,
                       bool is_and)
{
    int n = in->nrows;
    uint8_t *rem = mask_from(ctx, active, n);
    uint8_t *state = tmp_mask(ctx, n);           /* 0 undecided-so-far-neutral, 2 saw NULL */
    int64_t decided = is_and ? 0 : 1;            /* value that decides the result */
    for (int k = 0; k < e->nargs; k++) {
        if (!mask_any(rem, n)) break;
        WVector *v;
        if (!eval_arg(ctx, e->args[k], in, rem, &v)) return false;
        for (int i = 0; i < n; i++) {
            if (!rem[i]) continue;
            if (v->nulls[i]) state[i] = 2;
            else if ((v->data[i].i != 0) == (decided != 0)) {
                rem[i] = 0;
                state[i] = 1;
            }
        }
    }
    WF_FOR(i, n, active) {
        if (state[i] == 1) { out->nulls[i] = 0; out->data[i].i = decided; }
        else if (state[i] == 2) { out->nulls[i] = 1; out->data[i].i = 0; }
        else { out->nulls[i] = 0; out->data[i].i = !decided; }
    }
    return true;
}

static bool eval_in(WEvalCtx *ctx, const WExpr *e, const WChunk *in, const uint8_t *active, WVector *out)
{
    int n = in->nrows;
    WVector *x;
    if (!eval_arg(ctx, e->args[0], in, active, &x)) return false;
    uint8_t *rem = mask_from(ctx, active, n);
    uint8_t *saw_null = tmp_mask(ctx, n);
    uint8_t *found = tmp_mask(ctx, n);
    for (int i = 0; i < n; i++)
        if (rem[i] && x->nulls[i]) rem[i] = 0;
    const WType *t = e->args[0]->type;
    for (int k = 1; k < e->nargs; k++) {
        if (!mask_any(rem, n)) break;
        const WExpr *ek = e->args[k];
        if (ek->kind == WX_LITERAL || wexpr_is_const(ek)) {
            WDatum c = ek->lit;
            bool cnull = ek->is_null;
            if (ek->kind != WX_LITERAL && !wexpr_eval_const(ctx, ek, &c, &cnull)) return false;
            if (cnull) {
                for (int i = 0; i < n; i++) if (rem[i]) saw_null[i] = 1;
                continue;
            }
            for (int i = 0; i < n; i++)
                if (rem[i] && wf_eq(t, x->data[i], c)) { found[i] = 1; rem[i] = 0; }
            continue;
        }
        WVector *v;
        if (!eval_arg(ctx, ek, in, rem, &v)) return false;
        for (int i = 0; i < n; i++) {
            if (!rem[i]) continue;
            if (v->nulls[i]) saw_null[i] = 1;
            else if (wf_eq(t, x->data[i], v->data[i])) { found[i] = 1; rem[i] = 0; }
        }
    }
    WF_FOR(i, n, active) {
        if (x->nulls[i]) { out->nulls[i] = 1; continue; }
        if (found[i]) { out->nulls[i] = 0; out->data[i].i = !e->negated; }
        else if (saw_null[i]) out->nulls[i] = 1;
        else { out->nulls[i] = 0; out->data[i].i = e->negated; }
    }
    return true;
}

/* ---------------------------------------------------------------- entry points */

/* The values of shared subexpression e (memo slot s) for the active rows: those computed before
   reused, the others computed now (only they, as without the memo). NULL on a runtime error. */
static WVector *memo_values(WEvalCtx *ctx, const WExpr *e, int s, const WChunk *in, const uint8_t *active)
{
    WExprMemo *m = ctx->memo;
    int n = in->nrows;
    assert(m->nrows == n);
    if (!m->vals[s] && !active) {       /* every row, first: straight into the memo */
        WVector *v = tmp_vec(ctx, e->type, n);
        if (!eval_node(ctx, e, in, NULL, v)) return NULL;
        m->vals[s] = v;
        m->done[s] = tmp_mask(ctx, n);
        memset(m->done[s], 1, (size_t)n);
        return v;
    }
    if (!m->vals[s]) {
        m->vals[s] = tmp_vec(ctx, e->type, n);
        m->done[s] = tmp_mask(ctx, n);
    }
    WVector *v = m->vals[s];
    uint8_t *done = m->done[s], *need = tmp_mask(ctx, n);
    if (!mask_need(need, active, done, n)) return v;
    WVector *t = tmp_vec(ctx, e->type, n);
    if (!eval_node(ctx, e, in, need, t)) return NULL;
    copy_rows(v, t, need, n);
    bytes_or(done, need, n);
    return v;
}

bool wexpr_eval(WEvalCtx *ctx, const WExpr *e, const WChunk *in, const uint8_t *active, WVector *out)
{
    int n = in->nrows;
    if (n <= 0) return true;
    int s = ctx->memo ? wexpr_memo_slot(ctx->memo, e) : -1;
    if (s < 0) return eval_node(ctx, e, in, active, out);
    WVector *v = memo_values(ctx, e, s, in, active);
    if (!v) return false;
    if (!active) {
        memcpy(out->nulls, v->nulls, (size_t)n);
        memcpy(out->data, v->data, sizeof(WDatum) * (size_t)n);
    } else {
        copy_rows(out, v, active, n);
    }
    return true;
}

static bool eval_node(WEvalCtx *ctx, const WExpr *e, const WChunk *in, const uint8_t *active, WVector *out)
{
    int n = in->nrows;
    switch (e->kind) {
    case WX_COLUMN: {
        if (e->col < 0 || e->col >= in->ncols)
            return wf_fail(ctx, WEXC_TABLE, "Column index %d out of range.", e->col);
        const WVector *src = &in->cols[e->col];
        memcpy(out->data, src->data, sizeof(WDatum) * (size_t)n);
        memcpy(out->nulls, src->nulls, (size_t)n);
        return true;
    }
    case WX_LITERAL:
        if (e->is_null) memset(out->nulls, 1, (size_t)n);
        else {
            memset(out->nulls, 0, (size_t)n);
            fill_datum(out->data, e->lit, n);
        }
        return true;
    case WX_CALL: return eval_call(ctx, e, in, active, out);
    case WX_CAST: return eval_cast(ctx, e, in, active, out);
    case WX_CASE: return eval_case(ctx, e, in, active, out);
    case WX_AND: return eval_logic(ctx, e, in, active, out, true);
    case WX_OR: return eval_logic(ctx, e, in, active, out, false);
    case WX_NOT: {
        WVector *v;
        if (!eval_arg(ctx, e->args[0], in, active, &v)) return false;
        WF_FOR(i, n, active) {
            out->nulls[i] = v->nulls[i];
            out->data[i].i = !v->data[i].i;
        }
        return true;
    }
    case WX_IS_NULL: {
        WVector *v;
        if (!eval_arg(ctx, e->args[0], in, active, &v)) return false;
        WF_FOR(i, n, active) {
            out->nulls[i] = 0;
            out->data[i].i = e->negated ? !v->nulls[i] : v->nulls[i];
        }
        return true;
    }
    case WX_IN: return eval_in(ctx, e, in, active, out);
    case WX_COALESCE: return eval_coalesce(ctx, e, in, active, out);
    case WX_PROCTIME: {
        int64_t ms = ctx->clock ? ctx->clock(ctx->clock_ctx) : wproc_wall_ms();
        WF_FOR(i, n, active) {
            out->nulls[i] = 0;
            out->data[i].ts.ms = ms;
            out->data[i].ts.ns = 0;
        }
        return true;
    }
    }
    return wf_fail(ctx, WEXC_TABLE, "Unknown expression kind %d.", (int)e->kind);
}

bool wexpr_filter(WEvalCtx *ctx, const WExpr *e, const WChunk *in, uint8_t *sel)
{
    int n = in->nrows;
    if (n <= 0) return true;
    WVector *v;
    if (e->kind == WX_COLUMN) {
        v = &in->cols[e->col];
    } else {
        v = tmp_vec(ctx, e->type, n);
        if (!wexpr_eval(ctx, e, in, sel, v)) return false;
    }
    for (int i = 0; i < n; i++)
        sel[i] = sel[i] && !v->nulls[i] && v->data[i].i;
    return true;
}

bool wexpr_eval_const(WEvalCtx *ctx, const WExpr *e, WDatum *out, bool *is_null)
{
    WChunk c;
    memset(&c, 0, sizeof c);
    c.nrows = 1;
    c.cap = 1;
    WDatum d;
    uint8_t nul = 0;
    memset(&d, 0, sizeof d);
    WVector v = { e->type, &d, &nul };
    if (!wexpr_eval(ctx, e, &c, NULL, &v)) return false;
    *out = d;
    *is_null = nul != 0;
    return true;
}

void wexpr_mark_columns(const WExpr *e, uint8_t *used, int n)
{
    if (!e) return;
    if (e->kind == WX_COLUMN && e->col >= 0 && e->col < n) used[e->col] = 1;
    for (int i = 0; i < e->nargs; i++) wexpr_mark_columns(e->args[i], used, n);
}

bool wexpr_is_const(const WExpr *e)
{
    if (!e) return true;
    if (e->kind == WX_COLUMN || e->kind == WX_PROCTIME) return false;
    if (e->kind == WX_CALL && e->func && !e->func->deterministic) return false;
    for (int i = 0; i < e->nargs; i++)
        if (!wexpr_is_const(e->args[i])) return false;
    return true;
}

WExpr *wexpr_new(WArena *a, WExprKind kind, const WType *t, int nargs)
{
    WExpr *e = WA_NEW(a, WExpr);
    e->kind = kind;
    e->type = t;
    e->col = -1;
    e->nargs = nargs;
    if (nargs > 0) e->args = WA_ARRAY(a, WExpr *, nargs);
    return e;
}

WExpr *wexpr_column(WArena *a, int col, const WType *t, const char *name)
{
    WExpr *e = wexpr_new(a, WX_COLUMN, t, 0);
    e->col = col;
    e->name = name;
    return e;
}

WExpr *wexpr_literal(WArena *a, const WType *t, WDatum v, bool is_null)
{
    WExpr *e = wexpr_new(a, WX_LITERAL, t, 0);
    e->lit = v;
    e->is_null = is_null;
    return e;
}
