#!/usr/bin/env bash
# The CI benchmark gate: builds the MapSketch benchmarks (release), runs the gated ones and checks
# their malloc counts (mallocCountTotal, p90) against the committed Benchmarks/Thresholds/.
#
# Exit status: 0 when every gated metric is within its threshold (or better: then it says how to
# lower the threshold); 1 when a benchmark regressed, failed its precondition or did not build.
# Wall clock is printed, never gated: the CI machine is shared and its timings are noisy.
#
# Gated: MapSketch's own benchmarks at 1k/100k/1M. Not gated (reported only, and not run here to
# keep CI short): the GEOS peer, the 10M sizes and the contiguous-array baseline. Run everything
# with `swift package --package-path Benchmarks benchmark`.
set -uo pipefail
cd "$(dirname "$0")"
export PATH="/opt/swift/usr/bin:$PATH"

skip="${MAPSKETCH_BENCH_SKIP:-GEOS|\.10M\.|ContiguousArray}"

echo "-- building benchmarks (release)"
start=$(date +%s)
log="${TMPDIR:-/tmp}/mapsketch-benchmarks-build.log"
if ! swift build -c release >"$log" 2>&1; then
    tail -40 "$log"
    echo "benchmark build FAILED (full log: $log)"
    exit 1
fi
grep -E "warning:" "$log" | sort -u | head -20 || true
echo "-- built in $(( $(date +%s) - start )) s"

echo "-- thresholds check (skipping: $skip)"
start=$(date +%s)
swift package benchmark thresholds check --skip "$skip" --no-progress
status=$?
echo "-- benchmarks ran in $(( $(date +%s) - start )) s"

case "$status" in
    0)
        echo "benchmark thresholds: every gated metric EQUAL to Benchmarks/Thresholds"
        exit 0 ;;
    4)
        echo "benchmark thresholds: BETTER than Benchmarks/Thresholds (no regression)."
        echo "Lock the improvement in with Benchmarks/update-thresholds.sh and commit Thresholds/."
        exit 0 ;;
    2)
        echo "benchmark thresholds: REGRESSION (see 'Deviations worse than threshold' above)"
        exit 1 ;;
    *)
        echo "benchmark thresholds: the benchmark run failed with status $status"
        exit 1 ;;
esac
