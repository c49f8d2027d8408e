// The latent lab's live run against independent references: the 2D marginal of a chosen column
// pair is the dense covariance's block, the principal-axes view decorrelates the data with the
// two leading eigenvalues of S as variances, batch EM's staircase touches the recorded
// log-likelihood, E[z | x] is dense Gaussian conditioning, and the Gibbs trace and the rows
// follow the sweeps.
#include "core/latent/LatentLive.h"
#include "core/math/SymmetricEigen.h"
#include "tests/support/DenseReference.h"

#include <QtTest>
#include <cmath>

using namespace fa;

namespace {
LatentLiveConfig syntheticConfig(std::vector<LatentMethod> methods, LatentModel model) {
    LatentLiveConfig c;
    c.data.dataset = "synthetic";
    c.data.model = model;
    c.data.synthetic.dim = 6;
    c.data.synthetic.trueLatent = 2;
    c.data.synthetic.samples = 500;
    c.data.splitSeed = 3;
    c.data.modelSeed = 4;
    c.methods = std::move(methods);
    c.fit.latent = 2;
    c.fit.burnIn = 10;
    c.length = 40;
    return c;
}
} // namespace

class TestLatentLive : public QObject {
    Q_OBJECT
  private slots:
    void columnViewShowsTheDenseBlock() {
        LatentLiveConfig c = syntheticConfig({LatentMethod::Em}, LatentModel::Fa);
        c.viewX = 0;
        c.viewY = 2;
        LatentLive live(c);
        live.advance(15);
        const LatentLiveSnapshot s = live.snapshot();
        QCOMPARE(s.points.size(), std::size_t(400)); // 500 rows, 20 % held out
        for (std::size_t i = 0; i < s.points.size(); i += 37) {
            QCOMPARE(s.points[i].x(), live.data().train(Eigen::Index(i), 0));
            QCOMPARE(s.points[i].y(), live.data().train(Eigen::Index(i), 2));
        }
        // Rebuild batch EM's model from its recorded fit: same data, same start, 15 iterations.
        FaEmOptions o;
        o.latent = 2;
        FaBatchEm em(live.data().train, o);
        for (int t = 0; t < 15; ++t)
            em.iterate();
        const Matrix C = em.model().denseCovariance();
        const auto& m = s.methods.front();
        QVERIFY(m.valid);
        QVERIFY(std::abs(m.marginal.cov(0, 0) - C(0, 0)) < 1e-12 * C(0, 0));
        QVERIFY(std::abs(m.marginal.cov(0, 1) - C(0, 2)) < 1e-12 * C(0, 0));
        QVERIFY(std::abs(m.marginal.cov(1, 1) - C(2, 2)) < 1e-12 * C(2, 2));
        QVERIFY(std::abs(m.marginal.mean(1) - em.model().c(2)) < 1e-12);
        QCOMPARE(m.arrows.size(), std::size_t(2));
        const Matrix canonical = canonicalLoadings(em.model().F, em.model().psi);
        QVERIFY(std::abs(m.arrows[1].x() - canonical(0, 1)) < 1e-12);
        QVERIFY(std::abs(m.arrows[0].y() - canonical(2, 0)) < 1e-12);

        // E[z | x] = Fᵀ C⁻¹ (x - c), by dense conditioning.
        QCOMPARE(s.latentMethod, std::string("em"));
        const Eigen::LLT<Matrix> llt(C);
        for (std::size_t i = 0; i < s.latentMeans.size(); i += 53) {
            const Vector x = live.data().train.row(Eigen::Index(i)).transpose();
            const Vector z = em.model().F.transpose() * llt.solve(x - em.model().c);
            QVERIFY((Eigen::Vector2d(z(0), z(1)) - s.latentMeans[i]).norm() < 1e-10);
        }
    }

    void principalAxesDecorrelate() {
        LatentLive live(syntheticConfig({LatentMethod::Em}, LatentModel::Fa));
        const LatentLiveSnapshot s = live.snapshot();
        const Matrix& X = live.data().train;
        const Matrix centred = X.rowwise() - X.colwise().mean();
        const Matrix S = centred.transpose() * centred / double(X.rows());
        const Vector ev = fa::symmetricEigen(S, false).values; // ascending
        double sxx = 0, syy = 0, sxy = 0;
        for (const auto& p : s.points)
            sxx += p.x() * p.x(), syy += p.y() * p.y(), sxy += p.x() * p.y();
        const double n = double(s.points.size());
        QVERIFY(std::abs(sxx / n - ev(5)) < 1e-10 * ev(5));
        QVERIFY(std::abs(syy / n - ev(4)) < 1e-10 * ev(5));
        QVERIFY(std::abs(sxy / n) < 1e-10 * ev(5));
    }

    // The ELBO after each E step equals the log-likelihood recorded at that iteration; after
    // the M step it lies at or below the next one.
    void staircaseTouchesTheRecordedLoglik() {
        LatentLive live(syntheticConfig({LatentMethod::Em, LatentMethod::Svd}, LatentModel::Fa));
        live.advance(20);
        const LatentLiveSnapshot s = live.snapshot();
        const auto& em = s.methods.front();
        QCOMPARE(em.curve.size(), std::size_t(21)); // iterations 0..20
        QCOMPARE(em.staircase.size(), std::size_t(40));
        for (std::size_t t = 0; t < 20; ++t) {
            QCOMPARE(em.staircase[2 * t].x(), double(t));
            QVERIFY(std::abs(em.staircase[2 * t].y() - em.curve[t].loglik) < 1e-10);
            QVERIFY(em.staircase[2 * t + 1].y() <= em.curve[t + 1].loglik + 1e-12);
            QVERIFY(em.staircase[2 * t + 1].y() >= em.curve[t].loglik - 1e-12);
        }
        const auto rows = live.rows();
        QCOMPARE(rows.size(), std::size_t(42));
        QCOMPARE(rows.back().method, std::string("svd"));
        QCOMPARE(rows.back().iteration, 20L);
        QVERIFY(rows.back().relCovDist > 0.0 && rows.back().relCovDist < 1.0);
    }

    void gibbsTraceFollowsTheSweeps() {
        LatentLiveConfig c =
            syntheticConfig({LatentMethod::Gibbs, LatentMethod::Em}, LatentModel::Fa);
        c.traceEntry = 1; // C(1, 2)
        LatentLive live(c);
        live.advance(30);
        const LatentLiveSnapshot s = live.snapshot();
        QVERIFY(s.trace.present);
        QCOMPARE(s.trace.entries, 21);
        QCOMPARE(s.trace.chains.size(), std::size_t(4));
        QCOMPARE(s.trace.keptPerChain, 20L);
        QCOMPARE(s.trace.chains[2].size(), std::size_t(20));
        double sum = 0.0;
        for (const auto& chain : s.trace.chains)
            for (double v : chain)
                sum += v;
        QVERIFY(std::abs(sum / 80.0 - s.trace.mean) < 1e-12 * (1.0 + std::abs(sum)));
        // The running mean after d draws per chain is the pooled mean of those 4 d draws.
        QCOMPARE(s.trace.runningMean.size(), std::size_t(20));
        QVERIFY(std::abs(s.trace.runningMean.back() - s.trace.mean) <
                1e-12 * (1.0 + std::abs(sum)));
        const double first = (s.trace.chains[0][0] + s.trace.chains[1][0] + s.trace.chains[2][0] +
                              s.trace.chains[3][0]) /
                             4.0;
        QVERIFY(std::abs(s.trace.runningMean.front() - first) < 1e-12 * (1.0 + std::abs(first)));
        QVERIFY(s.trace.lower <= s.trace.mean && s.trace.mean <= s.trace.upper);
        QVERIFY(std::isfinite(s.trace.emValue) && std::isfinite(s.trace.maxRhat));
        QVERIFY(s.trace.label.rfind("C(1, 2)", 0) == 0);
    }

    void mixtureLabelsAndComponents() {
        LatentLiveConfig c = syntheticConfig({LatentMethod::Em}, LatentModel::Mppca);
        c.data.synthetic.dim = 2; // the column view is then the whole space: C_c in full
        c.data.synthetic.trueLatent = 1;
        c.fit.latent = 1;
        c.fit.components = 3;
        c.viewX = 0;
        c.viewY = 1;
        LatentLive live(c);
        live.advance(10);
        const LatentLiveSnapshot s = live.snapshot();
        QCOMPARE(s.labels.size(), s.points.size());
        const auto& m = s.methods.front();
        QCOMPARE(m.components.size(), std::size_t(3));
        double total = 0.0;
        for (const auto& comp : m.components)
            total += comp.weight;
        QVERIFY(std::abs(total - 1.0) < 1e-12);
        // E[z | x, c] under each row's piece, by dense conditioning on C_c = w wᵀ + σ² I taken
        // from the piece's drawn marginal: σ² its smaller eigenvalue, w (up to sign) from the
        // larger, z = wᵀ C_c⁻¹ (x − μ_c).
        QCOMPARE(s.latentMethod, std::string("em"));
        QCOMPARE(s.latentMeans.size(), s.points.size());
        std::vector<double> sign(3, 0.0);
        // Each row's piece: argmax_c log π_c + log N(x; μ_c, C_c), from the drawn marginals.
        auto logJoint = [&](std::size_t c, const Eigen::Vector2d& x) {
            const Marginal2& mc = m.components[c].marginal;
            const Eigen::Vector2d d = x - mc.mean;
            return std::log(m.components[c].weight) - 0.5 * std::log(mc.cov.determinant()) -
                   0.5 * d.dot(mc.cov.llt().solve(d));
        };
        for (std::size_t n = 0; n < s.points.size(); ++n) {
            std::size_t best = 0;
            for (std::size_t c = 1; c < 3; ++c)
                if (logJoint(c, s.points[n]) > logJoint(best, s.points[n]))
                    best = c;
            QCOMPARE(s.labels[n], static_cast<int>(best));
            const auto piece = static_cast<std::size_t>(s.labels[n]);
            const Marginal2& mc = m.components[piece].marginal;
            const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eig(mc.cov);
            const double sigma2 = eig.eigenvalues()(0);
            const Eigen::Vector2d w =
                std::sqrt(eig.eigenvalues()(1) - sigma2) * eig.eigenvectors().col(1);
            const double z = w.dot(mc.cov.llt().solve(s.points[n] - mc.mean));
            const double got = s.latentMeans[n].x();
            QVERIFY(std::abs(std::abs(got) - std::abs(z)) < 1e-9 * (1.0 + std::abs(z)));
            if (std::abs(z) > 1e-3) { // one sign per piece: w's, not the row's
                const double rowSign = got / z > 0 ? 1.0 : -1.0;
                if (sign[piece] == 0.0)
                    sign[piece] = rowSign;
                QCOMPARE(rowSign, sign[piece]);
            }
            QCOMPARE(s.latentMeans[n].y(), 0.0); // K = 1
        }
    }

    void refusesBadConfigurations() {
        LatentLiveConfig c = syntheticConfig({LatentMethod::ClosedForm}, LatentModel::Fa);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LatentLive{c});
        c = syntheticConfig({LatentMethod::Em}, LatentModel::Fa);
        c.viewX = 1;
        c.viewY = 1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LatentLive{c});
        c.viewY = 6;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LatentLive{c});
    }

    // Hidden entries (docs/maths/latent.md §3.6) on a table of numbers: hiding happens after the
    // split (the same rows as without hiding) and before z-scoring, so the observed entries have
    // mean 0 and variance 1 and each column, hidden values included, is an affine map of the
    // unhidden one; the live run's rows and its imputation view score the same fill, and the
    // column means' RMSE is what the observed means give here.
    void hiddenEntriesAreScaledWithTheirColumnsAndScored() {
        NumericTable t;
        t.name = "table";
        t.names = {"a", "b", "c", "d", "e"};
        t.values.resize(120, 5);
        for (Eigen::Index i = 0; i < 120; ++i) {
            const double u = std::sin(0.7 * double(i)), v = std::cos(1.9 * double(i * i));
            const double w = 0.1 * std::sin(3.7 * double(i * i) + 1.0); // a little noise
            t.values.row(i) << 3.0 + u + w, 10.0 * u + v, -2.0 * v + 0.1 * u - w, u - v + w,
                0.5 * u + 2.0 * v + 2.0 * w;
        }
        LatentLiveConfig c;
        c.data.dataset = "table.csv";
        c.data.model = LatentModel::Ppca;
        c.data.splitSeed = 8;
        c.data.hideFraction = 0.3;
        c.methods = {LatentMethod::Em};
        c.fit.latent = 2;
        c.loader = [&](const std::string&, bool, const ImageQuery&) { return t; };
        LatentLive live(c);
        live.advance(30);
        LatentDataSpec plain = c.data;
        plain.hideFraction = 0.0;
        const LatentData whole = makeLatentData(plain, c.loader), &data = live.data();
        QCOMPARE(data.hidden.size(), std::size_t(std::llround(0.3 * 96 * 5)));
        Matrix restored = data.train;
        for (const HiddenEntry& h : data.hidden)
            restored(h.row, h.col) = h.value;
        Vector means(5);
        for (Eigen::Index d = 0; d < 5; ++d) {
            double sum = 0.0, sq = 0.0, count = 0.0;
            for (Eigen::Index n = 0; n < data.train.rows(); ++n)
                if (!std::isnan(data.train(n, d)))
                    sum += data.train(n, d), sq += data.train(n, d) * data.train(n, d), ++count;
            means(d) = sum / count;
            QVERIFY(std::abs(means(d)) < 1e-12 && std::abs(sq / count - 1.0) < 1e-12);
            // restored = a · whole + b in every row, the hidden ones included.
            const Eigen::Index p = 0, q = 1;
            const double a =
                (restored(p, d) - restored(q, d)) / (whole.train(p, d) - whole.train(q, d));
            const double b = restored(p, d) - a * whole.train(p, d);
            QVERIFY((restored.col(d) - (a * whole.train.col(d)).array().matrix() -
                     Vector::Constant(96, b))
                        .norm() < 1e-12);
        }
        double meanSq = 0.0;
        for (const HiddenEntry& h : data.hidden)
            meanSq += (h.value - means(h.col)) * (h.value - means(h.col));
        const double meanRmse = std::sqrt(meanSq / double(data.hidden.size()));
        const LatentLiveSnapshot s = live.snapshot();
        const LatentRow& last = s.rows.back();
        QCOMPARE(last.imputation.hidden, long(data.hidden.size()));
        QVERIFY(std::abs(last.imputation.columnMean - meanRmse) < 1e-12);
        QVERIFY(s.imputation.present);
        QCOMPARE(s.imputation.rmse, last.imputation.conditionalMean);
        QCOMPARE(s.imputation.fitted.size(), data.hidden.size()); // all drawn (under 1500)
        double fittedSq = 0.0;
        for (const Eigen::Vector2d& p : s.imputation.fitted)
            fittedSq += (p.y() - p.x()) * (p.y() - p.x());
        QVERIFY(std::abs(std::sqrt(fittedSq / double(data.hidden.size())) - s.imputation.rmse) <
                1e-12);
        qInfo("imputation RMSE %.4f, column means %.4f", s.imputation.rmse, meanRmse);
        QVERIFY(s.imputation.rmse < 0.5 * meanRmse); // five columns, two signals, some noise
        QCOMPARE(s.points.size(), std::size_t(96));  // every row drawn, hidden values put back
    }
};

QTEST_APPLESS_MAIN(TestLatentLive)
#include "test_latent_live.moc"
