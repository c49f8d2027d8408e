#!/usr/bin/env python3
"""The thesis-α subsection of docs/results.md ("Thesis §6 ..."), from the CSVs of
scripts/posterior-results.sh (python3 standard library only).

    scripts/posterior-thesis-alpha-summary.py [FOLDER [TIMES]]

FOLDER defaults to docs/data/posterior. It reads uci-sgd-thesis-alpha-kK-SET.csv (K = 1, 2, 3;
the thesis's α rule), uci-sgd-SET.csv (K = 3, evidence α and β: the section's first table), the
CLI's printed summaries uci-sgd-thesis-alpha-summaries.txt and summaries.txt (α, β of trial 0:
the CSVs have no column for them). TIMES, if given, is a log with lines "SET K=K: S s wall"
(/usr/bin/time -f "SET K=K: %e s wall") whose range is quoted. Prints the subsection in Markdown:
every number in it comes from these files. Mean ± standard error (sample standard deviation /
sqrt(n)) over the trials at a checkpoint.
"""
import csv
import math
import os
import re
import sys
import textwrap
from collections import defaultdict

SETS = ["energy", "boston", "concrete", "yacht"]
NAMES = {"energy": "Energy", "boston": "Boston", "concrete": "Concrete", "yacht": "Yacht"}
METHODS = ["sgd-em", "sgd-sga", "swag"]
KS = [1, 2, 3]
EPOCHS = [20, 50, 100, 200, 500, 1000]
LAST = 1000


def para(text):
    """A paragraph wrapped as docs/results.md wraps its prose (never inside `code`)."""
    parts = text.split("`")
    for i in range(1, len(parts), 2):
        parts[i] = parts[i].replace(" ", "\0")
    wrapped = textwrap.fill("`".join(parts), 99, break_long_words=False, break_on_hyphens=False)
    print(wrapped.replace("\0", " "))


def load(path):
    """{(method, epoch): [(trial, row), ...]} of one CSV."""
    out = defaultdict(list)
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            out[(r["method"], int(r["epoch"]))].append((int(r["trial"]), r))
    return out


def stats(rows, key):
    v = [float(r[key]) for _, r in rows]
    n = len(v)
    m = sum(v) / n
    se = math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1) / n) if n > 1 else 0.0
    return m, se


def decimals_for(m, se):
    """3 decimals from 1 up; below 1, 3 significant digits of the mean or the standard error's
    first digit, whichever needs more (at most 6)."""
    if abs(m) >= 1:
        return 3
    d = 3 if m == 0 else 2 - math.floor(math.log10(abs(m)))
    if se > 0:
        d = max(d, -math.floor(math.log10(se)))
    return min(max(d, 3), 6)


def pm(m, se):
    d = decimals_for(m, se)
    return f"{m:.{d}f} ± {se:.{d}f}"


def cell(m):
    return f"{m:.0f}" if m >= 10 else f"{m:.3f}"


def rng(values, fmt="{:.3f}"):
    lo, hi = min(values), max(values)
    a, b = fmt.format(lo), fmt.format(hi)
    return a if a == b else f"{a}–{b}"


def hyper_lines(path, mode):
    """{(set, K, epochs): (D, N_train, alpha, beta)} from the CLI's printed summary lines."""
    pat = re.compile(r"posterior (\w+): D=(\d+), N_train=(\d+), alpha=([\d.e+-]+) "
                     r"beta=([\d.e+-]+) \((\w+), trial 0\), K=(\d+), (\d+) epoch")
    out = {}
    with open(path) as f:
        for line in f:
            m = pat.match(line)
            if m and m.group(6) == mode:
                out[(m.group(1), int(m.group(7)), int(m.group(8)))] = (
                    int(m.group(2)), int(m.group(3)), float(m.group(4)), float(m.group(5)))
    return out


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "docs/data/posterior"
    times = sys.argv[2] if len(sys.argv) > 2 else None
    th = {(s, k): load(os.path.join(folder, f"uci-sgd-thesis-alpha-k{k}-{s}.csv"))
          for s in SETS for k in KS}
    ev = {s: load(os.path.join(folder, f"uci-sgd-{s}.csv")) for s in SETS}
    hth = hyper_lines(os.path.join(folder, "uci-sgd-thesis-alpha-summaries.txt"), "thesis")
    hev = hyper_lines(os.path.join(folder, "summaries.txt"), "evidence")
    trials = {len(th[(s, k)][(m, LAST)]) for s in SETS for k in KS for m in METHODS}
    assert trials == {10}, trials

    def mean(data, m, e, key="rel_cov_dist"):
        return stats(data[(m, e)], key)[0]

    secs = []
    if times:
        with open(times) as f:
            for line in f:
                m = re.search(r"K=\d: ([\d.]+) s wall", line)
                if m:
                    secs.append(float(m.group(1)))
        assert len(secs) == len(SETS) * len(KS), secs
    p = print
    p("### With the thesis's own α rule, K = 1, 2, 3")
    p()
    para("The thesis sets α and β from the data (§6.1): \"β is just the reciprocal of the variance "
      "of the target variable\" and \"In order to balance the effect of the prior term and the "
      "data term, α was set to 0.01 times the mean of the diagonal entries of "
      "β Σ_{n=1}^N x_n x_nᵀ\". `--hyper thesis` (`thesisHyperparameters` in "
      "`core/vi/ExactPosterior.cpp`) computes that on the training half: β = 1/var(y), the "
      "variance with 1/N, and α = 0.01 β mean_j Σ_n x_nj². On this section's data (inputs and "
      "target standardised with the training half's statistics, a bias column of ones) var(y) = "
      "1 and every diagonal entry of Σ x xᵀ is N_train, so the rule gives β = 1 and "
      "α = 0.01 N_train in every trial. The CLI prints trial 0's values (the CSVs have no column "
      "for them); beside them, the evidence values of the runs above:")
    p()
    p("| data set | D | training rows | thesis rule: α | β | λ = α/β | evidence (above): α | β | λ |")
    p("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for s in SETS:
        vals = {hth[(s, k, LAST)] for k in KS}
        assert len(vals) == 1, vals  # K does not change the data or the rule
        d, n, a, b = vals.pop()
        _, _, ae, be = hev[(s, 3, LAST)]
        p(f"| {NAMES[s]} | {d} | {n} | {a:g} | {b:g} | {a / b:g} | {ae:.2f} | {be:.2f} | "
          f"{ae / be:.2f} |")
    p()
    para("Everything else is what the thesis gives and the CLI's default: 1000 epochs of SGD in "
      "batches of 32 on the loss with λ = α/β, 10 warm-up epochs before the iterates reach the "
      "fitters (`--warmup-epochs 10`), F and ψ fixed for the fitters' first 100 updates "
      "(`--fa-warmup 100`), online SGA's step 0.001, the distances every 10 epochs, K = 1, 2, 3, "
      "10 trials. The thesis does not give SGD's step; we keep η = 0.01, as above. Nor does it "
      "say whether it standardised or split the data; we keep this section's standardisation and "
      "50/50 split, so the posterior is the training half's and each trial draws its own split, "
      "where the thesis's trials differ only in the seed \"for initialising the weights of the "
      "linear model and also initialising the parameters of the FA models\". From "
      "`scripts/posterior-results.sh` (CSVs `docs/data/posterior/uci-sgd-thesis-alpha-kK-D.csv`, "
      "the CLI's printed summaries in `docs/data/posterior/uci-sgd-thesis-alpha-summaries.txt`; "
      "the tables and every number in the text below by "
      "`scripts/posterior-thesis-alpha-summary.py`), run on 2026-11-26 on Intel Xeon (Sapphire "
      "Rapids), 2 cores, one thread:")
    p()
    p("```sh")
    p("faexplorer-cli posterior --dataset D --hyper thesis --latent K --method sgd-em,sgd-sga,swag \\")
    p("    --epochs 1000 --every 10 --trials 10 --threads 1 \\")
    p("    --out docs/data/posterior/uci-sgd-thesis-alpha-kK-D.csv")
    p("```")
    p()
    if secs:
        para(f"Each run (10 trials) took {rng(secs, '{:.2f}')} s wall.")
        p()
    # --- epoch 1000 ----------------------------------------------------------------------
    para(f"Distances to the exact posterior N(m, S) at epoch {LAST}, mean ± standard error over 10 "
      "trials; ok: trials whose fit has status `ok` there:")
    p()
    p("| data set | K | method | rel. mean distance | rel. covariance distance | W2 | W2 / D | ok |")
    p("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for s in SETS:
        for k in KS:
            for m in METHODS:
                rows = th[(s, k)][(m, LAST)]
                ok = sum(1 for _, r in rows if r["status"] == "ok")
                cols = [pm(*stats(rows, c)) for c in
                        ("rel_mean_dist", "rel_cov_dist", "w2", "w2_over_dim")]
                p(f"| {NAMES[s]} | {k} | {m} | " + " | ".join(cols) + f" | {ok}/{len(rows)} |")
    p()
    # --- over the epochs -----------------------------------------------------------------
    para("Relative covariance distance over the epochs, mean over the 10 trials, each cell "
      "K = 1 / 2 / 3 (ʷ: online EM and SGA still in their warm-up in all 10 trials, so the "
      "covariance is their start's, F₀F₀ᵀ + I):")
    p()
    p("| data set | method | " + " | ".join(f"epoch {e}" for e in EPOCHS) + " |")
    p("| --- | --- | " + " | ".join("---" for _ in EPOCHS) + " |")
    for s in SETS:
        for m in METHODS:
            cells = []
            for e in EPOCHS:
                parts = []
                for k in KS:
                    rows = th[(s, k)][(m, e)]
                    w = "ʷ" if all(r["status"] == "warmup" for _, r in rows) else ""
                    parts.append(cell(stats(rows, "rel_cov_dist")[0]) + w)
                cells.append(" / ".join(parts))
            p(f"| {NAMES[s]} | {m} | " + " | ".join(cells) + " |")
    p()
    # --- numbers quoted in the text ------------------------------------------------------
    # The three methods watch one SGD run, whose seed does not depend on K: one mean distance.
    mean_th, mean_ev = {}, {}
    for s in SETS:
        vals = {round(mean(th[(s, k)], m, LAST, "rel_mean_dist"), 12) for k in KS
                for m in METHODS}
        assert len(vals) == 1, (s, vals)
        mean_th[s] = vals.pop()
        mean_ev[s] = mean(ev[s], "sgd-em", LAST, "rel_mean_dist")
    em_swag_th = [mean(th[(s, k)], m, LAST) for s in SETS for k in KS for m in ("sgd-em", "swag")]
    em_swag_ev = [mean(ev[s], m, LAST) for s in SETS for m in ("sgd-em", "swag")]

    def k_spread(methods):
        return max(max(mean(th[(s, k)], m, LAST) for k in KS) -
                   min(mean(th[(s, k)], m, LAST) for k in KS) for s in SETS for m in methods)

    sga_last = {s: [mean(th[(s, k)], "sgd-sga", LAST) for k in KS] for s in SETS}
    sga_ev = {s: mean(ev[s], "sgd-sga", LAST) for s in SETS}
    sga_first = [mean(th[(s, k)], "sgd-sga", 20) for s in SETS for k in KS]
    epochs_all = sorted(e for (m, e) in th[("energy", 1)] if m == "sgd-sga")

    def lowest(data, m):
        return min((mean(data, m, e), e) for e in epochs_all
                   if all(r["status"] == "ok" for _, r in data[(m, e)]))

    sga_low = {s: [lowest(th[(s, k)], "sgd-sga") for k in KS] for s in ("energy", "concrete")}
    swag_low = [lowest(th[("concrete", k)], "swag") for k in KS]
    swag_low_ev = lowest(ev["concrete"], "swag")
    # Concrete, K = 3, trial by trial (trial 0 is the window's run of the preset).
    c3 = th[("concrete", 3)]

    def trial_curve(m, t, key="rel_cov_dist"):
        return [(float(r[key]), e) for e in epochs_all for tt, r in c3[(m, e)]
                if tt == t and r["status"] == "ok"]

    swag_trial_low = [min(trial_curve("swag", t)) for t in range(10)]
    swag_trial_last = [trial_curve("swag", t)[-1][0] for t in range(10)]
    t0 = {m: (min(trial_curve(m, 0)), trial_curve(m, 0)[-1][0]) for m in METHODS}
    t0_mean150 = [float(r["rel_mean_dist"]) for tt, r in c3[("swag", 150)] if tt == 0][0]
    beta_ev = [hev[(s, 3, LAST)][3] for s in SETS]
    # A = αI + βXᵀX: both smaller than the evidence's on every set, so S = A⁻¹ is wider.
    for s in SETS:
        _, _, a, b = hth[(s, 1, LAST)]
        _, _, ae, be = hev[(s, 3, LAST)]
        assert a < ae and b < be, s

    def low_text(lows):
        return (f"{rng([v for v, _ in lows])} near epoch "
                f"{rng([e for _, e in lows], '{}')}")

    def per_set(d, fmt="{:.3f}"):
        return ", ".join(f"{NAMES[s]} {fmt.format(d[s])}" for s in SETS)

    para(f"Online EM and SWAG end at {rng(em_swag_th)} on every set and K (with the evidence α, β, "
      f"K = 3: {rng(em_swag_ev)}). The rule's β = 1 says that the noise carries all of the "
      f"target's variance, as if the inputs explained nothing; the evidence put the noise "
      f"precision at {rng(beta_ev, '{:.1f}')}. With α also below the evidence's on every set, "
      f"the thesis's S = (αI + βΣ x xᵀ)⁻¹ is wider in every direction, and the iterate cloud, whose spread is set by SGD's step and batch, is smaller still against "
      f"it. K hardly matters: no mean of online EM or SWAG moves by more than "
      f"{k_spread(['sgd-em', 'swag']):.3f} between K = 1 and 3 (online SGA's by up to "
      f"{k_spread(['sgd-sga']):.3f}). A fit at the iterates' scale is wrong in size, not in the "
      f"number of directions it holds, and more factors do not fix that.")
    p()
    para(f"The running mean ends at a relative distance of {per_set(mean_th)} from m, for every K "
      f"and method (the three watch one SGD run, whose seed does not depend on K); the evidence "
      f"runs gave {per_set(mean_ev)}. The two set-ups have different λ and hence different m, "
      f"so these pairs compare two problems, not two runs of one.")
    p()
    para(f"Online SGA starts from ψ = 1 (distance {rng(sga_first, '{:.0f}')} at epoch 20) and "
      f"shrinks at its step 0.001. Against the wider S it ends near 1: "
      f"{rng(sga_last['boston'])} on Boston and {rng(sga_last['yacht'])} on Yacht at epoch "
      f"{LAST} (with the evidence α, β: {sga_ev['boston']:.3f} and {sga_ev['yacht']:.3f}), "
      f"{rng(sga_last['energy'])} on Energy and {rng(sga_last['concrete'])} on Concrete (there "
      f"{sga_ev['energy']:.3f} and {sga_ev['concrete']:.3f}). On Energy and Concrete its distance "
      f"is lowest on the way down, {low_text(sga_low['energy'])} and "
      f"{low_text(sga_low['concrete'])} (means over the trials, K = 1–3), and then rises again: "
      f"it passes the size of S on its way down to the iterates' spread (our reading). That lowest "
      f"point is a crossing, not a fit.")
    p()
    para(f"SWAG on Concrete dips to {low_text(swag_low)} (K = 1–3) and climbs back; trial by trial "
      f"(K = 3) the lowest point is {rng([v for v, _ in swag_trial_low], '{:.2f}')} "
      f"(at epochs {rng([e for _, e in swag_trial_low], '{}')}), and every trial ends at "
      f"{rng(swag_trial_last, '{:.2f}')}. The evidence runs show the same dip "
      f"({swag_low_ev[0]:.3f} near epoch {swag_low_ev[1]}). Our reading: while SGD is still "
      f"travelling towards the optimum along the posterior's long axes (in trial 0 the running "
      f"mean is still {t0_mean150:.2f} ‖m‖ away at epoch 150), SWAG's running second moment "
      f"holds that drift and is, for a while, about as wide as S; as the drift is averaged away "
      f"it shrinks to the iterates' spread. In trial 0 (the preset's run below) SWAG is lowest "
      f"at {t0['swag'][0][0]:.2f} (epoch {t0['swag'][0][1]}) and ends at {t0['swag'][1]:.2f}, "
      f"online SGA is lowest at {t0['sgd-sga'][0][0]:.2f} (epoch {t0['sgd-sga'][0][1]}) and ends "
      f"at {t0['sgd-sga'][1]:.2f}, online EM stays at {t0['sgd-em'][0][0]:.2f}–"
      f"{max(v for v, _ in trial_curve('sgd-em', 0)):.2f} from its warm-up on.")
    p()
    para("The thesis gives no numbers to set beside these: in our copy (the seed "
      "`thesis-online-fa.md`, a draft) §6.2 \"Results\" is an empty heading, and the abstract "
      "and the conclusions are still the template's. These are our results for its §6.1 method, "
      "not a reproduction of its results.")

if __name__ == "__main__":
    main()
