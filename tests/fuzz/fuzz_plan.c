/*
 * fuzz_plan.c — libFuzzer target for the compiled-plan reader (EXECUTE PLAN's input): every input
 * is read as a compiled plan JSON (src/explain/plan_reader*.c, with plan_reader_check.c's checks of
 * every index and shape) and, when it is accepted, built into a job (src/runtime/build.c, where a
 * plan's indexes meet the operators) that is freed without running. A plan the reader accepts must
 * build without a memory error. Seeds: plans weir compiled (tests/fuzz/seeds/plan).
 * Depends on src/explain, src/runtime and what they use.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/catalog/catalog.h"
#include "../../src/explain/explain.h"
#include "../../src/runtime/job.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *json = malloc(size + 1);
    if (!json) return 0;
    memcpy(json, data, size);
    json[size] = 0;

    WArena *a = warena_new(0);
    WCatalog cat;
    wcatalog_init(&cat);
    WOptions config;
    wopts_init(&config);
    WCastCtx cast = {0};
    WError err;
    werr_clear(&err);
    WPlanCtx p = {.arena = a, .catalog = &cat, .config = &config, .cast = &cast, .err = &err};
    WRel **roots = NULL;
    int n = wplan_from_json(&p, json, &roots);
    if (n > 0) {
        WJobEnv env = {.config = &config, .cast = &cast, .print_out = NULL};
        WJob *job = wjob_build(&p, roots, n, &env);
        if (job) wjob_free(job);
    }
    wopts_free(&config);
    wcatalog_free(&cat);
    warena_delete(a);
    free(json);
    return 0;
}
