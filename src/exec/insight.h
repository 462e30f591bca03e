/*
 * insight.h — what a running operator can say about itself beyond Flink's metrics: its hot keys,
 * the rows it dropped as late, and how its state grows (issue 21; docs/insight.md).
 *
 * Also: slow keys (the state rows a keyed operator reads per key: wop_key_work), and a
 * WatermarkAssigner's rows behind its watermark by origin (WInsightOrigin).
 *
 * Contract: an operator gets a WInsight at wop_init unless `weir.insight.enabled` is false. Only
 * the thread running the operator writes it: the framework feeds every sampled row of a keyed
 * input (an input behind a hash exchange: wop_insight_keys) into a Space-Saving sketch
 * (common/heavy_hitters.h) by key hash with a bounded printable key; operators report each late
 * row they drop with its lateness (wop_late_row); the lane publishes a copy (WInsightSnap) every
 * 100 ms together with the typed metrics, computing per-state new-key and expiry rates from the
 * backends the operator registered (state/state.h WStateStats.created / expired). Any thread
 * reads the last published copy with winsight_read. Depends on operator.h, common/, types/.
 */
#ifndef WEIR_EXEC_INSIGHT_H
#define WEIR_EXEC_INSIGHT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "../common/error.h"
#include "../common/heavy_hitters.h"
#include "../common/options.h"
#include "../state/state.h"

#define WINS_SAMPLE_EVERY 16        /* one row in 16 of a keyed input goes into the sketch */
#define WINS_LATE_BUCKETS 48        /* bucket 0: late by 0 ms; bucket b: [2^(b-1), 2^b) ms */
#define WINS_LATE_SAMPLES 8
#define WINS_SAMPLE_LEN 200
#define WINS_INPUTS 2
#define WINS_STATES 6
#define WINS_NAME 48
#define WINS_SLOW_SAMPLES 8
#define WINS_KEY_BYTES 128          /* a state key's bytes kept per sketch slot during a pass */
#define WINS_SCAN_BUDGET 4096       /* state entries walked per publication (every 100 ms) */
#define WINS_SCAN_PER_ROWS 128       /* and at most one per this many input rows since the last one */
#define WINS_SCAN_FLOOR 64           /* plus this many */
#define WINS_PUBLISH_ROWS 32768    /* input rows between publications (else WINS_PUBLISH_MAX_MS) */
#define WINS_PUBLISH_MAX_MS 1000
#define WINS_FINAL_SCAN_BUDGET 65536 /* the whole pass once the input ended, up to this many */
#define WINS_WORK_MIN 16            /* a row's work below this many rows scanned only adds to work_total */
#define WINS_SPLITS 32              /* watermark splits described per WatermarkAssigner subtask */
#define WINS_SPLIT_NAME 48
#define WINS_ORIGINS 16             /* origins (splits, files) with rows behind the watermark described */
#define WINS_ORIGIN_NAME 96
#define WINS_RECV 64                /* receiving subtasks a hash exchange's sender counts rows for */

typedef struct WInsightState {
    char name[WINS_NAME];
    int64_t ttl_ms;
    int64_t entries, bytes;
    int64_t created, expired;       /* since the start; -1 = the backend does not count them */
    double new_per_s, expired_per_s;/* over the last rate window (>= 1 s) */
    bool rates_known;               /* a rate window has passed */
} WInsightState;

/* One split's watermark at a WatermarkAssigner (a Kafka partition when the source generates
   watermarks per split; else the subtask's whole input, name ""). */
typedef struct WInsightSplit {
    char name[WINS_SPLIT_NAME];     /* Flink's split id: "<topic>-<partition>" */
    int64_t wm;                     /* its watermark (WWM_MIN: no row yet) */
    int64_t rows;                   /* rows it gave */
    int64_t max_lag_ms;             /* the most it was behind the leading split of this subtask (while
                                       both were active); 0 with one split */
    bool idle, finished;
} WInsightSplit;

/* Rows that reached a WatermarkAssigner at or behind the watermark it had already emitted (rowtime
   <= watermark: late for every event-time operator after it, unless a window still open takes
   them), by their origin: the source's split (a Kafka partition) or file, as the source names it;
   name "" when the source does not say. */
typedef struct WInsightOrigin {
    char name[WINS_ORIGIN_NAME];
    int64_t behind;                 /* rows */
    int64_t behind_max_ms;          /* the most one was behind */
} WInsightOrigin;

/* The published picture of one operator instance (one subtask): a plain copyable value. */
typedef struct WInsightSnap {
    bool keyed;                     /* some input is keyed: the sketch is fed */
    int sample_every;               /* sketch counts are rows / sample_every */
    WHeavyHitters hh;
    int64_t late_total;
    int64_t late_by_input[WINS_INPUTS];
    int64_t late_hist[WINS_LATE_BUCKETS];
    int64_t late_hist_by_input[WINS_INPUTS][WINS_LATE_BUCKETS];   /* the same histogram per input */
    int64_t late_max_ms;
    int nsamples;                   /* the first WINS_LATE_SAMPLES dropped rows */
    char samples[WINS_LATE_SAMPLES][WINS_SAMPLE_LEN];
    int nstates;
    WInsightState states[WINS_STATES];
    int64_t elapsed_ms;             /* since the operator's first publication */
    /* window firings slower than weir.insight.slow-threshold (wop_firing_end) */
    int64_t slow_total, slow_max_ms, slow_max_rows;
    int nslow;                      /* the first WINS_SLOW_SAMPLES ones */
    char slow[WINS_SLOW_SAMPLES][WINS_SAMPLE_LEN];
    /* slow keys of non-windowed operators (wop_key_work / wop_key_slow_end): keys by the state
       rows their input rows made the operator scan (a join's candidates), and single rows whose
       work took longer than weir.insight.slow-threshold */
    bool work_fed;
    int64_t work_total;             /* rows scanned for all input rows */
    WHeavyHitters work;             /* keys by rows scanned (rows of >= WINS_WORK_MIN only) */
    int64_t slowkey_total, slowkey_max_ms, slowkey_max_rows;
    int nslowkey;
    char slowkey[WINS_SLOW_SAMPLES][WINS_SAMPLE_LEN];
    /* hot keys by state bytes: the last complete pass over the operator's heap state (a sketch of
       keys weighted by the bytes they hold; bytes_known false until the first pass ended) */
    bool bytes_known;
    int64_t bytes_total;
    WHeavyHitters bytes;
    /* a WatermarkAssigner's splits (issue 21 item 3: watermark lag per split / partition) */
    bool wm_assigner;
    int nsplits;                    /* described; nsplits_total may be larger */
    int nsplits_total;
    WInsightSplit splits[WINS_SPLITS];
    /* a WatermarkAssigner's rows behind the watermark, by origin (most first) */
    int64_t behind_total;
    int norigins;
    WInsightOrigin origins[WINS_ORIGINS];
    /* a hash exchange's sender (issue 21 item 1: the keys by records it sends; from the hash the
       exchange computes for routing, one row in WINS_SAMPLE_EVERY): each slot's receiving subtask
       and the sampled rows per receiving subtask */
    bool exchange;
    int nrecv;
    WHeavyHitters xhh;
    uint16_t xto[WHH_SLOTS];
    int64_t xrows_to[WINS_RECV];
} WInsightSnap;

typedef struct WInsight {
    int nkeys[WINS_INPUTS];
    int *keys[WINS_INPUTS];
    const char *const *in_names[WINS_INPUTS]; /* each input's column names (its sender's schema) */
    int in_ncols[WINS_INPUTS];
    int skip;                       /* rows until the next sampled one */
    WInsightSnap live;
    int64_t t0_ms, rate_t_ms;       /* first publication; start of the current rate window */
    int64_t rate_created[WINS_STATES], rate_expired[WINS_STATES];
    int64_t slow_threshold_ns;      /* weir.insight.slow-threshold */
    const struct WType **key_types; /* the keyed input's key column types (state key labels) */
    int nkey_types;
    int scan_entry;                 /* the registry entry (backend) being walked */
    WStateScanCursor scan;
    WHeavyHitters bytes_pass;       /* the pass in progress */
    unsigned char pass_key[WHH_SLOTS][WINS_KEY_BYTES]; /* each slot's key bytes (labelled at the pass end) */
    uint16_t pass_key_len[WHH_SLOTS];
    int64_t bytes_pass_total;
    bool pass_once;                 /* op has one state: each key comes once per pass (whh_add_once) */
    bool final_pass_done;           /* the pass after the input ended ran */
    int64_t scan_rows_seen;         /* op->rows_in at the last step of the walk */
    int64_t pub_rows, pub_ms;       /* op->rows_in and the time at the last publication */
    pthread_mutex_t mu;
    WInsightSnap pub;
} WInsight;

struct WOperator;
struct WChunk;

/* NULL when config says weir.insight.enabled = false (an invalid value is an error in err). */
WInsight *winsight_new(const WOptions *config, WError *err);
void winsight_free(WInsight *in);
/* The key columns of input `input` (the keys of the hash exchange in front of it). */
void wop_insight_keys(struct WOperator *op, int input, int nkeys, const int *keys);
/* Framework (wop_connect): input `input` carries chunks of ncols columns with these names (the
   sender's output schema; kept by reference: the plan outlives the job), to name the columns of
   the rows insight describes (late rows). */
void winsight_input_names(struct WOperator *op, int input, int ncols, const char *const *names);
/* A hash exchange's sender (op): the rows of c it routed, hash[r] the key hash it routed row r by
   (Flink's BinaryRowData hash of its key columns keys) and target[r] the receiving subtask (of nrecv); one row in
   WINS_SAMPLE_EVERY goes into the exchange sketch (xhh, labelled lazily as the records sketch). */
void winsight_exchange_rows(struct WOperator *op, const struct WChunk *c, int nkeys, const int *keys,
                            const int32_t *hash, const int *target, int nrecv);
/* Framework: the rows of a chunk arriving on input (sampled into the sketch). */
void winsight_rows(struct WOperator *op, int input, const struct WChunk *c);
/* An operator dropped row `row` of c (input `input`) as late by lateness_ms (>= 0). */
void wop_late_row(struct WOperator *op, int input, const struct WChunk *c, int row, int64_t lateness_ms);
/* How late a row of time t is at progress `now` (watermark, window progress or last emitted
   time): now - t, saturated (a watermark of Long.MAX at the end of input, times before 1970). */
static inline int64_t winsight_lateness(int64_t now, int64_t t)
{
    int64_t d;
    if (__builtin_sub_overflow(now, t, &d)) return t < 0 ? INT64_MAX : INT64_MIN;
    return d;
}
/* Window firings (issue 21 item 2). An operator brackets the work of firing one window of one key:
   wop_firing_begin gives the start (0 without insight); wop_firing_end with the number of input
   rows the window held and the row it emitted (row `row` of c; NULL when it emitted none) counts a
   firing slower than weir.insight.slow-threshold, describes the first WINS_SLOW_SAMPLES ones
   ("<ms> ms, <rows> rows: <emitted row>") and logs each of those once to stderr with the
   operator's name. */
int64_t wop_firing_begin(const struct WOperator *op);
void wop_firing_end(struct WOperator *op, int64_t t0, int64_t rows, const struct WChunk *c, int row);
/* Slow keys (issue 21 item 2 for non-windowed operators). A keyed operator reports the state rows
   it scanned for row `row` of c arriving on input (a join's candidates of the other side): the
   work counts in the snapshot's work_total and, from WINS_WORK_MIN rows on, for the row's key in
   the work sketch (the key columns of the input's hash exchange). A row whose work the operator
   timed (wop_key_begin before it: the coarse monotonic clock, 0 without insight) ends with
   wop_key_slow_end: over weir.insight.slow-threshold it is counted, the first WINS_SLOW_SAMPLES
   described ("<ms> ms, <rows> rows scanned: <row>") and logged once to stderr. wop_key_slow_end
   returns its clock reading, the start of the next row for an operator that times every row
   (one reading per row). */
void wop_key_work(struct WOperator *op, int input, const struct WChunk *c, int row, int64_t rows);
/* The work of rows under WINS_WORK_MIN summed by the caller (a chunk's worth): work_total only. */
void wop_key_work_add(struct WOperator *op, int64_t rows);
int64_t wop_key_begin(const struct WOperator *op);
int64_t wop_key_slow_end(struct WOperator *op, int64_t t0, int64_t rows, const struct WChunk *c, int row);
/* The same for work done for a state key rather than for an input row (an OVER aggregation's
   timer firing for one partition key): key is the binary row of the keyed input's key columns (as
   the state stores it; the sketch slot is by its hash, as for keys by state bytes); the slow
   sample is "<ms> ms, <rows> rows: key <key>". */
void wop_key_work_bytes(struct WOperator *op, const void *key, size_t klen, int64_t rows);
void wop_key_slow_end_bytes(struct WOperator *op, int64_t t0, int64_t rows, const void *key, size_t klen);
/* weir.insight.slow-threshold of a configuration in ms (default 1 min; -1 and err set when invalid). */
int64_t winsight_slow_threshold_ms(const WOptions *config, WError *err);
/* weir.insight.watermark-lag-threshold in ms: a split this far behind the leading one is reported
   (default 1 min; -1 and err set when invalid). */
int64_t winsight_lag_threshold_ms(const WOptions *config, WError *err);
/* The running thread: publish a copy (rates over windows of >= 1 s of wall time now_ms). Called
   every 100 ms; unless force, a publication waits until the operator took WINS_PUBLISH_ROWS input
   rows since the last one or WINS_PUBLISH_MAX_MS passed (or its input ended), so that its cost
   follows the work done, not the wall time (on a loaded machine, or under valgrind, 100 ms of
   wall time hold little work). */
void winsight_publish(struct WOperator *op, int64_t now_ms, bool force);
/* Any thread: the last published copy; false when the operator keeps no insight. */
bool winsight_read(const struct WOperator *op, WInsightSnap *out);
/* Late-lateness histogram bucket of a lateness in ms, and the bucket's lower bound. */
int winsight_late_bucket(int64_t lateness_ms);
int64_t winsight_bucket_floor(int b);

/* ---- readings shared by the `-v` report and REST (insight_report.c) ---- */

/* A key of the merged top list: the entry, the subtask whose sketch holds it, its share of the
   operator's sampled records over all subtasks. */
typedef struct WHotKey {
    WHHEntry e;
    int subtask;
    double share;
} WHotKey;
/* The top keys over the subtasks' snapshots (snaps[s] of subtask s; keyed ones only), highest
   count first; *sampled = sampled records of all subtasks. */
int winsight_top_keys(const WInsightSnap *snaps, int nsnaps, WHotKey *out, int max, int64_t *sampled);
/* One key dominates: its share reaches threshold, it is twice the next key's, and at least
   WINS_HOT_MIN_SAMPLED records were sampled. */
#define WINS_HOT_MIN_SAMPLED 100
bool winsight_is_hot(const WHotKey *top, int n, int64_t sampled, double threshold);
/* The top keys a hash exchange's senders (snaps[s] of sending subtask s) sent, merged by key over
   the senders, subtask = the receiving subtask; *sampled = sampled rows of all senders; per_recv
   (max_recv entries, may be NULL) gets the sampled rows per receiving subtask. 0 and *sampled = 0
   when no snapshot is an exchange's. */
int winsight_top_exchange(const WInsightSnap *snaps, int nsnaps, WHotKey *out, int max, int64_t *sampled,
                          int64_t *per_recv, int max_recv);
/* The remedy Flink users know for a hot key in this operator (by its job-graph name), and whether
   the plan already applies it. */
const char *winsight_remedy(const char *op_name, bool *applied);
/* One operator state summed over subtasks (same name), with the forecast: steady-state entries
   (new keys/s x TTL) and bytes (at the current bytes per entry); -1 = unbounded (no TTL, input
   unbounded); for an ended input, the current size. */
typedef struct WStateGrowth {
    WInsightState s;
    int64_t steady_entries, steady_bytes;
    const char *verdict;            /* "bounded by TTL" | "unbounded" | "input ended" | "measuring" */
} WStateGrowth;
int winsight_state_growth(const WInsightSnap *snaps, int nsnaps, bool unbounded, bool finished, WStateGrowth *out,
                          int max);
/* The slow firings of all subtasks summed into one snapshot's slow fields (samples: the first ones). */
void winsight_slow_sum(const WInsightSnap *snaps, int nsnaps, WInsightSnap *out);
/* The same for the slow keys' fields (slowkey_*), and work_total summed. */
void winsight_slowkey_sum(const WInsightSnap *snaps, int nsnaps, WInsightSnap *out);
/* The top keys by state bytes over the subtasks' last complete passes; *total = bytes seen. */
int winsight_top_bytes(const WInsightSnap *snaps, int nsnaps, WHotKey *out, int max, int64_t *total);
/* The top keys by work (rows scanned) over the subtasks' work sketches, shares of all the work;
   *total = rows scanned over all subtasks. */
int winsight_top_work(const WInsightSnap *snaps, int nsnaps, WHotKey *out, int max, int64_t *total);
/* The origins of rows behind the watermark over the subtasks (and over several WatermarkAssigners:
   call again with the same out/n), merged by name, most rows first; returns the count (<= max). */
int winsight_origin_sum(const WInsightSnap *snaps, int nsnaps, WInsightOrigin *out, int n, int max);
/* The remedy for a slow key (a key that makes the operator read most of the state rows it reads),
   by the operator's job-graph name: Flink has no automatic one for any operator. */
const char *winsight_slow_remedy(const char *op_name);
/* The late rows of all subtasks summed into one snapshot's late fields (samples: the first ones). */
void winsight_late_sum(const WInsightSnap *snaps, int nsnaps, WInsightSnap *out);
/* The lateness below which half / 99% of the late rows lie (histogram bucket upper bounds, ms). */
int64_t winsight_late_quantile(const WInsightSnap *s, double q);
/* A WatermarkAssigner's splits over all subtasks, most behind first: lag_ms is the split's
   distance behind the leading watermark (the largest over the splits of every subtask that have
   one and are not idle, finished ones included); -1 when the split has no watermark yet, is idle
   or is finished. worst_ms is
   the larger of lag_ms and the split's max_lag_ms (what it lagged within its subtask during the
   run). Returns the number written; *leading = the leading watermark (WWM_MIN: none yet). */
typedef struct WSplitLag {
    WInsightSplit s;
    int subtask;
    int64_t lag_ms, worst_ms;
} WSplitLag;
int winsight_split_lags(const WInsightSnap *snaps, int nsnaps, WSplitLag *out, int max, int64_t *leading);
/* A split is lagging: it is (or was) threshold_ms or more, and more than 0, behind. */
bool winsight_split_is_lagging(const WSplitLag *l, int64_t threshold_ms);
/* The most-behind split over the subtasks when it is lagging: true with *out filled. */
bool winsight_lagging_split(const WInsightSnap *snaps, int nsnaps, int64_t threshold_ms, WSplitLag *out);

#endif
