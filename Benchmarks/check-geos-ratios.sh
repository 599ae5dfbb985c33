#!/usr/bin/env bash
# The GEOS ratio gate. Runs the hit-test benchmarks at 1k, 100k and 1M graphics and the index-build
# ones at 1M (see GEOSRatioFloors.txt for why), point in polygon at 1k and 10k vertices, the snap
# queries at 1M (points, polylines, a sketch), one rotation of a 1M-vertex sketch, the freehand
# generalization of 100k points and the reading of a GeoJSON FeatureCollection of 100k points, for
# MapSketch and its GEOS peer in the same run, and fails when a
# ratio GEOS p50 / MapSketch p50 (how many times faster MapSketch is) falls below its committed
# floor in GEOSRatioFloors.txt.
#
# A ratio of two figures measured side by side in one run is robust to a slow or loaded machine
# (both sides slow down together); absolute times are not, so they are printed, never gated.
# Floors are 0.8 × the lowest ratio measured when they were committed (see the file's header).
#
# MAPSKETCH_GEOS_FLOORS names another floors file (for trying the gate).
#
# Exit status: 0 when every ratio is at or above its floor; 1 when one is below, a benchmark is
# missing from the run, or the build or run fails.
set -uo pipefail
cd "$(dirname "$0")"
command -v swift >/dev/null 2>&1 || { echo "$(basename "$0"): no swift on PATH (install a Swift 6.1+ toolchain)" >&2; exit 1; }
. ./swiftpm-run.sh
floors="${MAPSKETCH_GEOS_FLOORS:-GEOSRatioFloors.txt}"
out="$(mktemp -d "${TMPDIR:-/tmp}/mapsketch-geos.XXXXXX")"
filter='(HitTest\.(points|polylines|polygons)\.(1k|100k|1M)|IndexBuild\.(points|polylines|polygons)\.1M'
filter+='|PointInPolygon\.(1k|10k)|Snap\.(points|polylines|sketch)\.1M|Rotate\.call\.1M|Generalize\.stroke\.100k'
filter+='|ReadGeoJSON\.points\.100k)\.(MapSketch|GEOS)'

echo "-- running the hit-test (1k, 100k, 1M), index-build (1M), point-in-polygon, snap, rotate, generalize and GeoJSON-reading benchmarks, MapSketch and GEOS"
start=$(date +%s)
if ! swiftpm_run "$out/run.txt" swift package benchmark run --target HitTest --target Geometry --target Snapping --target Transform --target Graphics --filter "$filter" --no-progress; then
    tail -40 "$out/run.txt"
    echo "GEOS ratio benchmarks FAILED to build or run (see above)"
    exit 1
fi
echo "-- ran in $(( $(date +%s) - start )) s"
./summarize.sh <"$out/run.txt" >"$out/summary.txt"

# p50 wall clock in nanoseconds of one benchmark, from summarize.sh's "name | 0.43 μs | …" lines.
p50ns() {
    awk -F'|' -v name="$1" '
        { n = $1; gsub(/ /, "", n) }
        n == name {
            v = $2; gsub(/^ +| +$/, "", v); split(v, a, " ")
            u = a[2]; x = a[1] + 0
            if (u == "ns") f = 1; else if (u == "μs" || u == "us") f = 1000; else if (u == "ms") f = 1000000; else if (u == "s") f = 1000000000; else f = -1
            if (f > 0) printf "%.3f\n", x * f
        }' "$out/summary.txt"
}

status=0
printf '%-28s %14s %14s %8s %8s  %s\n' "benchmark" "MapSketch p50" "GEOS p50" "ratio" "floor" "verdict"
while read -r name floor; do
    case "$name" in ''|\#*) continue ;; esac
    ours="$(p50ns "$name.MapSketch")"
    peer="$(p50ns "$name.GEOS")"
    if [ -z "$ours" ] || [ -z "$peer" ]; then
        printf '%-28s %14s %14s %8s %8s  %s\n' "$name" "${ours:--}" "${peer:--}" "-" "$floor" "MISSING"
        status=1
        continue
    fi
    ratio="$(awk -v a="$peer" -v b="$ours" 'BEGIN { printf "%.2f", a / b }')"
    verdict="$(awk -v r="$ratio" -v f="$floor" 'BEGIN { print (r + 0 >= f + 0) ? "ok" : "BELOW FLOOR" }')"
    [ "$verdict" = "ok" ] || status=1
    printf '%-28s %11.1f ns %11.1f ns %8s %8s  %s\n' "$name" "$ours" "$peer" "$ratio" "$floor" "$verdict"
done <"$floors"

if [ "$status" -ne 0 ]; then
    echo "GEOS ratios: a ratio fell below its floor (or a benchmark is missing): MapSketch got slower relative to GEOS."
    exit 1
fi
echo "GEOS ratios: every ratio is at or above its floor"
rm -rf "$out"
exit 0
