#!/usr/bin/env python3
"""The tables of scripts/bench-images.sh from the CSVs in its output folder (Markdown on stdout):
the VAE's seconds per epoch, its held-out IW log-likelihood, and FA / PPCA beside scikit-learn,
each with the same-run ratio ours / peer. Mean ± standard error over trials (ddof 1).

  scripts/bench-images-summary.py OUT
"""
import csv
import math
import os
import sys


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def mean_se(values):
    n = len(values)
    m = sum(values) / n
    se = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1) / n) if n > 1 else float("nan")
    return m, se


def cell(values, digits=2):
    m, se = mean_se(values)
    return f"{m:.{digits}f}" if math.isnan(se) else f"{m:.{digits}f} ± {se:.{digits}f}"


def last_per_trial(ours, method):
    """The last checkpoint row of each trial of one method."""
    last = {}
    for r in ours:
        if r["method"] == method:
            last[r["trial"]] = r
    return list(last.values())


def host_threads(out):
    """The threads of the timed fits (host.txt's `threads:` line; 1 before it was written)."""
    for line in open(os.path.join(out, "host.txt")):
        if line.startswith("threads:"):
            return int(line.split()[1])
    return 1


def vae_time(out):
    torch = rows(os.path.join(out, "vae-time-torch.csv"))
    threads = host_threads(out)
    print(f"### The VAE's epoch over {int(torch[0]['fit_rows']):,} images x 784 pixels (K = 2, "
          "tanh, batch 100)\n")
    print(f"| hidden | ours: s / epoch ({threads} thread(s), float64) | ours, --precision float "
          f"| PyTorch: s / epoch ({torch[0]['threads']} thread(s), float32) | ours / PyTorch "
          "(double; float) |")
    print("| --- | --- | --- | --- | --- |")

    def per_epoch(path):
        if not os.path.exists(path):
            return []
        return [float(r["seconds"]) / int(r["epoch"]) for r in last_per_trial(rows(path), "vae")]

    for h in sorted({int(r["hidden"]) for r in torch}):
        mine = per_epoch(os.path.join(out, f"vae-time-ours-h{h}.csv"))
        if not mine:
            continue
        single = per_epoch(os.path.join(out, f"vae-time-ours-float-h{h}.csv"))
        peer = [float(r["seconds_per_epoch"]) for r in torch if int(r["hidden"]) == h]
        p = mean_se(peer)[0]
        ratios = f"{mean_se(mine)[0] / p:.3f}" + (f"; {mean_se(single)[0] / p:.3f}" if single
                                                  else "")
        print(f"| {h} | {cell(mine)} | {cell(single) if single else '—'} | {cell(peer)} | "
              f"{ratios} |")
    t = torch[0]
    timed = ("whole epochs" if t["batches_timed"] == t["batches_per_epoch"] else
             f"the first {t['batches_timed']} of each epoch's {t['batches_per_epoch']} batches "
             "timed and scaled to the epoch")
    print(f"\nOurs: the CSV's seconds column (the epochs alone) over its epochs, {len(mine)} "
          f"trial(s), each alone. PyTorch: {timed}, {len(peer)} trial(s) of {t['epochs']} "
          "epoch(s).\n")


def vae_loglik(out):
    mine = last_per_trial(rows(os.path.join(out, "vae-ll-ours.csv")), "vae")
    peer = rows(os.path.join(out, "vae-ll-torch.csv"))
    p = peer[0]
    print(f"### The VAE's held-out IW log-likelihood (K = 2, hidden {p['hidden']}, "
          f"{int(p['fit_rows']):,} fitting images, {p['epochs']} epoch(s), S = "
          f"{p['iw_samples']}, the next {int(p['test_rows']):,} images held out)\n")
    print("| | ours | PyTorch | ours − PyTorch |")
    print("| --- | --- | --- | --- |")
    a = [float(r["test_iw_loglik_per_row"]) for r in mine]
    b = [float(r["test_iw_loglik_per_row"]) for r in peer]
    print(f"| IW log-likelihood per row | {cell(a)} | {cell(b)} | "
          f"{mean_se(a)[0] - mean_se(b)[0]:.2f} |")
    sa = [float(r["seconds"]) / int(r["epoch"]) for r in mine]
    sb = [float(r["seconds_per_epoch"]) for r in peer]
    print(f"| s / epoch (whole epochs) | {cell(sa)} | {cell(sb)} | ratio "
          f"{mean_se(sa)[0] / mean_se(sb)[0]:.3f} |")
    print(f"\nTrials (seeds): ours {len(a)}, PyTorch {len(b)}; mean ± standard error.\n")


def latent(out):
    peer = {r["method"]: r for r in rows(os.path.join(out, "latent-sklearn.csv"))}
    fa = last_per_trial(rows(os.path.join(out, "latent-fa-ours.csv")), "em")
    ppca_rows = rows(os.path.join(out, "latent-ppca-ours.csv"))
    closed = last_per_trial(ppca_rows, "closed-form")
    em = last_per_trial(ppca_rows, "em")
    s = next(iter(peer.values()))
    print(f"### FA and PPCA at K = {s['latent']}: {s['fit_rows']} fitting images x {s['dim']} "
          f"pixels, {s['test_rows']} held out\n")
    print("| model | ours | s | held-out log-lik / row | scikit-learn | s | held-out log-lik / row "
          "| ours / sklearn (s) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")

    def line(model, mine, label, key):
        if not mine or key not in peer:
            return
        r, q = mine[0], peer[key]
        it = f" ({q['iterations']} iterations)" if q["iterations"] else ""
        print(f"| {model} | {label} | {float(r['seconds']):.2f} | "
              f"{float(r['heldout_loglik_per_row']):.2f} | {q['call']}{it} | "
              f"{float(q['seconds']):.2f} | {float(q['heldout_loglik_per_row']):.2f} | "
              f"{float(r['seconds']) / float(q['seconds']):.3f} |")

    line("FA", fa, f"em, {fa[0]['iteration']} iterations" if fa else "", "factor-analysis")
    line("FA", fa, f"em, {fa[0]['iteration']} iterations" if fa else "",
         "factor-analysis-default")
    line("PPCA", closed, "closed-form", "pca")
    line("PPCA", em, f"em, {em[0]['iteration']} iterations" if em else "", "pca")
    print("\nOurs: the CSV's seconds column (construction and iterations; FA's EM starts from "
          "PPCA's closed form, inside its seconds). scikit-learn: the wall clock of `fit`.\n")


def main():
    out = sys.argv[1]
    host = open(os.path.join(out, "host.txt")).read()
    print("```\n" + host.strip() + "\n```\n")
    vae_time(out)
    vae_loglik(out)
    latent(out)
    wall = rows(os.path.join(out, "wall.csv"))
    print("Wall clock of each step (s): " +
          ", ".join(f"{r['step']} {float(r['seconds']):.0f}" for r in wall))


if __name__ == "__main__":
    main()
