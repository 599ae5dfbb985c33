#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer and AddressSanitizer and runs one of them.
#
#   Fuzz/run.sh TARGET [SECONDS] [libFuzzer options…]
#   Fuzz/run.sh list
#
# TARGET: trace gpx gpxgz nmea geojsonl getevent wkt esrijson geojson geometry (or "all": each in
# turn for SECONDS). SECONDS defaults to 60. The corpus grows in Fuzz/corpus/TARGET (seeded on the
# first run from Traces/ and the test fixtures); crashes land in Fuzz/crashes/TARGET/. Options after
# SECONDS go to libFuzzer (e.g. -fork=1 -ignore_crashes=1 to keep going after a crash).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
targets=(trace gpx gpxgz nmea geojsonl getevent wkt esrijson geojson geometry)

target="${1:-}"
seconds="${2:-60}"
shift $(( $# >= 2 ? 2 : $# ))
if [[ -z "$target" || "$target" == "list" ]]; then
    echo "targets: ${targets[*]}"
    [[ -n "$target" ]] && exit 0 || exit 2
fi
if [[ "$target" == "all" ]]; then
    for t in "${targets[@]}"; do "$0" "$t" "$seconds" "$@"; done
    exit 0
fi
if [[ ! " ${targets[*]} " == *" $target "* ]]; then
    echo "run.sh: unknown target '$target'; expected one of: ${targets[*]}" >&2
    exit 2
fi

config="${MAPSKETCH_FUZZ_CONFIGURATION:-release}"  # or debug: a quicker build, the internal checks on
echo "== building the fuzz targets (libFuzzer + AddressSanitizer, $config)"
(cd "$here" && swift build -c "$config" -Xswiftc -sanitize=fuzzer,address 2>&1 | grep -v "^\[" || true)
bin="$(cd "$here" && swift build -c "$config" -Xswiftc -sanitize=fuzzer,address --show-bin-path)/MapSketchFuzz"
[[ -x "$bin" ]] || { echo "run.sh: the build failed" >&2; exit 1; }

corpus="$here/corpus/$target"
crashes="$here/crashes/$target"
mkdir -p "$corpus" "$crashes"
seed() {  # copies the files matching the patterns (under Traces/ and Tests/) into the corpus
    local f
    for f in $(cd "$root" && find Traces Tests -type f \( "$@" \) -size -512k 2>/dev/null); do
        cp "$root/$f" "$corpus/seed-$(echo "$f" | tr '/' '_')"
    done
}
if [[ -z "$(ls -A "$corpus")" ]]; then
    echo "== seeding $corpus"
    case "$target" in
        trace) seed -name '*.trace.jsonl' ;;
        gpx) seed -name '*.gpx' ;;
        gpxgz) seed -name '*.gpx.gz' -o -name '*.gz' ;;
        nmea) seed -path '*nmea*' ! -name COPYING ! -name '*.md' ! -name '*.json' ! -name '*.jsonl' ;;
        geojsonl) seed -name '*.geojsonl' -o -name '*.geojson' ;;
        getevent) seed -path '*getevent*' -name '*.txt' ;;
        wkt) seed -name '*.wkt' ;;
        esrijson|geojson|geometry) seed -name '*.json' -o -name '*.geojson' -o -name '*.wkt' ;;
    esac
    # A few hand-made seeds so that no corpus starts empty.
    case "$target" in
        wkt|geometry) printf 'POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 4 2, 4 4, 2 2))' > "$corpus/seed-polygon.wkt"
            printf 'MULTILINESTRING Z ((0 0 1, 1 1 2), (2 2 3, 3 3 4))' > "$corpus/seed-lines.wkt" ;;
        esrijson) printf '{"rings":[[[0,0],[10,0],[10,10],[0,0]]],"spatialReference":{"wkid":4326}}' > "$corpus/seed-rings.json" ;;
        geojson) printf '{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]]]}' > "$corpus/seed-mp.json" ;;
        nmea) printf '$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n' > "$corpus/seed-rmc.nmea" ;;
        geojsonl) printf '{"type":"Feature","geometry":{"type":"Point","coordinates":[14.5,46.05,300]},"properties":{"time":"2024-05-01T10:00:00Z"}}\n' > "$corpus/seed-fix.geojsonl" ;;
        getevent) printf '[   1.000000] /dev/input/event2: EV_ABS ABS_MT_TRACKING_ID 00000001\n[   1.000000] /dev/input/event2: EV_ABS ABS_MT_POSITION_X 00000100\n[   1.000000] /dev/input/event2: EV_ABS ABS_MT_POSITION_Y 00000200\n[   1.000000] /dev/input/event2: EV_SYN SYN_REPORT 00000000\n' > "$corpus/seed-touch.txt" ;;
    esac
    echo "   $(ls "$corpus" | wc -l) seed files"
fi

echo "== fuzzing $target for $seconds s (corpus $corpus, crashes in $crashes)"
cd "$crashes"
SWIFT_BACKTRACE=enable=no MAPSKETCH_FUZZ_TARGET="$target" "$bin" "$corpus" \
    -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix="$crashes/" -print_final_stats=1 "$@"
