/* memsize.c — Flink's MemorySize text; see memsize.h for the contract. */
#include "memsize.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool wmemsize_parse(const char *s, int64_t *out)
{
    char *end;
    while (*s == ' ') s++;
    if (*s < '0' || *s > '9') return false;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno) return false;
    while (*end == ' ') end++;
    int64_t mul = 1;
    if (*end) {
        static const struct { const char *u; int64_t m; } units[] = {
            {"b", 1}, {"bytes", 1}, {"k", 1LL << 10}, {"kb", 1LL << 10}, {"kibibytes", 1LL << 10},
            {"m", 1LL << 20}, {"mb", 1LL << 20}, {"mebibytes", 1LL << 20}, {"g", 1LL << 30},
            {"gb", 1LL << 30}, {"gibibytes", 1LL << 30}, {"t", 1LL << 40}, {"tb", 1LL << 40},
            {"tebibytes", 1LL << 40}};
        size_t n = strlen(end);
        while (n > 0 && end[n - 1] == ' ') n--;
        size_t i;
        for (i = 0; i < sizeof units / sizeof units[0]; i++)
            if (strlen(units[i].u) == n && strncasecmp(end, units[i].u, n) == 0) break;
        if (i == sizeof units / sizeof units[0]) return false;
        mul = units[i].m;
    }
    if (v > (unsigned long long)(INT64_MAX / mul)) return false;
    *out = (int64_t)v * mul;
    return true;
}
