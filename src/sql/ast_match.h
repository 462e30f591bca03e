/*
 * ast_match.h — syntax tree of a MATCH_RECOGNIZE clause (parse_match.c builds it, the binder's
 * bind_match.c reads it).
 *
 * Contract: an AFR_MATCH FROM item (ast.h) has its input table reference in `left` and this
 * clause in `match`; its alias / column aliases are the output's. Everything lives in the
 * statement arena. Pattern terms keep the structure as written (grouping and alternation are
 * parsed so that the binder can refuse them with Flink's messages). Depends on ast.h.
 */
#ifndef WEIR_SQL_AST_MATCH_H
#define WEIR_SQL_AST_MATCH_H

#include "ast.h"

typedef enum AstPatKind {
    APK_VAR,        /* a pattern variable */
    APK_CONCAT,     /* items[0] items[1] ... */
    APK_ALT,        /* items[0] | items[1] | ... */
    APK_GROUP,      /* ( items[0] ) */
    APK_PERMUTE,    /* PERMUTE(items...) */
    APK_EXCLUDE,    /* {- items[0] -} */
    APK_QUANT       /* items[0] with a quantifier min..max (max -1 = unbounded) */
} AstPatKind;

typedef struct AstPattern AstPattern;
struct AstPattern {
    AstPatKind kind;
    AstPos pos;
    char *var;              /* APK_VAR */
    int nitems;
    AstPattern **items;
    int min, max;           /* APK_QUANT */
    bool reluctant;         /* APK_QUANT written with a trailing ? */
};

typedef enum AstAfterMatch {
    AAM_DEFAULT,            /* not written: Calcite's default, SKIP TO NEXT ROW */
    AAM_PAST_LAST_ROW, AAM_TO_NEXT_ROW, AAM_TO_FIRST, AAM_TO_LAST
} AstAfterMatch;

typedef struct AstMatchRecognize {
    AstPos pos;
    int npartition;
    AstExpr **partition;
    int norder;
    AstOrderItem *order;
    int nmeasures;
    AstExpr **measures;
    char **measure_names;
    bool all_rows;          /* ALL ROWS PER MATCH */
    AstPos rows_pos;
    AstAfterMatch after;
    char *after_var;        /* TO FIRST / TO LAST */
    AstPattern *pattern;
    bool strict_start, strict_end;      /* ^ and $ */
    AstExpr *within;        /* WITHIN INTERVAL '..' unit, or NULL */
    int nsubsets;
    char **subset_names;
    int *subset_nvars;
    char ***subset_vars;
    int ndefines;
    char **define_names;
    AstExpr **defines;
} AstMatchRecognize;

#endif
