#!/usr/bin/env python3
"""Tables of medians from bench/buffer_experiments.sh's results, in Markdown.

    python3 bench/buffer_report.py bench/results/<date>-buffer

reads PREFIX-{footprint,insert,point,range,mix}/<point>/run-*.json and prints one table per
experiment: for each point the median over its runs of each column (footprint: MB and bytes
per entry, entries that fit in the budget; latencies in microseconds). The mix experiment
(points <class>-<component>) gives two tables: microseconds per operation for every component
and workload class, with "adaptive" over the best fixed component; and the flushes,
compactions and bytes of the insert-only class (experiment 5), with adaptive's choices.
A missing experiment directory is skipped.
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
    if not os.path.isdir(base):
        return
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


MIX_CLASSES = ["insert", "point", "short_scan", "long_scan", "point_heavy"]
MIX_COMPONENTS = ["vector", "vector-prealloc", "skiplist", "hash-skiplist", "hash-linklist",
                  "flodb", "adaptive"]


def mix_runs(prefix):
    """{(class, component): [benchmark results]} of the mix experiment."""
    base = f"{prefix}-mix"
    out = {}
    if not os.path.isdir(base):
        return out
    for point in os.listdir(base):
        for cls in sorted(MIX_CLASSES, key=len, reverse=True):
            if point.startswith(cls + "-"):
                out[(cls, point[len(cls) + 1:])] = runs(os.path.join(base, point))
                break
    return out


def mix_tables(prefix):
    results = mix_runs(prefix)
    if not results:
        return
    classes = [c for c in MIX_CLASSES if any(k[0] == c for k in results)]
    comps = [m for m in MIX_COMPONENTS if any(k[1] == m for k in results)]
    med = {k: median([r["micros_per_op"] for r in rs]) for k, rs in results.items()}
    print(f"\n### mix: microseconds per operation ({prefix}-mix)\n")
    print("| component | " + " | ".join(classes) + " |")
    print("| --- |" + " --- |" * len(classes))
    for m in comps:
        print(f"| {m} | " + " | ".join(f"{med[(c, m)]:.3f}" if (c, m) in med else "" for c in classes)
              + " |")
    cells = []
    for c in classes:
        fixed = [(med[(c, m)], m) for m in comps if m != "adaptive" and (c, m) in med]
        if (c, "adaptive") not in med or not fixed:
            cells.append("")
            continue
        best, name = min(fixed)
        cells.append(f"{med[(c, 'adaptive')] / best:.2f} (best: {name})")
    print("| adaptive / best fixed | " + " | ".join(cells) + " |")

    print(f"\n### flushes: {MIX_NUM_NOTE} ({prefix}-mix, insert class)\n")
    cols = ["flushes", "flush MB", "compactions", "compaction read MB", "compaction written MB",
            "choices"]
    print("| component | " + " | ".join(cols) + " |")
    print("| --- |" + " --- |" * len(cols))
    for m in comps:
        rs = results.get(("insert", m))
        if not rs:
            continue

        def mm(name, scale=1.0):
            return median([r["metrics"].get(name, 0) / scale for r in rs])
        choices = ", ".join(f"{rs[0]['metrics'][k]:.0f} {k[len('adaptive_'):]}"
                            for k in rs[0]["metrics"] if k.startswith("adaptive_"))
        print(f"| {m} | {mm('flushes'):.0f} | {mm('flush_bytes', 1048576):.1f} | "
              f"{mm('compactions'):.0f} | {mm('compaction_bytes_read', 1048576):.1f} | "
              f"{mm('compaction_bytes_written', 1048576):.1f} | {choices} |")


MIX_NUM_NOTE = "distinct inserts, medians"


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
    mix_tables(prefix)


if __name__ == "__main__":
    main()
