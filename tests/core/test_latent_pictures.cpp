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

/// The dense covariance F Fᵀ + Ψ.
Matrix dense(const FAModel& m) {
    Matrix C = m.F * m.F.transpose();
    C.diagonal() += m.psi;
    return C;
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
        const Eigen::SelfAdjointEigenSolver<Matrix> eig(S); // ascending
        const Eigen::Index d = S.rows();
        const double sigma2 = eig.eigenvalues().head(d - k).mean();
        QVERIFY(maxAbs(p.mean - mean) < 1e-12);
        QVERIFY(maxAbs(p.psi - Vector::Constant(d, sigma2)) < 1e-10);
        QCOMPARE(p.loadings.cols(), Eigen::Index(k));
        for (int j = 0; j < k; ++j) {
            const Vector u = eig.eigenvectors().col(d - 1 - j) *
                             std::sqrt(eig.eigenvalues()(d - 1 - j) - sigma2);
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
        LatentFitOptions o = c.fit;
        o.seed = deriveSeed(c.fit.seed, SeedStream::LatentMethodBase, 0);
        const auto fit = makeLatentFit(LatentModel::Fa, LatentMethod::Em, live.data().train, o);
        for (int t = 0; t < 12; ++t)
            fit->iterate();
        const FAModel fa = *fit->faModel();
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
        LatentFitOptions o = c.fit;
        o.seed = deriveSeed(c.fit.seed, SeedStream::LatentMethodBase, 0);
        const auto fit = makeLatentFit(LatentModel::Ppca, LatentMethod::Em, live.data().train, o);
        for (int t = 0; t < 7; ++t)
            fit->iterate();
        const FAModel fa = *fit->faModel();
        const Matrix C = dense(fa);
        const Eigen::Index rows = live.data().train.rows();
        for (Eigen::Index k = 0; k < 8; ++k) {
            const Eigen::Index row = rows * k / 8;
            std::vector<Eigen::Index> hidden, seen;
            for (Eigen::Index d = 0; d < 64; ++d)
                (std::isnan(live.data().train(row, d)) ? hidden : seen).push_back(d);
            QCOMPARE(hidden.size(), std::size_t(9));
            const auto m = Eigen::Index(hidden.size()), o2 = Eigen::Index(seen.size());
            Matrix Cmo(m, o2), Coo(o2, o2);
            Vector xo(o2), mo(o2);
            for (Eigen::Index i = 0; i < o2; ++i) {
                xo(i) = live.data().train(row, seen[std::size_t(i)]);
                mo(i) = fa.c(seen[std::size_t(i)]);
                for (Eigen::Index j = 0; j < o2; ++j)
                    Coo(i, j) = C(seen[std::size_t(i)], seen[std::size_t(j)]);
                for (Eigen::Index j = 0; j < m; ++j)
                    Cmo(j, i) = C(hidden[std::size_t(j)], seen[std::size_t(i)]);
            }
            const Vector fill = Cmo * Coo.llt().solve(xo - mo);
            double squares = 0.0;
            for (Eigen::Index j = 0; j < m; ++j) {
                const Eigen::Index d = hidden[std::size_t(j)];
                QVERIFY(std::isnan(p.holes(k, d)));
                const double expected = fa.c(d) + fill(j);
                QVERIFY(std::abs(p.filled(k, d) - expected) < 1e-9);
                squares += std::pow(expected - p.rows(k, d), 2);
            }
            for (const Eigen::Index d : seen) // observed pixels are kept as they are
                QCOMPARE(p.filled(k, d), p.rows(k, d));
            QVERIFY(std::abs(p.rmse[std::size_t(k)] - std::sqrt(squares / double(m))) < 1e-9);
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
