/* test_common.c — unit tests for src/common: arena, strbuf, durations, Flink key-group hashing,
   base64. */
#include <limits.h>
#include "unit.h"
#include <stdlib.h>
#include "../../src/common/arena.h"
#include "../../src/common/strbuf.h"
#include "../../src/common/duration.h"
#include "../../src/common/hash.h"
#include "../../src/common/options.h"
#include "../../src/common/base64.h"
#include "../../src/common/memfind.h"

WTEST(arena_alloc_and_reset)
{
    WArena a;
    warena_init(&a, 1024);
    char *p = wa_strdup(&a, "hello");
    CHECK_STR(p, "hello");
    void *big = wa_zalloc(&a, 100000);
    CHECK(big != NULL);
    CHECK(((unsigned char *)big)[99999] == 0);
    for (int i = 0; i < 1000; i++) CHECK(wa_alloc(&a, 17) != NULL);
    warena_reset(&a);
    CHECK_STR(wa_sprintf(&a, "%d-%s", 7, "x"), "7-x");
    warena_free(&a);
}

WTEST(strbuf_basics)
{
    WStrBuf s;
    wsb_init(&s);
    wsb_append(&s, "ab");
    wsb_printf(&s, "%03d", 5);
    wsb_repeat(&s, '-', 3);
    CHECK_STR(s.buf, "ab005---");
    wsb_free(&s);
}

/* wsb_append_i64 writes what "%lld" does, the extremes included */
WTEST(strbuf_append_i64)
{
    const long long v[] = {0, 7, -7, 9, 10, -10, 99, 100, -100, 101, 999, 1000, 10001, 1234567890123LL,
                           -98765432109876LL, LLONG_MAX, LLONG_MAX - 1, LLONG_MIN, LLONG_MIN + 1};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        WStrBuf s, t;
        wsb_init(&s);
        wsb_init(&t);
        wsb_append(&s, "x");
        wsb_append_i64(&s, v[i]);
        wsb_printf(&t, "x%lld", v[i]);
        CHECK_STR(s.buf, t.buf);
        wsb_free(&s);
        wsb_free(&t);
    }
}

WTEST(duration_parse_and_format)
{
    WError e;
    int64_t ms;
    werr_clear(&e);
    CHECK(wduration_parse("30 min", &ms, &e)); CHECK_INT(ms, 1800000);
    CHECK(wduration_parse("1d", &ms, &e)); CHECK_INT(ms, 86400000);
    CHECK(wduration_parse("2 h", &ms, &e)); CHECK_INT(ms, 7200000);
    CHECK(wduration_parse("500", &ms, &e)); CHECK_INT(ms, 500);
    CHECK(wduration_parse("90s", &ms, &e)); CHECK_INT(ms, 90000);
    /* ISO-8601, as TimeUtils tries it (measured on Flink 2.3.0: PT90S, pt1h2m, P1D accepted, PT not) */
    CHECK(wduration_parse("PT90S", &ms, &e)); CHECK_INT(ms, 90000);
    CHECK(wduration_parse("pt1h2m", &ms, &e)); CHECK_INT(ms, 3720000);
    CHECK(wduration_parse("P1D", &ms, &e)); CHECK_INT(ms, 86400000);
    CHECK(wduration_parse("P1DT0.5S", &ms, &e)); CHECK_INT(ms, 86400500);
    werr_clear(&e);
    CHECK(!wduration_parse("PT", &ms, &e)); CHECK_STR(e.msg, "text does not start with a number");
    werr_clear(&e);
    CHECK(!wduration_parse("PT1S2H", &ms, &e));
    werr_clear(&e);
    CHECK(!wduration_parse("P1H", &ms, &e));
    werr_clear(&e);
    CHECK(wduration_parse("7 DAYS", &ms, &e)); CHECK_INT(ms, 7 * 86400000LL);
    CHECK(!wduration_parse("3 weeks", &ms, &e));
    CHECK(strstr(e.msg, "'weeks'") != NULL);
    char buf[32];
    wduration_format(0, buf, sizeof buf); CHECK_STR(buf, "0 ms");
    wduration_format(1800000, buf, sizeof buf); CHECK_STR(buf, "30 min");
    wduration_format(86400000, buf, sizeof buf); CHECK_STR(buf, "1 d");
    wduration_format(7200000, buf, sizeof buf); CHECK_STR(buf, "2 h");
    wduration_format(5400000, buf, sizeof buf); CHECK_STR(buf, "90 min");
    wduration_format(1500, buf, sizeof buf); CHECK_STR(buf, "1500 ms");
}

/* Vectors from ../shared/reference/tools/flink_keygroups.py */
WTEST(flink_key_groups)
{
    unsigned char int1[16] = {0};
    int1[8] = 1;
    int32_t h = wflink_murmur_words(int1, 16, 42);
    CHECK_INT(h, 1465514398);
    CHECK_INT(wflink_key_group(h, 128), 94);
    CHECK_INT(wflink_operator_index(128, 4, 94), 2);
    unsigned char int42[16] = {0};
    int42[8] = 42;
    h = wflink_murmur_words(int42, 16, 42);
    CHECK_INT(h, 907821237);
    CHECK_INT(wflink_key_group(h, 128), 69);
    unsigned char abc[16] = {0};
    abc[8] = 'a'; abc[9] = 'b'; abc[10] = 'c'; abc[15] = 0x83;
    h = wflink_murmur_words(abc, 16, 42);
    CHECK_INT(h, -101922419);
    CHECK_INT(wflink_key_group(h, 128), 92);
    /* a chunk's key groups at once equal one at a time, with a power-of-two max parallelism (by
       a mask) and another (by the remainder), for hash codes of both signs and INT32_MIN */
    int32_t codes[64];
    int kgs[64];
    for (int i = 0; i < 64; i++) codes[i] = (int32_t)((uint32_t)i * 2654435761u);
    codes[0] = INT32_MIN;
    codes[1] = -1;
    const int maxps[] = {128, 1, 2, 100, 4096, 32768, 7};
    for (int m = 0; m < 7; m++) {
        wflink_key_groups(codes, 64, maxps[m], kgs);
        for (int i = 0; i < 64; i++) CHECK_INT(kgs[i], wflink_key_group(codes[i], maxps[m]));
    }
    CHECK_INT(wflink_default_max_parallelism(1), 128);
    CHECK_INT(wflink_default_max_parallelism(86), 256);
    CHECK_INT(wflink_default_max_parallelism(1000), 2048);
    CHECK_INT(wflink_default_max_parallelism(30000), 32768);
}

WTEST(options_set_get)
{
    WOptions o;
    WError e;
    werr_clear(&e);
    wopts_init(&o);
    wopts_set(&o, "a", "1");
    wopts_set(&o, "b", "true");
    wopts_set(&o, "a", "2");
    CHECK_INT(o.n, 2);
    CHECK_STR(wopts_get(&o, "a"), "2");
    bool b = false;
    CHECK(wopts_get_bool(&o, "b", false, &b, &e) && b);
    int64_t ms;
    wopts_set(&o, "t", "10 s");
    CHECK(wopts_get_duration_ms(&o, "t", 0, &ms, &e) && ms == 10000);
    wopts_set(&o, "bad", "x");
    CHECK(!wopts_get_bool(&o, "bad", false, &b, &e));
    wopts_free(&o);
}

/* RFC 4648's test vectors, both ways; a character outside the alphabet is reported with its offset. */
WTEST(base64_rfc4648_vectors)
{
    static const char *const plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    static const char *const coded[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    for (int i = 0; i < 7; i++) {
        char out[16];
        size_t n = wbase64_encode(plain[i], strlen(plain[i]), out);
        CHECK(n == wbase64_len(strlen(plain[i])));
        out[n] = 0;
        CHECK_STR(out, coded[i]);
        unsigned char back[16];
        long m = wbase64_decode(coded[i], strlen(coded[i]), back, NULL);
        CHECK(m == (long)strlen(plain[i]));
        CHECK(memcmp(back, plain[i], (size_t)m) == 0);
    }
    WStrBuf b;
    wsb_init(&b);
    unsigned char bytes[300];
    for (int i = 0; i < 300; i++) bytes[i] = (unsigned char)i;
    wbase64_append(&b, bytes, sizeof bytes);
    CHECK(b.len == wbase64_len(sizeof bytes));
    unsigned char back[300];
    CHECK(wbase64_decode(b.buf, b.len, back, NULL) == 300);
    CHECK(memcmp(back, bytes, 300) == 0);
    wsb_free(&b);
    size_t bad = 0;
    CHECK(wbase64_decode("AQ*D", 4, back, &bad) == -1);
    CHECK(bad == 2);
}

/* whash_words_* computes whash_bytes from 8-byte words (fixed-width keys hashed unencoded). */
WTEST(hash_words_equal_hash_bytes)
{
    uint64_t w[4] = {0x100, 0xdeadbeefULL, (uint64_t)-5, 42};
    for (size_t n = 8; n <= 32; n += 8) {
        uint64_t h = whash_words_begin(n, 0x5eed);
        for (size_t i = 0; i < n / 8; i++) h = whash_words_add(h, w[i]);
        CHECK(whash_words_end(h) == whash_bytes(w, n, 0x5eed));
    }
}

/* whash_bytes' tail (the last n % 8 bytes, read by overlapping loads) is the little-endian word a
   zero-padded copy gives: the hashes of every length 0..40 at every alignment equal those of the
   word-by-word definition, and every byte of the tail counts. */
WTEST(hash_bytes_tail_as_padded_word)
{
    unsigned char buf[64];
    for (int i = 0; i < 64; i++) buf[i] = (unsigned char)(i * 37 + 11);
    for (size_t off = 0; off < 8; off++)
        for (size_t n = 0; n <= 40; n++) {
            const unsigned char *p = buf + off;
            uint64_t h = whash_words_begin(n, 99);
            size_t i = 0;
            for (; i + 8 <= n; i += 8) { uint64_t w; memcpy(&w, p + i, 8); h = whash_words_add(h, w); }
            uint64_t want;
            if (i == n) {
                want = whash_words_end(h);
            } else {
                uint64_t tail = 0;
                memcpy(&tail, p + i, n - i);
                want = whash_u64(h ^ whash_u64(tail ^ (n - i)));
            }
            CHECK(whash_bytes(p, n, 99) == want);
            for (size_t b = i; b < n; b++) {        /* each tail byte changes the hash */
                unsigned char save = buf[off + b];
                buf[off + b] ^= 0x40;
                CHECK(whash_bytes(p, n, 99) != want);
                buf[off + b] = save;
            }
        }
}

/* whash_bytes_wide: whash_bytes below 32 bytes; above, every byte and the length count (each
   one-bit change of inputs of 32..200 bytes changes the hash, and no two of these thousands of
   hashes collide in their low 32 bits), and the seed counts. */
WTEST(hash_bytes_wide)
{
    unsigned char buf[208];
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (unsigned char)(i * 37 + 11);
    for (size_t n = 0; n < 32; n++) CHECK(whash_bytes_wide(buf, n, 7) == whash_bytes(buf, n, 7));
    size_t cap = 1 << 16, nh = 0;
    uint32_t *seen = calloc(cap, sizeof *seen);
    uint8_t *used = calloc(cap, 1);
    int collisions = 0;
    for (size_t n = 32; n <= 200; n += 7) {
        uint64_t base = whash_bytes_wide(buf, n, 7);
        CHECK(base != whash_bytes_wide(buf, n, 8));
        CHECK(base != whash_bytes_wide(buf, n + 1, 7));
        for (size_t i = 0; i < n; i++) {
            for (int b = 0; b < 8; b += 3) {
                buf[i] ^= (unsigned char)(1u << b);
                uint64_t h = whash_bytes_wide(buf, n, 7);
                buf[i] ^= (unsigned char)(1u << b);
                CHECK(h != base);
                uint32_t lo = (uint32_t)h;
                size_t s = (lo * 2654435761u) & (cap - 1);
                while (used[s] && seen[s] != lo) s = (s + 1) & (cap - 1);
                if (used[s]) collisions++;
                used[s] = 1;
                seen[s] = lo;
                nh++;
            }
        }
    }
    CHECK(nh > 8000 && nh < cap / 2);
    CHECK(collisions <= 1);             /* about 0.01 expected among ~9K random 32-bit values */
    free(seen);
    free(used);
}

/* wmem_find against memmem: haystacks of 0-60 bytes and needles of 0-12 over a two-letter
   alphabet (many partial matches), needles taken from the haystack's own bytes too, so that
   matches fall at every offset of the 16-byte steps and at the very end. */
WTEST(memfind_matches_memmem)
{
    uint64_t seed = 5;
    int bad = 0, found = 0;
    char hay[64], nd[16];
    for (int t = 0; t < 20000; t++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        size_t hn = (size_t)((seed >> 33) % 61), nn = (size_t)((seed >> 20) % 13);
        for (size_t j = 0; j < hn; j++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            hay[j] = (seed >> 40) & 1 ? 'a' : 'b';
        }
        if (t % 2 && nn <= hn && hn > 0) {
            size_t at = (size_t)((seed >> 27) % (hn - nn + 1));
            memcpy(nd, hay + at, nn);
        } else {
            for (size_t j = 0; j < nn; j++) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                nd[j] = (seed >> 41) & 1 ? 'a' : 'b';
            }
        }
        const char *want = memmem(hay, hn, nd, nn), *got = wmem_find(hay, hn, nd, nn);
        bad += want != got;
        found += want != NULL;
    }
    CHECK_INT(bad, 0);
    CHECK(found > 5000);
}
