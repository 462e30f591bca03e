/*
 * session_options.h — the inventory of the session options (SET keys) of Flink's table and
 * execution configuration that weir knows, and what SET says about the others (issue 13).
 *
 * Contract. The watched namespaces are table.exec.*, table.optimizer.*, execution.*, state.*,
 * pipeline.* and parallelism.default. Flink's SET accepts any key and prints nothing more than
 * "Execute statement succeeded." (measured on Flink 2.3); weir accepts any key too (scripts written
 * for Flink set keys weir does not implement), but for a watched key whose value changes nothing in
 * weir — one weir does not read, or one it only reports (REST, COMPILE PLAN) without acting on it —
 * wsession_option_warning gives the warning SET prints. Every key weir reads is in the inventory
 * (tests/unit/test_session_option_inventory.c scans src/ for them), each with its class:
 *   WSO_APPLIED    weir acts on it; `note` names a test file that sets it and shows the effect;
 *   WSO_UNPROVEN   weir acts on it (`note`: where), no test shows it yet (open work, issue 13);
 *   WSO_TUNING     in Flink it tunes resources or performance only, changing no result (`note`);
 *   WSO_SHOWN_ONLY weir only reports it (REST configuration, COMPILE PLAN): SET warns (`note`).
 * wsession_option_check is SET's own check of a value: Flink 2.3's SQL client applies the
 * execution environment's options (parallelism.default, execution.runtime-mode, pipeline.*,
 * the checkpointing options of the environment) at the SET itself, which fails on a value they do
 * not parse (measured); table.* options are read later, by the planner.
 * Depends on common/strbuf (the warning), common/options and common/error (the checks).
 */
#ifndef WEIR_SESSION_SESSION_OPTIONS_H
#define WEIR_SESSION_SESSION_OPTIONS_H

#include "../common/error.h"

#include <stdbool.h>

typedef enum WSessionOptionClass { WSO_APPLIED, WSO_UNPROVEN, WSO_TUNING, WSO_SHOWN_ONLY } WSessionOptionClass;

typedef struct WSessionOption {
    const char *key;
    WSessionOptionClass cls;
    const char *note;           /* see the classes above */
} WSessionOption;

/* The inventory, ended by an entry with key NULL. */
const WSessionOption *wsession_options(void);
/* The entry of key, or NULL. */
const WSessionOption *wsession_option_find(const char *key);
/* Is key in one of the watched namespaces? */
bool wsession_option_watched(const char *key);
/* The warning SET prints for key (heap string), or NULL when weir acts on it or it is not watched. */
char *wsession_option_warning(const char *key);
/* SET key = value: false + Flink's error when the SET itself fails (the value is not taken);
   *stored: NULL, or the value to store instead (heap; an enum's value trimmed, as Flink reads it). */
bool wsession_option_check(const char *key, const char *value, char **stored, WError *err);

#endif
