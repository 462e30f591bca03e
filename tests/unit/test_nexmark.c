/*
 * test_nexmark.c — the Nexmark generator model (connectors/nexmark.h), the 'nexmark' source's
 * options and schemas, and the benchmark queries: each runnable Nexmark query's final streaming
 * result equals its batch result on a small event count (streaming changelog applied).
 * The query texts below are the SELECT parts of github.com/nexmark/nexmark's q*.sql
 * (nexmark-flink/src/main/resources/queries @6b3646c, Apache-2.0), as in bench/nexmark/queries.
 */
#include "unit.h"
#include "../../src/connectors/nexmark.h"
#include "../../src/connectors/connector.h"
#include "../../src/session/session.h"
#include "../../src/types/format.h"
#include "../../src/common/strbuf.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* java.util.Random                                                                            */

WTEST(nexmark_java_random_vectors)
{
    NxRandom r;
    nx_rand_seed(&r, 0);
    CHECK_INT(nx_rand_int(&r), -1155484576);
    nx_rand_seed(&r, 42);
    CHECK_INT(nx_rand_int(&r), -1170105035);
    nx_rand_seed(&r, 0);
    CHECK(nx_rand_double(&r) == 0.730967787376657);
    nx_rand_seed(&r, 0);
    CHECK_INT(nx_rand_long(&r), -4962768465676381896LL);
    nx_rand_seed(&r, 42);
    CHECK_INT(nx_rand_int_n(&r, 10), 0);        /* next(31) = 1562431130; % 10 */
    nx_rand_seed(&r, 42);
    CHECK_INT(nx_rand_int_n(&r, 16), 11);       /* power of two: (16 * 1562431130) >> 31 */
    /* bounded draws stay in range */
    nx_rand_seed(&r, 7);
    for (int i = 0; i < 10000; i++) {
        int32_t v = nx_rand_int_n(&r, 1000000007);
        CHECK(v >= 0 && v < 1000000007);
        if (v < 0 || v >= 1000000007) break;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* the model                                                                                   */

static NxGen *gen_new(NxConfig *c, int split, int nsplits)
{
    NxGen *g = calloc(1, sizeof *g);
    char msg[256];
    if (!nx_gen_init(g, c, split, nsplits, msg, sizeof msg)) {
        free(g);
        return NULL;
    }
    return g;
}

static void gen_delete(NxGen *g)
{
    if (!g) return;
    nx_gen_free(g);
    free(g);
}

WTEST(nexmark_event_skeleton)
{
    NxConfig c;
    nx_config_defaults(&c);
    c.events_num = 1000;
    NxGen *g = gen_new(&c, 0, 1);
    CHECK(g != NULL);
    if (!g) return;
    WArena *a = warena_new(0);
    NxEvent ev;
    /* the test vectors of the model: split 0 starts at event id 2 */
    nx_event(g, 0, &ev, a);
    CHECK_INT(ev.event_id, 2);
    CHECK_INT(ev.type, NX_AUCTION);
    CHECK_INT(ev.auction.id, 1001);
    nx_event(g, 1, &ev, a);
    CHECK_INT(ev.type, NX_AUCTION);
    CHECK_INT(ev.auction.id, 1002);
    for (int k = 2; k <= 47; k++) {
        nx_event(g, k, &ev, a);
        CHECK_INT(ev.type, NX_BID);
    }
    nx_event(g, 48, &ev, a);
    CHECK_INT(ev.event_id, 50);
    CHECK_INT(ev.type, NX_PERSON);
    CHECK_INT(ev.person.id, 1001);
    for (int k = 49; k <= 51; k++) {
        nx_event(g, k, &ev, a);
        CHECK_INT(ev.type, NX_AUCTION);
        CHECK_INT(ev.auction.id, 1003 + (k - 49));
    }
    nx_event(g, 52, &ev, a);
    CHECK_INT(ev.type, NX_BID);
    CHECK_INT(nx_last_base0_auction(g, 0), -1);
    CHECK_INT(nx_last_base0_person(g, 50), 1);
    CHECK_INT(nx_last_base0_auction(g, 50), 2);     /* a person: the last auction of the previous epoch */
    CHECK_INT(nx_last_base0_auction(g, 52), 4);
    /* timestamps: 10,000 events/s -> 100 us per event; event number k + 1 */
    CHECK_INT(nx_timestamp(g, 1) - c.base_time_ms, 0);
    CHECK_INT(nx_timestamp(g, 10) - c.base_time_ms, 1);
    CHECK_INT(nx_timestamp(g, 25) - c.base_time_ms, 2);
    nx_event(g, 99, &ev, a);
    CHECK_INT(ev.timestamp, c.base_time_ms + 10);
    CHECK_INT(nx_gen_count(g), 1000);
    warena_delete(a);
    gen_delete(g);
}

static bool str_is(WStr s, const char *c) { return s.len == (int32_t)strlen(c) && memcmp(s.p, c, (size_t)s.len) == 0; }

static int64_t reverse_abs(int32_t v)
{
    uint32_t x = (uint32_t)v, y = 0;
    for (int i = 0; i < 32; i++) { y = (y << 1) | (x & 1); x >>= 1; }
    int64_t s = (int32_t)y;
    return s == INT32_MIN ? s : s < 0 ? -s : s;     /* Java's Math.abs(Integer.MIN_VALUE) */
}

WTEST(nexmark_field_distributions)
{
    NxConfig c;
    nx_config_defaults(&c);
    c.events_num = 200000;
    NxGen *g = gen_new(&c, 0, 1);
    CHECK(g != NULL);
    if (!g) return;
    WArena *a = warena_new(0);
    NxEvent ev;
    int64_t nbid = 0, hot_auction = 0, hot_bidder = 0, rank[3] = {0, 0, 0}, hot_channel = 0, with_id = 0, q21 = 0;
    int64_t nauction = 0, hot_seller = 0, nperson = 0, person_size = 0, auction_size = 0;
    int bad = 0;
    NxCursor cur;
    nx_cursor_init(g, 0, &cur);
    for (int64_t k = 0; k < 200000; k++) {
        if ((k & 1023) == 0) warena_reset(a);
        nx_event_at(g, &cur, &ev, a);
        nx_cursor_next(g, &cur);
        int64_t lp = nx_last_base0_person(g, ev.event_id), la = nx_last_base0_auction(g, ev.event_id);
        if (ev.type == NX_BID) {
            const NxBid *b = &ev.bid;
            nbid++;
            if (b->auction == (la / 100) * 100 + 1000) hot_auction++;
            else if (b->auction < 1000 || b->auction > la + 1000 + 10 || b->auction < la - 100 + 1000) bad++;
            if (b->bidder == (lp / 100) * 100 + 1 + 2000) hot_bidder++;
            else if (b->bidder < 2000 || b->bidder > lp + 2000 + 10) bad++;
            if (b->price < 100 || b->price > 100000000) bad++;
            rank[b->price < 10000 ? 0 : b->price < 1000000 ? 1 : 2]++;
            if (b->extra.len < 54 || b->extra.len > 81) bad++;
            if (b->date_time != ev.timestamp) bad++;
            bool hot = str_is(b->channel, "Google") || str_is(b->channel, "Facebook") ||
                       str_is(b->channel, "Baidu") || str_is(b->channel, "Apple");
            if (hot) {
                hot_channel++;
                q21++;
            } else {
                int n = atoi(b->channel.p + 8);
                char want[64];
                snprintf(want, sizeof want, "&channel_id=%lld", (long long)reverse_abs(n));
                if (b->channel.len < 9 || memcmp(b->channel.p, "channel-", 8) != 0 || n < 0 || n >= NX_CHANNELS) bad++;
                const char *id = memmem(b->url.p, (size_t)b->url.len, "&channel_id=", 12);
                if (id) {
                    with_id++;
                    q21++;
                    if ((size_t)(b->url.p + b->url.len - id) != strlen(want) || memcmp(id, want, strlen(want)) != 0) bad++;
                }
            }
            if (b->url.len < 24 || memcmp(b->url.p, "https://www.nexmark.com/", 24) != 0) bad++;
        } else if (ev.type == NX_AUCTION) {
            const NxAuction *x = &ev.auction;
            nauction++;
            if (x->id != la + 1000) bad++;
            if (x->seller == (lp / 100) * 100 + 1000) hot_seller++;
            else if (x->seller < 1000 || x->seller > lp + 1000 + 10) bad++;
            if (x->category < 10 || x->category > 14) bad++;
            if (x->reserve < x->initial_bid || x->expires <= x->date_time) bad++;
            if (x->item_name.len > 19 || x->description.len > 99) bad++;
            auction_size += 8 + x->item_name.len + x->description.len + 40 + x->extra.len;
        } else {
            const NxPerson *p = &ev.person;
            nperson++;
            if (p->id != lp + 1000) bad++;
            if (p->credit_card.len != 19 || p->credit_card.p[4] != ' ') bad++;
            if (!memchr(p->email.p, '@', (size_t)p->email.len) || p->email.len < 6) bad++;
            if (p->state.len != 2) bad++;
            person_size += 8 + p->name.len + p->email.len + p->credit_card.len + p->city.len + p->state.len + p->extra.len;
        }
    }
    CHECK_INT(bad, 0);
    CHECK_INT(nperson, 4000);
    CHECK_INT(nauction, 12000);
    CHECK_INT(nbid, 184000);
    /* hot ratios: auctions 1 - 1/2, bidders 1 - 1/4 (plus random picks that hit the hot id), sellers 1 - 1/4 */
    CHECK(hot_auction > nbid * 48 / 100 && hot_auction < nbid * 53 / 100);
    CHECK(hot_bidder > nbid * 74 / 100 && hot_bidder < nbid * 77 / 100);
    CHECK(hot_seller > nauction * 73 / 100 && hot_seller < nauction * 77 / 100);
    /* log-uniform prices: a third in each of q15-q17's rank buckets */
    for (int i = 0; i < 3; i++) CHECK(rank[i] > nbid * 32 / 100 && rank[i] < nbid * 35 / 100);
    /* half the bids on the 4 hot channels; 9 in 10 of the others' urls carry a channel id */
    CHECK(hot_channel > nbid * 49 / 100 && hot_channel < nbid * 51 / 100);
    CHECK(with_id > (nbid - hot_channel) * 88 / 100 && with_id < (nbid - hot_channel) * 92 / 100);
    CHECK(q21 > nbid * 93 / 100 && q21 < nbid * 97 / 100);
    /* the extra field pads events to their average sizes */
    CHECK(person_size / nperson > 190 && person_size / nperson < 210);
    CHECK(auction_size / nauction > 480 && auction_size / nauction < 520);
    warena_delete(a);
    gen_delete(g);
}

static bool same_event(const NxEvent *x, const NxEvent *y)
{
    if (x->type != y->type || x->event_id != y->event_id || x->timestamp != y->timestamp) return false;
#define SAME_STR(f) (x->f.len == y->f.len && memcmp(x->f.p, y->f.p, (size_t)x->f.len) == 0)
    switch (x->type) {
    case NX_PERSON:
        return x->person.id == y->person.id && SAME_STR(person.name) && SAME_STR(person.email) &&
               SAME_STR(person.credit_card) && SAME_STR(person.city) && SAME_STR(person.state) && SAME_STR(person.extra);
    case NX_AUCTION:
        return x->auction.id == y->auction.id && x->auction.seller == y->auction.seller &&
               x->auction.category == y->auction.category && x->auction.initial_bid == y->auction.initial_bid &&
               x->auction.reserve == y->auction.reserve && x->auction.expires == y->auction.expires &&
               SAME_STR(auction.item_name) && SAME_STR(auction.description) && SAME_STR(auction.extra);
    default:
        return x->bid.auction == y->bid.auction && x->bid.bidder == y->bid.bidder && x->bid.price == y->bid.price &&
               SAME_STR(bid.channel) && SAME_STR(bid.url) && SAME_STR(bid.extra);
    }
#undef SAME_STR
}

WTEST(nexmark_deterministic_and_random_access)
{
    NxConfig c;
    nx_config_defaults(&c);
    c.events_num = 5000;
    NxGen *g1 = gen_new(&c, 0, 1), *g2 = gen_new(&c, 0, 1);
    CHECK(g1 && g2);
    if (!g1 || !g2) { gen_delete(g1); gen_delete(g2); return; }
    WArena *a = warena_new(0);
    NxCursor cur;
    nx_cursor_init(g1, 0, &cur);
    int diff = 0;
    for (int64_t k = 0; k < 5000; k++) {
        NxEvent x, y;
        nx_event_at(g1, &cur, &x, a);
        nx_cursor_next(g1, &cur);
        nx_event(g2, k, &y, a);                     /* another generator, random access */
        if (!same_event(&x, &y)) diff++;
    }
    CHECK_INT(diff, 0);
    /* backwards, from the middle */
    NxEvent x, y;
    nx_event(g1, 4321, &x, a);
    nx_event(g2, 17, &y, a);
    nx_event(g2, 4321, &y, a);
    CHECK(same_event(&x, &y));
    warena_delete(a);
    gen_delete(g1);
    gen_delete(g2);
}

WTEST(nexmark_splits_and_bidder_offset)
{
    NxConfig c;
    nx_config_defaults(&c);
    c.events_num = 1000;
    c.stop_at = 100;
    NxGen *g[3];
    for (int i = 0; i < 3; i++) g[i] = gen_new(&c, i, 3);
    CHECK(g[0] && g[1] && g[2]);
    if (!g[0] || !g[1] || !g[2]) { for (int i = 0; i < 3; i++) gen_delete(g[i]); return; }
    /* Flink's GeneratorConfig.split: id blocks of 333, the last takes the rest; stop-at split too */
    CHECK_INT(g[0]->first_event_id, 1);
    CHECK_INT(g[1]->first_event_id, 334);
    CHECK_INT(g[2]->first_event_id, 667);
    CHECK_INT(g[0]->max_events, 333);
    CHECK_INT(g[2]->max_events, 334);
    CHECK_INT(nx_gen_count(g[0]), 33);
    CHECK_INT(nx_gen_count(g[2]), 34);
    CHECK_INT(nx_event_id(g[1], 0), 335);
    /* parallel timelines: the same event number has the same time; 3x the delay of one split */
    CHECK_INT(nx_timestamp(g[0], 50), nx_timestamp(g[2], 50));
    CHECK_INT(nx_timestamp(g[0], 10) - c.base_time_ms, 3);
    WArena *a = warena_new(0);
    NxEvent e0, e1;
    nx_event(g[1], 5, &e0, a);
    CHECK_INT(e0.event_id, 340);
    /* the bidder offset: +2000 (nexmark-flink) or +1000 (Beam, nexmark-rs) */
    NxConfig c2 = c;
    c2.flink_bidder_offset = false;
    NxGen *gb = gen_new(&c2, 1, 3);
    CHECK(gb != NULL);
    if (gb) {
        int seen = 0;
        for (int64_t k = 0; k < 60; k++) {
            nx_event(g[1], k, &e0, a);
            nx_event(gb, k, &e1, a);
            if (e0.type != NX_BID) continue;
            seen++;
            CHECK_INT(e0.bid.bidder - e1.bid.bidder, 1000);
            CHECK_INT(e0.bid.price, e1.bid.price);
        }
        CHECK(seen > 40);
    }
    gen_delete(gb);
    warena_delete(a);
    for (int i = 0; i < 3; i++) gen_delete(g[i]);
}

WTEST(nexmark_config_errors)
{
    NxConfig c;
    char msg[512];
    nx_config_defaults(&c);
    CHECK(nx_config_check(&c, msg, sizeof msg));
    c.first_event_rate = 0;
    CHECK(!nx_config_check(&c, msg, sizeof msg));
    CHECK(strstr(msg, "'first-event.rate' must be positive") != NULL);
    nx_config_defaults(&c);
    c.auction_proportion = 0;
    CHECK(!nx_config_check(&c, msg, sizeof msg));
    CHECK(strstr(msg, "'auction.proportion' must be at least 1") != NULL);
    nx_config_defaults(&c);
    c.hot_bidder_ratio = 0;
    CHECK(!nx_config_check(&c, msg, sizeof msg));
    nx_config_defaults(&c);
    c.events_num = -1;
    CHECK(!nx_config_check(&c, msg, sizeof msg));
    /* events.num = 0: practically unbounded, as Flink's Long.MAX / (total * max size) */
    nx_config_defaults(&c);
    NxGen *g = gen_new(&c, 0, 1);
    CHECK(g && nx_gen_count(g) == INT64_MAX / (50 * 500));
    gen_delete(g);
}

/* ------------------------------------------------------------------------------------------ */
/* the source: options, schemas                                                               */

typedef struct SpecBuf {
    WTableSpec spec;
    WOptions opts;
    WArena *a;
} SpecBuf;

static const WType *row_type(WArena *a, int n, const char **names, const WType **types)
{
    return wtype_row(a, n, names, types, true);
}

static const WType *ts3(WArena *a) { return wtype_timestamp(a, WT_TIMESTAMP, 3, true); }

/* nexmark-flink's datagen schema */
static void spec_flink(SpecBuf *b)
{
    memset(b, 0, sizeof *b);
    b->a = warena_new(0);
    WArena *a = b->a;
    static const char *pn[] = {"id", "name", "emailAddress", "creditCard", "city", "state", "dateTime", "extra"};
    static const char *an[] = {"id", "itemName", "description", "initialBid", "reserve", "dateTime", "expires",
                               "seller", "category", "extra"};
    static const char *bn[] = {"auction", "bidder", "price", "channel", "url", "dateTime", "extra"};
    const WType *S = &WTYPE_STRING, *L = &WTYPE_BIGINT, *T = ts3(a);
    const WType *pt[] = {L, S, S, S, S, S, T, S};
    const WType *at[] = {L, S, S, L, L, T, T, L, L, S};
    const WType *bt[] = {L, L, L, S, S, T, S};
    static const char *cols[] = {"event_type", "person", "auction", "bid"};
    const WType **types = WA_ARRAY(a, const WType *, 4);
    types[0] = &WTYPE_INT;
    types[1] = row_type(a, 8, pn, pt);
    types[2] = row_type(a, 10, an, at);
    types[3] = row_type(a, 7, bn, bt);
    wopts_init(&b->opts);
    wopts_set(&b->opts, "connector", "nexmark");
    b->spec.name = "default_catalog.default_database.datagen";
    b->spec.short_name = "datagen";
    b->spec.ncols = 4;
    b->spec.col_names = cols;
    b->spec.col_types = types;
    b->spec.options = &b->opts;
    b->spec.subtask = 0;
    b->spec.parallelism = 1;
}

static void spec_free(SpecBuf *b)
{
    wopts_free(&b->opts);
    warena_delete(b->a);
}

static bool open_err(SpecBuf *b, const char *want)
{
    const WConnector *c = wconnector_find("nexmark");
    WError err;
    werr_clear(&err);
    bool ok = c && c->validate(&b->spec, true, &err);
    if (ok) return false;
    if (!strstr(err.msg, want)) {
        fprintf(stderr, "got: %s\n", err.msg);
        return false;
    }
    return true;
}

WTEST(nexmark_source_option_errors)
{
    SpecBuf b;
    spec_flink(&b);
    const WConnector *c = wconnector_find("nexmark");
    CHECK(c != NULL && c->can_source && !c->can_sink);
    WError err;
    werr_clear(&err);
    CHECK(c && c->validate(&b.spec, true, &err));
    werr_clear(&err);
    CHECK(c && !c->validate(&b.spec, false, &err));
    CHECK(strstr(err.msg, "can only be used as a source") != NULL);
    wopts_set(&b.opts, "events.numb", "10");
    CHECK(open_err(&b, "Unsupported options found for 'nexmark'.\n\nUnsupported options:\n\nevents.numb"));
    wopts_remove(&b.opts, "events.numb");
    wopts_set(&b.opts, "events.num", "ten");
    CHECK(open_err(&b, "For input string: \"ten\""));
    wopts_set(&b.opts, "events.num", "10");
    wopts_set(&b.opts, "bid.avg-size", "1x");
    CHECK(open_err(&b, "Memory size unit 'x' does not match any of the recognized units: (b | bytes) / (k | kb | kibibytes) / (m | mb | mebibytes) / (g | gb | gibibytes) / (t | tb | tebibytes)"));
    wopts_set(&b.opts, "bid.avg-size", "1 kb");
    werr_clear(&err);
    CHECK(c && c->validate(&b.spec, true, &err));
    wopts_set(&b.opts, "rate.shape", "TRIANGLE");
    CHECK(open_err(&b, "Could not parse value 'TRIANGLE' for key 'rate.shape'."));
    wopts_set(&b.opts, "rate.shape", "sine");
    wopts_set(&b.opts, "person.proportion", "0");
    CHECK(open_err(&b, "'person.proportion' and 'auction.proportion' must be at least 1"));
    wopts_set(&b.opts, "person.proportion", "1");
    wopts_set(&b.opts, "tps", "100");
    werr_clear(&err);
    CHECK(c && c->validate(&b.spec, true, &err));
    wopts_set(&b.opts, "first-event.rate", "100");
    CHECK(open_err(&b, "'tps' and 'first-event.rate' set the same rate"));
    wopts_remove(&b.opts, "tps");
    wopts_set(&b.opts, "table.type", "bids");
    CHECK(open_err(&b, "Invalid value 'bids' for the nexmark option 'table.type'"));
    spec_free(&b);

    /* schema errors */
    spec_flink(&b);
    const char *cols[] = {"event_type", "persons"};
    b.spec.col_names = cols;
    b.spec.ncols = 2;
    CHECK(open_err(&b, "Unknown column 'persons' in the nexmark table."));
    const WType *types[] = {&WTYPE_STRING, &WTYPE_BIGINT};
    const char *cols2[] = {"event_type", "bid"};
    b.spec.col_names = cols2;
    b.spec.col_types = types;
    CHECK(open_err(&b, "Column 'event_type' of the nexmark table must be INT."));
    const WType *types2[] = {&WTYPE_INT, &WTYPE_BIGINT};
    b.spec.col_types = types2;
    CHECK(open_err(&b, "Column 'bid' of the nexmark table must be a ROW."));
    wopts_set(&b.opts, "table.type", "bid");
    const char *cols3[] = {"price", "date_time"};
    const WType *types3[] = {&WTYPE_BIGINT, &WTYPE_BIGINT};
    b.spec.col_names = cols3;
    b.spec.col_types = types3;
    CHECK(open_err(&b, "Column 'date_time' of the nexmark table must be TIMESTAMP(3)."));
    spec_free(&b);
}

static WChunk *chunk_for(const WTableSpec *spec)
{
    return wchunk_new(spec->ncols, spec->col_types, WCHUNK_CAP);
}

WTEST(nexmark_source_rows_and_positions)
{
    SpecBuf b;
    spec_flink(&b);
    wopts_set(&b.opts, "events.num", "3000");
    const WConnector *c = wconnector_find("nexmark");
    WError err;
    werr_clear(&err);
    WSource *s = c ? c->open_source(&b.spec, &err) : NULL;
    CHECK(s != NULL);
    if (!s) { spec_free(&b); return; }
    CHECK(s->bounded);
    WChunk *ch = chunk_for(&b.spec);
    int64_t total = 0, bids = 0, bad = 0;
    WSourceStatus st;
    char pos[64] = "";
    do {
        wchunk_reset(ch);
        st = s->next(s, ch, &err);
        for (int r = 0; r < ch->nrows; r++) {
            int64_t et = ch->cols[0].data[r].i;
            for (int k = 1; k <= 3; k++)
                if (ch->cols[k].nulls[r] != (et != k - 1)) bad++;
            if (et == 2) {
                const WComposite *cx = ch->cols[3].data[r].cx;
                bids++;
                if (cx->n != 7 || cx->vals[2].i < 100 || cx->nulls[6]) bad++;
            }
        }
        total += ch->nrows;
        if (total == 2048) CHECK(s->position(s, pos, sizeof pos));
    } while (st == WSRC_MORE);
    CHECK_INT(st, WSRC_END);
    CHECK_INT(total, 3000);
    CHECK_INT(bids, 2760);
    CHECK_INT(bad, 0);
    CHECK_INT(s->rows_read, 3000);
    CHECK_STR(pos, "nx:2048");
    /* seek back: the same rows again */
    CHECK(s->seek(s, "nx:2048", &err));
    wchunk_reset(ch);
    CHECK_INT(s->next(s, ch, &err), WSRC_END);
    CHECK_INT(ch->nrows, 952);
    werr_clear(&err);
    CHECK(!s->seek(s, "nx:x", &err));
    CHECK(strstr(err.msg, "Invalid nexmark source position 'nx:x'.") != NULL);
    s->close(s);
    wchunk_free(ch);
    spec_free(&b);

    /* a flat bid table: only the bids, columns by name in any order */
    spec_flink(&b);
    wopts_set(&b.opts, "events.num", "3000");
    wopts_set(&b.opts, "table.type", "bid");
    const char *cols[] = {"date_time", "price", "auction"};
    const WType *types[] = {ts3(b.a), &WTYPE_BIGINT, &WTYPE_BIGINT};
    b.spec.ncols = 3;
    b.spec.col_names = cols;
    b.spec.col_types = types;
    werr_clear(&err);
    s = c ? c->open_source(&b.spec, &err) : NULL;
    CHECK(s != NULL);
    if (s) {
        ch = chunk_for(&b.spec);
        total = 0;
        int64_t last_ts = 0;
        bad = 0;
        do {
            wchunk_reset(ch);
            st = s->next(s, ch, &err);
            for (int r = 0; r < ch->nrows; r++) {
                if (ch->cols[0].data[r].ts.ms < last_ts || ch->cols[1].data[r].i < 100 || ch->cols[2].data[r].i < 1000) bad++;
                last_ts = ch->cols[0].data[r].ts.ms;
            }
            total += ch->nrows;
        } while (st == WSRC_MORE);
        CHECK_INT(total, 2760);
        CHECK_INT(bad, 0);
        s->close(s);
        wchunk_free(ch);
    }
    spec_free(&b);
}

/* ------------------------------------------------------------------------------------------ */
/* the queries: final streaming result == batch result                                         */

static const char *const DDL[] = {
    "CREATE TABLE datagen (event_type int, person ROW<id BIGINT, name VARCHAR, emailAddress VARCHAR, "
    "creditCard VARCHAR, city VARCHAR, state VARCHAR, `dateTime` TIMESTAMP(3), extra VARCHAR>, "
    "auction ROW<id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT, "
    "`dateTime` TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR>, "
    "bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, `dateTime` TIMESTAMP(3), "
    "extra VARCHAR>, `dateTime` AS CASE WHEN event_type = 0 THEN person.`dateTime` WHEN event_type = 1 "
    "THEN auction.`dateTime` ELSE bid.`dateTime` END, WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND"
    ") WITH ('connector' = 'nexmark', 'first-event.rate' = '10', 'next-event.rate' = '10', 'events.num' = '%d', "
    "'person.proportion' = '1', 'auction.proportion' = '3', 'bid.proportion' = '46')",
    "CREATE VIEW person AS SELECT person.id, person.name, person.emailAddress, person.creditCard, person.city, "
    "person.state, `dateTime`, person.extra FROM datagen WHERE event_type = 0",
    "CREATE VIEW auction AS SELECT auction.id, auction.itemName, auction.description, auction.initialBid, "
    "auction.reserve, `dateTime`, auction.expires, auction.seller, auction.category, auction.extra "
    "FROM datagen WHERE event_type = 1",
    "CREATE VIEW bid AS SELECT bid.auction, bid.bidder, bid.price, bid.channel, bid.url, `dateTime`, bid.extra "
    "FROM datagen WHERE event_type = 2",
};

typedef struct NxQuery { const char *name; const char *sql; } NxQuery;

static const NxQuery QUERIES[] = {
    {"q0", "SELECT auction, bidder, price, `dateTime`, extra FROM bid"},
    {"q1", "SELECT auction, bidder, 0.908 * price as price, `dateTime`, extra FROM bid"},
    {"q2", "SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0"},
    {"q3", "SELECT P.name, P.city, P.state, A.id FROM auction AS A INNER JOIN person AS P on A.seller = P.id "
           "WHERE A.category = 10 and (P.state = 'OR' OR P.state = 'ID' OR P.state = 'CA')"},
    {"q4", "SELECT Q.category, AVG(Q.final) FROM (SELECT MAX(B.price) AS final, A.category FROM auction A, bid B "
           "WHERE A.id = B.auction AND B.`dateTime` BETWEEN A.`dateTime` AND A.expires GROUP BY A.id, A.category) Q "
           "GROUP BY Q.category"},
    {"q5", "SELECT AuctionBids.auction, AuctionBids.num FROM (SELECT auction, count(*) AS num, window_start AS starttime, "
           "window_end AS endtime FROM TABLE(HOP(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '10' SECOND)) "
           "GROUP BY auction, window_start, window_end) AS AuctionBids JOIN (SELECT max(CountBids.num) AS maxn, "
           "CountBids.starttime, CountBids.endtime FROM (SELECT count(*) AS num, window_start AS starttime, "
           "window_end AS endtime FROM TABLE(HOP(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '10' SECOND)) "
           "GROUP BY auction, window_start, window_end) AS CountBids GROUP BY CountBids.starttime, CountBids.endtime) AS MaxBids "
           "ON AuctionBids.starttime = MaxBids.starttime AND AuctionBids.endtime = MaxBids.endtime AND "
           "AuctionBids.num >= MaxBids.maxn"},
    {"q7", "SELECT B.auction, B.price, B.bidder, B.`dateTime`, B.extra from bid B JOIN (SELECT MAX(price) AS maxprice, "
           "window_end as `dateTime` FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND)) "
           "GROUP BY window_start, window_end) B1 ON B.price = B1.maxprice WHERE B.`dateTime` BETWEEN "
           "B1.`dateTime`  - INTERVAL '10' SECOND AND B1.`dateTime`"},
    {"q8", "SELECT P.id, P.name, P.starttime FROM (SELECT id, name, window_start AS starttime, window_end AS endtime "
           "FROM TABLE(TUMBLE(TABLE person, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND)) GROUP BY id, name, "
           "window_start, window_end) P JOIN (SELECT seller, window_start AS starttime, window_end AS endtime FROM "
           "TABLE(TUMBLE(TABLE auction, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND)) GROUP BY seller, window_start, "
           "window_end) A ON P.id = A.seller AND P.starttime = A.starttime AND P.endtime = A.endtime"},
    {"q9", "SELECT id, itemName, description, initialBid, reserve, `dateTime`, expires, seller, category, extra, "
           "auction, bidder, price, bid_dateTime, bid_extra FROM (SELECT A.*, B.auction, B.bidder, B.price, "
           "B.`dateTime` AS bid_dateTime, B.extra AS bid_extra, ROW_NUMBER() OVER (PARTITION BY A.id ORDER BY "
           "B.price DESC, B.`dateTime` ASC) AS rownum FROM auction A, bid B WHERE A.id = B.auction AND B.`dateTime` "
           "BETWEEN A.`dateTime` AND A.expires) WHERE rownum <= 1"},
    {"q10", "SELECT auction, bidder, price, `dateTime`, extra, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd'), "
            "DATE_FORMAT(`dateTime`, 'HH:mm') FROM bid"},
    {"q11", "SELECT B.bidder, count(*) as bid_count, SESSION_START(B.`dateTime`, INTERVAL '10' SECOND) as starttime, "
            "SESSION_END(B.`dateTime`, INTERVAL '10' SECOND) as endtime FROM bid B GROUP BY B.bidder, "
            "SESSION(B.`dateTime`, INTERVAL '10' SECOND)"},
    {"q15", "SELECT DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') as `day`, count(*) AS total_bids, count(*) filter "
            "(where price < 10000) AS rank1_bids, count(*) filter (where price >= 10000 and price < 1000000) AS rank2_bids, "
            "count(*) filter (where price >= 1000000) AS rank3_bids, count(distinct bidder) AS total_bidders, "
            "count(distinct bidder) filter (where price < 10000) AS rank1_bidders, count(distinct bidder) filter "
            "(where price >= 10000 and price < 1000000) AS rank2_bidders, count(distinct bidder) filter "
            "(where price >= 1000000) AS rank3_bidders, count(distinct auction) AS total_auctions, count(distinct auction) "
            "filter (where price < 10000) AS rank1_auctions, count(distinct auction) filter (where price >= 10000 and "
            "price < 1000000) AS rank2_auctions, count(distinct auction) filter (where price >= 1000000) AS rank3_auctions "
            "FROM bid GROUP BY DATE_FORMAT(`dateTime`, 'yyyy-MM-dd')"},
    {"q16", "SELECT channel, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') as `day`, max(DATE_FORMAT(`dateTime`, 'HH:mm')) as "
            "`minute`, count(*) AS total_bids, count(*) filter (where price < 10000) AS rank1_bids, count(*) filter "
            "(where price >= 10000 and price < 1000000) AS rank2_bids, count(*) filter (where price >= 1000000) AS "
            "rank3_bids, count(distinct bidder) AS total_bidders, count(distinct bidder) filter (where price < 10000) "
            "AS rank1_bidders, count(distinct bidder) filter (where price >= 10000 and price < 1000000) AS rank2_bidders, "
            "count(distinct bidder) filter (where price >= 1000000) AS rank3_bidders, count(distinct auction) AS "
            "total_auctions, count(distinct auction) filter (where price < 10000) AS rank1_auctions, count(distinct "
            "auction) filter (where price >= 10000 and price < 1000000) AS rank2_auctions, count(distinct auction) "
            "filter (where price >= 1000000) AS rank3_auctions FROM bid GROUP BY channel, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd')"},
    {"q17", "SELECT auction, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') as `day`, count(*) AS total_bids, count(*) filter "
            "(where price < 10000) AS rank1_bids, count(*) filter (where price >= 10000 and price < 1000000) AS rank2_bids, "
            "count(*) filter (where price >= 1000000) AS rank3_bids, min(price) AS min_price, max(price) AS max_price, "
            "avg(price) AS avg_price, sum(price) AS sum_price FROM bid GROUP BY auction, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd')"},
    {"q18", "SELECT auction, bidder, price, channel, url, `dateTime`, extra FROM (SELECT *, ROW_NUMBER() OVER "
            "(PARTITION BY bidder, auction ORDER BY `dateTime` DESC) AS rank_number FROM bid) WHERE rank_number <= 1"},
    {"q19", "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rank_number "
            "FROM bid) WHERE rank_number <= 10"},
    {"q20", "SELECT auction, bidder, price, channel, url, B.`dateTime`, B.extra, itemName, description, initialBid, "
            "reserve, A.`dateTime`, expires, seller, category, A.extra FROM bid AS B INNER JOIN auction AS A on "
            "B.auction = A.id WHERE A.category = 10"},
    {"q21", "SELECT auction, bidder, price, channel, CASE WHEN lower(channel) = 'apple' THEN '0' WHEN lower(channel) = "
            "'google' THEN '1' WHEN lower(channel) = 'facebook' THEN '2' WHEN lower(channel) = 'baidu' THEN '3' ELSE "
            "REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2) END AS channel_id FROM bid where REGEXP_EXTRACT(url, "
            "'(&|^)channel_id=([^&]*)', 2) is not null or lower(channel) in ('apple', 'google', 'facebook', 'baidu')"},
    {"q22", "SELECT auction, bidder, price, channel, SPLIT_INDEX(url, '/', 3) as dir1, SPLIT_INDEX(url, '/', 4) as dir2, "
            "SPLIT_INDEX(url, '/', 5) as dir3 FROM bid"},
};

/* The final table of a result: rows rendered as text; +I/+U add, -U/-D remove one copy. */
typedef struct Rows {
    int n, cap;
    char **row;
    int ncols;
    const WType *const *types;
    int changes;
    bool bad_retract;
} Rows;

static void rows_open(void *ctx, int ncols, const char *const *names, const WType *const *types)
{
    Rows *r = ctx;
    r->ncols = ncols;
    r->types = types;
}

static bool rows_add(void *ctx, const WChunk *c)
{
    Rows *r = ctx;
    WStrBuf sb;
    wsb_init(&sb);
    for (int i = 0; i < c->nrows; i++) {
        wsb_clear(&sb);
        for (int k = 0; k < c->ncols; k++) {
            if (k) wsb_putc(&sb, '|');
            wfmt_sql(c->cols[k].type, c->cols[k].data[i], c->cols[k].nulls[i], NULL, &sb);
        }
        r->changes++;
        if (wrowkind_is_retract((WRowKind)c->kinds[i])) {
            int j = r->n - 1;
            while (j >= 0 && strcmp(r->row[j], sb.buf) != 0) j--;
            if (j < 0) { r->bad_retract = true; continue; }
            free(r->row[j]);
            r->row[j] = r->row[--r->n];
        } else {
            if (r->n == r->cap) {
                r->cap = r->cap ? r->cap * 2 : 256;
                r->row = realloc(r->row, sizeof(char *) * (size_t)r->cap);
            }
            r->row[r->n++] = strdup(sb.buf);
        }
    }
    wsb_free(&sb);
    return true;
}

static void rows_close(void *ctx, bool ok) { (void)ctx; (void)ok; }

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void rows_free(Rows *r)
{
    for (int i = 0; i < r->n; i++) free(r->row[i]);
    free(r->row);
    memset(r, 0, sizeof *r);
}

static bool exec(WSession *s, const char *sql, Rows *rows, WError *err)
{
    WStmtResult res;
    memset(&res, 0, sizeof res);
    WResultSink sink = {rows, rows_open, rows_add, rows_close, NULL};
    werr_clear(err);
    bool ok = wsession_execute(s, sql, rows ? &sink : NULL, &res, err);
    if (ok) wstmt_result_free(&res);
    return ok;
}

static WSession *nexmark_session(int events, const char *parallelism)
{
    WSession *s = wsession_new(stdout);
    WError err;
    char ddl[4096];
    snprintf(ddl, sizeof ddl, DDL[0], events);
    bool ok = exec(s, ddl, NULL, &err);
    for (int i = 1; i < 4 && ok; i++) ok = exec(s, DDL[i], NULL, &err);
    char set[128];
    snprintf(set, sizeof set, "SET 'parallelism.default' = '%s'", parallelism);
    if (ok) ok = exec(s, set, NULL, &err);
    if (!ok) {
        fprintf(stderr, "nexmark session: %s\n", err.msg);
        wsession_free(s);
        return NULL;
    }
    return s;
}

/* Run every query in streaming and in batch mode; the final tables must be equal (and not all
   empty: each query is expected to produce rows at this size unless listed in `may_be_empty`). */
static void streaming_equals_batch(int *wtest_failed_, int events, const char *parallelism)
{
    WSession *s = nexmark_session(events, parallelism);
    CHECK(s != NULL);
    if (!s) return;
    for (size_t q = 0; q < sizeof QUERIES / sizeof QUERIES[0]; q++) {
        Rows st = {0}, ba = {0};
        WError err;
        /* q9's Top-1 (ORDER BY price DESC, dateTime) is one Flink 2.3 declares insert-only in
           streaming: a new first row goes out as +U without -U, so the folded changelog keeps every
           row that was ever first (src/plan/physical.c, WR_RANK; golden top1_insert_only). With
           mini-batch on the Top-1 retracts, and its final table is comparable with batch. */
        bool top1 = strcmp(QUERIES[q].name, "q9") == 0;
        bool ok = exec(s, "SET 'execution.runtime-mode' = 'streaming'", NULL, &err) &&
                  (!top1 || (exec(s, "SET 'table.exec.mini-batch.enabled' = 'true'", NULL, &err) &&
                             exec(s, "SET 'table.exec.mini-batch.allow-latency' = '1 s'", NULL, &err) &&
                             exec(s, "SET 'table.exec.mini-batch.size' = '1000'", NULL, &err))) &&
                  exec(s, QUERIES[q].sql, &st, &err);
        if (ok && top1) ok = exec(s, "SET 'table.exec.mini-batch.enabled' = 'false'", NULL, &err);
        if (ok) ok = exec(s, "SET 'execution.runtime-mode' = 'batch'", NULL, &err) && exec(s, QUERIES[q].sql, &ba, &err);
        if (!ok) {
            char m[600];
            snprintf(m, sizeof m, "%s: %s", QUERIES[q].name, err.msg);
            wtest_report(__FILE__, __LINE__, m);
            *wtest_failed_ = 1;
        } else {
            if (st.n) qsort(st.row, (size_t)st.n, sizeof(char *), cmp_str);
            if (ba.n) qsort(ba.row, (size_t)ba.n, sizeof(char *), cmp_str);
            bool same = st.n == ba.n && !st.bad_retract;
            for (int i = 0; same && i < st.n; i++) same = strcmp(st.row[i], ba.row[i]) == 0;
            bool empty_ok = strcmp(QUERIES[q].name, "q2") == 0 || strcmp(QUERIES[q].name, "q3") == 0 ||
                            strcmp(QUERIES[q].name, "q8") == 0;
            if (!same || (st.n == 0 && !empty_ok)) {
                char m[600];
                snprintf(m, sizeof m, "%s at parallelism %s: streaming final %d rows (%d changes%s), batch %d rows",
                         QUERIES[q].name, parallelism, st.n, st.changes, st.bad_retract ? ", retraction of a missing row" : "", ba.n);
                wtest_report(__FILE__, __LINE__, m);
                *wtest_failed_ = 1;
            }
        }
        rows_free(&st);
        rows_free(&ba);
    }
    wsession_free(s);
}

WTEST(nexmark_queries_streaming_final_equals_batch)
{
    streaming_equals_batch(wtest_failed_, 500, "1");
}

WTEST(nexmark_queries_streaming_final_equals_batch_parallel)
{
    streaming_equals_batch(wtest_failed_, 300, "2");
}
