/* fault.c — allocation fault injection of the test build; see fault.h for the contract. */
#include "fault.h"

#ifdef WEIR_FAULT_INJECTION
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Process-wide by nature (the n-th allocation of the process): set once from the environment,
   then only the atomic counter changes. Only in the test build. */
static pthread_once_t fault_once = PTHREAD_ONCE_INIT;
static long fault_n;            /* 0 = no fault */
static bool fault_sticky;
static atomic_long fault_calls;
static char fault_report[4096];

static void fault_write_report(void)
{
    FILE *f = fopen(fault_report, "w");
    if (!f) return;
    fprintf(f, "alloc %ld\n", atomic_load(&fault_calls));
    fclose(f);
}

static void fault_setup(void)
{
    const char *v = getenv("WEIR_FAULT_ALLOC");
    if (v && *v) {
        char *end;
        long n = strtol(v, &end, 10);
        if (n < 1 || (*end && strcmp(end, "+") != 0)) {
            static const char msg[] = "weir: invalid WEIR_FAULT_ALLOC (want <n> or <n>+)\n";
            if (write(2, msg, sizeof msg - 1) < 0) _exit(2);
            _exit(2);
        }
        fault_n = n;
        fault_sticky = *end == '+';
    }
    const char *r = getenv("WEIR_FAULT_ALLOC_REPORT");
    if (r && *r && strlen(r) < sizeof fault_report) {
        strcpy(fault_report, r);
        atexit(fault_write_report);
    }
}

bool wfault_alloc_fails(void)
{
    pthread_once(&fault_once, fault_setup);
    long n = atomic_fetch_add(&fault_calls, 1) + 1;
    return fault_n > 0 && (n == fault_n || (fault_sticky && n > fault_n));
}
#endif
