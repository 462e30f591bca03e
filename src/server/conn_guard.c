/*
 * conn_guard.c — the accept loop, connection limit and idle eviction. See conn_guard.h.
 */
#include "conn_guard.h"
#include "../common/arena.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct Slot {
    bool used;
    bool started;               /* the daemon reported the connection (socket context set) */
    bool busy;                  /* a request is in progress */
    bool evicted;               /* shut down by the guard; waits for the daemon's close */
    int fd;                     /* the daemon's descriptor number (to match its notification) */
    int dup_fd;                 /* the guard's own reference to the socket */
    int64_t last_ms;            /* accepted, or last request ended */
} Slot;

struct WConnGuard {
    pthread_mutex_t mu;
    int listen_fd;
    int wake[2];                /* pipe: stop the accept thread */
    int limit;
    int nslots;                 /* limit + room for evicted connections still closing */
    Slot *slots;
    struct MHD_Daemon *mhd;
    pthread_t thread;
    bool running;
    long accepted, evicted, refused;
};

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

WConnGuard *wconn_guard_new(int listen_fd, int limit)
{
    assert(limit > 0);
    WConnGuard *g = wcalloc(1, sizeof *g);
    pthread_mutex_init(&g->mu, NULL);
    g->listen_fd = listen_fd;
    g->limit = limit;
    g->nslots = limit * 2;
    g->slots = wcalloc((size_t)g->nslots, sizeof *g->slots);
    g->wake[0] = g->wake[1] = -1;
    return g;
}

static const char REFUSAL[] =
    "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=UTF-8\r\n"
    "Connection: close\r\nContent-Length: 84\r\n\r\n"
    "{\"errors\":[\"Service unavailable: every connection is busy, try again in a moment.\"]}";

static void refuse(int fd)
{
    /* best effort, never blocks: the client may not read at all */
    ssize_t w = send(fd, REFUSAL, sizeof REFUSAL - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
    (void)w;
    shutdown(fd, SHUT_RDWR);
    close(fd);
}

/* (locked) A free slot for a new connection, making room by shutting the longest-idle
   connection down when `limit` are open; -1 when every open connection is busy. */
static int admit(WConnGuard *g)
{
    int open = 0, free_slot = -1, idlest = -1;
    for (int i = 0; i < g->nslots; i++) {
        Slot *s = &g->slots[i];
        if (!s->used) { if (free_slot < 0) free_slot = i; continue; }
        if (s->evicted) continue;
        open++;
        if (!s->busy && (idlest < 0 || s->last_ms < g->slots[idlest].last_ms)) idlest = i;
    }
    if (open < g->limit) return free_slot;
    if (idlest < 0 || free_slot < 0) return -1;
    Slot *v = &g->slots[idlest];
    v->evicted = true;
    shutdown(v->dup_fd, SHUT_RDWR);     /* the daemon's thread sees the end and closes it */
    g->evicted++;
    return free_slot;
}

static void *accept_main(void *arg)
{
    WConnGuard *g = arg;
    for (;;) {
        struct pollfd pf[2] = {{.fd = g->listen_fd, .events = POLLIN}, {.fd = g->wake[0], .events = POLLIN}};
        int n = poll(pf, 2, -1);
        if (n < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (pf[1].revents) break;
        if (!(pf[0].revents & POLLIN)) continue;
        struct sockaddr_storage addr;
        socklen_t alen = sizeof addr;
        int fd = accept4(g->listen_fd, (struct sockaddr *)&addr, &alen, SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                struct timespec ts = {0, 50 * 1000000L};     /* out of descriptors: back off */
                nanosleep(&ts, NULL);
            }
            continue;
        }
        pthread_mutex_lock(&g->mu);
        int k = admit(g);
        int dup_fd = k >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1;
        if (k >= 0 && dup_fd >= 0) {
            g->slots[k] = (Slot){.used = true, .fd = fd, .dup_fd = dup_fd, .last_ms = mono_ms()};
            g->accepted++;
        } else {
            g->refused++;
        }
        pthread_mutex_unlock(&g->mu);
        if (k < 0 || dup_fd < 0) {
            refuse(fd);
            continue;
        }
        if (MHD_add_connection(g->mhd, fd, (struct sockaddr *)&addr, alen) != MHD_YES) {
            /* the daemon closed fd; forget the slot unless its notification already did */
            pthread_mutex_lock(&g->mu);
            Slot *s = &g->slots[k];
            if (s->used && s->dup_fd == dup_fd && !s->started) {
                close(s->dup_fd);
                s->used = false;
            }
            pthread_mutex_unlock(&g->mu);
        }
    }
    return NULL;
}

bool wconn_guard_start(WConnGuard *g, struct MHD_Daemon *d)
{
    g->mhd = d;
    if (pipe2(g->wake, O_CLOEXEC) != 0) return false;
    if (pthread_create(&g->thread, NULL, accept_main, g) != 0) return false;
    g->running = true;
    return true;
}

void wconn_guard_stop(WConnGuard *g)
{
    if (!g || !g->running) return;
    ssize_t w = write(g->wake[1], "x", 1);
    (void)w;
    pthread_join(g->thread, NULL);
    g->running = false;
}

void wconn_guard_free(WConnGuard *g)
{
    if (!g) return;
    wconn_guard_stop(g);
    for (int i = 0; i < g->nslots; i++)
        if (g->slots[i].used) close(g->slots[i].dup_fd);
    if (g->wake[0] >= 0) close(g->wake[0]);
    if (g->wake[1] >= 0) close(g->wake[1]);
    pthread_mutex_destroy(&g->mu);
    free(g->slots);
    free(g);
}

static int slot_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    if (!ci || !ci->socket_context) return -1;
    return (int)(intptr_t)ci->socket_context - 1;
}

void wconn_guard_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                        enum MHD_ConnectionNotificationCode code)
{
    WConnGuard *g = cls;
    pthread_mutex_lock(&g->mu);
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        int fd = ci ? ci->connect_fd : -1;
        for (int i = 0; i < g->nslots; i++) {
            Slot *s = &g->slots[i];
            if (s->used && !s->started && s->fd == fd) {
                s->started = true;
                *socket_context = (void *)(intptr_t)(i + 1);
                break;
            }
        }
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        int k = (int)(intptr_t)*socket_context - 1;
        if (k >= 0 && k < g->nslots && g->slots[k].used) {
            close(g->slots[k].dup_fd);
            g->slots[k].used = false;
        }
        *socket_context = NULL;
    }
    pthread_mutex_unlock(&g->mu);
}

void wconn_guard_busy(WConnGuard *g, struct MHD_Connection *c, bool busy)
{
    int k = slot_of(c);
    pthread_mutex_lock(&g->mu);
    if (k >= 0 && k < g->nslots && g->slots[k].used) {
        g->slots[k].busy = busy;
        g->slots[k].last_ms = mono_ms();
    }
    pthread_mutex_unlock(&g->mu);
}

void wconn_guard_counts(WConnGuard *g, long *accepted, long *evicted, long *refused)
{
    pthread_mutex_lock(&g->mu);
    *accepted = g->accepted;
    *evicted = g->evicted;
    *refused = g->refused;
    pthread_mutex_unlock(&g->mu);
}
