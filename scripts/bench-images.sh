#!/usr/bin/env bash
# Issue 29 item 4: speed at image size, side by side in one run. On Fashion-MNIST (Debian's
# dataset-fashion-mnist; pixels / 255, dequantised, all 784 kept: docs/maths/images.md) it runs
#   (1) the VAE's epoch over the 60,000 training images (`faexplorer-cli vae --method vae`,
#       K = 2, one tanh hidden layer of 256 and of 512 units, batch 100, Adam 3e-3) beside the
#       same model in PyTorch (scripts/bench-images-torch.py: float32, every core);
#   (2) both VAEs trained for the same epochs from several seeds and scored on the same held-out
#       images by the same importance-weighted estimator (the encoder's q as proposal, S draws);
#   (3) batch EM for FA and PPCA at K = 10 on the 60,000 images (`faexplorer-cli latent --model
#       fa --method em`, `--model ppca --method closed-form,em`) beside scikit-learn's
#       FactorAnalysis and PCA (scripts/bench-images-sklearn.py), the 10,000 test images held
#       out;
# and writes every CSV, the host (host.txt) and the tables (summary.md, from
# scripts/bench-images-summary.py) to OUT.
#
#   scripts/bench-images.sh [--quick] [--threads N] [--torch-batches B] [OUT]
#   CLI=/path/to/faexplorer-cli PYTHON=/usr/bin/python3 scripts/bench-images.sh OUT
#
# OUT defaults to docs/data/images. --threads N (default 2): the threads of the timed VAE fits,
# ours (one trial at a time, its batch's products split over the threads: --shard runs each
# trial alone) and PyTorch's (torch.set_num_threads); the FA / PPCA fits stay on one core.
# --torch-batches B: time only the first B batches of each PyTorch epoch and scale to the epoch
# (for a PyTorch on the reference BLAS, where an epoch over 60,000 images takes minutes); by
# default whole epochs.
#
# The peers come from Debian (apt-get install python3-torch python3-sklearn); PYTHON must be the
# interpreter they are installed for (default /usr/bin/python3). Full: about 22 minutes on 2
# cores; --quick: about 1 minute on fewer rows (a smoke test of the pipeline: its numbers are
# not results).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
quick=0 threads=2 torch_batches=0
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; shift ;;
    --threads) threads="$2"; shift 2 ;;
    --torch-batches) torch_batches="$2"; shift 2 ;;
    *) break ;;
  esac
done
out="${1:-$root/docs/data/images}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cli="${CLI:-$root/build/bin/faexplorer-cli}"
py="${PYTHON:-/usr/bin/python3}"
[ -x "$cli" ] || { echo "bench-images: no CLI at $cli (build first, or set CLI)" >&2; exit 1; }
"$py" -c 'import torch, sklearn' 2> /dev/null ||
  { echo "bench-images: $py lacks torch or sklearn (apt-get install python3-torch python3-sklearn)" >&2; exit 1; }

# Sizes. Timing: the VAE on all 60,000 fitting images (ours: whole epochs; PyTorch: whole
# epochs, or the first torch_batches batches of each scaled to the epoch's 600). Held out: the
# first ll_fit images fitted for ll_epochs epochs from ll_trials seeds, the next ll_held images
# (never fitted) scored with S = iw draws each. FA / PPCA: `iterations` EM iterations on the
# 60,000 images, the 10,000 test images held out.
hidden=(256 512)
if [ "$quick" = 1 ]; then
  time_fit=6000 time_epochs=1 time_trials=1
  ll_fit=3000 ll_held=300 ll_hidden=256 ll_epochs=1 ll_trials=2 iw=10
  fa_fit=6000 fa_held=1000 iterations=3
else
  time_fit=60000 time_epochs=2 time_trials=2
  ll_fit=10000 ll_held=1000 ll_hidden=256 ll_epochs=20 ll_trials=10 iw=20
  fa_fit=60000 fa_held=10000 iterations=10
fi
split() { "$py" -c "import sys; sys.path.insert(0, '$root/scripts'); import bench_images_data as b; print(' '.join(b.cli_split($1, $2)))"; }

# The host, and which BLAS the peers load (Debian's python3-torch and numpy use whatever
# libblas.so.3 the alternatives system points at: the reference BLAS unless OpenBLAS, BLIS or
# MKL is installed).
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p')"
  echo "cores: $(nproc)"
  flags=$(grep -m1 '^flags' /proc/cpuinfo)
  width=128
  case "$flags" in *avx2*) width=256 ;; esac
  case "$flags" in *avx512f*) width=512 ;; esac
  echo "cpu vector width: $width bits"
  echo "faexplorer-cli: $cli ($(git -C "$root" rev-parse --short HEAD 2> /dev/null || echo '?')); Release, -march=native -mno-avx512f: AVX2 + FMA, 256-bit vectors of 4 doubles"
  echo "threads: $threads (the timed VAE fits, ours and PyTorch's; FA / PPCA one core)"
  THREADS="$threads" "$py" - << 'PY'
import os, numpy, sklearn, torch
torch.set_num_threads(int(os.environ["THREADS"]))
cap = [l.strip() for l in torch.__config__.show().splitlines() if "CPU capability" in l]
libs = sorted({l.split()[-1] for l in open("/proc/self/maps")
               if any(k in l for k in ("blas", "lapack", "mkl", "dnnl", "gomp"))})
print(f"pytorch: {torch.__version__}, {torch.get_num_threads()} threads, float32; {'; '.join(cap)}")
print(f"scikit-learn: {sklearn.__version__}, numpy {numpy.__version__}, float64")
print("libraries loaded by the peers: " + ", ".join(libs))
PY
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/host.txt"

: > "$out/wall.csv.tmp"
step() { # NAME COMMAND...: runs it, its wall-clock seconds into wall.csv
  local name="$1" start end
  shift
  echo "== $name: $*"
  start=$(date +%s.%N)
  "$@"
  end=$(date +%s.%N)
  echo "$name,$(echo "$end - $start" | bc)" >> "$out/wall.csv.tmp"
}

# (1) Seconds per epoch at 60,000 x D. Ours: the CSV's seconds column (the epochs alone; the
#     checkpoints' scoring of the fitting rows is outside it), each trial alone on `threads`
#     threads (--shard t/T runs trial t of T; the shards' rows are those of one run).
vae_common=(--method vae --latent 2 --activation tanh --noise diagonal --batch 100 --lr 0.003)
#     Then the same with --precision float (the networks' products in single precision).
for precision in double float; do
  tag=$([ "$precision" = float ] && echo "-float" || true)
  for h in "${hidden[@]}"; do
    name="vae-time-ours$tag-h$h"
    for t in $(seq 1 "$time_trials"); do
      step "ours$tag-vae-time-h$h-trial$t" "$cli" vae $(split "$time_fit" 0) "${vae_common[@]}" \
        --precision "$precision" --threads "$threads" --hidden "$h" --epochs "$time_epochs" \
        --trials "$time_trials" --shard "$t/$time_trials" --out "$out/$name-$t.csv"
    done
    { head -1 "$out/$name-1.csv"; for t in $(seq 1 "$time_trials"); do
        tail -n +2 "$out/$name-$t.csv"; done; } > "$out/$name.csv"
    for t in $(seq 1 "$time_trials"); do rm -f "$out/$name-$t.csv"; done
  done
done
step torch-vae-time "$py" "$root/scripts/bench-images-torch.py" --fit-rows "$time_fit" --test-rows 0 \
  --hidden "$(IFS=,; echo "${hidden[*]}")" --latent 2 --epochs "$time_epochs" --trials "$time_trials" \
  --time-batches "$torch_batches" --threads "$threads" --out "$out/vae-time-torch.csv"

# (2) Held-out IW log-likelihood after the same epochs. Ours with --q-steps 0: the proposal is the
#     encoder's q, as in PyTorch (the CLI's default would optimise a q* per row first).
#     Ours: the trials side by side, one core each; PyTorch: one after the other on `threads`.
step ours-vae-ll "$cli" vae $(split "$ll_fit" "$ll_held") "${vae_common[@]}" --threads "$threads" \
  --hidden "$ll_hidden" --epochs "$ll_epochs" --trials "$ll_trials" --q-steps 0 --iw-samples "$iw" \
  --out "$out/vae-ll-ours.csv"
step torch-vae-ll "$py" "$root/scripts/bench-images-torch.py" --fit-rows "$ll_fit" --test-rows "$ll_held" \
  --hidden "$ll_hidden" --latent 2 --epochs "$ll_epochs" --trials "$ll_trials" --iw-samples "$iw" \
  --threads "$threads" --out "$out/vae-ll-torch.csv"

# (3) FA and PPCA at K = 10.
step ours-fa "$cli" latent $(split "$fa_fit" "$fa_held") --model fa --method em --latent 10 \
  --iterations "$iterations" --threads 1 --out "$out/latent-fa-ours.csv"
step ours-ppca "$cli" latent $(split "$fa_fit" "$fa_held") --model ppca --method closed-form,em \
  --latent 10 --iterations "$iterations" --threads 1 --out "$out/latent-ppca-ours.csv"
step sklearn "$py" "$root/scripts/bench-images-sklearn.py" --fit-rows "$fa_fit" --test-rows "$fa_held" \
  --latent 10 --iterations "$iterations" --out "$out/latent-sklearn.csv"

{ echo "step,seconds"; cat "$out/wall.csv.tmp"; } > "$out/wall.csv"
rm -f "$out/wall.csv.tmp"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/host.txt"
"$py" "$root/scripts/bench-images-summary.py" "$out" | tee "$out/summary.md"
