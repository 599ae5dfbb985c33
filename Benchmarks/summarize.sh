#!/usr/bin/env bash
# Condenses package-benchmark's text output (stdin) to one line per benchmark:
#   name | wall clock p50 (unit) | malloc p50 / p90 | custom metrics p50
# Usage: swift package --package-path Benchmarks benchmark --no-progress | Benchmarks/summarize.sh
awk '
function cell(line, n,    a) { split(line, a, "│"); gsub(/ /, "", a[n]); return a[n] }
function flush() { if (name != "") printf "%-48s | %14s | malloc %s / %s%s\n", name, wall, mp50, mp90, custom }
/^[A-Za-z][A-Za-z0-9]*\.[^ ]+$/ { flush(); name = $0; wall = "-"; mp50 = "-"; mp90 = "-"; custom = ""; next }
/│ Time \(wall clock\)/ { u = $0; sub(/.*Time \(wall clock\) \(/, "", u); sub(/\).*/, "", u); wall = cell($0, 5) " " u }
/│ Malloc \(total\)/ { mu = ""; if ($0 ~ /Malloc \(total\) \([KMG]\)/) { mu = $0; sub(/.*Malloc \(total\) \(/, "", mu); sub(/\).*/, "", mu) }; mp50 = cell($0, 5) mu; mp90 = cell($0, 7) mu }
/│ (indexBytesPerGraphic|bytesPerRecord|bytesPerGraphic|residentBytesPerGraphic|bytesPerExtraNumeric)/ { m = $0; sub(/^│ */, "", m); sub(/ *│.*/, "", m); custom = custom " | " m " " cell($0, 5) }
END { flush() }
'
