/*
 * snapshot.c — keyed-state snapshots: CRC32C, checksummed files, the backend-neutral state file
 * of full snapshots, the `_keyed_state` manifest, and the public wstate_snapshot /
 * wstate_restore / wstate_snapshot_gc (state.h). Incremental RocksDB snapshots are in
 * rocksdb_snapshot.c; the backends' own parts in heap_backend.c and rocksdb_backend.c.
 *
 * State file (all integers big-endian):
 *   "WEIRKST1" | u32 version=1 | u8 kind | u8 0 | u16 name length | i64 ttl | u32 max parallelism
 *   | u32 0 | name
 *   records, grouped by key group in increasing key-group order:
 *     value: i64 ts | u32 klen | key | u32 vlen | value
 *     map:   i64 ts | u32 klen | key | u32 uklen | user key | u32 vlen | value   (one per entry)
 *     list:  i64 ts | u32 klen | key | u32 n | (u32 len | item)*
 *   index: u32 sections | (u32 key group | u64 offset | u64 records)*
 *   u64 index offset | u64 records | u32 CRC32C of every byte before it | "WKSE"
 * Restore checks every file of every snapshot (trailer, CRC32C, then the structure) before it
 * changes the backend, so a damaged snapshot restores nothing.
 */
#include "snapshot.h"
#include "../common/sort.h"
#include "backend_internal.h"
#include "../common/arena.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define STATE_MAGIC "WEIRKST1"
#define STATE_END "WKSE"
#define STATE_VERSION 1
#define OUT_BUF (1u << 20)

/* ---------------------------------------------------------------- CRC32C */

static uint32_t crc_sw(uint32_t c, const unsigned char *p, size_t n)
{
    uint32_t t[256];
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t x = i;
        for (int k = 0; k < 8; k++) x = (x & 1) ? (x >> 1) ^ 0x82F63B78u : x >> 1;
        t[i] = x;
    }
    while (n--) c = t[(c ^ *p++) & 0xff] ^ (c >> 8);
    return c;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t crc_hw(uint32_t c, const unsigned char *p, size_t n)
{
    while (n && ((uintptr_t)p & 7)) { c = __builtin_ia32_crc32qi(c, *p++); n--; }
    uint64_t c64 = c;
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        c64 = __builtin_ia32_crc32di(c64, v);
        p += 8;
        n -= 8;
    }
    c = (uint32_t)c64;
    while (n--) c = __builtin_ia32_crc32qi(c, *p++);
    return c;
}
#endif

uint32_t wsnap_crc32c(uint32_t crc, const void *p, size_t n)
{
    uint32_t c = ~crc;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("sse4.2")) return ~crc_hw(c, p, n);
#endif
    return ~crc_sw(c, p, n);
}

/* ---------------------------------------------------------------- files */

char *wsnap_join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *s = wmalloc(n);
    snprintf(s, n, "%s/%s", a, b);
    return s;
}

bool wsnap_mkdirs(const char *path, WError *err)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return werr_set(err, WEXC_IO, "Path too long: %s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return werr_set(err, WEXC_IO, "Cannot create directory '%s': %s", buf, strerror(errno));
        *p = '/';
    }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        return werr_set(err, WEXC_IO, "Cannot create directory '%s': %s", buf, strerror(errno));
    struct stat st;
    if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
        return werr_set(err, WEXC_IO, "'%s' is not a directory", buf);
    return true;
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
    (void)sb; (void)flag; (void)f;
    remove(p);
    return 0;
}

void wsnap_rmtree(const char *path)
{
    if (path && *path) nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

bool wsnap_out_open(WSnapOut *o, const char *path, WError *err)
{
    memset(o, 0, sizeof *o);
    o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (o->fd < 0) return werr_set(err, WEXC_IO, "Cannot create '%s': %s", path, strerror(errno));
    o->path = wstrdup(path);
    o->cap = OUT_BUF;
    o->buf = wmalloc(o->cap);
    return true;
}

static void out_flush(WSnapOut *o)
{
    size_t off = 0;
    while (off < o->n && !o->err_no) {
        ssize_t w = write(o->fd, o->buf + off, o->n - off);
        if (w < 0) { if (errno != EINTR) o->err_no = errno; continue; }
        off += (size_t)w;
    }
    o->n = 0;
}

static void out_raw(WSnapOut *o, const void *p, size_t n)
{
    const unsigned char *c = p;
    while (n) {
        if (o->n == o->cap) out_flush(o);
        size_t k = o->cap - o->n < n ? o->cap - o->n : n;
        memcpy(o->buf + o->n, c, k);
        o->n += k;
        c += k;
        n -= k;
    }
}

void wsnap_out_write(WSnapOut *o, const void *p, size_t n)
{
    o->crc = wsnap_crc32c(o->crc, p, n);
    o->off += (int64_t)n;
    out_raw(o, p, n);
}

static void out_release(WSnapOut *o)
{
    if (o->fd >= 0) close(o->fd);
    o->fd = -1;
    free(o->buf);
    o->buf = NULL;
    free(o->path);
    o->path = NULL;
}

bool wsnap_out_finish(WSnapOut *o, const char end_magic[4], int64_t *size, uint32_t *crc, WError *err)
{
    unsigned char t[8];
    wbe_put32(t, o->crc);
    memcpy(t + 4, end_magic, 4);
    out_raw(o, t, 8);
    out_flush(o);
    if (!o->err_no && fsync(o->fd) != 0) o->err_no = errno;
    if (o->err_no) {
        werr_set(err, WEXC_IO, "Cannot write '%s': %s", o->path, strerror(o->err_no));
        unlink(o->path);
        out_release(o);
        return false;
    }
    if (size) *size = o->off + 8;
    if (crc) *crc = o->crc;
    out_release(o);
    return true;
}

void wsnap_out_abort(WSnapOut *o)
{
    if (o->path) unlink(o->path);
    out_release(o);
}

bool wsnap_in_open(WSnapIn *in, const char *path, const char magic[8], const char end_magic[4],
                   const char *what, WError *err)
{
    memset(in, 0, sizeof *in);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return werr_set(err, WEXC_IO, "%s file '%s' is missing.", what, path);
        return werr_set(err, WEXC_IO, "Cannot read %s file '%s': %s", what, path, strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) != 0) { close(fd); return werr_set(err, WEXC_IO, "Cannot read '%s': %s", path, strerror(errno)); }
    size_t fsize = (size_t)st.st_size;
    if (fsize < 16) {
        close(fd);
        return werr_set(err, WEXC_IO, "%s file '%s' is truncated (%zu bytes).", what, path, fsize);
    }
    void *p = mmap(NULL, fsize, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return werr_set(err, WEXC_IO, "Cannot map '%s': %s", path, strerror(errno));
    const unsigned char *b = p;
    if (memcmp(b + fsize - 4, end_magic, 4) != 0) {
        munmap(p, fsize);
        return werr_set(err, WEXC_IO, "%s file '%s' is truncated or corrupted (%zu bytes, no valid trailer).",
                        what, path, fsize);
    }
    uint32_t stored = wbe_get32(b + fsize - 8), computed = wsnap_crc32c(0, b, fsize - 8);
    if (stored != computed) {
        munmap(p, fsize);
        return werr_set(err, WEXC_IO, "%s file '%s' is corrupted: checksum mismatch (stored %08x, computed %08x).",
                        what, path, stored, computed);
    }
    if (memcmp(b, magic, 8) != 0) {
        munmap(p, fsize);
        return werr_set(err, WEXC_IO, "%s file '%s' is corrupted: not a weir %s file.", what, path, what);
    }
    in->p = b;
    in->file_size = fsize;
    in->size = fsize - 8;
    in->crc = stored;
    return true;
}

void wsnap_in_close(WSnapIn *in)
{
    if (in->p) munmap((void *)in->p, in->file_size);
    in->p = NULL;
}

bool wsnap_file_crc(const char *path, uint32_t *crc, int64_t *size, WError *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return werr_set(err, WEXC_IO, "State snapshot file '%s' is missing.", path);
        return werr_set(err, WEXC_IO, "Cannot read state snapshot file '%s': %s", path, strerror(errno));
    }
    unsigned char *buf = wmalloc(OUT_BUF);
    uint32_t c = 0;
    int64_t n = 0;
    for (;;) {
        ssize_t r = read(fd, buf, OUT_BUF);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return werr_set(err, WEXC_IO, "Cannot read state snapshot file '%s': %s", path, strerror(e));
        }
        if (r == 0) break;
        c = wsnap_crc32c(c, buf, (size_t)r);
        n += r;
    }
    free(buf);
    close(fd);
    *crc = c;
    *size = n;
    return true;
}

bool wsnap_copy_file(const char *src, const char *dst, uint32_t *crc, int64_t *size, WError *err)
{
    int in = open(src, O_RDONLY | O_CLOEXEC);
    if (in < 0) return werr_set(err, WEXC_IO, "Cannot read '%s': %s", src, strerror(errno));
    char *tmp = wmalloc(strlen(dst) + 8);
    sprintf(tmp, "%s.tmp", dst);
    WSnapOut o;
    if (!wsnap_out_open(&o, tmp, err)) { close(in); free(tmp); return false; }
    unsigned char *buf = wmalloc(OUT_BUF);
    bool ok = true;
    for (;;) {
        ssize_t r = read(in, buf, OUT_BUF);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) { ok = werr_set(err, WEXC_IO, "Cannot read '%s': %s", src, strerror(errno)); break; }
        if (r == 0) break;
        o.crc = wsnap_crc32c(o.crc, buf, (size_t)r);
        o.off += r;
        out_raw(&o, buf, (size_t)r);
    }
    free(buf);
    close(in);
    if (ok) {
        out_flush(&o);
        if (!o.err_no && fsync(o.fd) != 0) o.err_no = errno;
        if (o.err_no) ok = werr_set(err, WEXC_IO, "Cannot write '%s': %s", tmp, strerror(o.err_no));
    }
    if (ok) { *crc = o.crc; *size = o.off; }
    out_release(&o);
    if (ok && rename(tmp, dst) != 0) ok = werr_set(err, WEXC_IO, "Cannot rename '%s': %s", tmp, strerror(errno));
    if (!ok) unlink(tmp);
    free(tmp);
    return ok;
}

bool wsnap_link_or_copy(const char *src, const char *dst, WError *err)
{
    if (link(src, dst) == 0) return true;
    uint32_t c;
    int64_t n;
    return wsnap_copy_file(src, dst, &c, &n, err);
}

/* ---------------------------------------------------------------- state file writer */

struct WSnapWriter {
    WSnapOut out;
    WStateKind kind;
    int maxp, cur_kg;
    int nidx, capidx;
    uint32_t *ikg;
    int64_t *ioff, *icount;
    int64_t records;
};

WSnapWriter *wsnap_writer_open(const char *path, const char *state_name, WStateKind kind,
                               int64_t ttl, int max_parallelism, WError *err)
{
    WSnapWriter *w = wcalloc(1, sizeof *w);
    if (!wsnap_out_open(&w->out, path, err)) { free(w); return NULL; }
    w->kind = kind;
    w->maxp = max_parallelism;
    w->cur_kg = -1;
    size_t nl = strlen(state_name);
    if (nl > 65535) nl = 65535;
    unsigned char h[32];
    memcpy(h, STATE_MAGIC, 8);
    wbe_put32(h + 8, STATE_VERSION);
    h[12] = (unsigned char)kind;
    h[13] = 0;
    wbe_put16(h + 14, (uint16_t)nl);
    wbe_put64(h + 16, (uint64_t)ttl);
    wbe_put32(h + 24, (uint32_t)max_parallelism);
    wbe_put32(h + 28, 0);
    wsnap_out_write(&w->out, h, 32);
    wsnap_out_write(&w->out, state_name, nl);
    return w;
}

static void section(WSnapWriter *w, int kg)
{
    if (kg == w->cur_kg) { w->icount[w->nidx - 1]++; w->records++; return; }
    if (w->nidx == w->capidx) {
        w->capidx = w->capidx ? w->capidx * 2 : 64;
        w->ikg = wrealloc(w->ikg, sizeof(uint32_t) * (size_t)w->capidx);
        w->ioff = wrealloc(w->ioff, sizeof(int64_t) * (size_t)w->capidx);
        w->icount = wrealloc(w->icount, sizeof(int64_t) * (size_t)w->capidx);
    }
    w->ikg[w->nidx] = (uint32_t)kg;
    w->ioff[w->nidx] = w->out.off;
    w->icount[w->nidx] = 1;
    w->nidx++;
    w->cur_kg = kg;
    w->records++;
}

static void put_u32(WSnapWriter *w, uint32_t v) { unsigned char b[4]; wbe_put32(b, v); wsnap_out_write(&w->out, b, 4); }

static void put_head(WSnapWriter *w, int kg, int64_t ts, const void *k, size_t kl)
{
    section(w, kg);
    unsigned char b[12];
    wbe_put64(b, (uint64_t)ts);
    wbe_put32(b + 8, (uint32_t)kl);
    wsnap_out_write(&w->out, b, 12);
    wsnap_out_write(&w->out, k, kl);
}

void wsnap_put_value(WSnapWriter *w, int kg, int64_t ts, const void *k, size_t kl, const void *v, size_t vl)
{
    put_head(w, kg, ts, k, kl);
    put_u32(w, (uint32_t)vl);
    wsnap_out_write(&w->out, v, vl);
}

void wsnap_put_map(WSnapWriter *w, int kg, int64_t ts, const void *k, size_t kl, const void *uk,
                   size_t ukl, const void *v, size_t vl)
{
    put_head(w, kg, ts, k, kl);
    put_u32(w, (uint32_t)ukl);
    wsnap_out_write(&w->out, uk, ukl);
    put_u32(w, (uint32_t)vl);
    wsnap_out_write(&w->out, v, vl);
}

void wsnap_put_list(WSnapWriter *w, int kg, int64_t ts, const void *k, size_t kl, const WBytes *items, int n)
{
    put_head(w, kg, ts, k, kl);
    put_u32(w, (uint32_t)n);
    for (int i = 0; i < n; i++) {
        put_u32(w, (uint32_t)items[i].len);
        wsnap_out_write(&w->out, items[i].p, items[i].len);
    }
}

void wsnap_put_list_encoded(WSnapWriter *w, int kg, int64_t ts, const void *k, size_t kl,
                            const void *body, size_t bodylen, int n)
{
    put_head(w, kg, ts, k, kl);
    put_u32(w, (uint32_t)n);
    wsnap_out_write(&w->out, body, bodylen);
}

static void writer_free(WSnapWriter *w)
{
    free(w->ikg);
    free(w->ioff);
    free(w->icount);
    free(w);
}

bool wsnap_writer_finish(WSnapWriter *w, int64_t *size, uint32_t *crc, int64_t *records, WError *err)
{
    int64_t index_off = w->out.off;
    put_u32(w, (uint32_t)w->nidx);
    for (int i = 0; i < w->nidx; i++) {
        unsigned char b[20];
        wbe_put32(b, w->ikg[i]);
        wbe_put64(b + 4, (uint64_t)w->ioff[i]);
        wbe_put64(b + 12, (uint64_t)w->icount[i]);
        wsnap_out_write(&w->out, b, 20);
    }
    unsigned char t[16];
    wbe_put64(t, (uint64_t)index_off);
    wbe_put64(t + 8, (uint64_t)w->records);
    wsnap_out_write(&w->out, t, 16);
    if (records) *records = w->records;
    bool ok = wsnap_out_finish(&w->out, STATE_END, size, crc, err);
    writer_free(w);
    return ok;
}

void wsnap_writer_abort(WSnapWriter *w)
{
    wsnap_out_abort(&w->out);
    writer_free(w);
}

/* ---------------------------------------------------------------- state file reader */

typedef struct StateFile {
    WSnapIn in;
    char *path;                 /* owned */
    WStateKind kind;
    int64_t ttl;
    int maxp;
    char *name;
    size_t index_off;
    uint32_t nidx;
} StateFile;

static bool corrupt(WError *err, const char *path, const char *why)
{
    return werr_set(err, WEXC_IO, "State snapshot file '%s' is corrupted: %s.", path, why);
}

/* Takes path. */
static bool sf_open(StateFile *f, char *path, WError *err)
{
    memset(f, 0, sizeof *f);
    f->path = path;
    if (!wsnap_in_open(&f->in, path, STATE_MAGIC, STATE_END, "State snapshot", err)) return false;
    const unsigned char *p = f->in.p;
    size_t size = f->in.size;
    if (size < 32 + 4 + 16) { wsnap_in_close(&f->in); return corrupt(err, path, "too short"); }
    if (wbe_get32(p + 8) != STATE_VERSION) { wsnap_in_close(&f->in); return corrupt(err, path, "unknown format version"); }
    f->kind = (WStateKind)p[12];
    size_t nl = wbe_get16(p + 14);
    f->ttl = (int64_t)wbe_get64(p + 16);
    f->maxp = (int)wbe_get32(p + 24);
    uint64_t io = wbe_get64(p + size - 16);
    if (f->kind > WSTATE_LIST || 32 + nl > size - 16 || io < 32 + nl || io + 4 > size - 16) {
        wsnap_in_close(&f->in);
        return corrupt(err, path, "bad header");
    }
    f->index_off = (size_t)io;
    f->nidx = wbe_get32(p + io);
    if ((uint64_t)f->nidx * 20 != size - 16 - io - 4) { wsnap_in_close(&f->in); return corrupt(err, path, "bad index"); }
    f->name = wmalloc(nl + 1);
    memcpy(f->name, p + 32, nl);
    f->name[nl] = 0;
    return true;
}

static void sf_close(StateFile *f)
{
    wsnap_in_close(&f->in);
    free(f->name);
    free(f->path);
    f->name = NULL;
    f->path = NULL;
}

typedef struct Cursor { const unsigned char *p; size_t off, end; bool bad; } Cursor;

static uint32_t cur_u32(Cursor *c)
{
    if (c->bad || c->end - c->off < 4) { c->bad = true; return 0; }
    uint32_t v = wbe_get32(c->p + c->off);
    c->off += 4;
    return v;
}

static int64_t cur_i64(Cursor *c)
{
    if (c->bad || c->end - c->off < 8) { c->bad = true; return 0; }
    int64_t v = (int64_t)wbe_get64(c->p + c->off);
    c->off += 8;
    return v;
}

static const unsigned char *cur_bytes(Cursor *c, size_t n)
{
    if (c->bad || c->end - c->off < n) { c->bad = true; return NULL; }
    const unsigned char *r = c->p + c->off;
    c->off += n;
    return r;
}

/* Walk the records of key groups [first, last]; apply them to s when s != NULL (else only
   validate every section). */
static bool sf_walk(StateFile *f, WState *s, int first, int last, WError *err)
{
    const unsigned char *p = f->in.p;
    size_t data_end = f->index_off;
    size_t prev_end = 32 + wbe_get16(p + 14);
    int prev_kg = -1;
    for (uint32_t i = 0; i < f->nidx; i++) {
        const unsigned char *e = p + f->index_off + 4 + (size_t)i * 20;
        uint32_t kg = wbe_get32(e);
        uint64_t off = wbe_get64(e + 4), count = wbe_get64(e + 12);
        size_t end = i + 1 < f->nidx ? (size_t)wbe_get64(e + 24) : data_end;
        if ((int)kg <= prev_kg || kg >= (uint32_t)f->maxp || off != prev_end || end < off || end > data_end)
            return corrupt(err, f->path, "bad key-group index");
        prev_kg = (int)kg;
        prev_end = end;
        if (s && ((int)kg < first || (int)kg > last)) continue;
        Cursor c = {p, (size_t)off, end, false};
        for (uint64_t r = 0; r < count && !c.bad; r++) {
            int64_t ts = cur_i64(&c);
            uint32_t kl = cur_u32(&c);
            const unsigned char *k = cur_bytes(&c, kl);
            if (f->kind == WSTATE_VALUE) {
                uint32_t vl = cur_u32(&c);
                const unsigned char *v = cur_bytes(&c, vl);
                if (c.bad || !s) continue;
                s->ops->restore_value(s, (int)kg, k, kl, v, vl, ts);
            } else if (f->kind == WSTATE_MAP) {
                uint32_t ukl = cur_u32(&c);
                const unsigned char *uk = cur_bytes(&c, ukl);
                uint32_t vl = cur_u32(&c);
                const unsigned char *v = cur_bytes(&c, vl);
                if (c.bad || !s) continue;
                s->ops->restore_map(s, (int)kg, k, kl, uk, ukl, v, vl, ts);
            } else {
                uint32_t n = cur_u32(&c);
                size_t body = c.off;
                for (uint32_t q = 0; q < n && !c.bad; q++) cur_bytes(&c, cur_u32(&c));
                if (c.bad || !s || n == 0) continue;
                s->ops->restore_list(s, (int)kg, k, kl, p + body, c.off - body, (int)n, ts);
            }
        }
        if (c.bad || c.off != end) return corrupt(err, f->path, "bad record");
    }
    if (prev_end != data_end) return corrupt(err, f->path, "bad key-group index");
    return true;
}

/* ---------------------------------------------------------------- manifest */

static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\') fputs("\\\\", f);
        else if (*s == '\n') fputs("\\n", f);
        else fputc(*s, f);
    }
}

static char *unescape(const char *s)
{
    char *r = wmalloc(strlen(s) + 1), *o = r;
    for (; *s; s++) {
        if (*s == '\\' && s[1]) { s++; *o++ = *s == 'n' ? '\n' : *s; }
        else *o++ = *s;
    }
    *o = 0;
    return r;
}

static const char *kind_word(WStateKind k) { return k == WSTATE_MAP ? "map" : k == WSTATE_LIST ? "list" : "value"; }

bool wsnap_manifest_write(const WSnapManifest *m, WError *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fprintf(f, "weir-keyed-state 1\nbackend %s\nformat %s\nmax-parallelism %d\nkey-groups %d %d\nentries %lld\n",
            m->rocksdb ? "rocksdb" : "hashmap", m->incremental ? "incremental" : "full", m->max_parallelism,
            m->kg_first, m->kg_last, (long long)m->entries);
    fputs("operator ", f);
    put_escaped(f, m->operator_name ? m->operator_name : "");
    fputc('\n', f);
    if (m->shared_dir) { fputs("shared ", f); put_escaped(f, m->shared_dir); fputc('\n', f); }
    for (int i = 0; i < m->nstates; i++) {
        fprintf(f, "state %s %lld %s ", kind_word(m->states[i].kind), (long long)m->states[i].ttl,
                m->states[i].file ? m->states[i].file : "-");
        put_escaped(f, m->states[i].name);
        fputc('\n', f);
    }
    for (int i = 0; i < m->nfiles; i++) {
        fprintf(f, "file %s %lld %08x ", m->files[i].shared ? "shared" : "private", (long long)m->files[i].size,
                m->files[i].crc);
        put_escaped(f, m->files[i].name);
        fputc('\n', f);
    }
    fclose(f);
    char tail[32];
    int tl = snprintf(tail, sizeof tail, "checksum %08x\n", wsnap_crc32c(0, buf, len));
    char *path = wsnap_join(m->dir, WSNAP_MANIFEST ".tmp");
    char *final = wsnap_join(m->dir, WSNAP_MANIFEST);
    bool ok = true;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, buf, len) != (ssize_t)len || write(fd, tail, (size_t)tl) != tl || fsync(fd) != 0)
        ok = werr_set(err, WEXC_IO, "Cannot write '%s': %s", path, strerror(errno));
    if (fd >= 0) close(fd);
    if (ok && rename(path, final) != 0) ok = werr_set(err, WEXC_IO, "Cannot write '%s': %s", final, strerror(errno));
    if (!ok) unlink(path);
    if (ok) {       /* make the rename durable */
        int dfd = open(m->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) { fsync(dfd); close(dfd); }
    }
    free(path);
    free(final);
    free(buf);
    return ok;
}

void wsnap_manifest_add_file(WSnapManifest *m, const char *name, bool shared, int64_t size, uint32_t crc)
{
    m->files = wrealloc(m->files, sizeof(WSnapFile) * (size_t)(m->nfiles + 1));
    m->files[m->nfiles++] = (WSnapFile){wstrdup(name), shared, size, crc};
}

void wsnap_manifest_add_state(WSnapManifest *m, const char *name, WStateKind kind, int64_t ttl, const char *file)
{
    m->states = wrealloc(m->states, sizeof(WSnapStateDesc) * (size_t)(m->nstates + 1));
    m->states[m->nstates++] = (WSnapStateDesc){wstrdup(name), kind, ttl, file ? wstrdup(file) : NULL};
}

void wsnap_manifest_free(WSnapManifest *m)
{
    for (int i = 0; i < m->nstates; i++) { free(m->states[i].name); free(m->states[i].file); }
    for (int i = 0; i < m->nfiles; i++) free(m->files[i].name);
    free(m->states);
    free(m->files);
    free(m->dir);
    free(m->operator_name);
    free(m->shared_dir);
    memset(m, 0, sizeof *m);
}

bool wsnap_manifest_read(const char *dir, WSnapManifest *m, WError *err)
{
    memset(m, 0, sizeof *m);
    char *path = wsnap_join(dir, WSNAP_MANIFEST);
    FILE *f = fopen(path, "rb");
    if (!f) {
        bool r;
        if (errno == ENOENT)
            r = werr_set(err, WEXC_IO, "State snapshot '%s' is incomplete or missing: it has no manifest '%s'.", dir, path);
        else
            r = werr_set(err, WEXC_IO, "Cannot read '%s': %s", path, strerror(errno));
        free(path);
        return r;
    }
    char *buf = NULL;
    size_t cap = 0, len = 0;
    for (;;) {
        if (len + 4096 > cap) { cap = cap * 2 + 8192; buf = wrealloc(buf, cap); }
        size_t r = fread(buf + len, 1, cap - len - 1, f);
        if (r == 0) break;
        len += r;
    }
    fclose(f);
    buf[len] = 0;
    bool ok = true;
    /* the checksum line is the last one */
    char *cl = len ? strstr(buf, "checksum ") : NULL;
    while (cl && cl != buf && cl[-1] != '\n') cl = strstr(cl + 1, "checksum ");
    unsigned stored = 0;
    if (!cl || sscanf(cl, "checksum %8x", &stored) != 1 || strchr(cl, '\n') != buf + len - 1) {
        ok = werr_set(err, WEXC_IO, "State snapshot manifest '%s' is truncated or corrupted.", path);
    } else if (wsnap_crc32c(0, buf, (size_t)(cl - buf)) != stored) {
        ok = werr_set(err, WEXC_IO, "State snapshot manifest '%s' is corrupted: checksum mismatch.", path);
    }
    if (ok) {
        m->dir = wstrdup(dir);
        *cl = 0;
        int lineno = 0;
        bool head = false;
        for (char *line = buf, *nl; ok && *line; line = nl + 1) {
            nl = strchr(line, '\n');
            if (!nl) break;
            *nl = 0;
            lineno++;
            char w1[32], w2[32], w3[4096];
            long long a, b;
            unsigned c;
            int pos = 0;
            if (lineno == 1) { head = strcmp(line, "weir-keyed-state 1") == 0; ok = head; }
            else if (sscanf(line, "backend %31s", w1) == 1) m->rocksdb = strcmp(w1, "rocksdb") == 0;
            else if (sscanf(line, "format %31s", w1) == 1) m->incremental = strcmp(w1, "incremental") == 0;
            else if (sscanf(line, "max-parallelism %lld", &a) == 1) m->max_parallelism = (int)a;
            else if (sscanf(line, "key-groups %lld %lld", &a, &b) == 2) { m->kg_first = (int)a; m->kg_last = (int)b; }
            else if (sscanf(line, "entries %lld", &a) == 1) m->entries = a;
            else if (strncmp(line, "operator ", 9) == 0) { free(m->operator_name); m->operator_name = unescape(line + 9); }
            else if (strncmp(line, "shared ", 7) == 0) { free(m->shared_dir); m->shared_dir = unescape(line + 7); }
            else if (sscanf(line, "state %31s %lld %4095s %n", w1, &a, w3, &pos) == 3 && pos > 0) {
                WStateKind k = strcmp(w1, "map") == 0 ? WSTATE_MAP : strcmp(w1, "list") == 0 ? WSTATE_LIST : WSTATE_VALUE;
                char *name = unescape(line + pos);
                wsnap_manifest_add_state(m, name, k, a, strcmp(w3, "-") == 0 ? NULL : w3);
                free(name);
            } else if (sscanf(line, "file %31s %lld %8x %n", w2, &a, &c, &pos) == 3 && pos > 0) {
                char *name = unescape(line + pos);
                wsnap_manifest_add_file(m, name, strcmp(w2, "shared") == 0, a, c);
                free(name);
            } else {
                ok = false;
            }
            if (!ok) werr_set(err, WEXC_IO, "State snapshot manifest '%s' is corrupted (line %d).", path, lineno);
        }
        if (ok && (!head || m->max_parallelism <= 0))
            ok = werr_set(err, WEXC_IO, "State snapshot manifest '%s' is corrupted.", path);
        for (int i = 0; ok && i < m->nfiles; i++)
            if (strchr(m->files[i].name, '/') || strcmp(m->files[i].name, "..") == 0)
                ok = werr_set(err, WEXC_IO, "State snapshot manifest '%s' is corrupted (file name).", path);
    }
    free(buf);
    free(path);
    if (!ok) wsnap_manifest_free(m);
    return ok;
}

char *wsnap_file_path(const WSnapManifest *m, int i)
{
    if (!m->files[i].shared) return wsnap_join(m->dir, m->files[i].name);
    const char *sd = m->shared_dir ? m->shared_dir : "../shared";
    char *base;
    if (sd[0] == '/') {
        base = wstrdup(sd);
    } else if (strncmp(sd, "../", 3) == 0 && !strchr(sd + 3, '/')) {  /* a sibling: name it plainly */
        size_t n = strlen(m->dir);
        while (n > 1 && m->dir[n - 1] == '/') n--;
        while (n > 0 && m->dir[n - 1] != '/') n--;
        char *parent = n ? wmalloc(n + 1) : wstrdup(".");
        if (n) { memcpy(parent, m->dir, n - (n > 1)); parent[n - (n > 1)] = 0; }
        base = wsnap_join(parent, sd + 3);
        free(parent);
    } else {
        base = wsnap_join(m->dir, sd);
    }
    char *p = wsnap_join(base, m->files[i].name);
    free(base);
    return p;
}

/* ---------------------------------------------------------------- public: snapshot */

static int64_t mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Creates dir; false when it exists with content. */
static bool prepare_dir(const char *dir, WError *err)
{
    if (!wsnap_mkdirs(dir, err)) return false;
    DIR *d = opendir(dir);
    if (!d) return werr_set(err, WEXC_IO, "Cannot open '%s': %s", dir, strerror(errno));
    struct dirent *e;
    bool empty = true;
    while ((e = readdir(d))) if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) empty = false;
    closedir(d);
    if (!empty) return werr_set(err, WEXC_IO, "State snapshot directory '%s' is not empty.", dir);
    return true;
}

static bool snapshot_full(WStateBackend *b, const char *dir, WSnapshotStats *st, WError *err)
{
    const WStateBackendConfig *cfg = wstate_config(b);
    WSnapManifest m = {0};
    m.dir = wstrdup(dir);
    m.rocksdb = b->ops->type == WSTATE_BACKEND_ROCKSDB;
    m.max_parallelism = cfg->max_parallelism;
    m.kg_first = 0;
    m.kg_last = cfg->max_parallelism - 1;
    m.operator_name = wstrdup(cfg->operator_name ? cfg->operator_name : "");
    int64_t now = wstate_now(b);
    if (b->ops->snapshot_prepare) b->ops->snapshot_prepare(b);
    bool ok = true;
    for (int i = 0; ok && i < wstate_count(b); i++) {
        WState *s = wstate_at(b, i);
        char fname[32];
        snprintf(fname, sizeof fname, "state-%d.wss", i);
        char *path = wsnap_join(dir, fname);
        WSnapWriter *w = wsnap_writer_open(path, wstate_name(s), wstate_kind(s), wstate_ttl(s),
                                           cfg->max_parallelism, err);
        free(path);
        if (!w) { ok = false; break; }
        b->ops->snapshot_state(s, w, now);
        if (wstate_backend_failed(b, err)) { wsnap_writer_abort(w); ok = false; break; }
        int64_t size, records;
        uint32_t crc;
        if (!wsnap_writer_finish(w, &size, &crc, &records, err)) { ok = false; break; }
        wsnap_manifest_add_state(&m, wstate_name(s), wstate_kind(s), wstate_ttl(s), fname);
        wsnap_manifest_add_file(&m, fname, false, size, crc);
        m.entries += records;
        st->state_bytes += size;
        st->written_bytes += size;
        st->files++;
        st->files_written++;
    }
    st->entries = m.entries;
    if (ok) ok = wsnap_manifest_write(&m, err);
    wsnap_manifest_free(&m);
    return ok;
}

bool wstate_snapshot(WStateBackend *b, const char *dir, const char *shared_dir, WSnapshotStats *stats,
                     WError *err)
{
    int64_t t0 = mono_us();
    WSnapshotStats local = {0};
    WSnapshotStats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    if (wstate_backend_failed(b, err)) return false;
    if (!prepare_dir(dir, err)) return false;
    bool ok = b->ops->snapshot_incremental && shared_dir ? b->ops->snapshot_incremental(b, dir, shared_dir, st, err)
                                                          : snapshot_full(b, dir, st, err);
    if (!ok) {          /* leave no half-written snapshot behind */
        wsnap_rmtree(dir);
        return false;
    }
    st->duration_us = mono_us() - t0;
    return true;
}

/* ---------------------------------------------------------------- public: restore */

typedef struct Source {
    WSnapManifest m;
    StateFile *files;           /* full: one per state */
    int nfiles;
    WRdbReadonly *ro;           /* incremental */
} Source;

static void source_free(Source *s)
{
    for (int i = 0; i < s->nfiles; i++) sf_close(&s->files[i]);
    free(s->files);
    if (s->ro) wrdb_readonly_close(s->ro);
    wsnap_manifest_free(&s->m);
}

static const WSnapFile *manifest_file(const WSnapManifest *m, const char *name)
{
    for (int i = 0; i < m->nfiles; i++) if (!m->files[i].shared && strcmp(m->files[i].name, name) == 0) return &m->files[i];
    return NULL;
}

/* Step 1 for one snapshot: manifest, every file, structure. */
static bool source_open(Source *src, const char *dir, WStateBackend *b, WError *err)
{
    if (!wsnap_manifest_read(dir, &src->m, err)) return false;
    WSnapManifest *m = &src->m;
    int maxp = wstate_max_parallelism(b);
    if (m->max_parallelism != maxp)
        return werr_set(err, WEXC_ILLEGAL_ARG,
                        "Cannot restore state snapshot '%s': it was taken with max parallelism %d (key groups), "
                        "the job runs with max parallelism %d. The maximum parallelism of a stateful job "
                        "cannot change between a snapshot and its restore.", dir, m->max_parallelism, maxp);
    if (!m->incremental) {
        src->files = wcalloc((size_t)(m->nstates ? m->nstates : 1), sizeof(StateFile));
        for (int i = 0; i < m->nstates; i++) {
            const WSnapFile *mf = m->states[i].file ? manifest_file(m, m->states[i].file) : NULL;
            if (!mf) return werr_set(err, WEXC_IO, "State snapshot manifest in '%s' is corrupted (state file).", dir);
            char *path = wsnap_join(dir, mf->name);
            src->nfiles++;
            if (!sf_open(&src->files[i], path, err)) return false;
            StateFile *f = &src->files[i];
            if ((int64_t)f->in.file_size != mf->size || f->in.crc != mf->crc)
                return werr_set(err, WEXC_IO, "State snapshot file '%s' does not match its manifest (size or checksum).", path);
            if (f->kind != m->states[i].kind || strcmp(f->name, m->states[i].name) != 0 || f->maxp != maxp)
                return corrupt(err, path, "header does not match the manifest");
            if (!sf_walk(f, NULL, 0, 0, err)) return false;
        }
        return true;
    }
    for (int i = 0; i < m->nfiles; i++) {
        char *path = wsnap_file_path(m, i);
        uint32_t crc;
        int64_t size;
        bool ok = wsnap_file_crc(path, &crc, &size, err);
        if (ok && size != m->files[i].size)
            ok = werr_set(err, WEXC_IO, "State snapshot file '%s' is truncated (%lld bytes, expected %lld).", path,
                          (long long)size, (long long)m->files[i].size);
        else if (ok && crc != m->files[i].crc)
            ok = werr_set(err, WEXC_IO, "State snapshot file '%s' is corrupted: checksum mismatch (stored %08x, computed %08x).",
                          path, m->files[i].crc, crc);
        free(path);
        if (!ok) return false;
    }
    return true;
}

static bool check_kinds(WStateBackend *b, Source *srcs, int n, WError *err)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < srcs[i].m.nstates; j++) {
            const WSnapStateDesc *d = &srcs[i].m.states[j];
            for (int k = 0; k < wstate_count(b); k++) {
                WState *s = wstate_at(b, k);
                if (strcmp(wstate_name(s), d->name) == 0 && wstate_kind(s) != d->kind) {
                    wstate_restore_state(b, d->name, d->kind, d->ttl, err);     /* sets the error */
                    return false;
                }
            }
            for (int i2 = 0; i2 <= i; i2++)
                for (int j2 = 0; j2 < srcs[i2].m.nstates; j2++) {
                    const WSnapStateDesc *e = &srcs[i2].m.states[j2];
                    if ((i2 < i || j2 < j) && strcmp(e->name, d->name) == 0 && e->kind != d->kind)
                        return werr_set(err, WEXC_IO, "State snapshots '%s' and '%s' disagree on the kind of state '%s'.",
                                        srcs[i2].m.dir, srcs[i].m.dir, d->name);
                }
        }
    return true;
}

bool wstate_restore(WStateBackend *b, const char *const *dirs, int ndirs, int kg_first, int kg_last, WError *err)
{
    int maxp = wstate_max_parallelism(b);
    if (kg_first < 0 || kg_last >= maxp || kg_first > kg_last)
        return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid key-group range %d..%d for max parallelism %d.", kg_first,
                        kg_last, maxp);
    if (wstate_backend_failed(b, err)) return false;
    Source *srcs = wcalloc((size_t)(ndirs ? ndirs : 1), sizeof(Source));
    bool ok = true;
    char *scratch = NULL;
    for (int i = 0; ok && i < ndirs; i++) ok = source_open(&srcs[i], dirs[i], b, err);
    if (ok) ok = check_kinds(b, srcs, ndirs, err);
    /* incremental snapshots: open them all before applying anything */
    for (int i = 0; ok && i < ndirs; i++) {
        if (!srcs[i].m.incremental) continue;
        const char *local = b->ops->local_dir ? b->ops->local_dir(b) : NULL;
        if (!local && !scratch) {
            const char *tmp = getenv("TMPDIR");
            scratch = wsnap_join(tmp && *tmp ? tmp : "/tmp", "weir-restore-XXXXXX");
            if (!mkdtemp(scratch)) {
                ok = werr_set(err, WEXC_IO, "Cannot create a scratch directory: %s", strerror(errno));
                break;
            }
        }
        srcs[i].ro = wrdb_readonly_open(&srcs[i].m, local ? local : scratch, err);
        if (!srcs[i].ro) ok = false;
    }
    for (int i = 0; ok && i < ndirs; i++) {
        Source *s = &srcs[i];
        if (s->m.incremental) {
            ok = wrdb_readonly_apply(s->ro, b, kg_first, kg_last, err);
            continue;
        }
        for (int j = 0; ok && j < s->m.nstates; j++) {
            WState *st = wstate_restore_state(b, s->m.states[j].name, s->m.states[j].kind, s->m.states[j].ttl, err);
            ok = st && sf_walk(&s->files[j], st, kg_first, kg_last, err);
        }
    }
    if (ok && wstate_backend_failed(b, err)) ok = false;
    for (int i = 0; i < ndirs; i++) source_free(&srcs[i]);
    free(srcs);
    if (scratch) { wsnap_rmtree(scratch); free(scratch); }
    return ok;
}

/* ---------------------------------------------------------------- public: shared-file GC */

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

bool wstate_snapshot_gc(const char *shared_dir, const char *const *live_dirs, int nlive, WError *err)
{
    char **names = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    for (int i = 0; ok && i < nlive; i++) {
        WSnapManifest m;
        if (!wsnap_manifest_read(live_dirs[i], &m, err)) { ok = false; break; }
        for (int j = 0; j < m.nfiles; j++) {
            if (!m.files[j].shared) continue;
            if (n == cap) { cap = cap ? cap * 2 : 64; names = wrealloc(names, sizeof(char *) * cap); }
            names[n++] = wstrdup(m.files[j].name);
        }
        wsnap_manifest_free(&m);
    }
    if (ok) {
        if (n) wqsort(names, n, sizeof(char *), cmp_str);
        DIR *d = opendir(shared_dir);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d))) {
                const char *nm = e->d_name;
                size_t l = strlen(nm);
                if (l < 21 || nm[16] != '-' || strcmp(nm + l - 4, ".sst") != 0) continue;   /* ours only */
                const char *key = nm;
                if (n && bsearch(&key, names, n, sizeof(char *), cmp_str)) continue;
                char *p = wsnap_join(shared_dir, nm);
                unlink(p);
                free(p);
            }
            closedir(d);
        }
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    return ok;
}
