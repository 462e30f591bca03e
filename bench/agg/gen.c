/*
 * gen.c — benchmark input for aggregation and join: ROWS lines "key,value" with keys uniform in
 * [0, KEYS) (or OFFSET + the row number when KEYS is 0, for join inputs with unique keys).
 * Deterministic. Usage: gen ROWS KEYS [SEED [OFFSET]] > file.csv
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long long rows = argc > 1 ? atoll(argv[1]) : 1000000, keys = argc > 2 ? atoll(argv[2]) : 1000;
    uint64_t x = argc > 3 ? strtoull(argv[3], NULL, 10) : 0x9e3779b97f4a7c15ULL;
    long long off = argc > 4 ? atoll(argv[4]) : 0;
    if (x == 0) x = 0x9e3779b97f4a7c15ULL;
    static char buf[1 << 16];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
    for (long long i = 0; i < rows; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        long long k = keys > 0 ? (long long)(x % (uint64_t)keys) : off + i;
        printf("%lld,%d\n", k, (int)((x >> 32) % 1000));
    }
    return 0;
}
