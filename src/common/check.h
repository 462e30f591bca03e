/*
 * check.h — weir's assert discipline (after SQLite's).
 *
 * Contract: plain assert() states an invariant at a module boundary or inside a data structure
 * whose test costs next to nothing beside the work around it (a kind tag, an index in range, a
 * count, a pointer set); it stays on in every build, the release build included (-O2 without
 * NDEBUG), so that a broken invariant stops the process where it broke. WASSERT_COSTLY states an
 * invariant whose test repeats real work (hashing a key again, walking a structure, comparing
 * whole buffers): it is checked in the test build (WEIR_TEST_BUILD: ASan + UBSan, where every
 * test of `make test` runs) and compiled out of the release and TSan builds, whose speed the
 * benchmarks measure. Depends on nothing.
 */
#ifndef WEIR_COMMON_CHECK_H
#define WEIR_COMMON_CHECK_H

#include <assert.h>

#ifdef WEIR_TEST_BUILD
#define WASSERT_COSTLY(x) assert(x)
#else
#define WASSERT_COSTLY(x) ((void)0)
#endif

#endif
