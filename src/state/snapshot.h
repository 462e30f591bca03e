/*
 * snapshot.h — files of keyed-state snapshots (private to src/state/; the public entry points
 * wstate_snapshot / wstate_restore / wstate_snapshot_gc are declared in state.h, the timer ones
 * in timers.h).
 *
 * Owns: CRC32C; checksummed files (an 8-byte magic first, a trailer of CRC32C (4 bytes,
 * big-endian, over every byte before it) and a 4-byte end magic last); the backend-neutral state
 * file of full snapshots (records of one state grouped by key group, with a key-group index); the
 * `_keyed_state` manifest of a snapshot directory; small file-system helpers. Depends on
 * common/ and state.h.
 */
#ifndef WEIR_STATE_SNAPSHOT_H
#define WEIR_STATE_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "state.h"

#define WSNAP_MANIFEST "_keyed_state"

/* CRC32C (Castagnoli), chainable: crc = wsnap_crc32c(crc, p, n), starting from 0. */
uint32_t wsnap_crc32c(uint32_t crc, const void *p, size_t n);

/* ---- buffered output with a running CRC32C ---- */
typedef struct WSnapOut {
    int fd;
    char *path;
    unsigned char *buf;
    size_t n, cap;
    uint32_t crc;
    int64_t off;                /* bytes written so far (incl. buffered) */
    int err_no;                 /* first write error */
} WSnapOut;

bool wsnap_out_open(WSnapOut *o, const char *path, WError *err);
void wsnap_out_write(WSnapOut *o, const void *p, size_t n);
/* Appends the trailer (CRC32C + end magic), syncs and closes. size/crc may be NULL. */
bool wsnap_out_finish(WSnapOut *o, const char end_magic[4], int64_t *size, uint32_t *crc, WError *err);
void wsnap_out_abort(WSnapOut *o);      /* close and delete */

/* ---- checksummed input (mapped) ---- */
typedef struct WSnapIn {
    const unsigned char *p;     /* whole file */
    size_t size;                /* bytes before the trailer */
    size_t file_size;
    uint32_t crc;
} WSnapIn;
/* Maps path and checks magic, trailer and CRC; errors name the file. */
bool wsnap_in_open(WSnapIn *in, const char *path, const char magic[8], const char end_magic[4],
                   const char *what, WError *err);
void wsnap_in_close(WSnapIn *in);
/* CRC32C and size of a whole (unstructured) file, e.g. an SST file. */
bool wsnap_file_crc(const char *path, uint32_t *crc, int64_t *size, WError *err);

/* ---- full-snapshot state files ---- */
typedef struct WSnapWriter WSnapWriter;
WSnapWriter *wsnap_writer_open(const char *path, const char *state_name, WStateKind kind,
                               int64_t ttl, int max_parallelism, WError *err);
/* Records must come in non-decreasing key-group order. */
void wsnap_put_value(WSnapWriter *w, int kg, int64_t ts, const void *k, size_t kl, const void *v,
                     size_t vl);
void wsnap_put_map(WSnapWriter *w, int kg, int64_t ts, const void *k, size_t kl, const void *uk,
                   size_t ukl, const void *v, size_t vl);
void wsnap_put_list(WSnapWriter *w, int kg, int64_t ts, const void *k, size_t kl,
                    const WBytes *items, int n);
/* body = items already encoded as (4-byte big-endian length, bytes)* */
void wsnap_put_list_encoded(WSnapWriter *w, int kg, int64_t ts, const void *k, size_t kl,
                            const void *body, size_t bodylen, int n);
/* Frees w. */
bool wsnap_writer_finish(WSnapWriter *w, int64_t *size, uint32_t *crc, int64_t *records,
                         WError *err);
void wsnap_writer_abort(WSnapWriter *w);

/* ---- the manifest of a snapshot directory ---- */
typedef struct WSnapStateDesc {
    char *name;
    WStateKind kind;
    int64_t ttl;
    char *file;                 /* full snapshots: its state file (relative to dir) */
} WSnapStateDesc;

typedef struct WSnapFile {
    char *name;                 /* relative to dir (private) or to shared_dir (shared) */
    bool shared;
    int64_t size;
    uint32_t crc;
} WSnapFile;

typedef struct WSnapManifest {
    char *dir;                  /* as given to read, or written to */
    bool rocksdb;               /* written by the RocksDB backend */
    bool incremental;           /* a RocksDB checkpoint (else: backend-neutral full snapshot) */
    int max_parallelism, kg_first, kg_last;
    char *operator_name;
    char *shared_dir;           /* incremental: relative to dir unless absolute */
    int64_t entries;
    int nstates;
    WSnapStateDesc *states;
    int nfiles;
    WSnapFile *files;
} WSnapManifest;

bool wsnap_manifest_write(const WSnapManifest *m, WError *err);    /* to m->dir */
bool wsnap_manifest_read(const char *dir, WSnapManifest *m, WError *err);
void wsnap_manifest_free(WSnapManifest *m);
/* Path of file i (malloc'd). */
char *wsnap_file_path(const WSnapManifest *m, int i);
void wsnap_manifest_add_file(WSnapManifest *m, const char *name, bool shared, int64_t size,
                             uint32_t crc);
void wsnap_manifest_add_state(WSnapManifest *m, const char *name, WStateKind kind, int64_t ttl,
                              const char *file);

/* ---- file-system helpers ---- */
char *wsnap_join(const char *a, const char *b);                     /* malloc'd "a/b" */
bool wsnap_mkdirs(const char *path, WError *err);
void wsnap_rmtree(const char *path);
/* Copy src to dst (through dst.tmp + rename), computing CRC32C and size. */
bool wsnap_copy_file(const char *src, const char *dst, uint32_t *crc, int64_t *size, WError *err);
/* Hard link, or copy when linking is impossible. */
bool wsnap_link_or_copy(const char *src, const char *dst, WError *err);

#endif
