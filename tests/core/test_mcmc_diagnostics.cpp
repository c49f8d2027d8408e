// Split-R̂ and ESS against a value worked by hand and against closed forms: the ESS of an AR(1)
// chain, M n (1 - φ) / (1 + φ), and of independent draws, M n; R̂ near 1 for agreeing chains and
// far above for chains around different means.
#include "core/latent/McmcDiagnostics.h"
#include "core/math/Rng.h"

#include <QtTest>

#include <cmath>

using namespace fa;

namespace {
std::vector<std::vector<double>> ar1(int chains, int n, double phi, std::uint64_t seed,
                                     double shiftPerChain = 0.0) {
    Rng rng(seed);
    std::vector<std::vector<double>> out(static_cast<std::size_t>(chains));
    for (int c = 0; c < chains; ++c) {
        double x = rng.normal() / std::sqrt(1.0 - phi * phi); // the stationary start
        for (int i = 0; i < n; ++i) {
            x = phi * x + rng.normal();
            out[static_cast<std::size_t>(c)].push_back(x + shiftPerChain * c);
        }
    }
    return out;
}
} // namespace

class TestMcmcDiagnostics : public QObject {
    Q_OBJECT
  private slots:
    void splitRhatByHand() {
        // Halves {1,2} {3,4} {5,6} {7,8}: W = 0.5, half means 1.5 3.5 5.5 7.5 with variance 20/3,
        // B = 2 · 20/3, var⁺ = ½ · 0.5 + B/2 = 83/12, R̂ = √(83/6) = 3.7193...
        QVERIFY(std::abs(splitRhat({{1, 2, 3, 4}, {5, 6, 7, 8}}) - std::sqrt(83.0 / 6.0)) < 1e-14);
    }
    void rhatSeparatesAgreeingChains() {
        QVERIFY(splitRhat(ar1(4, 4000, 0.0, 1)) < 1.01);
        QVERIFY(splitRhat(ar1(4, 4000, 0.0, 2, 3.0)) > 1.5);
        // A trend inside each chain is what the split catches: first half below, second above.
        auto drifting = ar1(2, 2000, 0.0, 3);
        for (auto& c : drifting)
            for (std::size_t i = 1000; i < c.size(); ++i)
                c[i] += 2.0;
        QVERIFY(splitRhat(drifting) > 1.2);
    }
    void essMatchesClosedForms() {
        // AR(1), φ = 0.9, 4 x 20000: M n (1 - φ)/(1 + φ) = 4210.5 (docs/maths/latent.md §2.4: a
        // reference implementation measured 4226 with its own draws); independent draws, 4 x 5000:
        // 20000. Within 10 %.
        const double ar = effectiveSampleSize(ar1(4, 20000, 0.9, 4));
        QVERIFY2(std::abs(ar / 4210.5 - 1.0) < 0.1, qPrintable(QString::number(ar)));
        const double iid = effectiveSampleSize(ar1(4, 5000, 0.0, 5));
        QVERIFY2(std::abs(iid / 20000.0 - 1.0) < 0.1, qPrintable(QString::number(iid)));
        // One chain (B = 0; it was 0 / 0 and gave n): AR(1), φ = 0.9, 40000 draws:
        // n (1 - φ)/(1 + φ) = 2105.
        const double one = effectiveSampleSize(ar1(1, 40000, 0.9, 6));
        QVERIFY2(std::abs(one / 2105.3 - 1.0) < 0.15, qPrintable(QString::number(one)));
        // Antithetic chains (φ = -0.95) would give τ < 0: ESS is bounded by M n log10(M n).
        const double anti = effectiveSampleSize(ar1(4, 2000, -0.95, 7));
        QVERIFY(anti > 0.0 && anti <= 8000.0 * std::log10(8000.0) * (1 + 1e-12));
    }
    void refusesUnusableChains() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, splitRhat({{1, 2, 3}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 effectiveSampleSize({{1, 2, 3, 4}, {1, 2, 3}}));
    }
};

QTEST_APPLESS_MAIN(TestMcmcDiagnostics)
#include "test_mcmc_diagnostics.moc"
