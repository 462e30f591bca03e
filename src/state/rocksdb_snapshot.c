/*
 * rocksdb_snapshot.c — incremental snapshots of the RocksDB backend and their restore.
 *
 * A snapshot flushes every column family and takes a RocksDB checkpoint (hard links of the live
 * SST files plus MANIFEST, OPTIONS and CURRENT) in a scratch directory under the backend's root.
 * SST files are immutable and numbered uniquely within a RocksDB instance, so each is written to
 * shared_dir once, as "<16 hex digits of the backend instance id>-<file name>", and later
 * snapshots only reference it (checked to still exist with the same size); the other, small
 * files are copied into the snapshot directory. Every file's size and CRC32C go to the manifest.
 * Restore links a snapshot's files into a scratch directory, opens it read-only and copies the
 * entries of the wanted key groups (a seek to the first key group's 2-byte prefix) into the
 * target backend, which may be a heap backend. See snapshot.c for the manifest.
 */
#include "backend_internal.h"
#include "../common/sort.h"
#include "../common/arena.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <rocksdb/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorted regular-file names of dir (NULL-terminated). */
static char **list_files(const char *dir, int *n)
{
    DIR *d = opendir(dir);
    *n = 0;
    if (!d) return NULL;
    char **v = NULL;
    int cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (*n + 1 >= cap) { cap = cap ? cap * 2 : 32; v = wrealloc(v, sizeof(char *) * (size_t)cap); }
        v[(*n)++] = wstrdup(e->d_name);
    }
    closedir(d);
    if (v) { wqsort(v, (size_t)*n, sizeof(char *), cmp_name); v[*n] = NULL; }
    return v;
}

static void free_names(char **v, int n)
{
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
}

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* shared_dir as the manifest records it: relative to dir when they are siblings. */
static char *shared_ref(const char *dir, const char *shared_dir)
{
    char rd[PATH_MAX], rs[PATH_MAX];
    if (!realpath(dir, rd) || !realpath(shared_dir, rs)) return wstrdup(shared_dir);
    char *sd = strrchr(rd, '/'), *ss = strrchr(rs, '/');
    if (sd && ss && sd - rd == ss - rs && strncmp(rd, rs, (size_t)(sd - rd)) == 0) {
        char *r = wmalloc(strlen(ss) + 3);
        sprintf(r, "..%s", ss);
        return r;
    }
    return wstrdup(rs);
}

bool wrdb_snapshot_incremental(WRdb *r, const char *dir, const char *shared_dir, WSnapshotStats *st, WError *err)
{
    WStateBackend *b = wrdb_backend(r);
    st->incremental = true;
    wrdb_close_iterators(r);
    wrdb_flush(r);
    if (!wsnap_mkdirs(shared_dir, err)) return false;
    char real_shared[PATH_MAX];
    if (!realpath(shared_dir, real_shared)) return werr_set(err, WEXC_IO, "Cannot resolve '%s': %s", shared_dir, strerror(errno));
    char name[64];
    snprintf(name, sizeof name, "chk-%lld", (long long)wrdb_next_seq(r));
    char *tmp = wsnap_join(wrdb_root(r), name);
    wsnap_rmtree(tmp);
    char *e = NULL;
    rocksdb_checkpoint_t *cp = rocksdb_checkpoint_object_create(wrdb_db(r), &e);
    if (!e) rocksdb_checkpoint_create(cp, tmp, 0, &e);
    if (cp) rocksdb_checkpoint_object_destroy(cp);
    if (e) {
        werr_set(err, WEXC_IO, "RocksDB checkpoint in '%s' failed: %s", tmp, e);
        free(e);
        wsnap_rmtree(tmp);
        free(tmp);
        return false;
    }
    const WStateBackendConfig *cfg = wstate_config(b);
    WSnapManifest m = {0};
    m.dir = wstrdup(dir);
    m.rocksdb = true;
    m.incremental = true;
    m.max_parallelism = cfg->max_parallelism;
    m.kg_first = 0;
    m.kg_last = cfg->max_parallelism - 1;
    m.operator_name = wstrdup(cfg->operator_name ? cfg->operator_name : "");
    m.shared_dir = shared_ref(dir, real_shared);
    for (int i = 0; i < wstate_count(b); i++) {
        WState *s = wstate_at(b, i);
        int64_t entries, bytes, expired;
        wrdb_stats(s->rdb, &entries, &bytes, &expired);
        wsnap_manifest_add_state(&m, wstate_name(s), wstate_kind(s), wstate_ttl(s), NULL);
        m.entries += entries;
    }
    st->entries = m.entries;
    bool ok = true;
    int nf;
    char **files = list_files(tmp, &nf);
    for (int i = 0; ok && i < nf; i++) {
        char *src = wsnap_join(tmp, files[i]);
        uint32_t crc = 0;
        int64_t size = 0;
        if (ends_with(files[i], ".sst")) {
            char shared_name[300];
            snprintf(shared_name, sizeof shared_name, "%016llx-%s", (unsigned long long)wrdb_uid(r), files[i]);
            int nup;
            WRdbUploaded *up = wrdb_uploaded(r, real_shared, &nup);
            int k;
            for (k = 0; k < nup; k++) if (strcmp(up[k].sst, files[i]) == 0) break;
            char *dst = wsnap_join(real_shared, shared_name);
            struct stat sb;
            if (k < nup && stat(dst, &sb) == 0 && sb.st_size == up[k].size) {
                crc = up[k].crc;
                size = up[k].size;
            } else {
                ok = wsnap_copy_file(src, dst, &crc, &size, err);
                if (ok) {
                    if (k == nup) wrdb_uploaded_add(r, files[i], shared_name, size, crc);
                    st->written_bytes += size;
                    st->files_written++;
                }
            }
            free(dst);
            if (ok) wsnap_manifest_add_file(&m, shared_name, true, size, crc);
        } else {
            char *dst = wsnap_join(dir, files[i]);
            ok = wsnap_copy_file(src, dst, &crc, &size, err);
            free(dst);
            if (ok) {
                wsnap_manifest_add_file(&m, files[i], false, size, crc);
                st->written_bytes += size;
                st->files_written++;
            }
        }
        if (ok) { st->state_bytes += size; st->files++; }
        free(src);
    }
    free_names(files, nf);
    wsnap_rmtree(tmp);
    free(tmp);
    if (ok) ok = wsnap_manifest_write(&m, err);
    wsnap_manifest_free(&m);
    return ok;
}

/* ---------------------------------------------------------------- restore */

struct WRdbReadonly {
    char *scratch;
    rocksdb_t *db;
    rocksdb_options_t **opts;
    rocksdb_column_family_handle_t **cf;
    int ncf;                        /* 1 + states */
    const WSnapManifest *m;
};

static const char *cf_name_of(const char *state) { return strcmp(state, "default") == 0 ? "_default" : state; }

WRdbReadonly *wrdb_readonly_open(const WSnapManifest *m, const char *tmp_root, WError *err)
{
    WRdbReadonly *h = wcalloc(1, sizeof *h);
    h->m = m;
    h->scratch = wsnap_join(tmp_root, "restore-XXXXXX");
    if (!mkdtemp(h->scratch)) {
        werr_set(err, WEXC_IO, "Cannot create a scratch directory under '%s': %s", tmp_root, strerror(errno));
        free(h->scratch);
        free(h);
        return NULL;
    }
    bool ok = true;
    for (int i = 0; ok && i < m->nfiles; i++) {
        char *src = wsnap_file_path(m, i);
        const char *nm = m->files[i].name;
        if (m->files[i].shared) {            /* "<uid>-<original name>" */
            const char *dash = strchr(nm, '-');
            nm = dash ? dash + 1 : nm;
        }
        char *dst = wsnap_join(h->scratch, nm);
        ok = wsnap_link_or_copy(src, dst, err);
        free(src);
        free(dst);
    }
    h->ncf = 1 + m->nstates;
    h->opts = wcalloc((size_t)h->ncf, sizeof(rocksdb_options_t *));
    h->cf = wcalloc((size_t)h->ncf, sizeof(rocksdb_column_family_handle_t *));
    const char **names = wcalloc((size_t)h->ncf, sizeof(char *));
    names[0] = "default";
    h->opts[0] = wrdb_readonly_cf_options(WSTATE_VALUE);
    for (int i = 0; i < m->nstates; i++) {
        names[i + 1] = cf_name_of(m->states[i].name);
        h->opts[i + 1] = wrdb_readonly_cf_options(m->states[i].kind);
    }
    if (ok) {
        char *e = NULL;
        h->db = rocksdb_open_for_read_only_column_families(h->opts[0], h->scratch, h->ncf, names,
                                                           (const rocksdb_options_t *const *)h->opts, h->cf, 0, &e);
        if (e || !h->db) {
            ok = werr_set(err, WEXC_IO, "Cannot open the RocksDB state snapshot '%s': %s", m->dir, e ? e : "unknown error");
            free(e);
            h->db = NULL;
        }
    }
    free(names);
    if (!ok) { wrdb_readonly_close(h); return NULL; }
    return h;
}

void wrdb_readonly_close(WRdbReadonly *h)
{
    if (!h) return;
    if (h->db) {
        for (int i = 0; i < h->ncf; i++) if (h->cf[i]) rocksdb_column_family_handle_destroy(h->cf[i]);
        rocksdb_close(h->db);
    }
    for (int i = 0; i < h->ncf; i++) if (h->opts[i]) rocksdb_options_destroy(h->opts[i]);
    free(h->opts);
    free(h->cf);
    wsnap_rmtree(h->scratch);
    free(h->scratch);
    free(h);
}

bool wrdb_readonly_apply(WRdbReadonly *h, WStateBackend *b, int kg_first, int kg_last, WError *err)
{
    const WSnapManifest *m = h->m;
    bool ok = true;
    for (int i = 0; ok && i < m->nstates; i++) {
        const WSnapStateDesc *d = &m->states[i];
        WState *s = wstate_restore_state(b, d->name, d->kind, d->ttl, err);
        if (!s) return false;
        rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
        rocksdb_readoptions_set_fill_cache(ro, 0);
        rocksdb_readoptions_set_total_order_seek(ro, 1);
        rocksdb_iterator_t *it = rocksdb_create_iterator_cf(h->db, ro, h->cf[i + 1]);
        unsigned char start[2];
        wbe_put16(start, (uint16_t)kg_first);
        for (rocksdb_iter_seek(it, (const char *)start, 2); rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
            size_t kl, vl;
            const unsigned char *k = (const unsigned char *)rocksdb_iter_key(it, &kl);
            const unsigned char *v = (const unsigned char *)rocksdb_iter_value(it, &vl);
            if (kl < 2) continue;
            if (wbe_get16(k) > kg_last) break;
            if (vl < 8) continue;
            if (s->ops->restore_raw) { s->ops->restore_raw(s, k, kl, v, vl); continue; }
            /* another backend: the entry decoded from RocksDB's layout */
            int kg = wbe_get16(k);
            int64_t ts = (int64_t)wbe_get64(v);
            if (d->kind == WSTATE_VALUE) {
                s->ops->restore_value(s, kg, k + 2, kl - 2, v + 8, vl - 8, ts);
            } else if (d->kind == WSTATE_MAP) {
                if (kl < 6) continue;
                size_t klen = wbe_get32(k + 2);
                if (klen > kl - 6) continue;
                s->ops->restore_map(s, kg, k + 6, klen, k + 6 + klen, kl - 6 - klen, v + 8, vl - 8, ts);
            } else {
                size_t off = 8;
                int n = 0;
                while (vl - off >= 4) {     /* the whole items of the body */
                    uint32_t l = wbe_get32(v + off);
                    if (l > vl - off - 4) break;
                    off += 4 + l;
                    n++;
                }
                if (n) s->ops->restore_list(s, kg, k + 2, kl - 2, v + 8, off - 8, n, ts);
            }
        }
        char *e = NULL;
        rocksdb_iter_get_error(it, &e);
        if (e) {
            ok = werr_set(err, WEXC_IO, "Cannot read the RocksDB state snapshot '%s': %s", m->dir, e);
            free(e);
        }
        rocksdb_iter_destroy(it);
        rocksdb_readoptions_destroy(ro);
    }
    return ok;
}
