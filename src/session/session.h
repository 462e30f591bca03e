/*
 * session.h — one SQL session: the catalog, the configuration (SET/RESET) and the statements run
 * in it. This is the engine's front door for the SQL client and the REST server.
 *
 * Contract: wsession_execute runs one statement's text and reports what happened through a
 * WStmtResult (messages, a result table such as SHOW/DESCRIBE output, EXPLAIN text) or, for
 * queries, through the caller's WResultSink as rows arrive. It never prints by itself (except
 * what print sinks write to spec->out). Errors come back in WError with Flink's exception class.
 * Depends on everything below it (sql, catalog, plan, explain, runtime, connectors).
 */
#ifndef WEIR_SESSION_SESSION_H
#define WEIR_SESSION_SESSION_H

#include <stdbool.h>
#include <stdio.h>
#include "../types/type.h"
#include "../types/chunk.h"
#include "../types/datetime.h"
#include "../common/options.h"
#include "../common/arena.h"
#include "../common/error.h"
#include "../common/proc_clock.h"

typedef struct WSession WSession;
typedef struct WJob WJob;

/* Runs submitted INSERT jobs somewhere else than inline (the cluster runs them in the background).
   submit takes ownership of the job and of the arena its plan lives in: it must call wjob_run,
   then wjob_free(job) and warena_delete(arena). name is pipeline.name or Flink's default
   (insert-into_<sink>). config is the session configuration at submission (copy what is kept). */
typedef struct WJobExecutor {
    void *ctx;
    void (*submit)(void *ctx, const char *job_id, const char *job_name, WJob *job, WArena *arena,
                   const WOptions *config);
    /* Optional (NULL = none): jobs the session runs itself — queries (job_id and job_name NULL)
       and INSERTs under table.dml-sync — are reported before wjob_run (begin = true) and after it
       returned (begin = false, ok = its result). The job stays valid until the second call
       returns; the observer may wjob_cancel it from another thread meanwhile. */
    void (*observe)(void *ctx, const char *job_id, const char *job_name, WJob *job, const WOptions *config,
                    bool begin, bool ok);
    /* Optional (NULL = none): EXPLAIN PLAN_ADVICE with 'weir.insight.advice-job' = <job id> asks
       for advice from that job's running figures (docs/insight.md), per exec node id of the
       explained plan: add(actx, kind, text) for each. Returns false when the job is not known
       (node_id 0 only asks that). */
    bool (*advise)(void *ctx, const char *job_id, int node_id, void (*add)(void *actx, const char *kind, const char *text),
                   void *actx);
} WJobExecutor;

/* Receives a query's result as it is produced. */
typedef struct WResultSink {
    void *ctx;
    /* Called once before any row: the result schema. */
    void (*open)(void *ctx, int ncols, const char *const *names, const WType *const *types);
    /* Called per chunk of changes (row kinds in c->kinds). Return false to cancel the query. */
    bool (*rows)(void *ctx, const WChunk *c);
    /* Called once at the end (ok = false when the query failed; the error is returned too). */
    void (*close)(void *ctx, bool ok);
    /* Optional: an INSERT / statement set job was accepted and is about to run (sync = it runs
       to completion before wsession_execute returns under table.dml-sync). A client prints
       Flink's submission lines here, before any output the job itself produces. */
    void (*submitted)(void *ctx, const char *job_id, bool sync);
} WResultSink;

typedef enum WStmtResultKind {
    WSR_OK,             /* "[INFO] Execute statement succeeded." (after "[WARNING] <message>" when
                           `message` is set: SET of an option weir does not apply) */
    WSR_MESSAGE,        /* info lines in `message` (e.g. RESET wording), printed as [INFO] lines */
    WSR_TABLE,          /* a result table (SHOW, DESCRIBE, SET listing): printed as a batch tableau */
    WSR_TEXT,           /* EXPLAIN text: the client prints it as a one-cell table `result` */
    WSR_QUERY_DONE,     /* a SELECT whose rows went to the result sink */
    WSR_JOB_SUBMITTED,  /* an INSERT / statement set: job id in job_id (already announced through
                           WResultSink.submitted when the sink has that callback) */
    WSR_JOB_COMPLETED,  /* an INSERT run synchronously under table.dml-sync */
    WSR_QUIT
} WStmtResultKind;

typedef struct WStmtResult {
    WStmtResultKind kind;
    char *message;              /* WSR_MESSAGE / WSR_TEXT / WSR_OK warning (heap) */
    char job_id[33];            /* WSR_JOB_SUBMITTED */
    bool job_built;             /* a job was planned and built (then announced), even if it failed running */
    /* WSR_TABLE: rows of strings, already rendered */
    int ncols, nrows;
    char **col_names;           /* heap */
    char **cells;               /* nrows * ncols heap strings; NULL cell = <NULL> */
    bool empty_as_empty_set;    /* print "Empty set" for 0 rows (SHOW); else header only */
} WStmtResult;

void wstmt_result_free(WStmtResult *r);

/* Create a session. `print_out` is where print sinks write (stdout for the embedded client). */
WSession *wsession_new(FILE *print_out);
void wsession_free(WSession *s);

/* Open the catalog store the session's configuration names (table.catalog-store.kind = file and
   table.catalog-store.file.path) and create the catalogs kept there. Call once, after the start
   configuration (cluster configuration, -D options, session properties) is set, as Flink builds
   its catalog manager when the session starts; a later SET of these keys changes nothing. */
bool wsession_open_catalog_store(WSession *s, WError *err);

/* Run one statement (text without or with the trailing ';'). */
bool wsession_execute(WSession *s, const char *sql, WResultSink *sink, WStmtResult *res, WError *err);

/* With an executor, asynchronous INSERTs (table.dml-sync = false) are handed to it. */
void wsession_set_executor(WSession *s, WJobExecutor *ex);
/* The processing-time clock of the jobs this session runs in its own thread (a MANUAL clock,
   common/proc_clock.h, owned by the caller: the conformance runner); NULL = the wall clock.
   Not reachable from SQL: no statement sets it. */
void wsession_set_proc_clock(WSession *s, WProcClock *clock);

/* Configuration visible to the client (result mode, runtime mode, max column width, time zone). */
/* The completion candidates for the cursor at `position` (UTF-16 units) in sql, as Flink's SQL
   gateway answers complete-statement (completion.c): their count (arena strings in *out), or -1 with
   err set where Flink's answer is an error. */
int wsession_complete(WSession *s, WArena *a, const char *sql, int position, char ***out, WError *err);
const WOptions *wsession_config(const WSession *s);
const char *wsession_get(const WSession *s, const char *key, const char *dflt);
const WTimeZone *wsession_time_zone(const WSession *s);
bool wsession_is_batch(const WSession *s);
/* sql-client: "-v" / sql-client.verbose: operator state/metrics report after each job. */
void wsession_set_verbose(WSession *s, bool on);
/* Last statement's job report (metrics per operator), or NULL. Heap string owned by session. */
const char *wsession_last_job_report(const WSession *s);

#endif
