#!/usr/bin/env python3
"""Summarise docs/data/neural/iterates-*-small.csv (issue 27) as Markdown tables.

Cells: mean ± standard error over the splits whose status is `ok` (sample standard deviation
/ sqrt(n)); coverage_95 as a mean ± standard error too. Standard library only.

    python3 docs/data/neural/summarise_iterates.py [DIR]
"""
import csv
import math
import os
import sys

DATASETS = ["boston", "concrete", "energy", "yacht"]
METHODS = ["vifa-gauss", "vifa-laplace", "map", "swa-fa-em", "swa-fa-sga", "swag",
           "ensemble", "multiswag", "multi-swa-fa-em"]


def mean_se(xs):
    n = len(xs)
    if n == 0:
        return float("nan"), float("nan")
    m = sum(xs) / n
    if n == 1:
        return m, float("nan")
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


def load(directory):
    rows = {}
    for d in DATASETS:
        path = os.path.join(directory, f"iterates-{d}-small.csv")
        if not os.path.exists(path):
            continue
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                rows.setdefault((d, r["method"]), []).append(r)
    return rows


def cell(rows, key, column, digits):
    ok = [r for r in rows.get(key, []) if r["status"] == "ok"]
    if not ok:
        return "–"
    m, se = mean_se([float(r[column]) for r in ok])
    return f"{m:.{digits}f} ± {se:.{digits}f}"


def table(rows, title, column, digits):
    print(f"**{title}**\n")
    print("| method | " + " | ".join(d.capitalize() for d in DATASETS) + " |")
    print("| --- |" + " --- |" * len(DATASETS))
    for meth in METHODS:
        print(f"| {meth} | " + " | ".join(cell(rows, (d, meth), column, digits)
                                          for d in DATASETS) + " |")
    print()


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    rows = load(directory)
    table(rows, "Test NMLL (lower is better)", "nmll", 3)
    table(rows, "Test RMSE (original units)", "rmse", 3)
    table(rows, "95 % coverage (share of test targets inside the central 95 % interval)",
          "coverage_95", 3)
    # Status counts and fit times.
    print("**ok / splits, and seconds per split (mean; search and refit of one method)**\n")
    print("| method | " + " | ".join(d.capitalize() for d in DATASETS) + " |")
    print("| --- |" + " --- |" * len(DATASETS))
    for meth in METHODS:
        cells = []
        for d in DATASETS:
            rs = rows.get((d, meth), [])
            if not rs:
                cells.append("–")
                continue
            ok = sum(1 for r in rs if r["status"] == "ok")
            secs = sum(float(r["seconds"]) for r in rs) / len(rs)
            cells.append(f"{ok}/{len(rs)}, {secs:.1f} s")
        print(f"| {meth} | " + " | ".join(cells) + " |")
    print()
    # Paired differences over the same splits (both rows ok).
    pairs = [("swa-fa-em", "swag"), ("multi-swa-fa-em", "multiswag"), ("swa-fa-em", "vifa-gauss"),
             ("swa-fa-em", "map"), ("swag", "map"), ("ensemble", "map"),
             ("multi-swa-fa-em", "ensemble"), ("multiswag", "ensemble")]
    print("**Paired test-NMLL differences, first minus second (mean ± SE over common ok splits;"
          " negative: the first is better)**\n")
    print("| pair | " + " | ".join(d.capitalize() for d in DATASETS) + " |")
    print("| --- |" + " --- |" * len(DATASETS))
    for a, b in pairs:
        cells = []
        for d in DATASETS:
            ra = {r["split"]: float(r["nmll"]) for r in rows.get((d, a), []) if r["status"] == "ok"}
            rb = {r["split"]: float(r["nmll"]) for r in rows.get((d, b), []) if r["status"] == "ok"}
            common = sorted(set(ra) & set(rb))
            if len(common) < 2:
                cells.append("–")
                continue
            m, se = mean_se([ra[s] - rb[s] for s in common])
            cells.append(f"{m:+.3f} ± {se:.3f}".replace("-", "−"))
        print(f"| {a} − {b} | " + " | ".join(cells) + " |")
    print()
    bad = [(d, m, r["split"], r["status"]) for (d, m), rs in sorted(rows.items())
           for r in rs if r["status"] != "ok"]
    print("rows not ok:", bad if bad else "none")


if __name__ == "__main__":
    main()
