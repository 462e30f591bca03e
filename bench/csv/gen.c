/*
 * gen.c — writes the benchmark CSV: id BIGINT, user_id INT, category STRING, amount DECIMAL(10,2),
 * ts TIMESTAMP(3); deterministic (xorshift), N rows to stdout. Usage: gen ROWS > file.csv
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long long rows = argc > 1 ? atoll(argv[1]) : 1000000;
    static const char *CAT[] = {"books", "music", "garden", "toys", "food", "tools", "sports", "travel", "home", "games"};
    uint64_t x = 0x9e3779b97f4a7c15ULL;
    static char buf[1 << 16];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
    long long base = 1704067200LL; /* 2024-01-01 */
    for (long long i = 0; i < rows; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        int user = (int)(x % 100000);
        int cents = (int)((x >> 20) % 100000);
        const char *cat = CAT[(x >> 40) % 10];
        long long t = base + i / 100;
        int ms = (int)((x >> 50) % 1000);
        long long days = t / 86400, sod = t % 86400;
        /* civil date from days (Howard Hinnant) */
        long long z = days + 719468, era = z / 146097, doe = z - era * 146097;
        long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        long long y = yoe + era * 400, doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
        int d = (int)(doy - (153 * mp + 2) / 5 + 1), m = (int)(mp < 10 ? mp + 3 : mp - 9);
        if (m <= 2) y++;
        printf("%lld,%d,%s,%d.%02d,%04lld-%02d-%02d %02lld:%02lld:%02lld.%03d\n", i, user, cat, cents / 100, cents % 100,
               y, m, d, sod / 3600, sod / 60 % 60, sod % 60, ms);
    }
    return 0;
}
