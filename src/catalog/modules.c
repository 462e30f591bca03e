/*
 * modules.c — the session's modules (Flink's ModuleManager): the modules loaded, in load order, and
 * the ones used for function resolution, in resolution order. A session starts with Flink's 'core'
 * module loaded and used; LOAD MODULE appends a module to both lists, UNLOAD MODULE removes it from
 * both, USE MODULES picks and orders the used ones. The module types weir has are the factories
 * LOAD MODULE can create ('core' only: its built-in functions are weir's function library; as
 * Flink's, it takes no options and does not check the ones given).
 * Messages are Flink's. See catalog.h.
 */
#include "catalog.h"

#include <stdlib.h>
#include <string.h>

#define CORE_MODULE "core"

/* module factories weir has, sorted (Flink lists the available identifiers sorted) */
static const char *const MODULE_TYPES[] = {CORE_MODULE, NULL};

static int find(char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) return i;
    return -1;
}

void wmodules_init(WModules *m)
{
    memset(m, 0, sizeof *m);
    m->loaded = wcalloc(1, sizeof(char *));
    m->used = wcalloc(1, sizeof(char *));
    m->cap = 1;
    m->loaded[m->nloaded++] = wstrdup(CORE_MODULE);
    m->used[m->nused++] = wstrdup(CORE_MODULE);
}

void wmodules_free(WModules *m)
{
    for (int i = 0; i < m->nloaded; i++) free(m->loaded[i]);
    for (int i = 0; i < m->nused; i++) free(m->used[i]);
    free(m->loaded);
    free(m->used);
    memset(m, 0, sizeof *m);
}

static void grow(WModules *m)
{
    if (m->nloaded < m->cap) return;
    m->cap = m->cap * 2 + 2;
    m->loaded = wrealloc(m->loaded, sizeof(char *) * (size_t)m->cap);
    m->used = wrealloc(m->used, sizeof(char *) * (size_t)m->cap);
}

bool wmodules_load(WModules *m, const char *name, const WOptions *options, WError *err)
{
    if (find(m->loaded, m->nloaded, name) >= 0)
        return werr_set(err, WEXC_VALIDATION, "A module with name '%s' already exists", name);
    bool known = false;
    for (int i = 0; MODULE_TYPES[i]; i++) known |= strcmp(MODULE_TYPES[i], name) == 0;
    if (!known) {
        WStrBuf b;
        wsb_init(&b);
        for (int i = 0; MODULE_TYPES[i]; i++) wsb_printf(&b, "%s%s", i ? "\n" : "", MODULE_TYPES[i]);
        werr_set(err, WEXC_VALIDATION,
                 "Could not find any factory for identifier '%s' that implements "
                 "'org.apache.flink.table.factories.ModuleFactory' in the classpath.\n\n"
                 "Available factory identifiers are:\n\n%s", name, b.buf);
        wsb_free(&b);
        return false;
    }
    /* the core module has no options; Flink's core module factory does not validate the ones
       given WITH (...) either, so they are accepted and have no effect, as in Flink */
    (void)options;
    grow(m);
    m->loaded[m->nloaded++] = wstrdup(name);
    m->used[m->nused++] = wstrdup(name);
    return true;
}

bool wmodules_unload(WModules *m, const char *name, WError *err)
{
    int i = find(m->loaded, m->nloaded, name);
    if (i < 0) return werr_set(err, WEXC_VALIDATION, "No module with name '%s' exists", name);
    free(m->loaded[i]);
    memmove(&m->loaded[i], &m->loaded[i + 1], sizeof(char *) * (size_t)(m->nloaded - i - 1));
    m->nloaded--;
    int u = find(m->used, m->nused, name);
    if (u >= 0) {
        free(m->used[u]);
        memmove(&m->used[u], &m->used[u + 1], sizeof(char *) * (size_t)(m->nused - u - 1));
        m->nused--;
    }
    return true;
}

bool wmodules_use(WModules *m, char *const *names, int n, WError *err)
{
    for (int i = 0; i < n; i++) {
        if (find(m->loaded, m->nloaded, names[i]) < 0)
            return werr_set(err, WEXC_VALIDATION, "No module with name '%s' exists", names[i]);
        if (find(names, i, names[i]) >= 0)
            return werr_set(err, WEXC_VALIDATION, "Module '%s' appears more than once", names[i]);
    }
    for (int i = 0; i < m->nused; i++) free(m->used[i]);
    m->nused = 0;
    for (int i = 0; i < n; i++) m->used[m->nused++] = wstrdup(names[i]);
    return true;
}

bool wmodules_core_used(const WModules *m) { return find(m->used, m->nused, CORE_MODULE) >= 0; }
