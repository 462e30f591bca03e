/* main.c — runs the registered unit tests; see unit.h. */
#include "unit.h"

#include <stdlib.h>

typedef struct { const char *name, *file; wtest_fn fn; } Test;
static Test tests[4096];
static int ntests;

void wtest_register(const char *name, const char *file, wtest_fn fn)
{
    if (ntests < (int)(sizeof tests / sizeof tests[0]))
        tests[ntests++] = (Test){name, file, fn};
}

bool wtest_exists(const char *name)
{
    for (int i = 0; i < ntests; i++)
        if (strcmp(tests[i].name, name) == 0) return true;
    return false;
}

void wtest_report(const char *file, int line, const char *what)
{
    fprintf(stderr, "  %s:%d: check failed: %s\n", file, line, what);
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    for (int i = 0; i < ntests; i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1])) continue;
        int f = 0;
        tests[i].fn(&f);
        if (f) {
            fprintf(stderr, "FAIL unit %s (%s)\n", tests[i].name, tests[i].file);
            failed++;
        } else {
            passed++;
        }
    }
    printf("unit: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
