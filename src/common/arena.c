/* arena.c — region allocator; see arena.h for the contract. */
#include "arena.h"
#include "fault.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* A block's bytes handed out are data[0 .. size) but for the arena's current block, whose free
   bytes are the arena's [cur, end) (wa_alloc bumps cur inline). */
struct WArenaBlock {
    WArenaBlock *next;
    size_t size;
    _Alignas(16) unsigned char data[];
};

/* Out of memory ends the process with a message and exit status 1 (no signal, no core): there is no
   recovery path, and the durable state is what the last completed checkpoint holds, exactly as
   after a crash. _exit, not exit: other threads are running and atexit handlers would race them. */
static void die_oom(size_t n)
{
    fprintf(stderr, "weir: out of memory allocating %zu bytes\n", n);
    fflush(stdout);
    _exit(1);
}

void *wmalloc(size_t n)
{
    void *p = wfault_alloc_fails() ? NULL : malloc(n ? n : 1);
    if (!p) die_oom(n);
    return p;
}

void *wcalloc(size_t n, size_t m)
{
    void *p = wfault_alloc_fails() ? NULL : calloc(n ? n : 1, m ? m : 1);
    if (!p) die_oom(n * m);
    return p;
}

void *wrealloc(void *p, size_t n)
{
    void *q = wfault_alloc_fails() ? NULL : realloc(p, n ? n : 1);
    if (!q) die_oom(n);
    return q;
}

char *wstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(wmalloc(n), s, n);
}

void wmem_prefault(void *p, size_t n)
{
#if defined(__linux__)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0) return;
    uintptr_t a = ((uintptr_t)p + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    uintptr_t b = ((uintptr_t)p + n) & ~((uintptr_t)page - 1);
    if (b > a) (void)madvise((void *)a, b - a, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)n;
#endif
}

void warena_init(WArena *a, size_t block_size)
{
    a->head = NULL;
    a->block_size = block_size ? block_size : 64 * 1024;
    a->total = 0;
    a->cur = a->end = NULL;
}

WArena *warena_new(size_t block_size)
{
    WArena *a = wmalloc(sizeof *a);
    warena_init(a, block_size);
    return a;
}

void warena_free(WArena *a)
{
    WArenaBlock *b = a->head;
    while (b) {
        WArenaBlock *n = b->next;
        free(b);
        b = n;
    }
    a->head = NULL;
    a->total = 0;
    a->cur = a->end = NULL;
}

void warena_delete(WArena *a)
{
    if (!a) return;
    warena_free(a);
    free(a);
}

void warena_reset(WArena *a)
{
    WArenaBlock *keep = NULL;
    WArenaBlock *b = a->head;
    /* keep the oldest block of the default size (the last in the list) */
    while (b) {
        WArenaBlock *n = b->next;
        if (!n && b->size == a->block_size) keep = b;
        else free(b);
        b = n;
    }
    if (keep) keep->next = NULL;
    a->head = keep;
    a->total = 0;
    a->cur = keep ? keep->data : NULL;
    a->end = keep ? keep->data + keep->size : NULL;
}

void *wa_alloc_slow(WArena *a, size_t n)
{
    size_t need = n ? (n + 15) & ~(size_t)15 : 16;
    WArenaBlock *b = a->head;
    if (!a->cur || (size_t)(a->end - a->cur) < need) {     /* no current block (or a big one only) */
        size_t size = a->block_size;
        if (need > size / 4) {
            /* big allocation: a block of its own, linked behind the current one */
            WArenaBlock *big = wmalloc(sizeof *big + need);
            big->size = need;
            if (b) { big->next = b->next; b->next = big; }
            else { big->next = NULL; a->head = big; }
            a->total += need;
            return big->data;
        }
        b = wmalloc(sizeof *b + size);
        b->size = size;
        b->next = a->head;
        a->head = b;
        a->cur = b->data;
        a->end = b->data + size;
    }
    void *p = a->cur;
    a->cur += need;
    a->total += need;
    return p;
}

void *wa_zalloc(WArena *a, size_t n)
{
    void *p = wa_alloc(a, n);
    memset(p, 0, n);
    return p;
}

void *wa_grow(WArena *a, void *items, int n, int *cap, size_t size, int first)
{
    assert(n >= 0 && n <= *cap && first > 0);
    if (n < *cap) return items;
    int nc = *cap ? *cap * 2 : first;
    void *grown = wa_alloc(a, size * (size_t)nc);
    if (n) memcpy(grown, items, size * (size_t)n);
    *cap = nc;
    return grown;
}

void *wa_memdup(WArena *a, const void *p, size_t n)
{
    void *q = wa_alloc(a, n);
    if (n) memcpy(q, p, n);
    return q;
}

char *wa_strndup(WArena *a, const char *s, size_t n)
{
    char *q = wa_alloc(a, n + 1);
    memcpy(q, s, n);
    q[n] = 0;
    return q;
}

char *wa_strdup(WArena *a, const char *s)
{
    return wa_strndup(a, s, strlen(s));
}

char *wa_vsprintf(WArena *a, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) n = 0;
    char *q = wa_alloc(a, (size_t)n + 1);
    vsnprintf(q, (size_t)n + 1, fmt, ap);
    return q;
}

char *wa_sprintf(WArena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *q = wa_vsprintf(a, fmt, ap);
    va_end(ap);
    return q;
}
