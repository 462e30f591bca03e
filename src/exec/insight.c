/* insight.c — hot keys, late rows and state growth of a running operator; see insight.h. */
#include "insight.h"
#include "operator.h"
#include "../common/arena.h"
#include "../common/hash.h"
#include "../common/strbuf.h"
#include "../types/format.h"
#include "../types/row.h"
#include "../common/duration.h"
#include "../common/proc_clock.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

WInsight *winsight_new(const WOptions *config, WError *err)
{
    bool on = true;
    if (config && !wopts_get_bool(config, "weir.insight.enabled", true, &on, err)) return NULL;
    if (!on) return NULL;
    const char *share = config ? wopts_get(config, "weir.insight.hot-key-share") : NULL;
    if (share) {
        char *end;
        double d = strtod(share, &end);
        if (end == share || *end || !(d > 0 && d <= 1)) {
            werr_set(err, WEXC_ILLEGAL_ARG, "Could not parse value '%s' for key 'weir.insight.hot-key-share' "
                     "(a share in (0, 1], such as 0.2).", share);
            return NULL;
        }
    }
    int64_t slow_ms = winsight_slow_threshold_ms(config, err);
    if (slow_ms < 0 || winsight_lag_threshold_ms(config, err) < 0) return NULL;
    WInsight *in = wcalloc(1, sizeof *in);
    in->slow_threshold_ns = slow_ms * 1000000;
    in->live.sample_every = WINS_SAMPLE_EVERY;
    whh_init(&in->live.hh);
    whh_init(&in->live.work);
    whh_init(&in->live.bytes);
    whh_init(&in->bytes_pass);
    whh_init(&in->live.xhh);
    in->pub = in->live;
    pthread_mutex_init(&in->mu, NULL);
    return in;
}

/* A duration option of weir.insight.* in ms (dflt when unset; -1 and err set when invalid). */
static int64_t duration_option(const WOptions *config, const char *key, int64_t dflt, WError *err)
{
    const char *v = config ? wopts_get(config, key) : NULL;
    int64_t ms = dflt;
    if (!v) return ms;
    WError tmp;
    werr_clear(&tmp);
    if (!wduration_parse(v, &ms, &tmp) || ms < 0) {
        if (err)
            werr_set(err, WEXC_ILLEGAL_ARG, "Could not parse value '%s' for key '%s' "
                     "(a duration, such as '1 s' or '500 ms').", v, key);
        return -1;
    }
    return ms;
}

int64_t winsight_slow_threshold_ms(const WOptions *config, WError *err)
{
    /* trap 4: a window that takes over a minute */
    return duration_option(config, "weir.insight.slow-threshold", 60000, err);
}

int64_t winsight_lag_threshold_ms(const WOptions *config, WError *err)
{
    return duration_option(config, "weir.insight.watermark-lag-threshold", 60000, err);
}

void winsight_free(WInsight *in)
{
    if (!in) return;
    for (int i = 0; i < WINS_INPUTS; i++) free(in->keys[i]);
    free(in->key_types);
    pthread_mutex_destroy(&in->mu);
    free(in);
}

void wop_insight_keys(WOperator *op, int input, int nkeys, const int *keys)
{
    WInsight *in = op->insight;
    if (!in || input < 0 || input >= WINS_INPUTS || nkeys <= 0) return;
    free(in->keys[input]);
    in->keys[input] = wmalloc(sizeof(int) * (size_t)nkeys);
    memcpy(in->keys[input], keys, sizeof(int) * (size_t)nkeys);
    in->nkeys[input] = nkeys;
    in->live.keyed = true;
}

/* A key column's hash by its type (the union's unused bytes are not hashed). */
static uint64_t datum_hash(const WType *t, WDatum v, bool null)
{
    if (null) return 0x6e756c6cULL;
    switch (t->id) {
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
        return whash_bytes(v.s.p, (size_t)v.s.len, 0x1d);
    case WT_DECIMAL:
        return whash_combine(whash_u64((uint64_t)v.dec), (uint64_t)(v.dec >> 64));
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ:
        return whash_combine(whash_u64((uint64_t)v.ts.ms), (uint64_t)v.ts.ns);
    case WT_ARRAY: case WT_MAP: case WT_MULTISET: case WT_ROW:
        return whash_u64((uint64_t)(v.cx ? v.cx->n : 0));   /* composites: by size only (rare keys) */
    default:
        return whash_u64((uint64_t)v.i);
    }
}

/* Row `row` of c as "v1, v2" or, with names (ncols == c->ncols), "n1=v1, n2=v2": columns cols[0..n)
   (cols NULL: the first n), truncated to outsz with "...". */
static void row_label(const WOperator *op, const WChunk *c, int row, int n, const int *cols, const char *const *names,
                      char *out, size_t outsz)
{
    WStrBuf sb;
    wsb_init(&sb);
    for (int k = 0; k < n && sb.len < outsz; k++) {
        int col = cols ? cols[k] : k;
        if (k) wsb_append(&sb, ", ");
        if (names && names[col]) wsb_printf(&sb, "%s=", names[col]);
        wfmt_sql(c->types[col], c->cols[col].data[row], c->cols[col].nulls[row], op->ctx->cast.tz, &sb);
    }
    snprintf(out, outsz, "%s", sb.buf ? sb.buf : "");
    if (sb.len >= outsz && outsz > 4) memcpy(out + outsz - 4, "...", 4);
    wsb_free(&sb);
}

/* The column names of a chunk c that arrived on input `input` (its sender's output schema,
   wop_connect), or that op emits (input -1: op's output schema, named for a one-input operator
   only: a join's output repeats its sides' names); NULL when unknown or when c does not have that
   schema's columns. */
static const char *const *chunk_names(const WOperator *op, int input, const WChunk *c)
{
    if (input < 0) return op->ninputs == 1 && op->names && c->ncols == op->ncols ? op->names : NULL;
    const WInsight *in = op->insight;
    if (!in || input >= WINS_INPUTS || !in->in_names[input] || in->in_ncols[input] != c->ncols) return NULL;
    return in->in_names[input];
}

void winsight_input_names(WOperator *op, int input, int ncols, const char *const *names)
{
    WInsight *in = op->insight;
    if (!in || input < 0 || input >= WINS_INPUTS) return;
    in->in_names[input] = names;
    in->in_ncols[input] = ncols;
}

/* The hash of row r's key columns (the input's hash-exchange keys). */
static uint64_t key_hash(const WChunk *c, int r, int n, const int *keys)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int k = 0; k < n; k++)
        h = whash_combine(h, datum_hash(c->types[keys[k]], c->cols[keys[k]].data[r], c->cols[keys[k]].nulls[r]));
    return h;
}

/* Count weight for row r's key in sketch h; lazily label it (a key is labelled when met again
   while in the sketch: keys seen once cost no formatting; the keys that matter are met often),
   or at once when eager (the work sketch: a row there read WINS_WORK_MIN rows or more, and one
   such row can be most of the work). */
static void sketch_row(WOperator *op, WHeavyHitters *h, const WChunk *c, int r, int n, const int *keys, int64_t weight,
                       bool eager)
{
    bool entered;
    int slot = whh_add(h, key_hash(c, r, n, keys), weight, &entered);
    char *label = h->label[slot];
    if ((eager || !entered) && !label[0]) row_label(op, c, r, n, keys, NULL, label, WHH_LABEL);
}

void winsight_rows(WOperator *op, int input, const WChunk *c)
{
    WInsight *in = op->insight;
    if (input >= WINS_INPUTS || !in->nkeys[input]) return;
    int n = in->nkeys[input];
    const int *keys = in->keys[input];
    int r = in->skip;
    if (!in->key_types) {
        /* the key columns' types, to label the state keys (binary rows of these columns) */
        in->key_types = wmalloc(sizeof *in->key_types * (size_t)n);
        for (int k = 0; k < n; k++) in->key_types[k] = c->types[keys[k]];
        in->nkey_types = n;
    }
    for (; r < c->nrows; r += WINS_SAMPLE_EVERY) sketch_row(op, &in->live.hh, c, r, n, keys, 1, false);
    in->skip = r - c->nrows;
    assert(in->skip >= 0 && in->skip < WINS_SAMPLE_EVERY);
}

void winsight_exchange_rows(WOperator *op, const WChunk *c, int nkeys, const int *keys, const int32_t *hash,
                            const int *target, int nrecv)
{
    WInsight *in = op->insight;
    if (!in || nkeys <= 0) return;
    WInsightSnap *s = &in->live;
    s->exchange = true;
    s->nrecv = nrecv;
    int r = in->skip;
    for (; r < c->nrows; r += WINS_SAMPLE_EVERY) {
        bool entered;
        int slot = whh_add(&s->xhh, (uint64_t)(int64_t)hash[r], 1, &entered);
        assert(target[r] >= 0 && target[r] < nrecv);
        s->xto[slot] = (uint16_t)target[r];
        if (target[r] < WINS_RECV) s->xrows_to[target[r]]++;
        if (!entered && !s->xhh.label[slot][0]) row_label(op, c, r, nkeys, keys, NULL, s->xhh.label[slot], WHH_LABEL);
    }
    in->skip = r - c->nrows;
    assert(in->skip >= 0 && in->skip < WINS_SAMPLE_EVERY);
}

void wop_key_work(WOperator *op, int input, const WChunk *c, int row, int64_t rows)
{
    WInsight *in = op->insight;
    if (!in || rows <= 0) return;
    in->live.work_fed = true;
    in->live.work_total += rows;
    if (rows < WINS_WORK_MIN || input < 0 || input >= WINS_INPUTS || !in->nkeys[input]) return;
    sketch_row(op, &in->live.work, c, row, in->nkeys[input], in->keys[input], rows, true);
}

void wop_key_work_add(WOperator *op, int64_t rows)
{
    WInsight *in = op->insight;
    if (!in || rows <= 0) return;
    in->live.work_fed = true;
    in->live.work_total += rows;
}

int winsight_late_bucket(int64_t lateness_ms)
{
    if (lateness_ms <= 0) return 0;
    int b = 64 - __builtin_clzll((unsigned long long)lateness_ms);
    return b < WINS_LATE_BUCKETS ? b : WINS_LATE_BUCKETS - 1;
}

int64_t winsight_bucket_floor(int b)
{
    return b <= 0 ? 0 : (int64_t)1 << (b - 1);
}

void wop_late_row(WOperator *op, int input, const WChunk *c, int row, int64_t lateness_ms)
{
    wop_count_late(op);
    WInsight *in = op->insight;
    if (!in) return;
    if (lateness_ms < 0) lateness_ms = 0;
    WInsightSnap *s = &in->live;
    s->late_total++;
    int i = input > 0 && input < WINS_INPUTS ? input : 0, b = winsight_late_bucket(lateness_ms);
    s->late_by_input[i]++;
    s->late_hist[b]++;
    s->late_hist_by_input[i][b]++;
    if (lateness_ms > s->late_max_ms) s->late_max_ms = lateness_ms;
    if (c && s->nsamples < WINS_LATE_SAMPLES) {
        char *out = s->samples[s->nsamples++];
        int w = snprintf(out, WINS_SAMPLE_LEN, "late by %lld ms: ", (long long)lateness_ms);
        row_label(op, c, row, c->ncols, NULL, chunk_names(op, input, c), out + w, (size_t)(WINS_SAMPLE_LEN - w));
    }
}

/* The coarse monotonic clock (a few ms of resolution, several times cheaper than the fine one):
   a window aggregate fires one timer per key and window, and two fine readings per firing were
   about 1% of Nexmark q5's CPU time; the threshold is meant in seconds to minutes. */
int64_t wop_firing_begin(const WOperator *op) { return op->insight ? wproc_mono_coarse_ns() : 0; }

/* Work of t0's start (wop_firing_begin) that took the slow threshold or longer: counted into
   *total / *max_ms / *max_rows; returns the next of the first WINS_SLOW_SAMPLES sample slots with
   "<ms> ms, <rows> <what>: " written (NULL: not slow, or the samples are full). */
static char *slow_sample(const WInsight *in, int64_t t0, int64_t now, int64_t rows, const char *what, int64_t *total,
                         int64_t *max_ms, int64_t *max_rows, int *n, char (*samples)[WINS_SAMPLE_LEN], int *written)
{
    int64_t ns = now - t0;
    if (ns < in->slow_threshold_ns) return NULL;
    int64_t ms = ns / 1000000;
    ++*total;
    if (ms > *max_ms) *max_ms = ms;
    if (rows > *max_rows) *max_rows = rows;
    if (*n >= WINS_SLOW_SAMPLES) return NULL;
    char *out = samples[(*n)++];
    *written = snprintf(out, WINS_SAMPLE_LEN, "%lld ms, %lld %s: ", (long long)ms, (long long)rows, what);
    return out;
}

void wop_firing_end(WOperator *op, int64_t t0, int64_t rows, const WChunk *c, int row)
{
    WInsight *in = op->insight;
    if (!in || !t0) return;
    WInsightSnap *s = &in->live;
    int w;
    char *out = slow_sample(in, t0, wproc_mono_coarse_ns(), rows, "rows", &s->slow_total, &s->slow_max_ms, &s->slow_max_rows,
                            &s->nslow, s->slow, &w);
    if (!out) return;
    if (c && row >= 0 && row < c->nrows)
        row_label(op, c, row, c->ncols, NULL, chunk_names(op, -1, c), out + w, (size_t)(WINS_SAMPLE_LEN - w));
    else snprintf(out + w, (size_t)(WINS_SAMPLE_LEN - w), "(no row emitted)");
    /* logged once: the first slow firings, as trap 4's "log it when a window takes too long" */
    fprintf(stderr, "weir: slow window firing in %s: %s\n", op->name ? op->name : "an operator", out);
}

int64_t wop_key_begin(const WOperator *op) { return op->insight ? wproc_mono_coarse_ns() : 0; }

int64_t wop_key_slow_end(WOperator *op, int64_t t0, int64_t rows, const WChunk *c, int row)
{
    WInsight *in = op->insight;
    if (!in || !t0) return 0;
    int64_t now = wproc_mono_coarse_ns();
    WInsightSnap *s = &in->live;
    int w;
    char *out = slow_sample(in, t0, now, rows, "rows scanned", &s->slowkey_total, &s->slowkey_max_ms,
                            &s->slowkey_max_rows, &s->nslowkey, s->slowkey, &w);
    if (!out) return now;
    if (c && row >= 0 && row < c->nrows) row_label(op, c, row, c->ncols, NULL, NULL, out + w, (size_t)(WINS_SAMPLE_LEN - w));
    /* logged once: the first slow keys */
    fprintf(stderr, "weir: slow key in %s: %s\n", op->name ? op->name : "an operator", out);
    return now;
}

/* Add state st to x, the last of a full list of states, which becomes "other-states": the sum of
   the states without an entry of their own (WOP_METRICS_OTHER_STATES, as the metrics show it; its
   TTL the smallest of theirs, 0 when one has none; counts unknown (-1) when one's are). */
static void fold_other_state(WInsightState *x, const WStateStats *st)
{
    snprintf(x->name, sizeof x->name, "%s", WOP_METRICS_OTHER_STATES);
    if (x->ttl_ms > 0 && (st->ttl_ms <= 0 || st->ttl_ms < x->ttl_ms)) x->ttl_ms = st->ttl_ms;
    x->entries += st->entries;
    x->bytes += st->bytes;
    x->created = x->created < 0 || st->created < 0 ? -1 : x->created + st->created;
    x->expired = x->expired < 0 || st->expired < 0 ? -1 : x->expired + st->expired;
}

/* The states of the backends op registered (the lane's checkpoint registry, by exec node id). */
static void collect_states(WOperator *op, WInsightSnap *s)
{
    s->nstates = 0;
    const WExecRegistry *reg = op->ctx->registry;
    for (int i = 0; reg && i < reg->n; i++) {
        const WExecStateEntry *e = &reg->items[i];
        if (e->node_id != op->id || !e->backend) continue;
        int n;
        WStateStats *st = wstate_stats_all(e->backend, &n);
        for (int k = 0; k < n; k++) {
            if (s->nstates == WINS_STATES) {    /* full: the last one sums the rest */
                fold_other_state(&s->states[WINS_STATES - 1], &st[k]);
                continue;
            }
            WInsightState *x = &s->states[s->nstates++];
            snprintf(x->name, sizeof x->name, "%s", st[k].name);
            x->ttl_ms = st[k].ttl_ms;
            x->entries = st[k].entries;
            x->bytes = st[k].bytes;
            x->created = st[k].created;
            x->expired = st[k].expired;
        }
        free(st);
    }
}

/* A state key (a binary row of the keyed input's key columns) into the pass's bytes sketch; a key
   entering a slot leaves its bytes there (labels are made for the survivors at the pass end). */
static void scan_key(void *ctx, WBytes key, int64_t bytes)
{
    WInsight *in = ctx;
    in->bytes_pass_total += bytes;
    bool entered;
    int slot;
    if (in->pass_once) {
        /* one state: each key once, the exact heaviest keys; a light key is not even hashed */
        if (bytes <= 0 || whh_skip_light(&in->bytes_pass, bytes)) return;
        slot = whh_add_once(&in->bytes_pass, whash_bytes(key.p, key.len, 0x6b), bytes, &entered);
    } else {
        slot = whh_add(&in->bytes_pass, whash_bytes(key.p, key.len, 0x6b), bytes, &entered);
    }
    if (!entered) return;
    size_t n = key.len < WINS_KEY_BYTES ? key.len : WINS_KEY_BYTES;
    memcpy(in->pass_key[slot], key.p, n);
    in->pass_key_len[slot] = (uint16_t)(key.len <= WINS_KEY_BYTES ? key.len : WINS_KEY_BYTES + 1);
}

/* The label of a state key (a binary row of the keyed input's key columns; len > WINS_KEY_BYTES:
   cut) into label[WHH_LABEL]: its columns decoded. */
static void label_key_bytes(const WOperator *op, const WInsight *in, const unsigned char *key, size_t len, char *label,
                            WStrBuf *sb)
{
    int n = in->nkey_types;
    if (n <= 0 || len > WINS_KEY_BYTES || len < wrow_fixed_size(n)) {
        snprintf(label, WHH_LABEL, "(a key of %s%zu bytes)", len > WINS_KEY_BYTES ? "over " : "",
                 len > WINS_KEY_BYTES ? (size_t)WINS_KEY_BYTES : len);
        return;
    }
    wsb_clear(sb);
    for (int k = 0; k < n; k++) {
        WDatum d;
        bool set = wrow_get(key, len, n, in->key_types[k], k, &d);
        if (k) wsb_append(sb, ", ");
        wfmt_sql(in->key_types[k], d, !set, op->ctx->cast.tz, sb);
    }
    snprintf(label, WHH_LABEL, "%s", sb->buf ? sb->buf : "");
}

/* The label of slot's key of the pass. */
static void label_pass_key(const WOperator *op, WInsight *in, int slot, WStrBuf *sb)
{
    label_key_bytes(op, in, in->pass_key[slot], in->pass_key_len[slot], in->bytes_pass.label[slot], sb);
}

void wop_key_work_bytes(WOperator *op, const void *key, size_t klen, int64_t rows)
{
    WInsight *in = op->insight;
    if (!in || rows <= 0) return;
    in->live.work_fed = true;
    in->live.work_total += rows;
    if (rows < WINS_WORK_MIN) return;
    bool entered;
    int slot = whh_add(&in->live.work, whash_bytes(key, klen, 0x6b), rows, &entered);
    char *label = in->live.work.label[slot];
    if (label[0]) return;
    /* labelled at once, as sketch_row does for the work sketch */
    WStrBuf sb;
    wsb_init(&sb);
    label_key_bytes(op, in, key, klen <= WINS_KEY_BYTES ? klen : WINS_KEY_BYTES + 1, label, &sb);
    wsb_free(&sb);
}

void wop_key_slow_end_bytes(WOperator *op, int64_t t0, int64_t rows, const void *key, size_t klen)
{
    WInsight *in = op->insight;
    if (!in || !t0) return;
    WInsightSnap *s = &in->live;
    int w;
    char *out = slow_sample(in, t0, wproc_mono_coarse_ns(), rows, "rows", &s->slowkey_total, &s->slowkey_max_ms,
                            &s->slowkey_max_rows, &s->nslowkey, s->slowkey, &w);
    if (!out) return;
    char label[WHH_LABEL];
    WStrBuf sb;
    wsb_init(&sb);
    label_key_bytes(op, in, key, klen <= WINS_KEY_BYTES ? klen : WINS_KEY_BYTES + 1, label, &sb);
    wsb_free(&sb);
    snprintf(out + w, (size_t)(WINS_SAMPLE_LEN - w), "key %s", label);
    fprintf(stderr, "weir: slow key in %s: %s\n", op->name ? op->name : "an operator", out);
}

/* One bounded step of the walk over op's heap state (WINS_SCAN_BUDGET entries); a finished pass
   becomes the published bytes sketch. Only keyed operators: a global one has a single key. */
static void scan_state_bytes(WOperator *op, WInsight *in, bool finished)
{
    const WExecRegistry *reg = op->ctx->registry;
    if (!reg || !in->live.keyed) return;
    /* an operator whose input ended gets one whole pass (up to WINS_FINAL_SCAN_BUDGET entries), so
       that a bounded job's figures are final */
    if (finished && in->final_pass_done) return;
    if (finished) {
        /* start the final pass afresh: the state no longer changes */
        in->scan_entry = 0;
        in->scan = (WStateScanCursor){0, 0};
        whh_init(&in->bytes_pass);
        in->bytes_pass_total = 0;
    }
    /* while running, the walk is bounded by the work done too: at most one entry per
       WINS_SCAN_PER_ROWS input rows since the last publication (plus WINS_SCAN_FLOOR), so that its
       cost stays a small fraction of the rows' cost however long the 100 ms are in CPU time (on a
       loaded machine a lane gets a fraction of a core, and a walk paced by wall time alone cost
       several % of Nexmark q5's instructions) */
    int64_t rows = __atomic_load_n(&op->rows_in, __ATOMIC_RELAXED);
    int64_t paced = WINS_SCAN_FLOOR + (rows - in->scan_rows_seen) / WINS_SCAN_PER_ROWS;
    in->scan_rows_seen = rows;
    int64_t budget = finished ? WINS_FINAL_SCAN_BUDGET : paced < WINS_SCAN_BUDGET ? paced : WINS_SCAN_BUDGET;
    /* a pass starting: with one state (collect_states counted op's), each key comes once */
    if (in->scan_entry == 0 && in->scan.state == 0 && in->scan.slot == 0 && in->bytes_pass.n == 0)
        in->pass_once = in->live.nstates == 1;
    while (budget > 0) {
        if (in->scan_entry >= reg->n) {
            /* a pass over every backend of op ended: label the keys that stayed */
            WStrBuf sb;
            wsb_init(&sb);
            for (int k = 0; k < in->bytes_pass.n; k++) label_pass_key(op, in, k, &sb);
            wsb_free(&sb);
            in->live.bytes = in->bytes_pass;
            in->live.bytes_total = in->bytes_pass_total;
            in->live.bytes_known = true;
            whh_init(&in->bytes_pass);
            in->bytes_pass_total = 0;
            in->scan_entry = 0;
            break;
        }
        const WExecStateEntry *e = &reg->items[in->scan_entry];
        if (e->node_id == op->id && e->backend && !wstate_scan_key_bytes(e->backend, &in->scan, &budget, scan_key, in))
            break;
        in->scan_entry++;
    }
    /* a state too big for the final budget keeps the last periodic pass's figures */
    if (finished) in->final_pass_done = true;
}

#define RATE_WINDOW_MS 1000

/* The published copy of the live snapshot: its arrays that fill from the start (the sketches'
   labels, the samples, splits, origins, rows per receiver) only as far as they are filled, the rest
   whole (a copy of the whole 24 KB, ten times a second per operator, was most of the cost of a
   publication). Readers look at no entry at or beyond an array's count. */
typedef struct SnapPart { size_t off, elem; int (*count)(const WInsightSnap *); } SnapPart;
static int n_hh(const WInsightSnap *s) { return s->hh.n; }
static int n_samples(const WInsightSnap *s) { return s->nsamples; }
static int n_slow(const WInsightSnap *s) { return s->nslow; }
static int n_work(const WInsightSnap *s) { return s->work.n; }
static int n_slowkey(const WInsightSnap *s) { return s->nslowkey; }
static int n_bytes(const WInsightSnap *s) { return s->bytes.n; }
static int n_splits(const WInsightSnap *s) { return s->nsplits; }
static int n_origins(const WInsightSnap *s) { return s->norigins; }
static int n_xhh(const WInsightSnap *s) { return s->xhh.n; }
static int n_recv(const WInsightSnap *s) { return s->nrecv < WINS_RECV ? s->nrecv : WINS_RECV; }
#define PART(f, fn) {offsetof(WInsightSnap, f), sizeof ((WInsightSnap *)0)->f[0], fn}
static const SnapPart snap_parts[] = {     /* by offset */
    PART(hh.label, n_hh), PART(samples, n_samples), PART(slow, n_slow), PART(work.label, n_work),
    PART(slowkey, n_slowkey), PART(bytes.label, n_bytes), PART(splits, n_splits), PART(origins, n_origins),
    PART(xhh.label, n_xhh), PART(xrows_to, n_recv),
};
static const size_t snap_part_len[] = {
    sizeof ((WInsightSnap *)0)->hh.label, sizeof ((WInsightSnap *)0)->samples, sizeof ((WInsightSnap *)0)->slow,
    sizeof ((WInsightSnap *)0)->work.label, sizeof ((WInsightSnap *)0)->slowkey, sizeof ((WInsightSnap *)0)->bytes.label,
    sizeof ((WInsightSnap *)0)->splits, sizeof ((WInsightSnap *)0)->origins, sizeof ((WInsightSnap *)0)->xhh.label,
    sizeof ((WInsightSnap *)0)->xrows_to,
};

static void snap_copy(WInsightSnap *dst, const WInsightSnap *src)
{
    char *d = (char *)dst;
    const char *s = (const char *)src;
    size_t at = 0;
    for (size_t k = 0; k < sizeof snap_parts / sizeof *snap_parts; k++) {
        const SnapPart *p = &snap_parts[k];
        assert(p->off >= at && snap_part_len[k] % p->elem == 0);
        int n = p->count(src);
        assert(n >= 0 && (size_t)n * p->elem <= snap_part_len[k]);
        memcpy(d + at, s + at, p->off - at);
        memcpy(d + p->off, s + p->off, (size_t)n * p->elem);
        at = p->off + snap_part_len[k];
    }
    memcpy(d + at, s + at, sizeof *src - at);
}

void winsight_publish(WOperator *op, int64_t now_ms, bool force)
{
    WInsight *in = op->insight;
    if (!in) return;
    int64_t rows = __atomic_load_n(&op->rows_in, __ATOMIC_RELAXED);
    bool ended = __atomic_load_n(&op->finished, __ATOMIC_RELAXED) && !in->final_pass_done;
    if (!force && in->t0_ms && !ended && rows - in->pub_rows < WINS_PUBLISH_ROWS && now_ms - in->pub_ms < WINS_PUBLISH_MAX_MS)
        return;
    in->pub_rows = rows;
    in->pub_ms = now_ms;
    WInsightSnap *s = &in->live;
    WInsightState prev[WINS_STATES];
    int nprev = s->nstates;
    memcpy(prev, s->states, sizeof prev);
    collect_states(op, s);
    if (op->ops->insight) op->ops->insight(op, s);
    scan_state_bytes(op, in, __atomic_load_n(&op->finished, __ATOMIC_RELAXED));
    if (!in->t0_ms) in->t0_ms = in->rate_t_ms = now_ms;
    s->elapsed_ms = now_ms - in->t0_ms;
    /* keep the previous window's rates until a new window of >= 1 s completes */
    for (int k = 0; k < s->nstates; k++) {
        WInsightState *x = &s->states[k];
        bool same = k < nprev && !strcmp(prev[k].name, x->name);
        x->new_per_s = same ? prev[k].new_per_s : 0;
        x->expired_per_s = same ? prev[k].expired_per_s : 0;
        x->rates_known = same && prev[k].rates_known;
    }
    int64_t dt = now_ms - in->rate_t_ms;
    bool done = __atomic_load_n(&op->finished, __ATOMIC_RELAXED);
    if (done && s->elapsed_ms > 0) {
        /* the input ended: rates over the whole run (the state no longer grows) */
        for (int k = 0; k < s->nstates; k++) {
            WInsightState *x = &s->states[k];
            int64_t c = x->created >= 0 ? x->created : x->entries;
            x->new_per_s = (double)c * 1000.0 / (double)s->elapsed_ms;
            x->expired_per_s = (double)(x->expired > 0 ? x->expired : 0) * 1000.0 / (double)s->elapsed_ms;
            x->rates_known = true;
        }
    } else if (dt >= RATE_WINDOW_MS) {
        for (int k = 0; k < s->nstates; k++) {
            WInsightState *x = &s->states[k];
            /* a backend that does not count creations (RocksDB): net growth of the entries */
            int64_t c = x->created >= 0 ? x->created : x->entries;
            int64_t e = x->expired >= 0 ? x->expired : 0;
            x->new_per_s = (double)(c - in->rate_created[k]) * 1000.0 / (double)dt;
            x->expired_per_s = (double)(e - in->rate_expired[k]) * 1000.0 / (double)dt;
            if (x->new_per_s < 0) x->new_per_s = 0;
            x->rates_known = true;
            in->rate_created[k] = c;
            in->rate_expired[k] = e;
        }
        in->rate_t_ms = now_ms;
    } else if (in->rate_t_ms == in->t0_ms && nprev == 0) {
        for (int k = 0; k < s->nstates; k++) {
            in->rate_created[k] = s->states[k].created >= 0 ? s->states[k].created : s->states[k].entries;
            in->rate_expired[k] = s->states[k].expired >= 0 ? s->states[k].expired : 0;
        }
    }
    pthread_mutex_lock(&in->mu);
    snap_copy(&in->pub, s);
    pthread_mutex_unlock(&in->mu);
}

bool winsight_read(const WOperator *op, WInsightSnap *out)
{
    WInsight *in = op->insight;
    if (!in) return false;
    pthread_mutex_lock(&in->mu);
    *out = in->pub;
    pthread_mutex_unlock(&in->mu);
    return true;
}
