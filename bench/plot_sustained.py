#!/usr/bin/env python3
"""Plots the sustained-fill experiment of bench/scale_experiments.sh: throughput over time per
engine (sustained.png) and a Markdown table (sustained.md), both written into the directory.

    python3 bench/plot_sustained.py bench/results/<date>-scale-sustained/seconds600

The directory holds the run-<i>.json files of sluice_bench runs of one timed fillrandom with
--stats_interval_seconds. Per engine the table gives the average throughput (the benchmark's
ops/sec), the lowest and highest interval, the lowest interval against RocksDB's average, the
write amplification and the directory's size after close (sluice_bench's "disk" record), and
the write amplification at equal data: each engine's flush and compaction bytes over its keys
and values at the first interval by which it had written as much as RocksDB wrote in the whole
run (leveled amplification grows with the data, and a faster engine writes more in the same
time); medians over the runs. matplotlib as in plot_flodb.py (a virtualenv at .venv-bench/ if it is
missing).
"""
import glob
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_flodb import ENGINE_COLORS, ensure_matplotlib  # noqa: E402


def load(directory):
    """engine -> list of (fillrandom result, disk record), one per run."""
    runs = {}
    for path in sorted(glob.glob(os.path.join(directory, "run-*.json"))):
        with open(path) as f:
            doc = json.load(f)
        for engine in doc["engines"]:
            bench = next((b for b in engine["benchmarks"] if b["name"] == "fillrandom"), None)
            if bench is None or bench.get("skipped"):
                continue
            runs.setdefault(engine["engine"], []).append((bench, engine.get("disk", {})))
    return runs


def amplification_at(bench, user_bytes):
    """Flush and compaction bytes over user bytes at the first interval that reached
    user_bytes, or None (not reached, or not reported)."""
    for p in bench.get("intervals", []):
        if p.get("user_bytes", 0) >= user_bytes and "background_bytes" in p:
            return p["background_bytes"] / p["user_bytes"]
    return None


def table(runs):
    rocks_avg = None
    rocks_data = None
    if "rocksdb" in runs:
        rocks_avg = statistics.median(b["ops_per_sec"] for b, _ in runs["rocksdb"])
        written = [d["user_bytes_written"] for _, d in runs["rocksdb"] if "user_bytes_written" in d]
        rocks_data = statistics.median(written) if written else None
    lines = ["| engine | average ops/s | lowest 10-s point | highest | lowest / RocksDB average "
             "| write amplification | at RocksDB's data | directory after close | runs |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for engine, results in runs.items():
        avg = statistics.median(b["ops_per_sec"] for b, _ in results)
        lows = [min(p["ops_per_sec"] for p in b["intervals"]) for b, _ in results if b.get("intervals")]
        highs = [max(p["ops_per_sec"] for p in b["intervals"]) for b, _ in results if b.get("intervals")]
        low = statistics.median(lows) if lows else float("nan")
        high = statistics.median(highs) if highs else float("nan")
        was = [d["write_amplification"] for _, d in results if "write_amplification" in d]
        sizes = [d["bytes_after_close"] for _, d in results if "bytes_after_close" in d]
        vs = f"{low / rocks_avg:.2f}" if rocks_avg else "n/a"
        wa = f"{statistics.median(was):.2f}" if was else "n/a"
        size = f"{statistics.median(sizes) / 2**30:.2f} GiB" if sizes else "n/a"
        at_data = "n/a"
        if rocks_data:
            # RocksDB's own: its last interval (sampled the same way as the others').
            found = []
            for b, _ in results:
                points = [p for p in b.get("intervals", []) if "background_bytes" in p]
                if engine == "rocksdb" and points:
                    found.append(points[-1]["background_bytes"] / points[-1]["user_bytes"])
                elif engine != "rocksdb":
                    a = amplification_at(b, rocks_data)
                    if a is not None:
                        found.append(a)
            if found:
                at_data = f"{statistics.median(found):.2f}"
        lines.append(f"| {engine} | {avg:,.0f} | {low:,.0f} | {high:,.0f} | {vs} | {wa} "
                     f"| {at_data} | {size} | {len(results)} |")
    return "\n".join(lines) + "\n"


def plot(runs, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(9, 4.5))
    for engine, results in runs.items():
        for i, (bench, _) in enumerate(results):
            points = bench.get("intervals", [])
            ax.plot([p["end_seconds"] for p in points], [p["ops_per_sec"] / 1000 for p in points],
                    color=ENGINE_COLORS.get(engine, "black"), linewidth=1.2,
                    label=engine if i == 0 else None)
    ax.set_xlabel("seconds since the fill started")
    ax.set_ylabel("thousand writes per second (10-s intervals)")
    ax.set_title("Sustained fillrandom, default Options")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(directories):
    if not directories:
        sys.exit(__doc__)
    ensure_matplotlib()
    for directory in directories:
        runs = load(directory)
        if not runs:
            sys.exit(f"{directory}: no fillrandom results")
        md = table(runs)
        with open(os.path.join(directory, "sustained.md"), "w") as f:
            f.write(md)
        plot(runs, os.path.join(directory, "sustained.png"))
        print(md)


if __name__ == "__main__":
    main(sys.argv[1:])
