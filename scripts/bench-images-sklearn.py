#!/usr/bin/env python3
"""Issue 29 item 4: scikit-learn's FactorAnalysis and PCA on the Fashion-MNIST rows that
`faexplorer-cli latent --dataset fashion-mnist` fits (scripts/bench_images_data.py), for the
batch FA / PPCA side of scripts/bench-images.sh. One CSV row per fit: the seconds of `fit` and the
held-out log-likelihood per row (`score`: FactorAnalysis' Gaussian N(mean, W Wᵀ + Ψ); PCA's is
PPCA's, Tipping and Bishop, with σ² the mean of the discarded eigenvalues).

FactorAnalysis is not EM: each iteration takes the SVD of Ψ^-1/2 X (randomized, 3 power
iterations, by default) and sets W to its best value given Ψ, then Ψ (Barber, BRML 21.2.2), from
Ψ = I, and floors Ψ at 1e-12 (the C++ EM at 1e-6 times each column's variance); it stops when the
log-likelihood of the whole fitting set (not per row) gains less than `tol` (1e-2 by default) or
after `max_iter` (1000). It is run with tol = 0 and max_iter = the C++ EM's iterations, the same
number of iterations; --default-fa adds the call with the defaults, which at N = 60,000 runs to
hundreds of iterations.

  scripts/bench-images-sklearn.py --latent 10 --iterations 10 --out sklearn.csv
"""
import argparse
import csv
import os
import sys
import time
import warnings

import numpy as np
import sklearn
from sklearn.decomposition import PCA, FactorAnalysis
from sklearn.exceptions import ConvergenceWarning

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_images_data  # noqa: E402


def timed(fit):
    start = time.perf_counter()
    model = fit()
    return model, time.perf_counter() - start


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--latent", type=int, default=10)
    p.add_argument("--iterations", type=int, default=10,
                   help="FactorAnalysis' max_iter in the tol = 0 run (the C++ EM's iterations)")
    p.add_argument("--fit-rows", type=int, default=60000)
    p.add_argument("--test-rows", type=int, default=10000)
    p.add_argument("--seed", type=int, default=0, help="the dequantisation's draws")
    p.add_argument("--repeats", type=int, default=1, help="timed fits of each")
    p.add_argument("--default-fa", action="store_true",
                   help="add FactorAnalysis with its default tol and max_iter (it may take long)")
    p.add_argument("--out", required=True)
    a = p.parse_args()
    raw = bench_images_data.read(a.test_rows, a.fit_rows)
    train, test = bench_images_data.dequantise(raw, a.test_rows, a.seed)
    print(f"scikit-learn {sklearn.__version__}, numpy {np.__version__}; {train.shape[0]} fitting "
          f"rows x {train.shape[1]} pixels, {test.shape[0]} held out", flush=True)
    k = a.latent
    fits = [
        ("pca", "PCA(n_components=K) [svd_solver auto]", lambda: PCA(n_components=k).fit(train)),
        ("factor-analysis", f"FactorAnalysis(K, tol=0, max_iter={a.iterations})",
         lambda: FactorAnalysis(n_components=k, tol=0.0, max_iter=a.iterations,
                                random_state=0).fit(train)),
    ]
    if a.default_fa:
        fits.append(("factor-analysis-default", "FactorAnalysis(K) [tol=1e-2, max_iter=1000]",
                     lambda: FactorAnalysis(n_components=k, random_state=0).fit(train)))
    fields = ["impl", "method", "call", "latent", "repeat", "iterations", "seconds",
              "heldout_loglik_per_row", "fit_rows", "test_rows", "dim"]
    with open(a.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        for name, call, fit in fits:
            for r in range(a.repeats):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    model, seconds = timed(fit)
                iterations = getattr(model, "n_iter_", "")
                if name == "pca":
                    call = f"PCA(n_components=K) [svd_solver auto: {model._fit_svd_solver}]"
                row = dict(impl="sklearn", method=name, call=call, latent=k, repeat=r,
                           iterations=iterations, seconds=f"{seconds:.3f}",
                           heldout_loglik_per_row=f"{model.score(test):.4f}",
                           fit_rows=train.shape[0], test_rows=test.shape[0], dim=train.shape[1])
                bench_images_data.emit(
                    w, f, row, f"sklearn {call}: {row['seconds']} s, {iterations} iteration(s), "
                    f"held-out log-lik {row['heldout_loglik_per_row']} per row")


if __name__ == "__main__":
    main()
