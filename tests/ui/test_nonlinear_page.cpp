// The nonlinear-FA lab in the window, headless: PPCA's drawn level is the closed form's held-out
// log-likelihood (refitted here), the linear VAE's rows are trial 0 of the CLI's experiment, the
// gap bars are the latest scoring, the latent view's colours follow the position along the
// manifold, a session replays the same curves (the encoder gradient, its draws and the network's
// noise with them), a refused value keeps the run, and pictures show the decoder's mosaic.
#include "core/io/RegressionCsv.h"
#include "core/math/Rng.h"
#include "core/models/Ppca.h"
#include "core/vae/VaeCsv.h"
#include "core/vae/VaeExperiment.h"
#include "tests/support/SettingsIsolation.h"
#include "ui/common/FormWidgets.h"
#include "ui/common/ImageTiles.h"
#include "ui/nonlinear/NonlinearPage.h"
#include "ui/nonlinear/NonlinearViews.h"

#include <QCheckBox>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtTest>
#include <cmath>
#include <sstream>

class TestNonlinearPage : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    static bool runTo(NonlinearPage& page, long epoch) {
        QSignalSpy spy(&page, &LabPage::reached);
        page.runUntil(epoch);
        return spy.wait(60000);
    }
    static QStringList readLines(const QString& path) {
        QFile f(path);
        f.open(QIODevice::ReadOnly);
        QStringList out;
        for (const QString& line : QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts)) {
            // Drop the seconds: the last cell but one.
            const int last = line.lastIndexOf(','), before = line.lastIndexOf(',', last - 1);
            out << line.left(before) + line.mid(last);
        }
        return out;
    }
    /// Runs c to `epochs`, saves its session and rows, opens the session in a new page (which
    /// replays to the same epoch) and exports its rows: false if a step fails.
    bool replay(const fa::VaeLiveConfig& c, long epochs, const QString& stem, QStringList& saved,
                QStringList& replayed, fa::VaeLiveConfig& read) {
        const QString session = m_dir.filePath(stem + ".json");
        const QString a = m_dir.filePath(stem + "-a.csv"), b = m_dir.filePath(stem + "-b.csv");
        {
            NonlinearPage page;
            page.setConfig(c);
            page.reset();
            if (!runTo(page, epochs) || !page.saveSession(session) || !page.exportCurves(a))
                return false;
        }
        NonlinearPage again;
        QSignalSpy reached(&again, &LabPage::reached);
        if (!again.openSession(session) || !reached.wait(60000) ||
            reached.first().first().toLongLong() != epochs || !again.exportCurves(b))
            return false;
        saved = readLines(a);
        replayed = readLines(b);
        read = again.config();
        return true;
    }
    /// A small linear run on generated PPCA data: exact scores everywhere.
    static fa::VaeLiveConfig linearConfig() {
        fa::VaeLiveConfig c;
        c.data.dataset = "synthetic";
        c.data.dim = 6;
        c.data.samples = 2500; // 500 held out: more than the 400 rows drawn, all scored
        c.data.modelSeed = 3;
        c.methods = {fa::VaeMethod::LinearVae, fa::VaeMethod::Ppca};
        c.fit.latent = 2;
        c.fit.hidden = {};
        c.length = 10;
        return c;
    }

  private slots:
    void initTestCase() { fa::test::isolateSettings(); }

    void ppcaLevelIsTheClosedFormAndLinearRowsAreTheClis() {
        NonlinearPage page;
        page.setConfig(linearConfig());
        page.reset();
        QVERIFY(runTo(page, 10));
        // PPCA refitted here on the same split (trial 0: split seed derived from the seed).
        fa::VaeDataSpec spec = linearConfig().data;
        spec.splitSeed = fa::deriveSeed(3, fa::SeedStream::FirstTrial);
        const fa::VaeData data = fa::makeVaeData(spec, {});
        const fa::PpcaModel ppca = fa::ppcaClosedForm(data.rows.train, 2);
        const double heldOut = fa::ppcaLoglikPerRow(ppca, data.rows.test);
        QTRY_VERIFY(page.elboView()->line("ppca/level") &&
                    page.elboView()->line("ppca/level")->count() == 2);
        QVERIFY(std::abs(page.elboView()->line("ppca/level")->at(0).y() - heldOut) < 1e-9);
        // The linear VAE's exported rows at the CLI's checkpoints equal the CLI's trial 0 (the
        // same seeds; every score of a linear decoder is exact).
        const QString path = m_dir.filePath("linear.csv");
        QVERIFY(page.exportCurves(path));
        fa::VaeConfig cli;
        cli.data = linearConfig().data;
        cli.methods = {fa::VaeMethod::LinearVae};
        cli.fit = linearConfig().fit;
        cli.epochs = 10;
        cli.seed = 3;
        std::ostringstream expected;
        fa::io::writeVaeCsv(expected, fa::runVae(cli));
        QStringList want;
        for (const QString& line : QString::fromStdString(expected.str()).split('\n')) {
            const int last = line.lastIndexOf(','), before = line.lastIndexOf(',', last - 1);
            if (!line.isEmpty())
                want << line.left(before) + line.mid(last);
        }
        const QStringList got = readLines(path);
        QCOMPARE(got.first(), want.first()); // the header
        for (const QString& row : want.mid(1))
            QVERIFY2(got.contains(row), qPrintable(row));
        // The gap bars are the last scoring's numbers.
        const auto s = page.latestSnapshot();
        QTRY_COMPARE(page.gapView()->drawn().size(), std::size_t{1});
        QCOMPARE(page.gapView()->drawn()[0].second.first, s->methods[0].last.approximationGap);
        QCOMPARE(page.gapView()->drawn()[0].second.second, s->methods[0].last.amortisationGap);
    }

    void latentColoursFollowThePosition() {
        NonlinearPage page;
        fa::VaeLiveConfig c;
        c.data.dataset = "two-moons";
        c.data.dim = 5;
        c.data.samples = 400;
        c.methods = {fa::VaeMethod::Vae};
        c.fit.latent = 1;
        c.fit.hidden = {10};
        c.length = 3;
        page.setConfig(c);
        page.reset();
        QVERIFY(runTo(page, 3));
        fa::VaeDataSpec spec = c.data;
        spec.splitSeed = fa::deriveSeed(0, fa::SeedStream::FirstTrial);
        const fa::VaeData data = fa::makeVaeData(spec, {});
        const double lo = data.testPosition.minCoeff(), hi = data.testPosition.maxCoeff();
        // K = 1: each point is (z, position); bin b holds positions in the b-th eighth.
        QTRY_VERIFY(page.latentView()->scatter("bin0") &&
                    page.latentView()->scatter("bin0")->count() > 0);
        long drawn = 0;
        for (int b = 0; b < LatentSpaceView::kBins; ++b) {
            const QScatterSeries* bin = page.latentView()->scatter("bin" + std::to_string(b));
            for (int i = 0; bin && i < bin->count(); ++i, ++drawn) {
                const double t = (bin->at(i).y() - lo) / (hi - lo) * LatentSpaceView::kBins;
                QVERIFY(t >= b - 1e-9 && t <= b + 1 + 1e-9);
            }
        }
        QCOMPARE(drawn, static_cast<long>(data.rows.test.rows()));
    }

    void sessionReplaysTheSameCurves() {
        fa::VaeLiveConfig c = linearConfig();
        c.methods = {fa::VaeMethod::Vem, fa::VaeMethod::Vae, fa::VaeMethod::Ppca};
        c.fit.hidden = {8};
        QStringList saved, replayed;
        fa::VaeLiveConfig read;
        QVERIFY(replay(c, 7, "nonlinear", saved, replayed, read));
        QCOMPARE(replayed, saved);
        QCOMPARE(read.fit.hidden, std::vector<int>{8});
    }

    void aSessionKeepsTheEncoderGradientAndTheNetworkNoise() {
        fa::VaeLiveConfig c;
        c.data.dataset = "two-moons";
        c.data.dim = 4;
        c.data.samples = 400;
        c.methods = {fa::VaeMethod::Vae, fa::VaeMethod::Ppca};
        c.fit.hidden = {8};
        c.fit.noise = fa::NoiseKind::Network;
        c.fit.encoderGradient = fa::GradientEstimator::ScoreBaseline;
        c.fit.encoderSamples = 3;
        c.fit.floatProducts = true;
        QStringList saved, replayed;
        fa::VaeLiveConfig read;
        QVERIFY(replay(c, 3, "score", saved, replayed, read));
        QCOMPARE(replayed, saved);
        QCOMPARE(saved.size(), 1 + 3 + 1); // epochs 1, 2, 3 and PPCA's row
        QCOMPARE(read.fit.noise, fa::NoiseKind::Network);
        QCOMPARE(read.fit.encoderGradient, fa::GradientEstimator::ScoreBaseline);
        QCOMPARE(read.fit.encoderSamples, 3);
        QVERIFY(read.fit.floatProducts);
    }

    // Pictures (issue 29): the mosaic's tiles are PPCA's decoder μ + W z at their grid points and
    // the strip's first tile is the first held-out row, each pixel grey level round(255 x); the
    // latent view draws one series per digit; the export names the mosaic.
    void picturesShowTheDecodersMosaic() {
        NonlinearPage page;
        fa::VaeLiveConfig c;
        c.data.dataset = "digits";
        c.data.samples = 300;
        c.methods = {fa::VaeMethod::Ppca};
        c.fit.latent = 2;
        c.length = 1;
        page.setConfig(c);
        page.reset();
        QVERIFY(runTo(page, 1));
        fa::VaeDataSpec spec = c.data;
        spec.images.samples = 300;
        spec.splitSeed = fa::deriveSeed(0, fa::SeedStream::FirstTrial);
        const fa::VaeData data = fa::makeVaeData(spec, fa::io::tableLoader());
        const fa::PpcaModel p = fa::ppcaClosedForm(data.rows.train, 2);
        const ImageTiles* mosaic = page.pictureView()->mosaic();
        QTRY_COMPARE(mosaic->count(), 121);
        auto grey = [](double x) { return int(std::lround(255.0 * std::clamp(x, 0.0, 1.0))); };
        for (int tile : {0, 10, 60, 120}) {
            const Eigen::Vector2d z(-2.5 + 0.5 * (tile % 11), 2.5 - 0.5 * (tile / 11));
            const fa::Vector f = p.mu + p.W * z;
            for (int px = 0; px < 64; ++px)
                QCOMPARE(qGray(mosaic->image(tile).pixel(px % 8, px / 8)), grey(f(px)));
        }
        const ImageTiles* strip = page.pictureView()->strip();
        for (int px = 0; px < 64; ++px)
            QCOMPARE(qGray(strip->image(0).pixel(px % 8, px / 8)), grey(data.rows.test(0, px)));
        long zeros = 0;
        for (int label : data.rows.testLabels)
            zeros += label == 0;
        QVERIFY(zeros > 0);
        QCOMPARE(page.latentView()->scatter("class0")->count(), zeros);
        bool named = false;
        for (const auto& [stem, widget] : page.charts())
            named = named || (stem == "nonlinear-mosaic" && widget == page.pictureView());
        QVERIFY(named);
    }

    void refusedValueKeepsTheRun() {
        NonlinearPage page;
        page.setConfig(linearConfig());
        page.reset();
        QVERIFY(runTo(page, 2));
        QSignalSpy failed(&page, &LabPage::runError);
        auto* latent = page.findChild<IntSpinBox*>();
        QVERIFY(latent);
        // K = 6 = D is refused: the previous run goes on and the field shows K = 2 again.
        for (IntSpinBox* box : page.findChildren<IntSpinBox*>())
            if (box->toolTip().startsWith("Latent dimension"))
                latent = box;
        latent->setValue(6);
        QVERIFY(failed.wait(10000));
        QVERIFY(failed.first().first().toString().contains("smaller than D"));
        QTRY_COMPARE(latent->value(), 2);
        QCOMPARE(page.latestSnapshot()->epoch, 2L);
        QVERIFY(runTo(page, 4)); // the run goes on
    }
};

QTEST_MAIN(TestNonlinearPage)
#include "test_nonlinear_page.moc"
