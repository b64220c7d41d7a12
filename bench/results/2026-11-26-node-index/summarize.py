#!/usr/bin/env python3
"""Medians (and spreads) of the runs under writeonly/, fillrandom/ and bench/ of the directory given (default: this one),
before against after, as Markdown (the tables of docs/benchmarks.md's node-index section)."""
import glob
import os
import re
import statistics
import sys
from collections import defaultdict

HERE = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
LINE = re.compile(r"^(\w+)\s+:\s+[\d.]+ micros/op (\d+) ops/sec")


def parse(path):
    """{(engine, benchmark): [ops/s, ...]} of one output file."""
    out, engine = defaultdict(list), "sluice"
    for line in open(path):
        m = re.match(r"== engine: (\w+)", line)
        if m:
            engine = m.group(1)
        m = LINE.match(line)
        if m:
            out[(engine, m.group(1))].append(int(m.group(2)))
    return out


def fmt(values):
    return f"{statistics.median(values):,.0f} ({min(values):,}..{max(values):,})"


def table(kind, key_of):
    rows = defaultdict(lambda: defaultdict(list))  # row -> build -> values
    for path in sorted(glob.glob(os.path.join(HERE, kind, "*.txt"))):
        name = os.path.basename(path)[:-4]
        build, rest = name.split("-", 1)
        rest = re.sub(r"-r\d+$", "", rest)
        for (engine, bench), values in parse(path).items():
            for i, v in enumerate(values):
                rows[key_of(rest, engine, bench, i)][build].append(v)
    print(f"\n{kind}: row | before | after | after/before")
    for row in sorted(rows):
        b, a = rows[row]["before"], rows[row]["after"]
        if b and a:
            ratio = statistics.median(a) / statistics.median(b)
            print(f"| {row} | {fmt(b)} | {fmt(a)} | {ratio:.2f} |")


table("writeonly", lambda rest, engine, bench, i: f"{rest}")
table("fillrandom", lambda rest, engine, bench, i: f"{rest} {engine}")
# make bench's workload: readseq etc. appear once each
table("bench", lambda rest, engine, bench, i: f"{bench}")
