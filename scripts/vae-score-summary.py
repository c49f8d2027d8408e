#!/usr/bin/env python3
"""Markdown tables from the CSVs of scripts/vae-score-results.sh (python3 standard library only).

    scripts/vae-score-summary.py [FOLDER]        FOLDER defaults to docs/data/nonlinear

1. The encoder's gradient: for each run moons-ESTIMATOR-sS.csv, the VAE's held-out ELBO at each
   checkpoint epoch (the learning curves side by side), mean ± standard error over the trials.
2. At the last epoch: test ELBO, test IW log-likelihood, amortisation gap and train ELBO per run; the differences from the reparameterised run with the same S, paired by trial.
3. The encoder-gradient study (moons-*-grad.csv): per run and checkpoint, the mean over trials of
   each estimator's variance (the trace of the covariance of the estimates) and its ratio to the
   reparameterised one's.
4. The heteroscedastic decoder: (moons|boston|boston-continuous)-noise-(diagonal|network).csv, per
   method at the last epoch, and network minus diagonal paired by trial.
"""
import csv
import math
import os
import sys
from collections import defaultdict

RUNS = ["moons-reparam-s1", "moons-reparam-s2", "moons-score-s2", "moons-score-baseline-s2"]


def rows_of(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def mean_se(values):
    values = [v for v in values if v is not None and math.isfinite(v)]
    if not values:
        return "—"
    m = sum(values) / len(values)
    if len(values) < 2:
        return f"{m:.3f}"
    se = math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1) / len(values))
    return f"{m:.3f} ± {se:.3f}"


def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def by_trial(rows, method, column, epoch=None):
    """{trial: value} of the method's row at `epoch` (None: each trial's last row)."""
    out = {}
    for r in rows:
        if r["method"] != method:
            continue
        if epoch is None or int(r["epoch"]) == epoch:
            out[int(r["trial"])] = num(r[column])
    return out


def curves(folder):
    runs = [r for r in RUNS if os.path.exists(os.path.join(folder, r + ".csv"))]
    data = {r: rows_of(os.path.join(folder, r + ".csv")) for r in runs}
    epochs = sorted({int(x["epoch"]) for r in runs for x in data[r] if x["method"] == "vae"})
    print("### Held-out ELBO per row by epoch (VAE, mean ± s.e. over trials)\n")
    print("| epoch | " + " | ".join(runs) + " |")
    print("| ---: |" + " ---: |" * len(runs))
    for e in epochs:
        cells = [mean_se(by_trial(data[r], "vae", "test_elbo_per_row", e).values()) for r in runs]
        print(f"| {e} | " + " | ".join(cells) + " |")
    print()
    print("### Last epoch\n")
    cols = [("test_elbo_per_row", "test ELBO"), ("test_iw_loglik_per_row", "test IW log-lik"),
            ("amortization_gap", "amortisation gap"), ("train_elbo_per_row", "train ELBO")]
    print("| run | " + " | ".join(c[1] for c in cols) + " | Δ test ELBO vs reparam (same S) |")
    print("| --- |" + " ---: |" * (len(cols) + 1))
    for r in runs:
        cells = [mean_se(by_trial(data[r], "vae", c).values()) for c, _ in cols]
        ref = "moons-reparam-s2" if r.endswith("-s2") else "moons-reparam-s1"
        delta = "—"
        if ref != r and ref in data:
            a = by_trial(data[r], "vae", "test_elbo_per_row")
            b = by_trial(data[ref], "vae", "test_elbo_per_row")
            delta = mean_se([a[t] - b[t] for t in a if t in b])
        print(f"| {r} | " + " | ".join(cells) + f" | {delta} |")
    ppca = [by_trial(data[r], "ppca", "test_elbo_per_row") for r in runs[:1]]
    if ppca:
        print(f"\nPPCA held-out log-likelihood: {mean_se(ppca[0].values())}\n")


def study(folder):
    print("### Encoder-gradient variance (trace of the covariance; mean over trials)\n")
    print("| trained with | S | epoch | reparam | score | score-baseline | score / reparam |"
          " baseline / reparam |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in RUNS:
        path = os.path.join(folder, r + "-grad.csv")
        if not os.path.exists(path):
            continue
        cell = defaultdict(list)
        trained, samples = "", ""
        for x in rows_of(path):
            cell[(int(x["epoch"]), x["estimator"])].append(float(x["variance"]))
            trained, samples = x["trained_with"], x["samples"]
        for e in sorted({k[0] for k in cell}):
            v = {est: sum(cell[(e, est)]) / len(cell[(e, est)])
                 for est in ("reparam", "score", "score-baseline") if cell[(e, est)]}
            f = lambda k: f"{v[k]:.3g}" if k in v else "—"
            ratio = lambda k: f"{v[k] / v['reparam']:.1f}" if k in v else "—"
            print(f"| {trained} | {samples} | {e} | {f('reparam')} | {f('score')} | "
                  f"{f('score-baseline')} | {ratio('score')} | {ratio('score-baseline')} |")
    print()


def noise(folder):
    print("### Heteroscedastic decoder: last epoch, mean ± s.e. over trials\n")
    print("| data | method | noise | test IW log-lik | test ELBO | train ELBO | "
          "Δ IW log-lik (network − diagonal) |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    for data in ("moons", "boston", "boston-continuous"):
        paths = {n: os.path.join(folder, f"{data}-noise-{n}.csv") for n in ("diagonal", "network")}
        if not all(os.path.exists(p) for p in paths.values()):
            continue
        rows = {n: rows_of(p) for n, p in paths.items()}
        for method in ("vem", "vae"):
            for n in ("diagonal", "network"):
                iw = by_trial(rows[n], method, "test_iw_loglik_per_row")
                delta = "—"
                if n == "network":
                    base = by_trial(rows["diagonal"], method, "test_iw_loglik_per_row")
                    delta = mean_se([iw[t] - base[t] for t in iw if t in base])
                print(f"| {data} | {method} | {n} | {mean_se(iw.values())} | "
                      f"{mean_se(by_trial(rows[n], method, 'test_elbo_per_row').values())} | "
                      f"{mean_se(by_trial(rows[n], method, 'train_elbo_per_row').values())} | "
                      f"{delta} |")
    print()


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "docs", "data", "nonlinear")
    curves(folder)
    study(folder)
    noise(folder)


if __name__ == "__main__":
    main()
