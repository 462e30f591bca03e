/*
 * gateway_internal.h — private to src/server/gateway*.c and flink_gateway.c: the SQL gateway's
 * sessions and operations (gateway.c), the statements it answers itself (gateway_jobs.c) and
 * Flink's REST protocol over them (flink_gateway.c).
 *
 * Contract: g->mu guards the session list, every Sess and Op field but the WSession (which
 * ss->run_mu serializes); functions marked (locked) are called with g->mu held. An operation runs
 * its statement in its own thread (one at a time per session) and appends its result set's rows
 * to op->events as pages {"data":[{kind, fields, text}]}; op->base is the token of events[0].
 */
#ifndef WEIR_SERVER_GATEWAY_INTERNAL_H
#define WEIR_SERVER_GATEWAY_INTERNAL_H

#include "gateway.h"
#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

#define MAX_SESSIONS 64
#define MAX_OPS_PER_SESSION 32
#define MAX_PENDING_ROWS 20000      /* unfetched rows before a query waits for its client */

enum { OP_RUNNING, OP_FINISHED, OP_ERROR, OP_CANCELED };

typedef struct Sess Sess;

typedef struct Op {
    char id[37];
    Sess *sess;
    char *stmt;
    pthread_t thread;
    bool has_thread;
    int status;
    bool cancel;
    pid_t tid;
    json_t *events;             /* pages not yet acknowledged; events[0] has token `base` */
    long base;
    long pending_rows;
    bool done;
    /* the result set: its columns, whether it is a query, its job id and kind, or the error body */
    json_t *exec_config;        /* executionConfig: the session's options for this statement */
    json_t *fcols;
    bool fquery;
    char fjob[33];
    const char *fkind;
    json_t *ferr;
    bool fserved;               /* a PAYLOAD page was answered (EOS comes after one, as in Flink) */
    int64_t start_ms;
    struct Op *next;
} Op;

struct Sess {
    char id[37];
    char name[128];             /* the open request's sessionName (the client's -s), "" = none */
    WGateway *g;
    WSession *s;
    pthread_mutex_t run_mu;     /* one statement at a time */
    int64_t last_access;
    Op *ops;
    int nops;
    int busy;                   /* requests and operation threads using the session */
    bool closing;
    int njobs;                  /* background jobs submitted from this session: its catalog must */
    char (*jobs)[33];           /* outlive them, so a closed session waits until they are freed */
};

struct WGateway {
    WRegistry *reg;
    const WClusterConfig *cfg;
    FILE *print_out;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int nsess;
    Sess *sessions[MAX_SESSIONS];
    int nzombies;               /* closed sessions waiting for their jobs */
    Sess **zombies;
    uint64_t rng;
    int64_t idle_ms;
    bool stopping;
};

extern const char *const WGW_OP_STATUS[];

int64_t wgw_now_ms(void);
bool wgw_is_uuid(const char *s);
/* (locked) */
Sess *wgw_find_session(WGateway *g, const char *id);
Op *wgw_find_op(Sess *ss, const char *id);
void wgw_cancel_op(WGateway *g, Op *op);
void wgw_close_op_locked(WGateway *g, Sess *ss, Op *op);
void wgw_close_session_locked(WGateway *g, Sess *ss);
void wgw_reap_zombies(WGateway *g);
/* POST /sessions {"properties"}: 200 {"sessionHandle"}, else a status and {"errors":[reason]}. */
int wgw_open_session(WGateway *g, json_t *body, json_t **out);
/* (locked) POST .../statements {"statement","executionConfig"}: 200 {"operationHandle"}, else a
   status and {"errors":[reason]}. */
int wgw_submit_statement(WGateway *g, Sess *ss, json_t *body, json_t **out);

/* gateway_jobs.c: SHOW JOBS and STOP JOB '<id>' [WITH SAVEPOINT] [WITH DRAIN], answered from the
   registry. True when stmt is one of them (then *ok, res / err are set). */
bool wgw_job_statement(WGateway *g, WSession *s, const char *stmt, WStmtResult *res, WError *err, bool *ok);
/* DROP / ALTER of a table, view, database or catalog: what would free definitions a job reads. */
bool wgw_changes_tables(const char *stmt);

#endif
