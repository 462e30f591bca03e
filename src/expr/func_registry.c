/*
 * func_registry.c — the scalar function catalogue: wfunc_lookup (case-insensitive, with Flink's
 * aliases such as CEILING, CHARACTER_LENGTH, NOW) and wfunc_all for SHOW FUNCTIONS.
 * Depends on func_impl.h (the per-family tables).
 */
#include "func_impl.h"

#include <strings.h>

static const WFuncDef *const *const FAMILIES[] = {
    wf_arith_defs, wf_compare_defs, wf_string_defs, wf_string_more_defs, wf_regex_defs, wf_numeric_defs, wf_time_defs,
    wf_misc_defs, wf_collection_defs, wf_json_defs, wf_json_quote_defs, wf_url_defs, wf_charset_defs, wf_printf_defs,
};
#define NFAM ((int)(sizeof FAMILIES / sizeof FAMILIES[0]))

static const struct { const char *alias, *name; } ALIASES[] = {
    { "CEILING", "CEIL" },
    { "CHARACTER_LENGTH", "CHAR_LENGTH" },
    { "SIMILAR TO", "SIMILAR" },
    { "POW", "POWER" },
    { "LCASE", "LOWER" },
    { "UCASE", "UPPER" },
    { "MINUS", "-" },
    { "PLUS", "+" },
    { "UNARY_MINUS", "NEG" },
    { "TIMESTAMP_ADD", "TIMESTAMPADD" },
    { "TIMESTAMP_DIFF", "TIMESTAMPDIFF" },
};

const WFuncDef *wfunc_lookup(const char *name)
{
    if (!name) return NULL;
    for (size_t i = 0; i < sizeof ALIASES / sizeof ALIASES[0]; i++)
        if (strcasecmp(name, ALIASES[i].alias) == 0) { name = ALIASES[i].name; break; }
    for (int f = 0; f < NFAM; f++)
        for (const WFuncDef *const *d = FAMILIES[f]; *d; d++)
            if (strcasecmp((*d)->name, name) == 0) return *d;
    return NULL;
}

static const char *family(const WType *t)
{
    switch (t->id) {
    case WT_NULL: return "NULL";
    case WT_BOOLEAN: return "BOOLEAN";
    case WT_TINYINT: case WT_SMALLINT: case WT_INT: case WT_BIGINT: case WT_FLOAT: case WT_DOUBLE:
    case WT_DECIMAL: return "NUMERIC";
    case WT_CHAR: case WT_VARCHAR: return "CHARACTER";
    case WT_BINARY: case WT_VARBINARY: return "BINARY";
    case WT_DATE: return "DATE";
    case WT_TIME: return "TIME";
    case WT_TIMESTAMP: case WT_TIMESTAMP_LTZ: return "TIMESTAMP";
    case WT_INTERVAL_YM: return "INTERVAL_YEAR_MONTH";
    case WT_INTERVAL_DT: return "INTERVAL_DAY_TIME";
    case WT_ARRAY: return "ARRAY";
    case WT_MAP: return "MAP";
    case WT_MULTISET: return "MULTISET";
    default: return "ANY";
    }
}

bool wfunc_unknown_error(WError *err, const char *name, const WType **args, int nargs)
{
    WStrBuf b;
    wsb_init(&b);
    wsb_printf(&b, "No match found for function signature %s(", name);
    for (int i = 0; i < nargs; i++) wsb_printf(&b, "%s<%s>", i ? ", " : "", family(args[i]));
    wsb_putc(&b, ')');
    werr_set(err, WEXC_CALCITE, "%s", b.buf);
    wsb_free(&b);
    return false;
}

/* Operators and internal names are not listed by SHOW FUNCTIONS. */
bool wfunc_listed(const WFuncDef *d)
{
    const char *n = d->name;
    if (!((n[0] >= 'A' && n[0] <= 'Z') || (n[0] >= 'a' && n[0] <= 'z'))) return false;
    if (strchr(n, ' ')) return false;
    if (!strcmp(n, "NEG") || !strcmp(n, "HASH_CODE") || !strcmp(n, "FIELD") || !strcmp(n, "ITEM")) return false;
    return true;
}

#define WF_MAX_LISTED 512

/* The listing is derived from the constant tables on each call into a per-thread buffer (no
   shared mutable state); names sorted as SHOW FUNCTIONS prints them. */
const WFuncDef *const *wfunc_all(void)
{
    static _Thread_local const WFuncDef *buf[WF_MAX_LISTED + 1];
    int k = 0;
    for (int f = 0; f < NFAM; f++)
        for (const WFuncDef *const *d = FAMILIES[f]; *d && k < WF_MAX_LISTED; d++)
            if (wfunc_listed(*d)) buf[k++] = *d;
    for (int i = 1; i < k; i++) {
        const WFuncDef *x = buf[i];
        int j = i - 1;
        while (j >= 0 && strcasecmp(buf[j]->name, x->name) > 0) { buf[j + 1] = buf[j]; j--; }
        buf[j + 1] = x;
    }
    buf[k] = NULL;
    return buf;
}
