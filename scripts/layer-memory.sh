#!/usr/bin/env bash
# Measures what a layer file costs a replay: the peak resident memory (the child's ru_maxrss) of
# `mapsketch replay` over a trace whose header layer reads N generated points from a GeoJSON
# FeatureCollection (or GeoJSON Lines), minus that of the same trace over an empty layer file,
# per feature. The target is 100 bytes a feature for a million points.
# Usage: scripts/layer-memory.sh [--features N] [--format geojson|geojsonl] [--mapsketch PATH]
set -euo pipefail
cd "$(dirname "$0")/.."
features=1000000
format=geojson
mapsketch=.build/release/mapsketch
[ -x "$mapsketch" ] || mapsketch=.build/debug/mapsketch
while [ $# -gt 0 ]; do
    case "$1" in
    --features) features=$2; shift 2 ;;
    --format) format=$2; shift 2 ;;
    --mapsketch) mapsketch=$2; shift 2 ;;
    *) echo "usage: $0 [--features N] [--format geojson|geojsonl] [--mapsketch PATH]" >&2; exit 2 ;;
    esac
done
[ -x "$mapsketch" ] || { echo "no mapsketch executable: build it first (swift build -c release)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$mapsketch" generate layer --features "$features" --seed 1 --format "$format" -o "$dir/points.$format"
"$mapsketch" generate layer --features 0 --seed 1 --format "$format" -o "$dir/empty.$format"
for name in points empty; do
    printf '%s\n' "{\"t\":0,\"type\":\"header\",\"format\":\"mapsketch-trace\",\"version\":1,\"layers\":[{\"name\":\"points\",\"source\":\"$name.$format\",\"renderer\":{\"type\":\"simple\",\"symbol\":{\"type\":\"marker\"}}}]}" >"$dir/$name.trace.jsonl"
done
python3 - "$mapsketch" "$dir" "$features" "$format" <<'PY'
import os, subprocess, sys
exe, folder, n, fmt = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def peak(trace):
    p = subprocess.Popen([exe, "replay", os.path.join(folder, trace)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit(f"mapsketch replay {trace} failed")
    return usage.ru_maxrss  # KB on Linux
base, loaded = peak("empty.trace.jsonl"), peak("points.trace.jsonl")
size = os.path.getsize(os.path.join(folder, "points." + fmt))
per = (loaded - base) * 1024 / max(n, 1)
print(f"{n} points from {fmt} ({size / max(n, 1):.0f} bytes each in the file): peak {loaded} KB, baseline {base} KB, "
      f"{per:.1f} bytes per feature above the baseline (target 100)")
PY
