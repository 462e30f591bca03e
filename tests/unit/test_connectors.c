/* test_connectors.c — unit tests for src/connectors: filesystem (csv, changelog-csv) source and
   sink, the CSV reader, datagen, print, blackhole, option validation messages. */
#include "unit.h"
#include "../../src/connectors/connector.h"
#include "../../src/connectors/csv_reader.h"
#include "../../src/types/format.h"
#include "../../src/types/datetime.h"
#include "../../src/common/arena.h"
#include "../../src/common/strbuf.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- helpers ---- */

typedef struct TDir { char path[64]; } TDir;

static void tdir_make(TDir *d)
{
    snprintf(d->path, sizeof d->path, "/tmp/weir-conn-XXXXXX");
    if (!mkdtemp(d->path)) d->path[0] = 0;
}

static void rm_rf(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *dd = opendir(path);
        struct dirent *e;
        while (dd && (e = readdir(dd)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char sub[512];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            rm_rf(sub);
        }
        if (dd) closedir(dd);
        rmdir(path);
    } else {
        unlink(path);
    }
}

static const char *tfile(TDir *d, const char *name, const char *content)
{
    static char buf[8][512];
    static int k;
    char *p = buf[k++ % 8];
    snprintf(p, 512, "%s/%s", d->path, name);
    FILE *f = fopen(p, "wb");
    if (f) { fputs(content, f); fclose(f); }
    return p;
}

typedef struct TSpec {
    WTableSpec spec;
    WOptions opts;
    WArena arena;
    const char *names[16];
    const WType *types[16];
    WCastCtx cast;
} TSpec;

/* cols: "a INT, b STRING" parsed from a tiny list of (name, type) pairs given as arrays */
static void tspec_init(TSpec *t, int n, const char **names, const WType **types)
{
    memset(t, 0, sizeof *t);
    warena_init(&t->arena, 0);
    wopts_init(&t->opts);
    for (int i = 0; i < n; i++) { t->names[i] = names[i]; t->types[i] = types[i]; }
    t->spec.name = "default_catalog.default_database.t";
    t->spec.short_name = "t";
    t->spec.ncols = n;
    t->spec.col_names = t->names;
    t->spec.col_types = t->types;
    t->spec.options = &t->opts;
    t->spec.cast = &t->cast;
    t->spec.subtask = 0;
    t->spec.parallelism = 1;
}

static void tspec_free(TSpec *t)
{
    wopts_free(&t->opts);
    warena_free(&t->arena);
}

static void render_chunk(const WChunk *c, WStrBuf *out)
{
    for (int r = 0; r < c->nrows; r++) {
        wsb_append(out, wrowkind_short((WRowKind)c->kinds[r]));
        wsb_putc(out, '[');
        for (int i = 0; i < c->ncols; i++) {
            if (i) wsb_append(out, ", ");
            wfmt_java(c->types[i], c->cols[i].data[r], c->cols[i].nulls[r] != 0, NULL, out);
        }
        wsb_append(out, "]\n");
    }
}

/* Read a whole source into text lines; NULL + err on failure. Caller frees. */
static char *read_all_cap(TSpec *t, int cap, WError *err, int64_t *skipped)
{
    const WConnector *c = wconnector_find(wopts_get(&t->opts, "connector"));
    if (!c) return NULL;
    WSource *s = c->open_source(&t->spec, err);
    if (!s) return NULL;
    WChunk *ch = wchunk_new(t->spec.ncols, t->spec.col_types, cap);
    WStrBuf out;
    wsb_init(&out);
    wsb_append(&out, "");
    bool ok = true;
    for (int guard = 0; guard < 1000000; guard++) {
        wchunk_reset(ch);
        WSourceStatus st = s->next(s, ch, err);
        if (st == WSRC_ERROR) { ok = false; break; }
        render_chunk(ch, &out);
        if (st == WSRC_END) break;
    }
    if (skipped) *skipped = s->rows_skipped;
    s->close(s);
    wchunk_free(ch);
    if (!ok) { wsb_free(&out); return NULL; }
    return wsb_detach(&out);
}

static char *read_all(TSpec *t, WError *err) { return read_all_cap(t, 3, err, NULL); }

static const char *N2[] = {"a", "b"};
static const char *N3[] __attribute__((unused)) = {"a", "b", "c"};

/* ---- filesystem / csv ---- */

WTEST(csv_basic_file_and_chunk_boundaries)
{
    TDir d;
    tdir_make(&d);
    const char *p = tfile(&d, "x.csv", "1,abc\n2,de\n3,\n4,x y\n5,last");
    const WType *ty[] = {&WTYPE_INT, &WTYPE_STRING};
    TSpec t;
    tspec_init(&t, 2, N2, ty);
    wopts_set(&t.opts, "connector", "filesystem");
    wopts_set(&t.opts, "path", p);
    wopts_set(&t.opts, "format", "csv");
    WError e;
    werr_clear(&e);
    char *got = read_all(&t, &e);
    CHECK_STR(got, "+I[1, abc]\n+I[2, de]\n+I[3, ]\n+I[4, x y]\n+I[5, last]\n");
    free(got);
    tspec_free(&t);
    rm_rf(d.path);
}

WTEST(csv_quotes_newlines_crlf_bom)
{
    TDir d;
    tdir_make(&d);
    const char *p = tfile(&d, "x.csv",
                          "\xEF\xBB\xBF" "1,\"a,b\"\r\n2,\"say \"\"hi\"\"\"\r\n3,\"two\nlines\"\r\n4,\"\"\r\n");
    const WType *ty[] = {&WTYPE_INT, &WTYPE_STRING};
    TSpec t;
    tspec_init(&t, 2, N2, ty);
    wopts_set(&t.opts, "connector", "filesystem");
    wopts_set(&t.opts, "path", p);
    wopts_set(&t.opts, "format", "csv");
    WError e;
    werr_clear(&e);
    char *got = read_all(&t, &e);
    CHECK_STR(got, "+I[1, a,b]\n+I[2, say \"hi\"]\n+I[3, two\nlines]\n+I[4, ]\n");
    free(got);
    tspec_free(&t);
    rm_rf(d.path);
}

WTEST(csv_malformed_row_reports_file_line_column)
{
    TDir d;
    tdir_make(&d);
    const char *p = tfile(&d, "orders.csv", "1,a\n2,b\nx3,c\n4,d\n");
    const WType *ty[] = {&WTYPE_INT, &WTYPE_STRING};
    TSpec t;
    tspec_init(&t, 2, N2, ty);
    wopts_set(&t.opts, "connector", "filesystem");
    wopts_set(&t.opts, "path", p);
    wopts_set(&t.opts, "format", "csv");
    WError e;
    werr_clear(&e);
    char *got = read_all(&t, &e);
    CHECK(got == NULL);
    char want[600];
    snprintf(want, sizeof want,
             "Failed to deserialize CSV row 'x3,c' at %s:3, column 1: For input string: \"x3\"", p);
    CHECK_STR(e.msg, want);
    CHECK_STR(e.file, p);
    CHECK_INT(e.file_line, 3);
    /* with ignore-parse-errors the bad field is NULL (Flink) */
    wopts_set(&t.opts, "csv.ignore-parse-errors", "true");
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK_STR(got, "+I[1, a]\n+I[2, b]\n+I[null, c]\n+I[4, d]\n");
    free(got);
    tspec_free(&t);
    rm_rf(d.path);
}
