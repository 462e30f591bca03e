/*
 * rest_path.c — reentrant request-path splitting. See rest_path.h.
 */
#include "rest_path.h"

#include <assert.h>
#include <string.h>

int wrest_path_split(WRestPath *p, const char *path, int max_segments)
{
    assert(p && path && max_segments > 0 && max_segments <= WREST_PATH_SEGMENTS);
    p->n = 0;
    size_t len = strlen(path);
    if (len >= sizeof p->buf) return -1;
    memcpy(p->buf, path, len + 1);
    char *s = p->buf;
    while (*s) {
        while (*s == '/') *s++ = 0;
        if (!*s) break;
        if (p->n == max_segments) return -1;
        p->seg[p->n++] = s;
        while (*s && *s != '/') s++;
    }
    return p->n;
}
