#!/usr/bin/env bash
# Reproduces the Gaussian-process table in docs/results.md into docs/data/gp/ (about 12 minutes
# on one thread). Needs a built tree (scripts/build.sh). 10 trials: trial t is the neural lab's
# split t for the same --seed (90/10), so the rows sit beside docs/data/neural/'s.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=build/bin/faexplorer-cli
out=docs/data/gp
mkdir -p "$out"
for d in boston concrete energy yacht; do
  $cli gp --dataset "$d" --kernel se,linear,nn-erf,nn-relu --trials 10 --seed 0 --train-fraction 0.9 \
      --threads 1 --out "$out/$d.csv" | tee "$out/$d-summary.txt"
done
