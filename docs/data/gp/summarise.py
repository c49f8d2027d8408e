#!/usr/bin/env python3
"""Prints docs/results.md's Gaussian-process tables: mean ± standard error over trials of the
test NMLL and RMSE per kernel and data set (docs/data/gp/D.csv), beside the network methods of
docs/data/neural/iterates-D-small.csv on the same splits (split t < trials is gp's trial t)."""
import csv
import math
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sets = ["boston", "concrete", "energy", "yacht"]
kernels = ["se", "linear", "nn-erf", "nn-relu"]
network = ["vifa-gauss", "map", "swag", "ensemble", "multiswag"]


def mean_se(values):
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return m, float("nan")
    return m, math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1) / n)


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def table(column):
    print(f"| method | {' | '.join(s.capitalize() for s in sets)} |")
    print("| --- |" + " --- |" * len(sets))
    gp = {s: rows(os.path.join(here, f"{s}.csv")) for s in sets}
    trials = {s: {int(r["trial"]) for r in gp[s]} for s in sets}
    for k in kernels:
        cells = []
        for s in sets:
            v = [float(r[column]) for r in gp[s] if r["kernel"] == k and r["status"] == "ok"]
            cells.append("%.3f ± %.3f" % mean_se(v))
        print(f"| GP {k} | {' | '.join(cells)} |")
    for m in network:
        cells = []
        for s in sets:
            path = os.path.join(here, "..", "neural", f"iterates-{s}-small.csv")
            v = [float(r[column]) for r in rows(path)
                 if r["method"] == m and int(r["split"]) in trials[s]]
            cells.append("%.3f ± %.3f" % mean_se(v))
        print(f"| {m} (1 × 50) | {' | '.join(cells)} |")


for name, column in (("Test NMLL", "nmll"), ("Test RMSE", "rmse")):
    print(f"**{name}**\n")
    table(column)
    print()
sys.exit(0)
