/*
 * rest_insight.c — /weir/jobs/:jid/vertices/:vid/{hot-keys,late-data,state-growth,slow-windows,slow-keys,watermarks}: the insight
 * of the vertex's operators (exec/insight.h) as JSON, read under the registry lock from the
 * snapshots the operators publish (live) or the copies kept when the job ended. See rest.h.
 */
#include "rest.h"
#include "../common/duration.h"
#include "../exec/insight.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Every subtask's snapshot of graph operator op; NULL when the operator keeps no insight. */
static WInsightSnap *op_snaps(const WRegJob *j, int op)
{
    WInsightSnap *s = wcalloc((size_t)(j->nlanes > 0 ? j->nlanes : 1), sizeof *s);
    bool any = false;
    for (int l = 0; l < j->nlanes; l++) any |= wregistry_op_insight(j, op, l, &s[l]);
    if (!any) { free(s); return NULL; }
    return s;
}

/* The hash exchange into input `input` of op, as its senders saw it: the keys by the rows they
   sent (from the routing hash, sampled), each with the receiving subtask, and the sampled rows per
   receiving subtask; NULL when that input has no exchange of its own. */
static json_t *exchange_keys(const WRegJob *j, int op, int input, double threshold)
{
    WInsightSnap *x = wcalloc((size_t)j->nlanes, sizeof *x);
    bool any = false;
    for (int l = 0; l < j->nlanes; l++) any |= wregistry_exchange_insight(j, op, input, l, &x[l]);
    if (!any) { free(x); return NULL; }
    WHotKey top[10];
    int64_t sampled = 0, per_recv[WINS_RECV];
    int n = winsight_top_exchange(x, j->nlanes, top, 10, &sampled, per_recv, WINS_RECV);
    int nrecv = 0;
    for (int l = 0; l < j->nlanes; l++) if (x[l].nrecv > nrecv) nrecv = x[l].nrecv;
    free(x);
    const WStreamOp *so = &j->graph->ops[op];
    const char *from = input < so->ninputs ? j->graph->ops[so->inputs[input].from].name : "?";
    json_t *keys = json_array(), *recv = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(keys, json_pack("{s:s?, s:I, s:I, s:f, s:i}", "key", top[i].e.label[0] ? top[i].e.label : NULL,
                                              "records", (json_int_t)(top[i].e.count * WINS_SAMPLE_EVERY), "error",
                                              (json_int_t)(top[i].e.error * WINS_SAMPLE_EVERY), "share", top[i].share,
                                              "receiving_subtask", top[i].subtask));
    for (int t = 0; t < nrecv && t < WINS_RECV; t++)
        json_array_append_new(recv, json_integer((json_int_t)(per_recv[t] * WINS_SAMPLE_EVERY)));
    char name[160];
    snprintf(name, sizeof name, "HASH %s -> %s", from, so->name);
    json_t *o = json_pack("{s:s, s:i, s:s, s:s, s:I, s:i, s:o, s:o}", "exchange", name, "input", input, "from", from, "to",
                          so->name, "records_sampled", (json_int_t)sampled, "sample_every", WINS_SAMPLE_EVERY,
                          "records_per_receiving_subtask", recv, "keys", keys);
    bool hot = winsight_is_hot(top, n, sampled, threshold);
    json_object_set_new(o, "hot", json_boolean(hot));
    if (hot) {
        char w[320];
        snprintf(w, sizeof w, "Key %s has %.0f%% of the records the exchange %s sends; they all go to subtask %d.",
                 top[0].e.label, top[0].share * 100, name, top[0].subtask);
        json_object_set_new(o, "warning", json_string(w));
    }
    return o;
}

static json_t *hot_keys(const WRegJob *j, int op, const WInsightSnap *s, double threshold)
{
    WHotKey top[10];
    int64_t sampled = 0;
    int n = winsight_top_keys(s, j->nlanes, top, 10, &sampled);
    bool keyed = false;
    for (int l = 0; l < j->nlanes; l++) keyed |= s[l].keyed;
    if (!keyed) return NULL;
    json_t *keys = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(keys, json_pack("{s:s?, s:I, s:I, s:f, s:i}", "key", top[i].e.label[0] ? top[i].e.label : NULL, "records",
                                              (json_int_t)(top[i].e.count * WINS_SAMPLE_EVERY), "error",
                                              (json_int_t)(top[i].e.error * WINS_SAMPLE_EVERY), "share",
                                              top[i].share, "subtask", top[i].subtask));
    const char *name = j->graph->ops[op].name;
    json_t *o = json_pack("{s:s, s:I, s:i, s:o}", "operator", name, "records_sampled", (json_int_t)sampled,
                          "sample_every", WINS_SAMPLE_EVERY, "keys", keys);
    /* keys by the state bytes they hold (the last complete pass over the heap state) */
    WHotKey bt[10];
    int64_t bytes = 0;
    int nb = winsight_top_bytes(s, j->nlanes, bt, 10, &bytes);
    bool bytes_known = false;
    for (int l = 0; l < j->nlanes; l++) bytes_known |= s[l].bytes_known;
    if (bytes_known) {
        json_t *bk = json_array();
        for (int i = 0; i < nb; i++)
            json_array_append_new(bk, json_pack("{s:s?, s:I, s:I, s:f, s:i}", "key", bt[i].e.label[0] ? bt[i].e.label : NULL,
                                                "bytes", (json_int_t)bt[i].e.count, "error", (json_int_t)bt[i].e.error,
                                                "share", bt[i].share, "subtask", bt[i].subtask));
        json_object_set_new(o, "state_bytes", json_integer(bytes));
        json_object_set_new(o, "keys_by_state_bytes", bk);
        bool big = winsight_is_hot(bt, nb, bytes, threshold) && bytes > 0;
        json_object_set_new(o, "hot_by_state_bytes", json_boolean(big));
        if (big) {
            char w[256];
            snprintf(w, sizeof w, "Key %s holds %.0f%% of the state bytes of %s (subtask %d).", bt[0].e.label,
                     bt[0].share * 100, name, bt[0].subtask);
            json_object_set_new(o, "state_warning", json_string(w));
        }
    }
    /* the hash exchanges in front of the operator, as their senders saw the keys */
    json_t *xs = json_array();
    for (int in = 0; in < WREG_XINPUTS && in < j->graph->ops[op].ninputs; in++) {
        json_t *x = exchange_keys(j, op, in, threshold);
        if (x) json_array_append_new(xs, x);
    }
    json_object_set_new(o, "exchanges", xs);
    bool hot = winsight_is_hot(top, n, sampled, threshold);
    json_object_set_new(o, "hot", json_boolean(hot));
    if (hot) {
        bool applied;
        const char *remedy = winsight_remedy(name, &applied);
        char w[256];
        snprintf(w, sizeof w, "Key %s has %.0f%% of the records of %s (subtask %d).", top[0].e.label,
                 top[0].share * 100, name, top[0].subtask);
        json_object_set_new(o, "warning", json_string(w));
        json_object_set_new(o, "remedy", json_string(remedy));
        json_object_set_new(o, "remedy_applied", json_boolean(applied));
    }
    return o;
}

/* The origins (split, file) of the rows that came behind the watermark of op's subtasks (all the
   job's WatermarkAssigners when op < 0), most rows first; *total = all such rows. */
static json_t *behind_origins(const WRegJob *j, int op, const WInsightSnap *s, int64_t *total)
{
    WInsightOrigin org[WINS_ORIGINS];
    int n = 0;
    *total = 0;
    for (int k = op < 0 ? 0 : op; k < (op < 0 ? j->graph->nops : op + 1); k++) {
        WInsightSnap *x = op < 0 ? op_snaps(j, k) : (WInsightSnap *)s;
        if (!x) continue;
        for (int l = 0; l < j->nlanes; l++) *total += x[l].behind_total;
        n = winsight_origin_sum(x, j->nlanes, org, n, WINS_ORIGINS);
        if (op < 0) free(x);
    }
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:s?, s:I, s:I}", "origin", org[i].name[0] ? org[i].name : NULL, "rows",
                                           (json_int_t)org[i].behind, "max_behind_ms", (json_int_t)org[i].behind_max_ms));
    return a;
}

/* A lateness histogram: its non-empty log2 buckets as {from_ms, to_ms, rows}. */
static json_t *lateness_histogram(const int64_t *hist)
{
    json_t *a = json_array();
    for (int b = 0; b < WINS_LATE_BUCKETS; b++)
        if (hist[b])
            json_array_append_new(a, json_pack("{s:I, s:I, s:I}", "from_ms", (json_int_t)winsight_bucket_floor(b),
                                               "to_ms", (json_int_t)(b ? ((int64_t)1 << b) - 1 : 0), "rows",
                                               (json_int_t)hist[b]));
    return a;
}

static json_t *late_data(const WRegJob *j, int op, const WInsightSnap *s)
{
    WInsightSnap sum;
    winsight_late_sum(s, j->nlanes, &sum);
    json_t *hist = lateness_histogram(sum.late_hist);
    json_t *subs = json_array(), *inputs = json_array(), *samples = json_array();
    json_t *sub_hists = json_array(), *input_hists = json_array();
    for (int l = 0; l < j->nlanes; l++) {
        json_array_append_new(subs, json_integer(s[l].late_total));
        json_array_append_new(sub_hists, lateness_histogram(s[l].late_hist));
    }
    int nin = j->graph->ops[op].ninputs > 1 ? 2 : 1;
    for (int i = 0; i < nin; i++) {
        json_array_append_new(inputs, json_integer(sum.late_by_input[i]));
        json_array_append_new(input_hists, lateness_histogram(sum.late_hist_by_input[i]));
    }
    for (int i = 0; i < sum.nsamples; i++) json_array_append_new(samples, json_string(sum.samples[i]));
    json_t *o = json_pack("{s:s, s:I, s:o, s:o, s:I, s:I, s:o, s:o}", "operator", j->graph->ops[op].name,
                          "late_rows_dropped", (json_int_t)sum.late_total, "per_input", inputs, "per_subtask", subs,
                          "max_lateness_ms", (json_int_t)sum.late_max_ms, "median_lateness_ms",
                          (json_int_t)winsight_late_quantile(&sum, 0.5), "lateness_histogram", hist, "sample", samples);
    json_object_set_new(o, "lateness_histogram_per_input", input_hists);
    json_object_set_new(o, "lateness_histogram_per_subtask", sub_hists);
    if (sum.late_total) {
        /* where late rows come from: the rows behind the watermark at the job's sources, by split / file */
        int64_t behind;
        json_t *from = behind_origins(j, -1, NULL, &behind);
        json_object_set_new(o, "behind_watermark_at_source", json_integer(behind));
        json_object_set_new(o, "behind_watermark_by_origin", from);
    }
    return o;
}

static json_t *state_growth(const WRegJob *j, int op, const WInsightSnap *s)
{
    WStateGrowth g[WINS_STATES];
    bool ended = wjob_state_terminal(j->state);
    int n = winsight_state_growth(s, j->nlanes, j->unbounded, ended, g, WINS_STATES);
    if (!n) return NULL;
    json_t *states = json_array();
    for (int k = 0; k < n; k++) {
        char ttl[64];
        wduration_format(g[k].s.ttl_ms, ttl, sizeof ttl);
        json_t *x = json_pack("{s:s, s:s, s:I, s:I, s:I, s:f, s:f, s:s}", "name", g[k].s.name, "ttl", ttl, "ttl_ms",
                              (json_int_t)g[k].s.ttl_ms, "entries", (json_int_t)g[k].s.entries, "bytes",
                              (json_int_t)g[k].s.bytes, "new_keys_per_s", g[k].s.new_per_s, "expiries_per_s",
                              g[k].s.expired_per_s, "forecast", g[k].verdict);
        if (g[k].steady_entries < 0) {
            json_object_set_new(x, "steady_state_entries", json_string("unbounded"));
            json_object_set_new(x, "steady_state_bytes", json_string("unbounded"));
            double per_entry = g[k].s.entries ? (double)g[k].s.bytes / (double)g[k].s.entries : 0;
            json_object_set_new(x, "bytes_in_a_week",
                                json_integer((json_int_t)((double)g[k].s.bytes + g[k].s.new_per_s * 604800.0 * per_entry)));
        } else {
            json_object_set_new(x, "steady_state_entries", json_integer(g[k].steady_entries));
            json_object_set_new(x, "steady_state_bytes", json_integer(g[k].steady_bytes));
        }
        if (g[k].s.created < 0) json_object_set_new(x, "rates_from", json_string("net growth of the entries"));
        json_array_append_new(states, x);
    }
    return json_pack("{s:s, s:o}", "operator", j->graph->ops[op].name, "states", states);
}

static json_t *slow_windows(const WRegJob *j, int op, const WInsightSnap *s)
{
    WInsightSnap sum;
    winsight_slow_sum(s, j->nlanes, &sum);
    json_t *subs = json_array(), *samples = json_array();
    for (int l = 0; l < j->nlanes; l++) json_array_append_new(subs, json_integer(s[l].slow_total));
    for (int k = 0; k < sum.nslow; k++) json_array_append_new(samples, json_string(sum.slow[k]));
    return json_pack("{s:s, s:I, s:o, s:I, s:I, s:o}", "operator", j->graph->ops[op].name, "slow_firings",
                     (json_int_t)sum.slow_total, "per_subtask", subs, "slowest_ms", (json_int_t)sum.slow_max_ms,
                     "most_rows", (json_int_t)sum.slow_max_rows, "sample", samples);
}

/* Keys by the state rows their input rows made the operator scan (a join's candidates), with the
   single rows that took longer than the slow threshold. */
static json_t *slow_keys(const WRegJob *j, int op, const WInsightSnap *s, double share_threshold)
{
    WInsightSnap sum;
    winsight_slowkey_sum(s, j->nlanes, &sum);
    if (!sum.work_fed && !sum.slowkey_total) return NULL;
    WHotKey top[10];
    int64_t total = 0;
    int n = winsight_top_work(s, j->nlanes, top, 10, &total);
    json_t *keys = json_array(), *subs = json_array(), *samples = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(keys, json_pack("{s:s?, s:I, s:I, s:f, s:i}", "key", top[i].e.label[0] ? top[i].e.label : NULL,
                                              "rows_scanned", (json_int_t)top[i].e.count, "error",
                                              (json_int_t)top[i].e.error, "share", top[i].share, "subtask", top[i].subtask));
    for (int l = 0; l < j->nlanes; l++) json_array_append_new(subs, json_integer(s[l].slowkey_total));
    for (int k = 0; k < sum.nslowkey; k++) json_array_append_new(samples, json_string(sum.slowkey[k]));
    const char *name = j->graph->ops[op].name;
    json_t *o = json_pack("{s:s, s:I, s:o, s:I, s:o, s:I, s:I, s:o}", "operator", name, "rows_scanned", (json_int_t)total,
                          "keys", keys, "slow_rows", (json_int_t)sum.slowkey_total, "per_subtask", subs, "slowest_ms",
                          (json_int_t)sum.slowkey_max_ms, "most_rows_scanned", (json_int_t)sum.slowkey_max_rows, "sample",
                          samples);
    bool dominant = winsight_is_hot(top, n, total, share_threshold);
    json_object_set_new(o, "dominant", json_boolean(dominant));
    if (dominant) {
        char w[320];
        snprintf(w, sizeof w, "Key %s made %s scan %.0f%% of the state rows it scanned (subtask %d).", top[0].e.label,
                 name, top[0].share * 100, top[0].subtask);
        json_object_set_new(o, "warning", json_string(w));
        json_object_set_new(o, "remedy", json_string(winsight_slow_remedy(name)));
        json_object_set_new(o, "remedy_applied", json_boolean(false));
    }
    return o;
}

/* The WatermarkAssigner's splits, most behind first, with a warning when one lags the leading
   split by the threshold or more (while running: now; over the run: within its subtask). */
static json_t *watermarks(const WRegJob *j, int op, const WInsightSnap *s, int64_t threshold_ms)
{
    bool any = false;
    int total = 0;
    for (int l = 0; l < j->nlanes; l++) {
        any |= s[l].wm_assigner;
        total += s[l].nsplits;
    }
    if (!any) return NULL;
    WSplitLag *lag = wcalloc((size_t)(total > 0 ? total : 1), sizeof *lag);
    int64_t lead;
    int n = winsight_split_lags(s, j->nlanes, lag, total, &lead);
    json_t *splits = json_array();
    for (int i = 0; i < n; i++) {
        json_t *x = json_pack("{s:i, s:s?, s:I, s:b, s:b}", "subtask", lag[i].subtask, "split",
                              lag[i].s.name[0] ? lag[i].s.name : NULL, "records", (json_int_t)lag[i].s.rows, "idle",
                              lag[i].s.idle, "finished", lag[i].s.finished);
        json_object_set_new(x, "watermark", lag[i].s.wm == INT64_MIN ? json_null() : json_integer(lag[i].s.wm));
        json_object_set_new(x, "lag_ms", lag[i].lag_ms < 0 ? json_null() : json_integer(lag[i].lag_ms));
        json_object_set_new(x, "max_lag_ms", json_integer(lag[i].s.max_lag_ms));
        json_array_append_new(splits, x);
    }
    json_t *o = json_pack("{s:s, s:o}", "operator", j->graph->ops[op].name, "splits", splits);
    json_object_set_new(o, "leading_watermark", lead == INT64_MIN ? json_null() : json_integer(lead));
    int64_t nbehind;
    json_t *from = behind_origins(j, op, s, &nbehind);
    json_object_set_new(o, "rows_behind_watermark", json_integer(nbehind));
    json_object_set_new(o, "behind_by_origin", from);
    bool behind = n > 0 && winsight_split_is_lagging(&lag[0], threshold_ms);
    json_object_set_new(o, "lagging", json_boolean(behind));
    if (behind) {
        char w[320], who[96];
        if (lag[0].s.name[0]) snprintf(who, sizeof who, "Split %s (subtask %d)", lag[0].s.name, lag[0].subtask);
        else snprintf(who, sizeof who, "Subtask %d", lag[0].subtask);
        bool now = lag[0].lag_ms == lag[0].worst_ms;
        snprintf(w, sizeof w, "%s %s %lld ms behind the leading watermark of %s: it %s the watermark back, so "
                 "windows %s late and the other splits' rows %s in state.", who, now ? "is" : "was up to",
                 (long long)lag[0].worst_ms, j->graph->ops[op].name, now ? "holds" : "held", now ? "fire" : "fired",
                 now ? "wait" : "waited");
        json_object_set_new(o, "warning", json_string(w));
    }
    free(lag);
    return o;
}

int wrest_insight(const WRegJob *j, int v, const char *what, json_t **out)
{
    bool hk = !strcmp(what, "hot-keys"), ld = !strcmp(what, "late-data"), sg = !strcmp(what, "state-growth");
    bool sw = !strcmp(what, "slow-windows"), wm = !strcmp(what, "watermarks"), sk = !strcmp(what, "slow-keys");
    if (!hk && !ld && !sg && !sw && !wm && !sk) return 0;
    int64_t lag_threshold = winsight_lag_threshold_ms(&j->config, NULL);
    const WJobVertex *vx = &j->graph->vertices[v];
    double threshold = wjob_hot_key_threshold(&j->config);
    json_t *ops = json_array();
    for (int k = 0; k < vx->nops; k++) {
        int op = vx->ops[k];
        WInsightSnap *s = op_snaps(j, op);
        if (!s) continue;
        json_t *o = hk ? hot_keys(j, op, s, threshold) : ld ? late_data(j, op, s) : sw ? slow_windows(j, op, s)
                    : wm ? watermarks(j, op, s, lag_threshold) : sk ? slow_keys(j, op, s, threshold)
                    : state_growth(j, op, s);
        if (o) json_array_append_new(ops, o);
        free(s);
    }
    char vid[33];
    wjobgraph_vertex_id(j->id, v, vid);
    *out = json_pack("{s:s, s:s, s:s, s:s, s:b, s:o}", "jid", j->id, "vertex_id", vid, "vertex", vx->name, "job_state",
                     wjob_state_name(j->state), "enabled", wopts_get(&j->config, "weir.insight.enabled") == NULL ||
                     strcasecmp(wopts_get(&j->config, "weir.insight.enabled"), "false") != 0, "operators", ops);
    if (hk) json_object_set_new(*out, "threshold", json_real(threshold));
    if (sg) json_object_set_new(*out, "input", json_string(j->unbounded ? "unbounded" : "bounded"));
    if (sk) json_object_set_new(*out, "share_threshold", json_real(threshold));
    if (sw || sk) json_object_set_new(*out, "threshold_ms", json_integer(winsight_slow_threshold_ms(&j->config, NULL)));
    if (wm) json_object_set_new(*out, "threshold_ms", json_integer(lag_threshold));
    return 200;
}
