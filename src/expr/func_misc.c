/*
 * func_misc.c — hashing and miscellaneous functions: MD5, SHA1, SHA224, SHA256, SHA384, SHA512,
 * SHA2 (digests implemented here, lower-case hex as Flink prints them), HASH_CODE (the hashCode
 * of Flink's internal data structures: murmur for strings, Java's for the rest), UUID (random
 * version 4), TYPEOF, CARDINALITY. Depends on func_impl.h, common/hash.h.
 */
#include "func_impl.h"
#include "../common/hash.h"

#include <sys/random.h>
#include <math.h>

#define EV(nm) static void nm(WEvalCtx *ctx, const WExpr *call, WVector *const *av, int na, int n, \
                              const uint8_t *act, WVector *out)
#define INF(nm) static const WType *nm(WArena *a, const WType **t, int n, const WType **co, WError *err)

/* ---------------------------------------------------------------- MD5 */

static uint32_t rol32(uint32_t x, int c) { return (x << c) | (x >> (32 - c)); }

void wf_md5(const void *data, size_t len, uint8_t out[16])
{
    static const uint32_t K[64] = {
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
        0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
        0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
        0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
        0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
        0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
        0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
        0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391 };
    static const int R[64] = { 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                               5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
                               4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                               6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21 };
    uint32_t h0 = 0x67452301, h1 = 0xefcdab89, h2 = 0x98badcfe, h3 = 0x10325476;
    const uint8_t *msg = data;
    size_t total = ((len + 8) / 64 + 1) * 64;
    for (size_t off = 0; off < total; off += 64) {
        uint8_t blk[64];
        for (int i = 0; i < 64; i++) {
            size_t p = off + (size_t)i;
            blk[i] = p < len ? msg[p] : p == len ? 0x80 : 0;
        }
        if (off + 64 == total) {
            uint64_t bits = (uint64_t)len * 8;
            for (int i = 0; i < 8; i++) blk[56 + i] = (uint8_t)(bits >> (8 * i));
        }
        uint32_t w[16];
        for (int i = 0; i < 16; i++)
            w[i] = (uint32_t)blk[4 * i] | (uint32_t)blk[4 * i + 1] << 8 | (uint32_t)blk[4 * i + 2] << 16 | (uint32_t)blk[4 * i + 3] << 24;
        uint32_t a = h0, b = h1, c = h2, d = h3;
        for (int i = 0; i < 64; i++) {
            uint32_t f;
            int g;
            if (i < 16) { f = (b & c) | (~b & d); g = i; }
            else if (i < 32) { f = (d & b) | (~d & c); g = (5 * i + 1) % 16; }
            else if (i < 48) { f = b ^ c ^ d; g = (3 * i + 5) % 16; }
            else { f = c ^ (b | ~d); g = (7 * i) % 16; }
            uint32_t tmp = d;
            d = c;
            c = b;
            b = b + rol32(a + f + K[i] + w[g], R[i]);
            a = tmp;
        }
        h0 += a; h1 += b; h2 += c; h3 += d;
    }
    uint32_t h[4] = { h0, h1, h2, h3 };
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) out[4 * i + j] = (uint8_t)(h[i] >> (8 * j));
}

/* ---------------------------------------------------------------- SHA-1 */

void wf_sha1(const void *data, size_t len, uint8_t out[20])
{
    uint32_t h[5] = { 0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0 };
    const uint8_t *msg = data;
    size_t total = ((len + 8) / 64 + 1) * 64;
    for (size_t off = 0; off < total; off += 64) {
        uint8_t blk[64];
        for (int i = 0; i < 64; i++) {
            size_t p = off + (size_t)i;
            blk[i] = p < len ? msg[p] : p == len ? 0x80 : 0;
        }
        if (off + 64 == total) {
            uint64_t bits = (uint64_t)len * 8;
            for (int i = 0; i < 8; i++) blk[63 - i] = (uint8_t)(bits >> (8 * i));
        }
        uint32_t w[80];
        for (int i = 0; i < 16; i++)
            w[i] = (uint32_t)blk[4 * i] << 24 | (uint32_t)blk[4 * i + 1] << 16 | (uint32_t)blk[4 * i + 2] << 8 | blk[4 * i + 3];
        for (int i = 16; i < 80; i++) w[i] = rol32(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
        for (int i = 0; i < 80; i++) {
            uint32_t f, k;
            if (i < 20) { f = (b & c) | (~b & d); k = 0x5A827999; }
            else if (i < 40) { f = b ^ c ^ d; k = 0x6ED9EBA1; }
            else if (i < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDC; }
            else { f = b ^ c ^ d; k = 0xCA62C1D6; }
            uint32_t tmp = rol32(a, 5) + f + e + k + w[i];
            e = d; d = c; c = rol32(b, 30); b = a; a = tmp;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
    }
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++) out[4 * i + j] = (uint8_t)(h[i] >> (24 - 8 * j));
}

/* ---------------------------------------------------------------- SHA-224/256 */

static uint32_t ror32(uint32_t x, int c) { return (x >> c) | (x << (32 - c)); }

void wf_sha256(const void *data, size_t len, uint8_t out[32], bool is224)
{
    static const uint32_t K[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2 };
    uint32_t h[8];
    static const uint32_t H256[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
    static const uint32_t H224[8] = { 0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4 };
    memcpy(h, is224 ? H224 : H256, sizeof h);
    const uint8_t *msg = data;
    size_t total = ((len + 8) / 64 + 1) * 64;
    for (size_t off = 0; off < total; off += 64) {
        uint8_t blk[64];
        for (int i = 0; i < 64; i++) {
            size_t p = off + (size_t)i;
            blk[i] = p < len ? msg[p] : p == len ? 0x80 : 0;
        }
        if (off + 64 == total) {
            uint64_t bits = (uint64_t)len * 8;
            for (int i = 0; i < 8; i++) blk[63 - i] = (uint8_t)(bits >> (8 * i));
        }
        uint32_t w[64];
        for (int i = 0; i < 16; i++)
            w[i] = (uint32_t)blk[4 * i] << 24 | (uint32_t)blk[4 * i + 1] << 16 | (uint32_t)blk[4 * i + 2] << 8 | blk[4 * i + 3];
        for (int i = 16; i < 64; i++) {
            uint32_t s0 = ror32(w[i - 15], 7) ^ ror32(w[i - 15], 18) ^ (w[i - 15] >> 3);
            uint32_t s1 = ror32(w[i - 2], 17) ^ ror32(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int i = 0; i < 64; i++) {
            uint32_t S1 = ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25);
            uint32_t ch = (e & f) ^ (~e & g);
            uint32_t t1 = hh + S1 + ch + K[i] + w[i];
            uint32_t S0 = ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22);
            uint32_t mj = (a & b) ^ (a & c) ^ (b & c);
            uint32_t t2 = S0 + mj;
            hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
    for (int i = 0; i < (is224 ? 7 : 8); i++)
        for (int j = 0; j < 4; j++) out[4 * i + j] = (uint8_t)(h[i] >> (24 - 8 * j));
}

/* ---------------------------------------------------------------- SHA-384/512 */

static uint64_t ror64(uint64_t x, int c) { return (x >> c) | (x << (64 - c)); }

void wf_sha512(const void *data, size_t len, uint8_t out[64], int outbits)
{
    static const uint64_t K[80] = {
        0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL, 0x3956c25bf348b538ULL,
        0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL, 0xd807aa98a3030242ULL, 0x12835b0145706fbeULL,
        0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL, 0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL,
        0xc19bf174cf692694ULL, 0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
        0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL, 0x983e5152ee66dfabULL,
        0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL, 0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL,
        0x06ca6351e003826fULL, 0x142929670a0e6e70ULL, 0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL,
        0x53380d139d95b3dfULL, 0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
        0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL, 0xd192e819d6ef5218ULL,
        0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL, 0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL,
        0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL, 0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL,
        0x682e6ff3d6b2b8a3ULL, 0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
        0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL, 0xca273eceea26619cULL,
        0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL, 0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL,
        0x113f9804bef90daeULL, 0x1b710b35131c471bULL, 0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL,
        0x431d67c49c100d4cULL, 0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL };
    static const uint64_t H512[8] = { 0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
                                      0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL };
    static const uint64_t H384[8] = { 0xcbbb9d5dc1059ed8ULL, 0x629a292a367cd507ULL, 0x9159015a3070dd17ULL, 0x152fecd8f70e5939ULL,
                                      0x67332667ffc00b31ULL, 0x8eb44a8768581511ULL, 0xdb0c2e0d64f98fa7ULL, 0x47b5481dbefa4fa4ULL };
    uint64_t h[8];
    memcpy(h, outbits == 384 ? H384 : H512, sizeof h);
    const uint8_t *msg = data;
    size_t total = ((len + 16) / 128 + 1) * 128;
    for (size_t off = 0; off < total; off += 128) {
        uint8_t blk[128];
        for (int i = 0; i < 128; i++) {
            size_t p = off + (size_t)i;
            blk[i] = p < len ? msg[p] : p == len ? 0x80 : 0;
        }
        if (off + 128 == total) {
            uint64_t bits = (uint64_t)len * 8;
            for (int i = 0; i < 8; i++) blk[127 - i] = (uint8_t)(bits >> (8 * i));
        }
        uint64_t w[80];
        for (int i = 0; i < 16; i++) {
            w[i] = 0;
            for (int j = 0; j < 8; j++) w[i] = w[i] << 8 | blk[8 * i + j];
        }
        for (int i = 16; i < 80; i++) {
            uint64_t s0 = ror64(w[i - 15], 1) ^ ror64(w[i - 15], 8) ^ (w[i - 15] >> 7);
            uint64_t s1 = ror64(w[i - 2], 19) ^ ror64(w[i - 2], 61) ^ (w[i - 2] >> 6);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int i = 0; i < 80; i++) {
            uint64_t S1 = ror64(e, 14) ^ ror64(e, 18) ^ ror64(e, 41);
            uint64_t ch = (e & f) ^ (~e & g);
            uint64_t t1 = hh + S1 + ch + K[i] + w[i];
            uint64_t S0 = ror64(a, 28) ^ ror64(a, 34) ^ ror64(a, 39);
            uint64_t mj = (a & b) ^ (a & c) ^ (b & c);
            uint64_t t2 = S0 + mj;
            hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
    for (int i = 0; i < outbits / 64; i++)
        for (int j = 0; j < 8; j++) out[8 * i + j] = (uint8_t)(h[i] >> (56 - 8 * j));
}

/* ---------------------------------------------------------------- digest functions */

enum { H_MD5, H_SHA1, H_SHA224, H_SHA256, H_SHA384, H_SHA512 };

static int digest(int kind, const char *p, size_t n, uint8_t *out)
{
    switch (kind) {
    case H_MD5: wf_md5(p, n, out); return 16;
    case H_SHA1: wf_sha1(p, n, out); return 20;
    case H_SHA224: wf_sha256(p, n, out, true); return 28;
    case H_SHA256: wf_sha256(p, n, out, false); return 32;
    case H_SHA384: wf_sha512(p, n, out, 384); return 48;
    default: wf_sha512(p, n, out, 512); return 64;
    }
}

static void put_hex(WEvalCtx *ctx, WVector *out, int i, const uint8_t *d, int n)
{
    static const char HX[] = "0123456789abcdef";
    char *p = wf_alloc(ctx, (size_t)n * 2);
    for (int k = 0; k < n; k++) { p[2 * k] = HX[d[k] >> 4]; p[2 * k + 1] = HX[d[k] & 15]; }
    wf_set_ref(out, i, p, n * 2);
}

static const WType *inf_hash(WArena *a, const char *name, int hexlen, const WType **t, int n, WError *err)
{
    if (n != 1 || !(wf_str(t[0]) || wf_bin(t[0]))) {
        char f[64];
        snprintf(f, sizeof f, "%s(<STRING>)", name);
        return wf_err_apply(err, name, t, n, f);
    }
    return wtype_char(a, hexlen, wf_any_nullable(t, n));
}

static int kind_of(const char *name)
{
    if (!strcmp(name, "MD5")) return H_MD5;
    if (!strcmp(name, "SHA1")) return H_SHA1;
    if (!strcmp(name, "SHA224")) return H_SHA224;
    if (!strcmp(name, "SHA256")) return H_SHA256;
    if (!strcmp(name, "SHA384")) return H_SHA384;
    return H_SHA512;
}

EV(ev_hash)
{
    (void)na;
    int kind = kind_of(call->func->name);
    WF_FOR(i, n, act) {
        uint8_t d[64];
        WStr s = av[0]->data[i].s;
        int k = digest(kind, s.p, (size_t)s.len, d);
        put_hex(ctx, out, i, d, k);
    }
}

#define HASHFN(inf, NAME, L) INF(inf) { (void)co; return inf_hash(a, NAME, L, t, n, err); }
HASHFN(inf_md5, "MD5", 32)
HASHFN(inf_sha1, "SHA1", 40)
HASHFN(inf_sha224, "SHA224", 56)
HASHFN(inf_sha256, "SHA256", 64)
HASHFN(inf_sha384, "SHA384", 96)
HASHFN(inf_sha512, "SHA512", 128)

INF(inf_sha2)
{
    (void)co;
    if (n != 2 || !(wf_str(t[0]) || wf_bin(t[0])) || !wf_int(t[1]))
        return wf_err_apply(err, "SHA2", t, n, "SHA2(DATA, HASH_LENGTH)");
    return wtype_varchar(a, 128, wf_any_nullable(t, n));
}

EV(ev_sha2)
{
    (void)call; (void)na;
    WF_FOR(i, n, act) {
        int64_t bits = av[1]->data[i].i;
        int kind = bits == 224 ? H_SHA224 : bits == 256 ? H_SHA256 : bits == 384 ? H_SHA384 : bits == 512 ? H_SHA512 : -1;
        if (kind < 0) { out->nulls[i] = 1; continue; }
        uint8_t d[64];
        WStr s = av[0]->data[i].s;
        int k = digest(kind, s.p, (size_t)s.len, d);
        put_hex(ctx, out, i, d, k);
    }
}

/* ---------------------------------------------------------------- HASH_CODE */

static int32_t long_hash(int64_t v) { return (int32_t)((uint64_t)v ^ ((uint64_t)v >> 32)); }

static int32_t double_hash(double d)
{
    if (isnan(d)) d = NAN;
    if (d == 0.0 && !signbit(d)) d = 0.0;
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    if (isnan(d)) bits = 0x7ff8000000000000ULL;
    return (int32_t)(bits ^ (bits >> 32));
}

/* java.math.BigDecimal.hashCode = 31 * BigInteger.hashCode + scale */
static int32_t decimal_hash(__int128 v, int scale)
{
    int sign = (v > 0) - (v < 0);
    unsigned __int128 m = v < 0 ? (unsigned __int128)0 - (unsigned __int128)v : (unsigned __int128)v;
    uint32_t words[4];
    int nw = 0;
    for (int k = 3; k >= 0; k--) {
        uint32_t w = (uint32_t)(m >> (32 * k));
        if (nw == 0 && w == 0) continue;
        words[nw++] = w;
    }
    uint32_t h = 0;
    for (int k = 0; k < nw; k++) h = 31 * h + words[k];
    int32_t bi = (int32_t)(h * (uint32_t)sign);
    return (int32_t)(31u * (uint32_t)bi + (uint32_t)scale);
}

static int32_t hash_code(const WType *t, WDatum v)
{
    switch (t->id) {
    case WT_BOOLEAN: return v.i ? 1231 : 1237;
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_DATE: case WT_TIME: case WT_INTERVAL_YM:
        return (int32_t)v.i;
    case WT_BIGINT: case WT_INTERVAL_DT: return long_hash(v.i);
    case WT_FLOAT: {
        float f = (float)v.d;
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        if (isnan(f)) bits = 0x7fc00000u;
        return (int32_t)bits;
    }
    case WT_DOUBLE: return double_hash(v.d);
    case WT_DECIMAL: return decimal_hash(v.dec, t->scale);
    case WT_CHAR: case WT_VARCHAR: case WT_BINARY: case WT_VARBINARY:
        return wflink_murmur_bytes(v.s.p, (size_t)v.s.len, 42);
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: {
        int32_t r = (int32_t)(uint32_t)(uint64_t)v.ts.ms ^ (int32_t)(uint32_t)((uint64_t)v.ts.ms >> 32);
        return (int32_t)(31u * (uint32_t)r + (uint32_t)v.ts.ns);
    }
    default: return (int32_t)wdatum_hash(t, v, 42);
    }
}

INF(inf_hash_code)
{
    (void)co;
    if (n != 1 || !(wf_bool(t[0]) || wf_num(t[0]) || wf_str(t[0]) || wtype_is_temporal(t[0])))
        return wf_err_apply(err, "HASH_CODE", t, n,
                            "HASH_CODE(<BOOLEAN>)\nHASH_CODE(<NUMERIC>)\nHASH_CODE(<STRING>)\nHASH_CODE(<TIMESTAMP>)\n"
                            "HASH_CODE(<TIME>)\nHASH_CODE(<DATE>)");
    return wf_type(a, WT_INT, wf_any_nullable(t, n));
}

EV(ev_hash_code)
{
    (void)ctx; (void)call; (void)na;
    const WType *t = av[0]->type;
    WF_FOR(i, n, act) out->data[i].i = hash_code(t, av[0]->data[i]);
}

/* ---------------------------------------------------------------- UUID / TYPEOF / CARDINALITY */

INF(inf_uuid)
{
    (void)co;
    if (!wf_check(err, "UUID", t, n, "")) return NULL;
    return wtype_char(a, 36, false);
}

EV(ev_uuid)
{
    (void)call; (void)av; (void)na;
    static const char HX[] = "0123456789abcdef";
    WF_FOR(i, n, act) {
        uint8_t r[16];
        if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
            uint64_t x = whash_u64((uint64_t)ctx->now_ms ^ (uint64_t)i ^ (uint64_t)(uintptr_t)out);
            for (int k = 0; k < 16; k++) { if (k % 8 == 0) x = whash_u64(x + (uint64_t)k); r[k] = (uint8_t)(x >> (8 * (k % 8))); }
        }
        r[6] = (uint8_t)((r[6] & 0x0f) | 0x40);
        r[8] = (uint8_t)((r[8] & 0x3f) | 0x80);
        char *p = wf_alloc(ctx, 36);
        int o = 0;
        for (int k = 0; k < 16; k++) {
            if (k == 4 || k == 6 || k == 8 || k == 10) p[o++] = '-';
            p[o++] = HX[r[k] >> 4];
            p[o++] = HX[r[k] & 15];
        }
        out->nulls[i] = 0;
        wf_set_ref(out, i, p, 36);
    }
}

INF(inf_typeof)
{
    (void)co;
    if (n < 1 || n > 2 || (n == 2 && !wf_bool(t[1])))
        return wf_err_invalid_call(err, "TYPEOF", t, n, "TYPEOF(<ANY>)\nTYPEOF(<ANY>, <BOOLEAN NOT NULL>)");
    return wf_string(a, false);
}

EV(ev_typeof)
{
    (void)av; (void)na;
    WStrBuf b;
    wsb_init(&b);
    const WType *t = call->args[0]->type;
    /* a time attribute is materialized where TYPEOF reads it: Flink 2.3 answers TIMESTAMP(3) */
    if (t->time_attr != WTA_NONE) t = wtype_with_time_attr(ctx->arena, t, WTA_NONE);
    if (t->id == WT_NULL) wsb_append(&b, "NULL");
    else wtype_to_string(t, &b);
    char *p = wa_memdup(ctx->arena, b.buf, b.len + 1);
    int len = (int)b.len;
    wsb_free(&b);
    WF_FOR(i, n, act) { out->nulls[i] = 0; wf_set_ref(out, i, p, len); }
}

INF(inf_cardinality)
{
    (void)co;
    if (n != 1 || !(wf_null(t[0]) || t[0]->id == WT_ARRAY || t[0]->id == WT_MAP || t[0]->id == WT_MULTISET))
        return wf_err_apply(err, "CARDINALITY", t, n, "CARDINALITY(<MULTISET>)\nCARDINALITY(<ARRAY>)\nCARDINALITY(<MAP>)");
    return wf_type(a, WT_INT, wf_any_nullable(t, n));
}

EV(ev_cardinality)
{
    (void)ctx; (void)call; (void)na;
    WF_FOR(i, n, act) out->data[i].i = av[0]->data[i].cx ? av[0]->data[i].cx->n : 0;
}

/* ---------------------------------------------------------------- table */

#define DEF(var, name, mn, mx, hn, det, inf, ev) \
    static const WFuncDef var = { name, mn, mx, hn, det, inf, ev, NULL };

DEF(D_MD5, "MD5", 1, 1, false, true, inf_md5, ev_hash)
DEF(D_SHA1, "SHA1", 1, 1, false, true, inf_sha1, ev_hash)
DEF(D_SHA224, "SHA224", 1, 1, false, true, inf_sha224, ev_hash)
DEF(D_SHA256, "SHA256", 1, 1, false, true, inf_sha256, ev_hash)
DEF(D_SHA384, "SHA384", 1, 1, false, true, inf_sha384, ev_hash)
DEF(D_SHA512, "SHA512", 1, 1, false, true, inf_sha512, ev_hash)
DEF(D_SHA2, "SHA2", 2, 2, false, true, inf_sha2, ev_sha2)
DEF(D_HASH_CODE, "HASH_CODE", 1, 1, false, true, inf_hash_code, ev_hash_code)
DEF(D_UUID, "UUID", 0, 0, true, false, inf_uuid, ev_uuid)
DEF(D_TYPEOF, "TYPEOF", 1, 2, true, true, inf_typeof, ev_typeof)
DEF(D_CARDINALITY, "CARDINALITY", 1, 1, false, true, inf_cardinality, ev_cardinality)

const WFuncDef *const wf_misc_defs[] = {
    &D_MD5, &D_SHA1, &D_SHA224, &D_SHA256, &D_SHA384, &D_SHA512, &D_SHA2, &D_HASH_CODE, &D_UUID,
    &D_TYPEOF, &D_CARDINALITY, NULL
};
