/*
 * error.h — errors a user can cause, carried up to the client.
 *
 * Contract: a WError holds the Java-style exception class Flink would report (so the SQL client
 * can print "<class>: <message>" exactly as Flink's does), the message, and an optional source
 * position (SQL line/column, or data file:line). Functions that can fail take a WError * and
 * return false/NULL after calling werr_set; the first error set wins (later calls are ignored)
 * unless werr_clear is called. Depends on nothing but libc.
 */
#ifndef WEIR_COMMON_ERROR_H
#define WEIR_COMMON_ERROR_H

#include <stdbool.h>
#include <stdarg.h>

/* Exception classes Flink users see in the client (`[ERROR] ... Reason:` line). */
#define WEXC_PARSE        "org.apache.flink.sql.parser.impl.ParseException"   /* as Flink 2.3's client prints a parse error: the parser's own exception */
#define WEXC_VALIDATION   "org.apache.flink.table.api.ValidationException"
#define WEXC_TABLE        "org.apache.flink.table.api.TableException"
#define WEXC_SQL_VALIDATE "org.apache.flink.sql.parser.error.SqlValidateException"
#define WEXC_CALCITE      "org.apache.calcite.sql.validate.SqlValidatorException"
#define WEXC_CODEGEN      "org.apache.flink.table.planner.codegen.CodeGenException"
#define WEXC_CALCITE_RT   "org.apache.calcite.runtime.CalciteException"   /* raised by Calcite's parser actions */
#define WEXC_RUNTIME      "org.apache.flink.table.api.TableRuntimeException"
#define WEXC_ILLEGAL_ARG  "java.lang.IllegalArgumentException"
#define WEXC_NUMBER       "java.lang.NumberFormatException"
#define WEXC_IO           "java.io.IOException"
#define WEXC_ARITH        "java.lang.ArithmeticException"
#define WEXC_GATEWAY      "org.apache.flink.table.gateway.service.utils.SqlExecutionException"
#define WEXC_UNSUPPORTED  "java.lang.UnsupportedOperationException"

typedef struct WError {
    bool set;
    char cls[96];        /* exception class, e.g. WEXC_VALIDATION */
    char msg[16384];     /* message, may span lines (a parse error lists up to a few hundred expected tokens) */
    int line, col;       /* 1-based SQL position, 0 if none */
    char file[256];      /* data file for input errors, "" if none */
    long file_line;      /* 1-based line in file, 0 if none */
    char outer[512];     /* the exception that wraps this one in Flink's chain ("<class>: <message>",
                            e.g. "...ValidationException: Unable to create a source for reading
                            table 't'."), "" if none: the SQL client prints the root cause (cls,
                            msg), the gateway's error body the chain */
} WError;

void werr_clear(WError *e);
/* Set class and message (printf-style). No-op if e is NULL or already set. Returns false. */
bool werr_set(WError *e, const char *cls, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool werr_setv(WError *e, const char *cls, const char *fmt, va_list ap);
/* Same, with a SQL position. */
bool werr_set_at(WError *e, int line, int col, const char *cls, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Record the exception that wraps the error set in e (no-op if none is set or one is recorded). */
void werr_wrap(WError *e, const char *cls, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Prefix the existing message with context ("Error while reading x: " + old). */
void werr_prefix(WError *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
