/*
 * script.h — how the SQL client turns input lines into statements and echoes a script
 * (private to src/cli).
 *
 * Contract: a statement is complete when the text read so far literally ends with ';' (so
 * `SELECT 1; -- note` keeps reading, as in Flink), that ';' is outside strings, quoted
 * identifiers, comments and hints (wsql_is_complete), and the text holds more than whitespace, comments or a lone ';' (Flink's
 * SqlMultiLineParser + SqlCommandParserImpl). QUIT/EXIT, HELP and CLEAR are recognised by their
 * first token. wcli_run_script reproduces `sql-client.sh -f`: the file is trimmed and a ';' is
 * appended when missing (SqlMultiLineParser.formatSqlFile), then, statement by statement, an empty
 * line, `Flink SQL> ` + the first line, `> ` + each further line (blank lines and comments
 * before a statement belong to it), then whatever the statement callback prints. At the end of
 * input the last prompt stays on its own line, as Flink leaves it; comments after the last
 * statement are not echoed, and an unterminated statement there (open string or comment) still
 * runs so that its error is reported (Flink drops it silently).
 * Depends on sql/parser.h (wsql_is_complete) and cli/messages.
 */
#ifndef WEIR_CLI_SCRIPT_H
#define WEIR_CLI_SCRIPT_H

#include <stdbool.h>
#include <stdio.h>

typedef enum WCliCmd {
    WCMD_NONE = 0,      /* nothing to run yet: blank, comments only, or a lone ';' */
    WCMD_OTHER,         /* a statement for the engine */
    WCMD_QUIT,          /* QUIT / EXIT */
    WCMD_HELP,
    WCMD_CLEAR
} WCliCmd;

/* Classify the text of a (complete) buffer by its first token. */
WCliCmd wcli_classify(const char *buf);
/* true when buf should be executed now (complete and not WCMD_NONE). */
bool wcli_buffer_complete(const char *buf);
/* Copy the first word (letters, digits, '_') after whitespace and comments, upper-cased, into
   word (size n). Empty when there is none. */
void wcli_first_word(const char *buf, char *word, size_t n);
/* Java String.trim() of s into a heap string; with add_semicolon, ';' is appended when the
   trimmed text does not end with one (formatSqlFile; its trailing newline is implied). */
char *wcli_format_script(const char *content, bool add_semicolon);

/* Runs one complete statement; prints its result. Returns false when it failed. Sets *quit
   to stop the script (QUIT). */
typedef bool (*WCliStmtFn)(void *ctx, const char *stmt, WCliCmd cmd, bool *quit);

typedef enum WCliScriptEnd {
    WCS_EOF = 0,        /* all statements ran */
    WCS_FAILED,         /* stopped at the first failing statement (exit_on_failure) */
    WCS_QUIT            /* a QUIT statement ended it */
} WCliScriptEnd;

typedef struct WCliScript {
    FILE *out;
    bool color;
    bool echo;              /* print the prompts and echo the input lines */
    bool exit_on_failure;
    WCliStmtFn fn;
    void *ctx;
} WCliScript;

/* Run already formatted script text (see wcli_format_script). */
WCliScriptEnd wcli_run_script(const WCliScript *sc, const char *text);

#endif
