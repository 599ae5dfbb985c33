#!/usr/bin/env bash
# Benches the corpus trace snapping/layer-file-parcels over a generated layer of a million
# polygons: the layer file is made here (never committed) with the seed of the trace's own
# parcels.geojson, so its first 300 features are the trace's 300 and the taps land among a
# million; then `mapsketch bench` replays the trace over it and this prints, per kind, the
# operations timed and their p50, p90 and p99 (hit tests, snap queries, the layer's load).
# Usage: scripts/layer-trace-bench.sh [--features N] [--runs R] [--mapsketch PATH]
set -euo pipefail
cd "$(dirname "$0")/.."
features=1000000
runs=5
mapsketch=.build/release/mapsketch
while [ $# -gt 0 ]; do
    case "$1" in
    --features) features=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --mapsketch) mapsketch=$2; shift 2 ;;
    *) echo "usage: $0 [--features N] [--runs R] [--mapsketch PATH]" >&2; exit 2 ;;
    esac
done
[ -x "$mapsketch" ] || { echo "$0: no mapsketch executable at $mapsketch: build it first (swift build -c release)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
trace=Traces/snapping/layer-file-parcels.trace.jsonl
grep -q '"source":"parcels.geojson"' "$trace" || { echo "$0: $trace no longer reads parcels.geojson" >&2; exit 1; }
echo "generating $features polygons (seed 2026, as Traces/snapping/parcels.geojson)…"
"$mapsketch" generate layer --features "$features" --seed 2026 --geometry polygon -o "$dir/parcels.geojson"
# The trace as it is; only its name says which layer it ran over.
sed "s/\"name\":\"layer-file-parcels\"/\"name\":\"layer-file-parcels-$features\"/" "$trace" >"$dir/layer-file-parcels-$features.trace.jsonl"
"$mapsketch" bench "$dir" --runs "$runs" --json "$dir/report.json" --format table >/dev/null
python3 - "$dir/report.json" "$features" <<'PY'
import json, sys
report, n = json.load(open(sys.argv[1])), int(sys.argv[2])
def ns(v):
    if v >= 1e6:
        return f"{v / 1e6:.1f} ms"
    return f"{v / 1000:.1f} µs" if v >= 1000 else f"{v:.0f} ns"
for t in report["traces"]:
    print(f"{t['name']} over {n:,} polygons, {len(t['kinds'][0].get('runs', []))} runs:")
    print(f"  {'kind':26} {'count':>6} {'p50':>10} {'p90':>10} {'p99':>10}")
    for k in t["kinds"]:
        print(f"  {k['kind']:26} {k['count']:>6} {ns(k['p50Ns']):>10} {ns(k['p90Ns']):>10} {ns(k['p99Ns']):>10}")
PY
