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

/// The calling thread's allocations since `mapsketch_counters_start`: the number of calls that
/// returned new memory (malloc, calloc, realloc that moved, posix_memalign, aligned_alloc, …) and
/// the bytes jemalloc handed out (usable sizes, in-place growth included). Both 0 when unavailable.
void mapsketch_counters_read(uint64_t *count, uint64_t *bytes);

/// Calls `body(context)`: the measured region of `mapsketch bench --instrument callgrind`, which
/// collects instructions only inside this function (`--toggle-collect=mapsketch_bench_region`)
/// and writes a profile after each call (`--dump-after=mapsketch_bench_region`). A C function, so
/// that no Swift optimisation renames or specialises it.
void mapsketch_bench_region(void (*body)(void *), void *context);

#endif
