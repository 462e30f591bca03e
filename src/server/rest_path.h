/*
 * rest_path.h — the one request-path splitter every REST and SQL-gateway route uses.
 *
 * Contract: wrest_path_split copies a request path ("/jobs/<jid>/vertices/<vid>") into the
 * caller's WRestPath and splits it at '/' into non-empty segments, without any state outside
 * the WRestPath (the HTTP server answers each connection in its own thread, so the C library's
 * strtok, which keeps its position in a global, must never be used here). Empty segments
 * ("//", a trailing '/') are skipped as strtok did. Returns the number of segments, or -1 when
 * the path is longer than WREST_PATH_MAX-1 bytes or has more than max_segments segments
 * (the caller answers 404). Depends on nothing but libc.
 */
#ifndef WEIR_SERVER_REST_PATH_H
#define WEIR_SERVER_REST_PATH_H

#define WREST_PATH_MAX 1024
#define WREST_PATH_SEGMENTS 16

typedef struct WRestPath {
    char buf[WREST_PATH_MAX];
    char *seg[WREST_PATH_SEGMENTS];
    int n;
} WRestPath;

int wrest_path_split(WRestPath *p, const char *path, int max_segments);

#endif
