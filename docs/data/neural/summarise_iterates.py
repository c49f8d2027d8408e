#!/usr/bin/env python3
"""Summarise docs/data/neural/iterates-*-small.csv (issue 27) as Markdown tables.

Cells: mean ± standard error over the splits whose status is `ok` (sample standard deviation
/ sqrt(n)); coverage_95 as a mean ± standard error too. Standard library only.

    python3 docs/data/neural/summarise_iterates.py [DIR]
    python3 docs/data/neural/summarise_iterates.py --fa-start [DIR]
    python3 docs/data/neural/summarise_iterates.py --large [DIR]

With --fa-start it reads docs/data/neural/iterates-*-small-fastart.csv too (the three SWA-FA
methods run with `--fa-start iterates`, same seed, so the same splits) and prints those methods
beside their thesis-start rows and SWAG, MultiSWAG, the ensemble and MAP, and paired test-NMLL
differences split by split. With --large it reads the 2 x 50 network's iterates-*-large.csv
and, from the same splits, table3-*.csv (VIFA and VIPPCA) and iterates-*-large-fastart.csv (the
SWA-FA methods from `--fa-start iterates`), and prints them side by side with paired
differences. Without either the output is what it always was.
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


def load(directory, suffix="", tag="", pattern="iterates-{d}-small{suffix}.csv"):
    rows = {}
    for d in DATASETS:
        path = os.path.join(directory, pattern.format(d=d, suffix=suffix))
        if not os.path.exists(path):
            continue
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                rows.setdefault((d, r["method"] + tag), []).append(r)
    return rows


def status_cell(rows, key):
    """'ok/n, seconds' of one (data set, method): the ok rows and the mean seconds per split."""
    rs = rows.get(key, [])
    if not rs:
        return "–"
    ok = sum(1 for r in rs if r["status"] == "ok")
    secs = sum(float(r["seconds"]) for r in rs) / len(rs)
    return f"{ok}/{len(rs)}, {secs:.1f} s"


def cell(rows, key, column, digits):
    ok = [r for r in rows.get(key, []) if r["status"] == "ok"]
    if not ok:
        return "–"
    m, se = mean_se([float(r[column]) for r in ok])
    return f"{m:.{digits}f} ± {se:.{digits}f}"


def table(rows, title, column, digits, methods=METHODS):
    print(f"**{title}**\n")
    print("| method | " + " | ".join(d.capitalize() for d in DATASETS) + " |")
    print("| --- |" + " --- |" * len(DATASETS))
    for meth in methods:
        print(f"| {meth} | " + " | ".join(cell(rows, (d, meth), column, digits)
                                          for d in DATASETS) + " |")
    print()


def paired(rows, a, b, d):
    """Mean ± SE of nmll(a) − nmll(b) over the splits where both rows are ok, and their count."""
    ra = {r["split"]: float(r["nmll"]) for r in rows.get((d, a), []) if r["status"] == "ok"}
    rb = {r["split"]: float(r["nmll"]) for r in rows.get((d, b), []) if r["status"] == "ok"}
    common = sorted(set(ra) & set(rb))
    if len(common) < 2:
        return None
    m, se = mean_se([ra[s] - rb[s] for s in common])
    return m, se, len(common)


def status_table(rows, title, methods):
    print(f"**{title}**\n")
    print("| method | " + " | ".join(d.capitalize() for d in DATASETS) + " |")
    print("| --- |" + " --- |" * len(DATASETS))
    for meth in methods:
        print(f"| {meth} | " + " | ".join(status_cell(rows, (d, meth)) for d in DATASETS) + " |")
    print()


def paired_table(rows, title, pairs):
    print(f"**{title}**\n")
    print("| pair | " + " | ".join(d.capitalize() for d in DATASETS) + " |")
    print("| --- |" + " --- |" * len(DATASETS))
    for a, b in pairs:
        cells = []
        for d in DATASETS:
            p = paired(rows, a, b, d)
            cells.append("–" if p is None else f"{p[0]:+.3f} ± {p[1]:.3f}".replace("-", "−"))
        print(f"| {a} − {b} | " + " | ".join(cells) + " |")


FA_THESIS = " (thesis)"
FA_ITERATES = " (iterates)"
FA_METHODS = ["map", "swag", "ensemble", "multiswag",
              "swa-fa-em" + FA_THESIS, "swa-fa-em" + FA_ITERATES,
              "swa-fa-sga" + FA_THESIS, "swa-fa-sga" + FA_ITERATES,
              "multi-swa-fa-em" + FA_THESIS, "multi-swa-fa-em" + FA_ITERATES]
FA_PAIRS = [("swa-fa-em" + FA_ITERATES, "swa-fa-em" + FA_THESIS),
            ("swa-fa-em" + FA_ITERATES, "swag"),
            ("multi-swa-fa-em" + FA_ITERATES, "multiswag"),
            ("multi-swa-fa-em" + FA_ITERATES, "ensemble"),
            ("swa-fa-sga" + FA_ITERATES, "swa-fa-em" + FA_ITERATES),
            ("swa-fa-sga" + FA_ITERATES, "swag")]


def main_fa_start(directory):
    """The SWA-FA methods from `--fa-start iterates` beside the thesis start and the others."""
    base = load(directory)
    rows = {}
    for (d, meth), rs in base.items():
        if meth in ("swa-fa-em", "swa-fa-sga", "multi-swa-fa-em"):
            rows[(d, meth + FA_THESIS)] = rs
        else:
            rows[(d, meth)] = rs
    rows.update(load(directory, "-fastart", FA_ITERATES))
    header = "| method | " + " | ".join(d.capitalize() for d in DATASETS) + " |"
    rule = "| --- |" + " --- |" * len(DATASETS)
    for title, column in [("Test NMLL (lower is better)", "nmll"),
                          ("Test RMSE (original units)", "rmse"),
                          ("95 % coverage (share of test targets inside the central 95 % "
                           "interval)", "coverage_95")]:
        print(f"**{title}; SWA-FA from the thesis's start and from the iterates' scale**\n")
        print(header)
        print(rule)
        for meth in FA_METHODS:
            print(f"| {meth} | " + " | ".join(cell(rows, (d, meth), column, 3)
                                              for d in DATASETS) + " |")
        print()
    status_table(rows, "ok / splits, and seconds per split (mean; search and refit of one"
                 " method)", [m for m in FA_METHODS if m.endswith(FA_ITERATES)])
    print("**Paired test-NMLL differences, first minus second (mean ± SE over the splits where"
          " both rows are ok, paired by split; n shown when fewer than 20; negative: the first"
          " is better)**\n")
    print("| pair | " + " | ".join(d.capitalize() for d in DATASETS) + " |")
    print(rule)
    for a, b in FA_PAIRS:
        cells = []
        for d in DATASETS:
            p = paired(rows, a, b, d)
            if p is None:
                cells.append("–")
                continue
            m, se, n = p
            text = f"{m:+.3f} ± {se:.3f}".replace("-", "−")
            cells.append(text if n >= 20 else f"{text} (n = {n})")
        print(f"| {a} − {b} | " + " | ".join(cells) + " |")
    print()
    bad = {}
    for (d, m), rs in sorted(rows.items()):
        for r in rs:
            if r["status"] != "ok" and m.endswith(FA_ITERATES):
                bad[(d, m, r["status"])] = bad.get((d, m, r["status"]), 0) + 1
    print("rows not ok (--fa-start iterates):",
          "; ".join(f"{d} {m}: {n} {st}" for (d, m, st), n in bad.items()) if bad else "none")


LARGE_METHODS = ["vippca-gauss", "vifa-gauss", "vippca-laplace", "vifa-laplace", "map",
                 "swa-fa-em", "swag", "ensemble", "multiswag", "swa-fa-em" + FA_ITERATES,
                 "swa-fa-sga" + FA_ITERATES, "multi-swa-fa-em" + FA_ITERATES]
LARGE_PAIRS = [("swa-fa-em", "swag"), ("swa-fa-em", "map"), ("swag", "map"),
               ("ensemble", "map"), ("multiswag", "ensemble"), ("swa-fa-em", "vippca-gauss"),
               ("ensemble", "vippca-gauss"), ("multiswag", "vippca-gauss"),
               ("swa-fa-em" + FA_ITERATES, "swa-fa-em"), ("swa-fa-sga" + FA_ITERATES, "swag"),
               ("swa-fa-em" + FA_ITERATES, "swag"),
               ("multi-swa-fa-em" + FA_ITERATES, "multiswag"),
               ("multi-swa-fa-em" + FA_ITERATES, "ensemble")]


def main_large(directory):
    """The 2 x 50 network: the SGD-iterate methods beside the report's Table 3 methods."""
    rows = load(directory, pattern="iterates-{d}-large{suffix}.csv")
    rows.update(load(directory, pattern="table3-{d}{suffix}.csv"))
    # The SWA-FA methods from --fa-start iterates (iterates-*-large-fastart.csv, same splits).
    rows.update(load(directory, "-fastart", FA_ITERATES, "iterates-{d}-large{suffix}.csv"))
    table(rows, "Test NMLL (lower is better), 2 × 50 network", "nmll", 3, LARGE_METHODS)
    table(rows, "Test RMSE (original units), 2 × 50 network", "rmse", 3, LARGE_METHODS)
    table(rows, "95 % coverage, 2 × 50 network", "coverage_95", 3, LARGE_METHODS)
    status_table(rows, "ok / splits, and seconds per split", LARGE_METHODS)
    paired_table(rows, "Paired test-NMLL differences, first minus second (mean ± SE over the"
                 " common ok splits; negative: the first is better)", LARGE_PAIRS)


def main():
    args = sys.argv[1:]
    if args and args[0] == "--large":
        main_large(args[1] if len(args) > 1 else os.path.dirname(os.path.abspath(__file__)))
        return
    if args and args[0] == "--fa-start":
        args = args[1:]
        main_fa_start(args[0] if args else os.path.dirname(os.path.abspath(__file__)))
        return
    directory = args[0] if args else os.path.dirname(os.path.abspath(__file__))
    rows = load(directory)
    table(rows, "Test NMLL (lower is better)", "nmll", 3)
    table(rows, "Test RMSE (original units)", "rmse", 3)
    table(rows, "95 % coverage (share of test targets inside the central 95 % interval)",
          "coverage_95", 3)
    status_table(rows, "ok / splits, and seconds per split (mean; search and refit of one"
                 " method)", METHODS)
    # Paired differences over the same splits (both rows ok).
    pairs = [("swa-fa-em", "swag"), ("multi-swa-fa-em", "multiswag"), ("swa-fa-em", "vifa-gauss"),
             ("swa-fa-em", "map"), ("swag", "map"), ("ensemble", "map"),
             ("multi-swa-fa-em", "ensemble"), ("multiswag", "ensemble")]
    paired_table(rows, "Paired test-NMLL differences, first minus second (mean ± SE over common"
                 " ok splits; negative: the first is better)", pairs)
    print()
    bad = [(d, m, r["split"], r["status"]) for (d, m), rs in sorted(rows.items())
           for r in rs if r["status"] != "ok"]
    print("rows not ok:", bad if bad else "none")


if __name__ == "__main__":
    main()
