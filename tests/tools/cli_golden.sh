#!/usr/bin/env bash
# Runs every experiment command of faexplorer-cli on small, fixed arguments and keeps the CSVs
# in OUTDIR: the reference for a refactoring that must change no number (issue 26). Compare two
# such folders with `cli_golden.sh --compare A B`, which ignores the columns named *seconds*.
#   tests/tools/cli_golden.sh build/bin/faexplorer-cli /tmp/before
set -u
if [ "${1:-}" = "--compare" ]; then
    strip() { # drop every column whose header names seconds
        python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
keep = [i for i, h in enumerate(rows[0]) if "seconds" not in h] if rows else []
for r in rows: print(",".join(r[i] if i < len(r) else "?" for i in keep))' "$1"
    }
    status=0
    for f in "$2"/*.csv; do
        g="$3/$(basename "$f")"
        if [ ! -f "$g" ]; then echo "missing: $g"; status=1; continue; fi
        if ! cmp -s <(strip "$f") <(strip "$g"); then echo "differs: $(basename "$f")"; status=1; fi
    done
    for f in "$2"/*.err; do
        g="$3/$(basename "$f")"
        cmp -s "$f" "$g" || { echo "message differs: $(basename "$f")"; status=1; }
    done
    [ $status = 0 ] && echo "identical (seconds aside): $(ls "$2"/*.csv | wc -l) CSVs, $(ls "$2"/*.err | wc -l) messages"
    exit $status
fi
cli=$1
out=$2
mkdir -p "$out"
run() { # name, arguments...
    local name=$1
    shift
    "$cli" "$@" --out "$out/$name.csv" >/dev/null 2>"$out/$name.log" || echo "$name: exit $?"
}
run sweep fa-sweep --dim 20 --latent 3 --samples 100,1000 --trials 2 --seed 1 --threads 2
run sweep-haar fa-sweep --dim 15 --latent 2 --samples 200 --trials 2 --generator haar --batch-svd exact --algorithms batch,em,sga --lr 0.002 --warmup 50
run posterior posterior --dataset synthetic --method vifa-gauss,vifa-laplace,vippca,sgd-em,sgd-sga,swag,vi-full,vi-meanfield --epochs 200 --trials 2 --seed 3
run posterior-logistic posterior --dataset logistic-synthetic --method vifa-gauss,vi-full --epochs 100 --trials 1 --estimator score-baseline
run posterior-boston posterior --dataset boston --method vifa-gauss,vippca --epochs 50 --trials 1 --hyper evidence --optimizer adam
run grad-variance grad-variance --dataset synthetic --method vi-full --trials 50
run grad-variance-vifa grad-variance --dataset synthetic --method vifa-gauss --at epoch:20 --trials 30 --samples 1,10
run grad-variance-gamma grad-variance --dataset poisson-synthetic --method vi-gamma --trials 50 --samples 1,10
run grad-variance-bernoulli grad-variance --dataset bernoulli-latent --trials 50 --samples 10
run vi-bound vi-bound --dataset synthetic --iterations 20
run gp gp --dataset yacht --kernel linear,nn-erf --trials 1
run neural neural --dataset yacht --splits 2 --epochs 5 --search-trials 2 --folds 2 --predictive-samples 10 --hidden 10 --method vifa-gauss,vippca-laplace
run latent-fa latent --model fa --method em,gibbs,svd,online-em,online-sga --iterations 20 --trials 2 --chains 2
run latent-ppca latent --model ppca --method closed-form,em --iterations 20 --trials 2
run latent-mppca latent --model mppca --method em --iterations 15 --components 2
run latent-map latent --model fa --method em --prior conjugate --iterations 20 --dataset boston
run latent-gibbs-improper latent --model fa --method em,gibbs --prior improper --iterations 20 --trials 1 --chains 2
run vae vae --method vem,vae,linear-vae,ppca --epochs 3 --iw-samples 50 --q-steps 10 --trials 2 --samples 300
run vae-moons vae --dataset two-moons --method vae,vem --epochs 2 --iw-samples 20 --q-steps 5 --hidden 20,20 --activation relu --noise isotropic --samples 200
run vae-score vae --dataset two-moons --method vae,vem --epochs 3 --iw-samples 20 --q-steps 5 --hidden 10 --noise network --encoder-gradient score-baseline --encoder-samples 2 --samples 200 --grad-draws 20 --grad-variance-out "$out/vae-score-grad.csv"
"$cli" fa-sweep --dim 10 --latent 2 --samples 100 --trials 3 --shard 1/2 --out "$out/s1.tmpcsv" >/dev/null 2>&1
"$cli" fa-sweep --dim 10 --latent 2 --samples 100 --trials 3 --shard 2/2 --out "$out/s2.tmpcsv" >/dev/null 2>&1
"$cli" merge "$out/merged.csv" "$out/s1.tmpcsv" "$out/s2.tmpcsv" >/dev/null 2>&1
rm -f "$out"/*.tmpcsv
# Refusals: the message of each (one line on stderr).
refuse() { # name, arguments...
    local name=$1
    shift
    "$cli" "$@" >/dev/null 2>"$out/$name.err"
    echo "exit $?" >>"$out/$name.err"
}
refuse vae-lr vae --lr 20 --out /tmp/x.csv
refuse vae-latent vae --latent 101 --out /tmp/x.csv
refuse latent-k latent --latent 0 --out /tmp/x.csv
refuse posterior-epochs posterior --epochs 0 --out /tmp/x.csv
refuse neural-splits neural --splits 0 --out /tmp/x.csv
refuse sweep-dim fa-sweep --dim 1 --out /tmp/x.csv
refuse unknown vae --frobnicate 3
