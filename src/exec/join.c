/*
 * join.c — the regular (unbounded) streaming join: Flink's StreamingJoinOperator (INNER, LEFT,
 * RIGHT, FULL) and StreamingSemiAntiJoinOperator (SEMI, ANTI), record for record.
 *
 * Each input row sets the join key (binary row of the key columns) as the current state key,
 * is stored in / retracted from its side's record view (join_state.h: leftState / rightState)
 * and is matched against the other side's records of that key: a key with a NULL in a
 * '='-compared column matches nothing (Flink's JoinConditionWithNullFilters), otherwise the
 * residual condition decides, evaluated over a chunk of joined (left ++ right) candidate rows.
 * Output row kinds are Flink's: an inner join forwards the input kind (+I/+U/-U/-D); outer joins
 * emit +I/-D, retract a NULL-padded row when its first match arrives and re-pad it when its last
 * match goes, tracking the number of associations per record of an outer side. SEMI/ANTI emit
 * left rows only. Calls exec/operator, exec/join_state, state/, expr/, types/.
 */
#include "stateful.h"
#include "join_state.h"
#include "../types/row.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Scratch memory (copied state rows, decoded composites) is recycled past this size. */
#define SCRATCH_LIMIT ((size_t)4 << 20)

typedef struct JoinSide {
    int ncols;
    const WType **types;
    const int *keys;
    int nuk;
    int *uk;
    const WType **uk_types;
    int *all;               /* 0..ncols-1 */
    bool outer;             /* records keep association counts */
    bool pad;               /* this side is null-padded when unmatched (outer join side) */
    bool retracts;
    WJoinView view;
} JoinSide;

typedef struct JoinOp {
    WOperator base;
    WJoinKind kind;
    bool semi_anti, anti;
    int nkeys;
    const WType **key_types;    /* left key column types, used for both sides' key rows */
    bool *filter_null;          /* per key */
    bool any_filter;
    WExpr *residual;
    JoinSide side[2];
    int L, R;                   /* column counts */
    WStateBackend *be;
    WChunk *joined;             /* candidate rows: left ++ right */
    uint8_t *sel;
    WChunk *out;
    WArena *scratch;
    WArena *eval_arena;
    WStrBuf keybuf, rowbuf, ukbuf;
    WDatum *vals;
    uint8_t *nulls;
    int64_t ttl_expired;
    int64_t null_key_rows;
} JoinOp;

/* ---------------- encoding ---------------- */

static void encode_cols(JoinOp *j, WStrBuf *out, const WChunk *c, int row, int n, const int *cols,
                        const WType **types)
{
    for (int k = 0; k < n; k++) {
        const WVector *v = &c->cols[cols[k]];
        j->nulls[k] = v->nulls ? v->nulls[row] : 0;
        j->vals[k] = j->nulls[k] ? (WDatum){0} : v->data[row];
    }
    wrow_encode(out, n, types, j->vals, j->nulls, WRK_INSERT);
}

/* ---------------- output ---------------- */

static void flush_out(JoinOp *j)
{
    if (j->out->nrows > 0) {
        wop_emit(&j->base, j->out);
        j->out->nrows = 0;
    }
}

static int out_row(JoinOp *j, WRowKind kind)
{
    if (j->out->nrows >= j->out->cap) flush_out(j);
    return wchunk_add_row(j->out, kind);
}

/* Joined candidate row jr of the joined chunk, all columns. */
static void emit_joined(JoinOp *j, WRowKind kind, int jr)
{
    int o = out_row(j, kind);
    int n = j->L + j->R;
    for (int k = 0; k < n; k++) {
        j->out->cols[k].data[o] = j->joined->cols[k].data[jr];
        j->out->cols[k].nulls[o] = j->joined->cols[k].nulls[jr];
    }
}

/* Input row padded with NULLs on the other side (or, for SEMI/ANTI, the left row alone). */
static void emit_input(JoinOp *j, int in, WRowKind kind, const WChunk *c, int r)
{
    int o = out_row(j, kind);
    int off = in == 0 ? 0 : j->L;
    int n = j->side[in].ncols;
    for (int k = 0; k < n; k++) {
        j->out->cols[off + k].data[o] = c->cols[k].data[r];
        j->out->cols[off + k].nulls[o] = c->cols[k].nulls[r];
    }
    if (j->semi_anti) return;
    int ooff = in == 0 ? j->L : 0, on = j->side[1 - in].ncols;
    for (int k = 0; k < on; k++) j->out->cols[ooff + k].nulls[o] = 1;
}

/* The other side's record of candidate row jr, padded with NULLs on the input side (SEMI/ANTI:
   the left record alone). */
static void emit_other(JoinOp *j, int in, WRowKind kind, int jr)
{
    int o = out_row(j, kind);
    int ot = 1 - in;
    int off = ot == 0 ? 0 : j->L, n = j->side[ot].ncols;
    for (int k = 0; k < n; k++) {
        j->out->cols[off + k].data[o] = j->joined->cols[off + k].data[jr];
        j->out->cols[off + k].nulls[o] = j->joined->cols[off + k].nulls[jr];
    }
    if (j->semi_anti) return;
    int ioff = in == 0 ? 0 : j->L, in_n = j->side[in].ncols;
    for (int k = 0; k < in_n; k++) j->out->cols[ioff + k].nulls[o] = 1;
}

/* ---------------- candidates ---------------- */

/* Decode entries [from, from+m) of the other side into joined rows 0..m-1 together with input row
   r, evaluate the residual; sel[i] says whether candidate i matches. Returns false on error. */
static bool load_window(JoinOp *j, int in, const WChunk *c, int r, const WJoinEntry *ents, int from,
                        int m, bool decode)
{
    WChunk *jc = j->joined;
    jc->nrows = 0;
    int ot = 1 - in;
    JoinSide *os = &j->side[ot], *is = &j->side[in];
    int ooff = ot == 0 ? 0 : j->L, ioff = in == 0 ? 0 : j->L;
    for (int i = 0; i < m; i++) {
        int jr = wchunk_add_row(jc, WRK_INSERT);
        const WJoinEntry *e = &ents[from + i];
        j->sel[i] = 1;
        if (!decode) continue;
        for (int k = 0; k < os->ncols; k++) {
            WVector *v = &jc->cols[ooff + k];
            const WType *t = os->types[k];
            bool ok = wtype_is_composite(t)
                          ? wrow_get_arena(e->row, e->rowlen, os->ncols, t, k, &v->data[jr], j->scratch)
                          : wrow_get(e->row, e->rowlen, os->ncols, t, k, &v->data[jr]);
            v->nulls[jr] = !ok;
        }
        for (int k = 0; k < is->ncols; k++) {
            jc->cols[ioff + k].data[jr] = c->cols[k].data[r];
            jc->cols[ioff + k].nulls[jr] = c->cols[k].nulls[r];
        }
    }
    if (j->residual && m > 0) {
        warena_reset(j->eval_arena);
        WEvalCtx ec = {.arena = j->eval_arena, .cast = j->base.ctx->cast,
                       .now_ms = j->base.ctx->start_ms, .err = j->base.ctx->err};
        if (!wexpr_filter(&ec, j->residual, jc, j->sel)) return false;
    }
    return !j->base.ctx->err->set;
}

/* ---------------- INNER / LEFT / RIGHT / FULL ---------------- */

static void join_row(JoinOp *j, int in, const WChunk *c, int r, const WJoinEntry *ents, int n,
                     bool null_key)
{
    JoinSide *is = &j->side[in], *os = &j->side[1 - in];
    WRowKind kind = (WRowKind)c->kinds[r];
    bool acc = !wrowkind_is_retract(kind);
    bool in_outer = is->pad, ot_outer = os->pad;
    const void *row = j->rowbuf.buf, *uk = j->ukbuf.buf;
    size_t rowlen = j->rowbuf.len, uklen = j->ukbuf.len;
    int cap = j->joined->cap;
    int matches = 0;

    if (acc) {
        /* Flink's isAdditionalMatch: does this record add a match for other-side records? */
        bool additional = ot_outer && is->view.kind != WJV_JOINKEY_CONTAINS_UK &&
                          !(is->view.kind == WJV_HAS_UK && wjview_has_uk(&is->view, uk, uklen));
        if (!in_outer) wjview_add(&is->view, row, rowlen, uk, uklen, -1);
        for (int from = 0; !null_key && from < n; from += cap) {
            int m = n - from < cap ? n - from : cap;
            if (!load_window(j, in, c, r, ents, from, m, true)) return;
            for (int i = 0; i < m; i++) {
                if (!j->sel[i]) continue;
                const WJoinEntry *e = &ents[from + i];
                for (int t = 0; t < e->count; t++) {
                    if (ot_outer) {
                        if (e->assoc == 0) emit_other(j, in, WRK_DELETE, i);
                        if (e->assoc == 0 || additional) wjview_update_assoc(&os->view, e, e->assoc + 1);
                        emit_joined(j, WRK_INSERT, i);
                    } else {
                        emit_joined(j, in_outer ? WRK_INSERT : kind, i);
                    }
                    matches++;
                }
            }
        }
        if (in_outer) {
            if (matches == 0) emit_input(j, in, WRK_INSERT, c, r);
            wjview_add(&is->view, row, rowlen, uk, uklen, matches);
        }
    } else {
        wjview_retract(&is->view, row, rowlen, uk, uklen);
        for (int from = 0; !null_key && from < n; from += cap) {
            int m = n - from < cap ? n - from : cap;
            if (!load_window(j, in, c, r, ents, from, m, true)) return;
            for (int i = 0; i < m; i++) {
                if (!j->sel[i]) continue;
                const WJoinEntry *e = &ents[from + i];
                for (int t = 0; t < e->count; t++) {
                    emit_joined(j, in_outer ? WRK_DELETE : kind, i);
                    if (ot_outer) {
                        if (e->assoc == 1) emit_other(j, in, WRK_INSERT, i);
                        wjview_update_assoc(&os->view, e, e->assoc - 1);
                    }
                    matches++;
                }
            }
        }
        if (matches == 0 && in_outer) emit_input(j, in, WRK_DELETE, c, r);
    }
}

/* ---------------- SEMI / ANTI ---------------- */

static void semi_left_row(JoinOp *j, const WChunk *c, int r, const WJoinEntry *ents, int n,
                          bool null_key)
{
    JoinSide *ls = &j->side[0];
    WRowKind kind = (WRowKind)c->kinds[r];
    int cap = j->joined->cap, matches = 0;
    bool decode = j->residual != NULL;
    for (int from = 0; !null_key && from < n; from += cap) {
        int m = n - from < cap ? n - from : cap;
        if (!load_window(j, 0, c, r, ents, from, m, decode)) return;
        for (int i = 0; i < m; i++)
            if (j->sel[i]) matches += ents[from + i].count;
    }
    if ((matches == 0) == j->anti) emit_input(j, 0, kind, c, r);
    if (!wrowkind_is_retract(kind))
        wjview_add(&ls->view, j->rowbuf.buf, j->rowbuf.len, j->ukbuf.buf, j->ukbuf.len, matches);
    else
        wjview_retract(&ls->view, j->rowbuf.buf, j->rowbuf.len, j->ukbuf.buf, j->ukbuf.len);
}

static void semi_right_row(JoinOp *j, const WChunk *c, int r, const WJoinEntry *ents, int n,
                           bool null_key)
{
    JoinSide *ls = &j->side[0], *rs = &j->side[1];
    WRowKind kind = (WRowKind)c->kinds[r];
    bool acc = !wrowkind_is_retract(kind);
    int cap = j->joined->cap;
    if (acc) wjview_add(&rs->view, j->rowbuf.buf, j->rowbuf.len, j->ukbuf.buf, j->ukbuf.len, -1);
    else wjview_retract(&rs->view, j->rowbuf.buf, j->rowbuf.len, j->ukbuf.buf, j->ukbuf.len);
    for (int from = 0; !null_key && from < n; from += cap) {
        int m = n - from < cap ? n - from : cap;
        if (!load_window(j, 1, c, r, ents, from, m, true)) return;
        for (int i = 0; i < m; i++) {
            if (!j->sel[i]) continue;
            const WJoinEntry *e = &ents[from + i];
            for (int t = 0; t < e->count; t++) {
                if (acc) {
                    if (e->assoc == 0) emit_other(j, 1, j->anti ? WRK_DELETE : kind, i);
                    wjview_update_assoc(&ls->view, e, e->assoc + 1);
                } else {
                    if (e->assoc == 1) emit_other(j, 1, j->anti ? WRK_INSERT : kind, i);
                    wjview_update_assoc(&ls->view, e, e->assoc - 1);
                }
            }
        }
    }
}

/* ---------------- process ---------------- */

static void join_process(WOperator *op, int input, const WChunk *in)
{
    JoinOp *j = (JoinOp *)op;
    if (input < 0 || input > 1) return;
    JoinSide *is = &j->side[input], *os = &j->side[1 - input];
    const WType **key_types = j->key_types;
    bool has_uk = is->view.kind == WJV_HAS_UK;
    for (int r = 0; r < in->nrows; r++) {
        if (j->scratch->total > SCRATCH_LIMIT) {
            flush_out(j);
            warena_reset(j->scratch);
        }
        /* the join key is the state key */
        bool null_key = false;
        for (int k = 0; k < j->nkeys && j->any_filter; k++)
            if (j->filter_null[k] && in->cols[is->keys[k]].nulls[r]) { null_key = true; break; }
        if (null_key) j->null_key_rows++;
        encode_cols(j, &j->keybuf, in, r, j->nkeys, is->keys, key_types);
        wstate_set_key(j->be, j->keybuf.buf, j->keybuf.len);
        encode_cols(j, &j->rowbuf, in, r, is->ncols, is->all, is->types);
        if (has_uk) encode_cols(j, &j->ukbuf, in, r, is->nuk, is->uk, is->uk_types);
        else wsb_clear(&j->ukbuf);

        int64_t exp0 = is->view.expired + os->view.expired;
        WJoinEntry *ents = NULL;
        int n = null_key ? 0 : wjview_collect(&os->view, j->scratch, &ents);
        if (j->semi_anti) {
            if (input == 0) semi_left_row(j, in, r, ents, n, null_key);
            else semi_right_row(j, in, r, ents, n, null_key);
        } else {
            join_row(j, input, in, r, ents, n, null_key);
        }
        if (is->view.expired + os->view.expired > exp0) j->ttl_expired++;
        if (op->ctx->err->set) return;
    }
    flush_out(j);
    warena_reset(j->scratch);
}

static void join_metrics(WOperator *op, char *buf, size_t bufsz)
{
    JoinOp *j = (JoinOp *)op;
    WStateStats st[4];
    int n = wstate_stats(j->be, st, 4);
    size_t len = strlen(buf);
    for (int i = 0; i < n && len < bufsz; i++) {
        int w = snprintf(buf + len, bufsz - len, "%s%s.entries=%lld %s.bytes=%lld", len ? " " : "",
                         st[i].name, (long long)st[i].entries, st[i].name, (long long)st[i].bytes);
        if (w < 0) return;
        len += (size_t)w;
    }
    if (len < bufsz)
        snprintf(buf + len, bufsz - len, "%sttlExpiredRecords=%lld", len ? " " : "",
                 (long long)j->ttl_expired);
}

static void side_free(JoinSide *s)
{
    wjview_free(&s->view);
    free(s->uk);
    free(s->uk_types);
    free(s->all);
}

static void join_destroy(WOperator *op)
{
    JoinOp *j = (JoinOp *)op;
    for (int i = 0; i < 2; i++) side_free(&j->side[i]);
    wstate_backend_free(j->be);
    wchunk_free(j->joined);
    wchunk_free(j->out);
    if (j->scratch) warena_delete(j->scratch);
    if (j->eval_arena) warena_delete(j->eval_arena);
    wsb_free(&j->keybuf);
    wsb_free(&j->rowbuf);
    wsb_free(&j->ukbuf);
    free(j->key_types);
    free(j->filter_null);
    free(j->vals);
    free(j->nulls);
    free(j->sel);
    free(j);
}

static const WOpOps JOIN_OPS = {.process = join_process, .destroy = join_destroy,
                                .metrics = join_metrics};

static bool side_init(JoinOp *j, JoinSide *s, int ncols, const WType **types, const int *keys,
                      int nkeys, int nuk, const int *uk, bool outer, bool pad, bool retracts,
                      const char *state_name, int64_t ttl)
{
    s->ncols = ncols;
    s->types = types;
    s->keys = keys;
    s->outer = outer;
    s->pad = pad;
    s->retracts = retracts;
    s->all = wmalloc(sizeof(int) * (size_t)(ncols > 0 ? ncols : 1));
    for (int i = 0; i < ncols; i++) s->all[i] = i;
    for (int k = 0; k < nkeys; k++)
        if (keys[k] < 0 || keys[k] >= ncols) return false;
    WJoinViewKind vk = WJV_NO_UK;
    if (nuk > 0 && uk) {
        s->nuk = nuk;
        s->uk = wmalloc(sizeof(int) * (size_t)nuk);
        s->uk_types = wmalloc(sizeof(WType *) * (size_t)nuk);
        bool contained = true;
        for (int i = 0; i < nuk; i++) {
            if (uk[i] < 0 || uk[i] >= ncols) return false;
            s->uk[i] = uk[i];
            s->uk_types[i] = types[uk[i]];
            bool in_key = false;
            for (int k = 0; k < nkeys; k++) in_key |= keys[k] == uk[i];
            contained &= in_key;
        }
        vk = contained ? WJV_JOINKEY_CONTAINS_UK : WJV_HAS_UK;
    }
    (void)j;
    wjview_init(&s->view, j->be, state_name, vk, outer, ttl);
    return true;
}

WOperator *wop_join_new(WExecCtx *ctx, const WJoinSpec *spec)
{
    bool semi_anti = spec->kind == WJK_SEMI || spec->kind == WJK_ANTI;
    int L = spec->left_ncols, R = spec->right_ncols;
    int want_out = semi_anti ? L : L + R;
    if (L <= 0 || R <= 0 || spec->out.ncols != want_out || spec->nkeys < 0 ||
        (spec->nkeys > 0 && (!spec->left_keys || !spec->right_keys))) {
        werr_set(ctx->err, WEXC_TABLE, "Invalid join specification: %d left, %d right and %d output columns",
                 L, R, spec->out.ncols);
        return NULL;
    }
    JoinOp *j = wcalloc(1, sizeof *j);
    wop_init(&j->base, &JOIN_OPS, ctx, 2, spec->out.ncols, spec->out.types, spec->out.names);
    j->kind = spec->kind;
    j->semi_anti = semi_anti;
    j->anti = spec->kind == WJK_ANTI;
    j->nkeys = spec->nkeys;
    j->residual = spec->residual;
    j->L = L;
    j->R = R;
    j->be = wexec_new_backend(ctx, "Join");
    int nk = spec->nkeys > 0 ? spec->nkeys : 1;
    j->key_types = wmalloc(sizeof(WType *) * (size_t)nk);
    j->filter_null = wmalloc(sizeof(bool) * (size_t)nk);
    for (int k = 0; k < spec->nkeys; k++) {
        j->filter_null[k] = spec->filter_nulls ? spec->filter_nulls[k] : true;
        j->any_filter |= j->filter_null[k];
    }
    bool left_outer = spec->kind == WJK_LEFT || spec->kind == WJK_FULL || semi_anti;
    bool right_outer = spec->kind == WJK_RIGHT || spec->kind == WJK_FULL;
    bool ok = side_init(j, &j->side[0], L, spec->left_types, spec->left_keys, spec->nkeys,
                        spec->left_nuk, spec->left_uk, left_outer, left_outer && !semi_anti,
                        spec->left_retracts, "leftState", spec->left_ttl_ms);
    ok = ok && side_init(j, &j->side[1], R, spec->right_types, spec->right_keys, spec->nkeys,
                         spec->right_nuk, spec->right_uk, right_outer, right_outer,
                         spec->right_retracts, "rightState", spec->right_ttl_ms);
    for (int k = 0; ok && k < spec->nkeys; k++) {
        const WType *lt = spec->left_types[spec->left_keys[k]];
        const WType *rt = spec->right_types[spec->right_keys[k]];
        j->key_types[k] = lt;
        if (lt->id != rt->id) {
            werr_set(ctx->err, WEXC_TABLE,
                     "Join key %d has different types on the two inputs; they must be cast to a common type", k);
            ok = false;
        }
    }
    if (!ok) {
        if (!ctx->err->set) werr_set(ctx->err, WEXC_TABLE, "Invalid join specification: column index out of range");
        wop_free(&j->base);
        return NULL;
    }
    const WType **jt = wmalloc(sizeof(WType *) * (size_t)(L + R));
    for (int i = 0; i < L; i++) jt[i] = spec->left_types[i];
    for (int i = 0; i < R; i++) jt[L + i] = spec->right_types[i];
    j->joined = wchunk_new(L + R, jt, WCHUNK_CAP);
    free(jt);
    j->sel = wmalloc(WCHUNK_CAP);
    j->out = wchunk_new(spec->out.ncols, spec->out.types, ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP);
    j->scratch = warena_new(1 << 16);
    j->eval_arena = warena_new(1 << 16);
    wsb_init(&j->keybuf);
    wsb_init(&j->rowbuf);
    wsb_init(&j->ukbuf);
    int mx = L > R ? L : R;
    if (spec->nkeys > mx) mx = spec->nkeys;
    j->vals = wmalloc(sizeof(WDatum) * (size_t)mx);
    j->nulls = wmalloc((size_t)mx);
    return &j->base;
}
