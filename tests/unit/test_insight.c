/* test_insight.c — unit tests for the insight readings (src/exec/insight_report.c): the hot-key
   verdict, the state-growth forecast and the lateness histogram. */
#include "unit.h"
#include "../../src/exec/insight.h"

#include <stdio.h>
#include <string.h>

static void put_key(WInsightSnap *s, const char *label, uint64_t hash, int64_t count)
{
    s->keyed = true;
    bool entered;
    int slot = whh_add(&s->hh, hash, count, &entered);
    snprintf(s->hh.label[slot], WHH_LABEL, "%s", label);
}

/* Keys of two subtasks are merged by count; the share is over both subtasks' sampled rows. */
WTEST(insight_hot_key_over_subtasks)
{
    WInsightSnap s[2] = {0};
    put_key(&s[0], "a", 1, 10);
    put_key(&s[0], "b", 2, 10);
    put_key(&s[1], "hot", 3, 120);
    put_key(&s[1], "c", 4, 60);
    WHotKey top[4];
    int64_t sampled;
    int n = winsight_top_keys(s, 2, top, 4, &sampled);
    CHECK_INT(n, 4);
    CHECK_INT(sampled, 200);
    CHECK_STR(top[0].e.label, "hot");
    CHECK_INT(top[0].subtask, 1);
    CHECK(top[0].share > 0.59 && top[0].share < 0.61);
    CHECK(winsight_is_hot(top, n, sampled, 0.2));
    CHECK(!winsight_is_hot(top, n, sampled, 0.7));          /* under the threshold */
    top[1].share = 0.4;                                     /* not twice the next key */
    CHECK(!winsight_is_hot(top, n, sampled, 0.2));
    CHECK(!winsight_is_hot(top, n, 50, 0.2));               /* too few rows sampled */
    bool applied;
    winsight_remedy("GlobalGroupAggregate[5]", &applied);
    CHECK(applied);
    CHECK(strstr(winsight_remedy("GroupAggregate[3]", &applied), "TWO_PHASE") && !applied);
    CHECK(strstr(winsight_remedy("Join[4]", &applied), "salt") && !applied);
}

/* Steady state = new keys/s x TTL; no TTL on an unbounded input = unbounded; ended = final. */
WTEST(insight_state_forecast)
{
    WInsightSnap s[2] = {0};
    for (int i = 0; i < 2; i++) {
        s[i].nstates = 2;
        s[i].states[0] = (WInsightState){.name = "groupAggregateState", .ttl_ms = 60000, .entries = 100,
                                         .bytes = 4000, .new_per_s = 25, .rates_known = true};
        s[i].states[1] = (WInsightState){.name = "leftState", .ttl_ms = 0, .entries = 10, .bytes = 100,
                                         .new_per_s = 5, .rates_known = true};
    }
    WStateGrowth g[4];
    int n = winsight_state_growth(s, 2, true, false, g, 4);
    CHECK_INT(n, 2);
    CHECK_STR(g[0].verdict, "bounded by TTL");
    CHECK_INT(g[0].s.entries, 200);
    CHECK_INT(g[0].steady_entries, 3000);                   /* 50 keys/s x 60 s */
    CHECK_INT(g[0].steady_bytes, 3000 * 40);
    CHECK_STR(g[1].verdict, "unbounded");
    CHECK_INT(g[1].steady_entries, -1);
    n = winsight_state_growth(s, 2, false, false, g, 4);
    CHECK_STR(g[1].verdict, "input ended");
    CHECK_INT(g[1].steady_entries, 20);
    s[0].states[0].rates_known = false;
    winsight_state_growth(s, 2, true, false, g, 4);
    CHECK_STR(g[0].verdict, "measuring");
}

/* log2 buckets of lateness; quantiles are bucket upper bounds capped by the maximum. */
WTEST(insight_lateness_histogram)
{
    CHECK_INT(winsight_late_bucket(0), 0);
    CHECK_INT(winsight_late_bucket(1), 1);
    CHECK_INT(winsight_late_bucket(1000), 10);
    CHECK_INT(winsight_bucket_floor(10), 512);
    CHECK_INT(winsight_late_bucket(INT64_MAX), WINS_LATE_BUCKETS - 1);
    WInsightSnap a = {0}, b = {0}, sum;
    a.late_total = 3; a.late_hist[winsight_late_bucket(5)] = 3; a.late_max_ms = 5;
    b.late_total = 1; b.late_hist[winsight_late_bucket(100000)] = 1; b.late_max_ms = 100000;
    snprintf(b.samples[0], WINS_SAMPLE_LEN, "late by 100000 ms: x");
    b.nsamples = 1;
    WInsightSnap both[2] = {a, b};
    winsight_late_sum(both, 2, &sum);
    CHECK_INT(sum.late_total, 4);
    CHECK_INT(sum.late_max_ms, 100000);
    CHECK_INT(sum.nsamples, 1);
    CHECK_INT(winsight_late_quantile(&sum, 0.5), 7);        /* 5 ms lies in [4, 7] */
    CHECK_INT(winsight_late_quantile(&sum, 1.0), 100000);
}

/* weir.insight.slow-threshold: a duration (default 1 min); the slow firings of subtasks sum. */
WTEST(insight_slow_threshold_and_sum)
{
    WOptions o;
    wopts_init(&o);
    WError err;
    werr_clear(&err);
    CHECK_INT(winsight_slow_threshold_ms(&o, &err), 60000);
    wopts_set(&o, "weir.insight.slow-threshold", "250 ms");
    CHECK_INT(winsight_slow_threshold_ms(&o, &err), 250);
    wopts_set(&o, "weir.insight.slow-threshold", "soon");
    CHECK_INT(winsight_slow_threshold_ms(&o, &err), -1);
    CHECK(err.set && strstr(err.msg, "'weir.insight.slow-threshold'"));
    werr_clear(&err);
    CHECK(winsight_new(&o, &err) == NULL && err.set);       /* a job with the bad value fails */
    wopts_free(&o);
    WInsightSnap s[2] = {0}, sum;
    s[0].slow_total = 2;
    s[0].slow_max_ms = 150;
    s[0].slow_max_rows = 10;
    s[0].nslow = 1;
    snprintf(s[0].slow[0], WINS_SAMPLE_LEN, "150 ms, 10 rows: a");
    s[1].slow_total = 1;
    s[1].slow_max_ms = 900;
    s[1].slow_max_rows = 5000;
    s[1].nslow = 1;
    snprintf(s[1].slow[0], WINS_SAMPLE_LEN, "900 ms, 5000 rows: b");
    winsight_slow_sum(s, 2, &sum);
    CHECK_INT(sum.slow_total, 3);
    CHECK_INT(sum.slow_max_ms, 900);
    CHECK_INT(sum.slow_max_rows, 5000);
    CHECK_INT(sum.nslow, 2);
    CHECK_STR(sum.slow[1], "900 ms, 5000 rows: b");
}

static void put_split(WInsightSnap *s, const char *name, int64_t wm, int64_t max_lag, bool idle, bool finished)
{
    s->wm_assigner = true;
    WInsightSplit *x = &s->splits[s->nsplits++];
    snprintf(x->name, sizeof x->name, "%s", name);
    x->wm = wm;
    x->max_lag_ms = max_lag;
    x->idle = idle;
    x->finished = finished;
    s->nsplits_total = s->nsplits;
}

/* Watermark lag per split over subtasks: the leading watermark is the largest of the splits not
   idle (finished ones included); a split's lag is its distance behind it (none when it has no
   watermark yet, is idle or finished); the most behind (now or during the run) comes first. */
WTEST(insight_split_lags)
{
    WInsightSnap s[2] = {0};
    put_split(&s[0], "t-0", 100000, 0, false, false);
    put_split(&s[0], "t-1", INT64_MIN, 0, false, false);        /* no row yet */
    put_split(&s[0], "t-2", 400000, 0, true, false);            /* idle: not leading, no lag */
    put_split(&s[1], "t-3", 160000, 5000, false, true);         /* finished: leads, no lag now */
    put_split(&s[1], "t-4", 150000, 90000, false, false);
    WSplitLag out[8];
    int64_t lead;
    int n = winsight_split_lags(s, 2, out, 8, &lead);
    CHECK_INT(n, 5);
    CHECK_INT(lead, 160000);
    CHECK_STR(out[0].s.name, "t-4");            /* 10 s behind now, 90 s during the run */
    CHECK_INT(out[0].subtask, 1);
    CHECK_INT(out[0].lag_ms, 10000);
    CHECK_INT(out[0].worst_ms, 90000);
    CHECK_STR(out[1].s.name, "t-0");
    CHECK_INT(out[1].lag_ms, 60000);
    CHECK_STR(out[2].s.name, "t-3");
    CHECK_INT(out[2].lag_ms, -1);
    CHECK_INT(out[2].worst_ms, 5000);
    CHECK_INT(out[3].lag_ms, -1);               /* t-1 and t-2: no lag */
    CHECK_INT(out[4].lag_ms, -1);
    CHECK_INT(winsight_split_lags(s, 2, out, 2, &lead), 2);
    WInsightSnap none[1] = {0};
    CHECK_INT(winsight_split_lags(none, 1, out, 8, &lead), 0);
    CHECK(lead == INT64_MIN);
    WOptions o;
    wopts_init(&o);
    WError err;
    werr_clear(&err);
    CHECK_INT(winsight_lag_threshold_ms(&o, &err), 60000);
    wopts_set(&o, "weir.insight.watermark-lag-threshold", "10 min");
    CHECK_INT(winsight_lag_threshold_ms(&o, &err), 600000);
    wopts_set(&o, "weir.insight.watermark-lag-threshold", "-");
    CHECK(winsight_new(&o, &err) == NULL && err.set && strstr(err.msg, "'weir.insight.watermark-lag-threshold'"));
    wopts_free(&o);
}

/* Slow keys: work (rows scanned) by key over subtasks, shares of all work (small rows included),
   and the slow rows of subtasks summed. */
WTEST(insight_slow_keys_work)
{
    WInsightSnap s[2] = {0}, sum;
    for (int i = 0; i < 2; i++) {
        whh_init(&s[i].hh);
        whh_init(&s[i].work);
        s[i].work_fed = true;
    }
    bool entered;
    int slot = whh_add(&s[0].work, 7, 9000, &entered);
    snprintf(s[0].work.label[slot], WHH_LABEL, "big");
    slot = whh_add(&s[1].work, 8, 500, &entered);
    snprintf(s[1].work.label[slot], WHH_LABEL, "mid");
    s[0].work_total = 9400;                     /* 400 rows scanned by rows under WINS_WORK_MIN */
    s[1].work_total = 600;
    WHotKey top[4];
    int64_t total;
    int n = winsight_top_work(s, 2, top, 4, &total);
    CHECK_INT(n, 2);
    CHECK_INT(total, 10000);
    CHECK_STR(top[0].e.label, "big");
    CHECK_INT(top[0].subtask, 0);
    CHECK(top[0].share > 0.899 && top[0].share < 0.901);
    CHECK(winsight_is_hot(top, n, total, 0.2));
    s[1].slowkey_total = 3;
    s[1].slowkey_max_ms = 70;
    s[1].slowkey_max_rows = 9000;
    s[1].nslowkey = 1;
    snprintf(s[1].slowkey[0], WINS_SAMPLE_LEN, "70 ms, 9000 rows scanned: big");
    winsight_slowkey_sum(s, 2, &sum);
    CHECK(sum.work_fed);
    CHECK_INT(sum.work_total, 10000);
    CHECK_INT(sum.slowkey_total, 3);
    CHECK_INT(sum.slowkey_max_rows, 9000);
    CHECK_STR(sum.slowkey[0], "70 ms, 9000 rows scanned: big");
    CHECK_INT(winsight_top_keys(s, 2, top, 4, &total), 0);    /* the records sketch is separate */
}

/* Rows behind the watermark by origin: merged by name over subtasks and over several
   WatermarkAssigners (a second call adds to the first's list), most rows first, the largest
   lateness kept, bounded by max. */
WTEST(insight_origins_merge)
{
    WInsightSnap s[2];
    memset(s, 0, sizeof s);
    s[0].norigins = 2;
    s[0].origins[0] = (WInsightOrigin){"file /x/b.csv", 5, 4000};
    s[0].origins[1] = (WInsightOrigin){"file /x/a.csv", 1, 10};
    s[1].norigins = 1;
    s[1].origins[0] = (WInsightOrigin){"file /x/a.csv", 7, 20};
    WInsightOrigin out[3];
    int n = winsight_origin_sum(s, 2, out, 0, 3);
    CHECK_INT(n, 2);
    CHECK_STR(out[0].name, "file /x/a.csv");
    CHECK_INT(out[0].behind, 8);
    CHECK_INT(out[0].behind_max_ms, 20);
    CHECK_STR(out[1].name, "file /x/b.csv");
    CHECK_INT(out[1].behind, 5);
    /* a second assigner: its split is added, the list stays bounded */
    WInsightSnap t;
    memset(&t, 0, sizeof t);
    t.norigins = 2;
    t.origins[0] = (WInsightOrigin){"split t-3", 9, 1};
    t.origins[1] = (WInsightOrigin){"split t-4", 1, 1};
    n = winsight_origin_sum(&t, 1, out, n, 3);
    CHECK_INT(n, 3);
    CHECK_STR(out[0].name, "split t-3");
    CHECK_STR(out[1].name, "file /x/a.csv");
    CHECK_STR(out[2].name, "file /x/b.csv");
}

/* The slow-key remedy follows the operator: a join's salting, Top-N's buffer, OVER's frame, a
   GROUP BY's rescans; none is applied by Flink. */
WTEST(insight_slow_remedy)
{
    CHECK(strstr(winsight_slow_remedy("Join[4]"), "salt") != NULL);
    CHECK(strstr(winsight_slow_remedy("Rank[3]"), "top-N buffer") != NULL);
    CHECK(strstr(winsight_slow_remedy("OverAggregate[4]"), "frame") != NULL);
    CHECK(strstr(winsight_slow_remedy("GroupAggregate[6]"), "rescan") != NULL);
}

/* A hash exchange's senders: a key sent by both senders is one key (counts summed), listed with
   its receiving subtask; the sampled rows per receiving subtask add up over the senders; a
   snapshot that is no exchange's is skipped. */
WTEST(insight_exchange_keys_over_senders)
{
    WInsightSnap s[3] = {0};
    for (int i = 0; i < 2; i++) {
        s[i].exchange = true;
        s[i].nrecv = 2;
    }
    bool entered;
    int slot = whh_add(&s[0].xhh, 7, 40, &entered);
    snprintf(s[0].xhh.label[slot], WHH_LABEL, "hot");
    s[0].xto[slot] = 1;
    slot = whh_add(&s[0].xhh, 8, 10, &entered);
    snprintf(s[0].xhh.label[slot], WHH_LABEL, "a");
    s[0].xto[slot] = 0;
    slot = whh_add(&s[1].xhh, 7, 30, &entered);        /* no label in this sender's sketch yet */
    s[1].xto[slot] = 1;
    slot = whh_add(&s[1].xhh, 9, 20, &entered);
    snprintf(s[1].xhh.label[slot], WHH_LABEL, "b");
    s[1].xto[slot] = 0;
    s[0].xrows_to[0] = 10; s[0].xrows_to[1] = 40;
    s[1].xrows_to[0] = 20; s[1].xrows_to[1] = 30;
    put_key(&s[2], "not an exchange", 7, 1000);       /* a keyed operator's sketch: not counted */
    WHotKey top[4];
    int64_t sampled, per_recv[4];
    int n = winsight_top_exchange(s, 3, top, 4, &sampled, per_recv, 4);
    CHECK_INT(n, 3);
    CHECK_INT(sampled, 100);
    CHECK_STR(top[0].e.label, "hot");
    CHECK_INT(top[0].e.count, 70);
    CHECK_INT(top[0].subtask, 1);
    CHECK(top[0].share > 0.69 && top[0].share < 0.71);
    CHECK_STR(top[1].e.label, "b");
    CHECK_INT(top[1].subtask, 0);
    CHECK_INT(per_recv[0], 30);
    CHECK_INT(per_recv[1], 70);
    CHECK_INT(per_recv[2], 0);
    CHECK(winsight_is_hot(top, n, sampled, 0.2));
    WInsightSnap none[1] = {0};
    CHECK_INT(winsight_top_exchange(none, 1, top, 4, &sampled, NULL, 0), 0);
    CHECK_INT(sampled, 0);
}
