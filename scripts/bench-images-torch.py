#!/usr/bin/env python3
"""Issue 29 item 4: faexplorer-cli's VAE (`faexplorer-cli vae --method vae`) rebuilt in PyTorch
(float32, every core), timed per epoch on Fashion-MNIST's training images and scored on held-out
images by the same importance-weighted estimator. The rows are the CLI's (the first fit_rows +
test_rows images, dequantised, the last test_rows held out: scripts/bench_images_data.py), each
trial with its own dequantisation as in the CLI. The model, start and optimiser follow the C++
code line by line:

- encoder x -> Linear(D, H) -> tanh -> Linear(H, 2K) = [mu; raw l], l = clamp(raw, -15, 10)
  (core/vae/VaeObjectives.cpp: vaeBatchElbo; kEncoderLogVarMin, kQLogVarMax in NlfaModel.h);
- decoder z -> Linear(K, H) -> tanh -> Linear(H, D) = f(z), noise diag(exp(gamma)) learned,
  gamma floored at log(1e-6 v_d) after every step (core/vae/NlfaModel.cpp);
- start: weights N(0, 1/fan_in), biases 0 (Mlp::initialWeights); the decoder's output bias the
  column means, gamma the log column variances (ddof 0); the encoder's l head all zero
  (core/vae/VaeFits.cpp: Vae::Vae);
- per row ELBO log N(x; f(z), Psi) - KL(q || N(0, I)) with one draw z = mu + exp(l/2) eps and the
  KL in closed form; each step ascends the batch's mean ELBO with Adam (lr 3e-3, betas 0.9 /
  0.999, eps 1e-8, no clipping; core/optim/Adam.cpp) over shuffled batches of 100;
- held out: log p(x) ~ logsumexp_s log w_s - log S, w_s = p(x | z_s) p(z_s) / q(z_s | x) with
  z_s ~ the encoder's q (core/vae/VaeMetrics.cpp: iwLoglik; faexplorer-cli vae --q-steps 0 makes
  the C++ proposal the encoder's q too), averaged over the held-out rows.

One CSV row per (hidden, trial): the training seconds (the epochs' loop only, scoring excluded)
and the held-out IW log-likelihood per row after the last epoch; with --time-batches B each epoch
is cut to its first B batches and its seconds scaled by batches_per_epoch / B (batches_timed).

  scripts/bench-images-torch.py --hidden 256 --latent 2 --epochs 5 --trials 3 \\
      --fit-rows 10000 --test-rows 1000 --iw-samples 20 --out torch.csv
"""
import argparse
import csv
import math
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_images_data  # noqa: E402

LOGVAR_MIN, LOGVAR_MAX = -15.0, 10.0
LOG_2PI = math.log(2.0 * math.pi)


class Vae(torch.nn.Module):
    def __init__(self, train, hidden, latent, generator):
        super().__init__()
        dim = train.shape[1]
        self.enc1 = torch.nn.Linear(dim, hidden)
        self.enc2 = torch.nn.Linear(hidden, 2 * latent)
        self.dec1 = torch.nn.Linear(latent, hidden)
        self.dec2 = torch.nn.Linear(hidden, dim)
        with torch.no_grad():
            for layer in (self.enc1, self.enc2, self.dec1, self.dec2):
                fan_in = layer.weight.shape[1]
                layer.weight.copy_(torch.randn(layer.weight.shape, generator=generator) /
                                   math.sqrt(fan_in))
                layer.bias.zero_()
            self.enc2.weight[latent:].zero_()  # the l head starts at 0 (q's variances 1)
            mean = train.mean(dim=0)
            var = ((train - mean) ** 2).mean(dim=0)
            self.dec2.bias.copy_(mean)
        self.gamma = torch.nn.Parameter(var.log())
        self.register_buffer("gamma_floor", (1e-6 * var).log())
        self.latent = latent

    def encode(self, x):
        h = self.enc2(torch.tanh(self.enc1(x)))
        return h[:, :self.latent], h[:, self.latent:].clamp(LOGVAR_MIN, LOGVAR_MAX)

    def log_lik(self, x, z):
        """log N(x; f(z), diag exp(gamma)) per row."""
        f = self.dec2(torch.tanh(self.dec1(z)))
        quad = ((x - f) ** 2 * torch.exp(-self.gamma)).sum(dim=1)
        return -0.5 * (x.shape[1] * LOG_2PI + self.gamma.sum() + quad)

    def elbo(self, x, generator):
        mu, logvar = self.encode(x)
        eps = torch.randn(mu.shape, generator=generator)
        z = mu + torch.exp(0.5 * logvar) * eps
        kl = 0.5 * (logvar.exp() + mu ** 2 - 1.0 - logvar).sum(dim=1)
        return self.log_lik(x, z) - kl

    @torch.no_grad()
    def iw_loglik(self, x, samples, generator, chunk=500):
        """Mean over the rows of logsumexp_s log w_s - log S (the encoder's q as proposal)."""
        total = 0.0
        for start in range(0, x.shape[0], chunk):
            xc = x[start:start + chunk]
            mu, logvar = self.encode(xc)
            sd = torch.exp(0.5 * logvar)
            logw = torch.empty(samples, xc.shape[0], dtype=torch.float64)
            for s in range(samples):
                eps = torch.randn(mu.shape, generator=generator)
                z = mu + sd * eps
                # log N(z; 0, I) - log N(z; mu, diag e^l): the 2 pi terms cancel.
                lw = (self.log_lik(xc, z) - 0.5 * (z ** 2).sum(dim=1) +
                      0.5 * (logvar.sum(dim=1) + (eps ** 2).sum(dim=1)))
                logw[s] = lw.double()
            total += (torch.logsumexp(logw, dim=0) - math.log(samples)).sum().item()
        return total / x.shape[0]


def train_one(train, test, hidden, latent, epochs, batch, lr, iw_samples, seed, max_batches=0):
    """Per epoch seconds and the held-out IW log-likelihood after the last; with max_batches,
    each epoch stops after that many batches (timing only: no scoring)."""
    g = torch.Generator().manual_seed(seed)
    model = Vae(train, hidden, latent, g)
    opt = torch.optim.Adam(model.parameters(), lr=lr, betas=(0.9, 0.999), eps=1e-8)
    n = train.shape[0]
    epoch_seconds = []
    for _ in range(epochs):
        start = time.perf_counter()
        order = torch.randperm(n, generator=g)
        firsts = range(0, n, batch)
        for first in firsts[:max_batches] if max_batches else firsts:
            x = train[order[first:first + batch]]
            loss = -model.elbo(x, g).mean()
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            with torch.no_grad():
                torch.maximum(model.gamma, model.gamma_floor, out=model.gamma)
        epoch_seconds.append(time.perf_counter() - start)
    start = time.perf_counter()
    iw = model.iw_loglik(test, iw_samples, g) if test.shape[0] and not max_batches else math.nan
    return epoch_seconds, iw, time.perf_counter() - start


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--hidden", default="256,512", help="comma list of hidden widths")
    p.add_argument("--latent", type=int, default=2)
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--trials", type=int, default=3)
    p.add_argument("--batch", type=int, default=100)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--iw-samples", type=int, default=100)
    p.add_argument("--fit-rows", type=int, default=60000, help="the first N images are fitted")
    p.add_argument("--test-rows", type=int, default=10000, help="the next N are held out")
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--time-batches", type=int, default=0,
                   help="timing only: each epoch stops after B batches, its seconds scaled to the "
                        "whole epoch (N / batch batches); no scoring")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    raw = bench_images_data.read(a.test_rows, a.fit_rows)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, float32; "
          f"{raw.shape[0] - a.test_rows} fitting rows x {raw.shape[1]} pixels, {a.test_rows} "
          "held out", flush=True)
    fields = ["impl", "latent", "hidden", "trial", "epochs", "train_seconds", "seconds_per_epoch",
              "first_epoch_seconds", "test_iw_loglik_per_row", "iw_samples", "test_rows",
              "score_seconds", "threads", "batches_timed", "batches_per_epoch", "fit_rows"]
    with open(a.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        for hidden in [int(h) for h in a.hidden.split(",")]:
            for trial in range(a.trials):
                seed = a.seed * 1000 + trial  # the trial's dequantisation and its fit
                train, test = (torch.from_numpy(x) for x in bench_images_data.dequantise(
                    raw, a.test_rows, seed, np.float32))
                secs, iw, score = train_one(train, test, hidden, a.latent, a.epochs, a.batch,
                                            a.lr, a.iw_samples, seed, a.time_batches)
                batches = math.ceil(train.shape[0] / a.batch)
                timed = min(a.time_batches, batches) if a.time_batches else batches
                secs = [t * batches / timed for t in secs]
                row = dict(impl="pytorch", latent=a.latent, hidden=hidden, trial=trial,
                           epochs=a.epochs, train_seconds=f"{sum(secs):.3f}",
                           seconds_per_epoch=f"{sum(secs) / len(secs):.3f}",
                           first_epoch_seconds=f"{secs[0]:.3f}",
                           test_iw_loglik_per_row=f"{iw:.4f}", iw_samples=a.iw_samples,
                           test_rows=test.shape[0], score_seconds=f"{score:.2f}",
                           threads=torch.get_num_threads(), batches_timed=timed,
                           batches_per_epoch=batches, fit_rows=train.shape[0])
                bench_images_data.emit(
                    w, f, row, f"pytorch H={hidden} trial {trial}: {row['seconds_per_epoch']} "
                    f"s/epoch, held-out IW log-lik {row['test_iw_loglik_per_row']} per row")


if __name__ == "__main__":
    main()
