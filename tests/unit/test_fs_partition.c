/* test_fs_partition.c — unit tests for the partitioned filesystem sink and source
   (src/connectors/fs_writer.c, fs_sink.c, fs_source.c): partition directories, exactly-once rolling per partition,
   more partitions than open files, partition values read back from the path. */
#include "unit.h"
#include "../../src/connectors/connector.h"
#include "../../src/types/format.h"
#include "../../src/common/arena.h"
#include "../../src/common/strbuf.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void fsp_rm_rf(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *dd = opendir(path);
        struct dirent *e;
        while (dd && (e = readdir(dd)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char sub[1024];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            fsp_rm_rf(sub);
        }
        if (dd) closedir(dd);
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* Count files under dir: published (no leading '.') and hidden in-progress ones. */
static void fsp_count(const char *dir, int *published, int *hidden)
{
    DIR *dd = opendir(dir);
    struct dirent *e;
    while (dd && (e = readdir(dd)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char sub[1024];
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(sub, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) fsp_count(sub, published, hidden);
        else if (e->d_name[0] == '.') (*hidden)++;
        else (*published)++;
    }
    if (dd) closedir(dd);
}

typedef struct FspTable {
    WTableSpec spec;
    WOptions opts;
    WCastCtx cast;
    int part[2];
} FspTable;

static const char *FSP_NAMES[] = {"id", "k", "v"};
static const WType *FSP_TYPES[3];

/* (id INT, k INT, v STRING) PARTITIONED BY (k) at path */
static void fsp_init(FspTable *t, const char *path)
{
    memset(t, 0, sizeof *t);
    FSP_TYPES[0] = &WTYPE_INT;
    FSP_TYPES[1] = &WTYPE_INT;
    FSP_TYPES[2] = &WTYPE_STRING;
    wopts_init(&t->opts);
    wopts_set(&t->opts, "connector", "filesystem");
    wopts_set(&t->opts, "path", path);
    wopts_set(&t->opts, "format", "csv");
    t->spec.name = "default_catalog.default_database.t";
    t->spec.short_name = "t";
    t->spec.ncols = 3;
    t->spec.col_names = FSP_NAMES;
    t->spec.col_types = FSP_TYPES;
    t->spec.options = &t->opts;
    t->spec.cast = &t->cast;
    t->spec.parallelism = 1;
    t->part[0] = 1;
    t->spec.npartition = 1;
    t->spec.partition = t->part;
}

static void fsp_rows(WChunk *c, int from, int n, int nkeys)
{
    wchunk_reset(c);
    for (int i = from; i < from + n; i++) {
        int r = wchunk_add_row(c, WRK_INSERT);
        c->cols[0].data[r].i = i;
        c->cols[1].data[r].i = i % nkeys;
        c->cols[2].data[r].s.p = "x";
        c->cols[2].data[r].s.len = 1;
    }
}

/* The whole table read through the source with chunks of cap rows, one line per row. */
static char *fsp_read(FspTable *t, int cap, WError *err)
{
    WSource *s = wconnector_find("filesystem")->open_source(&t->spec, err);
    if (!s) return NULL;
    WChunk *ch = wchunk_new(3, FSP_TYPES, cap);
    WStrBuf out;
    wsb_init(&out);
    wsb_append(&out, "");
    bool ok = true;
    for (;;) {
        wchunk_reset(ch);
        WSourceStatus st = s->next(s, ch, err);
        if (st == WSRC_ERROR) { ok = false; break; }
        for (int r = 0; r < ch->nrows; r++) {
            for (int i = 0; i < 3; i++) {
                if (i) wsb_putc(&out, ',');
                wfmt_sql(ch->types[i], ch->cols[i].data[r], ch->cols[i].nulls[r] != 0, NULL, &out);
            }
            wsb_putc(&out, '\n');
        }
        if (st == WSRC_END) break;
    }
    s->close(s);
    wchunk_free(ch);
    if (!ok) { wsb_free(&out); return NULL; }
    return wsb_detach(&out);
}

WTEST(fs_partition_exactly_once_per_partition)
{
    char dir[64] = "/tmp/weir-fsp-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/t", dir);
    FspTable t;
    fsp_init(&t, path);
    WError e;
    werr_clear(&e);
    WSink *s = wconnector_find("filesystem")->open_sink(&t.spec, &e);
    CHECK(s != NULL);
    s->transactional = true;
    WChunk *c = wchunk_new(3, FSP_TYPES, 16);
    fsp_rows(c, 0, 4, 2);                       /* k=0: 0,2  k=1: 1,3 */
    CHECK(s->write(s, c, &e));
    char *state = NULL;
    CHECK(s->prepare_commit(s, 1, &state, &e));
    int pub = 0, hid = 0;
    fsp_count(path, &pub, &hid);
    CHECK_INT(pub, 0);
    CHECK_INT(hid, 2);                          /* one closed part file per partition */
    CHECK(state && strstr(state, "/t/k=0/.part-") && strstr(state, "/t/k=1/.part-"));
    free(state);
    fsp_rows(c, 4, 2, 2);                       /* after the checkpoint: new part files */
    CHECK(s->write(s, c, &e));
    CHECK(s->commit(s, 1, &e));
    pub = hid = 0;
    fsp_count(path, &pub, &hid);
    CHECK_INT(pub, 2);
    CHECK_INT(hid, 2);
    CHECK(s->finish(s, &e));
    CHECK(s->prepare_commit(s, 2, &state, &e));
    free(state);
    CHECK(s->commit(s, 2, &e));
    s->close(s);
    pub = hid = 0;
    fsp_count(path, &pub, &hid);
    CHECK_INT(pub, 4);
    CHECK_INT(hid, 0);
    /* read back (chunks of 2 rows): files hold id and v; k comes from the directory */
    char *got = fsp_read(&t, 2, &e);
    CHECK_STR(got, "0,0,x\n2,0,x\n4,0,x\n1,1,x\n3,1,x\n5,1,x\n");
    free(got);
    wchunk_free(c);
    wopts_free(&t.opts);
    fsp_rm_rf(dir);
}

WTEST(fs_partition_many_partitions_and_bad_values)
{
    char dir[64] = "/tmp/weir-fsp-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/t", dir);
    FspTable t;
    fsp_init(&t, path);
    WError e;
    werr_clear(&e);
    WSink *s = wconnector_find("filesystem")->open_sink(&t.spec, &e);
    CHECK(s != NULL);
    WChunk *c = wchunk_new(3, FSP_TYPES, 200);
    fsp_rows(c, 0, 200, 100);                   /* 100 partitions, more than the open-file limit */
    CHECK(s->write(s, c, &e));
    CHECK(s->finish(s, &e));
    CHECK_INT(s->rows_written, 200);
    s->close(s);
    int pub = 0, hid = 0;
    fsp_count(path, &pub, &hid);
    CHECK(pub >= 100);
    CHECK_INT(hid, 0);
    char *got = fsp_read(&t, 7, &e);
    CHECK(got != NULL);
    int lines = 0;
    for (const char *p = got; p && *p; p++) lines += *p == '\n';
    CHECK_INT(lines, 200);
    free(got);
    /* a directory value that is not an INT */
    char bad[256];
    snprintf(bad, sizeof bad, "%s/k=abc", path);
    CHECK(mkdir(bad, 0777) == 0);
    snprintf(bad, sizeof bad, "%s/k=abc/part-1", path);
    FILE *f = fopen(bad, "w");
    CHECK(f != NULL);
    if (f) { fputs("1,y\n", f); fclose(f); }
    werr_clear(&e);
    got = fsp_read(&t, 7, &e);
    CHECK(got == NULL);
    CHECK_STR(e.msg, "For input string: 'abc'. Invalid character found.");
    wchunk_free(c);
    wopts_free(&t.opts);
    fsp_rm_rf(dir);
}
