/*
 * messages.c — the SQL client's messages, HELP and usage texts, and statement-result printing.
 *
 * Contract: see messages.h. Texts follow Flink's CliStrings / Printer / CliOptionsParser (newest
 * wording: "Execute statement succeeded."). Result tables go through cli/tableau.
 */
#include "messages.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tableau.h"
#include "../common/arena.h"
#include "../common/strbuf.h"

#define ANSI_RESET  "\x1b[0m"
#define ANSI_BLUE   "\x1b[1;34m"
#define ANSI_YELLOW "\x1b[1;33m"
#define ANSI_RED    "\x1b[1;31m"
#define ANSI_GREEN  "\x1b[32m"
#define ANSI_BOLD   "\x1b[1m"

static void styled_line(FILE *out, bool color, const char *style, const char *tag, const char *msg)
{
    if (color) fputs(style, out);
    fputs(tag, out);
    fputs(msg ? msg : "", out);
    if (color) fputs(ANSI_RESET, out);
    fputc('\n', out);
    fflush(out);
}

void wmsg_info(FILE *out, bool color, const char *msg)
{
    styled_line(out, color, ANSI_BLUE, "[INFO] ", msg);
}

void wmsg_warning(FILE *out, bool color, const char *msg)
{
    styled_line(out, color, ANSI_YELLOW, "[WARNING] ", msg);
}

void wmsg_error(FILE *out, bool color, const char *what, const char *cls, const char *msg)
{
    WStrBuf sb;
    wsb_init(&sb);
    wsb_append(&sb, what ? what : WMSG_SQL_EXECUTION_ERROR);
    wsb_append(&sb, " Reason:\n");
    if (cls && *cls) {
        wsb_append(&sb, cls);
        wsb_append(&sb, ": ");
    }
    wsb_append(&sb, msg ? msg : "null");
    styled_line(out, color, ANSI_RED, "[ERROR] ", sb.buf);
    wsb_free(&sb);
}

void wmsg_error_werr(FILE *out, bool color, const WError *e)
{
    const char *cls = e && e->cls[0] ? e->cls : WEXC_TABLE;
    const char *msg = e && e->msg[0] ? e->msg : "Unknown error.";
    /* a syntax error is already the parser's own ParseException, the root cause Flink 2.x's
       client prints (src/sql/parse_util.c) */
    wmsg_error(out, color, WMSG_SQL_EXECUTION_ERROR, cls, msg);
}

const char *wmsg_prompt(bool color)
{
    return color ? ANSI_GREEN WMSG_PROMPT ANSI_RESET "> " : WMSG_PROMPT "> ";
}

/* ------------------------------------------------------------------ HELP */

/* The commands of Flink 2.x's client, in its order; each name is padded to the longest one. */
static const char *const HELP[][2] = {
    {"HELP", "Prints the available commands."},
    {"QUIT/EXIT", "Quits the SQL CLI client."},
    {"CLEAR", "Clears the current terminal."},
    {"SET", "Sets a session configuration property. Syntax: \"SET '<key>'='<value>';\". Use \"SET;\" for listing all properties."},
    {"RESET", "Resets a session configuration property. Syntax: \"RESET '<key>';\". Use \"RESET;\" for reset all session properties."},
    {"INSERT INTO", "Inserts the results of a SQL SELECT query into a declared table sink."},
    {"INSERT OVERWRITE", "Inserts the results of a SQL SELECT query into a declared table sink and overwrite existing data."},
    {"SELECT", "Executes a SQL SELECT query on the Flink cluster."},
    {"EXPLAIN", "Describes the execution plan of a query or table with the given name."},
    {"BEGIN STATEMENT SET", "Begins a statement set. Syntax: \"BEGIN STATEMENT SET;\""},
    {"END", "Ends a statement set. Syntax: \"END;\""},
    {"ADD JAR", "Adds the specified jar file to the submitted jobs' classloader. Syntax: \"ADD JAR '<path_to_filename>.jar'\""},
    {"REMOVE JAR", "Removes the specified jar file from the submitted jobs' classloader. Syntax: \"REMOVE JAR '<path_to_filename>.jar'\""},
    {"SHOW JARS", "Shows the list of user-specified jar dependencies. This list is impacted by the --jar and --library startup options as well as the ADD/REMOVE JAR commands."},
};

void wmsg_help(FILE *out, bool color)
{
    size_t n = sizeof HELP / sizeof HELP[0];
    int width = 0;
    for (size_t i = 0; i < n; i++)
        if ((int)strlen(HELP[i][0]) > width) width = (int)strlen(HELP[i][0]);
    fputs("The following commands are available:\n\n", out);
    for (size_t i = 0; i < n; i++) {
        if (color) fputs(ANSI_BOLD, out);
        fprintf(out, "%-*s\t\t", width, HELP[i][0]);
        if (color) fputs(ANSI_RESET, out);
        fputs(HELP[i][1], out);
        fputc('\n', out);
    }
    fputs(color ? "\n\x1b[4mHint" ANSI_RESET : "\nHint", out);
    fputs(": Make sure that a statement ends with \";\" for finalizing (multi-line) statements.\n"
          "You can also type any Flink SQL statement, please visit "
          "https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/overview/ "
          "for more details.\n", out);
    fflush(out);
}

/* ------------------------------------------------------------------ usage */

/* The modes an option belongs to (Flink 2.3 prints the options of each mode in a section). */
enum { M_EMBEDDED = 1, M_GATEWAY = 2, M_BOTH = 3 };
typedef struct UsageOpt { const char *left, *desc; int modes; } UsageOpt;

/* Sorted by option key, case-insensitively, as commons-cli's HelpFormatter does. */
static const UsageOpt USAGE_OPTS[] = {
    {"-D <session dynamic config key=val>", "The dynamic config key=val for a session.", M_BOTH},
    {"-e,--endpoint <SQL Gateway address>", "The address of the remote SQL Gateway to connect.", M_GATEWAY},
    {"-f,--file <script file>", "Script file that should be executed. In this mode, the client "
                                "will not open an interactive terminal.", M_BOTH},
    {"-h,--help", "Show the help message with descriptions of all options.", M_BOTH},
    {"-hist,--history <History file path>", "The file which you want to save the command history "
                                            "into. If not specified, we will auto-generate one under "
                                            "your user's home directory.", M_BOTH},
    {"-i,--init <initialization file>", "Script file that used to init the session context. If get "
                                        "error in execution, the sql client will exit. Notice it's "
                                        "not allowed to add query or insert into the init file.", M_BOTH},
    {"-s,--session <session identifier>", "The identifier for a session. 'default' is the default "
                                          "identifier.", M_BOTH},
    {"-u,--update <SQL update statement>", "Deprecated Experimental (for testing only!) feature: "
                                           "Instructs the SQL Client to immediately execute the given "
                                           "update statement after starting up. The process is shut "
                                           "down after the statement has been submitted to the "
                                           "cluster and returns an appropriate return code. "
                                           "Currently, this feature is only supported for INSERT "
                                           "INTO statements that declare the target sink table."
                                           "Please use option -f to submit update statement.", M_EMBEDDED},
    {"-v,--verbose", "(weir) Print each job's operator state and metrics report to stderr.", M_EMBEDDED},
};

/* The options of one mode, each description wrapped at 80 columns as commons-cli does. */
static void print_options(FILE *out, const UsageOpt *opts, size_t nopt, int mode)
{
    const int width = 80, lpad = 5, dpad = 3;
    int maxl = 0;
    for (size_t i = 0; i < nopt; i++) {
        int l = (int)strlen(opts[i].left);
        if ((opts[i].modes & mode) && l > maxl) maxl = l;
    }
    int col = lpad + maxl + dpad;
    int textw = width - col;
    for (size_t i = 0; i < nopt; i++) {
        if (!(opts[i].modes & mode)) continue;
        fprintf(out, "%*s%-*s%*s", lpad, "", maxl, opts[i].left, dpad, "");
        const char *d = opts[i].desc;
        bool first = true;
        while (*d) {
            if (!first) fprintf(out, "%*s", col, "");
            first = false;
            int n = (int)strlen(d);
            if (n <= textw) {
                fputs(d, out);
                fputc('\n', out);
                break;
            }
            int pos = textw;
            while (pos > 0 && d[pos] != ' ') pos--;
            if (pos == 0) pos = textw;      /* no space: hard break */
            int end = pos;
            while (end > 0 && d[end - 1] == ' ') end--;
            fwrite(d, 1, (size_t)end, out);
            fputc('\n', out);
            d += pos;
            while (*d == ' ') d++;
        }
    }
}


void wmsg_usage(FILE *out)
{
    fputs("./sql-client [MODE] [OPTIONS]\n\nThe following options are available:\n", out);
    fputs("\nMode \"embedded\" (default) submits Flink jobs from the local machine.\n", out);
    fputs("\n  Syntax: [embedded] [OPTIONS]\n  \"embedded\" mode options:\n", out);
    print_options(out, USAGE_OPTS, sizeof USAGE_OPTS / sizeof USAGE_OPTS[0], M_EMBEDDED);
    fputs("\n\nMode \"gateway\" mode connects to the SQL gateway for submission.\n", out);
    fputs("\n  Syntax: gateway [OPTIONS]\n  \"gateway\" mode options:\n", out);
    print_options(out, USAGE_OPTS, sizeof USAGE_OPTS / sizeof USAGE_OPTS[0], M_GATEWAY);
    fputs("\n", out);
    fflush(out);
}

void wmsg_banner(FILE *out, const char *version)
{
    fprintf(out,
            "weir %s - a streaming SQL engine that speaks Flink SQL\n"
            "\n"
            "        Welcome! Enter 'HELP;' to list all available commands. 'QUIT;' to exit.\n\n",
            version ? version : "");
    fflush(out);
}

/* ------------------------------------------------------------------ results */

bool wmsg_print_result(FILE *out, bool color, const WStmtResult *r)
{
    switch (r->kind) {
    case WSR_OK:
        /* a warning of the statement (SET of an option weir does not apply, session_options.h) */
        if (r->message && *r->message) wmsg_warning(out, color, r->message);
        wmsg_info(out, color, WMSG_EXECUTE_STATEMENT);
        break;
    case WSR_MESSAGE: {
        const char *p = r->message ? r->message : "";
        if (!*p) wmsg_info(out, color, "");
        while (*p) {
            const char *nl = strchr(p, '\n');
            size_t n = nl ? (size_t)(nl - p) : strlen(p);
            char *line = wmalloc(n + 1);
            memcpy(line, p, n);
            line[n] = 0;
            wmsg_info(out, color, line);
            free(line);
            p += n;
            if (*p == '\n') p++;
        }
        break;
    }
    case WSR_TABLE:
        wtab_print_strings(out, r->ncols, (const char *const *)r->col_names, r->nrows,
                           (const char *const *)r->cells, INT_MAX, true, r->empty_as_empty_set, "");
        break;
    case WSR_TEXT: {
        /* EXPLAIN's text is a one-row table with the column `result`, printed as Flink 2.x's
           client prints every statement result: the whole text is one cell (its line breaks
           count as one column each), then `1 row in set`. */
        static const char *const name[] = {"result"};
        const char *cell[] = {r->message ? r->message : ""};
        wtab_print_strings(out, 1, name, 1, cell, INT_MAX, true, false, "");
        break;
    }
    case WSR_QUERY_DONE:
        break;
    case WSR_JOB_SUBMITTED:
        wmsg_info(out, color, WMSG_SUBMITTING);
        wmsg_info(out, color, WMSG_SUBMITTED);
        fprintf(out, "Job ID: %s\n\n", r->job_id);
        fflush(out);
        break;
    case WSR_JOB_COMPLETED:
        wmsg_info(out, color, WMSG_FINISH_STATEMENT);
        break;
    case WSR_QUIT:
        wmsg_info(out, color, WMSG_QUIT);
        return false;
    }
    return true;
}
