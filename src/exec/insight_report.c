/* insight_report.c — readings of insight snapshots shared by the `-v` report and REST; see
   insight.h. */
#include "insight.h"
#include "../common/sort.h"
#include "../common/arena.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int by_count(const void *a, const void *b)
{
    const WHotKey *x = a, *y = b;
    if (x->e.count != y->e.count) return x->e.count > y->e.count ? -1 : 1;
    return x->subtask - y->subtask;
}

static int by_hash(const void *a, const void *b)
{
    const WHotKey *x = a, *y = b;
    return x->e.hash < y->e.hash ? -1 : x->e.hash > y->e.hash;
}

/* The first max of all[0..n) by count into out, with their shares of total; frees all. */
static int top_first(WHotKey *all, int n, int64_t total, WHotKey *out, int max)
{
    wqsort(all, (size_t)n, sizeof *all, by_count);
    int k = n < max ? n : max;
    for (int i = 0; i < k; i++) {
        out[i] = all[i];
        out[i].share = total ? (double)all[i].e.count / (double)total : 0;
    }
    free(all);
    return k;
}

enum { TOP_RECORDS, TOP_WORK, TOP_BYTES };

/* The top keys of every subtask's records, work or state-bytes sketch, merged. */
static int top_of(const WInsightSnap *snaps, int nsnaps, int which, WHotKey *out, int max, int64_t *total_out)
{
    int64_t total = 0;
    int n = 0;
    WHotKey *all = wcalloc((size_t)nsnaps * WHH_SLOTS + 1, sizeof *all);
    for (int s = 0; s < nsnaps; s++) {
        const WInsightSnap *x = &snaps[s];
        if (which == TOP_WORK ? !x->work_fed : which == TOP_BYTES ? !x->bytes_known : !x->keyed) continue;
        const WHeavyHitters *h = which == TOP_WORK ? &x->work : which == TOP_BYTES ? &x->bytes : &x->hh;
        total += which == TOP_WORK ? x->work_total : which == TOP_BYTES ? x->bytes_total : h->total;
        WHHEntry e[WHH_SLOTS];
        int ne = whh_top(h, e, WHH_SLOTS);
        for (int i = 0; i < ne; i++) all[n++] = (WHotKey){.e = e[i], .subtask = s};
    }
    *total_out = total;
    return top_first(all, n, total, out, max);
}

int winsight_top_keys(const WInsightSnap *snaps, int nsnaps, WHotKey *out, int max, int64_t *sampled)
{
    return top_of(snaps, nsnaps, TOP_RECORDS, out, max, sampled);
}

int winsight_top_work(const WInsightSnap *snaps, int nsnaps, WHotKey *out, int max, int64_t *total)
{
    return top_of(snaps, nsnaps, TOP_WORK, out, max, total);
}

int winsight_top_bytes(const WInsightSnap *snaps, int nsnaps, WHotKey *out, int max, int64_t *total)
{
    return top_of(snaps, nsnaps, TOP_BYTES, out, max, total);
}

int winsight_top_exchange(const WInsightSnap *snaps, int nsnaps, WHotKey *out, int max, int64_t *sampled,
                          int64_t *per_recv, int max_recv)
{
    int64_t total = 0;
    int n = 0;
    if (per_recv) memset(per_recv, 0, sizeof *per_recv * (size_t)max_recv);
    WHotKey *all = wcalloc((size_t)nsnaps * WHH_SLOTS + 1, sizeof *all);
    for (int s = 0; s < nsnaps; s++) {
        const WInsightSnap *x = &snaps[s];
        if (!x->exchange) continue;
        total += x->xhh.total;
        for (int t = 0; per_recv && t < x->nrecv && t < max_recv && t < WINS_RECV; t++) per_recv[t] += x->xrows_to[t];
        for (int i = 0; i < x->xhh.n; i++) {
            all[n] = (WHotKey){.e = {.hash = x->xhh.hash[i], .count = x->xhh.count[i], .error = x->xhh.error[i]},
                               .subtask = x->xto[i]};
            memcpy(all[n++].e.label, x->xhh.label[i], WHH_LABEL);
        }
    }
    /* a key several senders sent (the same hash, so the same receiver) is one key */
    wqsort(all, (size_t)n, sizeof *all, by_hash);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m && all[m - 1].e.hash == all[i].e.hash) {
            all[m - 1].e.count += all[i].e.count;
            all[m - 1].e.error += all[i].e.error;
            if (!all[m - 1].e.label[0]) memcpy(all[m - 1].e.label, all[i].e.label, WHH_LABEL);
        } else {
            all[m++] = all[i];
        }
    }
    n = m;
    *sampled = total;
    return top_first(all, n, total, out, max);
}

bool winsight_is_hot(const WHotKey *top, int n, int64_t sampled, double threshold)
{
    if (n == 0 || sampled < WINS_HOT_MIN_SAMPLED || top[0].share < threshold) return false;
    return n == 1 || top[0].share >= 2 * top[1].share;
}

static bool starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

const char *winsight_remedy(const char *op_name, bool *applied)
{
    *applied = false;
    if (starts(op_name, "GlobalGroupAggregate") || starts(op_name, "GlobalWindowAggregate")) {
        *applied = true;
        return "two-phase aggregation is applied (a local aggregate pre-aggregates each key before the exchange); "
               "for COUNT(DISTINCT) on a hot key also set table.optimizer.distinct-agg.split.enabled = true";
    }
    if (starts(op_name, "IncrementalGroupAggregate")) {
        *applied = true;
        return "the distinct split is applied (table.optimizer.distinct-agg.split.enabled)";
    }
    if (starts(op_name, "GroupAggregate"))
        return "not applied: enable two-phase aggregation (table.exec.mini-batch.enabled = true, "
               "table.exec.mini-batch.allow-latency, table.exec.mini-batch.size, "
               "table.optimizer.agg-phase-strategy = TWO_PHASE) and, for COUNT(DISTINCT), "
               "table.optimizer.distinct-agg.split.enabled = true";
    if (starts(op_name, "WindowAggregate"))
        return "not applied: enable two-phase window aggregation (table.optimizer.agg-phase-strategy = TWO_PHASE "
               "gives a LocalWindowAggregate before the exchange)";
    if (strstr(op_name, "Join"))
        return "not applied (Flink has no automatic remedy for join skew): salt the hot key — add a random "
               "salt column to the big side's join key and replicate the other side over the salt values";
    return "not applied: salt the key (add a random salt column to the key, then combine the salted partial "
           "results in a second step)";
}

int winsight_state_growth(const WInsightSnap *snaps, int nsnaps, bool unbounded, bool finished, WStateGrowth *out,
                          int max)
{
    int n = 0;
    for (int s = 0; s < nsnaps; s++)
        for (int i = 0; i < snaps[s].nstates; i++) {
            const WInsightState *x = &snaps[s].states[i];
            int k = 0;
            while (k < n && strcmp(out[k].s.name, x->name)) k++;
            if (k == n) {
                if (n == max) continue;
                memset(&out[n], 0, sizeof out[n]);
                memcpy(out[n].s.name, x->name, sizeof x->name);
                out[n].s.ttl_ms = x->ttl_ms;
                out[n].s.rates_known = true;
                n++;
            }
            WInsightState *t = &out[k].s;
            t->entries += x->entries;
            t->bytes += x->bytes;
            t->created = (t->created < 0 || x->created < 0) ? -1 : t->created + x->created;
            t->expired = (t->expired < 0 || x->expired < 0) ? -1 : t->expired + x->expired;
            t->new_per_s += x->new_per_s;
            t->expired_per_s += x->expired_per_s;
            t->rates_known = t->rates_known && x->rates_known;
        }
    for (int k = 0; k < n; k++) {
        WStateGrowth *g = &out[k];
        double per_entry = g->s.entries > 0 ? (double)g->s.bytes / (double)g->s.entries : 0;
        if (finished || !unbounded) {
            g->verdict = "input ended";
            g->steady_entries = g->s.entries;
            g->steady_bytes = g->s.bytes;
        } else if (!g->s.rates_known) {
            g->verdict = "measuring";
            g->steady_entries = g->steady_bytes = 0;
        } else if (g->s.ttl_ms <= 0) {
            g->verdict = g->s.new_per_s > 0 ? "unbounded" : "not growing";
            g->steady_entries = g->s.new_per_s > 0 ? -1 : g->s.entries;
            g->steady_bytes = g->s.new_per_s > 0 ? -1 : g->s.bytes;
        } else {
            g->verdict = "bounded by TTL";
            /* Little's law: entries alive = arrival rate x lifetime (the TTL) */
            g->steady_entries = llround(g->s.new_per_s * (double)g->s.ttl_ms / 1000.0);
            g->steady_bytes = llround((double)g->steady_entries * per_entry);
        }
    }
    return n;
}

void winsight_slow_sum(const WInsightSnap *snaps, int nsnaps, WInsightSnap *out)
{
    memset(out, 0, sizeof *out);
    for (int l = 0; l < nsnaps; l++) {
        const WInsightSnap *x = &snaps[l];
        out->slow_total += x->slow_total;
        if (x->slow_max_ms > out->slow_max_ms) out->slow_max_ms = x->slow_max_ms;
        if (x->slow_max_rows > out->slow_max_rows) out->slow_max_rows = x->slow_max_rows;
        for (int k = 0; k < x->nslow && out->nslow < WINS_SLOW_SAMPLES; k++)
            memcpy(out->slow[out->nslow++], x->slow[k], WINS_SAMPLE_LEN);
    }
}

void winsight_slowkey_sum(const WInsightSnap *snaps, int nsnaps, WInsightSnap *out)
{
    memset(out, 0, sizeof *out);
    for (int l = 0; l < nsnaps; l++) {
        const WInsightSnap *x = &snaps[l];
        out->work_fed |= x->work_fed;
        out->work_total += x->work_total;
        out->slowkey_total += x->slowkey_total;
        if (x->slowkey_max_ms > out->slowkey_max_ms) out->slowkey_max_ms = x->slowkey_max_ms;
        if (x->slowkey_max_rows > out->slowkey_max_rows) out->slowkey_max_rows = x->slowkey_max_rows;
        for (int k = 0; k < x->nslowkey && out->nslowkey < WINS_SLOW_SAMPLES; k++)
            memcpy(out->slowkey[out->nslowkey++], x->slowkey[k], WINS_SAMPLE_LEN);
    }
}

int winsight_origin_sum(const WInsightSnap *snaps, int nsnaps, WInsightOrigin *out, int n, int max)
{
    assert(n >= 0 && n <= max);
    for (int s = 0; s < nsnaps; s++) {
        for (int i = 0; i < snaps[s].norigins; i++) {
            const WInsightOrigin *x = &snaps[s].origins[i];
            int k = 0;
            while (k < n && strcmp(out[k].name, x->name)) k++;
            if (k == n) {
                if (n == max) continue;     /* bounded: the others are in behind_total only */
                out[n++] = (WInsightOrigin){.behind = 0};
                memcpy(out[k].name, x->name, sizeof out[k].name);
            }
            out[k].behind += x->behind;
            if (x->behind_max_ms > out[k].behind_max_ms) out[k].behind_max_ms = x->behind_max_ms;
        }
    }
    for (int i = 1; i < n; i++)         /* most rows first */
        for (int k = i; k > 0 && out[k].behind > out[k - 1].behind; k--) {
            WInsightOrigin t = out[k];
            out[k] = out[k - 1];
            out[k - 1] = t;
        }
    return n;
}

const char *winsight_slow_remedy(const char *op_name)
{
    bool applied;
    if (strstr(op_name, "Join")) return winsight_remedy(op_name, &applied);
    if (starts(op_name, "Rank"))
        return "not applied (Flink has no automatic remedy): the key's top-N buffer is read for each of its rows — "
               "lower N, or rank per salted key first (add a random salt to PARTITION BY) and rank the survivors again";
    if (strstr(op_name, "OverAggregate"))
        return "not applied (Flink has no automatic remedy): the key's rows are read at each firing — a shorter "
               "frame (ROWS/RANGE n PRECEDING) or a finer PARTITION BY";
    return "not applied (Flink has no automatic remedy): MIN/MAX, FIRST/LAST_VALUE and LISTAGG over a retracting input "
           "keep every value of the key and rescan them when the current one is retracted — salt the key (GROUP BY "
           "key, MOD(HASH_CODE(value), n)) and combine the partial results in a second step, or aggregate an "
           "append-only input";
}

void winsight_late_sum(const WInsightSnap *snaps, int nsnaps, WInsightSnap *out)
{
    memset(out, 0, sizeof *out);
    for (int s = 0; s < nsnaps; s++) {
        const WInsightSnap *x = &snaps[s];
        out->late_total += x->late_total;
        for (int i = 0; i < WINS_INPUTS; i++) out->late_by_input[i] += x->late_by_input[i];
        for (int b = 0; b < WINS_LATE_BUCKETS; b++) {
            out->late_hist[b] += x->late_hist[b];
            for (int i = 0; i < WINS_INPUTS; i++) out->late_hist_by_input[i][b] += x->late_hist_by_input[i][b];
        }
        if (x->late_max_ms > out->late_max_ms) out->late_max_ms = x->late_max_ms;
        for (int i = 0; i < x->nsamples && out->nsamples < WINS_LATE_SAMPLES; i++)
            memcpy(out->samples[out->nsamples++], x->samples[i], WINS_SAMPLE_LEN);
    }
}

int64_t winsight_late_quantile(const WInsightSnap *s, double q)
{
    if (s->late_total <= 0) return 0;
    int64_t want = (int64_t)ceil(q * (double)s->late_total), seen = 0;
    for (int b = 0; b < WINS_LATE_BUCKETS; b++) {
        seen += s->late_hist[b];
        if (seen >= want) {
            int64_t upper = b == 0 ? 0 : ((int64_t)1 << b) - 1;
            return upper < s->late_max_ms ? upper : s->late_max_ms;
        }
    }
    return s->late_max_ms;
}

static int by_worst_lag(const void *a, const void *b)
{
    const WSplitLag *x = a, *y = b;
    if (x->worst_ms != y->worst_ms) return x->worst_ms > y->worst_ms ? -1 : 1;
    if (x->subtask != y->subtask) return x->subtask - y->subtask;
    return strcmp(x->s.name, y->s.name);
}

int winsight_split_lags(const WInsightSnap *snaps, int nsnaps, WSplitLag *out, int max, int64_t *leading)
{
    int64_t lead = INT64_MIN;
    for (int t = 0; t < nsnaps; t++)
        for (int i = 0; snaps[t].wm_assigner && i < snaps[t].nsplits; i++) {
            const WInsightSplit *x = &snaps[t].splits[i];
            if (!x->idle && x->wm != INT64_MIN && x->wm > lead) lead = x->wm;
        }
    int n = 0, cap = 0;
    WSplitLag *all = NULL;
    for (int t = 0; t < nsnaps; t++)
        for (int i = 0; snaps[t].wm_assigner && i < snaps[t].nsplits; i++) {
            const WInsightSplit *x = &snaps[t].splits[i];
            if (n == cap) all = wrealloc(all, sizeof *all * (size_t)(cap = cap ? cap * 2 : 16));
            int64_t lag = x->finished || x->idle || x->wm == INT64_MIN || lead == INT64_MIN ? -1 : winsight_lateness(lead, x->wm);
            all[n++] = (WSplitLag){.s = *x, .subtask = t, .lag_ms = lag, .worst_ms = lag > x->max_lag_ms ? lag : x->max_lag_ms};
        }
    if (n) wqsort(all, (size_t)n, sizeof *all, by_worst_lag);
    int k = n < max ? n : max;
    if (k) memcpy(out, all, sizeof *all * (size_t)k);
    free(all);
    *leading = lead;
    return k;
}

bool winsight_split_is_lagging(const WSplitLag *l, int64_t threshold_ms)
{
    return l->worst_ms > 0 && l->worst_ms >= threshold_ms;
}

bool winsight_lagging_split(const WInsightSnap *snaps, int nsnaps, int64_t threshold_ms, WSplitLag *out)
{
    int64_t lead;
    return winsight_split_lags(snaps, nsnaps, out, 1, &lead) == 1 && winsight_split_is_lagging(out, threshold_ms);
}
