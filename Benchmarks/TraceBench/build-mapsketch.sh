#!/usr/bin/env bash
# Builds the mapsketch that benches traces: release, with jemalloc's allocation counters (the
# AllocationCounters trait, Debian's libjemalloc-dev) and every function aligned to 64 bytes.
#
# The alignment is for comparing two builds: without it, a change to one function moves the code
# of every function after it by a few bytes, and fast operations the change never touches get
# faster or slower by 10 to 50 ns on where their loops now fall; with every function on its own
# 64-byte boundary, a change shifts the others by whole cache lines, which (measured: two builds
# differing in `SketchLayer.undo` only) leaves 10 to 18 ns, a step or two of the clock, which the
# comparison does not count as a regression (it needs two steps). Build both sides of
# `mapsketch bench --against` this way.
#
# Usage: Benchmarks/TraceBench/build-mapsketch.sh [extra swift build arguments]
# The binary is .build/release/mapsketch (or under --scratch-path).
set -euo pipefail
cd "$(dirname "$0")/../.."
exec swift build -c release --traits AllocationCounters --product mapsketch \
    -Xswiftc -Xllvm -Xswiftc -align-all-functions=6 -Xcc -falign-functions=64 "$@"
