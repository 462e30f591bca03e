/*
 * session.c — statement execution for the SQL client and the REST server: parse, bind, plan,
 * run; DDL against the catalog; SET/RESET; SHOW/DESCRIBE tables. See session.h.
 */
#include "session.h"
#include "../plan/table_factory.h"
#include "../common/sort.h"
#include "show_create.h"
#include "session_internal.h"
#include "session_options.h"
#include "../sql/parser.h"
#include "../catalog/catalog.h"
#include "../plan/plan.h"
#include "../runtime/job.h"
#include "../explain/explain.h"
#include "job_graph_check.h"
#include "../expr/functions.h"
#include "../types/format.h"
#include "../types/compare.h"
#include "../common/strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct WSession {
    WCatalog catalog;
    WOptions config;
    FILE *print_out;
    WTimeZone *tz;
    char *tz_id;
    bool verbose;
    char *last_report;
    uint64_t rng;
    /* BEGIN STATEMENT SET ... END */
    bool in_set;
    int nset;
    char **set_sql;
    WJobExecutor *executor;
    WProcClock *proc_clock;         /* wsession_set_proc_clock (tests); NULL = wall clock */
    int exec_node_ids;      /* the last ExecNode id handed out in this session (WPlanCtx) */
};

void wsession_set_executor(WSession *s, WJobExecutor *ex) { s->executor = ex; }
void wsession_set_proc_clock(WSession *s, WProcClock *clock) { s->proc_clock = clock; }

/* Deprecated option keys that Flink still accepts, and the key they set. (Flink 2.3 no longer reads
   sql-client.display.max-column-width: SET accepts it like any key, and it changes nothing.) */
static const char *canonical_key(const char *key)
{
    static const char *const ALIASES[][2] = {
        {"state.backend", "state.backend.type"},
        {"execution.checkpointing.externalized-checkpoint-retention", "execution.checkpointing.externalized-checkpoint-retention"},
        {"state.checkpoints.dir", "execution.checkpointing.dir"},
        {NULL, NULL},
    };
    for (int i = 0; ALIASES[i][0]; i++)
        if (strcmp(key, ALIASES[i][0]) == 0) return ALIASES[i][1];
    return key;
}

static uint64_t next_rand(WSession *s)
{
    uint64_t x = s->rng += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

WSession *wsession_new(FILE *print_out)
{
    WSession *s = wcalloc(1, sizeof *s);
    wcatalog_init(&s->catalog);
    wopts_init(&s->config);
    s->print_out = print_out ? print_out : stdout;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    s->rng = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40);
    return s;
}

void wsession_free(WSession *s)
{
    if (!s) return;
    wcatalog_free(&s->catalog);
    wopts_free(&s->config);
    wtz_free(s->tz);
    free(s->tz_id);
    free(s->last_report);
    for (int i = 0; i < s->nset; i++) free(s->set_sql[i]);
    free(s->set_sql);
    free(s);
}

void wstmt_result_free(WStmtResult *r)
{
    if (!r) return;
    free(r->message);
    for (int i = 0; i < r->ncols; i++) free(r->col_names[i]);
    free(r->col_names);
    for (int i = 0; i < r->nrows * r->ncols; i++) free(r->cells[i]);
    free(r->cells);
    memset(r, 0, sizeof *r);
}

const WOptions *wsession_config(const WSession *s) { return &s->config; }

const char *wsession_get(const WSession *s, const char *key, const char *dflt)
{
    return wopts_get_or(&s->config, key, dflt);
}

static const char *system_zone(void)
{
    const char *tz = getenv("TZ");
    if (tz && *tz) return tz[0] == ':' ? tz + 1 : tz;
    static const char *const FILES[] = {"/etc/timezone", NULL};
    for (int i = 0; FILES[i]; i++) {
        FILE *f = fopen(FILES[i], "r");
        if (!f) continue;
        static _Thread_local char buf[128];
        if (fgets(buf, sizeof buf, f)) {
            buf[strcspn(buf, "\r\n ")] = 0;
            fclose(f);
            if (buf[0]) return buf;
        }
        fclose(f);
    }
    return "UTC";
}

/* Resolve table.local-time-zone (reloading when it changed). */
static const WTimeZone *session_tz(WSession *s, WError *err)
{
    const char *id = wopts_get_or(&s->config, "table.local-time-zone", "default");
    if (strcmp(id, "default") == 0) id = system_zone();
    if (s->tz && s->tz_id && strcmp(s->tz_id, id) == 0) return s->tz;
    WTimeZone *tz = wtz_load(id, err);
    if (!tz) return NULL;
    wtz_free(s->tz);
    free(s->tz_id);
    s->tz = tz;
    s->tz_id = wstrdup(id);
    return tz;
}

const WTimeZone *wsession_time_zone(const WSession *s)
{
    WError e;
    werr_clear(&e);
    return session_tz((WSession *)s, &e);
}

bool wsession_is_batch(const WSession *s)
{
    const char *m = wopts_get_or(&s->config, "execution.runtime-mode", "streaming");
    return strcasecmp(m, "batch") == 0;
}

void wsession_set_verbose(WSession *s, bool on) { s->verbose = on; }
const char *wsession_last_job_report(const WSession *s) { return s->last_report; }

/* ---- result tables ---- */

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* CREATE TABLE ... LIKE: the base table's definition (its SHOW CREATE TABLE text, parsed again) merged
   with the statement (wbind_merge_like). */
static AstStmt *like_merged(WSession *s, WPlanCtx *p, AstStmt *st, WArena *a, WError *err)
{
    WTable *bt = wcatalog_lookup(&s->catalog, &st->like_table);
    if (!bt) {
        WStrBuf nm;
        wsb_init(&nm);
        for (int i = 0; i < st->like_table.n; i++) wsb_printf(&nm, "%s%s", i ? "." : "", st->like_table.parts[i]);
        werr_set(err, WEXC_VALIDATION, "Source table '%s' of the LIKE clause not found in the catalog, at line %d, column %d",
                 nm.buf, st->like_table.pos.line, st->like_table.pos.col);
        wsb_free(&nm);
        return NULL;
    }
    if (bt->is_view) {
        werr_set(err, WEXC_VALIDATION, "Source table '%s' of the LIKE clause can not be a VIEW, at line %d, column %d",
                 bt->name, st->like_table.pos.line, st->like_table.pos.col);
        return NULL;
    }
    WStrBuf ddl;
    wsb_init(&ddl);
    AstStmt *base = wshow_create_table(bt, &ddl, err) ? wsql_parse_statement(a, ddl.buf, err) : NULL;
    wsb_free(&ddl);
    if (!base) return NULL;
    return wbind_merge_like(p, st, base);
}

static bool exec_show(WSession *s, AstStmt *st, WStmtResult *res, WError *err)
{
    switch (st->show) {
    case ASH_CREATE_TABLE:
    case ASH_CREATE_VIEW: {
        bool view = st->show == ASH_CREATE_VIEW;
        WTable *t = wcatalog_lookup(&s->catalog, &st->target);
        WObjectId id;
        if (!wcatalog_resolve(&s->catalog, &st->target, &id, err)) return false;
        if (!t)
            return werr_set(err, WEXC_VALIDATION,
                            "Could not execute SHOW CREATE %s. %s with identifier `%s`.`%s`.`%s` does not exist.",
                            view ? "VIEW" : "TABLE", view ? "View" : "Table", id.catalog, id.database, id.object);
        if (view && !t->is_view)
            return werr_set(err, WEXC_TABLE,
                            "SHOW CREATE VIEW is only supported for views, but `%s`.`%s`.`%s` is a table. Please use "
                            "SHOW CREATE TABLE instead.", t->catalog, t->database, t->name);
        WStrBuf ddl;
        wsb_init(&ddl);
        if (view ? !wsession_show_create_view(&s->catalog, t, &ddl, err) : !wshow_create_table(t, &ddl, err)) {
            wsb_free(&ddl);
            return false;
        }
        const char *c[1] = {"result"};
        wres_table(res, 1, c);
        const char *cell[1] = {ddl.buf};
        wres_row(res, cell);
        wsb_free(&ddl);
        return true;
    }
    default:
        return werr_set(err, WEXC_TABLE, "This SHOW statement is not supported yet.");
    }
}

static bool not_supported(WError *err, const char *what)
{
    return werr_set(err, WEXC_TABLE, "%s is not supported yet in weir.", what);
}

static bool plan_ctx(WSession *s, WPlanCtx *p, WArena *a, WCastCtx *cast, WError *err);

/* ALTER TABLE t RENAME TO u / SET ('k' = 'v') / RESET ('k') / schema changes (alter_table.c). */
static bool exec_alter_table(WSession *s, AstStmt *st, WArena *a, WStmtResult *res, WError *err)
{
    WObjectId id;
    if (!wcatalog_resolve(&s->catalog, &st->target, &id, err)) return false;
    WTable *t = wcatalog_find_permanent(&s->catalog, &id);
    if (!t) {
        if (st->if_exists) { res->kind = WSR_OK; return true; }
        return werr_set(err, WEXC_VALIDATION, "Table `%s`.`%s`.`%s` doesn't exist or is a temporary table.",
                        id.catalog, id.database, id.object);
    }
    if (t->is_view) return werr_set(err, WEXC_VALIDATION, "ALTER TABLE for a view is not allowed");
    switch (st->alter_kind) {
    case AAL_RENAME: {
        if (wcatalog_lookup(&s->catalog, &st->rename_to)) {
            char *qn = wcatalog_qualified(a, &s->catalog, &st->rename_to);
            return werr_set(err, WEXC_VALIDATION, "Could not execute ALTER TABLE %s RENAME TO %s",
                            wcatalog_qualified(a, &s->catalog, &st->target), qn);
        }
        t->name = wa_strdup(t->arena, st->rename_to.parts[st->rename_to.n - 1]);
        break;
    }
    case AAL_SET_OPTIONS:
        for (int i = 0; i < st->noptions; i++) wopts_set(&t->options, st->options[i].key, st->options[i].value);
        break;
    case AAL_RESET_OPTIONS:
        for (int i = 0; i < st->noptions; i++) {
            if (strcmp(st->options[i].key, "connector") == 0)
                return werr_set(err, WEXC_VALIDATION, "ALTER TABLE RESET does not support changing 'connector'");
            wopts_remove(&t->options, st->options[i].key);
        }
        break;
    case AAL_ADD:
    case AAL_MODIFY:
    case AAL_DROP_COLUMNS:
    case AAL_DROP_PRIMARY_KEY:
    case AAL_DROP_WATERMARK:
    case AAL_RENAME_COLUMN: {
        WPlanCtx p;
        WCastCtx cast;
        if (!plan_ctx(s, &p, a, &cast, err)) return false;
        if (!wsession_alter_table_schema(&s->catalog, &p, t, st, err)) return false;
        break;
    }
    default:
        return not_supported(err, "This ALTER TABLE statement");
    }
    res->kind = WSR_OK;
    return true;
}

/* ---- running plans ---- */

/* Delivers a query's rows to the client. In batch mode (execution.runtime-mode = batch) the
   result is final: changes are applied (a retraction removes an equal earlier row) and the
   remaining rows are delivered as inserts when the query ends, as Flink's batch execution
   produces them. */
typedef struct CollectBridge {
    WResultSink *sink;
    bool batch;
    int nchunks;
    WChunk **chunks;            /* batch: collected rows (kinds: +I live, -D removed) */
} CollectBridge;

static bool rows_equal(const WChunk *a, int ra, const WChunk *b, int rb)
{
    for (int c = 0; c < a->ncols; c++) {
        bool na = a->cols[c].nulls[ra], nb = b->cols[c].nulls[rb];
        if (na != nb) return false;
        if (!na && !wdatum_equal(a->types[c], a->cols[c].data[ra], b->cols[c].data[rb])) return false;
    }
    return true;
}

static bool collect_rows(void *ctx, const WChunk *c)
{
    CollectBridge *b = ctx;
    if (!b->batch) return b->sink && b->sink->rows ? b->sink->rows(b->sink->ctx, c) : true;
    for (int r = 0; r < c->nrows; r++) {
        if (c->kinds[r] == WRK_UPDATE_BEFORE || c->kinds[r] == WRK_DELETE) {
            bool done = false;
            for (int k = b->nchunks - 1; k >= 0 && !done; k--) {
                WChunk *h = b->chunks[k];
                for (int i = h->nrows - 1; i >= 0; i--) {
                    if (h->kinds[i] == WRK_INSERT && rows_equal(h, i, c, r)) {
                        h->kinds[i] = WRK_DELETE;
                        done = true;
                        break;
                    }
                }
            }
            continue;
        }
        WChunk *h = b->nchunks ? b->chunks[b->nchunks - 1] : NULL;
        if (!h || h->nrows == h->cap) {
            h = wchunk_new(c->ncols, c->types, WCHUNK_CAP);
            b->chunks = wrealloc(b->chunks, sizeof(WChunk *) * (size_t)(b->nchunks + 1));
            b->chunks[b->nchunks++] = h;
        }
        int i = wchunk_append_row(h, c, r);
        h->kinds[i] = WRK_INSERT;
    }
    return true;
}

/* Batch: hand the final rows to the client, then drop them. */
static void collect_flush(CollectBridge *b, bool deliver)
{
    for (int k = 0; k < b->nchunks; k++) {
        WChunk *h = b->chunks[k];
        if (deliver && b->sink && b->sink->rows) {
            uint8_t sel[WCHUNK_CAP];
            int live = 0;
            for (int i = 0; i < h->nrows; i++) live += sel[i] = h->kinds[i] == WRK_INSERT;
            if (live == h->nrows) {
                b->sink->rows(b->sink->ctx, h);
            } else if (live) {
                WChunk *o = wchunk_new(h->ncols, h->types, live);
                for (int i = 0; i < h->nrows; i++) if (sel[i]) wchunk_append_row(o, h, i);
                b->sink->rows(b->sink->ctx, o);
                wchunk_free(o);
            }
        }
        wchunk_free(h);
    }
    free(b->chunks);
    b->chunks = NULL;
    b->nchunks = 0;
}

static void new_job_id(WSession *s, char out[33])
{
    uint64_t a = next_rand(s), b = next_rand(s);
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
}

/* Plan and run (or hand to the executor: *handed_over is then set, and the arena belongs to it). */
typedef struct Announce { WResultSink *sink; const char *job_id; bool sync; bool *built; } Announce;
static bool run_built(WSession *s, WPlanCtx *p, WRel **roots, int n, WResultSink *sink, WError *err,
                      const char *job_id, const char *job_name, bool *handed_over, const Announce *an);

static bool run_roots(WSession *s, WPlanCtx *p, WRel **roots, int n, WResultSink *sink, WError *err,
                      const char *job_id, const char *job_name, bool *handed_over)
{
    if (!wplan_build(p, roots, n)) return false;
    wexplain_take_exec_node_ids(p, roots, n);
    return run_built(s, p, roots, n, sink, err, job_id, job_name, handed_over, NULL);
}

/* Run finalised roots (from the SQL, or read back by EXECUTE PLAN). an (may be NULL): the job is
   announced as submitted once it is built — connector options are validated before, as Flink
   validates them while planning. */
static bool run_built(WSession *s, WPlanCtx *p, WRel **roots, int n, WResultSink *sink, WError *err,
                      const char *job_id, const char *job_name, bool *handed_over, const Announce *an)
{
    /* a plan read back (EXECUTE PLAN) takes the session's ExecNode ids as one planned here */
    bool numbered = false;
    for (int i = 0; i < n && !numbered; i++) numbered = roots[i]->exec_id > 0;
    if (!numbered) wexplain_take_exec_node_ids(p, roots, n);
    CollectBridge bridge = {.sink = sink, .batch = wsession_is_batch(s)};
    WJobEnv env = {.config = &s->config, .cast = p->cast, .print_out = s->print_out,
                   .collect = {&bridge, collect_rows}, .err = err, .job_id = job_id,
                   .proc_clock = s->proc_clock};
    WJob *job = wjob_build(p, roots, n, &env);
    if (!job) return false;
    if (wjob_graph_check_enabled()) {       /* the test runner's check (job_graph_check.h) */
        WStrBuf diff;
        wsb_init(&diff);
        bool same = wjob_graph_check(p, roots, n, job, &diff);
        if (!same) {
            fprintf(stderr, "weir: job graph check: %s", diff.buf);
            werr_set(err, WEXC_TABLE, "The job that runs differs from its EXPLAIN (WEIR_CHECK_JOB_GRAPH).");
        }
        wsb_free(&diff);
        if (!same) {
            wjob_free(job);
            return false;
        }
    }
    if (an && an->built) *an->built = true;
    if (an && an->sink && an->sink->submitted) an->sink->submitted(an->sink->ctx, an->job_id, an->sync);
    if (handed_over && s->executor) {
        s->executor->submit(s->executor->ctx, job_id, job_name, job, p->arena, &s->config);
        *handed_over = true;
        return true;
    }
    if (sink && sink->open) {
        WRel *r = roots[0];
        sink->open(sink->ctx, r->out.n, r->out.names, r->out.types);
    }
    bool observed = s->executor && s->executor->observe;
    if (observed) s->executor->observe(s->executor->ctx, job_id, job_name, job, &s->config, true, true);
    bool ok = wjob_run(job);
    if (observed) s->executor->observe(s->executor->ctx, job_id, job_name, job, &s->config, false, ok);
    if (!ok && err && !err->set) *err = *wjob_error(job);
    collect_flush(&bridge, ok);
    if (s->verbose || ok) {
        WStrBuf rep;
        wsb_init(&rep);
        wjob_report(job, &rep);
        free(s->last_report);
        s->last_report = wsb_detach(&rep);
    }
    wjob_free(job);
    if (sink && sink->close) sink->close(sink->ctx, ok);
    return ok;
}

static bool plan_ctx(WSession *s, WPlanCtx *p, WArena *a, WCastCtx *cast, WError *err)
{
    memset(p, 0, sizeof *p);
    p->arena = a;
    p->catalog = &s->catalog;
    p->config = &s->config;
    p->err = err;
    p->exec_node_ids = &s->exec_node_ids;
    p->node_digests = wexplain_node_digests;   /* sub-plan reuse compares explain's digests */
    memset(cast, 0, sizeof *cast);
    cast->tz = session_tz(s, err);
    if (!cast->tz) return false;
    p->cast = cast;
    return true;
}

WCatalog *wsession_catalog(WSession *s) { return &s->catalog; }

bool wsession_plan_ctx(WSession *s, WPlanCtx *p, WArena *a, WCastCtx *cast, WError *err)
{
    return plan_ctx(s, p, a, cast, err);
}

/* INSERT / STATEMENT SET / (COMPILE AND) EXECUTE PLAN: plan (unless planned), build, announce the
   job id, then run it here (table.dml-sync) or hand it to the executor. */
static bool submit_insert(WSession *s, WPlanCtx *p, WRel **roots, int n, bool planned, WArena *a,
                          WResultSink *sink, WStmtResult *res, WError *err, bool *handed_over)
{
    if (!planned) {
        if (!wplan_build(p, roots, n)) return false;
        wexplain_take_exec_node_ids(p, roots, n);
    }
    res->kind = WSR_JOB_SUBMITTED;
    new_job_id(s, res->job_id);
    bool sync = false;
    WError tmp;
    werr_clear(&tmp);
    wopts_get_bool(&s->config, "table.dml-sync", false, &sync, &tmp);
    const char *name = wopts_get(&s->config, "pipeline.name");
    if (!name) name = wa_sprintf(a, "insert-into_%s", wrel_sink(roots[0])->qname ? wrel_sink(roots[0])->qname : "sink");
    Announce an = {sink, res->job_id, sync, &res->job_built};
    if (!run_built(s, p, roots, n, NULL, err, res->job_id, name, sync ? NULL : handed_over, &an)) return false;
    if (sync) res->kind = WSR_JOB_COMPLETED;
    return true;
}

static bool exec_statement_set(WSession *s, int n, AstStmt **stmts, WArena *a, WResultSink *sink,
                               WStmtResult *res, WError *err, bool *handed_over)
{
    WPlanCtx p;
    WCastCtx cast;
    if (!plan_ctx(s, &p, a, &cast, err)) return false;
    WRel **roots = WA_ARRAY(a, WRel *, n ? n : 1);
    for (int i = 0; i < n; i++) {
        if (stmts[i]->kind != AS_INSERT)
            return werr_set(err, WEXC_GATEWAY,
                            "Only 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set or use 'END' "
                            "statement to submit Statement Set.");
        roots[i] = wbind_insert(&p, stmts[i]);
        if (!roots[i]) return false;
    }
    if (n == 0) return werr_set(err, WEXC_TABLE, "No statement to execute in the statement set.");
    return submit_insert(s, &p, roots, n, false, a, sink, res, err, handed_over);
}


/* Bind the statement an EXPLAIN / COMPILE PLAN is about: a query, an INSERT or a statement set.
   Returns the number of roots (sinks, or the query itself), -1 on error. */
static int bind_roots(WSession *s, WPlanCtx *p, AstStmt *st, WRel ***roots, WError *err)
{
    WArena *a = p->arena;
    if (st->kind == AS_QUERY) {
        WRel *r = wbind_select(p, st);
        if (!r) return -1;
        *roots = WA_ARRAY(a, WRel *, 1);
        (*roots)[0] = r;
        return 1;
    }
    if (st->kind == AS_INSERT) {
        WRel *r = wbind_insert(p, st);
        if (!r) return -1;
        *roots = WA_ARRAY(a, WRel *, 1);
        (*roots)[0] = r;
        return 1;
    }
    if (st->kind == AS_STATEMENT_SET || st->kind == AS_EXECUTE) {
        AstStmt *set = st->kind == AS_EXECUTE ? st->inner : st;
        if (set && set->kind == AS_INSERT) return bind_roots(s, p, set, roots, err);
        if (!set || set->kind != AS_STATEMENT_SET) {
            werr_set(err, WEXC_TABLE, "This statement cannot be explained.");
            return -1;
        }
        *roots = WA_ARRAY(a, WRel *, set->nstmts ? set->nstmts : 1);
        for (int i = 0; i < set->nstmts; i++) {
            if (set->stmts[i]->kind != AS_INSERT) {
                werr_set(err, WEXC_GATEWAY, "Only 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set.");
                return -1;
            }
            (*roots)[i] = wbind_insert(p, set->stmts[i]);
            if (!(*roots)[i]) return -1;
        }
        return set->nstmts;
    }
    werr_set(err, WEXC_TABLE, "This statement cannot be explained.");
    return -1;
}

typedef struct SessionAdvisor { WSession *s; const char *job; } SessionAdvisor;

static void session_advise(void *ctx, int node_id, WExplainAddAdvice add, void *actx)
{
    SessionAdvisor *sa = ctx;
    sa->s->executor->advise(sa->s->executor->ctx, sa->job, node_id, add, actx);
}

static bool exec_explain(WSession *s, AstStmt *st, WArena *a, WStmtResult *res, WError *err)
{
    WPlanCtx p;
    WCastCtx cast;
    if (!plan_ctx(s, &p, a, &cast, err)) return false;
    p.explain = true;
    WRel **ast = NULL, **roots = NULL;
    /* bound twice: once as the user wrote it (AST section), once to optimise */
    int n = bind_roots(s, &p, st->inner, &ast, err);
    if (n < 0) return false;
    if (bind_roots(s, &p, st->inner, &roots, err) != n) return false;
    if (!wplan_build(&p, roots, n)) return false;
    /* weir.insight.advice-job: PLAN_ADVICE also says what a running job's figures show */
    const char *advice_job = wopts_get(&s->config, "weir.insight.advice-job");
    SessionAdvisor sa = {.s = s, .job = advice_job};
    WExplainAdvisor adv = {.ctx = &sa, .advise = session_advise};
    bool advised = advice_job && advice_job[0] && (st->explain_details & AX_PLAN_ADVICE);
    if (advised) {
        if (!s->executor || !s->executor->advise)
            return werr_set(err, WEXC_TABLE, "'weir.insight.advice-job' needs a weir cluster: the figures of job %s are "
                            "kept by the cluster that runs it (start one with 'weir cluster start').", advice_job);
        if (!s->executor->advise(s->executor->ctx, advice_job, 0, NULL, NULL))
            return werr_set(err, WEXC_TABLE, "Job %s of 'weir.insight.advice-job' is not known to this cluster.", advice_job);
    }
    WStrBuf out;
    wsb_init(&out);
    if (!wexplain_text_advised(&p, ast, roots, n, st->explain_details, advised ? &adv : NULL, &out)) {
        wsb_free(&out);
        return false;
    }
    res->kind = WSR_TEXT;
    res->message = wsb_detach(&out);
    return true;
}

/* 'file:///x/y.json' or '/x/y.json' -> local path; NULL for other schemes. */
static const char *local_path(const char *uri)
{
    if (!strncmp(uri, "file://", 7)) return uri + 7;
    if (!strncmp(uri, "file:", 5)) return uri + 5;
    if (strstr(uri, "://")) return NULL;
    return uri;
}

static bool exec_compile_plan(WSession *s, AstStmt *st, WArena *a, WResultSink *sink, WStmtResult *res,
                              WError *err, bool *handed_over)
{
    const char *path = local_path(st->plan_file);
    if (!path) return werr_set(err, WEXC_TABLE, "Unsupported file system scheme in '%s'; only local files are supported.",
                               st->plan_file);
    bool force = false;
    WError tmp;
    werr_clear(&tmp);
    wopts_get_bool(&s->config, "table.plan.force-recompile", false, &force, &tmp);
    if (access(path, F_OK) == 0 && !force) {
        if (st->if_not_exists && st->kind == AS_COMPILE_PLAN) { res->kind = WSR_OK; return true; }
        if (!st->if_not_exists)
            return werr_set(err, WEXC_TABLE,
                            "Cannot overwrite the plan file '%s'. Either manually remove the file or, if you're "
                            "debugging your job, set the option 'table.plan.force-recompile' to true.",
                            st->plan_file);
    }
    WPlanCtx p;
    WCastCtx cast;
    if (!plan_ctx(s, &p, a, &cast, err)) return false;
    WRel **roots = NULL;
    int n = bind_roots(s, &p, st->inner, &roots, err);
    if (n < 0) return false;
    if (!wplan_build(&p, roots, n)) return false;
    bool exists = access(path, F_OK) == 0;
    if (!exists || force || st->kind == AS_COMPILE_PLAN) {
        WStrBuf out;
        wsb_init(&out);
        if (!wexplain_compiled_plan(&p, roots, n, &out)) { wsb_free(&out); return false; }
        FILE *f = fopen(path, "w");
        if (!f || fwrite(out.buf, 1, out.len, f) != out.len) {
            if (f) fclose(f);
            wsb_free(&out);
            return werr_set(err, WEXC_IO, "Cannot write the plan file '%s': %s", path, strerror(errno));
        }
        fclose(f);
        wsb_free(&out);
    }
    if (st->kind == AS_COMPILE_PLAN) { res->kind = WSR_OK; return true; }
    /* COMPILE AND EXECUTE: run what was compiled */
    return submit_insert(s, &p, roots, n, true, a, sink, res, err, handed_over);
}

static bool exec_execute_plan(WSession *s, AstStmt *st, WArena *a, WResultSink *sink, WStmtResult *res,
                              WError *err, bool *handed_over)
{
    const char *path = local_path(st->plan_file);
    if (!path) return werr_set(err, WEXC_TABLE, "Unsupported file system scheme in '%s'.", st->plan_file);
    FILE *f = fopen(path, "r");
    if (!f) return werr_set(err, WEXC_IO, "Cannot read the plan file '%s': %s", st->plan_file, strerror(errno));
    WStrBuf json;
    wsb_init(&json);
    char buf[65536];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0) wsb_appendn(&json, buf, k);
    fclose(f);
    WPlanCtx p;
    WCastCtx cast;
    if (!plan_ctx(s, &p, a, &cast, err)) { wsb_free(&json); return false; }
    WRel **roots = NULL;
    int n = wplan_from_json(&p, json.buf ? json.buf : "", &roots);
    wsb_free(&json);
    if (n < 0) return false;
    /* Flink's EXECUTE PLAN creates the plan's table sources and sinks through the same factories
       (their options validated, sources first) before anything is built */
    if (!wplan_create_tables(&p, roots, n)) return false;
    return submit_insert(s, &p, roots, n, true, a, sink, res, err, handed_over);
}

bool wsession_open_catalog_store(WSession *s, WError *err)
{
    return wcatalog_store_open(&s->catalog, wopts_get(&s->config, "table.catalog-store.kind"),
                               wopts_get(&s->config, "table.catalog-store.file.path"), err)
           && wsession_load_file_catalogs(s, err);
}

bool wsession_execute(WSession *s, const char *sql, WResultSink *sink, WStmtResult *res, WError *err)
{
    memset(res, 0, sizeof *res);
    WArena *a = warena_new(0);
    AstStmt *st = wsql_parse_statement(a, sql, err);
    if (!st) { warena_delete(a); return false; }
    bool ok = true;
    /* who owns the arena afterwards: the catalog (a table or view was created from the statement,
       which stays readable) or a job (its thread frees the arena when it ends, possibly before
       this function returns: the statement must not be read once it is handed over) */
    bool arena_to_catalog = false;
    bool arena_to_job = false;

    if (s->in_set && st->kind != AS_END && st->kind != AS_INSERT) {
        ok = werr_set(err, WEXC_GATEWAY,
                      "Only 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set or use 'END' statement "
                      "to submit Statement Set.");
        warena_delete(a);
        return ok;
    }
    WPlanCtx p;
    WCastCtx cast;
    switch (st->kind) {
    case AS_CREATE_TABLE:
    case AS_CREATE_VIEW: {
        /* a temporary object may shadow a permanent one of the same identifier: only an object of
           the same temporary-ness makes the name taken */
        WObjectId id;
        if (!wcatalog_resolve(&s->catalog, &st->target, &id, err)) { ok = false; break; }
        WTable *existing = st->temporary ? wcatalog_find_temporary(&s->catalog, &id)
                                         : wcatalog_find_permanent(&s->catalog, &id);
        if (existing) {
            if (st->if_not_exists) { res->kind = WSR_OK; break; }
            if (st->temporary)
                ok = werr_set(err, WEXC_VALIDATION, "Temporary table '`%s`.`%s`.`%s`' already exists", id.catalog,
                              id.database, id.object);
            else
                ok = werr_set(err, WEXC_VALIDATION, "Could not execute CreateTable in path `%s`.`%s`.`%s`",
                              id.catalog, id.database, id.object);
            break;
        }
        if (!plan_ctx(s, &p, a, &cast, err)) { ok = false; break; }
        if (st->kind == AS_CREATE_TABLE && st->like_table.n) {
            st = like_merged(s, &p, st, a, err);
            if (!st) { ok = false; break; }
        }
        WTable *t = st->kind == AS_CREATE_TABLE ? wbind_create_table(&p, st, a) : wbind_create_view(&p, st, a);
        if (!t) { ok = false; break; }
        if (!wcatalog_add(&s->catalog, t, err)) { wopts_free(&t->options); ok = false; break; }
        arena_to_catalog = true;
        res->kind = WSR_OK;
        if (st->kind == AS_CREATE_TABLE && st->query) {
            /* CREATE TABLE ... AS SELECT: the table exists, then the query is inserted into it as a
               job (as Flink's CTAS; a job that cannot be planned leaves no table behind) */
            AstStmt *ins = WA_NEW(a, AstStmt);
            ins->kind = AS_INSERT;
            ins->target = st->target;
            ins->query = st->query;
            WArena *ja = warena_new(0);
            bool handed = false;
            ok = exec_statement_set(s, 1, &ins, ja, sink, res, err, &handed);
            if (!handed) warena_delete(ja);
            if (!ok && !res->job_built) wcatalog_remove(&s->catalog, t);
        }
        break;
    }
    case AS_DROP_TABLE:
    case AS_DROP_VIEW:
        ok = wcatalog_drop(&s->catalog, &st->target, st->kind == AS_DROP_VIEW, st->temporary, st->if_exists, err);
        res->kind = WSR_OK;
        break;
    case AS_SHOW:
        if (wsession_is_function_statement(st)) {
            ok = wsession_function_statement(&s->catalog, st, res, err);
            break;
        }
        if (wsession_is_jar_statement(st)) {
            ok = wsession_jar_statement(st, res, err);
            break;
        }
        /* fall through */
    case AS_DESCRIBE:
    case AS_USE:
    case AS_CREATE_CATALOG:
    case AS_DROP_CATALOG:
    case AS_ALTER_CATALOG:
    case AS_DESCRIBE_CATALOG:
    case AS_CREATE_DATABASE:
    case AS_DROP_DATABASE:
    case AS_ALTER_DATABASE:
        ok = wsession_is_catalog_statement(st) ? wsession_catalog_statement(&s->catalog, st, res, err)
                                               : exec_show(s, st, res, err);
        break;
    case AS_SET:
        if (!st->key) {
            static const char *const C[] = {"key", "value"};
            wres_table(res, 2, C);
            res->empty_as_empty_set = true;
            int n = s->config.n;
            char **keys = wcalloc((size_t)n + 1, sizeof(char *));
            for (int i = 0; i < n; i++) keys[i] = s->config.items[i].key;
            wqsort(keys, (size_t)n, sizeof(char *), cmp_str);
            for (int i = 0; i < n; i++) {
                const char *cells[2] = {keys[i], wopts_get(&s->config, keys[i])};
                wres_row(res, cells);
            }
            free(keys);
        } else {
            const char *key = canonical_key(st->key), *value = st->value ? st->value : "";
            char *stored = NULL;
            if (!wsession_option_check(key, value, &stored, err)) {
                ok = false;
                break;
            }
            wopts_set(&s->config, key, stored ? stored : value);
            free(stored);
            if (strcmp(st->key, "table.local-time-zone") == 0 && !session_tz(s, err)) {
                wopts_remove(&s->config, st->key);
                ok = false;
                break;
            }
            res->kind = WSR_OK;
            /* a watched key weir does not act on: accepted as in Flink, with a warning */
            res->message = wsession_option_warning(st->key);
        }
        break;
    case AS_RESET:
        /* Flink 2.3 answers both forms with the generic "Execute statement succeeded." (the
           "Session property has been reset." wording was 1.x's) */
        if (st->key) {
            wopts_remove(&s->config, canonical_key(st->key));
        } else {
            wopts_free(&s->config);
            wopts_init(&s->config);
        }
        res->kind = WSR_OK;
        break;
    case AS_QUERY: {
        if (!plan_ctx(s, &p, a, &cast, err)) { ok = false; break; }
        WRel *root = wbind_select(&p, st);
        if (!root) { ok = false; break; }
        ok = run_roots(s, &p, &root, 1, sink, err, NULL, NULL, NULL);
        res->kind = WSR_QUERY_DONE;
        break;
    }
    case AS_INSERT: {
        if (s->in_set) {
            /* validate now, run at END */
            if (!plan_ctx(s, &p, a, &cast, err)) { ok = false; break; }
            if (!wbind_insert(&p, st)) { ok = false; break; }
            s->set_sql = wrealloc(s->set_sql, sizeof(char *) * (size_t)(s->nset + 1));
            s->set_sql[s->nset++] = wstrdup(sql);
            res->kind = WSR_OK;
            break;
        }
        AstStmt *one[1] = {st};
        ok = exec_statement_set(s, 1, one, a, sink, res, err, &arena_to_job);
        break;
    }
    case AS_BEGIN_STATEMENT_SET:
        if (s->in_set) { ok = werr_set(err, WEXC_GATEWAY, "Statement Set has already been started."); break; }
        s->in_set = true;
        res->kind = WSR_OK;
        break;
    case AS_END: {
        if (!s->in_set) {
            ok = werr_set(err, WEXC_GATEWAY,
                          "No Statement Set to submit. 'END' statement should be used after 'BEGIN STATEMENT SET'.");
            break;
        }
        s->in_set = false;
        int n = s->nset;
        AstStmt **stmts = WA_ARRAY(a, AstStmt *, n ? n : 1);
        for (int i = 0; i < n && ok; i++) {
            stmts[i] = wsql_parse_statement(a, s->set_sql[i], err);
            if (!stmts[i]) ok = false;
        }
        for (int i = 0; i < n; i++) free(s->set_sql[i]);
        free(s->set_sql);
        s->set_sql = NULL;
        s->nset = 0;
        if (ok) ok = exec_statement_set(s, n, stmts, a, sink, res, err, &arena_to_job);
        break;
    }
    case AS_STATEMENT_SET:
        ok = exec_statement_set(s, st->nstmts, st->stmts, a, sink, res, err, &arena_to_job);
        break;
    case AS_EXECUTE:
        if (st->inner && st->inner->kind == AS_INSERT) {
            AstStmt *one[1] = {st->inner};
            ok = exec_statement_set(s, 1, one, a, sink, res, err, &arena_to_job);
        } else if (st->inner && st->inner->kind == AS_STATEMENT_SET) {
            ok = exec_statement_set(s, st->inner->nstmts, st->inner->stmts, a, sink, res, err, &arena_to_job);
        } else if (st->inner && st->inner->kind == AS_QUERY) {
            if (!plan_ctx(s, &p, a, &cast, err)) { ok = false; break; }
            WRel *root = wbind_select(&p, st->inner);
            ok = root && run_roots(s, &p, &root, 1, sink, err, NULL, NULL, NULL);
            res->kind = WSR_QUERY_DONE;
        } else {
            ok = not_supported(err, "This EXECUTE statement");
        }
        break;
    case AS_QUIT:
        res->kind = WSR_QUIT;
        break;
    case AS_HELP:
        res->kind = WSR_TEXT;
        res->message = wstrdup("The following commands are available:\n\n"
                               "CLEAR\t\tClears the current terminal.\n"
                               "CREATE TABLE\t\tCreate table under current catalog and database.\n"
                               "DROP TABLE\t\tDrop table with optional catalog and database. Syntax: "
                               "'DROP TABLE [IF EXISTS] <name>;'\n"
                               "CREATE VIEW\t\tCreates a virtual table from a SQL query. Syntax: "
                               "'CREATE VIEW <name> AS <query>;'\n"
                               "DESCRIBE\t\tDescribes the schema of a table with the given name.\n"
                               "DROP VIEW\t\tDeletes a previously created virtual table. Syntax: "
                               "'DROP VIEW <name>;'\n"
                               "EXPLAIN\t\tDescribes the execution plan of a query or table with the given name.\n"
                               "HELP\t\tPrints the available commands.\n"
                               "INSERT INTO\t\tInserts the results of a SQL SELECT query into a declared table sink.\n"
                               "QUIT\t\tQuits the SQL CLI client.\n"
                               "RESET\t\tResets a session configuration property. Syntax: \"RESET '<key>';\". "
                               "Use \"RESET;\" for reset all session properties.\n"
                               "SELECT\t\tExecutes a SQL SELECT query on the Flink cluster.\n"
                               "SET\t\tSets a session configuration property. Syntax: \"SET '<key>'='<value>';\". "
                               "Use \"SET;\" for listing all properties.\n"
                               "SHOW FUNCTIONS\t\tShows all user-defined and built-in functions or only "
                               "user-defined functions. Syntax: 'SHOW [USER] FUNCTIONS;'\n"
                               "SHOW TABLES\t\tShows all registered tables.\n"
                               "BEGIN STATEMENT SET\t\tBegins a statement set. Syntax: 'BEGIN STATEMENT SET;'\n"
                               "END\t\tEnds a statement set. Syntax: 'END;'\n\n"
                               "Hint: Make sure that a statement ends with \";\" for finalizing (multi-line) "
                               "statements.\n");
        break;
    case AS_EXPLAIN: ok = exec_explain(s, st, a, res, err); break;
    case AS_COMPILE_PLAN:
    case AS_COMPILE_AND_EXECUTE: ok = exec_compile_plan(s, st, a, sink, res, err, &arena_to_job); break;
    case AS_EXECUTE_PLAN: ok = exec_execute_plan(s, st, a, sink, res, err, &arena_to_job); break;
    case AS_STOP_JOB: ok = not_supported(err, "STOP JOB (there is no running cluster job)"); break;
    case AS_ALTER_TABLE: ok = exec_alter_table(s, st, a, res, err); break;
    case AS_ALTER_VIEW:
        ok = wsession_alter_view(s, st, err);
        res->kind = WSR_OK;
        break;
    case AS_LOAD_MODULE:
    case AS_UNLOAD_MODULE:
    case AS_USE_MODULES:
    case AS_DROP_FUNCTION:
    case AS_DESCRIBE_FUNCTION:
    case AS_CREATE_FUNCTION:
        ok = wsession_function_statement(&s->catalog, st, res, err);
        break;
    case AS_ADD_JAR:
    case AS_REMOVE_JAR: ok = wsession_jar_statement(st, res, err); break;
    case AS_CLEAR: res->kind = WSR_OK; break;
    case AS_OTHER: ok = not_supported(err, st->other ? st->other : "This statement"); break;
    }
    /* only statements that change catalogs are persisted, and none of them hands its arena to a job */
    if (ok && !arena_to_job && !wsession_persist_statement(s, st, err)) {
        ok = false;
        wstmt_result_free(res);
        memset(res, 0, sizeof *res);
    }
    if (!arena_to_catalog && !arena_to_job) warena_delete(a);
    return ok;
}
