/*
 * unit.h — a minimal unit-test harness. A test is `WTEST(name) { CHECK(...); }` in any
 * tests/unit/test_*.c file; registration is automatic. The runner (main.c) runs every test,
 * or those whose name contains argv[1], and ends with "N passed, N failed".
 */
#ifndef WEIR_TESTS_UNIT_H
#define WEIR_TESTS_UNIT_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef void (*wtest_fn)(int *failed);
void wtest_register(const char *name, const char *file, wtest_fn fn);
void wtest_report(const char *file, int line, const char *what);
/* Is a test of that name registered? (a check may point at the test that covers it) */
bool wtest_exists(const char *name);

#define WTEST(name)                                                                \
    static void name(int *wtest_failed_);                                          \
    __attribute__((constructor)) static void wtest_reg_##name(void)                \
    { wtest_register(#name, __FILE__, name); }                                     \
    static void name(int *wtest_failed_)

#define CHECK(cond)                                                                \
    do { if (!(cond)) { wtest_report(__FILE__, __LINE__, #cond); *wtest_failed_ = 1; } } while (0)

#define CHECK_STR(got, want)                                                       \
    do {                                                                           \
        const char *g_ = (got), *w_ = (want);                                      \
        if (!g_ || !w_ || strcmp(g_, w_) != 0) {                                   \
            char m_[4096];                                                         \
            snprintf(m_, sizeof m_, "%s: got \"%s\", want \"%s\"", #got,           \
                     g_ ? g_ : "(null)", w_ ? w_ : "(null)");                      \
            wtest_report(__FILE__, __LINE__, m_);                                  \
            *wtest_failed_ = 1;                                                    \
        }                                                                          \
    } while (0)

#define CHECK_INT(got, want)                                                       \
    do {                                                                           \
        long long g_ = (long long)(got), w_ = (long long)(want);                   \
        if (g_ != w_) {                                                            \
            char m_[512];                                                          \
            snprintf(m_, sizeof m_, "%s: got %lld, want %lld", #got, g_, w_);      \
            wtest_report(__FILE__, __LINE__, m_);                                  \
            *wtest_failed_ = 1;                                                    \
        }                                                                          \
    } while (0)

#endif
