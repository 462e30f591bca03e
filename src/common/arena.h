/*
 * arena.h — region allocator: memory whose lifetime is a statement, a chunk or a checkpoint.
 *
 * Contract: everything allocated from an arena is freed at once by warena_reset/warena_free;
 * individual frees do not exist. Allocations are 16-byte aligned and zero-filled (wa_zalloc) or
 * not (wa_alloc). Out-of-memory ends the process with a message and exit status 1 (there is no
 * recovery path; the test build can make the n-th allocation fail, common/fault.h).
 * Depends on nothing but libc.
 */
#ifndef WEIR_COMMON_ARENA_H
#define WEIR_COMMON_ARENA_H

#include <stddef.h>
#include <stdarg.h>

typedef struct WArenaBlock WArenaBlock;

typedef struct WArena {
    WArenaBlock *head;      /* current block (newest first) */
    size_t block_size;      /* default size of a new block */
    size_t total;           /* bytes handed out, for accounting */
    unsigned char *cur, *end;   /* the current block's free bytes (NULL, NULL: none) */
} WArena;

void  warena_init(WArena *a, size_t block_size);    /* block_size 0 = 64 KiB */
WArena *warena_new(size_t block_size);               /* heap-allocated arena */
void  warena_reset(WArena *a);                       /* keep the first block, drop the rest */
void  warena_free(WArena *a);                        /* release all blocks (not the struct) */
void  warena_delete(WArena *a);                      /* warena_free + free the struct from warena_new */

/* wa_alloc's way when the current block has no room (a new block). */
void *wa_alloc_slow(WArena *a, size_t n);
/* Inline: most allocations are a bump of the current block's free pointer (chunks' strings, one
   per value). */
static inline void *wa_alloc(WArena *a, size_t n)
{
    size_t need = (n + 15) & ~(size_t)15;
    if (a->cur && need && need <= (size_t)(a->end - a->cur)) {
        void *p = a->cur;
        a->cur += need;
        a->total += need;
        return p;
    }
    return wa_alloc_slow(a, n);
}
void *wa_zalloc(WArena *a, size_t n);
/* Room for one more item of `size` bytes in an array allocated from a that holds n of *cap: the
   array itself while n < *cap, else a copy with twice the room (`first` items when it had none;
   *cap updated; the old array stays with the arena). */
void *wa_grow(WArena *a, void *items, int n, int *cap, size_t size, int first);
void *wa_memdup(WArena *a, const void *p, size_t n);
char *wa_strdup(WArena *a, const char *s);
char *wa_strndup(WArena *a, const char *s, size_t n);
char *wa_sprintf(WArena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *wa_vsprintf(WArena *a, const char *fmt, va_list ap);

#define WA_NEW(a, T)        ((T *)wa_zalloc((a), sizeof(T)))
#define WA_ARRAY(a, T, n)   ((T *)wa_zalloc((a), sizeof(T) * (size_t)(n)))

/* malloc wrappers that end the process on failure (for long-lived, individually freed objects) */
void *wmalloc(size_t n);
void *wcalloc(size_t n, size_t m);
void *wrealloc(void *p, size_t n);
char *wstrdup(const char *s);
/* Fault in the whole pages of [p, p + n) for writing, at once (Linux's MADV_POPULATE_WRITE): for
   fresh memory about to be written anyway, one system call instead of a page fault per page (a
   keyed state that grows by millions of entries takes hundreds of thousands of them). No effect
   where the kernel lacks it or refuses; the pages then fault one by one, as without it. */
void wmem_prefault(void *p, size_t n);

#endif
