/*
 * ast.h — the syntax tree of Flink's SQL dialect, as the parser produces it.
 *
 * Contract: every node records the 1-based line/column of its first token. Names keep the case
 * the user wrote (Flink identifiers are case-sensitive; keywords are not); backtick-quoted names
 * arrive without the backticks. String literals arrive unescaped ('' -> ') and without quotes.
 * Numeric literals keep their text. Lists are arrays + counts, arena-allocated with the tree.
 * The tree is plain data: binding, typing and validation are plan/'s job. Depends on common/.
 */
#ifndef WEIR_SQL_AST_H
#define WEIR_SQL_AST_H

#include <stdbool.h>
#include <stdint.h>
#include "../common/arena.h"

typedef struct AstExpr AstExpr;
typedef struct AstQuery AstQuery;
typedef struct AstFrom AstFrom;
typedef struct AstStmt AstStmt;
typedef enum AstLikeMode { ALM_INCLUDING, ALM_EXCLUDING, ALM_OVERWRITING } AstLikeMode;
typedef enum AstLikeFeature {
    ALF_ALL, ALF_CONSTRAINTS, ALF_PARTITIONS, ALF_WATERMARKS, ALF_GENERATED, ALF_METADATA, ALF_OPTIONS,
    ALF_DISTRIBUTION
} AstLikeFeature;
typedef struct AstType AstType;

typedef struct AstPos { int line, col; } AstPos;

/* A possibly qualified name: a.b.c */
typedef struct AstName {
    int n;
    char **parts;
    AstPos pos;
} AstName;

/* ---- hints: NAME(k='v', ...) or NAME(a, b) inside a slash-star-plus comment ---- */
typedef struct AstHintOption {
    char *key;          /* NULL for list-style options, e.g. BROADCAST(t1) */
    char *value;
} AstHintOption;

typedef struct AstHint {
    char *name;         /* as written, e.g. STATE_TTL, OPTIONS, JOIN_STATE_TTL */
    int nopts;
    AstHintOption *opts;
    bool kv;            /* key = value style */
    AstPos pos;
} AstHint;

typedef struct AstHints { int n; AstHint *items; } AstHints;

/* ---- data types as written ---- */
typedef enum AstTypeKind {
    AT_BOOLEAN, AT_TINYINT, AT_SMALLINT, AT_INT, AT_BIGINT, AT_FLOAT, AT_DOUBLE, AT_DECIMAL,
    AT_CHAR, AT_VARCHAR, AT_STRING, AT_BINARY, AT_VARBINARY, AT_BYTES,
    AT_DATE, AT_TIME, AT_TIMESTAMP, AT_TIMESTAMP_LTZ,
    AT_INTERVAL, AT_ARRAY, AT_MAP, AT_MULTISET, AT_ROW, AT_NULL
} AstTypeKind;

struct AstType {
    AstTypeKind kind;
    bool not_null;
    bool has_precision, has_scale;
    int precision, scale;       /* -1 when not given */
    /* INTERVAL: start/end units (AstTimeUnit) and precisions */
    int iv_start, iv_end;       /* AstTimeUnit; iv_end = AU_NONE for single unit */
    int iv_precision, iv_frac;  /* -1 when not given */
    AstType *elem;              /* ARRAY/MULTISET element, MAP value */
    AstType *key;               /* MAP key */
    int nfields;                /* ROW<a INT, b STRING> or ROW(a INT, b STRING) */
    char **field_names;
    AstType **fields;
    AstPos pos;
};

/* ---- expressions ---- */
typedef enum AstTimeUnit {
    AU_NONE = 0, AU_YEAR, AU_QUARTER, AU_MONTH, AU_WEEK, AU_DAY, AU_HOUR, AU_MINUTE, AU_SECOND,
    AU_MILLISECOND, AU_MICROSECOND, AU_NANOSECOND, AU_DOW, AU_DOY, AU_EPOCH, AU_DECADE,
    AU_CENTURY, AU_MILLENNIUM, AU_ISODOW, AU_ISOYEAR
} AstTimeUnit;

typedef enum AstLitKind {
    AL_NULL,
    AL_TRUE, AL_FALSE, AL_UNKNOWN,
    AL_INTEGER,         /* 123 (text kept) */
    AL_DECIMAL,         /* 1.5, .5 */
    AL_APPROX,          /* 1e3, 1.5E-2 */
    AL_STRING,          /* 'abc' (also U&'..', concatenated 'a' 'b') */
    AL_BINARY,          /* X'0A1B' -> text holds the hex digits */
    AL_DATE,            /* DATE '2020-01-01' */
    AL_TIME,            /* TIME '10:00:00' */
    AL_TIMESTAMP,       /* TIMESTAMP '2020-01-01 10:00:00' */
    AL_TIMESTAMP_LTZ,   /* TIMESTAMP_LTZ '...' */
    AL_INTERVAL         /* INTERVAL '5' SECOND, INTERVAL '1 02:00' DAY TO MINUTE, INTERVAL '-1' DAY */
} AstLitKind;

typedef enum AstExprKind {
    AE_LITERAL,
    AE_COLUMN,          /* name: a, t.a, cat.db.t.a */
    AE_STAR,            /* * or t.*  (qualifier in name, n = 0 for bare *) */
    AE_PARAM,           /* ? (not supported; parsed to give a clear error) */
    AE_UNARY,           /* op: AO_NEG, AO_PLUS, AO_NOT */
    AE_BINARY,          /* arithmetic, comparison, AND/OR, || */
    AE_FUNC,            /* name(args) incl. aggregates and window functions; special forms below map here */
    AE_CASE,
    AE_CAST,            /* CAST / TRY_CAST (try flag) */
    AE_IN,              /* x [NOT] IN (list) or (subquery) */
    AE_BETWEEN,         /* x [NOT] BETWEEN [SYMMETRIC|ASYMMETRIC] a AND b */
    AE_LIKE,            /* x [NOT] LIKE / SIMILAR TO p [ESCAPE e] */
    AE_IS,              /* x IS [NOT] NULL / TRUE / FALSE / UNKNOWN; IS [NOT] DISTINCT FROM y */
    AE_EXISTS,          /* EXISTS (subquery) */
    AE_SUBQUERY,        /* (SELECT ...) as a scalar */
    AE_QUANTIFIED,      /* x = ANY/SOME/ALL (subquery) */
    AE_ROW,             /* ROW(a, b) or (a, b) */
    AE_ARRAY,           /* ARRAY[a, b] */
    AE_MAP,             /* MAP[k, v, ...] */
    AE_ITEM,            /* a[i]  (args[0] = a, args[1] = i) */
    AE_FIELD,           /* (expr).field  (args[0] = expr, field in str) */
    AE_TIMEUNIT,        /* a time-unit keyword argument: EXTRACT(unit FROM x), FLOOR(x TO unit),
                           TIMESTAMPADD(unit, n, ts), TIMESTAMPDIFF(unit, a, b) */
    AE_DESCRIPTOR,      /* DESCRIPTOR(a, b) in table function arguments */
    AE_TABLE_ARG,       /* TABLE t  (name) or TABLE(subquery)? in table function arguments;
                           TABLE t PARTITION BY k1, k2 [ORDER BY ..]: args = the partition keys,
                           within/nwithin = the order */
    AE_NAMED_ARG,       /* name => value (str = name, args[0] = value) */
    AE_SCOPE_REF,       /* made by the binder, never parsed: column scope_col of the scope the
                           expression is bound in (what * means over a USING / NATURAL join) */
    AE_INTERVAL_EXPR    /* (expr) unit, e.g. CAST(x AS INT) * INTERVAL '1' SECOND is a literal; this is
                           for `INTERVAL x SECOND` with a non-literal? not in Flink: unused */
} AstExprKind;

typedef enum AstOp {
    AO_NONE = 0,
    AO_PLUS, AO_MINUS, AO_MUL, AO_DIV, AO_MOD, AO_CONCAT,      /* + - * / % || */
    AO_EQ, AO_NE, AO_LT, AO_LE, AO_GT, AO_GE,                  /* = <> (also !=) < <= > >= */
    AO_AND, AO_OR,
    AO_NEG, AO_POS, AO_NOT                                     /* unary */
} AstOp;

typedef enum AstIsWhat {
    AIS_NULL, AIS_TRUE, AIS_FALSE, AIS_UNKNOWN, AIS_DISTINCT_FROM
} AstIsWhat;

typedef enum AstFrameKind { AF_NONE = 0, AF_ROWS, AF_RANGE } AstFrameKind;
typedef enum AstBoundKind {
    AB_NONE = 0, AB_UNBOUNDED_PRECEDING, AB_PRECEDING, AB_CURRENT_ROW, AB_FOLLOWING,
    AB_UNBOUNDED_FOLLOWING
} AstBoundKind;

typedef struct AstOrderItem {
    AstExpr *expr;
    bool desc;
    int nulls;          /* 0 default, 1 NULLS FIRST, 2 NULLS LAST */
} AstOrderItem;

typedef struct AstOver {
    char *ref_name;     /* OVER w (named window), else NULL */
    int npartition;
    AstExpr **partition;
    int norder;
    AstOrderItem *order;
    AstFrameKind frame;
    AstBoundKind start_kind, end_kind;
    AstExpr *start_expr, *end_expr;   /* for n PRECEDING / INTERVAL '1' HOUR PRECEDING */
    AstPos pos;
} AstOver;

struct AstExpr {
    AstExprKind kind;
    AstPos pos;
    /* AE_LITERAL */
    AstLitKind lit;
    char *text;             /* literal text (unquoted/unescaped), or NULL */
    int iv_start, iv_end;   /* AL_INTERVAL: AstTimeUnit qualifiers; iv_end = AU_NONE for one unit */
    int iv_precision, iv_frac;      /* AL_INTERVAL: -1 if not given */
    bool negative;          /* AL_INTERVAL: INTERVAL -'1' or '-1' handled in text; this marks a leading - */
    /* AE_COLUMN, AE_STAR (qualifier), AE_FUNC (function name), AE_TABLE_ARG (table name);
       AE_SCOPE_REF: the column's name */
    AstName name;
    int scope_col;          /* AE_SCOPE_REF */
    /* AE_UNARY, AE_BINARY */
    AstOp op;
    /* operands / arguments: AE_UNARY [x], AE_BINARY [l, r], AE_FUNC args, AE_IN [x, list...],
       AE_BETWEEN [x, lo, hi], AE_LIKE [x, pattern, escape?], AE_IS [x] or [x, y],
       AE_ROW/AE_ARRAY/AE_MAP items, AE_ITEM [base, index], AE_FIELD [base], AE_CAST [x],
       AE_QUANTIFIED [x], AE_DESCRIPTOR: columns as AE_COLUMN, AE_NAMED_ARG [value] */
    int nargs;
    AstExpr **args;
    /* flags */
    bool negated;           /* NOT IN, NOT BETWEEN, NOT LIKE, IS NOT ..., NOT EXISTS */
    bool distinct;          /* COUNT(DISTINCT x) */
    bool star_arg;          /* COUNT(*) */
    bool try_cast;          /* TRY_CAST */
    bool symmetric;         /* BETWEEN SYMMETRIC */
    bool similar;           /* SIMILAR TO instead of LIKE */
    AstIsWhat is_what;      /* AE_IS */
    AstOp cmp;              /* AE_QUANTIFIED comparison */
    bool all;               /* AE_QUANTIFIED: ALL (else ANY/SOME) */
    /* AE_CASE: optional operand, WHEN/THEN pairs, optional ELSE */
    AstExpr *case_operand;
    int nwhen;
    AstExpr **when;
    AstExpr **then;
    AstExpr *else_expr;
    /* AE_CAST */
    AstType *type;
    /* AE_IN / AE_EXISTS / AE_SUBQUERY / AE_QUANTIFIED with a subquery */
    AstQuery *subquery;
    /* AE_FUNC: aggregate FILTER (WHERE ...), OVER (...), WITHIN GROUP (ORDER BY ...) */
    AstExpr *filter;
    AstOver *over;
    int nwithin;
    AstOrderItem *within;
    /* AE_TIMEUNIT */
    AstTimeUnit unit;
    /* AE_FIELD field name / AE_NAMED_ARG name / a niladic AE_FUNC ('N') as written, which is its
       column's name in a SELECT list (Calcite parses it as an identifier: current_date) */
    char *str;
    /* AE_FUNC special syntax marker, so the binder can give precise errors: 0 normal,
       'T' TRIM(BOTH|LEADING|TRAILING x FROM y): args = [mode literal 'BOTH'.., chars or NULL, y],
       'S' SUBSTRING(x FROM a [FOR b]) -> args [x, a, b?], 'P' POSITION(a IN b) -> args [a, b],
       'O' OVERLAY(x PLACING y FROM a [FOR b]), 'E' EXTRACT(unit FROM x) -> args [AE_TIMEUNIT, x],
       'F' FLOOR/CEIL(x TO unit) -> args [x, AE_TIMEUNIT],
       'J' JSON_OBJECT / JSON_ARRAY / JSON_OBJECTAGG / JSON_ARRAYAGG -> args [on-null literal
           'NULL_ON_NULL' or 'ABSENT_ON_NULL' (Calcite's defaults when not written), then the
           values (JSON_OBJECT: key, value, key, value ...)]; JSON_ARRAYAGG(v ORDER BY ..) order in within,
       'I' x IS [NOT] JSON [VALUE|OBJECT|ARRAY|SCALAR] -> name "IS JSON VALUE" etc., args [x], negated,
       'N' a niladic function written without parentheses (USER, CURRENT_TIMESTAMP, LOCALTIME,
           CURRENT_ROW_TIMESTAMP, ...): Calcite resolves such a name to a column of that name first
           (e.g. an unquoted `user` column in a SELECT list), so the binder should try that.
       'j' a JDBC escape {fn NAME(..)} whose NAME is no JDBC function (parse_jdbc.c): refused,
       'u' a JDBC escape Flink cannot run (name: Calcite's operator): refused with Flink's message,
       'I' also names the negated form "IS NOT JSON VALUE" etc. (then `negated` stays false),
       'R' a JSON(text) call that is a value of JSON_OBJECT / JSON_ARRAY (set by the binder: JSON()
           is refused anywhere else).
       JSON_VALUE/JSON_QUERY/JSON_EXISTS: args laid out by parse_expr.c's json_path_call:
       JSON_VALUE [x, path, CAST(NULL AS returning) or NULL, empty mode 'NULL'|'ERROR'|'DEFAULT',
       empty default or NULL, error mode, error default or NULL]; JSON_QUERY [x, path, wrapper
       'WITHOUT'|'CONDITIONAL'|'UNCONDITIONAL', empty mode, error mode] (modes 'NULL'|'ERROR'|
       'EMPTY ARRAY'|'EMPTY OBJECT'); JSON_EXISTS [x, path, optional 'TRUE'|'FALSE'|'UNKNOWN'|
       'ERROR']. A leading minus on a number stays AE_UNARY(AO_NEG, literal). */
    char special;
};

/* ---- FROM items ---- */
typedef enum AstFromKind {
    AFR_TABLE,          /* name [FOR SYSTEM_TIME AS OF expr] [hint OPTIONS(..)] [AS alias (cols)] */
    AFR_SUBQUERY,       /* (query) [AS] alias [(cols)] */
    AFR_JOIN,
    AFR_TVF,            /* TABLE(func(args)) [AS alias]: window TVFs and others; also func(args)
                           written without TABLE(...) (process table functions) */
    AFR_UNNEST,         /* UNNEST(expr) [WITH ORDINALITY] AS t(c) */
    AFR_LATERAL,        /* LATERAL TABLE(func(args)) AS t(c) */
    AFR_MATCH           /* left MATCH_RECOGNIZE (...) [AS alias]: `match` (ast_match.h) */
} AstFromKind;

typedef enum AstJoinType {
    AJ_INNER, AJ_LEFT, AJ_RIGHT, AJ_FULL, AJ_CROSS, AJ_COMMA
} AstJoinType;

struct AstFrom {
    AstFromKind kind;
    AstPos pos;
    AstName name;               /* AFR_TABLE */
    AstHints hints;             /* table hints, e.g. OPTIONS */
    AstExpr *system_time;       /* FOR SYSTEM_TIME AS OF */
    char *alias;                /* NULL if none */
    int ncol_aliases;
    char **col_aliases;
    AstQuery *subquery;         /* AFR_SUBQUERY */
    AstJoinType join_type;      /* AFR_JOIN */
    bool natural;
    AstFrom *left, *right;
    AstExpr *on;
    int nusing;
    char **using_cols;
    AstExpr *call;              /* AFR_TVF / AFR_LATERAL: the AE_FUNC call; AFR_UNNEST: the array expr */
    bool with_ordinality;
    struct AstMatchRecognize *match;    /* AFR_MATCH (ast_match.h) */
};

/* ---- queries ---- */
typedef enum AstQueryKind { AQ_SELECT, AQ_SETOP, AQ_VALUES } AstQueryKind;
typedef enum AstSetOp { ASO_UNION, ASO_INTERSECT, ASO_EXCEPT } AstSetOp;

typedef struct AstSelectItem {
    AstExpr *expr;
    char *alias;            /* NULL if none */
} AstSelectItem;

typedef struct AstCte {
    char *name;
    int ncols;
    char **cols;
    AstQuery *query;
    AstPos pos;
} AstCte;

typedef struct AstNamedWindow {
    char *name;
    AstOver *spec;
} AstNamedWindow;

typedef enum AstGroupKind { AG_EXPR, AG_GROUPING_SETS, AG_ROLLUP, AG_CUBE } AstGroupKind;
typedef struct AstGroupItem {
    AstGroupKind kind;
    AstExpr *expr;          /* AG_EXPR */
    int nsets;              /* others: each set is a list of exprs */
    int *set_sizes;
    AstExpr ***sets;
} AstGroupItem;

struct AstQuery {
    AstQueryKind kind;
    AstPos pos;
    /* WITH */
    int nctes;
    AstCte *ctes;
    /* AQ_SELECT */
    AstHints hints;         /* hint comment right after SELECT */
    bool distinct;
    int nitems;
    AstSelectItem *items;
    AstFrom *from;          /* NULL when no FROM */
    AstExpr *where;
    int ngroup;
    AstGroupItem *group;
    AstExpr *having;
    int nwindows;
    AstNamedWindow *windows;
    AstExpr *qualify;
    /* AQ_SETOP */
    AstSetOp setop;
    bool all;
    AstQuery *left, *right;
    /* AQ_VALUES: rows of expressions (each row an AE_ROW or a single expression) */
    int nrows;
    AstExpr **rows;
    /* ORDER BY / LIMIT / OFFSET / FETCH (apply to the whole query) */
    int norder;
    AstOrderItem *order;
    AstExpr *limit;
    AstExpr *offset;
};

/* ---- statements ---- */
/* INSERT ... ON CONFLICT DO <behaviour> (Flink 2.3, FLIP-558): how rows with different upsert
   keys that map to one sink primary key are resolved. */
typedef enum AstConflict { ACF_NONE = 0, ACF_DEDUPLICATE, ACF_ERROR, ACF_NOTHING } AstConflict;

typedef enum AstStmtKind {
    AS_QUERY,
    AS_INSERT,
    AS_CREATE_TABLE,
    AS_CREATE_VIEW,
    AS_DROP_TABLE,
    AS_DROP_VIEW,
    AS_ALTER_TABLE,         /* parsed, reported as not supported */
    AS_SHOW,
    AS_DESCRIBE,
    AS_SET,
    AS_RESET,
    AS_EXPLAIN,
    AS_COMPILE_PLAN,        /* COMPILE PLAN 'f' [IF NOT EXISTS] FOR <insert | statement set> */
    AS_COMPILE_AND_EXECUTE, /* COMPILE AND EXECUTE PLAN 'f' FOR ... */
    AS_EXECUTE_PLAN,        /* EXECUTE PLAN 'f' */
    AS_BEGIN_STATEMENT_SET,
    AS_END,
    AS_STATEMENT_SET,       /* [EXECUTE] STATEMENT SET BEGIN insert; ...; END */
    AS_EXECUTE,             /* EXECUTE <insert | query> */
    AS_STOP_JOB,
    AS_USE,                 /* USE [CATALOG] name */
    AS_CREATE_FUNCTION,     /* parsed, reported as not supported */
    AS_CREATE_CATALOG,      /* CREATE CATALOG [IF NOT EXISTS] c [COMMENT '..'] WITH (..) */
    AS_CREATE_DATABASE,     /* CREATE DATABASE [IF NOT EXISTS] [c.]d [COMMENT '..'] [WITH (..)] */
    AS_DROP_CATALOG,        /* DROP CATALOG [IF EXISTS] c */
    AS_DROP_DATABASE,       /* DROP DATABASE [IF EXISTS] [c.]d [RESTRICT | CASCADE] */
    AS_ALTER_CATALOG,       /* ALTER CATALOG c SET (..) | RESET (..) | COMMENT '..' */
    AS_ALTER_DATABASE,      /* ALTER DATABASE [c.]d SET (..) */
    AS_DESCRIBE_CATALOG,    /* DESCRIBE CATALOG [EXTENDED] c */
    AS_ADD_JAR,             /* ADD JAR 'path' (value): a missing file as Flink, an existing jar refused */
    AS_REMOVE_JAR,          /* REMOVE JAR 'path' (value): as Flink for a jar that was never added */
    AS_ALTER_VIEW,          /* ALTER VIEW v RENAME TO w (alter_kind AAL_RENAME) | AS query (AAL_VIEW_QUERY) */
    AS_LOAD_MODULE,         /* LOAD MODULE name [WITH (..)] */
    AS_UNLOAD_MODULE,       /* UNLOAD MODULE name */
    AS_USE_MODULES,         /* USE MODULES a [, b ...]: names / nnames */
    AS_DROP_FUNCTION,       /* DROP [TEMPORARY [SYSTEM]] FUNCTION [IF EXISTS] name */
    AS_DESCRIBE_FUNCTION,   /* DESCRIBE FUNCTION [EXTENDED] name */
    AS_HELP,
    AS_QUIT,
    AS_CLEAR,
    AS_OTHER                /* valid Flink SQL weir does not run (DROP FUNCTION, LOAD MODULE, ALTER VIEW,
                               SHOW PARTITIONS, ...): `other` names it, e.g. "DROP FUNCTION" */
} AstStmtKind;

/* AS_ALTER_TABLE: what the ALTER does */
typedef enum AstAlterKind {
    AAL_OTHER = 0,          /* COMPACT / DISTRIBUTED ... (only the target is recorded) */
    AAL_RENAME,             /* RENAME TO rename_to */
    AAL_SET_OPTIONS,        /* SET ('k' = 'v', ...) -> options */
    AAL_RESET_OPTIONS,      /* RESET ('k', ...) -> options with value NULL */
    AAL_COMMENT,            /* ALTER CATALOG c COMMENT 'x' -> comment */
    AAL_ADD,                /* ADD component | (components): cols (with first/after), wm_*, pk_* */
    AAL_MODIFY,             /* MODIFY component | (components): as ADD */
    AAL_DROP_COLUMNS,       /* DROP col | (col, ...): names in view_cols / nview_cols */
    AAL_DROP_PRIMARY_KEY,   /* DROP PRIMARY KEY | DROP CONSTRAINT name (name in key) */
    AAL_DROP_WATERMARK,     /* DROP WATERMARK */
    AAL_RENAME_COLUMN,      /* RENAME col TO new: key -> value */
    AAL_VIEW_QUERY          /* ALTER VIEW v AS query: query, query_sql */
} AstAlterKind;

typedef enum AstShowKind {
    ASH_TABLES, ASH_VIEWS, ASH_JOBS, ASH_FUNCTIONS, ASH_USER_FUNCTIONS, ASH_CATALOGS, ASH_DATABASES,
    ASH_CURRENT_CATALOG, ASH_CURRENT_DATABASE, ASH_MODULES, ASH_FULL_MODULES, ASH_JARS,
    ASH_CREATE_TABLE, ASH_CREATE_VIEW, ASH_COLUMNS, ASH_CREATE_CATALOG
} AstShowKind;

typedef struct AstColumnDef {
    char *name;
    AstType *type;          /* NULL for computed columns */
    AstExpr *computed;      /* name AS expr */
    bool metadata;          /* name type METADATA [FROM 'key'] [VIRTUAL] */
    char *metadata_key;
    bool is_virtual;
    char *comment;
    bool primary_key;       /* column-level PRIMARY KEY NOT ENFORCED */
    bool pk_enforced;       /* PRIMARY KEY without NOT ENFORCED (an error Flink reports) */
    AstPos pos;
    bool first;             /* ALTER TABLE ADD/MODIFY ... FIRST */
    char *after;            /* ALTER TABLE ADD/MODIFY ... AFTER col */
} AstColumnDef;

typedef struct AstOption {
    char *key;
    char *value;
    AstPos pos;
} AstOption;

/* EXPLAIN details (bit flags) */
enum {
    AX_ESTIMATED_COST = 1, AX_CHANGELOG_MODE = 2, AX_JSON_EXECUTION_PLAN = 4, AX_PLAN_ADVICE = 8
};

struct AstStmt {
    AstStmtKind kind;
    AstPos pos;
    char *sql;              /* the statement's own text, trimmed, without the trailing ';' */
    /* AS_QUERY / AS_INSERT source / AS_CREATE_VIEW query / CTAS query */
    AstQuery *query;
    /* AS_INSERT */
    AstName target;         /* also: CREATE/DROP/DESCRIBE/SHOW CREATE name; USE name */
    AstHints target_hints;
    bool overwrite;
    int ninsert_cols;
    char **insert_cols;
    int npartition;
    AstOption *partition;   /* PARTITION (k = 'v') */
    AstConflict on_conflict;   /* ON CONFLICT DO ... after the query */
    /* CREATE TABLE / VIEW */
    bool temporary;
    bool if_not_exists;
    bool if_exists;         /* DROP */
    int ncols;
    AstColumnDef *cols;
    char *wm_column;        /* WATERMARK FOR col AS expr */
    AstExpr *wm_expr;
    AstPos wm_pos;
    int npk;
    char **pk_cols;
    bool pk_enforced;       /* PRIMARY KEY (..) without NOT ENFORCED */
    AstPos pk_pos;
    int npartitioned;
    char **partitioned_by;
    int noptions;
    AstOption *options;     /* WITH (...) */
    char *comment;
    AstName like_table;     /* CREATE TABLE .. LIKE src (n = 0 if none) */
    /* LIKE src (INCLUDING | EXCLUDING | OVERWRITING feature, ...) in the order written */
    int nlike_opts;
    AstLikeMode like_mode[16];
    AstLikeFeature like_feature[16];
    int nview_cols;         /* CREATE VIEW v (a, b) */
    char **view_cols;
    /* AS_SHOW */
    AstShowKind show;
    char *like_pattern;     /* SHOW TABLES LIKE '...' */
    bool not_like;
    /* AS_SET / AS_RESET: key NULL means list all / reset all */
    char *key;
    char *value;
    /* AS_EXPLAIN: details bits, and the statement explained (query, insert or statement set) */
    int explain_details;
    bool explain_plan_for;  /* EXPLAIN PLAN FOR ... */
    AstStmt *inner;
    /* AS_COMPILE_PLAN / AS_COMPILE_AND_EXECUTE / AS_EXECUTE_PLAN */
    char *plan_file;
    /* AS_STATEMENT_SET: the INSERTs */
    int nstmts;
    AstStmt **stmts;
    /* AS_STOP_JOB */
    char *job_id;
    bool with_savepoint;
    bool with_drain;
    /* AS_USE */
    bool use_catalog;
    /* --- additions --- */
    bool ilike;             /* AS_SHOW: ILIKE instead of LIKE (case-insensitive pattern) */
    AstAlterKind alter_kind;    /* AS_ALTER_TABLE */
    AstName rename_to;      /* AS_ALTER_TABLE RENAME TO */
    const char *other;      /* AS_OTHER: the statement's kind, e.g. "DROP FUNCTION" */
    bool cascade;           /* AS_DROP_DATABASE ... CASCADE */
    bool extended;          /* DESCRIBE [CATALOG] EXTENDED */
    char *query_sql;        /* AS_CREATE_VIEW / ALTER VIEW AS: the query's text as written */
    bool system_function;   /* AS_DROP_FUNCTION / AS_CREATE_FUNCTION: TEMPORARY SYSTEM */
    int nnames;             /* AS_USE_MODULES: the module names in order */
    char **names;
};

typedef struct AstScript {
    int n;
    AstStmt **stmts;
} AstScript;

#endif
