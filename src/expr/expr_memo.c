/*
 * expr_memo.c — structural equality of bound expressions, and the common-subexpression memo of
 * one operator's expressions (expr.h, WExprMemo): which deterministic subtrees occur more than
 * once among a set of roots (a Calc's condition and projections), and, per chunk, their values
 * and the rows that have them. eval.c reads and fills the memo; this file plans it, starts it per
 * chunk and keeps it across a filter's gather. Depends on functions.h (determinism), types/.
 */
#include "functions.h"
#include "../types/type.h"
#include "../common/hash.h"

#include <assert.h>
#include <string.h>

bool wexpr_equal(const WExpr *x, const WExpr *y)
{
    if (x == y) return true;
    if (!x || !y || x->kind != y->kind || x->nargs != y->nargs) return false;
    if (!wtype_equals(x->type, y->type, true)) return false;
    switch (x->kind) {
    case WX_COLUMN: return x->col == y->col;
    case WX_LITERAL:
        if (x->is_null != y->is_null) return false;
        if (x->is_null) return true;
        if (wtype_is_string(x->type) || wtype_is_binary(x->type))
            return x->lit.s.len == y->lit.s.len && memcmp(x->lit.s.p, y->lit.s.p, (size_t)x->lit.s.len) == 0;
        return memcmp(&x->lit, &y->lit, sizeof x->lit) == 0;
    case WX_CALL: if (x->func != y->func) return false; break;
    case WX_CAST: if (x->try_cast != y->try_cast) return false; break;
    case WX_IS_NULL: case WX_IN: if (x->negated != y->negated) return false; break;
    case WX_CASE: if (x->has_else != y->has_else) return false; break;
    default: break;
    }
    for (int i = 0; i < x->nargs; i++)
        if (!wexpr_equal(x->args[i], y->args[i])) return false;
    return true;
}

/* Same value for the same row every time it is evaluated: no PROCTIME, no non-deterministic call
   (RAND, UUID, CURRENT_TIMESTAMP, CURRENT_WATERMARK ...). */
static bool deterministic(const WExpr *e)
{
    if (e->kind == WX_PROCTIME) return false;
    if (e->kind == WX_CALL && (!e->func || !e->func->deterministic)) return false;
    for (int i = 0; i < e->nargs; i++)
        if (!deterministic(e->args[i])) return false;
    return true;
}

/* Worth keeping: computed (not a column or literal), not constant (eval.c broadcasts those). */
static bool memo_candidate(const WExpr *e)
{
    return e->kind != WX_COLUMN && e->kind != WX_LITERAL && !wexpr_is_const(e) && deterministic(e);
}

static int count_nodes(const WExpr *e)
{
    if (!e) return 0;
    int n = 1;
    for (int i = 0; i < e->nargs; i++) n += count_nodes(e->args[i]);
    return n;
}

/* Collects the candidates under e with their structural hashes (equal under wexpr_equal: equal
   hash); returns e's hash. */
static uint64_t collect(const WExpr *e, const WExpr **all, uint64_t *hashes, int *n)
{
    if (!e) return 0;
    uint64_t h = whash_combine((uint64_t)e->kind, (uint64_t)e->nargs);
    h = whash_combine(h, (uint64_t)e->type->id);
    switch (e->kind) {
    case WX_COLUMN: h = whash_combine(h, (uint64_t)e->col); break;
    case WX_LITERAL:
        if (e->is_null) h = whash_combine(h, 1);
        else if (wtype_is_string(e->type) || wtype_is_binary(e->type)) h = whash_bytes(e->lit.s.p, (size_t)e->lit.s.len, h);
        else h = whash_bytes(&e->lit, sizeof e->lit, h);
        break;
    case WX_CALL: h = whash_combine(h, (uint64_t)(uintptr_t)e->func); break;
    default: h = whash_combine(h, (uint64_t)e->try_cast << 2 | (uint64_t)e->negated << 1 | (uint64_t)e->has_else); break;
    }
    int self = -1;
    if (memo_candidate(e)) self = (*n)++;
    for (int i = 0; i < e->nargs; i++) h = whash_combine(h, collect(e->args[i], all, hashes, n));
    if (self >= 0) { all[self] = e; hashes[self] = h; }
    return h;
}

bool wexpr_memo_plan(WExprMemo *m, WArena *a, WExpr *const *roots, int nroots)
{
    memset(m, 0, sizeof *m);
    int cap = 0;
    for (int r = 0; r < nroots; r++) cap += count_nodes(roots[r]);
    const WExpr **all = WA_ARRAY(a, const WExpr *, cap ? cap : 1);
    uint64_t *hashes = WA_ARRAY(a, uint64_t, cap ? cap : 1);
    int n = 0;
    for (int r = 0; r < nroots; r++) collect(roots[r], all, hashes, &n);
    assert(n <= cap);
    int *slot = WA_ARRAY(a, int, n ? n : 1);
    for (int i = 0; i < n; i++) slot[i] = -1;
    m->occ = WA_ARRAY(a, const WExpr *, n ? n : 1);
    m->slot_of = WA_ARRAY(a, int, n ? n : 1);
    for (int i = 0; i < n; i++) {
        if (slot[i] >= 0) continue;
        int same = 0;
        for (int j = i + 1; j < n; j++)
            if (slot[j] < 0 && hashes[j] == hashes[i] && all[j] != all[i] && wexpr_equal(all[i], all[j])) {
                slot[j] = m->nslots;
                same++;
            }
        if (!same) continue;
        slot[i] = m->nslots++;
    }
    for (int i = 0; i < n; i++) {
        if (slot[i] < 0) continue;
        m->occ[m->nocc] = all[i];
        m->slot_of[m->nocc++] = slot[i];
    }
    m->vals = WA_ARRAY(a, WVector *, m->nslots ? m->nslots : 1);
    m->done = WA_ARRAY(a, uint8_t *, m->nslots ? m->nslots : 1);
    return m->nslots > 0;
}

int wexpr_memo_slot(const WExprMemo *m, const WExpr *e)
{
    for (int i = 0; i < m->nocc; i++)
        if (m->occ[i] == e) return m->slot_of[i];
    return -1;
}

void wexpr_memo_begin(WExprMemo *m, int nrows)
{
    for (int s = 0; s < m->nslots; s++) { m->vals[s] = NULL; m->done[s] = NULL; }
    m->nrows = nrows;
}

void wexpr_memo_gather(WExprMemo *m, const uint8_t *sel)
{
    int kept = 0;
    for (int i = 0; i < m->nrows; i++) kept += sel[i] != 0;
    for (int s = 0; s < m->nslots; s++) {
        WVector *v = m->vals[s];
        uint8_t *d = m->done[s];
        if (!v) continue;
        int j = 0;
        for (int i = 0; i < m->nrows; i++) {     /* in place: j <= i */
            if (!sel[i]) continue;
            v->data[j] = v->data[i];
            v->nulls[j] = v->nulls[i];
            d[j++] = d[i];
        }
        assert(j == kept);
    }
    m->nrows = kept;
}
