// The Gibbs sampler's joint normal-inverse-χ² draw of (f_d, c_d, ψ_d) under the slides'
// improper prior p ∝ Π ψ_d⁻¹ and the conjugate prior (docs/maths/latent.md §2.5), against
// independent references: with the latents Z fixed the block's conditional is the whole posterior
// of a Bayesian linear regression, so (1) Bayes' rule (likelihood × prior ÷ the stated posterior is
// the same at every (w, ψ)), (2) the textbook closed forms (improper: least squares, σ² ~
// scaled-inv-χ²(N − K − 1, s²), w ~ t; conjugate: the normal-inverse-χ² update written out
// here) and 40,000 draws against their moments. Then the whole sampler on generated FA data
// against batch EM's maximum likelihood, the floor in a Heywood column, and the refusals.
#include "core/latent/FaBatchEm.h"
#include "core/latent/FaGibbs.h"
#include "tests/support/ConvergedEm.h"
#include "tests/support/TestModels.h"

#include <QtTest>
#include <cmath>
#include <numbers>

using namespace fa;

namespace {
struct Regression {
    Matrix zt; ///< Z̃ = [Z, 1]
    Matrix Z, X;
    Vector variances;
};

Regression makeRegression(int n, int k, int dim, std::uint64_t seed) {
    Rng r(seed);
    Regression g;
    g.Z = r.normalMatrix(n, k);
    g.zt = Matrix(n, k + 1);
    g.zt << g.Z, Vector::Ones(n);
    const Matrix w = r.normalMatrix(k + 1, dim) * 2.0;
    g.X = g.zt * w + r.normalMatrix(n, dim) * 0.7;
    g.X.col(0) *= 5.0; // columns of different scales
    const Matrix centred = g.X.rowwise() - g.X.colwise().mean();
    g.variances = centred.colwise().squaredNorm().transpose() / double(n);
    return g;
}

/// The reference posterior of one column: w ~ t_ν(mean, s² V) marginally, ψ ~ scaled-inv-χ²(ν, s²),
/// w | ψ ~ N(mean, ψ V).
struct Reference {
    Vector mean;
    Matrix V;
    double dof, s2;
};

/// 40,000 joint draws of every column against the reference moments, each within 4.5 standard
/// errors: E ψ, E 1/ψ and Var 1/ψ (1/ψ = χ²_ν/(ν s²)), E w and Var w (the t marginal), and
/// E[(w − mean)(w − mean)ᵀ/ψ] = V (w | ψ is normal with covariance ψ V).
void checkDraws(const gibbs::RowPosterior& p, const std::vector<Reference>& refs) {
    const int draws = 40000;
    const Eigen::Index dim = p.means.cols(), k = p.means.rows() - 1;
    Rng rng(77);
    Matrix F(dim, k);
    Vector c(dim), psi(dim);
    std::vector<std::vector<double>> psis(dim), ws(dim * (k + 1));
    std::vector<Matrix> scaled(dim, Matrix::Zero(k + 1, k + 1));
    for (int t = 0; t < draws; ++t) {
        QVERIFY(gibbs::drawJointRows(p, Vector::Zero(dim), rng, F, c, psi).empty());
        for (Eigen::Index d = 0; d < dim; ++d) {
            Vector w(k + 1);
            w << F.row(d).transpose(), c(d);
            psis[d].push_back(psi(d));
            for (Eigen::Index j = 0; j <= k; ++j)
                ws[d * (k + 1) + j].push_back(w(j));
            const Vector e = w - refs[d].mean;
            scaled[d] += e * e.transpose() / psi(d);
        }
    }
    auto meanVar = [](const std::vector<double>& v, auto f) {
        double s = 0.0, s2 = 0.0;
        for (double x : v)
            s += f(x), s2 += f(x) * f(x);
        const double m = s / double(v.size());
        return std::pair{m, s2 / double(v.size()) - m * m};
    };
    auto near = [&](double got, double want, double se, const char* what) {
        QVERIFY2(std::abs(got - want) < 4.5 * se, qPrintable(QString("%1: %2 against %3 (%4 se)")
                                                                 .arg(what)
                                                                 .arg(got)
                                                                 .arg(want)
                                                                 .arg((got - want) / se)));
    };
    const double m = draws;
    for (Eigen::Index d = 0; d < dim; ++d) {
        const double nu = refs[d].dof, s2 = refs[d].s2;
        const double varPsi = 2 * nu * nu * s2 * s2 / ((nu - 2) * (nu - 2) * (nu - 4));
        near(meanVar(psis[d], [](double x) { return x; }).first, nu * s2 / (nu - 2),
             std::sqrt(varPsi / m), "E psi");
        const auto [mInv, vInv] = meanVar(psis[d], [](double x) { return 1.0 / x; });
        const double scale = nu * s2, mu2 = 2 * nu / (scale * scale);
        const double mu4 = (12 * nu * nu + 48 * nu) / std::pow(scale, 4);
        near(mInv, 1.0 / s2, std::sqrt(mu2 / m), "E 1/psi");
        near(vInv, mu2, std::sqrt((mu4 - mu2 * mu2) / m), "Var 1/psi");
        for (Eigen::Index j = 0; j <= k; ++j) {
            const double var = nu / (nu - 2) * s2 * refs[d].V(j, j);
            const auto [mw, vw] = meanVar(ws[d * (k + 1) + j], [](double x) { return x; });
            near(mw, refs[d].mean(j), std::sqrt(var / m), "E w");
            // Var of the sample variance of a t_ν: (μ4 − σ⁴)/M, μ4 = σ⁴ (3 + 6/(ν − 4)).
            near(vw, var, var * std::sqrt((2 + 6 / (nu - 4)) / m), "Var w");
            for (Eigen::Index i = 0; i <= k; ++i) {
                const Matrix& V = refs[d].V;
                near(scaled[d](i, j) / m, V(i, j),
                     std::sqrt((V(i, i) * V(j, j) + V(i, j) * V(i, j)) / m), "E[e e'/psi]");
            }
        }
    }
}

/// log p(x_d | w, ψ) + log prior(w, ψ) − log posterior(w, ψ) at several (w, ψ): Bayes' rule says
/// it is the log evidence, the same everywhere.
void checkBayesRule(const Regression& g, const gibbs::RowPosterior& p, FaPrior prior,
                    const ConjugateHyper& h) {
    const Eigen::Index n = g.X.rows(), k = g.Z.cols();
    const Matrix lambda = p.precision.reconstructedMatrix();
    const double logDetLambda = std::log(lambda.determinant()),
                 log2pi = std::log(2 * std::numbers::pi);
    Rng r(5);
    for (Eigen::Index d = 0; d < g.X.cols(); ++d) {
        const double nu = p.dof, s2 = p.scale(d), tau2 = h.tau0 * g.variances(d);
        auto gap = [&](const Vector& w, double psi) {
            const double loglik = -0.5 * (double(n) * std::log(2 * std::numbers::pi * psi) +
                                          (g.X.col(d) - g.zt * w).squaredNorm() / psi);
            const double logPrior =
                prior == FaPrior::Jeffreys
                    ? -std::log(psi)
                    : -(h.nu0 / 2 + 1 + double(k) / 2) * std::log(psi) -
                          (h.nu0 * tau2 + h.lambda0 * w.head(k).squaredNorm()) / (2 * psi);
            const Vector e = w - p.means.col(d);
            const double logPost = nu / 2 * std::log(nu * s2 / 2) - std::lgamma(nu / 2) -
                                   (nu / 2 + 1) * std::log(psi) - nu * s2 / (2 * psi) -
                                   0.5 * double(k + 1) * (log2pi + std::log(psi)) +
                                   0.5 * logDetLambda - e.dot(lambda * e) / (2 * psi);
            return loglik + logPrior - logPost;
        };
        const double reference = gap(p.means.col(d), s2);
        for (double psi : {0.2 * s2, 0.7 * s2, 3.0 * s2}) {
            const Vector w = p.means.col(d) + r.normalMatrix(k + 1, 1).col(0) * std::sqrt(s2);
            QVERIFY2(std::abs(gap(w, psi) - reference) < 1e-8 * (1 + std::abs(reference)),
                     qPrintable(QString::number(gap(w, psi) - reference)));
        }
    }
}
} // namespace

class TestFaGibbsPrior : public QObject {
    Q_OBJECT
  private slots:
    // Improper prior, Z fixed: least squares by QR, s² = RSS/(N − K − 1), V = (Z̃ᵀZ̃)⁻¹ by LU.
    void improperBlockIsTheRegressionPosterior() {
        const int n = 30, k = 2;
        const Regression g = makeRegression(n, k, 3, 41);
        const auto p = gibbs::jointRowPosterior(g.Z, g.X, g.variances, FaPrior::Jeffreys, {});
        QVERIFY(p.valid);
        QCOMPARE(p.dof, double(n - k - 1));
        checkBayesRule(g, p, FaPrior::Jeffreys, {});
        const Matrix V = (g.zt.transpose() * g.zt).fullPivLu().inverse();
        std::vector<Reference> refs;
        for (Eigen::Index d = 0; d < 3; ++d) {
            const Vector w = g.zt.colPivHouseholderQr().solve(g.X.col(d));
            refs.push_back({w, V, double(n - k - 1),
                            (g.X.col(d) - g.zt * w).squaredNorm() / double(n - k - 1)});
        }
        checkDraws(p, refs);
    }

    // Conjugate prior, Z fixed, N = 12 so that the prior matters. The normal-inverse-χ² update
    // with prior mean 0 and precision Λ₀ = diag(λ₀ I_K, 0) (c flat): Λ_N = Λ₀ + Z̃ᵀZ̃,
    // μ_N = Λ_N⁻¹ Z̃ᵀx, ν_N = ν₀ + N − 1 (the flat c has no ψ^{-1/2} in the prior's normaliser,
    // so integrating w's K + 1 coordinates takes one degree), ν_N s_N² = ν₀ τ² + xᵀx − μ_NᵀΛ_Nμ_N.
    void conjugateBlockIsTheNormalInverseChiSquaredUpdate() {
        const int n = 12, k = 2;
        const Regression g = makeRegression(n, k, 3, 42);
        const ConjugateHyper h{4.0, 0.5, 3.0};
        const auto p = gibbs::jointRowPosterior(g.Z, g.X, g.variances, FaPrior::Conjugate, h);
        QVERIFY(p.valid);
        checkBayesRule(g, p, FaPrior::Conjugate, h);
        Matrix lambdaN = g.zt.transpose() * g.zt;
        lambdaN.diagonal().head(k).array() += h.lambda0;
        const Matrix V = lambdaN.fullPivLu().inverse();
        const double nuN = h.nu0 + n - 1;
        std::vector<Reference> refs;
        for (Eigen::Index d = 0; d < 3; ++d) {
            const Vector x = g.X.col(d), mu = V * (g.zt.transpose() * x);
            const double ss = h.nu0 * h.tau0 * g.variances(d) + x.dot(x) - mu.dot(lambdaN * mu);
            refs.push_back({mu, V, nuN, ss / nuN});
            QVERIFY((p.means.col(d) - mu).norm() < 1e-10 * mu.norm());
        }
        checkDraws(p, refs);
    }

    // A column that Z̃ explains exactly has no residual: ψ_d would be 0 under the improper prior.
    // The draw stops at the floor, reports the column, and every number stays finite.
    void aColumnWithoutResidualStopsAtTheFloor() {
        Regression g = makeRegression(20, 2, 3, 43);
        g.X.col(1) = g.zt * Vector::Constant(3, 1.5);
        const auto p = gibbs::jointRowPosterior(g.Z, g.X, g.variances, FaPrior::Jeffreys, {});
        const Vector floor = 1e-6 * g.variances;
        Rng rng(3);
        Matrix F(3, 2);
        Vector c(3), psi(3);
        const auto clamped = gibbs::drawJointRows(p, floor, rng, F, c, psi);
        QCOMPARE(clamped, std::vector<Eigen::Index>{1});
        QCOMPARE(psi(1), floor(1));
        QVERIFY(F.allFinite() && c.allFinite() && psi.allFinite());
        QVERIFY(psi(0) > floor(0) && psi(2) > floor(2));
    }

    // The whole sampler under the improper prior on N = 1500 rows of a D = 6, K = 2 model, 4
    // chains × 1500 kept sweeps: the posterior mean of C within 2 % of batch EM's maximum
    // likelihood (Frobenius, relative) and every variance within 1.5 %, split-R̂ < 1.1 on every
    // entry, no floor reached. The conjugate prior's run lands within 2 % of EM's MAP fit.
    void improperSamplerAgreesWithMaximumLikelihood() {
        const FAModel truth = test::makeModel(6, 2, 44);
        const Matrix X = test::drawRows(truth, 1500, 45);
        for (const FaPrior prior : {FaPrior::Jeffreys, FaPrior::Conjugate}) {
            const Matrix emC =
                test::convergedEm(X, 2, prior == FaPrior::Conjugate ? prior : FaPrior::None)
                    .model()
                    .denseCovariance();
            FaGibbsOptions o;
            o.latent = 2;
            o.burnIn = 300;
            o.seed = 46;
            o.prior = prior;
            FaGibbs gibbs(X, o);
            for (int s = 0; s < 1800; ++s)
                gibbs.sweep();
            const Matrix meanC = gibbs.meanCovariance();
            const double distance = (meanC - emC).norm() / emC.norm();
            QVERIFY2(distance < 0.02, qPrintable(QString::number(distance)));
            for (Eigen::Index d = 0; d < 6; ++d)
                QVERIFY2(std::abs(meanC(d, d) / emC(d, d) - 1.0) < 0.015,
                         qPrintable(QString::number(meanC(d, d) / emC(d, d) - 1.0)));
            double maxRhat = 0.0;
            for (const GibbsEntrySummary& s : gibbs.summary())
                maxRhat = std::max(maxRhat, s.rhat);
            QVERIFY2(maxRhat < 1.1, qPrintable(QString::number(maxRhat)));
            QVERIFY(gibbs.flooredColumns().empty());
            QCOMPARE(gibbs.status(), FitStatus::Running);
            qInfo("%s: |mean C - EM C| / |EM C| = %.4f, max split-R-hat %.3f",
                  prior == FaPrior::Jeffreys ? "improper" : "conjugate", distance, maxRhat);
        }
    }

    // Maximum likelihood is not a prior a sampler can draw from; the conjugate prior needs
    // positive hyperparameters; the independent prior is EM's to refuse.
    void refusals() {
        const Matrix X = test::drawRows(test::makeModel(5, 1, 47), 60, 48);
        auto refuses = [&](const FaGibbsOptions& o) {
            try {
                FaGibbs g(X, o);
            } catch (const std::invalid_argument&) {
                return true;
            }
            return false;
        };
        FaGibbsOptions o;
        o.latent = 1;
        QVERIFY(!refuses(o));
        o.prior = FaPrior::None;
        QVERIFY(refuses(o));
        o.prior = FaPrior::Conjugate;
        o.conjugate.nu0 = 0.0;
        QVERIFY(refuses(o));
        FaEmOptions eo;
        eo.latent = 1;
        eo.prior = FaPrior::Independent;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FaBatchEm(X, eo));
    }
};

QTEST_APPLESS_MAIN(TestFaGibbsPrior)
#include "test_fa_gibbs_prior.moc"
