/*
 * constraint_enforcer.c — NOT NULL and type-length enforcement before a sink (Flink's
 * ConstraintEnforcer), see constraint_enforcer.h.
 * May call types/, common/.
 */
#include "constraint_enforcer.h"
#include "operator.h"
#include "../common/arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Flink's enum option: case-insensitive names; -1 = not one of them. */
static int enum_value(const char *v, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcasecmp(v, names[i])) return i;
    return -1;
}

static bool is_char(const WType *t) { return t->id == WT_CHAR || t->id == WT_VARCHAR; }
static bool is_binary(const WType *t) { return t->id == WT_BINARY || t->id == WT_VARBINARY; }
/* A fixed-length type (CHAR, BINARY): values must have exactly the length. */
static bool is_fixed(const WType *t) { return t->id == WT_CHAR || t->id == WT_BINARY; }

bool wsink_enforcer_init(WSinkEnforcer *e, int ncols, const WType **types, const char **names,
                         const WOptions *config, WError *err)
{
    memset(e, 0, sizeof *e);
    const char *nn = config ? wopts_get(config, "table.exec.sink.not-null-enforcer") : NULL;
    static const char *const NN[] = {"ERROR", "DROP"};
    if (nn && enum_value(nn, NN, 2) < 0)
        return werr_set(err, WEXC_ILLEGAL_ARG,
                        "Could not parse value for enum class "
                        "org.apache.flink.table.api.config.ExecutionConfigOptions$NotNullEnforcer. "
                        "Expected one of: [[ERROR, DROP]]");
    const char *len = config ? wopts_get(config, "table.exec.sink.type-length-enforcer") : NULL;
    static const char *const LEN[] = {"IGNORE", "TRIM_PAD", "ERROR"};
    if (len && enum_value(len, LEN, 3) < 0)
        return werr_set(err, WEXC_ILLEGAL_ARG,
                        "Could not parse value for enum class "
                        "org.apache.flink.table.api.config.ExecutionConfigOptions$TypeLengthEnforcer. "
                        "Expected one of: [[IGNORE, TRIM_PAD, ERROR]]");
    e->drop = nn && enum_value(nn, NN, 2) == 1;
    e->length = len ? (WLengthEnforcer)enum_value(len, LEN, 3) : WLEN_IGNORE;
    e->types = types;
    e->names = names;
    size_t sz = sizeof(int) * (size_t)(ncols ? ncols : 1);
    e->not_null = wmalloc(sz);
    e->chars = wmalloc(sz);
    e->binaries = wmalloc(sz);
    for (int i = 0; i < ncols; i++) {
        const WType *t = types[i];
        if (!t) continue;
        if (!t->nullable) e->not_null[e->nnot_null++] = i;
        if (e->length == WLEN_IGNORE || t->precision <= 0 || t->precision >= WT_MAX_LENGTH) continue;
        if (is_char(t)) e->chars[e->nchars++] = i;
        else if (is_binary(t)) e->binaries[e->nbinaries++] = i;
    }
    return true;
}

void wsink_enforcer_free(WSinkEnforcer *e)
{
    free(e->not_null);
    free(e->chars);
    free(e->binaries);
    if (e->kept) wchunk_free(e->kept);
    memset(e, 0, sizeof *e);
}

/* UTF-8: the number of characters (code points) of s, and the byte length of its first n. */
static int32_t utf8_chars(WStr s)
{
    int32_t n = 0;
    for (int32_t i = 0; i < s.len; i++) n += ((unsigned char)s.p[i] & 0xC0) != 0x80;
    return n;
}

static int32_t utf8_prefix_bytes(WStr s, int32_t n)
{
    int32_t i = 0;
    for (int32_t c = 0; i < s.len; i++) {
        if (((unsigned char)s.p[i] & 0xC0) != 0x80 && c++ == n) break;
    }
    return i;
}

/* The length Flink measures: characters of a string, bytes of a binary value. */
static int32_t value_length(const WType *t, WStr s) { return is_char(t) ? utf8_chars(s) : s.len; }

static bool length_ok(const WType *t, int32_t n) { return is_fixed(t) ? n == t->precision : n <= t->precision; }

/* Why row r cannot be written as it is: a NOT NULL column holding NULL (*col, returns 1), a value
   of the wrong length (*col, *len, returns 2) — only reported under the ERROR length enforcer —
   or 0. */
static int violation(const WSinkEnforcer *e, const WChunk *in, int r, int *col, int32_t *len)
{
    for (int k = 0; k < e->nnot_null; k++)
        if (in->cols[e->not_null[k]].nulls[r]) { *col = e->not_null[k]; return 1; }
    if (e->length != WLEN_ERROR) return 0;
    for (int pass = 0; pass < 2; pass++) {
        int n = pass ? e->nbinaries : e->nchars;
        const int *cols = pass ? e->binaries : e->chars;
        for (int k = 0; k < n; k++) {
            const WVector *v = &in->cols[cols[k]];
            if (v->nulls[r]) continue;
            int32_t l = value_length(e->types[cols[k]], v->data[r].s);
            if (!length_ok(e->types[cols[k]], l)) { *col = cols[k]; *len = l; return 2; }
        }
    }
    return 0;
}

/* TRIM_PAD: value s of column type t cut to its length and, for CHAR/BINARY, padded. */
static WStr trim_pad(WArena *a, const WType *t, WStr s)
{
    int32_t n = t->precision;
    int32_t have = value_length(t, s);
    if (have == n || (have < n && !is_fixed(t))) return s;
    if (have > n) {
        s.len = is_char(t) ? utf8_prefix_bytes(s, n) : n;
        return s;
    }
    int32_t pad = n - have;
    char *p = wa_alloc(a, (size_t)(s.len + pad));
    memcpy(p, s.p, (size_t)s.len);
    memset(p + s.len, is_char(t) ? ' ' : 0, (size_t)pad);
    return (WStr){p, s.len + pad};
}

/* Does some value of `in` need trimming or padding? */
static bool needs_trim_pad(const WSinkEnforcer *e, const WChunk *in)
{
    if (e->length != WLEN_TRIM_PAD) return false;
    for (int pass = 0; pass < 2; pass++) {
        int n = pass ? e->nbinaries : e->nchars;
        const int *cols = pass ? e->binaries : e->chars;
        for (int k = 0; k < n; k++) {
            const WVector *v = &in->cols[cols[k]];
            for (int r = 0; r < in->nrows; r++)
                if (!v->nulls[r] && !length_ok(e->types[cols[k]], value_length(e->types[cols[k]], v->data[r].s)))
                    return true;
        }
    }
    return false;
}

const WChunk *wsink_enforce(WSinkEnforcer *e, const WChunk *in, bool *fail, WError *err)
{
    *fail = false;
    if (!e->nnot_null && !e->nchars && !e->nbinaries) return in;
    int first = -1, col = -1, kind = 0;
    int32_t len = 0;
    for (int r = 0; r < in->nrows && first < 0; r++)
        if ((kind = violation(e, in, r, &col, &len)) != 0) first = r;
    if (first < 0 && !needs_trim_pad(e, in)) return in;
    if (!e->kept || e->kept->cap < in->nrows) {
        if (e->kept) wchunk_free(e->kept);
        e->kept = wchunk_new(in->ncols, in->types, in->cap > in->nrows ? in->cap : in->nrows);
    }
    WChunk *k = e->kept;
    wchunk_reset(k);
    int upto = in->nrows;
    /* a NULL under DROP drops the row; anything else at `first` fails the job */
    if (first >= 0 && !(kind == 1 && e->drop)) {
        *fail = true;
        const char *name = e->names && e->names[col] ? e->names[col] : "?";
        if (kind == 1)
            werr_set(err, WEXC_ENFORCER,
                     "Column '%s' is NOT NULL, however, a null value is being written into it. You can set job "
                     "configuration 'table.exec.sink.not-null-enforcer'='DROP' to suppress this exception and "
                     "drop such records silently.", name);
        else {
            const WType *t = e->types[col];
            const char *tn = t->id == WT_CHAR ? "CHAR" : t->id == WT_VARCHAR ? "VARCHAR"
                           : t->id == WT_BINARY ? "BINARY" : "VARBINARY";
            werr_set(err, WEXC_ENFORCER,
                     "Column '%s' is %s(%d), however, a string of length %d is being written into it. You can "
                     "set job configuration 'table.exec.sink.type-length-enforcer' to control this behaviour.",
                     name, tn, t->precision, (int)len);
        }
        upto = first;
    }
    for (int r = 0; r < upto; r++) {
        int c2;
        int32_t l2;
        if (e->drop && violation(e, in, r, &c2, &l2) == 1) {
            e->dropped++;
            continue;
        }
        int at = k->nrows++;               /* shallow: `in` outlives the write */
        k->kinds[at] = in->kinds[r];
        for (int c = 0; c < in->ncols; c++) {
            k->cols[c].data[at] = in->cols[c].data[r];
            k->cols[c].nulls[at] = in->cols[c].nulls[r];
        }
    }
    if (e->length == WLEN_TRIM_PAD) {
        for (int pass = 0; pass < 2; pass++) {
            int n = pass ? e->nbinaries : e->nchars;
            const int *cols = pass ? e->binaries : e->chars;
            for (int q = 0; q < n; q++) {
                WVector *v = &k->cols[cols[q]];
                for (int r = 0; r < k->nrows; r++)
                    if (!v->nulls[r]) v->data[r].s = trim_pad(k->arena, e->types[cols[q]], v->data[r].s);
            }
        }
    }
    return k->nrows ? k : NULL;
}

/* ---------------------------------------------------------------- the operator */

typedef struct EnforcerOp {
    WOperator base;
    WSinkEnforcer enforcer;
} EnforcerOp;

static void enforcer_process(WOperator *op, int input, const WChunk *in)
{
    (void)input;
    EnforcerOp *e = (EnforcerOp *)op;
    bool fail = false;
    WError failure;
    werr_clear(&failure);
    const WChunk *rows = wsink_enforce(&e->enforcer, in, &fail, &failure);
    if (rows && rows->nrows) wop_emit(op, rows);     /* under ERROR: the rows before the offending one */
    if (fail && !op->ctx->err->set) *op->ctx->err = failure;
}

static void enforcer_metrics(WOperator *op, WOpMetrics *m)
{
    EnforcerOp *e = (EnforcerOp *)op;
    if (e->enforcer.drop && e->enforcer.nnot_null) wop_metrics_value(m, "notNullDroppedRecords", e->enforcer.dropped);
}

static void enforcer_destroy(WOperator *op)
{
    EnforcerOp *e = (EnforcerOp *)op;
    wsink_enforcer_free(&e->enforcer);
    free(e);
}

static const WOpOps ENFORCER_OPS = {.process = enforcer_process, .metrics = enforcer_metrics,
                                    .destroy = enforcer_destroy};

WOperator *wop_constraint_enforcer_new(WExecCtx *ctx, int ncols, const WType **types, const char **names, WError *err)
{
    EnforcerOp *e = wcalloc(1, sizeof *e);
    if (!wsink_enforcer_init(&e->enforcer, ncols, types, names, ctx->config, err)) {
        free(e);
        return NULL;
    }
    wop_init(&e->base, &ENFORCER_OPS, ctx, 1, ncols, types, names);
    return &e->base;
}
