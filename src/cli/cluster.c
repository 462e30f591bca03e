/*
 * cluster.c — `weir cluster start|stop|run|status`: the background daemon serving the REST API,
 * the SQL gateway and the dashboard. See cluster.h.
 */
#include "cluster.h"
#include "../server/server.h"
#include "../common/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PID_FILE "weir-cluster.pid"
#define REST_FILE "weir-cluster.rest"
#define GATEWAY_FILE "weir-cluster.gateway"
#define LOG_FILE "weir-cluster.log"
#define OUT_FILE "weir-cluster.out"

/* ------------------------------------------------------------------ paths */

static void home_dir(char *out, size_t n)
{
    const char *h = getenv("WEIR_HOME");
    if (h && *h) {
        snprintf(out, n, "%s", h);
        return;
    }
    char exe[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k <= 0) {
        snprintf(out, n, ".");
        return;
    }
    exe[k] = 0;
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(exe, '/');
        if (!slash) break;
        *slash = 0;
    }
    snprintf(out, n, "%s", exe[0] ? exe : "/");
}

static void sub_dir(const char *env, const char *name, char *out, size_t n)
{
    const char *d = getenv(env);
    if (d && *d) {
        snprintf(out, n, "%s", d);
        return;
    }
    char home[PATH_MAX];
    home_dir(home, sizeof home);
    snprintf(out, n, "%s/%s", home, name);
}

static void file_in(const char *dir, const char *name, char *out, size_t n) { snprintf(out, n, "%s/%s", dir, name); }

static void host_name(char *out, size_t n)
{
    if (gethostname(out, n) != 0) snprintf(out, n, "localhost");
    out[n - 1] = 0;
}

/* ------------------------------------------------------------------ pid / rest files */

static pid_t read_pid(const char *logd)
{
    char path[PATH_MAX + 32];
    file_in(logd, PID_FILE, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    long pid = 0;
    if (fscanf(f, "%ld", &pid) != 1) pid = 0;
    fclose(f);
    return pid > 0 && pid < INT_MAX ? (pid_t)pid : 0;
}

/* The process is alive and is a weir cluster daemon (argv: <...weir> cluster run). */
static bool is_daemon(pid_t pid)
{
    if (pid <= 0 || (kill(pid, 0) != 0 && errno != EPERM)) return false;
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return false;
    buf[n] = 0;
    const char *args[8];
    int na = 0;
    for (ssize_t i = 0; i < n && na < 8; i += (ssize_t)strlen(buf + i) + 1) args[na++] = buf + i;
    if (na < 3) return false;
    const char *base = strrchr(args[0], '/');
    base = base ? base + 1 : args[0];
    return strstr(base, "weir") && !strcmp(args[1], "cluster") && !strcmp(args[2], "run");
}

static bool write_file_atomic(const char *path, const char *text)
{
    char tmp[PATH_MAX + 64];
    snprintf(tmp, sizeof tmp, "%s.%d.tmp", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) return false;
    bool ok = fputs(text, f) >= 0;
    ok = fclose(f) == 0 && ok;
    if (ok) ok = rename(tmp, path) == 0;
    if (!ok) unlink(tmp);
    return ok;
}

static void remove_files(const char *logd, pid_t only_if)
{
    char path[PATH_MAX + 32];
    if (only_if && read_pid(logd) != only_if) return;
    file_in(logd, PID_FILE, path, sizeof path);
    unlink(path);
    file_in(logd, REST_FILE, path, sizeof path);
    unlink(path);
    file_in(logd, GATEWAY_FILE, path, sizeof path);
    unlink(path);
}

static bool find_endpoint(const char *file, char *host, size_t hostsz, int *port)
{
    char logd[PATH_MAX];
    sub_dir("WEIR_LOG_DIR", "log", logd, sizeof logd);
    pid_t pid = read_pid(logd);
    if (!pid || !is_daemon(pid)) return false;
    char path[PATH_MAX + 32];
    file_in(logd, file, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char h[256];
    int p = 0;
    bool ok = fscanf(f, "%255s %d", h, &p) == 2 && p > 0 && p < 65536;
    fclose(f);
    if (!ok) return false;
    snprintf(host, hostsz, "%s", h);
    *port = p;
    return true;
}

bool wcli_cluster_find(char *host, size_t hostsz, int *port)
{
    return find_endpoint(REST_FILE, host, hostsz, port);
}

bool wcli_cluster_find_gateway(char *host, size_t hostsz, int *port)
{
    return find_endpoint(GATEWAY_FILE, host, hostsz, port);
}

/* ------------------------------------------------------------------ run (foreground) */

static void ready(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ready(int fd, const char *fmt, ...)
{
    if (fd < 0) return;
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0) {
        ssize_t w = write(fd, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
        (void)w;
    }
    close(fd);
}

static void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void log_line(const char *fmt, ...)
{
    char when[32];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
    fprintf(stderr, "%s INFO  weir: ", when);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
}

static int cluster_run(void)
{
    int rfd = -1;
    const char *rs = getenv("WEIR_READY_FD");
    if (rs) {
        rfd = atoi(rs);
        unsetenv("WEIR_READY_FD");
        if (rfd < 3 || fcntl(rfd, F_GETFD) < 0) rfd = -1;
        else fcntl(rfd, F_SETFD, FD_CLOEXEC);
    }
    char confd[PATH_MAX], logd[PATH_MAX], home[PATH_MAX], web[PATH_MAX + 8], conf[PATH_MAX + 16];
    sub_dir("WEIR_CONF_DIR", "conf", confd, sizeof confd);
    sub_dir("WEIR_LOG_DIR", "log", logd, sizeof logd);
    home_dir(home, sizeof home);
    snprintf(web, sizeof web, "%s/web", home);
    snprintf(conf, sizeof conf, "%s/config.yaml", confd);

    /* signals: the server threads inherit the blocked set; the main thread waits for them */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stdout, NULL, _IOLBF, 0);

    pid_t other = read_pid(logd);
    if (other && other != getpid() && is_daemon(other)) {
        fprintf(stderr, "weir: a cluster is already running (pid %d); stop it first.\n", (int)other);
        ready(rfd, "ERR A weir cluster is already running (pid %d) for %s; stop it first with bin/stop-cluster.sh.\n",
              (int)other, logd);
        return 1;
    }
    WClusterConfig cfg;
    wcluster_config_init(&cfg);
    WError err;
    werr_clear(&err);
    if (!wcluster_config_load(&cfg, conf, &err)) {
        fprintf(stderr, "weir: %s: %s\n", err.cls, err.msg);
        ready(rfd, "ERR %s: %s\n", err.cls, err.msg);
        wcluster_config_free(&cfg);
        return 1;
    }
    log_line("starting the cluster (configuration: %s%s)", conf, cfg.path ? "" : ", not found: Flink's defaults");
    WServer *srv = wserver_start(&cfg, web, stdout, &err);
    if (!srv) {
        fprintf(stderr, "weir: %s: %s\n", err.cls, err.msg);
        ready(rfd, "ERR %s: %s\n", err.cls, err.msg);
        wcluster_config_free(&cfg);
        return 1;
    }
    char path[PATH_MAX + 32], text[512];
    snprintf(text, sizeof text, "%d\n", (int)getpid());
    file_in(logd, PID_FILE, path, sizeof path);
    bool ok = write_file_atomic(path, text);
    snprintf(text, sizeof text, "%s %d\n", wserver_address(srv), wserver_port(srv));
    file_in(logd, REST_FILE, path, sizeof path);
    ok = ok && write_file_atomic(path, text);
    if (ok && wserver_gateway_port(srv)) {
        snprintf(text, sizeof text, "%s %d\n", wcluster_gateway_connect_address(&cfg), wserver_gateway_port(srv));
        file_in(logd, GATEWAY_FILE, path, sizeof path);
        ok = write_file_atomic(path, text);
    }
    if (!ok) {
        fprintf(stderr, "weir: cannot write the pid file in %s: %s\n", logd, strerror(errno));
        ready(rfd, "ERR cannot write the pid file in %s: %s\n", logd, strerror(errno));
        wserver_stop(srv);
        remove_files(logd, getpid());
        wcluster_config_free(&cfg);
        return 1;
    }
    log_line("REST endpoint listening at http://%s:%d (bind address %s)", wserver_address(srv), wserver_port(srv),
             wcluster_bind_address(&cfg));
    if (wserver_gateway_port(srv))
        log_line("SQL gateway endpoint listening at http://%s:%d (Flink's SQL Gateway REST API)",
                 wcluster_gateway_bind_address(&cfg), wserver_gateway_port(srv));
    ready(rfd, "OK %s %d %d\n", wserver_address(srv), wserver_port(srv), (int)getpid());

    int sig = 0;
    while (sigwait(&set, &sig) != 0) {}
    log_line("received signal %d: stopping the cluster", sig);
    wserver_stop(srv);
    remove_files(logd, getpid());
    wcluster_config_free(&cfg);
    log_line("stopped");
    return 0;
}

/* ------------------------------------------------------------------ start / stop */

static bool ensure_dir(const char *d)
{
    if (mkdir(d, 0755) == 0 || errno == EEXIST) return true;
    fprintf(stderr, "weir: cannot create the log folder %s: %s\n", d, strerror(errno));
    return false;
}

static int cluster_start(void)
{
    char logd[PATH_MAX], host[256];
    sub_dir("WEIR_LOG_DIR", "log", logd, sizeof logd);
    host_name(host, sizeof host);
    if (!ensure_dir(logd)) return 1;
    pid_t running = read_pid(logd);
    if (running && is_daemon(running)) {
        printf("[INFO] 1 instance(s) of standalonesession are already running on %s.\n", host);
        fprintf(stderr, "weir: a cluster is already running (pid %d); stop it first with bin/stop-cluster.sh.\n",
                (int)running);
        return 1;
    }
    if (running) remove_files(logd, 0);     /* stale files of a daemon that is gone */
    printf("Starting cluster.\n");
    printf("Starting standalonesession daemon on host %s.\n", host);
    printf("Starting taskexecutor daemon on host %s.\n", host);
    fflush(stdout);

    char logf[PATH_MAX + 32], outf[PATH_MAX + 32], exe[PATH_MAX];
    file_in(logd, LOG_FILE, logf, sizeof logf);
    file_in(logd, OUT_FILE, outf, sizeof outf);
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k <= 0) {
        fprintf(stderr, "weir: cannot find the weir binary: %s\n", strerror(errno));
        return 1;
    }
    exe[k] = 0;
    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) != 0) {
        fprintf(stderr, "weir: pipe: %s\n", strerror(errno));
        return 1;
    }
    pid_t child = fork();
    if (child < 0) {
        fprintf(stderr, "weir: fork: %s\n", strerror(errno));
        return 1;
    }
    if (child == 0) {
        setsid();
        pid_t grand = fork();
        if (grand != 0) _exit(grand < 0 ? 1 : 0);
        close(pfd[0]);
        int in = open("/dev/null", O_RDONLY);
        int out = open(outf, O_WRONLY | O_CREAT | O_APPEND, 0644);
        int lg = open(logf, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (in < 0 || out < 0 || lg < 0) {
            ready(pfd[1], "ERR cannot open the log files in %s: %s\n", logd, strerror(errno));
            _exit(1);
        }
        dup2(in, 0);
        dup2(out, 1);
        dup2(lg, 2);
        close(in);
        close(out);
        close(lg);
        fcntl(pfd[1], F_SETFD, 0);
        char fdnum[16];
        snprintf(fdnum, sizeof fdnum, "%d", pfd[1]);
        setenv("WEIR_READY_FD", fdnum, 1);
        execl(exe, exe, "cluster", "run", (char *)NULL);
        ready(pfd[1], "ERR cannot run %s: %s\n", exe, strerror(errno));
        _exit(1);
    }
    close(pfd[1]);
    int st;
    waitpid(child, &st, 0);
    /* wait for the daemon's verdict (it closes the pipe after writing it) */
    char buf[2048];
    size_t got = 0;
    struct pollfd pf = {.fd = pfd[0], .events = POLLIN};
    for (int waited = 0; waited < 300 && got < sizeof buf - 1; waited++) {
        int pr = poll(&pf, 1, 100);
        if (pr < 0 && errno != EINTR) break;
        if (pr <= 0) continue;
        ssize_t n = read(pfd[0], buf + got, sizeof buf - 1 - got);
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(pfd[0]);
    buf[got] = 0;
    if (!strncmp(buf, "OK ", 3)) {
        char h[256];
        int port = 0, pid = 0;
        if (sscanf(buf + 3, "%255s %d %d", h, &port, &pid) == 3) {
            printf("[INFO] weir cluster (pid %d) serves the REST API and the dashboard at http://%s:%d\n", pid, h, port);
            return 0;
        }
    }
    buf[strcspn(buf, "\n")] = 0;
    fprintf(stderr, "[ERROR] Could not start the cluster: %s\n", got > 4 ? buf + 4 : "the daemon did not report back within 30 s");
    fprintf(stderr, "See %s for details.\n", logf);
    return 1;
}

static int cluster_stop(void)
{
    char logd[PATH_MAX], host[256];
    sub_dir("WEIR_LOG_DIR", "log", logd, sizeof logd);
    host_name(host, sizeof host);
    pid_t pid = read_pid(logd);
    if (!pid) {
        printf("No standalonesession daemon to stop on host %s.\n", host);
        return 0;
    }
    if (!is_daemon(pid)) {
        printf("No standalonesession daemon (pid: %d) is running anymore on %s.\n", (int)pid, host);
        remove_files(logd, 0);
        return 0;
    }
    printf("Stopping taskexecutor daemon (pid: %d) on host %s.\n", (int)pid, host);
    printf("Stopping standalonesession daemon (pid: %d) on host %s.\n", (int)pid, host);
    fflush(stdout);
    kill(pid, SIGTERM);
    for (int i = 0; i < 300 && is_daemon(pid); i++) usleep(100 * 1000);
    if (is_daemon(pid)) {
        fprintf(stderr, "weir: the daemon (pid %d) did not stop within 30 s; killing it.\n", (int)pid);
        kill(pid, SIGKILL);
        for (int i = 0; i < 50 && is_daemon(pid); i++) usleep(100 * 1000);
        remove_files(logd, 0);
    }
    return is_daemon(pid) ? 1 : 0;
}

static int cluster_status(void)
{
    char host[256];
    int port;
    if (!wcli_cluster_find(host, sizeof host, &port)) {
        printf("No weir cluster is running.\n");
        return 1;
    }
    printf("A weir cluster is running: http://%s:%d\n", host, port);
    return 0;
}

int wcli_cluster_main(int argc, char **argv)
{
    const char *cmd = argc > 0 ? argv[0] : "";
    if (!strcmp(cmd, "start")) return cluster_start();
    if (!strcmp(cmd, "stop")) return cluster_stop();
    if (!strcmp(cmd, "run")) return cluster_run();
    if (!strcmp(cmd, "status")) return cluster_status();
    fprintf(stderr, "Usage: weir cluster start|stop|status|run\n"
                    "  start   start the cluster daemon in the background (bin/start-cluster.sh)\n"
                    "  stop    stop it (bin/stop-cluster.sh)\n"
                    "  status  tell whether one is running and where\n"
                    "  run     run the cluster in the foreground until SIGTERM / Ctrl-C\n");
    return 1;
}
