#include "mapsketch_counters.h"

#include <stdint.h>

__thread uint64_t mapsketch_allocation_count __attribute__((tls_model("initial-exec")));
__thread uint64_t *mapsketch_allocated_bytes __attribute__((tls_model("initial-exec")));

// The measured region and the per-kind markers of `mapsketch bench --instrument callgrind`.
//
// Swift calls these with a non-escaping closure `() -> Void`, declared on its side with
// `@_silgen_name` and the Swift calling convention: the closure arrives as its function and its
// context, and is called back with the context in the Swift context register (`swift_context`).
// Nothing is allocated to cross into C, so the markers add no allocation to what they measure.
typedef void (*mapsketch_swift_body)(void *context __attribute__((swift_context))) __attribute__((swiftcall));

#define MAPSKETCH_CALL(fn, context) ((mapsketch_swift_body)(fn))(context)

__attribute__((noinline, swiftcall)) void mapsketch_bench_region(void *fn, void *context) {
    MAPSKETCH_CALL(fn, context);
    __asm__ volatile("" ::: "memory");  // not a tail call: the region's frame stays until the body returns
}

// One function per kind slot, `mapsketch_bench_kind_<slot>`, all made by this one macro. Each
// differs from the others in the constant it stores, so no linker folds two into one symbol.
static volatile int mapsketch_bench_last_kind;
#define MAPSKETCH_KIND_FUNCTION(n)                                                              \
    __attribute__((noinline)) void mapsketch_bench_kind_##n(void *fn, void *context) {        \
        mapsketch_bench_last_kind = n;                                                          \
        MAPSKETCH_CALL(fn, context);                                                            \
        __asm__ volatile("" ::: "memory");                                                      \
    }
#define MAPSKETCH_KIND_ENTRY(n) mapsketch_bench_kind_##n,
#define MAPSKETCH_TEN(X, tens) X(tens##0) X(tens##1) X(tens##2) X(tens##3) X(tens##4) X(tens##5) X(tens##6) X(tens##7) X(tens##8) X(tens##9)
#define MAPSKETCH_SLOTS(X)                                                                                         \
    MAPSKETCH_TEN(X, ) MAPSKETCH_TEN(X, 1) MAPSKETCH_TEN(X, 2) MAPSKETCH_TEN(X, 3) MAPSKETCH_TEN(X, 4)             \
    MAPSKETCH_TEN(X, 5) MAPSKETCH_TEN(X, 6) MAPSKETCH_TEN(X, 7) MAPSKETCH_TEN(X, 8) MAPSKETCH_TEN(X, 9)            \
    MAPSKETCH_TEN(X, 10) MAPSKETCH_TEN(X, 11) X(120) X(121) X(122) X(123) X(124) X(125) X(126) X(127)

MAPSKETCH_SLOTS(MAPSKETCH_KIND_FUNCTION)

static void (*const mapsketch_bench_kinds[MAPSKETCH_BENCH_KIND_SLOTS])(void *, void *) = {
    MAPSKETCH_SLOTS(MAPSKETCH_KIND_ENTRY)
};

static void mapsketch_bench_run_kind(intptr_t slot, void *fn, void *context) {
    if (slot >= 0 && slot < MAPSKETCH_BENCH_KIND_SLOTS) {
        mapsketch_bench_kinds[slot](fn, context);
    } else {
        MAPSKETCH_CALL(fn, context);
    }
}

// An operation inside another one: only its kind's marker.
__attribute__((noinline, swiftcall)) void mapsketch_bench_kind(intptr_t slot, void *fn, void *context) {
    mapsketch_bench_run_kind(slot, fn, context);
    __asm__ volatile("" ::: "memory");
}

// An operation inside no other: the attributed marker around its kind's marker; its inclusive
// cost is the part of the region that belongs to some kind.
static volatile int mapsketch_bench_attributed_count;
__attribute__((noinline, swiftcall)) void mapsketch_bench_attributed(intptr_t slot, void *fn, void *context) {
    mapsketch_bench_attributed_count += 1;
    mapsketch_bench_run_kind(slot, fn, context);
    __asm__ volatile("" ::: "memory");
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
