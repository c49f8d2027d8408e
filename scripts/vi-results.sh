#!/usr/bin/env bash
# Reproduces the VI-family figures in docs/results.md (issue 13) into docs/data/vi/ (a few
# minutes on 2 cores). Needs a built tree (scripts/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
cli=build/bin/faexplorer-cli
out=docs/data/vi
mkdir -p "$out"
{
# The family diagonal -> FA (K = 1) -> full on the report's synthetic problem, report settings.
$cli posterior --method vi-meanfield,vifa-gauss,vi-full --trials 10 --every 500 --out "$out/family-synthetic.csv"
# The same on the UCI sets, K = 1, 2, 3 for VIFA, the small constant step run long (eta = 3e-4, 1e5 epochs).
for name in energy boston concrete yacht; do
  for k in 1 2 3; do
    methods=vifa-gauss
    [ "$k" = 1 ] && methods=vi-meanfield,vifa-gauss,vi-full
    $cli posterior --dataset "$name" --latent "$k" --method "$methods" --lr-c 0.0003 --lr-f 0.0003 \
        --lr-gamma 0.0003 --epochs 100000 --every 10000 --trials 10 --out "$out/family-$name-k$k.csv"
  done
done
# Targets that are not Gaussian: exact moments and KL(q || p) from the grid; 50,000 epochs
# (N = 60 and 20 rows: one mini-batch an epoch, an update every 10).
for name in logistic-synthetic bimodal-synthetic; do
  $cli posterior --dataset "$name" --method vi-meanfield,vifa-gauss,vifa-laplace,vi-full --epochs 50000 \
      --every 5000 --trials 10 --out "$out/targets-$name.csv"
done
# A prior strong enough to matter (N = 30, alpha = 50): the Laplace fit against its own grid posterior.
# Adam (0.01 for every group), 50,000 epochs: with N = 30 < M an update comes every 10 epochs.
$cli posterior --n 30 --alpha 50 --beta 0.1 --method vifa-gauss,vifa-laplace,vi-full --optimizer adam \
    --lr-c 0.01 --lr-f 0.01 --lr-gamma 0.01 --epochs 50000 --every 5000 --trials 10 \
    --out "$out/laplace-strong-prior.csv"
# Estimator variances at L = 1, 10, 100 (1000 estimates each), at the optimum and at the start.
for method in vi-full vi-meanfield; do
  for at in optimum start; do
    $cli grad-variance --method "$method" --at "$at" --trials 1000 --out "$out/grad-variance-$method-$at.csv"
  done
done
# alpha and beta through the bound, beside the exact log evidence (linear regression).
for name in synthetic boston; do
  for family in full meanfield; do
    $cli vi-bound --dataset "$name" --family "$family" --iterations 2000 --out "$out/bound-$name-$family.csv"
  done
done
} | tee "$out/summaries.txt"
