/*
 * nexmark.c — the 'nexmark' source: the Nexmark benchmark's event generator (see nexmark.h for
 * the model) as a table source with the options of github.com/nexmark/nexmark's Flink connector.
 *
 * Schemas. By default ('table.type' = 'all') the table is nexmark-flink's `datagen` table: one
 * row per event with `event_type` (0 person, 1 auction, 2 bid) and ROW columns `person`,
 * `auction`, `bid`, of which only the active one is non-NULL. Top-level columns and ROW fields are
 * matched by name (case and underscores ignored: `dateTime` = `date_time`), so a subset or another
 * order works too. With 'table.type' = 'person' | 'auction' | 'bid' the table is flat: its columns
 * are the fields of that event type, and only the events of that type are generated (the others
 * are skipped by id, not generated), so several such tables see one consistent event stream.
 *
 * Options as nexmark-flink's NexmarkSourceOptions (first-event.rate, next-event.rate, rate.shape,
 * rate.period, rate.limited, person/auction/bid.avg-size, .proportion, the hot ratios,
 * events.num, keep-alive, stop-at, max-emit-speed) plus: 'tps' (alias of first-event.rate),
 * 'base-time' (epoch ms of event number 0; default 2015-07-15 00:00:00 UTC so runs are
 * reproducible; 0 = the current time, as the option means in later nexmark-flink versions),
 * 'bid.flink-bidder-offset' (default true: bidders are base-0 ids + 2000 as nexmark-flink
 * generates them; false: + 1000 as Beam and nexmark-rs), 'table.type'.
 * Parallel subtasks run Flink's split: subtask i of p generates the id block i of the events on a
 * parallel timeline. Depends on types/, common/.
 */
#include "connector.h"
#include "../common/proc_clock.h"
#include "conn_internal.h"
#include "nexmark.h"

#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ------------------------------------------------------------------------------------------ */
/* java.util.Random                                                                            */

#define JR_MULT 0x5DEECE66DULL
#define JR_MASK ((1ULL << 48) - 1)

void nx_rand_seed(NxRandom *r, int64_t seed) { r->s = ((uint64_t)seed ^ JR_MULT) & JR_MASK; }

static inline int32_t jr_next(NxRandom *r, int bits)
{
    r->s = (r->s * JR_MULT + 0xBULL) & JR_MASK;
    return (int32_t)(uint32_t)(r->s >> (48 - bits));
}

int32_t nx_rand_int(NxRandom *r) { return jr_next(r, 32); }

static inline int32_t jr_int_n(NxRandom *r, int32_t n)
{
    if ((n & -n) == n) return (int32_t)(((int64_t)n * (int64_t)jr_next(r, 31)) >> 31);
    int32_t bits, val;
    do {
        bits = jr_next(r, 31);
        val = bits % n;
    } while ((int64_t)bits - val + (n - 1) > INT32_MAX);
    return val;
}

int32_t nx_rand_int_n(NxRandom *r, int32_t n) { return jr_int_n(r, n); }

int64_t nx_rand_long(NxRandom *r)
{
    uint64_t hi = (uint64_t)(int64_t)jr_next(r, 32);
    int64_t lo = jr_next(r, 32);
    return (int64_t)((hi << 32) + (uint64_t)lo);
}

static inline double jr_double(NxRandom *r)
{
    int64_t hi = jr_next(r, 26);
    int64_t lo = jr_next(r, 27);
    return (double)((hi << 27) + lo) * 0x1.0p-53;
}

double nx_rand_double(NxRandom *r) { return jr_double(r); }

/* LongGenerator.nextLong(random, n): a long in [0, n). */
static inline int64_t jr_long_n(NxRandom *r, int64_t n)
{
    if (n < INT32_MAX) return jr_int_n(r, (int32_t)n);
    int64_t v = nx_rand_long(r) % n;
    return v < 0 ? -v : v;
}

/* ------------------------------------------------------------------------------------------ */
/* model constants                                                                             */

#define FIRST_PERSON_ID 1000
#define FIRST_AUCTION_ID 1000
#define FIRST_CATEGORY_ID 10
#define NUM_CATEGORIES 5
#define HOT_RATIO 100               /* hot seller / auction / bidder block size */
#define NUM_IN_FLIGHT_AUCTIONS 100
#define NUM_ACTIVE_PEOPLE 1000
#define ID_LEAD 10
#define POOL_LEN (1 << 20)
#define TABLE_SEED 0x6E65786D61726BLL /* "nexmark": seeds the url tables and the extra pool */

static const char *const FIRST_NAMES[] = {"Peter", "Paul", "Luke", "John", "Saul", "Vicky",
                                          "Kate", "Julie", "Sarah", "Deiter", "Walter"};
static const char *const LAST_NAMES[] = {"Shultz", "Abrams", "Spencer", "White", "Bartels",
                                         "Walton", "Smith", "Jones", "Noris"};
static const char *const CITIES[] = {"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland",
                                     "Bend", "Redmond", "Seattle", "Kent", "Cheyenne"};
static const char *const STATES[] = {"AZ", "CA", "ID", "OR", "WA", "WY"};
static const char *const HOT_CHANNELS[] = {"Google", "Facebook", "Baidu", "Apple"};

static inline WStr wstr_c(const char *s) { return (WStr){s, (int32_t)strlen(s)}; }

void nx_config_defaults(NxConfig *c)
{
    memset(c, 0, sizeof *c);
    c->person_proportion = 1;
    c->auction_proportion = 3;
    c->bid_proportion = 46;
    c->avg_person_size = 200;
    c->avg_auction_size = 500;
    c->avg_bid_size = 100;
    c->hot_auction_ratio = 2;
    c->hot_bidder_ratio = 4;
    c->hot_seller_ratio = 4;
    c->first_event_rate = 10000;
    c->events_num = 0;
    c->stop_at = -1;
    c->base_time_ms = 1436918400000LL;  /* 2015-07-15T00:00:00Z, Beam's Nexmark base time */
    c->flink_bidder_offset = true;
}

/* ------------------------------------------------------------------------------------------ */
/* strings                                                                                     */

/* The characters of generated strings come from a second per-event stream (splitmix64, seeded
   from the event id), 16 bits per character: drawing them from java.util.Random (one or two
   serial draws per character) made strings most of the cost of an auction. */
typedef struct NxChars { uint64_t s; } NxChars;

static inline void ch_seed(NxChars *c, int64_t seed) { c->s = (uint64_t)seed * 0xD1B54A32D192ED03ULL + 0x6A09E667F3BCC909ULL; }

static inline uint64_t ch_next64(NxChars *c)
{
    uint64_t z = (c->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A uniform integer in [0, n) from the character stream (multiply-shift). */
static inline int32_t ch_int_n(NxChars *c, int32_t n) { return (int32_t)(((ch_next64(c) >> 32) * (uint32_t)n) >> 32); }

/* One character from 16 random bits: `special` with probability 5041/65536 (1/13 within 1e-5),
   else 'a'..'z' from the remaining fraction. */
static inline char ch_char(uint32_t v16, char special)
{
    uint32_t m = v16 * 13;
    return (m >> 16) == 0 ? special : (char)('a' + (((m & 0xFFFF) * 26) >> 16));
}

/* StringsGenerator.nextString(random, max, special) written to buf, then Java's trim(): the
   length from `r`; each character is `special` with probability 1/13, else a uniform 'a'..'z'.
   Writes up to 3 bytes past the string (buffers have room). */
static int next_string(NxRandom *r, NxChars *cs, int max, char special, char *buf)
{
    int len = 3 + jr_int_n(r, max - 3);
    for (int i = 0; i < len; i += 4) {
        uint64_t z = ch_next64(cs);
        buf[i] = ch_char((uint32_t)z & 0xFFFF, special);
        buf[i + 1] = ch_char((uint32_t)(z >> 16) & 0xFFFF, special);
        buf[i + 2] = ch_char((uint32_t)(z >> 32) & 0xFFFF, special);
        buf[i + 3] = ch_char((uint32_t)(z >> 48), special);
    }
    if (special != ' ') return len;
    int b = 0, e = len;
    while (b < e && (unsigned char)buf[b] <= ' ') b++;
    while (e > b && (unsigned char)buf[e - 1] <= ' ') e--;
    if (b) memmove(buf, buf + b, (size_t)(e - b));
    return e - b;
}

/* StringsGenerator.nextExactString: Java's truncating % and / on a signed int. */
static void next_exact_string(NxRandom *r, int len, char *out)
{
    int32_t rnd = 0;
    int n = 0;
    for (int i = 0; i < len; i++) {
        if (n == 0) { rnd = nx_rand_int(r); n = 6; }
        out[i] = (char)('a' + rnd % 26);
        rnd /= 26;
        n--;
    }
}

/* nextExtra: pad current_size up to about avg; a slice of the pool (nexmark-flink), or a fresh
   string when it would not fit. Math.round(desired * 0.2) is (2 desired + 5) / 10 exactly for
   integers (desired * 0.2 is never within rounding error of a half). */
static WStr next_extra(const NxGen *g, NxRandom *r, NxChars *cs, int current_size, int avg, WArena *a)
{
    if (current_size > avg) return (WStr){"", 0};
    int desired = avg - current_size;
    int delta = (2 * desired + 5) / 10;
    int size = desired - delta;
    if (delta) size += delta == 14 ? jr_int_n(r, 28) : jr_int_n(r, 2 * delta);  /* 14: bids by default */
    if (size <= 0) return (WStr){"", 0};
    if (size < g->pool_len / 2) {
        int off = ch_int_n(cs, g->pool_len - size);
        return (WStr){g->pool + off, size};
    }
    char *b = wa_alloc(a, (size_t)size);
    next_exact_string(r, size, b);
    return (WStr){b, size};
}

/* Math.round(Math.pow(10.0, random.nextDouble() * 6.0) * 100.0), with 10^x computed as
   2^(x log2 10): three times faster than pow and equal to it on 20M sampled draws. */
static inline int64_t next_price(NxRandom *r)
{
    return (int64_t)floor(exp2(jr_double(r) * (6.0 * 3.32192809488736234787)) * 100.0 + 0.5);
}

/* ------------------------------------------------------------------------------------------ */
/* generator                                                                                   */

int64_t nx_last_base0_person(const NxGen *g, int64_t e)
{
    int64_t epoch = e / g->total, off = e % g->total;
    if (off >= g->c.person_proportion) off = g->c.person_proportion - 1;
    return epoch * g->c.person_proportion + off;
}

int64_t nx_last_base0_auction(const NxGen *g, int64_t e)
{
    int64_t epoch = e / g->total, off = e % g->total;
    if (off < g->c.person_proportion) {
        epoch--;
        off = g->c.auction_proportion - 1;
    } else if (off >= g->c.person_proportion + g->c.auction_proportion) {
        off = g->c.auction_proportion - 1;
    } else {
        off -= g->c.person_proportion;
    }
    return epoch * g->c.auction_proportion + off;
}

/* The last person and auction ids (base 0) at an event id, from one division. */
typedef struct EvIds { int64_t last_person, last_auction; int type; } EvIds;

static inline void ev_ids(const NxGen *g, int64_t epoch, int64_t off, EvIds *x)
{
    int64_t P = g->c.person_proportion, A = g->c.auction_proportion;
    x->last_person = epoch * P + (off >= P ? P - 1 : off);
    x->type = off < P ? NX_PERSON : off < P + A ? NX_AUCTION : NX_BID;
    if (off < P) x->last_auction = (epoch - 1) * A + A - 1;
    else if (off >= P + A) x->last_auction = epoch * A + A - 1;
    else x->last_auction = epoch * A + off - P;
}

static inline int64_t next_base0_person(NxRandom *r, int64_t last_person)
{
    int64_t num = last_person + 1;
    if (num >= NUM_ACTIVE_PEOPLE)   /* the usual case: a constant bound lets the compiler avoid a division */
        return num - NUM_ACTIVE_PEOPLE + jr_int_n(r, NUM_ACTIVE_PEOPLE + ID_LEAD);
    return jr_long_n(r, num + ID_LEAD);
}

static inline int64_t next_base0_auction(NxRandom *r, int64_t last_auction)
{
    int64_t max = last_auction;
    if (max > NUM_IN_FLIGHT_AUCTIONS)   /* the usual case, with a constant bound */
        return max - NUM_IN_FLIGHT_AUCTIONS + jr_int_n(r, NUM_IN_FLIGHT_AUCTIONS + 1 + ID_LEAD);
    int64_t min = max - NUM_IN_FLIGHT_AUCTIONS > 0 ? max - NUM_IN_FLIGHT_AUCTIONS : 0;
    return min + jr_long_n(r, max - min + 1 + ID_LEAD);
}

int64_t nx_timestamp(const NxGen *g, int64_t event_number)
{
    return g->c.base_time_ms + (int64_t)((double)event_number * g->delay_us) / 1000;
}

int64_t nx_event_id(const NxGen *g, int64_t k) { return g->first_event_id + 1 + k; }

int nx_event_type(const NxGen *g, int64_t event_id)
{
    int64_t rem = event_id % g->total;
    if (rem < g->c.person_proportion) return NX_PERSON;
    if (rem < g->c.person_proportion + g->c.auction_proportion) return NX_AUCTION;
    return NX_BID;
}

int64_t nx_gen_count(const NxGen *g)
{
    if (g->stop_at >= 0 && g->stop_at < g->max_events) return g->stop_at;
    return g->max_events;
}

/* Java's Integer.reverse then Math.abs (abs(MIN_VALUE) stays MIN_VALUE). */
static int64_t abs_reverse32(int32_t v)
{
    uint32_t x = (uint32_t)v, y = 0;
    for (int i = 0; i < 32; i++) { y = (y << 1) | (x & 1); x >>= 1; }
    int32_t s = (int32_t)y;
    return s == INT32_MIN ? (int64_t)s : (s < 0 ? -(int64_t)s : s);
}

/* "https://www.nexmark.com/" + 3 x (nextString(5, '_') + "/") + "item.htm?query=1" */
static int base_url(NxRandom *r, NxChars *cs, char *out)
{
    int n = sprintf(out, "https://www.nexmark.com/");
    for (int i = 0; i < 3; i++) {
        n += next_string(r, cs, 5, '_', out + n);
        out[n++] = '/';
    }
    n += sprintf(out + n, "item.htm?query=1");
    return n;
}

bool nx_config_check(const NxConfig *c, char *msg, size_t msgsz)
{
    if (c->first_event_rate <= 0) {
        snprintf(msg, msgsz, "The nexmark option 'first-event.rate' must be positive, but is %d.", c->first_event_rate);
        return false;
    }
    if (c->person_proportion < 1 || c->auction_proportion < 1 || c->bid_proportion < 0 ||
        (int64_t)c->person_proportion + c->auction_proportion + c->bid_proportion > INT32_MAX) {
        /* persons and auctions are referenced by later events; base-0 ids would go negative */
        snprintf(msg, msgsz, "The nexmark options 'person.proportion' and 'auction.proportion' must be at least 1 "
                 "and 'bid.proportion' at least 0, but they are %d, %d and %d.",
                 c->person_proportion, c->auction_proportion, c->bid_proportion);
        return false;
    }
    if (c->hot_auction_ratio < 1 || c->hot_bidder_ratio < 1 || c->hot_seller_ratio < 1) {
        snprintf(msg, msgsz, "The nexmark hot ratios ('bid.hot-ratio.auctions', 'bid.hot-ratio.bidders', "
                 "'auction.hot-ratio.sellers') must be at least 1.");
        return false;
    }
    if (c->avg_person_size < 0 || c->avg_auction_size < 0 || c->avg_bid_size < 0) {
        snprintf(msg, msgsz, "The nexmark average sizes must not be negative.");
        return false;
    }
    if (c->events_num < 0) {
        snprintf(msg, msgsz, "The nexmark option 'events.num' must not be negative, but is %lld.", (long long)c->events_num);
        return false;
    }
    return true;
}

bool nx_gen_init(NxGen *g, const NxConfig *c, int split, int nsplits, char *msg, size_t msgsz)
{
    memset(g, 0, sizeof *g);
    if (!nx_config_check(c, msg, msgsz)) return false;
    g->c = *c;
    if (nsplits < 1) nsplits = 1;
    if (split < 0 || split >= nsplits) split = 0;
    g->total = c->person_proportion + c->auction_proportion + c->bid_proportion;
    g->nsplits = nsplits;
    g->split = split;
    g->delay_us = 1000000.0 / c->first_event_rate * nsplits;
    int64_t maxsz = c->avg_person_size;
    if (c->avg_auction_size > maxsz) maxsz = c->avg_auction_size;
    if (c->avg_bid_size > maxsz) maxsz = c->avg_bid_size;
    if (maxsz < 1) maxsz = 1;
    int64_t max_events = c->events_num ? c->events_num : INT64_MAX / ((int64_t)g->total * maxsz);
    int64_t sub = max_events / nsplits;
    g->first_event_id = 1 + (int64_t)split * sub;
    g->max_events = split == nsplits - 1 ? max_events - sub * (nsplits - 1) : sub;
    g->stop_at = -1;
    if (c->stop_at >= 0) {
        int64_t ssub = c->stop_at / nsplits;
        g->stop_at = split == nsplits - 1 ? c->stop_at - ssub * (nsplits - 1) : ssub;
    }

    /* fixed tables */
    NxRandom r;
    NxChars cs;
    nx_rand_seed(&r, TABLE_SEED);
    ch_seed(&cs, TABLE_SEED);
    g->pool_len = POOL_LEN;
    g->pool = wmalloc(POOL_LEN);
    /* nextExactString's characters: 'a' + (signed int % 26), i.e. 'H'..'z'; drawn 8 at a time
       from the character stream (building the pool is per source instance) */
    for (int i = 0; i < POOL_LEN; i += 8) {
        uint64_t z = ch_next64(&cs);
        for (int j = 0; j < 8; j++, z >>= 8) g->pool[i + j] = (char)('H' + (((z & 0xFF) * 51) >> 8));
    }
    size_t cap = 99 * 16 + 4 * 96;
    g->strings = wmalloc(cap);
    char *p = g->strings;
    for (int f = 0; f < 11; f++)
        for (int l = 0; l < 9; l++) {
            int n = sprintf(p, "%s %s", FIRST_NAMES[f], LAST_NAMES[l]);
            g->names[f * 9 + l] = (WStr){p, n};
            p += n;
        }
    for (int i = 0; i < 4; i++) {
        int n = base_url(&r, &cs, p);
        g->hot_urls[i] = (WStr){p, n};
        p += n;
    }
    g->channel_text = wmalloc((size_t)NX_CHANNELS * NX_CHANNEL_STRIDE);
    for (int i = 0; i < NX_CHANNELS; i++) {
        char *c = g->channel_text + (size_t)i * NX_CHANNEL_STRIDE;
        int n = sprintf(c, "channel-%d", i);
        assert(n < NX_CHANNEL_URL);
        g->channel_len[i].name = (uint8_t)n;
        /* at most 24 + 3 * 6 + 16 + 12 + 10 bytes (and sprintf's NUL) */
        n = base_url(&r, &cs, c + NX_CHANNEL_URL);
        if (jr_int_n(&r, 10) > 0) n += sprintf(c + NX_CHANNEL_URL + n, "&channel_id=%lld", (long long)abs_reverse32(i));
        assert(n < NX_CHANNEL_STRIDE - NX_CHANNEL_URL);
        g->channel_len[i].url = (uint8_t)n;
    }
    return true;
}

void nx_gen_free(NxGen *g)
{
    free(g->pool);
    free(g->channel_text);
    free(g->strings);
    g->pool = g->strings = g->channel_text = NULL;
}

static void gen_person(const NxGen *g, NxRandom *r, NxChars *cs, const EvIds *ids, int64_t ts, NxPerson *p, WArena *a)
{
    p->id = ids->last_person + FIRST_PERSON_ID;
    int f = jr_int_n(r, 11);
    int l = jr_int_n(r, 9);
    p->name = g->names[f * 9 + l];
    char *buf = wa_alloc(a, 48);
    int n = next_string(r, cs, 7, ' ', buf);
    buf[n++] = '@';
    n += next_string(r, cs, 5, ' ', buf + n);
    memcpy(buf + n, ".com", 4);
    n += 4;
    p->email = (WStr){buf, n};
    char *cc = buf + n;
    for (int i = 0; i < 4; i++) {
        int v = jr_int_n(r, 10000);
        char *d = cc + i * 5;
        if (i > 0) d[-1] = ' ';
        d[0] = (char)('0' + v / 1000);
        d[1] = (char)('0' + v / 100 % 10);
        d[2] = (char)('0' + v / 10 % 10);
        d[3] = (char)('0' + v % 10);
    }
    p->credit_card = (WStr){cc, 19};
    p->city = wstr_c(CITIES[jr_int_n(r, 10)]);
    p->state = wstr_c(STATES[jr_int_n(r, 6)]);
    p->date_time = ts;
    int cur = 8 + p->name.len + p->email.len + p->credit_card.len + p->city.len + p->state.len;
    p->extra = next_extra(g, r, cs, cur, g->c.avg_person_size, a);
}

static void gen_auction(const NxGen *g, NxRandom *r, NxChars *cs, const EvIds *ids, int64_t en, int64_t ts, NxAuction *x,
                        WArena *a)
{
    x->id = ids->last_auction + FIRST_AUCTION_ID;
    int64_t seller;
    if (jr_int_n(r, g->c.hot_seller_ratio) > 0)
        seller = (ids->last_person / HOT_RATIO) * HOT_RATIO;
    else
        seller = next_base0_person(r, ids->last_person);
    x->seller = seller + FIRST_PERSON_ID;
    x->category = FIRST_CATEGORY_ID + jr_int_n(r, NUM_CATEGORIES);
    x->initial_bid = next_price(r);
    int64_t events_for_auctions = ((int64_t)NUM_IN_FLIGHT_AUCTIONS * g->total) / g->c.auction_proportion;
    int64_t horizon = nx_timestamp(g, en + events_for_auctions) - ts;
    int64_t span = horizon * 2 > 1 ? horizon * 2 : 1;
    x->expires = ts + 1 + jr_long_n(r, span);
    char *buf = wa_alloc(a, 128);
    int n1 = next_string(r, cs, 20, ' ', buf);
    x->item_name = (WStr){buf, n1};
    int n2 = next_string(r, cs, 100, ' ', buf + n1);
    x->description = (WStr){buf + n1, n2};
    x->reserve = x->initial_bid + next_price(r);
    x->date_time = ts;
    int cur = 8 + n1 + n2 + 8 + 8 + 8 + 8 + 8;
    x->extra = next_extra(g, r, cs, cur, g->c.avg_auction_size, a);
}

static void gen_bid(const NxGen *g, NxRandom *r, NxChars *cs, const EvIds *ids, int64_t ts, NxBid *b, WArena *a)
{
    int64_t auction;
    if (jr_int_n(r, g->c.hot_auction_ratio) > 0)
        auction = (ids->last_auction / HOT_RATIO) * HOT_RATIO;
    else
        auction = next_base0_auction(r, ids->last_auction);
    b->auction = auction + FIRST_AUCTION_ID;
    int64_t bidder;
    if (jr_int_n(r, g->c.hot_bidder_ratio) > 0)
        bidder = (ids->last_person / HOT_RATIO) * HOT_RATIO + 1;
    else
        bidder = next_base0_person(r, ids->last_person);
    b->bidder = bidder + FIRST_PERSON_ID + (g->c.flink_bidder_offset ? FIRST_PERSON_ID : 0);
    b->price = next_price(r);
    if (jr_int_n(r, 2) > 0) {
        int i = jr_int_n(r, 4);
        b->channel = wstr_c(HOT_CHANNELS[i]);
        b->url = g->hot_urls[i];
    } else {
        int i = jr_int_n(r, NX_CHANNELS);
        const char *c = g->channel_text + (size_t)i * NX_CHANNEL_STRIDE;
        b->channel = (WStr){c, g->channel_len[i].name};
        b->url = (WStr){c + NX_CHANNEL_URL, g->channel_len[i].url};
    }
    b->date_time = ts;
    b->extra = next_extra(g, r, cs, 32, g->c.avg_bid_size, a);
}

/* Generate the event at a cursor (the event id split as epoch * total + offset, so that
   sequential generation needs no division). */
static void gen_at(const NxGen *g, const NxCursor *cur, NxEvent *ev, WArena *a)
{
    int64_t en = cur->k + 1;        /* firstEventNumber = 1 */
    int64_t e = g->first_event_id + en;
    int64_t ts = nx_timestamp(g, en);
    NxRandom r;
    NxChars cs;
    /* Beam seeds java.util.Random with the event id itself; but the first draws of generators
       seeded with nearby seeds are correlated (the first nextInt(4) is the same for thousands of
       consecutive ids, so all early auctions would pick the hot seller). A hash of the id keeps
       the event a pure function of its id with independent draws. */
    uint64_t h = (uint64_t)e * 0x9E3779B97F4A7C15ULL;
    h = (h ^ (h >> 31)) * 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
    nx_rand_seed(&r, (int64_t)h);
    ch_seed(&cs, (int64_t)(h >> 17) ^ e);
    ev->event_id = e;
    ev->event_number = en;
    ev->timestamp = ts;
    EvIds ids;
    ev_ids(g, cur->epoch, cur->off, &ids);
    ev->type = ids.type;
    switch (ev->type) {
    case NX_PERSON: gen_person(g, &r, &cs, &ids, ts, &ev->person, a); break;
    case NX_AUCTION: gen_auction(g, &r, &cs, &ids, en, ts, &ev->auction, a); break;
    default: gen_bid(g, &r, &cs, &ids, ts, &ev->bid, a); break;
    }
}

void nx_cursor_init(const NxGen *g, int64_t k, NxCursor *cur)
{
    int64_t e = nx_event_id(g, k);
    cur->k = k;
    cur->epoch = e / g->total;
    cur->off = e - cur->epoch * g->total;
}

void nx_event_at(const NxGen *g, const NxCursor *cur, NxEvent *ev, WArena *a) { gen_at(g, cur, ev, a); }

void nx_event(const NxGen *g, int64_t k, NxEvent *ev, WArena *a)
{
    NxCursor cur;
    nx_cursor_init(g, k, &cur);
    gen_at(g, &cur, ev, a);
}

/* ------------------------------------------------------------------------------------------ */
/* schema mapping                                                                              */

enum FieldKind { FK_INT, FK_STR, FK_TS };

typedef struct FieldDef { const char *name; int kind; } FieldDef;

/* Fields per event type, in nexmark-flink's order. Indexes are the F_* values below. */
static const FieldDef PERSON_FIELDS[] = {
    {"id", FK_INT}, {"name", FK_STR}, {"emailAddress", FK_STR}, {"creditCard", FK_STR},
    {"city", FK_STR}, {"state", FK_STR}, {"dateTime", FK_TS}, {"extra", FK_STR}, {NULL, 0}};
static const FieldDef AUCTION_FIELDS[] = {
    {"id", FK_INT}, {"itemName", FK_STR}, {"description", FK_STR}, {"initialBid", FK_INT},
    {"reserve", FK_INT}, {"dateTime", FK_TS}, {"expires", FK_TS}, {"seller", FK_INT},
    {"category", FK_INT}, {"extra", FK_STR}, {NULL, 0}};
static const FieldDef BID_FIELDS[] = {
    {"auction", FK_INT}, {"bidder", FK_INT}, {"price", FK_INT}, {"channel", FK_STR},
    {"url", FK_STR}, {"dateTime", FK_TS}, {"extra", FK_STR}, {NULL, 0}};
static const FieldDef *const FIELDS[3] = {PERSON_FIELDS, AUCTION_FIELDS, BID_FIELDS};
static const char *const TYPE_NAMES[3] = {"person", "auction", "bid"};

/* Compare names ignoring case and underscores. */
static bool name_eq(const char *a, const char *b)
{
    for (;;) {
        while (*a == '_') a++;
        while (*b == '_') b++;
        if (!*a || !*b) return !*a && !*b;
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
        a++, b++;
    }
}

static int find_field(int type, const char *name)
{
    for (int i = 0; FIELDS[type][i].name; i++)
        if (name_eq(FIELDS[type][i].name, name)) return i;
    return -1;
}

static bool kind_ok(int kind, const WType *t)
{
    switch (kind) {
    case FK_INT: return t->id == WT_BIGINT;
    case FK_STR: return t->id == WT_VARCHAR || t->id == WT_CHAR;
    default: return wtype_is_timestamp(t);
    }
}

static const char *kind_name(int kind)
{
    return kind == FK_INT ? "BIGINT" : kind == FK_STR ? "VARCHAR" : "TIMESTAMP(3)";
}

enum ColRole { CR_EVENT_TYPE, CR_ROW, CR_FIELD };

typedef struct NxCol {
    int role;
    int type;           /* CR_ROW: event type of the ROW; CR_FIELD: event type of the table */
    int field;          /* CR_FIELD: field index */
    int nfields;        /* CR_ROW */
    int *fields;        /* CR_ROW: field index per ROW field */
    int *truncs;        /* CR_ROW: ts_trunc per ROW field */
    bool exact;         /* CR_ROW: all fields in nexmark-flink's order, timestamps of precision >= 3 */
    const WType *t;
    int ts_trunc;       /* timestamps: milliseconds are truncated to a multiple of this */
} NxCol;

static int ts_trunc_of(const WType *t) { return t->precision >= 3 ? 1 : t->precision == 2 ? 10 : t->precision == 1 ? 100 : 1000; }

static void schema_text(int table_type, WStrBuf *s)
{
    if (table_type < 0) {
        wsb_append(s, "event_type INT, ");
        for (int k = 0; k < 3; k++) {
            wsb_printf(s, "%s ROW<", TYPE_NAMES[k]);
            for (int i = 0; FIELDS[k][i].name; i++)
                wsb_printf(s, "%s%s %s", i ? ", " : "", FIELDS[k][i].name, kind_name(FIELDS[k][i].kind));
            wsb_printf(s, ">%s", k < 2 ? ", " : "");
        }
    } else {
        for (int i = 0; FIELDS[table_type][i].name; i++)
            wsb_printf(s, "%s%s %s", i ? ", " : "", FIELDS[table_type][i].name, kind_name(FIELDS[table_type][i].kind));
    }
}

static bool schema_error(const WTableSpec *spec, int table_type, WError *err, const char *fmt, const char *a1,
                         const char *a2)
{
    WStrBuf s;
    wsb_init(&s);
    char head[512];
    snprintf(head, sizeof head, fmt, a1, a2 ? a2 : "");
    schema_text(table_type, &s);
    werr_set(err, WEXC_VALIDATION,
             "%s\nThe columns of a nexmark table ('table.type' = '%s') are, by name, any of: %s",
             head, table_type < 0 ? "all" : TYPE_NAMES[table_type], s.buf);
    wsb_free(&s);
    return false;
}

static void free_cols(NxCol *cols, int n)
{
    if (!cols) return;
    for (int i = 0; i < n; i++) {
        free(cols[i].fields);
        free(cols[i].truncs);
    }
    free(cols);
}

static bool map_columns(const WTableSpec *spec, int table_type, NxCol **out, WError *err)
{
    NxCol *cols = wcalloc((size_t)(spec->ncols ? spec->ncols : 1), sizeof(NxCol));
    *out = cols;
    for (int c = 0; c < spec->ncols; c++) {
        const char *name = spec->col_names[c];
        const WType *t = spec->col_types[c];
        NxCol *col = &cols[c];
        col->t = t;
        if (table_type >= 0) {
            int f = find_field(table_type, name);
            if (f < 0)
                return schema_error(spec, table_type, err, "Unknown column '%s' in the nexmark table.", name, NULL);
            if (!kind_ok(FIELDS[table_type][f].kind, t))
                return schema_error(spec, table_type, err, "Column '%s' of the nexmark table must be %s.", name,
                                    kind_name(FIELDS[table_type][f].kind));
            col->role = CR_FIELD;
            col->type = table_type;
            col->field = f;
            col->ts_trunc = FIELDS[table_type][f].kind == FK_TS ? ts_trunc_of(t) : 1;
            continue;
        }
        if (name_eq(name, "event_type")) {
            if (!wtype_is_integer(t))
                return schema_error(spec, table_type, err, "Column '%s' of the nexmark table must be INT.", name, NULL);
            col->role = CR_EVENT_TYPE;
            continue;
        }
        int k = -1;
        for (int i = 0; i < 3; i++)
            if (name_eq(name, TYPE_NAMES[i])) k = i;
        if (k < 0)
            return schema_error(spec, table_type, err, "Unknown column '%s' in the nexmark table.", name, NULL);
        if (t->id != WT_ROW)
            return schema_error(spec, table_type, err, "Column '%s' of the nexmark table must be a ROW.", name, NULL);
        col->role = CR_ROW;
        col->type = k;
        col->nfields = t->nfields;
        col->fields = wcalloc((size_t)(t->nfields ? t->nfields : 1), sizeof(int));
        col->truncs = wcalloc((size_t)(t->nfields ? t->nfields : 1), sizeof(int));
        col->exact = true;
        for (int i = 0; i < t->nfields; i++) {
            int f = find_field(k, t->field_names[i]);
            char full[300];
            snprintf(full, sizeof full, "%s.%s", name, t->field_names[i]);
            if (f < 0)
                return schema_error(spec, table_type, err, "Unknown field '%s' in the nexmark table.", full, NULL);
            if (!kind_ok(FIELDS[k][f].kind, t->fields[i]))
                return schema_error(spec, table_type, err, "Field '%s' of the nexmark table must be %s.", full,
                                    kind_name(FIELDS[k][f].kind));
            col->fields[i] = f;
            col->truncs[i] = FIELDS[k][f].kind == FK_TS ? ts_trunc_of(t->fields[i]) : 1;
            if (f != i || col->truncs[i] != 1) col->exact = false;
        }
        int nf = 0;
        while (FIELDS[k][nf].name) nf++;
        if (t->nfields != nf) col->exact = false;
    }
    return true;
}

/* ------------------------------------------------------------------------------------------ */
/* options                                                                                     */

static const WOptEnum NX_RATE_SHAPE = {"com.github.nexmark.flink.utils.NexmarkUtils$RateShape", "SQUARE, SINE"};
static const WConnOption NX_INVENTORY[] = {
    {"rate.shape", WOPT_NO_EFFECT_IN_FLINK, "SQUARE",
     "the rate's shape between first-event.rate and next-event.rate; a different next-event.rate is refused",
     .type = WOT_ENUM, .enum_of = &NX_RATE_SHAPE},
    {"rate.period", WOPT_NO_EFFECT_IN_FLINK, "600 s",
     "the period of the rate's shape; a different next-event.rate is refused", .type = WOT_DURATION},
    {"rate.limited", WOPT_REFUSED, "false", "sleeping to keep the generator's rate", .type = WOT_BOOL},
    {"first-event.rate", WOPT_APPLIED, "10000", "events per second: the spacing of the event times", .type = WOT_INT},
    {"next-event.rate", WOPT_APPLIED, "10000", "must equal first-event.rate in weir (a changing rate is refused)",
     .type = WOT_INT},
    {"tps", WOPT_APPLIED, NULL, "the same as first-event.rate", .type = WOT_INT},
    {"person.avg-size", WOPT_APPLIED, "200b", "average person size: the extra field's length", .type = WOT_MEMORY},
    {"auction.avg-size", WOPT_APPLIED, "500b", "average auction size: the extra field's length", .type = WOT_MEMORY},
    {"bid.avg-size", WOPT_APPLIED, "100b", "average bid size: the extra field's length", .type = WOT_MEMORY},
    {"person.proportion", WOPT_APPLIED, "1", "share of person events", .type = WOT_INT},
    {"auction.proportion", WOPT_APPLIED, "3", "share of auction events", .type = WOT_INT},
    {"bid.proportion", WOPT_APPLIED, "46", "share of bid events", .type = WOT_INT},
    {"bid.hot-ratio.auctions", WOPT_APPLIED, "2", "hot auctions among bids", .type = WOT_INT},
    {"bid.hot-ratio.bidders", WOPT_APPLIED, "4", "hot bidders among bids", .type = WOT_INT},
    {"auction.hot-ratio.sellers", WOPT_APPLIED, "4", "hot sellers among auctions", .type = WOT_INT},
    {"events.num", WOPT_APPLIED, "0", "the events to generate (bounded)", .type = WOT_LONG},
    {"keep-alive", WOPT_APPLIED, "false", "stay running (idle) after the last event", .type = WOT_BOOL},
    {"stop-at", WOPT_APPLIED, "-1", "the event number to stop at (bounded)", .type = WOT_LONG},
    {"max-emit-speed", WOPT_APPLIED, "true", "false: emit each event when the wall clock reaches its time",
     .type = WOT_BOOL},
    {"base-time", WOPT_APPLIED, NULL, "event time of the first event (epoch ms; 0 = now)", .type = WOT_LONG},
    {"bid.flink-bidder-offset", WOPT_APPLIED, "true", "the bidder id offset of Flink's generator", .type = WOT_BOOL},
    {"table.type", WOPT_APPLIED, "all", "all, person, auction or bid rows", .type = WOT_STRING},
    {"scan.parallelism", WOPT_APPLIED, NULL, "the source's parallelism (runtime/vertices.c)", .type = WOT_INT},
    {0},
};

static bool parse_fail(const char *key, const char *v, WError *err)
{
    return werr_set(err, WEXC_ILLEGAL_ARG, "Could not parse value '%s' for key '%s'.", v, key);
}

static bool opt_int(const WOptions *o, const char *key, int32_t dflt, int32_t *out, WError *err)
{
    int64_t v;
    if (!wopts_get_long(o, key, dflt, &v, err)) return false;
    if (v < INT32_MIN || v > INT32_MAX) return parse_fail(key, wopts_get(o, key), err);
    *out = (int32_t)v;
    return true;
}

/* Flink MemorySize (wopts_get_bytes); the connector casts it to int, so it must fit one. */
static bool opt_size(const WOptions *o, const char *key, int32_t dflt, int32_t *out, WError *err)
{
    int64_t v;
    if (!wopts_get_bytes(o, key, dflt, &v, err)) return false;
    if (v > INT32_MAX) return parse_fail(key, wopts_get(o, key), err);
    *out = (int32_t)v;
    return true;
}

typedef struct NxOpts {
    NxConfig c;
    bool keep_alive, max_emit_speed;
    int table_type;             /* -1 = all */
} NxOpts;

static bool read_options(const WTableSpec *spec, NxOpts *no, WError *err)
{
    const WOptions *o = spec->options;
    NxConfig *c = &no->c;
    nx_config_defaults(c);
    const char *shape = wopts_get(o, "rate.shape");
    if (shape && strcasecmp(shape, "SQUARE") != 0 && strcasecmp(shape, "SINE") != 0)
        return parse_fail("rate.shape", shape, err);
    int64_t period;
    bool b;
    int32_t next_rate;
    if (!wopts_get_duration_ms(o, "rate.period", 600000, &period, err)) return false;
    if (!wopts_get_bool(o, "rate.limited", false, &b, err)) return false;
    if (!opt_int(o, "first-event.rate", 10000, &c->first_event_rate, err)) return false;
    if (wopts_get(o, "tps")) {
        if (wopts_get(o, "first-event.rate"))
            return werr_set(err, WEXC_VALIDATION,
                            "The nexmark options 'tps' and 'first-event.rate' set the same rate; use one of them.");
        if (!opt_int(o, "tps", 10000, &c->first_event_rate, err)) return false;
    }
    if (!opt_int(o, "next-event.rate", c->first_event_rate, &next_rate, err)) return false;
    if (next_rate != c->first_event_rate)
        return werr_set(err, WEXC_VALIDATION,
                        "Option 'next-event.rate' of the 'nexmark' connector is not supported by weir yet with a "
                        "value other than first-event.rate (%d): weir generates events at a constant rate.",
                        c->first_event_rate);
    if (!opt_size(o, "person.avg-size", 200, &c->avg_person_size, err)) return false;
    if (!opt_size(o, "auction.avg-size", 500, &c->avg_auction_size, err)) return false;
    if (!opt_size(o, "bid.avg-size", 100, &c->avg_bid_size, err)) return false;
    if (!opt_int(o, "person.proportion", 1, &c->person_proportion, err)) return false;
    if (!opt_int(o, "auction.proportion", 3, &c->auction_proportion, err)) return false;
    if (!opt_int(o, "bid.proportion", 46, &c->bid_proportion, err)) return false;
    if (!opt_int(o, "bid.hot-ratio.auctions", 2, &c->hot_auction_ratio, err)) return false;
    if (!opt_int(o, "bid.hot-ratio.bidders", 4, &c->hot_bidder_ratio, err)) return false;
    if (!opt_int(o, "auction.hot-ratio.sellers", 4, &c->hot_seller_ratio, err)) return false;
    if (!wopts_get_long(o, "events.num", 0, &c->events_num, err)) return false;
    if (!wopts_get_long(o, "stop-at", -1, &c->stop_at, err)) return false;
    if (!wopts_get_bool(o, "keep-alive", false, &no->keep_alive, err)) return false;
    if (!wopts_get_bool(o, "max-emit-speed", true, &no->max_emit_speed, err)) return false;
    if (!wopts_get_bool(o, "bid.flink-bidder-offset", true, &c->flink_bidder_offset, err)) return false;
    int64_t base;
    if (!wopts_get_long(o, "base-time", c->base_time_ms, &base, err)) return false;
    if (base == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        base = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    }
    c->base_time_ms = base;
    int64_t sp;
    if (!wopts_get_long(o, "scan.parallelism", 1, &sp, err)) return false;
    const char *tt = wopts_get_or(o, "table.type", "all");
    no->table_type = -2;
    if (strcasecmp(tt, "all") == 0) no->table_type = -1;
    for (int i = 0; i < 3; i++)
        if (strcasecmp(tt, TYPE_NAMES[i]) == 0) no->table_type = i;
    if (no->table_type == -2)
        return werr_set(err, WEXC_VALIDATION,
                        "Invalid value '%s' for the nexmark option 'table.type': use 'all', 'person', 'auction' or 'bid'.", tt);
    /* after the values above (nexmark's own messages): the unsupported options, the values not read */
    return wconnector_check_inventory(spec, "nexmark", NX_INVENTORY, true, NULL, NULL, err);
}

/* ------------------------------------------------------------------------------------------ */
/* source                                                                                      */

typedef struct NxSource {
    WSource base;
    NxGen g;
    NxOpts o;
    int ncols;
    NxCol *cols;
    NxCursor cur;               /* next event of this split */
    int64_t count;              /* events of this split */
    int64_t wall_base_ms;       /* max-emit-speed = false: wall clock of the base time, -1 unset */
} NxSource;

static bool nx_validate(const WTableSpec *spec, bool as_source, WError *err)
{
    if (!as_source)
        return werr_set(err, WEXC_VALIDATION,
                        "Connector 'nexmark' can only be used as a source. It cannot be used as a sink.");
    NxOpts no;
    if (!read_options(spec, &no, err)) return false;
    NxCol *cols = NULL;
    bool ok = map_columns(spec, no.table_type, &cols, err);
    free_cols(cols, spec->ncols);
    if (!ok) return false;
    char msg[512];
    if (!nx_config_check(&no.c, msg, sizeof msg)) return werr_set(err, WEXC_VALIDATION, "%s", msg);
    return true;
}

static int64_t wall_ms(void)
{
    return wproc_wall_ms();
}

static inline void put_field(const NxEvent *ev, int type, int field, int trunc, WDatum *d, uint8_t *null)
{
    *null = 0;
    switch (type) {
    case NX_PERSON: {
        const NxPerson *p = &ev->person;
        switch (field) {
        case 0: d->i = p->id; return;
        case 1: d->s = p->name; return;
        case 2: d->s = p->email; return;
        case 3: d->s = p->credit_card; return;
        case 4: d->s = p->city; return;
        case 5: d->s = p->state; return;
        case 6: d->ts.ms = p->date_time; break;
        default: d->s = p->extra; return;
        }
        break;
    }
    case NX_AUCTION: {
        const NxAuction *a = &ev->auction;
        switch (field) {
        case 0: d->i = a->id; return;
        case 1: d->s = a->item_name; return;
        case 2: d->s = a->description; return;
        case 3: d->i = a->initial_bid; return;
        case 4: d->i = a->reserve; return;
        case 5: d->ts.ms = a->date_time; break;
        case 6: d->ts.ms = a->expires; break;
        case 7: d->i = a->seller; return;
        case 8: d->i = a->category; return;
        default: d->s = a->extra; return;
        }
        break;
    }
    default: {
        const NxBid *b = &ev->bid;
        switch (field) {
        case 0: d->i = b->auction; return;
        case 1: d->i = b->bidder; return;
        case 2: d->i = b->price; return;
        case 3: d->s = b->channel; return;
        case 4: d->s = b->url; return;
        case 5: d->ts.ms = b->date_time; break;
        default: d->s = b->extra; return;
        }
        break;
    }
    }
    /* timestamps */
    d->ts.ns = 0;
    if (trunc > 1) d->ts.ms -= ((d->ts.ms % trunc) + trunc) % trunc;
}

static inline WComposite *new_row(WArena *a, int n)
{
    size_t head = (sizeof(WComposite) + 15) & ~(size_t)15;   /* WDatum is 16-byte aligned */
    char *mem = wa_alloc(a, head + sizeof(WDatum) * (size_t)n + (size_t)n);
    WComposite *cx = (WComposite *)mem;
    cx->n = n;
    cx->vals = (WDatum *)(mem + head);
    cx->nulls = (uint8_t *)(cx->vals + n);
    return cx;
}

static void fill_row(NxSource *s, const NxEvent *ev, WChunk *out, int r)
{
    for (int c = 0; c < s->ncols; c++) {
        const NxCol *col = &s->cols[c];
        WVector *v = &out->cols[c];
        switch (col->role) {
        case CR_EVENT_TYPE:
            v->data[r].i = ev->type;
            v->nulls[r] = 0;
            break;
        case CR_FIELD:
            put_field(ev, col->type, col->field, col->ts_trunc, &v->data[r], &v->nulls[r]);
            break;
        default:
            if (col->type != ev->type) {
                v->nulls[r] = 1;
                break;
            }
            v->nulls[r] = 0;
            if (col->exact && ev->type == NX_BID) {
                /* nexmark-flink's bid ROW as declared: the common case, written directly */
                WComposite *cx = new_row(out->arena, 7);
                const NxBid *b = &ev->bid;
                WDatum *d = cx->vals;
                d[0].i = b->auction;
                d[1].i = b->bidder;
                d[2].i = b->price;
                d[3].s = b->channel;
                d[4].s = b->url;
                d[5].ts.ms = b->date_time;
                d[5].ts.ns = 0;
                d[6].s = b->extra;
                memset(cx->nulls, 0, 7);
                v->data[r].cx = cx;
                break;
            }
            {
                int n = col->nfields;
                WComposite *cx = new_row(out->arena, n);
                for (int i = 0; i < n; i++)
                    put_field(ev, col->type, col->fields[i], col->truncs[i], &cx->vals[i], &cx->nulls[i]);
                v->data[r].cx = cx;
            }
            break;
        }
    }
}

static WSourceStatus nx_next(WSource *base, WChunk *out, WError *err)
{
    (void)err;
    NxSource *s = (NxSource *)base;
    if (s->cur.k >= s->count) {
        if (s->o.keep_alive) {
            wsrc_sleep_ns(base, 20000000);
            return WSRC_IDLE;
        }
        return WSRC_END;
    }
    int64_t limit = s->count;
    if (!s->o.max_emit_speed) {
        /* emit each event when the wall clock reaches its event time (relative to the base time) */
        int64_t now = wall_ms();
        if (s->wall_base_ms < 0) s->wall_base_ms = now;
        int64_t lim = s->cur.k;
        while (lim < s->count && lim - s->cur.k < out->cap &&
               s->wall_base_ms + (nx_timestamp(&s->g, lim + 1) - s->g.c.base_time_ms) <= now)
            lim++;
        if (lim == s->cur.k) {
            int64_t due = s->wall_base_ms + (nx_timestamp(&s->g, s->cur.k + 1) - s->g.c.base_time_ms) - now;
            if (due > 20) due = 20;
            if (due < 1) due = 1;
            wsrc_sleep_ns(base, due * 1000000);
            return WSRC_IDLE;
        }
        limit = lim;
    }
    int type_filter = s->o.table_type;
    NxEvent ev;
    int start = out->nrows;
    while (out->nrows < out->cap && s->cur.k < limit) {
        if (type_filter >= 0 && nx_cursor_type(&s->g, &s->cur) != type_filter) {
            nx_cursor_next(&s->g, &s->cur);
            continue;
        }
        nx_event_at(&s->g, &s->cur, &ev, out->arena);
        nx_cursor_next(&s->g, &s->cur);
        int r = out->nrows++;
        out->kinds[r] = WRK_INSERT;
        fill_row(s, &ev, out, r);
    }
    base->rows_read += out->nrows - start;
    if (s->cur.k >= s->count && !s->o.keep_alive) return WSRC_END;
    return WSRC_MORE;
}

static bool nx_position(WSource *base, char *buf, size_t bufsz)
{
    NxSource *s = (NxSource *)base;
    int n = snprintf(buf, bufsz, "nx:%lld", (long long)s->cur.k);
    return n > 0 && (size_t)n < bufsz;
}

static bool nx_seek(WSource *base, const char *pos, WError *err)
{
    NxSource *s = (NxSource *)base;
    long long k;
    char tail;
    if (sscanf(pos, "nx:%lld%c", &k, &tail) != 1 || k < 0)
        return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid nexmark source position '%s'.", pos);
    nx_cursor_init(&s->g, k, &s->cur);
    s->wall_base_ms = -1;
    return true;
}

static void nx_close(WSource *base)
{
    NxSource *s = (NxSource *)base;
    nx_gen_free(&s->g);
    free_cols(s->cols, s->ncols);
    free(s);
}

static WSource *nx_open_source(const WTableSpec *spec, WError *err)
{
    if (!nx_validate(spec, true, err)) return NULL;
    NxSource *s = wcalloc(1, sizeof *s);
    if (!read_options(spec, &s->o, err) || !map_columns(spec, s->o.table_type, &s->cols, err)) {
        free_cols(s->cols, spec->ncols);
        free(s);
        return NULL;
    }
    s->ncols = spec->ncols;
    char msg[512];
    if (!nx_gen_init(&s->g, &s->o.c, spec->subtask, spec->parallelism > 0 ? spec->parallelism : 1, msg, sizeof msg)) {
        werr_set(err, WEXC_VALIDATION, "%s", msg);
        free_cols(s->cols, s->ncols);
        free(s);
        return NULL;
    }
    s->count = nx_gen_count(&s->g);
    nx_cursor_init(&s->g, 0, &s->cur);
    s->wall_base_ms = -1;
    s->base.next = nx_next;
    s->base.position = nx_position;
    s->base.seek = nx_seek;
    s->base.close = nx_close;
    s->base.bounded = (s->o.c.events_num > 0 || s->o.c.stop_at >= 0) && !s->o.keep_alive;
    return &s->base;
}

const WConnector wconn_nexmark = {
    .name = "nexmark",
    .caps = {.projection_pushdown = true, .source_summary = "Nexmark Source"},
    .options = NX_INVENTORY,
    .can_source = true,
    .can_sink = false,
    .validate = nx_validate,
    .open_source = nx_open_source,
    .open_sink = NULL,
    .source_is_changelog = NULL,
};
