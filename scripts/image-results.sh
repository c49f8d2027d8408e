#!/usr/bin/env bash
# Held-out log-likelihoods on pictures (issue 29; docs/maths/images.md): PPCA, FA, variational EM
# and the VAE on the 1,797 handwritten digits (all; the last 20 % held out) and on the first
# 5,000 Fashion-MNIST training pictures (the last 1,000 held out). One CSV per run in the output
# folder, the CLI summaries on stdout (and in summaries.txt), wall-clock seconds in timings.tsv.
#
#   scripts/image-results.sh [OUT]          OUT defaults to /tmp/image-results
#   CLI=/path/to/faexplorer-cli scripts/image-results.sh OUT
#
# Pictures are split in the files' order, so every run below holds out the same rows; trials
# differ in the fits' seeds (and the dequantising jitter, seeded by the split seed).
set -euo pipefail
# shellcheck source=scripts/results-lib.sh
source "$(dirname "$0")/results-lib.sh"
results_init image-results /tmp/image-results "${1:-}"

digits=(--dataset digits --test-fraction 0.2)
fashion=(--dataset fashion-mnist --samples 5000 --test-fraction 0.2)
{
  for k in 2 10; do
    run_cli "digits-ppca-k$k" latent "${digits[@]}" --model ppca --method closed-form --latent "$k"
    run_cli "digits-fa-k$k" latent "${digits[@]}" --model fa --method em --latent "$k" --iterations 500
    run_cli "fashion-ppca-k$k" latent "${fashion[@]}" --model ppca --method closed-form --latent "$k"
    run_cli "fashion-fa-k$k" latent "${fashion[@]}" --model fa --method em --latent "$k" --iterations 200
  done
  # The window's preset lesson-vae-mosaic, three trials, with variational EM beside the VAE.
  run_cli digits-vae-k2 vae "${digits[@]}" --method vem,vae,ppca --latent 2 --hidden 100 \
    --noise isotropic --lr 0.01 --epochs 300 --trials 3
  run_cli digits-vae-k10 vae "${digits[@]}" --method vem,vae,ppca --latent 10 --hidden 100 \
    --noise isotropic --lr 0.01 --epochs 300 --trials 3
  run_cli fashion-vae-k2 vae "${fashion[@]}" --method vem,vae,ppca --latent 2 --hidden 256 \
    --activation relu --noise isotropic --lr 0.003 --epochs 50 --trials 2 --iw-samples 200 \
    --q-steps 100
  # FA's per-pixel noise against σ²I: the same vEM and VAE with Ψ diagonal.
  run_cli digits-vae-k10-diagonal vae "${digits[@]}" --method vem,vae --latent 10 --hidden 100 \
    --noise diagonal --lr 0.01 --epochs 300 --trials 3
} | tee "$out/summaries.txt"
