#!/usr/bin/env bash
# Records new thresholds: runs the gated benchmarks with their usual metrics (as the check does:
# measuring fewer metrics changes the harness's own malloc calls) and writes, for each, the p90
# of its raw per-sample malloc count to Benchmarks/Thresholds/<Suite>.<Benchmark>.p90.json (only
# that metric: the gate is allocation counts, never timings). Extra arguments go to the plugin,
# e.g. --filter '.*HitTest.*'. Counts of long benchmarks (300 ms and more) move with the load by
# a few dozen calls: keep the highest of a few runs. Review the diff before committing: a higher
# number is a regression someone must justify in the commit message.
set -euo pipefail
cd "$(dirname "$0")"
command -v swift >/dev/null 2>&1 || { echo "$(basename "$0"): no swift on PATH (install a Swift 6.1+ toolchain)" >&2; exit 1; }
skip="${MAPSKETCH_BENCH_SKIP:-.*GEOS|.*\.10M\..*|.*ContiguousArray}"
swift package --allow-writing-to-package-directory benchmark thresholds update \
    --skip "$skip" --no-progress "$@"
# Keep only mallocCountTotal in every file (a run with more metrics writes them all).
for f in Thresholds/*.p90.json; do
    n="$(sed -n 's/^ *"mallocCountTotal" : \([0-9]*\).*/\1/p' "$f")"
    printf '{\n  "mallocCountTotal" : %s\n}\n' "$n" >"$f"
done
git --no-pager diff --stat -- Thresholds || true
