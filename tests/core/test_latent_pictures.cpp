// The latent lab's pictures (LatentLiveSnapshot::pictures; docs/maths/images.md) against
// independent references on the bundled digits: the shown rows are the data's rows spread evenly
// (holes NaN exactly where the data hide pixels); PPCA's closed-form loadings are the dense
// covariance's eigenvectors scaled by (λ_k − σ²)^½; FA's loadings keep F Fᵀ and Ψ; the fills are
// the dense conditional mean μ_M + C_MO C_OO⁻¹ (x_O − μ_O) of a fit rebuilt with the same seed,
// and each row's RMSE is over its hidden pixels; without holes, the reconstructions are
// c + F E[z | x] by dense Gaussian conditioning.
#include "core/io/RegressionCsv.h"
#include "core/latent/LatentLive.h"
#include "core/math/Rng.h"
#include "core/math/SymmetricEigen.h"
#include "tests/support/DenseReference.h"

#include <QtTest>
#include <cmath>

using namespace fa;

namespace {
LatentLiveConfig digits(LatentModel model, std::vector<LatentMethod> methods, int latent,
                        int block = 0) {
    LatentLiveConfig c;
    c.data.dataset = "digits";
    c.data.model = model;
    c.data.images.samples = 600;
    c.data.hideBlock = block;
    c.data.splitSeed = 5;
    c.methods = std::move(methods);
    c.fit.latent = latent;
    c.fit.seed = 9;
    c.length = 50;
    c.loader = io::tableLoader(FAEXPLORER_SOURCE_DIR "/resources/data");
    return c;
}

/// The live run's first fit rebuilt here: the same rows, seed and iterations.
FAModel rebuilt(const LatentLiveConfig& c, const Matrix& train, int iterations) {
    LatentFitOptions o = c.fit;
    o.seed = deriveSeed(c.fit.seed, SeedStream::LatentMethodBase, 0);
    const auto fit = makeLatentFit(c.data.model, c.methods.front(), train, o);
    for (int t = 0; t < iterations; ++t)
        fit->iterate();
    return *fit->faModel();
}

double maxAbs(const Matrix& a) {
    return a.cwiseAbs().maxCoeff();
}
} // namespace

class TestLatentPictures : public QObject {
    Q_OBJECT
  private slots:
    // Eight fitting rows spread evenly, with their classes (no holes without hidden pixels); a
    // table has no pictures.
    void shownRowsAreTheDataRows() {
        LatentLive live(digits(LatentModel::Ppca, {LatentMethod::ClosedForm}, 4));
        const LatentLiveSnapshot s = live.snapshot();
        const auto& p = s.pictures;
        QVERIFY(p.layout.isImage());
        QCOMPARE(p.layout.width, 8);
        QCOMPARE(p.rows.rows(), Eigen::Index(8));
        QCOMPARE(p.holes.rows(), Eigen::Index(0));
        const Matrix& X = live.data().train;
        QCOMPARE(X.rows(), Eigen::Index(480)); // 600, 20 % held out
        for (Eigen::Index k = 0; k < 8; ++k) {
            QCOMPARE(p.rows.row(k), X.row(60 * k)); // 480 k / 8
            QCOMPARE(p.labels[std::size_t(k)], live.data().trainLabels[std::size_t(60 * k)]);
        }
        LatentLiveConfig table = digits(LatentModel::Fa, {LatentMethod::Em}, 2);
        table.data.dataset = "synthetic";
        QVERIFY(!LatentLive(table).snapshot().pictures.layout.isImage());
    }

    // PPCA's closed form: the loadings are ±u_k (λ_k − σ²)^½ from the dense covariance (ddof
    // 0), σ² the mean of the other eigenvalues; the mean is the rows' mean; σ² in every pixel.
    void closedFormLoadingsAreTheEigenvectors() {
        const int k = 5;
        LatentLive live(digits(LatentModel::Ppca, {LatentMethod::ClosedForm}, k));
        const LatentLiveSnapshot s = live.snapshot();
        const auto& p = s.pictures;
        const Matrix& X = live.data().train;
        const Vector mean = X.colwise().mean().transpose();
        const Matrix centred = X.rowwise() - mean.transpose();
        const Matrix S = centred.transpose() * centred / double(X.rows());
        const fa::SymmetricEigen eig = fa::symmetricEigen(S); // ascending
        const Eigen::Index d = S.rows();
        const double sigma2 = eig.values.head(d - k).mean();
        QVERIFY(maxAbs(p.mean - mean) < 1e-12);
        QVERIFY(maxAbs(p.psi - Vector::Constant(d, sigma2)) < 1e-10);
        QCOMPARE(p.loadings.cols(), Eigen::Index(k));
        for (int j = 0; j < k; ++j) {
            const Vector u = eig.vectors.col(d - 1 - j) * std::sqrt(eig.values(d - 1 - j) - sigma2);
            const double sign = u.dot(p.loadings.col(j)) > 0.0 ? 1.0 : -1.0;
            QVERIFY2(maxAbs(p.loadings.col(j) - sign * u) < 1e-8, qPrintable(QString::number(j)));
        }
        // Each pixel's variance over the fitting rows (ddof 0).
        QVERIFY(maxAbs(p.variance - S.diagonal()) < 1e-12);
    }

    // FA by batch EM: the pictured loadings keep F Fᵀ (a rotation, columns by decreasing norm)
    // and Ψ of the fit rebuilt with the same start.
    void faLoadingsKeepTheCovariance() {
        const LatentLiveConfig c = digits(LatentModel::Fa, {LatentMethod::Em}, 4);
        LatentLive live(c);
        live.advance(12);
        const LatentLiveSnapshot s = live.snapshot();
        const auto& p = s.pictures;
        const FAModel fa = rebuilt(c, live.data().train, 12);
        const Matrix FFt = fa.F * fa.F.transpose();
        QVERIFY(maxAbs(p.loadings * p.loadings.transpose() - FFt) < 1e-10 * maxAbs(FFt));
        QVERIFY(maxAbs(p.psi - fa.psi) < 1e-14);
        for (Eigen::Index j = 1; j < p.loadings.cols(); ++j)
            QVERIFY(p.loadings.col(j).norm() <= p.loadings.col(j - 1).norm());
        // Without holes the pictures below the rows are c + F E[z | x]: dense conditioning.
        const Matrix G =
            (Matrix::Identity(4, 4) + fa.F.transpose() * fa.psi.cwiseInverse().asDiagonal() * fa.F)
                .inverse();
        for (Eigen::Index n = 0; n < p.rows.rows(); ++n) {
            const Vector x = p.rows.row(n).transpose();
            const Vector z = G * fa.F.transpose() * fa.psi.cwiseInverse().asDiagonal() * (x - fa.c);
            const Vector rebuilt = fa.c + fa.F * z;
            QVERIFY(maxAbs(p.filled.row(n).transpose() - rebuilt) < 1e-10);
        }
        QVERIFY(!p.fills);
    }

    // A 3 x 3 square hidden per picture, PPCA by EM: the holes are NaN where the data hide
    // pixels, the fills are the dense conditional mean of the fit rebuilt with the same seed, and
    // each row's RMSE is over its nine hidden pixels.
    void fillsAreTheDenseConditionalMean() {
        const LatentLiveConfig c = digits(LatentModel::Ppca, {LatentMethod::Em}, 6, 3);
        LatentLive live(c);
        live.advance(7);
        const LatentLiveSnapshot s = live.snapshot();
        const auto& p = s.pictures;
        QVERIFY(p.fills);
        QCOMPARE(p.holes.rows(), Eigen::Index(8));
        const FAModel fa = rebuilt(c, live.data().train, 7);
        const Eigen::Index rows = live.data().train.rows();
        Matrix fitted(8, 64); // the rows shown as fitted: NaN in their holes
        for (Eigen::Index k = 0; k < 8; ++k)
            fitted.row(k) = live.data().train.row(rows * k / 8);
        const Matrix dense = test::denseConditionalMean(fa.c, fa.denseCovariance(), fitted);
        for (Eigen::Index k = 0; k < 8; ++k) {
            std::vector<Eigen::Index> seen, hidden;
            test::splitObserved(fitted, k, seen, hidden);
            QCOMPARE(hidden.size(), std::size_t(9));
            double squares = 0.0;
            for (Eigen::Index d = 0; d < 64; ++d) {
                const double x = fitted(k, d);
                QVERIFY(std::isnan(x) ? std::isnan(p.holes(k, d)) : p.holes(k, d) == x);
                QVERIFY(std::abs(p.filled(k, d) - dense(k, d)) < 1e-9);
                if (std::isnan(x))
                    squares += std::pow(dense(k, d) - p.rows(k, d), 2);
                else // observed pixels are kept as they are
                    QCOMPARE(p.filled(k, d), x);
            }
            QVERIFY(std::abs(p.rmse[std::size_t(k)] - std::sqrt(squares / 9.0)) < 1e-9);
        }
        // The truth behind each hole is the data's hidden value.
        for (const HiddenEntry& h : live.data().hidden)
            if (h.row == rows * 3 / 8)
                QCOMPARE(p.rows(3, h.col), h.value);
    }

    // The classes field's words and the sessions' list: the same refusals as the CLI's.
    void classesAreCheckedAlike() {
        QCOMPARE(parseImageClasses(" 0, 3,7 "), (std::vector<int>{0, 3, 7}));
        QVERIFY(parseImageClasses("  ").empty());
        QCOMPARE(imageClassesText({0, 3, 7}), std::string("0,3,7"));
        for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
                 {"3,3", "3 is listed twice"},
                 {"12", "12 is not a class (0 to 9)"},
                 {"1,x", "'x' is not a class"},
                 {"1,", "an empty entry is not a class"},
                 {"-1", "'-1' is not a class"}}) {
            try {
                parseImageClasses(text);
                QFAIL(text.c_str());
            } catch (const std::invalid_argument& e) {
                QVERIFY2(std::string(e.what()).find(why) == 0, e.what());
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestLatentPictures)
#include "test_latent_pictures.moc"
