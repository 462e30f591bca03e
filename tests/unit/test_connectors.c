/* test_connectors.c — unit tests for src/connectors: filesystem (csv, changelog-csv, debezium-json) source and
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

/* Integer fields: every digit count 1-18 read in one pass, 19 digits and more, signs, leading
   zeros, the type's range, a field ending the buffer and CR LF through the general converter; the
   values as the general converter reads them (ignore-parse-errors: a bad field is NULL) */
WTEST(csv_integer_fields)
{
    TDir d;
    tdir_make(&d);
    WStrBuf in, want;
    wsb_init(&in);
    wsb_init(&want);
    int64_t v = 0;
    for (int nd = 1; nd <= 18; nd++) {
        v = v * 10 + nd % 10;
        wsb_printf(&in, "%lld,%d\n-%lld,-%d\n", (long long)v, nd, (long long)v, nd);
        wsb_printf(&want, "+I[%lld, %d]\n+I[-%lld, -%d]\n", (long long)v, nd, (long long)v, nd);
    }
    wsb_append(&in, "1234567890123456789,2147483647\r\n-9223372036854775808,-2147483648\n"
                    "00000000000000000042,2147483648\n+7,-0\n12a,--1\n-,1.5\n9,77");
    wsb_append(&want, "+I[1234567890123456789, 2147483647]\n+I[-9223372036854775808, -2147483648]\n"
                      "+I[42, null]\n+I[7, 0]\n+I[null, null]\n+I[null, null]\n+I[9, 77]\n");
    const char *p = tfile(&d, "ints.csv", in.buf);
    const WType *ty[] = {&WTYPE_BIGINT, &WTYPE_INT};
    TSpec t;
    tspec_init(&t, 2, N2, ty);
    wopts_set(&t.opts, "connector", "filesystem");
    wopts_set(&t.opts, "path", p);
    wopts_set(&t.opts, "format", "csv");
    wopts_set(&t.opts, "csv.ignore-parse-errors", "true");
    WError e;
    werr_clear(&e);
    char *got = read_all(&t, &e);
    CHECK_STR(got, want.buf);
    free(got);
    tspec_free(&t);
    wsb_free(&in);
    wsb_free(&want);
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

static const char *fs_spec(TSpec *t, TDir *d, const char *content, int n, const char **names,
                           const WType **types, const char *format);

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
    /* with ignore-parse-errors the field that fails to convert is NULL and the row stays (measured
       on Flink 2.3) */
    wopts_set(&t.opts, "csv.ignore-parse-errors", "true");
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK_STR(got, "+I[1, a]\n+I[2, b]\n+I[null, c]\n+I[4, d]\n");
    free(got);
    tspec_free(&t);
    /* integer columns only (whole lines read in one loop, int_rows): the line of a bad row after
       many good ones, in chunks of 3 */
    WStrBuf in;
    wsb_init(&in);
    for (int i = 1; i <= 1000; i++) wsb_printf(&in, "%d,%d\n", i, -i);
    wsb_append(&in, "7,x\n8,8\n");
    const WType *ity[] = {&WTYPE_BIGINT, &WTYPE_SMALLINT};
    p = fs_spec(&t, &d, in.buf, 2, N2, ity, NULL);
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK(got == NULL);
    snprintf(want, sizeof want, "Failed to deserialize CSV row '7,x' at %s:1001, column 2: For input string: \"x\"", p);
    CHECK_STR(e.msg, want);
    CHECK_INT(e.file_line, 1001);
    tspec_free(&t);
    wsb_free(&in);
    rm_rf(d.path);
}

/* Build a filesystem csv spec over one file with the given content. */
static const char *fs_spec(TSpec *t, TDir *d, const char *content, int n, const char **names,
                           const WType **types, const char *format)
{
    tspec_init(t, n, names, types);
    const char *p = tfile(d, "data.csv", content);
    wopts_set(&t->opts, "connector", "filesystem");
    wopts_set(&t->opts, "path", p);
    wopts_set(&t->opts, "format", format ? format : "csv");
    return p;
}

WTEST(csv_field_delimiter_tab_and_pipe)
{
    TDir d;
    tdir_make(&d);
    const WType *ty[] = {&WTYPE_INT, &WTYPE_STRING};
    TSpec t;
    fs_spec(&t, &d, "1\tx,y\n2\tz\n", 2, N2, ty, NULL);
    wopts_set(&t.opts, "csv.field-delimiter", "\\t");
    WError e;
    werr_clear(&e);
    char *got = read_all(&t, &e);
    CHECK_STR(got, "+I[1, x,y]\n+I[2, z]\n");
    free(got);
    tspec_free(&t);
    fs_spec(&t, &d, "1|a\n2|b\n", 2, N2, ty, NULL);
    wopts_set(&t.opts, "csv.field-delimiter", "|");
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK_STR(got, "+I[1, a]\n+I[2, b]\n");
    free(got);
    tspec_free(&t);
    rm_rf(d.path);
}

WTEST(csv_quote_options_comments_null_literal_escape)
{
    TDir d;
    tdir_make(&d);
    const WType *ty[] = {&WTYPE_INT, &WTYPE_STRING};
    TSpec t;
    WError e;
    char *got;
    /* custom quote character */
    fs_spec(&t, &d, "1,'a,b'\n2,'it''s'\n", 2, N2, ty, NULL);
    wopts_set(&t.opts, "csv.quote-character", "'");
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK_STR(got, "+I[1, a,b]\n+I[2, it's]\n");
    free(got);
    tspec_free(&t);
    /* quoting disabled: quotes are data */
    fs_spec(&t, &d, "1,\"a\"\n", 2, N2, ty, NULL);
    wopts_set(&t.opts, "csv.disable-quote-character", "true");
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK_STR(got, "+I[1, \"a\"]\n");
    free(got);
    tspec_free(&t);
    /* comments */
    fs_spec(&t, &d, "# header\n1,a\n#2,b\n3,c\n", 2, N2, ty, NULL);
    wopts_set(&t.opts, "csv.allow-comments", "true");
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK_STR(got, "+I[1, a]\n+I[3, c]\n");
    free(got);
    tspec_free(&t);
    /* without allow-comments '#' is data */
    fs_spec(&t, &d, "1,#a\n", 2, N2, ty, NULL);
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK_STR(got, "+I[1, #a]\n");
    free(got);
    tspec_free(&t);
    /* null literal, for numbers and strings, quoted too (Jackson) */
    fs_spec(&t, &d, "n/a,x\n2,n/a\n3,\"n/a\"\n", 2, N2, ty, NULL);
    wopts_set(&t.opts, "csv.null-literal", "n/a");
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK_STR(got, "+I[null, x]\n+I[2, null]\n+I[3, null]\n");
    free(got);
    tspec_free(&t);
    /* escape character in unquoted and quoted values */
    fs_spec(&t, &d, "1,a*,b\n2,\"q*\"x\"\n3,t*tab\n", 2, N2, ty, NULL);
    wopts_set(&t.opts, "csv.escape-character", "*");
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK_STR(got, "+I[1, a,b]\n+I[2, q\"x]\n+I[3, t\tab]\n");
    free(got);
    tspec_free(&t);
    rm_rf(d.path);
}

WTEST(csv_empty_fields_and_string_values)
{
    TDir d;
    tdir_make(&d);
    const WType *ty[] = {&WTYPE_INT, &WTYPE_STRING, &WTYPE_DOUBLE};
    TSpec t;
    /* Flink's csv has no implicit NULL: an empty INT field fails the row (Integer.parseInt("")) */
    fs_spec(&t, &d, ",,\n1, padded ,\n\n2,\"\",3\n", 3, N3, ty, NULL);
    WError e;
    werr_clear(&e);
    char *got = read_all(&t, &e);
    CHECK(got == NULL);
    CHECK(strstr(e.msg, ":1, column 1: For input string: \"\"") != NULL);
    free(got);
    tspec_free(&t);
    /* an empty DOUBLE: Double.parseDouble's "empty String"; an empty STRING is the empty string */
    fs_spec(&t, &d, "1,,\n", 3, N3, ty, NULL);
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK(got == NULL);
    CHECK(strstr(e.msg, "column 3: empty String") != NULL);
    free(got);
    tspec_free(&t);
    /* with csv.null-literal = '' empty fields (quoted too) are NULL */
    fs_spec(&t, &d, ",,\n1, padded ,\n\n2,\"\",3\n", 3, N3, ty, NULL);
    wopts_set(&t.opts, "csv.null-literal", "");
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK_STR(got, "+I[null, null, null]\n+I[1,  padded , null]\n+I[2, null, 3.0]\n");
    free(got);
    tspec_free(&t);
    rm_rf(d.path);
}

static char *read_one_col(const WType *ty, const char *content, const char *opt_k, const char *opt_v, WError *e)
{
    TDir d;
    tdir_make(&d);
    const char *names[] = {"v"};
    const WType *tys[] = {ty};
    TSpec t;
    fs_spec(&t, &d, content, 1, names, tys, NULL);
    if (opt_k) wopts_set(&t.opts, opt_k, opt_v);
    werr_clear(e);
    char *got = read_all(&t, e);
    tspec_free(&t);
    rm_rf(d.path);
    return got;
}

#define CHECK_COL(ty, content, want)                                   \
    do {                                                               \
        WError e_;                                                     \
        char *r_ = read_one_col((ty), (content), NULL, NULL, &e_);     \
        CHECK_STR(r_ ? r_ : e_.msg, (want));                           \
        free(r_);                                                      \
    } while (0)

WTEST(csv_type_parsing_numbers)
{
    CHECK_COL(&WTYPE_INT, "42\n-7\n+5\n 12 \n2147483647\n", "+I[42]\n+I[-7]\n+I[5]\n+I[12]\n+I[2147483647]\n");
    CHECK_COL(&WTYPE_BIGINT, "9223372036854775807\n-9223372036854775808\n",
              "+I[9223372036854775807]\n+I[-9223372036854775808]\n");
    CHECK_COL(&WTYPE_TINYINT, "127\n-128\n", "+I[127]\n+I[-128]\n");
    CHECK_COL(&WTYPE_DOUBLE, "1.5\n-0.25\n1e3\n 2.5 \nNaN\n-Infinity\n1.5d\n.5\n12345678901234567890.5\n",
              "+I[1.5]\n+I[-0.25]\n+I[1000.0]\n+I[2.5]\n+I[NaN]\n+I[-Infinity]\n+I[1.5]\n+I[0.5]\n+I[1.2345678901234567E19]\n");
    CHECK_COL(&WTYPE_FLOAT, "0.1\n3\n", "+I[0.1]\n+I[3.0]\n");
    CHECK_COL(&WTYPE_BOOLEAN, "true\nTRUE\n false \nyes\n", "+I[true]\n+I[true]\n+I[false]\n+I[false]\n");
}

WTEST(csv_type_parsing_errors)
{
    WError e;
    char *g = read_one_col(&WTYPE_INT, "2147483648\n", NULL, NULL, &e);
    CHECK(g == NULL);
    CHECK(strstr(e.msg, "column 1: For input string: \"2147483648\"") != NULL);
    g = read_one_col(&WTYPE_TINYINT, "300\n", NULL, NULL, &e);
    CHECK(g == NULL);
    CHECK(strstr(e.msg, "Value out of range. Value:\"300\" Radix:10") != NULL);
    g = read_one_col(&WTYPE_DOUBLE, "1.2.3\n", NULL, NULL, &e);
    CHECK(g == NULL);
    CHECK(strstr(e.msg, "For input string: \"1.2.3\"") != NULL);
    g = read_one_col(&WTYPE_DATE, "2021/01/01\n", NULL, NULL, &e);
    CHECK(g == NULL);
    CHECK(strstr(e.msg, "Invalid date '2021/01/01'") != NULL);
}

WTEST(csv_type_parsing_decimal_and_temporal)
{
    WArena a;
    warena_init(&a, 0);
    const WType *dec = wtype_decimal(&a, 5, 2, true);
    CHECK_COL(dec, "1.005\n-1.005\n12.3\n999.994\n999.995\n1e2\n0.001\n",
              "+I[1.01]\n+I[-1.01]\n+I[12.30]\n+I[999.99]\n+I[null]\n+I[100.00]\n+I[0.00]\n");
    CHECK_COL(&WTYPE_DATE, "2021-01-05\n2021-1-5\n2021-02-30\n", "+I[2021-01-05]\n+I[2021-01-05]\n+I[2021-03-02]\n");
    const WType *t0 = wtype_time(&a, 0, true);
    const WType *t3 = wtype_time(&a, 3, true);
    CHECK_COL(t0, "12:12:12.45\n08:30\n", "+I[12:12:12]\n+I[08:30]\n");
    CHECK_COL(t3, "12:12:12.232342\n", "+I[12:12:12.232]\n");
    const WType *ts = wtype_timestamp(&a, WT_TIMESTAMP, 3, true);
    CHECK_COL(ts, "2021-01-01 10:00:00.123\n2021-01-01 10:00\n 2020-02-30 01:02:03 \n1969-12-31 23:59:59.999\n",
              "+I[2021-01-01T10:00:00.123]\n+I[2021-01-01T10:00]\n+I[2020-02-29T01:02:03]\n+I[1969-12-31T23:59:59.999]\n");
    WError e;
    char *g = read_one_col(ts, "2021-01-01T10:00:00\n", NULL, NULL, &e);
    CHECK(g == NULL);
    CHECK(strstr(e.msg, "Text '2021-01-01T10:00:00' could not be parsed at index 10") != NULL);
    const WType *ltz = wtype_timestamp(&a, WT_TIMESTAMP_LTZ, 3, true);
    const char *names[] = {"v"};
    const WType *tys[] = {ltz};
    TDir d;
    tdir_make(&d);
    TSpec t;
    fs_spec(&t, &d, "1970-01-01 00:00:01Z\n", 1, names, tys, NULL);
    const WConnector *c = wconnector_find("filesystem");
    werr_clear(&e);
    WSource *s = c->open_source(&t.spec, &e);
    CHECK(s != NULL);
    WChunk *ch = wchunk_new(1, tys, 8);
    CHECK(s->next(s, ch, &e) == WSRC_END);
    CHECK_INT(ch->nrows, 1);
    CHECK_INT(ch->cols[0].data[0].ts.ms, 1000);
    s->close(s);
    wchunk_free(ch);
    tspec_free(&t);
    rm_rf(d.path);
    const WType *bytes = &WTYPE_BYTES;
    CHECK_COL(bytes, "awML\n", "+I[[107, 3, 11]]\n");
    warena_free(&a);
}

WTEST(csv_arrays_and_rows)
{
    WArena a;
    warena_init(&a, 0);
    const WType *arr = wtype_array(&a, &WTYPE_INT, true);
    const char *fn[] = {"x", "y"};
    const WType *ft[] = {&WTYPE_STRING, &WTYPE_INT};
    const WType *row = wtype_row(&a, 2, fn, ft, true);
    const char *names[] = {"a", "r"};
    const WType *tys[] = {arr, row};
    TDir d;
    tdir_make(&d);
    TSpec t;
    fs_spec(&t, &d, "1;2;null,hi;5\n", 2, names, tys, NULL);
    wopts_set(&t.opts, "csv.null-literal", "null");
    WError e;
    werr_clear(&e);
    char *got = read_all(&t, &e);
    CHECK_STR(got, "+I[[1, 2, null], +I[hi, 5]]\n");
    free(got);
    tspec_free(&t);
    rm_rf(d.path);
    warena_free(&a);
}

WTEST(csv_row_length_mismatch)
{
    TDir d;
    tdir_make(&d);
    const WType *ty[] = {&WTYPE_INT, &WTYPE_STRING, &WTYPE_INT};
    TSpec t;
    const char *p = fs_spec(&t, &d, "1,a,1\n2\n3,c,3,extra\n4,d,4\n", 3, N3, ty, NULL);
    WError e;
    werr_clear(&e);
    char *got = read_all(&t, &e);
    CHECK(got == NULL);
    char want[600];
    snprintf(want, sizeof want,
             "Failed to deserialize CSV row '2' at %s:2, column 1: Row length mismatch. 3 fields expected but was 1.", p);
    CHECK_STR(e.msg, want);
    wopts_set(&t.opts, "csv.ignore-parse-errors", "true");
    werr_clear(&e);
    int64_t skipped = -1;
    got = read_all_cap(&t, 2, &e, &skipped);
    CHECK_STR(got, "+I[1, a, 1]\n+I[2, null, null]\n+I[4, d, 4]\n");
    CHECK_INT(skipped, 1);
    free(got);
    tspec_free(&t);
    /* too many fields without ignore */
    p = fs_spec(&t, &d, "1,a,1,Test\n", 3, N3, ty, NULL);
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK(got == NULL);
    snprintf(want, sizeof want,
             "Failed to deserialize CSV row '1,a,1,Test' at %s:1, column 4: Too many entries: expected at most 3 (value #3 (4 chars) \"Test\")", p);
    CHECK_STR(e.msg, want);
    tspec_free(&t);
    rm_rf(d.path);
}

WTEST(csv_bad_quoting)
{
    TDir d;
    tdir_make(&d);
    const WType *ty[] = {&WTYPE_INT, &WTYPE_STRING};
    TSpec t;
    WError e;
    const char *p = fs_spec(&t, &d, "1,\"ab\"x\n2,ok\n", 2, N2, ty, NULL);
    werr_clear(&e);
    char *got = read_all(&t, &e);
    CHECK(got == NULL);
    CHECK(strstr(e.msg, "column 2: Unexpected character ('x' (code 120)): Expected column separator character (',' (code 44)) or end-of-line") != NULL);
    CHECK_INT(e.file_line, 1);
    wopts_set(&t.opts, "csv.ignore-parse-errors", "true");
    werr_clear(&e);
    int64_t skipped = 0;
    got = read_all_cap(&t, 4, &e, &skipped);
    CHECK_STR(got, "+I[2, ok]\n");
    CHECK_INT(skipped, 1);
    free(got);
    tspec_free(&t);
    p = fs_spec(&t, &d, "1,a\n2,\"open\n3,c\n", 2, N2, ty, NULL);
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK(got == NULL);
    char want[600];
    snprintf(want, sizeof want, "Failed to deserialize CSV row '2,\"open' at %s:2, column 2: Missing closing quote for value", p);
    CHECK_STR(e.msg, want);
    tspec_free(&t);
    rm_rf(d.path);
}

WTEST(csv_line_numbers_count_quoted_newlines)
{
    TDir d;
    tdir_make(&d);
    const WType *ty[] = {&WTYPE_INT, &WTYPE_STRING};
    TSpec t;
    fs_spec(&t, &d, "1,\"a\nb\nc\"\n\n2,x\nbad,y\n", 2, N2, ty, NULL);
    WError e;
    werr_clear(&e);
    char *got = read_all(&t, &e);
    CHECK(got == NULL);
    CHECK_INT(e.file_line, 6);
    tspec_free(&t);
    rm_rf(d.path);
}

WTEST(csv_directory_source_sorted_hidden_recursive)
{
    TDir d;
    tdir_make(&d);
    tfile(&d, "b.csv", "2\n");
    tfile(&d, "a.csv", "1\n");
    tfile(&d, ".hidden.csv", "99\n");
    tfile(&d, "_SUCCESS", "98\n");
    char sub[256];
    snprintf(sub, sizeof sub, "%s/c", d.path);
    mkdir(sub, 0777);
    tfile(&d, "c/x.csv", "3\n4");
    const char *names[] = {"v"};
    const WType *tys[] = {&WTYPE_INT};
    TSpec t;
    tspec_init(&t, 1, names, tys);
    wopts_set(&t.opts, "connector", "filesystem");
    wopts_set(&t.opts, "path", d.path);
    wopts_set(&t.opts, "format", "csv");
    WError e;
    werr_clear(&e);
    char *got = read_all_cap(&t, 100, &e, NULL);
    CHECK_STR(got, "+I[1]\n+I[2]\n+I[3]\n+I[4]\n");
    free(got);
    /* two subtasks split the files */
    t.spec.parallelism = 2;
    t.spec.subtask = 1;
    werr_clear(&e);
    got = read_all_cap(&t, 100, &e, NULL);
    CHECK_STR(got, "+I[2]\n");
    free(got);
    /* file: scheme */
    char url[300];
    snprintf(url, sizeof url, "file://%s/a.csv", d.path);
    wopts_set(&t.opts, "path", url);
    t.spec.parallelism = 1;
    t.spec.subtask = 0;
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK_STR(got, "+I[1]\n");
    free(got);
    /* missing path */
    wopts_set(&t.opts, "path", "/nonexistent/weir/x.csv");
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK(got == NULL);
    CHECK(strncmp(e.msg, "File /nonexistent/weir/x.csv does not exist or the user running Flink", 69) == 0);
    tspec_free(&t);
    rm_rf(d.path);
}

WTEST(csv_large_file_crosses_buffer_refills)
{
    TDir d;
    tdir_make(&d);
    char path[256];
    snprintf(path, sizeof path, "%s/big.csv", d.path);
    FILE *f = fopen(path, "w");
    const int N = 300000;
    long long sum = 0;
    for (int i = 0; i < N; i++) {
        fprintf(f, "%d,\"q%d\nz\",%d.5,payload-%030d\n", i, i, i, i);
        sum += i;
    }
    fclose(f);
    const char *names[] = {"a", "b", "c", "d"};
    const WType *tys[] = {&WTYPE_BIGINT, &WTYPE_STRING, &WTYPE_DOUBLE, &WTYPE_STRING};
    TSpec t;
    tspec_init(&t, 4, names, tys);
    wopts_set(&t.opts, "connector", "filesystem");
    wopts_set(&t.opts, "path", path);
    wopts_set(&t.opts, "format", "csv");
    WError e;
    werr_clear(&e);
    WSource *s = wconnector_find("filesystem")->open_source(&t.spec, &e);
    CHECK(s != NULL);
    WChunk *ch = wchunk_new(4, tys, 2048);
    long long got = 0, rows = 0;
    bool ok = true;
    for (;;) {
        wchunk_reset(ch);
        WSourceStatus st = s->next(s, ch, &e);
        if (st == WSRC_ERROR) { ok = false; break; }
        for (int r = 0; r < ch->nrows; r++) {
            got += ch->cols[0].data[r].i;
            long long i = ch->cols[0].data[r].i;
            char want[64];
            int wl = snprintf(want, sizeof want, "q%lld\nz", i);
            if (ch->cols[1].data[r].s.len != wl || memcmp(ch->cols[1].data[r].s.p, want, (size_t)wl) != 0) ok = false;
            if (ch->cols[2].data[r].d != (double)i + 0.5) ok = false;
        }
        rows += ch->nrows;
        if (st == WSRC_END) break;
    }
    CHECK(ok);
    CHECK_INT(rows, N);
    CHECK_INT(got, sum);
    CHECK_INT(s->rows_read, N);
    s->close(s);
    wchunk_free(ch);
    tspec_free(&t);
    rm_rf(d.path);
}

WTEST(csv_position_and_seek)
{
    TDir d;
    tdir_make(&d);
    tfile(&d, "a.csv", "1\n2\n3\n");
    tfile(&d, "b.csv", "4\n5\n");
    const char *names[] = {"v"};
    const WType *tys[] = {&WTYPE_INT};
    TSpec t;
    tspec_init(&t, 1, names, tys);
    wopts_set(&t.opts, "connector", "filesystem");
    wopts_set(&t.opts, "path", d.path);
    wopts_set(&t.opts, "format", "csv");
    WError e;
    werr_clear(&e);
    const WConnector *c = wconnector_find("filesystem");
    WSource *s = c->open_source(&t.spec, &e);
    WChunk *ch = wchunk_new(1, tys, 2);
    CHECK(s->next(s, ch, &e) == WSRC_MORE);
    CHECK_INT(ch->nrows, 2);
    char pos[128];
    CHECK(s->position(s, pos, sizeof pos));
    s->close(s);
    /* a fresh source restored at the position continues with 3, 4, 5 */
    s = c->open_source(&t.spec, &e);
    CHECK(s->seek(s, pos, &e));
    WStrBuf out;
    wsb_init(&out);
    for (;;) {
        wchunk_reset(ch);
        WSourceStatus st = s->next(s, ch, &e);
        CHECK(st != WSRC_ERROR);
        if (st == WSRC_ERROR) break;
        render_chunk(ch, &out);
        if (st == WSRC_END) break;
    }
    CHECK_STR(out.buf, "+I[3]\n+I[4]\n+I[5]\n");
    CHECK(!s->seek(s, "garbage", &e));
    wsb_free(&out);
    s->close(s);
    wchunk_free(ch);
    tspec_free(&t);
    rm_rf(d.path);
}

/* ---- changelog-csv ---- */

WTEST(changelog_csv_kinds_and_nulls)
{
    TDir d;
    tdir_make(&d);
    const WType *ty[] = {&WTYPE_STRING, &WTYPE_INT};
    TSpec t;
    fs_spec(&t, &d, "+I,a,1\n-U,a,1\n+U,a,2\nDELETE,a,2\n+I,NULL,NULL\n+I,\"NULL\",3\n+I,\"\",4\n", 2, N2, ty,
            "changelog-csv");
    WError e;
    werr_clear(&e);
    const WConnector *c = wconnector_find("filesystem");
    CHECK(c->source_is_changelog(&t.opts));
    char *got = read_all(&t, &e);
    CHECK_STR(got, "+I[a, 1]\n-U[a, 1]\n+U[a, 2]\n-D[a, 2]\n+I[null, null]\n+I[NULL, 3]\n+I[, 4]\n");
    free(got);
    WSource *s = c->open_source(&t.spec, &e);
    CHECK(s && s->emits_changelog);
    if (s) s->close(s);
    tspec_free(&t);
    /* csv is not a changelog */
    fs_spec(&t, &d, "a,1\n", 2, N2, ty, "csv");
    CHECK(!c->source_is_changelog(&t.opts));
    tspec_free(&t);
    rm_rf(d.path);
}

WTEST(changelog_csv_errors)
{
    TDir d;
    tdir_make(&d);
    WArena a;
    warena_init(&a, 0);
    const char *fn[] = {"currency"};
    const WType *ft[] = {&WTYPE_STRING};
    const WType *ty[] = {&WTYPE_INT, wtype_row(&a, 1, fn, ft, true)};
    TSpec t;
    const char *p = fs_spec(&t, &d, "+I,1,\"@sql:ROW('Euro')\"\n", 2, N2, ty, "changelog-csv");
    WError e;
    werr_clear(&e);
    char *got = read_all(&t, &e);
    CHECK(got == NULL);
    char want[600];
    snprintf(want, sizeof want,
             "Failed to deserialize CSV row '+I,1,\"@sql:ROW('Euro')\"' at %s:1, column 3: composite literal not supported in changelog-csv: @sql:ROW('Euro')", p);
    CHECK_STR(e.msg, want);
    tspec_free(&t);
    const WType *ty2[] = {&WTYPE_INT, &WTYPE_INT};
    fs_spec(&t, &d, "+X,1,2\n", 2, N2, ty2, "changelog-csv");
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK(got == NULL);
    CHECK(strstr(e.msg, "column 1: Unknown row kind '+X'") != NULL);
    tspec_free(&t);
    warena_free(&a);
    rm_rf(d.path);
}

/* ---- filesystem sink ---- */

static WChunk *chunk_of(int n, const WType **types)
{
    return wchunk_new(n, types, 16);
}

static char *read_dir_files(const char *dir, int *nfiles)
{
    DIR *dd = opendir(dir);
    WStrBuf s;
    wsb_init(&s);
    wsb_append(&s, "");
    *nfiles = 0;
    struct dirent *e;
    while (dd && (e = readdir(dd)) != NULL) {
        if (e->d_name[0] == '.') continue;
        (*nfiles)++;
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        FILE *f = fopen(p, "r");
        char buf[4096];
        size_t n;
        while (f && (n = fread(buf, 1, sizeof buf, f)) > 0) wsb_appendn(&s, buf, n);
        if (f) fclose(f);
        if (strncmp(e->d_name, "part-", 5) != 0 || strlen(e->d_name) != 5 + 36 + 4) (*nfiles) += 100;
    }
    if (dd) closedir(dd);
    return wsb_detach(&s);
}

WTEST(filesystem_sink_csv_and_roundtrip)
{
    TDir d;
    tdir_make(&d);
    char out[300];
    snprintf(out, sizeof out, "%s/out", d.path);
    WArena a;
    warena_init(&a, 0);
    const WType *dec = wtype_decimal(&a, 10, 7, true);
    const char *names[] = {"i", "s", "d", "m"};
    const WType *tys[] = {&WTYPE_INT, &WTYPE_STRING, &WTYPE_DOUBLE, dec};
    TSpec t;
    tspec_init(&t, 4, names, tys);
    wopts_set(&t.opts, "connector", "filesystem");
    wopts_set(&t.opts, "path", out);
    wopts_set(&t.opts, "format", "csv");
    WError e;
    werr_clear(&e);
    WSink *s = wconnector_find("filesystem")->open_sink(&t.spec, &e);
    CHECK(s != NULL);
    WChunk *c = chunk_of(4, tys);
    const char *strs[] = {"plain", "a b", "x,y", "q\"q", "", "abcdefghijklmnopqrstuvwxyz"};
    for (int r = 0; r < 6; r++) {
        int row = wchunk_add_row(c, WRK_INSERT);
        c->cols[0].data[row].i = r;
        c->cols[1].data[row].s.p = strs[r];
        c->cols[1].data[row].s.len = (int)strlen(strs[r]);
        c->cols[2].data[row].d = r + 0.5;
        c->cols[3].data[row].dec = r == 0 ? 0 : 12345678;
        if (r == 5) c->cols[2].nulls[row] = 1;
    }
    CHECK(s->write(s, c, &e));
    CHECK(s->finish(s, &e));
    CHECK_INT(s->rows_written, 6);
    s->close(s);
    int nf;
    char *txt = read_dir_files(out, &nf);
    CHECK_INT(nf, 1);
    CHECK_STR(txt, "0,plain,0.5,0E-7\n1,\"a b\",1.5,1.2345678\n2,\"x,y\",2.5,1.2345678\n"
                   "3,\"q\"\"q\",3.5,1.2345678\n4,,4.5,1.2345678\n5,\"abcdefghijklmnopqrstuvwxyz\",,1.2345678\n");
    free(txt);
    /* read it back through the source: the NULL DOUBLE was written empty, which Flink's csv reads
       back only with csv.null-literal = '' (then the empty string is NULL too) */
    werr_clear(&e);
    char *got = read_all(&t, &e);
    CHECK(got == NULL);
    CHECK(strstr(e.msg, "empty String") != NULL);
    free(got);
    wopts_set(&t.opts, "csv.null-literal", "");
    werr_clear(&e);
    got = read_all(&t, &e);
    CHECK_STR(got, "+I[0, plain, 0.5, 0E-7]\n+I[1, a b, 1.5, 1.2345678]\n+I[2, x,y, 2.5, 1.2345678]\n"
                   "+I[3, q\"q, 3.5, 1.2345678]\n+I[4, null, 4.5, 1.2345678]\n+I[5, abcdefghijklmnopqrstuvwxyz, null, 1.2345678]\n");
    free(got);
    /* csv sink refuses updates */
    s = wconnector_find("filesystem")->open_sink(&t.spec, &e);
    wchunk_reset(c);
    int row = wchunk_add_row(c, WRK_DELETE);
    c->cols[0].nulls[row] = c->cols[1].nulls[row] = c->cols[2].nulls[row] = c->cols[3].nulls[row] = 1;
    werr_clear(&e);
    CHECK(!s->write(s, c, &e));
    CHECK_STR(e.msg, "The 'csv' format of the filesystem sink only accepts INSERT rows, got -D.");
    s->close(s);   /* unfinished: the in-progress file is removed */
    txt = read_dir_files(out, &nf);
    CHECK_INT(nf, 1);
    free(txt);
    wchunk_free(c);
    tspec_free(&t);
    warena_free(&a);
    rm_rf(d.path);
}

WTEST(filesystem_sink_changelog_csv_roundtrip)
{
    TDir d;
    tdir_make(&d);
    const WType *tys[] = {&WTYPE_STRING, &WTYPE_INT};
    TSpec t;
    tspec_init(&t, 2, N2, tys);
    wopts_set(&t.opts, "connector", "filesystem");
    wopts_set(&t.opts, "path", d.path);
    wopts_set(&t.opts, "format", "changelog-csv");
    WError e;
    werr_clear(&e);
    WSink *s = wconnector_find("filesystem")->open_sink(&t.spec, &e);
    CHECK(s != NULL);
    WChunk *c = chunk_of(2, tys);
    const char *strs[] = {"NULL", "", " sp", "a,b", "x"};
    WRowKind kinds[] = {WRK_INSERT, WRK_UPDATE_BEFORE, WRK_UPDATE_AFTER, WRK_DELETE, WRK_INSERT};
    for (int r = 0; r < 5; r++) {
        int row = wchunk_add_row(c, kinds[r]);
        c->cols[0].data[row].s.p = strs[r];
        c->cols[0].data[row].s.len = (int)strlen(strs[r]);
        c->cols[1].data[row].i = r;
        if (r == 4) { c->cols[0].nulls[row] = 1; c->cols[1].nulls[row] = 1; }
    }
    CHECK(s->write(s, c, &e));
    CHECK(s->finish(s, &e));
    s->close(s);
    int nf;
    char *txt = read_dir_files(d.path, &nf);
    CHECK_STR(txt, "+I,\"NULL\",0\n-U,\"\",1\n+U,\" sp\",2\n-D,\"a,b\",3\n+I,NULL,NULL\n");
    free(txt);
    char *got = read_all(&t, &e);
    CHECK_STR(got, "+I[NULL, 0]\n-U[, 1]\n+U[ sp, 2]\n-D[a,b, 3]\n+I[null, null]\n");
    free(got);
    wchunk_free(c);
    tspec_free(&t);
    rm_rf(d.path);
}

/* debezium-json: envelopes to row kinds in chunks of two rows (an update never split), errors with
   file:line, and the sink writing each kind as Flink does (-U as "d", +U as "c"), read back. */
WTEST(debezium_json_read_and_write)
{
    TDir d;
    tdir_make(&d);
    const WType *ty[] = {&WTYPE_INT, &WTYPE_STRING};
    TSpec t;
    fs_spec(&t, &d,
            "{\"before\":null,\"after\":{\"a\":1,\"b\":\"x\"},\"op\":\"r\",\"ts_ms\":5}\n"
            "{\"before\":null,\"after\":{\"a\":2},\"op\":\"c\"}\n"
            "\n"
            "{\"before\":{\"a\":1,\"b\":\"x\"},\"after\":{\"a\":1,\"b\":\"y\"},\"op\":\"u\"}\n"
            "{\"before\":{\"a\":2},\"after\":null,\"op\":\"d\"}\n",
            2, N2, ty, "debezium-json");
    WError e;
    werr_clear(&e);
    const WConnector *c = wconnector_find("filesystem");
    CHECK(c->source_is_changelog(&t.opts));
    WSource *src = c->open_source(&t.spec, &e);
    CHECK(src && src->emits_changelog && src->min_chunk_rows == 2);
    if (src) src->close(src);
    char *got = read_all_cap(&t, 2, &e, NULL);
    CHECK_STR(got, "+I[1, x]\n+I[2, null]\n-U[1, x]\n+U[1, y]\n-D[2, null]\n");
    free(got);
    tspec_free(&t);
    /* a DOUBLE -0.0 stays -0.0, as a number and as a string (measured on Flink 2.3) */
    const char *NF[] = {"a", "f"};
    const WType *tf[] = {&WTYPE_INT, &WTYPE_DOUBLE};
    fs_spec(&t, &d,
            "{\"before\":null,\"after\":{\"a\":1,\"f\":-0.0},\"op\":\"c\"}\n"
            "{\"before\":null,\"after\":{\"a\":2,\"f\":\"-0.0\"},\"op\":\"c\"}\n"
            "{\"before\":null,\"after\":{\"a\":3,\"f\":-1.5e0},\"op\":\"c\"}\n",
            2, NF, tf, "debezium-json");
    werr_clear(&e);
    got = read_all_cap(&t, 2, &e, NULL);
    CHECK_STR(got, "+I[1, -0.0]\n+I[2, -0.0]\n+I[3, -1.5]\n");
    free(got);
    tspec_free(&t);
    /* an update without "before", and the same skipped with ignore-parse-errors */
    const char *p = fs_spec(&t, &d,
                            "{\"before\":null,\"after\":{\"a\":1},\"op\":\"c\"}\n"
                            "{\"before\":null,\"after\":{\"a\":1},\"op\":\"u\"}\n"
                            "{\"before\":null,\"after\":{\"a\":\"z\"},\"op\":\"c\"}\n",
                            2, N2, ty, "debezium-json");
    werr_clear(&e);
    got = read_all_cap(&t, 2, &e, NULL);
    CHECK(got == NULL);
    char want[700];
    snprintf(want, sizeof want,
             "Corrupt Debezium JSON message '{\"before\":null,\"after\":{\"a\":1},\"op\":\"u\"}' at %s:2: The "
             "\"before\" field of UPDATE message is null, if you are using Debezium Postgres Connector, please "
             "check the Postgres table has been set REPLICA IDENTITY to FULL level.", p);
    CHECK_STR(e.msg, want);
    CHECK_INT(e.file_line, 2);
    wopts_set(&t.opts, "debezium-json.ignore-parse-errors", "true");
    werr_clear(&e);
    int64_t skipped = 0;
    got = read_all_cap(&t, 2, &e, &skipped);
    CHECK_STR(got, "+I[1, null]\n+I[null, null]\n");
    CHECK_INT(skipped, 1);
    free(got);
    tspec_free(&t);
    /* sink: every kind, read back (an update comes back as a delete and an insert) */
    char out[128];
    snprintf(out, sizeof out, "%s/out", d.path);
    tspec_init(&t, 2, N2, ty);
    wopts_set(&t.opts, "connector", "filesystem");
    wopts_set(&t.opts, "path", out);
    wopts_set(&t.opts, "format", "debezium-json");
    werr_clear(&e);
    WSink *s = c->open_sink(&t.spec, &e);
    CHECK(s != NULL);
    WChunk *ch = chunk_of(2, ty);
    WRowKind kinds[] = {WRK_INSERT, WRK_UPDATE_BEFORE, WRK_UPDATE_AFTER, WRK_DELETE};
    const char *strs[] = {"a", "a", "b", "b"};
    for (int r = 0; r < 4; r++) {
        int row = wchunk_add_row(ch, kinds[r]);
        ch->cols[0].data[row].i = 7;
        ch->cols[1].data[row].s.p = strs[r];
        ch->cols[1].data[row].s.len = 1;
    }
    CHECK(s->write(s, ch, &e));
    CHECK(s->finish(s, &e));
    s->close(s);
    int nf;
    char *txt = read_dir_files(out, &nf);
    CHECK_STR(txt, "{\"before\":null,\"after\":{\"a\":7,\"b\":\"a\"},\"op\":\"c\"}\n"
                   "{\"before\":{\"a\":7,\"b\":\"a\"},\"after\":null,\"op\":\"d\"}\n"
                   "{\"before\":null,\"after\":{\"a\":7,\"b\":\"b\"},\"op\":\"c\"}\n"
                   "{\"before\":{\"a\":7,\"b\":\"b\"},\"after\":null,\"op\":\"d\"}\n");
    free(txt);
    werr_clear(&e);
    got = read_all_cap(&t, 2, &e, NULL);
    CHECK_STR(got, "+I[7, a]\n-D[7, a]\n+I[7, b]\n-D[7, b]\n");
    free(got);
    /* schema-include is refused for a sink */
    wopts_set(&t.opts, "debezium-json.schema-include", "true");
    werr_clear(&e);
    CHECK(c->open_sink(&t.spec, &e) == NULL);
    CHECK_STR(e.msg, "Debezium JSON serialization doesn't support 'debezium-json.schema-include' option been set to true.");
    wchunk_free(ch);
    tspec_free(&t);
    rm_rf(d.path);
}

WTEST(csv_writer_values)
{
    WCsvConfig cfg;
    wcsv_config_init(&cfg, false);
    WStrBuf s;
    wsb_init(&s);
    WArena a;
    warena_init(&a, 0);
    wcsv_write_value(&cfg, &WTYPE_BOOLEAN, WDATUM_I(1), false, &s);
    wsb_putc(&s, '|');
    wcsv_write_value(&cfg, &WTYPE_DATE, WDATUM_I(18628), false, &s);
    wsb_putc(&s, '|');
    WDatum ts = {.ts = {1609495200123LL, 456000}};
    wcsv_write_value(&cfg, wtype_timestamp(&a, WT_TIMESTAMP, 6, true), ts, false, &s);
    wsb_putc(&s, '|');
    WDatum ts0 = {.ts = {1609495200000LL, 0}};
    wcsv_write_value(&cfg, wtype_timestamp(&a, WT_TIMESTAMP_LTZ, 3, true), ts0, false, &s);
    wsb_putc(&s, '|');
    wcsv_write_value(&cfg, wtype_time(&a, 3, true), WDATUM_I(43932232), false, &s);
    wsb_putc(&s, '|');
    WDatum b = {.s = {"\x6b\x03\x0b", 3}};
    wcsv_write_value(&cfg, &WTYPE_BYTES, b, false, &s);
    wsb_putc(&s, '|');
    wcsv_write_value(&cfg, &WTYPE_INT, WDATUM_I(0), true, &s);
    CHECK_STR(s.buf, "true|2021-01-01|\"2021-01-01 10:00:00.123456\"|\"2021-01-01 10:00:00Z\"|12:12:12.232|awML|");
    /* dates outside 0000-9999 (Java's sign and at least four digits), a fraction of nanoseconds,
       midnight; quoting in place with the quote doubled and the escape character escaped */
    wsb_clear(&s);
    wcsv_write_value(&cfg, &WTYPE_DATE, WDATUM_I(-719893), false, &s);    /* -0001-01-01 */
    wsb_putc(&s, '|');
    wcsv_write_value(&cfg, &WTYPE_DATE, WDATUM_I(2932897), false, &s);    /* 10000-01-01 */
    wsb_putc(&s, '|');
    wcsv_write_value(&cfg, wtype_time(&a, 3, true), WDATUM_I(0), false, &s);
    wsb_putc(&s, '|');
    WDatum tsn = {.ts = {-1LL, 999001}};                                  /* 1969-12-31 23:59:59.999999001 */
    wcsv_write_value(&cfg, wtype_timestamp(&a, WT_TIMESTAMP, 9, true), tsn, false, &s);
    CHECK_STR(s.buf, "-0001-01-01|\"+10000-01-01\"|00:00:00|\"1969-12-31 23:59:59.999999001\"");
    /* milliseconds only (their three digits, trailing zeros dropped) beside the nanosecond path */
    wsb_clear(&s);
    static const int64_t ms_of[] = {5, 50, 500, 120, 999, 1};
    for (size_t k = 0; k < sizeof ms_of / sizeof *ms_of; k++) {
        WDatum tms = {.ts = {1609495200000LL + ms_of[k], 0}};
        wcsv_write_value(&cfg, wtype_timestamp(&a, WT_TIMESTAMP, 3, true), tms, false, &s);
        wsb_putc(&s, '|');
    }
    WDatum tmix = {.ts = {1609495200500LL, 1}};
    wcsv_write_value(&cfg, wtype_timestamp(&a, WT_TIMESTAMP, 9, true), tmix, false, &s);
    CHECK_STR(s.buf, "\"2021-01-01 10:00:00.005\"|\"2021-01-01 10:00:00.05\"|\"2021-01-01 10:00:00.5\"|"
                     "\"2021-01-01 10:00:00.12\"|\"2021-01-01 10:00:00.999\"|\"2021-01-01 10:00:00.001\"|"
                     "\"2021-01-01 10:00:00.500000001\"");
    WCsvConfig esc;
    wcsv_config_init(&esc, false);
    esc.escape = '\\';
    wsb_clear(&s);
    WDatum q1 = {.s = {"a \"b\" \\c, and a text longer than 24 bytes", 41}};
    wcsv_write_value(&esc, &WTYPE_STRING, q1, false, &s);
    wsb_putc(&s, '|');
    WDatum q2 = {.s = {"\"", 1}};
    wcsv_write_value(&esc, &WTYPE_STRING, q2, false, &s);
    wsb_putc(&s, '|');
    WDatum q3 = {.s = {"plain, with the delimiter", 25}};
    wcsv_write_value(&esc, &WTYPE_STRING, q3, false, &s);
    CHECK_STR(s.buf, "\"a \"\"b\"\" \\\\c, and a text longer than 24 bytes\"|\"\"\"\"|\"plain, with the delimiter\"");
    wcsv_config_free(&esc);
    char buf[64];
    wcsv_bigdecimal_string(0, 7, true, buf);
    CHECK_STR(buf, "0E-7");
    wcsv_bigdecimal_string(1, 7, true, buf);
    CHECK_STR(buf, "1E-7");
    wcsv_bigdecimal_string(-123, 2, true, buf);
    CHECK_STR(buf, "-1.23");
    wcsv_bigdecimal_string(5, 3, true, buf);
    CHECK_STR(buf, "0.005");
    wcsv_bigdecimal_string(0, 7, false, buf);
    CHECK_STR(buf, "0.0000000");
    wcsv_bigdecimal_string(123456, 8, true, buf);
    CHECK_STR(buf, "0.00123456");
    wcsv_bigdecimal_string(12, 9, true, buf);
    CHECK_STR(buf, "1.2E-8");
    wsb_free(&s);
    warena_free(&a);
    wcsv_config_free(&cfg);
}

/* ---- validation ---- */

static const char *validate_msg(TSpec *t, bool as_source, WError *e)
{
    werr_clear(e);
    const WConnector *c = NULL;
    if (!wconnector_lookup(&t->opts, as_source, &c, e)) return e->msg;
    if (!c->validate(&t->spec, as_source, e)) return e->msg;
    return "OK";
}

WTEST(validation_messages)
{
    const WType *ty[] = {&WTYPE_INT, &WTYPE_STRING};
    TSpec t;
    WError e;
    tspec_init(&t, 2, N2, ty);
    CHECK_STR(validate_msg(&t, true, &e),
              "Table options do not contain an option key 'connector' for discovering a connector.");
    wopts_set(&t.opts, "connector", "kinesis");
    CHECK_STR(validate_msg(&t, true, &e),
              "Could not find any factory for identifier 'kinesis' that implements "
              "'org.apache.flink.table.factories.DynamicTableFactory' in the classpath.\n\n"
              "Available factory identifiers are:\n\nblackhole\ndatagen\nfilesystem\njdbc\nkafka\nnexmark\nprint\nupsert-kafka");
    CHECK_STR(e.cls, "org.apache.flink.table.api.ValidationException");
    wopts_set(&t.opts, "connector", "print");
    CHECK_STR(validate_msg(&t, true, &e), "Connector 'print' can only be used as a sink. It cannot be used as a source.");
    CHECK_STR(validate_msg(&t, false, &e), "OK");
    wopts_set(&t.opts, "foo", "bar");
    CHECK_STR(validate_msg(&t, false, &e),
              "Unsupported options found for 'print'.\n\nUnsupported options:\n\nfoo\n\nSupported options:\n\n"
              "connector\nprint-identifier\nproperty-version\nsink.changelog-mode\nsink.parallelism\nstandard-error");
    wopts_remove(&t.opts, "foo");
    wopts_set(&t.opts, "standard-error", "maybe");
    CHECK_STR(validate_msg(&t, false, &e), "Unrecognized option for boolean: maybe. Expected either true or false(case insensitive)");
    wopts_remove(&t.opts, "standard-error");
    wopts_set(&t.opts, "connector", "blackhole");
    CHECK_STR(validate_msg(&t, true, &e), "Connector 'blackhole' can only be used as a sink. It cannot be used as a source.");
    CHECK_STR(validate_msg(&t, false, &e), "OK");
    wopts_set(&t.opts, "connector", "datagen");
    CHECK_STR(validate_msg(&t, false, &e), "Connector 'datagen' can only be used as a source. It cannot be used as a sink.");
    /* filesystem */
    wopts_set(&t.opts, "connector", "filesystem");
    CHECK_STR(validate_msg(&t, true, &e),
              "One or more required options are missing.\n\nMissing required options are:\n\nformat\npath");
    wopts_set(&t.opts, "path", "/tmp");
    wopts_set(&t.opts, "format", "parquet");
    CHECK_STR(validate_msg(&t, true, &e), "Could not find any format factory for identifier 'parquet' in the classpath.");
    wopts_set(&t.opts, "format", "csv");
    wopts_set(&t.opts, "csv.whatever", "x");          /* format keys are not checked (Flink) */
    CHECK_STR(validate_msg(&t, true, &e), "OK");
    wopts_set(&t.opts, "sink.foo", "1");
    const char *m = validate_msg(&t, true, &e);
    CHECK(strncmp(m, "Unsupported options found for 'filesystem'.\n\nUnsupported options:\n\nsink.foo\n\n"
                     "Supported options:\n\nauto-compaction\ncompaction.file-size\nconnector\ncsv.whatever\nformat\n", 140) == 0);
    wopts_remove(&t.opts, "sink.foo");
    wopts_set(&t.opts, "csv.field-delimiter", ";;");
    CHECK_STR(validate_msg(&t, true, &e), "Option 'csv.field-delimiter' must be a string with single character, but was: ;;");
    wopts_set(&t.opts, "csv.field-delimiter", "\\t");
    CHECK_STR(validate_msg(&t, true, &e), "OK");
    wopts_set(&t.opts, "csv.quote-character", "'");
    wopts_set(&t.opts, "csv.disable-quote-character", "true");
    CHECK_STR(validate_msg(&t, true, &e), "Format cannot define a quote character and disabled quote character at the same time.");
    wopts_remove(&t.opts, "csv.disable-quote-character");
    wopts_set(&t.opts, "csv.ignore-parse-errors", "yes");
    CHECK_STR(validate_msg(&t, true, &e), "Unrecognized option for boolean: yes. Expected either true or false(case insensitive)");
    tspec_free(&t);
    /* unsupported column types for csv */
    WArena a;
    warena_init(&a, 0);
    const WType *ty2[] = {&WTYPE_INT, wtype_map(&a, &WTYPE_STRING, &WTYPE_INT, true)};
    tspec_init(&t, 2, N2, ty2);
    wopts_set(&t.opts, "connector", "filesystem");
    wopts_set(&t.opts, "path", "/tmp");
    wopts_set(&t.opts, "format", "csv");
    CHECK_STR(validate_msg(&t, true, &e), "Unsupported type 'MAP<STRING, INT>' for field 'b'.");
    tspec_free(&t);
    warena_free(&a);
}

/* ---- datagen ---- */

static char *dg_read(TSpec *t, WError *e, int64_t *rows)
{
    werr_clear(e);
    WSource *s = wconnector_find("datagen")->open_source(&t->spec, e);
    if (!s) return NULL;
    WChunk *ch = wchunk_new(t->spec.ncols, t->spec.col_types, 64);
    WStrBuf out;
    wsb_init(&out);
    wsb_append(&out, "");
    *rows = 0;
    for (int guard = 0; guard < 100000; guard++) {
        wchunk_reset(ch);
        WSourceStatus st = s->next(s, ch, e);
        if (st == WSRC_ERROR) break;
        render_chunk(ch, &out);
        *rows += ch->nrows;
        if (st == WSRC_END) break;
    }
    s->close(s);
    wchunk_free(ch);
    return wsb_detach(&out);
}

WTEST(datagen_sequence_bounded_and_partitioned)
{
    const char *names[] = {"id", "s"};
    const WType *tys[] = {&WTYPE_BIGINT, &WTYPE_STRING};
    TSpec t;
    tspec_init(&t, 2, names, tys);
    wopts_set(&t.opts, "connector", "datagen");
    wopts_set(&t.opts, "fields.id.kind", "sequence");
    wopts_set(&t.opts, "fields.id.start", "1");
    wopts_set(&t.opts, "fields.id.end", "5");
    wopts_set(&t.opts, "fields.s.kind", "sequence");
    wopts_set(&t.opts, "fields.s.start", "10");
    wopts_set(&t.opts, "fields.s.end", "100");
    wopts_set(&t.opts, "rows-per-second", "1000000");
    WError e;
    int64_t rows;
    char *got = dg_read(&t, &e, &rows);
    CHECK_STR(got, "+I[1, 10]\n+I[2, 11]\n+I[3, 12]\n+I[4, 13]\n+I[5, 14]\n");
    free(got);
    /* subtask 1 of 2 gets the odd positions */
    t.spec.parallelism = 2;
    t.spec.subtask = 1;
    got = dg_read(&t, &e, &rows);
    CHECK_STR(got, "+I[2, 11]\n+I[4, 13]\n");
    free(got);
    t.spec.subtask = 0;
    got = dg_read(&t, &e, &rows);
    CHECK_STR(got, "+I[1, 10]\n+I[3, 12]\n+I[5, 14]\n");
    free(got);
    /* number-of-rows smaller than the sequence */
    t.spec.parallelism = 1;
    wopts_set(&t.opts, "number-of-rows", "2");
    got = dg_read(&t, &e, &rows);
    CHECK_STR(got, "+I[1, 10]\n+I[2, 11]\n");
    free(got);
    tspec_free(&t);
}

WTEST(datagen_random_bounds_determinism_nulls)
{
    WArena a;
    warena_init(&a, 0);
    const char *names[] = {"i", "s", "d", "n", "m"};
    const WType *tys[] = {&WTYPE_INT, wtype_varchar(&a, 20, true), wtype_decimal(&a, 5, 2, true), &WTYPE_BIGINT,
                          &WTYPE_DOUBLE};
    TSpec t;
    tspec_init(&t, 5, names, tys);
    wopts_set(&t.opts, "connector", "datagen");
    wopts_set(&t.opts, "number-of-rows", "500");
    wopts_set(&t.opts, "rows-per-second", "100000000");
    wopts_set(&t.opts, "fields.i.min", "-3");
    wopts_set(&t.opts, "fields.i.max", "3");
    wopts_set(&t.opts, "fields.s.length", "7");
    wopts_set(&t.opts, "fields.d.min", "1");
    wopts_set(&t.opts, "fields.d.max", "2");
    wopts_set(&t.opts, "fields.n.null-rate", "1.0");
    wopts_set(&t.opts, "fields.m.min", "10");
    wopts_set(&t.opts, "fields.m.max", "20");
    WError e;
    werr_clear(&e);
    WSource *s = wconnector_find("datagen")->open_source(&t.spec, &e);
    CHECK(s != NULL && s->bounded);
    WChunk *ch = wchunk_new(5, tys, 1000);
    CHECK(s->next(s, ch, &e) == WSRC_END);
    CHECK_INT(ch->nrows, 500);
    bool ok = true, seen_lo = false, seen_hi = false;
    for (int r = 0; r < ch->nrows; r++) {
        int64_t i = ch->cols[0].data[r].i;
        if (i < -3 || i > 3) ok = false;
        if (i == -3) seen_lo = true;
        if (i == 3) seen_hi = true;
        WStr st = ch->cols[1].data[r].s;
        if (st.len != 7) ok = false;
        for (int k = 0; k < st.len; k++) if (!strchr("0123456789abcdef", st.p[k])) ok = false;
        __int128 dv = ch->cols[2].data[r].dec;
        if (dv < 100 || dv > 200) ok = false;
        if (!ch->cols[3].nulls[r]) ok = false;
        double m = ch->cols[4].data[r].d;
        if (m < 10 || m > 20) ok = false;
    }
    CHECK(ok);
    CHECK(seen_lo && seen_hi);
    char pos[200];
    CHECK(s->position(s, pos, sizeof pos));
    CHECK(strncmp(pos, "dg:500:", 7) == 0);
    s->close(s);
    /* same table, same subtask: same data */
    int64_t rows;
    char *g1 = dg_read(&t, &e, &rows);
    char *g2 = dg_read(&t, &e, &rows);
    CHECK(g1 && g2 && strcmp(g1, g2) == 0);
    CHECK_INT(rows, 500);
    free(g1);
    free(g2);
    wchunk_free(ch);
    tspec_free(&t);
    warena_free(&a);
}

WTEST(datagen_pacing_and_seek)
{
    const char *names[] = {"i"};
    const WType *tys[] = {&WTYPE_INT};
    TSpec t;
    tspec_init(&t, 1, names, tys);
    wopts_set(&t.opts, "connector", "datagen");
    wopts_set(&t.opts, "rows-per-second", "10");
    WError e;
    werr_clear(&e);
    WSource *s = wconnector_find("datagen")->open_source(&t.spec, &e);
    CHECK(s != NULL && !s->bounded);
    WChunk *ch = wchunk_new(1, tys, 2048);
    int64_t total = 0;
    for (int k = 0; k < 10; k++) {
        wchunk_reset(ch);
        WSourceStatus st = s->next(s, ch, &e);
        CHECK(st == WSRC_MORE || st == WSRC_IDLE);
        total += ch->nrows;
    }
    /* 10 rows/s: ten quick polls get the first second's rows and hardly more */
    CHECK(total >= 10 && total < 20);
    char pos[200];
    CHECK(s->position(s, pos, sizeof pos));
    wchunk_reset(ch);
    while (ch->nrows == 0) s->next(s, ch, &e);
    int64_t next_val = ch->cols[0].data[0].i;
    CHECK(s->seek(s, pos, &e));
    wchunk_reset(ch);
    while (ch->nrows == 0) s->next(s, ch, &e);
    CHECK_INT(ch->cols[0].data[0].i, next_val);
    s->close(s);
    wchunk_free(ch);
    tspec_free(&t);
}

WTEST(datagen_validation)
{
    const char *names[] = {"id", "ts"};
    WArena a;
    warena_init(&a, 0);
    const WType *tys[] = {&WTYPE_INT, wtype_timestamp(&a, WT_TIMESTAMP, 3, true)};
    TSpec t;
    WError e;
    tspec_init(&t, 2, names, tys);
    wopts_set(&t.opts, "connector", "datagen");
    CHECK_STR(validate_msg(&t, true, &e), "OK");
    wopts_set(&t.opts, "fields.id.kind", "sequence");
    CHECK_STR(validate_msg(&t, true, &e), "Could not find required property 'fields.id.start' for sequence generator.");
    wopts_set(&t.opts, "fields.id.start", "1");
    wopts_set(&t.opts, "fields.id.end", "x");
    CHECK_STR(validate_msg(&t, true, &e), "For input string: \"x\"");
    wopts_set(&t.opts, "fields.id.end", "3000000000");
    CHECK_STR(validate_msg(&t, true, &e), "For input string: \"3000000000\"");
    wopts_set(&t.opts, "fields.id.end", "10");
    CHECK_STR(validate_msg(&t, true, &e), "OK");
    wopts_set(&t.opts, "fields.id.kind", "zipf");
    CHECK_STR(validate_msg(&t, true, &e), "Unsupported generator kind: zipf");
    wopts_set(&t.opts, "fields.id.kind", "random");
    CHECK_STR(validate_msg(&t, true, &e),
              "Unsupported options found for 'datagen'.\n\nUnsupported options:\n\nfields.id.end\nfields.id.start\n\n"
              "Supported options:\n\nconnector\nfields.id.kind\nfields.id.max\nfields.id.min\nfields.id.null-rate\n"
              "fields.ts.kind\nfields.ts.max-past\nfields.ts.null-rate\nnumber-of-rows\nrows-per-second\nscan.parallelism");
    wopts_remove(&t.opts, "fields.id.start");
    wopts_remove(&t.opts, "fields.id.end");
    wopts_set(&t.opts, "fields.ts.max-past", "5 s");
    wopts_set(&t.opts, "number-of-rows", "ten");
    CHECK_STR(validate_msg(&t, true, &e), "For input string: \"ten\"");
    tspec_free(&t);
    warena_free(&a);
}

/* ---- print / blackhole ---- */

static char *print_rows(TSpec *t, WChunk *c, WError *e)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    t->spec.out = f;
    werr_clear(e);
    WSink *s = wconnector_find("print")->open_sink(&t->spec, e);
    if (s) {
        s->write(s, c, e);
        s->finish(s, e);
        s->close(s);
    }
    fclose(f);
    return buf;
}

WTEST(print_sink_format)
{
    const WType *tys[] = {&WTYPE_INT, &WTYPE_STRING};
    TSpec t;
    tspec_init(&t, 2, N2, tys);
    wopts_set(&t.opts, "connector", "print");
    WChunk *c = chunk_of(2, tys);
    int r = wchunk_add_row(c, WRK_INSERT);
    c->cols[0].data[r].i = 1;
    c->cols[1].data[r].s = (WStr){"abc", 3};
    r = wchunk_add_row(c, WRK_UPDATE_BEFORE);
    c->cols[0].data[r].i = 2;
    c->cols[1].nulls[r] = 1;
    WError e;
    char *got = print_rows(&t, c, &e);
    CHECK_STR(got, "+I[1, abc]\n-U[2, null]\n");
    free(got);
    wopts_set(&t.opts, "print-identifier", "out");
    got = print_rows(&t, c, &e);
    CHECK_STR(got, "out> +I[1, abc]\nout> -U[2, null]\n");
    free(got);
    t.spec.parallelism = 4;
    t.spec.subtask = 2;
    got = print_rows(&t, c, &e);
    CHECK_STR(got, "out:3> +I[1, abc]\nout:3> -U[2, null]\n");
    free(got);
    wopts_remove(&t.opts, "print-identifier");
    got = print_rows(&t, c, &e);
    CHECK_STR(got, "3> +I[1, abc]\n3> -U[2, null]\n");
    free(got);
    /* blackhole counts */
    wopts_set(&t.opts, "connector", "blackhole");
    werr_clear(&e);
    WSink *s = wconnector_find("blackhole")->open_sink(&t.spec, &e);
    CHECK(s != NULL);
    CHECK(s->write(s, c, &e));
    CHECK(s->write(s, c, &e));
    CHECK(s->finish(s, &e));
    CHECK_INT(s->rows_written, 4);
    s->close(s);
    wchunk_free(c);
    tspec_free(&t);
}

/* What the planner asks a connector (connector.h WConnCaps): sink row kinds by options, source
   boundedness by options, push-downs, lookup, how its sink runs */
WTEST(connector_capabilities)
{
    WOptions o;
    wopts_init(&o);
    CHECK(wconnector_caps(&o) == NULL);                       /* no 'connector' */
    wopts_set(&o, "connector", "no-such-connector");
    CHECK(wconnector_caps(&o) == NULL);
    wopts_set(&o, "connector", "kafka");
    const WConnCaps *k = wconnector_caps(&o);
    CHECK(k && k->unbounded && k->unbounded(&o));             /* a Kafka source reads on */
    wopts_set(&o, "scan.bounded.mode", "latest-offset");
    CHECK(!k->unbounded(&o));
    wopts_set(&o, "scan.bounded.mode", "unbounded");
    CHECK(k->unbounded(&o));
    CHECK(k->sink_kinds == WCONN_INSERT && k->sink_kinds_fixed);
    wopts_free(&o);
    wopts_init(&o);
    wopts_set(&o, "connector", "filesystem");
    wopts_set(&o, "format", "csv");
    const WConnCaps *f = wconnector_caps(&o);
    CHECK(f && f->sink_kinds_for && f->sink_kinds_for(&o) == WCONN_INSERT && f->sink_kinds_fixed);
    wopts_set(&o, "format", "debezium-json");
    CHECK(f->sink_kinds_for(&o) == WCONN_ALL_KINDS);
    CHECK(!f->unbounded(&o));
    wopts_set(&o, "source.monitor-interval", "1 s");
    CHECK(f->unbounded(&o));
    CHECK(f->filter_pushdown && f->projection_pushdown && f->sink_runtime == WSINK_FILES);
    wopts_free(&o);
    CHECK(wconnector_find("upsert-kafka")->caps.upsert_source && !wconnector_find("upsert-kafka")->caps.projection_pushdown);
    CHECK(wconnector_find("datagen")->caps.unbounded && !wconnector_find("datagen")->caps.projection_pushdown);
    CHECK(wconnector_find("jdbc")->open_lookup && wconnector_find("jdbc")->caps.sink_needs_pk_for_updates);
    CHECK(!wconnector_find("filesystem")->open_lookup);
    CHECK(wconnector_find("blackhole")->caps.sink_runtime == WSINK_WRITER &&
          !wconnector_find("blackhole")->caps.sink_kinds_fixed);
    CHECK(wconnector_find("print")->caps.sink_kinds == 0);   /* every kind */
}
