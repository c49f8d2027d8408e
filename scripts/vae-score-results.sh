#!/usr/bin/env bash
# Issue 28 item 3: the VAE's encoder gradient by the three estimators (same seed, same data) and
# the heteroscedastic decoder (--noise network) against the diagonal one. One CSV per run (and
# the encoder-gradient study's CSV beside it) in the output folder, the CLI summaries on stdout.
# Tables: scripts/vae-score-summary.py OUT. The CSVs behind docs/results.md are in
# docs/data/nonlinear/.
#
#   scripts/vae-score-results.sh [OUT]        OUT defaults to docs/data/nonlinear
#   CLI=/path/to/faexplorer-cli scripts/vae-score-results.sh OUT
set -euo pipefail
# shellcheck source=scripts/results-lib.sh
source "$(dirname "$0")/results-lib.sh"
results_init vae-score-results "$(cd "$(dirname "$0")/.." && pwd)/docs/data/nonlinear" "${1:-}"
run() { run_cli "$1" vae "${@:2}" --threads 1; } # run NAME ARGS...: one `faexplorer-cli vae` run

moons=(--dataset two-moons --dim 10 --samples 2000 --latent 1 --hidden 50 --epochs 200 --trials 5)

# (a) The encoder's gradient: the default (reparameterised, one draw per row), then the three
#     estimators with two draws per row each, the study at every checkpoint.
run moons-reparam-s1 "${moons[@]}" --method vae,ppca --grad-variance-out "$out/moons-reparam-s1-grad.csv"
for e in reparam score score-baseline; do
  run "moons-$e-s2" "${moons[@]}" --method vae,ppca --encoder-gradient "$e" --encoder-samples 2 \
      --grad-variance-out "$out/moons-$e-s2-grad.csv"
done

# (b) The heteroscedastic decoder against the diagonal Ψ: two moons (K = 1), Boston (K = 2), and
#     Boston's four columns without repeated values (crim, rm, dis, lstat; K = 2).
data="${FAEXPLORER_DATA:-$(dirname "$cli")/../share/faexplorer/data}"
python3 - "$data/boston_housing.csv" "$out/boston-continuous.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
keep = [rows[0].index(c) for c in ("crim", "rm", "dis", "lstat")]
with open(sys.argv[2], "w", newline="") as f:
    csv.writer(f, lineterminator="\n").writerows([[r[i] for i in keep] for r in rows])
PY
for noise in diagonal network; do
  run "moons-noise-$noise" "${moons[@]}" --method vem,vae --noise "$noise"
  run "boston-noise-$noise" --dataset boston --latent 2 --hidden 50 --epochs 200 --trials 5 \
      --method vem,vae --noise "$noise"
  run "boston-continuous-noise-$noise" --dataset "$out/boston-continuous.csv" --latent 2 \
      --hidden 50 --epochs 200 --trials 5 --method vem,vae --noise "$noise"
done
