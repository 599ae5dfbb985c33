#!/usr/bin/env bash
# Records new thresholds: runs the gated benchmarks measuring only mallocCountTotal and writes its
# p90 for each into Benchmarks/Thresholds/<Suite>.<Benchmark>.p90.json. Review the diff before
# committing: a higher number is a regression someone must justify in the commit message.
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/opt/swift/usr/bin:$PATH"
skip="${MAPSKETCH_BENCH_SKIP:-GEOS|\.10M\.|ContiguousArray}"
swift package --allow-writing-to-package-directory benchmark thresholds update \
    --skip "$skip" --metric mallocCountTotal --no-progress "$@"
git --no-pager diff --stat -- Thresholds || true
