#!/usr/bin/env python3
"""Tables of medians from bench/buffer_experiments.sh's results, in Markdown.

    python3 bench/buffer_report.py bench/results/2026-11-22-buffer

reads PREFIX-{footprint,insert,point,range}/<point>/run-*.json and prints one table per
experiment: for each point the median over its runs of each column (footprint: MB and bytes
per entry, entries that fit in the budget; latencies in microseconds).
"""
import glob
import json
import os
import statistics
import sys


def runs(directory):
    out = []
    for path in sorted(glob.glob(os.path.join(directory, "run-*.json"))):
        with open(path) as f:
            bench = json.load(f)["engines"][0]["benchmarks"][0]
        if not bench.get("skipped"):
            out.append(bench)
    return out


def median(values):
    return statistics.median(values) if values else float("nan")


def table(prefix, experiment, columns):
    base = f"{prefix}-{experiment}"
    points = sorted(p for p in os.listdir(base) if os.path.isdir(os.path.join(base, p)))
    print(f"\n### {experiment} ({base})\n")
    print("| point | " + " | ".join(name for name, _ in columns) + " |")
    print("| --- |" + " --- |" * len(columns))
    for point in points:
        rs = runs(os.path.join(base, point))
        cells = [fmt(median([get(r) for r in rs])) for _, (get, fmt) in columns]
        print(f"| {point} | " + " | ".join(cells) + " |")


def metric(name):
    return lambda r: r["metrics"][name]


def latency(name):
    return lambda r: r["latency_us"][name]


def num(decimals):
    return lambda v: f"{v:,.{decimals}f}"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    prefix = sys.argv[1].rstrip("/")
    table(prefix, "footprint", [
        ("MB", (lambda r: r["metrics"]["footprint_bytes"] / 1048576, num(1))),
        ("B/entry", (metric("bytes_per_entry"), num(1))),
        ("entries in 16 MB", (metric("entries_within_budget"), num(0))),
        ("inserts/s", (lambda r: r["ops_per_sec"], num(0))),
    ])
    lat = [("P50 us", (latency("p50"), num(2))), ("P99 us", (latency("p99"), num(2))),
           ("P99.9 us", (latency("p99_9"), num(2))), ("max us", (latency("max"), num(1)))]
    table(prefix, "insert", lat)
    table(prefix, "point", lat)
    table(prefix, "range", [("P50 us", (latency("p50"), num(1))),
                            ("P99 us", (latency("p99"), num(1))),
                            ("max us", (latency("max"), num(1))),
                            ("entries scanned", (metric("entries_scanned"), num(0)))])


if __name__ == "__main__":
    main()
