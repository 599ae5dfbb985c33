#!/usr/bin/env bash
# CI's fuzz phase: builds the fuzz targets (libFuzzer + AddressSanitizer) and runs every target
# for SECONDS (default 30) from its committed corpus, Fuzz/corpus/TARGET. The committed corpus is
# only read: what the run finds goes to a scratch folder. A crash, leak, timeout or out-of-memory
# input fails the phase after every target has run, each input saved under Fuzz/crashes/TARGET/
# and its path printed with the command that reproduces it.
#
#   Fuzz/ci.sh [SECONDS]
#
# MAPSKETCH_FUZZ_CONFIGURATION picks the build: debug (the default: about a third of the release
# build's time on two cores, and the model's internal invariant checks run after every mutation)
# or release (several times more inputs a second; what Fuzz/run.sh builds for long runs).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seconds="${1:-30}"
config="${MAPSKETCH_FUZZ_CONFIGURATION:-debug}"
targets=(trace gpx gpxgz nmea geojsonl getevent wkt esrijson geojson geometry)

start=$(date +%s)
echo "-- building the fuzz targets ($config, -sanitize=fuzzer,address)"
if ! (cd "$here" && swift build -c "$config" -Xswiftc -sanitize=fuzzer,address >/tmp/mapsketch-fuzz-build.log 2>&1); then
    grep -E "error" /tmp/mapsketch-fuzz-build.log | head -20
    echo "fuzz: the build FAILED (the log: /tmp/mapsketch-fuzz-build.log)"
    exit 1
fi
bin="$(cd "$here" && swift build -c "$config" -Xswiftc -sanitize=fuzzer,address --show-bin-path)/MapSketchFuzz"
echo "-- fuzz build took $(( $(date +%s) - start )) s"

failed=()
scratch="$(mktemp -d /tmp/mapsketch-fuzz.XXXXXX)"
for target in "${targets[@]}"; do
    corpus="$here/corpus/$target"
    crashes="$here/crashes/$target"
    if [ ! -d "$corpus" ] || [ -z "$(ls -A "$corpus" 2>/dev/null)" ]; then
        echo "fuzz: no committed corpus for $target ($corpus)"
        failed+=("$target")
        continue
    fi
    mkdir -p "$crashes" "$scratch/$target"
    before="$(ls "$crashes" 2>/dev/null | sort)"
    log="$scratch/$target.log"
    SWIFT_BACKTRACE=enable=no MAPSKETCH_FUZZ_TARGET="$target" "$bin" "$scratch/$target" "$corpus" \
        -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
        -artifact_prefix="$crashes/" -print_final_stats=1 >"$log" 2>&1
    status=$?
    runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1)
    new=$(ls "$scratch/$target" | wc -l)
    echo "   $target: ${runs:-?} inputs in $seconds s, ${cov:-cov: ?}, $new new corpus inputs, exit $status"
    if [ "$status" -ne 0 ]; then
        failed+=("$target")
        grep -E "ERROR: |Fatal error|SUMMARY: |==[0-9]+== ?ERROR" "$log" | head -5 | sed 's/^/     /'
        for f in $(comm -13 <(echo "$before") <(ls "$crashes" | sort)); do
            echo "     input saved: $crashes/$f"
            echo "     reproduce:   MAPSKETCH_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no $bin $crashes/$f"
        done
        echo "     the log: $log"
    fi
done
echo "-- fuzzing took $(( $(date +%s) - start )) s in all"
if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz: FAILED on ${failed[*]}"
    exit 1
fi
echo "fuzz: ${#targets[@]} targets, $seconds s each, nothing found"
