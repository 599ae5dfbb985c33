#!/usr/bin/env bash
# Prints the number of public declarations per library product (see public-api.py).
# Usage: scripts/public-api.sh [--list] [--max N]
set -euo pipefail
cd "$(dirname "$0")/.."
swift package dump-symbol-graph --skip-synthesized-members --minimum-access-level public >/dev/null
folder=$(swift build --show-bin-path)/../symbolgraph
exec python3 scripts/public-api.py "$folder" "$@"
