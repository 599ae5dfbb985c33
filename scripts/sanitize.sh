#!/usr/bin/env bash
# Runs the test suite under a sanitizer, in a build directory of its own (.build-asan or
# .build-tsan) so that the normal debug build is left alone.
#
#   scripts/sanitize.sh address|thread           # the sanitizer's subset (what CI runs)
#   scripts/sanitize.sh address|thread --all     # the whole suite
#   scripts/sanitize.sh address|thread REGEX     # the tests matching a `swift test --filter` REGEX
#   scripts/sanitize.sh address|thread --build-only   # only the build (CI makes it early, niced)
#
# The subset is the tests of the code that manages memory by hand or shares it between threads
# (see docs/Sanitizers.md for what each part covers). A sanitizer report fails the run: the
# sanitizers halt on the first error, and a test process that dies makes `swift test` exit 1.
# Prints how long the build and the run took.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || { echo "$(basename "$0"): no swift on PATH (install a Swift 6.1+ toolchain)" >&2; exit 1; }

sanitizer="${1:-}"
case "$sanitizer" in
    address) scratch=.build-asan ;;
    thread) scratch=.build-tsan ;;
    *) echo "usage: scripts/sanitize.sh address|thread [--all | REGEX]" >&2; exit 2 ;;
esac

# The tests of the unsafe code: the chunked vertex storage (_VertexRun's malloc/realloc/free,
# the chunk tree), the packed R-tree and the spatial index, the flat coordinate and JSON
# buffers, the columnar graphics layer (slot buffers, packed vertices, intern tables, attribute
# columns), the byte readers (GPX, NMEA, getevent, GeoJSON Lines, gzip inflate, the streaming
# byte source), the encoders' output buffer and in-place simplification, the number parser and
# the GeoJSON byte reader, the geometry tool's read loop, generalization's four-at-a-time reads
# of its coordinate rows, the GPS reader on its own thread (GPSPrefetchingReader, BoundedQueue), the
# parallel output writers and the bench's report tables. Left out for time (each replays traces
# or starts processes, and is run by `--all`): the GPS conversion and report tests, the bench
# runner's worker processes, the soak's tests.
subset='ChunkedVertices|VertexStore|InvariantTests|DynamicIndexTests|RTreeTests|RadixSortTests|FlatCoordinatesTests|JSONParserTests|JSONWriterTests'
subset+='|FeatureColumnsTests|GeometryColumnTests|HugePagesTests'
subset+='|GraphicsLayerTests|GraphicsLayerBulkAddTests|ColumnarLayerPropertyTests|GraphicColumnsTests|FeatureColumnsLoadTests|AttributeColumnTests|TypedColumnTests'
subset+='|SketchBulkAppendTests|FullInvariantCheckTests'
subset+='|GPSPrefetchingReaderTests|StreamingReaderTests|GPXTests|GzipTests|NMEAFastPathTests|GeteventTests|GeoJSONLinesTests'
subset+='|GeometryStreamWriter|AtomicFileTests|BenchReportTests|SanitizerRuntimeTests'
subset+='|GeometryEncoderTests|SimplifyRuleTests|JSONNumberParityTests|GeoJSONBytePathTests|GeometryToolDescriptorTests|GeneralizeTests'

# ThreadSanitizer only has something to say where code runs on more than one thread: the GPS
# reader's prefetching thread and the running length's worker (GPSIngest), the output writer's
# formatting helper, the streaming readers handed between threads. (The bench's workers are other
# processes: they share no memory with the bench.)
thread_subset='GPSPrefetchingReaderTests|GPSConversion|GeometryStreamWriter|StreamingReaderTests|SanitizerRuntimeTests'
[ "$sanitizer" = thread ] && subset="$thread_subset"

filter=()
case "${2:-}" in
    --all|--build-only) what="the whole suite" ;;
    "") filter=(--filter "$subset"); what="the $sanitizer subset" ;;
    *) filter=(--filter "$2"); what="the tests matching $2" ;;
esac

# halt_on_error: the first report fails the test process. detect_leaks=0: LeakSanitizer reports
# allocations of the Swift runtime and Foundation that are never freed by design (e.g. the side
# table of a weak reference Foundation's Process.run makes), which are not MapSketch's. SWIFT_BACKTRACE=enable=no: the
# Swift backtracer reads memory that the sanitizer would report as an error of its own.
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=0:${ASAN_OPTIONS:-}"
export TSAN_OPTIONS="halt_on_error=1:${TSAN_OPTIONS:-}"
export SWIFT_BACKTRACE=enable=no
# What the tests check the sanitizer they detect against (SanitizerRuntimeTests).
export MAPSKETCH_SANITIZER="$sanitizer"

# The CPU seconds (user + system) this script's children have used so far, into $cpu: with the
# wall time, it tells what a run costs on a host shared with other work. (`times` must run in this
# shell, not in a command substitution's subshell, which has no children of its own.)
cpu_times="$(mktemp)"
read_cpu() {
    times >"$cpu_times"
    cpu=$(tail -1 "$cpu_times" | awk '{ split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.0f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }')
}

# Line tables only (not full debug info): a report still names file and line of every frame,
# and the build costs about a sixth less CPU (the TSan build: 244 CPU-s against 290).
debug_info=(-Xswiftc -gline-tables-only)

start=$(date +%s)
echo "== building the tests with -sanitize=$sanitizer (in $scratch)"
swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" "${debug_info[@]}" 2>&1 \
    | grep -vE '^\[[0-9]+/[0-9]+\] |ld.gold: warning: Cannot export local symbol' || true
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "sanitize: the $sanitizer build failed"; exit 1; }
built=$(date +%s)
read_cpu
build_cpu=$cpu
echo "== $sanitizer build took $((built - start)) s ($build_cpu s of CPU)"
[ "${2:-}" = --build-only ] && exit 0

echo "== running $what under the $sanitizer sanitizer"
# One log per kind of run, so a whole-suite run and CI's subset can run side by side.
case "${2:-}" in
    --all) log="/tmp/mapsketch-sanitize-$sanitizer-all.log" ;;
    "") log="/tmp/mapsketch-sanitize-$sanitizer.log" ;;
    *) log="/tmp/mapsketch-sanitize-$sanitizer-filtered.log" ;;
esac
set +e
swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" "${debug_info[@]}" "${filter[@]}" 2>&1 | tee "$log" \
    | grep -E "Test run with|✘|SUMMARY: |ERROR: |WARNING: ThreadSanitizer|error:|Fatal error" | grep -v "^◇"
status=${PIPESTATUS[0]}
set -e
read_cpu
echo "== $sanitizer run took $(( $(date +%s) - built )) s ($((cpu - build_cpu)) s of CPU; the log: $log)"
if grep -qE "ERROR: AddressSanitizer|WARNING: ThreadSanitizer|SUMMARY: (Address|Thread|UndefinedBehavior)Sanitizer" "$log"; then
    echo "sanitize: the $sanitizer sanitizer reported an error (see $log)"
    exit 1
fi
[ "$status" -eq 0 ] || { echo "sanitize: swift test failed with status $status under $sanitizer"; exit "$status"; }
echo "sanitize: $what is clean under the $sanitizer sanitizer"
