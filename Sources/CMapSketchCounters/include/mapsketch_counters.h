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

/// The number of operation-kind slots of the callgrind markers (`mapsketch_bench_kind_<slot>`).
/// The markers themselves — `mapsketch_bench_region`, `mapsketch_bench_attributed` and
/// `mapsketch_bench_kind` — take a Swift closure and are declared on the Swift side
/// (`BenchRegion`), not here.
#define MAPSKETCH_BENCH_KIND_SLOTS 128

#endif
