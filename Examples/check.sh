#!/usr/bin/env bash
# The Examples package as CI runs it (.ci/run calls this): builds FieldSurvey against this
# checkout, runs its tests, checks its traces with its own executable (`fieldcheck`, the
# `mapsketch` commands with the team's rule installed) and benches them, requiring the rule to be
# measured as its own kind, user.shortSegment: with allocation counts when jemalloc is installed
# and instruction counts when valgrind is. Exit status 1 on any failure, with what failed.
set -uo pipefail
cd "$(dirname "$0")"
command -v swift >/dev/null 2>&1 || { echo "$(basename "$0"): no swift on PATH (install a Swift 6.1+ toolchain)" >&2; exit 1; }
. ../Benchmarks/swiftpm-run.sh

traits=()
if dpkg -s libjemalloc-dev >/dev/null 2>&1; then traits=(--traits AllocationCounters); fi
instrument=()
if command -v valgrind >/dev/null 2>&1; then instrument=(--instrument callgrind); fi
log="${TMPDIR:-/tmp}/mapsketch-examples"
mkdir -p "$log"

echo "-- building Examples (debug${traits:+, AllocationCounters}: MapSketch is built again, by path)"
if ! swiftpm_run "$log/build.log" swift build --build-tests "${traits[@]}"; then
    grep -E "error" "$log/build.log" | head -20
    echo "Examples: build FAILED (the log: $log/build.log)"
    exit 1
fi
if grep -E "warning:" "$log/build.log" | sort -u | grep .; then
    echo "Examples: the build has warnings (above)"
    exit 1
fi

echo "-- swift test (Examples)"
swift test --skip-build "${traits[@]}" >"$log/test.log" 2>&1
status=$?
grep -E "^(✔|✘|━) (Suite|Test run)|^✘ Test" "$log/test.log"
if [ "$status" -ne 0 ]; then
    tail -40 "$log/test.log"
    echo "Examples: swift test FAILED with status $status (the log: $log/test.log)"
    exit 1
fi

echo "-- fieldcheck check Traces (CI=true: compare only)"
if ! CI=true .build/debug/fieldcheck check Traces; then
    echo "Examples: fieldcheck check FAILED"
    exit 1
fi

echo "-- fieldcheck bench Traces ${instrument[*]}"
if ! .build/debug/fieldcheck bench Traces --runs 5 "${instrument[@]}" --json "$log/bench.json" >"$log/bench.txt" 2>&1; then
    cat "$log/bench.txt"
    echo "Examples: fieldcheck bench FAILED"
    exit 1
fi
grep -vE "^bench: " "$log/bench.txt"
# The rule's row must be there, with every counter this machine can measure.
want=(time)
[ ${#traits[@]} -gt 0 ] && want+=(allocations)
[ ${#instrument[@]} -gt 0 ] && want+=(instructions)
if ! command -v python3 >/dev/null 2>&1; then
    # Without python3, the table's row is checked, not its counters.
    grep -qE "^  user\.shortSegment " "$log/bench.txt" || { echo "Examples: fieldcheck bench did not report user.shortSegment"; exit 1; }
    want=(time)
elif ! python3 - "$log/bench.json" "${want[@]}" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
kinds = [k for t in report["traces"] for k in t["kinds"] if k["kind"] == "user.shortSegment"]
if not kinds:
    sys.exit("Examples: fieldcheck bench did not report the kind user.shortSegment")
fields = {"time": "p50Ns", "allocations": "allocations", "instructions": "instructions"}
missing = [w for w in sys.argv[2:] if kinds[0].get(fields[w]) is None]
if missing:
    sys.exit("Examples: user.shortSegment has no " + ", ".join(missing))
PY
then
    echo "(the report: $log/bench.json)"
    exit 1
fi
echo "Examples: the team's rule is measured as user.shortSegment (${want[*]})"
