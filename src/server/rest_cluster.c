/*
 * rest_cluster.c — cluster-level REST endpoints: /config, /overview, /jobmanager/config,
 * /taskmanagers[/:tmid[/thread-dump]]. See rest.h.
 */
#include "rest.h"
#include "../common/arena.h"
#include "../common/strbuf.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef WEIR_VERSION
#define WEIR_VERSION "0.1.0"
#endif

json_t *wrest_error(const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return json_pack("{s:[s]}", "errors", buf);
}

const char *wrest_query(const char *query, const char *key, char *buf, size_t n)
{
    if (!query) return NULL;
    size_t kl = strlen(key);
    for (const char *p = query; p && *p;) {
        const char *amp = strchr(p, '&');
        size_t len = amp ? (size_t)(amp - p) : strlen(p);
        if (len >= kl && !strncmp(p, key, kl) && (len == kl || p[kl] == '=')) {
            const char *v = len == kl ? "" : p + kl + 1;
            size_t vl = len == kl ? 0 : len - kl - 1;
            if (vl >= n) vl = n - 1;
            memcpy(buf, v, vl);
            buf[vl] = 0;
            return buf;
        }
        p = amp ? amp + 1 : NULL;
    }
    return NULL;
}

int wrest_job_slots(const WRegJob *j)
{
    int s = 1;
    if (j->graph)
        for (int i = 0; i < j->graph->nvertices; i++)
            if (j->graph->vertices[i].parallelism > s) s = j->graph->vertices[i].parallelism;
    return s;
}

static int slots_total(const WRest *r)
{
    const char *v = wcluster_get(r->cfg, "taskmanager.numberOfTaskSlots", "1");
    long n = strtol(v, NULL, 10);
    return n > 0 && n < 1000000 ? (int)n : 1;
}

/* (locked) */
static int slots_used(const WRest *r)
{
    int used = 0;
    for (int i = 0; i < r->reg->n; i++)
        if (!wjob_state_terminal(r->reg->jobs[i]->state)) used += wrest_job_slots(r->reg->jobs[i]);
    return used;
}

static json_t *config_json(void)
{
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    const char *zone = tm.tm_gmtoff == 0 && (!tm.tm_zone || !strcmp(tm.tm_zone, "UTC") || !strcmp(tm.tm_zone, "GMT"))
                           ? "Coordinated Universal Time" : tm.tm_zone ? tm.tm_zone : "UTC";
    return json_pack("{s:I, s:s, s:I, s:s, s:s, s:{s:b, s:b, s:b, s:b}}", "refresh-interval", (json_int_t)3000,
                     "timezone-name", zone, "timezone-offset", (json_int_t)tm.tm_gmtoff * 1000, "flink-version",
                     WEIR_FLINK_VERSION, "flink-revision", "weir " WEIR_VERSION, "features", "web-submit", 0,
                     "web-cancel", 1, "web-rescale", 0, "web-history", 0);
}

static json_t *overview_json(WRest *r)
{
    int running = 0, finished = 0, cancelled = 0, failed = 0;
    wregistry_lock(r->reg);
    for (int i = 0; i < r->reg->n; i++) {
        WJobState s = r->reg->jobs[i]->state;
        if (s == WJS_FINISHED) finished++;
        else if (s == WJS_CANCELED) cancelled++;
        else if (s == WJS_FAILED) failed++;
        else running++;
    }
    int total = slots_total(r), used = slots_used(r);
    wregistry_unlock(r->reg);
    int avail = total - used > 0 ? total - used : 0;
    return json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:s, s:s}", "taskmanagers", 1,
                     "slots-total", total, "slots-available", avail, "jobs-running", running, "jobs-finished", finished,
                     "jobs-cancelled", cancelled, "jobs-failed", failed, "flink-version", WEIR_FLINK_VERSION,
                     "flink-commit", "weir " WEIR_VERSION);
}

static bool sensitive(const char *key)
{
    static const char *const WORDS[] = {"password", "secret", "apikey", "auth-params", "service-key", "token",
                                        "basic-auth", "jaas.config", "account.key"};
    char low[256];
    size_t n = strlen(key);
    if (n >= sizeof low) n = sizeof low - 1;
    for (size_t i = 0; i < n; i++) low[i] = (char)(key[i] >= 'A' && key[i] <= 'Z' ? key[i] + 32 : key[i]);
    low[n] = 0;
    for (size_t i = 0; i < sizeof WORDS / sizeof WORDS[0]; i++)
        if (strstr(low, WORDS[i])) return true;
    return false;
}

static json_t *jobmanager_config(WRest *r)
{
    json_t *a = json_array();
    WOptions all;
    wopts_init(&all);
    char port[16];
    snprintf(port, sizeof port, "%d", r->port);
    wopts_set(&all, "rest.address", r->host);
    wopts_set(&all, "rest.bind-address", wcluster_bind_address(r->cfg));
    wopts_set(&all, "rest.port", port);
    wopts_set(&all, "parallelism.default", "1");
    wopts_set(&all, "taskmanager.numberOfTaskSlots", "1");
    wopts_set(&all, "state.backend.type", "hashmap");
    if (r->cfg) {
        for (int i = 0; i < r->cfg->opts.n; i++) {
            if (!strcmp(r->cfg->opts.items[i].key, "rest.port")) continue;
            wopts_set(&all, r->cfg->opts.items[i].key, r->cfg->opts.items[i].value);
        }
    }
    for (int i = 0; i < all.n; i++)
        json_array_append_new(a, json_pack("{s:s, s:s}", "key", all.items[i].key, "value",
                                           sensitive(all.items[i].key) ? "******" : all.items[i].value));
    wopts_free(&all);
    return a;
}

static long long meminfo(const char *key)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0;
    char line[256];
    long long v = 0;
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, key, kl) && line[kl] == ':') {
            v = strtoll(line + kl + 1, NULL, 10) * 1024;
            break;
        }
    }
    fclose(f);
    return v;
}

static long long rss_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return 0;
    long long pages = 0, rss = 0;
    if (fscanf(f, "%lld %lld", &pages, &rss) != 2) rss = 0;
    fclose(f);
    return rss * sysconf(_SC_PAGESIZE);
}

static json_t *resource(int cores)
{
    return json_pack("{s:f, s:i, s:i, s:i, s:i, s:{}}", "cpuCores", (double)cores, "taskHeapMemory", 0,
                     "taskOffHeapMemory", 0, "managedMemory", 0, "networkMemory", 0, "extendedResources");
}

static json_t *taskmanager_json(WRest *r, bool details)
{
    int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) cores = 1;
    long long phys = (long long)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE);
    wregistry_lock(r->reg);
    int total = slots_total(r), used = slots_used(r);
    int64_t now = wregistry_now();
    int tasks = 0;          /* subtasks deployed here: those of the jobs still running */
    for (int i = 0; i < r->reg->n; i++)
        if (!wjob_state_terminal(r->reg->jobs[i]->state) && r->reg->jobs[i]->graph)
            for (int v = 0; v < r->reg->jobs[i]->graph->nvertices; v++) tasks += r->reg->jobs[i]->graph->vertices[v].parallelism;
    json_t *alloc = details ? json_array() : NULL;
    if (details)
        for (int i = 0; i < r->reg->n; i++)
            if (!wjob_state_terminal(r->reg->jobs[i]->state))
                json_array_append_new(alloc, json_pack("{s:s, s:o}", "jobId", r->reg->jobs[i]->id, "resource",
                                                       resource(0)));
    wregistry_unlock(r->reg);
    int free_slots = total - used > 0 ? total - used : 0;
    char path[128];
    snprintf(path, sizeof path, "weir://%s:%d/taskmanager_0", r->host, r->port);
    json_t *tm = json_pack(
        "{s:s, s:s, s:i, s:i, s:I, s:i, s:i, s:i, s:o, s:o, s:{s:i, s:I, s:I, s:i}, s:{s:i, s:i, s:i, s:i, s:i, s:i, "
        "s:i, s:i, s:i, s:i}}",
        "id", r->tm_id, "path", path, "dataPort", -1, "jmxPort", -1, "timeSinceLastHeartbeat", (json_int_t)now,
        "slotsNumber", total, "freeSlots", free_slots, "assignedTasks", tasks, "totalResource", resource(cores), "freeResource",
        resource(free_slots ? cores : 0), "hardware", "cpuCores", cores, "physicalMemory", (json_int_t)phys,
        "freeMemory", (json_int_t)meminfo("MemAvailable"), "managedMemory", 0, "memoryConfiguration",
        "frameworkHeap", 0, "taskHeap", 0, "frameworkOffHeap", 0, "taskOffHeap", 0, "networkMemory", 0,
        "managedMemory", 0, "jvmMetaspace", 0, "jvmOverhead", 0, "totalFlinkMemory", 0, "totalProcessMemory", 0);
    if (details) {
        json_object_set_new(tm, "allocatedSlots", alloc);
        long long rss = rss_bytes();
        /* Flink's TaskManagerMetricsInfo; the JVM's non-heap, direct, mapped and network buffer
           pools do not exist in a C process (0), and no garbage collector runs (empty list) */
        json_object_set_new(tm, "metrics",
                            json_pack("{s:I, s:I, s:I, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, "
                                      "s:i, s:i, s:i, s:[]}",
                                      "heapUsed", (json_int_t)rss, "heapCommitted", (json_int_t)rss, "heapMax",
                                      (json_int_t)phys, "nonHeapUsed", 0, "nonHeapCommitted", 0, "nonHeapMax", 0,
                                      "directCount", 0, "directUsed", 0, "directMax", 0, "mappedCount", 0, "mappedUsed",
                                      0, "mappedMax", 0, "nettyShuffleMemorySegmentsAvailable", 0,
                                      "nettyShuffleMemorySegmentsUsed", 0, "nettyShuffleMemorySegmentsTotal", 0,
                                      "nettyShuffleMemoryAvailable", 0, "nettyShuffleMemoryUsed", 0,
                                      "nettyShuffleMemoryTotal", 0, "garbageCollectors"));
    }
    return tm;
}

/* One entry per thread of the daemon: name, Linux state, CPU time (a "thread dump" for C). */
static json_t *thread_dump(WRest *r)
{
    json_t *a = json_array();
    DIR *d = opendir("/proc/self/task");
    if (!d) return json_pack("{s:o}", "threadInfos", a);
    long hz = sysconf(_SC_CLK_TCK);
    if (hz <= 0) hz = 100;
    struct dirent *e;
    int count = 0;
    while ((e = readdir(d)) && count < 1024) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char path[300], comm[64] = "", stat[1024] = "", wchan[64] = "";
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (f) {
            if (!fgets(comm, sizeof comm, f)) comm[0] = 0;
            fclose(f);
        }
        comm[strcspn(comm, "\n")] = 0;
        snprintf(path, sizeof path, "/proc/self/task/%s/stat", e->d_name);
        f = fopen(path, "r");
        if (f) {
            if (!fgets(stat, sizeof stat, f)) stat[0] = 0;
            fclose(f);
        }
        snprintf(path, sizeof path, "/proc/self/task/%s/wchan", e->d_name);
        f = fopen(path, "r");
        if (f) {
            if (!fgets(wchan, sizeof wchan, f)) wchan[0] = 0;
            fclose(f);
        }
        char st = '?';
        unsigned long long ut = 0, stt = 0;
        char *rp = strrchr(stat, ')');
        if (rp && rp[1]) {
            st = rp[2];
            /* fields after the state: ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime */
            char *p = rp + 3;
            for (int k = 0; k < 11 && p; k++) {
                p = strchr(p, ' ');
                if (p) p++;
            }
            if (p) sscanf(p, "%llu %llu", &ut, &stt);
        }
        const char *state = st == 'R' ? "RUNNABLE" : st == 'S' ? "WAITING" : st == 'D' ? "BLOCKED"
                          : st == 'T' ? "STOPPED" : st == 'Z' ? "TERMINATED" : "UNKNOWN";
        long long cpu_ms = (long long)(ut + stt) * 1000 / hz;
        /* which job runs in this thread */
        pid_t tid = (pid_t)strtol(e->d_name, NULL, 10);
        char job[200] = "";
        wregistry_lock(r->reg);
        for (int i = 0; i < r->reg->n; i++)
            if (r->reg->jobs[i]->tid == tid)
                snprintf(job, sizeof job, " job=%s (%s)", r->reg->jobs[i]->id, r->reg->jobs[i]->name);
        wregistry_unlock(r->reg);
        char info[600];
        snprintf(info, sizeof info, "\"%s\" Id=%s %s cpu=%lldms%s%s%s\n", comm, e->d_name, state, cpu_ms,
                 wchan[0] && strcmp(wchan, "0") ? " waiting-in=" : "", wchan[0] && strcmp(wchan, "0") ? wchan : "",
                 job);
        json_array_append_new(a, json_pack("{s:s, s:s}", "threadName", comm, "stringifiedThreadInfo", info));
        count++;
    }
    closedir(d);
    return json_pack("{s:o}", "threadInfos", a);
}

int wrest_cluster(WRest *r, const char *method, char **seg, int nseg, const char *query, json_t **out)
{
    (void)query;
    bool get = !strcmp(method, "GET");
    if (nseg == 1 && !strcmp(seg[0], "config")) {
        if (!get) goto bad_method;
        *out = config_json();
        return 200;
    }
    if (nseg == 1 && !strcmp(seg[0], "overview")) {
        if (!get) goto bad_method;
        *out = overview_json(r);
        return 200;
    }
    if (nseg == 2 && !strcmp(seg[0], "jobmanager") && !strcmp(seg[1], "config")) {
        if (!get) goto bad_method;
        *out = jobmanager_config(r);
        return 200;
    }
    if (nseg >= 1 && !strcmp(seg[0], "taskmanagers")) {
        if (nseg == 1) {
            if (!get) goto bad_method;
            *out = json_pack("{s:[o]}", "taskmanagers", taskmanager_json(r, false));
            return 200;
        }
        if (strcmp(seg[1], r->tm_id) != 0) {
            *out = wrest_error("Could not find TaskManager %s.", seg[1]);
            return 404;
        }
        if (nseg == 2) {
            if (!get) goto bad_method;
            *out = taskmanager_json(r, true);
            return 200;
        }
        if (nseg == 3 && !strcmp(seg[2], "thread-dump")) {
            if (!get) goto bad_method;
            *out = thread_dump(r);
            return 200;
        }
    }
    return 0;   /* not mine */
bad_method:
    *out = wrest_error("Method %s is not allowed here.", method);
    return 405;
}
