#!/usr/bin/env python3
"""Plots the FloDB experiments written by bench/flodb_experiments.sh: one PNG per experiment
directory, and a Markdown table of the medians (summary.md) beside it.

    python3 bench/plot_flodb.py bench/results/<date>-flodb-*/

Each directory holds the run-<i>.json files of sluice_bench (in subdirectories, one per point).
The experiment is recognised from the benchmarks in them (writeonly + persist, burst,
readupdate_skewed, memcomponent, updatescan); the points from the JSON itself (threads,
disable_wal, the options each engine was given), not from directory names. Every bar or point
is the median of the repetitions, with the min..max range as an error bar.

matplotlib comes from PyPI: without it, the script creates a virtualenv at .venv-bench/ (at
the repository root, `python3 -m venv`), installs matplotlib there and re-runs itself with it.
`make test` does not need any of this.
"""
import glob
import json
import os
import statistics
import subprocess
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv-bench")
ENGINE_COLORS = {"sluice": "#1f77b4", "rocksdb": "#d62728", "leveldb": "#2ca02c"}
VARIANTS = [("nomembuffer", "no Membuffer"), ("simple", "Membuffer, simple inserts"),
            ("multiinsert", "Membuffer, multi-insert")]
TITLES = {
    "writeonly": "Write-only (50% inserts, 50% deletes), 128 MB memory component",
    "burst": "10-second write burst vs. memory component size",
    "skewed": "50% reads / 50% updates, 98% of operations on 2% of the keys",
    "memcomponent": "sluice's memory component alone (persisting disabled)",
    "updatescan": "95% updates / 5% scans of 100 keys",
}


def ensure_matplotlib():
    try:
        import matplotlib  # noqa: F401
        return
    except ImportError:
        pass
    python = os.path.join(VENV, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        subprocess.check_call([python, "-m", "pip", "install", "--quiet", "matplotlib"])
        return
    if not os.path.exists(python):
        print(f"creating {VENV} for matplotlib", file=sys.stderr)
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
    if subprocess.call([python, "-c", "import matplotlib"], stderr=subprocess.DEVNULL) != 0:
        subprocess.check_call([python, "-m", "pip", "install", "--quiet", "matplotlib"])
    # Re-runs the script that was started (which may have imported this function).
    os.execv(python, [python, os.path.abspath(sys.argv[0])] + sys.argv[1:])


def experiment_of(bench_name):
    return {"writeonly": "writeonly", "persist": "writeonly", "burst": "burst",
            "readupdate_skewed": "skewed", "memcomponent": "memcomponent",
            "updatescan": "updatescan"}.get(bench_name)


def variant_of(options):
    if options.get("flodb_use_membuffer") == "false":
        return "nomembuffer"
    return "multiinsert" if options.get("flodb_multi_insert") == "true" else "simple"


def load(directory):
    """Every measured benchmark of the directory's JSON files, as flat records."""
    records = []
    for path in sorted(glob.glob(os.path.join(directory, "**", "run-*.json"), recursive=True)):
        with open(path) as f:
            doc = json.load(f)
        w = doc["workload"]
        for engine in doc["engines"]:
            options = {o["name"]: o["value"] for o in engine["options"]}
            for b in engine.get("benchmarks", []):
                if b.get("skipped") or experiment_of(b["name"]) is None:
                    continue
                records.append({
                    "experiment": experiment_of(b["name"]), "bench": b["name"],
                    "engine": engine["engine"], "threads": w["threads"],
                    "wal": "off" if w["disable_wal"] else "on",
                    "memory": int(options["write_buffer_size"]),
                    "variant": variant_of(options), "ops": b["ops_per_sec"],
                    "membuffer_pct": b.get("metrics", {}).get("membuffer_pct"),
                })
    return records


def stats(values):
    return statistics.median(values), min(values), max(values)


def group(records, key):
    out = defaultdict(list)
    for r in records:
        out[key(r)].append(r)
    return out


def human_bytes(n):
    return f"{n >> 30} GB" if n >= 1 << 30 and n % (1 << 30) == 0 else f"{n >> 20} MB"


def fmt_rate(v):
    return f"{v / 1e6:.2f}M" if v >= 1e6 else f"{v / 1e3:.0f}K"


def finish_axes(fig, axes, ncol):
    """Rates on the y axes as 0.5M / 200K, from 0 to the highest value of all panels, and one
    legend under the panels."""
    from matplotlib.ticker import FuncFormatter
    top = max(ax.get_ylim()[1] for ax in axes)
    for ax in axes:
        ax.set_ylim(0, top * 1.08)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: fmt_rate(v) if v else "0"))
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=ncol, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.07, 1, 1))


def grouped_bars(ax, groups, series, values, colors=None, labels=None, annotate=None):
    """Bars for each group (x) and series; values(group, series) -> list of rates."""
    width = 0.8 / max(len(series), 1)
    for i, s in enumerate(series):
        xs, meds, lo, hi, notes = [], [], [], [], []
        for j, g in enumerate(groups):
            v = values(g, s)
            if not v:
                continue
            m, a, b = stats(v)
            xs.append(j + (i - (len(series) - 1) / 2) * width)
            meds.append(m)
            lo.append(m - a)
            hi.append(b - m)
            notes.append(annotate(g, s) if annotate else None)
        if not xs:
            continue
        ax.bar(xs, meds, width, yerr=[lo, hi], capsize=3, label=labels[s] if labels else s,
               color=(colors or {}).get(s))
        for x, m, note in zip(xs, meds, notes):
            if note:
                ax.annotate(note, (x, m), ha="center", va="bottom", fontsize=7,
                            xytext=(0, 3), textcoords="offset points")


def engines_in(records):
    order = ["sluice", "rocksdb", "leveldb"]
    present = {r["engine"] for r in records}
    return [e for e in order if e in present] + sorted(present - set(order))


def plot_by_threads(records, title, ylabel, path, ceiling=None):
    import matplotlib.pyplot as plt
    main = [r for r in records if r["bench"] != "persist"]
    engines = engines_in(main)
    threads = sorted({r["threads"] for r in main})
    wals = [w for w in ("on", "off") if any(r["wal"] == w for r in main)]
    by = group(main, lambda r: (r["engine"], r["threads"], r["wal"]))
    fig, axes = plt.subplots(1, len(wals), figsize=(5 * len(wals), 4), sharey=True, squeeze=False)
    for ax, wal in zip(axes[0], wals):
        grouped_bars(ax, threads, engines,
                     lambda t, e: [r["ops"] for r in by.get((e, t, wal), [])],
                     colors=ENGINE_COLORS,
                     annotate=lambda t, e: pct_note(by.get((e, t, wal), [])))
        if ceiling:
            ax.axhline(ceiling, color="black", linestyle="--", linewidth=1,
                       label=f"sluice persist ceiling ({fmt_rate(ceiling)}/s)")
        ax.set_xticks(range(len(threads)), [f"{t} thread{'s' if t > 1 else ''}" for t in threads])
        ax.set_title(f"WAL {wal}")
        ax.set_ylabel(ylabel)
    fig.suptitle(title + "\n(label on sluice's bars: share of writes completed in the Membuffer)",
                 fontsize=10)
    finish_axes(fig, list(axes[0]), ncol=len(engines) + (1 if ceiling else 0))
    fig.savefig(path, dpi=120)
    plt.close(fig)


def pct_note(rs):
    pcts = [r["membuffer_pct"] for r in rs if r["membuffer_pct"] is not None]
    return f"{statistics.median(pcts):.0f}%" if pcts else None


def plot_burst(records, path):
    import matplotlib.pyplot as plt
    engines = engines_in(records)
    sizes = sorted({r["memory"] for r in records})
    wals = [w for w in ("on", "off") if any(r["wal"] == w for r in records)]
    by = group(records, lambda r: (r["engine"], r["memory"], r["wal"]))
    fig, axes = plt.subplots(1, len(wals), figsize=(5 * len(wals), 4), sharey=True, squeeze=False)
    for ax, wal in zip(axes[0], wals):
        for e in engines:
            xs, meds, lo, hi = [], [], [], []
            for i, size in enumerate(sizes):
                v = [r["ops"] for r in by.get((e, size, wal), [])]
                if v:
                    m, a, b = stats(v)
                    xs.append(i)
                    meds.append(m)
                    lo.append(m - a)
                    hi.append(b - m)
            if xs:
                ax.errorbar(xs, meds, yerr=[lo, hi], marker="o", capsize=3, label=e,
                            color=ENGINE_COLORS.get(e))
        ax.set_xticks(range(len(sizes)), [human_bytes(s) for s in sizes])
        ax.set_xlabel("memory component (write_buffer_size)")
        ax.set_ylabel("writes/s")
        ax.set_title(f"WAL {wal}")
    fig.suptitle(TITLES["burst"] + f" ({records[0]['threads']} threads)", fontsize=10)
    finish_axes(fig, list(axes[0]), ncol=len(engines))
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_memcomponent(records, path):
    import matplotlib.pyplot as plt
    threads = sorted({r["threads"] for r in records})
    variants = [v for v, _ in VARIANTS if any(r["variant"] == v for r in records)]
    by = group(records, lambda r: (r["variant"], r["threads"]))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    grouped_bars(ax, threads, variants, lambda t, v: [r["ops"] for r in by.get((v, t), [])],
                 labels=dict(VARIANTS),
                 annotate=lambda t, v: pct_note(by.get((v, t), [])))
    ax.set_xticks(range(len(threads)), [f"{t} thread{'s' if t > 1 else ''}" for t in threads])
    ax.set_ylabel("writes/s")
    size = human_bytes(records[0]["memory"])
    ax.set_title(f"{TITLES['memcomponent']}, {size}\n(label: share of writes completed in the "
                 "Membuffer)", fontsize=10)
    finish_axes(fig, [ax], ncol=len(variants))
    fig.savefig(path, dpi=120)
    plt.close(fig)


def cell(values):
    if not values:
        return "-"
    m, a, b = stats(values)
    return f"{m:,.0f} ({a:,.0f}..{b:,.0f})"


def summary(experiment, records):
    """A Markdown table of the medians (for docs/benchmarks.md)."""
    lines = [f"### {TITLES[experiment]}", ""]
    if experiment == "memcomponent":
        lines += ["| variant | threads | writes/s (min..max) | % in Membuffer |",
                  "|---|---|---|---|"]
        by = group(records, lambda r: (r["variant"], r["threads"]))
        for v, label in VARIANTS:
            for t in sorted({r["threads"] for r in records}):
                rs = by.get((v, t), [])
                if rs:
                    note = pct_note(rs) or "-"
                    lines.append(f"| {label} | {t} | {cell([r['ops'] for r in rs])} | {note} |")
        return "\n".join(lines) + "\n"
    main = [r for r in records if r["bench"] != "persist"]
    engines = engines_in(main)
    column = "memory" if experiment == "burst" else "threads"
    unit = "keys accessed/s" if experiment == "updatescan" else "ops/s"
    lines += ["| " + column + " | WAL | " + " | ".join(f"{e} {unit}" for e in engines) +
              " | sluice % in Membuffer |", "|---|---|" + "---|" * (len(engines) + 1)]
    by = group(main, lambda r: (r[column], r["wal"], r["engine"]))
    for x in sorted({r[column] for r in main}):
        for wal in ("on", "off"):
            if not any((x, wal, e) in by for e in engines):
                continue
            label = human_bytes(x) if column == "memory" else str(x)
            row = [label, wal] + [cell([r["ops"] for r in by.get((x, wal, e), [])])
                                  for e in engines]
            row.append(pct_note(by.get((x, wal, "sluice"), [])) or "-")
            lines.append("| " + " | ".join(row) + " |")
    persist = [r["ops"] for r in records if r["bench"] == "persist"]
    if persist:
        lines += ["", f"Persist ceiling (sluice's flush code alone): {cell(persist)} entries/s."]
    return "\n".join(lines) + "\n"


def main(directories):
    if not directories:
        sys.exit(__doc__)
    ensure_matplotlib()
    import matplotlib
    matplotlib.use("Agg")
    for directory in directories:
        records = load(directory)
        if not records:
            print(f"{directory}: no results", file=sys.stderr)
            continue
        experiment = records[0]["experiment"]
        path = os.path.join(directory, f"{experiment}.png")
        if experiment == "writeonly":
            persist = [r["ops"] for r in records if r["bench"] == "persist"]
            plot_by_threads(records, TITLES[experiment], "operations/s", path,
                            ceiling=statistics.median(persist) if persist else None)
        elif experiment == "burst":
            plot_burst(records, path)
        elif experiment == "memcomponent":
            plot_memcomponent(records, path)
        else:
            ylabel = "keys accessed/s" if experiment == "updatescan" else "operations/s"
            plot_by_threads(records, TITLES[experiment], ylabel, path)
        with open(os.path.join(directory, "summary.md"), "w") as f:
            f.write(summary(experiment, records))
        print(f"{path}\n{os.path.join(directory, 'summary.md')}")


if __name__ == "__main__":
    main([d.rstrip("/") for d in sys.argv[1:]])
