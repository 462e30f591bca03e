/*
 * conformance.c — the conformance-case runner; see conformance.h.
 */
#include "conformance.h"
#include "../common/sort.h"
#include "session.h"
#include "../sql/parser.h"
#include "../common/arena.h"
#include "../common/strbuf.h"
#include "../state/snapshot.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>

typedef struct CObj {
    char *name;
    char *mode;                                     /* changelog-mode / sink-changelog-mode */
    char *ddl;
    char *rows_before, *rows_after, *rows;          /* sources */
    char *exp_before, *exp_after, *exp;             /* sinks */
    bool is_sink;
    char *writable_metadata;                        /* sink option writable-metadata=c:TYPE,... */
} CObj;

typedef struct Case {
    char *name, *harness, *compare, *deterministic, *restore_sensitive;
    char *requires[8];
    int nrequires;
    char *config[16];
    int nconfig;
    CObj objs[16];
    int nobjs;
    char *sql;
} Case;

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

/* Read a block (lines up to ".end"); *pp advanced past it. */
static char *read_block(WArena *a, char **pp)
{
    WStrBuf b;
    wsb_init(&b);
    char *p = *pp;
    while (*p) {
        char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len == 4 && strncmp(p, ".end", 4) == 0) { p = nl ? nl + 1 : p + len; break; }
        wsb_appendn(&b, p, len);
        wsb_putc(&b, '\n');
        p = nl ? nl + 1 : p + len;
    }
    *pp = p;
    char *r = wa_strdup(a, b.buf ? b.buf : "");
    wsb_free(&b);
    return r;
}

static bool parse_case(WArena *a, char *text, Case *c)
{
    memset(c, 0, sizeof *c);
    char *p = text;
    CObj *cur = NULL;
    while (*p) {
        char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *line = wa_strndup(a, p, len);
        p = nl ? nl + 1 : p + len;
        if (line[0] == '#' || !*trim(line)) continue;
        char *colon = strchr(line, ':');
        if (!colon) continue;
        *colon = 0;
        char *key = trim(line), *val = trim(colon + 1);
        bool block = *val == 0;
        if (strcmp(key, "source") == 0 || strcmp(key, "sink") == 0) {
            if (c->nobjs == 16) return false;
            cur = &c->objs[c->nobjs++];
            cur->name = val;
            cur->is_sink = key[1] == 'i';
            continue;
        }
        if (block && (strcmp(key, "ddl") == 0 || strncmp(key, "rows", 4) == 0 || strncmp(key, "expected", 8) == 0 ||
                      strcmp(key, "sql") == 0)) {
            char *b = read_block(a, &p);
            if (strcmp(key, "sql") == 0) { c->sql = b; continue; }
            if (!cur) continue;
            if (strcmp(key, "ddl") == 0) cur->ddl = b;
            else if (strcmp(key, "rows") == 0) cur->rows = b;
            else if (strcmp(key, "rows-before-restore") == 0) cur->rows_before = b;
            else if (strcmp(key, "rows-after-restore") == 0) cur->rows_after = b;
            else if (strcmp(key, "expected") == 0) cur->exp = b;
            else if (strcmp(key, "expected-before-restore") == 0) cur->exp_before = b;
            else if (strcmp(key, "expected-after-restore") == 0) cur->exp_after = b;
            continue;
        }
        if (strcmp(key, "name") == 0) c->name = val;
        else if (strcmp(key, "harness") == 0) c->harness = val;
        else if (strcmp(key, "compare") == 0) c->compare = val;
        else if (strcmp(key, "deterministic") == 0) c->deterministic = val;
        else if (strcmp(key, "restore-sensitive") == 0) c->restore_sensitive = val;
        else if (strcmp(key, "requires") == 0 && c->nrequires < 8) c->requires[c->nrequires++] = val;
        else if ((strcmp(key, "changelog-mode") == 0 || strcmp(key, "sink-changelog-mode") == 0) && cur)
            cur->mode = val;
        else if (strcmp(key, "config") == 0 && c->nconfig < 16) c->config[c->nconfig++] = val;
        else if (strcmp(key, "option") == 0 && cur && strncmp(val, "writable-metadata=", 18) == 0)
            cur->writable_metadata = val + 18;
    }
    return c->name && c->sql;
}

/* Flink's values test sink with 'writable-metadata' prints its metadata columns as fields: the
   emulating print sink gets them as physical columns (the line declaring each listed column loses
   its METADATA [FROM '...'] [VIRTUAL]). */
static char *metadata_as_physical(WArena *a, const char *ddl, const char *cols)
{
    WStrBuf b;
    wsb_init(&b);
    for (const char *line = ddl; *line; ) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);
        const char *t = line;
        while (*t == ' ' || *t == '\t') t++;
        bool listed = false;
        for (const char *c = cols; *c && !listed; ) {
            const char *colon = strchr(c, ':');
            const char *comma = strchr(c, ',');
            size_t n = colon && (!comma || colon < comma) ? (size_t)(colon - c) : comma ? (size_t)(comma - c) : strlen(c);
            if (strncmp(t, c, n) == 0 && t[n] == ' ') listed = true;
            c = comma ? comma + 1 : c + strlen(c);
        }
        const char *m = listed ? strstr(line, " METADATA") : NULL;
        if (m && m < line + len) {
            wsb_appendn(&b, line, (size_t)(m - line));
            const char *r = m + 9;
            if (strncmp(r, " FROM '", 7) == 0) { const char *q = strchr(r + 7, '\''); if (q) r = q + 1; }
            if (strncmp(r, " VIRTUAL", 8) == 0) r += 8;
            wsb_appendn(&b, r, (size_t)(line + len - r));
        } else {
            wsb_appendn(&b, line, len);
        }
        line += len;
    }
    char *out = wa_strdup(a, b.buf ? b.buf : "");
    wsb_free(&b);
    return out;
}

/* Replace the '<abstract>' connector option of a DDL with `with`. */
static char *rewrite_ddl(WArena *a, const char *ddl, const char *with)
{
    const char *m = strstr(ddl, "'connector' = '<abstract>'");
    if (!m) return NULL;
    return wa_sprintf(a, "%.*s%s%s", (int)(m - ddl), ddl, with, m + strlen("'connector' = '<abstract>'"));
}

typedef struct Lines { int n; char **v; } Lines;

static void lines_add(Lines *l, const char *s, size_t n)
{
    l->v = wrealloc(l->v, sizeof(char *) * (size_t)(l->n + 1));
    l->v[l->n] = wmalloc(n + 1);
    memcpy(l->v[l->n], s, n);
    l->v[l->n][n] = 0;
    l->n++;
}

static void lines_free(Lines *l)
{
    for (int i = 0; i < l->n; i++) free(l->v[i]);
    free(l->v);
    l->n = 0;
    l->v = NULL;
}

static void lines_from_text(Lines *l, const char *t)
{
    while (t && *t) {
        const char *nl = strchr(t, '\n');
        size_t n = nl ? (size_t)(nl - t) : strlen(t);
        if (n) lines_add(l, t, n);
        t = nl ? nl + 1 : t + n;
    }
}

static int cmp_line(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Apply a changelog to a materialized table. pk: sink has a primary key (upsert by the key prefix
   of the printed row is not derivable from text; use whole-row retraction and, for +U of keyed
   sinks, replace the row with the same key columns). */
static void materialize(const Lines *log, Lines *out, int nkey_cols)
{
    for (int i = 0; i < log->n; i++) {
        const char *l = log->v[i];
        if (strlen(l) < 3) continue;
        const char *body = l + 2;       /* "[...]" */
        bool add = l[0] == '+';
        if (nkey_cols > 0) {
            /* key = first nkey_cols fields of the body (the runner only uses leading keys) */
            int commas = 0;
            size_t klen = 0;
            for (size_t k = 1; body[k]; k++) {
                if (body[k] == ',' || body[k] == ']') {
                    if (++commas == nkey_cols) { klen = k; break; }
                }
            }
            for (int j = 0; j < out->n; j++) {
                if (strncmp(out->v[j] + 2, body, klen) == 0 &&
                    (out->v[j][2 + klen] == ',' || out->v[j][2 + klen] == ']')) {
                    free(out->v[j]);
                    out->v[j] = out->v[--out->n];
                    break;
                }
            }
            if (add) {
                char *s = wmalloc(strlen(body) + 3);
                sprintf(s, "+I%s", body);
                out->v = wrealloc(out->v, sizeof(char *) * (size_t)(out->n + 1));
                out->v[out->n++] = s;
            }
            continue;
        }
        if (add) {
            char *s = wmalloc(strlen(body) + 3);
            sprintf(s, "+I%s", body);
            out->v = wrealloc(out->v, sizeof(char *) * (size_t)(out->n + 1));
            out->v[out->n++] = s;
        } else {
            for (int j = 0; j < out->n; j++) {
                if (strcmp(out->v[j] + 2, body) == 0) {
                    free(out->v[j]);
                    out->v[j] = out->v[--out->n];
                    break;
                }
            }
        }
    }
}

static bool same_multiset(Lines *a, Lines *b)
{
    if (a->n != b->n) return false;
    wqsort(a->v, (size_t)a->n, sizeof(char *), cmp_line);
    wqsort(b->v, (size_t)b->n, sizeof(char *), cmp_line);
    for (int i = 0; i < a->n; i++) if (strcmp(a->v[i], b->v[i]) != 0) return false;
    return true;
}

static void print_diff(FILE *out, const char *sink, Lines *want, Lines *got)
{
    fprintf(out, "  sink %s: expected %d rows, got %d\n", sink, want->n, got->n);
    int i = 0, j = 0;
    while (i < want->n || j < got->n) {
        int c = i >= want->n ? 1 : j >= got->n ? -1 : strcmp(want->v[i], got->v[j]);
        if (c == 0) { i++; j++; continue; }
        if (c < 0) fprintf(out, "  - %s\n", want->v[i++]);
        else fprintf(out, "  + %s\n", got->v[j++]);
    }
}

static int count_pk_cols(const char *ddl)
{
    /* "PRIMARY KEY (a, b)": count names; the runner assumes the key columns lead the schema */
    const char *p = strcasestr(ddl, "PRIMARY KEY");
    if (!p) return 0;
    p = strchr(p, '(');
    if (!p) return 0;
    int n = 1;
    for (p++; *p && *p != ')'; p++) if (*p == ',') n++;
    return n;
}

static bool pk_leads(const char *ddl, int npk)
{
    /* check that the PK columns are the first columns declared */
    const char *pk = strcasestr(ddl, "PRIMARY KEY");
    const char *open = strchr(ddl, '(');
    if (!pk || !open) return false;
    const char *names = strchr(pk, '(');
    for (int i = 0; i < npk; i++) {
        while (*names && !isalnum((unsigned char)*names) && *names != '_' && *names != '`') names++;
        const char *ne = names;
        while (*ne && *ne != ',' && *ne != ')') ne++;
        char col[128];
        snprintf(col, sizeof col, "%.*s", (int)(ne - names), names);
        char *c = trim(col);
        if (*c == '`') { c++; c[strlen(c) - 1] = 0; }
        /* i-th declared column */
        const char *q = open + 1;
        for (int k = 0; k < i; k++) {
            int depth = 0;
            while (*q && !(depth == 0 && *q == ',')) { if (*q == '(') depth++; if (*q == ')') depth--; q++; }
            if (*q) q++;
        }
        while (isspace((unsigned char)*q)) q++;
        if (*q == '`') q++;
        if (strncmp(q, c, strlen(c)) != 0) return false;
        names = *ne ? ne + 1 : ne;
    }
    return true;
}

typedef struct RunOut { char *text; size_t len; } RunOut;

/* Which rows a run reads. RUN_ALL: every row in one run (semantic harness). RUN_PHASE1: rows and
   rows-before-restore only (the first run of the phased harness). RUN_BEFORE_SAVEPOINT /
   RUN_AFTER_SAVEPOINT: the restore harness — the first run reads rows-before-restore and stops
   with a savepoint without draining (as Flink's RestoreTestBase stops its unbounded source); the
   second restores from it, and rows-after-restore arrive as a new file in the source directory,
   which the restored source reads after the one it had finished. */
typedef enum RunKind { RUN_ALL, RUN_PHASE1, RUN_BEFORE_SAVEPOINT, RUN_AFTER_SAVEPOINT } RunKind;

/* The savepoint directory the first run of the restore harness wrote under dir/savepoints. */
static char *find_savepoint(WArena *a, const char *dir)
{
    char *sp = wa_sprintf(a, "%s/savepoints", dir);
    DIR *d = opendir(sp);
    if (!d) return NULL;
    char *found = NULL;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, "savepoint-", 10) == 0) found = wa_sprintf(a, "%s/%s", sp, e->d_name);
    closedir(d);
    return found;
}

/* The sinks stand in for Flink's values test sink, which supports overwrite and in a streaming
   job writes an INSERT OVERWRITE as an INSERT INTO (the sink-overwrite case); weir's print sink does
   not support overwrite (as Flink's print), so the statement is run as the INSERT INTO it amounts to. */
static void values_sink_overwrite(char *stmt)
{
    char *p = stmt;
    while (isspace((unsigned char)*p)) p++;
    if (strncasecmp(p, "INSERT", 6) != 0 || !isspace((unsigned char)p[6])) return;
    char *q = p + 6;
    while (isspace((unsigned char)*q)) q++;
    if (strncasecmp(q, "OVERWRITE", 9) == 0 && isspace((unsigned char)q[9])) memcpy(q, "INTO     ", 9);
}

/* One field of a case row (FORMAT.md §4): quoted or bare; *quoted says which. Returns the field
   (arena copy, quotes undone) and advances *pp past it and its comma; NULL at the end. */
static char *next_field(WArena *a, const char **pp, bool *quoted)
{
    const char *p = *pp;
    if (!p) return NULL;
    WStrBuf b;
    wsb_init(&b);
    *quoted = *p == '"';
    if (*quoted) {
        for (p++; *p; p++) {
            if (*p == '"' && p[1] == '"') { wsb_putc(&b, '"'); p++; continue; }
            if (*p == '"') { p++; break; }
            wsb_putc(&b, *p);
        }
    } else {
        while (*p && *p != ',') wsb_putc(&b, *p++);
    }
    *pp = *p == ',' ? p + 1 : NULL;
    char *r = wa_strdup(a, b.buf ? b.buf : "");
    wsb_free(&b);
    return r;
}

static char *sql_quote(WArena *a, const char *v)
{
    WStrBuf b;
    wsb_init(&b);
    wsb_putc(&b, '\'');
    for (const char *p = v; *p; p++) {
        if (*p == '\'') wsb_putc(&b, '\'');
        wsb_putc(&b, *p);
    }
    wsb_putc(&b, '\'');
    char *r = wa_strdup(a, b.buf);
    wsb_free(&b);
    return r;
}

/* Rows with composite literals (`@sql:ROW(...)`, `@sql:MAP[...]`) cannot be written as CSV: the
   source `name` reads JSON from `path` instead, and weir itself writes that JSON from the case's
   rows — a table LIKE the source (its physical columns) with the json format at the same path,
   filled by INSERT ... SELECT .. UNION ALL SELECT .. where each composite field is its SQL literal
   and each other field its text, CAST to the column's type (from DESCRIBE) and a bare NULL a typed NULL. Only
   insert-only rows can be fed this way (+I); anything else is an error naming the row. */
static bool feed_composite_rows(WArena *a, WSession *s, const char *name, const char *path, const char *rows,
                                WError *err)
{
    WStmtResult res;
    const char *feed = wa_sprintf(a, "__weir_feed_%s", name);
    bool ok = wsession_execute(s, wa_sprintf(a, "CREATE TEMPORARY TABLE `%s` WITH ('connector' = 'filesystem', "
                                                "'path' = '%s', 'format' = 'json') LIKE `%s` (EXCLUDING ALL)",
                                             feed, path, name), NULL, &res, err);
    wstmt_result_free(&res);
    if (!ok) return false;
    ok = wsession_execute(s, wa_sprintf(a, "DESCRIBE `%s`", feed), NULL, &res, err);
    if (!ok) { wstmt_result_free(&res); return false; }
    int ncols = res.nrows;
    const char **types = WA_ARRAY(a, const char *, ncols ? ncols : 1);
    for (int i = 0; i < ncols; i++) {
        const char *t = res.cells[i * res.ncols + 1];
        bool nullable = res.ncols > 2 && res.cells[i * res.ncols + 2] &&
                        strcasecmp(res.cells[i * res.ncols + 2], "FALSE") != 0;
        types[i] = wa_sprintf(a, "%s%s", t ? t : "STRING", nullable ? "" : " NOT NULL");
    }
    wstmt_result_free(&res);
    WStrBuf sql;
    wsb_init(&sql);
    wsb_printf(&sql, "INSERT INTO `%s` ", feed);
    int nrows = 0;
    for (const char *t = rows; t && *t;) {
        const char *nl = strchr(t, '\n');
        char *line = wa_strndup(a, t, nl ? (size_t)(nl - t) : strlen(t));
        t = nl ? nl + 1 : NULL;
        if (!*trim(line)) continue;
        const char *p = line;
        bool q;
        char *kind = next_field(a, &p, &q);
        if (!kind || strcmp(kind, "+I") != 0) {
            werr_set(err, WEXC_TABLE, "source %s: rows with composite literals must be insert-only (+I): %s", name, line);
            wsb_free(&sql);
            return false;
        }
        wsb_append(&sql, nrows++ ? " UNION ALL SELECT " : "SELECT ");
        for (int c = 0; c < ncols; c++) {
            char *v = next_field(a, &p, &q);
            if (!v) {
                werr_set(err, WEXC_TABLE, "source %s: the row has fewer than %d fields: %s", name, ncols, line);
                wsb_free(&sql);
                return false;
            }
            if (c) wsb_append(&sql, ", ");
            if (!q && strcmp(v, "NULL") == 0) wsb_printf(&sql, "CAST(NULL AS %s)", types[c]);
            else if (strncmp(v, "@sql:", 5) == 0) wsb_printf(&sql, "CAST(%s AS %s)", v + 5, types[c]);
            else wsb_printf(&sql, "CAST(%s AS %s)", sql_quote(a, v), types[c]);
        }
    }
    ok = nrows == 0 || wsession_execute(s, sql.buf, NULL, &res, err);
    if (nrows) wstmt_result_free(&res);
    wsb_free(&sql);
    return ok;
}

/* Run the case once with the given source rows; print output captured in *printed. */
/* Processing time under the runner's control (as Flink's harness tests drive a manual
   processing-time service): a case whose results depend on processing time (it requires
   `proctime`, or it keeps state with a TTL) runs on a MANUAL clock. Each run (phase) starts at
   a time of its own, every row of the run is processed at that instant, and once the run's input
   is read the clock advances by CLOCK_INPUT_END_STEP_MS, which closes every processing-time
   window and session of the cases (5 s to 10 s) before the input ends or the savepoint is taken;
   the run after a restore starts CLOCK_PHASE_GAP_MS after the first, so that a state TTL or
   a processing-time interval of the first run (1 s, 5 s) has passed — the waits of Flink's own
   tests (RestoreTestBase: each phase's rows arrive together, the restore comes later). */
#define CLOCK_START_MS 1602288000000LL          /* 2020-10-10T00:00:00Z, aligned to any window */
#define CLOCK_INPUT_END_STEP_MS 60000LL
#define CLOCK_PHASE_GAP_MS 3600000LL

static bool case_reads_proc_time(const Case *c)
{
    for (int i = 0; i < c->nrequires; i++)
        if (strcmp(c->requires[i], "proctime") == 0) return true;
    for (int i = 0; i < c->nconfig; i++)
        if (strncmp(c->config[i], "table.exec.state.ttl=", 21) == 0) return true;
    return c->sql && strcasestr(c->sql, "STATE_TTL");
}

static bool run_once(WArena *a, Case *c, const char *dir, RunKind kind, WProcClock *clock, RunOut *printed,
                     WError *err)
{
    FILE *cap = open_memstream(&printed->text, &printed->len);
    WSession *s = wsession_new(cap);
    if (clock) wsession_set_proc_clock(s, clock);
    WStmtResult res;
    bool ok = true;
    /* WEIR_CONFORMANCE_PARALLELISM runs the case with more subtasks (results compare as multisets) */
    const char *par = getenv("WEIR_CONFORMANCE_PARALLELISM");
    char par_sql[96];
    /* (a manual clock steps once the whole input is processed: one subtask) */
    snprintf(par_sql, sizeof par_sql, "SET 'parallelism.default' = '%d'", par && atoi(par) > 0 && !clock ? atoi(par) : 1);
    /* WEIR_CONFORMANCE_BACKEND runs it on another state backend (hashmap by default) */
    const char *be = getenv("WEIR_CONFORMANCE_BACKEND");
    char be_sql[96];
    snprintf(be_sql, sizeof be_sql, "SET 'state.backend.type' = '%.40s'", be && *be ? be : "hashmap");
    const char *sp_sql1 = NULL, *sp_sql2 = NULL;
    if (kind == RUN_BEFORE_SAVEPOINT) {
        sp_sql1 = wa_sprintf(a, "SET 'weir.exec.savepoint-at-end' = '%s/savepoints'", dir);
        sp_sql2 = "SET 'weir.exec.savepoint-at-end.drain' = 'false'";
    } else if (kind == RUN_AFTER_SAVEPOINT) {
        const char *sp = find_savepoint(a, dir);
        if (!sp) return werr_set(err, WEXC_IO, "the first run wrote no savepoint under %s/savepoints", dir);
        sp_sql1 = wa_sprintf(a, "SET 'execution.savepoint.path' = '%s'", sp);
    }
    /* the corpus's programs (Flink's SinkTestPrograms & co. at the case's provenance commit) predate
       Flink 2.3's FLIP-558, whose default refuses a query whose upsert key the sink's primary key
       does not contain unless it says ON CONFLICT; their expected rows are the legacy
       SinkUpsertMaterializer's, which table.exec.sink.require-on-conflict = false runs */
    const char *setup[] = {"SET 'weir.exec.chunk-rows' = '1'", "SET 'table.exec.sink.require-on-conflict' = 'false'",
                           par_sql, be_sql, sp_sql1, sp_sql2, NULL};
    for (int i = 0; setup[i] && ok; i++) {
        ok = wsession_execute(s, setup[i], NULL, &res, err);
        wstmt_result_free(&res);
    }
    for (int i = 0; i < c->nconfig && ok; i++) {
        char *eq = strchr(c->config[i], '=');
        if (!eq) continue;
        /* a remark after the value: "state.backend.type=rocksdb (StateBackendOptions.STATE_BACKEND)" */
        char *remark = strstr(eq, " (");
        int vlen = remark ? (int)(remark - eq - 1) : (int)strlen(eq + 1);
        char *sql = wa_sprintf(a, "SET '%.*s' = '%.*s'", (int)(eq - c->config[i]), c->config[i], vlen, eq + 1);
        ok = wsession_execute(s, sql, NULL, &res, err);
        wstmt_result_free(&res);
    }
    for (int i = 0; i < c->nobjs && ok; i++) {
        CObj *o = &c->objs[i];
        char *with;
        if (o->is_sink) {
            /* Flink's values test sink: with a primary key an upsert sink unless the case
               enforced a changelog mode; without one it takes every kind */
            const char *mode = o->mode ? o->mode : strcasestr(o->ddl, "PRIMARY KEY") ? "I,UA,D" : "I,UB,UA,D";
            with = wa_sprintf(a, "'connector' = 'print', 'print-identifier' = '%s', 'sink.changelog-mode' = '%s'",
                              o->name, mode);
            if (o->writable_metadata) o->ddl = metadata_as_physical(a, o->ddl, o->writable_metadata);
        } else {
            /* the source is a directory: 1.csv holds the first run's rows, 2.csv the rows that
               arrive after the savepoint */
            char *path = wa_sprintf(a, "%s/%s", dir, o->name);
            mkdir(path, 0777);
            if (o->rows && strstr(o->rows, "@sql:")) {
                if (kind != RUN_ALL || o->rows_before || o->rows_after || (o->mode && strcmp(o->mode, "I") != 0)) {
                    werr_set(err, WEXC_TABLE, "source %s: composite literals (@sql:) are fed only to an "
                             "insert-only source read in one run", o->name);
                    ok = false;
                    break;
                }
                char *ddl = rewrite_ddl(a, o->ddl, wa_sprintf(a, "'connector' = 'filesystem', 'path' = '%s', "
                                                             "'format' = 'json'", path));
                if (!ddl) { werr_set(err, WEXC_TABLE, "case DDL of %s has no '<abstract>' connector", o->name); ok = false; break; }
                ok = wsession_execute(s, ddl, NULL, &res, err);
                wstmt_result_free(&res);
                if (ok) ok = feed_composite_rows(a, s, o->name, path, o->rows, err);
                continue;
            }
            char *file = wa_sprintf(a, "%s/%d.csv", path, kind == RUN_AFTER_SAVEPOINT ? 2 : 1);
            FILE *f = fopen(file, "w");
            if (!f) { werr_set(err, WEXC_IO, "cannot write %s: %s", file, strerror(errno)); ok = false; break; }
            if (kind != RUN_AFTER_SAVEPOINT) {
                if (o->rows) fputs(o->rows, f);
                if (o->rows_before) fputs(o->rows_before, f);
            }
            if (o->rows_after && (kind == RUN_ALL || kind == RUN_AFTER_SAVEPOINT)) fputs(o->rows_after, f);
            fclose(f);
            /* a source without a declared changelog mode is insert-only (FORMAT.md §3) */
            with = wa_sprintf(a, "'connector' = 'filesystem', 'path' = '%s', 'format' = 'changelog-csv', "
                              "'changelog-csv.changelog-mode' = '%s'", path, o->mode ? o->mode : "I");
        }
        char *ddl = rewrite_ddl(a, o->ddl, with);
        if (!ddl) { werr_set(err, WEXC_TABLE, "case DDL of %s has no '<abstract>' connector", o->name); ok = false; break; }
        ok = wsession_execute(s, ddl, NULL, &res, err);
        wstmt_result_free(&res);
    }
    if (ok) {
        WSqlPiece *pieces;
        int n = wsql_split(a, c->sql, &pieces);
        for (int i = 0; i < n && ok; i++) {
            char *stmt = wa_strndup(a, pieces[i].text, (size_t)pieces[i].len);
            values_sink_overwrite(stmt);
            ok = wsession_execute(s, stmt, NULL, &res, err);
            wstmt_result_free(&res);
        }
    }
    wsession_free(s);
    fclose(cap);
    return ok;
}

static void collect_sink(const RunOut *printed, const char *sink, Lines *got)
{
    size_t plen = strlen(sink);
    const char *t = printed->text;
    while (t && *t) {
        const char *nl = strchr(t, '\n');
        size_t n = nl ? (size_t)(nl - t) : strlen(t);
        if (n > plen + 2 && strncmp(t, sink, plen) == 0) {
            /* "sink> row", "sink:3> row" from subtask 3 of a parallel sink, "sink:b=2> row" (and
               "sink:b=2:3> row") for a static partition b = 2 */
            size_t k = plen;
            if (t[k] == ':') while (k < n && !(t[k] == '>' && k + 1 < n && t[k + 1] == ' ')) k++;
            if (k + 2 <= n && t[k] == '>' && t[k + 1] == ' ') lines_add(got, t + k + 2, n - k - 2);
        }
        t = nl ? nl + 1 : t + n;
    }
}

int wconformance_run(const char *case_path, FILE *out, int verbose)
{
    FILE *f = fopen(case_path, "r");
    if (!f) { fprintf(out, "FAIL %s: cannot open: %s\n", case_path, strerror(errno)); return WCONF_FAIL; }
    WStrBuf text;
    wsb_init(&text);
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) wsb_appendn(&text, buf, n);
    fclose(f);
    WArena *a = warena_new(0);
    Case c;
    int rc = WCONF_PASS;
    if (!parse_case(a, text.buf, &c)) {
        fprintf(out, "FAIL %s: malformed case file\n", case_path);
        rc = WCONF_FAIL;
        goto done;
    }
    bool manual_clock = case_reads_proc_time(&c);
    for (int i = 0; i < c.nrequires; i++) {
        if (strcmp(c.requires[i], "proctime") == 0) continue;   /* runs on the manual clock */
        if (strcmp(c.requires[i], "metadata-column") == 0) {
            /* a sink's writable metadata is emulated (metadata_as_physical); other metadata is not */
            bool emulated = false;
            for (int k = 0; k < c.nobjs; k++) emulated |= c.objs[k].is_sink && c.objs[k].writable_metadata;
            if (emulated) continue;
        }
        fprintf(out, "SKIP %s: requires %s\n", c.name, c.requires[i]);
        rc = WCONF_SKIP;
        goto done;
    }
    /* Cases whose expected output Flink itself does not reproduce exactly (mini-batch
       boundaries, ties), or that depend on a savepoint between phases, still run: an error fails
       them, but differing output only skips them, with the reason. Processing time is not such a
       reason: the manual clock reproduces it (a state TTL across the restore included). */
    const char *tolerant = NULL;
    if (c.deterministic && strncmp(c.deterministic, "yes", 3) != 0 &&
        !(manual_clock && (strstr(c.deterministic, "processing time") || strstr(c.deterministic, "wall clock"))))
        tolerant = c.deterministic;
    if (c.restore_sensitive && strncmp(c.restore_sensitive, "yes", 3) == 0 &&
        !(manual_clock && strstr(c.restore_sensitive, "TTL")))
        tolerant = c.restore_sensitive;
    char tmpl[] = "/tmp/weir-conf-XXXXXX";
    const char *tmpdir = getenv("TMPDIR");
    char dirbuf[512];
    snprintf(dirbuf, sizeof dirbuf, "%s/weir-conf-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    char *dir = mkdtemp(dirbuf);
    if (!dir) dir = mkdtemp(tmpl);
    if (!dir) { fprintf(out, "FAIL %s: cannot create a temp dir\n", c.name); rc = WCONF_FAIL; goto done; }
    bool per_phase = c.compare && strcmp(c.compare, "materialized-per-phase") == 0;
    bool materialized = c.compare && strncmp(c.compare, "materialized", 12) == 0;
    bool restore = c.harness && strcmp(c.harness, "restore") == 0 && !per_phase;
    /* runs: the phased harness checks the table after phase 1 and after both; the restore harness
       checks the changes before the savepoint, then all changes of both runs (as RestoreTestBase) */
    RunKind runs[2];
    int nruns = 1;
    runs[0] = RUN_ALL;
    if (per_phase) { runs[0] = RUN_PHASE1; runs[1] = RUN_ALL; nruns = 2; }
    if (restore) { runs[0] = RUN_BEFORE_SAVEPOINT; runs[1] = RUN_AFTER_SAVEPOINT; nruns = 2; }
    RunOut all = {0};
    FILE *allf = open_memstream(&all.text, &all.len);
    for (int ph = 0; ph < nruns && rc == WCONF_PASS; ph++) {
        RunOut printed = {0};
        WError err;
        werr_clear(&err);
        WProcClock clock;
        if (manual_clock)
            wproc_clock_init_manual(&clock, CLOCK_START_MS + ph * CLOCK_PHASE_GAP_MS, CLOCK_INPUT_END_STEP_MS);
        if (!run_once(a, &c, dir, runs[ph], manual_clock ? &clock : NULL, &printed, &err)) {
            fprintf(out, "FAIL %s: %s%s: %s\n", c.name, runs[ph] == RUN_AFTER_SAVEPOINT ? "after the restore: " : "",
                    err.cls, err.msg);
            rc = WCONF_FAIL;
            free(printed.text);
            break;
        }
        if (printed.text) fputs(printed.text, allf);
        fflush(allf);
        /* what this run is checked against: NULL = nothing yet */
        const RunOut *check = &printed;
        int which = per_phase ? (ph == 0 ? 1 : 2) : 0;   /* 0: everything, 1: before, 2: after */
        bool mat = materialized;
        if (restore && ph == 0) {
            which = 1;
            if (materialized) check = NULL;     /* a table is only checked at the end */
        } else if (restore) {
            check = &all;
        }
        for (int i = 0; check && i < c.nobjs; i++) {
            CObj *o = &c.objs[i];
            if (!o->is_sink) continue;
            Lines got = {0}, want = {0};
            collect_sink(check, o->name, &got);
            if (which == 1) lines_from_text(&want, o->exp_before);
            else if (which == 2) lines_from_text(&want, o->exp_after);
            else {
                lines_from_text(&want, o->exp);
                lines_from_text(&want, o->exp_before);
                lines_from_text(&want, o->exp_after);
            }
            /* With several subtasks the order of changes across keys differs (as in Flink), so
               the final (materialized) tables are compared instead of the raw changelogs. */
            const char *pe = getenv("WEIR_CONFORMANCE_PARALLELISM");
            bool parallel = pe && atoi(pe) > 1;
            if (mat || parallel) {
                int npk = count_pk_cols(o->ddl);
                if (npk && !pk_leads(o->ddl, npk)) npk = 0;
                Lines m = {0};
                materialize(&got, &m, npk);
                lines_free(&got);
                got = m;
                if (!mat) {
                    Lines wm = {0};
                    materialize(&want, &wm, npk);
                    lines_free(&want);
                    want = wm;
                }
            }
            if (!same_multiset(&want, &got)) {
                const char *when = restore && ph == 0 ? " before the savepoint" : "";
                if (tolerant) {
                    if (rc == WCONF_PASS)
                        fprintf(out, "SKIP %s: output differs%s where Flink's own is not reproducible (%s)\n",
                                c.name, when, tolerant);
                    if (verbose) print_diff(out, o->name, &want, &got);
                    if (rc == WCONF_PASS) rc = WCONF_SKIP;
                } else {
                    if (rc != WCONF_FAIL) fprintf(out, "FAIL %s: output differs%s\n", c.name, when);
                    print_diff(out, o->name, &want, &got);
                    rc = WCONF_FAIL;
                }
            }
            lines_free(&got);
            lines_free(&want);
        }
        if (verbose) fprintf(out, "--- printed output ---\n%s", printed.text ? printed.text : "");
        free(printed.text);
    }
    fclose(allf);
    free(all.text);
    for (int i = 0; i < c.nobjs; i++) {
        char *path = wa_sprintf(a, "%s/%s", dir, c.objs[i].name);
        wsnap_rmtree(path);
    }
    wsnap_rmtree(wa_sprintf(a, "%s/savepoints", dir));
    rmdir(dir);
    if (rc == WCONF_PASS) fprintf(out, "PASS %s\n", c.name);
done:
    warena_delete(a);
    wsb_free(&text);
    return rc;
}
