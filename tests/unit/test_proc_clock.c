/* test_proc_clock.c — a job's processing-time source (common/proc_clock.h): the wall clock, the
   step clock, the manual clock that only its driver moves (never backwards), and a job run on a
   manual clock: PROCTIME() reads it, a processing-time window closes at its at-input-end step
   (before a savepoint taken at the end of the input, which keeps it open without the step), a
   job of several subtasks refuses it. */
#include "unit.h"
#include "../../src/common/proc_clock.h"
#include "../../src/session/session.h"
#include "../../src/state/snapshot.h"

#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

WTEST(proc_clock_wall_reads_the_system_clock)
{
    WProcClock c;
    wproc_clock_init_wall(&c);
    CHECK(!wproc_clock_is_simulated(&c));
    CHECK(!wproc_clock_is_simulated(NULL));
    int64_t before = wproc_wall_ms();
    int64_t now = wproc_clock_now(&c);
    int64_t after = wproc_wall_ms();
    CHECK(before <= now && now <= after);
    CHECK(before > 1600000000000LL);           /* ms since the epoch, after 2020 */
    CHECK(wproc_clock_fn(&c) >= now);
    wproc_clock_on_chunk(&c);                  /* no effect on the wall clock */
}

WTEST(proc_clock_manual_moves_only_when_told)
{
    WProcClock c;
    wproc_clock_init_manual(&c, 1000, 60000);
    CHECK(wproc_clock_is_simulated(&c));
    CHECK_INT(wproc_clock_now(&c), 1000);
    wproc_clock_on_chunk(&c);                  /* chunks do not move a manual clock */
    CHECK_INT(wproc_clock_now(&c), 1000);
    wproc_clock_advance(&c, 5);
    CHECK_INT(wproc_clock_now(&c), 1005);
    wproc_clock_advance_to(&c, 1003);          /* never backwards */
    CHECK_INT(wproc_clock_now(&c), 1005);
    wproc_clock_advance_to(&c, 2000);
    CHECK_INT(wproc_clock_fn(&c), 2000);
    CHECK_INT(c.at_input_end_ms, 60000);
}

WTEST(proc_clock_step_advances_per_chunk)
{
    WProcClock c;
    wproc_clock_init_step(&c, 500, 10);
    CHECK_INT(wproc_clock_now(&c), 500);
    wproc_clock_on_chunk(&c);
    wproc_clock_on_chunk(&c);
    CHECK_INT(wproc_clock_now(&c), 520);
    wproc_clock_advance_to(&c, 900);
    CHECK_INT(wproc_clock_now(&c), 900);
    wproc_clock_resume(&c, 300);               /* restored: the checkpoint's time, even an earlier one */
    CHECK_INT(wproc_clock_now(&c), 300);
}

/* Run the statements of sql (separated by ";\n") in a session on clock (NULL = wall clock);
   returns what the print sinks printed (heap), or NULL with *err set. */
static char *run(WProcClock *clock, const char *const *sql, WError *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    WSession *s = wsession_new(out);
    if (clock) wsession_set_proc_clock(s, clock);
    bool ok = true;
    for (int i = 0; sql[i] && ok; i++) {
        WStmtResult res;
        ok = wsession_execute(s, sql[i], NULL, &res, err);
        wstmt_result_free(&res);
    }
    wsession_free(s);
    fclose(out);
    if (!ok) { free(text); return NULL; }
    return text;
}

static const char *setup_source(char *dir, size_t n)
{
    snprintf(dir, n, "/tmp/weir-unit-clock-XXXXXX");
    if (!mkdtemp(dir)) return NULL;
    char file[300];
    snprintf(file, sizeof file, "%s/1.csv", dir);
    FILE *f = fopen(file, "w");
    if (!f) return NULL;
    fputs("a,1\nb,2\na,3\n", f);
    fclose(f);
    return dir;
}

static void cleanup(const char *dir)
{
    char file[300];
    snprintf(file, sizeof file, "%s/1.csv", dir);
    unlink(file);
    rmdir(dir);
}

WTEST(proc_clock_drives_a_job)
{
    char dir[64];
    if (!setup_source(dir, sizeof dir)) { CHECK(!"temp dir"); return; }
    char src[512];
    snprintf(src, sizeof src, "CREATE TABLE t (k STRING, v INT, p AS PROCTIME()) WITH ('connector' = 'filesystem', "
             "'path' = '%s', 'format' = 'csv')", dir);
    const char *proj[] = {"SET 'table.local-time-zone' = 'UTC'", src,
                          "CREATE TABLE o (k STRING, p TIMESTAMP_LTZ(3)) WITH ('connector' = 'print', 'print-identifier' = 'o')",
                          "INSERT INTO o SELECT k, p FROM t", NULL};
    const char *win[] = {"SET 'table.local-time-zone' = 'UTC'", src,
                         "CREATE TABLE o (k STRING, c BIGINT, s INT, ws TIMESTAMP(3)) WITH ('connector' = 'print', 'print-identifier' = 'o')",
                         "INSERT INTO o SELECT k, COUNT(*), SUM(v), TUMBLE_START(p, INTERVAL '5' SECOND) FROM t "
                         "GROUP BY k, TUMBLE(p, INTERVAL '5' SECOND)", NULL};
    WError err;
    WProcClock c;
    /* PROCTIME() is the manual clock's time: 2020-10-10T00:00:00Z */
    wproc_clock_init_manual(&c, 1602288000000LL, 0);
    werr_clear(&err);
    char *got = run(&c, proj, &err);
    CHECK_STR(got, "o> +I[a, 2020-10-10T00:00:00Z]\no> +I[b, 2020-10-10T00:00:00Z]\no> +I[a, 2020-10-10T00:00:00Z]\n");
    free(got);
    /* the window closes at the clock's at-input-end step: one pane per key, starting at the clock */
    wproc_clock_init_manual(&c, 1602288001000LL, 60000);
    werr_clear(&err);
    got = run(&c, win, &err);
    CHECK_STR(got, "o> +I[a, 2, 4, 2020-10-10T00:00]\no> +I[b, 1, 2, 2020-10-10T00:00]\n");
    free(got);
    CHECK_INT(wproc_clock_now(&c), 1602288061000LL);
    /* without that step the window fires only at the end of the input (weir fires the open
       processing-time windows then: docs/user-guide.md), with the same rows */
    wproc_clock_init_manual(&c, 1602288001000LL, 0);
    werr_clear(&err);
    got = run(&c, win, &err);
    CHECK_STR(got, "o> +I[a, 2, 4, 2020-10-10T00:00]\no> +I[b, 1, 2, 2020-10-10T00:00]\n");
    free(got);
    CHECK_INT(wproc_clock_now(&c), 1602288001000LL);
    /* a job that stops with a savepoint at the end of its input (no drain) keeps its windows:
       only the step closes them first, as the waiting of Flink's restore tests does */
    char sp[300];
    snprintf(sp, sizeof sp, "SET 'weir.exec.savepoint-at-end' = '%s-sp'", dir);   /* not under the source's directory */
    const char *stop[] = {sp, "SET 'weir.exec.savepoint-at-end.drain' = 'false'", win[0], win[1], win[2], win[3], NULL};
    wproc_clock_init_manual(&c, 1602288001000LL, 0);
    werr_clear(&err);
    got = run(&c, stop, &err);
    CHECK_STR(got, "");
    free(got);
    wproc_clock_init_manual(&c, 1602288001000LL, 60000);
    werr_clear(&err);
    got = run(&c, stop, &err);
    CHECK_STR(got, "o> +I[a, 2, 4, 2020-10-10T00:00]\no> +I[b, 1, 2, 2020-10-10T00:00]\n");
    free(got);
    snprintf(sp, sizeof sp, "%s-sp", dir);
    wsnap_rmtree(sp);
    /* a manual clock steps once the whole input is processed: one subtask only */
    const char *par[] = {"SET 'parallelism.default' = '2'", src,
                         "CREATE TABLE o (k STRING) WITH ('connector' = 'print')", "INSERT INTO o SELECT k FROM t", NULL};
    wproc_clock_init_manual(&c, 0, 0);
    werr_clear(&err);
    got = run(&c, par, &err);
    CHECK(got == NULL);
    CHECK(err.set && strstr(err.msg, "manual processing-time clock runs a job of one subtask only"));
    free(got);
    cleanup(dir);
}
