// Allocation counters and the callgrind region for `mapsketch bench`: the calling thread's allocation count and bytes,
// read from jemalloc when the package is built with the AllocationCounters trait (which links
// jemalloc as the process allocator). Without the trait every function reports "unavailable".
#ifndef MAPSKETCH_COUNTERS_H
#define MAPSKETCH_COUNTERS_H

#include <stdint.h>

/// Starts counting (installs jemalloc's allocation hook once). Returns 1 when the counters work,
/// 0 when they are unavailable (the package was built without the AllocationCounters trait, or
/// jemalloc refused the hook).
int mapsketch_counters_start(void);

/// The calling thread's allocation count (written by the allocation hook) and a pointer to its
/// allocated-bytes counter (jemalloc's `thread.allocatedp`), or NULL before the counters start.
/// Initial-exec TLS: a read is one load from the thread pointer, where the default model for
/// position-independent code calls `__tls_get_addr` on every read (the bench reads these around
/// every operation). Fine for code loaded with the program, which this is (never `dlopen`ed).
extern __thread uint64_t mapsketch_allocation_count __attribute__((tls_model("initial-exec")));
extern __thread uint64_t *mapsketch_allocated_bytes __attribute__((tls_model("initial-exec")));

/// The calling thread's allocations since `mapsketch_counters_start`: the number of calls that
/// returned memory (malloc, calloc, posix_memalign, aligned_alloc, …, and every realloc, whether it
/// moved the block or resized it in place: which of the two happens depends on the heap's layout,
/// so counting only moves would make the count vary between runs) and
/// the bytes jemalloc handed out (usable sizes, in-place growth included). Both 0 when unavailable.
/// Inline: two thread-local reads, no call.
static inline void mapsketch_counters_read(uint64_t *count, uint64_t *bytes) {
    *count = mapsketch_allocation_count;
    *bytes = mapsketch_allocated_bytes != 0 ? *mapsketch_allocated_bytes : 0;
}

/// A cycle counter (x86's time-stamp counter, arm64's virtual counter): a few nanoseconds to
/// read, against the tens a clock call costs. Ticks become nanoseconds by a ratio measured
/// against the monotonic clock over whole runs. Elsewhere: the monotonic clock in nanoseconds.
static inline uint64_t mapsketch_ticks(void) {
#if defined(__x86_64__) || defined(__i386__)
    return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
    uint64_t v;
    __asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
    return v;
#else
    return 0;
#endif
}

/// Calls `body(context)`: the measured region of `mapsketch bench --instrument callgrind`, which
/// collects instructions only inside this function (`--toggle-collect=mapsketch_bench_region`)
/// and writes a profile after each call (`--dump-after=mapsketch_bench_region`). A C function, so
/// that no Swift optimisation renames or specialises it.
void mapsketch_bench_region(void (*body)(void *), void *context);

/// Calls `body(context)` inside the function that marks an outermost measured operation,
/// `mapsketch_bench_attributed`: its inclusive instruction count under callgrind is the part of a
/// replay that belongs to some operation kind.
void mapsketch_bench_attributed(void (*body)(void *), void *context);

/// The number of operation-kind slots.
#define MAPSKETCH_BENCH_KIND_SLOTS 128

/// Calls `body(context)` inside the function of kind slot `slot` (0 ..< MAPSKETCH_BENCH_KIND_SLOTS),
/// `mapsketch_bench_kind_<slot>`: under callgrind, that function's inclusive instruction count is
/// the kind's. Out of range: `body` runs unmarked.
void mapsketch_bench_kind(int slot, void (*body)(void *), void *context);

#endif
