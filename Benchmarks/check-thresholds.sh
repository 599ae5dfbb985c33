#!/usr/bin/env bash
# The CI benchmark gate. Builds the MapSketch benchmarks (release), runs the gated ones once and
# compares each benchmark's malloc count (mallocCountTotal, p90 of the raw per-sample counts)
# with the committed Benchmarks/Thresholds/<Suite>.<Benchmark>.p90.json.
#
# A benchmark regresses when   measured > threshold + max(SLACK, threshold * PERCENT / 100,
# 0.3 per ms of the sample's p90 wall clock) (defaults: 64 calls, 10 %). The slack absorbs the calls package-benchmark's own sampling
# thread makes during a sample (16-20 in a short sample, up to ~70 more in a 300 ms one); one
# real allocation per operation adds 1,000 to a 1,000-operation sample and fails. The committed
# thresholds are the highest p90 seen over three runs. (package-benchmark's own `thresholds check` flags a metric when EITHER its absolute
# OR its relative tolerance is exceeded, and skips the relative one when the threshold is 0, so it
# cannot express "a little slack for big counts, none for zero": hence this comparison.)
#
# Exit status: 0 when no gated benchmark regressed; 1 on a regression, a benchmark without its
# threshold file, a failed precondition or a build failure. Wall clock is printed (p90), never gated.
#
# Gated: MapSketch's own benchmarks. Not run here (reported only, to keep CI short): the GEOS
# peer, the 10M sizes and the contiguous-array baseline. Run everything with
# `swift package --package-path Benchmarks benchmark`.
set -uo pipefail
cd "$(dirname "$0")"
command -v swift >/dev/null 2>&1 || { echo "$(basename "$0"): no swift on PATH (install a Swift 6.1+ toolchain)" >&2; exit 1; }
. ./swiftpm-run.sh

# Benchmark names are matched whole (package-benchmark uses Regex.wholeMatch).
skip="${MAPSKETCH_BENCH_SKIP:-.*GEOS|.*\.10M\..*|.*ContiguousArray}"
filter="${MAPSKETCH_BENCH_FILTER:-.*}"
slack="${MAPSKETCH_BENCH_SLACK:-64}"
percent="${MAPSKETCH_BENCH_PERCENT:-10}"
thresholds="Thresholds"
out="$(mktemp -d "${TMPDIR:-/tmp}/mapsketch-bench.XXXXXX")"

# The benchmark plugin builds the suites in release itself (a separate `swift build -c release`
# would be invalidated by the plugin's build and cost a second full build).
echo "-- building (release) and running the gated benchmarks (skipping: $skip)"
start=$(date +%s)
mkdir -p "$out/current"
if ! swiftpm_run "$out/run.log" swift package --allow-writing-to-directory "$out/current" benchmark run \
        --filter "$filter" --skip "$skip" --no-progress --format metricP90AbsoluteThresholds --path "$out/current"; then
    grep -E "error:|warning:" "$out/run.log" | sort -u | head -40
    tail -40 "$out/run.log"
    echo "benchmark build or run FAILED (a compile error, a crash or a failed precondition: see above)"
    exit 1
fi
grep -E "warning:" "$out/run.log" | sort -u | head -20 || true
echo "-- built and ran in $(( $(date +%s) - start )) s"

# One JSON value by key from a pretty-printed thresholds file ("key" : 123).
value() { sed -n "s/^ *\"$1\" : \([0-9-]*\).*/\1/p" "$2" | head -1; }

status=0
checked=0
better=0
printf '%-58s %12s %12s %12s %14s\n' "benchmark" "threshold" "measured" "allowed" "wall p90/sample"
for current in "$out"/current/*.p90.json; do
    [ -e "$current" ] || { echo "no benchmark results were written"; exit 1; }
    file="$(basename "$current")"
    name="${file%.p90.json}"
    measured="$(value mallocCountTotal "$current")"
    wall="$(value wallClock "$current")"
    if [ ! -f "$thresholds/$file" ]; then
        printf '%-58s %12s %12s %12s %14s  NO THRESHOLD\n' "$name" "-" "$measured" "-" "$wall"
        status=1
        continue
    fi
    threshold="$(value mallocCountTotal "$thresholds/$file")"
    allowance=$(( threshold * percent / 100 ))
    [ "$allowance" -lt "$slack" ] && allowance=$slack
    # The harness's sampling thread allocates while a sample runs (about 0.25 calls per ms):
    # a long sample on a slow moment (an index build taking seconds) gets that much more room.
    sampler=$(( ${wall:-0} / 3333333 ))
    [ "$allowance" -lt "$sampler" ] && allowance=$sampler
    allowed=$(( threshold + allowance ))
    verdict="ok"
    if [ "$measured" -gt "$allowed" ]; then
        verdict="REGRESSION"
        status=1
    elif [ $(( measured + allowance )) -lt "$threshold" ]; then
        verdict="better"
        better=1
    fi
    checked=$((checked + 1))
    printf '%-58s %12s %12s %12s %14s  %s\n' "$name" "$threshold" "$measured" "$allowed" "$wall" "$verdict"
done

if [ "$status" -ne 0 ]; then
    echo "benchmark thresholds: REGRESSION in malloc counts (or a missing threshold file)."
    echo "If the new allocations are intended, run Benchmarks/update-thresholds.sh and commit Thresholds/ with the reason."
    exit 1
fi
echo "benchmark thresholds: $checked gated benchmarks within their malloc-count thresholds"
if [ "$better" -ne 0 ]; then
    echo "Some allocated less than their threshold minus the slack. Counts of long benchmarks move with"
    echo "the machine's load; lower a threshold (Benchmarks/update-thresholds.sh) only if it holds over runs."
fi
rm -rf "$out"
exit 0
