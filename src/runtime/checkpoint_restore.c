/*
 * checkpoint_restore.c — reading a checkpoint back: the `_metadata` file (parsed when the
 * coordinator is made, so that a bad path fails the job at once), the lane files, and the restore
 * itself: every file checked (checksums, sizes, keyed-state manifests) and every operator with
 * state matched (exec node id, kind, output row type) before anything changes, then backends and
 * timers restored by key-group range, source positions, watermarks, and the sinks' pending files
 * published. See checkpoint.h.
 */
#include "checkpoint_internal.h"
#include "../state/timers.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void ckpt_meta_free(Meta *m)
{
    if (!m) return;
    for (int i = 0; i < m->nops; i++) { free(m->ops[i].kind); free(m->ops[i].sig); }
    for (int i = 0; i < m->nlanes; i++) free(m->lanes[i].file);
    for (int i = 0; i < m->nstates; i++) free(m->states[i].file);
    free(m->ops);
    free(m->lanes);
    free(m->states);
    free(m->dir);
    free(m->job_id);
    free(m);
}

/* One line of text (without the newline) from p..end; advances *p. */
static char *next_line(const char **p, const char *end)
{
    if (*p >= end) return NULL;
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    if (!nl) nl = end;
    char *s = strndup(*p, (size_t)(nl - *p));
    *p = nl < end ? nl + 1 : end;
    return s;
}

bool ckpt_meta_read(const char *dir, Meta **out, WError *err)
{
    *out = NULL;
    char *path = wsnap_join(dir, META_FILE);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        free(path);
        return werr_set(err, WEXC_IO,
                        "Cannot restore from '%s': it is not a checkpoint or savepoint directory (it does not exist).", dir);
    }
    if (stat(path, &st) != 0) {
        free(path);
        return werr_set(err, WEXC_IO,
                        "Cannot restore from '%s': it has no _metadata file (an incomplete checkpoint, or not a checkpoint or savepoint directory).",
                        dir);
    }
    WSnapIn in;
    bool ok = wsnap_in_open(&in, path, CKPT_META_MAGIC, CKPT_END_MAGIC, "Checkpoint metadata", err);
    free(path);
    if (!ok) return false;
    Meta *m = wcalloc(1, sizeof *m);
    m->dir = wstrdup(dir);
    const char *p = (const char *)in.p + 8, *end = (const char *)in.p + in.size;
    char *line;
    bool bad = false;
    int nline = 0;
    while (!bad && (line = next_line(&p, end)) != NULL) {
        char a[256], b[512];
        long long x, y, z;
        int i1, i2, i3;
        if (nline++ == 0) bad = strcmp(line, "weir-checkpoint 1") != 0;
        else if (sscanf(line, "job-parallelism %d", &i1) == 1) m->job_parallelism = i1;    /* before "job" */
        else if (sscanf(line, "job %255s", a) == 1) {
            /* a second job line is a damaged file (and would leak the first: found by
               tests/fuzz/fuzz_checkpoint.c) */
            if (m->job_id) bad = true;
            else m->job_id = wstrdup(a);
        }
        else if (sscanf(line, "checkpoint %lld", &x) == 1) m->id = x;
        else if (sscanf(line, "type %255s", a) == 1) m->savepoint = strcmp(a, "SAVEPOINT") == 0;
        else if (sscanf(line, "parallelism %d", &i1) == 1) m->parallelism = i1;
        else if (sscanf(line, "max-parallelism %d", &i1) == 1) m->max_parallelism = i1;
        else if (sscanf(line, "sim-now %lld", &x) == 1) m->sim_now = x;
        else if (strncmp(line, "operator ", 9) == 0) {
            int used = 0;
            if (sscanf(line, "operator %d %255s %n", &i1, a, &used) < 2 || used == 0) bad = true;
            else PUSH(m->ops, m->nops, ((MOp){i1, wstrdup(a), wstrdup(line + used)}));
        } else if (sscanf(line, "lane %d %511s %lld %lld", &i1, b, &x, &y) == 4) {
            PUSH(m->lanes, m->nlanes, ((MLane){i1, wstrdup(b), x, (uint32_t)y}));
        } else if (sscanf(line, "state %d %d %d %511s", &i1, &i2, &i3, b) == 4) {
            PUSH(m->states, m->nstates, ((MState){i1, i2, i3, false, wstrdup(b), 0, 0}));
        } else if (sscanf(line, "timers %d %d %d %511s %lld %lld", &i1, &i2, &i3, b, &x, &z) == 6) {
            PUSH(m->states, m->nstates, ((MState){i1, i2, i3, true, wstrdup(b), x, (uint32_t)z}));
        } else if (strncmp(line, "timestamp ", 10) != 0 && line[0]) {
            bad = true;
        }
        free(line);
    }
    wsnap_in_close(&in);
    if (bad || m->parallelism < 1 || m->max_parallelism < 1 || m->nlanes != m->parallelism) {
        ckpt_meta_free(m);
        return werr_set(err, WEXC_IO, "Checkpoint metadata file '%s/%s' is not valid.", dir, META_FILE);
    }
    *out = m;
    return true;
}

/* ------------------------------------------------------------------------------ helpers */

static Dist node_dist(const WRel *r)
{
    for (;;) {
        if (r->ninputs == 0) return DIST_FORWARD;
        const WRel *in = r->inputs[0];
        if (in->kind == WR_EXCHANGE) return wrel_exchange(in)->single || in->nkeys == 0 ? DIST_SINGLE : DIST_HASH;
        r = in;
    }
}

static void kg_range(int maxp, int p, int index, int *first, int *last)
{
    *first = (int)(((int64_t)index * maxp + p - 1) / p);
    *last = (int)((((int64_t)index + 1) * maxp - 1) / p);
}

/* "GroupAggregate[3]" */
static void op_label(char *buf, size_t n, const char *kind, int node) { snprintf(buf, n, "%s[%d]", kind, node); }

static const WRel *lane_rel(const WCkptLane *L, int node)
{
    for (int i = 0; i < L->nops; i++) if (L->rels[i]->id == node) return L->rels[i];
    return NULL;
}

/* ------------------------------------------------------------------------------ restore */

static void lane_file_free(LaneFile *f)
{
    for (int i = 0; i < f->nsrc; i++) free(f->srcs[i].pos);
    for (int i = 0; i < f->nops; i++) free(f->ops[i].wm);
    for (int i = 0; i < f->nrecv; i++) free(f->recv[i].wm);
    for (int i = 0; i < f->nsinks; i++) free(f->sinks[i].state);
    free(f->srcs);
    free(f->ops);
    free(f->recv);
    free(f->sinks);
}

static bool parse_wm_line(const char *line, LWm *w)
{
    int used = 0;
    if (sscanf(line, "%d %d%n", &w->node, &w->n, &used) != 2 || w->n < 0 || w->n > 100000) return false;
    w->wm = wcalloc((size_t)(w->n ? w->n : 1), sizeof(int64_t));
    const char *p = line + used;
    for (int i = 0; i < w->n; i++) {
        long long v;
        int u = 0;
        if (sscanf(p, " %lld%n", &v, &u) != 1) return false;
        w->wm[i] = v;
        p += u;
    }
    return true;
}

static bool lane_file_read(const char *path, LaneFile *f, WError *err)
{
    memset(f, 0, sizeof *f);
    WSnapIn in;
    if (!wsnap_in_open(&in, path, CKPT_LANE_MAGIC, CKPT_END_MAGIC, "Checkpoint", err)) return false;
    const char *p = (const char *)in.p + 8, *end = (const char *)in.p + in.size;
    bool bad = false;
    char *line;
    while (!bad && (line = next_line(&p, end)) != NULL) {
        if (!strncmp(line, "source ", 7)) {
            LSource s = {0};
            int used = 0;
            if (sscanf(line + 7, "%d %d %n", &s.node, &s.values_next, &used) != 2 || !used) bad = true;
            else {
                s.pos = strcmp(line + 7 + used, "-") ? wstrdup(line + 7 + used) : NULL;
                PUSH(f->srcs, f->nsrc, s);
            }
        } else if (!strncmp(line, "op ", 3) || !strncmp(line, "recv ", 5)) {
            bool op = line[0] == 'o';
            LWm w = {0};
            if (!parse_wm_line(line + (op ? 3 : 5), &w)) { free(w.wm); bad = true; }
            else if (op) PUSH(f->ops, f->nops, w);
            else PUSH(f->recv, f->nrecv, w);
        } else if (!strncmp(line, "sink ", 5)) {
            LSink k = {0};
            size_t n;
            if (sscanf(line + 5, "%d %zu", &k.node, &n) != 2 || n > (size_t)(end - p)) bad = true;
            else {
                k.state = strndup(p, n);
                p += n;
                if (p < end && *p == '\n') p++;
                PUSH(f->sinks, f->nsinks, k);
            }
        } else if (line[0]) {
            bad = true;
        }
        free(line);
    }
    wsnap_in_close(&in);
    if (bad) {
        lane_file_free(f);
        return werr_set(err, WEXC_IO, "Checkpoint file '%s' is not valid.", path);
    }
    return true;
}

/* CRC32C and size of a file, over all of it or (trailer) all but its last 8 bytes. */
static bool file_crc(const char *path, bool trailer, uint32_t *crc, int64_t *size, WError *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return werr_set(err, WEXC_IO, "Checkpoint file '%s' is missing or unreadable: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0) { fclose(f); return werr_set(err, WEXC_IO, "Cannot read '%s'", path); }
    *size = st.st_size;
    int64_t left = trailer ? st.st_size - 8 : st.st_size;
    uint32_t c = 0;
    unsigned char buf[65536];
    while (left > 0) {
        size_t want = left < (int64_t)sizeof buf ? (size_t)left : sizeof buf;
        size_t r = fread(buf, 1, want, f);
        if (r == 0) break;
        c = wsnap_crc32c(c, buf, r);
        left -= (int64_t)r;
    }
    fclose(f);
    *crc = c;
    return true;
}

/* Check a keyed-state snapshot directory completely (manifest and every file's size and
   checksum), so that a damaged one is refused before any state is restored. */
static bool verify_state_dir(const char *dir, WError *err)
{
    WSnapManifest m;
    if (!wsnap_manifest_read(dir, &m, err)) return false;
    bool ok = true;
    for (int i = 0; ok && i < m.nfiles; i++) {
        char *p = wsnap_file_path(&m, i);
        uint32_t crc = 0;
        int64_t size = 0;
        ok = file_crc(p, !m.incremental && !m.files[i].shared, &crc, &size, err);
        if (ok && size != m.files[i].size)
            ok = werr_set(err, WEXC_IO, "Checkpoint file '%s' is truncated or corrupted (%lld bytes, expected %lld).", p,
                          (long long)size, (long long)m.files[i].size);
        else if (ok && crc != m.files[i].crc)
            ok = werr_set(err, WEXC_IO, "Checkpoint file '%s' is corrupted: checksum mismatch (stored %08x, computed %08x).",
                          p, m.files[i].crc, crc);
        free(p);
    }
    wsnap_manifest_free(&m);
    return ok;
}

static const MOp *meta_op(const Meta *m, int node)
{
    for (int i = 0; i < m->nops; i++) if (m->ops[i].node == node) return &m->ops[i];
    return NULL;
}

/* Old subtasks lane `l` (of n) restores a node's state from; full = no key-group filter. */
static int old_subtasks(const Meta *m, Dist d, int l, int n, int *out, bool *full)
{
    int k = 0;
    *full = true;
    if (m->parallelism == n) { out[k++] = l; return k; }
    for (int s = 0; s < m->parallelism; s++) {
        if (d == DIST_HASH) { out[k++] = s; *full = false; }
        else if (d == DIST_SINGLE) { if (l == 0) out[k++] = s; }
        else if (s % n == l) out[k++] = s;
    }
    return k;
}

static bool mismatch(WCkpt *c, const char *label, const char *why, WError *err)
{
    return werr_set(err, "java.lang.IllegalStateException",
                    "Failed to rollback to checkpoint/savepoint %s. Cannot map checkpoint/savepoint state for operator "
                    "%s to the new program, because the operator %s. If you want to allow to skip this, you can set "
                    "'execution.savepoint.ignore-unclaimed-state' = 'true'.",
                    c->restore_path, label, why);
}

/* Every node with state in the checkpoint must exist in the new job with the same kind and row
   type. Returns false with Flink's message naming the first that does not. */
static bool match_operators(WCkpt *c, const WCkptLane *L0, LaneFile *files, WError *err)
{
    const Meta *m = c->restore;
    int cap = m->nstates + m->parallelism * 8 + 8;
    int *nodes = wcalloc((size_t)cap, sizeof(int));
    int nn = 0;
    for (int i = 0; i < m->nstates; i++) nodes[nn++] = m->states[i].node;
    for (int s = 0; s < m->parallelism; s++) {
        for (int i = 0; i < files[s].nsrc && nn < cap; i++) if (files[s].srcs[i].pos || files[s].srcs[i].values_next) nodes[nn++] = files[s].srcs[i].node;
        for (int i = 0; i < files[s].nsinks && nn < cap; i++) if (files[s].sinks[i].state && files[s].sinks[i].state[0]) nodes[nn++] = files[s].sinks[i].node;
    }
    bool ok = true;
    for (int i = 0; ok && i < nn; i++) {
        const MOp *o = meta_op(m, nodes[i]);
        char label[160];
        op_label(label, sizeof label, o ? o->kind : "operator", nodes[i]);
        const WRel *r = lane_rel(L0, nodes[i]);
        if (c->ignore_unclaimed && (!r || !o || strcmp(o->kind, wrel_kind_name(r->kind)))) continue;
        if (!o || !r) { ok = mismatch(c, label, "is not available in the new program", err); break; }
        if (strcmp(o->kind, wrel_kind_name(r->kind)) != 0) {
            char why[300];
            snprintf(why, sizeof why, "is not available in the new program (node %d is now %s[%d])", r->id,
                     wrel_kind_name(r->kind), r->id);
            ok = mismatch(c, label, why, err);
            break;
        }
        char *sig = ckpt_node_sig(r);
        if (strcmp(sig, o->sig) != 0 && !c->ignore_unclaimed) {
            char why[1200];
            snprintf(why, sizeof why, "has changed in the new program (it produced %s, now %s)", o->sig, sig);
            ok = mismatch(c, label, why, err);
        }
        free(sig);
    }
    free(nodes);
    return ok;
}

static const LWm *find_wm(const LWm *a, int n, int node)
{
    for (int i = 0; i < n; i++) if (a[i].node == node) return &a[i];
    return NULL;
}

bool wckpt_restore(WCkpt *c, WCkptLane *lanes, int nlanes, int64_t *sim_now, WError *err)
{
    if (sim_now) *sim_now = 0;
    if (!c || !c->restore) return true;
    assert(nlanes >= 0 && nlanes <= c->parallelism && (lanes || nlanes == 0));
    Meta *m = c->restore;
    const char *dir = m->dir;
    LaneFile *files = wcalloc((size_t)m->parallelism, sizeof(LaneFile));
    bool ok = true;
    /* 1. check every file before anything changes */
    for (int s = 0; ok && s < m->parallelism; s++) {
        const MLane *ml = NULL;
        for (int i = 0; i < m->nlanes; i++) if (m->lanes[i].sub == s) ml = &m->lanes[i];
        if (!ml) { ok = werr_set(err, WEXC_IO, "Checkpoint metadata file '%s/_metadata' is not valid (no subtask %d).", dir, s); break; }
        char *p = wsnap_join(dir, ml->file);
        ok = lane_file_read(p, &files[s], err);
        free(p);
    }
    for (int i = 0; ok && i < m->nstates; i++) {
        MState *st = &m->states[i];
        char *p = wsnap_join(dir, st->file);
        if (st->timers) {
            uint32_t crc = 0;
            int64_t size = 0;
            ok = wsnap_file_crc(p, &crc, &size, err);
            if (ok && (size != st->size || crc != st->crc))
                ok = werr_set(err, WEXC_IO, "Checkpoint file '%s' is %s (expected %lld bytes, CRC32C %08x; found %lld bytes, %08x).",
                              p, size != st->size ? "truncated or extended" : "corrupted", (long long)st->size, st->crc,
                              (long long)size, crc);
        } else {
            ok = verify_state_dir(p, err);
        }
        free(p);
    }
    if (ok) ok = match_operators(c, &lanes[0], files, err);
    /* A sink or a source of its own parallelism gives a job lanes beyond its parallelism.default
       or fewer source subtasks than lanes (runtime/job.c: runtime_parallelism). Lanes map one to
       one when both runs have the same lanes, source subtasks and job parallelism; key groups and
       source positions redistribute only between runs whose lanes are all source subtasks at the
       job's parallelism — anything else is refused rather than restored wrongly. */
    if (ok) {
        int old_par = 0, new_par = 0;
        for (int s = 0; s < m->parallelism; s++) if (files[s].nsrc > 0) old_par = s + 1;
        for (int l = 0; l < nlanes; l++) if (lanes[l].nsrc > 0) new_par = l + 1;
        int old_jp = m->job_parallelism > 0 ? m->job_parallelism : m->parallelism;
        int new_jp = c->job_parallelism > 0 ? c->job_parallelism : nlanes;
        bool same = m->parallelism == nlanes && old_par == new_par && old_jp == new_jp;
        bool plain = old_par == m->parallelism && new_par == nlanes && old_jp == m->parallelism && new_jp == nlanes;
        if (!same && !plain)
            ok = werr_set(err, "java.lang.IllegalStateException",
                          "Failed to rollback to checkpoint/savepoint %s. The checkpoint was taken at parallelism %d "
                          "with %d source subtasks in %d lanes and the job now runs at parallelism %d with %d source "
                          "subtasks in %d lanes: weir does not restore a job whose source or sink runs at its own "
                          "parallelism ('scan.parallelism' or 'sink.parallelism') at another parallelism yet.",
                          c->restore_path, old_jp, old_par, m->parallelism, new_jp, new_par, nlanes);
    }
    /* sources that cannot take another parallelism */
    if (ok && m->parallelism != nlanes) {
        for (int i = 0; ok && i < lanes[0].nsrc; i++) {
            WCkptSource *src = &lanes[0].srcs[i];
            if (!src->src || src->src->seek_rescaled) continue;
            bool any = false;
            for (int s = 0; s < m->parallelism; s++)
                for (int q = 0; q < files[s].nsrc; q++) if (files[s].srcs[q].node == src->rel->id && files[s].srcs[q].pos) any = true;
            if (any)
                ok = werr_set(err, "java.lang.IllegalStateException",
                              "Failed to rollback to checkpoint/savepoint %s. The source %s[%d] (%s) cannot be restored at "
                              "parallelism %d: the checkpoint was taken at parallelism %d.",
                              c->restore_path, wrel_kind_name(src->rel->kind), src->rel->id,
                              src->rel->kind == WR_SCAN && wrel_scan(src->rel)->table_qname
                                  ? wrel_scan(src->rel)->table_qname : "?", nlanes, m->parallelism);
        }
    }
    /* 2. keyed state and timers */
    int *subs = wcalloc((size_t)m->parallelism + 1, sizeof(int));
    const char **paths = wcalloc((size_t)m->parallelism + 1, sizeof(char *));
    char **owned = wcalloc((size_t)m->parallelism + 1, sizeof(char *));
    for (int l = 0; ok && l < nlanes; l++) {
        WCkptLane *L = &lanes[l];
        WExecRegistry *reg = L->registry;
        for (int i = 0; ok && reg && i < reg->n; i++) {
            WExecStateEntry *e = &reg->items[i];
            if (e->node_id < 0) continue;
            int k = 0;
            for (int q = 0; q < i; q++) if (reg->items[q].node_id == e->node_id && !reg->items[q].timers == !e->timers) k++;
            const WRel *r = lane_rel(L, e->node_id);
            bool full;
            int ns = old_subtasks(m, r ? node_dist(r) : DIST_FORWARD, l, nlanes, subs, &full);
            int np = 0;
            for (int j = 0; j < ns; j++)
                for (int q = 0; q < m->nstates; q++) {
                    MState *st = &m->states[q];
                    if (st->node == e->node_id && st->k == k && st->sub == subs[j] && st->timers == (e->timers != NULL)) {
                        owned[np] = wsnap_join(dir, st->file);
                        paths[np] = owned[np];
                        np++;
                    }
                }
            int kgf = 0, kgl = m->max_parallelism - 1;
            if (!full) kg_range(m->max_parallelism, nlanes, l, &kgf, &kgl);
            if (np > 0) {
                if (e->backend) ok = wstate_restore(e->backend, paths, np, kgf, kgl, err);
                else ok = wtimers_restore(e->timers, paths, np, m->max_parallelism, kgf, kgl, err);
            }
            for (int j = 0; j < np; j++) free(owned[j]);
        }
    }
    /* 3. sources */
    const char **pos = wcalloc((size_t)m->parallelism + 1, sizeof(char *));
    for (int l = 0; ok && l < nlanes; l++) {
        WCkptLane *L = &lanes[l];
        for (int i = 0; ok && i < L->nsrc; i++) {
            WCkptSource *src = &L->srcs[i];
            int node = src->rel->id;
            for (int s = 0; s < m->parallelism; s++) {
                pos[s] = NULL;
                for (int q = 0; q < files[s].nsrc; q++) if (files[s].srcs[q].node == node) {
                    pos[s] = files[s].srcs[q].pos;
                    if (src->values_next && (m->parallelism == nlanes ? s == l : l == 0 && s == 0))
                        *src->values_next = files[s].srcs[q].values_next;
                }
            }
            if (!src->src) continue;
            if (m->parallelism == nlanes) {
                if (pos[l] && src->src->seek) ok = src->src->seek(src->src, pos[l], err);
            } else if (src->src->seek_rescaled) {
                ok = src->src->seek_rescaled(src->src, pos, m->parallelism, err);
            }
        }
    }
    free(pos);
    /* 4. watermarks: the same subtask's, or the minimum over the old subtasks when rescaled */
    for (int l = 0; ok && l < nlanes; l++) {
        WCkptLane *L = &lanes[l];
        for (int i = 0; i < L->nrecv; i++) {
            WCkptRecv *r = &L->recv[i];
            if (m->parallelism == nlanes) {
                const LWm *w = find_wm(files[l].recv, files[l].nrecv, r->rel->id);
                if (w && w->n == r->nfrom) for (int q = 0; q < r->nfrom; q++) r->wm[q] = w->wm[q];
                continue;
            }
            int64_t mn = WWM_MAX;
            bool any = false;
            for (int s = 0; s < m->parallelism; s++) {
                const LWm *w = find_wm(files[s].recv, files[s].nrecv, r->rel->id);
                for (int q = 0; w && q < w->n; q++) { if (w->wm[q] < mn) mn = w->wm[q]; any = true; }
            }
            if (any) for (int q = 0; q < r->nfrom; q++) r->wm[q] = mn;
        }
        for (int i = 0; i < L->nops; i++) {
            WOperator *op = L->ops[i];
            for (int q = 0; q < op->ninputs; q++) {
                int64_t mn = WWM_MAX;
                bool any = false;
                for (int s = 0; s < m->parallelism; s++) {
                    if (m->parallelism == nlanes && s != l) continue;
                    const LWm *w = find_wm(files[s].ops, files[s].nops, L->rels[i]->id);
                    int64_t v = w && q < w->n ? w->wm[q] : WWM_MIN;
                    if (v < mn) mn = v;
                    any = true;
                }
                if (any && mn > WWM_MIN) wop_input_watermark(op, q, mn);
            }
        }
    }
    /* 5. sinks publish what the checkpoint covered (last: nothing above may fail after this) */
    for (int l = 0; ok && l < nlanes; l++) {
        WCkptLane *L = &lanes[l];
        for (int i = 0; ok && i < L->nsinks; i++) {
            WSink *sk = L->sinks[i];
            for (int s = 0; ok && s < m->parallelism; s++) {
                if (m->parallelism == nlanes ? s != l : s % nlanes != l) continue;
                for (int q = 0; ok && q < files[s].nsinks; q++) {
                    if (files[s].sinks[q].node != L->sink_rels[i]->id) continue;
                    if (!sk->recover) continue;
                    ok = sk->recover(sk, files[s].sinks[q].state, err);
                }
            }
        }
    }
    if (ok && sim_now) *sim_now = m->sim_now;
    free(subs);
    free(paths);
    free(owned);
    for (int s = 0; s < m->parallelism; s++) lane_file_free(&files[s]);
    free(files);
    return ok;
}
