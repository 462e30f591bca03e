/*
 * fault.h — allocation fault injection for the test build (SQLite's model; I/O faults are
 * injected by tests/fault/fault_io.c, an LD_PRELOAD library, so that they reach RocksDB too).
 *
 * Contract: compiled in only with -DWEIR_FAULT_INJECTION (the ASan+UBSan test build); the release
 * build's wfault_alloc_fails() is a constant false. In the test build the environment of the
 * process drives it: WEIR_FAULT_ALLOC=<n> makes the n-th allocation of weir's own allocator
 * (wmalloc, wcalloc, wrealloc, arena blocks) fail, <n>+ that one and every later one;
 * WEIR_FAULT_ALLOC_REPORT=<file> writes "alloc <count>" at exit. No SQL session reaches it.
 * Depends on nothing but libc.
 */
#ifndef WEIR_COMMON_FAULT_H
#define WEIR_COMMON_FAULT_H

#include <stdbool.h>

#ifdef WEIR_FAULT_INJECTION
/* counts one allocation; true = it must fail */
bool wfault_alloc_fails(void);
#else
static inline bool wfault_alloc_fails(void) { return false; }
#endif

#endif
