#!/usr/bin/env python3
"""bench/summarize_writes.py OUT_DIR — medians of bench/flodb_writes.sh's runs.

For every build label and point: each engine's median ops/s over the rounds, the spread, and
the sluice / RocksDB ratio (median of the per-run ratios, each from one invocation). Prints a
Markdown table.
"""

import pathlib
import re
import statistics
import sys
from collections import defaultdict

LINE = re.compile(r"^(\w+)\s+:\s+[\d.]+ micros/op (\d+) ops/sec")
ENGINE = re.compile(r"^== engine: (\w+)")


def parse(path):
    """{engine: ops/s} of one run's text output."""
    result, engine = {}, None
    for line in path.read_text().splitlines():
        m = ENGINE.match(line)
        if m:
            engine = m.group(1)
            continue
        m = LINE.match(line)
        if m and engine is not None:
            result[engine] = int(m.group(2))
    return result


def main():
    out = pathlib.Path(sys.argv[1])
    rows = defaultdict(list)  # (label, point) -> [{engine: ops}]
    for label_dir in sorted(p for p in out.iterdir() if p.is_dir()):
        for run in sorted(label_dir.glob("*.txt")):
            point = run.stem.rsplit("-", 1)[0]
            rows[(label_dir.name, point)].append(parse(run))
    print("| build | point | sluice ops/s (min..max) | rocksdb ops/s | sluice / rocksdb |")
    print("|---|---|---|---|---|")
    for (label, point), runs in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        sl = [r["sluice"] for r in runs if "sluice" in r]
        rk = [r["rocksdb"] for r in runs if "rocksdb" in r]
        ratios = [r["sluice"] / r["rocksdb"] for r in runs if "sluice" in r and "rocksdb" in r]
        def fmt(v):
            return f"{statistics.median(v):,.0f} ({min(v):,}..{max(v):,})" if v else "-"
        ratio = f"{statistics.median(ratios):.2f}" if ratios else "-"
        print(f"| {label} | {point} | {fmt(sl)} | {fmt(rk)} | {ratio} |")


if __name__ == "__main__":
    main()
