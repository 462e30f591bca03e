/*
 * over_frame.c — frame arithmetic of the batch OverAggregate: which rows of a sorted partition
 * a ROWS or RANGE frame covers for a row, and NTILE buckets. Pure functions; see over_batch.h.
 */
#include "over_batch.h"

/* Rows with a non-NULL key: [*ns, *ne). NULL keys sort first or last, so they form one block at
   either end. */
static void non_null_block(const WOverPart *p, int64_t *ns, int64_t *ne)
{
    int64_t s = 0, e = p->n;
    if (p->key_null) {
        while (s < e && p->key_null[s]) s++;
        while (e > s && p->key_null[e - 1]) e--;
    }
    *ns = s;
    *ne = e;
}

/* First row in [s, e) with key >= v (e when none). */
static int64_t first_ge(const double *key, int64_t s, int64_t e, double v)
{
    while (s < e) {
        int64_t m = s + (e - s) / 2;
        if (key[m] >= v) e = m;
        else s = m + 1;
    }
    return s;
}

/* Last row in [s, e) with key <= v (s - 1 when none). */
static int64_t last_le(const double *key, int64_t s, int64_t e, double v)
{
    int64_t lo = s, hi = e;
    while (lo < hi) {
        int64_t m = lo + (hi - lo) / 2;
        if (key[m] > v) hi = m;
        else lo = m + 1;
    }
    return lo - 1;
}

static int64_t rows_bound(const WOverBound *b, const WOverPart *p, int64_t i, bool lower)
{
    switch (b->kind) {
    case WOB_UNBOUNDED_PRECEDING: return lower ? 0 : -1;
    case WOB_UNBOUNDED_FOLLOWING: return lower ? p->n : p->n - 1;
    case WOB_CURRENT_ROW: return i;
    case WOB_PRECEDING: return i - (int64_t)b->offset;
    case WOB_FOLLOWING: return i + (int64_t)b->offset;
    }
    return i;
}

static int64_t range_bound(const WOverBound *b, const WOverPart *p, int64_t i, bool lower)
{
    switch (b->kind) {
    case WOB_UNBOUNDED_PRECEDING: return lower ? 0 : -1;
    case WOB_UNBOUNDED_FOLLOWING: return lower ? p->n : p->n - 1;
    case WOB_CURRENT_ROW: return lower ? p->peer_lo[i] : p->peer_hi[i];
    case WOB_PRECEDING: case WOB_FOLLOWING: break;
    }
    if (!p->key || (p->key_null && p->key_null[i])) return lower ? p->peer_lo[i] : p->peer_hi[i];
    int64_t ns, ne;
    non_null_block(p, &ns, &ne);
    double v = p->key[i] + (b->kind == WOB_PRECEDING ? -b->offset : b->offset);
    return lower ? first_ge(p->key, ns, ne, v) : last_le(p->key, ns, ne, v);
}

bool wover_frame(const WOverWindow *w, const WOverPart *p, int64_t i, int64_t *lo, int64_t *hi)
{
    int64_t l, h;
    if (w->rows) {
        l = rows_bound(&w->lower, p, i, true);
        h = rows_bound(&w->upper, p, i, false);
    } else {
        l = range_bound(&w->lower, p, i, true);
        h = range_bound(&w->upper, p, i, false);
    }
    if (l < 0) l = 0;
    if (h > p->n - 1) h = p->n - 1;
    *lo = l;
    *hi = h;
    return l <= h;
}

int64_t wover_ntile(int64_t n, int64_t buckets, int64_t i)
{
    if (buckets <= 0 || n <= 0) return 1;
    int64_t size = n / buckets, rem = n % buckets;
    int64_t big = rem * (size + 1);         /* rows in the buckets holding one row more */
    if (i < big) return i / (size + 1) + 1;
    return size ? (i - big) / size + rem + 1 : i + 1;
}
