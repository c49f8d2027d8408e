#!/usr/bin/env python3
"""Markdown tables from the CSVs of scripts/vae-results.sh (python3 standard library only).

    scripts/vae-summary.py [FOLDER]        FOLDER defaults to /tmp/vae-results

Each CSV is one `faexplorer-cli vae` run. A run NAME-fa.csv is the FA baseline of run NAME.csv
(the linear VAE with diagonal noise, shown as "FA (linear VAE, diagonal Psi)"); the two form one
group, compared trial by trial (same seed and trial index give the same data split).

Per group and method, at the last checkpoint of each trial (the last row of that trial and
method, as in the CLI summary): mean ± standard error over trials of the test importance-weighted
log-likelihood, the test ELBO, the amortisation and approximation gaps, the train ELBO and the
fitting seconds. Then, per group holding PPCA, each method's held-out log-likelihood minus PPCA's
and its train ELBO minus PPCA's train log-likelihood, paired by trial. Last, the notes: statuses
other than ok, trials ending at different epochs, and negative gaps (those above -1e-9, rounding
in the closed-form linear scores, are only counted).
"""
import csv
import math
import os
import sys
from collections import OrderedDict, defaultdict

FA_LABEL = "FA (linear VAE, diagonal Ψ)"
METRICS = [
    ("test_iw_loglik_per_row", "test IW log-lik", 4),
    ("test_elbo_per_row", "test ELBO", 4),
    ("amortization_gap", "amortisation gap", 4),
    ("approximation_gap", "approximation gap", 4),
    ("train_elbo_per_row", "train ELBO", 4),
    ("seconds", "seconds (fit)", 2),
]
ORDER = ["vem", "vae", "linear-vae", "fa", "ppca"]
ROUNDING = -1e-9  # a negative gap above this is floating-point rounding, not a finding


def number(text):
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def mean_se(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    n = len(values)
    m = sum(values) / n
    se = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1) / n) if n > 1 else float("nan")
    return m, se, n


def cell(values, digits):
    r = mean_se(values)
    if r is None:
        return "–"
    m, se, _ = r
    return f"{m:.{digits}f} ± {se:.{digits}f}"


def load(folder):
    """group -> (method key -> {trial: last row}), plus per-group metadata."""
    groups = OrderedDict()
    files = sorted(f for f in os.listdir(folder) if f.endswith(".csv"))
    # The script's run order (timings.tsv) when there is one, then the rest alphabetically.
    timings = os.path.join(folder, "timings.tsv")
    if os.path.exists(timings):
        with open(timings) as f:
            ran = [line.split("\t")[0] + ".csv" for line in f.read().splitlines()[1:]]
        files = [f for f in ran if f in files] + [f for f in files if f not in ran]
    if not files:
        sys.exit(f"vae-summary: no CSV files in {folder}")
    for name in files:
        stem = name[:-4]
        fa = stem.endswith("-fa")
        group = stem[:-3] if fa else stem
        g = groups.setdefault(group, {"methods": OrderedDict(), "files": []})
        g["files"].append(name)
        with open(os.path.join(folder, name), newline="") as f:
            for row in csv.DictReader(f):
                key = "fa" if fa and row["method"] == "linear-vae" else row["method"]
                row["_file"] = name
                # Rows come in epoch order per (trial, method): the last one wins.
                g["methods"].setdefault(key, OrderedDict())[int(row["trial"])] = row
    return groups


def label(key):
    return FA_LABEL if key == "fa" else key


def sort_keys(keys):
    return sorted(keys, key=lambda k: ORDER.index(k) if k in ORDER else len(ORDER))


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "/tmp/vae-results"
    groups = load(folder)
    notes, rounding = [], 0

    print("## Last checkpoint per trial: mean ± standard error over trials (per row)\n")
    for group, g in groups.items():
        any_row = next(iter(next(iter(g["methods"].values())).values()))
        print(f"### {any_row['dataset']}, K = {any_row['latent']} (run `{group}`)\n")
        head = ["method", "trials", "epoch", "hidden"] + [m[1] for m in METRICS] + ["status"]
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join(["---"] * 4 + ["---:"] * len(METRICS) + ["---"]) + "|")
        for key in sort_keys(g["methods"]):
            trials = g["methods"][key]
            rows = list(trials.values())
            epochs = sorted({int(r["epoch"]) for r in rows})
            hidden = sorted({r["hidden"] or "–" for r in rows})
            statuses = sorted({r["status"] for r in rows})
            cells = [label(key), str(len(rows)), ",".join(map(str, epochs)), ",".join(hidden)]
            cells += [cell([number(r[col]) for r in rows], d) for col, _, d in METRICS]
            cells.append(",".join(statuses))
            print("| " + " | ".join(cells) + " |")
            for r in rows:
                where = f"{group} / {label(key)} / trial {r['trial']} (epoch {r['epoch']})"
                if r["status"] != "ok":
                    notes.append(f"status {r['status']}: {where}")
                for col in ("amortization_gap", "approximation_gap"):
                    v = number(r[col])
                    if v is not None and ROUNDING <= v < 0:
                        rounding += 1
                    elif v is not None and v < 0:
                        notes.append(f"negative {col} {v:.4g}: {where}")
            if key != "ppca" and len(epochs) > 1:
                notes.append(f"trials end at different epochs ({epochs}): {group} / {label(key)}")
        print()

    print("## Paired by trial against PPCA's closed form (mean ± standard error over trials)\n")
    print("Δ test = method's test IW log-likelihood − PPCA's held-out log-likelihood; "
          "Δ train = method's train ELBO − PPCA's train log-likelihood (per row).\n")
    print("| data set | K | run | method | trials | Δ test | Δ train |")
    print("|---|---|---|---|---:|---:|---:|")
    for group, g in groups.items():
        ppca = g["methods"].get("ppca")
        if not ppca:
            continue
        for key in sort_keys(g["methods"]):
            if key == "ppca":
                continue
            dt, dr = [], []
            for trial, r in g["methods"][key].items():
                p = ppca.get(trial)
                if p is None:
                    continue
                for col, into in (("test_iw_loglik_per_row", dt), ("train_elbo_per_row", dr)):
                    a, b = number(r[col]), number(p[col])
                    into.append(None if a is None or b is None else a - b)
            first = next(iter(ppca.values()))
            print(f"| {first['dataset']} | {first['latent']} | `{group}` | {label(key)} | "
                  f"{len([v for v in dt if v is not None])} | {cell(dt, 4)} | {cell(dr, 4)} |")
    print()

    timings = os.path.join(folder, "timings.tsv")
    if os.path.exists(timings):
        with open(timings) as f:
            lines = [line.split("\t") for line in f.read().splitlines()[1:] if line]
        print("## Wall clock per run (fitting and checkpoint scoring)\n")
        print("| run | seconds |")
        print("|---|---:|")
        for name, secs in lines:
            print(f"| `{name}` | {secs} |")
        print(f"| total | {sum(float(s) for _, s in lines):.1f} |\n")

    print("## Notes\n")
    if rounding:
        notes.append(f"{rounding} gap(s) negative at rounding level (between {ROUNDING:g} and 0)")
    for n in notes or ["none: every status ok, no negative gap, every trial ran to the end"]:
        print(f"- {n}")


if __name__ == "__main__":
    main()
