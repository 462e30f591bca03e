/* insight_advice.c — PLAN_ADVICE from a running job's insight figures; see insight_advice.h. */
#include "insight_advice.h"
#include "../common/arena.h"
#include "../common/duration.h"
#include "../common/strbuf.h"
#include "../exec/insight.h"

#include <stdarg.h>
#include <stdlib.h>

static void say(void (*add)(void *, const char *, const char *), void *actx, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void say(void (*add)(void *, const char *, const char *), void *actx, const char *kind, const char *fmt, ...)
{
    WStrBuf sb;
    wsb_init(&sb);
    va_list ap;
    va_start(ap, fmt);
    wsb_vprintf(&sb, fmt, ap);
    va_end(ap);
    add(actx, kind, sb.buf ? sb.buf : "");
    wsb_free(&sb);
}

static void advise_op(const WRegJob *j, int op, const WInsightSnap *s, void (*add)(void *, const char *, const char *),
                      void *actx)
{
    const char *name = j->graph->ops[op].name;
    int n = j->nlanes;
    double share = wjob_hot_key_threshold(&j->config);
    WHotKey top[2];
    int64_t total = 0;
    int k = winsight_top_keys(s, n, top, 2, &total);
    if (winsight_is_hot(top, k, total, share)) {
        bool applied;
        const char *remedy = winsight_remedy(name, &applied);
        say(add, actx, "WARNING", "Job %s: key %s has %.0f%% of the rows of %s (subtask %d); remedy: %s", j->id,
            top[0].e.label, top[0].share * 100, name, top[0].subtask, remedy);
    }
    k = winsight_top_bytes(s, n, top, 2, &total);
    if (total > 0 && winsight_is_hot(top, k, total, share))
        say(add, actx, "WARNING", "Job %s: key %s holds %.0f%% of the state bytes of %s (subtask %d).", j->id,
            top[0].e.label, top[0].share * 100, name, top[0].subtask);
    k = winsight_top_work(s, n, top, 2, &total);
    if (winsight_is_hot(top, k, total, share))
        say(add, actx, "WARNING", "Job %s: key %s made %s scan %.0f%% of the state rows it scanned (subtask %d); "
            "remedy: %s", j->id, top[0].e.label, name, top[0].share * 100, top[0].subtask, winsight_slow_remedy(name));
    WInsightSnap sum;
    winsight_late_sum(s, n, &sum);
    if (sum.late_total)
        say(add, actx, "WARNING", "Job %s: %s dropped %lld late rows, late by up to %lld ms (median <= %lld ms); first: %s",
            j->id, name, (long long)sum.late_total, (long long)sum.late_max_ms,
            (long long)winsight_late_quantile(&sum, 0.5), sum.nsamples ? sum.samples[0] : "");
    winsight_slow_sum(s, n, &sum);
    if (sum.slow_total)
        say(add, actx, "WARNING", "Job %s: %lld window firings of %s took over %lld ms (the slowest %lld ms, up to %lld "
            "rows in a window).", j->id, (long long)sum.slow_total, name,
            (long long)winsight_slow_threshold_ms(&j->config, NULL), (long long)sum.slow_max_ms,
            (long long)sum.slow_max_rows);
    WSplitLag lag;
    if (winsight_lagging_split(s, n, winsight_lag_threshold_ms(&j->config, NULL), &lag))
        say(add, actx, "WARNING", "Job %s: %s%s (subtask %d) of %s %s %lld ms behind the leading watermark; it holds "
            "the watermark back.", j->id, lag.s.name[0] ? "split " : "the input", lag.s.name, lag.subtask, name,
            lag.lag_ms == lag.worst_ms ? "is" : "was up to", (long long)lag.worst_ms);
    WStateGrowth g[WINS_STATES];
    int ng = winsight_state_growth(s, n, j->unbounded, wjob_state_terminal(j->state), g, WINS_STATES);
    for (int i = 0; i < ng; i++) {
        if (g[i].steady_entries < 0) {
            say(add, actx, "WARNING", "Job %s: state %s of %s has no TTL and gains %.1f new keys/s on an unbounded input "
                "(%lld entries, %lld bytes now): it grows without bound; set 'table.exec.state.ttl' or a STATE_TTL hint.",
                j->id, g[i].s.name, name, g[i].s.new_per_s, (long long)g[i].s.entries, (long long)g[i].s.bytes);
        } else if (g[i].s.ttl_ms > 0 && g[i].s.rates_known && !wjob_state_terminal(j->state)) {
            char ttl[64];
            wduration_format(g[i].s.ttl_ms, ttl, sizeof ttl);
            say(add, actx, "ADVICE", "Job %s: state %s of %s gains %.1f new keys/s; with its TTL of %s it levels off at "
                "about %lld entries (%lld bytes).", j->id, g[i].s.name, name, g[i].s.new_per_s, ttl,
                (long long)g[i].steady_entries, (long long)g[i].steady_bytes);
        }
    }
}

void winsight_advice(const WRegJob *j, int node_id, void (*add)(void *actx, const char *kind, const char *text),
                     void *actx)
{
    if (!j->graph || node_id <= 0) return;
    WInsightSnap *s = wcalloc((size_t)(j->nlanes > 0 ? j->nlanes : 1), sizeof *s);
    for (int op = 0; op < j->graph->nops; op++) {
        if (j->graph->ops[op].rel_id != node_id) continue;
        bool any = false;
        for (int l = 0; l < j->nlanes; l++) any |= wregistry_op_insight(j, op, l, &s[l]);
        if (any) advise_op(j, op, s, add, actx);
    }
    free(s);
}
