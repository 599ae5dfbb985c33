#!/usr/bin/env bash
# CI's fuzz phase: builds the fuzz targets (libFuzzer + AddressSanitizer) and runs every target
# for SECONDS (default 30) from its committed corpus, Fuzz/corpus/TARGET, as many targets at a
# time as there are cores (MAPSKETCH_FUZZ_PARALLEL to change it). The committed corpus is
# only read: what the run finds goes to a scratch folder. A crash, leak, timeout or out-of-memory
# input fails the phase after every target has run, each input saved under Fuzz/crashes/TARGET/
# and its path printed with the command that reproduces it.
#
#   Fuzz/ci.sh [SECONDS]
#
# MAPSKETCH_FUZZ_OPTIONS adds libFuzzer options; MAPSKETCH_FUZZ_TARGETS="wkt nmea" runs only those.
#
# MAPSKETCH_FUZZ_CONFIGURATION picks the build: debug (the default: quicker to build, and the
# model's internal invariant checks run after every mutation) or release (more inputs a second;
# what Fuzz/run.sh builds for long runs).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seconds="${1:-30}"
config="${MAPSKETCH_FUZZ_CONFIGURATION:-debug}"
targets=(${MAPSKETCH_FUZZ_TARGETS:-trace gpx gpxgz nmea geojsonl getevent wkt esrijson geojson geometry})

start=$(date +%s)
echo "-- building the fuzz targets ($config, -sanitize=fuzzer,address)"
if ! (cd "$here" && swift build -c "$config" -Xswiftc -sanitize=fuzzer,address >/tmp/mapsketch-fuzz-build.log 2>&1); then
    grep -E "error" /tmp/mapsketch-fuzz-build.log | head -20
    echo "fuzz: the build FAILED (the log: /tmp/mapsketch-fuzz-build.log)"
    exit 1
fi
bin="$(cd "$here" && swift build -c "$config" -Xswiftc -sanitize=fuzzer,address --show-bin-path)/MapSketchFuzz"
echo "-- fuzz build took $(( $(date +%s) - start )) s"

scratch="$(mktemp -d /tmp/mapsketch-fuzz.XXXXXX)"
# Fuzzes one target; its report goes to $scratch/TARGET.report, its exit status to TARGET.status.
fuzz_target() {
    local target="$1" corpus="$here/corpus/$1" crashes="$here/crashes/$1"
    local log="$scratch/$target.log" report="$scratch/$target.report" before status runs cov new f
    if [ ! -d "$corpus" ] || [ -z "$(ls -A "$corpus" 2>/dev/null)" ]; then
        echo "   $target: no committed corpus ($corpus)" >"$report"
        echo 1 >"$scratch/$target.status"
        return
    fi
    mkdir -p "$crashes" "$scratch/$target"
    before="$(ls "$crashes" 2>/dev/null | sort)"
    SWIFT_BACKTRACE=enable=no MAPSKETCH_FUZZ_TARGET="$target" "$bin" "$scratch/$target" "$corpus" \
        -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
        -artifact_prefix="$crashes/" -print_final_stats=1 ${MAPSKETCH_FUZZ_OPTIONS:-} >"$log" 2>&1
    status=$?
    runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1)
    new=$(ls "$scratch/$target" | wc -l)
    {
        echo "   $target: ${runs:-?} inputs in $seconds s, ${cov:-cov: ?}, $new new corpus inputs, exit $status"
        if [ "$status" -ne 0 ]; then
            grep -E "ERROR: |Fatal error|SUMMARY: |==[0-9]+== ?ERROR" "$log" | head -5 | sed 's/^/     /'
            for f in $(comm -13 <(echo "$before") <(ls "$crashes" | sort)); do
                echo "     input saved: $crashes/$f"
                echo "     reproduce:   MAPSKETCH_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no $bin $crashes/$f"
            done
            echo "     the log: $log"
        fi
    } >"$report"
    echo "$status" >"$scratch/$target.status"
}

# As many targets at a time as there are cores (MAPSKETCH_FUZZ_PARALLEL): each is one process.
parallel="${MAPSKETCH_FUZZ_PARALLEL:-$(nproc 2>/dev/null || echo 2)}"
running=0
for target in "${targets[@]}"; do
    fuzz_target "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$parallel" ]; then wait -n; running=$((running - 1)); fi
done
wait
failed=()
for target in "${targets[@]}"; do
    cat "$scratch/$target.report"
    [ "$(cat "$scratch/$target.status" 2>/dev/null || echo 1)" = 0 ] || failed+=("$target")
done
echo "-- fuzzing took $(( $(date +%s) - start )) s in all"
if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz: FAILED on ${failed[*]}"
    exit 1
fi
echo "fuzz: ${#targets[@]} targets, $seconds s each ($parallel at a time), nothing found"
