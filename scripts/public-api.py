#!/usr/bin/env python3
"""Counts the public declarations of MapSketch's library products from the compiler's symbol graphs.

Usage: scripts/public-api.sh [--list] [--max N]

A declaration is a public symbol the compiler reports (a type, a property, a method, an
initializer, a subscript, an operator, a typealias), members synthesized from protocols
excluded. Cases of public enums are counted apart: they are the values of a public type, not
declarations of their own. Symbols behind `@_spi` are not public API and are not counted.
"""
import collections
import json
import os
import sys

PRODUCTS = [
    "MapSketchGeometry", "MapSketch", "MapSketchReaders", "MapSketchReplay", "MapSketchGolden", "MapSketchBench",
    "MapSketchTesting", "MapSketchCommandLine",
]


def main(argv):
    folder, rest = argv[0], argv[1:]
    listing = "--list" in rest
    maximum = None
    if "--max" in rest:
        maximum = int(rest[rest.index("--max") + 1])
    total = cases_total = 0
    rows = []
    for module in PRODUCTS:
        path = os.path.join(folder, module + ".symbols.json")
        try:
            with open(path, encoding="utf-8") as f:
                graph = json.load(f)
        except OSError as e:
            sys.exit(f"public-api: cannot read {path}: {e.strerror}")
        kinds = collections.Counter()
        cases = 0
        for symbol in graph["symbols"]:
            kind = symbol["kind"]["identifier"]
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if kind == "swift.enum.case":
                cases += 1
                continue
            kinds[kind.removeprefix("swift.")] += 1
            if listing:
                rows.append(f"{module}.{'.'.join(symbol['pathComponents'])}")
        count = sum(kinds.values())
        total += count
        cases_total += cases
        detail = ", ".join(f"{n} {k}" for k, n in kinds.most_common())
        print(f"{module:18} {count:5} declarations  {cases:4} enum cases   ({detail})")
    print(f"{'total':18} {total:5} declarations  {cases_total:4} enum cases")
    if listing:
        print("\n".join(sorted(rows)))
    if maximum is not None and total > maximum:
        print(f"public-api: {total} public declarations, more than the {maximum} allowed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
