/*
 * job_insight.c — the insight lines of the job report (`-v`): a dominant hot key with its remedy,
 * late rows with their lateness, a sample and the origins (splits, files) of the rows that came
 * behind the watermark, slow window firings, slow keys (a key that makes a join, GROUP BY, Top-N
 * or OVER aggregation read most of the state rows it reads; single rows slower than the
 * threshold), a source split whose watermark lags the others, the rows behind a
 * WatermarkAssigner's watermark by origin, and states that grow without bound (exec/insight.h).
 * Lines are printed only when there is something to act on, so a healthy job's report is
 * unchanged.
 */
#include "job_internal.h"
#include "../common/duration.h"
#include "../exec/insight.h"

#include <stdlib.h>
#include <string.h>

bool wjob_unbounded(const WJob *j)
{
    for (int l = 0; j && l < j->nlanes; l++)
        for (int i = 0; i < j->lanes[l].nsrc; i++)
            if (j->lanes[l].srcs[i].src && !j->lanes[l].srcs[i].src->bounded) return true;
    return false;
}

double wjob_hot_key_threshold(const WOptions *config)
{
    const char *v = config ? wopts_get(config, "weir.insight.hot-key-share") : NULL;
    if (!v) return 0.2;
    char *end;
    double d = strtod(v, &end);
    return end != v && *end == 0 && d > 0 && d <= 1 ? d : 0.2;
}

/* "; N from <origin>, ..." (or "; all from <origin>") of the rows behind the watermark of the
   given snapshots (one operator's subtasks); for every WatermarkAssigner of the job when snaps is
   NULL, led by "; N rows came behind the watermark at the source". */
static void origins_text(const WJob *j, const WInsightSnap *snaps, WStrBuf *out)
{
    WInsightOrigin org[WINS_ORIGINS];
    int no = 0;
    int64_t behind = 0;
    WInsightSnap *tmp = snaps ? NULL : wcalloc((size_t)j->nlanes, sizeof *tmp);
    for (int i = 0; i < (snaps ? 1 : j->lanes[0].nbuilt); i++) {
        const WInsightSnap *x = snaps;
        if (!snaps) {
            bool any = false;
            for (int l = 0; l < j->nlanes; l++) {
                memset(&tmp[l], 0, sizeof tmp[l]);
                any |= winsight_read(j->lanes[l].built[i].op, &tmp[l]);
            }
            if (!any) continue;
            x = tmp;
        }
        for (int l = 0; l < j->nlanes; l++) behind += x[l].behind_total;
        no = winsight_origin_sum(x, j->nlanes, org, no, WINS_ORIGINS);
    }
    free(tmp);
    if (!behind) return;
    if (!snaps) wsb_printf(out, "; %lld rows came behind the watermark at the source", (long long)behind);
    if (no == 1 && org[0].behind == behind && org[0].name[0]) {
        wsb_printf(out, "; all from %s", org[0].name);
        return;
    }
    for (int k = 0; k < no && k < 4; k++)
        wsb_printf(out, "%s%lld from %s", k ? ", " : "; ", (long long)org[k].behind,
                   org[k].name[0] ? org[k].name : "an unnamed origin");
}

/* A hot key at the hash exchange into input `input` of node i, as its senders saw it (the rows
   they sent, by the routing hash): the key, its share and the receiving subtask. */
static void report_exchange(const WJob *j, int i, int input, const char *name, WStrBuf *out)
{
    WInsightSnap *x = wcalloc((size_t)j->nlanes, sizeof *x);
    bool any = false;
    for (int l = 0; l < j->nlanes; l++) {
        const WOperator *snd = wjob_node_input_sender(j, i, input, l);
        any |= snd && winsight_read(snd, &x[l]);
    }
    WHotKey top[2];
    int64_t sampled = 0;
    int n = any ? winsight_top_exchange(x, j->nlanes, top, 2, &sampled, NULL, 0) : 0;
    if (winsight_is_hot(top, n, sampled, wjob_hot_key_threshold(j->env.config)))
        wsb_printf(out, "  hot key at the hash exchange into %s%s: %s has %.0f%% of the rows sent, all to subtask %d\n",
                   name, input ? " (input 1)" : "", top[0].e.label, top[0].share * 100, top[0].subtask);
    free(x);
}

static void report_op(const WJob *j, int i, WStrBuf *out)
{
    WInsightSnap *snaps = wcalloc((size_t)j->nlanes, sizeof *snaps);
    bool any = false;
    for (int l = 0; l < j->nlanes; l++) any |= winsight_read(j->lanes[l].built[i].op, &snaps[l]);
    const char *name = j->lanes[0].built[i].op->name;
    if (any) {
        WHotKey top[2];
        int64_t sampled = 0;
        int n = winsight_top_keys(snaps, j->nlanes, top, 2, &sampled);
        if (winsight_is_hot(top, n, sampled, wjob_hot_key_threshold(j->env.config))) {
            bool applied;
            const char *remedy = winsight_remedy(name, &applied);
            wsb_printf(out, "  hot key: %s has %.0f%% of %s's rows (subtask %d); remedy: %s\n", top[0].e.label,
                       top[0].share * 100, name, top[0].subtask, remedy);
        }
        for (int in = 0; in < WINS_INPUTS; in++) report_exchange(j, i, in, name, out);
        WHotKey bt[2];
        int64_t bytes = 0;
        int nb = winsight_top_bytes(snaps, j->nlanes, bt, 2, &bytes);
        if (bytes > 0 && winsight_is_hot(bt, nb, bytes, wjob_hot_key_threshold(j->env.config)))
            wsb_printf(out, "  hot key by state: %s holds %.0f%% of %s's state bytes (%lld of %lld, subtask %d)\n",
                       bt[0].e.label, bt[0].share * 100, name, (long long)bt[0].e.count, (long long)bytes, bt[0].subtask);
        WInsightSnap late;
        winsight_late_sum(snaps, j->nlanes, &late);
        if (late.late_total) {
            wsb_printf(out, "  late rows dropped: %lld", (long long)late.late_total);
            if (late.late_by_input[1]) wsb_printf(out, " (input 0: %lld, input 1: %lld)", (long long)late.late_by_input[0],
                                                  (long long)late.late_by_input[1]);
            if (j->nlanes > 1) {
                wsb_append(out, " by subtask [");
                for (int l = 0; l < j->nlanes; l++) wsb_printf(out, "%s%lld", l ? "," : "", (long long)snaps[l].late_total);
                wsb_putc(out, ']');
            }
            wsb_printf(out, ", late by up to %lld ms (median <= %lld ms); first: %s", (long long)late.late_max_ms,
                       (long long)winsight_late_quantile(&late, 0.5), late.nsamples ? late.samples[0] : "");
            /* where they came from: the rows behind the watermark at the sources, by split / file */
            origins_text(j, NULL, out);
            wsb_putc(out, '\n');
        }
        /* a WatermarkAssigner: the rows that came behind its watermark, by origin (split, file) */
        int64_t behind = 0;
        for (int l = 0; l < j->nlanes; l++) behind += snaps[l].behind_total;
        if (behind) {
            WInsightOrigin org[WINS_ORIGINS];
            int no = winsight_origin_sum(snaps, j->nlanes, org, 0, WINS_ORIGINS);
            int64_t most = 0;
            for (int k = 0; k < no; k++) if (org[k].behind_max_ms > most) most = org[k].behind_max_ms;
            wsb_printf(out, "  rows behind the watermark: %lld, up to %lld ms behind (late for the event-time operators "
                       "after it)", (long long)behind, (long long)most);
            origins_text(j, snaps, out);
            wsb_putc(out, '\n');
        }
        WInsightSnap slow;
        winsight_slow_sum(snaps, j->nlanes, &slow);
        if (slow.slow_total)
            wsb_printf(out, "  slow window firings: %lld over %lld ms, the slowest %lld ms, up to %lld rows in a window; "
                       "first: %s\n", (long long)slow.slow_total, (long long)winsight_slow_threshold_ms(j->env.config, NULL),
                       (long long)slow.slow_max_ms, (long long)slow.slow_max_rows, slow.nslow ? slow.slow[0] : "");
        WInsightSnap sk;
        winsight_slowkey_sum(snaps, j->nlanes, &sk);
        if (sk.work_fed) {
            WHotKey wt[2];
            int64_t work = 0;
            int nw = winsight_top_work(snaps, j->nlanes, wt, 2, &work);
            if (winsight_is_hot(wt, nw, work, wjob_hot_key_threshold(j->env.config)))
                wsb_printf(out, "  slow key: %s made %s scan %.0f%% of the %lld state rows it scanned (subtask %d); "
                           "remedy: %s\n", wt[0].e.label, name, wt[0].share * 100, (long long)work, wt[0].subtask,
                           winsight_slow_remedy(name));
        }
        if (sk.slowkey_total)
            wsb_printf(out, "  slow rows: %lld over %lld ms, the slowest %lld ms, up to %lld state rows scanned for one row; "
                       "first: %s\n", (long long)sk.slowkey_total, (long long)winsight_slow_threshold_ms(j->env.config, NULL),
                       (long long)sk.slowkey_max_ms, (long long)sk.slowkey_max_rows, sk.nslowkey ? sk.slowkey[0] : "");
        WSplitLag lag;
        if (winsight_lagging_split(snaps, j->nlanes, winsight_lag_threshold_ms(j->env.config, NULL), &lag)) {
            if (lag.s.name[0]) wsb_printf(out, "  watermark lag: split %s (subtask %d)", lag.s.name, lag.subtask);
            else wsb_printf(out, "  watermark lag: subtask %d", lag.subtask);
            bool now = lag.lag_ms == lag.worst_ms;
            wsb_printf(out, " %s %lld ms behind the leading watermark of %s (%lld rows); it %s the watermark "
                       "back, so windows %s late\n", now ? "is" : "was up to", (long long)lag.worst_ms, name,
                       (long long)lag.s.rows, now ? "holds" : "held", now ? "fire" : "fired");
        }
        WStateGrowth g[WINS_STATES];
        int ng = winsight_state_growth(snaps, j->nlanes, wjob_unbounded(j), false, g, WINS_STATES);
        for (int k = 0; k < ng; k++)
            if (g[k].steady_entries < 0)
                wsb_printf(out, "  state growth: %s has no TTL and gains %.1f new keys/s on an unbounded input "
                           "(%lld entries, %lld bytes now): it grows without bound; set table.exec.state.ttl "
                           "or a STATE_TTL hint\n", g[k].s.name, g[k].s.new_per_s, (long long)g[k].s.entries,
                           (long long)g[k].s.bytes);
    }
    free(snaps);
}

void wjob_insight_report(const WJob *j, int built_index, WStrBuf *out)
{
    if (built_index >= 0 && built_index < j->lanes[0].nbuilt) report_op(j, built_index, out);
}
