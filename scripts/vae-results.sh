#!/usr/bin/env bash
# Nonlinear factor analysis results: variational EM, the VAE and the linear VAE beside PPCA and
# FA (the linear VAE with diagonal noise), on generated PPCA data, the generated nonlinear sets
# and the four UCI sets. One CSV per run in the output folder, the CLI summaries on stdout (and in
# summaries.txt), wall-clock seconds per run in timings.tsv. Tables: scripts/vae-summary.py OUT.
#
#   scripts/vae-results.sh [OUT]          OUT defaults to /tmp/vae-results
#   CLI=/path/to/faexplorer-cli scripts/vae-results.sh OUT
#
# Single-threaded (one CLI run at a time). The same --seed (0) and trial index give the same
# data split for every method, so the runs below are comparable trial by trial.
set -euo pipefail
# shellcheck source=scripts/results-lib.sh
source "$(dirname "$0")/results-lib.sh"
results_init vae-results /tmp/vae-results "${1:-}"
run() { run_cli "$1" vae "${@:2}"; } # run NAME ARGS...: one `faexplorer-cli vae` run

gen=(--dim 10 --samples 2000)
nonlinear=(--method vem,vae,ppca --hidden 50 --epochs 200 --trials 5)
# FA: the linear VAE with diagonal noise on the whole fitting set per step (exact gradients, so it
# settles at a maximum of FA's likelihood; on mini-batches it keeps moving by a few hundredths).
fa=(--method linear-vae --linear-noise diagonal --batch 1000000 --lr 0.01 --epochs 3000 --trials 5)

{
  # (a) Generated PPCA data: the linear VAE against PPCA's closed form (default and wide spectrum).
  run synthetic --dataset synthetic "${gen[@]}" --true-latent 2 --latent 2 \
      --method linear-vae,ppca --epochs 1000 --trials 5
  run synthetic-spectrum-1-100 --dataset synthetic "${gen[@]}" --true-latent 2 --latent 2 \
      --method linear-vae,ppca --epochs 1000 --trials 5 --spectrum 1:100

  # (b) Nonlinear generated sets, K = 1: vEM, VAE, PPCA, and FA (linear VAE, diagonal noise).
  for set in two-moons swiss-roll pinwheel nonlinear-synthetic; do
    extra=()
    [ "$set" = nonlinear-synthetic ] && extra=(--true-latent 1)
    run "$set-k1" --dataset "$set" "${gen[@]}" "${extra[@]}" --latent 1 "${nonlinear[@]}"
    run "$set-k1-fa" --dataset "$set" "${gen[@]}" "${extra[@]}" --latent 1 "${fa[@]}"
  done
  # two-moons again with K = 2.
  run two-moons-k2 --dataset two-moons "${gen[@]}" --latent 2 "${nonlinear[@]}"

  # (c) The four bundled UCI sets, K = 2.
  for set in boston concrete energy yacht; do
    run "$set-k2" --dataset "$set" --latent 2 "${nonlinear[@]}"
    run "$set-k2-fa" --dataset "$set" --latent 2 "${fa[@]}"
  done
} | tee "$out/summaries.txt"
