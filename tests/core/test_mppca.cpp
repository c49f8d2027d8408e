// The mixture of PPCA against independent references: the log-likelihood against dense
// Gaussian densities summed in long double, the responsibilities against Bayes' rule, one
// component against the PPCA closed form, monotone EM that finds three generated lines, and a
// collapsing component re-seeded with everything finite.
#include "core/models/Mppca.h"
#include "tests/support/DenseReference.h"

#include <QtTest>
#include <cmath>
#include <limits>

using namespace fa;

namespace {
/// log Σ_c π_c N(x; μ_c, W_c W_cᵀ + σ_c² I) from dense covariances.
Vector denseMixtureLogDensity(const std::vector<MppcaComponent>& comps, const Matrix& X,
                              Matrix* responsibilities = nullptr) {
    Vector out(X.rows());
    if (responsibilities)
        responsibilities->resize(X.rows(), Eigen::Index(comps.size()));
    for (Eigen::Index n = 0; n < X.rows(); ++n) {
        std::vector<long double> joint;
        long double total = 0.0L;
        for (const MppcaComponent& c : comps) {
            Matrix C = c.ppca.W * c.ppca.W.transpose();
            C.diagonal().array() += c.ppca.sigma2;
            joint.push_back(c.weight * std::exp(static_cast<long double>(test::denseLogDensity(
                                           X.row(n).transpose(), c.ppca.mu, C))));
            total += joint.back();
        }
        out(n) = static_cast<double>(std::log(total));
        if (responsibilities)
            for (std::size_t c = 0; c < comps.size(); ++c)
                (*responsibilities)(n, Eigen::Index(c)) = static_cast<double>(joint[c] / total);
    }
    return out;
}
} // namespace

class TestMppca : public QObject {
    Q_OBJECT
  private slots:
    // C = 1: the k-means start's one M step is the closed form on S, so the fit equals
    // ppcaClosedForm (compared through the covariance, which ignores W's signs).
    void oneComponentIsPpca() {
        std::vector<MppcaComponent> truth;
        const Matrix X = mixtureOfPieces(6, 1, 2, 800, 0.3, 41, &truth);
        MppcaOptions o;
        o.components = 1;
        o.latent = 2;
        Mppca mix(X, o);
        const PpcaModel ref = ppcaClosedForm(X, 2);
        for (int t = 0; t < 3; ++t) {
            const PpcaModel& p = mix.components()[0].ppca;
            QVERIFY(std::abs(p.sigma2 - ref.sigma2) < 1e-12 * ref.sigma2);
            QVERIFY((p.W * p.W.transpose() - ref.W * ref.W.transpose()).norm() < 1e-11);
            QVERIFY((p.mu - ref.mu).norm() < 1e-12);
            QVERIFY(std::abs(mix.loglikPerRow() - ppcaLoglikPerRow(ref, X)) < 1e-12);
            mix.iterate();
        }
    }

    // ℓ per row and r_nc against dense densities over the first 30 iterations.
    void loglikAndResponsibilitiesAreDense() {
        const Matrix X = mixtureOfPieces(3, 3, 1, 600, 0.05, 42);
        MppcaOptions o;
        o.components = 3;
        o.latent = 1;
        o.seed = 1;
        Mppca mix(X, o);
        for (int t = 0; t < 30; ++t) {
            Matrix denseR;
            const Vector denseRows = denseMixtureLogDensity(mix.components(), X, &denseR);
            const double dense = denseRows.mean();
            QVERIFY(std::abs(mix.loglikPerRow() - dense) < 1e-12 * (1.0 + std::abs(dense)));
            const Matrix r = mix.responsibilities(X);
            QVERIFY((r - denseR).cwiseAbs().maxCoeff() < 1e-12);
            // r = exp(a - logsumexp a) carries the rounding of a (of order |ℓ_n|) into each
            // entry: the row sums miss 1 by a few ε (1 + |ℓ_n|), so 16 ε (1 + max |ℓ_n|).
            const double sumTol = 16 * std::numeric_limits<double>::epsilon() *
                                  (1.0 + denseRows.cwiseAbs().maxCoeff());
            QVERIFY((r.rowwise().sum().array() - 1.0).abs().maxCoeff() < sumTol);
            mix.iterate();
        }
    }

    // Three noisy lines in 3-D: ℓ never falls over 300 iterations, and every generating line is
    // found: a fitted component with its centre within 0.2, weight within 0.05 and direction
    // within 2 degrees.
    void findsThreeLinesMonotonically() {
        std::vector<MppcaComponent> truth;
        const Matrix X = mixtureOfPieces(3, 3, 1, 3000, 0.01, 43, &truth);
        MppcaOptions o;
        o.components = 3;
        o.latent = 1;
        o.seed = 2;
        Mppca mix(X, o);
        double previous = -INFINITY;
        for (int t = 0; t < 300; ++t) {
            const double l = mix.iterate();
            QVERIFY2(l >= previous - 1e-12, qPrintable(QString::number(l - previous)));
            previous = l;
        }
        QCOMPARE(mix.reseeded(), 0);
        for (const MppcaComponent& t : truth) {
            bool found = false;
            for (const MppcaComponent& f : mix.components()) {
                const double cosine =
                    std::abs(t.ppca.W.col(0).normalized().dot(f.ppca.W.col(0).normalized()));
                found |= (t.ppca.mu - f.ppca.mu).norm() < 0.2 &&
                         std::abs(t.weight - f.weight) < 0.05 &&
                         cosine > std::cos(2.0 * M_PI / 180.0);
            }
            QVERIFY(found);
        }
        // The overall moments are Σ π_c (C_c + μ_c μ_cᵀ) - μ̄ μ̄ᵀ: near the sample moments.
        Vector mean;
        Matrix cov;
        mix.moments(mean, cov);
        const Matrix centred = X.rowwise() - X.colwise().mean();
        const Matrix S = centred.transpose() * centred / double(X.rows());
        QVERIFY((mean - X.colwise().mean().transpose()).norm() < 1e-8);
        QVERIFY((cov - S).norm() < 0.02 * S.norm());
    }

    // Two identical far-away rows beside a line: a component that takes them alone would drive
    // σ² to 0 and ℓ to infinity. The floor holds it, or it is re-seeded; nothing is NaN.
    void collapseIsFlooredOrReseeded() {
        Matrix X = mixtureOfPieces(3, 1, 1, 300, 0.05, 44);
        X.row(0) = Eigen::RowVector3d(40.0, 40.0, 40.0);
        X.row(1) = X.row(0);
        X.row(2) = Eigen::RowVector3d(-40.0, 40.0, 40.0);
        MppcaOptions o;
        o.components = 4;
        o.latent = 1;
        Mppca mix(X, o);
        for (int t = 0; t < 100; ++t)
            QVERIFY(std::isfinite(mix.iterate()));
        QVERIFY(mix.reseeded() > 0 || mix.floored());
        QVERIFY(std::isfinite(mix.loglikPerRow()));
        for (const MppcaComponent& c : mix.components())
            QVERIFY(c.ppca.W.allFinite() && c.ppca.sigma2 > 0.0 && c.weight > 0.0);
    }

    void refusesBadShapes() {
        const Matrix X = mixtureOfPieces(3, 2, 1, 20, 0.1, 45);
        auto refuses = [&](int components, int latent, const Matrix& data) {
            MppcaOptions o;
            o.components = components;
            o.latent = latent;
            try {
                Mppca mix(data, o);
            } catch (const std::invalid_argument&) {
                return true;
            }
            return false;
        };
        QVERIFY(refuses(2, 3, X));
        QVERIFY(refuses(0, 1, X));
        QVERIFY(refuses(7, 1, X)); // 20 rows < 7 (1 + 2)
        QVERIFY(!refuses(2, 1, X));
        Matrix same = Matrix::Ones(20, 3);
        QVERIFY(refuses(2, 1, same));
    }
};

QTEST_APPLESS_MAIN(TestMppca)
#include "test_mppca.moc"
