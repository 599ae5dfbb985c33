#!/usr/bin/env bash
# Records new thresholds: runs the gated benchmarks and writes, for each, the p90 of its raw
# per-sample malloc count to Benchmarks/Thresholds/<Suite>.<Benchmark>.p90.json (only that
# metric: the gate is allocation counts, never timings). Review the diff before committing: a
# higher number is a regression someone must justify in the commit message.
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/opt/swift/usr/bin:$PATH"
skip="${MAPSKETCH_BENCH_SKIP:-.*GEOS|.*\.10M\..*|.*ContiguousArray}"
swift package --allow-writing-to-package-directory benchmark thresholds update \
    --skip "$skip" --metric mallocCountTotal --no-progress "$@"
# Keep only mallocCountTotal in every file (a run with more metrics writes them all).
for f in Thresholds/*.p90.json; do
    n="$(sed -n 's/^ *"mallocCountTotal" : \([0-9]*\).*/\1/p' "$f")"
    printf '{\n  "mallocCountTotal" : %s\n}\n' "$n" >"$f"
done
git --no-pager diff --stat -- Thresholds || true
