#!/usr/bin/env python3
"""Summarises repeated sluice_bench runs: the median ops/sec of every (engine, benchmark) over
the JSON files given (and over the rounds inside each, for runs with --repeats), and the ratio
of sluice to each other engine, as a Markdown table.

    python3 bench/summarize.py bench/results/<name>/run-*.json > bench/results/<name>/summary.md

Medians, not means: the machine is shared and noisy, and one disturbed run should not move the
figure. The spread (min..max) is shown next to each median. A ratio is taken within each round
(the engines ran back to back), and its median over the rounds is shown with its range.
"""
import json
import statistics
import sys
from collections import defaultdict


def load_runs(paths):
    """The runs' JSON documents, and the engines they hold in first-seen order; exits if none."""
    runs = [json.load(open(p)) for p in paths]
    if not runs:
        sys.exit("no JSON files given")
    engines = []
    for run in runs:
        for engine in run["engines"]:
            if engine["engine"] not in engines:
                engines.append(engine["engine"])
    return runs, engines


def main(paths):
    runs, engines = load_runs(paths)
    ops = defaultdict(list)  # (engine, benchmark) -> [ops/sec per run]
    by_round = defaultdict(dict)  # (run index, round, benchmark) -> {engine: ops/sec}
    benchmarks = []
    for index, run in enumerate(runs):
        for engine in run["engines"]:
            name = engine["engine"]
            round_key = (index, engine.get("round", 1))
            seen = defaultdict(int)  # a benchmark run twice in one list: "name #2"
            for b in engine.get("benchmarks", []):
                seen[b["name"]] += 1
                label = b["name"] if seen[b["name"]] == 1 else f"{b['name']} #{seen[b['name']]}"
                if b.get("skipped"):
                    continue
                if label not in benchmarks:
                    benchmarks.append(label)
                ops[(name, label)].append(b["ops_per_sec"])
                by_round[round_key + (label,)][name] = b["ops_per_sec"]

    w = runs[0]["workload"]
    rounds = sum(run.get("repeats", 1) for run in runs)
    cpu = runs[0].get("machine", {}).get("cpu_model", "unknown CPU")
    versions = []
    for e in runs[0]["engines"]:
        if e["version"] not in versions:
            versions.append(e["version"])
    print(f"{rounds} rounds; CPU: {cpu}; {'; '.join(versions)}")
    print(f"num={w['num']} threads={w['threads']} key_size={w['key_size']} "
          f"value_size={w['value_size']} sync={w['sync']} disable_wal={w['disable_wal']}")
    print(f"command: `{' '.join(runs[0]['command_line'])}`\n")
    header = "| benchmark | " + " | ".join(f"{e} ops/s (min..max)" for e in engines)
    others = [e for e in engines if e != "sluice"]
    if "sluice" in engines and others:
        header += " | " + " | ".join(f"sluice / {e}" for e in others)
    print(header + " |")
    print("|" + "---|" * (1 + len(engines) + (len(others) if "sluice" in engines else 0)))
    for b in benchmarks:
        row = [b]
        med = {}
        for e in engines:
            v = ops.get((e, b))
            if not v:
                row.append("-")
                continue
            med[e] = statistics.median(v)
            row.append(f"{med[e]:,.0f} ({min(v):,.0f}..{max(v):,.0f})")
        if "sluice" in engines:
            for e in others:
                # (0 ops/s: a step that did nothing)
                ratios = [r["sluice"] / r[e] for (_, _, label), r in by_round.items()
                          if label == b and "sluice" in r and r.get(e, 0) > 0]
                if ratios:
                    row.append(f"{statistics.median(ratios):.2f}x "
                               f"({min(ratios):.2f}..{max(ratios):.2f})")
                else:
                    row.append("-")
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
