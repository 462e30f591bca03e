/*
 * sort.h — qsort for arrays that may be empty: C's qsort requires a valid pointer even for zero
 * elements (passing NULL is undefined behaviour, and UBSan reports it), and an empty or
 * one-element array needs no sorting. Use wqsort wherever the array can be NULL when n is 0.
 */
#ifndef WEIR_COMMON_SORT_H
#define WEIR_COMMON_SORT_H

#include <stdlib.h>

static inline void wqsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1) qsort(base, n, size, cmp);
}

#endif
