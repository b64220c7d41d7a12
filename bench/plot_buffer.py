#!/usr/bin/env python3
"""Plots the memory-buffer experiments written by bench/buffer_experiments.sh: one PNG per
experiment directory (PREFIX-<experiment>/plot.png), bars and points being medians over the
repetitions (the tables are bench/buffer_report.py's).

    python3 bench/plot_buffer.py bench/results/<date>-buffer

footprint: bytes per entry and entries that fit in the budget, per component and over the X and
H sweeps; insert: P50/P99/P99.9 insert latency; point: P50 point-read latency per component and
over H; range: P50 scan latency per selectivity; mix: microseconds per operation for each
workload class and component, and the insert class's flushes (experiments 5 and 6).
matplotlib comes from .venv-bench/ as for bench/plot_flodb.py (ensure_matplotlib).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from buffer_report import MIX_CLASSES, MIX_COMPONENTS, median, mix_runs, runs  # noqa: E402
from plot_flodb import ensure_matplotlib  # noqa: E402

DEFAULTS = ["vector", "vector-prealloc", "skiplist", "hash-skiplist", "hash-linklist", "flodb"]


def medians(base, points, get):
    return [median([get(r) for r in runs(os.path.join(base, p))]) for p in points]


def bars(ax, labels, series, ylabel, log=False):
    """series: [(name, values)] drawn as grouped bars over labels."""
    width = 0.8 / len(series)
    for i, (name, values) in enumerate(series):
        xs = [x + (i - (len(series) - 1) / 2) * width for x in range(len(labels))]
        ax.bar(xs, values, width, label=name)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=30, ha="right")
    ax.set_ylabel(ylabel)
    if log:
        ax.set_yscale("log")
    if len(series) > 1:
        ax.legend(fontsize=8)


def present(base, points):
    return [p for p in points if os.path.isdir(os.path.join(base, p))]


def plot_footprint(plt, base):
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    comps = present(base, DEFAULTS)
    bars(axes[0], comps, [("bytes per entry", medians(base, comps,
                                                      lambda r: r["metrics"]["bytes_per_entry"]))],
         "bytes per 64-byte entry (1.5M entries)")
    for kind in ["hash-skiplist", "hash-linklist"]:
        xs = present(base, [f"{kind}-X{x}-H100000" for x in (2, 4, 6, 8, 10)])
        axes[1].plot([int(p.split("-X")[1].split("-")[0]) for p in xs],
                     medians(base, xs, lambda r: r["metrics"]["entries_within_budget"]),
                     marker="o", label=kind)
        hs = present(base, [f"{kind}-X6-H{h}" for h in (10, 100, 1000, 10000, 100000)])
        axes[2].plot([int(p.split("-H")[1]) for p in hs],
                     medians(base, hs, lambda r: r["metrics"]["entries_within_budget"]),
                     marker="o", label=kind)
    axes[1].set_xlabel("prefix length X (H = 100K)")
    axes[2].set_xlabel("buckets H (X = 6)")
    axes[2].set_xscale("log")
    for ax in axes[1:]:
        ax.set_ylabel("entries that fit in 16 MB")
        ax.legend(fontsize=8)
    fig.suptitle("Experiment 1: memory footprint")
    return fig


def plot_latency(plt, base, title, what):
    fig, ax = plt.subplots(figsize=(9, 4.5))
    comps = present(base, DEFAULTS)
    series = [(q, medians(base, comps, lambda r, q=q: r["latency_us"][q]))
              for q in ("p50", "p99", "p99_9")]
    bars(ax, comps, series, f"{what} latency (us, log scale)", log=True)
    fig.suptitle(title)
    return fig


def plot_point(plt, base):
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
    comps = present(base, DEFAULTS)
    bars(axes[0], comps, [("P50", medians(base, comps, lambda r: r["latency_us"]["p50"]))],
         "point-read P50 (us, log scale)", log=True)
    hs = present(base, [f"hash-skiplist-X6-H{h}" for h in (10, 100, 1000, 10000, 100000)])
    axes[1].plot([int(p.split("-H")[1]) for p in hs],
                 medians(base, hs, lambda r: r["latency_us"]["p50"]), marker="o")
    axes[1].set_xscale("log")
    axes[1].set_xlabel("buckets H (hash-skiplist, X = 6)")
    axes[1].set_ylabel("point-read P50 (us)")
    fig.suptitle("Experiment 3: 200 point reads after 75% of 140K inserts")
    return fig


def plot_range(plt, base):
    fig, ax = plt.subplots(figsize=(9, 4.5))
    comps = [c for c in DEFAULTS if os.path.isdir(os.path.join(base, f"{c}-s0.02"))]
    series = []
    for s in ("0.0001", "0.02", "0.4"):
        pts = [f"{c}-s{s}" for c in comps]
        series.append((f"selectivity {s}", medians(base, pts, lambda r: r["latency_us"]["p50"])))
    bars(ax, comps, series, "scan P50 (us, log scale)", log=True)
    fig.suptitle("Experiment 4: 200 range scans after 75% of 140K inserts")
    return fig


def plot_mix(plt, prefix):
    results = mix_runs(prefix)
    classes = [c for c in MIX_CLASSES if any(k[0] == c for k in results)]
    comps = [m for m in MIX_COMPONENTS if any(k[1] == m for k in results)]
    fig, axes = plt.subplots(1, 2, figsize=(15, 4.8), gridspec_kw={"width_ratios": [3, 1]})
    series = [(m, [median([r["micros_per_op"] for r in results.get((c, m), [])])
                   for c in classes]) for m in comps]
    bars(axes[0], classes, series, "microseconds per operation (log scale)", log=True)
    ins = [m for m in comps if ("insert", m) in results]
    bars(axes[1], ins, [("flushes", [median([r["metrics"].get("flushes", 0)
                                             for r in results[("insert", m)]]) for m in ins])],
         "flushes for the insert-only class")
    fig.suptitle("Experiments 5 and 6: workload classes through the database "
                 "(0.1% queries; point_heavy: 4 reads per insert)")
    return fig


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    ensure_matplotlib()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    prefix = sys.argv[1].rstrip("/")
    makers = {
        "footprint": lambda b: plot_footprint(plt, b),
        "insert": lambda b: plot_latency(plt, b, "Experiment 2: 140K inserts", "insert"),
        "point": lambda b: plot_point(plt, b),
        "range": lambda b: plot_range(plt, b),
        "mix": lambda b: plot_mix(plt, prefix),
    }
    for experiment, make in makers.items():
        base = f"{prefix}-{experiment}"
        if not os.path.isdir(base):
            continue
        fig = make(base)
        fig.tight_layout()
        out = os.path.join(base, "plot.png")
        fig.savefig(out, dpi=110)
        plt.close(fig)
        print(out)


if __name__ == "__main__":
    main()
