/* value.c — helpers on single values; see value.h. */
#include "value.h"

__int128 wpow10_i128(int n)
{
    __int128 r = 1;
    for (int i = 0; i < n; i++) r *= 10;
    return r;
}
