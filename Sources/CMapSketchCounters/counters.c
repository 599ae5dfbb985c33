#include "mapsketch_counters.h"

__thread uint64_t mapsketch_allocation_count __attribute__((tls_model("initial-exec")));
__thread uint64_t *mapsketch_allocated_bytes __attribute__((tls_model("initial-exec")));

__attribute__((noinline)) void mapsketch_bench_region(void (*body)(void *), void *context) {
    body(context);
    __asm__ volatile("" ::: "memory");  // not a tail call: the region's frame stays until the body returns
}

__attribute__((noinline)) void mapsketch_bench_attributed(void (*body)(void *), void *context) {
    body(context);
    __asm__ volatile("" ::: "memory");
}

// One function per kind slot, `mapsketch_bench_kind_<slot>`, all made by this one macro. Each
// differs from the others in the constant it stores, so no linker folds two into one symbol.
static volatile int mapsketch_bench_last_kind;
#define MAPSKETCH_KIND_FUNCTION(n)                                                                  \
    __attribute__((noinline)) void mapsketch_bench_kind_##n(void (*body)(void *), void *context) { \
        mapsketch_bench_last_kind = n;                                                              \
        body(context);                                                                              \
        __asm__ volatile("" ::: "memory");                                                          \
    }
#define MAPSKETCH_KIND_ENTRY(n) mapsketch_bench_kind_##n,
#define MAPSKETCH_TEN(X, tens) X(tens##0) X(tens##1) X(tens##2) X(tens##3) X(tens##4) X(tens##5) X(tens##6) X(tens##7) X(tens##8) X(tens##9)
#define MAPSKETCH_SLOTS(X)                                                                                         \
    MAPSKETCH_TEN(X, ) MAPSKETCH_TEN(X, 1) MAPSKETCH_TEN(X, 2) MAPSKETCH_TEN(X, 3) MAPSKETCH_TEN(X, 4)             \
    MAPSKETCH_TEN(X, 5) MAPSKETCH_TEN(X, 6) MAPSKETCH_TEN(X, 7) MAPSKETCH_TEN(X, 8) MAPSKETCH_TEN(X, 9)            \
    MAPSKETCH_TEN(X, 10) MAPSKETCH_TEN(X, 11) X(120) X(121) X(122) X(123) X(124) X(125) X(126) X(127)

MAPSKETCH_SLOTS(MAPSKETCH_KIND_FUNCTION)

static void (*const mapsketch_bench_kinds[MAPSKETCH_BENCH_KIND_SLOTS])(void (*)(void *), void *) = {
    MAPSKETCH_SLOTS(MAPSKETCH_KIND_ENTRY)
};

void mapsketch_bench_kind(int slot, void (*body)(void *), void *context) {
    if (slot >= 0 && slot < MAPSKETCH_BENCH_KIND_SLOTS) {
        mapsketch_bench_kinds[slot](body, context);
    } else {
        body(context);
    }
}

#ifdef MAPSKETCH_JEMALLOC
#include <jemalloc/jemalloc.h>
#include <stddef.h>

// jemalloc 5.x's experimental hook interface (include/jemalloc/internal/hook.h), which its public
// header does not declare: an allocation hook runs on the allocating thread after every allocation.
typedef void (*mapsketch_hook_alloc)(void *extra, int type, void *result, uintptr_t result_raw, uintptr_t args_raw[3]);
typedef void (*mapsketch_hook_dalloc)(void *extra, int type, void *address, uintptr_t args_raw[3]);
typedef void (*mapsketch_hook_expand)(void *extra, int type, void *address, size_t old_usize, size_t new_usize,
                                      uintptr_t result_raw, uintptr_t args_raw[4]);
typedef struct {
    mapsketch_hook_alloc alloc_hook;
    mapsketch_hook_dalloc dalloc_hook;
    mapsketch_hook_expand expand_hook;
    void *extra;
} mapsketch_hooks_t;

// jemalloc's `hook_expand_e`: realloc and rallocx that grew or shrank in place (xallocx, which never
// moves, is left out: it is not an allocation call).
enum { mapsketch_hook_expand_realloc = 0, mapsketch_hook_expand_rallocx = 1 };

static int started;
static int available;

static void count_allocation(void *extra, int type, void *result, uintptr_t result_raw, uintptr_t args_raw[3]) {
    (void)extra; (void)type; (void)result_raw; (void)args_raw;
    if (result != NULL) mapsketch_allocation_count += 1;
}

// A realloc that stays in place runs the expand hook instead of the allocation hook. Whether it can
// stay depends on the heap's layout (what the process allocated before, even the address space
// randomisation), so counting only the moved ones made the count differ between two runs of the
// same trace. Counting both makes a realloc one allocation, always.
static void count_reallocation_in_place(void *extra, int type, void *address, size_t old_usize, size_t new_usize,
                                        uintptr_t result_raw, uintptr_t args_raw[4]) {
    (void)extra; (void)address; (void)old_usize; (void)new_usize; (void)result_raw; (void)args_raw;
    if (type == mapsketch_hook_expand_realloc || type == mapsketch_hook_expand_rallocx) mapsketch_allocation_count += 1;
}

int mapsketch_counters_start(void) {
    if (!started) {
        started = 1;
        mapsketch_hooks_t hooks = {count_allocation, NULL, count_reallocation_in_place, NULL};
        void *handle = NULL;
        size_t size = sizeof(handle);
        available = mallctl("experimental.hooks.install", &handle, &size, &hooks, sizeof(hooks)) == 0;
    }
    if (available && mapsketch_allocated_bytes == NULL) {
        uint64_t *p = NULL;
        size_t size = sizeof(p);
        if (mallctl("thread.allocatedp", &p, &size, NULL, 0) != 0) return 0;
        mapsketch_allocated_bytes = p;
    }
    return available && mapsketch_allocated_bytes != NULL;
}

#else

int mapsketch_counters_start(void) { return 0; }

#endif
