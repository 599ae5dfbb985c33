#!/usr/bin/env bash
# Checks that the trace bench's verdicts can be trusted, on this repository's corpus:
#
# 1. Identical code reports nothing. The same build
#    - against a saved baseline of itself (`--baseline`, `--metric p50`), three times with 5 runs
#      and once with 20 (the default), and three times more with 5 runs beside a memory-bound process;
#    - against a copy of itself (`--against`, paired runs, 40), once quietly and once while a
#      CPU-bound process runs beside it the whole time.
# 2. A real slowdown is caught where it is, and nowhere else. A build with about 200 ns of work
#    added to `SketchLayer.undo` must be flagged on `undo` in every trace that undoes — by
#    `--against`, by callgrind instruction counts against a saved baseline, and by `--baseline`
#    with `--metric p50` (20 runs; with 5, the undo kind must be the one kind found slower) — and
#    on no other kind (the totals and the unattributed
#    rows of those traces aside: the undo is part of them). Against a saved baseline, wall clock
#    is judged a kind at a time across the traces that run it, so the A/A runs there also prove
#    that a load which slows a few traces' figures is not taken for the code.
#
# Usage: Benchmarks/TraceBench/check-verdicts.sh [--slowed DIR] [MAPSKETCH]
#        Benchmarks/TraceBench/check-verdicts.sh --build-slowed DIR
#   MAPSKETCH: a release build of mapsketch with the AllocationCounters trait and the bench's
#   build flags (default .build/release/mapsketch; see Benchmarks/TraceBench/build-mapsketch.sh).
#   The slowed build is made the same way from this checkout's sources in a temporary folder (a
#   release build: a few minutes), or taken from DIR, where `--build-slowed DIR` made it
#   beforehand. Needs python3 and valgrind.
# Prints a line per step and a summary; exits 1 when a check fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
# swiftpm_run: a line every 30 s from a long build, and one more run when SwiftPM itself crashes.
. Benchmarks/swiftpm-run.sh
# The slowed build: this checkout's sources with ~200 ns of dependent arithmetic in undo (xorshift
# steps, which no optimiser folds into a closed form), built in $1/src (log: $1/slowed-build.log).
build_slowed() {
    mkdir -p "$1/src/Benchmarks/TraceBench"
    cp -R Package.swift Sources Tests "$1/src/"
    cp Benchmarks/TraceBench/build-mapsketch.sh "$1/src/Benchmarks/TraceBench/"
    python3 - "$1/src/Sources/MapSketch/Sketch/SketchLayer.swift" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
old = "    public func undo() -> Bool {\n        perform(.undo) { $0.undo() }\n    }"
new = """    public func undo() -> Bool {
        var x = UInt64(truncatingIfNeeded: ObjectIdentifier(self).hashValue) | 1
        for _ in 0..<150 { x ^= x >> 12; x ^= x << 25; x ^= x >> 27 }
        if x == 42 { print("") }
        return perform(.undo) { $0.undo() }
    }"""
assert old in s, "SketchLayer.undo is not where the check expects it"
open(p, "w").write(s.replace(old, new))
PY
    (cd "$1/src" && swiftpm_run "$1/slowed-build.log" Benchmarks/TraceBench/build-mapsketch.sh) || true
    grep -E "error:|Build" "$1/slowed-build.log" | tail -3
}

# --build-slowed DIR: only make the slowed build, in DIR (a release build takes mostly one core,
# so CI makes it beside its own release build of mapsketch), for a later --slowed DIR.
if [ "${1:-}" = --build-slowed ]; then
    [ -n "${2:-}" ] || { echo "usage: $0 --build-slowed DIR" >&2; exit 2; }
    mkdir -p "$2"
    build_slowed "$(realpath "$2")"
    [ -x "$2/src/.build/release/mapsketch" ]
    exit
fi
prebuilt=""
if [ "${1:-}" = --slowed ]; then
    [ -n "${2:-}" ] || { echo "usage: $0 --slowed DIR [MAPSKETCH]" >&2; exit 2; }
    prebuilt=$(realpath "$2")
    shift 2
fi
bin=$(realpath "${1:-.build/release/mapsketch}")
work=$(mktemp -d /tmp/mapsketch-verdicts.XXXXXX)
hog=""
# MAPSKETCH_VERDICTS_KEEP=1 keeps the folder (its reports and the slowed build) to look at.
cleanup() {
    [ -n "$hog" ] && kill "$hog" 2>/dev/null
    if [ "${MAPSKETCH_VERDICTS_KEEP:-}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
failed=0
fail() { echo "FAILED: $*"; failed=1; }
step() { echo "-- $* ($(date +%T))"; }

regressions() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["comparison"]["regressions"])' "$1"; }
tested() { python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["comparison"]; print(c["figures"], "figures,", c["tested"], "tested on wall clock")' "$1"; }

# A/A: a copy of this build at another path, so nothing but the path tells them apart.
cp "$bin" "$work/same"

for runs in 5 20; do
    # Three times with 5 runs; once with 20, the default (its baseline serves the injected checks below).
    repeats="1 2 3"
    [ "$runs" = 20 ] && repeats="1"
    step "A/A --baseline (p50, $runs runs) x$(wc -w <<<"$repeats")"
    "$bin" bench Traces --runs "$runs" --no-progress --save-baseline "$work/aa-base$runs.json" >/dev/null 2>&1
    for i in $repeats; do
        "$bin" bench Traces --runs "$runs" --no-progress --baseline "$work/aa-base$runs.json" --metric p50 --json "$work/aa-b$runs-$i.json" >/dev/null 2>&1 || true
        n=$(regressions "$work/aa-b$runs-$i.json")
        echo "   run $i: $n regressions ($(tested "$work/aa-b$runs-$i.json"))"
        [ "$n" = 0 ] || fail "A/A --baseline ($runs runs) run $i reported $n regressions"
    done
done

# The same, beside a process that streams memory the whole time (it slows memory-bound kinds more
# than the rest, and the processes of some rounds more than others).
step "A/A --baseline (p50, 5 runs) x3, beside a memory-bound process"
python3 -c 'a = bytearray(64 << 20)
while True: b = bytes(a)' &
hog=$!
for i in 1 2 3; do
    "$bin" bench Traces --runs 5 --no-progress --baseline "$work/aa-base5.json" --metric p50 --json "$work/aa-m5-$i.json" >/dev/null 2>&1 || true
    n=$(regressions "$work/aa-m5-$i.json")
    echo "   run $i: $n regressions ($(tested "$work/aa-m5-$i.json"))"
    [ "$n" = 0 ] || fail "A/A --baseline (5 runs) beside a memory-bound process, run $i reported $n regressions"
done
kill "$hog" && hog=""

aa_against() {  # $1 = a tag for the report's file, $2 = what ran beside it
    "$bin" bench Traces --runs 40 --no-progress --against "$work/same" --json "$work/aa-a$1.json" >/dev/null 2>&1 || true
    n=$(regressions "$work/aa-a$1.json")
    echo "   $n regressions ($(tested "$work/aa-a$1.json"))"
    [ "$n" = 0 ] || fail "A/A --against$2 reported $n regressions"
}
step "A/A --against (paired, 40 rounds)"
aa_against q ""
step "A/A --against, beside a CPU-bound process"
(while :; do :; done) &
hog=$!
aa_against h " (beside a CPU-bound process)"
kill "$hog" && hog=""

if [ -n "$prebuilt" ]; then
    step "the slowed build (SketchLayer.undo + about 200 ns), made beforehand in $prebuilt"
    slow="$prebuilt/src/.build/release/mapsketch"
else
    step "building the slowed build (SketchLayer.undo + about 200 ns)"
    build_slowed "$work"
    slow="$work/src/.build/release/mapsketch"
fi
[ -x "$slow" ] || { echo "FAILED: the slowed build did not build"; exit 1; }

# Which traces undo, and what each check flagged.
check_flags() {  # $1 = JSON with a comparison, $2 = what made it
    python3 - "$1" "$2" "$work/aa-base20.json" <<'PY' || failed=1
import json, sys
report, what, base = sys.argv[1:]
c = json.load(open(report))["comparison"]
undoers = sorted(t["name"] for t in json.load(open(base))["traces"] if any(k["kind"] == "undo" for k in t["kinds"]))
flagged = [x for x in c["changes"] if x["regressed"]]
on_undo = sorted({x["trace"] for x in flagged if x["row"] == "undo"})
elsewhere = [x for x in flagged if x["row"] not in ("undo", "total", "unattributed") or x["trace"] not in undoers]
missed = [t for t in undoers if t not in on_undo]
print(f"   {what}: undo flagged in {len(on_undo)} of {len(undoers)} traces that undo; {len(elsewhere)} other figure(s) flagged")
for x in elsewhere[:10]:
    print(f"     also flagged: {x['trace']} {x['row']} {x['metric']}: {x['old']} -> {x['new']}")
for t in missed[:10]:
    x = next((x for x in c["changes"] if x["trace"] == t and x["row"] == "undo"), {})
    print(f"     missed: {t} undo {x.get('metric', '')}: {x.get('old')} -> {x.get('new')}, x{x.get('ratio')} [{x.get('ratioLow')}, {x.get('ratioHigh')}], p = {x.get('p')}")
sys.exit(0 if not missed and not elsewhere else 1)
PY
}

step "injected slowdown: --against (paired)"
"$slow" bench Traces --runs 40 --no-progress --against "$bin" --json "$work/inj-a.json" >/dev/null 2>&1 || true
check_flags "$work/inj-a.json" "--against"

# Instruction counts are exact whatever else runs, so the two builds are counted side by side.
step "injected slowdown: callgrind instructions against a saved baseline"
"$bin" bench Traces --runs 1 --no-progress --instrument callgrind --save-baseline "$work/cg-base.json" >/dev/null 2>&1 &
"$slow" bench Traces --runs 1 --no-progress --instrument callgrind --save-baseline "$work/cg-slow.json" >/dev/null 2>&1 || true
wait $! || true
"$slow" bench compare "$work/cg-base.json" "$work/cg-slow.json" --metric instructions --json "$work/inj-c.json" >/dev/null 2>&1 || true
check_flags "$work/inj-c.json" "callgrind instructions"

step "injected slowdown: --baseline on p50 (20 runs)"
"$slow" bench Traces --runs 20 --no-progress --baseline "$work/aa-base20.json" --metric p50 --json "$work/inj-b20.json" >/dev/null 2>&1 || true
check_flags "$work/inj-b20.json" "--baseline p50, 20 runs"

# With 5 runs a side, a figure's own runs are thin evidence: the verdict is the kind's. undo must
# be the one kind found slower, and no figure outside it flagged.
step "injected slowdown: --baseline on p50 (5 runs), the kinds' verdict"
"$slow" bench Traces --runs 5 --no-progress --baseline "$work/aa-base5.json" --metric p50 --json "$work/inj-b5.json" >/dev/null 2>&1 || true
python3 - "$work/inj-b5.json" <<'PY' || failed=1
import json, sys
c = json.load(open(sys.argv[1]))["comparison"]
slower = [k for k in c.get("kinds", []) if k["regressed"]]
outside = [x for x in c["changes"] if x["regressed"] and x["row"] != "undo"]
print(f"   --baseline p50, 5 runs: kinds found slower: {', '.join(k['row'] for k in slower) or 'none'}; {len(outside)} figure(s) flagged outside undo")
undo = next((k for k in c.get("kinds", []) if k["row"] == "undo"), None)
if undo:
    p = undo.get("processes")
    print(f"     undo: slower in {undo['slower']} of {undo['traces']} traces, x{undo['ratio']} (p = {undo['p']:.1e})"
          + (f"; over {p['old']} + {p['new']} processes x{p['ratio']} [{p.get('ratioLow')}, {p.get('ratioHigh')}] (p = {p['p']:.1e})" if p else ""))
sys.exit(0 if [k["row"] for k in slower] == ["undo"] and not outside else 1)
PY

if [ "$failed" -ne 0 ]; then
    echo "verdict checks FAILED"
    exit 1
fi
echo "verdict checks passed: A/A reports nothing in either mode, and the slowed undo is caught on undo only"
