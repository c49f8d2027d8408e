// The latent lab on pictures (issue 29), headless: choosing the digits gives the picture count
// and fields that apply; the row tiles' grey levels are round(255 x) of the data's rows (read
// again here); the loadings tiles are PPCA's closed-form W columns in the signed scale computed
// here; the filled tiles are the dense conditional mean of a fit rebuilt with the same seed;
// the classes field and the sessions' data.classes refuse alike, and a session with classes
// round-trips; a missing Fashion-MNIST names its Debian package and leaves the page as it was.
#include "core/io/ImageSets.h"
#include "core/io/RegressionCsv.h"
#include "core/math/Rng.h"
#include "tests/support/DenseReference.h"
#include "tests/support/SettingsIsolation.h"
#include "ui/common/ParamFields.h"
#include "ui/latent/LatentPage.h"
#include "ui/latent/LatentPictureViews.h"

#include <QComboBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

namespace {
bool runTo(LatentPage& page, long iteration) {
    QSignalSpy spy(&page, &LabPage::reached);
    page.runUntil(iteration);
    return spy.wait(60000);
}
QComboBox* datasetBox(const LatentPage& page) {
    for (QComboBox* box : page.findChildren<QComboBox*>())
        if (box->findData("digits") >= 0)
            return box;
    return nullptr;
}
int grey(double v) {
    return int(std::lround(255.0 * std::clamp(v, 0.0, 1.0)));
}
/// The signed scale: white at 0, red (positive) or blue fading with |v| / max |v|.
QRgb signedColour(double v, double top) {
    const int fade = 255 - grey(std::abs(v) / top);
    return v >= 0.0 ? qRgb(255, fade, fade) : qRgb(fade, fade, 255);
}
/// Whether each channel is within one level (a value at a rounding boundary may fall either way).
bool near(QRgb a, QRgb b) {
    return std::abs(qRed(a) - qRed(b)) <= 1 && std::abs(qGreen(a) - qGreen(b)) <= 1 &&
           std::abs(qBlue(a) - qBlue(b)) <= 1;
}
/// The digits, PPCA on the page (through its fields, as a session or the user sets them).
fa::LatentLiveConfig digitsConfig(const LatentPage& page, std::vector<fa::LatentMethod> methods,
                                  int latent, int block) {
    fa::LatentLiveConfig c = page.config();
    c.data.dataset = "digits";
    c.data.model = fa::LatentModel::Ppca;
    c.data.synthetic.samples = 500;
    c.data.images.samples = 500;
    c.data.hideBlock = block;
    c.methods = std::move(methods);
    c.fit.latent = latent;
    return c;
}
} // namespace

class TestLatentPicturesPage : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

  private slots:
    void initTestCase() { fa::test::isolateSettings(); }

    // The combo's digits: all 1,797 pictures, "pictures (at most)", classes open, no square
    // for FA; the rows shown are the data's rows, grey level for grey level.
    void digitsTilesAreTheDataRows() {
        LatentPage page;
        QComboBox* dataset = datasetBox(page);
        QVERIFY(dataset && dataset->findData("fashion-mnist") >= 0);
        dataset->setCurrentIndex(dataset->findData("digits"));
        const fa::LatentLiveConfig c = page.config();
        QCOMPARE(c.data.images.samples, 1797L);
        QVERIFY(page.classesField()->isEnabled());
        bool labelled = false;
        for (const QLabel* l : page.findChildren<QLabel*>())
            labelled = labelled || l->text() == "pictures (at most)";
        QVERIFY(labelled);
        QVERIFY(runTo(page, 3));
        QTRY_COMPARE(page.picturesView()->count(), 16); // 8 rows, 8 reconstructions
        QCOMPARE(page.charts()[1].first, QString("latent-loadings"));
        QCOMPARE(page.charts()[2].first, QString("latent-noise"));
        QCOMPARE(page.charts()[3].first, QString("latent-pictures"));
        // Ctrl+Shift+E writes the picture views as PNG and SVG too.
        const QStringList files = page.exportCharts(m_dir.path());
        for (const char* name : {"latent-loadings", "latent-noise", "latent-pictures"})
            for (const char* ext : {".png", ".svg"})
                QVERIFY2(files.contains(m_dir.filePath(QString(name) + ext)), name);
        QVERIFY(QImage(m_dir.filePath("latent-pictures.png")).width() > 100);

        const fa::LatentData data = fa::makeLatentData(c.data, fa::io::tableLoader());
        const Eigen::Index n = data.train.rows();
        QCOMPARE(n, Eigen::Index(1797 - 359)); // round(0.2 · 1797) held out, the last ones
        for (int k = 0; k < 8; ++k) {
            const Eigen::Index row = n * k / 8;
            const QImage& img = page.picturesView()->image(k);
            QCOMPARE(img.size(), QSize(8, 8));
            for (int y = 0; y < 8; ++y)
                for (int x = 0; x < 8; ++x) {
                    const int g = grey(data.train(row, y * 8 + x));
                    QCOMPARE(img.pixel(x, y), qRgb(g, g, g));
                }
            QCOMPARE(page.picturesView()->caption(k),
                     QString::number(data.trainLabels[std::size_t(row)]));
        }
        // The hidden square: pictures and PPCA only (FA here); back to a table, it is 0.
        auto* square = page.findChild<QAbstractSpinBox*>("hide-block");
        QVERIFY(square && !square->isEnabled());
        QComboBox* model = nullptr;
        for (QComboBox* box : page.findChildren<QComboBox*>())
            if (box->findData("mppca") >= 0)
                model = box;
        model->setCurrentIndex(model->findData("ppca"));
        QVERIFY(square->isEnabled());
        setFieldValue(square, 2);
        dataset->setCurrentIndex(dataset->findData("synthetic"));
        QVERIFY(!square->isEnabled());
        QCOMPARE(page.config().data.hideBlock, 0);
        QCOMPARE(page.config().data.synthetic.samples, 1000); // the generated rows back
    }

    // PPCA's closed form, K = 4: after the mean, tile j is W's column j (the fit rebuilt here)
    // in the signed scale, its sign the one that makes its largest |entry| positive.
    void loadingsTilesAreTheFitsColumns() {
        LatentPage page;
        const fa::LatentLiveConfig c = digitsConfig(page, {fa::LatentMethod::ClosedForm}, 4, 0);
        page.setConfig(c);
        page.reset();
        QVERIFY(runTo(page, 2));
        QTRY_COMPARE(page.loadingsView()->count(), 5);
        const fa::LatentData data = fa::makeLatentData(page.config().data, fa::io::tableLoader());
        const auto fit = fa::makeLatentFit(fa::LatentModel::Ppca, fa::LatentMethod::ClosedForm,
                                           data.train, page.config().fit);
        const fa::Matrix W = fit->faModel()->F;
        for (int j = 0; j < 4; ++j) {
            fa::Vector w = W.col(j);
            Eigen::Index largest = 0;
            w.cwiseAbs().maxCoeff(&largest);
            if (w(largest) < 0.0)
                w = -w;
            const double top = w.cwiseAbs().maxCoeff();
            const QImage& img = page.loadingsView()->image(1 + j);
            for (int p = 0; p < 64; ++p)
                QVERIFY2(near(img.pixel(p % 8, p / 8), signedColour(w(p), top)),
                         qPrintable(QString("W%1, pixel %2").arg(j + 1).arg(p)));
        }
        QCOMPARE(page.loadingsView()->caption(1), QString("W1"));
        // PPCA's one σ² is no picture (it was a plain white tile): the variance and σ²'s share.
        QTRY_COMPARE(page.noiseView()->count(), 2);
        QVERIFY(page.noiseView()->caption(0).startsWith("variance ≤ "));
        QCOMPARE(page.noiseView()->caption(1), QString("σ² / variance ≤ 1"));
    }

    // A 3 x 3 square per picture, PPCA by EM: the middle tiles have the hole colour exactly
    // where the data hide pixels, the bottom ones the dense conditional mean of the fit rebuilt
    // with the same seed and iterations.
    void filledTilesAreTheDenseConditionalMean() {
        LatentPage page;
        page.setConfig(digitsConfig(page, {fa::LatentMethod::Em}, 5, 3));
        page.reset();
        QVERIFY(runTo(page, 6));
        QTRY_COMPARE(page.picturesView()->count(), 24);
        QCOMPARE(page.charts()[2].first, QString("latent-imputation"));
        const fa::LatentLiveConfig c = page.config();
        const fa::LatentData data = fa::makeLatentData(c.data, fa::io::tableLoader());
        fa::LatentFitOptions o = c.fit;
        o.seed = fa::deriveSeed(c.fit.seed, fa::SeedStream::LatentMethodBase, 0);
        const auto fit = fa::makeLatentFit(c.data.model, fa::LatentMethod::Em, data.train, o);
        for (int t = 0; t < 6; ++t)
            fit->iterate();
        const fa::FAModel fa = *fit->faModel();
        const Eigen::Index n = data.train.rows();
        fa::Matrix fitted(8, 64); // the rows shown, NaN in their holes
        for (int k = 0; k < 8; ++k)
            fitted.row(k) = data.train.row(n * k / 8);
        const fa::Matrix dense = fa::test::denseConditionalMean(fa.c, fa.denseCovariance(), fitted);
        for (int k = 0; k < 8; ++k) {
            const QImage& holes = page.picturesView()->image(8 + k);
            const QImage& filled = page.picturesView()->image(16 + k);
            for (int d = 0; d < 64; ++d) {
                const int g = grey(dense(k, d)), x = d % 8, y = d / 8;
                if (std::isnan(fitted(k, d))) {
                    QCOMPARE(holes.pixel(x, y), ImageTiles::kHoleColour);
                    QVERIFY(near(filled.pixel(x, y), qRgb(g, g, g)));
                } else {
                    QCOMPARE(holes.pixel(x, y), qRgb(g, g, g));
                    QCOMPARE(filled.pixel(x, y), qRgb(g, g, g));
                }
            }
        }
    }

    // "3,3" and "12" are refused with the reason and the field shows the running classes again;
    // "1, 7" takes the ones and sevens; a session keeps them, and refuses bad ones as the field.
    // The parameter column never scrolls sideways or cuts a field: it is as wide as its panels
    // need beside the vertical scroll bar, also once a picture set and PPCA's priors are shown
    // (at 1280 px it had a horizontal scroll bar and group boxes cut at the right).
    void theParameterColumnFitsItsPanels() {
        LatentPage page;
        page.resize(1280, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        datasetBox(page)->setCurrentIndex(datasetBox(page)->findData("digits"));
        auto* column = qobject_cast<QScrollArea*>(page.parameterColumn());
        QVERIFY(column && column->widget());
        for (const char* model : {"ppca", "fa", "mppca"}) {
            auto* box = page.findChildren<QComboBox*>().at(1); // data set, then model
            box->setCurrentIndex(box->findData(model));
            QTRY_VERIFY2(column->widget()->minimumSizeHint().width() <= column->viewport()->width(),
                         qPrintable(QString("%1: %2 > %3")
                                        .arg(model)
                                        .arg(column->widget()->minimumSizeHint().width())
                                        .arg(column->viewport()->width())));
            QVERIFY(!column->horizontalScrollBar()->isVisible());
        }
        // A panel that grows after the page is built widens the column with it.
        const int wider = column->viewport()->width() + 40;
        datasetBox(page)->setMinimumWidth(wider);
        QTRY_VERIFY(column->widget()->minimumSizeHint().width() > wider);
        QTRY_VERIFY(column->viewport()->width() >= column->widget()->minimumSizeHint().width());
    }

    void classesFieldAndSessionsRefuseAlike() {
        LatentPage page;
        datasetBox(page)->setCurrentIndex(datasetBox(page)->findData("digits"));
        QVERIFY(runTo(page, 1));
        QLineEdit* classes = page.classesField();
        for (const auto& [bad, why] :
             std::vector<std::pair<QString, QString>>{{"3,3", "3 is listed twice"},
                                                      {"12", "12 is not a class (0 to 9)"},
                                                      {"1;7", "'1;7' is not a class"}}) {
            classes->setText(bad);
            emit classes->editingFinished();
            QVERIFY2(page.lastError().contains(why), qPrintable(page.lastError()));
            QCOMPARE(classes->text(), QString()); // the running classes: all
        }
        classes->setText(" 1, 7");
        emit classes->editingFinished();
        QCOMPARE(classes->text(), QString("1,7"));
        QTRY_VERIFY(page.latestSnapshot() &&
                    page.latestSnapshot()->config.data.images.classes == std::vector<int>({1, 7}));
        const fa::ImageSet all = fa::io::loadImageSet("digits", {});
        const long ones = std::count_if(all.labels.begin(), all.labels.end(),
                                        [](int l) { return l == 1 || l == 7; });
        QCOMPARE(page.latestSnapshot()->trainRows, ones - std::lround(0.2 * double(ones)));
        for (const int l : page.latestSnapshot()->pictures.labels)
            QVERIFY(l == 1 || l == 7);

        const QString path = m_dir.filePath("classes.json");
        QVERIFY(page.saveSession(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        QCOMPARE(root["data"].toObject()["classes"].toArray(), (QJsonArray{1, 7}));
        LatentPage again;
        QVERIFY(again.openSession(path));
        QCOMPARE(again.classesField()->text(), QString("1,7"));
        QCOMPARE(again.config().data.images.classes, (std::vector<int>{1, 7}));
        QCOMPARE(again.config().data.images.samples, 1797L);
        for (const auto& [value, why] :
             std::vector<std::pair<QJsonValue, QString>>{{QJsonArray{3, 3}, "3 is listed twice"},
                                                         {QJsonArray{12}, "12 is not a class"},
                                                         {QJsonArray{1.5}, "whole numbers"},
                                                         {QString("1,7"), "must be a list"}}) {
            QJsonObject data = root["data"].toObject();
            data["classes"] = value;
            root["data"] = data;
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QJsonDocument(root).toJson());
            f.close();
            QVERIFY(!again.openSession(path));
            QVERIFY2(again.lastError().contains(why), qPrintable(again.lastError()));
        }
        // A session written before data.classes opens with every class; a table has none.
        QJsonObject data = root["data"].toObject();
        data.remove("classes");
        root["data"] = data;
        const auto old = fa::io::latentSessionFromJson(QJsonDocument(root).toJson());
        QVERIFY(old.config.data.images.classes.empty());
        QCOMPARE(old.config.data.images.samples, 1797L);
        data["classes"] = QJsonArray{1};
        data["dataset"] = "boston";
        root["data"] = data;
        try {
            fa::io::latentSessionFromJson(QJsonDocument(root).toJson());
            QFAIL("classes on a table were read");
        } catch (const fa::io::SessionError& e) {
            QVERIFY2(QString(e.what()).contains("image data sets"), e.what());
        }
    }

    // Fashion-MNIST absent: the page says so naming the Debian package, and its fields show the
    // run that goes on (the generated data, its rows).
    void missingFashionNamesThePackage() {
        const QTemporaryDir empty;
        qputenv("FAEXPLORER_FASHION_MNIST", empty.path().toUtf8());
        LatentPage page;
        QVERIFY(runTo(page, 1));
        QSignalSpy errors(&page, &LabPage::runError);
        QComboBox* dataset = datasetBox(page);
        dataset->setCurrentIndex(dataset->findData("fashion-mnist"));
        QVERIFY(errors.wait(20000));
        qunsetenv("FAEXPLORER_FASHION_MNIST");
        QVERIFY2(errors[0][0].toString().contains(fa::io::kFashionMnistPackage),
                 qPrintable(errors[0][0].toString()));
        QVERIFY(page.lastError().contains("dataset-fashion-mnist"));
        QCOMPARE(dataset->currentData().toString(), QString("synthetic"));
        QCOMPARE(page.config().data.synthetic.samples, 1000);
        QVERIFY(!page.classesField()->isEnabled());
        QCOMPARE(page.latestSnapshot()->dataset, std::string("synthetic"));
    }
};

QTEST_MAIN(TestLatentPicturesPage)
#include "test_latent_pictures_page.moc"
