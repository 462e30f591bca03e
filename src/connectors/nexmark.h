/*
 * nexmark.h — private to src/connectors: the Nexmark event generator model behind the 'nexmark'
 * source (nexmark.c), exposed for unit tests. Not a public contract.
 *
 * The model is Apache Beam's Nexmark generator as extended by github.com/nexmark/nexmark (the
 * Flink benchmark): persons, auctions and bids in the proportions 1:3:46, ids derived from the
 * event id, timestamps from the first-event rate, hot sellers/auctions/bidders, bid channels and
 * urls, and an `extra` string that pads each event to its average size. Every event is a pure
 * function of (configuration, split, event index): its random draws come from a
 * java.util.Random-compatible generator seeded with the event id (Beam's scheme), so any event can
 * be produced alone, in any order, by any subtask. Strings that are not slices of the
 * generator's fixed tables are allocated in a caller-supplied arena.
 * Depends on types/ (WStr), common/ (arena).
 */
#ifndef WEIR_CONNECTORS_NEXMARK_H
#define WEIR_CONNECTORS_NEXMARK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../common/arena.h"
#include "../types/value.h"

/* java.util.Random */
typedef struct NxRandom { uint64_t s; } NxRandom;
void nx_rand_seed(NxRandom *r, int64_t seed);
int32_t nx_rand_int(NxRandom *r);                   /* nextInt() */
int32_t nx_rand_int_n(NxRandom *r, int32_t n);      /* nextInt(n), n > 0 */
int64_t nx_rand_long(NxRandom *r);                  /* nextLong() */
double nx_rand_double(NxRandom *r);                 /* nextDouble() */

enum { NX_PERSON = 0, NX_AUCTION = 1, NX_BID = 2 };

#define NX_CHANNELS 10000
#define NX_CHANNEL_STRIDE 96     /* bytes per channel in channel_text */
#define NX_CHANNEL_URL 16        /* offset of a channel's url in its stride */

typedef struct NxConfig {
    int32_t person_proportion, auction_proportion, bid_proportion;  /* 1, 3, 46 */
    int32_t avg_person_size, avg_auction_size, avg_bid_size;        /* bytes: 200, 500, 100 */
    int32_t hot_auction_ratio, hot_bidder_ratio, hot_seller_ratio;  /* 2, 4, 4 */
    int32_t first_event_rate;       /* events/s of event time over all generators: 10000 */
    int64_t events_num;             /* 0 = practically unbounded */
    int64_t stop_at;                /* -1 = none */
    int64_t base_time_ms;           /* event time of event number 0 */
    bool flink_bidder_offset;       /* true: bidders are base0 + 2000 as in nexmark-flink */
} NxConfig;

void nx_config_defaults(NxConfig *c);
/* false with a message when the configuration cannot drive the model. */
bool nx_config_check(const NxConfig *c, char *msg, size_t msgsz);

/* One generator: split `split` of `nsplits` parallel timelines (Flink's GeneratorConfig.split). */
typedef struct NxGen {
    NxConfig c;
    int32_t total;                  /* sum of the proportions */
    int nsplits, split;
    double delay_us;                /* 1e6 / rate * nsplits */
    int64_t first_event_id;         /* of this split */
    int64_t max_events;             /* events of this split */
    int64_t stop_at;                /* events of this split before stopping, -1 = none */
    /* fixed tables, built from fixed seeds */
    char *pool;                     /* 1 MiB of nextExactString characters: `extra` slices */
    int32_t pool_len;
    WStr names[99];                 /* "First Last" */
    WStr hot_urls[4];
    /* channel i's name at channel_text + i * NX_CHANNEL_STRIDE, its url NX_CHANNEL_URL bytes
       after, their lengths in channel_len[i]: a bid finds its channel's strings by arithmetic
       and a 20 KB table (the strings are read only by a query that reads them) */
    char *channel_text;
    struct { uint8_t name, url; } channel_len[NX_CHANNELS];
    char *strings;                  /* storage of names and hot urls */
} NxGen;

/* Build a generator (tables included); false with a message in msg when the config is invalid. */
bool nx_gen_init(NxGen *g, const NxConfig *c, int split, int nsplits, char *msg, size_t msgsz);
void nx_gen_free(NxGen *g);

typedef struct NxPerson {
    int64_t id;
    WStr name, email, credit_card, city, state;
    int64_t date_time;
    WStr extra;
} NxPerson;

typedef struct NxAuction {
    int64_t id;
    WStr item_name, description;
    int64_t initial_bid, reserve, date_time, expires, seller, category;
    WStr extra;
} NxAuction;

typedef struct NxBid {
    int64_t auction, bidder, price;
    WStr channel, url;
    int64_t date_time;
    WStr extra;
} NxBid;

typedef struct NxEvent {
    int type;                       /* NX_PERSON, NX_AUCTION, NX_BID */
    int64_t event_id, event_number;
    int64_t timestamp;              /* epoch ms */
    NxPerson person;
    NxAuction auction;
    NxBid bid;
} NxEvent;

/* Number of events this split produces (stop-at applied); -1 when unbounded in practice. */
int64_t nx_gen_count(const NxGen *g);
/* The event id and kind of the k-th event (0-based) of this split, without generating it. */
int64_t nx_event_id(const NxGen *g, int64_t k);
int nx_event_type(const NxGen *g, int64_t event_id);
/* Event time of an event number. */
int64_t nx_timestamp(const NxGen *g, int64_t event_number);
/* Generate the k-th event of this split. Strings not in the tables are allocated in `a`. */
void nx_event(const NxGen *g, int64_t k, NxEvent *ev, WArena *a);

/* Sequential generation: the position k with its event id split as epoch * total + offset. */
typedef struct NxCursor { int64_t k, epoch, off; } NxCursor;
void nx_cursor_init(const NxGen *g, int64_t k, NxCursor *cur);
static inline void nx_cursor_next(const NxGen *g, NxCursor *cur)
{
    cur->k++;
    if (++cur->off == g->total) { cur->off = 0; cur->epoch++; }
}
static inline int nx_cursor_type(const NxGen *g, const NxCursor *cur)
{
    return cur->off < g->c.person_proportion ? NX_PERSON
         : cur->off < g->c.person_proportion + g->c.auction_proportion ? NX_AUCTION : NX_BID;
}
/* The event at the cursor (the same as nx_event(g, cur->k, ...)). */
void nx_event_at(const NxGen *g, const NxCursor *cur, NxEvent *ev, WArena *a);

/* The id helpers (base 0) of the model, for tests. */
int64_t nx_last_base0_person(const NxGen *g, int64_t event_id);
int64_t nx_last_base0_auction(const NxGen *g, int64_t event_id);

#endif
