#!/usr/bin/env python3
"""Per-operation latency percentiles of repeated sluice_bench runs (YCSB and the other
benchmarks that report `<op>_p50_us`, `<op>_p99_us` and `<op>_p999_us` metrics): the median over
the runs of each percentile, per engine, as a Markdown table (P50 / P99 / P99.9 in
microseconds).

    python3 bench/summarize_latency.py bench/results/<name>/run-*.json > .../latency.md

Each figure is the median of the runs' own percentiles (not a percentile of pooled samples):
the same statistic docs/benchmarks.md quotes for throughput.
"""
import statistics
import sys
from collections import defaultdict

from summarize import load_runs

PERCENTILES = ("p50", "p99", "p999")


def main(paths):
    runs, engines = load_runs(paths)
    # (benchmark, operation) -> engine -> percentile -> [value per run]
    table = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    rows = []
    for run in runs:
        for engine in run["engines"]:
            name = engine["engine"]
            for b in engine.get("benchmarks", []):
                for key, value in b.get("metrics", {}).items():
                    for p in PERCENTILES:
                        suffix = f"_{p}_us"
                        if key.endswith(suffix):
                            row = (b["name"], key[: -len(suffix)])
                            if row not in rows:
                                rows.append(row)
                            table[row][name][p].append(value)
    print(f"{len(runs)} runs; P50 / P99 / P99.9 in microseconds, each the median over the runs\n")
    print("| benchmark | operation | " + " | ".join(engines) + " |")
    print("|---|---|" + "---|" * len(engines))
    for row in rows:
        cells = []
        for e in engines:
            got = table[row][e]
            if not got:
                cells.append("")
                continue
            cells.append(" / ".join(f"{statistics.median(got[p]):.1f}" if got[p] else "-"
                                    for p in PERCENTILES))
        print(f"| {row[0]} | {row[1]} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
