#!/usr/bin/env python3
"""bench/summarize_instances.py costs|budget OUT_DIR — the tables of bench/instance_experiments.sh.

Reads OUT_DIR/runs.jsonl (one JSON object per measurement, with its "config") and
OUT_DIR/header.txt, writes OUT_DIR/summary.md and prints it.
  costs:  median RSS and threads added per configuration and size (N DBs, or N families).
  budget: median write rate (with its range), component bytes, samples over the cap and peak
          RSS per engine and budget.
"""
import json
import statistics
import sys


def costs_table(runs):
    groups = {}
    for r in runs:
        what = f"{r['families']} families" if r["families"] > 1 else f"{r['dbs']} DBs"
        groups.setdefault((what, r["config"]), []).append(r)
    whats = sorted({k[0] for k in groups},
                   key=lambda w: (w.endswith("families"), int(w.split()[0])))
    configs = ["sluice-flodb", "sluice-skiplist", "rocksdb", "leveldb"]
    lines = ["Median of the rounds: RSS added (MiB) / threads added, after writing "
             f"{runs[0]['keys']} keys of {runs[0]['value_size']} bytes into each database or "
             "family.", "",
             "| | " + " | ".join(whats) + " |", "|---|" + "---|" * len(whats)]
    for c in configs:
        cells = []
        for w in whats:
            g = groups.get((w, c))
            if not g:
                cells.append("n/a")
                continue
            rss = statistics.median(r["rss_added_kib"] for r in g) / 1024
            thr = statistics.median(r["threads_after"] - r["threads_before"] for r in g)
            tot = statistics.median(r["threads_after"] for r in g)
            cells.append(f"+{rss:.1f} MiB, +{thr:.0f} threads ({tot:.0f} in all)")
        lines.append(f"| {c} | " + " | ".join(cells) + " |")
    return lines


def budget_table(runs):
    groups = {}
    for r in runs:
        groups.setdefault(r["config"], []).append(r)

    def mib(b):
        return f"{b / 2**20:.1f}" if b >= 0 else "n/a"

    lines = ["Medians of the rounds (min..max of the write rate).", "",
             "| engine, budget | writes/s | peak component bytes (MiB) | mean (MiB) | "
             "samples over the cap | peak RSS (MiB) |", "|---|---|---|---|---|---|"]
    for config, g in groups.items():
        rate = [r["ops_per_sec"] for r in g]

        def med(k):
            return statistics.median(r[k] for r in g)

        cap = g[0]["budget_bytes"]
        name = config.replace("-budget0", ", none").replace("-budget", ", ")
        name += " MiB" if cap else ""
        lines.append(f"| {name} | {statistics.median(rate):,.0f} "
                     f"({min(rate):,.0f}..{max(rate):,.0f}) | "
                     f"{mib(med('peak_bytes'))} | {mib(med('mean_bytes'))} | "
                     f"{med('samples_over_cap'):.0f} of {med('samples'):.0f} | "
                     f"{med('vm_hwm_kib') / 1024:.0f} |")
    return lines


def main():
    tables = {"costs": costs_table, "budget": budget_table}
    if len(sys.argv) != 3 or sys.argv[1] not in tables:
        sys.exit("usage: summarize_instances.py costs|budget OUT_DIR")
    out = sys.argv[2]
    try:
        with open(f"{out}/runs.jsonl") as f:
            runs = [json.loads(line) for line in f if line.strip()]
        with open(f"{out}/header.txt") as f:
            header = f.read().strip()
    except (OSError, json.JSONDecodeError) as e:
        sys.exit(f"summarize_instances.py: cannot read {out}: {e}")
    if not runs:
        sys.exit(f"summarize_instances.py: {out}/runs.jsonl holds no runs")
    lines = [header, ""] + tables[sys.argv[1]](runs)
    with open(f"{out}/summary.md", "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
