/*
 * fault_io.c — I/O fault injection for the test build (SQLite's model), an LD_PRELOAD library
 * (build-test/libweirfault.so) that interposes the file calls of weir and of every library it
 * loads (RocksDB included): open/openat/creat, write/pwrite/writev, fsync/fdatasync, rename/renameat.
 *
 * Only calls on files under WEIR_FAULT_DIR (a path prefix) are counted, so the numbering does not
 * depend on the terminal or the logs. Each kind has its own counter:
 *   WEIR_FAULT_IO=<kind>:<n>[:<errno>]    the n-th call of that kind fails (errno ENOSPC by default,
 *                                         or EIO); kind = open | write | fsync | rename
 *   WEIR_FAULT_IO=<kind>:<n>+[:<errno>]   the n-th and every later call fails (a full disk)
 *   WEIR_FAULT_REPORT=<file>              at exit, "<kind> <calls>" lines: how many calls were seen,
 *                                         the upper bound for a sweep over n
 * A failed write writes nothing; a failed open/rename does nothing. Not part of the weir binary:
 * nothing here is reachable from SQL, and the release build has no trace of it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

enum { K_OPEN, K_WRITE, K_FSYNC, K_RENAME, K_N };
static const char *const KIND_NAMES[K_N] = {"open", "write", "fsync", "rename"};

#define MAX_FD 65536
static atomic_bool tracked[MAX_FD];        /* fd opened on a path under WEIR_FAULT_DIR */
static atomic_long calls[K_N];
static int fail_kind = -1;
static long fail_n;
static int fail_sticky, fail_errno = ENOSPC;
static char dir[PATH_MAX];
static size_t dir_len;
static char report[PATH_MAX];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void setup(void)
{
    const char *d = getenv("WEIR_FAULT_DIR");
    if (d && *d && strlen(d) < sizeof dir) {
        strcpy(dir, d);
        dir_len = strlen(dir);
    }
    const char *r = getenv("WEIR_FAULT_REPORT");
    if (r && strlen(r) < sizeof report) strcpy(report, r);
    const char *f = getenv("WEIR_FAULT_IO");
    if (f && *f) {
        char kind[16] = "", err[16] = "";
        long n = 0;
        char plus = 0;
        int got = sscanf(f, "%15[a-z]:%ld%c", kind, &n, &plus);
        const char *colon = strchr(f, ':');
        colon = colon ? strchr(colon + 1, ':') : NULL;
        if (colon) snprintf(err, sizeof err, "%s", colon + 1);
        for (int k = 0; k < K_N; k++)
            if (!strcmp(kind, KIND_NAMES[k])) fail_kind = k;
        if (got < 2 || fail_kind < 0 || n < 1) {
            fprintf(stderr, "libweirfault: invalid WEIR_FAULT_IO '%s'\n", f);
            _exit(2);
        }
        fail_n = n;
        fail_sticky = got == 3 && plus == '+';
        if (!strcmp(err, "EIO")) fail_errno = EIO;
        else if (*err && strcmp(err, "ENOSPC") != 0) {
            fprintf(stderr, "libweirfault: unknown errno '%s'\n", err);
            _exit(2);
        }
    }
}

__attribute__((destructor)) static void write_report(void)
{
    pthread_once(&once, setup);
    if (!*report) return;
    FILE *f = fopen(report, "w");
    if (!f) return;
    for (int k = 0; k < K_N; k++) fprintf(f, "%s %ld\n", KIND_NAMES[k], atomic_load(&calls[k]));
    fclose(f);
}

static bool under_dir(const char *path)
{
    pthread_once(&once, setup);
    if (!dir_len || !path) return false;
    char abs[PATH_MAX];
    if (path[0] != '/') {
        if (!getcwd(abs, sizeof abs)) return false;
        size_t l = strlen(abs);
        if (l + 1 + strlen(path) >= sizeof abs) return false;
        abs[l] = '/';
        strcpy(abs + l + 1, path);
        path = abs;
    }
    return !strncmp(path, dir, dir_len) && (path[dir_len] == '/' || path[dir_len] == 0);
}

static bool fd_tracked(int fd) { return fd >= 0 && fd < MAX_FD && atomic_load(&tracked[fd]); }

/* counts one call of kind k; true = this call fails (errno set) */
static bool inject(int k)
{
    pthread_once(&once, setup);
    long n = atomic_fetch_add(&calls[k], 1) + 1;
    if (k != fail_kind || !(n == fail_n || (fail_sticky && n > fail_n))) return false;
    errno = fail_errno;
    return true;
}

#define REAL(name, ret, ...) \
    static ret (*real_##name)(__VA_ARGS__); \
    if (!real_##name) real_##name = (ret (*)(__VA_ARGS__))dlsym(RTLD_NEXT, #name)

static int track(int fd, const char *path)
{
    if (fd >= 0 && fd < MAX_FD) atomic_store(&tracked[fd], under_dir(path));
    return fd;
}

int open(const char *path, int flags, ...)
{
    REAL(open, int, const char *, int, ...);
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); }
    if (under_dir(path) && inject(K_OPEN)) return -1;
    return track(real_open(path, flags, mode), path);
}
int open64(const char *path, int flags, ...) __attribute__((alias("open")));

int openat(int dfd, const char *path, int flags, ...)
{
    REAL(openat, int, int, const char *, int, ...);
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); }
    bool in = path[0] == '/' || dfd == AT_FDCWD ? under_dir(path) : false; /* relative to a directory fd: not counted */
    if (in && inject(K_OPEN)) return -1;
    int fd = real_openat(dfd, path, flags, mode);
    if (fd >= 0 && fd < MAX_FD) atomic_store(&tracked[fd], in);
    return fd;
}
int openat64(int dfd, const char *path, int flags, ...) __attribute__((alias("openat")));

int creat(const char *path, mode_t mode) { return open(path, O_CREAT | O_WRONLY | O_TRUNC, mode); }

int close(int fd)
{
    REAL(close, int, int);
    if (fd >= 0 && fd < MAX_FD) atomic_store(&tracked[fd], false);
    return real_close(fd);
}

ssize_t write(int fd, const void *buf, size_t n)
{
    REAL(write, ssize_t, int, const void *, size_t);
    if (fd_tracked(fd) && inject(K_WRITE)) return -1;
    return real_write(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    REAL(pwrite, ssize_t, int, const void *, size_t, off_t);
    if (fd_tracked(fd) && inject(K_WRITE)) return -1;
    return real_pwrite(fd, buf, n, off);
}
ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off) __attribute__((alias("pwrite")));

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
    REAL(writev, ssize_t, int, const struct iovec *, int);
    if (fd_tracked(fd) && inject(K_WRITE)) return -1;
    return real_writev(fd, iov, cnt);
}

int fsync(int fd)
{
    REAL(fsync, int, int);
    if (fd_tracked(fd) && inject(K_FSYNC)) return -1;
    return real_fsync(fd);
}

int fdatasync(int fd)
{
    REAL(fdatasync, int, int);
    if (fd_tracked(fd) && inject(K_FSYNC)) return -1;
    return real_fdatasync(fd);
}

int rename(const char *from, const char *to)
{
    REAL(rename, int, const char *, const char *);
    if ((under_dir(from) || under_dir(to)) && inject(K_RENAME)) return -1;
    return real_rename(from, to);
}

int renameat(int fd1, const char *from, int fd2, const char *to)
{
    REAL(renameat, int, int, const char *, int, const char *);
    if ((under_dir(from) || under_dir(to)) && inject(K_RENAME)) return -1;
    return real_renameat(fd1, from, fd2, to);
}
