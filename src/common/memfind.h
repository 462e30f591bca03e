/*
 * memfind.h — the first occurrence of a byte string in another (memmem's contract), for the
 * short texts of SQL values: 16 candidate positions at a time are those whose first and last
 * bytes both match (two compares of 16 bytes), each checked with one memcmp. glibc's memmem
 * prepares a two-way search per call, which costs more than searching a URL or a channel name.
 *
 * Contract: pure function, reads only hay[0, hn) and needle[0, nn). Depends on nothing but libc.
 */
#ifndef WEIR_COMMON_MEMFIND_H
#define WEIR_COMMON_MEMFIND_H

#include <stddef.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The first position of needle (nn bytes) in hay (hn bytes), NULL when absent; hay itself for an
   empty needle. */
static inline const char *wmem_find(const char *hay, size_t hn, const char *needle, size_t nn)
{
    if (nn == 0) return hay;
    if (nn > hn) return NULL;
    if (nn == 1) return memchr(hay, needle[0], hn);
    size_t last = hn - nn;          /* the last position a match can start at */
    size_t i = 0;
#ifdef __SSE2__
    const __m128i first = _mm_set1_epi8(needle[0]), tail = _mm_set1_epi8(needle[nn - 1]);
    for (; i + 16 <= last + 1; i += 16) {   /* positions i..i+15, whose last bytes end by hay + hn */
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(hay + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(hay + i + nn - 1));
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, tail)));
        while (m) {
            size_t at = i + (size_t)__builtin_ctz(m);
            if (memcmp(hay + at + 1, needle + 1, nn - 2) == 0) return hay + at;
            m &= m - 1;
        }
    }
#endif
    for (; i <= last; i++)
        if (hay[i] == needle[0] && hay[i + nn - 1] == needle[nn - 1] && memcmp(hay + i + 1, needle + 1, nn - 2) == 0)
            return hay + i;
    return NULL;
}

#endif
