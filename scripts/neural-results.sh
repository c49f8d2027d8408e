#!/usr/bin/env bash
# Reproduces the neural-network figures in docs/results.md into docs/data/neural/ (about 12
# minutes on 2 cores, then about 50 minutes on one thread for the full Table 3 and appendix A).
# Needs a built tree (scripts/build.sh). 10 splits, 10 search trials, 3 folds (the full
# Table 3 and appendix A: 5 folds) (the report: 20 splits, 100 trials, 5 folds), the report's
# start of q unless stated.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=build/bin/faexplorer-cli
out=docs/data/neural
mkdir -p "$out"
common=(--splits 10 --search-trials 10 --folds 3)
# Report Table 3 (2 x 50): VIFA against VIPPCA, Gaussian prior.
for d in yacht energy; do
  $cli neural --dataset "$d" --hidden 50,50 --method vifa-gauss,vippca-gauss "${common[@]}" --out "$out/$d-large.csv"
done
# Report Table 2 (1 x 50): VIFA, Gaussian prior (Boston trains 200 epochs, as in the report).
for d in yacht energy concrete; do
  $cli neural --dataset "$d" --hidden 50 --method vifa-gauss "${common[@]}" --out "$out/$d-small.csv"
done
$cli neural --dataset boston --hidden 50 --epochs 200 --method vifa-gauss "${common[@]}" --out "$out/boston-small.csv"
# The same on Yacht with a network-scaled start of q.
$cli neural --dataset yacht --hidden 50,50 --method vifa-gauss,vippca-gauss "${common[@]}" --init scaled \
    --out "$out/yacht-large-scaled.csv"
$cli neural --dataset yacht --hidden 50 --method vifa-gauss "${common[@]}" --init scaled --out "$out/yacht-small-scaled.csv"
# Report Table 3 in full (2 x 50, both priors) and appendix A (the Laplace rate itself
# log-uniform in [0.01, 10]), 5 folds, one thread; tables: docs/data/neural/summarise_table3.py.
full=(--splits 10 --search-trials 10 --folds 5 --threads 1)
for d in yacht energy boston concrete; do
  $cli neural --dataset "$d" --hidden 50,50 --method vippca-gauss,vifa-gauss,vippca-laplace,vifa-laplace "${full[@]}" \
      --out "$out/table3-$d.csv"
done
for d in yacht energy boston concrete; do
  $cli neural --dataset "$d" --hidden 50,50 --method vippca-laplace,vifa-laplace --laplace-range 0.01,10 "${full[@]}" \
      --out "$out/appendixA-large-$d.csv"
done
for d in yacht energy boston concrete; do
  $cli neural --dataset "$d" --hidden 50 --method vifa-laplace --laplace-range 0.01,10 "${full[@]}" \
      --out "$out/appendixA-small-$d.csv"
done
# Appendix A's 1 x 50 baseline, VIFA with the Gaussian prior under the same protocol.
for d in energy yacht boston concrete; do
  $cli neural --dataset "$d" --hidden 50 --method vifa-gauss "${full[@]}" --out "$out/appendixA-small-gauss-$d.csv"
done
# Issue 27: the posteriors from the SGD iterates (about 30 + 16 + 20 minutes on one thread);
# tables: docs/data/neural/summarise_iterates.py [--fa-start | --large].
for d in yacht energy boston concrete; do
  $cli neural --dataset "$d" --hidden 50 --splits 20 --threads 1 \
      --method vifa-gauss,vifa-laplace,map,swa-fa-em,swa-fa-sga,swag,ensemble,multiswag,multi-swa-fa-em \
      --out "$out/iterates-$d-small.csv"
  $cli neural --dataset "$d" --hidden 50 --splits 20 --threads 1 \
      --method swa-fa-em,swa-fa-sga,multi-swa-fa-em --fa-start iterates --out "$out/iterates-$d-small-fastart.csv"
  $cli neural --dataset "$d" --hidden 50,50 --splits 10 --threads 1 \
      --method map,swa-fa-em,swag,ensemble,multiswag --out "$out/iterates-$d-large.csv"
  $cli neural --dataset "$d" --hidden 50,50 --splits 10 --threads 1 \
      --method swa-fa-em,swa-fa-sga,multi-swa-fa-em --fa-start iterates \
      --out "$out/iterates-$d-large-fastart.csv"
done
