/*
 * test_cli.c — unit tests of the SQL client's printers (tableau widths, truncation, CJK width,
 * NULL, footers, batch widths, string tables), messages, statement accumulation and the `-f`
 * echo. Exact texts come from Flink's CliTableauResultViewTest, select.q and CliStrings.
 */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "../../src/cli/tableau.h"
#include "../../src/cli/messages.h"
#include "../../src/cli/script.h"
#include "../../src/cli/client.h"
#include "../../src/cli/args.h"
#include "../../src/types/format.h"
#include "../../src/types/datetime.h"
#include "../../src/sql/parser.h"
#include "../../src/session/session.h"
#include "../../src/common/arena.h"

/* ------------------------------------------------------------------ helpers */

typedef struct Mem { char *buf; size_t len; FILE *f; } Mem;
static void mem_open(Mem *m) { m->buf = NULL; m->len = 0; m->f = open_memstream(&m->buf, &m->len); }
static const char *mem_text(Mem *m) { fflush(m->f); return m->buf; }
static void mem_close(Mem *m) { fclose(m->f); free(m->buf); }

static WDatum S(const char *s) { WDatum d; d.s.p = s; d.s.len = (int32_t)strlen(s); return d; }

/* ------------------------------------------------------------------ widths */

WTEST(cli_type_widths_every_class)
{
    WArena a;
    warena_init(&a, 0);
    CHECK_INT(wtab_type_width(&WTYPE_TINYINT, 30), 4);
    CHECK_INT(wtab_type_width(&WTYPE_SMALLINT, 30), 6);
    CHECK_INT(wtab_type_width(&WTYPE_INT, 30), 11);
    CHECK_INT(wtab_type_width(&WTYPE_BIGINT, 30), 20);
    CHECK_INT(wtab_type_width(wtype_decimal(&a, 10, 5, true), 30), 12);
    CHECK_INT(wtab_type_width(wtype_decimal(&a, 38, 2, true), 30), 40);
    CHECK_INT(wtab_type_width(&WTYPE_BOOLEAN, 30), 5);
    CHECK_INT(wtab_type_width(&WTYPE_DATE, 30), 10);
    CHECK_INT(wtab_type_width(wtype_time(&a, 0, true), 30), 8);
    CHECK_INT(wtab_type_width(wtype_time(&a, 3, true), 30), 12);
    CHECK_INT(wtab_type_width(wtype_timestamp(&a, WT_TIMESTAMP, 0, true), 30), 19);
    CHECK_INT(wtab_type_width(wtype_timestamp(&a, WT_TIMESTAMP, 1, true), 30), 23);
    CHECK_INT(wtab_type_width(wtype_timestamp(&a, WT_TIMESTAMP, 3, true), 30), 23);
    CHECK_INT(wtab_type_width(wtype_timestamp(&a, WT_TIMESTAMP, 4, true), 30), 26);
    CHECK_INT(wtab_type_width(wtype_timestamp(&a, WT_TIMESTAMP, 6, true), 30), 26);
    CHECK_INT(wtab_type_width(wtype_timestamp(&a, WT_TIMESTAMP, 9, true), 30), 29);
    CHECK_INT(wtab_type_width(wtype_timestamp(&a, WT_TIMESTAMP_LTZ, 3, true), 30), 23);
    CHECK_INT(wtab_type_width(wtype_timestamp(&a, WT_TIMESTAMP_LTZ, 9, true), 30), 29);
    CHECK_INT(wtab_type_width(&WTYPE_STRING, 30), 30);
    CHECK_INT(wtab_type_width(&WTYPE_STRING, 10), 10);
    CHECK_INT(wtab_type_width(&WTYPE_DOUBLE, 40), 40);
    CHECK_INT(wtab_type_width(&WTYPE_BYTES, 30), 30);
    CHECK_INT(wtab_type_width(wtype_varchar(&a, 5, true), 30), 30);
    warena_free(&a);
}

WTEST(cli_widths_by_type_names_nulls_op)
{
    const char *names[] = {"b", "is_happy_flag", "a_column_name_longer_than_thirty_chars", "s"};
    const WType *types[] = {&WTYPE_BOOLEAN, &WTYPE_BOOLEAN, &WTYPE_STRING, &WTYPE_TINYINT};
    int w[5];
    wtab_widths_by_type(4, names, types, 30, false, true, w);
    CHECK_INT(w[0], 2);                 /* op */
    CHECK_INT(w[1], 6);                 /* BOOLEAN 5 -> 6 for <NULL> */
    CHECK_INT(w[2], 13);                /* name wins */
    CHECK_INT(w[3], 38);                /* name longer than max width is kept */
    CHECK_INT(w[4], 6);                 /* TINYINT 4 -> 6 */
    wtab_widths_by_type(4, names, types, 30, true, false, w);
    CHECK_INT(w[0], 5);                 /* printNullAsEmpty: no <NULL> adjustment */
    CHECK_INT(w[3], 4);
}

/* ------------------------------------------------------------------ fitting */

WTEST(cli_fit_truncation_and_alignment)
{
    WStrBuf sb;
    wsb_init(&sb);
    wtab_fit(&sb, "30b5c1bb-0ac0-43d3-b812-fcb649fd2b07", 30);
    CHECK_STR(sb.buf, "30b5c1bb-0ac0-43d3-b812-fcb...");
    wsb_clear(&sb);
    wtab_fit(&sb, "30b5c1bb-0ac0-43d3-b812-fcb649fd2b07", 10);
    CHECK_STR(sb.buf, "30b5c1b...");
    wsb_clear(&sb);
    wtab_fit(&sb, "2001-01-13 20:11:11.123", 10);
    CHECK_STR(sb.buf, "2001-01...");
    wsb_clear(&sb);
    wtab_fit(&sb, "abc", 6);
    CHECK_STR(sb.buf, "   abc");
    wsb_clear(&sb);
    wtab_fit(&sb, "", 3);
    CHECK_STR(sb.buf, "   ");
    wsb_clear(&sb);
    wtab_fit(&sb, "exactly30charactersxxxxxxxxxxx", 30);
    CHECK_STR(sb.buf, "exactly30charactersxxxxxxxxxxx");
    wsb_free(&sb);
}

WTEST(cli_fit_cjk_display_width)
{
    CHECK_INT(wtab_display_width("这是一段中文"), 12);
    CHECK_INT(wtab_display_width("abc"), 3);
    CHECK_INT(wtab_utf16_len("这是"), 2);
    WStrBuf sb;
    wsb_init(&sb);
    wtab_fit(&sb, "这是一段中文", 30);
    CHECK_STR(sb.buf, "                  这是一段中文");
    wsb_clear(&sb);
    /* 18 wide chars (36 columns) into 30: 13 chars (26) + 1 pad + "..." (CliTableauResultViewTest) */
    wtab_fit(&sb, "これは日本語をテストするための文です", 30);
    CHECK_STR(sb.buf, " これは日本語をテストするた...");
    wsb_free(&sb);
}

/* ------------------------------------------------------------------ streaming */

static WChunk *people_chunk(void)
{
    static const WType *types[] = {&WTYPE_INT, &WTYPE_BIGINT, &WTYPE_STRING, &WTYPE_BOOLEAN};
    WChunk *c = wchunk_new(4, types, 8);
    int r = wchunk_add_row(c, WRK_INSERT);
    c->cols[0].data[r] = WDATUM_I(1);
    c->cols[1].data[r] = WDATUM_I(1);
    c->cols[2].data[r] = S("Hello World");
    c->cols[3].data[r] = WDATUM_I(1);
    r = wchunk_add_row(c, WRK_UPDATE_BEFORE);
    c->cols[0].data[r] = WDATUM_I(2);
    c->cols[1].data[r] = WDATUM_I(-9223372036854775807LL - 1);
    c->cols[2].nulls[r] = 1;
    c->cols[3].data[r] = WDATUM_I(0);
    r = wchunk_add_row(c, WRK_DELETE);
    c->cols[0].nulls[r] = 1;
    c->cols[1].data[r] = WDATUM_I(3);
    c->cols[2].data[r] = S("30b5c1bb-0ac0-43d3-b812-fcb649fd2b07");
    c->cols[3].nulls[r] = 1;
    return c;
}

static const char *PEOPLE_NAMES[] = {"id", "cnt", "str", "ok"};
static const WType *PEOPLE_TYPES[] = {&WTYPE_INT, &WTYPE_BIGINT, &WTYPE_STRING, &WTYPE_BOOLEAN};

WTEST(cli_stream_rows_and_footer)
{
    Mem m;
    mem_open(&m);
    WTabStream st;
    wtab_stream_begin(&st, m.f, 4, PEOPLE_NAMES, PEOPLE_TYPES, 30, NULL);
    WChunk *c = people_chunk();
    wtab_stream_chunk(&st, c);
    wtab_stream_end(&st, "");
    wtab_stream_free(&st);
    wchunk_free(c);
    CHECK_STR(mem_text(&m),
              "+----+-------------+----------------------+--------------------------------+--------+\n"
              "| op |          id |                  cnt |                            str |     ok |\n"
              "+----+-------------+----------------------+--------------------------------+--------+\n"
              "| +I |           1 |                    1 |                    Hello World |   TRUE |\n"
              "| -U |           2 | -9223372036854775808 |                         <NULL> |  FALSE |\n"
              "| -D |      <NULL> |                    3 | 30b5c1bb-0ac0-43d3-b812-fcb... | <NULL> |\n"
              "+----+-------------+----------------------+--------------------------------+--------+\n"
              "Received a total of 3 rows\n");
    mem_close(&m);
}

WTEST(cli_stream_zero_and_one_row)
{
    const char *names[] = {"id"};
    const WType *types[] = {&WTYPE_INT};
    Mem m;
    mem_open(&m);
    WTabStream st;
    wtab_stream_begin(&st, m.f, 1, names, types, 30, NULL);
    wtab_stream_end(&st, NULL);
    wtab_stream_free(&st);
    CHECK_STR(mem_text(&m),
              "+----+-------------+\n"
              "| op |          id |\n"
              "+----+-------------+\n"
              "Received a total of 0 row\n");
    mem_close(&m);

    mem_open(&m);
    wtab_stream_begin(&st, m.f, 1, names, types, 30, NULL);
    WChunk *c = wchunk_new(1, types, 4);
    int r = wchunk_add_row(c, WRK_UPDATE_AFTER);
    c->cols[0].data[r] = WDATUM_I(-2147483648LL);
    wtab_stream_chunk(&st, c);
    wtab_stream_end(&st, " (0.01 seconds)");
    wtab_stream_free(&st);
    wchunk_free(c);
    CHECK_STR(mem_text(&m),
              "+----+-------------+\n"
              "| op |          id |\n"
              "+----+-------------+\n"
              "| +U | -2147483648 |\n"
              "+----+-------------+\n"
              "Received a total of 1 row (0.01 seconds)\n");
    mem_close(&m);
}

WTEST(cli_stream_terminated_no_border)
{
    const char *names[] = {"name"};
    const WType *types[] = {&WTYPE_STRING};
    Mem m;
    mem_open(&m);
    WTabStream st;
    wtab_stream_begin(&st, m.f, 1, names, types, 10, NULL);
    WChunk *c = wchunk_new(1, types, 4);
    for (int i = 0; i < 2; i++) {
        int r = wchunk_add_row(c, WRK_INSERT);
        c->cols[0].data[r] = S("8b012d93-6ece-48ad");
    }
    wtab_stream_chunk(&st, c);
    wtab_stream_terminated(&st, "");
    wtab_stream_free(&st);
    wchunk_free(c);
    CHECK_STR(mem_text(&m),
              "+----+------------+\n"
              "| op |       name |\n"
              "+----+------------+\n"
              "| +I | 8b012d9... |\n"
              "| +I | 8b012d9... |\n"
              "Query terminated, received a total of 2 rows\n");
    mem_close(&m);
}

/* ------------------------------------------------------------------ batch */

WTEST(cli_batch_content_widths)
{
    Mem m;
    mem_open(&m);
    WTabBatch b;
    wtab_batch_begin(&b, 4, PEOPLE_NAMES, NULL);
    WChunk *c = people_chunk();
    wtab_batch_chunk(&b, c);
    wchunk_free(c);                     /* rows are copied */
    wtab_batch_print(&b, m.f, 30, "");
    wtab_batch_free(&b);
    CHECK_STR(mem_text(&m),
              "+--------+----------------------+--------------------------------+--------+\n"
              "|     id |                  cnt |                            str |     ok |\n"
              "+--------+----------------------+--------------------------------+--------+\n"
              "|      1 |                    1 |                    Hello World |   TRUE |\n"
              "|      2 | -9223372036854775808 |                         <NULL> |  FALSE |\n"
              "| <NULL> |                    3 | 30b5c1bb-0ac0-43d3-b812-fcb... | <NULL> |\n"
              "+--------+----------------------+--------------------------------+--------+\n"
              "3 rows in set\n");
    mem_close(&m);
}

WTEST(cli_batch_one_row_empty_and_small_width)
{
    const char *names[] = {"id", "cnt", "uv"};
    const WType *types[] = {&WTYPE_INT, &WTYPE_BIGINT, &WTYPE_BIGINT};
    Mem m;
    mem_open(&m);
    WTabBatch b;
    wtab_batch_begin(&b, 3, names, NULL);
    wtab_batch_print(&b, m.f, 30, "");
    wtab_batch_free(&b);
    CHECK_STR(mem_text(&m), "Empty set\n");
    mem_close(&m);

    mem_open(&m);
    wtab_batch_begin(&b, 3, names, NULL);
    WChunk *c = wchunk_new(3, types, 4);
    int r = wchunk_add_row(c, WRK_INSERT);
    c->cols[0].data[r] = WDATUM_I(1);
    c->cols[1].data[r] = WDATUM_I(1);
    c->cols[2].data[r] = WDATUM_I(1);
    wtab_batch_chunk(&b, c);
    wchunk_free(c);
    wtab_batch_print(&b, m.f, 30, "");
    wtab_batch_free(&b);
    CHECK_STR(mem_text(&m),
              "+----+-----+----+\n"
              "| id | cnt | uv |\n"
              "+----+-----+----+\n"
              "|  1 |   1 |  1 |\n"
              "+----+-----+----+\n"
              "1 row in set\n");
    mem_close(&m);
}

WTEST(cli_batch_header_truncated_at_max_width)
{
    const char *names[] = {"dayInterval_with_a_long_name"};
    const char *cells[] = {"+1 00:00:00.000"};
    Mem m;
    mem_open(&m);
    wtab_print_strings(m.f, 1, names, 1, cells, 10, false, true, "");
    CHECK_STR(mem_text(&m),
              "+------------+\n"
              "| dayInte... |\n"
              "+------------+\n"
              "| +1 00:0... |\n"
              "+------------+\n"
              "1 row in set\n");
    mem_close(&m);
}

/* ------------------------------------------------------------------ string tables / results */

WTEST(cli_result_table_nulls_empty_and_empty_set)
{
    char *names[] = {"name", "extras"};
    char *cells[] = {"user", NULL, "ptime", "AS PROCTIME()"};
    WStmtResult r;
    memset(&r, 0, sizeof r);
    r.kind = WSR_TABLE;
    r.ncols = 2;
    r.nrows = 2;
    r.col_names = names;
    r.cells = cells;
    r.empty_as_empty_set = true;
    Mem m;
    mem_open(&m);
    CHECK(wmsg_print_result(m.f, false, &r));
    CHECK_STR(mem_text(&m),
              "+-------+---------------+\n"
              "|  name |        extras |\n"
              "+-------+---------------+\n"
              "|  user |               |\n"
              "| ptime | AS PROCTIME() |\n"
              "+-------+---------------+\n"
              "2 rows in set\n");
    mem_close(&m);

    r.nrows = 0;
    mem_open(&m);
    wmsg_print_result(m.f, false, &r);
    CHECK_STR(mem_text(&m), "Empty set\n");
    mem_close(&m);

    r.empty_as_empty_set = false;
    mem_open(&m);
    wmsg_print_result(m.f, false, &r);
    CHECK_STR(mem_text(&m),
              "+------+--------+\n"
              "| name | extras |\n"
              "+------+--------+\n"
              "+------+--------+\n"
              "0 row in set\n");
    mem_close(&m);
}

WTEST(cli_result_messages)
{
    WStmtResult r;
    memset(&r, 0, sizeof r);
    Mem m;

    r.kind = WSR_OK;
    mem_open(&m);
    CHECK(wmsg_print_result(m.f, false, &r));
    CHECK_STR(mem_text(&m), "[INFO] Execute statement succeeded.\n");
    mem_close(&m);

    r.kind = WSR_MESSAGE;
    r.message = "Session property has been reset.\nSecond line\n";
    mem_open(&m);
    wmsg_print_result(m.f, false, &r);
    CHECK_STR(mem_text(&m), "[INFO] Session property has been reset.\n[INFO] Second line\n");
    mem_close(&m);

    r.kind = WSR_TEXT;
    r.message = "== Abstract Syntax Tree ==\nLogicalProject";
    mem_open(&m);
    wmsg_print_result(m.f, false, &r);
    /* Flink 2.x prints EXPLAIN as a one-cell table `result`; a line break is one column wide */
    CHECK_STR(mem_text(&m), "+-------------------------------------------+\n"
                            "|                                    result |\n"
                            "+-------------------------------------------+\n"
                            "| == Abstract Syntax Tree ==\nLogicalProject |\n"
                            "+-------------------------------------------+\n"
                            "1 row in set\n");
    mem_close(&m);

    r.kind = WSR_JOB_SUBMITTED;
    r.message = NULL;
    strcpy(r.job_id, "6b1af540c0c0bb3fcfcad50ac037c862");
    mem_open(&m);
    wmsg_print_result(m.f, false, &r);
    CHECK_STR(mem_text(&m),
              "[INFO] Submitting SQL update statement to the cluster...\n"
              "[INFO] SQL update statement has been successfully submitted to the cluster:\n"
              "Job ID: 6b1af540c0c0bb3fcfcad50ac037c862\n\n");
    mem_close(&m);

    r.kind = WSR_JOB_COMPLETED;
    mem_open(&m);
    wmsg_print_result(m.f, false, &r);
    CHECK_STR(mem_text(&m), "[INFO] Complete execution of the SQL update statement.\n");
    mem_close(&m);

    r.kind = WSR_QUERY_DONE;
    mem_open(&m);
    wmsg_print_result(m.f, false, &r);
    CHECK_STR(mem_text(&m), "");
    mem_close(&m);

    r.kind = WSR_QUIT;
    mem_open(&m);
    CHECK(!wmsg_print_result(m.f, false, &r));
    CHECK_STR(mem_text(&m), "[INFO] Exiting Flink SQL CLI Client...\n");
    mem_close(&m);
}

WTEST(cli_error_rendering)
{
    WError e;
    werr_clear(&e);
    werr_set(&e, WEXC_VALIDATION,
             "Table with identifier 'default_catalog.default_database.non_exist' does not exist.");
    Mem m;
    mem_open(&m);
    wmsg_error_werr(m.f, false, &e);
    CHECK_STR(mem_text(&m),
              "[ERROR] Could not execute SQL statement. Reason:\n"
              "org.apache.flink.table.api.ValidationException: Table with identifier "
              "'default_catalog.default_database.non_exist' does not exist.\n");
    mem_close(&m);

    mem_open(&m);
    wmsg_error(m.f, true, WMSG_SQL_EXECUTION_ERROR, "java.lang.Cls", "boom");
    CHECK_STR(mem_text(&m),
              "\x1b[1;31m[ERROR] Could not execute SQL statement. Reason:\njava.lang.Cls: boom\x1b[0m\n");
    mem_close(&m);

    mem_open(&m);
    wmsg_info(m.f, true, "x");
    CHECK_STR(mem_text(&m), "\x1b[1;34m[INFO] x\x1b[0m\n");
    mem_close(&m);
    CHECK_STR(wmsg_prompt(false), "Flink SQL> ");
}

WTEST(cli_usage_and_help_texts)
{
    Mem m;
    mem_open(&m);
    wmsg_usage(m.f);
    const char *u = mem_text(&m);
    CHECK(strncmp(u, "./sql-client [MODE] [OPTIONS]\n\nThe following options are available:\n", 66) == 0);
    CHECK(strstr(u, "     -f,--file <script file>") != NULL);
    /* the gateway mode's section as Flink 2.3 prints it (its own column width) */
    CHECK(strstr(u, "\n\n\nMode \"gateway\" mode connects to the SQL gateway for submission.\n\n  Syntax: gateway [OPTIONS]\n") != NULL);
    CHECK(strstr(u, "     -e,--endpoint <SQL Gateway address>   The address of the remote SQL Gateway\n"
                    "                                           to connect.\n") != NULL);
    /* every line fits into 80 columns */
    int col = 0, maxcol = 0;
    for (const char *p = u; *p; p++) {
        if (*p == '\n') col = 0;
        else if (++col > maxcol) maxcol = col;
    }
    CHECK(maxcol <= 80);
    mem_close(&m);

    mem_open(&m);
    wmsg_help(m.f, false);
    const char *h = mem_text(&m);
    /* Flink 2.3's list: the names padded to the longest one (BEGIN STATEMENT SET) */
    CHECK(strncmp(h, "The following commands are available:\n\nHELP               \t\tPrints the available commands.\n", 91) == 0);
    CHECK(strstr(h, "\nQUIT/EXIT          \t\tQuits the SQL CLI client.\n") != NULL);
    CHECK(strstr(h, "\nHint: Make sure that a statement ends with \";\" for finalizing (multi-line) statements.\n") != NULL);
    mem_close(&m);
}

/* ------------------------------------------------------------------ statements and scripts */

WTEST(cli_classify_statements)
{
    CHECK_INT(wcli_classify(""), WCMD_NONE);
    CHECK_INT(wcli_classify("  ;  "), WCMD_NONE);
    CHECK_INT(wcli_classify("-- only a comment;"), WCMD_NONE);
    CHECK_INT(wcli_classify("/* c */\n"), WCMD_NONE);
    CHECK_INT(wcli_classify("quit;"), WCMD_QUIT);
    CHECK_INT(wcli_classify("  EXIT ;"), WCMD_QUIT);
    CHECK_INT(wcli_classify("-- bye\nQuit;"), WCMD_QUIT);
    CHECK_INT(wcli_classify("help;"), WCMD_HELP);
    CHECK_INT(wcli_classify("CLEAR;"), WCMD_CLEAR);
    CHECK_INT(wcli_classify("quitx;"), WCMD_OTHER);
    CHECK_INT(wcli_classify("SELECT 1;"), WCMD_OTHER);
    CHECK(wcli_buffer_complete("SELECT 1;"));
    CHECK(!wcli_buffer_complete("SELECT ';'"));
    CHECK(!wcli_buffer_complete("SELECT 1"));
    CHECK(!wcli_buffer_complete(";"));
    CHECK(!wcli_buffer_complete("-- x;"));
    CHECK(!wcli_buffer_complete("SELECT 1; -- trailing comment"));
    CHECK(wcli_buffer_complete("SELECT 1; -- trailing comment\nSELECT 2;"));
    char w[16];
    wcli_first_word("  /* hi */ -- x\n insert into t", w, sizeof w);
    CHECK_STR(w, "INSERT");
}

WTEST(cli_format_script)
{
    char *s = wcli_format_script("\n\n  SELECT 1  \n\n", true);
    CHECK_STR(s, "SELECT 1;\n");
    free(s);
    s = wcli_format_script("SET 'a' = 'b';\n", true);
    CHECK_STR(s, "SET 'a' = 'b';\n");
    free(s);
    s = wcli_format_script("", true);
    CHECK_STR(s, ";\n");
    free(s);
}

typedef struct FakeRun { FILE *out; int calls; bool fail_on_second; char seen[512]; } FakeRun;

static bool fake_fn(void *ctx, const char *stmt, WCliCmd cmd, bool *quit)
{
    FakeRun *f = ctx;
    f->calls++;
    strncat(f->seen, stmt, sizeof f->seen - strlen(f->seen) - 2);
    strcat(f->seen, "|");
    if (cmd == WCMD_QUIT) {
        fputs("[INFO] Exiting Flink SQL CLI Client...\n", f->out);
        *quit = true;
        return true;
    }
    if (f->fail_on_second && f->calls == 2) {
        fputs("[ERROR] failed\n", f->out);
        return false;
    }
    fputs("[INFO] Execute statement succeeded.\n", f->out);
    return true;
}

WTEST(cli_script_echo_like_flink)
{
    Mem m;
    mem_open(&m);
    FakeRun f = {.out = m.f};
    WCliScript sc = {.out = m.f, .echo = true, .exit_on_failure = true, .fn = fake_fn, .ctx = &f};
    char *text = wcli_format_script("SET 'a' = 'b';\n\nCREATE TABLE t (\n  a INT\n);\n-- done\n", true);
    CHECK_INT(wcli_run_script(&sc, text), WCS_EOF);
    free(text);
    CHECK_INT(f.calls, 2);
    /* the blank line belongs to the next statement and is echoed with it (Flink's line reader) */
    CHECK_STR(f.seen, "SET 'a' = 'b';|\nCREATE TABLE t (\n  a INT\n);|");
    CHECK_STR(mem_text(&m),
              "\n"
              "Flink SQL> SET 'a' = 'b';\n"
              "[INFO] Execute statement succeeded.\n"
              "\n"
              "Flink SQL> \n"
              "> CREATE TABLE t (\n"
              ">   a INT\n"
              "> );\n"
              "[INFO] Execute statement succeeded.\n"
              "\n"
              "Flink SQL> ");      /* a trailing comment is no statement: not echoed (as Flink) */
    mem_close(&m);
}

WTEST(cli_script_stops_at_failure_and_quit)
{
    Mem m;
    mem_open(&m);
    FakeRun f = {.out = m.f, .fail_on_second = true};
    WCliScript sc = {.out = m.f, .echo = true, .exit_on_failure = true, .fn = fake_fn, .ctx = &f};
    CHECK_INT(wcli_run_script(&sc, "SELECT 1;\nSELECT 2;\nSELECT 3;\n"), WCS_FAILED);
    CHECK_INT(f.calls, 2);
    CHECK_STR(mem_text(&m),
              "\nFlink SQL> SELECT 1;\n[INFO] Execute statement succeeded.\n"
              "\nFlink SQL> SELECT 2;\n[ERROR] failed\n");
    mem_close(&m);

    mem_open(&m);
    FakeRun g = {.out = m.f, .fail_on_second = true};
    WCliScript sc2 = {.out = m.f, .echo = false, .exit_on_failure = false, .fn = fake_fn, .ctx = &g};
    CHECK_INT(wcli_run_script(&sc2, "SELECT 1;\nSELECT 2;\nquit;\nSELECT 4;\n"), WCS_QUIT);
    CHECK_INT(g.calls, 3);
    CHECK_STR(mem_text(&m),
              "[INFO] Execute statement succeeded.\n[ERROR] failed\n"
              "[INFO] Exiting Flink SQL CLI Client...\n");
    mem_close(&m);
}

WTEST(cli_script_unterminated_statement_runs_at_eof)
{
    Mem m;
    mem_open(&m);
    FakeRun f = {.out = m.f};
    WCliScript sc = {.out = m.f, .echo = false, .exit_on_failure = true, .fn = fake_fn, .ctx = &f};
    CHECK_INT(wcli_run_script(&sc, "SELECT 'abc;\n"), WCS_EOF);
    CHECK_INT(f.calls, 1);
    CHECK_STR(f.seen, "SELECT 'abc;|");
    mem_close(&m);
}

WTEST(cli_init_mode_rejects_queries)
{
    WClient c;
    memset(&c, 0, sizeof c);
    Mem m;
    mem_open(&m);
    c.out = m.f;
    c.mode = WCLI_INITIALIZATION;
    bool quit = false;
    CHECK(!wcli_execute(&c, "SELECT 1;", WCMD_OTHER, &quit));
    CHECK_STR(mem_text(&m),
              "[ERROR] Could not execute SQL statement. Reason:\n"
              "java.lang.UnsupportedOperationException: Unsupported statement for configuring "
              "session:SELECT 1;\nThe configureSession API only supports to execute statement of "
              "type CREATE TABLE, DROP TABLE, ALTER TABLE, CREATE DATABASE, DROP DATABASE, ALTER "
              "DATABASE, CREATE FUNCTION, DROP FUNCTION, ALTER FUNCTION, CREATE CATALOG, DROP "
              "CATALOG, USE CATALOG, USE [CATALOG.]DATABASE, CREATE VIEW, DROP VIEW, LOAD MODULE, "
              "UNLOAD MODULE, USE MODULE, ADD JAR.\n");
    mem_close(&m);

    mem_open(&m);
    c.out = m.f;
    CHECK(wcli_execute(&c, "quit;", WCMD_QUIT, &quit));
    CHECK(quit);
    CHECK_STR(mem_text(&m), "[INFO] Exiting Flink SQL CLI Client...\n");
    mem_close(&m);
}

/* ------------------------------------------------------------------ Flink's own expectation */

/* The data of Flink's CliTableauResultViewTest (8 rows, every kind of column). */
static WChunk *flink_view_test_chunk(const WType **types)
{
    static const unsigned char b1[] = {50, 51, 52, 0x85, 54, 93, 115, 126};
    static const unsigned char b2[] = {100, 0x9e, 32, 121, 0x83};
    static const unsigned char b3[] = {0x92, 0xe9, 1, 2};
    static const unsigned char b5[] = {110, 23, 0xff, 0xfe};
    static const unsigned char b7[] = {0xfd, 0xfe, 0xff, 0, 1, 2, 3};
    struct {
        WRowKind k;
        int b; long long i, bi; const char *s; long long dec; const char *ts;
        const unsigned char *bytes; int nbytes;
        bool nb, ni, nbi, ns, ndec, nts, nbytes_null;
    } R[] = {
        {WRK_INSERT, 0, 1, 2, "abc", 123000, "2020-03-01 18:39:14", b1, 8, true, false, false, false, false, false, false},
        {WRK_UPDATE_BEFORE, 0, 0, 0, "", 100000, "2020-03-01 18:39:14.1", b2, 5, false, true, false, false, false, false, false},
        {WRK_UPDATE_AFTER, 1, 2147483647, 0, "abcdefg", 1234500000, "2020-03-01 18:39:14.12", b3, 4, false, false, true, false, false, false, false},
        {WRK_DELETE, 0, -2147483648LL, 9223372036854775807LL, NULL, 1234506789, "2020-03-01 18:39:14.123", b1, 8, false, false, false, true, false, false, false},
        {WRK_INSERT, 1, 100, -9223372036854775807LL - 1, "abcdefg111", 0, "2020-03-01 18:39:14.123456", b5, 4, false, false, false, false, true, false, false},
        {WRK_DELETE, 0, -1, -1, "abcdefghijklmnopqrstuvwxyz12345", -1234506789, NULL, NULL, 0, true, false, false, false, false, true, true},
        {WRK_INSERT, 0, -1, -1, "这是一段中文", -1234506789, "2020-03-04 18:39:14", b7, 7, true, false, false, false, false, false, false},
        {WRK_DELETE, 0, -1, -1, "これは日本語をテストするための文です", -1234506789, "2020-03-04 18:39:14", b7, 7, true, false, false, false, false, false, false},
    };
    WChunk *c = wchunk_new(7, types, 16);
    for (size_t i = 0; i < sizeof R / sizeof R[0]; i++) {
        int r = wchunk_add_row(c, R[i].k);
        c->cols[0].data[r] = WDATUM_I(R[i].b);
        c->cols[0].nulls[r] = R[i].nb;
        c->cols[1].data[r] = WDATUM_I(R[i].i);
        c->cols[1].nulls[r] = R[i].ni;
        c->cols[2].data[r] = WDATUM_I(R[i].bi);
        c->cols[2].nulls[r] = R[i].nbi;
        if (R[i].s) c->cols[3].data[r] = S(R[i].s);
        c->cols[3].nulls[r] = R[i].ns;
        c->cols[4].data[r].dec = R[i].dec;
        c->cols[4].nulls[r] = R[i].ndec;
        if (R[i].ts) {
            WTimestamp ts;
            if (wparse_timestamp(R[i].ts, (int)strlen(R[i].ts), &ts)) c->cols[5].data[r].ts = ts;
        }
        c->cols[5].nulls[r] = R[i].nts;
        if (R[i].bytes) {
            c->cols[6].data[r].s.p = (const char *)R[i].bytes;
            c->cols[6].data[r].s.len = R[i].nbytes;
        }
        c->cols[6].nulls[r] = R[i].nbytes_null;
    }
    return c;
}

WTEST(cli_flink_view_test_batch_exact)
{
    WArena a;
    warena_init(&a, 0);
    const WType *types[] = {&WTYPE_BOOLEAN, &WTYPE_INT, &WTYPE_BIGINT, &WTYPE_STRING,
                            wtype_decimal(&a, 10, 5, true),
                            wtype_timestamp(&a, WT_TIMESTAMP, 6, true), &WTYPE_BYTES};
    const char *names[] = {"boolean", "int", "bigint", "varchar", "decimal(10, 5)", "timestamp", "binary"};
    WChunk *c = flink_view_test_chunk(types);
    Mem m;
    mem_open(&m);
    WTabBatch b;
    wtab_batch_begin(&b, 7, names, NULL);
    wtab_batch_chunk(&b, c);
    wtab_batch_print(&b, m.f, 30, "");
    wtab_batch_free(&b);
    CHECK_STR(mem_text(&m),
        "+---------+-------------+----------------------+--------------------------------+----------------+----------------------------+---------------------+\n"
        "| boolean |         int |               bigint |                        varchar | decimal(10, 5) |                  timestamp |              binary |\n"
        "+---------+-------------+----------------------+--------------------------------+----------------+----------------------------+---------------------+\n"
        "|  <NULL> |           1 |                    2 |                            abc |        1.23000 | 2020-03-01 18:39:14.000000 | x'32333485365d737e' |\n"
        "|   FALSE |      <NULL> |                    0 |                                |        1.00000 | 2020-03-01 18:39:14.100000 |       x'649e207983' |\n"
        "|    TRUE |  2147483647 |               <NULL> |                        abcdefg |    12345.00000 | 2020-03-01 18:39:14.120000 |         x'92e90102' |\n"
        "|   FALSE | -2147483648 |  9223372036854775807 |                         <NULL> |    12345.06789 | 2020-03-01 18:39:14.123000 | x'32333485365d737e' |\n"
        "|    TRUE |         100 | -9223372036854775808 |                     abcdefg111 |         <NULL> | 2020-03-01 18:39:14.123456 |         x'6e17fffe' |\n"
        "|  <NULL> |          -1 |                   -1 | abcdefghijklmnopqrstuvwxyz1... |   -12345.06789 |                     <NULL> |              <NULL> |\n"
        "|  <NULL> |          -1 |                   -1 |                   这是一段中文 |   -12345.06789 | 2020-03-04 18:39:14.000000 |   x'fdfeff00010203' |\n"
        "|  <NULL> |          -1 |                   -1 |  これは日本語をテストするた... |   -12345.06789 | 2020-03-04 18:39:14.000000 |   x'fdfeff00010203' |\n"
        "+---------+-------------+----------------------+--------------------------------+----------------+----------------------------+---------------------+\n"
        "8 rows in set\n");
    mem_close(&m);

    /* The streaming view of the same rows: widths from the types, op column. */
    mem_open(&m);
    WTabStream st;
    wtab_stream_begin(&st, m.f, 7, names, types, 30, NULL);
    wtab_stream_chunk(&st, c);
    wtab_stream_end(&st, "");
    wtab_stream_free(&st);
    const char *t = mem_text(&m);
    CHECK(strncmp(t,
        "+----+---------+-------------+----------------------+--------------------------------+----------------+----------------------------+--------------------------------+\n"
        "| op | boolean |         int |               bigint |                        varchar | decimal(10, 5) |                  timestamp |                         binary |\n", 330) == 0);
    CHECK(strstr(t, "| -D |  <NULL> |          -1 |                   -1 |  これは日本語をテストするた... |   -12345.06789 | 2020-03-04 18:39:14.000000 |              x'fdfeff00010203' |\n") != NULL);
    CHECK(strstr(t, "Received a total of 8 rows\n") != NULL);
    mem_close(&m);
    wchunk_free(c);
    warena_free(&a);
}

/* ------------------------------------------------------------------ more edges */

WTEST(cli_args_local_paths_and_session_ids)
{
    char *p = wcli_local_path("/tmp/x.sql");
    CHECK_STR(p, "/tmp/x.sql");
    free(p);
    p = wcli_local_path("file:///tmp/x.sql");
    CHECK_STR(p, "/tmp/x.sql");
    free(p);
    p = wcli_local_path("file:/tmp/x.sql");
    CHECK_STR(p, "/tmp/x.sql");
    free(p);
    p = wcli_local_path("rel/x.sql");
    CHECK(p && p[0] == '/' && strstr(p, "/rel/x.sql") != NULL);
    free(p);
    CHECK(wcli_local_path("hdfs://nn/x.sql") == NULL);
    CHECK(wcli_local_path("s3://b/x.sql") == NULL);
    CHECK(wcli_local_path("http:x.sql") == NULL);
    CHECK(wcli_local_path("") == NULL);
    CHECK(wcli_valid_session_id("default"));
    CHECK(wcli_valid_session_id("a-b_c.9"));
    CHECK(!wcli_valid_session_id("a b"));
    CHECK(!wcli_valid_session_id(""));
    CHECK(!wcli_valid_session_id("x/y"));
}

WTEST(cli_strings_null_shown_and_suffix)
{
    const char *names[] = {"k", "v"};
    const char *cells[] = {"a", NULL};
    Mem m;
    mem_open(&m);
    wtab_print_strings(m.f, 2, names, 1, cells, 30, false, true, " (0.50 seconds)");
    CHECK_STR(mem_text(&m),
              "+---+--------+\n"
              "| k |      v |\n"
              "+---+--------+\n"
              "| a | <NULL> |\n"
              "+---+--------+\n"
              "1 row in set (0.50 seconds)\n");
    mem_close(&m);
    mem_open(&m);
    wtab_print_strings(m.f, 2, names, 0, cells, 30, false, true, " (0.50 seconds)");
    CHECK_STR(mem_text(&m), "Empty set (0.50 seconds)\n");
    mem_close(&m);
}

WTEST(cli_stream_long_names_small_width)
{
    /* Names are never cut in the streaming view: widths start from the name length. */
    const char *names[] = {"a_rather_long_column_name", "b"};
    const WType *types[] = {&WTYPE_STRING, &WTYPE_STRING};
    Mem m;
    mem_open(&m);
    WTabStream st;
    wtab_stream_begin(&st, m.f, 2, names, types, 5, NULL);
    WChunk *c = wchunk_new(2, types, 2);
    int r = wchunk_add_row(c, WRK_INSERT);
    c->cols[0].data[r] = S("short");
    c->cols[1].data[r] = S("toolong");
    wtab_stream_chunk(&st, c);
    wtab_stream_end(&st, "");
    wtab_stream_free(&st);
    wchunk_free(c);
    CHECK_STR(mem_text(&m),
              "+----+---------------------------+--------+\n"
              "| op | a_rather_long_column_name |      b |\n"
              "+----+---------------------------+--------+\n"
              "| +I |                     short | too... |\n"
              "+----+---------------------------+--------+\n"
              "Received a total of 1 row\n");
    mem_close(&m);
}

WTEST(cli_message_edge_cases)
{
    WStmtResult r;
    memset(&r, 0, sizeof r);
    Mem m;
    r.kind = WSR_MESSAGE;
    r.message = NULL;
    mem_open(&m);
    wmsg_print_result(m.f, false, &r);
    CHECK_STR(mem_text(&m), "[INFO] \n");
    mem_close(&m);

    r.kind = WSR_TEXT;
    r.message = "plan\n";
    mem_open(&m);
    wmsg_print_result(m.f, false, &r);
    CHECK_STR(mem_text(&m), "+--------+\n| result |\n+--------+\n|  plan\n |\n+--------+\n1 row in set\n");
    mem_close(&m);

    WError e;
    werr_clear(&e);
    mem_open(&m);
    wmsg_error_werr(m.f, false, &e);    /* an error without class or message still reads well */
    CHECK_STR(mem_text(&m),
              "[ERROR] Could not execute SQL statement. Reason:\n"
              "org.apache.flink.table.api.TableException: Unknown error.\n");
    mem_close(&m);

    mem_open(&m);
    wmsg_warning(m.f, false, "w");
    CHECK_STR(mem_text(&m), "[WARNING] w\n");
    mem_close(&m);
    CHECK_STR(wmsg_prompt(true), "\x1b[32mFlink SQL\x1b[0m> ");
}

WTEST(cli_script_crlf_and_interactive_no_stop)
{
    Mem m;
    mem_open(&m);
    FakeRun f = {.out = m.f, .fail_on_second = true};
    WCliScript sc = {.out = m.f, .echo = true, .exit_on_failure = false, .fn = fake_fn, .ctx = &f};
    CHECK_INT(wcli_run_script(&sc, "SELECT 1;\r\nSELECT 2;\r\nSELECT 3;\r\n"), WCS_EOF);
    CHECK_INT(f.calls, 3);
    CHECK_STR(f.seen, "SELECT 1;|SELECT 2;|SELECT 3;|");
    CHECK_STR(mem_text(&m),
              "\nFlink SQL> SELECT 1;\n[INFO] Execute statement succeeded.\n"
              "\nFlink SQL> SELECT 2;\n[ERROR] failed\n"
              "\nFlink SQL> SELECT 3;\n[INFO] Execute statement succeeded.\n"
              "\nFlink SQL> ");
    mem_close(&m);
}
